/* vfat in the model: a filesystem that stores no owners and no modes.
 *
 * Every inode's owner is the mount's uid=/gid= and its mode comes from the
 * masks and the FAT attribute byte (fs/fat/inode.c: fat_fill_inode,
 * fat_read_root; fs/fat/fat.h: fat_make_mode). Its ->setattr,
 * fat_setattr (fs/fat/file.c), wraps setattr_prepare() with its own
 * rules: ids must stay the option ids, modes must be what the masks allow
 * (fat_sanitize_mode), explicit times may be allowed to non-owners
 * (fat_allow_set_time), and with "quiet" a refusal returns 0. vfat has no
 * ->symlink, ->mknod, ->link or ->tmpfile (namei_vfat.c:
 * vfat_dir_inode_operations), no xattr handlers (no sb->s_xattr, so
 * inode_init_always leaves IOP_XATTR clear) and no POSIX ACLs (no
 * SB_POSIXACL). A struct vt_world with `fat` set is such a world; the
 * rules in vfat_rules.c decide what changes. */
#ifndef VT_MODEL_VFAT_H
#define VT_MODEL_VFAT_H

#include "model/world_model.h"

#include <stdbool.h>
#include <sys/types.h>

/* struct fat_mount_options, the fields the rules read (fs/fat/fat.h). */
struct vt_fat_opts {
	vt_kuid_t fs_uid;	/* uid=: make_kuid(current_user_ns()) of the mounter */
	vt_kgid_t fs_gid;	/* gid= */
	mode_t fs_fmask;	/* fmask= (umask= sets both) */
	mode_t fs_dmask;	/* dmask= */
	/* allow_utime as fat_fill_super() leaves it: the option's
	 * S_IWGRP|S_IWOTH bits, or ~dmask & (S_IWGRP|S_IWOTH) without it */
	mode_t allow_utime;
	bool quiet;		/* quiet: fat_setattr hides its refusals */
	bool rodir;		/* rodir: ATTR_RO on a directory is read-only */
};

/* allow_utime when the option is not given (fat_fill_super). */
mode_t vt_fat_default_allow_utime(mode_t dmask);

/* The in-core inode of a directory entry (fat_fill_inode; the root,
 * fat_read_root, is a directory without ATTR_RO): owner from the options,
 * mode fat_make_mode(attrs, S_IRWXUGO). RO is the entry's ATTR_RO. */
struct vt_minode vt_fat_inode(const struct vt_fat_opts *o, bool dir, bool ro);

/* The errno of operation OP because vfat lacks the inode operation it
 * needs (vfs_symlink, vfs_mknod, vfs_link: EPERM; vfs_tmpfile:
 * EOPNOTSUPP), with the rule in *RULE; 0 if vfat has it. Where the VFS
 * asks (after may_create and its EOVERFLOW) is the caller's business. */
int vt_fat_lacks(enum vt_mop op, enum vt_rule *rule);

/* Why direction DENY (or allow) of a generic rule R cannot happen in any
 * vfat world (no setuid/setgid/sticky bits, no xattrs, ACLs or file
 * capabilities, operations it lacks), or NULL (rule coverage). */
const char *vt_fat_rule_na(enum vt_rule r, bool deny);

#endif
