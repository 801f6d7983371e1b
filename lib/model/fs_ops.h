/* A filesystem's own inode operations, where they are not the generic
 * inode-owner ones the rules model (the owner stored per inode,
 * inode_init_owner, the VFS's inode_operations checks). The generic rules
 * ask these hooks at the places the VFS calls into the filesystem, and
 * never a filesystem's name or its rules file: a world without hooks
 * (w->fs_ops NULL, or a NULL hook) is the generic filesystem. The
 * option-owner filesystems' hooks are in optowner_rules.c
 * (vt_optowner_fs_ops). */
#ifndef VT_MODEL_FS_OPS_H
#define VT_MODEL_FS_OPS_H

#include "model/world_model.h"

#include <stdbool.h>

struct vt_fs_ops {
	/* the lookup of P in the mount's root, when the root is the
	 * filesystem's own inode: 0 or -errno with *RULE */
	int (*may_lookup_root)(const struct vt_world *w, enum vt_rule *rule);
	/* the inode operation OP needs and the filesystem lacks: 0 or -errno */
	int (*missing_iop)(const struct vt_world *w, enum vt_mop op, enum vt_rule *rule);
	/* ->create/->mkdir's new inode of type MODE into *N; false: generic */
	bool (*new_inode)(const struct vt_world *w, mode_t mode, struct vt_minode *n);
	/* the xattr handler reached: 0 or an errno (EOPNOTSUPP: no IOP_XATTR) */
	int (*xattr_handler)(const struct vt_world *w, enum vt_rule *rule);
	/* ->rename's answer to renameat2 flags OP: 0 or -errno */
	int (*rename_flags)(const struct vt_world *w, enum vt_mop op, enum vt_rule *rule);
};

static inline int vt_fs_may_lookup_root(const struct vt_world *w, enum vt_rule *rule)
{
	return w->fs_ops && w->fs_ops->may_lookup_root ? w->fs_ops->may_lookup_root(w, rule) : 0;
}

static inline int vt_fs_missing_iop(const struct vt_world *w, enum vt_mop op, enum vt_rule *rule)
{
	return w->fs_ops && w->fs_ops->missing_iop ? w->fs_ops->missing_iop(w, op, rule) : 0;
}

static inline bool vt_fs_new_inode(const struct vt_world *w, mode_t mode, struct vt_minode *n)
{
	return w->fs_ops && w->fs_ops->new_inode ? w->fs_ops->new_inode(w, mode, n) : false;
}

static inline int vt_fs_xattr_handler(const struct vt_world *w, enum vt_rule *rule)
{
	return w->fs_ops && w->fs_ops->xattr_handler ? w->fs_ops->xattr_handler(w, rule) : 0;
}

static inline int vt_fs_rename_flags(const struct vt_world *w, enum vt_mop op, enum vt_rule *rule)
{
	return w->fs_ops && w->fs_ops->rename_flags ? w->fs_ops->rename_flags(w, op, rule) : 0;
}

#endif
