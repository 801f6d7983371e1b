/* btrfs/003: subvolume and snapshot deletion with user_subvol_rm_allowed through an idmapped mount.
 *
 * vfstest's btrfs_{subvolumes,snapshots}_fsids_mapped[_userns]_user_subvol_rm_allowed,
 * plus the unmapped callers and a control mount without the option. The
 * option is a superblock option (btrfs_test_opt) that a second mount of
 * TEST_DIR's device would not change (the superblock is shared) and a
 * remount could not clear again; so each case makes a btrfs of its own:
 * an image file in its case directory, mkfs.btrfs, mounted (autoclear
 * loop device) at the case's fs/ with exactly the options the case is
 * about, inside the test's private mount namespace, unmounted at the end.
 *
 * Expected (Linux 6.12 fs/btrfs/ioctl.c btrfs_ioctl_snap_destroy): a
 * caller without capable(CAP_SYS_ADMIN) (init_user_ns) gets EPERM unless
 * btrfs_test_opt(USER_SUBVOL_RM_ALLOWED); with it, EINVAL if the fd is
 * the subvolume itself, then inode_permission(idmap, subvolume,
 * MAY_WRITE|MAY_EXEC) (btrfs_permission: EROFS on a read-only root, else
 * generic_permission through the mount's idmap), then
 * btrfs_may_delete(idmap) (inode_permission(idmap, dir, W|X), sticky). */
#include "btrfs_world.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/btrfs.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#define R_OPT "btrfs_ioctl_snap_destroy: !capable, user_subvol_rm_allowed -> inode_permission(idmap, subvolume, W|X): owner through the mount; btrfs_may_delete(idmap)"
#define R_CREATE "btrfs_mksubvol -> btrfs_may_create(idmap): mapped fsuid, owner of src through the mount"
#define R_ADMIN "btrfs_ioctl_snap_destroy: capable(CAP_SYS_ADMIN) -> btrfs_may_delete(idmap) only"

static bool world(struct vt_ctx *ctx, struct bt_world *w, const char *options)
{
	if (!bt_world_own_fs(ctx, w, options))
		return false;
	vt_note(ctx, "the case's own btrfs is mounted -o %s", options ? options : "(none)");
	return true;
}

static void destroy_left(struct vt_ctx *ctx, struct bt_world *w, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct bt_op d = { .kind = BT_OP_DESTROY, .dirfd = w->mnt_fd, .name = names[i] };
		if (w->mnt_fd >= 0 && faccessat(w->mnt_fd, names[i], F_OK, AT_SYMLINK_NOFOLLOW) == 0)
			bt_expect(ctx, w, BT_ROOT, &d, "SNAP_DESTROY (cleanup) through the mount", 0,
				  R_ADMIN);
	}
}

static void subvol_mapped_common(struct vt_ctx *ctx, enum bt_who who)
{
	static const char *const names[] = { "sub", "sub2" };
	struct bt_world w;
	struct bt_op c1 = { .kind = BT_OP_SUBVOL, .name = "sub" };
	struct bt_op c2 = { .kind = BT_OP_SUBVOL, .name = "sub2" };
	struct bt_op d1 = { .kind = BT_OP_DESTROY, .name = "sub" };
	struct bt_op d2 = { .kind = BT_OP_DESTROY, .name = "sub2" };
	struct bt_op self = { .kind = BT_OP_DESTROY, .name = "plain" };
	char p[4300];

	if (!world(ctx, &w, "user_subvol_rm_allowed"))
		goto out;
	c1.dirfd = c2.dirfd = d1.dirfd = d2.dirfd = self.dirfd = w.mnt_fd;
	if (!bt_expect(ctx, &w, who, &c1, "SUBVOL_CREATE_V2 sub through the mount", 0, R_CREATE) ||
	    !bt_expect(ctx, &w, who, &c2, "SUBVOL_CREATE_V2 sub2 through the mount", 0, R_CREATE))
		goto out;
	snprintf(p, sizeof(p), "%s/sub", w.mnt);
	vt_expect_owner(ctx, p, BT_SEEN, BT_SEEN, "inode_init_owner(idmap): 0 on disk, 10000 seen");
	/* A plain directory of src's own subvolume: root == dest. */
	snprintf(p, sizeof(p), "%s/plain", w.base);
	if (mkdir(p, 0777) < 0) {
		vt_fail(ctx, "setup: mkdir %s: %s", p, vt_errname(errno));
		goto out;
	}
	bt_expect(ctx, &w, who, &self, "SNAP_DESTROY plain (a directory, not a subvolume)", EINVAL,
		  "btrfs_ioctl_snap_destroy: user_subvol_rm_allowed path, root == dest -> EINVAL");
	bt_expect(ctx, &w, who, &d1, "SNAP_DESTROY sub through the mount", 0, R_OPT);
	/* sub2 made 0555 on disk: the owner lacks write on it */
	snprintf(p, sizeof(p), "%s/sub2", w.base);
	if (chmod(p, 0555) < 0) {
		vt_fail(ctx, "setup: chmod %s 0555: %s", p, vt_errname(errno));
		goto out;
	}
	/* Root of the namespace has CAP_DAC_OVERRIDE there, and sub2's
	 * vfsuid/vfsgid (10000) are mapped in it: generic_permission ->
	 * capable_wrt_inode_uidgid lets it write anyway. */
	if (who == BT_MAPPED_USERNS)
		bt_expect(ctx, &w, who, &d2, "SNAP_DESTROY sub2 (mode 0555) through the mount", 0,
			  "user_subvol_rm_allowed -> inode_permission(idmap, sub2, W|X): "
			  "generic_permission: CAP_DAC_OVERRIDE in the namespace, vfsuid 10000 mapped "
			  "there (capable_wrt_inode_uidgid)");
	else
		bt_expect(ctx, &w, who, &d2, "SNAP_DESTROY sub2 (mode 0555) through the mount",
			  EACCES,
			  "btrfs_ioctl_snap_destroy: user_subvol_rm_allowed -> inode_permission(idmap, "
			  "sub2, W|X): owner without w, no capability -> EACCES");
out:
	destroy_left(ctx, &w, names, 2);
	bt_world_end(ctx, &w);
}

static void subvol_mapped(struct vt_ctx *ctx)
{
	subvol_mapped_common(ctx, BT_MAPPED_NOCAPS);
}

static void subvol_mapped_userns(struct vt_ctx *ctx)
{
	subvol_mapped_common(ctx, BT_MAPPED_USERNS);
}

static void snapshot_mapped_common(struct vt_ctx *ctx, enum bt_who who)
{
	static const char *const names[] = { "sub", "snap", "snap-ro" };
	struct bt_world w;
	struct bt_op create = { .kind = BT_OP_SUBVOL, .name = "sub" };
	struct bt_op snap = { .kind = BT_OP_SNAP, .name = "snap" };
	struct bt_op snap_ro = { .kind = BT_OP_SNAP_RO, .name = "snap-ro" };
	struct bt_op setrw = { .kind = BT_OP_SETFLAGS, .flags = 0 };
	int subfd = -1, rofd = -1;

	if (!world(ctx, &w, "user_subvol_rm_allowed"))
		goto out;
	create.dirfd = snap.dirfd = snap_ro.dirfd = w.mnt_fd;
	if (!bt_expect(ctx, &w, who, &create, "SUBVOL_CREATE_V2 sub through the mount", 0, R_CREATE))
		goto out;
	subfd = openat(w.mnt_fd, "sub", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (subfd < 0) {
		vt_fail(ctx, "setup: open sub through the mount: %s", vt_errname(errno));
		goto out;
	}
	snap.srcfd = snap_ro.srcfd = subfd;
	if (!bt_expect(ctx, &w, who, &snap, "SNAP_CREATE_V2 snap through the mount", 0,
		       "__btrfs_ioctl_snap_create: inode_owner_or_capable(idmap, sub): owner") ||
	    !bt_expect(ctx, &w, who, &snap_ro, "SNAP_CREATE_V2 (RDONLY) snap-ro through the mount", 0,
		       "__btrfs_ioctl_snap_create: inode_owner_or_capable(idmap, sub): owner"))
		goto out;
	for (size_t i = 0; i < 2; i++) {
		struct bt_op d = { .kind = BT_OP_DESTROY, .dirfd = w.mnt_fd, .name = names[i] };
		bt_expect(ctx, &w, who, &d, "SNAP_DESTROY through the mount", 0, R_OPT);
	}
	{
		struct bt_op d = { .kind = BT_OP_DESTROY, .dirfd = w.mnt_fd, .name = "snap-ro" };
		bt_expect(ctx, &w, who, &d, "SNAP_DESTROY snap-ro (read-only) through the mount",
			  EROFS,
			  "inode_permission(idmap, snap-ro, W|X) -> btrfs_permission: "
			  "btrfs_root_readonly -> EROFS");
		rofd = openat(w.mnt_fd, "snap-ro", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (rofd < 0) {
			vt_fail(ctx, "open snap-ro through the mount: %s", vt_errname(errno));
			goto out;
		}
		setrw.srcfd = rofd;
		if (bt_expect(ctx, &w, who, &setrw, "SUBVOL_SETFLAGS 0 on snap-ro through the mount",
			      0, "btrfs_ioctl_subvol_setflags: inode_owner_or_capable(idmap): owner"))
			bt_expect(ctx, &w, who, &d, "SNAP_DESTROY snap-ro, now read-write", 0, R_OPT);
	}
out:
	if (subfd >= 0)
		close(subfd);
	if (rofd >= 0)
		close(rofd);
	destroy_left(ctx, &w, names, 3);
	bt_world_end(ctx, &w);
}

static void snapshot_mapped(struct vt_ctx *ctx)
{
	snapshot_mapped_common(ctx, BT_MAPPED_NOCAPS);
}

static void snapshot_mapped_userns(struct vt_ctx *ctx)
{
	snapshot_mapped_common(ctx, BT_MAPPED_USERNS);
}

/* sub made by root on disk (0:0 mode 0755, seen 10000:10000). */
static void subvol_unmapped_common(struct vt_ctx *ctx, enum bt_who who)
{
	static const char *const names[] = { "sub" };
	struct bt_world w;
	struct bt_op d = { .kind = BT_OP_DESTROY, .name = "sub" };

	if (!world(ctx, &w, "user_subvol_rm_allowed"))
		goto out;
	if (bt_subvol_create(w.base_fd, "sub") != 0) {
		vt_fail(ctx, "setup: SUBVOL_CREATE_V2 sub as root on disk: %s", vt_errname(errno));
		goto out;
	}
	d.dirfd = w.mnt_fd;
	bt_expect(ctx, &w, who, &d, "SNAP_DESTROY sub through the mount", EACCES,
		  "user_subvol_rm_allowed -> inode_permission(idmap, sub, W|X): sub is 0755 and "
		  "seen as 10000, the caller is other and has no capability over it -> EACCES");
	if (who == BT_UNMAPPED_NOCAPS)
		bt_expect(ctx, &w, BT_UNMAPPED, &d, "SNAP_DESTROY sub through the mount", 0,
			  R_ADMIN " (no fsid mapping check in btrfs_may_delete)");
out:
	destroy_left(ctx, &w, names, 1);
	bt_world_end(ctx, &w);
}

static void subvol_unmapped(struct vt_ctx *ctx)
{
	subvol_unmapped_common(ctx, BT_UNMAPPED_NOCAPS);
}

static void subvol_unmapped_userns(struct vt_ctx *ctx)
{
	subvol_unmapped_common(ctx, BT_UNMAPPED_USERNS);
}

/* The control: the same world on a btrfs mounted without the option. */
static void subvol_mapped_no_option(struct vt_ctx *ctx)
{
	static const char *const names[] = { "sub" };
	struct bt_world w;
	struct bt_op c = { .kind = BT_OP_SUBVOL, .name = "sub" };
	struct bt_op d = { .kind = BT_OP_DESTROY, .name = "sub" };

	if (!world(ctx, &w, NULL))
		goto out;
	c.dirfd = d.dirfd = w.mnt_fd;
	if (!bt_expect(ctx, &w, BT_MAPPED_NOCAPS, &c, "SUBVOL_CREATE_V2 sub through the mount", 0,
		       R_CREATE))
		goto out;
	bt_expect(ctx, &w, BT_MAPPED_NOCAPS, &d, "SNAP_DESTROY sub through the mount", EPERM,
		  "btrfs_ioctl_snap_destroy: !capable(CAP_SYS_ADMIN), no user_subvol_rm_allowed -> "
		  "EPERM");
	bt_expect(ctx, &w, BT_MAPPED_USERNS, &d, "SNAP_DESTROY sub through the mount", EPERM,
		  "btrfs_ioctl_snap_destroy: capable() asks init_user_ns; no user_subvol_rm_allowed "
		  "-> EPERM");
out:
	destroy_left(ctx, &w, names, 1);
	bt_world_end(ctx, &w);
}

static const struct vt_case cases[] = {
	{ "subvol-rm-allowed-fsids-mapped", subvol_mapped },
	{ "subvol-rm-allowed-fsids-mapped-userns", subvol_mapped_userns },
	{ "snapshot-rm-allowed-fsids-mapped", snapshot_mapped },
	{ "snapshot-rm-allowed-fsids-mapped-userns", snapshot_mapped_userns },
	{ "subvol-rm-allowed-fsids-unmapped", subvol_unmapped },
	{ "subvol-rm-allowed-fsids-unmapped-userns", subvol_unmapped_userns },
	{ "subvol-rm-not-allowed-fsids-mapped", subvol_mapped_no_option },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct vt_test t = { .cases = cases,
					  .needs = { .features = VT_FSF_SUBVOLUME } };
	return vt_test_main(&t, argc, argv);
}
