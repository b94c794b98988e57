/*
 * Unit tests of stats: the derived view computed from known counters and
 * latencies (rates, read share, means, spread, percentiles, queue depth,
 * CPU), adding stats, and agreement of the view's percentiles with those of
 * the combined histogram.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/stats.h"

static struct stats *stats_new(void)
{
	struct stats *s = malloc(sizeof(*s));

	assert_non_null(s);
	stats_init(s);
	return s;
}

static void assert_near(double got, double want, double rel)
{
	double tol = fabs(want) * rel;

	if (tol < 1e-12)
		tol = 1e-12;
	if (fabs(got - want) > tol) {
		print_error("got %.12g want %.12g\n", got, want);
		fail();
	}
}

/* 300 reads of 8 KiB at 1 ms and 100 writes of 64 KiB at 3 ms. */
static void fill_known(struct stats *s)
{
	s->ops[STATS_READ] = 300;
	s->bytes[STATS_READ] = 300 * 8192;
	s->ops[STATS_WRITE] = 100;
	s->bytes[STATS_WRITE] = 100 * 65536;
	s->errors = 2;
	for (int i = 0; i < 300; i++)
		hist_add(&s->lat[STATS_READ], 1000000);
	for (int i = 0; i < 100; i++)
		hist_add(&s->lat[STATS_WRITE], 3000000);
	s->cpu_user_ns = UINT64_C(2000000000);
	s->cpu_sys_ns = UINT64_C(1000000000);
	s->cpu_avail_ns = UINT64_C(40000000000); /* 4 cores x 10 s */
	s->samples = 1;
}

static void test_view_known(void **state)
{
	struct stats *s = stats_new();
	struct stats_view v;

	(void)state;
	fill_known(s);
	stats_view(s, 10.0, &v);

	assert_int_equal(v.ops, 400);
	assert_int_equal(v.read_ops, 300);
	assert_int_equal(v.write_ops, 100);
	assert_int_equal(v.bytes, 300 * 8192 + 100 * 65536);
	assert_int_equal(v.errors, 2);
	assert_near(v.iops, 40.0, 1e-12);
	assert_near(v.mbps, (300.0 * 8192 + 100.0 * 65536) / 10 / 1048576,
		    1e-12);
	assert_near(v.xfer_bytes, (300.0 * 8192 + 100.0 * 65536) / 400, 1e-12);
	assert_near(v.read_pct, 75.0, 1e-12);
	assert_near(v.resp_ms, 1.5, 1e-12);
	assert_near(v.read_resp_ms, 1.0, 1e-12);
	assert_near(v.write_resp_ms, 3.0, 1e-12);
	assert_near(v.resp_max_ms, 3.0, 1e-12);
	/* 75% at 1 and 25% at 3: variance 0.75. */
	assert_near(v.resp_stddev_ms, sqrt(0.75), 1e-9);
	assert_near(v.p50_ms, 1.0, 0.01);
	assert_near(v.p95_ms, 3.0, 0.01);
	assert_near(v.p99_ms, 3.0, 0.01);
	assert_near(v.p999_ms, 3.0, 0.01);
	/* Little's law: 0.6 s of latency over 10 s. */
	assert_near(v.queue_depth, 0.06, 1e-12);
	assert_near(v.cpu_pct, 7.5, 1e-12);
	assert_near(v.cpu_sys_pct, 2.5, 1e-12);
	free(s);
}

static void test_view_empty(void **state)
{
	struct stats *s = stats_new();
	struct stats_view v;

	(void)state;
	stats_view(s, 5.0, &v);
	assert_int_equal(v.ops, 0);
	assert_true(v.iops == 0 && v.mbps == 0 && v.read_pct == 0);
	assert_true(v.xfer_bytes == 0 && v.resp_ms == 0 && v.resp_max_ms == 0);
	assert_true(v.resp_stddev_ms == 0 && v.p50_ms == 0 && v.p999_ms == 0);
	assert_true(v.queue_depth == 0 && v.cpu_pct == 0 &&
		    v.cpu_sys_pct == 0);
	assert_true(v.read_resp_ms == 0 && v.write_resp_ms == 0);

	/* CPU time without available time reads as 0, not inf. */
	s->cpu_user_ns = 5;
	stats_view(s, 5.0, &v);
	assert_true(v.cpu_pct == 0 && v.cpu_sys_pct == 0);

	/* Writes only: read share 0, read latency 0. */
	s->ops[STATS_WRITE] = 10;
	hist_add(&s->lat[STATS_WRITE], 2000);
	stats_view(s, 1.0, &v);
	assert_true(v.read_pct == 0 && v.read_resp_ms == 0);
	assert_near(v.write_resp_ms, 0.002, 1e-12);
	free(s);
}

static void test_add(void **state)
{
	struct stats *a = stats_new(), *b = stats_new(), *sum = stats_new();
	struct stats_view v;

	(void)state;
	fill_known(a);
	fill_known(b);
	hist_add(&b->lat[STATS_READ], 50000000);
	b->ops[STATS_READ]++;
	stats_add(sum, a);
	stats_add(sum, b);

	assert_int_equal(sum->ops[STATS_READ], 601);
	assert_int_equal(sum->ops[STATS_WRITE], 200);
	assert_int_equal(sum->bytes[STATS_WRITE], 2 * 100 * 65536);
	assert_int_equal(sum->errors, 4);
	assert_int_equal(sum->cpu_avail_ns, UINT64_C(80000000000));
	assert_int_equal(sum->samples, 2);
	assert_int_equal(sum->lat[STATS_READ].count, 601);
	assert_int_equal(sum->lat[STATS_READ].max, 50000000);
	assert_int_equal(sum->lat[STATS_WRITE].min, 3000000);

	stats_view(sum, 10.0, &v);
	/* Same CPU share as each part: a ratio of sums, not a sum. */
	assert_near(v.cpu_pct, 7.5, 1e-12);
	assert_near(v.resp_max_ms, 50.0, 1e-12);
	assert_near(v.queue_depth,
		    (601.0 * 1e6 + 49e6 + 200 * 3e6) / 1e10, 1e-12);
	free(a);
	free(b);
	free(sum);
}

static uint64_t rng_state = 77;

static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

/* The view's percentiles are exactly those of the combined histogram. */
static void test_percentiles_match_combined(void **state)
{
	struct stats *s = stats_new();
	struct hist *h = malloc(sizeof(*h));
	struct stats_view v;

	(void)state;
	assert_non_null(h);
	for (int round = 0; round < 20; round++) {
		stats_init(s);
		int n = 1 + (int)(rng_next() % 20000);
		for (int i = 0; i < n; i++) {
			int dir = (rng_next() % 4) == 0;
			uint64_t lat = 100 + rng_next() % (dir ? 50000000
							       : 200000);
			hist_add(&s->lat[dir], lat);
			s->ops[dir]++;
		}
		stats_combined_hist(s, h);
		assert_int_equal(h->count, (uint64_t)n);
		stats_view(s, 1.0, &v);
		assert_true(v.p50_ms == (double)hist_percentile(h, 50) / 1e6);
		assert_true(v.p95_ms == (double)hist_percentile(h, 95) / 1e6);
		assert_true(v.p99_ms == (double)hist_percentile(h, 99) / 1e6);
		assert_true(v.p999_ms ==
			    (double)hist_percentile(h, 99.9) / 1e6);
		assert_near(v.resp_ms, hist_mean(h) / 1e6, 1e-12);
		assert_near(v.resp_stddev_ms, hist_stddev(h) / 1e6, 1e-9);
		assert_true(v.resp_max_ms == (double)h->max / 1e6);
	}
	free(h);
	free(s);
}

/* The view of a sample's sparse histograms equals the dense view. */
static void test_sparse_view_matches(void **state)
{
	struct stats *s = stats_new();
	struct hist_sparse sp[2];
	struct stats_view dense, sparse;

	(void)state;
	for (int round = 0; round < 300; round++) {
		stats_init(s);
		/* Some rounds leave one direction (or both) empty. */
		int n = round % 10 == 0 ? 0 :
			round % 10 == 1 ? round / 10 + 1 : /* 1 to 30 */
			1 + (int)(rng_next() % 5000);
		for (int i = 0; i < n; i++) {
			int dir = round % 7 == 3 ? 1 : (rng_next() % 3) == 0;
			uint64_t lat = 50 + rng_next() % (dir ? 9000000 : 400000);

			hist_add(&s->lat[dir], lat);
			s->ops[dir]++;
			s->bytes[dir] += 4096;
		}
		s->cpu_user_ns = rng_next() % 1000000;
		s->cpu_avail_ns = 2000000000;
		assert_int_equal(hist_to_sparse(&s->lat[0], &sp[0]), 0);
		assert_int_equal(hist_to_sparse(&s->lat[1], &sp[1]), 0);
		stats_view(s, 1.0, &dense);
		/* Only counters and CPU may be read from s by the sparse view. */
		hist_init(&s->lat[0]);
		hist_init(&s->lat[1]);
		stats_view_sparse(s, sp, 1.0, &sparse);
		assert_memory_equal(&dense, &sparse, sizeof(dense));

		/*
		 * The sums alone (as the master keeps them per slave) give the
		 * same view; with the histograms, the same percentiles too,
		 * and without, percentiles that say unknown (NaN).
		 */
		struct stats_sums c;

		stats_sums_init(&c);
		for (int d = 0; d < 2; d++) {
			c.ops[d] = s->ops[d];
			c.bytes[d] = s->bytes[d];
			c.lat[d].count = sp[d].count;
			c.lat[d].sum = sp[d].sum;
			c.lat[d].sumsq = sp[d].sumsq;
			if (sp[d].count) {
				c.lat[d].min = sp[d].min;
				c.lat[d].max = sp[d].max;
			}
		}
		c.cpu_user_ns = s->cpu_user_ns;
		c.cpu_avail_ns = s->cpu_avail_ns;
		stats_view_sums(&c, sp, 1.0, &sparse);
		assert_memory_equal(&dense, &sparse, sizeof(dense));
		stats_view_sums(&c, NULL, 1.0, &sparse);
		assert_true(isnan(sparse.p50_ms) && isnan(sparse.p95_ms) &&
			    isnan(sparse.p99_ms) && isnan(sparse.p999_ms));
		sparse.p50_ms = dense.p50_ms;
		sparse.p95_ms = dense.p95_ms;
		sparse.p99_ms = dense.p99_ms;
		sparse.p999_ms = dense.p999_ms;
		assert_memory_equal(&dense, &sparse, sizeof(dense));
		hist_sparse_free(&sp[0]);
		hist_sparse_free(&sp[1]);
	}
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_view_known),
		cmocka_unit_test(test_view_empty),
		cmocka_unit_test(test_add),
		cmocka_unit_test(test_percentiles_match_combined),
		cmocka_unit_test(test_sparse_view_matches),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
