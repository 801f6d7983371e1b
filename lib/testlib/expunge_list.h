/* The case-level expunge list ./check writes for a test (VT_EXPUNGE):
 * lines "case<TAB>reason", or "suite/NNN/case<TAB>reason" for the cases of
 * another test that this one also runs (the matrix sample). Read once. */
#ifndef VT_EXPUNGE_LIST_H
#define VT_EXPUNGE_LIST_H

struct vt_expunges {
	char **name, **why;
	int n;
};

#include <stddef.h>

/* The most of VT_EXPUNGE read: check's file for the largest matrix test
 * is some tens of KiB. */
#define VT_EXPUNGE_MAX (16 << 20)

/* Reads VT_EXPUNGE (unset or empty: an empty list): 0; -1 with ERR set,
 * and an empty list, when it names no readable regular file of at most
 * VT_EXPUNGE_MAX bytes (bad input: the caller exits 2). */
int vt_expunges_load(struct vt_expunges *x, char *err, size_t errlen);
/* The reason case NAME is expunged (listed as NAME or TEST_ID/NAME;
 * TEST_ID NULL: only as NAME), or NULL. */
const char *vt_expunged(const struct vt_expunges *x, const char *test_id, const char *name);

#endif
