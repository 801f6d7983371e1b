#include "ktap.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void indent(const struct vt_ktap *k)
{
	int i;

	for (i = 0; i < k->depth; i++)
		fputs("  ", k->out);
}

void vt_ktap_init(struct vt_ktap *k, FILE *out, int depth)
{
	k->out = out;
	k->depth = depth;
	k->next = 1;
}

void vt_ktap_header(struct vt_ktap *k, int plan)
{
	indent(k);
	fputs("KTAP version 1\n", k->out);
	if (plan >= 0) {
		indent(k);
		fprintf(k->out, "1..%d\n", plan);
	}
	fflush(k->out);
}

const char *vt_ktap_name(const char *name, char *buf, size_t len)
{
	size_t i;

	snprintf(buf, len, "%s", name ? name : "");
	for (i = 0; buf[i]; i++)
		if (buf[i] == '#' || buf[i] == '\n' || buf[i] == '\r')
			buf[i] = '_';
	return buf;
}

static void one_line(char *dst, size_t len, const char *src)
{
	size_t i;

	snprintf(dst, len, "%s", src ? src : "");
	for (i = 0; dst[i]; i++)
		if (dst[i] == '\n' || dst[i] == '\r')
			dst[i] = ' ';
}

void vt_ktap_skip_all(struct vt_ktap *k, const char *reason)
{
	char r[512];

	one_line(r, sizeof(r), reason);
	indent(k);
	fprintf(k->out, "1..0 # SKIP %s\n", r);
	fflush(k->out);
}

void vt_ktap_result(struct vt_ktap *k, enum vt_result res, const char *name, const char *reason)
{
	char n[512], r[512];

	vt_ktap_name(name, n, sizeof(n));
	one_line(r, sizeof(r), reason);
	indent(k);
	fprintf(k->out, "%s %d %s", res == VT_FAIL ? "not ok" : "ok", k->next++, n);
	if (res == VT_SKIP)
		fprintf(k->out, " # SKIP %s", r);
	fputc('\n', k->out);
	fflush(k->out);
}

void vt_ktap_diag(struct vt_ktap *k, const char *fmt, ...)
{
	va_list ap;
	char *text = NULL, *line, *save = NULL;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		indent(k);
		fprintf(k->out, "# %s\n", line);
	}
	free(text);
	fflush(k->out);
}
