/* Mapping specs as users write them: "b:0:1000:1", "u:0:10000:65536,g:0:20000:65536".
 *
 * Each extent is KIND:FIRST:LOWER:COUNT, in the order of a line of
 * /proc/PID/uid_map (user_namespaces(7)): ids FIRST..FIRST+COUNT-1 inside
 * the namespace correspond to LOWER..LOWER+COUNT-1 outside it. For an
 * idmapped mount, FIRST is the id stored on disk and LOWER the id seen
 * through the mount. KIND is u (uid), g (gid) or b (both). Extents are
 * separated by ',' or white space. */
#ifndef VT_IDMAP_SPEC_H
#define VT_IDMAP_SPEC_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

/* UID_GID_MAP_MAX_EXTENTS, include/linux/user_namespace.h (since 4.15). */
#define VT_MAX_EXTENTS 340

struct vt_extent {
	uint32_t first;
	uint32_t lower;
	uint32_t count;
};

struct vt_idmap {
	unsigned int nr;
	struct vt_extent ext[VT_MAX_EXTENTS];
};

struct vt_mapping {
	struct vt_idmap uid;
	struct vt_idmap gid;
};

/* Parses SPEC into *OUT. On error returns -1 and writes one line that names
 * the problem (and the offending extent) into ERR. Validation follows
 * map_write() in kernel/user_namespace.c: count 0, FIRST+COUNT or
 * LOWER+COUNT past 2^32-1, overlapping FIRST or LOWER ranges, more than
 * VT_MAX_EXTENTS extents of one kind. */
int vt_mapping_parse(const char *spec, struct vt_mapping *out, char *err, size_t errlen);

/* Formats one idmap as the text to write to uid_map/gid_map. */
int vt_idmap_format(const struct vt_idmap *map, char *buf, size_t len);

/* Formats the whole mapping back into spec form (u:/g: extents). */
int vt_mapping_format(const struct vt_mapping *m, char *buf, size_t len);

/* map_id_down(): id inside the namespace -> id outside; false if unmapped. */
bool vt_idmap_down(const struct vt_idmap *map, uint32_t id, uint32_t *out);
/* map_id_up(): id outside -> id inside; false if unmapped. */
bool vt_idmap_up(const struct vt_idmap *map, uint32_t id, uint32_t *out);

#endif
