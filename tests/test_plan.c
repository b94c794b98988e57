/*
 * Unit tests for the planner (master/plan/plan.c, plan_loop.c): phases per
 * rd (format, warmup+measure, curve-max, curve-point), for-loop cross
 * products with their names, I/O rate lists, curve rates rounded as
 * Vdbench does, the resolved per-wd values, and per-slave plans: threads
 * and rates split over the slaves that run them, host= restrictions,
 * sequential slices.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "master/params/params.h"
#include "master/plan/plan.h"
#include "master/plan/slo.h"

#define NAME "t.vdb"

static char err[1024];

#define assert_dbl(a, b)                                                       \
	do {                                                                   \
		double a_ = (a), b_ = (b);                                     \
		if (fabs(a_ - b_) > 1e-6 * fmax(1, fabs(b_))) {                \
			print_error("%s = %.9g, expected %.9g\n", #a, a_, b_); \
			fail();                                                \
		}                                                              \
	} while (0)

struct fixture {
	struct params *p;
	struct plan_phase *ph;
	size_t n;
};

static void load_ov(struct fixture *f, const char *text,
		    const struct plan_overrides *ov)
{
	int ret = params_parse_string(NAME, text, &f->p, err, sizeof(err));

	if (ret) {
		print_error("parse: %s\n", err);
		fail();
	}
	ret = plan_phases(f->p, ov, &f->ph, &f->n, err, sizeof(err));
	if (ret) {
		print_error("plan: %s\n", err);
		fail();
	}
}

static void load(struct fixture *f, const char *text)
{
	struct plan_overrides ov = { -1, -1, -1 };

	load_ov(f, text, &ov);
}

static void unload(struct fixture *f)
{
	free(f->ph);
	params_free(&f->p);
}

/* plan_phases fails with exactly msg (after "t.vdb:"). */
static void plan_err(const char *text, const struct plan_overrides *ov,
		     const char *msg)
{
	struct params *p = NULL;
	struct plan_phase *ph = NULL;
	size_t n = 0;
	char want[512];

	assert_int_equal(params_parse_string(NAME, text, &p, err, sizeof(err)),
			 0);
	snprintf(want, sizeof(want), NAME ":%s", msg);
	assert_int_equal(plan_phases(p, ov, &ph, &n, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, want);
	params_free(&p);
}

#define HCI                                                                         \
	"*SD:    Storage Definition\n"                                              \
	"debug=86\n"                                                                \
	"data_errors=10000\n"                                                       \
	"sd=sd1,lun=/dev/sdb,openflags=o_direct,hitarea=0,range=(0,50),threads=4\n" \
	"sd=sd2,lun=/dev/sdc,openflags=o_direct,hitarea=0,range=(0,50),threads=4\n"

/* ---- phases ----------------------------------------------------------- */

static void test_simple(void **state)
{
	struct fixture f;

	(void)state;
	load(&f, HCI
	     "wd=wd1,sd=(sd1,sd2),xfersize=4k,rdpct=70,seekpct=100\n"
	     "rd=run1,wd=wd1,iorate=max,elapsed=60,warmup=30,interval=10\n");
	assert_int_equal(f.n, 1);
	assert_string_equal(f.ph[0].name, "run1");
	assert_int_equal(f.ph[0].kind, PLAN_MEASURE);
	assert_string_equal(plan_kind_name(f.ph[0].kind), "warmup+measure");
	assert_int_equal(f.ph[0].rd, 0);
	assert_int_equal(f.ph[0].intervals, 9);
	assert_int_equal(f.ph[0].warmup_intervals, 3);
	assert_int_equal(f.ph[0].interval_ns, 10000000000ull);
	assert_dbl(f.ph[0].iorate, 0);
	assert_dbl(f.ph[0].compratio, 1);
	assert_int_equal(f.ph[0].loops, 0);
	assert_dbl(plan_total_seconds(f.ph, f.n), 90);
	unload(&f);
}

struct name_case {
	const char *rd;
	size_t n;
	const char *names[4]; /* the first ones */
	const char *last;
};

/* Loop cross products: how many phases, in what order, named how. */
static void test_loop_names(void **state)
{
	static const struct name_case cases[] = {
		{ "rd=r,forxfersize=(4k,8k),forrdpct=(70,100),forthreads=(8,16)",
		  8,
		  { "r xfersize=4k rdpct=70 threads=8",
		    "r xfersize=4k rdpct=70 threads=16",
		    "r xfersize=4k rdpct=100 threads=8",
		    "r xfersize=4k rdpct=100 threads=16" },
		  "r xfersize=8k rdpct=100 threads=16" },
		{ "rd=r,forthreads=(1-4,1),xfersize=(4k,1m)",
		  8,
		  { "r threads=1 xfersize=4k", "r threads=1 xfersize=1m",
		    "r threads=2 xfersize=4k", "r threads=2 xfersize=1m" },
		  "r threads=4 xfersize=1m" },
		{ "rd=r,forseekpct=(eof,50),forcompratio=2",
		  2,
		  { "r seekpct=eof compratio=2", "r seekpct=50 compratio=2" },
		  "r seekpct=50 compratio=2" },
		{ "rd=r,iorate=(100,max,2500)",
		  3,
		  { "r iorate=100", "r iorate=max", "r iorate=2500" },
		  "r iorate=2500" },
		{ "rd=r,forrdpct=(0,100),iorate=(10,20)",
		  4,
		  { "r rdpct=0 iorate=10", "r rdpct=0 iorate=20",
		    "r rdpct=100 iorate=10", "r rdpct=100 iorate=20" },
		  "r rdpct=100 iorate=20" },
		{ "rd=r,iorate=500", 1, { "r" }, "r" },
		{ "rd=r,iorate=curve,curve=(10,50)",
		  3,
		  { "r curve=max", "r curve=10%", "r curve=50%" },
		  "r curve=50%" },
		{ "rd=r,iorate=curve",
		  7,
		  { "r curve=max", "r curve=10%", "r curve=50%",
		    "r curve=70%" },
		  "r curve=100%" },
		{ "rd=r,forxfersize=(4k,8k),iorate=curve,curve=(50,100)",
		  6,
		  { "r xfersize=4k curve=max", "r xfersize=4k curve=50%",
		    "r xfersize=4k curve=100%", "r xfersize=8k curve=max" },
		  "r xfersize=8k curve=100%" },
		{ "rd=r,format=yes,forthreads=(2,4)",
		  3,
		  { "r format", "r threads=2", "r threads=4" },
		  "r threads=4" },
		{ "rd=r,format=only,forthreads=(2,4)",
		  1,
		  { "r format" },
		  "r format" },
	};
	char text[512];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct name_case *c = &cases[i];
		struct fixture f;

		snprintf(text, sizeof(text),
			 HCI "wd=wd1,sd=sd*\n%s,elapsed=2,interval=1\n", c->rd);
		print_message("%s\n", c->rd);
		load(&f, text);
		assert_int_equal(f.n, c->n);
		for (size_t k = 0; k < 4 && c->names[k]; k++)
			assert_string_equal(f.ph[k].name, c->names[k]);
		assert_string_equal(f.ph[f.n - 1].name, c->last);
		unload(&f);
	}
}

static void test_loop_values(void **state)
{
	struct fixture f;
	struct plan_wd w;

	(void)state;
	load(&f, HCI
	     "wd=wd1,sd=sd*,xfersize=(4k,50,8k,50),rdpct=70,seekpct=100\n"
	     "rd=r,wd=wd1,forxfersize=64k,forrdpct=(0,100),forseekpct=eof,forthreads=2,forcompratio=3,"
	     "forrhpct=50,forwhpct=10,forhitarea=256k,elapsed=1\n");
	assert_int_equal(f.n, 2);
	assert_int_equal(f.ph[1].loops, (1u << (PARAMS_LOOP_HITAREA + 1)) - 1);
	assert_int_equal(f.ph[1].xfersize, 65536);
	assert_dbl(f.ph[1].rdpct, 100);
	assert_dbl(f.ph[1].compratio, 3);
	assert_dbl(f.ph[1].rhpct, 50);
	assert_dbl(f.ph[1].whpct, 10);
	assert_int_equal(f.ph[1].hitarea, 256 * 1024);
	plan_wd_resolve(f.p, &f.ph[1], 0, &w);
	assert_int_equal(w.wd, 0);
	assert_int_equal(w.nxfer, 1);
	assert_int_equal(w.xfer[0].size, 65536);
	assert_dbl(w.xfer[0].pct, 100);
	assert_dbl(w.rdpct, 100);
	assert_dbl(w.seekpct, 0);
	assert_true(w.seek_eof);
	assert_dbl(w.rhpct, 50);
	assert_dbl(w.whpct, 10);
	assert_int_equal(plan_sd_threads(f.p, &f.ph[1], 0), 2);
	unload(&f);

	/* Without loops the wd's own values. */
	load(&f, HCI
	     "wd=wd1,sd=sd*,xfersize=(4k,50,8k,50),rdpct=70,seekpct=30,range=(10,20)\n"
	     "rd=r,wd=wd1,elapsed=1\n");
	plan_wd_resolve(f.p, &f.ph[0], 0, &w);
	assert_int_equal(w.nxfer, 2);
	assert_int_equal(w.xfer[1].size, 8192);
	assert_dbl(w.rdpct, 70);
	assert_dbl(w.seekpct, 30);
	assert_false(w.seek_eof);
	assert_dbl(w.range_lo, 10);
	assert_dbl(w.range_hi, 20);
	assert_dbl(w.skew, 100);
	assert_int_equal(plan_sd_threads(f.p, &f.ph[0], 1), 4);
	unload(&f);
}

static void test_skews(void **state)
{
	struct fixture f;
	struct plan_wd w;

	(void)state;
	/* One wd with skew=50: the other two split the rest. */
	load(&f, HCI "wd=w1,sd=sd1,skew=50\nwd=w2,sd=sd2\nwd=w3,sd=sd2\n"
		     "rd=r,wd=w*,iorate=1000,elapsed=1\n");
	plan_wd_resolve(f.p, &f.ph[0], 0, &w);
	assert_dbl(w.skew, 50);
	plan_wd_resolve(f.p, &f.ph[0], 2, &w);
	assert_dbl(w.skew, 25);
	assert_dbl(f.ph[0].iorate, 1000);
	unload(&f);

	/* Every wd at its own rate: the phase runs their sum. */
	load(&f, HCI "wd=w1,sd=sd1,iorate=100\nwd=w2,sd=sd2,iorate=300\n"
		     "rd=r,wd=w*,elapsed=1\n");
	assert_int_equal(f.n, 1);
	assert_dbl(f.ph[0].iorate, 400);
	plan_wd_resolve(f.p, &f.ph[0], 1, &w);
	assert_dbl(w.skew, 75);
	assert_dbl(w.iorate, 300);
	unload(&f);
}

static void test_curve(void **state)
{
	struct fixture f;

	(void)state;
	load(&f, HCI
	     "wd=wd1,sd=sd*\n"
	     "rd=r0,wd=wd1,elapsed=1\n"
	     "rd=r,wd=wd1,iorate=curve,curve=(10,50,100),stopcurve=5,elapsed=2,interval=1\n");
	assert_int_equal(f.n, 5);
	assert_int_equal(f.ph[1].kind, PLAN_CURVE_MAX);
	assert_string_equal(plan_kind_name(f.ph[1].kind), "curve-max");
	assert_dbl(f.ph[1].iorate, 0);
	assert_dbl(f.ph[1].stopcurve_ms, 5);
	for (size_t i = 2; i < 5; i++) {
		assert_int_equal(f.ph[i].kind, PLAN_CURVE_POINT);
		assert_int_equal(f.ph[i].curve_max, 1);
		assert_dbl(f.ph[i].iorate, 0); /* set by the master */
		assert_dbl(f.ph[i].stopcurve_ms, 5);
		assert_int_equal(f.ph[i].intervals, 2);
	}
	assert_string_equal(plan_kind_name(f.ph[2].kind), "curve-point");
	assert_dbl(f.ph[2].curve_pct, 10);
	assert_dbl(f.ph[4].curve_pct, 100);
	assert_dbl(f.ph[0].stopcurve_ms, 0);
	assert_dbl(plan_total_seconds(f.ph, f.n), 9);
	unload(&f);
}

static void test_slo_plan(void **state)
{
	struct fixture f;

	(void)state;
	load(&f, HCI
	     "wd=wd1,sd=sd*\n"
	     "rd=r,wd=wd1,iorate=slo,slo=p99:2ms,sloprecision=10,elapsed=2,interval=1\n");
	/* 10%: 4 halvings of [0, max] and the margin. */
	assert_int_equal(f.n, 1 + 4 + SLO_MARGIN);
	assert_int_equal(f.ph[0].kind, PLAN_SLO_MAX);
	assert_string_equal(plan_kind_name(f.ph[0].kind), "slo-max");
	assert_string_equal(f.ph[0].name, "r slo=max");
	assert_dbl(f.ph[0].iorate, 0);
	for (size_t i = 1; i < f.n; i++) {
		assert_int_equal(f.ph[i].kind, PLAN_SLO_STEP);
		assert_int_equal(f.ph[i].curve_max, 0);
		assert_int_equal(f.ph[i].slo_step, i);
		assert_int_equal(f.ph[i].slo_steps, 4 + SLO_MARGIN);
		assert_dbl(f.ph[i].iorate, 0); /* set by the master */
	}
	assert_string_equal(plan_kind_name(f.ph[1].kind), "slo-step");
	assert_string_equal(f.ph[2].name, "r slo=step2");
	unload(&f);
}

struct rate_case {
	double max, pct, want;
};

static void test_curve_rate(void **state)
{
	static const struct rate_case cases[] = {
		{ 12345, 10, 1300 }, /* 1234.5: above 1000, up to 100s */
		{ 12345, 50, 6200 }, /* 6172.5 */
		{ 12345, 100, 12400 },
		{ 999, 100, 1000 }, /* below 1000: up to 10s */
		{ 1000, 100, 1000 },
		{ 1001, 100, 1100 },
		{ 1234, 80, 990 },  /* 987.2 */
		{ 1250, 80, 1000 }, /* exactly 1000 stays */
		{ 50, 10, 10 },     /* 5 */
		{ 3, 10, 10 },      /* never below 10 */
		{ 100000, 70, 70000 },
		{ 0, 50, 0 }, /* the max phase did no I/O */
		{ -5, 50, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		print_message("%g x %g%%\n", cases[i].max, cases[i].pct);
		assert_dbl(plan_curve_rate(cases[i].max, cases[i].pct),
			   cases[i].want);
	}
	assert_dbl(plan_curve_rate(NAN, 50), 0);
}

static void test_format_and_pause(void **state)
{
	struct fixture f;

	(void)state;
	/* No sizes: each lun's is known only when opened. */
	load(&f, HCI
	     "sd=sd3,lun=/dev/sdd\n"
	     "wd=wd1,sd=sd*\n"
	     "rd=r1,wd=wd1,format=yes,elapsed=4,warmup=2,interval=2,pause=10\n"
	     "rd=r2,wd=wd1,format=only,pause=5\n");
	assert_int_equal(f.n, 3);
	assert_int_equal(f.ph[0].kind, PLAN_FORMAT);
	assert_string_equal(f.ph[0].name, "r1 format");
	assert_string_equal(plan_kind_name(PLAN_FORMAT), "format");
	assert_dbl(f.ph[0].pause_s, 0); /* nothing before the first phase */
	assert_int_equal(f.ph[0].warmup_intervals, 0);
	assert_dbl(f.ph[0].elapsed_s, PLAN_FORMAT_BOUND_S);
	assert_int_equal(f.ph[0].intervals, PLAN_FORMAT_BOUND_S / 2);
	assert_int_equal(f.ph[0].format_unsized, 3);
	assert_int_equal(f.ph[0].format_bytes, 0);
	assert_int_equal(f.ph[1].kind, PLAN_MEASURE);
	assert_dbl(f.ph[1].pause_s, 10);
	assert_int_equal(f.ph[2].kind, PLAN_FORMAT);
	assert_dbl(f.ph[2].pause_s, 5);
	assert_int_equal(f.ph[2].intervals, PLAN_FORMAT_BOUND_S);
	/* 6 s of r1, pauses of 10 and 5; format phases count nothing. */
	assert_dbl(plan_total_seconds(f.ph, f.n), 21);
	unload(&f);

	load(&f, "sd=a,lun=/a,size=1g,range=(0,50)\nsd=b,lun=/b,size=10m\n"
		 "sd=c,lun=/c,size=1t\n"
		 "wd=w,sd=(a,b)\nrd=r,wd=w,format=yes,elapsed=1\n");
	assert_int_equal(f.ph[0].format_bytes, (512ull << 20) + (10 << 20));
	assert_int_equal(f.ph[0].format_unsized, 0);
	unload(&f);
}

static void test_overrides(void **state)
{
	struct plan_overrides ov = { 10, 0, 2 };
	struct fixture f;

	(void)state;
	load_ov(&f,
		HCI "wd=wd1,sd=sd*\n"
		    "rd=r,wd=wd1,elapsed=3600,warmup=1800,interval=30\n",
		&ov);
	assert_dbl(f.ph[0].elapsed_s, 10);
	assert_dbl(f.ph[0].warmup_s, 0);
	assert_int_equal(f.ph[0].intervals, 5);
	assert_int_equal(f.ph[0].warmup_intervals, 0);
	unload(&f);
}

/*
 * warmup=steady: the phase is planned as its maximum warmup and then the
 * measured time, with the round in intervals; -w makes it a fixed warmup
 * (Vdbench's); an -i the round does not fit is refused.
 */
static void test_warmup_steady(void **state)
{
	struct plan_overrides ov = { -1, 6, -1 };
	struct fixture f;

	(void)state;
	load(&f,
	     HCI "wd=wd1,sd=sd*\n"
		 "rd=r,wd=wd1,elapsed=30,warmup=(steady,120,10),interval=5\n");
	assert_true(f.ph[0].warmup_steady);
	assert_int_equal(f.ph[0].warmup_round, 2);
	assert_int_equal(f.ph[0].warmup_intervals, 24);
	assert_int_equal(f.ph[0].intervals, 30);
	unload(&f);
	load_ov(&f, HCI "wd=wd1,sd=sd*\nrd=r,wd=wd1,warmup=steady\n", &ov);
	assert_false(f.ph[0].warmup_steady);
	assert_int_equal(f.ph[0].warmup_intervals, 6);
	unload(&f);
	ov.warmup_s = -1;
	ov.interval_s = 4;
	plan_err(HCI "wd=wd1,sd=sd*\n"
		     "rd=r,wd=wd1,elapsed=40,warmup=(steady,60,6),interval=2\n",
		 &ov,
		 "7:1: rd=r: warmup=steady: a round of 6 s and a maximum of 60 s are not whole intervals of 4 s and at least 5 rounds");
}

static void test_phase_errors(void **state)
{
	struct plan_overrides ov = { 10, -1, 3 };

	(void)state;
	plan_err(HCI "wd=wd1,sd=sd*\nrd=r,wd=wd1,elapsed=9,interval=3\n", &ov,
		 "7:1: rd=r: elapsed=10 is not a whole number of intervals of 3 s");
	ov.elapsed_s = 9;
	ov.warmup_s = 4;
	plan_err(HCI "wd=wd1,sd=sd*\nrd=r,wd=wd1,elapsed=9,interval=3\n", &ov,
		 "7:1: rd=r: warmup=4 is not a whole number of intervals of 3 s");
	/* 101 x 101 = 10201 phases: a typo, not a plan. */
	plan_err(HCI
		 "wd=wd1,sd=sd*\n"
		 "rd=r,wd=wd1,forrdpct=(0-100,1),forseekpct=(0-100,1),elapsed=1\n",
		 NULL, "7:1: rd=r: its loops make more than 10000 phases");
}

/* ---- per-slave plans -------------------------------------------------- */

static void slave_plan(const struct fixture *f, size_t phase, const int *hd,
		       unsigned slave, unsigned n, struct proto_plan *pl)
{
	int ret = plan_for_slave(f->p, &f->ph[phase], (unsigned)phase + 1, hd,
				 slave, n, "null", pl, err, sizeof(err));

	if (ret) {
		print_error("plan_for_slave: %s\n", err);
		fail();
	}
}

static void plan_free(struct proto_plan *pl)
{
	free(pl->targets);
	free(pl->streams);
}

static void test_slaves_local(void **state)
{
	struct proto_plan pl[2];
	struct fixture f;

	(void)state;
	load(&f,
	     "data_errors=7,compratio=2,dedupratio=3,dedupunit=8k\n"
	     "sd=sd1,lun=/a,size=1m,threads=7,openflags=(o_direct,o_dsync)\n"
	     "sd=sd2,lun=/b,threads=8,range=(10,20),offset=1m,align=8k,sqpoll=yes\n"
	     "wd=wd1,sd=(sd2,sd1),xfersize=(4k,25,8k,75),rdpct=70,seekpct=40\n"
	     "rd=run1,wd=wd1,iorate=1000,elapsed=3,interval=1,distribution=d\n");
	for (unsigned s = 0; s < 2; s++)
		slave_plan(&f, 0, NULL, s, 2, &pl[s]);
	assert_int_equal(pl[0].run, 0);
	assert_int_equal(pl[0].phase, 1);
	assert_string_equal(pl[0].name, "run1");
	assert_string_equal(pl[0].engine, "null");
	assert_int_equal(pl[0].intervals, 3);
	assert_dbl(pl[0].iorate, 500);
	assert_dbl(pl[1].iorate, 500);
	assert_int_equal(pl[0].ntargets, 2);
	assert_string_equal(pl[0].targets[0].name, "sd1");
	assert_string_equal(pl[0].targets[0].path, "/a");
	assert_int_equal(pl[0].targets[0].size, 1 << 20);
	assert_int_equal(pl[0].targets[0].create, 1);
	assert_int_equal(pl[0].targets[0].openflags,
			 PROTO_O_DIRECT | PROTO_O_DSYNC);
	assert_int_equal(pl[0].targets[0].threads, 4);
	assert_int_equal(pl[1].targets[0].threads, 3);
	assert_int_equal(pl[0].targets[1].create, 0);
	assert_int_equal(pl[0].targets[1].range_lo, 100000000);
	assert_int_equal(pl[0].targets[1].range_hi, 200000000);
	assert_int_equal(pl[1].targets[1].range_lo, 100000000); /* random */
	assert_int_equal(pl[0].nstreams, 1);
	assert_string_equal(pl[0].streams[0].name, "wd1");
	assert_int_equal(pl[0].streams[0].ntargets, 2);
	assert_int_equal(pl[0].streams[0].targets[0], 1); /* sd2 */
	assert_int_equal(pl[0].streams[0].targets[1], 0);
	assert_int_equal(pl[0].streams[0].nxfer, 2);
	assert_dbl(pl[0].streams[0].xfer[1].pct, 75);
	assert_dbl(pl[0].streams[0].rdpct, 70);
	assert_dbl(pl[0].streams[0].seekpct, 40);
	assert_dbl(pl[0].streams[0].skew, 0); /* an even split */
	assert_int_equal(pl[0].streams[0].eof, 0);
	/* General and sd values with their own wire fields. */
	assert_int_equal(pl[0].data_errors, 7);
	assert_int_equal(pl[0].distribution, PROTO_DIST_FIXED);
	assert_int_equal(pl[0].format, 0);
	assert_dbl(pl[0].compratio, 2);
	assert_dbl(pl[0].dedupratio, 3);
	assert_int_equal(pl[0].dedupunit, 8192);
	assert_int_equal(pl[0].targets[0].offset, 0);
	assert_int_equal(pl[0].targets[0].align, 0);
	assert_int_equal(pl[0].targets[0].sqpoll, 0);
	assert_int_equal(pl[0].targets[1].offset, 1 << 20);
	assert_int_equal(pl[0].targets[1].align, 8192);
	assert_int_equal(pl[0].targets[1].sqpoll, 1);
	plan_free(&pl[0]);
	plan_free(&pl[1]);
	unload(&f);
}

/*
 * Cache hits and random_distribution= reach the slaves: the hit area of an
 * sd a wd asks hits on (its start the sd's range start for every slave,
 * even when sequential work cuts the range), none elsewhere, the wds'
 * rhpct=, whpct= and distribution; and the plans refused.
 */
static void test_slaves_hits(void **state)
{
	struct proto_plan pl[2];
	struct fixture f;

	(void)state;
	load(&f,
	     "sd=sd1,lun=/a,threads=8,range=(10,20),hitarea=2m\n"
	     "sd=sd2,lun=/b,threads=8\n"
	     "wd=wd1,sd=sd1,rhpct=80,whpct=5,seekpct=0,random_distribution=zipf:1.2\n"
	     "wd=wd2,sd=sd2,random_distribution=pareto:0.3\n"
	     "rd=r,wd=(wd1,wd2),elapsed=1\n"
	     "rd=r2,wd=(wd1,wd2),elapsed=1,forhitarea=(1m,64k),forrhpct=(0,90)\n");
	for (unsigned s = 0; s < 2; s++)
		slave_plan(&f, 0, NULL, s, 2, &pl[s]);
	for (unsigned s = 0; s < 2; s++) {
		assert_int_equal(pl[s].targets[0].hitarea, 2 << 20);
		assert_int_equal(pl[s].targets[0].hit_lo, 100000000);
		assert_int_equal(pl[s].targets[1].hitarea, 0);
		assert_int_equal(pl[s].targets[1].hit_lo, 0);
	}
	/* Sequential: each slave its half of the range, one hit area. */
	assert_int_equal(pl[0].targets[0].range_lo, 100000000);
	assert_int_equal(pl[1].targets[0].range_lo, 150000000);
	assert_dbl(pl[0].streams[0].rhpct, 80);
	assert_dbl(pl[0].streams[0].whpct, 5);
	assert_int_equal(pl[0].streams[0].access, PROTO_ACCESS_ZIPF);
	assert_dbl(pl[0].streams[0].access_arg, 1.2);
	assert_dbl(pl[0].streams[1].rhpct, 0);
	assert_int_equal(pl[0].streams[1].access, PROTO_ACCESS_PARETO);
	assert_dbl(pl[0].streams[1].access_arg, 0.3);
	for (unsigned s = 0; s < 2; s++)
		plan_free(&pl[s]);
	/* forhitarea=, forrhpct=: rhpct=0 leaves whpct=5, so a hit area. */
	assert_int_equal(f.n, 5);
	slave_plan(&f, 1, NULL, 0, 1, &pl[0]);
	assert_int_equal(pl[0].targets[0].hitarea, 1 << 20);
	assert_dbl(pl[0].streams[0].rhpct, 0);
	plan_free(&pl[0]);
	/* The loops in the order given: forhitarea= is the outer one. */
	slave_plan(&f, 2, NULL, 0, 1, &pl[0]);
	assert_int_equal(pl[0].targets[0].hitarea, 1 << 20);
	assert_dbl(pl[0].streams[0].rhpct, 90);
	plan_free(&pl[0]);
	slave_plan(&f, 3, NULL, 0, 1, &pl[0]);
	assert_int_equal(pl[0].targets[0].hitarea, 64 << 10);
	assert_dbl(pl[0].streams[0].rhpct, 0);
	plan_free(&pl[0]);
	unload(&f);

	/* Vdbench's rule: a hit area of at least 4 largest transfers. */
	load(&f, "sd=sd1,lun=/a,hitarea=64k\n"
		 "wd=wd1,sd=sd1,xfersize=(4k,50,32k,50),rhpct=10\n"
		 "rd=r,wd=wd1,elapsed=1\n");
	assert_int_equal(plan_for_slave(f.p, &f.ph[0], 1, NULL, 0, 1, "null",
					&pl[0], err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, NAME
			    ":1:1: sd=sd1: hitarea of 65536 bytes is less than 4 times the largest xfersize of its wds in r (32768 bytes), as Vdbench requires");
	unload(&f);
	load(&f, "sd=sd1,lun=/a,hitarea=0\n"
		 "wd=wd1,sd=sd1,whpct=10\n"
		 "rd=r,wd=wd1,elapsed=1\n");
	assert_int_equal(plan_for_slave(f.p, &f.ph[0], 1, NULL, 0, 1, "null",
					&pl[0], err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "hitarea of 0 bytes"));
	unload(&f);
}

/*
 * streams=5 on 3 slaves: each takes whole streams (2, 2, 1), their part
 * of the range and threads/streams threads per stream; stride= and
 * maxdata= reach the plan; fewer streams than slaves is refused.
 */
static void test_slaves_streams(void **state)
{
	static const uint64_t lo[] = { 0, 400000000, 800000000 };
	static const unsigned want[] = { 2, 2, 1 };
	struct proto_plan pl;
	struct fixture f;

	(void)state;
	load(&f, "sd=sd1,lun=/a,threads=10,size=1g\n"
		 "sd=sd2,lun=/b,threads=4\n"
		 "wd=wd1,sd=sd1,streams=5,xfersize=64k\n"
		 "wd=wd2,sd=sd2,stride=(8k,1m),seekpct=50\n"
		 "rd=r,wd=wd1,elapsed=1,maxdata=2\n"
		 "rd=r2,wd=wd2,elapsed=1,maxdata=1g\n");
	for (unsigned s = 0; s < 3; s++) {
		slave_plan(&f, 0, NULL, s, 3, &pl);
		assert_int_equal(pl.targets[0].streams, want[s]);
		assert_int_equal(pl.targets[0].threads, want[s] * 2);
		assert_int_equal(pl.targets[0].range_lo, lo[s]);
		assert_int_equal(pl.targets[0].range_hi,
				 lo[s] + want[s] * 200000000ull);
		assert_dbl(pl.streams[0].seekpct, 0);
		assert_int_equal(pl.streams[0].stride_max, 0);
		plan_free(&pl);
	}
	slave_plan(&f, 1, NULL, 0, 2, &pl);
	assert_int_equal(pl.targets[0].streams, 0);
	assert_int_equal(pl.streams[0].stride_min, 8192);
	assert_int_equal(pl.streams[0].stride_max, 1 << 20);
	/* Random work is not cut among slaves. */
	assert_int_equal(pl.targets[0].range_lo, 0);
	plan_free(&pl);
	/* maxdata=2: twice the 1g of the sds the rd uses; 1g: bytes. */
	assert_int_equal(plan_maxdata_bytes(f.p, &f.ph[0], NULL, NULL),
			 2ull << 30);
	assert_int_equal(plan_maxdata_bytes(f.p, &f.ph[1], NULL, NULL),
			 1ull << 30);
	assert_int_equal(plan_for_slave(f.p, &f.ph[0], 1, NULL, 0, 6, "null",
					&pl, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, NAME
			    ":1:1: sd=sd1: streams=5 is fewer than the 6 slaves that run it (each takes whole streams)");
	unload(&f);
}

/*
 * replay= reaches each slave's plan: the trace's path, device and hash,
 * the replay mode, one transfer size (the largest record, rounded up to
 * 512) for the buffers, and the sd cut among the slaves as sequential
 * work (each slave replays the records in its part).
 */
static void test_slaves_replay(void **state)
{
	char path[] = "/tmp/test_plan_replay.XXXXXX", text[512];
	struct proto_plan pl;
	struct fixture f;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_true(dprintf(fd, "fio version 2 iolog\n/f add\n/f open\n"
				"/f write 0 4096\n/f read 8192 1000\n") > 0);
	close(fd);
	snprintf(text, sizeof(text),
		 "sd=sd1,lun=/a,threads=8\n"
		 "wd=wd1,sd=sd1,replay=%s,replay_mode=afap\n"
		 "rd=r,wd=wd1,elapsed=1\n",
		 path);
	load(&f, text);
	for (unsigned s = 0; s < 2; s++) {
		slave_plan(&f, 0, NULL, s, 2, &pl);
		assert_int_equal(pl.replay, PROTO_REPLAY_AFAP);
		assert_string_equal(pl.streams[0].replay, path);
		assert_string_equal(pl.streams[0].replay_dev, "/f");
		assert_true(pl.streams[0].replay_hash ==
			    f.p->wd[0].replay_hash);
		assert_int_equal(pl.streams[0].nxfer, 1);
		assert_int_equal(pl.streams[0].xfer[0].size, 4096);
		assert_int_equal(pl.targets[0].range_lo, s * 500000000ull);
		assert_int_equal(pl.targets[0].range_hi,
				 (s + 1) * 500000000ull);
		plan_free(&pl);
	}
	unload(&f);
	unlink(path);
}

/*
 * Vdbench's hot bands and fio's zones reach each slave's plan: several
 * wds with their own bands share an sd by skew=, a band is in percent of
 * the whole sd and leaves the sd's range to the other wds' range=; the
 * zones come with every range resolved. A loop that gives a hotband= wd
 * hits or seekpct=eof is refused, and so is validate=yes.
 */
static void test_slaves_access(void **state)
{
	struct proto_plan pl;
	struct fixture f;

	(void)state;
	load(&f,
	     "sd=sd1,lun=/a,threads=8\n"
	     "wd=hot1,sd=sd1,hotband=(10,20),skew=40\n"
	     "wd=hot2,sd=sd1,hotband=(60,70.5),skew=40\n"
	     "wd=z,sd=sd1,range=(0,50),random_distribution=zoned:50/5:30/15:20/\n"
	     "wd=hot3,sd=sd1,hotband=(30,40)\n"
	     "rd=r,wd=(hot1,hot2,z),elapsed=1\n"
	     "rd=r2,wd=hot3,elapsed=1,forseekpct=(50,eof)\n");
	for (unsigned s = 0; s < 2; s++) {
		slave_plan(&f, 0, NULL, s, 2, &pl);
		assert_int_equal(pl.nstreams, 3);
		assert_int_equal(pl.streams[0].access, PROTO_ACCESS_HOTBAND);
		assert_int_equal(pl.streams[0].band_lo, 100000000);
		assert_int_equal(pl.streams[0].band_hi, 200000000);
		assert_int_equal(pl.streams[1].band_lo, 600000000);
		assert_int_equal(pl.streams[1].band_hi, 705000000);
		assert_int_equal(pl.streams[0].nzones, 0);
		assert_dbl(pl.streams[0].skew, 40);
		assert_dbl(pl.streams[1].skew, 40);
		assert_int_equal(pl.streams[2].access, PROTO_ACCESS_ZONED);
		assert_int_equal(pl.streams[2].band_hi, 0);
		assert_int_equal(pl.streams[2].nzones, 3);
		assert_int_equal(pl.streams[2].zones[0].io, 50);
		assert_int_equal(pl.streams[2].zones[0].range, 5);
		assert_int_equal(pl.streams[2].zones[1].range, 15);
		assert_int_equal(pl.streams[2].zones[2].io, 20);
		assert_int_equal(pl.streams[2].zones[2].range, 80);
		/* The other wd's range= is the target's; the bands are not. */
		assert_int_equal(pl.targets[0].range_lo, 0);
		assert_int_equal(pl.targets[0].range_hi, 500000000);
		plan_free(&pl);
	}
	slave_plan(&f, 1, NULL, 0, 1, &pl);
	assert_dbl(pl.streams[0].seekpct, 50);
	plan_free(&pl);
	assert_int_equal(plan_for_slave(f.p, &f.ph[2], 3, NULL, 0, 1, "null",
					&pl, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, NAME
			    ":7:1: wd=hot3: hotband= with seekpct=eof is not supported (phase r2 seekpct=eof)");
	unload(&f);
	load(&f, "sd=sd1,lun=/a\nwd=wd1,sd=sd1,hotband=(0,10)\n"
		 "rd=r,wd=wd1,elapsed=1,forwhpct=(0,10)\n");
	assert_int_equal(plan_for_slave(f.p, &f.ph[1], 2, NULL, 0, 1, "null",
					&pl, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, NAME
			    ":3:1: wd=wd1: hotband= with rhpct= or whpct= is not supported (phase r whpct=10)");
	unload(&f);
}

#define HOSTS                                    \
	"hd=h1\nhd=h2,slaves=2\nhd=h3\n"         \
	"sd=sd1,lun=/a,host=(h1,h2),threads=6\n" \
	"sd=sd2,lun=/b,host=h2,threads=4\n"

/*
 * concatenatesds=yes: a wd's sds, in its order, are one target group on
 * each slave that has all of them; the first carries the wd's threads
 * (split over those slaves) and its range= of the whole space (a slice of
 * it per slave when sequential), the others no threads and all of
 * themselves; the stream says it is concatenated. A format phase is per
 * sd as ever. forthreads= replaces the wd's threads; fewer threads than
 * slaves and validate=yes are refused.
 */
static void test_slaves_concat(void **state)
{
	static const int hd[] = { 0, 1, 1, 2 };
	struct proto_plan pl;
	struct fixture f;

	(void)state;
	load(&f, "concatenatesds=yes\n"
		 "sd=sd1,lun=/a,size=1g\nsd=sd2,lun=/b\nsd=sd3,lun=/c\n"
		 "wd=wd1,sd=(sd3,sd1,sd2),threads=5,range=(20,60)\n"
		 "wd=wd2,sd=(sd2,sd1),threads=4,seekpct=eof\n"
		 "rd=r,wd=wd1,elapsed=1,format=yes\n"
		 "rd=r2,wd=wd2,elapsed=1,forthreads=(2,6)\n");
	assert_int_equal(f.n, 4);
	for (unsigned s = 0; s < 2; s++) {
		slave_plan(&f, 1, NULL, s, 2, &pl);
		assert_int_equal(pl.ntargets, 3);
		/* targets in sd order; the stream names them in the wd's. */
		assert_int_equal(pl.nstreams, 1);
		assert_int_equal(pl.streams[0].concat, 1);
		assert_int_equal(pl.streams[0].ntargets, 3);
		assert_string_equal(pl.targets[pl.streams[0].targets[0]].name,
				    "sd3");
		assert_string_equal(pl.targets[pl.streams[0].targets[1]].name,
				    "sd1");
		assert_string_equal(pl.targets[pl.streams[0].targets[2]].name,
				    "sd2");
		assert_int_equal(pl.targets[2].threads, s ? 2 : 3);
		assert_int_equal(pl.targets[0].threads, 0);
		assert_int_equal(pl.targets[1].threads, 0);
		/* Random: every slave has the whole range of the space. */
		assert_int_equal(pl.targets[2].range_lo, 200000000);
		assert_int_equal(pl.targets[2].range_hi, 600000000);
		assert_int_equal(pl.targets[0].range_lo, 0);
		assert_int_equal(pl.targets[0].range_hi, 1000000000);
		/* size= does not create or extend the file (Vdbench's). */
		assert_int_equal(pl.targets[0].size, 1 << 30);
		assert_int_equal(pl.targets[0].create, 0);
		plan_free(&pl);
	}
	/* The format phase: each sd on its own, with its own threads. */
	slave_plan(&f, 0, NULL, 0, 1, &pl);
	assert_int_equal(pl.targets[0].threads, 8);
	assert_int_equal(pl.streams[0].concat, 0);
	plan_free(&pl);
	/* Sequential, forthreads=6 over 3 slaves: a third each. */
	for (unsigned s = 0; s < 3; s++) {
		slave_plan(&f, 3, NULL, s, 3, &pl);
		assert_string_equal(pl.targets[1].name, "sd2");
		assert_int_equal(pl.targets[1].threads, 2);
		assert_int_equal(pl.targets[0].threads, 0);
		assert_int_equal(pl.targets[1].range_lo, 1000000000ull * s / 3);
		assert_int_equal(pl.targets[1].range_hi,
				 1000000000ull * (s + 1) / 3);
		assert_true(pl.streams[0].eof);
		plan_free(&pl);
	}
	/* forthreads=2 is fewer than 3 slaves. */
	assert_int_equal(plan_for_slave(f.p, &f.ph[2], 3, NULL, 0, 3, "null",
					&pl, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, NAME
			    ":8:24: wd=wd2: 2 threads in r2 threads=2, fewer than the 3 slaves that run its concatenation (raise threads= or use fewer slaves)");
	unload(&f);

	/* Hosts: only h2 has both sds, so its two slaves run the wd. */
	load(&f, "concatenatesds=yes\nhd=h1\nhd=h2,slaves=2\nhd=h3\n"
		 "sd=sd1,lun=/a,host=(h1,h2)\nsd=sd2,lun=/b,host=h2\n"
		 "wd=wd1,sd=(sd1,sd2),threads=4\nrd=r,wd=wd1,elapsed=1\n");
	for (unsigned s = 0; s < 4; s++) {
		slave_plan(&f, 0, hd, s, 4, &pl);
		assert_int_equal(pl.ntargets, hd[s] == 1 ? 2 : 0);
		if (hd[s] == 1)
			assert_int_equal(pl.targets[0].threads, 2);
		plan_free(&pl);
	}
	unload(&f);
	plan_err("concatenatesds=yes\nvalidate=yes\nsd=sd1,lun=/a\n"
		 "wd=wd1,sd=sd1,threads=2\nrd=r,wd=wd1,elapsed=1\n",
		 &(struct plan_overrides){ -1, -1, -1 },
		 "2:10: validate=yes with concatenatesds=yes: Vdbench does not validate concatenated sds, and lockstep's one owner per block is per sd");
}

/* validate=yes gives each slave a cut of an sd: no hits, no skew yet. */
static void test_hits_validate(void **state)
{
	struct plan_phase *ph;
	struct params *p;
	size_t n;

	(void)state;
	assert_int_equal(params_parse_string(NAME,
					     "validate=yes\nsd=sd1,lun=/a\n"
					     "wd=wd1,sd=sd1,rhpct=50\n"
					     "rd=r,wd=wd1,elapsed=1\n",
					     &p, err, sizeof(err)),
			 0);
	assert_int_equal(plan_phases(p, NULL, &ph, &n, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, NAME
			    ":3:15: wd=wd1: rhpct= and whpct= send I/O to the start of each sd, which validate=yes gives to one slave only: not supported together yet");
	params_free(&p);
	assert_int_equal(params_parse_string(NAME,
					     "validate=yes\nsd=sd1,lun=/a\n"
					     "wd=wd1,sd=sd1,random_distribution=zipf:1.2\n"
					     "rd=r,wd=wd1,elapsed=1\n",
					     &p, err, sizeof(err)),
			 0);
	assert_int_equal(plan_phases(p, NULL, &ph, &n, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, NAME
			    ":3:35: wd=wd1: random_distribution= spreads I/O over the whole sd, which validate=yes cuts among its slaves: not supported together yet");
	params_free(&p);
	assert_int_equal(params_parse_string(NAME,
					     "validate=yes\nsd=sd1,lun=/a\n"
					     "wd=wd1,sd=sd1,hotband=(10,20)\n"
					     "wd=wd2,sd=sd1,random_distribution=zoned:90/10:10/\n"
					     "rd=r,wd=wd1,elapsed=1\n"
					     "rd=r2,wd=wd2,elapsed=1\n",
					     &p, err, sizeof(err)),
			 0);
	assert_int_equal(plan_phases(p, NULL, &ph, &n, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, NAME
			    ":3:15: wd=wd1: hotband= spreads I/O over the whole sd, which validate=yes cuts among its slaves: not supported together yet");
	params_free(&p);
}

static void test_slaves_threads(void **state)
{
	struct proto_plan pl;
	struct fixture f;

	(void)state;
	load(&f, "sd=sd1,lun=/a,threads=2\nwd=wd1,sd=sd1\n"
		 "rd=r,wd=wd1,elapsed=1\n"
		 "rd=r2,wd=wd1,forthreads=(3,6),elapsed=1\n");
	assert_int_equal(plan_for_slave(f.p, &f.ph[0], 1, NULL, 0, 3, "null",
					&pl, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, NAME
			    ":1:1: sd=sd1 has threads=2, fewer than the 3 slaves that run it (raise threads= or use fewer slaves)");
	assert_null(pl.targets);
	/* forthreads= overrides the sd's threads. */
	slave_plan(&f, 1, NULL, 2, 3, &pl);
	assert_int_equal(pl.targets[0].threads, 1);
	plan_free(&pl);
	slave_plan(&f, 2, NULL, 0, 4, &pl);
	assert_int_equal(pl.targets[0].threads, 2);
	plan_free(&pl);
	unload(&f);
}

static void test_slaves_hosts(void **state)
{
	static const int hd[] = { 0, 1, 1, 2 };
	struct proto_plan pl[4];
	struct fixture f;
	int *sh = NULL;
	unsigned n = 0;

	(void)state;
	load(&f, HOSTS "wd=wd1,sd=(sd1,sd2),skew=60\n"
		       "wd=wd2,sd=sd2,host=h2,skew=40\n"
		       "rd=r,wd=(wd1,wd2),iorate=1000,elapsed=1\n");
	assert_int_equal(plan_slave_hosts(f.p, 9, &sh, &n), 0);
	assert_int_equal(n, 4);
	assert_memory_equal(sh, hd, sizeof(hd));
	free(sh);
	assert_true(plan_sd_on_host(f.p, 0, 0));
	assert_false(plan_sd_on_host(f.p, 1, 0));
	assert_true(plan_sd_on_host(f.p, 1, 1));
	assert_false(plan_sd_on_host(f.p, 1, -1));
	for (unsigned s = 0; s < 4; s++)
		slave_plan(&f, 0, hd, s, 4, &pl[s]);
	/*
	 * wd1 runs on 5 (slave, sd) pairs (h1: sd1; each h2 slave: sd1 and
	 * sd2), each a fifth of its 60% (Vdbench's HandleSkew.spreadWgSkew).
	 * h1: sd1 only, wd1 only: one pair, 12%.
	 */
	assert_int_equal(pl[0].ntargets, 1);
	assert_string_equal(pl[0].targets[0].name, "sd1");
	assert_int_equal(pl[0].targets[0].threads, 2); /* 6 over 3 slaves */
	assert_int_equal(pl[0].nstreams, 1);
	assert_int_equal(pl[0].streams[0].ntargets, 1);
	assert_dbl(pl[0].iorate, 120);
	assert_dbl(pl[0].streams[0].skew, 100);
	/* h2: both sds, both wds: two pairs of wd1 (24%) + half of wd2's. */
	for (unsigned s = 1; s < 3; s++) {
		assert_int_equal(pl[s].ntargets, 2);
		assert_int_equal(pl[s].targets[0].threads, 2);
		assert_int_equal(pl[s].targets[1].threads, 2);
		assert_int_equal(pl[s].nstreams, 2);
		assert_int_equal(pl[s].streams[0].ntargets, 2);
		assert_dbl(pl[s].iorate, 440);
		assert_dbl(pl[s].streams[0].skew, 100.0 * 24 / 44);
		assert_dbl(pl[s].streams[1].skew, 100.0 * 20 / 44);
	}
	/* h3 runs none of the sds: it sits the phase out. */
	assert_int_equal(pl[3].ntargets, 0);
	assert_int_equal(pl[3].nstreams, 0);
	assert_dbl(pl[3].iorate, 0);
	for (unsigned s = 0; s < 4; s++)
		plan_free(&pl[s]);
	unload(&f);

	/* A wd no slave can run, an sd no slave can run. */
	load(&f, HOSTS "wd=wd1,sd=sd2,host=h1\nrd=r,wd=wd1,elapsed=1\n");
	assert_int_equal(plan_for_slave(f.p, &f.ph[0], 1, hd, 0, 4, "null",
					&pl[0], err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, NAME
			    ":5:1: sd=sd2: no slave runs it in r (check host= on the sd and its wds)");
	unload(&f);
	load(&f, HOSTS "wd=wd1,sd=sd1\nwd=wd2,sd=sd1,host=h3\n"
		       "rd=r,wd=wd*,elapsed=1\n");
	assert_int_equal(plan_for_slave(f.p, &f.ph[0], 1, hd, 0, 4, "null",
					&pl[0], err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, NAME
			    ":7:1: wd=wd2: no slave runs it in r (check host= on the wd and its sds)");
	/* Without a host layout every slave runs everything. */
	slave_plan(&f, 0, NULL, 0, 2, &pl[0]);
	assert_int_equal(pl[0].nstreams, 2);
	plan_free(&pl[0]);
	/* The same refusals before anything starts. */
	assert_int_equal(plan_check_slaves(f.p, f.ph, f.n, hd, 4, err,
					   sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, NAME
			    ":7:1: wd=wd2: no slave runs it in r (check host= on the wd and its sds)");
	assert_int_equal(plan_check_slaves(f.p, f.ph, f.n, NULL, 4, err,
					   sizeof(err)),
			 0);
	unload(&f);

	/* forthreads=1 is too few for sd2 on h2's two slaves. */
	load(&f, HOSTS "wd=wd1,sd=sd1\nwd=wd2,sd=sd2,host=h2\n"
		       "rd=r,wd=wd*,iorate=curve,curve=50,elapsed=1\n"
		       "rd=r2,wd=wd2,forthreads=(2,1),elapsed=1\n");
	assert_int_equal(plan_check_slaves(f.p, f.ph, f.n, hd, 4, err,
					   sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, NAME
			    ":5:1: sd=sd2 has threads=1, fewer than the 2 slaves that run it (raise threads= or use fewer slaves)");
	unload(&f);
}

static void test_slaves_sequential(void **state)
{
	struct proto_plan pl[2];
	struct fixture f;

	(void)state;
	load(&f, "formatxfersize=512k\n"
		 "sd=sd1,lun=/a,range=(10,60),size=1g\nsd=sd2,lun=/b\n"
		 "wd=seq,sd=sd1,seekpct=0,rdpct=0,range=(0,50)\n"
		 "wd=rnd,sd=sd2,seekpct=eof\n"
		 "rd=r,wd=(seq,rnd),format=yes,elapsed=1\n");
	assert_int_equal(f.n, 2);
	/* Format: one stream writing each slave's slice once. */
	for (unsigned s = 0; s < 2; s++)
		slave_plan(&f, 0, NULL, s, 2, &pl[s]);
	assert_int_equal(pl[0].nstreams, 1);
	assert_string_equal(pl[0].streams[0].name, "format");
	assert_int_equal(pl[0].streams[0].ntargets, 2);
	assert_int_equal(pl[0].streams[0].xfer[0].size, 512 * 1024);
	assert_dbl(pl[0].streams[0].rdpct, 0);
	assert_dbl(pl[0].streams[0].seekpct, 0);
	assert_int_equal(pl[0].streams[0].eof, 1);
	assert_int_equal(pl[0].format, 1);
	assert_dbl(pl[0].iorate, 0);
	/* The format primes the sd's range, not the wd's. */
	assert_int_equal(pl[0].targets[0].range_lo, 100000000);
	assert_int_equal(pl[0].targets[0].range_hi, 350000000);
	assert_int_equal(pl[1].targets[0].range_lo, 350000000);
	assert_int_equal(pl[1].targets[0].range_hi, 600000000);
	assert_int_equal(pl[1].targets[1].range_lo, 500000000);
	assert_int_equal(pl[1].targets[1].range_hi, 1000000000);
	plan_free(&pl[0]);
	plan_free(&pl[1]);
	/* Sequential wds: the wd's range inside the sd's, sliced. */
	for (unsigned s = 0; s < 2; s++)
		slave_plan(&f, 1, NULL, s, 2, &pl[s]);
	assert_int_equal(pl[0].targets[0].range_lo, 100000000);
	assert_int_equal(pl[0].targets[0].range_hi, 225000000);
	assert_int_equal(pl[1].targets[0].range_lo, 225000000);
	assert_int_equal(pl[1].targets[0].range_hi, 350000000);
	assert_dbl(pl[1].streams[1].seekpct, 0); /* eof: sequential */
	assert_int_equal(pl[1].streams[1].eof, 1);
	assert_int_equal(pl[1].streams[0].eof, 0);
	assert_int_equal(pl[1].format, 0);
	plan_free(&pl[0]);
	plan_free(&pl[1]);
	unload(&f);

	/* Two wds giving one sd different ranges. */
	load(&f, "sd=sd1,lun=/a\nwd=w1,sd=sd1,range=(0,50)\n"
		 "wd=w2,sd=sd1,range=(50,100)\nrd=r,wd=w*,elapsed=1\n");
	assert_int_equal(plan_for_slave(f.p, &f.ph[0], 1, NULL, 0, 1, "null",
					&pl[0], err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, NAME
			    ":3:1: wd=w1 and wd=w2 give sd=sd1 different range= in r: lockstep needs one range per sd in a phase");
	unload(&f);
}

static void test_slaves_rates(void **state)
{
	struct proto_plan pl;
	struct fixture f;

	(void)state;
	/* Fixed wd rates become the slave's rate and the streams' shares. */
	load(&f, "sd=sd1,lun=/a\nwd=w1,sd=sd1,iorate=100\n"
		 "wd=w2,sd=sd1,iorate=300\nrd=r,wd=w*,elapsed=1\n");
	slave_plan(&f, 0, NULL, 0, 2, &pl);
	assert_dbl(pl.iorate, 200);
	assert_dbl(pl.streams[0].skew, 25);
	assert_dbl(pl.streams[1].skew, 75);
	plan_free(&pl);
	unload(&f);

	/* A curve point runs at the rate the master sets. */
	load(&f, "sd=sd1,lun=/a\nwd=w1,sd=sd1\n"
		 "rd=r,wd=w1,iorate=curve,curve=(50),elapsed=1\n");
	f.ph[1].iorate = plan_curve_rate(4321, f.ph[1].curve_pct);
	slave_plan(&f, 1, NULL, 1, 2, &pl);
	assert_dbl(pl.iorate, 1100);
	plan_free(&pl);
	unload(&f);
}

/*
 * maxdata= as a multiple of the sds' size (Vdbench's getLimit): the sds
 * the rd's wds use, each whole whatever its range=, its size= first, else
 * what its slaves reported; the sds with neither are counted.
 */
static void test_maxdata_sizes(void **state)
{
	/* clang-format off */
	static const struct {
		const char *what;
		uint64_t rep[3]; /* reported bytes of sd1..sd3 */
		uint64_t want;
		unsigned unsized;
	} cases[] = {
		{ "none reported: sd2's size= only", { 0 }, 2 * (4ull << 20), 1 },
		{ "reported: sd1 whole, sd3 not the rd's",
		  { 5 << 20, 4 << 20, 7 << 20 }, 2 * (9ull << 20), 0 },
		{ "a report never beats size=", { 5 << 20, 9 << 20, 0 },
		  2 * (9ull << 20), 0 },
	};
	/* clang-format on */
	struct fixture f;
	unsigned unsized = 99;

	(void)state;
	load(&f, "sd=sd1,lun=/a,range=(10,20)\nsd=sd2,lun=/b,size=4m\n"
		 "sd=sd3,lun=/c\nwd=w1,sd=sd1\nwd=w2,sd=sd2\n"
		 "wd=w3,sd=sd3\nrd=r,wd=(w1,w2),maxdata=2,elapsed=1\n"
		 "rd=r2,wd=w3,maxdata=1m,elapsed=1\n");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		print_message("%s\n", cases[i].what);
		assert_int_equal(plan_maxdata_bytes(f.p, &f.ph[0], cases[i].rep,
						    &unsized),
				 cases[i].want);
		assert_int_equal(unsized, cases[i].unsized);
	}
	/* Without reports (lockstep check), and in bytes: none unsized. */
	assert_int_equal(plan_maxdata_bytes(f.p, &f.ph[0], NULL, &unsized),
			 2 * (4ull << 20));
	assert_int_equal(unsized, 1);
	assert_int_equal(plan_maxdata_bytes(f.p, &f.ph[1], NULL, &unsized),
			 1 << 20);
	assert_int_equal(unsized, 0);
	unload(&f);
}

/*
 * A wd's skew and its fixed iorate= split over the (slave, sd) pairs that
 * run it (Vdbench's HandleSkew.spreadWgSkew), not over its slaves: with
 * host= giving slaves 2, 1 and 0 of the wd's sds, the shares are 2:1:0,
 * and each sd pair gets the same rate.
 */
struct pair_case {
	const char *what, *params;
	double rate[3];    /* each slave's iorate */
	double skew[3][2]; /* each slave's streams' skew */
};

static void test_skew_pairs(void **state)
{
	/* clang-format off */
	static const struct pair_case cases[] = {
		{ "one wd, rd rate: 2:1:0",
		  "wd=w1,sd=(sd1,sd2,sd3)\nrd=r,wd=w1,iorate=300,elapsed=1\n",
		  { 200, 100, 0 }, { { 0 }, { 0 }, { 0 } } },
		{ "one wd, fixed iorate=: 2:1:0",
		  "wd=w1,sd=(sd1,sd2,sd3),iorate=600\nrd=r,wd=w1,elapsed=1\n",
		  { 400, 200, 0 }, { { 100 }, { 100 }, { 0 } } },
		{ "skew=: w1 on 3 pairs, w2 on one (h2)",
		  "wd=w1,sd=(sd1,sd2,sd3),skew=60\nwd=w2,sd=sd3,skew=40\n"
		  "rd=r,wd=(w1,w2),iorate=1000,elapsed=1\n",
		  { 400, 600, 0 }, { { 100 }, { 100.0 * 20 / 60, 100.0 * 40 / 60 },
		  { 0 } } },
		{ "fixed beside shared (priority=)",
		  "wd=w1,sd=(sd1,sd2,sd3),iorate=300,priority=1\n"
		  "wd=w2,sd=(sd1,sd3),priority=2\n"
		  "rd=r,wd=(w1,w2),iorate=700,elapsed=1\n",
		  { 200 + 200, 100 + 200, 0 },
		  { { 50, 50 }, { 100.0 / 3, 200.0 / 3 }, { 0 } } },
	};
	/* clang-format on */
	static const int hd[] = { 0, 1, 2 };
	char text[1024];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct pair_case *c = &cases[i];
		double sum = 0, want = 0;
		struct fixture f;

		print_message("%s\n", c->what);
		snprintf(text, sizeof(text),
			 "hd=h1\nhd=h2\nhd=h3\n"
			 "sd=sd1,lun=/a,host=h1\nsd=sd2,lun=/b,host=h1\n"
			 "sd=sd3,lun=/c,host=h2\n%s",
			 c->params);
		load(&f, text);
		for (unsigned s = 0; s < 3; s++) {
			struct proto_plan pl;

			slave_plan(&f, 0, hd, s, 3, &pl);
			assert_dbl(pl.iorate, c->rate[s]);
			for (uint32_t k = 0; k < pl.nstreams; k++)
				assert_dbl(pl.streams[k].skew, c->skew[s][k]);
			sum += pl.iorate;
			want += c->rate[s];
			plan_free(&pl);
		}
		assert_dbl(sum, want);
		unload(&f);
	}
}

/*
 * Vdbench's split of an rd's rate among its wds (HandleSkew,
 * WG_entry.wg_set_interarrival): fixed rates first, the rest by skew.
 */
struct share_case {
	const char *what;
	size_t n;
	double fixed[4], skew[4], rate;
	double want_rate, want_pct[4];
};

static void test_wd_shares(void **state)
{
	/* clang-format off */
	static const struct share_case cases[] = {
		{ "skews only", 3, { 0 }, { 50, 0, 0 }, 1000,
		  1000, { 50, 25, 25 } },
		{ "no skews: even", 4, { 0 }, { 0 }, 0, 0, { 25, 25, 25, 25 } },
		{ "every wd fixed: their sum", 2, { 100, 300 }, { 0 }, 0,
		  400, { 25, 75 } },
		{ "Vdbench's example: 100 fixed, two share 900", 3,
		  { 100, 0, 0 }, { 0 }, 1000, 1000, { 10, 45, 45 } },
		{ "fixed and skews: the skews split the rest", 3,
		  { 100, 0, 0 }, { 0, 0, 25 }, 1000, 1000, { 10, 67.5, 22.5 } },
		{ "two fixed, one shares", 3, { 50, 150, 0 }, { 0 }, 400,
		  400, { 12.5, 37.5, 50 } },
		{ "rate below the fixed: nothing left (Vdbench: 0)", 2,
		  { 500, 0 }, { 0 }, 400, 400, { 125, 0 } },
	};
	/* clang-format on */
	double pct[4];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct share_case *c = &cases[i];

		print_message("%s\n", c->what);
		assert_dbl(plan_wd_shares(c->n, c->fixed, c->skew, c->rate,
					  pct),
			   c->want_rate);
		for (size_t k = 0; k < c->n; k++)
			assert_dbl(pct[k], c->want_pct[k]);
	}
}

/* Fixed-rate wds beside shared ones (priority=) in the phases and plans. */
static void test_priority_rates(void **state)
{
	/* Each phase's rate, and a wd's share of it: 100 fixed, 2 share. */
	static const struct {
		size_t phase, wd;
		double rate, skew;
	} want[] = {
		{ 0, 0, 1000, 10 },
		{ 0, 1, 1000, 45 },
		{ 1, 0, 2100, 100.0 / 21 },
		{ 1, 2, 2100, 100.0 * 1000 / 2100 },
	};
	struct fixture f;
	struct plan_wd w;
	struct proto_plan pl;

	(void)state;
	load(&f, HCI "wd=w1,sd=sd1,iorate=100,priority=1\n"
		     "wd=w2,sd=sd2,priority=2\nwd=w3,sd=sd2,priority=3\n"
		     "rd=r,wd=w*,iorate=(1000,2100),elapsed=1\n");
	assert_int_equal(f.n, 2);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_dbl(f.ph[want[i].phase].iorate, want[i].rate);
		plan_wd_resolve(f.p, &f.ph[want[i].phase], want[i].wd, &w);
		assert_dbl(w.skew, want[i].skew);
		assert_dbl(w.iorate, want[i].wd ? 0 : 100);
	}
	/* One slave: its rate and the wds' shares of it. */
	slave_plan(&f, 0, NULL, 0, 1, &pl);
	assert_dbl(pl.iorate, 1000);
	assert_int_equal(pl.nstreams, 3);
	assert_dbl(pl.streams[0].skew, 10);
	assert_dbl(pl.streams[1].skew, 45);
	assert_dbl(pl.streams[2].skew, 45);
	plan_free(&pl);
	unload(&f);
}

/*
 * Which openflags= open an sd (SD_entry.openOneSd): the rd's, else a wd's
 * (WG_entry.overrideOpenflags), else the sd's; and the target gets them.
 */
static void test_openflags(void **state)
{
	struct fixture f;
	struct proto_plan pl;
	int from;

	(void)state;
	load(&f, "sd=sd1,lun=/a,openflags=o_direct\n"
		 "sd=sd2,lun=/b,openflags=o_dsync\n"
		 "sd=sd3,lun=/c\n"
		 "wd=w1,sd=(sd1,sd3)\n"
		 "wd=w2,sd=sd2,openflags=o_sync\n"
		 "wd=w3,sd=sd1,openflags=(o_direct,o_sync)\n"
		 "rd=r1,wd=(w1,w2),elapsed=1\n"
		 "rd=r2,wd=(w1,w2,w3),elapsed=1,openflags=o_dsync\n"
		 "rd=r3,wd=(w1,w3),elapsed=1\n");
	assert_int_equal(f.n, 3);
	/* r1: sd1 and sd3 their own, sd2 w2's. */
	assert_int_equal(plan_sd_openflags(f.p, &f.ph[0], 0, &from),
			 PARAMS_O_DIRECT);
	assert_int_equal(from, -1);
	assert_int_equal(plan_sd_openflags(f.p, &f.ph[0], 1, &from),
			 PARAMS_O_SYNC);
	assert_int_equal(from, 1);
	assert_int_equal(plan_sd_openflags(f.p, &f.ph[0], 2, &from), 0);
	assert_int_equal(from, -1);
	/* r2: the rd's for every sd, over the sds' and the wds'. */
	for (unsigned s = 0; s < 3; s++) {
		assert_int_equal(plan_sd_openflags(f.p, &f.ph[1], s, &from),
				 PARAMS_O_DSYNC);
		assert_int_equal(from, -2);
	}
	/* r3: w3's for sd1, for w1's I/O there too (one open per slave). */
	assert_int_equal(plan_sd_openflags(f.p, &f.ph[2], 0, &from),
			 PARAMS_O_DIRECT | PARAMS_O_SYNC);
	assert_int_equal(from, 2);
	slave_plan(&f, 2, NULL, 0, 1, &pl);
	assert_int_equal(pl.ntargets, 2);
	assert_string_equal(pl.targets[0].name, "sd1");
	assert_int_equal(pl.targets[0].openflags,
			 PROTO_O_DIRECT | PROTO_O_SYNC);
	assert_string_equal(pl.targets[1].name, "sd3");
	assert_int_equal(pl.targets[1].openflags, 0);
	plan_free(&pl);
	slave_plan(&f, 1, NULL, 0, 1, &pl);
	for (unsigned t = 0; t < pl.ntargets; t++)
		assert_int_equal(pl.targets[t].openflags, PROTO_O_DSYNC);
	plan_free(&pl);
	unload(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_simple),
		cmocka_unit_test(test_loop_names),
		cmocka_unit_test(test_loop_values),
		cmocka_unit_test(test_skews),
		cmocka_unit_test(test_curve),
		cmocka_unit_test(test_slo_plan),
		cmocka_unit_test(test_curve_rate),
		cmocka_unit_test(test_format_and_pause),
		cmocka_unit_test(test_overrides),
		cmocka_unit_test(test_warmup_steady),
		cmocka_unit_test(test_phase_errors),
		cmocka_unit_test(test_slaves_local),
		cmocka_unit_test(test_slaves_hits),
		cmocka_unit_test(test_slaves_streams),
		cmocka_unit_test(test_slaves_replay),
		cmocka_unit_test(test_slaves_access),
		cmocka_unit_test(test_hits_validate),
		cmocka_unit_test(test_slaves_threads),
		cmocka_unit_test(test_slaves_concat),
		cmocka_unit_test(test_slaves_hosts),
		cmocka_unit_test(test_slaves_sequential),
		cmocka_unit_test(test_slaves_rates),
		cmocka_unit_test(test_wd_shares),
		cmocka_unit_test(test_skew_pairs),
		cmocka_unit_test(test_maxdata_sizes),
		cmocka_unit_test(test_priority_rates),
		cmocka_unit_test(test_openflags),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
