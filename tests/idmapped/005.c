/* idmapped/005: a read-only image (erofs, squashfs) read through an
 * idmapped mount.
 *
 * The image holds the tree of lib/world/ro_image.c (owners 0, 1000 and
 * 3000, modes with setuid/setgid, a POSIX ACL naming user 1001, 2000 and
 * group 3000, user./trusted. xattrs, file capabilities v2 and v3, copies
 * of exec-probe), made by mkfs.erofs or mksquashfs when ./check made the
 * filesystem. Its directory w/ is mounted idmapped with MAP and every read
 * path is checked, for callers in the initial namespace and in a user
 * namespace whose root is kernel uid 10000 (the container case: MAP shows
 * the image's root files as 10000), against the model (lib/model) given
 * the same tree:
 * stat and statx owners (make_vfsuid, generic_fillattr, cp_statx), open
 * for reading by owner, group, other and ACL entries (generic_permission,
 * acl_permission_check, posix_acl_permission), lookup in a 0750 directory
 * (may_lookup), getxattr of system.posix_acl_access and _default
 * (vfs_get_acl -> posix_acl_to_xattr with the mount's idmap) and of
 * security.capability
 * (cap_inode_getsecurity: the rootid through the mount), user./trusted.
 * xattrs, readdir, and exec of setuid, setgid and file-capability copies
 * of exec-probe (bprm_fill_uid, get_vfs_caps_from_disk). Every write
 * (create, mkdir, mknod, symlink, link, tmpfile, open for writing,
 * truncate, chown, chmod, utimensat, setxattr, removexattr, unlink,
 * rename) is EROFS by the model's one read-only rule (readonly_rules.c:
 * mnt_want_write / sb_permission), with the checks that come before it.
 * squashfs has no POSIX ACLs (squashfs_xattr_handlers: user, trusted,
 * security; no ->get_inode_acl), which the table says and the model
 * follows. Runs only on a read-only image (notrun elsewhere). */
#include "testlib/testlib.h"
#include "fs/fs_table.h"
#include "model/world_model.h"
#include "world/exec_probe.h"
#include "world/ro_image.h"
#include "world/sysctl.h"
#include "world/xattr_view.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

/* disk id -> id seen through the mount: 0 -> 10000, 1000 -> 1001,
 * 2000 -> 2001, 3000 -> 3001; 1001 (an ACL_USER on disk) has none */
#define MAP "b:0:10000:1,b:1000:1001:1,b:2000:2001:1,b:3000:3001:1"

/* the callers' user namespace: the container case, its root is kernel
 * uid 10000, which MAP shows the image's root files as */
#define NS_SPEC "b:0:10000:65536"

struct who {
	const char *name;
	uid_t uid;
	gid_t gid;
	int ngroups;
	gid_t groups[2];
	bool root;
	bool in_ns;		/* in the user namespace NS_SPEC (ids in it) */
};

/* the mount-view owner, the ACL's user 2000 seen as 2001 (perm ---), a
 * member of 3001 (the ACL group, and the group of g3000-0060), the
 * on-disk owner 1000 (other class through the mount), and root */
static const struct who callers[] = {
	{ "1001(mapped-owner)", 1001, 1001, 0, { 0 }, false, false },
	{ "2001(acl-user-none)", 2001, 2001, 0, { 0 }, false, false },
	{ "4000+3001(acl-group)", 4000, 4000, 1, { 3001 }, false, false },
	{ "1000(disk-owner)", 1000, 1000, 0, { 0 }, false, false },
	{ "root", 0, 0, 0, { 0 }, true, false },
	/* root of a user namespace mapping 0 to 10000, with its caps there */
	{ "ns-root(" NS_SPEC ")", 0, 0, 0, { 0 }, true, true },
	/* uid 1001 of that namespace is kernel 11001: other class everywhere */
	{ "ns-1001(" NS_SPEC ")", 1001, 1001, 0, { 0 }, false, true },
};
#define NCALLERS (sizeof(callers) / sizeof(callers[0]))
#define HOST_ROOT (&callers[4])	/* what the test process itself is */

static struct vt_mns ns_model = { .name = "ns", .parent = &vt_init_ns };
static int ns_fd = -1;

struct ro_world {
	char mnt[4096];		/* the idmapped mount of <TEST_DIR>/w */
	struct vt_midmap idmap;
	const struct vt_fs_row *row;
	uint64_t bset_init, cap_full;
};

static struct vt_minode minode(const struct vt_ro_entry *e)
{
	struct vt_minode i;
	int k;

	memset(&i, 0, sizeof(i));
	if (!e)
		return i;
	i.exists = true;
	i.mode = (e->kind == 'd' ? S_IFDIR : e->kind == 'l' ? S_IFLNK : S_IFREG) | e->mode;
	i.uid = vt_kuid(e->uid);
	i.gid = vt_kgid(e->gid);
	for (k = 0; k < e->nacl && k < VT_MODEL_MAX_ACL; k++) {
		i.acl[k].tag = e->acl[k].tag;
		i.acl[k].perm = e->acl[k].perm;
		i.acl[k].uid = vt_kuid(e->acl[k].id);
		i.acl[k].gid = vt_kgid(e->acl[k].id);
	}
	i.nacl = k;
	for (k = 0; k < e->ndefacl && k < VT_MODEL_MAX_ACL; k++) {
		i.defacl[k].tag = e->defacl[k].tag;
		i.defacl[k].perm = e->defacl[k].perm;
		i.defacl[k].uid = vt_kuid(e->defacl[k].id);
		i.defacl[k].gid = vt_kgid(e->defacl[k].id);
	}
	i.ndefacl = k;
	i.fcaps.version = e->fcaps_version;
	i.fcaps.rootid = vt_kuid(e->fcaps_rootid);
	i.user_xattr = e->user_xattr;
	i.trusted_xattr = e->trusted_xattr;
	i.exec_probe = e->kind == 'x';
	i.symlink_to_t = false;
	return i;
}

static uint64_t read_bset(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	unsigned long long v = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "CapBnd: %llx", &v) == 1)
			break;
	if (f)
		fclose(f);
	return v;
}

/* The model's world: the filesystem's s_user_ns is the initial one (a
 * block filesystem mounted by the initial root), SB_RDONLY, SB_POSIXACL
 * as the table says; DIR and OBJ are entries of the tree ("w/..."). */
static void model_world(const struct ro_world *rw, const struct who *c, const char *dir,
			const char *obj, struct vt_world *w)
{
	int k;

	memset(w, 0, sizeof(*w));
	w->fs_ns = &vt_init_ns;
	w->posixacl = (rw->row->supports & VT_FSF_POSIX_ACL) != 0;
	w->sb_rdonly = rw->row->read_only;
	w->idmap = &rw->idmap;
	w->cred.name = c->name;
	w->cred.ns = c->in_ns ? &ns_model : &vt_init_ns;
	w->cred.uid = w->cred.fsuid = vt_cuid(c->uid);
	w->cred.gid = w->cred.fsgid = vt_cgid(c->gid);
	w->cred.ngroups = c->ngroups;
	for (k = 0; k < c->ngroups; k++)
		w->cred.groups[k] = vt_cgid(c->groups[k]);
	w->cred.caps = c->root ? ~0ULL : 0;
	w->dir = minode(vt_ro_entry(dir));
	w->obj = minode(obj ? vt_ro_entry(obj) : NULL);
	w->overflowuid = vt_overflowuid();
	w->overflowgid = vt_overflowgid();
	w->bset_init = rw->bset_init;
	w->cap_full = rw->cap_full;
}

static struct vt_caller as_caller(const struct who *c)
{
	struct vt_caller k = c->root ? vt_caller_root() : vt_caller_user(c->uid, c->gid);
	int g;

	if (c->in_ns) {
		k.userns_fd = ns_fd;
		k.userns_desc = NS_SPEC;
	}
	k.ngroups = c->ngroups;
	for (g = 0; g < c->ngroups; g++)
		k.groups[g] = c->groups[g];
	return k;
}

static bool setup(struct vt_ctx *ctx, struct ro_world *rw)
{
	char src[4200], err[256];
	int i;

	memset(rw, 0, sizeof(*rw));
	rw->row = vt_fs_row(ctx->fstype);
	rw->idmap.name = "ro-map";
	if (vt_mapping_parse(MAP, &rw->idmap.map, err, sizeof(err)) < 0) {
		vt_fail(ctx, "setup: map %s: %s", MAP, err);
		return false;
	}
	/* the model's namespace: made by the initial root (owner 0) */
	ns_model.owner = vt_kuid(0);
	if (vt_mapping_parse(NS_SPEC, &ns_model.map, err, sizeof(err)) < 0) {
		vt_fail(ctx, "setup: user namespace %s: %s", NS_SPEC, err);
		return false;
	}
	ns_fd = vt_userns_from_spec(-1, NS_SPEC);
	if (ns_fd < 0) {
		vt_fail(ctx, "setup: user namespace %s: %s", NS_SPEC, vt_errname(-ns_fd));
		return false;
	}
	rw->bset_init = read_bset();
	i = (int)vt_sysctl_read("kernel/cap_last_cap", 40);
	rw->cap_full = i >= 63 ? ~0ULL : (1ULL << (i + 1)) - 1;
	snprintf(src, sizeof(src), "%s/w", ctx->test_dir);
	if (!vt_idmapped_at(ctx, src, MAP, "mnt", rw->mnt, sizeof(rw->mnt)))
		return false;
	vt_scene(ctx, "%s image's w/ mounted idmapped %s at %s", ctx->fstype, MAP, rw->mnt);
	return true;
}

/* ------------------------------------------------------------ stat owners */

static void stat_owners(struct vt_ctx *ctx)
{
	struct ro_world rw;
	size_t n;
	int checked = 0;

	if (!setup(ctx, &rw))
		return;
	for (n = 0; n < vt_ro_tree_count; n++) {
		const struct vt_ro_entry *e = &vt_ro_tree[n];
		char path[4200], what[300];
		struct stat st;
		/* generic_fillattr: i_uid_into_vfsuid = make_vfsuid(idmap,
		 * s_user_ns, i_uid), shown by cp_statx/cp_new_stat with
		 * from_vfsuid ... from_kuid_munged (overflowuid if unmapped) */
		vt_vfsuid_t vu = vt_make_vfsuid(&rw.idmap, &vt_init_ns, vt_kuid(e->uid));
		vt_vfsgid_t vg = vt_make_vfsgid(&rw.idmap, &vt_init_ns, vt_kgid(e->gid));
		uint32_t want_uid = vt_from_kuid_munged(&vt_init_ns, vt_kuid(vu.val), vt_overflowuid()).val;
		uint32_t want_gid = vt_from_kgid_munged(&vt_init_ns, vt_kgid(vg.val), vt_overflowgid()).val;

		if (strncmp(e->path, "w/", 2) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", rw.mnt, e->path + 2);
		if (lstat(path, &st) < 0) {
			vt_fail(ctx, "lstat %s: %s", path, vt_errname(errno));
			continue;
		}
		snprintf(what, sizeof(what), "mode of %s through the mount", e->path);
		vt_expect_eq(ctx, what, st.st_mode & 07777, e->mode,
			     "the staged mode, stored by the image (no idmap on modes)");
		vt_expect_owner(ctx, path, want_uid, want_gid,
				"make_vfsuid/make_vfsgid + generic_fillattr (from_kuid_munged)");
		/* statx: the same ids (vfs_getattr_nosec -> generic_fillattr,
		 * cp_statx -> from_kuid_munged) */
		{
			struct statx sx;

			if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_UID | STATX_GID, &sx) < 0) {
				vt_fail(ctx, "statx %s: %s", path, vt_errname(errno));
			} else {
				snprintf(what, sizeof(what), "statx uid of %s", e->path);
				vt_expect_eq(ctx, what, sx.stx_uid, want_uid, "generic_fillattr + cp_statx");
				snprintf(what, sizeof(what), "statx gid of %s", e->path);
				vt_expect_eq(ctx, what, sx.stx_gid, want_gid, "generic_fillattr + cp_statx");
			}
		}
		checked++;
	}
	vt_note(ctx, "%d entries' owners compared (stat and statx)", checked);
}

/* ------------------------------------------- model-checked system calls */

struct op_req {
	enum vt_mop op;
	char path[4200];	/* P/o (or P/n for creates) through the mount */
	char path2[4200];	/* a rename's or link's second name */
	/* reads: what came back */
};

struct op_reply {
	char value[512];
	ssize_t len;
	struct vt_exec_creds creds;	/* VT_OP_EXEC: what exec-probe printed */
	bool have_creds;
	char exec_msg[128];
};

static int rc(long r)
{
	return r < 0 ? errno : 0;
}

static int do_op(void *arg, void *data, size_t len)
{
	const struct op_req *q = arg;
	struct op_reply *out = data;
	const char *p = q->path;
	struct timespec ts[2] = { { 1, 0 }, { 1, 0 } };
	int fd, ret;

	(void)len;
	switch (q->op) {
	case VT_OP_OPEN_READ:
	case VT_OP_OPEN_WRITE:
	case VT_OP_OPEN_TRUNC:
	case VT_OP_OPEN_CREAT:
	case VT_OP_OPEN_CREAT_EXCL:
		fd = open(p, q->op == VT_OP_OPEN_READ ? O_RDONLY | O_CLOEXEC
			     : q->op == VT_OP_OPEN_WRITE ? O_WRONLY | O_CLOEXEC
			     : q->op == VT_OP_OPEN_TRUNC ? O_WRONLY | O_TRUNC | O_CLOEXEC
			     : q->op == VT_OP_OPEN_CREAT ? O_WRONLY | O_CREAT | O_CLOEXEC
			     : O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		ret = rc(fd);
		if (fd >= 0)
			close(fd);
		return ret;
	case VT_OP_TMPFILE:
		fd = open(p, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
		ret = rc(fd);
		if (fd >= 0)
			close(fd);
		return ret;
	case VT_OP_MKDIR:
		return rc(mkdir(p, 0755));
	case VT_OP_MKFIFO:
		return rc(mknod(p, S_IFIFO | 0644, 0));
	case VT_OP_MKNOD_CHR:
		return rc(mknod(p, S_IFCHR | 0644, makedev(1, 3)));
	case VT_OP_SYMLINK:
		return rc(symlink("o", p));
	case VT_OP_LINK:
		return rc(link(p, q->path2));
	case VT_OP_CHOWN:
		return rc(fchownat(AT_FDCWD, p, 1001, 1001, 0));
	case VT_OP_LCHOWN:
		return rc(fchownat(AT_FDCWD, p, 1001, 1001, AT_SYMLINK_NOFOLLOW));
	case VT_OP_CHMOD:
		return rc(chmod(p, 0600));
	case VT_OP_TRUNCATE:
		return rc(truncate(p, 0));
	case VT_OP_UTIMENS_NOW:
		return rc(utimensat(AT_FDCWD, p, NULL, 0));
	case VT_OP_UTIMENS_SET:
		return rc(utimensat(AT_FDCWD, p, ts, 0));
	case VT_OP_UNLINK:
		return rc(unlink(p));
	case VT_OP_RMDIR:
		return rc(rmdir(p));
	case VT_OP_RENAME:
		return rc(rename(p, q->path2));
	case VT_OP_XATTR_SET_USER:
		return rc(lsetxattr(p, "user.vt", "1", 1, 0));
	case VT_OP_XATTR_SET_TRUSTED:
		return rc(lsetxattr(p, "trusted.vt", "1", 1, 0));
	case VT_OP_XATTR_REMOVE_USER:
		return rc(lremovexattr(p, "user.vt"));
	case VT_OP_FCAPS_REMOVE:
		return rc(lremovexattr(p, "security.capability"));
	case VT_OP_ACL_SET:
		return -vt_acl_write_text(p, false, "u::rw-,g::r--,o::---");
	case VT_OP_FCAPS_SET: {
		struct vt_fcaps c = { .version = VT_CAP_V2, .effective = true, .permitted = 1ULL << 13 };
		return -vt_fcaps_write(p, &c);
	}
	case VT_OP_XATTR_GET_USER:
	case VT_OP_XATTR_GET_TRUSTED:
		out->len = lgetxattr(p, q->op == VT_OP_XATTR_GET_USER ? VT_RO_USER_XATTR
							      : VT_RO_TRUSTED_XATTR,
				     out->value, sizeof(out->value));
		return rc(out->len);
	case VT_OP_EXEC:
		return vt_exec_probe(p, &out->creds, &out->have_creds, out->exec_msg,
				     sizeof(out->exec_msg));
	default:
		return ENOSYS;
	}
}

/* Runs OP on OBJ (an entry of the tree, or a new name below DIR) as C
 * through the mount and compares the errno with the model's. */
static bool check_op(struct vt_ctx *ctx, const struct ro_world *rw, const struct who *c,
		     enum vt_mop op, const char *dir, const char *obj, const char *newname,
		     struct vt_expect *e, struct op_reply *out)
{
	struct vt_caller k = as_caller(c);
	struct vt_mop_args a;
	struct vt_world w;
	struct op_req q;
	struct vt_run r;
	char what[600];

	memset(&a, 0, sizeof(a));
	memset(&q, 0, sizeof(q));
	memset(out, 0, sizeof(*out));
	a.op = op;
	a.on_existing = newname == NULL;
	a.uid = vt_cuid(1001);
	a.gid = vt_cgid(1001);
	a.mode = 0600;
	model_world(rw, c, dir, newname ? NULL : obj, &w);
	vt_model_apply(&w, &a, e);
	q.op = op;
	snprintf(q.path, sizeof(q.path), "%s/%s", rw->mnt,
		 newname ? newname + 2 : (op == VT_OP_TMPFILE ? dir + 1 : obj + 2));
	if (op == VT_OP_TMPFILE)
		snprintf(q.path, sizeof(q.path), "%s%s", rw->mnt, dir + 1);
	snprintf(q.path2, sizeof(q.path2), "%s/new-name", rw->mnt);
	r = vt_run_as(&k, do_op, &q, out, sizeof(*out));
	if (!vt_expect_ran(ctx, &k, &r))
		return false;
	snprintf(what, sizeof(what), "%s %s as %s through the mount", vt_mop_name(op),
		 newname ? newname : obj, c->name);
	return vt_expect_errno(ctx, what, r.ret, e->err, e->rule ? e->rule : "model");
}

static void open_read_permission(struct vt_ctx *ctx)
{
	static const char *const files[] = { "w/f0644", "w/f0640", "w/f0604", "w/root0600",
					     "w/g3000-0060", "w/acl", "w/sub/f" };
	struct ro_world rw;
	struct vt_expect e;
	struct op_reply out;
	size_t f, c;
	int allowed = 0, denied = 0;

	if (!setup(ctx, &rw))
		return;
	for (f = 0; f < sizeof(files) / sizeof(files[0]); f++)
		for (c = 0; c < NCALLERS; c++) {
			const char *dir = strcmp(files[f], "w/sub/f") == 0 ? "w/sub" : "w";

			check_op(ctx, &rw, &callers[c], VT_OP_OPEN_READ, dir, files[f], NULL, &e,
				 &out);
			if (e.err)
				denied++;
			else
				allowed++;
		}
	/* both outcomes must occur, or the comparison proves little */
	vt_note(ctx, "read opens compared: %d allowed, %d refused by the model", allowed, denied);
	vt_expect_eq(ctx, "read opens with both outcomes", allowed > 0 && denied > 0, 1,
		     "generic_permission: owner, group, other, ACL classes");
}

static void writes_are_erofs(struct vt_ctx *ctx)
{
	static const struct {
		enum vt_mop op;
		const char *obj;	/* existing entry, or NULL: a new name */
	} writes[] = {
		{ VT_OP_OPEN_CREAT, NULL }, { VT_OP_OPEN_CREAT_EXCL, NULL }, { VT_OP_TMPFILE, NULL },
		{ VT_OP_MKDIR, NULL }, { VT_OP_MKFIFO, NULL }, { VT_OP_MKNOD_CHR, NULL },
		{ VT_OP_SYMLINK, NULL }, { VT_OP_LINK, "w/f0644" },
		{ VT_OP_OPEN_CREAT, "w/f0644" }, { VT_OP_OPEN_CREAT_EXCL, "w/f0644" },
		{ VT_OP_MKDIR, "w/sub" },
		{ VT_OP_OPEN_WRITE, "w/f0644" }, { VT_OP_OPEN_WRITE, "w/root0600" },
		{ VT_OP_OPEN_TRUNC, "w/f0640" }, { VT_OP_OPEN_WRITE, "w/sub" },
		{ VT_OP_TRUNCATE, "w/f0644" }, { VT_OP_TRUNCATE, "w/sub" },
		{ VT_OP_CHOWN, "w/f0644" }, { VT_OP_CHOWN, "w/root0600" },
		{ VT_OP_LCHOWN, "w/link" }, { VT_OP_CHMOD, "w/f0644" },
		{ VT_OP_CHMOD, "w/suid0" }, { VT_OP_UTIMENS_NOW, "w/f0644" },
		{ VT_OP_UTIMENS_SET, "w/root0600" }, { VT_OP_UNLINK, "w/f0644" },
		{ VT_OP_RMDIR, "w/dacl" }, { VT_OP_RENAME, "w/f0640" },
		{ VT_OP_XATTR_SET_USER, "w/xattr" }, { VT_OP_XATTR_SET_TRUSTED, "w/xattr" },
		{ VT_OP_XATTR_REMOVE_USER, "w/xattr" }, { VT_OP_ACL_SET, "w/acl" },
		{ VT_OP_FCAPS_SET, "w/f0644" }, { VT_OP_FCAPS_REMOVE, "w/fcaps2" },
	};
	struct ro_world rw;
	struct vt_expect e;
	struct op_reply out;
	size_t k, c;
	int erofs = 0;

	if (!setup(ctx, &rw))
		return;
	for (k = 0; k < sizeof(writes) / sizeof(writes[0]); k++)
		for (c = 0; c < NCALLERS; c++) {
			check_op(ctx, &rw, &callers[c], writes[k].op, "w", writes[k].obj,
				 writes[k].obj ? NULL : "w/new", &e, &out);
			erofs += e.err == EROFS;
		}
	vt_note(ctx, "%zu writes x %zu callers compared, %d EROFS by the model",
		sizeof(writes) / sizeof(writes[0]), NCALLERS, erofs);
	/* the model must have refused most of them with EROFS (the rest:
	 * EEXIST, EISDIR, lookup): a model that let writes through would
	 * pass the comparison above only if the kernel did too */
	vt_expect_eq(ctx, "writes the model refuses with EROFS (at least)", erofs >= 100, 1,
		     "mnt_want_write/sb_permission: __mnt_is_readonly (sb_rdonly)");
}

static void xattrs_through_mount(struct vt_ctx *ctx)
{
	struct ro_world rw;
	struct vt_expect e;
	struct op_reply out;
	size_t c;

	if (!setup(ctx, &rw))
		return;
	for (c = 0; c < NCALLERS; c++) {
		if (check_op(ctx, &rw, &callers[c], VT_OP_XATTR_GET_USER, "w", "w/xattr", NULL, &e,
			     &out) && e.err == 0)
			vt_expect_eq(ctx, "user.vt value", out.len == 4 && !memcmp(out.value, "u-ro", 4),
				     1, "the staged value (erofs/squashfs xattr get)");
		/* trusted.*: xattr_permission -> capable(CAP_SYS_ADMIN) */
		if (check_op(ctx, &rw, &callers[c], VT_OP_XATTR_GET_TRUSTED, "w", "w/xattr", NULL,
			     &e, &out) && e.err == 0)
			vt_expect_eq(ctx, "trusted.vt value",
				     out.len == 4 && !memcmp(out.value, "t-ro", 4), 1,
				     "the staged value");
	}
}

/* system.posix_acl_access of w/acl, or system.posix_acl_default of w/dacl
 * (DFLT), read through the mount */
static void acl_read_through_mount(struct vt_ctx *ctx, bool dflt)
{
	const char *xname = dflt ? "system.posix_acl_default" : "system.posix_acl_access";
	const char *file = dflt ? "dacl" : "acl";
	struct ro_world rw;
	struct vt_acl_entry got[VT_ACL_MAX_ENTRIES];
	struct vt_mop_args a;
	struct vt_world w;
	struct vt_expect e;
	char path[4200], what[128], wfile[16];
	int n, k;

	if (!setup(ctx, &rw))
		return;
	memset(&a, 0, sizeof(a));
	a.op = VT_OP_ACL_GET;
	a.default_acl = dflt;
	snprintf(wfile, sizeof(wfile), "w/%s", file);
	model_world(&rw, HOST_ROOT, "w", wfile, &w);
	vt_model_apply(&w, &a, &e);
	snprintf(path, sizeof(path), "%s/%s", rw.mnt, file);
	n = vt_acl_read(path, dflt, got, VT_ACL_MAX_ENTRIES);
	if (e.err || e.got_nacl < 0) {
		/* squashfs: __get_acl: !IS_POSIXACL -> EOPNOTSUPP */
		snprintf(what, sizeof(what), "getxattr(%s) of %s", xname, file);
		vt_expect_errno(ctx, what, n < 0 ? -n : 0, e.err ? e.err : ENODATA,
				e.rule ? e.rule : "model");
		return;
	}
	if (n < 0) {
		vt_fail(ctx, "getxattr(%s) of %s: %s (model: %d entries)", xname, path,
			vt_errname(-n), e.got_nacl);
		return;
	}
	/* posix_acl_to_xattr: e_uid through make_vfsuid(idmap) and
	 * from_kuid(current_user_ns): 1001 has no mapping -> (uid_t)-1,
	 * 2000 -> 2001, group 3000 -> 3001 */
	snprintf(what, sizeof(what), "%sACL entries read through the mount", dflt ? "default " : "");
	if (!vt_expect_eq(ctx, what, n, e.got_nacl, e.rule))
		return;
	for (k = 0; k < n; k++) {
		uint32_t want = e.got_acl[k].tag == VT_ACL_USER ? e.got_acl[k].uid.val
				: e.got_acl[k].tag == VT_ACL_GROUP ? e.got_acl[k].gid.val : got[k].id;

		snprintf(what, sizeof(what), "%sACL entry %d tag", dflt ? "default " : "", k);
		vt_expect_eq(ctx, what, got[k].tag, e.got_acl[k].tag, e.rule);
		snprintf(what, sizeof(what), "%sACL entry %d perm", dflt ? "default " : "", k);
		vt_expect_eq(ctx, what, got[k].perm, e.got_acl[k].perm, e.rule);
		snprintf(what, sizeof(what), "%sACL entry %d id", dflt ? "default " : "", k);
		vt_expect_eq(ctx, what, got[k].id, want,
			     "posix_acl_to_xattr: make_vfsuid/make_vfsgid + from_kuid/from_kgid");
	}
}

static void acl_through_mount(struct vt_ctx *ctx)
{
	acl_read_through_mount(ctx, false);
}

static void default_acl_through_mount(struct vt_ctx *ctx)
{
	acl_read_through_mount(ctx, true);
}

static void fcaps_through_mount(struct vt_ctx *ctx)
{
	static const char *const files[] = { "w/fcaps2", "w/fcaps3-1000", "w/f0644" };
	struct ro_world rw;
	size_t f;

	if (!setup(ctx, &rw))
		return;
	for (f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		struct vt_mop_args a;
		struct vt_world w;
		struct vt_expect e;
		struct vt_fcaps got;
		char path[4200], what[300];
		int ret;

		memset(&a, 0, sizeof(a));
		a.op = VT_OP_FCAPS_GET;
		model_world(&rw, HOST_ROOT, "w", files[f], &w);
		vt_model_apply(&w, &a, &e);
		snprintf(path, sizeof(path), "%s/%s", rw.mnt, files[f] + 2);
		ret = vt_fcaps_read(path, &got);
		snprintf(what, sizeof(what), "getxattr(security.capability) of %s as root", files[f]);
		if (!vt_expect_errno(ctx, what, ret < 0 ? -ret : 0, e.err, e.rule ? e.rule : "model") ||
		    e.err)
			continue;
		/* cap_inode_getsecurity: the rootid made a vfsuid through the
		 * mount, then from_kuid in the reader's namespace; a v3 whose
		 * rootid maps to 0 in it is returned as v2 */
		vt_expect_eq(ctx, "security.capability version", got.version, e.got_fcaps.version,
			     e.rule);
		if (got.version == 3)
			vt_expect_eq(ctx, "security.capability rootid", got.rootid,
				     e.got_fcaps.rootid.val, e.rule);
	}
}

static void exec_through_mount(struct vt_ctx *ctx)
{
	static const char *const files[] = { "w/suid0", "w/suid1000", "w/sgid1000",
					     "w/sgid-noxgrp", "w/fcaps2", "w/fcaps3-1000" };
	struct ro_world rw;
	size_t f, c;
	int execs = 0;

	if (!setup(ctx, &rw))
		return;
	for (f = 0; f < sizeof(files) / sizeof(files[0]); f++)
		for (c = 0; c < NCALLERS; c++) {
			struct vt_expect e;
			struct op_reply out;
			char what[300];

			if (!check_op(ctx, &rw, &callers[c], VT_OP_EXEC, "w", files[f], NULL, &e,
				      &out) || e.err)
				continue;
			snprintf(what, sizeof(what), "exec %s as %s: ", files[f], callers[c].name);
			if (!out.have_creds) {
				vt_fail(ctx, "%sexec-probe: %s", what, out.exec_msg);
				continue;
			}
			if (out.creds.ruid != e.creds.ruid || out.creds.euid != e.creds.euid ||
			    out.creds.suid != e.creds.suid || out.creds.rgid != e.creds.rgid ||
			    out.creds.egid != e.creds.egid || out.creds.sgid != e.creds.sgid ||
			    out.creds.cap_eff != e.creds.cap_eff || out.creds.cap_prm != e.creds.cap_prm)
				vt_fail(ctx, "%sgot %u %u %u %u %u %u eff %llx prm %llx, model %u %u %u "
					"%u %u %u eff %llx prm %llx [rule: %s]", what, out.creds.ruid,
					out.creds.euid, out.creds.suid, out.creds.rgid, out.creds.egid,
					out.creds.sgid, (unsigned long long)out.creds.cap_eff,
					(unsigned long long)out.creds.cap_prm, e.creds.ruid, e.creds.euid,
					e.creds.suid, e.creds.rgid, e.creds.egid, e.creds.sgid,
					(unsigned long long)e.creds.cap_eff,
					(unsigned long long)e.creds.cap_prm, e.rule);
			execs++;
		}
	vt_note(ctx, "%d execs compared with the model's credentials", execs);
	vt_expect_eq(ctx, "execs that ran", execs > 0, 1, "may_open(MAY_EXEC) of 0755 copies");
}

static void readdir_lookup(struct vt_ctx *ctx)
{
	struct ro_world rw;
	struct dirent *d;
	size_t n, want = 0, seen = 0;
	DIR *dir;

	if (!setup(ctx, &rw))
		return;
	dir = opendir(rw.mnt);
	if (!dir) {
		vt_fail(ctx, "opendir %s: %s", rw.mnt, vt_errname(errno));
		return;
	}
	/* iterate_dir: the names the image stores, whatever the mount */
	while ((d = readdir(dir))) {
		char entry[300];

		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		snprintf(entry, sizeof(entry), "w/%s", d->d_name);
		if (vt_ro_entry(entry))
			seen++;
		else
			vt_fail(ctx, "readdir %s: unexpected name %s", rw.mnt, d->d_name);
	}
	closedir(dir);
	for (n = 0; n < vt_ro_tree_count; n++)
		if (!strncmp(vt_ro_tree[n].path, "w/", 2) && !strchr(vt_ro_tree[n].path + 2, '/'))
			want++;
	vt_expect_eq(ctx, "names readdir lists", (long long)seen, (long long)want,
		     "the staged tree (mkfs.erofs/mksquashfs)");
}

static const struct vt_case cases[] = {
	{ "stat-owners", stat_owners },
	{ "open-read-permission", open_read_permission },
	{ "writes-are-erofs", writes_are_erofs },
	{ "xattrs", xattrs_through_mount },
	{ "acl-getxattr", acl_through_mount },
	{ "default-acl-getxattr", default_acl_through_mount },
	{ "fcaps-getxattr", fcaps_through_mount },
	{ "exec-setid-fcaps", exec_through_mount },
	{ "readdir", readdir_lookup },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	const struct vt_test t = { .cases = cases, .needs = { .owners = VT_FSNEED_IMAGE_TREE } };

	return vt_test_main(&t, argc, argv);
}
