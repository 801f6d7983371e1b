/* matrix/008: writes, truncation and timestamps through idmapped mounts.
 *
 * write(2), truncate(2) and open(O_TRUNC) of empty and non-empty files with S_ISUID/S_ISGID and file
 * capabilities (file_remove_privs / do_truncate: the bits go unless the
 * caller has CAP_FSETID in the INITIAL namespace; setgid only when group-
 * executable or the caller is not in the group in the mount's view;
 * capabilities always), and utimensat with explicit times (owner or
 * CAP_FOWNER) or now (also write permission), on files with mapped and
 * unmapped owners; ftruncate(2) on an fd open for writing (the open's
 * permission, do_truncate with the file's idmap). */
#include "matrix/matrix.h"

#include <stdio.h>
#include <sys/stat.h>

static const enum vt_mop ops[] = { VT_OP_WRITE, VT_OP_TRUNCATE, VT_OP_OPEN_TRUNC,
				   VT_OP_UTIMENS_NOW, VT_OP_UTIMENS_SET };
#define NOPS 5
static const struct {
	const char *name;
	mode_t mode;
	uint32_t uid, gid;
	int fcaps;
	bool nonempty;
} objs[] = {
	{ "0666-1000:1000", 0666, 1000, 1000, 0, false },
	{ "0644-1000:1000", 0644, 1000, 1000, 0, false },
	{ "6777-1000:1000", 06777, 1000, 1000, 0, false },
	{ "2767-1000:1001", 02767, 1000, 1001, 0, false },
	{ "4777-0:0", 04777, 0, 0, 0, false },
	{ "0666-1000:1000-fcaps2", 0666, 1000, 1000, 2, false },
	{ "0666-70000:70000", 0666, 70000, 70000, 0, false },
	{ "6777-1000:1000-1byte", 06777, 1000, 1000, 0, true },
	{ "2767-1000:1001-1byte", 02767, 1000, 1001, 0, true },
	{ "4777-0:0-1byte", 04777, 0, 0, 0, true },
	/* vfs_truncate: EISDIR; open(O_WRONLY): EISDIR (may_open); utimes
	 * apply to directories as to files */
	{ "dir-0777-1000:1000", S_IFDIR | 0777, 1000, 1000, 0, false },
};
#define NOBJS 11

/* ftruncate(fd, 0) on an fd open(O_WRONLY) through the mount (attr_rules.c
 * vt_model_setattr, by_fd): the objects of objs[] whose privileges go or
 * stay through the mount's idmap (setattr_should_drop_suidgid with the
 * file's idmap in do_truncate), an unmapped owner, a non-owner's 0644
 * (the open refuses) and a directory (may_open: EISDIR) */
static const int fd_objs[] = { 1, 2, 3, 4, 5, 6, 10 };
#define NFD_OBJS 7

static void make(int local, struct vt_mcase *c)
{
	int op = local % NOPS, o = local / NOPS;

	if (local >= NOPS * NOBJS) {
		o = fd_objs[local - NOPS * NOBJS];
		op = 1;	/* VT_OP_TRUNCATE */
		c->op.by_fd = true;
	}

	c->dir = vt_fx_inode(S_IFDIR | 0777, 0, 0);
	c->obj = vt_fx_inode((objs[o].mode & S_IFMT ? 0 : S_IFREG) | objs[o].mode, objs[o].uid,
			     objs[o].gid);
	c->obj.fcaps.version = objs[o].fcaps;
	c->obj.nonempty = objs[o].nonempty;
	c->op.op = ops[op];
	c->umask = 022;
	snprintf(c->what, sizeof(c->what), "op=%s/obj=%s", c->op.by_fd ? "ftruncate" : vt_mop_name(ops[op]),
		 objs[o].name);
}

VT_MATRIX_FAMILY_WIDE(setattr, "008", NOPS * NOBJS + NFD_OBJS, make,
		      VT_WIDE_MAPS | VT_WIDE_CALLERS)
