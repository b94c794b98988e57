/*
 * Unit tests of the heat map's buckets (common/latmap.c): every
 * bucket of common/hist.h's histograms lies inside one quarter-octave
 * bucket, the buckets tile the values without gap or overlap, and folding
 * a histogram of injected latencies puts each count in the bucket of its
 * value, losing none.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "common/latmap.h"

/* Bucket q is [lo, hi), and q + 1 starts where q ends. */
static void test_tiling(void **state)
{
	(void)state;
	assert_int_equal(latmap_lo(0), 0);
	for (unsigned q = 0; q + 1 < LATMAP_BUCKETS; q++) {
		assert_true(latmap_lo(q) < latmap_hi(q));
		assert_int_equal(latmap_hi(q), latmap_lo(q + 1));
		assert_int_equal(latmap_bucket(latmap_lo(q)), q);
		assert_int_equal(latmap_bucket(latmap_hi(q) - 1), q);
	}
	assert_int_equal(latmap_bucket(UINT64_MAX), LATMAP_BUCKETS - 1);
	/* Quarter octaves: 1 ms = 1,000,000 ns is in [917504, 1048576). */
	assert_int_equal(latmap_lo(latmap_bucket(1000000)), 917504);
	assert_int_equal(latmap_hi(latmap_bucket(1000000)), 1048576);
	assert_int_equal(latmap_lo(latmap_bucket(5)), 5);
	assert_int_equal(latmap_hi(latmap_bucket(5)), 6);
}

/* A histogram bucket never straddles a heat map bucket. */
static void test_hist_buckets_inside(void **state)
{
	(void)state;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		assert_int_equal(latmap_bucket(hist_bucket_lo(i)),
				 latmap_bucket(hist_bucket_hi(i)));
}

/* Injected latencies land in their own bucket, dense and sparse alike. */
static void test_fold(void **state)
{
	static const uint64_t lat[] = { 3,       90,      1000,       25000,
					25000,   300000,  4800000000, 1000000,
					1048575, 1048576, 999 };
	struct hist *h = malloc(sizeof(*h));
	struct hist_sparse sp;
	uint64_t a[LATMAP_BUCKETS] = { 0 }, b[LATMAP_BUCKETS] = { 0 };
	uint64_t want[LATMAP_BUCKETS] = { 0 }, n = 0;

	(void)state;
	assert_non_null(h);
	hist_init(h);
	for (size_t i = 0; i < sizeof(lat) / sizeof(lat[0]); i++) {
		hist_add(h, lat[i]);
		want[latmap_bucket(lat[i])]++;
	}
	latmap_add(a, h);
	assert_int_equal(hist_to_sparse(h, &sp), 0);
	latmap_add_sparse(b, &sp);
	for (unsigned q = 0; q < LATMAP_BUCKETS; q++) {
		assert_int_equal(a[q], want[q]);
		assert_int_equal(b[q], want[q]);
		n += a[q];
	}
	assert_int_equal(n, sizeof(lat) / sizeof(lat[0]));
	/* 1048575 and 1048576 ns sit either side of a bound. */
	assert_int_not_equal(latmap_bucket(1048575), latmap_bucket(1048576));
	hist_sparse_free(&sp);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tiling),
		cmocka_unit_test(test_hist_buckets_inside),
		cmocka_unit_test(test_fold),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
