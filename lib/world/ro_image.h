/* Read-only image filesystems (erofs, squashfs): the tree the suite stages
 * and bakes into every image, and the image made from it.
 *
 * Such a filesystem cannot be written once made, so the world a test
 * reads is fixed here, in one table both sides use: the image maker
 * stages it (as root, on a tmpfs of its own) with these owners, modes,
 * setid bits, POSIX ACLs, user./trusted. xattrs and file capabilities,
 * and the tests read the same table to know what the image holds and to
 * give the model its world. */
#ifndef VT_RO_IMAGE_H
#define VT_RO_IMAGE_H

#include "world/xattr_view.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define VT_RO_MAX_ACL 8
/* the empty directory of the image root where the test library mounts a
 * tmpfs for its case directories (a read-only filesystem has no room) */
#define VT_RO_SCRATCH "scratch"
/* the values of the xattrs the tree carries */
#define VT_RO_USER_XATTR "user.vt"
#define VT_RO_USER_VALUE "u-ro"
#define VT_RO_TRUSTED_XATTR "trusted.vt"
#define VT_RO_TRUSTED_VALUE "t-ro"

struct vt_ro_entry {
	const char *path;	/* below the image root */
	char kind;		/* 'd' directory, 'f' file, 'x' copy of exec-probe, 'l' symlink */
	mode_t mode;		/* permission bits with setid/sticky (as lstat shows them) */
	uid_t uid;
	gid_t gid;
	const char *target;	/* 'l': the symlink's target */
	/* access and default ACL, as the raw xattr's entries (kernel ids) */
	int nacl;
	struct vt_acl_entry acl[VT_RO_MAX_ACL];
	int ndefacl;
	struct vt_acl_entry defacl[VT_RO_MAX_ACL];
	int fcaps_version;	/* 0: none; 2 or 3 (fP = CAP_NET_RAW, effective) */
	uint32_t fcaps_rootid;	/* v3 */
	bool user_xattr;	/* VT_RO_USER_XATTR = VT_RO_USER_VALUE */
	bool trusted_xattr;	/* VT_RO_TRUSTED_XATTR = VT_RO_TRUSTED_VALUE */
};

extern const struct vt_ro_entry vt_ro_tree[];
extern const size_t vt_ro_tree_count;

/* The entry of PATH, or NULL. */
const struct vt_ro_entry *vt_ro_entry(const char *path);

/* Creates the tree below ROOT (an empty directory on a filesystem with
 * xattrs and ACLs); EXEC_PROBE is the program 'x' entries copy. Returns
 * 0, or -errno with the failed step in *WHAT. */
int vt_ro_stage(const char *root, const char *exec_probe, const char **what);

/* Makes the FSTYPE image PATH (a new file: never an existing one) from
 * the tree, staged on a private tmpfs in a private mount namespace (the
 * tmpfs vanishes with this process's namespace whatever happens) below
 * a new directory next to PATH, which is removed again. MKFS_OPTIONS are
 * the user's, after the row's. Tool output goes to LOG_FD. Returns 0 or
 * -errno; -ENOEXEC when the mkfs program failed; *WHAT names the step. */
int vt_ro_image_create(const char *path, const char *fstype, const char *mkfs_options,
		       const char *exec_probe, int log_fd, const char **what);

/* Makes the FSTYPE image PATH (a new file: never an existing one) from the
 * tree already staged below SRC (owners, modes, setid bits, xattrs, ACLs
 * and file capabilities as they are there: mkfs.erofs keeps uid/gid and
 * every xattr by default, its -x defaulting to 2, "disable storing xattrs
 * if < 0"), with the row's mkfs template (lib/fs/fs_table.c) and the
 * user's MKFS_OPTIONS. Tool output goes to LOG_FD (-1: /dev/null).
 * Returns 0 or -errno (-ENOEXEC: the mkfs program failed); *WHAT names
 * the step; PATH is removed again on failure. */
int vt_ro_image_from_dir(const char *path, const char *fstype, const char *src,
			 const char *mkfs_options, int log_fd, const char **what);

/* NULL if FSTYPE images can be made and mounted here, else why not (the
 * kernel has no such filesystem, its mkfs is not installed), in WHY. */
const char *vt_ro_image_unavailable(const char *fstype, char *why, size_t len);

#endif
