/* The model against rules stated by hand: one row per rule, each naming
 * the kernel function it comes from, with rows for every bug in §B.5 of
 * the semantics reference that the model covers (circular maps, chgrp to
 * a supplementary group, ACL translation, setgid with umask / default ACL
 * / O_TMPFILE, fscaps v3 rootid, unmapped owners and EOVERFLOW, invalid
 * ids never equal). Pure: no system calls. */
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

enum ns_choice { INIT, NS0, NS1, NS2 };

struct row {
	const char *name;	/* what the row states */
	const char *rule;	/* the kernel function */
	const char *map;	/* mount idmap spec, NULL: plain mount */
	enum ns_choice ns;
	uint32_t uid, gid, group;	/* group: one supplementary group or NONE */
	uint64_t caps;
	mode_t umask;
	mode_t dir_mode;
	uint32_t dir_uid, dir_gid;
	bool dir_defacl;
	mode_t obj_mode;		/* 0: no P/o */
	uint32_t obj_uid, obj_gid;
	struct vt_mop_args op;
	int want_err;
	/* on success, checked when not NONE */
	uint32_t want_uid, want_gid;
	mode_t want_mode;		/* 0: not checked */
	int want_fcaps_version;
	uint32_t want_fcaps_rootid;
	uint32_t want_acl_user_id;	/* on-disk ACL_USER id after ACL_SET, or read id after ACL_GET */
	uint32_t want_seen_uid;		/* stat as caller */
	/* P/o's security.capability (version 0: none; rootid on disk) */
	int obj_fcaps_version;
	uint32_t obj_fcaps_rootid;
	/* EXEC: checked when check_creds (caller-view ids, capability sets) */
	bool check_creds;
	uint32_t want_euid, want_egid;
	uint64_t want_cap_prm, want_cap_eff;
	/* TMPFILE: errno of naming the tmpfile P/n */
	int want_link_err;
	/* RENAME_WHITEOUT: the whiteout's on-disk (kernel) uid */
	bool want_whiteout;
	uint32_t want_wh_uid;
	/* EXEC: checked when check_dump (would_dump, begin_new_exec,
	 * commit_creds, task_dump_owner): dumpable == SUID_DUMP_USER and the
	 * owner of /proc/self/status in the caller's namespace; the world's
	 * fs.suid_dumpable */
	bool check_dump, want_dump_user;
	uint32_t want_dump_owner;
	int suid_dumpable;
	bool fsuid1001;		/* the caller's fsuid is 1001 (setfsuid) */
	/* READ_ATIME: checked when check_atime (atime_needs_update) */
	bool check_atime, want_atime_updated;
	/* P/o holds user.vt, trusted.vt and security.vt */
	bool obj_xattrs;
	/* FSCRYPT_SET_POLICY: P/o holds an entry / the suite's policy n; on
	 * success the policy it must hold afterwards (checked when not 0) */
	bool obj_nonempty;
	int obj_enc_policy, want_enc_policy;
};

/* bounding set of an initial-namespace caller in these rows (without
 * CAP_SYS_RESOURCE, as in a container) and CAP_FULL_SET (cap_last_cap 40) */
#define BSET 0x1fffeffffffULL
#define FULL 0x1ffffffffffULL
#define NETRAW (1ULL << 13)

static struct vt_mns ns0, ns1, ns2;

/* lib/matrix/axes.c's sparse map: seven uid extents (the kernel's
 * bsearch path), gaps, a different gid map; ns2's uid and gid maps
 * differ (VT_NS2_SPEC) */
#define SPARSE "u:69999:69999:1,u:20000:2000:1,u:10000:10000:999,u:999:10999:2," \
	       "u:2000:1000:1,u:1001:1001:1,u:0:0:1,g:0:0:1,g:1000:1001:1,g:1002:1002:68998"
#define SPLIT "u:0:10000:65536,g:0:20000:65536"

static void fill_acl(struct vt_mop_args *a, uint32_t id)
{
	static const uint16_t tags[6] = { VT_ACL_USER_OBJ, VT_ACL_USER, VT_ACL_GROUP_OBJ,
					  VT_ACL_GROUP, VT_ACL_MASK, VT_ACL_OTHER };
	int k;

	a->nacl = 6;
	for (k = 0; k < 6; k++) {
		a->acl[k].tag = tags[k];
		a->acl[k].perm = 6;
		a->acl[k].uid = vt_cuid(tags[k] == VT_ACL_USER ? id : NONE);
		a->acl[k].gid = vt_cgid(tags[k] == VT_ACL_GROUP ? id : NONE);
	}
}

static void kacl(struct vt_acl_kentry *a, int *n, uint32_t id)
{
	static const uint16_t tags[6] = { VT_ACL_USER_OBJ, VT_ACL_USER, VT_ACL_GROUP_OBJ,
					  VT_ACL_GROUP, VT_ACL_MASK, VT_ACL_OTHER };
	int k;

	*n = 6;
	for (k = 0; k < 6; k++) {
		a[k].tag = tags[k];
		a[k].perm = tags[k] == VT_ACL_OTHER ? 5 : 7;
		a[k].uid = vt_kuid(tags[k] == VT_ACL_USER ? id : NONE);
		a[k].gid = vt_kgid(tags[k] == VT_ACL_GROUP ? id : NONE);
	}
}

#define OP(...) ((struct vt_mop_args){ __VA_ARGS__ })
#define NOCHECK .want_uid = NONE, .want_gid = NONE, .want_fcaps_rootid = NONE, \
		.want_acl_user_id = NONE, .want_seen_uid = NONE

static struct row rows[] = {
	/* --- owners and EOVERFLOW --- */
	{ "create through b:0:10000:65536 by init uid 10000 stores 0", "inode_init_owner: mapped_fsuid = from_vfsuid",
	  "b:0:10000:65536", INIT, 10000, 10000, NONE, 0, 022, 0777, 0, 0, false, 0, 0, 0,
	  OP(.op = VT_OP_OPEN_CREAT, .mode = 0644), 0, NOCHECK },
	{ "root creating through b:1:1:65536 gets EOVERFLOW", "may_o_create: fsuidgid_has_mapping",
	  "b:1:1:65536", INIT, 0, 0, NONE, ALL, 022, 0777, 1000, 1000, false, 0, 0, 0,
	  OP(.op = VT_OP_OPEN_CREAT, .mode = 0644), EOVERFLOW, NOCHECK },
	{ "O_TMPFILE by an unmapped caller gets EOVERFLOW", "vfs_tmpfile: fsuidgid_has_mapping",
	  "b:1:1:65536", INIT, 0, 0, NONE, ALL, 022, 0777, 1000, 1000, false, 0, 0, 0,
	  OP(.op = VT_OP_TMPFILE, .mode = 0644), EOVERFLOW, NOCHECK },
	{ "chmod of a file whose owner the mount cannot map: EOVERFLOW", "notify_change: !vfsuid_valid(i_uid_into_vfsuid)",
	  "b:0:10000:65536", INIT, 0, 0, NONE, ALL, 022, 0777, 0, 0, false, 0100644, 70000, 70000,
	  OP(.op = VT_OP_CHMOD, .mode = 0600), EOVERFLOW, NOCHECK },
	{ "unlink of a victim with an unmapped owner: EOVERFLOW", "may_delete: HAS_UNMAPPED_ID victim",
	  "b:0:10000:65536", INIT, 0, 0, NONE, ALL, 022, 0777, 0, 0, false, 0100644, 70000, 70000,
	  OP(.op = VT_OP_UNLINK), EOVERFLOW, NOCHECK },
	{ "write-open of an inode with an unmapped owner: EACCES even for root", "inode_permission: HAS_UNMAPPED_ID",
	  "b:0:10000:65536", INIT, 10000, 10000, NONE, ALL, 022, 0777, 0, 0, false, 0100666, 70000, 70000,
	  OP(.op = VT_OP_OPEN_WRITE), EACCES, NOCHECK },
	{ "chown to an id the caller cannot name: EINVAL", "chown_common: make_kuid(current_user_ns())",
	  "b:0:10000:65536", NS0, 0, 0, NONE, ALL, 022, 0777, 0, 0, false, 0100644, 0, 0,
	  OP(.op = VT_OP_CHOWN, .uid = { 70000 }, .gid = { NONE }), EINVAL, NOCHECK },
	{ "chown to an id the caller names but the mount cannot store: EOVERFLOW", "notify_change: vfsuid_has_fsmapping",
	  "b:0:10000:65536", INIT, 0, 0, NONE, ALL, 022, 0777, 0, 0, false, 0100644, 1000, 1000,
	  OP(.op = VT_OP_CHOWN, .uid = { 5 }, .gid = { NONE }), EOVERFLOW, NOCHECK },
	{ "stat of an unmapped owner shows the overflow id", "generic_fillattr: from_kuid_munged",
	  "b:1:1:65536", INIT, 1000, 1000, NONE, 0, 022, 0777, 0, 0, false, 0100644, 0, 0,
	  OP(.op = VT_OP_OPEN_READ), 0, .want_uid = NONE, .want_gid = NONE, .want_fcaps_rootid = NONE,
	  .want_acl_user_id = NONE, .want_seen_uid = 65534 },
	{ "fchown: opening the fd for reading is checked first", "do_sys_open: may_open(MAY_READ), then chown_common",
	  NULL, INIT, 1000, 1000, NONE, 0, 022, 0777, 0, 0, false, 0100600, 1001, 1001,
	  OP(.op = VT_OP_FCHOWN, .uid = { NONE }, .gid = { 1000 }), EACCES, NOCHECK },
	/* --- §B.5 #2 circular mappings (968219708108) --- */
	{ "swap map: owner chowns to itself (mount view 1000 = disk 1001)", "chown_ok: ia_vfsuid == vfsuid, compared in the mount's view",
	  "b:0:0:1000,b:1000:1001:1,b:1001:1000:1,b:1002:1002:64534", INIT, 1000, 1000, NONE, 0, 022,
	  0777, 0, 0, false, 0100644, 1001, 1001,
	  OP(.op = VT_OP_CHOWN, .uid = { 1000 }, .gid = { NONE }), 0, .want_uid = 1001,
	  .want_gid = 1001, .want_fcaps_rootid = NONE, .want_acl_user_id = NONE, .want_seen_uid = 1000 },
	{ "swap map: root chowns to 1001, disk gets 1000", "setattr_copy: i_uid_update = from_vfsuid",
	  "b:0:0:1000,b:1000:1001:1,b:1001:1000:1,b:1002:1002:64534", INIT, 0, 0, NONE, ALL, 022,
	  0777, 0, 0, false, 0100644, 0, 0,
	  OP(.op = VT_OP_CHOWN, .uid = { 1001 }, .gid = { 1000 }), 0, .want_uid = 1000, .want_gid = 1001,
	  .want_fcaps_rootid = NONE, .want_acl_user_id = NONE, .want_seen_uid = 1001 },
	/* --- §B.5 #4 chgrp to a supplementary group (168f91289340) --- */
	{ "owner chgrps to its supplementary group through a shifted mount", "chgrp_ok: vfsgid_in_group_p(ia_vfsgid)",
	  "b:0:10000:65536", INIT, 11000, 11000, 11001, 0, 022, 0777, 0, 0, false, 0100644, 1000, 1000,
	  OP(.op = VT_OP_CHOWN, .uid = { NONE }, .gid = { 11001 }), 0, .want_uid = 1000,
	  .want_gid = 1001, .want_fcaps_rootid = NONE, .want_acl_user_id = NONE, .want_seen_uid = 11000 },
	{ "owner cannot chgrp to a group it is not in", "chgrp_ok",
	  "b:0:10000:65536", INIT, 11000, 11000, NONE, 0, 022, 0777, 0, 0, false, 0100644, 1000, 1000,
	  OP(.op = VT_OP_CHOWN, .uid = { NONE }, .gid = { 11001 }), EPERM, NOCHECK },
	{ "chmod g+s keeps S_ISGID when the group is the caller's in the mount view", "setattr_prepare: in_group_or_capable(i_gid_into_vfsgid)",
	  "b:0:10000:65536", INIT, 11000, 11000, 11001, 0, 022, 0777, 0, 0, false, 0100644, 1000, 1001,
	  OP(.op = VT_OP_CHMOD, .mode = 02755), 0, .want_uid = 1000, .want_gid = 1001,
	  .want_mode = 0102755, .want_fcaps_rootid = NONE, .want_acl_user_id = NONE, .want_seen_uid = NONE },
	{ "chmod g+s by a non-member silently drops S_ISGID", "setattr_prepare/setattr_copy: !in_group_or_capable",
	  "b:0:10000:65536", INIT, 11000, 11000, NONE, 0, 022, 0777, 0, 0, false, 0100644, 1000, 1001,
	  OP(.op = VT_OP_CHMOD, .mode = 02755), 0, .want_uid = NONE, .want_gid = NONE,
	  .want_mode = 0100755, .want_fcaps_rootid = NONE, .want_acl_user_id = NONE, .want_seen_uid = NONE },
	/* --- §B.5 #5/#6/#7 setgid inheritance and stripping --- */
	{ "non-member creating in a setgid dir loses S_ISGID before umask(S_IXGRP)", "vfs_prepare_mode: mode_strip_sgid before umask (1639a49ccdce)",
	  NULL, INIT, 1000, 1000, NONE, 0, 010, 02777, 0, 1001, false, 0, 0, 0,
	  OP(.op = VT_OP_OPEN_CREAT, .mode = 02775), 0, .want_uid = 1000, .want_gid = 1001,
	  .want_mode = 0100765, .want_fcaps_rootid = NONE, .want_acl_user_id = NONE, .want_seen_uid = NONE },
	{ "same through an idmapped mount", "mode_strip_sgid: in_group_or_capable(i_gid_into_vfsgid(dir))",
	  "b:0:10000:65536", INIT, 11000, 11000, NONE, 0, 010, 02777, 0, 1001, false, 0, 0, 0,
	  OP(.op = VT_OP_OPEN_CREAT, .mode = 02775), 0, .want_uid = 1000, .want_gid = 1001,
	  .want_mode = 0100765, .want_fcaps_rootid = NONE, .want_acl_user_id = NONE, .want_seen_uid = 11000 },
	{ "a member keeps S_ISGID (group mapped through the mount)", "mode_strip_sgid: vfsgid_in_group_p",
	  "b:0:10000:65536", INIT, 11000, 11000, 11001, 0, 022, 02777, 0, 1001, false, 0, 0, 0,
	  OP(.op = VT_OP_OPEN_CREAT, .mode = 02775), 0, .want_uid = 1000, .want_gid = 1001,
	  .want_mode = 0102755, .want_fcaps_rootid = NONE, .want_acl_user_id = NONE, .want_seen_uid = NONE },
	{ "O_TMPFILE strips S_ISGID and applies the umask", "vfs_tmpfile: vfs_prepare_mode (ac6800e279a2)",
	  NULL, INIT, 1000, 1000, NONE, 0, 010, 02777, 0, 1001, false, 0, 0, 0,
	  OP(.op = VT_OP_TMPFILE, .mode = 02775), 0, .want_uid = 1000, .want_gid = 1001,
	  .want_mode = 0100765, .want_fcaps_rootid = NONE, .want_acl_user_id = NONE, .want_seen_uid = NONE },
	{ "default ACL replaces the umask but S_ISGID is still stripped", "vfs_prepare_mode + posix_acl_create",
	  NULL, INIT, 1000, 1000, NONE, 0, 077, 02777, 0, 1001, true, 0, 0, 0,
	  OP(.op = VT_OP_OPEN_CREAT, .mode = 02775), 0, .want_uid = 1000, .want_gid = 1001,
	  .want_mode = 0100775, .want_fcaps_rootid = NONE, .want_acl_user_id = NONE, .want_seen_uid = NONE },
	{ "mkdir in a setgid dir always inherits S_ISGID", "inode_init_owner: S_ISDIR -> mode |= S_ISGID",
	  NULL, INIT, 1000, 1000, NONE, 0, 022, 02777, 0, 1001, false, 0, 0, 0,
	  OP(.op = VT_OP_MKDIR, .mode = 0777), 0, .want_uid = 1000, .want_gid = 1001,
	  .want_mode = 042755, .want_fcaps_rootid = NONE, .want_acl_user_id = NONE, .want_seen_uid = NONE },
	/* --- §B.5 #3 ACL translation (705191b03d50) --- */
	{ "ACL_USER named by a container root through a shifted mount is stored as the disk id", "vfs_set_acl_idmapped_mnt: from_vfsuid",
	  "b:0:10000:65536", NS0, 0, 0, NONE, ALL, 022, 0777, 0, 0, false, 0100644, 0, 0,
	  OP(.op = VT_OP_ACL_SET, .nacl = -1 /* filled: u:1000 */), 0, .want_uid = NONE,
	  .want_gid = NONE, .want_fcaps_rootid = NONE, .want_acl_user_id = 1000, .want_seen_uid = 0 },
	{ "ACL_USER the mount cannot store: EINVAL", "posix_acl_valid: INVALID after from_vfsuid",
	  "b:0:10000:65536", INIT, 0, 0, NONE, ALL, 022, 0777, 0, 0, false, 0100644, 10000, 10000,
	  OP(.op = VT_OP_ACL_SET, .nacl = -2 /* filled: u:5 */), EINVAL, NOCHECK },
	{ "ACL_USER read through a shifted mount by the container root", "vfs_posix_acl_to_xattr: from_kuid(make_vfsuid)",
	  "b:0:10000:65536", NS0, 0, 0, NONE, ALL, 022, 0777, 0, 0, false, 0100660, 0, 0,
	  OP(.op = VT_OP_ACL_GET, .nacl = -3 /* disk u:1000 */), 0, .want_uid = NONE,
	  .want_gid = NONE, .want_fcaps_rootid = NONE, .want_acl_user_id = 1000, .want_seen_uid = NONE },
	{ "ACL_USER unmapped in the mount reads as -1", "vfs_posix_acl_to_xattr: from_kuid -> (uid_t)-1",
	  "b:0:10000:65536", NS0, 0, 0, NONE, ALL, 022, 0777, 0, 0, false, 0100660, 0, 0,
	  OP(.op = VT_OP_ACL_GET, .nacl = -4 /* disk u:70000 */), 0, .want_uid = NONE,
	  .want_gid = NONE, .want_fcaps_rootid = NONE, .want_acl_user_id = NONE - 0, .want_seen_uid = NONE },
	/* --- §B.5 #1 fscaps v3 rootid (db2e718a4798) --- */
	{ "container root sets v2 through a shifted mount: stored v3 rootid 0", "cap_convert_nscap: from_vfsuid(make_kuid(ns0, 0))",
	  "b:0:10000:65536", NS0, 0, 0, NONE, ALL, 022, 0777, 0, 0, false, 0100755, 0, 0,
	  OP(.op = VT_OP_FCAPS_SET, .fcaps = { 2, { 0 } }), 0, .want_uid = NONE, .want_gid = NONE,
	  .want_fcaps_version = 3, .want_fcaps_rootid = 0, .want_acl_user_id = NONE, .want_seen_uid = NONE },
	{ "container root sets v2 on a plain mount: stored v3 rootid 10000", "cap_convert_nscap: no ns_capable(s_user_ns, CAP_SETFCAP)",
	  NULL, NS0, 0, 0, NONE, ALL, 022, 0777, 0, 0, false, 0100755, 10000, 10000,
	  OP(.op = VT_OP_FCAPS_SET, .fcaps = { 2, { 0 } }), 0, .want_uid = NONE, .want_gid = NONE,
	  .want_fcaps_version = 3, .want_fcaps_rootid = 10000, .want_acl_user_id = NONE, .want_seen_uid = NONE },
	{ "initial root sets v2 on a plain mount: kept v2", "cap_convert_nscap: v2 && nop_mnt_idmap && ns_capable",
	  NULL, INIT, 0, 0, NONE, ALL, 022, 0777, 0, 0, false, 0100755, 0, 0,
	  OP(.op = VT_OP_FCAPS_SET, .fcaps = { 2, { 0 } }), 0, .want_uid = NONE, .want_gid = NONE,
	  .want_fcaps_version = 2, .want_fcaps_rootid = NONE, .want_acl_user_id = NONE, .want_seen_uid = NONE },
	{ "v3 rootid the mount cannot map: EINVAL", "cap_convert_nscap: !uid_valid(from_vfsuid)",
	  "b:0:10000:65536", INIT, 0, 0, NONE, ALL, 022, 0777, 0, 0, false, 0100755, 0, 0,
	  OP(.op = VT_OP_FCAPS_SET, .fcaps = { 3, { 5 } }), EINVAL, NOCHECK },
	{ "setting caps without CAP_SETFCAP: EPERM", "cap_convert_nscap: capable_wrt_inode_uidgid(CAP_SETFCAP)",
	  NULL, INIT, 1000, 1000, NONE, 0, 022, 0777, 0, 0, false, 0100755, 1000, 1000,
	  OP(.op = VT_OP_FCAPS_SET, .fcaps = { 2, { 0 } }), EPERM, NOCHECK },
	/* --- sticky, §B.5 #9 --- */
	{ "sticky dir: non-owner cannot remove another's file", "__check_sticky",
	  NULL, INIT, 1000, 1000, NONE, 0, 022, 01777, 0, 0, false, 0100644, 1001, 1001,
	  OP(.op = VT_OP_UNLINK), EPERM, NOCHECK },
	{ "sticky dir: the victim's owner in the mount view may remove it", "__check_sticky: i_uid_into_vfsuid(inode) == fsuid",
	  "b:0:10000:65536", INIT, 11001, 11001, NONE, 0, 022, 01777, 0, 0, false, 0100644, 1001, 1001,
	  OP(.op = VT_OP_UNLINK), 0, NOCHECK },
	/* --- exec: bprm_fill_uid, get_vfs_caps_from_disk, cap_bprm_creds_from_file --- */
	{ "exec setuid file (disk 0) through b:0:10000:65536 by init u1000: euid 10000, no caps",
	  "bprm_fill_uid: euid = i_uid_into_vfsuid(idmap, inode)",
	  "b:0:10000:65536", INIT, 1000, 1000, NONE, 0, 022, 0755, 0, 0, false, 0104755, 0, 0,
	  OP(.op = VT_OP_EXEC), 0, NOCHECK, .check_creds = true, .want_euid = 10000,
	  .want_egid = 1000, .want_cap_prm = 0, .want_cap_eff = 0 },
	{ "exec setuid file whose owner the mount cannot map: setuid ignored",
	  "bprm_fill_uid: !vfsuid_has_mapping(bprm->cred->user_ns, vfsuid)",
	  "b:0:10000:65536", INIT, 1000, 1000, NONE, 0, 022, 0755, 0, 0, false, 0104755, 70000, 70000,
	  OP(.op = VT_OP_EXEC), 0, NOCHECK, .check_creds = true, .want_euid = 1000,
	  .want_egid = 1000 },
	{ "exec setuid file (disk 0) through b:0:10000:65536 by ns0 u1000: root of ns0, full caps",
	  "bprm_fill_uid + handle_privileged_root: euid == make_kuid(ns0, 0), bset = CAP_FULL_SET",
	  "b:0:10000:65536", NS0, 1000, 1000, NONE, 0, 022, 0755, 0, 0, false, 0104755, 0, 0,
	  OP(.op = VT_OP_EXEC), 0, NOCHECK, .check_creds = true, .want_euid = 0,
	  .want_egid = 1000, .want_cap_prm = FULL, .want_cap_eff = FULL },
	{ "exec setgid file without S_IXGRP: egid unchanged",
	  "bprm_fill_uid: S_ISGID only with S_IXGRP",
	  "b:0:10000:65536", INIT, 1000, 1000, NONE, 0, 022, 0755, 0, 0, false, 0102745, 0, 0,
	  OP(.op = VT_OP_EXEC), 0, NOCHECK, .check_creds = true, .want_euid = 1000,
	  .want_egid = 1000 },
	{ "exec setgid file with S_IXGRP (disk gid 0) through b:0:10000:65536: egid 10000",
	  "bprm_fill_uid: egid = i_gid_into_vfsgid(idmap, inode)",
	  "b:0:10000:65536", INIT, 1000, 1000, NONE, 0, 022, 0755, 0, 0, false, 0102755, 0, 0,
	  OP(.op = VT_OP_EXEC), 0, NOCHECK, .check_creds = true, .want_euid = 1000,
	  .want_egid = 10000 },
	{ "exec of a v2 fcaps file on the plain mount by init u1000: pP = pE = fP",
	  "bprm_caps_from_vfs_caps: pP' = bset & fP; effective flag",
	  NULL, INIT, 1000, 1000, NONE, 0, 022, 0755, 0, 0, false, 0100755, 0, 0,
	  OP(.op = VT_OP_EXEC), 0, NOCHECK, .obj_fcaps_version = 2, .check_creds = true,
	  .want_euid = 1000, .want_egid = 1000, .want_cap_prm = NETRAW, .want_cap_eff = NETRAW },
	{ "exec of a v2 fcaps file through b:0:10000:65536 by init u1000: caps ignored",
	  "get_vfs_caps_from_disk: !rootid_owns_currentns (vfsuid 10000) -> -ENODATA",
	  "b:0:10000:65536", INIT, 1000, 1000, NONE, 0, 022, 0755, 0, 0, false, 0100755, 0, 0,
	  OP(.op = VT_OP_EXEC), 0, NOCHECK, .obj_fcaps_version = 2, .check_creds = true,
	  .want_euid = 1000, .want_egid = 1000 },
	{ "exec of a v2 fcaps file through b:0:10000:65536 by ns0 u1000: caps used",
	  "get_vfs_caps_from_disk: rootid_owns_currentns (vfsuid 10000 is ns0's root)",
	  "b:0:10000:65536", NS0, 1000, 1000, NONE, 0, 022, 0755, 0, 0, false, 0100755, 0, 0,
	  OP(.op = VT_OP_EXEC), 0, NOCHECK, .obj_fcaps_version = 2, .check_creds = true,
	  .want_euid = 1000, .want_egid = 1000, .want_cap_prm = NETRAW, .want_cap_eff = NETRAW },
	{ "exec of a v3 rootid 70000 fcaps file on the plain mount: caps ignored",
	  "get_vfs_caps_from_disk: !rootid_owns_currentns -> -ENODATA",
	  NULL, INIT, 1000, 1000, NONE, 0, 022, 0755, 0, 0, false, 0100755, 0, 0,
	  OP(.op = VT_OP_EXEC), 0, NOCHECK, .obj_fcaps_version = 3, .obj_fcaps_rootid = 70000,
	  .check_creds = true, .want_euid = 1000, .want_egid = 1000 },
	{ "root execs a setuid-1000 file: pP = bset, pE empty (only the real uid is root)",
	  "handle_privileged_root: __is_real(root) -> pP = bset | pI; !__is_eff -> no effective",
	  NULL, INIT, 0, 0, NONE, ALL, 022, 0755, 0, 0, false, 0104755, 1000, 1000,
	  OP(.op = VT_OP_EXEC), 0, NOCHECK, .check_creds = true, .want_euid = 1000,
	  .want_egid = 0, .want_cap_prm = BSET, .want_cap_eff = 0 },
	{ "u1000 execs a setuid-root file with fcaps: only the file caps",
	  "handle_privileged_root: has_fcap && __is_suid(root) -> return",
	  NULL, INIT, 1000, 1000, NONE, 0, 022, 0755, 0, 0, false, 0104755, 0, 0,
	  OP(.op = VT_OP_EXEC), 0, NOCHECK, .obj_fcaps_version = 2, .check_creds = true,
	  .want_euid = 0, .want_egid = 1000, .want_cap_prm = NETRAW, .want_cap_eff = NETRAW },
	{ "exec of a file the caller cannot execute: EACCES",
	  "do_open_execat: may_open(MAY_EXEC) -> inode_permission",
	  NULL, INIT, 1000, 1000, NONE, 0, 022, 0755, 0, 0, false, 0104750, 0, 0,
	  OP(.op = VT_OP_EXEC), EACCES, NOCHECK },
	/* --- exec: dumpability (fs/exec.c would_dump, begin_new_exec; kernel/cred.c
	 * commit_creds; fs/proc/base.c task_dump_owner), fs.suid_dumpable 0 --- */
	{ "u1000 execs its own 0711 file on the plain mount: readable, dumpable, /proc owner 1000",
	  "would_dump: inode_permission(MAY_READ) succeeds (owner class rwx); SUID_DUMP_USER",
	  NULL, INIT, 1000, 1000, NONE, 0, 022, 0755, 0, 0, false, 0100711, 1000, 1000,
	  OP(.op = VT_OP_EXEC), 0, NOCHECK, .check_dump = true, .want_dump_user = true,
	  .want_dump_owner = 1000 },
	{ "the same file through b:0:10000:65536 (seen as 11000): other class --x, non-dumpable",
	  "would_dump: inode_permission(file_mnt_idmap, MAY_READ) fails -> ENFORCE_NONDUMP; "
	  "task_dump_owner: make_kuid(init, 0)",
	  "b:0:10000:65536", INIT, 1000, 1000, NONE, 0, 022, 0755, 0, 0, false, 0100711, 1000, 1000,
	  OP(.op = VT_OP_EXEC), 0, NOCHECK, .check_dump = true, .want_dump_user = false,
	  .want_dump_owner = 0 },
	{ "the same exec with fs.suid_dumpable = 1: SUID_DUMP_USER, /proc owner the euid",
	  "begin_new_exec: set_dumpable(suid_dumpable); task_dump_owner: dumpable == SUID_DUMP_USER",
	  "b:0:10000:65536", INIT, 1000, 1000, NONE, 0, 022, 0755, 0, 0, false, 0100711, 1000, 1000,
	  OP(.op = VT_OP_EXEC), 0, NOCHECK, .check_dump = true, .want_dump_user = true,
	  .want_dump_owner = 1000, .suid_dumpable = 1 },
	{ "ns0 u1000 with CAP_DAC_READ_SEARCH reads a 0711 disk-0 file seen as 10000 (ns0's 0)",
	  "would_dump: generic_permission: capable_wrt_inode_uidgid(CAP_DAC_READ_SEARCH) through "
	  "the mount -> readable; new pP 0 within the old: SUID_DUMP_USER, owner euid (ns0 1000)",
	  "b:0:10000:65536", NS0, 1000, 1000, NONE, 1ULL << 2, 022, 0755, 0, 0, false, 0100711, 0, 0,
	  OP(.op = VT_OP_EXEC), 0, NOCHECK, .check_dump = true, .want_dump_user = true,
	  .want_dump_owner = 1000 },
	{ "ns0 u1000 with CAP_DAC_READ_SEARCH, 0711 disk-70000 file seen as 80000 (not in ns0)",
	  "would_dump: unreadable; mm->user_ns ns0 is not privileged_wrt_inode_uidgid -> init; "
	  "task_dump_owner kuid 0, from_kuid_munged(ns0) = overflowuid",
	  "b:0:10000:65536", NS0, 1000, 1000, NONE, 1ULL << 2, 022, 0755, 0, 0, false, 0100711,
	  70000, 70000, OP(.op = VT_OP_EXEC), 0, NOCHECK, .check_dump = true,
	  .want_dump_user = false, .want_dump_owner = 65534 },
	{ "ns1 root execs a 0711 disk-0 file seen as 10000: unreadable, mm->user_ns walks to ns0",
	  "would_dump: ns1 (kuids 11000..11999) not privileged, ns0 is; task_dump_owner "
	  "make_kuid(ns0, 0) = 10000, which ns1 shows as overflowuid",
	  "b:0:10000:65536", NS1, 0, 0, NONE, ALL, 022, 0755, 0, 0, false, 0100711, 0, 0,
	  OP(.op = VT_OP_EXEC), 0, NOCHECK, .check_dump = true, .want_dump_user = false,
	  .want_dump_owner = 65534 },
	{ "ns0 root execs a 0711 file of another ns0 uid (disk 5000 seen as 15000): it reads it",
	  "would_dump: other class --x, CAP_DAC_READ_SEARCH scoped (15000 maps into ns0) -> readable; "
	  "root's new pP = CAP_FULL_SET within ALL: SUID_DUMP_USER, owner euid 0",
	  "b:0:10000:65536", NS0, 0, 0, NONE, ALL, 022, 0755, 0, 0, false, 0100711, 5000, 5000,
	  OP(.op = VT_OP_EXEC), 0, NOCHECK, .check_dump = true, .want_dump_user = true,
	  .want_dump_owner = 0 },
	{ "u2000 in supplementary group 11000 reads a 0751 file of disk gid 1000 through the shift",
	  "would_dump: acl_permission_check: vfsgid_in_group_p(i_gid_into_vfsgid = 11000) r-x",
	  "b:0:10000:65536", INIT, 2000, 2000, 11000, 0, 022, 0755, 0, 0, false, 0100751, 0, 1000,
	  OP(.op = VT_OP_EXEC), 0, NOCHECK, .check_dump = true, .want_dump_user = true,
	  .want_dump_owner = 2000 },
	{ "u1000 execs a setuid 04711 disk-0 file through the shift: euid 10000, /proc owner 0",
	  "commit_creds: euid changes -> suid_dumpable; task_dump_owner: make_kuid(init, 0), not the euid",
	  "b:0:10000:65536", INIT, 1000, 1000, NONE, 0, 022, 0755, 0, 0, false, 0104711, 0, 0,
	  OP(.op = VT_OP_EXEC), 0, NOCHECK, .check_creds = true, .want_euid = 10000,
	  .want_egid = 1000, .check_dump = true, .want_dump_user = false, .want_dump_owner = 0 },
	{ "root execs a 0711 file whose owner the mount does not map (b:0:0:1000, disk 70000)",
	  "would_dump: capable_wrt_inode_uidgid fails on the invalid vfsuid -> unreadable even for "
	  "root; task_dump_owner kuid 0",
	  "b:0:0:1000", INIT, 0, 0, NONE, ALL, 022, 0755, 0, 0, false, 0100711, 70000, 70000,
	  OP(.op = VT_OP_EXEC), 0, NOCHECK, .check_dump = true, .want_dump_user = false,
	  .want_dump_owner = 0 },
	{ "u1000-fsuid1001 execs its own file: exec sets fsuid = euid, a change: non-dumpable",
	  "commit_creds: old fsuid 1001 != new fsuid 1000 -> set_dumpable(suid_dumpable)",
	  NULL, INIT, 1000, 1000, NONE, 0, 022, 0755, 0, 0, false, 0100755, 1000, 1000,
	  OP(.op = VT_OP_EXEC), 0, NOCHECK, .fsuid1001 = true, .check_dump = true,
	  .want_dump_user = false, .want_dump_owner = 0 },
	/* --- read(2) and the atime: fs/inode.c atime_needs_update --- */
	{ "read on the plain mount of a file owned by 70000: every id maps, atime updated",
	  "atime_needs_update: HAS_UNMAPPED_ID(nop_mnt_idmap) is false",
	  NULL, INIT, 1000, 1000, NONE, 0, 022, 0755, 0, 0, false, 0100644, 70000, 70000,
	  OP(.op = VT_OP_READ_ATIME), 0, NOCHECK, .check_atime = true, .want_atime_updated = true },
	{ "read through b:0:10000:65536 of a disk-0 file (seen as 10000): atime updated",
	  "atime_needs_update: i_uid_into_vfsuid = 10000, i_gid_into_vfsgid = 10000, both valid",
	  "b:0:10000:65536", INIT, 1000, 1000, NONE, 0, 022, 0755, 0, 0, false, 0100644, 0, 0,
	  OP(.op = VT_OP_READ_ATIME), 0, NOCHECK, .check_atime = true, .want_atime_updated = true },
	{ "read through b:1000:2000:1 of a file 1000:1001: its group has no mapping, atime kept",
	  "atime_needs_update: HAS_UNMAPPED_ID: !vfsgid_valid(i_gid_into_vfsgid) (the read succeeds)",
	  "b:1000:2000:1", INIT, 1000, 1000, NONE, 0, 022, 0755, 0, 0, false, 0100644, 1000, 1001,
	  OP(.op = VT_OP_READ_ATIME), 0, NOCHECK, .check_atime = true, .want_atime_updated = false },
	{ "read through b:1000:2000:1 of a file 1001:1000: its owner has no mapping, atime kept",
	  "atime_needs_update: HAS_UNMAPPED_ID: !vfsuid_valid(i_uid_into_vfsuid)",
	  "b:1000:2000:1", INIT, 1000, 1000, NONE, 0, 022, 0755, 0, 0, false, 0100644, 1001, 1000,
	  OP(.op = VT_OP_READ_ATIME), 0, NOCHECK, .check_atime = true, .want_atime_updated = false },
	{ "read of a 0600 file of another owner: the open fails first (EACCES)",
	  "may_open: inode_permission(MAY_READ) before any read",
	  "b:1000:2000:1", INIT, 1000, 1000, NONE, 0, 022, 0755, 0, 0, false, 0100600, 1001, 1000,
	  OP(.op = VT_OP_READ_ATIME), EACCES, NOCHECK },
	/* --- cachestat(2): mm/filemap.c can_do_cachestat, include/linux/fs.h
	 * file_owner_or_capable --- */
	{ "cachestat of a 0644 file its owner sees through b:0:10000:65536 (disk 1000 = 11000)",
	  "can_do_cachestat: file_owner_or_capable: i_uid_into_vfsuid == fsuid 11000",
	  "b:0:10000:65536", INIT, 11000, 11000, NONE, 0, 022, 0755, 0, 0, false, 0100644, 1000, 1000,
	  OP(.op = VT_OP_CACHESTAT), 0, NOCHECK },
	{ "cachestat of the same file by disk uid 1000 through the shift: not the owner there: EPERM",
	  "can_do_cachestat: !file_owner_or_capable, !file_permission(MAY_WRITE) (other r--)",
	  "b:0:10000:65536", INIT, 1000, 1000, NONE, 0, 022, 0755, 0, 0, false, 0100644, 1000, 1000,
	  OP(.op = VT_OP_CACHESTAT), EPERM, NOCHECK },
	{ "cachestat of a 0666 file of another owner: write permission through the mount",
	  "can_do_cachestat: file_permission(MAY_WRITE) == 0",
	  "b:0:10000:65536", INIT, 1000, 1000, NONE, 0, 022, 0755, 0, 0, false, 0100666, 1000, 1000,
	  OP(.op = VT_OP_CACHESTAT), 0, NOCHECK },
	{ "cachestat by ns0 u1000 with CAP_FOWNER of a 0644 disk-70000 file (seen as 80000): EPERM",
	  "inode_owner_or_capable: vfsuid 80000 has no mapping in ns0, CAP_FOWNER does not count",
	  "b:0:10000:65536", NS0, 1000, 1000, NONE, 1ULL << 3, 022, 0755, 0, 0, false, 0100644,
	  70000, 70000, OP(.op = VT_OP_CACHESTAT), EPERM, NOCHECK },
	{ "cachestat by ns0 u1000 with CAP_FOWNER of a 0644 disk-0 file (seen as 10000 = ns0's 0)",
	  "inode_owner_or_capable: vfsuid_has_mapping(ns0, 10000) && ns_capable(ns0, CAP_FOWNER)",
	  "b:0:10000:65536", NS0, 1000, 1000, NONE, 1ULL << 3, 022, 0755, 0, 0, false, 0100644, 0, 0,
	  OP(.op = VT_OP_CACHESTAT), 0, NOCHECK },
	/* --- the fd forms: fsetxattr/fgetxattr/fremovexattr (fs/xattr.c, 6.12)
	 * run do_setxattr/getxattr/removexattr with file_mnt_idmap(f) after
	 * the open(O_RDONLY): may_open -> inode_permission(MAY_READ) through
	 * the mount; ftruncate (fs/open.c do_ftruncate) runs do_truncate with
	 * file_mnt_idmap(file) after the open(O_WRONLY) --- */
	{ "setxattr(user.vt) of a 0200 file by its owner through b:0:10000:65536 (disk 1000 = 11000)",
	  "xattr_permission: inode_permission(MAY_WRITE): owner class -w-",
	  "b:0:10000:65536", INIT, 11000, 11000, NONE, 0, 022, 0755, 0, 0, false, 0100200, 1000, 1000,
	  OP(.op = VT_OP_XATTR_SET_USER), 0, NOCHECK },
	{ "fsetxattr(user.vt) of the same: the open(O_RDONLY) is refused first (EACCES)",
	  "may_open: inode_permission(MAY_READ): owner class -w-, no CAP_DAC_*",
	  "b:0:10000:65536", INIT, 11000, 11000, NONE, 0, 022, 0755, 0, 0, false, 0100200, 1000, 1000,
	  OP(.op = VT_OP_XATTR_SET_USER, .by_fd = true), EACCES, NOCHECK },
	{ "fsetxattr(trusted.vt) of a 0200 file of disk 1000 by init root through b:0:10000:65536",
	  "may_open: capable_wrt_inode_uidgid(CAP_DAC_OVERRIDE): 11000 maps in init; capable(CAP_SYS_ADMIN)",
	  "b:0:10000:65536", INIT, 0, 0, NONE, ALL, 022, 0755, 0, 0, false, 0100200, 1000, 1000,
	  OP(.op = VT_OP_XATTR_SET_TRUSTED, .by_fd = true), 0, NOCHECK },
	{ "setxattr(trusted.vt) of a 0200 file of disk 70000 (unmapped there) by init root: EPERM",
	  "xattr_permission -> may_write_xattr: HAS_UNMAPPED_ID",
	  "b:0:10000:65536", INIT, 0, 0, NONE, ALL, 022, 0755, 0, 0, false, 0100200, 70000, 70000,
	  OP(.op = VT_OP_XATTR_SET_TRUSTED), EPERM, NOCHECK },
	{ "fsetxattr(trusted.vt) of the same: the open fails first, EACCES",
	  "may_open: other class -w-; capable_wrt_inode_uidgid: privileged_wrt_inode_uidgid: no mapping",
	  "b:0:10000:65536", INIT, 0, 0, NONE, ALL, 022, 0755, 0, 0, false, 0100200, 70000, 70000,
	  OP(.op = VT_OP_XATTR_SET_TRUSTED, .by_fd = true), EACCES, NOCHECK },
	/* --- security.* but security.capability: xattr_permission asks
	 * may_write_xattr for writes and nothing else; cap_inode_setxattr and
	 * cap_inode_removexattr ask ns_capable(s_user_ns, CAP_SYS_ADMIN), here
	 * the initial namespace; vfs_getxattr asks nothing --- */
	{ "setxattr(security.vt) of its own 0644 file (disk 1000 = 11000) through b:0:10000:65536: EPERM",
	  "cap_inode_setxattr: !ns_capable(s_user_ns, CAP_SYS_ADMIN); owning the file does not count",
	  "b:0:10000:65536", INIT, 11000, 11000, NONE, 0, 022, 0755, 0, 0, false, 0100644, 1000, 1000,
	  OP(.op = VT_OP_XATTR_SET_SECURITY), EPERM, NOCHECK },
	{ "setxattr(security.vt) of a 0644 file of disk 1000 by init root through b:0:10000:65536",
	  "xattr_permission: no inode_permission for security.*; cap_inode_setxattr: ns_capable(init)",
	  "b:0:10000:65536", INIT, 0, 0, NONE, ALL, 022, 0755, 0, 0, false, 0100644, 1000, 1000,
	  OP(.op = VT_OP_XATTR_SET_SECURITY), 0, NOCHECK },
	{ "setxattr(security.vt) of a file of disk 70000 (unmapped there) by init root: EPERM",
	  "xattr_permission -> may_write_xattr: HAS_UNMAPPED_ID, for security.* too",
	  "b:0:10000:65536", INIT, 0, 0, NONE, ALL, 022, 0755, 0, 0, false, 0100644, 70000, 70000,
	  OP(.op = VT_OP_XATTR_SET_SECURITY), EPERM, NOCHECK },
	{ "setxattr(security.vt) of a fifo of disk 1000 by init root: no file type rule",
	  "xattr_permission: the user.* file-or-directory test is not asked of security.*",
	  "b:0:10000:65536", INIT, 0, 0, NONE, ALL, 022, 0755, 0, 0, false, 0010666, 1000, 1000,
	  OP(.op = VT_OP_XATTR_SET_SECURITY), 0, NOCHECK },
	{ "getxattr(security.vt) of a 0600 file of disk 0 by init uid 1000 (other class ---)",
	  "vfs_getxattr: xattr_permission returns 0 for security.* before inode_permission(MAY_READ)",
	  "b:0:10000:65536", INIT, 1000, 1000, NONE, 0, 022, 0755, 0, 0, false, 0100600, 0, 0,
	  OP(.op = VT_OP_XATTR_GET_SECURITY), 0, NOCHECK, .obj_xattrs = true },
	{ "fgetxattr(security.vt) of the same: the open(O_RDONLY) is refused (EACCES)",
	  "may_open: inode_permission(MAY_READ): other class ---, no CAP_DAC_*",
	  "b:0:10000:65536", INIT, 1000, 1000, NONE, 0, 022, 0755, 0, 0, false, 0100600, 0, 0,
	  OP(.op = VT_OP_XATTR_GET_SECURITY, .by_fd = true), EACCES, NOCHECK, .obj_xattrs = true },
	{ "removexattr(security.vt) of its own file (disk 1000 = 11000) by uid 11000: EPERM",
	  "cap_inode_removexattr: security.* but capability needs ns_capable(s_user_ns, CAP_SYS_ADMIN)",
	  "b:0:10000:65536", INIT, 11000, 11000, NONE, 0, 022, 0755, 0, 0, false, 0100644, 1000, 1000,
	  OP(.op = VT_OP_XATTR_REMOVE_SECURITY), EPERM, NOCHECK, .obj_xattrs = true },
	{ "removexattr(security.vt) that is not there by init root: ENODATA",
	  "__vfs_removexattr: the handler finds no such attribute",
	  "b:0:10000:65536", INIT, 0, 0, NONE, ALL, 022, 0755, 0, 0, false, 0100644, 1000, 1000,
	  OP(.op = VT_OP_XATTR_REMOVE_SECURITY), ENODATA, NOCHECK },
	{ "fgetxattr(user.vt) of a 0644 file of disk 1000 by init uid 1000 (other class there)",
	  "may_open and xattr_permission: inode_permission(MAY_READ): other class r--",
	  "b:0:10000:65536", INIT, 1000, 1000, NONE, 0, 022, 0755, 0, 0, false, 0100644, 1000, 1000,
	  OP(.op = VT_OP_XATTR_GET_USER, .by_fd = true), 0, NOCHECK, .obj_xattrs = true },
	{ "fremovexattr(user.vt) of the same by init uid 1000: EACCES (no write there)",
	  "xattr_permission: inode_permission(MAY_WRITE): other class r--",
	  "b:0:10000:65536", INIT, 1000, 1000, NONE, 0, 022, 0755, 0, 0, false, 0100644, 1000, 1000,
	  OP(.op = VT_OP_XATTR_REMOVE_USER, .by_fd = true), EACCES, NOCHECK, .obj_xattrs = true },
	{ "fremovexattr(user.vt) by its owner through the mount (init uid 11000)",
	  "xattr_permission: inode_permission(MAY_WRITE): owner class rw- (i_uid_into_vfsuid 11000)",
	  "b:0:10000:65536", INIT, 11000, 11000, NONE, 0, 022, 0755, 0, 0, false, 0100644, 1000, 1000,
	  OP(.op = VT_OP_XATTR_REMOVE_USER, .by_fd = true), 0, NOCHECK, .obj_xattrs = true },
	{ "getxattr(security.capability) of a 0700 file by ns0 uid 1001: no permission asked",
	  "xattr_permission: none for security.*; cap_inode_getsecurity: rootid 0 = 10000 = ns0 root: v2",
	  "b:0:10000:65536", NS0, 1001, 1001, NONE, 0, 022, 0755, 0, 0, false, 0100700, 1000, 1000,
	  OP(.op = VT_OP_FCAPS_GET), 0, NOCHECK, .obj_fcaps_version = 3, .obj_fcaps_rootid = 0 },
	{ "fgetxattr(security.capability) of the same by ns0 uid 1001: the open is EACCES",
	  "may_open: inode_permission(MAY_READ): other class ---, no CAP_DAC_*",
	  "b:0:10000:65536", NS0, 1001, 1001, NONE, 0, 022, 0755, 0, 0, false, 0100700, 1000, 1000,
	  OP(.op = VT_OP_FCAPS_GET, .by_fd = true), EACCES, NOCHECK, .obj_fcaps_version = 3,
	  .obj_fcaps_rootid = 0 },
	{ "fgetxattr(security.capability) of the same by ns0 uid 1000 (11000: the owner there)",
	  "may_open: i_uid_into_vfsuid 11000 == fsuid: owner class rwx",
	  "b:0:10000:65536", NS0, 1000, 1000, NONE, 0, 022, 0755, 0, 0, false, 0100700, 1000, 1000,
	  OP(.op = VT_OP_FCAPS_GET, .by_fd = true), 0, NOCHECK, .obj_fcaps_version = 3,
	  .obj_fcaps_rootid = 0 },
	{ "fgetxattr(security.capability) of a 0700 file of disk 70000 by ns0 root with all caps",
	  "may_open: capable_wrt_inode_uidgid(CAP_DAC_*): vfsuid invalid, no mapping in ns0: EACCES",
	  "b:0:10000:65536", NS0, 0, 0, NONE, ALL, 022, 0755, 0, 0, false, 0100700, 70000, 70000,
	  OP(.op = VT_OP_FCAPS_GET, .by_fd = true), EACCES, NOCHECK, .obj_fcaps_version = 3,
	  .obj_fcaps_rootid = 0 },
	{ "fsetxattr(system.posix_acl_access) u:1000 by ns0 uid 1000 on its 0644 file: disk 1000",
	  "posix_acl_from_xattr(ns0): 11000; vfs_set_acl_idmapped_mnt: from_vfsuid(file's idmap) 1000",
	  "b:0:10000:65536", NS0, 1000, 1000, NONE, 0, 022, 0755, 0, 0, false, 0100644, 1000, 1000,
	  OP(.op = VT_OP_ACL_SET, .nacl = -1, .by_fd = true), 0, .want_uid = NONE, .want_gid = NONE,
	  .want_fcaps_rootid = NONE, .want_acl_user_id = 1000, .want_seen_uid = 1000 },
	{ "fsetxattr(system.posix_acl_access) by the owner of a 0200 file: the open is EACCES",
	  "may_open: inode_permission(MAY_READ): owner class -w-",
	  "b:0:10000:65536", NS0, 1000, 1000, NONE, 0, 022, 0755, 0, 0, false, 0100200, 1000, 1000,
	  OP(.op = VT_OP_ACL_SET, .nacl = -1, .by_fd = true), EACCES, NOCHECK },
	{ "ftruncate of a 6777 file of disk 1000:1000 by its owner there (init 11000): suid, sgid go",
	  "do_truncate(file_mnt_idmap): setattr_should_drop_suidgid: S_ISUID, S_ISGID|S_IXGRP, !CAP_FSETID",
	  "b:0:10000:65536", INIT, 11000, 11000, NONE, 0, 022, 0755, 0, 0, false, 0106777, 1000, 1000,
	  OP(.op = VT_OP_TRUNCATE, .by_fd = true), 0, NOCHECK, .want_mode = 0100777 },
	{ "ftruncate of the same with CAP_FSETID: the bits stay",
	  "setattr_should_drop_suidgid: capable(CAP_FSETID) returns 0",
	  "b:0:10000:65536", INIT, 11000, 11000, NONE, 1ULL << 4, 022, 0755, 0, 0, false, 0106777,
	  1000, 1000, OP(.op = VT_OP_TRUNCATE, .by_fd = true), 0, NOCHECK, .want_mode = 0106777 },
	{ "ftruncate of a 2767 file of disk 1000:1001 by init 11000:11000: sgid goes (not in 11001)",
	  "setattr_should_drop_sgid: !in_group_or_capable(i_gid_into_vfsgid 11001)",
	  "b:0:10000:65536", INIT, 11000, 11000, NONE, 0, 022, 0755, 0, 0, false, 0102767, 1000, 1001,
	  OP(.op = VT_OP_TRUNCATE, .by_fd = true), 0, NOCHECK, .want_mode = 0100767 },
	{ "ftruncate of the same by init 11000 in group 11001: sgid stays",
	  "setattr_should_drop_sgid: in_group_or_capable: vfsgid 11001 in the caller's groups",
	  "b:0:10000:65536", INIT, 11000, 11000, 11001, 0, 022, 0755, 0, 0, false, 0102767, 1000, 1001,
	  OP(.op = VT_OP_TRUNCATE, .by_fd = true), 0, NOCHECK, .want_mode = 0102767 },
	{ "ftruncate of a 0644 file of disk 1000 by init uid 1000 (other class there): EACCES",
	  "may_open: inode_permission(MAY_WRITE): other class r--",
	  "b:0:10000:65536", INIT, 1000, 1000, NONE, 0, 022, 0755, 0, 0, false, 0100644, 1000, 1000,
	  OP(.op = VT_OP_TRUNCATE, .by_fd = true), EACCES, NOCHECK },
	{ "ftruncate of a directory: the open(O_WRONLY) is EISDIR",
	  "may_open: S_IFDIR with MAY_WRITE",
	  "b:0:10000:65536", INIT, 0, 0, NONE, ALL, 022, 0755, 0, 0, false, 040777, 1000, 1000,
	  OP(.op = VT_OP_TRUNCATE, .by_fd = true), EISDIR, NOCHECK },
	{ "ftruncate of a 0666 file of disk 70000 by init root: EACCES (unmapped owner)",
	  "may_open -> inode_permission(MAY_WRITE): HAS_UNMAPPED_ID",
	  "b:0:10000:65536", INIT, 0, 0, NONE, ALL, 022, 0755, 0, 0, false, 0100666, 70000, 70000,
	  OP(.op = VT_OP_TRUNCATE, .by_fd = true), EACCES, NOCHECK },
	/* --- mknod of a character device --- */
	{ "mknod S_IFCHR by root of a child namespace: EPERM",
	  "vfs_mknod: !capable(CAP_MKNOD) (initial namespace)",
	  "b:0:10000:65536", NS0, 0, 0, NONE, ALL, 022, 0777, 0, 0, false, 0, 0, 0,
	  OP(.op = VT_OP_MKNOD_CHR, .mode = 0644), EPERM, NOCHECK },
	{ "mknod S_IFCHR by init root through b:0:10000:65536... as uid 10000 with CAP_MKNOD",
	  "vfs_mknod: may_create, capable(CAP_MKNOD), inode_init_owner(mapped_fsuid)",
	  "b:0:10000:65536", INIT, 10000, 10000, NONE, VT_CAPBIT(27), 022, 0777, 0, 0, false, 0, 0, 0,
	  OP(.op = VT_OP_MKNOD_CHR, .mode = 0666), 0, .want_uid = 0, .want_gid = 0,
	  .want_mode = 020644, .want_fcaps_rootid = NONE, .want_acl_user_id = NONE,
	  .want_seen_uid = 10000 },
	{ "mknod S_IFCHR by an unmapped caller: EOVERFLOW before the capability",
	  "vfs_mknod: may_create first (fsuidgid_has_mapping)",
	  "b:1:1:65536", INIT, 0, 0, NONE, ALL, 022, 0777, 1000, 1000, false, 0, 0, 0,
	  OP(.op = VT_OP_MKNOD_CHR, .mode = 0644), EOVERFLOW, NOCHECK },
	/* --- RENAME_WHITEOUT --- */
	{ "RENAME_WHITEOUT by ns0 root (no CAP_MKNOD in init): allowed, whiteout owned 0 on disk",
	  "do_renameat2: no capability since a3c751a50fe6; shmem_whiteout -> inode_init_owner",
	  "b:0:10000:65536", NS0, 0, 0, NONE, ALL, 022, 0777, 0, 0, false, 0100644, 0, 0,
	  OP(.op = VT_OP_RENAME_WHITEOUT), 0, NOCHECK, .want_whiteout = true, .want_wh_uid = 0 },
	{ "RENAME_WHITEOUT over an existing name by a caller the mount cannot map: INVALID owner",
	  "vfs_rename: may_delete(target), no fsuidgid_has_mapping; inode_init_owner(mapped_fsuid)",
	  "b:1:1:65536", INIT, 0, 0, NONE, ALL, 022, 0755, 1000, 1000, false, 0100644, 1000, 1000,
	  OP(.op = VT_OP_RENAME_WHITEOUT, .to_other = true), 0, NOCHECK, .want_whiteout = true,
	  .want_wh_uid = NONE },
	{ "RENAME_WHITEOUT to a new name by a caller the mount cannot map: EOVERFLOW",
	  "vfs_rename: may_create(target): fsuidgid_has_mapping",
	  "b:1:1:65536", INIT, 0, 0, NONE, ALL, 022, 0755, 1000, 1000, false, 0100644, 1000, 1000,
	  OP(.op = VT_OP_RENAME_WHITEOUT), EOVERFLOW, NOCHECK },
	/* --- O_TMPFILE named through /proc/self/fd --- */
	{ "O_TMPFILE through b:0:10000:65536 by uid 10000, then linked: owner 0 on disk",
	  "vfs_tmpfile: inode_init_owner; do_linkat: may_linkat + vfs_link",
	  "b:0:10000:65536", INIT, 10000, 10000, NONE, 0, 022, 0777, 0, 0, false, 0, 0, 0,
	  OP(.op = VT_OP_TMPFILE, .mode = 0644), 0, .want_uid = 0, .want_gid = 0,
	  .want_mode = 0100644, .want_fcaps_rootid = NONE, .want_acl_user_id = NONE,
	  .want_seen_uid = 10000, .want_link_err = 0 },
	/* --- permission with ACLs and capabilities --- */
	{ "ACL_USER entry grants read through the mount view", "posix_acl_permission: make_vfsuid(e_uid) == fsuid",
	  "b:0:10000:65536", INIT, 11000, 11000, NONE, 0, 022, 0777, 0, 0, false, 0100640, 0, 0,
	  OP(.op = VT_OP_OPEN_READ, .nacl = -5 /* disk ACL u:1000 */), 0, NOCHECK },
	{ "CAP_DAC_OVERRIDE does not apply to inodes unmapped in the caller's ns", "capable_wrt_inode_uidgid: privileged_wrt_inode_uidgid",
	  NULL, NS0, 0, 0, NONE, ALL, 022, 0777, 0, 0, false, 0100600, 80000, 80000,
	  OP(.op = VT_OP_OPEN_READ), EACCES, NOCHECK },
	{ "container root reads a 0600 file of a mapped owner (CAP_DAC_READ_SEARCH)", "generic_permission",
	  NULL, NS0, 0, 0, NONE, ALL, 022, 0777, 0, 0, false, 0100600, 11000, 11000,
	  OP(.op = VT_OP_OPEN_READ), 0, NOCHECK },
	{ "write by a container root strips S_ISUID (CAP_FSETID is asked in the initial ns)", "setattr_should_drop_suidgid: capable(CAP_FSETID)",
	  "b:0:10000:65536", NS0, 0, 0, NONE, ALL, 022, 0777, 0, 0, false, 0104777, 0, 0,
	  OP(.op = VT_OP_WRITE), 0, .want_uid = NONE, .want_gid = NONE, .want_mode = 0100777,
	  .want_fcaps_rootid = NONE, .want_acl_user_id = NONE, .want_seen_uid = NONE },
	/* --- one call on an existing name (file_rules.c), each expectation
	 * worked out by hand from linux-source-6.12 --- */
	{ "access(R_OK) by uid 1000 holding CAP_DAC_OVERRIDE: refused (the override clears caps)",
	  "do_faccessat: access_override_creds cap_clear for uid != 0, then generic_permission",
	  NULL, INIT, 1000, 1000, NONE, 1ULL << 1, 022, 0777, 0, 0, false, 0100600, 0, 0,
	  OP(.op = VT_OP_ACCESS, .mode = 4), EACCES, NOCHECK },
	{ "faccessat2(R_OK, AT_EACCESS) by the same caller: CAP_DAC_OVERRIDE counts",
	  "do_faccessat: AT_EACCESS keeps the creds; generic_permission: capable_wrt_inode_uidgid",
	  NULL, INIT, 1000, 1000, NONE, 1ULL << 1, 022, 0777, 0, 0, false, 0100600, 0, 0,
	  OP(.op = VT_OP_ACCESS, .mode = 4, .eaccess = true), 0, NOCHECK },
	{ "access(W_OK) by ns0 root of a file the mount shows as its own",
	  "do_faccessat: uid 0 keeps cap_permitted; acl_permission_check owner class through the mount",
	  "b:0:10000:65536", NS0, 0, 0, NONE, ALL, 022, 0777, 0, 0, false, 0100600, 0, 0,
	  OP(.op = VT_OP_ACCESS, .mode = 2), 0, NOCHECK },
	{ "chdir into a 0700 directory owned on disk by 1000, through b:0:10000:65536, by init uid 11000",
	  "path_permission: inode_permission(MAY_EXEC) with i_uid_into_vfsuid = 11000",
	  "b:0:10000:65536", INIT, 11000, 11000, NONE, 0, 022, 0777, 0, 0, false, 040700, 1000, 1000,
	  OP(.op = VT_OP_CHDIR), 0, NOCHECK },
	{ "fchdir to a regular file: ENOTDIR", "fchdir: !d_can_lookup",
	  NULL, INIT, 1000, 1000, NONE, 0, 022, 0777, 0, 0, false, 0100755, 1000, 1000,
	  OP(.op = VT_OP_FCHDIR), ENOTDIR, NOCHECK },
	{ "O_NOATIME by the owner through the mount (disk 1000 seen as 11000)",
	  "may_open: inode_owner_or_capable, vfsuid == fsuid",
	  "b:0:10000:65536", INIT, 11000, 11000, NONE, 0, 022, 0777, 0, 0, false, 0100644, 1000, 1000,
	  OP(.op = VT_OP_OPEN_NOATIME), 0, NOCHECK },
	{ "O_NOATIME by the same caller on the plain mount: EPERM", "may_open: inode_owner_or_capable",
	  NULL, INIT, 11000, 11000, NONE, 0, 022, 0777, 0, 0, false, 0100644, 1000, 1000,
	  OP(.op = VT_OP_OPEN_NOATIME), EPERM, NOCHECK },
	{ "F_SETFL O_NOATIME by ns0 root on a file of disk owner 0 on the plain mount: EPERM",
	  "setfl: inode_owner_or_capable: CAP_FOWNER only where vfsuid 0 maps into ns0 (it does not)",
	  NULL, NS0, 0, 0, NONE, ALL, 022, 0777, 0, 0, false, 0100644, 0, 0,
	  OP(.op = VT_OP_SETFL_NOATIME), EPERM, NOCHECK },
	{ "F_SETLEASE by ns0 root, not the owner: EACCES (CAP_LEASE is asked in the initial ns)",
	  "vfs_setlease: vfsuid_eq_kuid || capable(CAP_LEASE)",
	  NULL, NS0, 0, 0, NONE, ALL, 022, 0777, 0, 0, false, 0100644, 1000, 1000,
	  OP(.op = VT_OP_SETLEASE), EACCES, NOCHECK },
	{ "F_SETLEASE on a directory the caller owns through the mount: EINVAL after the owner test",
	  "vfs_setlease: !S_ISREG",
	  "b:0:10000:65536", INIT, 11000, 11000, NONE, 0, 022, 0777, 0, 0, false, 040755, 1000, 1000,
	  OP(.op = VT_OP_SETLEASE), EINVAL, NOCHECK },
	{ "FS_IOC_SETFLAGS by ns0 root on disk owner 0 through b:0:10000:65536: the owner",
	  "vfs_fileattr_set: inode_owner_or_capable, vfsuid 10000 == fsuid",
	  "b:0:10000:65536", NS0, 0, 0, NONE, ALL, 022, 0777, 0, 0, false, 0100644, 0, 0,
	  OP(.op = VT_OP_SETFLAGS), 0, NOCHECK },
	{ "FS_IOC_FSSETXATTR by ns0 root on disk owner 0, plain mount: EPERM",
	  "vfs_fileattr_set: inode_owner_or_capable",
	  NULL, NS0, 0, 0, NONE, ALL, 022, 0777, 0, 0, false, 0100644, 0, 0,
	  OP(.op = VT_OP_FSSETXATTR), EPERM, NOCHECK },
	/* FS_IOC_SET_ENCRYPTION_POLICY (fs/crypto/policy.c fscrypt_ioctl_set_policy, 6.12):
	 * inode_owner_or_capable through the mount first, then the policy checks */
	{ "FS_IOC_SET_ENCRYPTION_POLICY by the owner through the mount (disk 1000 seen as 11000) on "
	  "an empty directory: set",
	  "fscrypt_ioctl_set_policy: inode_owner_or_capable, vfsuid 11000 == fsuid; set_encryption_policy",
	  "b:1000:11000:1", INIT, 11000, 11000, NONE, 0, 022, 0755, 0, 0, false, 040755, 1000, 1000,
	  OP(.op = VT_OP_FSCRYPT_SET_POLICY, .enc_policy = 1), 0, NOCHECK,
	  .want_enc_policy = 1 },
	{ "FS_IOC_SET_ENCRYPTION_POLICY by the disk owner 1000 through b:1000:11000:1: EACCES",
	  "fscrypt_ioctl_set_policy: inode_owner_or_capable: vfsuid 11000 != fsuid 1000, no CAP_FOWNER",
	  "b:1000:11000:1", INIT, 1000, 1000, NONE, 0, 022, 0755, 0, 0, false, 040755, 1000, 1000,
	  OP(.op = VT_OP_FSCRYPT_SET_POLICY, .enc_policy = 1), EACCES, NOCHECK },
	{ "FS_IOC_SET_ENCRYPTION_POLICY by the disk owner 2000 whom the mount does not map: EACCES",
	  "fscrypt_ioctl_set_policy: inode_owner_or_capable: i_uid_into_vfsuid(2000) is invalid",
	  "b:1000:11000:1", INIT, 2000, 2000, NONE, 0, 022, 0755, 0, 0, false, 040755, 2000, 1000,
	  OP(.op = VT_OP_FSCRYPT_SET_POLICY, .enc_policy = 1), EACCES, NOCHECK },
	{ "FS_IOC_SET_ENCRYPTION_POLICY by a CAP_FOWNER caller, not the owner, uid mapped: set",
	  "inode_owner_or_capable: vfsuid_has_mapping(11000) && ns_capable(CAP_FOWNER)",
	  "b:1000:11000:1", INIT, 12000, 12000, NONE, 1ULL << 3, 022, 0755, 0, 0, false, 040755, 1000, 1000,
	  OP(.op = VT_OP_FSCRYPT_SET_POLICY, .enc_policy = 1), 0, NOCHECK,
	  .want_enc_policy = 1 },
	{ "FS_IOC_SET_ENCRYPTION_POLICY by root on a directory whose gid the mount does not map: set",
	  "inode_owner_or_capable: vfsuid_has_mapping(vfsuid 11000) && ns_capable(CAP_FOWNER); the gid "
	  "is not asked (unlike capable_wrt_inode_uidgid)",
	  "b:1000:11000:1", INIT, 0, 0, NONE, ALL, 022, 0755, 0, 0, false, 040755, 1000, 2000,
	  OP(.op = VT_OP_FSCRYPT_SET_POLICY, .enc_policy = 1), 0, NOCHECK, .want_enc_policy = 1 },
	{ "FS_IOC_SET_ENCRYPTION_POLICY by root on a directory whose uid the mount does not map: EACCES",
	  "inode_owner_or_capable: vfsuid_has_mapping(INVALID_VFSUID) fails, CAP_FOWNER does not count",
	  "b:1000:11000:1", INIT, 0, 0, NONE, ALL, 022, 0755, 0, 0, false, 040755, 2000, 1000,
	  OP(.op = VT_OP_FSCRYPT_SET_POLICY, .enc_policy = 1), EACCES, NOCHECK },
	{ "FS_IOC_SET_ENCRYPTION_POLICY by root, plain mount, directory of 1000: set (CAP_FOWNER)",
	  "inode_owner_or_capable: vfsuid_has_mapping(1000) && ns_capable(CAP_FOWNER) in init_user_ns",
	  NULL, INIT, 0, 0, NONE, ALL, 022, 0755, 0, 0, false, 040755, 1000, 1000,
	  OP(.op = VT_OP_FSCRYPT_SET_POLICY, .enc_policy = 2), 0, NOCHECK,
	  .want_enc_policy = 2 },
	{ "FS_IOC_SET_ENCRYPTION_POLICY by the owner on a regular file: ENOTDIR after the owner test",
	  "fscrypt_ioctl_set_policy: fscrypt_get_policy -ENODATA, !S_ISDIR",
	  "b:1000:11000:1", INIT, 11000, 11000, NONE, 0, 022, 0755, 0, 0, false, 0100644, 1000, 1000,
	  OP(.op = VT_OP_FSCRYPT_SET_POLICY, .enc_policy = 1), ENOTDIR, NOCHECK },
	{ "FS_IOC_SET_ENCRYPTION_POLICY by a non-owner on a regular file: EACCES comes first",
	  "fscrypt_ioctl_set_policy: inode_owner_or_capable before fscrypt_get_policy",
	  "b:1000:11000:1", INIT, 1000, 1000, NONE, 0, 022, 0755, 0, 0, false, 0100644, 1000, 1000,
	  OP(.op = VT_OP_FSCRYPT_SET_POLICY, .enc_policy = 1), EACCES, NOCHECK },
	{ "FS_IOC_SET_ENCRYPTION_POLICY by the owner on a directory with an entry: ENOTEMPTY",
	  "fscrypt_ioctl_set_policy: !s_cop->empty_dir (ext4_empty_dir)",
	  "b:1000:11000:1", INIT, 11000, 11000, NONE, 0, 022, 0755, 0, 0, false, 040755, 1000, 1000,
	  OP(.op = VT_OP_FSCRYPT_SET_POLICY, .enc_policy = 1), ENOTEMPTY, NOCHECK,
	  .obj_nonempty = true },
	{ "FS_IOC_SET_ENCRYPTION_POLICY of the policy a directory has: 0, nothing changes",
	  "fscrypt_ioctl_set_policy: fscrypt_get_policy 0, fscrypt_policies_equal",
	  "b:1000:11000:1", INIT, 11000, 11000, NONE, 0, 022, 0755, 0, 0, false, 040755, 1000, 1000,
	  OP(.op = VT_OP_FSCRYPT_SET_POLICY, .enc_policy = 1), 0, NOCHECK,
	  .obj_enc_policy = 1, .want_enc_policy = 1 },
	{ "FS_IOC_SET_ENCRYPTION_POLICY of another policy on an encrypted directory: EEXIST",
	  "fscrypt_ioctl_set_policy: !fscrypt_policies_equal",
	  "b:1000:11000:1", INIT, 11000, 11000, NONE, 0, 022, 0755, 0, 0, false, 040755, 1000, 1000,
	  OP(.op = VT_OP_FSCRYPT_SET_POLICY, .enc_policy = 2), EEXIST, NOCHECK,
	  .obj_enc_policy = 1 },
	{ "FS_IOC_SET_ENCRYPTION_POLICY needs an fd: a CAP_FOWNER-only caller cannot open another's "
	  "0700 directory (EACCES before the owner test, which CAP_FOWNER would pass)",
	  "may_open: inode_permission(MAY_READ), no CAP_DAC_*; fscrypt_ioctl_set_policy not reached",
	  "b:1000:11000:1", INIT, 12000, 12000, NONE, 1ULL << 3, 022, 0755, 0, 0, false, 040700, 1000, 1000,
	  OP(.op = VT_OP_FSCRYPT_SET_POLICY, .enc_policy = 1), EACCES, NOCHECK },
	{ "FS_IOC_SET_ENCRYPTION_POLICY by ns0 root on disk owner 0 through b:0:10000:65536: set",
	  "inode_owner_or_capable: vfsuid 10000 == fsuid (ns0's 0 is kernel 10000)",
	  "b:0:10000:65536", NS0, 0, 0, NONE, ALL, 022, 0777, 0, 0, false, 040755, 0, 0,
	  OP(.op = VT_OP_FSCRYPT_SET_POLICY, .enc_policy = 1), 0, NOCHECK,
	  .want_enc_policy = 1 },
	{ "FIDEDUPERANGE onto a read-only fd of another's 0644 file: EPERM",
	  "may_dedupe_file: not CAP_SYS_ADMIN, not FMODE_WRITE, not the owner, no MAY_WRITE",
	  NULL, INIT, 1000, 1000, NONE, 0, 022, 0777, 0, 0, false, 0100644, 1001, 1001,
	  OP(.op = VT_OP_DEDUPE), EPERM, NOCHECK },
	{ "FIDEDUPERANGE onto a read-only fd of another's 0666 file: write permission suffices",
	  "may_dedupe_file: inode_permission(MAY_WRITE)",
	  NULL, INIT, 1000, 1000, NONE, 0, 022, 0777, 0, 0, false, 0100666, 1001, 1001,
	  OP(.op = VT_OP_DEDUPE), 0, NOCHECK },
	{ "FIDEDUPERANGE onto a 0666 file whose owner the mount cannot map: EPERM",
	  "may_dedupe_file: inode_permission(MAY_WRITE): HAS_UNMAPPED_ID",
	  "b:0:10000:65536", INIT, 11000, 11000, NONE, 0, 022, 0777, 0, 0, false, 0100666, 70000, 70000,
	  OP(.op = VT_OP_DEDUPE), EPERM, NOCHECK },
	/* --- uid and gid maps that differ, a map of seven extents --- */
	{ "sparse map: u1000's fsuid maps (disk 2000) but its fsgid 1000 does not: EOVERFLOW",
	  "may_o_create: fsuidgid_has_mapping (from_vfsgid on the gid map: no extent has lower 1000)",
	  SPARSE, INIT, 1000, 1000, NONE, 0, 022, 0777, 0, 0, false, 0, 0, 0,
	  OP(.op = VT_OP_OPEN_CREAT, .mode = 0644), EOVERFLOW, NOCHECK },
	{ "sparse map: u1001 creates; uid 1001 -> disk 1001 (u:1001:1001:1), gid 1001 -> disk 1000 (g:1000:1001:1)",
	  "inode_init_owner: mapped_fsuid/mapped_fsgid = from_vfsuid/from_vfsgid, each on its own map",
	  SPARSE, INIT, 1001, 1001, NONE, 0, 022, 0777, 0, 0, false, 0, 0, 0,
	  OP(.op = VT_OP_OPEN_CREAT, .mode = 0644), 0, .want_uid = 1001, .want_gid = 1000,
	  .want_fcaps_rootid = NONE, .want_acl_user_id = NONE, .want_seen_uid = 1001 },
	{ "sparse map: ns0 u1000 (kuid 11000, the last lower id of u:999:10999:2) creates disk 1000:11000",
	  "map_id_up (bsearch over the sorted reverse array): 999 + (11000 - 10999); stat: from_kuid(ns0, 11000)",
	  SPARSE, NS0, 1000, 1000, NONE, 0, 022, 0777, 0, 0, false, 0, 0, 0,
	  OP(.op = VT_OP_OPEN_CREAT, .mode = 0644), 0, .want_uid = 1000, .want_gid = 11000,
	  .want_fcaps_rootid = NONE, .want_acl_user_id = NONE, .want_seen_uid = 1000 },
	{ "sparse map: disk 1001, one past u:999:10999:2, is its own extent's (seen 1001, not 11001)",
	  "map_id_range_down: id <= first + count - 1; generic_fillattr: from_kuid_munged",
	  SPARSE, INIT, 0, 0, NONE, ALL, 022, 0777, 0, 0, false, 0100644, 1001, 1001,
	  OP(.op = VT_OP_OPEN_READ), 0, .want_uid = NONE, .want_gid = NONE, .want_fcaps_rootid = NONE,
	  .want_acl_user_id = NONE, .want_seen_uid = 1001 },
	{ "sparse map: disk 70000, one past u:69999:69999:1, is unmapped: stat shows the overflow uid",
	  "map_id_range_down: no extent holds it -> INVALID; from_kuid_munged -> overflowuid",
	  SPARSE, INIT, 0, 0, NONE, ALL, 022, 0777, 0, 0, false, 0100644, 70000, 70000,
	  OP(.op = VT_OP_OPEN_READ), 0, .want_uid = NONE, .want_gid = NONE, .want_fcaps_rootid = NONE,
	  .want_acl_user_id = NONE, .want_seen_uid = 65534 },
	{ "ns2 root creates on the plain mount: disk 10000:20000, stat shows 0",
	  "inode_init_owner: current_fsuid/fsgid = make_kuid/make_kgid(ns2, 0), each on its own map",
	  NULL, NS2, 0, 0, NONE, ALL, 022, 0777, 0, 0, false, 0, 0, 0,
	  OP(.op = VT_OP_OPEN_CREAT, .mode = 0644), 0, .want_uid = 10000, .want_gid = 20000,
	  .want_fcaps_rootid = NONE, .want_acl_user_id = NONE, .want_seen_uid = 0 },
	{ "ns2 root creates through the split map (ns2's own maps): disk 0:0",
	  "inode_init_owner: from_vfsuid(10000) on u:0:10000, from_vfsgid(20000) on g:0:20000",
	  SPLIT, NS2, 0, 0, NONE, ALL, 022, 0777, 0, 0, false, 0, 0, 0,
	  OP(.op = VT_OP_OPEN_CREAT, .mode = 0644), 0, .want_uid = 0, .want_gid = 0,
	  .want_fcaps_rootid = NONE, .want_acl_user_id = NONE, .want_seen_uid = 0 },
	{ "ns2 u1000 chgrps its file to its supplementary group 1001 through split: disk gid 1001",
	  "chown_common: make_kgid(ns2, 1001) = 21001; chgrp_ok: vfsgid_in_group_p; setattr_copy: from_vfsgid",
	  SPLIT, NS2, 1000, 1000, 1001, 0, 022, 0777, 0, 0, false, 0100644, 1000, 1000,
	  OP(.op = VT_OP_CHOWN, .uid = { NONE }, .gid = { 1001 }), 0, .want_uid = 1000,
	  .want_gid = 1001, .want_fcaps_rootid = NONE, .want_acl_user_id = NONE, .want_seen_uid = 1000 },
	{ "ACL_USER 1000 named by ns2 root through split is stored as disk 1000",
	  "posix_acl_from_xattr: make_kuid(ns2, 1000) = 11000; vfs_set_acl_idmapped_mnt: from_vfsuid",
	  SPLIT, NS2, 0, 0, NONE, ALL, 022, 0777, 0, 0, false, 0100644, 0, 0,
	  OP(.op = VT_OP_ACL_SET, .nacl = -1 /* filled: u:1000 */), 0, .want_uid = NONE,
	  .want_gid = NONE, .want_fcaps_rootid = NONE, .want_acl_user_id = 1000, .want_seen_uid = 0 },
};

static void build(const struct row *r, struct vt_world *w, struct vt_midmap *m,
		  struct vt_mop_args *op)
{
	unit_world(w, m, r->map,
		   r->ns == INIT ? &vt_init_ns : r->ns == NS0 ? &ns0 : r->ns == NS2 ? &ns2 : &ns1, r->uid,
		   r->gid, r->group, r->caps);
	w->posixacl = true;
	w->cred.umask = r->umask;
	w->protected_hardlinks = true;
	w->bset_init = BSET;
	w->cap_full = FULL;
	w->suid_dumpable = r->suid_dumpable;
	if (r->fsuid1001)
		w->cred.fsuid = vt_cuid(1001);
	w->dir.exists = true;
	w->dir.mode = S_IFDIR | r->dir_mode;
	w->dir.uid = vt_kuid(r->dir_uid);
	w->dir.gid = vt_kgid(r->dir_gid);
	if (r->dir_defacl)
		kacl(w->dir.defacl, &w->dir.ndefacl, 1000);
	if (r->obj_mode) {
		w->obj.exists = true;
		w->obj.mode = r->obj_mode;
		w->obj.uid = vt_kuid(r->obj_uid);
		w->obj.gid = vt_kgid(r->obj_gid);
		w->obj.fcaps.version = r->obj_fcaps_version;
		w->obj.fcaps.rootid = vt_kuid(r->obj_fcaps_rootid);
		w->obj.user_xattr = w->obj.trusted_xattr = w->obj.security_xattr = r->obj_xattrs;
		w->obj.nonempty = r->obj_nonempty;
		w->obj.enc_policy = r->obj_enc_policy;
	}
	if (r->op.op == VT_OP_RENAME_WHITEOUT && r->op.to_other) {
		w->other = w->obj;
		w->other.uid = vt_kuid(1001);
		w->other.gid = vt_kgid(1001);
	}
	*op = r->op;
	switch (op->nacl) {
	case -1: fill_acl(op, 1000); break;
	case -2: fill_acl(op, 5); break;
	case -3: kacl(w->obj.acl, &w->obj.nacl, 1000); op->nacl = 0; break;
	case -4: kacl(w->obj.acl, &w->obj.nacl, 70000); op->nacl = 0; break;
	case -5: kacl(w->obj.acl, &w->obj.nacl, 1000); w->obj.acl[1].perm = 4; op->nacl = 0; break;
	default: break;
	}
}

int main(void)
{
	char err[200];
	int n = (int)(sizeof(rows) / sizeof(rows[0])), i;

	ns0.name = "ns0";
	ns0.parent = &vt_init_ns;
	vt_mapping_parse("b:0:10000:65536", &ns0.map, err, sizeof(err));
	ns1.name = "ns1";
	ns1.parent = &ns0;
	ns1.owner = vt_kuid(10000);
	vt_mapping_parse("b:0:1000:1000", &ns1.map, err, sizeof(err));
	ns2.name = "ns2";
	ns2.parent = &vt_init_ns;
	vt_mapping_parse(SPLIT, &ns2.map, err, sizeof(err));
	unit_begin(n);
	for (i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		struct vt_world w;
		struct vt_midmap m;
		struct vt_mop_args op;
		struct vt_expect e;
		char name[512];
		bool ok;
		int k;

		build(r, &w, &m, &op);
		vt_model_apply(&w, &op, &e);
		ok = e.err == r->want_err;
		if (ok && !e.err) {
			if (r->want_uid != NONE && e.result.uid.val != r->want_uid)
				ok = false;
			if (r->want_gid != NONE && e.result.gid.val != r->want_gid)
				ok = false;
			if (r->want_mode && e.result.mode != r->want_mode)
				ok = false;
			if (r->want_fcaps_version && e.result.fcaps.version != r->want_fcaps_version)
				ok = false;
			if (r->want_fcaps_rootid != NONE && r->want_fcaps_version == 3 &&
			    e.result.fcaps.rootid.val != r->want_fcaps_rootid)
				ok = false;
			if (r->want_seen_uid != NONE && e.seen_uid.val != r->want_seen_uid)
				ok = false;
			if (op.op == VT_OP_ACL_SET && r->want_acl_user_id != NONE)
				for (k = 0; k < e.result.nacl; k++)
					if (e.result.acl[k].tag == VT_ACL_USER &&
					    e.result.acl[k].uid.val != r->want_acl_user_id)
						ok = false;
			if (r->check_creds &&
			    (e.creds.euid != r->want_euid || e.creds.egid != r->want_egid ||
			     e.creds.cap_prm != r->want_cap_prm || e.creds.cap_eff != r->want_cap_eff))
				ok = false;
			if (r->check_dump && (e.creds.dump_user != r->want_dump_user ||
					      e.creds.dump_owner != r->want_dump_owner))
				ok = false;
			if (r->check_atime && e.atime_updated != r->want_atime_updated)
				ok = false;
			if (r->want_enc_policy && e.result.enc_policy != r->want_enc_policy)
				ok = false;
			if (op.op == VT_OP_TMPFILE && e.link_err != r->want_link_err)
				ok = false;
			if (r->want_whiteout &&
			    (!e.has_whiteout || e.whiteout.uid.val != r->want_wh_uid ||
			     e.whiteout.mode != S_IFCHR))
				ok = false;
			if (op.op == VT_OP_ACL_GET)
				for (k = 0; k < e.got_nacl; k++)
					if (e.got_acl[k].tag == VT_ACL_USER &&
					    e.got_acl[k].uid.val != r->want_acl_user_id)
						ok = false;
		}
		snprintf(name, sizeof(name), "%s [%s]", r->name, r->rule);
		if (!unit_check(ok, name)) {
			printf("# model: %s (%s) mode %o uid %u gid %u seen %u fcaps v%d/%u\n",
			       vt_errname(e.err), e.rule ? e.rule : "", (unsigned)e.result.mode,
			       e.result.uid.val, e.result.gid.val, e.seen_uid.val,
			       e.result.fcaps.version, e.result.fcaps.rootid.val);
			printf("# exec: euid %u egid %u prm %#llx eff %#llx dump_user %d owner %u; "
			       "link %s; whiteout %d uid %u\n",
			       e.creds.euid, e.creds.egid, (unsigned long long)e.creds.cap_prm,
			       (unsigned long long)e.creds.cap_eff, e.creds.dump_user, e.creds.dump_owner,
			       vt_errname(e.link_err),
			       e.has_whiteout, e.whiteout.uid.val);
		}
	}
	return unit_end();
}
