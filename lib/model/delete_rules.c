/* Removing and renaming names: fs/namei.c (may_delete, check_sticky,
 * __check_sticky, may_create, vfs_unlink, vfs_rmdir, do_renameat2,
 * vfs_rename), whiteouts (mm/shmem.c: shmem_whiteout -> shmem_mknod; the
 * block filesystems' *_whiteout_for_rename likewise make the inode with
 * the rename's idmap and inode_init_owner). */
#include "model/fs_ops.h"
#include "model/rules.h"

#include <errno.h>
#include <sys/stat.h>

/* __check_sticky(): true = not allowed. Records the test that allowed,
 * or all three when none did. */
static bool check_sticky(const struct vt_world *w, const struct vt_minode *dir,
			 const struct vt_minode *victim)
{
	vt_kuid_t fsuid = vt_cur_fsuid(w);
	enum vt_capw c;

	if (!(dir->mode & S_ISVTX))
		return false;
	if (vt_vfsuid_eq_kuid(vt_i_uid_into_vfsuid(w, victim), fsuid))
		return !vt_hit(w, VT_R_STICKY_VICTIM, true);
	if (vt_vfsuid_eq_kuid(vt_i_uid_into_vfsuid(w, dir), fsuid))
		return !vt_hit(w, VT_R_STICKY_DIR, true);
	c = vt_capable_wrt(w, victim, VT_CAP_FOWNER);
	if (c == VT_CAPW_GRANTED)
		return !vt_hit_capw(w, VT_R_STICKY_FOWNER, c);
	vt_hit(w, VT_R_STICKY_VICTIM, false);
	vt_hit(w, VT_R_STICKY_DIR, false);
	vt_hit_capw(w, VT_R_STICKY_FOWNER, c);
	return true;
}

/* may_delete() of VICTIM in DIR */
static int may_delete(const struct vt_world *w, const struct vt_minode *dir,
		      const struct vt_minode *victim, bool isdir, enum vt_rule *rule)
{
	int ret;

	/* inode writeback is not safe when the uid or gid are invalid */
	if (!vt_hit(w, VT_R_DEL_UNMAPPED, !vt_has_unmapped_id(w, victim)))
		VT_REFUSE(VT_R_DEL_UNMAPPED, EOVERFLOW);
	ret = vt_inode_permission_at(w, dir, VT_MAY_WRITE | VT_MAY_EXEC, VT_R_DEL_PERM, rule);
	if (ret)
		return ret;
	if (check_sticky(w, dir, victim))
		VT_REFUSE(VT_R_STICKY_FOWNER, EPERM);
	if (isdir && !vt_hit(w, VT_R_DEL_NOTDIR, S_ISDIR(victim->mode)))
		VT_REFUSE(VT_R_DEL_NOTDIR, ENOTDIR);
	if (!isdir && !vt_hit(w, VT_R_DEL_ISDIR, !S_ISDIR(victim->mode)))
		VT_REFUSE(VT_R_DEL_ISDIR, EISDIR);
	return 0;
}

/* RENAME_WHITEOUT: the name P/o is left holding a whiteout. Since
 * a3c751a50fe6 (5.8, "vfs: allow unprivileged whiteout creation")
 * do_renameat2() no longer asks for capable(CAP_MKNOD) and vfs_mknod()
 * exempts WHITEOUT_DEV: no capability is needed. The fs makes the inode
 * like mknod(S_IFCHR | WHITEOUT_MODE, WHITEOUT_DEV) with the rename's
 * idmap (shmem_whiteout -> shmem_mknod -> shmem_get_inode ->
 * inode_init_owner): owner mapped_fsuid()/mapped_fsgid() (or the
 * directory's group if it is setgid), mode S_IFCHR|0 (the umask or a
 * default ACL cannot add bits to 0). Nothing checks that the caller's
 * fsuid maps through the mount when the target existed (may_delete on
 * the target instead of may_create): the owner is then whatever
 * from_vfsuid() gives, INVALID included. */
static void whiteout(const struct vt_world *w, struct vt_expect *e)
{
	struct vt_minode *wh = &e->whiteout;

	e->obj_gone = false;
	e->has_whiteout = true;
	wh->exists = true;
	wh->mode = S_IFCHR;
	wh->uid = vt_from_vfsuid(w->idmap, w->fs_ns, vt_vfsuid_from_kuid(vt_cur_fsuid(w)));
	wh->gid = (w->dir.mode & S_ISGID) ? w->dir.gid
		  : vt_from_vfsgid(w->idmap, w->fs_ns, vt_vfsgid_from_kgid(vt_cur_fsgid(w)));
}

void vt_model_delete(const struct vt_world *w, const struct vt_mop_args *a, struct vt_expect *e)
{
	enum vt_rule rule = VT_R_NONE;
	bool isdir = S_ISDIR(w->obj.mode);
	const struct vt_minode *newdir = a->cross_dir ? &w->dir2 : &w->dir;
	int ret;

	ret = vt_may_lookup(w, &rule);
	if (ret)
		VT_FAIL(e, -ret, rule);
	/* do_renameat2(): both parents are walked (filename_parentat, old
	 * then new) before the old name is looked up */
	if (a->cross_dir) {
		ret = vt_may_lookup_in(w, newdir, &rule);
		if (ret)
			VT_FAIL(e, -ret, rule);
	}
	if (!vt_hit(w, VT_R_LOOKUP_NOENT, w->obj.exists))
		VT_FAIL(e, ENOENT, VT_R_LOOKUP_NOENT);
	switch (a->op) {
	case VT_OP_UNLINK:
	case VT_OP_RMDIR:
		ret = may_delete(w, &w->dir, &w->obj, a->op == VT_OP_RMDIR, &rule);
		if (ret)
			VT_FAIL(e, -ret, rule);
		e->obj_gone = true;
		e->result.exists = false;
		VT_SUCCEED(e, a->op == VT_OP_UNLINK ? VT_R_UNLINK_OK : VT_R_RMDIR_OK);
		return;
	case VT_OP_RENAME:
	case VT_OP_RENAME_NOREPLACE:
	case VT_OP_RENAME_EXCHANGE:
	case VT_OP_RENAME_WHITEOUT:
		break;
	default:
		VT_FAIL(e, ENOSYS, VT_R_NONE);	/* not a delete operation */
	}
	/* do_renameat2(): the flags are checked against the target name first */
	if (a->op == VT_OP_RENAME_NOREPLACE &&
	    !vt_hit(w, VT_R_RENAME_NOREPLACE, !(a->to_other && w->other.exists)))
		VT_FAIL(e, EEXIST, VT_R_RENAME_NOREPLACE);
	if (a->op == VT_OP_RENAME_EXCHANGE &&
	    !vt_hit(w, VT_R_RENAME_EXCHANGE, a->to_other && w->other.exists))
		VT_FAIL(e, ENOENT, VT_R_RENAME_EXCHANGE);
	/* vfs_rename(): may_delete in the old parent, then may_create or
	 * may_delete in the new one */
	ret = may_delete(w, &w->dir, &w->obj, isdir, &rule);
	if (ret)
		VT_FAIL(e, -ret, rule);
	if (!a->to_other || !w->other.exists) {
		if (!vt_hit(w, VT_R_RENAME_EOVERFLOW, vt_fsuidgid_has_mapping(w)))
			VT_FAIL(e, EOVERFLOW, VT_R_RENAME_EOVERFLOW);
		ret = vt_inode_permission_at(w, newdir, VT_MAY_WRITE | VT_MAY_EXEC, VT_R_CREATE_PERM,
					     &rule);
		if (ret)
			VT_FAIL(e, -ret, rule);
	} else {
		bool target_isdir = a->op == VT_OP_RENAME_EXCHANGE ? S_ISDIR(w->other.mode) : isdir;

		ret = may_delete(w, newdir, &w->other, target_isdir, &rule);
		if (ret)
			VT_FAIL(e, -ret, rule);
	}
	/* a directory changing parent has its ".." rewritten: MAY_WRITE on
	 * it (the exchange of a directory target across parents likewise;
	 * no case here moves one) */
	if (a->cross_dir && isdir) {
		ret = vt_inode_permission_at(w, &w->obj, VT_MAY_WRITE, VT_R_RENAME_DIR_WRITE, &rule);
		if (ret)
			VT_FAIL(e, -ret, rule);
	}
	/* ->rename: a filesystem may refuse the flags (vfat_rename2,
	 * msdos_rename, exfat_rename) */
	ret = vt_fs_rename_flags(w, a->op, &rule);
	if (ret)
		VT_FAIL(e, -ret, rule);
	VT_SUCCEED(e, a->op == VT_OP_RENAME_WHITEOUT ? VT_R_WHITEOUT_OK : VT_R_RENAME_OK);
	e->result = w->obj;
	e->obj_gone = a->op != VT_OP_RENAME_EXCHANGE;
	vt_model_seen(w, e);
	if (a->op == VT_OP_RENAME_WHITEOUT)
		whiteout(w, e);
}
