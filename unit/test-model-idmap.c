/* The model's id translations against fs/mnt_idmapping.c and
 * kernel/user_namespace.c, row by row, including vfsuid_eq() never
 * equating two invalid ids (4d0548a7b806, §B.5 #9). Pure. */
#include "model/mnt_idmap_model.h"
#include "unit.h"

#include <stdio.h>
#include <string.h>

#define INV 0xffffffffu

struct row {
	const char *map;	/* mount idmap spec */
	uint32_t disk;		/* inode kuid */
	uint32_t vfs;		/* expected make_vfsuid() */
	const char *rule;
};

static const struct row rows[] = {
	{ "b:0:10000:65536", 0, 10000, "make_vfsuid: map_id_down(FIRST=0) = LOWER" },
	{ "b:0:10000:65536", 65535, 75535, "make_vfsuid: last id of the extent" },
	{ "b:0:10000:65536", 65536, INV, "make_vfsuid: outside every extent -> INVALID" },
	{ "b:1:1:65536", 0, INV, "make_vfsuid: identity without 0 leaves 0 unmapped" },
	{ "b:1000:2000:1", 1000, 2000, "make_vfsuid: single id" },
	{ "b:1000:2000:1", 1001, INV, "make_vfsuid: single id, neighbour unmapped" },
	{ "b:0:0:1000,b:1000:1001:1,b:1001:1000:1,b:1002:1002:64534", 1000, 1001, "circular swap" },
	{ "b:0:0:1000,b:1000:1001:1,b:1001:1000:1,b:1002:1002:64534", 1001, 1000, "circular swap" },
	{ "b:0:10000:1000,b:1000:21000:1000,b:3000:3000:1000", 1500, 21500, "multi-extent: second extent" },
	{ "b:0:10000:1000,b:1000:21000:1000,b:3000:3000:1000", 2500, INV, "multi-extent: gap" },
	/* more than UID_GID_MAP_MAX_BASE_EXTENTS (5) extents, written
	 * unsorted: the kernel sorts them and bsearches (map_id_range_down_max) */
#define SPARSE "u:69999:69999:1,u:20000:2000:1,u:10000:10000:999,u:999:10999:2," \
	       "u:2000:1000:1,u:1001:1001:1,u:0:0:1"
	{ SPARSE, 999, 10999, "seven extents: first id of an extent" },
	{ SPARSE, 1000, 11000, "seven extents: last id of an extent" },
	{ SPARSE, 1001, 1001, "seven extents: one past an extent is the next extent's" },
	{ SPARSE, 998, INV, "seven extents: one before an extent, in a gap" },
	{ SPARSE, 10998, 10998, "seven extents: last id of a 999-id extent" },
	{ SPARSE, 69999, 69999, "seven extents: a one-id extent" },
	{ SPARSE, 70000, INV, "seven extents: one past the highest extent" },
	{ SPARSE, 20000, 2000, "seven extents: the last extent written" },
};

int main(void)
{
	int n = (int)(sizeof(rows) / sizeof(rows[0])), i, plan = 2 * n + 6;
	struct vt_midmap m;
	struct vt_mns ns0;
	char err[200], name[300];

	unit_begin(plan);
	for (i = 0; i < n; i++) {
		vt_vfsuid_t v;
		vt_kuid_t back;

		memset(&m, 0, sizeof(m));
		vt_mapping_parse(rows[i].map, &m.map, err, sizeof(err));
		v = vt_make_vfsuid(&m, &vt_init_ns, vt_kuid(rows[i].disk));
		snprintf(name, sizeof(name), "%s: disk %u -> vfs %d [%s]", rows[i].map, rows[i].disk,
			 (int)rows[i].vfs, rows[i].rule);
		unit_check(v.val == rows[i].vfs, name);
		back = vt_from_vfsuid(&m, &vt_init_ns, v);
		snprintf(name, sizeof(name), "%s: from_vfsuid(make_vfsuid(%u)) round trip [from_vfsuid: map_id_up]",
			 rows[i].map, rows[i].disk);
		unit_check(rows[i].vfs == INV ? back.val == INV : back.val == rows[i].disk, name);
	}
	unit_check(!vt_vfsuid_eq(vt_vfsuid(INV), vt_vfsuid(INV)),
		   "vfsuid_eq(INVALID, INVALID) is false [4d0548a7b806]");
	unit_check(vt_vfsuid_eq(vt_vfsuid(5), vt_vfsuid(5)), "vfsuid_eq of equal valid ids [vfsuid_eq]");
	unit_check(vt_make_vfsuid(&vt_nop_idmap, &vt_init_ns, vt_kuid(70000)).val == 70000,
		   "nop_mnt_idmap passes ids through [make_vfsuid: idmap == &nop_mnt_idmap]");
	memset(&ns0, 0, sizeof(ns0));
	ns0.parent = &vt_init_ns;
	vt_mapping_parse("b:0:10000:65536", &ns0.map, err, sizeof(err));
	unit_check(vt_make_kuid(&ns0, vt_cuid(1000)).val == 11000, "make_kuid(ns0, 1000) = 11000 [map_id_down]");
	unit_check(vt_from_kuid(&ns0, vt_kuid(5)).val == INV, "from_kuid(ns0, 5) = -1 [map_id_up]");
	unit_check(vt_from_kuid_munged(&ns0, vt_kuid(5), 65534).val == 65534,
		   "from_kuid_munged -> overflowuid [from_kuid_munged]");
	return unit_end();
}
