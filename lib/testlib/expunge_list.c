/* The case-level expunge list (expunge_list.h). */
#include "testlib/expunge_list.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHUNK 65536

/* Adds the entry of one line (no newline): "name<TAB>reason" or "name". */
static int add_line(struct vt_expunges *x, const char *line, size_t len)
{
	const char *tab = memchr(line, '\t', len);
	size_t nlen = tab ? (size_t)(tab - line) : len;
	char **nn = realloc(x->name, sizeof(char *) * (size_t)(x->n + 1));
	char **nw;

	if (!nn)
		return -1;
	x->name = nn;
	nw = realloc(x->why, sizeof(char *) * (size_t)(x->n + 1));
	if (!nw)
		return -1;
	x->why = nw;
	x->name[x->n] = strndup(line, nlen);
	x->why[x->n] = tab ? strndup(tab + 1, len - nlen - 1) : strdup("listed in an expunge file");
	if (!x->name[x->n] || !x->why[x->n]) {
		free(x->name[x->n]);
		free(x->why[x->n]);
		return -1;
	}
	x->n++;
	return 0;
}

static void drop_all(struct vt_expunges *x)
{
	int i;

	for (i = 0; i < x->n; i++) {
		free(x->name[i]);
		free(x->why[i]);
	}
	free(x->name);
	free(x->why);
	memset(x, 0, sizeof(*x));
}

int vt_expunges_load(struct vt_expunges *x, char *err, size_t errlen)
{
	const char *path = getenv("VT_EXPUNGE");
	char *buf = NULL, *p, *end;
	size_t len = 0;
	struct stat st;
	int fd, ret = -1;

	memset(x, 0, sizeof(*x));
	if (!path || !*path)
		return 0;
	/* without blocking (a FIFO would hang the open), regular files only
	 * (/dev/zero would be read for ever), and no more than the cap: a
	 * procfs file says size 0 whatever a read gives */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		snprintf(err, errlen, "VT_EXPUNGE=%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "VT_EXPUNGE=%s: not a regular file (./check writes one: lines "
			 "\"case<TAB>reason\")", path);
		goto out;
	}
	/* read a chunk at a time, past the cap by one chunk at most (whole
	 * chunks: /proc/self/pagemap refuses a read not a multiple of 8) */
	buf = malloc(VT_EXPUNGE_MAX + CHUNK);
	if (!buf) {
		snprintf(err, errlen, "VT_EXPUNGE=%s: out of memory", path);
		goto out;
	}
	while (len <= VT_EXPUNGE_MAX) {
		ssize_t n = read(fd, buf + len, CHUNK);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(err, errlen, "VT_EXPUNGE=%s: %s", path, strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	if (len > VT_EXPUNGE_MAX) {
		snprintf(err, errlen, "VT_EXPUNGE=%s: larger than %d bytes", path, VT_EXPUNGE_MAX);
		goto out;
	}
	for (p = buf, end = buf + len; p < end;) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (add_line(x, p, l) < 0) {
			snprintf(err, errlen, "VT_EXPUNGE=%s: out of memory", path);
			drop_all(x);
			goto out;
		}
		p += l + 1;
	}
	ret = 0;
out:
	free(buf);
	close(fd);
	return ret;
}

/* Is case NAME expunged, as "name" or as "TEST_ID/name" (TEST_ID: the
 * test the case belongs to, NULL: none)? The reason, or NULL. */
const char *vt_expunged(const struct vt_expunges *x, const char *test_id, const char *name)
{
	size_t tl = test_id ? strlen(test_id) : 0;
	int i;

	for (i = 0; i < x->n; i++) {
		const char *e = x->name[i];

		if (strcmp(e, name) == 0 ||
		    (test_id && strncmp(e, test_id, tl) == 0 && e[tl] == '/' && strcmp(e + tl + 1, name) == 0))
			return x->why[i];
	}
	return NULL;
}
