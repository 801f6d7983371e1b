/* The case-level expunge list ./check writes for a test (VT_EXPUNGE):
 * lines "case<TAB>reason", or "suite/NNN/case<TAB>reason" for the cases of
 * another test that this one also runs (the matrix sample). Read once. */
#ifndef VT_EXPUNGE_LIST_H
#define VT_EXPUNGE_LIST_H

struct vt_expunges {
	char **name, **why;
	int n;
};

/* Reads VT_EXPUNGE (unset, empty or unreadable: an empty list). */
void vt_expunges_load(struct vt_expunges *x);
/* The reason case NAME is expunged (listed as NAME or TEST_ID/NAME;
 * TEST_ID NULL: only as NAME), or NULL. */
const char *vt_expunged(const struct vt_expunges *x, const char *test_id, const char *name);

#endif
