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

enum vt_caller_ns { VT_NS_INIT, VT_NS_CHILD, VT_NS_NESTED };

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

/* Model forms (filled once by vt_axes_init). */
extern struct vt_mns vt_model_ns0, vt_model_ns1;
extern struct vt_midmap vt_model_maps[];
int vt_axes_init(char *err, size_t errlen);

#endif
