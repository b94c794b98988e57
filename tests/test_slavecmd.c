/*
 * Unit tests of how a slave started with --allow-commands exec reads a
 * master's command (slave/cmd.c cmd_words): words split on blanks, quotes
 * that group and go, and every character a shell would read refused with
 * where it is, so that a command meant for a shell never runs as
 * something else.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "slave/cmd.h"

static void test_words(void **state)
{
	static const struct {
		const char *text;
		int n;
		const char *w[4];
	} cases[] = {
		{ "sync", 1, { "sync" } },
		{ "  touch  /tmp/x\t", 2, { "touch", "/tmp/x" } },
		{ "echo 'a b' \"c d\"", 3, { "echo", "a b", "c d" } },
		{ "echo 'a;|$*' x", 3, { "echo", "a;|$*", "x" } },
		{ "echo \"a;|*\"", 2, { "echo", "a;|*" } },
		{ "echo a''b \"\"", 3, { "echo", "ab", "" } },
		{ "/usr/bin/logger -t lockstep=1 a,b.c:d%e+f@g",
		  4,
		  { "/usr/bin/logger", "-t", "lockstep=1", "a,b.c:d%e+f@g" } },
	};
	char buf[256], *argv[CMD_WORDS_MAX];
	const char *why;
	size_t at;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int n = cmd_words(cases[i].text, buf, sizeof(buf), argv,
				  CMD_WORDS_MAX, &why, &at);

		assert_int_equal(n, cases[i].n);
		for (int k = 0; k < n; k++)
			assert_string_equal(argv[k], cases[i].w[k]);
		assert_null(argv[n]);
	}
}

static void test_refused(void **state)
{
	static const struct {
		const char *text;
		size_t at;
		const char *why;
	} cases[] = {
		{ "sync; echo 3", 4, "shell" },
		{ "cat a | wc", 6, "shell" },
		{ "echo $HOME", 5, "shell" },
		{ "echo \"$HOME\"", 6, "shell" },
		{ "echo `id`", 5, "shell" },
		{ "ls *.log", 3, "shell" },
		{ "echo a > f", 7, "shell" },
		{ "echo ~", 5, "shell" },
		{ "echo a\\ b", 6, "shell" },
		{ "echo a\nrm x", 6, "shell" },
		{ "echo 'a", 7, "not closed" },
		{ "", 0, "no command" },
		{ "   ", 0, "no command" },
	};
	char buf[256], *argv[CMD_WORDS_MAX];
	const char *why;
	size_t at;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		why = NULL;
		assert_int_equal(cmd_words(cases[i].text, buf, sizeof(buf),
					   argv, CMD_WORDS_MAX, &why, &at),
				 -EINVAL);
		assert_non_null(strstr(why, cases[i].why));
		assert_int_equal(at, cases[i].at);
	}
}

static void test_limits(void **state)
{
	char text[512], buf[16], *argv[4];
	const char *why;
	size_t at;

	(void)state;
	/* More words than argv holds (with its NULL). */
	assert_int_equal(cmd_words("a b c d", buf, sizeof(buf), argv, 4, &why,
				   &at),
			 -EINVAL);
	assert_non_null(strstr(why, "too many words"));
	assert_int_equal(cmd_words("a b c", buf, sizeof(buf), argv, 4, &why,
				   &at),
			 3);
	/* More text than buf holds. */
	memset(text, 'x', 40);
	text[40] = '\0';
	assert_int_equal(cmd_words(text, buf, sizeof(buf), argv, 4, &why, &at),
			 -EINVAL);
	assert_non_null(strstr(why, "too long"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
