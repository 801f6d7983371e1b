/* btrfs/001: subvolume create, rename and delete through an idmapped mount, mapped and unmapped fsids.
 *
 * vfstest's btrfs_subvolumes_fsids_{mapped,unmapped}[_userns]: a caller
 * whose fsuid/fsgid the mount's idmap maps (or not), in the initial user
 * namespace or as root of a user namespace, creates subvolumes
 * (BTRFS_IOC_SUBVOL_CREATE_V2), renames and deletes them
 * (BTRFS_IOC_SNAP_DESTROY) through the idmapped mount (btrfs_world.h).
 *
 * Expected (Linux 6.12 fs/btrfs/ioctl.c, inode.c; fs/namei.c):
 * btrfs_ioctl_snap_create_v2 -> __btrfs_ioctl_snap_create ->
 * btrfs_mksubvol -> btrfs_may_create(idmap): EOVERFLOW unless
 * fsuidgid_has_mapping(sb, idmap), then inode_permission(idmap, dir,
 * MAY_WRITE|MAY_EXEC); create_subvol -> btrfs_new_subvol_inode ->
 * inode_init_owner(idmap): the owner is the caller's fsuid mapped back
 * through the mount (10000 -> 0 on disk), mode S_IRWXUGO & ~umask.
 * btrfs_ioctl_snap_destroy: without capable(CAP_SYS_ADMIN) (the initial
 * namespace's) EPERM unless the filesystem has user_subvol_rm_allowed, then
 * inode_permission(idmap, subvolume, MAY_WRITE|MAY_EXEC); then
 * btrfs_may_delete(idmap) (no fsid mapping check there). rename:
 * vfs_rename -> may_delete, then may_create -> EOVERFLOW for unmapped
 * fsids. The delete expectations follow whether TEST_DIR's btrfs has
 * user_subvol_rm_allowed (read from mountinfo; btrfs/003 has both). */
#include "btrfs_world.h"

#include <errno.h>
#include <stdio.h>

#define R_CREATE "btrfs_mksubvol -> btrfs_may_create(idmap): fsuidgid_has_mapping, inode_permission(idmap, dir, W|X)"
#define R_NOMAP "btrfs_may_create: !fsuidgid_has_mapping(sb, idmap) -> EOVERFLOW"
#define R_OWNER "btrfs_new_subvol_inode -> inode_init_owner(idmap): from_vfsuid(M, fsuid 10000) = 0 on disk"
#define R_SEEN "i_uid_into_vfsuid(M, 0) = 10000 through the mount"
#define R_ADMIN "btrfs_ioctl_snap_destroy: capable(CAP_SYS_ADMIN) -> btrfs_may_delete(idmap) only"
#define R_RENAME "vfs_rename: may_delete passes (dir 0777), may_create: !fsuidgid_has_mapping -> EOVERFLOW"

/* with user_subvol_rm_allowed (btrfs_ioctl_snap_destroy) */
#define R_RM_OPT "btrfs_ioctl_snap_destroy: !capable, user_subvol_rm_allowed -> " \
	"inode_permission(idmap, subvolume, W|X), btrfs_may_delete(idmap)"

/* What each scenario starts from: the btrfs world (bt_world_make_rm; rmopt
 * says whether it has user_subvol_rm_allowed) and the ops through its
 * idmapped mount. The mapped scenarios create "sub" themselves; the
 * unmapped ones need a "sub" made as root on disk, since their caller
 * cannot create one (btrfs_may_create: EOVERFLOW), and create "sub2". */
struct scene {
	struct bt_op create, destroy, rename;
	char disk[4200], seen[4200];
	int rmopt;
};

static bool scene_make(struct vt_ctx *ctx, struct bt_world *w, struct scene *s, bool unmapped)
{
	*s = (struct scene){
		.create = { .kind = BT_OP_SUBVOL, .name = unmapped ? "sub2" : "sub" },
		.destroy = { .kind = BT_OP_DESTROY, .name = "sub" },
		.rename = { .kind = BT_OP_RENAME, .name = "sub", .name2 = "sub-renamed" },
	};
	if (!bt_world_make_rm(ctx, w, &s->rmopt))
		return false;
	s->create.dirfd = s->destroy.dirfd = s->rename.dirfd = w->mnt_fd;
	snprintf(s->disk, sizeof(s->disk), "%s/sub", w->base);
	snprintf(s->seen, sizeof(s->seen), "%s/sub", w->mnt);
	if (unmapped) {
		int err = bt_subvol_create(w->base_fd, "sub");	/* 0 or an errno */

		if (err) {
			vt_fail(ctx, "setup: SUBVOL_CREATE_V2 sub as root on disk failed: %s",
				vt_errname(err));
			return false;
		}
	}
	return true;
}

static void mapped(struct vt_ctx *ctx)
{
	struct bt_world w;
	struct scene s;
	const char *rule;
	int want;

	if (!scene_make(ctx, &w, &s, false))
		goto out;
	if (!bt_expect(ctx, &w, BT_MAPPED, &s.create, "SUBVOL_CREATE_V2 sub through the mount", 0,
		       R_CREATE))
		goto out;
	vt_expect_owner(ctx, s.disk, 0, 0, R_OWNER);
	vt_expect_owner(ctx, s.seen, BT_SEEN, BT_SEEN, R_SEEN);
	bt_expect(ctx, &w, BT_MAPPED, &s.destroy, "SNAP_DESTROY sub through the mount", 0, R_ADMIN);
	if (!bt_expect(ctx, &w, BT_MAPPED, &s.create, "SUBVOL_CREATE_V2 sub again", 0, R_CREATE))
		goto out;
	/* owner through the mount, mode 0755: inode_permission passes */
	want = bt_unpriv_delete(ctx, s.rmopt, 0, R_RM_OPT, &rule);
	bt_expect(ctx, &w, BT_MAPPED_NOCAPS, &s.destroy, "SNAP_DESTROY sub through the mount", want,
		  rule);
	if (want)
		bt_expect(ctx, &w, BT_ROOT, &s.destroy, "SNAP_DESTROY sub through the mount", 0,
			  R_ADMIN);
out:
	bt_world_end(ctx, &w);
}

static void mapped_userns(struct vt_ctx *ctx)
{
	struct bt_world w;
	struct scene s;
	const char *rule;
	int want;

	if (!scene_make(ctx, &w, &s, false))
		goto out;
	if (!bt_expect(ctx, &w, BT_MAPPED_USERNS, &s.create, "SUBVOL_CREATE_V2 sub through the mount",
		       0, R_CREATE " (kuid 10000 is mapped; the mount shows src as 10000)"))
		goto out;
	vt_expect_owner(ctx, s.disk, 0, 0, R_OWNER);
	vt_expect_owner(ctx, s.seen, BT_SEEN, BT_SEEN, R_SEEN);
	bt_expect_owner_as(ctx, &w, BT_MAPPED_USERNS, w.mnt_fd, "sub", 0, 0,
			   "stat in the namespace: from_kuid(userns, 10000) = 0");
	/* capable() asks the initial namespace: its root there is not */
	want = bt_unpriv_delete(ctx, s.rmopt, 0, R_RM_OPT, &rule);
	bt_expect(ctx, &w, BT_MAPPED_USERNS, &s.destroy, "SNAP_DESTROY sub through the mount", want,
		  rule);
	if (want)
		bt_expect(ctx, &w, BT_ROOT, &s.destroy, "SNAP_DESTROY sub through the mount", 0,
			  R_ADMIN);
out:
	bt_world_end(ctx, &w);
}

static void unmapped(struct vt_ctx *ctx)
{
	struct bt_world w;
	struct scene s;
	const char *rule;
	int want;

	if (!scene_make(ctx, &w, &s, true))
		goto out;
	bt_expect(ctx, &w, BT_UNMAPPED, &s.create, "SUBVOL_CREATE_V2 sub2 through the mount",
		  EOVERFLOW, R_NOMAP);
	bt_expect(ctx, &w, BT_UNMAPPED, &s.rename, "rename sub -> sub-renamed through the mount",
		  EOVERFLOW, R_RENAME);
	/* sub is 0755 and seen as 10000: fsuid 0 without caps is "other" */
	want = bt_unpriv_delete(ctx, s.rmopt, EACCES, R_RM_OPT, &rule);
	bt_expect(ctx, &w, BT_UNMAPPED_NOCAPS, &s.destroy, "SNAP_DESTROY sub through the mount", want,
		  rule);
	bt_expect(ctx, &w, BT_UNMAPPED, &s.destroy, "SNAP_DESTROY sub through the mount", 0,
		  R_ADMIN " (btrfs_may_delete has no fsid mapping check)");
out:
	bt_world_end(ctx, &w);
}

static void unmapped_userns(struct vt_ctx *ctx)
{
	struct bt_world w;
	struct scene s;
	const char *rule;
	int want;

	if (!scene_make(ctx, &w, &s, true))
		goto out;
	bt_expect_owner_as(ctx, &w, BT_UNMAPPED_USERNS, w.base_fd, "sub", vt_overflowuid(),
			   vt_overflowgid(), "from_kuid_munged: 0 has no mapping in the namespace");
	bt_expect_owner_as(ctx, &w, BT_UNMAPPED_USERNS, w.mnt_fd, "sub", vt_overflowuid(),
			   vt_overflowgid(), "from_kuid_munged: 10000 has no mapping in the namespace");
	bt_expect(ctx, &w, BT_UNMAPPED_USERNS, &s.create, "SUBVOL_CREATE_V2 sub2 through the mount",
		  EOVERFLOW, R_NOMAP " (kuid 30000)");
	bt_expect(ctx, &w, BT_UNMAPPED_USERNS, &s.rename,
		  "rename sub -> sub-renamed through the mount", EOVERFLOW, R_RENAME);
	/* 10000 has no mapping in the namespace: no capability over sub */
	want = bt_unpriv_delete(ctx, s.rmopt, EACCES, R_RM_OPT, &rule);
	bt_expect(ctx, &w, BT_UNMAPPED_USERNS, &s.destroy, "SNAP_DESTROY sub through the mount", want,
		  rule);
	bt_expect(ctx, &w, BT_ROOT, &s.destroy, "SNAP_DESTROY sub through the mount", want ? 0 : ENOENT,
		  want ? R_ADMIN : "btrfs_ioctl_snap_destroy: lookup_one -> negative -> ENOENT");
out:
	bt_world_end(ctx, &w);
}

static const struct vt_case cases[] = {
	{ "subvol-fsids-mapped", mapped },
	{ "subvol-fsids-mapped-userns", mapped_userns },
	{ "subvol-fsids-unmapped", unmapped },
	{ "subvol-fsids-unmapped-userns", unmapped_userns },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct vt_test t = { .cases = cases,
					  .needs = { .features = VT_FSF_SUBVOLUME } };
	return vt_test_main(&t, argc, argv);
}
