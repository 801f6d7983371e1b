/* Helpers the families (tests/matrix/NNN.c, matrix.h) build their cases
 * with: an inode of a mode and owner, an ACL, the usual owners. */
#include "matrix/axes.h"
#include "matrix/matrix.h"
#include "world/xattr_view.h"

#include <stdio.h>
#include <string.h>

struct vt_minode vt_fx_inode(mode_t mode, uint32_t uid, uint32_t gid)
{
	return vt_minode_make(mode, uid, gid);
}

void vt_fx_add_acl(struct vt_minode *i, uint32_t uid, uint32_t gid, bool default_acl)
{
	struct vt_acl_kentry *a = default_acl ? i->defacl : i->acl;
	unsigned int m = i->mode;

	a[0] = (struct vt_acl_kentry){ VT_ACL_USER_OBJ, (m >> 6) & 7, vt_kuid(VT_ID_INVALID),
				       vt_kgid(VT_ID_INVALID) };
	a[1] = (struct vt_acl_kentry){ VT_ACL_USER, 6, vt_kuid(uid), vt_kgid(VT_ID_INVALID) };
	a[2] = (struct vt_acl_kentry){ VT_ACL_GROUP_OBJ, 4, vt_kuid(VT_ID_INVALID),
				       vt_kgid(VT_ID_INVALID) };
	a[3] = (struct vt_acl_kentry){ VT_ACL_GROUP, 4, vt_kuid(VT_ID_INVALID), vt_kgid(gid) };
	a[4] = (struct vt_acl_kentry){ VT_ACL_MASK, (m >> 3) & 7, vt_kuid(VT_ID_INVALID),
				       vt_kgid(VT_ID_INVALID) };
	a[5] = (struct vt_acl_kentry){ VT_ACL_OTHER, m & 7, vt_kuid(VT_ID_INVALID),
				       vt_kgid(VT_ID_INVALID) };
	if (default_acl) {
		/* a default ACL is independent of the directory's mode */
		a[0].perm = 7;
		a[4].perm = 7;
		a[5].perm = 5;
		i->ndefacl = 6;
	} else {
		i->nacl = 6;
	}
}

const struct vt_fx_owner vt_fx_owners4[VT_FX_NOWNERS4] = {
	{ "0:0", 0, 0 }, { "1000:1000", 1000, 1000 }, { "1001:1001", 1001, 1001 },
	{ "70000:70000", 70000, 70000 },
};

/* C's name "overlay/REST" becomes "overlay/INFIX/REST" */
static void ovl_rename_case(struct vt_mcase *c, const char *infix)
{
	char rest[sizeof(c->what)];
	const char *tail = strncmp(c->what, "overlay/", 8) == 0 ? c->what + 8 : c->what;

	snprintf(rest, sizeof(rest), "%s", tail);
	snprintf(c->what, sizeof(c->what), "overlay/%s/%s", infix, rest);
}

void vt_fx_ovl_upper_plain(struct vt_mcase *c)
{
	ovl_rename_case(c, "upper=plain");
	c->ovl_layers = VT_OVL_UPPER_PLAIN;
}

void vt_fx_ovl_upper_other(struct vt_mcase *c)
{
	ovl_rename_case(c, "upper=" VT_OVL_UPPER_OTHER_NAME);
	c->ovl_layers = VT_OVL_UPPER_OTHER;
}

void vt_fx_ovl_by_fd(struct vt_mcase *c)
{
	ovl_rename_case(c, "fd");
	c->op.by_fd = true;
}

void vt_fx_ovl_lower_erofs(struct vt_mcase *c)
{
	ovl_rename_case(c, "lower=erofs");
	c->ovl_layers = VT_OVL_LOWER_EROFS;
}

int vt_family_local_count(const struct vt_family *f)
{
	int rows = 0, b;

	for (b = 0; b < f->nblocks; b++)
		rows += f->blocks[b].rows;
	return f->cross * rows;
}

void vt_family_make(const struct vt_family *f, int local, struct vt_mcase *c)
{
	int row = local / f->cross, inner = local % f->cross, b;

	for (b = 0; b < f->nblocks - 1 && row >= f->blocks[b].rows; b++)
		row -= f->blocks[b].rows;
	if (f->blocks[b].world != VT_FB_PLAIN)
		c->ovl = true;
	f->blocks[b].make(row, inner, c);
	switch (f->blocks[b].world) {
	case VT_FB_PLAIN:
	case VT_FB_OVERLAY:
		break;
	case VT_FB_UPPER_PLAIN:
		vt_fx_ovl_upper_plain(c);
		break;
	case VT_FB_UPPER_OTHER:
		vt_fx_ovl_upper_other(c);
		break;
	case VT_FB_LOWER_EROFS:
		vt_fx_ovl_lower_erofs(c);
		break;
	case VT_FB_OVERLAY_FD:
		vt_fx_ovl_by_fd(c);
		break;
	}
}
