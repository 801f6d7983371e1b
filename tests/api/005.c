/* api/005: open_tree_attr() and idmap replacement.
 *
 * open_tree_attr() (6.15) is open_tree() followed by the mount_setattr()
 * checks on the new file's mount. With OPEN_TREE_CLONE the kernel sets
 * MOUNT_KATTR_IDMAP_REPLACE, because the clone was never visible: the
 * idmap of a clone of an idmapped mount may then be replaced
 * (attr_set|attr_clr IDMAP) or cleared (attr_clr IDMAP alone: nop idmap),
 * see build_mount_idmapped() and can_idmap_mount(). Without
 * OPEN_TREE_CLONE the replace flag must not be set (9308366f0621
 * "open_tree_attr: do not allow id-mapping changes without
 * OPEN_TREE_CLONE", 6.17-rc3): setting an idmap on an idmapped detached
 * mount is EPERM and clearing it is EINVAL. Kernels 6.15 - 6.17-rc2 let
 * both succeed; this test then fails naming the fix. The whole test is
 * notrun when open_tree_attr() is missing (ENOSYS). */
#include "testlib/testlib.h"
#include "api_util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#define FIX_9308366 \
	"9308366f0621 \"open_tree_attr: do not allow id-mapping changes without OPEN_TREE_CLONE\" (6.17-rc3)"

struct w {
	char src[4096], mnt[4096], mnt2[4096], file[4096];
	int ns1, ns2;
};

static bool make(struct vt_ctx *ctx, struct w *w)
{
	if (!vt_owned_dir(ctx, "src", 0755, 0644, 1000, 1000, w->src, sizeof(w->src)) ||
	    !vt_mkfile(ctx, "src/file", 0644, 1000, 1000, w->file, sizeof(w->file)) ||
	    !vt_mkdir(ctx, "mnt2", 0755, 0, 0, w->mnt2, sizeof(w->mnt2)))
		return false;
	w->ns1 = vt_userns_from_spec(-1, "b:1000:2000:1");
	w->ns2 = vt_userns_from_spec(-1, "b:1000:3000:1");
	if (w->ns1 < 0 || w->ns2 < 0) {
		vt_fail(ctx, "setup: user namespaces failed");
		return false;
	}
	/* mnt: an attached bind mount of src idmapped with ns1. */
	if (!vt_idmapped_at(ctx, w->src, "b:1000:2000:1", "mnt", w->mnt, sizeof(w->mnt)))
		return false;
	vt_scene(ctx, "%s idmapped b:1000:2000:1 over %s", w->mnt, w->src);
	return true;
}

static int ota(int dfd, const char *path, unsigned int flags, uint64_t set, uint64_t clr, int ns)
{
	struct vt_mount_attr a = { .attr_set = set, .attr_clr = clr, .userns_fd = (uint64_t)ns };
	return vt_open_tree_attr(dfd, path, flags | O_CLOEXEC, &a, sizeof(a));
}

static void owner_via(struct vt_ctx *ctx, int fd, const char *target, uid_t want, const char *rule)
{
	char f[4300];

	if (!vt_expect_errno(ctx, "attach the new tree", api_attach(fd, target), 0, "move_mount"))
		return;
	snprintf(f, sizeof(f), "%s/file", target);
	vt_expect_owner(ctx, f, want, want, rule);
}

static void clone_with_idmap(struct vt_ctx *ctx)
{
	struct w w;
	int fd;

	if (!make(ctx, &w))
		return;
	fd = ota(AT_FDCWD, w.src, VT_OPEN_TREE_CLONE, VT_MOUNT_ATTR_IDMAP, 0, w.ns2);
	if (!vt_expect_errno(ctx, "open_tree_attr(src, CLONE, IDMAP ns2)", fd < 0 ? errno : 0, 0,
			     "open_tree_attr: clone then do_mount_setattr"))
		return;
	owner_via(ctx, fd, w.mnt2, 3000, "make_vfsuid with ns2: 1000 -> 3000");
	close(fd);
}

static void replace_with_clone(struct vt_ctx *ctx)
{
	struct w w;
	int fd;

	if (!make(ctx, &w))
		return;
	/* clone of an idmapped mount + attr_set|attr_clr IDMAP: replace. */
	fd = ota(AT_FDCWD, w.mnt, VT_OPEN_TREE_CLONE, VT_MOUNT_ATTR_IDMAP, VT_MOUNT_ATTR_IDMAP,
		 w.ns2);
	if (!vt_expect_errno(ctx, "open_tree_attr(idmapped mnt, CLONE, set|clr IDMAP ns2)",
			     fd < 0 ? errno : 0, 0,
			     "OPEN_TREE_CLONE sets MOUNT_KATTR_IDMAP_REPLACE"))
		return;
	owner_via(ctx, fd, w.mnt2, 3000, "replaced idmap ns2: 1000 -> 3000");
	close(fd);
	vt_expect_owner(ctx, w.mnt, 2000, 2000, "the original mount keeps ns1");
}

static void set_on_idmapped_clone(struct vt_ctx *ctx)
{
	struct w w;
	int fd;

	if (!make(ctx, &w))
		return;
	/* attr_set IDMAP alone on a clone of an idmapped mount: with REPLACE,
	 * can_idmap_mount skips the is_idmapped_mnt EPERM. */
	fd = ota(AT_FDCWD, w.mnt, VT_OPEN_TREE_CLONE, VT_MOUNT_ATTR_IDMAP, 0, w.ns2);
	if (!vt_expect_errno(ctx, "open_tree_attr(idmapped mnt, CLONE, set IDMAP ns2)",
			     fd < 0 ? errno : 0, 0,
			     "can_idmap_mount: is_idmapped allowed with IDMAP_REPLACE"))
		return;
	owner_via(ctx, fd, w.mnt2, 3000, "replaced idmap ns2");
	close(fd);
}

static void clear_with_clone(struct vt_ctx *ctx)
{
	struct w w;
	int fd;

	if (!make(ctx, &w))
		return;
	/* attr_clr IDMAP alone with REPLACE: kattr->mnt_idmap = nop_mnt_idmap. */
	fd = ota(AT_FDCWD, w.mnt, VT_OPEN_TREE_CLONE, 0, VT_MOUNT_ATTR_IDMAP, -1);
	if (!vt_expect_errno(ctx, "open_tree_attr(idmapped mnt, CLONE, clr IDMAP)",
			     fd < 0 ? errno : 0, 0, "build_mount_idmapped: clear -> nop_mnt_idmap"))
		return;
	owner_via(ctx, fd, w.mnt2, 1000, "nop idmap: on-disk ids shown");
	close(fd);
}

static void without_clone(struct vt_ctx *ctx)
{
	struct w w;
	int tree, fd, err;

	if (!make(ctx, &w))
		return;
	/* A detached idmapped mount (never attached) ... */
	tree = vt_idmapped_tree(w.src, w.ns1, false);
	VT_SETUP(ctx, tree, "detached idmapped tree");
	vt_scene(ctx, "detached clone of %s idmapped b:1000:2000:1", w.src);
	/* ... reopened without OPEN_TREE_CLONE: the same mount. Since
	 * 9308366f0621 no MOUNT_KATTR_IDMAP_REPLACE: can_idmap_mount ->
	 * is_idmapped && !REPLACE -> EPERM. */
	fd = ota(tree, "", AT_EMPTY_PATH, VT_MOUNT_ATTR_IDMAP, 0, w.ns2);
	err = fd < 0 ? errno : 0;
	if (err == 0)
		vt_fail(ctx, "open_tree_attr(detached idmapped, no CLONE, set IDMAP): expected EPERM, "
			"got success: the idmap of an existing mount was changed; the kernel lacks %s "
			"[rule: can_idmap_mount: is_idmapped && !REPLACE -> EPERM]", FIX_9308366);
	else
		vt_expect_errno(ctx, "open_tree_attr(detached idmapped, no CLONE, set IDMAP)", err,
				EPERM, "can_idmap_mount: is_idmapped && !REPLACE -> EPERM (9308366f0621)");
	if (fd >= 0)
		close(fd);
	/* Clearing without OPEN_TREE_CLONE: build_mount_idmapped -> EINVAL. */
	fd = ota(tree, "", AT_EMPTY_PATH, 0, VT_MOUNT_ATTR_IDMAP, -1);
	err = fd < 0 ? errno : 0;
	if (err == 0)
		vt_fail(ctx, "open_tree_attr(detached idmapped, no CLONE, clr IDMAP): expected EINVAL, "
			"got success: the kernel lacks %s "
			"[rule: build_mount_idmapped: clear without REPLACE -> EINVAL]", FIX_9308366);
	else
		vt_expect_errno(ctx, "open_tree_attr(detached idmapped, no CLONE, clr IDMAP)", err,
				EINVAL, "build_mount_idmapped: clear without REPLACE -> EINVAL");
	if (fd >= 0)
		close(fd);
	/* The mount still has ns1. */
	VT_SETUP(ctx, api_attach(tree, w.mnt2) ? -1 : 0, "attach the tree");
	{
		char f[4300];
		snprintf(f, sizeof(f), "%s/file", w.mnt2);
		vt_expect_owner(ctx, f, 2000, 2000, "refused calls left idmap ns1 in place");
	}
	close(tree);
}

static void attached_without_clone(struct vt_ctx *ctx)
{
	struct w w;
	char plain[4096];
	int fd, src;

	if (!make(ctx, &w) || !vt_mkdir(ctx, "plain", 0755, 0, 0, plain, sizeof(plain)))
		return;
	src = api_clone(w.src, 0);
	VT_SETUP(ctx, src, "clone");
	VT_SETUP(ctx, api_attach(src, plain) ? -1 : 0, "attach plain bind mount");
	close(src);
	/* An attached, non-idmapped mount: can_idmap_mount -> !is_anon_ns -> EINVAL. */
	fd = ota(AT_FDCWD, plain, 0, VT_MOUNT_ATTR_IDMAP, 0, w.ns2);
	vt_expect_errno(ctx, "open_tree_attr(attached plain mount, no CLONE, set IDMAP)",
			fd < 0 ? errno : 0, EINVAL, "can_idmap_mount: !is_anon_ns -> EINVAL");
	if (fd >= 0)
		close(fd);
	/* An attached idmapped mount without CLONE: is_idmapped && !REPLACE -> EPERM. */
	fd = ota(AT_FDCWD, w.mnt, 0, VT_MOUNT_ATTR_IDMAP, 0, w.ns2);
	vt_expect_errno(ctx, "open_tree_attr(attached idmapped mount, no CLONE, set IDMAP)",
			fd < 0 ? errno : 0, EPERM, "can_idmap_mount: is_idmapped && !REPLACE -> EPERM");
	if (fd >= 0)
		close(fd);
	vt_expect_owner(ctx, w.mnt, 2000, 2000, "unchanged");
}

static void attr_args(struct vt_ctx *ctx)
{
	struct vt_mount_attr a = { .attr_set = VT_MOUNT_ATTR_NOSUID };
	struct w w;
	int fd;

	if (!make(ctx, &w))
		return;
	/* open_tree_attr: !uattr && usize -> EINVAL. */
	fd = vt_open_tree_attr(AT_FDCWD, w.src, VT_OPEN_TREE_CLONE | O_CLOEXEC, NULL, 32);
	vt_expect_errno(ctx, "open_tree_attr(NULL, 32)", fd < 0 ? errno : 0, EINVAL,
			"open_tree_attr: !uattr && usize -> EINVAL");
	if (fd >= 0)
		close(fd);
	/* NULL, 0: a plain open_tree(). */
	fd = vt_open_tree_attr(AT_FDCWD, w.src, VT_OPEN_TREE_CLONE | O_CLOEXEC, NULL, 0);
	vt_expect_errno(ctx, "open_tree_attr(NULL, 0)", fd < 0 ? errno : 0, 0,
			"open_tree_attr without attr = open_tree");
	if (fd >= 0)
		close(fd);
	/* The size rules of mount_setattr apply (wants_mount_setattr). */
	fd = vt_open_tree_attr(AT_FDCWD, w.src, VT_OPEN_TREE_CLONE | O_CLOEXEC, &a, 16);
	vt_expect_errno(ctx, "open_tree_attr(attr, usize 16)", fd < 0 ? errno : 0, EINVAL,
			"wants_mount_setattr: usize < VER0 -> EINVAL");
	if (fd >= 0)
		close(fd);
	fd = vt_open_tree_attr(AT_FDCWD, w.src, VT_OPEN_TREE_CLONE | O_CLOEXEC, &a, sizeof(a));
	if (vt_expect_errno(ctx, "open_tree_attr(CLONE, NOSUID)", fd < 0 ? errno : 0, 0,
			    "open_tree_attr applies attributes")) {
		vt_expect_eq(ctx, "ST_NOSUID on the new tree", !!(api_mnt_flags(fd) & ST_NOSUID), 1,
			     "mount_setattr_commit");
		close(fd);
	}
}

static const struct vt_case cases[] = {
	{ "clone-with-idmap", clone_with_idmap },
	{ "clone-replaces-idmap", replace_with_clone },
	{ "clone-sets-idmap-on-idmapped-clone", set_on_idmapped_clone },
	{ "clone-clears-idmap", clear_with_clone },
	{ "no-clone-idmap-change-refused-9308366f0621", without_clone },
	{ "no-clone-attached-refused", attached_without_clone },
	{ "attr-pointer-and-size", attr_args },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct vt_test t = { .cases = cases, .require = vt_require_open_tree_attr };
	return vt_test_main(&t, argc, argv);
}
