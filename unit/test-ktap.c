/* KTAP writer: exact output for results, skips, diagnostics and nesting. */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *render(void (*fn)(struct vt_ktap *))
{
	static char buf[4096];
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	struct vt_ktap k;

	memset(buf, 0, sizeof(buf));
	vt_ktap_init(&k, f, 0);
	fn(&k);
	fclose(f);
	return buf;
}

static void top(struct vt_ktap *k)
{
	vt_ktap_header(k, 3);
	vt_ktap_result(k, VT_PASS, "a", NULL);
	vt_ktap_result(k, VT_FAIL, "b#c", NULL);
	vt_ktap_result(k, VT_SKIP, "d", "no vfat\nin kernel");
}

static void nested(struct vt_ktap *k)
{
	struct vt_ktap sub;

	vt_ktap_header(k, 1);
	vt_ktap_diag(k, "Subtest: inner");
	vt_ktap_init(&sub, k->out, 1);
	vt_ktap_header(&sub, 1);
	vt_ktap_diag(&sub, "line one\nline two");
	vt_ktap_result(&sub, VT_PASS, "x", NULL);
	vt_ktap_result(k, VT_PASS, "inner", NULL);
}

static void skip_all(struct vt_ktap *k)
{
	vt_ktap_header(k, -1);
	vt_ktap_skip_all(k, "needs root");
}

int main(void)
{
	unit_begin(3);
	unit_check(strcmp(render(top), "KTAP version 1\n1..3\nok 1 a\nnot ok 2 b_c\n"
				       "ok 3 d # SKIP no vfat in kernel\n") == 0,
		   "results, '#' in names and multi-line skip reasons");
	unit_check(strcmp(render(nested), "KTAP version 1\n1..1\n# Subtest: inner\n"
					  "  KTAP version 1\n  1..1\n  # line one\n  # line two\n"
					  "  ok 1 x\nok 1 inner\n") == 0,
		   "nested subtest indented by two spaces, diagnostics split per line");
	unit_check(strcmp(render(skip_all), "KTAP version 1\n1..0 # SKIP needs root\n") == 0,
		   "whole test skipped");
	return unit_end();
}
