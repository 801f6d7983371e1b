/* How each matrix family builds its fixture for each source of file
 * owners the filesystem table has (lib/fs/fs_table.h): owners in the
 * inode (the family's own fixture, chowned into place on disk/), owners
 * from mount options (its form in optowner_families.c over mounted
 * worlds), owners baked into a read-only image (no family: the matrix
 * builds by writing). A family with neither a form nor a declared reason
 * for a source would silently fall back to the disk fixture and fail
 * every case with a setup error there; unit/test-matrix-forms fails
 * instead. */
#ifndef VT_MATRIX_FAMILY_FORMS_H
#define VT_MATRIX_FAMILY_FORMS_H

#include "fs/fs_table.h"
#include "matrix/matrix.h"

#include <stdio.h>

/* The form of family F for owner source SRC: the family to run, or NULL
 * with *WHY the declared reason it does not apply, or NULL with *WHY NULL
 * if it has neither (a missing form). */
const struct vt_family *mx_family_form(const struct vt_family *f, enum vt_fs_owner_source src,
				       const char **why);

/* For every family of FAMS and every owner source some row of the table
 * has, a line "FAMILY<TAB>SOURCE<TAB>form|n/a: WHY|MISSING" to OUT. The
 * number of missing forms. */
int mx_family_forms(const struct vt_family *const *fams, int nfam, FILE *out);

#endif
