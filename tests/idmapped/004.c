/* idmapped/004: a container's root filesystem.
 *
 * Scenario 4 of the idmapped-mounts cover letter: a tree owned by 20000 on
 * disk is mounted with b:20000:10000:100000 (on-disk 20000 is seen as
 * 10000) and used by a container whose user namespace maps 0 10000 10000.
 * Inside, root sees its files as owned by root, and what it creates is
 * owned by 20000 on disk. On vfat the rootfs is a vfat mounted
 * uid=20000,gid=20000 (vt_owned_dir): the owner of what is created comes
 * from the options (fat_fill_inode), the same 20000. */
#include "testlib/testlib.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#define MOUNT_MAP "b:20000:10000:100000"
#define NS_MAP "b:0:10000:10000"

struct seen {
	struct stat dir, file, created;
	int err_dir, err_file, err_create, err_stat_created;
};

static int container_work(void *arg, void *data, size_t len)
{
	const char *mnt = arg;
	struct seen *s = data;
	char p[4200];
	int fd;

	s->err_dir = stat(mnt, &s->dir) < 0 ? errno : 0;
	snprintf(p, sizeof(p), "%s/etc-passwd", mnt);
	s->err_file = stat(p, &s->file) < 0 ? errno : 0;
	snprintf(p, sizeof(p), "%s/new", mnt);
	fd = open(p, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
	s->err_create = fd < 0 ? errno : 0;
	if (fd >= 0)
		close(fd);
	s->err_stat_created = stat(p, &s->created) < 0 ? errno : 0;
	return 0;
}

static void container_root(struct vt_ctx *ctx)
{
	char rootfs[4096], file[4096], mnt[4096], disk[4200], who[300];
	struct vt_caller c = vt_caller_root();
	struct seen s;
	struct vt_run r;
	int ns;

	if (!vt_owned_dir(ctx, "rootfs", 0755, 0644, 20000, 20000, rootfs, sizeof(rootfs)) ||
	    !vt_mkfile(ctx, "rootfs/etc-passwd", 0644, 20000, 20000, file, sizeof(file)) ||
	    !vt_idmapped_at(ctx, rootfs, MOUNT_MAP, "mnt", mnt, sizeof(mnt)))
		return;
	ns = vt_userns_from_spec(-1, NS_MAP);
	if (ns < 0) {
		vt_fail(ctx, "setup: user namespace %s: %s", NS_MAP, vt_errname(-ns));
		return;
	}
	c.userns_fd = ns;
	c.userns_desc = NS_MAP;
	vt_caller_describe(&c, who, sizeof(who));
	vt_scene(ctx, "mount %s idmapped %s; caller %s", mnt, MOUNT_MAP, who);
	r = vt_run_as(&c, container_work, mnt, &s, sizeof(s));
	close(ns);
	if (!vt_expect_ran(ctx, &c, &r))
		return;
	/* On-disk 20000 -> mount view down(M, 20000) = 10000 -> from_kuid of the
	 * caller's namespace (0 10000 10000) = 0. */
	if (vt_expect_errno(ctx, "stat mount root in the container", s.err_dir, 0, "lookup"))
		vt_expect_eq(ctx, "container sees the root dir's uid", s.dir.st_uid, 0,
			     "make_vfsuid then from_kuid_munged(caller ns)");
	if (vt_expect_errno(ctx, "stat file in the container", s.err_file, 0, "lookup")) {
		vt_expect_eq(ctx, "container sees the file's uid", s.file.st_uid, 0,
			     "make_vfsuid then from_kuid_munged(caller ns)");
		vt_expect_eq(ctx, "container sees the file's gid", s.file.st_gid, 0,
			     "make_vfsgid then from_kgid_munged(caller ns)");
	}
	/* Container root has fsuid kuid 10000; mapped_fsuid = up(M, 10000) =
	 * 20000, representable on disk (fsuidgid_has_mapping). */
	if (!vt_expect_errno(ctx, "create as container root through the mount", s.err_create, 0,
			     "may_o_create: fsuidgid_has_mapping; dir owner == fsuid"))
		return;
	vt_expect_eq(ctx, "container sees its new file owned by uid", s.created.st_uid, 0,
		     "round trip through both mappings");
	snprintf(disk, sizeof(disk), "%s/new", rootfs);
	vt_expect_owner(ctx, disk, 20000, 20000, "inode_init_owner(mapped_fsuid = up(M, 10000))");
	vt_expect_owner(ctx, file, 20000, 20000, "nop idmap on the plain mount");
}

static const struct vt_case cases[] = {
	{ "container-root-owns-its-rootfs", container_root },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct vt_test t = { .cases = cases };
	return vt_test_main(&t, argc, argv);
}
