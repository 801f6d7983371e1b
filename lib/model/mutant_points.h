/* Every call of an id translation or a capability-scope helper in a file
 * that includes rules.h is a mutation point (break.h): the helper's name
 * is a macro that registers the call site and goes through the mutable
 * wrapper. The helpers' own definitions spell their names in parentheses,
 * "(vt_make_vfsuid)(...)", which no macro expands. Included at the end of
 * rules.h, after the prototypes. */
#ifndef VT_MODEL_MUTANT_POINTS_H
#define VT_MODEL_MUTANT_POINTS_H

#include "model/break.h"

struct vt_world;
struct vt_minode;

vt_vfsuid_t vt_mp_make_vfsuid(struct vt_mpoint *p, const struct vt_midmap *m,
			      const struct vt_mns *ns, vt_kuid_t k);
vt_vfsgid_t vt_mp_make_vfsgid(struct vt_mpoint *p, const struct vt_midmap *m,
			      const struct vt_mns *ns, vt_kgid_t k);
vt_kuid_t vt_mp_from_vfsuid(struct vt_mpoint *p, const struct vt_midmap *m,
			    const struct vt_mns *ns, vt_vfsuid_t v);
vt_kgid_t vt_mp_from_vfsgid(struct vt_mpoint *p, const struct vt_midmap *m,
			    const struct vt_mns *ns, vt_vfsgid_t v);
vt_vfsuid_t vt_mp_i_uid_into_vfsuid(struct vt_mpoint *p, const struct vt_world *w,
				    const struct vt_minode *i);
vt_vfsgid_t vt_mp_i_gid_into_vfsgid(struct vt_mpoint *p, const struct vt_world *w,
				    const struct vt_minode *i);
bool vt_mp_vfsuid_has_fsmapping(struct vt_mpoint *p, const struct vt_midmap *m,
				const struct vt_mns *ns, vt_vfsuid_t v);
bool vt_mp_vfsgid_has_fsmapping(struct vt_mpoint *p, const struct vt_midmap *m,
				const struct vt_mns *ns, vt_vfsgid_t v);
bool vt_mp_vfsuid_has_mapping(struct vt_mpoint *p, const struct vt_mns *ns, vt_vfsuid_t v);
bool vt_mp_vfsgid_has_mapping(struct vt_mpoint *p, const struct vt_mns *ns, vt_vfsgid_t v);
bool vt_mp_sb_kuid_has_mapping(struct vt_mpoint *p, const struct vt_mns *fs_ns, vt_kuid_t k);
bool vt_mp_sb_kgid_has_mapping(struct vt_mpoint *p, const struct vt_mns *fs_ns, vt_kgid_t k);
bool vt_mp_sb_ns_capable(struct vt_mpoint *p, const struct vt_world *w, int cap);
bool vt_mp_current_in_sb_userns(struct vt_mpoint *p, const struct vt_world *w);
vt_kuid_t vt_mp_make_kuid(struct vt_mpoint *p, const struct vt_mns *ns, vt_cuid_t id);
vt_kgid_t vt_mp_make_kgid(struct vt_mpoint *p, const struct vt_mns *ns, vt_cgid_t id);
vt_cuid_t vt_mp_from_kuid(struct vt_mpoint *p, const struct vt_mns *ns, vt_kuid_t k);
vt_cgid_t vt_mp_from_kgid(struct vt_mpoint *p, const struct vt_mns *ns, vt_kgid_t k);
vt_cuid_t vt_mp_from_kuid_munged(struct vt_mpoint *p, const struct vt_mns *ns, vt_kuid_t k,
				 uint32_t ov);
vt_cgid_t vt_mp_from_kgid_munged(struct vt_mpoint *p, const struct vt_mns *ns, vt_kgid_t k,
				 uint32_t ov);
enum vt_capw vt_mp_capable_wrt(struct vt_mpoint *p, const struct vt_world *w,
			       const struct vt_minode *i, int cap);
bool vt_mp_capable_wrt_inode_uidgid(struct vt_mpoint *p, const struct vt_world *w,
				    const struct vt_minode *i, int cap);
bool vt_mp_inode_owner_or_capable(struct vt_mpoint *p, const struct vt_world *w,
				  const struct vt_minode *i);
bool vt_mp_privileged_wrt_inode_uidgid(struct vt_mpoint *p, const struct vt_world *w,
					const struct vt_mns *ns, const struct vt_minode *i);
bool vt_mp_in_group_or_capable(struct vt_mpoint *p, const struct vt_world *w,
			       const struct vt_minode *i, vt_vfsgid_t g);
bool vt_mp_in_group_or_capable_hit(struct vt_mpoint *p, const struct vt_world *w,
				   const struct vt_minode *i, vt_vfsgid_t g, enum vt_rule site);
/* an overlay layer's idmap (overlay_model.c), the other layer's one OTHER */
struct vt_midmap;
const struct vt_midmap *vt_mp_layer_idmap(struct vt_mpoint *p, const struct vt_midmap *mine,
					  const struct vt_midmap *other);

#define VT_MPU_(k) VT_MP_(VT_MPK_UID, k)
#define VT_MPG_(k) VT_MP_(VT_MPK_GID, k)
#define VT_MPC_(k) VT_MP_(VT_MPK_CAP, k)

#define vt_make_vfsuid(m, ns, k) vt_mp_make_vfsuid(VT_MPU_("make_vfsuid"), m, ns, k)
#define vt_make_vfsgid(m, ns, k) vt_mp_make_vfsgid(VT_MPG_("make_vfsgid"), m, ns, k)
#define vt_from_vfsuid(m, ns, v) vt_mp_from_vfsuid(VT_MPU_("from_vfsuid"), m, ns, v)
#define vt_from_vfsgid(m, ns, v) vt_mp_from_vfsgid(VT_MPG_("from_vfsgid"), m, ns, v)
#define vt_i_uid_into_vfsuid(w, i) vt_mp_i_uid_into_vfsuid(VT_MPU_("i_uid_into_vfsuid"), w, i)
#define vt_i_gid_into_vfsgid(w, i) vt_mp_i_gid_into_vfsgid(VT_MPG_("i_gid_into_vfsgid"), w, i)
#define vt_vfsuid_has_fsmapping(m, ns, v) \
	vt_mp_vfsuid_has_fsmapping(VT_MPU_("vfsuid_has_fsmapping"), m, ns, v)
#define vt_vfsgid_has_fsmapping(m, ns, v) \
	vt_mp_vfsgid_has_fsmapping(VT_MPG_("vfsgid_has_fsmapping"), m, ns, v)
#define vt_vfsuid_has_mapping(ns, v) vt_mp_vfsuid_has_mapping(VT_MPU_("vfsuid_has_mapping"), ns, v)
#define vt_vfsgid_has_mapping(ns, v) vt_mp_vfsgid_has_mapping(VT_MPG_("vfsgid_has_mapping"), ns, v)
/* kuid_has_mapping(sb->s_user_ns, k): FS_NS is the filesystem's namespace
 * (the point's one operator is #fs-init-ns) */
#define vt_sb_kuid_has_mapping(fs_ns, k) \
	vt_mp_sb_kuid_has_mapping(VT_MPU_("kuid_has_mapping"), fs_ns, k)
#define vt_sb_kgid_has_mapping(fs_ns, k) \
	vt_mp_sb_kgid_has_mapping(VT_MPG_("kgid_has_mapping"), fs_ns, k)
/* ns_capable(sb->s_user_ns, CAP) and current_in_userns(sb->s_user_ns):
 * decisions over the filesystem's namespace (break.h: the one operator
 * is #fs-init-ns) */
#define vt_sb_ns_capable(w, cap) vt_mp_sb_ns_capable(VT_MP_(VT_MPK_SBNS, "ns_capable"), w, cap)
#define vt_current_in_sb_userns(w) \
	vt_mp_current_in_sb_userns(VT_MP_(VT_MPK_SBNS, "current_in_userns"), w)
#define vt_make_kuid(ns, id) vt_mp_make_kuid(VT_MPU_("make_kuid"), ns, id)
#define vt_make_kgid(ns, id) vt_mp_make_kgid(VT_MPG_("make_kgid"), ns, id)
#define vt_from_kuid(ns, k) vt_mp_from_kuid(VT_MPU_("from_kuid"), ns, k)
#define vt_from_kgid(ns, k) vt_mp_from_kgid(VT_MPG_("from_kgid"), ns, k)
#define vt_from_kuid_munged(ns, k, ov) vt_mp_from_kuid_munged(VT_MPU_("from_kuid_munged"), ns, k, ov)
#define vt_from_kgid_munged(ns, k, ov) vt_mp_from_kgid_munged(VT_MPG_("from_kgid_munged"), ns, k, ov)
#define vt_capable_wrt(w, i, cap) vt_mp_capable_wrt(VT_MPC_("capable_wrt_inode_uidgid"), w, i, cap)
#define vt_capable_wrt_inode_uidgid(w, i, cap) \
	vt_mp_capable_wrt_inode_uidgid(VT_MPC_("capable_wrt_inode_uidgid"), w, i, cap)
#define vt_inode_owner_or_capable(w, i) \
	vt_mp_inode_owner_or_capable(VT_MPC_("inode_owner_or_capable"), w, i)
#define vt_privileged_wrt_inode_uidgid(w, ns, i) \
	vt_mp_privileged_wrt_inode_uidgid(VT_MPC_("privileged_wrt_inode_uidgid"), w, ns, i)
#define vt_in_group_or_capable(w, i, g) \
	vt_mp_in_group_or_capable(VT_MPC_("in_group_or_capable"), w, i, g)
#define vt_in_group_or_capable_hit(w, i, g, site) \
	vt_mp_in_group_or_capable_hit(VT_MPC_("in_group_or_capable"), w, i, g, site)
/* the idmap of the overlay layer a real inode is on, the other OTHER
 * (break.h: #other-layer) */
#define vt_lower_layer_idmap(lower, other) \
	vt_mp_layer_idmap(VT_MP_(VT_MPK_LAYER, "lower_idmap"), lower, other)
#define vt_upper_layer_idmap(upper, other) \
	vt_mp_layer_idmap(VT_MP_(VT_MPK_LAYER, "upper_idmap"), upper, other)

#endif
