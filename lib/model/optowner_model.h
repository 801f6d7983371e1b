/* Filesystems whose owners come from the mount options (the filesystem
 * table's VT_OWNER_MOUNT_OPTIONS rows: vfat, msdos, exfat) in the model.
 *
 * They store no owners and no modes: every inode's owner is the mount's
 * uid=/gid= and its mode comes from the masks and the attribute byte
 * (fs/fat/inode.c: fat_fill_inode, fat_read_root; fs/exfat/inode.c:
 * exfat_fill_inode, fs/exfat/super.c: exfat_read_root). Their ->setattr
 * (fat_setattr in fs/fat/file.c, exfat_setattr in fs/exfat/file.c) wraps
 * setattr_prepare() with their own rules: ids must stay the option ids,
 * modes must be what the masks allow, explicit times may be allowed to
 * non-owners (fat_allow_set_time, exfat_allow_set_time), and on fat with
 * "quiet" a refusal returns 0. None has ->symlink, ->mknod, ->link or
 * ->tmpfile (vfat_dir_inode_operations, msdos_dir_inode_operations,
 * exfat_dir_inode_operations), xattr handlers (no sb->s_xattr, so
 * inode_init_always leaves IOP_XATTR clear) or POSIX ACLs (no SB_POSIXACL).
 *
 * Each filesystem is a struct vt_optowner_fs: its operations, shaped like
 * the kernel's inode operations and picked by the fstype of its row in
 * lib/fs/fs_table.c; fat's are shared by vfat and msdos, which differ only
 * in their directory operations (the rename flags they take). A struct
 * vt_world with `optowner` set is such a world; optowner_rules.c decides. */
#ifndef VT_MODEL_OPTOWNER_H
#define VT_MODEL_OPTOWNER_H

#include "model/world_model.h"

#include <stdbool.h>
#include <sys/types.h>

struct vt_optowner_opts;
struct iattr;

/* One filesystem's operations (the kernel's names in the comments). */
struct vt_optowner_fs {
	const char *fstype;	/* its row in the filesystem table */
	/* ->setattr (fat_setattr, exfat_setattr): 0 or -errno with *RULE */
	int (*setattr)(const struct vt_world *w, struct vt_minode *i, struct iattr *ia,
		       enum vt_rule *rule);
	/* the in-core inode of an entry (fat_fill_inode, exfat_fill_inode):
	 * a directory or a file, RO its read-only attribute */
	struct vt_minode (*fill_inode)(const struct vt_optowner_opts *o, bool dir, bool ro);
	/* allow_utime without the option, from dmask (fat_fill_super,
	 * exfat_fill_super) */
	mode_t (*default_allow_utime)(mode_t dmask);
	/* renameat2 flags its ->rename takes (vfat_rename2: NOREPLACE and
	 * EXCHANGE; msdos_rename, exfat_rename: NOREPLACE only) */
	unsigned int rename_flags;
	/* mount options it has beyond uid=,gid=,umask=,fmask=,dmask=,
	 * allow_utime= (fat_param_spec: quiet, rodir; exfat_param_specs:
	 * neither) */
	bool has_quiet, has_rodir;
	/* names are 8.3 (msdos_format_name: longer parts are cut, so two
	 * long names can be one entry): the suite's own names must fit */
	bool short_names;
	/* where its rules and mount options are, for messages */
	const char *source;
	/* the mode an attribute byte gives (fat_make_mode, exfat_make_mode):
	 * MODE less the w bits where RO reaches, less the fmask or dmask */
	mode_t (*make_mode)(const struct vt_optowner_opts *o, bool dir, bool ro, mode_t mode);
	/* FAT_IOCTL_SET_ATTRIBUTES asks CAP_LINUX_IMMUTABLE for the system
	 * attribute always (exfat_ioctl_set_attributes), not only with the
	 * sys_immutable option (fat_ioctl_set_attributes) */
	bool sys_always;
	/* rodir without the option: fat_init_fs_context sets opts->rodir = 1
	 * for msdos (is_vfat false) and 0 for vfat; exfat has no rodir */
	bool rodir_default;
};

/* Their inode operations, for a world's fs_ops (fs_ops.h). */
extern const struct vt_fs_ops vt_optowner_fs_ops;
extern const struct vt_optowner_fs vt_optowner_vfat, vt_optowner_msdos, vt_optowner_exfat;
/* All of them, in a fixed order (the sample table's worlds). */
extern const struct vt_optowner_fs *const vt_optowner_all[];
extern const int vt_optowner_count;

/* The operations of FSTYPE, or NULL for a filesystem whose owners do not
 * come from mount options (asks the filesystem table). */
const struct vt_optowner_fs *vt_optowner_fs(const char *fstype);

/* The mount options the rules read (struct fat_mount_options in
 * fs/fat/fat.h, struct exfat_mount_options in fs/exfat/exfat_fs.h). */
struct vt_optowner_opts {
	const struct vt_optowner_fs *fs;
	vt_kuid_t fs_uid;	/* uid=: make_kuid(current_user_ns()) of the mounter */
	vt_kgid_t fs_gid;	/* gid= */
	mode_t fs_fmask;	/* fmask= (umask= sets both) */
	mode_t fs_dmask;	/* dmask= */
	/* allow_utime as fill_super leaves it: the option's
	 * S_IWGRP|S_IWOTH bits, or ~dmask & (S_IWGRP|S_IWOTH) without it */
	mode_t allow_utime;
	bool quiet;		/* fat's quiet: fat_setattr hides its refusals */
	bool rodir;		/* fat's rodir: ATTR_RO on a directory is read-only */
	bool sys_immutable;	/* fat's sys_immutable: ATTR_SYS is S_IMMUTABLE (no world sets it) */
};

/* allow_utime when the option is not given (fat_fill_super; exfat_fill_super
 * does the same). */
mode_t vt_fat_default_allow_utime(mode_t dmask);

/* The in-core inode of a directory entry through O's filesystem. */
struct vt_minode vt_optowner_inode(const struct vt_optowner_opts *o, bool dir, bool ro);

/* The errno of operation OP because these filesystems lack the inode
 * operation it needs (vfs_symlink, vfs_mknod, vfs_link: EPERM;
 * vfs_tmpfile: EOPNOTSUPP), with the rule in *RULE; 0 if they have it.
 * Where the VFS asks (after may_create and its EOVERFLOW) is the
 * caller's business. The same for all three: their directory inode
 * operations are create, lookup, unlink, mkdir, rmdir, rename, setattr,
 * getattr (vfat, msdos: update_time too). */
int vt_optowner_lacks(enum vt_mop op, enum vt_rule *rule);

/* Why direction DENY (or allow) of rule R cannot happen in any world of
 * filesystem FS (no setuid/setgid/sticky bits, no xattrs, ACLs or file
 * capabilities, operations it lacks, rename flags, options), or NULL
 * (rule coverage). */
const char *vt_optowner_rule_na(const struct vt_optowner_fs *fs, enum vt_rule r, bool deny);

#endif
