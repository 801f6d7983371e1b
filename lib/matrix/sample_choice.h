/* The quick sample's choice of cases, and the model mutants (model/break.h)
 * as the sampler and the scorer count them. Internal to lib/matrix. */
#ifndef VT_MX_SAMPLE_CHOICE_H
#define VT_MX_SAMPLE_CHOICE_H

#include "matrix/case_model.h"
#include "testlib/expunge_list.h"

#include <stdint.h>

/* Model mutants (model/break.h) as the sampler and the scorer count
 * them: every (mutation point, operator) pair, numbered. */
struct mx_mutants {
	int n, npoints;
	int *point;		/* mutant -> point index */
	unsigned int *op;	/* mutant -> operator bit */
	int *slot;		/* point * VT_MOP__NBITS + operator bit number -> mutant */
};
/* Per-mutant counts over a set of cases. */
struct mx_mstats {
	uint32_t *reached, *differs, *kills;
	int *first_kill;	/* a killing case (index in the space), -1: none */
};

int mx_mutants_init(struct mx_mutants *mu);
void mx_mutants_free(struct mx_mutants *mu);
/* The mutants case IDX of F kills (into OUT); their number. */
int mx_case_kills(const struct mx_world *rw, const struct vt_family *f, int idx,
		  const struct mx_mutants *mu, uint8_t *seen, int *out, struct vt_mcase *c,
		  struct vt_expect *b, struct vt_trace *tr, struct mx_mstats *ms);
/* The sample into SEL (indices in the space); its size, or -1 (NOTE says why). */
int mx_choose_sample(const struct mx_world *rw, const struct mx_space *sp,
		     const struct vt_expunges *x, int *sel, char *note, size_t notelen,
		     const struct mx_mutants *mu, struct mx_mstats *ms);

#endif
