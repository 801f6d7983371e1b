/* The model's unit tests (test-model-rules, test-model-vfat): a world
 * with a mount idmap and a caller, everything else zero. */
#ifndef VT_UNIT_MODEL_H
#define VT_UNIT_MODEL_H

#include "model/world_model.h"

#include <string.h>

#define UNIT_NOGROUP 0xffffffffu

/* W reached through the mount idmap SPEC (NULL: the plain mount), kept in
 * M, by a caller of namespace NS with UID/GID, one supplementary GROUP
 * (UNIT_NOGROUP: none) and CAPS; the fs's s_user_ns is the initial one. */
static inline void unit_world(struct vt_world *w, struct vt_midmap *m, const char *spec,
			      const struct vt_mns *ns, uint32_t uid, uint32_t gid, uint32_t group,
			      uint64_t caps)
{
	char err[200];

	memset(w, 0, sizeof(*w));
	memset(m, 0, sizeof(*m));
	m->nop = spec == NULL;
	m->name = spec ? spec : "none";
	if (spec)
		vt_mapping_parse(spec, &m->map, err, sizeof(err));
	w->fs_ns = &vt_init_ns;
	w->idmap = m;
	w->cred.ns = ns;
	w->cred.uid = w->cred.fsuid = vt_cuid(uid);
	w->cred.gid = w->cred.fsgid = vt_cgid(gid);
	if (group != UNIT_NOGROUP) {
		w->cred.ngroups = 1;
		w->cred.groups[0] = vt_cgid(group);
	}
	w->cred.caps = caps;
	w->overflowuid = w->overflowgid = 65534;
}

#endif
