/* The matrix driver (see matrix.h): shared world, per-case reset, run,
 * observe, compare with the model, KTAP. Honours --list-cases, a case id
 * as argv[1] or VT_CASE, VT_SHARD="i/n" (1 <= i <= n: cases whose index
 * modulo n is i-1) and VT_SEED (run the selected cases in a shuffled,
 * seed-determined order; ids do not change). */
#include "matrix/axes.h"
#include "matrix/coverage.h"
#include "matrix/sample.h"
#include "matrix/executor.h"
#include "matrix/fixture.h"
#include "matrix/matrix.h"
#include "world/sysctl.h"
#include "matrix/vfat_fixture.h"
#include "model/break.h"
#include "report/ktap.h"
#include "report/replay.h"
#include "testlib/testlib.h"
#include "util/errname.h"
#include "util/safe_remove.h"
#include "world/fs_features.h"
#include "world/idmapped_mount.h"
#include "world/userns.h"
#include "world/xattr_view.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

struct vt_minode vt_fx_inode(mode_t mode, uint32_t uid, uint32_t gid)
{
	struct vt_minode i = { .exists = true, .mode = mode, .uid = vt_kuid(uid),
			       .gid = vt_kgid(gid) };
	return i;
}

void vt_fx_add_acl(struct vt_minode *i, uint32_t uid, uint32_t gid, bool default_acl)
{
	struct vt_acl_kentry *a = default_acl ? i->defacl : i->acl;
	unsigned int m = i->mode;

	a[0] = (struct vt_acl_kentry){ VT_ACL_USER_OBJ, (m >> 6) & 7, vt_kuid(VT_ID_INVALID),
				       vt_kgid(VT_ID_INVALID) };
	a[1] = (struct vt_acl_kentry){ VT_ACL_USER, 6, vt_kuid(uid), vt_kgid(VT_ID_INVALID) };
	a[2] = (struct vt_acl_kentry){ VT_ACL_GROUP_OBJ, 4, vt_kuid(VT_ID_INVALID),
				       vt_kgid(VT_ID_INVALID) };
	a[3] = (struct vt_acl_kentry){ VT_ACL_GROUP, 4, vt_kuid(VT_ID_INVALID), vt_kgid(gid) };
	a[4] = (struct vt_acl_kentry){ VT_ACL_MASK, (m >> 3) & 7, vt_kuid(VT_ID_INVALID),
				       vt_kgid(VT_ID_INVALID) };
	a[5] = (struct vt_acl_kentry){ VT_ACL_OTHER, m & 7, vt_kuid(VT_ID_INVALID),
				       vt_kgid(VT_ID_INVALID) };
	if (default_acl) {
		/* a default ACL is independent of the directory's mode */
		a[0].perm = 7;
		a[4].perm = 7;
		a[5].perm = 5;
		i->ndefacl = 6;
	} else {
		i->nacl = 6;
	}
}

const struct vt_fx_owner vt_fx_owners4[VT_FX_NOWNERS4] = {
	{ "0:0", 0, 0 }, { "1000:1000", 1000, 1000 }, { "1001:1001", 1001, 1001 },
	{ "70000:70000", 70000, 70000 },
};

const char *const vt_sysctl_names[VT_SYSCTL__COUNT] = {
	"fs/protected_symlinks", "fs/protected_hardlinks", "fs/protected_fifos",
	"fs/protected_regular",
};

struct world {
	const char *fstype;
	char base[4096], disk[4096], p[4200], q[4200];
	char mnt[16][4200];	/* P's parent through each map's mount */
	int ns_fd[3];		/* caller namespaces: -1 (init), ns0, ns1 */
	bool posixacl;
	/* fs.protected_*: as found, as now, and whether they may change */
	int sysctl_orig[VT_SYSCTL__COUNT], sysctl_cur[VT_SYSCTL__COUNT];
	bool sysctl_allowed;
	uint32_t overflowuid, overflowgid;
	uint64_t bset_init, cap_full;
	char no_whiteout[200];	/* "": RENAME_WHITEOUT works; else why not */
	char no_exec[200];	/* "": setuid exec can be tested; else why not */
	bool fat;		/* vfat: the worlds of vfat_fixture.h instead of disk/ */
};

static const char *suite_test = "matrix/???";

static void case_name(const struct vt_family *f, int idx, char *buf, size_t len)
{
	struct vt_mcase c;
	int local = idx % f->local_count, pair = idx / f->local_count;

	memset(&c, 0, sizeof(c));
	f->make(local, &c);
	snprintf(buf, len, "%s/map=%s/caller=%s/%s", f->name,
		 vt_map_axes[pair / vt_caller_axis_count].name,
		 vt_caller_axes[pair % vt_caller_axis_count].name, c.what);
}

static uint32_t read_u32(const char *path, uint32_t dflt)
{
	FILE *fp = fopen(path, "re");
	unsigned int v = dflt;

	if (fp) {
		if (fscanf(fp, "%u", &v) != 1)
			v = dflt;
		fclose(fp);
	}
	return v;
}

/* A user namespace nested in PARENT_FD, created by the parent namespace's
 * root (an unmapped creator could not create it: create_user_ns() wants
 * the creator's euid mapped in the parent). Its owner is then the parent
 * namespace's uid 0. Returns an fd or -errno. */
static int nested_userns(int parent_fd, const char *spec)
{
	struct vt_mapping m;
	char err[200], buf[256], path[64];
	int ready[2], release[2], fd, status;
	pid_t child, writer;
	char c = 0;

	if (vt_mapping_parse(spec, &m, err, sizeof(err)) < 0)
		return -EINVAL;
	if (pipe2(ready, O_CLOEXEC) < 0 || pipe2(release, O_CLOEXEC) < 0)
		return -errno;
	child = fork();
	if (child < 0)
		return -errno;
	if (child == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(ready[0]);
		close(release[1]);
		if (setns(parent_fd, CLONE_NEWUSER) < 0 || setresgid(0, 0, 0) < 0 ||
		    setresuid(0, 0, 0) < 0 || unshare(CLONE_NEWUSER) < 0)
			c = (char)errno;
		if (write(ready[1], &c, 1) != 1)
			_exit(1);
		(void)!read(release[0], &c, 1);
		_exit(0);
	}
	close(ready[1]);
	close(release[0]);
	if (read(ready[0], &c, 1) != 1 || c) {
		fd = c ? -(int)(unsigned char)c : -ECHILD;
		goto out;
	}
	writer = fork();
	if (writer == 0) {
		int ok = 1;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (setns(parent_fd, CLONE_NEWUSER) < 0)
			_exit(1);
		for (int k = 0; k < 2 && ok; k++) {
			int mfd;

			snprintf(path, sizeof(path), "/proc/%d/%s", (int)child, k ? "gid_map" : "uid_map");
			vt_idmap_format(k ? &m.gid : &m.uid, buf, sizeof(buf));
			mfd = open(path, O_WRONLY | O_CLOEXEC);
			ok = mfd >= 0 && write(mfd, buf, strlen(buf)) == (ssize_t)strlen(buf);
			if (mfd >= 0)
				close(mfd);
		}
		_exit(ok ? 0 : 2);
	}
	waitpid(writer, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fd = -EPERM;
		goto out;
	}
	snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)child);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		fd = -errno;
out:
	close(release[1]);
	close(ready[0]);
	waitpid(child, &status, 0);
	return fd;
}

/* RENAME_WHITEOUT as the initial root on the plain mount: filesystems
 * without whiteouts answer EINVAL. "" or the reason. */
static void probe_whiteout(const char *dir, char *why, size_t len)
{
	char a[4200], b[4200];
	int fd;

	snprintf(a, sizeof(a), "%s/wh-probe-a", dir);
	snprintf(b, sizeof(b), "%s/wh-probe-b", dir);
	*why = 0;
	fd = open(a, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(why, len, "whiteout probe: create: %s", vt_errname(errno));
		return;
	}
	close(fd);
	if (syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, 1 << 2 /* RENAME_WHITEOUT */) < 0)
		snprintf(why, len, "renameat2(RENAME_WHITEOUT) as root on the plain mount: %s",
			 vt_errname(errno));
	unlink(a);
	unlink(b);
}

/* The bounding set of this process (inherited by the callers that stay
 * in the initial namespace), from /proc/self/status. */
static uint64_t read_bset(void)
{
	FILE *fp = fopen("/proc/self/status", "re");
	unsigned long long v = 0;
	char line[256];

	if (!fp)
		return 0;
	while (fgets(line, sizeof(line), fp))
		if (sscanf(line, "CapBnd: %llx", &v) == 1)
			break;
	fclose(fp);
	return v;
}

static bool probe_posixacl(const char *dir)
{
	uint16_t tag[3] = { VT_ACL_USER_OBJ, VT_ACL_GROUP_OBJ, VT_ACL_OTHER }, perm[3] = { 6, 4, 4 };
	uint32_t id[3] = { VT_ID_INVALID, VT_ID_INVALID, VT_ID_INVALID };
	char path[4200], buf[64];
	size_t len = vt_fx_acl_encode(tag, perm, id, 3, buf, sizeof(buf));
	bool ok;
	int fd;

	snprintf(path, sizeof(path), "%s/acl-probe", dir);
	fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		return false;
	close(fd);
	/* IS_POSIXACL: the fs accepts system.posix_acl_access at all */
	ok = lsetxattr(path, "system.posix_acl_access", buf, len, 0) == 0 || errno != EOPNOTSUPP;
	unlink(path);
	return ok;
}

/* Builds the shared world; NULL or the reason the test cannot run. */
static const char *setup(struct world *w, const char *base_name)
{
	static char why[512];
	const char *test_dir = getenv("TEST_DIR");
	int i;

	w->fstype = getenv("FSTYP");
	if (!w->fstype || !test_dir)
		return "FSTYP and TEST_DIR are not set: run through ./check or vfsidmap-exec";
	if (vt_axes_init(why, sizeof(why)) < 0)
		return why;
	/* The fixtures are files with chosen owners: a filesystem that stores
	 * none (vfat, fat_setattr) cannot hold them. Probed by trying. vfat
	 * has worlds of its own, made from mount options (vfat_fixture.h). */
	w->fat = vt_vfat_fstype(w->fstype);
	i = w->fat ? 0 : vt_probe_owner_storage(test_dir);
	if (i < 0) {
		snprintf(why, sizeof(why), "%s stores no file owners (chown to 1000:1000 gives %s)",
			 w->fstype, i == -EOPNOTSUPP ? "no change" : vt_errname(-i));
		return why;
	}
	snprintf(w->base, sizeof(w->base), "%s/vtm-%s", test_dir, base_name);
	/* heal what a dead run left: mounts first, then the tree */
	for (i = 0; i < vt_map_axis_count; i++) {
		char m[4200];

		snprintf(m, sizeof(m), "%s/m-%s", w->base, vt_map_axes[i].name);
		umount2(m, MNT_DETACH);
	}
	vt_fx_remove(w->base);
	snprintf(w->disk, sizeof(w->disk), "%s/disk", w->base);
	if (mkdir(w->base, 0755) < 0 || mkdir(w->disk, 0755) < 0 || chmod(w->base, 0755) < 0 ||
	    chmod(w->disk, 0755) < 0) {
		snprintf(why, sizeof(why), "mkdir %s: %s", w->disk, vt_errname(errno));
		return why;
	}
	if (w->fat) {
		if (vt_vfat_setup(w->base, why, sizeof(why)))
			return why;
		/* the probes below run on the first world's root */
		snprintf(w->disk, sizeof(w->disk), "%s", vt_vfat_disk(0));
	}
	if (!w->fat) {
		snprintf(w->p, sizeof(w->p), "%s/p", w->disk);
		snprintf(w->q, sizeof(w->q), "%s/q", w->disk);
	}
	for (i = 0; i < vt_map_axis_count && !w->fat; i++) {
		int ufd, r;

		if (!vt_map_axes[i].spec) {
			snprintf(w->mnt[i], sizeof(w->mnt[i]), "%s", w->disk);
			continue;
		}
		snprintf(w->mnt[i], sizeof(w->mnt[i]), "%s/m-%s", w->base, vt_map_axes[i].name);
		if (mkdir(w->mnt[i], 0755) < 0) {
			snprintf(why, sizeof(why), "mkdir %s: %s", w->mnt[i], vt_errname(errno));
			return why;
		}
		ufd = vt_userns_from_spec(-1, vt_map_axes[i].spec);
		if (ufd < 0) {
			snprintf(why, sizeof(why), "user namespace %s: %s", vt_map_axes[i].spec,
				 vt_errname(-ufd));
			return why;
		}
		r = vt_idmapped_mount(w->disk, w->mnt[i], ufd, false);
		close(ufd);
		if (r < 0) {
			snprintf(why, sizeof(why), "idmapped mount %s of %s on %s: %s",
				 vt_map_axes[i].spec, w->disk, w->fstype, vt_errname(-r));
			return why;
		}
	}
	w->ns_fd[VT_NS_INIT] = -1;
	w->ns_fd[VT_NS_CHILD] = vt_userns_from_spec(-1, VT_NS0_SPEC);
	if (w->ns_fd[VT_NS_CHILD] < 0)
		return "cannot create the callers' user namespace ns0";
	w->ns_fd[VT_NS_NESTED] = nested_userns(w->ns_fd[VT_NS_CHILD], VT_NS1_SPEC);
	if (w->ns_fd[VT_NS_NESTED] < 0)
		return "cannot create the nested user namespace ns1";
	w->posixacl = !w->fat && probe_posixacl(w->disk);	/* vfat: no SB_POSIXACL */
	probe_whiteout(w->disk, w->no_whiteout, sizeof(w->no_whiteout));
	w->bset_init = read_bset();
	i = (int)read_u32("/proc/sys/kernel/cap_last_cap", 40);
	w->cap_full = i >= 63 ? ~0ULL : (1ULL << (i + 1)) - 1;
	{
		/* mnt_may_suid(): a nosuid mount ignores setuid and file caps,
		 * a noexec one refuses exec: nothing to test there */
		struct statvfs sv;

		w->no_exec[0] = 0;
		if (statvfs(w->disk, &sv) == 0 && (sv.f_flag & (ST_NOSUID | ST_NOEXEC)))
			snprintf(w->no_exec, sizeof(w->no_exec), "TEST_DIR is mounted %s",
				 (sv.f_flag & ST_NOSUID) ? "nosuid (mnt_may_suid is false)" : "noexec");
	}
	for (i = 0; i < VT_SYSCTL__COUNT; i++)
		w->sysctl_orig[i] = w->sysctl_cur[i] = (int)vt_sysctl_read(vt_sysctl_names[i], 0);
	w->sysctl_allowed = getenv("VT_ALLOW_SYSCTL") && strcmp(getenv("VT_ALLOW_SYSCTL"), "1") == 0;
	w->overflowuid = read_u32("/proc/sys/kernel/overflowuid", 65534);
	w->overflowgid = read_u32("/proc/sys/kernel/overflowgid", 65534);
	return NULL;
}

static void model_world(const struct world *rw, int map, int caller, const struct vt_mcase *c,
			struct vt_world *w)
{
	const struct vt_caller_axis *ca = &vt_caller_axes[caller];
	int k;

	memset(w, 0, sizeof(*w));
	w->fs_ns = &vt_init_ns;	/* block filesystems and tmpfs mounted by the initial root */
	w->posixacl = rw->posixacl;
	w->fat = c->vfat ? &vt_vfat_worlds[c->vfat - 1].model : NULL;
	w->idmap = &vt_model_maps[map];
	w->cred.name = ca->name;
	w->cred.ns = ca->ns == VT_NS_INIT ? &vt_init_ns
		     : ca->ns == VT_NS_CHILD ? &vt_model_ns0 : &vt_model_ns1;
	w->cred.uid = w->cred.fsuid = vt_cuid(ca->uid);
	w->cred.gid = w->cred.fsgid = vt_cgid(ca->gid);
	if (ca->fsids) {
		w->cred.fsuid = vt_cuid(ca->fsuid);
		w->cred.fsgid = vt_cgid(ca->fsgid);
	}
	w->cred.ngroups = ca->ngroups;
	for (k = 0; k < ca->ngroups; k++)
		w->cred.groups[k] = vt_cgid(ca->groups[k]);
	w->cred.caps = ca->capmask;
	w->cred.bset_drop = ca->bset_drop;
	w->cred.umask = c->umask;
	w->dir = c->dir;
	w->obj = c->obj;
	w->other = c->other;
	w->dir2 = c->dir2;
	w->overflowuid = rw->overflowuid;
	w->overflowgid = rw->overflowgid;
	{
		const int *v = c->sysctl_set ? c->sysctl : rw->sysctl_orig;

		w->protected_symlinks = v[VT_SYSCTL_SYMLINKS];
		w->protected_hardlinks = v[VT_SYSCTL_HARDLINKS] != 0;
		w->protected_fifos = v[VT_SYSCTL_FIFOS];
		w->protected_regular = v[VT_SYSCTL_REGULAR];
	}
	w->bset_init = rw->bset_init;
	w->cap_full = rw->cap_full;
}

/* The name the result of OP lives under. */
static const char *result_name(const struct vt_mop_args *a)
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

struct report {
	char buf[8192];
	size_t off;
	int diffs;
};

static void say(struct report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct report *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(r->buf + r->off, sizeof(r->buf) - r->off, fmt, ap);
	va_end(ap);
	if (n > 0 && r->off + (size_t)n < sizeof(r->buf))
		r->off += (size_t)n;
}

static void diff(struct report *r, const char *what, long long want, long long got, bool octal)
{
	r->diffs++;
	if (octal)
		say(r, "  %s: expected %llo, actual %llo\n", what, want, got);
	else
		say(r, "  %s: expected %lld, actual %lld\n", what, want, got);
}

static void describe_inode(struct report *r, const char *name, const struct vt_minode *i)
{
	int k;

	if (!i->exists) {
		say(r, "  %s: absent\n", name);
		return;
	}
	say(r, "  %s: mode %o owner %u:%u", name, (unsigned)i->mode, i->uid.val, i->gid.val);
	for (k = 0; k < i->nacl; k++)
		say(r, "%s%x:%u:%d", k ? "," : " acl ", i->acl[k].tag, i->acl[k].perm,
		    i->acl[k].tag == VT_ACL_USER ? (int)i->acl[k].uid.val
		    : i->acl[k].tag == VT_ACL_GROUP ? (int)i->acl[k].gid.val : -1);
	for (k = 0; k < i->ndefacl; k++)
		say(r, "%s%x:%u:%d", k ? "," : " default-acl ", i->defacl[k].tag, i->defacl[k].perm,
		    i->defacl[k].tag == VT_ACL_USER ? (int)i->defacl[k].uid.val
		    : i->defacl[k].tag == VT_ACL_GROUP ? (int)i->defacl[k].gid.val : -1);
	if (i->fcaps.version)
		say(r, " fcaps v%d rootid %u", i->fcaps.version, i->fcaps.rootid.val);
	say(r, " (on-disk ids)\n");
}

static void compare_acl(struct report *r, const char *what, const struct vt_acl_kentry *want,
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
			say(r, "  %s entry %d: expected tag %x perm %u id %u:%u, actual tag %x perm %u id %u:%u\n",
			    what, k, want[k].tag, want[k].perm, want[k].uid.val, want[k].gid.val,
			    got[k].tag, got[k].perm, got[k].uid.val, got[k].gid.val);
		}
	}
}

/* security.capability can only be read through cap_inode_getsecurity, so
 * the observer (initial root, plain mount) sees the stored value as that
 * function presents it to the initial namespace: compare with that. */
static void compare_fcaps(struct report *r, const struct vt_world *w,
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

static void compare(struct report *r, const struct vt_world *w, const struct vt_mcase *c,
		    const struct vt_expect *e,
		    int err, const struct vt_exec_reply *rep, const struct vt_minode *disk,
		    bool obj_exists, const struct stat *obj_st)
{
	const struct vt_mop_args *a = &c->op;
	const struct vt_minode *want = &e->result;
	struct vt_minode unchanged;
	bool want_obj = c->obj.exists && !e->obj_gone;
	int k;

	if (e->err != err) {
		r->diffs++;
		say(r, "  errno: expected %s, actual %s\n", vt_errname(e->err), vt_errname(err));
		return;
	}
	if (err) {
		/* a refused operation changes nothing: the result name holds
		 * what the fixture put there (or nothing) */
		const char *n = result_name(a);

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
			say(r, "  linkat(/proc/self/fd/N, P/n) of the tmpfile: expected %s (%s), actual %s\n",
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
	if (a->op == VT_OP_EXEC && !err) {
		const struct vt_exec_creds *x = &e->creds, *y = &rep->creds;

		if (!rep->have_creds) {
			r->diffs++;
			say(r, "  exec-probe did not report: %s\n", rep->exec_msg);
		} else {
			if (x->ruid != y->ruid) diff(r, "ruid after exec", x->ruid, y->ruid, false);
			if (x->euid != y->euid) diff(r, "euid after exec", x->euid, y->euid, false);
			if (x->suid != y->suid) diff(r, "suid after exec", x->suid, y->suid, false);
			if (x->rgid != y->rgid) diff(r, "rgid after exec", x->rgid, y->rgid, false);
			if (x->egid != y->egid) diff(r, "egid after exec", x->egid, y->egid, false);
			if (x->sgid != y->sgid) diff(r, "sgid after exec", x->sgid, y->sgid, false);
			if (x->cap_prm != y->cap_prm) {
				r->diffs++;
				say(r, "  permitted caps after exec: expected %#llx, actual %#llx\n",
				    (unsigned long long)x->cap_prm, (unsigned long long)y->cap_prm);
			}
			if (x->cap_eff != y->cap_eff) {
				r->diffs++;
				say(r, "  effective caps after exec: expected %#llx, actual %#llx\n",
				    (unsigned long long)x->cap_eff, (unsigned long long)y->cap_eff);
			}
		}
	}
	if (*result_name(a)) {
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
	if (a->op == VT_OP_ACL_GET) {
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
				say(r, "  ACL entry %d read: expected tag %x id %u:%u, actual tag %x id %u:%u\n",
				    k, e->got_acl[k].tag, e->got_acl[k].uid.val, e->got_acl[k].gid.val,
				    rep->acl[k].tag, rep->acl[k].uid.val, rep->acl[k].gid.val);
			}
	}
	if (a->op == VT_OP_FCAPS_GET) {
		if (rep->fcaps.version != e->got_fcaps.version)
			diff(r, "fcaps version read", e->got_fcaps.version, rep->fcaps.version, false);
		else if (rep->fcaps.version == 3 && rep->fcaps.rootid.val != e->got_fcaps.rootid.val)
			diff(r, "fcaps v3 rootid read", e->got_fcaps.rootid.val, rep->fcaps.rootid.val,
			     false);
	}
}

static void op_args_text(struct report *r, const struct vt_mop_args *a)
{
	int k;

	say(r, "  operation: %s", vt_mop_name(a->op));
	switch (a->op) {
	case VT_OP_CHOWN:
	case VT_OP_LCHOWN:
		say(r, " uid %d gid %d (caller view)", (int)a->uid.val, (int)a->gid.val);
		break;
	case VT_OP_ACL_SET:
		for (k = 0; k < a->nacl; k++)
			say(r, "%s%x:%u:%d", k ? "," : a->default_acl ? " default " : " access ",
			    a->acl[k].tag, a->acl[k].perm,
			    a->acl[k].tag == VT_ACL_USER ? (int)a->acl[k].uid.val
			    : a->acl[k].tag == VT_ACL_GROUP ? (int)a->acl[k].gid.val : -1);
		break;
	case VT_OP_FCAPS_SET:
		say(r, " v%d rootid %u", a->fcaps.version, a->fcaps.rootid.val);
		break;
	default:
		say(r, " mode %o", (unsigned)a->mode);
	}
	say(r, "\n");
}

/* What the world can express, for the coverage's "not expressible" column. */
static void world_facts(const struct world *rw, struct vt_world_facts *f)
{
	f->posixacl = rw->posixacl;
	f->protected_hardlinks = rw->sysctl_orig[VT_SYSCTL_HARDLINKS] || rw->sysctl_allowed;
	f->protected_symlinks = rw->sysctl_orig[VT_SYSCTL_SYMLINKS] || rw->sysctl_allowed;
	f->protected_fifos = rw->sysctl_orig[VT_SYSCTL_FIFOS] || rw->sysctl_allowed;
	f->protected_regular = rw->sysctl_orig[VT_SYSCTL_REGULAR] || rw->sysctl_allowed;
	f->whiteout = !rw->no_whiteout[0];
	f->exec = !rw->no_exec[0];
	/* model_world: every fs the matrix mounts belongs to the initial ns */
	f->sb_userns_init = true;
	f->fat = rw->fat;
}

/* Why case LOCAL of F is skipped in this world ("" if it runs). */
static const char *case_skip(const struct world *rw, const struct vt_mcase *c)
{
	if (c->op.op == VT_OP_RENAME_WHITEOUT && rw->no_whiteout[0])
		return rw->no_whiteout;
	if (c->op.op == VT_OP_EXEC && rw->no_exec[0])
		return rw->no_exec;
	if (c->sysctl_set && !rw->sysctl_allowed) {
		static char why[200];
		int k;

		for (k = 0; k < VT_SYSCTL__COUNT; k++)
			if (c->sysctl[k] != rw->sysctl_orig[k]) {
				snprintf(why, sizeof(why),
					 "needs %s = %d, it is %d (a global sysctl: changed only "
					 "where VT_ALLOW_SYSCTL=1)",
					 vt_sysctl_names[k] + 3, c->sysctl[k], rw->sysctl_orig[k]);
				return why;
			}
	}
	return "";
}

/* Makes the fs.protected_* values what case C needs (the original ones
 * for a case that names none); NULL or why they could not be set. */
static const char *apply_sysctls(struct world *rw, const struct vt_mcase *c)
{
	const int *want = c->sysctl_set ? c->sysctl : rw->sysctl_orig;
	int k;

	for (k = 0; k < VT_SYSCTL__COUNT; k++) {
		const char *why;

		if (want[k] == rw->sysctl_cur[k])
			continue;
		why = vt_sysctl_need_value(vt_sysctl_names[k], want[k]);
		if (why)
			return why;
		rw->sysctl_cur[k] = want[k];
	}
	return NULL;
}

/* The model's verdict and trace for case IDX of F (no system call). */
static void model_case(const struct world *rw, const struct vt_family *f, int idx,
		       struct vt_mcase *c, struct vt_world *w, struct vt_expect *e,
		       struct vt_trace *tr)
{
	int local = idx % f->local_count, pair = idx / f->local_count;

	memset(c, 0, sizeof(*c));
	f->make(local, c);
	model_world(rw, pair / vt_caller_axis_count, pair % vt_caller_axis_count, c, w);
	if (c->vfat)
		vt_vfat_resolve(w, &c->op);	/* chown targets named by what the caller sees */
	memset(tr, 0, sizeof(*tr));
	w->trace = tr;
	vt_model_apply(w, &c->op, e);
	w->trace = NULL;
}

static bool run_case(struct world *rw, const struct vt_family *f, int idx, struct vt_ktap *k,
		     const char *name, struct vt_coverage *cov)
{
	int local = idx % f->local_count, pair = idx / f->local_count;
	int map = pair / vt_caller_axis_count, caller = pair % vt_caller_axis_count;
	const struct vt_caller_axis *ca = &vt_caller_axes[caller];
	struct vt_mcase c;
	struct vt_world w;
	struct vt_expect e;
	struct vt_exec_req q;
	struct vt_exec_reply rep;
	struct vt_caller who = vt_caller_user(ca->uid, ca->gid);
	struct vt_minode disk;
	struct report r = { .off = 0 };
	static char replay[8192];
	const char *what = "", *p, *qd, *mroot;
	char path[4300], whotext[512];
	struct vt_run run;
	struct vt_trace tr;
	struct stat st;
	bool obj_exists;
	int g;

	(void)local;
	model_case(rw, f, idx, &c, &w, &e, &tr);
	/* P, Q and the mount's root: the case's vfat world, or the shared disk */
	p = c.vfat ? vt_vfat_p(c.vfat - 1) : rw->p;
	qd = c.vfat ? vt_vfat_q(c.vfat - 1) : rw->q;
	mroot = c.vfat ? vt_vfat_mnt(c.vfat - 1, map) : rw->mnt[map];
	if (*case_skip(rw, &c)) {
		vt_ktap_result(k, VT_SKIP, name, case_skip(rw, &c));
		return true;
	}
	{
		const char *why = apply_sysctls(rw, &c);

		if (why) {
			vt_ktap_result(k, VT_SKIP, name, why);
			return true;
		}
	}

	/* reset the object state on disk */
	vt_fx_remove(p);
	if (qd[0])
		vt_fx_remove(qd);
	if (vt_fx_write(p, &c.dir, &what) < 0)
		goto setup_failed;
	if (c.dir2.exists && vt_fx_write(qd, &c.dir2, &what) < 0)
		goto setup_failed;
	if (c.obj.exists) {
		snprintf(path, sizeof(path), "%s/o", p);
		if (vt_fx_write(path, &c.obj, &what) < 0)
			goto setup_failed;

	}
	if (c.other.exists) {
		snprintf(path, sizeof(path), "%s/t", c.op.cross_dir ? qd : p);
		if (vt_fx_write(path, &c.other, &what) < 0)
			goto setup_failed;
	}

	/* the operation, as the caller, through the mount */
	memset(&q, 0, sizeof(q));
	q.op = c.op;
	snprintf(q.dir, sizeof(q.dir), "%s/p", mroot);
	snprintf(q.path, sizeof(q.path), "%s/%s", q.dir,
		 ((c.op.op <= VT_OP_SYMLINK || c.op.op == VT_OP_MKNOD_CHR) && !c.op.on_existing)
		 ? "n" : "o");
	if (c.op.cross_dir)
		snprintf(q.path2, sizeof(q.path2), "%s/q/%s", mroot, c.op.to_other ? "t" : "n");
	else
		snprintf(q.path2, sizeof(q.path2), "%s/%s", q.dir, c.op.to_other ? "t" : "n");
	if (*result_name(&c.op) && c.op.op != VT_OP_UNLINK && c.op.op != VT_OP_RMDIR)
		snprintf(q.result, sizeof(q.result), "%s/%s",
			 c.op.cross_dir ? mroot : q.dir,
			 c.op.cross_dir ? (c.op.to_other ? "q/t" : "q/n") : result_name(&c.op));
	who.userns_fd = rw->ns_fd[ca->ns];
	who.userns_desc = ca->ns == VT_NS_INIT ? NULL : ca->ns == VT_NS_CHILD ? "ns0 " VT_NS0_SPEC
										 : "ns1 " VT_NS1_SPEC " in ns0";
	who.ngroups = ca->ngroups;
	for (g = 0; g < ca->ngroups; g++)
		who.groups[g] = ca->groups[g];
	who.caps = ca->caps;
	who.bset_drop = ca->bset_drop;
	if (ca->fsids) {
		who.fsuid = ca->fsuid;
		who.fsgid = ca->fsgid;
	}
	who.umask = c.umask;
	who.set_umask = true;
	run = vt_run_as(&who, vt_exec_op, &q, &rep, sizeof(rep));
	vt_caller_describe(&who, whotext, sizeof(whotext));
	if (run.status != VT_RAN) {
		say(&r, "  caller %s did not run: %s\n", whotext, run.msg);
		r.diffs++;
	} else {
		snprintf(path, sizeof(path), "%s/%s", c.op.cross_dir ? qd : p,
			 result_name(&c.op));
		if (*result_name(&c.op))
			vt_fx_read(path, &disk);
		else
			memset(&disk, 0, sizeof(disk));
		snprintf(path, sizeof(path), "%s/o", p);
		obj_exists = lstat(path, &st) == 0;
		compare(&r, &w, &c, &e, run.ret, &rep, &disk, obj_exists, &st);
		/* the case ran: the rules it decided are covered (pass or fail) */
		vt_coverage_add(cov, &tr, e.err);
	}
	if (r.diffs) {
		char head[8192];
		struct report h = { .off = 0 };

		say(&h, "MISMATCH %s\n", name);
		say(&h, "  fs %s, mount idmap %s (%s), caller %s (model caps %#llx)\n", rw->fstype,
		    vt_map_axes[map].name, vt_map_axes[map].spec ? vt_map_axes[map].spec : "plain mount",
		    whotext, (unsigned long long)ca->capmask);
		if (c.vfat)
			say(&h, "  vfat world %s: mounted -o %s\n", vt_vfat_worlds[c.vfat - 1].name,
			    vt_vfat_worlds[c.vfat - 1].options);
		describe_inode(&h, "P", &c.dir);
		describe_inode(&h, "P/o", &c.obj);
		if (c.dir2.exists)
			describe_inode(&h, "Q", &c.dir2);
		describe_inode(&h, c.op.cross_dir ? "Q/t" : "P/t", &c.other);
		op_args_text(&h, &c.op);
		say(&h, "  model: %s (%s)\n", vt_errname(e.err), e.rule ? e.rule : "");
		if (!e.err && e.result.exists)
			describe_inode(&h, "expected result", &e.result);
		if (!run.ret && run.status == VT_RAN && disk.exists)
			describe_inode(&h, "actual result", &disk);
		memcpy(head, h.buf, h.off + 1);
		vt_ktap_diag(k, "%s%s  reproduce: %s", head, r.buf,
			     vt_replay_line(replay, sizeof(replay), suite_test, name, rw->fstype));
	}
	vt_ktap_result(k, r.diffs ? VT_FAIL : VT_PASS, name, NULL);
	return r.diffs == 0;

setup_failed:
	vt_ktap_diag(k, "setup of %s failed: %s: %s", name, what, vt_errname(errno));
	vt_ktap_diag(k, "  reproduce: %s",
		     vt_replay_line(replay, sizeof(replay), suite_test, name, rw->fstype));
	vt_ktap_result(k, VT_FAIL, name, NULL);
	return false;
}

/* The case-level expunge list check writes for this test (VT_EXPUNGE):
 * lines "case<TAB>reason", or "suite/NNN/case<TAB>reason" for the cases of
 * another test that this one also runs (the sample). Read once. */
struct expunges {
	char **name, **why;
	int n;
};

static void expunges_load(struct expunges *x)
{
	const char *path = getenv("VT_EXPUNGE");
	char line[1024];
	FILE *fp;

	memset(x, 0, sizeof(*x));
	if (!path || !*path || !(fp = fopen(path, "re")))
		return;
	while (fgets(line, sizeof(line), fp)) {
		char *tab = strchr(line, '\t');
		char **nn = realloc(x->name, sizeof(char *) * (size_t)(x->n + 1));
		char **nw = realloc(x->why, sizeof(char *) * (size_t)(x->n + 1));

		if (!nn || !nw) {
			x->name = nn ? nn : x->name;
			x->why = nw ? nw : x->why;
			break;
		}
		x->name = nn;
		x->why = nw;
		line[strcspn(line, "\n")] = '\0';
		if (tab)
			*tab++ = '\0';
		x->name[x->n] = strdup(line);
		x->why[x->n] = strdup(tab ? tab : "listed in an expunge file");
		if (x->name[x->n] && x->why[x->n])
			x->n++;
	}
	fclose(fp);
}

/* Is case NAME of family F expunged (as "name" or "F's test/name")? */
static const char *expunged(const struct expunges *x, const struct vt_family *f, const char *name)
{
	size_t tl = strlen(f->test_id);
	int i;

	for (i = 0; i < x->n; i++) {
		const char *e = x->name[i];

		if (strcmp(e, name) == 0 ||
		    (strncmp(e, f->test_id, tl) == 0 && e[tl] == '/' && strcmp(e + tl + 1, name) == 0))
			return x->why[i];
	}
	return NULL;
}

static const char *strip_prefix(const char *id)
{
	/* accept "matrix/NNN/<id>" as well as "<id>" */
	size_t n = strlen(suite_test);

	if (strncmp(id, suite_test, n) == 0 && id[n] == '/')
		return id + n + 1;
	return id;
}

/* A test leaves nothing behind: the idmapped mounts are detached and the
 * tree removed (the executor would otherwise report them as leaks). */
static void teardown(struct world *w)
{
	int i;

	for (i = 0; i < vt_map_axis_count && !w->fat; i++)
		if (vt_map_axes[i].spec)
			umount2(w->mnt[i], MNT_DETACH);
	if (w->fat)
		vt_vfat_teardown();
	if (w->p[0])
		vt_fx_remove(w->p);
	if (w->q[0])
		vt_fx_remove(w->q);	/* heals what only it knows to heal */
	vt_safe_remove_tree(w->base);
}

/* The case space of a program: its families one after another. */
struct space {
	const struct vt_family *const *fams;
	int nfam, total, base[16];
};

static const struct vt_family *space_case(const struct space *sp, int g, int *idx)
{
	int fi = sp->nfam - 1;

	while (fi > 0 && g < sp->base[fi])
		fi--;
	*idx = g - sp->base[fi];
	return sp->fams[fi];
}

/* Model mutants (model/break.h) as the sampler and the scorer count
 * them: every (mutation point, operator) pair, numbered. */
struct mutants {
	int n, npoints;
	int *point;		/* mutant -> point index */
	unsigned int *op;	/* mutant -> operator bit */
	int *slot;		/* point * 4 + operator bit number -> mutant */
};

static int mutants_init(struct mutants *mu)
{
	int p, b;

	memset(mu, 0, sizeof(*mu));
	mu->npoints = vt_mp_count();
	mu->point = calloc((size_t)mu->npoints * 4 + 1, sizeof(int));
	mu->op = calloc((size_t)mu->npoints * 4 + 1, sizeof(unsigned int));
	mu->slot = calloc((size_t)mu->npoints * 4 + 1, sizeof(int));
	if (!mu->point || !mu->op || !mu->slot)
		return -1;
	for (p = 0; p < mu->npoints; p++)
		for (b = 0; b < 4; b++) {
			mu->slot[p * 4 + b] = -1;
			if (vt_mp_ops(vt_mp_get(p)) & (1u << b)) {
				mu->slot[p * 4 + b] = mu->n;
				mu->point[mu->n] = p;
				mu->op[mu->n++] = 1u << b;
			}
		}
	return 0;
}

static void mutants_free(struct mutants *mu)
{
	free(mu->point);
	free(mu->op);
	free(mu->slot);
}

/* What a kernel doing exactly what expectation B says shows the
 * comparison (compare()): the errno, the caller's view, the disk. */
static void observe(const struct vt_world *w, const struct vt_mcase *c, const struct vt_expect *b,
		    struct vt_exec_reply *rep, struct vt_minode *disk, bool *obj_exists,
		    struct stat *st)
{
	const char *n = result_name(&c->op);
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

/* Per-mutant counts over a set of cases. */
struct mstats {
	uint32_t *reached, *differs, *kills;
	int *first_kill;	/* a killing case (index in the space), -1: none */
};

/* The model's answer to case IDX of F, and the mutants that change what
 * the comparison would see (killed); SEEN is scratch of mu->npoints bytes.
 * Only mutants whose value differs from the real one somewhere in the
 * case are tried: any other one computes the same answer. No system call. */
static int case_kills(const struct world *rw, const struct vt_family *f, int idx,
		      const struct mutants *mu, uint8_t *seen, int *out, struct vt_mcase *c,
		      struct vt_expect *b, struct vt_trace *tr, struct mstats *ms)
{
	struct vt_world w, w2;
	struct vt_mcase c2;
	struct vt_expect m;
	struct vt_trace tr2;
	struct vt_exec_reply rep;
	struct vt_minode disk;
	struct stat st;
	bool obj_exists;
	int p, bit, n = 0;

	memset(seen, 0, (size_t)mu->npoints + 1);
	vt_mp_seen = seen;
	model_case(rw, f, idx, c, &w, b, tr);
	vt_mp_seen = NULL;
	observe(&w, c, b, &rep, &disk, &obj_exists, &st);
	for (p = 0; p < mu->npoints; p++) {
		if (!seen[p])
			continue;
		for (bit = 0; bit < 4; bit++) {
			int mut = mu->slot[p * 4 + bit];
			struct vt_mpoint *pt;
			struct report r = { .off = 0 };

			if (mut < 0)
				continue;
			if (ms)
				ms->reached[mut]++;
			if (!(seen[p] & (1u << bit)))
				continue;
			if (ms)
				ms->differs[mut]++;
			pt = vt_mp_get(p);
			pt->active = 1u << bit;
			model_case(rw, f, idx, &c2, &w2, &m, &tr2);
			pt->active = 0;
			compare(&r, &w, c, &m, b->err, &rep, &disk, obj_exists, &st);
			if (r.diffs)
				out[n++] = mut;
		}
	}
	return n;
}

/* The sample: every case that runs in this world brings the rule
 * directions it decides (vt_coverage_items), for its family its mount
 * idmap and its caller, and the model mutants it kills (case_kills); the
 * greedy cover keeps the fewest cases that bring them all.
 * VT_SAMPLE_WITHOUT=slug leaves out every case that decides that rule
 * either way, VT_SAMPLE_WITHOUT_MUTANT=id every case that kills that
 * mutant (make check proves the accounting then shows the gap). With MS,
 * counts every candidate's kills there (the scorer). Returns the number
 * chosen, or -1. */
static int choose_sample(const struct world *rw, const struct space *sp,
			 const struct expunges *x, int *sel, char *note, size_t notelen,
			 const struct mutants *mu, struct mstats *ms)
{
	const char *without = getenv("VT_SAMPLE_WITHOUT");
	const char *without_mut = getenv("VT_SAMPLE_WITHOUT_MUTANT");
	enum vt_rule drop = VT_R_NONE;
	int drop_mut = -1;
	int nitems_rules = 2 * VT_R__COUNT;
	int nmap = vt_map_axis_count, ncall = vt_caller_axis_count;
	int nitems_axes = nitems_rules + sp->nfam * (nmap + ncall);
	int nitems = nitems_axes + mu->n;
	int nwords = (nitems + 63) / 64, g, ncand = 0, nchosen, nrules_only, fi, k;
	uint64_t *bits = calloc((size_t)sp->total * (size_t)nwords, sizeof(uint64_t));
	int *cand = malloc(sizeof(int) * (size_t)sp->total), *pick = malloc(sizeof(int) * (size_t)sp->total);
	int *kills = malloc(sizeof(int) * ((size_t)mu->n + 1));
	uint8_t *seen = malloc((size_t)mu->npoints + 1);
	uint64_t *covered_mut = calloc((size_t)nwords, sizeof(uint64_t));
	int killable = 0, killed = 0, killed_rules_only = 0;
	char nm[512], id[600];

	if (!bits || !cand || !pick || !kills || !seen || !covered_mut) {
		nchosen = -1;
		goto out;
	}
	if (without && *without) {
		drop = vt_rule_by_slug(without);
		if (drop == VT_R_NONE) {
			snprintf(note, notelen, "VT_SAMPLE_WITHOUT: no rule '%s'", without);
			nchosen = -1;
			goto out;
		}
	}
	if (without_mut && *without_mut) {
		for (k = 0; k < mu->n && drop_mut < 0; k++) {
			vt_mp_id(vt_mp_get(mu->point[k]), mu->op[k], id, sizeof(id));
			if (strcmp(id, without_mut) == 0)
				drop_mut = k;
		}
		if (drop_mut < 0) {
			snprintf(note, notelen, "VT_SAMPLE_WITHOUT_MUTANT: no mutant '%s'", without_mut);
			nchosen = -1;
			goto out;
		}
	}
	for (g = 0; g < sp->total; g++) {
		struct vt_mcase c;
		struct vt_expect e;
		struct vt_trace tr;
		uint64_t *row = bits + (size_t)ncand * nwords;
		int idx, pair, item, nk;
		const struct vt_family *f = space_case(sp, g, &idx);

		for (fi = 0; sp->fams[fi] != f; fi++)
			;
		memset(&c, 0, sizeof(c));
		f->make(idx % f->local_count, &c);
		if (*case_skip(rw, &c))
			continue;
		if (x->n) {
			case_name(f, idx, nm, sizeof(nm));
			if (expunged(x, f, nm))
				continue;
		}
		nk = case_kills(rw, f, idx, mu, seen, kills, &c, &e, &tr, ms);
		/* the space's kills, before any case is left out */
		for (k = 0; k < nk && ms; k++)
			if (!ms->kills[kills[k]]++)
				ms->first_kill[kills[k]] = g;
		if (drop != VT_R_NONE && tr.ev[drop])
			continue;
		for (k = 0; k < nk && drop_mut >= 0; k++)
			if (kills[k] == drop_mut)
				break;
		if (drop_mut >= 0 && k < nk)
			continue;
		vt_coverage_items(&tr, e.err, row);
		pair = idx / f->local_count;
		item = nitems_rules + fi * (nmap + ncall) + pair / ncall;
		row[item / 64] |= 1ULL << (item % 64);
		item = nitems_rules + fi * (nmap + ncall) + nmap + pair % ncall;
		row[item / 64] |= 1ULL << (item % 64);
		for (k = 0; k < nk; k++) {
			item = nitems_axes + kills[k];
			row[item / 64] |= 1ULL << (item % 64);
		}
		cand[ncand++] = g;
	}
	/* the size the rules and axes alone would need: the mutant items masked */
	{
		uint64_t *rows2 = malloc((size_t)ncand * (size_t)nwords * sizeof(uint64_t));

		nrules_only = -1;
		if (rows2) {
			for (g = 0; g < ncand; g++)
				for (k = 0; k < nwords; k++) {
					int lo = k * 64;
					uint64_t keep = lo + 64 <= nitems_axes ? ~0ULL
							: lo >= nitems_axes ? 0
							: (1ULL << (nitems_axes - lo)) - 1;

					rows2[(size_t)g * nwords + k] = bits[(size_t)g * nwords + k] & keep;
				}
			nrules_only = vt_sample_cover(rows2, ncand, nwords, pick);
			free(rows2);
			/* what that cover alone would kill */
			for (g = 0; g < nrules_only; g++)
				for (k = 0; k < nwords; k++)
					covered_mut[k] |= bits[(size_t)pick[g] * nwords + k];
			for (k = 0; k < mu->n; k++) {
				int item = nitems_axes + k;

				killed_rules_only += (covered_mut[item / 64] >> (item % 64)) & 1;
			}
			memset(covered_mut, 0, sizeof(uint64_t) * (size_t)nwords);
		}
	}
	nchosen = vt_sample_cover(bits, ncand, nwords, pick);
	for (g = 0; g < ncand; g++)
		for (k = 0; k < nwords; k++)
			covered_mut[k] |= bits[(size_t)g * nwords + k];
	for (k = 0; k < mu->n; k++) {
		int item = nitems_axes + k;

		killable += (covered_mut[item / 64] >> (item % 64)) & 1;
	}
	memset(covered_mut, 0, sizeof(uint64_t) * (size_t)nwords);
	for (g = 0; g < nchosen; g++) {
		sel[g] = cand[pick[g]];
		for (k = 0; k < nwords; k++)
			covered_mut[k] |= bits[(size_t)pick[g] * nwords + k];
	}
	for (k = 0; k < mu->n; k++) {
		int item = nitems_axes + k;

		killed += (covered_mut[item / 64] >> (item % 64)) & 1;
	}
	snprintf(note, notelen, "sample: %d of %d cases (%d can run here), chosen so that every rule "
		 "the world can express is decided both ways, with every mount idmap and caller in "
		 "each of %d families, and every model mutant some case can kill is killed "
		 "(%d mutants, %d killable here, %d killed by the sample; the rules and axes "
		 "alone would take %d cases and kill %d)%s%s%s%s",
		 nchosen, sp->total, ncand, sp->nfam, mu->n, killable, killed, nrules_only,
		 killed_rules_only,
		 drop != VT_R_NONE ? "; without the cases deciding " : "", drop != VT_R_NONE ? without : "",
		 drop_mut >= 0 ? "; without the cases killing " : "", drop_mut >= 0 ? without_mut : "");
out:
	free(bits);
	free(cand);
	free(pick);
	free(kills);
	free(seen);
	free(covered_mut);
	return nchosen;
}

/* The world a default mount of FSTYPE gives, without mounting anything
 * (the scorer's): POSIX ACLs, whiteouts and setuid exec where the fs has
 * them; the fs.protected_* sysctls, overflow ids and bounding set as this
 * machine has them (read from /proc once, not per case). The matrix's own
 * run probes these instead (setup()). */
static const char *assumed_world(struct world *w, const char *fstype)
{
	static char why[512];
	int i;

	memset(w, 0, sizeof(*w));
	if (vt_axes_init(why, sizeof(why)) < 0)
		return why;
	w->fstype = fstype;
	w->fat = vt_vfat_fstype(fstype);
	w->posixacl = !w->fat;	/* tmpfs, ext4, xfs, btrfs mount with SB_POSIXACL */
	if (w->fat)
		snprintf(w->no_whiteout, sizeof(w->no_whiteout),
			 "vfat has no RENAME_WHITEOUT (assumed, not probed)");
	w->bset_init = read_bset();
	i = (int)read_u32("/proc/sys/kernel/cap_last_cap", 40);
	w->cap_full = i >= 63 ? ~0ULL : (1ULL << (i + 1)) - 1;
	for (i = 0; i < VT_SYSCTL__COUNT; i++)
		w->sysctl_orig[i] = w->sysctl_cur[i] = (int)vt_sysctl_read(vt_sysctl_names[i], 0);
	w->sysctl_allowed = getenv("VT_ALLOW_SYSCTL") && strcmp(getenv("VT_ALLOW_SYSCTL"), "1") == 0;
	w->overflowuid = read_u32("/proc/sys/kernel/overflowuid", 65534);
	w->overflowgid = read_u32("/proc/sys/kernel/overflowgid", 65534);
	return NULL;
}

/* Why mutant K survives every case of the space (it is equivalent in this
 * world), from what the analysis saw. */
static void equivalence_reason(const struct mutants *mu, const struct mstats *ms, int k, char *buf,
			       size_t len)
{
	const struct vt_mpoint *p = vt_mp_get(mu->point[k]);

	if (!ms->reached[k] && p->kind == VT_MPK_GUARD)
		snprintf(buf, len, "the refusal never happens: no case of this world is refused by "
			 "%s in %s%s", p->kfn, p->func,
			 strstr(p->file, "vfat") ? " (vfat worlds only)" : "");
	else if (!ms->reached[k])
		snprintf(buf, len, "not reached: no case of this world evaluates %s in %s%s", p->kfn,
			 p->func, strstr(p->file, "vfat") ? " (vfat worlds only)" : "");
	else if (!ms->differs[k] && mu->op[k] == VT_MOP_IDENTITY)
		snprintf(buf, len, "reached in %u cases, but there the translation is the identity "
			 "on every id it is given", ms->reached[k]);
	else if (!ms->differs[k] && mu->op[k] == VT_MOP_SWAP)
		snprintf(buf, len, "reached in %u cases, but there the uid and the gid helper give "
			 "the same id", ms->reached[k]);
	else if (!ms->differs[k])
		snprintf(buf, len, "reached in %u cases, but there the scope is the same with and "
			 "without the mount's idmap", ms->reached[k]);
	else
		snprintf(buf, len, "its value differs in %u of the %u cases reaching it, but no "
			 "outcome the matrix observes changes (a later rule decides the same)",
			 ms->differs[k], ms->reached[k]);
}

/* Writes PATH atomically (PATH.tmp, then rename); -1 with errno. */
static int write_score_tsv(const char *path, const struct space *sp, const struct mutants *mu,
			   const struct mstats *ms, const uint32_t *sel_kills)
{
	char tmp[4200], id[600], why[400], nm[512] = "";
	FILE *fp;
	int k, ok;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fp = fopen(tmp, "we");
	if (!fp)
		return -1;
	fprintf(fp, "mutant\tmodel_function\tkernel_function\tkilled_by_selection\tkilled_by_full\t"
		    "killing_case\tstatus\treason\n");
	for (k = 0; k < mu->n; k++) {
		const struct vt_mpoint *p = vt_mp_get(mu->point[k]);

		vt_mp_id(p, mu->op[k], id, sizeof(id));
		nm[0] = 0;
		why[0] = 0;
		if (ms->first_kill[k] >= 0) {
			int idx;
			const struct vt_family *f = space_case(sp, ms->first_kill[k], &idx);

			case_name(f, idx, nm, sizeof(nm));
			if (!sel_kills[k])
				snprintf(why, sizeof(why), "killed only outside the selection");
		} else {
			equivalence_reason(mu, ms, k, why, sizeof(why));
		}
		fprintf(fp, "%s\t%s\t%s\t%u\t%u\t%s\t%s\t%s\n", id, p->func, vt_mp_kernel_text(p),
			sel_kills[k], ms->kills[k], nm[0] ? nm : "-",
			sel_kills[k] ? "killed" : ms->kills[k] ? "survived" : "equivalent", why);
	}
	ok = !ferror(fp);
	if (fclose(fp) != 0)
		ok = 0;
	if (!ok || rename(tmp, path) < 0) {
		int e = errno;

		unlink(tmp);
		errno = e ? e : EIO;
		return -1;
	}
	return 0;
}

/* vfsidmap-tool mutation-score: which model mutants the cases of SELECT
 * (the quick sample, a family, or every case) kill, computed from the
 * model alone in the assumed world of FSTYPE. Exit 0: every mutant that
 * some case of the space kills is killed by the selection; 1: some
 * survive; 2: bad input or no memory. */
static int matrix_score(const struct space *sp, const char *fstype, const char *select,
			const char *tsv)
{
	static char note[900], id[600], why[400];
	struct world rw;
	struct expunges x;
	struct mutants mu;
	struct mstats ms = { 0 };
	uint32_t *sel_kills;
	int *sample, *kills, nsample, k, g, fam = -1, nsel = 0, nkilled = 0, nsurv = 0, nequiv = 0;
	bool is_sample = false, is_full = false;
	uint8_t *seen;
	const char *selname, *why_not;

	if (!select || !*select || strcmp(select, "all") == 0 || strcmp(select, "matrix") == 0 ||
	    strcmp(select, "idmapped") == 0 || strcmp(select, "full") == 0) {
		is_full = true;
		selname = "every case of the matrix";
	} else if (strcmp(select, "quick") == 0 || strcmp(select, "matrix/011") == 0 ||
		   strcmp(select, "sample") == 0) {
		is_sample = true;
		selname = "the quick sample (matrix/011)";
	} else {
		for (k = 0; k < sp->nfam && fam < 0; k++)
			if (strcmp(select, sp->fams[k]->name) == 0 ||
			    strcmp(select, sp->fams[k]->test_id) == 0)
				fam = k;
		if (fam < 0) {
			fprintf(stderr, "vfsidmap: mutation-score: '%s' is no group, family or matrix "
				"test (quick, matrix/011, all, or one of:", select);
			for (k = 0; k < sp->nfam; k++)
				fprintf(stderr, " %s (%s)", sp->fams[k]->test_id, sp->fams[k]->name);
			fprintf(stderr, ")\n");
			return 2;
		}
		selname = sp->fams[fam]->test_id;
	}
	if ((why_not = assumed_world(&rw, fstype))) {
		fprintf(stderr, "vfsidmap: mutation-score: %s\n", why_not);
		return 2;
	}
	expunges_load(&x);
	vt_mut_clear();
	if (mutants_init(&mu) < 0)
		return 2;
	ms.reached = calloc((size_t)mu.n + 1, sizeof(uint32_t));
	ms.differs = calloc((size_t)mu.n + 1, sizeof(uint32_t));
	ms.kills = calloc((size_t)mu.n + 1, sizeof(uint32_t));
	ms.first_kill = malloc(sizeof(int) * ((size_t)mu.n + 1));
	sel_kills = calloc((size_t)mu.n + 1, sizeof(uint32_t));
	sample = malloc(sizeof(int) * (size_t)sp->total);
	kills = malloc(sizeof(int) * ((size_t)mu.n + 1));
	seen = malloc((size_t)mu.npoints + 1);
	if (!ms.reached || !ms.differs || !ms.kills || !ms.first_kill || !sel_kills || !sample ||
	    !kills || !seen)
		return 2;
	for (k = 0; k < mu.n; k++)
		ms.first_kill[k] = -1;
	/* the whole space once: every candidate's kills (and the sample) */
	nsample = choose_sample(&rw, sp, &x, sample, note, sizeof(note), &mu, &ms);
	if (nsample < 0) {
		fprintf(stderr, "vfsidmap: mutation-score: %s\n", note[0] ? note : "out of memory");
		return 2;
	}
	if (is_full) {
		memcpy(sel_kills, ms.kills, sizeof(uint32_t) * (size_t)mu.n);
		nsel = -1;
	} else {
		int n = is_sample ? nsample : sp->total;

		for (k = 0; k < n; k++) {
			struct vt_mcase c;
			struct vt_expect e;
			struct vt_trace tr;
			int idx, nk, j;
			const struct vt_family *f;

			g = is_sample ? sample[k] : k;
			f = space_case(sp, g, &idx);
			if (!is_sample && f != sp->fams[fam])
				continue;
			memset(&c, 0, sizeof(c));
			f->make(idx % f->local_count, &c);
			if (*case_skip(&rw, &c))
				continue;
			case_name(f, idx, note, sizeof(note));
			if (x.n && expunged(&x, f, note))
				continue;
			nsel++;
			nk = case_kills(&rw, f, idx, &mu, seen, kills, &c, &e, &tr, NULL);
			for (j = 0; j < nk; j++)
				sel_kills[kills[j]]++;
		}
	}
	for (k = 0; k < mu.n; k++) {
		if (sel_kills[k])
			nkilled++;
		else if (ms.kills[k])
			nsurv++;
		else
			nequiv++;
	}
	printf("Mutation score on %s (assumed world: posixacl=%d whiteout=%d exec=1 "
	       "fs.protected_symlinks/hardlinks/fifos/regular=%d/%d/%d/%d%s), %s",
	       fstype, rw.posixacl, !rw.no_whiteout[0], rw.sysctl_orig[0], rw.sysctl_orig[1],
	       rw.sysctl_orig[2], rw.sysctl_orig[3], rw.sysctl_allowed ? ", VT_ALLOW_SYSCTL=1" : "",
	       selname);
	if (nsel >= 0)
		printf(" (%d cases)", nsel);
	printf(":\n  %d mutants (%d mutation points): %d killed, %d survived, %d equivalent in this "
	       "world\n  score: %d of %d non-equivalent mutants killed (%.1f%%)\n",
	       mu.n, mu.npoints, nkilled, nsurv, nequiv, nkilled, nkilled + nsurv,
	       nkilled + nsurv ? 100.0 * nkilled / (nkilled + nsurv) : 100.0);
	printf("\n  %-22s %8s %7s %9s %11s\n", "model file", "mutants", "killed", "survived",
	       "equivalent");
	{
		const char *files[64];
		int nf = 0, f2, cnt[64][4];

		memset(cnt, 0, sizeof(cnt));
		for (k = 0; k < mu.n; k++) {
			const char *file = strrchr(vt_mp_get(mu.point[k])->file, '/');

			file = file ? file + 1 : vt_mp_get(mu.point[k])->file;
			for (f2 = 0; f2 < nf && strcmp(files[f2], file); f2++)
				;
			if (f2 == nf && nf < 64)
				files[nf++] = file;
			if (f2 < 64) {
				cnt[f2][0]++;
				cnt[f2][sel_kills[k] ? 1 : ms.kills[k] ? 2 : 3]++;
			}
		}
		for (f2 = 0; f2 < nf; f2++)
			printf("  %-22s %8d %7d %9d %11d\n", files[f2], cnt[f2][0], cnt[f2][1],
			       cnt[f2][2], cnt[f2][3]);
	}
	if (nsurv) {
		printf("\n  survivors (killed by the case named, outside the selection):\n");
		for (k = 0; k < mu.n; k++)
			if (!sel_kills[k] && ms.kills[k]) {
				int idx;
				const struct vt_family *f = space_case(sp, ms.first_kill[k], &idx);

				vt_mp_id(vt_mp_get(mu.point[k]), mu.op[k], id, sizeof(id));
				case_name(f, idx, note, sizeof(note));
				printf("    %s  (%s/%s)\n", id, f->test_id, note);
			}
	}
	if (nequiv) {
		printf("\n  equivalent in this world (no case of the whole matrix tells them apart):\n");
		for (k = 0; k < mu.n; k++)
			if (!ms.kills[k]) {
				vt_mp_id(vt_mp_get(mu.point[k]), mu.op[k], id, sizeof(id));
				equivalence_reason(&mu, &ms, k, why, sizeof(why));
				printf("    %s: %s\n", id, why);
			}
	}
	if (tsv && *tsv) {
		if (write_score_tsv(tsv, sp, &mu, &ms, sel_kills) < 0) {
			fprintf(stderr, "vfsidmap: mutation-score: cannot write %s: %s\n", tsv,
				strerror(errno));
			return 2;
		}
		printf("\n  written: %s\n", tsv);
	}
	fflush(stdout);
	mutants_free(&mu);
	return nsurv ? 1 : 0;
}

static int matrix_run(const struct space *sp, bool sample, const char *base_name, int argc,
		      char **argv)
{
	static char nm[512], self[4096], note[600];
	const char *only = argc > 1 ? argv[1] : getenv("VT_CASE");
	const char *shard = getenv("VT_SHARD"), *seed = getenv("VT_SEED"), *why;
	const char *covpath = getenv("VT_RULE_COVERAGE");
	int *sel, nsel = 0, i, fails = 0, si = 1, sn = 1;
	struct vt_coverage cov;
	struct vt_world_facts facts;
	struct expunges x;
	struct vt_ktap k;
	struct world w;

	snprintf(self, sizeof(self), "%s", argv[0]);
	{
		static char probe[4200];
		char d[4096];

		snprintf(d, sizeof(d), "%s", argv[0]);
		snprintf(probe, sizeof(probe), "%s/exec-probe", dirname(d));
		vt_fx_probe_path = probe;
	}
	{
		static char st[600];
		char *b = basename(self);

		snprintf(st, sizeof(st), "matrix/%s", b);
		suite_test = st;
	}
	if (argc > 1 && strcmp(argv[1], "--list-cases") == 0) {
		for (i = 0; i < sp->total; i++) {
			int idx;
			const struct vt_family *f = space_case(sp, i, &idx);

			case_name(f, idx, nm, sizeof(nm));
			puts(nm);
		}
		return 0;
	}
	if (shard && *shard && (sscanf(shard, "%d/%d", &si, &sn) != 2 || sn < 1 || si < 1 || si > sn)) {
		fprintf(stderr, "VT_SHARD must be i/n with 1 <= i <= n\n");
		return 2;
	}
	sel = calloc((size_t)sp->total, sizeof(*sel));
	if (!sel)
		return 2;
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	vt_ktap_init(&k, stdout, 0);
	memset(&w, 0, sizeof(w));
	memset(&cov, 0, sizeof(cov));
	expunges_load(&x);
	note[0] = 0;
	{
		int nbreak;
		const char *brk = vt_mut_env(&nbreak);

		/* bad input: before anything is built */
		if (brk && nbreak < 0) {
			vt_ktap_header(&k, 0);
			vt_ktap_diag(&k, "VT_MODEL_BREAK=%s names no model mutant (runner/vfsidmap-tool "
				     "mutants lists them)", brk);
			fflush(stdout);
			return 2;
		}
	}
	why = setup(&w, base_name);
	if (why) {
		teardown(&w);
		vt_ktap_header(&k, -1);
		vt_ktap_skip_all(&k, why);
		return 4;
	}
	world_facts(&w, &facts);
	if (sample && !(only && *only)) {
		struct mutants mu;
		int n = -1, nbreak;
		const char *brk = vt_mut_env(&nbreak);

		/* the sample is the right model's choice, whatever VT_MODEL_BREAK
		 * then makes the cases expect */
		vt_mut_clear();
		if (mutants_init(&mu) == 0)
			n = choose_sample(&w, sp, &x, sel, note, sizeof(note), &mu, NULL);
		mutants_free(&mu);
		if (brk)
			vt_mut_set(brk);

		if (n < 0) {
			teardown(&w);
			vt_ktap_header(&k, 0);
			vt_ktap_diag(&k, "%s", note[0] ? note : "sample: out of memory");
			return 2;
		}
		/* the shard applies to the sample */
		for (i = 0; i < n; i++)
			if (i % sn == si - 1)
				sel[nsel++] = sel[i];
	} else {
		for (i = 0; i < sp->total; i++) {
			if (i % sn != si - 1)
				continue;
			if (only && *only) {
				int idx;
				const struct vt_family *f = space_case(sp, i, &idx);

				case_name(f, idx, nm, sizeof(nm));
				if (strcmp(nm, strip_prefix(only)) != 0)
					continue;
			}
			sel[nsel++] = i;
		}
	}
	if (seed && *seed) {
		unsigned long long s = strtoull(seed, NULL, 0) * 6364136223846793005ULL + 1;

		for (i = nsel - 1; i > 0; i--) {
			int j, t;

			s = s * 6364136223846793005ULL + 1442695040888963407ULL;
			j = (int)((s >> 33) % (unsigned long long)(i + 1));
			t = sel[i];
			sel[i] = sel[j];
			sel[j] = t;
		}
	}
	if (only && *only && nsel == 0) {
		teardown(&w);
		vt_ktap_header(&k, 0);
		vt_ktap_diag(&k, "no case named %s in %s", only, suite_test);
		return 1;
	}
	vt_ktap_header(&k, nsel);
	vt_ktap_diag(&k, "%s on %s: %d of %d cases (posixacl=%d fs.protected_symlinks/hardlinks/"
		     "fifos/regular=%d/%d/%d/%d%s%s)",
		     suite_test, w.fstype, nsel, sp->total, w.posixacl,
		     w.sysctl_orig[0], w.sysctl_orig[1], w.sysctl_orig[2], w.sysctl_orig[3],
		     getenv("VT_MODEL_BREAK") ? " VT_MODEL_BREAK=" : "",
		     getenv("VT_MODEL_BREAK") ? getenv("VT_MODEL_BREAK") : "");
	if (note[0])
		vt_ktap_diag(&k, "%s", note);
	for (i = 0; i < nsel; i++) {
		int idx;
		const struct vt_family *f = space_case(sp, sel[i], &idx);
		const char *why_skip;

		case_name(f, idx, nm, sizeof(nm));
		why_skip = expunged(&x, f, nm);
		if (why_skip) {
			char msg[1100];

			snprintf(msg, sizeof(msg), "expunged: %s", why_skip);
			vt_ktap_result(&k, VT_SKIP, nm, msg);
			continue;
		}
		if (!run_case(&w, f, idx, &k, nm, &cov))
			fails++;
	}
	teardown(&w);
	vt_ktap_diag(&k, "%d of %d cases mismatched", fails, nsel);
	{
		char sum[2600];

		vt_coverage_summary(&cov, &facts, sum, sizeof(sum));
		vt_ktap_diag(&k, "rule coverage: %s", sum);
	}
	if (covpath && *covpath && vt_coverage_write(&cov, &facts, covpath) < 0)
		vt_ktap_diag(&k, "cannot write the rule coverage to %s: %s", covpath, vt_errname(errno));
	free(sel);
	fflush(stdout);
	return fails ? 1 : 0;
}

/* A family vfat cannot hold: nothing to list, the whole test notrun. */
static int matrix_not_here(const char *why, int argc, char **argv)
{
	struct vt_ktap k;

	if (argc > 1 && strcmp(argv[1], "--list-cases") == 0)
		return 0;
	vt_ktap_init(&k, stdout, 0);
	vt_ktap_header(&k, -1);
	vt_ktap_skip_all(&k, why);
	fflush(stdout);
	return 4;
}

int vt_matrix_main(const struct vt_family *f, int argc, char **argv)
{
	const char *why = NULL;
	const struct vt_family *const one[1] = {
		f = vt_vfat_fstype(getenv("FSTYP")) ? vt_vfat_family(f, &why) : f
	};
	struct space sp;

	if (!f)
		return matrix_not_here(why, argc, argv);
	sp = (struct space){ one, 1, f->local_count * vt_map_axis_count * vt_caller_axis_count, { 0 } };
	return matrix_run(&sp, false, f->name, argc, argv);
}

int vt_matrix_sample_main(const struct vt_family *const *fams, int nfam, int argc, char **argv)
{
	const struct vt_family *fat[16];
	struct space sp = { fams, nfam, 0, { 0 } };
	const char *why;
	int i, n = 0;

	/* --mutation-score [--fs FSTYPE] [--tsv PATH] [SELECTION]: the scorer */
	bool score = argc > 1 && strcmp(argv[1], "--mutation-score") == 0;
	const char *fstype = "tmpfs", *select = NULL, *tsv = NULL;

	if (nfam < 1 || nfam > 16)
		return 2;
	if (argc == 2 && strcmp(argv[1], "--list-mutants") == 0) {
		int nm = vt_mp_count(), b;
		char id[600];

		for (i = 0; i < nm; i++)
			for (b = 1; b <= (int)VT_MOP__ALL; b <<= 1)
				if (vt_mp_ops(vt_mp_get(i)) & (unsigned int)b) {
					const struct vt_mpoint *p = vt_mp_get(i);

					vt_mp_id(p, (unsigned int)b, id, sizeof(id));
					printf("%s\t%s\t%d\t%s\t%s\n", id, p->file, p->line, p->func,
					       vt_mp_kernel_text(p));
				}
		return fflush(stdout) == 0 ? 0 : 2;
	}
	for (i = 2; score && i < argc; i++) {
		if ((strcmp(argv[i], "--fs") == 0 || strcmp(argv[i], "--tsv") == 0) && i + 1 < argc) {
			*(argv[i][2] == 'f' ? &fstype : &tsv) = argv[i + 1];
			i++;
		} else if (argv[i][0] != '-' && !select) {
			select = argv[i];
		} else {
			fprintf(stderr, "vfsidmap: mutation-score: unexpected argument '%s' (usage: "
				"mutation-score [--fs FSTYPE] [--tsv PATH] [quick|all|matrix/NNN|family])\n",
				argv[i]);
			return 2;
		}
	}
	if (score) {
		if (strcmp(fstype, "tmpfs") && strcmp(fstype, "ext4") && strcmp(fstype, "xfs") &&
		    strcmp(fstype, "btrfs") && strcmp(fstype, "vfat")) {
			fprintf(stderr, "vfsidmap: mutation-score: --fs: unknown filesystem '%s' "
				"(known: ext4,xfs,btrfs,tmpfs,vfat)\n", fstype);
			return 2;
		}
		setenv("FSTYP", fstype, 1);
	}
	if (vt_vfat_fstype(getenv("FSTYP"))) {
		/* the vfat counterparts; a family vfat cannot hold leaves the sample */
		for (i = 0; i < nfam; i++)
			if ((fat[n] = vt_vfat_family(fams[i], &why)))
				n++;
		sp.fams = fat;
		sp.nfam = nfam = n;
	}
	for (i = 0; i < nfam; i++) {
		sp.base[i] = sp.total;
		sp.total += sp.fams[i]->local_count * vt_map_axis_count * vt_caller_axis_count;
	}
	if (score)
		return matrix_score(&sp, fstype, select, tsv);
	return matrix_run(&sp, true, "sample", argc, argv);
}
