/* matrix/012: the fs.protected_* sysctls through idmapped mounts.
 *
 * In sticky directories (world-writable, or group-writable only) holding
 * objects of mapped and unmapped owners: following a symlink
 * (protected_symlinks 0/1, may_follow_link), O_CREAT of an existing file
 * or fifo (protected_regular, protected_fifos 0/1/2, may_create_in_sticky)
 * and linking another's file (protected_hardlinks 0/1, may_linkat). Every
 * owner test runs on ids in the mount's view. The values are global: a
 * case whose values differ from the machine's runs only where
 * VT_ALLOW_SYSCTL=1 (run/vm's guest) and is skipped with the reason
 * elsewhere; the old values come back when the program exits. */
#include "matrix/matrix.h"

#include <stdio.h>
#include <sys/stat.h>

static const struct {
	const char *name;
	mode_t mode;
	uint32_t uid, gid;
} parents[] = {
	{ "sticky-1777-0:0", 01777, 0, 0 },
	{ "sticky-1777-1000:1000", 01777, 1000, 1000 },
	{ "sticky-1770-0:1000", 01770, 0, 1000 },	/* group-writable, not world */
};
#define NPARENTS 3
#define owners vt_fx_owners4
#define NOWNERS VT_FX_NOWNERS4
static const struct {
	const char *name;
	enum vt_sysctl_id sysctl;
	int value;
	mode_t type;
	enum vt_mop op;
} ops[] = {
	{ "follow-symlink", VT_SYSCTL_SYMLINKS, 0, S_IFLNK, VT_OP_OPEN_READ },
	{ "follow-symlink", VT_SYSCTL_SYMLINKS, 1, S_IFLNK, VT_OP_OPEN_READ },
	{ "open-creat-file", VT_SYSCTL_REGULAR, 0, S_IFREG, VT_OP_OPEN_CREAT_RDONLY },
	{ "open-creat-file", VT_SYSCTL_REGULAR, 1, S_IFREG, VT_OP_OPEN_CREAT_RDONLY },
	{ "open-creat-file", VT_SYSCTL_REGULAR, 2, S_IFREG, VT_OP_OPEN_CREAT_RDONLY },
	{ "open-creat-fifo", VT_SYSCTL_FIFOS, 0, S_IFIFO, VT_OP_OPEN_CREAT_RDONLY },
	{ "open-creat-fifo", VT_SYSCTL_FIFOS, 1, S_IFIFO, VT_OP_OPEN_CREAT_RDONLY },
	{ "open-creat-fifo", VT_SYSCTL_FIFOS, 2, S_IFIFO, VT_OP_OPEN_CREAT_RDONLY },
	{ "link-to-new", VT_SYSCTL_HARDLINKS, 0, S_IFREG, VT_OP_LINK },
	{ "link-to-new", VT_SYSCTL_HARDLINKS, 1, S_IFREG, VT_OP_LINK },
};
#define NOPS 10

static void make(int local, int inner, struct vt_mcase *c)
{
	int op = local % NOPS, o = (local / NOPS) % NOWNERS, p = local / NOPS / NOWNERS;

	(void)inner;
	c->dir = vt_fx_inode(S_IFDIR | parents[p].mode, parents[p].uid, parents[p].gid);
	/* 0606: readable by owner and others, not through the group class,
	 * so a reader's access does not hang on the group the sysctls
	 * ignore; link sources 0600 (safe_hardlink_source wants read and
	 * write for a non-owner) */
	c->obj = vt_fx_inode(ops[op].type | (ops[op].type == S_IFLNK ? 0777	/* a symlink's mode */
					     : ops[op].op == VT_OP_LINK ? 0600 : 0606),
			     owners[o].uid, owners[o].gid);
	if (ops[op].type == S_IFLNK) {
		c->obj.symlink_to_t = true;
		c->other = vt_fx_inode(S_IFREG | 0644, 0, 0);	/* the link's target P/t */
	}
	c->op.op = ops[op].op;
	c->op.on_existing = ops[op].op == VT_OP_OPEN_CREAT_RDONLY;
	c->op.mode = 0644;
	c->umask = 022;
	c->sysctl_set = true;	/* the others 0: only the one under test acts */
	c->sysctl[ops[op].sysctl] = ops[op].value;
	snprintf(c->what, sizeof(c->what), "op=%s/%s=%d/parent=%s/obj=%s-%s", ops[op].name,
		 vt_sysctl_names[ops[op].sysctl] + 3, ops[op].value, parents[p].name,
		 ops[op].type == S_IFLNK ? "symlink" : ops[op].type == S_IFIFO ? "fifo-0606"
		 : ops[op].op == VT_OP_LINK ? "file-0600" : "file-0606", owners[o].name);
}

/* The overlay world (appended: the other cases keep their ids): the same
 * calls on a lower P/o (and P/t) through an overlay on idmapped layers
 * whose upper P is the sticky parent (the merged P's owner and mode are
 * the upper P's through the upper idmap, ovl_copyattr); the rules compare
 * the overlay inodes' owners through the overlay's own mount (nop), which
 * are the layers' owners through their idmaps (lib/model/overlay_fileops.c,
 * op_link in overlay_model.c). The strictest value of each sysctl, the
 * world- and the group-writable parent owned by another than the file,
 * three file owners. */
static const int ovl_ops[] = { 1, 4, 7, 9 };	/* symlinks=1, regular=2, fifos=2, hardlinks=1 */
#define NOVL_OPS 4
static const int ovl_parents[] = { 1, 2 };	/* sticky-1777-1000:1000, sticky-1770-0:1000 */
#define NOVL_PARENTS 2
static const int ovl_owners[] = { 1, 2, 3 };	/* 1000:1000, 1001:1001, 70000:70000 */
#define NOVL_OWNERS 3
#define NOVL (NOVL_OPS * NOVL_PARENTS * NOVL_OWNERS)

static void make_overlay(int k, int inner, struct vt_mcase *c)
{
	char rest[sizeof(c->what)];
	int op = ovl_ops[k % NOVL_OPS], o = ovl_owners[(k / NOVL_OPS) % NOVL_OWNERS],
	    p = ovl_parents[k / NOVL_OPS / NOVL_OWNERS];

	make(op + NOPS * (o + NOWNERS * p), inner, c);
	snprintf(rest, sizeof(rest), "%s", c->what);
	snprintf(c->what, sizeof(c->what), "overlay/%s", rest);
}

static const struct vt_fblock blocks[] = {
	{ NOPS * NOWNERS * NPARENTS, make, VT_FB_PLAIN },
	{ NOVL, make_overlay, VT_FB_OVERLAY },
};

VT_MATRIX_FAMILY_WIDE(protected, "012", 1, blocks, VT_WIDE_USERNS)
