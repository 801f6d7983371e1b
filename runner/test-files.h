/* What check does with a test's output once the test has ended, in one
 * process instead of a cat, a cp or two and an awk per test (forks are dear
 * in run/vm's TCG guest): the per-test result files, and the facts check
 * needs of the KTAP. */
#ifndef VT_RUNNER_TEST_FILES_H
#define VT_RUNNER_TEST_FILES_H

#include <stdio.h>

/* From OUT.ktap, OUT.stderr and OUT.rules (written by the executor and the
 * test), writes in this order:
 *   BASE.full   HEADER, then OUT.ktap, then "== stderr\n" and OUT.stderr
 *               when OUT.stderr is not empty;
 *   BASE.ktap   a copy of OUT.ktap;
 *   BASE.rules  a copy of OUT.rules, when that is a regular file.
 * Prints to DIGEST three lines about OUT.ktap (common/run.sh reads them):
 *   "SKIPALL PLAN GOT PASSED FAILED SKIPPED": SKIPALL 1 when a line starts
 *   with "1..0 # SKIP"; PLAN the digits after the first "1..N" line, "-"
 *   without one; GOT the top-level results ("ok N" or "not ok N", N a
 *   digit); PASSED, FAILED, SKIPPED the top-level "ok " without " # SKIP",
 *   "not ok ", "ok " with " # SKIP";
 *   the rest of the first line starting with "1..0 # SKIP " (or nothing);
 *   "NAME: REASON" of the first line "<spaces>ok <digits> NAME # SKIP REASON"
 *   (NAME without spaces; or nothing).
 * Returns 0, or -1 with *FAILED the first file that could not be written
 * (the others are still tried; the digest is still printed). */
int vt_test_files(const char *out, const char *base, const char *header, FILE *digest,
		  const char **failed);

#endif
