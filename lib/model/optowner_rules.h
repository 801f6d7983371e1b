/* Internal: where the filesystems whose owners come from the mount options
 * (optowner_model.h) change the generic rules. Each hook returns at once
 * for a world without `optowner`. */
#ifndef VT_MODEL_OPTOWNER_RULES_H
#define VT_MODEL_OPTOWNER_RULES_H

#include "model/rules.h"
#include "model/optowner_model.h"

/* The lookup of P in the mount's root, which is the filesystem's root
 * inode (fat_read_root, exfat_read_root): inode_permission(root,
 * MAY_EXEC). 0 or -errno. */
int vt_optowner_may_lookup_root(const struct vt_world *w, enum vt_rule *rule);

/* The inode operation OP needs and the filesystem lacks (vfs_symlink,
 * vfs_mknod, vfs_link: EPERM; vfs_tmpfile: EOPNOTSUPP), asked where the
 * VFS asks. 0 (it has it, or not such a world) or -errno with *RULE. */
int vt_optowner_missing_iop(const struct vt_world *w, enum vt_mop op, enum vt_rule *rule);

/* ->create/->mkdir: the new inode of type MODE. false: not such a world. */
bool vt_optowner_new_inode(const struct vt_world *w, mode_t mode, struct vt_minode *n);

/* The filesystem's xattr handler is reached: EOPNOTSUPP (no IOP_XATTR),
 * else 0. */
int vt_optowner_xattr_handler(const struct vt_world *w, enum vt_rule *rule);

/* vfs_rename -> ->rename with renameat2 flags OP: -EINVAL where the
 * filesystem's ->rename refuses the flags, else 0. */
int vt_optowner_rename_flags(const struct vt_world *w, enum vt_mop op, enum vt_rule *rule);

#endif
