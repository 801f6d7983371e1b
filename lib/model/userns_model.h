/* User namespaces as the model sees them: a chain of maps up to the
 * initial namespace, and the capability rule (kernel/user_namespace.c,
 * security/commoncap.c: cap_capable). */
#ifndef VT_MODEL_USERNS_H
#define VT_MODEL_USERNS_H

#include "model/ids.h"
#include "world/idmap_spec.h"

#include <stdint.h>

struct vt_mns {
	const char *name;		/* "init", "ns0", ... for messages */
	const struct vt_mns *parent;	/* NULL: the initial namespace */
	struct vt_mapping map;		/* uid_map/gid_map: FIRST inside -> LOWER in parent */
	vt_kuid_t owner;		/* euid of the creator (ns->owner) */
};

/* map_id_range_down() (for one id: map_id_down) and map_id_up()
 * (kernel/user_namespace.c): the extent of MAP holding ID, FIRST -> LOWER
 * or LOWER -> FIRST; false if none. The one lookup every translation of
 * the model ends in, user namespaces' and mount idmaps' alike (the
 * kernel's make_kuid and make_vfsuid both call map_id_down); each is a
 * mutation point (break.h: #past-end). */
bool vt_map_id_down(const struct vt_idmap *map, uint32_t id, uint32_t *out);
bool vt_map_id_up(const struct vt_idmap *map, uint32_t id, uint32_t *out);

/* The initial user namespace (identity, no parent). */
extern const struct vt_mns vt_init_ns;

static inline bool vt_ns_is_init(const struct vt_mns *ns) { return ns->parent == NULL; }
int vt_ns_level(const struct vt_mns *ns);

/* make_kuid()/make_kgid(): id in NS -> kernel id (INVALID if unmapped). */
vt_kuid_t vt_make_kuid(const struct vt_mns *ns, vt_cuid_t id);
vt_kgid_t vt_make_kgid(const struct vt_mns *ns, vt_cgid_t id);
/* from_kuid()/from_kgid(): kernel id -> id in NS ((uid_t)-1 if unmapped). */
vt_cuid_t vt_from_kuid(const struct vt_mns *ns, vt_kuid_t k);
vt_cgid_t vt_from_kgid(const struct vt_mns *ns, vt_kgid_t k);
/* from_kuid_munged(): unmapped ids become overflowuid (stat(2)). */
vt_cuid_t vt_from_kuid_munged(const struct vt_mns *ns, vt_kuid_t k, uint32_t overflowid);
vt_cgid_t vt_from_kgid_munged(const struct vt_mns *ns, vt_kgid_t k, uint32_t overflowid);

/* Linux capability numbers used by the model (include/uapi/linux/capability.h). */
enum {
	VT_CAP_CHOWN = 0,
	VT_CAP_DAC_OVERRIDE = 1,
	VT_CAP_DAC_READ_SEARCH = 2,
	VT_CAP_FOWNER = 3,
	VT_CAP_FSETID = 4,
	VT_CAP_LINUX_IMMUTABLE = 9,
	VT_CAP_NET_RAW = 13,
	VT_CAP_SYS_ADMIN = 21,
	VT_CAP_MKNOD = 27,
	VT_CAP_LEASE = 28,
	VT_CAP_SETFCAP = 31,
};
#define VT_CAPBIT(c) (1ULL << (c))

#endif
