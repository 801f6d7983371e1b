/* idmapped/008: chown through an idmapped mount moves the quota usage.
 *
 * ext4_setattr (fs/ext4/inode.c) asks is_quota_modification(idmap, inode,
 * attr) and calls dquot_transfer(idmap, inode, attr) (fs/quota/dquot.c):
 * for a uid that changes (i_uid_needs_update with the mount's idmap) the
 * usage goes to from_vfsuid(idmap, i_user_ns(inode), ia_vfsuid), the new
 * owner on disk, and leaves the old one; the same for the gid
 * (i_gid_needs_update, from_vfsgid). __dquot_transfer moves the inode
 * (1) and its bytes (__inode_get_bytes: st_blocks * 512 on ext4, nothing
 * reserved after fsync). A kernel that took the id as the caller gave it,
 * or the one of another map, charges the wrong owner.
 *
 * The test makes its own ext4 image with `mkfs.ext4 -O quota` (user and
 * group quota inodes; ext4 turns accounting on at mount) in the case
 * directory, loop-mounted in the test's mount namespace; both the mount
 * and the image go with the case. Root chowns and chgrps a file of 1000:1000
 * with 8 KiB of data through mounts with several maps (none, a shift, uid
 * and gid maps that differ) to several targets; the new owner on disk and
 * the errno are the model's (lib/model/attr_rules.c: notify_change,
 * vt_setattr_copy), and quotactl_fd(Q_GETQUOTA) on the plain mount must show
 * the usage moved from the old on-disk ids to the model's new ones (and
 * nothing moved for a refused or an unchanged id).
 *
 * Notrun with the reason when the kernel has no ext4, no quotactl_fd
 * (CONFIG_QUOTACTL, Linux 5.14) or no quota format for ext4 (without
 * CONFIG_QUOTA and CONFIG_QFMT_V2 ext4_feature_set_ok refuses the quota
 * feature read-write), or mkfs.ext4 cannot make the quota feature. */
#include "testlib/simple_ops.h"
#include "testlib/testlib.h"
#include "model/world_model.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/quota.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define IMAGE_MIB 32
#define DATA_BYTES 8192

struct chown_case {
	const char *map;	/* NULL: the plain mount */
	uid_t uid;		/* the target as the caller gives it; -1: unchanged */
	gid_t gid;
};

/* disk 1000:1000 through each map: plain 1000:1000, shift 11000:11000,
 * split 3000:5000 */
static const struct chown_case chowns[] = {
	{ NULL, 2000, 2000 },
	{ "b:0:10000:65536", 12000, 12001 },	/* disk 2000:2001 */
	{ "b:0:10000:65536", 12000, (gid_t)-1 },	/* chown only: the group stays */
	{ "b:0:10000:65536", (uid_t)-1, 13000 },	/* chgrp only: disk gid 3000 */
	{ "b:0:10000:65536", 5000, 5000 },	/* no mapping back: refused */
	{ "u:1000:3000:10,g:1000:5000:10", 3005, 5007 },	/* disk 1005:1007 */
	{ "u:1000:3000:10,g:1000:5000:10", 5007, 3005 },	/* the other map's ids: refused */
};
#define NCHOWNS (sizeof(chowns) / sizeof(chowns[0]))

static long quotactl_fd(int fd, unsigned int cmd, unsigned int id, void *addr)
{
	return syscall(SYS_quotactl_fd, fd, cmd, id, addr);
}

/* usage of on-disk id ID of quota TYPE: bytes and inodes; false with errno */
static bool usage(int fd, int type, unsigned int id, long long *bytes, long long *inodes)
{
	struct if_dqblk d;

	memset(&d, 0, sizeof(d));
	if (quotactl_fd(fd, QCMD(Q_GETQUOTA, type), id, &d) < 0)
		return false;
	*bytes = (long long)d.dqb_curspace;
	*inodes = (long long)d.dqb_curinodes;
	return true;
}

/* The model's chown by the initial root through MAP (NULL: plain) of a
 * 0644 file of 1000:1000 in a 0755 directory of 0:0, ext4 mounted by the
 * initial root. */
static void model_chown(const struct vt_midmap *m, const struct chown_case *c,
			struct vt_expect *e)
{
	struct vt_world w;
	struct vt_mop_args a;

	memset(&w, 0, sizeof(w));
	memset(&a, 0, sizeof(a));
	w.fs_ns = &vt_init_ns;
	w.posixacl = true;
	w.idmap = m;
	w.cred.name = "root";
	w.cred.ns = &vt_init_ns;
	w.cred.uid = w.cred.fsuid = vt_cuid(0);
	w.cred.gid = w.cred.fsgid = vt_cgid(0);
	w.cred.caps = ~0ULL;
	w.dir = vt_minode_make(S_IFDIR | 0755, 0, 0);
	w.obj = vt_minode_make(S_IFREG | 0644, 1000, 1000);
	w.overflowuid = vt_overflowuid();
	w.overflowgid = vt_overflowgid();
	a.op = VT_OP_CHOWN;
	a.uid = vt_cuid(c->uid);
	a.gid = vt_cgid(c->gid);
	vt_model_apply(&w, &a, e);
}

static bool make_file(struct vt_ctx *ctx, const char *path, long long *bytes)
{
	static char data[DATA_BYTES];
	struct stat st;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	memset(data, 'q', sizeof(data));
	if (fd < 0 || write(fd, data, sizeof(data)) != (ssize_t)sizeof(data) || fsync(fd) < 0 ||
	    fchown(fd, 1000, 1000) < 0 || fchmod(fd, 0644) < 0 || fstat(fd, &st) < 0) {
		vt_fail(ctx, "setup: %s: %s", path, vt_errname(errno));
		if (fd >= 0)
			close(fd);
		return false;
	}
	close(fd);
	*bytes = (long long)st.st_blocks * 512;
	return true;
}

struct ids {
	unsigned int uid_old, uid_new, gid_old, gid_new;
};

struct snap {
	long long b[4], i[4];	/* uid_old, uid_new, gid_old, gid_new */
};

static bool snapshot(struct vt_ctx *ctx, int fd, const struct ids *id, struct snap *s)
{
	const int type[4] = { USRQUOTA, USRQUOTA, GRPQUOTA, GRPQUOTA };
	const unsigned int who[4] = { id->uid_old, id->uid_new, id->gid_old, id->gid_new };
	int k;

	for (k = 0; k < 4; k++)
		if (!usage(fd, type[k], who[k], &s->b[k], &s->i[k])) {
			vt_fail(ctx, "quotactl_fd(Q_GETQUOTA, %s %u): %s",
				type[k] == USRQUOTA ? "user" : "group", who[k], vt_errname(errno));
			return false;
		}
	return true;
}

static void chown_moves_usage(struct vt_ctx *ctx)
{
	char img[4200], disk[4200], dir[4300], err[256];
	int ret, fd = -1, moved = 0;
	size_t k;

	if (!vt_fstype_in_kernel("ext4"))
		VT_SKIP(ctx, "this kernel has no ext4 (not in /proc/filesystems after modprobe ext4)");
	if (quotactl_fd(-1, QCMD(Q_GETQUOTA, USRQUOTA), 0, NULL) < 0 && errno == ENOSYS)
		VT_SKIP(ctx, "this kernel has no quotactl_fd (CONFIG_QUOTACTL, Linux 5.14)");
	snprintf(img, sizeof(img), "%s/quota.img", ctx->dir);
	ret = vt_image_create(img, "ext4", (off_t)IMAGE_MIB << 20, "-O quota", 2);
	if (ret == -ENOEXEC) {
		/* the same mkfs without the feature tells a mkfs that lacks it
		 * from a setup that is broken */
		ret = vt_image_create(img, "ext4", (off_t)IMAGE_MIB << 20, NULL, 2);
		unlink(img);
		if (ret == 0)
			VT_SKIP(ctx, "mkfs.ext4 cannot make the quota feature (-O quota failed, the "
				     "same mkfs without it worked)");
	}
	if (ret < 0) {
		vt_fail(ctx, "setup: mkfs.ext4 -O quota %s: %s", img,
			ret == -ENOEXEC ? "failed" : vt_errname(-ret));
		return;
	}
	if (!vt_mkdir(ctx, "disk", 0755, 0, 0, disk, sizeof(disk)))
		return;
	ret = vt_fs_mount("ext4", img, disk, NULL);
	if (ret == -EINVAL && vt_fs_mount("ext4", img, disk, "ro") == 0) {
		/* ext4_feature_set_ok refuses the quota feature read-write only
		 * without CONFIG_QUOTA and CONFIG_QFMT_V2 (a read-only mount of
		 * the same image works: that is what tells it from a bad image) */
		if (umount2(disk, 0) < 0)
			vt_fail(ctx, "clean-up: umount %s: %s", disk, vt_errname(errno));
		else
			vt_skip(ctx, "this kernel cannot mount an ext4 with the quota feature read-write "
				     "(ext4_feature_set_ok: CONFIG_QUOTA and CONFIG_QFMT_V2; mount: EINVAL, "
				     "read-only: works)");
		return;
	}
	if (ret < 0) {
		vt_fail(ctx, "setup: mount -t ext4 %s %s: %s", img, disk, vt_errname(-ret));
		return;
	}
	fd = open(disk, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		vt_fail(ctx, "setup: open %s: %s", disk, vt_errname(errno));
		goto out;
	}
	{
		long long b, i;

		/* the quota feature turns accounting on at mount (ext4_enable_quotas);
		 * without CONFIG_QUOTA ext4 refuses to mount it read-write */
		if (!usage(fd, USRQUOTA, 0, &b, &i)) {
			if (errno == ESRCH || errno == ENOSYS || errno == EOPNOTSUPP)
				vt_skip(ctx, "no quota accounting on the ext4 image (Q_GETQUOTA: %s; "
					     "CONFIG_QUOTA)", vt_errname(errno));
			else
				vt_fail(ctx, "setup: Q_GETQUOTA of user 0 on %s: %s", disk,
					vt_errname(errno));
			goto out;
		}
	}
	for (k = 0; k < NCHOWNS && !ctx->failures; k++) {
		const struct chown_case *c = &chowns[k];
		struct vt_midmap m = { .name = c->map ? c->map : "none", .nop = !c->map };
		struct vt_caller root = vt_caller_root();
		char file[4400], via[4400], mnt[4200], name[32], what[700];
		struct vt_chown_arg ca;
		struct vt_expect e;
		struct snap before, after;
		struct ids id;
		long long bytes;
		struct vt_run r;
		int q;

		if (c->map && vt_mapping_parse(c->map, &m.map, err, sizeof(err)) < 0) {
			vt_fail(ctx, "setup: map %s: %s", c->map, err);
			break;
		}
		snprintf(dir, sizeof(dir), "%s/c%zu", disk, k);
		if (mkdir(dir, 0755) < 0 || chmod(dir, 0755) < 0) {
			vt_fail(ctx, "setup: mkdir %s: %s", dir, vt_errname(errno));
			break;
		}
		snprintf(file, sizeof(file), "%s/f", dir);
		if (!make_file(ctx, file, &bytes))
			break;
		if (c->map) {
			snprintf(name, sizeof(name), "mnt%zu", k);
			if (!vt_idmapped_at(ctx, disk, c->map, name, mnt, sizeof(mnt)))
				break;
		} else {
			snprintf(mnt, sizeof(mnt), "%s", disk);
		}
		snprintf(via, sizeof(via), "%s/c%zu/f", mnt, k);
		model_chown(&m, c, &e);
		/* the ids the usage must leave and reach: the model's owner on
		 * success, the old one otherwise */
		id.uid_old = 1000;
		id.gid_old = 1000;
		id.uid_new = e.err ? 1000 : e.result.uid.val;
		id.gid_new = e.err ? 1000 : e.result.gid.val;
		if (!snapshot(ctx, fd, &id, &before))
			break;
		ca = (struct vt_chown_arg){ via, c->uid, c->gid };
		r = vt_run_as(&root, vt_op_chown, &ca, NULL, 0);
		if (!vt_expect_ran(ctx, &root, &r))
			break;
		snprintf(what, sizeof(what), "chown(%s, %d, %d) as root through %s", via, (int)c->uid,
			 (int)c->gid, c->map ? c->map : "the plain mount");
		vt_expect_errno(ctx, what, r.ret, e.err, e.rule ? e.rule : "model");
		vt_expect_owner(ctx, file, id.uid_new, id.gid_new,
				"notify_change -> ext4_setattr -> setattr_copy (the model's owner)");
		if (!snapshot(ctx, fd, &id, &after))
			break;
		/* dquot_transfer: the bytes and the inode leave the old id and
		 * reach the new one; the same id (or a refusal) moves nothing */
		for (q = 0; q < 2; q++) {
			unsigned int oldid = q ? id.gid_old : id.uid_old;
			unsigned int newid = q ? id.gid_new : id.uid_new;
			const char *t = q ? "group" : "user";
			long long db = oldid == newid ? 0 : bytes, di = oldid == newid ? 0 : 1;
			char lbl[800];

			if (db)
				moved++;
			snprintf(lbl, sizeof(lbl), "%s: %s %u bytes change", what, t, oldid);
			vt_expect_eq(ctx, lbl, after.b[2 * q] - before.b[2 * q], -db, "dquot_transfer");
			snprintf(lbl, sizeof(lbl), "%s: %s %u inodes change", what, t, oldid);
			vt_expect_eq(ctx, lbl, after.i[2 * q] - before.i[2 * q], -di, "dquot_transfer");
			if (oldid == newid)
				continue;
			snprintf(lbl, sizeof(lbl), "%s: %s %u bytes change", what, t, newid);
			vt_expect_eq(ctx, lbl, after.b[2 * q + 1] - before.b[2 * q + 1], db,
				     "dquot_transfer: from_vfsuid/from_vfsgid(idmap, ia_vfsuid/gid)");
			snprintf(lbl, sizeof(lbl), "%s: %s %u inodes change", what, t, newid);
			vt_expect_eq(ctx, lbl, after.i[2 * q + 1] - before.i[2 * q + 1], di,
				     "dquot_transfer: from_vfsuid/from_vfsgid(idmap, ia_vfsuid/gid)");
		}
		if (c->map && umount2(mnt, 0) < 0)
			vt_fail(ctx, "clean-up: umount %s: %s", mnt, vt_errname(errno));
	}
	vt_note(ctx, "%zu chowns compared, %d quota transfers expected", NCHOWNS, moved);
	/* the cases are chosen so that usage moves in most of them: a model
	 * that refused everything would compare nothing */
	vt_expect_eq(ctx, "quota transfers the model expects (at least 6)", moved >= 6, 1,
		     "the chowns above");
out:
	if (fd >= 0)
		close(fd);
	if (umount2(disk, 0) < 0)
		vt_fail(ctx, "clean-up: umount %s: %s", disk, vt_errname(errno));
}

static const struct vt_case cases[] = {
	{ "chown-moves-quota-usage", chown_moves_usage },
	{ NULL, NULL },
};

/* its own ext4 image: once, in the ext4 section */
int main(int argc, char **argv)
{
	static const struct vt_test t = { .cases = cases,
					  .own_image = { "ext4", "mkfs.ext4 -O quota" } };
	return vt_test_main(&t, argc, argv);
}
