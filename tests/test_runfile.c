/*
 * Unit tests for per-run file names (master/results/runfile.c) and the progress
 * line (master/run/progress.c): display names become names without spaces,
 * '=' or '/', collisions get deterministic suffixes, and the progress line
 * shows only on a terminal and only for long phases.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "master/run/progress.h"
#include "master/results/runfile.h"

static void test_stem(void **state)
{
	static const char *const t[][2] = {
		{ "loop1 xfersize=4k rdpct=70", "loop1_xfersize-4k_rdpct-70" },
		{ "r1", "r1" },
		{ "r1 curve=50%", "r1_curve-50pct" },
		{ "r1 format", "r1_format" },
		{ "a/b", "a-b" },
		{ "../x", "_.-x" },
		{ ".hidden", "_hidden" },
		{ "", "run" },
		{ "t\tab\n", "t-ab-" },
		{ "r1 iorate=1e+06", "r1_iorate-1e+06" },
	};
	char out[RUNFILE_MAX];

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		runfile_stem(t[i][0], out, sizeof(out));
		assert_string_equal(out, t[i][1]);
		assert_null(strpbrk(out, " =/"));
	}
	/* Cut, never overflowing. */
	runfile_stem("abcdefgh", out, 4);
	assert_string_equal(out, "abc");
}

static void test_assign(void **state)
{
	const char *names[] = { "a b", "a_b", "a=b", "a-b", "a b", "a_b-2" };
	char out[6][RUNFILE_MAX];

	(void)state;
	runfile_assign(names, 6, out);
	assert_string_equal(out[0], "a_b");
	assert_string_equal(out[1], "a_b-2");
	assert_string_equal(out[2], "a-b");
	assert_string_equal(out[3], "a-b-2");
	assert_string_equal(out[4], "a_b-3");
	assert_string_equal(out[5], "a_b-2-2");
	for (int i = 0; i < 6; i++)
		for (int j = 0; j < i; j++)
			assert_string_not_equal(out[i], out[j]);
}

static void test_progress(void **state)
{
	struct plan_phase ph;
	char buf[128];

	(void)state;
	memset(&ph, 0, sizeof(ph));
	ph.kind = PLAN_MEASURE;
	ph.elapsed_s = 30;
	ph.warmup_s = 10;
	assert_false(progress_wanted(&ph, 1));
	ph.elapsed_s = 3600;
	assert_true(progress_wanted(&ph, 1));
	assert_false(progress_wanted(&ph, 0));
	ph.elapsed_s = 5;
	ph.kind = PLAN_FORMAT;
	assert_true(progress_wanted(&ph, 1));
	assert_false(progress_wanted(&ph, 0));
	assert_string_equal(progress_line("r1", 30, 120, 30, buf, sizeof(buf)),
			    "run r1: 25% done, ETA 1m30s");
	assert_string_equal(progress_line("r1", 60, 7260, 60, buf, sizeof(buf)),
			    "run r1: 0% done, ETA 2h00m00s");
	assert_string_equal(progress_line("r1", 0, 100, 0, buf, sizeof(buf)),
			    "run r1: 0% done, ETA unknown");
	assert_string_equal(progress_line("r1", 200, 100, 5, buf, sizeof(buf)),
			    "run r1: 100% done, ETA 0m00s");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stem),
		cmocka_unit_test(test_assign),
		cmocka_unit_test(test_progress),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
