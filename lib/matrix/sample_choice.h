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
/* VT_SAMPLE_WITHOUT (a rule slug) and VT_SAMPLE_WITHOUT_MUTANT (a mutant
 * id) as the sample reads them: DROP the rule (VT_R_NONE: unset or empty),
 * DROP_MUT the mutant's number in MU (-1: unset or empty); 0, or -1 with
 * NOTE when one of them names nothing. */
int mx_sample_without(const struct mx_mutants *mu, enum vt_rule *drop, int *drop_mut, char *note,
		      size_t notelen);
/* --check-sample-env: the check above alone, before a run (./check asks
 * it): 0, or the note on stderr and 2. */
int mx_sample_env_main(void);
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
/* What a case brings to the cover (its rule directions, axes and kills)
 * depends on the case and on the model world alone, not on which other
 * cases are candidates: worlds that differ only in their candidates
 * (filesystems, expunges) share these rows. Zeroed by the caller; valid
 * for one space, one model world and one set of mutants. */
struct mx_row_cache {
	int total, nwords;
	uint64_t *rows;		/* total x nwords, once computed */
	uint8_t *have;		/* which rows are */
};
void mx_row_cache_free(struct mx_row_cache *rc);
/* mx_choose_sample() taking the rows of RC where it has them and keeping
 * the ones it computes there (not with VT_SAMPLE_WITHOUT, _MUTANT or MS,
 * which need more than the row). The same sample as without RC. */
int mx_choose_sample_cached(const struct mx_world *rw, const struct mx_space *sp,
			    const struct vt_expunges *x, int *sel, char *note, size_t notelen,
			    const struct mx_mutants *mu, struct mx_mstats *ms,
			    struct mx_row_cache *rc);

#endif
