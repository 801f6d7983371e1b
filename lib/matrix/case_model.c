/* A case of the matrix as the model sees it (case_model.h): its name,
 * the model world of its map and caller, the model's verdict. */
#include "matrix/case_model.h"
#include "matrix/axes.h"
#include "fs/fs_table.h"
#include "matrix/optowner_fixture.h"
#include "model/overlay_model.h"

#include <stdio.h>
#include <string.h>

void mx_case_name(const struct vt_family *f, int idx, char *buf, size_t len)
{
	struct vt_mcase c;
	int local = idx % vt_family_local_count(f), map, caller;

	vt_family_pair(f, idx / vt_family_local_count(f), &map, &caller);
	memset(&c, 0, sizeof(c));
	vt_family_make(f, local, &c);
	snprintf(buf, len, "%s/map=%s/caller=%s/%s", f->name, vt_map_axes[map].name,
		 vt_caller_axes[caller].name, c.what);
}

static void model_world(const struct mx_world *rw, int map, int caller, const struct vt_mcase *c,
			struct vt_world *w)
{
	const struct vt_caller_axis *ca = &vt_caller_axes[caller];
	int k;

	memset(w, 0, sizeof(*w));
	/* sb->s_user_ns: block filesystems and tmpfs mounted by the initial
	 * root, but the userns maps' tmpfs, made inside nsfs (axes.h) */
	w->fs_ns = vt_map_sb_userns(map) ? &vt_model_nsfs : &vt_init_ns;
	w->posixacl = rw->posixacl;
	w->optowner = c->optworld ? vt_optowner_model(c->optworld - 1) : NULL;
	w->fs_ops = w->optowner ? &vt_optowner_fs_ops : NULL;
	w->idmap = &vt_model_maps[map];
	w->cred.name = ca->name;
	w->cred.ns = ca->ns == VT_NS_INIT ? &vt_init_ns
		     : ca->ns == VT_NS_CHILD ? &vt_model_ns0
		     : ca->ns == VT_NS_SPLIT ? &vt_model_ns2 : &vt_model_ns1;
	w->cred.uid = w->cred.fsuid = vt_cuid(ca->uid);
	w->cred.gid = w->cred.fsgid = vt_cgid(ca->gid);
	if (ca->fsids) {
		w->cred.fsuid = vt_cuid(ca->fsuid);
		w->cred.fsgid = vt_cgid(ca->fsgid);
	}
	w->cred.ngroups = ca->ngroups;
	for (k = 0; k < ca->ngroups; k++)
		w->cred.groups[k] = vt_cgid(ca->groups[k]);
	w->cred.caps = ca->capmask;
	w->cred.bset_drop = ca->bset_drop;
	w->cred.umask = c->umask;
	w->dir = c->dir;
	w->obj = c->obj;
	w->other = c->other;
	w->dir2 = c->dir2;
	w->overflowuid = rw->overflowuid;
	w->overflowgid = rw->overflowgid;
	{
		const int *v = c->sysctl_set ? c->sysctl : rw->sysctl_orig;

		w->protected_symlinks = v[VT_SYSCTL_SYMLINKS];
		w->protected_hardlinks = v[VT_SYSCTL_HARDLINKS] != 0;
		w->protected_fifos = v[VT_SYSCTL_FIFOS];
		w->protected_regular = v[VT_SYSCTL_REGULAR];
	}
	w->bset_init = rw->bset_init;
	w->cap_full = rw->cap_full;
	w->suid_dumpable = rw->suid_dumpable;
}

/* A case of the overlay world (world_setup.c: mx_ovl_mount): both layers
 * are mounts idmapped with the case's map (VT_OVL_UPPER_PLAIN: the lower
 * one, the upper is plain; VT_OVL_UPPER_OTHER: the upper's map is
 * VT_OVL_UPPER_OTHER_SPEC), the mounter is this program,
 * the initial root with every capability and no supplementary groups
 * (ofs->creator_cred: mx_ovl_mount drops them first). */
static void ovl_model_case(const struct mx_world *rw, int map, const struct vt_world *w,
			   const struct vt_mcase *c, struct vt_expect *e, struct vt_trace *tr)
{
	struct vt_ovl_world ow;

	memset(&ow, 0, sizeof(ow));
	ow.lower_idmap = &vt_model_maps[map];
	ow.upper_idmap = c->ovl_layers == VT_OVL_UPPER_PLAIN ? &vt_nop_idmap
			 : c->ovl_layers == VT_OVL_UPPER_OTHER ? &vt_model_ovl_upper_other
							       : &vt_model_maps[map];
	/* an erofs lower layer (VT_OVL_LOWER_EROFS): the same translation as
	 * the directory's, ovl_copyattr and ovl_permission through the lower
	 * mount's idmap over an erofs inode (erofs_fs_type has FS_ALLOW_IDMAP,
	 * fs/erofs/super.c), whose sb is SB_RDONLY (erofs_fc_fill_super): the
	 * model's lower world is read-only, which no rule of a lower inode may
	 * ask for a write (ovl_permission asks MAY_READ for MAY_WRITE on a
	 * lower file; the copy-up only reads it: ovl_copy_up_data, ovl_copy_xattr,
	 * ovl_copy_fileattr's ENOTTY from an fs without ->fileattr_get ignored);
	 * but ovl_set_acl asks the lower inode for ->set_acl, which erofs's
	 * inode_operations do not have: EOPNOTSUPP (fs/overlayfs/inode.c) */
	ow.lower_rdonly = (c->ovl_layers & VT_OVL_LOWER_EROFS) != 0;
	ow.lower_no_set_acl = ow.lower_rdonly;	/* erofs: no ->set_acl */
	ow.caller = w->cred;
	ow.mounter.name = "mounter(initial root)";
	ow.mounter.ns = &vt_init_ns;
	ow.mounter.caps = ~0ULL;
	ow.mounter.umask = 022;
	ow.upper_root = c->dir;
	ow.lower_obj = c->obj;
	ow.lower_other = c->other;	/* a rename's lower P/t (matrix/007) */
	ow.protected_hardlinks = w->protected_hardlinks;
	ow.protected_symlinks = w->protected_symlinks;	/* matrix/012 */
	ow.protected_regular = w->protected_regular;
	ow.protected_fifos = w->protected_fifos;
	ow.bset_init = w->bset_init;	/* exec (matrix/010) */
	ow.cap_full = w->cap_full;
	ow.suid_dumpable = w->suid_dumpable;
	ow.overflowuid = rw->overflowuid;
	ow.overflowgid = rw->overflowgid;
	ow.posixacl = rw->posixacl;
	ow.lists_raw_acl = vt_fs_lists_raw_acl(rw->fstype);
	/* both layers are directories of the filesystem under test: its row
	 * says what the upper one lacks (lib/fs/fs_table.c) */
	if (rw->fstype && vt_fs_row(rw->fstype)) {
		ow.upper_no_whiteout = !vt_fs_supports(rw->fstype, VT_FSF_WHITEOUT);
		ow.upper_no_tmpfile = !vt_fs_supports(rw->fstype, VT_FSF_TMPFILE);
	}
	memset(tr, 0, sizeof(*tr));
	ow.trace = tr;
	vt_ovl_model_mop(&ow, &c->op, e);
}

/* The model's verdict and trace for case IDX of F (no system call). */
void mx_model_case(const struct mx_world *rw, const struct vt_family *f, int idx,
		       struct vt_mcase *c, struct vt_world *w, struct vt_expect *e,
		       struct vt_trace *tr)
{
	int local = idx % vt_family_local_count(f), map, caller;

	vt_family_pair(f, idx / vt_family_local_count(f), &map, &caller);
	memset(c, 0, sizeof(*c));
	vt_family_make(f, local, c);
	model_world(rw, map, caller, c, w);
	if (c->ovl) {
		ovl_model_case(rw, map, w, c, e, tr);
		return;
	}
	if (c->optworld)
		vt_optowner_resolve(w, &c->op);	/* chown targets named by what the caller sees */
	memset(tr, 0, sizeof(*tr));
	w->trace = tr;
	vt_model_apply(w, &c->op, e);
	w->trace = NULL;
}

const struct vt_family *mx_space_case(const struct mx_space *sp, int g, int *idx)
{
	int fi = sp->nfam - 1;

	while (fi > 0 && g < sp->base[fi])
		fi--;
	*idx = g - sp->base[fi];
	return sp->fams[fi];
}
