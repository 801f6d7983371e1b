/* matrix/002: chown/chgrp through idmapped mounts.
 *
 * fchownat() of files (with setuid/setgid bits or file capabilities), a
 * setgid directory and (lchown) a symlink, owned by ids the mount can or
 * cannot map, to caller-view uid only, gid only, both, or -1/-1, by every
 * caller; also lchown and fchown through an fd opened for reading. Guards
 * chown_common's translation (EINVAL for ids the caller cannot name,
 * EOVERFLOW for ids the mount cannot store), chown_ok and chgrp_ok in the
 * mount's view (circular maps: 968219708108; chgrp to a supplementary
 * group: 168f91289340), the setuid/setgid and file-capability kill on
 * chown. Expected values come from lib/model.
 *
 * The overlay world ("overlay/" cases, appended: the others keep their
 * ids): fchownat of 0644 lower files through an overlay whose layers are
 * mounts of the filesystem under test idmapped with the case's map:
 * setattr_prepare on the overlay inode as the caller (its owner through
 * the layer's idmap, ovl_copyattr), the copy-up (ovl_setattr ->
 * ovl_copy_up), then notify_change through the upper idmap as the
 * mounter with the caller's ia_vfsuid/ia_vfsgid (ovl_do_notify_change);
 * EROFS where the overlay is read-only: lib/model/overlay_model.c. */
#include "matrix/matrix.h"

#include <stdio.h>
#include <sys/stat.h>

static const struct {
	const char *name;
	mode_t mode;
	uint32_t uid, gid;
	int fcaps;
} objs[] = {
	{ "0644-0:0", 0644, 0, 0, 0 },
	{ "0644-1000:1000", 0644, 1000, 1000, 0 },
	{ "0644-1000:1001", 0644, 1000, 1001, 0 },
	{ "0644-1001:1001", 0644, 1001, 1001, 0 },
	{ "0644-70000:70000", 0644, 70000, 70000, 0 },
	{ "6755-1000:1000", 06755, 1000, 1000, 0 },
	{ "2745-1000:1001", 02745, 1000, 1001, 0 },
	{ "0755-1000:1000-fcaps2", 0755, 1000, 1000, 2 },
	{ "dir-2775-1000:1001", S_IFDIR | 02775, 1000, 1001, 0 },
	{ "symlink-1000:1000", S_IFLNK | 0777, 1000, 1000, 0 },	/* lchown only */
};
#define NOBJS 10
#define NONE 0xffffffffu
static const struct {
	uint32_t uid, gid;
	enum vt_mop op;
} targets[] = {
	{ NONE, NONE, VT_OP_CHOWN },   { 0, NONE, VT_OP_CHOWN },     { 1000, NONE, VT_OP_CHOWN },
	{ 1001, NONE, VT_OP_CHOWN },   { 11000, NONE, VT_OP_CHOWN }, { 70000, NONE, VT_OP_CHOWN },
	{ NONE, 0, VT_OP_CHOWN },      { NONE, 1000, VT_OP_CHOWN },  { NONE, 1001, VT_OP_CHOWN },
	{ NONE, 11001, VT_OP_CHOWN },  { 1000, 1001, VT_OP_CHOWN },  { 0, 0, VT_OP_CHOWN },
	{ 1000, 1001, VT_OP_LCHOWN },  { 1000, 1001, VT_OP_FCHOWN }, { 0, NONE, VT_OP_FCHOWN },
};
#define NTARGETS 15

static void id_text(uint32_t id, char *buf, size_t len)
{
	if (id == NONE)
		snprintf(buf, len, "-1");
	else
		snprintf(buf, len, "%u", id);
}

#define NPLAIN (NOBJS * NTARGETS)
/* the overlay world: fchownat of the plain regular objects (0644, the
 * first five) on the lower layer to the chown targets (the first twelve),
 * under an upper P 0777 0:0 */
#define NOVL_OBJS 5
#define NOVL_TARGETS 12
#define NOVL (NOVL_OBJS * NOVL_TARGETS)
/* the overlay world with the upper layer not idmapped (the lower through
 * the map: a lower and an upper real inode translate differently, so the
 * model's per-layer translations are told apart; appended, the other ids
 * keep theirs): every third case (each owner with four of the targets: 3 and 5 are
 * coprime) */
#define NOVL_UPPER_PLAIN (NOVL / 3)
/* the overlay world whose upper layer has another map than the lower one
 * (VT_OVL_UPPER_OTHER: "upper=rotate", axes.h; the lower through the
 * case's map, the mounter mapped on the upper), the same cases as
 * upper=plain, appended after them */
#define NOVL_UPPER_OTHER NOVL_UPPER_PLAIN
/* the overlay world with an erofs lower layer (appended): a lower
 * 0644-1000:1000 chowned to 1001:-1 and to 1000:1001, a 0644-70000:70000
 * to 0:0 (its copy-up refused where the map lacks 70000): the copy-up
 * reads the owner and data off a read-only erofs inode through the map
 * (make_overlay's index: target * NOVL_OBJS + object) */
static const int ovl_erofs[] = { 3 * NOVL_OBJS + 1, 10 * NOVL_OBJS + 1, 11 * NOVL_OBJS + 4 };
#define NOVL_EROFS 3

static void make_overlay(int local, struct vt_mcase *c)
{
	int o = local % NOVL_OBJS, t = local / NOVL_OBJS;
	char u[16], g[16];

	c->dir = vt_fx_inode(S_IFDIR | 0777, 0, 0);
	c->obj = vt_fx_inode(S_IFREG | objs[o].mode, objs[o].uid, objs[o].gid);
	c->op.op = targets[t].op;
	c->op.uid = vt_cuid(targets[t].uid);
	c->op.gid = vt_cgid(targets[t].gid);
	c->umask = 022;
	id_text(c->op.uid.val, u, sizeof(u));
	id_text(c->op.gid.val, g, sizeof(g));
	snprintf(c->what, sizeof(c->what), "overlay/op=%s/upper-p=0777-0:0/lower-o=%s/to=%s:%s",
		 vt_mop_name(c->op.op), objs[o].name, u, g);
}

/* the overlay world's cases (make_overlay's index) */
static void make_ovl(int row, int inner, struct vt_mcase *c)
{
	(void)inner;
	make_overlay(row, c);
}

/* every third of them: the first object, with each target */
static void make_ovl_third(int row, int inner, struct vt_mcase *c)
{
	(void)inner;
	make_overlay(row * 3, c);
}

static void make_ovl_erofs(int row, int inner, struct vt_mcase *c)
{
	(void)inner;
	make_overlay(ovl_erofs[row], c);
}

static void make_plain(int local, int inner, struct vt_mcase *c)
{
	int o = local % NOBJS, t = local / NOBJS;
	char u[16], g[16];

	(void)inner;
	c->dir = vt_fx_inode(S_IFDIR | 0777, 0, 0);
	c->obj = vt_fx_inode((objs[o].mode & S_IFMT ? 0 : S_IFREG) | objs[o].mode, objs[o].uid,
			     objs[o].gid);
	c->obj.fcaps.version = objs[o].fcaps;
	/* a symlink is changed with lchown (it points at itself: following it
	 * would be ELOOP, which is not what this family is about) */
	c->op.op = S_ISLNK(objs[o].mode) ? VT_OP_LCHOWN : targets[t].op;
	c->op.uid = vt_cuid(targets[t].uid);
	c->op.gid = vt_cgid(targets[t].gid);
	if (S_ISLNK(objs[o].mode) && targets[t].op != VT_OP_CHOWN) {
		/* every symlink row is an lchown already: give the lchown and
		 * fchown rows ids no chown row uses, instead of duplicates */
		static const uint32_t alt[3][2] = { { 11000, 11001 }, { 1001, 1000 }, { 0, 1001 } };
		int which = t - (NTARGETS - 3);

		c->op.uid = vt_cuid(alt[which][0]);
		c->op.gid = vt_cgid(alt[which][1]);
	}
	c->umask = 022;
	id_text(c->op.uid.val, u, sizeof(u));
	id_text(c->op.gid.val, g, sizeof(g));
	snprintf(c->what, sizeof(c->what), "op=%s/obj=%s/to=%s:%s", vt_mop_name(c->op.op),
		 objs[o].name, u, g);
}

static const struct vt_fblock blocks[] = {
	{ NPLAIN, make_plain, VT_FB_PLAIN },
	{ NOVL, make_ovl, VT_FB_OVERLAY },
	{ NOVL_UPPER_PLAIN, make_ovl_third, VT_FB_UPPER_PLAIN },
	{ NOVL_UPPER_OTHER, make_ovl_third, VT_FB_UPPER_OTHER },
	{ NOVL_EROFS, make_ovl_erofs, VT_FB_LOWER_EROFS },
};

VT_MATRIX_FAMILY_WIDE(chown, "002", 1, blocks, VT_WIDE_MAPS | VT_WIDE_CALLERS)
