/*
 * cmocka's skip() made visible to ctest. cmocka counts a skipped test as
 * neither passed nor failed and its group returns 0, so ctest would say
 * Passed. Include this after <cmocka.h> and end main() with
 * ls_run_group(): a binary with a failed test exits 1, one with no failure
 * but a skipped test exits 77 (SKIP_RETURN_CODE of every unit test), one
 * whose tests all ran and passed exits 0. A failure is never hidden by a
 * skip, and cmocka's own "[  SKIPPED ]" lines say which cases were skipped.
 * tests/CMakeLists.txt refuses a unit test that calls skip() without
 * including this file.
 */
#ifndef LS_TESTS_CMOCKA_SKIP_H
#define LS_TESTS_CMOCKA_SKIP_H

#include <stdio.h>

static unsigned ls_skipped;

#undef skip
#define skip()                             \
	do {                               \
		ls_skipped++;              \
		_skip(__FILE__, __LINE__); \
	} while (0)

static inline int ls_group_exit(const char *name, int failed)
{
	if (failed)
		return 1;
	if (ls_skipped) {
		printf("%s: %u case(s) skipped and none failed: exit 77\n",
		       name, ls_skipped);
		return 77;
	}
	return 0;
}

#define ls_run_group(tests, setup, teardown) \
	ls_group_exit(__FILE__, cmocka_run_group_tests(tests, setup, teardown))

#endif
