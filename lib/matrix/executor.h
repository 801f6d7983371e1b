/* The operation as the caller runs it, in the forked child: one system
 * call (two for write), then what the caller sees through the mount. */
#ifndef VT_MATRIX_EXECUTOR_H
#define VT_MATRIX_EXECUTOR_H

#include "model/world_model.h"

#include <limits.h>

struct vt_exec_req {
	struct vt_mop_args op;
	char dir[PATH_MAX];	/* P through the mount */
	char path[PATH_MAX];	/* the operand: P/o, or P/n for creates */
	char path2[PATH_MAX];	/* second operand: rename/link target */
	char result[PATH_MAX];	/* the name to stat afterwards ("" = none) */
};

struct vt_exec_reply {
	bool have_stat;		/* the result was stat()ed as the caller */
	uint32_t uid, gid;	/* caller view */
	mode_t mode;
	int nacl;		/* ACL_GET: entries, caller view */
	struct vt_acl_centry acl[VT_MODEL_MAX_ACL];
	struct vt_cfcaps fcaps;	/* FCAPS_GET */
	int link_err;		/* TMPFILE: naming it P/n (0 or errno) */
	bool have_creds;	/* EXEC: the probe reported */
	struct vt_exec_creds creds;
	char exec_msg[128];	/* EXEC: why the probe did not report */
	/* READ_ATIME: the atime before the read was the fixture's old one,
	 * and the read changed it */
	bool atime_was_old, atime_updated;
};

/* vt_caller_fn: ARG is a struct vt_exec_req, DATA a struct vt_exec_reply.
 * Returns 0 or the errno of the operation. */
int vt_exec_op(void *arg, void *data, size_t datalen);
/* FIDEDUPERANGE of 0 bytes from FD onto FD itself: 0, the ioctl's errno,
 * the destination's negative status as an errno, or EBADE (differs). */
int vt_exec_dedupe_self(int fd);
/* cachestat(2) of the whole file on FD: 0 or the errno */
int vt_exec_cachestat(int fd);

#endif
