/*
 * fmt_csv_row() formats without printf; its rows must be byte for byte
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

#include "master/results/fmt.h"

static void printf_row(FILE *f, const char *run, unsigned interval,
		       const char *phase, uint64_t start_ns, uint64_t end_ns,
		       unsigned reported, unsigned expected,
		       const struct stats_view *v, uint64_t emitted_ns)
{
	fprintf(f,
		"%s,%u,%s,%llu,%llu,%u,%u,%llu,%llu,%llu,%llu,%llu,%llu,"
		"%.3f,%.4f,%.3f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.4f,%.2f,"
		"%llu,%.6f,%.6f\n",
		run, interval, phase, (unsigned long long)start_ns,
		(unsigned long long)end_ns, reported, expected,
		(unsigned long long)v->ops, (unsigned long long)v->read_ops,
		(unsigned long long)v->write_ops, (unsigned long long)v->bytes,
		(unsigned long long)v->read_bytes,
		(unsigned long long)v->write_bytes, v->iops, v->mbps,
		v->read_pct, v->resp_ms, v->read_resp_ms, v->write_resp_ms,
		v->resp_max_ms, v->resp_stddev_ms, v->p95_ms, v->p99_ms,
		v->queue_depth, v->cpu_pct, (unsigned long long)emitted_ns,
		v->p50_ms, v->p999_ms);
}

/* Both rows for v; fails with both printed when they differ. */
static void check_row(const struct stats_view *v, uint64_t u)
{
	char *a = NULL, *b = NULL;
	size_t na = 0, nb = 0;
	FILE *fa = open_memstream(&a, &na), *fb = open_memstream(&b, &nb);

	assert_non_null(fa);
	assert_non_null(fb);
	fmt_csv_row(fa, "rd_one", (unsigned)(u % 100000), "measure", u,
		    u + 1000000000ULL, 3, 4, v, u * 7);
	printf_row(fb, "rd_one", (unsigned)(u % 100000), "measure", u,
		   u + 1000000000ULL, 3, 4, v, u * 7);
	fclose(fa);
	fclose(fb);
	if (strcmp(a, b) != 0)
		fail_msg("rows differ:\n  got  %s  want %s", a, b);
	/* With the events column: the same row, ",ev1;ev2" before its end. */
	free(a);
	a = NULL;
	fa = open_memstream(&a, &na);
	assert_non_null(fa);
	fmt_csv_row_tail(fa, "rd_one", (unsigned)(u % 100000), "measure", u,
			 u + 1000000000ULL, 3, 4, v, u * 7, "ev1;ev2");
	fclose(fa);
	b[strlen(b) - 1] = 0;
	if (strncmp(a, b, strlen(b)) || strcmp(a + strlen(b), ",ev1;ev2\n"))
		fail_msg("rows with events differ:\n  got  %s  want %s,ev1;ev2",
			 a, b);
	free(a);
	free(b);
}

/* Every double field of v set to x. */
static void fill(struct stats_view *v, double x)
{
	v->iops = v->mbps = v->read_pct = v->resp_ms = v->read_resp_ms = x;
	v->write_resp_ms = v->resp_max_ms = v->resp_stddev_ms = x;
	v->p95_ms = v->p99_ms = v->queue_depth = v->cpu_pct = x;
	v->p50_ms = v->p999_ms = x;
}

static void test_ties_and_neighbours(void **state)
{
	struct stats_view v = { 0 };

	(void)state;
	/* k/256 and k/2^20: exact binary fractions, many exact ties. */
	for (unsigned k = 0; k < 4000; k++) {
		double xs[] = { k / 256.0,  k / 1048576.0, k / 8.0,
				k * 0.0005, k * 0.005,     k * 0.0000005 };

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
	const double xs[] = { 0.0,
			      1e-300,
			      5e-7,
			      4.9999999e-7,
			      0.5,
			      1.5,
			      2.5,
			      0.125,
			      0.375,
			      0.03125,
			      99.995,
			      4503599627.370496,
			      4503599627370495.0,
			      4503599627370496.0,
			      1e15,
			      1e17,
			      1e300,
			      INFINITY,
			      -0.0,
			      -1.5,
			      NAN };
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
		double *f[] = { &v.iops,         &v.mbps,
				&v.read_pct,     &v.resp_ms,
				&v.read_resp_ms, &v.write_resp_ms,
				&v.resp_max_ms,  &v.resp_stddev_ms,
				&v.p95_ms,       &v.p99_ms,
				&v.queue_depth,  &v.cpu_pct,
				&v.p50_ms,       &v.p999_ms };

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

/* The words of line (blank-separated) into w (at most max); their count. */
static int words(char *line, char **w, int max)
{
	int n = 0;

	for (char *t = strtok(line, " \n"); t && n < max;
	     t = strtok(NULL, " \n"))
		w[n++] = t;
	return n;
}

static char *console(int events, const struct stats_view *v, int avg)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	assert_non_null(f);
	fmt_console_header(f, 0, events);
	if (avg)
		fmt_console_avg(f, 0, "avg_2-10", v);
	else
		fmt_console_row(f, 0, "631", v, 1000, 1024, events ? 12 : -1);
	fclose(f);
	return buf;
}

/*
 * The figures of formats.md's sample row land in Vdbench's columns, byte
 * for byte after the time of day.
 */
static void test_console_vdbench_widths(void **state)
{
	struct stats_view v = { .iops = 4044.0,
				.mbps = 15.80,
				.xfer_bytes = 4096,
				.read_pct = 49.31,
				.resp_ms = 2.466,
				.read_resp_ms = 2.104,
				.write_resp_ms = 2.818,
				.resp_max_ms = 25.061,
				.resp_stddev_ms = 2.012,
				.queue_depth = 9.9,
				.cpu_pct = 12.3,
				.cpu_sys_pct = 4.1 };
	const char *want = "         631     4044.0    15.80    4096  49.31"
			   "    2.466    2.104    2.818   25.061    2.012"
			   "   9.9  12.3   4.1";
	char *buf = console(0, &v, 0), *row;

	(void)state;
	row = strchr(strchr(buf, '\n') + 1, '\n') + 1;
	assert_int_equal(strncmp(row + 12, want, strlen(want)), 0);
	/* HCIBench's interval pattern: digits, ':', '.', blanks. */
	assert_int_equal(strspn(row, "0123456789:. \n"), strlen(row));
	free(buf);
}

/*
 * A stall: seconds of latency, a queue depth of thousands, a thousand
 * slaves. Every field keeps a blank before it, the header lines have one
 * word per column (the first three words being the date), and a reader
 * splitting on blanks gets each value at its column.
 */
static void test_console_magnitudes(void **state)
{
	struct stats_view v = { .iops = 12345678.9,
				.mbps = 123456.78,
				.xfer_bytes = 1048576,
				.read_pct = 100,
				.resp_ms = 12445.7,
				.read_resp_ms = 54.308,
				.write_resp_ms = 812445.7,
				.resp_max_ms = 60000,
				.resp_stddev_ms = 16439.9,
				.queue_depth = 16439.9,
				.cpu_pct = 100,
				.cpu_sys_pct = 99.5,
				.p99_ms = 30000 };

	(void)state;
	for (int events = 0; events < 2; events++) {
		char *buf = console(events, &v, 0), *l2, *l3, *w[40];
		int n1, n2, n3;

		l2 = strchr(buf, '\n') + 1;
		l3 = strchr(l2, '\n') + 1;
		l2[-1] = l3[-1] = 0;
		n1 = words(buf, w, 40);
		assert_string_equal(w[3], "interval");
		n2 = words(l2, w, 40);
		assert_string_equal(w[0], "rate");
		assert_int_equal(n1 - 4, n2);
		n3 = words(l3, w, 40);
		assert_int_equal(n3 - 2, n2);
		assert_int_equal(n3, 17 + events);
		assert_string_equal(w[1], "631");
		assert_string_equal(w[2], "12345678.9");
		assert_string_equal(w[3], "123456.78");
		assert_string_equal(w[4], "1048576");
		assert_string_equal(w[5], "100.00");
		assert_string_equal(w[6], "12445.700");
		assert_string_equal(w[7], "54.308");
		assert_string_equal(w[8], "812445.700");
		assert_string_equal(w[9], "60000.000");
		assert_string_equal(w[10], "16439.900");
		assert_string_equal(w[11], "16439.9");
		assert_string_equal(w[12], "100.0");
		assert_string_equal(w[13], "99.5");
		assert_string_equal(w[14], "30000.000");
		assert_string_equal(w[15], "1000");
		assert_string_equal(w[16], "1024");
		if (events)
			assert_string_equal(w[17], "12");
		free(buf);
	}
}

/* A run's total: rate with Vdbench's 2 decimals, a blank before avg_. */
static void test_console_avg(void **state)
{
	struct stats_view v = { .iops = 65134.5151,
				.mbps = 254.44,
				.xfer_bytes = 4096,
				.queue_depth = 1022.1,
				.resp_ms = 10841087.8 };
	char *buf = console(0, &v, 1), *row, *w[40];

	(void)state;
	row = strchr(strchr(buf, '\n') + 1, '\n') + 1;
	assert_non_null(strstr(row, " avg_2-10 "));
	assert_int_equal(words(row, w, 40), 15);
	assert_string_equal(w[2], "65134.52");
	assert_string_equal(w[6], "10841087.800");
	assert_string_equal(w[11], "1022.1");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ties_and_neighbours),
		cmocka_unit_test(test_extremes),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_console_vdbench_widths),
		cmocka_unit_test(test_console_magnitudes),
		cmocka_unit_test(test_console_avg),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
