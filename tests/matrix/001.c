/* matrix/001: creating names through idmapped mounts.
 *
 * open(O_CREAT), open(O_CREAT|O_EXCL), O_TMPFILE (then linked to a name
 * through /proc/self/fd to read its on-disk owner), mkdir, mknod(S_IFIFO),
 * symlink, mknod(S_IFCHR 1:3, vfs_mknod: capable(CAP_MKNOD)), under parents that are plain, setgid (group the caller is or is
 * not in), sticky, owned by an id the mount cannot map, or carry a default
 * ACL; with a plain and a setgid-requesting mode and umask 022 or 010
 * (S_IXGRP), and on a name that exists (EEXIST, or O_CREAT opening it). Guards the owner rule (inode_init_owner: mapped_fsuid,
 * EOVERFLOW from fsuidgid_has_mapping) and the setgid-stripping fixes
 * (CVE-2018-13405, CVE-2021-4037, 1639a49ccdce: strip before umask, default
 * ACLs, O_TMPFILE). Expected values come from lib/model.
 *
 * The overlay world ("overlay/" cases, appended: the others keep their
 * ids): open(O_CREAT) and open(O_CREAT|O_EXCL) of a new name, mode 0666,
 * in an upper P (plain, sticky, setgid, owned by an id no map maps) of an
 * overlay whose layers are mounts of the filesystem under test idmapped
 * with the case's map. Guards ovl_permission on the overlay directory,
 * the read-only overlay a mounter the upper idmap cannot map gets
 * (ovl_workdir_create), and ovl_create_object/ovl_create_upper: the new
 * upper file is created by the mounter with the caller's fsuid/fsgid
 * (ovl_setup_cred_for_create) through the upper idmap (may_create:
 * EOVERFLOW; inode_init_owner): lib/model/overlay_model.c. */
#include "matrix/matrix.h"

#include <stdio.h>
#include <sys/stat.h>

static const enum vt_mop ops[] = { VT_OP_OPEN_CREAT, VT_OP_OPEN_CREAT_EXCL, VT_OP_TMPFILE,
				   VT_OP_MKDIR, VT_OP_MKFIFO, VT_OP_SYMLINK, VT_OP_MKNOD_CHR };
#define NOPS 7
static const struct {
	const char *name;
	mode_t mode;
	uint32_t uid, gid;
	bool defacl;
} parents[] = {
	{ "0777-0:0", 0777, 0, 0, false },
	{ "sgid-2777-0:1001", 02777, 0, 1001, false },
	{ "sgid-2775-1000:1000", 02775, 1000, 1000, false },
	{ "sticky-1777-0:0", 01777, 0, 0, false },
	{ "0777-70000:70000", 0777, 70000, 70000, false },
	{ "sgid-defacl-2777-1000:1001", 02777, 1000, 1001, true },
	{ "0777-0:0-name-exists", 0777, 0, 0, false },	/* the name is taken by P/o 0644 1000:1000 */
};
#define NPARENTS 7
static const mode_t modes[] = { 0666, 02775 };
static const mode_t umasks[] = { 022, 010 };
#define NPLAIN (NOPS * NPARENTS * 2 * 2)
/* the overlay world: its operations and upper parents (indexes into
 * ops[] and parents[]: no default ACL, no existing name) */
static const int ovl_ops[] = { 0, 1 };	/* open(O_CREAT), open(O_CREAT|O_EXCL) */
#define NOVL_OPS 2
static const int ovl_parents[] = { 0, 1, 3, 4 };
#define NOVL_PARENTS 4
#define NOVL (NOVL_OPS * NOVL_PARENTS * 2)
/* the overlay world with the upper layer not idmapped (the lower through
 * the map: a lower and an upper real inode translate differently, so the
 * model's per-layer translations are told apart; appended, the other ids
 * keep theirs): the umask 022 cases */
#define NOVL_UPPER_PLAIN (NOVL_OPS * NOVL_PARENTS)
/* the overlay world whose upper layer has another map than the lower one
 * (VT_OVL_UPPER_OTHER: "upper=rotate", axes.h; the lower through the
 * case's map, the mounter mapped on the upper), the same cases as
 * upper=plain, appended after them */
#define NOVL_UPPER_OTHER NOVL_UPPER_PLAIN

static void make_overlay(int local, int inner, struct vt_mcase *c)
{
	int op = ovl_ops[local % NOVL_OPS], p = ovl_parents[(local / NOVL_OPS) % NOVL_PARENTS],
	    u = local / NOVL_OPS / NOVL_PARENTS;

	(void)inner;
	c->dir = vt_fx_inode(S_IFDIR | parents[p].mode, parents[p].uid, parents[p].gid);
	c->op.op = ops[op];
	c->op.mode = 0666;
	c->umask = umasks[u];
	snprintf(c->what, sizeof(c->what), "overlay/op=%s/upper-p=%s/mode=0666/umask=%03o",
		 vt_mop_name(ops[op]), parents[p].name, (unsigned)umasks[u]);
}

static void make_plain(int local, int inner, struct vt_mcase *c)
{
	int op = local % NOPS, p = (local / NOPS) % NPARENTS, m = (local / NOPS / NPARENTS) % 2,
	    u = local / NOPS / NPARENTS / 2;

	c->dir = vt_fx_inode(S_IFDIR | parents[p].mode, parents[p].uid, parents[p].gid);
	if (parents[p].defacl)
		vt_fx_add_acl(&c->dir, 1000, 1001, true);
	if (p == NPARENTS - 1) {
		c->obj = vt_fx_inode(S_IFREG | 0644, 1000, 1000);
		c->op.on_existing = true;
	}
	c->op.op = ops[op];
	c->op.mode = modes[m];
	c->umask = umasks[u];
	snprintf(c->what, sizeof(c->what), "op=%s/parent=%s/mode=%04o/umask=%03o",
		 vt_mop_name(ops[op]), parents[p].name, (unsigned)modes[m], (unsigned)umasks[u]);
	(void)inner;
}

static const struct vt_fblock blocks[] = {
	{ NPLAIN, make_plain, VT_FB_PLAIN },
	{ NOVL, make_overlay, VT_FB_OVERLAY },
	{ NOVL_UPPER_PLAIN, make_overlay, VT_FB_UPPER_PLAIN },
	{ NOVL_UPPER_OTHER, make_overlay, VT_FB_UPPER_OTHER },
};

VT_MATRIX_FAMILY_WIDE(create, "001", 1, blocks, VT_WIDE_MAPS | VT_WIDE_CALLERS)
