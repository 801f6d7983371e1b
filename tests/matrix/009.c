/* matrix/009: user.*, trusted.* and security.* extended attributes
 * through idmapped mounts.
 *
 * setxattr, getxattr and removexattr of user.vt and trusted.vt on files and sticky directories with
 * mapped and unmapped owners. Guards xattr_permission: EPERM for inodes
 * with unmapped ids (may_write_xattr), trusted.* only with CAP_SYS_ADMIN in
 * the initial namespace (ENODATA for readers without it), user.* on sticky directories only for the owner
 * or a CAP_FOWNER holder, otherwise write permission in the mount's view.
 * The fd forms (fsetxattr, fgetxattr, fremovexattr) of the same, after an
 * open(O_RDONLY) through the mount. security.vt (a security.* name other
 * than security.capability, matrix/006's): may_write_xattr as for every
 * namespace, then cap_inode_setxattr / cap_inode_removexattr ask
 * ns_capable(s_user_ns, CAP_SYS_ADMIN), the superblock's namespace (the
 * userns maps tell it from trusted.*'s capable()); no file type, sticky
 * or inode_permission check (xattr_permission leaves security.* alone),
 * and getxattr asks nothing.
 *
 * The overlay world ("overlay/" cases, appended: the others keep their
 * ids): the path forms on a lower file through an overlay whose layers are
 * mounts of the filesystem under test idmapped with the case's map:
 * xattr_permission as the caller on the overlay inode (its owner through
 * the lower idmap; ovl_permission for user.*), then ovl_xattr_get (the
 * lower value, read by the mounter through the lower idmap) or
 * ovl_xattr_set (a removal asks the lower inode first; the copy-up, then
 * the mounter's set or removal on the upper copy through the upper
 * idmap); EROFS for writes where the overlay is read-only:
 * lib/model/overlay_model.c op_xattr. */
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
	const char *name;
	mode_t mode;
} kinds[] = { { "file-0644", S_IFREG | 0644 }, { "file-0666", S_IFREG | 0666 },
	      { "dir-1777", S_IFDIR | 01777 } };
#define NKINDS 3

static const enum vt_mop ops[] = { VT_OP_XATTR_SET_USER,    VT_OP_XATTR_SET_TRUSTED,
				   VT_OP_XATTR_GET_USER,    VT_OP_XATTR_GET_TRUSTED,
				   VT_OP_XATTR_REMOVE_USER, VT_OP_XATTR_REMOVE_TRUSTED };
#define NOPS 6

/* Beyond the grid: user.* on a fifo (xattr_permission: only regular files
 * and directories, EPERM to write, ENODATA to read) and reading or
 * removing attributes that are not there (ENODATA). */
static const struct {
	enum vt_mop op;
	bool fifo;
} edges[] = {
	{ VT_OP_XATTR_SET_USER, true },	    { VT_OP_XATTR_GET_USER, true },
	{ VT_OP_XATTR_GET_USER, false },    { VT_OP_XATTR_GET_TRUSTED, false },
	{ VT_OP_XATTR_REMOVE_USER, false }, { VT_OP_XATTR_REMOVE_TRUSTED, false },
};
#define NEDGES 6

/* The fd forms (fsetxattr, fgetxattr, fremovexattr on an fd open for
 * reading, fs/xattr.c): the same checks with file_mnt_idmap(f), after the
 * open's inode_permission(MAY_READ) through the mount (xattr_rules.c
 * xattr_fd_open). user.* on the three owners of file-0644, dir-1777 and
 * file-0200 (writable but not readable by its owner: the path form's
 * write is allowed where the open is not); trusted.* (no permission of
 * its own beyond CAP_SYS_ADMIN) on file-0200 only, where the open's
 * CAP_DAC_OVERRIDE / CAP_DAC_READ_SEARCH scope through the mount decides. */
static const struct {
	const char *name;
	mode_t mode;
} fd_kinds[] = { { "file-0644", S_IFREG | 0644 }, { "dir-1777", S_IFDIR | 01777 },
		 { "file-0200", S_IFREG | 0200 } };
#define NFD_KINDS 3
#define NFD_USER (3 * NOWNERS * NFD_KINDS)
#define NFD_TRUSTED (3 * NOWNERS)

static void make_fd(int x, struct vt_mcase *c)
{
	int o = x % NOWNERS, k = x < NFD_USER ? (x / NOWNERS) % NFD_KINDS : 2;
	int t = x < NFD_USER ? x / NOWNERS / NFD_KINDS : (x - NFD_USER) / NOWNERS;
	/* user.*: set, get, remove; trusted.*: the same */
	static const enum vt_mop user[] = { VT_OP_XATTR_SET_USER, VT_OP_XATTR_GET_USER,
					    VT_OP_XATTR_REMOVE_USER };
	static const enum vt_mop trusted[] = { VT_OP_XATTR_SET_TRUSTED, VT_OP_XATTR_GET_TRUSTED,
					       VT_OP_XATTR_REMOVE_TRUSTED };

	c->dir = vt_fx_inode(S_IFDIR | 0777, 0, 0);
	c->obj = vt_fx_inode(fd_kinds[k].mode, owners[o].uid, owners[o].gid);
	c->op.op = x < NFD_USER ? user[t] : trusted[t];
	c->op.by_fd = true;
	/* get and remove find both attributes present */
	c->obj.user_xattr = c->obj.trusted_xattr = t >= 1;
	c->umask = 022;
	snprintf(c->what, sizeof(c->what), "op=f%s/obj=%s-%s", vt_mop_name(c->op.op),
		 fd_kinds[k].name, owners[o].name);
}

/* security.vt, appended after the cases above (their ids stay):
 * set, get and remove by path on file-0644 of the three owners (the owner
 * 70000 is unmapped on every idmapped map: may_write_xattr), set on
 * dir-1777 (no sticky-directory rule for security.*), the edges (set on a
 * fifo: no file type rule; get and remove of an absent attribute:
 * ENODATA), and the fd forms on file-0200 of the three owners, where the
 * open(O_RDONLY) decides before the attribute's own checks (the path
 * form's get reads what the caller could not open). */
static const enum vt_mop sec_ops[] = { VT_OP_XATTR_SET_SECURITY, VT_OP_XATTR_GET_SECURITY,
				       VT_OP_XATTR_REMOVE_SECURITY };
#define NSEC_PATH (3 * NOWNERS + NOWNERS)
#define NSEC_EDGES 3
#define NSEC_FD (3 * NOWNERS)
#define NSEC (NSEC_PATH + NSEC_EDGES + NSEC_FD)

static void make_security(int x, struct vt_mcase *c)
{
	int o = x % NOWNERS, t = x / NOWNERS;
	mode_t mode = S_IFREG | 0644;
	const char *kind = "file-0644", *owner = owners[o].name;

	c->dir = vt_fx_inode(S_IFDIR | 0777, 0, 0);
	c->umask = 022;
	if (x < 3 * NOWNERS) {
		c->op.op = sec_ops[t];
	} else if (x < NSEC_PATH) {
		c->op.op = VT_OP_XATTR_SET_SECURITY;
		mode = S_IFDIR | 01777;
		kind = "dir-1777";
	} else if (x < NSEC_PATH + NSEC_EDGES) {
		static const enum vt_mop edge[] = { VT_OP_XATTR_SET_SECURITY, VT_OP_XATTR_GET_SECURITY,
						    VT_OP_XATTR_REMOVE_SECURITY };
		int k = x - NSEC_PATH;

		c->op.op = edge[k];
		mode = (k == 0 ? S_IFIFO : S_IFREG) | 0666;
		c->obj = vt_fx_inode(mode, 1000, 1000);
		c->obj.security_xattr = false;
		snprintf(c->what, sizeof(c->what), "op=%s/obj=%s-1000:1000-no-xattrs",
			 vt_mop_name(c->op.op), k == 0 ? "fifo-0666" : "file-0666");
		return;
	} else {
		x -= NSEC_PATH + NSEC_EDGES;
		o = x % NOWNERS;
		owner = owners[o].name;
		c->op.op = sec_ops[x / NOWNERS];
		c->op.by_fd = true;
		mode = S_IFREG | 0200;
		kind = "file-0200";
	}
	c->obj = vt_fx_inode(mode, owners[o].uid, owners[o].gid);
	/* get and remove find it present */
	c->obj.security_xattr = c->op.op != VT_OP_XATTR_SET_SECURITY;
	snprintf(c->what, sizeof(c->what), "op=%s%s/obj=%s-%s", c->op.by_fd ? "f" : "",
		 vt_mop_name(c->op.op), kind, owner);
}

/* the overlay world: the six operations on a lower 0644 file of every
 * owner (get and remove find both attributes there), set and remove of
 * user.* on a 0666 one (a caller who is not the owner may write it: the
 * copy-up is the mounter's), and get, remove user.* and remove trusted.*
 * of a 0666 1000:1000 file without them (the removal asks the lower inode
 * before copying up: ovl_xattr_set), under an upper P 0777 0:0 */
#define NOVL_GRID (NOWNERS * NOPS)
#define NOVL_0666 (NOWNERS * 2)
#define NOVL_ABSENT 3
#define NOVL (NOVL_GRID + NOVL_0666 + NOVL_ABSENT)
/* the overlay world with an erofs lower layer (appended): user.vt read off
 * an erofs inode of 1000:1000, trusted.vt off one of 70000:70000, and
 * user.vt removed from a 1000:1000 one (the removal asks the erofs inode
 * first, the copy-up takes both xattrs off it: ovl_copy_xattr);
 * make_overlay's index op * NOWNERS + owner */
static const int ovl_erofs[] = { 2 * NOWNERS + 1, 3 * NOWNERS + 2, 4 * NOWNERS + 1 };
#define NOVL_EROFS 3

static void make_overlay(int x, struct vt_mcase *c)
{
	static const enum vt_mop user_writes[2] = { VT_OP_XATTR_SET_USER, VT_OP_XATTR_REMOVE_USER };
	static const enum vt_mop absent[NOVL_ABSENT] = { VT_OP_XATTR_GET_USER,
							 VT_OP_XATTR_REMOVE_USER,
							 VT_OP_XATTR_REMOVE_TRUSTED };
	mode_t mode = 0644;
	int o = x % NOWNERS;
	bool present;

	c->ovl = true;
	c->dir = vt_fx_inode(S_IFDIR | 0777, 0, 0);
	c->umask = 022;
	if (x < NOVL_GRID) {
		c->op.op = ops[x / NOWNERS];
		present = x / NOWNERS >= 2;
	} else if (x < NOVL_GRID + NOVL_0666) {
		c->op.op = user_writes[(x - NOVL_GRID) / NOWNERS];
		present = c->op.op != VT_OP_XATTR_SET_USER;
		mode = 0666;
	} else {
		c->op.op = absent[x - NOVL_GRID - NOVL_0666];
		o = 1;
		present = false;
		mode = 0666;
	}
	c->obj = vt_fx_inode(S_IFREG | mode, owners[o].uid, owners[o].gid);
	c->obj.user_xattr = c->obj.trusted_xattr = present;
	snprintf(c->what, sizeof(c->what), "overlay/upper-p=0777-0:0/lower-o=file-%04o-%s%s/op=%s",
		 (unsigned)mode, owners[o].name, present ? "" : "-no-xattrs", vt_mop_name(c->op.op));
}

/* the overlay world's fd forms, appended: the grid's
 * six operations on the lower 0644 file of every owner, by fd (open
 * O_RDONLY through the overlay, then fsetxattr / fgetxattr /
 * fremovexattr), and user.* set by fd on a lower 0200 file of every
 * owner, where the open's MAY_READ decides before the attribute's checks:
 * the caller's and the mounter's (ovl_permission, ovl_open_realfile) with
 * CAP_DAC_OVERRIDE over the owner as each layer shows it;
 * lib/model/overlay_model.c fd_open */
#define NOVL_FD_0200 NOWNERS
#define NOVL_FD (NOVL_GRID + NOVL_FD_0200)

static void make_overlay_fd(int x, struct vt_mcase *c)
{
	if (x < NOVL_GRID) {
		make_overlay(x, c);
	} else {
		int o = x - NOVL_GRID;

		make_overlay(o, c);	/* the grid's user.* set on owner o */
		c->obj.mode = S_IFREG | 0200;
		snprintf(c->what, sizeof(c->what),
			 "overlay/upper-p=0777-0:0/lower-o=file-0200-%s/op=%s", owners[o].name,
			 vt_mop_name(c->op.op));
	}
	vt_fx_ovl_by_fd(c);
}

static void make_plain(int row, int inner, struct vt_mcase *c)
{
	int o = row % NOWNERS, k = (row / NOWNERS) % NKINDS, t = row / NOWNERS / NKINDS;

	(void)inner;
	c->dir = vt_fx_inode(S_IFDIR | 0777, 0, 0);
	c->obj = vt_fx_inode(kinds[k].mode, owners[o].uid, owners[o].gid);
	/* get and remove find both attributes present */
	c->obj.user_xattr = c->obj.trusted_xattr = t >= 2;
	c->op.op = ops[t];
	c->umask = 022;
	snprintf(c->what, sizeof(c->what), "op=%s/obj=%s-%s", vt_mop_name(c->op.op), kinds[k].name,
		 owners[o].name);
}

static void make_edge(int x, int inner, struct vt_mcase *c)
{
	(void)inner;
	c->dir = vt_fx_inode(S_IFDIR | 0777, 0, 0);
	c->obj = vt_fx_inode((edges[x].fifo ? S_IFIFO : S_IFREG) | 0666, 1000, 1000);
	c->obj.user_xattr = c->obj.trusted_xattr = false;
	c->op.op = edges[x].op;
	c->umask = 022;
	snprintf(c->what, sizeof(c->what), "op=%s/obj=%s-1000:1000-%s", vt_mop_name(c->op.op),
		 edges[x].fifo ? "fifo-0666" : "file-0666", "no-xattrs");
}

static void make_fd_block(int row, int inner, struct vt_mcase *c)
{
	(void)inner;
	make_fd(row, c);
}

static void make_security_block(int row, int inner, struct vt_mcase *c)
{
	(void)inner;
	make_security(row, c);
}

static void make_ovl(int row, int inner, struct vt_mcase *c)
{
	(void)inner;
	make_overlay(row, c);
}

static void make_ovl_fd(int row, int inner, struct vt_mcase *c)
{
	(void)inner;
	make_overlay_fd(row, c);
}

static void make_ovl_erofs(int row, int inner, struct vt_mcase *c)
{
	(void)inner;
	make_overlay(ovl_erofs[row], c);
}

static const struct vt_fblock blocks[] = {
	{ NOWNERS * NKINDS * NOPS, make_plain, VT_FB_PLAIN },
	{ NEDGES, make_edge, VT_FB_PLAIN },
	{ NFD_USER + NFD_TRUSTED, make_fd_block, VT_FB_PLAIN },
	{ NSEC, make_security_block, VT_FB_PLAIN },
	{ NOVL, make_ovl, VT_FB_OVERLAY },
	/* make_overlay_fd names them overlay/fd/ itself */
	{ NOVL_FD, make_ovl_fd, VT_FB_OVERLAY },
	{ NOVL_EROFS, make_ovl_erofs, VT_FB_LOWER_EROFS },
};

VT_MATRIX_FAMILY_WIDE(xattr, "009", 1, blocks, VT_WIDE_USERNS)
