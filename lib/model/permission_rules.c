/* Permission to an inode: fs/namei.c (inode_permission, generic_permission,
 * acl_permission_check, may_lookup) and fs/posix_acl.c
 * (posix_acl_permission). */
#include "model/rules.h"
#include "model/fs_ops.h"
#include "world/xattr_view.h"

#include <errno.h>
#include <sys/stat.h>

/* posix_acl_permission(): 0, -EACCES. *DECIDER is the entry that decided
 * (recorded by the caller once the capability fallback is known). */
static int posix_acl_permission(const struct vt_world *w, const struct vt_minode *i, int want,
				enum vt_rule *decider)
{
	const struct vt_acl_kentry *pa = NULL;
	int n, found = 0, m;

	want &= VT_MAY_READ | VT_MAY_WRITE | VT_MAY_EXEC;
	*decider = VT_R_ACLPERM_OTHER;
	for (n = 0; n < i->nacl; n++) {
		pa = &i->acl[n];
		switch (pa->tag) {
		case VT_ACL_USER_OBJ:
			/* unreachable from acl_permission_check (the owner class
			 * is decided before check_acl), kept as the kernel has it */
			if (vt_vfsuid_eq_kuid(vt_i_uid_into_vfsuid(w, i), vt_cur_fsuid(w))) {
				*decider = VT_R_PERM_OWNER;
				goto check_perm;
			}
			break;
		case VT_ACL_USER:
			/* make_vfsuid(idmap, fs_userns, pa->e_uid) == fsuid */
			if (vt_vfsuid_eq_kuid(vt_make_vfsuid(w->idmap, w->fs_ns, pa->uid),
					      vt_cur_fsuid(w))) {
				*decider = VT_R_ACLPERM_USER;
				goto mask;
			}
			break;
		case VT_ACL_GROUP_OBJ:
			if (vt_vfsgid_in_group_p(w, vt_i_gid_into_vfsgid(w, i))) {
				if (!found)
					*decider = VT_R_ACLPERM_GROUP_OBJ;
				found = 1;
				if ((pa->perm & want) == want) {
					*decider = VT_R_ACLPERM_GROUP_OBJ;
					goto mask;
				}
			}
			break;
		case VT_ACL_GROUP:
			if (vt_vfsgid_in_group_p(w, vt_make_vfsgid(w->idmap, w->fs_ns, pa->gid))) {
				if (!found)
					*decider = VT_R_ACLPERM_GROUP;
				found = 1;
				if ((pa->perm & want) == want) {
					*decider = VT_R_ACLPERM_GROUP;
					goto mask;
				}
			}
			break;
		case VT_ACL_MASK:
			break;
		case VT_ACL_OTHER:
			if (found)
				return -EACCES;
			*decider = VT_R_ACLPERM_OTHER;
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

/* acl_permission_check(); *DECIDER: the class (or ACL entry) that decided */
static int acl_permission_check(const struct vt_world *w, const struct vt_minode *i, int mask,
				enum vt_rule *decider)
{
	unsigned int mode = i->mode;

	if (vt_vfsuid_eq_kuid(vt_i_uid_into_vfsuid(w, i), vt_cur_fsuid(w))) {
		*decider = VT_R_PERM_OWNER;
		mask &= 7;
		mode >>= 6;
		return (mask & ~mode) ? -EACCES : 0;
	}
	/* check_acl() only when IS_POSIXACL and the group class has bits;
	 * no access ACL -> -EAGAIN -> mode bits */
	if (w->posixacl && (mode & S_IRWXG) && i->nacl > 0)
		return posix_acl_permission(w, i, mask, decider);
	mask &= 7;
	*decider = VT_R_PERM_OTHER;
	/* group membership is asked only where the group bits differ from
	 * other's in the bits wanted */
	if (mask & (mode ^ (mode >> 3))) {
		if (vt_vfsgid_in_group_p(w, vt_i_gid_into_vfsgid(w, i))) {
			*decider = VT_R_PERM_GROUP;
			mode >>= 3;
		}
	}
	return (mask & ~mode) ? -EACCES : 0;
}

/* generic_permission(): the mode/ACL decision, then the DAC capabilities.
 * Records the class's outcome only if no capability overrides it. */
static int generic_permission(const struct vt_world *w, const struct vt_minode *i, int mask,
			      enum vt_rule *rule)
{
	enum vt_rule cls, cap1 = VT_R_NONE, cap2;
	enum vt_capw c1 = VT_CAPW_NONE, c2;
	int ret = acl_permission_check(w, i, mask, &cls);

	*rule = cls;
	if (ret != -EACCES) {
		vt_hit(w, cls, ret == 0);
		return ret;
	}
	if (S_ISDIR(i->mode)) {
		/* DACs are overridable for directories */
		if (!(mask & VT_MAY_WRITE)) {
			cap1 = VT_R_DAC_DIR_READ_SEARCH;
			c1 = vt_capable_wrt(w, i, VT_CAP_DAC_READ_SEARCH);
			if (c1 == VT_CAPW_GRANTED)
				return vt_hit_capw(w, cap1, c1) ? 0 : -EACCES;
		}
		cap2 = VT_R_DAC_DIR_OVERRIDE;
		c2 = vt_capable_wrt(w, i, VT_CAP_DAC_OVERRIDE);
	} else {
		mask &= VT_MAY_READ | VT_MAY_WRITE | VT_MAY_EXEC;
		if (mask == VT_MAY_READ) {
			cap1 = VT_R_DAC_FILE_READ_SEARCH;
			c1 = vt_capable_wrt(w, i, VT_CAP_DAC_READ_SEARCH);
			if (c1 == VT_CAPW_GRANTED)
				return vt_hit_capw(w, cap1, c1) ? 0 : -EACCES;
		}
		/* read/write DACs are always overridable; exec only if some x bit */
		cap2 = VT_R_DAC_FILE_OVERRIDE;
		c2 = VT_CAPW_NONE;
		if (!(mask & VT_MAY_EXEC) || (i->mode & (S_IXUSR | S_IXGRP | S_IXOTH)))
			c2 = vt_capable_wrt(w, i, VT_CAP_DAC_OVERRIDE);
		else
			cap2 = VT_R_NONE;	/* not asked: exec without any x bit */
	}
	if (cap2 != VT_R_NONE && c2 == VT_CAPW_GRANTED)
		return vt_hit_capw(w, cap2, c2) ? 0 : -EACCES;
	/* denied: the class, and every capability that was asked */
	vt_hit(w, cls, false);
	if (cap1 != VT_R_NONE)
		vt_hit_capw(w, cap1, c1);
	if (cap2 != VT_R_NONE) {
		vt_hit_capw(w, cap2, c2);
		*rule = cap2;
	} else if (cap1 != VT_R_NONE) {
		*rule = cap1;
	}
	return -EACCES;
}

int vt_inode_permission(const struct vt_world *w, const struct vt_minode *i, int mask,
			enum vt_rule *rule)
{
	/* inode_permission() -> sb_permission() first: nobody writes to a
	 * regular file, directory or symlink of a read-only sb */
	if ((mask & VT_MAY_WRITE) && w->sb_rdonly &&
	    (S_ISREG(i->mode) || S_ISDIR(i->mode) || S_ISLNK(i->mode)) &&
	    !vt_hit(w, VT_R_RO_SB_PERMISSION, false))
		VT_REFUSE(VT_R_RO_SB_PERMISSION, EROFS);
	/* inode_permission(): MAY_WRITE on an inode whose ids do not map
	 * through the mount -> EACCES (HAS_UNMAPPED_ID) */
	if ((mask & VT_MAY_WRITE) && !vt_hit(w, VT_R_PERM_UNMAPPED, !vt_has_unmapped_id(w, i)))
		VT_REFUSE(VT_R_PERM_UNMAPPED, EACCES);
	return generic_permission(w, i, mask, rule);
}

/* inode_permission() whose outcome is final for SITE */
int vt_inode_permission_at(const struct vt_world *w, const struct vt_minode *i, int mask,
			   enum vt_rule site, enum vt_rule *rule)
{
	int ret = vt_inode_permission(w, i, mask, rule);

	vt_hit(w, site, ret == 0);
	return ret;
}

int vt_may_lookup(const struct vt_world *w, enum vt_rule *rule)
{
	return vt_may_lookup_in(w, &w->dir, rule);
}

int vt_may_lookup_in(const struct vt_world *w, const struct vt_minode *dir, enum vt_rule *rule)
{
	/* link_path_walk() -> may_lookup(): MAY_EXEC on the parent before the
	 * last component */
	int ret = vt_fs_may_lookup_root(w, rule);

	if (ret)
		return ret;
	ret = vt_inode_permission_at(w, dir, VT_MAY_EXEC, VT_R_MAY_LOOKUP, rule);
	if (ret)
		*rule = VT_R_MAY_LOOKUP;
	return ret;
}
