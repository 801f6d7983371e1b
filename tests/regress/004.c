/* regress/004: chgrp to a supplementary group through an idmapped mount.
 *
 * What went wrong: chgrp_ok() called in_group_p() on the filesystem-side
 * gid instead of the mount-view gid, so an owner changing the group to one
 * of its own groups through an idmapped mount got EPERM; the same mistake
 * in setattr_prepare() stripped S_ISGID on chmod. Reported via LXD
 * #10537. Affected: 5.12 - 5.19-rc. Fix: 168f91289340 "fs: account for
 * group membership" (5.19-rc). Guard: xfstests generic/698.
 *
 * Expected: chgrp_ok: owner && vfsgid_in_group_p(ia_vfsgid);
 * setattr_prepare: in_group_or_capable(ia_vfsgid or i_gid_into_vfsgid). */
#include "sgid_common.h"

struct args {
	const char *path;
	int gid;
	mode_t mode;
};

static int do_chgrp_chmod(void *arg, void *data, size_t len)
{
	struct args *a = arg;
	(void)data;
	(void)len;
	if (a->gid >= 0 && chown(a->path, (uid_t)-1, (gid_t)a->gid) < 0)
		return errno;
	if (a->mode && chmod(a->path, a->mode) < 0)
		return errno;
	return 0;
}

static void chgrp_supp(struct vt_ctx *ctx)
{
	struct vt_caller u = vt_caller_user(2000, 2000);
	char f[4096], via[4300];
	struct sgid_w w;
	struct args a;
	struct vt_run r;

	if (!sgid_make(ctx, &w, 0755) ||
	    !vt_mkfile(ctx, "src/f", 0644, 1000, 1000, f, sizeof(f)))
		return;
	snprintf(via, sizeof(via), "%s/f", w.mnt);
	u.ngroups = 1;
	u.groups[0] = 2001; /* mount view of disk gid 1001 */
	a.path = via;
	a.gid = 2001;
	a.mode = 0;
	r = vt_run_as(&u, do_chgrp_chmod, &a, NULL, 0);
	if (!vt_expect_ran(ctx, &u, &r))
		return;
	if (vt_expect_errno(ctx, "uid 2000 (groups 2001) chgrp f to 2001 through the mount", r.ret,
			    0, "chgrp_ok: vfsgid_in_group_p(2001) (168f91289340)"))
		vt_expect_owner(ctx, f, 1000, 1001, "setattr_copy: from_vfsgid(M, 2001) = 1001");
}

static void chmod_keeps_sgid(struct vt_ctx *ctx)
{
	struct vt_caller u = vt_caller_user(2000, 2000);
	char f[4096], via[4300];
	struct sgid_w w;
	struct args a;
	struct vt_run r;

	if (!sgid_make(ctx, &w, 0755) ||
	    !vt_mkfile(ctx, "src/f", 0644, 1000, 1001, f, sizeof(f)))
		return;
	snprintf(via, sizeof(via), "%s/f", w.mnt);
	u.ngroups = 1;
	u.groups[0] = 2001;
	a.path = via;
	a.gid = -1;
	a.mode = 02755;
	r = vt_run_as(&u, do_chgrp_chmod, &a, NULL, 0);
	if (!vt_expect_ran(ctx, &u, &r) ||
	    !vt_expect_errno(ctx, "uid 2000 chmod 2755 f (group 2001 via mount)", r.ret, 0,
			     "inode_owner_or_capable"))
		return;
	sgid_expect_mode(ctx, "mode of f", sgid_mode(f), 02755,
			 "setattr_prepare: in_group_or_capable(i_gid_into_vfsgid = 2001) keeps S_ISGID");
}

static const struct vt_case cases[] = {
	{ "chgrp-to-supplementary-group-168f91289340", chgrp_supp },
	{ "chmod-sgid-kept-for-supplementary-group-168f91289340", chmod_keeps_sgid },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct vt_test t = { .cases = cases,
		.needs = { .owners = VT_FSNEED_INODE_OWNERS, .features = VT_FSF_SETID } };
	return vt_test_main(&t, argc, argv);
}
