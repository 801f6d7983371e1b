/* The reference FUSE server's request log (lib/fuse/fuse_reqlog.c): what
 * the server writes, a test reads back unchanged; lines that are not a
 * request (a server error, a damaged line) are refused. */
#include "unit.h"
#include "fuse/fuse_reqlog.h"
#include "fuse/fuse_wire.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static bool same(const struct vt_fuse_logrec *a, const struct vt_fuse_logrec *b)
{
	return strcmp(a->op, b->op) == 0 && a->unique == b->unique && a->nodeid == b->nodeid &&
	       strcmp(a->name, b->name) == 0 && a->uid == b->uid && a->gid == b->gid &&
	       a->pid == b->pid && a->has_supp == b->has_supp && a->supp == b->supp &&
	       a->flags == b->flags && a->offered == b->offered && a->noreply == b->noreply &&
	       a->err == b->err;
}

static bool roundtrip(const struct vt_fuse_logrec *in, char *line, size_t len)
{
	struct vt_fuse_logrec out;
	FILE *f = fmemopen(line, len, "w");

	if (!f)
		return false;
	vt_fuse_log_write(f, in);
	fclose(f);
	return vt_fuse_log_parse(line, &out) && same(in, &out);
}

int main(void)
{
	static const struct vt_fuse_logrec recs[] = {
		{ .op = "MKDIR", .unique = 12, .nodeid = 1, .name = "d", .uid = 10000, .gid = 10000,
		  .pid = 4242 },
		{ .op = "CREATE", .unique = 14, .nodeid = 3, .name = "u", .uid = 11000, .gid = 11000,
		  .has_supp = true, .supp = 11500 },
		{ .op = "GETATTR", .unique = 4, .nodeid = 1, .uid = VT_FUSE_INVALID_UIDGID,
		  .gid = VT_FUSE_INVALID_UIDGID, .err = ENOENT },
		{ .op = "INIT", .unique = 2, .flags = VT_FUSE_ALLOW_IDMAP | VT_FUSE_INIT_EXT,
		  .offered = 0x5fd73fffffbULL },
		{ .op = "FORGET", .unique = 90, .nodeid = 7, .noreply = true },
		{ .op = "RENAME2", .nodeid = 1, .name = "d/d2", .flags = 4 },
		{ .op = "LOOKUP", .name = "a name with spaces\\and a backslash" },
		{ .op = "LOOKUP", .name = "-" },
		{ .op = "LOOKUP", .name = "x-" },
		{ .op = "OP99", .err = ENOSYS },
	};
	static const char *const refused[] = {
		"server-error: short read: 12 bytes, a header is 40",
		"op=GETATTR unique=1 nodeid=1 name=- uid=0 gid=0 pid=0 supp=- flags=0x0",
		"op=GETATTR unique=1 nodeid=1 name=- uid=0 gid=0 pid=0 supp=- flags=0x0 err=ENOTANERRNO",
		"op=GETATTR unique=1 nodeid=1 name=- uid=zero gid=0 pid=0 supp=- flags=0x0 err=0",
		"op=GETATTR unique=1 what=1 err=0",
		"op=LOOKUP name=\\x4 err=0",
		"",
	};
	size_t nrecs = sizeof(recs) / sizeof(recs[0]), nref = sizeof(refused) / sizeof(refused[0]);
	char line[1024], name[128];
	struct vt_fuse_logrec r;

	unit_begin((int)(nrecs + nref + 2));
	for (size_t i = 0; i < nrecs; i++) {
		snprintf(name, sizeof(name), "round trip of %s %s", recs[i].op, recs[i].name);
		unit_check(roundtrip(&recs[i], line, sizeof(line)), name);
	}
	for (size_t i = 0; i < nref; i++) {
		snprintf(name, sizeof(name), "refused: \"%.60s\"", refused[i]);
		unit_check(!vt_fuse_log_parse(refused[i], &r), name);
	}
	unit_check(strcmp(vt_fuse_opname(VT_FUSE_RENAME2), "RENAME2") == 0, "opcode 45 is RENAME2");
	unit_check(strcmp(vt_fuse_opname(4096), "OP4096") == 0, "an unknown opcode by number");
	return unit_end();
}
