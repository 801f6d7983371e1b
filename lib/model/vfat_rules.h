/* Internal: where vfat (vfat_model.h) changes the generic rules. Each hook
 * returns at once for a world without `fat`. */
#ifndef VT_MODEL_VFAT_RULES_H
#define VT_MODEL_VFAT_RULES_H

#include "model/rules.h"
#include "model/vfat_model.h"

/* The lookup of P in the mount's root, which is vfat's root inode
 * (fat_read_root): inode_permission(root, MAY_EXEC). 0 or -errno. */
int vt_fat_may_lookup_root(const struct vt_world *w, enum vt_rule *rule);

/* The inode operation OP needs and vfat lacks (vfs_symlink, vfs_mknod,
 * vfs_link: EPERM; vfs_tmpfile: EOPNOTSUPP), asked where the VFS asks.
 * 0 (vfat has it, or not vfat) or -errno with *RULE. */
int vt_fat_missing_iop(const struct vt_world *w, enum vt_mop op, enum vt_rule *rule);

/* vfat_create/vfat_mkdir: the new inode of type MODE. false: not vfat. */
bool vt_fat_new_inode(const struct vt_world *w, mode_t mode, struct vt_minode *n);

/* The filesystem's xattr handler is reached: EOPNOTSUPP on vfat (no
 * IOP_XATTR), else 0. */
int vt_fat_xattr_handler(const struct vt_world *w, enum vt_rule *rule);

#endif
