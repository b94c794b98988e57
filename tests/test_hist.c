/*
 * Unit tests of the log-linear histogram: percentile accuracy against the
 * exact answer for known distributions, bucket bound resolution, merging,
 * the sparse wire form and its validation of untrusted input.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/hist.h"

#define NS_US 1000.0
#define NS_MS 1000000.0
#define NS_S 1000000000.0

static uint64_t rng_state;

static void rng_seed(uint64_t seed)
{
	rng_state = seed;
}

/* splitmix64: small, fast, and the same on every platform. */
static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static double rng_unit(void)
{
	return (double)(rng_next() >> 11) * (1.0 / 9007199254740992.0);
}

static struct hist *hist_new(void)
{
	struct hist *h = malloc(sizeof(*h));

	assert_non_null(h);
	hist_init(h);
	return h;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

enum dist_kind { DIST_UNIFORM, DIST_EXP, DIST_BIMODAL, DIST_LOGUNIFORM };

struct dist {
	const char *name;
	enum dist_kind kind;
	/* uniform: [a, b); exp: offset a, mean b; bimodal: the modes */
	double a, b;
};

static const struct dist dists[] = {
	{ "uniform 100ns-1us", DIST_UNIFORM, 100, 1 * NS_US },
	{ "uniform 1us-1ms", DIST_UNIFORM, 1 * NS_US, 1 * NS_MS },
	{ "uniform 1ms-1s", DIST_UNIFORM, 1 * NS_MS, 1 * NS_S },
	{ "uniform 1s-1h", DIST_UNIFORM, 1 * NS_S, 3600 * NS_S },
	{ "exp 100ns+1us", DIST_EXP, 100, 1 * NS_US },
	{ "exp 100ns+100us", DIST_EXP, 100, 100 * NS_US },
	{ "exp 10us+10ms", DIST_EXP, 10 * NS_US, 10 * NS_MS },
	{ "exp 1ms+10s", DIST_EXP, 1 * NS_MS, 10 * NS_S },
	{ "exp 1s+5min", DIST_EXP, 1 * NS_S, 300 * NS_S },
	{ "bimodal 100us/10ms", DIST_BIMODAL, 100 * NS_US, 10 * NS_MS },
	{ "bimodal 200ns/50us", DIST_BIMODAL, 200, 50 * NS_US },
	{ "bimodal 1ms/20min", DIST_BIMODAL, 1 * NS_MS, 1200 * NS_S },
	{ "loguniform 100ns-1h", DIST_LOGUNIFORM, 100, 3600 * NS_S },
};

static uint64_t dist_sample(const struct dist *d)
{
	double v = 0;

	switch (d->kind) {
	case DIST_UNIFORM:
		v = d->a + (d->b - d->a) * rng_unit();
		break;
	case DIST_EXP:
		v = d->a - d->b * log(1.0 - rng_unit());
		break;
	case DIST_BIMODAL: {
		/* 90% near the fast mode, 10% near the slow one, +-20%. */
		double mode = rng_unit() < 0.9 ? d->a : d->b;
		v = mode * (0.8 + 0.4 * rng_unit());
		break;
	}
	case DIST_LOGUNIFORM:
		v = d->a * exp(log(d->b / d->a) * rng_unit());
		break;
	}
	if (v > 3600 * NS_S)
		v = 3600 * NS_S; /* keep inside the resolved range */
	return (uint64_t)v;
}

#define NVALUES 250000

static void test_percentiles_known_distributions(void **state)
{
	static const double ps[] = { 50, 90, 99, 99.9, 99.99 };
	uint64_t *vals = malloc(NVALUES * sizeof(*vals));
	struct hist *h = hist_new();

	(void)state;
	assert_non_null(vals);
	for (size_t di = 0; di < sizeof(dists) / sizeof(dists[0]); di++) {
		const struct dist *d = &dists[di];

		rng_seed(0x1234 + di);
		hist_reset(h);
		for (size_t i = 0; i < NVALUES; i++) {
			vals[i] = dist_sample(d);
			hist_add(h, vals[i]);
		}
		qsort(vals, NVALUES, sizeof(*vals), cmp_u64);
		assert_int_equal(h->count, NVALUES);
		assert_int_equal(h->min, vals[0]);
		assert_int_equal(h->max, vals[NVALUES - 1]);

		for (size_t k = 0; k < sizeof(ps) / sizeof(ps[0]); k++) {
			size_t rank = (size_t)hist_rank(ps[k], NVALUES);
			double exact = (double)vals[rank - 1];
			double got = (double)hist_percentile(h, ps[k]);
			double rel = fabs(got - exact) / exact;
			if (rel > 0.01) {
				print_error("%s p%g: got %.0f exact %.0f "
					    "(%.3f%%)\n",
					    d->name, ps[k], got, exact,
					    rel * 100);
				fail();
			}
		}
		assert_int_equal(hist_percentile(h, 0), vals[0]);
		assert_int_equal(hist_percentile(h, 100), vals[NVALUES - 1]);
	}
	free(h);
	free(vals);
}

static void check_bucket_of(uint64_t v)
{
	unsigned idx = hist_index(v);
	uint64_t lo = hist_bucket_lo(idx), hi = hist_bucket_hi(idx);

	assert_true(idx < HIST_BUCKETS);
	if (!(lo <= v && v <= hi)) {
		print_error("v=%llu idx=%u lo=%llu hi=%llu\n",
			    (unsigned long long)v, idx,
			    (unsigned long long)lo, (unsigned long long)hi);
		fail();
	}
	if (v >= 100 && (double)(hi - lo) / (double)lo > 0.01) {
		print_error("v=%llu bucket [%llu, %llu] wider than 1%%\n",
			    (unsigned long long)v, (unsigned long long)lo,
			    (unsigned long long)hi);
		fail();
	}
}

static void test_bucket_bounds(void **state)
{
	(void)state;
	/* Log-spaced sweep from 100 ns to 1 h. */
	for (double v = 100; v <= 3600 * NS_S; v *= 1.0007)
		check_bucket_of((uint64_t)v);
	/* Around every power of two in the resolved range. */
	for (unsigned b = 1; b < HIST_MAX_SHIFT + HIST_SUB_BITS + 1; b++) {
		uint64_t p = UINT64_C(1) << b;
		check_bucket_of(p - 1);
		check_bucket_of(p);
		check_bucket_of(p + 1);
	}
	for (uint64_t v = 0; v < 5000; v++)
		check_bucket_of(v);
	check_bucket_of(HIST_MAX_VALUE);

	/* Buckets tile the value range with no gaps or overlaps. */
	assert_int_equal(hist_bucket_lo(0), 0);
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		assert_true(hist_bucket_lo(i) <= hist_bucket_hi(i));
		assert_int_equal(hist_index(hist_bucket_lo(i)), i);
		assert_int_equal(hist_index(hist_bucket_hi(i)), i);
		if (i + 1 < HIST_BUCKETS)
			assert_int_equal(hist_bucket_hi(i) + 1,
					 hist_bucket_lo(i + 1));
	}
	assert_int_equal(hist_bucket_hi(HIST_BUCKETS - 1), HIST_MAX_VALUE);
}

static void assert_hist_equal(const struct hist *a, const struct hist *b)
{
	assert_int_equal(a->count, b->count);
	assert_int_equal(a->sum, b->sum);
	assert_int_equal(a->min, b->min);
	assert_int_equal(a->max, b->max);
	assert_memory_equal(a->buckets, b->buckets, sizeof(a->buckets));
	if (a->sumsq != b->sumsq) {
		double rel = fabs(a->sumsq - b->sumsq) / fabs(b->sumsq);
		assert_true(rel <= 1e-9);
	}
}

static void test_merge(void **state)
{
	const size_t n = 200000;
	struct hist *whole = hist_new(), *merged = hist_new();
	struct hist *part[8];

	(void)state;
	for (int k = 0; k < 8; k++)
		part[k] = hist_new();

	rng_seed(42);
	for (size_t i = 0; i < n; i++) {
		uint64_t v = dist_sample(&dists[12]);
		hist_add(whole, v);
		hist_add(part[i < n / 2 ? 0 : 1], v);
	}
	hist_merge(merged, part[0]);
	hist_merge(merged, part[1]);
	assert_hist_equal(merged, whole);

	/* Eight random splits, merged in a different order. */
	hist_reset(whole);
	hist_reset(merged);
	for (int k = 0; k < 8; k++)
		hist_reset(part[k]);
	rng_seed(43);
	for (size_t i = 0; i < n; i++) {
		uint64_t v = dist_sample(&dists[9]);
		hist_add(whole, v);
		hist_add(part[rng_next() % 8], v);
	}
	for (int k = 7; k >= 0; k--)
		hist_merge(merged, part[k]);
	assert_hist_equal(merged, whole);
	static const double ps[] = { 1, 50, 99, 99.9 };
	for (int k = 0; k < 4; k++)
		assert_int_equal(hist_percentile(merged, ps[k]),
				 hist_percentile(whole, ps[k]));

	/* Merging an empty histogram changes nothing. */
	hist_reset(part[0]);
	hist_merge(merged, part[0]);
	assert_hist_equal(merged, whole);

	for (int k = 0; k < 8; k++)
		free(part[k]);
	free(whole);
	free(merged);
}

static void test_sparse_round_trip(void **state)
{
	struct hist *h = hist_new(), *back = hist_new();
	struct hist_sparse s;

	(void)state;
	rng_seed(7);
	for (int i = 0; i < 100000; i++)
		hist_add(h, dist_sample(&dists[10]));
	assert_int_equal(hist_to_sparse(h, &s), 0);
	assert_true(s.n > 0 && s.n < HIST_BUCKETS);
	assert_int_equal(hist_sparse_validate(&s), 0);
	for (size_t k = 0; k < s.n; k++)
		assert_true(s.cnt[k] > 0);
	assert_int_equal(hist_add_sparse(back, &s), 0);
	assert_hist_equal(back, h);
	assert_true(back->sumsq == h->sumsq);

	/* Adding it again doubles every count. */
	assert_int_equal(hist_add_sparse(back, &s), 0);
	assert_int_equal(back->count, 2 * h->count);
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		assert_int_equal(back->buckets[i], 2 * h->buckets[i]);

	hist_sparse_free(&s);
	assert_null(s.idx);
	assert_null(s.cnt);
	assert_int_equal(s.n, 0);
	hist_sparse_free(&s); /* idempotent */
	hist_sparse_free(NULL);

	/* Empty round trip. */
	hist_reset(h);
	hist_reset(back);
	assert_int_equal(hist_to_sparse(h, &s), 0);
	assert_int_equal(s.n, 0);
	assert_int_equal(hist_add_sparse(back, &s), 0);
	assert_hist_equal(back, h);
	assert_int_equal(back->min, UINT64_MAX);
	hist_sparse_free(&s);

	free(h);
	free(back);
}

enum corruption {
	BAD_IDX_RANGE,
	BAD_IDX_EQUAL,
	BAD_IDX_DECREASING,
	BAD_COUNT_HIGH,
	BAD_COUNT_LOW,
	BAD_COUNT_OVERFLOW,
	BAD_MIN_GT_MAX,
	BAD_EMPTY_WITH_BUCKETS,
	BAD_N_TOO_LARGE,
	BAD_NULL_ARRAYS,
	BAD_SUMSQ_NAN,
	BAD_COUNT,
};

static void corrupt(struct hist_sparse *s, enum corruption c)
{
	switch (c) {
	case BAD_IDX_RANGE:
		s->idx[s->n - 1] = HIST_BUCKETS;
		break;
	case BAD_IDX_EQUAL:
		s->idx[1] = s->idx[0];
		break;
	case BAD_IDX_DECREASING: {
		uint32_t t = s->idx[1];
		s->idx[1] = s->idx[2];
		s->idx[2] = t;
		break;
	}
	case BAD_COUNT_HIGH:
		s->count++;
		break;
	case BAD_COUNT_LOW:
		s->count--;
		break;
	case BAD_COUNT_OVERFLOW:
		/* The counts' sum wraps around to exactly the new count. */
		s->count = s->count - s->cnt[0] - 1;
		s->cnt[0] = UINT64_MAX;
		break;
	case BAD_MIN_GT_MAX:
		s->min = s->max + 1;
		break;
	case BAD_EMPTY_WITH_BUCKETS:
		s->count = 0;
		break;
	case BAD_N_TOO_LARGE:
		s->n = HIST_BUCKETS + 1;
		break;
	case BAD_NULL_ARRAYS:
		free(s->idx);
		s->idx = NULL;
		break;
	case BAD_SUMSQ_NAN:
		s->sumsq = NAN;
		break;
	case BAD_COUNT:
		break;
	}
}

static void test_sparse_rejects_malformed(void **state)
{
	struct hist *src = hist_new(), *dst = hist_new(), *copy = hist_new();

	(void)state;
	rng_seed(99);
	for (int i = 0; i < 10000; i++)
		hist_add(src, dist_sample(&dists[9]));
	for (int i = 0; i < 1000; i++)
		hist_add(dst, dist_sample(&dists[1]));
	memcpy(copy, dst, sizeof(*dst));

	for (int c = 0; c < BAD_COUNT; c++) {
		struct hist_sparse s;
		assert_int_equal(hist_to_sparse(src, &s), 0);
		assert_true(s.n >= 3);
		corrupt(&s, (enum corruption)c);
		if (hist_sparse_validate(&s) != -EINVAL ||
		    hist_add_sparse(dst, &s) != -EINVAL) {
			print_error("corruption %d accepted\n", c);
			fail();
		}
		assert_memory_equal(dst, copy, sizeof(*dst));
		if (c == BAD_N_TOO_LARGE)
			s.n = 0; /* arrays are shorter than n claims */
		hist_sparse_free(&s);
	}

	/* A hand-built sparse whose counts wrap around to count. */
	uint32_t idx[2] = { 10, 20 };
	uint64_t cnt[2] = { UINT64_MAX, 2 };
	struct hist_sparse w = {
		.count = 1, .sum = 30, .min = 10, .max = 20, .sumsq = 500,
		.n = 2, .idx = idx, .cnt = cnt,
	};
	assert_int_equal(hist_sparse_validate(&w), -EINVAL);
	assert_int_equal(hist_add_sparse(dst, &w), -EINVAL);
	assert_memory_equal(dst, copy, sizeof(*dst));
	/* The same with consistent counts is accepted. */
	cnt[0] = 1;
	cnt[1] = 2;
	w.count = 3;
	w.sum = 50;
	assert_int_equal(hist_add_sparse(dst, &w), 0);
	assert_int_equal(dst->count, copy->count + 3);
	/* An empty sparse is fine; one that has buckets is not. */
	struct hist_sparse e = { .count = 0, .min = UINT64_MAX, .max = 0 };
	assert_int_equal(hist_sparse_validate(&e), 0);
	e.n = 1;
	e.idx = idx;
	e.cnt = cnt;
	assert_int_equal(hist_sparse_validate(&e), -EINVAL);
	assert_int_equal(hist_sparse_validate(NULL), -EINVAL);

	free(src);
	free(dst);
	free(copy);
}

/*
 * For a valid sparse, the unchecked add does exactly what the checked one
 * does, into an empty and into a non-empty destination; an empty sparse
 * leaves the destination alone whatever its min and max say.
 */
static void test_add_sparse_unchecked(void **state)
{
	struct hist *src = hist_new(), *a = hist_new(), *b = hist_new();
	struct hist_sparse s;

	(void)state;
	rng_seed(5);
	for (int i = 0; i < 20000; i++)
		hist_add(src, dist_sample(&dists[4]));
	assert_int_equal(hist_to_sparse(src, &s), 0);
	assert_int_equal(hist_sparse_validate(&s), 0);
	for (int round = 0; round < 3; round++) {
		assert_int_equal(hist_add_sparse(a, &s), 0);
		hist_add_sparse_unchecked(b, &s);
		assert_hist_equal(b, a);
		assert_true(b->sumsq == a->sumsq);
	}
	hist_sparse_free(&s);

	struct hist_sparse e = { .count = 0, .sum = 7, .min = 1, .max = 0 };
	memcpy(a, b, sizeof(*a));
	hist_add_sparse_unchecked(b, &e);
	assert_memory_equal(b, a, sizeof(*a));
	assert_int_equal(hist_add_sparse(b, &e), 0);
	assert_memory_equal(b, a, sizeof(*a));

	free(src);
	free(a);
	free(b);
}

static void test_mean_stddev(void **state)
{
	const size_t n = 100000;
	struct hist *h = hist_new();
	uint64_t *vals = malloc(n * sizeof(*vals));
	uint64_t sum = 0;

	(void)state;
	assert_non_null(vals);
	rng_seed(5);
	for (size_t i = 0; i < n; i++) {
		vals[i] = dist_sample(&dists[6]);
		sum += vals[i];
		hist_add(h, vals[i]);
	}
	assert_int_equal(h->sum, sum);
	assert_true(hist_mean(h) == (double)sum / (double)n);

	double mean = (double)sum / (double)n, acc = 0;
	for (size_t i = 0; i < n; i++)
		acc += ((double)vals[i] - mean) * ((double)vals[i] - mean);
	double sd = sqrt(acc / (double)n);
	assert_true(fabs(hist_stddev(h) - sd) / sd < 1e-6);

	/* Small exact cases: {2, 4, 4, 4, 5, 5, 7, 9} has sd 2. */
	static const uint64_t small[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	hist_reset(h);
	for (size_t i = 0; i < 8; i++)
		hist_add(h, small[i]);
	assert_true(hist_mean(h) == 5.0);
	assert_true(fabs(hist_stddev(h) - 2.0) < 1e-12);

	/* Constant values: zero spread, every percentile is the value. */
	hist_reset(h);
	for (int i = 0; i < 1000; i++)
		hist_add(h, 123456789);
	assert_true(hist_stddev(h) == 0.0);
	assert_int_equal(hist_percentile(h, 0), 123456789);
	assert_int_equal(hist_percentile(h, 50), 123456789);
	assert_int_equal(hist_percentile(h, 99.99), 123456789);
	assert_int_equal(hist_percentile(h, 100), 123456789);

	free(vals);
	free(h);
}

/*
 * The nearest rank, against integer arithmetic: p in thousandths of a per
 * cent, rank = ceil(p_milli * count / 100000). Doubles alone put p99.9 of
 * 1000 values at rank 1000 and of 100000 at 99901.
 */
static void test_rank_exact(void **state)
{
	static const unsigned milli[] = { 1,     1000,  25000, 50000, 75000,
					  90000, 95000, 99000, 99500, 99900,
					  99990, 99999, 100000 };
	static const uint64_t counts[] = { 1,      2,       3,      7,
					   10,     20,      100,    999,
					   1000,   1001,    12345,  100000,
					   250000, 1000000, 9999991 };

	(void)state;
	assert_int_equal(hist_rank(99.9, 0), 0);
	assert_int_equal(hist_rank(0, 10), 1);
	assert_int_equal(hist_rank(99.9, 1000), 999);
	assert_int_equal(hist_rank(99.9, 100000), 99900);
	for (size_t i = 0; i < sizeof(milli) / sizeof(milli[0]); i++)
		for (size_t j = 0; j < sizeof(counts) / sizeof(counts[0]);
		     j++) {
			uint64_t want = ((uint64_t)milli[i] * counts[j] +
					 99999) /
					100000;

			if (want < 1)
				want = 1;
			assert_int_equal(hist_rank(milli[i] / 1000.0,
						   counts[j]),
					 want);
		}
}

static void test_empty(void **state)
{
	struct hist *h = hist_new();

	(void)state;
	assert_int_equal(h->count, 0);
	assert_int_equal(h->min, UINT64_MAX);
	assert_int_equal(h->max, 0);
	assert_int_equal(h->sum, 0);
	assert_int_equal(hist_percentile(h, 0), 0);
	assert_int_equal(hist_percentile(h, 50), 0);
	assert_int_equal(hist_percentile(h, 100), 0);
	assert_true(hist_mean(h) == 0.0);
	assert_true(hist_stddev(h) == 0.0);
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		assert_int_equal(h->buckets[i], 0);

	hist_add(h, 5);
	hist_reset(h);
	assert_int_equal(h->count, 0);
	assert_int_equal(h->min, UINT64_MAX);
	assert_int_equal(h->buckets[5], 0);
	free(h);
}

static void test_clamp_above_max(void **state)
{
	struct hist *h = hist_new();
	uint64_t big = HIST_MAX_VALUE * 3;

	(void)state;
	hist_add(h, 1000);
	hist_add(h, HIST_MAX_VALUE + 1);
	hist_add(h, big);
	assert_int_equal(h->buckets[HIST_BUCKETS - 1], 2);
	assert_int_equal(hist_index(UINT64_MAX), HIST_BUCKETS - 1);
	assert_int_equal(h->max, big);
	assert_int_equal(h->sum, 1000 + HIST_MAX_VALUE + 1 + big);
	assert_int_equal(hist_percentile(h, 100), big);
	/* Within [min, max] even though the bucket is clamped. */
	uint64_t p90 = hist_percentile(h, 90);
	assert_true(p90 >= hist_bucket_lo(HIST_BUCKETS - 1) && p90 <= big);
	free(h);
}

/*
 * hist_reset clears only min's to max's buckets: after values from 0 to
 * past the last bucket, and after a merge, a reset histogram must equal a
 * fresh one byte for byte.
 */
static void test_reset_is_init(void **state)
{
	static const uint64_t vals[] = {
		0, 1, 255, 256, 1000, 123456789, UINT64_MAX / 3, UINT64_MAX
	};
	struct hist *h = hist_new(), *other = hist_new(), *fresh = hist_new();

	(void)state;
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
		hist_add(h, vals[i]);
	hist_reset(h);
	assert_memory_equal(h, fresh, sizeof(*h));
	hist_add(other, 7);
	hist_add(other, 1u << 30);
	hist_add(h, 5000);
	hist_merge(h, other);
	hist_reset(h);
	assert_memory_equal(h, fresh, sizeof(*h));
	free(h);
	free(other);
	free(fresh);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reset_is_init),
		cmocka_unit_test(test_percentiles_known_distributions),
		cmocka_unit_test(test_bucket_bounds),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_sparse_round_trip),
		cmocka_unit_test(test_sparse_rejects_malformed),
		cmocka_unit_test(test_mean_stddev),
		cmocka_unit_test(test_rank_exact),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_clamp_above_max),
		cmocka_unit_test(test_add_sparse_unchecked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
