/* regress/005: setgid inheritance by a non-member through an idmapped mount.
 *
 * What went wrong: a file created in a setgid directory kept S_ISGID
 * although its creator was not in the group (CVE-2018-13405, fixed by
 * 0fa3ecd87848 "Fix up non-directory creation in SGID directories", 4.18);
 * xfs had its own copy of the rule and kept the bug (CVE-2021-4037, fixed
 * by 01ea173e103e "xfs: fix up non-directory creation in SGID
 * directories", 5.11/5.12-rc). Affected: <= 4.17, xfs <= 5.10. Guard: LTP
 * creat09, xfstests generic/633. Run this test on xfs too.
 *
 * Expected (fs/namei.c vfs_prepare_mode -> mode_strip_sgid, fs/inode.c
 * inode_init_owner): the new file takes the directory's gid; S_ISGID with
 * S_IXGRP is stripped unless in_group_or_capable(idmap, dir,
 * i_gid_into_vfsgid(dir)); a new directory always inherits S_ISGID. */
#include "sgid_common.h"

struct args {
	char file[4300], dir[4300];
	long fmode, dmode;
};

static int create_both(void *arg, void *data, size_t len)
{
	struct args *a = arg;
	int fd;

	(void)data;
	(void)len;
	fd = open(a->file, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 02755);
	if (fd < 0)
		return errno;
	close(fd);
	return mkdir(a->dir, 02755) < 0 ? errno : 0;
}

static void run(struct vt_ctx *ctx, struct vt_caller *c, bool expect_kept, const char *rule)
{
	char disk[4300];
	struct sgid_w w;
	struct args a;
	struct vt_run r;

	if (!sgid_make(ctx, &w, 02777))
		return;
	snprintf(a.file, sizeof(a.file), "%s/f", w.mnt);
	snprintf(a.dir, sizeof(a.dir), "%s/d", w.mnt);
	r = vt_run_as(c, create_both, &a, NULL, 0);
	if (!vt_expect_ran(ctx, c, &r) ||
	    !vt_expect_errno(ctx, "create file and dir (mode 2755) through the mount", r.ret, 0,
			     "may_o_create / may_create"))
		return;
	snprintf(disk, sizeof(disk), "%s/f", w.src);
	sgid_expect_mode(ctx, "mode of the new file", sgid_mode(disk), expect_kept ? 02755 : 0755,
			 rule);
	{
		struct stat st;
		if (lstat(disk, &st) == 0)
			vt_expect_eq(ctx, "on-disk gid of the new file", st.st_gid, 1000,
				     "inode_init_owner: setgid dir -> i_gid = dir->i_gid");
	}
	snprintf(disk, sizeof(disk), "%s/d", w.src);
	sgid_expect_mode(ctx, "mode of the new dir", sgid_mode(disk), 02755,
			 "inode_init_owner: S_ISDIR in a setgid dir -> S_ISGID");
}

static void non_member(struct vt_ctx *ctx)
{
	struct vt_caller u = vt_caller_user(2500, 2500);
	run(ctx, &u, false,
	    "mode_strip_sgid: 2500 not in group 2000 (dir's mount-view gid), no CAP_FSETID "
	    "(CVE-2018-13405 / CVE-2021-4037)");
}

static void member(struct vt_ctx *ctx)
{
	struct vt_caller u = vt_caller_user(2500, 2500);
	u.ngroups = 1;
	u.groups[0] = 2000;
	run(ctx, &u, true, "mode_strip_sgid: in_group_or_capable: 2000 in the caller's groups");
}

static void member_by_disk_gid_only(struct vt_ctx *ctx)
{
	struct vt_caller u = vt_caller_user(2500, 2500);
	u.ngroups = 1;
	u.groups[0] = 1000; /* the on-disk gid, not the mount view */
	run(ctx, &u, false, "mode_strip_sgid compares the mount-view gid 2000, not disk gid 1000");
}

static const struct vt_case cases[] = {
	{ "non-member-create-strips-sgid-cve-2018-13405", non_member },
	{ "member-create-keeps-sgid", member },
	{ "disk-gid-member-is-not-member-through-mount", member_by_disk_gid_only },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct vt_test t = { .cases = cases,
		.needs = { .owners = VT_FSNEED_INODE_OWNERS, .features = VT_FSF_SETID } };
	return vt_test_main(&t, argc, argv);
}
