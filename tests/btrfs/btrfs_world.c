/* The btrfs suite's world and its ioctls (btrfs_world.h). */
#include "btrfs_world.h"

#include "world/fsimage.h"
#include "world/idmapped_mount.h"
#include "world/userns.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/btrfs.h>
#include <linux/btrfs_tree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

int bt_rm_allowed(const char *path)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[8192], best_opts[4096] = "", best_fs[64] = "";
	size_t best = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char mnt[4096], fstype[64], src[4096], opts[4096];
		char *sep = strstr(line, " - ");
		size_t n;

		if (!sep || sscanf(line, "%*d %*d %*s %*s %4095s", mnt) != 1 ||
		    sscanf(sep + 3, "%63s %4095s %4095s", fstype, src, opts) != 3)
			continue;
		n = strlen(mnt);
		if (strncmp(path, mnt, n) != 0 || (n > 1 && path[n] != '/' && path[n] != '\0'))
			continue;
		if (n >= best) { /* the last (topmost) of equal mount points wins */
			best = n;
			snprintf(best_opts, sizeof(best_opts), ",%s,", opts);
			snprintf(best_fs, sizeof(best_fs), "%s", fstype);
		}
	}
	fclose(f);
	if (!best || strcmp(best_fs, "btrfs") != 0)
		return -1;
	return strstr(best_opts, ",user_subvol_rm_allowed,") != NULL;
}

static bool open_world(struct vt_ctx *ctx, struct bt_world *w)
{
	if (!vt_idmapped_at(ctx, w->base, BT_MNT_MAP, "mnt", w->mnt, sizeof(w->mnt)))
		return false;
	w->base_fd = open(w->base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	w->mnt_fd = open(w->mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (w->base_fd < 0 || w->mnt_fd < 0) {
		vt_fail(ctx, "setup: open %s / %s: %s", w->base, w->mnt, vt_errname(errno));
		return false;
	}
	w->ns_mapped = vt_userns_from_spec(-1, BT_NS_MAPPED);
	w->ns_unmapped = vt_userns_from_spec(-1, BT_NS_UNMAPPED);
	if (w->ns_mapped < 0 || w->ns_unmapped < 0) {
		vt_fail(ctx, "setup: user namespaces %s / %s: %s", BT_NS_MAPPED, BT_NS_UNMAPPED,
			vt_errname(-(w->ns_mapped < 0 ? w->ns_mapped : w->ns_unmapped)));
		return false;
	}
	vt_scene(ctx, "%s (0:0 mode 0777 on disk) idmapped %s at %s%s%s", w->base, BT_MNT_MAP,
		 w->mnt, w->fsmnt[0] ? "; btrfs of the case's own at " : "", w->fsmnt);
	return true;
}

static void world_init(struct bt_world *w)
{
	memset(w, 0, sizeof(*w));
	w->base_fd = w->mnt_fd = w->ns_mapped = w->ns_unmapped = -1;
	/* new subvolumes get S_IRWXUGO & ~umask (btrfs_new_subvol_inode) */
	umask(022);
}

bool bt_world_make(struct vt_ctx *ctx, struct bt_world *w)
{
	world_init(w);
	if (!vt_mkdir(ctx, "src", 0777, 0, 0, w->base, sizeof(w->base)))
		return false;
	return open_world(ctx, w);
}

bool bt_world_own_fs(struct vt_ctx *ctx, struct bt_world *w, const char *options)
{
	char img[4200], want_opt[64];
	const char *path = getenv("PATH");
	char newpath[4096];
	int ret, have;

	world_init(w);
	/* mkfs.btrfs lives in /usr/sbin, which a user's PATH may lack. */
	snprintf(newpath, sizeof(newpath), "%s:/usr/sbin:/sbin", path ? path : "/usr/bin:/bin");
	setenv("PATH", newpath, 1);
	snprintf(img, sizeof(img), "%s/btrfs.img", ctx->dir);
	ret = vt_image_create(img, "btrfs", vt_image_default_size("btrfs"), NULL, -1);
	if (ret < 0) {
		vt_fail(ctx, "setup: btrfs image %s: %s", img,
			ret == -ENOEXEC ? "mkfs.btrfs failed" : vt_errname(-ret));
		return false;
	}
	snprintf(w->fsmnt, sizeof(w->fsmnt), "%s/fs", ctx->dir);
	if (mkdir(w->fsmnt, 0755) < 0) {
		vt_fail(ctx, "setup: mkdir %s: %s", w->fsmnt, vt_errname(errno));
		w->fsmnt[0] = '\0';
		return false;
	}
	ret = vt_fs_mount("btrfs", img, w->fsmnt, options);
	if (ret < 0) {
		vt_fail(ctx, "setup: mount btrfs %s at %s -o %s: %s", img, w->fsmnt,
			options ? options : "", vt_errname(-ret));
		w->fsmnt[0] = '\0';
		return false;
	}
	/* The option must be what the kernel says it is: the delete
	 * expectations depend on it (btrfs_test_opt(USER_SUBVOL_RM_ALLOWED)). */
	snprintf(want_opt, sizeof(want_opt), "user_subvol_rm_allowed");
	have = bt_rm_allowed(w->fsmnt);
	if (have != (options && strstr(options, want_opt) != NULL)) {
		vt_fail(ctx, "setup: %s mounted -o %s shows user_subvol_rm_allowed=%d in mountinfo",
			w->fsmnt, options ? options : "", have);
		return false;
	}
	if (!vt_mkdir(ctx, "fs/src", 0777, 0, 0, w->base, sizeof(w->base)))
		return false;
	return open_world(ctx, w);
}

void bt_world_end(struct vt_ctx *ctx, struct bt_world *w)
{
	int *fds[] = { &w->base_fd, &w->mnt_fd, &w->ns_mapped, &w->ns_unmapped };

	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		if (*fds[i] >= 0) {
			close(*fds[i]);
			*fds[i] = -1;
		}
	if (w->mnt[0] && umount2(w->mnt, 0) < 0)
		vt_fail(ctx, "cleanup: umount %s: %s", w->mnt, vt_errname(errno));
	w->mnt[0] = '\0';
	if (w->fsmnt[0] && umount2(w->fsmnt, 0) < 0)
		vt_fail(ctx, "cleanup: umount %s: %s", w->fsmnt, vt_errname(errno));
	w->fsmnt[0] = '\0';
}

const char *bt_who_name(enum bt_who who)
{
	switch (who) {
	case BT_MAPPED: return "mapped fsids (fsuid 10000), all caps";
	case BT_MAPPED_NOCAPS: return "mapped fsids (fsuid 10000), no caps";
	case BT_UNMAPPED: return "unmapped fsids (fsuid 0), all caps";
	case BT_UNMAPPED_NOCAPS: return "unmapped fsids (fsuid 0), no caps";
	case BT_MAPPED_USERNS: return "root of userns " BT_NS_MAPPED " (mapped)";
	case BT_UNMAPPED_USERNS: return "root of userns " BT_NS_UNMAPPED " (unmapped)";
	case BT_ROOT: return "host root";
	}
	return "?";
}

struct vt_caller bt_caller(const struct bt_world *w, enum bt_who who)
{
	struct vt_caller c = vt_caller_root();

	c.set_umask = true;
	c.umask = 022;
	switch (who) {
	case BT_MAPPED_NOCAPS:
		c.caps = "";
		/* fall through */
	case BT_MAPPED:
		c.fsuid = BT_SEEN;
		c.fsgid = BT_SEEN;
		break;
	case BT_UNMAPPED_NOCAPS:
		c.caps = "";
		break;
	case BT_MAPPED_USERNS:
		c.userns_fd = w->ns_mapped;
		c.userns_desc = BT_NS_MAPPED;
		break;
	case BT_UNMAPPED_USERNS:
		c.userns_fd = w->ns_unmapped;
		c.userns_desc = BT_NS_UNMAPPED;
		break;
	case BT_UNMAPPED:
	case BT_ROOT:
		break;
	}
	return c;
}

static int ret_errno(int ret)
{
	return ret < 0 ? errno : 0;
}

int bt_subvol_create(int dirfd, const char *name)
{
	struct btrfs_ioctl_vol_args_v2 a;

	memset(&a, 0, sizeof(a));
	snprintf(a.name, sizeof(a.name), "%s", name);
	return ret_errno(ioctl(dirfd, BTRFS_IOC_SUBVOL_CREATE_V2, &a));
}

int bt_snapshot_create(int srcfd, int dirfd, const char *name, bool rdonly)
{
	struct btrfs_ioctl_vol_args_v2 a;

	memset(&a, 0, sizeof(a));
	a.fd = srcfd;
	a.flags = rdonly ? BTRFS_SUBVOL_RDONLY : 0;
	snprintf(a.name, sizeof(a.name), "%s", name);
	return ret_errno(ioctl(dirfd, BTRFS_IOC_SNAP_CREATE_V2, &a));
}

int bt_subvol_destroy(int dirfd, const char *name)
{
	struct btrfs_ioctl_vol_args a;

	memset(&a, 0, sizeof(a));
	snprintf(a.name, sizeof(a.name), "%s", name);
	return ret_errno(ioctl(dirfd, BTRFS_IOC_SNAP_DESTROY, &a));
}

static int destroy_id(int dirfd, uint64_t id)
{
	struct btrfs_ioctl_vol_args_v2 a;

	memset(&a, 0, sizeof(a));
	a.flags = BTRFS_SUBVOL_SPEC_BY_ID;
	a.subvolid = id;
	return ret_errno(ioctl(dirfd, BTRFS_IOC_SNAP_DESTROY_V2, &a));
}

int bt_subvol_getflags(int fd, uint64_t *flags)
{
	return ret_errno(ioctl(fd, BTRFS_IOC_SUBVOL_GETFLAGS, flags));
}

int bt_subvol_id(int fd, uint64_t *id)
{
	struct btrfs_ioctl_ino_lookup_args a;

	memset(&a, 0, sizeof(a));
	a.objectid = BTRFS_FIRST_FREE_OBJECTID;
	if (ioctl(fd, BTRFS_IOC_INO_LOOKUP, &a) < 0)
		return errno;
	*id = a.treeid;
	return 0;
}

static int op_fn(void *arg, void *data, size_t len)
{
	const struct bt_op *op = arg;
	struct stat st;
	int fd;

	switch (op->kind) {
	case BT_OP_SUBVOL:
		return bt_subvol_create(op->dirfd, op->name);
	case BT_OP_SNAP:
	case BT_OP_SNAP_RO:
		return bt_snapshot_create(op->srcfd, op->dirfd, op->name, op->kind == BT_OP_SNAP_RO);
	case BT_OP_DESTROY:
		return bt_subvol_destroy(op->dirfd, op->name);
	case BT_OP_DESTROY_ID:
		return destroy_id(op->dirfd, op->id);
	case BT_OP_SETFLAGS: {
		uint64_t flags = op->flags;
		return ret_errno(ioctl(op->srcfd, BTRFS_IOC_SUBVOL_SETFLAGS, &flags));
	}
	case BT_OP_RENAME:
		return ret_errno(renameat(op->dirfd, op->name, op->dirfd, op->name2));
	case BT_OP_CREATE:
		fd = openat(op->dirfd, op->name, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
		if (fd < 0)
			return errno;
		close(fd);
		return 0;
	case BT_OP_STAT:
		if (fstatat(op->dirfd, op->name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			return errno;
		if (data && len >= 2 * sizeof(unsigned int)) {
			((unsigned int *)data)[0] = st.st_uid;
			((unsigned int *)data)[1] = st.st_gid;
		}
		return 0;
	case BT_OP_LOOKUP_USER: {
		static struct btrfs_ioctl_ino_lookup_user_args a;
		struct bt_lookup_out *out = data;

		memset(&a, 0, sizeof(a));
		a.treeid = op->id;
		a.dirid = op->flags;
		if (ioctl(op->srcfd, BTRFS_IOC_INO_LOOKUP_USER, &a) < 0)
			return errno;
		if (out && len >= sizeof(*out)) {
			snprintf(out->path, sizeof(out->path), "%s", a.path);
			snprintf(out->name, sizeof(out->name), "%s", a.name);
		}
		return 0;
	}
	case BT_OP_ROOTREF: {
		static struct btrfs_ioctl_get_subvol_rootref_args a;
		struct bt_rootref_out *out = data;

		memset(&a, 0, sizeof(a));
		if (ioctl(op->srcfd, BTRFS_IOC_GET_SUBVOL_ROOTREF, &a) < 0)
			return errno;
		if (out && len >= sizeof(*out)) {
			out->n = a.num_items;
			for (unsigned int i = 0; i < a.num_items && i < 255; i++) {
				out->treeid[i] = a.rootref[i].treeid;
				out->dirid[i] = a.rootref[i].dirid;
			}
		}
		return 0;
	}
	}
	return EINVAL;
}

int bt_as_caller(struct vt_ctx *ctx, const struct vt_caller *c, const struct bt_op *op, void *data,
		 size_t len)
{
	struct vt_run r = vt_run_as(c, op_fn, (void *)op, data, len);

	return vt_expect_ran(ctx, c, &r) ? r.ret : -1;
}

int bt_as(struct vt_ctx *ctx, const struct bt_world *w, enum bt_who who, const struct bt_op *op,
	  void *data, size_t len)
{
	struct vt_caller c = bt_caller(w, who);

	return bt_as_caller(ctx, &c, op, data, len);
}

bool bt_expect(struct vt_ctx *ctx, const struct bt_world *w, enum bt_who who,
	       const struct bt_op *op, const char *what, int want, const char *rule)
{
	char msg[1024];
	int got = bt_as(ctx, w, who, op, NULL, 0);

	if (got < 0)
		return false;
	snprintf(msg, sizeof(msg), "%s: %s", bt_who_name(who), what);
	return vt_expect_errno(ctx, msg, got, want, rule);
}

bool bt_expect_owner_as(struct vt_ctx *ctx, const struct bt_world *w, enum bt_who who, int dirfd,
			const char *name, uid_t uid, gid_t gid, const char *rule)
{
	struct bt_op op = { .kind = BT_OP_STAT, .dirfd = dirfd, .name = name };
	unsigned int ids[2] = { 0, 0 };
	int got = bt_as(ctx, w, who, &op, ids, sizeof(ids));

	if (got < 0)
		return false;
	if (got) {
		vt_fail(ctx, "%s: stat %s: %s [rule: %s]", bt_who_name(who), name, vt_errname(got),
			rule);
		return false;
	}
	if (ids[0] == uid && ids[1] == gid)
		return true;
	vt_fail(ctx, "%s: owner of %s: expected %u:%u, got %u:%u [rule: %s]", bt_who_name(who), name,
		(unsigned)uid, (unsigned)gid, ids[0], ids[1], rule);
	return false;
}

bool bt_expect_ro(struct vt_ctx *ctx, int dirfd, const char *name, bool ro, const char *rule)
{
	uint64_t flags = 0;
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC), ret;

	if (fd < 0) {
		vt_fail(ctx, "open %s for SUBVOL_GETFLAGS: %s", name, vt_errname(errno));
		return false;
	}
	ret = bt_subvol_getflags(fd, &flags);
	close(fd);
	if (ret) {
		vt_fail(ctx, "SUBVOL_GETFLAGS %s: %s", name, vt_errname(ret));
		return false;
	}
	if (!!(flags & BTRFS_SUBVOL_RDONLY) == ro)
		return true;
	vt_fail(ctx, "%s: expected %s, SUBVOL_GETFLAGS says %s [rule: %s]", name,
		ro ? "read-only" : "read-write", (flags & BTRFS_SUBVOL_RDONLY) ? "read-only" : "read-write",
		rule);
	return false;
}

bool bt_world_make_rm(struct vt_ctx *ctx, struct bt_world *w, int *rmopt)
{
	if (!bt_world_make(ctx, w))
		return false;
	*rmopt = bt_rm_allowed(w->base);
	if (*rmopt < 0) {
		vt_fail(ctx, "setup: cannot tell the mount options of the btrfs at %s", w->base);
		return false;
	}
	return true;
}

int bt_unpriv_delete(struct vt_ctx *ctx, int rmopt, int opt_err, const char *opt_rule,
		     const char **rule)
{
	vt_note(ctx, "TEST_DIR's btrfs %s user_subvol_rm_allowed", rmopt ? "has" : "lacks");
	*rule = rmopt ? opt_rule
		      : "btrfs_ioctl_snap_destroy: !capable(CAP_SYS_ADMIN) and no "
			"user_subvol_rm_allowed -> EPERM";
	return rmopt ? opt_err : EPERM;
}
