/* A mount's idmap and the translations of fs/mnt_idmapping.c and
 * include/linux/mnt_idmapping.h. */
#ifndef VT_MODEL_MNT_IDMAP_H
#define VT_MODEL_MNT_IDMAP_H

#include "model/ids.h"
#include "model/userns_model.h"
#include "world/idmap_spec.h"

struct vt_midmap {
	const char *name;	/* "none", "shift10000", ... */
	bool nop;		/* nop_mnt_idmap: the mount is not idmapped */
	/* The map as alloc_mnt_idmap() copied it from the userns: FIRST is
	 * the fs-side id, LOWER the kernel id (the userns was made in the
	 * initial namespace, so its LOWER ids are already kernel ids). */
	struct vt_mapping map;
};

extern const struct vt_midmap vt_nop_idmap;

/* make_vfsuid(): inode (fs) kuid -> mount-view vfsuid. */
vt_vfsuid_t vt_make_vfsuid(const struct vt_midmap *m, const struct vt_mns *fs_ns, vt_kuid_t k);
vt_vfsgid_t vt_make_vfsgid(const struct vt_midmap *m, const struct vt_mns *fs_ns, vt_kgid_t k);
/* from_vfsuid(): mount-view vfsuid -> kuid to store in the inode. */
vt_kuid_t vt_from_vfsuid(const struct vt_midmap *m, const struct vt_mns *fs_ns, vt_vfsuid_t v);
vt_kgid_t vt_from_vfsgid(const struct vt_midmap *m, const struct vt_mns *fs_ns, vt_vfsgid_t v);
/* vfsuid_has_fsmapping(): the vfsuid can be written through this mount. */
bool vt_vfsuid_has_fsmapping(const struct vt_midmap *m, const struct vt_mns *fs_ns, vt_vfsuid_t v);
bool vt_vfsgid_has_fsmapping(const struct vt_midmap *m, const struct vt_mns *fs_ns, vt_vfsgid_t v);
/* vfsuid_has_mapping(): from_kuid(ns, vfsuid) is valid. */
bool vt_vfsuid_has_mapping(const struct vt_mns *ns, vt_vfsuid_t v);
bool vt_vfsgid_has_mapping(const struct vt_mns *ns, vt_vfsgid_t v);
/* kuid_has_mapping() */
bool vt_kuid_has_mapping(const struct vt_mns *ns, vt_kuid_t k);
bool vt_kgid_has_mapping(const struct vt_mns *ns, vt_kgid_t k);

#endif
