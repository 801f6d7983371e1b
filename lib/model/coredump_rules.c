/* do_coredump's own file (fs/coredump.c, Linux 6.12, lines 700-791): for
 * a dumping task that is not suid-safe the core name is removed first as
 * the task (do_unlinkat(AT_FDCWD, corename)), then created with
 * filp_open(O_CREAT|O_EXCL|O_WRONLY|O_NOFOLLOW, 0600) through the mount the
 * name resolves in; the dump goes on only if the new inode's owner seen
 * through that mount (i_uid_into_vfsuid with the file's mount idmap) is the task's
 * fsuid and its mode is 0600 under 0677, and do_truncate(idmap) then
 * empties it. A failure after the create leaves the empty file. */
#include "model/coredump_model.h"
#include "model/rules.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

void vt_model_coredump(const struct vt_world *w, struct vt_core_expect *out)
{
	struct vt_world lw = *w;
	struct vt_mop_args a;
	struct vt_expect e;
	struct vt_core_expect *ce = out;

	memset(out, 0, sizeof(*out));
	if (w->obj.exists) {
		/* do_unlinkat(AT_FDCWD, corename): its result is ignored
		 * ("we'll catch it at the filp_open()") */
		memset(&a, 0, sizeof(a));
		a.op = VT_OP_UNLINK;
		vt_model_delete(w, &a, &e);
		if (!e.err) {
			ce->old_gone = true;
			lw.obj.exists = false;
		}
	}
	/* filp_open(corename, O_CREAT|O_EXCL|O_WRONLY|O_NOFOLLOW, 0600) of
	 * P/o: an old file still there is EEXIST (do_open), else
	 * may_o_create/vfs_create through the mount */
	memset(&a, 0, sizeof(a));
	a.op = VT_OP_OPEN_CREAT_EXCL;
	a.mode = 0600;
	a.on_existing = lw.obj.exists;
	vt_model_apply(&lw, &a, &e);
	if (e.err) {
		ce->err = e.err;
		ce->rule_id = e.rule_id;
		ce->rule = e.rule;
		return;
	}
	ce->created = true;
	ce->core = e.result;
	/* "cannot preserve file owner": vfsuid_eq_kuid(i_uid_into_vfsuid(
	 * the file's mount idmap, inode), current_fsuid()) */
	if (!vt_hit(w, VT_R_COREDUMP_OWNER,
		    vt_vfsuid_eq_kuid(vt_i_uid_into_vfsuid(w, &ce->core), vt_cur_fsuid(w))) &&
	    VT_REFUSES(VT_R_COREDUMP_OWNER)) {
		ce->rule_id = VT_R_COREDUMP_OWNER;
		ce->rule = vt_rule_info(VT_R_COREDUMP_OWNER)->text;
		return;
	}
	/* "cannot preserve file permissions": (i_mode & 0677) != 0600 */
	if (!vt_hit(w, VT_R_COREDUMP_MODE, (ce->core.mode & 0677) == 0600) &&
	    VT_REFUSES(VT_R_COREDUMP_MODE)) {
		ce->rule_id = VT_R_COREDUMP_MODE;
		ce->rule = vt_rule_info(VT_R_COREDUMP_MODE)->text;
		return;
	}
	/* do_truncate(idmap, dentry, 0, 0, file) of a file just created
	 * empty: notify_change(ATTR_SIZE) asks nothing of the ids */
	vt_hit(w, VT_R_COREDUMP_WRITTEN, true);
	ce->written = true;
	ce->rule_id = VT_R_COREDUMP_WRITTEN;
	ce->rule = vt_rule_info(VT_R_COREDUMP_WRITTEN)->text;
}
