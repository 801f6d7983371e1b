/* Permission to an inode: fs/namei.c (inode_permission, generic_permission,
 * acl_permission_check, may_lookup) and fs/posix_acl.c
 * (posix_acl_permission). */
#include "model/rules.h"
#include "world/xattr_view.h"

#include <errno.h>
#include <sys/stat.h>

/* posix_acl_permission(): 0, -EACCES */
static int posix_acl_permission(const struct vt_world *w, const struct vt_minode *i, int want)
{
	const struct vt_acl_kentry *pa = NULL;
	int n, found = 0, m;

	want &= VT_MAY_READ | VT_MAY_WRITE | VT_MAY_EXEC;
	for (n = 0; n < i->nacl; n++) {
		pa = &i->acl[n];
		switch (pa->tag) {
		case VT_ACL_USER_OBJ:
			if (vt_vfsuid_eq_kuid(vt_i_uid_into_vfsuid(w, i), vt_cur_fsuid(w)))
				goto check_perm;
			break;
		case VT_ACL_USER:
			/* make_vfsuid(idmap, fs_userns, pa->e_uid) == fsuid */
			if (vt_vfsuid_eq_kuid(vt_make_vfsuid(w->idmap, w->fs_ns, pa->uid),
					      vt_cur_fsuid(w)))
				goto mask;
			break;
		case VT_ACL_GROUP_OBJ:
			if (vt_vfsgid_in_group_p(w, vt_i_gid_into_vfsgid(w, i))) {
				found = 1;
				if ((pa->perm & want) == want)
					goto mask;
			}
			break;
		case VT_ACL_GROUP:
			if (vt_vfsgid_in_group_p(w, vt_make_vfsgid(w->idmap, w->fs_ns, pa->gid))) {
				found = 1;
				if ((pa->perm & want) == want)
					goto mask;
			}
			break;
		case VT_ACL_MASK:
			break;
		case VT_ACL_OTHER:
			if (found)
				return -EACCES;
			goto check_perm;
		}
	}
	return -EIO;
mask:
	for (m = n + 1; m < i->nacl; m++)
		if (i->acl[m].tag == VT_ACL_MASK)
			return (pa->perm & i->acl[m].perm & want) == want ? 0 : -EACCES;
check_perm:
	return (pa->perm & want) == want ? 0 : -EACCES;
}

/* acl_permission_check() */
static int acl_permission_check(const struct vt_world *w, const struct vt_minode *i, int mask)
{
	unsigned int mode = i->mode;

	if (vt_vfsuid_eq_kuid(vt_i_uid_into_vfsuid(w, i), vt_cur_fsuid(w))) {
		mask &= 7;
		mode >>= 6;
		return (mask & ~mode) ? -EACCES : 0;
	}
	/* check_acl() only when IS_POSIXACL and the group class has bits;
	 * no access ACL -> -EAGAIN -> mode bits */
	if (w->posixacl && (mode & S_IRWXG) && i->nacl > 0)
		return posix_acl_permission(w, i, mask);
	mask &= 7;
	if (mask & (mode ^ (mode >> 3))) {
		if (vt_vfsgid_in_group_p(w, vt_i_gid_into_vfsgid(w, i)))
			mode >>= 3;
	}
	return (mask & ~mode) ? -EACCES : 0;
}

/* generic_permission() */
static int generic_permission(const struct vt_world *w, const struct vt_minode *i, int mask,
			      const char **rule)
{
	int ret = acl_permission_check(w, i, mask);

	*rule = "acl_permission_check";
	if (ret != -EACCES)
		return ret;
	if (S_ISDIR(i->mode)) {
		/* DACs are overridable for directories */
		*rule = "generic_permission: capable_wrt_inode_uidgid(CAP_DAC_*) on a directory";
		if (!(mask & VT_MAY_WRITE) &&
		    vt_capable_wrt_inode_uidgid(w, i, VT_CAP_DAC_READ_SEARCH))
			return 0;
		if (vt_capable_wrt_inode_uidgid(w, i, VT_CAP_DAC_OVERRIDE))
			return 0;
		return -EACCES;
	}
	*rule = "generic_permission: capable_wrt_inode_uidgid(CAP_DAC_*) on a file";
	mask &= VT_MAY_READ | VT_MAY_WRITE | VT_MAY_EXEC;
	if (mask == VT_MAY_READ && vt_capable_wrt_inode_uidgid(w, i, VT_CAP_DAC_READ_SEARCH))
		return 0;
	/* read/write DACs are always overridable; exec only if some x bit */
	if (!(mask & VT_MAY_EXEC) || (i->mode & (S_IXUSR | S_IXGRP | S_IXOTH)))
		if (vt_capable_wrt_inode_uidgid(w, i, VT_CAP_DAC_OVERRIDE))
			return 0;
	return -EACCES;
}

int vt_inode_permission(const struct vt_world *w, const struct vt_minode *i, int mask,
			const char **rule)
{
	/* inode_permission(): MAY_WRITE on an inode whose ids do not map
	 * through the mount -> EACCES (HAS_UNMAPPED_ID) */
	if ((mask & VT_MAY_WRITE) && vt_has_unmapped_id(w, i)) {
		*rule = "inode_permission: HAS_UNMAPPED_ID";
		return -EACCES;
	}
	return generic_permission(w, i, mask, rule);
}

int vt_may_lookup(const struct vt_world *w, const char **rule)
{
	int ret;

	/* link_path_walk() -> may_lookup(): MAY_EXEC on the parent before the
	 * last component */
	ret = vt_inode_permission(w, &w->dir, VT_MAY_EXEC, rule);
	if (ret)
		*rule = "may_lookup: inode_permission(parent, MAY_EXEC)";
	return ret;
}
