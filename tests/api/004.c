/* api/004: which mounts may be idmapped, and when.
 *
 * can_idmap_mount() and mount_setattr_prepare() (fs/namespace.c): only a
 * detached mount that was never visible (is_anon_ns) may be idmapped
 * (attached -> EINVAL); a mount that is already idmapped may not change
 * its mapping through mount_setattr() (EPERM; a clone inherits the idmap
 * in clone_mnt()); clearing MOUNT_ATTR_IDMAP through mount_setattr() is
 * refused in build_mount_idmapped() (EINVAL); the namespace may not be
 * the superblock's own s_user_ns (EINVAL); writers on the mount make the
 * change fail with EBUSY (mnt_hold_writers, e1bbcd277a53, 5.19); and an
 * AT_RECURSIVE change is all-or-nothing. */
#include "testlib/testlib.h"
#include "api_util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAP "b:1000:2000:1"

struct w {
	char src[4096], file[4096];
	int ns;
};

static bool make(struct vt_ctx *ctx, struct w *w)
{
	if (!vt_owned_dir(ctx, "src", 0755, 0644, 1000, 1000, w->src, sizeof(w->src)) ||
	    !vt_mkfile(ctx, "src/file", 0644, 1000, 1000, w->file, sizeof(w->file)))
		return false;
	w->ns = vt_userns_from_spec(-1, MAP);
	if (w->ns < 0) {
		vt_fail(ctx, "setup: userns %s: %s", MAP, vt_errname(-w->ns));
		return false;
	}
	return true;
}

static void attached(struct vt_ctx *ctx)
{
	char mnt[4096];
	struct w w;
	int fd, ret;

	if (!make(ctx, &w) || !vt_mkdir(ctx, "mnt", 0755, 0, 0, mnt, sizeof(mnt)))
		return;
	fd = api_clone(w.src, 0);
	VT_SETUP(ctx, fd, "open_tree(CLONE)");
	ret = api_attach(fd, mnt);
	close(fd);
	if (ret) {
		vt_fail(ctx, "setup: move_mount: %s", vt_errname(ret));
		return;
	}
	vt_scene(ctx, "bind mount %s of %s attached in our mount namespace", mnt, w.src);
	fd = open(mnt, O_PATH | O_CLOEXEC);
	VT_SETUP(ctx, fd, "open mount root");
	/* can_idmap_mount: !is_anon_ns(mnt->mnt_ns) -> EINVAL. */
	vt_expect_errno(ctx, "idmap an attached mount (by fd)", api_idmap_fd(fd, (uint64_t)w.ns, 0),
			EINVAL, "can_idmap_mount: mount already visible -> EINVAL");
	{
		struct vt_mount_attr a = { .attr_set = VT_MOUNT_ATTR_IDMAP, .userns_fd = (uint64_t)w.ns };
		vt_expect_errno(ctx, "idmap an attached mount (by path)",
				vt_mount_setattr(AT_FDCWD, mnt, 0, &a, sizeof(a)) < 0 ? errno : 0,
				EINVAL, "can_idmap_mount: mount already visible -> EINVAL");
	}
	close(fd);
	vt_expect_owner(ctx, mnt, 1000, 1000, "refused: no idmap");
	close(w.ns);
}

static void detached_clone(struct vt_ctx *ctx)
{
	char mnt[4096], f[4300];
	struct w w;
	int fd;

	if (!make(ctx, &w) || !vt_mkdir(ctx, "mnt", 0755, 0, 0, mnt, sizeof(mnt)))
		return;
	fd = api_clone(w.src, 0);
	VT_SETUP(ctx, fd, "open_tree(CLONE)");
	vt_scene(ctx, "detached clone of %s, idmap %s", w.src, MAP);
	if (!vt_expect_errno(ctx, "idmap a detached clone", api_idmap_fd(fd, (uint64_t)w.ns, 0), 0,
			     "can_idmap_mount: anonymous namespace, FS_ALLOW_IDMAP"))
		return;
	vt_expect_errno(ctx, "attach the idmapped clone", api_attach(fd, mnt), 0, "move_mount");
	close(fd);
	snprintf(f, sizeof(f), "%s/file", mnt);
	/* make_vfsuid: on-disk 1000 -> 2000 through the mount. */
	vt_expect_owner(ctx, f, 2000, 2000, "make_vfsuid + generic_fillattr");
	vt_expect_owner(ctx, w.file, 1000, 1000, "plain mount unchanged");
	close(w.ns);
}

static void already_idmapped(struct vt_ctx *ctx)
{
	struct w w;
	int fd, ns2, clone2;
	char mnt[4096];

	if (!make(ctx, &w) || !vt_mkdir(ctx, "mnt", 0755, 0, 0, mnt, sizeof(mnt)))
		return;
	ns2 = vt_userns_from_spec(-1, "b:1000:3000:1");
	VT_SETUP(ctx, ns2, "second userns");
	fd = api_clone(w.src, 0);
	VT_SETUP(ctx, fd, "open_tree(CLONE)");
	vt_scene(ctx, "detached clone of %s idmapped %s", w.src, MAP);
	if (!vt_expect_errno(ctx, "first idmap", api_idmap_fd(fd, (uint64_t)w.ns, 0), 0,
			     "can_idmap_mount"))
		return;
	/* can_idmap_mount: is_idmapped_mnt && !MOUNT_KATTR_IDMAP_REPLACE -> EPERM. */
	vt_expect_errno(ctx, "second idmap of the same detached mount",
			api_idmap_fd(fd, (uint64_t)ns2, 0), EPERM,
			"can_idmap_mount: already idmapped -> EPERM");
	vt_expect_errno(ctx, "same namespace again", api_idmap_fd(fd, (uint64_t)w.ns, 0), EPERM,
			"can_idmap_mount: already idmapped -> EPERM");
	/* A clone of an idmapped mount carries the idmap (clone_mnt copies
	 * mnt_idmap), so it is "already idmapped" too. */
	VT_SETUP(ctx, api_attach(fd, mnt) ? -1 : 0, "attach");
	close(fd);
	clone2 = api_clone(mnt, 0);
	VT_SETUP(ctx, clone2, "open_tree(CLONE) of the idmapped mount");
	vt_expect_errno(ctx, "idmap a clone of an idmapped mount",
			api_idmap_fd(clone2, (uint64_t)ns2, 0), EPERM,
			"clone_mnt keeps mnt_idmap; can_idmap_mount -> EPERM");
	close(clone2);
	close(ns2);
	close(w.ns);
}

static void clear_via_setattr(struct vt_ctx *ctx)
{
	struct vt_mount_attr a = { .attr_clr = VT_MOUNT_ATTR_IDMAP };
	struct w w;
	int fd;

	if (!make(ctx, &w))
		return;
	fd = api_clone(w.src, 0);
	VT_SETUP(ctx, fd, "open_tree(CLONE)");
	/* build_mount_idmapped: IDMAP in attr_clr without
	 * MOUNT_KATTR_IDMAP_REPLACE (only open_tree_attr(OPEN_TREE_CLONE)
	 * sets it) -> EINVAL; on a mount that is not idmapped ... */
	vt_expect_errno(ctx, "attr_clr IDMAP on a plain detached clone",
			api_setattr_fd(fd, 0, &a, sizeof(a)), EINVAL,
			"build_mount_idmapped: clear without REPLACE -> EINVAL");
	/* ... and on an idmapped one. */
	if (api_idmap_fd(fd, (uint64_t)w.ns, 0) == 0)
		vt_expect_errno(ctx, "attr_clr IDMAP on an idmapped detached clone",
				api_setattr_fd(fd, 0, &a, sizeof(a)), EINVAL,
				"build_mount_idmapped: clear without REPLACE -> EINVAL");
	a.attr_set = VT_MOUNT_ATTR_IDMAP;
	a.userns_fd = (uint64_t)w.ns;
	vt_expect_errno(ctx, "attr_set|attr_clr IDMAP (replace) through mount_setattr",
			api_setattr_fd(fd, 0, &a, sizeof(a)), EINVAL,
			"build_mount_idmapped: attr_clr IDMAP without REPLACE -> EINVAL");
	close(fd);
	close(w.ns);
}

static void writers_held(struct vt_ctx *ctx)
{
	struct w w;
	int fd, wfd;

	if (!make(ctx, &w))
		return;
	fd = api_clone(w.src, 0);
	VT_SETUP(ctx, fd, "open_tree(CLONE)");
	/* A writable file opened through the detached mount holds a write
	 * reference on it (mnt_get_write_access for FMODE_WRITER). */
	wfd = openat(fd, "file", O_WRONLY | O_CLOEXEC);
	VT_SETUP(ctx, wfd, "openat(tree, file, O_WRONLY)");
	vt_scene(ctx, "detached clone of %s with a file open for writing", w.src);
	/* mount_setattr_prepare: an idmap change never allows writers
	 * (mnt_allow_writers false) -> mnt_hold_writers -> EBUSY (e1bbcd277a53). */
	vt_expect_errno(ctx, "idmap while a writer holds the mount",
			api_idmap_fd(fd, (uint64_t)w.ns, 0), EBUSY,
			"mount_setattr_prepare: mnt_hold_writers -> EBUSY (e1bbcd277a53, 5.19)");
	close(wfd);
	/* A read-only open is no writer. */
	wfd = openat(fd, "file", O_RDONLY | O_CLOEXEC);
	VT_SETUP(ctx, wfd, "openat(tree, file, O_RDONLY)");
	vt_expect_errno(ctx, "idmap with only a reader", api_idmap_fd(fd, (uint64_t)w.ns, 0), 0,
			"no writers");
	close(wfd);
	close(fd);
	close(w.ns);
}

static void recursive_all_or_nothing(struct vt_ctx *ctx)
{
	char sub[4300], mnt[4096], subvia[4300], f[4300];
	struct w w;
	int fd;

	if (!make(ctx, &w) || !vt_mkdir(ctx, "mnt", 0755, 0, 0, mnt, sizeof(mnt)))
		return;
	snprintf(sub, sizeof(sub), "%s/sub", w.src);
	VT_SETUP(ctx, mkdir(sub, 0755), "mkdir src/sub");
	/* Tree: src (FS_ALLOW_IDMAP on the fs under test) with a ramfs
	 * submount (no FS_ALLOW_IDMAP). */
	VT_SETUP(ctx, mount("vt-ramfs", sub, "ramfs", 0, NULL), "mount ramfs");
	fd = api_clone(w.src, 1);
	VT_SETUP(ctx, fd, "open_tree(CLONE|AT_RECURSIVE)");
	vt_scene(ctx, "detached recursive clone of %s with a ramfs submount", w.src);
	/* mount_setattr_prepare walks every mount first; the ramfs one fails
	 * can_idmap_mount (no FS_ALLOW_IDMAP -> EINVAL) and nothing is committed. */
	vt_expect_errno(ctx, "AT_RECURSIVE idmap of a tree with a ramfs submount",
			api_idmap_fd(fd, (uint64_t)w.ns, AT_RECURSIVE), EINVAL,
			"can_idmap_mount: !FS_ALLOW_IDMAP -> EINVAL, all-or-nothing");
	/* Nothing was committed: the root can still be idmapped (were it
	 * idmapped already, this would be EPERM). */
	vt_expect_errno(ctx, "non-recursive idmap of the root afterwards",
			api_idmap_fd(fd, (uint64_t)w.ns, 0), 0,
			"failed prepare left the root un-idmapped");
	close(fd);
	umount2(sub, MNT_DETACH);
	/* A recursive idmap reaches submounts: src with a bind submount. */
	VT_SETUP(ctx, mount(w.src, sub, NULL, MS_BIND, NULL), "bind src at src/sub");
	fd = api_clone(w.src, 1);
	VT_SETUP(ctx, fd, "open_tree(CLONE|AT_RECURSIVE)");
	if (vt_expect_errno(ctx, "AT_RECURSIVE idmap of a tree with a bind submount",
			    api_idmap_fd(fd, (uint64_t)w.ns, AT_RECURSIVE), 0, "mount_setattr") &&
	    vt_expect_errno(ctx, "attach", api_attach(fd, mnt), 0, "move_mount")) {
		snprintf(f, sizeof(f), "%s/file", mnt);
		snprintf(subvia, sizeof(subvia), "%s/sub/file", mnt);
		vt_expect_owner(ctx, f, 2000, 2000, "root mount idmapped");
		vt_expect_owner(ctx, subvia, 2000, 2000, "submount idmapped (recursive walk)");
	}
	close(fd);
	umount2(sub, MNT_DETACH);
	close(w.ns);
}

/* In a child of the namespace that owns the tmpfs: both may be tried. */
static void sb_userns(struct vt_ctx *ctx)
{
	char sb[4096], mnt[4096], f[4300];
	int owner, other, fd;

	if (!vt_mkdir(ctx, "sb", 0755, 0, 0, sb, sizeof(sb)) ||
	    !vt_mkdir(ctx, "mnt", 0755, 0, 0, mnt, sizeof(mnt)))
		return;
	owner = vt_userns_from_spec(-1, "b:0:100000:65536");
	VT_SETUP(ctx, owner, "userns b:0:100000:65536");
	if (!vt_userns_tmpfs_at(ctx, owner, sb))
		return;
	vt_scene(ctx, "tmpfs with s_user_ns = userns b:0:100000:65536 at %s", sb);
	fd = api_clone(sb, 0);
	VT_SETUP(ctx, fd, "open_tree(sb, OPEN_TREE_CLONE) of the tmpfs");
	/* can_idmap_mount: kattr->mnt_userns == sb->s_user_ns -> EINVAL. */
	vt_expect_errno(ctx, "idmap with the superblock's own user namespace",
			api_idmap_fd(fd, (uint64_t)owner, 0), EINVAL,
			"can_idmap_mount: mnt_userns == s_user_ns -> EINVAL");
	other = vt_userns_from_spec(-1, "b:0:200000:65536");
	VT_SETUP(ctx, other, "second userns");
	if (vt_expect_errno(ctx, "idmap with another namespace", api_idmap_fd(fd, (uint64_t)other, 0),
			    0, "can_idmap_mount: root has CAP_SYS_ADMIN over s_user_ns") &&
	    vt_expect_errno(ctx, "attach", api_attach(fd, mnt), 0, "move_mount")) {
		/* The tmpfs root is owned by the mounter, ns root = kuid 100000;
		 * from_kuid(s_user_ns, 100000) = 0; down(other, 0) = 200000. */
		snprintf(f, sizeof(f), "%s", mnt);
		vt_expect_owner(ctx, f, 200000, 200000,
				"make_vfsuid: from_kuid(s_user_ns) then map_id_down(idmap)");
	}
	close(fd);
	close(other);
	close(owner);
}

static const struct vt_case cases[] = {
	{ "attached-mount-einval", attached },
	{ "detached-clone-succeeds", detached_clone },
	{ "already-idmapped-eperm", already_idmapped },
	{ "clear-idmap-via-mount_setattr-einval", clear_via_setattr },
	{ "writers-held-ebusy", writers_held },
	{ "recursive-all-or-nothing", recursive_all_or_nothing },
	{ "idmap-equal-to-sb-userns-einval", sb_userns },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct vt_test t = { .cases = cases };
	return vt_test_main(&t, argc, argv);
}
