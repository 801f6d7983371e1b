/* api/001: mount_setattr() argument validation.
 *
 * Walks the checks SYSCALL_DEFINE5(mount_setattr) (fs/namespace.c) makes
 * before it touches a mount, in their order: the AT_* flags, the size of
 * struct mount_attr (copy_struct_from_user), the NULL pointer, the all-zero
 * no-op, the propagation value, unknown attr_set/attr_clr bits and the
 * atime enum (build_mount_kattr), then the path (path_mounted). Every
 * rejected call is made against a detached clone on which the same call
 * with valid arguments succeeds, so only the argument under test can be
 * the reason for the error. */
#include "testlib/testlib.h"
#include "api_util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/statvfs.h>

#ifndef AT_SYMLINK_FOLLOW
#define AT_SYMLINK_FOLLOW 0x400
#endif

/* A detached clone of a fresh directory of the case; -1 on failure. */
static int clone_src(struct vt_ctx *ctx)
{
	char src[4096];
	int fd;

	if (!vt_mkdir(ctx, "src", 0755, 0, 0, src, sizeof(src)))
		return -1;
	fd = api_clone(src, 0);
	if (fd < 0)
		vt_fail(ctx, "setup: open_tree(%s, OPEN_TREE_CLONE): %s", src, vt_errname(errno));
	vt_scene(ctx, "detached clone of %s", src);
	return fd;
}

static const struct vt_mount_attr nosuid = { .attr_set = VT_MOUNT_ATTR_NOSUID };

static void flags_unknown(struct vt_ctx *ctx)
{
	int fd = clone_src(ctx);

	if (fd < 0)
		return;
	/* mount_setattr: flags & ~(AT_EMPTY_PATH|AT_RECURSIVE|AT_SYMLINK_NOFOLLOW|
	 * AT_NO_AUTOMOUNT) -> -EINVAL, first check of the syscall. */
	vt_expect_errno(ctx, "mount_setattr(flags |= AT_SYMLINK_FOLLOW)",
			api_setattr_fd(fd, AT_SYMLINK_FOLLOW, &nosuid, sizeof(nosuid)), EINVAL,
			"mount_setattr: flags outside the four AT_* -> EINVAL");
	vt_expect_errno(ctx, "mount_setattr(flags |= 0x80000000)",
			api_setattr_fd(fd, 0x80000000u, &nosuid, sizeof(nosuid)), EINVAL,
			"mount_setattr: flags outside the four AT_* -> EINVAL");
	/* The flags check precedes the size check (usize 0 would be EINVAL
	 * too) and the no-op shortcut (all-zero attr would return 0). */
	{
		struct vt_mount_attr zero = { 0 };
		vt_expect_errno(ctx, "mount_setattr(bad flags, all-zero attr)",
				api_setattr_fd(fd, 0x1, &zero, sizeof(zero)), EINVAL,
				"mount_setattr: flags checked before the no-op shortcut");
	}
	/* The four allowed flags together are accepted. */
	vt_expect_errno(ctx, "mount_setattr(AT_EMPTY_PATH|AT_RECURSIVE|AT_SYMLINK_NOFOLLOW|AT_NO_AUTOMOUNT)",
			api_setattr_fd(fd, AT_RECURSIVE | AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT,
				       &nosuid, sizeof(nosuid)),
			0, "mount_setattr: the four AT_* flags are valid");
	close(fd);
}

static void size_zero(struct vt_ctx *ctx)
{
	int fd = clone_src(ctx);

	if (fd < 0)
		return;
	/* usize < MOUNT_ATTR_SIZE_VER0 -> -EINVAL. */
	vt_expect_errno(ctx, "mount_setattr(usize 0)", api_setattr_fd(fd, 0, &nosuid, 0), EINVAL,
			"mount_setattr: usize < MOUNT_ATTR_SIZE_VER0 -> EINVAL");
	vt_expect_errno(ctx, "mount_setattr(NULL, usize 0)", api_setattr_fd(fd, 0, NULL, 0),
			EINVAL, "mount_setattr: size checked before the pointer");
	close(fd);
}

static void size_short(struct vt_ctx *ctx)
{
	int fd = clone_src(ctx);

	if (fd < 0)
		return;
	vt_expect_errno(ctx, "mount_setattr(usize 31)",
			api_setattr_fd(fd, 0, &nosuid, VT_MOUNT_ATTR_SIZE_VER0 - 1), EINVAL,
			"mount_setattr: usize < MOUNT_ATTR_SIZE_VER0 -> EINVAL");
	vt_expect_errno(ctx, "mount_setattr(usize 8)", api_setattr_fd(fd, 0, &nosuid, 8), EINVAL,
			"mount_setattr: usize < MOUNT_ATTR_SIZE_VER0 -> EINVAL");
	close(fd);
}

static void size_larger_zero_tail(struct vt_ctx *ctx)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *buf = calloc(1, (size_t)page);
	int fd = clone_src(ctx);

	if (fd < 0 || !buf) {
		free(buf);
		return;
	}
	memcpy(buf, &nosuid, sizeof(nosuid));
	/* copy_struct_from_user: a larger struct from a newer userspace is
	 * accepted when the bytes the kernel does not know are all zero. */
	if (vt_expect_errno(ctx, "mount_setattr(usize 40, zero tail, NOSUID)",
			    api_setattr_fd(fd, 0, buf, 40), 0,
			    "copy_struct_from_user: zero tail accepted"))
		vt_expect_eq(ctx, "ST_NOSUID after the call", !!(api_mnt_flags(fd) & ST_NOSUID), 1,
			     "mount_setattr_commit applied NOSUID");
	buf[0] = 0;
	buf[8] = (unsigned char)VT_MOUNT_ATTR_NOSUID; /* attr_clr = NOSUID */
	vt_expect_errno(ctx, "mount_setattr(usize PAGE_SIZE, zero tail)",
			api_setattr_fd(fd, 0, buf, (size_t)page), 0,
			"usize == PAGE_SIZE is not > PAGE_SIZE; zero tail accepted");
	vt_expect_eq(ctx, "ST_NOSUID after clearing", !!(api_mnt_flags(fd) & ST_NOSUID), 0,
		     "mount_setattr_commit cleared NOSUID");
	free(buf);
	close(fd);
}

static void size_larger_nonzero_tail(struct vt_ctx *ctx)
{
	unsigned char buf[64] = { 0 };
	int fd = clone_src(ctx);

	if (fd < 0)
		return;
	memcpy(buf, &nosuid, sizeof(nosuid));
	buf[39] = 1;
	/* copy_struct_from_user: check_zeroed_user() finds a non-zero byte
	 * past sizeof(struct mount_attr) -> -E2BIG. */
	vt_expect_errno(ctx, "mount_setattr(usize 40, byte 39 non-zero)",
			api_setattr_fd(fd, 0, buf, 40), E2BIG,
			"copy_struct_from_user: non-zero tail -> E2BIG");
	vt_expect_eq(ctx, "ST_NOSUID not applied", !!(api_mnt_flags(fd) & ST_NOSUID), 0,
		     "a rejected call changes nothing");
	close(fd);
}

static void size_over_page(struct vt_ctx *ctx)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *buf = calloc(2, (size_t)page);
	int fd = clone_src(ctx);

	if (fd < 0 || !buf) {
		free(buf);
		return;
	}
	memcpy(buf, &nosuid, sizeof(nosuid));
	/* usize > PAGE_SIZE -> -E2BIG, even with an all-zero tail. */
	vt_expect_errno(ctx, "mount_setattr(usize PAGE_SIZE+1)",
			api_setattr_fd(fd, 0, buf, (size_t)page + 1), E2BIG,
			"mount_setattr: usize > PAGE_SIZE -> E2BIG");
	/* ... and before the pointer is read. */
	vt_expect_errno(ctx, "mount_setattr(NULL, usize PAGE_SIZE+1)",
			api_setattr_fd(fd, 0, NULL, (size_t)page + 1), E2BIG,
			"mount_setattr: size checked before copy_struct_from_user");
	free(buf);
	close(fd);
}

static void attr_null(struct vt_ctx *ctx)
{
	int fd = clone_src(ctx);

	if (fd < 0)
		return;
	/* copy_struct_from_user(NULL) -> -EFAULT. */
	vt_expect_errno(ctx, "mount_setattr(NULL, usize 32)",
			api_setattr_fd(fd, 0, NULL, VT_MOUNT_ATTR_SIZE_VER0), EFAULT,
			"copy_struct_from_user: bad pointer -> EFAULT");
	close(fd);
}

static void all_zero_noop(struct vt_ctx *ctx)
{
	struct vt_mount_attr zero = { 0 }, zero_badfd = { .userns_fd = (uint64_t)-1 };
	char missing[4200];
	int fd = clone_src(ctx);

	if (fd < 0)
		return;
	vt_expect_errno(ctx, "mount_setattr(all-zero attr)", api_setattr_fd(fd, 0, &zero, sizeof(zero)),
			0, "mount_setattr: attr_set == attr_clr == propagation == 0 -> return 0");
	/* The no-op returns before the path lookup and before userns_fd is
	 * looked at: a path that does not exist and an invalid fd still give 0. */
	snprintf(missing, sizeof(missing), "%s/does-not-exist", ctx->dir);
	vt_expect_errno(ctx, "mount_setattr(missing path, all-zero attr)",
			vt_mount_setattr(AT_FDCWD, missing, 0, &zero, sizeof(zero)) < 0 ? errno : 0,
			0, "mount_setattr: no-op returns before user_path_at");
	vt_expect_errno(ctx, "mount_setattr(all-zero attr, userns_fd -1)",
			api_setattr_fd(fd, 0, &zero_badfd, sizeof(zero_badfd)), 0,
			"mount_setattr: no-op returns before build_mount_idmapped");
	vt_expect_eq(ctx, "mount flags unchanged (no NOSUID)", !!(api_mnt_flags(fd) & ST_NOSUID), 0,
		     "no-op");
	close(fd);
}

static void propagation_invalid(struct vt_ctx *ctx)
{
	struct vt_mount_attr a = { 0 };
	int fd = clone_src(ctx);

	if (fd < 0)
		return;
	/* build_mount_kattr: propagation & ~MOUNT_SETATTR_PROPAGATION_FLAGS
	 * -> EINVAL; more than one propagation bit -> EINVAL. */
	a.propagation = MS_SHARED | MS_PRIVATE;
	vt_expect_errno(ctx, "mount_setattr(propagation MS_SHARED|MS_PRIVATE)",
			api_setattr_fd(fd, 0, &a, sizeof(a)), EINVAL,
			"build_mount_kattr: hweight32(propagation) > 1 -> EINVAL");
	a.propagation = MS_SLAVE | MS_UNBINDABLE;
	vt_expect_errno(ctx, "mount_setattr(propagation MS_SLAVE|MS_UNBINDABLE)",
			api_setattr_fd(fd, 0, &a, sizeof(a)), EINVAL,
			"build_mount_kattr: hweight32(propagation) > 1 -> EINVAL");
	a.propagation = MS_RDONLY;
	vt_expect_errno(ctx, "mount_setattr(propagation MS_RDONLY)",
			api_setattr_fd(fd, 0, &a, sizeof(a)), EINVAL,
			"build_mount_kattr: not a propagation flag -> EINVAL");
	a.propagation = MS_REC | MS_PRIVATE;
	vt_expect_errno(ctx, "mount_setattr(propagation MS_REC|MS_PRIVATE)",
			api_setattr_fd(fd, 0, &a, sizeof(a)), EINVAL,
			"build_mount_kattr: MS_REC is not a propagation flag (use AT_RECURSIVE)");
	a.propagation = 1ull << 40;
	vt_expect_errno(ctx, "mount_setattr(propagation 1<<40)", api_setattr_fd(fd, 0, &a, sizeof(a)),
			EINVAL, "build_mount_kattr: not a propagation flag -> EINVAL");
	/* Each single valid value is accepted on the detached clone. */
	a.propagation = MS_PRIVATE;
	vt_expect_errno(ctx, "mount_setattr(propagation MS_PRIVATE)",
			api_setattr_fd(fd, 0, &a, sizeof(a)), 0, "MS_PRIVATE is valid");
	a.propagation = MS_UNBINDABLE;
	vt_expect_errno(ctx, "mount_setattr(propagation MS_UNBINDABLE)",
			api_setattr_fd(fd, 0, &a, sizeof(a)), 0, "MS_UNBINDABLE is valid");
	close(fd);
}

static void attr_unknown_bits(struct vt_ctx *ctx)
{
	int fd = clone_src(ctx);

	if (fd < 0)
		return;
	/* build_mount_kattr: (attr_set | attr_clr) & ~MOUNT_SETATTR_VALID_FLAGS -> EINVAL.
	 * 0x100 and 0x40000000 and bit 40 are no MOUNT_ATTR_* of include/uapi/linux/mount.h. */
	vt_expect_errno(ctx, "attr_set 0x40000000", api_set_clr(fd, 0x40000000ull, 0), EINVAL,
			"build_mount_kattr: unknown attr_set bit -> EINVAL");
	vt_expect_errno(ctx, "attr_set NOSUID|1<<40", api_set_clr(fd, VT_MOUNT_ATTR_NOSUID | (1ull << 40), 0),
			EINVAL, "build_mount_kattr: unknown attr_set bit -> EINVAL");
	vt_expect_errno(ctx, "attr_clr 0x100", api_set_clr(fd, 0, 0x100ull), EINVAL,
			"build_mount_kattr: unknown attr_clr bit -> EINVAL");
	vt_expect_errno(ctx, "attr_clr 1<<63", api_set_clr(fd, 0, 1ull << 63), EINVAL,
			"build_mount_kattr: unknown attr_clr bit -> EINVAL");
	vt_expect_eq(ctx, "ST_NOSUID not applied", !!(api_mnt_flags(fd) & ST_NOSUID), 0,
		     "a rejected call changes nothing");
	close(fd);
}

static void atime_enum(struct vt_ctx *ctx)
{
	int fd = clone_src(ctx);
	unsigned long f;

	if (fd < 0)
		return;
	/* build_mount_kattr: MOUNT_ATTR__ATIME is an enum, not bits. */
	vt_expect_errno(ctx, "attr_set NOATIME without attr_clr __ATIME",
			api_set_clr(fd, VT_MOUNT_ATTR_NOATIME, 0), EINVAL,
			"build_mount_kattr: atime in attr_set needs __ATIME in attr_clr");
	vt_expect_errno(ctx, "attr_clr NOATIME only (partial __ATIME)",
			api_set_clr(fd, 0, VT_MOUNT_ATTR_NOATIME), EINVAL,
			"build_mount_kattr: attr_clr & __ATIME must be all of __ATIME");
	vt_expect_errno(ctx, "attr_set 0x40 (not an atime value) with attr_clr __ATIME",
			api_set_clr(fd, 0x40, VT_MOUNT_ATTR__ATIME), EINVAL,
			"build_mount_kattr: atime value not RELATIME/NOATIME/STRICTATIME");
	vt_expect_errno(ctx, "attr_set NOATIME|STRICTATIME with attr_clr __ATIME",
			api_set_clr(fd, VT_MOUNT_ATTR_NOATIME | VT_MOUNT_ATTR_STRICTATIME,
				    VT_MOUNT_ATTR__ATIME),
			EINVAL, "build_mount_kattr: atime value not RELATIME/NOATIME/STRICTATIME");
	/* Valid transitions, visible in statvfs (ST_NOATIME, ST_RELATIME). */
	if (vt_expect_errno(ctx, "attr_set NOATIME, attr_clr __ATIME",
			    api_set_clr(fd, VT_MOUNT_ATTR_NOATIME, VT_MOUNT_ATTR__ATIME), 0,
			    "build_mount_kattr: NOATIME")) {
		f = api_mnt_flags(fd);
		vt_expect_eq(ctx, "ST_NOATIME", !!(f & ST_NOATIME), 1, "MNT_NOATIME set");
		vt_expect_eq(ctx, "ST_RELATIME", !!(f & ST_RELATIME), 0, "MNT_RELATIME cleared");
	}
	if (vt_expect_errno(ctx, "attr_set STRICTATIME, attr_clr __ATIME",
			    api_set_clr(fd, VT_MOUNT_ATTR_STRICTATIME, VT_MOUNT_ATTR__ATIME), 0,
			    "build_mount_kattr: STRICTATIME")) {
		f = api_mnt_flags(fd);
		vt_expect_eq(ctx, "ST_NOATIME", !!(f & ST_NOATIME), 0, "strictatime clears both");
		vt_expect_eq(ctx, "ST_RELATIME", !!(f & ST_RELATIME), 0, "strictatime clears both");
	}
	if (vt_expect_errno(ctx, "attr_set RELATIME(0), attr_clr __ATIME",
			    api_set_clr(fd, VT_MOUNT_ATTR_RELATIME, VT_MOUNT_ATTR__ATIME), 0,
			    "build_mount_kattr: RELATIME"))
		vt_expect_eq(ctx, "ST_RELATIME", !!(api_mnt_flags(fd) & ST_RELATIME), 1,
			     "MNT_RELATIME set");
	close(fd);
}

static void path_checks(struct vt_ctx *ctx)
{
	char missing[4200];
	int fd = clone_src(ctx);

	if (fd < 0)
		return;
	snprintf(missing, sizeof(missing), "%s/does-not-exist", ctx->dir);
	/* user_path_at errors pass through once the attr is valid. */
	vt_expect_errno(ctx, "mount_setattr(missing path, NOSUID)",
			vt_mount_setattr(AT_FDCWD, missing, 0, &nosuid, sizeof(nosuid)) < 0 ? errno : 0,
			ENOENT, "user_path_at -> ENOENT");
	vt_expect_errno(ctx, "mount_setattr(fd, \"\" without AT_EMPTY_PATH)",
			vt_mount_setattr(fd, "", 0, &nosuid, sizeof(nosuid)) < 0 ? errno : 0, ENOENT,
			"user_path_at: empty name without LOOKUP_EMPTY -> ENOENT");
	/* do_mount_setattr: !path_mounted(path) -> EINVAL (the case dir is a
	 * directory, not the root of a mount). */
	vt_expect_errno(ctx, "mount_setattr(a directory that is not a mount root)",
			vt_mount_setattr(AT_FDCWD, ctx->dir, 0, &nosuid, sizeof(nosuid)) < 0 ? errno : 0,
			EINVAL, "do_mount_setattr: !path_mounted -> EINVAL");
	close(fd);
}

static int unpriv_setattr(void *arg, void *data, size_t len)
{
	int *fd = arg, *out = data;

	(void)len;
	out[0] = api_setattr_fd(*fd, 0, &nosuid, sizeof(nosuid));
	out[1] = api_setattr_fd(*fd, 0, &nosuid, 0);
	return 0;
}

static void unprivileged(struct vt_ctx *ctx)
{
	struct vt_caller u = vt_caller_user(1000, 1000);
	struct vt_run r;
	int fd = clone_src(ctx), out[2] = { -1, -1 };

	if (fd < 0)
		return;
	r = vt_run_as(&u, unpriv_setattr, &fd, out, sizeof(out));
	if (vt_expect_ran(ctx, &u, &r)) {
		/* !may_mount() (ns_capable(mnt_ns->user_ns, CAP_SYS_ADMIN)) -> EPERM. */
		vt_expect_errno(ctx, "mount_setattr(NOSUID) as uid 1000 without caps", out[0], EPERM,
				"mount_setattr: !may_mount() -> EPERM");
		/* The size checks come before may_mount(). */
		vt_expect_errno(ctx, "mount_setattr(usize 0) as uid 1000 without caps", out[1],
				EINVAL, "mount_setattr: usize checked before may_mount()");
	}
	close(fd);
}

static const struct vt_case cases[] = {
	{ "flags-outside-at-set-einval", flags_unknown },
	{ "size-zero-einval", size_zero },
	{ "size-short-einval", size_short },
	{ "size-larger-zero-tail-accepted", size_larger_zero_tail },
	{ "size-larger-nonzero-tail-e2big", size_larger_nonzero_tail },
	{ "size-over-page-e2big", size_over_page },
	{ "attr-null-efault", attr_null },
	{ "all-zero-attr-noop", all_zero_noop },
	{ "propagation-invalid-einval", propagation_invalid },
	{ "attr-unknown-bits-einval", attr_unknown_bits },
	{ "atime-enum-rules", atime_enum },
	{ "path-lookup-and-mount-root", path_checks },
	{ "unprivileged-eperm-after-size", unprivileged },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct vt_test t = { .cases = cases, .no_idmap_probe = true };
	return vt_test_main(&t, argc, argv);
}
