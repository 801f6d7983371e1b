/* The model of do_coredump's file (coredump_rules.c) and of
 * open_by_handle_at (fhandle_rules.c) against outcomes worked out by hand
 * from the 6.12 sources (fs/coredump.c do_coredump; fs/fhandle.c
 * handle_to_path, may_decode_fh, vfs_dentry_acceptable, do_handle_open;
 * fs/exportfs/expfs.c exportfs_decode_fh_raw, reconnect_one), each row
 * naming the kernel function that decides. The filesystem's s_user_ns is
 * the initial namespace; SHIFT maps disk 0..65535 to 10000..75535, NARROW
 * disk 1000..1999 to 11000..11999; ns0 is b:0:10000:65536. Pure. */
#include "model/coredump_model.h"
#include "model/fhandle_model.h"
#include "unit.h"
#include "unit_model.h"
#include "util/errname.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define SHIFT "b:0:10000:65536"
#define NARROW "b:1000:11000:1000"
#define ALL (~0ULL)

struct core_row {
	const char *name, *rule;
	const char *map;
	uint32_t fsuid;		/* fsuid = fsgid = uid = gid */
	mode_t umask;
	mode_t dmode;		/* P, owned 0:0 */
	int old;		/* the old core's owner (mode 0600), -1: none */
	int want_err;
	bool want_gone, want_created, want_written;
	uint32_t want_uid;	/* the new core's kuid (created rows) */
};

static const struct core_row core_rows[] = {
	{ "core plain", "may_o_create, inode_init_owner(fsuid); vfsuid 1000 == fsuid 1000",
	  NULL, 1000, 0, 0777, -1, 0, false, true, true, 1000 },
	{ "core shift", "inode_init_owner(mapped_fsuid: from_vfsuid(11000) = 1000); "
	  "i_uid_into_vfsuid(1000) = 11000 == fsuid", SHIFT, 11000, 0, 0777, -1, 0, false, true, true,
	  1000 },
	{ "core unmapped fsuid", "may_o_create: fsuidgid_has_mapping (from_vfsuid(1000) invalid): "
	  "EOVERFLOW", SHIFT, 1000, 0, 0777, -1, EOVERFLOW, false, false, false, 0 },
	{ "core old of 2000 unlinked", "do_unlinkat: may_delete, 0777 not sticky; then created",
	  SHIFT, 11000, 0, 0777, 2000, 0, true, true, true, 1000 },
	{ "core old of 2000 sticky", "check_sticky: 12000, 10000 != 11000, no CAP_FOWNER: unlink "
	  "fails; do_open O_EXCL: EEXIST", SHIFT, 11000, 0, 01777, 2000, EEXIST, false, false, false,
	  0 },
	{ "core old own sticky", "check_sticky: i_uid_into_vfsuid(1000) = 11000 == fsuid",
	  SHIFT, 11000, 0, 01777, 1000, 0, true, true, true, 1000 },
	{ "core unmapped fsuid old unlinked", "may_delete allows (other class of 0777), then "
	  "may_o_create: EOVERFLOW", SHIFT, 1000, 0, 0777, 2000, EOVERFLOW, true, false, false, 0 },
	{ "core umask 0277", "mode 0600 & ~0277 = 0400: (0400 & 0677) != 0600, file left empty",
	  SHIFT, 11000, 0277, 0777, -1, 0, false, true, false, 1000 },
};

struct fh_row {
	const char *name, *rule;
	const char *map;
	int kind;		/* 0 host root, 1 uid 1000, 2 root of ns0 */
	mode_t tmode;		/* T, with owner tuid */
	uint32_t tuid;
	int nanc;
	mode_t amode[3];
	uint32_t auid[3];
	int root_at;
	bool cold, o_directory, own_mnt_ns;
	int want_err;
};

static const struct fh_row fh_rows[] = {
	{ "fh root warm", "capable(CAP_DAC_READ_SEARCH): ctx.flags 0, acceptable; may_open in scope",
	  SHIFT, 0, S_IFDIR | 0755, 1000, 2, { 0700, 0755 }, { 0, 0 }, 2, false, true, false, 0 },
	{ "fh root unmapped T", "may_open: other bits 0, capable_wrt_inode_uidgid: vfsuid of "
	  "70000 invalid", SHIFT, 0, S_IFDIR | 0700, 70000, 2, { 0700, 0755 }, { 0, 0 }, 2, false,
	  true, false, EACCES },
	{ "fh user", "handle_to_path: not capable, may_decode_fh: no CAP_SYS_ADMIN", SHIFT, 1,
	  S_IFDIR | 0755, 1000, 2, { 0755, 0755 }, { 0, 0 }, 2, false, true, false, EPERM },
	{ "fh ns0 root", "may_decode_fh: capable_wrt_mount; T 11000, a 10000 map into ns0",
	  SHIFT, 2, S_IFDIR | 0755, 1000, 2, { 0700, 0755 }, { 0, 0 }, 2, false, true, true, 0 },
	{ "fh ns0 no O_DIRECTORY", "may_decode_fh: !O_DIRECTORY", SHIFT, 2, S_IFDIR | 0755, 1000,
	  2, { 0700, 0755 }, { 0, 0 }, 2, false, false, true, EPERM },
	{ "fh ns0 file", "exportfs_decode_fh_raw: EXPORT_FH_DIR_ONLY: ENOTDIR -> ESTALE", SHIFT, 2,
	  S_IFREG | 0644, 1000, 2, { 0700, 0755 }, { 0, 0 }, 2, false, true, true, ESTALE },
	{ "fh ns0 unmapped ancestor", "vfs_dentry_acceptable: parent 70000 has no vfsuid",
	  SHIFT, 2, S_IFDIR | 0755, 1000, 2, { 0700, 0755 }, { 70000, 0 }, 2, false, true, true,
	  ESTALE },
	{ "fh ns0 outside subtree", "vfs_dentry_acceptable: HANDLE_CHECK_SUBTREE, root not met",
	  SHIFT, 2, S_IFDIR | 0755, 1000, 2, { 0755, 0755 }, { 0, 0 }, -1, false, true, true,
	  ESTALE },
	{ "fh ns0 foreign mount ns", "may_decode_fh: s_user_ns init, mount ns not ns0's", SHIFT,
	  2, S_IFDIR | 0755, 1000, 2, { 0755, 0755 }, { 0, 0 }, 2, false, true, false, EPERM },
	{ "fh root cold p 0700 unmapped", "reconnect_one: lookup_one_unlocked(NARROW) in p: "
	  "MAY_EXEC, other bits 0, CAP_DAC_READ_SEARCH out of scope -> ESTALE", NARROW, 0,
	  S_IFDIR | 0755, 1000, 3, { 0755, 0700, 0755 }, { 1000, 0, 0 }, 3, true, true, false,
	  ESTALE },
	{ "fh root warm p 0700 unmapped", "connected: no reconnect; ctx.flags 0", NARROW, 0,
	  S_IFDIR | 0755, 1000, 3, { 0755, 0700, 0755 }, { 1000, 0, 0 }, 3, false, true, false, 0 },
	{ "fh root cold p 0711", "reconnect_one: p's other x", NARROW, 0, S_IFDIR | 0755, 1000, 3,
	  { 0755, 0711, 0755 }, { 1000, 0, 0 }, 3, true, true, false, 0 },
	{ "fh root cold file", "find_acceptable_alias: acceptable() with ctx.flags 0, no "
	  "reconnect", NARROW, 0, S_IFREG | 0644, 1000, 3, { 0755, 0700, 0755 }, { 1000, 0, 0 }, 3,
	  true, false, false, 0 },
};

#define N(a) (int)(sizeof(a) / sizeof((a)[0]))

int main(void)
{
	static struct vt_mns ns0;
	char err[200], name[400];
	int i, k;

	memset(&ns0, 0, sizeof(ns0));
	ns0.name = "ns0";
	ns0.parent = &vt_init_ns;
	ns0.owner = vt_kuid(0);
	vt_mapping_parse(SHIFT, &ns0.map, err, sizeof(err));
	unit_begin(N(core_rows) + N(fh_rows));
	for (i = 0; i < N(core_rows); i++) {
		const struct core_row *r = &core_rows[i];
		struct vt_world w;
		struct vt_midmap m;
		struct vt_core_expect ce;
		bool ok;

		unit_world(&w, &m, r->map, &vt_init_ns, r->fsuid, r->fsuid, UNIT_NOGROUP, 0);
		w.posixacl = true;
		w.cred.umask = r->umask;
		w.dir = vt_minode_make(S_IFDIR | r->dmode, 0, 0);
		if (r->old >= 0)
			w.obj = vt_minode_make(S_IFREG | 0600, (uint32_t)r->old, (uint32_t)r->old);
		vt_model_coredump(&w, &ce);
		ok = ce.err == r->want_err && ce.old_gone == r->want_gone &&
		     ce.created == r->want_created && ce.written == r->want_written &&
		     (!r->want_created || (ce.core.uid.val == r->want_uid && ce.core.gid.val == r->want_uid));
		if (!ok)
			printf("# %s: err %s gone %d created %d written %d uid %u (rule %s)\n", r->name,
			       vt_errname(ce.err), ce.old_gone, ce.created, ce.written, ce.core.uid.val,
			       ce.rule ? ce.rule : "-");
		snprintf(name, sizeof(name), "%s: %s", r->name, r->rule);
		unit_check(ok, name);
	}
	for (i = 0; i < N(fh_rows); i++) {
		const struct fh_row *r = &fh_rows[i];
		struct vt_world w;
		struct vt_midmap m;
		struct vt_fh_world f;
		struct vt_expect e;

		unit_world(&w, &m, r->map, r->kind == 2 ? &ns0 : &vt_init_ns, r->kind == 1 ? 1000 : 0,
			   r->kind == 1 ? 1000 : 0, UNIT_NOGROUP, r->kind == 1 ? 0 : ALL);
		w.posixacl = true;
		memset(&f, 0, sizeof(f));
		f.w = &w;
		f.target = vt_minode_make(r->tmode, r->tuid, r->tuid);
		f.nanc = r->nanc;
		for (k = 0; k < r->nanc; k++)
			f.anc[k] = vt_minode_make(S_IFDIR | r->amode[k], r->auid[k], r->auid[k]);
		f.root_at = r->root_at;
		f.cold = r->cold;
		f.o_directory = r->o_directory;
		f.own_mnt_ns = r->own_mnt_ns;
		vt_model_open_by_handle(&f, &e);
		if (e.err != r->want_err)
			printf("# %s: got %s (rule %s), want %s\n", r->name, vt_errname(e.err),
			       e.rule ? e.rule : "-", vt_errname(r->want_err));
		snprintf(name, sizeof(name), "%s: %s", r->name, r->rule);
		unit_check(e.err == r->want_err, name);
	}
	return unit_end();
}
