/* The btrfs suite's world: a directory on btrfs, an idmapped mount of it,
 * the four callers of xfstests' vfstest btrfs entries, and the subvolume
 * ioctls run as those callers.
 *
 * The mount's idmap is b:0:10000:10000: ids 0..9999 on disk are seen as
 * 10000..19999 through the mount. The callers:
 *   mapped         uid 0 with fsuid/fsgid 10000 (mapped: disk 0)
 *   mapped-userns  root of a user namespace b:0:10000:10000 (kuid 10000)
 *   unmapped       uid 0 with fsuid/fsgid 0 (0 is not in 10000..19999)
 *   unmapped-userns root of a user namespace b:0:30000:10000 (kuid 30000)
 * In the initial namespace the caller has all capabilities or none
 * ("caps" or "nocaps"); in a user namespace its root has them there only,
 * so capable(CAP_SYS_ADMIN) (init_user_ns) is false for it.
 *
 * All expectations come from fs/btrfs/ioctl.c, fs/btrfs/inode.c, fs/namei.c
 * and fs/inode.c of Linux 6.12; each test cites the function. */
#ifndef VT_BTRFS_WORLD_H
#define VT_BTRFS_WORLD_H

#include "testlib/testlib.h"

#include <stdbool.h>
#include <stdint.h>

#define BT_MNT_MAP "b:0:10000:10000"
#define BT_NS_MAPPED "b:0:10000:10000"
#define BT_NS_UNMAPPED "b:0:30000:10000"
#define BT_SEEN 10000 /* disk id 0 as seen through the mount */

enum bt_who { BT_MAPPED, BT_MAPPED_NOCAPS, BT_UNMAPPED, BT_UNMAPPED_NOCAPS, BT_MAPPED_USERNS,
	      BT_UNMAPPED_USERNS, BT_ROOT };

struct bt_world {
	char base[4096];  /* the directory on btrfs, disk view (mode 0777, 0:0) */
	char mnt[4096];   /* BT_MNT_MAP idmapped mount of base */
	char fsmnt[4096]; /* the suite's own btrfs (bt_world_own_fs), else "" */
	int base_fd, mnt_fd;
	int ns_mapped, ns_unmapped;
};

/* base = ctx->dir/src on TEST_DIR, mounted idmapped at ctx->dir/mnt.
 * Returns false (case failed) if setup failed. umask is 022 afterwards. */
bool bt_world_make(struct vt_ctx *ctx, struct bt_world *w);
/* The same on a btrfs of the case's own: an image in the case directory,
 * mkfs.btrfs'ed and mounted at ctx->dir/fs with OPTIONS (e.g.
 * "user_subvol_rm_allowed"); base = that mount's src directory. */
bool bt_world_own_fs(struct vt_ctx *ctx, struct bt_world *w, const char *options);
/* Closes fds, unmounts what the world mounted (the own btrfs last, so its
 * autoclear loop device goes away). Subvolumes left are removed by rmdir
 * as root when the case directory is removed. */
void bt_world_end(struct vt_ctx *ctx, struct bt_world *w);

/* Does the btrfs holding PATH have user_subvol_rm_allowed (its super
 * options in /proc/self/mountinfo)? -1 if it cannot be told. */
int bt_rm_allowed(const char *path);
/* bt_world_make, and *RMOPT = bt_rm_allowed of its base; false (case
 * failed) when either cannot be had. */
bool bt_world_make_rm(struct vt_ctx *ctx, struct bt_world *w, int *rmopt);
/* The errno an unprivileged SNAP_DESTROY gets (btrfs_ioctl_snap_destroy):
 * EPERM without user_subvol_rm_allowed; with it OPT_ERR, the outcome of
 * inode_permission(idmap, subvolume, W|X) and btrfs_may_delete(idmap) the
 * test worked out, OPT_RULE naming what decided it. *RULE gets the rule. */
int bt_unpriv_delete(struct vt_ctx *ctx, int rmopt, int opt_err, const char *opt_rule,
		     const char **rule);

struct vt_caller bt_caller(const struct bt_world *w, enum bt_who who);

/* Root-side helpers (the test process): 0 or errno. */
int bt_subvol_create(int dirfd, const char *name);
int bt_snapshot_create(int srcfd, int dirfd, const char *name, bool rdonly);
int bt_subvol_destroy(int dirfd, const char *name);
int bt_subvol_getflags(int fd, uint64_t *flags);
int bt_subvol_id(int fd, uint64_t *id); /* BTRFS_IOC_INO_LOOKUP: CAP_SYS_ADMIN */

/* One operation, run as a caller. */
enum bt_kind {
	BT_OP_SUBVOL,	  /* SUBVOL_CREATE_V2 NAME in DIRFD */
	BT_OP_SNAP,	  /* SNAP_CREATE_V2 NAME in DIRFD of SRCFD */
	BT_OP_SNAP_RO,	  /* same, BTRFS_SUBVOL_RDONLY */
	BT_OP_DESTROY,	  /* SNAP_DESTROY NAME in DIRFD */
	BT_OP_DESTROY_ID, /* SNAP_DESTROY_V2 BTRFS_SUBVOL_SPEC_BY_ID ID on DIRFD */
	BT_OP_SETFLAGS,	  /* SUBVOL_SETFLAGS FLAGS on SRCFD */
	BT_OP_RENAME,	  /* renameat NAME -> NAME2 in DIRFD */
	BT_OP_CREATE,	  /* openat(O_CREAT|O_EXCL) NAME in DIRFD */
	BT_OP_STAT,	  /* fstatat NAME in DIRFD: owner into data (uid_t, gid_t) */
	BT_OP_LOOKUP_USER, /* INO_LOOKUP_USER (ID = treeid, FLAGS = dirid) on SRCFD */
	BT_OP_ROOTREF,	  /* GET_SUBVOL_ROOTREF from 0 on SRCFD */
};

struct bt_op {
	enum bt_kind kind;
	int dirfd, srcfd;
	const char *name, *name2;
	uint64_t id, flags;
};

/* Output of BT_OP_LOOKUP_USER and BT_OP_ROOTREF (the data buffer). */
struct bt_lookup_out {
	char path[4096];
	char name[256];
};
struct bt_rootref_out {
	unsigned int n;
	uint64_t treeid[255], dirid[255];
};

/* Runs OP as WHO; DATA gets what the op returns. Returns the op's errno
 * (0: success) or -1 when the caller could not run (the case failed). */
int bt_as(struct vt_ctx *ctx, const struct bt_world *w, enum bt_who who, const struct bt_op *op,
	  void *data, size_t len);

/* The same as any caller C. */
int bt_as_caller(struct vt_ctx *ctx, const struct vt_caller *c, const struct bt_op *op, void *data,
		 size_t len);

/* bt_as + vt_expect_errno; WHAT names the operation for the message. */
bool bt_expect(struct vt_ctx *ctx, const struct bt_world *w, enum bt_who who,
	       const struct bt_op *op, const char *what, int want, const char *rule);

/* Owner of NAME in DIRFD as WHO sees it (stat in the caller). */
bool bt_expect_owner_as(struct vt_ctx *ctx, const struct bt_world *w, enum bt_who who, int dirfd,
			const char *name, uid_t uid, gid_t gid, const char *rule);

/* The subvolume's read-only flag (GETFLAGS as root). */
bool bt_expect_ro(struct vt_ctx *ctx, int dirfd, const char *name, bool ro, const char *rule);

const char *bt_who_name(enum bt_who who);

#endif
