/* matrix/002: chown/chgrp through idmapped mounts.
 *
 * fchownat() of files, a setgid directory and (lchown) a symlink whose owner is or is not mapped in the mount, to
 * caller-view uid only, gid only, both, or -1/-1 (and one lchown), by every
 * caller. Guards chown_common's translation (EINVAL for ids the caller
 * cannot name, EOVERFLOW for ids the mount cannot store), chown_ok and
 * chgrp_ok in the mount's view (circular maps: 968219708108; chgrp to a
 * supplementary group: 168f91289340), the setuid/setgid and file-capability
 * kill on chown. Expected values come from lib/model. */
#include "matrix/matrix.h"

#include <stdio.h>
#include <sys/stat.h>

static const struct {
	const char *name;
	mode_t mode;
	uint32_t uid, gid;
	int fcaps;
} objs[] = {
	{ "0644-0:0", 0644, 0, 0, 0 },
	{ "0644-1000:1000", 0644, 1000, 1000, 0 },
	{ "0644-1000:1001", 0644, 1000, 1001, 0 },
	{ "0644-1001:1001", 0644, 1001, 1001, 0 },
	{ "0644-70000:70000", 0644, 70000, 70000, 0 },
	{ "6755-1000:1000", 06755, 1000, 1000, 0 },
	{ "2745-1000:1001", 02745, 1000, 1001, 0 },
	{ "0755-1000:1000-fcaps2", 0755, 1000, 1000, 2 },
	{ "dir-2775-1000:1001", S_IFDIR | 02775, 1000, 1001, 0 },
	{ "symlink-1000:1000", S_IFLNK | 0777, 1000, 1000, 0 },	/* lchown only */
};
#define NOBJS 10
#define NONE 0xffffffffu
static const struct {
	uint32_t uid, gid;
	bool lchown;
} targets[] = {
	{ NONE, NONE, false }, { 0, NONE, false },     { 1000, NONE, false }, { 1001, NONE, false },
	{ 11000, NONE, false }, { 70000, NONE, false }, { NONE, 0, false },    { NONE, 1000, false },
	{ NONE, 1001, false }, { NONE, 11001, false }, { 1000, 1001, false }, { 0, 0, false },
	{ 1000, 1001, true },
};
#define NTARGETS 13

static void id_text(uint32_t id, char *buf, size_t len)
{
	if (id == NONE)
		snprintf(buf, len, "-1");
	else
		snprintf(buf, len, "%u", id);
}

static void make(int local, struct vt_mcase *c)
{
	int o = local % NOBJS, t = local / NOBJS;
	char u[16], g[16];

	c->dir = vt_fx_inode(S_IFDIR | 0777, 0, 0);
	c->obj = vt_fx_inode((objs[o].mode & S_IFMT ? 0 : S_IFREG) | objs[o].mode, objs[o].uid,
			     objs[o].gid);
	c->obj.fcaps.version = objs[o].fcaps;
	/* a symlink is changed with lchown (it points at itself: following it
	 * would be ELOOP, which is not what this family is about) */
	c->op.op = targets[t].lchown || S_ISLNK(objs[o].mode) ? VT_OP_LCHOWN : VT_OP_CHOWN;
	c->op.uid = vt_cuid(targets[t].uid);
	c->op.gid = vt_cgid(targets[t].gid);
	if (S_ISLNK(objs[o].mode) && targets[t].lchown) {
		/* every symlink row is an lchown already: make this one a
		 * distinct case (ids of the shifted view) instead of a duplicate */
		c->op.uid = vt_cuid(11000);
		c->op.gid = vt_cgid(11001);
	}
	c->umask = 022;
	id_text(c->op.uid.val, u, sizeof(u));
	id_text(c->op.gid.val, g, sizeof(g));
	snprintf(c->what, sizeof(c->what), "op=%s/obj=%s/to=%s:%s", vt_mop_name(c->op.op),
		 objs[o].name, u, g);
}

static const struct vt_family family = { "chown", NOBJS * NTARGETS, make };

int main(int argc, char **argv)
{
	return vt_matrix_main(&family, argc, argv);
}
