/*
 * Unit tests of the change-point detection (master/history/changes.c) on
 * synthetic nightly series: a step is found at its night, a slow drift
 * that no single night shows is found, pure noise gives nothing, and the
 * answer is the same on every call (seeded permutations).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>
#include "master/history/history_int.h"

static const struct history_changes_opts opts = HISTORY_CHANGES_DEFAULTS;

/* A deterministic noise in [-1, 1]. */
static double noise(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return ((double)((*s >> 8) % 2001) - 1000) / 1000;
}

static void test_step(void **state)
{
	struct history_change c[8];
	double x[30];
	unsigned s = 7;
	int n;

	(void)state;
	/* 10000 IOPS for 20 nights, then 8000, with 2% noise. */
	for (int i = 0; i < 30; i++)
		x[i] = (i < 20 ? 10000 : 8000) * (1 + 0.02 * noise(&s));
	n = history_changes_find(x, 30, &opts, c, 8, NULL);
	assert_int_equal(n, 1);
	assert_int_equal(c[0].at, 20);
	assert_true(c[0].p < 0.01);
	assert_true(fabs(c[0].before - 10000) < 300);
	assert_true(fabs(c[0].after - 8000) < 300);
}

static void test_drift(void **state)
{
	struct history_change c[8];
	double x[30];
	unsigned s = 9;
	int n;

	(void)state;
	/*
	 * 1% slower every night with 2% noise: no night is 5% below the
	 * one before, yet the series has moved by a quarter.
	 */
	for (int i = 0; i < 30; i++)
		x[i] = 10000 * (1 - 0.01 * i) * (1 + 0.02 * noise(&s));
	for (int i = 1; i < 30; i++)
		assert_true(x[i] > x[i - 1] * 0.95);
	n = history_changes_find(x, 30, &opts, c, 8, NULL);
	assert_true(n >= 1);
	for (int i = 0; i < n; i++)
		assert_true(c[i].after < c[i].before);
}

static void test_noise(void **state)
{
	struct history_change c[8];
	double x[40];
	unsigned s = 11;

	(void)state;
	for (int i = 0; i < 40; i++)
		x[i] = 10000 * (1 + 0.03 * noise(&s));
	assert_int_equal(history_changes_find(x, 40, &opts, c, 8, NULL), 0);
	/* A flat series (a rate-limited run) neither. */
	for (int i = 0; i < 40; i++)
		x[i] = 5000;
	assert_int_equal(history_changes_find(x, 40, &opts, c, 8, NULL), 0);
}

static void test_deterministic_and_bounds(void **state)
{
	struct history_change a[8], b[8];
	double x[24];
	int na, nb;

	(void)state;
	for (int i = 0; i < 24; i++)
		x[i] = i < 8 ? 1 : i < 16 ? 2 : 1.5;
	na = history_changes_find(x, 24, &opts, a, 8, NULL);
	nb = history_changes_find(x, 24, &opts, b, 8, NULL);
	assert_int_equal(na, nb);
	assert_true(na >= 2);
	assert_memory_equal(a, b, (size_t)na * sizeof(a[0]));
	/* In index order. */
	for (int i = 1; i < na; i++)
		assert_true(a[i].at > a[i - 1].at);
	assert_int_equal(history_changes_find(x, 1, &opts, a, 8, NULL), 0);
	assert_int_equal(history_changes_find(x, 3, &opts, a, 8, NULL), 0);
	assert_int_equal(history_changes_find(x, HISTORY_CHANGES_MAX_N + 1,
					      &opts, a, 8, NULL),
			 -EINVAL);
}

/* splitmix64 and Box-Muller: a seeded standard normal. */
static uint64_t rs;

static double gauss(void)
{
	double u[2];

	for (int i = 0; i < 2; i++) {
		uint64_t z = (rs += 0x9e3779b97f4a7c15ull);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		z ^= z >> 31;
		u[i] = ((double)(z >> 11) + 0.5) / 9007199254740992.0;
	}
	return sqrt(-2 * log(u[0])) * cos(2 * M_PI * u[1]);
}

/* The 10 nights: 151k for 6, then 114k for 4 (2% noise). */
static void test_ten_night_step(void **state)
{
	struct history_change c[8], miss;
	double x[10];

	(void)state;
	for (uint64_t seed = 1; seed <= 10; seed++) {
		rs = seed;
		for (int i = 0; i < 10; i++)
			x[i] = (i < 6 ? 151000 : 114000) * (1 + 0.02 * gauss());
		assert_int_equal(history_changes_find(x, 10, &opts, c, 8,
						      &miss),
				 1);
		assert_int_equal(c[0].at, 6);
		assert_true(c[0].p < 0.05);
		assert_true(fabs(c[0].before - 151000) < 151000 * 0.03);
		assert_true(fabs(c[0].after - 114000) < 114000 * 0.03);
	}
}

/* -2% a night for 10 nights, 1% noise: no night is 5% below the last. */
static void test_ten_night_drift(void **state)
{
	struct history_change c[8];
	double x[10];
	int n;

	(void)state;
	for (uint64_t seed = 1; seed <= 10; seed++) {
		rs = seed * 7;
		for (int i = 0; i < 10; i++)
			x[i] = 150000 * pow(0.98, i) * (1 + 0.01 * gauss());
		n = history_changes_find(x, 10, &opts, c, 8, NULL);
		assert_true(n >= 1);
		for (int i = 0; i < n; i++)
			assert_true(c[i].after < c[i].before);
	}
}

/* Pure noise: nothing, and the nearest miss is said instead. */
static void test_ten_night_noise(void **state)
{
	struct history_change c[8], miss;
	double x[10];
	int found = 0;

	(void)state;
	for (uint64_t seed = 1; seed <= 40; seed++) {
		rs = seed * 13;
		for (int i = 0; i < 10; i++)
			x[i] = 150000 * (1 + 0.02 * gauss());
		if (history_changes_find(x, 10, &opts, c, 8, &miss) > 0) {
			found++;
			continue;
		}
		/* The best split that was tested, with its p. */
		assert_true(miss.p >= opts.alpha && miss.p <= 1);
		assert_true(miss.at >= 2 && miss.at <= 8);
	}
	print_message("pure noise, 10 nights: a change in %d of 40 series (alpha %.2f)\n",
		      found, opts.alpha);
	assert_true(found <= 4);
	/* The seeded series the integration test's numbers stand for. */
	rs = 13;
	for (int i = 0; i < 10; i++)
		x[i] = 150000 * (1 + 0.02 * gauss());
	assert_int_equal(history_changes_find(x, 10, &opts, c, 8, &miss), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_step),
		cmocka_unit_test(test_drift),
		cmocka_unit_test(test_noise),
		cmocka_unit_test(test_deterministic_and_bounds),
		cmocka_unit_test(test_ten_night_step),
		cmocka_unit_test(test_ten_night_drift),
		cmocka_unit_test(test_ten_night_noise),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
