/*
 * Unit tests of size, duration and number parsing and of size formatting,
 * table-driven: every accepted spelling with its value, and every rejected
 * one with its error.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "common/units.h"

#define KIB UINT64_C(1024)
#define MIB (KIB * 1024)
#define GIB (MIB * 1024)
#define TIB (GIB * 1024)

struct size_case {
	const char *in;
	int err;
	uint64_t want;
};

static const struct size_case size_cases[] = {
	{ "0", 0, 0 },
	{ "1", 0, 1 },
	{ "512", 0, 512 },
	{ "4096", 0, 4096 },
	{ "4k", 0, 4 * KIB },
	{ "4K", 0, 4 * KIB },
	{ "4kb", 0, 4 * KIB },
	{ "4KB", 0, 4 * KIB },
	{ "4kB", 0, 4 * KIB },
	{ "1m", 0, MIB },
	{ "256M", 0, 256 * MIB },
	{ "10g", 0, 10 * GIB },
	{ "2t", 0, 2 * TIB },
	{ "1.5m", 0, 1572864 },
	{ "0.5k", 0, 512 },
	{ "1.25g", 0, GIB + GIB / 4 },
	{ "1.50000000000000000000000k", 0, 1536 },
	{ "7b", 0, 7 },
	{ "007", 0, 7 },
	{ "16777215t", 0, 16777215 * TIB },
	{ "18446744073709551615", 0, UINT64_MAX },
	{ "18446744073709551616", -ERANGE, 0 },
	{ "99999999999999999999999", -ERANGE, 0 },
	{ "16777216t", -ERANGE, 0 },
	{ "16777215.5t", 0, 16777215 * TIB + TIB / 2 },
	{ "16777215.9999999999t", -EINVAL, 0 },
	{ "17179869184g", -ERANGE, 0 },
	{ "", -EINVAL, 0 },
	{ "k", -EINVAL, 0 },
	{ "-1", -EINVAL, 0 },
	{ "-4k", -EINVAL, 0 },
	{ "+4k", -EINVAL, 0 },
	{ " 4k", -EINVAL, 0 },
	{ "4k ", -EINVAL, 0 },
	{ "4 k", -EINVAL, 0 },
	{ "4kx", -EINVAL, 0 },
	{ "4kbb", -EINVAL, 0 },
	{ "4bb", -EINVAL, 0 },
	{ "4x", -EINVAL, 0 },
	{ "4p", -EINVAL, 0 },
	{ "1.5", -EINVAL, 0 },    /* not a whole number of bytes */
	{ "1.0001k", -EINVAL, 0 },
	{ "1.", -EINVAL, 0 },
	{ ".5k", -EINVAL, 0 },
	{ "1..5k", -EINVAL, 0 },
	{ "1e3", -EINVAL, 0 },
	{ "0x10", -EINVAL, 0 },
	{ "nan", -EINVAL, 0 },
	{ "inf", -EINVAL, 0 },
};

static void test_parse_size(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(size_cases) / sizeof(size_cases[0]);
	     i++) {
		const struct size_case *c = &size_cases[i];
		uint64_t got = 0xdead;
		int err = units_parse_size(c->in, &got);
		if (err != c->err || (err == 0 && got != c->want)) {
			print_error("\"%s\": err %d value %llu, want %d %llu\n",
				    c->in, err, (unsigned long long)got,
				    c->err, (unsigned long long)c->want);
			fail();
		}
		if (err != 0)
			assert_int_equal(got, 0xdead); /* untouched */
	}
}

struct double_case {
	const char *in;
	int err;
	double want;
};

static const struct double_case seconds_cases[] = {
	{ "0", 0, 0 },
	{ "30", 0, 30 },
	{ "30s", 0, 30 },
	{ "30S", 0, 30 },
	{ "5m", 0, 300 },
	{ "1h", 0, 3600 },
	{ "1.5", 0, 1.5 },
	{ "0.25s", 0, 0.25 },
	{ "1.5m", 0, 90 },
	{ "0.5h", 0, 1800 },
	{ "", -EINVAL, 0 },
	{ "s", -EINVAL, 0 },
	{ "-1", -EINVAL, 0 },
	{ "-5m", -EINVAL, 0 },
	{ "5 m", -EINVAL, 0 },
	{ " 5", -EINVAL, 0 },
	{ "5ms", -EINVAL, 0 },
	{ "5d", -EINVAL, 0 },
	{ "5mm", -EINVAL, 0 },
	{ "1e3", -EINVAL, 0 },
	{ "inf", -EINVAL, 0 },
	{ "nan", -EINVAL, 0 },
	{ "1.", -EINVAL, 0 },
};

static const struct double_case number_cases[] = {
	{ "0", 0, 0 },
	{ "42", 0, 42 },
	{ "3.25", 0, 3.25 },
	{ "100", 0, 100 },
	{ "", -EINVAL, 0 },
	{ "-1", -EINVAL, 0 },
	{ "1k", -EINVAL, 0 },
	{ "5s", -EINVAL, 0 },
	{ "1e5", -EINVAL, 0 },
	{ "abc", -EINVAL, 0 },
	{ "1.2.3", -EINVAL, 0 },
	{ "12 ", -EINVAL, 0 },
};

static void run_double_cases(const char *what, const struct double_case *cases,
			     size_t n, int (*parse)(const char *, double *))
{
	for (size_t i = 0; i < n; i++) {
		const struct double_case *c = &cases[i];
		double got = -7;
		int err = parse(c->in, &got);
		if (err != c->err || (err == 0 && got != c->want)) {
			print_error("%s \"%s\": err %d value %g, want %d %g\n",
				    what, c->in, err, got, c->err, c->want);
			fail();
		}
		if (err != 0)
			assert_true(got == -7);
	}
}

static void test_parse_seconds(void **state)
{
	(void)state;
	run_double_cases("seconds", seconds_cases,
			 sizeof(seconds_cases) / sizeof(seconds_cases[0]),
			 units_parse_seconds);
}

static void test_parse_number(void **state)
{
	(void)state;
	run_double_cases("number", number_cases,
			 sizeof(number_cases) / sizeof(number_cases[0]),
			 units_parse_number);
}

static void test_overflowing_numbers(void **state)
{
	char big[400];
	double d;

	(void)state;
	memset(big, '9', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(units_parse_number(big, &d), -ERANGE);
	assert_int_equal(units_parse_seconds(big, &d), -ERANGE);
	assert_int_equal(units_parse_size(NULL, NULL), -EINVAL);
}

static void test_fmt_size(void **state)
{
	static const struct {
		uint64_t v;
		const char *want;
	} cases[] = {
		{ 0, "0" },
		{ 1, "1" },
		{ 1234, "1234" },
		{ 4 * KIB, "4k" },
		{ 1536, "1536" },
		{ MIB, "1m" },
		{ 3 * GIB, "3g" },
		{ 2 * TIB, "2t" },
		{ 1536 * KIB, "1536k" },
		{ UINT64_MAX, "18446744073709551615" },
	};
	char buf[32];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_string_equal(units_fmt_size(cases[i].v, buf,
						   sizeof(buf)),
				    cases[i].want);
		/* What is printed parses back to the same value. */
		uint64_t back;
		assert_int_equal(units_parse_size(buf, &back), 0);
		assert_int_equal(back, cases[i].v);
	}
	/* Truncated into a short buffer, still terminated. */
	assert_string_equal(units_fmt_size(123456, buf, 4), "123");
}

static void test_fmt_iec(void **state)
{
	static const struct {
		uint64_t v;
		const char *want;
	} cases[] = {
		{ 0, "0 B" },
		{ 1023, "1023 B" },
		{ KIB, "1.0 KiB" },
		{ 1536, "1.5 KiB" },
		{ 64 * MIB, "64.0 MiB" },
		{ 3 * GIB / 2, "1.5 GiB" },
		{ 2 * TIB, "2.0 TiB" },
		{ 3 * TIB * 1024, "3.0 PiB" },
		{ 5000 * TIB * 1024, "5000.0 PiB" },
	};
	char buf[32];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_string_equal(units_fmt_iec(cases[i].v, buf, sizeof(buf)),
				    cases[i].want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_size),
		cmocka_unit_test(test_parse_seconds),
		cmocka_unit_test(test_parse_number),
		cmocka_unit_test(test_overflowing_numbers),
		cmocka_unit_test(test_fmt_size),
		cmocka_unit_test(test_fmt_iec),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
