/* btrfs/004: making subvolumes and snapshots read-only (SUBVOL_SETFLAGS) through an idmapped mount.
 *
 * vfstest's btrfs_{subvolumes,snapshots}_setflags_fsids_{mapped,unmapped}[_userns]:
 * BTRFS_IOC_SUBVOL_SETFLAGS with BTRFS_SUBVOL_RDONLY (and back to 0) on a
 * subvolume or snapshot opened through the idmapped mount, by the callers
 * of btrfs_world.h.
 *
 * Expected (Linux 6.12 fs/btrfs/ioctl.c btrfs_ioctl_subvol_setflags):
 * EPERM unless inode_owner_or_capable(file_mnt_idmap(file), inode)
 * (fs/inode.c: the inode's vfsuid is the caller's fsuid, or the vfsuid is
 * mapped in the caller's namespace and it has CAP_FOWNER there); no fsid
 * mapping check (so an unmapped caller with CAP_FOWNER in the initial
 * namespace may). The flag is read back with SUBVOL_GETFLAGS; a read-only
 * subvolume refuses a new file with EROFS (btrfs_permission:
 * btrfs_root_readonly), a read-write one lets its owner create it. */
#include "btrfs_world.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/btrfs.h>
#include <stdio.h>
#include <unistd.h>

#define R_OWNER "btrfs_ioctl_subvol_setflags: inode_owner_or_capable(idmap): vfsuid 10000 == fsuid"
#define R_EPERM "btrfs_ioctl_subvol_setflags: !inode_owner_or_capable(idmap, inode) -> EPERM"
#define R_FOWNER "btrfs_ioctl_subvol_setflags: inode_owner_or_capable: CAP_FOWNER, vfsuid 10000 mapped in init_user_ns; no fsid mapping check"
#define R_EROFS "btrfs_permission: btrfs_root_readonly -> EROFS for MAY_WRITE"
#define R_ADMIN "btrfs_ioctl_snap_destroy: capable(CAP_SYS_ADMIN)"

static void cleanup(struct vt_ctx *ctx, struct bt_world *w)
{
	static const char *const names[] = { "sub", "snap", "snap-ro" };

	for (size_t i = 0; i < 3; i++) {
		struct bt_op d = { .kind = BT_OP_DESTROY, .dirfd = w->mnt_fd, .name = names[i] };
		if (w->mnt_fd >= 0 && faccessat(w->mnt_fd, names[i], F_OK, AT_SYMLINK_NOFOLLOW) == 0)
			bt_expect(ctx, w, BT_ROOT, &d, "SNAP_DESTROY (cleanup) through the mount", 0,
				  R_ADMIN);
	}
}

static int open_in(struct vt_ctx *ctx, int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		vt_fail(ctx, "setup: open %s through the mount: %s", name, vt_errname(errno));
	return fd;
}

/* WHO, the owner through the mount, toggles NAME: ro, a file refused,
 * rw, a file made. STARTS_RO: NAME is read-only to begin with. */
static void owner_toggles(struct vt_ctx *ctx, struct bt_world *w, enum bt_who who,
			  const char *name, bool starts_ro)
{
	struct bt_op set = { .kind = BT_OP_SETFLAGS };
	struct bt_op create = { .kind = BT_OP_CREATE, .name = "file" };
	char what[256];
	int fd = open_in(ctx, w->mnt_fd, name);

	if (fd < 0)
		return;
	set.srcfd = create.dirfd = fd;
	bt_expect_ro(ctx, w->mnt_fd, name, starts_ro, starts_ro ? "made BTRFS_SUBVOL_RDONLY" : "made read-write");
	set.flags = starts_ro ? 0 : BTRFS_SUBVOL_RDONLY;
	snprintf(what, sizeof(what), "SUBVOL_SETFLAGS %s on %s through the mount",
		 starts_ro ? "0" : "RDONLY", name);
	if (bt_expect(ctx, w, who, &set, what, 0, R_OWNER))
		bt_expect_ro(ctx, w->mnt_fd, name, !starts_ro, "the flag SUBVOL_SETFLAGS set");
	if (starts_ro) {
		bt_expect(ctx, w, who, &create, "create a file in it (read-write now)", 0,
			  "may_create(idmap): mapped fsuid, owner of the directory");
		set.flags = BTRFS_SUBVOL_RDONLY;
	} else {
		bt_expect(ctx, w, who, &create, "create a file in it (read-only now)", EROFS, R_EROFS);
		set.flags = 0;
	}
	snprintf(what, sizeof(what), "SUBVOL_SETFLAGS %s on %s through the mount",
		 set.flags ? "RDONLY" : "0", name);
	if (bt_expect(ctx, w, who, &set, what, 0, R_OWNER))
		bt_expect_ro(ctx, w->mnt_fd, name, starts_ro, "the flag SUBVOL_SETFLAGS set");
	close(fd);
}

/* WHO (unmapped) cannot change NAME's flag; the flag stays RO. */
static void refused(struct vt_ctx *ctx, struct bt_world *w, enum bt_who who, const char *name,
		    bool ro)
{
	struct bt_op set = { .kind = BT_OP_SETFLAGS, .flags = ro ? 0 : BTRFS_SUBVOL_RDONLY };
	char what[256];
	int fd = open_in(ctx, w->mnt_fd, name);

	if (fd < 0)
		return;
	set.srcfd = fd;
	snprintf(what, sizeof(what), "SUBVOL_SETFLAGS %s on %s through the mount",
		 ro ? "0" : "RDONLY", name);
	bt_expect(ctx, w, who, &set, what, EPERM, R_EPERM);
	bt_expect_ro(ctx, w->mnt_fd, name, ro, "the refused SUBVOL_SETFLAGS changed nothing");
	close(fd);
}

static void subvol_mapped_common(struct vt_ctx *ctx, enum bt_who who)
{
	struct bt_world w;
	struct bt_op create = { .kind = BT_OP_SUBVOL, .name = "sub" };

	if (!bt_world_make(ctx, &w))
		goto out;
	create.dirfd = w.mnt_fd;
	if (bt_expect(ctx, &w, who, &create, "SUBVOL_CREATE_V2 sub through the mount", 0,
		      "btrfs_may_create(idmap): mapped fsuid, owner of src through the mount"))
		owner_toggles(ctx, &w, who, "sub", false);
out:
	cleanup(ctx, &w);
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

static void subvol_unmapped(struct vt_ctx *ctx)
{
	struct bt_world w;
	struct bt_op set = { .kind = BT_OP_SETFLAGS };
	int fd;

	if (!bt_world_make(ctx, &w))
		goto out;
	if (bt_subvol_create(w.base_fd, "sub") != 0) {
		vt_fail(ctx, "setup: SUBVOL_CREATE_V2 sub as root on disk: %s", vt_errname(errno));
		goto out;
	}
	refused(ctx, &w, BT_UNMAPPED_NOCAPS, "sub", false);
	/* with CAP_FOWNER the unmapped fsuid does not matter */
	fd = open_in(ctx, w.mnt_fd, "sub");
	if (fd < 0)
		goto out;
	set.srcfd = fd;
	set.flags = BTRFS_SUBVOL_RDONLY;
	if (bt_expect(ctx, &w, BT_UNMAPPED, &set, "SUBVOL_SETFLAGS RDONLY on sub through the mount",
		      0, R_FOWNER))
		bt_expect_ro(ctx, w.mnt_fd, "sub", true, "the flag SUBVOL_SETFLAGS set");
	set.flags = 0;
	bt_expect(ctx, &w, BT_UNMAPPED, &set, "SUBVOL_SETFLAGS 0 on sub through the mount", 0,
		  R_FOWNER);
	close(fd);
out:
	cleanup(ctx, &w);
	bt_world_end(ctx, &w);
}

static void subvol_unmapped_userns(struct vt_ctx *ctx)
{
	struct bt_world w;

	if (!bt_world_make(ctx, &w))
		goto out;
	if (bt_subvol_create(w.base_fd, "sub") != 0) {
		vt_fail(ctx, "setup: SUBVOL_CREATE_V2 sub as root on disk: %s", vt_errname(errno));
		goto out;
	}
	bt_expect_owner_as(ctx, &w, BT_UNMAPPED_USERNS, w.mnt_fd, "sub", vt_overflowuid(),
			   vt_overflowgid(), "from_kuid_munged: 10000 has no mapping in the namespace");
	/* root of the namespace: CAP_FOWNER there, but 10000 is not mapped
	 * in it (vfsuid_has_mapping fails) */
	refused(ctx, &w, BT_UNMAPPED_USERNS, "sub", false);
out:
	cleanup(ctx, &w);
	bt_world_end(ctx, &w);
}

/* sub, snap and snap-ro (BTRFS_SUBVOL_RDONLY), made by MAKER through the
 * mount (BT_ROOT: on disk, by root). */
static bool three(struct vt_ctx *ctx, struct bt_world *w, enum bt_who maker)
{
	struct bt_op create = { .kind = BT_OP_SUBVOL, .dirfd = w->mnt_fd, .name = "sub" };
	struct bt_op snap = { .kind = BT_OP_SNAP, .dirfd = w->mnt_fd, .name = "snap" };
	struct bt_op snap_ro = { .kind = BT_OP_SNAP_RO, .dirfd = w->mnt_fd, .name = "snap-ro" };
	bool ok;
	int fd;

	if (maker == BT_ROOT) /* host root on disk, not through the mount */
		create.dirfd = snap.dirfd = snap_ro.dirfd = w->base_fd;
	if (!bt_expect(ctx, w, maker, &create, "SUBVOL_CREATE_V2 sub", 0,
		       "btrfs_may_create: mapped fsuid with write access"))
		return false;
	fd = open_in(ctx, create.dirfd, "sub");
	if (fd < 0)
		return false;
	snap.srcfd = snap_ro.srcfd = fd;
	ok = bt_expect(ctx, w, maker, &snap, "SNAP_CREATE_V2 snap of sub", 0,
		       "__btrfs_ioctl_snap_create: inode_owner_or_capable(idmap, sub)") &&
	     bt_expect(ctx, w, maker, &snap_ro, "SNAP_CREATE_V2 (RDONLY) snap-ro of sub", 0,
		       "__btrfs_ioctl_snap_create: inode_owner_or_capable(idmap, sub)");
	close(fd);
	return ok;
}

static void snapshot_mapped_common(struct vt_ctx *ctx, enum bt_who who)
{
	struct bt_world w;

	if (!bt_world_make(ctx, &w))
		goto out;
	if (!three(ctx, &w, who))
		goto out;
	owner_toggles(ctx, &w, who, "snap", false);
	owner_toggles(ctx, &w, who, "snap-ro", true);
out:
	cleanup(ctx, &w);
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

static void snapshot_unmapped_common(struct vt_ctx *ctx, enum bt_who who)
{
	struct bt_world w;

	if (!bt_world_make(ctx, &w))
		goto out;
	if (!three(ctx, &w, BT_ROOT))
		goto out;
	refused(ctx, &w, who, "snap", false);
	refused(ctx, &w, who, "snap-ro", true);
out:
	cleanup(ctx, &w);
	bt_world_end(ctx, &w);
}

static void snapshot_unmapped(struct vt_ctx *ctx)
{
	snapshot_unmapped_common(ctx, BT_UNMAPPED_NOCAPS);
}

static void snapshot_unmapped_userns(struct vt_ctx *ctx)
{
	snapshot_unmapped_common(ctx, BT_UNMAPPED_USERNS);
}

static const struct vt_case cases[] = {
	{ "subvol-setflags-fsids-mapped", subvol_mapped },
	{ "subvol-setflags-fsids-mapped-userns", subvol_mapped_userns },
	{ "subvol-setflags-fsids-unmapped", subvol_unmapped },
	{ "subvol-setflags-fsids-unmapped-userns", subvol_unmapped_userns },
	{ "snapshot-setflags-fsids-mapped", snapshot_mapped },
	{ "snapshot-setflags-fsids-mapped-userns", snapshot_mapped_userns },
	{ "snapshot-setflags-fsids-unmapped", snapshot_unmapped },
	{ "snapshot-setflags-fsids-unmapped-userns", snapshot_unmapped_userns },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct vt_test t = { .cases = cases,
					  .needs = { .features = VT_FSF_SUBVOLUME } };
	return vt_test_main(&t, argc, argv);
}
