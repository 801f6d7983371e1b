/* Who the caller is to an inode: fs/inode.c (inode_owner_or_capable,
 * in_group_or_capable, inode_init_owner's mapped ids), kernel/groups.c
 * (in_group_p), kernel/capability.c (capable_wrt_inode_uidgid,
 * privileged_wrt_inode_uidgid), security/commoncap.c (cap_capable),
 * include/linux/fs.h (HAS_UNMAPPED_ID, fsuidgid_has_mapping). */
#include "model/rules.h"

#include <sys/stat.h>

vt_kuid_t vt_cur_fsuid(const struct vt_world *w)
{
	return vt_make_kuid(w->cred.ns, w->cred.fsuid);
}

vt_kgid_t vt_cur_fsgid(const struct vt_world *w)
{
	return vt_make_kgid(w->cred.ns, w->cred.fsgid);
}

vt_kuid_t vt_cur_euid(const struct vt_world *w)
{
	return vt_make_kuid(w->cred.ns, w->cred.uid);
}

vt_vfsuid_t (vt_i_uid_into_vfsuid)(const struct vt_world *w, const struct vt_minode *i)
{
	/* i_uid_into_vfsuid(): make_vfsuid(idmap, i_user_ns(inode), inode->i_uid) */
	return vt_make_vfsuid(w->idmap, w->fs_ns, i->uid);
}

vt_vfsgid_t (vt_i_gid_into_vfsgid)(const struct vt_world *w, const struct vt_minode *i)
{
	return vt_make_vfsgid(w->idmap, w->fs_ns, i->gid);
}

bool vt_in_group_p(const struct vt_world *w, vt_kgid_t g)
{
	int n;

	/* in_group_p(): fsgid, then groups_search(cred->group_info) */
	if (!vt_kgid_valid(g))
		return false;
	if (vt_cur_fsgid(w).val == g.val)
		return true;
	for (n = 0; n < w->cred.ngroups; n++)
		if (vt_make_kgid(w->cred.ns, w->cred.groups[n]).val == g.val)
			return true;
	return false;
}

bool vt_vfsgid_in_group_p(const struct vt_world *w, vt_vfsgid_t g)
{
	/* vfsgid_in_group_p(): in_group_p(AS_KGIDT(vfsgid)) */
	return vt_in_group_p(w, vt_vfsgid_into_kgid(g));
}

bool vt_ns_capable(const struct vt_world *w, const struct vt_mns *target, int cap)
{
	const struct vt_mns *ns = target, *mine = w->cred.ns;
	int mylevel = vt_ns_level(mine);

	/* cap_capable(): walk from the target namespace towards the root */
	for (;;) {
		if (ns == mine)
			return (w->cred.caps & VT_CAPBIT(cap)) != 0;
		if (vt_ns_level(ns) <= mylevel)
			return false;
		/* the owner of a child namespace of ours has every capability in it */
		if (ns->parent == mine && ns->owner.val == vt_cur_euid(w).val)
			return true;
		ns = ns->parent;
	}
}

bool vt_capable(const struct vt_world *w, int cap)
{
	/* capable(): ns_capable(&init_user_ns, cap) */
	return vt_ns_capable(w, &vt_init_ns, cap);
}

bool vt_current_in_userns(const struct vt_world *w, const struct vt_mns *target)
{
	const struct vt_mns *ns = w->cred.ns;

	/* in_userns(target, current_user_ns()): walk up from the caller's
	 * namespace to TARGET's level */
	while (vt_ns_level(ns) > vt_ns_level(target))
		ns = ns->parent;
	return ns == target;
}

enum vt_capw (vt_capable_wrt)(const struct vt_world *w, const struct vt_minode *i, int cap)
{
	const struct vt_mns *ns = w->cred.ns;

	if (!vt_ns_capable(w, ns, cap))
		return VT_CAPW_NONE;
	if (!vt_vfsuid_has_mapping(ns, vt_i_uid_into_vfsuid(w, i)) ||
	    !vt_vfsgid_has_mapping(ns, vt_i_gid_into_vfsgid(w, i)))
		return VT_CAPW_SCOPE;
	return VT_CAPW_GRANTED;
}

bool vt_hit_capw(const struct vt_world *w, enum vt_rule site, enum vt_capw c)
{
	if (c != VT_CAPW_NONE)
		vt_hit(w, VT_R_CAP_SCOPE, c == VT_CAPW_GRANTED);
	return vt_hit(w, site, c == VT_CAPW_GRANTED);
}

bool (vt_in_group_or_capable_hit)(const struct vt_world *w, const struct vt_minode *i,
				vt_vfsgid_t g, enum vt_rule site)
{
	if (vt_vfsgid_in_group_p(w, g))
		return vt_hit(w, site, true);
	return vt_hit_capw(w, site, vt_capable_wrt(w, i, VT_CAP_FSETID));
}

bool (vt_capable_wrt_inode_uidgid)(const struct vt_world *w, const struct vt_minode *i, int cap)
{
	const struct vt_mns *ns = w->cred.ns;

	/* capable_wrt_inode_uidgid(): ns_capable(ns, cap) &&
	 * privileged_wrt_inode_uidgid(ns, idmap, inode): both the inode's
	 * mount-view uid and gid have a mapping in the caller's namespace */
	return vt_ns_capable(w, ns, cap) &&
	       vt_vfsuid_has_mapping(ns, vt_i_uid_into_vfsuid(w, i)) &&
	       vt_vfsgid_has_mapping(ns, vt_i_gid_into_vfsgid(w, i));
}

bool (vt_privileged_wrt_inode_uidgid)(const struct vt_world *w, const struct vt_mns *ns,
				      const struct vt_minode *i)
{
	/* privileged_wrt_inode_uidgid(ns, idmap, inode):
	 * vfsuid_has_mapping(ns, i_uid_into_vfsuid(idmap, inode)) &&
	 * vfsgid_has_mapping(ns, i_gid_into_vfsgid(idmap, inode)) */
	return vt_vfsuid_has_mapping(ns, vt_i_uid_into_vfsuid(w, i)) &&
	       vt_vfsgid_has_mapping(ns, vt_i_gid_into_vfsgid(w, i));
}

bool (vt_inode_owner_or_capable)(const struct vt_world *w, const struct vt_minode *i)
{
	vt_vfsuid_t v = vt_i_uid_into_vfsuid(w, i);

	/* inode_owner_or_capable() */
	if (vt_vfsuid_eq_kuid(v, vt_cur_fsuid(w)))
		return true;
	return vt_vfsuid_has_mapping(w->cred.ns, v) && vt_ns_capable(w, w->cred.ns, VT_CAP_FOWNER);
}

bool (vt_in_group_or_capable)(const struct vt_world *w, const struct vt_minode *i, vt_vfsgid_t g)
{
	/* in_group_or_capable() */
	return vt_vfsgid_in_group_p(w, g) || vt_capable_wrt_inode_uidgid(w, i, VT_CAP_FSETID);
}

bool vt_has_unmapped_id(const struct vt_world *w, const struct vt_minode *i)
{
	/* HAS_UNMAPPED_ID() */
	return !vt_vfsuid_valid(vt_i_uid_into_vfsuid(w, i)) ||
	       !vt_vfsgid_valid(vt_i_gid_into_vfsgid(w, i));
}

bool vt_fsuidgid_has_mapping(const struct vt_world *w)
{
	vt_kuid_t k;
	vt_kgid_t g;

	/* fsuidgid_has_mapping(): mapped_fsuid()/mapped_fsgid() valid and
	 * mapped in sb->s_user_ns */
	k = vt_from_vfsuid(w->idmap, w->fs_ns, vt_vfsuid_from_kuid(vt_cur_fsuid(w)));
	if (!vt_kuid_valid(k))
		return false;
	g = vt_from_vfsgid(w->idmap, w->fs_ns, vt_vfsgid_from_kgid(vt_cur_fsgid(w)));
	if (!vt_kgid_valid(g))
		return false;
	return vt_sb_kuid_has_mapping(w->fs_ns, k) && vt_sb_kgid_has_mapping(w->fs_ns, g);
}

mode_t vt_mode_strip_sgid(const struct vt_world *w, mode_t mode)
{
	/* mode_strip_sgid() (fs/inode.c) */
	if ((mode & (S_ISGID | S_IXGRP)) != (S_ISGID | S_IXGRP))
		return mode;
	if (S_ISDIR(mode) || !(w->dir.mode & S_ISGID))
		return mode;
	if (vt_in_group_or_capable_hit(w, &w->dir, vt_i_gid_into_vfsgid(w, &w->dir),
				       VT_R_SGID_STRIP_CREATE))
		return mode;
	return mode & ~(mode_t)S_ISGID;
}

int vt_setattr_should_drop_sgid(const struct vt_world *w, const struct vt_minode *i)
{
	/* setattr_should_drop_sgid() (fs/attr.c); 1 = ATTR_KILL_SGID */
	if (!(i->mode & S_ISGID))
		return 0;
	if (i->mode & S_IXGRP)
		return 1;
	if (!vt_in_group_or_capable(w, i, vt_i_gid_into_vfsgid(w, i)))
		return 1;
	return 0;
}
