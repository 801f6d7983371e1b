/* Changing attributes: chown/lchown, chmod, utimensat, truncate, O_TRUNC,
 * write (privilege stripping), and opening an existing file.
 * fs/open.c (chown_common, chmod_common, vfs_truncate, do_truncate),
 * fs/attr.c (notify_change, may_setattr, setattr_prepare, chown_ok,
 * chgrp_ok, setattr_copy, setattr_should_drop_suidgid), fs/inode.c
 * (dentry_needs_remove_privs, file_remove_privs_flags), fs/utimes.c
 * (vfs_utimes), fs/namei.c (may_open, handle_truncate), fs/posix_acl.c
 * (posix_acl_chmod), security/commoncap.c (cap_inode_need_killpriv,
 * cap_inode_killpriv). */
#include "model/optowner_model.h"
#include "model/setattr.h"
#include "world/xattr_view.h"

#include <errno.h>
#include <sys/stat.h>

/* chown_ok() */
static bool chown_ok(const struct vt_world *w, const struct vt_minode *i, vt_vfsuid_t ia)
{
	vt_vfsuid_t v = vt_i_uid_into_vfsuid(w, i);
	enum vt_capw c;

	if (vt_vfsuid_eq_kuid(v, vt_cur_fsuid(w)) && vt_vfsuid_eq(ia, v))
		return true;
	c = vt_capable_wrt(w, i, VT_CAP_CHOWN);
	if (c == VT_CAPW_GRANTED)
		return vt_hit_capw(w, VT_R_CHOWN_CAP, c);
	/* ns_capable(inode->i_sb->s_user_ns, CAP_CHOWN) (fs/attr.c) */
	if (!vt_vfsuid_valid(v) && vt_sb_ns_capable(w, VT_CAP_CHOWN))
		return true;
	vt_hit_capw(w, VT_R_CHOWN_CAP, c);
	return false;
}

/* chgrp_ok(): the owner may change the group to one of its groups, the
 * group compared in the mount's view (168f91289340) */
static bool chgrp_ok(const struct vt_world *w, const struct vt_minode *i, vt_vfsgid_t ia)
{
	vt_vfsgid_t g = vt_i_gid_into_vfsgid(w, i);
	bool owner_asked = false;
	enum vt_capw c;

	if (vt_vfsuid_eq_kuid(vt_i_uid_into_vfsuid(w, i), vt_cur_fsuid(w))) {
		if (vt_vfsgid_eq(ia, g))
			return true;
		if (vt_vfsgid_in_group_p(w, ia))
			return vt_hit(w, VT_R_CHGRP_IN_GROUP, true);
		owner_asked = true;
	}
	c = vt_capable_wrt(w, i, VT_CAP_CHOWN);
	if (c == VT_CAPW_GRANTED)
		return vt_hit_capw(w, VT_R_CHOWN_CAP, c);
	/* ns_capable(inode->i_sb->s_user_ns, CAP_CHOWN) (fs/attr.c) */
	if (!vt_vfsgid_valid(g) && vt_sb_ns_capable(w, VT_CAP_CHOWN))
		return true;
	if (owner_asked)
		vt_hit(w, VT_R_CHGRP_IN_GROUP, false);
	vt_hit_capw(w, VT_R_CHOWN_CAP, c);
	return false;
}

int vt_setattr_prepare(const struct vt_world *w, struct vt_minode *i, struct iattr *ia,
		       enum vt_rule *rule)
{
	if (!(ia->valid & IA_FORCE)) {
		if ((ia->valid & IA_UID) && !vt_hit(w, VT_R_CHOWN_OK, chown_ok(w, i, ia->vfsuid)))
			VT_REFUSE(VT_R_CHOWN_OK, EPERM);
		if ((ia->valid & IA_GID) && !vt_hit(w, VT_R_CHGRP_OK, chgrp_ok(w, i, ia->vfsgid)))
			VT_REFUSE(VT_R_CHGRP_OK, EPERM);
		if (ia->valid & IA_MODE) {
			vt_vfsgid_t g;

			if (!vt_hit(w, VT_R_MODE_OWNER, vt_inode_owner_or_capable(w, i)))
				VT_REFUSE(VT_R_MODE_OWNER, EPERM);
			g = (ia->valid & IA_GID) ? ia->vfsgid : vt_i_gid_into_vfsgid(w, i);
			if ((ia->mode & S_ISGID) && !vt_in_group_or_capable_hit(w, i, g, VT_R_SETATTR_SGID))
				ia->mode &= ~(mode_t)S_ISGID;
		}
		if ((ia->valid & IA_TIMES_SET) &&
		    !vt_hit(w, VT_R_TIMES_OWNER, vt_inode_owner_or_capable(w, i)))
			VT_REFUSE(VT_R_TIMES_OWNER, EPERM);
	}
	/* security_inode_killpriv() -> cap_inode_killpriv(): drop the caps */
	if (ia->valid & IA_KILL_PRIV)
		i->fcaps.version = 0;
	return 0;
}

void vt_setattr_copy(const struct vt_world *w, struct vt_minode *i, const struct iattr *ia)
{
	/* i_uid_update()/i_gid_update() */
	if (ia->valid & IA_UID)
		i->uid = vt_from_vfsuid(w->idmap, w->fs_ns, ia->vfsuid);
	if (ia->valid & IA_GID)
		i->gid = vt_from_vfsgid(w->idmap, w->fs_ns, ia->vfsgid);
	if (ia->valid & IA_MODE) {
		mode_t m = ia->mode;

		/* checked against the (new) inode gid */
		if ((m & S_ISGID) &&
		    !vt_in_group_or_capable_hit(w, i, vt_i_gid_into_vfsgid(w, i), VT_R_SETATTR_SGID))
			m &= ~(mode_t)S_ISGID;
		i->mode = m;
	}
}

/* notify_change() -> ->setattr: setattr_prepare() + setattr_copy() (the
 * generic ->setattr), or the filesystem's own (fat_setattr).
 * Updates *I on success; returns 0 or -errno with *RULE set. */
static int notify_change(const struct vt_world *w, struct vt_minode *i, struct iattr *ia,
			 enum vt_rule *rule)
{
	enum vt_rule prule;
	mode_t mode = i->mode;
	int ret;

	/* may_setattr(): ATTR_TOUCH by a non-owner needs write permission */
	if ((ia->valid & IA_TOUCH) && !vt_inode_owner_or_capable(w, i) &&
	    vt_inode_permission_at(w, i, VT_MAY_WRITE, VT_R_TOUCH_WRITE, &prule))
		VT_REFUSE(VT_R_TOUCH_WRITE, EACCES);
	/* security_inode_need_killpriv(): only if security.capability exists */
	if ((ia->valid & IA_KILL_PRIV) && i->fcaps.version == 0)
		ia->valid &= ~IA_KILL_PRIV;
	if ((ia->valid & IA_KILL_SUID) && (mode & S_ISUID)) {
		ia->valid |= IA_MODE;
		ia->mode = i->mode & ~(mode_t)S_ISUID;
	}
	if ((ia->valid & IA_KILL_SGID) && (mode & S_ISGID)) {
		if (!(ia->valid & IA_MODE)) {
			ia->valid |= IA_MODE;
			ia->mode = i->mode;
		}
		ia->mode &= ~(mode_t)S_ISGID;
	}
	/* uid/gid changes must be representable in the sb's namespace */
	if ((ia->valid & IA_UID) &&
	    !vt_hit(w, VT_R_NC_UID_FSMAPPING, vt_vfsuid_has_fsmapping(w->idmap, w->fs_ns, ia->vfsuid)))
		VT_REFUSE(VT_R_NC_UID_FSMAPPING, EOVERFLOW);
	if ((ia->valid & IA_GID) &&
	    !vt_hit(w, VT_R_NC_GID_FSMAPPING, vt_vfsgid_has_fsmapping(w->idmap, w->fs_ns, ia->vfsgid)))
		VT_REFUSE(VT_R_NC_GID_FSMAPPING, EOVERFLOW);
	/* no change to an inode whose ids do not map, unless made valid */
	if (!(ia->valid & IA_UID) &&
	    !vt_hit(w, VT_R_NC_INODE_UID, vt_vfsuid_valid(vt_i_uid_into_vfsuid(w, i))))
		VT_REFUSE(VT_R_NC_INODE_UID, EOVERFLOW);
	if (!(ia->valid & IA_GID) &&
	    !vt_hit(w, VT_R_NC_INODE_GID, vt_vfsgid_valid(vt_i_gid_into_vfsgid(w, i))))
		VT_REFUSE(VT_R_NC_INODE_GID, EOVERFLOW);
	/* ->setattr */
	if (w->optowner)	/* the filesystem's own (fat_setattr, exfat_setattr) */
		return w->optowner->fs->setattr(w, i, ia, rule);
	ret = vt_setattr_prepare(w, i, ia, rule);
	if (ret)
		return ret;
	vt_setattr_copy(w, i, ia);
	/* ->setattr: posix_acl_chmod() after a mode change */
	if (ia->valid & IA_MODE)
		vt_posix_acl_chmod(i);
	*rule = VT_R_SETATTR_OK;
	return 0;
}

/* __posix_acl_chmod(): the access ACL's owner/mask(or group)/other perms
 * follow the new mode */
void vt_posix_acl_chmod(struct vt_minode *i)
{
	struct vt_acl_kentry *group_obj = NULL, *mask_obj = NULL;
	int k;

	for (k = 0; k < i->nacl; k++) {
		struct vt_acl_kentry *pa = &i->acl[k];

		switch (pa->tag) {
		case VT_ACL_USER_OBJ:
			pa->perm = (i->mode & S_IRWXU) >> 6;
			break;
		case VT_ACL_GROUP_OBJ:
			group_obj = pa;
			break;
		case VT_ACL_MASK:
			mask_obj = pa;
			break;
		case VT_ACL_OTHER:
			pa->perm = i->mode & S_IRWXO;
			break;
		}
	}
	if (mask_obj)
		mask_obj->perm = (i->mode & S_IRWXG) >> 3;
	else if (group_obj)
		group_obj->perm = (i->mode & S_IRWXG) >> 3;
}

/* setattr_should_drop_sgid() with its outcome recorded: only S_ISGID
 * without S_IXGRP depends on in_group_or_capable */
static bool should_drop_sgid_hit(const struct vt_world *w, const struct vt_minode *i)
{
	if (!(i->mode & S_ISGID))
		return false;
	if (i->mode & S_IXGRP)
		return true;
	return !vt_in_group_or_capable_hit(w, i, vt_i_gid_into_vfsgid(w, i), VT_R_DROP_SGID);
}

/* dentry_needs_remove_privs(): setattr_should_drop_suidgid() | KILL_PRIV */
static unsigned int needs_remove_privs(const struct vt_world *w, const struct vt_minode *i)
{
	unsigned int kill = 0;

	if (i->mode & S_ISUID)
		kill = IA_KILL_SUID;
	/* setattr_should_drop_suidgid(): capable(CAP_FSETID) is asked in the
	 * INITIAL namespace, and only regular files lose the bits; the
	 * sgid test is final only where CAP_FSETID does not keep all */
	if (S_ISREG(i->mode) && (i->mode & (S_ISUID | S_ISGID))) {
		bool fsetid = vt_capable(w, VT_CAP_FSETID);

		if (vt_setattr_should_drop_sgid(w, i))
			kill |= IA_KILL_SGID;
		if (kill)
			vt_hit(w, VT_R_DROP_SUIDGID, fsetid);
		if (!fsetid && (i->mode & S_ISGID) && !(i->mode & S_IXGRP))
			should_drop_sgid_hit(w, i);
		if (fsetid)
			kill = 0;
	} else {
		kill = 0;
	}
	if (i->fcaps.version)
		kill |= IA_KILL_PRIV;
	return kill;
}

static void finish(const struct vt_world *w, struct vt_expect *e, const struct vt_minode *i,
		   enum vt_rule rule)
{
	VT_SUCCEED(e, rule);
	e->result = *i;
	vt_model_seen(w, e);
}

void vt_model_setattr(const struct vt_world *w, const struct vt_mop_args *a, struct vt_expect *e)
{
	struct vt_minode i = w->obj;
	struct iattr ia = { 0 };
	enum vt_rule rule = VT_R_NONE;
	int ret;

	ret = vt_may_lookup(w, &rule);
	if (ret)
		VT_FAIL(e, -ret, rule);
	if (a->op == VT_OP_FCHOWN) {
		/* the fd first: do_sys_open -> may_open(MAY_READ); then
		 * ksys_fchown -> chown_common on the file's path, as chown */
		ret = vt_inode_permission_at(w, &i, VT_MAY_READ, VT_R_OPEN_PERM, &rule);
		if (ret)
			VT_FAIL(e, -ret, rule);
	}
	switch (a->op) {
	case VT_OP_FCHOWN:
	case VT_OP_CHOWN:
	case VT_OP_LCHOWN:
		/* chown_common(): ids are the caller's, taken as mount-view ids */
		if (a->uid.val != VT_ID_INVALID) {
			vt_kuid_t k = vt_make_kuid(w->cred.ns, a->uid);

			if (!vt_hit(w, VT_R_CHOWN_UID_EINVAL, vt_kuid_valid(k)))
				VT_FAIL(e, EINVAL, VT_R_CHOWN_UID_EINVAL);
			ia.valid |= IA_UID;
			ia.vfsuid = vt_vfsuid_from_kuid(k);
		}
		if (a->gid.val != VT_ID_INVALID) {
			vt_kgid_t k = vt_make_kgid(w->cred.ns, a->gid);

			if (!vt_hit(w, VT_R_CHOWN_GID_EINVAL, vt_kgid_valid(k)))
				VT_FAIL(e, EINVAL, VT_R_CHOWN_GID_EINVAL);
			ia.valid |= IA_GID;
			ia.vfsgid = vt_vfsgid_from_kgid(k);
		}
		if (!S_ISDIR(i.mode))
			ia.valid |= IA_KILL_SUID | IA_KILL_PRIV |
				    (should_drop_sgid_hit(w, &i) ? IA_KILL_SGID : 0);
		break;
	case VT_OP_CHMOD:
		/* chmod_common() */
		ia.valid = IA_MODE;
		ia.mode = (a->mode & 07777) | (i.mode & S_IFMT);
		break;
	case VT_OP_UTIMENS_NOW:
		ia.valid = IA_TOUCH;	/* vfs_utimes(times == NULL) */
		break;
	case VT_OP_UTIMENS_SET:
		ia.valid = IA_TIMES_SET;
		break;
	case VT_OP_TRUNCATE:
		if (a->by_fd) {
			/* ftruncate: the fd is open(P/o, O_WRONLY): may_open
			 * refuses a directory (EISDIR), then
			 * inode_permission(MAY_OPEN | MAY_WRITE) through the
			 * mount (fs/namei.c). do_ftruncate (fs/open.c, 6.12)
			 * asks no permission of its own: a regular file open
			 * for writing (else EINVAL: not cased), !IS_APPEND, then
			 * do_truncate(the idmap of the fd's mount, ..., ATTR_MTIME |
			 * ATTR_CTIME, file): the privileges removed and
			 * notify_change with the open's idmap as below. The
			 * time bits ask nothing (setattr_prepare checks only
			 * ATTR_*_SET). */
			if (!vt_hit(w, VT_R_OPEN_DIR_WRITE, !S_ISDIR(i.mode)))
				VT_FAIL(e, EISDIR, VT_R_OPEN_DIR_WRITE);
		} else if (!vt_hit(w, VT_R_TRUNC_DIR, !S_ISDIR(i.mode))) {
			/* vfs_truncate() */
			VT_FAIL(e, EISDIR, VT_R_TRUNC_DIR);
		}
		ret = vt_inode_permission_at(w, &i, VT_MAY_WRITE, VT_R_OPEN_PERM, &rule);
		if (ret)
			VT_FAIL(e, -ret, rule);
		/* do_truncate(): remove privs with ATTR_FORCE */
		ia.valid = IA_SIZE | needs_remove_privs(w, &i);
		if (ia.valid & ~IA_SIZE)
			ia.valid |= IA_FORCE;
		break;
	default:
		VT_FAIL(e, ENOSYS, VT_R_NONE);	/* not a setattr operation */
	}
	ret = notify_change(w, &i, &ia, &rule);
	if (ret)
		VT_FAIL(e, -ret, rule);
	finish(w, e, &i, rule);
}

void vt_model_open_existing(const struct vt_world *w, const struct vt_mop_args *a,
			    struct vt_expect *e)
{
	struct vt_minode i = w->obj;
	enum vt_rule rule = VT_R_NONE;
	int ret, acc = a->op == VT_OP_OPEN_READ ? VT_MAY_READ : VT_MAY_WRITE;

	ret = vt_may_lookup(w, &rule);
	if (ret)
		VT_FAIL(e, -ret, rule);
	/* no O_CREAT: a negative last component is ENOENT (step_into) */
	if (!vt_hit(w, VT_R_LOOKUP_NOENT, i.exists))
		VT_FAIL(e, ENOENT, VT_R_LOOKUP_NOENT);
	if (S_ISLNK(i.mode)) {
		/* a trailing symlink is followed (pick_link -> may_follow_link);
		 * its target "t" is looked up in P again; the result name P/o
		 * still holds the link, so the open's checks apply to P/t */
		ret = vt_may_follow_link(w, &w->dir, &i);
		if (ret)
			VT_FAIL(e, -ret, VT_R_FOLLOW_PROTECTED);
		if (!i.symlink_to_t)
			VT_FAIL(e, ELOOP, VT_R_NONE);	/* "o" -> "o" */
		if (!vt_hit(w, VT_R_LOOKUP_NOENT, w->other.exists))
			VT_FAIL(e, ENOENT, VT_R_LOOKUP_NOENT);
		i = w->other;
		if ((acc & VT_MAY_WRITE) && !vt_hit(w, VT_R_OPEN_DIR_WRITE, !S_ISDIR(i.mode)))
			VT_FAIL(e, EISDIR, VT_R_OPEN_DIR_WRITE);
		ret = vt_inode_permission_at(w, &i, acc, VT_R_OPEN_PERM, &rule);
		if (ret)
			VT_FAIL(e, -ret, rule);
		if (a->op != VT_OP_OPEN_READ)
			VT_FAIL(e, ENOSYS, VT_R_NONE);	/* only reads through links are modelled */
		finish(w, e, &w->obj, VT_R_OPEN_PERM);
		return;
	}
	/* may_open(): directories cannot be opened for writing */
	if ((acc & VT_MAY_WRITE) && !vt_hit(w, VT_R_OPEN_DIR_WRITE, !S_ISDIR(i.mode)))
		VT_FAIL(e, EISDIR, VT_R_OPEN_DIR_WRITE);
	ret = vt_inode_permission_at(w, &i, acc, VT_R_OPEN_PERM, &rule);
	if (ret)
		VT_FAIL(e, -ret, rule);
	if (a->op == VT_OP_OPEN_TRUNC || a->op == VT_OP_WRITE) {
		/* handle_truncate() -> do_truncate(); write() ->
		 * file_remove_privs() -> __remove_privs(): ATTR_FORCE | kill */
		struct iattr ia = { .valid = IA_FORCE | needs_remove_privs(w, &i) };

		if (ia.valid != IA_FORCE || a->op == VT_OP_OPEN_TRUNC) {
			ret = notify_change(w, &i, &ia, &rule);
			if (ret)
				VT_FAIL(e, -ret, rule);
		}
		finish(w, e, &i, a->op == VT_OP_WRITE ? VT_R_REMOVE_PRIVS_OK : VT_R_TRUNCATE_OK);
		return;
	}
	finish(w, e, &i, VT_R_OPEN_PERM);
}
