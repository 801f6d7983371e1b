/* matrix/003: chmod and the setgid bit through idmapped mounts.
 *
 * chmod() of files and directories owned by mapped and unmapped ids, to
 * modes with and without S_ISUID, S_ISGID (with and without group
 * execute) and the sticky bit, and of a file with an access ACL (the mask
 * follows the mode). Guards setattr_prepare/setattr_copy: EPERM for
 * non-owners (inode_owner_or_capable in the mount's view), EOVERFLOW for
 * unmapped owners, and the silent setgid strip when the caller is not in
 * the file's group in the mount's view (in_group_or_capable).
 *
 * The overlay world ("overlay/" cases, appended: the others keep their
 * ids): chmod of 0644 lower files through an overlay whose layers are
 * mounts of the filesystem under test idmapped with the case's map:
 * setattr_prepare on the overlay inode as the caller (owner check and
 * setgid strip on the owner ovl_copyattr takes through the layer's
 * idmap), the copy-up, then the mounter's notify_change of the mode the
 * caller's half left on the upper copy through the upper idmap
 * (ovl_setattr); EROFS where the overlay is read-only:
 * lib/model/overlay_model.c op_setattr. */
#include "matrix/matrix.h"

#include <stdio.h>
#include <sys/stat.h>

static const struct {
	const char *name;
	uint32_t uid, gid;
} owners[] = {
	{ "0:0", 0, 0 }, { "1000:1000", 1000, 1000 }, { "1000:1001", 1000, 1001 },
	{ "1001:1001", 1001, 1001 }, { "70000:70000", 70000, 70000 },
};
#define NOWNERS 5
static const mode_t modes[] = { 0755, 02755, 04755, 02745, 01777 };
#define NMODES 5
/* 0: file, 1: directory, 2: file 1000:1001 0660 with an access ACL */
#define NKINDS 3

#define NPLAIN (NMODES * (NOWNERS * 2 + 1))
/* the overlay world: the setgid modes and a plain one (0755, 02755,
 * 02745: the strip is the caller's decision on the overlay inode; the
 * setuid and sticky bits add nothing through the overlay) on a lower 0644
 * file of every owner, under an upper P 0777 0:0 */
#define NOVL_MODES 3
#define NOVL (NOVL_MODES * NOWNERS)
/* the overlay world with the upper layer not idmapped (the lower through
 * the map: a lower and an upper real inode translate differently, so the
 * model's per-layer translations are told apart; appended, the other ids
 * keep theirs): all of them */

static void make_overlay(int local, int inner, struct vt_mcase *c)
{
	static const int pick[NOVL_MODES] = { 0, 1, 3 };
	int m = pick[local % NOVL_MODES], o = local / NOVL_MODES;

	(void)inner;
	c->dir = vt_fx_inode(S_IFDIR | 0777, 0, 0);
	c->obj = vt_fx_inode(S_IFREG | 0644, owners[o].uid, owners[o].gid);
	c->op.op = VT_OP_CHMOD;
	c->op.mode = modes[m];
	c->umask = 022;
	snprintf(c->what, sizeof(c->what), "overlay/upper-p=0777-0:0/lower-o=file-0644-%s/to=%04o",
		 owners[o].name, (unsigned)modes[m]);
}

static void make_plain(int local, int inner, struct vt_mcase *c)
{
	int m = local % NMODES, rest = local / NMODES, o, kind;

	(void)inner;
	c->dir = vt_fx_inode(S_IFDIR | 0777, 0, 0);
	c->op.op = VT_OP_CHMOD;
	c->op.mode = modes[m];
	c->umask = 022;
	if (rest < NOWNERS * 2) {
		o = rest % NOWNERS;
		kind = rest / NOWNERS;
		c->obj = vt_fx_inode((kind ? S_IFDIR : S_IFREG) | 0644, owners[o].uid, owners[o].gid);
		snprintf(c->what, sizeof(c->what), "obj=%s-0644-%s/to=%04o", kind ? "dir" : "file",
			 owners[o].name, (unsigned)modes[m]);
	} else {
		c->obj = vt_fx_inode(S_IFREG | 0660, 1000, 1001);
		vt_fx_add_acl(&c->obj, 1001, 1000, false);
		snprintf(c->what, sizeof(c->what), "obj=file-0660-1000:1001-acl/to=%04o",
			 (unsigned)modes[m]);
	}
}

/* upper=rotate (VT_OVL_UPPER_OTHER, axes.h): the lower through the
 * case's map, the upper through another, all of them, after upper=plain */
static const struct vt_fblock blocks[] = {
	{ NPLAIN, make_plain, VT_FB_PLAIN },
	{ NOVL, make_overlay, VT_FB_OVERLAY },
	{ NOVL, make_overlay, VT_FB_UPPER_PLAIN },
	{ NOVL, make_overlay, VT_FB_UPPER_OTHER },
};

VT_MATRIX_FAMILY_WIDE(chmod, "003", 1, blocks, VT_WIDE_USERNS)
