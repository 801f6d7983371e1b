/* The matrix families on filesystems whose owners come from the mount
 * options (optowner_fixture.h: vfat, msdos, exfat). Each is a list of
 * worlds times a list of operations on what they can hold: P (a
 * directory of the world; Q another, for renames across parents), P/o and
 * P/t (or Q/t) each a file, a read-only file
 * (ATTR_RO), a directory or a copy of exec-probe. Owners and modes are the
 * world's (vt_optowner_inode), never chosen per case; chown targets are
 * named by what the caller sees (VT_FAT_ID_SEEN). Every expected value
 * comes from lib/model with the world's options and the filesystem's
 * operations. Names are single letters (P, Q, o, t, n): valid 8.3 names
 * on msdos (msdos_format_name). */
#include "matrix/optowner_fixture.h"
#include "world/xattr_view.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define SEEN VT_FAT_ID_SEEN
#define NEXT VT_FAT_ID_NEXT
#define KEEP VT_ID_INVALID

struct fat_op {
	const char *what;	/* "op=.../obj=..." */
	char obj, other;	/* P/o, P/t: 0 absent, 'f' file, 'r' ATTR_RO file, 'd' dir, 'x' exec-probe */
	struct vt_mop_args op;
	mode_t umask;		/* 0: 022 */
};

struct fat_family {
	const int *worlds;	/* indices into vt_optowner_worlds */
	const struct fat_op *ops;
	int nops;
};

#define OP(...) ((struct vt_mop_args){ __VA_ARGS__ })
#define IDS(u, g) .uid = { u }, .gid = { g }

static struct vt_minode fat_obj(const struct vt_optowner_opts *o, char kind)
{
	struct vt_minode i = vt_optowner_inode(o, kind == 'd', kind == 'r');

	i.exec_probe = kind == 'x';
	return i;
}

/* F's operation OP in its world number W */
static void fat_make(const struct fat_family *f, int w, int op, struct vt_mcase *c)
{
	int wi = f->worlds[w];
	const struct fat_op *o = &f->ops[op];
	const struct vt_optowner_world *vw = &vt_optowner_worlds[wi];
	const struct vt_optowner_opts *m = vt_optowner_model(wi);

	c->optworld = wi + 1;
	c->dir = vt_optowner_inode(m, true, false);
	if (o->obj)
		c->obj = fat_obj(m, o->obj);
	if (o->other)
		c->other = fat_obj(m, o->other);
	/* Q, the second parent, is another directory of the same world */
	if (o->op.cross_dir)
		c->dir2 = vt_optowner_inode(m, true, false);
	c->op = o->op;
	c->umask = o->umask ? o->umask : 022;
	snprintf(c->what, sizeof(c->what), "fat=%s/%s", vw->name, o->what);
}

/* A family: its worlds, its operations, the maker, and the vt_family
 * (same name and test as the generic one; worlds x operations cases). */
#define FAT_FAMILY(id, nnn, ...)                                                             \
	static const int id##_worlds[] = { __VA_ARGS__, -1 };                                \
	static const struct fat_family id##_def = { id##_worlds, id##_ops,                   \
		(int)(sizeof(id##_ops) / sizeof(id##_ops[0])) };                             \
	static void id##_make(int w, int op, struct vt_mcase *c)                             \
	{                                                                                    \
		fat_make(&id##_def, w, op, c);                                               \
	}                                                                                    \
	/* one block: its worlds, each crossed with its operations */                      \
	static const struct vt_fblock id##_blocks[] = {                                      \
		{ (int)(sizeof(id##_worlds) / sizeof(int) - 1), id##_make, VT_FB_PLAIN },    \
	};                                                                                   \
	static const struct vt_family fat_##id = {                                           \
		#id, "matrix/" nnn, (int)(sizeof(id##_ops) / sizeof(id##_ops[0])),           \
		id##_blocks, 1, 0 }	/* the base axes (axes.h) */

/* matrix/001: creating names; the mode and the umask are not theirs to use */
static const struct fat_op create_ops[] = {
	{ "op=open-creat/mode=0600", 0, 0, OP(.op = VT_OP_OPEN_CREAT, .mode = 0600), 0 },
	{ "op=open-creat/mode=0600/umask=077", 0, 0, OP(.op = VT_OP_OPEN_CREAT, .mode = 0600), 077 },
	{ "op=open-creat/existing=file", 'f', 0,
	  OP(.op = VT_OP_OPEN_CREAT, .mode = 0644, .on_existing = true), 0 },
	{ "op=open-creat-excl/existing=file", 'f', 0,
	  OP(.op = VT_OP_OPEN_CREAT_EXCL, .mode = 0644, .on_existing = true), 0 },
	{ "op=tmpfile/mode=0600", 0, 0, OP(.op = VT_OP_TMPFILE, .mode = 0600), 0 },
	{ "op=mkdir/mode=0700", 0, 0, OP(.op = VT_OP_MKDIR, .mode = 0700), 0 },
	{ "op=mkdir/existing=dir", 'd', 0, OP(.op = VT_OP_MKDIR, .mode = 0755, .on_existing = true), 0 },
	{ "op=mkfifo/mode=0644", 0, 0, OP(.op = VT_OP_MKFIFO, .mode = 0644), 0 },
	{ "op=mknod-chr/mode=0644", 0, 0, OP(.op = VT_OP_MKNOD_CHR, .mode = 0644), 0 },
	{ "op=symlink", 0, 0, OP(.op = VT_OP_SYMLINK), 0 },
};
FAT_FAMILY(create, "001", 0, 1, 2, 3, 4, 5, 6);

/* matrix/002: chown/chgrp to the ids the caller sees, or the next ones */
static const struct fat_op chown_ops[] = {
	{ "op=chown/obj=file/to=-1:-1", 'f', 0, OP(.op = VT_OP_CHOWN, IDS(KEEP, KEEP)), 0 },
	{ "op=chown/obj=file/to=seen:-1", 'f', 0, OP(.op = VT_OP_CHOWN, IDS(SEEN, KEEP)), 0 },
	{ "op=chown/obj=file/to=next:-1", 'f', 0, OP(.op = VT_OP_CHOWN, IDS(NEXT, KEEP)), 0 },
	{ "op=chown/obj=file/to=-1:seen", 'f', 0, OP(.op = VT_OP_CHOWN, IDS(KEEP, SEEN)), 0 },
	{ "op=chown/obj=file/to=-1:next", 'f', 0, OP(.op = VT_OP_CHOWN, IDS(KEEP, NEXT)), 0 },
	{ "op=chown/obj=file/to=seen:seen", 'f', 0, OP(.op = VT_OP_CHOWN, IDS(SEEN, SEEN)), 0 },
	{ "op=chown/obj=file/to=0:0", 'f', 0, OP(.op = VT_OP_CHOWN, IDS(0, 0)), 0 },
	{ "op=chown/obj=file/to=-1:1001", 'f', 0, OP(.op = VT_OP_CHOWN, IDS(KEEP, 1001)), 0 },
	{ "op=chown/obj=dir/to=seen:seen", 'd', 0, OP(.op = VT_OP_CHOWN, IDS(SEEN, SEEN)), 0 },
	{ "op=chown/obj=dir/to=next:-1", 'd', 0, OP(.op = VT_OP_CHOWN, IDS(NEXT, KEEP)), 0 },
	{ "op=chown/obj=dir/to=-1:next", 'd', 0, OP(.op = VT_OP_CHOWN, IDS(KEEP, NEXT)), 0 },
	{ "op=lchown/obj=file/to=seen:next", 'f', 0, OP(.op = VT_OP_LCHOWN, IDS(SEEN, NEXT)), 0 },
	{ "op=fchown/obj=file/to=seen:seen", 'f', 0, OP(.op = VT_OP_FCHOWN, IDS(SEEN, SEEN)), 0 },
	{ "op=fchown/obj=file/to=next:-1", 'f', 0, OP(.op = VT_OP_FCHOWN, IDS(NEXT, KEEP)), 0 },
};
FAT_FAMILY(chown, "002", 0, 1, 3, 4, 5);

/* matrix/003: chmod against the masks (fat_sanitize_mode, FAT_VALID_MODE) */
#define CHMOD3(obj, o)                                                                     \
	{ "op=chmod/obj=" obj "/to=0555", o, 0, OP(.op = VT_OP_CHMOD, .mode = 0555), 0 },   \
	{ "op=chmod/obj=" obj "/to=0777", o, 0, OP(.op = VT_OP_CHMOD, .mode = 0777), 0 },   \
	{ "op=chmod/obj=" obj "/to=0644", o, 0, OP(.op = VT_OP_CHMOD, .mode = 0644), 0 },   \
	{ "op=chmod/obj=" obj "/to=0444", o, 0, OP(.op = VT_OP_CHMOD, .mode = 0444), 0 },   \
	{ "op=chmod/obj=" obj "/to=2777", o, 0, OP(.op = VT_OP_CHMOD, .mode = 02777), 0 },  \
	{ "op=chmod/obj=" obj "/to=4777", o, 0, OP(.op = VT_OP_CHMOD, .mode = 04777), 0 },  \
	{ "op=chmod/obj=" obj "/to=1777", o, 0, OP(.op = VT_OP_CHMOD, .mode = 01777), 0 }
/* FAT_IOCTL_SET_ATTRIBUTES, "the equivalent to a chmod()" that
 * fat_ioctl_set_attributes hands to fat_setattr with file_mnt_idmap:
 * ATTR_RO on (w bits off), ATTR_ARCH alone on a read-only file (w bits
 * back), ATTR_RO on a directory (no rodir: the mode keeps its w bits),
 * ATTR_SYS (fat without sys_immutable: no capability asked; exfat:
 * CAP_LINUX_IMMUTABLE) */
#define FATATTR(obj, o, name, attr)                                                         \
	{ "op=fat-set-attrs/obj=" obj "/attr=" name, o, 0,                                  \
	  OP(.op = VT_OP_FAT_SET_ATTRS, .fat_attr = (attr)), 0 }
static const struct fat_op chmod_ops[] = { CHMOD3("file", 'f'), CHMOD3("file-ro", 'r'),
					   CHMOD3("dir", 'd'),
					   FATATTR("file", 'f', "ro", 0x01),
					   FATATTR("file-ro", 'r', "arch", 0x20),
					   FATATTR("dir", 'd', "ro", 0x01),
					   FATATTR("file", 'f', "sys", 0x04) };
FAT_FAMILY(chmod, "003", 0, 3, 5);

/* matrix/004: lookup and open permission with the masks' modes */
#define OPEN3(obj, o)                                                                      \
	{ "op=open-read/obj=" obj, o, 0, OP(.op = VT_OP_OPEN_READ), 0 },                    \
	{ "op=open-write/obj=" obj, o, 0, OP(.op = VT_OP_OPEN_WRITE), 0 },                  \
	{ "op=open-trunc/obj=" obj, o, 0, OP(.op = VT_OP_OPEN_TRUNC), 0 }
static const struct fat_op permission_ops[] = { OPEN3("file", 'f'), OPEN3("file-ro", 'r'),
						{ "op=open-read/obj=dir", 'd', 0, OP(.op = VT_OP_OPEN_READ), 0 },
						{ "op=open-write/obj=dir", 'd', 0, OP(.op = VT_OP_OPEN_WRITE), 0 } };
FAT_FAMILY(permission, "004", 0, 1, 2, 3, 4, 5, 6);

/* matrix/005: POSIX ACLs (none on fat, exfat); the entries are checked first */
#define ACL6(u, g)                                                                          \
	.nacl = 6, .acl = { { VT_ACL_USER_OBJ, 7, { KEEP }, { KEEP } },                     \
			    { VT_ACL_USER, 6, { u }, { KEEP } },                              \
			    { VT_ACL_GROUP_OBJ, 5, { KEEP }, { KEEP } },                     \
			    { VT_ACL_GROUP, 4, { KEEP }, { g } },                             \
			    { VT_ACL_MASK, 7, { KEEP }, { KEEP } },                          \
			    { VT_ACL_OTHER, 4, { KEEP }, { KEEP } } }
static const struct fat_op acl_ops[] = {
	{ "op=acl-set-access/obj=file/entries=u:1000,g:1000", 'f', 0,
	  OP(.op = VT_OP_ACL_SET, ACL6(1000, 1000)), 0 },
	{ "op=acl-set-access/obj=file/entries=u:70000,g:70000", 'f', 0,
	  OP(.op = VT_OP_ACL_SET, ACL6(70000, 70000)), 0 },
	{ "op=acl-set-access/obj=file/entries=u:1000,g:70000", 'f', 0,
	  OP(.op = VT_OP_ACL_SET, ACL6(1000, 70000)), 0 },
	{ "op=acl-set-default/obj=dir/entries=u:1000,g:1000", 'd', 0,
	  OP(.op = VT_OP_ACL_SET, .default_acl = true, ACL6(1000, 1000)), 0 },
	{ "op=acl-get-access/obj=file", 'f', 0, OP(.op = VT_OP_ACL_GET), 0 },
	{ "op=acl-get-default/obj=dir", 'd', 0, OP(.op = VT_OP_ACL_GET, .default_acl = true), 0 },
};
FAT_FAMILY(acl, "005", 0, 4);

/* matrix/006: file capabilities (no xattr handlers); cap_convert_nscap first */
static const struct fat_op fscaps_ops[] = {
	{ "op=fcaps-set/obj=file/v2", 'f', 0, OP(.op = VT_OP_FCAPS_SET, .fcaps = { 2, { 0 } }), 0 },
	{ "op=fcaps-set/obj=file/v3-rootid0", 'f', 0, OP(.op = VT_OP_FCAPS_SET, .fcaps = { 3, { 0 } }), 0 },
	{ "op=fcaps-set/obj=file/v3-rootid70000", 'f', 0,
	  OP(.op = VT_OP_FCAPS_SET, .fcaps = { 3, { 70000 } }), 0 },
	{ "op=fcaps-get/obj=file", 'f', 0, OP(.op = VT_OP_FCAPS_GET), 0 },
	{ "op=fcaps-remove/obj=file", 'f', 0, OP(.op = VT_OP_FCAPS_REMOVE), 0 },
};
FAT_FAMILY(fscaps, "006", 0, 4);

/* matrix/007: unlink, rmdir, rename, link (no ->link; no whiteouts;
 * RENAME_EXCHANGE on vfat only: vfat_rename2) */
static const struct fat_op delete_ops[] = {
	{ "op=unlink/obj=file", 'f', 0, OP(.op = VT_OP_UNLINK), 0 },
	{ "op=unlink/obj=absent", 0, 0, OP(.op = VT_OP_UNLINK), 0 },
	{ "op=unlink/obj=dir", 'd', 0, OP(.op = VT_OP_UNLINK), 0 },
	{ "op=rmdir/obj=dir", 'd', 0, OP(.op = VT_OP_RMDIR), 0 },
	{ "op=rmdir/obj=file", 'f', 0, OP(.op = VT_OP_RMDIR), 0 },
	{ "op=rename/obj=file/to=n", 'f', 0, OP(.op = VT_OP_RENAME), 0 },
	{ "op=rename/obj=dir/to=n", 'd', 0, OP(.op = VT_OP_RENAME), 0 },
	{ "op=rename/obj=file/to=t-file", 'f', 'f', OP(.op = VT_OP_RENAME, .to_other = true), 0 },
	{ "op=rename-noreplace/obj=file/to=t-file", 'f', 'f',
	  OP(.op = VT_OP_RENAME_NOREPLACE, .to_other = true), 0 },
	{ "op=rename-noreplace/obj=file/to=n", 'f', 0, OP(.op = VT_OP_RENAME_NOREPLACE), 0 },
	{ "op=rename-exchange/obj=file/to=t-dir", 'f', 'd',
	  OP(.op = VT_OP_RENAME_EXCHANGE, .to_other = true), 0 },
	{ "op=rename-exchange/obj=file/to=n", 'f', 0, OP(.op = VT_OP_RENAME_EXCHANGE), 0 },
	{ "op=link/obj=file/to=n", 'f', 0, OP(.op = VT_OP_LINK), 0 },
	/* across parents P -> Q: both parents' may_delete/may_create, and a
	 * directory moved needs write on itself for its ".." (vfs_rename) */
	{ "op=rename/obj=file/to=q-n", 'f', 0, OP(.op = VT_OP_RENAME, .cross_dir = true), 0 },
	{ "op=rename/obj=dir/to=q-n", 'd', 0, OP(.op = VT_OP_RENAME, .cross_dir = true), 0 },
	{ "op=rename/obj=file/to=q-t-file", 'f', 'f',
	  OP(.op = VT_OP_RENAME, .cross_dir = true, .to_other = true), 0 },
};
FAT_FAMILY(delete, "007", 0, 2, 3, 4, 6);

/* matrix/008: truncate, write, utimensat (allow_utime, quiet) */
#define SETATTR(obj, o)                                                                    \
	{ "op=truncate/obj=" obj, o, 0, OP(.op = VT_OP_TRUNCATE), 0 },                      \
	{ "op=write/obj=" obj, o, 0, OP(.op = VT_OP_WRITE), 0 },                            \
	{ "op=utimens-now/obj=" obj, o, 0, OP(.op = VT_OP_UTIMENS_NOW), 0 },                \
	{ "op=utimens-set/obj=" obj, o, 0, OP(.op = VT_OP_UTIMENS_SET), 0 }
static const struct fat_op setattr_ops[] = {
	SETATTR("file", 'f'),
	SETATTR("file-ro", 'r'),
	{ "op=utimens-now/obj=dir", 'd', 0, OP(.op = VT_OP_UTIMENS_NOW), 0 },
	{ "op=utimens-set/obj=dir", 'd', 0, OP(.op = VT_OP_UTIMENS_SET), 0 },
	{ "op=truncate/obj=dir", 'd', 0, OP(.op = VT_OP_TRUNCATE), 0 },
};
FAT_FAMILY(setattr, "008", 0, 1, 2, 3, 5);

/* matrix/009: user.*, trusted.* and security.* (no xattr handlers) */
static const struct fat_op xattr_ops[] = {
	{ "op=xattr-set-user/obj=file", 'f', 0, OP(.op = VT_OP_XATTR_SET_USER), 0 },
	{ "op=xattr-get-user/obj=file", 'f', 0, OP(.op = VT_OP_XATTR_GET_USER), 0 },
	{ "op=xattr-remove-user/obj=file", 'f', 0, OP(.op = VT_OP_XATTR_REMOVE_USER), 0 },
	{ "op=xattr-set-user/obj=dir", 'd', 0, OP(.op = VT_OP_XATTR_SET_USER), 0 },
	{ "op=xattr-set-trusted/obj=file", 'f', 0, OP(.op = VT_OP_XATTR_SET_TRUSTED), 0 },
	{ "op=xattr-get-trusted/obj=file", 'f', 0, OP(.op = VT_OP_XATTR_GET_TRUSTED), 0 },
	{ "op=xattr-remove-trusted/obj=file", 'f', 0, OP(.op = VT_OP_XATTR_REMOVE_TRUSTED), 0 },
	/* security.vt: cap_inode_setxattr/cap_inode_removexattr decide
	 * before the missing handler (EPERM, else EOPNOTSUPP) */
	{ "op=xattr-set-security/obj=file", 'f', 0, OP(.op = VT_OP_XATTR_SET_SECURITY), 0 },
	{ "op=xattr-get-security/obj=file", 'f', 0, OP(.op = VT_OP_XATTR_GET_SECURITY), 0 },
	{ "op=xattr-remove-security/obj=file", 'f', 0, OP(.op = VT_OP_XATTR_REMOVE_SECURITY), 0 },
};
FAT_FAMILY(xattr, "009", 0, 4, 6);

/* matrix/010: exec of a copy of exec-probe whose mode the fmask gives */
static const struct fat_op exec_ops[] = {
	{ "op=exec/file=exec-probe", 'x', 0, OP(.op = VT_OP_EXEC), 0 },
	{ "op=exec/obj=dir", 'd', 0, OP(.op = VT_OP_EXEC), 0 },
};
FAT_FAMILY(exec, "010", 0, 1, 3, 4, 5, 6);

static const struct vt_family *const fat_families[] = {
	&fat_create, &fat_chown, &fat_chmod, &fat_permission, &fat_acl,
	&fat_fscaps, &fat_delete, &fat_setattr, &fat_xattr, &fat_exec,
};

/* Families no such world can hold one case of, with the reason. */
static const struct {
	const char *name;
	const char *why;
} fat_none[] = {
	{ "protected", "the fs.protected_* cases need a sticky directory and a symlink, a fifo "
		       "or a hard link in it; fat and exfat store no S_ISVTX (fat_setattr: "
		       "FAT_VALID_MODE; exfat_setattr) and have no ->symlink, ->mknod or ->link" },
	{ "fileops", "not modelled for access, chdir, O_NOATIME, leases and the fileattr ioctls "
		     "on owners from mount options yet (fat and exfat have no ->fileattr_set; "
		     "file_rules.c has no option-owner form)" },
};

bool vt_optowner_family_known(const char *name, const char **why)
{
	size_t k;

	*why = NULL;
	for (k = 0; k < sizeof(fat_families) / sizeof(fat_families[0]); k++)
		if (strcmp(fat_families[k]->name, name) == 0)
			return true;
	for (k = 0; k < sizeof(fat_none) / sizeof(fat_none[0]); k++)
		if (strcmp(fat_none[k].name, name) == 0) {
			*why = fat_none[k].why;
			return true;
		}
	return false;
}

const struct vt_family *vt_optowner_family(const struct vt_family *f, const char **why)
{
	size_t k;

	*why = NULL;
	for (k = 0; k < sizeof(fat_families) / sizeof(fat_families[0]); k++)
		if (strcmp(fat_families[k]->name, f->name) == 0)
			return fat_families[k];
	if (vt_optowner_family_known(f->name, why))
		return NULL;
	/* a family with no form here must not fall back to the disk
	 * fixture (every case would fail its setup): notrun, and
	 * unit/test-matrix-forms fails the build's tests */
	*why = "this family has no form for worlds whose owners come from mount options "
	       "(lib/matrix/optowner_families.c)";
	return NULL;
}
