/* The fs.protected_* sysctls (Documentation/admin-guide/sysctl/fs.rst):
 * fs/namei.c may_follow_link (protected_symlinks) and may_create_in_sticky
 * (protected_regular, protected_fifos), each comparing owners in the
 * mount's view (i_uid_into_vfsuid). protected_hardlinks is may_linkat, in
 * create_rules.c. A rule is recorded only where its sysctl made the kernel
 * ask it. */
#include "model/rules.h"

#include <errno.h>
#include <sys/stat.h>

int vt_may_follow_link(const struct vt_world *w, const struct vt_minode *dir,
		       const struct vt_minode *link)
{
	vt_vfsuid_t vu, dvu;

	if (!w->protected_symlinks)
		return 0;
	vu = vt_i_uid_into_vfsuid(w, link);
	/* allowed if the follower owns the link */
	if (vt_vfsuid_eq_kuid(vu, vt_cur_fsuid(w)))
		return vt_hit(w, VT_R_FOLLOW_PROTECTED, true) ? 0 : -EACCES;
	/* allowed unless the directory is sticky and world-writable */
	if ((dir->mode & (S_ISVTX | S_IWOTH)) != (S_ISVTX | S_IWOTH))
		return vt_hit(w, VT_R_FOLLOW_PROTECTED, true) ? 0 : -EACCES;
	/* allowed if the directory's owner owns the link (both valid) */
	dvu = vt_i_uid_into_vfsuid(w, dir);
	if (vt_vfsuid_valid(dvu) && vt_vfsuid_eq(dvu, vu))
		return vt_hit(w, VT_R_FOLLOW_PROTECTED, true) ? 0 : -EACCES;
	vt_hit(w, VT_R_FOLLOW_PROTECTED, false);
	return -EACCES;
}

int vt_may_create_in_sticky(const struct vt_world *w, const struct vt_minode *dir,
			    const struct vt_minode *inode)
{
	enum vt_rule r = S_ISFIFO(inode->mode) ? VT_R_STICKY_CREATE_FIFO : VT_R_STICKY_CREATE_REGULAR;
	int level = S_ISFIFO(inode->mode) ? w->protected_fifos : w->protected_regular;
	vt_vfsuid_t iv;

	if (!(dir->mode & S_ISVTX))
		return 0;
	/* only regular files and fifos are modelled (the kernel applies the
	 * owner tests below to other types whatever the sysctls say) */
	if (!S_ISREG(inode->mode) && !S_ISFIFO(inode->mode))
		return 0;
	if (!level)
		return 0;
	iv = vt_i_uid_into_vfsuid(w, inode);
	/* vfsuid_eq: never true for an invalid id (4d0548a7b806) */
	if (vt_vfsuid_eq(iv, vt_i_uid_into_vfsuid(w, dir)) || vt_vfsuid_eq_kuid(iv, vt_cur_fsuid(w)))
		return vt_hit(w, r, true) ? 0 : -EACCES;
	if (dir->mode & S_IWOTH)
		return vt_hit(w, r, false) ? 0 : -EACCES;
	/* group-writable only: refused at level 2 */
	if ((dir->mode & S_IWGRP) && level >= 2)
		return vt_hit(w, r, false) ? 0 : -EACCES;
	return vt_hit(w, r, true) ? 0 : -EACCES;
}
