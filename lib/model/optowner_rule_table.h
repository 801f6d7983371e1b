/* The model's rules for filesystems whose owners come from the mount
 * options (optowner_model.h, optowner_rules.c): fat (vfat, msdos) and
 * exfat, in the format of rule_table.h, which includes them in
 * VT_RULE_TABLE. Slugs are stable: the fat_* ones were vfat's first and
 * name the fat function; exfat's function makes the same decision (each
 * text says where exfat differs). */
#ifndef VT_MODEL_OPTOWNER_RULE_TABLE_H
#define VT_MODEL_OPTOWNER_RULE_TABLE_H

#define VT_FAT_RULE_TABLE(X)                                                                      \
	/* operations they lack: fs/namei.c, fs/xattr.c, vfat/msdos/exfat_dir_inode_operations */                   \
	X(FAT_NO_SYMLINK, "vfs_symlink.no-i_op-symlink", CHECK, FAT_LACKS,                        \
	  "vfs_symlink: !dir->i_op->symlink (fat, exfat have none): EPERM")                              \
	X(FAT_NO_MKNOD, "vfs_mknod.no-i_op-mknod", CHECK, FAT_LACKS,                              \
	  "vfs_mknod: !dir->i_op->mknod (fat, exfat have none): EPERM")                                  \
	X(FAT_NO_LINK, "vfs_link.no-i_op-link", CHECK, FAT_LACKS,                                 \
	  "vfs_link: !dir->i_op->link (fat, exfat have none): EPERM")                                    \
	X(FAT_NO_TMPFILE, "vfs_tmpfile.no-i_op-tmpfile", CHECK, FAT_LACKS,                        \
	  "vfs_tmpfile: !dir->i_op->tmpfile (fat, exfat have none): EOPNOTSUPP")                         \
	X(FAT_NO_XATTR, "xattr_resolve_name.no-IOP_XATTR", CHECK, FAT_LACKS,                      \
	  "__vfs_{set,get,remove}xattr: no sb->s_xattr, IOP_XATTR clear (fat, exfat): EOPNOTSUPP") \
	/* owners and modes from the mount options: fs/fat/{inode,file}.c, fs/exfat/{inode,file}.c */\
	X(FAT_CREATE_OK, "fat_fill_inode.owner-and-mode-from-options", OUTCOME, FAT,              \
	  "vfat_create/vfat_mkdir -> fat_build_inode -> fat_fill_inode (exfat_create/exfat_mkdir " \
	  "-> exfat_build_inode -> exfat_fill_inode): owner uid=/gid=, mode fat_make_mode "        \
	  "(exfat_make_mode) & ~fmask/dmask (the mode argument and the umask unused)")            \
	X(FAT_ALLOW_UTIME, "fat_allow_set_time.allow_utime", BRANCH, FAT,                         \
	  "fat_allow_set_time, exfat_allow_set_time: a non-owner whose class allow_utime grants MAY_WRITE may set "     \
	  "times (ATTR_TIMES_SET hidden from setattr_prepare)")                                   \
	X(FAT_UID, "fat_setattr.uid-is-fs_uid", CHECK, FAT,                                       \
	  "fat_setattr, exfat_setattr: from_vfsuid(idmap, ia_vfsuid) != uid=: EPERM")                \
	X(FAT_GID, "fat_setattr.gid-is-fs_gid", CHECK, FAT,                                       \
	  "fat_setattr, exfat_setattr: from_vfsgid(idmap, ia_vfsgid) != gid=: EPERM")                \
	X(FAT_VALID_MODE, "fat_setattr.fat_valid_mode", CHECK, FAT,                               \
	  "fat_setattr: ia_mode & ~FAT_VALID_MODE, exfat_setattr: & ~(S_IFREG|S_IFLNK|S_IFDIR|0777) " \
	  "(S_ISUID, S_ISGID, S_ISVTX): EPERM")            \
	X(FAT_SANITIZE_MODE, "fat_sanitize_mode.masks", BRANCH, FAT,                              \
	  "fat_sanitize_mode, exfat_sanitize_mode: r/x bits as the masks give them and the w bits all or none, else "  \
	  "ATTR_MODE is dropped and the call still succeeds (exfat: a directory never holds "    \
	  "EXFAT_ATTR_READONLY, exfat_mode_can_hold_ro)")                                    \
	X(FAT_QUIET, "fat_setattr.quiet", BRANCH, FAT,                                            \
	  "fat_setattr: with the quiet option a refusal returns 0 and changes nothing (exfat "   \
	  "has no quiet: exfat_param_specs)")           \
	X(FAT_SETATTR_OK, "fat_setattr.ok", OUTCOME, FAT,                                         \
	  "notify_change -> fat_setattr (exfat_setattr): setattr_prepare, the option-id and "    \
	  "mode checks, setattr_copy")                                                            \
	X(FAT_IOCTL_SYS, "fat_ioctl_set_attributes.attr_sys-capable-cap_linux_immutable", CHECK,  \
	  FAT, "fat_ioctl_set_attributes: ATTR_SYS with sys_immutable needs "                    \
	  "capable(CAP_LINUX_IMMUTABLE) (exfat_ioctl_set_attributes: always); the mode change "  \
	  "is then fat_setattr's (exfat_setattr's) with file_mnt_idmap: EPERM")                  \
	X(OPT_RENAME_FLAGS, "rename.fs-rename-flags", CHECK, FAT,                                 \
	  "vfs_rename -> ->rename: vfat_rename2 takes RENAME_NOREPLACE and RENAME_EXCHANGE, "    \
	  "msdos_rename and exfat_rename only RENAME_NOREPLACE; other flags: EINVAL")

/* What a world needs for these rules' outcomes (rule_table.h's VT_RULE_NEEDS). */
#define VT_FAT_RULE_NEEDS(X)                                                                      \
	X(FAT, "the filesystem's owners do not come from mount options (not fat or exfat)")                                                      \
	X(FAT_LACKS, "asked only on fat and exfat, which lack the operation")

#endif
