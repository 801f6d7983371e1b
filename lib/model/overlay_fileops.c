/* matrix/013's calls and matrix/012's protected opens through the overlay
 * world (overlay_internal.h: vt_ovl_fileop). Each is the plain call's rule
 * (file_rules.c, protected_rules.c) asked as the caller of the overlay
 * inode through the overlay's own mount (&nop_mnt_idmap; the owner is the
 * real inode's through its layer's idmap, ovl_copyattr), with every
 * inode_permission on the overlay inode ending in ovl_permission's two
 * halves (vt_ovl_inode_permission: the caller's generic_permission, then
 * the mounter's inode_permission of the real inode through the layer's
 * idmap, MAY_WRITE on a lower non-special file asked as MAY_READ), plus
 * what the overlay adds. Source: Linux 6.12 fs/overlayfs/{inode,file,
 * copy_up}.c, fs/open.c, fs/fcntl.c, fs/locks.c, fs/ioctl.c,
 * fs/remap_range.c, fs/namei.c, fs/inode.c, mm/filemap.c.
 *
 * P/o is a lower regular file (chdir: a lower directory; matrix/012: a
 * lower file, fifo or symlink to the lower P/t) in the merged P, whose
 * real inode is the upper P. */
#include "model/overlay_internal.h"
#include "model/rules.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

static struct vt_minode ovl_obj(const struct vt_ovl_world *w)
{
	return vt_ovl_inode(w->lower_idmap, &w->lower_obj);
}

/* The caller's plain world on the overlay's inodes: the overlay mount
 * (&nop_mnt_idmap), P the merged directory (its owner and mode from the
 * upper P through the upper idmap), o the overlay inode of the lower P/o,
 * t that of the lower P/t. */
static void caller_world(const struct vt_ovl_world *w, const struct vt_mcred *cred,
			 struct vt_world *cw)
{
	vt_ovl_plain_world(cw, w, &vt_nop_idmap, cred, false);
	cw->dir = vt_ovl_inode(w->upper_idmap, &w->upper_root);
	cw->obj = ovl_obj(w);
	if (w->lower_other.exists)
		cw->other = vt_ovl_inode(w->lower_idmap, &w->lower_other);
	cw->protected_symlinks = w->protected_symlinks;
	cw->protected_regular = w->protected_regular;
	cw->protected_fifos = w->protected_fifos;
	cw->protected_hardlinks = w->protected_hardlinks;
}

/* The walk to P/o: may_lookup's MAY_EXEC on the merged P, both halves of
 * ovl_permission (the mounter's on the upper P through the upper idmap). */
static int walk(const struct vt_ovl_world *w, struct vt_ovl_expect *e)
{
	struct vt_minode root = vt_ovl_inode(w->upper_idmap, &w->upper_root);

	return vt_ovl_inode_permission(w, &root, &w->upper_root, true, VT_MAY_EXEC, e);
}

/* open(P/o, O_RDONLY), which the fd calls need: the walk, then may_open's
 * inode_permission(MAY_OPEN | MAY_READ) on the overlay inode (both halves);
 * ovl_open -> ovl_open_realfile asks the mounter's inode_permission(lower
 * idmap, real inode, MAY_OPEN | MAY_READ) again, the question the
 * mounter's half just answered. No copy-up (ovl_open_flags_need_copy_up:
 * no FMODE_WRITE, no O_TRUNC). 0, or nonzero with E set. */
static int open_rdonly(const struct vt_ovl_world *w, struct vt_ovl_expect *e)
{
	struct vt_minode ovl = ovl_obj(w);

	if (walk(w, e))
		return -1;
	return vt_ovl_inode_permission(w, &ovl, &w->lower_obj, false, VT_MAY_READ, e) ? -1 : 0;
}

/* Success decided by RULE: nothing copied up, the caller's stat() of P/o
 * through the overlay shows the lower owner through the lower idmap. */
static void ok(const struct vt_ovl_world *w, struct vt_ovl_expect *e, enum vt_rule rule,
	       const char *what)
{
	vt_ovl_hit(w, rule, true);
	vt_ovl_seen(w, w->lower_idmap, &w->lower_obj, e);
	vt_ovl_say(e, 0, rule, what, NULL);
}

/* inode_permission(&nop_mnt_idmap, overlay inode, MASK) as a yes/no that
 * only decides another rule (may_dedupe_file, can_do_cachestat): nothing
 * traced. sb_permission, HAS_UNMAPPED_ID, then ovl_permission's halves. */
static bool quiet_permission(const struct vt_ovl_world *w, int mask)
{
	struct vt_ovl_world q = *w;
	struct vt_ovl_expect scratch;
	struct vt_minode ovl = ovl_obj(w);

	q.trace = NULL;
	memset(&scratch, 0, sizeof(scratch));
	return vt_ovl_inode_permission(&q, &ovl, &w->lower_obj, false, mask, &scratch) == 0;
}

/* access(2)/faccessat2: do_faccessat's access_override_creds (unless
 * AT_EACCESS: fsuid/fsgid from uid/gid, cap_effective cleared for a uid
 * other than 0, as file_rules.c vt_do_faccessat) installs the caller's
 * credentials for the walk and for inode_permission(mnt_idmap(overlay
 * mount), overlay inode, mode | MAY_ACCESS): sb_permission (a read-only
 * overlay: EROFS for W_OK on a regular file or directory, before the
 * __mnt_is_readonly that follows a granted W_OK), HAS_UNMAPPED_ID for
 * W_OK, ovl_permission's caller half with those credentials and its
 * mounter half with ofs->creator_cred (ovl_override_creds replaces the
 * overridden ones), W_OK on the lower file asked as MAY_READ. */
static void ovl_access(const struct vt_ovl_world *w, const struct vt_mop_args *a,
		       struct vt_ovl_expect *e)
{
	struct vt_ovl_world as = *w;
	struct vt_minode ovl = ovl_obj(w);

	if (!a->eaccess) {
		as.caller.fsuid = w->caller.uid;
		as.caller.fsgid = w->caller.gid;
		if (w->caller.uid.val != 0)
			as.caller.caps = 0;
	}
	if (walk(&as, e))
		return;
	if (vt_ovl_inode_permission(&as, &ovl, &w->lower_obj, false, (int)a->mode, e))
		return;
	ok(w, e, VT_R_ACCESS_PERM, "do_faccessat through the overlay: ovl_permission's caller half "
	   "(access_override_creds) and the mounter's half on the lower inode allow it");
}

/* chdir(P/o): user_path_at(LOOKUP_DIRECTORY) (a regular file: ENOTDIR),
 * then path_permission(MAY_EXEC | MAY_CHDIR) on the overlay inode of the
 * lower directory: both halves (the mounter's MAY_EXEC on the lower
 * directory through the lower idmap). */
static void ovl_chdir(const struct vt_ovl_world *w, struct vt_ovl_expect *e)
{
	struct vt_minode ovl = ovl_obj(w);

	if (walk(w, e))
		return;
	if (!vt_ovl_hit(w, VT_R_CHDIR_NOTDIR, S_ISDIR(ovl.mode)) && VT_REFUSES(VT_R_CHDIR_NOTDIR)) {
		vt_ovl_say(e, ENOTDIR, VT_R_CHDIR_NOTDIR, "chdir through the overlay: not a directory",
			   NULL);
		return;
	}
	if (vt_ovl_inode_permission(w, &ovl, &w->lower_obj, false, VT_MAY_EXEC, e))
		return;
	ok(w, e, VT_R_CHDIR_PERM, "path_permission(MAY_EXEC | MAY_CHDIR) through the overlay: both "
	   "halves of ovl_permission allow it");
}

/* open(O_RDONLY | O_NOATIME) (fs/namei.c may_open: after inode_permission,
 * inode_owner_or_capable(mnt_idmap(overlay mount) = nop, overlay inode),
 * else EPERM; ovl_open_realfile then only drops O_NOATIME for the real
 * file when the mounter is not inode_owner_or_capable through the lower
 * idmap, no error) and fcntl(F_SETFL, O_NOATIME) (fs/fcntl.c setfl: the
 * same test with file_mnt_idmap of the overlay file; ovl_change_flags
 * carries only OVL_SETFL_MASK to the real file, not O_NOATIME). */
static void ovl_noatime(const struct vt_ovl_world *w, enum vt_rule rule, struct vt_ovl_expect *e)
{
	struct vt_world cw;

	if (open_rdonly(w, e))
		return;
	caller_world(w, &w->caller, &cw);
	if (!vt_ovl_hit(w, rule, vt_inode_owner_or_capable(&cw, &cw.obj)) &&
	    VT_REFUSES_("noatime/overlay-inode_owner_or_capable")) {
		vt_ovl_say(e, EPERM, rule, "O_NOATIME through the overlay: the caller is not "
			   "inode_owner_or_capable of the overlay inode (nop idmap, the owner "
			   "ovl_copyattr took through the lower idmap)", NULL);
		return;
	}
	ok(w, e, rule, "O_NOATIME through the overlay: the caller owns the overlay inode or holds "
	   "CAP_FOWNER over it");
}

/* fcntl(F_SETLEASE, F_RDLCK) (fs/locks.c vfs_setlease: the owner of the
 * overlay inode through file_mnt_idmap (nop) equal to current_fsuid, or
 * capable(CAP_LEASE), else EACCES; a non-regular file EINVAL; overlayfs
 * has no ->setlease, so generic_setlease on the overlay inode, which
 * nobody has open for writing: granted). */
static void ovl_setlease(const struct vt_ovl_world *w, struct vt_ovl_expect *e)
{
	struct vt_world cw;
	bool owner;

	if (open_rdonly(w, e))
		return;
	caller_world(w, &w->caller, &cw);
	owner = vt_vfsuid_eq_kuid(vt_i_uid_into_vfsuid(&cw, &cw.obj), vt_cur_fsuid(&cw));
	if (!vt_ovl_hit(w, VT_R_LEASE_OWNER, owner || vt_capable(&cw, VT_CAP_LEASE)) &&
	    VT_REFUSES(VT_R_LEASE_OWNER)) {
		vt_ovl_say(e, EACCES, VT_R_LEASE_OWNER, "vfs_setlease through the overlay: the caller "
			   "neither owns the overlay inode nor holds CAP_LEASE", NULL);
		return;
	}
	if (!vt_ovl_hit(w, VT_R_LEASE_NONREG, S_ISREG(cw.obj.mode)) && VT_REFUSES(VT_R_LEASE_NONREG)) {
		vt_ovl_say(e, EINVAL, VT_R_LEASE_NONREG, "vfs_setlease: not a regular file", NULL);
		return;
	}
	ok(w, e, VT_R_LEASE_NONREG, "vfs_setlease through the overlay: generic_setlease on the "
	   "overlay inode");
}

/* FS_IOC_SETFLAGS / FS_IOC_FSSETXATTR of the values FS_IOC_GETFLAGS /
 * FS_IOC_FSGETXATTR just read (ovl_fileattr_get: the mounter's
 * ovl_real_fileattr_get of the lower file, dentry_open without a
 * permission check). fs/ioctl.c ioctl_setflags / ioctl_fssetxattr:
 * mnt_want_write_file (a read-only overlay: EROFS), then vfs_fileattr_set(
 * nop, overlay dentry): inode_owner_or_capable of the overlay inode as the
 * caller, else EPERM; fileattr_set_prepare finds nothing changed; then
 * 6.12 inode.c ovl_fileattr_set: ovl_copy_up (its refusals), ovl_want_write,
 * and as the mounter ovl_set_protattr (no immutable/append flag: nothing)
 * and ovl_real_fileattr_set -> vfs_fileattr_set(upper idmap, upper copy):
 * the mounter's inode_owner_or_capable holds (CAP_FOWNER in the initial
 * namespace over the copy, whose ids through the upper idmap are the ones
 * ovl_set_attr could write), and the same values are stored. */
static void ovl_fileattr(const struct vt_ovl_world *w, struct vt_ovl_expect *e)
{
	struct vt_world cw;
	struct vt_minode up;

	if (open_rdonly(w, e))
		return;
	if (vt_ovl_read_only(w, e))
		return;
	caller_world(w, &w->caller, &cw);
	if (!vt_ovl_hit(w, VT_R_FILEATTR_OWNER, vt_inode_owner_or_capable(&cw, &cw.obj)) &&
	    VT_REFUSES(VT_R_FILEATTR_OWNER)) {
		vt_ovl_say(e, EPERM, VT_R_FILEATTR_OWNER, "vfs_fileattr_set through the overlay: the "
			   "caller is not inode_owner_or_capable of the overlay inode", NULL);
		return;
	}
	if (vt_ovl_copy_up(w, &up, e))
		return;
	e->upper = true;
	e->upper_uid = up.uid;
	e->upper_gid = up.gid;
	vt_ovl_seen(w, w->upper_idmap, &up, e);
	vt_ovl_hit(w, VT_R_OVL_FILEATTR_OK, true);
	vt_ovl_say(e, 0, VT_R_OVL_FILEATTR_OK, "ovl_fileattr_set: copied up, the same attributes set "
		   "on the upper copy by the mounter through the upper idmap", NULL);
}

/* FIDEDUPERANGE of 0 bytes from the fd onto itself (fs/remap_range.c):
 * vfs_dedupe_file_range finds the overlay file's ->remap_file_range
 * (ovl_remap_file_range: every overlay has one, whatever its layers), then
 * vfs_dedupe_file_range_one: mnt_want_write_file (a read-only overlay:
 * EROFS), may_dedupe_file on the overlay file: capable(CAP_SYS_ADMIN), or
 * FMODE_WRITE (not: O_RDONLY), or the overlay inode's owner (nop idmap) is
 * current_fsuid, or inode_permission(nop, overlay inode, MAY_WRITE) (both
 * halves) succeeds, else EPERM; same sb, not a directory, and len 0 give
 * status 0 before ovl_remap_file_range, whose EPERM for a dedupe of files
 * without an upper inode ("Don't copy up because of a dedupe request")
 * a length of 0 never reaches. */
static void ovl_dedupe(const struct vt_ovl_world *w, struct vt_ovl_expect *e)
{
	struct vt_world cw;
	bool may;

	if (open_rdonly(w, e))
		return;
	if (vt_ovl_read_only(w, e))
		return;
	caller_world(w, &w->caller, &cw);
	may = vt_capable(&cw, VT_CAP_SYS_ADMIN) ||
	      vt_vfsuid_eq_kuid(vt_i_uid_into_vfsuid(&cw, &cw.obj), vt_cur_fsuid(&cw)) ||
	      quiet_permission(w, VT_MAY_WRITE);
	if (!vt_ovl_hit(w, VT_R_DEDUPE_PERM, may) && VT_REFUSES(VT_R_DEDUPE_PERM)) {
		vt_ovl_say(e, EPERM, VT_R_DEDUPE_PERM, "may_dedupe_file through the overlay: no "
			   "CAP_SYS_ADMIN, not the overlay inode's owner, no write permission (both "
			   "halves of ovl_permission)", NULL);
		return;
	}
	ok(w, e, VT_R_DEDUPE_PERM, "may_dedupe_file through the overlay allows it; 0 bytes: done "
	   "before ovl_remap_file_range");
}

/* cachestat(2) (mm/filemap.c can_do_cachestat) on the overlay file:
 * FMODE_WRITE (not), file_owner_or_capable (inode_owner_or_capable of the
 * overlay inode, nop idmap), or file_permission(MAY_WRITE) on the overlay
 * inode (sb_permission: a read-only overlay refuses it; HAS_UNMAPPED_ID;
 * both halves of ovl_permission), else EPERM. */
static void ovl_cachestat(const struct vt_ovl_world *w, struct vt_ovl_expect *e)
{
	struct vt_world cw;
	bool may;

	if (open_rdonly(w, e))
		return;
	caller_world(w, &w->caller, &cw);
	may = vt_inode_owner_or_capable(&cw, &cw.obj) || quiet_permission(w, VT_MAY_WRITE);
	if (!vt_ovl_hit(w, VT_R_CACHESTAT_PERM, may) && VT_REFUSES(VT_R_CACHESTAT_PERM)) {
		vt_ovl_say(e, EPERM, VT_R_CACHESTAT_PERM, "can_do_cachestat through the overlay: not "
			   "the overlay inode's owner or capable, no write permission on it", NULL);
		return;
	}
	ok(w, e, VT_R_CACHESTAT_PERM, "can_do_cachestat through the overlay allows it");
}

/* read(2) of one byte, the atime the caller's fstat() shows before and
 * after (ovl_getattr: the lower file's). ovl_read_iter ->
 * backing_file_read_iter reads the real file ovl_open_realfile opened as
 * the mounter with flags | OVL_OPEN_FLAGS (O_NOATIME), dropped only when
 * the mounter is not inode_owner_or_capable(lower idmap, lower inode)
 * (fsuid 0 the owner through the idmap, or the uid through it mapped in
 * the mounter's namespace with CAP_FOWNER; the gid is not asked). With
 * O_NOATIME the real
 * file's file_accessed touches nothing; without it touch_atime(&realfile
 * ->f_path) asks atime_needs_update on the lower layer's mount:
 * HAS_UNMAPPED_ID through the lower idmap, then the lower sb's SB_RDONLY.
 * ovl_file_accessed touches the overlay's own atime only when the file has
 * an upper inode (not here). */
static void ovl_read_atime(const struct vt_ovl_world *w, struct vt_ovl_expect *e)
{
	struct vt_world lw;
	bool noatime, unmapped;

	if (open_rdonly(w, e))
		return;
	vt_ovl_plain_world(&lw, w, w->lower_idmap, &w->mounter, w->lower_rdonly);
	noatime = vt_inode_owner_or_capable(&lw, &w->lower_obj);
	e->atime_updated = true;
	if (!vt_ovl_hit(w, VT_R_OVL_READ_NOATIME, !noatime) && VT_REFUSES(VT_R_OVL_READ_NOATIME)) {
		e->atime_updated = false;
	} else {
		unmapped = !vt_vfsuid_valid(vt_i_uid_into_vfsuid(&lw, &w->lower_obj)) ||
			   !vt_vfsgid_valid(vt_i_gid_into_vfsgid(&lw, &w->lower_obj));
		if (!vt_ovl_hit(w, VT_R_ATIME_UNMAPPED, !unmapped) && VT_REFUSES(VT_R_ATIME_UNMAPPED))
			e->atime_updated = false;
		if (w->lower_rdonly)	/* IS_NOATIME: SB_RDONLY */
			e->atime_updated = false;
	}
	ok(w, e, VT_R_OPEN_PERM, "read through the overlay: the real file's atime as "
	   "ovl_open_realfile's O_NOATIME and atime_needs_update through the lower idmap leave it");
}

/* matrix/012's opens: O_CREAT|O_RDONLY of the existing lower file or fifo
 * (do_open: may_create_in_sticky(nop, nd, overlay inode) with the merged
 * P's owner and mode, ovl_copyattr's of the upper P; then may_open) and
 * O_RDONLY of a lower symlink to P/t (pick_link -> may_follow_link(nd,
 * overlay link inode): the link's and P's owners through nop; ovl_get_link
 * reads the real link as the mounter, no permission asked; then t is
 * opened). The caller's half is the plain model on the overlay inodes
 * (caller_world: the sysctls as /proc says), which asks the walk, the
 * protected_* rules and may_open's caller half; then ovl_permission's
 * mounter half of may_open's MAY_READ on the real inode opened (P/o, or
 * P/t for the link) through the lower idmap (a fifo is a special file:
 * its mask as asked), which ovl_open_realfile asks again for a regular
 * file. lookup_open's may_o_create for O_CREAT only matters for a negative
 * dentry; nothing is copied up (no FMODE_WRITE, no O_TRUNC). */
static void ovl_protected_open(const struct vt_ovl_world *w, const struct vt_mop_args *a,
			       struct vt_ovl_expect *e)
{
	const struct vt_minode *real = S_ISLNK(w->lower_obj.mode) ? &w->lower_other : &w->lower_obj;
	struct vt_world cw, mw;
	struct vt_expect pe;
	enum vt_rule r = VT_R_NONE;
	int err;

	if (walk(w, e))
		return;
	caller_world(w, &w->caller, &cw);
	memset(&pe, 0, sizeof(pe));
	vt_model_apply(&cw, a, &pe);
	if (pe.err && VT_REFUSES_("protected-open/overlay")) {
		vt_ovl_say(e, pe.err, pe.rule_id, "through the overlay mount, as the caller on the "
			   "overlay inodes: ", pe.rule);
		return;
	}
	vt_ovl_plain_world(&mw, w, w->lower_idmap, &w->mounter, w->lower_rdonly);
	err = vt_inode_permission(&mw, real, VT_MAY_READ, &r);
	if (!vt_ovl_hit(w, VT_R_OVL_MOUNTER_PERM, !err) &&
	    VT_REFUSES_("ovl_permission/mounter-protected-open")) {
		vt_ovl_say(e, -err, VT_R_OVL_MOUNTER_PERM, "ovl_permission: the mounter on the real "
			   "inode through the lower idmap: ", vt_rule_info(r)->text);
		return;
	}
	vt_ovl_seen(w, w->lower_idmap, &w->lower_obj, e);
	vt_ovl_say(e, 0, pe.rule_id, "through the overlay: ", pe.rule);
}

bool vt_ovl_fileop(const struct vt_ovl_world *w, const struct vt_mop_args *a,
		   struct vt_ovl_expect *e)
{
	switch (a->op) {
	case VT_OP_ACCESS:
		ovl_access(w, a, e);
		return true;
	case VT_OP_CHDIR:
		ovl_chdir(w, e);
		return true;
	case VT_OP_OPEN_NOATIME:
		ovl_noatime(w, VT_R_NOATIME_OWNER, e);
		return true;
	case VT_OP_SETFL_NOATIME:
		ovl_noatime(w, VT_R_SETFL_NOATIME_OWNER, e);
		return true;
	case VT_OP_SETLEASE:
		ovl_setlease(w, e);
		return true;
	case VT_OP_SETFLAGS:
	case VT_OP_FSSETXATTR:
		ovl_fileattr(w, e);
		return true;
	case VT_OP_DEDUPE:
		ovl_dedupe(w, e);
		return true;
	case VT_OP_CACHESTAT:
		ovl_cachestat(w, e);
		return true;
	case VT_OP_READ_ATIME:
		ovl_read_atime(w, e);
		return true;
	case VT_OP_OPEN_CREAT_RDONLY:
		if (!a->on_existing)
			return false;
		ovl_protected_open(w, a, e);
		return true;
	case VT_OP_OPEN_READ:
		if (!S_ISLNK(w->lower_obj.mode))
			return false;
		ovl_protected_open(w, a, e);
		return true;
	default:
		return false;
	}
}
