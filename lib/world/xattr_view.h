/* POSIX ACLs and file capabilities read and written as the kernel sees them:
 * the raw system.posix_acl_* and security.capability xattr formats
 * (include/uapi/linux/posix_acl_xattr.h, include/uapi/linux/capability.h),
 * so a test checks the ids the kernel returned, not a tool's rendering. */
#ifndef VT_XATTR_VIEW_H
#define VT_XATTR_VIEW_H

#include <stdbool.h>
#include <stdint.h>

/* e_tag values, include/uapi/linux/posix_acl.h */
#define VT_ACL_USER_OBJ 0x01
#define VT_ACL_USER 0x02
#define VT_ACL_GROUP_OBJ 0x04
#define VT_ACL_GROUP 0x08
#define VT_ACL_MASK 0x10
#define VT_ACL_OTHER 0x20
#define VT_ACL_MAX_ENTRIES 32

struct vt_acl_entry {
	uint16_t tag;
	uint16_t perm;
	uint32_t id; /* ACL_USER/ACL_GROUP only; (uint32_t)-1 otherwise */
};

/* Reads system.posix_acl_access (or _default if DEFAULT_ACL) of PATH.
 * Returns the number of entries, or -errno (-ENODATA: no ACL). */
int vt_acl_read(const char *path, bool default_acl, struct vt_acl_entry *out, int max);
/* The same through fgetxattr(2) on FD. */
int vt_acl_fread(int fd, bool default_acl, struct vt_acl_entry *out, int max);

/* Writes an ACL given in setfacl's long text form ("u::rwx,u:1001:rwx,g::r-x,m::rwx,o::r-x";
 * numeric qualifiers only) through libacl (acl_create_entry ... acl_set_file).
 * Returns 0 or -errno (-EINVAL: malformed text). */
int vt_acl_write_text(const char *path, bool default_acl, const char *text);

/* The ACL_USER (or ACL_GROUP) entry for ID: its perm, or -1 if absent. */
int vt_acl_find(const struct vt_acl_entry *e, int n, uint16_t tag, uint32_t id);

/* security.capability */
#define VT_CAP_V2 2
#define VT_CAP_V3 3

struct vt_fcaps {
	int version;		/* VT_CAP_V2 or VT_CAP_V3 */
	bool effective;		/* VFS_CAP_FLAGS_EFFECTIVE */
	uint64_t permitted;
	uint64_t inheritable;
	uint32_t rootid;	/* v3 only */
};

/* Reads and decodes security.capability; 0 or -errno (-ENODATA: none,
 * -EBADMSG: not a v2/v3 value). */
int vt_fcaps_read(const char *path, struct vt_fcaps *out);
int vt_fcaps_fread(int fd, struct vt_fcaps *out);	/* fgetxattr(2) */

/* Encodes and writes security.capability (v2 ignores rootid). */
int vt_fcaps_write(const char *path, const struct vt_fcaps *caps);
int vt_fcaps_fwrite(int fd, const struct vt_fcaps *caps);	/* fsetxattr(2) */

#endif
