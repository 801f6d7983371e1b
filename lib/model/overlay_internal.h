/* overlay_model.c's helpers for the other overlay model files
 * (overlay_fileops.c): each is the static helper of the same name without
 * the vt_ovl_ prefix, documented there. */
#ifndef VT_MODEL_OVERLAY_INTERNAL_H
#define VT_MODEL_OVERLAY_INTERNAL_H

#include "model/overlay_model.h"
#include "model/rule_ids.h"

/* a plain world (every s_user_ns the initial one) through IDMAP as CRED */
void vt_ovl_plain_world(struct vt_world *pw, const struct vt_ovl_world *w,
			const struct vt_midmap *idmap, const struct vt_mcred *cred, bool rdonly);
/* records that RULE decided ALLOWED in W's trace; returns ALLOWED */
bool vt_ovl_hit(const struct vt_ovl_world *w, enum vt_rule rule, bool allowed);
/* E's outcome ERR decided by rule ID, in words WHAT (and INNER) */
void vt_ovl_say(struct vt_ovl_expect *e, int err, enum vt_rule id, const char *what,
		const char *inner);
/* a read-only overlay (ovl_workdir_create failed): true and E set (EROFS) */
bool vt_ovl_read_only(const struct vt_ovl_world *w, struct vt_ovl_expect *e);
/* inode_permission(&nop_mnt_idmap, OVL, MASK) as the caller, ending in
 * ovl_permission's two halves (the mounter on REAL through its layer's
 * idmap): 0, or nonzero with E set */
int vt_ovl_inode_permission(const struct vt_ovl_world *w, const struct vt_minode *ovl,
			    const struct vt_minode *real, bool real_upper, int mask,
			    struct vt_ovl_expect *e);
/* E's seen_*: the caller's stat() of REAL on LAYER through the overlay */
void vt_ovl_seen(const struct vt_ovl_world *w, const struct vt_midmap *layer,
		 const struct vt_minode *real, struct vt_ovl_expect *e);
/* ovl_copy_up_one of the lower object as the mounter: 0 with the copy in
 * *UP, or -errno with E set */
int vt_ovl_copy_up(const struct vt_ovl_world *w, struct vt_minode *up, struct vt_ovl_expect *e);

/* overlay_fileops.c: matrix/013's calls (VT_OP_ACCESS, CHDIR, OPEN_NOATIME,
 * SETFL_NOATIME, SETLEASE, SETFLAGS, FSSETXATTR, DEDUPE, READ_ATIME,
 * CACHESTAT) and matrix/012's opens (VT_OP_OPEN_CREAT_RDONLY of an
 * existing file or fifo, VT_OP_OPEN_READ of a symlink to P/t) of the lower
 * P/o through the overlay world. W has each layer's map already
 * (layer_maps). False: not one of these operations. */
bool vt_ovl_fileop(const struct vt_ovl_world *w, const struct vt_mop_args *a,
		   struct vt_ovl_expect *e);

#endif
