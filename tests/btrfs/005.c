/* btrfs/005: SNAP_DESTROY_V2 by subvolume id, INO_LOOKUP_USER and GET_SUBVOL_ROOTREF through an idmapped mount.
 *
 * vfstest's btrfs_delete_by_spec_id and btrfs_subvolume_lookup_user
 * (unprivileged subvolume iteration: GET_SUBVOL_ROOTREF lists the
 * subvolumes below a subvolume, INO_LOOKUP_USER names their paths), with
 * mapped and unmapped callers (btrfs_world.h).
 *
 * Expected (Linux 6.12 fs/btrfs/ioctl.c):
 * btrfs_ioctl_snap_destroy, BTRFS_SUBVOL_SPEC_BY_ID: the parent is the
 * subvolume's own parent (btrfs_get_parent); on an idmapped mount, if that
 * is not the directory of the fd, EOPNOTSUPP (before any capability
 * check); otherwise as by name. btrfs_ioctl_ino_lookup_user ->
 * btrfs_search_path_in_tree_user(file_mnt_idmap): each directory from the
 * subvolume's parent up to (not including) the fd's inode must pass
 * inode_permission(idmap, dir, MAY_READ|MAY_EXEC), else EACCES; none is
 * checked when the subvolume sits right in the fd's directory.
 * btrfs_ioctl_get_subvol_rootref: no permission check at all; the list of
 * (treeid, dirid) is the same for every caller. */
#include "btrfs_world.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define R_ADMIN "btrfs_ioctl_snap_destroy: capable(CAP_SYS_ADMIN)"
#define R_ELSEWHERE "btrfs_ioctl_snap_destroy: SPEC_BY_ID, parent != the fd's directory on an idmapped mount -> EOPNOTSUPP"
#define R_ROOTREF "btrfs_ioctl_get_subvol_rootref: no permission check; ROOT_REF items of S1 in treeid order"

/* The lookup world: S1 (subvolume) holding S3 (subvolume) and d1/d2/S4
 * (d1 mode 0700, S4 a subvolume), all 1000:1000 on disk; S1 idmapped at
 * m1 (seen 11000).
 *
 * Which directories INO_LOOKUP_USER checks changed after 6.12: 6.12's
 * btrfs_search_path_in_tree_user checks each directory from dirid up
 * (d2, then d1: btrfs_previous_item(INODE_ITEM) of dirid); Josef Bacik's
 * "btrfs: don't search back for dir inode item in INO_LOOKUP_USER"
 * (posted as v6 7/8, linux-btrfs, 2025-11-12) checks each component's
 * parent instead (btrfs_iget(key.offset): d1, then S1), as this host's
 * kernel does. d1 is checked by both, so d1 is the one made 0700: every
 * expectation below holds for either code. */
struct lw {
	struct bt_world w;
	char m1[4096];
	int s1m, s1d;
	uint64_t s3, s4, d2ino;
};

static bool lookup_world(struct vt_ctx *ctx, struct lw *l)
{
	static const struct { const char *path; bool subvol; mode_t mode; } tree[] = {
		{ "S1", true, 0755 },	  { "S2", true, 0755 },	       { "S1/S3", true, 0700 },
		{ "S1/d1", false, 0700 }, { "S1/d1/d2", false, 0755 }, { "S1/d1/d2/S4", true, 0700 },
	};
	char p[4300], s1[4300];
	struct stat st;
	int fd;

	l->s1m = l->s1d = -1;
	if (!bt_world_make(ctx, &l->w))
		return false;
	for (size_t i = 0; i < sizeof(tree) / sizeof(tree[0]); i++) {
		const char *slash = strrchr(tree[i].path, '/');
		snprintf(p, sizeof(p), "%s/%s", l->w.base, tree[i].path);
		if (tree[i].subvol) {
			char parent[4300];
			int pfd, ret;
			snprintf(parent, sizeof(parent), "%s/%.*s", l->w.base,
				 slash ? (int)(slash - tree[i].path) : 0, tree[i].path);
			pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			ret = pfd < 0 ? errno : bt_subvol_create(pfd, slash ? slash + 1 : tree[i].path);
			if (pfd >= 0)
				close(pfd);
			if (ret) {
				vt_fail(ctx, "setup: SUBVOL_CREATE_V2 %s: %s", p, vt_errname(ret));
				return false;
			}
		} else if (mkdir(p, 0755) < 0) {
			vt_fail(ctx, "setup: mkdir %s: %s", p, vt_errname(errno));
			return false;
		}
		if (chown(p, 1000, 1000) < 0 || chmod(p, tree[i].mode) < 0) {
			vt_fail(ctx, "setup: chown/chmod %s: %s", p, vt_errname(errno));
			return false;
		}
	}
	snprintf(s1, sizeof(s1), "%s/S1", l->w.base);
	if (!vt_idmapped_at(ctx, s1, BT_MNT_MAP, "m1", l->m1, sizeof(l->m1)))
		return false;
	l->s1m = open(l->m1, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	l->s1d = open(s1, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (l->s1m < 0 || l->s1d < 0) {
		vt_fail(ctx, "setup: open S1: %s", vt_errname(errno));
		return false;
	}
	fd = openat(l->s1d, "S3", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || bt_subvol_id(fd, &l->s3) != 0) {
		vt_fail(ctx, "setup: subvolume id of S3: %s", vt_errname(errno));
		return false;
	}
	close(fd);
	fd = openat(l->s1d, "d1/d2/S4", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || bt_subvol_id(fd, &l->s4) != 0) {
		vt_fail(ctx, "setup: subvolume id of S4: %s", vt_errname(errno));
		return false;
	}
	close(fd);
	if (fstatat(l->s1d, "d1/d2", &st, 0) < 0) {
		vt_fail(ctx, "setup: stat d1/d2: %s", vt_errname(errno));
		return false;
	}
	l->d2ino = st.st_ino;
	vt_scene(ctx, "%s/S1 (subvolumes S3, d1/d2/S4; d1 0700; all 1000:1000) idmapped %s at %s",
		 l->w.base, BT_MNT_MAP, l->m1);
	return true;
}

static void lookup_end(struct vt_ctx *ctx, struct lw *l)
{
	if (l->s1m >= 0)
		close(l->s1m);
	if (l->s1d >= 0)
		close(l->s1d);
	if (l->m1[0] && umount2(l->m1, 0) < 0)
		vt_fail(ctx, "cleanup: umount %s: %s", l->m1, vt_errname(errno));
	bt_world_end(ctx, &l->w);
}

static const char *desc(const struct vt_caller *c, char *buf, size_t len)
{
	vt_caller_describe(c, buf, len);
	return buf;
}

static void expect_rootref(struct vt_ctx *ctx, const struct lw *l, const struct vt_caller *c,
			   int fd, const char *via)
{
	struct bt_op op = { .kind = BT_OP_ROOTREF, .srcfd = fd };
	struct bt_rootref_out out;
	char who[512];
	int got;

	memset(&out, 0, sizeof(out));
	got = bt_as_caller(ctx, c, &op, &out, sizeof(out));
	if (got < 0)
		return;
	desc(c, who, sizeof(who));
	if (got) {
		vt_fail(ctx, "%s: GET_SUBVOL_ROOTREF on S1 %s: expected success, got %s [rule: %s]",
			who, via, vt_errname(got), R_ROOTREF);
		return;
	}
	if (out.n != 2 || out.treeid[0] != l->s3 || out.dirid[0] != 256 ||
	    out.treeid[1] != l->s4 || out.dirid[1] != l->d2ino)
		vt_fail(ctx,
			"%s: GET_SUBVOL_ROOTREF on S1 %s: expected 2 items (%" PRIu64 ", 256) (%" PRIu64
			", %" PRIu64 "), got %u: (%" PRIu64 ", %" PRIu64 ") (%" PRIu64 ", %" PRIu64 ") "
			"[rule: %s]",
			who, via, l->s3, l->s4, l->d2ino, out.n, out.treeid[0], out.dirid[0],
			out.treeid[1], out.dirid[1], R_ROOTREF);
}

/* INO_LOOKUP_USER of S3 (dirid 256) or S4 (dirid d2) on FD as C. */
static void expect_lookup(struct vt_ctx *ctx, const struct lw *l, const struct vt_caller *c,
			  int fd, const char *via, bool s4, int want, const char *rule)
{
	struct bt_op op = { .kind = BT_OP_LOOKUP_USER, .srcfd = fd };
	struct bt_lookup_out out;
	const char *want_path = s4 ? "d1/d2/" : "", *want_name = s4 ? "S4" : "S3";
	char who[512], what[256];
	int got;

	op.id = s4 ? l->s4 : l->s3;
	op.flags = s4 ? l->d2ino : 256;
	memset(&out, 0, sizeof(out));
	got = bt_as_caller(ctx, c, &op, &out, sizeof(out));
	if (got < 0)
		return;
	snprintf(what, sizeof(what), "%s: INO_LOOKUP_USER %s on S1 %s", desc(c, who, sizeof(who)),
		 want_name, via);
	if (!vt_expect_errno(ctx, what, got, want, rule) || got)
		return;
	if (strcmp(out.path, want_path) != 0 || strcmp(out.name, want_name) != 0)
		vt_fail(ctx, "%s: expected path \"%s\" name \"%s\", got \"%s\" \"%s\" [rule: %s]", what,
			want_path, want_name, out.path, out.name,
			"btrfs_search_path_in_tree_user: INODE_REF names up to the fd's inode, "
			"ROOT_REF name");
}

#define R_OWNER_OK "btrfs_search_path_in_tree_user: inode_permission(idmap, d1 (and d2 or S1), R|X): vfsuid 11000 == fsuid (owner)"
#define R_NO_DIRS "btrfs_search_path_in_tree_user: dirid == the fd's inode: no directory to check"
#define R_OTHER "btrfs_search_path_in_tree_user: inode_permission(idmap, d1 (0700), R|X): not the owner through the mount, no capability -> EACCES"

static void lookup_mapped(struct vt_ctx *ctx)
{
	struct lw l;
	struct vt_caller c = vt_caller_root();

	memset(&l, 0, sizeof(l));
	if (!lookup_world(ctx, &l))
		goto out;
	c.fsuid = c.fsgid = 11000; /* disk 1000 through the mount */
	c.caps = "";
	expect_rootref(ctx, &l, &c, l.s1m, "through the mount");
	expect_lookup(ctx, &l, &c, l.s1m, "through the mount", false, 0, R_NO_DIRS);
	expect_lookup(ctx, &l, &c, l.s1m, "through the mount", true, 0, R_OWNER_OK);
out:
	lookup_end(ctx, &l);
}

static void lookup_mapped_userns(struct vt_ctx *ctx)
{
	struct lw l;
	struct vt_caller root, user;

	memset(&l, 0, sizeof(l));
	if (!lookup_world(ctx, &l))
		goto out;
	root = bt_caller(&l.w, BT_MAPPED_USERNS);
	expect_rootref(ctx, &l, &root, l.s1m, "through the mount");
	expect_lookup(ctx, &l, &root, l.s1m, "through the mount", true, 0,
		      "btrfs_search_path_in_tree_user: inode_permission(idmap, d1, R|X): "
		      "generic_permission: CAP_DAC_READ_SEARCH in the namespace, vfsuid 11000 mapped "
		      "there (1000)");
	/* uid 2000 of the namespace (kuid 12000), no capabilities */
	user = root;
	user.uid = user.gid = 2000;
	user.caps = "";
	expect_lookup(ctx, &l, &user, l.s1m, "through the mount", false, 0, R_NO_DIRS);
	expect_lookup(ctx, &l, &user, l.s1m, "through the mount", true, EACCES, R_OTHER);
out:
	lookup_end(ctx, &l);
}

static void lookup_owner_through_idmap(struct vt_ctx *ctx)
{
	struct lw l;
	struct vt_caller c = vt_caller_user(1000, 1000);

	memset(&l, 0, sizeof(l));
	if (!lookup_world(ctx, &l))
		goto out;
	c.set_umask = true;
	c.umask = 022;
	/* the on-disk owner: owner without the mount, other through it */
	expect_lookup(ctx, &l, &c, l.s1d, "(not idmapped)", true, 0,
		      "btrfs_search_path_in_tree_user: nop idmap: uid 1000 owns d2 and d1");
	expect_lookup(ctx, &l, &c, l.s1m, "through the mount", true, EACCES,
		      "btrfs_search_path_in_tree_user: inode_permission(idmap, d1 (0700), R|X): "
		      "vfsuid 11000 != fsuid 1000 -> other -> EACCES");
out:
	lookup_end(ctx, &l);
}

static void rootref_unmapped_userns(struct vt_ctx *ctx)
{
	struct lw l;
	struct vt_caller c;

	memset(&l, 0, sizeof(l));
	if (!lookup_world(ctx, &l))
		goto out;
	c = bt_caller(&l.w, BT_UNMAPPED_USERNS);
	expect_rootref(ctx, &l, &c, l.s1m, "through the mount");
	expect_lookup(ctx, &l, &c, l.s1m, "through the mount", false, 0, R_NO_DIRS);
	expect_lookup(ctx, &l, &c, l.s1m, "through the mount", true, EACCES,
		      "btrfs_search_path_in_tree_user: inode_permission(idmap, d1 (0700), R|X): "
		      "vfsuid 11000 has no mapping in the namespace: no capability -> EACCES");
out:
	lookup_end(ctx, &l);
}

/* A (in other/, outside the mount) and B (in src, the mount's root). */
static bool by_id_world(struct vt_ctx *ctx, struct bt_world *w, uint64_t *a, uint64_t *b,
			int *other_fd)
{
	char other[4096];
	int fd;

	*other_fd = -1;
	if (!bt_world_make(ctx, w) ||
	    !vt_mkdir(ctx, "other", 0777, 0, 0, other, sizeof(other)))
		return false;
	*other_fd = open(other, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (*other_fd < 0 || bt_subvol_create(*other_fd, "A") != 0 ||
	    bt_subvol_create(w->base_fd, "B") != 0) {
		vt_fail(ctx, "setup: subvolumes other/A and src/B: %s", vt_errname(errno));
		return false;
	}
	fd = openat(*other_fd, "A", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || bt_subvol_id(fd, a) != 0) {
		vt_fail(ctx, "setup: id of A: %s", vt_errname(errno));
		return false;
	}
	close(fd);
	fd = openat(w->base_fd, "B", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || bt_subvol_id(fd, b) != 0) {
		vt_fail(ctx, "setup: id of B: %s", vt_errname(errno));
		return false;
	}
	close(fd);
	return true;
}

static void by_id_cleanup(struct vt_ctx *ctx, struct bt_world *w, int other_fd)
{
	if (other_fd >= 0 && faccessat(other_fd, "A", F_OK, AT_SYMLINK_NOFOLLOW) == 0 &&
	    bt_subvol_destroy(other_fd, "A") != 0)
		vt_fail(ctx, "cleanup: SNAP_DESTROY other/A: %s", vt_errname(errno));
	if (w->base_fd >= 0 && faccessat(w->base_fd, "B", F_OK, AT_SYMLINK_NOFOLLOW) == 0 &&
	    bt_subvol_destroy(w->base_fd, "B") != 0)
		vt_fail(ctx, "cleanup: SNAP_DESTROY src/B: %s", vt_errname(errno));
	if (other_fd >= 0)
		close(other_fd);
	bt_world_end(ctx, w);
}

static void by_id(struct vt_ctx *ctx)
{
	struct bt_world w;
	uint64_t a = 0, b = 0;
	int other_fd;
	struct bt_op op = { .kind = BT_OP_DESTROY_ID };

	if (!by_id_world(ctx, &w, &a, &b, &other_fd))
		goto out;
	op.dirfd = w.mnt_fd;
	op.id = a;
	bt_expect(ctx, &w, BT_ROOT, &op, "SNAP_DESTROY_V2 SPEC_BY_ID other/A on the mount's root",
		  EOPNOTSUPP, R_ELSEWHERE);
	if (faccessat(other_fd, "A", F_OK, AT_SYMLINK_NOFOLLOW) != 0)
		vt_fail(ctx, "other/A is gone after the refused delete");
	op.id = b;
	bt_expect(ctx, &w, BT_ROOT, &op, "SNAP_DESTROY_V2 SPEC_BY_ID src/B on the mount's root", 0,
		  "btrfs_ioctl_snap_destroy: SPEC_BY_ID, parent is the fd's directory; " R_ADMIN);
	op.dirfd = w.base_fd;
	op.id = a;
	bt_expect(ctx, &w, BT_ROOT, &op, "SNAP_DESTROY_V2 SPEC_BY_ID other/A on src (not idmapped)",
		  0, "btrfs_ioctl_snap_destroy: SPEC_BY_ID anywhere on a mount without an idmap; "
		     R_ADMIN);
out:
	by_id_cleanup(ctx, &w, other_fd);
}

static void by_id_userns(struct vt_ctx *ctx)
{
	struct bt_world w;
	uint64_t a = 0, b = 0, c = 0;
	int other_fd, rmopt, fd;
	struct bt_op op = { .kind = BT_OP_DESTROY_ID };
	struct bt_op create = { .kind = BT_OP_SUBVOL, .name = "C" };

	if (!by_id_world(ctx, &w, &a, &b, &other_fd))
		goto out;
	rmopt = bt_rm_allowed(w.base);
	if (rmopt < 0) {
		vt_fail(ctx, "setup: cannot tell the mount options of the btrfs at %s", w.base);
		goto out;
	}
	op.dirfd = create.dirfd = w.mnt_fd;
	op.id = a;
	bt_expect(ctx, &w, BT_MAPPED_USERNS, &op,
		  "SNAP_DESTROY_V2 SPEC_BY_ID other/A on the mount's root", EOPNOTSUPP, R_ELSEWHERE);
	if (!bt_expect(ctx, &w, BT_MAPPED_USERNS, &create, "SUBVOL_CREATE_V2 C through the mount",
		       0, "btrfs_may_create(idmap): kuid 10000 mapped, owner of src through the mount"))
		goto out;
	fd = openat(w.base_fd, "C", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || bt_subvol_id(fd, &c) != 0) {
		vt_fail(ctx, "setup: id of C: %s", vt_errname(errno));
		if (fd >= 0)
			close(fd);
		goto out;
	}
	close(fd);
	op.id = c;
	vt_note(ctx, "TEST_DIR's btrfs %s user_subvol_rm_allowed", rmopt ? "has" : "lacks");
	bt_expect(ctx, &w, BT_MAPPED_USERNS, &op, "SNAP_DESTROY_V2 SPEC_BY_ID src/C on the mount's root",
		  rmopt ? 0 : EPERM,
		  rmopt ? "SPEC_BY_ID, parent is the fd's directory; user_subvol_rm_allowed -> "
			  "inode_permission(idmap, C, W|X): owner"
			: "SPEC_BY_ID, parent is the fd's directory; !capable(CAP_SYS_ADMIN), no "
			  "user_subvol_rm_allowed -> EPERM");
	if (faccessat(w.base_fd, "C", F_OK, AT_SYMLINK_NOFOLLOW) == 0 &&
	    bt_subvol_destroy(w.base_fd, "C") != 0)
		vt_fail(ctx, "cleanup: SNAP_DESTROY src/C: %s", vt_errname(errno));
out:
	by_id_cleanup(ctx, &w, other_fd);
}

static const struct vt_case cases[] = {
	{ "delete-by-spec-id", by_id },
	{ "delete-by-spec-id-userns", by_id_userns },
	{ "ino-lookup-user-fsids-mapped", lookup_mapped },
	{ "ino-lookup-user-fsids-mapped-userns", lookup_mapped_userns },
	{ "ino-lookup-user-owner-through-idmap", lookup_owner_through_idmap },
	{ "get-subvol-rootref-fsids-unmapped-userns", rootref_unmapped_userns },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	static const struct vt_test t = { .cases = cases,
					  .needs = { .features = VT_FSF_SUBVOLUME } };
	return vt_test_main(&t, argc, argv);
}
