/* regress/009: overlayfs refuses to copy up a file whose owner it cannot map.
 *
 * What went wrong: copy-up recreates a lower file on the upper layer with
 * the mounter's credentials and then gives it the lower file's owner. When
 * that owner had no mapping in the mounter's user namespace (an overlay
 * mounted inside a user namespace over a lower layer with foreign owners,
 * e.g. a setuid-root file from a FUSE mount), copy-up went ahead and the
 * upper copy ended up with ids the mounter could not have set: a local
 * privilege escalation. Affected: 5.11 (overlay mounts in user namespaces)
 * - 6.2-rc5. CVE-2023-0386. Fix: 4f11ada10d0a "ovl: fail on invalid
 * uid/gid mapping at copy up" (6.2-rc6).
 *
 * Expected (fs/overlayfs/copy_up.c, ovl_copy_up_one): with the mounter's
 * credentials (ovl_override_creds), vfs_getattr() of the lower path, then
 *   !kuid_has_mapping(current_user_ns(), stat.uid) ||
 *   !kgid_has_mapping(current_user_ns(), stat.gid) -> -EOVERFLOW
 * before anything is created upstairs. open(O_WRONLY) of a lower file
 * copies it up (ovl_open -> ovl_maybe_copy_up), so it fails with EOVERFLOW
 * and no upper file appears. Two ways to get an unmappable owner:
 *  - userns: the overlay is mounted inside a user namespace (0:100000:65536,
 *    fsopen/fsconfig/fsmount there, "userxattr" as an unprivileged overlay
 *    needs) and the lower file is owned by 5, which it does not map;
 *  - idmapped lower: an overlay mounted by root whose lower layer is an
 *    idmapped mount (b:1000:2000:1) that does not map the owner 5; the
 *    lower stat then carries INVALID_UID (generic_fillattr ->
 *    vfsuid_into_kuid), which no namespace maps. Here a file of its own
 *    never reaches copy-up: the overlay inode takes the lower owner as seen
 *    through the layer's mount (ovl_copyattr: INVALID), and
 *    inode_permission() refuses MAY_WRITE on an inode with an unmapped id
 *    (HAS_UNMAPPED_ID -> EACCES, fs/namei.c). A mappable file d/f inside a
 *    directory d owned by 5 does: copy-up of f first copies up its
 *    ancestors (ovl_copy_up_flags, topmost first), and the copy-up of d
 *    meets the check -> EOVERFLOW.
 * Each has a control: a 0666 file with a mappable owner (in a mappable
 * directory) copies up, keeping its owner (ovl_set_attr). */
#include "testlib/testlib.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define FIX_4F11 "4f11ada10d0a \"ovl: fail on invalid uid/gid mapping at copy up\" (6.2-rc6)"
#define NS_SPEC "b:0:100000:65536"
#define LOWER_MAP "b:1000:2000:1"

struct w {
	char lower[4096], upper[4096], work[4096];
	int mfd;	/* userns variant: the detached overlay mount */
	char merged[4096]; /* idmapped-lower variant: where the overlay is mounted */
	int ns;
};

struct open_args {
	int dfd;
	char path[4300];
};

static int open_write(void *arg, void *data, size_t len)
{
	struct open_args *a = arg;
	int fd = openat(a->dfd, a->path, O_WRONLY | O_CLOEXEC);

	(void)data;
	(void)len;
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* Overlay mounted inside the user namespace NS_SPEC over lower/ (with
 * "unmapped" owned 5 and "mapped" owned 101000, both 0666). Skips the case
 * when overlayfs cannot be mounted in a user namespace here. */
static bool make_userns(struct vt_ctx *ctx, struct w *w)
{
	char f[4096], lo[4200], up[4200], wk[4200];
	const char *opts[5];
	int ret;

	w->mfd = w->ns = -1;
	if (!vt_need_fs(ctx, VT_FSF_OVERLAY))	/* hugetlbfs: no stacking */
		return false;
	if (!vt_mkdir(ctx, "lower", 0755, 100000, 100000, w->lower, sizeof(w->lower)) ||
	    !vt_mkfile(ctx, "lower/unmapped", 0666, 5, 5, f, sizeof(f)) ||
	    !vt_mkfile(ctx, "lower/mapped", 0666, 101000, 101000, f, sizeof(f)) ||
	    !vt_mkdir(ctx, "upper", 0755, 100000, 100000, w->upper, sizeof(w->upper)) ||
	    !vt_mkdir(ctx, "work", 0755, 100000, 100000, w->work, sizeof(w->work)))
		return false;
	w->ns = vt_userns_from_spec(-1, NS_SPEC);
	if (w->ns < 0) {
		vt_fail(ctx, "setup: user namespace %s: %s", NS_SPEC, vt_errname(-w->ns));
		return false;
	}
	snprintf(lo, sizeof(lo), "lowerdir=%s", w->lower);
	snprintf(up, sizeof(up), "upperdir=%s", w->upper);
	snprintf(wk, sizeof(wk), "workdir=%s", w->work);
	opts[0] = lo;
	opts[1] = up;
	opts[2] = wk;
	opts[3] = "userxattr";
	opts[4] = NULL;
	ret = vt_fsmount_in_userns_opts(w->ns, "overlay", opts);
	if (ret == -ENODEV) {
		vt_skip(ctx, "no overlayfs in this kernel (fsopen: ENODEV)");
		return false;
	}
	if (ret < 0) {
		vt_skip(ctx, "overlayfs cannot be mounted inside a user namespace here: "
			     "fsopen/fsconfig(%s,%s,%s,userxattr)/fsmount as root of %s gave %s",
			lo, up, wk, NS_SPEC, vt_errname(-ret));
		return false;
	}
	w->mfd = ret;
	vt_scene(ctx, "overlay mounted in userns %s: lower %s (unmapped: 5:5, mapped: "
		      "101000:101000, both 0666), upper %s, userxattr",
		 NS_SPEC, w->lower, w->upper);
	return true;
}

static void unmake(struct w *w)
{
	if (w->mfd >= 0)
		close(w->mfd);
	if (w->ns >= 0)
		close(w->ns);
}

static void expect_no_upper(struct vt_ctx *ctx, const struct w *w, const char *name)
{
	char p[4300];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", w->upper, name);
	if (lstat(p, &st) == 0)
		vt_fail(ctx, "%s exists on the upper layer (owner %u:%u): the refused copy-up left a "
			     "copy [rule: ovl_copy_up_one checks the mapping before creating anything]",
			p, (unsigned)st.st_uid, (unsigned)st.st_gid);
}

/* Opens NAME for writing as the caller C through DFD (a dir of the overlay). */
static int try_open(struct vt_ctx *ctx, const struct vt_caller *c, int dfd, const char *name,
		    bool *ran)
{
	struct open_args a = { .dfd = dfd };
	struct vt_run r;

	snprintf(a.path, sizeof(a.path), "%s", name);
	r = vt_run_as(c, open_write, &a, NULL, 0);
	*ran = vt_expect_ran(ctx, c, &r);
	return r.ret;
}

static struct vt_caller userns_root(const struct w *w)
{
	struct vt_caller c = vt_caller_user(0, 0);
	c.userns_fd = w->ns;
	c.userns_desc = NS_SPEC;
	return c;
}

static void userns_unmapped(struct vt_ctx *ctx)
{
	struct vt_caller c;
	struct w w;
	bool ran;
	int got;

	if (!make_userns(ctx, &w)) {
		unmake(&w);
		return;
	}
	c = userns_root(&w);
	got = try_open(ctx, &c, w.mfd, "unmapped", &ran);
	if (ran && got == 0)
		vt_fail(ctx, "open(unmapped, O_WRONLY) through the overlay: expected EOVERFLOW, got "
			     "success: a file owned by 5 (not mapped in %s) was copied up; the kernel "
			     "lacks " FIX_4F11 " [rule: ovl_copy_up_one: !kuid_has_mapping(mounter "
			     "ns, stat.uid) -> EOVERFLOW]",
			NS_SPEC);
	else if (ran)
		vt_expect_errno(ctx, "open(unmapped, O_WRONLY) through the overlay (copy-up)", got,
				EOVERFLOW,
				"ovl_copy_up_one: !kuid_has_mapping(mounter ns, stat.uid 5) -> "
				"EOVERFLOW (4f11ada10d0a, CVE-2023-0386)");
	expect_no_upper(ctx, &w, "unmapped");
	unmake(&w);
}

static void userns_mapped_control(struct vt_ctx *ctx)
{
	struct vt_caller c;
	char p[4300];
	struct w w;
	bool ran;

	if (!make_userns(ctx, &w)) {
		unmake(&w);
		return;
	}
	c = userns_root(&w);
	if (vt_expect_errno(ctx, "open(mapped, O_WRONLY) through the overlay (copy-up)",
			    try_open(ctx, &c, w.mfd, "mapped", &ran), 0,
			    "owner 101000 is mapped in the mounter's ns: copy-up goes ahead") &&
	    ran) {
		snprintf(p, sizeof(p), "%s/mapped", w.upper);
		vt_expect_owner(ctx, p, 101000, 101000,
				"copy-up: ovl_set_attr gives the upper copy the lower owner");
	}
	unmake(&w);
}

/* Overlay mounted by root at merged/ over lower/ reached through an
 * idmapped mount LOWER_MAP: unmapped (5:5, 0666), mapped (1000:1000,
 * 0666), dir5/f (dir 5:5 0777, f 1000:1000 0666), dir1000/f (all 1000). */
static bool make_idmapped_lower(struct vt_ctx *ctx, struct w *w)
{
	char f[4096], lowermnt[4096], opts[16384];

	w->mfd = w->ns = -1;
	if (!vt_need_fs(ctx, VT_FSF_OVERLAY))
		return false;
	if (!vt_mkdir(ctx, "lower", 0755, 1000, 1000, w->lower, sizeof(w->lower)) ||
	    !vt_mkfile(ctx, "lower/unmapped", 0666, 5, 5, f, sizeof(f)) ||
	    !vt_mkfile(ctx, "lower/mapped", 0666, 1000, 1000, f, sizeof(f)) ||
	    !vt_mkdir(ctx, "lower/dir5", 0777, 5, 5, f, sizeof(f)) ||
	    !vt_mkfile(ctx, "lower/dir5/f", 0666, 1000, 1000, f, sizeof(f)) ||
	    !vt_mkdir(ctx, "lower/dir1000", 0777, 1000, 1000, f, sizeof(f)) ||
	    !vt_mkfile(ctx, "lower/dir1000/f", 0666, 1000, 1000, f, sizeof(f)) ||
	    !vt_mkdir(ctx, "upper", 0755, 0, 0, w->upper, sizeof(w->upper)) ||
	    !vt_mkdir(ctx, "work", 0755, 0, 0, w->work, sizeof(w->work)) ||
	    !vt_mkdir(ctx, "merged", 0755, 0, 0, w->merged, sizeof(w->merged)) ||
	    !vt_idmapped_at(ctx, w->lower, LOWER_MAP, "lowermnt", lowermnt, sizeof(lowermnt)))
		return false;
	snprintf(opts, sizeof(opts), "lowerdir=%s,upperdir=%s,workdir=%s", lowermnt, w->upper,
		 w->work);
	if (mount("overlay", w->merged, "overlay", 0, opts) < 0) {
		if (errno == ENODEV)
			vt_skip(ctx, "no overlayfs in this kernel (ENODEV)");
		else if (errno == EINVAL)
			vt_skip(ctx, "overlayfs refuses an idmapped lower layer here (EINVAL; "
				     "idmapped layers need 5.19+)");
		else
			vt_fail(ctx, "setup: mount -t overlay -o %s: %s", opts, vt_errname(errno));
		return false;
	}
	vt_scene(ctx, "overlay %s by root: lower %s idmapped %s (on disk: unmapped 5:5, "
		      "mapped 1000:1000, dir5 5:5 with f 1000:1000, dir1000/f), upper %s",
		 w->merged, lowermnt, LOWER_MAP, w->upper);
	return true;
}

/* Opens NAME through the overlay at w->merged as root; the result, or -1
 * if the caller did not run. */
static int open_in_overlay(struct vt_ctx *ctx, const struct w *w, const char *name)
{
	struct vt_caller c = vt_caller_root();
	bool ran;
	int got, dfd;

	dfd = open(w->merged, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		vt_fail(ctx, "setup: open %s: %s", w->merged, vt_errname(errno));
		return -1;
	}
	got = try_open(ctx, &c, dfd, name, &ran);
	close(dfd);
	return ran ? got : -1;
}

static void lower_unmapped_dir(struct vt_ctx *ctx)
{
	struct w w;
	int got;

	if (!make_idmapped_lower(ctx, &w) || (got = open_in_overlay(ctx, &w, "dir5/f")) < 0)
		return;
	if (got == 0)
		vt_fail(ctx, "open(dir5/f, O_WRONLY) through the overlay: expected EOVERFLOW, got "
			     "success: dir5, whose owner the lower mount does not map, was copied "
			     "up; the kernel lacks " FIX_4F11 " [rule: ovl_copy_up_one(dir5): "
			     "!kuid_has_mapping(init ns, INVALID_UID) -> EOVERFLOW]");
	else
		vt_expect_errno(ctx, "open(dir5/f, O_WRONLY) through the overlay (copy-up of dir5)",
				got, EOVERFLOW,
				"ovl_copy_up_flags copies up dir5 first; ovl_copy_up_one: its "
				"stat.uid is INVALID_UID through the idmapped lower -> EOVERFLOW "
				"(4f11ada10d0a)");
	expect_no_upper(ctx, &w, "dir5");
}

static void lower_unmapped_file(struct vt_ctx *ctx)
{
	struct w w;
	int got;

	if (!make_idmapped_lower(ctx, &w) || (got = open_in_overlay(ctx, &w, "unmapped")) < 0)
		return;
	vt_expect_errno(ctx, "open(unmapped, O_WRONLY) through the overlay", got, EACCES,
			"ovl_copyattr: overlay inode i_uid = INVALID (lower mount's view); "
			"inode_permission: MAY_WRITE && HAS_UNMAPPED_ID -> EACCES, before any "
			"copy-up");
	expect_no_upper(ctx, &w, "unmapped");
}

static void lower_mapped_control(struct vt_ctx *ctx)
{
	char p[4300];
	struct w w;

	if (!make_idmapped_lower(ctx, &w))
		return;
	if (!vt_expect_errno(ctx, "open(dir1000/f, O_WRONLY) through the overlay (copy-up)",
			     open_in_overlay(ctx, &w, "dir1000/f"), 0,
			     "dir1000 and f are 1000, seen as 2000 through the lower mount: mapped"))
		return;
	snprintf(p, sizeof(p), "%s/dir1000/f", w.upper);
	vt_expect_owner(ctx, p, 2000, 2000,
			"copy-up: ovl_set_attr gives the upper copy the owner as seen through the "
			"lower mount (vfs_getattr with its idmap)");
}

static const struct vt_case cases[] = {
	{ "userns-overlay-copy-up-unmapped-owner-eoverflow-4f11ada10d0a", userns_unmapped },
	{ "userns-overlay-copy-up-mapped-owner-control", userns_mapped_control },
	{ "idmapped-lower-copy-up-unmapped-dir-eoverflow-4f11ada10d0a", lower_unmapped_dir },
	{ "idmapped-lower-unmapped-file-write-refused-before-copy-up", lower_unmapped_file },
	{ "idmapped-lower-copy-up-mapped-owner-control", lower_mapped_control },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct vt_test t = { .cases = cases,
		.needs = { .owners = VT_FSNEED_INODE_OWNERS } };
	return vt_test_main(&t, argc, argv);
}
