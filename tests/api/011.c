/* api/011: statx() reports owners in the mount's view, then the caller's.
 *
 * vfs_getattr_nosec() (fs/stat.c) hands the path's mount idmap to
 * ->getattr or generic_fillattr(), which stores stat->uid =
 * vfsuid_into_kuid(i_uid_into_vfsuid(idmap, inode)) (gid alike); cp_statx()
 * then gives stx_uid = from_kuid_munged(current_user_ns(), stat->uid), so
 * an id with no mapping on either step shows as overflowuid. STATX_UID and
 * STATX_GID are in the basic stats generic_fillattr always fills
 * (request_mask is a hint, STATX_BASIC_STATS returned). Cases: the
 * mount b:1000:1001:1 over a file owned 1000:1000 (1001 through the
 * mount, 1000 through the plain mount), a file owned 5 (unmapped by the
 * mount: overflowuid), statx(fd, "", AT_EMPTY_PATH) on an fd opened
 * through the mount (the fd's mount decides, not the path it came from),
 * and a caller in the user namespace b:0:10000:65536 reading through the
 * mount b:0:10000:65536 (disk 0 -> vfsuid 10000 -> 0 in its namespace;
 * disk 70000 is outside the mount's range: overflowuid). */
#include "testlib/testlib.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAP "b:1000:1001:1"
#define SHIFT "b:0:10000:65536"

struct seen {
	int err;
	unsigned int mask;
	unsigned int uid, gid;
};

struct query {
	const char *path;
	bool empty_path;	/* open PATH, then statx(fd, "", AT_EMPTY_PATH) */
};

static int do_statx(void *arg, void *data, size_t len)
{
	const struct query *q = arg;
	struct seen *s = data;
	struct statx sx;
	int fd = -1, ret;

	memset(&sx, 0, sizeof(sx));
	if (q->empty_path) {
		fd = open(q->path, O_PATH | O_CLOEXEC);
		if (fd < 0) {
			s->err = errno;
			return 0;
		}
		ret = statx(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, STATX_UID | STATX_GID, &sx);
	} else {
		ret = statx(AT_FDCWD, q->path, AT_SYMLINK_NOFOLLOW, STATX_UID | STATX_GID, &sx);
	}
	s->err = ret < 0 ? errno : 0;
	s->mask = sx.stx_mask;
	s->uid = sx.stx_uid;
	s->gid = sx.stx_gid;
	if (fd >= 0)
		close(fd);
	return 0;
}

/* statx of PATH as C; expects UID:GID with STATX_UID|STATX_GID set. */
static void expect_statx(struct vt_ctx *ctx, const struct vt_caller *c, const char *path,
			 bool empty_path, long long uid, long long gid, const char *rule)
{
	struct query q = { path, empty_path };
	struct seen s;
	struct vt_run r;
	char what[4400];

	memset(&s, 0, sizeof(s));
	r = vt_run_as(c, do_statx, &q, &s, sizeof(s));
	if (!vt_expect_ran(ctx, c, &r))
		return;
	snprintf(what, sizeof(what), "statx(%s%s)", path, empty_path ? ", AT_EMPTY_PATH on an O_PATH fd" : "");
	if (!vt_expect_errno(ctx, what, s.err, 0, "vfs_getattr_nosec"))
		return;
	vt_expect_eq(ctx, "stx_mask has STATX_UID|STATX_GID", (s.mask & (STATX_UID | STATX_GID)),
		     STATX_UID | STATX_GID, "generic_fillattr fills the basic stats");
	snprintf(what, sizeof(what), "stx_uid of %s", path);
	vt_expect_eq(ctx, what, s.uid, uid, rule);
	snprintf(what, sizeof(what), "stx_gid of %s", path);
	vt_expect_eq(ctx, what, s.gid, gid, rule);
}

static bool make_tree(struct vt_ctx *ctx, const char *spec, uid_t owner, char *src, char *mnt,
		      char *file, char *file_via)
{
	/* vfat: all of src is owned by its mount's uid=, so OWNER's */
	if (!vt_owned_dir(ctx, "src", 0755, 0644, ctx->option_owners ? owner : 0,
			  ctx->option_owners ? owner : 0, src, 4096) ||
	    !vt_mkfile(ctx, "src/f", 0644, owner, owner, file, 4096) ||
	    !vt_idmapped_at(ctx, src, spec, "mnt", mnt, 4096))
		return false;
	snprintf(file_via, 4096, "%s/f", mnt);
	vt_scene(ctx, "f owned %u:%u on disk; mount %s idmapped %s over %s", owner, owner, mnt, spec,
		 src);
	return true;
}

static void mapped_owner(struct vt_ctx *ctx)
{
	struct vt_caller u = vt_caller_user(2000, 2000);
	char src[4096], mnt[4096], file[4096], via[4096];

	if (!make_tree(ctx, MAP, 1000, src, mnt, file, via))
		return;
	/* make_vfsuid(M, init, 1000) = 1001; from_kuid_munged(init, 1001) = 1001. */
	expect_statx(ctx, &u, via, false, 1001, 1001,
		     "generic_fillattr: i_uid_into_vfsuid(mount idmap); cp_statx: from_kuid_munged");
	/* The plain mount (nop idmap) shows the on-disk ids. */
	expect_statx(ctx, &u, file, false, 1000, 1000, "generic_fillattr with nop_mnt_idmap");
}

static void unmapped_owner(struct vt_ctx *ctx)
{
	struct vt_caller u = vt_caller_user(2000, 2000);
	char src[4096], mnt[4096], file[4096], via[4096];

	if (!make_tree(ctx, MAP, 5, src, mnt, file, via))
		return;
	/* make_vfsuid(M, init, 5) = INVALID; from_kuid_munged gives overflowuid. */
	expect_statx(ctx, &u, via, false, vt_overflowuid(), vt_overflowgid(),
		     "i_uid_into_vfsuid: INVALID -> from_kuid_munged: overflowuid");
}

static void fd_of_mount(struct vt_ctx *ctx)
{
	struct vt_caller u = vt_caller_user(2000, 2000);
	char src[4096], mnt[4096], file[4096], via[4096];

	if (!make_tree(ctx, MAP, 1000, src, mnt, file, via))
		return;
	/* vfs_statx_path(&fd->f_path): the fd's mount is the idmapped one. */
	expect_statx(ctx, &u, via, true, 1001, 1001,
		     "statx AT_EMPTY_PATH: vfs_getattr on the fd's path, its mount's idmap");
	expect_statx(ctx, &u, file, true, 1000, 1000, "statx AT_EMPTY_PATH on the plain mount's fd");
}

static void caller_in_userns(struct vt_ctx *ctx)
{
	char src[4096], mnt[4096], file[4096], via[4096], far[4096], far_via[4200], who[300];
	char farsrc[4096], farmnt[4096];
	struct vt_caller c = vt_caller_root();
	int ns;

	if (!make_tree(ctx, SHIFT, 0, src, mnt, file, via))
		return;
	/* far in a tree of its own, idmapped alike (vfat: a mount with uid=70000) */
	if (!vt_owned_dir(ctx, "farsrc", 0755, 0644, 70000, 70000, farsrc, sizeof(farsrc)) ||
	    !vt_mkfile(ctx, "farsrc/far", 0644, 70000, 70000, far, sizeof(far)) ||
	    !vt_idmapped_at(ctx, farsrc, SHIFT, "farmnt", farmnt, sizeof(farmnt)))
		return;
	snprintf(far_via, sizeof(far_via), "%s/far", farmnt);
	ns = vt_userns_from_spec(-1, SHIFT);
	if (ns < 0) {
		vt_fail(ctx, "setup: user namespace %s: %s", SHIFT, vt_errname(-ns));
		return;
	}
	c.userns_fd = ns;
	c.userns_desc = SHIFT;
	vt_caller_describe(&c, who, sizeof(who));
	vt_scene(ctx, "mount %s idmapped %s over %s (f 0:0, far 70000:70000 on disk); caller %s", mnt,
		 SHIFT, src, who);
	/* disk 0 -> vfsuid down(M, 0) = 10000 -> from_kuid_munged(ns, 10000) = 0. */
	expect_statx(ctx, &c, via, false, 0, 0,
		     "i_uid_into_vfsuid(mount) then from_kuid_munged(caller ns)");
	/* disk 0 through the plain mount is kuid 0, which ns does not map. */
	expect_statx(ctx, &c, file, false, vt_overflowuid(), vt_overflowgid(),
		     "nop idmap: kuid 0 unmapped in the caller's ns -> overflowuid");
	/* disk 70000 is outside 0..65535: INVALID through the mount. */
	expect_statx(ctx, &c, far_via, false, vt_overflowuid(), vt_overflowgid(),
		     "i_uid_into_vfsuid: 70000 not in the mount's range -> overflowuid");
	close(ns);
}

static const struct vt_case cases[] = {
	{ "owner-seen-through-mount", mapped_owner },
	{ "unmapped-owner-overflowuid", unmapped_owner },
	{ "empty-path-fd-uses-its-mount", fd_of_mount },
	{ "caller-userns-sees-mount-view", caller_in_userns },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct vt_test t = { .cases = cases };
	return vt_test_main(&t, argc, argv);
}
