/* Case runner and assertions for test programs. */
#include "testlib.h"
#include "testlib/expunge_list.h"
#include "fs/fs_table.h"

#include "model/break.h"
#include "model/optowner_model.h"
#include "report/replay.h"
#include "util/safe_remove.h"
#include "util/syscalls.h"
#include "world/ro_image.h"
#include "world/optowner_world.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

void vt_scene(struct vt_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ctx->scene, sizeof(ctx->scene), fmt, ap);
	va_end(ap);
}

void vt_fail(struct vt_ctx *ctx, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ctx->failures++;
	vt_ktap_diag(ctx->ktap, "FAIL: %s", msg);
	if (ctx->scene[0])
		vt_ktap_diag(ctx->ktap, "  world: fs=%s %s", ctx->fstype, ctx->scene);
}

void vt_note(struct vt_ctx *ctx, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	vt_ktap_diag(ctx->ktap, "%s", msg);
}

void vt_skip(struct vt_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ctx->skip_reason, sizeof(ctx->skip_reason), fmt, ap);
	va_end(ap);
	ctx->skipped = true;
}

bool vt_expect_errno(struct vt_ctx *ctx, const char *op, int got, int want, const char *rule)
{
	if (got == want)
		return true;
	vt_fail(ctx, "%s: expected %s, got %s [rule: %s]", op,
		want ? vt_errname(want) : "success", got ? vt_errname(got) : "success", rule);
	return false;
}

bool vt_expect_owner(struct vt_ctx *ctx, const char *path, uid_t uid, gid_t gid,
		     const char *rule)
{
	struct stat st;

	if (lstat(path, &st) < 0) {
		vt_fail(ctx, "stat %s: %s (expected owner %u:%u) [rule: %s]", path,
			vt_errname(errno), (unsigned)uid, (unsigned)gid, rule);
		return false;
	}
	if (st.st_uid == uid && st.st_gid == gid)
		return true;
	vt_fail(ctx, "owner of %s: expected %u:%u, got %u:%u [rule: %s]", path, (unsigned)uid,
		(unsigned)gid, (unsigned)st.st_uid, (unsigned)st.st_gid, rule);
	return false;
}

bool vt_expect_eq(struct vt_ctx *ctx, const char *what, long long got, long long want,
		  const char *rule)
{
	if (got == want)
		return true;
	vt_fail(ctx, "%s: expected %lld, got %lld [rule: %s]", what, want, got, rule);
	return false;
}

bool vt_expect_ran(struct vt_ctx *ctx, const struct vt_caller *c, const struct vt_run *r)
{
	char who[512];

	if (r->status == VT_RAN)
		return true;
	vt_caller_describe(c, who, sizeof(who));
	vt_fail(ctx, "caller %s: %s", who, r->msg);
	return false;
}

bool vt_probe_feature(struct vt_ctx *ctx, const char *feature, const struct vt_caller *c,
		      vt_caller_fn fn, void *arg)
{
	char who[512];
	struct vt_run r = vt_run_as(c, fn, arg, NULL, 0);

	vt_caller_describe(c, who, sizeof(who));
	if (r.status != VT_RAN) {
		vt_note(ctx, "probe %s as %s: could not run: %s", feature, who, r.msg);
		return false;
	}
	vt_note(ctx, "probe %s as %s: %s%s%s", feature, who, r.ret ? "no (" : "yes",
		r.ret ? vt_errname(r.ret) : "", r.ret ? ")" : "");
	return r.ret == 0;
}

bool vt_userns_tmpfs_at(struct vt_ctx *ctx, int owner_ns, const char *path)
{
	int mfd = vt_fsmount_in_userns(owner_ns, "tmpfs"), ret;

	if (mfd == -EPERM || mfd == -EINVAL) {
		vt_skip(ctx, "cannot mount tmpfs inside a user namespace: %s", vt_errname(-mfd));
		return false;
	}
	if (mfd < 0) {
		vt_fail(ctx, "setup: tmpfs mounted inside a user namespace: %s", vt_errname(-mfd));
		return false;
	}
	/* do_move_mount: a detached source must be the root of an anonymous
	 * namespace, the target in ours. */
	ret = vt_move_mount(mfd, "", AT_FDCWD, path, VT_MOVE_MOUNT_F_EMPTY_PATH) < 0 ? errno : 0;
	close(mfd);
	if (ret) {
		vt_fail(ctx, "setup: move_mount(tmpfs fsmount fd -> %s): %s", path, vt_errname(ret));
		return false;
	}
	/* Ask this superblock, through a clone, with an unrelated namespace. */
	ret = vt_probe_idmap_support(path);
	if (ret == -EINVAL) {
		vt_skip(ctx, "tmpfs cannot be idmapped on this kernel: mount_setattr(IDMAP) of a "
			     "clone of %s gives EINVAL (FS_ALLOW_IDMAP for tmpfs: 7a80e5b8c6fa, 6.3)",
			path);
		return false;
	}
	if (ret < 0) {
		vt_fail(ctx, "setup: probe: idmap a clone of the userns tmpfs: %s", vt_errname(-ret));
		return false;
	}
	return true;
}

/* lstat PATH: owner UID:GID and permission bits MODE, as asked? */
static bool made_as_asked(struct vt_ctx *ctx, const char *path, mode_t mode, uid_t uid, gid_t gid)
{
	struct stat st;

	if (lstat(path, &st) < 0) {
		vt_fail(ctx, "setup: stat %s: %s", path, vt_errname(errno));
		return false;
	}
	if (st.st_uid == uid && st.st_gid == gid && (st.st_mode & 07777) == (mode & 07777))
		return true;
	vt_fail(ctx, "setup: %s is %u:%u mode %04o, not %u:%u mode %04o: %s cannot hold it%s",
		path, (unsigned)st.st_uid, (unsigned)st.st_gid, (unsigned)(st.st_mode & 07777),
		(unsigned)uid, (unsigned)gid, (unsigned)(mode & 07777), ctx->fstype,
		ctx->option_owners ? " (owners and modes come from the mount: vt_owned_dir)" : "");
	return false;
}

const char *vt_mkdir(struct vt_ctx *ctx, const char *name, mode_t mode, uid_t uid, gid_t gid,
		     char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", ctx->dir, name);
	if (mkdir(buf, mode) < 0 || chown(buf, uid, gid) < 0 || chmod(buf, mode) < 0) {
		vt_fail(ctx, "setup: mkdir %s: %s", buf, vt_errname(errno));
		return NULL;
	}
	return made_as_asked(ctx, buf, mode, uid, gid) ? buf : NULL;
}

const char *vt_mkfile(struct vt_ctx *ctx, const char *name, mode_t mode, uid_t uid, gid_t gid,
		      char *buf, size_t len)
{
	int fd;

	snprintf(buf, len, "%s/%s", ctx->dir, name);
	fd = open(buf, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, mode);
	if (fd < 0 || fchown(fd, uid, gid) < 0 || fchmod(fd, mode) < 0) {
		vt_fail(ctx, "setup: create %s: %s", buf, vt_errname(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	close(fd);
	return made_as_asked(ctx, buf, mode, uid, gid) ? buf : NULL;
}

const char *vt_optowner_dir(struct vt_ctx *ctx, const char *name, const char *options, char *buf,
			    size_t len)
{
	char imgs[4200], img[256];
	const char *what = "";
	size_t k;
	int ret;

	if (!vt_optowner_fs(ctx->fstype)) {
		vt_fail(ctx, "setup: a world from mount options on %s, whose owners do not come "
			"from them", ctx->fstype);
		return NULL;
	}
	/* the images live on a tmpfs of the case's own, never on TEST_DIR;
	 * hidden where names may start with a dot, else an 8.3 name (msdos:
	 * msdos_format_name refuses a leading dot without "dots") */
	snprintf(imgs, sizeof(imgs), "%s/%s", ctx->dir,
		 vt_optowner_fs(ctx->fstype)->short_names ? "vtimages" : ".vt-images");
	if (!ctx->optowner_images) {
		ret = vt_optowner_image_dir(imgs);
		if (ret < 0) {
			vt_fail(ctx, "setup: tmpfs for %s images at %s: %s", ctx->fstype, imgs,
				vt_errname(-ret));
			return NULL;
		}
		ctx->optowner_images = true;
	}
	snprintf(img, sizeof(img), "%s", name);
	for (k = 0; img[k]; k++)
		if (img[k] == '/')
			img[k] = '_';
	snprintf(buf, len, "%s/%s", ctx->dir, name);
	ret = vt_optowner_mount_new(imgs, img, ctx->fstype, options, buf, &what);
	if (ret < 0) {
		vt_fail(ctx, "setup: %s at %s (-o %s): %s: %s", ctx->fstype, buf, options, what,
			ret == -ENOEXEC ? "mkfs failed" : vt_errname(-ret));
		return NULL;
	}
	return buf;
}

const char *vt_owned_dir(struct vt_ctx *ctx, const char *name, mode_t dmode, mode_t fmode,
			 uid_t uid, gid_t gid, char *buf, size_t len)
{
	char opts[256];

	if (!ctx->option_owners)
		return vt_mkdir(ctx, name, dmode, uid, gid, buf, len);
	/* fat_fill_inode / fat_read_root (exfat_fill_inode /
	 * exfat_read_root): i_uid = uid=, i_gid = gid=, mode fat_make_mode
	 * (exfat_make_mode) of S_IRWXUGO & ~dmask (directories), ~fmask
	 * (files) */
	vt_optowner_options(opts, sizeof(opts), uid, gid, dmode, fmode, NULL);
	if (!vt_optowner_dir(ctx, name, opts, buf, len))
		return NULL;
	return made_as_asked(ctx, buf, dmode, uid, gid) ? buf : NULL;
}

int vt_fs_lacks(const struct vt_ctx *ctx, enum vt_mop op, const char **rule)
{
	enum vt_rule r = VT_R_NONE;
	unsigned int need = 0;
	int err;

	/* owners from mount options: the model's rules for what fat and
	 * exfat lack (optowner_rules.c) */
	if (vt_optowner_fs(ctx->fstype)) {
		err = vt_optowner_lacks(op, &r);
		*rule = vt_rule_info(r)->text;
		return err;
	}
	/* the others: what their row in the filesystem table lacks */
	switch (op) {
	case VT_OP_SYMLINK: need = VT_FSF_SYMLINK; break;
	case VT_OP_MKFIFO: case VT_OP_MKNOD_CHR: need = VT_FSF_DEVNODE; break;
	case VT_OP_LINK: need = VT_FSF_HARDLINK; break;
	case VT_OP_TMPFILE: need = VT_FSF_TMPFILE; break;
	case VT_OP_WRITE: need = VT_FSF_WRITE; break;
	case VT_OP_RENAME_EXCHANGE: need = VT_FSF_EXCHANGE; break;
	case VT_OP_RENAME_WHITEOUT: need = VT_FSF_WHITEOUT; break;
	default: break;
	}
	*rule = vt_rule_info(VT_R_NONE)->text;
	return need ? vt_fs_lack_errno(ctx->fstype, need, rule) : 0;
}

const char *vt_own_image_section(const char *fstype, const char *image_fstype, const char *how)
{
	static char why[300];

	if (strcmp(fstype, image_fstype) == 0)
		return NULL;
	snprintf(why, sizeof(why), "not for %s: it makes an %s image of its own (%s) and runs in the "
		 "%s section only", fstype, image_fstype, how, image_fstype);
	return why;
}

bool vt_need_fs(struct vt_ctx *ctx, unsigned int features)
{
	const struct vt_fs_row *r = vt_fs_row(ctx->fstype);
	char why[400];

	if (!r || (r->supports & features) == features)
		return true;
	vt_skip(ctx, "%s", vt_fs_lack_why(ctx->fstype, features & ~r->supports, why, sizeof(why)));
	return false;
}

const char *vt_idmapped_at(struct vt_ctx *ctx, const char *source, const char *spec,
			   const char *name, char *buf, size_t len)
{
	int ret;

	snprintf(buf, len, "%s/%s", ctx->dir, name);
	if (mkdir(buf, 0755) < 0 && errno != EEXIST) {
		vt_fail(ctx, "setup: mkdir %s: %s", buf, vt_errname(errno));
		return NULL;
	}
	ret = vt_idmapped_mount_spec(source, buf, spec, false);
	if (ret < 0) {
		vt_fail(ctx, "setup: idmapped mount of %s at %s with %s: %s", source, buf, spec,
			vt_errname(-ret));
		return NULL;
	}
	return buf;
}

/* Removal of a case tree: idmapped mounts made by a case are detached first
 * (MNT_DETACH of everything below), then vt_safe_remove_tree() removes the
 * files without following a symlink or crossing into another mount. */
static void detach_mounts_below(const char *dir)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[8192], targets[64][1024];
	size_t dlen = strlen(dir);
	int n = 0, i;

	if (!f)
		return;
	while (n < 64 && fgets(line, sizeof(line), f)) {
		char mnt[4096];
		if (sscanf(line, "%*d %*d %*s %*s %4095s", mnt) == 1 &&
		    strncmp(mnt, dir, dlen) == 0 && (mnt[dlen] == '/' || mnt[dlen] == '\0'))
			snprintf(targets[n++], sizeof(targets[0]), "%s", mnt);
	}
	fclose(f);
	for (i = n - 1; i >= 0; i--)
		umount2(targets[i], MNT_DETACH);
}

static void remove_tree(const char *dir)
{
	detach_mounts_below(dir);
	vt_safe_remove_tree(dir);
}

struct case_outcome {
	int failures;
	int skipped;
	char skip_reason[512];
};

static void run_case(const struct vt_case *c, struct vt_ctx *base, struct vt_ktap *k,
		     const char *test_id, int *fails, int *skips)
{
	static char replay[8192];
	struct case_outcome *shared;
	struct vt_ctx ctx = *base;
	int status;
	pid_t pid;
	char why[600];
	static int case_no;
	const struct vt_optowner_fs *ofs = vt_optowner_fs(base->fstype);

	/* msdos keeps 8.3 names (msdos_format_name cuts the rest): a case
	 * directory named by its number there, so two cases' names can never
	 * be one entry */
	if (ofs && ofs->short_names)
		snprintf(ctx.dir, sizeof(ctx.dir), "%s/c%d", base->dir, ++case_no);
	else
		snprintf(ctx.dir, sizeof(ctx.dir), "%s/%s", base->dir, c->name);
	for (char *p = ctx.dir + strlen(base->dir) + 1; *p; p++)
		if (*p == '/')
			*p = '_';
	shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		      -1, 0);
	if (shared == MAP_FAILED || mkdir(ctx.dir, 0755) < 0) {
		vt_ktap_diag(k, "setup of %s failed: %s", ctx.dir, vt_errname(errno));
		vt_ktap_result(k, VT_FAIL, c->name, NULL);
		(*fails)++;
		return;
	}
	chmod(ctx.dir, 0755);
	memset(shared, 0, sizeof(*shared));
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		umask(0);
		c->run(&ctx);
		shared->failures = ctx.failures;
		shared->skipped = ctx.skipped;
		memcpy(shared->skip_reason, ctx.skip_reason, sizeof(shared->skip_reason));
		fflush(NULL);
		_exit(0);
	}
	if (pid < 0)
		status = -1;
	else
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		if (pid > 0 && WIFSIGNALED(status))
			vt_ktap_diag(k, "FAIL: case crashed: killed by SIG%s",
				     vt_signame(WTERMSIG(status)));
		else
			vt_ktap_diag(k, "FAIL: case process did not finish normally");
		vt_ktap_diag(k, "reproduce: %s",
			     vt_replay_line(replay, sizeof(replay), test_id, c->name, base->fstype));
		vt_ktap_result(k, VT_FAIL, c->name, NULL);
		(*fails)++;
	} else if (shared->failures) {
		vt_ktap_diag(k, "reproduce: %s",
			     vt_replay_line(replay, sizeof(replay), test_id, c->name, base->fstype));
		vt_ktap_result(k, VT_FAIL, c->name, NULL);
		(*fails)++;
	} else if (shared->skipped) {
		snprintf(why, sizeof(why), "%s", shared->skip_reason);
		vt_ktap_result(k, VT_SKIP, c->name, why);
		(*skips)++;
	} else {
		vt_ktap_result(k, VT_PASS, c->name, NULL);
	}
	munmap(shared, sizeof(*shared));
	remove_tree(ctx.dir);
}

/* Case-level expunges from ./check -E: VT_EXPUNGE names a file of lines
 * "case<TAB>reason". An expunged case is not run and reported as a skip. */
static struct vt_expunges case_expunges;
static bool case_expunges_loaded;

/* Reads VT_EXPUNGE once: 0, or -1 with ERR (bad input). */
static int load_case_expunges(char *err, size_t errlen)
{
	if (case_expunges_loaded)
		return 0;
	case_expunges_loaded = true;
	return vt_expunges_load(&case_expunges, err, errlen);
}

bool vt_case_expunged(const char *name, char *why, size_t len)
{
	char err[600];
	const char *reason;

	load_case_expunges(err, sizeof(err));	/* test_main said why it failed */
	reason = vt_expunged(&case_expunges, NULL, name);
	if (reason)
		snprintf(why, len, "expunged: %s", reason);
	return reason != NULL;
}

/* The owners the test needs, as this mount gives them: the table said
 * the filesystem can have them (vt_fs_unmet); a create and chown confirm
 * it here, and a failure is a real notrun (a read-only mount of a
 * writable filesystem, a filesystem that lost its owners). */
static const char *owners_at_run_time(const struct vt_test *t, const char *fstype,
				      const char *test_dir)
{
	static char why[300];
	const struct vt_fs_row *r = vt_fs_row(fstype);
	int ret;

	/* worlds from mount options are the suite's own mounts
	 * (vt_owned_dir, vt_optowner_dir): nothing of TEST_DIR's to probe */
	if (t->needs.owners == VT_FSNEED_OPTION_OWNERS ||
	    (r && r->owner == VT_OWNER_MOUNT_OPTIONS && t->needs.owners == VT_FSNEED_OWNED_WORLDS))
		return NULL;
	ret = vt_probe_owner_storage(test_dir);
	if (t->needs.owners == VT_FSNEED_IMAGE_TREE) {
		/* the create is refused before anything is stored: sb_rdonly
		 * (erofs, squashfs set SB_RDONLY) -> mnt_want_write gives EROFS */
		if (ret == -EROFS)
			return NULL;
		snprintf(why, sizeof(why), "%s should be a read-only image, but the create probe "
			 "said: %s", fstype, ret == 0 ? "created" : vt_errname(-ret));
		return why;
	}
	if (ret == 0)
		return NULL;
	if (ret == -EROFS)
		snprintf(why, sizeof(why), "%s is mounted read-only (creating a file gives EROFS): "
			 "this test builds its world by writing files", fstype);
	else
		snprintf(why, sizeof(why), "%s stores no file owners here (chown to 1000:1000 gives "
			 "%s); this test's world needs them", fstype,
			 ret == -EOPNOTSUPP ? "no change" : vt_errname(-ret));
	return why;
}

/* Every idmapped test first asks the kernel whether this filesystem can be
 * idmapped here, by trying it (never by version). */
static const char *idmap_unsupported(const char *fstype, const char *test_dir)
{
	static char why[256];
	int ret = vt_probe_idmap_support(test_dir);

	if (ret == 0)
		return NULL;
	if (ret == -ENOSYS)
		snprintf(why, sizeof(why), "no mount_setattr() in this kernel (ENOSYS)");
	else if (ret == -EINVAL)
		snprintf(why, sizeof(why), "%s cannot be idmapped on this kernel (mount_setattr gives EINVAL)", fstype);
	else
		snprintf(why, sizeof(why), "idmapped mount probe on %s failed: %s", fstype, vt_errname(-ret));
	return why;
}

/* The case directories of a read-only image: a tmpfs over its empty
 * VT_RO_SCRATCH directory, in the private mount namespace vfsidmap-exec
 * gives the test (gone with it); unmounted at the end. */
static int read_only_scratch(const char *test_dir, char *dir, size_t len)
{
	snprintf(dir, len, "%s/%s", test_dir, VT_RO_SCRATCH);
	return mount("tmpfs", dir, "tmpfs", 0, "mode=0755") < 0 ? -errno : 0;
}

/* Why T can never run on FSTYPE, from the tables alone (the filesystem
 * table's answer to its .needs, then .own_image), or NULL. */
static const char *out_of_scope(const struct vt_test *t, const char *fstype, char *buf, size_t len)
{
	const char *why = vt_fs_unmet(fstype, &t->needs, buf, len);

	if (!why && t->own_image.fstype)
		why = vt_own_image_section(fstype, t->own_image.fstype, t->own_image.how);
	return why;
}

/* --out-of-scope: "TEST<TAB>FSTYPE<TAB>reason" for every filesystem of
 * the table on which the test can never run. make writes them all into
 * tests/out-of-scope.tsv, and ./check gives those runs notrun with the
 * reason the test would give, without starting the executor (a mount and
 * two processes saved each: they count in run/vm's TCG guest). */
static int print_out_of_scope(const struct vt_test *t, const char *test_id)
{
	char buf[600];
	const char *why;
	size_t i;

	for (i = 0; i < vt_fs_table_count; i++) {
		why = out_of_scope(t, vt_fs_table[i].name, buf, sizeof(buf));
		if (why && (strchr(why, '\t') || strchr(why, '\n'))) {
			fprintf(stderr, "%s: the reason on %s has a tab or a newline\n", test_id,
				vt_fs_table[i].name);
			return 2;
		}
		if (why && printf("%s\t%s\t%s\n", test_id, vt_fs_table[i].name, why) < 0)
			return 2;
	}
	return fflush(stdout) == 0 ? 0 : 2;
}

static int test_main(const struct vt_test *t, int argc, char **argv)
{
	struct vt_ktap k;
	struct vt_ctx base;
	const char *fstype = getenv("FSTYP"), *test_dir = getenv("TEST_DIR"), *why = NULL;
	/* One case by name: argv[1] (by hand) or VT_CASE (from ./check --case). */
	const char *only = argc > 1 ? argv[1] : getenv("VT_CASE");
	const char *prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	int n = 0, fails = 0, skips = 0, ran = 0, i, si = 1, sn = 1, named = 0;
	const char *shard = getenv("VT_SHARD");
	char why_buf[600], test_id[512], scratch[4200];

	setvbuf(stdout, NULL, _IOLBF, 0);
	vt_replay_test_id(argv[0], test_id, sizeof(test_id));
	/* the model mutants this program links (break.h; ./check validates
	 * VT_MODEL_BREAK against all the tests it runs with --match-mutants) */
	if (argc == 2 && strcmp(argv[1], "--list-mutants") == 0)
		return vt_mp_print_list(stdout) == 0 ? 0 : 2;
	if (argc == 3 && strcmp(argv[1], "--match-mutants") == 0)
		return vt_mut_print_matches(argv[2], stdout) == 0 ? 0 : 2;
	if (argc == 2 && strcmp(argv[1], "--out-of-scope") == 0)
		return print_out_of_scope(t, test_id);
	if (argc > 1 && strcmp(argv[1], "--list-cases") == 0) {
		for (i = 0; t->cases[i].name; i++)
			printf("%s\n", t->cases[i].name);
		return 0;
	}
	if (only && !*only)
		only = NULL;
	/* --shard I/N as the matrix driver reads it: case number i (from 0,
	 * in --list-cases order) runs in shard i % N + 1. */
	if (shard && *shard && (sscanf(shard, "%d/%d", &si, &sn) != 2 || sn < 1 || si < 1 || si > sn)) {
		fprintf(stderr, "VT_SHARD must be i/n with 1 <= i <= n\n");
		return 2;
	}
	if (load_case_expunges(why_buf, sizeof(why_buf)) < 0) {
		fprintf(stderr, "%s\n", why_buf);
		return 2;
	}
	vt_ktap_init(&k, stdout, 0);
	for (i = 0; t->cases[i].name; i++)
		if (!only || strcmp(only, t->cases[i].name) == 0) {
			named++;
			if (i % sn == si - 1)
				n++;
		}
	if (geteuid() != 0)
		why = "needs root (CAP_SYS_ADMIN to create mounts and user namespaces)";
	else if (!fstype || !test_dir)
		why = "FSTYP and TEST_DIR are not set: run through ./check";
	else if (named == 0)
		why = "no case of that name";
	else if (n == 0) {
		snprintf(why_buf, sizeof(why_buf), "no case in shard %d/%d", si, sn);
		why = why_buf;
	}
	/* the test's declared needs against the filesystem table first: out
	 * of scope on this filesystem whatever the kernel can do */
	else if ((why = out_of_scope(t, fstype, why_buf, sizeof(why_buf))))
		;
	else if (!t->no_idmap_probe && (why = idmap_unsupported(fstype, test_dir)))
		;
	else if ((why = owners_at_run_time(t, fstype, test_dir)))
		;
	else if (t->require)
		why = t->require(fstype, test_dir);
	else
		why = NULL;
	if (why) {
		vt_ktap_header(&k, -1);
		vt_ktap_skip_all(&k, why);
		return only && named == 0 ? 2 : VT_EXIT_NOTRUN;
	}
	memset(&base, 0, sizeof(base));
	base.fstype = fstype;
	base.test_dir = test_dir;
	base.ktap = &k;
	base.option_owners = vt_fs_row(fstype) && vt_fs_row(fstype)->owner == VT_OWNER_MOUNT_OPTIONS;
	base.read_only = t->needs.owners == VT_FSNEED_IMAGE_TREE;
	if (base.read_only) {
		int ret = read_only_scratch(test_dir, scratch, sizeof(scratch));

		if (ret < 0) {
			vt_ktap_header(&k, -1);
			vt_ktap_diag(&k, "cannot mount a tmpfs at %s: %s", scratch, vt_errname(-ret));
			return VT_EXIT_FAIL;
		}
	}
	if (vt_optowner_fs(fstype) && vt_optowner_fs(fstype)->short_names)
		/* an 8.3 name (msdos_format_name): "t" and seven digits of the pid */
		snprintf(base.dir, sizeof(base.dir), "%s/t%07d", test_dir, (int)getpid() % 10000000);
	else
		snprintf(base.dir, sizeof(base.dir), "%s/%s.%d", base.read_only ? scratch : test_dir,
			 prog, (int)getpid());
	if (mkdir(base.dir, 0755) < 0) {
		vt_ktap_header(&k, -1);
		vt_ktap_diag(&k, "cannot create %s: %s", base.dir, vt_errname(errno));
		return VT_EXIT_FAIL;
	}
	chmod(base.dir, 0755);
	vt_ktap_header(&k, n);
	for (i = 0; t->cases[i].name; i++) {
		if (only && strcmp(only, t->cases[i].name) != 0)
			continue;
		if (i % sn != si - 1)
			continue;
		if (vt_case_expunged(t->cases[i].name, why_buf, sizeof(why_buf))) {
			vt_ktap_result(&k, VT_SKIP, t->cases[i].name, why_buf);
			skips++;
		} else {
			run_case(&t->cases[i], &base, &k, test_id, &fails, &skips);
		}
		ran++;
	}
	remove_tree(base.dir);
	if (base.read_only && umount2(scratch, 0) < 0) {
		vt_ktap_diag(&k, "FAIL: umount %s: %s", scratch, vt_errname(errno));
		fails++;
	}
	vt_ktap_diag(&k, "totals: pass:%d fail:%d skip:%d", ran - fails - skips, fails, skips);
	if (fails)
		return VT_EXIT_FAIL;
	return skips == ran ? VT_EXIT_NOTRUN : VT_EXIT_PASS;
}

/* The KTAP goes to stdout, a file under VT_RUN_BASE when ./check runs the
 * test: if any of it could not be written (a full filesystem), the
 * verdict rests on output nobody will read, so it is no verdict. Exit 3
 * (VT_EXIT_OUTPUT): check makes it an error of the run. */
int vt_test_main(const struct vt_test *t, int argc, char **argv)
{
	int ret = test_main(t, argc, argv);

	if (fflush(stdout) == EOF || ferror(stdout)) {
		fprintf(stderr, "%s: writing the KTAP output failed (%s)\n", argv[0], strerror(errno));
		return VT_EXIT_OUTPUT;
	}
	return ret;
}
