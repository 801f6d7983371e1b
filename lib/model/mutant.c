/* Model mutants (break.h): the registry of mutation points, VT_MODEL_BREAK,
 * and the mutable wrappers of the translation and capability-scope helpers
 * (mutant_points.h). Each wrapper computes the real value and what each
 * of its operators would give, records where they differ (for the
 * scorer's pruning and its equivalence reasons), and returns the value of
 * the operator switched on, if any. The raw helpers are called as
 * "(vt_make_vfsuid)(...)", past the macros. */
#include "model/rules.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint8_t *vt_mp_seen;

extern struct vt_mpoint *const __start_vt_mpoints[] __attribute__((weak));
extern struct vt_mpoint *const __stop_vt_mpoints[] __attribute__((weak));

static struct vt_mpoint **reg;
static int nreg = -1;
static const char *env_spec;
static int env_n;

static const char *base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static int cmp_point(const void *a, const void *b)
{
	const struct vt_mpoint *x = *(struct vt_mpoint *const *)a, *y = *(struct vt_mpoint *const *)b;
	int c = strcmp(base(x->file), base(y->file));

	if (!c)
		c = strcmp(x->func, y->func);
	if (!c)
		c = strcmp(x->kfn, y->kfn);
	if (!c)
		c = x->line - y->line;
	if (!c)
		c = x < y ? -1 : x > y;	/* two points on one line: their order in the section */
	return c;
}

/* "VT_R_CHOWN_OK" -> the rule, for a guard's kernel function */
static const struct {
	const char *name;
	enum vt_rule rule;
} rule_names[] = {
#define VT_RULE_NAME(e, slug, kind, need, text) { "VT_R_" #e, VT_R_##e },
	VT_RULE_TABLE(VT_RULE_NAME)
#undef VT_RULE_NAME
};

static enum vt_rule guard_rule(const struct vt_mpoint *p)
{
	size_t k;

	for (k = 0; k < sizeof(rule_names) / sizeof(rule_names[0]); k++)
		if (strcmp(rule_names[k].name, p->kfn) == 0)
			return rule_names[k].rule;
	return VT_R_NONE;
}

void vt_mp_init(void)
{
	struct vt_mpoint *const *q;
	int n = 0, k;

	if (nreg >= 0)
		return;
	nreg = 0;
	for (q = __start_vt_mpoints; q && q < __stop_vt_mpoints; q++)
		n++;
	reg = calloc((size_t)n + 1, sizeof(*reg));
	if (!reg)
		abort();	/* the model cannot run without its registry */
	for (q = __start_vt_mpoints; q && q < __stop_vt_mpoints; q++) {
		struct vt_mpoint *p = *q;

		/* VT_FAIL(e, ENOSYS, VT_R_NONE): "not modelled", not a guard */
		if (p->kind == VT_MPK_GUARD && strcmp(p->kfn, "VT_R_NONE") == 0)
			p->kind = VT_MPK_NONE;
		if (p->kind != VT_MPK_NONE)
			reg[nreg++] = p;
	}
	qsort(reg, (size_t)nreg, sizeof(*reg), cmp_point);
	/* points that are not mutants share the spare slot after the last */
	for (q = __start_vt_mpoints; q && q < __stop_vt_mpoints; q++)
		if ((*q)->kind == VT_MPK_NONE)
			(*q)->idx = nreg;
	for (k = 0; k < nreg; k++) {
		reg[k]->idx = k;
		reg[k]->ord = 1;
		if (k > 0 && strcmp(base(reg[k]->file), base(reg[k - 1]->file)) == 0 &&
		    strcmp(reg[k]->func, reg[k - 1]->func) == 0 &&
		    strcmp(reg[k]->kfn, reg[k - 1]->kfn) == 0)
			reg[k]->ord = reg[k - 1]->ord + 1;
	}
	env_spec = getenv("VT_MODEL_BREAK");
	if (env_spec && *env_spec)
		env_n = vt_mut_set(env_spec);
	else
		env_spec = NULL;
}

int vt_mp_count(void)
{
	vt_mp_init();
	return nreg;
}

struct vt_mpoint *vt_mp_get(int i)
{
	vt_mp_init();
	return i >= 0 && i < nreg ? reg[i] : NULL;
}

/* The helpers that take the filesystem's namespace (sb->s_user_ns,
 * i_user_ns): their points have #fs-init-ns too; the kuid/kgid_has_mapping
 * points (of s_user_ns only) have nothing else. */
static bool takes_fs_ns(const char *kfn)
{
	static const char *const fs_helpers[] = {
		"make_vfsuid", "make_vfsgid", "from_vfsuid", "from_vfsgid", "i_uid_into_vfsuid",
		"i_gid_into_vfsgid", "vfsuid_has_fsmapping", "vfsgid_has_fsmapping",
		"kuid_has_mapping", "kgid_has_mapping",
	};
	size_t k;

	for (k = 0; k < sizeof(fs_helpers) / sizeof(fs_helpers[0]); k++)
		if (strcmp(kfn, fs_helpers[k]) == 0)
			return true;
	return false;
}

unsigned int vt_mp_ops(const struct vt_mpoint *p)
{
	switch (p->kind) {
	case VT_MPK_UID:
	case VT_MPK_GID:
		if (strcmp(p->kfn, "kuid_has_mapping") == 0 || strcmp(p->kfn, "kgid_has_mapping") == 0)
			return VT_MOP_FS_INIT;
		return VT_MOP_IDENTITY | VT_MOP_SWAP | (takes_fs_ns(p->kfn) ? VT_MOP_FS_INIT : 0);
	case VT_MPK_GUARD:
		return VT_MOP_REMOVED;
	case VT_MPK_CAP:
		return VT_MOP_UNTRANSLATED;
	case VT_MPK_RANGE:
		return VT_MOP_PAST_END;
	case VT_MPK_SBNS:
		return VT_MOP_FS_INIT;
	case VT_MPK_LAYER:
		return VT_MOP_OTHER_LAYER;
	default:
		return 0;
	}
}

const char *vt_mutop_name(unsigned int op)
{
	switch (op) {
	case VT_MOP_IDENTITY:
		return "identity";
	case VT_MOP_SWAP:
		return "swap";
	case VT_MOP_REMOVED:
		return "removed";
	case VT_MOP_UNTRANSLATED:
		return "untranslated";
	case VT_MOP_PAST_END:
		return "past-end";
	case VT_MOP_FS_INIT:
		return "fs-init-ns";
	case VT_MOP_OTHER_LAYER:
		return "other-layer";
	default:
		return "?";
	}
}

void vt_mp_id(const struct vt_mpoint *p, unsigned int op, char *buf, size_t len)
{
	char kfn[128], ord[16] = "";

	if (p->kind == VT_MPK_GUARD) {
		enum vt_rule r = guard_rule(p);

		/* a guard is named by its rule's slug, or by the variable
		 * holding the rule ("guard[rule]") */
		char *d;

		snprintf(kfn, sizeof(kfn), "guard[%s]", r != VT_R_NONE ? vt_rule_info(r)->slug : p->kfn);
		/* an expression as written, without its blanks */
		for (d = kfn; *d; d++)
			if (*d == ' ' || *d == '\t')
				memmove(d, d + 1, strlen(d)), d--;
	} else {
		snprintf(kfn, sizeof(kfn), "%s", p->kfn);
	}
	if (p->ord > 1)
		snprintf(ord, sizeof(ord), ".%d", p->ord);
	snprintf(buf, len, "%s:%s/%s%s#%s", base(p->file), p->func, kfn, ord, vt_mutop_name(op));
}

const char *vt_mp_kernel_text(const struct vt_mpoint *p)
{
	static const struct {
		const char *kfn, *text;
	} helpers[] = {
		{ "make_vfsuid", "make_vfsuid (fs/mnt_idmapping.c)" },
		{ "make_vfsgid", "make_vfsgid (fs/mnt_idmapping.c)" },
		{ "from_vfsuid", "from_vfsuid (fs/mnt_idmapping.c)" },
		{ "from_vfsgid", "from_vfsgid (fs/mnt_idmapping.c)" },
		{ "i_uid_into_vfsuid", "i_uid_into_vfsuid (include/linux/fs.h)" },
		{ "i_gid_into_vfsgid", "i_gid_into_vfsgid (include/linux/fs.h)" },
		{ "vfsuid_has_fsmapping", "vfsuid_has_fsmapping (include/linux/mnt_idmapping.h)" },
		{ "vfsgid_has_fsmapping", "vfsgid_has_fsmapping (include/linux/mnt_idmapping.h)" },
		{ "vfsuid_has_mapping", "vfsuid_has_mapping (include/linux/mnt_idmapping.h)" },
		{ "vfsgid_has_mapping", "vfsgid_has_mapping (include/linux/mnt_idmapping.h)" },
		{ "make_kuid", "make_kuid (kernel/user_namespace.c)" },
		{ "make_kgid", "make_kgid (kernel/user_namespace.c)" },
		{ "from_kuid", "from_kuid (kernel/user_namespace.c)" },
		{ "from_kgid", "from_kgid (kernel/user_namespace.c)" },
		{ "from_kuid_munged", "from_kuid_munged (kernel/user_namespace.c)" },
		{ "from_kgid_munged", "from_kgid_munged (kernel/user_namespace.c)" },
		{ "capable_wrt_inode_uidgid", "capable_wrt_inode_uidgid (kernel/capability.c)" },
		{ "inode_owner_or_capable", "inode_owner_or_capable (fs/inode.c)" },
		{ "in_group_or_capable", "in_group_or_capable (fs/inode.c)" },
		{ "privileged_wrt_inode_uidgid", "privileged_wrt_inode_uidgid (kernel/capability.c)" },
		{ "map_id_range_down", "map_id_range_down (kernel/user_namespace.c)" },
		{ "map_id_up", "map_id_up (kernel/user_namespace.c)" },
		{ "kuid_has_mapping", "kuid_has_mapping of sb->s_user_ns (include/linux/uidgid.h)" },
		{ "kgid_has_mapping", "kgid_has_mapping of sb->s_user_ns (include/linux/uidgid.h)" },
		{ "ns_capable", "ns_capable of sb->s_user_ns (kernel/capability.c)" },
		{ "current_in_userns", "current_in_userns of sb->s_user_ns (kernel/user_namespace.c)" },
		{ "lower_idmap", "the lower layer's mount idmap (ovl_i_path_real, ovl_path_lower: "
				 "mnt_idmap(realpath.mnt), fs/overlayfs/util.c)" },
		{ "upper_idmap", "the upper layer's mount idmap (ovl_upper_mnt_idmap, "
				 "fs/overlayfs/ovl_entry.h)" },
	};
	size_t k;

	if (p->kind == VT_MPK_GUARD) {
		enum vt_rule r = guard_rule(p);

		return r != VT_R_NONE ? vt_rule_info(r)->text
				      : "the refusal of the rule decided at run time";
	}
	for (k = 0; k < sizeof(helpers) / sizeof(helpers[0]); k++)
		if (strcmp(helpers[k].kfn, p->kfn) == 0)
			return helpers[k].text;
	return p->kfn;
}

void vt_mut_clear(void)
{
	int k;

	vt_mp_init();
	for (k = 0; k < nreg; k++)
		reg[k]->active = 0;
}

/* The first hand-written mutants, by their old names. */
static const struct {
	const char *name, *spec;
} aliases[] = {
	/* the chown target stored without from_vfsuid() */
	{ "chown-skip-mount-translation", "attr_rules.c:vt_setattr_copy/from_vfsuid#identity" },
	/* from_vfsuid() ignores every idmap (as if all mounts were plain) */
	{ "from-vfsuid-nop", "*/from_vfs[ug]id*#identity,*/vfs[ug]id_has_fsmapping*#identity" },
	/* fat_setattr compares the mount-view chown target with uid=/gid=
	 * without from_vfsuid() (what its idmapped-mount port had to fix) */
	{ "fat-setattr-skip-mount-translation", "optowner_rules.c:vt_fat_setattr/from_vfs[ug]id#identity" },
};

/* How many mutants ITEM (an id or an fnmatch(3) pattern) names in this
 * program's registry; ACTIVATE switches them on. */
static int match_item(const char *item, bool activate)
{
	char id[512];
	int k, n = 0;
	unsigned int op;

	for (k = 0; k < nreg; k++)
		for (op = 1; op <= VT_MOP__ALL; op <<= 1) {
			if (!(vt_mp_ops(reg[k]) & op))
				continue;
			vt_mp_id(reg[k], op, id, sizeof(id));
			/* an id as it is, or a pattern: a guard's id holds
			 * "[rule]", which fnmatch() reads as a bracket expression */
			if (strcmp(item, id) == 0 || fnmatch(item, id, 0) == 0) {
				if (activate)
					reg[k]->active |= op;
				n++;
			}
		}
	return n;
}

/* SPEC with each item that is an alias replaced by what it stands for */
static void expand_aliases(const char *spec, char *out, size_t len)
{
	char buf[1024], *item, *save = NULL;
	size_t a, used = 0;

	snprintf(buf, sizeof(buf), "%s", spec);
	out[0] = 0;
	for (item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		const char *x = item;

		for (a = 0; a < sizeof(aliases) / sizeof(aliases[0]); a++)
			if (strcmp(item, aliases[a].name) == 0)
				x = aliases[a].spec;
		int w = snprintf(out + used, len - used, "%s%s", used ? "," : "", x);

		if (w < 0 || (size_t)w >= len - used)
			break;	/* longer than any registry's ids together: cut */
		used += (size_t)w;
	}
}

int vt_mut_set(const char *spec)
{
	char buf[1024], *item, *save = NULL;
	int total = 0, n;

	vt_mp_init();
	expand_aliases(spec, buf, sizeof(buf));
	for (item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		n = match_item(item, true);
		if (n == 0)
			return -1;
		total += n;
	}
	return total;
}

int vt_mut_print_matches(const char *spec, FILE *out)
{
	char buf[1024], *item, *save = NULL;

	vt_mp_init();
	expand_aliases(spec, buf, sizeof(buf));
	for (item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save))
		fprintf(out, "%d\t%s\n", match_item(item, false), item);
	return fflush(out) == 0 ? 0 : -1;
}

int vt_mp_print_list(FILE *out)
{
	char id[600];
	int i;
	unsigned int b;

	vt_mp_init();
	for (i = 0; i < nreg; i++)
		for (b = 1; b <= VT_MOP__ALL; b <<= 1)
			if (vt_mp_ops(reg[i]) & b) {
				vt_mp_id(reg[i], b, id, sizeof(id));
				fprintf(out, "%s\t%s\t%d\t%s\t%s\n", id, reg[i]->file, reg[i]->line,
					reg[i]->func, vt_mp_kernel_text(reg[i]));
			}
	return fflush(out) == 0 ? 0 : -1;
}

const char *vt_mut_env(int *n)
{
	vt_mp_init();
	*n = env_n;
	return env_spec;
}

/* The value of the operator switched on at P (REAL if none), after
 * recording which operators differ from REAL there; FSINIT: the value with
 * the filesystem's namespace taken as the initial one (REAL where the
 * helper takes none). */
static uint32_t pick_fs(struct vt_mpoint *p, uint32_t real, uint32_t ident, uint32_t swapped,
			uint32_t fsinit)
{
	unsigned int on = vt_mp_touch(p, (real != ident ? VT_MOP_IDENTITY : 0) |
					 (real != swapped ? VT_MOP_SWAP : 0) |
					 (real != fsinit ? VT_MOP_FS_INIT : 0));

	if (on & VT_MOP_IDENTITY)
		return ident;
	if (on & VT_MOP_SWAP)
		return swapped;
	if (on & VT_MOP_FS_INIT)
		return fsinit;
	return real;
}

static uint32_t pick(struct vt_mpoint *p, uint32_t real, uint32_t ident, uint32_t swapped)
{
	return pick_fs(p, real, ident, swapped, real);
}

/* make_vfsuid with &nop_mnt_idmap is the kuid itself; swapped: the gid
 * map applied to the same number */
vt_vfsuid_t vt_mp_make_vfsuid(struct vt_mpoint *p, const struct vt_midmap *m,
			      const struct vt_mns *ns, vt_kuid_t k)
{
	return vt_vfsuid(pick_fs(p, (vt_make_vfsuid)(m, ns, k).val, k.val,
				 (vt_make_vfsgid)(m, ns, vt_kgid(k.val)).val,
				 (vt_make_vfsuid)(m, &vt_init_ns, k).val));
}

vt_vfsgid_t vt_mp_make_vfsgid(struct vt_mpoint *p, const struct vt_midmap *m,
			      const struct vt_mns *ns, vt_kgid_t k)
{
	return vt_vfsgid(pick_fs(p, (vt_make_vfsgid)(m, ns, k).val, k.val,
				 (vt_make_vfsuid)(m, ns, vt_kuid(k.val)).val,
				 (vt_make_vfsgid)(m, &vt_init_ns, k).val));
}

vt_kuid_t vt_mp_from_vfsuid(struct vt_mpoint *p, const struct vt_midmap *m,
			    const struct vt_mns *ns, vt_vfsuid_t v)
{
	return vt_kuid(pick_fs(p, (vt_from_vfsuid)(m, ns, v).val, v.val,
			       (vt_from_vfsgid)(m, ns, vt_vfsgid(v.val)).val,
			       (vt_from_vfsuid)(m, &vt_init_ns, v).val));
}

vt_kgid_t vt_mp_from_vfsgid(struct vt_mpoint *p, const struct vt_midmap *m,
			    const struct vt_mns *ns, vt_vfsgid_t v)
{
	return vt_kgid(pick_fs(p, (vt_from_vfsgid)(m, ns, v).val, v.val,
			       (vt_from_vfsuid)(m, ns, vt_vfsuid(v.val)).val,
			       (vt_from_vfsgid)(m, &vt_init_ns, v).val));
}

vt_vfsuid_t vt_mp_i_uid_into_vfsuid(struct vt_mpoint *p, const struct vt_world *w,
				    const struct vt_minode *i)
{
	return vt_vfsuid(pick_fs(p, (vt_i_uid_into_vfsuid)(w, i).val, i->uid.val,
				 (vt_make_vfsgid)(w->idmap, w->fs_ns, vt_kgid(i->uid.val)).val,
				 (vt_make_vfsuid)(w->idmap, &vt_init_ns, i->uid).val));
}

vt_vfsgid_t vt_mp_i_gid_into_vfsgid(struct vt_mpoint *p, const struct vt_world *w,
				    const struct vt_minode *i)
{
	return vt_vfsgid(pick_fs(p, (vt_i_gid_into_vfsgid)(w, i).val, i->gid.val,
				 (vt_make_vfsuid)(w->idmap, w->fs_ns, vt_kuid(i->gid.val)).val,
				 (vt_make_vfsgid)(w->idmap, &vt_init_ns, i->gid).val));
}

/* with &nop_mnt_idmap from_vfsuid() is the identity: valid unless invalid */
bool vt_mp_vfsuid_has_fsmapping(struct vt_mpoint *p, const struct vt_midmap *m,
				const struct vt_mns *ns, vt_vfsuid_t v)
{
	return pick_fs(p, (vt_vfsuid_has_fsmapping)(m, ns, v), vt_vfsuid_valid(v),
		       (vt_vfsgid_has_fsmapping)(m, ns, vt_vfsgid(v.val)),
		       (vt_vfsuid_has_fsmapping)(m, &vt_init_ns, v));
}

bool vt_mp_vfsgid_has_fsmapping(struct vt_mpoint *p, const struct vt_midmap *m,
				const struct vt_mns *ns, vt_vfsgid_t v)
{
	return pick_fs(p, (vt_vfsgid_has_fsmapping)(m, ns, v), vt_vfsgid_valid(v),
		       (vt_vfsuid_has_fsmapping)(m, ns, vt_vfsuid(v.val)),
		       (vt_vfsgid_has_fsmapping)(m, &vt_init_ns, v));
}

/* identity: asked of the initial namespace, where every valid id maps */
bool vt_mp_vfsuid_has_mapping(struct vt_mpoint *p, const struct vt_mns *ns, vt_vfsuid_t v)
{
	return pick(p, (vt_vfsuid_has_mapping)(ns, v), vt_vfsuid_valid(v),
		    (vt_vfsgid_has_mapping)(ns, vt_vfsgid(v.val)));
}

bool vt_mp_vfsgid_has_mapping(struct vt_mpoint *p, const struct vt_mns *ns, vt_vfsgid_t v)
{
	return pick(p, (vt_vfsgid_has_mapping)(ns, v), vt_vfsgid_valid(v),
		    (vt_vfsuid_has_mapping)(ns, vt_vfsuid(v.val)));
}

/* kuid_has_mapping(s_user_ns, k); #fs-init-ns: asked of the initial
 * namespace, where every valid id maps (the point's only operator) */
bool vt_mp_sb_kuid_has_mapping(struct vt_mpoint *p, const struct vt_mns *fs_ns, vt_kuid_t k)
{
	bool real = vt_kuid_has_mapping(fs_ns, k);

	return pick_fs(p, real, real, real, vt_kuid_valid(k));
}

bool vt_mp_sb_kgid_has_mapping(struct vt_mpoint *p, const struct vt_mns *fs_ns, vt_kgid_t k)
{
	bool real = vt_kgid_has_mapping(fs_ns, k);

	return pick_fs(p, real, real, real, vt_kgid_valid(k));
}

/* ns_capable(s_user_ns, cap); #fs-init-ns: capable(cap) */
bool vt_mp_sb_ns_capable(struct vt_mpoint *p, const struct vt_world *w, int cap)
{
	bool real = vt_ns_capable(w, w->fs_ns, cap);

	return pick_fs(p, real, real, real, vt_capable(w, cap));
}

/* current_in_userns(s_user_ns) (kernel/user_namespace.c: the caller's
 * namespace or one of its ancestors is s_user_ns); #fs-init-ns: the
 * initial namespace, every caller's ancestor */
bool vt_mp_current_in_sb_userns(struct vt_mpoint *p, const struct vt_world *w)
{
	bool real = vt_current_in_userns(w, w->fs_ns);

	return pick_fs(p, real, real, real, true);
}

/* identity: the id taken as if the namespace were the initial one */
vt_kuid_t vt_mp_make_kuid(struct vt_mpoint *p, const struct vt_mns *ns, vt_cuid_t id)
{
	return vt_kuid(pick(p, (vt_make_kuid)(ns, id).val, id.val,
			    (vt_make_kgid)(ns, vt_cgid(id.val)).val));
}

vt_kgid_t vt_mp_make_kgid(struct vt_mpoint *p, const struct vt_mns *ns, vt_cgid_t id)
{
	return vt_kgid(pick(p, (vt_make_kgid)(ns, id).val, id.val,
			    (vt_make_kuid)(ns, vt_cuid(id.val)).val));
}

vt_cuid_t vt_mp_from_kuid(struct vt_mpoint *p, const struct vt_mns *ns, vt_kuid_t k)
{
	return vt_cuid(pick(p, (vt_from_kuid)(ns, k).val, k.val,
			    (vt_from_kgid)(ns, vt_kgid(k.val)).val));
}

vt_cgid_t vt_mp_from_kgid(struct vt_mpoint *p, const struct vt_mns *ns, vt_kgid_t k)
{
	return vt_cgid(pick(p, (vt_from_kgid)(ns, k).val, k.val,
			    (vt_from_kuid)(ns, vt_kuid(k.val)).val));
}

vt_cuid_t vt_mp_from_kuid_munged(struct vt_mpoint *p, const struct vt_mns *ns, vt_kuid_t k,
				 uint32_t ov)
{
	return vt_cuid(pick(p, (vt_from_kuid_munged)(ns, k, ov).val, k.val,
			    (vt_from_kgid_munged)(ns, vt_kgid(k.val), ov).val));
}

vt_cgid_t vt_mp_from_kgid_munged(struct vt_mpoint *p, const struct vt_mns *ns, vt_kgid_t k,
				 uint32_t ov)
{
	return vt_cgid(pick(p, (vt_from_kgid_munged)(ns, k, ov).val, k.val,
			    (vt_from_kuid_munged)(ns, vt_kuid(k.val), ov).val));
}

/* Capability scope on untranslated ids: the helper evaluated as if the
 * mount were not idmapped. Computed for the record only when the scorer
 * watches (then without a trace, so the real outcome's record stays). */
static const struct vt_world *untranslated(struct vt_mpoint *p, const struct vt_world *w,
					   struct vt_world *copy, bool *on)
{
	*on = (p->active & VT_MOP_UNTRANSLATED) != 0;
	if (!*on && !vt_mp_seen)
		return NULL;
	*copy = *w;
	copy->idmap = &vt_nop_idmap;
	if (!*on)
		copy->trace = NULL;
	return copy;
}

enum vt_capw vt_mp_capable_wrt(struct vt_mpoint *p, const struct vt_world *w,
			       const struct vt_minode *i, int cap)
{
	struct vt_world copy;
	bool on;
	const struct vt_world *u = untranslated(p, w, &copy, &on);
	enum vt_capw alt = u ? (vt_capable_wrt)(u, i, cap) : VT_CAPW_NONE;
	enum vt_capw real = (vt_capable_wrt)(w, i, cap);

	vt_mp_touch(p, u && alt != real ? VT_MOP_UNTRANSLATED : 0);
	return on ? alt : real;
}

bool vt_mp_capable_wrt_inode_uidgid(struct vt_mpoint *p, const struct vt_world *w,
				    const struct vt_minode *i, int cap)
{
	struct vt_world copy;
	bool on;
	const struct vt_world *u = untranslated(p, w, &copy, &on);
	bool alt = u ? (vt_capable_wrt_inode_uidgid)(u, i, cap) : false;
	bool real = (vt_capable_wrt_inode_uidgid)(w, i, cap);

	vt_mp_touch(p, u && alt != real ? VT_MOP_UNTRANSLATED : 0);
	return on ? alt : real;
}

bool vt_mp_inode_owner_or_capable(struct vt_mpoint *p, const struct vt_world *w,
				  const struct vt_minode *i)
{
	struct vt_world copy;
	bool on;
	const struct vt_world *u = untranslated(p, w, &copy, &on);
	bool alt = u ? (vt_inode_owner_or_capable)(u, i) : false;
	bool real = (vt_inode_owner_or_capable)(w, i);

	vt_mp_touch(p, u && alt != real ? VT_MOP_UNTRANSLATED : 0);
	return on ? alt : real;
}

bool vt_mp_privileged_wrt_inode_uidgid(struct vt_mpoint *p, const struct vt_world *w,
					const struct vt_mns *ns, const struct vt_minode *i)
{
	struct vt_world copy;
	bool on;
	const struct vt_world *u = untranslated(p, w, &copy, &on);
	bool alt = u ? (vt_privileged_wrt_inode_uidgid)(u, ns, i) : false;
	bool real = (vt_privileged_wrt_inode_uidgid)(w, ns, i);

	vt_mp_touch(p, u && alt != real ? VT_MOP_UNTRANSLATED : 0);
	return on ? alt : real;
}

bool vt_mp_in_group_or_capable(struct vt_mpoint *p, const struct vt_world *w,
			       const struct vt_minode *i, vt_vfsgid_t g)
{
	struct vt_world copy;
	bool on;
	const struct vt_world *u = untranslated(p, w, &copy, &on);
	bool alt = u ? (vt_in_group_or_capable)(u, i, g) : false;
	bool real = (vt_in_group_or_capable)(w, i, g);

	vt_mp_touch(p, u && alt != real ? VT_MOP_UNTRANSLATED : 0);
	return on ? alt : real;
}

/* records its outcome: only the value returned is computed with the trace */
bool vt_mp_in_group_or_capable_hit(struct vt_mpoint *p, const struct vt_world *w,
				   const struct vt_minode *i, vt_vfsgid_t g, enum vt_rule site)
{
	struct vt_world copy, quiet;
	bool on, alt, real;
	const struct vt_world *u = untranslated(p, w, &copy, &on);

	if (on) {
		alt = (vt_in_group_or_capable_hit)(u, i, g, site);
		vt_mp_touch(p, 0);
		return alt;
	}
	real = (vt_in_group_or_capable_hit)(w, i, g, site);
	if (u) {
		quiet = *w;
		quiet.trace = NULL;
		alt = (vt_in_group_or_capable_hit)(u, i, g, site);
		vt_mp_touch(p, alt != (vt_in_group_or_capable_hit)(&quiet, i, g, site)
				       ? VT_MOP_UNTRANSLATED : 0);
	} else {
		vt_mp_touch(p, 0);
	}
	return real;
}

/* Do two mount idmaps translate every id alike? (both plain, or the same
 * extents) */
static bool same_idmap(const struct vt_midmap *a, const struct vt_midmap *b)
{
	if (a == b || (a->nop && b->nop))
		return true;
	if (a->nop || b->nop)
		return false;
	return memcmp(&a->map, &b->map, sizeof(a->map)) == 0;
}

/* An overlay layer's idmap (overlay_model.c); #other-layer: the other
 * layer's, where the two differ */
const struct vt_midmap *vt_mp_layer_idmap(struct vt_mpoint *p, const struct vt_midmap *mine,
					  const struct vt_midmap *other)
{
	unsigned int on = vt_mp_touch(p, same_idmap(mine, other) ? 0 : VT_MOP_OTHER_LAYER);

	return (on & VT_MOP_OTHER_LAYER) ? other : mine;
}
