/*
 * Unit tests for the probes' pure parts: a sample's output read as one
 * number or KEY=VALUE pairs (probe_parse_output), the run and interval a
 * sample's time falls in (probe_parse_locate), the until=probe: condition
 * parsed (params_probe_until_parse) and judged (params_cmp_holds), and
 * an event's condition met by a probe's newest sample (probes_until_met).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "master/events/probes.h"
#include "master/params/params.h"
#include "master/run/master_int.h"

/* ---- probe_parse_output ------------------------------------------------ */

struct out_case {
	const char *text;
	int n; /* keys, or -EINVAL */
	const char *keys[4];
	double vals[4];
	const char *why; /* with -EINVAL */
};

static void test_output(void **state)
{
	/* clang-format off */
	static const struct out_case cases[] = {
		/* One number: the key "value". */
		{ "42\n", 1, { "value" }, { 42 }, NULL },
		{ "  -0.5  ", 1, { "value" }, { -0.5 }, NULL },
		{ "1e3", 1, { "value" }, { 1000 }, NULL },
		{ "+7\r\n", 1, { "value" }, { 7 }, NULL },
		{ "0.000123\n\n", 1, { "value" }, { 0.000123 }, NULL },
		/* Pairs, one a line or blank-separated. */
		{ "degraded=0.25\nmisplaced=3\n", 2, { "degraded", "misplaced" },
		  { 0.25, 3 }, NULL },
		{ "a=1 b=2\tc.d-e_f=3", 3, { "a", "b", "c.d-e_f" }, { 1, 2, 3 },
		  NULL },
		{ "value=5", 1, { "value" }, { 5 }, NULL },
		/* Anything else: unparsed, never a made-up number. */
		{ "", -EINVAL, { 0 }, { 0 }, "no output" },
		{ " \n\t\n", -EINVAL, { 0 }, { 0 }, "no output" },
		{ "HEALTH_OK", -EINVAL, { 0 }, { 0 }, "not a finite number" },
		{ "5%", -EINVAL, { 0 }, { 0 }, "not a finite number" },
		{ "inf", -EINVAL, { 0 }, { 0 }, "not a finite number" },
		{ "nan", -EINVAL, { 0 }, { 0 }, "not a finite number" },
		{ "0x10", -EINVAL, { 0 }, { 0 }, "not a finite number" },
		{ "1e999", -EINVAL, { 0 }, { 0 }, "not a finite number" },
		{ "1 2", -EINVAL, { 0 }, { 0 },
		  "a word that is not KEY=VALUE beside others" },
		{ "a=1 7", -EINVAL, { 0 }, { 0 },
		  "a word that is not KEY=VALUE beside others" },
		{ "7 a=1", -EINVAL, { 0 }, { 0 },
		  "a number beside KEY=VALUE pairs" },
		{ "=1", -EINVAL, { 0 }, { 0 }, "an empty key" },
		{ "a b=1", -EINVAL, { 0 }, { 0 }, "not a finite number" },
		{ "a/b=1", -EINVAL, { 0 }, { 0 },
		  "a key with a character other than letters, digits, '_', '.' and '-'" },
		{ "a=1 a=2", -EINVAL, { 0 }, { 0 }, "a key given twice" },
		{ "a=", -EINVAL, { 0 }, { 0 },
		  "a value that is not a finite number" },
		{ "a=x", -EINVAL, { 0 }, { 0 },
		  "a value that is not a finite number" },
		{ "a=inf", -EINVAL, { 0 }, { 0 },
		  "a value that is not a finite number" },
		{ "{\"degraded\": 0}", -EINVAL, { 0 }, { 0 },
		  "not a finite number" },
	};
	/* clang-format on */
	struct probe_kv kv[PROBE_KEYS_MAX];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct out_case *c = &cases[i];
		const char *why = NULL;
		int n = probe_parse_output(c->text, strlen(c->text), kv, &why);

		if (n != c->n) {
			print_error("case %zu \"%s\": %d, expected %d (%s)\n",
				    i, c->text, n, c->n, why ? why : "");
			fail();
		}
		if (n < 0) {
			assert_string_equal(why, c->why);
			continue;
		}
		for (int k = 0; k < n; k++) {
			assert_string_equal(kv[k].key, c->keys[k]);
			assert_true(kv[k].v == c->vals[k]);
		}
	}
}

/* Bounds: 16 keys, a key of 63 characters, a NUL byte. */
static void test_output_bounds(void **state)
{
	struct probe_kv kv[PROBE_KEYS_MAX];
	char buf[1024], key[80];
	const char *why = NULL;
	size_t len = 0;

	(void)state;
	for (int i = 0; i < PROBE_KEYS_MAX; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len,
					"k%d=%d\n", i, i);
	assert_int_equal(probe_parse_output(buf, len, kv, &why),
			 PROBE_KEYS_MAX);
	assert_string_equal(kv[15].key, "k15");
	assert_true(kv[15].v == 15);
	len += (size_t)snprintf(buf + len, sizeof(buf) - len, "k16=16\n");
	assert_int_equal(probe_parse_output(buf, len, kv, &why), -EINVAL);
	assert_string_equal(why, "more than 16 keys");

	memset(key, 'k', 63);
	key[63] = '\0';
	len = (size_t)snprintf(buf, sizeof(buf), "%s=1", key);
	assert_int_equal(probe_parse_output(buf, len, kv, &why), 1);
	assert_string_equal(kv[0].key, key);
	len = (size_t)snprintf(buf, sizeof(buf), "%sk=1", key);
	assert_int_equal(probe_parse_output(buf, len, kv, &why), -EINVAL);
	assert_string_equal(why, "a key of 64 characters or more");

	assert_int_equal(probe_parse_output("1\0002", 3, kv, &why), -EINVAL);
	assert_string_equal(why, "a NUL byte in the output");
	/* Only the len bytes given are read. */
	assert_int_equal(probe_parse_output("12345", 2, kv, &why), 1);
	assert_true(kv[0].v == 12);
}

/* ---- probe_parse_locate ------------------------------------------------ */

static void test_locate(void **state)
{
	struct run_result runs[3];
	const uint64_t S = 1000000000ull;
	unsigned iv = 0;

	(void)state;
	memset(runs, 0, sizeof(runs));
	/* r0: 10 intervals of 1 s from t=100 s, done after 8 rows. */
	runs[0].start_at = 100 * S;
	runs[0].ph.interval_ns = S;
	runs[0].ph.intervals = 10;
	runs[0].done = 1;
	runs[0].rows = 8;
	/* r1: running, 5 intervals of 2 s from t=200 s. */
	runs[1].start_at = 200 * S;
	runs[1].ph.interval_ns = 2 * S;
	runs[1].ph.intervals = 5;
	/* r2: not started. */
	runs[2].ph.interval_ns = S;
	runs[2].ph.intervals = 5;

	assert_int_equal(probe_parse_locate(runs, 3, 99 * S, &iv), -1);
	assert_int_equal(probe_parse_locate(runs, 3, 100 * S, &iv), 0);
	assert_int_equal(iv, 1);
	assert_int_equal(probe_parse_locate(runs, 3, 101 * S - 1, &iv), 0);
	assert_int_equal(iv, 1);
	assert_int_equal(probe_parse_locate(runs, 3, 101 * S, &iv), 0);
	assert_int_equal(iv, 2);
	assert_int_equal(probe_parse_locate(runs, 3, 108 * S - 1, &iv), 0);
	assert_int_equal(iv, 8);
	/* Past its last row (it ended early): between runs. */
	assert_int_equal(probe_parse_locate(runs, 3, 108 * S, &iv), -1);
	assert_int_equal(probe_parse_locate(runs, 3, 150 * S, &iv), -1);
	/* The running run counts its planned intervals. */
	assert_int_equal(probe_parse_locate(runs, 3, 200 * S, &iv), 1);
	assert_int_equal(iv, 1);
	assert_int_equal(probe_parse_locate(runs, 3, 203 * S, &iv), 1);
	assert_int_equal(iv, 2);
	assert_int_equal(probe_parse_locate(runs, 3, 210 * S - 1, &iv), 1);
	assert_int_equal(iv, 5);
	assert_int_equal(probe_parse_locate(runs, 3, 210 * S, &iv), -1);
	/* Two runs covering t (an early end not yet known): the later. */
	runs[0].done = 0;
	runs[0].ph.intervals = 200;
	assert_int_equal(probe_parse_locate(runs, 3, 201 * S, &iv), 1);
	assert_int_equal(iv, 1);
	/* A skipped run never holds a sample. */
	runs[1].skipped = 1;
	assert_int_equal(probe_parse_locate(runs, 3, 201 * S, &iv), 0);
	assert_int_equal(iv, 102);
}

/* ---- until=probe: ------------------------------------------------------- */

struct until_case {
	const char *text;
	int ret;
	const char *ref;
	enum params_cmp op;
	double value;
	const char *why;
};

static void test_until_parse(void **state)
{
	/* clang-format off */
	static const struct until_case cases[] = {
		{ "degraded==0", 0, "degraded", PARAMS_CMP_EQ, 0, NULL },
		{ "ceph.degraded<=0.5", 0, "ceph.degraded", PARAMS_CMP_LE, 0.5,
		  NULL },
		{ "a.b.c!=-1", 0, "a.b.c", PARAMS_CMP_NE, -1, NULL },
		{ "x<3", 0, "x", PARAMS_CMP_LT, 3, NULL },
		{ "x>1e3", 0, "x", PARAMS_CMP_GT, 1000, NULL },
		{ "x>=2", 0, "x", PARAMS_CMP_GE, 2, NULL },
		{ "x-y_z>=2", 0, "x-y_z", PARAMS_CMP_GE, 2, NULL },
		{ "==0", -EINVAL, NULL, 0, 0,
		  "no probe name before the comparison" },
		{ "x", -EINVAL, NULL, 0, 0,
		  "no comparison (==, !=, <, <=, >, >=) after the probe name" },
		{ "x=0", -EINVAL, NULL, 0, 0,
		  "the comparison is not one of ==, !=, <, <=, >, >=" },
		{ "x!0", -EINVAL, NULL, 0, 0,
		  "the comparison is not one of ==, !=, <, <=, >, >=" },
		{ "x==", -EINVAL, NULL, 0, 0, "no number after the comparison" },
		{ "x==abc", -EINVAL, NULL, 0, 0,
		  "the value compared with is not a finite number" },
		{ "x==inf", -EINVAL, NULL, 0, 0,
		  "the value compared with is not a finite number" },
		{ "x== 1", -EINVAL, NULL, 0, 0,
		  "the value compared with is not a finite number" },
		{ "x==1x", -EINVAL, NULL, 0, 0,
		  "the value compared with is not a finite number" },
	};
	/* clang-format on */

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct until_case *c = &cases[i];
		char ref[128];
		enum params_cmp op = PARAMS_CMP_EQ;
		double v = 0;
		const char *why = NULL;
		int ret = params_probe_until_parse(c->text, strlen(c->text),
						   ref, sizeof(ref), &op, &v,
						   &why);

		if (ret != c->ret) {
			print_error("case %zu \"%s\": %d, expected %d (%s)\n",
				    i, c->text, ret, c->ret, why ? why : "");
			fail();
		}
		if (ret) {
			assert_string_equal(why, c->why);
			continue;
		}
		assert_string_equal(ref, c->ref);
		assert_int_equal(op, c->op);
		assert_true(v == c->value);
	}
}

static void test_cmp(void **state)
{
	static const struct {
		enum params_cmp op;
		const char *name;
		bool lt, eq, gt; /* x below, at and above v */
	} ops[] = {
		{ PARAMS_CMP_EQ, "==", false, true, false },
		{ PARAMS_CMP_NE, "!=", true, false, true },
		{ PARAMS_CMP_LT, "<", true, false, false },
		{ PARAMS_CMP_LE, "<=", true, true, false },
		{ PARAMS_CMP_GT, ">", false, false, true },
		{ PARAMS_CMP_GE, ">=", false, true, true },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		assert_string_equal(params_cmp_name(ops[i].op), ops[i].name);
		assert_int_equal(params_cmp_holds(ops[i].op, -1, 0), ops[i].lt);
		assert_int_equal(params_cmp_holds(ops[i].op, 0, 0), ops[i].eq);
		assert_int_equal(params_cmp_holds(ops[i].op, 0.5, 0),
				 ops[i].gt);
	}
}

/* An event sees each sample once: started since it polls, key and op. */
static void test_until_met(void **state)
{
	struct params_probe pp = { .name = "ceph", .every_s = 1 };
	struct probe_state s = { .pp = &pp };
	struct probes P = { .pr = &s, .n = 1 };
	struct params_probe_until u = {
		.probe = 0, .key = "degraded", .op = PARAMS_CMP_EQ, .value = 0
	};
	uint64_t seen = 0, at = 0;

	(void)state;
	/* No sample yet. */
	assert_false(probes_until_met(&P, &u, 100, &seen, &at));
	/* A sample that started before the event polled does not count. */
	s.seq = 1;
	s.last_status = PROBE_OK;
	s.last_started_real = 99;
	s.last_real = 150;
	s.nlast = 1;
	strcpy(s.last[0].key, "degraded");
	s.last[0].v = 0;
	assert_false(probes_until_met(&P, &u, 100, &seen, &at));
	assert_int_equal(seen, 1);
	/* Nor the same sample looked at again. */
	s.last_started_real = 100;
	assert_false(probes_until_met(&P, &u, 100, &seen, &at));
	/* A new sample, not met; then one of another key only. */
	s.seq = 2;
	s.last[0].v = 0.2;
	assert_false(probes_until_met(&P, &u, 100, &seen, &at));
	s.seq = 3;
	strcpy(s.last[0].key, "misplaced");
	s.last[0].v = 0;
	assert_false(probes_until_met(&P, &u, 100, &seen, &at));
	/* A failed sample with the value in memory from before: no. */
	s.seq = 4;
	strcpy(s.last[0].key, "degraded");
	s.last_status = PROBE_TIMEOUT;
	assert_false(probes_until_met(&P, &u, 100, &seen, &at));
	/* Met: its stamped time. */
	s.seq = 5;
	s.last_status = PROBE_OK;
	s.last_real = 777;
	assert_true(probes_until_met(&P, &u, 100, &seen, &at));
	assert_int_equal(at, 777);
	assert_int_equal(seen, 5);
	/* No probes, or a probe index out of range. */
	assert_false(probes_until_met(NULL, &u, 100, &seen, &at));
	u.probe = 1;
	s.seq = 6;
	assert_false(probes_until_met(&P, &u, 100, &seen, &at));
}

static void test_status_text(void **state)
{
	char buf[32];

	(void)state;
	assert_string_equal(probes_status_text(PROBE_OK, 0, buf, sizeof(buf)),
			    "ok");
	assert_string_equal(probes_status_text(PROBE_TIMEOUT, 0, buf,
					       sizeof(buf)),
			    "timeout");
	assert_string_equal(probes_status_text(PROBE_EXIT, 3, buf, sizeof(buf)),
			    "exit 3");
	assert_string_equal(probes_status_text(PROBE_SIGNAL, 9, buf,
					       sizeof(buf)),
			    "signal 9");
	assert_string_equal(probes_status_text(PROBE_UNPARSED, 0, buf,
					       sizeof(buf)),
			    "unparsed");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_output),
		cmocka_unit_test(test_output_bounds),
		cmocka_unit_test(test_locate),
		cmocka_unit_test(test_until_parse),
		cmocka_unit_test(test_cmp),
		cmocka_unit_test(test_until_met),
		cmocka_unit_test(test_status_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
