/*
 * Unit tests for the ev= keyword (master/params/ev.c) and its placement on
 * the plan (master/plan/evplan.c): the issue's syntax parses with every value
 * in place, at= counts from an rd's first measured phase or from a loop or
 * curve phase by its printed name, after= chains give the earliest start,
 * and what is wrong is refused at the value's FILE:LINE:COL.
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

#include "master/plan/evplan.h"
#include "master/params/params.h"
#include "master/plan/plan.h"

#define NAME "t.vdb"
#define HEAD                                           \
	"hd=default,shell=none\nhd=h1\nhd=h2\nhd=h3\n" \
	"sd=sd1,lun=/tmp/x,size=1m\nwd=wd1,sd=sd1\n"
/* Phases: 1 r1 (warmup 10, elapsed 3600), 2 r2 curve=max, 3 r2 curve=50%,
   4 r3 format, 5 r3 xfersize=4k, 6 r3 xfersize=8k. */
#define RDS                                                            \
	"rd=r1,wd=wd1,elapsed=3600,warmup=10,interval=1\n"             \
	"rd=r2,wd=wd1,iorate=curve,curve=(50),elapsed=60,interval=1\n" \
	"rd=r3,wd=wd1,format=yes,forxfersize=(4k,8k),elapsed=30,interval=1\n"

static char err[1024];

/* Parse and place text; returns the evplan_resolve() or parse error. */
static int place(const char *text, struct params **p, struct evplan_ev **ev)
{
	struct plan_overrides ov = { -1, -1, -1 };
	struct plan_phase *ph = NULL;
	size_t n = 0;
	int ret;

	*ev = NULL;
	err[0] = '\0';
	ret = params_parse_string(NAME, text, p, err, sizeof(err));
	if (ret == 0)
		ret = plan_phases(*p, &ov, &ph, &n, err, sizeof(err));
	if (ret == 0)
		ret = evplan_resolve(*p, ph, n, ev, err, sizeof(err));
	free(ph);
	return ret;
}

static void test_issue_syntax(void **state)
{
	const char *text = HEAD RDS
		"ev=poweroff,rd=r1,at=5m,exec=\"ipmitool -H bmc2 power off, now\","
		"host=h1,until=\"ceph health | grep -q HEALTH_OK\",poll=10s,"
		"timeout=1h,expect_loss=(h2,h3),rejoin=yes,baseline=90s,"
		"degrade=80,recover_iops=5,recover_p99=50,recover_n=6\n"
		"ev=poweron,after=poweroff+30m,exec=\"ipmitool power on\","
		"on_fail=abort,ends=poweroff\n";
	struct params *p = NULL;
	struct evplan_ev *ev = NULL;
	const struct params_ev *e;

	(void)state;
	if (place(text, &p, &ev))
		fail_msg("%s", err);
	assert_int_equal(p->nev, 2);
	e = &p->ev[0];
	assert_string_equal(e->name, "poweroff");
	assert_int_equal(e->rd, 0);
	assert_true(e->has_at && !e->has_after);
	assert_true(e->at_s == 300 && !e->at_phase[0]);
	assert_string_equal(e->exec, "ipmitool -H bmc2 power off, now");
	assert_string_equal(e->until, "ceph health | grep -q HEALTH_OK");
	assert_int_equal(e->host, 0);
	assert_true(e->poll_s == 10 && e->timeout_s == 3600);
	assert_true(e->baseline_s == 90);
	assert_true(e->degrade_pct == 80 && e->recover_iops_pct == 5 &&
		    e->recover_p99_pct == 50 && e->recover_n == 6);
	assert_int_equal(e->nloss, 2);
	assert_int_equal(e->loss[0], 1);
	assert_int_equal(e->loss[1], 2);
	assert_true(e->rejoin && !e->abort_on_fail);
	assert_int_equal(e->ends, -1);
	e = &p->ev[1];
	/* ends=: poweron restores poweroff (one story, one window). */
	assert_int_equal(e->ends, 0);
	assert_true(e->has_after && e->after == 0 && e->after_s == 1800);
	/* after= takes its event's rd; defaults for the rest. */
	assert_int_equal(e->rd, 0);
	assert_int_equal(e->host, -1);
	assert_true(e->abort_on_fail && e->poll_s == 10 &&
		    e->baseline_s == 60 && e->timeout_s == 3600);
	assert_true(e->degrade_pct == 90 && e->recover_iops_pct == 10 &&
		    e->recover_p99_pct == 20 && e->recover_n == 10);
	/* On the plan: 10 s of warmup, then 300 s; then 30 min more. */
	assert_int_equal(ev[0].phase, 0);
	assert_true(ev[0].offset_s == 300 && ev[0].earliest_s == 310);
	assert_int_equal(ev[1].phase, -1);
	assert_true(ev[1].offset_s == 1800 && ev[1].earliest_s == 2110);
	free(ev);
	params_free(&p);
}

static void test_phase_names(void **state)
{
	const char *text = HEAD RDS
		"ev=a,rd=r2,at=\"r2 curve=50%\"\n,exec=true\n"
		"ev=b,rd=r3,at=\"r3 xfersize=8k+10s\",exec=true\n"
		"ev=c,rd=r3,at=20,until=true\n"
		"ev=d,rd=r2,after=a+5,exec=true\n";
	struct params *p = NULL;
	struct evplan_ev *ev = NULL;

	(void)state;
	assert_int_equal(place(text, &p, &ev), 0);
	/* r1: 3610 s; r2's max phase 60 s, its 50% point after it. */
	assert_int_equal(ev[0].phase, 2);
	assert_true(ev[0].offset_s == 0 && ev[0].earliest_s == 3670);
	/* A format phase counts no time: r3 xfersize=8k after 4k's 30 s. */
	assert_int_equal(ev[1].phase, 5);
	assert_true(ev[1].offset_s == 10 && ev[1].earliest_s == 3770);
	/* at= an offset: the rd's first measured phase, not its format. */
	assert_int_equal(ev[2].phase, 4);
	assert_true(ev[2].earliest_s == 3750);
	assert_true(ev[3].earliest_s == 3675);
	free(ev);
	params_free(&p);
}

static void test_errors(void **state)
{
	static const struct {
		const char *ev, *msg;
	} cases[] = {
		{ "ev=a,rd=r9,at=1,exec=true",
		  "t.vdb:10:9: rd=r9 refers to an undefined rd" },
		{ "ev=a,rd=r1,at=1h,exec=true",
		  "t.vdb:10:15: ev=a: at=3600s is past the end of rd=r1's measured time (elapsed=3600)" },
		{ "ev=a,rd=r1,at=59m,exec=true\nev=b,after=a+1m,exec=true",
		  "t.vdb:11:12: ev=b: starts 3600s into rd=r1's measured time at the earliest, past its end (elapsed=3600)" },
		{ "ev=a,rd=r2,at=\"r2 curve=70%\",exec=true",
		  "t.vdb:10:15: ev=a: at=r2 curve=70% names no measured phase of rd=r2 (`lockstep check` lists them)" },
		{ "ev=a,rd=r1,at=\"r2 curve=max\",exec=true",
		  "t.vdb:10:15: ev=a: at=r2 curve=max names no measured phase of rd=r1 (`lockstep check` lists them)" },
		{ "ev=a,rd=r2,at=\"r2 curve=max+61s\",exec=true",
		  "t.vdb:10:15: ev=a: at=61s is past the end of phase r2 curve=max's measured time (elapsed=60)" },
		{ "ev=a,after=b,exec=true\nev=b,after=c,exec=true\n"
		  "ev=c,after=b,exec=true",
		  "t.vdb:10:12: ev=a: after=b makes a cycle: the chain of after= never reaches an event with at=" },
		{ "ev=a,after=zz,exec=true",
		  "t.vdb:10:12: after=zz refers to an undefined ev" },
		{ "ev=a,rd=r1,at=1,exec=true,expect_loss=(h1,h4)",
		  "t.vdb:10:43: expect_loss=h4 refers to an undefined hd" },
		{ "ev=a,rd=r1,at=1,exec=true,timeout=soon",
		  "t.vdb:10:35: timeout=soon is not a duration (seconds, or a number with s, m or h)" },
		{ "ev=a,rd=r1,at=1,exec=true,poll=5",
		  "t.vdb:10:27: ev=a: poll= without until= (nothing to poll)" },
		{ "ev=a,rd=r1,at=1,exec=true\nev=a,rd=r1,at=2,exec=true",
		  "t.vdb:11:4: ev=a is already defined at line 10" },
		{ "ev=.a,rd=r1,at=1,exec=true",
		  "t.vdb:10:4: ev=.a: an event name is letters, digits, '-', '_' and '.', not starting with '.'" },
		{ "ev=a,rd=r1,at=1,exec=true,rd=r2",
		  "t.vdb:10:27: rd= is given twice (first at 10:6)" },
		{ "ev=a,rd=r1,at=1,exec=true,degrade=0",
		  "t.vdb:10:35: degrade=0 is out of range 1..100" },
		{ "ev=a,rd=r1,at=1,exec=true,recover_iops=101",
		  "t.vdb:10:40: recover_iops=101 is out of range 0..100" },
		{ "ev=a,rd=r1,at=1,exec=true,recover_p99=100001",
		  "t.vdb:10:39: recover_p99=100001 is out of range 0..100000" },
		{ "ev=a,rd=r1,at=1,exec=true,recover_n=0",
		  "t.vdb:10:37: recover_n=0 is out of range 1..100000" },
		{ "ev=a,rd=r1,at=1,exec=true\nev=b,rd=r1,at=2,exec=true,ends=zz",
		  "t.vdb:11:32: ends=zz refers to an undefined ev" },
		{ "ev=b,rd=r1,at=2,exec=true,ends=b",
		  "t.vdb:10:32: ev=b cannot end itself" },
		{ "ev=a,rd=r1,at=5,exec=true\nev=b,rd=r1,at=2,exec=true,ends=a",
		  "t.vdb:11:32: ev=b: ends=a must start before it (after=a, or an earlier at= into the same phase)" },
		{ "ev=a,rd=r1,at=5,exec=true\nev=b,rd=r2,at=2,exec=true,ends=a",
		  "t.vdb:11:32: ev=b: ends=a is an event of another rd" },
		{ "ev=a,rd=r1,at=1,exec=true\nev=b,after=a,exec=true,ends=a\n"
		  "ev=c,after=b,exec=true,ends=a",
		  "t.vdb:12:29: ev=c: ev=b already ends ev=a" },
		{ "ev=a,rd=r1,at=1,exec=true,bogus=1",
		  "t.vdb:10:27: unknown ev parameter 'bogus'" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[2048];
		struct params *p = NULL;
		struct evplan_ev *ev = NULL;

		snprintf(text, sizeof(text), "%s%s%s\n", HEAD, RDS,
			 cases[i].ev);
		assert_int_equal(place(text, &p, &ev), -EINVAL);
		if (strcmp(err, cases[i].msg))
			fail_msg("case %zu:\n  got  %s\n  want %s", i, err,
				 cases[i].msg);
		free(ev);
		params_free(&p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_issue_syntax),
		cmocka_unit_test(test_phase_names),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
