/* idmapped/009: a core dumped into an idmapped mount.
 *
 * do_coredump (fs/coredump.c, Linux 6.12) for a task of SUID_DUMP_USER
 * whose kernel.core_pattern is a plain relative name: do_unlinkat(AT_FDCWD,
 * name) as the task, then filp_open(name, O_CREAT|O_EXCL|O_WRONLY|
 * O_NOFOLLOW, 0600) relative to its cwd, here a directory reached through
 * an idmapped mount; the dump goes on only if i_uid_into_vfsuid(
 * file_mnt_idmap, inode) equals current_fsuid() ("cannot preserve file
 * owner") and the mode is 0600 under 0677, then do_truncate(idmap).
 * Expected: lib/model/coredump_rules.c (the unlink and the create are the
 * model's unlink and O_CREAT|O_EXCL open through the mount). Each row
 * makes a task of the row's ids (fsuid = uid) with RLIMIT_CORE raised and
 * PR_SET_DUMPABLE 1 (its setresuid made it non-dumpable: commit_creds ->
 * suid_dumpable 0) chdir to the directory through the mount and raise
 * SIGQUIT (umask 0, or 0277 in one row); root then reads the directory on the plain path: which file is
 * there, its on-disk owner, and whether it holds the dump.
 *
 * kernel.core_pattern is global: the test needs it to be "vt-core" and
 * kernel.core_uses_pid 0 (else notrun with the reason); it sets them only
 * with VT_ALLOW_SYSCTL=1 (lib/world/sysctl.c writes the old text back at
 * exit or on SIGTERM/SIGINT/SIGHUP), in the group "sysctl" that ./check -j
 * runs alone (common/sysctl_lock.sh). */
#include "testlib/testlib.h"
#include "model/coredump_model.h"
#include "world/sysctl.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#define CORE_NAME "vt-core"
#define OLD_BYTES 5

struct core_row {
	const char *map;	/* NULL: the plain case directory */
	uid_t uid;		/* the dumping task's ids (fsuid, fsgid the same) */
	gid_t gid;
	mode_t dmode;		/* the directory's mode, owned DUID:DUID on disk */
	uid_t duid;
	int old;		/* on-disk owner of an old CORE_NAME (0600), -1: none */
	mode_t umask;		/* the dumping task's */
};

#define SHIFT "b:0:10000:65536"
#define SPLIT "u:1000:3000:10,g:1000:5000:10"
static const struct core_row rows[] = {
	{ NULL, 1000, 1000, 0777, 0, -1, 0 },	/* plain: the dumper's own ids */
	{ SHIFT, 11000, 11000, 0777, 0, -1, 0 },	/* disk 1000:1000 */
	{ SHIFT, 1000, 1000, 0777, 0, -1, 0 },	/* fsuid with no mapping: EOVERFLOW */
	{ SPLIT, 3005, 5007, 0777, 1000, -1, 0 },	/* uid and gid maps differ: disk 1005:1007 */
	{ SPLIT, 3005, 5007, 0777, 0, -1, 0 },	/* the directory unmapped: HAS_UNMAPPED_ID */
	{ SHIFT, 11000, 11000, 0777, 0, 2000, 0 },	/* someone else's old core: unlinked, replaced */
	{ SHIFT, 11000, 11000, 01777, 0, 2000, 0 },	/* sticky: not unlinked, EEXIST */
	{ SHIFT, 11000, 11000, 01777, 0, 1000, 0 },	/* sticky, its own through the map */
	{ SHIFT, 1000, 1000, 0777, 0, 2000, 0 },	/* unlinked, then EOVERFLOW: nothing left */
	{ SHIFT, 11000, 11000, 0777, 0, -1, 0277 },	/* mode 0400: "cannot preserve file
							 * permissions", left empty */
};
#define NROWS (sizeof(rows) / sizeof(rows[0]))

static int dump_core(void *arg, void *data, size_t len)
{
	const char *dir = arg;
	struct rlimit rl = { 64 << 20, 64 << 20 };

	(void)data;
	(void)len;
	if (chdir(dir) < 0)
		return errno;
	/* the hard limit is root's (unlimited unless lowered): a soft limit
	 * under it is anyone's to set */
	if (getrlimit(RLIMIT_CORE, &rl) == 0 && rl.rlim_max != RLIM_INFINITY &&
	    rl.rlim_max < (rlim_t)(64 << 20))
		return EDQUOT;
	rl.rlim_cur = 64 << 20;
	if (setrlimit(RLIMIT_CORE, &rl) < 0 || prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0)
		return errno;
	signal(SIGQUIT, SIG_DFL);
	raise(SIGQUIT);
	return EINTR;	/* not reached: SIGQUIT's default action dumps and ends us */
}

static void model_row(const struct core_row *r, const struct vt_midmap *m,
		      struct vt_core_expect *ce)
{
	struct vt_world w;

	memset(&w, 0, sizeof(w));
	w.fs_ns = &vt_init_ns;
	/* tmpfs, ext4 and xfs have POSIX ACLs; no inode here has one, so the
	 * umask (the task's) decides the mode either way */
	w.posixacl = true;
	w.idmap = m;
	w.cred.name = "dumper";
	w.cred.ns = &vt_init_ns;
	w.cred.uid = w.cred.fsuid = vt_cuid(r->uid);
	w.cred.gid = w.cred.fsgid = vt_cgid(r->gid);
	w.cred.umask = r->umask;
	w.dir = vt_minode_make(S_IFDIR | r->dmode, r->duid, r->duid);
	if (r->old >= 0)
		w.obj = vt_minode_make(S_IFREG | 0600, (uint32_t)r->old, (uint32_t)r->old);
	w.overflowuid = vt_overflowuid();
	w.overflowgid = vt_overflowgid();
	vt_model_coredump(&w, ce);
}

static void core_through_idmap(struct vt_ctx *ctx)
{
	char src[4200], err[256];
	size_t k;
	int written = 0, refused = 0;

	if (!vt_mkdir(ctx, "src", 0755, 0, 0, src, sizeof(src)))
		return;
	for (k = 0; k < NROWS && !ctx->failures; k++) {
		const struct core_row *r = &rows[k];
		struct vt_midmap m = { .name = r->map ? r->map : "none", .nop = !r->map };
		struct vt_caller c = vt_caller_user(r->uid, r->gid);
		char dir[4300], mnt[4300], via[4400], core[4400], name[32], what[800], lbl[900];
		struct vt_core_expect ce;
		struct vt_run run;
		struct stat st;
		int fd, got;

		c.umask = r->umask;
		c.set_umask = true;
		if (r->map && vt_mapping_parse(r->map, &m.map, err, sizeof(err)) < 0) {
			vt_fail(ctx, "setup: map %s: %s", r->map, err);
			break;
		}
		snprintf(dir, sizeof(dir), "%s/r%zu", src, k);
		if (mkdir(dir, 0700) < 0 || chown(dir, r->duid, r->duid) < 0 ||
		    chmod(dir, r->dmode) < 0) {
			vt_fail(ctx, "setup: mkdir %s: %s", dir, vt_errname(errno));
			break;
		}
		snprintf(core, sizeof(core), "%s/%s", dir, CORE_NAME);
		if (r->old >= 0) {
			fd = open(core, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
			if (fd < 0 || write(fd, "hello", OLD_BYTES) != OLD_BYTES ||
			    fchown(fd, (uid_t)r->old, (gid_t)r->old) < 0 || fchmod(fd, 0600) < 0) {
				vt_fail(ctx, "setup: %s: %s", core, vt_errname(errno));
				if (fd >= 0)
					close(fd);
				break;
			}
			close(fd);
		}
		if (r->map) {
			snprintf(name, sizeof(name), "m%zu", k);
			if (!vt_idmapped_at(ctx, src, r->map, name, mnt, sizeof(mnt)))
				break;
		} else {
			snprintf(mnt, sizeof(mnt), "%s", src);
		}
		snprintf(via, sizeof(via), "%s/r%zu", mnt, k);
		model_row(r, &m, &ce);
		{
			char oldtxt[48] = "no old core";

			if (r->old >= 0)
				snprintf(oldtxt, sizeof(oldtxt), "an old core of %d", r->old);
			snprintf(what, sizeof(what),
				 "core of uid %u gid %u in %s (dir %04o of %u on disk, %s) through %s",
				 (unsigned)r->uid, (unsigned)r->gid, via, (unsigned)r->dmode,
				 (unsigned)r->duid, oldtxt, r->map ? r->map : "the plain mount");
		}
		vt_scene(ctx, "%s", what);
		run = vt_run_as(&c, dump_core, via, NULL, 0);
		if (run.status != VT_CRASHED || run.sig != SIGQUIT) {
			vt_fail(ctx, "%s: the task did not die of SIGQUIT (status %d, ret %s, sig %d%s%s)",
				what, (int)run.status, vt_errname(run.ret), run.sig,
				run.msg[0] ? ": " : "", run.msg);
			break;
		}
		got = lstat(core, &st) < 0 ? errno : 0;
		if (ce.created || (r->old >= 0 && !ce.old_gone)) {
			/* a file is there: the new core, or the old one kept */
			uid_t ou = ce.created ? ce.core.uid.val : (uid_t)r->old;
			gid_t og = ce.created ? ce.core.gid.val : (gid_t)r->old;

			snprintf(lbl, sizeof(lbl), "%s: lstat %s", what, core);
			if (!vt_expect_errno(ctx, lbl, got, 0, ce.rule ? ce.rule : "model"))
				continue;
			vt_expect_owner(ctx, core, ou, og,
					ce.created ? "may_o_create -> inode_init_owner(mapped_fsuid)"
						   : "the old core, not unlinked (may_delete)");
			snprintf(lbl, sizeof(lbl), "%s: the dump is in %s (size > 0; an old core has %d)",
				 what, core, OLD_BYTES);
			vt_expect_eq(ctx, lbl, ce.written ? st.st_size > 0 : st.st_size,
				     ce.written ? 1 : ce.created ? 0 : OLD_BYTES,
				     ce.rule ? ce.rule : "model");
			if (ce.written)
				written++;
			else
				refused++;
		} else {
			snprintf(lbl, sizeof(lbl), "%s: no file %s (the model: %s, %s)", what, core,
				 ce.err ? vt_errname(ce.err) : "-", ce.old_gone ? "old core unlinked" : "");
			vt_expect_errno(ctx, lbl, got, ENOENT, ce.rule ? ce.rule : "model");
			refused++;
		}
		if (r->map && umount2(mnt, 0) < 0)
			vt_fail(ctx, "clean-up: umount %s: %s", mnt, vt_errname(errno));
	}
	vt_note(ctx, "%zu dumps compared: %d written, %d not", NROWS, written, refused);
	/* a model that refused every dump (or let every one through) would
	 * compare one side only */
	vt_expect_eq(ctx, "rows the model expects written (5) and not (5)",
		     written == 5 && refused == 5, 1, "the rows above");
}

static const struct vt_case cases[] = {
	{ "core-through-idmapped-mount", core_through_idmap },
	{ NULL, NULL },
};

/* the global sysctls the dumps need (set only with VT_ALLOW_SYSCTL=1) */
static const char *need_core_pattern(const char *fstype, const char *test_dir)
{
	const char *why;

	(void)fstype;
	(void)test_dir;
	why = vt_sysctl_need_value("kernel/core_uses_pid", 0);
	return why ? why : vt_sysctl_need_string("kernel/core_pattern", CORE_NAME);
}

int main(int argc, char **argv)
{
	/* the model's dump keeps the creator's ids in the inode (its "cannot
	 * preserve file owner" check cannot fail there); on a filesystem whose
	 * owners come from mount options it would, which is not modelled */
	static const struct vt_test t = { .cases = cases, .require = need_core_pattern,
					  .needs = { .owners = VT_FSNEED_INODE_OWNERS } };
	return vt_test_main(&t, argc, argv);
}
