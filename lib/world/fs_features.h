/* Does the filesystem under a directory support POSIX ACLs / an xattr
 * namespace? Answered by trying it on a scratch file, as the caller that
 * asks (run it through vt_run_as() to ask as another caller). */
#ifndef VT_FS_FEATURES_H
#define VT_FS_FEATURES_H

/* 0 if a POSIX access ACL can be set below DIR, else -errno
 * (-EOPNOTSUPP: the filesystem has no ACL support). */
int vt_probe_posix_acl(const char *dir);

/* 0 if an xattr of namespace PREFIX ("user.", "trusted.", "security.") can
 * be set below DIR, else -errno. */
int vt_probe_xattr(const char *dir, const char *prefix);

#endif
