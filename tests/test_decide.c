/*
 * Unit tests for the conductor's pure decisions (master/run/decide.c): go
 * re-sends, seekpct=eof truncation, start skew, curve points skipped and
 * stopped, iorate shortfall, the measured seconds, the exit code and the
 * slaves' master timeout.
 * Table-driven.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "common/exitcode.h"
#include "master/run/decide.h"

#define MS 1000000ull

static void test_go(void **state)
{
	static const struct {
		struct decide_slave s;
		uint64_t now;
		enum decide_go want;
	} t[] = {
		/* Not in the phase, acknowledged, or not joined: done. */
		{ { .in_phase = 0, .joined = 1 }, 1000 * MS, DECIDE_GO_DONE },
		{ { .in_phase = 1, .joined = 1, .go_acked = 1 },
		  1000 * MS,
		  DECIDE_GO_DONE },
		{ { .in_phase = 1, .joined = 0 }, 1000 * MS, DECIDE_GO_DONE },
		/* Waiting: sent 50 ms ago, re-sent after 100 ms. */
		{ { .in_phase = 1, .joined = 1, .last_tx = 950 * MS },
		  1000 * MS,
		  DECIDE_GO_WAIT },
		{ { .in_phase = 1, .joined = 1, .last_tx = 900 * MS },
		  1000 * MS,
		  DECIDE_GO_RESEND },
		{ { .in_phase = 1, .joined = 1, .last_tx = 900 * MS + 1 },
		  1000 * MS,
		  DECIDE_GO_WAIT },
		{ { .in_phase = 1, .joined = 1, .last_tx = 0 },
		  5000 * MS,
		  DECIDE_GO_RESEND },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		enum decide_go got = decide_go(&t[i].s, t[i].now, 100 * MS);

		if (got != t[i].want)
			fail_msg("case %zu: %d, want %d", i, got, t[i].want);
	}
}

static void test_eof(void **state)
{
	static const struct {
		struct decide_slave s[3];
		size_t n;
		unsigned planned, merged, want;
	} t[] = {
		/* Both ended short: the longest of them. */
		{ { { .in_phase = 1,
		      .joined = 1,
		      .ended = 1,
		      .end_intervals = 4 },
		    { .in_phase = 1,
		      .joined = 1,
		      .ended = 1,
		      .end_intervals = 6 } },
		  2,
		  60,
		  60,
		  6 },
		/* One still running: nothing yet. */
		{ { { .in_phase = 1,
		      .joined = 1,
		      .ended = 1,
		      .end_intervals = 4 },
		    { .in_phase = 1, .joined = 1, .ended = 0 } },
		  2,
		  60,
		  60,
		  0 },
		/* One ran the whole phase: no truncation. */
		{ { { .in_phase = 1,
		      .joined = 1,
		      .ended = 1,
		      .end_intervals = 4 },
		    { .in_phase = 1,
		      .joined = 1,
		      .ended = 1,
		      .end_intervals = 60 } },
		  2,
		  60,
		  60,
		  0 },
		/* Lost slaves and slaves sitting out do not count. */
		{ { { .in_phase = 1,
		      .joined = 1,
		      .ended = 1,
		      .end_intervals = 5 },
		    { .in_phase = 1, .joined = 0, .ended = 0 },
		    { .in_phase = 0, .joined = 1 } },
		  3,
		  60,
		  60,
		  5 },
		/* Already truncated to that length: nothing to do. */
		{ { { .in_phase = 1,
		      .joined = 1,
		      .ended = 1,
		      .end_intervals = 5 } },
		  1,
		  60,
		  5,
		  0 },
		/* Nothing sent at all: no length to cut to. */
		{ { { .in_phase = 1,
		      .joined = 1,
		      .ended = 1,
		      .end_intervals = 0 } },
		  1,
		  60,
		  60,
		  0 },
		/* No slave in the phase. */
		{ { { .in_phase = 0 } }, 1, 60, 60, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		unsigned got = decide_eof_truncate(t[i].s, t[i].n, t[i].planned,
						   t[i].merged);

		if (got != t[i].want)
			fail_msg("case %zu: %u, want %u", i, got, t[i].want);
	}
}

static void test_skew(void **state)
{
	struct decide_slave s[4] = {
		{ .in_phase = 1, .first_io = 1000 },
		{ .in_phase = 1, .first_io = 1700 },
		{ .in_phase = 0, .first_io = 9000 }, /* not in the phase */
		{ .in_phase = 1, .first_io = 0 },    /* unknown */
	};

	(void)state;
	assert_int_equal(decide_start_skew(s, 4), 700);
	assert_int_equal(decide_start_skew(s, 1), 0);
	assert_int_equal(decide_start_skew(s + 2, 2), 0);
	assert_int_equal(decide_start_skew(s, 0), 0);
}

static void test_skew_bound(void **state)
{
	/* The earliest's and the latest's bounds add; the middle's do not. */
	struct decide_slave s[5] = {
		{ .in_phase = 1, .first_io = 1000, .clock_error = 30 },
		{ .in_phase = 1, .first_io = 1300, .clock_error = 500 },
		{ .in_phase = 1, .first_io = 1700, .clock_error = 40 },
		{ .in_phase = 0, .first_io = 9000, .clock_error = 7 },
		{ .in_phase = 1, .first_io = 0, .clock_error = 9 },
	};
	struct decide_slave huge[2] = {
		{ .in_phase = 1, .first_io = 1, .clock_error = UINT64_MAX },
		{ .in_phase = 1, .first_io = 2, .clock_error = 1 },
	};

	(void)state;
	assert_int_equal(decide_start_skew_bound(s, 5), 70);
	/* One slave against itself: no clock, no error. */
	assert_int_equal(decide_start_skew_bound(s + 1, 1), 0);
	assert_int_equal(decide_start_skew_bound(s + 3, 2), 0);
	assert_int_equal(decide_start_skew_bound(s, 0), 0);
	/* Never wraps into a small, reassuring number. */
	assert_true(decide_start_skew_bound(huge, 2) == UINT64_MAX);
}

static void test_ping(void **state)
{
	static const struct {
		struct decide_ping p;
		uint64_t now;
		enum decide_ping_do want;
	} t[] = {
		{ { 0, 40, 0, 0 }, 5, DECIDE_PING_SEND },
		/* In flight: wait for it, up to the timeout (100). */
		{ { 1, 40, 0, 1000 }, 1050, DECIDE_PING_WAIT },
		{ { 1, 40, 0, 1000 }, 1100, DECIDE_PING_SEND },
		/* Answered: the next after the gap (10), not before. */
		{ { 1, 40, 1, 1000 }, 1005, DECIDE_PING_WAIT },
		{ { 1, 40, 1, 1000 }, 1010, DECIDE_PING_SEND },
		/* The last one: done once answered or given up. */
		{ { 40, 40, 0, 1000 }, 1050, DECIDE_PING_WAIT },
		{ { 40, 40, 1, 1000 }, 1001, DECIDE_PING_DONE },
		{ { 40, 40, 0, 1000 }, 1100, DECIDE_PING_DONE },
		{ { 0, 0, 0, 0 }, 5, DECIDE_PING_DONE },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		enum decide_ping_do got = decide_ping(&t[i].p, t[i].now, 10,
						      100);

		if (got != t[i].want)
			fail_msg("case %zu: %d, want %d", i, got, t[i].want);
	}
}

static void test_curve(void **state)
{
	static const struct {
		int done, stopped;
		double rate;
		int want;
		const char *why;
	} t[] = {
		{ 1, 0, 500, 0, NULL },
		{ 1, 1, 500, 1, "stopcurve= was reached" },
		{ 0, 0, 500, 1, "its curve-max phase has no rate" },
		{ 1, 0, 0, 1, "its curve-max phase has no rate" },
		{ 1, 0, -1, 1, "its curve-max phase has no rate" },
		{ 0, 1, 0, 1, "stopcurve= was reached" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		const char *why = NULL;

		assert_int_equal(decide_curve_skip(t[i].done, t[i].stopped,
						   t[i].rate, &why),
				 t[i].want);
		if (t[i].why)
			assert_string_equal(why, t[i].why);
		else
			assert_null(why);
	}
	assert_true(decide_curve_stop(5, 5.1));
	assert_false(decide_curve_stop(5, 5));
	assert_false(decide_curve_stop(0, 100)); /* no stopcurve= */
}

static void test_iorate(void **state)
{
	(void)state;
	assert_float_equal(decide_shortfall_pct(1000, 900), 10, 1e-9);
	assert_float_equal(decide_shortfall_pct(1000, 1000), 0, 0);
	assert_float_equal(decide_shortfall_pct(1000, 1200), 0, 0);
	assert_float_equal(decide_shortfall_pct(0, 50), 0, 0); /* max */
	assert_true(decide_iorate_missed(1000, 979));
	assert_false(decide_iorate_missed(1000, 980));
	assert_false(decide_iorate_missed(0, 1));
	assert_float_equal(decide_measured_s(12, 2, 0.5), 5, 1e-12);
	assert_float_equal(decide_measured_s(3, 3, 1), 0, 0);
}

/*
 * A run cut short (SIGTERM at 6 s of a 20 s run) divides by the 6 s it
 * measured: 4,055 IOPS, not the 811 that dividing by 20 s reported.
 */
static void test_cut(void **state)
{
	static const struct {
		unsigned planned, reported;
		int cut;
		unsigned warmup;
		double interval_s, want_s;
	} t[] = {
		{ 20, 6, 1, 0, 1, 6 },     /* the case of the issue */
		{ 20, 20, 0, 0, 1, 20 },   /* ran to its end */
		{ 20, 6, 0, 0, 1, 20 },    /* not cut: the planned rows */
		{ 20, 6, 1, 2, 1, 4 },     /* warmup rows are not measured */
		{ 20, 2, 1, 5, 1, 0 },     /* stopped in its warmup */
		{ 20, 0, 1, 0, 1, 0 },     /* stopped before any row */
		{ 20, 25, 1, 0, 0.5, 10 }, /* never more than planned */
		{ 40, 12, 1, 4, 0.5, 4 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		unsigned n = decide_run_intervals(t[i].planned, t[i].reported,
						  t[i].cut);
		double s = decide_measured_s(n, t[i].warmup, t[i].interval_s);

		if (s != t[i].want_s) {
			print_error("case %zu: %g s, expected %g\n", i, s,
				    t[i].want_s);
			fail();
		}
	}
	assert_float_equal(24330.0 /
				   decide_measured_s(decide_run_intervals(20, 6,
									  1),
						     0, 1),
			   4055, 1e-9);
}

/* The room a run's results need grows with its rows and slaves. */
static void test_results_bytes(void **state)
{
	uint64_t one = decide_results_bytes(30, 1, 1, 0);

	(void)state;
	/* 60 rows, 30 intervals' histograms, a .hgrm, 4 totals blocks,
	   +50%, and the log. */
	assert_int_equal(one, (60 * DECIDE_ROW_BYTES + 30 * DECIDE_MAP_BYTES +
			       DECIDE_HGRM_BYTES + 4 * DECIDE_TOTALS_BYTES) *
					      3 / 2 +
				      DECIDE_LOG_BYTES);
	assert_true(decide_results_bytes(30, 1, 100, 0) > one);
	assert_true(decide_results_bytes(3000, 1, 1, 0) > one);
	/* A thousand slaves for a day at interval=1: some 62 GiB. */
	assert_true(decide_results_bytes(86400, 1, 1000, 0) >
		    (uint64_t)86400 * 1001 * DECIDE_ROW_BYTES);
	/* Each ev= event's log at its cap. */
	assert_int_equal(decide_results_bytes(30, 1, 1, 3) - one,
			 3 * (uint64_t)DECIDE_EVENT_LOG_BYTES);
}

static void test_end_lat(void **state)
{
	struct hist_sparse h[2];
	struct stats_sums st;

	(void)state;
	memset(h, 0, sizeof(h));
	memset(&st, 0, sizeof(st));
	assert_non_null(decide_end_lat_mismatch(0, h, &st));
	assert_null(decide_end_lat_mismatch(1, h, &st));
	h[0].count = st.lat[0].count = 3;
	h[0].sum = st.lat[0].sum = 30;
	h[0].min = st.lat[0].min = 5;
	h[0].max = st.lat[0].max = 15;
	assert_null(decide_end_lat_mismatch(1, h, &st));
	st.lat[0].max = 16;
	assert_non_null(decide_end_lat_mismatch(1, h, &st));
	st.lat[0].max = 15;
	h[1].count = 1;
	assert_non_null(decide_end_lat_mismatch(1, h, &st));
}

/*
 * The exit code from the facts: each fact alone, then each pair of facts
 * that ask for different codes, where the stronger one must win.
 */
enum fact_no {
	F_INTERRUPTED,
	F_CANCELED,
	F_FAILED,
	F_LOST,
	F_SUSPECT,
	F_IO_ERRORS,
	F_MISMATCHES,
	F_EVENTS,
	F_LEFT_OUT,
	F_INCOMPLETE,
	F_REPORT,
	F_UNSEALED,
	F_REGRESSION,
	F_NO_BASELINE,
	NFACTS,
};

/* Record fact n in f; the code it gives alone. */
static int fact_set(struct run_facts *f, enum fact_no n)
{
	switch (n) {
	case F_INTERRUPTED:
		f->end = RUN_INTERRUPTED;
		return LS_EXIT_ABORTED;
	case F_CANCELED:
		f->end = RUN_CANCELED;
		return LS_EXIT_ABORTED;
	case F_FAILED:
		f->end = RUN_FAILED;
		return LS_EXIT_BAD_INPUT;
	case F_LOST:
		f->slaves_lost = 1;
		return LS_EXIT_DEGRADED;
	case F_SUSPECT:
		f->suspect = 3;
		return LS_EXIT_DEGRADED;
	case F_IO_ERRORS:
		f->io_errors = 1;
		return LS_EXIT_DEGRADED;
	case F_MISMATCHES:
		f->mismatches = 1;
		return LS_EXIT_DEGRADED;
	case F_EVENTS:
		f->events_failed = 2;
		return LS_EXIT_DEGRADED;
	case F_LEFT_OUT:
		f->left_out = 1;
		return f->end == RUN_RAN ? LS_EXIT_DEGRADED : LS_EXIT_OK;
	case F_INCOMPLETE:
		f->results_incomplete = 1;
		return LS_EXIT_INCOMPLETE;
	case F_REPORT:
		f->report_failed = 1;
		return LS_EXIT_INCOMPLETE;
	case F_UNSEALED:
		f->unsealed = 1;
		return LS_EXIT_INCOMPLETE;
	case F_REGRESSION:
		f->compare = COMPARE_REGRESSION;
		return LS_EXIT_REGRESSION;
	case F_NO_BASELINE:
		f->compare = COMPARE_NO_BASELINE;
		return LS_EXIT_NO_BASELINE;
	default:
		return -1;
	}
}

/* The rank of each fact: a lower one wins (decide.h's order). */
static int fact_rank(enum fact_no n)
{
	static const int rank[NFACTS] = {
		[F_UNSEALED] = 0,   [F_INTERRUPTED] = 1, [F_CANCELED] = 1,
		[F_FAILED] = 2,     [F_INCOMPLETE] = 3,  [F_REPORT] = 3,
		[F_LOST] = 4,       [F_SUSPECT] = 4,     [F_IO_ERRORS] = 4,
		[F_MISMATCHES] = 4, [F_EVENTS] = 4,      [F_LEFT_OUT] = 4,
		[F_REGRESSION] = 5, [F_NO_BASELINE] = 6,
	};

	return rank[n];
}

static void test_exit_each(void **state)
{
	static const struct {
		enum run_end end;
		enum fact_no fact;
		int code;
	} t[] = {
		{ RUN_RAN, F_INTERRUPTED, LS_EXIT_ABORTED },
		{ RUN_RAN, F_CANCELED, LS_EXIT_ABORTED },
		{ RUN_RAN, F_FAILED, LS_EXIT_BAD_INPUT },
		{ RUN_RAN, F_LOST, LS_EXIT_DEGRADED },
		{ RUN_GOING, F_LOST, LS_EXIT_DEGRADED },
		{ RUN_RAN, F_SUSPECT, LS_EXIT_DEGRADED },
		{ RUN_RAN, F_IO_ERRORS, LS_EXIT_DEGRADED },
		{ RUN_RAN, F_MISMATCHES, LS_EXIT_DEGRADED },
		{ RUN_RAN, F_EVENTS, LS_EXIT_DEGRADED },
		{ RUN_GOING, F_EVENTS, LS_EXIT_DEGRADED },
		/* Hosts left out: only a run that ran is judged for them. */
		{ RUN_RAN, F_LEFT_OUT, LS_EXIT_DEGRADED },
		{ RUN_GOING, F_LEFT_OUT, LS_EXIT_OK },
		{ RUN_RAN, F_INCOMPLETE, LS_EXIT_INCOMPLETE },
		{ RUN_RAN, F_REPORT, LS_EXIT_INCOMPLETE },
		{ RUN_RAN, F_UNSEALED, LS_EXIT_INCOMPLETE },
		{ RUN_RAN, F_REGRESSION, LS_EXIT_REGRESSION },
		{ RUN_RAN, F_NO_BASELINE, LS_EXIT_NO_BASELINE },
	};
	struct run_facts f;

	(void)state;
	memset(&f, 0, sizeof(f));
	assert_int_equal(decide_exit(&f), LS_EXIT_OK);
	f.end = RUN_RAN;
	assert_int_equal(decide_exit(&f), LS_EXIT_OK);
	/* A verdict line and a stop asked for decide nothing alone. */
	strcpy(f.verdict, "no regression");
	f.stop_run = 1;
	assert_int_equal(decide_exit(&f), LS_EXIT_OK);
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		memset(&f, 0, sizeof(f));
		f.end = t[i].end;
		fact_set(&f, t[i].fact);
		if (decide_exit(&f) != t[i].code)
			fail_msg("row %zu: fact %d gives %d, not %d", i,
				 t[i].fact, decide_exit(&f), t[i].code);
	}
}

static void test_exit_pairs(void **state)
{
	(void)state;
	for (int a = 0; a < NFACTS; a++) {
		for (int b = 0; b < NFACTS; b++) {
			struct run_facts f;
			int ca, cb, want;

			/* The run's end is one fact of the three. */
			if (a != b && a <= F_FAILED && b <= F_FAILED)
				continue;
			if (a == F_REGRESSION && b == F_NO_BASELINE)
				continue;
			if (b == F_REGRESSION && a == F_NO_BASELINE)
				continue;
			memset(&f, 0, sizeof(f));
			f.end = RUN_RAN;
			ca = fact_set(&f, (enum fact_no)a);
			cb = fact_set(&f, (enum fact_no)b);
			want = fact_rank((enum fact_no)a) <=
					       fact_rank((enum fact_no)b) ?
				       ca :
				       cb;
			/* Left out counts for a run that ran only. */
			if (a == F_LEFT_OUT && b <= F_FAILED)
				want = cb;
			if (b == F_LEFT_OUT && a <= F_FAILED)
				want = ca;
			if (decide_exit(&f) != want)
				fail_msg("facts %d and %d give %d, not %d", a,
					 b, decide_exit(&f), want);
		}
	}
}

/*
 * The precedence the master had when each module set the code itself:
 * named pairs, as the code before decide_exit() resolved them.
 */
static void test_exit_history(void **state)
{
	struct run_facts f;

	(void)state;
	/* Interrupted after a slave was lost: aborted, not degraded. */
	memset(&f, 0, sizeof(f));
	f.slaves_lost = 1;
	f.end = RUN_INTERRUPTED;
	assert_int_equal(decide_exit(&f), LS_EXIT_ABORTED);
	/* An aborted run keeps 2 when a results file is lost too. */
	f.results_incomplete = 1;
	f.report_failed = 1;
	assert_int_equal(decide_exit(&f), LS_EXIT_ABORTED);
	/* ...but not when the summaries could not be sealed. */
	f.unsealed = 1;
	assert_int_equal(decide_exit(&f), LS_EXIT_INCOMPLETE);
	/* A failed run (1) over degraded. */
	memset(&f, 0, sizeof(f));
	f.io_errors = 1;
	f.end = RUN_FAILED;
	assert_int_equal(decide_exit(&f), LS_EXIT_BAD_INPUT);
	/* Incomplete (5) over degraded (4). */
	memset(&f, 0, sizeof(f));
	f.end = RUN_RAN;
	f.mismatches = 1;
	f.results_incomplete = 1;
	assert_int_equal(decide_exit(&f), LS_EXIT_INCOMPLETE);
	/* report.html lost turns a regression incomplete. */
	memset(&f, 0, sizeof(f));
	f.end = RUN_RAN;
	f.compare = COMPARE_REGRESSION;
	assert_int_equal(decide_exit(&f), LS_EXIT_REGRESSION);
	f.report_failed = 1;
	assert_int_equal(decide_exit(&f), LS_EXIT_INCOMPLETE);
	/* Degraded says more than speed: 4 over 3 and 6. */
	memset(&f, 0, sizeof(f));
	f.end = RUN_RAN;
	f.left_out = 2;
	f.compare = COMPARE_NO_BASELINE;
	assert_int_equal(decide_exit(&f), LS_EXIT_DEGRADED);
}

/*
 * The slave's master timeout T against the worst link outage the master
 * rides out (just under --slave-timeout S): the master last spoke a quiet
 * gap (2/5 T) before the outage, its next segment went out as the link
 * went down, and TCP re-sends it 200 ms, 600 ms, 1.4 s... after (RTO
 * doubling from its 200 ms floor): the first re-send after the link is
 * back is what the slave hears. That silence must stay under T, while T
 * stays 10 s at the default S = 3 s (the orphan bound fault_netns checks).
 */
/* One slave of each host runs a slave-scope command (Vdbench's first). */
static void test_cmd_slaves(void **state)
{
	/* hd 0 twice, hd 1, a lost one of hd 2, then local slaves (no hd)
	   on two host names, and hd 2's live one. */
	static const int joined[] = { 1, 1, 1, 0, 1, 1, 1, 1 };
	static const int hd[] = { 0, 0, 1, 2, -1, -1, -1, 2 };
	static const char *const host[] = { "a", "b", "a", "c",
					    "m", "m", "n", "c" };
	unsigned pick[8];

	(void)state;
	assert_int_equal(decide_cmd_slaves(joined, hd, host, 8, pick), 5);
	assert_int_equal(pick[0], 0);
	assert_int_equal(pick[1], 2);
	assert_int_equal(pick[2], 4);
	assert_int_equal(pick[3], 6);
	assert_int_equal(pick[4], 7);
	/* Nobody joined: nobody runs it. */
	assert_int_equal(decide_cmd_slaves((const int[]){ 0, 0 }, hd, host, 2,
					   pick),
			 0);
}

static void test_master_timeout(void **state)
{
	static const double s_secs[] = { 0.5, 1,  2.5, 3,  3.5, 4,   5,  7.5,
					 10,  15, 20,  30, 60,  100, 600 };
	(void)state;
	assert_int_equal(decide_master_timeout(3000 * MS), 10000 * MS);
	assert_int_equal(decide_master_timeout(15000 * MS), 58000 * MS);
	assert_int_equal(decide_master_timeout(UINT64_MAX), UINT64_MAX);
	for (size_t i = 0; i < sizeof(s_secs) / sizeof(s_secs[0]); i++) {
		uint64_t sto = (uint64_t)(s_secs[i] * 1000) * MS;
		double t = (double)decide_master_timeout(sto) / 1e9;
		double outage = s_secs[i] - 0.001, heard = 0.2;

		assert_true(t >= 10);
		while (heard < outage)
			heard = 2 * heard + 0.2;
		assert_true(0.4 * t + heard < t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_go),
		cmocka_unit_test(test_eof),
		cmocka_unit_test(test_skew),
		cmocka_unit_test(test_skew_bound),
		cmocka_unit_test(test_ping),
		cmocka_unit_test(test_curve),
		cmocka_unit_test(test_iorate),
		cmocka_unit_test(test_end_lat),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_results_bytes),
		cmocka_unit_test(test_exit_each),
		cmocka_unit_test(test_exit_pairs),
		cmocka_unit_test(test_exit_history),
		cmocka_unit_test(test_master_timeout),
		cmocka_unit_test(test_cmd_slaves),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
