/* matrix/006: file capabilities (security.capability) through idmapped
 * mounts.
 *
 * Setting v2 and v3 values (rootid mapped or unmapped in the caller's
 * namespace and in the mount) on files with mapped and unmapped owners,
 * reading v2/v3 values whose rootid maps to the caller's root, to another
 * id, or to nothing, and removing them. Guards cap_convert_nscap (v2 kept
 * only on a plain mount by a CAP_SETFCAP holder in s_user_ns, otherwise
 * v3 with the rootid translated; EINVAL/EPERM; db2e718a4798) and
 * cap_inode_getsecurity (v3 with the caller-view rootid, v2 for the
 * caller's root or an ancestor's, EOVERFLOW otherwise); the same through
 * fsetxattr/fgetxattr/fremovexattr on an fd open for reading.
 *
 * The overlay world ("overlay/" cases, appended: the others keep their
 * ids): get and set of security.capability on a lower file through an
 * overlay whose layers are mounts of the filesystem under test idmapped
 * with the case's map (make_overlay below). */
#include "matrix/matrix.h"

#include <stdio.h>
#include <sys/stat.h>

static const struct {
	const char *name;
	uint32_t uid, gid;
} owners[] = {
	{ "0:0", 0, 0 }, { "1000:1000", 1000, 1000 }, { "70000:70000", 70000, 70000 },
};
#define NOWNERS 3
static const struct {
	int version;
	uint32_t rootid;
} values[] = { { 2, 0 }, { 3, 0 }, { 3, 1000 }, { 3, 10000 }, { 3, 70000 } };
#define NVALUES 5
static const struct {
	int version;
	uint32_t rootid;
} disk[] = { { 2, 0 }, { 3, 0 }, { 3, 1000 }, { 3, 10000 }, { 3, 11000 }, { 3, 70000 } };
#define NDISK 6

/* The fd forms (fsetxattr / fgetxattr / fremovexattr of security.capability,
 * fs/xattr.c): cap_convert_nscap, cap_inode_getsecurity and
 * cap_inode_removexattr with file_mnt_idmap(f), after the open(O_RDONLY)
 * through the mount (xattr_rules.c xattr_fd_open). Setting v3 rootid 1000
 * on the three owners of 0755 (the fd's idmap translates the rootid);
 * reading v3 rootid 1000 of 0755-0:0 (the same translation on get) and
 * rootid 0 of 0700-1000:1000 (the open is the owner's through the mount or
 * a CAP_DAC_* holder's over the inode's ids there; the path form's getxattr
 * asks nothing); removing v3 rootid 0 of 0755-1000:1000. */
#define NFD (NOWNERS + 3)

static void fd_form(int x, struct vt_mcase *c)
{
	c->op.by_fd = true;
	if (x < NOWNERS) {
		c->obj = vt_fx_inode(S_IFREG | 0755, owners[x].uid, owners[x].gid);
		c->op.op = VT_OP_FCAPS_SET;
		c->op.fcaps.version = 3;
		c->op.fcaps.rootid = vt_cuid(1000);
		snprintf(c->what, sizeof(c->what), "op=ffcaps-set/obj=0755-%s/value=v3-rootid1000",
			 owners[x].name);
		return;
	}
	x -= NOWNERS;
	if (x < 2) {
		c->obj = x ? vt_fx_inode(S_IFREG | 0700, 1000, 1000) : vt_fx_inode(S_IFREG | 0755, 0, 0);
		c->obj.fcaps.version = 3;
		c->obj.fcaps.rootid = vt_kuid(x ? 0 : 1000);
		c->op.op = VT_OP_FCAPS_GET;
		snprintf(c->what, sizeof(c->what), "op=ffcaps-get/obj=%s/disk=v3-rootid%d",
			 x ? "0700-1000:1000" : "0755-0:0", x ? 0 : 1000);
		return;
	}
	c->obj = vt_fx_inode(S_IFREG | 0755, 1000, 1000);
	c->obj.fcaps.version = 3;
	c->obj.fcaps.rootid = vt_kuid(0);
	c->op.op = VT_OP_FCAPS_REMOVE;
	snprintf(c->what, sizeof(c->what), "op=ffcaps-remove/obj=0755-1000:1000/disk=v3-rootid0");
}

/* the overlay world, under an upper P 0777 0:0: reading the capability of
 * a lower 0755 0:0 file stored as v2, v3 rootid 1000, 11000, 70000
 * (through the mounter's read and the overlay's cap_inode_getsecurity);
 * setting v2, v3 rootid 0, 1000, 10000, 70000 on a lower 0755 1000:1000
 * file without one (cap_convert_nscap on the overlay inode, the copy-up,
 * the mounter's through the upper idmap, where a writable overlay's map
 * may lack 70000: EINVAL after the copy-up): lib/model/overlay_model.c
 * op_fcaps */
static const struct {
	int version;
	uint32_t rootid;
} ovl_disk[] = { { 2, 0 }, { 3, 1000 }, { 3, 11000 }, { 3, 70000 } }, ovl_set[] = {
	{ 2, 0 }, { 3, 0 }, { 3, 1000 }, { 3, 10000 }, { 3, 70000 } };
#define NOVL 9
/* the overlay world with an erofs lower layer (appended): the capability
 * read off an erofs inode stored as v2 and v3 rootid 1000, and v2 set on
 * a lower 0755-1000:1000 file (the copy-up off the read-only image;
 * make_overlay's index) */
static const int ovl_erofs[] = { 0, 1, 4 };
#define NOVL_EROFS 3

static void make_overlay(int x, struct vt_mcase *c)
{
	c->ovl = true;
	if (x < 4) {
		c->obj = vt_fx_inode(S_IFREG | 0755, 0, 0);
		c->obj.fcaps.version = ovl_disk[x].version;
		c->obj.fcaps.rootid = vt_kuid(ovl_disk[x].rootid);
		c->op.op = VT_OP_FCAPS_GET;
		snprintf(c->what, sizeof(c->what),
			 "overlay/upper-p=0777-0:0/lower-o=0755-0:0/disk=v%d-rootid%u/op=fcaps-get",
			 ovl_disk[x].version, ovl_disk[x].rootid);
		return;
	}
	x -= 4;
	c->obj = vt_fx_inode(S_IFREG | 0755, 1000, 1000);
	c->op.op = VT_OP_FCAPS_SET;
	c->op.fcaps.version = ovl_set[x].version;
	c->op.fcaps.rootid = vt_cuid(ovl_set[x].rootid);
	snprintf(c->what, sizeof(c->what),
		 "overlay/upper-p=0777-0:0/lower-o=0755-1000:1000/op=fcaps-set/value=v%d-rootid%u",
		 ovl_set[x].version, ovl_set[x].rootid);
}

/* the overlay world's fd forms, appended: each of
 * the cases above by fd (open O_RDONLY through the overlay, then
 * fgetxattr / fsetxattr of security.capability);
 * lib/model/overlay_model.c fd_open */
#define NOVL_FD NOVL

/* What every case has: P 0777 0:0, umask 022. */
static void common(struct vt_mcase *c)
{
	c->dir = vt_fx_inode(S_IFDIR | 0777, 0, 0);
	c->umask = 022;
}

static void make_set(int row, int inner, struct vt_mcase *c)
{
	int o = row % NOWNERS, v = row / NOWNERS;

	(void)inner;
	common(c);
	c->obj = vt_fx_inode(S_IFREG | 0755, owners[o].uid, owners[o].gid);
	c->op.op = VT_OP_FCAPS_SET;
	c->op.fcaps.version = values[v].version;
	c->op.fcaps.rootid = vt_cuid(values[v].rootid);
	snprintf(c->what, sizeof(c->what), "op=fcaps-set/obj=0755-%s/value=v%d-rootid%u",
		 owners[o].name, values[v].version, values[v].rootid);
}

static void make_get(int row, int inner, struct vt_mcase *c)
{
	(void)inner;
	common(c);
	c->obj = vt_fx_inode(S_IFREG | 0755, 0, 0);
	c->obj.fcaps.version = disk[row].version;
	c->obj.fcaps.rootid = vt_kuid(disk[row].rootid);
	c->op.op = VT_OP_FCAPS_GET;
	snprintf(c->what, sizeof(c->what), "op=fcaps-get/obj=0755-0:0/disk=v%d-rootid%u",
		 disk[row].version, disk[row].rootid);
}

static void make_remove(int row, int inner, struct vt_mcase *c)
{
	(void)inner;
	common(c);
	c->obj = vt_fx_inode(S_IFREG | 0755, owners[row].uid, owners[row].gid);
	c->obj.fcaps.version = 3;
	c->obj.fcaps.rootid = vt_kuid(0);
	c->op.op = VT_OP_FCAPS_REMOVE;
	snprintf(c->what, sizeof(c->what), "op=fcaps-remove/obj=0755-%s/disk=v3-rootid0",
		 owners[row].name);
}

/* no security.capability stored: getxattr (cap_inode_getsecurity finds
 * none) and removexattr are ENODATA */
static void make_none(int row, int inner, struct vt_mcase *c)
{
	(void)inner;
	common(c);
	c->obj = vt_fx_inode(S_IFREG | 0755, 1000, 1000);
	c->op.op = row == 0 ? VT_OP_FCAPS_GET : VT_OP_FCAPS_REMOVE;
	snprintf(c->what, sizeof(c->what), "op=%s/obj=0755-1000:1000/disk=none",
		 row == 0 ? "fcaps-get" : "fcaps-remove");
}

static void make_fd(int row, int inner, struct vt_mcase *c)
{
	(void)inner;
	common(c);
	fd_form(row, c);
}

static void make_ovl(int row, int inner, struct vt_mcase *c)
{
	(void)inner;
	common(c);
	make_overlay(row, c);
}

static void make_ovl_erofs(int row, int inner, struct vt_mcase *c)
{
	make_ovl(ovl_erofs[row], inner, c);
}

static const struct vt_fblock blocks[] = {
	{ NOWNERS * NVALUES, make_set, VT_FB_PLAIN },
	{ NDISK, make_get, VT_FB_PLAIN },
	{ NOWNERS, make_remove, VT_FB_PLAIN },
	{ 2, make_none, VT_FB_PLAIN },
	{ NFD, make_fd, VT_FB_PLAIN },
	{ NOVL, make_ovl, VT_FB_OVERLAY },
	{ NOVL_FD, make_ovl, VT_FB_OVERLAY_FD },
	{ NOVL_EROFS, make_ovl_erofs, VT_FB_LOWER_EROFS },
};

VT_MATRIX_FAMILY_WIDE(fscaps, "006", 1, blocks, VT_WIDE_MAPS | VT_WIDE_CALLERS)
