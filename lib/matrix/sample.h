/* A deterministic greedy set cover: the sampler of the matrix's quick
 * sample. Each candidate brings a set of items (bits); the cover picks the
 * candidate adding the most items not yet covered (lowest index on a
 * tie) until no candidate adds any. */
#ifndef VT_MATRIX_SAMPLE_H
#define VT_MATRIX_SAMPLE_H

#include <stdint.h>

/* BITS holds N rows of NWORDS words (a candidate with no bit set is never
 * chosen). Writes the chosen indexes, ascending, to CHOSEN (room for N);
 * returns how many. */
int vt_sample_cover(const uint64_t *bits, int n, int nwords, int *chosen);

#endif
