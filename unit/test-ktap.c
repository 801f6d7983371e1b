/* KTAP writer: exact output for results, skips, diagnostics and nesting,
 * and the top-level stdout document through whichever writer is built in
 * (ours, or a kernel tree's kselftest.h with KSFT_DIR). */
#include "unit.h"

#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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
	vt_ktap_init(&sub, k->out, 1);
	vt_ktap_subtest_header(&sub, "inner", 1);
	vt_ktap_diag(&sub, "line one\nline two");
	vt_ktap_result(&sub, VT_PASS, "x", NULL);
	vt_ktap_result(k, VT_PASS, "inner", NULL);
}

static void skip_all(struct vt_ktap *k)
{
	vt_ktap_header(k, -1);
	vt_ktap_skip_all(k, "needs root");
}

static void top_with_diag(struct vt_ktap *k)
{
	top(k);
	vt_ktap_diag(k, "two\nlines");
}

/* FN's document written to stdout at depth 0, in a child (kselftest.h's
 * counters are the process's), read back through a pipe. */
static char *render_stdout(void (*fn)(struct vt_ktap *))
{
	static char buf[4096];
	size_t len = 0;
	ssize_t n;
	int p[2], status;
	pid_t pid;

	memset(buf, 0, sizeof(buf));
	fflush(stdout);
	if (pipe(p) < 0 || (pid = fork()) < 0)
		return buf;
	if (pid == 0) {
		struct vt_ktap k;

		unsetenv("KSFT_TAP_LEVEL");
		dup2(p[1], STDOUT_FILENO);
		close(p[0]);
		close(p[1]);
		vt_ktap_init(&k, stdout, 0);
		fn(&k);
		fflush(stdout);
		_exit(0);
	}
	close(p[1]);
	while (len < sizeof(buf) - 1 && (n = read(p[0], buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	close(p[0]);
	waitpid(pid, &status, 0);
	return buf;
}

int main(void)
{
	const bool ksft = strcmp(vt_ktap_writer(), "kselftest.h") == 0;
	char expect[512], *got;

	/* First, while this process has written nothing: a child's document
	 * through kselftest.h starts from its counters as they are here. */
	got = render_stdout(top_with_diag);
	unit_begin(4);
	unit_check(strcmp(render(top), "KTAP version 1\n1..3\nok 1 a\nnot ok 2 b_c\n"
				       "ok 3 d # SKIP no vfat in kernel\n") == 0,
		   "results, '#' in names and multi-line skip reasons");
	/* ktap.rst: a subtest begins with its version line; KUnit's
	 * "# Subtest:" comes after it, before the plan. */
	unit_check(strcmp(render(nested), "KTAP version 1\n1..1\n"
					  "  KTAP version 1\n  # Subtest: inner\n  1..1\n"
					  "  # line one\n  # line two\n"
					  "  ok 1 x\nok 1 inner\n") == 0,
		   "nested subtest indented by two spaces: version line, Subtest, plan; diagnostics split per line");
	unit_check(strcmp(render(skip_all), "KTAP version 1\n1..0 # SKIP needs root\n") == 0,
		   "whole test skipped");
	/* kselftest.h's header is "TAP version 13"; the rest is the same text. */
	snprintf(expect, sizeof(expect), "%s\n1..3\nok 1 a\nnot ok 2 b_c\n"
		 "ok 3 d # SKIP no vfat in kernel\n# two\n# lines\n",
		 ksft ? "TAP version 13" : "KTAP version 1");
	if (strcmp(got, expect) != 0)
		vt_ktap_diag(&unit_ktap, "expected:\n%s\ngot:\n%s", expect, got);
	unit_check(strcmp(got, expect) == 0,
		   ksft ? "the stdout document through kselftest.h: its header, our results"
			: "the stdout document through our writer");
	return unit_end();
}
