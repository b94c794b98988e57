/*
 * Unit tests for the table-driven option parser (common/opts.c): every
 * kind of option, bounds, the error messages word for word, positional
 * arguments, --help, and usage lines printed from the same table.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "common/opts.h"

struct vals {
	int flag, choice, help;
	const char *str;
	unsigned n;
	double secs, usecs, pos;
};

static const char *const colours[] = { "red", "green", "blue", NULL };

static struct opts_cmd cmd_for(struct vals *v, struct opts_def *defs)
{
	const struct opts_def d[] = {
		{ "flag", 'f', OPTS_FLAG, &v->flag, .help = "a flag" },
		{ "str", 's', OPTS_STRING, &v->str, 0, 5, .arg = "TEXT",
		  .help = "a string" },
		{ "num", 0, OPTS_UINT, &v->n, 1, 64, .arg = "N",
		  .help = "a number" },
		{ "strict", 0, OPTS_UINT, &v->n, 1, 8,
		  OPTS_NONEMPTY | OPTS_NO_ECHO, .arg = "N" },
		{ NULL, 'e', OPTS_SECONDS, &v->secs, 0, 100, .arg = "S",
		  .help = "plain seconds" },
		{ NULL, 'u', OPTS_SECONDS, &v->usecs, .flags = OPTS_UNITS,
		  .label = "-u S, -p S", .help = "seconds with units" },
		{ NULL, 'p', OPTS_SECONDS, &v->pos, .flags = OPTS_POSITIVE },
		{ "colour", 0, OPTS_CHOICE, &v->choice, .choices = colours,
		  .help = "a choice" },
		{ "paint", 0, OPTS_CHOICE, &v->choice, .choices = colours,
		  .what = "paint", .arg = "NAME",
		  .help = "a choice with a long label that is wider" },
		{ .name = "help", .letter = 'h', .kind = OPTS_HELP,
		  .dest = &v->help },
	};
	struct opts_cmd c = {
		.prog = "tool x",
		.synopsis = "usage: tool x FILE",
		.footer = "That is all.\n",
		.width = 14,
		.defs = defs,
		.ndefs = sizeof(d) / sizeof(d[0]),
		.nargs = 1,
	};

	memcpy(defs, d, sizeof(d));
	return c;
}

/* Run opts_parse on a command line of words; stderr is captured in err. */
static int parse(struct vals *v, const char *line, char *err, size_t len,
		 int *args)
{
	struct opts_def defs[16];
	struct opts_cmd c = cmd_for(v, defs);
	static char buf[512]; /* argv points into it after the call */
	char *argv[32];
	int argc = 0, ret, saved = dup(2);
	FILE *tmp = tmpfile();
	size_t n;

	snprintf(buf, sizeof(buf), "%s", line);
	for (char *w = strtok(buf, " "); w && argc < 31; w = strtok(NULL, " "))
		argv[argc++] = strcmp(w, "''") ? w : (char *)"";
	argv[argc] = NULL;
	assert_non_null(tmp);
	fflush(stderr);
	dup2(fileno(tmp), 2);
	ret = opts_parse(&c, argc, argv, args);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(err, 1, len - 1, tmp);
	err[n] = 0;
	fclose(tmp);
	return ret;
}

static void test_values(void **state)
{
	struct vals v = { 0 };
	char err[2048];
	int args = -1;

	(void)state;
	assert_int_equal(parse(&v, "x -f --str abc --num 7 -e 2.5 -u 2m -p 1 "
				   "--colour blue FILE",
			       err, sizeof(err), &args), 0);
	assert_string_equal(err, "");
	assert_int_equal(v.flag, 1);
	assert_string_equal(v.str, "abc");
	assert_int_equal(v.n, 7);
	assert_float_equal(v.secs, 2.5, 0);
	assert_float_equal(v.usecs, 120, 0);
	assert_float_equal(v.pos, 1, 0);
	assert_int_equal(v.choice, 2);
	assert_int_equal(args, 14);
	/* GNU permutation and abbreviations, as getopt_long does them. */
	memset(&v, 0, sizeof(v));
	assert_int_equal(parse(&v, "x FILE --nu=3 --pa green", err,
			       sizeof(err), &args), 0);
	assert_int_equal(v.n, 3);
	assert_int_equal(v.choice, 1);
	assert_int_equal(args, 4);
}

static void test_errors(void **state)
{
	static const struct {
		const char *line;
		const char *msg; /* stderr starts with this */
	} t[] = {
		{ "x --num 0 F", "tool x: --num wants 1..64, not '0'\n" },
		{ "x --num 65 F", "tool x: --num wants 1..64, not '65'\n" },
		{ "x --num 3x F", "tool x: --num wants 1..64, not '3x'\n" },
		{ "x --strict '' F", "tool x: --strict wants 1..8\n" },
		{ "x --strict 9 F", "tool x: --strict wants 1..8\n" },
		{ "x -e abc F", "tool x: -e wants seconds, not 'abc'\n" },
		{ "x -e 101 F", "tool x: -e wants seconds, not '101'\n" },
		{ "x -e -1 F", "tool x: -e wants seconds, not '-1'\n" },
		{ "x -e 5m F", "tool x: -e wants seconds, not '5m'\n" },
		{ "x -u 5y F", "tool x: -u wants seconds, not '5y'\n" },
		{ "x -p 0 F", "tool x: -p wants seconds > 0, not '0'\n" },
		{ "x -p abc F", "tool x: -p wants seconds > 0, not 'abc'\n" },
		{ "x --colour pink F",
		  "tool x: --colour wants red, green or blue, not 'pink'\n" },
		{ "x --paint pink F",
		  "tool x: unknown paint 'pink' (red, green, blue)\n" },
		{ "x --str toolong F",
		  "tool x: --str is longer than 5 characters\n" },
		{ "x", "usage: tool x FILE\n" },
		{ "x A B", "usage: tool x FILE\n" },
		{ "x --bogus F", "x: unrecognized option '--bogus'\n"
				 "usage: tool x FILE\n" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct vals v = { 0 };
		char err[2048];
		int args;

		if (parse(&v, t[i].line, err, sizeof(err), &args) != -EINVAL)
			fail_msg("'%s' was accepted", t[i].line);
		if (strncmp(err, t[i].msg, strlen(t[i].msg)) != 0)
			fail_msg("'%s': got\n%s\nwant\n%s", t[i].line, err,
				 t[i].msg);
	}
}

static void test_usage(void **state)
{
	struct vals v = { 0 };
	struct opts_def defs[16];
	struct opts_cmd c = cmd_for(&v, defs);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	opts_usage(&c, f);
	fclose(f);
	assert_string_equal(buf,
			    "usage: tool x FILE\n"
			    "  -f, --flag    a flag\n"
			    "  -s, --str TEXT  a string\n"
			    "  --num N       a number\n"
			    "  -e S          plain seconds\n"
			    "  -u S, -p S    seconds with units\n"
			    "  --colour red|green|blue  a choice\n"
			    "  --paint NAME  a choice with a long label that is wider\n"
			    "That is all.\n");
	free(buf);
}

/*
 * The manual page's form of the same table: a subsection per command,
 * the description's paragraphs, one .TP per listed option with the same
 * label as --help, hyphens and backslashes escaped, and a line starting
 * with a dot guarded from being read as a request.
 */
static void test_roff(void **state)
{
	struct vals v = { 0 };
	struct opts_def defs[16];
	struct opts_cmd c = cmd_for(&v, defs);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	c.description = "Does x.\n\n.dots and a \\ stay text.";
	opts_set_format(OPTS_ROFF);
	opts_usage(&c, f);
	opts_set_format(OPTS_TEXT);
	fclose(f);
	assert_string_equal(buf,
			    ".SH SYNOPSIS\n.B \"tool x FILE\"\n"
			    ".SH DESCRIPTION\n"
			    ".PP\nDoes x.\n"
			    ".PP\n\\&.dots and a \\e stay text.\n"
			    ".PP\nThat is all.\n"
			    ".SH OPTIONS\n"
			    ".TP\n.B \"\\-f, \\-\\-flag\"\na flag\n"
			    ".TP\n.B \"\\-s, \\-\\-str TEXT\"\na string\n"
			    ".TP\n.B \"\\-\\-num N\"\na number\n"
			    ".TP\n.B \"\\-e S\"\nplain seconds\n"
			    ".TP\n.B \"\\-u S, \\-p S\"\nseconds with units\n"
			    ".TP\n.B \"\\-\\-colour red|green|blue\"\na choice\n"
			    ".TP\n.B \"\\-\\-paint NAME\"\na choice with a long label that is wider\n");
	free(buf);
	/* Back to text: --help is unchanged. */
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	opts_usage(&c, f);
	fclose(f);
	assert_true(strncmp(buf, "usage: tool x FILE\n", 19) == 0);
	free(buf);
}

static void test_help(void **state)
{
	struct vals v = { 0 };
	char err[256];
	int args, saved = dup(1);
	FILE *tmp = tmpfile();

	(void)state;
	fflush(stdout);
	dup2(fileno(tmp), 1);
	assert_int_equal(parse(&v, "x --help", err, sizeof(err), &args), 1);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	fclose(tmp);
	assert_string_equal(err, "");
}

static void test_join(void **state)
{
	static const char *const one[] = { "a", NULL };
	static const char *const none[] = { NULL };
	char buf[64];

	(void)state;
	assert_string_equal(opts_join(colours, ", ", " or ", buf, sizeof(buf)),
			    "red, green or blue");
	assert_string_equal(opts_join(one, ", ", " or ", buf, sizeof(buf)),
			    "a");
	assert_string_equal(opts_join(none, ", ", " or ", buf, sizeof(buf)),
			    "");
	assert_string_equal(opts_join(colours, "|", "|", buf, 6), "red|g");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values), cmocka_unit_test(test_errors),
		cmocka_unit_test(test_usage),  cmocka_unit_test(test_roff),
		cmocka_unit_test(test_help),   cmocka_unit_test(test_join),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
