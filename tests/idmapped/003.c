/* idmapped/003: an ownership-less filesystem (vfat) exposed to two users.
 *
 * Scenario 3 of the idmapped-mounts cover letter: vfat stores no owners;
 * every inode gets the uid/gid of the mount options (0 by default,
 * fat_fill_inode). Two idmapped mounts of the same vfat tree, b:0:1001:1
 * and b:0:5000:1, let uid 1001 and uid 5000 each see the files as their
 * own and create there. Runs where the filesystem's owners come from its
 * mount options (the table's vfat, msdos, exfat: exfat_fill_inode and
 * exfat_setattr make the same decisions as fat_fill_inode and
 * fat_setattr here); elsewhere notrun. */
#include "fs/fs_table.h"
#include "testlib/simple_ops.h"
#include "testlib/testlib.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void two_users_two_views(struct vt_ctx *ctx)
{
	struct vt_caller u1001 = vt_caller_user(1001, 1001), u5000 = vt_caller_user(5000, 5000);
	char src[4096], m1[4096], m2[4096], file[4096], p[4200];
	struct vt_run r;

	if (!vt_owned_dir(ctx, "tree", 0755, 0644, 0, 0, src, sizeof(src)))
		return;
	if (!vt_mkfile(ctx, "tree/f", 0644, 0, 0, file, sizeof(file)))
		return;
	if (!vt_idmapped_at(ctx, src, "b:0:1001:1", "as1001", m1, sizeof(m1)) ||
	    !vt_idmapped_at(ctx, src, "b:0:5000:1", "as5000", m2, sizeof(m2)))
		return;
	vt_scene(ctx, "vfat tree %s; mounts %s (b:0:1001:1) and %s (b:0:5000:1)", src, m1, m2);
	/* fat_fill_inode: i_uid = fs_uid (0); make_vfsuid maps 0 per mount. */
	vt_expect_owner(ctx, file, 0, 0, "fat_fill_inode: owner from mount options");
	snprintf(p, sizeof(p), "%s/f", m1);
	vt_expect_owner(ctx, p, 1001, 1001, "make_vfsuid(b:0:1001:1, 0)");
	snprintf(p, sizeof(p), "%s/f", m2);
	vt_expect_owner(ctx, p, 5000, 5000, "make_vfsuid(b:0:5000:1, 0)");

	/* 1001 creates through its mount: mapped_fsuid = up(1001) = 0, valid. */
	snprintf(p, sizeof(p), "%s/by1001", m1);
	r = vt_run_as(&u1001, vt_op_create, p, NULL, 0);
	if (vt_expect_ran(ctx, &u1001, &r) &&
	    vt_expect_errno(ctx, "create as 1001 through its mount", r.ret, 0,
			    "may_o_create: fsuidgid_has_mapping; owner bits via vfsuid"))
		vt_expect_owner(ctx, p, 1001, 1001, "make_vfsuid of the new inode");
	/* 1001 through 5000's mount: up(b:0:5000:1, 1001) is unmapped. */
	snprintf(p, sizeof(p), "%s/by1001", m2);
	vt_expect_owner(ctx, p, 5000, 5000, "same inode seen through the other mount");
	snprintf(p, sizeof(p), "%s/wrong", m2);
	r = vt_run_as(&u1001, vt_op_create, p, NULL, 0);
	if (vt_expect_ran(ctx, &u1001, &r))
		vt_expect_errno(ctx, "create as 1001 through 5000's mount", r.ret, EOVERFLOW,
				"may_o_create: fsuidgid_has_mapping fails");
	snprintf(p, sizeof(p), "%s/by5000", m2);
	r = vt_run_as(&u5000, vt_op_create, p, NULL, 0);
	if (vt_expect_ran(ctx, &u5000, &r))
		vt_expect_errno(ctx, "create as 5000 through its mount", r.ret, 0,
				"may_o_create: fsuidgid_has_mapping; owner bits via vfsuid");
}

/* vfat refuses any owner but the mount's uid=/gid= (fat_setattr, and
 * exfat_setattr alike: EPERM when from_vfsuid(idmap, ia_vfsuid) != fs_uid), and it must compare the id
 * translated back through the mount's idmap. */
static void chown_translated_for_fat(struct vt_ctx *ctx)
{
	struct vt_caller root = vt_caller_root(), u1001 = vt_caller_user(1001, 1001);
	char src[4096], m1[4096], file[4096], via[4200];
	struct vt_chown_arg a;
	struct vt_run r;

	if (!vt_owned_dir(ctx, "tree", 0755, 0644, 0, 0, src, sizeof(src)) ||
	    !vt_mkfile(ctx, "tree/f", 0644, 0, 0, file, sizeof(file)) ||
	    !vt_idmapped_at(ctx, src, "b:0:1001:1", "as1001", m1, sizeof(m1)))
		return;
	vt_scene(ctx, "vfat tree %s (fs_uid 0); mount %s (b:0:1001:1)", src, m1);
	snprintf(via, sizeof(via), "%s/f", m1);

	/* Root gives the file to 1001 as seen through the mount: notify_change
	 * maps 1001 back to 0 (from_vfsuid), which is fs_uid: allowed. */
	a = (struct vt_chown_arg){ via, 1001, 1001 };
	r = vt_run_as(&root, vt_op_chown, &a, NULL, 0);
	if (vt_expect_ran(ctx, &root, &r))
		vt_expect_errno(ctx, "chown 1001:1001 through the mount as root", r.ret, 0,
				"fat_setattr: from_vfsuid(idmap, 1001) == fs_uid 0");
	/* The same ids through the plain mount are not fs_uid: EPERM. */
	a = (struct vt_chown_arg){ file, 1001, 1001 };
	r = vt_run_as(&root, vt_op_chown, &a, NULL, 0);
	if (vt_expect_ran(ctx, &root, &r))
		vt_expect_errno(ctx, "chown 1001:1001 through the plain mount as root", r.ret, EPERM,
				"fat_setattr: 1001 != fs_uid 0");
	/* 1002 has no mapping back through b:0:1001:1: refused before the fs. */
	a = (struct vt_chown_arg){ via, 1002, (gid_t)-1 };
	r = vt_run_as(&root, vt_op_chown, &a, NULL, 0);
	if (vt_expect_ran(ctx, &root, &r))
		vt_expect_errno(ctx, "chown 1002 through the mount as root", r.ret, EOVERFLOW,
				"notify_change: !vfsuid_has_fsmapping -> EOVERFLOW");
	/* The owner through the mount may "chown" to itself (chown_ok). */
	a = (struct vt_chown_arg){ via, 1001, (gid_t)-1 };
	r = vt_run_as(&u1001, vt_op_chown, &a, NULL, 0);
	if (vt_expect_ran(ctx, &u1001, &r))
		vt_expect_errno(ctx, "chown 1001 through the mount as uid 1001", r.ret, 0,
				"chown_ok: i_uid_into_vfsuid == fsuid == ia_vfsuid");
	vt_expect_owner(ctx, file, 0, 0, "vfat keeps fs_uid/fs_gid on disk");
}

static const struct vt_case cases[] = {
	{ "two-users-two-views", two_users_two_views },
	{ "chown-translated-for-fat-setattr", chown_translated_for_fat },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct vt_test t = { .cases = cases,
					  .needs = { .owners = VT_FSNEED_OPTION_OWNERS } };
	return vt_test_main(&t, argc, argv);
}
