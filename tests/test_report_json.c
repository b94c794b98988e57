/*
 * Unit tests for the report's JSON reader (master/report/json.c): what it
 * accepts and writes back (exact 64-bit integers, decoded escapes), and
 * what it refuses with a position (truncation, nesting, bad escapes,
 * trailing text), table-driven. And the folder reader's intervals
 * (master/report/data.c): late rows are added to their interval.
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
#include "common/jsonw.h"
#include "master/report/data.h"
#include "master/report/json.h"

/* Parse text and write it back through jsonw, compact (no newlines). */
static char *roundtrip(const char *text)
{
	struct json *j;
	char err[128], *buf = NULL, *o, *p;
	size_t len = 0;
	struct jsonw w;
	FILE *f;

	assert_int_equal(json_parse(text, strlen(text), &j, err, sizeof(err)),
			 0);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	jsonw_init(&w, f);
	json_write(&w, NULL, j);
	jsonw_finish(&w);
	fclose(f);
	json_free(j);
	/* Drop jsonw's newlines and indentation outside strings. */
	for (o = p = buf; *p; p++) {
		if (*p == '"') {
			*o++ = *p++;
			while (*p && *p != '"') {
				if (*p == '\\')
					*o++ = *p++;
				*o++ = *p++;
			}
			*o++ = '"';
			continue;
		}
		if (*p != '\n' && *p != ' ')
			*o++ = *p;
	}
	*o = '\0';
	return buf;
}

static void test_roundtrip(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "{}", "{}" },
		{ "[]", "[]" },
		{ " {\"a\" : [1, -2, 3.5, true, false, null]} ",
		  "{\"a\":[1,-2,3.5,true,false,null]}" },
		/* Nanosecond times stay exact (beyond a double's 2^53). */
		{ "[1796317212168609893, 18446744073709551615, -9223372036854775808]",
		  "[1796317212168609893,18446744073709551615,-9223372036854775808]" },
		{ "[1e3, 0.1, -0.0]", "[1000,0.1,-0]" },
		/* Escapes decode, then jsonw escapes again what it must. */
		{ "[\"a\\\"b\\\\c\\/d\\n\"]", "[\"a\\\"b\\\\c/d\\n\"]" },
		{ "[\"\\u00e9\\ud83d\\ude00\"]",
		  "[\"\xc3\xa9\xf0\x9f\x98\x80\"]" },
		/* NUL and a lone surrogate become U+FFFD. */
		{ "[\"x\\u0000y\\ud800z\"]",
		  "[\"x\xef\xbf\xbdy\xef\xbf\xbdz\"]" },
		{ "\xef\xbb\xbf{\"k\":1}", "{\"k\":1}" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = roundtrip(cases[i].in);

		if (strcmp(got, cases[i].out) != 0)
			fail_msg("case %zu: got %s, want %s", i, got,
				 cases[i].out);
		free(got);
	}
}

static void test_refused(void **state)
{
	static const struct {
		const char *in, *err;
	} cases[] = {
		{ "", "line 1 column 1: unexpected end" },
		{ "{\"runs\": [", "line 1 column 11: unexpected end" },
		{ "{\"a\":1,}", "line 1 column 8: expected a key" },
		{ "{\"a\" 1}", "line 1 column 6: expected ':'" },
		{ "[1 2]", "line 1 column 4: expected ',' or ']'" },
		{ "[01]", "line 1 column 3: expected ',' or ']'" },
		{ "[1.]", "line 1 column 4: bad number" },
		{ "[-]", "line 1 column 3: bad number" },
		{ "[\"a\nb\"]",
		  "line 1 column 4: control character in a string" },
		{ "[\"\\x\"]", "line 1 column 4: bad escape in a string" },
		{ "[\"\\u12\"]", "line 1 column 7: bad \\u escape" },
		{ "[\"abc", "line 1 column 2: unterminated string" },
		{ "{}\n x", "line 2 column 2: text after the JSON value" },
		{ "[tru]", "line 1 column 2: unexpected character" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct json *j = (struct json *)1;
		char err[128];
		int ret = json_parse(cases[i].in, strlen(cases[i].in), &j, err,
				     sizeof(err));

		if (ret != -EINVAL || j != NULL ||
		    strcmp(err, cases[i].err) != 0)
			fail_msg("case %zu (%s): ret %d, err '%s', want '%s'",
				 i, cases[i].in, ret, err, cases[i].err);
	}
}

static void test_depth(void **state)
{
	char deep[2 * JSON_DEPTH_MAX + 8], err[128];
	struct json *j;
	size_t n = 0;

	(void)state;
	/* JSON_DEPTH_MAX arrays nest; one more is refused. */
	for (int i = 0; i < JSON_DEPTH_MAX; i++)
		deep[n++] = '[';
	for (int i = 0; i < JSON_DEPTH_MAX; i++)
		deep[n++] = ']';
	assert_int_equal(json_parse(deep, n, &j, err, sizeof(err)), 0);
	json_free(j);
	memmove(deep + 1, deep, n);
	deep[0] = '[';
	deep[++n] = ']';
	n++;
	assert_int_equal(json_parse(deep, n, &j, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "nested deeper than"));
}

static void test_lookup(void **state)
{
	const char *t =
		"{\"name\":\"r1\",\"n\":2.5,\"files\":{\"hgrm\":\"a.hgrm\"}}";
	struct json *j;
	char err[64];
	double v;

	(void)state;
	assert_int_equal(json_parse(t, strlen(t), &j, err, sizeof(err)), 0);
	assert_string_equal(json_str(json_get(j, "name")), "r1");
	assert_int_equal(json_num(json_get(j, "n"), &v), 0);
	assert_true(v == 2.5);
	assert_string_equal(json_str(json_get(json_get(j, "files"), "hgrm")),
			    "a.hgrm");
	assert_null(json_get(j, "missing"));
	assert_null(json_str(json_get(j, "n")));
	assert_int_equal(json_num(json_get(j, "name"), &v), -EINVAL);
	assert_null(json_get(json_get(j, "name"), "x"));
	json_free(j);
}

/*
 * intervals.csv with interval 2 written while one of two slaves was cut
 * off (500 IO/s) and that slave's row of it later as a `late` row (another
 * 500): the page draws 1000, the I/Os the run totals count; the late
 * row's p99 does not replace the interval's.
 */
static void test_late_rows(void **state)
{
	char dir[] = "/tmp/lockstep-test-report.XXXXXX", path[64];
	char *buf = NULL;
	size_t len = 0;
	struct data_warns warns = { 0 };
	struct jsonw w;
	char err[256];
	FILE *f, *mf;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("{\"runs\": []}", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/intervals.csv", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("run,interval,phase,start_ns,end_ns,slaves_reported,"
	      "slaves_expected,iops,mbps,p99_ms,events\n"
	      "r1,1,measure,1000000000,2000000000,2,2,1000,4,1.5,\n"
	      "r1,2,measure,2000000000,3000000000,1,2,500,2,1.25,\n"
	      "r1,3,measure,3000000000,4000000000,2,2,1000,4,1.5,\n"
	      "r1,2,late,2000000000,3000000000,1,0,500,2,9,\n",
	      f);
	fclose(f);
	mf = open_memstream(&buf, &len);
	assert_non_null(mf);
	jsonw_init(&w, mf);
	jsonw_object(&w, NULL);
	assert_int_equal(data_write_set(&w, "now", dir, &warns, err,
					sizeof(err)),
			 0);
	jsonw_end(&w);
	jsonw_finish(&w);
	fclose(mf);
	/* The writer indents: compare without the white space. */
	for (size_t i = 0, j = 0;; i++) {
		if (buf[i] != ' ' && buf[i] != '\n' && buf[i] != '\t')
			buf[j++] = buf[i];
		if (!buf[i])
			break;
	}
	assert_non_null(strstr(buf, "\"iops\":[1000,1000,1000]"));
	assert_non_null(strstr(buf, "\"mbps\":[4,4,4]"));
	assert_non_null(strstr(buf, "\"p99_ms\":[1.5,1.25,1.5]"));
	assert_non_null(strstr(buf, "\"slaves_reported\":[2,2,2]"));
	assert_int_equal(warns.n, 0);
	free(buf);
	data_warns_free(&warns);
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/intervals.csv", dir);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_depth),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_late_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
