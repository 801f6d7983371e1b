/* The model on a filesystem whose superblock belongs to a user namespace
 * (sb->s_user_ns = nsfs, not the initial one), against outcomes worked out
 * by hand from the 6.12 sources, one row per rule, each naming the kernel
 * function. nsfs is the matrix's (lib/matrix/axes.h VT_NSFS_SPEC, spelt
 * out here so that a change there cannot change what these rows state):
 *   uid: nsfs 0 = kuid 0, 1 = 1000, 5 = 70000, 1000 = 11000, 3000 = 10000,
 *        100000 = 1001
 *   gid: nsfs 0 = kgid 0, 1 = 1000, 5 = 70000, 2000 = 2000, 3000 = 10000,
 *        100000 = 1001
 * ns0 is b:0:10000:65536 (ns0's uid 0 is kuid 10000, its 1000 kuid 11000),
 * SHIFT the mount idmap b:0:10000:65536, applied to nsfs's ids (make_vfsuid:
 * map_id_down(idmap, from_kuid(fs_userns, kuid)); from_vfsuid:
 * make_kuid(fs_userns, map_id_up(idmap, vfsuid)), fs/mnt_idmapping.c).
 * Pure: no system calls. */
#include "model/world_model.h"
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
#define NSFS "u:0:0:1,u:1:1000:1,u:5:70000:1,u:1000:11000:1,u:3000:10000:1," \
	     "u:100000:1001:1,g:0:0:1,g:1:1000:1,g:5:70000:1,g:2000:2000:1," \
	     "g:3000:10000:1,g:100000:1001:1"
#define SHIFT "b:0:10000:65536"

static struct vt_mns nsfs, ns0;

struct row {
	const char *name;
	const char *rule;	/* the kernel function that decides */
	const char *map;	/* NULL: the plain mount of the nsfs filesystem */
	bool in_ns0;		/* the caller is in ns0 (else the initial namespace) */
	uint32_t uid, gid;	/* the caller's, in its namespace */
	uint64_t caps;
	enum vt_mop op;
	mode_t obj_mode;	/* 0: no P/o */
	uint32_t obj_uid, obj_gid;
	int obj_fcaps_version;
	uint32_t obj_fcaps_rootid;	/* kuid */
	uint32_t arg_id;	/* chown target uid, ACL entries' id, fcaps rootid */
	int arg_version;	/* FCAPS_SET */
	int want_err;
	uint32_t want_uid, want_gid;	/* the result's kernel ids (NONE: unchecked) */
	uint32_t want_seen_uid;		/* stat() as the caller (NONE: unchecked) */
	int want_fcaps_version;		/* FCAPS_SET: stored; FCAPS_GET: read (0: unchecked) */
	uint32_t want_fcaps_rootid;	/* stored kuid / caller-view rootid read */
	uint32_t want_acl_user_id;	/* ACL_SET: the stored ACL_USER kuid */
	/* the rows below the first fifteen (named fields) */
	mode_t dir_mode;		/* P's mode (0: 0777) */
	mode_t arg_mode;		/* CHMOD's new mode */
	mode_t want_mode;		/* the result's mode (0: unchecked) */
	uint32_t want_euid;		/* EXEC: the new euid, in the caller's namespace */
	uint64_t want_cap_prm;		/* EXEC: the new permitted set */
};

/* the fields a named row leaves unchecked */
#define UNCHECKED .want_uid = NONE, .want_gid = NONE, .want_seen_uid = NONE, \
		  .want_acl_user_id = NONE

static const struct row rows[] = {
	{ "u2000 cannot create on the plain mount: kuid 2000 is not mapped in nsfs",
	  "may_o_create: fsuidgid_has_mapping (kuid_has_mapping(s_user_ns, mapped_fsuid))",
	  NULL, false, 2000, 2000, 0, VT_OP_OPEN_CREAT, 0, 0, 0, 0, 0, 0, 0,
	  EOVERFLOW, NONE, NONE, NONE, 0, 0, NONE, 0, 0, 0, 0, 0 },
	{ "ns0's uid 1000 (kuid 11000, mapped) with kgid 11000 (not mapped) cannot create",
	  "may_o_create: fsuidgid_has_mapping (kgid_has_mapping(s_user_ns, mapped_fsgid))",
	  NULL, true, 1000, 1000, 0, VT_OP_OPEN_CREAT, 0, 0, 0, 0, 0, 0, 0,
	  EOVERFLOW, NONE, NONE, NONE, 0, 0, NONE, 0, 0, 0, 0, 0 },
	{ "u1000 creates on the plain mount: owner kuid 1000, seen as 1000",
	  "inode_init_owner: mapped_fsuid(&nop_mnt_idmap) is current_fsuid()",
	  NULL, false, 1000, 1000, 0, VT_OP_OPEN_CREAT, 0, 0, 0, 0, 0, 0, 0,
	  0, 1000, 1000, 1000, 0, 0, NONE, 0, 0, 0, 0, 0 },
	{ "ns0-root creates through SHIFT: vfsuid 10000 -> nsfs 0 -> kuid 0, seen as its 0",
	  "inode_init_owner: mapped_fsuid = from_vfsuid(idmap, s_user_ns): make_kuid(nsfs, 0)",
	  SHIFT, true, 0, 0, ALL, VT_OP_OPEN_CREAT, 0, 0, 0, 0, 0, 0, 0,
	  0, 0, 0, 0, 0, 0, NONE, 0, 0, 0, 0, 0 },
	{ "ns0's uid 1000 through SHIFT: vfsgid 11000 -> nsfs gid 1000, unmapped",
	  "may_o_create: fsuidgid_has_mapping (from_vfsgid: make_kgid(nsfs, 1000) invalid)",
	  SHIFT, true, 1000, 1000, 0, VT_OP_MKDIR, 0, 0, 0, 0, 0, 0, 0,
	  EOVERFLOW, NONE, NONE, NONE, 0, 0, NONE, 0, 0, 0, 0, 0 },
	{ "root reads P/o (kuid 1000 = nsfs 1) through SHIFT: seen as 10001, not 11000",
	  "generic_fillattr: i_uid_into_vfsuid = make_vfsuid(idmap, i_user_ns, i_uid)",
	  SHIFT, false, 0, 0, ALL, VT_OP_OPEN_READ, 0644, 1000, 1000, 0, 0, 0, 0,
	  0, 1000, 1000, 10001, 0, 0, NONE, 0, 0, 0, 0, 0 },
	{ "ns0's 1000 (kuid 11000) is not the owner of kuid 1000 through SHIFT (10001)",
	  "chown_ok: vfsuid_eq_kuid(i_uid_into_vfsuid(...), current_fsuid()) false -> EPERM",
	  SHIFT, true, 1000, 1000, 0, VT_OP_CHOWN, 0644, 1000, 1000, 0, 0, 1000, 0,
	  EPERM, NONE, NONE, NONE, 0, 0, NONE, 0, 0, 0, 0, 0 },
	{ "ns0-root chowns P/o (kuid 70000 = vfsuid 10005) through SHIFT to its 1: kuid 1000",
	  "notify_change: vfsuid_has_fsmapping; setattr_copy: from_vfsuid(idmap, s_user_ns)",
	  SHIFT, true, 0, 0, ALL, VT_OP_CHOWN, 0644, 70000, 70000, 0, 0, 1, 0,
	  0, 1000, 70000, NONE, 0, 0, NONE, 0, 0, 0, 0, 0 },
	{ "root sets an ACL naming 2000 on the plain mount: nsfs lacks kuid 2000",
	  "set_posix_acl: posix_acl_valid(s_user_ns): ACL_USER unmapped -> EINVAL",
	  NULL, false, 0, 0, ALL, VT_OP_ACL_SET, 0644, 0, 0, 0, 0, 2000, 0,
	  EINVAL, NONE, NONE, NONE, 0, 0, NONE, 0, 0, 0, 0, 0 },
	{ "ns0-root sets an ACL naming its 1 through SHIFT: stored as kuid 1000",
	  "vfs_set_acl_idmapped_mnt: from_vfsuid(idmap, i_user_ns): make_kuid(nsfs, 1)",
	  SHIFT, true, 0, 0, ALL, VT_OP_ACL_SET, 0644, 0, 0, 0, 0, 1, 0,
	  0, NONE, NONE, NONE, 0, 0, 1000, 0, 0, 0, 0, 0 },
	{ "ns0-root sets v3 rootid 10000 (kuid 20000) on the plain mount: nsfs lacks it",
	  "cap_convert_nscap: from_kuid(fs_ns, rootid) == -1 -> EINVAL",
	  NULL, true, 0, 0, ALL, VT_OP_FCAPS_SET, 0755, 70000, 70000, 0, 0, 10000, 3,
	  EINVAL, NONE, NONE, NONE, 0, 0, NONE, 0, 0, 0, 0, 0 },
	{ "ns0-root sets v2 on the plain mount: not capable in nsfs, stored v3 rootid kuid 10000",
	  "cap_convert_nscap: ns_capable(s_user_ns, CAP_SETFCAP) false -> v3, rootid its 0",
	  NULL, true, 0, 0, ALL, VT_OP_FCAPS_SET, 0755, 70000, 70000, 0, 0, 0, 2,
	  0, NONE, NONE, NONE, 3, 10000, NONE, 0, 0, 0, 0, 0 },
	{ "root sets v2 on the plain mount: nsfs's owner is capable in it, v2 kept",
	  "cap_convert_nscap: &nop_mnt_idmap and ns_capable(s_user_ns, CAP_SETFCAP)",
	  NULL, false, 0, 0, ALL, VT_OP_FCAPS_SET, 0755, 1000, 1000, 0, 0, 0, 2,
	  0, NONE, NONE, NONE, 2, 0, NONE, 0, 0, 0, 0, 0 },
	{ "root reads v3 rootid kuid 1000 (nsfs 1) through SHIFT: rootid 10001",
	  "cap_inode_getsecurity: make_vfsuid(idmap, fs_ns, make_kuid(fs_ns, rootid))",
	  SHIFT, false, 0, 0, ALL, VT_OP_FCAPS_GET, 0755, 0, 0, 3, 1000, 0, 0,
	  0, NONE, NONE, NONE, 3, 10001, NONE, 0, 0, 0, 0, 0 },
	{ "ns0-root chowns P/o (kuid 70000, in its view 60000) on the plain mount to its 1",
	  "notify_change: vfsuid_has_fsmapping(&nop_mnt_idmap, ...) is uid_valid(vfsuid): "
	  "kuid 10001 is stored though nsfs lacks it",
	  NULL, true, 0, 0, ALL, VT_OP_CHOWN, 0644, 70000, 70000, 0, 0, 1, 0,
	  0, 10001, 70000, NONE, 0, 0, NONE, 0, 0, 0, 0, 0 },
	/* chown_ok's last way in: the inode's owner has no vfsuid through the
	 * mount, and the caller is ns_capable over s_user_ns. kuid 1001 is
	 * nsfs's 100000, outside SHIFT (vfsuid invalid); root without
	 * capabilities is not capable_wrt_inode_uidgid (ns_capable(init,
	 * CAP_CHOWN) fails), but owns nsfs, so cap_capable() grants it every
	 * capability there (ns->parent == cred->user_ns && ns->owner ==
	 * cred->euid). The target, uid 10000 (vfsuid 10000), is nsfs's 0
	 * through SHIFT (notify_change's vfsuid_has_fsmapping holds) and is
	 * stored as make_kuid(nsfs, 0) = kuid 0 (setattr_copy: from_vfsuid).
	 * Its group, kgid 1000, is nsfs's 1 (vfsgid 10001): notify_change
	 * refuses a change to an inode whose other id has no vfsgid */
	{ "root without capabilities chowns P/o (kuid 1001, no vfsuid) through SHIFT to 10000",
	  "chown_ok: !vfsuid_valid(vfsuid) && ns_capable(inode->i_sb->s_user_ns, CAP_CHOWN)",
	  SHIFT, false, 0, 0, 0, VT_OP_CHOWN, 0644, 1001, 1000, 0, 0, 10000, 0,
	  .want_uid = 0, .want_gid = 1000, .want_seen_uid = NONE, .want_acl_user_id = NONE },
	/* the same as u1000 (no capability, not nsfs's owner): EPERM */
	{ "u1000 cannot chown P/o (kuid 1001, no vfsuid) through SHIFT: not capable in nsfs",
	  "chown_ok: ns_capable(s_user_ns, CAP_CHOWN) false (nsfs is owned by kuid 0) -> EPERM",
	  SHIFT, false, 1000, 1000, 0, VT_OP_CHOWN, 0644, 1001, 1000, 0, 0, 10000, 0,
	  EPERM, UNCHECKED },
	/* setattr_prepare(ATTR_MODE): inode_owner_or_capable, then S_ISGID
	 * kept only if in_group_or_capable(i_gid_into_vfsgid). Caller kuid
	 * 10001:10001 (the initial namespace, no capabilities); P/o kuid
	 * 1000:1000 is nsfs's 1:1, through SHIFT 10001:10001: owner and
	 * group */
	{ "kuid 10001 chmods P/o (kuid 1000:1000 = nsfs 1:1) through SHIFT to 02755: kept",
	  "setattr_prepare: inode_owner_or_capable; in_group_or_capable(i_gid_into_vfsgid)",
	  SHIFT, false, 10001, 10001, 0, VT_OP_CHMOD, 0644, 1000, 1000, 0, 0, 0, 0, 0,
	  UNCHECKED, .arg_mode = 02755, .want_mode = S_IFREG | 02755 },
	/* kgid 2000 is nsfs's 2000, through SHIFT 12000: not the caller's
	 * group, no CAP_FSETID: S_ISGID cleared, the rest applied */
	{ "kuid 10001 chmods P/o (kgid 2000 = nsfs 2000, vfsgid 12000) to 02755: sgid stripped",
	  "setattr_prepare: !in_group_or_capable(idmap, inode, i_gid_into_vfsgid) -> ~S_ISGID",
	  SHIFT, false, 10001, 10001, 0, VT_OP_CHMOD, 0644, 1000, 2000, 0, 0, 0, 0, 0,
	  UNCHECKED, .arg_mode = 02755, .want_mode = S_IFREG | 0755 },
	/* may_delete: the victim's ids valid through the mount, then
	 * check_sticky (__check_sticky: the victim's owner through the
	 * mount is the caller's fsuid). P is 01777 0:0 (vfsuid 10000) */
	{ "kuid 10001 unlinks P/o (kuid 1000 = nsfs 1, vfsuid 10001) from sticky P through SHIFT",
	  "may_delete: check_sticky: vfsuid_eq_kuid(i_uid_into_vfsuid(idmap, inode), fsuid)",
	  SHIFT, false, 10001, 10001, 0, VT_OP_UNLINK, 0644, 1000, 1000, 0, 0, 0, 0, 0,
	  UNCHECKED, .dir_mode = 01777 },
	{ "kuid 10001 cannot unlink P/o (kuid 1001 = nsfs 100000: no vfsuid) through SHIFT",
	  "may_delete: !vfsuid_valid(i_uid_into_vfsuid(idmap, inode)) -> EOVERFLOW",
	  SHIFT, false, 10001, 10001, 0, VT_OP_UNLINK, 0644, 1001, 1001, 0, 0, 0, 0, EOVERFLOW,
	  UNCHECKED, .dir_mode = 01777 },
	/* vfs_rename to a new name: may_create(new_dir) asks
	 * fsuidgid_has_mapping(dir->i_sb, idmap) after may_delete; u2000's
	 * kuid 2000 has no nsfs uid (on &nop_mnt_idmap mapped_fsuid is
	 * current_fsuid()) */
	{ "u2000 cannot rename P/o to P/n on the plain mount: kuid 2000 not mapped in nsfs",
	  "vfs_rename: may_create: fsuidgid_has_mapping -> kuid_has_mapping(s_user_ns) false",
	  NULL, false, 2000, 2000, 0, VT_OP_RENAME, 0644, 1000, 1000, 0, 0, 0, 0, EOVERFLOW,
	  UNCHECKED },
	/* exec: mnt_may_suid() needs current_in_userns(mnt_sb->s_user_ns);
	 * no caller of the initial namespace is in nsfs (in_userns: nsfs's
	 * level is 1, the caller's 0), not even nsfs's owner, so
	 * bprm_fill_uid returns before looking at S_ISUID */
	{ "u1000 execs a setuid file of kuid 0 on the plain mount: not in nsfs, euid stays",
	  "bprm_fill_uid: !mnt_may_suid (current_in_userns(s_user_ns) false) -> return",
	  NULL, false, 1000, 1000, 0, VT_OP_EXEC, 04755, 0, 0, 0, 0, 0, 0, 0,
	  UNCHECKED, .want_euid = 1000, .want_cap_prm = 0 },
	{ "root execs a setuid file of kuid 1000 (vfsuid 10001) through SHIFT: euid stays 0",
	  "bprm_fill_uid: !mnt_may_suid; handle_privileged_root: ruid 0 gets the bounding set",
	  SHIFT, false, 0, 0, ALL, VT_OP_EXEC, 04755, 1000, 1000, 0, 0, 0, 0, 0,
	  UNCHECKED, .want_euid = 0, .want_cap_prm = ALL },
	/* get_file_caps(): !mnt_may_suid -> return 0 with pP cleared, so
	 * the v2 security.capability (fP = CAP_NET_RAW, root 0) is ignored */
	{ "u1000 execs a file with v2 file caps on the plain mount: caps ignored",
	  "get_file_caps: !mnt_may_suid / !current_in_userns(s_user_ns) -> no file caps",
	  NULL, false, 1000, 1000, 0, VT_OP_EXEC, 0755, 0, 0, 2, 0, 0, 0, 0,
	  UNCHECKED, .want_euid = 1000, .want_cap_prm = 0 },
	/* security.* but security.capability: cap_inode_setxattr and
	 * cap_inode_removexattr ask ns_capable(s_user_ns, CAP_SYS_ADMIN),
	 * nsfs here, where root without capabilities is capable as nsfs's
	 * owner (cap_capable) and ns0's root is not (nsfs is no descendant of
	 * ns0); trusted.* asks capable() in the initial namespace */
	{ "root without capabilities sets security.vt of P/o (kuid 1000 = nsfs 1) on the plain mount",
	  "cap_inode_setxattr: ns_capable(nsfs, CAP_SYS_ADMIN): nsfs's owner; xattr_permission: no "
	  "inode_permission for security.* (other class r--, no CAP_DAC_OVERRIDE)",
	  NULL, false, 0, 0, 0, VT_OP_XATTR_SET_SECURITY, 0644, 1000, 1000, 0, 0, 0, 0, 0,
	  UNCHECKED },
	{ "root without capabilities cannot set trusted.vt of the same: EPERM",
	  "xattr_permission: trusted.* needs capable(CAP_SYS_ADMIN), the initial namespace",
	  NULL, false, 0, 0, 0, VT_OP_XATTR_SET_TRUSTED, 0644, 1000, 1000, 0, 0, 0, 0, EPERM,
	  UNCHECKED },
	{ "root without capabilities sets security.vt of a sticky directory of kuid 1000",
	  "xattr_permission: the sticky-directory owner test is user.*'s only",
	  NULL, false, 0, 0, 0, VT_OP_XATTR_SET_SECURITY, S_IFDIR | 01777, 1000, 1000, 0, 0, 0, 0, 0,
	  UNCHECKED },
	{ "root without capabilities cannot set user.vt of that sticky directory: EPERM",
	  "xattr_permission: sticky dir, !inode_owner_or_capable (CAP_FOWNER asked of the initial ns)",
	  NULL, false, 0, 0, 0, VT_OP_XATTR_SET_USER, S_IFDIR | 01777, 1000, 1000, 0, 0, 0, 0, EPERM,
	  UNCHECKED },
	{ "ns0-root cannot set security.vt of P/o (kuid 1000, vfsuid 10001) through SHIFT: EPERM",
	  "cap_inode_setxattr: !ns_capable(nsfs, CAP_SYS_ADMIN): nsfs is not ns0's descendant",
	  SHIFT, true, 0, 0, ALL, VT_OP_XATTR_SET_SECURITY, 0644, 1000, 1000, 0, 0, 0, 0, EPERM,
	  UNCHECKED },
	{ "ns0-root cannot remove security.vt of the same: EPERM, before the handler's ENODATA",
	  "cap_inode_removexattr: !ns_capable(nsfs, CAP_SYS_ADMIN)",
	  SHIFT, true, 0, 0, ALL, VT_OP_XATTR_REMOVE_SECURITY, 0644, 1000, 1000, 0, 0, 0, 0, EPERM,
	  UNCHECKED },
	{ "u1000 reads an absent security.vt of a 0600 file of kuid 0 through SHIFT: ENODATA, not EACCES",
	  "vfs_getxattr: xattr_permission 0 for security.*; cap_inode_getsecurity EOPNOTSUPP -> handler",
	  SHIFT, false, 1000, 1000, 0, VT_OP_XATTR_GET_SECURITY, 0600, 0, 0, 0, 0, 0, 0, ENODATA,
	  UNCHECKED },
	{ "root removes an absent security.vt of P/o (kuid 1000) on the plain mount: ENODATA, not EPERM",
	  "cap_inode_removexattr: ns_capable(nsfs, CAP_SYS_ADMIN): the initial ns is nsfs's parent",
	  NULL, false, 0, 0, ALL, VT_OP_XATTR_REMOVE_SECURITY, 0644, 1000, 1000, 0, 0, 0, 0, ENODATA,
	  UNCHECKED },
};

static void build(const struct row *r, struct vt_world *w, struct vt_midmap *m,
		  struct vt_mop_args *op)
{
	unit_world(w, m, r->map, r->in_ns0 ? &ns0 : &vt_init_ns, r->uid, r->gid, UNIT_NOGROUP,
		   r->caps);
	w->fs_ns = &nsfs;
	w->posixacl = true;
	w->cred.umask = 022;
	w->bset_init = w->cap_full = ALL;
	w->dir = vt_minode_make(S_IFDIR | (r->dir_mode ? r->dir_mode : 0777), 0, 0);
	if (r->obj_mode) {
		/* obj_mode without type bits: a regular file */
		w->obj = vt_minode_make((r->obj_mode & S_IFMT) ? r->obj_mode : S_IFREG | r->obj_mode,
					r->obj_uid, r->obj_gid);
		w->obj.fcaps.version = r->obj_fcaps_version;
		w->obj.fcaps.rootid = vt_kuid(r->obj_fcaps_rootid);
	}
	memset(op, 0, sizeof(*op));
	op->op = r->op;
	op->mode = r->arg_mode ? r->arg_mode : r->op == VT_OP_MKDIR ? 0755 : 0644;
	op->uid = vt_cuid(NONE);
	op->gid = vt_cgid(NONE);
	if (r->op == VT_OP_CHOWN)
		op->uid = vt_cuid(r->arg_id);
	if (r->op == VT_OP_ACL_SET) {
		static const uint16_t tags[6] = { VT_ACL_USER_OBJ, VT_ACL_USER, VT_ACL_GROUP_OBJ,
						  VT_ACL_GROUP, VT_ACL_MASK, VT_ACL_OTHER };
		int k;

		op->nacl = 6;
		for (k = 0; k < 6; k++) {
			op->acl[k].tag = tags[k];
			op->acl[k].perm = 4;
			op->acl[k].uid = vt_cuid(tags[k] == VT_ACL_USER ? r->arg_id : NONE);
			op->acl[k].gid = vt_cgid(tags[k] == VT_ACL_GROUP ? r->arg_id : NONE);
		}
	}
	if (r->op == VT_OP_FCAPS_SET) {
		op->fcaps.version = r->arg_version;
		op->fcaps.rootid = vt_cuid(r->arg_id);
	}
}

static bool check(const struct row *r, const struct vt_mop_args *op, const struct vt_expect *e)
{
	int k;

	if (e->err != r->want_err)
		return false;
	if (e->err)
		return true;
	if (r->want_uid != NONE && e->result.uid.val != r->want_uid)
		return false;
	if (r->want_gid != NONE && e->result.gid.val != r->want_gid)
		return false;
	if (r->want_seen_uid != NONE && e->seen_uid.val != r->want_seen_uid)
		return false;
	if (r->want_mode && e->result.mode != r->want_mode)
		return false;
	if (op->op == VT_OP_EXEC &&
	    (e->creds.euid != r->want_euid || e->creds.cap_prm != r->want_cap_prm))
		return false;
	if (op->op == VT_OP_FCAPS_SET && r->want_fcaps_version &&
	    (e->result.fcaps.version != r->want_fcaps_version ||
	     (r->want_fcaps_version == 3 && e->result.fcaps.rootid.val != r->want_fcaps_rootid)))
		return false;
	if (op->op == VT_OP_FCAPS_GET && r->want_fcaps_version &&
	    (e->got_fcaps.version != r->want_fcaps_version ||
	     e->got_fcaps.rootid.val != r->want_fcaps_rootid))
		return false;
	if (op->op == VT_OP_ACL_SET && r->want_acl_user_id != NONE) {
		bool found = false;

		for (k = 0; k < e->result.nacl; k++)
			if (e->result.acl[k].tag == VT_ACL_USER) {
				found = true;
				if (e->result.acl[k].uid.val != r->want_acl_user_id)
					return false;
			}
		if (!found)
			return false;
	}
	return true;
}

int main(void)
{
	char err[200];
	int n = (int)(sizeof(rows) / sizeof(rows[0])), i;

	nsfs.name = "nsfs";
	nsfs.parent = &vt_init_ns;
	nsfs.owner = vt_kuid(0);	/* made by the initial root */
	if (vt_mapping_parse(NSFS, &nsfs.map, err, sizeof(err)) < 0) {
		printf("Bail out! nsfs: %s\n", err);
		return 1;
	}
	ns0.name = "ns0";
	ns0.parent = &vt_init_ns;
	ns0.owner = vt_kuid(0);
	if (vt_mapping_parse("b:0:10000:65536", &ns0.map, err, sizeof(err)) < 0) {
		printf("Bail out! ns0: %s\n", err);
		return 1;
	}
	unit_begin(n);
	for (i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		struct vt_world w;
		struct vt_midmap m;
		struct vt_mop_args op;
		struct vt_expect e;
		char name[600];

		build(r, &w, &m, &op);
		memset(&e, 0, sizeof(e));
		vt_model_apply(&w, &op, &e);
		snprintf(name, sizeof(name), "%s [%s]", r->name, r->rule);
		if (!unit_check(check(r, &op, &e), name))
			printf("# model: %s (%s) uid %u gid %u seen %u fcaps v%d/%u got v%d/%u "
			       "mode %o euid %u pP %llx\n",
			       vt_errname(e.err), e.rule ? e.rule : "", e.result.uid.val,
			       e.result.gid.val, e.seen_uid.val, e.result.fcaps.version,
			       e.result.fcaps.rootid.val, e.got_fcaps.version, e.got_fcaps.rootid.val,
			       (unsigned int)e.result.mode, e.creds.euid,
			       (unsigned long long)e.creds.cap_prm);
	}
	return unit_end();
}
