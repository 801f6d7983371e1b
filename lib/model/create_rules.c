/* Creating names: open(O_CREAT), O_TMPFILE, mkdir, mknod, symlink, link.
 * fs/namei.c (may_create, may_o_create, lookup_open, vfs_tmpfile, vfs_mknod,
 * vfs_prepare_mode, may_linkat, safe_hardlink_source, vfs_link),
 * fs/inode.c (inode_init_owner, mode_strip_sgid), fs/posix_acl.c
 * (posix_acl_create, posix_acl_create_masq). */
#include "model/rules.h"
#include "model/fs_ops.h"
#include "world/xattr_view.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

/* posix_acl_create_masq(): returns 1 if the ACL is not equivalent to the
 * mode (it is kept), 0 if it is (dropped); updates *mode. */
static int posix_acl_create_masq(struct vt_acl_kentry *acl, int n, mode_t *mode_p)
{
	struct vt_acl_kentry *group_obj = NULL, *mask_obj = NULL;
	mode_t mode = *mode_p;
	int not_equiv = 0, k;

	for (k = 0; k < n; k++) {
		struct vt_acl_kentry *pa = &acl[k];

		switch (pa->tag) {
		case VT_ACL_USER_OBJ:
			pa->perm &= (mode >> 6) | ~S_IRWXO;
			mode &= (pa->perm << 6) | ~S_IRWXU;
			break;
		case VT_ACL_USER:
		case VT_ACL_GROUP:
			not_equiv = 1;
			break;
		case VT_ACL_GROUP_OBJ:
			group_obj = pa;
			break;
		case VT_ACL_OTHER:
			pa->perm &= mode | ~S_IRWXO;
			mode &= pa->perm | ~S_IRWXO;
			break;
		case VT_ACL_MASK:
			mask_obj = pa;
			not_equiv = 1;
			break;
		}
	}
	if (mask_obj) {
		mask_obj->perm &= (mode >> 3) | ~S_IRWXO;
		mode &= (mask_obj->perm << 3) | ~S_IRWXG;
	} else if (group_obj) {
		group_obj->perm &= (mode >> 3) | ~S_IRWXO;
		mode &= (group_obj->perm << 3) | ~S_IRWXG;
	}
	*mode_p = (*mode_p & ~(mode_t)(S_IRWXU | S_IRWXG | S_IRWXO)) | mode;
	return not_equiv;
}

/* posix_acl_create(): the default ACL of the parent replaces the umask. */
static void posix_acl_create(const struct vt_world *w, struct vt_minode *n)
{
	if (S_ISLNK(n->mode) || !w->posixacl)
		return;
	if (!vt_hit(w, VT_R_DEFAULT_ACL, w->dir.ndefacl > 0)) {
		n->mode &= ~w->cred.umask;
		return;
	}
	memcpy(n->acl, w->dir.defacl, sizeof(n->acl));
	n->nacl = posix_acl_create_masq(n->acl, w->dir.ndefacl, &n->mode) ? w->dir.ndefacl : 0;
	if (S_ISDIR(n->mode)) {
		memcpy(n->defacl, w->dir.defacl, sizeof(n->defacl));
		n->ndefacl = w->dir.ndefacl;
	}
}

/* vfs_prepare_mode(): sgid strip BEFORE umask (the fix of 1639a49ccdce),
 * then umask unless the fs does it through posix_acl_create() */
static mode_t vfs_prepare_mode(const struct vt_world *w, mode_t mode, mode_t mask_perms,
			       mode_t type)
{
	mode = vt_mode_strip_sgid(w, mode);
	if (!w->posixacl)	/* mode_strip_umask() */
		mode &= ~w->cred.umask;
	mode &= mask_perms & ~(mode_t)S_IFMT;
	mode |= type & S_IFMT;
	return mode;
}

/* inode_init_owner() + the fs's ACL init: the state of a new inode. */
static void init_new_inode(const struct vt_world *w, mode_t mode, struct vt_minode *n)
{
	if (vt_fs_new_inode(w, mode, n))
		return;
	memset(n, 0, sizeof(*n));
	n->exists = true;
	/* inode_fsuid_set(): mapped_fsuid(idmap, i_user_ns(inode)) */
	n->uid = vt_from_vfsuid(w->idmap, w->fs_ns, vt_vfsuid_from_kuid(vt_cur_fsuid(w)));
	if (vt_hit(w, VT_R_SGID_INHERIT, w->dir.mode & S_ISGID)) {
		n->gid = w->dir.gid;
		/* directories are special, and always inherit S_ISGID */
		if (S_ISDIR(mode))
			mode |= S_ISGID;
	} else {
		n->gid = vt_from_vfsgid(w->idmap, w->fs_ns, vt_vfsgid_from_kgid(vt_cur_fsgid(w)));
	}
	n->mode = mode;
	posix_acl_create(w, n);
}

/* may_create() / may_o_create() after the existence check; OVERFLOW is
 * the rule of its fsuidgid_has_mapping test (vfs_tmpfile has its own) */
static int may_create(const struct vt_world *w, enum vt_rule overflow, enum vt_rule *rule)
{
	if (!vt_hit(w, overflow, vt_fsuidgid_has_mapping(w)))
		VT_REFUSE(overflow, EOVERFLOW);
	return vt_inode_permission_at(w, &w->dir, VT_MAY_WRITE | VT_MAY_EXEC, VT_R_CREATE_PERM, rule);
}

static void seen_by_caller(const struct vt_world *w, struct vt_expect *e)
{
	/* generic_fillattr -> cp_statx: from_kuid_munged(current_user_ns(), vfsuid) */
	e->seen_uid = vt_from_kuid_munged(w->cred.ns,
					  vt_vfsuid_into_kuid(vt_i_uid_into_vfsuid(w, &e->result)),
					  w->overflowuid);
	e->seen_gid = vt_from_kgid_munged(w->cred.ns,
					  vt_vfsgid_into_kgid(vt_i_gid_into_vfsgid(w, &e->result)),
					  w->overflowgid);
}

/* The tmpfile is then named P/n by the caller through the same mount:
 * linkat(AT_FDCWD, "/proc/self/fd/N", AT_FDCWD, P/n, AT_SYMLINK_FOLLOW).
 * do_linkat -> may_linkat + vfs_link on the tmpfile's inode (I_LINKABLE:
 * opened without O_EXCL), so the link obeys vt_model_link with the new
 * inode as its source. */
static void tmpfile_link(const struct vt_world *w, const struct vt_mop_args *a,
			 struct vt_expect *e)
{
	struct vt_world lw = *w;
	struct vt_expect le;

	memset(&le, 0, sizeof(le));
	lw.obj = e->result;
	vt_model_link(&lw, a, &le);
	e->link_err = le.err;
	e->link_rule_id = le.rule_id;
	e->link_rule = le.rule;
}

void vt_model_create(const struct vt_world *w, const struct vt_mop_args *a, struct vt_expect *e)
{
	enum vt_rule rule = VT_R_NONE;
	mode_t mode;
	int ret;

	ret = vt_may_lookup(w, &rule);
	if (ret)
		VT_FAIL(e, -ret, rule);
	if (a->op == VT_OP_TMPFILE) {
		/* vfs_tmpfile(): "a tmpfile is I_LINKABLE, so guard its owner
		 * like may_o_create()" */
		/* Kernels of the 6.6 era lack this guard and give the tmpfile
		 * an invalid owner instead: such a kernel fails these cases,
		 * and the rule text says why. */
		ret = may_create(w, VT_R_TMPFILE_EOVERFLOW, &rule);
		if (!ret)
			ret = vt_fs_missing_iop(w, a->op, &rule);
		if (ret)
			VT_FAIL(e, -ret, rule);
		mode = vfs_prepare_mode(w, (a->mode & 07777) | S_IFREG, (a->mode & 07777) | S_IFREG,
					S_IFREG);
		init_new_inode(w, mode, &e->result);
		VT_SUCCEED(e, VT_R_TMPFILE_OK);
		seen_by_caller(w, e);
		tmpfile_link(w, a, e);
		return;
	}
	if (a->on_existing && (a->op == VT_OP_OPEN_CREAT || a->op == VT_OP_OPEN_CREAT_RDONLY)) {
		/* lookup_open(): a positive dentry is just opened (may_o_create's
		 * verdict only matters for a negative one); do_open(): a
		 * directory is EISDIR, then may_create_in_sticky(), then
		 * may_open() with the access mode */
		struct vt_mop_args open_args = *a;

		if (!vt_hit(w, VT_R_LOOKUP_NOENT, w->obj.exists))
			VT_FAIL(e, ENOENT, VT_R_LOOKUP_NOENT);	/* not generated: it would create */
		if (S_ISDIR(w->obj.mode))
			VT_FAIL(e, EISDIR, VT_R_OPEN_DIR_WRITE);
		ret = vt_may_create_in_sticky(w, &w->dir, &w->obj);
		if (ret)
			VT_FAIL(e, -ret, S_ISFIFO(w->obj.mode) ? VT_R_STICKY_CREATE_FIFO
							     : VT_R_STICKY_CREATE_REGULAR);
		open_args.op = a->op == VT_OP_OPEN_CREAT ? VT_OP_OPEN_WRITE : VT_OP_OPEN_READ;
		vt_model_open_existing(w, &open_args, e);
		return;
	}
	if (a->on_existing) {
		/* filename_create(): positive dentry -> EEXIST; do_open():
		 * O_EXCL on a name that was not created -> EEXIST */
		if (a->op == VT_OP_OPEN_CREAT_EXCL || a->op == VT_OP_MKDIR ||
		    a->op == VT_OP_MKFIFO || a->op == VT_OP_SYMLINK || a->op == VT_OP_MKNOD_CHR)
			VT_FAIL(e, EEXIST, VT_R_NAME_EXISTS);
	} else {
		vt_hit(w, VT_R_NAME_EXISTS, true);
	}
	ret = may_create(w, VT_R_CREATE_EOVERFLOW, &rule);
	if (ret)
		VT_FAIL(e, -ret, rule);
	/* vfs_mknod(): a device node (not a whiteout, which is 0:0) needs
	 * capable(CAP_MKNOD), the initial namespace, after may_create() */
	if (a->op == VT_OP_MKNOD_CHR && !vt_hit(w, VT_R_MKNOD_CAP, vt_capable(w, VT_CAP_MKNOD)))
		VT_FAIL(e, EPERM, VT_R_MKNOD_CAP);
	ret = vt_fs_missing_iop(w, a->op, &rule);
	if (ret)
		VT_FAIL(e, -ret, rule);
	switch (a->op) {
	case VT_OP_OPEN_CREAT:
	case VT_OP_OPEN_CREAT_EXCL:
		/* build_open_flags: mode & S_IALLUGO | S_IFREG; lookup_open:
		 * vfs_prepare_mode(idmap, dir, mode, mode, mode) */
		mode = (a->mode & 07777) | S_IFREG;
		mode = vfs_prepare_mode(w, mode, mode, mode);
		break;
	case VT_OP_MKDIR:
		/* vfs_mkdir: vfs_prepare_mode(..., S_IRWXUGO | S_ISVTX, 0) */
		mode = vfs_prepare_mode(w, a->mode & 07777, S_IRWXU | S_IRWXG | S_IRWXO | S_ISVTX, 0) |
		       S_IFDIR;
		break;
	case VT_OP_MKFIFO:
		mode = (a->mode & 07777) | S_IFIFO;
		mode = vfs_prepare_mode(w, mode, mode, mode);
		break;
	case VT_OP_MKNOD_CHR:
		/* vfs_mknod: vfs_prepare_mode(idmap, dir, mode, mode, mode) */
		mode = (a->mode & 07777) | S_IFCHR;
		mode = vfs_prepare_mode(w, mode, mode, mode);
		break;
	case VT_OP_SYMLINK:
	default:
		/* the fs makes symlinks S_IFLNK|S_IRWXUGO; no umask, no ACL */
		mode = S_IFLNK | 0777;
		break;
	}
	init_new_inode(w, mode, &e->result);
	VT_SUCCEED(e, w->optowner ? VT_R_FAT_CREATE_OK : VT_R_CREATE_OK);
	seen_by_caller(w, e);
}

/* safe_hardlink_source(); its permission test is part of the
 * protected_hardlinks decision, recorded as that (not on its own) */
static bool safe_hardlink_source(const struct vt_world *w, const struct vt_minode *i)
{
	struct vt_world quiet = *w;
	enum vt_rule rule;

	if (!S_ISREG(i->mode))
		return false;
	if (i->mode & S_ISUID)
		return false;
	if ((i->mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP))
		return false;
	quiet.trace = NULL;
	return vt_inode_permission(&quiet, i, VT_MAY_READ | VT_MAY_WRITE, &rule) == 0;
}

void vt_model_link(const struct vt_world *w, const struct vt_mop_args *a, struct vt_expect *e)
{
	enum vt_rule rule = VT_R_NONE;
	int ret;

	(void)a;
	ret = vt_may_lookup(w, &rule);
	if (ret)
		VT_FAIL(e, -ret, rule);
	/* may_linkat() (do_linkat, before vfs_link) */
	if (!vt_hit(w, VT_R_LINK_UNMAPPED, !vt_has_unmapped_id(w, &w->obj)))
		VT_FAIL(e, EOVERFLOW, VT_R_LINK_UNMAPPED);
	if (w->protected_hardlinks &&
	    !vt_hit(w, VT_R_LINK_PROTECTED, safe_hardlink_source(w, &w->obj) ||
						vt_inode_owner_or_capable(w, &w->obj)))
		VT_FAIL(e, EPERM, VT_R_LINK_PROTECTED);
	/* vfs_link() */
	ret = may_create(w, VT_R_CREATE_EOVERFLOW, &rule);
	if (!ret)
		ret = vt_fs_missing_iop(w, VT_OP_LINK, &rule);
	if (ret)
		VT_FAIL(e, -ret, rule);
	if (!vt_hit(w, VT_R_LINK_DIR, !S_ISDIR(w->obj.mode)))
		VT_FAIL(e, EPERM, VT_R_LINK_DIR);
	e->result = w->obj;
	VT_SUCCEED(e, VT_R_LINK_OK);
	seen_by_caller(w, e);
}

void vt_model_seen(const struct vt_world *w, struct vt_expect *e)
{
	seen_by_caller(w, e);
}
