/*
 * fio.json's figures from a histogram (master/results/fiojson.c) against injected
 * latencies: fio's latency_ns/us/ms ranges hold the share of I/Os that
 * fell in them, the percentiles at fio's keys are the injected values
 * (within the histogram's bucket width), an empty histogram gives zeros.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "master/results/fiojson.h"

static void test_dist_and_pct(void **state)
{
	struct hist *h = malloc(sizeof(*h));
	struct fiojson_dist d;
	struct fiojson_lat l;
	double sum = 0;

	(void)state;
	assert_non_null(h);
	hist_init(h);
	/* 900 at 1.5 us, 90 at 3 ms, 9 at 1.5 s, 1 at 3 s. */
	for (int i = 0; i < 900; i++)
		hist_add(h, 1500);
	for (int i = 0; i < 90; i++)
		hist_add(h, 3000000);
	for (int i = 0; i < 9; i++)
		hist_add(h, 1500000000);
	hist_add(h, 3000000000ULL);
	fiojson_dist(h, &d);
	assert_true(d.us[0] > 89.99 && d.us[0] < 90.01); /* <= 2 us */
	assert_true(d.ms[1] > 8.99 && d.ms[1] < 9.01);   /* <= 4 ms */
	assert_true(d.ms[10] > 0.89 && d.ms[10] < 0.91); /* <= 2000 ms */
	assert_true(d.ms[11] > 0.09 && d.ms[11] < 0.11); /* >= 2000 ms */
	for (int i = 0; i < FIOJSON_NNS; i++)
		sum += d.ns[i] + d.us[i];
	for (int i = 0; i < FIOJSON_NMS; i++)
		sum += d.ms[i];
	assert_true(sum > 99.999 && sum < 100.001);
	fiojson_lat(h, &l);
	assert_int_equal(l.n, 1000);
	assert_int_equal(l.min, 1500);
	assert_int_equal(l.max, 3000000000ULL);
	assert_true(fiojson_pcts[6] == 50 && fiojson_pcts[12] == 99);
	/* p50 at 1.5 us, p95 at 3 ms, p99.5 at 1.5 s, p99.99 at 3 s, to 1%
	   (the buckets). */
	assert_true(l.pct[6] >= 1485 && l.pct[6] <= 1515);
	assert_true(l.pct[11] >= 2970000 && l.pct[11] <= 3030000);
	assert_true(l.pct[13] >= 1485000000 && l.pct[13] <= 1515000000);
	assert_true(l.pct[16] >= 2970000000ULL && l.pct[16] <= 3030000000ULL);
	hist_init(h);
	fiojson_lat(h, &l);
	fiojson_dist(h, &d);
	assert_int_equal(l.n, 0);
	assert_true(d.ms[11] == 0);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dist_and_pct),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
