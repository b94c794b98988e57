/*
 * Unit tests of data validation in the planner (master/plan/plan_validate.c):
 * the one-owner cut of an sd among its slaves (every point one owner, the
 * same cut in every phase), what reaches a slave's plan (va, jd, the
 * owner's part of the range, a read-only pass for validate=only), and
 * every file validation cannot keep honest refused with FILE:LINE:COL.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "master/params/params.h"
#include "master/run/master_int.h"
#include "master/plan/plan.h"

#define NAME "v.vdb"

static char err[1024];

static void test_own_cut(void **state)
{
	uint64_t lo, hi, prev_hi;

	(void)state;
	plan_validate_own(0, 1000000000, 0, 1, &lo, &hi);
	assert_int_equal(lo, 0);
	assert_int_equal(hi, 1000000000);
	plan_validate_own(0, 1000000000, 1, 3, &lo, &hi);
	assert_int_equal(lo, 333333333);
	assert_int_equal(hi, 666666666);
	/* Consecutive owners meet exactly: no gap, no overlap, all covered. */
	for (unsigned n = 1; n <= 17; n++) {
		prev_hi = 100;
		for (unsigned k = 0; k < n; k++) {
			plan_validate_own(100, 999999937, k, n, &lo, &hi);
			assert_int_equal(lo, prev_hi);
			assert_true(hi > lo);
			prev_hi = hi;
		}
		assert_int_equal(prev_hi, 999999937);
	}
}

static void test_order(void **state)
{
	const char *names[] = { "local-2", "b", "local-1", "a" };
	int hd[] = { 20, 21, 22, 23 };
	unsigned rank[4];

	(void)state;
	/* Registration order is irrelevant: ranks follow the names. */
	assert_int_equal(plan_validate_order(names, hd, 4, rank), 0);
	assert_int_equal(rank[0], 3);
	assert_int_equal(rank[1], 1);
	assert_int_equal(rank[2], 2);
	assert_int_equal(rank[3], 0);
	/* hd is in rank order: a, b, local-1, local-2. */
	assert_int_equal(hd[0], 23);
	assert_int_equal(hd[1], 21);
	assert_int_equal(hd[2], 22);
	assert_int_equal(hd[3], 20);
}

static void phases(const char *text, struct params **p, struct plan_phase **ph,
		   size_t *n)
{
	int ret = params_parse_string(NAME, text, p, err, sizeof(err));

	if (ret) {
		print_error("parse: %s\n", err);
		fail();
	}
	ret = plan_phases(*p, &(struct plan_overrides){ -1, -1, -1 }, ph, n,
			  err, sizeof(err));
	if (ret) {
		print_error("plan: %s\n", err);
		fail();
	}
}

static void test_plans(void **state)
{
	static const char text[] =
		"validate=yes\njournal=/var/lib/ls\n"
		"sd=sd1,lun=/dev/x,size=1g,threads=4,range=(0,50)\n"
		"wd=wd1,sd=sd1,xfersize=(4k,50,64k,50),rdpct=50,range=(50,100)\n"
		"rd=rd1,wd=wd1,elapsed=2,interval=1\n"
		"rd=rd2,wd=wd1,validate=only\n";
	struct params *p = NULL;
	struct plan_phase *ph = NULL;
	struct proto_plan pl[2];
	size_t n;

	(void)state;
	phases(text, &p, &ph, &n);
	assert_int_equal(n, 2);
	assert_false(ph[0].verify);
	assert_true(ph[1].verify);
	assert_string_equal(ph[1].name, "rd2 validate");
	assert_int_equal(ph[1].kind, PLAN_FORMAT);
	/*
	 * Two slaves: each owns half of the sd's range (0..50%), so in rd1
	 * (the wd's upper half, 25..50%) only the second slave has work.
	 */
	assert_int_equal(plan_for_slave(p, &ph[0], 1, NULL, 0, 2, "null",
					&pl[0], err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "v.vdb:3:1: sd=sd1: with validate=yes"));
	assert_int_equal(plan_for_slave(p, &ph[0], 1, NULL, 1, 2, "null",
					&pl[1], err, sizeof(err)),
			 0);
	assert_int_equal(pl[1].validate, PROTO_VALIDATE_YES);
	assert_string_equal(pl[1].journal, "/var/lib/ls");
	assert_int_equal(pl[1].targets[0].range_lo, 250000000);
	assert_int_equal(pl[1].targets[0].range_hi, 500000000);
	free(pl[1].targets);
	free(pl[1].streams);
	/* The validate pass reads each owner's cut of the whole sd range. */
	for (unsigned s = 0; s < 2; s++) {
		assert_int_equal(plan_for_slave(p, &ph[1], 2, NULL, s, 2,
						"null", &pl[s], err,
						sizeof(err)),
				 0);
		assert_int_equal(pl[s].validate, PROTO_VALIDATE_ONLY);
		assert_int_equal(pl[s].nstreams, 1);
		assert_true(pl[s].streams[0].rdpct == 100);
		assert_int_equal(pl[s].streams[0].eof, 1);
	}
	assert_int_equal(pl[0].targets[0].range_lo, 0);
	assert_int_equal(pl[0].targets[0].range_hi, 250000000);
	assert_int_equal(pl[1].targets[0].range_lo, 250000000);
	assert_int_equal(pl[1].targets[0].range_hi, 500000000);
	for (unsigned s = 0; s < 2; s++) {
		free(pl[s].targets);
		free(pl[s].streams);
	}
	free(ph);
	params_free(&p);
}

static void test_off(void **state)
{
	struct params *p = NULL;
	struct plan_phase *ph = NULL;
	struct proto_plan pl;
	size_t n;

	(void)state;
	phases("sd=sd1,lun=/dev/x,size=1g\nwd=wd1,sd=sd1,xfersize=512\n"
	       "rd=rd1,wd=wd1,elapsed=1,interval=1\n",
	       &p, &ph, &n);
	assert_int_equal(plan_for_slave(p, &ph[0], 1, NULL, 0, 1, "null", &pl,
					err, sizeof(err)),
			 0);
	assert_int_equal(pl.validate, PROTO_VALIDATE_OFF);
	assert_string_equal(pl.journal, "");
	free(pl.targets);
	free(pl.streams);
	free(ph);
	params_free(&p);
}

/* Duplicates written in whole dedup units validate: the plan is made. */
static void test_dedup_ok(void **state)
{
	struct params *p = NULL;
	struct plan_phase *ph = NULL;
	struct proto_plan pl;
	size_t n;

	(void)state;
	phases("validate=yes\ndedupratio=2\ndedupunit=16k\n"
	       "formatxfersize=64k\nsd=sd1,lun=/dev/x,size=1g,offset=32k\n"
	       "wd=wd1,sd=sd1,xfersize=(16k,50,32k,50)\n"
	       "rd=rd1,wd=wd1,format=yes,elapsed=1,interval=1\n",
	       &p, &ph, &n);
	assert_int_equal(plan_for_slave(p, &ph[n - 1], 1, NULL, 0, 1, "null",
					&pl, err, sizeof(err)),
			 0);
	assert_int_equal(pl.validate, PROTO_VALIDATE_YES);
	assert_true(pl.dedupratio == 2);
	assert_int_equal(pl.dedupunit, 16384);
	free(pl.targets);
	free(pl.streams);
	free(ph);
	params_free(&p);
}

static void test_refused(void **state)
{
	/* parse: the parser refuses it, else the planner. */
	static const struct {
		int parse;
		const char *text, *msg;
	} cases[] = {
		{ 1,
		  "journal=yes\nsd=sd1,lun=/a\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1\n",
		  "1:9: journal=yes is not an absolute folder (for example journal=/var/lib/lockstep/journal)" },
		{ 1,
		  "sd=sd1,lun=/a,journal=/tmp\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1\n",
		  "1:15: journal= is not supported: give journal=DIR among the general parameters" },
		{ 1,
		  "sd=sd1,lun=/a\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,validate=yes\n",
		  "3:24: validate=yes is not only or no (validate=yes is a general parameter)" },
		{ 0,
		  "journal=/j\nsd=sd1,lun=/x\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1\n",
		  "1:9: journal=/j journals data validation: it needs validate=yes" },
		{ 0,
		  "sd=sd1,lun=/x\nwd=wd1,sd=sd1\nrd=rd1,wd=wd1,validate=only\n",
		  "3:24: rd=rd1: validate=only needs validate=yes, so that every phase that writes keeps the generation map" },
		{ 0,
		  "validate=yes\ndedupratio=2\ndedupunit=6k\nsd=sd1,lun=/x\n"
		  "wd=wd1,sd=sd1,xfersize=12k\nrd=rd1,wd=wd1\n",
		  "1:10: validate=yes with dedupratio=2 needs dedupunit= a multiple of 4k, not 6144 bytes (one generation per 4 KiB block)" },
		{ 0,
		  "validate=yes\ndedupratio=2\nsd=sd1,lun=/x\nwd=wd1,sd=sd1\n"
		  "rd=rd1,wd=wd1\n",
		  "4:1: wd=wd1: xfersize 4096 is not a multiple of dedupunit=131072, as validate=yes with dedupratio=2 needs (every write covers whole dedup units, so that the copies of a unit change together)" },
		{ 0,
		  "validate=yes\ndedupratio=3\ndedupunit=16k\nsd=sd1,lun=/x\n"
		  "wd=wd1,sd=sd1,xfersize=16k\nrd=rd1,wd=wd1,forxfersize=(16k,8k)\n",
		  "6:1: rd=rd1: xfersize 8192 is not a multiple of dedupunit=16384, as validate=yes with dedupratio=3 needs (every write covers whole dedup units, so that the copies of a unit change together)" },
		{ 0,
		  "validate=yes\ndedupratio=2\ndedupunit=16k\n"
		  "sd=sd1,lun=/x,offset=8k\nwd=wd1,sd=sd1,xfersize=16k\n"
		  "rd=rd1,wd=wd1\n",
		  "4:1: sd=sd1: offset= and align= must be multiples of dedupunit=16384, as validate=yes with dedupratio=2 needs (every write covers whole dedup units, so that the copies of a unit change together)" },
		{ 0,
		  "validate=yes\ndedupratio=2\ndedupunit=16k\nformatxfersize=8k\n"
		  "sd=sd1,lun=/x\nwd=wd1,sd=sd1,xfersize=16k\n"
		  "rd=rd1,wd=wd1,format=yes\n",
		  "7:1: rd=rd1: formatxfersize=8192 is not a multiple of dedupunit=16384, as validate=yes with dedupratio=2 needs (every write covers whole dedup units, so that the copies of a unit change together)" },
		{ 0,
		  "validate=yes\nsd=sd1,lun=/x\nsd=sd2,lun=/x\n"
		  "wd=wd1,sd=(sd1,sd2)\nrd=rd1,wd=wd1\n",
		  "3:1: sd=sd2 uses lun /x as sd=sd1 does: validate=yes needs one sd per lun (one owner per block)" },
		{ 0,
		  "validate=yes\nsd=sd1,lun=/x,offset=512\nwd=wd1,sd=sd1\n"
		  "rd=rd1,wd=wd1\n",
		  "2:1: sd=sd1: offset= and align= must be multiples of 4k with validate=yes (one generation per 4 KiB block)" },
		{ 0,
		  "validate=yes\nsd=sd1,lun=/x,align=2k\nwd=wd1,sd=sd1\n"
		  "rd=rd1,wd=wd1\n",
		  "2:1: sd=sd1: offset= and align= must be multiples of 4k with validate=yes (one generation per 4 KiB block)" },
		{ 0,
		  "validate=yes\nsd=sd1,lun=/x\nwd=wd1,sd=sd1,xfersize=(4k,50,6k,50)\n"
		  "rd=rd1,wd=wd1\n",
		  "3:1: wd=wd1: xfersize 6144 is not a multiple of 4k, as validate=yes needs (one generation per 4 KiB block)" },
		{ 0,
		  "validate=yes\nsd=sd1,lun=/x\nwd=wd1,sd=sd1\n"
		  "rd=rd1,wd=wd1,forxfersize=(4k,512)\n",
		  "4:1: rd=rd1: xfersize 512 is not a multiple of 4k, as validate=yes needs (one generation per 4 KiB block)" },
		{ 0,
		  "validate=yes\nformatxfersize=2k\nsd=sd1,lun=/x\nwd=wd1,sd=sd1\n"
		  "rd=rd1,wd=wd1,format=yes\n",
		  "5:1: rd=rd1: formatxfersize=2048 is not a multiple of 4k, as validate=yes needs" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct params *p = NULL;
		struct plan_phase *ph = NULL;
		size_t n = 0;
		char want[512];

		snprintf(want, sizeof(want), NAME ":%s", cases[i].msg);
		assert_int_equal(params_parse_string(NAME, cases[i].text, &p,
						     err, sizeof(err)),
				 cases[i].parse ? -EINVAL : 0);
		if (cases[i].parse) {
			assert_string_equal(err, want);
			continue;
		}
		assert_int_equal(plan_phases(p,
					     &(struct plan_overrides){ -1, -1,
								       -1 },
					     &ph, &n, err, sizeof(err)),
				 -EINVAL);
		assert_string_equal(err, want);
		params_free(&p);
	}
}

/*
 * The master's side of phase_end's per-sd validation counts: each target
 * maps to its sd through the plan the slave was sent, and a target outside
 * that plan is refused with nothing counted.
 */
static void test_val_sds(void **state)
{
	struct params_sd sds[3];
	struct params p = { .nsd = 3, .sd = sds };
	struct run_view m = { .params = &p };
	struct proto_target tg[2];
	struct proto_plan plan = { .ntargets = 2, .targets = tg };
	struct slave_rec s;
	struct run_result r;
	struct proto_val_sd vs[2] = { { 0, 10, 8, 1 }, { 1, 5, 4, 0 } };
	struct proto_phase_end pe = { .val_written = 15,
				      .val_verified = 12,
				      .val_mismatches = 1,
				      .nval_sds = 2,
				      .val_sds = vs };

	(void)state;
	memset(sds, 0, sizeof(sds));
	memset(tg, 0, sizeof(tg));
	memset(&s, 0, sizeof(s));
	memset(&r, 0, sizeof(r));
	strcpy(sds[0].name, "sd1");
	strcpy(sds[1].name, "sd2");
	strcpy(sds[2].name, "sd3");
	/* This slave's plan runs sd3 and sd1, in that order. */
	strcpy(tg[0].name, "sd3");
	strcpy(tg[1].name, "sd1");
	tg[0].threads = 8;
	tg[1].threads = 3;
	assert_int_equal(results_validation_plan(&p, &plan, &s.plan_sd,
						 &s.plan_thr, &s.nplan_sd),
			 0);
	assert_int_equal(s.nplan_sd, 2);
	assert_int_equal(s.plan_sd[0], 2);
	assert_int_equal(s.plan_sd[1], 0);
	assert_int_equal(s.plan_thr[0], 8);
	assert_int_equal(s.plan_thr[1], 3);

	/* Target 2 is not in its plan: refused, nothing counted. */
	vs[1].target = 2;
	assert_int_equal(results_validation_end(&m, &r, &s, &pe, err,
						sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "target 2, but its plan has 2"));
	assert_null(r.val_sd);
	assert_int_equal(r.val[0] + r.val[1] + r.val[2], 0);
	assert_int_equal(s.end_val[0], 0);

	/* Counted at sd3 and sd1; sd2 was not reported. */
	vs[1].target = 1;
	assert_int_equal(results_validation_end(&m, &r, &s, &pe, err,
						sizeof(err)),
			 0);
	assert_non_null(r.val_sd);
	assert_int_equal(r.val_sd[2][0], 10);
	assert_int_equal(r.val_sd[2][1], 8);
	assert_int_equal(r.val_sd[2][2], 1);
	assert_int_equal(r.val_sd[0][0], 5);
	assert_int_equal(r.val_sd[0][1], 4);
	assert_int_equal(r.val_sd[0][2], 0);
	assert_int_equal(r.val_sd[1][3], 0);
	assert_int_equal(r.val_sd[0][3], 1);
	assert_int_equal(r.val[0], 15);
	assert_int_equal(r.val[2], 1);
	assert_int_equal(s.end_val[1], 12);
	/* A second slave's counts for sd1 add up. */
	assert_int_equal(results_validation_end(&m, &r, &s, &pe, err,
						sizeof(err)),
			 0);
	assert_int_equal(r.val_sd[0][0], 10);
	assert_int_equal(r.val_sd[0][3], 2);
	assert_int_equal(r.val[1], 24);
	/* Counts that would wrap the run's are refused, nothing added. */
	pe.val_written = UINT64_MAX - 5;
	vs[0].written = UINT64_MAX - 10;
	assert_int_equal(results_validation_end(&m, &r, &s, &pe, err,
						sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "overflow"));
	assert_int_equal(r.val[0], 30);
	assert_int_equal(r.val_sd[2][0], 20);
	free(r.val_sd);
	free(s.plan_sd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_own_cut),  cmocka_unit_test(test_order),
		cmocka_unit_test(test_plans),    cmocka_unit_test(test_off),
		cmocka_unit_test(test_refused),  cmocka_unit_test(test_val_sds),
		cmocka_unit_test(test_dedup_ok),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
