/* The model's one read-only rule (lib/model/readonly_rules.c and
 * sb_permission in permission_rules.c): on a read-only sb every write is
 * EROFS, after exactly the checks the VFS makes first, and reads are what
 * they are on a writable one. Each expectation names the kernel function
 * it follows from (Linux 6.12, fs/namei.c, fs/open.c, fs/xattr.c). */
#include "unit.h"
#include "unit_model.h"
#include "model/rules.h"
#include "util/errname.h"
#include "world/xattr_view.h"

#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

static int run(struct vt_world *w, enum vt_mop op, bool on_existing, struct vt_expect *e)
{
	struct vt_mop_args a;

	memset(&a, 0, sizeof(a));
	a.op = op;
	a.on_existing = on_existing;
	a.uid = vt_cuid(1001);
	a.gid = vt_cgid(1001);
	a.mode = 0600;
	vt_model_apply(w, &a, e);
	return e->err;
}

/* the fd form of OP (vt_mop_args.by_fd) on the existing P/o */
static int run_fd(struct vt_world *w, enum vt_mop op, struct vt_expect *e)
{
	struct vt_mop_args a;

	memset(&a, 0, sizeof(a));
	a.op = op;
	a.by_fd = true;
	vt_model_apply(w, &a, e);
	return e->err;
}

static void expect(int got, int want, const char *what)
{
	char name[300];

	snprintf(name, sizeof(name), "%s: %s (got %s)", what, want ? vt_errname(want) : "success",
		 got ? vt_errname(got) : "success");
	unit_check(got == want, name);
}

int main(void)
{
	static const enum vt_mop writes[] = {
		VT_OP_TMPFILE, VT_OP_LINK, VT_OP_CHOWN, VT_OP_LCHOWN, VT_OP_FCHOWN,
		VT_OP_CHMOD, VT_OP_OPEN_WRITE, VT_OP_OPEN_TRUNC, VT_OP_WRITE, VT_OP_TRUNCATE,
		VT_OP_UTIMENS_NOW, VT_OP_UTIMENS_SET, VT_OP_UNLINK, VT_OP_RENAME,
		VT_OP_RENAME_NOREPLACE, VT_OP_RENAME_EXCHANGE, VT_OP_RENAME_WHITEOUT,
		VT_OP_ACL_SET, VT_OP_FCAPS_SET, VT_OP_FCAPS_REMOVE, VT_OP_XATTR_SET_USER,
		VT_OP_XATTR_SET_TRUSTED, VT_OP_XATTR_REMOVE_USER, VT_OP_XATTR_REMOVE_TRUSTED,
	};
	static const enum vt_mop creates[] = {
		VT_OP_OPEN_CREAT, VT_OP_OPEN_CREAT_EXCL, VT_OP_OPEN_CREAT_RDONLY, VT_OP_MKDIR,
		VT_OP_MKFIFO, VT_OP_SYMLINK, VT_OP_MKNOD_CHR,
	};
	struct vt_world w;
	struct vt_midmap m;
	struct vt_expect e;
	struct vt_trace tr;
	char what[200];
	size_t k;

	unit_begin((int)(2 * (sizeof(writes) / sizeof(writes[0])) +
			 sizeof(creates) / sizeof(creates[0]) + 13 + 5));

	/* root with every capability, through b:1000:1001:1: on a writable
	 * sb each of these writes succeeds or fails for its own reason; on a
	 * read-only one every one is EROFS (mnt_want_write / sb_permission) */
	for (k = 0; k < sizeof(writes) / sizeof(writes[0]); k++) {
		unit_world(&w, &m, "b:1000:1001:1", &vt_init_ns, 0, 0, UNIT_NOGROUP, ~0ULL);
		w.dir = vt_minode_make(S_IFDIR | 0755, 1000, 1000);
		w.obj = vt_minode_make(S_IFREG | 0644, 1000, 1000);
		w.other = vt_minode_make(S_IFREG | 0644, 1000, 1000);
		w.sb_rdonly = true;
		snprintf(what, sizeof(what), "read-only: %s by root", vt_mop_name(writes[k]));
		expect(run(&w, writes[k], true, &e), EROFS, what);
		/* the same world writable: never EROFS */
		w.sb_rdonly = false;
		snprintf(what, sizeof(what), "writable: %s by root is not EROFS", vt_mop_name(writes[k]));
		unit_check(run(&w, writes[k], true, &e) != EROFS, what);
	}
	/* a new name: lookup_open (create_error = -EROFS) and filename_create */
	for (k = 0; k < sizeof(creates) / sizeof(creates[0]); k++) {
		unit_world(&w, &m, "b:1000:1001:1", &vt_init_ns, 1001, 1001, UNIT_NOGROUP, 0);
		w.dir = vt_minode_make(S_IFDIR | 0755, 1000, 1000);
		w.sb_rdonly = true;
		snprintf(what, sizeof(what), "read-only: %s of a new name by the mapped owner",
			 vt_mop_name(creates[k]));
		expect(run(&w, creates[k], false, &e), EROFS, what);
	}

	/* order: may_lookup (MAY_EXEC on the parent) comes first: a 0700
	 * parent of 0:0 refuses uid 1001 with EACCES */
	unit_world(&w, &m, "b:1000:1001:1", &vt_init_ns, 1001, 1001, UNIT_NOGROUP, 0);
	w.dir = vt_minode_make(S_IFDIR | 0700, 0, 0);
	w.obj = vt_minode_make(S_IFREG | 0644, 1000, 1000);
	w.sb_rdonly = true;
	expect(run(&w, VT_OP_UNLINK, true, &e), EACCES, "read-only: may_lookup before mnt_want_write");
	expect(run(&w, VT_OP_CHOWN, true, &e), EACCES, "read-only: chown, may_lookup first");
	/* filename_create: an existing name is EEXIST before the saved EROFS */
	unit_world(&w, &m, NULL, &vt_init_ns, 0, 0, UNIT_NOGROUP, ~0ULL);
	w.dir = vt_minode_make(S_IFDIR | 0755, 0, 0);
	w.obj = vt_minode_make(S_IFDIR | 0755, 0, 0);
	w.sb_rdonly = true;
	expect(run(&w, VT_OP_MKDIR, true, &e), EEXIST, "read-only: mkdir of an existing name");
	w.obj = vt_minode_make(S_IFREG | 0644, 0, 0);
	expect(run(&w, VT_OP_OPEN_CREAT_EXCL, true, &e), EEXIST,
	       "read-only: O_CREAT|O_EXCL of an existing name (do_open)");
	/* an existing name with O_CREAT|O_RDONLY is an open for reading */
	expect(run(&w, VT_OP_OPEN_CREAT_RDONLY, true, &e), 0,
	       "read-only: O_CREAT|O_RDONLY of an existing file opens it");
	/* vfs_truncate: EISDIR before mnt_want_write */
	w.obj = vt_minode_make(S_IFDIR | 0755, 0, 0);
	expect(run(&w, VT_OP_TRUNCATE, true, &e), EISDIR, "read-only: truncate of a directory");
	/* may_open: a directory opened for writing is EISDIR before
	 * inode_permission's sb_permission */
	expect(run(&w, VT_OP_OPEN_WRITE, true, &e), EISDIR, "read-only: open(O_WRONLY) of a directory");
	/* sb_permission only covers regular files, directories, symlinks: a
	 * fifo opened for writing is not EROFS (do_dentry_open takes no
	 * write access for a special file) */
	w.obj = vt_minode_make(S_IFIFO | 0666, 0, 0);
	unit_check(run(&w, VT_OP_OPEN_WRITE, true, &e) != EROFS,
		   "read-only: open(O_WRONLY) of a fifo is not refused by sb_permission");
	/* fchown: the O_RDONLY open first (may_open MAY_READ): uid 1001 on a
	 * 0600 root file is EACCES, not EROFS */
	unit_world(&w, &m, NULL, &vt_init_ns, 1001, 1001, UNIT_NOGROUP, 0);
	w.dir = vt_minode_make(S_IFDIR | 0755, 0, 0);
	w.obj = vt_minode_make(S_IFREG | 0600, 0, 0);
	w.sb_rdonly = true;
	expect(run(&w, VT_OP_FCHOWN, true, &e), EACCES, "read-only: fchown opens for reading first");
	/* the fd forms: fsetxattr/fremovexattr (fs/xattr.c) open O_RDONLY
	 * first (EACCES here), then mnt_want_write_file (EROFS once the open
	 * is allowed); ftruncate's open(O_WRONLY) is EISDIR for a directory,
	 * then sb_permission's EROFS (may_open -> inode_permission) */
	expect(run_fd(&w, VT_OP_XATTR_SET_USER, &e), EACCES,
	       "read-only: fsetxattr(user.vt) opens for reading first");
	w.obj = vt_minode_make(S_IFREG | 0644, 0, 0);
	expect(run_fd(&w, VT_OP_XATTR_REMOVE_USER, &e), EROFS,
	       "read-only: fremovexattr(user.vt) on a readable file: mnt_want_write_file");
	expect(run_fd(&w, VT_OP_XATTR_GET_USER, &e), ENODATA,
	       "read-only: fgetxattr(user.vt) reads as on a writable sb (none stored)");
	expect(run_fd(&w, VT_OP_TRUNCATE, &e), EROFS, "read-only: ftruncate's open(O_WRONLY)");
	w.obj = vt_minode_make(S_IFDIR | 0755, 0, 0);
	expect(run_fd(&w, VT_OP_TRUNCATE, &e), EISDIR, "read-only: ftruncate of a directory");
	/* reads are untouched: a 0644 file is read by anyone */
	w.obj = vt_minode_make(S_IFREG | 0644, 0, 0);
	expect(run(&w, VT_OP_OPEN_READ, true, &e), 0, "read-only: open(O_RDONLY) of a 0644 file");
	/* open(O_WRONLY) of a file the caller could not write anyway: the sb
	 * check comes first in inode_permission (EROFS, not EACCES) */
	expect(run(&w, VT_OP_OPEN_WRITE, true, &e), EROFS,
	       "read-only: sb_permission before the DAC check");
	unit_check(e.rule_id == VT_R_RO_SB_PERMISSION, "  ... decided by sb_permission.sb_rdonly");
	/* the trace records the refusal (rule coverage) */
	memset(&tr, 0, sizeof(tr));
	w.trace = &tr;
	run(&w, VT_OP_CHMOD, true, &e);
	w.trace = NULL;
	unit_check(e.err == EROFS && e.rule_id == VT_R_RO_MNT_WANT_WRITE &&
			   (tr.ev[VT_R_RO_MNT_WANT_WRITE] & VT_EV_DENY),
		   "read-only: chmod is mnt_want_write.readonly's deny, in the trace");
	return unit_end();
}
