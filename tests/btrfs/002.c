/* btrfs/002: snapshots (read-write and read-only) through an idmapped mount, mapped and unmapped fsids.
 *
 * vfstest's btrfs_snapshots_fsids_{mapped,unmapped}[_userns]: snapshots
 * of a subvolume (BTRFS_IOC_SNAP_CREATE_V2, with and without
 * BTRFS_SUBVOL_RDONLY) made, renamed and deleted through the idmapped
 * mount by the callers of btrfs_world.h.
 *
 * Expected (Linux 6.12 fs/btrfs/ioctl.c, inode.c; fs/inode.c):
 * __btrfs_ioctl_snap_create: EPERM unless inode_owner_or_capable(idmap,
 * source) (the source's vfsuid is the caller's fsuid, or CAP_FOWNER in
 * the caller's namespace with the vfsuid mapped there); then
 * btrfs_mksnapshot -> btrfs_mksubvol -> btrfs_may_create(idmap):
 * EOVERFLOW unless fsuidgid_has_mapping. create_snapshot copies the
 * source's root: the snapshot has the source's owner. Deletion as in
 * btrfs/001 (btrfs_ioctl_snap_destroy); a read-only snapshot fails
 * inode_permission(MAY_WRITE) with EROFS (btrfs_permission:
 * btrfs_root_readonly) when the user_subvol_rm_allowed path is taken. */
#include "btrfs_world.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#define R_CREATE "btrfs_mksubvol -> btrfs_may_create(idmap): fsuidgid_has_mapping, inode_permission(idmap, dir, W|X)"
#define R_SNAP "__btrfs_ioctl_snap_create: inode_owner_or_capable(idmap, source): vfsuid == fsuid; btrfs_may_create passes"
#define R_SNAP_NOMAP "__btrfs_ioctl_snap_create: inode_owner_or_capable via CAP_FOWNER (vfsuid 10000 mapped in init_user_ns), then btrfs_may_create: !fsuidgid_has_mapping -> EOVERFLOW"
#define R_SNAP_EPERM "__btrfs_ioctl_snap_create: !inode_owner_or_capable(idmap, source) -> EPERM"
#define R_OWNER "create_snapshot: the snapshot's root is a copy of the source's (owner 0:0 on disk)"
#define R_SEEN "i_uid_into_vfsuid(M, 0) = 10000 through the mount"
#define R_ADMIN "btrfs_ioctl_snap_destroy: capable(CAP_SYS_ADMIN) -> btrfs_may_delete(idmap) only"
#define R_RO "BTRFS_SUBVOL_RDONLY: create_snapshot sets BTRFS_ROOT_SUBVOL_RDONLY"

static const char *const names[] = { "sub", "snap", "snap-ro" };

/* with user_subvol_rm_allowed (btrfs_ioctl_snap_destroy) */
#define R_RM_OPT "btrfs_ioctl_snap_destroy: !capable, user_subvol_rm_allowed -> " \
	"inode_permission(idmap, subvolume, W|X) (btrfs_permission: EROFS on a " \
	"read-only root), btrfs_may_delete(idmap)"

/* Root removes whatever of sub, snap, snap-ro is left (through the mount). */
static void root_cleanup(struct vt_ctx *ctx, struct bt_world *w)
{
	for (size_t i = 0; i < 3; i++) {
		struct bt_op d = { .kind = BT_OP_DESTROY, .dirfd = w->mnt_fd, .name = names[i] };
		if (faccessat(w->mnt_fd, names[i], F_OK, AT_SYMLINK_NOFOLLOW) == 0)
			bt_expect(ctx, w, BT_ROOT, &d, "SNAP_DESTROY (cleanup) through the mount", 0,
				  R_ADMIN);
	}
}

/* WHO makes sub, then snap and snap-ro of it, all through the mount, and
 * finds the owners and the read-only flag as the rules say. */
static bool make_three(struct vt_ctx *ctx, struct bt_world *w, enum bt_who who, int *subfd)
{
	struct bt_op create = { .kind = BT_OP_SUBVOL, .dirfd = w->mnt_fd, .name = "sub" };
	struct bt_op snap = { .kind = BT_OP_SNAP, .dirfd = w->mnt_fd, .name = "snap" };
	struct bt_op snap_ro = { .kind = BT_OP_SNAP_RO, .dirfd = w->mnt_fd, .name = "snap-ro" };
	char p[4300];

	if (!bt_expect(ctx, w, who, &create, "SUBVOL_CREATE_V2 sub through the mount", 0, R_CREATE))
		return false;
	*subfd = openat(w->mnt_fd, "sub", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (*subfd < 0) {
		vt_fail(ctx, "setup: open sub through the mount: %s", vt_errname(errno));
		return false;
	}
	snap.srcfd = snap_ro.srcfd = *subfd;
	if (!bt_expect(ctx, w, who, &snap, "SNAP_CREATE_V2 snap of sub through the mount", 0,
		       R_SNAP) ||
	    !bt_expect(ctx, w, who, &snap_ro,
		       "SNAP_CREATE_V2 (BTRFS_SUBVOL_RDONLY) snap-ro of sub through the mount", 0,
		       R_SNAP))
		return false;
	for (size_t i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "%s/%s", w->base, names[i]);
		vt_expect_owner(ctx, p, 0, 0, i ? R_OWNER : "inode_init_owner(idmap): from_vfsuid(M, 10000) = 0");
		snprintf(p, sizeof(p), "%s/%s", w->mnt, names[i]);
		vt_expect_owner(ctx, p, BT_SEEN, BT_SEEN, R_SEEN);
	}
	bt_expect_ro(ctx, w->mnt_fd, "snap", false, "no BTRFS_SUBVOL_RDONLY");
	bt_expect_ro(ctx, w->mnt_fd, "snap-ro", true, R_RO);
	return true;
}

static void mapped(struct vt_ctx *ctx)
{
	struct bt_world w;
	const char *rule;
	int rmopt, subfd = -1, want;

	if (!bt_world_make_rm(ctx, &w, &rmopt))
		goto out;
	/* with all capabilities: deletion is the CAP_SYS_ADMIN path */
	if (!make_three(ctx, &w, BT_MAPPED, &subfd))
		goto out;
	close(subfd);
	subfd = -1;
	for (size_t i = 0; i < 3; i++) {
		struct bt_op d = { .kind = BT_OP_DESTROY, .dirfd = w.mnt_fd, .name = names[i] };
		bt_expect(ctx, &w, BT_MAPPED, &d, "SNAP_DESTROY through the mount", 0, R_ADMIN);
	}
	/* without: owner of sub through the mount, so snapshots still work */
	if (!make_three(ctx, &w, BT_MAPPED_NOCAPS, &subfd))
		goto out;
	for (size_t i = 0; i < 3; i++) {
		struct bt_op d = { .kind = BT_OP_DESTROY, .dirfd = w.mnt_fd, .name = names[i] };
		want = bt_unpriv_delete(ctx, rmopt, i == 2 ? EROFS : 0, R_RM_OPT, &rule);
		bt_expect(ctx, &w, BT_MAPPED_NOCAPS, &d, "SNAP_DESTROY through the mount", want, rule);
	}
out:
	if (subfd >= 0)
		close(subfd);
	root_cleanup(ctx, &w);
	bt_world_end(ctx, &w);
}

static void mapped_userns(struct vt_ctx *ctx)
{
	struct bt_world w;
	const char *rule;
	int rmopt, subfd = -1, want;

	if (!bt_world_make_rm(ctx, &w, &rmopt))
		goto out;
	if (!make_three(ctx, &w, BT_MAPPED_USERNS, &subfd))
		goto out;
	bt_expect_owner_as(ctx, &w, BT_MAPPED_USERNS, w.mnt_fd, "snap", 0, 0,
			   "stat in the namespace: from_kuid(userns, 10000) = 0");
	for (size_t i = 0; i < 3; i++) {
		struct bt_op d = { .kind = BT_OP_DESTROY, .dirfd = w.mnt_fd, .name = names[i] };
		want = bt_unpriv_delete(ctx, rmopt, i == 2 ? EROFS : 0, R_RM_OPT, &rule);
		bt_expect(ctx, &w, BT_MAPPED_USERNS, &d, "SNAP_DESTROY through the mount", want, rule);
	}
out:
	if (subfd >= 0)
		close(subfd);
	root_cleanup(ctx, &w);
	bt_world_end(ctx, &w);
}

/* sub made by root on disk (0:0, seen 10000); WHO (unmapped) tries. */
static void unmapped_common(struct vt_ctx *ctx, bool userns)
{
	enum bt_who who = userns ? BT_UNMAPPED_USERNS : BT_UNMAPPED;
	struct bt_world w;
	struct bt_op create = { .kind = BT_OP_SUBVOL, .name = "sub2" };
	struct bt_op snap = { .kind = BT_OP_SNAP, .name = "snap" };
	struct bt_op snap_ro = { .kind = BT_OP_SNAP_RO, .name = "snap-ro" };
	struct bt_op rename = { .kind = BT_OP_RENAME, .name = "sub", .name2 = "sub-renamed" };
	struct bt_op destroy = { .kind = BT_OP_DESTROY, .name = "sub" };
	const char *rule;
	int rmopt, subfd = -1, want;

	if (!bt_world_make_rm(ctx, &w, &rmopt))
		goto out;
	if (bt_subvol_create(w.base_fd, "sub") != 0) {
		vt_fail(ctx, "setup: SUBVOL_CREATE_V2 sub as root on disk: %s", vt_errname(errno));
		goto out;
	}
	subfd = openat(w.mnt_fd, "sub", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (subfd < 0) {
		vt_fail(ctx, "setup: open sub through the mount: %s", vt_errname(errno));
		goto out;
	}
	create.dirfd = snap.dirfd = snap_ro.dirfd = rename.dirfd = destroy.dirfd = w.mnt_fd;
	snap.srcfd = snap_ro.srcfd = subfd;
	if (userns)
		bt_expect_owner_as(ctx, &w, who, w.mnt_fd, "sub", vt_overflowuid(), vt_overflowgid(),
				   "from_kuid_munged: 10000 has no mapping in the namespace");
	bt_expect(ctx, &w, who, &create, "SUBVOL_CREATE_V2 sub2 through the mount", EOVERFLOW,
		  "btrfs_may_create: !fsuidgid_has_mapping(sb, idmap) -> EOVERFLOW");
	/* In the initial namespace CAP_FOWNER covers the source (vfsuid
	 * 10000 is mapped there); in the namespace 10000 has no mapping. */
	bt_expect(ctx, &w, who, &snap, "SNAP_CREATE_V2 snap of sub through the mount",
		  userns ? EPERM : EOVERFLOW, userns ? R_SNAP_EPERM : R_SNAP_NOMAP);
	bt_expect(ctx, &w, who, &snap_ro, "SNAP_CREATE_V2 (RDONLY) snap-ro through the mount",
		  userns ? EPERM : EOVERFLOW, userns ? R_SNAP_EPERM : R_SNAP_NOMAP);
	bt_expect(ctx, &w, who, &rename, "rename sub -> sub-renamed through the mount", EOVERFLOW,
		  "vfs_rename: may_delete passes (dir 0777), may_create: !fsuidgid_has_mapping -> "
		  "EOVERFLOW");
	if (!userns) {
		bt_expect(ctx, &w, BT_UNMAPPED_NOCAPS, &snap,
			  "SNAP_CREATE_V2 snap of sub through the mount", EPERM, R_SNAP_EPERM);
		bt_expect(ctx, &w, BT_UNMAPPED_NOCAPS, &snap_ro,
			  "SNAP_CREATE_V2 (RDONLY) snap-ro through the mount", EPERM, R_SNAP_EPERM);
		who = BT_UNMAPPED_NOCAPS;
	}
	/* sub is 0755, seen as 10000: the caller is "other" without caps */
	want = bt_unpriv_delete(ctx, rmopt, EACCES, R_RM_OPT, &rule);
	bt_expect(ctx, &w, who, &destroy, "SNAP_DESTROY sub through the mount", want, rule);
	if (!userns && want)
		bt_expect(ctx, &w, BT_UNMAPPED, &destroy, "SNAP_DESTROY sub through the mount", 0,
			  R_ADMIN " (btrfs_may_delete has no fsid mapping check)");
	for (size_t i = 1; i < 3; i++)
		if (faccessat(w.base_fd, names[i], F_OK, AT_SYMLINK_NOFOLLOW) == 0)
			vt_fail(ctx, "%s exists after every snapshot was refused", names[i]);
out:
	if (subfd >= 0)
		close(subfd);
	root_cleanup(ctx, &w);
	bt_world_end(ctx, &w);
}

static void unmapped(struct vt_ctx *ctx)
{
	unmapped_common(ctx, false);
}

static void unmapped_userns(struct vt_ctx *ctx)
{
	unmapped_common(ctx, true);
}

static const struct vt_case cases[] = {
	{ "snapshot-fsids-mapped", mapped },
	{ "snapshot-fsids-mapped-userns", mapped_userns },
	{ "snapshot-fsids-unmapped", unmapped },
	{ "snapshot-fsids-unmapped-userns", unmapped_userns },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct vt_test t = { .cases = cases,
					  .needs = { .features = VT_FSF_SUBVOLUME } };
	return vt_test_main(&t, argc, argv);
}
