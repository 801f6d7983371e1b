/* matrix/004: permission to open existing files through idmapped mounts.
 *
 * open(O_RDONLY), open(O_WRONLY), open(O_WRONLY|O_TRUNC) of files whose
 * owner/group are mapped or unmapped, with owner-, group- or other-only
 * permission bits, and of files whose access comes from POSIX ACL entries
 * (ACL_USER/ACL_GROUP, with and without an effective mask). Guards
 * generic_permission/acl_permission_check/posix_acl_permission in the
 * mount's view, CAP_DAC_OVERRIDE/CAP_DAC_READ_SEARCH only for inodes whose
 * ids map into the caller's namespace (capable_wrt_inode_uidgid), and
 * EACCES for writes to inodes with unmapped ids (HAS_UNMAPPED_ID). */
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

static void make(int local, struct vt_mcase *c)
{
	int op = local % NOPS, rest = local / NOPS;

	c->dir = vt_fx_inode(S_IFDIR | 0777, 0, 0);
	c->op.op = ops[op];
	c->umask = 022;
	if (rest < NOWNERS * NMODES) {
		int o = rest % NOWNERS, m = rest / NOWNERS;

		c->obj = vt_fx_inode(S_IFREG | modes[m], owners[o].uid, owners[o].gid);
		snprintf(c->what, sizeof(c->what), "op=%s/obj=%04o-%s", vt_mop_name(ops[op]),
			 (unsigned)modes[m], owners[o].name);
	} else {
		/* the ACL grants u:1000 rw and g:1001 r; mode 0660 (mask rw) or
		 * 0600 (mask ---: the entries are ineffective) */
		mode_t m = rest == NOWNERS * NMODES ? 0660 : 0600;

		c->obj = vt_fx_inode(S_IFREG | m, 0, 0);
		vt_fx_add_acl(&c->obj, 1000, 1001, false);
		snprintf(c->what, sizeof(c->what), "op=%s/obj=%04o-0:0-acl-u1000-g1001",
			 vt_mop_name(ops[op]), (unsigned)m);
	}
}

VT_MATRIX_FAMILY(permission, "004", NOPS * (NOWNERS * NMODES + 2), make)
