/* The model's vfat rules (vfat_model.h, vfat_rules.c), in the format of
 * rule_table.h, which includes them in VT_RULE_TABLE. Slugs are stable. */
#ifndef VT_MODEL_VFAT_RULE_TABLE_H
#define VT_MODEL_VFAT_RULE_TABLE_H

#define VT_FAT_RULE_TABLE(X)                                                                      \
	/* operations vfat lacks: fs/namei.c, fs/xattr.c, fs/fat/namei_vfat.c */                   \
	X(FAT_NO_SYMLINK, "vfs_symlink.no-i_op-symlink", CHECK, FAT_LACKS,                        \
	  "vfs_symlink: !dir->i_op->symlink (vfat has none): EPERM")                              \
	X(FAT_NO_MKNOD, "vfs_mknod.no-i_op-mknod", CHECK, FAT_LACKS,                              \
	  "vfs_mknod: !dir->i_op->mknod (vfat has none): EPERM")                                  \
	X(FAT_NO_LINK, "vfs_link.no-i_op-link", CHECK, FAT_LACKS,                                 \
	  "vfs_link: !dir->i_op->link (vfat has none): EPERM")                                    \
	X(FAT_NO_TMPFILE, "vfs_tmpfile.no-i_op-tmpfile", CHECK, FAT_LACKS,                        \
	  "vfs_tmpfile: !dir->i_op->tmpfile (vfat has none): EOPNOTSUPP")                         \
	X(FAT_NO_XATTR, "xattr_resolve_name.no-IOP_XATTR", CHECK, FAT_LACKS,                      \
	  "__vfs_{set,get,remove}xattr: no sb->s_xattr, IOP_XATTR clear (vfat): EOPNOTSUPP")     \
	/* owners and modes from the mount options: fs/fat/inode.c, fs/fat/file.c */            \
	X(FAT_CREATE_OK, "fat_fill_inode.owner-and-mode-from-options", OUTCOME, FAT,              \
	  "vfat_create/vfat_mkdir -> fat_build_inode -> fat_fill_inode: owner uid=/gid=, mode "  \
	  "fat_make_mode(S_IRWXUGO) & ~fmask/dmask (the mode argument and the umask unused)")     \
	X(FAT_ALLOW_UTIME, "fat_allow_set_time.allow_utime", BRANCH, FAT,                         \
	  "fat_allow_set_time: a non-owner whose class allow_utime grants MAY_WRITE may set "     \
	  "times (ATTR_TIMES_SET hidden from setattr_prepare)")                                   \
	X(FAT_UID, "fat_setattr.uid-is-fs_uid", CHECK, FAT,                                       \
	  "fat_setattr: from_vfsuid(idmap, ia_vfsuid) != the mount's uid=: EPERM")                \
	X(FAT_GID, "fat_setattr.gid-is-fs_gid", CHECK, FAT,                                       \
	  "fat_setattr: from_vfsgid(idmap, ia_vfsgid) != the mount's gid=: EPERM")                \
	X(FAT_VALID_MODE, "fat_setattr.fat_valid_mode", CHECK, FAT,                               \
	  "fat_setattr: ia_mode & ~FAT_VALID_MODE (S_ISUID, S_ISGID, S_ISVTX): EPERM")            \
	X(FAT_SANITIZE_MODE, "fat_sanitize_mode.masks", BRANCH, FAT,                              \
	  "fat_sanitize_mode: r/x bits as the masks give them and the w bits all or none, else "  \
	  "ATTR_MODE is dropped and the call still succeeds")                                    \
	X(FAT_QUIET, "fat_setattr.quiet", BRANCH, FAT,                                            \
	  "fat_setattr: with the quiet option a refusal returns 0 and changes nothing")           \
	X(FAT_SETATTR_OK, "fat_setattr.ok", OUTCOME, FAT,                                         \
	  "notify_change -> fat_setattr: setattr_prepare, the option-id and mode checks, "        \
	  "setattr_copy")

/* What a world needs for a vfat rule's outcomes (rule_table.h's VT_RULE_NEEDS). */
#define VT_FAT_RULE_NEEDS(X)                                                                      \
	X(FAT, "the filesystem is not vfat")                                                      \
	X(FAT_LACKS, "asked only on vfat, which lacks the operation")

#endif
