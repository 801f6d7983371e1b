/* matrix/008: writes, truncation and timestamps through idmapped mounts.
 *
 * write(2), truncate(2) and open(O_TRUNC) of empty and non-empty files with S_ISUID/S_ISGID and file
 * capabilities (file_remove_privs / do_truncate: the bits go unless the
 * caller has CAP_FSETID in the INITIAL namespace; setgid only when group-
 * executable or the caller is not in the group in the mount's view;
 * capabilities always), and utimensat with explicit times (owner or
 * CAP_FOWNER) or now (also write permission), on files with mapped and
 * unmapped owners; ftruncate(2) on an fd open for writing (the open's
 * permission, do_truncate with the file's idmap).
 *
 * The overlay world ("overlay/" cases, appended: the others keep their
 * ids): the same operations on lower files (0666 and 0644 1000:1000,
 * 6777-1000:1000, 2767-1000:1001, 0666-70000:70000: no file capabilities)
 * through an overlay whose layers are mounts
 * of the filesystem under test idmapped with the case's map: the caller's
 * notify_change/setattr_prepare on the overlay inode decides the owner
 * checks and which setid bits go (file_remove_privs of the overlay file
 * in backing_file_write_iter, do_truncate), the copy-up, then the
 * mounter's notify_change on the upper copy through the upper idmap
 * (ovl_setattr); EROFS where the overlay is read-only:
 * lib/model/overlay_model.c op_setattr. */
#include "matrix/matrix.h"

#include <stdio.h>
#include <sys/stat.h>

static const enum vt_mop ops[] = { VT_OP_WRITE, VT_OP_TRUNCATE, VT_OP_OPEN_TRUNC,
				   VT_OP_UTIMENS_NOW, VT_OP_UTIMENS_SET };
#define NOPS 5
static const struct {
	const char *name;
	mode_t mode;
	uint32_t uid, gid;
	int fcaps;
	bool nonempty;
} objs[] = {
	{ "0666-1000:1000", 0666, 1000, 1000, 0, false },
	{ "0644-1000:1000", 0644, 1000, 1000, 0, false },
	{ "6777-1000:1000", 06777, 1000, 1000, 0, false },
	{ "2767-1000:1001", 02767, 1000, 1001, 0, false },
	{ "4777-0:0", 04777, 0, 0, 0, false },
	{ "0666-1000:1000-fcaps2", 0666, 1000, 1000, 2, false },
	{ "0666-70000:70000", 0666, 70000, 70000, 0, false },
	{ "6777-1000:1000-1byte", 06777, 1000, 1000, 0, true },
	{ "2767-1000:1001-1byte", 02767, 1000, 1001, 0, true },
	{ "4777-0:0-1byte", 04777, 0, 0, 0, true },
	/* vfs_truncate: EISDIR; open(O_WRONLY): EISDIR (may_open); utimes
	 * apply to directories as to files */
	{ "dir-0777-1000:1000", S_IFDIR | 0777, 1000, 1000, 0, false },
};
#define NOBJS 11

/* ftruncate(fd, 0) on an fd open(O_WRONLY) through the mount (attr_rules.c
 * vt_model_setattr, by_fd): the objects of objs[] whose privileges go or
 * stay through the mount's idmap (setattr_should_drop_suidgid with the
 * file's idmap in do_truncate), an unmapped owner, a non-owner's 0644
 * (the open refuses) and a directory (may_open: EISDIR) */
static const int fd_objs[] = { 1, 2, 3, 4, 5, 6, 10 };
#define NFD_OBJS 7

/* the overlay world: objs 0, 1, 2, 3, 6 on the lower layer, under an
 * upper P 0777 0:0 (file capabilities are not modelled through the
 * overlay: ATTR_KILL_PRIV goes through ovl_xattr_set; 4777-0:0 and the
 * 1-byte files kill what 6777 kills) */
#define NOVL_OBJS 5
#define NOVL (NOPS * NOVL_OBJS)
/* the overlay world with the upper layer not idmapped (the lower through
 * the map: a lower and an upper real inode translate differently, so the
 * model's per-layer translations are told apart; appended, the other ids
 * keep theirs): every operation on 0666-1000:1000, 2767-1000:1001 and
 * 0666-70000:70000 (pick[] 0, 3, 4) */
static const int upper_plain_objs[] = { 0, 3, 4 };
#define NOVL_UPPER_PLAIN (NOPS * 3)
/* the overlay world whose upper layer has another map than the lower one
 * (VT_OVL_UPPER_OTHER: "upper=rotate", axes.h; the lower through the
 * case's map, the mounter mapped on the upper), the same cases as
 * upper=plain, appended after them */
#define NOVL_UPPER_OTHER NOVL_UPPER_PLAIN

static void make_overlay(int local, struct vt_mcase *c)
{
	static const int pick[NOVL_OBJS] = { 0, 1, 2, 3, 6 };
	int op = local % NOPS, o = pick[local / NOPS];

	c->ovl = true;
	c->dir = vt_fx_inode(S_IFDIR | 0777, 0, 0);
	c->obj = vt_fx_inode(S_IFREG | objs[o].mode, objs[o].uid, objs[o].gid);
	c->obj.nonempty = objs[o].nonempty;
	c->op.op = ops[op];
	c->umask = 022;
	snprintf(c->what, sizeof(c->what), "overlay/op=%s/upper-p=0777-0:0/lower-o=%s",
		 vt_mop_name(ops[op]), objs[o].name);
}

/* ftruncate through the overlay (appended): the
 * overlay cases' five lower objects truncated by fd on both layers'
 * world, then 0666-1000:1000, 2767-1000:1001, 0666-70000:70000 on the
 * upper=plain one: open(O_WRONLY) through the overlay (ovl_permission,
 * the copy-up, ovl_open_realfile of the copy for writing), then
 * do_ftruncate -> do_truncate(&nop_mnt_idmap) -> ovl_setattr;
 * lib/model/overlay_model.c op_setattr */
#define NOVL_FD NOVL_OBJS
#define NOVL_FD_UPPER_PLAIN 3

/* ops[1]: VT_OP_TRUNCATE, by fd, on the overlay's object K */
static void make_overlay_fd(int k, struct vt_mcase *c)
{
	make_overlay(1 + NOPS * k, c);
	vt_fx_ovl_by_fd(c);
}

/* the copy-up of a lower file's own ACL and file capability
 * (appended): utimensat with explicit times (the owner or
 * CAP_FOWNER; no permission, mode or privilege kill, so the copy-up is
 * all that changes the copy's ACL and capability) of a lower 0660
 * 1000:1000 file with an access ACL u:X,g:X (X 1000, 11000, 70000) and of
 * a lower 0755 1000:1000 file with security.capability v2 or v3 rootid
 * 1000, 11000, 70000; on both layers' world, then on the upper=plain one.
 * The copy's ACL entries and rootid as stored: the lower ones through
 * the lower idmap and back through the upper one (ovl_copy_xattr,
 * ovl_copy_acl), EINVAL or EOVERFLOW where they cannot be;
 * lib/model/overlay_model.c copy_up_acl, copy_up_fcaps */
static const uint32_t copy_acl_ids[] = { 1000, 11000, 70000 };
static const struct {
	int version;
	uint32_t rootid;
} copy_fcaps[] = { { 2, 0 }, { 3, 1000 }, { 3, 11000 }, { 3, 70000 } };
#define NOVL_COPY 7

static void make_overlay_copy(int k, int inner, struct vt_mcase *c)
{
	(void)inner;

	c->ovl = true;
	c->dir = vt_fx_inode(S_IFDIR | 0777, 0, 0);
	c->op.op = VT_OP_UTIMENS_SET;
	c->umask = 022;
	if (k < 3) {
		c->obj = vt_fx_inode(S_IFREG | 0660, 1000, 1000);
		vt_fx_add_acl(&c->obj, copy_acl_ids[k], copy_acl_ids[k], false);
		snprintf(c->what, sizeof(c->what),
			 "overlay/op=%s/upper-p=0777-0:0/lower-o=0660-1000:1000-acl-u:%u,g:%u",
			 vt_mop_name(c->op.op), copy_acl_ids[k], copy_acl_ids[k]);
	} else {
		k -= 3;
		c->obj = vt_fx_inode(S_IFREG | 0755, 1000, 1000);
		c->obj.fcaps.version = copy_fcaps[k].version;
		c->obj.fcaps.rootid = vt_kuid(copy_fcaps[k].rootid);
		snprintf(c->what, sizeof(c->what),
			 "overlay/op=%s/upper-p=0777-0:0/lower-o=0755-1000:1000-fcaps-v%d-rootid%u",
			 vt_mop_name(c->op.op), copy_fcaps[k].version, copy_fcaps[k].rootid);
	}
}

static void make_plain(int row, int inner, struct vt_mcase *c)
{
	int op = row % NOPS, o = row / NOPS;

	(void)inner;
	c->dir = vt_fx_inode(S_IFDIR | 0777, 0, 0);
	c->obj = vt_fx_inode((objs[o].mode & S_IFMT ? 0 : S_IFREG) | objs[o].mode, objs[o].uid,
			     objs[o].gid);
	c->obj.fcaps.version = objs[o].fcaps;
	c->obj.nonempty = objs[o].nonempty;
	c->op.op = ops[op];
	c->umask = 022;
	snprintf(c->what, sizeof(c->what), "op=%s/obj=%s", c->op.by_fd ? "ftruncate" : vt_mop_name(ops[op]),
		 objs[o].name);
}

/* ftruncate on the mount: ops[1], VT_OP_TRUNCATE, by fd */
static void make_plain_fd(int row, int inner, struct vt_mcase *c)
{
	c->op.by_fd = true;
	make_plain(1 + NOPS * fd_objs[row], inner, c);
}

static void make_ovl(int row, int inner, struct vt_mcase *c)
{
	(void)inner;
	make_overlay(row, c);
}

/* every operation on upper_plain_objs[] */
static void make_ovl_some(int row, int inner, struct vt_mcase *c)
{
	(void)inner;
	make_overlay(row % NOPS + NOPS * upper_plain_objs[row / NOPS], c);
}

static void make_ovl_fd(int row, int inner, struct vt_mcase *c)
{
	(void)inner;
	make_overlay_fd(row, c);
}

static void make_ovl_fd_some(int row, int inner, struct vt_mcase *c)
{
	(void)inner;
	make_overlay_fd(upper_plain_objs[row], c);
}

/* in the order they were added */
static const struct vt_fblock blocks[] = {
	{ NOPS * NOBJS, make_plain, VT_FB_PLAIN },
	{ NFD_OBJS, make_plain_fd, VT_FB_PLAIN },
	{ NOVL, make_ovl, VT_FB_OVERLAY },
	{ NOVL_UPPER_PLAIN, make_ovl_some, VT_FB_UPPER_PLAIN },
	{ NOVL_FD, make_ovl_fd, VT_FB_OVERLAY },
	{ NOVL_FD_UPPER_PLAIN, make_ovl_fd_some, VT_FB_UPPER_PLAIN },
	{ NOVL_COPY, make_overlay_copy, VT_FB_OVERLAY },
	{ NOVL_COPY, make_overlay_copy, VT_FB_UPPER_PLAIN },
	{ NOVL_UPPER_OTHER, make_ovl_some, VT_FB_UPPER_OTHER },
};

VT_MATRIX_FAMILY_WIDE(setattr, "008", 1, blocks, VT_WIDE_MAPS | VT_WIDE_CALLERS)
