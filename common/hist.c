/*
 * Log-linear latency histogram: recording happens inline in hist.h; this file
 * holds the slower parts, namely bucket bounds, merging, percentiles, moments
 * and the sparse wire form. The sparse form arrives from the network, so
 * hist_sparse_validate() checks everything a peer could get wrong before
 * hist_add_sparse() touches the destination; a caller that adds one sparse
 * histogram to several destinations validates it once and then uses
 * hist_add_sparse_unchecked().
 */
#include "common/hist.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void hist_reset(struct hist *h)
{
	/*
	 * Every bucket hist_add, hist_merge and hist_add_sparse touch lies
	 * between min's and max's: clearing those is enough, and at a
	 * worker's interval boundary far cheaper than the whole array.
	 */
	if (h->count) {
		unsigned lo = hist_index(h->min), hi = hist_index(h->max);

		memset(&h->buckets[lo], 0,
		       (hi - lo + 1) * sizeof(h->buckets[0]));
	}
	h->count = 0;
	h->sum = 0;
	h->sumsq = 0;
	h->min = UINT64_MAX;
	h->max = 0;
}

/*
 * Below 2 * 2^HIST_SUB_BITS the index is the value itself. Above, index =
 * shift * 2^SUB + m where m in [2^SUB, 2^(SUB+1)) is the value's top bits,
 * so idx >> SUB == shift + 1.
 */
uint64_t hist_bucket_lo(unsigned idx)
{
	if (idx >= HIST_BUCKETS)
		idx = HIST_BUCKETS - 1;
	if (idx < (1u << HIST_SUB_BITS))
		return idx;
	unsigned shift = (idx >> HIST_SUB_BITS) - 1;
	uint64_t sub = 1u << HIST_SUB_BITS;
	uint64_t m = sub + (idx & (sub - 1));
	return m << shift;
}

uint64_t hist_bucket_hi(unsigned idx)
{
	if (idx >= HIST_BUCKETS)
		idx = HIST_BUCKETS - 1;
	if (idx < (1u << HIST_SUB_BITS))
		return idx;
	unsigned shift = (idx >> HIST_SUB_BITS) - 1;
	return hist_bucket_lo(idx) + (UINT64_C(1) << shift) - 1;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	if (src->count == 0)
		return;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	dst->count += src->count;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

uint64_t hist_rank(double p, uint64_t count)
{
	double x, rank;

	if (count == 0)
		return 0;
	x = p * (double)count / 100.0;
	rank = ceil(x - x * 1e-15);
	if (!(rank >= 1.0))
		return 1;
	return rank >= (double)count ? count : (uint64_t)rank;
}

uint64_t hist_percentile_of(const struct hist *const *h, unsigned n, double p)
{
	uint64_t count = 0, min = UINT64_MAX, max = 0, target, cum = 0;
	unsigned i;

	for (unsigned k = 0; k < n; k++) {
		if (!h[k]->count)
			continue;
		count += h[k]->count;
		min = h[k]->min < min ? h[k]->min : min;
		max = h[k]->max > max ? h[k]->max : max;
	}
	if (count == 0)
		return 0;
	if (!(p > 0.0))
		return min;
	if (p >= 100.0)
		return max;
	target = hist_rank(p, count);
	for (i = 0; i < HIST_BUCKETS; i++) {
		for (unsigned k = 0; k < n; k++)
			cum += h[k]->buckets[i];
		if (cum >= target)
			break;
	}
	if (i == HIST_BUCKETS)
		return max; /* only if buckets disagree with count */

	uint64_t lo = hist_bucket_lo(i), hi = hist_bucket_hi(i);
	uint64_t mid = lo + (hi - lo) / 2;
	if (mid < min)
		mid = min;
	if (mid > max)
		mid = max;
	return mid;
}

uint64_t hist_percentile(const struct hist *h, double p)
{
	return hist_percentile_of(&h, 1, p);
}

double hist_mean(const struct hist *h)
{
	if (h->count == 0)
		return 0.0;
	return (double)h->sum / (double)h->count;
}

double hist_stddev(const struct hist *h)
{
	if (h->count == 0)
		return 0.0;
	double n = (double)h->count;
	double mean = (double)h->sum / n;
	double var = h->sumsq / n - mean * mean;
	/* Rounding can push a zero variance slightly negative. */
	return var > 0.0 ? sqrt(var) : 0.0;
}

int hist_to_sparse(const struct hist *h, struct hist_sparse *out)
{
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		if (h->buckets[i])
			n++;
	if (n > 0) {
		out->idx = malloc(n * sizeof(*out->idx));
		out->cnt = malloc(n * sizeof(*out->cnt));
		if (!out->idx || !out->cnt) {
			hist_sparse_free(out);
			return -ENOMEM;
		}
		size_t k = 0;
		for (unsigned i = 0; i < HIST_BUCKETS; i++) {
			if (!h->buckets[i])
				continue;
			out->idx[k] = i;
			out->cnt[k] = h->buckets[i];
			k++;
		}
	}
	out->n = n;
	out->count = h->count;
	out->sum = h->sum;
	out->sumsq = h->sumsq;
	out->min = h->min;
	out->max = h->max;
	return 0;
}

/*
 * Zero counts inside the arrays are tolerated (they add nothing); everything
 * that could index out of bounds or make the totals disagree is not.
 */
int hist_sparse_validate(const struct hist_sparse *s)
{
	if (!s)
		return -EINVAL;
	if (s->n > HIST_BUCKETS)
		return -EINVAL;
	if (s->n > 0 && (!s->idx || !s->cnt))
		return -EINVAL;
	if (isnan(s->sumsq) || isinf(s->sumsq) || s->sumsq < 0.0)
		return -EINVAL;
	if (s->count == 0)
		return s->n == 0 ? 0 : -EINVAL;
	if (s->min > s->max)
		return -EINVAL;

	uint64_t total = 0;
	for (size_t k = 0; k < s->n; k++) {
		if (s->idx[k] >= HIST_BUCKETS)
			return -EINVAL;
		if (k > 0 && s->idx[k] <= s->idx[k - 1])
			return -EINVAL;
		if (__builtin_add_overflow(total, s->cnt[k], &total))
			return -EINVAL;
	}
	return total == s->count ? 0 : -EINVAL;
}

int hist_add_sparse(struct hist *dst, const struct hist_sparse *s)
{
	uint64_t x;

	if (hist_sparse_validate(s) < 0)
		return -EINVAL;
	if (s->count == 0)
		return 0;
	/* Totals that would wrap are as malformed as ones that disagree. */
	if (__builtin_add_overflow(dst->count, s->count, &x) ||
	    __builtin_add_overflow(dst->sum, s->sum, &x))
		return -EINVAL;
	hist_add_sparse_unchecked(dst, s);
	return 0;
}

void hist_add_sparse_unchecked(struct hist *dst, const struct hist_sparse *s)
{
	const uint32_t *idx = s->idx;
	const uint64_t *cnt = s->cnt;
	uint64_t *buckets = dst->buckets;
	size_t n = s->n; /* read once: to C, the stores might change *s */

	/* An empty sparse adds nothing, whatever its other fields say. */
	if (s->count == 0)
		return;
	assert(dst->count + s->count >= dst->count &&
	       dst->sum + s->sum >= dst->sum);
	for (size_t k = 0; k < n; k++)
		buckets[idx[k]] += cnt[k];
	dst->count += s->count;
	dst->sum += s->sum;
	dst->sumsq += s->sumsq;
	if (s->min < dst->min)
		dst->min = s->min;
	if (s->max > dst->max)
		dst->max = s->max;
}

void hist_sparse_free(struct hist_sparse *s)
{
	if (!s)
		return;
	free(s->idx);
	free(s->cnt);
	s->idx = NULL;
	s->cnt = NULL;
	s->n = 0;
}
