/* api/010: fileattr (chattr) ownership is checked in the mount's view.
 *
 * FS_IOC_SETFLAGS and FS_IOC_FSSETXATTR (fs/ioctl.c: ioctl_setflags,
 * ioctl_fssetxattr) pass file_mnt_idmap(file) to vfs_fileattr_set(), whose
 * first check is inode_owner_or_capable(idmap, inode) -> EPERM
 * (fs/inode.c: the mount-view owner i_uid_into_vfsuid must equal the
 * caller's fsuid, or the caller has CAP_FOWNER in its namespace over an
 * owner mapped there). A file owned 1000:1000 on disk, reached through
 * b:1000:1001:1, belongs to 1001 there: 1001 may set FS_NODUMP_FL through
 * the mount and not through the plain mount; 1000 may not through the
 * mount. Root may not either on a file whose owner the mount leaves
 * unmapped (vfsuid_has_mapping fails), though it may on the plain mount.
 * FS_NODUMP_FL needs no CAP_LINUX_IMMUTABLE (fileattr_set_prepare). A
 * filesystem without ->fileattr_set (ENOTTY) or without the flag
 * (EOPNOTSUPP), probed as root on the plain mount, makes the case notrun. */
#include "testlib/testlib.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define MAP "b:1000:1001:1"

struct scene {
	char src[4096], mnt[4096], file[4096], file_via[4096];
};

/* src/ (1000:1000, 0755) with f (OWNER:OWNER, 0644) and the mount. */
static bool make_scene(struct vt_ctx *ctx, struct scene *s, uid_t owner)
{
	/* vfat: all of src is owned by its mount's uid=, so OWNER's */
	if (!vt_owned_dir(ctx, "src", 0755, 0644, ctx->option_owners ? owner : 1000,
			  ctx->option_owners ? owner : 1000, s->src, sizeof(s->src)) ||
	    !vt_mkfile(ctx, "src/f", 0644, owner, owner, s->file, sizeof(s->file)) ||
	    !vt_idmapped_at(ctx, s->src, MAP, "mnt", s->mnt, sizeof(s->mnt)))
		return false;
	snprintf(s->file_via, sizeof(s->file_via), "%s/f", s->mnt);
	vt_scene(ctx, "f owned %u:%u on disk; mount %s idmapped %s over %s", owner, owner, s->mnt,
		 MAP, s->src);
	return true;
}

/* Opens PATH read-only and adds FS_NODUMP_FL with FS_IOC_GETFLAGS +
 * FS_IOC_SETFLAGS (what chattr +d does). 0 or the errno. */
static int set_nodump(void *arg, void *data, size_t len)
{
	int fd = open(arg, O_RDONLY | O_CLOEXEC), flags = 0, ret = 0;

	if (fd < 0)
		return errno;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0)
		ret = errno;
	flags |= FS_NODUMP_FL;
	if (!ret && ioctl(fd, FS_IOC_SETFLAGS, &flags) < 0)
		ret = errno;
	close(fd);
	return ret;
}

/* Same through struct fsxattr: FS_XFLAG_NODUMP with FS_IOC_FSSETXATTR. */
static int set_nodump_fsx(void *arg, void *data, size_t len)
{
	int fd = open(arg, O_RDONLY | O_CLOEXEC), ret = 0;
	struct fsxattr fa;

	if (fd < 0)
		return errno;
	memset(&fa, 0, sizeof(fa));
	if (ioctl(fd, FS_IOC_FSGETXATTR, &fa) < 0)
		ret = errno;
	fa.fsx_xflags |= FS_XFLAG_NODUMP;
	if (!ret && ioctl(fd, FS_IOC_FSSETXATTR, &fa) < 0)
		ret = errno;
	close(fd);
	return ret;
}

/* The flags of PATH read by the test process, or -1. */
static int get_flags(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), flags = 0, ok;

	if (fd < 0)
		return -1;
	ok = ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0;
	close(fd);
	return ok ? flags : -1;
}

/* Probe on a scratch file of the plain mount, as root: does this
 * filesystem take FS_NODUMP_FL (FSX: through FS_IOC_FSSETXATTR) at all? */
static bool require_nodump(struct vt_ctx *ctx, bool fsx)
{
	struct vt_caller root = vt_caller_root();
	char probe[4096];
	int fd;

	/* any regular file will do: its mode and owner are not the question */
	snprintf(probe, sizeof(probe), "%s/probe", ctx->dir);
	fd = open(probe, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0) {
		vt_fail(ctx, "setup: create %s: %s", probe, vt_errname(errno));
		return false;
	}
	close(fd);
	if (!vt_probe_feature(ctx, fsx ? "FS_IOC_FSSETXATTR FS_XFLAG_NODUMP on the plain mount"
				       : "FS_IOC_SETFLAGS FS_NODUMP_FL on the plain mount",
			      &root, fsx ? set_nodump_fsx : set_nodump, probe)) {
		vt_skip(ctx, "%s has no %s here (no ->fileattr_set, or not this flag)", ctx->fstype,
			fsx ? "FS_IOC_FSSETXATTR FS_XFLAG_NODUMP" : "FS_IOC_SETFLAGS FS_NODUMP_FL");
		return false;
	}
	return true;
}

/* Runs OP as C on PATH and expects WANT; on success, checks the flag on
 * disk through the plain mount. */
static void expect_set(struct vt_ctx *ctx, const struct vt_caller *c, vt_caller_fn op,
		       const char *what, const char *path, const char *plain, int want,
		       const char *rule)
{
	struct vt_run r = vt_run_as(c, op, (void *)path, NULL, 0);
	int flags;

	if (!vt_expect_ran(ctx, c, &r))
		return;
	if (!vt_expect_errno(ctx, what, r.ret, want, rule))
		return;
	flags = get_flags(plain);
	vt_expect_eq(ctx, "FS_NODUMP_FL read back through the plain mount",
		     flags >= 0 && (flags & FS_NODUMP_FL), want == 0,
		     want == 0 ? "->fileattr_set stored it" : "refused before ->fileattr_set");
}

static void owner_through_mount(struct vt_ctx *ctx)
{
	struct vt_caller u1001 = vt_caller_user(1001, 1001);
	struct scene s;

	if (!require_nodump(ctx, false) || !make_scene(ctx, &s, 1000))
		return;
	/* i_uid_into_vfsuid(M, 1000) = 1001 == fsuid 1001. */
	expect_set(ctx, &u1001, set_nodump, "chattr +d as uid 1001 through the mount", s.file_via,
		   s.file, 0, "vfs_fileattr_set: inode_owner_or_capable(mount idmap): vfsuid 1001 == fsuid");
}

static void not_owner_on_plain_mount(struct vt_ctx *ctx)
{
	struct vt_caller u1001 = vt_caller_user(1001, 1001);
	struct scene s;

	if (!require_nodump(ctx, false) || !make_scene(ctx, &s, 1000))
		return;
	/* nop idmap: owner 1000 != fsuid 1001, no CAP_FOWNER. */
	expect_set(ctx, &u1001, set_nodump, "chattr +d as uid 1001 through the plain mount", s.file,
		   s.file, EPERM, "vfs_fileattr_set: inode_owner_or_capable(nop idmap): 1000 != 1001");
}

static void disk_owner_through_mount(struct vt_ctx *ctx)
{
	struct vt_caller u1000 = vt_caller_user(1000, 1000);
	struct scene s;

	if (!require_nodump(ctx, false) || !make_scene(ctx, &s, 1000))
		return;
	/* The on-disk owner is 1001 in the mount's view, not 1000. */
	expect_set(ctx, &u1000, set_nodump, "chattr +d as uid 1000 (the on-disk owner) through the mount",
		   s.file_via, s.file, EPERM,
		   "vfs_fileattr_set: inode_owner_or_capable(mount idmap): vfsuid 1001 != fsuid 1000");
}

static void root_unmapped_owner(struct vt_ctx *ctx)
{
	struct vt_caller root = vt_caller_root();
	struct scene s;

	if (!require_nodump(ctx, false) || !make_scene(ctx, &s, 5))
		return;
	/* i_uid_into_vfsuid(M, 5) = INVALID: not the fsuid, and
	 * vfsuid_has_mapping(init, INVALID) fails, so CAP_FOWNER does not help. */
	expect_set(ctx, &root, set_nodump, "chattr +d as root through the mount (owner 5 unmapped)",
		   s.file_via, s.file, EPERM,
		   "inode_owner_or_capable: CAP_FOWNER needs vfsuid_has_mapping(caller ns, vfsuid)");
	/* Control: the same call on the plain mount works (owner 5 is mapped). */
	expect_set(ctx, &root, set_nodump, "chattr +d as root through the plain mount", s.file, s.file,
		   0, "inode_owner_or_capable: ns_capable(CAP_FOWNER) over a mapped owner");
}

static void fsx_owner_through_mount(struct vt_ctx *ctx)
{
	struct vt_caller u1001 = vt_caller_user(1001, 1001), u1000 = vt_caller_user(1000, 1000);
	struct scene s;

	if (!require_nodump(ctx, true) || !make_scene(ctx, &s, 1000))
		return;
	expect_set(ctx, &u1000, set_nodump_fsx,
		   "FS_IOC_FSSETXATTR as uid 1000 (the on-disk owner) through the mount", s.file_via,
		   s.file, EPERM, "ioctl_fssetxattr -> vfs_fileattr_set: inode_owner_or_capable(mount idmap)");
	expect_set(ctx, &u1001, set_nodump_fsx, "FS_IOC_FSSETXATTR as uid 1001 through the mount",
		   s.file_via, s.file, 0,
		   "ioctl_fssetxattr -> vfs_fileattr_set: inode_owner_or_capable(mount idmap)");
}

static const struct vt_case cases[] = {
	{ "setflags-owner-through-mount", owner_through_mount },
	{ "setflags-not-owner-on-plain-mount-eperm", not_owner_on_plain_mount },
	{ "setflags-disk-owner-through-mount-eperm", disk_owner_through_mount },
	{ "setflags-root-unmapped-owner-eperm", root_unmapped_owner },
	{ "fssetxattr-owner-through-mount", fsx_owner_through_mount },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct vt_test t = { .cases = cases };
	return vt_test_main(&t, argc, argv);
}
