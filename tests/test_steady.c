/*
 * Unit tests of the SNIA PTS steady-state test (master/results/steady.c):
 * a worked window with its excursions computed by hand, the limits as
 * inclusive bounds, and synthetic series that are steady, drifting,
 * stepped and noisy; the cut of a measured window into rounds.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "master/results/steady.h"

static struct steady_verdict judge(double a, double b, double c, double d,
				   double e)
{
	const double x[STEADY_ROUNDS] = { a, b, c, d, e };
	struct steady_verdict v;

	steady_judge(x, 3, &v);
	return v;
}

/*
 * 100, 102, 98, 101, 99: mean 100, max - min 4 (4%); the least-squares
 * slope over rounds 0..4 is sum((i-2)(x-100)) / 10 = -3 / 10, so the line
 * moves 0.3 x 4 = 1.2 across the window (1.2%).
 */
static void test_worked_window(void **state)
{
	struct steady_verdict v = judge(100, 102, 98, 101, 99);

	(void)state;
	assert_true(v.known && v.steady);
	assert_int_equal(v.per_round, 3);
	assert_true(fabs(v.data_pct - 4.0) < 1e-9);
	assert_true(fabs(v.slope_pct - 1.2) < 1e-9);
}

/* The limits hold as "at most": 20% data and 10% slope are steady. */
static void test_limits_inclusive(void **state)
{
	/* 90, 110, 100, 100, 100: data 20%, slope (20 - 10) / 10 x 4 = 4%. */
	struct steady_verdict v = judge(90, 110, 100, 100, 100);

	(void)state;
	assert_true(fabs(v.data_pct - 20.0) < 1e-9);
	assert_true(v.steady);
	v = judge(89.9, 110, 100, 100, 100.1);
	assert_true(v.data_pct > 20.0);
	assert_false(v.steady);
	/* 95, 97.5, 100, 102.5, 105: a straight line, 10% across: steady. */
	v = judge(95, 97.5, 100, 102.5, 105);
	assert_true(fabs(v.slope_pct - 10.0) < 1e-9);
	assert_true(fabs(v.data_pct - 10.0) < 1e-9);
	assert_true(v.steady);
}

/* A drift of 3% a round: the data stay within 20%, the slope does not. */
static void test_drift(void **state)
{
	struct steady_verdict v = judge(100, 103, 106, 109, 112);

	(void)state;
	assert_true(v.data_pct <= 20);
	assert_true(v.slope_pct > 10);
	assert_false(v.steady);
}

/* A step down to 75% in the last two rounds (a rebuild starting). */
static void test_step(void **state)
{
	struct steady_verdict v = judge(100, 100, 100, 75, 75);

	(void)state;
	assert_true(v.data_pct > 20);
	assert_false(v.steady);
}

/*
 * Noise of +-12% that alternates: no trend at all, but 24% of data
 * excursion: not steady, by the data rule alone.
 */
static void test_noise(void **state)
{
	struct steady_verdict v = judge(112, 88, 112, 88, 112);

	(void)state;
	assert_true(v.slope_pct < 10);
	assert_true(v.data_pct > 20);
	assert_false(v.steady);
	/* The same noise at +-5% is steady. */
	v = judge(105, 95, 105, 95, 105);
	assert_true(v.steady);
}

/* A window without I/O, or with no rounds, is not judged. */
static void test_not_judged(void **state)
{
	const double zero[STEADY_ROUNDS] = { 0 };
	const double x[STEADY_ROUNDS] = { 1, 1, 1, 1, 1 };
	struct steady_verdict v;

	(void)state;
	steady_judge(zero, 2, &v);
	assert_false(v.known);
	assert_false(v.steady);
	steady_judge(x, 0, &v);
	assert_false(v.known);
}

/*
 * 12 measured intervals: rounds of 2, the first 2 (nearest the warmup)
 * left out, the window ending with the run; fewer than 5: no rounds.
 */
static void test_rounds(void **state)
{
	const int want[12] = { -1, -1, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4 };

	(void)state;
	assert_int_equal(steady_per_round(12), 2);
	for (unsigned m = 0; m < 12; m++)
		assert_int_equal(steady_round_of(12, m), want[m]);
	assert_int_equal(steady_round_of(12, 12), -1);
	assert_int_equal(steady_per_round(4), 0);
	for (unsigned m = 0; m < 4; m++)
		assert_int_equal(steady_round_of(4, m), -1);
	assert_int_equal(steady_round_of(5, 4), 4);
	assert_int_equal(steady_round_of(5, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_worked_window),
		cmocka_unit_test(test_limits_inclusive),
		cmocka_unit_test(test_drift),
		cmocka_unit_test(test_step),
		cmocka_unit_test(test_noise),
		cmocka_unit_test(test_not_judged),
		cmocka_unit_test(test_rounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
