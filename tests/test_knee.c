/*
 * Unit tests of the knee finder (master/results/knee.c): synthetic curves
 * whose knee is known - M/M/1's hockey stick (70% by the slope of the
 * chord, worked below), a piecewise linear curve with its break at 60%,
 * the same with noise - and curves without one: flat, noisy and flat, a
 * straight line, too few points, IOPS that never rose; points that did
 * not raise IOPS (they did not reach their rate) stand above the last that
 * did and cannot be the knee.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "master/results/knee.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static int near(double a, double b)
{
	return fabs(a - b) < 1e-9 * fmax(1, fabs(b));
}

/* rho = 0.1 .. 0.9 of 10000 IO/s, resp = 1 ms / (1 - rho). */
static void mm1(struct knee_point *p, const double *noise_iops,
		const double *noise_resp)
{
	for (size_t i = 0; i < 9; i++) {
		double rho = (double)(i + 1) / 10;

		p[i].pct = rho * 100;
		p[i].iops = rho * 10000 * (noise_iops ? noise_iops[i] : 1);
		p[i].resp_ms = 1 / (1 - rho) * (noise_resp ? noise_resp[i] : 1);
	}
}

/*
 * Normalized, x = (rho - 0.1) / 0.8 and y = (1 / (1 - rho) - 10 / 9) /
 * (10 - 10 / 9); the chord is y = x. Below it by x - y: 0.469 at 60%,
 * 0.5 at 70%, 0.4375 at 80%: the knee is 70% (where the slope 1 / (1 -
 * rho)^2 equals the chord's 80 / 9, 1 - rho = 0.3). Beyond it response
 * time rises from 3.33 to 10 ms (x 3) while IOPS rises 7000 to 9000:
 * (3 - 1) / (9 / 7 - 1) = 7.
 */
static void test_mm1(void **state)
{
	struct knee_point p[9];
	struct knee_result k;

	(void)state;
	mm1(p, NULL, NULL);
	assert_int_equal(knee_find(p, N(p), &k), 1);
	assert_int_equal(k.status, KNEE_FOUND);
	assert_int_equal(k.used, 9);
	assert_int_equal(k.flatiops, 0);
	assert_true(near(p[k.at].pct, 70));
	assert_true(near(k.bend, 0.5));
	assert_true(near(k.rise, 7));
	assert_true(near(k.resp_lo, 1 / 0.9) && near(k.resp_hi, 10));
}

/* Flat at 1 ms to 60%, then + 0.5 ms per 10%: the break is the knee. */
static void test_piecewise(void **state)
{
	struct knee_point p[10];
	struct knee_result k;

	(void)state;
	for (size_t i = 0; i < N(p); i++) {
		p[i].pct = (double)(i + 1) * 10;
		p[i].iops = p[i].pct * 100;
		p[i].resp_ms = p[i].pct <= 60 ? 1 : 1 + (p[i].pct - 60) * 0.05;
	}
	assert_int_equal(knee_find(p, N(p), &k), 1);
	assert_true(near(p[k.at].pct, 60));
	/* x 60 / 90 below y 0: 5 / 9. */
	assert_true(near(k.bend, 5.0 / 9));
	/* 1 -> 3 ms (+200%) while 6000 -> 10000 IO/s (+66.7%): 3x. */
	assert_true(near(k.rise, 3));
}

/* M/M/1 with +-3% on response time and +-1% on IOPS: still 70%. */
static void test_noisy(void **state)
{
	static const double nr[9] = { 1.03, 0.97, 1.02, 0.98, 1.03,
				      0.97, 1.02, 0.98, 1.01 };
	static const double ni[9] = { 1.01, 0.99, 1.0,  1.01, 0.99,
				      1.0,  1.01, 0.99, 1.0 };
	struct knee_point p[9];
	struct knee_result k;

	(void)state;
	mm1(p, ni, nr);
	assert_int_equal(knee_find(p, N(p), &k), 1);
	assert_true(near(p[k.at].pct, 70));
	assert_true(k.bend > 0.45 && k.bend < 0.55);
}

/* 1 ms +-10% over the whole curve: flat, whatever the noise. */
static void test_flat(void **state)
{
	static const double r[8] = {
		1.0, 1.1, 0.95, 1.05, 1.0, 0.92, 1.1, 1.08
	};
	struct knee_point p[8];
	struct knee_result k;

	(void)state;
	for (size_t i = 0; i < N(p); i++)
		p[i] = (struct knee_point){ (double)(i + 1) * 12.5,
					    (double)(i + 1) * 1000, r[i] };
	assert_int_equal(knee_find(p, N(p), &k), 0);
	assert_int_equal(k.status, KNEE_FLAT);
	assert_true(near(k.resp_lo, 0.92) && near(k.resp_hi, 1.1));
	/* Just over the 25%: judged, and a straight rise has no knee. */
	for (size_t i = 0; i < N(p); i++)
		p[i].resp_ms = 1 + 0.3 * (double)i / 7;
	assert_int_equal(knee_find(p, N(p), &k), 0);
	assert_int_equal(k.status, KNEE_STRAIGHT);
}

/* Response time in a straight line with IOPS, and one that bends down. */
static void test_no_bend(void **state)
{
	struct knee_point p[9];
	struct knee_result k;

	(void)state;
	for (size_t i = 0; i < N(p); i++)
		p[i] = (struct knee_point){ (double)(i + 1) * 10,
					    (double)(i + 1) * 1000,
					    1 + (double)i };
	assert_int_equal(knee_find(p, N(p), &k), 0);
	assert_int_equal(k.status, KNEE_STRAIGHT);
	assert_true(fabs(k.bend) < 1e-9);
	/* Concave (sqrt): every point lies above the chord. */
	for (size_t i = 0; i < N(p); i++)
		p[i].resp_ms = 1 + 4 * sqrt((double)i);
	assert_int_equal(knee_find(p, N(p), &k), 0);
	assert_int_equal(k.status, KNEE_STRAIGHT);
}

/*
 * Too few usable points: 2, and 4 of which 2 have no I/O or no response
 * time; IOPS that never rose from the first point.
 */
static void test_too_few(void **state)
{
	struct knee_point p[4] = {
		{ 50, 5000, 1 },
		{ 100, 9000, 8 },
		{ 70, 0, 2 },
		{ 90, 8000, NAN },
	};
	struct knee_result k;

	(void)state;
	assert_int_equal(knee_find(p, 2, &k), 0);
	assert_int_equal(k.status, KNEE_TOO_FEW);
	assert_int_equal(k.used, 2);
	assert_int_equal(knee_find(p, 4, &k), 0);
	assert_int_equal(k.status, KNEE_TOO_FEW);
	assert_int_equal(k.used, 2);
	assert_int_equal(knee_find(p, 0, &k), 0);
	assert_int_equal(k.status, KNEE_TOO_FEW);
	p[1].iops = 5000;
	p[2] = (struct knee_point){ 100, 4900, 30 };
	assert_int_equal(knee_find(p, 3, &k), 0);
	assert_int_equal(k.status, KNEE_NO_RISE);
	assert_int_equal(k.flatiops, 2);
	assert_true(*knee_status_why(KNEE_NO_RISE));
	assert_false(*knee_status_why(KNEE_FOUND));
}

/* A ten-point curve at 10%, 20%, ... 100% of max from two columns. */
static void curve10(struct knee_point *p, const double *iops,
		    const double *resp)
{
	for (size_t i = 0; i < 10; i++)
		p[i] = (struct knee_point){ (double)(i + 1) * 10, iops[i],
					    resp[i] };
}

/*
 * Saturated at 8000 IO/s (the injected truth): 80% reached it at 1.5 ms,
 * 90% and 100% did not reach their rates (7950, 7900 IO/s) and only
 * added latency (20, 40 ms). They stand at x = 8000 with 80%: of that
 * plateau only its first point may be the knee, and it is: 8000 IO/s is
 * the most the device gives, at 1.5 ms. Its rise is infinite (response
 * time x26.7 for no IOPS); 70% lies 1/7 less far below the chord.
 */
static void test_non_monotone(void **state)
{
	static const double iops[10] = { 1000, 2000, 3000, 4000, 5000,
					 6000, 7000, 8000, 7950, 7900 };
	static const double resp[10] = { 1, 1, 1, 1, 1, 1, 1, 1.5, 20, 40 };
	struct knee_point p[10];
	struct knee_result k;

	(void)state;
	curve10(p, iops, resp);
	assert_int_equal(knee_find(p, N(p), &k), 1);
	assert_int_equal(k.flatiops, 2);
	assert_true(near(p[k.at].pct, 80));
	assert_true(k.at_max);
	assert_true(near(k.bend, 1 - 0.5 / 39));
	assert_true(isinf(k.rise) && near(k.resp_growth, 40 / 1.5));
	/* A curve that stopped at its first saturated point: the same. */
	assert_int_equal(knee_find(p, 9, &k), 1);
	assert_true(near(p[k.at].pct, 80) && k.at_max);
}

/*
 * Saturated at 8000 IO/s, but 80% got there already queueing (30 ms of
 * 40): the bend is before the plateau, at 70% (7000 IO/s at 1 ms), whose
 * rise is finite: 1 to 40 ms for +14% IOPS.
 */
static void test_saturated_late(void **state)
{
	static const double iops[10] = { 1000, 2000, 3000, 4000, 5000,
					 6000, 7000, 8000, 8000, 8000 };
	static const double resp[10] = { 1, 1, 1, 1, 1, 1, 1, 30, 35, 40 };
	struct knee_point p[10];
	struct knee_result k;

	(void)state;
	curve10(p, iops, resp);
	assert_int_equal(knee_find(p, N(p), &k), 1);
	assert_true(near(p[k.at].pct, 70) && !k.at_max);
	assert_true(near(k.bend, 6.0 / 7));
	assert_true(near(k.rise, 39 / (8.0 / 7 - 1)));
}

/* A bend whose far end rises less than IOPS, relatively: not steep. */
static void test_not_steep(void **state)
{
	/* 10 ms at 1000 IO/s down to 1 ms, then 1.5 ms at 10x the IOPS. */
	struct knee_point p[4] = {
		{ 10, 1000, 10 },
		{ 40, 4000, 1 },
		{ 70, 7000, 1.2 },
		{ 100, 10000, 1.5 },
	};
	struct knee_result k;

	(void)state;
	assert_int_equal(knee_find(p, N(p), &k), 0);
	assert_int_equal(k.status, KNEE_NOT_STEEP);
	assert_true(k.rise <= 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mm1),
		cmocka_unit_test(test_piecewise),
		cmocka_unit_test(test_noisy),
		cmocka_unit_test(test_flat),
		cmocka_unit_test(test_no_bend),
		cmocka_unit_test(test_too_few),
		cmocka_unit_test(test_non_monotone),
		cmocka_unit_test(test_saturated_late),
		cmocka_unit_test(test_not_steep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
