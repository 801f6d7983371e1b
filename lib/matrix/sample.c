/* Greedy set cover (sample.h), lazily evaluated: a candidate's gain only
 * falls as the cover grows, so its stored gain is an upper bound. A max-heap
 * on (bound, lowest index) gives the top candidate; if its recomputed gain
 * still equals its bound it is the one exact greedy picks, else it goes
 * back with the smaller bound. */
#include "matrix/sample.h"

#include <stdbool.h>
#include <stdlib.h>

struct heap {
	int *idx, *key, n;
};

static int gain(const uint64_t *row, const uint64_t *covered, int nwords)
{
	int g = 0, k;

	for (k = 0; k < nwords; k++)
		g += __builtin_popcountll(row[k] & ~covered[k]);
	return g;
}

/* a above b: larger key, then smaller index */
static bool above(const struct heap *h, int a, int b)
{
	return h->key[a] > h->key[b] || (h->key[a] == h->key[b] && h->idx[a] < h->idx[b]);
}

static void swap(struct heap *h, int a, int b)
{
	int t = h->idx[a];

	h->idx[a] = h->idx[b];
	h->idx[b] = t;
	t = h->key[a];
	h->key[a] = h->key[b];
	h->key[b] = t;
}

static void sift_down(struct heap *h, int i)
{
	for (;;) {
		int l = 2 * i + 1, r = l + 1, top = i;

		if (l < h->n && above(h, l, top))
			top = l;
		if (r < h->n && above(h, r, top))
			top = r;
		if (top == i)
			return;
		swap(h, i, top);
		i = top;
	}
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int vt_sample_cover(const uint64_t *bits, int n, int nwords, int *chosen)
{
	uint64_t *covered = calloc((size_t)nwords, sizeof(*covered));
	struct heap h = { malloc(sizeof(int) * (size_t)(n + 1)), malloc(sizeof(int) * (size_t)(n + 1)), 0 };
	int nchosen = 0, i, k;

	if (!covered || !h.idx || !h.key) {
		free(covered);
		free(h.idx);
		free(h.key);
		return -1;
	}
	for (i = 0; i < n; i++) {
		int g = gain(bits + (size_t)i * nwords, covered, nwords);

		if (g > 0) {
			h.idx[h.n] = i;
			h.key[h.n++] = g;
		}
	}
	for (i = h.n / 2 - 1; i >= 0; i--)
		sift_down(&h, i);
	while (h.n > 0) {
		int top = h.idx[0];
		int g = gain(bits + (size_t)top * nwords, covered, nwords);

		if (g == 0) {
			h.n--;
			swap(&h, 0, h.n);
			sift_down(&h, 0);
			continue;
		}
		if (g < h.key[0]) {
			h.key[0] = g;	/* stale: back in with its true gain */
			sift_down(&h, 0);
			continue;
		}
		chosen[nchosen++] = top;
		for (k = 0; k < nwords; k++)
			covered[k] |= bits[(size_t)top * nwords + k];
		h.n--;
		swap(&h, 0, h.n);
		sift_down(&h, 0);
	}
	free(covered);
	free(h.idx);
	free(h.key);
	qsort(chosen, (size_t)nchosen, sizeof(*chosen), cmp_int);
	return nchosen;
}
