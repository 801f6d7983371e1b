/* User-namespace id translation and levels (kernel/user_namespace.c). */
#include "model/userns_model.h"
#include "model/break.h"

/* The past-end mutant's lookup: the extents in the order written, each
 * taken to end one id late ("<=" for "<" in the kernel's range check:
 * map_id_range_down_base's "last <= first + count - 1", the
 * bsearch comparators' "id2 <= first + count - 1" of cmp_map_id). */
static bool lookup_past_end(const struct vt_idmap *map, uint32_t id, bool up, uint32_t *out)
{
	unsigned int i;

	for (i = 0; i < map->nr; i++) {
		const struct vt_extent *e = &map->ext[i];
		uint32_t from = up ? e->lower : e->first, to = up ? e->first : e->lower;

		if (id >= from && (uint64_t)id <= (uint64_t)from + e->count) {
			*out = to + (id - from);
			return true;
		}
	}
	return false;
}

/* The real lookup (lib/world: what the matrix writes to uid_map is parsed
 * by the same code) or, with the mutant switched on, the late-ending one;
 * records where they differ (break.h). */
static bool lookup(struct vt_mpoint *p, const struct vt_idmap *map, uint32_t id, bool up,
		   uint32_t *out)
{
	uint32_t real = VT_ID_INVALID, alt = VT_ID_INVALID;
	bool real_ok = up ? vt_idmap_up(map, id, &real) : vt_idmap_down(map, id, &real);
	bool alt_ok = lookup_past_end(map, id, up, &alt);
	unsigned int on = vt_mp_touch(p, (real_ok != alt_ok || real != alt) ? VT_MOP_PAST_END : 0);

	if (on & VT_MOP_PAST_END) {
		*out = alt;
		return alt_ok;
	}
	*out = real;
	return real_ok;
}

bool vt_map_id_down(const struct vt_idmap *map, uint32_t id, uint32_t *out)
{
	return lookup(VT_MP_(VT_MPK_RANGE, "map_id_range_down"), map, id, false, out);
}

bool vt_map_id_up(const struct vt_idmap *map, uint32_t id, uint32_t *out)
{
	return lookup(VT_MP_(VT_MPK_RANGE, "map_id_up"), map, id, true, out);
}

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
		    !vt_map_id_down(gid ? &ns->map.gid : &ns->map.uid, id, &id))
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
	if (id == VT_ID_INVALID || !vt_map_id_up(gid ? &ns->map.gid : &ns->map.uid, id, &id))
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
