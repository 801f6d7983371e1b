/* The tree of read-only images and the image made from it (ro_image.h). */
#include "world/ro_image.h"
#include "world/fsimage.h"
#include "fs/fs_table.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#define NOID 0xffffffffu
#define E(t, p, i) { VT_ACL_##t, p, i }

/* Owners 1000 (the idmapped tests' usual "home" owner), 0 and 3000; the
 * ACL names users 1001 and 2000 and group 3000. A mode's group bits on a
 * file with an ACL are its mask (posix_acl_chmod/posix_acl_equiv_mode), so
 * the modes below are what lstat shows after the ACL is set. */
const struct vt_ro_entry vt_ro_tree[] = {
	{ .path = VT_RO_SCRATCH, .kind = 'd', .mode = 0755, .uid = 0, .gid = 0 },
	{ .path = "w", .kind = 'd', .mode = 0755, .uid = 1000, .gid = 1000 },
	{ .path = "w/f0644", .kind = 'f', .mode = 0644, .uid = 1000, .gid = 1000 },
	{ .path = "w/f0640", .kind = 'f', .mode = 0640, .uid = 1000, .gid = 1000 },
	{ .path = "w/f0604", .kind = 'f', .mode = 0604, .uid = 1000, .gid = 1000 },
	{ .path = "w/root0600", .kind = 'f', .mode = 0600, .uid = 0, .gid = 0 },
	{ .path = "w/g3000-0060", .kind = 'f', .mode = 0060, .uid = 1000, .gid = 3000 },
	{ .path = "w/acl", .kind = 'f', .mode = 0640, .uid = 1000, .gid = 1000,
	  .nacl = 7,
	  .acl = { E(USER_OBJ, 6, NOID), E(USER, 4, 1001), E(USER, 0, 2000), E(GROUP_OBJ, 0, NOID),
		   E(GROUP, 4, 3000), E(MASK, 4, NOID), E(OTHER, 0, NOID) } },
	{ .path = "w/dacl", .kind = 'd', .mode = 0750, .uid = 1000, .gid = 1000,
	  .ndefacl = 5,
	  .defacl = { E(USER_OBJ, 7, NOID), E(USER, 5, 1001), E(GROUP_OBJ, 5, NOID),
		      E(MASK, 5, NOID), E(OTHER, 0, NOID) } },
	{ .path = "w/xattr", .kind = 'f', .mode = 0644, .uid = 1000, .gid = 1000,
	  .user_xattr = true, .trusted_xattr = true },
	{ .path = "w/sub", .kind = 'd', .mode = 0750, .uid = 1000, .gid = 1000 },
	{ .path = "w/sub/f", .kind = 'f', .mode = 0644, .uid = 1000, .gid = 1000 },
	{ .path = "w/link", .kind = 'l', .mode = 0777, .uid = 1000, .gid = 1000, .target = "f0644" },
	{ .path = "w/suid0", .kind = 'x', .mode = 04755, .uid = 0, .gid = 0 },
	{ .path = "w/suid1000", .kind = 'x', .mode = 04755, .uid = 1000, .gid = 1000 },
	{ .path = "w/sgid1000", .kind = 'x', .mode = 02755, .uid = 1000, .gid = 1000 },
	{ .path = "w/sgid-noxgrp", .kind = 'x', .mode = 02745, .uid = 1000, .gid = 1000 },
	{ .path = "w/fcaps2", .kind = 'x', .mode = 0755, .uid = 0, .gid = 0, .fcaps_version = 2 },
	{ .path = "w/fcaps3-1000", .kind = 'x', .mode = 0755, .uid = 0, .gid = 0,
	  .fcaps_version = 3, .fcaps_rootid = 1000 },
};

const size_t vt_ro_tree_count = sizeof(vt_ro_tree) / sizeof(vt_ro_tree[0]);

const struct vt_ro_entry *vt_ro_entry(const char *path)
{
	size_t i;

	for (i = 0; i < vt_ro_tree_count; i++)
		if (strcmp(vt_ro_tree[i].path, path) == 0)
			return &vt_ro_tree[i];
	return NULL;
}

static int copy_file(const char *from, int to)
{
	char buf[65536];
	ssize_t n;
	int in = open(from, O_RDONLY | O_CLOEXEC), ret = 0;

	if (in < 0)
		return -errno;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(to, buf, (size_t)n) != n) {
			ret = errno ? -errno : -EIO;
			break;
		}
	if (n < 0)
		ret = -errno;
	close(in);
	return ret;
}

static int write_acl(const char *path, const struct vt_acl_entry *a, int n, bool dflt)
{
	unsigned char buf[4 + 8 * VT_RO_MAX_ACL];
	int k;

	/* posix_acl_xattr_header { le32 a_version = POSIX_ACL_XATTR_VERSION (2) } */
	memset(buf, 0, sizeof(buf));
	buf[0] = 2;
	for (k = 0; k < n; k++) {
		unsigned char *e = buf + 4 + 8 * k;
		uint32_t id = a[k].id;

		e[0] = a[k].tag & 0xff;
		e[1] = a[k].tag >> 8;
		e[2] = a[k].perm & 0xff;
		e[3] = a[k].perm >> 8;
		e[4] = id & 0xff;
		e[5] = (id >> 8) & 0xff;
		e[6] = (id >> 16) & 0xff;
		e[7] = id >> 24;
	}
	return lsetxattr(path, dflt ? "system.posix_acl_default" : "system.posix_acl_access", buf,
			 4 + 8 * (size_t)n, 0) < 0 ? -errno : 0;
}

#define STEP(expr, w)                      \
	do {                               \
		if ((expr) < 0) {          \
			*what = (w);       \
			return -errno;     \
		}                          \
	} while (0)

static int stage_one(const char *root, const struct vt_ro_entry *e, const char *exec_probe,
		     const char **what)
{
	char path[4200];
	int fd, ret;

	snprintf(path, sizeof(path), "%s/%s", root, e->path);
	switch (e->kind) {
	case 'd':
		STEP(mkdir(path, 0700), "mkdir");
		break;
	case 'l':
		STEP(symlink(e->target, path), "symlink");
		break;
	default:
		fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
		STEP(fd, "create");
		ret = e->kind == 'x' ? copy_file(exec_probe, fd) : 0;
		close(fd);
		if (ret < 0) {
			*what = "copy exec-probe";
			return ret;
		}
		break;
	}
	/* chown before chmod: chown clears setid bits (notify_change ->
	 * should_remove_suid), and before the ACL and capability, which
	 * chown does not keep either (cap_inode_killpriv) */
	STEP(lchown(path, e->uid, e->gid), "lchown");
	if (e->kind != 'l')
		STEP(chmod(path, e->mode), "chmod");
	if (e->nacl && (ret = write_acl(path, e->acl, e->nacl, false)) < 0) {
		*what = "setxattr(system.posix_acl_access)";
		return ret;
	}
	if (e->ndefacl && (ret = write_acl(path, e->defacl, e->ndefacl, true)) < 0) {
		*what = "setxattr(system.posix_acl_default)";
		return ret;
	}
	if (e->user_xattr)
		STEP(lsetxattr(path, VT_RO_USER_XATTR, VT_RO_USER_VALUE, strlen(VT_RO_USER_VALUE), 0),
		     "setxattr(" VT_RO_USER_XATTR ")");
	if (e->trusted_xattr)
		STEP(lsetxattr(path, VT_RO_TRUSTED_XATTR, VT_RO_TRUSTED_VALUE,
			       strlen(VT_RO_TRUSTED_VALUE), 0),
		     "setxattr(" VT_RO_TRUSTED_XATTR ")");
	if (e->fcaps_version) {
		struct vt_fcaps c = { .version = e->fcaps_version, .effective = true,
				      .permitted = 1ULL << 13 /* CAP_NET_RAW */,
				      .rootid = e->fcaps_rootid };
		if ((ret = vt_fcaps_write(path, &c)) < 0) {
			*what = "setxattr(security.capability)";
			return ret;
		}
	}
	return 0;
}

int vt_ro_stage(const char *root, const char *exec_probe, const char **what)
{
	size_t i;
	int ret;

	for (i = 0; i < vt_ro_tree_count; i++) {
		ret = stage_one(root, &vt_ro_tree[i], exec_probe, what);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* The row's argument template: %S is the staged tree, %I the image; the
 * user's options follow. */
static int run_mkfs(const struct vt_fs_row *r, const char *image, const char *src,
		    const char *mkfs_options, int log_fd)
{
	char *argv[64], *opts = NULL, *save = NULL, *tok;
	int argc = 0, ret;

	if (asprintf(&opts, "%s %s", r->mkfs_args, mkfs_options ? mkfs_options : "") < 0)
		return -ENOMEM;
	argv[argc++] = (char *)r->mkfs;
	for (tok = strtok_r(opts, " \t", &save); tok && argc < 62; tok = strtok_r(NULL, " \t", &save))
		argv[argc++] = strcmp(tok, "%S") == 0 ? (char *)src
			       : strcmp(tok, "%I") == 0 ? (char *)image : tok;
	argv[argc] = NULL;
	ret = vt_run_program(argv, log_fd);
	free(opts);
	return ret;
}

int vt_ro_image_from_dir(const char *path, const char *fstype, const char *src,
			 const char *mkfs_options, int log_fd, const char **what)
{
	const struct vt_fs_row *r = vt_fs_row(fstype);
	int fd, ret;

	*what = "";
	if (!r || r->make != VT_FS_IMAGE)
		return -EINVAL;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		*what = "create the image file";
		return -errno;
	}
	close(fd);
	ret = run_mkfs(r, path, src, mkfs_options, log_fd);
	if (ret < 0) {
		*what = r->mkfs;
		unlink(path);
	}
	return ret;
}

const char *vt_ro_image_unavailable(const char *fstype, char *why, size_t len)
{
	const struct vt_fs_row *r = vt_fs_row(fstype);

	if (!r || r->make != VT_FS_IMAGE) {
		snprintf(why, len, "%s is not a read-only image filesystem of lib/fs/fs_table.c",
			 fstype);
		return why;
	}
	if (!vt_fstype_in_kernel(fstype)) {
		snprintf(why, len, "this kernel has no %s filesystem (not in /proc/filesystems "
			 "after modprobe %s; %s)", fstype, fstype, r->kconfig);
		return why;
	}
	if (!vt_program_in_path(r->mkfs)) {
		snprintf(why, len, "%s (%s) is not installed: no %s image can be made", r->mkfs,
			 r->package, fstype);
		return why;
	}
	return NULL;
}

int vt_ro_image_create(const char *path, const char *fstype, const char *mkfs_options,
		       const char *exec_probe, int log_fd, const char **what)
{
	const struct vt_fs_row *r = vt_fs_row(fstype);
	char stage[4200];
	int ret;

	*what = "";
	if (!r || r->make != VT_FS_IMAGE)
		return -EINVAL;
	snprintf(stage, sizeof(stage), "%s.stage", path);
	if (mkdir(stage, 0700) < 0) {
		*what = "mkdir the staging directory";
		return -errno;
	}
	/* our own mount namespace: the staging tmpfs is nobody else's and
	 * goes away with this process */
	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
		*what = "unshare(CLONE_NEWNS)";
		ret = -errno;
	} else if (mount("tmpfs", stage, "tmpfs", 0, "mode=0755") < 0) {
		*what = "mount the staging tmpfs";
		ret = -errno;
	} else {
		ret = vt_ro_stage(stage, exec_probe, what);
		if (ret == 0)
			ret = vt_ro_image_from_dir(path, fstype, stage, mkfs_options, log_fd, what);
		umount2(stage, MNT_DETACH);
	}
	rmdir(stage);
	return ret;
}
