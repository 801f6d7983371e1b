/* Writing and reading the reference FUSE server's request log
 * (fuse_reqlog.h has the format). */
#include "fuse/fuse_reqlog.h"
#include "fuse/fuse_wire.h"
#include "util/errname.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

const char *vt_fuse_opname(uint32_t opcode)
{
	static const char *const names[] = {
		[VT_FUSE_LOOKUP] = "LOOKUP", [VT_FUSE_FORGET] = "FORGET",
		[VT_FUSE_GETATTR] = "GETATTR", [VT_FUSE_SETATTR] = "SETATTR",
		[VT_FUSE_READLINK] = "READLINK", [VT_FUSE_SYMLINK] = "SYMLINK",
		[VT_FUSE_MKNOD] = "MKNOD", [VT_FUSE_MKDIR] = "MKDIR", [VT_FUSE_UNLINK] = "UNLINK",
		[VT_FUSE_RMDIR] = "RMDIR", [VT_FUSE_RENAME] = "RENAME", [VT_FUSE_LINK] = "LINK",
		[VT_FUSE_OPEN] = "OPEN", [VT_FUSE_READ] = "READ", [VT_FUSE_WRITE] = "WRITE",
		[VT_FUSE_STATFS] = "STATFS", [VT_FUSE_RELEASE] = "RELEASE", [VT_FUSE_FSYNC] = "FSYNC",
		[VT_FUSE_SETXATTR] = "SETXATTR", [VT_FUSE_GETXATTR] = "GETXATTR",
		[VT_FUSE_LISTXATTR] = "LISTXATTR", [VT_FUSE_REMOVEXATTR] = "REMOVEXATTR",
		[VT_FUSE_FLUSH] = "FLUSH", [VT_FUSE_INIT] = "INIT", [VT_FUSE_OPENDIR] = "OPENDIR",
		[VT_FUSE_READDIR] = "READDIR", [VT_FUSE_RELEASEDIR] = "RELEASEDIR",
		[VT_FUSE_FSYNCDIR] = "FSYNCDIR", [VT_FUSE_GETLK] = "GETLK", [VT_FUSE_SETLK] = "SETLK",
		[VT_FUSE_SETLKW] = "SETLKW", [VT_FUSE_ACCESS] = "ACCESS", [VT_FUSE_CREATE] = "CREATE",
		[VT_FUSE_INTERRUPT] = "INTERRUPT", [VT_FUSE_BMAP] = "BMAP",
		[VT_FUSE_DESTROY] = "DESTROY", [VT_FUSE_IOCTL] = "IOCTL", [VT_FUSE_POLL] = "POLL",
		[VT_FUSE_NOTIFY_REPLY] = "NOTIFY_REPLY", [VT_FUSE_BATCH_FORGET] = "BATCH_FORGET",
		[VT_FUSE_FALLOCATE] = "FALLOCATE", [VT_FUSE_READDIRPLUS] = "READDIRPLUS",
		[VT_FUSE_RENAME2] = "RENAME2", [VT_FUSE_LSEEK] = "LSEEK",
		[VT_FUSE_COPY_FILE_RANGE] = "COPY_FILE_RANGE",
		[VT_FUSE_SETUPMAPPING] = "SETUPMAPPING", [VT_FUSE_REMOVEMAPPING] = "REMOVEMAPPING",
		[VT_FUSE_SYNCFS] = "SYNCFS", [VT_FUSE_TMPFILE] = "TMPFILE", [VT_FUSE_STATX] = "STATX",
	};
	static _Thread_local char other[24];

	if (opcode < sizeof(names) / sizeof(names[0]) && names[opcode])
		return names[opcode];
	snprintf(other, sizeof(other), "OP%" PRIu32, opcode);
	return other;
}

static void write_escaped(FILE *f, const char *s)
{
	const char *start = s;

	if (!*s) {
		fputc('-', f);
		return;
	}
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		/* a name of just "-" is escaped: "-" alone means none */
		if (c < '!' || c > '~' || c == '\\' || (c == '-' && s[1] == '\0' && s == start))
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
}

void vt_fuse_log_write(FILE *f, const struct vt_fuse_logrec *r)
{
	fprintf(f, "op=%s unique=%" PRIu64 " nodeid=%" PRIu64 " name=", r->op, r->unique, r->nodeid);
	write_escaped(f, r->name);
	fprintf(f, " uid=%" PRIu32 " gid=%" PRIu32 " pid=%" PRIu32, r->uid, r->gid, r->pid);
	if (r->has_supp)
		fprintf(f, " supp=%" PRIu32, r->supp);
	else
		fputs(" supp=-", f);
	fprintf(f, " flags=0x%" PRIx64, r->flags);
	if (strcmp(r->op, "INIT") == 0)
		fprintf(f, " offered=0x%" PRIx64, r->offered);
	fprintf(f, " err=%s\n", r->noreply ? "noreply" : vt_errname(r->err));
	fflush(f);
}

static bool decode_name(const char *v, size_t len, char *out, size_t outlen)
{
	size_t o = 0;

	if (len == 1 && v[0] == '-') {
		out[0] = '\0';
		return true;
	}
	for (size_t i = 0; i < len; i++) {
		char c = v[i];

		if (c == '\\') {
			char hex[3];

			if (i + 3 >= len || v[i + 1] != 'x')
				return false;
			hex[0] = v[i + 2];
			hex[1] = v[i + 3];
			hex[2] = '\0';
			c = (char)strtoul(hex, NULL, 16);
			i += 3;
		}
		if (o + 1 >= outlen)
			return false;
		out[o++] = c;
	}
	out[o] = '\0';
	return true;
}

static bool parse_u64(const char *v, size_t len, uint64_t *out)
{
	char buf[32], *end;

	if (len == 0 || len >= sizeof(buf))
		return false;
	memcpy(buf, v, len);
	buf[len] = '\0';
	*out = strtoull(buf, &end, 0);
	return *end == '\0';
}

bool vt_fuse_log_parse(const char *line, struct vt_fuse_logrec *r)
{
	const char *p = line;
	unsigned int seen = 0;

	memset(r, 0, sizeof(*r));
	if (strncmp(line, "op=", 3) != 0)
		return false;
	while (*p && *p != '\n') {
		const char *key = p, *eq = strchr(p, '='), *val, *end;
		size_t klen, vlen;
		uint64_t n = 0;

		if (!eq)
			return false;
		klen = (size_t)(eq - key);
		val = eq + 1;
		end = val + strcspn(val, " \n");
		vlen = (size_t)(end - val);
		p = *end == ' ' ? end + 1 : end;
#define KEY(k) (klen == sizeof(k) - 1 && memcmp(key, k, klen) == 0)
		if (KEY("op")) {
			if (vlen == 0 || vlen >= sizeof(r->op))
				return false;
			memcpy(r->op, val, vlen);
			seen |= 1;
		} else if (KEY("name")) {
			if (!decode_name(val, vlen, r->name, sizeof(r->name)))
				return false;
		} else if (KEY("supp")) {
			if (!(vlen == 1 && *val == '-')) {
				if (!parse_u64(val, vlen, &n))
					return false;
				r->has_supp = true;
				r->supp = (uint32_t)n;
			}
		} else if (KEY("err")) {
			char e[32];

			if (vlen == 0 || vlen >= sizeof(e))
				return false;
			memcpy(e, val, vlen);
			e[vlen] = '\0';
			if (strcmp(e, "noreply") == 0)
				r->noreply = true;
			else if (strcmp(e, "0") != 0 && (r->err = vt_errno_from_name(e)) < 0)
				return false;
			seen |= 2;
		} else {
			if (!parse_u64(val, vlen, &n))
				return false;
			if (KEY("unique"))
				r->unique = n;
			else if (KEY("nodeid"))
				r->nodeid = n;
			else if (KEY("uid"))
				r->uid = (uint32_t)n;
			else if (KEY("gid"))
				r->gid = (uint32_t)n;
			else if (KEY("pid"))
				r->pid = (uint32_t)n;
			else if (KEY("flags"))
				r->flags = n;
			else if (KEY("offered"))
				r->offered = n;
			else
				return false;
		}
#undef KEY
	}
	return seen == 3;
}
