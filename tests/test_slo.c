/*
 * Unit tests of the SLO search (master/plan/slo.c) against a simulated
 * device whose latency is a known function of the rate, p(r) = s / (1 -
 * r / cap) below its capacity and unbounded at it, so the true answer of
 * an objective T is cap x (1 - s / T): the search must bracket it within
 * its stated precision in at most slo_steps_max() steps, for several
 * capacities, objectives and precisions. Then the edges: the max run
 * meets the objective, nothing does, a step short of its rate, a run with
 * no value, non-monotone noisy latency; the step counts; the objective's
 * value of a histogram.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include "master/plan/slo.h"

struct device {
	double cap, s_ms; /* capacity IO/s, latency at no load */
	double noise;     /* relative, uniform in [-noise, +noise] */
	unsigned seed;
};

/* What the device does at a fixed rate (0: as fast as it can). */
static struct slo_run measure(struct device *d, double rate)
{
	struct slo_run r = { .rate = rate };
	double u = (double)rand_r(&d->seed) / RAND_MAX * 2 - 1;

	if (rate <= 0 || rate >= d->cap) {
		/* Saturated: it does its capacity and the queue grows. */
		r.iops = d->cap;
		r.value_ms = 1e6;
		return r;
	}
	r.iops = rate;
	r.value_ms = d->s_ms / (1 - rate / d->cap) * (1 + d->noise * u);
	return r;
}

/* Run a whole search as the conductor does; returns the steps run. */
static size_t search(struct device *d, double target_ms, double prec,
		     struct slo_search *s, struct slo_run *steps)
{
	unsigned k = slo_steps_max(prec);
	struct slo_run max = measure(d, 0);
	size_t n = 0;

	for (;;) {
		slo_search(target_ms, prec, k, &max, steps, n, s);
		if (s->end != SLO_GOING)
			return n;
		assert_true(n < k);
		assert_true(s->next > s->lo && s->next < s->hi);
		steps[n++] = measure(d, s->next);
	}
}

static void test_lands_within_precision(void **state)
{
	static const struct {
		double cap, s_ms, target_ms, prec;
	} cases[] = {
		{ 2000, 1, 20, 5 },      { 2000, 1, 2, 5 },
		{ 128000, 0.2, 2, 5 },   { 128000, 0.2, 0.25, 5 },
		{ 50000, 0.5, 1, 10 },   { 50000, 0.5, 5, 1 },
		{ 1e6, 0.05, 0.1, 0.5 }, { 300, 5, 100, 50 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct device d = { cases[i].cap, cases[i].s_ms, 0, 1 };
		double truth = d.cap * (1 - d.s_ms / cases[i].target_ms);
		struct slo_run steps[32];
		struct slo_search s;
		size_t n = search(&d, cases[i].target_ms, cases[i].prec, &s,
				  steps);

		assert_int_equal(s.end, SLO_FOUND);
		assert_true(n <= slo_steps_max(cases[i].prec));
		assert_int_equal(s.done, n);
		assert_true(s.lo <= truth && truth <= s.hi);
		assert_true(s.hi - s.lo <= cases[i].prec / 100 * d.cap);
		assert_true(s.max == d.cap);
	}
}

static void test_max_meets(void **state)
{
	struct slo_run max = { 0, 5000, 1.5 };
	struct slo_search s;

	(void)state;
	slo_search(2, 5, 7, &max, NULL, 0, &s);
	assert_int_equal(s.end, SLO_MAX_MEETS);
	assert_true(s.lo == 5000 && s.hi == 5000 && s.done == 0);
}

static void test_none_meets(void **state)
{
	/* Even an idle device is slower than the objective. */
	struct device d = { 2000, 5, 0, 1 };
	struct slo_run steps[32];
	struct slo_search s;
	size_t n = search(&d, 2, 5, &s, steps);

	(void)state;
	assert_int_equal(s.end, SLO_NONE_MEETS);
	assert_true(s.lo == 0 && s.hi <= 0.05 * 2000);
	assert_true(n <= slo_steps_max(5));
}

static void test_short_of_rate_fails(void **state)
{
	struct slo_run max = { 0, 1000, 9 };
	struct slo_run ok = { 500, 500 * 0.98, 1 };
	struct slo_run shortr = { 500, 500 * 0.96, 1 };
	struct slo_search s;

	(void)state;
	assert_int_equal(slo_judge(2, &ok), SLO_MEETS);
	assert_int_equal(slo_judge(2, &shortr), SLO_SHORT);
	/* The max run has no rate to fall short of. */
	assert_int_equal(slo_judge(10, &max), SLO_MEETS);
	slo_search(2, 5, 7, &max, &shortr, 1, &s);
	assert_true(s.lo == 0 && s.hi == 500 && s.end == SLO_GOING);
	assert_true(s.next == 250);
	slo_search(2, 5, 7, &max, &ok, 1, &s);
	assert_true(s.lo == 500 && s.hi == 1000 && s.next == 750);
}

static void test_unknown(void **state)
{
	struct slo_run none = { 0, 0, NAN }, max = { 0, 1000, 9 };
	struct slo_run nan = { 500, 500, NAN };
	struct slo_search s;

	(void)state;
	slo_search(2, 5, 7, &none, NULL, 0, &s);
	assert_int_equal(s.end, SLO_NO_MAX);
	slo_search(2, 5, 7, &max, &nan, 1, &s);
	assert_int_equal(s.end, SLO_STOPPED);
	assert_string_equal(slo_verdict_name(slo_judge(2, &nan)),
			    "not measured");
}

/*
 * Latency that is not monotone in the rate: the bracket stays ordered,
 * the search ends within its steps, and its answer is a rate that met.
 */
static void test_noisy(void **state)
{
	(void)state;
	for (unsigned seed = 1; seed <= 200; seed++) {
		struct device d = { 10000, 1, 0.4, seed };
		struct slo_run steps[32];
		struct slo_search s;
		size_t n = search(&d, 4, 5, &s, steps);
		int lo_met = s.lo == 0;

		assert_true(s.end == SLO_FOUND || s.end == SLO_NONE_MEETS);
		assert_true(n <= slo_steps_max(5));
		assert_true(s.lo < s.hi);
		for (size_t i = 0; i < n; i++)
			if (steps[i].rate == s.lo)
				lo_met = slo_judge(4, &steps[i]) == SLO_MEETS;
		assert_true(lo_met);
	}
}

static void test_steps_max(void **state)
{
	(void)state;
	assert_int_equal(slo_steps_max(5), 5 + SLO_MARGIN);
	assert_int_equal(slo_steps_max(10), 4 + SLO_MARGIN);
	assert_int_equal(slo_steps_max(50), 1 + SLO_MARGIN);
	assert_int_equal(slo_steps_max(0.5), 8 + SLO_MARGIN);
	assert_int_equal(slo_steps_max(6.25), 4 + SLO_MARGIN);
}

static void test_value_and_name(void **state)
{
	struct hist h;
	char buf[64];

	(void)state;
	hist_init(&h);
	assert_true(isnan(slo_value_ms(99, &h)));
	/* 1..100 ms: p99 is 99 ms, p50 50 ms, the mean 50.5 ms. */
	for (uint64_t v = 1; v <= 100; v++)
		hist_add(&h, v * 1000000);
	assert_true(fabs(slo_value_ms(99, &h) - 99) < 99 * 0.01);
	assert_true(fabs(slo_value_ms(50, &h) - 50) < 50 * 0.01);
	assert_true(fabs(slo_value_ms(-1, &h) - 50.5) < 1e-9);
	slo_name(99.9, 0.5, buf, sizeof(buf));
	assert_string_equal(buf, "p99.9<=500us");
	slo_name(-1, 2, buf, sizeof(buf));
	assert_string_equal(buf, "mean<=2ms");
	slo_name(50, 1500, buf, sizeof(buf));
	assert_string_equal(buf, "p50<=1.5s");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lands_within_precision),
		cmocka_unit_test(test_max_meets),
		cmocka_unit_test(test_none_meets),
		cmocka_unit_test(test_short_of_rate_fails),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_noisy),
		cmocka_unit_test(test_steps_max),
		cmocka_unit_test(test_value_and_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
