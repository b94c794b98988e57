/*
 * Unit tests of the mid-phase rejoin rules (master/run/rejoin.c): a joiner
 * that every rule lets in, then each rule broken alone (it must wait, for
 * that rule's reason) and mended (it joins again), and the first interval
 * at the boundaries of the intervals and of the phase's end.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "master/run/rejoin.h"

#define SEC UINT64_C(1000000000)
#define T0 (UINT64_C(1700000000) * SEC)

/* A 40-interval phase of 1 s, 10.3 s in, a joiner with 0.5 s of lead. */
static struct rejoin_in good(void)
{
	struct rejoin_in in = {
		.running = 1,
		.start_ns = T0,
		.interval_ns = SEC,
		.intervals = 40,
		.planned = 1,
		.same_process = 0,
		.same_host = 1,
		.ntargets = 1,
		.now_ns = T0 + 10 * SEC + 300000000,
		.lead_ns = SEC / 2,
	};
	return in;
}

static void expect_join(const struct rejoin_in *in, unsigned first)
{
	struct rejoin_out out;

	assert_int_equal(rejoin_decide(in, &out), 0);
	if (out.verdict != REJOIN_JOIN)
		fail_msg("waits: %s", out.why);
	assert_int_equal(out.first, first);
	assert_null(out.why);
}

static void expect_wait(const struct rejoin_in *in, const char *why)
{
	struct rejoin_out out;

	assert_int_equal(rejoin_decide(in, &out), 0);
	assert_int_equal(out.verdict, REJOIN_WAIT);
	assert_non_null(out.why);
	if (!strstr(out.why, why))
		fail_msg("\"%s\" does not say \"%s\"", out.why, why);
}

/* 10.3 s + 0.5 s = 10.8 s: the next boundary is interval 11's start. */
static void test_joins(void **state)
{
	struct rejoin_in in = good();

	(void)state;
	expect_join(&in, 11);
	/* The same process, validation off: joins too. */
	in.same_process = 1;
	expect_join(&in, 11);
}

/* Each rule alone makes it wait; undone, it joins. */
static void test_each_rule(void **state)
{
	/*
	 * The int field of struct rejoin_in to set, the value that breaks
	 * the rule and one that does not, and what the reason says.
	 */
	static const struct {
		size_t off;
		int bad, ok;
		const char *why;
	} rules[] = {
		{ offsetof(struct rejoin_in, running), 0, 1, "no phase" },
		{ offsetof(struct rejoin_in, format), 1, 0, "format pass" },
		{ offsetof(struct rejoin_in, eof), 1, 0, "seekpct=eof" },
		{ offsetof(struct rejoin_in, validate), 2, 0, "validate=only" },
		{ offsetof(struct rejoin_in, curve), 1, 0, "curve phase" },
		{ offsetof(struct rejoin_in, planned), 0, 1, "no part" },
		{ offsetof(struct rejoin_in, same_host), 0, 1, "another host" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rules) / sizeof(*rules); i++) {
		struct rejoin_in in = good();
		int *f = (int *)((char *)&in + rules[i].off);

		*f = rules[i].bad;
		expect_wait(&in, rules[i].why);
		*f = rules[i].ok;
		expect_join(&in, 11);
	}
}

/* An empty part: it sits the phase out. */
static void test_empty_part(void **state)
{
	struct rejoin_in in = good();

	(void)state;
	in.ntargets = 0;
	expect_wait(&in, "empty");
	in.ntargets = 3;
	expect_join(&in, 11);
}

/*
 * A file-system part (fsds and fwds, no targets) joins as a block part
 * does; without fwds it is empty; a fileselect=once fwd waits; a format
 * pass of it waits as a block one.
 */
static void test_fs_part(void **state)
{
	struct rejoin_in in = good();

	(void)state;
	in.ntargets = 0;
	in.fs = 1;
	in.nfwds = 2;
	expect_join(&in, 11);
	in.nfwds = 0;
	expect_wait(&in, "empty");
	in.nfwds = 1;
	in.once = 1;
	expect_wait(&in, "fileselect=once");
	in.once = 0;
	expect_join(&in, 11);
	in.format = 1;
	expect_wait(&in, "format pass");
	in.format = 0;
	in.same_host = 0;
	expect_wait(&in, "another host");
}

/*
 * validate=yes: a new process without journal= has lost the generations
 * of its blocks and waits; the same process, or a journal, joins (its
 * own part, as at the phase's start).
 */
static void test_validate_yes(void **state)
{
	struct rejoin_in in = good();

	(void)state;
	in.validate = 1;
	expect_wait(&in, "generations");
	in.same_process = 1;
	expect_join(&in, 11);
	in.same_process = 0;
	in.journal = 1;
	expect_join(&in, 11);
}

/*
 * The end of the phase: two intervals left from the first one join, one
 * does not, and a first interval past the end does not.
 */
static void test_phase_end(void **state)
{
	struct rejoin_in in = good();

	(void)state;
	/* 37.2 s + 0.5 s: first 38 of 40, two left. */
	in.now_ns = T0 + 37 * SEC + 200000000;
	expect_join(&in, 38);
	/* 37.6 s + 0.5 s: first 39, one left. */
	in.now_ns = T0 + 37 * SEC + 600000000;
	expect_wait(&in, "too little");
	in.now_ns = T0 + 45 * SEC;
	expect_wait(&in, "too little");
	/* A lead as long as the phase. */
	in.now_ns = T0;
	in.lead_ns = 40 * SEC;
	expect_wait(&in, "too little");
}

/* The boundary math, and an impossible input. */
static void test_first_interval(void **state)
{
	struct rejoin_in in = good();
	struct rejoin_out out;

	(void)state;
	/* On a boundary exactly: that one. */
	assert_int_equal(rejoin_first_interval(T0, SEC, T0 + 4 * SEC, 0), 4);
	assert_int_equal(rejoin_first_interval(T0, SEC, T0 + 4 * SEC, 1), 5);
	/* Before or at the phase's start: never interval 0. */
	assert_int_equal(rejoin_first_interval(T0, SEC, T0 - SEC, 0), 1);
	assert_int_equal(rejoin_first_interval(T0, SEC, T0, 0), 1);
	/* No wrap near the end of time: the index saturates. */
	assert_int_equal(rejoin_first_interval(0, SEC, UINT64_MAX, SEC),
			 UINT32_MAX);
	assert_int_equal(rejoin_first_interval(0, SEC, 3 * SEC - 1, 0), 3);
	assert_int_equal(rejoin_first_interval(0, 1, UINT64_MAX, 0),
			 UINT32_MAX);
	in.interval_ns = 0;
	assert_int_equal(rejoin_decide(&in, &out), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_joins),
		cmocka_unit_test(test_each_rule),
		cmocka_unit_test(test_empty_part),
		cmocka_unit_test(test_fs_part),
		cmocka_unit_test(test_validate_yes),
		cmocka_unit_test(test_phase_end),
		cmocka_unit_test(test_first_interval),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
