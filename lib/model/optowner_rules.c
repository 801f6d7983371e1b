/* Filesystems whose owners come from the mount options (optowner_model.h):
 * their ->setattr, how they fill an inode, and the operations they lack.
 * Read in 6.12: fs/fat/inode.c (fat_fill_inode, fat_read_root,
 * fat_fill_super), fs/fat/fat.h (fat_make_mode, fat_mode_can_hold_ro),
 * fs/fat/file.c (fat_setattr, fat_allow_set_time, fat_sanitize_mode),
 * fs/fat/namei_vfat.c (vfat_dir_inode_operations, vfat_rename2),
 * fs/fat/namei_msdos.c (msdos_dir_inode_operations, msdos_rename),
 * fs/exfat/inode.c (exfat_fill_inode), fs/exfat/super.c (exfat_read_root,
 * exfat_fill_super, exfat_param_specs), fs/exfat/exfat_fs.h
 * (exfat_make_mode, exfat_mode_can_hold_ro), fs/exfat/file.c
 * (exfat_setattr, exfat_allow_set_time, exfat_sanitize_mode),
 * fs/exfat/namei.c (exfat_dir_inode_operations, exfat_rename), fs/namei.c
 * (vfs_symlink, vfs_mknod, vfs_link, vfs_tmpfile, vfs_rename), fs/xattr.c
 * (xattr_resolve_name, __vfs_setxattr_noperm). */
#include "fs/fs_table.h"
#include "model/setattr.h"
#include "model/optowner_rules.h"
#include "model/fs_ops.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

/* S_IRUGO, S_IWUGO, S_IXUGO, S_IRWXUGO (include/linux/stat.h) */
#define RUGO (S_IRUSR | S_IRGRP | S_IROTH)
#define WUGO (S_IWUSR | S_IWGRP | S_IWOTH)
#define XUGO (S_IXUSR | S_IXGRP | S_IXOTH)
#define RWXUGO (RUGO | WUGO | XUGO)
/* fs/fat/file.c: the mode bits fat_setattr accepts */
#define FAT_VALID_MODE (S_IFREG | S_IFDIR | RWXUGO)
/* exfat_setattr: ia_mode & ~(S_IFREG | S_IFLNK | S_IFDIR | 0777) */
#define EXFAT_VALID_MODE (S_IFREG | S_IFLNK | S_IFDIR | RWXUGO)
/* include/uapi/linux/fs.h */
#define RENAME_NOREPLACE_ (1u << 0)
#define RENAME_EXCHANGE_ (1u << 1)
#define RENAME_WHITEOUT_ (1u << 2)

mode_t vt_fat_default_allow_utime(mode_t dmask)
{
	/* fat_fill_super: "If user doesn't specify allow_utime, it's
	 * initialized from dmask."; exfat_fill_super: allow_utime ==
	 * (unsigned short)-1 -> ~fs_dmask & 0022, the same */
	return ~dmask & (S_IWGRP | S_IWOTH);
}

/* fat_mode_can_hold_ro(): can i_mode express ATTR_RO (the w bits)? */
static bool fat_mode_can_hold_ro(const struct vt_optowner_opts *o, mode_t mode)
{
	mode_t mask;

	if (S_ISDIR(mode)) {
		if (!o->rodir)
			return false;
		mask = ~o->fs_dmask;
	} else {
		mask = ~o->fs_fmask;
	}
	return (mask & WUGO) != 0;
}

/* exfat_mode_can_hold_ro(): never a directory (exfat has no rodir), a
 * file if the fmask leaves a w bit */
static bool exfat_mode_can_hold_ro(const struct vt_optowner_opts *o, mode_t mode)
{
	if (S_ISDIR(mode))
		return false;
	return (~o->fs_fmask & WUGO) != 0;
}

/* fat_make_mode(sbi, attrs, mode): ATTR_RO clears the w bits, on a
 * directory only with rodir */
static mode_t fat_make_mode(const struct vt_optowner_opts *o, bool dir, bool ro, mode_t mode)
{
	if (ro && !(dir && !o->rodir))
		mode &= ~(mode_t)WUGO;
	if (dir)
		return (mode & ~o->fs_dmask) | S_IFDIR;
	return (mode & ~o->fs_fmask) | S_IFREG;
}

/* exfat_make_mode(sbi, attr, mode): EXFAT_ATTR_READONLY clears the w bits
 * of a file, never of a directory (EXFAT_ATTR_SUBDIR) */
static mode_t exfat_make_mode(const struct vt_optowner_opts *o, bool dir, bool ro, mode_t mode)
{
	if (ro && !dir)
		mode &= ~(mode_t)WUGO;
	if (dir)
		return (mode & ~o->fs_dmask) | S_IFDIR;
	return (mode & ~o->fs_fmask) | S_IFREG;
}

/* fat_fill_inode / fat_read_root: i_uid = fs_uid, i_gid = fs_gid, i_mode
 * fat_make_mode (the root: a directory without ATTR_RO) */
static struct vt_minode fat_fill_inode(const struct vt_optowner_opts *o, bool dir, bool ro)
{
	struct vt_minode i = { .exists = true };

	i.uid = o->fs_uid;
	i.gid = o->fs_gid;
	i.mode = fat_make_mode(o, dir, ro, RWXUGO);
	return i;
}

/* exfat_fill_inode / exfat_read_root: i_uid = fs_uid, i_gid = fs_gid,
 * i_mode exfat_make_mode(sbi, attr, 0777) */
static struct vt_minode exfat_fill_inode(const struct vt_optowner_opts *o, bool dir, bool ro)
{
	struct vt_minode i = { .exists = true };

	i.uid = o->fs_uid;
	i.gid = o->fs_gid;
	i.mode = exfat_make_mode(o, dir, ro, RWXUGO);
	return i;
}

struct vt_minode vt_optowner_inode(const struct vt_optowner_opts *o, bool dir, bool ro)
{
	return o->fs->fill_inode(o, dir, ro);
}

int vt_optowner_may_lookup_root(const struct vt_world *w, enum vt_rule *rule)
{
	struct vt_minode root;
	int ret;

	if (!w->optowner)
		return 0;
	/* link_path_walk -> may_lookup on the mount's root before "P" */
	root = vt_optowner_inode(w->optowner, true, false);
	ret = vt_inode_permission_at(w, &root, VT_MAY_EXEC, VT_R_MAY_LOOKUP, rule);
	if (ret)
		*rule = VT_R_MAY_LOOKUP;
	return ret;
}

int vt_optowner_lacks(enum vt_mop op, enum vt_rule *rule)
{
	/* vfat_dir_inode_operations, msdos_dir_inode_operations: create,
	 * lookup, unlink, mkdir, rmdir, rename, setattr, getattr,
	 * update_time; exfat_dir_inode_operations: create, lookup, unlink,
	 * mkdir, rmdir, rename, setattr, getattr. Nothing else. */
	switch (op) {
	case VT_OP_SYMLINK:
		*rule = VT_R_FAT_NO_SYMLINK;	/* vfs_symlink, after may_create */
		return EPERM;
	case VT_OP_MKFIFO:
	case VT_OP_MKNOD_CHR:
		*rule = VT_R_FAT_NO_MKNOD;	/* vfs_mknod, after may_create and CAP_MKNOD */
		return EPERM;
	case VT_OP_LINK:
		*rule = VT_R_FAT_NO_LINK;	/* vfs_link, after may_create */
		return EPERM;
	case VT_OP_TMPFILE:
		/* vfs_tmpfile, after fsuidgid_has_mapping and
		 * inode_permission(dir, MAY_WRITE | MAY_EXEC) */
		*rule = VT_R_FAT_NO_TMPFILE;
		return EOPNOTSUPP;
	default:
		return 0;
	}
}

int vt_optowner_missing_iop(const struct vt_world *w, enum vt_mop op, enum vt_rule *rule)
{
	return w->optowner ? -vt_optowner_lacks(op, rule) : 0;
}

bool vt_optowner_new_inode(const struct vt_world *w, mode_t mode, struct vt_minode *n)
{
	if (!w->optowner)
		return false;
	/* vfat_add_entry / msdos_add_entry give the entry ATTR_DIR or
	 * ATTR_ARCH and fat_build_inode -> fat_fill_inode makes the inode from
	 * it; exfat_add_entry gives EXFAT_ATTR_SUBDIR or EXFAT_ATTR_ARCHIVE and
	 * exfat_build_inode -> exfat_fill_inode: no inode_init_owner, no
	 * posix_acl_create, the mode unused */
	*n = vt_optowner_inode(w->optowner, S_ISDIR(mode), false);
	return true;
}

int vt_optowner_xattr_handler(const struct vt_world *w, enum vt_rule *rule)
{
	if (!w->optowner)
		return 0;
	/* inode_init_always sets IOP_XATTR only if sb->s_xattr; fat and
	 * exfat have none, so __vfs_setxattr_noperm/__vfs_getxattr/
	 * __vfs_removexattr (xattr_resolve_name) give EOPNOTSUPP, and for
	 * security.* the capability LSM's cap_inode_getsecurity gets the
	 * same from vfs_getxattr_alloc */
	VT_REFUSE(VT_R_FAT_NO_XATTR, EOPNOTSUPP);
	return 0;
}

int vt_optowner_rename_flags(const struct vt_world *w, enum vt_mop op, enum vt_rule *rule)
{
	unsigned int flags = op == VT_OP_RENAME_NOREPLACE  ? RENAME_NOREPLACE_
			     : op == VT_OP_RENAME_EXCHANGE ? RENAME_EXCHANGE_
			     : op == VT_OP_RENAME_WHITEOUT ? RENAME_WHITEOUT_
							   : 0;

	if (!w->optowner)
		return 0;
	/* vfs_rename calls ->rename after every permission check; vfat_rename2:
	 * flags & ~(RENAME_NOREPLACE | RENAME_EXCHANGE) -> EINVAL;
	 * msdos_rename, exfat_rename: flags & ~RENAME_NOREPLACE -> EINVAL */
	if (!vt_hit(w, VT_R_OPT_RENAME_FLAGS, !(flags & ~w->optowner->fs->rename_flags)))
		VT_REFUSE(VT_R_OPT_RENAME_FLAGS, EINVAL);
	return 0;
}

/* fat_allow_set_time(), and exfat_allow_set_time() is the same code: may
 * a non-owner set explicit times? Recorded where final: allowed, or
 * denied and setattr_prepare's owner check (inode_owner_or_capable) then
 * refuses too. */
static bool fat_allow_set_time(const struct vt_world *w, const struct vt_minode *i)
{
	mode_t allow = w->optowner->allow_utime;
	struct vt_world quiet = *w;

	if (vt_vfsuid_eq_kuid(vt_i_uid_into_vfsuid(w, i), vt_cur_fsuid(w)))
		return false;	/* "use a default check" */
	if (vt_vfsgid_in_group_p(w, vt_i_gid_into_vfsgid(w, i)))
		allow >>= 3;
	if (allow & VT_MAY_WRITE)
		return vt_hit(w, VT_R_FAT_ALLOW_UTIME, true);
	quiet.trace = NULL;
	if (!vt_inode_owner_or_capable(&quiet, i))
		vt_hit(w, VT_R_FAT_ALLOW_UTIME, false);
	return false;
}

/* fat_sanitize_mode() and exfat_sanitize_mode(): false if the mode cannot
 * be kept (ATTR_MODE is then dropped), else *MODE limited to the bits the
 * masks allow. They differ in which inodes can hold the read-only
 * attribute (CAN_HOLD_RO) and in exfat's S_ISLNK (no symlinks here). */
static bool sanitize_mode(const struct vt_optowner_opts *o, const struct vt_minode *i,
			  mode_t *mode, bool (*can_hold_ro)(const struct vt_optowner_opts *, mode_t))
{
	mode_t mask = S_ISREG(i->mode) ? o->fs_fmask : o->fs_dmask;
	mode_t perm = *mode & ~(S_IFMT | mask);

	/* "Of the r and x bits, all (subject to umask) must be present. Of
	 * the w bits, either all (subject to umask) or none must be present." */
	if ((perm & (RUGO | XUGO)) != (i->mode & (RUGO | XUGO)))
		return false;
	if (can_hold_ro(o, i->mode)) {
		if ((perm & WUGO) && (perm & WUGO) != (WUGO & ~mask))
			return false;
	} else if ((perm & WUGO) != (WUGO & ~mask)) {
		return false;
	}
	*mode &= S_IFMT | perm;
	return true;
}

/* fat_setattr: a refusal with the quiet option is a success that changes
 * nothing; exfat_setattr has no such option (exfat_param_specs) */
static int refused(const struct vt_world *w, int err, enum vt_rule *rule)
{
	if (!w->optowner->fs->has_quiet)
		return err;
	if (!vt_hit(w, VT_R_FAT_QUIET, w->optowner->quiet))
		return err;
	*rule = VT_R_FAT_QUIET;
	return 0;
}

/* fat_setattr() and exfat_setattr(): the same order of checks (times,
 * setattr_prepare, uid=, gid=, valid mode bits, then the masks); they
 * differ in the valid mode bits, the read-only attribute and fat's quiet.
 * exfat_setattr's size expansion before setattr_prepare
 * (exfat_cont_expand) decides nothing the model asks: its truncates are
 * to 0. */
static int vt_fat_setattr(const struct vt_world *w, struct vt_minode *i, struct iattr *ia,
			  enum vt_rule *rule, mode_t valid_mode,
			  bool (*can_hold_ro)(const struct vt_optowner_opts *, mode_t))
{
	const struct vt_optowner_opts *o = w->optowner;
	struct iattr prep = *ia;
	vt_kuid_t u;
	vt_kgid_t g;
	int ret;

	if ((ia->valid & IA_TIMES_SET) && fat_allow_set_time(w, i))
		prep.valid &= ~(unsigned int)IA_TIMES_SET;
	ret = vt_setattr_prepare(w, i, &prep, rule);
	/* setattr_prepare worked on the caller's attr: its S_ISGID strip
	 * stays, the ia_valid it was shown is restored */
	ia->mode = prep.mode;
	if (ret)
		return refused(w, ret, rule);	/* it changed nothing */
	/* the chown target back in the filesystem's terms */
	u = vt_from_vfsuid(w->idmap, w->fs_ns, ia->vfsuid);
	g = vt_from_vfsgid(w->idmap, w->fs_ns, ia->vfsgid);
	if ((ia->valid & IA_UID) && !vt_hit(w, VT_R_FAT_UID, u.val == o->fs_uid.val) &&
	    VT_REFUSES(VT_R_FAT_UID)) {
		*rule = VT_R_FAT_UID;
		return refused(w, -EPERM, rule);
	}
	if ((ia->valid & IA_GID) && !vt_hit(w, VT_R_FAT_GID, g.val == o->fs_gid.val) &&
	    VT_REFUSES(VT_R_FAT_GID)) {
		*rule = VT_R_FAT_GID;
		return refused(w, -EPERM, rule);
	}
	if ((ia->valid & IA_MODE) &&
	    !vt_hit(w, VT_R_FAT_VALID_MODE, !(ia->mode & ~valid_mode)) &&
	    VT_REFUSES(VT_R_FAT_VALID_MODE)) {
		*rule = VT_R_FAT_VALID_MODE;
		return refused(w, -EPERM, rule);
	}
	/* "We don't return -EPERM here. Yes, strange, but this is too old
	 * behavior." (both) */
	if ((ia->valid & IA_MODE) &&
	    !vt_hit(w, VT_R_FAT_SANITIZE_MODE, sanitize_mode(o, i, &ia->mode, can_hold_ro)))
		ia->valid &= ~(unsigned int)IA_MODE;
	vt_setattr_copy(w, i, ia);
	*rule = VT_R_FAT_SETATTR_OK;
	return 0;
}

/* ->setattr of vfat and msdos: fat_setattr (fs/fat/file.c) */
static int setattr_of_fat(const struct vt_world *w, struct vt_minode *i, struct iattr *ia,
			  enum vt_rule *rule)
{
	return vt_fat_setattr(w, i, ia, rule, FAT_VALID_MODE, fat_mode_can_hold_ro);
}

/* ->setattr of exfat: exfat_setattr (fs/exfat/file.c) */
static int setattr_of_exfat(const struct vt_world *w, struct vt_minode *i, struct iattr *ia,
			    enum vt_rule *rule)
{
	return vt_fat_setattr(w, i, ia, rule, EXFAT_VALID_MODE, exfat_mode_can_hold_ro);
}

/* include/uapi/linux/msdos_fs.h; exfat's EXFAT_ATTR_READONLY and
 * EXFAT_ATTR_SYSTEM (fs/exfat/exfat_raw.h) have the same values */
#define ATTR_RO_ 0x01u
#define ATTR_SYS_ 0x04u

/* FAT_IOCTL_SET_ATTRIBUTES on an fd open for reading (fs/fat/file.c
 * fat_ioctl_set_attributes; fs/exfat/file.c exfat_ioctl_set_attributes,
 * the same steps): mnt_want_write_file, then the attribute byte becomes
 * "the equivalent to a chmod()": ia_mode = make_mode(attr, S_IRWXUGO) for a
 * directory, make_mode(attr, S_IRUGO | S_IWUGO | (i_mode & S_IXUGO)) for a
 * file, ATTR_MODE | ATTR_CTIME; the system attribute needs
 * capable(CAP_LINUX_IMMUTABLE) (fat: only with sys_immutable); then
 * ->setattr (fat_setattr, exfat_setattr) is called directly, not through
 * notify_change, with the idmap of the file's mount: setattr_prepare's
 * inode_owner_or_capable(idmap) is the only owner check, and fat's quiet
 * makes its refusal a success that changes nothing (the attributes are
 * still saved, fat_save_attrs; the mode shows none of them). Not
 * modelled: the root directory's EINVAL (no case's P/o is the mount's
 * root) and ATTR_SYS already set on the inode (oldattr: the model's
 * inodes are made by ->create and ->mkdir, ATTR_ARCH or ATTR_DIR). */
void vt_model_fat_set_attrs(const struct vt_world *w, const struct vt_mop_args *a,
			    struct vt_expect *e)
{
	const struct vt_optowner_opts *o = w->optowner;
	struct vt_minode i = w->obj;
	struct iattr ia = { .valid = IA_MODE };
	enum vt_rule rule = VT_R_NONE;
	bool dir = S_ISDIR(i.mode);
	int ret = vt_may_lookup(w, &rule);

	if (ret)
		VT_FAIL(e, -ret, rule);
	if (!vt_hit(w, VT_R_LOOKUP_NOENT, i.exists))
		VT_FAIL(e, ENOENT, VT_R_LOOKUP_NOENT);
	ret = vt_inode_permission_at(w, &i, VT_MAY_READ, VT_R_OPEN_PERM, &rule);
	if (ret)
		VT_FAIL(e, -ret, rule);
	/* any other filesystem: no such ioctl (vfs_ioctl, ->unlocked_ioctl:
	 * ENOTTY); no case asks it there */
	if (!o)
		VT_FAIL(e, ENOTTY, VT_R_NONE);
	ia.mode = o->fs->make_mode(o, dir, (a->fat_attr & ATTR_RO_) != 0,
				   dir ? RWXUGO : RUGO | WUGO | (i.mode & XUGO));
	if ((o->fs->sys_always || o->sys_immutable) && (a->fat_attr & ATTR_SYS_) &&
	    !vt_hit(w, VT_R_FAT_IOCTL_SYS, vt_capable(w, VT_CAP_LINUX_IMMUTABLE)))
		VT_FAIL(e, EPERM, VT_R_FAT_IOCTL_SYS);
	ret = o->fs->setattr(w, &i, &ia, &rule);
	if (ret)
		VT_FAIL(e, -ret, rule);
	VT_SUCCEED(e, rule);
	e->result = i;
	vt_model_seen(w, e);
}

const struct vt_optowner_fs vt_optowner_vfat = {
	"vfat", setattr_of_fat, fat_fill_inode, vt_fat_default_allow_utime,
	RENAME_NOREPLACE_ | RENAME_EXCHANGE_, true, true, false, "fs/fat (fat_setattr, vfat_rename2)",
	fat_make_mode, false, false,
};
const struct vt_optowner_fs vt_optowner_msdos = {
	"msdos", setattr_of_fat, fat_fill_inode, vt_fat_default_allow_utime,
	RENAME_NOREPLACE_, true, true, true, "fs/fat (fat_setattr, msdos_rename, msdos_format_name)",
	fat_make_mode, false, true,
};
const struct vt_optowner_fs vt_optowner_exfat = {
	"exfat", setattr_of_exfat, exfat_fill_inode, vt_fat_default_allow_utime,
	RENAME_NOREPLACE_, false, false, false, "fs/exfat: exfat_setattr, exfat_rename, exfat_param_specs",
	exfat_make_mode, true, false,
};

const struct vt_optowner_fs *const vt_optowner_all[] = {
	&vt_optowner_vfat, &vt_optowner_msdos, &vt_optowner_exfat,
};
const int vt_optowner_count = (int)(sizeof(vt_optowner_all) / sizeof(vt_optowner_all[0]));

const struct vt_optowner_fs *vt_optowner_fs(const char *fstype)
{
	const struct vt_fs_row *r = vt_fs_row(fstype);
	int k;

	if (!r || r->owner != VT_OWNER_MOUNT_OPTIONS)
		return NULL;
	for (k = 0; k < vt_optowner_count; k++)
		if (strcmp(vt_optowner_all[k]->fstype, r->name) == 0)
			return vt_optowner_all[k];
	return NULL;
}

/* What no world of these filesystems can express, for the rule coverage
 * (the reasons hold for fat and exfat alike). */
#define NA_ALLOW 1
#define NA_DENY 2
#define NA_BOTH 3
static const struct {
	enum vt_rule rule;
	int ways;
	const char *why;
} fat_na[] = {
#define NOXATTR "fat, exfat: the operation then ends in EOPNOTSUPP (no IOP_XATTR, no POSIX ACLs)"
#define NOIOP "fat, exfat: the operation then ends in EPERM/EOPNOTSUPP (no ->link, ->mknod, ->tmpfile)"
#define NOSETID "fat and exfat store no S_ISUID/S_ISGID (fat_setattr: FAT_VALID_MODE; exfat_setattr: 0777)"
#define NOFCAPS "fat and exfat have no security.capability (no xattr handlers)"
#define NOSTICKY "fat and exfat store no S_ISVTX (FAT_VALID_MODE, exfat_setattr)"
#define FATOK "their successes are labelled by their own outcomes (fat_fill_inode, fat_setattr, exfat_fill_inode, exfat_setattr)"
	{ VT_R_TMPFILE_EOVERFLOW, NA_ALLOW, NOIOP },
	{ VT_R_MKNOD_CAP, NA_ALLOW, NOIOP },
	{ VT_R_LINK_UNMAPPED, NA_ALLOW, NOIOP },
	{ VT_R_LINK_PROTECTED, NA_ALLOW, NOIOP },
	{ VT_R_LINK_DIR, NA_BOTH, "fat, exfat: vfs_link refuses before the directory test (no ->link)" },
	{ VT_R_SGID_STRIP_CREATE, NA_BOTH, NOSETID },
	{ VT_R_SGID_INHERIT, NA_BOTH, NOSETID },
	{ VT_R_DROP_SUIDGID, NA_BOTH, NOSETID },
	{ VT_R_DROP_SGID, NA_BOTH, NOSETID },
	{ VT_R_CREATE_OK, NA_BOTH, FATOK },
	{ VT_R_TMPFILE_OK, NA_BOTH, NOIOP },
	{ VT_R_LINK_OK, NA_BOTH, NOIOP },
	{ VT_R_SETATTR_OK, NA_BOTH, FATOK },
	{ VT_R_STICKY_VICTIM, NA_BOTH, NOSTICKY },
	{ VT_R_STICKY_DIR, NA_BOTH, NOSTICKY },
	{ VT_R_STICKY_FOWNER, NA_BOTH, NOSTICKY },
	/* P, Q and the directory moved share uid=, gid= and dmask, so a
	 * caller allowed to write P (may_delete) may write the directory */
	{ VT_R_RENAME_DIR_WRITE, NA_DENY,
	  "fat, exfat: every directory has the same owner and mode (uid=, gid=, dmask) as the parent the rename needed write on" },
	{ VT_R_WHITEOUT_OK, NA_BOTH, "fat and exfat have no whiteouts (vfat_rename2, msdos_rename, exfat_rename: EINVAL)" },
	{ VT_R_ACL_UID_EINVAL, NA_ALLOW, NOXATTR },
	{ VT_R_ACL_GID_EINVAL, NA_ALLOW, NOXATTR },
	{ VT_R_WRITE_XATTR_UNMAPPED, NA_ALLOW, NOXATTR },
	{ VT_R_ACL_SET_OK, NA_BOTH, NOXATTR },
	{ VT_R_FCAPS_SETFCAP, NA_ALLOW, NOXATTR },
	{ VT_R_FCAPS_V2_KEPT, NA_ALLOW, NOXATTR },
	{ VT_R_FCAPS_ROOT_CALLER, NA_ALLOW, NOXATTR },
	{ VT_R_FCAPS_ROOT_MOUNT, NA_ALLOW, NOXATTR },
	{ VT_R_FCAPS_ROOT_SB, NA_ALLOW, NOXATTR },
	{ VT_R_FCAPS_SET_OK, NA_BOTH, NOXATTR },
	{ VT_R_FCAPS_GET_NONE, NA_BOTH, NOFCAPS },
	{ VT_R_FCAPS_GET_V3, NA_BOTH, NOFCAPS },
	{ VT_R_FCAPS_GET_OWNS, NA_BOTH, NOFCAPS },
	{ VT_R_FCAPS_RM_SETFCAP, NA_ALLOW, NOXATTR },
	{ VT_R_FCAPS_RM_NONE, NA_BOTH, NOFCAPS },
	{ VT_R_FCAPS_RM_OK, NA_BOTH, NOXATTR },
	{ VT_R_XATTR_TRUSTED, NA_ALLOW, NOXATTR },
	{ VT_R_XATTR_USER_TYPE, NA_BOTH, "fat and exfat hold only files and directories; then EOPNOTSUPP" },
	{ VT_R_XATTR_USER_STICKY, NA_BOTH, NOSTICKY },
	{ VT_R_XATTR_PERM, NA_ALLOW, NOXATTR },
	{ VT_R_XATTR_ABSENT, NA_BOTH, NOXATTR },
	{ VT_R_XATTR_OK, NA_BOTH, NOXATTR },
	{ VT_R_EXEC_SETID, NA_BOTH, NOSETID },
	{ VT_R_EXEC_SETGID_XGRP, NA_BOTH, NOSETID },
	{ VT_R_EXEC_FCAPS, NA_BOTH, NOFCAPS },
	{ VT_R_EXEC_FCAPS_BSET, NA_BOTH, NOFCAPS },
	{ VT_R_EXEC_PRIV_ROOT, NA_DENY, "fat, exfat: no setuid-root file with file capabilities" },
	{ VT_R_EXEC_MNT_SUID, NA_ALLOW, NOSETID },
	/* the fs.protected_* checks ask about sticky directories only */
	{ VT_R_FOLLOW_PROTECTED, NA_BOTH, "fat and exfat have no symlinks (no ->symlink) and " NOSTICKY },
	{ VT_R_STICKY_CREATE_REGULAR, NA_BOTH, NOSTICKY },
	{ VT_R_STICKY_CREATE_FIFO, NA_BOTH, "fat and exfat have no fifos (no ->mknod) and " NOSTICKY },
#undef NOXATTR
#undef NOIOP
#undef NOSETID
#undef NOFCAPS
#undef NOSTICKY
#undef FATOK
};

const char *vt_optowner_rule_na(const struct vt_optowner_fs *fs, enum vt_rule r, bool deny)
{
	size_t k;

	/* what differs between them: vfat_rename2 refuses only
	 * RENAME_WHITEOUT, which no case asks of a filesystem without
	 * whiteouts; msdos_rename and exfat_rename refuse RENAME_EXCHANGE,
	 * so an exchange never succeeds; exfat has no quiet */
	if (r == VT_R_OPT_RENAME_FLAGS && deny && (fs->rename_flags & RENAME_EXCHANGE_))
		return "vfat_rename2 refuses only RENAME_WHITEOUT, and no case renames with it on a "
		       "filesystem without whiteouts";
	if (r == VT_R_RENAME_EXCHANGE && !deny && !(fs->rename_flags & RENAME_EXCHANGE_))
		return "msdos_rename, exfat_rename: RENAME_EXCHANGE ends in EINVAL, so an exchange "
		       "with its target present never succeeds";
	if (r == VT_R_FAT_IOCTL_SYS && !fs->sys_always)
		return "fat asks CAP_LINUX_IMMUTABLE for ATTR_SYS only with sys_immutable, and no "
		       "world mounts with it (the attribute would make P/o S_IMMUTABLE, which no "
		       "case's cleanup could remove)";
	if (r == VT_R_FAT_QUIET && !fs->has_quiet)
		return "exfat has no quiet option (exfat_param_specs): exfat_setattr returns every "
		       "refusal";

	for (k = 0; k < sizeof(fat_na) / sizeof(fat_na[0]); k++)
		if (fat_na[k].rule == r && (fat_na[k].ways & (deny ? NA_DENY : NA_ALLOW)))
			return fat_na[k].why;
	return NULL;
}

/* The hooks the generic rules ask (fs_ops.h) in a world whose owners come
 * from the mount options. */
const struct vt_fs_ops vt_optowner_fs_ops = {
	.may_lookup_root = vt_optowner_may_lookup_root,
	.missing_iop = vt_optowner_missing_iop,
	.new_inode = vt_optowner_new_inode,
	.xattr_handler = vt_optowner_xattr_handler,
	.rename_flags = vt_optowner_rename_flags,
};
