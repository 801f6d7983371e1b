/* idmapped/007: FS_IOC_SET_ENCRYPTION_POLICY through an idmapped mount.
 *
 * fs/crypto/policy.c fscrypt_ioctl_set_policy() asks
 * inode_owner_or_capable(file_mnt_idmap(filp), inode) before anything it
 * changes: the owner is the owner as the mount shows it, and CAP_FOWNER
 * counts only where the inode's uid, through the mount, maps into the
 * caller's namespace (vfsuid_has_mapping; its gid is not asked, unlike
 * capable_wrt_inode_uidgid). The matrix makes no filesystem with
 * encryption, so this test makes its own: an ext4 image made with
 * `mkfs.ext4 -O encrypt` in the case directory, loop-mounted in the test's
 * mount namespace and idmapped with MAP; both mounts and the image go with
 * the case. A v1 policy needs no key to be set (set_encryption_policy: no
 * fscrypt_verify_key_added for v1), so nothing is added to a keyring.
 *
 * Every caller sets a policy on each object of a fresh directory of its
 * own, and the errno and the policy left on disk (read back with
 * FS_IOC_GET_ENCRYPTION_POLICY on the plain mount) are compared with the
 * model (lib/model/file_rules.c vt_fscrypt_ioctl_set_policy, rules
 * fscrypt_ioctl_set_policy.*): the owner check first (EACCES), then the
 * checks after it: a file is ENOTDIR, a directory with an entry
 * ENOTEMPTY, an encrypted directory takes its own policy again (0) and
 * refuses another (EEXIST). Callers: the owner through the mount, the
 * owner on disk (not the owner through it), an owner on disk whom the
 * mount does not map, a user with CAP_FOWNER only, and root, on objects
 * whose uid and gid are mapped, whose gid is not, and whose uid is not.
 *
 * Notrun with the reason when the kernel has no ext4 or no
 * CONFIG_FS_ENCRYPTION (the ioctl is EOPNOTSUPP for root on the plain
 * mount), or mkfs.ext4 cannot make the encrypt feature. */
#include "testlib/testlib.h"
#include "model/world_model.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fscrypt.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

/* disk uid/gid 1000 is 11000 through the mount; 2000 (and 0) unmapped */
#define MAP "b:1000:11000:1"
#define IMAGE_MIB 32

struct who {
	const char *name;
	uid_t uid;
	gid_t gid;
	const char *caps;	/* cap_from_text, NULL: root's all or none */
	uint64_t model_caps;
	bool root;
};

static const struct who callers[] = {
	{ "11000(owner-through-mount)", 11000, 11000, NULL, 0, false },
	{ "1000(disk-owner)", 1000, 1000, NULL, 0, false },
	{ "2000(unmapped-disk-owner)", 2000, 2000, NULL, 0, false },
	{ "12000(cap_fowner)", 12000, 12000, "cap_fowner=ep", 1ULL << VT_CAP_FOWNER, false },
	{ "root", 0, 0, NULL, ~0ULL, true },
};
#define NCALLERS (sizeof(callers) / sizeof(callers[0]))

/* The objects of each caller's directory (c<n>, 0755 0:0): kind 'd'
 * directory, 'f' file; FULL holds a file; POLICY is the suite's v1 policy
 * set on it by root before the caller comes; SET the policy the caller
 * asks for. */
struct obj {
	const char *name;
	char kind;
	mode_t mode;
	uid_t uid;
	gid_t gid;
	bool full;
	int policy;
	int set;
};

static const struct obj objs[] = {
	{ "d", 'd', 0755, 1000, 1000, false, 0, 1 },		/* uid and gid mapped */
	{ "dg2000", 'd', 0755, 1000, 2000, false, 0, 1 },	/* gid unmapped */
	{ "du2000", 'd', 0755, 2000, 1000, false, 0, 1 },	/* uid unmapped */
	{ "f", 'f', 0644, 1000, 1000, false, 0, 1 },		/* not a directory */
	{ "full", 'd', 0755, 1000, 1000, true, 0, 1 },		/* not empty */
	{ "enc-same", 'd', 0755, 1000, 1000, false, 1, 1 },	/* the same policy again */
	{ "enc-other", 'd', 0755, 1000, 1000, false, 1, 2 },	/* a different one */
	/* the ioctl needs an fd: open(O_RDONLY) of a 0700 directory refuses
	 * the CAP_FOWNER-only caller (no DAC override) whom the owner check
	 * would let through */
	{ "d0700", 'd', 0700, 1000, 1000, false, 0, 1 },
};
#define NOBJS (sizeof(objs) / sizeof(objs[0]))

/* The suite's v1 policy N: AES-256-XTS contents, AES-256-CTS names, no
 * flags (fscrypt_supported_v1_policy accepts it), a key descriptor of
 * its own per N. */
static struct fscrypt_policy_v1 policy(int n)
{
	struct fscrypt_policy_v1 p;

	memset(&p, 0, sizeof(p));
	p.version = FSCRYPT_POLICY_V1;
	p.contents_encryption_mode = FSCRYPT_MODE_AES_256_XTS;
	p.filenames_encryption_mode = FSCRYPT_MODE_AES_256_CTS;
	p.flags = 0;
	memset(p.master_key_descriptor, 0x10 * n, sizeof(p.master_key_descriptor));
	p.master_key_descriptor[0] = 'v';
	return p;
}

static int set_policy(const char *path, int n)
{
	struct fscrypt_policy_v1 p = policy(n);
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return errno;
	if (ioctl(fd, FS_IOC_SET_ENCRYPTION_POLICY, &p) < 0)
		ret = errno;
	close(fd);
	return ret;
}

/* The policy PATH holds: 0 none (ENODATA), N for the suite's policy N,
 * -1 for anything else or an error (errno in *ERR). */
static int policy_of(const char *path, int *err)
{
	struct fscrypt_policy_v1 got, want;
	int fd = open(path, O_RDONLY | O_CLOEXEC), n;

	*err = 0;
	if (fd < 0) {
		*err = errno;
		return -1;
	}
	memset(&got, 0, sizeof(got));
	if (ioctl(fd, FS_IOC_GET_ENCRYPTION_POLICY, &got) < 0) {
		*err = errno;
		close(fd);
		return *err == ENODATA ? 0 : -1;
	}
	close(fd);
	for (n = 1; n <= 2; n++) {
		want = policy(n);
		if (memcmp(&got, &want, sizeof(got)) == 0)
			return n;
	}
	return -1;
}

struct set_arg {
	const char *path;
	int n;
};

static int caller_set_policy(void *arg, void *data, size_t len)
{
	const struct set_arg *a = arg;

	(void)data;
	(void)len;
	return set_policy(a->path, a->n);
}

struct world {
	char img[4200], disk[4200], mnt[4200];
	struct vt_midmap idmap;
};

/* mkfs.ext4 -O encrypt on a new image in the case directory, mounted at
 * disk/ (a loop device with autoclear), idmapped at mnt/. false: the case
 * was skipped or failed (the caller returns). */
static bool make_world(struct vt_ctx *ctx, struct world *w)
{
	char probe[4300], err[256];
	int ret;

	memset(w, 0, sizeof(*w));
	w->idmap.name = "fscrypt-map";
	if (vt_mapping_parse(MAP, &w->idmap.map, err, sizeof(err)) < 0) {
		vt_fail(ctx, "setup: map %s: %s", MAP, err);
		return false;
	}
	if (!vt_fstype_in_kernel("ext4")) {
		vt_skip(ctx, "this kernel has no ext4 (not in /proc/filesystems after modprobe ext4)");
		return false;
	}
	snprintf(w->img, sizeof(w->img), "%s/encrypt.img", ctx->dir);
	ret = vt_image_create(w->img, "ext4", (off_t)IMAGE_MIB << 20, "-O encrypt", 2);
	if (ret == -ENOEXEC) {
		/* the same mkfs without the feature tells a mkfs that lacks it
		 * from a setup that is broken */
		ret = vt_image_create(w->img, "ext4", (off_t)IMAGE_MIB << 20, NULL, 2);
		unlink(w->img);
		if (ret == 0) {
			vt_skip(ctx, "mkfs.ext4 cannot make the encrypt feature (-O encrypt failed, "
				     "the same mkfs without it worked)");
			return false;
		}
	}
	if (ret < 0) {
		vt_fail(ctx, "setup: mkfs.ext4 -O encrypt %s: %s", w->img,
			ret == -ENOEXEC ? "failed" : vt_errname(-ret));
		return false;
	}
	if (!vt_mkdir(ctx, "disk", 0755, 0, 0, w->disk, sizeof(w->disk)))
		return false;
	ret = vt_fs_mount("ext4", w->img, w->disk, NULL);
	if (ret < 0) {
		vt_fail(ctx, "setup: mount -t ext4 %s %s: %s", w->img, w->disk, vt_errname(-ret));
		return false;
	}
	/* CONFIG_FS_ENCRYPTION: without it fscrypt_ioctl_set_policy is the
	 * stub returning EOPNOTSUPP, asked here as root on the plain mount */
	snprintf(probe, sizeof(probe), "%s/probe", w->disk);
	if (mkdir(probe, 0755) < 0) {
		vt_fail(ctx, "setup: mkdir %s: %s", probe, vt_errname(errno));
		return false;
	}
	ret = set_policy(probe, 1);
	if (ret == EOPNOTSUPP || ret == ENOTTY) {
		vt_skip(ctx, "this kernel cannot encrypt ext4 (FS_IOC_SET_ENCRYPTION_POLICY as root: "
			     "%s; CONFIG_FS_ENCRYPTION)", vt_errname(ret));
		return false;
	}
	if (ret) {
		vt_fail(ctx, "setup: FS_IOC_SET_ENCRYPTION_POLICY as root on %s: %s", probe,
			vt_errname(ret));
		return false;
	}
	if (!vt_idmapped_at(ctx, w->disk, MAP, "mnt", w->mnt, sizeof(w->mnt)))
		return false;
	return true;
}

static void unmake_world(struct vt_ctx *ctx, struct world *w)
{
	if (w->mnt[0] && umount2(w->mnt, 0) < 0)
		vt_fail(ctx, "clean-up: umount %s: %s", w->mnt, vt_errname(errno));
	if (w->disk[0] && umount2(w->disk, 0) < 0)
		vt_fail(ctx, "clean-up: umount %s: %s", w->disk, vt_errname(errno));
}

/* Root makes the objects below DIR on the plain mount. */
static bool make_objects(struct vt_ctx *ctx, const char *dir)
{
	char p[4400], q[4500];
	size_t k;
	int fd, ret;

	if (mkdir(dir, 0755) < 0 || chmod(dir, 0755) < 0) {
		vt_fail(ctx, "setup: mkdir %s: %s", dir, vt_errname(errno));
		return false;
	}
	for (k = 0; k < NOBJS; k++) {
		const struct obj *o = &objs[k];

		snprintf(p, sizeof(p), "%s/%s", dir, o->name);
		if (o->kind == 'd')
			ret = mkdir(p, o->mode);
		else
			ret = (fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, o->mode)) < 0 ? -1 : close(fd);
		if (ret < 0 || chown(p, o->uid, o->gid) < 0 || chmod(p, o->mode) < 0) {
			vt_fail(ctx, "setup: %s: %s", p, vt_errname(errno));
			return false;
		}
		if (o->full) {
			snprintf(q, sizeof(q), "%s/entry", p);
			if ((fd = open(q, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644)) < 0 || close(fd) < 0) {
				vt_fail(ctx, "setup: %s: %s", q, vt_errname(errno));
				return false;
			}
		}
		if (o->policy && (ret = set_policy(p, o->policy)) != 0) {
			vt_fail(ctx, "setup: policy %d on %s as root: %s", o->policy, p, vt_errname(ret));
			return false;
		}
	}
	return true;
}

static struct vt_minode minode_of(const struct obj *o)
{
	struct vt_minode i = vt_minode_make((o->kind == 'd' ? S_IFDIR : S_IFREG) | o->mode, o->uid,
					    o->gid);

	i.nonempty = o->full;
	i.enc_policy = o->policy;
	return i;
}

/* The model's world: ext4 mounted by the initial root (s_user_ns the
 * initial one) with POSIX ACLs (none set), the case's idmap, caller C,
 * P = c<n> (0755 0:0), P/o = O. */
static void model_world(const struct world *wd, const struct who *c, const struct obj *o,
			struct vt_world *w)
{
	memset(w, 0, sizeof(*w));
	w->fs_ns = &vt_init_ns;
	w->posixacl = true;
	w->idmap = &wd->idmap;
	w->cred.name = c->name;
	w->cred.ns = &vt_init_ns;
	w->cred.uid = w->cred.fsuid = vt_cuid(c->uid);
	w->cred.gid = w->cred.fsgid = vt_cgid(c->gid);
	w->cred.caps = c->model_caps;
	w->dir = vt_minode_make(S_IFDIR | 0755, 0, 0);
	w->obj = minode_of(o);
	w->overflowuid = vt_overflowuid();
	w->overflowgid = vt_overflowgid();
}

static void set_policy_through_mount(struct vt_ctx *ctx)
{
	struct world wd;
	int counts[2] = { 0, 0 };	/* allowed, refused by the owner check */
	size_t ci, k;

	if (!make_world(ctx, &wd)) {
		unmake_world(ctx, &wd);
		return;
	}
	vt_scene(ctx, "ext4 -O encrypt at %s, idmapped %s at %s", wd.disk, MAP, wd.mnt);
	for (ci = 0; ci < NCALLERS; ci++) {
		const struct who *c = &callers[ci];
		struct vt_caller k_ = c->root ? vt_caller_root() : vt_caller_user(c->uid, c->gid);
		char dir[4300];

		k_.caps = c->caps;
		snprintf(dir, sizeof(dir), "%s/c%zu", wd.disk, ci);
		if (!make_objects(ctx, dir))
			break;
		for (k = 0; k < NOBJS; k++) {
			const struct obj *o = &objs[k];
			struct vt_mop_args a = { .op = VT_OP_FSCRYPT_SET_POLICY, .enc_policy = o->set };
			struct vt_world w;
			struct vt_expect e;
			struct set_arg sa;
			struct vt_run r;
			char via[4500], disk[4500], what[600];
			int got, err;

			snprintf(via, sizeof(via), "%s/c%zu/%s", wd.mnt, ci, o->name);
			snprintf(disk, sizeof(disk), "%s/%s", dir, o->name);
			model_world(&wd, c, o, &w);
			vt_model_apply(&w, &a, &e);
			sa.path = via;
			sa.n = o->set;
			r = vt_run_as(&k_, caller_set_policy, &sa, NULL, 0);
			if (!vt_expect_ran(ctx, &k_, &r))
				break;
			snprintf(what, sizeof(what), "FS_IOC_SET_ENCRYPTION_POLICY(v1 policy %d) on %s "
				 "(%s %o %u:%u on disk%s%s) as %s", o->set, via,
				 o->kind == 'd' ? "dir" : "file", (unsigned)o->mode, (unsigned)o->uid,
				 (unsigned)o->gid, o->full ? ", not empty" : "",
				 o->policy ? ", encrypted with policy 1" : "", c->name);
			vt_expect_errno(ctx, what, r.ret, e.err, e.rule ? e.rule : "model");
			if (e.rule_id == VT_R_FSCRYPT_OWNER && e.err)
				counts[1]++;
			else if (!e.err)
				counts[0]++;
			/* the policy on disk: the one the model leaves (set_encryption_policy
			 * stores it; a refusal or the same policy again changes nothing) */
			got = policy_of(disk, &err);
			snprintf(what, sizeof(what), "policy on %s after %s's call (0: none)", disk, c->name);
			if (got < 0)
				vt_fail(ctx, "%s: %s", what, err ? vt_errname(err) : "not a policy of the suite");
			else
				vt_expect_eq(ctx, what, got, e.err ? w.obj.enc_policy : e.result.enc_policy,
					     e.rule ? e.rule : "model");
		}
	}
	vt_note(ctx, "%zu callers x %zu objects compared: %d allowed, %d refused by "
		     "inode_owner_or_capable", NCALLERS, NOBJS, counts[0], counts[1]);
	/* the model must have both allowed and refused by the owner check
	 * (the callers are chosen so): a model that decides one way only is
	 * not being compared */
	vt_expect_eq(ctx, "owner-check refusals the model makes (at least 10)", counts[1] >= 10, 1,
		     "the callers and objects above");
	vt_expect_eq(ctx, "successes the model expects (at least 4)", counts[0] >= 4, 1,
		     "the callers and objects above");
	unmake_world(ctx, &wd);
}

static const struct vt_case cases[] = {
	{ "fscrypt-set-policy-owner", set_policy_through_mount },
	{ NULL, NULL },
};

/* its own ext4 image: once, in the ext4 section */
int main(int argc, char **argv)
{
	static const struct vt_test t = { .cases = cases,
					  .own_image = { "ext4", "mkfs.ext4 -O encrypt" } };
	return vt_test_main(&t, argc, argv);
}
