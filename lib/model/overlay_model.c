/* overlayfs on idmapped layers (overlay_model.h). Every rule is the plain
 * model's, evaluated in the world overlayfs evaluates it in: the caller
 * through the overlay's mount (never idmapped: ovl_fs_type has no
 * FS_ALLOW_IDMAP) against the overlay inode, and the mounter (the
 * credentials ovl_override_creds() installs, taken at mount time) against
 * the real inode through its layer's mount. Source: Linux 6.12
 * fs/overlayfs/{inode,util,copy_up,dir,file}.c, fs/namei.c, fs/attr.c.
 *
 * The matrix's overlay world (matrix/004 and matrix/001's "overlay/" cases)
 * asks vt_ovl_model_mop(), so its mutation points (break.h; ids
 * "overlay_model.c:...") are in the registry the matrix scores; the ones
 * only idmapped/006's operations reach (chown, unlink, stat) are killed by
 * idmapped/006 run with VT_MODEL_BREAK='overlay_model.c:...'. Rule ids:
 * VT_R_OVL_* (rule_table.h). */
#include "model/overlay_model.h"
#include "model/overlay_internal.h"
#include "model/rules.h"
#include "world/xattr_view.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* A plain world: the layers and the overlay were mounted in the initial
 * user namespace, so every s_user_ns is the initial one. */
static void plain_world(struct vt_world *pw, const struct vt_ovl_world *w,
			const struct vt_midmap *idmap, const struct vt_mcred *cred, bool rdonly)
{
	memset(pw, 0, sizeof(*pw));
	pw->fs_ns = &vt_init_ns;
	pw->idmap = idmap;
	pw->cred = *cred;
	pw->sb_rdonly = rdonly;
	pw->overflowuid = w->overflowuid;
	pw->overflowgid = w->overflowgid;
	pw->trace = w->trace;	/* the plain rules record what they decide */
}

/* Records that RULE decided ALLOWED (rules.h: vt_hit; final outcomes only). */
static bool hit(const struct vt_ovl_world *w, enum vt_rule rule, bool allowed)
{
	struct vt_world tw;

	memset(&tw, 0, sizeof(tw));
	tw.trace = w->trace;
	return vt_hit(&tw, rule, allowed);
}

struct vt_minode vt_ovl_inode(const struct vt_midmap *layer, const struct vt_minode *real)
{
	struct vt_world lw;
	struct vt_minode o = *real;

	memset(&lw, 0, sizeof(lw));
	lw.fs_ns = &vt_init_ns;
	lw.idmap = layer;
	/* ovl_copyattr(): i_uid = vfsuid_into_kuid(i_uid_into_vfsuid(real_idmap,
	 * realinode)), the gid the same way, i_mode copied */
	o.uid = vt_vfsuid_into_kuid(vt_i_uid_into_vfsuid(&lw, real));
	o.gid = vt_vfsgid_into_kgid(vt_i_gid_into_vfsgid(&lw, real));
	/* the ACLs: do_ovl_get_acl -> ovl_get_acl_path reads the real ACL
	 * (vfs_get_acl / get_inode_acl) and, on an idmapped layer,
	 * ovl_idmap_posix_acl gives each ACL_USER/ACL_GROUP entry
	 * vfsuid_into_kuid(make_vfsuid(layer idmap, i_user_ns(real), e_uid)) */
	for (int k = 0; k < o.nacl + o.ndefacl; k++) {
		struct vt_acl_kentry *a = k < o.nacl ? &o.acl[k] : &o.defacl[k - o.nacl];

		if (a->tag == VT_ACL_USER)
			a->uid = vt_vfsuid_into_kuid(vt_make_vfsuid(layer, &vt_init_ns, a->uid));
		else if (a->tag == VT_ACL_GROUP)
			a->gid = vt_vfsgid_into_kgid(vt_make_vfsgid(layer, &vt_init_ns, a->gid));
	}
	return o;
}

/* E's outcome ERR, decided by rule ID, in words WHAT (and the plain rule INNER) */
static void say(struct vt_ovl_expect *e, int err, enum vt_rule id, const char *what,
		const char *inner)
{
	static char buf[512];	/* one expectation at a time (tests are single threaded) */

	snprintf(buf, sizeof(buf), "%s%s", what, inner ? inner : "");
	e->err = err;
	e->rule = buf;
	e->rule_id = id;
}

/* Is the overlay read-only? ovl_make_workdir -> ovl_workdir_create makes
 * work/work as the mounter through the upper idmap (ovl_mkdir_real ->
 * vfs_mkdir -> may_create: fsuidgid_has_mapping); when that fails it
 * warns "mounting read-only" and ovl_fill_super sets SB_RDONLY. The
 * workdir's own lookup (MAY_EXEC) passes: the suite's work directory is
 * 0755. A write through the overlay then gives EROFS (sb_permission,
 * mnt_want_write) right after the path walk: true and E set if so. */
static bool ovl_read_only(const struct vt_ovl_world *w, struct vt_ovl_expect *e)
{
	struct vt_world uw;
	bool writable;

	plain_world(&uw, w, w->upper_idmap, &w->mounter, false);
	writable = vt_fsuidgid_has_mapping(&uw);
	if (!hit(w, VT_R_OVL_WORKDIR_RDONLY, writable) && VT_REFUSES(VT_R_OVL_WORKDIR_RDONLY)) {
		say(e, EROFS, VT_R_OVL_WORKDIR_RDONLY,
		    "ovl_workdir_create: the mounter's fsuid/fsgid do not map through the upper "
		    "idmap, so the overlay was mounted read-only (SB_RDONLY): EROFS", NULL);
		return true;
	}
	return false;
}

static const char *rule_text(enum vt_rule r)
{
	return r == VT_R_NONE ? "" : vt_rule_info(r)->text;
}

/* inode_permission(&nop_mnt_idmap, overlay inode, MASK) as the caller, which
 * ends in ovl_permission(): 0, or -errno with the rule in E. */
static int ovl_inode_permission(const struct vt_ovl_world *w, const struct vt_minode *ovl,
				const struct vt_minode *real, bool real_upper, int mask,
				struct vt_ovl_expect *e)
{
	struct vt_world cw, mw;
	enum vt_rule r = VT_R_NONE;
	int err;

	/* sb_permission() before anything: MAY_WRITE on a regular file,
	 * directory or symlink of a read-only overlay */
	if ((mask & VT_MAY_WRITE) && (S_ISREG(ovl->mode) || S_ISDIR(ovl->mode) || S_ISLNK(ovl->mode)) &&
	    ovl_read_only(w, e))
		return EROFS;
	/* the caller: inode_permission() refuses MAY_WRITE on an overlay inode
	 * with an unmapped id (HAS_UNMAPPED_ID), then ovl_permission() asks
	 * generic_permission(&nop_mnt_idmap, inode, mask) with the caller's
	 * creds */
	plain_world(&cw, w, &vt_nop_idmap, &w->caller, false);
	/* generic_permission -> check_acl -> get_inode_acl(overlay inode) ->
	 * ovl_get_inode_acl: the real ACL through the layer's idmap (OVL's
	 * ACL, vt_ovl_inode), none where !IS_POSIXACL(realinode)
	 * (do_ovl_get_acl); the mounter's check_acl reads the real one */
	cw.posixacl = w->posixacl;
	err = vt_inode_permission(&cw, ovl, mask, &r);
	if (!hit(w, VT_R_OVL_CALLER_PERM, !err) && VT_REFUSES_("ovl_permission/caller")) {
		say(e, -err, VT_R_OVL_CALLER_PERM, "ovl_permission: the caller on the overlay inode "
			     "(owner from ovl_copyattr through the layer's idmap): ", rule_text(r));
		return err;
	}
	/* the mounter (ovl_override_creds) on the real inode through the
	 * layer's idmap: inode_permission(mnt_idmap(realpath.mnt), realinode);
	 * a lower non-special file asked for MAY_WRITE is asked for MAY_READ
	 * (it is copied up first: "Make sure mounter can read file") */
	if (!real_upper && (S_ISREG(real->mode) || S_ISDIR(real->mode) || S_ISLNK(real->mode)) &&
	    (mask & VT_MAY_WRITE))
		mask = (mask & ~VT_MAY_WRITE) | VT_MAY_READ;
	plain_world(&mw, w, real_upper ? w->upper_idmap : w->lower_idmap, &w->mounter,
		    !real_upper && w->lower_rdonly);
	mw.posixacl = w->posixacl;
	err = vt_inode_permission(&mw, real, mask, &r);
	if (!hit(w, VT_R_OVL_MOUNTER_PERM, !err) && !VT_REFUSES_("ovl_permission/mounter"))
		err = 0;
	if (err)
		say(e, -err, VT_R_OVL_MOUNTER_PERM, "ovl_permission: the mounter on the real inode "
			     "through the layer's idmap: ", rule_text(r));
	return err;
}

/* What the caller's stat() shows of a real inode on LAYER. */
static void seen(const struct vt_ovl_world *w, const struct vt_midmap *layer,
		 const struct vt_minode *real, struct vt_ovl_expect *e)
{
	struct vt_minode o = vt_ovl_inode(layer, real);

	/* ovl_getattr -> vfs_getattr(realpath) -> generic_fillattr(real idmap),
	 * the same ids as ovl_copyattr's; cp_new_stat: from_kuid_munged() */
	e->seen_uid = vt_from_kuid_munged(w->caller.ns, o.uid, w->overflowuid);
	e->seen_gid = vt_from_kgid_munged(w->caller.ns, o.gid, w->overflowgid);
}

/* ovl_copy_up_metadata -> ovl_copy_xattr -> ovl_copy_acl (6.12
 * fs/overlayfs/copy_up.c), on the new copy before ovl_set_attr gives it
 * the lower owner: the copy is still the mounter's (may_write_xattr and
 * set_posix_acl's inode_owner_or_capable pass). ovl_get_acl_path reads
 * the lower ACL through the lower idmap and ovl_idmap_posix_acl gives
 * each entry vfsuid_into_kuid(make_vfsuid(lower idmap, ...)) (the overlay
 * inode's ACL, vt_ovl_inode); ovl_do_set_acl -> vfs_set_acl(upper idmap):
 * vfs_set_acl_idmapped_mnt stores from_vfsuid(upper idmap, ...) of each,
 * and set_posix_acl's posix_acl_valid(s_user_ns) refuses an invalid one:
 * EINVAL, the copy-up fails ("POSIX ACLs must be copied"). The perms stay
 * (the fixtures' ACLs agree with the mode, which ovl_set_attr sets again:
 * posix_acl_chmod). UP gets the stored ACLs; 0 or -EINVAL. */
static int copy_up_acl(const struct vt_ovl_world *w, struct vt_minode *up,
		       struct vt_ovl_expect *e)
{
	struct vt_minode o = vt_ovl_inode(w->lower_idmap, &w->lower_obj);
	bool valid = true;

	if (!o.nacl && !o.ndefacl)
		return 0;
	for (int k = 0; k < o.nacl + o.ndefacl; k++) {
		const struct vt_acl_kentry *a = k < o.nacl ? &o.acl[k] : &o.defacl[k - o.nacl];
		struct vt_acl_kentry *u = k < o.nacl ? &up->acl[k] : &up->defacl[k - o.nacl];

		if (a->tag == VT_ACL_USER) {
			u->uid = vt_from_vfsuid(w->upper_idmap, &vt_init_ns, vt_vfsuid_from_kuid(a->uid));
			valid = valid && vt_kuid_valid(u->uid);
		} else if (a->tag == VT_ACL_GROUP) {
			u->gid = vt_from_vfsgid(w->upper_idmap, &vt_init_ns, vt_vfsgid_from_kgid(a->gid));
			valid = valid && vt_kgid_valid(u->gid);
		}
	}
	if (!hit(w, VT_R_OVL_COPYUP_ACL, valid) && VT_REFUSES(VT_R_OVL_COPYUP_ACL)) {
		say(e, EINVAL, VT_R_OVL_COPYUP_ACL, "ovl_copy_acl: an entry of the lower ACL (through "
			       "the lower idmap) has no id through the upper idmap: "
			       "posix_acl_valid -> EINVAL, no copy", NULL);
		return -EINVAL;
	}
	/* a filesystem that lists the raw attribute holding the ACL too (xfs:
	 * trusted.SGI_ACL_FILE / SGI_ACL_DEFAULT, right after each
	 * system.posix_acl_* name) has ovl_copy_xattr copy it next as a
	 * trusted.* value (ovl_getxattr_value, ovl_do_setxattr: bytes, no
	 * idmap; xfs_xattr_set -> xfs_forget_acl): the copy's ACL is the
	 * lower one's on-disk ids */
	if (w->lists_raw_acl) {
		memcpy(up->acl, w->lower_obj.acl, sizeof(up->acl));
		memcpy(up->defacl, w->lower_obj.defacl, sizeof(up->defacl));
	}
	return 0;
}

/* ovl_copy_xattr's security.capability (6.12 fs/overlayfs/copy_up.c), on
 * the copy while it is the mounter's (after the ACLs here: the fixtures
 * hold one or the other, the order being the lower filesystem's
 * listxattr): ovl_getxattr_value -> vfs_getxattr(lower idmap) ->
 * cap_inode_getsecurity as the mounter (v3 with the rootid as the lower
 * mount shows it, v2 where that is 0; -EOVERFLOW where it has none,
 * which is not ovl_no_fscap's: the copy-up fails), then ovl_do_setxattr
 * -> vfs_setxattr(upper idmap) -> cap_convert_nscap as the mounter (the
 * plain fcaps set on the copy: EINVAL where the rootid does not map, a v2
 * kept only on a plain upper). UP gets the stored value; 0 or -errno. */
static int copy_up_fcaps(const struct vt_ovl_world *w, struct vt_minode *up,
			 struct vt_ovl_expect *e)
{
	struct vt_world lw, uw;
	struct vt_mop_args sa;
	struct vt_expect ue;
	struct vt_cfcaps m;
	enum vt_rule r = VT_R_NONE;
	int err;

	if (!w->lower_obj.fcaps.version)
		return 0;
	plain_world(&lw, w, w->lower_idmap, &w->mounter, w->lower_rdonly);
	memset(&m, 0, sizeof(m));
	err = vt_model_fcaps_read(&lw, &w->lower_obj.fcaps, &m, &r);
	if (!hit(w, VT_R_OVL_COPYUP_FCAPS, !err) && VT_REFUSES_("ovl_copy_xattr/fcaps-read")) {
		say(e, err, VT_R_OVL_COPYUP_FCAPS, "ovl_copy_xattr: the mounter's "
			    "cap_inode_getsecurity of the lower capability through the lower idmap: ",
		    rule_text(r));
		return -err;
	}
	/* the copy as vfs_tmpfile / ovl_create_real made it: the mounter's
	 * fsuid/fsgid stored through the upper idmap, no capability */
	plain_world(&uw, w, w->upper_idmap, &w->mounter, false);
	uw.dir = w->upper_root;
	uw.obj = *up;
	uw.obj.uid = vt_from_vfsuid(w->upper_idmap, &vt_init_ns,
				    vt_vfsuid_from_kuid(vt_make_kuid(w->mounter.ns, w->mounter.fsuid)));
	uw.obj.gid = vt_from_vfsgid(w->upper_idmap, &vt_init_ns,
				    vt_vfsgid_from_kgid(vt_make_kgid(w->mounter.ns, w->mounter.fsgid)));
	memset(&uw.obj.fcaps, 0, sizeof(uw.obj.fcaps));
	memset(&sa, 0, sizeof(sa));
	sa.op = VT_OP_FCAPS_SET;
	sa.fcaps.version = m.version;
	sa.fcaps.rootid = vt_cuid(m.version == 3 ? m.rootid.val : 0);
	memset(&ue, 0, sizeof(ue));
	vt_model_apply(&uw, &sa, &ue);
	if (!hit(w, VT_R_OVL_COPYUP_FCAPS, !ue.err) && VT_REFUSES_("ovl_copy_xattr/fcaps-write")) {
		say(e, ue.err, VT_R_OVL_COPYUP_FCAPS, "ovl_copy_xattr: the mounter's "
			       "vfs_setxattr(upper idmap) of security.capability on the copy: ",
		    ue.rule);
		return -ue.err;
	}
	up->fcaps = ue.result.fcaps;
	return 0;
}

/* ovl_copy_up_one() of the lower object, as the mounter (ovl_copy_up_flags
 * installs ovl_override_creds): 0 with the upper copy in *UP, or -errno. */
static int copy_up(const struct vt_ovl_world *w, struct vt_minode *up, struct vt_ovl_expect *e)
{
	struct vt_world lw, uw;
	vt_kuid_t su;
	vt_kgid_t sg;
	int err;

	/* vfs_getattr(lowerpath): generic_fillattr through the lower idmap */
	plain_world(&lw, w, w->lower_idmap, &w->mounter, w->lower_rdonly);
	su = vt_vfsuid_into_kuid(vt_i_uid_into_vfsuid(&lw, &w->lower_obj));
	sg = vt_vfsgid_into_kgid(vt_i_gid_into_vfsgid(&lw, &w->lower_obj));
	if (!hit(w, VT_R_OVL_COPYUP_UNMAPPED,
		 vt_kuid_has_mapping(w->mounter.ns, su) && vt_kgid_has_mapping(w->mounter.ns, sg)) &&
	    VT_REFUSES(VT_R_OVL_COPYUP_UNMAPPED)) {
		say(e, EOVERFLOW, VT_R_OVL_COPYUP_UNMAPPED, "ovl_copy_up_one: !kuid_has_mapping(current_user_ns(), "
				  "stat.uid/gid) of the lower file through its idmap -> "
				  "EOVERFLOW (4f11ada10d0a)", NULL);
		return -EOVERFLOW;
	}
	/* the copy is made in the workdir by the mounter through the upper
	 * idmap. ovl_do_copy_up (6.12 fs/overlayfs/copy_up.c) takes
	 * ovl_copy_up_tmpfile for a regular file where ovl_make_workdir found
	 * O_TMPFILE on the upper layer (ofs->tmpfile), else
	 * ovl_copy_up_workdir: ovl_do_tmpfile -> vfs_tmpfile, or
	 * ovl_create_temp -> ovl_create_real -> vfs_create; both refuse
	 * unless fsuidgid_has_mapping() (vfs_tmpfile's check, may_create's).
	 * The rest is the same on both paths: ovl_copy_up_metadata on the
	 * new inode, then ovl_do_link (tmpfile) or ovl_do_rename with flags
	 * 0 (workdir) into the upper P, which for a root mounter on a copy
	 * the upper idmap maps (ovl_set_attr below) refuse nothing, so an
	 * upper filesystem without ->tmpfile (ntfs3) copies up alike */
	plain_world(&uw, w, w->upper_idmap, &w->mounter, false);
	if (!hit(w, VT_R_OVL_COPYUP_CREATE, vt_fsuidgid_has_mapping(&uw)) &&
	    VT_REFUSES(VT_R_OVL_COPYUP_CREATE)) {
		say(e, EOVERFLOW, VT_R_OVL_COPYUP_CREATE,
		    w->upper_no_tmpfile
			    ? "ovl_copy_up_workdir: the mounter creates the copy (ovl_create_temp) "
			      "through the upper idmap: fsuidgid_has_mapping() fails -> EOVERFLOW"
			    : "ovl_copy_up_tmpfile: the mounter creates the copy (ovl_do_tmpfile) "
			      "through the upper idmap: fsuidgid_has_mapping() fails -> EOVERFLOW",
		    NULL);
		return -EOVERFLOW;
	}
	/* ovl_copy_up_metadata: ovl_copy_xattr (user.* and trusted.* as they
	 * are, the ACLs and the capability translated), then ovl_set_attr */
	*up = w->lower_obj;
	err = copy_up_acl(w, up, e);
	if (!err)
		err = copy_up_fcaps(w, up, e);
	if (err)
		return err;
	/* ovl_set_attr(): notify_change(upper idmap, ATTR_UID|ATTR_GID,
	 * ia_vfsuid = VFSUIDT_INIT(stat.uid)): notify_change refuses an id
	 * the upper mount cannot write (!vfsuid_has_fsmapping) */
	if (!hit(w, VT_R_OVL_COPYUP_SETATTR,
		 vt_vfsuid_has_fsmapping(w->upper_idmap, &vt_init_ns, vt_vfsuid_from_kuid(su)) &&
		 vt_vfsgid_has_fsmapping(w->upper_idmap, &vt_init_ns, vt_vfsgid_from_kgid(sg))) &&
	    VT_REFUSES(VT_R_OVL_COPYUP_SETATTR)) {
		say(e, EOVERFLOW, VT_R_OVL_COPYUP_SETATTR, "ovl_set_attr: notify_change(upper idmap) of the lower "
				  "owner as the layer shows it: !vfsuid_has_fsmapping -> "
				  "EOVERFLOW", NULL);
		return -EOVERFLOW;
	}
	up->uid = vt_from_vfsuid(w->upper_idmap, &vt_init_ns, vt_vfsuid_from_kuid(su));
	up->gid = vt_from_vfsgid(w->upper_idmap, &vt_init_ns, vt_vfsgid_from_kgid(sg));
	return 0;
}

/* The expectation's record of the upper copy a copy-up left: its owner as
 * stored, and (keep_obj) the whole inode for the ops that act on it next. */
static void copied_up(struct vt_ovl_expect *e, const struct vt_minode *up, bool keep_obj)
{
	e->upper = true;
	e->upper_uid = up->uid;
	e->upper_gid = up->gid;
	if (keep_obj) {
		e->upper_obj_set = true;
		e->upper_obj = *up;
	}
}

static void op_open(const struct vt_ovl_world *w, bool write, struct vt_ovl_expect *e)
{
	struct vt_minode ovl = vt_ovl_inode(w->lower_idmap, &w->lower_obj), up;
	struct vt_world uw;
	enum vt_rule r = VT_R_NONE;
	int err;

	/* may_open -> inode_permission(MAY_OPEN | acc_mode) */
	if (ovl_inode_permission(w, &ovl, &w->lower_obj, false,
				 write ? VT_MAY_WRITE : VT_MAY_READ, e))
		return;
	if (!write) {
		/* ovl_open_realfile: inode_permission(real idmap, realinode,
		 * MAY_OPEN | MAY_READ) as the mounter: ovl_permission's own */
		seen(w, w->lower_idmap, &w->lower_obj, e);
		hit(w, VT_R_OVL_OPEN_OK, true);
		say(e, 0, VT_R_OVL_OPEN_OK, "ovl_permission: the caller on the overlay inode and the mounter on "
			  "the real one both allow MAY_READ", NULL);
		return;
	}
	/* ovl_open -> ovl_maybe_copy_up(O_WRONLY) -> ovl_copy_up_flags */
	if (copy_up(w, &up, e))
		return;
	/* ovl_open_realfile: inode_permission(upper idmap, upper inode,
	 * MAY_OPEN | MAY_WRITE) as the mounter; the copy's ACLs and
	 * capability as ovl_copy_xattr stored them */
	copied_up(e, &up, true);
	plain_world(&uw, w, w->upper_idmap, &w->mounter, false);
	err = vt_inode_permission(&uw, &up, VT_MAY_WRITE, &r);
	if (!hit(w, VT_R_OVL_OPEN_REALFILE, !err) && VT_REFUSES(VT_R_OVL_OPEN_REALFILE)) {
		/* the copy stays */
		say(e, -err, VT_R_OVL_OPEN_REALFILE, "ovl_open_realfile: the mounter opens the upper copy: ",
		    rule_text(r));
		return;
	}
	seen(w, w->upper_idmap, &up, e);
	hit(w, VT_R_OVL_COPYUP_OK, true);
	say(e, 0, VT_R_OVL_COPYUP_OK, "copied up: ovl_copy_up_one + ovl_set_attr give the upper copy the lower "
		  "owner as the lower mount shows it, stored through the upper idmap", NULL);
}

static void op_create(const struct vt_ovl_world *w, struct vt_ovl_expect *e)
{
	struct vt_minode root = vt_ovl_inode(w->upper_idmap, &w->upper_root), up;
	struct vt_world cw, ow;
	struct vt_mcred oc;
	enum vt_rule r = VT_R_NONE;
	vt_kuid_t fsuid;
	vt_kgid_t fsgid;
	int err;

	/* lookup_open: without write access to the mount (mnt_want_write
	 * failed: a read-only overlay) a new name is EROFS before may_o_create */
	if (ovl_read_only(w, e))
		return;
	/* may_o_create -> may_create(&nop_mnt_idmap, overlay dir): the caller's
	 * fsuid/fsgid must map (fsuidgid_has_mapping), then W|X on the dir */
	plain_world(&cw, w, &vt_nop_idmap, &w->caller, false);
	if (!vt_hit(&cw, VT_R_CREATE_EOVERFLOW, vt_fsuidgid_has_mapping(&cw)) &&
	    VT_REFUSES_("may_create/overlay")) {
		say(e, EOVERFLOW, VT_R_CREATE_EOVERFLOW, "may_create on the overlay: fsuidgid_has_mapping", NULL);
		return;
	}
	if (ovl_inode_permission(w, &root, &w->upper_root, true, VT_MAY_WRITE | VT_MAY_EXEC, e))
		return;
	/* ovl_create_object: inode_init_owner(&nop_mnt_idmap, inode, dir):
	 * the caller's fsuid, and fsgid unless the dir is setgid */
	fsuid = vt_cur_fsuid(&cw);
	fsgid = (root.mode & S_ISGID) ? root.gid : vt_cur_fsgid(&cw);
	/* ovl_create_or_link -> ovl_setup_cred_for_create: the mounter's creds
	 * with fsuid/fsgid = the new overlay inode's i_uid/i_gid */
	oc = w->mounter;
	oc.fsuid = vt_from_kuid(w->mounter.ns, fsuid);
	oc.fsgid = vt_from_kgid(w->mounter.ns, fsgid);
	plain_world(&ow, w, w->upper_idmap, &oc, false);
	/* ovl_create_upper: lookup_one(upper idmap) needs MAY_EXEC on the
	 * upper dir; vfs_create(upper idmap) -> may_create: fsuidgid_has_mapping
	 * (EOVERFLOW), then MAY_WRITE|MAY_EXEC */
	err = vt_inode_permission(&ow, &w->upper_root, VT_MAY_EXEC, &r);
	if (!err && !hit(w, VT_R_OVL_CREATE_UPPER_EOVERFLOW, vt_fsuidgid_has_mapping(&ow)) &&
	    VT_REFUSES(VT_R_OVL_CREATE_UPPER_EOVERFLOW)) {
		say(e, EOVERFLOW, VT_R_OVL_CREATE_UPPER_EOVERFLOW, "ovl_create_upper -> vfs_create(upper idmap) with fsuid/fsgid "
				  "of the caller (ovl_setup_cred_for_create): may_create: "
				  "fsuidgid_has_mapping fails -> EOVERFLOW", NULL);
		return;
	}
	if (!err)
		err = vt_inode_permission(&ow, &w->upper_root, VT_MAY_WRITE | VT_MAY_EXEC, &r);
	if (!hit(w, VT_R_OVL_CREATE_UPPER_PERM, !err) && VT_REFUSES(VT_R_OVL_CREATE_UPPER_PERM)) {
		say(e, -err, VT_R_OVL_CREATE_UPPER_PERM, "ovl_create_upper: the mounter's caps with the caller's fsuid on the "
			     "upper dir: ", rule_text(r));
		return;
	}
	/* inode_init_owner(upper idmap): mapped_fsuid/mapped_fsgid */
	memset(&up, 0, sizeof(up));
	up.exists = true;
	/* the requested mode less the caller's umask: the overlay sb has
	 * SB_POSIXACL, so lookup_open leaves the umask to posix_acl_create,
	 * which applies it (no default ACL) to the overlay inode
	 * (ovl_create_or_link) and, on the upper filesystem, to the upper one */
	up.mode = S_IFREG | ((w->create_mode ? w->create_mode : 0644) & ~w->caller.umask & 0777);
	up.uid = vt_from_vfsuid(w->upper_idmap, &vt_init_ns, vt_vfsuid_from_kuid(fsuid));
	up.gid = (w->upper_root.mode & S_ISGID)
			 ? w->upper_root.gid
			 : vt_from_vfsgid(w->upper_idmap, &vt_init_ns, vt_vfsgid_from_kgid(fsgid));
	copied_up(e, &up, false);
	e->upper_mode = up.mode;
	seen(w, w->upper_idmap, &up, e);
	hit(w, VT_R_OVL_CREATE_OK, true);
	say(e, 0, VT_R_OVL_CREATE_OK, "created on the upper layer with the caller's fsuid/fsgid "
		  "(ovl_setup_cred_for_create) through the upper idmap (inode_init_owner)",
	    NULL);
}

static void op_chown(const struct vt_ovl_world *w, vt_cuid_t uid, vt_cgid_t gid,
		     struct vt_ovl_expect *e)
{
	struct vt_minode root = vt_ovl_inode(w->upper_idmap, &w->upper_root), up;
	struct vt_mop_args a;
	struct vt_expect pe;
	struct vt_world cw, uw;

	/* the path walk: MAY_EXEC on the root, both checks */
	if (ovl_inode_permission(w, &root, &w->upper_root, true, VT_MAY_EXEC, e))
		return;
	/* do_fchownat: mnt_want_write after the walk */
	if (ovl_read_only(w, e))
		return;
	/* chown_common + notify_change(&nop_mnt_idmap) + ovl_setattr's
	 * setattr_prepare(&nop_mnt_idmap): the plain chown rules, the caller
	 * against the overlay inode */
	plain_world(&cw, w, &vt_nop_idmap, &w->caller, false);
	cw.dir = root;
	cw.obj = vt_ovl_inode(w->lower_idmap, &w->lower_obj);
	memset(&a, 0, sizeof(a));
	a.op = VT_OP_CHOWN;
	a.uid = uid;
	a.gid = gid;
	memset(&pe, 0, sizeof(pe));
	vt_model_apply(&cw, &a, &pe);
	if (pe.err && VT_REFUSES_("ovl_setattr/setattr_prepare")) {
		say(e, pe.err, pe.rule_id, "chown through the overlay mount (setattr_prepare(&nop_mnt_idmap) "
			       "on the overlay inode): ", pe.rule);
		return;
	}
	/* ovl_setattr -> ovl_copy_up */
	if (copy_up(w, &up, e))
		return;
	/* then, as the mounter, ovl_do_notify_change(upper idmap, upper,
	 * attr): the attr's ia_vfsuid (the caller's kuid) must map through
	 * the upper idmap, and the upper filesystem's setattr_prepare runs
	 * chown_ok for the mounter: the plain chown on the upper mount */
	plain_world(&uw, w, w->upper_idmap, &w->mounter, false);
	uw.dir = w->upper_root;
	uw.obj = up;
	a.uid = vt_from_kuid(w->mounter.ns, vt_make_kuid(w->caller.ns, uid));
	a.gid = vt_from_kgid(w->mounter.ns, vt_make_kgid(w->caller.ns, gid));
	memset(&pe, 0, sizeof(pe));
	vt_model_apply(&uw, &a, &pe);
	copied_up(e, &up, false);
	if (pe.err && VT_REFUSES_("ovl_setattr/notify_change")) {	/* the copy-up is done: the copy stays, with the lower owner */
		say(e, pe.err, pe.rule_id, "ovl_setattr: notify_change(upper idmap) as the mounter: ",
		    pe.rule);
		return;
	}
	up = pe.result;
	e->upper_uid = up.uid;
	e->upper_gid = up.gid;
	seen(w, w->upper_idmap, &up, e);
	hit(w, VT_R_OVL_COPYUP_OK, true);
	say(e, 0, VT_R_OVL_COPYUP_OK, "ovl_setattr: copied up, then chowned on the upper layer through its "
		  "idmap", NULL);
}

/* chmod (matrix/003) and the setattr family (matrix/008: write, truncate,
 * open(O_TRUNC), utimensat) of the lower P/o through the overlay, as 6.12
 * fs/overlayfs/inode.c ovl_setattr does them: the VFS's half as the caller
 * on the overlay inode through the overlay's own mount (chmod_common /
 * vfs_utimes / vfs_truncate / do_open / backing_file_write_iter's
 * file_remove_privs(user_file) -> notify_change(&nop_mnt_idmap) ->
 * may_setattr, then ovl_setattr's setattr_prepare(&nop_mnt_idmap)), the
 * copy-up (ovl_copy_up / ovl_copy_up_with_data), then, as the mounter
 * (ovl_override_creds), ovl_do_notify_change(upper idmap) of the same
 * iattr on the upper copy. What the caller's half decides (the setgid bit
 * chmod keeps, the setid bits write and truncate kill) is what the upper
 * copy gets: the mounter's setattr_prepare runs with the mounter's caps
 * (chmod: inode_owner_or_capable, in_group_or_capable), or not at all
 * (ATTR_FORCE: the kill bits), and ATTR_SIZE asks no owner. No file
 * capabilities (ATTR_KILL_PRIV through ovl_xattr_set is not modelled). */
static void op_setattr(const struct vt_ovl_world *w, const struct vt_mop_args *a,
		       struct vt_ovl_expect *e)
{
	struct vt_minode root = vt_ovl_inode(w->upper_idmap, &w->upper_root);
	struct vt_minode ovl = vt_ovl_inode(w->lower_idmap, &w->lower_obj), up;
	/* ftruncate (by_fd): its fd is open(O_WRONLY) through the overlay,
	 * whose ovl_open copies up and opens the copy for writing as write
	 * and O_TRUNC do; do_ftruncate asks no permission of its own, then
	 * do_truncate(&nop_mnt_idmap, ATTR_SIZE | the kill bits) ->
	 * ovl_setattr as truncate(2)'s (fs/open.c, 6.12; the caller's half
	 * only refuses at the open's inode_permission, so the order of the
	 * halves below is the kernel's) */
	bool opens = a->op == VT_OP_WRITE || a->op == VT_OP_OPEN_TRUNC ||
		     (a->op == VT_OP_TRUNCATE && a->by_fd);
	struct vt_world cw, uw;
	struct vt_mop_args ua;
	struct vt_expect pe, ue;
	enum vt_rule r = VT_R_NONE;
	bool asks_write;
	int err;

	/* the path walk: MAY_EXEC on P, both checks */
	if (ovl_inode_permission(w, &root, &w->upper_root, true, VT_MAY_EXEC, e))
		return;
	/* mnt_want_write (chmod_common, vfs_utimes, vfs_truncate, do_open's
	 * O_TRUNC) or sb_permission (open for writing) on a read-only
	 * overlay: EROFS before any owner or permission check */
	if (ovl_read_only(w, e))
		return;
	/* the caller's half: the plain rules on the overlay inode (its owner
	 * through the lower idmap, ovl_copyattr) with &nop_mnt_idmap: the
	 * open's or truncate's inode_permission (ovl_permission's caller
	 * check), may_setattr's ATTR_TOUCH check, setattr_prepare's owner
	 * check and setgid strip, notify_change's EOVERFLOW for an owner the
	 * overlay inode cannot show, and the setid bits file_remove_privs /
	 * do_truncate kill (setattr_should_drop_suidgid, CAP_FSETID in the
	 * initial namespace) */
	plain_world(&cw, w, &vt_nop_idmap, &w->caller, false);
	cw.dir = root;
	cw.obj = ovl;
	memset(&pe, 0, sizeof(pe));
	vt_model_apply(&cw, a, &pe);
	if (pe.err && VT_REFUSES_("ovl_setattr/caller")) {
		say(e, pe.err, pe.rule_id, "through the overlay mount, as the caller on the overlay "
			       "inode (notify_change/setattr_prepare(&nop_mnt_idmap)): ", pe.rule);
		return;
	}
	/* the mounter's half of ovl_permission where the caller's half asked
	 * MAY_WRITE of the overlay inode: the open for writing, vfs_truncate,
	 * and may_setattr's ATTR_TOUCH for a caller who is not the owner
	 * (the lower file: asked as MAY_READ) */
	asks_write = opens || a->op == VT_OP_TRUNCATE ||
		     (a->op == VT_OP_UTIMENS_NOW && !vt_inode_owner_or_capable(&cw, &ovl));
	if (asks_write &&
	    ovl_inode_permission(w, &ovl, &w->lower_obj, false, VT_MAY_WRITE, e))
		return;
	/* ovl_setattr -> ovl_copy_up (ovl_copy_up_with_data for ATTR_SIZE),
	 * or ovl_open -> ovl_maybe_copy_up: the same ovl_copy_up_one */
	if (copy_up(w, &up, e))
		return;
	/* (with the ACLs and capability ovl_copy_xattr stored: no iattr
	 * here changes them, ATTR_KILL_PRIV being not modelled) */
	copied_up(e, &up, true);
	e->upper_mode = up.mode;
	plain_world(&uw, w, w->upper_idmap, &w->mounter, false);
	if (opens) {
		/* ovl_open_realfile: the mounter opens the upper copy for writing */
		err = vt_inode_permission(&uw, &up, VT_MAY_WRITE, &r);
		if (!hit(w, VT_R_OVL_OPEN_REALFILE, !err) && VT_REFUSES(VT_R_OVL_OPEN_REALFILE)) {
			say(e, -err, VT_R_OVL_OPEN_REALFILE, "ovl_open_realfile: the mounter opens the "
				     "upper copy: ", rule_text(r));
			return;
		}
	}
	/* ovl_do_notify_change(upper idmap, upper copy, the caller's iattr) as
	 * the mounter */
	memset(&ue, 0, sizeof(ue));
	if (a->op == VT_OP_CHMOD || a->op == VT_OP_UTIMENS_NOW || a->op == VT_OP_UTIMENS_SET) {
		/* ATTR_MODE with the mode the caller's setattr_prepare left
		 * (setgid stripped or not), ATTR_TOUCH, ATTR_TIMES_SET: the
		 * plain rules for the mounter through the upper idmap */
		uw.dir = w->upper_root;
		uw.obj = up;
		ua = *a;
		ua.mode = pe.result.mode & 07777;
		vt_model_apply(&uw, &ua, &ue);
	} else {
		/* the setid bits the caller's half decided to kill
		 * (ATTR_KILL_SUID/SGID | ATTR_FORCE: setattr_prepare skips its
		 * checks; notify_change turns them into ATTR_MODE of the upper
		 * copy's mode) and ATTR_SIZE (inode_newsize_ok only); the
		 * mounter's own file_remove_privs of the real file then finds
		 * the bits it would kill gone or keeps them (CAP_FSETID) */
		ue.result = up;
		ue.result.mode = (up.mode & S_IFMT) | (pe.result.mode & 07777);
	}
	if (!hit(w, VT_R_OVL_SETATTR_UPPER, !ue.err) && VT_REFUSES(VT_R_OVL_SETATTR_UPPER)) {
		/* the copy stays, with the lower owner and mode */
		say(e, ue.err, VT_R_OVL_SETATTR_UPPER, "ovl_setattr: ovl_do_notify_change(upper idmap) "
			       "as the mounter: ", ue.rule);
		return;
	}
	up = ue.result;
	e->upper_obj = up;
	e->upper_uid = up.uid;
	e->upper_gid = up.gid;
	e->upper_mode = up.mode;
	seen(w, w->upper_idmap, &up, e);
	hit(w, VT_R_OVL_SETATTR_OK, true);
	say(e, 0, VT_R_OVL_SETATTR_OK, "ovl_setattr: the caller's notify_change on the overlay inode, "
		  "the copy-up, then the mounter's notify_change of the same attributes on the upper "
		  "copy through its idmap", NULL);
}

/* unlink of a lower file, or (RMDIR) rmdir of an empty lower directory:
 * do_rmdir -> vfs_rmdir -> ovl_rmdir -> ovl_do_remove(is_dir), which runs
 * ovl_check_empty_dir before the same ovl_remove_and_whiteout */
static void op_unlink(const struct vt_ovl_world *w, bool rmdir, struct vt_ovl_expect *e)
{
	struct vt_minode root = vt_ovl_inode(w->upper_idmap, &w->upper_root);
	struct vt_world cw, mw, lw;
	struct vt_mop_args a;
	struct vt_expect pe;
	enum vt_rule r = VT_R_NONE;
	int err;

	/* the mounter's half of ovl_permission on the root (the real inode is
	 * the upper dir) for the lookup's MAY_EXEC and may_delete's W|X. The
	 * kernel asks it after the caller's half; the order only matters when
	 * both refuse, which a root mounter on an upper dir its idmap maps
	 * never does */
	/* do_unlinkat: mnt_want_write after the parent's walk */
	if (ovl_read_only(w, e))
		return;
	plain_world(&mw, w, w->upper_idmap, &w->mounter, false);
	err = vt_inode_permission(&mw, &w->upper_root, VT_MAY_WRITE | VT_MAY_EXEC, &r);
	if (err && VT_REFUSES_("ovl_permission/mounter-dir")) {
		say(e, -err, VT_R_NONE, "ovl_permission: the mounter on the upper dir: ", rule_text(r));
		return;
	}
	/* do_unlinkat -> may_delete(&nop_mnt_idmap, overlay dir, overlay
	 * inode) as the caller: the plain rules (an owner the layer does not
	 * map is EOVERFLOW, W|X on the dir, check_sticky) on the overlay's
	 * inodes, whose owners come through the layers' idmaps */
	plain_world(&cw, w, &vt_nop_idmap, &w->caller, false);
	cw.dir = root;
	cw.obj = vt_ovl_inode(w->lower_idmap, &w->lower_obj);
	memset(&a, 0, sizeof(a));
	a.op = rmdir ? VT_OP_RMDIR : VT_OP_UNLINK;
	memset(&pe, 0, sizeof(pe));
	vt_model_apply(&cw, &a, &pe);
	if (pe.err && VT_REFUSES_("may_delete/overlay")) {
		say(e, pe.err, pe.rule_id, "unlink through the overlay mount, as the caller on the overlay "
			       "inodes: ",
		    pe.rule);
		return;
	}
	/* ovl_do_remove(is_dir): a lower directory must be empty; the
	 * mounter reads it (ovl_check_empty_dir, under ovl_override_creds ->
	 * ovl_dir_read_merged -> ovl_dir_read -> ovl_path_open(O_RDONLY):
	 * inode_permission(lower idmap, lower dir, MAY_READ | MAY_OPEN)).
	 * ENOTEMPTY is not asked: the matrix's lower dirs are empty */
	if (rmdir) {
		plain_world(&lw, w, w->lower_idmap, &w->mounter, w->lower_rdonly);
		err = vt_inode_permission(&lw, &w->lower_obj, VT_MAY_READ, &r);
		if (!hit(w, VT_R_OVL_RMDIR_READDIR, !err) && VT_REFUSES(VT_R_OVL_RMDIR_READDIR)) {
			say(e, -err, VT_R_OVL_RMDIR_READDIR, "ovl_check_empty_dir: the mounter reads the "
				     "lower dir through its idmap: ", rule_text(r));
			return;
		}
	}
	/* ovl_do_remove -> ovl_remove_and_whiteout: the lower name is covered
	 * by a whiteout the mounter makes in the workdir through the upper
	 * idmap (ovl_whiteout -> vfs_whiteout -> vfs_mknod: may_create needs
	 * fsuidgid_has_mapping; inode_init_owner: mapped_fsuid) and renames
	 * into the upper dir. No RENAME_WHITEOUT here: ovl_cleanup_and_whiteout
	 * renames with flags 0 (RENAME_EXCHANGE only over an upper directory;
	 * the name of a lower file or of a lower directory never copied up
	 * has none), so an upper filesystem without it (w->upper_no_whiteout,
	 * ntfs3: ntfs_rename takes RENAME_NOREPLACE only) whites out alike */
	if (!vt_fsuidgid_has_mapping(&mw) && VT_REFUSES_("ovl_whiteout/may_create")) {
		say(e, EOVERFLOW, VT_R_NONE, "ovl_whiteout: the mounter's fsuid does not map through the "
				  "upper idmap",
		    NULL);
		return;
	}
	e->upper = true;
	e->whiteout = true;
	e->upper_uid = vt_from_vfsuid(w->upper_idmap, &vt_init_ns,
				      vt_vfsuid_from_kuid(vt_cur_fsuid(&mw)));
	e->upper_gid = vt_from_vfsgid(w->upper_idmap, &vt_init_ns,
				      vt_vfsgid_from_kgid(vt_cur_fsgid(&mw)));
	hit(w, VT_R_OVL_WHITEOUT_OK, true);
	say(e, 0, VT_R_OVL_WHITEOUT_OK, "ovl_remove_and_whiteout: a whiteout made by the mounter "
		  "through the upper idmap covers the lower name", NULL);
}

/* The mounter's half of ovl_permission on the upper P for the W|X that
 * may_delete and may_create ask (the caller's half is the plain rule's on
 * the overlay P): true and E set if it refuses. The kernel asks it right
 * after the caller's half of the same check; the order only matters when
 * both refuse, which a root mounter on an upper P its idmap maps (the
 * overlay is read-only otherwise) never does. */
static bool mounter_dir_refuses(const struct vt_ovl_world *w, struct vt_ovl_expect *e)
{
	struct vt_world mw;
	enum vt_rule r = VT_R_NONE;
	int err;

	plain_world(&mw, w, w->upper_idmap, &w->mounter, false);
	err = vt_inode_permission(&mw, &w->upper_root, VT_MAY_WRITE | VT_MAY_EXEC, &r);
	if (!hit(w, VT_R_OVL_MOUNTER_PERM, !err) && VT_REFUSES_("ovl_permission/mounter-upper-p")) {
		say(e, -err, VT_R_OVL_MOUNTER_PERM, "ovl_permission: the mounter on the upper P: ",
		    rule_text(r));
		return true;
	}
	return false;
}

/* rename(P/o, P/n) or over the lower P/t (TO_OTHER) of a lower file or
 * directory through the overlay (fs/namei.c do_renameat2, vfs_rename;
 * fs/overlayfs/dir.c ovl_rename). */
static void op_rename(const struct vt_ovl_world *w, bool to_other, struct vt_ovl_expect *e)
{
	struct vt_minode root = vt_ovl_inode(w->upper_idmap, &w->upper_root), up;
	struct vt_world cw, mw;
	struct vt_mop_args a;
	struct vt_expect pe;

	/* do_renameat2: both parents walked (MAY_EXEC on P, both halves),
	 * then mnt_want_write: EROFS on a read-only overlay */
	if (ovl_inode_permission(w, &root, &w->upper_root, true, VT_MAY_EXEC, e))
		return;
	if (ovl_read_only(w, e))
		return;
	if (mounter_dir_refuses(w, e))
		return;
	/* vfs_rename(&nop_mnt_idmap) as the caller on the overlay inodes:
	 * may_delete of o, may_create of n (fsuidgid_has_mapping, W|X) or
	 * may_delete of t: the plain rules on owners ovl_copyattr took
	 * through the lower idmap */
	plain_world(&cw, w, &vt_nop_idmap, &w->caller, false);
	cw.dir = root;
	cw.obj = vt_ovl_inode(w->lower_idmap, &w->lower_obj);
	if (to_other)
		cw.other = vt_ovl_inode(w->lower_idmap, &w->lower_other);
	memset(&a, 0, sizeof(a));
	a.op = VT_OP_RENAME;
	a.to_other = to_other;
	memset(&pe, 0, sizeof(pe));
	vt_model_apply(&cw, &a, &pe);
	if (pe.err && VT_REFUSES_("vfs_rename/overlay")) {
		say(e, pe.err, pe.rule_id, "rename through the overlay mount, as the caller on the "
			       "overlay inodes: ", pe.rule);
		return;
	}
	/* ovl_rename: "Don't copy up directory trees": ovl_can_move() is
	 * false for a lower directory when redirect_dir is off (the world
	 * mounts redirect_dir=off): EXDEV, nothing copied up */
	if (!hit(w, VT_R_OVL_RENAME_EXDEV, !S_ISDIR(w->lower_obj.mode)) &&
	    VT_REFUSES(VT_R_OVL_RENAME_EXDEV)) {
		say(e, EXDEV, VT_R_OVL_RENAME_EXDEV, "ovl_rename: ovl_can_move() is false for a lower "
			       "directory with redirect_dir=off: EXDEV", NULL);
		return;
	}
	/* ovl_lower_positive(old) and new is no whiteout: flags |=
	 * RENAME_WHITEOUT; ovl_copy_up(old) (ovl_nlink_start(t) copies
	 * nothing up with index=off) */
	if (copy_up(w, &up, e))
		return;
	/* ovl_do_rename(upper idmap, upper P/o, upper P/n or P/t (negative:
	 * t was never copied up), RENAME_WHITEOUT) as the mounter:
	 * vfs_rename's may_delete/may_create for a root mounter on a copy
	 * and a P the upper idmap maps refuse nothing; the filesystem makes
	 * the whiteout in the upper P with the rename's idmap
	 * (shmem_whiteout, ext4_whiteout_for_rename, xfs_rename_alloc_whiteout,
	 * btrfs_whiteout_for_rename: inode_init_owner), the mounter's
	 * fsuid/fsgid through the upper idmap, or P's group if it is setgid */
	/* an upper filesystem without RENAME_WHITEOUT: ovl_make_workdir's
	 * ovl_check_rename_whiteout found it (EINVAL taken as "not
	 * supported") and the mount only warned; ovl_rename sets the flag
	 * all the same, and after vfs_rename's checks (passed above) the
	 * upper ->rename refuses it (ntfs_rename, 6.12 fs/ntfs3/namei.c:
	 * flags & ~RENAME_NOREPLACE -> EINVAL). The copy-up stays at the
	 * upper P/o; no name moves and no whiteout is made, so the upper
	 * P/n (P/t: never copied up with index=off) the result names is
	 * absent (e->upper stays false). */
	if (!hit(w, VT_R_OVL_RENAME_NO_WHITEOUT, !w->upper_no_whiteout) &&
	    VT_REFUSES(VT_R_OVL_RENAME_NO_WHITEOUT)) {
		say(e, EINVAL, VT_R_OVL_RENAME_NO_WHITEOUT, "ovl_rename: ovl_do_rename(upper idmap, "
			       "RENAME_WHITEOUT) as the mounter: the upper filesystem's ->rename refuses "
			       "the flag -> EINVAL (the copy-up stays)", NULL);
		return;
	}
	plain_world(&mw, w, w->upper_idmap, &w->mounter, false);
	copied_up(e, &up, false);
	e->old_whiteout = true;
	e->old_whiteout_uid = vt_from_vfsuid(w->upper_idmap, &vt_init_ns,
					     vt_vfsuid_from_kuid(vt_cur_fsuid(&mw)));
	e->old_whiteout_gid = (w->upper_root.mode & S_ISGID)
				      ? w->upper_root.gid
				      : vt_from_vfsgid(w->upper_idmap, &vt_init_ns,
						       vt_vfsgid_from_kgid(vt_cur_fsgid(&mw)));
	seen(w, w->upper_idmap, &up, e);
	hit(w, VT_R_OVL_RENAME_OK, true);
	say(e, 0, VT_R_OVL_RENAME_OK, "ovl_rename: copied up, renamed on the upper layer by the "
		  "mounter with RENAME_WHITEOUT", NULL);
}

/* link(P/o, P/n) of a lower file through the overlay (fs/namei.c
 * do_linkat: may_linkat, vfs_link; fs/overlayfs/dir.c ovl_link). */
static void op_link(const struct vt_ovl_world *w, struct vt_ovl_expect *e)
{
	struct vt_minode root = vt_ovl_inode(w->upper_idmap, &w->upper_root), up;
	struct vt_world cw;
	struct vt_mop_args a;
	struct vt_expect pe;

	/* the walks (MAY_EXEC on P), then filename_create's mnt_want_write:
	 * EROFS on a read-only overlay */
	if (ovl_inode_permission(w, &root, &w->upper_root, true, VT_MAY_EXEC, e))
		return;
	if (ovl_read_only(w, e))
		return;
	/* may_linkat(&nop_mnt_idmap) and vfs_link(&nop_mnt_idmap) as the
	 * caller on the overlay inodes: HAS_UNMAPPED_ID (EOVERFLOW), with
	 * fs.protected_hardlinks safe_hardlink_source or
	 * inode_owner_or_capable on the overlay inode (owner through the
	 * lower idmap; its inode_permission's mounter half reads a lower
	 * 0644 file the root mounter always may), may_create on the overlay
	 * P, EPERM for a directory */
	plain_world(&cw, w, &vt_nop_idmap, &w->caller, false);
	cw.protected_hardlinks = w->protected_hardlinks;
	cw.dir = root;
	cw.obj = vt_ovl_inode(w->lower_idmap, &w->lower_obj);
	memset(&a, 0, sizeof(a));
	a.op = VT_OP_LINK;
	memset(&pe, 0, sizeof(pe));
	vt_model_apply(&cw, &a, &pe);
	if (pe.err && VT_REFUSES_("may_linkat-vfs_link/overlay")) {
		say(e, pe.err, pe.rule_id, "link through the overlay mount, as the caller on the "
			       "overlay inodes: ", pe.rule);
		return;
	}
	/* may_create's W|X on the overlay P: the mounter's half */
	if (mounter_dir_refuses(w, e))
		return;
	/* ovl_link: ovl_copy_up(old), then ovl_create_or_link(hardlink) with
	 * the mounter's own creds (a hardlink gets no
	 * ovl_setup_cred_for_create): ovl_do_link -> vfs_link(upper idmap),
	 * whose may_create and HAS_UNMAPPED_ID a root mounter passes on a
	 * copy and a P the upper idmap maps. The new name is the copy. */
	if (copy_up(w, &up, e))
		return;
	copied_up(e, &up, false);
	seen(w, w->upper_idmap, &up, e);
	hit(w, VT_R_OVL_LINK_OK, true);
	say(e, 0, VT_R_OVL_LINK_OK, "ovl_link: copied up, then linked on the upper layer by the "
		  "mounter through its idmap", NULL);
}

/* execve(P/o) of a lower regular file through the overlay (fs/exec.c,
 * security/commoncap.c, fs/overlayfs/{file,xattrs,inode}.c). The bprm's
 * file is the overlay file: may_open, bprm_fill_uid, get_file_caps and
 * would_dump run on the overlay inode through the overlay's mount
 * (&nop_mnt_idmap; not nosuid, s_user_ns the initial namespace:
 * mnt_may_suid holds for every caller), whose owner ovl_copyattr took
 * through the lower idmap; the plain exec model (exec_rules.c) decides
 * them on that inode. What the overlay adds, as the mounter on the real
 * inode through the lower idmap: ovl_permission's half of may_open's
 * MAY_EXEC (and of would_dump's MAY_READ, which the open already asked),
 * ovl_open_realfile's MAY_OPEN | MAY_READ (the exec's O_RDONLY), and the
 * file capability read through ovl_xattr_get -> vfs_getxattr(lower
 * idmap) -> xattr_getsecurity -> cap_inode_getsecurity, which converts
 * the rootid for the mounter: a v3 capability with rootid r (v2: 0) is
 * returned as v3 with the rootid from_kuid(mounter's ns, vfsuid of r
 * through the lower idmap) unless that is 0 or invalid; as v2 if it is
 * 0; and as -EOVERFLOW if it is invalid (rootid_owns_currentns fails),
 * which get_vfs_caps_from_disk and get_file_caps pass on: the exec fails.
 * get_vfs_caps_from_disk then reads that value on the overlay inode
 * (s_user_ns initial, &nop_mnt_idmap) for the caller. */
static void op_exec(const struct vt_ovl_world *w, const struct vt_mop_args *a,
		    struct vt_ovl_expect *e)
{
	struct vt_minode root = vt_ovl_inode(w->upper_idmap, &w->upper_root);
	struct vt_minode ovl = vt_ovl_inode(w->lower_idmap, &w->lower_obj);
	struct vt_world cw, mw, lw;
	struct vt_expect pe;
	enum vt_rule r = VT_R_NONE;
	int err;

	/* the walk: MAY_EXEC on P, both halves */
	if (ovl_inode_permission(w, &root, &w->upper_root, true, VT_MAY_EXEC, e))
		return;
	plain_world(&cw, w, &vt_nop_idmap, &w->caller, false);
	cw.bset_init = w->bset_init;
	cw.cap_full = w->cap_full;
	cw.suid_dumpable = w->suid_dumpable;
	cw.dir = root;
	/* do_open_execat -> may_open(MAY_EXEC | MAY_OPEN): a non-regular
	 * file is EACCES before inode_permission (the plain model's); a
	 * regular one: ovl_permission's caller and mounter halves */
	if (S_ISREG(ovl.mode) &&
	    ovl_inode_permission(w, &ovl, &w->lower_obj, false, VT_MAY_EXEC, e))
		return;
	if (S_ISREG(ovl.mode)) {
		/* ovl_open -> ovl_open_realfile: the mounter opens the lower
		 * file O_RDONLY: inode_permission(lower idmap, MAY_OPEN |
		 * MAY_READ) */
		plain_world(&lw, w, w->lower_idmap, &w->mounter, w->lower_rdonly);
		err = vt_inode_permission(&lw, &w->lower_obj, VT_MAY_READ, &r);
		if (!hit(w, VT_R_OVL_OPEN_REALFILE, !err) && VT_REFUSES(VT_R_OVL_OPEN_REALFILE)) {
			say(e, -err, VT_R_OVL_OPEN_REALFILE, "ovl_open_realfile: the mounter opens the "
				     "lower file for reading through its idmap: ", rule_text(r));
			return;
		}
	}
	/* the capability as the overlay's getxattr hands it on */
	if (ovl.fcaps.version) {
		vt_kuid_t kroot = ovl.fcaps.version == 3 ? ovl.fcaps.rootid : vt_kuid(0);
		vt_vfsuid_t vroot = vt_make_vfsuid(w->lower_idmap, &vt_init_ns, kroot);
		vt_cuid_t mapped = vt_from_kuid(w->mounter.ns, vt_vfsuid_into_kuid(vroot));

		plain_world(&mw, w, w->lower_idmap, &w->mounter, w->lower_rdonly);
		if (mapped.val != VT_ID_INVALID && mapped.val != 0) {
			ovl.fcaps.version = 3;
			ovl.fcaps.rootid = vt_make_kuid(&vt_init_ns, mapped);
		} else if (!hit(w, VT_R_OVL_EXEC_FCAPS_EOVERFLOW, vt_rootid_owns_currentns(&mw, vroot)) &&
			   VT_REFUSES(VT_R_OVL_EXEC_FCAPS_EOVERFLOW)) {
			say(e, EOVERFLOW, VT_R_OVL_EXEC_FCAPS_EOVERFLOW, "cap_inode_getsecurity as the "
				       "mounter through the lower idmap: the rootid has no id: -EOVERFLOW, "
				       "get_file_caps fails the exec", NULL);
			return;
		} else {
			ovl.fcaps.version = 2;
			ovl.fcaps.rootid = vt_kuid(0);
		}
	}
	/* the rest on the overlay inode as the caller: bprm_fill_uid,
	 * get_file_caps, bprm_caps_from_vfs_caps, handle_privileged_root,
	 * would_dump (its MAY_READ's mounter half passed at the open) */
	cw.obj = ovl;
	memset(&pe, 0, sizeof(pe));
	vt_model_apply(&cw, a, &pe);
	if (pe.err && VT_REFUSES_("exec/overlay")) {
		say(e, pe.err, pe.rule_id, "exec through the overlay mount, as the caller on the "
			       "overlay inode: ", pe.rule);
		return;
	}
	e->creds = pe.creds;
	seen(w, w->lower_idmap, &w->lower_obj, e);
	say(e, 0, pe.rule_id, "exec through the overlay: ", pe.rule);
}

/* W with each layer's idmap as the rules take it: a real inode on the lower
 * layer is reached through the lower layer's mount (ovl_i_path_real,
 * ovl_path_lower: mnt_idmap(realpath.mnt)), one on the upper layer (and
 * the copy-up's, whiteout's, workdir's creations) through the upper one
 * (ovl_upper_mnt_idmap); the layers' maps may differ (the matrix's
 * layers axis, idmapped/006). Mutation points: #other-layer takes one
 * layer's map for the other's. */
static struct vt_ovl_world layer_maps(const struct vt_ovl_world *w)
{
	struct vt_ovl_world l = *w;

	l.lower_idmap = vt_lower_layer_idmap(w->lower_idmap, w->upper_idmap);
	l.upper_idmap = vt_upper_layer_idmap(w->upper_idmap, w->lower_idmap);
	return l;
}

static bool xattr_trusted(enum vt_mop op)
{
	return op == VT_OP_XATTR_SET_TRUSTED || op == VT_OP_XATTR_GET_TRUSTED ||
	       op == VT_OP_XATTR_REMOVE_TRUSTED;
}

/* user.* and trusted.* (matrix/009's "overlay/" cases) on the lower P/o
 * by path, 6.12 fs/xattr.c and fs/overlayfs/xattrs.c. The VFS's half as
 * the caller on the overlay inode through the overlay's own mount
 * (vfs_setxattr / vfs_getxattr / vfs_removexattr(&nop_mnt_idmap) ->
 * xattr_permission: may_write_xattr's HAS_UNMAPPED_ID on the owner
 * ovl_copyattr took through the lower idmap, capable(CAP_SYS_ADMIN) for
 * trusted.*, inode_permission -> ovl_permission for user.*); then the
 * overlay's catch-all handler (ovl_other_xattr_get/set: "trusted.vt" is
 * not one of overlay's own trusted.overlay.* names) as the mounter
 * (ovl_override_creds): ovl_xattr_get reads the real inode through its
 * layer's idmap; ovl_xattr_set (a removal: value NULL) asks the lower
 * inode first, copies up (ovl_copy_xattr copies user.* and trusted.*:
 * the mounter lists and reads them with CAP_SYS_ADMIN) and sets or
 * removes on the upper copy through the upper idmap. */
static void op_xattr(const struct vt_ovl_world *w, const struct vt_mop_args *a,
		     struct vt_ovl_expect *e)
{
	struct vt_minode root = vt_ovl_inode(w->upper_idmap, &w->upper_root);
	struct vt_minode ovl = vt_ovl_inode(w->lower_idmap, &w->lower_obj), up;
	bool get = a->op == VT_OP_XATTR_GET_USER || a->op == VT_OP_XATTR_GET_TRUSTED;
	bool set = a->op == VT_OP_XATTR_SET_USER || a->op == VT_OP_XATTR_SET_TRUSTED;
	struct vt_world cw, mw, uw;
	struct vt_mop_args ga;
	struct vt_expect pe, me, ue;

	/* the path walk: MAY_EXEC on P, both checks */
	if (ovl_inode_permission(w, &root, &w->upper_root, true, VT_MAY_EXEC, e))
		return;
	/* path_setxattr / path_removexattr: mnt_want_write after the walk */
	if (!get && ovl_read_only(w, e))
		return;
	/* the caller's xattr_permission on the overlay inode: the plain rules
	 * with the attribute there (whether it is decides the handler, below) */
	plain_world(&cw, w, &vt_nop_idmap, &w->caller, false);
	cw.dir = root;
	cw.obj = ovl;
	cw.obj.user_xattr = cw.obj.trusted_xattr = true;
	memset(&pe, 0, sizeof(pe));
	vt_model_apply(&cw, a, &pe);
	if (pe.err && VT_REFUSES_("xattr_permission/overlay")) {
		say(e, pe.err, pe.rule_id, "xattr_permission through the overlay mount, as the caller "
			       "on the overlay inode: ", pe.rule);
		return;
	}
	/* user.*: its inode_permission is ovl_permission, whose mounter half
	 * asks the real (lower) inode, MAY_WRITE as MAY_READ */
	if (!xattr_trusted(a->op) &&
	    ovl_inode_permission(w, &ovl, &w->lower_obj, false, get ? VT_MAY_READ : VT_MAY_WRITE, e))
		return;
	/* the mounter on the lower inode through the lower idmap: the value
	 * a get returns (ovl_xattr_get: the real inode is the lower one) or
	 * the presence a removal asks before copying up (ovl_xattr_set:
	 * !value && !upperdentry -> vfs_getxattr(mnt_idmap(lowerpath)) */
	plain_world(&mw, w, w->lower_idmap, &w->mounter, w->lower_rdonly);
	mw.dir = vt_minode_make(S_IFDIR | 0755, 0, 0);	/* the lower P */
	mw.obj = w->lower_obj;
	ga = *a;
	ga.op = xattr_trusted(a->op) ? VT_OP_XATTR_GET_TRUSTED : VT_OP_XATTR_GET_USER;
	if (get) {
		memset(&me, 0, sizeof(me));
		vt_model_apply(&mw, &ga, &me);
		if (!hit(w, VT_R_OVL_XATTR_GET_REAL, !me.err) && VT_REFUSES(VT_R_OVL_XATTR_GET_REAL)) {
			say(e, me.err, VT_R_OVL_XATTR_GET_REAL, "ovl_xattr_get: vfs_getxattr(lower idmap) "
				       "as the mounter: ", me.rule);
			return;
		}
		seen(w, w->lower_idmap, &w->lower_obj, e);
		hit(w, VT_R_OVL_XATTR_OK, true);
		say(e, 0, VT_R_OVL_XATTR_OK, "ovl_xattr_get: the lower inode's value, read by the "
			  "mounter through the lower idmap", NULL);
		return;
	}
	if (!set) {
		memset(&me, 0, sizeof(me));
		vt_model_apply(&mw, &ga, &me);
		if (!hit(w, VT_R_OVL_XATTR_REMOVE_LOWER, !me.err) &&
		    VT_REFUSES(VT_R_OVL_XATTR_REMOVE_LOWER)) {
			say(e, me.err, VT_R_OVL_XATTR_REMOVE_LOWER, "ovl_xattr_set (remove): "
				       "vfs_getxattr(lower idmap) as the mounter before any copy-up: ",
			    me.rule);
			return;
		}
	}
	/* ovl_xattr_set -> ovl_copy_up; the copy has the lower xattrs */
	if (copy_up(w, &up, e))
		return;
	copied_up(e, &up, true);
	/* ovl_do_setxattr / ovl_do_removexattr: vfs_setxattr /
	 * vfs_removexattr(upper idmap, upper copy) as the mounter */
	plain_world(&uw, w, w->upper_idmap, &w->mounter, false);
	uw.dir = w->upper_root;
	uw.obj = up;
	memset(&ue, 0, sizeof(ue));
	vt_model_apply(&uw, a, &ue);
	if (!hit(w, VT_R_OVL_XATTR_UPPER, !ue.err) && VT_REFUSES(VT_R_OVL_XATTR_UPPER)) {
		/* the copy stays, with the lower xattrs */
		say(e, ue.err, VT_R_OVL_XATTR_UPPER, "ovl_xattr_set: on the upper copy through the "
			       "upper idmap as the mounter: ", ue.rule);
		return;
	}
	e->upper_obj = ue.result;
	seen(w, w->upper_idmap, &ue.result, e);
	hit(w, VT_R_OVL_XATTR_OK, true);
	say(e, 0, VT_R_OVL_XATTR_OK, "ovl_xattr_set: copied up (with the lower xattrs), then set "
		  "or removed on the upper copy by the mounter through the upper idmap", NULL);
}

/* The access ACL of the lower P/o, or the default ACL of a lower directory
 * (matrix/005's "overlay/" cases), by path (fd_open for the fd forms),
 * 6.12 fs/posix_acl.c and fs/overlayfs/inode.c. Get: vfs_get_acl(&nop_mnt_idmap,
 * overlay) -> ovl_get_acl -> do_ovl_get_acl: the mounter reads the real
 * ACL through the lower idmap (vfs_get_acl asks no permission),
 * ovl_idmap_posix_acl maps it into the overlay's view (vt_ovl_inode), and
 * vfs_posix_acl_to_xattr gives the caller from_kuid(current_user_ns(),
 * ...) of those kuids: the plain acl_get on the overlay inode. No ACL
 * where the real inode has none or !IS_POSIXACL(realinode) (NULL:
 * ENODATA). Set: do_set_acl as the caller (posix_acl_from_xattr in the
 * caller's namespace, vfs_set_acl(&nop_mnt_idmap): may_write_xattr,
 * set_posix_acl: inode_owner_or_capable and posix_acl_valid on the overlay
 * inode; ovl_set_acl asks the owner again and kills S_ISGID as the caller
 * would: the plain acl_set on the overlay inode), then ovl_set_or_remove_acl:
 * the copy-up and ovl_do_set_acl -> vfs_set_acl(upper idmap) as the
 * mounter with the overlay kuids: vfs_set_acl_idmapped_mnt's from_vfsuid
 * through the upper idmap, may_write_xattr, set_posix_acl (posix_acl_valid:
 * an id the upper idmap cannot store is EINVAL after the copy-up), the
 * upper filesystem's posix_acl_update_mode as the mounter. */
static void op_acl(const struct vt_ovl_world *w, const struct vt_mop_args *a,
		   struct vt_ovl_expect *e)
{
	struct vt_minode root = vt_ovl_inode(w->upper_idmap, &w->upper_root);
	struct vt_minode ovl = vt_ovl_inode(w->lower_idmap, &w->lower_obj), up;
	struct vt_world cw, uw;
	struct vt_mop_args ua;
	struct vt_expect pe, ue;
	int k;

	/* the path walk: MAY_EXEC on P, both checks */
	if (ovl_inode_permission(w, &root, &w->upper_root, true, VT_MAY_EXEC, e))
		return;
	/* path_setxattr: mnt_want_write after the walk */
	if (a->op == VT_OP_ACL_SET && ovl_read_only(w, e))
		return;
	/* the caller on the overlay inode, whose sb has SB_POSIXACL; its ACL
	 * is NULL where the real inode's filesystem has none (do_ovl_get_acl:
	 * !IS_POSIXACL(realinode)) */
	plain_world(&cw, w, &vt_nop_idmap, &w->caller, false);
	cw.posixacl = true;
	cw.dir = root;
	cw.obj = ovl;
	if (!w->posixacl)
		cw.obj.nacl = cw.obj.ndefacl = 0;
	memset(&pe, 0, sizeof(pe));
	vt_model_apply(&cw, a, &pe);
	if (pe.err && VT_REFUSES_("acl/overlay-caller")) {
		say(e, pe.err, pe.rule_id, "the caller's ACL call on the overlay inode: ", pe.rule);
		return;
	}
	if (a->op == VT_OP_ACL_GET) {
		e->got_nacl = pe.got_nacl;
		memcpy(e->got_acl, pe.got_acl, sizeof(e->got_acl));
		seen(w, w->lower_idmap, &w->lower_obj, e);
		hit(w, VT_R_OVL_ACL_OK, true);
		say(e, 0, VT_R_OVL_ACL_OK, "ovl_get_acl: the real ACL through the lower idmap "
			  "(ovl_idmap_posix_acl), then the caller's view of those ids", NULL);
		return;
	}
	/* ovl_set_acl: !IS_POSIXACL(workdir), then !realinode->i_op->set_acl
	 * (ovl_inode_real: the lower inode before the copy-up) -> EOPNOTSUPP
	 * before the copy-up */
	if (!hit(w, VT_R_ACL_SET_NOTSUPP, w->posixacl && !w->lower_no_set_acl) &&
	    VT_REFUSES_("ovl_set_acl/workdir-posixacl")) {
		say(e, EOPNOTSUPP, VT_R_ACL_SET_NOTSUPP,
		    !w->posixacl ? "ovl_set_acl: the upper filesystem has no POSIX ACLs "
				   "(IS_POSIXACL(workdir))"
				 : "ovl_set_acl: the lower real inode has no ->set_acl (erofs), "
				   "checked before the copy-up", NULL);
		return;
	}
	if (copy_up(w, &up, e))
		return;
	copied_up(e, &up, true);
	/* ovl_do_set_acl: the kacl's kuids are the overlay's (the caller's
	 * make_kuid); the mounter's namespace is the initial one, where a
	 * kuid's number is its id */
	plain_world(&uw, w, w->upper_idmap, &w->mounter, false);
	uw.posixacl = w->posixacl;
	uw.dir = w->upper_root;
	uw.obj = up;
	ua = *a;
	for (k = 0; k < a->nacl; k++) {
		if (a->acl[k].tag == VT_ACL_USER)
			ua.acl[k].uid = vt_from_kuid(w->mounter.ns,
						     vt_make_kuid(w->caller.ns, a->acl[k].uid));
		else if (a->acl[k].tag == VT_ACL_GROUP)
			ua.acl[k].gid = vt_from_kgid(w->mounter.ns,
						     vt_make_kgid(w->caller.ns, a->acl[k].gid));
	}
	memset(&ue, 0, sizeof(ue));
	vt_model_apply(&uw, &ua, &ue);
	if (!hit(w, VT_R_OVL_ACL_UPPER, !ue.err) && VT_REFUSES(VT_R_OVL_ACL_UPPER)) {
		/* the copy stays, without the ACL */
		say(e, ue.err, VT_R_OVL_ACL_UPPER, "ovl_set_or_remove_acl: vfs_set_acl(upper idmap) "
			       "as the mounter: ", ue.rule);
		return;
	}
	e->upper_obj = ue.result;
	e->upper_mode = ue.result.mode;
	seen(w, w->upper_idmap, &ue.result, e);
	hit(w, VT_R_OVL_ACL_OK, true);
	say(e, 0, VT_R_OVL_ACL_OK, "ovl_set_acl: the caller's checks on the overlay inode, the "
		  "copy-up, then the ACL stored by the mounter through the upper idmap", NULL);
}

/* security.capability of the lower P/o by path (matrix/006's "overlay/"
 * cases), 6.12 security/commoncap.c and fs/overlayfs/xattrs.c. Get:
 * vfs_getxattr(&nop_mnt_idmap, overlay) -> xattr_getsecurity ->
 * cap_inode_getsecurity on the overlay inode, whose vfs_getxattr_alloc
 * reaches ovl_xattr_get: the mounter's vfs_getxattr(lower idmap, lower)
 * is itself cap_inode_getsecurity through the lower idmap in the
 * mounter's namespace (v3 with the rootid the lower mount shows, v2 where
 * that is 0, EOVERFLOW where it has none); the outer call reads that value
 * as the overlay's (s_user_ns the initial namespace, &nop_mnt_idmap) for
 * the caller: the plain fcaps_get on the overlay inode holding it. Set:
 * vfs_setxattr(&nop_mnt_idmap, overlay) -> cap_convert_nscap on the
 * overlay inode as the caller (CAP_SETFCAP over its ids, v2 kept by a
 * caller capable in the initial namespace, else v3 with the caller's
 * rootid as a kuid), may_write_xattr; then ovl_xattr_set: the copy-up and
 * ovl_do_setxattr -> vfs_setxattr(upper idmap) of the converted value as
 * the mounter, whose cap_convert_nscap maps the rootid (v2: 0) through the
 * upper idmap (EINVAL where it cannot, after the copy-up). A lower file's
 * own capability is not copied up by the model: set cases have none. */
static void op_fcaps(const struct vt_ovl_world *w, const struct vt_mop_args *a,
		     struct vt_ovl_expect *e)
{
	struct vt_minode root = vt_ovl_inode(w->upper_idmap, &w->upper_root);
	struct vt_minode ovl = vt_ovl_inode(w->lower_idmap, &w->lower_obj), up;
	struct vt_world cw, mw, uw;
	struct vt_mop_args ua;
	struct vt_expect pe, ue;
	struct vt_cfcaps m;
	enum vt_rule r = VT_R_NONE;
	int err;

	/* the path walk: MAY_EXEC on P, both checks */
	if (ovl_inode_permission(w, &root, &w->upper_root, true, VT_MAY_EXEC, e))
		return;
	if (a->op == VT_OP_FCAPS_SET && ovl_read_only(w, e))
		return;
	plain_world(&cw, w, &vt_nop_idmap, &w->caller, false);
	cw.dir = root;
	cw.obj = ovl;
	if (a->op == VT_OP_FCAPS_GET) {
		/* the mounter's read of the lower value (ovl_xattr_get) */
		plain_world(&mw, w, w->lower_idmap, &w->mounter, w->lower_rdonly);
		memset(&m, 0, sizeof(m));
		err = vt_model_fcaps_read(&mw, &w->lower_obj.fcaps, &m, &r);
		if (!hit(w, VT_R_OVL_FCAPS_GET_REAL, !err || err == ENODATA) &&
		    VT_REFUSES(VT_R_OVL_FCAPS_GET_REAL)) {
			say(e, err, VT_R_OVL_FCAPS_GET_REAL, "ovl_xattr_get: the mounter's "
				    "cap_inode_getsecurity through the lower idmap: ", rule_text(r));
			return;
		}
		memset(&cw.obj.fcaps, 0, sizeof(cw.obj.fcaps));
		if (!err) {
			cw.obj.fcaps.version = m.version;
			cw.obj.fcaps.rootid = vt_kuid(m.version == 3 ? m.rootid.val : 0);
		}
	}
	memset(&pe, 0, sizeof(pe));
	vt_model_apply(&cw, a, &pe);
	if (pe.err && VT_REFUSES_("fcaps/overlay-caller")) {
		say(e, pe.err, pe.rule_id, "security.capability through the overlay mount, as the "
			       "caller on the overlay inode: ", pe.rule);
		return;
	}
	if (a->op == VT_OP_FCAPS_GET) {
		e->got_fcaps = pe.got_fcaps;
		seen(w, w->lower_idmap, &w->lower_obj, e);
		hit(w, VT_R_OVL_FCAPS_OK, true);
		say(e, 0, VT_R_OVL_FCAPS_OK, "cap_inode_getsecurity on the overlay inode of the value "
			  "the mounter read through the lower idmap", NULL);
		return;
	}
	if (copy_up(w, &up, e))
		return;
	copied_up(e, &up, true);
	/* the mounter writes the value cap_convert_nscap left: its rootid a
	 * kuid, which is its own id in the mounter's (initial) namespace */
	plain_world(&uw, w, w->upper_idmap, &w->mounter, false);
	uw.dir = w->upper_root;
	uw.obj = up;
	ua = *a;
	ua.fcaps.version = pe.result.fcaps.version;
	ua.fcaps.rootid = vt_from_kuid(w->mounter.ns, pe.result.fcaps.rootid);
	memset(&ue, 0, sizeof(ue));
	vt_model_apply(&uw, &ua, &ue);
	if (!hit(w, VT_R_OVL_FCAPS_UPPER, !ue.err) && VT_REFUSES(VT_R_OVL_FCAPS_UPPER)) {
		say(e, ue.err, VT_R_OVL_FCAPS_UPPER, "ovl_xattr_set: vfs_setxattr(upper idmap) of the "
			       "converted value as the mounter: ", ue.rule);
		return;
	}
	e->upper_obj = ue.result;
	seen(w, w->upper_idmap, &ue.result, e);
	hit(w, VT_R_OVL_FCAPS_OK, true);
	say(e, 0, VT_R_OVL_FCAPS_OK, "cap_convert_nscap as the caller on the overlay inode, the "
		  "copy-up, then the mounter's cap_convert_nscap through the upper idmap", NULL);
}

/* The fd forms of the xattr calls on the lower P/o (matrix/005, 006 and
 * 009's "overlay/fd/" cases: fsetxattr, fgetxattr, fremovexattr of
 * user.*, trusted.*, system.posix_acl_access, security.capability on an
 * fd open for reading), 6.12 fs/xattr.c and fs/overlayfs/file.c. The
 * open(O_RDONLY) decides first: the walk's MAY_EXEC on P, may_open ->
 * inode_permission(MAY_OPEN | MAY_READ) on the overlay inode, which is
 * ovl_permission (the caller, then the mounter on the lower inode through
 * the lower idmap), then ovl_open: ovl_maybe_copy_up copies nothing up for
 * O_RDONLY (ovl_open_flags_need_copy_up) and ovl_open_realfile asks the
 * mounter's inode_permission(lower idmap, lower inode, MAY_OPEN | MAY_READ)
 * again (op_open). Then the syscall calls what the path form calls, on
 * the same overlay dentry and the overlay mount's idmap
 * (file_mnt_idmap(f), &nop_mnt_idmap): fsetxattr and fremovexattr after
 * mnt_want_write_file (EROFS on a read-only overlay, after the open),
 * do_setxattr / getxattr / removexattr -> vfs_*xattr: the path form's
 * steps (whose walk passes again: the open's did). PA is A as a path call
 * (the upper copy's mounter opens nothing); true if the open refused, E
 * holding why. */
static bool fd_open(const struct vt_ovl_world *w, const struct vt_mop_args *a,
		    struct vt_mop_args *pa, struct vt_ovl_expect *e)
{
	struct vt_minode root = vt_ovl_inode(w->upper_idmap, &w->upper_root);

	*pa = *a;
	pa->by_fd = false;
	if (!a->by_fd)
		return false;
	memset(e, 0, sizeof(*e));
	if (ovl_inode_permission(w, &root, &w->upper_root, true, VT_MAY_EXEC, e))
		return true;
	op_open(w, false, e);
	if (e->err)
		return true;
	memset(e, 0, sizeof(*e));
	return false;
}

void vt_ovl_model(const struct vt_ovl_world *ww, enum vt_ovl_op op, vt_cuid_t uid, vt_cgid_t gid,
		  struct vt_ovl_expect *e)
{
	const struct vt_ovl_world lw = layer_maps(ww), *w = &lw;
	struct vt_minode root = vt_ovl_inode(w->upper_idmap, &w->upper_root);

	memset(e, 0, sizeof(*e));
	switch (op) {
	case VT_OVL_STAT:
		/* the path walk (may_lookup on the root, both checks), then
		 * ovl_getattr */
		if (ovl_inode_permission(w, &root, &w->upper_root, true, VT_MAY_EXEC, e))
			return;
		seen(w, w->lower_idmap, &w->lower_obj, e);
		say(e, 0, VT_R_NONE, "ovl_getattr: the lower owner through the lower layer's idmap "
			  "(generic_fillattr), munged for the caller", NULL);
		return;
	case VT_OVL_OPEN_READ:
	case VT_OVL_OPEN_WRITE:
		if (ovl_inode_permission(w, &root, &w->upper_root, true, VT_MAY_EXEC, e))
			return;
		op_open(w, op == VT_OVL_OPEN_WRITE, e);
		return;
	case VT_OVL_CREATE:
		if (ovl_inode_permission(w, &root, &w->upper_root, true, VT_MAY_EXEC, e))
			return;
		op_create(w, e);
		return;
	case VT_OVL_CHOWN:
		op_chown(w, uid, gid, e);
		return;
	case VT_OVL_UNLINK:
	case VT_OVL_RMDIR:
		op_unlink(w, op == VT_OVL_RMDIR, e);
		return;
	case VT_OVL_RENAME:
		op_rename(w, w->lower_other.exists, e);
		return;
	case VT_OVL_LINK:
		op_link(w, e);
		return;
	}
}

/* The matrix's overlay world (overlay_model.h). */
void vt_ovl_model_mop(const struct vt_ovl_world *w, const struct vt_mop_args *a,
		      struct vt_expect *e)
{
	/* each layer's map where 6.12 takes it, once (#other-layer applied
	 * twice would undo itself; vt_ovl_model takes them itself) */
	const struct vt_ovl_world lw = layer_maps(w);
	struct vt_ovl_expect oe;
	struct vt_mop_args pa;
	enum vt_ovl_op op;
	bool create = false;

	memset(e, 0, sizeof(*e));
	switch (a->op) {
	case VT_OP_OPEN_READ:
		/* a lower symlink to P/t (matrix/012): overlay_fileops.c */
		if (S_ISLNK(w->lower_obj.mode))
			goto fileop;
		op = VT_OVL_OPEN_READ;
		break;
	/* (O_TRUNC is op_setattr's: the open for writing, then do_truncate
	 * -> ovl_setattr(ATTR_SIZE, and the setid bits the caller kills)) */
	case VT_OP_OPEN_WRITE: op = VT_OVL_OPEN_WRITE; break;
	/* fchownat(P/o, uid, gid, 0): the caller's setattr_prepare on the
	 * overlay inode, the copy-up, the mounter's notify_change through
	 * the upper idmap (op_chown) */
	case VT_OP_CHOWN: op = VT_OVL_CHOWN; break;
	/* unlink(P/o) of a lower file: the caller's may_delete on the overlay
	 * inodes, then the mounter's whiteout on the upper P (op_unlink) */
	case VT_OP_UNLINK: op = VT_OVL_UNLINK; break;
	/* rmdir of an empty lower dir: op_unlink's steps and
	 * ovl_check_empty_dir; rename to P/n or over the lower P/t (the
	 * world's lower_other: the case's t); link to P/n */
	case VT_OP_RMDIR: op = VT_OVL_RMDIR; break;
	case VT_OP_RENAME: op = VT_OVL_RENAME; break;
	case VT_OP_LINK: op = VT_OVL_LINK; break;
	/* chmod, write, truncate, open(O_TRUNC), utimensat: op_setattr */
	/* exec of a lower file: op_exec, the plain exec model on the overlay
	 * inode and the mounter's reads through the lower idmap */
	case VT_OP_EXEC:
		memset(&oe, 0, sizeof(oe));
		op_exec(&lw, a, &oe);
		goto answer;
	case VT_OP_CHMOD: case VT_OP_WRITE: case VT_OP_TRUNCATE: case VT_OP_OPEN_TRUNC:
	case VT_OP_UTIMENS_NOW: case VT_OP_UTIMENS_SET:
		memset(&oe, 0, sizeof(oe));
		op_setattr(&lw, a, &oe);
		goto answer;
	/* user.* and trusted.* by path or fd (fd_open first): op_xattr */
	case VT_OP_XATTR_SET_USER: case VT_OP_XATTR_SET_TRUSTED: case VT_OP_XATTR_GET_USER:
	case VT_OP_XATTR_GET_TRUSTED: case VT_OP_XATTR_REMOVE_USER: case VT_OP_XATTR_REMOVE_TRUSTED:
		memset(&oe, 0, sizeof(oe));
		if (!fd_open(&lw, a, &pa, &oe))
			op_xattr(&lw, &pa, &oe);
		goto answer;
	/* the access or default ACL, by path or fd: op_acl */
	case VT_OP_ACL_SET: case VT_OP_ACL_GET:
		/* (a default ACL the same way: ovl_get_acl and ovl_set_acl take
		 * the type; the copy-up of a directory is copy_up's) */
		memset(&oe, 0, sizeof(oe));
		if (!fd_open(&lw, a, &pa, &oe))
			op_acl(&lw, &pa, &oe);
		goto answer;
	/* security.capability by path or fd: op_fcaps */
	case VT_OP_FCAPS_SET: case VT_OP_FCAPS_GET:
		memset(&oe, 0, sizeof(oe));
		if (!fd_open(&lw, a, &pa, &oe))
			op_fcaps(&lw, &pa, &oe);
		goto answer;
	case VT_OP_OPEN_CREAT: case VT_OP_OPEN_CREAT_EXCL:
		if (a->on_existing)
			goto unmodelled;
		op = VT_OVL_CREATE;
		create = true;
		break;
	/* matrix/013's calls and matrix/012's O_CREAT of an existing file
	 * or fifo: overlay_fileops.c */
	case VT_OP_ACCESS: case VT_OP_CHDIR: case VT_OP_OPEN_NOATIME: case VT_OP_SETFL_NOATIME:
	case VT_OP_SETLEASE: case VT_OP_SETFLAGS: case VT_OP_FSSETXATTR: case VT_OP_DEDUPE:
	case VT_OP_READ_ATIME: case VT_OP_CACHESTAT: case VT_OP_OPEN_CREAT_RDONLY:
	fileop:
		memset(&oe, 0, sizeof(oe));
		if (!vt_ovl_fileop(&lw, a, &oe))
			goto unmodelled;
		goto answer;
	default:
	unmodelled:
		/* the families ask nothing else of this world (tests/matrix/README.md) */
		e->err = EINVAL;
		e->rule = "vt_ovl_model_mop: an operation the overlay world does not model";
		return;
	}
	{
		struct vt_ovl_world cw = *w;

		if (create)
			cw.create_mode = a->mode & 07777;
		vt_ovl_model(&cw, op, a->uid, a->gid, &oe);
	}
answer:
	e->err = oe.err;
	e->rule_id = oe.rule_id;
	/* the table's text: OE.rule is say()'s buffer, which the next case
	 * the matrix models (a block's cases are modelled before they run)
	 * overwrites */
	e->rule = oe.rule_id != VT_R_NONE ? vt_rule_info(oe.rule_id)->text
					  : "overlay_model.c: a plain rule";
	e->seen_uid = oe.seen_uid;
	e->seen_gid = oe.seen_gid;
	e->creds = oe.creds;
	e->got_fcaps = oe.got_fcaps;
	e->atime_updated = oe.atime_updated;
	e->got_nacl = oe.got_nacl;
	memcpy(e->got_acl, oe.got_acl, sizeof(e->got_acl));
	/* the upper layer's P/o (P/n) afterwards: the copy-up's or the new
	 * file (mode: a copy-up keeps the lower mode, ovl_set_attr ATTR_MODE;
	 * a new file is 0644 as op_create makes it) */
	if (oe.upper) {
		e->result = create ? vt_minode_make(oe.upper_mode, 0, 0) : w->lower_obj;
		if (oe.upper_mode)	/* op_setattr: the mode the upper copy has now */
			e->result.mode = oe.upper_mode;
		if (oe.upper_obj_set)	/* op_xattr: the whole upper inode */
			e->result = oe.upper_obj;
		if (oe.whiteout) {
			/* vfs_whiteout: vfs_mknod(S_IFCHR | WHITEOUT_MODE (0),
			 * WHITEOUT_DEV); no umask (not do_mknodat) */
			e->result = vt_minode_make(S_IFCHR, 0, 0);
			e->result.uid = oe.upper_uid;
			e->result.gid = oe.upper_gid;
			e->obj_gone = true;	/* the caller's P/o is gone */
		}
		e->result.uid = oe.upper_uid;
		e->result.gid = oe.upper_gid;
	}
	if (oe.old_whiteout) {
		/* rename: the upper P/o is the whiteout RENAME_WHITEOUT left */
		e->has_whiteout = true;
		e->whiteout = vt_minode_make(S_IFCHR, 0, 0);
		e->whiteout.uid = oe.old_whiteout_uid;
		e->whiteout.gid = oe.old_whiteout_gid;
	}
}

/* For overlay_fileops.c (overlay_internal.h): the helpers above. */
void vt_ovl_plain_world(struct vt_world *pw, const struct vt_ovl_world *w,
			const struct vt_midmap *idmap, const struct vt_mcred *cred, bool rdonly)
{
	plain_world(pw, w, idmap, cred, rdonly);
}

bool vt_ovl_hit(const struct vt_ovl_world *w, enum vt_rule rule, bool allowed)
{
	return hit(w, rule, allowed);
}

void vt_ovl_say(struct vt_ovl_expect *e, int err, enum vt_rule id, const char *what,
		const char *inner)
{
	say(e, err, id, what, inner);
}

bool vt_ovl_read_only(const struct vt_ovl_world *w, struct vt_ovl_expect *e)
{
	return ovl_read_only(w, e);
}

int vt_ovl_inode_permission(const struct vt_ovl_world *w, const struct vt_minode *ovl,
			    const struct vt_minode *real, bool real_upper, int mask,
			    struct vt_ovl_expect *e)
{
	return ovl_inode_permission(w, ovl, real, real_upper, mask, e);
}

void vt_ovl_seen(const struct vt_ovl_world *w, const struct vt_midmap *layer,
		 const struct vt_minode *real, struct vt_ovl_expect *e)
{
	seen(w, layer, real, e);
}

int vt_ovl_copy_up(const struct vt_ovl_world *w, struct vt_minode *up, struct vt_ovl_expect *e)
{
	return copy_up(w, up, e);
}
