/* The KTAP writer (ktap.h).
 *
 * Built with VT_USE_KSELFTEST_H (configure --with-kselftest-dir=DIR or
 * make KSFT_DIR=DIR, DIR a kernel tree's tools/testing/selftests: make
 * writes lib/report/ksft-config.h; or by hand -DVT_USE_KSELFTEST_H -IDIR), the
 * top-level document on stdout is written by that tree's kselftest.h
 * wherever its format is ours: the header (ksft_print_header: "TAP version
 * 13", which KTAP parsers accept as the version line), the plan
 * (ksft_set_plan), passes and failures (ksft_test_result_pass/_fail with the
 * case name) and diagnostics (ksft_print_msg). kselftest.h's own counters
 * then number the results. What it has no matching call for stays ours:
 * "1..0 # SKIP reason" (ksft_exit_skip exits the process) and a skip line
 * that names the case ("ok N name # SKIP reason"; ksft_test_result_skip
 * puts the reason where the name goes), which counts through
 * ksft_inc_xskip_cnt so kselftest.h's numbering stays right. kselftest.h
 * writes only while its count of results is ours (see via_kselftest). Nested
 * documents and other streams are always ours: kselftest.h writes stdout,
 * unindented. No ksft_exit_*() is called: the exit status stays the
 * caller's (0 pass, 1 fail, 4 skipped). */
#include "ktap.h"
#include "progress.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/report/ksft-config.h"

#ifdef VT_USE_KSELFTEST_H
#ifndef VT_KSELFTEST_H
#define VT_KSELFTEST_H "kselftest.h"
#endif
#include VT_KSELFTEST_H

/* kselftest.h writes one unindented document to stdout and numbers its
 * results itself: it writes only while its count agrees with ours (not in
 * a second document of one process, nor in one whose counters came over a
 * fork with results already counted). */
static bool via_kselftest(const struct vt_ktap *k)
{
	return k->out == stdout && k->depth == 0 && ksft_test_num() == (unsigned int)(k->next - 1);
}

const char *vt_ktap_writer(void)
{
	return "kselftest.h";
}
#else
static bool via_kselftest(const struct vt_ktap *k)
{
	(void)k;
	return false;
}

const char *vt_ktap_writer(void)
{
	return "vfsidmap";
}
#endif

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
	k->lazy = false;
}

void vt_ktap_header(struct vt_ktap *k, int plan)
{
	if (k->out == stdout && k->depth == 0 && plan >= 0)
		vt_progress_plan(plan);
#ifdef VT_USE_KSELFTEST_H
	if (via_kselftest(k)) {
		ksft_print_header();
		if (plan >= 0)
			ksft_set_plan((unsigned int)plan);
		fflush(stdout);
		return;
	}
#endif
	indent(k);
	fputs("KTAP version 1\n", k->out);
	if (plan >= 0) {
		indent(k);
		fprintf(k->out, "1..%d\n", plan);
	}
	fflush(k->out);
}

void vt_ktap_subtest_header(struct vt_ktap *k, const char *name, int plan)
{
	char n[512];

	vt_ktap_name(name, n, sizeof(n));
	indent(k);
	fputs("KTAP version 1\n", k->out);
	indent(k);
	fprintf(k->out, "# Subtest: %s\n", n);
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
	const bool ksft = via_kselftest(k); /* before our count moves on */
	int num = k->next++;

	if (k->out == stdout && k->depth == 0)
		vt_progress_result();
	vt_ktap_name(name, n, sizeof(n));
	one_line(r, sizeof(r), reason);
	if (ksft) {
#ifdef VT_USE_KSELFTEST_H
		if (res == VT_PASS)
			ksft_test_result_pass("%s\n", n);
		else if (res == VT_FAIL)
			ksft_test_result_fail("%s\n", n);
		else {
			ksft_inc_xskip_cnt();
			printf("ok %u %s # SKIP %s\n", ksft_test_num(), n, r);
		}
		fflush(stdout);
		return;
#endif
	}
	indent(k);
	fprintf(k->out, "%s %d %s", res == VT_FAIL ? "not ok" : "ok", num, n);
	if (res == VT_SKIP)
		fprintf(k->out, " # SKIP %s", r);
	fputc('\n', k->out);
	if (!k->lazy)
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
		if (via_kselftest(k)) {
#ifdef VT_USE_KSELFTEST_H
			ksft_print_msg("%s\n", line);
#endif
		} else {
			indent(k);
			fprintf(k->out, "# %s\n", line);
		}
	}
	free(text);
	fflush(k->out);
}
