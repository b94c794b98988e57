/*
 * Unit tests of the NTP-style clock offset estimate: synthetic exchanges with
 * a known offset (either sign, realistic CLOCK_REALTIME magnitudes) and
 * asymmetric random delays must give an estimate within the reported error
 * bound, keep the minimum-RTT sample, and reject inconsistent timestamps.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "common/clockoff.h"

static uint64_t rng_state;

static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

static uint64_t rng_range(uint64_t lo, uint64_t hi)
{
	return lo + rng_next() % (hi - lo + 1);
}

/* A CLOCK_REALTIME value in late 2026. */
#define MASTER_BASE UINT64_C(1796000000000000000)

static void test_known_offsets(void **state)
{
	static const int64_t offsets[] = {
		0,
		1,
		-1,
		5000000,              /* slave 5 ms ahead */
		-5000000,             /* slave 5 ms behind */
		INT64_C(3600000000000),  /* an hour ahead */
		-INT64_C(86400000000000), /* a day behind */
		INT64_C(1000000000000000000),  /* slave clock ~1e18 ahead */
		-INT64_C(1000000000000000000), /* slave clock near the epoch */
		INT64_C(7000000000000000000),
	};

	(void)state;
	rng_state = 2026;
	for (size_t k = 0; k < sizeof(offsets) / sizeof(offsets[0]); k++) {
		int64_t truth = offsets[k];
		struct clockoff c;
		uint64_t best_rtt = UINT64_MAX;
		int64_t best_off = 0;

		clockoff_init(&c);
		assert_int_equal(c.samples, 0);
		uint64_t t = MASTER_BASE;
		for (int i = 0; i < 200; i++) {
			/* Very asymmetric one-way delays, 1 us .. 20 ms. */
			uint64_t d1 = rng_range(1000, 20000000);
			uint64_t d2 = rng_range(1000, 20000000);
			uint64_t proc = rng_range(0, 500000);
			if (i % 3 == 0)
				d2 = rng_range(0, 3); /* near-zero return */
			uint64_t t1 = t;
			uint64_t t2 = (uint64_t)((int64_t)(t1 + d1) + truth);
			uint64_t t3 = t2 + proc;
			uint64_t t4 = t1 + d1 + proc + d2;
			assert_int_equal(clockoff_add(&c, t1, t2, t3, t4), 0);

			uint64_t rtt = d1 + d2;
			int64_t est = (int64_t)(((__int128)t2 - t1 + t3 -
						 (__int128)t4) / 2);
			if (rtt < best_rtt) {
				best_rtt = rtt;
				best_off = est;
			}
			assert_int_equal(c.samples, i + 1);
			assert_int_equal(c.rtt_ns, best_rtt);
			assert_int_equal(c.offset_ns, best_off);
			assert_true(c.error_ns * 2 >= c.rtt_ns);
			assert_true(c.error_ns * 2 <= c.rtt_ns + 1);

			__int128 diff = (__int128)c.offset_ns - truth;
			if (diff < 0)
				diff = -diff;
			if (diff > (__int128)c.error_ns) {
				print_error("offset %lld: estimate %lld, rtt "
					    "%llu error %llu\n",
					    (long long)truth,
					    (long long)c.offset_ns,
					    (unsigned long long)c.rtt_ns,
					    (unsigned long long)c.error_ns);
				fail();
			}
			t = t4 + rng_range(0, 1000000000);
		}

		/* Converting a slave timestamp to master time and back. */
		uint64_t slave_now = (uint64_t)((int64_t)MASTER_BASE + truth);
		uint64_t master = clockoff_to_master(&c, slave_now);
		__int128 err = (__int128)master - MASTER_BASE;
		assert_true(err <= (__int128)c.error_ns &&
			    -err <= (__int128)c.error_ns);
		assert_int_equal(clockoff_to_slave(&c, master), slave_now);
	}
}

static void test_odd_rtt_rounding(void **state)
{
	struct clockoff c;

	(void)state;
	/* Offset 5, d1 = 0, d2 = 1: d/2 = 4.5 truncates to 4, error 1. */
	clockoff_init(&c);
	assert_int_equal(clockoff_add(&c, 100, 105, 105, 101), 0);
	assert_int_equal(c.rtt_ns, 1);
	assert_int_equal(c.error_ns, 1);
	assert_true(c.offset_ns >= 4 && c.offset_ns <= 6);
}

static void test_invalid_samples(void **state)
{
	struct clockoff c, saved;

	(void)state;
	clockoff_init(&c);
	assert_int_equal(clockoff_add(&c, 1000, 2000, 2100, 1300), 0);
	memcpy(&saved, &c, sizeof(c));

	/* t4 before t1. */
	assert_int_equal(clockoff_add(&c, 1000, 2000, 2100, 999), -EINVAL);
	/* t3 before t2. */
	assert_int_equal(clockoff_add(&c, 1000, 2000, 1999, 1300), -EINVAL);
	/* The slave took longer than the whole round trip. */
	assert_int_equal(clockoff_add(&c, 1000, 2000, 2400, 1300), -EINVAL);
	/* Offsets beyond int64 cannot be represented. */
	assert_int_equal(clockoff_add(&c, 0, UINT64_MAX - 10, UINT64_MAX - 10,
				      0),
			 -EINVAL);
	assert_int_equal(clockoff_add(&c, UINT64_MAX - 10, 0, 0,
				      UINT64_MAX - 10),
			 -EINVAL);
	assert_memory_equal(&c, &saved, sizeof(c));

	/* A zero-RTT sample is valid and exact. */
	assert_int_equal(clockoff_add(&c, 5000, 5700, 5800, 5100), 0);
	assert_int_equal(c.rtt_ns, 0);
	assert_int_equal(c.error_ns, 0);
	assert_int_equal(c.offset_ns, 700);
	/* A worse sample later does not replace it. */
	assert_int_equal(clockoff_add(&c, 9000, 9000, 9000, 9400), 0);
	assert_int_equal(c.offset_ns, 700);
	assert_int_equal(c.samples, 3);
}

static void test_conversion_saturates(void **state)
{
	struct clockoff c;

	(void)state;
	clockoff_init(&c);
	assert_int_equal(clockoff_to_master(&c, 12345), 12345);
	c.offset_ns = 1000;
	assert_int_equal(clockoff_to_master(&c, 500), 0);
	assert_int_equal(clockoff_to_slave(&c, UINT64_MAX - 10), UINT64_MAX);
	c.offset_ns = -1000;
	assert_int_equal(clockoff_to_slave(&c, 500), 0);
	assert_int_equal(clockoff_to_master(&c, UINT64_MAX - 10), UINT64_MAX);
	assert_int_equal(clockoff_to_master(&c, 5000), 6000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_offsets),
		cmocka_unit_test(test_odd_rtt_rounding),
		cmocka_unit_test(test_invalid_samples),
		cmocka_unit_test(test_conversion_saturates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
