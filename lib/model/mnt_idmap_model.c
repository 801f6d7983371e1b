/* fs/mnt_idmapping.c: make_vfsuid(), from_vfsuid() and friends. */
#include "model/mnt_idmap_model.h"

const struct vt_midmap vt_nop_idmap = { .name = "none", .nop = true };

vt_vfsuid_t vt_make_vfsuid(const struct vt_midmap *m, const struct vt_mns *fs_ns, vt_kuid_t k)
{
	uint32_t uid, out;

	/* make_vfsuid(): nop_mnt_idmap -> VFSUIDT_INIT(kuid) */
	if (m->nop)
		return vt_vfsuid(k.val);
	/* initial_idmapping(fs_userns) ? __kuid_val(kuid) : from_kuid(fs_userns, kuid) */
	uid = vt_ns_is_init(fs_ns) ? k.val : vt_from_kuid(fs_ns, k).val;
	if (uid == VT_ID_INVALID)
		return vt_vfsuid(VT_ID_INVALID);
	/* map_id_down(&idmap->uid_map, uid) */
	if (!vt_map_id_down(&m->map.uid, uid, &out))
		return vt_vfsuid(VT_ID_INVALID);
	return vt_vfsuid(out);
}

vt_vfsgid_t vt_make_vfsgid(const struct vt_midmap *m, const struct vt_mns *fs_ns, vt_kgid_t k)
{
	uint32_t gid, out;

	/* make_vfsgid(), same as make_vfsuid() on gid_map */
	if (m->nop)
		return vt_vfsgid(k.val);
	gid = vt_ns_is_init(fs_ns) ? k.val : vt_from_kgid(fs_ns, k).val;
	if (gid == VT_ID_INVALID)
		return vt_vfsgid(VT_ID_INVALID);
	if (!vt_map_id_down(&m->map.gid, gid, &out))
		return vt_vfsgid(VT_ID_INVALID);
	return vt_vfsgid(out);
}

vt_kuid_t vt_from_vfsuid(const struct vt_midmap *m, const struct vt_mns *fs_ns, vt_vfsuid_t v)
{
	uint32_t uid;

	/* from_vfsuid(): nop_mnt_idmap -> AS_KUIDT(vfsuid) */
	if (m->nop)
		return vt_kuid(v.val);
	/* map_id_up(&idmap->uid_map, __vfsuid_val(vfsuid)) */
	if (v.val == VT_ID_INVALID || !vt_map_id_up(&m->map.uid, v.val, &uid))
		return vt_kuid(VT_ID_INVALID);
	if (vt_ns_is_init(fs_ns))
		return vt_kuid(uid);
	return vt_make_kuid(fs_ns, vt_cuid(uid));
}

vt_kgid_t vt_from_vfsgid(const struct vt_midmap *m, const struct vt_mns *fs_ns, vt_vfsgid_t v)
{
	uint32_t gid;

	/* from_vfsgid(), same as from_vfsuid() on gid_map */
	if (m->nop)
		return vt_kgid(v.val);
	if (v.val == VT_ID_INVALID || !vt_map_id_up(&m->map.gid, v.val, &gid))
		return vt_kgid(VT_ID_INVALID);
	if (vt_ns_is_init(fs_ns))
		return vt_kgid(gid);
	return vt_make_kgid(fs_ns, vt_cgid(gid));
}

bool vt_vfsuid_has_fsmapping(const struct vt_midmap *m, const struct vt_mns *fs_ns, vt_vfsuid_t v)
{
	/* vfsuid_has_fsmapping(): uid_valid(from_vfsuid(idmap, userns, vfsuid)) */
	return vt_kuid_valid(vt_from_vfsuid(m, fs_ns, v));
}

bool vt_vfsgid_has_fsmapping(const struct vt_midmap *m, const struct vt_mns *fs_ns, vt_vfsgid_t v)
{
	return vt_kgid_valid(vt_from_vfsgid(m, fs_ns, v));
}

bool vt_vfsuid_has_mapping(const struct vt_mns *ns, vt_vfsuid_t v)
{
	/* vfsuid_has_mapping(): kuid_has_mapping(userns, AS_KUIDT(vfsuid)) */
	return vt_kuid_has_mapping(ns, vt_vfsuid_into_kuid(v));
}

bool vt_vfsgid_has_mapping(const struct vt_mns *ns, vt_vfsgid_t v)
{
	return vt_kgid_has_mapping(ns, vt_vfsgid_into_kgid(v));
}

bool vt_kuid_has_mapping(const struct vt_mns *ns, vt_kuid_t k)
{
	/* kuid_has_mapping(): from_kuid(ns, uid) != (uid_t)-1 */
	return vt_from_kuid(ns, k).val != VT_ID_INVALID;
}

bool vt_kgid_has_mapping(const struct vt_mns *ns, vt_kgid_t k)
{
	return vt_from_kgid(ns, k).val != VT_ID_INVALID;
}
