/*
 * Unit tests of the slow host test (master/results/slowhost.c): the
 * histogram Mann-Whitney U against the pairwise definition with ties, one
 * slave 30% slower among 8 flagged, 8 equal slaves in 100 seeded trials
 * flagged no more often than the stated rate, the effect size gate, the
 * I/O-count test, and the edges (one slave, two, an empty one, too many),
 * and a latency given as several histograms.
 * Latencies are drawn from a log-normal distribution (median 200 us,
 * sigma 0.5) by a seeded generator: every run draws the same numbers.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include "common/hist.h"
#include "tests/lognormal.h"
#include "master/results/slowhost.h"

#define NS 8

struct cluster {
	struct hist *h[NS];
	struct hist_sparse sp[NS];
	struct slowhost_in in[NS];
	struct slowhost_out out[NS];
	struct slowhost_work *w;
};

static struct cluster *cluster_new(void)
{
	struct cluster *c = calloc(1, sizeof(*c));

	assert_non_null(c);
	for (int i = 0; i < NS; i++) {
		c->h[i] = malloc(sizeof(*c->h[i]));
		assert_non_null(c->h[i]);
		hist_init(c->h[i]);
	}
	c->w = slowhost_work_new(NS);
	assert_non_null(c->w);
	return c;
}

static void cluster_free(struct cluster *c)
{
	for (int i = 0; i < NS; i++) {
		hist_sparse_free(&c->sp[i]);
		free(c->h[i]);
	}
	slowhost_work_free(c->w);
	free(c);
}

/* The histograms (filled by the caller) as the test's input; judge n. */
static int judge(struct cluster *c, int n, double alpha)
{
	for (int i = 0; i < n; i++) {
		hist_sparse_free(&c->sp[i]);
		assert_int_equal(hist_to_sparse(c->h[i], &c->sp[i]), 0);
		c->in[i].lat = &c->sp[i];
		c->in[i].nlat = 1;
		if (!c->in[i].weight)
			c->in[i].weight = 1;
	}
	return slowhost_judge(c->w, c->in, (size_t)n, alpha, c->out);
}

static void fill(struct cluster *c, int i, unsigned ios, double slow)
{
	hist_reset(c->h[i]);
	for (unsigned k = 0; k < ios; k++)
		hist_add(c->h[i], latency_ns(slow));
}

/*
 * The one-sided p-value of a[0..n1-1] above b[0..n2-1] (values below 256)
 * by the pairwise definition of U, with the tie-corrected variance.
 */
static double pairwise_p(const uint64_t *a, int n1, const uint64_t *b, int n2)
{
	double u = 0, N = n1 + n2, ties = 0, var;
	unsigned cnt[256] = { 0 };

	for (int i = 0; i < n1; i++)
		cnt[a[i]]++;
	for (int j = 0; j < n2; j++)
		cnt[b[j]]++;
	for (int i = 0; i < n1; i++)
		for (int j = 0; j < n2; j++)
			u += a[i] > b[j] ? 1 : a[i] == b[j] ? 0.5 : 0;
	for (int v = 0; v < 256; v++)
		ties += (double)cnt[v] * cnt[v] * cnt[v] - cnt[v];
	var = (double)n1 * n2 / 12 * ((N + 1) - ties / (N * (N - 1)));
	return 0.5 *
	       erfc((u - (double)n1 * n2 / 2 - 0.5) / sqrt(var) / sqrt(2.0));
}

/*
 * U from the histogram against the pairwise definition: values below 256
 * ns are buckets of their own, so equal values are exactly the ties. Two
 * slaves, no I/O-count test: the family is the two latency tests, and the
 * smaller p-value is doubled by Holm.
 */
static void test_u_pairwise(void **state)
{
	struct cluster *c = cluster_new();
	uint64_t a[60], b[90];
	double p;

	(void)state;
	rng_state = 1;
	hist_reset(c->h[0]);
	hist_reset(c->h[1]);
	for (int i = 0; i < 60; i++) {
		a[i] = 20 + next_u64() % 40; /* 20..59: somewhat slower */
		hist_add(c->h[0], a[i]);
	}
	for (int j = 0; j < 90; j++) {
		b[j] = 10 + next_u64() % 45; /* 10..54 */
		hist_add(c->h[1], b[j]);
	}
	p = pairwise_p(a, 60, b, 90);
	c->in[0].weight = c->in[1].weight = -1; /* no I/O-count test */
	judge(c, 2, 0.05);
	assert_true(c->out[0].lat_judged && c->out[1].lat_judged);
	assert_false(c->out[0].ios_judged);
	assert_true(p < 0.01);
	assert_true(fabs(c->out[0].p_lat - 2 * p) < 1e-12);
	assert_true(c->out[1].p_lat > 0.5);
	cluster_free(c);
}

/*
 * The same with the first slave's values in two directions (read and
 * write histograms, as slaves send them): its U is over both together,
 * the pairs within it not counted, and its p99 is that of both.
 */
static void test_u_pairwise_two_dirs(void **state)
{
	struct cluster *c = cluster_new();
	uint64_t a[70], b[50];
	struct hist *both = malloc(sizeof(*both));
	double p;

	(void)state;
	assert_non_null(both);
	hist_init(both);
	rng_state = 7;
	for (int i = 0; i < 3; i++)
		hist_reset(c->h[i]);
	for (int i = 0; i < 70; i++) {
		a[i] = 25 + next_u64() % 40; /* 25..64 */
		hist_add(c->h[i % 2], a[i]); /* reads and writes */
		hist_add(both, a[i]);
	}
	for (int j = 0; j < 50; j++) {
		b[j] = 10 + next_u64() % 45; /* 10..54 */
		hist_add(c->h[2], b[j]);
	}
	p = pairwise_p(a, 70, b, 50);
	for (int i = 0; i < 3; i++)
		assert_int_equal(hist_to_sparse(c->h[i], &c->sp[i]), 0);
	c->in[0] = (struct slowhost_in){ .lat = &c->sp[0],
					 .nlat = 2,
					 .weight = -1 };
	c->in[1] = (struct slowhost_in){ .lat = &c->sp[2],
					 .nlat = 1,
					 .weight = -1 };
	assert_true(slowhost_judge(c->w, c->in, 2, 0.05, c->out) >= 0);
	assert_true(p < 0.01);
	assert_true(fabs(c->out[0].p_lat - 2 * p) < 1e-12);
	assert_int_equal(c->out[0].ios, 70);
	assert_int_equal(c->out[0].p99_ns, hist_percentile(both, 99));
	assert_int_equal(c->out[0].median_ns, hist_percentile(both, 50));
	assert_int_equal(c->out[0].rest_p99_ns, hist_percentile(c->h[2], 99));
	/* The faster one cannot be flagged: its percentiles are not made. */
	assert_true(c->out[1].p_lat > 0.5);
	assert_true(c->out[1].p99_ns == 0 && c->out[1].p99_ratio == 0);
	free(both);
	cluster_free(c);
}

/* One slave 30% slower among 8, 5000 I/Os each: named, and only it. */
static void test_one_slower_of_8(void **state)
{
	struct cluster *c = cluster_new();

	(void)state;
	rng_state = 42;
	for (int i = 0; i < NS; i++)
		fill(c, i, 5000, i == 5 ? 1.3 : 1.0);
	assert_int_equal(judge(c, NS, SLOWHOST_ALPHA), 1);
	assert_true(c->out[5].flagged && c->out[5].lat_flag);
	assert_true(c->out[5].p_lat < 1e-6);
	assert_true(fabs(c->out[5].p99_ratio - 1.3) < 0.15);
	assert_true(fabs(c->out[5].median_ratio - 1.3) < 0.05);
	assert_true(slowhost_p(&c->out[5]) == c->out[5].p_lat);
	/* Its own percentiles are hist_percentile()'s, to the nanosecond. */
	assert_int_equal(c->out[5].p99_ns, hist_percentile(c->h[5], 99));
	assert_int_equal(c->out[5].median_ns, hist_percentile(c->h[5], 50));
	for (int i = 0; i < NS; i++) {
		assert_true(c->out[i].judged);
		assert_int_equal(c->out[i].ios, 5000);
		if (i != 5)
			assert_false(c->out[i].flagged);
	}
	cluster_free(c);
}

/*
 * 100 seeded trials of 8 equal slaves, 40000 I/Os shared among them at
 * random (the null model of the I/O-count test too). The family-wise
 * rate of a call is alpha, so over 100 trials: at SLOWHOST_ALPHA (0.001)
 * 0.1 trials are expected to flag one and P(3 or more) < 2e-4, the bound
 * asserted; without the effect gate at alpha 0.05, 5 are expected and
 * P(13 or more) < 0.002 -- the test is not anticonservative with ties.
 */
static void test_equal_slaves_rate(void **state)
{
	struct cluster *c = cluster_new();
	int flagged = 0, significant = 0;

	(void)state;
	rng_state = 7;
	for (int t = 0; t < 100; t++) {
		int any = 0;

		for (int i = 0; i < NS; i++)
			hist_reset(c->h[i]);
		for (int k = 0; k < 40000; k++)
			hist_add(c->h[next_u64() % NS], latency_ns(1.0));
		flagged += judge(c, NS, SLOWHOST_ALPHA) > 0;
		judge(c, NS, 0.05);
		for (int i = 0; i < NS; i++)
			any |= c->out[i].p_lat <= 0.05 ||
			       c->out[i].p_ios <= 0.05;
		significant += any;
	}
	print_message("equal slaves: %d of 100 trials flagged at alpha %g, %d significant at 0.05\n",
		      flagged, SLOWHOST_ALPHA, significant);
	assert_true(flagged <= 2);
	assert_true(significant <= 12);
	cluster_free(c);
}

/* 5% slower over 50000 I/Os: beyond chance, yet below the effect gate. */
static void test_effect_gate(void **state)
{
	struct cluster *c = cluster_new();

	(void)state;
	rng_state = 3;
	for (int i = 0; i < NS; i++)
		fill(c, i, 50000, i == 2 ? 1.05 : 1.0);
	assert_int_equal(judge(c, NS, SLOWHOST_ALPHA), 0);
	assert_true(c->out[2].p_lat < 1e-6);
	assert_true(c->out[2].p99_ratio < SLOWHOST_EFFECT);
	assert_false(c->out[2].flagged);
	cluster_free(c);
}

/* Same latency, 60% of its share of the I/Os: the I/O-count test names it. */
static void test_low_share(void **state)
{
	struct cluster *c = cluster_new();

	(void)state;
	rng_state = 11;
	for (int i = 0; i < NS; i++)
		fill(c, i, i == 0 ? 3000 : 5000, 1.0);
	assert_int_equal(judge(c, NS, SLOWHOST_ALPHA), 1);
	assert_true(c->out[0].ios_flag && !c->out[0].lat_flag);
	/* 3000 of 38000 where 1/8 of it, 4750, was expected. */
	assert_true(fabs(c->out[0].share_ratio - 3000.0 / 4750) < 1e-9);
	assert_true(slowhost_p(&c->out[0]) == c->out[0].p_ios);
	cluster_free(c);
}

/* Two slaves: the slower one is named, never the faster. */
static void test_two_slaves(void **state)
{
	struct cluster *c = cluster_new();

	(void)state;
	rng_state = 5;
	fill(c, 0, 5000, 1.0);
	fill(c, 1, 5000, 1.5);
	assert_int_equal(judge(c, 2, SLOWHOST_ALPHA), 1);
	assert_false(c->out[0].flagged);
	assert_true(c->out[1].lat_flag);
	assert_true(c->out[1].median_ratio > 1.4);
	cluster_free(c);
}

/*
 * A slave with no I/O: no latency to compare; its I/O count is judged
 * when it was to do I/O (weight), and not when it sat the phase out.
 */
static void test_empty_slave(void **state)
{
	struct cluster *c = cluster_new();

	(void)state;
	rng_state = 9;
	for (int i = 0; i < NS; i++)
		fill(c, i, i == 3 ? 0 : 5000, 1.0);
	assert_int_equal(judge(c, NS, SLOWHOST_ALPHA), 1);
	assert_false(c->out[3].lat_judged);
	assert_true(c->out[3].ios_flag);
	assert_true(c->out[3].share_ratio == 0);
	c->in[3].weight = -1;
	assert_int_equal(judge(c, NS, SLOWHOST_ALPHA), 0);
	assert_false(c->out[3].judged);
	for (int i = 0; i < NS; i++)
		if (i != 3)
			assert_true(c->out[i].judged);
	cluster_free(c);
}

/* One slave has nobody to be compared with; too many is refused. */
static void test_one_slave(void **state)
{
	struct cluster *c = cluster_new();
	struct slowhost_out out[NS + 1];
	struct slowhost_in in[NS + 1] = { { 0 } };

	(void)state;
	rng_state = 13;
	fill(c, 0, 5000, 3.0);
	assert_int_equal(judge(c, 1, SLOWHOST_ALPHA), 0);
	assert_false(c->out[0].judged);
	assert_true(c->out[0].p_lat == 1 && c->out[0].p_ios == 1);
	assert_int_equal(slowhost_judge(c->w, in, NS + 1, 0.001, out), -EINVAL);
	assert_int_equal(slowhost_judge(c->w, in, 0, 0.001, out), 0);
	cluster_free(c);
}

/* Read and write histograms of a slave are one latency. */
static void test_two_directions(void **state)
{
	struct cluster *c = cluster_new();
	struct hist *wr = malloc(sizeof(*wr));
	struct hist_sparse two[2];
	struct slowhost_in in[2];
	struct slowhost_out out[2];

	(void)state;
	assert_non_null(wr);
	hist_init(wr);
	rng_state = 17;
	fill(c, 0, 4000, 1.0);
	fill(c, 1, 2000, 2.0);
	for (int k = 0; k < 2000; k++)
		hist_add(wr, latency_ns(2.0));
	assert_int_equal(hist_to_sparse(c->h[1], &two[0]), 0);
	assert_int_equal(hist_to_sparse(wr, &two[1]), 0);
	assert_int_equal(hist_to_sparse(c->h[0], &c->sp[0]), 0);
	in[0] = (struct slowhost_in){ .lat = &c->sp[0],
				      .nlat = 1,
				      .weight = 1 };
	in[1] = (struct slowhost_in){ .lat = two, .nlat = 2, .weight = 1 };
	assert_int_equal(slowhost_judge(c->w, in, 2, SLOWHOST_ALPHA, out), 1);
	assert_int_equal(out[1].ios, 4000);
	assert_true(out[1].lat_flag && !out[1].ios_flag);
	assert_true(fabs(out[1].median_ratio - 2.0) < 0.2);
	hist_sparse_free(&two[0]);
	hist_sparse_free(&two[1]);
	free(wr);
	cluster_free(c);
}

/*
 * A latency given as five histograms (an sd's parts on five slaves) is
 * judged as the same latency given as one: the same U, percentiles and
 * counts.
 */
static void test_many_histograms(void **state)
{
	struct cluster *c = cluster_new();
	struct hist *part[5];
	struct hist_sparse parts[5];
	struct slowhost_in in[2];
	struct slowhost_out out[2];

	(void)state;
	rng_state = 19;
	fill(c, 0, 3000, 1.0);
	hist_reset(c->h[1]);
	for (int p = 0; p < 5; p++) {
		part[p] = malloc(sizeof(*part[p]));
		assert_non_null(part[p]);
		hist_init(part[p]);
		/* Slower parts, some overlapping, some far apart. */
		for (int k = 0; k < 400 + 100 * p; k++) {
			uint64_t v = latency_ns(1.0 + 0.5 * p);

			hist_add(part[p], v);
			hist_add(c->h[1], v);
		}
		assert_int_equal(hist_to_sparse(part[p], &parts[p]), 0);
	}
	assert_int_equal(judge(c, 2, SLOWHOST_ALPHA), 1);
	in[0] = c->in[0];
	in[1] = (struct slowhost_in){ .lat = parts, .nlat = 5, .weight = 1 };
	assert_int_equal(slowhost_judge(c->w, in, 2, SLOWHOST_ALPHA, out), 1);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(out[i].ios, c->out[i].ios);
		assert_true(out[i].p_lat == c->out[i].p_lat);
		assert_int_equal(out[i].p99_ns, c->out[i].p99_ns);
		assert_int_equal(out[i].median_ns, c->out[i].median_ns);
		assert_int_equal(out[i].rest_p99_ns, c->out[i].rest_p99_ns);
		assert_int_equal(out[i].flagged, c->out[i].flagged);
	}
	for (int p = 0; p < 5; p++) {
		hist_sparse_free(&parts[p]);
		free(part[p]);
	}
	cluster_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_u_pairwise),
		cmocka_unit_test(test_u_pairwise_two_dirs),
		cmocka_unit_test(test_one_slower_of_8),
		cmocka_unit_test(test_equal_slaves_rate),
		cmocka_unit_test(test_effect_gate),
		cmocka_unit_test(test_low_share),
		cmocka_unit_test(test_two_slaves),
		cmocka_unit_test(test_empty_slave),
		cmocka_unit_test(test_one_slave),
		cmocka_unit_test(test_two_directions),
		cmocka_unit_test(test_many_histograms),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
