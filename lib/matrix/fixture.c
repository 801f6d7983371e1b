/* Writing and reading object state on disk (see fixture.h). */
#include "matrix/fixture.h"
#include "world/xattr_view.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/openat2.h>

#ifndef SYS_openat2
#define SYS_openat2 437	/* the same on every architecture */
#endif
#include <sys/xattr.h>
#include <unistd.h>

size_t vt_fx_acl_encode(const uint16_t *tag, const uint16_t *perm, const uint32_t *id, int n,
			void *buf, size_t len)
{
	unsigned char *p = buf;
	size_t need = 4 + 8 * (size_t)n;
	int k;

	if (need > len)
		return 0;
	/* little endian: header { le32 a_version = 2 } */
	p[0] = 2;
	p[1] = p[2] = p[3] = 0;
	for (k = 0; k < n; k++) {
		unsigned char *e = p + 4 + 8 * k;

		e[0] = tag[k] & 0xff;
		e[1] = tag[k] >> 8;
		e[2] = perm[k] & 0xff;
		e[3] = perm[k] >> 8;
		e[4] = id[k] & 0xff;
		e[5] = (id[k] >> 8) & 0xff;
		e[6] = (id[k] >> 16) & 0xff;
		e[7] = id[k] >> 24;
	}
	return need;
}

static int write_acl(const char *path, const struct vt_acl_kentry *a, int n, bool dflt)
{
	uint16_t tag[VT_MODEL_MAX_ACL], perm[VT_MODEL_MAX_ACL];
	uint32_t id[VT_MODEL_MAX_ACL];
	char buf[4 + 8 * VT_MODEL_MAX_ACL];
	size_t len;
	int k;

	for (k = 0; k < n; k++) {
		tag[k] = a[k].tag;
		perm[k] = a[k].perm;
		id[k] = a[k].tag == VT_ACL_USER ? a[k].uid.val
			: a[k].tag == VT_ACL_GROUP ? a[k].gid.val : VT_ID_INVALID;
	}
	len = vt_fx_acl_encode(tag, perm, id, n, buf, sizeof(buf));
	return lsetxattr(path, dflt ? "system.posix_acl_default" : "system.posix_acl_access", buf,
			 len, 0) < 0 ? -errno : 0;
}

const char *vt_fx_probe_path = "exec-probe";

/* Copies the exec-probe program into FD. Its bytes are read once and
 * kept: matrix/010 writes a copy for each of its thousands of cases. */
static int copy_probe(int fd)
{
	static char *img;
	static size_t len;
	size_t off = 0;
	ssize_t n = 0;

	if (!img) {
		struct stat st;
		int in = open(vt_fx_probe_path, O_RDONLY | O_CLOEXEC);
		char *b;

		if (in < 0)
			return -1;
		if (fstat(in, &st) < 0 || !(b = malloc((size_t)st.st_size + 1))) {
			close(in);
			return -1;
		}
		/* to end of file: a probe that changed size while read is short */
		while (len <= (size_t)st.st_size &&
		       (n = read(in, b + len, (size_t)st.st_size + 1 - len)) > 0)
			len += (size_t)n;
		if (n < 0 || len != (size_t)st.st_size) {
			int e = n < 0 ? errno : EIO;

			close(in);
			free(b);
			len = 0;
			errno = e;
			return -1;
		}
		close(in);
		img = b;
	}
	while (off < len) {
		n = write(fd, img + off, len - off);
		if (n <= 0) {
			errno = n < 0 ? errno : EIO;
			return -1;
		}
		off += (size_t)n;
	}
	return 0;
}

/* The directories the fixtures live under, open (O_PATH): a path below
 * one is walked from its fd, not from / again (a case's fixtures, its
 * observation and its removal are a dozen system calls on paths seven
 * components deep; the walk was a quarter of their time). */
#define FX_BASES 4
static struct {
	char dir[4096];
	size_t len;
	int fd;
} bases[FX_BASES];
static int nbases;

int vt_fx_base_add(const char *dir)
{
	size_t len = strlen(dir);
	int fd;

	if (nbases == FX_BASES || len == 0 || len >= sizeof(bases[0].dir))
		return -EINVAL;
	fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	memcpy(bases[nbases].dir, dir, len + 1);
	bases[nbases].len = len;
	bases[nbases].fd = fd;
	nbases++;
	return 0;
}

void vt_fx_bases_drop(void)
{
	while (nbases > 0)
		close(bases[--nbases].fd);
}

/* PATH as a directory fd and a path relative to it (AT_FDCWD and PATH
 * itself when it is under no base) */
static const char *fx_rel(const char *path, int *dfd)
{
	int b;

	for (b = 0; b < nbases; b++)
		if (strncmp(path, bases[b].dir, bases[b].len) == 0 && path[bases[b].len] == '/' &&
		    path[bases[b].len + 1]) {
			*dfd = bases[b].fd;
			return path + bases[b].len + 1;
		}
	*dfd = AT_FDCWD;
	return path;
}

int vt_fx_lstat(const char *path, struct stat *st)
{
	int dfd;
	const char *rel = fx_rel(path, &dfd);

	return fstatat(dfd, rel, st, AT_SYMLINK_NOFOLLOW);
}

int vt_fx_write(const char *path, const struct vt_minode *i, const char **what)
{
	int dfd, fd;
	const char *rel = fx_rel(path, &dfd);

#define STEP(w, expr)                 \
	do {                          \
		if ((expr) < 0) {     \
			*what = (w);  \
			return -errno; \
		}                     \
	} while (0)
	switch (i->mode & S_IFMT) {
	case S_IFDIR:
		STEP("mkdir", mkdirat(dfd, rel, 0700));
		break;
	case S_IFIFO:
		STEP("mkfifo", mknodat(dfd, rel, S_IFIFO | 0600, 0));
		break;
	case S_IFLNK:
		STEP("symlink", symlinkat(i->symlink_to_t ? "t" : "o", dfd, rel));
		break;
	default:
		fd = openat(dfd, rel, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
		STEP("create", fd);
		if (i->exec_probe && copy_probe(fd) < 0) {
			*what = "copy exec-probe";
			close(fd);
			return -errno;
		}
		if (i->nonempty && write(fd, "x", 1) != 1) {
			*what = "write";
			close(fd);
			return -EIO;
		}
		close(fd);
	}
	STEP("lchown", fchownat(dfd, rel, i->uid.val, i->gid.val, AT_SYMLINK_NOFOLLOW));
	if (!S_ISLNK(i->mode))
		STEP("chmod", fchmodat(dfd, rel, i->mode & 07777, 0));
	if (i->nacl) {
		int r = write_acl(path, i->acl, i->nacl, false);
		if (r < 0) {
			*what = "setxattr(system.posix_acl_access)";
			errno = -r;
			return r;
		}
	}
	if (i->ndefacl) {
		int r = write_acl(path, i->defacl, i->ndefacl, true);
		if (r < 0) {
			*what = "setxattr(system.posix_acl_default)";
			errno = -r;
			return r;
		}
	}
	if (i->user_xattr)
		STEP("setxattr(user.vt)", lsetxattr(path, "user.vt", "1", 1, 0));
	if (i->trusted_xattr)
		STEP("setxattr(trusted.vt)", lsetxattr(path, "trusted.vt", "1", 1, 0));
	if (i->security_xattr)
		STEP("setxattr(security.vt)", lsetxattr(path, "security.vt", "1", 1, 0));
	if (i->fcaps.version) {
		struct vt_fcaps c = { .version = i->fcaps.version, .effective = true,
				      .permitted = 1ULL << 13 /* CAP_NET_RAW */,
				      .rootid = i->fcaps.rootid.val };
		int r = vt_fcaps_write(path, &c);
		if (r < 0) {
			*what = "setxattr(security.capability)";
			errno = -r;
			return r;
		}
	}
	if (i->old_atime) {
		struct timespec t[2] = { { VT_FX_OLD_ATIME, 0 }, { 0, UTIME_OMIT } };

		STEP("utimensat(atime)", utimensat(dfd, rel, t, AT_SYMLINK_NOFOLLOW));
	}
#undef STEP
	return 0;
}

static int read_acl(const char *path, bool dflt, struct vt_acl_kentry *out)
{
	struct vt_acl_entry e[VT_ACL_MAX_ENTRIES];
	int n = vt_acl_read(path, dflt, e, VT_ACL_MAX_ENTRIES), k;

	if (n <= 0)
		return 0;
	if (n > VT_MODEL_MAX_ACL)
		n = VT_MODEL_MAX_ACL;
	for (k = 0; k < n; k++) {
		out[k].tag = e[k].tag;
		out[k].perm = e[k].perm;
		out[k].uid = vt_kuid(e[k].tag == VT_ACL_USER ? e[k].id : VT_ID_INVALID);
		out[k].gid = vt_kgid(e[k].tag == VT_ACL_GROUP ? e[k].id : VT_ID_INVALID);
	}
	return n;
}

void vt_fx_read(const char *path, struct vt_minode *i)
{
	struct stat st;
	struct vt_fcaps c;
	char v[8];

	memset(i, 0, sizeof(*i));
	if (vt_fx_lstat(path, &st) < 0)
		return;
	i->exists = true;
	i->nonempty = st.st_size > 0;
	i->mode = st.st_mode;
	i->uid = vt_kuid(st.st_uid);
	i->gid = vt_kgid(st.st_gid);
	if (S_ISLNK(st.st_mode))
		return;
	/* no extended attribute at all (most objects): one system call
	 * instead of the five reads below. An ACL is listed by every
	 * filesystem that stores one (posix_acl_listxattr, or the name it
	 * keeps on disk), as is security.capability. */
	if (llistxattr(path, NULL, 0) == 0)
		return;
	i->nacl = read_acl(path, false, i->acl);
	if (S_ISDIR(st.st_mode))
		i->ndefacl = read_acl(path, true, i->defacl);
	if (vt_fcaps_read(path, &c) == 0) {
		i->fcaps.version = c.version;
		i->fcaps.rootid = vt_kuid(c.version == 3 ? c.rootid : 0);
	}
	i->user_xattr = lgetxattr(path, "user.vt", v, sizeof(v)) >= 0;
	i->trusted_xattr = lgetxattr(path, "trusted.vt", v, sizeof(v)) >= 0;
	i->security_xattr = lgetxattr(path, "security.vt", v, sizeof(v)) >= 0;
}

/* Unlinks NAME in directory DFD. A whiteout made through an idmapped
 * mount by a caller whose fsuid/fsgid do not map is owned by INVALID_UID
 * (matrix/007, rename-whiteout-over-t): may_delete() refuses it to
 * everyone (EOVERFLOW), chown_ok() lets the initial root give it an owner
 * or group ("!vfsuid_valid && ns_capable(CAP_CHOWN)"), one id at a time
 * when only one is invalid (otherwise capable_wrt_inode_uidgid fails on
 * the invalid one). */
static bool unlink_at(int dfd, const char *name)
{
	if (unlinkat(dfd, name, 0) == 0)
		return true;
	if (errno != EOVERFLOW)
		return false;
	if (fchownat(dfd, name, 0, 0, AT_SYMLINK_NOFOLLOW) < 0) {
		fchownat(dfd, name, (uid_t)-1, 0, AT_SYMLINK_NOFOLLOW);
		fchownat(dfd, name, 0, (gid_t)-1, AT_SYMLINK_NOFOLLOW);
	}
	return unlinkat(dfd, name, 0) == 0;
}

/* Opens directory NAME in DFD to empty it, never across a mount point
 * (RESOLVE_NO_XDEV: what is mounted below a fixture is not the case's;
 * the rmdir of its mount point then fails EBUSY and the removal stops
 * there). openat2 is Linux 5.6, older than idmapped mounts (5.12). */
static int open_subdir(int dfd, const char *name)
{
	struct open_how how = { .flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC,
				.resolve = RESOLVE_NO_XDEV | RESOLVE_NO_SYMLINKS };

	return (int)syscall(SYS_openat2, dfd, name, &how, sizeof(how));
}

/* Empties the directory open as DFD (NAME in PFD), closes it and removes
 * it. Everything relative to the directory's fd, and by the directory's
 * own entry types (d_type), so that an entry costs its unlink alone: no
 * lookup of the whole path again and no lstat (nftw's way; a case's
 * objects are removed thousands of times a second). One getdents64 a
 * round: when rmdir then says ENOTEMPTY (more entries than a buffer
 * holds, or one made meanwhile), another round, as long as the last one
 * removed something. A filesystem without d_type (DT_UNKNOWN) is asked. */
static bool remove_open_dir(int pfd, const char *name, int dfd, int depth)
{
	char buf[8192] __attribute__((aligned(8)));
	struct d64 {
		uint64_t ino;
		int64_t off;
		unsigned short reclen;
		unsigned char type;
		char name[];
	} *d;
	int removed;
	ssize_t n;
	long pos;

	for (;;) {
		removed = 0;
		n = syscall(SYS_getdents64, dfd, buf, sizeof(buf));
		for (pos = 0; pos < n; pos += d->reclen) {
			unsigned char type;
			struct stat st;

			d = (struct d64 *)(buf + pos);
			if (d->name[0] == '.' && (!d->name[1] || (d->name[1] == '.' && !d->name[2])))
				continue;
			type = d->type;
			if (type == DT_UNKNOWN && fstatat(dfd, d->name, &st, AT_SYMLINK_NOFOLLOW) == 0)
				type = S_ISDIR(st.st_mode) ? DT_DIR : DT_REG;
			if (type == DT_DIR && depth < 32) {
				int sub = open_subdir(dfd, d->name);

				if (sub >= 0 && remove_open_dir(dfd, d->name, sub, depth + 1))
					removed++;
			} else if (type != DT_DIR && unlink_at(dfd, d->name)) {
				removed++;
			}
		}
		close(dfd);
		if (unlinkat(pfd, name, AT_REMOVEDIR) == 0)
			return true;
		if (errno != ENOTEMPTY || !removed)
			return false;
		dfd = depth ? open_subdir(pfd, name)
			    : openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (dfd < 0)
			return false;
	}
}

/* nftw's callback for a path under no base (the option-owner worlds:
 * vfat, msdos, exfat, whose cases run one at a time) */
static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink_at(AT_FDCWD, path);
	return 0;
}

void vt_fx_remove(const char *path)
{
	int pfd, dfd;
	const char *rel = fx_rel(path, &pfd);
	struct stat st;

	if (pfd == AT_FDCWD) {
		/* by path, with nftw: where there is no base directory fd
		 * (a case alone at a time), the cost is not measured to matter */
		if (lstat(path, &st) < 0)
			return;
		if (!S_ISDIR(st.st_mode))
			unlink_at(AT_FDCWD, path);
		else
			nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
		return;
	}
	dfd = openat(pfd, rel, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd >= 0)
		remove_open_dir(pfd, rel, dfd, 0);
	else if (errno == ENOTDIR || errno == ELOOP)
		unlink_at(pfd, rel);	/* a file, or a symlink (O_NOFOLLOW) */
	/* ENOENT: nothing there */
}
