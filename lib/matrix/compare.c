/* Comparing what a case did with what the model expects (compare.h), and
 * the text a mismatch is reported with. */
#include "matrix/compare.h"
#include "util/errname.h"
#include "world/xattr_view.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The name the result of OP lives under. */
const char *mx_result_name(const struct vt_mop_args *a)
{
	switch (a->op) {
	case VT_OP_OPEN_CREAT:
	case VT_OP_OPEN_CREAT_RDONLY:
	case VT_OP_OPEN_CREAT_EXCL:
	case VT_OP_MKDIR:
	case VT_OP_MKFIFO:
	case VT_OP_SYMLINK:
	case VT_OP_MKNOD_CHR:
		return a->on_existing ? "o" : "n";
	case VT_OP_LINK:
	case VT_OP_TMPFILE:	/* the caller links the tmpfile to P/n */
		return "n";
	case VT_OP_RENAME:
	case VT_OP_RENAME_NOREPLACE:
	case VT_OP_RENAME_WHITEOUT:
		return a->to_other ? "t" : "n";
	case VT_OP_RENAME_EXCHANGE:
		return "t";
	default:
		return "o";
	}
}

void mx_say(struct mx_report *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(r->buf + r->off, sizeof(r->buf) - r->off, fmt, ap);
	va_end(ap);
	if (n > 0 && r->off + (size_t)n < sizeof(r->buf))
		r->off += (size_t)n;
}

static void diff(struct mx_report *r, const char *what, long long want, long long got, bool octal)
{
	r->diffs++;
	if (octal)
		mx_say(r, "  %s: expected %llo, actual %llo\n", what, want, got);
	else
		mx_say(r, "  %s: expected %lld, actual %lld\n", what, want, got);
}

void mx_describe_inode(struct mx_report *r, const char *name, const struct vt_minode *i)
{
	int k;

	if (!i->exists) {
		mx_say(r, "  %s: absent\n", name);
		return;
	}
	mx_say(r, "  %s: mode %o owner %u:%u", name, (unsigned)i->mode, i->uid.val, i->gid.val);
	for (k = 0; k < i->nacl; k++)
		mx_say(r, "%s%x:%u:%d", k ? "," : " acl ", i->acl[k].tag, i->acl[k].perm,
		    i->acl[k].tag == VT_ACL_USER ? (int)i->acl[k].uid.val
		    : i->acl[k].tag == VT_ACL_GROUP ? (int)i->acl[k].gid.val : -1);
	for (k = 0; k < i->ndefacl; k++)
		mx_say(r, "%s%x:%u:%d", k ? "," : " default-acl ", i->defacl[k].tag, i->defacl[k].perm,
		    i->defacl[k].tag == VT_ACL_USER ? (int)i->defacl[k].uid.val
		    : i->defacl[k].tag == VT_ACL_GROUP ? (int)i->defacl[k].gid.val : -1);
	if (i->fcaps.version)
		mx_say(r, " fcaps v%d rootid %u", i->fcaps.version, i->fcaps.rootid.val);
	mx_say(r, " (on-disk ids)\n");
}

static void compare_acl(struct mx_report *r, const char *what, const struct vt_acl_kentry *want,
			int nwant, const struct vt_acl_kentry *got, int ngot)
{
	int k;

	if (nwant != ngot) {
		diff(r, what, nwant, ngot, false);
		return;
	}
	for (k = 0; k < nwant; k++) {
		if (want[k].tag != got[k].tag || want[k].perm != got[k].perm ||
		    (want[k].tag == VT_ACL_USER && want[k].uid.val != got[k].uid.val) ||
		    (want[k].tag == VT_ACL_GROUP && want[k].gid.val != got[k].gid.val)) {
			r->diffs++;
			mx_say(r, "  %s entry %d: expected tag %x perm %u id %u:%u, actual tag %x perm %u id %u:%u\n",
			    what, k, want[k].tag, want[k].perm, want[k].uid.val, want[k].gid.val,
			    got[k].tag, got[k].perm, got[k].uid.val, got[k].gid.val);
		}
	}
}

/* security.capability can only be read through cap_inode_getsecurity, so
 * the observer (initial root, plain mount) sees the stored value as that
 * function presents it to the initial namespace: compare with that. */
static void compare_fcaps(struct mx_report *r, const struct vt_world *w,
			  const struct vt_kfcaps *want, const struct vt_kfcaps *got)
{
	struct vt_world observer = *w;
	struct vt_cfcaps seen = { 0, vt_cuid(0) };
	enum vt_rule rule;

	observer.idmap = &vt_nop_idmap;
	observer.trace = NULL;	/* the observer's read is not the case's decision */
	observer.cred.ns = &vt_init_ns;
	if (vt_model_fcaps_read(&observer, want, &seen, &rule) != 0)
		seen.version = 0;
	if (got->version != seen.version)
		diff(r, "fcaps version read by the initial root", seen.version, got->version, false);
	else if (got->version == 3 && got->rootid.val != seen.rootid.val)
		diff(r, "fcaps v3 rootid read by the initial root", seen.rootid.val, got->rootid.val,
		     false);
}

/* An exec's credentials as exec-probe reported them (VT_OP_EXEC, success). */
static void compare_exec_creds(struct mx_report *r, const struct vt_expect *e,
			       const struct vt_exec_reply *rep)
{
	const struct vt_exec_creds *x = &e->creds, *y = &rep->creds;

	if (!rep->have_creds) {
		r->diffs++;
		mx_say(r, "  exec-probe did not report: %s\n", rep->exec_msg);
	} else {
		if (x->ruid != y->ruid) diff(r, "ruid after exec", x->ruid, y->ruid, false);
		if (x->euid != y->euid) diff(r, "euid after exec", x->euid, y->euid, false);
		if (x->suid != y->suid) diff(r, "suid after exec", x->suid, y->suid, false);
		if (x->rgid != y->rgid) diff(r, "rgid after exec", x->rgid, y->rgid, false);
		if (x->egid != y->egid) diff(r, "egid after exec", x->egid, y->egid, false);
		if (x->sgid != y->sgid) diff(r, "sgid after exec", x->sgid, y->sgid, false);
		if (x->cap_prm != y->cap_prm) {
			r->diffs++;
			mx_say(r, "  permitted caps after exec: expected %#llx, actual %#llx\n",
			    (unsigned long long)x->cap_prm, (unsigned long long)y->cap_prm);
		}
		if (x->cap_eff != y->cap_eff) {
			r->diffs++;
			mx_say(r, "  effective caps after exec: expected %#llx, actual %#llx\n",
			    (unsigned long long)x->cap_eff, (unsigned long long)y->cap_eff);
		}
		/* would_dump, begin_new_exec, commit_creds, task_dump_owner */
		if (x->dump_user != y->dump_user)
			diff(r, "dumpable == SUID_DUMP_USER after exec", x->dump_user,
			     y->dump_user, false);
		if (x->dump_owner != y->dump_owner)
			diff(r, "owner of /proc/self/status after exec", x->dump_owner,
			     y->dump_owner, false);
	}
}

/* ACL_GET: the entries the caller read */
static void compare_acl_read(struct mx_report *r, const struct vt_expect *e,
			     const struct vt_exec_reply *rep)
{
	int k;

	if (rep->nacl != e->got_nacl) {
		diff(r, "ACL entries read", e->got_nacl, rep->nacl, false);
		return;
	}
	for (k = 0; k < rep->nacl; k++)
		if (rep->acl[k].tag != e->got_acl[k].tag ||
		    rep->acl[k].perm != e->got_acl[k].perm ||
		    (rep->acl[k].tag == VT_ACL_USER && rep->acl[k].uid.val != e->got_acl[k].uid.val) ||
		    (rep->acl[k].tag == VT_ACL_GROUP && rep->acl[k].gid.val != e->got_acl[k].gid.val)) {
			r->diffs++;
			mx_say(r, "  ACL entry %d read: expected tag %x id %u:%u, actual tag %x id %u:%u\n",
			    k, e->got_acl[k].tag, e->got_acl[k].uid.val, e->got_acl[k].gid.val,
			    rep->acl[k].tag, rep->acl[k].uid.val, rep->acl[k].gid.val);
		}
}

/* FCAPS_GET: what the caller read */
static void compare_fcaps_read(struct mx_report *r, const struct vt_expect *e,
			       const struct vt_exec_reply *rep)
{
	if (rep->fcaps.version != e->got_fcaps.version)
		diff(r, "fcaps version read", e->got_fcaps.version, rep->fcaps.version, false);
	else if (rep->fcaps.version == 3 && rep->fcaps.rootid.val != e->got_fcaps.rootid.val)
		diff(r, "fcaps v3 rootid read", e->got_fcaps.rootid.val, rep->fcaps.rootid.val, false);
}

/* atime_needs_update (file_rules.c; overlay_fileops.c: the lower file's
 * atime the caller's fstat() through the overlay shows) */
static void compare_atime(struct mx_report *r, const struct vt_expect *e,
			  const struct vt_exec_reply *rep)
{
	if (!rep->atime_was_old)
		diff(r, "atime before the read is the fixture's (utimensat as root)", 1, 0, false);
	else if (e->atime_updated != rep->atime_updated)
		diff(r, "atime updated by the read", e->atime_updated, rep->atime_updated, false);
}

/* The overlay world (c->ovl): DISK is the upper layer's P/<result> as the
 * initial root reads it on the filesystem under test (no entry: no copy-up
 * and no new file), the errno and, on success, what the caller's stat()
 * through the overlay shows. The lower P/o is never written (overlayfs
 * writes only its upper layer). */
static void compare_ovl(struct mx_report *r, const struct vt_expect *e, int err,
			const struct vt_exec_reply *rep, const struct vt_minode *disk,
			bool obj_exists, const struct stat *obj_st)
{
	if (e->err != err) {
		r->diffs++;
		mx_say(r, "  errno: expected %s, actual %s\n", vt_errname(e->err), vt_errname(err));
		return;
	}
	/* a rename: the upper P/o holds the whiteout ovl_rename's
	 * RENAME_WHITEOUT left (OBJ_ST: the upper P/o as the initial root
	 * lstat()s it; the upper idmap's ids are stored kernel ids) */
	if (e->has_whiteout) {
		if (!obj_exists) {
			diff(r, "whiteout at the upper P/o exists", 1, 0, false);
		} else {
			if (obj_st->st_mode != e->whiteout.mode || obj_st->st_rdev != 0)
				diff(r, "whiteout at the upper P/o: mode (rdev must be 0:0)",
				     e->whiteout.mode,
				     obj_st->st_mode | (obj_st->st_rdev ? 01000000 : 0), true);
			if (obj_st->st_uid != e->whiteout.uid.val)
				diff(r, "whiteout at the upper P/o: on-disk uid", e->whiteout.uid.val,
				     obj_st->st_uid, false);
			if (obj_st->st_gid != e->whiteout.gid.val)
				diff(r, "whiteout at the upper P/o: on-disk gid", e->whiteout.gid.val,
				     obj_st->st_gid, false);
		}
	}
	if (disk->exists != e->result.exists) {
		diff(r, "upper layer entry exists", e->result.exists, disk->exists, false);
	} else if (disk->exists) {
		if (disk->uid.val != e->result.uid.val)
			diff(r, "upper on-disk uid", e->result.uid.val, disk->uid.val, false);
		if (disk->gid.val != e->result.gid.val)
			diff(r, "upper on-disk gid", e->result.gid.val, disk->gid.val, false);
		if (disk->mode != e->result.mode)
			diff(r, "upper on-disk mode", e->result.mode, disk->mode, true);
		/* matrix/009: user.vt and trusted.vt on the upper copy (the
		 * copy-up's, then the set's or the removal's) */
		if (disk->user_xattr != e->result.user_xattr)
			diff(r, "upper has user.vt", e->result.user_xattr, disk->user_xattr, false);
		if (disk->trusted_xattr != e->result.trusted_xattr)
			diff(r, "upper has trusted.vt", e->result.trusted_xattr, disk->trusted_xattr,
			     false);
		/* matrix/005: the upper copy's access ACL (its on-disk ids) */
		compare_acl(r, "upper on-disk ACL entries", e->result.acl, e->result.nacl, disk->acl,
			    disk->nacl);
		compare_acl(r, "upper on-disk default ACL entries", e->result.defacl,
			    e->result.ndefacl, disk->defacl, disk->ndefacl);
	}
	/* unlink: the caller's name is gone (the executor stats nothing) */
	if (err || e->obj_gone)
		return;
	if (!rep->have_stat) {
		diff(r, "stat as caller through the overlay", 1, 0, false);
	} else {
		if (rep->uid != e->seen_uid.val)
			diff(r, "uid seen by the caller through the overlay", e->seen_uid.val, rep->uid,
			     false);
		if (rep->gid != e->seen_gid.val)
			diff(r, "gid seen by the caller through the overlay", e->seen_gid.val, rep->gid,
			     false);
	}
}

void mx_compare(struct mx_report *r, const struct vt_world *w, const struct vt_mcase *c,
		    const struct vt_expect *e,
		    int err, const struct vt_exec_reply *rep, const struct vt_minode *disk,
		    bool obj_exists, const struct stat *obj_st)
{
	const struct vt_mop_args *a = &c->op;
	const struct vt_minode *want = &e->result;
	struct vt_minode unchanged;
	bool want_obj = c->obj.exists && !e->obj_gone;

	if (c->ovl) {
		compare_ovl(r, e, err, rep, disk, obj_exists, obj_st);
		if (err != e->err)
			return;
		if (!err && a->op == VT_OP_EXEC)
			compare_exec_creds(r, e, rep);
		if (!err && a->op == VT_OP_ACL_GET)
			compare_acl_read(r, e, rep);
		if (!err && a->op == VT_OP_READ_ATIME)	/* matrix/013 */
			compare_atime(r, e, rep);
		/* matrix/006: the upper copy's security.capability as the
		 * initial root reads it, and what the caller read */
		if (disk->exists && e->result.exists)
			compare_fcaps(r, w, &e->result.fcaps, &disk->fcaps);
		if (!err && a->op == VT_OP_FCAPS_GET)
			compare_fcaps_read(r, e, rep);
		return;
	}

	if (e->err != err) {
		r->diffs++;
		mx_say(r, "  errno: expected %s, actual %s\n", vt_errname(e->err), vt_errname(err));
		return;
	}
	if (err) {
		/* a refused operation changes nothing: the result name holds
		 * what the fixture put there (or nothing) */
		const char *n = mx_result_name(a);

		if (!*n)
			return;
		memset(&unchanged, 0, sizeof(unchanged));
		if (strcmp(n, "o") == 0)
			unchanged = c->obj;
		else if (strcmp(n, "t") == 0)
			unchanged = c->other;
		want = &unchanged;
		want_obj = c->obj.exists;
	}
	if (a->op == VT_OP_TMPFILE && !err) {
		if (!rep->have_stat) {
			diff(r, "tmpfile fstat", 1, 0, false);
			return;
		}
		if (rep->mode != e->result.mode)
			diff(r, "mode (fstat as caller)", e->result.mode, rep->mode, true);
		if (rep->link_err != e->link_err) {
			r->diffs++;
			mx_say(r, "  linkat(/proc/self/fd/N, P/n) of the tmpfile: expected %s (%s), actual %s\n",
			    vt_errname(e->link_err), e->link_rule ? e->link_rule : "",
			    vt_errname(rep->link_err));
			return;
		}
		if (e->link_err) {
			memset(&unchanged, 0, sizeof(unchanged));
			want = &unchanged;
		}
	}
	if (a->op == VT_OP_RENAME_WHITEOUT && !err && e->has_whiteout) {
		/* the observer (initial root, plain mount) sees the whiteout's
		 * ids through from_kuid_munged(&init_user_ns, ...) */
		uint32_t wuid = vt_from_kuid_munged(&vt_init_ns, e->whiteout.uid, w->overflowuid).val;
		uint32_t wgid = vt_from_kgid_munged(&vt_init_ns, e->whiteout.gid, w->overflowgid).val;

		if (!obj_exists) {
			diff(r, "whiteout at P/o exists", 1, 0, false);
		} else {
			if (obj_st->st_mode != e->whiteout.mode || obj_st->st_rdev != 0)
				diff(r, "whiteout at P/o: mode (rdev must be 0:0)", e->whiteout.mode,
				     obj_st->st_mode | (obj_st->st_rdev ? 01000000 : 0), true);
			if (obj_st->st_uid != wuid)
				diff(r, "whiteout on-disk uid (stat by the initial root)", wuid,
				     obj_st->st_uid, false);
			if (obj_st->st_gid != wgid)
				diff(r, "whiteout on-disk gid (stat by the initial root)", wgid,
				     obj_st->st_gid, false);
		}
	}
	if (a->op == VT_OP_READ_ATIME && !err)
		compare_atime(r, e, rep);
	if (a->op == VT_OP_EXEC && !err)
		compare_exec_creds(r, e, rep);
	if (*mx_result_name(a)) {
		if (disk->exists != want->exists) {
			diff(r, "result exists", want->exists, disk->exists, false);
			return;
		}
		if ((want_obj) != obj_exists)
			diff(r, "P/o exists", want_obj, obj_exists, false);
		if (!disk->exists)
			return;
		if (disk->uid.val != want->uid.val)
			diff(r, "on-disk uid", want->uid.val, disk->uid.val, false);
		if (disk->gid.val != want->gid.val)
			diff(r, "on-disk gid", want->gid.val, disk->gid.val, false);
		if (disk->mode != want->mode)
			diff(r, "on-disk mode", want->mode, disk->mode, true);
		compare_acl(r, "on-disk access ACL entries", want->acl, want->nacl, disk->acl,
			    disk->nacl);
		if (S_ISDIR(disk->mode))
			compare_acl(r, "on-disk default ACL entries", want->defacl,
				    want->ndefacl, disk->defacl, disk->ndefacl);
		compare_fcaps(r, w, &want->fcaps, &disk->fcaps);
		if (disk->user_xattr != want->user_xattr)
			diff(r, "user.vt present on disk", want->user_xattr, disk->user_xattr, false);
		if (disk->trusted_xattr != want->trusted_xattr)
			diff(r, "trusted.vt present on disk", want->trusted_xattr,
			     disk->trusted_xattr, false);
		if (disk->security_xattr != want->security_xattr)
			diff(r, "security.vt present on disk", want->security_xattr,
			     disk->security_xattr, false);
	}
	if (err)
		return;
	if (e->result.exists) {
		if (!rep->have_stat) {
			diff(r, "stat as caller through the mount", 1, 0, false);
		} else {
			if (rep->uid != e->seen_uid.val)
				diff(r, "uid seen by the caller", e->seen_uid.val, rep->uid, false);
			if (rep->gid != e->seen_gid.val)
				diff(r, "gid seen by the caller", e->seen_gid.val, rep->gid, false);
		}
	}
	if (a->op == VT_OP_ACL_GET)
		compare_acl_read(r, e, rep);
	if (a->op == VT_OP_FCAPS_GET)
		compare_fcaps_read(r, e, rep);
}

void mx_op_args_text(struct mx_report *r, const struct vt_mop_args *a)
{
	int k;

	mx_say(r, "  operation: %s", vt_mop_name(a->op));
	switch (a->op) {
	case VT_OP_CHOWN:
	case VT_OP_LCHOWN:
		mx_say(r, " uid %d gid %d (caller view)", (int)a->uid.val, (int)a->gid.val);
		break;
	case VT_OP_ACL_SET:
		for (k = 0; k < a->nacl; k++)
			mx_say(r, "%s%x:%u:%d", k ? "," : a->default_acl ? " default " : " access ",
			    a->acl[k].tag, a->acl[k].perm,
			    a->acl[k].tag == VT_ACL_USER ? (int)a->acl[k].uid.val
			    : a->acl[k].tag == VT_ACL_GROUP ? (int)a->acl[k].gid.val : -1);
		break;
	case VT_OP_FCAPS_SET:
		mx_say(r, " v%d rootid %u", a->fcaps.version, a->fcaps.rootid.val);
		break;
	default:
		mx_say(r, " mode %o", (unsigned)a->mode);
	}
	mx_say(r, "\n");
}

/* What a kernel doing exactly what expectation B says shows the
 * comparison (mx_compare()): the errno, the caller's view, the disk. */
void mx_observe(const struct vt_world *w, const struct vt_mcase *c, const struct vt_expect *b,
		    struct vt_exec_reply *rep, struct vt_minode *disk, bool *obj_exists,
		    struct stat *st)
{
	const char *n = mx_result_name(&c->op);
	struct vt_world observer = *w;
	struct vt_cfcaps seen = { 0, vt_cuid(0) };
	enum vt_rule rule;

	memset(rep, 0, sizeof(*rep));
	memset(disk, 0, sizeof(*disk));
	memset(st, 0, sizeof(*st));
	rep->have_stat = !b->err && b->result.exists;
	rep->uid = b->seen_uid.val;
	rep->gid = b->seen_gid.val;
	rep->mode = b->result.mode;
	rep->nacl = b->got_nacl;
	memcpy(rep->acl, b->got_acl, sizeof(rep->acl));
	rep->fcaps = b->got_fcaps;
	rep->link_err = b->link_err;
	rep->have_creds = true;
	rep->creds = b->creds;
	rep->atime_was_old = true;
	rep->atime_updated = b->atime_updated;
	if (c->ovl) {
		/* the upper layer's entry, refused or not (compare_ovl) */
		rep->have_stat = !b->err;
		*disk = b->result;
		*obj_exists = b->has_whiteout;	/* a rename's upper P/o */
		st->st_mode = b->whiteout.mode;
		st->st_uid = b->whiteout.uid.val;
		st->st_gid = b->whiteout.gid.val;
		return;
	}
	if (b->err) {
		if (strcmp(n, "o") == 0)
			*disk = c->obj;
		else if (strcmp(n, "t") == 0)
			*disk = c->other;
		*obj_exists = c->obj.exists;
	} else {
		if (!(c->op.op == VT_OP_TMPFILE && b->link_err))
			*disk = b->result;
		*obj_exists = (c->obj.exists && !b->obj_gone) || b->has_whiteout;
	}
	/* the disk's capability as the observer reads it (compare_fcaps) */
	observer.idmap = &vt_nop_idmap;
	observer.trace = NULL;
	observer.cred.ns = &vt_init_ns;
	if (disk->exists && disk->fcaps.version &&
	    vt_model_fcaps_read(&observer, &disk->fcaps, &seen, &rule) == 0) {
		disk->fcaps.version = seen.version;
		disk->fcaps.rootid = vt_kuid(seen.rootid.val);
	} else {
		disk->fcaps.version = 0;
	}
	if (b->has_whiteout) {
		st->st_mode = b->whiteout.mode;
		st->st_uid = vt_from_kuid_munged(&vt_init_ns, b->whiteout.uid, w->overflowuid).val;
		st->st_gid = vt_from_kgid_munged(&vt_init_ns, b->whiteout.gid, w->overflowgid).val;
	}
}
