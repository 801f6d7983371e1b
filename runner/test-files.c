#include "test-files.h"
#include "util/fd_io.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct buf {
	char *data;
	size_t len;
};

/* The whole of PATH; false if it cannot be read (BUF then empty). */
static bool read_all(const char *path, struct buf *buf)
{
	size_t cap = 65536;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	buf->data = NULL;
	buf->len = 0;
	if (fd < 0)
		return false;
	buf->data = malloc(cap);
	if (!buf->data) {
		close(fd);
		return false;
	}
	for (;;) {
		if (buf->len == cap) {
			char *more = realloc(buf->data, cap * 2);

			if (!more)
				break;
			buf->data = more;
			cap *= 2;
		}
		n = read(fd, buf->data + buf->len, cap - buf->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close(fd);
			return n == 0;
		}
		buf->len += (size_t)n;
	}
	close(fd);
	return false;
}

/* PATH written anew from NPARTS parts; false on any error. */
static bool write_file(const char *path, const struct buf *parts, size_t nparts)
{
	size_t i;
	bool ok;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);

	if (fd < 0)
		return false;
	ok = true;
	for (i = 0; ok && i < nparts; i++)
		ok = vt_write_full(fd, parts[i].data, parts[i].len);
	/* close reports a deferred write error (NFS, a full filesystem) */
	if (close(fd) != 0)
		ok = false;
	return ok;
}

static bool starts(const char *line, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && memcmp(line, prefix, n) == 0;
}

static bool contains(const char *line, size_t len, const char *needle)
{
	size_t n = strlen(needle), i;

	for (i = 0; i + n <= len; i++)
		if (memcmp(line + i, needle, n) == 0)
			return true;
	return false;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* "<spaces>ok <digits> NAME # SKIP REASON" -> NAME (start, length) and
 * REASON's start; the same lines as the ERE ^ *ok [0-9]* [^ ]* # SKIP  */
static bool case_skip(const char *l, size_t len, size_t *name, size_t *name_len, size_t *reason)
{
	size_t i = 0, n;

	while (i < len && l[i] == ' ')
		i++;
	if (!starts(l + i, len - i, "ok "))
		return false;
	i += 3;
	while (i < len && is_digit(l[i]))
		i++;
	if (i >= len || l[i] != ' ')
		return false;
	i++;
	n = i;
	while (i < len && l[i] != ' ')
		i++;
	if (!starts(l + i, len - i, " # SKIP "))
		return false;
	*name = n;
	*name_len = i - n;
	*reason = i + 8;
	return true;
}

static void digest_ktap(const struct buf *k, FILE *out)
{
	bool skipall = false, have_reason1 = false, have_reason2 = false, have_plan = false;
	size_t plan = 0, plan_len = 0, r1 = 0, r1_len = 0, r2n = 0, r2n_len = 0, r2 = 0, r2_len = 0;
	unsigned long long got = 0, passed = 0, failed = 0, skipped = 0;
	size_t pos = 0;

	while (pos < k->len) {
		const char *l = k->data + pos;
		const char *nl = memchr(l, '\n', k->len - pos);
		size_t len = nl ? (size_t)(nl - l) : k->len - pos;
		size_t a, b, c;

		if (starts(l, len, "1..0 # SKIP"))
			skipall = true;
		if (!have_reason1 && starts(l, len, "1..0 # SKIP ")) {
			have_reason1 = true;
			r1 = pos + 12;
			r1_len = len - 12;
		}
		if (!have_plan && len > 3 && starts(l, len, "1..") && is_digit(l[3])) {
			have_plan = true;
			plan = pos + 3;
			for (plan_len = 0; 3 + plan_len < len && is_digit(l[3 + plan_len]); plan_len++)
				;
		}
		if ((len > 3 && starts(l, len, "ok ") && is_digit(l[3])) ||
		    (len > 7 && starts(l, len, "not ok ") && is_digit(l[7])))
			got++;
		if (starts(l, len, "not ok "))
			failed++;
		if (starts(l, len, "ok ")) {
			if (contains(l, len, " # SKIP"))
				skipped++;
			else
				passed++;
		}
		if (!have_reason2 && case_skip(l, len, &a, &b, &c)) {
			have_reason2 = true;
			r2n = pos + a;
			r2n_len = b;
			r2 = pos + c;
			r2_len = len - c;
		}
		pos += len + (nl ? 1 : 0);
	}
	fprintf(out, "%d ", skipall ? 1 : 0);
	if (have_plan)
		fwrite(k->data + plan, 1, plan_len, out);
	else
		fputc('-', out);
	fprintf(out, " %llu %llu %llu %llu\n", got, passed, failed, skipped);
	if (have_reason1)
		fwrite(k->data + r1, 1, r1_len, out);
	fputc('\n', out);
	if (have_reason2) {
		fwrite(k->data + r2n, 1, r2n_len, out);
		fputs(": ", out);
		fwrite(k->data + r2, 1, r2_len, out);
	}
	fputc('\n', out);
}

int vt_test_files(const char *out, const char *base, const char *header, FILE *digest,
		  const char **failed)
{
	static char path[PATH_MAX], dest[PATH_MAX];
	static char failed_path[PATH_MAX];
	struct buf ktap, err, rules, parts[4];
	struct stat st;
	bool ktap_ok;
	size_t n = 0;
	int ret = 0;

	*failed = NULL;
#define FAIL(p)                                                                   \
	do {                                                                      \
		if (!*failed) {                                                   \
			snprintf(failed_path, sizeof(failed_path), "%s", (p));    \
			*failed = failed_path;                                    \
		}                                                                 \
		ret = -1;                                                         \
	} while (0)
	snprintf(path, sizeof(path), "%s.ktap", out);
	ktap_ok = read_all(path, &ktap);
	snprintf(path, sizeof(path), "%s.stderr", out);
	read_all(path, &err);

	parts[n++] = (struct buf){ (char *)header, strlen(header) };
	parts[n++] = ktap;
	if (err.len) {
		parts[n++] = (struct buf){ (char *)"== stderr\n", 10 };
		parts[n++] = err;
	}
	snprintf(dest, sizeof(dest), "%s.full", base);
	if (!write_file(dest, parts, n))
		FAIL(dest);
	snprintf(dest, sizeof(dest), "%s.ktap", base);
	if (!ktap_ok || !write_file(dest, &ktap, 1))
		FAIL(dest);
	snprintf(path, sizeof(path), "%s.rules", out);
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
		snprintf(dest, sizeof(dest), "%s.rules", base);
		if (!read_all(path, &rules) || !write_file(dest, &rules, 1))
			FAIL(dest);
		free(rules.data);
	}
#undef FAIL
	digest_ktap(&ktap, digest);
	free(ktap.data);
	free(err.data);
	if (fflush(digest) != 0)
		ret = -1;
	return ret;
}
