/* regress/006: S_ISGID stripping with umask(S_IXGRP) and O_TMPFILE.
 *
 * What went wrong: sgid stripping ran after the umask had been applied,
 * so with umask(S_IXGRP) the "S_ISGID and S_IXGRP" test no longer matched
 * and a non-member kept S_ISGID; O_TMPFILE skipped the umask entirely.
 * Affected: all kernels before 6.0 (stable backports 2023-24). Fixes (all
 * 6.0-rc1): 2b3416ceff5e "fs: add mode_strip_sgid() helper", ac6800e279a2
 * "fs: Add missing umask strip in vfs_tmpfile", 1639a49ccdce "fs: move
 * S_ISGID stripping into the vfs_*() helpers". Guard: generic/696.
 *
 * Expected (vfs_prepare_mode): mode_strip_sgid() first, then the umask:
 * 02755 by a non-member with umask 010 gives 0745, for open(O_CREAT) and
 * for O_TMPFILE alike. */
#include "sgid_common.h"

static int create_umask(void *arg, void *data, size_t len)
{
	long *mode = data;
	struct stat st;
	int fd;

	(void)len;
	fd = open(arg, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 02755);
	if (fd < 0)
		return errno;
	*mode = fstat(fd, &st) < 0 ? -1 : (long)(st.st_mode & 07777);
	close(fd);
	return 0;
}

static int tmpfile_umask(void *arg, void *data, size_t len)
{
	long *mode = data;
	struct stat st;
	int fd;

	(void)len;
	fd = open(arg, O_TMPFILE | O_RDWR | O_CLOEXEC, 02755);
	if (fd < 0)
		return errno;
	*mode = fstat(fd, &st) < 0 ? -1 : (long)(st.st_mode & 07777);
	close(fd);
	return 0;
}

static void run(struct vt_ctx *ctx, vt_caller_fn fn, const char *what, bool tmpfile)
{
	struct vt_caller u = vt_caller_user(2500, 2500);
	char p[4300];
	struct sgid_w w;
	struct vt_run r;
	long mode = -1;

	if (tmpfile && !vt_need_fs(ctx, VT_FSF_TMPFILE))	/* the table first */
		return;

	if (!sgid_make(ctx, &w, 02777))
		return;
	u.umask = S_IXGRP;
	u.set_umask = true;
	if (tmpfile)
		snprintf(p, sizeof(p), "%s", w.mnt);
	else
		snprintf(p, sizeof(p), "%s/f", w.mnt);
	r = vt_run_as(&u, fn, p, &mode, sizeof(mode));
	if (!vt_expect_ran(ctx, &u, &r))
		return;
	if (tmpfile && r.ret == EOPNOTSUPP)
		VT_SKIP(ctx, "%s has no O_TMPFILE", ctx->fstype);
	if (!vt_expect_errno(ctx, what, r.ret, 0, "create through the mount"))
		return;
	sgid_expect_mode(ctx, "mode of the new file", mode, 0745,
			 "vfs_prepare_mode: mode_strip_sgid before umask (2b3416ceff5e, ac6800e279a2)");
}

static void umask_create(struct vt_ctx *ctx)
{
	run(ctx, create_umask, "open(O_CREAT, 02755) with umask 010 as non-member", false);
}

static void umask_tmpfile(struct vt_ctx *ctx)
{
	run(ctx, tmpfile_umask, "open(O_TMPFILE, 02755) with umask 010 as non-member", true);
}

static const struct vt_case cases[] = {
	{ "umask-sxgrp-create-strips-sgid", umask_create },
	{ "umask-sxgrp-o-tmpfile-strips-sgid-and-applies-umask", umask_tmpfile },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct vt_test t = { .cases = cases,
		.needs = { .owners = VT_FSNEED_INODE_OWNERS, .features = VT_FSF_SETID } };
	return vt_test_main(&t, argc, argv);
}
