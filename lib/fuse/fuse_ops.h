/* What the reference FUSE server's operation files share: reading a
 * request's arguments (a request too short for its opcode is the
 * server's fault, -EPROTO with s->fault set), writing a reply's payload,
 * and the entry points of the file, directory and xattr operations
 * (fuse_passthrough_data.c) that fuse_passthrough.c dispatches to. */
#ifndef VT_FUSE_OPS_H
#define VT_FUSE_OPS_H

#include "fuse/fuse_server.h"

#include <stddef.h>
#include <sys/stat.h>

int vt_fuse_bad(struct vt_fuse_server *s, const struct vt_fuse_req *rq, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* SIZE argument bytes at OFF, or NULL */
const void *vt_fuse_arg_at(const struct vt_fuse_req *rq, size_t off, size_t size);
/* a NUL-terminated name at *OFF (advanced past it), or NULL */
const char *vt_fuse_name_at(const struct vt_fuse_req *rq, size_t *off);

/* In an operation (s, rq in scope): the argument VAR at OFF, the name at
 * OFF, the node ID, or return the server's fault. */
#define NEED(var, off) \
	do { \
		if (!((var) = vt_fuse_arg_at(rq, (off), sizeof(*(var))))) \
			return vt_fuse_bad(s, rq, "%zu argument bytes, %zu wanted", rq->arglen, \
				   (size_t)(off) + sizeof(*(var))); \
	} while (0)
#define NEED_NAME(var, off) \
	do { \
		if (!((var) = vt_fuse_name_at(rq, &(off)))) \
			return vt_fuse_bad(s, rq, "no NUL-terminated name at argument byte %zu", (size_t)(off)); \
	} while (0)
#define NODE(var, id) \
	do { \
		if (!((var) = vt_fuse_node_get(&s->nodes, (id)))) \
			return vt_fuse_bad(s, rq, "unknown node id %llu", (unsigned long long)(id)); \
	} while (0)

/* SIZE zeroed payload bytes, or NULL if the reply buffer is smaller */
void *vt_fuse_out(struct vt_fuse_reply *rp, size_t size);
/* the name the log shows: A, or A/B (RENAME's old and new names) */
void vt_fuse_log_name(struct vt_fuse_reply *rp, const char *a, const char *b);
void vt_fuse_fill_attr(struct vt_fuse_attr *a, const struct stat *st);
/* fstatat(FD, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW): 0 or -errno */
int vt_fuse_stat_fd(int fd, struct stat *st);

#define VT_FUSE_OP(name) \
	int vt_fuse_op_##name(struct vt_fuse_server *s, const struct vt_fuse_req *rq, \
			      struct vt_fuse_reply *rp)
VT_FUSE_OP(open);
VT_FUSE_OP(read);
VT_FUSE_OP(write);
VT_FUSE_OP(statfs);
VT_FUSE_OP(release);	/* RELEASE and RELEASEDIR */
VT_FUSE_OP(flush);
VT_FUSE_OP(fsync);	/* FSYNC and FSYNCDIR */
VT_FUSE_OP(opendir);
VT_FUSE_OP(readdir);
VT_FUSE_OP(getxattr);	/* GETXATTR and LISTXATTR */
VT_FUSE_OP(setxattr);
VT_FUSE_OP(removexattr);
VT_FUSE_OP(access);
#undef VT_FUSE_OP

#endif
