/* Reading a request's arguments and writing a reply's payload for the
 * reference FUSE server's operations (fuse_ops.h). */
#include "fuse/fuse_ops.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>

int vt_fuse_bad(struct vt_fuse_server *s, const struct vt_fuse_req *rq, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(s->fault, sizeof(s->fault), "%s unique %llu: ", vt_fuse_opname(rq->h->opcode),
		     (unsigned long long)rq->h->unique);
	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof(s->fault))
		vsnprintf(s->fault + n, sizeof(s->fault) - (size_t)n, fmt, ap);
	va_end(ap);
	return -EPROTO;
}

/* SIZE bytes of argument at OFF, or NULL */
const void *vt_fuse_arg_at(const struct vt_fuse_req *rq, size_t off, size_t size)
{
	return off <= rq->arglen && size <= rq->arglen - off ? rq->arg + off : NULL;
}

/* A NUL-terminated name at *OFF (advanced past it), or NULL */
const char *vt_fuse_name_at(const struct vt_fuse_req *rq, size_t *off)
{
	const char *p = vt_fuse_arg_at(rq, *off, 1), *nul;

	if (!p || !(nul = memchr(p, '\0', rq->arglen - *off)))
		return NULL;
	*off += (size_t)(nul - p) + 1;
	return p;
}

void *vt_fuse_out(struct vt_fuse_reply *rp, size_t size)
{
	if (size > rp->cap)
		return NULL;
	memset(rp->data, 0, size);
	rp->len = size;
	return rp->data;
}

void vt_fuse_log_name(struct vt_fuse_reply *rp, const char *a, const char *b)
{
	snprintf(rp->name, sizeof(rp->name), "%s%s%s", a, b ? "/" : "", b ? b : "");
}

void vt_fuse_fill_attr(struct vt_fuse_attr *a, const struct stat *st)
{
	a->ino = st->st_ino;
	a->size = (uint64_t)st->st_size;
	a->blocks = (uint64_t)st->st_blocks;
	a->atime = (uint64_t)st->st_atim.tv_sec;
	a->atimensec = (uint32_t)st->st_atim.tv_nsec;
	a->mtime = (uint64_t)st->st_mtim.tv_sec;
	a->mtimensec = (uint32_t)st->st_mtim.tv_nsec;
	a->ctime = (uint64_t)st->st_ctim.tv_sec;
	a->ctimensec = (uint32_t)st->st_ctim.tv_nsec;
	a->mode = st->st_mode;
	a->nlink = (uint32_t)st->st_nlink;
	a->uid = st->st_uid;
	a->gid = st->st_gid;
	/* the kernel decodes rdev with new_decode_dev (fuse_fill_attr) */
	a->rdev = (major(st->st_rdev) << 8) | (minor(st->st_rdev) & 0xff) |
		  ((minor(st->st_rdev) & ~0xffU) << 12);
	a->blksize = (uint32_t)st->st_blksize;
}

int vt_fuse_stat_fd(int fd, struct stat *st)
{
	return fstatat(fd, "", st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) < 0 ? -errno : 0;
}
