/* The model's rules for owners from mount options (lib/model/optowner_rules.c)
 * on vfat, and where msdos and exfat differ, against rules stated by
 * hand from the 6.12 sources: owners and modes come from the mount's
 * uid=/gid=/masks (fat_fill_inode, fat_make_mode), fat_setattr keeps the
 * option ids (compared after from_vfsuid through the mount), the masks
 * decide chmod (fat_sanitize_mode, FAT_VALID_MODE), allow_utime lets
 * non-owners set times (fat_allow_set_time), quiet hides refusals, and
 * vfat lacks ->symlink, ->mknod, ->link, ->tmpfile and xattr handlers.
 * Each row names the kernel function; the check is the model's errno, its
 * deciding rule (by slug) and, on success, the resulting mode and owner.
 * exfat (exfat_setattr, exfat_make_mode, exfat_mode_can_hold_ro) has no
 * quiet and no rodir; msdos_rename and exfat_rename refuse
 * RENAME_EXCHANGE, which vfat_rename2 does.
 * Pure: no system calls, no vfat needed. */
#include "model/optowner_model.h"
#include "unit.h"
#include "unit_model.h"
#include "util/errname.h"
#include "world/xattr_view.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define NONE 0xffffffffu
#define ALL (~0ULL)

/* The mount options of the rows' worlds. */
static const struct vt_optowner_opts opts[] = {
#define U1000_M022 0
	{ .fs_uid = { 1000 }, .fs_gid = { 1000 }, .fs_fmask = 022, .fs_dmask = 022, .allow_utime = 0 },
#define U1000_G1001_M000 1
	{ .fs_uid = { 1000 }, .fs_gid = { 1001 }, .fs_fmask = 0, .fs_dmask = 0, .allow_utime = 022 },
#define U1001_M002 2
	{ .fs_uid = { 1001 }, .fs_gid = { 1001 }, .fs_fmask = 002, .fs_dmask = 002, .allow_utime = 020 },
#define U0_M077 3
	{ .fs_uid = { 0 }, .fs_gid = { 0 }, .fs_fmask = 077, .fs_dmask = 077, .allow_utime = 0 },
#define U1000_M022_QUIET 4
	{ .fs_uid = { 1000 }, .fs_gid = { 1000 }, .fs_fmask = 022, .fs_dmask = 022, .allow_utime = 0,
	  .quiet = true },
#define U70000_M022 5
	{ .fs_uid = { 70000 }, .fs_gid = { 70000 }, .fs_fmask = 022, .fs_dmask = 022, .allow_utime = 0 },
#define U1000_M022_UTIME02 6
	{ .fs_uid = { 1000 }, .fs_gid = { 1000 }, .fs_fmask = 022, .fs_dmask = 022, .allow_utime = 02 },
#define U1000_F133_D022 7
	{ .fs_uid = { 1000 }, .fs_gid = { 1000 }, .fs_fmask = 0133, .fs_dmask = 022, .allow_utime = 0 },
#define U0_F077_D022 8
	{ .fs_uid = { 0 }, .fs_gid = { 0 }, .fs_fmask = 077, .fs_dmask = 022, .allow_utime = 0 },
#define U1000_M022_RODIR 9
	{ .fs_uid = { 1000 }, .fs_gid = { 1000 }, .fs_fmask = 022, .fs_dmask = 022, .allow_utime = 0,
	  .rodir = true },
#define U1000_M022_SYSIMM 10
	{ .fs_uid = { 1000 }, .fs_gid = { 1000 }, .fs_fmask = 022, .fs_dmask = 022, .allow_utime = 0,
	  .sys_immutable = true },
};

struct row {
	const char *name;	/* what the row states */
	const char *rule;	/* the kernel function */
	int opts;
	const char *map;	/* mount idmap, NULL: the plain mount */
	uint32_t uid, gid, group;	/* the caller (initial namespace); group: NONE or one */
	uint64_t caps;
	char obj;		/* P/o: 0 none, 'f' file, 'r' file with ATTR_RO, 'd' directory */
	struct vt_mop_args op;
	int want_err;
	const char *want_slug;	/* the deciding rule, NULL: not checked */
	mode_t want_mode;	/* on success, 0: not checked */
	uint32_t want_uid, want_seen_uid;	/* on success, NONE: not checked */
	char fs;		/* 0: vfat, 'm': msdos, 'x': exfat */
	char other;		/* P/t: 0 none, 'f' file, 'd' directory */
};

#define OP(...) ((struct vt_mop_args){ __VA_ARGS__ })
#define SHIFT "b:0:10000:65536"
#define SINGLE "b:1000:2000:1"
#define SWAP "b:0:0:1000,b:1000:1001:1,b:1001:1000:1,b:1002:1002:64534"
#define ANY .want_mode = 0, .want_uid = NONE, .want_seen_uid = NONE

static const struct row rows[] = {
	/* --- new inodes: fat_fill_inode --- */
	{ "open(O_CREAT) by 1001: owner from uid=/gid=, mode 0777 & ~fmask, the mode argument unused",
	  "vfat_create -> fat_build_inode -> fat_fill_inode", U1000_G1001_M000, NULL, 1001, 1001,
	  NONE, 0, 0, OP(.op = VT_OP_OPEN_CREAT, .mode = 0600), 0, "fat_fill_inode.owner-and-mode-from-options",
	  .want_mode = S_IFREG | 0777, .want_uid = 1000, .want_seen_uid = 1000 },
	{ "mkdir: mode 0777 & ~dmask, owner seen through the mount", "vfat_mkdir -> fat_fill_inode",
	  U1000_M022, SINGLE, 2000, 2000, NONE, 0, 0, OP(.op = VT_OP_MKDIR, .mode = 0700), 0,
	  "fat_fill_inode.owner-and-mode-from-options", .want_mode = S_IFDIR | 0755, .want_uid = 1000,
	  .want_seen_uid = 2000 },
	{ "a caller the mount cannot map gets EOVERFLOW, not the fs's answer", "may_o_create: fsuidgid_has_mapping",
	  U1000_G1001_M000, SINGLE, 0, 0, NONE, ALL, 0, OP(.op = VT_OP_SYMLINK), EOVERFLOW,
	  "may_create.fsuidgid_has_mapping", ANY },
	{ "symlink: EPERM", "vfs_symlink: !dir->i_op->symlink", U1000_M022, NULL, 0, 0, NONE, ALL, 0,
	  OP(.op = VT_OP_SYMLINK), EPERM, "vfs_symlink.no-i_op-symlink", ANY },
	{ "mkfifo: EPERM", "vfs_mknod: !dir->i_op->mknod", U1000_M022, NULL, 0, 0, NONE, ALL, 0,
	  OP(.op = VT_OP_MKFIFO, .mode = 0644), EPERM, "vfs_mknod.no-i_op-mknod", ANY },
	{ "mknod(chr) without CAP_MKNOD: capable() refuses first", "vfs_mknod: capable(CAP_MKNOD) before ->mknod",
	  U1000_G1001_M000, NULL, 1000, 1000, NONE, 0, 0, OP(.op = VT_OP_MKNOD_CHR, .mode = 0644), EPERM,
	  "vfs_mknod.capable-cap_mknod", ANY },
	{ "O_TMPFILE without write permission on P: EACCES before EOPNOTSUPP", "vfs_tmpfile: inode_permission before ->tmpfile",
	  U1000_M022, NULL, 1001, 1001, NONE, 0, 0, OP(.op = VT_OP_TMPFILE, .mode = 0600), EACCES,
	  NULL, ANY },
	{ "O_TMPFILE by the owner: EOPNOTSUPP", "vfs_tmpfile: !dir->i_op->tmpfile", U1000_M022, NULL,
	  1000, 1000, NONE, 0, 0, OP(.op = VT_OP_TMPFILE, .mode = 0600), EOPNOTSUPP,
	  "vfs_tmpfile.no-i_op-tmpfile", ANY },
	{ "link by root: EPERM", "vfs_link: !dir->i_op->link", U1000_M022, NULL, 0, 0, NONE, ALL, 'f',
	  OP(.op = VT_OP_LINK), EPERM, "vfs_link.no-i_op-link", ANY },
	/* --- chown: setattr_prepare, then the option ids --- */
	{ "root chowns to another id on the plain mount: EPERM", "fat_setattr: ia_vfsuid != fs_uid",
	  U1000_M022, NULL, 0, 0, NONE, ALL, 'f', OP(.op = VT_OP_CHOWN, .uid = { 1001 }, .gid = { NONE }),
	  EPERM, "fat_setattr.uid-is-fs_uid", ANY },
	{ "root chowns to the owner it sees through b:1000:2000:1: from_vfsuid gives uid= back",
	  "fat_setattr: from_vfsuid(idmap, 2000) == fs_uid 1000", U1000_M022, SINGLE, 0, 0, NONE, ALL,
	  'f', OP(.op = VT_OP_CHOWN, .uid = { 2000 }, .gid = { NONE }), 0, "fat_setattr.ok",
	  .want_mode = S_IFREG | 0755, .want_uid = 1000, .want_seen_uid = 2000 },
	{ "the same chown through the plain mount's id: EOVERFLOW before the fs", "notify_change: vfsuid_has_fsmapping",
	  U1000_M022, SINGLE, 0, 0, NONE, ALL, 'f', OP(.op = VT_OP_CHOWN, .uid = { 1000 }, .gid = { NONE }),
	  EOVERFLOW, "notify_change.vfsuid_has_fsmapping", ANY },
	{ "the owner through the mount chowns to itself", "chown_ok: no-op; fat_setattr: fs_uid",
	  U1000_M022, SINGLE, 2000, 2000, NONE, 0, 'f', OP(.op = VT_OP_CHOWN, .uid = { 2000 }, .gid = { NONE }),
	  0, "fat_setattr.ok", .want_mode = 0, .want_uid = 1000, .want_seen_uid = 2000 },
	{ "the owner chowns to another mapped id: chown_ok refuses", "setattr_prepare: chown_ok",
	  U1000_M022, SHIFT, 11000, 11000, NONE, 0, 'f', OP(.op = VT_OP_CHOWN, .uid = { 11001 }, .gid = { NONE }),
	  EPERM, "setattr_prepare.chown_ok", ANY },
	{ "with quiet the same chown returns 0 and changes nothing", "fat_setattr: sbi->options.quiet",
	  U1000_M022_QUIET, SHIFT, 11000, 11000, NONE, 0, 'f',
	  OP(.op = VT_OP_CHOWN, .uid = { 11001 }, .gid = { NONE }), 0, "fat_setattr.quiet",
	  .want_mode = S_IFREG | 0755, .want_uid = 1000, .want_seen_uid = 11000 },
	{ "the owner chgrps to its supplementary group: chgrp_ok allows, fat_setattr refuses",
	  "chgrp_ok: vfsgid_in_group_p; fat_setattr: ia_vfsgid != fs_gid", U1000_M022, SHIFT, 11000,
	  11000, 11001, 0, 'f', OP(.op = VT_OP_CHOWN, .uid = { NONE }, .gid = { 11001 }), EPERM,
	  "fat_setattr.gid-is-fs_gid", ANY },
	{ "chown of an inode whose owner the mount cannot map: EOVERFLOW", "notify_change: !vfsgid_valid(i_gid_into_vfsgid)",
	  U70000_M022, SHIFT, 0, 0, NONE, ALL, 'f', OP(.op = VT_OP_CHOWN, .uid = { 10000 }, .gid = { NONE }),
	  EOVERFLOW, "notify_change.inode-gid-unmapped", ANY },
	/* --- chmod: FAT_VALID_MODE and fat_sanitize_mode --- */
	{ "chmod 0555 clears the w bits (ATTR_RO)", "fat_sanitize_mode: w bits none",
	  U1000_M022, NULL, 1000, 1000, NONE, 0, 'f', OP(.op = VT_OP_CHMOD, .mode = 0555), 0,
	  "fat_setattr.ok", .want_mode = S_IFREG | 0555, .want_uid = NONE, .want_seen_uid = NONE },
	{ "chmod 0777 on an ATTR_RO file gives back the w bits the fmask allows", "fat_sanitize_mode: perm & ~mask",
	  U1000_M022, NULL, 1000, 1000, NONE, 0, 'r', OP(.op = VT_OP_CHMOD, .mode = 0777), 0,
	  "fat_setattr.ok", .want_mode = S_IFREG | 0755, .want_uid = NONE, .want_seen_uid = NONE },
	{ "chmod 0644 would change the x bits: dropped, yet 0", "fat_sanitize_mode: r/x bits must stay",
	  U1000_M022, NULL, 1000, 1000, NONE, 0, 'f', OP(.op = VT_OP_CHMOD, .mode = 0644), 0,
	  "fat_setattr.ok", .want_mode = S_IFREG | 0755, .want_uid = NONE, .want_seen_uid = NONE },
	{ "chmod 0444 with fmask 0133: the w bit goes", "fat_sanitize_mode", U1000_F133_D022, NULL,
	  1000, 1000, NONE, 0, 'f', OP(.op = VT_OP_CHMOD, .mode = 0444), 0, "fat_setattr.ok",
	  .want_mode = S_IFREG | 0444, .want_uid = NONE, .want_seen_uid = NONE },
	{ "chmod of a directory cannot clear its w bits without rodir", "fat_mode_can_hold_ro: !rodir",
	  U1000_M022, NULL, 1000, 1000, NONE, 0, 'd', OP(.op = VT_OP_CHMOD, .mode = 0555), 0,
	  "fat_setattr.ok", .want_mode = S_IFDIR | 0755, .want_uid = NONE, .want_seen_uid = NONE },
	{ "chmod 04755: EPERM", "fat_setattr: ia_mode & ~FAT_VALID_MODE", U1000_M022, NULL, 1000, 1000,
	  NONE, 0, 'f', OP(.op = VT_OP_CHMOD, .mode = 04755), EPERM, "fat_setattr.fat_valid_mode", ANY },
	{ "chmod 01777 of a directory: EPERM", "fat_setattr: S_ISVTX", U1000_M022, NULL, 1000, 1000,
	  NONE, 0, 'd', OP(.op = VT_OP_CHMOD, .mode = 01755), EPERM, "fat_setattr.fat_valid_mode", ANY },
	{ "chmod 02755 by an owner outside the group: setattr_prepare strips S_ISGID first, then 0",
	  "setattr_prepare: !in_group_or_capable -> ia_mode &= ~S_ISGID", U1000_G1001_M000, NULL, 1000,
	  1000, NONE, 0, 'f', OP(.op = VT_OP_CHMOD, .mode = 02777), 0, "fat_setattr.ok",
	  .want_mode = S_IFREG | 0777, .want_uid = NONE, .want_seen_uid = NONE },
	{ "chmod 02755 by root keeps S_ISGID for fat_setattr: EPERM", "setattr_prepare: capable; FAT_VALID_MODE",
	  U1000_G1001_M000, NULL, 0, 0, NONE, ALL, 'f', OP(.op = VT_OP_CHMOD, .mode = 02777), EPERM,
	  "fat_setattr.fat_valid_mode", ANY },
	{ "chmod by a non-owner: EPERM", "setattr_prepare: inode_owner_or_capable", U1000_M022, NULL,
	  1001, 1001, NONE, 0, 'f', OP(.op = VT_OP_CHMOD, .mode = 0555), EPERM, "setattr_prepare.mode-owner", ANY },
	{ "chmod by a non-owner with quiet: 0, mode unchanged", "fat_setattr: quiet", U1000_M022_QUIET,
	  NULL, 1001, 1001, NONE, 0, 'f', OP(.op = VT_OP_CHMOD, .mode = 0555), 0, "fat_setattr.quiet",
	  .want_mode = S_IFREG | 0755, .want_uid = NONE, .want_seen_uid = NONE },
	/* --- times: fat_allow_set_time --- */
	{ "explicit times by a group member with allow_utime 020", "fat_allow_set_time: allow_utime >> 3 & MAY_WRITE",
	  U1001_M002, NULL, 1000, 1000, 1001, 0, 'f', OP(.op = VT_OP_UTIMENS_SET), 0, "fat_setattr.ok", ANY },
	{ "explicit times by a group member with allow_utime 0: EPERM", "setattr_prepare: inode_owner_or_capable",
	  U1000_M022, NULL, 1001, 1001, 1000, 0, 'f', OP(.op = VT_OP_UTIMENS_SET), EPERM,
	  "setattr_prepare.times-owner", ANY },
	{ "explicit times by another user with allow_utime 02", "fat_allow_set_time: other class",
	  U1000_M022_UTIME02, NULL, 1001, 1001, NONE, 0, 'f', OP(.op = VT_OP_UTIMENS_SET), 0,
	  "fat_setattr.ok", ANY },
	{ "utimensat(NULL) by another user still needs write permission", "may_setattr: ATTR_TOUCH",
	  U1000_M022_UTIME02, NULL, 1001, 1001, NONE, 0, 'f', OP(.op = VT_OP_UTIMENS_NOW), EACCES,
	  "may_setattr.touch-write", ANY },
	{ "truncate by the owner", "do_truncate -> fat_setattr", U1000_M022, SHIFT, 11000, 11000, NONE,
	  0, 'f', OP(.op = VT_OP_TRUNCATE), 0, "fat_setattr.ok", .want_mode = S_IFREG | 0755,
	  .want_uid = 1000, .want_seen_uid = 11000 },
	/* --- xattrs and ACLs --- */
	{ "user.* set by the owner: EOPNOTSUPP", "__vfs_setxattr_noperm: no IOP_XATTR", U1000_M022, NULL,
	  1000, 1000, NONE, 0, 'f', OP(.op = VT_OP_XATTR_SET_USER), EOPNOTSUPP,
	  "xattr_resolve_name.no-IOP_XATTR", ANY },
	{ "user.* read without read permission: EACCES first", "xattr_permission: inode_permission",
	  U0_F077_D022, NULL, 1000, 1000, NONE, 0, 'f', OP(.op = VT_OP_XATTR_GET_USER), EACCES, NULL, ANY },
	{ "trusted.* read by a user: ENODATA first", "xattr_permission: capable(CAP_SYS_ADMIN)",
	  U1000_M022, NULL, 1000, 1000, NONE, 0, 'f', OP(.op = VT_OP_XATTR_GET_TRUSTED), ENODATA,
	  "xattr_permission.trusted-capable-cap_sys_admin", ANY },
	{ "security.capability set by root: EOPNOTSUPP", "cap_convert_nscap, then no handler",
	  U1000_M022, NULL, 0, 0, NONE, ALL, 'f', OP(.op = VT_OP_FCAPS_SET, .fcaps = { 3, { 0 } }),
	  EOPNOTSUPP, "xattr_resolve_name.no-IOP_XATTR", ANY },
	{ "security.capability set by a user: EPERM first", "cap_convert_nscap: capable_wrt_inode_uidgid(CAP_SETFCAP)",
	  U1000_M022, NULL, 1000, 1000, NONE, 0, 'f', OP(.op = VT_OP_FCAPS_SET, .fcaps = { 3, { 0 } }),
	  EPERM, "cap_convert_nscap.capable_wrt_inode_uidgid-cap_setfcap", ANY },
	{ "security.capability read: EOPNOTSUPP", "cap_inode_getsecurity -> vfs_getxattr_alloc",
	  U1000_M022, NULL, 1000, 1000, NONE, 0, 'f', OP(.op = VT_OP_FCAPS_GET), EOPNOTSUPP,
	  "xattr_resolve_name.no-IOP_XATTR", ANY },
	{ "POSIX ACL set: EOPNOTSUPP", "set_posix_acl: !IS_POSIXACL", U1000_M022, NULL, 1000, 1000,
	  NONE, 0, 'f', OP(.op = VT_OP_ACL_SET), EOPNOTSUPP, "set_posix_acl.not-posixacl", ANY },
	/* --- lookup, permission, delete --- */
	{ "a 0700 root (umask=077) stops others at the lookup of P", "may_lookup on fat_read_root's inode",
	  U0_M077, NULL, 1000, 1000, NONE, 0, 'f', OP(.op = VT_OP_OPEN_READ), EACCES,
	  "may_lookup.parent-exec", ANY },
	{ "unlink by a non-owner of a 0755 directory: EACCES", "may_delete: inode_permission(dir)",
	  U1000_M022, NULL, 1001, 1001, NONE, 0, 'f', OP(.op = VT_OP_UNLINK), EACCES, NULL, ANY },
	{ "unlink of a victim owned by an id the mount cannot map: EOVERFLOW", "may_delete: HAS_UNMAPPED_ID",
	  U70000_M022, SHIFT, 0, 0, NONE, ALL, 'f', OP(.op = VT_OP_UNLINK), EOVERFLOW,
	  "may_delete.unmapped-victim", ANY },
	{ "write-open of an inode with an unmapped owner: EACCES even for root", "inode_permission: HAS_UNMAPPED_ID",
	  U70000_M022, SHIFT, 0, 0, NONE, ALL, 'f', OP(.op = VT_OP_OPEN_WRITE), EACCES,
	  "inode_permission.unmapped-id", ANY },
	{ "the option owner through a swap map is seen swapped", "i_uid_into_vfsuid + generic_fillattr",
	  U1001_M002, SWAP, 1000, 1000, NONE, 0, 'f', OP(.op = VT_OP_OPEN_WRITE), 0, NULL,
	  .want_mode = S_IFREG | 0775, .want_uid = 1001, .want_seen_uid = 1000 },
	{ "rename by the owner through the mount", "may_delete + may_create", U1000_M022, SINGLE, 2000,
	  2000, NONE, 0, 'f', OP(.op = VT_OP_RENAME), 0, "rename.ok", .want_mode = S_IFREG | 0755,
	  .want_uid = 1000, .want_seen_uid = 2000 },
	/* --- rename flags: vfat_rename2, msdos_rename, exfat_rename --- */
	{ "vfat: RENAME_EXCHANGE by the owner", "vfat_rename2: RENAME_EXCHANGE taken", U1000_M022, NULL,
	  1000, 1000, NONE, 0, 'f', OP(.op = VT_OP_RENAME_EXCHANGE, .to_other = true), 0, "rename.ok",
	  ANY, .other = 'd' },
	{ "msdos: RENAME_EXCHANGE by the owner: EINVAL after the permission checks",
	  "msdos_rename: flags & ~RENAME_NOREPLACE", U1000_M022, NULL, 1000, 1000, NONE, 0, 'f',
	  OP(.op = VT_OP_RENAME_EXCHANGE, .to_other = true), EINVAL, "rename.fs-rename-flags", ANY,
	  .fs = 'm', .other = 'd' },
	{ "exfat: RENAME_EXCHANGE by a non-owner: EACCES first (may_delete)",
	  "vfs_rename: may_delete before ->rename", U1000_M022, NULL, 1001, 1001, NONE, 0, 'f',
	  OP(.op = VT_OP_RENAME_EXCHANGE, .to_other = true), EACCES, NULL, ANY, .fs = 'x',
	  .other = 'd' },
	{ "exfat: RENAME_EXCHANGE by the owner: EINVAL", "exfat_rename: flags & ~RENAME_NOREPLACE",
	  U1000_M022, NULL, 1000, 1000, NONE, 0, 'f', OP(.op = VT_OP_RENAME_EXCHANGE, .to_other = true),
	  EINVAL, "rename.fs-rename-flags", ANY, .fs = 'x', .other = 'd' },
	{ "exfat: RENAME_NOREPLACE to a new name", "exfat_rename: RENAME_NOREPLACE taken", U1000_M022,
	  NULL, 1000, 1000, NONE, 0, 'f', OP(.op = VT_OP_RENAME_NOREPLACE), 0, "rename.ok", ANY,
	  .fs = 'x' },
	/* --- exfat_setattr: the same id checks, no quiet, no rodir --- */
	{ "exfat: root chowns to another id: EPERM", "exfat_setattr: from_vfsuid != fs_uid", U1000_M022,
	  NULL, 0, 0, NONE, ALL, 'f', OP(.op = VT_OP_CHOWN, .uid = { 1001 }, .gid = { NONE }), EPERM,
	  "fat_setattr.uid-is-fs_uid", ANY, .fs = 'x' },
	{ "exfat: chown to the option id through a single map", "exfat_setattr: from_vfsuid(idmap, 2000)",
	  U1000_M022, SINGLE, 0, 0, NONE, ALL, 'f',
	  OP(.op = VT_OP_CHOWN, .uid = { 2000 }, .gid = { NONE }), 0, "fat_setattr.ok",
	  .want_mode = 0, .want_uid = 1000, .want_seen_uid = 2000, .fs = 'x' },
	{ "exfat: a refusal is a refusal whatever quiet says (no such option)",
	  "exfat_setattr: error returned, exfat_param_specs has no quiet", U1000_M022_QUIET, NULL, 1001,
	  1001, NONE, 0, 'f', OP(.op = VT_OP_CHMOD, .mode = 0555), EPERM, "setattr_prepare.mode-owner",
	  ANY, .fs = 'x' },
	{ "fat with rodir: chmod 0555 of a directory clears its w bits", "fat_mode_can_hold_ro: rodir",
	  U1000_M022_RODIR, NULL, 1000, 1000, NONE, 0, 'd', OP(.op = VT_OP_CHMOD, .mode = 0555), 0,
	  "fat_setattr.ok", .want_mode = S_IFDIR | 0555, .want_uid = NONE, .want_seen_uid = NONE },
	{ "exfat: chmod 0555 of a directory is dropped, yet 0", "exfat_mode_can_hold_ro: S_ISDIR -> 0",
	  U1000_M022_RODIR, NULL, 1000, 1000, NONE, 0, 'd', OP(.op = VT_OP_CHMOD, .mode = 0555), 0,
	  "fat_setattr.ok", .want_mode = S_IFDIR | 0755, .want_uid = NONE, .want_seen_uid = NONE,
	  .fs = 'x' },
	{ "exfat: chmod 0444 of a file with fmask 0133 clears the w bit", "exfat_sanitize_mode",
	  U1000_F133_D022, NULL, 1000, 1000, NONE, 0, 'f', OP(.op = VT_OP_CHMOD, .mode = 0444), 0,
	  "fat_setattr.ok", .want_mode = S_IFREG | 0444, .want_uid = NONE, .want_seen_uid = NONE,
	  .fs = 'x' },
	{ "exfat: chmod 02777 by root: EPERM", "exfat_setattr: ia_mode & ~(S_IFREG|S_IFLNK|S_IFDIR|0777)",
	  U1000_G1001_M000, NULL, 0, 0, NONE, ALL, 'f', OP(.op = VT_OP_CHMOD, .mode = 02777), EPERM,
	  "fat_setattr.fat_valid_mode", ANY, .fs = 'x' },
	{ "exfat: explicit times by another user with allow_utime 02", "exfat_allow_set_time: other class",
	  U1000_M022_UTIME02, NULL, 1001, 1001, NONE, 0, 'f', OP(.op = VT_OP_UTIMENS_SET), 0,
	  "fat_setattr.ok", ANY, .fs = 'x' },
	{ "exfat: mkdir: owner and mode from the options", "exfat_mkdir -> exfat_build_inode -> exfat_fill_inode",
	  U1000_G1001_M000, NULL, 1001, 1001, NONE, 0, 0, OP(.op = VT_OP_MKDIR, .mode = 0700), 0,
	  "fat_fill_inode.owner-and-mode-from-options", .want_mode = S_IFDIR | 0777, .want_uid = 1000,
	  .want_seen_uid = 1000, .fs = 'x' },
	{ "exfat: symlink: EPERM (no ->symlink)", "exfat_dir_inode_operations; vfs_symlink", U1000_M022,
	  NULL, 1000, 1000, NONE, 0, 0, OP(.op = VT_OP_SYMLINK), EPERM, "vfs_symlink.no-i_op-symlink",
	  ANY, .fs = 'x' },
	/* --- security.* but security.capability: cap_inode_setxattr and
	 * cap_inode_removexattr decide before the missing handler --- */
	{ "setxattr(security.vt) by the owner 1000: EPERM, not EOPNOTSUPP",
	  "security_inode_setxattr -> cap_inode_setxattr: !ns_capable(s_user_ns, CAP_SYS_ADMIN)",
	  U1000_M022, NULL, 1000, 1000, NONE, 0, 'f', OP(.op = VT_OP_XATTR_SET_SECURITY), EPERM,
	  "cap_inode_setxattr.ns_capable-s_user_ns-cap_sys_admin", ANY },
	{ "setxattr(security.vt) by root: EOPNOTSUPP (no IOP_XATTR)",
	  "cap_inode_setxattr passes; __vfs_setxattr_noperm: no handler", U1000_M022, SHIFT, 0, 0, NONE,
	  ALL, 'f', OP(.op = VT_OP_XATTR_SET_SECURITY), EOPNOTSUPP, "xattr_resolve_name.no-IOP_XATTR", ANY },
	{ "removexattr(security.vt) by the owner 1000: EPERM",
	  "cap_inode_removexattr: !ns_capable(s_user_ns, CAP_SYS_ADMIN)", U1000_M022, NULL, 1000, 1000,
	  NONE, 0, 'f', OP(.op = VT_OP_XATTR_REMOVE_SECURITY), EPERM,
	  "cap_inode_removexattr.ns_capable-s_user_ns-cap_sys_admin", ANY },
	{ "getxattr(security.vt) by 1001: EOPNOTSUPP (nothing asked, then no handler)",
	  "vfs_getxattr: cap_inode_getsecurity EOPNOTSUPP -> __vfs_getxattr: no IOP_XATTR", U1000_M022,
	  NULL, 1001, 1001, NONE, 0, 'f', OP(.op = VT_OP_XATTR_GET_SECURITY), EOPNOTSUPP,
	  "xattr_resolve_name.no-IOP_XATTR", ANY },
	/* --- FAT_IOCTL_SET_ATTRIBUTES: fat_ioctl_set_attributes builds ia_mode
	 * = fat_make_mode(attr, S_IRUGO|S_IWUGO|(i_mode & S_IXUGO)) (a
	 * directory: S_IRWXUGO) and calls fat_setattr(file_mnt_idmap(file)) --- */
	{ "ATTR_RO by the owner 1000 on the plain mount: 0777 & ~022 less the w bits",
	  "fat_ioctl_set_attributes: fat_make_mode(ATTR_RO); fat_setattr: setattr_prepare, fat_sanitize_mode",
	  U1000_M022, NULL, 1000, 1000, NONE, 0, 'f', OP(.op = VT_OP_FAT_SET_ATTRS, .fat_attr = 0x01), 0,
	  "fat_setattr.ok", .want_mode = S_IFREG | 0555, .want_uid = NONE, .want_seen_uid = NONE },
	{ "ATTR_RO by 11000 through SHIFT: uid= 1000 is 11000 there, the owner",
	  "fat_setattr(file_mnt_idmap) -> setattr_prepare: inode_owner_or_capable(idmap)", U1000_M022,
	  SHIFT, 11000, 11000, NONE, 0, 'f', OP(.op = VT_OP_FAT_SET_ATTRS, .fat_attr = 0x01), 0,
	  "fat_setattr.ok", .want_mode = S_IFREG | 0555, .want_uid = NONE, .want_seen_uid = NONE },
	{ "ATTR_RO by 1000 through SHIFT: not the owner there (11000): EPERM",
	  "setattr_prepare: ATTR_MODE, !inode_owner_or_capable(idmap)", U1000_M022, SHIFT, 1000, 1000,
	  NONE, 0, 'f', OP(.op = VT_OP_FAT_SET_ATTRS, .fat_attr = 0x01), EPERM,
	  "setattr_prepare.mode-owner", ANY },
	{ "the same with quiet: 0, the mode unchanged",
	  "fat_setattr: setattr_prepare's error and options.quiet -> 0 before setattr_copy",
	  U1000_M022_QUIET, SHIFT, 1000, 1000, NONE, 0, 'f',
	  OP(.op = VT_OP_FAT_SET_ATTRS, .fat_attr = 0x01), 0, "fat_setattr.quiet",
	  .want_mode = S_IFREG | 0755, .want_uid = NONE, .want_seen_uid = NONE },
	{ "ATTR_ARCH alone on an ATTR_RO file by the owner: the w bits the fmask allows come back",
	  "fat_make_mode(ATTR_ARCH, 0666 | 0111) & ~fmask", U1000_M022, NULL, 1000, 1000, NONE, 0, 'r',
	  OP(.op = VT_OP_FAT_SET_ATTRS, .fat_attr = 0x20), 0, "fat_setattr.ok",
	  .want_mode = S_IFREG | 0755, .want_uid = NONE, .want_seen_uid = NONE },
	{ "ATTR_RO on a directory without rodir: the mode keeps its w bits",
	  "fat_make_mode: ATTR_RO ignored for ATTR_DIR without rodir", U1000_M022, NULL, 1000, 1000, NONE,
	  0, 'd', OP(.op = VT_OP_FAT_SET_ATTRS, .fat_attr = 0x01), 0, "fat_setattr.ok",
	  .want_mode = S_IFDIR | 0755, .want_uid = NONE, .want_seen_uid = NONE },
	{ "ATTR_RO on a directory with rodir: w bits off",
	  "fat_make_mode: rodir; fat_mode_can_hold_ro", U1000_M022_RODIR, NULL, 1000, 1000, NONE, 0, 'd',
	  OP(.op = VT_OP_FAT_SET_ATTRS, .fat_attr = 0x01), 0, "fat_setattr.ok",
	  .want_mode = S_IFDIR | 0555, .want_uid = NONE, .want_seen_uid = NONE },
	{ "ATTR_SYS by the owner without sys_immutable: no capability asked",
	  "fat_ioctl_set_attributes: the CAP_LINUX_IMMUTABLE test needs options.sys_immutable",
	  U1000_M022, NULL, 1000, 1000, NONE, 0, 'f', OP(.op = VT_OP_FAT_SET_ATTRS, .fat_attr = 0x04), 0,
	  "fat_setattr.ok", .want_mode = S_IFREG | 0755, .want_uid = NONE, .want_seen_uid = NONE },
	{ "ATTR_SYS by the owner with sys_immutable, without CAP_LINUX_IMMUTABLE: EPERM",
	  "fat_ioctl_set_attributes: sys_immutable && (attr | oldattr) & ATTR_SYS && !capable",
	  U1000_M022_SYSIMM, NULL, 1000, 1000, NONE, 0, 'f',
	  OP(.op = VT_OP_FAT_SET_ATTRS, .fat_attr = 0x04), EPERM,
	  "fat_ioctl_set_attributes.attr_sys-capable-cap_linux_immutable", ANY },
	{ "exfat: EXFAT_ATTR_SYSTEM by the owner without CAP_LINUX_IMMUTABLE: EPERM (no option needed)",
	  "exfat_ioctl_set_attributes: (attr | oldattr) & EXFAT_ATTR_SYSTEM && !capable",
	  U1000_M022, NULL, 1000, 1000, NONE, 0, 'f', OP(.op = VT_OP_FAT_SET_ATTRS, .fat_attr = 0x04),
	  EPERM, "fat_ioctl_set_attributes.attr_sys-capable-cap_linux_immutable", ANY, .fs = 'x' },
	{ "exfat: EXFAT_ATTR_SYSTEM by 1001 holding only CAP_LINUX_IMMUTABLE: then not the owner, EPERM",
	  "exfat_ioctl_set_attributes: capable passes; exfat_setattr: setattr_prepare mode-owner",
	  U1000_M022, NULL, 1001, 1001, NONE, 1ULL << 9, 'f',
	  OP(.op = VT_OP_FAT_SET_ATTRS, .fat_attr = 0x04), EPERM, "setattr_prepare.mode-owner", ANY,
	  .fs = 'x' },
	{ "exfat: ATTR_RO|ATTR_SYS by root through SHIFT: w bits off",
	  "capable(CAP_LINUX_IMMUTABLE); exfat_setattr(idmap): capable_wrt_inode_uidgid(CAP_FOWNER)",
	  U1000_M022, SHIFT, 0, 0, NONE, ALL, 'f', OP(.op = VT_OP_FAT_SET_ATTRS, .fat_attr = 0x05), 0,
	  "fat_setattr.ok", .want_mode = S_IFREG | 0555, .want_uid = NONE, .want_seen_uid = NONE,
	  .fs = 'x' },
};

static struct vt_optowner_opts row_opts(const struct row *r)
{
	struct vt_optowner_opts o = opts[r->opts];

	o.fs = r->fs == 'x' ? &vt_optowner_exfat : r->fs == 'm' ? &vt_optowner_msdos
								: &vt_optowner_vfat;
	return o;
}

static void build(const struct row *r, struct vt_world *w, struct vt_midmap *m, struct vt_mop_args *op,
		  const struct vt_optowner_opts *o)
{
	unit_world(w, m, r->map, &vt_init_ns, r->uid, r->gid, r->group, r->caps);
	w->posixacl = false;	/* fat, exfat: no SB_POSIXACL */
	w->optowner = o;
	w->fs_ops = &vt_optowner_fs_ops;	/* their inode operations (fs_ops.h) */
	w->cred.umask = 022;
	w->dir = vt_optowner_inode(o, true, false);
	if (r->obj)
		w->obj = vt_optowner_inode(o, r->obj == 'd', r->obj == 'r');
	if (r->other)
		w->other = vt_optowner_inode(o, r->other == 'd', false);
	*op = r->op;
	if (op->op == VT_OP_ACL_SET) {
		op->nacl = 3;
		op->acl[0] = (struct vt_acl_centry){ VT_ACL_USER_OBJ, 6, { NONE }, { NONE } };
		op->acl[1] = (struct vt_acl_centry){ VT_ACL_GROUP_OBJ, 4, { NONE }, { NONE } };
		op->acl[2] = (struct vt_acl_centry){ VT_ACL_OTHER, 4, { NONE }, { NONE } };
	}
}

int main(void)
{
	int n = (int)(sizeof(rows) / sizeof(rows[0])), i;

	struct vt_optowner_opts o;

	unit_begin(n + 6);
	for (i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		const char *slug;
		struct vt_world w;
		struct vt_midmap m;
		struct vt_mop_args op;
		struct vt_expect e;
		char name[512];
		bool ok;

		o = row_opts(r);
		build(r, &w, &m, &op, &o);
		vt_model_apply(&w, &op, &e);
		slug = vt_rule_info(e.rule_id)->slug;
		ok = e.err == r->want_err && (!r->want_slug || strcmp(slug, r->want_slug) == 0);
		if (ok && !e.err) {
			if (r->want_mode && e.result.mode != r->want_mode)
				ok = false;
			if (r->want_uid != NONE && e.result.uid.val != r->want_uid)
				ok = false;
			if (r->want_seen_uid != NONE && e.seen_uid.val != r->want_seen_uid)
				ok = false;
		}
		snprintf(name, sizeof(name), "%s [%s]", r->name, r->rule);
		if (!unit_check(ok, name))
			printf("# model: %s (%s) mode %o uid %u gid %u seen %u\n", vt_errname(e.err), slug,
			       (unsigned)e.result.mode, e.result.uid.val, e.result.gid.val, e.seen_uid.val);
	}
	/* fat_fill_super's allow_utime default, and the root's mode */
	unit_check(vt_fat_default_allow_utime(022) == 0 && vt_fat_default_allow_utime(002) == 020 &&
		   vt_fat_default_allow_utime(0) == 022,
		   "allow_utime defaults to ~dmask & (S_IWGRP|S_IWOTH) [fat_fill_super]");
	o = opts[U0_M077];
	o.fs = &vt_optowner_vfat;
	unit_check(vt_optowner_inode(&o, true, false).mode == (S_IFDIR | 0700),
		   "umask=077: directories 0700 [fat_make_mode]");
	o = opts[U1000_M022];
	o.fs = &vt_optowner_vfat;
	unit_check(vt_optowner_inode(&o, false, true).mode == (S_IFREG | 0555),
		   "ATTR_RO: a file loses its w bits [fat_make_mode]");
	o = opts[U1000_M022_RODIR];
	o.fs = &vt_optowner_vfat;
	unit_check(vt_optowner_inode(&o, true, true).mode == (S_IFDIR | 0555),
		   "fat with rodir: ATTR_RO makes a directory read-only [fat_make_mode]");
	o.fs = &vt_optowner_exfat;
	unit_check(vt_optowner_inode(&o, true, true).mode == (S_IFDIR | 0755),
		   "exfat: EXFAT_ATTR_READONLY never clears a directory's w bits [exfat_make_mode]");
	unit_check(vt_optowner_fs("vfat") == &vt_optowner_vfat &&
		   vt_optowner_fs("msdos") == &vt_optowner_msdos &&
		   vt_optowner_fs("exfat") == &vt_optowner_exfat && !vt_optowner_fs("ext4") &&
		   !vt_optowner_fs("tmpfs") && !vt_optowner_fs(NULL),
		   "the filesystem table's mount-option rows pick their operations");
	return unit_end();
}
