/* regress/008: two unmapped ids never compare equal.
 *
 * What went wrong: vfsuid_eq(INVALID, INVALID) returned true, so two
 * owners that are both unmapped through a mount compared equal and
 * ownership checks could pass. Affected: the 6.0 merge window only
 * (pre-release). Fix: 4d0548a7b806 "mnt_idmapping: return false when
 * comparing two invalid ids" (6.0).
 *
 * Scene: a sticky world-writable dir and a 0644 file in it, both owned by
 * 5 on disk; the mount b:1000:2000:1 maps neither (i_uid_into_vfsuid =
 * INVALID). With fs.protected_regular >= 1, open(O_CREAT) of the existing
 * file by another user is refused unless the file's owner equals the
 * directory's owner or the caller (may_create_in_sticky). Through the
 * plain mount the owners are equal (5 == 5): allowed. Through the mount
 * both are INVALID and must not compare equal: EACCES. fs.protected_regular
 * is global: the test is notrun when it is 0, unless VT_ALLOW_SYSCTL=1
 * lets it set the sysctl for its run (restored at exit; lib/world/sysctl.h). */
#include "testlib/testlib.h"
#include "world/sysctl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

static int open_creat(void *arg, void *data, size_t len)
{
	int fd = open(arg, O_CREAT | O_RDONLY | O_CLOEXEC, 0644);
	(void)data;
	(void)len;
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* may_create_in_sticky() only looks at owners when fs.protected_regular
 * is nonzero; any nonzero value covers a world-writable sticky dir. */
static const char *need_protected_regular(const char *fstype, const char *dir)
{
	(void)fstype;
	(void)dir;
	return vt_sysctl_need_min("fs/protected_regular", 1);
}

static void unmapped_owners(struct vt_ctx *ctx)
{
	struct vt_caller u = vt_caller_user(2000, 2000);
	char src[4096], f[4096], mnt[4096], via[4300];
	struct vt_run r;

	if (!vt_mkdir(ctx, "src", 0755, 0, 0, src, sizeof(src)) ||
	    !vt_mkdir(ctx, "src/sticky", 01777, 5, 5, f, sizeof(f)) ||
	    !vt_mkfile(ctx, "src/sticky/f", 0644, 5, 5, f, sizeof(f)) ||
	    !vt_idmapped_at(ctx, src, "b:1000:2000:1", "mnt", mnt, sizeof(mnt)))
		return;
	vt_scene(ctx, "%s idmapped b:1000:2000:1; sticky dir and file owned 5 (unmapped)", mnt);
	r = vt_run_as(&u, open_creat, f, NULL, 0);
	if (vt_expect_ran(ctx, &u, &r))
		vt_expect_errno(ctx, "open(O_CREAT) of the existing file via the plain mount", r.ret, 0,
				"may_create_in_sticky: file owner == dir owner (5)");
	snprintf(via, sizeof(via), "%s/sticky/f", mnt);
	r = vt_run_as(&u, open_creat, via, NULL, 0);
	if (vt_expect_ran(ctx, &u, &r))
		vt_expect_errno(ctx, "open(O_CREAT) of the existing file via the idmapped mount", r.ret,
				EACCES,
				"may_create_in_sticky: vfsuid_eq(INVALID, INVALID) is false (4d0548a7b806)");
}

static const struct vt_case cases[] = {
	{ "unmapped-owners-not-equal-4d0548a7b806", unmapped_owners },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct vt_test t = { .cases = cases, .require = need_protected_regular,
		.needs = { .owners = VT_FSNEED_INODE_OWNERS, .features = VT_FSF_STICKY } };
	return vt_test_main(&t, argc, argv);
}
