/* regress/010: a user namespace with no map written cannot idmap a mount.
 *
 * What went wrong: mount_setattr(MOUNT_ATTR_IDMAP) accepted a user
 * namespace whose uid_map or gid_map had never been written. The mount's
 * idmap was then empty: every id, in both directions, was unmapped ("a
 * mount mapped to nothing"). Affected: 5.12 - 6.8 (not backported; it
 * needs the 6.8 mnt_idmap decoupling). Fix: dacfd001eaf2
 * "fs/mnt_idmapping.c: Return -EINVAL when no map is written" (6.9).
 * Guard: xfstests generic/645.
 *
 * Expected (fs/mnt_idmapping.c): alloc_mnt_idmap() copies the uid map,
 * then the gid map, with copy_mnt_idmap(), which returns -EINVAL when the
 * namespace's map has nr_extents == 0; build_mount_idmapped() passes the
 * error on, so mount_setattr() gives EINVAL and the mount stays as it
 * was. Each case targets a detached clone (the state mount_setattr
 * requires, can_idmap_mount) and, after the refusal, idmaps the same
 * clone with a namespace that has both maps: that must work, so the
 * EINVAL cannot come from the clone or the filesystem. api/003 covers
 * the other userns fd checks. */
#include "testlib/testlib.h"
#include "util/syscalls.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define FIX_DACFD \
	"dacfd001eaf2 \"fs/mnt_idmapping.c: Return -EINVAL when no map is written\" (6.9)"

static int idmap_fd(int fd, int userns_fd)
{
	struct vt_mount_attr a = { .attr_set = VT_MOUNT_ATTR_IDMAP,
				   .userns_fd = (uint64_t)userns_fd };
	return vt_mount_setattr(fd, "", AT_EMPTY_PATH, &a, sizeof(a)) < 0 ? errno : 0;
}

/* SPEC: the maps that are written (NULL: none); WHAT: for messages. */
static void refused(struct vt_ctx *ctx, const char *spec, const char *what)
{
	struct vt_mapping m;
	char src[4096], err[256], op[256];
	int tree, ns, ok_ns, got;

	memset(&m, 0, sizeof(m));
	if (spec && vt_mapping_parse(spec, &m, err, sizeof(err)) < 0) {
		vt_fail(ctx, "setup: spec %s: %s", spec, err);
		return;
	}
	if (!vt_owned_dir(ctx, "src", 0755, 0644, 1000, 1000, src, sizeof(src)))
		return;
	tree = vt_open_tree(AT_FDCWD, src, VT_OPEN_TREE_CLONE | O_CLOEXEC);
	VT_SETUP(ctx, tree, "open_tree(src, OPEN_TREE_CLONE)");
	ns = vt_userns_create(-1, &m);
	if (ns < 0) {
		vt_fail(ctx, "setup: user namespace with %s: %s", what, vt_errname(-ns));
		close(tree);
		return;
	}
	vt_scene(ctx, "detached clone of %s; user namespace with %s", src, what);
	snprintf(op, sizeof(op), "mount_setattr(IDMAP) with a user namespace with %s", what);
	got = idmap_fd(tree, ns);
	close(ns);
	if (got == 0) {
		vt_fail(ctx, "%s: expected EINVAL, got success: the mount was idmapped with an "
			     "empty map; the kernel lacks " FIX_DACFD " [rule: alloc_mnt_idmap -> "
			     "copy_mnt_idmap: nr_extents == 0 -> EINVAL]",
			op);
		close(tree);
		return;
	}
	if (!vt_expect_errno(ctx, op, got, EINVAL,
			     "alloc_mnt_idmap -> copy_mnt_idmap: nr_extents == 0 -> EINVAL "
			     "(dacfd001eaf2)")) {
		close(tree);
		return;
	}
	ok_ns = vt_userns_from_spec(-1, "b:1000:2000:1");
	if (ok_ns < 0) {
		vt_fail(ctx, "setup: user namespace b:1000:2000:1: %s", vt_errname(-ok_ns));
		close(tree);
		return;
	}
	vt_expect_errno(ctx, "then mount_setattr(IDMAP) of the same clone with b:1000:2000:1",
			idmap_fd(tree, ok_ns), 0,
			"the refusal left the clone un-idmapped; a namespace with both maps is "
			"accepted (can_idmap_mount)");
	close(ok_ns);
	close(tree);
}

static void no_maps(struct vt_ctx *ctx)
{
	refused(ctx, NULL, "no uid_map and no gid_map");
}

static void uid_map_only(struct vt_ctx *ctx)
{
	refused(ctx, "u:1000:2000:1", "a uid_map only (gid_map never written)");
}

static void gid_map_only(struct vt_ctx *ctx)
{
	refused(ctx, "g:1000:2000:1", "a gid_map only (uid_map never written)");
}

static const struct vt_case cases[] = {
	{ "userns-without-maps-refused-dacfd001eaf2", no_maps },
	{ "userns-with-uid-map-only-refused-dacfd001eaf2", uid_map_only },
	{ "userns-with-gid-map-only-refused-dacfd001eaf2", gid_map_only },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct vt_test t = { .cases = cases };
	return vt_test_main(&t, argc, argv);
}
