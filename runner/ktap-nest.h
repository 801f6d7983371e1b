/* A failed test's KTAP stream as results.ktap nests it, made whole and
 * given a failing leaf for each failure of the test as a whole.
 *
 * Kernel CI reads results.ktap with the kernel's KTAP parser
 * (tools/testing/kunit/kunit.py parse), which counts the leaves of the
 * tree, never a parent's own result: a test whose cases all passed but
 * that crashed, timed out, leaked, left trouble in the kernel log or a
 * corrupt filesystem would count as passed there. So such a failure
 * becomes a leaf of its own, after the test's cases:
 *
 *     not ok K test-level:TYPE[ # [DIRECTIVE ]REASON]
 *
 * (Documentation/dev-tools/ktap.rst, "Test case result lines": a result,
 * its number, a description, then "#", an optional directive and
 * diagnostic data.) TYPE is check's failure or error type (crash,
 * timeout, leak, kernel-log, fsck, mismatch, harness, setup,
 * interrupted). The description is fixed, the reason goes after "#": CI
 * systems follow a test from run to run by its name, and a reason holds
 * times, pids and paths. DIRECTIVE is TIMEOUT for a timeout and ERROR for
 * a broken harness, the two that ktap.rst defines for a "not ok" result;
 * the others have none. "#" in the reason becomes "_" (as in names:
 * ktap.h): a later " # SKIP" there would make kunit.py count the leaf as
 * skipped. */
#ifndef VT_RUNNER_KTAP_NEST_H
#define VT_RUNNER_KTAP_NEST_H

#include <stddef.h>
#include <stdio.h>

struct vt_ktap_leaf {
	const char *type;	/* "crash", "kernel-log", ... */
	const char *directive;	/* "TIMEOUT", "ERROR" or "" */
	const char *reason;	/* one line; "" for none */
};

/* Writes to OUT the test's stream IN (NULL or empty: the test wrote
 * nothing) indented one level, as the subtest NAME of results.ktap: its
 * version line (or "KTAP version 1" when it has none), "# Subtest: NAME",
 * then the rest, made whole:
 *   - a last line without its newline (the test was killed while writing
 *     it) becomes a diagnostic line "# cut off: ...";
 *   - a subtest of the stream left open (the test died inside it) gets
 *     its plan set to the results it has and its result line, "not ok";
 *   - the stream's own plan becomes the number of its results plus the
 *     leaves (one is added after the header when there is none), and a
 *     diagnostic line keeps the plan the test wrote when that differed;
 *     a second plan line becomes a diagnostic line;
 *   - then the NLEAVES leaves, numbered on from the stream's results.
 * Cases that a test planned and never reported get no result line of
 * their own: their names are not known, and a made-up result would be a
 * test that never ran. ktap.rst asks a plan to give the number of tests
 * that follow ("Plan lines"), so the plan is rewritten to the results
 * present; the leaf says why the rest are missing.
 * The result line of the test itself ("not ok N NAME") is the caller's.
 * Returns 0, or -1 when writing OUT failed. */
int vt_ktap_nest(FILE *in, const char *name, const struct vt_ktap_leaf *leaves, size_t nleaves,
		 FILE *out);

#endif
