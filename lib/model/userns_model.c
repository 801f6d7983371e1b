/* User-namespace id translation and levels (kernel/user_namespace.c). */
#include "model/userns_model.h"

const struct vt_mns vt_init_ns = { .name = "init", .parent = NULL };

int vt_ns_level(const struct vt_mns *ns)
{
	int level = 0;

	for (; ns->parent; ns = ns->parent)
		level++;
	return level;
}

/* make_kuid(): map_id_down() through every level up to the initial ns. */
static uint32_t make_kid(const struct vt_mns *ns, uint32_t id, bool gid)
{
	for (; ns->parent; ns = ns->parent) {
		if (id == VT_ID_INVALID ||
		    !vt_idmap_down(gid ? &ns->map.gid : &ns->map.uid, id, &id))
			return VT_ID_INVALID;
	}
	return id;
}

/* from_kuid(): map_id_up() from the initial ns down to NS. */
static uint32_t from_kid(const struct vt_mns *ns, uint32_t k, bool gid)
{
	uint32_t id;

	if (!ns->parent)
		return k;
	id = from_kid(ns->parent, k, gid);
	if (id == VT_ID_INVALID || !vt_idmap_up(gid ? &ns->map.gid : &ns->map.uid, id, &id))
		return VT_ID_INVALID;
	return id;
}

vt_kuid_t vt_make_kuid(const struct vt_mns *ns, vt_cuid_t id)
{
	return vt_kuid(make_kid(ns, id.val, false));
}

vt_kgid_t vt_make_kgid(const struct vt_mns *ns, vt_cgid_t id)
{
	return vt_kgid(make_kid(ns, id.val, true));
}

vt_cuid_t vt_from_kuid(const struct vt_mns *ns, vt_kuid_t k)
{
	return vt_cuid(k.val == VT_ID_INVALID ? VT_ID_INVALID : from_kid(ns, k.val, false));
}

vt_cgid_t vt_from_kgid(const struct vt_mns *ns, vt_kgid_t k)
{
	return vt_cgid(k.val == VT_ID_INVALID ? VT_ID_INVALID : from_kid(ns, k.val, true));
}

vt_cuid_t vt_from_kuid_munged(const struct vt_mns *ns, vt_kuid_t k, uint32_t overflowid)
{
	vt_cuid_t u = vt_from_kuid(ns, k);

	return u.val == VT_ID_INVALID ? vt_cuid(overflowid) : u;
}

vt_cgid_t vt_from_kgid_munged(const struct vt_mns *ns, vt_kgid_t k, uint32_t overflowid)
{
	vt_cgid_t g = vt_from_kgid(ns, k);

	return g.val == VT_ID_INVALID ? vt_cgid(overflowid) : g;
}
