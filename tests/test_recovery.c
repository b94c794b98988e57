/*
 * Unit tests for the recovery figures (master/recovery.c) on synthetic
 * interval series whose figures are worked out by hand in the comments: a
 * step down and back, a V, a dip that never recovers, a noisy steady state
 * that must not look degraded, overlapping events, no baseline, intervals
 * without data, bad arguments, and a property test on random series that
 * checks every figure against its definition.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "master/recovery.h"

#define N_MAX 400

static struct rec_point pts[N_MAX];

/* Intervals [from, to) measured at iops and p99. */
static void fill(size_t from, size_t to, double iops, double p99_us)
{
	for (size_t k = from; k < to; k++)
		pts[k] = (struct rec_point){ iops, p99_us, true };
}

/* An interval without data: NaN proves its values are never read. */
static void hole(size_t k)
{
	pts[k] = (struct rec_point){ NAN, NAN, false };
}

static struct rec_params params(double baseline_s, unsigned recover_n)
{
	struct rec_params p;

	recovery_defaults(&p);
	p.baseline_s = baseline_s;
	p.recover_n = recover_n;
	return p;
}

static struct rec_event event(double start, double end, double prev_end,
			      double next_start)
{
	return (struct rec_event){ start, end, prev_end, next_start };
}

static void eq(double got, double want, const char *what, int line)
{
	if (fabs(got - want) > 1e-9 * fmax(1, fabs(want)))
		fail_msg("line %d: %s = %.12g, want %.12g", line, what, got,
			 want);
}

#define EQ(got, want) eq((got), (want), #got, __LINE__)

static struct rec_figures compute(size_t n, double interval_s,
				  struct rec_event ev, struct rec_params p)
{
	struct rec_figures f;

	assert_int_equal(recovery_compute(pts, n, interval_s, &ev, &p, &f), 0);
	return f;
}

/* The figures that need a baseline are all -1 without one. */
static void no_baseline_figures(const struct rec_figures *f)
{
	assert_int_equal(f->baseline_n, 0);
	EQ(f->baseline_iops, -1);
	EQ(f->baseline_p99_us, -1);
	EQ(f->time_to_degrade_s, -1);
	EQ(f->time_to_recover_s, -1);
	EQ(f->io_lost, -1);
}

static void test_defaults(void **state)
{
	struct rec_params p;

	(void)state;
	recovery_defaults(&p);
	EQ(p.baseline_s, 60);
	EQ(p.degrade_frac, 0.90);
	EQ(p.recover_iops_tol, 0.10);
	EQ(p.recover_p99_tol, 0.20);
	assert_int_equal(p.recover_n, 10);
}

/*
 * 1000 IOPS at 500 us, 400 IOPS at 2 ms for 10 s from t=20, then 1000
 * again: degraded at once, recovered at t=30 (10 s), 10 x 600 I/Os lost.
 */
static void test_step(void **state)
{
	struct rec_figures f;

	(void)state;
	fill(0, 20, 1000, 500);
	fill(20, 30, 400, 2000);
	fill(30, 60, 1000, 500);
	f = compute(60, 1, event(20, 35, -1, -1), params(20, 10));
	assert_int_equal(f.status, REC_OK);
	assert_int_equal(f.baseline_n, 20);
	EQ(f.baseline_iops, 1000);
	EQ(f.baseline_p99_us, 500);
	EQ(f.worst_iops, 400);
	EQ(f.worst_iops_at_s, 20);
	EQ(f.worst_p99_us, 2000);
	EQ(f.worst_p99_at_s, 20);
	EQ(f.time_to_degrade_s, 0);
	EQ(f.time_to_recover_s, 10);
	EQ(f.rebuild_s, 15);
	EQ(f.io_lost, 6000);

	/* The default 60 s window is cut at the series start: 20 intervals. */
	f = compute(60, 1, event(20, 35, -1, -1), params(60, 10));
	assert_int_equal(f.baseline_n, 20);
	EQ(f.time_to_recover_s, 10);

	/*
	 * IOPS back at t=30 but p99 still over 1.2 x 500 until t=35 (600
	 * itself is good): recovered at 35, no more I/O lost.
	 */
	fill(30, 35, 1000, 700);
	fill(35, 36, 1000, 600);
	f = compute(60, 1, event(20, 35, -1, -1), params(20, 10));
	assert_int_equal(f.status, REC_OK);
	EQ(f.time_to_recover_s, 15);
	EQ(f.io_lost, 6000);

	/* A catch-up burst over baseline + 10% is not steady state either. */
	fill(30, 36, 1000, 500);
	fill(30, 33, 1101, 500);
	f = compute(60, 1, event(20, 35, -1, -1), params(20, 10));
	EQ(f.time_to_recover_s, 13);
	EQ(f.io_lost, 6000);
}

/*
 * 2 s intervals, an event at t=21, inside interval 10 [20, 22). Baseline:
 * the intervals wholly inside [1, 21), so 1..9 (9 of them). The span
 * starts with interval 10: degraded there (0, not -1 s), recovered with
 * intervals 15..17 (t=30, 9 s after 21), 5 x 400 IOPS x 2 s lost.
 */
static void test_mid_interval(void **state)
{
	struct rec_figures f;

	(void)state;
	fill(0, 10, 500, 100);
	fill(10, 15, 100, 900);
	fill(15, 30, 500, 100);
	f = compute(30, 2, event(21, -1, -1, -1), params(20, 3));
	assert_int_equal(f.status, REC_OK);
	assert_int_equal(f.baseline_n, 9);
	EQ(f.baseline_iops, 500);
	EQ(f.worst_iops_at_s, 20);
	EQ(f.time_to_degrade_s, 0);
	EQ(f.time_to_recover_s, 9);
	EQ(f.rebuild_s, -1);
	EQ(f.io_lost, 4000);
}

/*
 * 0.1 s intervals and an event at 0.3 s: 0.3 / 0.1 is 2.9999... in
 * doubles, and the event must still start in interval 3, with a baseline
 * of intervals 0..2.
 */
static void test_float_boundary(void **state)
{
	struct rec_figures f;

	(void)state;
	fill(0, 3, 100, 50);
	fill(3, 5, 50, 80);
	fill(5, 10, 100, 50);
	f = compute(10, 0.1, event(0.3, -1, -1, -1), params(0.3, 5));
	assert_int_equal(f.status, REC_OK);
	assert_int_equal(f.baseline_n, 3);
	EQ(f.baseline_iops, 100);
	EQ(f.worst_iops, 50);
	EQ(f.worst_iops_at_s, 0.3);
	EQ(f.time_to_degrade_s, 0);
	EQ(f.time_to_recover_s, 0.2);
	EQ(f.io_lost, 10);
}

/*
 * A V: from t=20 the IOPS fall by 100 a second to 500 and climb back.
 * 900 is not below 0.9 x 1000, so it degrades at t=21 (1 s); 900 is
 * within 10%, so recovery starts at t=28 (8 s). Lost: 100 + 200 + 300 +
 * 400 + 500 + 400 + 300 + 200 = 2400 (interval 20 included, 28 not).
 */
static void test_v(void **state)
{
	static const double v[] = {
		900, 800, 700, 600, 500, 600, 700, 800, 900
	};
	static const double lat[] = { 500,  1000, 1500, 2000, 3000,
				      2000, 1500, 1000, 500 };
	struct rec_figures f;

	(void)state;
	fill(0, 80, 1000, 500);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		fill(20 + i, 21 + i, v[i], lat[i]);
	f = compute(80, 1, event(20, -1, -1, -1), params(20, 10));
	assert_int_equal(f.status, REC_OK);
	EQ(f.worst_iops, 500);
	EQ(f.worst_iops_at_s, 24);
	EQ(f.worst_p99_us, 3000);
	EQ(f.worst_p99_at_s, 24);
	EQ(f.time_to_degrade_s, 1);
	EQ(f.time_to_recover_s, 8);
	EQ(f.io_lost, 2400);
}

/*
 * Down to 500 from t=20 to 35, then 5 good intervals before the series
 * ends: not recovered (10 needed), 15 x 500 lost. With the series going
 * on it recovers at t=35; with a next event at t=40 it has not by then.
 */
static void test_never_recovers(void **state)
{
	struct rec_figures f;

	(void)state;
	fill(0, 20, 1000, 500);
	fill(20, 35, 500, 1500);
	fill(35, 80, 1000, 500);
	f = compute(40, 1, event(20, -1, -1, -1), params(20, 10));
	assert_int_equal(f.status, REC_NOT_RECOVERED);
	EQ(f.time_to_degrade_s, 0);
	EQ(f.time_to_recover_s, -1);
	EQ(f.rebuild_s, -1);
	EQ(f.io_lost, 7500);
	EQ(f.worst_iops, 500);

	f = compute(80, 1, event(20, -1, -1, -1), params(20, 10));
	assert_int_equal(f.status, REC_OK);
	EQ(f.time_to_recover_s, 15);
	EQ(f.io_lost, 7500);

	f = compute(80, 1, event(20, -1, -1, 40), params(20, 10));
	assert_int_equal(f.status, REC_NOT_RECOVERED);
	EQ(f.time_to_recover_s, -1);
	EQ(f.io_lost, 7500);
}

static uint64_t lcg = 42;

/* Uniform in [0, 1), reproducible. */
static double unit(void)
{
	lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
	return (double)(lcg >> 11) * 0x1p-53;
}

/*
 * +-5% noise around 1000 IOPS and 500 us never degrades (the baseline is
 * in [950, 1050], so its 90% is under every interval), loses no I/O, and
 * needs no recovery. A real dip to 700 for 10 s at t=150 in the same noise
 * degrades at once and recovers exactly when it ends: every noisy
 * interval is within 10% of any baseline in [950, 1050], and its p99 of
 * at most 525 us is under 1.2 x 475.
 */
static void test_noise(void **state)
{
	struct rec_figures f;
	double base = 0;

	(void)state;
	lcg = 42;
	for (size_t k = 0; k < 300; k++)
		fill(k, k + 1, 1000 * (0.95 + 0.1 * unit()),
		     500 * (0.95 + 0.1 * unit()));
	f = compute(300, 1, event(60, -1, -1, -1), params(60, 10));
	assert_int_equal(f.status, REC_OK);
	assert_int_equal(f.baseline_n, 60);
	assert_true(f.baseline_iops >= 950 && f.baseline_iops <= 1050);
	assert_true(f.worst_iops >= 950 && f.worst_iops <= f.baseline_iops);
	EQ(f.time_to_degrade_s, -1);
	EQ(f.time_to_recover_s, -1);
	EQ(f.io_lost, 0);

	fill(150, 160, 700, 3000);
	for (size_t k = 90; k < 150; k++)
		base += pts[k].iops;
	base /= 60;
	f = compute(300, 1, event(150, -1, -1, -1), params(60, 10));
	assert_int_equal(f.status, REC_OK);
	EQ(f.baseline_iops, base);
	EQ(f.time_to_degrade_s, 0);
	EQ(f.time_to_recover_s, 10);
	EQ(f.io_lost, 10 * (base - 700));
}

/*
 * Event A at t=20 (400 IOPS for 10 s, its until= at t=40), event B at
 * t=50 (100 IOPS for 5 s). A's figures stop where B starts, so B's deeper
 * dip is not A's worst. B's 20 s baseline would reach back to t=30,
 * inside A: REC_OVERLAP, no baseline invented. A 10 s one starts at t=40,
 * when A ended: B's figures then stand on their own.
 */
static void test_overlap(void **state)
{
	struct rec_figures f;

	(void)state;
	fill(0, 20, 1000, 500);
	fill(20, 30, 400, 2000);
	fill(30, 50, 1000, 500);
	fill(50, 55, 100, 5000);
	fill(55, 100, 1000, 500);

	f = compute(100, 1, event(20, 40, -1, 50), params(20, 10));
	assert_int_equal(f.status, REC_OK);
	EQ(f.worst_iops, 400);
	EQ(f.worst_p99_us, 2000);
	EQ(f.time_to_recover_s, 10);
	EQ(f.rebuild_s, 20);
	EQ(f.io_lost, 6000);
	/* B starting inside interval 50 leaves that interval to B. */
	f = compute(100, 1, event(20, 40, -1, 50.5), params(20, 10));
	EQ(f.worst_iops, 400);

	f = compute(100, 1, event(50, 60, 40, -1), params(20, 10));
	assert_int_equal(f.status, REC_OVERLAP);
	no_baseline_figures(&f);
	EQ(f.worst_iops, 100);
	EQ(f.worst_iops_at_s, 50);
	EQ(f.worst_p99_us, 5000);
	EQ(f.worst_p99_at_s, 50);
	EQ(f.rebuild_s, 10);

	f = compute(100, 1, event(50, 60, 40, -1), params(10, 10));
	assert_int_equal(f.status, REC_OK);
	assert_int_equal(f.baseline_n, 10);
	EQ(f.time_to_degrade_s, 0);
	EQ(f.time_to_recover_s, 5);
	EQ(f.io_lost, 4500);

	/* An event while the previous one still runs. */
	f = compute(100, 1, event(22, -1, 40, 50), params(1, 10));
	assert_int_equal(f.status, REC_OVERLAP);
	no_baseline_figures(&f);
	EQ(f.worst_iops, 400);
	EQ(f.worst_iops_at_s, 22);
}

/*
 * No baseline: an event at t=0 or inside the first interval, a window
 * without data, a window without I/O. The worst interval is still given.
 */
static void test_no_baseline(void **state)
{
	struct rec_figures f;

	(void)state;
	fill(0, 10, 400, 2000);
	fill(10, 30, 1000, 500);
	f = compute(30, 1, event(0, 12, -1, -1), params(60, 10));
	assert_int_equal(f.status, REC_NO_BASELINE);
	no_baseline_figures(&f);
	EQ(f.worst_iops, 400);
	EQ(f.worst_iops_at_s, 0);
	EQ(f.rebuild_s, 12);

	f = compute(30, 1, event(0.5, -1, -1, -1), params(60, 10));
	assert_int_equal(f.status, REC_NO_BASELINE);
	no_baseline_figures(&f);

	for (size_t k = 0; k < 10; k++)
		hole(k);
	f = compute(30, 1, event(10, -1, -1, -1), params(60, 10));
	assert_int_equal(f.status, REC_NO_BASELINE);
	no_baseline_figures(&f);
	EQ(f.worst_iops, 1000);
	EQ(f.worst_iops_at_s, 10);

	fill(0, 10, 0, 0);
	f = compute(30, 1, event(10, -1, -1, -1), params(60, 10));
	assert_int_equal(f.status, REC_NO_BASELINE);
	no_baseline_figures(&f);
}

/*
 * The step of test_step with intervals lost: 5 and 12 in the baseline
 * (18 left), 20 (the event's first: it degrades at 21), 25 in the dip
 * (not counted as lost: 8 x 600) and 33 in the recovery run (which then
 * needs interval 39 for its tenth good one, and still starts at 30).
 */
static void test_unknown(void **state)
{
	struct rec_figures f;

	(void)state;
	fill(0, 20, 1000, 500);
	fill(20, 30, 400, 2000);
	fill(30, 60, 1000, 500);
	hole(5);
	hole(12);
	hole(20);
	hole(25);
	hole(33);
	f = compute(60, 1, event(20, -1, -1, -1), params(20, 10));
	assert_int_equal(f.status, REC_OK);
	assert_int_equal(f.baseline_n, 18);
	EQ(f.baseline_iops, 1000);
	EQ(f.worst_iops, 400);
	EQ(f.worst_iops_at_s, 21);
	EQ(f.time_to_degrade_s, 1);
	EQ(f.time_to_recover_s, 10);
	EQ(f.io_lost, 4800);
	/* The same with zeros in the unknown intervals: still never read. */
	pts[20] = pts[25] = (struct rec_point){ 0, 1e9, false };
	f = compute(60, 1, event(20, -1, -1, -1), params(20, 10));
	EQ(f.worst_iops, 400);
	EQ(f.worst_p99_us, 2000);
	EQ(f.time_to_degrade_s, 1);
	EQ(f.io_lost, 4800);

	/* Lost between recovery's intervals: still 10 s, no more I/O lost. */
	for (size_t k = 30; k < 40; k += 2)
		hole(k);
	f = compute(60, 1, event(20, -1, -1, -1), params(20, 10));
	EQ(f.time_to_recover_s, 11);
	EQ(f.io_lost, 4800);

	/* Nothing known after the event: nothing to say about it. */
	for (size_t k = 20; k < 60; k++)
		hole(k);
	f = compute(60, 1, event(20, -1, -1, -1), params(20, 10));
	assert_int_equal(f.status, REC_OK);
	EQ(f.worst_iops, -1);
	EQ(f.worst_p99_us, -1);
	EQ(f.time_to_degrade_s, -1);
	EQ(f.io_lost, 0);
}

/*
 * Latency unknown (p99 < 0) or unmeasurable (no I/O completed): it enters
 * no p99 figure, recovery tests IOPS alone when the baseline has no p99,
 * and an interval of good IOPS without p99 neither counts nor breaks.
 */
static void test_unknown_p99(void **state)
{
	struct rec_figures f;

	(void)state;
	fill(0, 20, 1000, -1);
	fill(20, 30, 400, -1);
	fill(30, 60, 1000, -1);
	f = compute(60, 1, event(20, -1, -1, -1), params(20, 10));
	assert_int_equal(f.status, REC_OK);
	EQ(f.baseline_p99_us, -1);
	EQ(f.worst_p99_us, -1);
	EQ(f.time_to_recover_s, 10);

	fill(0, 20, 1000, 500);
	fill(30, 60, 1000, 500);
	fill(31, 32, 1000, -1);
	f = compute(60, 1, event(20, -1, -1, -1), params(20, 10));
	EQ(f.baseline_p99_us, 500);
	EQ(f.time_to_recover_s, 10);

	/* A stall: 0 IOPS, and whatever p99 it carries is no latency. */
	fill(20, 30, 0, 9999);
	f = compute(60, 1, event(20, -1, -1, -1), params(20, 10));
	EQ(f.worst_iops, 0);
	EQ(f.worst_p99_us, 500);
	EQ(f.worst_p99_at_s, 30);
	EQ(f.io_lost, 10000);
}

static void test_bad_args(void **state)
{
	static const struct rec_figures sentinel = { .baseline_n = 77 };
	struct rec_params good_p = params(10, 3);
	struct rec_event good_ev = event(10, -1, -1, -1);
	struct rec_figures f;
	struct {
		struct rec_params p;
		struct rec_event ev;
		double interval_s;
		size_t n;
	} t[] = {
		{ good_p, good_ev, 0, 20 },
		{ good_p, good_ev, -1, 20 },
		{ good_p, good_ev, NAN, 20 },
		{ good_p, good_ev, INFINITY, 20 },
		{ good_p, good_ev, 1, 0 },
		{ good_p, event(NAN, -1, -1, -1), 1, 20 },
		{ good_p, event(INFINITY, -1, -1, -1), 1, 20 },
		{ good_p, event(-1, -1, -1, -1), 1, 20 },
		{ good_p, event(20, -1, -1, -1), 1, 20 },
		{ good_p, event(10, 9, -1, -1), 1, 20 },
		{ good_p, event(10, NAN, -1, -1), 1, 20 },
		{ good_p, event(10, INFINITY, -1, -1), 1, 20 },
		{ good_p, event(10, -1, NAN, -1), 1, 20 },
		{ good_p, event(10, -1, -INFINITY, -1), 1, 20 },
		{ good_p, event(10, -1, -1, NAN), 1, 20 },
		{ good_p, event(10, -1, -1, 9), 1, 20 },
		{ good_p, event(10, -1, -1, INFINITY), 1, 20 },
	};
	struct rec_params bad_p[12];
	size_t nbad = 0;

	(void)state;
	fill(0, 20, 1000, 500);
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		f = sentinel;
		if (recovery_compute(pts, t[i].n, t[i].interval_s, &t[i].ev,
				     &t[i].p, &f) != -EINVAL)
			fail_msg("case %zu accepted", i);
		if (memcmp(&f, &sentinel, sizeof(f)))
			fail_msg("case %zu wrote its result", i);
	}

	for (size_t i = 0; i < 12; i++)
		bad_p[i] = good_p;
	bad_p[nbad++].baseline_s = 0;
	bad_p[nbad++].baseline_s = NAN;
	bad_p[nbad++].baseline_s = INFINITY;
	bad_p[nbad++].degrade_frac = 0;
	bad_p[nbad++].degrade_frac = 1.5;
	bad_p[nbad++].degrade_frac = NAN;
	bad_p[nbad++].recover_iops_tol = -0.1;
	bad_p[nbad++].recover_iops_tol = 1.5;
	bad_p[nbad++].recover_p99_tol = -1;
	bad_p[nbad++].recover_p99_tol = INFINITY;
	bad_p[nbad++].recover_n = 0;
	for (size_t i = 0; i < nbad; i++)
		if (recovery_compute(pts, 20, 1, &good_ev, &bad_p[i], &f) !=
		    -EINVAL)
			fail_msg("parameters %zu accepted", i);

	assert_int_equal(recovery_compute(NULL, 20, 1, &good_ev, &good_p, &f),
			 -EINVAL);
	assert_int_equal(recovery_compute(pts, 20, 1, NULL, &good_p, &f),
			 -EINVAL);
	assert_int_equal(recovery_compute(pts, 20, 1, &good_ev, NULL, &f),
			 -EINVAL);
	assert_int_equal(recovery_compute(pts, 20, 1, &good_ev, &good_p, NULL),
			 -EINVAL);

	/* A known interval with a NaN, an infinity or a negative count. */
	fill(15, 16, NAN, 500);
	assert_int_equal(recovery_compute(pts, 20, 1, &good_ev, &good_p, &f),
			 -EINVAL);
	fill(15, 16, INFINITY, 500);
	assert_int_equal(recovery_compute(pts, 20, 1, &good_ev, &good_p, &f),
			 -EINVAL);
	fill(15, 16, -1, 500);
	assert_int_equal(recovery_compute(pts, 20, 1, &good_ev, &good_p, &f),
			 -EINVAL);
	fill(15, 16, 1000, NAN);
	assert_int_equal(recovery_compute(pts, 20, 1, &good_ev, &good_p, &f),
			 -EINVAL);
	/* The same NaN in an interval without data is never read. */
	hole(15);
	assert_int_equal(recovery_compute(pts, 20, 1, &good_ev, &good_p, &f),
			 0);
}

/* ---- property test: random series against the definitions ---------- */

struct prop {
	size_t n;
	double ivl;
	struct rec_event ev;
	struct rec_params p;
};

static bool in_span(const struct prop *c, size_t k)
{
	double end = (double)(k + 1) * c->ivl;

	return end > c->ev.start_s &&
	       (c->ev.next_start_s < 0 || end <= c->ev.next_start_s);
}

static bool in_window(const struct prop *c, size_t k)
{
	double from = fmax(0, c->ev.start_s - c->p.baseline_s);

	return (double)k * c->ivl >= from &&
	       (double)(k + 1) * c->ivl <= c->ev.start_s;
}

/* 1 good, 0 bad, -1 neither, as the definition in DESIGN.md says. */
static int good(const struct rec_point *pt, const struct rec_figures *f,
		const struct rec_params *p)
{
	bool p99 = pt->iops > 0 && pt->p99_us >= 0;

	if (!pt->ops_known)
		return -1;
	if (pt->iops < (1 - p->recover_iops_tol) * f->baseline_iops - 1e-9 ||
	    pt->iops > (1 + p->recover_iops_tol) * f->baseline_iops + 1e-9)
		return 0;
	if (f->baseline_p99_us < 0)
		return 1;
	if (!p99)
		return -1;
	return pt->p99_us <= (1 + p->recover_p99_tol) * f->baseline_p99_us;
}

/* Whether recover_n good intervals from k on come before a bad one. */
static bool recovers_from(const struct prop *c, const struct rec_figures *f,
			  size_t k)
{
	unsigned run = 0;

	for (; k < c->n && in_span(c, k) && run < c->p.recover_n; k++) {
		int g = good(&pts[k], f, &c->p);

		if (!g)
			return false;
		run += g == 1;
	}
	return run == c->p.recover_n;
}

static void random_case(struct prop *c)
{
	static const double ivls[] = { 0.25, 1, 2, 5 };
	double level = 100 + 1000 * unit(), span;
	bool dip = false;

	c->n = 1 + (size_t)(unit() * 300);
	c->ivl = ivls[(size_t)(unit() * 4)];
	span = (double)c->n * c->ivl;
	for (size_t k = 0; k < c->n; k++) {
		if (unit() < 0.1)
			dip = !dip;
		if (unit() < 0.05) {
			hole(k);
			continue;
		}
		fill(k, k + 1,
		     dip ? level * 0.8 * unit() : level * (0.95 + 0.1 * unit()),
		     dip ? 500 * (1 + 3 * unit()) :
			   500 * (0.95 + 0.1 * unit()));
		if (unit() < 0.05)
			pts[k].p99_us = -1;
		if (unit() < 0.02)
			pts[k].iops = pts[k].p99_us = 0;
	}
	/* Half the events start on an interval boundary. */
	c->ev.start_s = floor(unit() * (double)c->n) * c->ivl;
	if (unit() < 0.5)
		c->ev.start_s += unit() * c->ivl * 0.999;
	c->ev.end_s = unit() < 0.3 ? -1 : c->ev.start_s + 100 * unit();
	c->ev.prev_end_s = unit() < 0.5 ? -1 : unit() * (c->ev.start_s + 10);
	c->ev.next_start_s = unit() < 0.5 ? -1 :
					    c->ev.start_s + unit() * span / 2;
	c->p.baseline_s = c->ivl * (1 + floor(unit() * 40)) * (0.5 + unit());
	c->p.degrade_frac = 0.5 + 0.5 * unit();
	c->p.recover_iops_tol = 0.5 * unit();
	c->p.recover_p99_tol = unit();
	c->p.recover_n = 1 + (unsigned)(unit() * 12);
}

/* Baseline, worst and overlap against their definitions. */
static void check_baseline_worst(const struct prop *c,
				 const struct rec_figures *f)
{
	double sum = 0, lo = -1, hi = -1;
	unsigned known = 0;

	for (size_t k = 0; k < c->n; k++) {
		const struct rec_point *pt = &pts[k];

		if (!pt->ops_known)
			continue;
		if (in_window(c, k)) {
			sum += pt->iops;
			known++;
		}
		if (!in_span(c, k))
			continue;
		lo = lo < 0 || pt->iops < lo ? pt->iops : lo;
		if (pt->iops > 0 && pt->p99_us > hi)
			hi = pt->p99_us;
	}
	EQ(f->worst_iops, lo);
	EQ(f->worst_p99_us, hi);
	if (lo >= 0) {
		size_t k = (size_t)llround(f->worst_iops_at_s / c->ivl);

		assert_true(in_span(c, k) && pts[k].iops == lo);
	}
	if (c->ev.prev_end_s >= 0 &&
	    fmax(0, c->ev.start_s - c->p.baseline_s) < c->ev.prev_end_s) {
		assert_int_equal(f->status, REC_OVERLAP);
	} else if (!known || !(sum > 0)) {
		assert_int_equal(f->status, REC_NO_BASELINE);
	} else {
		assert_int_not_equal(f->status, REC_OVERLAP);
		assert_int_not_equal(f->status, REC_NO_BASELINE);
		assert_int_equal(f->baseline_n, known);
		EQ(f->baseline_iops, sum / known);
	}
	if (f->status == REC_OVERLAP || f->status == REC_NO_BASELINE)
		no_baseline_figures(f);
	EQ(f->rebuild_s, c->ev.end_s < 0 ? -1 : c->ev.end_s - c->ev.start_s);
}

/* Degrade, recovery and I/O lost against their definitions. */
static void check_recovery(const struct prop *c, const struct rec_figures *f)
{
	double floor_iops = c->p.degrade_frac * f->baseline_iops, lost = 0;
	size_t kd = c->n, kr = c->n;

	for (size_t k = 0; k < c->n && kd == c->n; k++)
		if (in_span(c, k) && pts[k].ops_known &&
		    pts[k].iops < floor_iops)
			kd = k;
	if (kd == c->n) {
		EQ(f->time_to_degrade_s, -1);
		EQ(f->time_to_recover_s, -1);
		EQ(f->io_lost, 0);
		assert_int_equal(f->status, REC_OK);
		return;
	}
	EQ(f->time_to_degrade_s, fmax(0, (double)kd * c->ivl - c->ev.start_s));
	assert_true(f->worst_iops < floor_iops);
	for (size_t k = kd + 1; k < c->n && kr == c->n; k++)
		if (good(&pts[k], f, &c->p) == 1 && recovers_from(c, f, k))
			kr = k;
	if (kr == c->n) {
		assert_int_equal(f->status, REC_NOT_RECOVERED);
		EQ(f->time_to_recover_s, -1);
	} else {
		assert_int_equal(f->status, REC_OK);
		EQ(f->time_to_recover_s, (double)kr * c->ivl - c->ev.start_s);
		assert_true(f->time_to_recover_s > f->time_to_degrade_s);
	}
	for (size_t k = 0; k < kr; k++)
		if (in_span(c, k) && pts[k].ops_known)
			lost += fmax(0, f->baseline_iops - pts[k].iops) *
				c->ivl;
	EQ(f->io_lost, lost);
	assert_true(f->io_lost >= (f->baseline_iops - floor_iops) * c->ivl);
}

static void test_random(void **state)
{
	unsigned with_baseline = 0, degraded = 0, recovered = 0;

	(void)state;
	lcg = 7;
	for (unsigned r = 0; r < 3000; r++) {
		struct prop c;
		struct rec_figures f;

		random_case(&c);
		if (recovery_compute(pts, c.n, c.ivl, &c.ev, &c.p, &f))
			fail_msg("case %u refused", r);
		check_baseline_worst(&c, &f);
		if (f.status == REC_OVERLAP || f.status == REC_NO_BASELINE)
			continue;
		with_baseline++;
		check_recovery(&c, &f);
		degraded += f.time_to_degrade_s >= 0;
		recovered += f.time_to_recover_s >= 0;
	}
	/* The cases must reach every branch, not pass by saying nothing. */
	assert_true(with_baseline > 1000 && degraded > 800 && recovered > 200 &&
		    degraded - recovered > 200);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_step),
		cmocka_unit_test(test_mid_interval),
		cmocka_unit_test(test_float_boundary),
		cmocka_unit_test(test_v),
		cmocka_unit_test(test_never_recovers),
		cmocka_unit_test(test_noise),
		cmocka_unit_test(test_overlap),
		cmocka_unit_test(test_no_baseline),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_unknown_p99),
		cmocka_unit_test(test_bad_args),
		cmocka_unit_test(test_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
