/* api/006: filesystems that can never be idmapped.
 *
 * can_idmap_mount() (fs/namespace.c) refuses a mount whose file_system_type
 * lacks FS_ALLOW_IDMAP with EINVAL. ramfs, procfs, sysfs and devpts never
 * set it (fs/ramfs/inode.c, fs/proc/root.c, fs/sysfs/mount.c,
 * fs/devpts/inode.c declare their fs_flags without it). Each case makes a
 * detached clone of such a mount and tries a valid user namespace; a
 * fresh tmpfs (FS_ALLOW_IDMAP since 6.3, 7a80e5b8c6fa) with the same
 * namespace is the control showing that only the filesystem type decides. */
#include "testlib/testlib.h"
#include "api_util.h"

#include <errno.h>
#include <stdio.h>
#include <sys/mount.h>
#include <unistd.h>

static void try_fs(struct vt_ctx *ctx, const char *fstype, const char *opts, int want,
		   const char *rule)
{
	char dir[4096], op[128];
	int ns, fd;

	if (!vt_mkdir(ctx, fstype, 0755, 0, 0, dir, sizeof(dir)))
		return;
	if (mount(fstype, dir, fstype, 0, opts) < 0) {
		if (errno == ENODEV)
			VT_SKIP(ctx, "%s is not available in this kernel (ENODEV)", fstype);
		vt_fail(ctx, "setup: mount -t %s %s: %s", fstype, dir, vt_errname(errno));
		return;
	}
	vt_scene(ctx, "fresh %s mount at %s, detached clone", fstype, dir);
	ns = vt_userns_from_spec(-1, "b:0:10000:1");
	VT_SETUP(ctx, ns, "userns b:0:10000:1");
	fd = api_clone(dir, 0);
	VT_SETUP(ctx, fd, "open_tree(CLONE)");
	snprintf(op, sizeof(op), "idmap a clone of a %s mount", fstype);
	vt_expect_errno(ctx, op, api_idmap_fd(fd, (uint64_t)ns, 0), want, rule);
	close(fd);
	close(ns);
	umount2(dir, MNT_DETACH);
}

static void ramfs(struct vt_ctx *ctx)
{
	try_fs(ctx, "ramfs", NULL, EINVAL, "can_idmap_mount: !FS_ALLOW_IDMAP (ramfs) -> EINVAL");
}

static void proc(struct vt_ctx *ctx)
{
	try_fs(ctx, "proc", NULL, EINVAL, "can_idmap_mount: !FS_ALLOW_IDMAP (proc) -> EINVAL");
}

static void sysfs(struct vt_ctx *ctx)
{
	try_fs(ctx, "sysfs", NULL, EINVAL, "can_idmap_mount: !FS_ALLOW_IDMAP (sysfs) -> EINVAL");
}

static void devpts(struct vt_ctx *ctx)
{
	try_fs(ctx, "devpts", "newinstance,ptmxmode=0666", EINVAL,
	       "can_idmap_mount: !FS_ALLOW_IDMAP (devpts) -> EINVAL");
}

static void existing_proc(struct vt_ctx *ctx)
{
	int ns, fd;

	ns = vt_userns_from_spec(-1, "b:0:10000:1");
	VT_SETUP(ctx, ns, "userns");
	fd = api_clone("/proc", 0);
	if (fd < 0)
		VT_SKIP(ctx, "cannot clone /proc: %s", vt_errname(errno));
	vt_scene(ctx, "detached clone of /proc");
	vt_expect_errno(ctx, "idmap a clone of /proc", api_idmap_fd(fd, (uint64_t)ns, 0), EINVAL,
			"can_idmap_mount: !FS_ALLOW_IDMAP (proc) -> EINVAL");
	close(fd);
	close(ns);
}

static void tmpfs_control(struct vt_ctx *ctx)
{
	try_fs(ctx, "tmpfs", NULL, 0, "shmem_fs_type has FS_ALLOW_IDMAP (7a80e5b8c6fa, 6.3)");
}

static const struct vt_case cases[] = {
	{ "ramfs-einval", ramfs },
	{ "proc-einval", proc },
	{ "sysfs-einval", sysfs },
	{ "devpts-einval", devpts },
	{ "existing-proc-mount-einval", existing_proc },
	{ "tmpfs-control-succeeds", tmpfs_control },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct vt_test t = { .cases = cases, .no_idmap_probe = true };
	return vt_test_main(&t, argc, argv);
}
