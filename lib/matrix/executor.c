/* The operation in the caller's child (see executor.h). */
#include "matrix/executor.h"
#include "matrix/fixture.h"
#include "world/exec_probe.h"
#include "world/xattr_view.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <linux/msdos_fs.h>
#include <sys/capability.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif
#ifndef RENAME_WHITEOUT
#define RENAME_WHITEOUT (1 << 2)
#endif

static int rc(int r)
{
	return r < 0 ? errno : 0;
}

static int open_close(const char *path, int flags, mode_t mode)
{
	int fd = open(path, flags | O_CLOEXEC, mode);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* the ACL of P/o, or with FD >= 0 of the file open as FD (fsetxattr) */
static int set_acl(const struct vt_exec_req *q, int fd)
{
	uint16_t tag[VT_MODEL_MAX_ACL], perm[VT_MODEL_MAX_ACL];
	uint32_t id[VT_MODEL_MAX_ACL];
	char buf[4 + 8 * VT_MODEL_MAX_ACL];
	const char *name;
	size_t len;
	int k;

	for (k = 0; k < q->op.nacl; k++) {
		tag[k] = q->op.acl[k].tag;
		perm[k] = q->op.acl[k].perm;
		id[k] = tag[k] == VT_ACL_USER ? q->op.acl[k].uid.val
			: tag[k] == VT_ACL_GROUP ? q->op.acl[k].gid.val : VT_ID_INVALID;
	}
	len = vt_fx_acl_encode(tag, perm, id, q->op.nacl, buf, sizeof(buf));
	name = q->op.default_acl ? "system.posix_acl_default" : "system.posix_acl_access";
	return rc(fd >= 0 ? fsetxattr(fd, name, buf, len, 0) : lsetxattr(q->path, name, buf, len, 0));
}

static int get_acl(const struct vt_exec_req *q, int fd, struct vt_exec_reply *r)
{
	struct vt_acl_entry e[VT_ACL_MAX_ENTRIES];
	int n = fd >= 0 ? vt_acl_fread(fd, q->op.default_acl, e, VT_ACL_MAX_ENTRIES)
			: vt_acl_read(q->path, q->op.default_acl, e, VT_ACL_MAX_ENTRIES), k;

	if (n < 0)
		return -n;
	if (n > VT_MODEL_MAX_ACL)
		n = VT_MODEL_MAX_ACL;
	r->nacl = n;
	for (k = 0; k < n; k++) {
		r->acl[k].tag = e[k].tag;
		r->acl[k].perm = e[k].perm;
		r->acl[k].uid = vt_cuid(e[k].tag == VT_ACL_USER ? e[k].id : VT_ID_INVALID);
		r->acl[k].gid = vt_cgid(e[k].tag == VT_ACL_GROUP ? e[k].id : VT_ID_INVALID);
	}
	return 0;
}

static int tmpfile_op(const struct vt_exec_req *q, struct vt_exec_reply *r)
{
	struct stat st;
	int fd = open(q->dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, q->op.mode);

	if (fd < 0)
		return errno;
	if (fstat(fd, &st) == 0) {
		r->have_stat = true;
		r->uid = st.st_uid;
		r->gid = st.st_gid;
		r->mode = st.st_mode;
	}
	/* name it P/n, so that its on-disk owner can be read through the
	 * plain mount: the /proc magic link needs no CAP_DAC_READ_SEARCH */
	{
		char proc[64], name[PATH_MAX + 2];

		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
		snprintf(name, sizeof(name), "%s/n", q->dir);
		r->link_err = rc(linkat(AT_FDCWD, proc, AT_FDCWD, name, AT_SYMLINK_FOLLOW));
	}
	close(fd);
	return 0;
}

/* EXEC: the caller execs P/o (a copy of exec-probe) with empty
 * inheritable and ambient sets; the probe writes its credentials to a
 * pipe. Returns 0 or execve's errno. */
static int exec_op(const struct vt_exec_req *q, struct vt_exec_reply *r)
{
	return vt_exec_probe(q->path, &r->creds, &r->have_creds, r->exec_msg, sizeof(r->exec_msg));
}

/* FIDEDUPERANGE of 0 bytes from FD onto FD: the ioctl's errno, else the
 * destination's status (EBADE for FILE_DEDUPE_RANGE_DIFFERS) */
int vt_exec_dedupe_self(int fd)
{
	union {
		struct file_dedupe_range r;
		char buf[sizeof(struct file_dedupe_range) + sizeof(struct file_dedupe_range_info)];
	} u;

	memset(&u, 0, sizeof(u));
	u.r.dest_count = 1;
	u.r.info[0].dest_fd = fd;
	if (ioctl(fd, FIDEDUPERANGE, &u.r) < 0)
		return errno;
	if (u.r.info[0].status < 0)
		return -u.r.info[0].status;
	return u.r.info[0].status == FILE_DEDUPE_RANGE_DIFFERS ? EBADE : 0;
}

/* cachestat(2) (Linux 6.5; not in this libc's headers): syscall 451 on
 * every architecture, its range and result as include/uapi/linux/mman.h
 * lays them out. 0 or the errno. */
int vt_exec_cachestat(int fd)
{
	struct {
		uint64_t off, len;
	} range = { 0, 0 };
	struct {
		uint64_t nr_cache, nr_dirty, nr_writeback, nr_evicted, nr_recently_evicted;
	} cs;

	return syscall(451, fd, &range, &cs, 0) < 0 ? errno : 0;
}

/* open(P/o, O_RDONLY), fstat, read one byte, fstat: did the read move the
 * atime (touch_atime; file_rules.c atime_needs_update)? The open's or
 * read's errno, else 0 */
static int read_atime(const struct vt_exec_req *q, struct vt_exec_reply *r)
{
	struct stat a, b;
	char c;
	int fd = open(q->path, O_RDONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return errno;
	if (fstat(fd, &a) < 0 || read(fd, &c, 1) < 0 || fstat(fd, &b) < 0)
		ret = errno;
	close(fd);
	if (ret)
		return ret;
	r->atime_was_old = a.st_atim.tv_sec == VT_FX_OLD_ATIME;
	r->atime_updated = a.st_atim.tv_sec != b.st_atim.tv_sec ||
			   a.st_atim.tv_nsec != b.st_atim.tv_nsec;
	return 0;
}

/* open(P/o, O_RDONLY), then one fcntl or ioctl on the fd (file_rules.c):
 * the open's errno, or the call's */
static int on_rdonly_fd(const struct vt_exec_req *q)
{
	struct fsxattr fsx;
	int fd = open(q->path, O_RDONLY | O_CLOEXEC), ret, flags;

	if (fd < 0)
		return errno;
	switch (q->op.op) {
	case VT_OP_SETFL_NOATIME:
		ret = rc(fcntl(fd, F_SETFL, O_NOATIME));
		break;
	case VT_OP_SETLEASE:
		ret = rc(fcntl(fd, F_SETLEASE, F_RDLCK));
		if (!ret)
			(void)fcntl(fd, F_SETLEASE, F_UNLCK);
		break;
	case VT_OP_SETFLAGS:
		/* the flags as they are: only the permission is asked */
		ret = rc(ioctl(fd, FS_IOC_GETFLAGS, &flags));
		if (!ret)
			ret = rc(ioctl(fd, FS_IOC_SETFLAGS, &flags));
		break;
	case VT_OP_FSSETXATTR:
		ret = rc(ioctl(fd, FS_IOC_FSGETXATTR, &fsx));
		if (!ret)
			ret = rc(ioctl(fd, FS_IOC_FSSETXATTR, &fsx));
		break;
	case VT_OP_DEDUPE:
		ret = vt_exec_dedupe_self(fd);
		break;
	case VT_OP_CACHESTAT:
		ret = vt_exec_cachestat(fd);
		break;
	case VT_OP_FAT_SET_ATTRS:
		ret = rc(ioctl(fd, FAT_IOCTL_SET_ATTRIBUTES, &q->op.fat_attr));
		break;
	default:
		ret = ENOSYS;
	}
	close(fd);
	return ret;
}

/* The security.capability FCAPS_SET writes: version and rootid as the
 * case says, effective, CAP_NET_RAW (13) permitted */
static void fcaps_to_set(const struct vt_mop_args *a, struct vt_fcaps *c)
{
	memset(c, 0, sizeof(*c));
	c->version = a->fcaps.version;
	c->effective = true;
	c->permitted = 1ULL << 13;
	c->rootid = a->fcaps.rootid.val;
}

/* The fd forms (vt_mop_args.by_fd): the open's errno, or the call's.
 * O_NONBLOCK lets a fifo open for reading without a writer. */
static int on_fd(const struct vt_exec_req *q, struct vt_exec_reply *r)
{
	const struct vt_mop_args *a = &q->op;
	int fd, ret, flags = a->op == VT_OP_TRUNCATE ? O_WRONLY : O_RDONLY | O_NONBLOCK;
	struct vt_fcaps c;
	char buf[16];

	fd = open(q->path, flags | O_CLOEXEC);
	if (fd < 0)
		return errno;
	switch (a->op) {
	case VT_OP_TRUNCATE:
		ret = rc(ftruncate(fd, 0));
		break;
	case VT_OP_ACL_SET:
		ret = set_acl(q, fd);
		break;
	case VT_OP_ACL_GET:
		ret = get_acl(q, fd, r);
		break;
	case VT_OP_FCAPS_SET:
		fcaps_to_set(a, &c);
		ret = -vt_fcaps_fwrite(fd, &c);
		break;
	case VT_OP_FCAPS_GET:
		ret = -vt_fcaps_fread(fd, &c);
		if (!ret) {
			r->fcaps.version = c.version;
			r->fcaps.rootid = vt_cuid(c.version == 3 ? c.rootid : 0);
		}
		break;
	case VT_OP_FCAPS_REMOVE:
		ret = rc(fremovexattr(fd, "security.capability"));
		break;
	case VT_OP_XATTR_SET_USER:
		ret = rc(fsetxattr(fd, "user.vt", "1", 1, 0));
		break;
	case VT_OP_XATTR_SET_TRUSTED:
		ret = rc(fsetxattr(fd, "trusted.vt", "1", 1, 0));
		break;
	case VT_OP_XATTR_GET_USER:
		ret = rc((int)fgetxattr(fd, "user.vt", buf, sizeof(buf)));
		break;
	case VT_OP_XATTR_GET_TRUSTED:
		ret = rc((int)fgetxattr(fd, "trusted.vt", buf, sizeof(buf)));
		break;
	case VT_OP_XATTR_REMOVE_USER:
		ret = rc(fremovexattr(fd, "user.vt"));
		break;
	case VT_OP_XATTR_REMOVE_TRUSTED:
		ret = rc(fremovexattr(fd, "trusted.vt"));
		break;
	case VT_OP_XATTR_SET_SECURITY:
		ret = rc(fsetxattr(fd, "security.vt", "1", 1, 0));
		break;
	case VT_OP_XATTR_GET_SECURITY:
		ret = rc((int)fgetxattr(fd, "security.vt", buf, sizeof(buf)));
		break;
	case VT_OP_XATTR_REMOVE_SECURITY:
		ret = rc(fremovexattr(fd, "security.vt"));
		break;
	default:
		ret = ENOSYS;
	}
	close(fd);
	return ret;
}

/* chdir(2), or fchdir(2) on an O_PATH open, of P; the caller then goes
 * back to where it was (a batch's caller works from its mount root,
 * lib/matrix/batch.c; a case alone holds no mount as its cwd) */
static int change_dir(const struct vt_exec_req *q)
{
	int here = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC), fd, ret;

	if (here < 0)
		return errno;
	if (q->op.op == VT_OP_CHDIR) {
		ret = rc(chdir(q->path));
	} else {
		fd = open(q->path, O_PATH | O_CLOEXEC);
		if (fd < 0) {
			ret = errno;
			close(here);
			return ret;
		}
		ret = rc(fchdir(fd));
		close(fd);
	}
	if (!ret && fchdir(here) < 0)
		ret = errno;
	close(here);
	return ret;
}

static int run(const struct vt_exec_req *q, struct vt_exec_reply *r)
{
	const struct vt_mop_args *a = &q->op;
	struct timespec ts[2] = { { 1, 0 }, { 2, 0 } };
	struct vt_fcaps c;
	char buf[16];
	int fd, ret;

	if (a->by_fd)
		return on_fd(q, r);
	switch (a->op) {
	case VT_OP_OPEN_CREAT:
		return open_close(q->path, O_CREAT | O_WRONLY, a->mode);
	case VT_OP_OPEN_CREAT_EXCL:
		return open_close(q->path, O_CREAT | O_EXCL | O_WRONLY, a->mode);
	case VT_OP_OPEN_CREAT_RDONLY:
		/* O_NONBLOCK: a fifo opens for reading without a writer */
		return open_close(q->path, O_CREAT | O_RDONLY | O_NONBLOCK, a->mode);
	case VT_OP_TMPFILE:
		return tmpfile_op(q, r);
	case VT_OP_MKDIR:
		return rc(mkdir(q->path, a->mode));
	case VT_OP_MKFIFO:
		return rc(mknod(q->path, S_IFIFO | a->mode, 0));
	case VT_OP_SYMLINK:
		return rc(symlink("o", q->path));
	case VT_OP_MKNOD_CHR:
		return rc(mknod(q->path, S_IFCHR | a->mode, makedev(1, 3)));
	case VT_OP_RENAME_WHITEOUT:
		return rc((int)syscall(SYS_renameat2, AT_FDCWD, q->path, AT_FDCWD, q->path2,
				       RENAME_WHITEOUT));
	case VT_OP_EXEC:
		return exec_op(q, r);
	case VT_OP_LINK:
		return rc(link(q->path, q->path2));
	case VT_OP_CHOWN:
		return rc(fchownat(AT_FDCWD, q->path, a->uid.val, a->gid.val, 0));
	case VT_OP_LCHOWN:
		return rc(fchownat(AT_FDCWD, q->path, a->uid.val, a->gid.val, AT_SYMLINK_NOFOLLOW));
	case VT_OP_FCHOWN:
		fd = open(q->path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return errno;
		ret = rc(fchown(fd, a->uid.val, a->gid.val));
		close(fd);
		return ret;
	case VT_OP_CHMOD:
		return rc(chmod(q->path, a->mode));
	case VT_OP_OPEN_READ:
		return open_close(q->path, O_RDONLY, 0);
	case VT_OP_OPEN_WRITE:
		return open_close(q->path, O_WRONLY, 0);
	case VT_OP_OPEN_TRUNC:
		return open_close(q->path, O_WRONLY | O_TRUNC, 0);
	case VT_OP_WRITE:
		fd = open(q->path, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			return errno;
		ret = write(fd, "x", 1) < 0 ? errno : 0;
		close(fd);
		return ret;
	case VT_OP_TRUNCATE:
		return rc(truncate(q->path, 0));
	case VT_OP_UTIMENS_NOW:
		return rc(utimensat(AT_FDCWD, q->path, NULL, 0));
	case VT_OP_UTIMENS_SET:
		return rc(utimensat(AT_FDCWD, q->path, ts, 0));
	case VT_OP_UNLINK:
		return rc(unlink(q->path));
	case VT_OP_RMDIR:
		return rc(rmdir(q->path));
	case VT_OP_RENAME:
		return rc(rename(q->path, q->path2));
	case VT_OP_RENAME_NOREPLACE:
		return rc((int)syscall(SYS_renameat2, AT_FDCWD, q->path, AT_FDCWD, q->path2,
				       RENAME_NOREPLACE));
	case VT_OP_RENAME_EXCHANGE:
		return rc((int)syscall(SYS_renameat2, AT_FDCWD, q->path, AT_FDCWD, q->path2,
				       RENAME_EXCHANGE));
	case VT_OP_ACL_SET:
		return set_acl(q, -1);
	case VT_OP_ACL_GET:
		return get_acl(q, -1, r);
	case VT_OP_FCAPS_SET:
		fcaps_to_set(a, &c);
		return -vt_fcaps_write(q->path, &c);
	case VT_OP_FCAPS_GET:
		ret = vt_fcaps_read(q->path, &c);
		if (ret < 0)
			return -ret;
		r->fcaps.version = c.version;
		r->fcaps.rootid = vt_cuid(c.version == 3 ? c.rootid : 0);
		return 0;
	case VT_OP_FCAPS_REMOVE:
		return rc(lremovexattr(q->path, "security.capability"));
	case VT_OP_XATTR_SET_USER:
		return rc(lsetxattr(q->path, "user.vt", "1", 1, 0));
	case VT_OP_XATTR_SET_TRUSTED:
		return rc(lsetxattr(q->path, "trusted.vt", "1", 1, 0));
	case VT_OP_XATTR_GET_USER:
		return rc((int)lgetxattr(q->path, "user.vt", buf, sizeof(buf)));
	case VT_OP_XATTR_GET_TRUSTED:
		return rc((int)lgetxattr(q->path, "trusted.vt", buf, sizeof(buf)));
	case VT_OP_XATTR_REMOVE_USER:
		return rc(lremovexattr(q->path, "user.vt"));
	case VT_OP_XATTR_REMOVE_TRUSTED:
		return rc(lremovexattr(q->path, "trusted.vt"));
	case VT_OP_XATTR_SET_SECURITY:
		return rc(lsetxattr(q->path, "security.vt", "1", 1, 0));
	case VT_OP_XATTR_GET_SECURITY:
		return rc((int)lgetxattr(q->path, "security.vt", buf, sizeof(buf)));
	case VT_OP_XATTR_REMOVE_SECURITY:
		return rc(lremovexattr(q->path, "security.vt"));
	case VT_OP_ACCESS:
		return rc((int)syscall(SYS_faccessat2, AT_FDCWD, q->path, (int)a->mode,
				       a->eaccess ? AT_EACCESS : 0));
	case VT_OP_CHDIR:
	case VT_OP_FCHDIR:
		return change_dir(q);
	case VT_OP_OPEN_NOATIME:
		return open_close(q->path, O_RDONLY | O_NOATIME, 0);
	case VT_OP_SETFL_NOATIME:
	case VT_OP_SETLEASE:
	case VT_OP_SETFLAGS:
	case VT_OP_FSSETXATTR:
	case VT_OP_DEDUPE:
	case VT_OP_CACHESTAT:
	case VT_OP_FAT_SET_ATTRS:
		return on_rdonly_fd(q);
	case VT_OP_READ_ATIME:
		return read_atime(q, r);
	default:
		return ENOSYS;
	}
}

int vt_exec_op(void *arg, void *data, size_t datalen)
{
	const struct vt_exec_req *q = arg;
	struct vt_exec_reply *r = data;
	struct stat st;
	int ret;

	(void)datalen;
	memset(r, 0, sizeof(*r));
	ret = run(q, r);
	if (ret == 0 && q->result[0] && lstat(q->result, &st) == 0) {
		r->have_stat = true;
		r->uid = st.st_uid;
		r->gid = st.st_gid;
		r->mode = st.st_mode;
	}
	return ret;
}
