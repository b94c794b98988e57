/*
 * Change points across nights: E-divisive means (Matteson and James,
 * 2014), the method of MongoDB's and Apache Otava's performance CI. A
 * split of a series into two segments is scored by the energy distance
 * between them; the best split is kept when a permutation test says its
 * score is rarely reached by the same values in a random order, and both
 * segments are searched again. A slow drift that no single night shows
 * makes segments whose distributions differ, so it is found too. The
 * permutations come from a seeded generator: the same series gives the
 * same answer on every machine.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "master/history/history_int.h"

/* splitmix64: small, seedable, the same everywhere. */
static uint64_t next_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * The best split of x[0..n) and its score Q (scaled energy distance).
 * wa and wb are scratch of n + 1: the within-segment distance sums of
 * every prefix and suffix, so a series costs O(n^2), not O(n^3).
 */
static double best_split(const double *x, size_t n, size_t min_seg, double *wa,
			 double *wb, size_t *at)
{
	double best = -INFINITY, total;
	size_t t;

	wa[0] = 0;
	for (t = 0; t < n; t++) {
		double s = 0;

		for (size_t i = 0; i < t; i++)
			s += fabs(x[i] - x[t]);
		wa[t + 1] = wa[t] + s;
	}
	wb[n] = 0;
	for (t = n; t-- > 0;) {
		double s = 0;

		for (size_t j = t + 1; j < n; j++)
			s += fabs(x[t] - x[j]);
		wb[t] = wb[t + 1] + s;
	}
	total = wa[n];
	*at = 0;
	for (t = min_seg; t + min_seg <= n; t++) {
		double m = (double)t, k = (double)(n - t);
		double between = total - wa[t] - wb[t];
		double e = 2 * between / (m * k) -
			   (m > 1 ? wa[t] / (m * (m - 1) / 2) : 0) -
			   (k > 1 ? wb[t] / (k * (k - 1) / 2) : 0);
		double q = m * k / (m + k) * e;

		if (q > best) {
			best = q;
			*at = t;
		}
	}
	return best;
}

struct search {
	const struct history_changes_opts *o;
	double *wa, *wb, *perm, *med;
	uint64_t rng;
	struct history_change *out, *miss;
	size_t max, found;
};

static double seg_median(struct search *s, const double *x, size_t n)
{
	memcpy(s->med, x, n * sizeof(*x));
	return history_stats_median(s->med, n);
}

static void search(struct search *s, const double *x, size_t off, size_t n)
{
	size_t at, pat, hits = 0;
	double q, p;

	if (n < 2 * s->o->min_seg || s->found >= s->max)
		return;
	q = best_split(x + off, n, s->o->min_seg, s->wa, s->wb, &at);
	/* q <= 0 (a flat series) is tested too: p is then 1, a miss. */
	if (!at || isnan(q))
		return;
	memcpy(s->perm, x + off, n * sizeof(*x));
	for (unsigned r = 0; r < s->o->perms; r++) {
		for (size_t i = n - 1; i > 0; i--) {
			size_t j = (size_t)(next_rand(&s->rng) % (i + 1));
			double tmp = s->perm[i];

			s->perm[i] = s->perm[j];
			s->perm[j] = tmp;
		}
		if (best_split(s->perm, n, s->o->min_seg, s->wa, s->wb, &pat) >=
		    q)
			hits++;
	}
	p = ((double)hits + 1) / ((double)s->o->perms + 1);
	if (p >= s->o->alpha) {
		/* The nearest miss: what would have been said, and how sure. */
		if (s->miss && !(s->miss->p <= p)) {
			s->miss->at = off + at;
			s->miss->p = p;
			s->miss->before = seg_median(s, x + off, at);
			s->miss->after = seg_median(s, x + off + at, n - at);
		}
		return;
	}
	search(s, x, off, at);
	if (s->found < s->max) {
		struct history_change *c = &s->out[s->found++];

		c->at = off + at;
		c->p = p;
		c->before = seg_median(s, x + off, at);
		c->after = seg_median(s, x + off + at, n - at);
	}
	search(s, x, off + at, n - at);
}

int history_changes_find(const double *x, size_t n,
			 const struct history_changes_opts *o,
			 struct history_change *out, size_t max,
			 struct history_change *miss)
{
	struct search s = {
		.o = o, .rng = o->seed, .out = out, .max = max, .miss = miss
	};
	int ret;

	if (miss)
		*miss = (struct history_change){ .p = NAN };

	if (n > HISTORY_CHANGES_MAX_N || o->min_seg < 1)
		return -EINVAL;
	if (n < 2)
		return 0;
	s.wa = malloc((n + 1) * sizeof(double));
	s.wb = malloc((n + 1) * sizeof(double));
	s.perm = malloc(n * sizeof(double));
	s.med = malloc(n * sizeof(double));
	if (!s.wa || !s.wb || !s.perm || !s.med) {
		ret = -ENOMEM;
		goto out;
	}
	/* Recursion left first: the points come out in index order. */
	search(&s, x, 0, n);
	ret = (int)s.found;
out:
	free(s.wa);
	free(s.wb);
	free(s.perm);
	free(s.med);
	return ret;
}
