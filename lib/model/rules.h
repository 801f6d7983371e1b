/* Internal: the kernel predicates the operation rules are built from, one
 * function per kernel function, named after it. */
#ifndef VT_MODEL_RULES_H
#define VT_MODEL_RULES_H

#include "model/world_model.h"

/* MAY_* (include/linux/fs.h) */
#define VT_MAY_EXEC 1
#define VT_MAY_WRITE 2
#define VT_MAY_READ 4

/* current_fsuid()/current_fsgid()/current_euid() as kernel ids */
vt_kuid_t vt_cur_fsuid(const struct vt_world *w);
vt_kgid_t vt_cur_fsgid(const struct vt_world *w);
vt_kuid_t vt_cur_euid(const struct vt_world *w);

/* i_uid_into_vfsuid()/i_gid_into_vfsgid() */
vt_vfsuid_t vt_i_uid_into_vfsuid(const struct vt_world *w, const struct vt_minode *i);
vt_vfsgid_t vt_i_gid_into_vfsgid(const struct vt_world *w, const struct vt_minode *i);

bool vt_in_group_p(const struct vt_world *w, vt_kgid_t g);
bool vt_vfsgid_in_group_p(const struct vt_world *w, vt_vfsgid_t g);
bool vt_ns_capable(const struct vt_world *w, const struct vt_mns *target, int cap);
bool vt_capable(const struct vt_world *w, int cap);
/* current_in_userns(TARGET): the caller's namespace is TARGET or one of
 * its descendants (kernel/user_namespace.c in_userns) */
bool vt_current_in_userns(const struct vt_world *w, const struct vt_mns *target);
bool vt_capable_wrt_inode_uidgid(const struct vt_world *w, const struct vt_minode *i, int cap);
/* capable_wrt_inode_uidgid() split in its two halves: VT_CAPW_NONE (no
 * ns_capable), VT_CAPW_SCOPE (capable, but an inode id has no mapping in
 * the caller's userns: privileged_wrt_inode_uidgid), VT_CAPW_GRANTED. */
enum vt_capw { VT_CAPW_NONE, VT_CAPW_SCOPE, VT_CAPW_GRANTED };
enum vt_capw vt_capable_wrt(const struct vt_world *w, const struct vt_minode *i, int cap);
/* Records a final capable_wrt_inode_uidgid decision: SITE allowed or
 * denied, and CAP_SCOPE where ns_capable held. Returns granted. */
bool vt_hit_capw(const struct vt_world *w, enum vt_rule site, enum vt_capw c);
/* in_group_or_capable() whose result is final for SITE (a BRANCH). */
bool vt_in_group_or_capable_hit(const struct vt_world *w, const struct vt_minode *i,
				vt_vfsgid_t g, enum vt_rule site);
bool vt_inode_owner_or_capable(const struct vt_world *w, const struct vt_minode *i);
/* privileged_wrt_inode_uidgid(NS, idmap, inode) (kernel/capability.c):
 * the inode's uid and gid through the mount both map into NS */
bool vt_privileged_wrt_inode_uidgid(const struct vt_world *w, const struct vt_mns *ns,
				    const struct vt_minode *i);
bool vt_in_group_or_capable(const struct vt_world *w, const struct vt_minode *i, vt_vfsgid_t g);
bool vt_has_unmapped_id(const struct vt_world *w, const struct vt_minode *i);
bool vt_fsuidgid_has_mapping(const struct vt_world *w);
/* rootid_owns_currentns() (security/commoncap.c) */
bool vt_rootid_owns_currentns(const struct vt_world *w, vt_vfsuid_t v);

int vt_inode_permission(const struct vt_world *w, const struct vt_minode *i, int mask,
			enum vt_rule *rule);
int vt_inode_permission_at(const struct vt_world *w, const struct vt_minode *i, int mask,
			   enum vt_rule site, enum vt_rule *rule);
int vt_may_lookup(const struct vt_world *w, enum vt_rule *rule);
/* fs.protected_symlinks: may_follow_link() for LINK found in DIR (0,
 * -EACCES); fs.protected_regular/_fifos: may_create_in_sticky() for an
 * O_CREAT open of the existing INODE in DIR. protected_rules.c. */
int vt_may_follow_link(const struct vt_world *w, const struct vt_minode *dir,
		       const struct vt_minode *link);
int vt_may_create_in_sticky(const struct vt_world *w, const struct vt_minode *dir,
			    const struct vt_minode *inode);
/* The same for another parent directory DIR (a rename's second path). */
int vt_may_lookup_in(const struct vt_world *w, const struct vt_minode *dir, enum vt_rule *rule);

/* mode helpers */
mode_t vt_mode_strip_sgid(const struct vt_world *w, mode_t mode);
int vt_setattr_should_drop_sgid(const struct vt_world *w, const struct vt_minode *i);

/* families */
void vt_model_create(const struct vt_world *w, const struct vt_mop_args *a, struct vt_expect *e);
void vt_model_link(const struct vt_world *w, const struct vt_mop_args *a, struct vt_expect *e);
void vt_model_setattr(const struct vt_world *w, const struct vt_mop_args *a, struct vt_expect *e);
void vt_model_open_existing(const struct vt_world *w, const struct vt_mop_args *a,
			    struct vt_expect *e);
void vt_model_delete(const struct vt_world *w, const struct vt_mop_args *a, struct vt_expect *e);
void vt_model_exec(const struct vt_world *w, const struct vt_mop_args *a, struct vt_expect *e);
void vt_model_xattr(const struct vt_world *w, const struct vt_mop_args *a, struct vt_expect *e);
/* access, chdir/fchdir, O_NOATIME, F_SETLEASE, the fileattr ioctls (file_rules.c) */
/* FAT_IOCTL_SET_ATTRIBUTES (optowner_rules.c) */
void vt_model_fat_set_attrs(const struct vt_world *w, const struct vt_mop_args *a,
			    struct vt_expect *e);
void vt_model_fileop(const struct vt_world *w, const struct vt_mop_args *a, struct vt_expect *e);

/* A read-only sb (w->sb_rdonly): the refusal the VFS gives OP before the
 * operation's own rules, with the checks that come before it; true when
 * *E is decided (readonly_rules.c). */
bool vt_model_read_only(const struct vt_world *w, const struct vt_mop_args *a,
			struct vt_expect *e);

/* stat() through the mount, as the caller: e->seen_* from e->result */
void vt_model_seen(const struct vt_world *w, struct vt_expect *e);

/* posix_acl_chmod(): the access ACL follows a mode change */
void vt_posix_acl_chmod(struct vt_minode *i);

/* Records that RULE decided ALLOWED for this case and returns ALLOWED, so
 * that a check reads `if (!vt_hit(w, VT_R_X, ok)) VT_FAIL(...)`. Call it
 * only where the outcome is final for the case (rule_table.h). */
static inline bool vt_hit(const struct vt_world *w, enum vt_rule rule, bool allowed)
{
	if (w->trace)
		w->trace->ev[rule] |= allowed ? VT_EV_ALLOW : VT_EV_DENY;
	return allowed;
}

static inline void vt_set_rule(struct vt_expect *e, enum vt_rule rule)
{
	e->rule_id = rule;
	e->rule = vt_rule_info(rule)->text;
}

/* Fail the operation with ERRNO_, decided by RULE_ (recorded as its deny;
 * the world in scope is `w`, as in every model function). Each use is a
 * guard mutation point (break.h): its mutant removes the refusal and the
 * operation goes on (VT_R_NONE, "not modelled", is no guard). */
#define VT_FAIL(e, errno_, rule_)                                              \
	do {                                                                   \
		if (VT_REFUSES_(#rule_)) {                                     \
			vt_hit(w, (rule_), false);                             \
			(e)->err = (errno_);                                   \
			vt_set_rule((e), (rule_));                             \
			return;                                                \
		}                                                              \
	} while (0)

/* True unless a mutant removed the refusal here (a guard point named by
 * the rule as written, before macro expansion). */
#define VT_REFUSES(rule_) VT_REFUSES_(#rule_)
#define VT_REFUSES_(text_) (!vt_mp_guard_removed(VT_MP_(VT_MPK_GUARD, text_)))

/* In a helper returning -errno with `*rule`: refuse with ERRNO_ (positive)
 * decided by RULE_, unless a mutant removed this guard. */
#define VT_REFUSE(rule_, errno_)                                               \
	do {                                                                   \
		if (VT_REFUSES_(#rule_)) {                                     \
			*rule = (rule_);                                       \
			return -(errno_);                                      \
		}                                                              \
	} while (0)

/* Success, labelled by the OUTCOME rule RULE_. */
#define VT_SUCCEED(e, rule_)                       \
	do {                                       \
		vt_hit(w, (rule_), true);          \
		(e)->err = 0;                      \
		vt_set_rule((e), (rule_));         \
	} while (0)

/* every translation and capability-scope call below is a mutation point */
#include "model/mutant_points.h"

#endif
