/*
 * Unit tests of a worker's per-target schedules (slave/tsched.c): a known
 * plan gives known shares per target and rates per worker and target
 * (Vdbench's rule: a wd's skew split evenly over its sds), iorate=max
 * keeps one group and no schedule, and a simulated run of the schedules
 * over 20 s of virtual time gives each target its share of the arrivals,
 * also when one target's device is so slow that its slots are always
 * busy: its arrivals wait in its own schedule and the fast one does not
 * take them.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "proto/proto.h"
#include "slave/tsched.h"

#define NS_US 1000ull
#define NS_MS 1000000ull
#define NS_S 1000000000ull

struct fixture {
	struct proto_plan p;
	struct proto_target t[3];
	struct proto_stream s[2];
};

/* Targets with these threads; streams added with add_stream. */
static void plan_init(struct fixture *f, double iorate, unsigned nt,
		      const unsigned *threads)
{
	memset(f, 0, sizeof(*f));
	f->p.iorate = iorate;
	f->p.ntargets = nt;
	f->p.targets = f->t;
	f->p.streams = f->s;
	for (unsigned t = 0; t < nt; t++)
		f->t[t].threads = threads[t];
}

static void add_stream(struct fixture *f, double skew, unsigned nt,
		       const unsigned *targets)
{
	struct proto_stream *s = &f->s[f->p.nstreams++];

	s->skew = skew;
	s->ntargets = nt;
	for (unsigned k = 0; k < nt; k++)
		s->targets[k] = targets[k];
}

/*
 * wd A (skew 75) on sd0 and sd1, wd B (skew 25) on sd1 at 1000/s; sd0
 * has 4 threads, sd1 8.
 */
static void plan_skewed(struct fixture *f)
{
	static const unsigned th[] = { 4, 8 }, both[] = { 0, 1 }, one[] = { 1 };

	plan_init(f, 1000, 2, th);
	add_stream(f, 75, 2, both);
	add_stream(f, 25, 1, one);
}

/* One wd over two sds of 4 threads each at iorate. */
static void plan_even(struct fixture *f, double iorate)
{
	static const unsigned th[] = { 4, 4 }, both[] = { 0, 1 };

	plan_init(f, iorate, 2, th);
	add_stream(f, 0, 2, both);
}

/* Two workers' rates (tsched_worker_rates) are r0 and r1. */
static void check_rates(const struct fixture *f, unsigned *s0, unsigned d0,
			unsigned *s1, unsigned d1, double r0, double r1)
{
	unsigned *slots[2] = { s0, s1 }, depth[2] = { d0, d1 };
	double r[2];

	assert_int_equal(tsched_worker_rates(&f->p, slots, depth, 2, r), 0);
	assert_float_equal(r[0], r0, 1e-9);
	assert_float_equal(r[1], r1, 1e-9);
}

static void test_shares_even(void **state)
{
	struct fixture f;
	double share[2];

	(void)state;
	plan_even(&f, 400);
	assert_int_equal(tsched_shares(&f.p, share), 0);
	assert_float_equal(share[0], 0.5, 1e-12);
	assert_float_equal(share[1], 0.5, 1e-12);
}

/*
 * wd A (skew 75) on sd0 and sd1, wd B (skew 25) on sd1: sd0 37.5 %, sd1
 * 37.5 + 25 = 62.5 %. And a wd without skew takes what is left, split
 * over its sds: A 60 on sd0, B (none) on sd1 and sd2: 60, 20, 20.
 */
static void test_shares_skew(void **state)
{
	static const unsigned th[] = { 4, 8, 4 }, first[] = { 0 },
			      last[] = { 1, 2 };
	struct fixture f;
	double share[3];

	(void)state;
	plan_skewed(&f);
	assert_int_equal(tsched_shares(&f.p, share), 0);
	assert_float_equal(share[0], 0.375, 1e-12);
	assert_float_equal(share[1], 0.625, 1e-12);

	plan_init(&f, 1000, 3, th);
	add_stream(&f, 60, 1, first);
	add_stream(&f, 0, 2, last);
	assert_int_equal(tsched_shares(&f.p, share), 0);
	assert_float_equal(share[0], 0.6, 1e-12);
	assert_float_equal(share[1], 0.2, 1e-12);
	assert_float_equal(share[2], 0.2, 1e-12);
}

/* Workers' rates: each slot carries its target's share over its threads. */
static void test_worker_rates(void **state)
{
	static unsigned w0[] = { 0, 0, 0, 0 },
			w1[] = { 1, 1, 1, 1, 1, 1, 1, 1 };
	static unsigned m0[] = { 0, 1, 1, 0, 1, 1 },
			m1[] = { 0, 1, 1, 0, 1, 1 };
	struct fixture f;

	(void)state;
	plan_skewed(&f);
	check_rates(&f, w0, 4, w1, 8, 375, 625);
	/* Two workers with half of each target: half the rate each. */
	check_rates(&f, m0, 6, m1, 6, 500, 500);
}

/*
 * A worker with half of each target's slots at its 500/s: sd0 187.5/s,
 * sd1 312.5/s, one group each, slots on their own target's stack.
 */
static void test_init_groups(void **state)
{
	static const unsigned slots[] = { 1, 0, 1, 1, 0, 1 };
	struct fixture f;
	struct tsched ts;

	(void)state;
	plan_skewed(&f);
	assert_int_equal(tsched_init(&ts, &f.p, slots, 6, 500), 0);
	assert_int_equal(ts.n, 2);
	assert_true(ts.fixed);
	assert_int_equal(ts.g[0].target, 1);
	assert_int_equal(ts.g[1].target, 0);
	assert_float_equal(ts.g[0].iops, 312.5, 1e-9);
	assert_float_equal(ts.g[1].iops, 187.5, 1e-9);
	assert_int_equal(tsched_start(&ts, RATE_FIXED, 10 * NS_S, 7), 0);
	assert_int_equal(ts.g[0].nfree, 4);
	assert_int_equal(ts.g[1].nfree, 2);
	/* Slot 0 on top, as the single stack had it. */
	assert_int_equal(ts.g[0].free[3], 0);
	assert_int_equal(ts.g[1].free[1], 1);
	for (unsigned k = 0; k < 4; k++)
		assert_int_equal(slots[ts.g[0].free[k]], 1);
	/* Due at the start; busy slots make a group wait for nothing. */
	assert_int_equal(tsched_wait_ns(&ts, 10 * NS_S), 0);
	ts.g[0].nfree = ts.g[1].nfree = 0;
	assert_true(tsched_wait_ns(&ts, 10 * NS_S) == UINT64_MAX);
	tsched_put(&ts, 1, 11 * NS_S);
	assert_int_equal(ts.g[1].nfree, 1);
	assert_true(ts.g[1].free_since == 11 * NS_S);
	tsched_free(&ts);
}

/* iorate=max: one group of every slot, no schedule to wait for. */
static void test_max_one_group(void **state)
{
	static const unsigned th[] = { 2, 2 }, both[] = { 0, 1 };
	static const unsigned slots[] = { 0, 1, 0, 1 };
	struct fixture f;
	struct tsched ts;

	(void)state;
	plan_init(&f, 0, 2, th);
	add_stream(&f, 0, 2, both);
	assert_int_equal(tsched_init(&ts, &f.p, slots, 4, 0), 0);
	assert_int_equal(ts.n, 1);
	assert_false(ts.fixed);
	assert_int_equal(tsched_start(&ts, RATE_EXPONENTIAL, NS_S, 1), 0);
	assert_int_equal(ts.g[0].nfree, 4);
	assert_true(rate_unlimited(&ts.g[0].rate));
	assert_true(tsched_wait_ns(&ts, NS_S) == UINT64_MAX);
	tsched_free(&ts);
}

/*
 * wd A takes skew=100 on sd0, wd B none on sd1: B's remainder is 0, so
 * sd1 gets no I/O at the fixed rate (Vdbench runs it at 0/s); a worker
 * with only sd1's slots is idle, not at max.
 */
static void test_no_share_idle(void **state)
{
	static const unsigned th[] = { 2, 2 }, first[] = { 0 }, last[] = { 1 };
	static unsigned w0[] = { 0, 0 }, w1[] = { 1, 1 };
	struct fixture f;
	struct tsched ts;

	(void)state;
	plan_init(&f, 1000, 2, th);
	add_stream(&f, 100, 1, first);
	add_stream(&f, 0, 1, last);
	check_rates(&f, w0, 2, w1, 2, 1000, 0);
	assert_int_equal(tsched_init(&ts, &f.p, w1, 2, 0), 0);
	assert_true(ts.fixed);
	assert_int_equal(ts.n, 1);
	assert_true(ts.g[0].idle);
	assert_int_equal(tsched_start(&ts, RATE_FIXED, NS_S, 3), 0);
	assert_true(tsched_wait_ns(&ts, NS_S) == UINT64_MAX);
	tsched_free(&ts);
}

#define SIM_S 20
#define STEP (100 * NS_US)

/*
 * Run the worker's issue rule over SIM_S seconds of virtual time: every
 * STEP, slots whose I/O is done (service[target] after its issue) are
 * freed, then each group issues while it has a free slot and an arrival
 * due. issued[t] counts each target's I/Os.
 */
static void simulate(struct tsched *ts, const uint64_t *service,
		     const unsigned *slots, unsigned depth, uint64_t *issued)
{
	uint64_t done[16] = { 0 };
	int busy[16] = { 0 };
	uint64_t t0 = NS_S, end = t0 + SIM_S * NS_S;

	assert_true(depth <= 16);
	assert_int_equal(tsched_start(ts, RATE_EXPONENTIAL, t0, 99), 0);
	for (uint64_t now = t0; now < end; now += STEP) {
		for (unsigned i = 0; i < depth; i++)
			if (busy[i] && done[i] <= now) {
				busy[i] = 0;
				tsched_put(ts, i, now);
			}
		for (unsigned j = 0; j < ts->n; j++) {
			struct tsched_group *g = &ts->g[j];
			uint64_t start;

			while (g->nfree && rate_take(&g->rate, now, &start)) {
				unsigned i = g->free[--g->nfree];

				busy[i] = 1;
				done[i] = now + service[slots[i]];
				issued[slots[i]]++;
			}
		}
	}
}

/*
 * One worker with every slot of plan_even's two sds (slots alternate) at
 * 400/s, simulated; ts is left for the caller to look at and free.
 */
static void sim_even(const uint64_t *service, uint64_t *issued,
		     struct tsched *ts)
{
	static const unsigned slots[] = { 0, 1, 0, 1, 0, 1, 0, 1 };
	struct fixture f;

	plan_even(&f, 400);
	assert_int_equal(tsched_init(ts, &f.p, slots, 8, 400), 0);
	simulate(ts, service, slots, 8, issued);
}

/* n I/Os in SIM_S seconds is per_s a second, within 5 %. */
static int near_rate(uint64_t n, double per_s)
{
	return fabs((double)n - per_s * SIM_S) <= 0.05 * per_s * SIM_S;
}

/* Two equal fast sds, 4 slots each, 400/s: 200/s each within 5 %. */
static void test_sim_equal(void **state)
{
	static const uint64_t service[] = { 2 * NS_MS, 2 * NS_MS };
	uint64_t issued[2] = { 0, 0 };
	struct tsched ts;

	(void)state;
	sim_even(service, issued, &ts);
	assert_true(near_rate(issued[0], 200));
	assert_true(near_rate(issued[1], 200));
	tsched_free(&ts);
}

/*
 * sd0's device takes 100 ms an I/O: 4 slots do 40/s of its 200/s. sd1's
 * takes 1 ms. sd1 still gets its 200/s and no more (one schedule for
 * both would have given it most of the 400/s); sd0's arrivals wait in
 * its own schedule, which falls ever further behind.
 */
static void test_sim_slow_keeps_share(void **state)
{
	static const uint64_t service[] = { 100 * NS_MS, NS_MS };
	uint64_t issued[2] = { 0, 0 };
	struct tsched ts;
	uint64_t behind;

	(void)state;
	sim_even(service, issued, &ts);
	assert_true(near_rate(issued[1], 200));
	assert_true(near_rate(issued[0], 40));
	/* sd0's next intended time: about 16 s of its 20 s behind. */
	behind = NS_S + SIM_S * NS_S - rate_peek(&ts.g[0].rate);
	assert_true(behind > 14 * NS_S && behind < 18 * NS_S);
	tsched_free(&ts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shares_even),
		cmocka_unit_test(test_shares_skew),
		cmocka_unit_test(test_worker_rates),
		cmocka_unit_test(test_init_groups),
		cmocka_unit_test(test_max_one_group),
		cmocka_unit_test(test_no_share_idle),
		cmocka_unit_test(test_sim_equal),
		cmocka_unit_test(test_sim_slow_keeps_share),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
