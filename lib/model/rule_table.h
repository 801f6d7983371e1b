/* Every decision the model makes, with a stable id (the slug: used in
 * results/rule-coverage.tsv, never renamed; add new ones, retire none
 * silently), its kind, what a filesystem or world must have for each of
 * its two outcomes to be possible, and the kernel function it models.
 *
 * Kinds:
 *   CHECK   a permission or validity check: "allow" lets the operation
 *           go on, "deny" fails it with an errno.
 *   BRANCH  a choice that shapes the result of a successful operation:
 *           "allow" keeps (setgid kept, setuid applied, caps used, ...),
 *           "deny" takes away (stripped, ignored, ...).
 *   OUTCOME the label of a successful operation (no second way).
 *
 * The model records an outcome only where it is final for the case
 * (rules.h: vt_hit), so a CHECK whose deny a capability then overrides
 * records the capability's allow, not its own deny.
 *
 * VT_RULE(ENUM, slug, kind, need, text) */
#ifndef VT_MODEL_RULE_TABLE_H
#define VT_MODEL_RULE_TABLE_H

#include "model/optowner_rule_table.h"

#define VT_RULE_TABLE(X)                                                                          \
	VT_FAT_RULE_TABLE(X) /* optowner_rule_table.h */                                            \
	/* lookup and permission: fs/namei.c, fs/posix_acl.c */                                   \
	X(LOOKUP_NOENT, "lookup.enoent", CHECK, NONE, "lookup: no such name")                    \
	X(MAY_LOOKUP, "may_lookup.parent-exec", CHECK, NONE,                                      \
	  "may_lookup: inode_permission(parent, MAY_EXEC)")                                       \
	X(PERM_UNMAPPED, "inode_permission.unmapped-id", CHECK, NONE,                             \
	  "inode_permission: MAY_WRITE && HAS_UNMAPPED_ID")                                       \
	X(PERM_OWNER, "acl_permission_check.owner-class", CHECK, NONE,                            \
	  "acl_permission_check: owner class (i_uid_into_vfsuid == fsuid)")                       \
	X(PERM_GROUP, "acl_permission_check.group-class", CHECK, NONE,                            \
	  "acl_permission_check: group class (vfsgid_in_group_p(i_gid_into_vfsgid))")             \
	X(PERM_OTHER, "acl_permission_check.other-class", CHECK, NONE,                            \
	  "acl_permission_check: other class")                                                    \
	X(ACLPERM_USER, "posix_acl_permission.acl-user", CHECK, POSIXACL,                         \
	  "posix_acl_permission: ACL_USER (make_vfsuid(e_uid) == fsuid), perm & mask")            \
	X(ACLPERM_GROUP_OBJ, "posix_acl_permission.group-obj", CHECK, POSIXACL,                   \
	  "posix_acl_permission: ACL_GROUP_OBJ (vfsgid_in_group_p(i_gid_into_vfsgid))")           \
	X(ACLPERM_GROUP, "posix_acl_permission.acl-group", CHECK, POSIXACL,                       \
	  "posix_acl_permission: ACL_GROUP (vfsgid_in_group_p(make_vfsgid(e_gid))), perm & mask") \
	X(ACLPERM_OTHER, "posix_acl_permission.other", CHECK, POSIXACL,                           \
	  "posix_acl_permission: ACL_OTHER")                                                      \
	X(DAC_DIR_READ_SEARCH, "generic_permission.dir-cap_dac_read_search", CHECK, NONE,         \
	  "generic_permission: capable_wrt_inode_uidgid(CAP_DAC_READ_SEARCH) on a directory")     \
	X(DAC_DIR_OVERRIDE, "generic_permission.dir-cap_dac_override", CHECK, NONE,               \
	  "generic_permission: capable_wrt_inode_uidgid(CAP_DAC_OVERRIDE) on a directory")        \
	X(DAC_FILE_READ_SEARCH, "generic_permission.file-cap_dac_read_search", CHECK, NONE,       \
	  "generic_permission: capable_wrt_inode_uidgid(CAP_DAC_READ_SEARCH) on a file")          \
	X(DAC_FILE_OVERRIDE, "generic_permission.file-cap_dac_override", CHECK, NONE,             \
	  "generic_permission: capable_wrt_inode_uidgid(CAP_DAC_OVERRIDE) on a file")             \
	X(CAP_SCOPE, "capable_wrt_inode_uidgid.privileged_wrt_inode_uidgid", CHECK, NONE,          \
	  "capable_wrt_inode_uidgid: privileged_wrt_inode_uidgid (inode ids mapped in the "       \
	  "caller's userns)")                                                                     \
	/* creating names: fs/namei.c, fs/inode.c, fs/posix_acl.c */                              \
	X(NAME_EXISTS, "filename_create.exists", CHECK, NONE,                                     \
	  "filename_create/do_open: the name exists")                                             \
	X(CREATE_EOVERFLOW, "may_create.fsuidgid_has_mapping", CHECK, NONE,                       \
	  "may_create: !fsuidgid_has_mapping (caller's fsuid/fsgid not representable)")           \
	X(CREATE_PERM, "may_create.dir-write-exec", CHECK, NONE,                                  \
	  "may_create: inode_permission(dir, MAY_WRITE | MAY_EXEC)")                              \
	X(TMPFILE_EOVERFLOW, "vfs_tmpfile.fsuidgid_has_mapping", CHECK, NONE,                     \
	  "vfs_tmpfile: !fsuidgid_has_mapping (guard absent from 6.6-era vfs_tmpfile)")           \
	X(MKNOD_CAP, "vfs_mknod.capable-cap_mknod", CHECK, NONE,                                  \
	  "vfs_mknod: !capable(CAP_MKNOD) for a character device")                                \
	X(SGID_STRIP_CREATE, "mode_strip_sgid.in_group_or_capable", BRANCH, NONE,                 \
	  "mode_strip_sgid: in_group_or_capable(dir, i_gid_into_vfsgid(dir)) keeps S_ISGID")      \
	X(SGID_INHERIT, "inode_init_owner.setgid-dir", BRANCH, NONE,                              \
	  "inode_init_owner: gid from a setgid parent, else mapped_fsgid()")                      \
	X(DEFAULT_ACL, "posix_acl_create.default-acl", BRANCH, POSIXACL,                          \
	  "posix_acl_create: the parent's default ACL replaces the umask")                        \
	X(CREATE_OK, "create.ok", OUTCOME, NONE,                                                  \
	  "vfs_prepare_mode + inode_init_owner + posix_acl_create")                               \
	X(TMPFILE_OK, "tmpfile.ok", OUTCOME, NONE, "vfs_tmpfile: vfs_prepare_mode + inode_init_owner") \
	X(LINK_UNMAPPED, "may_linkat.unmapped-source", CHECK, NONE,                               \
	  "may_linkat: source has an unmapped owner")                                             \
	X(FOLLOW_PROTECTED, "may_follow_link.protected_symlinks", CHECK, SYMLINKS,                 \
	  "may_follow_link: fs.protected_symlinks, a link in a sticky world-writable directory "  \
	  "owned by neither the follower nor the directory's owner")                              \
	X(STICKY_CREATE_REGULAR, "may_create_in_sticky.protected_regular", CHECK, REGULAR,        \
	  "may_create_in_sticky: fs.protected_regular, O_CREAT of another's file in a sticky "    \
	  "directory")                                                                            \
	X(STICKY_CREATE_FIFO, "may_create_in_sticky.protected_fifos", CHECK, FIFOS,               \
	  "may_create_in_sticky: fs.protected_fifos, O_CREAT of another's fifo in a sticky "      \
	  "directory")                                                                            \
	X(LINK_PROTECTED, "may_linkat.protected_hardlinks", CHECK, HARDLINKS,                     \
	  "may_linkat: protected_hardlinks (safe_hardlink_source || inode_owner_or_capable)")     \
	X(LINK_DIR, "vfs_link.directory", CHECK, NONE, "vfs_link: directory")                     \
	X(LINK_OK, "link.ok", OUTCOME, NONE, "vfs_link")                                          \
	/* attributes: fs/open.c, fs/attr.c, fs/inode.c, fs/namei.c */                            \
	X(CHOWN_UID_EINVAL, "chown_common.uid-unmapped-in-caller-ns", CHECK, NONE,                \
	  "chown_common: uid not mapped in the caller's userns")                                  \
	X(CHOWN_GID_EINVAL, "chown_common.gid-unmapped-in-caller-ns", CHECK, NONE,                \
	  "chown_common: gid not mapped in the caller's userns")                                  \
	X(NC_UID_FSMAPPING, "notify_change.vfsuid_has_fsmapping", CHECK, NONE,                    \
	  "notify_change: !vfsuid_has_fsmapping(ia_vfsuid)")                                      \
	X(NC_GID_FSMAPPING, "notify_change.vfsgid_has_fsmapping", CHECK, NONE,                    \
	  "notify_change: !vfsgid_has_fsmapping(ia_vfsgid)")                                      \
	X(NC_INODE_UID, "notify_change.inode-uid-unmapped", CHECK, NONE,                          \
	  "notify_change: inode uid unmapped in the mount")                                       \
	X(NC_INODE_GID, "notify_change.inode-gid-unmapped", CHECK, NONE,                          \
	  "notify_change: inode gid unmapped in the mount")                                       \
	X(CHOWN_OK, "setattr_prepare.chown_ok", CHECK, NONE, "setattr_prepare: chown_ok")         \
	X(CHGRP_OK, "setattr_prepare.chgrp_ok", CHECK, NONE, "setattr_prepare: chgrp_ok")         \
	X(CHGRP_IN_GROUP, "chgrp_ok.owner-vfsgid_in_group_p", CHECK, NONE,                        \
	  "chgrp_ok: the owner's new group, vfsgid_in_group_p(ia_vfsgid) (168f91289340)")         \
	X(CHOWN_CAP, "chown_ok.capable_wrt_inode_uidgid-cap_chown", CHECK, NONE,                  \
	  "chown_ok/chgrp_ok: capable_wrt_inode_uidgid(CAP_CHOWN)")                               \
	X(MODE_OWNER, "setattr_prepare.mode-owner", CHECK, NONE,                                  \
	  "setattr_prepare: ATTR_MODE needs inode_owner_or_capable")                              \
	X(TIMES_OWNER, "setattr_prepare.times-owner", CHECK, NONE,                                \
	  "setattr_prepare: explicit times need inode_owner_or_capable")                          \
	X(TOUCH_WRITE, "may_setattr.touch-write", CHECK, NONE,                                    \
	  "may_setattr: ATTR_TOUCH, not owner: inode_permission(MAY_WRITE)")                      \
	X(SETATTR_SGID, "setattr_prepare.mode-in_group_or_capable", BRANCH, NONE,                 \
	  "setattr_prepare/setattr_copy: !in_group_or_capable strips S_ISGID")                    \
	X(DROP_SUIDGID, "setattr_should_drop_suidgid.capable-cap_fsetid", BRANCH, NONE,           \
	  "setattr_should_drop_suidgid: capable(CAP_FSETID) keeps S_ISUID/S_ISGID")               \
	X(DROP_SGID, "setattr_should_drop_sgid.in_group_or_capable", BRANCH, NONE,                \
	  "setattr_should_drop_sgid: S_ISGID without S_IXGRP kept if in_group_or_capable")        \
	X(TRUNC_DIR, "vfs_truncate.directory", CHECK, NONE, "vfs_truncate: directory")            \
	X(OPEN_DIR_WRITE, "may_open.directory-write", CHECK, NONE,                                \
	  "may_open: directory opened for writing")                                               \
	X(OPEN_PERM, "may_open.inode_permission", CHECK, NONE, "may_open: inode_permission")      \
	X(SETATTR_OK, "notify_change.ok", OUTCOME, NONE, "notify_change")                         \
	X(REMOVE_PRIVS_OK, "file_remove_privs.ok", OUTCOME, NONE, "file_remove_privs")            \
	X(TRUNCATE_OK, "handle_truncate.ok", OUTCOME, NONE, "handle_truncate")                    \
	/* removing and renaming: fs/namei.c */                                                   \
	X(DEL_UNMAPPED, "may_delete.unmapped-victim", CHECK, NONE,                                \
	  "may_delete: victim's uid/gid unmapped in the mount")                                   \
	X(DEL_PERM, "may_delete.dir-write-exec", CHECK, NONE,                                     \
	  "may_delete: inode_permission(dir, MAY_WRITE | MAY_EXEC)")                              \
	X(STICKY_VICTIM, "check_sticky.victim-owner", CHECK, STICKY,                              \
	  "__check_sticky: i_uid_into_vfsuid(victim) == fsuid")                                   \
	X(STICKY_DIR, "check_sticky.dir-owner", CHECK, STICKY,                                    \
	  "__check_sticky: i_uid_into_vfsuid(dir) == fsuid")                                      \
	X(STICKY_FOWNER, "check_sticky.capable_wrt_inode_uidgid-cap_fowner", CHECK, STICKY,       \
	  "__check_sticky: capable_wrt_inode_uidgid(victim, CAP_FOWNER)")                         \
	X(DEL_NOTDIR, "may_delete.not-a-directory", CHECK, NONE, "may_delete: not a directory")   \
	X(DEL_ISDIR, "may_delete.is-a-directory", CHECK, NONE, "may_delete: is a directory")      \
	X(RENAME_NOREPLACE, "do_renameat2.noreplace-exists", CHECK, NONE,                         \
	  "do_renameat2: RENAME_NOREPLACE onto an existing name")                                 \
	X(RENAME_EXCHANGE, "do_renameat2.exchange-missing", CHECK, NONE,                          \
	  "do_renameat2: RENAME_EXCHANGE with a missing target")                                  \
	X(RENAME_EOVERFLOW, "vfs_rename.may_create-fsuidgid_has_mapping", CHECK, NONE,            \
	  "vfs_rename: may_create: !fsuidgid_has_mapping")                                        \
	X(RENAME_DIR_WRITE, "vfs_rename.new-parent-source-write", CHECK, NONE,                   \
	  "vfs_rename: a directory moved to another parent needs MAY_WRITE on itself ('..')")    \
	X(UNLINK_OK, "unlink.ok", OUTCOME, NONE, "vfs_unlink")                                    \
	X(RMDIR_OK, "rmdir.ok", OUTCOME, NONE, "vfs_rmdir")                                       \
	X(RENAME_OK, "rename.ok", OUTCOME, NONE, "vfs_rename")                                    \
	X(WHITEOUT_OK, "rename.whiteout", OUTCOME, WHITEOUT,                                      \
	  "vfs_rename: RENAME_WHITEOUT leaves a whiteout owned by mapped_fsuid()")                \
	/* extended attributes: fs/xattr.c, fs/posix_acl.c, security/commoncap.c */               \
	X(ACL_UID_EINVAL, "posix_acl_from_xattr.acl-user-unmapped", CHECK, NONE,                  \
	  "posix_acl_from_xattr: ACL_USER id not mapped in the caller's userns")                  \
	X(ACL_GID_EINVAL, "posix_acl_from_xattr.acl-group-unmapped", CHECK, NONE,                 \
	  "posix_acl_from_xattr: ACL_GROUP id not mapped in the caller's userns")                 \
	X(WRITE_XATTR_UNMAPPED, "may_write_xattr.unmapped-id", CHECK, NONE,                       \
	  "may_write_xattr: HAS_UNMAPPED_ID")                                                     \
	X(ACL_SET_NOTSUPP, "set_posix_acl.not-posixacl", CHECK, NOACL_DENY,                       \
	  "set_posix_acl: !IS_POSIXACL")                                                          \
	X(ACL_DEFAULT_NONDIR, "set_posix_acl.default-on-non-directory", CHECK, POSIXACL,          \
	  "set_posix_acl: default ACL on a non-directory")                                        \
	X(ACL_SET_OWNER, "set_posix_acl.inode_owner_or_capable", CHECK, POSIXACL,                 \
	  "set_posix_acl: inode_owner_or_capable")                                                \
	X(ACL_VALID, "set_posix_acl.posix_acl_valid", CHECK, POSIXACL,                            \
	  "set_posix_acl: posix_acl_valid (id not mapped in s_user_ns)")                          \
	X(ACL_UPDATE_SGID, "posix_acl_update_mode.in_group_or_capable", BRANCH, POSIXACL,         \
	  "posix_acl_update_mode: !in_group_or_capable strips S_ISGID")                           \
	X(ACL_SET_OK, "acl-set.ok", OUTCOME, POSIXACL, "vfs_set_acl")                             \
	X(ACL_GET_NOTSUPP, "vfs_get_acl.not-posixacl", CHECK, NOACL_DENY,                         \
	  "vfs_get_acl: !IS_POSIXACL")                                                            \
	X(ACL_GET_NODATA, "vfs_get_acl.no-acl", CHECK, POSIXACL, "vfs_get_acl: no ACL")           \
	X(ACL_GET_ID, "vfs_posix_acl_to_xattr.id-mapped", BRANCH, POSIXACL,                       \
	  "vfs_posix_acl_to_xattr: from_kuid(caller, make_vfsuid(e_id)), -1 if unmapped")         \
	X(FCAPS_SETFCAP, "cap_convert_nscap.capable_wrt_inode_uidgid-cap_setfcap", CHECK, NONE,   \
	  "cap_convert_nscap: capable_wrt_inode_uidgid(CAP_SETFCAP)")                             \
	X(FCAPS_V2_KEPT, "cap_convert_nscap.v2-kept", BRANCH, NONE,                               \
	  "cap_convert_nscap: v2 kept on a plain mount by ns_capable(s_user_ns), else v3")        \
	X(FCAPS_ROOT_CALLER, "cap_convert_nscap.rootid-caller-ns", CHECK, NONE,                   \
	  "cap_convert_nscap: rootid not mapped in the caller's userns")                          \
	X(FCAPS_ROOT_MOUNT, "cap_convert_nscap.rootid-from_vfsuid", CHECK, NONE,                  \
	  "cap_convert_nscap: rootid not mapped through the mount")                               \
	X(FCAPS_ROOT_SB, "cap_convert_nscap.rootid-s_user_ns", CHECK, SB_USERNS,                       \
	  "cap_convert_nscap: rootid not mapped in s_user_ns")                                    \
	X(FCAPS_SET_OK, "fcaps-set.ok", OUTCOME, NONE, "cap_convert_nscap")                       \
	X(FCAPS_GET_NONE, "cap_inode_getsecurity.none", CHECK, NONE,                              \
	  "cap_inode_getsecurity: no security.capability")                                        \
	X(FCAPS_GET_V3, "cap_inode_getsecurity.v3", BRANCH, NONE,                                 \
	  "cap_inode_getsecurity: rootid mapped and not 0 -> v3, else v2")                        \
	X(FCAPS_GET_OWNS, "cap_inode_getsecurity.rootid_owns_currentns", CHECK, NONE,             \
	  "cap_inode_getsecurity: !rootid_owns_currentns")                                        \
	X(FCAPS_RM_SETFCAP, "cap_inode_removexattr.capable_wrt_inode_uidgid-cap_setfcap", CHECK,   \
	  NONE, "cap_inode_removexattr: capable_wrt_inode_uidgid(CAP_SETFCAP)")                   \
	X(FCAPS_RM_NONE, "removexattr.no-fcaps", CHECK, NONE, "removexattr: no security.capability") \
	X(FCAPS_RM_OK, "fcaps-remove.ok", OUTCOME, NONE, "cap_inode_removexattr")                 \
	X(XATTR_TRUSTED, "xattr_permission.trusted-capable-cap_sys_admin", CHECK, NONE,           \
	  "xattr_permission: trusted.* needs capable(CAP_SYS_ADMIN)")                             \
	X(XATTR_USER_TYPE, "xattr_permission.user-file-or-dir", CHECK, NONE,                      \
	  "xattr_permission: user.* only on files and directories")                               \
	X(XATTR_USER_STICKY, "xattr_permission.user-sticky-dir", CHECK, NONE,                     \
	  "xattr_permission: user.* on a sticky directory needs inode_owner_or_capable")          \
	X(XATTR_PERM, "xattr_permission.inode_permission", CHECK, NONE,                           \
	  "xattr_permission: inode_permission")                                                   \
	X(XATTR_SECURITY_SET, "cap_inode_setxattr.ns_capable-s_user_ns-cap_sys_admin", CHECK,    \
	  NONE, "cap_inode_setxattr: security.* but security.capability needs "                 \
	  "ns_capable(s_user_ns, CAP_SYS_ADMIN)")                                                 \
	X(XATTR_SECURITY_RM, "cap_inode_removexattr.ns_capable-s_user_ns-cap_sys_admin", CHECK,  \
	  NONE, "cap_inode_removexattr: security.* but security.capability needs "              \
	  "ns_capable(s_user_ns, CAP_SYS_ADMIN)")                                                 \
	X(XATTR_ABSENT, "xattr.absent", CHECK, NONE, "the attribute does not exist")              \
	X(XATTR_OK, "xattr.ok", OUTCOME, NONE, "xattr_permission")                                \
	/* exec: fs/exec.c, security/commoncap.c */                                               \
	X(EXEC_NONREG, "may_open.exec-non-regular", CHECK, NONE,                                  \
	  "may_open: exec of a non-regular file")                                                 \
	X(EXEC_PERM, "do_open_execat.may_open-exec", CHECK, EXEC,                                 \
	  "do_open_execat: may_open(MAY_EXEC) -> inode_permission")                               \
	X(EXEC_SETID, "bprm_fill_uid.vfsuid_has_mapping", BRANCH, EXEC,                           \
	  "bprm_fill_uid: setuid/setgid used only if the mount-view ids map in the new userns")   \
	X(EXEC_SETGID_XGRP, "bprm_fill_uid.setgid-needs-s_ixgrp", BRANCH, EXEC,                   \
	  "bprm_fill_uid: S_ISGID only together with S_IXGRP")                                    \
	X(EXEC_FCAPS, "get_vfs_caps_from_disk.rootid_owns_currentns", BRANCH, EXEC,               \
	  "get_vfs_caps_from_disk: caps used only if the rootid owns the caller's ns")            \
	X(EXEC_FCAPS_BSET, "bprm_caps_from_vfs_caps.bounding-set", CHECK, EXEC,                   \
	  "bprm_caps_from_vfs_caps: fP not within the bounding set")                              \
	X(EXEC_PRIV_ROOT, "handle_privileged_root.root", BRANCH, EXEC,                            \
	  "handle_privileged_root: root gets the bounding set, except a setuid-root file "        \
	  "with file caps run by non-root")                                                       \
	X(EXEC_OK, "exec.ok", OUTCOME, EXEC, "bprm_fill_uid + cap_bprm_creds_from_file")          \
	X(EXEC_DUMP_READABLE, "would_dump.inode_permission-may_read", BRANCH, EXEC,              \
	  "would_dump: inode_permission(MAY_READ) through the mount; an unreadable binary "      \
	  "makes the process non-dumpable (BINPRM_FLAGS_ENFORCE_NONDUMP)")                        \
	X(EXEC_DUMP_USERNS, "would_dump.privileged_wrt_inode_uidgid", BRANCH, EXEC,              \
	  "would_dump: mm->user_ns stays the caller's namespace only if it is privileged over "  \
	  "the unreadable binary through the mount (privileged_wrt_inode_uidgid), else it "       \
	  "walks up to one that is")                                                              \
	/* one call on an existing name: fs/open.c, fs/namei.c, fs/fcntl.c, fs/locks.c, fs/ioctl.c: \
	 * file_rules.c */                                                                         \
	X(ACCESS_PERM, "do_faccessat.inode_permission", CHECK, FILEOPS,                              \
	  "do_faccessat: inode_permission(mode | MAY_ACCESS) through the mount as "               \
	  "access_override_creds makes the caller (fs ids = real ids, capabilities only for uid 0)") \
	X(CHDIR_NOTDIR, "chdir.not-a-directory", CHECK, FILEOPS,                                      \
	  "chdir: LOOKUP_DIRECTORY / fchdir: !d_can_lookup: ENOTDIR")                             \
	X(CHDIR_PERM, "chdir.path_permission-exec", CHECK, FILEOPS,                                   \
	  "chdir/fchdir: path_permission/file_permission(MAY_EXEC | MAY_CHDIR) through the mount") \
	X(NOATIME_OWNER, "may_open.o_noatime-inode_owner_or_capable", CHECK, FILEOPS,                 \
	  "may_open: O_NOATIME needs inode_owner_or_capable, else EPERM")                        \
	X(SETFL_NOATIME_OWNER, "setfl.o_noatime-inode_owner_or_capable", CHECK, FILEOPS,              \
	  "setfl: F_SETFL O_NOATIME needs inode_owner_or_capable, else EPERM")                   \
	X(LEASE_OWNER, "vfs_setlease.owner-or-cap_lease", CHECK, LEASE,                             \
	  "vfs_setlease: i_uid_into_vfsuid == current_fsuid or capable(CAP_LEASE), else EACCES") \
	X(LEASE_NONREG, "vfs_setlease.not-regular", CHECK, LEASE,                                   \
	  "vfs_setlease: a lease on a non-regular file is EINVAL")                               \
	X(ATIME_UNMAPPED, "atime_needs_update.has_unmapped_id", BRANCH, ATIME,                      \
	  "atime_needs_update: no atime update when the inode's uid or gid has no mapping in "   \
	  "the mount's idmap (HAS_UNMAPPED_ID)")                                                  \
	X(CACHESTAT_PERM, "can_do_cachestat.owner-or-writable", CHECK, CACHESTAT,                   \
	  "can_do_cachestat: an fd open for writing, file_owner_or_capable through the mount, "  \
	  "or write permission through it; else cachestat(2) is EPERM")                           \
	X(DEDUPE_PERM, "may_dedupe_file.owner-or-writable", CHECK, DEDUPE,                            \
	  "may_dedupe_file: capable(CAP_SYS_ADMIN), an fd open for writing, the owner through "  \
	  "the mount (i_uid_into_vfsuid == fsuid) or inode_permission(MAY_WRITE), else EPERM")   \
	X(FILEATTR_OWNER, "vfs_fileattr_set.inode_owner_or_capable", CHECK, FILEATTR,                  \
	  "vfs_fileattr_set: FS_IOC_SETFLAGS/FS_IOC_FSSETXATTR need inode_owner_or_capable, "     \
	  "else EPERM")                                                                          \
	/* FS_IOC_SET_ENCRYPTION_POLICY, fs/crypto/policy.c (file_rules.c); cased by idmapped/007 \
	 * on an ext4 image of its own made with -O encrypt */                                     \
	X(FSCRYPT_OWNER, "fscrypt_ioctl_set_policy.inode_owner_or_capable", CHECK, FSCRYPT,        \
	  "fscrypt_ioctl_set_policy: inode_owner_or_capable(file_mnt_idmap), else EACCES")       \
	X(FSCRYPT_HAS_POLICY, "fscrypt_ioctl_set_policy.policies-differ", CHECK, FSCRYPT,          \
	  "fscrypt_ioctl_set_policy: an inode with a policy takes only the same one again "      \
	  "(fscrypt_policies_equal: 0, nothing written), a different one is EEXIST")             \
	X(FSCRYPT_NOTDIR, "fscrypt_ioctl_set_policy.enotdir", CHECK, FSCRYPT,                      \
	  "fscrypt_ioctl_set_policy: an inode without a policy (-ENODATA) that is not a "        \
	  "directory: ENOTDIR")                                                                   \
	X(FSCRYPT_NOTEMPTY, "fscrypt_ioctl_set_policy.empty_dir", CHECK, FSCRYPT,                  \
	  "fscrypt_ioctl_set_policy: ->empty_dir (ext4_empty_dir) false: ENOTEMPTY")              \
	X(FSCRYPT_SET, "set_encryption_policy.ok", OUTCOME, FSCRYPT,                               \
	  "set_encryption_policy -> ->set_context (ext4_set_context): the empty directory holds " \
	  "the policy")                                                                           \
	/* a read-only filesystem (erofs, squashfs: SB_RDONLY), for every write: readonly_rules.c */ \
	X(RO_MNT_WANT_WRITE, "mnt_want_write.readonly", CHECK, READ_ONLY,                          \
	  "mnt_want_write -> mnt_get_write_access: __mnt_is_readonly (sb_rdonly): EROFS")          \
	X(RO_SB_PERMISSION, "sb_permission.sb_rdonly", CHECK, READ_ONLY,                           \
	  "inode_permission -> sb_permission: MAY_WRITE on a regular file, directory or symlink " \
	  "of a read-only sb: EROFS")                                                               \
	/* overlayfs on idmapped layers, the matrix's overlay world (world_setup.c):          \
	 * overlay_model.c, Linux 6.12 fs/overlayfs */                                             \
	X(OVL_CALLER_PERM, "ovl_permission.caller-overlay-inode", CHECK, OVERLAY,                   \
	  "ovl_permission: generic_permission(&nop_mnt_idmap, overlay inode) as the caller; the " \
	  "overlay inode's owner is the real inode's through its layer's idmap (ovl_copyattr)")   \
	X(OVL_MOUNTER_PERM, "ovl_permission.mounter-real-inode", CHECK, OVERLAY,                    \
	  "ovl_permission: inode_permission(real layer idmap, real inode) with the mounter's "    \
	  "creds (ovl_override_creds); MAY_WRITE on a lower file asked as MAY_READ")              \
	X(OVL_WORKDIR_RDONLY, "ovl_make_workdir.readonly", CHECK, OVERLAY,                          \
	  "ovl_workdir_create: the mounter's mkdir of work/work through the upper idmap fails "   \
	  "(may_create: fsuidgid_has_mapping) -> ofs->workdir NULL -> SB_RDONLY "                 \
	  "(ovl_fill_super): a write through the overlay is EROFS")                               \
	X(OVL_COPYUP_UNMAPPED, "ovl_copy_up_one.kuid_has_mapping", CHECK, OVERLAY,                  \
	  "ovl_copy_up_one: !kuid_has_mapping(mounter's userns, lower owner through the lower "   \
	  "idmap): EOVERFLOW")                                                                    \
	X(OVL_COPYUP_CREATE, "ovl_copy_up.create-fsuidgid_has_mapping", CHECK, OVERLAY,             \
	  "ovl_copy_up_tmpfile/ovl_copy_up_workdir: the mounter creates the copy through the "    \
	  "upper idmap (vfs_tmpfile/may_create: fsuidgid_has_mapping): EOVERFLOW")                \
	X(OVL_COPYUP_SETATTR, "ovl_set_attr.vfsuid_has_fsmapping", CHECK, OVERLAY,                  \
	  "ovl_set_attr: notify_change(upper idmap, ATTR_UID|ATTR_GID) of the lower owner as the " \
	  "lower mount shows it: !vfsuid_has_fsmapping: EOVERFLOW")                               \
	X(OVL_OPEN_REALFILE, "ovl_open_realfile.inode_permission", CHECK, OVERLAY,                  \
	  "ovl_open_realfile: inode_permission(real layer idmap, real inode, MAY_OPEN|acc) as "   \
	  "the mounter (the upper copy opened for writing; a lower file exec opens O_RDONLY)")     \
	X(OVL_OPEN_OK, "ovl_open.lower-ok", OUTCOME, OVERLAY,                                       \
	  "ovl_open: a lower file opened for reading, no copy-up")                                \
	X(OVL_COPYUP_OK, "ovl_copy_up.ok", OUTCOME, OVERLAY,                                        \
	  "ovl_copy_up_one + ovl_set_attr: the upper copy owned by the lower owner as the lower " \
	  "mount shows it, stored through the upper idmap")                                       \
	X(OVL_CREATE_UPPER_EOVERFLOW, "ovl_create_upper.fsuidgid_has_mapping", CHECK, OVERLAY,      \
	  "ovl_create_upper -> vfs_create/vfs_mkdir(upper idmap) with the mounter's creds and "   \
	  "the new overlay inode's owner as fsuid/fsgid (ovl_setup_cred_for_create): "            \
	  "may_create: !fsuidgid_has_mapping: EOVERFLOW")                                         \
	X(OVL_CREATE_UPPER_PERM, "ovl_create_upper.dir-write-exec", CHECK, OVERLAY,                 \
	  "ovl_create_upper: inode_permission(upper idmap, upper dir, MAY_WRITE|MAY_EXEC) as the " \
	  "mounter with the caller's fsuid/fsgid")                                                \
	X(OVL_CREATE_OK, "ovl_create_object.ok", OUTCOME, OVERLAY,                                  \
	  "ovl_create_object: the caller's fsuid/fsgid (inode_init_owner on the overlay) stored " \
	  "through the upper idmap (inode_init_owner(upper idmap))")                                  \
	X(OVL_SETATTR_UPPER, "ovl_setattr.upper-notify_change", CHECK, OVERLAY,                     \
	  "ovl_setattr: after the copy-up, ovl_do_notify_change(upper idmap, upper copy) of the "  \
	  "caller's iattr with the mounter's creds (ovl_override_creds): the mounter's "          \
	  "setattr_prepare/may_setattr through the upper idmap")                                  \
	X(OVL_SETATTR_OK, "ovl_setattr.ok", OUTCOME, OVERLAY,                                       \
	  "ovl_setattr: chmod/utimes/truncate/setid kill decided as the caller on the overlay "   \
	  "inode (setattr_prepare(&nop_mnt_idmap)), applied to the upper copy by the mounter "    \
	  "through the upper idmap")                                                                \
	X(OVL_WHITEOUT_OK, "ovl_remove_and_whiteout.ok", OUTCOME, OVERLAY,                          \
	  "ovl_remove_and_whiteout: the lower name is covered by a whiteout (char 0:0, mode 0) "   \
	  "the mounter made in the workdir through the upper idmap (ovl_whiteout -> "             \
	  "vfs_whiteout: inode_init_owner with the mounter's fsuid/fsgid) and renamed over it")  \
	/* exec again (appended: no other rule's index moves) */                                  \
	X(EXEC_MNT_SUID, "mnt_may_suid.current_in_userns-s_user_ns", BRANCH, SB_USERNS,           \
	  "mnt_may_suid (bprm_fill_uid, get_file_caps): setuid/setgid bits and file caps "        \
	  "count only if the caller's userns is the sb's s_user_ns or a descendant of it")        \
	/* overlayfs again: rmdir, rename and link of lower objects (appended) */                \
	X(OVL_RMDIR_READDIR, "ovl_check_empty_dir.mounter-read", CHECK, OVERLAY,                    \
	  "ovl_check_empty_dir -> ovl_dir_read_merged -> ovl_path_open: "                          \
	  "inode_permission(lower idmap, lower dir, MAY_READ|MAY_OPEN) as the mounter "           \
	  "(ovl_override_creds) before a lower directory is whited out")                          \
	X(OVL_RENAME_EXDEV, "ovl_rename.ovl_can_move", CHECK, OVERLAY,                              \
	  "ovl_rename: !ovl_can_move(old) (redirect_dir=off and a merged or lower directory): "   \
	  "EXDEV, after the caller's vfs_rename checks on the overlay inodes")                   \
	X(OVL_RENAME_OK, "ovl_rename.ok", OUTCOME, OVERLAY,                                         \
	  "ovl_rename: the lower source copied up, then ovl_do_rename(upper idmap, "              \
	  "RENAME_WHITEOUT) as the mounter: the copy under the new name, a whiteout made "        \
	  "through the upper idmap (inode_init_owner, mounter's fsuid/fsgid) at the old one")    \
	X(OVL_LINK_OK, "ovl_link.ok", OUTCOME, OVERLAY,                                             \
	  "ovl_link: the lower source copied up, then ovl_do_link -> vfs_link(upper idmap) as "   \
	  "the mounter (no ovl_setup_cred_for_create for a hardlink): the new name is the copy")  \
	X(OVL_EXEC_FCAPS_EOVERFLOW, "cap_inode_getsecurity.ovl-rootid-eoverflow", CHECK, OVERLAY,   \
	  "exec through the overlay: get_vfs_caps_from_disk -> ovl_xattr_get -> vfs_getxattr("     \
	  "lower idmap) as the mounter -> cap_inode_getsecurity: a rootid with no id for the "     \
	  "mounter through the lower idmap is -EOVERFLOW, which get_file_caps returns: the exec " \
	  "fails (a plain mount ignores such caps: -ENODATA)") \
	/* do_coredump's file (fs/coredump.c), coredump_rules.c; cased by idmapped/009 */          \
	X(COREDUMP_OWNER, "do_coredump.vfsuid_eq_kuid-fsuid", CHECK, COREDUMP,                     \
	  "do_coredump: vfsuid_eq_kuid(i_uid_into_vfsuid(file_mnt_idmap, inode), "               \
	  "current_fsuid()), else \"cannot preserve file owner\": the file stays empty")         \
	X(COREDUMP_MODE, "do_coredump.mode-0600", CHECK, COREDUMP,                                 \
	  "do_coredump: (i_mode & 0677) == 0600, else \"cannot preserve file permissions\"")    \
	X(COREDUMP_WRITTEN, "do_coredump.written", OUTCOME, COREDUMP,                              \
	  "do_coredump: do_truncate(file_mnt_idmap) and the dump written to the new file")      \
	/* open_by_handle_at (fs/fhandle.c, fs/exportfs/expfs.c), fhandle_rules.c; cased by     \
	 * idmapped/010 */                                                                         \
	X(FH_PERM, "handle_to_path.capable-or-may_decode_fh", CHECK, FHANDLE,                     \
	  "handle_to_path: capable(CAP_DAC_READ_SEARCH) or may_decode_fh (O_DIRECTORY, "          \
	  "CAP_SYS_ADMIN over s_user_ns or the mount's mount namespace, CAP_DAC_READ_SEARCH), "   \
	  "else EPERM")                                                                            \
	X(FH_DIR_ONLY, "exportfs_decode_fh_raw.dir-only", CHECK, FHANDLE,                          \
	  "exportfs_decode_fh_raw: EXPORT_FH_DIR_ONLY and a non-directory: ENOTDIR (ESTALE)")     \
	X(FH_RECONNECT_EXEC, "reconnect_one.lookup_one_unlocked-may_exec", CHECK, FHANDLE,          \
	  "reconnect_one: lookup_one_unlocked(mnt_idmap(mnt)) in each ancestor of a "            \
	  "disconnected directory: inode_permission(MAY_EXEC) through the mount (ESTALE)")        \
	X(FH_ACCEPT_MAPPED, "vfs_dentry_acceptable.privileged_wrt_inode_uidgid", CHECK, FHANDLE,    \
	  "vfs_dentry_acceptable: with ctx.flags, privileged_wrt_inode_uidgid(current_user_ns(), " \
	  "mnt_idmap, inode) of T and each ancestor up to mountdirfd (ESTALE)")                    \
	X(FH_ACCEPT_SUBTREE, "vfs_dentry_acceptable.check-subtree", CHECK, FHANDLE,                 \
	  "vfs_dentry_acceptable: HANDLE_CHECK_SUBTREE and the walk did not meet mountdirfd "      \
	  "(ESTALE)")                                                                              \
	X(FH_OPEN_OK, "do_handle_open.ok", OUTCOME, FHANDLE,                                        \
	  "do_handle_open: file_open_root of the decoded path (may_open through the mount)") \
	/* overlayfs: user.* and trusted.* through the overlay (appended) */                       \
	X(OVL_XATTR_GET_REAL, "ovl_xattr_get.real-vfs_getxattr", CHECK, OVERLAY,                   \
	  "ovl_xattr_get: vfs_getxattr(real layer idmap, real inode) with the mounter's creds "   \
	  "(ovl_override_creds): xattr_permission on the real inode, then its value (ENODATA "     \
	  "if the real inode has none)")                                                           \
	X(OVL_XATTR_REMOVE_LOWER, "ovl_xattr_set.remove-lower-vfs_getxattr", CHECK, OVERLAY,       \
	  "ovl_xattr_set: a removal on a file not copied up first asks vfs_getxattr(lower idmap, " \
	  "lower inode) as the mounter: ENODATA (or its refusal) and nothing is copied up")       \
	X(OVL_XATTR_UPPER, "ovl_xattr_set.upper-vfs_setxattr", CHECK, OVERLAY,                     \
	  "ovl_xattr_set: after the copy-up (ovl_copy_xattr copies the lower xattrs), "           \
	  "ovl_do_setxattr/ovl_do_removexattr -> vfs_setxattr/vfs_removexattr(upper idmap, "      \
	  "upper copy) with the mounter's creds")                                                  \
	X(OVL_XATTR_OK, "ovl_xattr.ok", OUTCOME, OVERLAY,                                          \
	  "user.*/trusted.* through the overlay: xattr_permission as the caller on the overlay "  \
	  "inode (ovl_permission), then the real inode's value read (ovl_xattr_get) or the "      \
	  "upper copy written (ovl_xattr_set) by the mounter through its layer's idmap")          \
	X(OVL_ACL_UPPER, "ovl_set_or_remove_acl.upper-vfs_set_acl", CHECK, OVERLAY,                 \
	  "ovl_set_or_remove_acl: after the copy-up, ovl_do_set_acl -> vfs_set_acl(upper idmap) " \
	  "with the mounter's creds and the overlay's kuids: from_vfsuid through the upper "      \
	  "idmap (vfs_set_acl_idmapped_mnt), may_write_xattr, set_posix_acl (posix_acl_valid)")  \
	X(OVL_ACL_OK, "ovl_acl.ok", OUTCOME, OVERLAY,                                              \
	  "POSIX ACLs through the overlay: the real ACL read through its layer's idmap "          \
	  "(ovl_get_acl_path, ovl_idmap_posix_acl) or set by the mounter on the upper copy "      \
	  "(ovl_set_or_remove_acl) after the caller's checks on the overlay inode")              \
	X(OVL_FCAPS_GET_REAL, "ovl_xattr_get.real-cap_inode_getsecurity", CHECK, OVERLAY,          \
	  "ovl_xattr_get of security.capability: the mounter's vfs_getxattr(lower idmap) is "     \
	  "cap_inode_getsecurity in the mounter's namespace: EOVERFLOW where the rootid has no "  \
	  "id through the lower idmap")                                                            \
	X(OVL_FCAPS_UPPER, "ovl_xattr_set.upper-cap_convert_nscap", CHECK, OVERLAY,               \
	  "ovl_xattr_set of security.capability: after the copy-up, vfs_setxattr(upper idmap) "  \
	  "as the mounter: cap_convert_nscap maps the value's rootid (v2: 0) through the upper "  \
	  "idmap, EINVAL where it cannot")                                                         \
	X(OVL_FCAPS_OK, "ovl_fcaps.ok", OUTCOME, OVERLAY,                                          \
	  "security.capability through the overlay: read as cap_inode_getsecurity of the value " \
	  "the mounter read through the lower idmap, or converted by the caller "                 \
	  "(cap_convert_nscap on the overlay inode) and stored by the mounter through the upper " \
	  "idmap")                                                                                \
	X(OVL_COPYUP_ACL, "ovl_copy_acl.upper-vfs_set_acl", CHECK, OVERLAY,                        \
	  "ovl_copy_xattr -> ovl_copy_acl: the lower file's POSIX ACL read through the lower "    \
	  "idmap (ovl_get_acl_path, ovl_idmap_posix_acl) is stored by the mounter through the "   \
	  "upper idmap (ovl_do_set_acl -> vfs_set_acl -> set_posix_acl: posix_acl_valid): an "   \
	  "entry with no id there is EINVAL and the copy-up fails")                               \
	X(OVL_COPYUP_FCAPS, "ovl_copy_xattr.security-capability", CHECK, OVERLAY,                  \
	  "ovl_copy_xattr: the lower file's security.capability read by the mounter through the " \
	  "lower idmap (ovl_getxattr_value -> cap_inode_getsecurity: EOVERFLOW where the rootid " \
	  "has no id, which fails the copy-up) and written through the upper idmap "              \
	  "(ovl_do_setxattr -> cap_convert_nscap: EINVAL where the rootid does not map)") \
	/* matrix/013 through the overlay world: overlay_fileops.c, Linux 6.12 */                  \
	X(OVL_READ_NOATIME, "ovl_open_realfile.o_noatime", CHECK, OVERLAY,                         \
	  "ovl_open_realfile: the mounter opens the lower file with OVL_OPEN_FLAGS (O_NOATIME), "  \
	  "kept when inode_owner_or_capable(lower idmap, real inode): the read's file_accessed "   \
	  "on the real file touches no atime")                                                     \
	X(OVL_FILEATTR_OK, "ovl_fileattr_set.ok", OUTCOME, OVERLAY,                                \
	  "ovl_fileattr_set: after the caller's inode_owner_or_capable on the overlay inode, "    \
	  "the copy-up, then ovl_real_fileattr_set -> vfs_fileattr_set(upper idmap) of the same " \
	  "values on the upper copy as the mounter")                                             \
	/* overlayfs on an upper layer without RENAME_WHITEOUT (appended) */                     \
	X(OVL_RENAME_NO_WHITEOUT, "ovl_rename.upper-rename-whiteout", CHECK, OVL_NO_WHITEOUT,     \
	  "ovl_rename: a lower source is renamed on the upper layer with RENAME_WHITEOUT after "   \
	  "its copy-up; an upper filesystem whose ->rename refuses the flag (ntfs_rename: every " \
	  "flag but RENAME_NOREPLACE is EINVAL) fails the rename there, the copy staying "         \
	  "(ovl_make_workdir only warned at mount time)")

/* What a world needs for a rule's outcomes to be possible. */
#define VT_RULE_NEEDS(X)                                                                          \
	X(NONE, "")                                                                               \
	VT_FAT_RULE_NEEDS(X) /* optowner_rule_table.h */                                            \
	X(POSIXACL, "the filesystem has no POSIX ACLs (IS_POSIXACL is false)")                     \
	X(NOACL_DENY, "the filesystem has POSIX ACLs, so !IS_POSIXACL cannot deny")                \
	X(HARDLINKS, "fs.protected_hardlinks is 0 and may not be changed (VT_ALLOW_SYSCTL)")      \
	X(SYMLINKS, "fs.protected_symlinks is 0 and may not be changed (VT_ALLOW_SYSCTL)")        \
	X(REGULAR, "fs.protected_regular is 0 and may not be changed (VT_ALLOW_SYSCTL)")          \
	X(FIFOS, "fs.protected_fifos is 0 and may not be changed (VT_ALLOW_SYSCTL)")              \
	X(STICKY, "")                                                                             \
	X(WHITEOUT, "the filesystem has no whiteouts (RENAME_WHITEOUT: EINVAL)")                   \
	X(EXEC, "exec cannot be tested on TEST_DIR (nosuid or noexec)")                            \
	X(READ_ONLY, "the filesystem is writable (sb_rdonly is false)")                            \
	X(SB_USERNS, "the filesystem's s_user_ns is the initial namespace, where every valid kuid " \
		     "has an id (from_kuid cannot fail)") \
	X(FILEOPS, "vfat: matrix/013 (file_rules.c) has no vfat form")                              \
	X(LEASE, "no lease can be taken here (vfat, or fs.leases-enable is 0)")                     \
	X(OVERLAY, "the filesystem cannot be an overlayfs layer (the table's VT_FSF_OVERLAY)")    \
	X(FILEATTR, "the filesystem has no ->fileattr_set (FS_IOC_SETFLAGS/FSSETXATTR: ENOTTY)")    \
	X(DEDUPE, "the filesystem has no ->remap_file_range (FIDEDUPERANGE: EOPNOTSUPP)")        \
	X(ATIME, "TEST_DIR's mount does not update the atime of a file root reads (noatime)")     \
	X(CACHESTAT, "no cachestat(2) here (Linux 6.5 and later, CONFIG_CACHESTAT_SYSCALL)")     \
	X(FSCRYPT, "the matrix makes no filesystem with encryption (ext4 -O encrypt): "            \
		   "idmapped/007 makes one and decides these rules")                              \
	X(COREDUMP, "the matrix dumps no core (a crash with kernel.core_pattern of the suite's): " \
		    "idmapped/009 does and decides these rules")                                  \
	X(FHANDLE, "the matrix calls no open_by_handle_at: idmapped/010 does and decides these "  \
		   "rules")                                                                       \
	X(OVL_NO_WHITEOUT, "the filesystem has whiteouts (RENAME_WHITEOUT): an upper layer of "   \
			   "it cannot refuse the flag")

#endif
