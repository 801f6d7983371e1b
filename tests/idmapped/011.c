/* idmapped/011: an idmapped mount of a FUSE filesystem (Linux 6.12).
 *
 * FUSE can be idmapped when its server answers FUSE_ALLOW_IDMAP in INIT
 * and the mount has default_permissions (fs/fuse/inode.c
 * process_init_reply clears SB_I_NOIDMAP, which fuse_fill_super_common
 * set). The suite's reference server (runner/vfsidmap-fuse-server)
 * serves a backing directory in the case's own directory, so the test
 * runs on whatever filesystem TEST_DIR is; it logs every request.
 *
 * idmapped-ops: through an idmapped mount of the FUSE mount (b:10000:0:2000:
 * disk 10000+k is k through the mount) root creates a file, a directory,
 * a fifo, a symlink and an O_TMPFILE file it links in, chowns and chmods
 * the file, links it, sets an ACL on the directory, renames it with
 * RENAME_WHITEOUT and the symlink with RENAME_NOREPLACE and then
 * RENAME_EXCHANGE; a uid 1000 caller with supplementary group 1500
 * creates a file in a directory of group 1500.
 * Checked: (a) owners and the ACL's ids through the idmapped mount, the
 * FUSE mount itself and the backing directory; (b) the ids in every
 * logged request header against fs/fuse/dev.c fuse_get_req:
 *   - inode creation (MKNOD, MKDIR, SYMLINK, CREATE, TMPFILE, RENAME2
 *     with RENAME_WHITEOUT: fs/fuse/dir.c create_new_entry,
 *     fuse_create_open, fuse_rename2 pass the mount's idmap): the
 *     caller's fsuid/fsgid mapped through it, mapped_fsuid(idmap,
 *     fc->user_ns), and the FUSE_EXT_GROUPS extension only where
 *     get_create_supp_group adds one;
 *   - requests sent without credentials (args->nocreds: INIT, DESTROY,
 *     RELEASE, RELEASEDIR; FORGET, BATCH_FORGET and INTERRUPT, whose
 *     headers fuse_read_single_forget, fuse_read_batch_forget and
 *     fuse_read_interrupt build from zero): 0;
 *   - every other request (invalid_mnt_idmap: fuse_simple_request,
 *     fuse_force_creds, LINK's create_new_entry): FUSE_INVALID_UIDGID.
 * fuse_get_req reads SB_I_NOIDMAP before it waits for INIT, so a request
 * made while INIT was unanswered would carry the caller's own ids; the
 * server says it is ready only after answering INIT, and the test makes
 * no request before that.
 * no-allow-idmap: a server that does not ask FUSE_ALLOW_IDMAP: the mount
 * cannot be idmapped (EINVAL) and headers carry the caller's own fsuid
 * and fsgid (fuse_get_req's no_idmap branch).
 *
 * Notrun: no /dev/fuse; a kernel that does not offer FUSE_ALLOW_IDMAP in
 * INIT (before 6.12). With VT_FUSE_NO_ALLOW_IDMAP=1 in the environment,
 * idmapped-ops starts the server without the flag and is notrun, saying
 * the server did not ask for it (how that reason reads, by hand). */
#include "testlib/testlib.h"
#include "fuse/fuse_wire.h"
#include "world/fuse_world.h"
#include "world/xattr_view.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define MAP "b:10000:0:2000"
#define DISK(k) (10000u + (k))	/* the disk id of mount-view id k */
#define INVALID VT_FUSE_INVALID_UIDGID
#define R_FILLATTR "fs/fuse/dir.c fuse_fillattr: make_vfsuid(idmap, fc->user_ns, attr->uid)"
#define R_PLAIN "fs/fuse/dir.c fuse_fillattr on the FUSE mount itself (nop_mnt_idmap): the server's ids"
#define R_CREATE "fs/fuse/dev.c fuse_get_req: mapped_fsuid/mapped_fsgid(idmap, fc->user_ns) " \
		 "for the creation requests given the mount's idmap (fs/fuse/dir.c create_new_entry, " \
		 "fuse_create_open, fuse_rename2 with RENAME_WHITEOUT), stored by the server"

/* Is there a FUSE to mount? */
static const char *require_fuse(const char *fstype, const char *test_dir)
{
	(void)fstype;
	(void)test_dir;
	if (access("/dev/fuse", R_OK | W_OK) < 0)
		return "no /dev/fuse here (CONFIG_FUSE_FS, the fuse module)";
	return NULL;
}

/* INIT as the server logged it */
struct init_seen {
	bool seen;
	uint64_t offered, flags;
};

static void find_init(const struct vt_fuse_logrec *r, void *arg)
{
	struct init_seen *i = arg;

	if (strcmp(r->op, "INIT") == 0 && !i->seen) {
		i->seen = true;
		i->offered = r->offered;
		i->flags = r->flags;
	}
}

static bool read_init(struct vt_ctx *ctx, const char *log, struct init_seen *i)
{
	char why[512] = "";
	int errs;

	memset(i, 0, sizeof(*i));
	if (vt_fuse_log_each(log, find_init, i, &errs, why, sizeof(why)) < 0 || !i->seen) {
		vt_fail(ctx, "setup: no INIT in the server's log %s %s", log, why);
		return false;
	}
	return true;
}

/* The server's mount, and its directories: <dir>/backing, <dir>/fuse */
static bool start(struct vt_ctx *ctx, struct vt_fuse_mount *m, bool allow_idmap, mode_t root_mode,
		  uid_t root_uid, gid_t root_gid, char *backing, char *fusemnt, char *log)
{
	char why[512];
	int ret;

	if (!vt_mkdir(ctx, "backing", root_mode, root_uid, root_gid, backing, 4096) ||
	    !vt_mkdir(ctx, "fuse", 0755, 0, 0, fusemnt, 4096))
		return false;
	snprintf(log, 4096, "%s/requests.log", ctx->dir);
	ret = vt_fuse_mount_start(m, backing, fusemnt, log, allow_idmap, why, sizeof(why));
	if (ret < 0) {
		vt_fail(ctx, "setup: the reference FUSE server over %s at %s: %s", backing, fusemnt, why);
		return false;
	}
	return true;
}

static void stop(struct vt_ctx *ctx, struct vt_fuse_mount *m)
{
	char why[512];
	int ret = vt_fuse_mount_stop(m, why, sizeof(why));

	if (ret != 0 || why[0])
		vt_fail(ctx, "clean-up: the FUSE server at %s: exit %d%s%s", m->mountpoint, ret,
			why[0] ? ": " : "", why);
}

/* Why the idmapped mount failed with EINVAL, when that is no fault of the
 * kernel's: NULL when the kernel offered FUSE_ALLOW_IDMAP and the server
 * asked it (then SB_I_NOIDMAP is clear and EINVAL is a failure). */
static const char *einval_reason(const struct init_seen *i)
{
	if (!(i->offered & VT_FUSE_ALLOW_IDMAP))
		return "this kernel does not offer FUSE_ALLOW_IDMAP in INIT (idmapped FUSE mounts: "
		       "Linux 6.12, fs/fuse/inode.c), so mount_setattr(MOUNT_ATTR_IDMAP) on a FUSE "
		       "mount is EINVAL";
	if (!(i->flags & VT_FUSE_ALLOW_IDMAP))
		return "the server did not ask FUSE_ALLOW_IDMAP in its INIT reply, so the FUSE mount "
		       "keeps SB_I_NOIDMAP (fs/fuse/inode.c process_init_reply) and "
		       "mount_setattr(MOUNT_ATTR_IDMAP) is EINVAL";
	return NULL;
}

struct chmod_arg {
	const char *path;
	mode_t mode;
};

static int op_chmod(void *arg, void *data, size_t len)
{
	const struct chmod_arg *a = arg;

	(void)data;
	(void)len;
	return chmod(a->path, a->mode) < 0 ? errno : 0;
}

static int op_acl(void *path, void *data, size_t len)
{
	(void)data;
	(void)len;
	return -vt_acl_write_text(path, false, "u::rwx,u:1000:rwx,g::r-x,m::rwx,o::r-x");
}

struct rename_arg {
	const char *from, *to;
	unsigned int flags;
};

static int op_rename(void *arg, void *data, size_t len)
{
	const struct rename_arg *a = arg;

	(void)data;
	(void)len;
	return renameat2(AT_FDCWD, a->from, AT_FDCWD, a->to, a->flags) < 0 ? errno : 0;
}

static int op_link(void *arg, void *data, size_t len)
{
	const struct rename_arg *a = arg;

	(void)data;
	(void)len;
	return link(a->from, a->to) < 0 ? errno : 0;
}

/* O_TMPFILE in the directory ARG, then linked in as ARG/t */
static int op_tmpfile(void *arg, void *data, size_t len)
{
	char name[4400];
	int fd, ret = 0;

	(void)data;
	(void)len;
	fd = open(arg, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0)
		return errno;
	snprintf(name, sizeof(name), "%s/t", (const char *)arg);
	if (linkat(fd, "", AT_FDCWD, name, AT_EMPTY_PATH) < 0)
		ret = errno;
	close(fd);
	return ret;
}

/* One operation as C through the idmapped mount, expected to succeed
 * (root, or uid 1000 in its own group directory: generic_permission). */
static bool act(struct vt_ctx *ctx, const struct vt_caller *c, const char *what, vt_caller_fn fn,
		void *arg)
{
	struct vt_run r = vt_run_as(c, fn, arg, NULL, 0);

	if (!vt_expect_ran(ctx, c, &r))
		return false;
	return vt_expect_errno(ctx, what, r.ret, 0,
			       "the caller owns the directory or is root (generic_permission); "
			       "its fsuid/fsgid map through " MAP " (may_create)");
}

/* The owners of NAME as seen through the idmapped mount, the FUSE mount
 * and the backing directory. K_UID/K_GID are mount-view ids. */
static void expect_owners(struct vt_ctx *ctx, const char *idm, const char *fusemnt,
			  const char *backing, const char *name, uid_t k_uid, gid_t k_gid)
{
	char p[4400];

	snprintf(p, sizeof(p), "%s/%s", idm, name);
	vt_expect_owner(ctx, p, k_uid, k_gid, R_FILLATTR);
	snprintf(p, sizeof(p), "%s/%s", fusemnt, name);
	vt_expect_owner(ctx, p, DISK(k_uid), DISK(k_gid), R_PLAIN);
	snprintf(p, sizeof(p), "%s/%s", backing, name);
	vt_expect_owner(ctx, p, DISK(k_uid), DISK(k_gid), R_CREATE);
}

/* What each creation request must have carried */
static const struct creation {
	const char *op, *name;
	uint32_t uid, gid;
	bool supp;
	uint32_t supp_gid;
	const char *supp_rule;
} creations[] = {
	{ "CREATE", "f", DISK(0), DISK(0), false, 0,
	  "get_create_supp_group: the parent's group is the caller's fsgid: no extension" },
	{ "MKDIR", "d", DISK(0), DISK(0), false, 0,
	  "get_create_supp_group: the parent's group is the caller's fsgid: no extension" },
	{ "MKNOD", "p", DISK(0), DISK(0), false, 0,
	  "get_create_supp_group: the parent's group is the caller's fsgid: no extension" },
	{ "SYMLINK", "s", DISK(0), DISK(0), false, 0,
	  "get_create_supp_group: the parent's group is the caller's fsgid: no extension" },
	{ "RENAME2", "d/d2", DISK(0), DISK(0), false, 0,
	  "fuse_rename_common sends no extension" },
	/* any name: vfs_tmpfile's dentry is not one the test chose */
	{ "TMPFILE", NULL, DISK(0), DISK(0), false, 0,
	  "get_create_supp_group: the parent's group is the caller's fsgid: no extension" },
	{ "CREATE", "u", DISK(1000), DISK(1000), true, DISK(1500),
	  "get_create_supp_group: the parent's group (mount view 1500) is not the caller's fsgid "
	  "(1000) but one of its groups: the extension carries it as the server knows it, "
	  "from_kgid(fc->user_ns, dir->i_gid)" },
};
#define NCREATIONS (sizeof(creations) / sizeof(creations[0]))

/* Requests of the test's that are no creation: FUSE_INVALID_UIDGID */
static const struct other {
	const char *op, *name;
	unsigned int flags;
	const char *rule;
} others[] = {
	{ "SETATTR", "", 0, "fuse_setattr -> fuse_do_setattr: fuse_simple_request" },
	{ "SETXATTR", "system.posix_acl_access", 0, "fuse_set_acl -> fuse_setxattr: fuse_simple_request" },
	{ "LINK", "hl", 0, "fuse_link: create_new_entry(&invalid_mnt_idmap, ...)" },
	{ "LINK", "t", 0, "fuse_link: create_new_entry(&invalid_mnt_idmap, ...)" },
	{ "RENAME2", "s/s2", RENAME_NOREPLACE,
	  "fuse_rename2: invalid_mnt_idmap unless RENAME_WHITEOUT" },
	{ "RENAME2", "s2/p", RENAME_EXCHANGE,
	  "fuse_rename2: invalid_mnt_idmap unless RENAME_WHITEOUT" },
};
#define NNOCREATE (sizeof(others) / sizeof(others[0]))

struct log_check {
	struct vt_ctx *ctx;
	int seen[NCREATIONS];
	int seen_other[NNOCREATE];
	int requests, creations, nocreds, invalid;
};

static bool is_creation(const struct vt_fuse_logrec *r)
{
	static const char *const ops[] = { "MKNOD", "MKDIR", "SYMLINK", "CREATE", "TMPFILE" };

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (strcmp(r->op, ops[i]) == 0)
			return true;
	return strcmp(r->op, "RENAME2") == 0 && (r->flags & RENAME_WHITEOUT);
}

static bool is_nocreds(const struct vt_fuse_logrec *r)
{
	static const char *const ops[] = { "INIT", "DESTROY", "RELEASE", "RELEASEDIR", "FORGET",
					   "BATCH_FORGET", "INTERRUPT" };

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (strcmp(r->op, ops[i]) == 0)
			return true;
	return false;
}

static void check_request(const struct vt_fuse_logrec *r, void *arg)
{
	struct log_check *lc = arg;
	struct vt_ctx *ctx = lc->ctx;
	char what[400];

	lc->requests++;
	snprintf(what, sizeof(what), "header of %s (unique %llu, node %llu, name %s)", r->op,
		 (unsigned long long)r->unique, (unsigned long long)r->nodeid,
		 r->name[0] ? r->name : "-");
	if (is_creation(r)) {
		size_t i;

		lc->creations++;
		for (i = 0; i < NCREATIONS; i++)
			if (strcmp(r->op, creations[i].op) == 0 &&
			    (!creations[i].name || strcmp(r->name, creations[i].name) == 0))
				break;
		if (i == NCREATIONS) {
			vt_fail(ctx, "%s: a creation the test did not make", what);
			return;
		}
		lc->seen[i]++;
		if (r->uid != creations[i].uid || r->gid != creations[i].gid)
			vt_fail(ctx, "%s: expected uid %u gid %u, got %u %u [rule: %s]", what,
				creations[i].uid, creations[i].gid, r->uid, r->gid, R_CREATE);
		if (r->has_supp != creations[i].supp ||
		    (r->has_supp && r->supp != creations[i].supp_gid))
			vt_fail(ctx, "%s: expected %s%u, got %s%u [rule: fs/fuse/dir.c %s]", what,
				creations[i].supp ? "supplementary group " : "no extension",
				creations[i].supp ? creations[i].supp_gid : 0,
				r->has_supp ? "supplementary group " : "no extension",
				r->has_supp ? r->supp : 0, creations[i].supp_rule);
		return;
	}
	if (r->has_supp)
		vt_fail(ctx, "%s: a supplementary-group extension (%u) [rule: fs/fuse/dir.c "
			"get_create_ext: creation requests only]", what, r->supp);
	if (is_nocreds(r)) {
		lc->nocreds++;
		if (r->uid != 0 || r->gid != 0)
			vt_fail(ctx, "%s: expected uid 0 gid 0, got %u %u [rule: args->nocreds: "
				"__fuse_simple_request and fuse_simple_background skip "
				"fuse_force_creds (fs/fuse/dev.c); FORGET and INTERRUPT headers "
				"from fuse_read_single_forget, fuse_read_batch_forget and "
				"fuse_read_interrupt carry no ids]",
				what, r->uid, r->gid);
		return;
	}
	lc->invalid++;
	for (size_t i = 0; i < NNOCREATE; i++)
		if (strcmp(r->op, others[i].op) == 0 && strcmp(r->name, others[i].name) == 0 &&
		    r->flags == others[i].flags)
			lc->seen_other[i]++;
	if (r->uid != INVALID || r->gid != INVALID)
		vt_fail(ctx, "%s: expected uid and gid %u (FUSE_INVALID_UIDGID), got %u %u [rule: "
			"fs/fuse/dev.c fuse_get_req with invalid_mnt_idmap (fuse_simple_request, "
			"LINK's create_new_entry, RENAME2 without RENAME_WHITEOUT) or "
			"fuse_force_creds, on a superblock without SB_I_NOIDMAP]",
			what, INVALID, r->uid, r->gid);
}

static void check_log(struct vt_ctx *ctx, const char *log)
{
	struct log_check lc = { .ctx = ctx };
	char why[512] = "";
	int errs, n;

	n = vt_fuse_log_each(log, check_request, &lc, &errs, why, sizeof(why));
	if (n < 0) {
		vt_fail(ctx, "the server's log %s: %s", log, why);
		return;
	}
	if (errs)
		vt_fail(ctx, "the reference server reported %d error(s) of its own (a fault of the "
			"server, not of the kernel): %s", errs, why);
	for (size_t i = 0; i < NCREATIONS; i++)
		if (lc.seen[i] != 1)
			vt_fail(ctx, "%s %s: logged %d times, expected once [rule: %s]", creations[i].op,
				creations[i].name ? creations[i].name : "(any name)", lc.seen[i], R_CREATE);
	for (size_t i = 0; i < NNOCREATE; i++)
		if (!lc.seen_other[i])
			vt_fail(ctx, "%s %s (flags %#x): not in the server's log, expected with "
				"FUSE_INVALID_UIDGID [rule: %s]", others[i].op, others[i].name,
				others[i].flags, others[i].rule);
	vt_note(ctx, "%d requests logged: %d creations, %d without credentials, %d with "
		"FUSE_INVALID_UIDGID", lc.requests, lc.creations, lc.nocreds, lc.invalid);
}

static void expect_acl_user(struct vt_ctx *ctx, const char *dir, const char *name, uint32_t id,
			    const char *rule)
{
	struct vt_acl_entry e[VT_ACL_MAX_ENTRIES];
	char p[4400];
	int n;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	n = vt_acl_read(p, false, e, VT_ACL_MAX_ENTRIES);
	if (n < 0) {
		vt_fail(ctx, "read system.posix_acl_access of %s: %s [rule: %s]", p, vt_errname(-n),
			rule);
		return;
	}
	if (vt_acl_find(e, n, VT_ACL_USER, id) != 07)
		vt_fail(ctx, "ACL of %s: expected an ACL_USER entry for %u with rwx [rule: %s]", p, id,
			rule);
}

static void idmapped_ops(struct vt_ctx *ctx)
{
	char backing[4096], fusemnt[4096], log[4096], idm[4096], p[4400], q[4400], g[4096];
	struct vt_caller root = vt_caller_root(), user = vt_caller_user(1000, 1000);
	bool allow = !(getenv("VT_FUSE_NO_ALLOW_IDMAP") && *getenv("VT_FUSE_NO_ALLOW_IDMAP") == '1');
	struct vt_fuse_mount m;
	struct init_seen init;
	struct stat st;
	int ret;

	/* the backing root is mount-view 0:0 through MAP, so root owns it
	 * there; g is mount-view group 1500 */
	if (!start(ctx, &m, allow, 0755, DISK(0), DISK(0), backing, fusemnt, log))
		return;
	if (!vt_mkdir(ctx, "backing/g", 0775, DISK(0), DISK(1500), g, sizeof(g)) ||
	    !read_init(ctx, log, &init))
		goto out;
	snprintf(idm, sizeof(idm), "%s/idm", ctx->dir);
	if (mkdir(idm, 0755) < 0) {
		vt_fail(ctx, "setup: mkdir %s: %s", idm, vt_errname(errno));
		goto out;
	}
	ret = vt_idmapped_mount_spec(fusemnt, idm, MAP, false);
	if (ret == -EINVAL && einval_reason(&init)) {
		vt_skip(ctx, "%s", einval_reason(&init));
		goto out;
	}
	if (!vt_expect_errno(ctx, "mount_setattr(MOUNT_ATTR_IDMAP " MAP ") of the FUSE mount", -ret, 0,
			     "the kernel offered FUSE_ALLOW_IDMAP and the server asked it, with "
			     "default_permissions: process_init_reply clears SB_I_NOIDMAP "
			     "(fs/fuse/inode.c); fuse_fs_type has FS_ALLOW_IDMAP"))
		goto out;
	vt_scene(ctx, "FUSE mount %s of %s (reference server, log %s) idmapped %s at %s", fusemnt,
		 backing, log, MAP, idm);
	user.ngroups = 1;
	user.groups[0] = 1500;

	snprintf(p, sizeof(p), "%s/f", idm);
	if (!act(ctx, &root, "open(f, O_CREAT|O_EXCL) as root", vt_op_create, p))
		goto out_idm;
	snprintf(p, sizeof(p), "%s/d", idm);
	if (!act(ctx, &root, "mkdir(d) as root", vt_op_mkdir, p))
		goto out_idm;
	snprintf(p, sizeof(p), "%s/p", idm);
	if (!act(ctx, &root, "mknod(p, S_IFIFO) as root", vt_op_mkfifo, p))
		goto out_idm;
	snprintf(p, sizeof(p), "%s/s", idm);
	if (!act(ctx, &root, "symlink(s) as root", vt_op_symlink, p))
		goto out_idm;
	{
		struct vt_chown_arg ca = { .uid = 1000, .gid = 1000 };
		struct chmod_arg cm = { .mode = 0640 };
		struct rename_arg rn, ln;

		snprintf(p, sizeof(p), "%s/f", idm);
		ca.path = cm.path = p;
		if (!act(ctx, &root, "chown(f, 1000, 1000) as root", vt_op_chown, &ca) ||
		    !act(ctx, &root, "chmod(f, 0640) as root", op_chmod, &cm))
			goto out_idm;
		snprintf(q, sizeof(q), "%s/hl", idm);
		ln = (struct rename_arg){ p, q, 0 };
		if (!act(ctx, &root, "link(f, hl) as root", op_link, &ln))
			goto out_idm;
		snprintf(p, sizeof(p), "%s/d", idm);
		if (!act(ctx, &root, "setxattr(d, system.posix_acl_access, u:1000:rwx) as root", op_acl,
			 p))
			goto out_idm;
		snprintf(q, sizeof(q), "%s/d2", idm);
		rn = (struct rename_arg){ p, q, RENAME_WHITEOUT };
		if (!act(ctx, &root, "renameat2(d, d2, RENAME_WHITEOUT) as root", op_rename, &rn))
			goto out_idm;
		snprintf(p, sizeof(p), "%s/s", idm);
		snprintf(q, sizeof(q), "%s/s2", idm);
		rn = (struct rename_arg){ p, q, RENAME_NOREPLACE };
		if (!act(ctx, &root, "renameat2(s, s2, RENAME_NOREPLACE) as root", op_rename, &rn))
			goto out_idm;
		snprintf(p, sizeof(p), "%s/p", idm);
		rn = (struct rename_arg){ q, p, RENAME_EXCHANGE };
		if (!act(ctx, &root, "renameat2(s2, p, RENAME_EXCHANGE) as root", op_rename, &rn))
			goto out_idm;
		if (!act(ctx, &root, "open(O_TMPFILE), linkat(t) as root", op_tmpfile, idm))
			goto out_idm;
	}
	snprintf(p, sizeof(p), "%s/g/u", idm);
	if (!act(ctx, &user, "open(g/u, O_CREAT|O_EXCL) as uid 1000 with group 1500", vt_op_create,
		 p))
		goto out_idm;

	/* (a) owners: k through the mount, 10000+k on the FUSE mount and on disk */
	expect_owners(ctx, idm, fusemnt, backing, "f", 1000, 1000);
	expect_owners(ctx, idm, fusemnt, backing, "d2", 0, 0);
	/* p and s2 exchanged: the symlink is p now, the fifo s2 */
	expect_owners(ctx, idm, fusemnt, backing, "p", 0, 0);
	expect_owners(ctx, idm, fusemnt, backing, "s2", 0, 0);
	expect_owners(ctx, idm, fusemnt, backing, "t", 0, 0);
	/* the whiteout: a new inode of the renaming caller's (fuse_rename2
	 * gives RENAME2 with RENAME_WHITEOUT the mount's idmap) */
	expect_owners(ctx, idm, fusemnt, backing, "d", 0, 0);
	expect_owners(ctx, idm, fusemnt, backing, "g/u", 1000, 1000);
	snprintf(p, sizeof(p), "%s/d", backing);
	if (lstat(p, &st) == 0)
		vt_expect_eq(ctx, "d is a whiteout (character device 0:0)",
			     S_ISCHR(st.st_mode) && st.st_rdev == makedev(0, 0), 1,
			     "renameat2(2) RENAME_WHITEOUT");
	snprintf(p, sizeof(p), "%s/f", fusemnt);
	if (lstat(p, &st) == 0)
		vt_expect_eq(ctx, "mode of f on the FUSE mount", st.st_mode & 07777, 0640,
			     "chmod(2) through the mount: SETATTR's mode");
	/* the ACL's ACL_USER id: the mount's view through it, the disk's
	 * elsewhere (fs/posix_acl.c vfs_set_acl maps it with from_vfsuid,
	 * vfs_posix_acl_to_xattr back with make_vfsuid) */
	expect_acl_user(ctx, idm, "d2", 1000, "vfs_posix_acl_to_xattr through the idmapped mount");
	expect_acl_user(ctx, fusemnt, "d2", DISK(1000),
			"vfs_set_acl: from_vfsuid(idmap, fs_userns, 1000); fuse_set_acl sends it "
			"as posix_acl_to_xattr(fc->user_ns)");
	expect_acl_user(ctx, backing, "d2", DISK(1000), "the server stores the raw xattr");

	/* (b) the header of every request */
	check_log(ctx, log);
out_idm:
	if (umount2(idm, 0) < 0)
		vt_fail(ctx, "clean-up: umount %s: %s", idm, vt_errname(errno));
out:
	stop(ctx, &m);
}

static void no_allow_idmap(struct vt_ctx *ctx)
{
	char backing[4096], fusemnt[4096], log[4096], idm[4096], p[4400];
	struct vt_caller user = vt_caller_user(1000, 1000);
	struct vt_fuse_mount m;
	struct init_seen init;
	struct vt_fuse_logrec want = { 0 };
	int ret;

	if (!start(ctx, &m, false, 0777, 0, 0, backing, fusemnt, log))
		return;
	if (!read_init(ctx, log, &init))
		goto out;
	if (!(init.offered & VT_FUSE_ALLOW_IDMAP)) {
		vt_skip(ctx, "%s", einval_reason(&init));
		goto out;
	}
	vt_expect_eq(ctx, "FUSE_ALLOW_IDMAP in the server's INIT reply",
		     !!(init.flags & VT_FUSE_ALLOW_IDMAP), 0, "vfsidmap-fuse-server --no-allow-idmap");
	snprintf(idm, sizeof(idm), "%s/idm", ctx->dir);
	if (mkdir(idm, 0755) < 0) {
		vt_fail(ctx, "setup: mkdir %s: %s", idm, vt_errname(errno));
		goto out;
	}
	ret = vt_idmapped_mount_spec(fusemnt, idm, MAP, false);
	if (!vt_expect_errno(ctx, "mount_setattr(MOUNT_ATTR_IDMAP " MAP ") of the FUSE mount", -ret,
			     EINVAL,
			     "SB_I_NOIDMAP set by fuse_fill_super_common stays without "
			     "FUSE_ALLOW_IDMAP (process_init_reply); can_idmap_mount: EINVAL")) {
		if (ret == 0)
			umount2(idm, MNT_DETACH);
		goto out;
	}
	snprintf(p, sizeof(p), "%s/f", fusemnt);
	if (!act(ctx, &user, "open(f, O_CREAT|O_EXCL) as uid 1000 on the FUSE mount", vt_op_create, p))
		goto out;
	snprintf(p, sizeof(p), "%s/f", backing);
	vt_expect_owner(ctx, p, 1000, 1000,
			"fuse_get_req without idmapping: the header carries current_fsuid/fsgid; "
			"the server stores them");
	/* every request of the caller's carries its ids: find its CREATE */
	{
		FILE *f = fopen(log, "re");
		char line[1024];
		bool found = false;

		while (f && fgets(line, sizeof(line), f))
			if (vt_fuse_log_parse(line, &want) && strcmp(want.op, "CREATE") == 0 &&
			    strcmp(want.name, "f") == 0) {
				found = true;
				break;
			}
		if (f)
			fclose(f);
		if (vt_expect_eq(ctx, "a CREATE of f in the server's log", found, 1, "fuse_create_open"))
			vt_expect_eq(ctx, "CREATE's header uid and gid (1000 each)",
				     want.uid == 1000 && want.gid == 1000, 1,
				     "fs/fuse/dev.c fuse_get_req: no_idmap: current_fsuid(), "
				     "current_fsgid() in fc->user_ns");
	}
out:
	stop(ctx, &m);
}

static const struct vt_case cases[] = {
	{ "idmapped-ops", idmapped_ops },
	{ "no-allow-idmap", no_allow_idmap },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	/* the backing directory holds files of chosen owners (the server
	 * chowns what it creates) and an ACL, on TEST_DIR's filesystem; the
	 * idmapped mount is of the FUSE mount, not of TEST_DIR */
	static const struct vt_test t = {
		.cases = cases,
		.require = require_fuse,
		.no_idmap_probe = true,
		.needs = { .owners = VT_FSNEED_INODE_OWNERS,
			   .features = VT_FSF_SYMLINK | VT_FSF_DEVNODE | VT_FSF_HARDLINK |
				       VT_FSF_WHITEOUT | VT_FSF_EXCHANGE | VT_FSF_TMPFILE |
				       VT_FSF_POSIX_ACL },
	};
	return vt_test_main(&t, argc, argv);
}
