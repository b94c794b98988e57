/*
 * Log-linear latency histogram (HdrHistogram-style). Values are nanoseconds.
 * Values below 256 ns are counted exactly; above that each power of two is
 * split into 128 linear sub-buckets, so a bucket's width is at most 1/128 of
 * its lower bound (<= 0.79% relative error) from 1 ns up to 2^43 ns (~2.4 h).
 * Larger values are clamped into the last bucket (and still counted in max).
 * Merging two histograms adds their counts, so merged percentiles are exact
 * up to the bucket resolution.
 */
#ifndef LOCKSTEP_COMMON_HIST_H
#define LOCKSTEP_COMMON_HIST_H

#include <stddef.h>
#include <stdint.h>

#define HIST_SUB_BITS 7
#define HIST_MAX_SHIFT 35 /* values up to 2^(35+7) - 1 ns are resolved */
#define HIST_BUCKETS ((HIST_MAX_SHIFT + 2) << HIST_SUB_BITS) /* 4736 */
#define HIST_MAX_VALUE ((UINT64_C(1) << (HIST_MAX_SHIFT + HIST_SUB_BITS + 1)) - 1)

struct hist {
	uint64_t count;
	uint64_t sum;   /* exact sum of recorded values, ns */
	double sumsq;   /* sum of squares, ns^2, for the standard deviation */
	uint64_t min;   /* UINT64_MAX when empty */
	uint64_t max;
	uint64_t buckets[HIST_BUCKETS];
};

/*
 * Sparse form used on the wire: only non-zero buckets, as parallel arrays
 * sorted by index. The arrays are owned by the struct (malloc'd) unless
 * noted otherwise; hist_sparse_free() releases them.
 */
struct hist_sparse {
	uint64_t count, sum, min, max;
	double sumsq;
	size_t n;
	uint32_t *idx;
	uint64_t *cnt;
};

/* An empty histogram: every byte of h is set. */
void hist_init(struct hist *h);
/*
 * Empty an initialized histogram again, clearing only the buckets its
 * values can have reached (min's to max's): cheap when they are few.
 */
void hist_reset(struct hist *h);

/* Bucket index of a value (clamped to the last bucket). */
static inline unsigned hist_index(uint64_t v)
{
	if (v > HIST_MAX_VALUE)
		v = HIST_MAX_VALUE;
	unsigned msb = 63u - (unsigned)__builtin_clzll(v | 1);
	unsigned shift = msb > HIST_SUB_BITS ? msb - HIST_SUB_BITS : 0;
	return (shift << HIST_SUB_BITS) + (unsigned)(v >> shift);
}

/* Hot path: record one value. */
static inline void hist_add(struct hist *h, uint64_t v)
{
	h->buckets[hist_index(v)]++;
	h->count++;
	h->sum += v;
	h->sumsq += (double)v * (double)v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

/* Lowest and highest value that map to bucket idx. */
uint64_t hist_bucket_lo(unsigned idx);
uint64_t hist_bucket_hi(unsigned idx);

/* dst += src. */
void hist_merge(struct hist *dst, const struct hist *src);

/*
 * The nearest rank of percentile p (0..100) among count values: the
 * smallest r in [1, count] with r >= p/100 * count, computed as p * count
 * / 100 and taken down past a rounding error of a few ulps (99.9/100 *
 * 100000 is 99900.00000000001 in doubles, which made rank 99901). 0 when
 * count is 0.
 */
uint64_t hist_rank(double p, uint64_t count);

/*
 * Value at percentile p (0..100): the smallest bucket whose cumulative count
 * reaches hist_rank(p, count), reported as the bucket's midpoint clamped to
 * [min, max]. 0 when empty.
 */
uint64_t hist_percentile(const struct hist *h, double p);
/*
 * The percentile of n histograms taken together, without merging them:
 * hist_percentile() of their merge (empty ones are skipped).
 */
uint64_t hist_percentile_of(const struct hist *const *h, unsigned n, double p);
double hist_mean(const struct hist *h);   /* ns, 0 when empty */
double hist_stddev(const struct hist *h); /* ns, population stddev */

/*
 * Sparse encode: fills *out with malloc'd arrays (free with
 * hist_sparse_free). Returns 0 or -ENOMEM.
 */
int hist_to_sparse(const struct hist *h, struct hist_sparse *out);
/*
 * dst += sparse. Validates untrusted input first: indexes strictly
 * increasing and < HIST_BUCKETS, counts summing to count, min <= max when
 * count > 0; and dst's count and sum must not wrap. Returns 0, or -EINVAL
 * leaving dst unchanged.
 */
int hist_add_sparse(struct hist *dst, const struct hist_sparse *s);
int hist_sparse_validate(const struct hist_sparse *s);
/*
 * dst += sparse, without the checks, for a caller that adds one sparse
 * histogram to several destinations and validates it once: s must have
 * passed hist_sparse_validate(), and dst->count + s->count and
 * dst->sum + s->sum must not wrap (hist_add_sparse() checks both; passing
 * anything else is a programmer error). Nothing is owned or kept.
 */
void hist_add_sparse_unchecked(struct hist *dst, const struct hist_sparse *s);
void hist_sparse_free(struct hist_sparse *s);

#endif
