/* Which cases the quick sample runs (sample_choice.h): the fewest that
 * decide every rule both ways, cover the axes and kill every killable
 * model mutant. */
#include "matrix/sample_choice.h"
#include "matrix/axes.h"
#include "matrix/compare.h"
#include "matrix/coverage.h"
#include "matrix/sample.h"
#include "model/break.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mx_mutants_init(struct mx_mutants *mu)
{
	int p, b;

	memset(mu, 0, sizeof(*mu));
	mu->npoints = vt_mp_count();
	mu->point = calloc((size_t)mu->npoints * VT_MOP__NBITS + 1, sizeof(int));
	mu->op = calloc((size_t)mu->npoints * VT_MOP__NBITS + 1, sizeof(unsigned int));
	mu->slot = calloc((size_t)mu->npoints * VT_MOP__NBITS + 1, sizeof(int));
	if (!mu->point || !mu->op || !mu->slot)
		return -1;
	for (p = 0; p < mu->npoints; p++)
		for (b = 0; b < VT_MOP__NBITS; b++) {
			mu->slot[p * VT_MOP__NBITS + b] = -1;
			if (vt_mp_ops(vt_mp_get(p)) & (1u << b)) {
				mu->slot[p * VT_MOP__NBITS + b] = mu->n;
				mu->point[mu->n] = p;
				mu->op[mu->n++] = 1u << b;
			}
		}
	return 0;
}

void mx_mutants_free(struct mx_mutants *mu)
{
	free(mu->point);
	free(mu->op);
	free(mu->slot);
}

/* The model's answer to case IDX of F, and the mutants that change what
 * the comparison would see (killed); SEEN is scratch of mu->npoints bytes.
 * Only mutants whose value differs from the real one somewhere in the
 * case are tried: any other one computes the same answer. No system call. */
int mx_case_kills(const struct mx_world *rw, const struct vt_family *f, int idx,
		      const struct mx_mutants *mu, uint8_t *seen, int *out, struct vt_mcase *c,
		      struct vt_expect *b, struct vt_trace *tr, struct mx_mstats *ms)
{
	struct vt_world w, w2;
	struct vt_mcase c2;
	struct vt_expect m;
	struct vt_trace tr2;
	struct vt_exec_reply rep;
	struct vt_minode disk;
	struct stat st;
	bool obj_exists;
	int p, bit, n = 0;

	memset(seen, 0, (size_t)mu->npoints + 1);
	vt_mp_seen = seen;
	mx_model_case(rw, f, idx, c, &w, b, tr);
	vt_mp_seen = NULL;
	mx_observe(&w, c, b, &rep, &disk, &obj_exists, &st);
	for (p = 0; p < mu->npoints; p++) {
		if (!seen[p])
			continue;
		for (bit = 0; bit < VT_MOP__NBITS; bit++) {
			int mut = mu->slot[p * VT_MOP__NBITS + bit];
			struct vt_mpoint *pt;
			struct mx_report r = { .off = 0 };

			if (mut < 0)
				continue;
			if (ms)
				ms->reached[mut]++;
			if (!(seen[p] & (1u << bit)))
				continue;
			if (ms)
				ms->differs[mut]++;
			pt = vt_mp_get(p);
			pt->active = 1u << bit;
			mx_model_case(rw, f, idx, &c2, &w2, &m, &tr2);
			pt->active = 0;
			mx_compare(&r, &w, c, &m, b->err, &rep, &disk, obj_exists, &st);
			if (r.diffs)
				out[n++] = mut;
		}
	}
	return n;
}

/* The sample: every case that runs in this world brings the rule
 * directions it decides (vt_coverage_items), for its family its mount
 * idmap and its caller, and the model mutants it kills (case_kills); the
 * greedy cover keeps the fewest cases that bring them all.
 * VT_SAMPLE_WITHOUT=slug leaves out every case that decides that rule
 * either way, VT_SAMPLE_WITHOUT_MUTANT=id every case that kills that
 * mutant (make check proves the accounting then shows the gap). With MS,
 * counts every candidate's kills there (the scorer). Returns the number
 * chosen, or -1. */
int mx_choose_sample(const struct mx_world *rw, const struct mx_space *sp,
			 const struct vt_expunges *x, int *sel, char *note, size_t notelen,
			 const struct mx_mutants *mu, struct mx_mstats *ms)
{
	return mx_choose_sample_cached(rw, sp, x, sel, note, notelen, mu, ms, NULL);
}

void mx_row_cache_free(struct mx_row_cache *rc)
{
	free(rc->rows);
	free(rc->have);
	memset(rc, 0, sizeof(*rc));
}

int mx_sample_without(const struct mx_mutants *mu, enum vt_rule *drop, int *drop_mut, char *note,
		      size_t notelen)
{
	const char *without = getenv("VT_SAMPLE_WITHOUT");
	const char *without_mut = getenv("VT_SAMPLE_WITHOUT_MUTANT");
	char id[600];
	int k;

	*drop = VT_R_NONE;
	*drop_mut = -1;
	if (without && *without) {
		*drop = vt_rule_by_slug(without);
		if (*drop == VT_R_NONE) {
			snprintf(note, notelen, "VT_SAMPLE_WITHOUT: no rule '%s' (a rule id of "
				 "lib/model/rule_table.h, as results/rule-coverage.tsv names it)",
				 without);
			return -1;
		}
	}
	if (without_mut && *without_mut) {
		for (k = 0; k < mu->n && *drop_mut < 0; k++) {
			vt_mp_id(vt_mp_get(mu->point[k]), mu->op[k], id, sizeof(id));
			if (strcmp(id, without_mut) == 0)
				*drop_mut = k;
		}
		if (*drop_mut < 0) {
			snprintf(note, notelen, "VT_SAMPLE_WITHOUT_MUTANT: no mutant '%s' (an id "
				 "runner/vfsidmap-tool mutants lists)", without_mut);
			return -1;
		}
	}
	return 0;
}

int mx_sample_env_main(void)
{
	struct mx_mutants mu;
	enum vt_rule drop;
	char note[900];
	int drop_mut, ret;

	if (mx_mutants_init(&mu) < 0) {
		fprintf(stderr, "vfsidmap: out of memory\n");
		return 2;
	}
	ret = mx_sample_without(&mu, &drop, &drop_mut, note, sizeof(note));
	mx_mutants_free(&mu);
	if (ret < 0) {
		fprintf(stderr, "%s\n", note);
		return 2;
	}
	return 0;
}

int mx_choose_sample_cached(const struct mx_world *rw, const struct mx_space *sp,
			    const struct vt_expunges *x, int *sel, char *note, size_t notelen,
			    const struct mx_mutants *mu, struct mx_mstats *ms,
			    struct mx_row_cache *rc)
{
	const char *without = getenv("VT_SAMPLE_WITHOUT");
	const char *without_mut = getenv("VT_SAMPLE_WITHOUT_MUTANT");
	enum vt_rule drop = VT_R_NONE;
	int drop_mut = -1;
	int nitems_rules = 2 * VT_R__COUNT;
	int nmap = vt_map_axis_count, ncall = vt_caller_axis_count;
	int nitems_axes = nitems_rules + sp->nfam * (nmap + ncall);
	int nitems = nitems_axes + mu->n;
	int nwords = (nitems + 63) / 64, g, ncand = 0, nchosen, nrules_only, fi, k;
	uint64_t *bits = calloc((size_t)sp->total * (size_t)nwords, sizeof(uint64_t));
	int *cand = malloc(sizeof(int) * (size_t)sp->total), *pick = malloc(sizeof(int) * (size_t)sp->total);
	int *kills = malloc(sizeof(int) * ((size_t)mu->n + 1));
	uint8_t *seen = malloc((size_t)mu->npoints + 1);
	uint64_t *covered_mut = calloc((size_t)nwords, sizeof(uint64_t));
	int killable = 0, killed = 0, killed_rules_only = 0;
	char nm[512];

	if (!bits || !cand || !pick || !kills || !seen || !covered_mut) {
		nchosen = -1;
		goto out;
	}
	/* a row is the case's alone only without the leaving-out and stats below */
	if ((without && *without) || (without_mut && *without_mut) || ms)
		rc = NULL;
	if (rc && !rc->rows) {
		rc->total = sp->total;
		rc->nwords = nwords;
		rc->rows = calloc((size_t)sp->total * (size_t)nwords, sizeof(uint64_t));
		rc->have = calloc((size_t)sp->total + 1, 1);
		if (!rc->rows || !rc->have) {
			mx_row_cache_free(rc);
			rc = NULL;
		}
	}
	if (rc && (rc->total != sp->total || rc->nwords != nwords))
		rc = NULL;	/* made for another space */
	if (mx_sample_without(mu, &drop, &drop_mut, note, notelen) < 0) {
		nchosen = -1;
		goto out;
	}
	for (g = 0; g < sp->total; g++) {
		struct vt_mcase c;
		struct vt_expect e;
		struct vt_trace tr;
		uint64_t *row = bits + (size_t)ncand * nwords;
		int idx, map, caller, item, nk;
		const struct vt_family *f = mx_space_case(sp, g, &idx);

		for (fi = 0; sp->fams[fi] != f; fi++)
			;
		memset(&c, 0, sizeof(c));
		vt_family_make(f, idx % vt_family_local_count(f), &c);
		vt_family_pair(f, idx / vt_family_local_count(f), &map, &caller);
		if (*mx_case_skip(rw, &c, map))
			continue;
		if (x->n) {
			mx_case_name(f, idx, nm, sizeof(nm));
			if (vt_expunged(x, f->test_id, nm))
				continue;
		}
		if (rc && rc->have[g]) {
			memcpy(row, rc->rows + (size_t)g * nwords, sizeof(uint64_t) * (size_t)nwords);
			cand[ncand++] = g;
			continue;
		}
		nk = mx_case_kills(rw, f, idx, mu, seen, kills, &c, &e, &tr, ms);
		/* the space's kills, before any case is left out */
		for (k = 0; k < nk && ms; k++)
			if (!ms->kills[kills[k]]++)
				ms->first_kill[kills[k]] = g;
		if (drop != VT_R_NONE && tr.ev[drop])
			continue;
		for (k = 0; k < nk && drop_mut >= 0; k++)
			if (kills[k] == drop_mut)
				break;
		if (drop_mut >= 0 && k < nk)
			continue;
		vt_coverage_items(&tr, e.err, row);
		vt_family_pair(f, idx / vt_family_local_count(f), &map, &caller);
		item = nitems_rules + fi * (nmap + ncall) + map;
		row[item / 64] |= 1ULL << (item % 64);
		item = nitems_rules + fi * (nmap + ncall) + nmap + caller;
		row[item / 64] |= 1ULL << (item % 64);
		for (k = 0; k < nk; k++) {
			item = nitems_axes + kills[k];
			row[item / 64] |= 1ULL << (item % 64);
		}
		if (rc) {
			memcpy(rc->rows + (size_t)g * nwords, row, sizeof(uint64_t) * (size_t)nwords);
			rc->have[g] = 1;
		}
		cand[ncand++] = g;
	}
	/* the size the rules and axes alone would need: the mutant items masked */
	{
		uint64_t *rows2 = malloc((size_t)ncand * (size_t)nwords * sizeof(uint64_t));

		nrules_only = -1;
		if (rows2) {
			for (g = 0; g < ncand; g++)
				for (k = 0; k < nwords; k++) {
					int lo = k * 64;
					uint64_t keep = lo + 64 <= nitems_axes ? ~0ULL
							: lo >= nitems_axes ? 0
							: (1ULL << (nitems_axes - lo)) - 1;

					rows2[(size_t)g * nwords + k] = bits[(size_t)g * nwords + k] & keep;
				}
			nrules_only = vt_sample_cover(rows2, ncand, nwords, pick);
			free(rows2);
			/* what that cover alone would kill */
			for (g = 0; g < nrules_only; g++)
				for (k = 0; k < nwords; k++)
					covered_mut[k] |= bits[(size_t)pick[g] * nwords + k];
			for (k = 0; k < mu->n; k++) {
				int item = nitems_axes + k;

				killed_rules_only += (covered_mut[item / 64] >> (item % 64)) & 1;
			}
			memset(covered_mut, 0, sizeof(uint64_t) * (size_t)nwords);
		}
	}
	nchosen = vt_sample_cover(bits, ncand, nwords, pick);
	for (g = 0; g < ncand; g++)
		for (k = 0; k < nwords; k++)
			covered_mut[k] |= bits[(size_t)g * nwords + k];
	for (k = 0; k < mu->n; k++) {
		int item = nitems_axes + k;

		killable += (covered_mut[item / 64] >> (item % 64)) & 1;
	}
	memset(covered_mut, 0, sizeof(uint64_t) * (size_t)nwords);
	for (g = 0; g < nchosen; g++) {
		sel[g] = cand[pick[g]];
		for (k = 0; k < nwords; k++)
			covered_mut[k] |= bits[(size_t)pick[g] * nwords + k];
	}
	for (k = 0; k < mu->n; k++) {
		int item = nitems_axes + k;

		killed += (covered_mut[item / 64] >> (item % 64)) & 1;
	}
	snprintf(note, notelen, "sample: %d of %d cases (%d can run here), chosen so that every rule "
		 "the world can express is decided both ways, with every mount idmap and caller in "
		 "each of %d families, and every model mutant some case can kill is killed "
		 "(%d mutants, %d killable here, %d killed by the sample; the rules and axes "
		 "alone would take %d cases and kill %d)%s%s%s%s",
		 nchosen, sp->total, ncand, sp->nfam, mu->n, killable, killed, nrules_only,
		 killed_rules_only,
		 drop != VT_R_NONE ? "; without the cases deciding " : "", drop != VT_R_NONE ? without : "",
		 drop_mut >= 0 ? "; without the cases killing " : "", drop_mut >= 0 ? without_mut : "");
out:
	free(bits);
	free(cand);
	free(pick);
	free(kills);
	free(seen);
	free(covered_mut);
	return nchosen;
}
