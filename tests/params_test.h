/*
 * What the parser's unit tests share (test_params, test_params_fs):
 * parse a file held in a string, named NAME (defined before this is
 * included), expecting success or one exact error. Include after cmocka.
 */
#ifndef LOCKSTEP_TESTS_PARAMS_TEST_H
#define LOCKSTEP_TESTS_PARAMS_TEST_H

#include <errno.h>
#include <math.h>
#include <string.h>
#include "master/params/params.h"

static char err[512];

static struct params *parse_ok(const char *text)
{
	struct params *p = NULL;
	int ret = params_parse_string(NAME, text, &p, err, sizeof(err));

	if (ret) {
		print_error("unexpected error %d: %s\nin:\n%.400s\n", ret, err,
			    text);
		fail();
	}
	assert_non_null(p);
	return p;
}

/* The parse fails with exactly msg ("FILE:LINE:COL: ..."). */
static void parse_err(const char *text, const char *msg)
{
	struct params *p = (struct params *)1;
	int ret = params_parse_string(NAME, text, &p, err, sizeof(err));

	if (ret != -EINVAL || strcmp(err, msg)) {
		print_error("expected: %s\n     got: %s (%d)\nin:\n%.400s\n",
			    msg, ret ? err : "success", ret, text);
		fail();
	}
	assert_null(p);
}

#define assert_dbl(a, b)                                                   \
	do {                                                               \
		double a_ = (a), b_ = (b);                                 \
		if (fabs(a_ - b_) > 1e-9) {                                \
			print_error("%s = %g, expected %g\n", #a, a_, b_); \
			fail();                                            \
		}                                                          \
	} while (0)

#endif
