/*
 * Unit tests of the end of a warmup=steady warmup
 * (master/results/settle.c): a steady series ends it after five rounds, a
 * drifting one never does and hits the maximum, a step that settles at
 * interval k ends it five rounds after k (rounds of one interval and of
 * several), one slave's series holds the cluster's back, and the first
 * measured interval stays past what any slave may have sent.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "master/results/settle.h"

#define N 120

/* The first n at which settle_judge() is not SETTLE_WAIT (n <= max). */
static unsigned first_done(const double *const *s, unsigned ns, unsigned round,
			   unsigned max, struct settle_verdict *v)
{
	for (unsigned n = 1; n <= max; n++) {
		settle_judge(s, ns, n, round, max, v);
		if (v->state != SETTLE_WAIT)
			return n;
	}
	fail_msg("no decision by the maximum %u", max);
	return 0;
}

/* 1000 I/Os an interval, +-1% alternating: steady after 5 rounds. */
static void test_steady_series(void **state)
{
	double x[N];
	const double *s[1] = { x };
	struct settle_verdict v;

	(void)state;
	for (unsigned k = 0; k < N; k++)
		x[k] = 1000 + (k % 2 ? 10 : -10);
	assert_int_equal(first_done(s, 1, 1, 60, &v), STEADY_ROUNDS);
	assert_int_equal(v.state, SETTLE_STEADY);
	assert_true(v.cluster.known && v.cluster.steady);
	assert_true(v.cluster.data_pct < 2.1);
	assert_int_equal(v.worst, -1);
	/* Rounds of 4 intervals: 5 rounds are 20 intervals. */
	assert_int_equal(first_done(s, 1, 4, 60, &v), 20);
	assert_int_equal(v.cluster.per_round, 4);
}

/*
 * 3% more every interval: each window of 5 moves 12% of its mean, more
 * than the slope limit (10%): never steady, the maximum ends the warmup.
 */
static void test_drift_hits_max(void **state)
{
	double x[N];
	const double *s[1] = { x };
	struct settle_verdict v;

	(void)state;
	for (unsigned k = 0; k < N; k++)
		x[k] = 1000 * pow(1.03, k);
	assert_int_equal(first_done(s, 1, 1, 40, &v), 40);
	assert_int_equal(v.state, SETTLE_MAX);
	assert_false(v.cluster.steady);
	assert_true(v.cluster.slope_pct > STEADY_SLOPE_PCT);
	assert_int_equal(v.worst, 0);
	/* A maximum shorter than the window: reached without a judgment. */
	assert_int_equal(first_done(s, 1, 1, 3, &v), 3);
	assert_int_equal(v.state, SETTLE_MAX);
	assert_false(v.cluster.known);
}

/*
 * A ramp from 100 I/Os an interval (+5% each, never steady), then 1000
 * from interval k on: the first window without the ramp's end is
 * intervals k..k+5R-1, so the warmup ends after k + 5 rounds, for several
 * k and round lengths.
 */
static void test_step_settles(void **state)
{
	static const unsigned ks[] = { 1, 5, 7, 14, 30 };
	static const unsigned rounds[] = { 1, 2, 3 };

	(void)state;
	for (size_t a = 0; a < sizeof(ks) / sizeof(ks[0]); a++) {
		for (size_t b = 0; b < sizeof(rounds) / sizeof(rounds[0]);
		     b++) {
			unsigned k = ks[a], R = rounds[b];
			double x[N];
			const double *s[1] = { x };
			struct settle_verdict v;

			for (unsigned i = 0; i < N; i++)
				x[i] = i < k ? 100 * pow(1.05, i) : 1000;
			assert_int_equal(first_done(s, 1, R, N, &v),
					 k + STEADY_ROUNDS * R);
			assert_int_equal(v.state, SETTLE_STEADY);
		}
	}
}

/*
 * The cluster is steady from the start but slave 1 ramps up and slave 2
 * down until interval 10, then both step to 500: the cluster alone would
 * end the warmup after 5, the slaves hold it to 15, and until then the
 * worst series is a slave. A slave not in the phase (NULL) is left out.
 */
static void test_slave_holds_back(void **state)
{
	double c[N], s1[N], s2[N];
	const double *s[4] = { c, s1, s2, NULL };
	struct settle_verdict v;

	(void)state;
	for (unsigned i = 0; i < N; i++) {
		s1[i] = i < 10 ? 100 + 20.0 * i : 500;
		s2[i] = i < 10 ? 900 - 20.0 * i : 500;
		c[i] = s1[i] + s2[i];
	}
	settle_judge(s, 4, 12, 1, N, &v);
	assert_int_equal(v.state, SETTLE_WAIT);
	assert_true(v.cluster.steady);
	assert_true(v.worst == 1 || v.worst == 2);
	assert_false(v.worst_v.steady);
	assert_int_equal(first_done(s, 4, 1, N, &v), 15);
	assert_int_equal(v.state, SETTLE_STEADY);
	/* A slave with no I/O in its window is not steady. */
	for (unsigned i = 0; i < N; i++)
		s2[i] = 0;
	settle_judge(s, 4, 30, 1, 30, &v);
	assert_int_equal(v.state, SETTLE_MAX);
	assert_int_equal(v.worst, 2);
	assert_false(v.worst_v.known);
}

/* The measured window starts past the judged and the reported intervals. */
static void test_from(void **state)
{
	(void)state;
	assert_int_equal(settle_from(14, 14, 60), 15);
	assert_int_equal(settle_from(14, 16, 60), 17);
	assert_int_equal(settle_from(14, 13, 60), 15);
	/* Never past the planned warmup (the slaves' default). */
	assert_int_equal(settle_from(59, 60, 60), 60);
	assert_int_equal(settle_from(60, 60, 60), 60);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_steady_series),
		cmocka_unit_test(test_drift_hits_max),
		cmocka_unit_test(test_step_settles),
		cmocka_unit_test(test_slave_holds_back),
		cmocka_unit_test(test_from),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
