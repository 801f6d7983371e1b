/* vfsidmap-tool mutation-score (see mutation_score.c). Internal to lib/matrix. */
#ifndef VT_MX_MUTATION_SCORE_H
#define VT_MX_MUTATION_SCORE_H

#include "matrix/case_model.h"

/* Exit 0: every killable mutant killed by SELECT; 1: some survive; 2: bad input. */
int mx_matrix_score(const struct mx_space *sp, const char *fstype, const char *select,
		    const char *tsv);

#endif
