/*
 * Unit tests of the skewed access distributions (slave/dist.c): the share
 * of the hottest blocks against the zipf and pareto formulas, zipf's
 * rank-frequency slope, the normal curve's one-sigma share, uniform staying
 * uniform, the permutation being one (every block once) that scatters the
 * hot blocks, the zeta sum, fio's zones (their shares and bounds), and
 * the parameters refused.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "proto/proto.h"
#include "slave/dist.h"
#include "slave/workload.h"

#define N 100000u
#define DRAWS 2000000u

static uint32_t *counts;

static int setup(void **state)
{
	(void)state;
	counts = calloc(N, sizeof(*counts));
	return counts ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	free(counts);
	return 0;
}

/*
 * Draw DRAWS ranks of d into counts, hottest first. The hottest k blocks
 * are the blocks of the first k ranks (dist_place is one-to-one:
 * test_permutation), so their share is the ranks' share; sorting blocks by
 * their observed counts instead would pick lucky cold blocks and overstate
 * it.
 */
static void draw(const struct dist *d, uint64_t seed)
{
	struct workload_rng g;

	workload_rng_seed(&g, seed);
	memset(counts, 0, N * sizeof(*counts));
	for (unsigned i = 0; i < DRAWS; i++) {
		uint64_t r = dist_rank(d, workload_rng_next(&g));

		assert_true(r < d->n);
		counts[r]++;
	}
}

/* Share of the draws the hottest k blocks got. */
static double top_share(uint64_t k)
{
	uint64_t sum = 0;

	for (uint64_t i = 0; i < k; i++)
		sum += counts[i];
	return (double)sum / DRAWS;
}

/* The exact zipf share of the top k of n ranks: H(k, theta) / H(n, theta). */
static double zipf_share(uint64_t k, uint64_t n, double theta)
{
	return dist_zeta(k, theta) / dist_zeta(n, theta);
}

/*
 * zipf: the hottest 1% and 10% of the blocks get what the zipf formula
 * gives, within 1.5 points. fio's generator (Gray et al.) is exact for the
 * two hottest ranks and follows the continuous approximation for the
 * rest: that, not the sampling (a few hundredths of a point here), is the
 * tolerance.
 */
static void test_zipf_share(void **state)
{
	static const double thetas[] = { 0.8, 1.2, 2.0 };
	struct dist d;

	(void)state;
	for (unsigned i = 0; i < 3; i++) {
		assert_int_equal(dist_init(&d, PROTO_ACCESS_ZIPF, thetas[i], N,
					   42),
				 0);
		draw(&d, 7 + i);
		for (uint64_t k = N / 100; k <= N / 10; k *= 10) {
			double want = zipf_share(k, N, thetas[i]);
			double got = top_share(k);

			if (fabs(got - want) > 0.015)
				fail_msg("zipf:%g top %llu: %.4f, formula %.4f",
					 thetas[i], (unsigned long long)k, got,
					 want);
		}
		/* The hottest block alone: 1 / H(n), exactly, +- 5 sigma. */
		double p = 1 / d.zetan;
		double sd = sqrt(p * (1 - p) / DRAWS);

		assert_true(fabs((double)counts[0] / DRAWS - p) < 5 * sd);
	}
}

/*
 * The rank-frequency slope of zipf:THETA is -THETA (the check,
 * within 5%): a least-squares line through log(count) against log(rank)
 * over ranks 3..300, where every count is in the thousands.
 */
static void test_zipf_slope(void **state)
{
	static const double thetas[] = { 0.8, 1.2 };
	struct dist d;

	(void)state;
	for (unsigned i = 0; i < 2; i++) {
		double sx = 0, sy = 0, sxx = 0, sxy = 0, m = 0, slope;

		assert_int_equal(dist_init(&d, PROTO_ACCESS_ZIPF, thetas[i], N,
					   1),
				 0);
		draw(&d, 99 + i);
		for (unsigned r = 3; r <= 300; r++) {
			double x = log((double)r), y = log(counts[r - 1]);

			sx += x;
			sy += y;
			sxx += x * x;
			sxy += x * y;
			m++;
		}
		slope = (m * sxy - sx * sy) / (m * sxx - sx * sx);
		if (fabs(-slope - thetas[i]) > 0.05 * thetas[i])
			fail_msg("zipf:%g slope %.4f", thetas[i], slope);
	}
}

/*
 * pareto:h is fio's "h of the accesses to 1-h of the blocks": the rank is
 * (n - 1) u^pow with pow = log(h) / log(1 - h), so the hottest 20% of the
 * blocks get 80% with h = 0.2 (sampling error under 0.2 points).
 */
static void test_pareto_share(void **state)
{
	static const double hs[] = { 0.2, 0.1, 0.3 };
	struct dist d;

	(void)state;
	for (unsigned i = 0; i < 3; i++) {
		double h = hs[i];
		uint64_t k = (uint64_t)(h * N);
		double want = pow(h, log(1 - h) / log(h));

		assert_int_equal(dist_init(&d, PROTO_ACCESS_PARETO, h, N, 3),
				 0);
		draw(&d, 5);
		if (fabs(top_share(k) - want) > 0.005)
			fail_msg("pareto:%g top %llu: %.4f, want %.4f", h,
				 (unsigned long long)k, top_share(k), want);
	}
	/* h = 0.2 is the 80/20 rule. */
	assert_true(fabs(pow(0.2, log(0.8) / log(0.2)) - 0.8) < 1e-12);
}

/*
 * normal:SIGMA: ranks are positions, sigma percent of the range around its
 * middle; 68.27% of them lie within one sigma (binomial bound, 5 sigma).
 */
static void test_normal(void **state)
{
	struct workload_rng g;
	struct dist d;
	const double p = 0.682689;
	unsigned in = 0;

	(void)state;
	assert_int_equal(dist_init(&d, PROTO_ACCESS_NORMAL, 10, N, 3), 0);
	assert_true(fabs(d.sigma - N / 10.0) < 1e-9);
	workload_rng_seed(&g, 11);
	for (unsigned i = 0; i < DRAWS; i++) {
		uint64_t r = dist_rank(&d, workload_rng_next(&g));

		assert_true(r < N);
		in += r >= N / 2 - N / 10 && r < N / 2 + N / 10;
	}
	assert_true(fabs((double)in / DRAWS - p) <
		    5 * sqrt(p * (1 - p) / DRAWS));
}

/* uniform stays uniform: chi-square over 1000 blocks within 5 sigma. */
static void test_uniform(void **state)
{
	struct workload_rng g;
	struct dist d;
	const unsigned n = 1000;
	double chi = 0, e = (double)DRAWS / n;

	(void)state;
	assert_int_equal(dist_init(&d, PROTO_ACCESS_UNIFORM, 0, n, 3), 0);
	workload_rng_seed(&g, 17);
	memset(counts, 0, N * sizeof(*counts));
	for (unsigned i = 0; i < DRAWS; i++)
		counts[dist_next(&d, workload_rng_next(&g))]++;
	for (unsigned i = 0; i < n; i++)
		chi += (counts[i] - e) * (counts[i] - e) / e;
	assert_true(chi < (n - 1) + 5 * sqrt(2.0 * (n - 1)));
}

/* Every rank has its own block, for sizes around powers of two. */
static void test_permutation(void **state)
{
	static const uint64_t sizes[] = { 1, 2, 3, 5, 1000, 1024, 1025, N };
	struct dist d;

	(void)state;
	for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t n = sizes[i];

		assert_int_equal(dist_init(&d, PROTO_ACCESS_ZIPF, 1.2, n,
					   dist_key("sd1")),
				 0);
		memset(counts, 0, N * sizeof(*counts));
		for (uint64_t r = 0; r < n; r++) {
			uint64_t b = dist_place(&d, r);

			assert_true(b < n);
			assert_int_equal(counts[b]++, 0);
		}
	}
}

/*
 * The hot blocks are scattered: the hottest 1000 ranks fall in each tenth
 * of the range 100 times, give or take 50; and another key scatters them
 * elsewhere while the same key gives the same blocks.
 */
static void test_scattered(void **state)
{
	struct dist a, b, c;
	unsigned tenth[10] = { 0 }, same = 0, moved = 0;

	(void)state;
	assert_int_equal(dist_init(&a, PROTO_ACCESS_ZIPF, 1.2, N,
				   dist_key("sd1")),
			 0);
	assert_int_equal(dist_init(&b, PROTO_ACCESS_ZIPF, 1.2, N,
				   dist_key("sd1")),
			 0);
	assert_int_equal(dist_init(&c, PROTO_ACCESS_ZIPF, 1.2, N,
				   dist_key("sd2")),
			 0);
	for (uint64_t r = 0; r < 1000; r++) {
		tenth[dist_place(&a, r) * 10 / N]++;
		same += dist_place(&a, r) == dist_place(&b, r);
		moved += dist_place(&a, r) != dist_place(&c, r);
	}
	for (unsigned i = 0; i < 10; i++)
		assert_in_range(tenth[i], 50, 150);
	assert_int_equal(same, 1000);
	assert_true(moved > 990);
}

static void test_zeta(void **state)
{
	static const double thetas[] = { 0.5, 0.99, 1.2, 3 };

	(void)state;
	for (unsigned i = 0; i < 4; i++) {
		double direct = 0;

		for (uint64_t k = 1; k <= 3000000; k++)
			direct += pow((double)k, -thetas[i]);
		assert_true(fabs(dist_zeta(3000000, thetas[i]) - direct) <
			    1e-9 * direct);
		assert_true(fabs(dist_zeta(1, thetas[i]) - 1) < 1e-15);
	}
}

/*
 * fio's zoned:50/5:30/15:20/80 over N blocks, 200,000 draws of a fixed
 * seed: each zone's share within 1 point of the asked (the binomial sigma
 * is at most 0.11 points), every draw inside its zone (fio's bounds, zones
 * in order, not scattered), each zone's halves alike within 1 point of the
 * draws (uniform inside a zone).
 */
static void test_zoned(void **state)
{
	static const struct proto_zone z[] = { { 50, 5 },
					       { 30, 15 },
					       { 20, 80 } };
	static const uint64_t lo[] = { 0, N * 5 / 100, N * 20 / 100, N };
	unsigned in[3] = { 0 }, low[3] = { 0 };
	struct workload_rng g;
	struct dist d;

	(void)state;
	assert_int_equal(dist_init_zoned(&d, z, 3, N), 0);
	workload_rng_seed(&g, 29);
	for (unsigned i = 0; i < 200000; i++) {
		uint64_t b = dist_next(&d, workload_rng_next(&g));
		unsigned k = 0;

		while (b >= lo[k + 1])
			k++;
		assert_true(k < 3);
		in[k]++;
		low[k] += b < (lo[k] + lo[k + 1]) / 2;
	}
	for (unsigned k = 0; k < 3; k++) {
		double got = in[k] / 2000.0;

		if (fabs(got - (double)z[k].io) > 1)
			fail_msg("zone %u took %.2f%% of the I/O, asked %u%%",
				 k + 1, got, (unsigned)z[k].io);
		if (fabs(2.0 * low[k] - in[k]) > 2000)
			fail_msg("zone %u: %u of its %u draws in its lower half",
				 k + 1, low[k], in[k]);
	}
}

/*
 * Range shares under 100 leave the rest of the range alone; a zone with
 * no I/O is skipped; zones of a tiny range keep a block each.
 */
static void test_zoned_bounds(void **state)
{
	static const struct proto_zone z[] = { { 60, 10 },
					       { 0, 10 },
					       { 40, 10 } };
	static const struct proto_zone one[] = { { 100, 1 } };
	struct workload_rng g;
	struct dist d;

	(void)state;
	assert_int_equal(dist_init_zoned(&d, z, 3, N), 0);
	workload_rng_seed(&g, 3);
	for (unsigned i = 0; i < 100000; i++) {
		uint64_t b = dist_next(&d, workload_rng_next(&g));

		assert_true(b < N * 10 / 100 ||
			    (b >= N * 20 / 100 && b < N * 30 / 100));
	}
	assert_int_equal(dist_next(&d, 0), 0);
	assert_int_equal(dist_next(&d, UINT64_MAX), N * 30 / 100 - 1);
	/* 1% of 10 blocks is none: fio's formula, one block kept. */
	assert_int_equal(dist_init_zoned(&d, one, 1, 10), 0);
	assert_int_equal(dist_next(&d, UINT64_MAX), 0);
	assert_int_equal(dist_next(&d, 12345), 0);
}

static void test_zoned_refused(void **state)
{
	static const struct proto_zone sum90[] = { { 60, 10 }, { 30, 20 } };
	static const struct proto_zone wide[] = { { 50, 60 }, { 50, 50 } };
	static const struct proto_zone empty[] = { { 50, 0 }, { 50, 50 } };
	static const struct proto_zone big[] = { { 101, 10 } };
	struct proto_zone many[PROTO_MAX_ZONES + 1] = { { 100, 1 } };
	struct dist d;

	(void)state;
	assert_int_equal(dist_init_zoned(&d, sum90, 2, N), -EINVAL);
	assert_int_equal(dist_init_zoned(&d, wide, 2, N), -EINVAL);
	assert_int_equal(dist_init_zoned(&d, empty, 2, N), -EINVAL);
	assert_int_equal(dist_init_zoned(&d, big, 1, N), -EINVAL);
	assert_int_equal(dist_init_zoned(&d, many, 0, N), -EINVAL);
	assert_int_equal(dist_init_zoned(&d, many, PROTO_MAX_ZONES + 1, N),
			 -EINVAL);
	assert_int_equal(dist_init_zoned(&d, many, PROTO_MAX_ZONES, N), 0);
	assert_int_equal(dist_init_zoned(&d, many, 1, 0), -EINVAL);
	/* Zoned has its own init. */
	assert_int_equal(dist_init(&d, PROTO_ACCESS_ZONED, 0, N, 1), -EINVAL);
}

static void test_refused(void **state)
{
	static const struct {
		uint32_t kind;
		double arg;
	} bad[] = {
		{ PROTO_ACCESS_ZIPF, 1 },    { PROTO_ACCESS_ZIPF, 0 },
		{ PROTO_ACCESS_ZIPF, -1.2 }, { PROTO_ACCESS_ZIPF, NAN },
		{ PROTO_ACCESS_PARETO, 0 },  { PROTO_ACCESS_PARETO, 1 },
		{ PROTO_ACCESS_NORMAL, 0 },  { PROTO_ACCESS_NORMAL, 100.5 },
		{ PROTO_ACCESS_MAX, 1 },
	};
	struct dist d;

	(void)state;
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(dist_init(&d, bad[i].kind, bad[i].arg, N, 1),
				 -EINVAL);
	assert_int_equal(dist_init(&d, PROTO_ACCESS_ZIPF, 1.2, 0, 1), -EINVAL);
	/* One block: every draw is it. */
	assert_int_equal(dist_init(&d, PROTO_ACCESS_ZIPF, 1.2, 1, 1), 0);
	assert_int_equal(dist_next(&d, ~0ull), 0);
	assert_int_equal(dist_next(&d, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zipf_share),
		cmocka_unit_test(test_zipf_slope),
		cmocka_unit_test(test_pareto_share),
		cmocka_unit_test(test_normal),
		cmocka_unit_test(test_uniform),
		cmocka_unit_test(test_permutation),
		cmocka_unit_test(test_scattered),
		cmocka_unit_test(test_zeta),
		cmocka_unit_test(test_zoned),
		cmocka_unit_test(test_zoned_bounds),
		cmocka_unit_test(test_zoned_refused),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
