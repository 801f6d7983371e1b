/* idmapped/006: overlayfs stacked on idmapped layers, checked against the
 * model of overlay_model.c.
 *
 * Container runtimes mount an overlay whose layers are idmapped mounts:
 * the lower layer is an idmapped mount of a directory on the filesystem
 * under test (LOWER_MAP: disk 0-9999 shown as 10000-19999, disk 30000 as
 * itself, disk 50000 unmapped), the upper and work directories are reached
 * through a second idmapped mount (UPPER_MAP: 0 as 0, disk 20000-29999
 * shown as 10000-19999), and callers use the overlay through its own,
 * plain mount. Linux 6.12 takes idmapped lower and upper layers (no check
 * in ovl_get_upper/ovl_lower_dir refuses them). What the kernel must do
 * (fs/overlayfs, cited per rule in lib/model/overlay_model.c):
 *  - the overlay inode's owner is the real inode's as its layer's mount
 *    shows it (ovl_copyattr: i_uid_into_vfsuid(real_idmap, realinode));
 *  - a permission check runs twice (ovl_permission): as the caller against
 *    the overlay inode, then as the mounter (ovl_override_creds) against
 *    the real inode through the layer's idmap, MAY_WRITE on a lower file
 *    asked as MAY_READ; a root mounter's capabilities do not reach a real
 *    inode whose owner the layer does not map (capable_wrt_inode_uidgid);
 *  - copy-up (open for writing, chown) is done by the mounter: refused with
 *    EOVERFLOW when the lower owner is unmapped (ovl_copy_up_one) or cannot
 *    be written through the upper idmap (ovl_set_attr -> notify_change),
 *    else the upper copy gets the lower owner as the lower mount shows it,
 *    stored through the upper idmap;
 *  - a new file is created on the upper layer with the caller's fsuid and
 *    fsgid (ovl_setup_cred_for_create) through the upper idmap: EOVERFLOW
 *    when that idmap does not map them (may_create);
 *  - the overlay itself cannot be idmapped: ovl_fs_type has no
 *    FS_ALLOW_IDMAP, so mount_setattr(MOUNT_ATTR_IDMAP) on an overlay mount
 *    is EINVAL (can_idmap_mount, fs/namespace.c).
 * Each operation is run as every caller on every lower file, on a fresh
 * overlay where it changes the layers, and the errno, the owner the caller
 * sees through the overlay and the on-disk owner of the upper copy are
 * compared with the model. Notrun where the filesystem cannot be an
 * overlay layer (the table's VT_FSF_OVERLAY) or the kernel has no overlay. */
#include "testlib/testlib.h"
#include "fs/fs_table.h"
#include "model/overlay_model.h"
#include "world/fsimage.h"
#include "world/idmapped_mount.h"
#include "world/ro_image.h"
#include "world/userns.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define LOWER_MAP "b:0:10000:10000,b:30000:30000:1"
#define UPPER_MAP "b:0:0:1,b:20000:10000:10000"
/* the second lower layer, an erofs image of lib/world/ro_image.c's tree:
 * its 1000 shows as 12000 and 0 as 10000; its group 3000 is unmapped */
#define ERO_MAP "b:1000:12000:1,b:0:10000:1"

struct obj {
	const char *name;
	mode_t mode;
	uid_t uid;	/* on disk */
	gid_t gid;
	bool ero;	/* on the erofs layer (below w/; mode and owner from its tree) */
};

/* what each one is for: 1000 is mapped by both layers (11000 through the
 * lower, stored as 21000 upstairs), group 3000 as 13000; 0 shows as 10000; 50000 is unmapped
 * by the lower layer; 50000:1000 0040 lets a group member pass the
 * caller's check while the mounter is refused; 30000 is mapped by the
 * lower layer but not writable through the upper one */
static const struct obj objs[] = {
	{ "f1000g3000-0644", 0644, 1000, 3000, false },
	{ "f1000-0600", 0600, 1000, 1000, false },
	{ "f1000-0666", 0666, 1000, 1000, false },
	{ "f0-0640", 0640, 0, 0, false },
	{ "f50000-0666", 0666, 50000, 50000, false },
	{ "f50000-0640", 0640, 50000, 50000, false },
	{ "f50000g1000-0040", 0040, 50000, 1000, false },
	{ "f30000-0666", 0666, 30000, 30000, false },
};
#define NOBJS (sizeof(objs) / sizeof(objs[0]))

/* files of the erofs layer: 12000 owns f0644 and the others through
 * ERO_MAP, root0600 is 10000's, g3000-0060's group is unmapped; writing
 * one copies it up off a read-only filesystem (ovl_permission asks the
 * mounter for MAY_READ only, so no EROFS) */
static const char *const ero_names[] = { "f0644", "f0640", "f0604", "root0600", "g3000-0060" };
#define NERO (sizeof(ero_names) / sizeof(ero_names[0]))
static struct obj ero_objs[NERO];

/* The objects a case runs on: the directory layer's or the erofs layer's. */
struct objset {
	const struct obj *objs;
	size_t n;
	bool ero;
};
static const struct objset dir_set = { objs, NOBJS, false };
static const struct objset ero_set = { ero_objs, NERO, true };

struct who {
	const char *name;
	uid_t uid;
	gid_t gid;
	int ngroups;
	gid_t groups[1];
	bool root;
};

static const struct who callers[] = {
	{ "root", 0, 0, 0, { 0 }, true },
	{ "11000(owner-through-lower)", 11000, 11000, 0, { 0 }, false },
	{ "12000+11000(group-through-lower)", 12000, 12000, 1, { 11000 }, false },
	{ "1000(disk-owner)", 1000, 1000, 0, { 0 }, false },
};
#define NCALLERS (sizeof(callers) / sizeof(callers[0]))

struct chown_to {
	uid_t uid;
	gid_t gid;
};
/* 12000:13000 is writable through the upper idmap (as 22000:23000), 1000 is not,
 * 11000 is the owner of most objects as the overlay shows them */
static const struct chown_to targets[] = { { 12000, 13000 }, { 1000, 1000 }, { 11000, 11000 } };
#define NTARGETS (sizeof(targets) / sizeof(targets[0]))

struct ovl {
	char lowermnt[4096], upmnt[4096], eromnt[4096];	/* the layers' idmapped mounts */
	char lowerdir[4096];	/* on the fs under test, on-disk owners */
	char upperdir[4096];	/* the upper layer, plain path */
	char merged[4096];
	struct vt_midmap lower_map, upper_map, ero_map;
	mode_t root_mode;	/* of the upper dir, the overlay's root */
};

static struct vt_mcred model_cred(const struct who *c)
{
	struct vt_mcred m;
	int k;

	memset(&m, 0, sizeof(m));
	m.name = c->name;
	m.ns = &vt_init_ns;
	m.uid = m.fsuid = vt_cuid(c->uid);
	m.gid = m.fsgid = vt_cgid(c->gid);
	m.ngroups = c->ngroups;
	for (k = 0; k < c->ngroups; k++)
		m.groups[k] = vt_cgid(c->groups[k]);
	m.caps = c->root ? ~0ULL : 0;
	m.umask = 022;
	return m;
}

/* The model's world for object O (NULL: none) and caller C. The mounter
 * is the test process: root with every capability and no supplementary
 * groups (make_overlay drops them before mounting). */
static void model_world(const struct ovl *o, const struct obj *ob, const struct who *c,
			struct vt_ovl_world *w)
{
	static const struct who mounter = { "mounter(root)", 0, 0, 0, { 0 }, true };

	memset(w, 0, sizeof(*w));
	w->lower_idmap = ob && ob->ero ? &o->ero_map : &o->lower_map;
	w->lower_rdonly = ob && ob->ero;
	w->upper_idmap = &o->upper_map;
	w->caller = model_cred(c);
	w->mounter = model_cred(&mounter);
	w->upper_root = vt_minode_make(S_IFDIR | o->root_mode, 0, 0);
	if (ob)
		w->lower_obj = vt_minode_make(S_IFREG | ob->mode, ob->uid, ob->gid);
	w->overflowuid = vt_overflowuid();
	w->overflowgid = vt_overflowgid();
}

static struct vt_caller as_caller(const struct who *c)
{
	struct vt_caller k = c->root ? vt_caller_root() : vt_caller_user(c->uid, c->gid);
	int g;

	k.ngroups = c->ngroups;
	for (g = 0; g < c->ngroups; g++)
		k.groups[g] = c->groups[g];
	k.umask = 022;
	k.set_umask = true;
	return k;
}

static bool parse_map(struct vt_ctx *ctx, const char *name, const char *spec,
		      struct vt_midmap *m)
{
	char err[256];

	memset(m, 0, sizeof(*m));
	m->name = name;
	if (vt_mapping_parse(spec, &m->map, err, sizeof(err)) < 0) {
		vt_fail(ctx, "setup: map %s: %s", spec, err);
		return false;
	}
	return true;
}

/* The erofs image, mounted once per case at "<case dir>/ero" (autoclear
 * loop device) and unmounted by ero_unmount at the case's end. */
static char ero_mnt[4096];

static const char *ero_layer(struct vt_ctx *ctx)
{
	char img[4200], probe[4200], self[4096], *slash;
	const char *what = "";
	ssize_t n;
	size_t k;
	pid_t pid;
	int status, ret;

	if (ero_mnt[0])
		return ero_mnt;
	if (vt_ro_image_unavailable("erofs", self, sizeof(self))) {
		vt_skip(ctx, "%s: no erofs image to stack", self);
		return NULL;
	}
	for (k = 0; k < NERO; k++) {
		char path[64];
		const struct vt_ro_entry *e;

		snprintf(path, sizeof(path), "w/%s", ero_names[k]);
		e = vt_ro_entry(path);
		if (!e) {
			vt_fail(ctx, "setup: %s is not in lib/world/ro_image.c's tree", path);
			return NULL;
		}
		ero_objs[k] = (struct obj){ ero_names[k], e->mode, e->uid, e->gid, true };
	}
	/* exec-probe is copied into the image's 'x' entries */
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0) {
		vt_fail(ctx, "setup: readlink /proc/self/exe: %s", vt_errname(errno));
		return NULL;
	}
	self[n] = 0;
	slash = strrchr(self, '/');
	if (slash)
		*slash = 0;
	snprintf(probe, sizeof(probe), "%s/../matrix/exec-probe", self);
	snprintf(img, sizeof(img), "%s/ero.img", ctx->dir);
	/* vt_ro_image_create stages the tree in a mount namespace of its own
	 * (unshare): a child's, so this case's mounts stay where they are */
	pid = fork();
	if (pid == 0) {
		ret = vt_ro_image_create(img, "erofs", NULL, probe, 2, &what);
		if (ret < 0)
			fprintf(stderr, "mkimage erofs %s: %s: %s\n", img, what,
				ret == -ENOEXEC ? "failed" : vt_errname(-ret));
		_exit(ret < 0 ? 1 : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		vt_fail(ctx, "setup: making the erofs image %s failed (see the output above)", img);
		return NULL;
	}
	if (!vt_mkdir(ctx, "ero", 0755, 0, 0, self, sizeof(self)))
		return NULL;
	ret = vt_fs_mount("erofs", img, self, NULL);
	if (ret < 0) {
		vt_fail(ctx, "setup: mount -t erofs %s %s: %s", img, self, vt_errname(-ret));
		return NULL;
	}
	snprintf(ero_mnt, sizeof(ero_mnt), "%s", self);
	return ero_mnt;
}

static void ero_unmount(struct vt_ctx *ctx)
{
	if (ero_mnt[0] && umount2(ero_mnt, 0) < 0)
		vt_fail(ctx, "clean-up: umount %s: %s", ero_mnt, vt_errname(errno));
	ero_mnt[0] = 0;
}

/* A fresh overlay in "<case dir>/TAG": lower/ with every object, up/upper
 * (0777, 0:0) and up/work, lower/ and up/ mounted idmapped, the overlay at
 * merged/. The mounts live in the test's private mount namespace. */
static bool make_overlay_root(struct vt_ctx *ctx, const char *tag, bool ero, mode_t root_mode,
			      struct ovl *o)
{
	char p[4096], name[256], opts[16384];
	size_t k;

	memset(o, 0, sizeof(*o));
	o->root_mode = root_mode;
	if (!vt_need_fs(ctx, VT_FSF_OVERLAY))
		return false;
	if (!parse_map(ctx, "lower", LOWER_MAP, &o->lower_map) ||
	    !parse_map(ctx, "upper", UPPER_MAP, &o->upper_map) ||
	    !parse_map(ctx, "erofs", ERO_MAP, &o->ero_map))
		return false;
	if (ero && !ero_layer(ctx))
		return false;
	/* the mounter's supplementary groups are part of ofs->creator_cred */
	if (setgroups(0, NULL) < 0) {
		vt_fail(ctx, "setup: setgroups(0): %s", vt_errname(errno));
		return false;
	}
	snprintf(name, sizeof(name), "%s", tag);
	if (!vt_mkdir(ctx, name, 0755, 0, 0, p, sizeof(p)))
		return false;
	snprintf(name, sizeof(name), "%s/lower", tag);
	if (!vt_mkdir(ctx, name, 0755, 0, 0, o->lowerdir, sizeof(o->lowerdir)))
		return false;
	for (k = 0; k < NOBJS; k++) {
		snprintf(name, sizeof(name), "%s/lower/%s", tag, objs[k].name);
		if (!vt_mkfile(ctx, name, objs[k].mode, objs[k].uid, objs[k].gid, p, sizeof(p)))
			return false;
	}
	snprintf(name, sizeof(name), "%s/up", tag);
	if (!vt_mkdir(ctx, name, 0755, 0, 0, p, sizeof(p)))
		return false;
	snprintf(name, sizeof(name), "%s/up/upper", tag);
	if (!vt_mkdir(ctx, name, root_mode, 0, 0, o->upperdir, sizeof(o->upperdir)))
		return false;
	snprintf(name, sizeof(name), "%s/up/work", tag);
	if (!vt_mkdir(ctx, name, 0755, 0, 0, p, sizeof(p)))
		return false;
	snprintf(name, sizeof(name), "%s/merged", tag);
	if (!vt_mkdir(ctx, name, 0755, 0, 0, o->merged, sizeof(o->merged)))
		return false;
	snprintf(name, sizeof(name), "%s/lowermnt", tag);
	if (!vt_idmapped_at(ctx, o->lowerdir, LOWER_MAP, name, o->lowermnt, sizeof(o->lowermnt)))
		return false;
	snprintf(name, sizeof(name), "%s/up", tag);
	snprintf(p, sizeof(p), "%s/%s", ctx->dir, name);
	snprintf(name, sizeof(name), "%s/upmnt", tag);
	if (!vt_idmapped_at(ctx, p, UPPER_MAP, name, o->upmnt, sizeof(o->upmnt)))
		return false;
	if (ero) {
		/* a second lower layer below the first: the image's w/ */
		snprintf(name, sizeof(name), "%s/eromnt", tag);
		if (!vt_idmapped_at(ctx, ero_mnt, ERO_MAP, name, o->eromnt, sizeof(o->eromnt)))
			return false;
		snprintf(p, sizeof(p), "%s:%s/w", o->lowermnt, o->eromnt);
	} else {
		snprintf(p, sizeof(p), "%s", o->lowermnt);
	}
	snprintf(opts, sizeof(opts), "lowerdir=%s,upperdir=%s/upper,workdir=%s/work", p,
		 o->upmnt, o->upmnt);
	if (mount("overlay", o->merged, "overlay", 0, opts) < 0) {
		if (errno == ENODEV)
			vt_skip(ctx, "no overlayfs in this kernel (mount -t overlay: ENODEV)");
		else
			vt_fail(ctx, "setup: mount -t overlay -o %s: %s (6.12 takes idmapped lower "
				     "and upper layers)",
				opts, vt_errname(errno));
		return false;
	}
	return true;
}

static bool make_overlay(struct vt_ctx *ctx, const char *tag, bool ero, struct ovl *o)
{
	return make_overlay_root(ctx, tag, ero, 0777, o);
}

/* A case makes up to 96 overlays: each is taken down when done (the
 * library's own clean-up detaches only so many mounts). */
static void unmake_overlay(struct vt_ctx *ctx, struct ovl *o)
{
	const char *m[4] = { o->merged, o->upmnt, o->lowermnt, o->eromnt };
	int k;

	for (k = 0; k < 4; k++)
		if (m[k][0] && umount2(m[k], MNT_DETACH) < 0 && errno != EINVAL)
			vt_fail(ctx, "clean-up: umount %s: %s", m[k], vt_errname(errno));
}

struct op_args {
	int op;
	char path[4300];
	uid_t uid;
	gid_t gid;
};

static int run_op(void *arg, void *data, size_t len)
{
	struct op_args *a = arg;
	int fd = -1;

	(void)data;
	(void)len;
	switch (a->op) {
	case VT_OVL_STAT: {
		struct stat st;
		return fstatat(AT_FDCWD, a->path, &st, AT_SYMLINK_NOFOLLOW) < 0 ? errno : 0;
	}
	case VT_OVL_OPEN_READ:
		fd = open(a->path, O_RDONLY | O_CLOEXEC);
		break;
	case VT_OVL_OPEN_WRITE:
		fd = open(a->path, O_WRONLY | O_CLOEXEC);
		break;
	case VT_OVL_CREATE:
		fd = open(a->path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
		break;
	case VT_OVL_CHOWN:
		return fchownat(AT_FDCWD, a->path, a->uid, a->gid, 0) < 0 ? errno : 0;
	case VT_OVL_UNLINK:
		return unlinkat(AT_FDCWD, a->path, 0) < 0 ? errno : 0;
	}
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static const char *op_name(int op)
{
	switch (op) {
	case VT_OVL_STAT: return "stat";
	case VT_OVL_OPEN_READ: return "open(O_RDONLY)";
	case VT_OVL_OPEN_WRITE: return "open(O_WRONLY)";
	case VT_OVL_CREATE: return "open(O_CREAT|O_EXCL|O_WRONLY, 0644)";
	case VT_OVL_UNLINK: return "unlink";
	default: return "fchownat";
	}
}

/* Runs OP on NAME in overlay O as C and compares with the model's E:
 * the errno, then on success the owner seen through the overlay and the
 * upper copy's on-disk owner (or that there is none). Returns the errno
 * the kernel gave, -1 if the caller did not run. */
static int check_op(struct vt_ctx *ctx, const struct ovl *o, int op, const char *name,
		    const struct who *c, const struct chown_to *to, const struct vt_ovl_expect *e)
{
	struct vt_caller k = as_caller(c);
	struct op_args a = { .op = op };
	char what[1024], up[4400];
	struct stat st;
	struct vt_run r;

	snprintf(a.path, sizeof(a.path), "%s/%s", o->merged, name);
	if (to) {
		a.uid = to->uid;
		a.gid = to->gid;
	}
	r = vt_run_as(&k, run_op, &a, NULL, 0);
	if (!vt_expect_ran(ctx, &k, &r))
		return -1;
	if (to)
		snprintf(what, sizeof(what), "%s(%s, %u, %u) through the overlay as %s", op_name(op),
			 name, (unsigned)to->uid, (unsigned)to->gid, c->name);
	else
		snprintf(what, sizeof(what), "%s(%s) through the overlay as %s", op_name(op), name,
			 c->name);
	if (!vt_expect_errno(ctx, what, r.ret, e->err, e->rule))
		return r.ret;
	snprintf(up, sizeof(up), "%s/%s", o->upperdir, name);
	if (r.ret == 0 && e->whiteout) {
		if (lstat(a.path, &st) == 0 || errno != ENOENT)
			vt_fail(ctx, "%s: %s is still there through the overlay (%s) [rule: %s]", what,
				a.path, vt_errname(errno), e->rule);
	} else if (r.ret == 0) {
		if (lstat(a.path, &st) < 0) {
			vt_fail(ctx, "%s: stat %s: %s", what, a.path, vt_errname(errno));
			return r.ret;
		}
		vt_expect_eq(ctx, "owner uid seen through the overlay after it", st.st_uid,
			     e->seen_uid.val, e->rule);
		vt_expect_eq(ctx, "owner gid seen through the overlay after it", st.st_gid,
			     e->seen_gid.val, e->rule);
	}
	if (e->upper) {
		vt_expect_owner(ctx, up, e->upper_uid.val, e->upper_gid.val, e->rule);
		if (e->whiteout && (lstat(up, &st) < 0 || !S_ISCHR(st.st_mode) || st.st_rdev != 0))
			vt_fail(ctx, "%s: %s is not a whiteout (char 0:0) [rule: %s]", what, up,
				e->rule);
	} else if (lstat(up, &st) == 0) {
		vt_fail(ctx, "%s: %s exists on the upper layer (owner %u:%u), expected none "
			     "[rule: %s]",
			what, up, (unsigned)st.st_uid, (unsigned)st.st_gid, e->rule);
	}
	return r.ret;
}

/* counts of outcomes, so that a run where every case came out the same
 * (a broken world) does not pass unnoticed */
struct tally {
	int ok, eacces, eoverflow, eperm, other;
};

static void count(struct tally *t, int err)
{
	if (err == 0)
		t->ok++;
	else if (err == EACCES)
		t->eacces++;
	else if (err == EOVERFLOW)
		t->eoverflow++;
	else if (err == EPERM)
		t->eperm++;
	else if (err > 0)
		t->other++;
}

static void report(struct vt_ctx *ctx, const char *what, const struct tally *t)
{
	vt_note(ctx, "%s: %d allowed, %d EACCES, %d EOVERFLOW, %d EPERM, %d other", what, t->ok,
		t->eacces, t->eoverflow, t->eperm, t->other);
}

/* Non-mutating operations: one overlay for all of them. */
static void read_only_ops(struct vt_ctx *ctx, const struct objset *set, int op, struct tally *t)
{
	struct vt_ovl_world w;
	struct vt_ovl_expect e;
	struct ovl o;
	size_t i, j;

	if (!make_overlay(ctx, "w", set->ero, &o))
		return;
	for (i = 0; i < set->n; i++)
		for (j = 0; j < NCALLERS; j++) {
			model_world(&o, &set->objs[i], &callers[j], &w);
			vt_ovl_model(&w, op, vt_cuid(0), vt_cgid(0), &e);
			count(t, check_op(ctx, &o, op, set->objs[i].name, &callers[j], NULL, &e));
		}
	unmake_overlay(ctx, &o);
}

static void stat_owner(struct vt_ctx *ctx, const struct objset *set)
{
	struct tally t = { 0 };

	read_only_ops(ctx, set, VT_OVL_STAT, &t);
	report(ctx, "stat", &t);
}

static void open_read(struct vt_ctx *ctx, const struct objset *set)
{
	struct tally t = { 0 };

	read_only_ops(ctx, set, VT_OVL_OPEN_READ, &t);
	report(ctx, "open for reading", &t);
	/* the objects were chosen so that each check refuses somewhere */
	if (t.ok + t.eacces + t.other > 0)
		vt_expect_eq(ctx, "reads refused and allowed", t.ok > 0 && t.eacces > 0, 1,
			     "ovl_permission: both outcomes in this world");
}

/* One mutating OP (TO: a chown's target, else NULL) on object OB by
 * caller C, on an overlay of its own whose root has ROOT_MODE: modelled,
 * run, compared and counted. False if the overlay could not be made. */
static bool op_on_fresh_overlay(struct vt_ctx *ctx, const char *tag, const struct objset *set,
				size_t obj, mode_t root_mode, const struct who *c, enum vt_ovl_op op,
				const struct chown_to *to, struct tally *t)
{
	struct vt_ovl_world w;
	struct vt_ovl_expect e;
	struct ovl o;

	if (!make_overlay_root(ctx, tag, set->ero, root_mode, &o))
		return false;
	model_world(&o, &set->objs[obj], c, &w);
	vt_ovl_model(&w, op, vt_cuid(to ? to->uid : 0), vt_cgid(to ? to->gid : 0), &e);
	count(t, check_op(ctx, &o, op, set->objs[obj].name, c, to, &e));
	unmake_overlay(ctx, &o);
	return true;
}

/* Mutating operations: a fresh overlay each. */
static void open_write(struct vt_ctx *ctx, const struct objset *set)
{
	struct tally t = { 0 };
	char tag[64];
	size_t i, j;

	for (i = 0; i < set->n; i++)
		for (j = 0; j < NCALLERS; j++) {
			snprintf(tag, sizeof(tag), "w%zu-%zu", i, j);
			if (!op_on_fresh_overlay(ctx, tag, set, i, 0777, &callers[j], VT_OVL_OPEN_WRITE,
						 NULL, &t))
				return;
		}
	report(ctx, "open for writing (copy-up)", &t);
	vt_expect_eq(ctx, "writes copied up and refused", t.ok > 0 && t.eacces > 0, 1,
		     "ovl_permission and ovl_copy_up_one/ovl_set_attr in this world");
	if (!set->ero)	/* the erofs tree has no owner the upper idmap cannot take */
		vt_expect_eq(ctx, "copy-ups refused", t.eoverflow > 0, 1,
			     "ovl_set_attr: f30000-0666 (30000 is not writable upstairs)");
}

static void create_new(struct vt_ctx *ctx)
{
	struct vt_ovl_world w;
	struct vt_ovl_expect e;
	struct tally t = { 0 };
	char name[64];
	struct ovl o;
	size_t j;

	if (!make_overlay(ctx, "w", false, &o))
		return;
	for (j = 0; j < NCALLERS; j++) {
		snprintf(name, sizeof(name), "new-%zu", j);
		model_world(&o, NULL, &callers[j], &w);
		vt_ovl_model(&w, VT_OVL_CREATE, vt_cuid(0), vt_cgid(0), &e);
		count(&t, check_op(ctx, &o, VT_OVL_CREATE, name, &callers[j], NULL, &e));
	}
	unmake_overlay(ctx, &o);
	report(ctx, "create", &t);
	vt_expect_eq(ctx, "creates allowed and refused", t.ok > 0 && t.eoverflow > 0, 1,
		     "ovl_create_upper: may_create through the upper idmap in this world");
}

static void chown_obj(struct vt_ctx *ctx, const struct objset *set)
{
	struct tally t = { 0 };
	char tag[64];
	size_t i, j, k;

	for (i = 0; i < set->n; i++)
		for (j = 0; j < NCALLERS; j++)
			for (k = 0; k < NTARGETS; k++) {
				snprintf(tag, sizeof(tag), "c%zu-%zu-%zu", i, j, k);
				if (!op_on_fresh_overlay(ctx, tag, set, i, 0777, &callers[j],
							 VT_OVL_CHOWN, &targets[k], &t))
					return;
			}
	report(ctx, "chown (copy-up)", &t);
	vt_expect_eq(ctx, "chowns allowed, refused by chown_ok and by the upper idmap",
		     t.ok > 0 && t.eperm > 0 && t.eoverflow > 0, 1,
		     "chown_ok, ovl_set_attr/notify_change in this world");
}

/* unlink in a sticky root (01777): who may remove a lower name is
 * decided on the overlay's inodes (check_sticky), the whiteout is the
 * mounter's */
static void unlink_obj(struct vt_ctx *ctx, const struct objset *set)
{
	struct tally t = { 0 };
	char tag[64];
	size_t i, j;

	if (!vt_need_fs(ctx, VT_FSF_STICKY))
		return;
	for (i = 0; i < set->n; i++)
		for (j = 0; j < NCALLERS; j++) {
			snprintf(tag, sizeof(tag), "u%zu-%zu", i, j);
			if (!op_on_fresh_overlay(ctx, tag, set, i, 01777, &callers[j], VT_OVL_UNLINK,
						 NULL, &t))
				return;
		}
	report(ctx, "unlink (sticky root)", &t);
	vt_expect_eq(ctx, "unlinks allowed and refused by check_sticky", t.ok > 0 && t.eperm > 0,
		     1, "check_sticky on the overlay inodes in this world");
	if (!set->ero)
		vt_expect_eq(ctx, "unlinks refused for an unmapped owner", t.eoverflow > 0, 1,
			     "may_delete: !vfsuid_valid -> EOVERFLOW (f50000-*)");
}

static void dir_stat(struct vt_ctx *ctx) { stat_owner(ctx, &dir_set); }
static void dir_read(struct vt_ctx *ctx) { open_read(ctx, &dir_set); }
static void dir_write(struct vt_ctx *ctx) { open_write(ctx, &dir_set); }
static void dir_chown(struct vt_ctx *ctx) { chown_obj(ctx, &dir_set); }
static void dir_unlink(struct vt_ctx *ctx) { unlink_obj(ctx, &dir_set); }
/* the erofs layer's: its mount goes at the case's end */
static void ero_stat(struct vt_ctx *ctx) { stat_owner(ctx, &ero_set); ero_unmount(ctx); }
static void ero_read(struct vt_ctx *ctx) { open_read(ctx, &ero_set); ero_unmount(ctx); }
static void ero_write(struct vt_ctx *ctx) { open_write(ctx, &ero_set); ero_unmount(ctx); }
static void ero_chown(struct vt_ctx *ctx) { chown_obj(ctx, &ero_set); ero_unmount(ctx); }
static void ero_unlink(struct vt_ctx *ctx) { unlink_obj(ctx, &ero_set); ero_unmount(ctx); }

/* The overlay cannot itself be idmapped: ovl_fs_type.fs_flags is
 * FS_USERNS_MOUNT only, and can_idmap_mount() refuses a filesystem
 * without FS_ALLOW_IDMAP with EINVAL (fs/namespace.c). */
static void idmap_the_overlay(struct vt_ctx *ctx)
{
	struct ovl o;
	int ns, fd;

	if (!make_overlay(ctx, "w", false, &o))
		return;
	ns = vt_userns_from_spec(-1, "b:0:10000:10000");
	if (ns < 0) {
		vt_fail(ctx, "setup: user namespace: %s", vt_errname(-ns));
		unmake_overlay(ctx, &o);
		return;
	}
	fd = vt_idmapped_tree(o.merged, ns, false);
	close(ns);
	if (fd >= 0) {
		close(fd);
		vt_fail(ctx, "mount_setattr(MOUNT_ATTR_IDMAP) of the overlay mount %s succeeded: "
			     "expected EINVAL [rule: can_idmap_mount: overlay has no FS_ALLOW_IDMAP]",
			o.merged);
	} else {
		vt_expect_errno(ctx, "open_tree(overlay, OPEN_TREE_CLONE) + mount_setattr(MOUNT_ATTR_IDMAP)",
			-fd, EINVAL,
			"can_idmap_mount: !(fs_flags & FS_ALLOW_IDMAP) -> EINVAL (ovl_fs_type: "
			"FS_USERNS_MOUNT only)");
	}
	unmake_overlay(ctx, &o);
}

static const struct vt_case cases[] = {
	{ "overlay-idmapped-layers-stat-owner", dir_stat },
	{ "overlay-idmapped-layers-open-read-two-checks", dir_read },
	{ "overlay-idmapped-layers-open-write-copy-up", dir_write },
	{ "overlay-idmapped-layers-create-upper-owner", create_new },
	{ "overlay-idmapped-layers-chown-copy-up", dir_chown },
	{ "overlay-idmapped-layers-unlink-sticky-whiteout", dir_unlink },
	{ "overlay-idmapped-erofs-lower-stat-owner", ero_stat },
	{ "overlay-idmapped-erofs-lower-open-read-two-checks", ero_read },
	{ "overlay-idmapped-erofs-lower-open-write-copy-up", ero_write },
	{ "overlay-idmapped-erofs-lower-chown-copy-up", ero_chown },
	{ "overlay-idmapped-erofs-lower-unlink-sticky-whiteout", ero_unlink },
	{ "overlay-mount-cannot-be-idmapped-einval", idmap_the_overlay },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	/* the layers need files with different owners (a fat or exfat tree has
	 * one, its mount's uid=: fat_fill_inode), and the filesystem must be
	 * able to be an overlay layer */
	static const struct vt_test t = { .cases = cases,
		.needs = { .owners = VT_FSNEED_INODE_OWNERS, .features = VT_FSF_OVERLAY } };
	return vt_test_main(&t, argc, argv);
}
