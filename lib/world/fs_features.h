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

/* 0 if the filesystem below DIR stores file owners: a scratch file chowned
 * to 1000:1000 reads back as 1000:1000. Otherwise -errno of the chown
 * (vfat: EPERM from fat_setattr) or -EOPNOTSUPP if it was silently ignored. */
int vt_probe_owner_storage(const char *dir);

#endif
