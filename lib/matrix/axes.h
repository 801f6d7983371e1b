/* The axes shared by every family: mount idmaps and callers, each with its
 * real-world form (mapping spec, vt_caller) and its model form. */
#ifndef VT_MATRIX_AXES_H
#define VT_MATRIX_AXES_H

#include "model/world_model.h"
#include "world/caller.h"

struct vt_map_axis {
	const char *name;
	const char *spec;	/* NULL: the plain mount */
};

enum vt_caller_ns { VT_NS_INIT, VT_NS_CHILD, VT_NS_NESTED, VT_NS_SPLIT, VT_NS__COUNT };

struct vt_caller_axis {
	const char *name;
	enum vt_caller_ns ns;
	uint32_t uid, gid;
	int ngroups;
	uint32_t groups[4];
	const char *caps;	/* cap_from_text; NULL: all for uid 0, none otherwise */
	uint64_t capmask;	/* the same set, for the model */
	bool fsids;		/* fsuid/fsgid differ from uid/gid (setfsuid) */
	uint32_t fsuid, fsgid;
	uint64_t bset_drop;	/* dropped from the bounding set (PR_CAPBSET_DROP) */
};

extern const struct vt_map_axis vt_map_axes[];
extern const int vt_map_axis_count;
extern const struct vt_caller_axis vt_caller_axes[];
extern const int vt_caller_axis_count;

/* The callers' user namespaces: ns0 is a child of the initial namespace,
 * ns1 a child of ns0. */
#define VT_NS0_SPEC "b:0:10000:65536"
#define VT_NS1_SPEC "b:0:1000:1000"
/* ns2, a child of the initial namespace whose uid and gid maps differ
 * (issue 23: a uid helper used for a gid, or the reverse, gives another
 * kernel id only in such a namespace) */
#define VT_NS2_SPEC "u:0:10000:65536,g:0:20000:65536"

/* Model forms (filled once by vt_axes_init). */
extern struct vt_mns vt_model_ns0, vt_model_ns1, vt_model_ns2;
extern struct vt_midmap vt_model_maps[];
int vt_axes_init(char *err, size_t errlen);

/* The axes every family crosses: the first VT_MAP_AXES_BASE maps and the
 * first VT_CALLER_AXES_BASE callers. The ones after them (uid and gid maps
 * that differ, a map of more than five extents, callers in ns2) are
 * crossed only by the families whose struct vt_family sets wide_axes,
 * the ones whose rules translate ids (create, chown, setattr, permission,
 * acl, fscaps; exec, the costliest per case, only ns2's callers), which
 * keeps the whole matrix's time in bounds. */
#define VT_MAP_AXES_BASE 7
#define VT_CALLER_AXES_BASE 22
struct vt_family;
/* The (map, caller) pairs F crosses; its case IDX is in pair
 * IDX / local_count. */
int vt_family_npairs(const struct vt_family *f);
int vt_family_ncases(const struct vt_family *f);
void vt_family_pair(const struct vt_family *f, int pair, int *map, int *caller);
/* The pair of F for MAP and CALLER, -1 if F does not cross them. */
int vt_family_pair_index(const struct vt_family *f, int map, int caller);

#endif
