/*
 * Unit tests of the generator bottleneck warnings (master/results/
 * genwarn.c): a host's CPU share from its slaves' CPU time and its
 * threads waiting a core from their run-queue time, and a table of hosts
 * over a run (busy on its own CPU, busy waiting for a CPU others took,
 * quiet on a loaded machine, busy for a moment, busy in exactly half its
 * intervals, I/Os in flight over and at the budget) with the warnings
 * each earns.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "master/results/genwarn.h"

#define NS 1000000000ull

/* CPU time over (interval x cores), in percent; nothing available: 0. */
static void test_cpu_pct(void **state)
{
	(void)state;
	/* 1.8 s of CPU in a 1 s interval on 2 cores: 90%. */
	assert_true(fabs(genwarn_cpu_pct(18 * NS / 10, NS, 2) - 90.0) < 1e-9);
	/* 8 slaves x 0.25 s on 2 cores: 100%. */
	assert_true(fabs(genwarn_cpu_pct(8 * NS / 4, NS, 2) - 100.0) < 1e-9);
	assert_true(fabs(genwarn_cpu_pct(NS / 200, 2 * NS, 1) - 0.25) < 1e-9);
	assert_true(genwarn_cpu_pct(NS, 0, 2) == 0.0);
	assert_true(genwarn_cpu_pct(NS, NS, 0) == 0.0);
}

#define MAXI 10

struct gw_case {
	const char *what;
	uint32_t cores;
	uint64_t inflight;
	unsigned n;
	double pct[MAXI];  /* the host's CPU in each measured interval */
	double runq[MAXI]; /* its threads waiting for a CPU, a core */
	unsigned flags;    /* what it earns */
	unsigned busy;     /* its intervals over a limit */
};

static const struct gw_case cases[] = {
	{ "busy host: 8 slaves on 2 cores at max, the CPU theirs",
	  2,
	  16,
	  10,
	  { 97, 99, 98, 100, 96, 99, 98, 97, 99, 100 },
	  { 0 },
	  GENWARN_CPU,
	  10 },
	{ "busy host: the same slaves, other work taking the CPU",
	  2,
	  16,
	  10,
	  { 40, 35, 45, 30, 41, 38, 44, 39, 40, 42 },
	  { 7, 7.2, 6.8, 7.5, 7, 7.1, 6.9, 7, 7.3, 7 },
	  GENWARN_CPU,
	  10 },
	{ "quiet host: a low fixed rate on a loaded machine",
	  2,
	  8,
	  10,
	  { 1, 2, 1, 1, 2, 1, 1, 3, 1, 1 },
	  { 0.3, 0.34, 0.4, 0.2, 0.3, 0.5, 0.3, 0.3, 0.4, 0.3 },
	  0,
	  0 },
	{ "busy for one interval of ten: a hiccup",
	  2,
	  8,
	  10,
	  { 5, 99, 5, 5, 5, 5, 5, 5, 5, 5 },
	  { 0, 0, 0, 0, 3 },
	  0,
	  2 },
	{ "busy in exactly half its intervals",
	  4,
	  8,
	  6,
	  { 95, 10, 10, 10, 10, 10 },
	  { 0, 0, 2, 0, 2, 0 },
	  GENWARN_CPU,
	  3 },
	{ "busy in fewer than half",
	  4,
	  8,
	  7,
	  { 95, 10, 95, 10, 95, 10, 10 },
	  { 0 },
	  0,
	  3 },
	{ "the limits are not over them: 90% and 1.0 a core",
	  2,
	  8,
	  4,
	  { 90, 90, 90, 90 },
	  { 1, 1, 1, 1 },
	  0,
	  0 },
	{ "threads over budget: 200 in flight on 2 cores",
	  2,
	  200,
	  3,
	  { 20, 20, 20 },
	  { 0 },
	  GENWARN_INFLIGHT,
	  0 },
	{ "threads at the budget: 64 on 2 cores",
	  2,
	  64,
	  3,
	  { 20, 20, 20 },
	  { 0 },
	  0,
	  0 },
	{ "one over the budget",
	  2,
	  65,
	  3,
	  { 20, 20, 20 },
	  { 0 },
	  GENWARN_INFLIGHT,
	  0 },
	{ "busy and over budget",
	  1,
	  100,
	  2,
	  { 100, 100 },
	  { 0 },
	  GENWARN_CPU | GENWARN_INFLIGHT,
	  2 },
	{ "no measured interval: nothing to say of CPU",
	  2,
	  8,
	  0,
	  { 0 },
	  { 0 },
	  0,
	  0 },
	{ "no cores known: no budget to hold it to",
	  0,
	  1000,
	  1,
	  { 0 },
	  { 0 },
	  0,
	  0 },
};

static void test_table(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		const struct gw_case *k = &cases[c];
		struct genwarn_host h = { .cores = k->cores,
					  .inflight = k->inflight };
		double max = 0, sum = 0, rmax = 0, rsum = 0;

		for (unsigned i = 0; i < k->n; i++) {
			genwarn_interval(&h, k->pct[i], k->runq[i]);
			max = fmax(max, k->pct[i]);
			sum += k->pct[i];
			rmax = fmax(rmax, k->runq[i]);
			rsum += k->runq[i];
		}
		print_message("%s\n", k->what);
		assert_int_equal(h.intervals, k->n);
		assert_int_equal(h.busy, k->busy);
		assert_true(h.cpu_pct_max == max);
		assert_true(fabs(h.cpu_pct_sum - sum) < 1e-9);
		assert_true(h.runq_max == rmax);
		assert_true(fabs(h.runq_sum - rsum) < 1e-9);
		assert_int_equal(genwarn_judge(&h), k->flags);
	}
}

/* Threads waiting a core: run-queue time over (interval x cores). */
static void test_runq(void **state)
{
	(void)state;
	/* 16 workers waiting 7/8 of a 1 s interval on 2 cores: 7 a core. */
	assert_true(fabs(genwarn_runq_per_core(16 * NS * 7 / 8, NS, 2) - 7.0) <
		    1e-9);
	assert_true(fabs(genwarn_runq_per_core(NS / 2, 2 * NS, 2) - 0.125) <
		    1e-9);
	assert_true(genwarn_runq_per_core(NS, NS, 0) == 0.0);
	assert_true(genwarn_runq_per_core(NS, 0, 2) == 0.0);
}

static void test_inflight_per_core(void **state)
{
	struct genwarn_host h = { .cores = 2, .inflight = 200 };

	(void)state;
	assert_true(genwarn_inflight_per_core(&h) == 100.0);
	h.cores = 0;
	assert_true(genwarn_inflight_per_core(&h) == 0.0);
}

/*
 * Schedule lag: the mean over the scheduled I/Os against the mean
 * latency, warned at 10% of it and 100 us or more, over 100 I/Os or more.
 */
static void test_lag(void **state)
{
	static const struct {
		uint64_t lag_ns, lag_n, lat_ns, lat_n;
		double mean_us, pct;
		unsigned flags;
	} k[] = {
		/* 150 us of lag in 1 ms I/Os: 15%. */
		{ 1000 * 150000ull, 1000, 1000 * 1000000ull, 1000, 150, 15,
		  GENWARN_LAG },
		/* The same lag in 2 ms I/Os: 7.5%, no warning. */
		{ 1000 * 150000ull, 1000, 1000 * 2000000ull, 1000, 150, 7.5,
		  0 },
		/* 55 us (a kernel's wake-up) of 60 us: 92%, under the floor. */
		{ 500 * 55000ull, 500, 500 * 60000ull, 500, 55, 55.0 / 60 * 100,
		  0 },
		/* Exactly at both limits: warned. */
		{ 200 * 100000ull, 200, 200 * 1000000ull, 200, 100, 10,
		  GENWARN_LAG },
		/* 99 scheduled I/Os: too few to say. */
		{ 99 * 500000ull, 99, 99 * 600000ull, 99, 500, 500.0 / 6, 0 },
		/* No scheduled I/O (iorate=max): no lag, no warning. */
		{ 0, 0, 1000 * 10000ull, 1000, 0, 0, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		struct genwarn_host h = { .cores = 2 };

		/* In two slaves' intervals: the sums add, the max is the max. */
		genwarn_lag(&h, k[i].lag_ns / 2, k[i].lag_n / 2, 7,
			    k[i].lat_ns / 2, k[i].lat_n / 2);
		genwarn_lag(&h, k[i].lag_ns - k[i].lag_ns / 2,
			    k[i].lag_n - k[i].lag_n / 2, 9,
			    k[i].lat_ns - k[i].lat_ns / 2,
			    k[i].lat_n - k[i].lat_n / 2);
		assert_int_equal(h.lag_n, k[i].lag_n);
		assert_int_equal(h.lag_max_ns, 9);
		assert_true(fabs(genwarn_lag_mean_ns(&h) / 1e3 - k[i].mean_us) <
			    1e-6);
		assert_true(fabs(genwarn_lag_pct(&h) - k[i].pct) < 1e-6);
		assert_int_equal(genwarn_judge(&h), k[i].flags);
	}
}

/*
 * Queue above the device: the slaves' mean in-flight against their
 * devices' queue, interval by interval; a host is warned when half or
 * more of its intervals with device figures held less than half of the
 * slaves' queue in the devices' (and the slaves kept 2 or more).
 */
struct q_case {
	const char *what;
	unsigned n;
	double app[MAXI], dev[MAXI];
	unsigned above;
	int warned;
};

static const struct q_case qcases[] = {
	{ "a throttle on the target: 8 in flight, 0.02 in its queue",
	  6,
	  { 8, 8, 8, 8, 8, 8 },
	  { 0.02, 0.02, 0.01, 0.03, 0.02, 0.02 },
	  6,
	  1 },
	{ "the throttle below a stacked device: its queue holds them",
	  6,
	  { 16, 16, 16, 16, 16, 16 },
	  { 15.9, 15.8, 16, 15.9, 15.9, 16 },
	  0,
	  0 },
	{ "just at half: not above (strictly less is)",
	  4,
	  { 8, 8, 8, 8 },
	  { 4, 4, 4, 4 },
	  0,
	  0 },
	{ "QD1: one in flight and none queued is the device being fast",
	  5,
	  { 1, 1, 1, 1, 1 },
	  { 0.1, 0.1, 0.1, 0.1, 0.1 },
	  0,
	  0 },
	{ "exactly half the intervals above",
	  4,
	  { 8, 8, 8, 8 },
	  { 1, 8, 1, 8 },
	  2,
	  1 },
	{ "one interval of five above: a moment",
	  5,
	  { 8, 8, 8, 8, 8 },
	  { 8, 1, 8, 8, 8 },
	  1,
	  0 },
};

static void test_queue(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(qcases) / sizeof(qcases[0]); c++) {
		const struct q_case *k = &qcases[c];
		struct genwarn_host h = { .cores = 2 };
		double a = 0, d = 0;

		for (unsigned i = 0; i < k->n; i++) {
			genwarn_queue(&h, k->app[i], k->dev[i]);
			a += k->app[i];
			d += k->dev[i];
		}
		print_message("%s\n", k->what);
		assert_int_equal(h.queue_n, k->n);
		assert_int_equal(h.queue_above, k->above);
		assert_true(fabs(h.app_qd_sum - a) < 1e-9);
		assert_true(fabs(h.dev_qd_sum - d) < 1e-9);
		assert_int_equal(!!(genwarn_judge(&h) & GENWARN_QUEUE),
				 k->warned);
	}
	/* No device figures: nothing to judge. */
	struct genwarn_host none = { .cores = 2 };
	assert_int_equal(genwarn_judge(&none) & GENWARN_QUEUE, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_pct),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_runq),
		cmocka_unit_test(test_inflight_per_core),
		cmocka_unit_test(test_lag),
		cmocka_unit_test(test_queue),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
