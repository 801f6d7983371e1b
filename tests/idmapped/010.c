/* idmapped/010: open_by_handle_at through an idmapped mount.
 *
 * Linux 6.12 asks the mount's idmap three times on this path
 * (lib/model/fhandle_rules.c has the rules and the kernel lines):
 *   - reconnect_one (fs/exportfs/expfs.c) for a directory whose dentry
 *     is disconnected: lookup_one_unlocked(mnt_idmap(mnt)) of each
 *     ancestor's child, MAY_EXEC through the mount (an ancestor whose
 *     owner has no mapping leaves only its "other" bits, even to root);
 *   - vfs_dentry_acceptable (fs/fhandle.c) for a caller admitted by
 *     may_decode_fh instead of capable(CAP_DAC_READ_SEARCH) (a root of a
 *     user namespace owning the mount namespace, O_DIRECTORY only): T and
 *     its ancestors up to mountdirfd must map into the caller's namespace
 *     through the mount (privileged_wrt_inode_uidgid), and T must be under
 *     mountdirfd (HANDLE_CHECK_SUBTREE);
 *   - may_open of the decoded inode.
 * Handles come from name_to_handle_at on the plain path (the handle does
 * not depend on the mount).
 *
 * dcache-warm: on TEST_DIR, whose dentries the setup has just looked up
 * (connected: no reconnect), host root, an unprivileged user and a root
 * of a user namespace (in a mount namespace of its own) decode handles of
 * directories and a file through a shifted mount.
 * dcache-cold: on an image of the section's filesystem (ext4, xfs; made
 * in the case's directory, no larger than the room there: ntfs3 refuses a
 * file as large as its volume) mounted afresh after the handles were
 * taken, so the decoded directories
 * are disconnected and reconnect_one runs (tmpfs keeps every dentry: its
 * shmem_fh_to_dentry finds only connected ones, so this case is notrun
 * there), then the same handle again once the dcache is warm. */
#include "testlib/testlib.h"
#include "model/fhandle_model.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define SHIFT "b:0:10000:65536"
#define NS_MAP "b:0:10000:65536"
/* disk 1000..1999 only: the image's root and p (0:0) have no mapping */
#define NARROW "b:1000:11000:1000"
#define UNMAPPED 70000	/* beyond SHIFT's range */

struct handle_buf {
	struct file_handle fh;
	unsigned char bytes[MAX_HANDLE_SZ];
};

static int get_handle(const char *path, struct handle_buf *h)
{
	int mount_id;

	memset(h, 0, sizeof(*h));
	h->fh.handle_bytes = MAX_HANDLE_SZ;
	return name_to_handle_at(AT_FDCWD, path, &h->fh, &mount_id, 0) < 0 ? -errno : 0;
}

struct try_arg {
	const char *mountdir;	/* opened in the caller (after unshare) */
	const struct handle_buf *h;
	int flags;
	bool new_mntns;		/* unshare(CLONE_NEWNS) first */
};

static int try_open(void *arg, void *data, size_t len)
{
	const struct try_arg *a = arg;
	int mfd, fd;

	(void)data;
	(void)len;
	/* a mount namespace of the caller's user namespace: may_decode_fh's
	 * capable_wrt_mount (the copied mounts have no locked children) */
	if (a->new_mntns && unshare(CLONE_NEWNS) < 0)
		return 1000 + errno;
	mfd = open(a->mountdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (mfd < 0)
		return 2000 + errno;
	fd = open_by_handle_at(mfd, (struct file_handle *)&a->h->fh, a->flags | O_CLOEXEC);
	close(mfd);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* T's model inode and its ancestors, read from the plain path PATH up to
 * TOP (the filesystem's root, whose mount point TOP is) */
static bool fh_world(struct vt_ctx *ctx, const char *path, const char *top, struct vt_fh_world *f)
{
	char p[4400];
	struct stat st;

	memset(f, 0, sizeof(*f));
	snprintf(p, sizeof(p), "%s", path);
	if (lstat(p, &st) < 0)
		goto fail;
	f->target = vt_minode_make(st.st_mode, st.st_uid, st.st_gid);
	while (strcmp(p, top) != 0) {
		char *slash = strrchr(p, '/');

		if (!slash || slash == p || f->nanc == VT_FH_MAX_DEPTH) {
			errno = ENAMETOOLONG;
			goto fail;
		}
		*slash = '\0';
		if (lstat(p, &st) < 0)
			goto fail;
		f->anc[f->nanc++] = vt_minode_make(st.st_mode, st.st_uid, st.st_gid);
	}
	return true;
fail:
	vt_fail(ctx, "setup: the model's world of %s: %s", path, vt_errname(errno));
	return false;
}

struct who {
	const char *name;
	int kind;		/* 0 host root, 1 user 1000, 2 root of a user namespace */
};

static void model_world(struct vt_world *w, struct vt_mns *ns, const struct vt_midmap *m, int kind)
{
	char err[128];

	memset(w, 0, sizeof(*w));
	w->fs_ns = &vt_init_ns;
	w->posixacl = true;	/* no inode here has an ACL: the mode decides */
	w->idmap = m;
	w->cred.ns = &vt_init_ns;
	if (kind == 2) {
		memset(ns, 0, sizeof(*ns));
		ns->name = "ns0";
		ns->parent = &vt_init_ns;
		ns->owner = vt_kuid(0);
		vt_mapping_parse(NS_MAP, &ns->map, err, sizeof(err));
		w->cred.ns = ns;
	}
	w->cred.name = kind == 1 ? "user" : "root";
	w->cred.uid = w->cred.fsuid = vt_cuid(kind == 1 ? 1000 : 0);
	w->cred.gid = w->cred.fsgid = vt_cgid(kind == 1 ? 1000 : 0);
	w->cred.caps = kind == 1 ? 0 : ~0ULL;
	w->overflowuid = vt_overflowuid();
	w->overflowgid = vt_overflowgid();
}

/* One open_by_handle_at compared with the model. */
static void expect_open(struct vt_ctx *ctx, int kind, const struct vt_midmap *m, const char *mntdir,
			const char *what_obj, struct vt_fh_world *f, const struct handle_buf *h,
			int *allowed, int *refused)
{
	struct vt_caller c = kind == 1 ? vt_caller_user(1000, 1000) : vt_caller_root();
	struct vt_world w;
	struct vt_mns ns;
	struct vt_expect e;
	struct try_arg a = { mntdir, h, O_RDONLY | (f->o_directory ? O_DIRECTORY : 0), kind == 2 };
	struct vt_run r;
	char what[1200];
	int nsfd = -1;

	model_world(&w, &ns, m, kind);
	f->w = &w;
	f->own_mnt_ns = kind == 2;
	vt_model_open_by_handle(f, &e);
	if (kind == 2) {
		nsfd = vt_userns_from_spec(-1, NS_MAP);
		if (nsfd < 0) {
			vt_fail(ctx, "setup: user namespace %s: %s", NS_MAP, vt_errname(-nsfd));
			return;
		}
		c.userns_fd = nsfd;
		c.userns_desc = NS_MAP;
	}
	r = vt_run_as(&c, try_open, &a, NULL, 0);
	if (nsfd >= 0)
		close(nsfd);
	snprintf(what, sizeof(what), "open_by_handle_at(%s, handle of %s, O_RDONLY%s) as %s through %s%s",
		 mntdir, what_obj, f->o_directory ? "|O_DIRECTORY" : "",
		 kind == 0 ? "host root" : kind == 1 ? "uid 1000" : "root of userns " NS_MAP,
		 m->nop ? "the plain mount" : m->name, f->cold ? " (dcache cold)" : "");
	if (!vt_expect_ran(ctx, &c, &r))
		return;
	if (r.ret >= 1000) {
		vt_fail(ctx, "setup: %s: %s failed: %s", what, r.ret >= 2000 ? "open mountdirfd" : "unshare",
			vt_errname(r.ret % 1000));
		return;
	}
	vt_expect_errno(ctx, what, r.ret, e.err, e.rule ? e.rule : "model");
	if (e.err)
		(*refused)++;
	else
		(*allowed)++;
}

/* may_decode_fh (620c266f3949, Linux 6.10): a root of a user namespace in
 * a mount namespace of its own may decode a directory handle under a
 * mount it could bind. Asked on the plain mount (a handle whose inode
 * ns0 cannot map: ESTALE where the relaxed check exists, EPERM from
 * handle_to_path where only capable(CAP_DAC_READ_SEARCH) admits). */
static int probe_may_decode_fh(void *arg, void *data, size_t len)
{
	int ret = try_open(arg, data, len);

	return ret == EPERM ? EPERM : 0;
}

static void warm(struct vt_ctx *ctx)
{
	char src[4200], mnt[4200], p[4400], mp[4400], err[128];
	struct vt_midmap m = { .name = SHIFT };
	struct handle_buf h;
	struct vt_fh_world f;
	int allowed = 0, refused = 0, k, ret, skipped = 0;
	bool relaxed;
	/* src/a (0700, 0:0)/b (0755, 1000), src/a/f (file 0644, 1000),
	 * src/x (0700, UNMAPPED)/y (0755, 1000), src/c (0755, 0:0) */
	static const struct {
		const char *obj, *mountsub;	/* mountdirfd: the mount root or a subdirectory */
		bool o_directory;
		int kind;
	} tries[] = {
		{ "a/b", "", true, 0 },		/* old model: accepted, may_open in scope */
		{ "x", "", true, 0 },		/* may_open: CAP_DAC_READ_SEARCH out of scope */
		{ "x/y", "", true, 0 },		/* warm: no reconnect, no walk: allowed */
		{ "a/b", "", true, 1 },		/* neither capable nor may_decode_fh: EPERM */
		{ "a/b", "", true, 2 },		/* may_decode_fh, everything mapped */
		{ "a/b", "", false, 2 },	/* no O_DIRECTORY: EPERM */
		{ "a/f", "", true, 2 },		/* EXPORT_FH_DIR_ONLY: ESTALE */
		{ "x/y", "", true, 2 },		/* ancestor x unmapped: ESTALE */
		{ "x", "", true, 2 },		/* T unmapped: ESTALE */
		{ "c", "a", true, 2 },		/* not under mountdirfd: CHECK_SUBTREE */
		{ "a/b", "a", true, 2 },	/* under it */
	};

	if (vt_mapping_parse(SHIFT, &m.map, err, sizeof(err)) < 0) {
		vt_fail(ctx, "setup: map %s: %s", SHIFT, err);
		return;
	}
	if (!vt_mkdir(ctx, "src", 0755, 0, 0, src, sizeof(src)) ||
	    !vt_mkdir(ctx, "src/a", 0700, 0, 0, p, sizeof(p)) ||
	    !vt_mkdir(ctx, "src/a/b", 0755, 1000, 1000, p, sizeof(p)) ||
	    !vt_mkfile(ctx, "src/a/f", 0644, 1000, 1000, p, sizeof(p)) ||
	    !vt_mkdir(ctx, "src/x", 0700, UNMAPPED, UNMAPPED, p, sizeof(p)) ||
	    !vt_mkdir(ctx, "src/x/y", 0755, 1000, 1000, p, sizeof(p)) ||
	    !vt_mkdir(ctx, "src/c", 0755, 0, 0, p, sizeof(p)) ||
	    !vt_idmapped_at(ctx, src, SHIFT, "m", mnt, sizeof(mnt)))
		return;
	vt_scene(ctx, "%s idmapped %s at %s", src, SHIFT, mnt);
	{
		struct vt_caller c = vt_caller_root();
		struct try_arg a = { src, &h, O_RDONLY | O_DIRECTORY, true };
		int nsfd;

		snprintf(p, sizeof(p), "%s/c", src);
		ret = get_handle(p, &h);
		if (ret == -EOPNOTSUPP) {
			vt_skip(ctx, "%s cannot encode file handles (name_to_handle_at: EOPNOTSUPP)",
				ctx->fstype);
			goto out;
		}
		if (ret < 0) {
			vt_fail(ctx, "setup: name_to_handle_at %s: %s", p, vt_errname(-ret));
			goto out;
		}
		nsfd = vt_userns_from_spec(-1, NS_MAP);
		if (nsfd < 0) {
			vt_fail(ctx, "setup: user namespace %s: %s", NS_MAP, vt_errname(-nsfd));
			goto out;
		}
		c.userns_fd = nsfd;
		c.userns_desc = NS_MAP;
		relaxed = vt_probe_feature(ctx, "open_by_handle_at for a root of a user namespace "
					   "(may_decode_fh, Linux 6.10)", &c, probe_may_decode_fh, &a);
		close(nsfd);
	}
	for (k = 0; k < (int)(sizeof(tries) / sizeof(tries[0])) && !ctx->failures; k++) {
		snprintf(p, sizeof(p), "%s/%s", src, tries[k].obj);
		ret = get_handle(p, &h);
		if (ret == -EOPNOTSUPP) {
			vt_skip(ctx, "%s cannot encode file handles (name_to_handle_at: EOPNOTSUPP)",
				ctx->fstype);
			break;
		}
		if (ret < 0) {
			vt_fail(ctx, "setup: name_to_handle_at %s: %s", p, vt_errname(-ret));
			break;
		}
		if (!fh_world(ctx, p, ctx->test_dir, &f))
			break;
		f.o_directory = tries[k].o_directory;
		/* where mountdirfd is on T's path: the mount root is src */
		{
			const char *sub = tries[k].mountsub;
			int depth = 0;

			for (const char *q = tries[k].obj; *q; q++)
				depth += *q == '/';
			/* T is depth + 1 below src: src is anc[depth], position depth + 1 */
			if (!*sub)
				f.root_at = depth + 1;
			else if (strncmp(tries[k].obj, sub, strlen(sub)) == 0 &&
				 tries[k].obj[strlen(sub)] == '/')
				f.root_at = depth;	/* "a/..." with mountdirfd a: one above src's child */
			else
				f.root_at = -1;
			snprintf(mp, sizeof(mp), "%s%s%s", mnt, *sub ? "/" : "", sub);
		}
		if (tries[k].kind == 2 && !relaxed) {
			skipped++;
			continue;
		}
		expect_open(ctx, tries[k].kind, &m, mp, tries[k].obj, &f, &h, &allowed, &refused);
	}
	if (ctx->skipped || ctx->failures)
		goto out;
	vt_note(ctx, "%d decodes allowed, %d refused, %d not tried (no may_decode_fh here)", allowed,
		refused, skipped);
	if (skipped)
		vt_expect_eq(ctx, "decodes the model allows (2) and refuses (2)",
			     allowed == 2 && refused == 2, 1, "the tries above");
	else
		vt_expect_eq(ctx, "decodes the model allows (4) and refuses (7)",
			     allowed == 4 && refused == 7, 1, "the tries above");
out:
	if (umount2(mnt, 0) < 0)
		vt_fail(ctx, "clean-up: umount %s: %s", mnt, vt_errname(errno));
}

static void cold(struct vt_ctx *ctx)
{
	char img[4200], disk[4200], mnt[4200], p[4400], err[128];
	struct vt_midmap narrow = { .name = NARROW }, plain = { .name = "none", .nop = true };
	static const char *const objs[] = { "p/q/r", "s/t/u", "p/q/f" };
	struct handle_buf h[3];
	struct vt_fh_world f[3];
	int allowed = 0, refused = 0, ret, k;
	bool mounted = false, idmapped = false;
	off_t size = 0;

	if (!vt_fs_row(ctx->fstype) || vt_fstype_needs_device(ctx->fstype) == false)
		VT_SKIP(ctx, "%s keeps every dentry of a file it can decode (tmpfs: shmem_fh_to_dentry "
			     "finds only connected ones); a cold dcache needs a filesystem mounted afresh "
			     "from an image", ctx->fstype);
	if (vt_mapping_parse(NARROW, &narrow.map, err, sizeof(err)) < 0) {
		vt_fail(ctx, "setup: map %s: %s", NARROW, err);
		return;
	}
	/* the image is made in the case's directory on the filesystem under
	 * test, sized to fit there (vt_image_size_within: ntfs3 refuses a
	 * file as large as its volume, EFBIG) */
	snprintf(img, sizeof(img), "%s/fh.img", ctx->dir);
	ret = vt_image_size_within(ctx->fstype, ctx->dir, &size);
	if (ret == -ENOSPC)
		VT_SKIP(ctx, "%s has %lld MiB free for a nested %s image, less than the %u MiB %s "
			     "makes (lib/fs/fs_table.c image_min_mib)", ctx->dir,
			(long long)(size >> 20), ctx->fstype, vt_fs_row(ctx->fstype)->image_min_mib,
			vt_fs_row(ctx->fstype)->mkfs);
	if (ret < 0) {
		vt_fail(ctx, "setup: statvfs %s: %s", ctx->dir, vt_errname(-ret));
		return;
	}
	ret = vt_image_create(img, ctx->fstype, size, NULL, -1);
	if (ret < 0) {
		vt_fail(ctx, "setup: mkfs.%s %s: %s", ctx->fstype, img,
			ret == -ENOEXEC ? "failed" : vt_errname(-ret));
		return;
	}
	if (!vt_mkdir(ctx, "disk", 0755, 0, 0, disk, sizeof(disk)))
		return;
	ret = vt_fs_mount(ctx->fstype, img, disk, NULL);
	if (ret < 0) {
		vt_fail(ctx, "setup: mount %s: %s", img, vt_errname(-ret));
		return;
	}
	mounted = true;
	/* p (0700, 0:0) has no mapping through NARROW: searching it leaves its
	 * other bits (none); s (0711, 0:0) lets anyone search */
	{
		static const struct { const char *path; mode_t mode; uid_t uid; bool file; } tree[] = {
			{ "", 0755, 0, false },
			{ "p", 0700, 0, false }, { "p/q", 0755, 1000, false },
			{ "p/q/r", 0755, 1000, false }, { "p/q/f", 0644, 1000, true },
			{ "s", 0711, 0, false }, { "s/t", 0755, 1000, false },
			{ "s/t/u", 0755, 1000, false },
		};

		for (k = 0; k < (int)(sizeof(tree) / sizeof(tree[0])); k++) {
			snprintf(p, sizeof(p), "%s/%s", disk, tree[k].path);
			if (*tree[k].path && (tree[k].file ? close(open(p, O_CREAT | O_EXCL | O_WRONLY |
									   O_CLOEXEC, 0600))
							   : mkdir(p, 0700)) < 0) {
				vt_fail(ctx, "setup: create %s: %s", p, vt_errname(errno));
				goto out;
			}
			if (chown(p, tree[k].uid, tree[k].uid) < 0 || chmod(p, tree[k].mode) < 0) {
				vt_fail(ctx, "setup: chown/chmod %s: %s", p, vt_errname(errno));
				goto out;
			}
		}
	}
	for (k = 0; k < 3; k++) {
		snprintf(p, sizeof(p), "%s/%s", disk, objs[k]);
		ret = get_handle(p, &h[k]);
		if (ret < 0) {
			vt_fail(ctx, "setup: name_to_handle_at %s: %s", p, vt_errname(-ret));
			goto out;
		}
		if (!fh_world(ctx, p, disk, &f[k]))
			goto out;
		f[k].o_directory = k < 2;
		f[k].root_at = 3;	/* the mount root: the image's root */
	}
	/* mounted afresh: no dentry but the root's (a new superblock) */
	if (umount2(disk, 0) < 0) {
		vt_fail(ctx, "setup: umount %s: %s", disk, vt_errname(errno));
		return;
	}
	mounted = false;
	ret = vt_fs_mount(ctx->fstype, img, disk, NULL);
	if (ret < 0) {
		vt_fail(ctx, "setup: mount %s again: %s", img, vt_errname(-ret));
		return;
	}
	mounted = true;
	if (!vt_idmapped_at(ctx, disk, NARROW, "m", mnt, sizeof(mnt)))
		goto out;
	idmapped = true;
	vt_scene(ctx, "%s: a %s image mounted afresh at %s, idmapped %s at %s", img, ctx->fstype, disk,
		 NARROW, mnt);
	/* in this order: nothing before has looked a name up on the new
	 * superblock. The file first: a non-directory is accepted
	 * disconnected (no reconnect); r through NARROW: reconnect_one stops
	 * at p; u: s is searchable; r through the plain mount (root's
	 * CAP_DAC_READ_SEARCH in scope); r through NARROW again, now connected */
	f[2].cold = true;
	expect_open(ctx, 0, &narrow, mnt, "p/q/f", &f[2], &h[2], &allowed, &refused);
	f[0].cold = true;
	expect_open(ctx, 0, &narrow, mnt, "p/q/r", &f[0], &h[0], &allowed, &refused);
	f[1].cold = true;
	expect_open(ctx, 0, &narrow, mnt, "s/t/u", &f[1], &h[1], &allowed, &refused);
	expect_open(ctx, 0, &plain, disk, "p/q/r", &f[0], &h[0], &allowed, &refused);
	f[0].cold = false;
	expect_open(ctx, 0, &narrow, mnt, "p/q/r", &f[0], &h[0], &allowed, &refused);
	if (!ctx->failures) {
		vt_note(ctx, "%d decodes allowed, %d refused", allowed, refused);
		vt_expect_eq(ctx, "decodes the model allows (4) and refuses (1)",
			     allowed == 4 && refused == 1, 1, "the tries above");
	}
out:
	if (idmapped && umount2(mnt, 0) < 0)
		vt_fail(ctx, "clean-up: umount %s: %s", mnt, vt_errname(errno));
	if (mounted && umount2(disk, 0) < 0)
		vt_fail(ctx, "clean-up: umount %s: %s", disk, vt_errname(errno));
}

static const struct vt_case cases[] = {
	{ "dcache-warm", warm },
	{ "dcache-cold", cold },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	/* directories of chosen owners and modes (0700 ancestors), and for
	 * dcache-cold an image of the section's filesystem holding them */
	static const struct vt_test t = { .cases = cases,
					  .needs = { .owners = VT_FSNEED_INODE_OWNERS } };
	return vt_test_main(&t, argc, argv);
}
