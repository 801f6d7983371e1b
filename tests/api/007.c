/* api/007: overlayfs and idmapped mounts.
 *
 * The overlay mount itself can never be idmapped: ovl_fs_type has no
 * FS_ALLOW_IDMAP (fs/overlayfs/super.c), so can_idmap_mount() gives
 * EINVAL. Its layers may be idmapped mounts (5.19+): overlayfs reaches the
 * real inodes through each layer's mount (ovl_upper_mnt_idmap,
 * mnt_idmap(layer->mnt)), so ownership seen through the overlay is the
 * layer mount's view, and what it creates or copies up on an idmapped
 * upper layer is stored translated back (inode_init_owner/notify_change
 * with the upper mount's idmap). Maps: lower b:1000:2000:1; upper
 * b:0:0:1000,b:1000:2000:1 (identity below 1000 so that the mounter, root,
 * can create the work directory through it). On vfat the lower tree and
 * the upper filesystem are vfats mounted uid=1000 (vt_owned_dir), whose
 * work directory is then 1000's too. 6.12 refuses vfat as any layer
 * (fs/overlayfs/params.c ovl_mount_dir_check: ovl_dentry_weird, vfat's
 * case-insensitive dentries have d_hash/d_compare): the cases are then
 * notrun with the errno. */
#include "testlib/testlib.h"
#include "api_util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define LOWER_MAP "b:1000:2000:1"
#define UPPER_MAP "b:0:0:1000,b:1000:2000:1"

struct w {
	char lower[4096], upper[4096], work[4096], merged[4096];
	char lowermnt[4096], uppermnt[4096];
};

/* lower/ (1000, with file f 1000), upperfs/{upper,work}; LOWER_IDMAP and
 * UPPER_IDMAP choose which layers are reached through idmapped mounts. */
static bool make(struct vt_ctx *ctx, struct w *w, bool lower_idmap, bool upper_idmap)
{
	char up[4096], opts[16384], f[4096];
	const char *lowerpath, *upperbase;
	uid_t root = ctx->option_owners ? 1000 : 0;	/* vfat: one owner per filesystem */
	int ret;

	if (!vt_owned_dir(ctx, "lower", 0755, 0644, 1000, 1000, w->lower, sizeof(w->lower)) ||
	    !vt_mkfile(ctx, "lower/f", 0644, 1000, 1000, f, sizeof(f)) ||
	    !vt_owned_dir(ctx, "upperfs", 0755, 0644, root, root, up, sizeof(up)) ||
	    !vt_mkdir(ctx, "upperfs/upper", 0755, 1000, 1000, w->upper, sizeof(w->upper)) ||
	    !vt_mkdir(ctx, "upperfs/work", 0755, root, root, w->work, sizeof(w->work)) ||
	    !vt_mkdir(ctx, "merged", 0755, 0, 0, w->merged, sizeof(w->merged)))
		return false;
	lowerpath = w->lower;
	upperbase = up;
	if (lower_idmap) {
		if (!vt_idmapped_at(ctx, w->lower, LOWER_MAP, "lowermnt", w->lowermnt,
				    sizeof(w->lowermnt)))
			return false;
		lowerpath = w->lowermnt;
	}
	if (upper_idmap) {
		if (!vt_idmapped_at(ctx, up, UPPER_MAP, "uppermnt", w->uppermnt,
				    sizeof(w->uppermnt)))
			return false;
		upperbase = w->uppermnt;
	}
	/* hugetlbfs: no stacking (lib/fs/fs_table.c); vfat is tried below */
	if (!ctx->option_owners && !vt_need_fs(ctx, VT_FSF_OVERLAY))
		return false;
	snprintf(opts, sizeof(opts), "lowerdir=%s,upperdir=%s/upper,workdir=%s/work", lowerpath,
		 upperbase, upperbase);
	ret = mount("overlay", w->merged, "overlay", 0, opts);
	if (ret < 0) {
		if (errno == ENODEV)
			return vt_skip(ctx, "no overlayfs in this kernel (ENODEV)"), false;
		if (ctx->option_owners)
			return vt_skip(ctx, "overlayfs refuses %s as a layer: %s (vfat: "
					    "ovl_mount_dir_check, ovl_dentry_weird: d_hash/d_compare "
					    "of case-insensitive names)", ctx->fstype, vt_errname(errno)),
			       false;
		vt_fail(ctx, "setup: mount -t overlay -o %s: %s", opts, vt_errname(errno));
		return false;
	}
	vt_scene(ctx, "overlay %s: lower %s%s, upper %s%s", w->merged, lowerpath,
		 lower_idmap ? " (idmapped " LOWER_MAP ")" : "", upperbase,
		 upper_idmap ? " (idmapped " UPPER_MAP ")" : "");
	return true;
}

static void overlay_itself(struct vt_ctx *ctx)
{
	struct w w;
	int ns, fd;

	if (!make(ctx, &w, false, false))
		return;
	ns = vt_userns_from_spec(-1, "b:0:10000:65536");
	VT_SETUP(ctx, ns, "userns");
	fd = api_clone(w.merged, 0);
	VT_SETUP(ctx, fd, "open_tree(CLONE) of the overlay");
	vt_expect_errno(ctx, "idmap a clone of the overlay mount", api_idmap_fd(fd, (uint64_t)ns, 0),
			EINVAL, "can_idmap_mount: ovl_fs_type lacks FS_ALLOW_IDMAP -> EINVAL");
	close(fd);
	close(ns);
}

static void lower_idmapped(struct vt_ctx *ctx)
{
	char f[4300];
	struct w w;

	if (!make(ctx, &w, true, false))
		return;
	snprintf(f, sizeof(f), "%s/f", w.merged);
	/* ovl_getattr -> vfs_getattr on the lower path -> make_vfsuid(lower idmap). */
	vt_expect_owner(ctx, f, 2000, 2000, "ovl_getattr via the lower layer's idmapped mount");
	snprintf(f, sizeof(f), "%s/f", w.lower);
	vt_expect_owner(ctx, f, 1000, 1000, "on disk unchanged");
}

static void upper_idmapped_create(struct vt_ctx *ctx)
{
	struct vt_caller u = vt_caller_user(2000, 2000);
	char p[4300], disk[4300];
	struct vt_run r;
	struct w w;

	if (!make(ctx, &w, false, true))
		return;
	/* merged root = upper dir: on disk 1000, seen as 2000 (upper map). */
	vt_expect_owner(ctx, w.merged, 2000, 2000, "overlay root from the idmapped upper dir");
	snprintf(p, sizeof(p), "%s/new", w.merged);
	r = vt_run_as(&u, vt_op_create, p, NULL, 0);
	if (!vt_expect_ran(ctx, &u, &r) ||
	    !vt_expect_errno(ctx, "create through the overlay as uid 2000", r.ret, 0,
			     "owner of the merged dir == fsuid"))
		return;
	/* ovl_create_object: override fsuid = 2000; vfs_create on the upper
	 * idmapped mount: inode_init_owner -> from_vfsuid(upper, 2000) = 1000. */
	snprintf(disk, sizeof(disk), "%s/new", w.upper);
	vt_expect_owner(ctx, disk, 1000, 1000, "inode_init_owner with the upper mount's idmap");
	vt_expect_owner(ctx, p, 2000, 2000, "ovl_getattr via the upper idmapped mount");
}

static void copy_up(struct vt_ctx *ctx)
{
	char p[4300], disk[4300];
	struct w w;

	if (!make(ctx, &w, true, true))
		return;
	snprintf(p, sizeof(p), "%s/f", w.merged);
	vt_expect_owner(ctx, p, 2000, 2000, "lower idmap: 1000 -> 2000");
	/* chmod triggers copy-up: ovl_copy_up reads the lower attributes
	 * through the lower mount (vfsuid 2000) and ovl_set_attr() chowns the
	 * upper copy through the upper mount: from_vfsuid(upper, 2000) = 1000. */
	if (!vt_expect_errno(ctx, "chmod through the overlay (copy-up)",
			     chmod(p, 0640) < 0 ? errno : 0, 0, "ovl_setattr -> ovl_copy_up"))
		return;
	snprintf(disk, sizeof(disk), "%s/f", w.upper);
	vt_expect_owner(ctx, disk, 1000, 1000, "copy-up: ovl_set_attr with the upper idmap");
	vt_expect_owner(ctx, p, 2000, 2000, "copied-up file seen through the upper idmap");
}

static const char *need_overlay(const char *fstype, const char *dir)
{
	(void)dir;
	if (!vt_fstype_in_kernel("overlay"))
		return "no overlayfs in this kernel";
	(void)fstype;
	return NULL;
}

static const struct vt_case cases[] = {
	{ "overlay-mount-itself-einval", overlay_itself },
	{ "idmapped-lower-layer-ownership", lower_idmapped },
	{ "idmapped-upper-layer-create", upper_idmapped_create },
	{ "idmapped-layers-copy-up", copy_up },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct vt_test t = { .cases = cases, .require = need_overlay };
	return vt_test_main(&t, argc, argv);
}
