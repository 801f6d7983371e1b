/* A reference FUSE server for tests of idmapped mounts: a passthrough
 * over a backing directory, speaking the kernel's protocol on /dev/fuse
 * itself (fuse_wire.h) so that it can answer FUSE_ALLOW_IDMAP in INIT's
 * flags2, which libfuse 3.14 cannot. One thread; it runs as root in the
 * initial user namespace and gives each new inode the owner the kernel
 * sent in the request header (fuse_passthrough.c). Every request is
 * logged (fuse_reqlog.h). */
#ifndef VT_FUSE_SERVER_H
#define VT_FUSE_SERVER_H

#include "fuse/fuse_nodes.h"
#include "fuse/fuse_reqlog.h"
#include "fuse/fuse_wire.h"

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct vt_fuse_server_opts {
	const char *backing;	/* directory served */
	const char *mountpoint;
	const char *log_path;	/* request log, created or truncated */
	bool allow_idmap;	/* ask FUSE_ALLOW_IDMAP in the INIT reply */
};

struct vt_fuse_server {
	int devfd;		/* /dev/fuse */
	char mountpoint[4096];
	bool mounted;
	bool allow_idmap;
	FILE *log;
	struct vt_fuse_nodes nodes;
	uint32_t minor;		/* the protocol minor both sides use */
	char fault[256];	/* a request the server could not parse */
	/* Called once INIT is answered: the kernel has then processed the
	 * reply (process_init_reply runs as the reply is written), so every
	 * later request sees the connection's final SB_I_NOIDMAP. */
	void (*initialized)(void);
};

/* One request as read from /dev/fuse. */
struct vt_fuse_req {
	const struct vt_fuse_in_header *h;
	const char *arg;	/* the arguments, extensions excluded */
	size_t arglen;
	bool has_supp;		/* a FUSE_EXT_GROUPS extension came with it */
	uint32_t supp;
};

/* The reply's payload (after struct vt_fuse_out_header). */
struct vt_fuse_reply {
	char *data;
	size_t len, cap;
	bool none;		/* FORGET, BATCH_FORGET, INTERRUPT: no reply */
	uint64_t flags;		/* for the log: RENAME2's flags, INIT's reply flags */
	uint64_t offered;	/* INIT: the kernel's flags */
	char name[256];		/* for the log */
};

/* Opens /dev/fuse, the backing directory and the log, and mounts
 * MOUNTPOINT (fd=,rootmode=,user_id=,group_id=,default_permissions,
 * allow_other). 0 or -errno, with what failed on stderr. */
int vt_fuse_server_start(struct vt_fuse_server *s, const struct vt_fuse_server_opts *o);

/* Serves requests until the kernel ends the connection (ENODEV: the
 * filesystem was unmounted) or *STOP is set (a signal): then it detaches
 * the mount it made. 0, or 1 after a server fault (logged). */
int vt_fuse_server_run(struct vt_fuse_server *s, volatile sig_atomic_t *stop);

void vt_fuse_server_close(struct vt_fuse_server *s);

/* The operations (fuse_passthrough.c): fills RP and returns 0 or -errno.
 * A request too short for its opcode is -EPROTO with S->fault set. */
int vt_fuse_passthrough(struct vt_fuse_server *s, const struct vt_fuse_req *rq,
			struct vt_fuse_reply *rp);

#endif
