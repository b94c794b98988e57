/*
 * report_csv_row() formats without printf; its rows must be byte for byte
 * what the printf format it replaced gives, for every kind of value: ties
 * at the last decimal (x/256 MB/s with 4k blocks), values a hair off a tie,
 * tiny and huge values, and random ones over many magnitudes.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "master/report.h"

static void printf_row(FILE *f, const char *run, unsigned interval,
		       const char *phase, uint64_t start_ns, uint64_t end_ns,
		       unsigned reported, unsigned expected,
		       const struct stats_view *v, uint64_t emitted_ns)
{
	fprintf(f,
		"%s,%u,%s,%llu,%llu,%u,%u,%llu,%llu,%llu,%llu,%llu,%llu,"
		"%.3f,%.4f,%.3f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.4f,%.2f,"
		"%llu\n",
		run, interval, phase, (unsigned long long)start_ns,
		(unsigned long long)end_ns, reported, expected,
		(unsigned long long)v->ops, (unsigned long long)v->read_ops,
		(unsigned long long)v->write_ops, (unsigned long long)v->bytes,
		(unsigned long long)v->read_bytes,
		(unsigned long long)v->write_bytes, v->iops, v->mbps,
		v->read_pct, v->resp_ms, v->read_resp_ms, v->write_resp_ms,
		v->resp_max_ms, v->resp_stddev_ms, v->p95_ms, v->p99_ms,
		v->queue_depth, v->cpu_pct, (unsigned long long)emitted_ns);
}

/* Both rows for v; fails with both printed when they differ. */
static void check_row(const struct stats_view *v, uint64_t u)
{
	char *a = NULL, *b = NULL;
	size_t na = 0, nb = 0;
	FILE *fa = open_memstream(&a, &na), *fb = open_memstream(&b, &nb);

	assert_non_null(fa);
	assert_non_null(fb);
	report_csv_row(fa, "rd_one", (unsigned)(u % 100000), "measure", u,
		       u + 1000000000ULL, 3, 4, v, u * 7);
	printf_row(fb, "rd_one", (unsigned)(u % 100000), "measure", u,
		   u + 1000000000ULL, 3, 4, v, u * 7);
	fclose(fa);
	fclose(fb);
	if (strcmp(a, b) != 0)
		fail_msg("rows differ:\n  got  %s  want %s", a, b);
	free(a);
	free(b);
}

/* Every double field of v set to x. */
static void fill(struct stats_view *v, double x)
{
	v->iops = v->mbps = v->read_pct = v->resp_ms = v->read_resp_ms = x;
	v->write_resp_ms = v->resp_max_ms = v->resp_stddev_ms = x;
	v->p95_ms = v->p99_ms = v->queue_depth = v->cpu_pct = x;
}

static void test_ties_and_neighbours(void **state)
{
	struct stats_view v = { 0 };

	(void)state;
	/* k/256 and k/2^20: exact binary fractions, many exact ties. */
	for (unsigned k = 0; k < 4000; k++) {
		double xs[] = { k / 256.0, k / 1048576.0, k / 8.0, k * 0.0005,
				k * 0.005, k * 0.0000005 };

		for (size_t i = 0; i < sizeof(xs) / sizeof(xs[0]); i++) {
			fill(&v, xs[i]);
			check_row(&v, k);
			fill(&v, nextafter(xs[i], 0));
			check_row(&v, k);
			fill(&v, nextafter(xs[i], INFINITY));
			check_row(&v, k);
		}
	}
}

static void test_extremes(void **state)
{
	const double xs[] = { 0.0, 1e-300, 5e-7, 4.9999999e-7, 0.5, 1.5, 2.5,
			      0.125, 0.375, 0.03125, 99.995, 4503599627.370496,
			      4503599627370495.0, 4503599627370496.0, 1e15,
			      1e17, 1e300, INFINITY, -0.0, -1.5, NAN };
	struct stats_view v = { 0 };

	(void)state;
	v.ops = UINT64_MAX;
	v.bytes = 0;
	v.read_ops = 1;
	v.write_bytes = 10000000000000000000ULL;
	for (size_t i = 0; i < sizeof(xs) / sizeof(xs[0]); i++) {
		fill(&v, xs[i]);
		check_row(&v, UINT64_MAX - i);
		check_row(&v, i);
	}
}

static void test_random(void **state)
{
	struct stats_view v = { 0 };
	uint64_t s = 0x9e3779b97f4a7c15ULL;

	(void)state;
	for (unsigned k = 0; k < 40000; k++) {
		double *f[] = { &v.iops,	  &v.mbps,	    &v.read_pct,
				&v.resp_ms,	  &v.read_resp_ms,  &v.write_resp_ms,
				&v.resp_max_ms,	  &v.resp_stddev_ms, &v.p95_ms,
				&v.p99_ms,	  &v.queue_depth,   &v.cpu_pct };

		for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
			s ^= s << 13;
			s ^= s >> 7;
			s ^= s << 17;
			/* Mantissa and a magnitude from 1e-8 to 1e12. */
			*f[i] = (double)(s >> 11) / 9007199254740992.0 *
				pow(10.0, (double)(s % 21) - 8);
		}
		v.ops = s;
		v.read_ops = s >> 3;
		v.write_ops = s % 1000;
		check_row(&v, s >> 1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ties_and_neighbours),
		cmocka_unit_test(test_extremes),
		cmocka_unit_test(test_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
