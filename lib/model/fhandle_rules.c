/* open_by_handle_at through an idmapped mount (Linux 6.12). The idmap is
 * asked in three places: by reconnect_one (expfs.c:148), whose
 * lookup_one_unlocked(mnt_idmap(mnt)) needs MAY_EXEC through the mount on
 * each ancestor of a directory whose dentry was disconnected; by
 * vfs_dentry_acceptable (fhandle.c:168-205) for a caller admitted by
 * may_decode_fh instead of capable(CAP_DAC_READ_SEARCH): T and its
 * ancestors up to mountdirfd must have ids that map into the caller's
 * namespace through the mount (privileged_wrt_inode_uidgid); and by the
 * open itself (do_handle_open -> file_open_root -> may_open:
 * inode_permission with the file's mount idmap). Every decode failure but ENOMEM is
 * ESTALE to the caller (do_handle_to_path). */
#include "model/fhandle_model.h"
#include "model/rules.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#define HANDLE_CHECK_PERMS 1
#define HANDLE_CHECK_SUBTREE 2

/* may_decode_fh(): the flags, 0 when it refuses */
static int may_decode_fh(const struct vt_fh_world *f)
{
	const struct vt_world *w = f->w;
	int flags;

	if (!f->o_directory)
		return 0;
	if (vt_sb_ns_capable(w, VT_CAP_SYS_ADMIN))
		flags = HANDLE_CHECK_PERMS;
	else if (f->own_mnt_ns && vt_ns_capable(w, w->cred.ns, VT_CAP_SYS_ADMIN))
		flags = HANDLE_CHECK_PERMS | HANDLE_CHECK_SUBTREE;
	else
		return 0;
	if (!vt_ns_capable(w, w->cred.ns, VT_CAP_DAC_READ_SEARCH))
		return 0;
	return flags;
}

void vt_model_open_by_handle(const struct vt_fh_world *f, struct vt_expect *out)
{
	const struct vt_world *w = f->w;
	struct vt_expect *e = out;
	enum vt_rule rule = VT_R_NONE;
	int flags = 0, k, ret;
	bool isdir = S_ISDIR(f->target.mode);

	memset(out, 0, sizeof(*out));
	out->got_nacl = -1;
	/* handle_to_path: capable(CAP_DAC_READ_SEARCH) keeps the old model
	 * (ctx.flags 0); else may_decode_fh decides, EPERM */
	if (!vt_capable(w, VT_CAP_DAC_READ_SEARCH)) {
		flags = may_decode_fh(f);
		if (!vt_hit(w, VT_R_FH_PERM, flags != 0))
			VT_FAIL(e, EPERM, VT_R_FH_PERM);
	} else {
		vt_hit(w, VT_R_FH_PERM, true);
	}
	/* exportfs_decode_fh_raw: EXPORT_FH_DIR_ONLY (may_decode_fh's) and
	 * a non-directory: ENOTDIR, ESTALE to the caller */
	if (flags && !vt_hit(w, VT_R_FH_DIR_ONLY, isdir))
		VT_FAIL(e, ESTALE, VT_R_FH_DIR_ONLY);
	/* a disconnected directory: reconnect_path -> reconnect_one for each
	 * ancestor up to the connected root: lookup_one_unlocked(mnt_idmap)
	 * of the child's name in its parent, inode_permission(MAY_EXEC) on
	 * the parent through the mount. A non-directory is accepted as it
	 * came (find_acceptable_alias: acceptable() holds for ctx.flags 0;
	 * with flags set it never gets here) */
	if (isdir && f->cold)
		for (k = 0; k < f->nanc; k++)
			if (vt_inode_permission_at(w, &f->anc[k], VT_MAY_EXEC,
						   VT_R_FH_RECONNECT_EXEC, &rule))
				VT_FAIL(e, ESTALE, VT_R_FH_RECONNECT_EXEC);
	/* vfs_dentry_acceptable: with ctx.flags, T and each ancestor up to
	 * mountdirfd's dentry (or the filesystem's root) must map into the
	 * caller's namespace through the mount */
	if (flags) {
		if (!vt_hit(w, VT_R_FH_ACCEPT_MAPPED,
			    vt_privileged_wrt_inode_uidgid(w, w->cred.ns, &f->target)))
			VT_FAIL(e, ESTALE, VT_R_FH_ACCEPT_MAPPED);
		for (k = 0; f->root_at != k && k < f->nanc; k++)
			if (!vt_hit(w, VT_R_FH_ACCEPT_MAPPED,
				    vt_privileged_wrt_inode_uidgid(w, w->cred.ns, &f->anc[k])))
				VT_FAIL(e, ESTALE, VT_R_FH_ACCEPT_MAPPED);
		/* HANDLE_CHECK_SUBTREE: the walk must have met mountdirfd */
		if ((flags & HANDLE_CHECK_SUBTREE) &&
		    !vt_hit(w, VT_R_FH_ACCEPT_SUBTREE, f->root_at >= 0))
			VT_FAIL(e, ESTALE, VT_R_FH_ACCEPT_SUBTREE);
	}
	/* do_handle_open -> file_open_root(&path, "", O_RDONLY) -> may_open:
	 * inode_permission(the mount idmap, T, MAY_READ) */
	ret = vt_inode_permission(w, &f->target, VT_MAY_READ, &rule);
	if (ret)
		VT_FAIL(e, -ret, rule);
	VT_SUCCEED(e, VT_R_FH_OPEN_OK);
}
