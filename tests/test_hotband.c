/*
 * Unit tests of Vdbench's hot band (slave/hotband.c): the shares of the
 * draws below the points of Vdbench's curve (exact, with records of 1000
 * bytes, where Vdbench's "megabytes" are records), Vdbench's arithmetic on
 * a draw worked by hand, a write one percent of the band after the read of
 * the same draw, every record inside the band's whole megabytes, and the
 * bands too small to hold one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "slave/hotband.h"
#include "slave/workload.h"

#define DRAWS 200000u

/*
 * A band of 10^9 bytes in records of 1000 bytes: a draw below a point of
 * the curve is a record below its size. Draws past the band's million
 * records wrap; at most (1 - 0.675) x 1024 / 10^6 of them land below the
 * largest checkpoint, 0.03%. Each share within 0.5 points of Vdbench's
 * (the binomial sigma is at most 0.11 points over 200,000 draws).
 */
static void test_curve_shares(void **state)
{
	static const struct {
		uint64_t below; /* records */
		double share;   /* Vdbench's PBCurve */
	} points[] = {
		{ 16, 0.087217 },  { 32, 0.10101 },    { 256, 0.201713 },
		{ 1024, 0.32645 }, { 4096, 0.386175 },
	};
	unsigned count[5] = { 0 };
	struct workload_rng g;

	(void)state;
	workload_rng_seed(&g, 29);
	for (unsigned i = 0; i < DRAWS; i++) {
		uint64_t rec = hotband_record(1000000000, 1000, 0,
					      workload_rng_next(&g));

		assert_true(rec < 1000000);
		for (unsigned k = 0; k < 5; k++)
			count[k] += rec < points[k].below;
	}
	for (unsigned k = 0; k < 5; k++) {
		double got = (double)count[k] / DRAWS;

		if (got < points[k].share - 0.005 ||
		    got > points[k].share + 0.005)
			fail_msg("%.4f of the draws below record %llu, Vdbench's curve says %.4f",
				 got, (unsigned long long)points[k].below,
				 points[k].share);
	}
}

/*
 * u = 0.5 (r = 2^63) is on the segment from 0.482631 (16384) with slope
 * 398437.1604: 23304.455, truncated to 23304, times 1000: 23304000, over
 * 4096 as Vdbench divides: record 5689. A write of the same draw: 1% of
 * the 244,140 records of a 10^9-byte band further, 5689 + 2441.
 */
static void test_worked_draw(void **state)
{
	(void)state;
	assert_int_equal(hotband_records(1000000000, 4096), 244140);
	assert_int_equal(hotband_record(1000000000, 4096, 0, 1ull << 63), 5689);
	assert_int_equal(hotband_record(1000000000, 4096, 1, 1ull << 63),
			 5689 + 2441);
	/* The first draw is the band's first record; a write wraps too. */
	assert_int_equal(hotband_record(1000000000, 4096, 0, 0), 0);
	assert_int_equal(hotband_record(2000000, 4096, 1, UINT64_MAX),
			 (hotband_record(2000000, 4096, 0, UINT64_MAX) + 4) %
				 488);
}

/* A write is the read of the same draw a percent of the band further. */
static void test_writes_shifted(void **state)
{
	static const uint64_t widths[] = { 1000000, 1999999, 123456789012ull };
	static const uint32_t lens[] = { 512, 4096, 65536, 1000000 };
	struct workload_rng g;

	(void)state;
	workload_rng_seed(&g, 7);
	for (unsigned w = 0; w < 3; w++) {
		for (unsigned l = 0; l < 4; l++) {
			uint64_t n = hotband_records(widths[w], lens[l]);

			assert_true(n > 0);
			for (unsigned i = 0; i < 10000; i++) {
				uint64_t r = workload_rng_next(&g);
				uint64_t rd = hotband_record(widths[w], lens[l],
							     0, r);
				uint64_t wr = hotband_record(widths[w], lens[l],
							     1, r);

				assert_true(rd < n);
				assert_int_equal(wr, (rd + n / 100) % n);
			}
		}
	}
}

/* Vdbench's megabyte is 10^6 bytes; a band is counted in whole ones. */
static void test_records(void **state)
{
	(void)state;
	assert_int_equal(hotband_records(999999, 512), 0);
	assert_int_equal(hotband_records(1000000, 4096), 244);
	assert_int_equal(hotband_records(2999999, 4096), 488);
	assert_int_equal(hotband_records(1999999, 1048576), 0);
	assert_int_equal(hotband_records(2000000, 1048576), 1);
	assert_int_equal(hotband_records(5000000, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_curve_shares),
		cmocka_unit_test(test_worked_draw),
		cmocka_unit_test(test_writes_shifted),
		cmocka_unit_test(test_records),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
