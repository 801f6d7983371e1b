/* The reference FUSE server's request log: one line per request the
 * kernel sent, written by the server and read back by tests, so that a
 * test compares what the server was told (the header's uid, gid and pid,
 * the supplementary-group extension) with what the kernel must send.
 *
 *   op=MKDIR unique=12 nodeid=1 name=d uid=10000 gid=10000 pid=4242 supp=- flags=0 err=0
 *
 * name is the request's name argument (LOOKUP, creation, UNLINK, RMDIR,
 * the old name of RENAME, the xattr name), "-" if none; bytes outside
 * '!'..'~' and the backslash are written \xNN. flags is RENAME2's flags,
 * INIT's reply flags (64 bits) or 0; INIT also writes offered=, the
 * flags the kernel offered. err is the errno of the reply by name, 0, or
 * "noreply" (FORGET). A fault of the server's own (a request it could not
 * parse) is a line "server-error: TEXT", never a request line. */
#ifndef VT_FUSE_REQLOG_H
#define VT_FUSE_REQLOG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct vt_fuse_logrec {
	char op[24];		/* opcode name, "OP42" for an unknown one */
	uint64_t unique, nodeid;
	char name[256];		/* decoded; "" if none */
	uint32_t uid, gid, pid;
	bool has_supp;
	uint32_t supp;		/* the FUSE_EXT_GROUPS group */
	uint64_t flags, offered;
	bool noreply;
	int err;		/* positive errno of the reply, 0 */
};

/* The opcode's name in the 6.12 header without its FUSE_ prefix. */
const char *vt_fuse_opname(uint32_t opcode);

/* Writes REC as one line (flushed). */
void vt_fuse_log_write(FILE *f, const struct vt_fuse_logrec *rec);

/* Parses one request line; false for anything else (a server-error line). */
bool vt_fuse_log_parse(const char *line, struct vt_fuse_logrec *rec);

#endif
