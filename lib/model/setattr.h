/* Internal: struct iattr and the generic halves of ->setattr, shared by
 * notify_change (attr_rules.c) and filesystems whose ->setattr wraps them
 * (fat_setattr, exfat_setattr: optowner_rules.c). */
#ifndef VT_MODEL_SETATTR_H
#define VT_MODEL_SETATTR_H

#include "model/rules.h"

/* struct iattr, the bits the model needs */
#define IA_UID 0x1
#define IA_GID 0x2
#define IA_MODE 0x4
#define IA_TIMES_SET 0x8
#define IA_TOUCH 0x10
#define IA_KILL_SUID 0x20
#define IA_KILL_SGID 0x40
#define IA_KILL_PRIV 0x80
#define IA_FORCE 0x100
#define IA_SIZE 0x200

struct iattr {
	unsigned int valid;
	vt_vfsuid_t vfsuid;
	vt_vfsgid_t vfsgid;
	mode_t mode;
};

/* setattr_prepare(): 0 or -errno with *RULE; may strip S_ISGID from
 * IA->mode (as the kernel does on the caller's attr) and drops the file
 * capabilities of *I for ATTR_KILL_PRIV (security_inode_killpriv). */
int vt_setattr_prepare(const struct vt_world *w, struct vt_minode *i, struct iattr *ia,
		       enum vt_rule *rule);
/* setattr_copy(): the new ids (from_vfsuid) and mode into *I. */
void vt_setattr_copy(const struct vt_world *w, struct vt_minode *i, const struct iattr *ia);

/* A filesystem's own ->setattr is w->optowner->fs->setattr
 * (optowner_model.h). */

#endif
