/* matrix/007: unlink, rmdir, rename (plain, RENAME_NOREPLACE,
 * RENAME_EXCHANGE, RENAME_WHITEOUT: the whiteout's owner; skipped where
 * the filesystem has no whiteouts) and link through idmapped mounts, in plain, sticky and
 * non-writable directories.
 *
 * Guards may_delete (EOVERFLOW for victims with unmapped ids, write
 * permission on the parent, the sticky rule __check_sticky compared in the
 * mount's view, vfsuid_eq never true for two unmapped ids: 4d0548a7b806),
 * vfs_rename's may_create/may_delete on the target, and may_linkat /
 * protected_hardlinks (read from /proc at run time).
 *
 * The overlay world ("overlay/" cases, appended: the others keep their
 * ids): unlink of 0644 lower files of every owner in each parent (upper
 * P, the merged directory's real inode) through an overlay whose layers
 * are mounts of the filesystem under test idmapped with the case's map:
 * may_delete as the caller on the overlay inodes (EOVERFLOW for a victim
 * the lower idmap does not map, W|X on the overlay P, __check_sticky on
 * owners ovl_copyattr takes through the layers' idmaps), ovl_permission's
 * mounter check on the upper P, then the whiteout the mounter makes
 * through the upper idmap (ovl_remove_and_whiteout); EROFS where the
 * overlay is read-only: lib/model/overlay_model.c op_unlink. Appended
 * after them: rmdir of an empty 0700 lower dir (op_unlink's steps and
 * ovl_check_empty_dir's read as the mounter), rename of a lower file to
 * P/n and over a lower P/t 0644 1001:1001 (the caller's vfs_rename on
 * the overlay inodes, the copy-up, the mounter's RENAME_WHITEOUT: the
 * copy under the new name, a whiteout at the upper P/o; op_rename),
 * rename of a lower dir (EXDEV: redirect_dir=off, ovl_can_move) and link
 * of a lower file to P/n (may_linkat and vfs_link as the caller on the
 * overlay inodes, the copy-up, the mounter's vfs_link upstairs;
 * op_link). */
#include "matrix/matrix.h"

#include <stdio.h>
#include <sys/stat.h>

static const struct {
	const char *name;
	mode_t mode;
	uint32_t uid, gid;
} parents[] = {
	{ "0777-0:0", 0777, 0, 0 },
	{ "sticky-1777-0:0", 01777, 0, 0 },
	{ "sticky-1777-1000:1000", 01777, 1000, 1000 },
	{ "0755-1000:1000", 0755, 1000, 1000 },
};
#define NPARENTS 4
#define owners vt_fx_owners4
#define NOWNERS VT_FX_NOWNERS4
static const struct {
	const char *name;
	enum vt_mop op;
	bool to_other;
	bool dir;
} ops[] = {
	{ "unlink", VT_OP_UNLINK, false, false },
	{ "rename-to-new", VT_OP_RENAME, false, false },
	{ "rename-over-t", VT_OP_RENAME, true, false },
	{ "rename-noreplace-over-t", VT_OP_RENAME_NOREPLACE, true, false },
	{ "rename-exchange-t", VT_OP_RENAME_EXCHANGE, true, false },
	{ "link-to-new", VT_OP_LINK, false, false },
	{ "rmdir", VT_OP_RMDIR, false, true },
	{ "rename-whiteout-to-new", VT_OP_RENAME_WHITEOUT, false, false },
	{ "rename-whiteout-over-t", VT_OP_RENAME_WHITEOUT, true, false },
	/* the type and flag checks: may_delete's ENOTDIR/EISDIR, vfs_link's
	 * EPERM for a directory, do_renameat2's RENAME_NOREPLACE onto a free
	 * name and RENAME_EXCHANGE with no target (ENOENT) */
	{ "unlink-dir", VT_OP_UNLINK, false, true },
	{ "rmdir-file", VT_OP_RMDIR, false, false },
	{ "link-dir-to-new", VT_OP_LINK, false, true },
	{ "rename-noreplace-to-new", VT_OP_RENAME_NOREPLACE, false, false },
	{ "rename-exchange-to-new", VT_OP_RENAME_EXCHANGE, false, false },
};
#define NOPS 14

/* Cross-directory rename P/o -> Q/n or Q/t: both parents' rules
 * (may_delete in P, may_create or may_delete in Q, each parent's search
 * permission) and, for a directory, MAY_WRITE on the directory itself. */
static const struct {
	const char *name;
	mode_t mode;
	uint32_t uid, gid;
} qdirs[] = {
	{ "0777-0:0", 0777, 0, 0 },
	{ "sticky-1777-1000:1000", 01777, 1000, 1000 },
	{ "0755-1000:1000", 0755, 1000, 1000 },
	{ "0700-0:0", 0700, 0, 0 },
};
#define NQDIRS 4
static const struct {
	const char *name;
	bool to_other, dir;
} xops[] = {
	{ "rename-to-q-new", false, false },
	{ "rename-over-q-t", true, false },
	{ "rename-dir-to-q-new", false, true },
};
#define NXOPS 3
#define NXPARENTS 2	/* P: the first two parents */
#define NPLAIN (NOPS * NOWNERS * NPARENTS)

static void make_cross(int local, int inner, struct vt_mcase *c)
{
	int x = local % NXOPS, o = (local / NXOPS) % NOWNERS, q = (local / NXOPS / NOWNERS) % NQDIRS;
	int p = local / NXOPS / NOWNERS / NQDIRS;
	/* a directory the owner can write (its "..") and others cannot */
	mode_t objmode = xops[x].dir ? S_IFDIR | 0755 : S_IFREG | 0644;

	(void)inner;
	c->dir = vt_fx_inode(S_IFDIR | parents[p].mode, parents[p].uid, parents[p].gid);
	c->dir2 = vt_fx_inode(S_IFDIR | qdirs[q].mode, qdirs[q].uid, qdirs[q].gid);
	c->obj = vt_fx_inode(objmode, owners[o].uid, owners[o].gid);
	if (xops[x].to_other)
		c->other = vt_fx_inode(S_IFREG | 0644, 1001, 1001);
	c->op.op = VT_OP_RENAME;
	c->op.to_other = xops[x].to_other;
	c->op.cross_dir = true;
	c->umask = 022;
	snprintf(c->what, sizeof(c->what), "op=%s/parent=%s/q=%s/obj=%s-%s%s", xops[x].name,
		 parents[p].name, qdirs[q].name, xops[x].dir ? "dir" : "file", owners[o].name,
		 xops[x].to_other ? "/t=file-1001:1001" : "");
}

#define NCROSS (NXOPS * NOWNERS * NQDIRS * NXPARENTS)
#define NOVL (NOWNERS * NPARENTS)
/* the overlay world with the upper layer not idmapped (the lower through
 * the map: a lower and an upper real inode translate differently, so the
 * model's per-layer translations are told apart; appended, the other ids
 * keep theirs): all of them */

/* the overlay world: unlink of a lower 0644 file of each owner under each
 * parent as the upper P */
static void make_overlay(int local, int inner, struct vt_mcase *c)
{
	int o = local % NOWNERS, p = local / NOWNERS;

	(void)inner;
	c->ovl = true;
	c->dir = vt_fx_inode(S_IFDIR | parents[p].mode, parents[p].uid, parents[p].gid);
	c->obj = vt_fx_inode(S_IFREG | 0644, owners[o].uid, owners[o].gid);
	c->op.op = VT_OP_UNLINK;
	c->umask = 022;
	snprintf(c->what, sizeof(c->what), "overlay/op=unlink/upper-p=%s/lower-o=file-%s",
		 parents[p].name, owners[o].name);
}

/* the overlay world's other operations, appended (their ids after the
 * unlink ones): the lower P/o a dir or a file, a lower P/t for "over-t" */
static const struct {
	const char *name;
	enum vt_mop op;
	bool to_other, dir;
} ovlops[] = {
	{ "rmdir", VT_OP_RMDIR, false, true },
	{ "rename-to-new", VT_OP_RENAME, false, false },
	{ "rename-over-t", VT_OP_RENAME, true, false },
	{ "rename-dir-to-new", VT_OP_RENAME, false, true },
	{ "link-to-new", VT_OP_LINK, false, false },
};
#define NOVLOPS 5
#define NOVL2 (NOVLOPS * NOWNERS * NPARENTS)

static void make_overlay2(int local, int inner, struct vt_mcase *c)
{
	int op = local % NOVLOPS, o = (local / NOVLOPS) % NOWNERS, p = local / NOVLOPS / NOWNERS;

	(void)inner;
	c->ovl = true;
	c->dir = vt_fx_inode(S_IFDIR | parents[p].mode, parents[p].uid, parents[p].gid);
	/* a 0700 dir: the mounter's read of it (ovl_check_empty_dir) is its
	 * owner's or CAP_DAC_READ_SEARCH's, not the other bits' */
	c->obj = vt_fx_inode(ovlops[op].dir ? S_IFDIR | 0700 : S_IFREG | 0644, owners[o].uid,
			     owners[o].gid);
	if (ovlops[op].to_other)
		c->other = vt_fx_inode(S_IFREG | 0644, 1001, 1001);
	c->op.op = ovlops[op].op;
	c->op.to_other = ovlops[op].to_other;
	c->umask = 022;
	snprintf(c->what, sizeof(c->what), "overlay/op=%s/upper-p=%s/lower-o=%s-%s%s",
		 ovlops[op].name, parents[p].name, ovlops[op].dir ? "dir" : "file", owners[o].name,
		 ovlops[op].to_other ? "/lower-t=file-1001:1001" : "");
}

static void make_plain(int local, int inner, struct vt_mcase *c)
{
	int op = local % NOPS, o = (local / NOPS) % NOWNERS, p = local / NOPS / NOWNERS;

	(void)inner;
	c->dir = vt_fx_inode(S_IFDIR | parents[p].mode, parents[p].uid, parents[p].gid);
	c->obj = vt_fx_inode((ops[op].dir ? S_IFDIR : S_IFREG) | 0644, owners[o].uid, owners[o].gid);
	if (ops[op].to_other)
		c->other = vt_fx_inode(S_IFREG | 0644, 1001, 1001);
	c->op.op = ops[op].op;
	c->op.to_other = ops[op].to_other;
	c->umask = 022;
	snprintf(c->what, sizeof(c->what), "op=%s/parent=%s/obj=%s-%s%s", ops[op].name,
		 parents[p].name, ops[op].dir ? "dir" : "file", owners[o].name,
		 ops[op].to_other ? "/t=file-1001:1001" : "");
}

/* the layers axis of the overlay blocks appended: upper=plain and
 * upper=rotate (VT_OVL_UPPER_OTHER, axes.h: the upper layer's map is
 * another than the lower's) of the unlink block, then upper=rotate and
 * upper=plain of the rmdir/rename/link block */
static const struct vt_fblock blocks[] = {
	{ NPLAIN, make_plain, VT_FB_PLAIN },
	{ NCROSS, make_cross, VT_FB_PLAIN },
	{ NOVL, make_overlay, VT_FB_OVERLAY },
	{ NOVL2, make_overlay2, VT_FB_OVERLAY },
	{ NOVL, make_overlay, VT_FB_UPPER_PLAIN },
	{ NOVL, make_overlay, VT_FB_UPPER_OTHER },
	{ NOVL2, make_overlay2, VT_FB_UPPER_OTHER },
	{ NOVL2, make_overlay2, VT_FB_UPPER_PLAIN },
};

VT_MATRIX_FAMILY_WIDE(delete, "007", 1, blocks, VT_WIDE_USERNS)
