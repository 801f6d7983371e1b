/* Extended attributes through the mount: POSIX ACLs (fs/posix_acl.c:
 * do_set_acl, posix_acl_from_xattr, vfs_set_acl, vfs_set_acl_idmapped_mnt,
 * set_posix_acl, posix_acl_valid, posix_acl_update_mode,
 * posix_acl_equiv_mode, vfs_posix_acl_to_xattr), file capabilities
 * (security/commoncap.c: cap_convert_nscap, cap_inode_getsecurity,
 * rootid_owns_currentns, cap_inode_removexattr), user.* / trusted.*
 * (fs/xattr.c: xattr_permission, may_write_xattr) and the other
 * security.* names (security/commoncap.c: cap_inode_setxattr,
 * cap_inode_removexattr; fs/xattr.c: vfs_getxattr). */
#include "model/rules.h"
#include "model/fs_ops.h"
#include "world/xattr_view.h"

#include <errno.h>
#include <sys/stat.h>

/* posix_acl_valid(s_user_ns, acl): tag order, ids mapped in the sb's ns */
static bool posix_acl_valid(const struct vt_world *w, const struct vt_acl_kentry *acl, int n)
{
	int state = VT_ACL_USER_OBJ, needs_mask = 0, k;

	for (k = 0; k < n; k++) {
		const struct vt_acl_kentry *pa = &acl[k];

		if (pa->perm & ~7)
			return false;
		switch (pa->tag) {
		case VT_ACL_USER_OBJ:
			if (state != VT_ACL_USER_OBJ)
				return false;
			state = VT_ACL_USER;
			break;
		case VT_ACL_USER:
			if (state != VT_ACL_USER || !vt_sb_kuid_has_mapping(w->fs_ns, pa->uid))
				return false;
			needs_mask = 1;
			break;
		case VT_ACL_GROUP_OBJ:
			if (state != VT_ACL_USER)
				return false;
			state = VT_ACL_GROUP;
			break;
		case VT_ACL_GROUP:
			if (state != VT_ACL_GROUP || !vt_sb_kgid_has_mapping(w->fs_ns, pa->gid))
				return false;
			needs_mask = 1;
			break;
		case VT_ACL_MASK:
			if (state != VT_ACL_GROUP)
				return false;
			state = VT_ACL_OTHER;
			break;
		case VT_ACL_OTHER:
			if (state == VT_ACL_OTHER || (state == VT_ACL_GROUP && !needs_mask)) {
				state = 0;
				break;
			}
			return false;
		default:
			return false;
		}
	}
	return state == 0;
}

/* posix_acl_equiv_mode(): the mode the ACL implies; true if not equivalent */
static bool posix_acl_equiv_mode(const struct vt_acl_kentry *acl, int n, mode_t *mode_p)
{
	mode_t mode = 0;
	bool not_equiv = false;
	int k;

	for (k = 0; k < n; k++) {
		switch (acl[k].tag) {
		case VT_ACL_USER_OBJ:
			mode |= (acl[k].perm & 7u) << 6;
			break;
		case VT_ACL_GROUP_OBJ:
			mode |= (acl[k].perm & 7u) << 3;
			break;
		case VT_ACL_OTHER:
			mode |= acl[k].perm & 7u;
			break;
		case VT_ACL_MASK:
			mode = (mode & ~(mode_t)S_IRWXG) | ((acl[k].perm & 7u) << 3);
			not_equiv = true;
			break;
		default:
			not_equiv = true;
		}
	}
	*mode_p = (*mode_p & ~(mode_t)0777) | mode;
	return not_equiv;
}

static void acl_set(const struct vt_world *w, const struct vt_mop_args *a, struct vt_expect *e)
{
	struct vt_minode i = w->obj;
	struct vt_acl_kentry k[VT_MODEL_MAX_ACL];
	int n;

	/* posix_acl_from_xattr(current_user_ns()): ids the caller cannot
	 * name -> EINVAL; then vfs_set_acl_idmapped_mnt(): from_vfsuid() */
	for (n = 0; n < a->nacl; n++) {
		k[n].tag = a->acl[n].tag;
		k[n].perm = a->acl[n].perm;
		k[n].uid = vt_kuid(VT_ID_INVALID);
		k[n].gid = vt_kgid(VT_ID_INVALID);
		if (a->acl[n].tag == VT_ACL_USER) {
			vt_kuid_t ku = vt_make_kuid(w->cred.ns, a->acl[n].uid);

			if (!vt_hit(w, VT_R_ACL_UID_EINVAL, vt_kuid_valid(ku)))
				VT_FAIL(e, EINVAL, VT_R_ACL_UID_EINVAL);
			k[n].uid = vt_from_vfsuid(w->idmap, w->fs_ns, vt_vfsuid_from_kuid(ku));
		} else if (a->acl[n].tag == VT_ACL_GROUP) {
			vt_kgid_t kg = vt_make_kgid(w->cred.ns, a->acl[n].gid);

			if (!vt_hit(w, VT_R_ACL_GID_EINVAL, vt_kgid_valid(kg)))
				VT_FAIL(e, EINVAL, VT_R_ACL_GID_EINVAL);
			k[n].gid = vt_from_vfsgid(w->idmap, w->fs_ns, vt_vfsgid_from_kgid(kg));
		}
	}
	/* may_write_xattr() */
	if (!vt_hit(w, VT_R_WRITE_XATTR_UNMAPPED, !vt_has_unmapped_id(w, &i)))
		VT_FAIL(e, EPERM, VT_R_WRITE_XATTR_UNMAPPED);
	/* set_posix_acl() */
	if (!vt_hit(w, VT_R_ACL_SET_NOTSUPP, w->posixacl))
		VT_FAIL(e, EOPNOTSUPP, VT_R_ACL_SET_NOTSUPP);
	if (a->default_acl && !vt_hit(w, VT_R_ACL_DEFAULT_NONDIR, S_ISDIR(i.mode)))
		VT_FAIL(e, EACCES, VT_R_ACL_DEFAULT_NONDIR);
	if (!vt_hit(w, VT_R_ACL_SET_OWNER, vt_inode_owner_or_capable(w, &i)))
		VT_FAIL(e, EPERM, VT_R_ACL_SET_OWNER);
	if (!vt_hit(w, VT_R_ACL_VALID, posix_acl_valid(w, k, a->nacl)))
		VT_FAIL(e, EINVAL, VT_R_ACL_VALID);
	if (a->default_acl) {
		for (n = 0; n < a->nacl; n++)
			i.defacl[n] = k[n];
		i.ndefacl = a->nacl;
	} else {
		/* ->set_acl: posix_acl_update_mode() */
		bool keep = posix_acl_equiv_mode(k, a->nacl, &i.mode);

		if ((i.mode & S_ISGID) &&
		    !vt_in_group_or_capable_hit(w, &w->obj, vt_i_gid_into_vfsgid(w, &w->obj),
						VT_R_ACL_UPDATE_SGID))
			i.mode &= ~(mode_t)S_ISGID;
		for (n = 0; n < a->nacl; n++)
			i.acl[n] = k[n];
		i.nacl = keep ? a->nacl : 0;
	}
	VT_SUCCEED(e, VT_R_ACL_SET_OK);
	e->result = i;
	vt_model_seen(w, e);
}

static void acl_get(const struct vt_world *w, const struct vt_mop_args *a, struct vt_expect *e)
{
	const struct vt_acl_kentry *k = a->default_acl ? w->obj.defacl : w->obj.acl;
	int n, count = a->default_acl ? w->obj.ndefacl : w->obj.nacl;

	if (!vt_hit(w, VT_R_ACL_GET_NOTSUPP, w->posixacl))
		VT_FAIL(e, EOPNOTSUPP, VT_R_ACL_GET_NOTSUPP);
	if (!vt_hit(w, VT_R_ACL_GET_NODATA, count > 0))
		VT_FAIL(e, ENODATA, VT_R_ACL_GET_NODATA);
	/* vfs_posix_acl_to_xattr(): from_kuid(current_user_ns(),
	 * make_vfsuid(idmap, fs_userns, e_uid)); -1 if unmapped */
	for (n = 0; n < count; n++) {
		struct vt_acl_centry *c = &e->got_acl[n];

		c->tag = k[n].tag;
		c->perm = k[n].perm;
		c->uid = vt_cuid(VT_ID_INVALID);
		c->gid = vt_cgid(VT_ID_INVALID);
		if (k[n].tag == VT_ACL_USER) {
			c->uid = vt_from_kuid(w->cred.ns, vt_vfsuid_into_kuid(
				vt_make_vfsuid(w->idmap, w->fs_ns, k[n].uid)));
			vt_hit(w, VT_R_ACL_GET_ID, c->uid.val != VT_ID_INVALID);
		} else if (k[n].tag == VT_ACL_GROUP) {
			c->gid = vt_from_kgid(w->cred.ns, vt_vfsgid_into_kgid(
				vt_make_vfsgid(w->idmap, w->fs_ns, k[n].gid)));
			vt_hit(w, VT_R_ACL_GET_ID, c->gid.val != VT_ID_INVALID);
		}
	}
	e->got_nacl = count;
	e->err = 0;
	vt_set_rule(e, VT_R_ACL_GET_ID);
	e->result = w->obj;
	vt_model_seen(w, e);
}

/* rootid_owns_currentns() */
bool vt_rootid_owns_currentns(const struct vt_world *w, vt_vfsuid_t v)
{
	const struct vt_mns *ns;

	if (!vt_vfsuid_valid(v))
		return false;
	for (ns = w->cred.ns; ns; ns = ns->parent)
		if (vt_from_kuid(ns, vt_vfsuid_into_kuid(v)).val == 0)
			return true;
	return false;
}

static void fcaps_set(const struct vt_world *w, const struct vt_mop_args *a, struct vt_expect *e)
{
	struct vt_minode i = w->obj;
	enum vt_rule rule;
	vt_vfsuid_t vroot;
	vt_kuid_t root;

	/* cap_convert_nscap() (called by vfs_setxattr before the permission
	 * checks of __vfs_setxattr_locked) */
	if (!vt_hit_capw(w, VT_R_FCAPS_SETFCAP, vt_capable_wrt(w, &i, VT_CAP_SETFCAP)))
		VT_FAIL(e, EPERM, VT_R_FCAPS_SETFCAP);
	if (a->fcaps.version == 2 &&
	    vt_hit(w, VT_R_FCAPS_V2_KEPT, w->idmap->nop && vt_sb_ns_capable(w, VT_CAP_SETFCAP))) {
		i.fcaps.version = 2;
		i.fcaps.rootid = vt_kuid(0);
	} else {
		/* rootid_from_xattr(): v3 rootid or 0, in the caller's ns */
		vroot = vt_vfsuid_from_kuid(vt_make_kuid(w->cred.ns,
			vt_cuid(a->fcaps.version == 3 ? a->fcaps.rootid.val : 0)));
		if (!vt_hit(w, VT_R_FCAPS_ROOT_CALLER, vt_vfsuid_valid(vroot)))
			VT_FAIL(e, EINVAL, VT_R_FCAPS_ROOT_CALLER);
		root = vt_from_vfsuid(w->idmap, w->fs_ns, vroot);
		if (!vt_hit(w, VT_R_FCAPS_ROOT_MOUNT, vt_kuid_valid(root)))
			VT_FAIL(e, EINVAL, VT_R_FCAPS_ROOT_MOUNT);
		if (!vt_hit(w, VT_R_FCAPS_ROOT_SB, vt_sb_kuid_has_mapping(w->fs_ns, root)))
			VT_FAIL(e, EINVAL, VT_R_FCAPS_ROOT_SB);
		i.fcaps.version = 3;
		i.fcaps.rootid = root;
	}
	/* __vfs_setxattr_locked -> xattr_permission -> may_write_xattr() */
	if (!vt_hit(w, VT_R_WRITE_XATTR_UNMAPPED, !vt_has_unmapped_id(w, &w->obj)))
		VT_FAIL(e, EPERM, VT_R_WRITE_XATTR_UNMAPPED);
	/* cap_inode_setxattr leaves security.capability alone; the handler */
	if (vt_fs_xattr_handler(w, &rule))
		VT_FAIL(e, EOPNOTSUPP, rule);
	VT_SUCCEED(e, VT_R_FCAPS_SET_OK);
	e->result = i;
	vt_model_seen(w, e);
}

int vt_model_fcaps_read(const struct vt_world *w, const struct vt_kfcaps *k,
			struct vt_cfcaps *out, enum vt_rule *rule)
{
	vt_vfsuid_t vroot;
	vt_cuid_t mapped;

	/* cap_inode_getsecurity(): every getxattr(security.capability) goes
	 * through it, so this is also what the initial root reads through
	 * the plain mount (the observer's view of the "on-disk" value) */
	if (!vt_hit(w, VT_R_FCAPS_GET_NONE, k->version != 0)) {
		*rule = VT_R_FCAPS_GET_NONE;
		return ENODATA;
	}
	/* kroot = make_kuid(fs_ns, root), root 0 for v2: the root of the
	 * filesystem's namespace (the model keeps a v3 rootid as the kuid) */
	vroot = vt_make_vfsuid(w->idmap, w->fs_ns,
			       k->version == 3 ? k->rootid : vt_make_kuid(w->fs_ns, vt_cuid(0)));
	mapped = vt_from_kuid(w->cred.ns, vt_vfsuid_into_kuid(vroot));
	*rule = VT_R_FCAPS_GET_V3;
	if (mapped.val != VT_ID_INVALID && mapped.val != 0) {
		vt_hit(w, VT_R_FCAPS_GET_V3, true);
		out->version = 3;
		out->rootid = mapped;
		return 0;
	}
	if (!vt_hit(w, VT_R_FCAPS_GET_OWNS, vt_rootid_owns_currentns(w, vroot))) {
		*rule = VT_R_FCAPS_GET_OWNS;
		return EOVERFLOW;
	}
	vt_hit(w, VT_R_FCAPS_GET_V3, false);
	out->version = 2;
	out->rootid = vt_cuid(0);
	return 0;
}

static void fcaps_get(const struct vt_world *w, struct vt_expect *e)
{
	enum vt_rule rule = VT_R_NONE;
	int err = -vt_fs_xattr_handler(w, &rule);	/* xattr_permission: none for security.* */

	if (!err)
		err = vt_model_fcaps_read(w, &w->obj.fcaps, &e->got_fcaps, &rule);
	if (err)
		VT_FAIL(e, err, rule);
	vt_set_rule(e, rule);
	e->result = w->obj;
	vt_model_seen(w, e);
}

static void fcaps_remove(const struct vt_world *w, struct vt_expect *e)
{
	struct vt_minode i = w->obj;
	enum vt_rule rule;

	/* __vfs_removexattr_locked: xattr_permission, then
	 * cap_inode_removexattr, then the fs (-ENODATA if absent) */
	if (!vt_hit(w, VT_R_WRITE_XATTR_UNMAPPED, !vt_has_unmapped_id(w, &i)))
		VT_FAIL(e, EPERM, VT_R_WRITE_XATTR_UNMAPPED);
	if (!vt_hit_capw(w, VT_R_FCAPS_RM_SETFCAP, vt_capable_wrt(w, &i, VT_CAP_SETFCAP)))
		VT_FAIL(e, EPERM, VT_R_FCAPS_RM_SETFCAP);
	if (vt_fs_xattr_handler(w, &rule))
		VT_FAIL(e, EOPNOTSUPP, rule);
	if (!vt_hit(w, VT_R_FCAPS_RM_NONE, i.fcaps.version != 0))
		VT_FAIL(e, ENODATA, VT_R_FCAPS_RM_NONE);
	i.fcaps.version = 0;
	VT_SUCCEED(e, VT_R_FCAPS_RM_OK);
	e->result = i;
	vt_model_seen(w, e);
}

/* user.*, trusted.* and security.vt: fs/xattr.c (xattr_permission,
 * may_write_xattr, vfs_getxattr, __vfs_setxattr_locked,
 * __vfs_removexattr_locked), security/security.c (security_inode_setxattr,
 * security_inode_removexattr) and security/commoncap.c. */
static void xattr_plain(const struct vt_world *w, const struct vt_mop_args *a,
			struct vt_expect *e)
{
	struct vt_minode i = w->obj;
	bool trusted = a->op == VT_OP_XATTR_SET_TRUSTED || a->op == VT_OP_XATTR_GET_TRUSTED ||
		       a->op == VT_OP_XATTR_REMOVE_TRUSTED;
	bool security = a->op == VT_OP_XATTR_SET_SECURITY || a->op == VT_OP_XATTR_GET_SECURITY ||
			a->op == VT_OP_XATTR_REMOVE_SECURITY;
	bool set = a->op == VT_OP_XATTR_SET_USER || a->op == VT_OP_XATTR_SET_TRUSTED ||
		   a->op == VT_OP_XATTR_SET_SECURITY;
	bool write = a->op != VT_OP_XATTR_GET_USER && a->op != VT_OP_XATTR_GET_TRUSTED &&
		     a->op != VT_OP_XATTR_GET_SECURITY;
	bool *present = trusted ? &i.trusted_xattr : security ? &i.security_xattr : &i.user_xattr;
	enum vt_rule rule;
	int ret;

	/* xattr_permission(): MAY_WRITE -> may_write_xattr() first, for
	 * every namespace */
	if (write && !vt_hit(w, VT_R_WRITE_XATTR_UNMAPPED, !vt_has_unmapped_id(w, &i)))
		VT_FAIL(e, EPERM, VT_R_WRITE_XATTR_UNMAPPED);
	if (security) {
		/* xattr_permission: "No restriction for security.* and
		 * system.* from the VFS": no file type, sticky or
		 * inode_permission check. security_inode_setxattr ->
		 * cap_inode_setxattr and security_inode_removexattr ->
		 * cap_inode_removexattr (no LSM here sets
		 * inode_xattr_skipcap): ns_capable(dentry->d_sb->s_user_ns,
		 * CAP_SYS_ADMIN), the superblock's namespace, not the
		 * mount's idmap. vfs_getxattr asks nothing of the caller
		 * (security_inode_getxattr: no hook; cap_inode_getsecurity
		 * answers EOPNOTSUPP for names but "capability", so the
		 * filesystem's handler is read). */
		if (set && !vt_hit(w, VT_R_XATTR_SECURITY_SET, vt_sb_ns_capable(w, VT_CAP_SYS_ADMIN)))
			VT_FAIL(e, EPERM, VT_R_XATTR_SECURITY_SET);
		if (write && !set &&
		    !vt_hit(w, VT_R_XATTR_SECURITY_RM, vt_sb_ns_capable(w, VT_CAP_SYS_ADMIN)))
			VT_FAIL(e, EPERM, VT_R_XATTR_SECURITY_RM);
	} else if (trusted) {
		/* trusted.* only for capable(CAP_SYS_ADMIN) (initial namespace) */
		if (!vt_hit(w, VT_R_XATTR_TRUSTED, vt_capable(w, VT_CAP_SYS_ADMIN)))
			VT_FAIL(e, write ? EPERM : ENODATA, VT_R_XATTR_TRUSTED);
	} else {
		if (!vt_hit(w, VT_R_XATTR_USER_TYPE, S_ISREG(i.mode) || S_ISDIR(i.mode)))
			VT_FAIL(e, write ? EPERM : ENODATA, VT_R_XATTR_USER_TYPE);
		if (write && S_ISDIR(i.mode) && (i.mode & S_ISVTX) &&
		    !vt_hit(w, VT_R_XATTR_USER_STICKY, vt_inode_owner_or_capable(w, &i)))
			VT_FAIL(e, EPERM, VT_R_XATTR_USER_STICKY);
		ret = vt_inode_permission_at(w, &i, write ? VT_MAY_WRITE : VT_MAY_READ,
					     VT_R_XATTR_PERM, &rule);
		if (ret)
			VT_FAIL(e, -ret, rule);
	}
	/* security_inode_{set,get,remove}xattr: nothing for user. and trusted.;
	 * then the filesystem's handler */
	if (vt_fs_xattr_handler(w, &rule))
		VT_FAIL(e, EOPNOTSUPP, rule);
	if (set) {
		*present = true;
	} else {
		if (!vt_hit(w, VT_R_XATTR_ABSENT, *present))
			VT_FAIL(e, ENODATA, VT_R_XATTR_ABSENT);
		if (write)
			*present = false;
	}
	VT_SUCCEED(e, VT_R_XATTR_OK);
	e->result = i;
	vt_model_seen(w, e);
}

/* The fd forms' open(P/o, O_RDONLY | O_NONBLOCK) (fs/namei.c do_open ->
 * may_open: a regular file, directory or fifo opened for reading asks
 * inode_permission(idmap, inode, MAY_OPEN | MAY_READ) with the idmap of
 * the mount), after the path walk the caller has made. 0 or the errno, with
 * *RULE. fsetxattr, fgetxattr and fremovexattr (fs/xattr.c, 6.12) then
 * run the same do_setxattr / getxattr / removexattr as the path forms,
 * with the idmap of the fd's mount: the open's, the same. An O_PATH fd
 * would be EBADF (fdget leaves FMODE_PATH files out): not cased, no idmap
 * in it. */
static int xattr_fd_open(const struct vt_world *w, enum vt_rule *rule)
{
	if (!vt_hit(w, VT_R_LOOKUP_NOENT, w->obj.exists)) {
		*rule = VT_R_LOOKUP_NOENT;
		return ENOENT;
	}
	return -vt_inode_permission_at(w, &w->obj, VT_MAY_READ, VT_R_OPEN_PERM, rule);
}

void vt_model_xattr(const struct vt_world *w, const struct vt_mop_args *a, struct vt_expect *e)
{
	enum vt_rule rule = VT_R_NONE;
	int ret = vt_may_lookup(w, &rule);

	if (ret)
		VT_FAIL(e, -ret, rule);
	if (a->by_fd) {
		ret = xattr_fd_open(w, &rule);
		if (ret)
			VT_FAIL(e, ret, rule);
	}
	switch (a->op) {
	case VT_OP_ACL_SET:
		acl_set(w, a, e);
		return;
	case VT_OP_ACL_GET:
		acl_get(w, a, e);
		return;
	case VT_OP_FCAPS_SET:
		fcaps_set(w, a, e);
		return;
	case VT_OP_FCAPS_GET:
		fcaps_get(w, e);
		return;
	case VT_OP_FCAPS_REMOVE:
		fcaps_remove(w, e);
		return;
	default:
		xattr_plain(w, a, e);
		return;
	}
}
