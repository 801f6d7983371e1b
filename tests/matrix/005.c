/* matrix/005: POSIX ACLs through idmapped mounts.
 *
 * setxattr(system.posix_acl_access) on files and (default) on directories
 * with ACL_USER/ACL_GROUP entries naming caller-view ids that are mapped
 * or unmapped in the caller's namespace and in the mount; getxattr of
 * ACLs whose on-disk ids are mapped or unmapped in the mount. Guards the
 * translation in both directions (posix_acl_from_xattr + from_vfsuid on
 * set, make_vfsuid + from_kuid on get; 705191b03d50), EINVAL for ids the
 * caller cannot name or the filesystem cannot store, EPERM for non-owners
 * and unmapped owners, and the mode update (posix_acl_update_mode); the
 * same through fsetxattr/fgetxattr on an fd open for reading.
 *
 * The overlay world ("overlay/" cases, appended: the others keep their
 * ids): the access ACL of a lower file through an overlay whose layers are
 * mounts of the filesystem under test idmapped with the case's map: read
 * (the real ACL through the lower idmap, ovl_get_acl_path and
 * ovl_idmap_posix_acl, then the caller's view) and set (the caller's
 * checks on the overlay inode, the copy-up, the mounter's vfs_set_acl
 * through the upper idmap); EROFS for a set where the overlay is
 * read-only: lib/model/overlay_model.c op_acl. */
#include "matrix/matrix.h"
#include "world/xattr_view.h"

#include <stdio.h>
#include <sys/stat.h>

static const uint32_t ids[] = { 0, 1000, 1001, 2000, 11000 };
#define NIDS 5
static const struct {
	const char *name;
	uint32_t uid, gid;
} owners[] = {
	{ "1000:1000", 1000, 1000 }, { "0:0", 0, 0 }, { "1001:1001", 1001, 1001 },
	{ "70000:70000", 70000, 70000 },
};
#define NOWNERS 4
static const uint32_t disk_ids[] = { 0, 1000, 1001, 2000, 10000, 11000, 70000 };
#define NDISK 7

#define NSET_ACCESS (NOWNERS * NIDS)
#define NSET_DEFAULT (2 * NIDS)
#define NGET_ACCESS NDISK
#define NGET_DEFAULT 2
/* ACL_USER the caller can name, ACL_GROUP 70000 it may not: the group
 * entry's own EINVAL (posix_acl_from_xattr, make_kgid in the caller's
 * namespace) */
#define NSET_SPLIT NOWNERS
#define NEDGE 2	/* a default ACL on a file (EACCES), reading an absent ACL (ENODATA) */

static void set_args(struct vt_mop_args *a, uint32_t id)
{
	static const uint16_t tags[6] = { VT_ACL_USER_OBJ, VT_ACL_USER, VT_ACL_GROUP_OBJ,
					  VT_ACL_GROUP, VT_ACL_MASK, VT_ACL_OTHER };
	static const uint16_t perms[6] = { 7, 6, 5, 4, 7, 4 };
	int k;

	a->nacl = 6;
	for (k = 0; k < 6; k++) {
		a->acl[k].tag = tags[k];
		a->acl[k].perm = perms[k];
		a->acl[k].uid = vt_cuid(tags[k] == VT_ACL_USER ? id : VT_ID_INVALID);
		a->acl[k].gid = vt_cgid(tags[k] == VT_ACL_GROUP ? id : VT_ID_INVALID);
	}
}

/* The fd forms (fsetxattr / fgetxattr of system.posix_acl_*, fs/xattr.c):
 * do_set_acl / do_get_acl with file_mnt_idmap(f), after the open(O_RDONLY)
 * through the mount (xattr_rules.c xattr_fd_open). Setting u:1000,g:1000
 * on the four owners of file-2644 (readable by all: the fd's idmap
 * translates the entries and decides the owner); reading the access ACL
 * of file-0660-0:0 with entries 1000 and 11000 (the open refuses whoever
 * is neither owner nor group member through the mount nor holds
 * CAP_DAC_* over the inode's ids there, where getxattr would answer). */
#define NFD (NOWNERS + 2)

static void fd_form(int x, struct vt_mcase *c)
{
	c->op.by_fd = true;
	if (x < NOWNERS) {
		c->obj = vt_fx_inode(S_IFREG | 02644, owners[x].uid, owners[x].gid);
		c->op.op = VT_OP_ACL_SET;
		set_args(&c->op, 1000);
		snprintf(c->what, sizeof(c->what),
			 "op=facl-set-access/obj=file-2644-%s/entries=u:1000,g:1000", owners[x].name);
		return;
	}
	x = x == NOWNERS ? 1000 : 11000;
	c->obj = vt_fx_inode(S_IFREG | 0660, 0, 0);
	vt_fx_add_acl(&c->obj, (uint32_t)x, (uint32_t)x, false);
	c->op.op = VT_OP_ACL_GET;
	snprintf(c->what, sizeof(c->what), "op=facl-get-access/obj=file-0660-0:0/disk-entries=u:%d,g:%d",
		 x, x);
}

/* the overlay world, under an upper P 0777 0:0: reading the access ACL of
 * a lower 0660 0:0 file with entries u:X,g:X on disk (X 1000, 11000,
 * 70000: mapped or not through the layer) or none (ENODATA); setting
 * u:Y,g:Y (Y 1000, 11000 as the caller names them) on a lower 0644 file of
 * three owners (no ACL of its own, no setgid bit) */
static const uint32_t ovl_disk_ids[] = { 1000, 11000, 70000 };
#define NOVL_GET 4
static const uint32_t ovl_set_ids[] = { 1000, 11000 };
#define NOVL_SET 6
#define NOVL (NOVL_GET + NOVL_SET)
/* the overlay world with an erofs lower layer (appended): the ACL read off
 * an erofs inode (erofs_get_acl) with u:1000,g:1000 and u:70000,g:70000,
 * and u:1000,g:1000 set on a lower 0644-1000:1000 file (the copy-up off
 * the read-only image; make_overlay's index) */
static const int ovl_erofs[] = { 0, 2, NOVL_GET };
#define NOVL_EROFS 3

static void make_overlay(int x, struct vt_mcase *c)
{
	static const int set_owners[3] = { 0, 1, 3 };	/* 1000:1000, 0:0, 70000:70000 */

	c->ovl = true;
	if (x < NOVL_GET) {
		c->obj = vt_fx_inode(S_IFREG | (x < 3 ? 0660 : 0644), 0, 0);
		c->op.op = VT_OP_ACL_GET;
		if (x < 3) {
			vt_fx_add_acl(&c->obj, ovl_disk_ids[x], ovl_disk_ids[x], false);
			snprintf(c->what, sizeof(c->what),
				 "overlay/upper-p=0777-0:0/lower-o=file-0660-0:0/disk-entries=u:%u,g:%u/"
				 "op=acl-get-access", ovl_disk_ids[x], ovl_disk_ids[x]);
		} else {
			snprintf(c->what, sizeof(c->what),
				 "overlay/upper-p=0777-0:0/lower-o=file-0644-0:0/no-acl/op=acl-get-access");
		}
		return;
	}
	x -= NOVL_GET;
	{
		int o = set_owners[x % 3];
		uint32_t id = ovl_set_ids[x / 3];

		c->obj = vt_fx_inode(S_IFREG | 0644, owners[o].uid, owners[o].gid);
		c->op.op = VT_OP_ACL_SET;
		set_args(&c->op, id);
		snprintf(c->what, sizeof(c->what),
			 "overlay/upper-p=0777-0:0/lower-o=file-0644-%s/op=acl-set-access/entries=u:%u,g:%u",
			 owners[o].name, id, id);
	}
}

/* the overlay world's default ACLs, appended after
 * the fd forms: reading system.posix_acl_default of a lower 0755 0:0
 * directory with default entries u:X,g:X (X 1000, 11000, 70000: the real
 * ACL through the lower idmap, ovl_get_acl -> ovl_get_acl_path,
 * ovl_idmap_posix_acl), and setting u:Y,g:Y (Y 1000, 11000) as the default
 * ACL of a lower 0755 1000:1000 directory (ovl_set_acl: S_ISDIR, the
 * owner; the directory's copy-up, then the mounter's vfs_set_acl through
 * the upper idmap); lib/model/overlay_model.c op_acl */
#define NOVL_DEF 5

static void make_overlay_default(int x, struct vt_mcase *c)
{
	c->ovl = true;
	c->op.default_acl = true;
	if (x < 3) {
		c->obj = vt_fx_inode(S_IFDIR | 0755, 0, 0);
		vt_fx_add_acl(&c->obj, ovl_disk_ids[x], ovl_disk_ids[x], true);
		c->op.op = VT_OP_ACL_GET;
		snprintf(c->what, sizeof(c->what),
			 "overlay/upper-p=0777-0:0/lower-o=dir-0755-0:0/disk-default-entries=u:%u,g:%u/"
			 "op=acl-get-default", ovl_disk_ids[x], ovl_disk_ids[x]);
		return;
	}
	c->obj = vt_fx_inode(S_IFDIR | 0755, 1000, 1000);
	c->op.op = VT_OP_ACL_SET;
	set_args(&c->op, ovl_set_ids[x - 3]);
	c->op.default_acl = true;
	snprintf(c->what, sizeof(c->what),
		 "overlay/upper-p=0777-0:0/lower-o=dir-0755-1000:1000/op=acl-set-default/entries=u:%u,g:%u",
		 ovl_set_ids[x - 3], ovl_set_ids[x - 3]);
}

/* the overlay world's fd forms, appended: each of
 * the cases above by fd (open O_RDONLY through the overlay, then
 * fgetxattr / fsetxattr of system.posix_acl_access);
 * lib/model/overlay_model.c fd_open */
#define NOVL_FD NOVL

/* What every case has: P 0777 0:0, umask 022. */
static void common(struct vt_mcase *c)
{
	c->dir = vt_fx_inode(S_IFDIR | 0777, 0, 0);
	c->umask = 022;
}

static void make_set_access(int row, int inner, struct vt_mcase *c)
{
	int o = row % NOWNERS, i = row / NOWNERS;

	(void)inner;
	common(c);
	c->obj = vt_fx_inode(S_IFREG | 02644, owners[o].uid, owners[o].gid);
	c->op.op = VT_OP_ACL_SET;
	set_args(&c->op, ids[i]);
	snprintf(c->what, sizeof(c->what), "op=acl-set-access/obj=file-2644-%s/entries=u:%u,g:%u",
		 owners[o].name, ids[i], ids[i]);
}

static void make_set_default(int row, int inner, struct vt_mcase *c)
{
	int o = row % 2, i = row / 2;

	(void)inner;
	common(c);
	c->obj = vt_fx_inode(S_IFDIR | 0755, owners[o].uid, owners[o].gid);
	c->op.op = VT_OP_ACL_SET;
	c->op.default_acl = true;
	set_args(&c->op, ids[i]);
	snprintf(c->what, sizeof(c->what), "op=acl-set-default/obj=dir-0755-%s/entries=u:%u,g:%u",
		 owners[o].name, ids[i], ids[i]);
}

static void make_get_access(int row, int inner, struct vt_mcase *c)
{
	(void)inner;
	common(c);
	c->obj = vt_fx_inode(S_IFREG | 0660, 0, 0);
	vt_fx_add_acl(&c->obj, disk_ids[row], disk_ids[row], false);
	c->op.op = VT_OP_ACL_GET;
	snprintf(c->what, sizeof(c->what), "op=acl-get-access/obj=file-0660-0:0/disk-entries=u:%u,g:%u",
		 disk_ids[row], disk_ids[row]);
}

static void make_get_default(int row, int inner, struct vt_mcase *c)
{
	uint32_t id = row ? 11000u : 1000u;

	(void)inner;
	common(c);
	c->obj = vt_fx_inode(S_IFDIR | 0755, 0, 0);
	vt_fx_add_acl(&c->obj, id, id, true);
	c->op.op = VT_OP_ACL_GET;
	c->op.default_acl = true;
	snprintf(c->what, sizeof(c->what),
		 "op=acl-get-default/obj=dir-0755-0:0/disk-entries=u:%u,g:%u", id, id);
}

static void make_set_split(int row, int inner, struct vt_mcase *c)
{
	(void)inner;
	common(c);
	c->obj = vt_fx_inode(S_IFREG | 02644, owners[row].uid, owners[row].gid);
	c->op.op = VT_OP_ACL_SET;
	set_args(&c->op, 1000);
	c->op.acl[3].gid = vt_cgid(70000);
	snprintf(c->what, sizeof(c->what),
		 "op=acl-set-access/obj=file-2644-%s/entries=u:1000,g:70000", owners[row].name);
}

static void make_edge(int row, int inner, struct vt_mcase *c)
{
	(void)inner;
	common(c);
	if (row == 0) {
		/* set_posix_acl: a default ACL on a non-directory is EACCES */
		c->obj = vt_fx_inode(S_IFREG | 0644, 1000, 1000);
		c->op.op = VT_OP_ACL_SET;
		c->op.default_acl = true;
		set_args(&c->op, 1000);
		snprintf(c->what, sizeof(c->what),
			 "op=acl-set-default/obj=file-0644-1000:1000/entries=u:1000,g:1000");
		return;
	}
	/* vfs_get_acl: no ACL stored is ENODATA */
	c->obj = vt_fx_inode(S_IFREG | 0644, 0, 0);
	c->op.op = VT_OP_ACL_GET;
	snprintf(c->what, sizeof(c->what), "op=acl-get-access/obj=file-0644-0:0/no-acl");
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

static void make_ovl_default(int row, int inner, struct vt_mcase *c)
{
	(void)inner;
	common(c);
	make_overlay_default(row, c);
}

static void make_ovl_erofs(int row, int inner, struct vt_mcase *c)
{
	make_ovl(ovl_erofs[row], inner, c);
}

static const struct vt_fblock blocks[] = {
	{ NSET_ACCESS, make_set_access, VT_FB_PLAIN },
	{ NSET_DEFAULT, make_set_default, VT_FB_PLAIN },
	{ NGET_ACCESS, make_get_access, VT_FB_PLAIN },
	{ NGET_DEFAULT, make_get_default, VT_FB_PLAIN },
	{ NSET_SPLIT, make_set_split, VT_FB_PLAIN },
	{ NEDGE, make_edge, VT_FB_PLAIN },
	{ NFD, make_fd, VT_FB_PLAIN },
	{ NOVL, make_ovl, VT_FB_OVERLAY },
	{ NOVL_FD, make_ovl, VT_FB_OVERLAY_FD },
	{ NOVL_DEF, make_ovl_default, VT_FB_OVERLAY },
	{ NOVL_EROFS, make_ovl_erofs, VT_FB_LOWER_EROFS },
};

VT_MATRIX_FAMILY_WIDE(acl, "005", 1, blocks, VT_WIDE_MAPS | VT_WIDE_CALLERS)
