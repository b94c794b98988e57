/*
 * Unit tests for what keeps a peer from owning the master's console and
 * log (common/log.c): the escaping of peer-supplied strings, and the token
 * bucket that limits a kind of message, with its count of the messages
 * it held back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "common/log.h"

static void test_escape(void **state)
{
	static const struct {
		const char *in, *want;
	} t[] = {
		{ "local-1", "local-1" },
		{ "", "" },
		{ "a\nlockstep: slave x registered",
		  "a\\x0alockstep: slave x registered" },
		{ "\x1b[31mred\x1b[0m", "\\x1b[31mred\\x1b[0m" },
		{ "tab\there\r", "tab\\x09here\\x0d" },
		{ "back\\slash", "back\\\\slash" },
		{ "del\x7f", "del\\x7f" },
		{ "caf\xc3\xa9", "caf\\xc3\\xa9" },
		{ "\x9b"
		  "2J",
		  "\\x9b2J" }, /* the 8-bit CSI */
	};
	char out[LOG_ESC_LEN(64)];

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		assert_ptr_equal(log_escape(t[i].in, out, sizeof(out)), out);
		assert_string_equal(out, t[i].want);
	}
	/* Cut short at an escape's boundary, never inside one. */
	log_escape("ab\ncd", out, 5);
	assert_string_equal(out, "ab");
	log_escape("abcdef", out, 4);
	assert_string_equal(out, "abc");
	log_escape(NULL, out, sizeof(out));
	assert_string_equal(out, "");
	/* LOG_ESC_LEN is always enough: every byte escaped. */
	{
		char in[33], big[LOG_ESC_LEN(32)];

		memset(in, '\n', 32);
		in[32] = 0;
		log_escape(in, big, sizeof(big));
		assert_int_equal(strlen(big), 4 * 32);
	}
}

#define SEC 1000000000ull

static void test_bucket(void **state)
{
	struct log_bucket b;
	uint64_t held = 99, t = 5 * SEC;
	int passed = 0;

	(void)state;
	memset(&b, 0, sizeof(b));
	/* A burst of LOG_BURST goes out, then nothing in the same instant. */
	for (int i = 0; i < 1000; i++)
		passed += log_bucket_take(&b, t, &held);
	assert_int_equal(passed, LOG_BURST);
	assert_int_equal(held, 0);
	/* Half a period later: still nothing. */
	assert_int_equal(log_bucket_take(&b, t + SEC / 2, &held), 0);
	/* A period later: one, saying how many were held back. */
	assert_int_equal(log_bucket_take(&b, t + SEC, &held), 1);
	assert_int_equal(held, 1000 - LOG_BURST + 1);
	assert_int_equal(log_bucket_take(&b, t + SEC, &held), 0);
	/* A flood over 100 s lets through about one a second. */
	passed = 0;
	for (uint64_t k = 0; k < 100000; k++)
		passed += log_bucket_take(&b, t + SEC + k * (SEC / 1000),
					  &held);
	assert_in_range(passed, 99, 101);
	/* A long silence refills the burst, no more. */
	passed = 0;
	for (int i = 0; i < 100; i++)
		passed += log_bucket_take(&b, t + 10000 * SEC, &held);
	assert_int_equal(passed, LOG_BURST);
	/* A clock that goes back does not add credit. */
	assert_int_equal(log_bucket_take(&b, t, &held), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_bucket),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
