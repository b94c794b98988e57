/*
 * The file-system size keywords in Vdbench's forms (issue 32): an fsd's
 * totalsize= and workingsetsize= as (size,divisor) and 0
 * (FsdEntry.readParms, FileAnchor.createUsedList), an rd's fortotal= as a
 * percentage of each fsd's own totalsize= and 0 for it, forwss=0
 * (For_loop.forLoopOverrideFwd); the resolution (params_total_pct), the
 * plans' bytes per fsd and the refusals with FILE:LINE:COL.
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
#include "master/plan/plan.h"
#include "proto/proto.h"

#define NAME "fstotal.vdb"
/* 10 files of 4k: a tree of 40960 bytes. */
#define FSD1 "fsd=fsd1,anchor=/mnt/a\n"
#define FWD1 "fwd=fwd1,fsd=fsd1\n"
#define RD1 "rd=rd1,fwd=fwd1\n"

#include "tests/params_test.h"

/* (size,divisor): the size divided, truncated as Vdbench's long division. */
static void test_fsd_divisor(void **state)
{
	struct params *p;

	(void)state;
	p = parse_ok("fsd=fsd1,anchor=/mnt/a,files=200,totalsize=(1m,2),"
		     "wss=(100k,4)\n"
		     "fsd=fsd2,anchor=/mnt/b,totalsize=(1000,3)\n"
		     "fsd=fsd3,anchor=/mnt/c,totalsize=(40k,1),wss=(9999,2)\n"
		     "fwd=fwd1,fsd=fsd*\n" RD1);
	assert_int_equal(p->fsd[0].totalsize, 524288);
	assert_true(p->fsd[0].totalsize_given);
	assert_int_equal(p->fsd[0].wss, 25600);
	assert_int_equal(p->fsd[1].totalsize, 333);
	assert_int_equal(p->fsd[2].totalsize, 40960);
	assert_int_equal(p->fsd[2].wss, 4999);
	params_free(&p);
}

/* 0: no subset (Vdbench's createUsedList and createWorkingSetList). */
static void test_fsd_zero(void **state)
{
	struct params *p;

	(void)state;
	p = parse_ok("fsd=fsd1,anchor=/mnt/a,totalsize=0,wss=0\n" FWD1 RD1);
	assert_int_equal(p->fsd[0].totalsize, 0);
	assert_true(p->fsd[0].totalsize_given);
	assert_int_equal(p->fsd[0].wss, 0);
	params_free(&p);
	p = parse_ok(FSD1 FWD1 RD1);
	assert_false(p->fsd[0].totalsize_given);
	params_free(&p);
	/* fsd=default's totalsize= is every fsd's, as Vdbench's clone. */
	p = parse_ok("fsd=default,totalsize=8k\n" FSD1 FWD1 RD1);
	assert_true(p->fsd[0].totalsize_given);
	assert_int_equal(p->fsd[0].totalsize, 8192);
	params_free(&p);
}

/* N percent of the fsd's totalsize=, in doubles, truncated. */
static void test_total_pct(void **state)
{
	struct params_fsd f = { .name = "f1" };
	char why[256];
	uint64_t b = 7;

	(void)state;
	assert_int_equal(params_total_pct(&f, 50, &b, why, sizeof(why)),
			 -EINVAL);
	assert_string_equal(why,
			    "fortotal=50% is a percentage of the fsd's totalsize=, and fsd=f1 has none (Vdbench's rule)");
	assert_int_equal(b, 7);
	f.totalsize_given = true;
	f.totalsize = 0;
	assert_int_equal(params_total_pct(&f, 50, &b, why, sizeof(why)), 0);
	assert_int_equal(b, 0);
	f.totalsize = 1001;
	assert_int_equal(params_total_pct(&f, 50, &b, why, sizeof(why)), 0);
	assert_int_equal(b, 500);
	f.totalsize = 1000;
	assert_int_equal(params_total_pct(&f, 33, &b, why, sizeof(why)), 0);
	assert_int_equal(b, 330);
	assert_int_equal(params_total_pct(&f, 100, &b, why, sizeof(why)), 0);
	assert_int_equal(b, 1000);
	assert_int_equal(params_total_pct(&f, 250, &b, why, sizeof(why)), 0);
	assert_int_equal(b, 2500);
	f.totalsize = 3 << 20;
	assert_int_equal(params_total_pct(&f, 7, &b, why, sizeof(why)), 0);
	assert_int_equal(b, (uint64_t)((double)(3 << 20) * 7 / 100.));
	f.totalsize = UINT64_MAX / 2;
	assert_int_equal(params_total_pct(&f, 1000, &b, why, sizeof(why)),
			 -EINVAL);
	assert_string_equal(why,
			    "fortotal=1000% of fsd=f1's totalsize=9223372036854775807 is more than 2^64 bytes");
}

/* What the parser refuses, where. */
static void test_errors(void **state)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{ "fsd=fsd1,anchor=/a,totalsize=50%\n" FWD1 RD1,
		  "1:30: totalsize=50%: a percentage is not allowed on an fsd, only as an rd's fortotal= (Vdbench's rule); give bytes" },
		{ "fsd=fsd1,anchor=/a,totalsize=(40k,50%)\n" FWD1 RD1,
		  "1:35: totalsize=50%: a percentage is not allowed on an fsd, only as an rd's fortotal= (Vdbench's rule); give bytes" },
		{ "fsd=fsd1,anchor=/a,wss=10%\n" FWD1 RD1,
		  "1:24: wss=10%: a percentage is not a working set (Vdbench draws no file for it and the run fails); give bytes" },
		{ "fsd=fsd1,anchor=/a,totalsize=(40k,0)\n" FWD1 RD1,
		  "1:35: totalsize=0 is out of range 1..1000000000000000" },
		{ "fsd=fsd1,anchor=/a,totalsize=(40k,1.5)\n" FWD1 RD1,
		  "1:35: totalsize=1.5 is not a whole number" },
		{ "fsd=fsd1,anchor=/a,totalsize=(40k,2,3)\n" FWD1 RD1,
		  "1:30: totalsize= takes one size or Vdbench's (size,divisor)" },
		{ "fsd=fsd1,anchor=/a,totalsize=(1k,2048)\n" FWD1 RD1,
		  "1:34: totalsize=(1k,2048) is 0 bytes, which Vdbench takes as no subset; give 0 for that" },
		{ "fsd=fsd1,anchor=/a,totalsize=(82k,2)\n" FWD1 RD1,
		  "1:31: fsd=fsd1: totalsize=41984 is more than the tree's 40960 bytes (Vdbench's rule)" },
		{ "fsd=fsd1,anchor=/a,totalsize=(16k,2),wss=(24k,2)\n" FWD1 RD1,
		  "1:43: fsd=fsd1: workingsetsize=12288 is more than totalsize=8192 (the working set is drawn from the totalsize= files)" },
		{ "fsd=fsd1,anchor=/a,totalsize=40k\n" FWD1
		  "rd=rd1,fortotal=0%\n",
		  "3:17: fortotal=0%: Vdbench reads 0% as 0, each fsd's own totalsize=; give 0 for that" },
		{ "fsd=fsd1,anchor=/a,totalsize=40k\n" FWD1
		  "rd=rd1,fortotal=(50%,12.5%)\n",
		  "3:22: fortotal=12.5%: give a whole percentage (Vdbench drops the fraction)" },
		{ "fsd=fsd1,anchor=/a,totalsize=40k\n" FWD1
		  "rd=rd1,fortotal=-5%\n",
		  "3:17: fortotal=-5%: a percentage from 1%" },
		{ "fsd=fsd1,anchor=/a,totalsize=40k\n" FWD1
		  "rd=rd1,fortotal=(50%,20k,50%)\n",
		  "3:17: fortotal=(50%,20k,50%) has the value 50% twice" },
		{ FSD1 FWD1 "rd=rd1,fortotal=(1m,50%)\n",
		  "3:8: rd=rd1: fortotal=50% is a percentage of the fsd's totalsize=, and fsd=fsd1 has none (Vdbench's rule)" },
		{ FSD1 "fsd=fsd2,anchor=/b,totalsize=8k\n"
		       "fwd=fwd1,fsd=(fsd2,fsd1)\n"
		       "rd=rd1,totalsize=50%\n",
		  "4:8: rd=rd1: fortotal=50% is a percentage of the fsd's totalsize=, and fsd=fsd1 has none (Vdbench's rule)" },
		{ FSD1 FWD1 "rd=rd1,forwss=10%\n",
		  "3:15: forwss=10%: a percentage is only for fortotal= (Vdbench's For_loop resolves no other); give bytes" },
		{ FSD1 FWD1 "rd=rd1,format=yes,forsizes=(4k,10%)\n",
		  "3:32: forsizes=10%: a percentage is only for fortotal= (Vdbench's For_loop resolves no other); give bytes" },
		{ FSD1 FWD1 "rd=rd1,format=yes,forsizes=0\n",
		  "3:28: forsizes=0: give at least 1 byte" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char msg[512];

		snprintf(msg, sizeof(msg), "%s:%s", NAME, cases[i].msg);
		parse_err(cases[i].text, msg);
	}
}

static struct plan_phase *phases_ok(const struct params *p, size_t *n)
{
	struct plan_phase *ph = NULL;
	int ret = plan_phases(p, NULL, &ph, n, err, sizeof(err));

	if (ret) {
		print_error("plan_phases: %d %s\n", ret, err);
		fail();
	}
	return ph;
}

/* Phase ph's plan for one slave (-EINVAL and err when refused). */
static int plan_one(const struct params *p, const struct plan_phase *ph,
		    struct proto_plan *a)
{
	memset(a, 0, sizeof(*a));
	return plan_fs_for_slave(p, ph, 1, (const int[]){ -1 }, 0, 1, "s",
				 "uring", a, err, sizeof(err));
}

static void plan_free(struct proto_plan *a)
{
	proto_msg_free(&(struct proto_msg){ .type = PROTO_PLAN, .u.plan = *a });
}

/*
 * fortotal=(50%,100%,0,8k) over two fsds of 40k trees: fsd1 totalsize=40k
 * (wss=8k), fsd2 totalsize=(80k,2) (40k) and fsd3 totalsize=(32k,1):
 * each percentage of each fsd's own, 0 each fsd's own, bytes every fsd's.
 * forwss=0 drops fsd1's working set.
 */
static void test_plan_pct(void **state)
{
	struct params *p = parse_ok(
		"fsd=fsd1,anchor=/mnt/a,totalsize=40k,wss=8k\n"
		"fsd=fsd2,anchor=/mnt/b,totalsize=(80k,2)\n"
		"fsd=fsd3,anchor=/mnt/c,totalsize=(32k,1)\n"
		"fwd=w,fsd=fsd*,operation=read\n"
		"rd=t,fwd=w,format=yes,fortotal=(50%,100%,0,8k)\n"
		"rd=u,fwd=w,forwss=(0,4k)\n");
	static const struct {
		const char *name;
		uint64_t ts[3], ws1;
	} want[] = {
		{ "t totalsize=50% format", { 20480, 20480, 16384 }, 8192 },
		{ "t totalsize=50%", { 20480, 20480, 16384 }, 8192 },
		{ "t totalsize=100% format", { 40960, 40960, 32768 }, 8192 },
		{ "t totalsize=100%", { 40960, 40960, 32768 }, 8192 },
		{ "t totalsize=0 format", { 40960, 40960, 32768 }, 8192 },
		{ "t totalsize=0", { 40960, 40960, 32768 }, 8192 },
		{ "t totalsize=8k format", { 8192, 8192, 8192 }, 8192 },
		{ "t totalsize=8k", { 8192, 8192, 8192 }, 8192 },
		{ "u wss=0", { 40960, 40960, 32768 }, 0 },
		{ "u wss=4k", { 40960, 40960, 32768 }, 4096 },
	};
	struct plan_phase *ph;
	struct proto_plan a;
	size_t n;

	(void)state;
	ph = phases_ok(p, &n);
	assert_int_equal(n, sizeof(want) / sizeof(want[0]));
	for (size_t k = 0; k < n; k++) {
		assert_string_equal(ph[k].name, want[k].name);
		assert_int_equal(plan_one(p, &ph[k], &a), 0);
		assert_int_equal(a.nfsds, 3);
		for (unsigned f = 0; f < 3; f++)
			assert_int_equal(a.fsds[f].totalsize, want[k].ts[f]);
		assert_int_equal(a.fsds[0].wss, want[k].ws1);
		plan_free(&a);
	}
	free(ph);
	params_free(&p);
}

/*
 * Beyond 100%: Vdbench's only bound is the tree (createUsedList), so
 * 200% of a half tree runs and 150% of a whole one is refused at the
 * loop; a share below the fsd's workingsetsize= is refused too
 * (createWorkingSetList's rule).
 */
static void test_plan_pct_bounds(void **state)
{
	struct params *p = parse_ok(
		"fsd=fsd1,anchor=/mnt/a,totalsize=20k\n"
		"fsd=fsd2,anchor=/mnt/b,totalsize=40k,wss=16k\n"
		"fwd=w1,fsd=fsd1\nfwd=w2,fsd=fsd2\n"
		"rd=h,fwd=w1,fortotal=200%\n"
		"rd=o,fwd=w2,fortotal=150%\n"
		"rd=s,fwd=w2,fortotal=(50%,25%)\n");
	struct plan_phase *ph;
	struct proto_plan a;
	size_t n;

	(void)state;
	ph = phases_ok(p, &n);
	assert_int_equal(n, 4);
	assert_int_equal(plan_one(p, &ph[0], &a), 0);
	assert_int_equal(a.fsds[0].totalsize, 40960);
	plan_free(&a);
	assert_int_equal(plan_one(p, &ph[1], &a), -EINVAL);
	assert_string_equal(err, NAME
			    ":6:13: o totalsize=150%: fsd=fsd2: totalsize=61440 and workingsetsize=16384 must be within the tree's 40960 bytes, the working set within totalsize= (Vdbench's rule)");
	assert_int_equal(plan_one(p, &ph[2], &a), 0);
	assert_int_equal(a.fsds[0].totalsize, 20480);
	assert_int_equal(a.fsds[0].wss, 16384);
	plan_free(&a);
	assert_int_equal(plan_one(p, &ph[3], &a), -EINVAL);
	assert_string_equal(err, NAME
			    ":7:13: s totalsize=25%: fsd=fsd2: totalsize=10240 and workingsetsize=16384 must be within the tree's 40960 bytes, the working set within totalsize= (Vdbench's rule)");
	free(ph);
	params_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fsd_divisor),
		cmocka_unit_test(test_fsd_zero),
		cmocka_unit_test(test_total_pct),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_plan_pct),
		cmocka_unit_test(test_plan_pct_bounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
