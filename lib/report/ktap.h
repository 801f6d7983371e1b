/* KTAP v1 writer, as kselftest writes it (Documentation/dev-tools/ktap.rst):
 * "KTAP version 1", a plan "1..N", one "ok N name" / "not ok N name" line a
 * test, "# SKIP reason" directives, "# " diagnostics, and nested subtests
 * indented by two spaces per level. Built against a kernel tree's
 * kselftest.h (VT_USE_KSELFTEST_H), the top-level document on stdout is
 * written through it where the formats agree; see ktap.c. */
#ifndef VT_KTAP_H
#define VT_KTAP_H

#include <stdbool.h>
#include <stdio.h>

enum vt_result { VT_PASS, VT_FAIL, VT_SKIP };

struct vt_ktap {
	FILE *out;
	int depth;	/* nesting level; indentation is 2*depth */
	int next;	/* number of the next result at this level */
	/* results are not flushed one by one: the writer flushes (the
	 * matrix, after each block of up to 256 cases: a write a case was
	 * a tenth of its system calls) */
	bool lazy;
};

void vt_ktap_init(struct vt_ktap *k, FILE *out, int depth);
/* "KTAP version 1" and the plan; PLAN < 0 leaves the plan out. */
void vt_ktap_header(struct vt_ktap *k, int plan);
/* A nested test as Documentation/dev-tools/ktap.rst and KUnit write it:
 * its version line, "# Subtest: NAME", then its plan (PLAN < 0: none). */
void vt_ktap_subtest_header(struct vt_ktap *k, const char *name, int plan);
/* "1..0 # SKIP reason": the whole test did not run. */
void vt_ktap_skip_all(struct vt_ktap *k, const char *reason);
/* One result line; REASON goes after "# SKIP" (or is a note on a failure). */
void vt_ktap_result(struct vt_ktap *k, enum vt_result r, const char *name, const char *reason);
/* Diagnostic lines: each line of the formatted text prefixed "# ". */
void vt_ktap_diag(struct vt_ktap *k, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Test names must not contain '#' or line breaks (they would start a
 * directive or a new line): replaced with '_'. Writes into BUF. */
const char *vt_ktap_name(const char *name, char *buf, size_t len);

/* Which writer the top-level stdout document goes through: "vfsidmap"
 * (ours) or "kselftest.h" (VT_USE_KSELFTEST_H). */
const char *vt_ktap_writer(void);

#endif
