/* matrix/003: chmod and the setgid bit through idmapped mounts.
 *
 * chmod() of files and directories owned by mapped and unmapped ids, to
 * modes with and without S_ISUID, S_ISGID (with and without group
 * execute) and the sticky bit, and of a file with an access ACL (the mask
 * follows the mode). Guards setattr_prepare/setattr_copy: EPERM for
 * non-owners (inode_owner_or_capable in the mount's view), EOVERFLOW for
 * unmapped owners, and the silent setgid strip when the caller is not in
 * the file's group in the mount's view (in_group_or_capable). */
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

static void make(int local, struct vt_mcase *c)
{
	int m = local % NMODES, rest = local / NMODES, o, kind;

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

VT_MATRIX_FAMILY_WIDE(chmod, "003", NMODES * (NOWNERS * 2 + 1), make, VT_WIDE_USERNS)
