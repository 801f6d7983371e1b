/* api/003: validation of the user namespace fd given with MOUNT_ATTR_IDMAP.
 *
 * build_mount_idmapped() (fs/namespace.c) checks struct mount_attr's
 * userns_fd before any mount is looked at: > INT_MAX -> EINVAL, no open fd
 * -> EBADF (fdget(), which also ignores O_PATH files), not an nsfs file or
 * not a user namespace -> EINVAL, the initial user namespace -> EPERM.
 * alloc_mnt_idmap() (fs/mnt_idmapping.c) then refuses a namespace whose
 * uid_map or gid_map was never written with EINVAL since 6.9 (dacfd001eaf2
 * "fs/mnt_idmapping.c: Return -EINVAL when no map is written"); before it
 * such a namespace gave a mount on which every id was unmapped. Every call
 * targets a detached clone on which a valid namespace succeeds. */
#include "testlib/testlib.h"
#include "api_util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NS_GET_PARENT 0xb702 /* _IO(0xb7, 0x2), include/uapi/linux/nsfs.h */

static int clone_src(struct vt_ctx *ctx, char *src, size_t len)
{
	int fd;

	if (!vt_owned_dir(ctx, "src", 0755, 0644, 1000, 1000, src, len))
		return -1;
	fd = api_clone(src, 0);
	if (fd < 0)
		vt_fail(ctx, "setup: open_tree(%s, OPEN_TREE_CLONE): %s", src, vt_errname(errno));
	vt_scene(ctx, "detached clone of %s", src);
	return fd;
}

static void fd_out_of_range(struct vt_ctx *ctx)
{
	char src[4096];
	int fd = clone_src(ctx, src, sizeof(src)), ns;

	if (fd < 0)
		return;
	ns = vt_userns_from_spec(-1, "b:1000:2000:1");
	if (ns < 0) {
		vt_fail(ctx, "setup: userns: %s", vt_errname(-ns));
		return;
	}
	/* build_mount_idmapped: attr->userns_fd > INT_MAX -> EINVAL. A
	 * negative int stored in the u64 field is > INT_MAX. */
	vt_expect_errno(ctx, "userns_fd = (u64)-1", api_idmap_fd(fd, (uint64_t)-1, 0), EINVAL,
			"build_mount_idmapped: userns_fd > INT_MAX -> EINVAL");
	vt_expect_errno(ctx, "userns_fd = (u64)(int)-EBADF", api_idmap_fd(fd, (uint64_t)(int64_t)-9, 0),
			EINVAL, "build_mount_idmapped: userns_fd > INT_MAX -> EINVAL");
	vt_expect_errno(ctx, "userns_fd = INT_MAX + 1", api_idmap_fd(fd, (uint64_t)INT_MAX + 1, 0),
			EINVAL, "build_mount_idmapped: userns_fd > INT_MAX -> EINVAL");
	/* A valid fd in the low 32 bits must not be accepted by truncation. */
	vt_expect_errno(ctx, "userns_fd = (1<<32) + valid fd",
			api_idmap_fd(fd, (1ull << 32) + (uint64_t)ns, 0), EINVAL,
			"build_mount_idmapped: the u64 is compared, not truncated");
	vt_expect_errno(ctx, "the valid userns fd itself", api_idmap_fd(fd, (uint64_t)ns, 0), 0,
			"build_mount_idmapped + can_idmap_mount");
	close(ns);
	close(fd);
}

static void fd_closed(struct vt_ctx *ctx)
{
	char src[4096], missing[4300];
	struct vt_mount_attr a = { .attr_set = VT_MOUNT_ATTR_IDMAP };
	int fd = clone_src(ctx, src, sizeof(src)), ns;

	if (fd < 0)
		return;
	ns = vt_userns_from_spec(-1, "b:1000:2000:1");
	if (ns < 0) {
		vt_fail(ctx, "setup: userns: %s", vt_errname(-ns));
		return;
	}
	close(ns); /* ns is now a free fd number */
	vt_expect_errno(ctx, "userns_fd = a closed fd", api_idmap_fd(fd, (uint64_t)ns, 0), EBADF,
			"build_mount_idmapped: fdget() empty -> EBADF");
	/* build_mount_kattr runs before user_path_at: a bad fd is reported
	 * even for a path that does not exist. */
	snprintf(missing, sizeof(missing), "%s/does-not-exist", ctx->dir);
	a.userns_fd = (uint64_t)ns;
	vt_expect_errno(ctx, "closed userns fd, missing path",
			vt_mount_setattr(AT_FDCWD, missing, 0, &a, sizeof(a)) < 0 ? errno : 0,
			EBADF, "build_mount_kattr before user_path_at");
	close(fd);
}

static void fd_o_path(struct vt_ctx *ctx)
{
	char src[4096], path[64];
	int fd = clone_src(ctx, src, sizeof(src)), ns, opath;

	if (fd < 0)
		return;
	ns = vt_userns_from_spec(-1, "b:1000:2000:1");
	if (ns < 0) {
		vt_fail(ctx, "setup: userns: %s", vt_errname(-ns));
		return;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", ns);
	opath = open(path, O_PATH | O_CLOEXEC);
	VT_SETUP(ctx, opath, "open(userns, O_PATH)");
	/* fdget() (__fget_light with FMODE_PATH masked) does not return O_PATH
	 * files: the fd counts as not open -> EBADF. */
	vt_expect_errno(ctx, "userns_fd = O_PATH fd of a user namespace",
			api_idmap_fd(fd, (uint64_t)opath, 0), EBADF,
			"build_mount_idmapped: fdget ignores O_PATH -> EBADF");
	close(opath);
	close(ns);
	close(fd);
}

static void fd_not_nsfs(struct vt_ctx *ctx)
{
	char src[4096], file[4096];
	int fd = clone_src(ctx, src, sizeof(src)), f, pidfd;

	if (fd < 0)
		return;
	if (!vt_mkfile(ctx, "src/plain", 0644, 1000, 1000, file, sizeof(file)))
		return;
	f = open(file, O_RDONLY | O_CLOEXEC);
	VT_SETUP(ctx, f, "open plain file");
	/* !proc_ns_file(file) -> EINVAL. */
	vt_expect_errno(ctx, "userns_fd = a regular file", api_idmap_fd(fd, (uint64_t)f, 0), EINVAL,
			"build_mount_idmapped: !proc_ns_file -> EINVAL");
	close(f);
	f = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	VT_SETUP(ctx, f, "open /proc/self/status");
	vt_expect_errno(ctx, "userns_fd = a procfs file", api_idmap_fd(fd, (uint64_t)f, 0), EINVAL,
			"build_mount_idmapped: !proc_ns_file -> EINVAL");
	close(f);
	pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
	if (pidfd >= 0) {
		vt_expect_errno(ctx, "userns_fd = a pidfd", api_idmap_fd(fd, (uint64_t)pidfd, 0),
				EINVAL, "build_mount_idmapped: !proc_ns_file -> EINVAL");
		close(pidfd);
	}
	/* The tree fd itself: open_tree() opens its file with O_PATH
	 * (vfs_open_tree -> dentry_open(..., O_PATH)), so fdget() skips it. */
	vt_expect_errno(ctx, "userns_fd = the open_tree fd itself", api_idmap_fd(fd, (uint64_t)fd, 0),
			EBADF, "open_tree file is O_PATH; fdget ignores O_PATH -> EBADF");
	close(fd);
}

static void fd_other_ns_types(struct vt_ctx *ctx)
{
	static const char *const kinds[] = { "mnt", "net", "uts", "ipc", "pid", "cgroup", "time" };
	char src[4096], p[64], op[80];
	int fd = clone_src(ctx, src, sizeof(src));
	size_t i;

	if (fd < 0)
		return;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		int nsfd;
		snprintf(p, sizeof(p), "/proc/self/ns/%s", kinds[i]);
		nsfd = open(p, O_RDONLY | O_CLOEXEC);
		if (nsfd < 0)
			continue; /* namespace type not built into this kernel */
		/* get_proc_ns(...)->ops->type != CLONE_NEWUSER -> EINVAL. */
		snprintf(op, sizeof(op), "userns_fd = %s", p);
		vt_expect_errno(ctx, op, api_idmap_fd(fd, (uint64_t)nsfd, 0), EINVAL,
				"build_mount_idmapped: ns type != CLONE_NEWUSER -> EINVAL");
		close(nsfd);
	}
	close(fd);
}

static void init_userns(struct vt_ctx *ctx)
{
	char src[4096];
	int fd = clone_src(ctx, src, sizeof(src)), ns;

	if (fd < 0)
		return;
	ns = open("/proc/self/ns/user", O_RDONLY | O_CLOEXEC);
	VT_SETUP(ctx, ns, "open /proc/self/ns/user");
	/* NS_GET_PARENT fails with EPERM only for a namespace without a
	 * parent we may see, i.e. we are in the initial user namespace. */
	if (ioctl(ns, NS_GET_PARENT) >= 0 || errno != EPERM) {
		close(ns);
		VT_SKIP(ctx, "the test does not run in the initial user namespace");
	}
	vt_expect_errno(ctx, "userns_fd = the initial user namespace",
			api_idmap_fd(fd, (uint64_t)ns, 0), EPERM,
			"build_mount_idmapped: mnt_userns == &init_user_ns -> EPERM");
	close(ns);
	close(fd);
}

static void no_maps_one(struct vt_ctx *ctx, int fd, const char *spec, const char *what)
{
	struct vt_mapping m;
	char err[256], op[200];
	int ns, got;

	memset(&m, 0, sizeof(m));
	if (spec && vt_mapping_parse(spec, &m, err, sizeof(err)) < 0) {
		vt_fail(ctx, "setup: spec %s: %s", spec, err);
		return;
	}
	ns = vt_userns_create(-1, &m);
	if (ns < 0) {
		vt_fail(ctx, "setup: userns (%s): %s", what, vt_errname(-ns));
		return;
	}
	got = api_idmap_fd(fd, (uint64_t)ns, 0);
	close(ns);
	snprintf(op, sizeof(op), "idmap with a userns with %s", what);
	if (got == 0)
		vt_fail(ctx, "%s: expected EINVAL, got success: the kernel lacks dacfd001eaf2 "
			"\"fs/mnt_idmapping.c: Return -EINVAL when no map is written\" (6.9) "
			"[rule: alloc_mnt_idmap: copy_mnt_idmap nr_extents == 0 -> EINVAL]", op);
	else
		vt_expect_errno(ctx, op, got, EINVAL,
				"alloc_mnt_idmap: copy_mnt_idmap nr_extents == 0 -> EINVAL (dacfd001eaf2)");
}

static void userns_without_maps(struct vt_ctx *ctx)
{
	char src[4096];
	int fd = clone_src(ctx, src, sizeof(src));

	if (fd < 0)
		return;
	no_maps_one(ctx, fd, NULL, "no uid_map and no gid_map");
	no_maps_one(ctx, fd, "u:1000:2000:1", "a uid_map only");
	no_maps_one(ctx, fd, "g:1000:2000:1", "a gid_map only");
	/* The clone is still un-idmapped: a namespace with both maps works. */
	no_maps_one(ctx, fd, NULL, "no maps (again)");
	{
		int ns = vt_userns_from_spec(-1, "b:1000:2000:1");
		if (ns >= 0) {
			vt_expect_errno(ctx, "idmap with a complete namespace after the refusals",
					api_idmap_fd(fd, (uint64_t)ns, 0), 0,
					"refused calls left the mount un-idmapped");
			close(ns);
		}
	}
	close(fd);
}

static void no_maps_after_lookup(struct vt_ctx *ctx)
{
	struct vt_mount_attr a = { .attr_set = VT_MOUNT_ATTR_IDMAP };
	struct vt_mapping m;
	char missing[4300];
	int ns;

	memset(&m, 0, sizeof(m));
	ns = vt_userns_create(-1, &m);
	if (ns < 0) {
		vt_fail(ctx, "setup: userns: %s", vt_errname(-ns));
		return;
	}
	/* The map check lives in alloc_mnt_idmap(), called from
	 * do_mount_setattr() after user_path_at(): the lookup error wins. */
	snprintf(missing, sizeof(missing), "%s/does-not-exist", ctx->dir);
	a.userns_fd = (uint64_t)ns;
	vt_expect_errno(ctx, "userns without maps, missing path",
			vt_mount_setattr(AT_FDCWD, missing, 0, &a, sizeof(a)) < 0 ? errno : 0,
			ENOENT, "user_path_at before alloc_mnt_idmap");
	close(ns);
}

static const struct vt_case cases[] = {
	{ "userns-fd-negative-or-over-int-max-einval", fd_out_of_range },
	{ "userns-fd-closed-ebadf", fd_closed },
	{ "userns-fd-o-path-ebadf", fd_o_path },
	{ "userns-fd-not-a-namespace-einval", fd_not_nsfs },
	{ "userns-fd-other-namespace-types-einval", fd_other_ns_types },
	{ "userns-fd-initial-namespace-eperm", init_userns },
	{ "userns-without-maps-einval-dacfd001eaf2", userns_without_maps },
	{ "userns-without-maps-checked-after-lookup", no_maps_after_lookup },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct vt_test t = { .cases = cases };
	return vt_test_main(&t, argc, argv);
}
