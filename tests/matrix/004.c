/* matrix/004: permission to open existing files through idmapped mounts.
 *
 * open(O_RDONLY), open(O_WRONLY), open(O_WRONLY|O_TRUNC) of files whose
 * owner/group are mapped or unmapped, with owner-, group- or other-only
 * permission bits, and of files whose access comes from POSIX ACL entries
 * (ACL_USER/ACL_GROUP, with and without an effective mask). Guards
 * generic_permission/acl_permission_check/posix_acl_permission in the
 * mount's view, CAP_DAC_OVERRIDE/CAP_DAC_READ_SEARCH only for inodes whose
 * ids map into the caller's namespace (capable_wrt_inode_uidgid), and
 * EACCES for writes to inodes with unmapped ids (HAS_UNMAPPED_ID); a
 * missing object (ENOENT), a directory opened for writing (may_open:
 * EISDIR) and parents without search permission (may_lookup).
 *
 * The overlay world ("overlay/" cases, appended: the others keep their
 * ids): the same opens of a lower file through an overlay whose lower and
 * upper layers are mounts of the filesystem under test idmapped with the
 * case's map; P is a merged directory whose real inode is the upper P.
 * Guards ovl_permission's two checks (the caller on the overlay inode
 * whose owner ovl_copyattr takes through the layer's idmap, the mounter on
 * the real inode through it), the copy-up an open for writing makes
 * (ovl_copy_up_one, ovl_set_attr, ovl_open_realfile) and the read-only
 * overlay a mounter the upper idmap does not map gets (ovl_workdir_create):
 * lib/model/overlay_model.c, tests/matrix/README.md. */
#include "matrix/matrix.h"

#include <stdio.h>
#include <sys/stat.h>

static const enum vt_mop ops[] = { VT_OP_OPEN_READ, VT_OP_OPEN_WRITE, VT_OP_OPEN_TRUNC };
#define NOPS 3
static const struct {
	const char *name;
	uint32_t uid, gid;
} owners[] = {
	{ "1000:1000", 1000, 1000 }, { "1000:1001", 1000, 1001 }, { "1001:1001", 1001, 1001 },
	{ "0:0", 0, 0 }, { "70000:70000", 70000, 70000 },
};
#define NOWNERS 5
static const mode_t modes[] = { 0600, 0060, 0006, 0000 };
#define NMODES 4

/* Objects whose access comes from an access ACL (vt_fx_add_acl: u:UID rw,
 * g:GID r, the mask from the group bits of MODE, other from its other
 * bits): check_acl runs only when the group class has bits
 * (acl_permission_check), so 0600 leaves the entries unused. */
static const struct {
	mode_t mode;
	uint32_t uid, gid, acl_uid, acl_gid;
} acl_objs[] = {
	{ 0660, 0, 0, 1000, 1001 },	/* ACL_USER / ACL_GROUP grant under mask rw */
	{ 0600, 0, 0, 1000, 1001 },	/* mode bits only */
	{ 0640, 0, 0, 1000, 1001 },	/* mask r--: ACL_USER's rw masked to r */
	{ 0664, 0, 1000, 1001, 1001 },	/* ACL_GROUP_OBJ r for group 1000, other r */
};
#define NACL_OBJS 4
/* Parents the caller cannot search (may_lookup), for a 0644-1000:1000 file:
 * only CAP_DAC_READ_SEARCH or CAP_DAC_OVERRIDE held over the directory
 * (generic_permission, directory branch) lets the walk through. */
static const struct {
	const char *name;
	mode_t mode;
	uint32_t uid, gid;
} parents[] = { { "0700-0:0", 0700, 0, 0 }, { "0600-1000:1000", 0600, 1000, 1000 } };
#define NPARENTS 2
#define NPLAIN (NOWNERS * NMODES)
#define NOTHER 2	/* a missing object, a directory */
/* the overlay world: the plain objects on the lower layer under an upper
 * P 0777 0:0, and the 0644-1000:1000 object under the unsearchable upper
 * parents */
/* the overlay world with the upper layer not idmapped (the lower through
 * the map: a lower and an upper real inode translate differently, so the
 * model's per-layer translations are told apart; appended, the other ids
 * keep theirs): the owner and group classes (modes 0600, 0060: the
 * first ten of the overlay's plain objects) of every owner */
#define NOVL_UPPER_PLAIN (2 * NOWNERS)
/* the overlay world whose upper layer has another map than the lower one
 * (VT_OVL_UPPER_OTHER: "upper=rotate", axes.h; the lower through the
 * case's map, the mounter mapped on the upper), the same cases as
 * upper=plain, appended after them */
#define NOVL_UPPER_OTHER NOVL_UPPER_PLAIN
/* the overlay world with an erofs lower layer (an image of the staged
 * lower tree, idmapped with the map; appended): the three opens of a lower
 * 0600 file of 1000:1000 (mapped by most maps) and 70000:70000 (by none:
 * the mounter's check and the copy-up refuse it; an extended erofs inode,
 * 32-bit ids), where the mounter's read of the erofs inode, the MAY_READ
 * it is asked for a write (no EROFS from the read-only lower) and the
 * copy-up off a read-only filesystem are what differs from a directory */
static const int ovl_erofs_objs[] = { 0, 4 };	/* the overlay's plain objects */
#define NOVL_EROFS 2

/* What every case has: the open OP (the inner axis), under P 0777 0:0. */
static void common(int op, struct vt_mcase *c)
{
	c->dir = vt_fx_inode(S_IFDIR | 0777, 0, 0);
	c->op.op = ops[op];
	c->umask = 022;
}

static void make_plain(int row, int op, struct vt_mcase *c)
{
	int o = row % NOWNERS, m = row / NOWNERS;

	common(op, c);
	c->obj = vt_fx_inode(S_IFREG | modes[m], owners[o].uid, owners[o].gid);
	snprintf(c->what, sizeof(c->what), "op=%s/obj=%04o-%s", vt_mop_name(ops[op]),
		 (unsigned)modes[m], owners[o].name);
}

static void make_acl(int row, int op, struct vt_mcase *c)
{
	common(op, c);
	c->obj = vt_fx_inode(S_IFREG | acl_objs[row].mode, acl_objs[row].uid, acl_objs[row].gid);
	vt_fx_add_acl(&c->obj, acl_objs[row].acl_uid, acl_objs[row].acl_gid, false);
	snprintf(c->what, sizeof(c->what), "op=%s/obj=%04o-%u:%u-acl-u%u-g%u",
		 vt_mop_name(ops[op]), (unsigned)acl_objs[row].mode, acl_objs[row].uid,
		 acl_objs[row].gid, acl_objs[row].acl_uid, acl_objs[row].acl_gid);
}

static void make_other(int row, int op, struct vt_mcase *c)
{
	common(op, c);
	if (row == 0) {
		/* no P/o: the walk ends on a negative dentry, ENOENT */
		snprintf(c->what, sizeof(c->what), "op=%s/obj=absent", vt_mop_name(ops[op]));
		return;
	}
	/* may_open: a directory opened for writing is EISDIR */
	c->obj = vt_fx_inode(S_IFDIR | 0777, 0, 0);
	snprintf(c->what, sizeof(c->what), "op=%s/obj=dir-0777-0:0", vt_mop_name(ops[op]));
}

static void make_parent(int row, int op, struct vt_mcase *c)
{
	common(op, c);
	c->dir = vt_fx_inode(S_IFDIR | parents[row].mode, parents[row].uid, parents[row].gid);
	c->obj = vt_fx_inode(S_IFREG | 0644, 1000, 1000);
	snprintf(c->what, sizeof(c->what), "op=%s/parent=%s/obj=0644-1000:1000",
		 vt_mop_name(ops[op]), parents[row].name);
}

/* the overlay world's plain objects and parents: the same state as on
 * the plain world, the objects on the lower layer, P the upper one (an
 * upper P 0777 0:0 for the plain objects) */
static void make_ovl_plain(int row, int op, struct vt_mcase *c)
{
	int o = row % NOWNERS, m = row / NOWNERS;

	make_plain(row, op, c);
	snprintf(c->what, sizeof(c->what), "overlay/op=%s/upper-p=0777-0:0/lower-o=%04o-%s",
		 vt_mop_name(ops[op]), (unsigned)modes[m], owners[o].name);
}

static void make_ovl_parent(int row, int op, struct vt_mcase *c)
{
	make_parent(row, op, c);
	snprintf(c->what, sizeof(c->what), "overlay/op=%s/upper-p=%s/lower-o=0644-1000:1000",
		 vt_mop_name(ops[op]), parents[row].name);
}

static void make_ovl_erofs(int row, int op, struct vt_mcase *c)
{
	make_ovl_plain(ovl_erofs_objs[row], op, c);
}

/* each row crossed with the three opens */
static const struct vt_fblock blocks[] = {
	{ NPLAIN, make_plain, VT_FB_PLAIN },
	{ NACL_OBJS, make_acl, VT_FB_PLAIN },
	{ NOTHER, make_other, VT_FB_PLAIN },
	{ NPARENTS, make_parent, VT_FB_PLAIN },
	{ NPLAIN, make_ovl_plain, VT_FB_OVERLAY },
	{ NPARENTS, make_ovl_parent, VT_FB_OVERLAY },
	{ NOVL_UPPER_PLAIN, make_ovl_plain, VT_FB_UPPER_PLAIN },
	{ NOVL_UPPER_OTHER, make_ovl_plain, VT_FB_UPPER_OTHER },
	{ NOVL_EROFS, make_ovl_erofs, VT_FB_LOWER_EROFS },
};

VT_MATRIX_FAMILY_WIDE(permission, "004", NOPS, blocks, VT_WIDE_MAPS | VT_WIDE_CALLERS)
