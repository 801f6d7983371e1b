/* regress/011: open_tree_attr() without OPEN_TREE_CLONE cannot change an idmap.
 *
 * What went wrong: open_tree_attr() (6.15) marked every call with
 * MOUNT_KATTR_IDMAP_REPLACE, the flag that allows replacing or clearing a
 * mount's idmap and is only safe on a fresh clone nobody else can reach.
 * Without OPEN_TREE_CLONE the call works on the existing mount, so the
 * idmap of a detached but visible mount (another fd may be using it)
 * could be replaced or cleared, with the use-after-free and locking
 * hazards the clone-only rule exists to avoid. Attached mounts were safe
 * (can_idmap_mount: !is_anon_ns -> EINVAL). Affected: 6.15 - 6.17-rc2
 * (stable: 6.16.4). CVE-2025-39717. Fix: 9308366f0621 "open_tree_attr:
 * do not allow id-mapping changes without OPEN_TREE_CLONE" (6.17-rc3).
 *
 * Expected (fs/namespace.c, 6.17+): open_tree_attr sets
 * MOUNT_KATTR_IDMAP_REPLACE only with OPEN_TREE_CLONE. Without it, on a
 * detached idmapped mount:
 *   attr_set IDMAP -> can_idmap_mount: is_idmapped_mnt && !REPLACE -> EPERM
 *   attr_clr IDMAP -> build_mount_idmapped: clear without REPLACE -> EINVAL
 * and the mount keeps its idmap. The control case does the same replace
 * with OPEN_TREE_CLONE, which must work, so the refusals cannot come from
 * anything else. api/005 covers the rest of open_tree_attr(). The test is
 * notrun when open_tree_attr() is missing (ENOSYS, before 6.15). */
#include "testlib/testlib.h"
#include "util/syscalls.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#define FIX_9308366 \
	"9308366f0621 \"open_tree_attr: do not allow id-mapping changes without OPEN_TREE_CLONE\" (6.17-rc3)"

struct w {
	char src[4096], file[4096], mnt[4096];
	int ns1, ns2;
	int tree; /* detached clone of src idmapped with ns1 (b:1000:2000:1) */
};

static bool make(struct vt_ctx *ctx, struct w *w)
{
	w->tree = w->ns1 = w->ns2 = -1;
	if (!vt_owned_dir(ctx, "src", 0755, 0644, 1000, 1000, w->src, sizeof(w->src)) ||
	    !vt_mkfile(ctx, "src/file", 0644, 1000, 1000, w->file, sizeof(w->file)) ||
	    !vt_mkdir(ctx, "mnt", 0755, 0, 0, w->mnt, sizeof(w->mnt)))
		return false;
	w->ns1 = vt_userns_from_spec(-1, "b:1000:2000:1");
	w->ns2 = vt_userns_from_spec(-1, "b:1000:3000:1");
	if (w->ns1 < 0 || w->ns2 < 0) {
		vt_fail(ctx, "setup: user namespaces: %s",
			vt_errname(w->ns1 < 0 ? -w->ns1 : -w->ns2));
		return false;
	}
	w->tree = vt_idmapped_tree(w->src, w->ns1, false);
	if (w->tree < 0) {
		vt_fail(ctx, "setup: detached idmapped clone of %s: %s", w->src,
			vt_errname(-w->tree));
		return false;
	}
	vt_scene(ctx, "detached clone of %s idmapped b:1000:2000:1; other ns b:1000:3000:1",
		 w->src);
	return true;
}

static void unmake(struct w *w)
{
	if (w->tree >= 0)
		close(w->tree);
	if (w->ns1 >= 0)
		close(w->ns1);
	if (w->ns2 >= 0)
		close(w->ns2);
}

/* open_tree_attr(FD, "", AT_EMPTY_PATH | FLAGS, {SET, CLR, NS}); the new
 * fd or -1 with errno. */
static int ota(int fd, unsigned int flags, uint64_t set, uint64_t clr, int ns)
{
	struct vt_mount_attr a = { .attr_set = set, .attr_clr = clr, .userns_fd = (uint64_t)ns };
	return vt_open_tree_attr(fd, "", AT_EMPTY_PATH | O_CLOEXEC | flags, &a, sizeof(a));
}

/* Attaches FD at w->mnt and expects src/file to show as WANT:WANT. */
static void expect_view(struct vt_ctx *ctx, struct w *w, int fd, uid_t want, const char *rule)
{
	char f[4300];

	if (vt_move_mount(fd, "", AT_FDCWD, w->mnt, VT_MOVE_MOUNT_F_EMPTY_PATH) < 0) {
		vt_fail(ctx, "setup: move_mount of the tree to %s: %s", w->mnt, vt_errname(errno));
		return;
	}
	snprintf(f, sizeof(f), "%s/file", w->mnt);
	vt_expect_owner(ctx, f, want, want, rule);
}

static void refused(struct vt_ctx *ctx, bool clear)
{
	const char *op = clear ? "open_tree_attr(detached idmapped mount, no CLONE, clr IDMAP)"
			       : "open_tree_attr(detached idmapped mount, no CLONE, set IDMAP ns2)";
	int want = clear ? EINVAL : EPERM;
	struct w w;
	int fd, err;

	if (!make(ctx, &w)) {
		unmake(&w);
		return;
	}
	fd = clear ? ota(w.tree, 0, 0, VT_MOUNT_ATTR_IDMAP, -1)
		   : ota(w.tree, 0, VT_MOUNT_ATTR_IDMAP, 0, w.ns2);
	err = fd < 0 ? errno : 0;
	if (fd >= 0)
		close(fd);
	if (err == 0)
		vt_fail(ctx, "%s: expected %s, got success: the idmap of an existing detached mount "
			     "was %s; the kernel lacks " FIX_9308366 " [rule: %s]",
			op, vt_errname(want), clear ? "cleared" : "replaced",
			clear ? "build_mount_idmapped: clear without MOUNT_KATTR_IDMAP_REPLACE -> "
				"EINVAL"
			      : "can_idmap_mount: is_idmapped_mnt && !MOUNT_KATTR_IDMAP_REPLACE -> "
				"EPERM");
	else
		vt_expect_errno(ctx, op, err, want,
				clear ? "build_mount_idmapped: clear without REPLACE -> EINVAL "
					"(9308366f0621)"
				      : "can_idmap_mount: is_idmapped && !REPLACE -> EPERM "
					"(9308366f0621)");
	/* Either way, what does the mount show now? It must still be ns1. */
	expect_view(ctx, &w, w.tree, 2000,
		    "the mount keeps idmap b:1000:2000:1: disk 1000 seen as 2000 (9308366f0621)");
	unmake(&w);
}

static void set_refused(struct vt_ctx *ctx)
{
	refused(ctx, false);
}

static void clear_refused(struct vt_ctx *ctx)
{
	refused(ctx, true);
}

static void clone_replaces(struct vt_ctx *ctx)
{
	struct w w;
	int fd;

	if (!make(ctx, &w)) {
		unmake(&w);
		return;
	}
	fd = ota(w.tree, VT_OPEN_TREE_CLONE, VT_MOUNT_ATTR_IDMAP, VT_MOUNT_ATTR_IDMAP, w.ns2);
	if (vt_expect_errno(ctx, "open_tree_attr(detached idmapped mount, CLONE, set|clr IDMAP ns2)",
			    fd < 0 ? errno : 0, 0,
			    "OPEN_TREE_CLONE -> MOUNT_KATTR_IDMAP_REPLACE: the new clone's idmap "
			    "may be replaced")) {
		expect_view(ctx, &w, fd, 3000, "the clone has idmap b:1000:3000:1");
		close(fd);
	}
	unmake(&w);
}

static const struct vt_case cases[] = {
	{ "no-clone-set-idmap-on-idmapped-refused-9308366f0621", set_refused },
	{ "no-clone-clear-idmap-refused-9308366f0621", clear_refused },
	{ "clone-replaces-idmap-control", clone_replaces },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct vt_test t = { .cases = cases, .require = vt_require_open_tree_attr };
	return vt_test_main(&t, argc, argv);
}
