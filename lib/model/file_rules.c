/* Calls on one existing name that ask the mount's idmap a single question
 * each: access(2)/faccessat2 (fs/open.c do_faccessat with
 * access_override_creds), chdir/fchdir (fs/open.c, path_permission and
 * file_permission in include/linux/fs.h), O_NOATIME on open (fs/namei.c
 * may_open) and on fcntl(F_SETFL) (fs/fcntl.c setfl), fcntl(F_SETLEASE)
 * (fs/locks.c vfs_setlease), and FS_IOC_SETFLAGS / FS_IOC_FSSETXATTR
 * (fs/ioctl.c vfs_fileattr_set), FIDEDUPERANGE (fs/remap_range.c
 * may_dedupe_file), the atime a read(2) leaves (fs/inode.c
 * atime_needs_update), cachestat(2) (mm/filemap.c can_do_cachestat),
 * FS_IOC_SET_ENCRYPTION_POLICY (fs/crypto/policy.c
 * fscrypt_ioctl_set_policy). Read
 * from linux-source-6.12; each
 * function below names the kernel function it mirrors. The object P/o is
 * a regular file or a directory (the family makes no others). */
#include "model/rules.h"

#include <errno.h>
#include <sys/stat.h>

/* The open(P/o, O_RDONLY) the fcntl and ioctl calls need an fd from:
 * path walk (may_lookup on P), a negative name is ENOENT, then may_open ->
 * inode_permission(MAY_OPEN | MAY_READ) through the mount. 0 or the
 * errno, with *RULE. */
static int open_rdonly(const struct vt_world *w, enum vt_rule *rule)
{
	int ret = vt_may_lookup(w, rule);

	if (ret)
		return -ret;
	if (!vt_hit(w, VT_R_LOOKUP_NOENT, w->obj.exists)) {
		*rule = VT_R_LOOKUP_NOENT;
		return ENOENT;
	}
	ret = vt_inode_permission_at(w, &w->obj, VT_MAY_READ, VT_R_OPEN_PERM, rule);
	return -ret;
}

static void ok(const struct vt_world *w, struct vt_expect *e, enum vt_rule rule)
{
	VT_SUCCEED(e, rule);
	e->result = w->obj;	/* none of these calls changes the inode's ids or mode */
	vt_model_seen(w, e);
}

/* fs/open.c do_faccessat(): unless AT_EACCESS, access_override_creds()
 * makes fsuid = uid and fsgid = gid and, with SECURE_NO_SETUID_FIXUP
 * clear (the default), clears cap_effective for a uid that is not 0 in
 * the caller's namespace (make_kuid(user_ns, 0)) and sets it to
 * cap_permitted for uid 0 (the matrix's callers hold pE == pP: they are
 * given their capabilities as "=ep" or are root). The path walk and
 * inode_permission(mnt_idmap(path.mnt), inode, mode | MAY_ACCESS) then run
 * with those credentials. A regular file with X_OK first meets
 * path_noexec (not modelled: the family asks X_OK of directories only);
 * W_OK on a read-only mount is EROFS after the permission (the matrix's
 * mounts are writable). */
static void vt_do_faccessat(const struct vt_world *w, const struct vt_mop_args *a,
			    struct vt_expect *e)
{
	struct vt_world as = *w;
	const struct vt_world *outer = w;
	enum vt_rule rule = VT_R_NONE;
	int ret;

	if (!a->eaccess) {
		as.cred.fsuid = w->cred.uid;
		as.cred.fsgid = w->cred.gid;
		if (w->cred.uid.val != 0)
			as.cred.caps = 0;
	}
	w = &as;	/* VT_FAIL and the rules below see the overridden caller */
	ret = vt_may_lookup(w, &rule);
	if (ret)
		VT_FAIL(e, -ret, rule);
	if (!vt_hit(w, VT_R_LOOKUP_NOENT, w->obj.exists))
		VT_FAIL(e, ENOENT, VT_R_LOOKUP_NOENT);
	ret = vt_inode_permission_at(w, &w->obj, (int)a->mode, VT_R_ACCESS_PERM, &rule);
	if (ret)
		VT_FAIL(e, -ret, rule);
	/* stat() afterwards runs with the caller's own credentials */
	ok(outer, e, VT_R_ACCESS_PERM);
}

/* chdir(): user_path_at(LOOKUP_FOLLOW | LOOKUP_DIRECTORY), so a regular
 * file is ENOTDIR; fchdir() of an O_PATH fd (whose open asked only the
 * walk): !d_can_lookup is ENOTDIR. Both then ask
 * path_permission()/file_permission(): inode_permission(MAY_EXEC |
 * MAY_CHDIR) with the mount's idmap (include/linux/fs.h). */
static void vt_path_permission(const struct vt_world *w, struct vt_expect *e)
{
	enum vt_rule rule = VT_R_NONE;
	int ret = vt_may_lookup(w, &rule);

	if (ret)
		VT_FAIL(e, -ret, rule);
	if (!vt_hit(w, VT_R_LOOKUP_NOENT, w->obj.exists))
		VT_FAIL(e, ENOENT, VT_R_LOOKUP_NOENT);
	if (!vt_hit(w, VT_R_CHDIR_NOTDIR, S_ISDIR(w->obj.mode)))
		VT_FAIL(e, ENOTDIR, VT_R_CHDIR_NOTDIR);
	ret = vt_inode_permission_at(w, &w->obj, VT_MAY_EXEC, VT_R_CHDIR_PERM, &rule);
	if (ret)
		VT_FAIL(e, -ret, rule);
	ok(w, e, VT_R_CHDIR_PERM);
}

/* fs/namei.c may_open(): after inode_permission(MAY_OPEN | acc_mode),
 * "O_NOATIME can only be set by the owner or superuser":
 * inode_owner_or_capable(idmap, inode), else EPERM. */
static void vt_may_open(const struct vt_world *w, struct vt_expect *e)
{
	enum vt_rule rule = VT_R_NONE;
	int ret = open_rdonly(w, &rule);

	if (ret)
		VT_FAIL(e, ret, rule);
	if (!vt_hit(w, VT_R_NOATIME_OWNER, vt_inode_owner_or_capable(w, &w->obj)))
		VT_FAIL(e, EPERM, VT_R_NOATIME_OWNER);
	ok(w, e, VT_R_NOATIME_OWNER);
}

/* fs/fcntl.c setfl(): setting O_NOATIME on an fd that lacks it needs
 * inode_owner_or_capable() with the idmap of the fd's mount, else EPERM (the
 * O_APPEND test before it concerns append-only inodes, which the family
 * does not make). */
static void vt_setfl(const struct vt_world *w, struct vt_expect *e)
{
	enum vt_rule rule = VT_R_NONE;
	int ret = open_rdonly(w, &rule);

	if (ret)
		VT_FAIL(e, ret, rule);
	if (!vt_hit(w, VT_R_SETFL_NOATIME_OWNER, vt_inode_owner_or_capable(w, &w->obj)))
		VT_FAIL(e, EPERM, VT_R_SETFL_NOATIME_OWNER);
	ok(w, e, VT_R_SETFL_NOATIME_OWNER);
}

/* fs/locks.c vfs_setlease() (from fcntl_setlease -> do_fcntl_add_lease):
 * the owner through the mount, i_uid_into_vfsuid() with the fd's mount idmap,
 * must be current_fsuid (vfsuid_eq_kuid), or capable(CAP_LEASE) in the
 * initial namespace, else EACCES; then a non-regular file is EINVAL. A
 * read lease on an fd nobody has open for writing is then granted
 * (generic_add_lease -> check_conflicting_open). */
static void vt_vfs_setlease(const struct vt_world *w, struct vt_expect *e)
{
	enum vt_rule rule = VT_R_NONE;
	int ret = open_rdonly(w, &rule);
	bool owner;

	if (ret)
		VT_FAIL(e, ret, rule);
	owner = vt_vfsuid_eq_kuid(vt_i_uid_into_vfsuid(w, &w->obj), vt_cur_fsuid(w));
	if (!vt_hit(w, VT_R_LEASE_OWNER, owner || vt_capable(w, VT_CAP_LEASE)))
		VT_FAIL(e, EACCES, VT_R_LEASE_OWNER);
	if (!vt_hit(w, VT_R_LEASE_NONREG, S_ISREG(w->obj.mode)))
		VT_FAIL(e, EINVAL, VT_R_LEASE_NONREG);
	ok(w, e, VT_R_LEASE_NONREG);
}

/* fs/ioctl.c ioctl_setflags()/ioctl_fssetxattr(): mnt_want_write_file
 * (a writable mount here), then vfs_fileattr_set(): no
 * i_op->fileattr_set is ENOIOCTLCMD (ENOTTY; the family runs only where
 * the filesystem table says the filesystem has it), then
 * inode_owner_or_capable(idmap, inode), else EPERM. The flags written
 * are the ones just read, so fileattr_set_prepare() finds nothing
 * changed (no CAP_LINUX_IMMUTABLE, no project id change from a user
 * namespace) and the filesystem stores the same values. */
static void vt_vfs_fileattr_set(const struct vt_world *w, struct vt_expect *e)
{
	enum vt_rule rule = VT_R_NONE;
	int ret = open_rdonly(w, &rule);

	if (ret)
		VT_FAIL(e, ret, rule);
	if (!vt_hit(w, VT_R_FILEATTR_OWNER, vt_inode_owner_or_capable(w, &w->obj)))
		VT_FAIL(e, EPERM, VT_R_FILEATTR_OWNER);
	ok(w, e, VT_R_FILEATTR_OWNER);
}

/* FS_IOC_SET_ENCRYPTION_POLICY with the suite's v1 policy A->enc_policy
 * (fs/ext4/ioctl.c: EOPNOTSUPP without the encrypt feature; the worlds of
 * this op have it) -> fs/crypto/policy.c fscrypt_ioctl_set_policy(): the
 * policy is read and sized first (v1: fscrypt_policy_size), then
 * inode_owner_or_capable with the idmap of the fd's mount, else EACCES; then
 * mnt_want_write_file (a writable mount here) and fscrypt_get_policy. An
 * inode with a policy takes the same one again (0, nothing written) and
 * refuses a different one (EEXIST); one without (-ENODATA) must be a
 * directory (ENOTDIR), alive (ENOENT: P/o is a live name) and empty
 * (->empty_dir, ext4_empty_dir: ENOTEMPTY); set_encryption_policy then
 * checks the policy (fscrypt_supported_v1_policy: the suite's modes are
 * AES-256-XTS and AES-256-CTS, no flags, not casefolded: valid) and
 * ext4_set_context stores it (EPERM only for the root inode, never P/o).
 * No v1 key is needed to set a policy. */
static void vt_fscrypt_ioctl_set_policy(const struct vt_world *w, const struct vt_mop_args *a,
					struct vt_expect *e)
{
	enum vt_rule rule = VT_R_NONE;
	int ret = open_rdonly(w, &rule);

	if (ret)
		VT_FAIL(e, ret, rule);
	if (!vt_hit(w, VT_R_FSCRYPT_OWNER, vt_inode_owner_or_capable(w, &w->obj)))
		VT_FAIL(e, EACCES, VT_R_FSCRYPT_OWNER);
	if (w->obj.enc_policy) {
		if (!vt_hit(w, VT_R_FSCRYPT_HAS_POLICY, w->obj.enc_policy == a->enc_policy))
			VT_FAIL(e, EEXIST, VT_R_FSCRYPT_HAS_POLICY);
		ok(w, e, VT_R_FSCRYPT_HAS_POLICY);
		return;
	}
	if (!vt_hit(w, VT_R_FSCRYPT_NOTDIR, S_ISDIR(w->obj.mode)))
		VT_FAIL(e, ENOTDIR, VT_R_FSCRYPT_NOTDIR);
	if (!vt_hit(w, VT_R_FSCRYPT_NOTEMPTY, !w->obj.nonempty))
		VT_FAIL(e, ENOTEMPTY, VT_R_FSCRYPT_NOTEMPTY);
	ok(w, e, VT_R_FSCRYPT_SET);
	e->result.enc_policy = a->enc_policy;
}

/* FIDEDUPERANGE (fs/ioctl.c ioctl_file_dedupe_range -> fs/remap_range.c
 * vfs_dedupe_file_range): the source fd is open for reading, a regular
 * file, its filesystem has ->remap_file_range (the family runs only where
 * the world found it), 0 bytes at offset 0 are within the file. For the
 * destination (the same fd) vfs_dedupe_file_range_one takes
 * mnt_want_write_file (a writable mount), then may_dedupe_file:
 * capable(CAP_SYS_ADMIN), or the fd open for writing (not: O_RDONLY), or
 * the owner through the mount is current_fsuid (vfsuid_eq_kuid), or
 * inode_permission(MAY_WRITE) through the mount succeeds; else the
 * destination's status is EPERM. Same sb, not a directory, and a length of
 * 0 then give status 0 before the filesystem is called. */
static void vt_may_dedupe_file(const struct vt_world *w, struct vt_expect *e)
{
	struct vt_world quiet = *w;
	enum vt_rule rule = VT_R_NONE;
	int ret = open_rdonly(w, &rule);
	bool ok_;

	if (ret)
		VT_FAIL(e, ret, rule);
	/* the write permission here only decides may_dedupe_file's answer:
	 * its class rules are not the case's outcome, so they are not traced */
	quiet.trace = NULL;
	ok_ = vt_capable(w, VT_CAP_SYS_ADMIN) ||
	      vt_vfsuid_eq_kuid(vt_i_uid_into_vfsuid(w, &w->obj), vt_cur_fsuid(w)) ||
	      vt_inode_permission(&quiet, &w->obj, VT_MAY_WRITE, &rule) == 0;
	if (!vt_hit(w, VT_R_DEDUPE_PERM, ok_))
		VT_FAIL(e, EPERM, VT_R_DEDUPE_PERM);
	ok(w, e, VT_R_DEDUPE_PERM);
}

/* read(2) of one byte on an fd open for reading (open_rdonly): the
 * filesystem's read_iter ends in file_accessed -> touch_atime ->
 * fs/inode.c atime_needs_update(): no update for S_NOATIME, or if
 * HAS_UNMAPPED_ID(mnt_idmap(mnt), inode) ("atime updates will likely
 * cause i_uid and i_gid to be written back improperly if their true value
 * is unknown to the vfs"): i_uid_into_vfsuid or i_gid_into_vfsgid through
 * the mount is invalid; then IS_NOATIME, MNT_NOATIME (the world runs only
 * where root's read on the plain mount updates the atime) and
 * relatime_need_update (the fixture's atime is years old: more than a
 * day) all let it update. */
static void atime_needs_update(const struct vt_world *w, struct vt_expect *e)
{
	enum vt_rule rule = VT_R_NONE;
	int ret = open_rdonly(w, &rule);
	bool unmapped;

	if (ret)
		VT_FAIL(e, ret, rule);
	unmapped = !vt_vfsuid_valid(vt_i_uid_into_vfsuid(w, &w->obj)) ||
		   !vt_vfsgid_valid(vt_i_gid_into_vfsgid(w, &w->obj));
	e->atime_updated = true;
	if (!vt_hit(w, VT_R_ATIME_UNMAPPED, !unmapped) && VT_REFUSES(VT_R_ATIME_UNMAPPED))
		e->atime_updated = false;
	/* IS_NOATIME: SB_RDONLY or SB_NOATIME */
	if (w->sb_rdonly)
		e->atime_updated = false;
	ok(w, e, VT_R_OPEN_PERM);
}

/* include/linux/fs.h file_owner_or_capable(): inode_owner_or_capable with
 * the idmap of the file's mount (the callers in mm/: can_do_mincore,
 * can_do_file_pageout, can_do_cachestat) */
static bool file_owner_or_capable(const struct vt_world *w)
{
	return vt_inode_owner_or_capable(w, &w->obj);
}

/* cachestat(2) on an fd open for reading (mm/filemap.c, 6.12): after
 * fdget and copying the range (hugetlbfs is EOPNOTSUPP: not a matrix
 * filesystem), can_do_cachestat(): FMODE_WRITE (not: O_RDONLY), or
 * file_owner_or_capable, or file_permission(MAY_WRITE) through the mount;
 * else EPERM. flags 0 and a range of the whole file then succeed. */
static void can_do_cachestat(const struct vt_world *w, struct vt_expect *e)
{
	struct vt_world quiet = *w;
	enum vt_rule rule = VT_R_NONE;
	int ret = open_rdonly(w, &rule);
	bool ok_;

	if (ret)
		VT_FAIL(e, ret, rule);
	/* the write permission only decides can_do_cachestat's answer: its
	 * class rules are not the case's outcome, so they are not traced */
	quiet.trace = NULL;
	ok_ = file_owner_or_capable(w) ||
	      vt_inode_permission(&quiet, &w->obj, VT_MAY_WRITE, &rule) == 0;
	if (!vt_hit(w, VT_R_CACHESTAT_PERM, ok_))
		VT_FAIL(e, EPERM, VT_R_CACHESTAT_PERM);
	ok(w, e, VT_R_CACHESTAT_PERM);
}

void vt_model_fileop(const struct vt_world *w, const struct vt_mop_args *a, struct vt_expect *e)
{
	switch (a->op) {
	case VT_OP_ACCESS:
		vt_do_faccessat(w, a, e);
		return;
	case VT_OP_CHDIR:
	case VT_OP_FCHDIR:
		vt_path_permission(w, e);
		return;
	case VT_OP_OPEN_NOATIME:
		vt_may_open(w, e);
		return;
	case VT_OP_SETFL_NOATIME:
		vt_setfl(w, e);
		return;
	case VT_OP_SETLEASE:
		vt_vfs_setlease(w, e);
		return;
	case VT_OP_SETFLAGS:
	case VT_OP_FSSETXATTR:
		vt_vfs_fileattr_set(w, e);
		return;
	case VT_OP_DEDUPE:
		vt_may_dedupe_file(w, e);
		return;
	case VT_OP_READ_ATIME:
		atime_needs_update(w, e);
		return;
	case VT_OP_CACHESTAT:
		can_do_cachestat(w, e);
		return;
	case VT_OP_FSCRYPT_SET_POLICY:
		vt_fscrypt_ioctl_set_policy(w, a, e);
		return;
	default:
		VT_FAIL(e, ENOSYS, VT_R_NONE);
	}
}
