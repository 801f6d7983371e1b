/* The reference FUSE server's operations on names and inodes, and the
 * dispatch of every request (the file, directory and xattr operations
 * are fuse_passthrough_data.c's): each done on the backing directory
 * with the *at() calls on the nodes' O_PATH descriptors (fuse_nodes.h).
 *
 * Owners of new inodes. The server runs as root, so the backing
 * filesystem makes every new inode root's; the server then gives it the
 * owner the kernel sent in the request header. For MKNOD, MKDIR, SYMLINK,
 * CREATE, TMPFILE and RENAME2 with RENAME_WHITEOUT the kernel fills the
 * header with the caller's fsuid/fsgid mapped through the mount's idmap
 * (fs/fuse/dev.c fuse_get_req: mapped_fsuid(idmap, fc->user_ns), the
 * idmap given by fs/fuse/dir.c create_new_entry, fuse_create_open and
 * fuse_rename2), which is inode_init_owner's uid; the group is that gid
 * unless the parent directory is setgid, where the backing filesystem has
 * already given the parent's group (inode_init_owner, fs/inode.c). The
 * FUSE_EXT_GROUPS extension (get_create_supp_group) names the parent's
 * group when the caller is in it only as a supplementary group: it is for
 * a server that creates with the caller's credentials, and owner of
 * nothing here; the log records it. A creation whose header ids are
 * FUSE_INVALID_UIDGID (a caller the idmap cannot map) is refused with
 * EOVERFLOW, the VFS's answer to such a creator (may_create). */
#include "fuse/fuse_ops.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* The entry of NAME in DIRFD, one more lookup of its node. Attributes and
 * names are not cached (valid 0): every access reaches the server and
 * its log. */
static int entry_of(struct vt_fuse_server *s, int dirfd, const char *name,
		    struct vt_fuse_entry_out *e)
{
	struct stat st;
	int fd = openat(dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	int64_t id;

	if (fd < 0)
		return -errno;
	if (vt_fuse_stat_fd(fd, &st) < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	id = vt_fuse_node_ref(&s->nodes, fd, &st);
	if (id < 0)
		return (int)id;
	memset(e, 0, sizeof(*e));
	e->nodeid = (uint64_t)id;
	vt_fuse_fill_attr(&e->attr, &st);
	return 0;
}

static int reply_entry(struct vt_fuse_server *s, struct vt_fuse_reply *rp, int dirfd,
		       const char *name)
{
	struct vt_fuse_entry_out *e = vt_fuse_out(rp, sizeof(*e));

	return e ? entry_of(s, dirfd, name, e) : -ENOMEM;
}

/* The header's ids for a new inode, or -EOVERFLOW (see the top). */
static int creator(const struct vt_fuse_req *rq)
{
	return rq->h->uid == VT_FUSE_INVALID_UIDGID || rq->h->gid == VT_FUSE_INVALID_UIDGID
		       ? -EOVERFLOW
		       : 0;
}

/* Give NAME in DIRFD (or FD when NAME is NULL) the creator's owner and
 * keep the mode the creation gave it: chown(2) clears S_ISUID and
 * S_ISGID of a non-directory even for root (notify_change's
 * ATTR_KILL_SUID/SGID), which the kernel's own creation would not. */
static int give_owner(const struct vt_fuse_req *rq, int dirfd, const char *name, int fd)
{
	struct stat parent, st;
	gid_t gid;
	int ret;

	if (fstat(dirfd, &parent) < 0)
		return -errno;
	gid = (parent.st_mode & S_ISGID) ? (gid_t)-1 : rq->h->gid;
	ret = name ? fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) : fstat(fd, &st);
	if (ret < 0)
		return -errno;
	ret = name ? fchownat(dirfd, name, rq->h->uid, gid, AT_SYMLINK_NOFOLLOW)
		   : fchown(fd, rq->h->uid, gid);
	if (ret < 0)
		return -errno;
	if (!S_ISLNK(st.st_mode) && !S_ISDIR(st.st_mode) && (st.st_mode & (S_ISUID | S_ISGID))) {
		ret = name ? fchmodat(dirfd, name, st.st_mode & 07777, 0)
			   : fchmod(fd, st.st_mode & 07777);
		if (ret < 0)
			return -errno;
	}
	return 0;
}

/* Undo a creation whose owner could not be given: no root-owned leftover */
static void undo(int dirfd, const char *name, bool dir)
{
	int saved = errno;

	unlinkat(dirfd, name, dir ? AT_REMOVEDIR : 0);
	errno = saved;
}

static int op_lookup(struct vt_fuse_server *s, const struct vt_fuse_req *rq, struct vt_fuse_reply *rp)
{
	struct vt_fuse_node *dir;
	const char *name;
	size_t off = 0;

	NODE(dir, rq->h->nodeid);
	NEED_NAME(name, off);
	vt_fuse_log_name(rp, name, NULL);
	return reply_entry(s, rp, dir->fd, name);
}

static int op_forget(struct vt_fuse_server *s, const struct vt_fuse_req *rq, struct vt_fuse_reply *rp)
{
	const struct vt_fuse_forget_in *in;

	rp->none = true;
	NEED(in, 0);
	vt_fuse_node_forget(&s->nodes, rq->h->nodeid, in->nlookup);
	return 0;
}

static int op_batch_forget(struct vt_fuse_server *s, const struct vt_fuse_req *rq,
			   struct vt_fuse_reply *rp)
{
	const struct vt_fuse_batch_forget_in *in;
	const struct vt_fuse_forget_one *one;

	rp->none = true;
	NEED(in, 0);
	for (uint32_t i = 0; i < in->count; i++) {
		NEED(one, sizeof(*in) + i * sizeof(*one));
		vt_fuse_node_forget(&s->nodes, one->nodeid, one->nlookup);
	}
	return 0;
}

static int reply_attr(struct vt_fuse_reply *rp, int fd)
{
	struct vt_fuse_attr_out *a = vt_fuse_out(rp, sizeof(*a));
	struct stat st;
	int ret;

	if (!a)
		return -ENOMEM;
	ret = vt_fuse_stat_fd(fd, &st);
	if (ret < 0)
		return ret;
	vt_fuse_fill_attr(&a->attr, &st);
	return 0;
}

static int op_getattr(struct vt_fuse_server *s, const struct vt_fuse_req *rq, struct vt_fuse_reply *rp)
{
	struct vt_fuse_node *n;

	NODE(n, rq->h->nodeid);
	return reply_attr(rp, n->fd);
}

static void sx_time(struct vt_fuse_sx_time *t, const struct statx_timestamp *x)
{
	t->tv_sec = x->tv_sec;
	t->tv_nsec = x->tv_nsec;
}

static int op_statx(struct vt_fuse_server *s, const struct vt_fuse_req *rq, struct vt_fuse_reply *rp)
{
	const struct vt_fuse_statx_in *in;
	struct vt_fuse_statx_out *o;
	struct vt_fuse_node *n;
	struct statx x;

	NODE(n, rq->h->nodeid);
	NEED(in, 0);
	if (statx(n->fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW | (in->sx_flags & AT_STATX_SYNC_TYPE),
		  in->sx_mask, &x) < 0)
		return -errno;
	if (!(o = vt_fuse_out(rp, sizeof(*o))))
		return -ENOMEM;
	o->stat.mask = x.stx_mask;
	o->stat.blksize = x.stx_blksize;
	o->stat.attributes = x.stx_attributes;
	o->stat.nlink = x.stx_nlink;
	o->stat.uid = x.stx_uid;
	o->stat.gid = x.stx_gid;
	o->stat.mode = x.stx_mode;
	o->stat.ino = x.stx_ino;
	o->stat.size = x.stx_size;
	o->stat.blocks = x.stx_blocks;
	o->stat.attributes_mask = x.stx_attributes_mask;
	sx_time(&o->stat.atime, &x.stx_atime);
	sx_time(&o->stat.btime, &x.stx_btime);
	sx_time(&o->stat.ctime, &x.stx_ctime);
	sx_time(&o->stat.mtime, &x.stx_mtime);
	o->stat.rdev_major = x.stx_rdev_major;
	o->stat.rdev_minor = x.stx_rdev_minor;
	o->stat.dev_major = x.stx_dev_major;
	o->stat.dev_minor = x.stx_dev_minor;
	return 0;
}

static struct timespec set_time(uint32_t valid, uint32_t bit, uint32_t now_bit, uint64_t sec,
				uint32_t nsec)
{
	if (valid & now_bit)
		return (struct timespec){ .tv_nsec = UTIME_NOW };
	if (valid & bit)
		return (struct timespec){ .tv_sec = (time_t)sec, .tv_nsec = nsec };
	return (struct timespec){ .tv_nsec = UTIME_OMIT };
}

static int op_setattr(struct vt_fuse_server *s, const struct vt_fuse_req *rq, struct vt_fuse_reply *rp)
{
	const struct vt_fuse_setattr_in *in;
	struct vt_fuse_node *n;
	char path[64];
	uint32_t v;

	NODE(n, rq->h->nodeid);
	NEED(in, 0);
	v = in->valid;
	vt_fuse_node_path(n, path, sizeof(path));
	/* the owner first: chown clears S_ISUID/S_ISGID, and a mode sent
	 * with it (the kernel's ATTR_KILL_* as a mode) is the final one */
	if ((v & (VT_FATTR_UID | VT_FATTR_GID)) &&
	    fchownat(n->fd, "", (v & VT_FATTR_UID) ? in->uid : (uid_t)-1,
		     (v & VT_FATTR_GID) ? in->gid : (gid_t)-1, AT_EMPTY_PATH) < 0)
		return -errno;
	if (v & VT_FATTR_MODE) {
		struct stat st;
		int ret = vt_fuse_stat_fd(n->fd, &st);

		if (ret < 0)
			return ret;
		if (S_ISLNK(st.st_mode))
			return -EOPNOTSUPP;
		if (chmod(path, in->mode & 07777) < 0)
			return -errno;
	}
	if (v & VT_FATTR_SIZE) {
		int ret = (v & VT_FATTR_FH) ? ftruncate((int)in->fh, (off_t)in->size)
					    : truncate(path, (off_t)in->size);
		if (ret < 0)
			return -errno;
	}
	if (v & (VT_FATTR_ATIME | VT_FATTR_MTIME | VT_FATTR_ATIME_NOW | VT_FATTR_MTIME_NOW)) {
		struct timespec ts[2] = {
			set_time(v, VT_FATTR_ATIME, VT_FATTR_ATIME_NOW, in->atime, in->atimensec),
			set_time(v, VT_FATTR_MTIME, VT_FATTR_MTIME_NOW, in->mtime, in->mtimensec),
		};

		if (utimensat(n->fd, "", ts, AT_EMPTY_PATH) < 0)
			return -errno;
	}
	return reply_attr(rp, n->fd);
}

static int op_readlink(struct vt_fuse_server *s, const struct vt_fuse_req *rq,
		       struct vt_fuse_reply *rp)
{
	struct vt_fuse_node *n;
	ssize_t len;

	NODE(n, rq->h->nodeid);
	len = readlinkat(n->fd, "", rp->data, rp->cap);
	if (len < 0)
		return -errno;
	rp->len = (size_t)len;
	return 0;
}

/* MKNOD, MKDIR, SYMLINK: made with the request's umask (FUSE_DONT_MASK:
 * the server applies it, so that a default ACL of the parent replaces it
 * on the backing filesystem as the VFS would), then given the creator's
 * owner. */
static int make(struct vt_fuse_server *s, const struct vt_fuse_req *rq, struct vt_fuse_reply *rp,
		int dirfd, const char *name, uint32_t mode, uint32_t umask_, dev_t rdev,
		const char *target)
{
	int ret = creator(rq);
	mode_t old;

	if (ret < 0)
		return ret;
	old = umask(umask_ & 0777);
	if (target)
		ret = symlinkat(target, dirfd, name);
	else if (S_ISDIR(mode))
		ret = mkdirat(dirfd, name, mode & 07777);
	else
		ret = mknodat(dirfd, name, mode, rdev);
	umask(old);
	if (ret < 0)
		return -errno;
	ret = give_owner(rq, dirfd, name, -1);
	if (ret < 0) {
		undo(dirfd, name, S_ISDIR(mode));
		return ret;
	}
	return reply_entry(s, rp, dirfd, name);
}

static int op_mknod(struct vt_fuse_server *s, const struct vt_fuse_req *rq, struct vt_fuse_reply *rp)
{
	const struct vt_fuse_mknod_in *in;
	struct vt_fuse_node *dir;
	const char *name;
	size_t off = sizeof(*in);

	NODE(dir, rq->h->nodeid);
	NEED(in, 0);
	NEED_NAME(name, off);
	vt_fuse_log_name(rp, name, NULL);
	/* new_encode_dev's layout (fuse_mknod) */
	return make(s, rq, rp, dir->fd, name, in->mode, in->umask,
		    makedev((in->rdev & 0xfff00) >> 8, (in->rdev & 0xff) | ((in->rdev >> 12) & 0xfff00)),
		    NULL);
}

static int op_mkdir(struct vt_fuse_server *s, const struct vt_fuse_req *rq, struct vt_fuse_reply *rp)
{
	const struct vt_fuse_mkdir_in *in;
	struct vt_fuse_node *dir;
	const char *name;
	size_t off = sizeof(*in);

	NODE(dir, rq->h->nodeid);
	NEED(in, 0);
	NEED_NAME(name, off);
	vt_fuse_log_name(rp, name, NULL);
	return make(s, rq, rp, dir->fd, name, S_IFDIR | in->mode, in->umask, 0, NULL);
}

static int op_symlink(struct vt_fuse_server *s, const struct vt_fuse_req *rq, struct vt_fuse_reply *rp)
{
	struct vt_fuse_node *dir;
	const char *name, *target;
	size_t off = 0;

	NODE(dir, rq->h->nodeid);
	NEED_NAME(name, off);
	NEED_NAME(target, off);
	vt_fuse_log_name(rp, name, NULL);
	return make(s, rq, rp, dir->fd, name, S_IFLNK | 0777, 0, 0, target);
}

static int op_unlink(struct vt_fuse_server *s, const struct vt_fuse_req *rq, struct vt_fuse_reply *rp)
{
	struct vt_fuse_node *dir;
	const char *name;
	size_t off = 0;

	NODE(dir, rq->h->nodeid);
	NEED_NAME(name, off);
	vt_fuse_log_name(rp, name, NULL);
	return unlinkat(dir->fd, name, rq->h->opcode == VT_FUSE_RMDIR ? AT_REMOVEDIR : 0) < 0 ? -errno : 0;
}

static int op_rename(struct vt_fuse_server *s, const struct vt_fuse_req *rq, struct vt_fuse_reply *rp)
{
	const struct vt_fuse_rename2_in *in2 = NULL;
	const struct vt_fuse_rename_in *in1;
	struct vt_fuse_node *from, *to;
	const char *oldname, *newname;
	uint32_t flags = 0;
	size_t off;

	NODE(from, rq->h->nodeid);
	if (rq->h->opcode == VT_FUSE_RENAME2) {
		NEED(in2, 0);
		flags = in2->flags;
		off = sizeof(*in2);
		NODE(to, in2->newdir);
	} else {
		NEED(in1, 0);
		off = sizeof(*in1);
		NODE(to, in1->newdir);
	}
	NEED_NAME(oldname, off);
	NEED_NAME(newname, off);
	vt_fuse_log_name(rp, oldname, newname);
	rp->flags = flags;
	if ((flags & RENAME_WHITEOUT) && creator(rq) < 0)
		return -EOVERFLOW;
	if (renameat2(from->fd, oldname, to->fd, newname, flags) < 0)
		return -errno;
	/* the whiteout is a new inode: the creator's (fuse_rename2 sends the
	 * mount's idmap for RENAME_WHITEOUT only) */
	if (flags & RENAME_WHITEOUT)
		return give_owner(rq, from->fd, oldname, -1);
	return 0;
}

static int op_link(struct vt_fuse_server *s, const struct vt_fuse_req *rq, struct vt_fuse_reply *rp)
{
	const struct vt_fuse_link_in *in;
	struct vt_fuse_node *src, *dir;
	const char *name;
	size_t off = sizeof(*in);

	NODE(dir, rq->h->nodeid);
	NEED(in, 0);
	NODE(src, in->oldnodeid);
	NEED_NAME(name, off);
	vt_fuse_log_name(rp, name, NULL);
	if (linkat(src->fd, "", dir->fd, name, AT_EMPTY_PATH) < 0)
		return -errno;
	return reply_entry(s, rp, dir->fd, name);
}

/* CREATE and TMPFILE: the entry, then the open file */
static int op_create(struct vt_fuse_server *s, const struct vt_fuse_req *rq, struct vt_fuse_reply *rp)
{
	const struct vt_fuse_create_in *in;
	struct vt_fuse_entry_out *e;
	struct vt_fuse_open_out *o;
	struct vt_fuse_node *dir;
	const char *name;
	size_t off = sizeof(*in);
	bool tmp = rq->h->opcode == VT_FUSE_TMPFILE;
	mode_t old;
	int fd, ret;

	NODE(dir, rq->h->nodeid);
	NEED(in, 0);
	NEED_NAME(name, off);
	vt_fuse_log_name(rp, name, NULL);
	if ((ret = creator(rq)) < 0)
		return ret;
	if (!(e = vt_fuse_out(rp, sizeof(*e) + sizeof(*o))))
		return -ENOMEM;
	o = (struct vt_fuse_open_out *)(e + 1);
	old = umask(in->umask & 0777);
	if (tmp)
		fd = openat(dir->fd, ".", (int)(in->flags & ~(O_CREAT | O_EXCL | O_NOCTTY)) | O_TMPFILE |
			    O_CLOEXEC, in->mode & 07777);
	else
		/* O_EXCL: the kernel sends CREATE for a name it found
		 * missing; one made on the backing side meanwhile is EEXIST
		 * (fuse_atomic_open then drops its entry), never a file of
		 * someone else's given the creator's owner */
		fd = openat(dir->fd, name, (int)(in->flags & ~O_NOCTTY) | O_CREAT | O_EXCL | O_CLOEXEC,
			    in->mode & 07777);
	umask(old);
	if (fd < 0)
		return -errno;
	ret = give_owner(rq, dir->fd, tmp ? NULL : name, fd);
	if (ret == 0) {
		char path[64];

		if (tmp) {
			int pfd;
			struct stat st;
			int64_t id;

			/* the node: an O_PATH descriptor of the unnamed inode */
			snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
			pfd = open(path, O_PATH | O_CLOEXEC);
			if (pfd < 0 || vt_fuse_stat_fd(pfd, &st) < 0) {
				ret = -errno;
				if (pfd >= 0)
					close(pfd);
			} else if ((id = vt_fuse_node_ref(&s->nodes, pfd, &st)) < 0) {
				ret = (int)id;
			} else {
				e->nodeid = (uint64_t)id;
				vt_fuse_fill_attr(&e->attr, &st);
			}
		} else {
			ret = entry_of(s, dir->fd, name, e);
		}
	}
	if (ret < 0) {
		close(fd);
		if (!tmp)
			undo(dir->fd, name, false);
		return ret;
	}
	o->fh = (uint64_t)fd;
	rp->len = sizeof(*e) + sizeof(*o);
	return 0;
}

int vt_fuse_passthrough(struct vt_fuse_server *s, const struct vt_fuse_req *rq,
			struct vt_fuse_reply *rp)
{
	switch (rq->h->opcode) {
	case VT_FUSE_LOOKUP: return op_lookup(s, rq, rp);
	case VT_FUSE_FORGET: return op_forget(s, rq, rp);
	case VT_FUSE_BATCH_FORGET: return op_batch_forget(s, rq, rp);
	case VT_FUSE_GETATTR: return op_getattr(s, rq, rp);
	case VT_FUSE_STATX: return op_statx(s, rq, rp);
	case VT_FUSE_SETATTR: return op_setattr(s, rq, rp);
	case VT_FUSE_READLINK: return op_readlink(s, rq, rp);
	case VT_FUSE_MKNOD: return op_mknod(s, rq, rp);
	case VT_FUSE_MKDIR: return op_mkdir(s, rq, rp);
	case VT_FUSE_SYMLINK: return op_symlink(s, rq, rp);
	case VT_FUSE_UNLINK:
	case VT_FUSE_RMDIR: return op_unlink(s, rq, rp);
	case VT_FUSE_RENAME:
	case VT_FUSE_RENAME2: return op_rename(s, rq, rp);
	case VT_FUSE_LINK: return op_link(s, rq, rp);
	case VT_FUSE_OPEN: return vt_fuse_op_open(s, rq, rp);
	case VT_FUSE_CREATE:
	case VT_FUSE_TMPFILE: return op_create(s, rq, rp);
	case VT_FUSE_READ: return vt_fuse_op_read(s, rq, rp);
	case VT_FUSE_WRITE: return vt_fuse_op_write(s, rq, rp);
	case VT_FUSE_STATFS: return vt_fuse_op_statfs(s, rq, rp);
	case VT_FUSE_RELEASE:
	case VT_FUSE_RELEASEDIR: return vt_fuse_op_release(s, rq, rp);
	case VT_FUSE_FLUSH: return vt_fuse_op_flush(s, rq, rp);
	case VT_FUSE_FSYNC:
	case VT_FUSE_FSYNCDIR: return vt_fuse_op_fsync(s, rq, rp);
	case VT_FUSE_OPENDIR: return vt_fuse_op_opendir(s, rq, rp);
	case VT_FUSE_READDIR: return vt_fuse_op_readdir(s, rq, rp);
	case VT_FUSE_GETXATTR:
	case VT_FUSE_LISTXATTR: return vt_fuse_op_getxattr(s, rq, rp);
	case VT_FUSE_SETXATTR: return vt_fuse_op_setxattr(s, rq, rp);
	case VT_FUSE_REMOVEXATTR: return vt_fuse_op_removexattr(s, rq, rp);
	case VT_FUSE_ACCESS: return vt_fuse_op_access(s, rq, rp);
	case VT_FUSE_INTERRUPT:
		/* one thread: the request it names was answered already */
		rp->none = true;
		return 0;
	default:
		/* the kernel then stops asking (fc->no_*) */
		return -ENOSYS;
	}
}
