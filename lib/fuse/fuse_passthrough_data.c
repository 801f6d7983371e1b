/* The reference FUSE server's file, directory and xattr operations: open
 * files are descriptors of the backing files (the fh the kernel gives
 * back), open directories DIR streams (fuse_ops.h). */
#include "fuse/fuse_ops.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <unistd.h>

static int reopen(const struct vt_fuse_node *n, int flags)
{
	char path[64];
	int fd;

	vt_fuse_node_path(n, path, sizeof(path));
	fd = open(path, (flags & ~(O_CREAT | O_EXCL | O_NOCTTY)) | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int vt_fuse_op_open(struct vt_fuse_server *s, const struct vt_fuse_req *rq, struct vt_fuse_reply *rp)
{
	const struct vt_fuse_open_in *in;
	struct vt_fuse_open_out *o;
	struct vt_fuse_node *n;
	int fd;

	NODE(n, rq->h->nodeid);
	NEED(in, 0);
	if (!(o = vt_fuse_out(rp, sizeof(*o))))
		return -ENOMEM;
	fd = reopen(n, (int)in->flags);
	if (fd < 0)
		return fd;
	o->fh = (uint64_t)fd;
	return 0;
}

int vt_fuse_op_read(struct vt_fuse_server *s, const struct vt_fuse_req *rq, struct vt_fuse_reply *rp)
{
	const struct vt_fuse_read_in *in;
	ssize_t n;

	NEED(in, 0);
	n = pread((int)in->fh, rp->data, in->size < rp->cap ? in->size : rp->cap, (off_t)in->offset);
	if (n < 0)
		return -errno;
	rp->len = (size_t)n;
	return 0;
}

int vt_fuse_op_write(struct vt_fuse_server *s, const struct vt_fuse_req *rq, struct vt_fuse_reply *rp)
{
	const struct vt_fuse_write_in *in;
	struct vt_fuse_write_out *o;
	const char *data;
	ssize_t n;

	NEED(in, 0);
	if (!(data = vt_fuse_arg_at(rq, sizeof(*in), in->size)))
		return vt_fuse_bad(s, rq, "%u bytes to write, %zu given", in->size, rq->arglen - sizeof(*in));
	n = pwrite((int)in->fh, data, in->size, (off_t)in->offset);
	if (n < 0)
		return -errno;
	if (!(o = vt_fuse_out(rp, sizeof(*o))))
		return -ENOMEM;
	o->size = (uint32_t)n;
	return 0;
}

int vt_fuse_op_statfs(struct vt_fuse_server *s, const struct vt_fuse_req *rq, struct vt_fuse_reply *rp)
{
	struct vt_fuse_kstatfs *o;
	struct vt_fuse_node *n;
	struct statvfs v;

	NODE(n, rq->h->nodeid);
	if (fstatvfs(n->fd, &v) < 0)
		return -errno;
	if (!(o = vt_fuse_out(rp, sizeof(*o))))
		return -ENOMEM;
	o->blocks = v.f_blocks;
	o->bfree = v.f_bfree;
	o->bavail = v.f_bavail;
	o->files = v.f_files;
	o->ffree = v.f_ffree;
	o->bsize = (uint32_t)v.f_bsize;
	o->frsize = (uint32_t)v.f_frsize;
	o->namelen = (uint32_t)v.f_namemax;
	return 0;
}

int vt_fuse_op_release(struct vt_fuse_server *s, const struct vt_fuse_req *rq, struct vt_fuse_reply *rp)
{
	const struct vt_fuse_release_in *in;

	(void)rp;
	NEED(in, 0);
	if (rq->h->opcode == VT_FUSE_RELEASEDIR)
		return closedir((DIR *)(uintptr_t)in->fh) < 0 ? -errno : 0;
	return close((int)in->fh) < 0 ? -errno : 0;
}

int vt_fuse_op_flush(struct vt_fuse_server *s, const struct vt_fuse_req *rq, struct vt_fuse_reply *rp)
{
	const struct vt_fuse_flush_in *in;

	(void)rp;
	NEED(in, 0);
	return 0;
}

int vt_fuse_op_fsync(struct vt_fuse_server *s, const struct vt_fuse_req *rq, struct vt_fuse_reply *rp)
{
	const struct vt_fuse_fsync_in *in;
	int fd;

	(void)rp;
	NEED(in, 0);
	fd = rq->h->opcode == VT_FUSE_FSYNCDIR ? dirfd((DIR *)(uintptr_t)in->fh) : (int)in->fh;
	if (in->fsync_flags & VT_FUSE_FSYNC_FDATASYNC)
		return fdatasync(fd) < 0 ? -errno : 0;
	return fsync(fd) < 0 ? -errno : 0;
}

int vt_fuse_op_opendir(struct vt_fuse_server *s, const struct vt_fuse_req *rq, struct vt_fuse_reply *rp)
{
	struct vt_fuse_open_out *o;
	struct vt_fuse_node *n;
	DIR *d;
	int fd;

	NODE(n, rq->h->nodeid);
	if (!(o = vt_fuse_out(rp, sizeof(*o))))
		return -ENOMEM;
	fd = reopen(n, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return fd;
	if (!(d = fdopendir(fd))) {
		int err = -errno;

		close(fd);
		return err;
	}
	o->fh = (uint64_t)(uintptr_t)d;
	return 0;
}

/* READDIR: the offset of an entry is telldir() after it, so a READDIR at
 * that offset goes on with the next one */
int vt_fuse_op_readdir(struct vt_fuse_server *s, const struct vt_fuse_req *rq, struct vt_fuse_reply *rp)
{
	const struct vt_fuse_read_in *in;
	size_t room, used = 0;
	struct dirent *de;
	DIR *d;

	NEED(in, 0);
	d = (DIR *)(uintptr_t)in->fh;
	room = in->size < rp->cap ? in->size : rp->cap;
	if (in->offset == 0)
		rewinddir(d);
	else
		seekdir(d, (long)in->offset);
	for (;;) {
		struct vt_fuse_dirent *fd;
		size_t namelen, rec;

		errno = 0;
		if (!(de = readdir(d))) {
			if (errno)
				return -errno;
			break;
		}
		namelen = strlen(de->d_name);
		rec = VT_FUSE_DIRENT_SIZE(namelen);
		if (used + rec > room)
			break;
		fd = (struct vt_fuse_dirent *)(rp->data + used);
		memset(fd, 0, rec);
		fd->ino = de->d_ino;
		fd->off = (uint64_t)telldir(d);
		fd->namelen = (uint32_t)namelen;
		fd->type = de->d_type;
		memcpy(fd->name, de->d_name, namelen);
		used += rec;
	}
	rp->len = used;
	return 0;
}

/* xattrs through the node's /proc/self/fd path (an O_PATH descriptor
 * cannot be given to f*xattr). POSIX ACLs and security.capability go
 * through as the raw values the kernel sent: their ids are already the
 * filesystem's (fuse_set_acl: posix_acl_to_xattr(fc->user_ns);
 * cap_convert_nscap before vfs_setxattr reaches fuse). */
int vt_fuse_op_getxattr(struct vt_fuse_server *s, const struct vt_fuse_req *rq,
		       struct vt_fuse_reply *rp)
{
	const struct vt_fuse_getxattr_in *in;
	struct vt_fuse_node *n;
	const char *name = NULL;
	size_t off = sizeof(*in);
	char path[64];
	ssize_t len;

	NODE(n, rq->h->nodeid);
	NEED(in, 0);
	if (rq->h->opcode == VT_FUSE_GETXATTR) {
		NEED_NAME(name, off);
		vt_fuse_log_name(rp, name, NULL);
	}
	vt_fuse_node_path(n, path, sizeof(path));
	if (in->size == 0) {
		struct vt_fuse_getxattr_out *o;

		len = name ? getxattr(path, name, NULL, 0) : listxattr(path, NULL, 0);
		if (len < 0)
			return -errno;
		if (!(o = vt_fuse_out(rp, sizeof(*o))))
			return -ENOMEM;
		o->size = (uint32_t)len;
		return 0;
	}
	len = name ? getxattr(path, name, rp->data, in->size < rp->cap ? in->size : rp->cap)
		   : listxattr(path, rp->data, in->size < rp->cap ? in->size : rp->cap);
	if (len < 0)
		return -errno;
	rp->len = (size_t)len;
	return 0;
}

int vt_fuse_op_setxattr(struct vt_fuse_server *s, const struct vt_fuse_req *rq,
		       struct vt_fuse_reply *rp)
{
	const struct vt_fuse_setxattr_in *in;
	struct vt_fuse_node *n;
	const char *name, *value;
	/* FUSE_SETXATTR_EXT (asked in INIT): the 16-byte argument */
	size_t off = sizeof(*in);
	char path[64];

	NODE(n, rq->h->nodeid);
	NEED(in, 0);
	NEED_NAME(name, off);
	vt_fuse_log_name(rp, name, NULL);
	if (!(value = vt_fuse_arg_at(rq, off, in->size)))
		return vt_fuse_bad(s, rq, "a value of %u bytes, %zu given", in->size, rq->arglen - off);
	vt_fuse_node_path(n, path, sizeof(path));
	if (setxattr(path, name, value, in->size, (int)in->flags) < 0)
		return -errno;
	/* fuse_set_acl: the caller may not keep S_ISGID (in_group_or_capable) */
	if (in->setxattr_flags & VT_FUSE_SETXATTR_ACL_KILL_SGID) {
		struct stat st;
		int ret = vt_fuse_stat_fd(n->fd, &st);

		if (ret < 0)
			return ret;
		if ((st.st_mode & S_ISGID) && chmod(path, st.st_mode & 07777 & ~S_ISGID) < 0)
			return -errno;
	}
	return 0;
}

int vt_fuse_op_removexattr(struct vt_fuse_server *s, const struct vt_fuse_req *rq,
			  struct vt_fuse_reply *rp)
{
	struct vt_fuse_node *n;
	const char *name;
	size_t off = 0;
	char path[64];

	NODE(n, rq->h->nodeid);
	NEED_NAME(name, off);
	vt_fuse_log_name(rp, name, NULL);
	vt_fuse_node_path(n, path, sizeof(path));
	return removexattr(path, name) < 0 ? -errno : 0;
}

int vt_fuse_op_access(struct vt_fuse_server *s, const struct vt_fuse_req *rq, struct vt_fuse_reply *rp)
{
	const struct vt_fuse_access_in *in;
	struct vt_fuse_node *n;

	(void)rp;
	NODE(n, rq->h->nodeid);
	NEED(in, 0);
	return faccessat(n->fd, "", (int)in->mask, AT_EMPTY_PATH | AT_EACCESS) < 0 ? -errno : 0;
}
