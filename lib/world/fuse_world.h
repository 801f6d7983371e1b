/* A FUSE mount of the suite's reference server (runner/vfsidmap-fuse-server)
 * for a test: started over a backing directory, waited for, stopped, and
 * its request log read back. */
#ifndef VT_FUSE_WORLD_H
#define VT_FUSE_WORLD_H

#include "fuse/fuse_reqlog.h"

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct vt_fuse_mount {
	pid_t pid;		/* the server; 0 when not running */
	char mountpoint[4096];
	char log[4096];
};

/* The server program next to the running test program (PROG_DIR/../../
 * runner/vfsidmap-fuse-server: the same layout in the build and the
 * installed tree). Writes the path into BUF; 0 or -errno. */
int vt_fuse_server_path(char *buf, size_t len);

/* Starts the server over BACKING at MOUNTPOINT (both exist), logging to
 * LOG, asking FUSE_ALLOW_IDMAP unless !ALLOW_IDMAP; returns once the
 * server has answered INIT (so no request of the test's can have read
 * SB_I_NOIDMAP before the kernel processed the reply: fuse_get_req reads
 * it before it waits for INIT). 0,
 * or -errno with a reason in WHY (the server's stderr goes to the
 * test's). */
int vt_fuse_mount_start(struct vt_fuse_mount *m, const char *backing, const char *mountpoint,
			const char *log, bool allow_idmap, char *why, size_t whylen);

/* Unmounts MOUNTPOINT (the kernel then ends the server: ENODEV) and
 * waits for the server; a server still there after five seconds gets
 * SIGTERM (it detaches the mount), then SIGKILL. Returns the server's
 * exit status (0 clean, 1 a server error it logged), or -1 when it had
 * to be killed; WHY says what went wrong. */
int vt_fuse_mount_stop(struct vt_fuse_mount *m, char *why, size_t whylen);

/* Reads the log: calls FN for each request line; returns the number of
 * request lines, or -errno; *SERVER_ERRORS counts "server-error:" lines
 * (the first one copied into WHY). */
int vt_fuse_log_each(const char *log, void (*fn)(const struct vt_fuse_logrec *r, void *arg),
		     void *arg, int *server_errors, char *why, size_t whylen);

#endif
