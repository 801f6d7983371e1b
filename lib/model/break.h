/* Model mutants: deliberately wrong versions of the model, generated from
 * its code. Every place where the model translates an id, refuses an
 * operation, or evaluates a capability's scope is a mutation point
 * (struct vt_mpoint), registered by the macro that marks it, so a new
 * translation or guard gets its mutants without anyone listing them:
 *
 *   translation points (mutant_points.h): each call, in a rule file, of
 *     make_vfsuid/gid, from_vfsuid/gid, i_uid_into_vfsuid/i_gid_into_vfsgid,
 *     vfsuid/gid_has_fsmapping, vfsuid/gid_has_mapping, make_kuid/gid,
 *     from_kuid/gid(_munged): ACL e_id and fscaps rootid on get and set,
 *     owner on create, chown targets, exec's euid/egid all go through them.
 *       #identity  the translation is skipped (the &nop_mnt_idmap or
 *                  &init_user_ns mistake: the id is used as it came)
 *       #swap      the uid helper used for a gid or the gid one for a uid
 *                  (the other map translates the same number)
 *   guard points (VT_FAIL, VT_REFUSE in rules.h): each EPERM/EACCES/
 *     EOVERFLOW/EINVAL/... refusal the model makes
 *       #removed   the refusal does not happen; the operation goes on
 *   capability-scope points: each call of capable_wrt_inode_uidgid,
 *     inode_owner_or_capable, in_group_or_capable
 *       #untranslated  evaluated on the inode's ids without the mount's
 *                  idmap (the scope decided on unmapped ids)
 *       #fs-init-ns  (those that take the filesystem's namespace:
 *                  make_vfsuid/gid, from_vfsuid/gid, i_uid_into_vfsuid,
 *                  i_gid_into_vfsgid, vfsuid/gid_has_fsmapping, and the
 *                  kuid/kgid_has_mapping(s_user_ns) checks of
 *                  fsuidgid_has_mapping, posix_acl_valid, cap_convert_nscap)
 *                  sb->s_user_ns taken as the initial namespace, where every
 *                  valid kernel id is itself: the mistake only a filesystem
 *                  mounted inside a user namespace shows (axes.c: the userns
 *                  maps)
 *   s_user_ns scope points: each decision taken over sb->s_user_ns
 *     itself, not over the caller's namespace: ns_capable(s_user_ns, cap)
 *     (chown_ok, chgrp_ok, cap_convert_nscap) and current_in_userns(
 *     s_user_ns) (mnt_may_suid, get_file_caps)
 *       #fs-init-ns  the initial namespace asked instead (capable(cap);
 *                  current_in_userns(&init_user_ns), which always holds)
 *   layer points (overlay_model.c): the idmap of an overlay layer's mount,
 *     taken where the model reaches a lower or an upper real inode
 *       #other-layer  the other layer's idmap used instead (the lower
 *                  inode translated through the upper mount, or the
 *                  reverse): the mistake only layers with different maps show
 *   range points (userns_model.c): the extent lookup every translation
 *     of a user namespace or a mount idmap ends in (map_id_range_down,
 *     map_id_up, kernel/user_namespace.c)
 *       #past-end  an extent's last id compared with <= where < belongs:
 *                  the id one past an extent counts as inside it
 *
 * A mutant's id is stable: "<model file>:<model function>/<kernel
 * function or guard>[.<n>]#<operator>", e.g.
 * "attr_rules.c:chown_ok/i_uid_into_vfsuid#identity" (.n numbers the
 * second and later points of one kernel function in one model function,
 * in source order).
 *
 * VT_MODEL_BREAK switches mutants on for a whole process: a comma
 * separated list of ids or fnmatch(3) patterns over ids, or one of the
 * names the first hand-written mutants had (aliases below), e.g.
 *   VT_MODEL_BREAK=chown-skip-mount-translation
 *   VT_MODEL_BREAK='attr_rules.c:chown_ok/[a-z]*#untranslated'
 * The scorer (lib/matrix/mutation.c) switches them on one at a time. */
#ifndef VT_MODEL_BREAK_H
#define VT_MODEL_BREAK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum vt_mp_kind { VT_MPK_NONE, VT_MPK_UID, VT_MPK_GID, VT_MPK_GUARD, VT_MPK_CAP, VT_MPK_RANGE,
		  VT_MPK_SBNS, VT_MPK_LAYER };

/* operators (bits) */
#define VT_MOP_IDENTITY 1u
#define VT_MOP_SWAP 2u
#define VT_MOP_REMOVED 4u
#define VT_MOP_UNTRANSLATED 8u
#define VT_MOP_PAST_END 16u
#define VT_MOP_FS_INIT 32u
#define VT_MOP_OTHER_LAYER 64u
#define VT_MOP__ALL 127u
#define VT_MOP__NBITS 7	/* operators: bits 0 .. VT_MOP__NBITS - 1 (below VT_MP_REACHED) */
/* vt_mp_seen[]: the point was evaluated (the other bits: the operator's
 * value differed from the real one there) */
#define VT_MP_REACHED 0x80u

struct vt_mpoint {
	const char *file;	/* __FILE__ of the model */
	const char *func;	/* the model function (__func__) */
	const char *kfn;	/* the kernel helper, or the guard's rule expression */
	int line;
	int kind;		/* enum vt_mp_kind (NONE: not a point, e.g. VT_FAIL(VT_R_NONE)) */
	unsigned int active;	/* operators switched on */
	int idx;		/* index in the registry; -1 before vt_mp_init() */
	int ord;		/* 1 + earlier points with the same file, func, kfn */
};

/* A point here, registered in the section vt_mpoints (GNU C: a statement
 * expression holding two statics). */
#define VT_MP_(kind_, kfn_)                                                                    \
	({                                                                                     \
		static struct vt_mpoint vt_mp_here_ = { __FILE__, __func__, kfn_, __LINE__,    \
							(kind_), 0, -1, 0 };                   \
		static struct vt_mpoint *const vt_mp_reg_                                      \
			__attribute__((section("vt_mpoints"), used)) = &vt_mp_here_;           \
		(void)vt_mp_reg_;                                                              \
		&vt_mp_here_;                                                                  \
	})

/* Where the scorer records what one case evaluated (NULL: nowhere; else
 * vt_mp_count() + 1 bytes, the last for points that are not mutants):
 * vt_mp_seen[idx] |= VT_MP_REACHED | operators whose value differed. */
extern uint8_t *vt_mp_seen;

void vt_mp_init(void);
/* Records that P was evaluated (and, for OPS_DIFFER, that those operators
 * would have changed its value); returns the operators switched on. */
static inline unsigned int vt_mp_touch(struct vt_mpoint *p, unsigned int ops_differ)
{
	if (p->idx < 0)
		vt_mp_init();
	if (vt_mp_seen)
		vt_mp_seen[p->idx] |= (uint8_t)(VT_MP_REACHED | ops_differ);
	return p->active;
}

/* Guard points: is the refusal at P removed? */
static inline bool vt_mp_guard_removed(struct vt_mpoint *p)
{
	return p->kind == VT_MPK_GUARD && (vt_mp_touch(p, VT_MOP_REMOVED) & VT_MOP_REMOVED);
}

/* The registry (sorted by file, function, kernel function, line). */
int vt_mp_count(void);
struct vt_mpoint *vt_mp_get(int i);
/* The operators that apply to P's kind. */
unsigned int vt_mp_ops(const struct vt_mpoint *p);
const char *vt_mutop_name(unsigned int op);
/* "attr_rules.c:chown_ok/i_uid_into_vfsuid#identity" */
void vt_mp_id(const struct vt_mpoint *p, unsigned int op, char *buf, size_t len);
/* The kernel function P mirrors, in words (a guard: its rule's text). */
const char *vt_mp_kernel_text(const struct vt_mpoint *p);
/* Switches every mutant off. */
void vt_mut_clear(void);
/* Switches on the mutants SPEC names (see above); returns how many, or -1
 * if one of its items names none. */
int vt_mut_set(const char *spec);
/* For each item of SPEC (after the aliases): "<how many mutants of this
 * program it names>\t<item>" on OUT, nothing switched on. ./check sums
 * these over the tests it will run: an item no test knows is bad input
 * (each program registers only the model files it links). 0, or -1 on a
 * write error. */
int vt_mut_print_matches(const char *spec, FILE *out);
/* Every mutant of this program: id, model file, line, model function,
 * kernel function, tab-separated, one a line. 0, or -1 on a write error. */
int vt_mp_print_list(FILE *out);
/* VT_MODEL_BREAK as read at vt_mp_init(): NULL if unset; *N how many
 * mutants it switched on (-1: an item named none). */
const char *vt_mut_env(int *n);

#endif
