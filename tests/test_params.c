/*
 * (Over 700 lines on purpose: one binary per module, and the parser has
 * a rule, and so a table row, for every keyword and every error.)
 *
 * Unit tests for the parameter-file parser (master/params/): every keyword
 * lands in its field, defaults and xx=default lines are inherited, the
 * Vdbench layout rules (comments, continuation lines, lists, quoted strings)
 * hold, HCIBench-generated files parse, and every rule that rejects input
 * does so with the exact "NAME:LINE:COLUMN: message" text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "master/params/params.h"

#define NAME "quick.vdb"
#define SD1 "sd=sd1,lun=/dev/x\n"
#define WD1 "wd=wd1,sd=sd1\n"
#define RD1 "rd=rd1,wd=wd1\n"

#include "tests/params_test.h"

/* ---- fields and defaults ---------------------------------------------- */

static void test_defaults(void **state)
{
	struct params *p = parse_ok("sd=sd1,lun=/dev/x\nwd=wd1\nrd=rd1\n");

	(void)state;
	assert_string_equal(p->path, "");
	assert_int_equal(p->data_errors, 50);
	assert_dbl(p->compratio, 1);
	assert_int_equal(p->nhd, 0);
	assert_int_equal(p->nsd, 1);
	assert_string_equal(p->sd[0].name, "sd1");
	assert_string_equal(p->sd[0].lun, "/dev/x");
	assert_int_equal(p->sd[0].size, 0);
	assert_int_equal(p->sd[0].threads, 8);
	assert_int_equal(p->sd[0].openflags, 0);
	assert_dbl(p->sd[0].range_lo, 0);
	assert_dbl(p->sd[0].range_hi, 100);
	assert_int_equal(p->sd[0].pos.line, 1);
	assert_int_equal(p->sd[0].pos.col, 1);
	assert_int_equal(p->sd[0].lun_pos.line, 1);
	assert_int_equal(p->sd[0].lun_pos.col, 12);

	assert_int_equal(p->nwd, 1);
	assert_string_equal(p->wd[0].name, "wd1");
	assert_int_equal(p->wd[0].nsd, 1); /* the only sd */
	assert_int_equal(p->wd[0].sd[0], 0);
	assert_int_equal(p->wd[0].nxfer, 1);
	assert_int_equal(p->wd[0].xfer[0].size, 4096);
	assert_dbl(p->wd[0].xfer[0].pct, 100);
	assert_dbl(p->wd[0].rdpct, 100);
	assert_dbl(p->wd[0].seekpct, 100);
	assert_int_equal(p->wd[0].pos.line, 2);

	assert_int_equal(p->nrd, 1);
	assert_string_equal(p->rd[0].name, "rd1");
	assert_int_equal(p->rd[0].nwd, 1); /* the only wd */
	assert_int_equal(p->rd[0].wd[0], 0);
	assert_dbl(p->rd[0].iorate, 0);
	assert_dbl(p->rd[0].elapsed_s, 30);
	assert_dbl(p->rd[0].warmup_s, 0);
	assert_dbl(p->rd[0].interval_s, 1);
	assert_int_equal(p->rd[0].pos.line, 3);
	params_free(&p);
	assert_null(p);
	params_free(&p);
	params_free(NULL);
}

struct sd_case {
	const char *params;
	uint64_t size;
	unsigned threads, openflags;
	double lo, hi;
};

static void test_sd_keywords(void **state)
{
	static const struct sd_case cases[] = {
		{ "size=10g", 10ull << 30, 8, 0, 0, 100 },
		{ "size=512", 512, 8, 0, 0, 100 },
		{ "size=1.5m", 3ull << 19, 8, 0, 0, 100 },
		{ "size=2T", 2ull << 40, 8, 0, 0, 100 },
		{ "threads=1", 0, 1, 0, 0, 100 },
		{ "threads=64", 0, 64, 0, 0, 100 },
		{ "threads=65536", 0, 65536, 0, 0, 100 },
		{ "openflags=o_direct", 0, 8, PARAMS_O_DIRECT, 0, 100 },
		{ "openflags=directio", 0, 8, PARAMS_O_DIRECT, 0, 100 },
		{ "openflags=O_DIRECT", 0, 8, PARAMS_O_DIRECT, 0, 100 },
		{ "openflags=o_dsync", 0, 8, PARAMS_O_DSYNC, 0, 100 },
		{ "openflags=(o_direct,o_dsync)", 0, 8,
		  PARAMS_O_DIRECT | PARAMS_O_DSYNC, 0, 100 },
		{ "openflags=(o_dsync)", 0, 8, PARAMS_O_DSYNC, 0, 100 },
		{ "openflags=o_sync", 0, 8, PARAMS_O_SYNC, 0, 100 },
		{ "openflags=(directio,O_SYNC)", 0, 8,
		  PARAMS_O_DIRECT | PARAMS_O_SYNC, 0, 100 },
		{ "range=(0,100)", 0, 8, 0, 0, 100 },
		{ "range=(10,20)", 0, 8, 0, 10, 20 },
		{ "range=(0.5,99.5)", 0, 8, 0, 0.5, 99.5 },
		{ "hitarea=0", 0, 8, 0, 0, 100 },
		{ "SIZE=1m,Threads=3", 1 << 20, 3, 0, 0, 100 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct sd_case *c = &cases[i];
		char text[256];
		struct params *p;

		snprintf(text, sizeof(text), "sd=s,lun=/f,%s\nwd=w\nrd=r\n",
			 c->params);
		p = parse_ok(text);
		print_message("sd %s\n", c->params);
		assert_int_equal(p->sd[0].size, c->size);
		assert_int_equal(p->sd[0].threads, c->threads);
		assert_int_equal(p->sd[0].openflags, c->openflags);
		assert_dbl(p->sd[0].range_lo, c->lo);
		assert_dbl(p->sd[0].range_hi, c->hi);
		params_free(&p);
	}
}

struct wd_case {
	const char *params;
	size_t nxfer;
	struct params_xfer xfer[3];
	double rdpct, seekpct;
};

static void test_wd_keywords(void **state)
{
	static const struct wd_case cases[] = {
		{ "xfersize=4k", 1, { { 4096, 100 } }, 100, 100 },
		{ "xfersize=512", 1, { { 512, 100 } }, 100, 100 },
		{ "xfersize=1m", 1, { { 1 << 20, 100 } }, 100, 100 },
		{ "xfersize=64K", 1, { { 65536, 100 } }, 100, 100 },
		{ "xfersize=(8k)", 1, { { 8192, 100 } }, 100, 100 },
		{ "xfersize=(4k,50,8k,50)",
		  2,
		  { { 4096, 50 }, { 8192, 50 } },
		  100,
		  100 },
		{ "xfersize=(4k,25.5,64k,70,1m,4.5)",
		  3,
		  { { 4096, 25.5 }, { 65536, 70 }, { 1 << 20, 4.5 } },
		  100,
		  100 },
		{ "rdpct=0", 1, { { 4096, 100 } }, 0, 100 },
		{ "rdpct=70", 1, { { 4096, 100 } }, 70, 100 },
		{ "rdpct=33.3", 1, { { 4096, 100 } }, 33.3, 100 },
		{ "seekpct=0", 1, { { 4096, 100 } }, 100, 0 },
		{ "seekpct=42", 1, { { 4096, 100 } }, 100, 42 },
		{ "seekpct=random", 1, { { 4096, 100 } }, 100, 100 },
		{ "seekpct=seq", 1, { { 4096, 100 } }, 100, 0 },
		{ "seekpct=sequential", 1, { { 4096, 100 } }, 100, 0 },
		{ "seekpct=SEQ", 1, { { 4096, 100 } }, 100, 0 },
		{ "rdpct=70,seekpct=100,xfersize=8k",
		  1,
		  { { 8192, 100 } },
		  70,
		  100 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct wd_case *c = &cases[i];
		char text[256];
		struct params *p;

		snprintf(text, sizeof(text), SD1 "wd=w,%s\nrd=r\n", c->params);
		p = parse_ok(text);
		print_message("wd %s\n", c->params);
		assert_int_equal(p->wd[0].nxfer, c->nxfer);
		for (size_t j = 0; j < c->nxfer; j++) {
			assert_int_equal(p->wd[0].xfer[j].size,
					 c->xfer[j].size);
			assert_dbl(p->wd[0].xfer[j].pct, c->xfer[j].pct);
		}
		assert_dbl(p->wd[0].rdpct, c->rdpct);
		assert_dbl(p->wd[0].seekpct, c->seekpct);
		params_free(&p);
	}
}

struct rd_case {
	const char *params;
	double iorate, elapsed, warmup, interval;
};

static void test_rd_keywords(void **state)
{
	static const struct rd_case cases[] = {
		{ "iorate=max", 0, 30, 0, 1 },
		{ "iorate=MAX", 0, 30, 0, 1 },
		{ "iorate=1000", 1000, 30, 0, 1 },
		{ "iorate=0.5", 0.5, 30, 0, 1 },
		{ "elapsed=60", 0, 60, 0, 1 },
		{ "elapsed=90s", 0, 90, 0, 1 },
		{ "elapsed=5m", 0, 300, 0, 1 },
		{ "elapsed=1h,interval=30", 0, 3600, 0, 30 },
		{ "elapsed=3600,warmup=1800,interval=30", 0, 3600, 1800, 30 },
		{ "warmup=10", 0, 30, 10, 1 },
		{ "warmup=0", 0, 30, 0, 1 },
		{ "interval=5", 0, 30, 0, 5 },
		{ "elapsed=1,interval=0.5,warmup=1.5", 0, 1, 1.5, 0.5 },
		{ "elapsed=1m,interval=1m", 0, 60, 0, 60 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct rd_case *c = &cases[i];
		char text[256];
		struct params *p;

		snprintf(text, sizeof(text), SD1 WD1 "rd=r,%s\n", c->params);
		p = parse_ok(text);
		print_message("rd %s\n", c->params);
		assert_dbl(p->rd[0].iorate, c->iorate);
		assert_dbl(p->rd[0].elapsed_s, c->elapsed);
		assert_dbl(p->rd[0].warmup_s, c->warmup);
		assert_dbl(p->rd[0].interval_s, c->interval);
		params_free(&p);
	}
}

/*
 * warmup=steady: the maximum (default 25 rounds) and the round length
 * (default one interval); a number keeps Vdbench's meaning.
 */
static void test_warmup_steady(void **state)
{
	struct params *p = parse_ok(SD1 WD1
				    "rd=a,warmup=steady\n"
				    "rd=b,warmup=(steady,10m)\n"
				    "rd=c,interval=2,warmup=(steady,60,4)\n"
				    "rd=d,warmup=7\n");

	(void)state;
	assert_true(p->rd[0].warmup_steady);
	assert_dbl(p->rd[0].warmup_s, 25);
	assert_dbl(p->rd[0].warmup_round_s, 0);
	assert_true(p->rd[1].warmup_steady);
	assert_dbl(p->rd[1].warmup_s, 600);
	assert_true(p->rd[2].warmup_steady);
	assert_dbl(p->rd[2].warmup_s, 60);
	assert_dbl(p->rd[2].warmup_round_s, 4);
	assert_false(p->rd[3].warmup_steady);
	assert_dbl(p->rd[3].warmup_s, 7);
	params_free(&p);
}

static void test_general(void **state)
{
	struct params *p = parse_ok("debug=86\n"
				    "data_errors=10000\n"
				    "compratio=2.5,dedupratio=2,dedupunit=4k\n"
				    "validate=yes\n" SD1 WD1 RD1);

	(void)state;
	assert_int_equal(p->data_errors, 10000);
	assert_dbl(p->compratio, 2.5);
	params_free(&p);

	p = parse_ok("data_errors=0\n" SD1 WD1 RD1);
	assert_int_equal(p->data_errors, 0);
	params_free(&p);
}

static void test_hd(void **state)
{
	struct params *p = parse_ok(
		"hd=default,user=root,shell=ssh,vdbench=/opt/vdbench\n"
		"hd=hd1,system=node1.example.com\n"
		"hd=hd2,system=10.0.0.2,slaves=4,shell=none,user=bench\n"
		"hd=node3\n" SD1 WD1 RD1);

	(void)state;
	assert_int_equal(p->nhd, 3);
	assert_string_equal(p->hd[0].name, "hd1");
	assert_string_equal(p->hd[0].system, "node1.example.com");
	assert_string_equal(p->hd[0].user, "root");
	assert_int_equal(p->hd[0].shell, PARAMS_SHELL_SSH);
	assert_int_equal(p->hd[0].slaves, 1);
	assert_string_equal(p->hd[0].lockstep, "/opt/vdbench");
	assert_string_equal(p->hd[1].system, "10.0.0.2");
	assert_string_equal(p->hd[1].user, "bench");
	assert_int_equal(p->hd[1].shell, PARAMS_SHELL_NONE);
	assert_int_equal(p->hd[1].slaves, 4);
	assert_string_equal(p->hd[2].system, "node3"); /* from the name */
	assert_int_equal(p->hd[2].pos.line, 4);
	params_free(&p);
}

static void test_general_full(void **state)
{
	struct params *p = parse_ok(SD1 WD1 RD1);

	(void)state;
	assert_dbl(p->dedupratio, 1);
	assert_int_equal(p->dedupunit, 128 * 1024);
	assert_int_equal(p->formatxfersize, 1024 * 1024);
	assert_false(p->validate);
	assert_int_equal(p->nwarn, 0);
	assert_int_equal(p->nfiles, 1);
	assert_string_equal(p->files[0], NAME);
	params_free(&p);

	p = parse_ok("debug=86\ndedupratio=2.5,dedupunit=8k\n"
		     "formatxfersize=256k\nvalidate=yes\n" SD1 WD1 RD1);
	assert_dbl(p->dedupratio, 2.5);
	assert_int_equal(p->dedupunit, 8192);
	assert_int_equal(p->formatxfersize, 256 * 1024);
	assert_true(p->validate);
	assert_int_equal(p->nwarn, 0); /* debug= is accepted quietly */
	params_free(&p);

	p = parse_ok("validate=no\n" SD1 WD1 RD1);
	assert_false(p->validate);
	params_free(&p);
}

static void test_hd_full(void **state)
{
	struct params *p = parse_ok(
		"hd=default,lockstep=/usr/local/bin/lockstep\n"
		"hd=h1,jvms=3,shell=vdbench\n"
		"hd=h2,vdbench=/opt/vdbench\n" SD1 WD1 RD1);

	(void)state;
	assert_string_equal(p->hd[0].lockstep, "/usr/local/bin/lockstep");
	assert_int_equal(p->hd[0].slaves, 3);
	assert_int_equal(p->hd[0].shell, PARAMS_SHELL_NONE);
	assert_string_equal(p->hd[1].lockstep, "/opt/vdbench");
	assert_int_equal(p->hd[1].slaves, 1);
	params_free(&p);
}

struct sd2_case {
	const char *params;
	uint32_t align;
	uint64_t offset;
	bool force;
	size_t nhost;
	unsigned host[2];
};

static void test_sd_more(void **state)
{
	static const struct sd2_case cases[] = {
		{ "align=4k", 4096, 0, false, 0, { 0 } },
		{ "align=512", 512, 0, false, 0, { 0 } },
		{ "offset=1m", 0, 1 << 20, false, 0, { 0 } },
		{ "offset=0", 0, 0, false, 0, { 0 } },
		{ "force=yes", 0, 0, true, 0, { 0 } },
		{ "force=no", 0, 0, false, 0, { 0 } },
		{ "host=h2", 0, 0, false, 1, { 1 } },
		{ "host=(h1,h2)", 0, 0, false, 2, { 0, 1 } },
		{ "host=(other,h1)", 0, 0, false, 2, { 2, 0 } },
		{ "host=h*", 0, 0, false, 2, { 0, 1 } },
		{ "host=*", 0, 0, false, 0, { 0 } },
		{ "hitarea=0,host=other", 0, 0, false, 1, { 2 } },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct sd2_case *c = &cases[i];
		char text[256];
		struct params *p;

		snprintf(text, sizeof(text),
			 "hd=h1\nhd=h2\nhd=other\nsd=s,lun=/f,%s\nwd=w\nrd=r\n",
			 c->params);
		p = parse_ok(text);
		print_message("sd %s\n", c->params);
		assert_int_equal(p->sd[0].align, c->align);
		assert_int_equal(p->sd[0].offset, c->offset);
		assert_int_equal(p->sd[0].force, c->force);
		assert_int_equal(p->sd[0].nhost, c->nhost);
		for (size_t h = 0; h < c->nhost; h++)
			assert_int_equal(p->sd[0].host[h], c->host[h]);
		assert_int_equal(p->nwarn, 0);
		params_free(&p);
	}
	/* Without hd= lines every sd is local. */
	{
		struct params *p = parse_ok(
			"sd=s1,lun=/a,host=localhost\nsd=s2,lun=/b,host=*\n"
			"wd=w,sd=s*\nrd=r\n");

		assert_int_equal(p->sd[0].nhost, 0);
		assert_int_equal(p->sd[1].nhost, 0);
		params_free(&p);
	}
}

struct wd2_case {
	const char *params;
	double seekpct;
	bool eof;
	double lo, hi, skew, iorate;
	size_t nhost;
};

static void test_wd_more(void **state)
{
	static const struct wd2_case cases[] = {
		{ "seekpct=eof", 0, true, 0, 100, 0, 0, 0 },
		{ "seekpct=EOF", 0, true, 0, 100, 0, 0, 0 },
		{ "seekpct=-1", 0, true, 0, 100, 0, 0, 0 },
		{ "seekpct=0", 0, false, 0, 100, 0, 0, 0 },
		{ "range=(10,20)", 100, false, 10, 20, 0, 0, 0 },
		{ "skew=100", 100, false, 0, 100, 100, 0, 0 },
		{ "iorate=500", 100, false, 0, 100, 0, 500, 0 },
		{ "host=h2", 100, false, 0, 100, 0, 0, 1 },
		{ "host=*", 100, false, 0, 100, 0, 0, 0 },
		{ "rhpct=0,whpct=0", 100, false, 0, 100, 0, 0, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct wd2_case *c = &cases[i];
		char text[256];
		struct params *p;

		snprintf(text, sizeof(text),
			 "hd=h1\nhd=h2\n" SD1 "wd=w,%s\nrd=r\n", c->params);
		p = parse_ok(text);
		print_message("wd %s\n", c->params);
		assert_dbl(p->wd[0].seekpct, c->seekpct);
		assert_int_equal(p->wd[0].seek_eof, c->eof);
		assert_dbl(p->wd[0].range_lo, c->lo);
		assert_dbl(p->wd[0].range_hi, c->hi);
		assert_dbl(p->wd[0].skew, c->skew);
		assert_dbl(p->wd[0].iorate, c->iorate);
		assert_int_equal(p->wd[0].nhost, c->nhost);
		params_free(&p);
	}
}

static void test_rd_slo(void **state)
{
	struct params *p = parse_ok(
		SD1 WD1 "rd=r1,iorate=slo,slo=p99:2ms\n"
			"rd=r2,iorate=slo,slo=p99.9:500us,sloprecision=10\n"
			"rd=r3,iorate=slo,slo=mean:1.5s\n"
			"rd=r4\n");

	(void)state;
	assert_int_equal(p->rd[0].iorate_kind, PARAMS_IORATE_SLO);
	assert_dbl(p->rd[0].slo_pct, 99);
	assert_dbl(p->rd[0].slo_ms, 2);
	assert_dbl(p->rd[0].sloprecision_pct, 5); /* the default */
	assert_dbl(p->rd[1].slo_pct, 99.9);
	assert_dbl(p->rd[1].slo_ms, 0.5);
	assert_dbl(p->rd[1].sloprecision_pct, 10);
	assert_dbl(p->rd[2].slo_pct, PARAMS_SLO_MEAN);
	assert_dbl(p->rd[2].slo_ms, 1500);
	assert_int_equal(p->rd[3].iorate_kind, PARAMS_IORATE_MAX);
	assert_dbl(p->rd[3].slo_ms, 0);
	params_free(&p);
}

static void test_rd_more(void **state)
{
	struct params *p = parse_ok(
		SD1 WD1
		"rd=r1\n"
		"rd=r2,iorate=curve,curve=(20,40,100),stopcurve=2.5\n"
		"rd=r3,iorate=(100,200,max),format=yes,distribution=uniform,pause=10\n"
		"rd=r4,foriorate=(100-400,100),format=only,distribution=d\n"
		"rd=r5,iorate=max,format=no,pause=1m\n"
		"rd=r6,iorate=(max)\n");

	(void)state;
	/* Defaults. */
	assert_int_equal(p->rd[0].iorate_kind, PARAMS_IORATE_MAX);
	assert_int_equal(p->rd[0].niorate, 0);
	assert_int_equal(p->rd[0].ncurve, 6);
	assert_dbl(p->rd[0].curve[0], 10);
	assert_dbl(p->rd[0].curve[1], 50);
	assert_dbl(p->rd[0].curve[5], 100);
	assert_dbl(p->rd[0].stopcurve_ms, 0);
	assert_int_equal(p->rd[0].format, PARAMS_FORMAT_NO);
	assert_int_equal(p->rd[0].distribution, PARAMS_DIST_EXPONENTIAL);
	assert_dbl(p->rd[0].pause_s, 0);
	assert_int_equal(p->rd[0].nloop, 0);

	assert_int_equal(p->rd[1].iorate_kind, PARAMS_IORATE_CURVE);
	assert_int_equal(p->rd[1].ncurve, 3);
	assert_dbl(p->rd[1].curve[1], 40);
	assert_dbl(p->rd[1].stopcurve_ms, 2.5);

	assert_int_equal(p->rd[2].iorate_kind, PARAMS_IORATE_FIXED);
	assert_int_equal(p->rd[2].niorate, 3);
	assert_dbl(p->rd[2].iorates[0], 100);
	assert_dbl(p->rd[2].iorates[1], 200);
	assert_dbl(p->rd[2].iorates[2], 0); /* max */
	assert_dbl(p->rd[2].iorate, 100);
	assert_int_equal(p->rd[2].format, PARAMS_FORMAT_YES);
	assert_int_equal(p->rd[2].distribution, PARAMS_DIST_UNIFORM);
	assert_dbl(p->rd[2].pause_s, 10);

	assert_int_equal(p->rd[3].iorate_kind, PARAMS_IORATE_FIXED);
	assert_int_equal(p->rd[3].niorate, 4);
	assert_dbl(p->rd[3].iorates[3], 400);
	assert_int_equal(p->rd[3].format, PARAMS_FORMAT_ONLY);
	assert_int_equal(p->rd[3].distribution, PARAMS_DIST_DETERMINISTIC);

	assert_int_equal(p->rd[4].iorate_kind, PARAMS_IORATE_MAX);
	assert_dbl(p->rd[4].pause_s, 60);
	assert_int_equal(p->rd[5].iorate_kind, PARAMS_IORATE_MAX);
	assert_int_equal(p->rd[5].niorate, 0);
	params_free(&p);
}

struct loop_case {
	const char *params;
	enum params_loop_kind kind;
	size_t n;
	double v[8];
};

static void test_loops(void **state)
{
	static const struct loop_case cases[] = {
		{ "forxfersize=(4k,64k)",
		  PARAMS_LOOP_XFERSIZE,
		  2,
		  { 4096, 65536 } },
		{ "forxfersize=8k", PARAMS_LOOP_XFERSIZE, 1, { 8192 } },
		{ "xfersize=8k", PARAMS_LOOP_XFERSIZE, 1, { 8192 } },
		{ "forxfersize=(4k-16k,4k)",
		  PARAMS_LOOP_XFERSIZE,
		  4,
		  { 4096, 8192, 12288, 16384 } },
		{ "forxfersize=(4k-32k,d)",
		  PARAMS_LOOP_XFERSIZE,
		  4,
		  { 4096, 8192, 16384, 32768 } },
		{ "forxfersize=(32k,4k,d)",
		  PARAMS_LOOP_XFERSIZE,
		  4,
		  { 32768, 16384, 8192, 4096 } },
		{ "forthreads=(1-64,d)",
		  PARAMS_LOOP_THREADS,
		  7,
		  { 1, 2, 4, 8, 16, 32, 64 } },
		{ "forthreads=(64-1,d)",
		  PARAMS_LOOP_THREADS,
		  7,
		  { 64, 32, 16, 8, 4, 2, 1 } },
		{ "threads=(4,8)", PARAMS_LOOP_THREADS, 2, { 4, 8 } },
		{ "forrdpct=(0-100,25)",
		  PARAMS_LOOP_RDPCT,
		  5,
		  { 0, 25, 50, 75, 100 } },
		{ "forrdpct=(10-30,10,70)",
		  PARAMS_LOOP_RDPCT,
		  4,
		  { 10, 20, 30, 70 } },
		{ "rdpct=50", PARAMS_LOOP_RDPCT, 1, { 50 } },
		{ "forseekpct=(eof,random,50,seq)",
		  PARAMS_LOOP_SEEKPCT,
		  4,
		  { PARAMS_SEEK_EOF, 100, 50, 0 } },
		{ "seekpct=(0,100)", PARAMS_LOOP_SEEKPCT, 2, { 0, 100 } },
		{ "forcompratio=(1,2,4.5)",
		  PARAMS_LOOP_COMPRATIO,
		  3,
		  { 1, 2, 4.5 } },
		{ "compratio=(1-3,1)", PARAMS_LOOP_COMPRATIO, 3, { 1, 2, 3 } },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct loop_case *c = &cases[i];
		char text[256];
		struct params *p;

		snprintf(text, sizeof(text), SD1 WD1 "rd=r,%s\n", c->params);
		p = parse_ok(text);
		print_message("rd %s\n", c->params);
		assert_int_equal(p->rd[0].nloop, 1);
		assert_int_equal(p->rd[0].loop[0].kind, c->kind);
		assert_int_equal(p->rd[0].loop[0].n, c->n);
		for (size_t j = 0; j < c->n; j++)
			assert_dbl(p->rd[0].loop[0].val[j], c->v[j]);
		params_free(&p);
	}
}

/* Loops nest in the order given; rd=default's keep their place. */
static void test_loop_order(void **state)
{
	struct params *p = parse_ok(
		SD1 WD1
		"rd=r1,forthreads=(1,2),forxfersize=(4k,8k),forrdpct=50\n"
		"rd=default,forxfersize=(4k,8k)\n"
		"rd=r2,forthreads=(1,2)\n"
		"rd=r3,forthreads=4,forxfersize=16k\n");

	(void)state;
	assert_int_equal(p->rd[0].nloop, 3);
	assert_int_equal(p->rd[0].loop[0].kind, PARAMS_LOOP_THREADS);
	assert_int_equal(p->rd[0].loop[1].kind, PARAMS_LOOP_XFERSIZE);
	assert_int_equal(p->rd[0].loop[2].kind, PARAMS_LOOP_RDPCT);
	assert_int_equal(p->rd[0].loop[0].pos.line, 3);
	assert_int_equal(p->rd[0].loop[0].pos.col, 7);
	assert_int_equal(p->rd[1].nloop, 2);
	assert_int_equal(p->rd[1].loop[0].kind, PARAMS_LOOP_XFERSIZE);
	assert_int_equal(p->rd[1].loop[1].kind, PARAMS_LOOP_THREADS);
	assert_int_equal(p->rd[2].nloop, 2);
	assert_int_equal(p->rd[2].loop[0].kind, PARAMS_LOOP_XFERSIZE);
	assert_int_equal(p->rd[2].loop[0].n, 1);
	assert_dbl(p->rd[2].loop[0].val[0], 16384);
	assert_int_equal(p->rd[2].loop[1].kind, PARAMS_LOOP_THREADS);
	assert_string_equal(params_loop_name(PARAMS_LOOP_SEEKPCT),
			    "forseekpct");
	params_free(&p);
}

struct warn_case {
	const char *text;
	const char *warn; /* the first warning, after "quick.vdb:" */
	size_t n;
};

/* Keywords lockstep skips where that cannot change what is measured. */
/* rhpct=, whpct=, hitarea= (Vdbench's) and random_distribution= (fio's). */
static void test_hits_and_access(void **state)
{
	static const struct {
		const char *wd;
		enum params_access access;
		double arg;
	} forms[] = {
		{ "", PARAMS_ACCESS_UNIFORM, 0 },
		{ ",random_distribution=random", PARAMS_ACCESS_UNIFORM, 0 },
		{ ",random_distribution=uniform", PARAMS_ACCESS_UNIFORM, 0 },
		{ ",random_distribution=zipf:1.2", PARAMS_ACCESS_ZIPF, 1.2 },
		{ ",random_distribution=zipf:0.8", PARAMS_ACCESS_ZIPF, 0.8 },
		{ ",random_distribution=zipf", PARAMS_ACCESS_ZIPF, 1.1 },
		{ ",random_distribution=pareto:0.3", PARAMS_ACCESS_PARETO,
		  0.3 },
		{ ",random_distribution=pareto", PARAMS_ACCESS_PARETO, 0.2 },
		{ ",random_distribution=normal:10", PARAMS_ACCESS_NORMAL, 10 },
		{ ",random_distribution=gauss:100", PARAMS_ACCESS_NORMAL, 100 },
	};
	struct params *p;
	char text[256];

	(void)state;
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		snprintf(text, sizeof(text), SD1 "wd=wd1%s\n" RD1, forms[i].wd);
		p = parse_ok(text);
		assert_int_equal(p->wd[0].access, forms[i].access);
		assert_dbl(p->wd[0].access_arg, forms[i].arg);
		params_free(&p);
	}
	/* Defaults: no hits, a 1m hit area (Vdbench's). */
	p = parse_ok(SD1 WD1 RD1);
	assert_dbl(p->wd[0].rhpct, 0);
	assert_dbl(p->wd[0].whpct, 0);
	assert_int_equal(p->sd[0].hitarea, 1024 * 1024);
	params_free(&p);
	p = parse_ok("sd=sd1,lun=/dev/x,hitarea=4m\n"
		     "wd=wd1,sd=sd1,rhpct=80,whpct=12.5\n"
		     "rd=rd1,wd=wd1,forrhpct=(10,90),whpct=(0,50),"
		     "forhitarea=(64k,2m)\n");
	assert_int_equal(p->sd[0].hitarea, 4 * 1024 * 1024);
	assert_dbl(p->wd[0].rhpct, 80);
	assert_dbl(p->wd[0].whpct, 12.5);
	assert_int_equal(p->rd[0].nloop, 3);
	assert_int_equal(p->rd[0].loop[0].kind, PARAMS_LOOP_RHPCT);
	assert_int_equal(p->rd[0].loop[0].n, 2);
	assert_dbl(p->rd[0].loop[0].val[1], 90);
	assert_int_equal(p->rd[0].loop[1].kind, PARAMS_LOOP_WHPCT);
	assert_dbl(p->rd[0].loop[1].val[1], 50);
	assert_int_equal(p->rd[0].loop[2].kind, PARAMS_LOOP_HITAREA);
	assert_dbl(p->rd[0].loop[2].val[0], 65536);
	params_free(&p);
	/* HCIBench writes hitarea=0: accepted while no wd asks for hits. */
	p = parse_ok("sd=sd1,lun=/dev/x,hitarea=0\n" WD1 RD1);
	assert_int_equal(p->sd[0].hitarea, 0);
	params_free(&p);
}

/* streams=, stride= (wd) and maxdata= (rd), Vdbench's. */
static void test_streams_stride_maxdata(void **state)
{
	struct params *p;

	(void)state;
	p = parse_ok(SD1 WD1 RD1);
	assert_int_equal(p->wd[0].streams, 0);
	assert_int_equal(p->wd[0].stride_max, 0);
	assert_dbl(p->rd[0].maxdata, 0);
	params_free(&p);
	p = parse_ok("sd=sd1,lun=/dev/x,threads=8,size=1g\n"
		     "wd=wd1,sd=sd1,streams=4,seekpct=eof\n"
		     "wd=wd2,sd=sd1,stride=(4k,1m),seekpct=50\n"
		     "rd=rd1,wd=wd1,maxdata=2.5\n"
		     "rd=rd2,wd=wd2,maxdata=10g\n");
	assert_int_equal(p->wd[0].streams, 4);
	assert_true(p->wd[0].seek_eof);
	assert_int_equal(p->wd[1].stride_min, 4096);
	assert_int_equal(p->wd[1].stride_max, 1024 * 1024);
	assert_dbl(p->rd[0].maxdata, 2.5);
	assert_dbl(p->rd[1].maxdata, 10.0 * 1024 * 1024 * 1024);
	assert_int_equal(p->nwarn, 0);
	params_free(&p);
	/* Vdbench makes a stream's every I/O sequential: seekpct= is said
	 * not to apply. */
	p = parse_ok(SD1 "wd=wd1,streams=2,seekpct=100\n" RD1);
	assert_int_equal(p->nwarn, 1);
	assert_non_null(
		strstr(p->warn[0],
		       "2:18: warning: wd=wd1: seekpct= does not apply with streams="));
	params_free(&p);
}

/* concatenatesds=yes and wd threads=, Vdbench's sd concatenation. */
static void test_concat(void **state)
{
	struct params *p;

	(void)state;
	p = parse_ok(SD1 WD1 RD1);
	assert_false(p->concat);
	assert_int_equal(p->wd[0].threads, 0);
	params_free(&p);
	p = parse_ok("concatenatesds=yes\n"
		     "sd=sd1,lun=/dev/x\nsd=sd2,lun=/dev/y\nsd=sd3,lun=/dev/z\n"
		     "wd=wd1,sd=(sd3,sd1),threads=12,range=(10,90)\n"
		     "wd=wd2,sd=sd2,threads=2\nwd=wd3,sd=sd2\n"
		     "rd=rd1,wd=wd1\nrd=rd2,wd=(wd1,wd2)\n"
		     "rd=rd3,wd=wd3,forthreads=(4,8)\n");
	assert_true(p->concat);
	assert_int_equal(p->concat_pos.line, 1);
	/* The order the wd names them in is the concatenation's. */
	assert_int_equal(p->wd[0].nsd, 2);
	assert_int_equal(p->wd[0].sd[0], 2);
	assert_int_equal(p->wd[0].sd[1], 0);
	assert_int_equal(p->wd[0].threads, 12);
	assert_int_equal(p->wd[0].threads_pos.line, 5);
	assert_int_equal(p->wd[1].threads, 2);
	assert_int_equal(p->wd[2].threads, 0);
	params_free(&p);
	p = parse_ok("concatenatesds=no\n" SD1 WD1 RD1);
	assert_false(p->concat);
	params_free(&p);
}

/* openflags= on wds and rds, and priority=, as parsed (Vdbench's names). */
static void test_wd_rd_openflags_priority(void **state)
{
	struct params *p = parse_ok(
		"sd=sd1,lun=/a,openflags=o_direct\n"
		"sd=sd2,lun=/b\n"
		"wd=default,priority=2\n"
		"wd=w1,sd=sd1,openflags=(directio,o_sync),iorate=50,priority=1\n"
		"wd=w2,sd=sd2\n"
		"rd=r1,wd=(w1,w2),iorate=100,openflags=o_dsync\n"
		"rd=r2,wd=w1\n");

	(void)state;
	assert_true(p->wd[0].openflags_set);
	assert_int_equal(p->wd[0].openflags, PARAMS_O_DIRECT | PARAMS_O_SYNC);
	assert_int_equal(p->wd[0].priority, 1);
	assert_int_equal(p->wd[0].openflags_pos.line, 4);
	assert_false(p->wd[1].openflags_set);
	assert_int_equal(p->wd[1].priority, 2); /* from wd=default */
	assert_true(p->rd[0].openflags_set);
	assert_int_equal(p->rd[0].openflags, PARAMS_O_DSYNC);
	assert_false(p->rd[1].openflags_set);
	assert_int_equal(p->sd[0].openflags, PARAMS_O_DIRECT);
	params_free(&p);
}

static void test_warnings(void **state)
{
	/* clang-format off */
	static const struct warn_case cases[] = {
		{ "messagescan=no\n" SD1 WD1 RD1,
		  "1:1: warning: messagescan= is ignored: lockstep does not scan system logs",
		  1 },
		{ "report=host_detail\nhistogram=(default,1,2)\n" SD1 WD1 RD1,
		  "1:1: warning: report= is ignored: lockstep writes its own reports",
		  2 },
		{ "formatsds=no\n" SD1 WD1 RD1,
		  "1:1: warning: formatsds= is ignored: prime the sds with format=yes on the rd",
		  1 },
		{ "showlba=yes\n" SD1 WD1 RD1,
		  "1:1: warning: showlba= is ignored: lockstep writes no lba trace",
		  1 },
		/* One per rd whose wds have priority=. */
		{ SD1 "wd=w1,priority=2\nwd=w2,priority=1\nrd=r1,wd=w*\n"
		  "rd=r2,wd=w*\n",
		  "3:7: warning: rd=r1: priority= orders Vdbench's queued I/O; lockstep's slaves serve a backlog of I/O in arrival order, whatever the priority of its wd",
		  2 },
	};
	/* clang-format on */
	char want[512];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct params *p = parse_ok(cases[i].text);

		snprintf(want, sizeof(want), NAME ":%s", cases[i].warn);
		assert_int_equal(p->nwarn, cases[i].n);
		assert_string_equal(p->warn[0], want);
		params_free(&p);
	}
}

static char *join(const char *dir, const char *name)
{
	char *s = malloc(strlen(dir) + strlen(name) + 2);

	assert_non_null(s);
	sprintf(s, "%s/%s", dir, name);
	return s;
}

static void put(const char *dir, const char *name, const char *text)
{
	char *path = join(dir, name);
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
	free(path);
}

static void unput(const char *dir, const char *name)
{
	char *path = join(dir, name);

	unlink(path);
	free(path);
}

/* tmpl with @T replaced by trace, @C by col and @V by col + 12. */
static void subst(char *out, size_t len, const char *tmpl, const char *trace,
		  int col)
{
	size_t at = 0;

	for (const char *c = tmpl; *c && at + 1 < len; c++) {
		if (c[0] == '@' &&
		    (c[1] == 'T' || c[1] == 'C' || c[1] == 'V')) {
			int n = c[1] == 'T' ?
					snprintf(out + at, len - at, "%s",
						 trace) :
					snprintf(out + at, len - at, "%d",
						 col + (c[1] == 'V' ? 12 : 0));

			at += n > 0 ? (size_t)n : 0;
			c++;
			continue;
		}
		out[at++] = *c;
	}
	out[at < len ? at : len - 1] = '\0';
}

/* replay=: the trace read, its device mapped, and every refusal. */
static void test_replay(void **state)
{
	char dir[] = "/tmp/test_params_rep.XXXXXX", *main_path, *trace;
	struct params *p = NULL;
	char text[4096], want[2048];
	const struct {
		const char *fmt, *msg;
	} bad[] = {
		{ "sd=sd1,lun=/x\nwd=wd1,replay=@T,rdpct=50\n" RD1,
		  "2:@C: wd=wd1: rdpct= has no meaning with replay= (the trace gives every I/O's offset, size and direction, and its time)" },
		{ "sd=sd1,lun=/x\nwd=wd1,replay=@T,replay_mode=fast\n" RD1,
		  "2:@V: replay_mode=fast: timed (as recorded) or afap (as fast as possible)" },
		{ "validate=yes\nsd=sd1,lun=/x\nwd=wd1,replay=@T,replay_device=/dev/a\n" RD1,
		  "3:8: wd=wd1: replay= with validate=yes is not supported (a trace's blocks are not owned by one slave)" },
		{ "sd=sd1,lun=/x\nsd=sd2,lun=/y\nwd=wd1,sd=sd*,replay=@T\n" RD1,
		  "3:15: wd=wd1: replay= runs on one sd, and it has 2: give each trace device a wd of its own (replay_device=)" },
		{ "sd=sd1,lun=/x\nwd=wd1,replay=@T,replay_device=/dev/a\nrd=rd1,iorate=100\n",
		  "3:8: rd=rd1: wd=wd1 replays a trace, at its recorded times or as fast as possible (replay_mode=): iorate= must be max" },
		{ "sd=sd1,lun=/x\nwd=wd1,replay=@T,replay_device=/dev/a\nrd=rd1,forxfersize=(4k,8k)\n",
		  "3:8: rd=rd1: this for-loop has no meaning with wd=wd1's replay= (the trace gives every I/O): only forthreads= and forcompratio= go with it" },
		{ "sd=sd1,lun=/x\nwd=wd1,replay=@T,replay_device=/dev/a\nwd=wd2\nrd=rd1,wd=(wd1,wd2)\n",
		  "4:1: rd=rd1: wd=wd1 replays a trace, so every wd of the rd must (a generated wd beside it is not supported)" },
		{ "sd=sd1,lun=/x\nwd=wd1,replay=@T,replay_device=/dev/a\nwd=wd2,replay_mode=afap,replay=@T,replay_device=/dev/a\nrd=rd1,wd=(wd1,wd2)\n",
		  "4:1: rd=rd1: wd=wd1 and wd=wd2 both replay on sd=sd1: one trace device per sd" },
		{ "sd=sd1,lun=/x,range=(0,50)\nwd=wd1,replay=@T,replay_device=/dev/a\n" RD1,
		  "2:8: wd=wd1: replay= uses the whole sd, and sd=sd1 has range=(0,50)" },
		{ "sd=sd1,lun=/x,size=64k\nwd=wd1,replay=@T,replay_device=/dev/a\n" RD1,
		  "2:8: wd=wd1: device '/dev/a' of the trace reaches byte 73728, past the end of sd=sd1 (size=65536): use a larger sd (Vdbench's rule)" },
		{ "sd=sd1,lun=/x,openflags=o_direct\nwd=wd1,replay=@T,replay_device=/dev/b\n" RD1,
		  "2:8: wd=wd1: @T:7: a record not in 512-byte units, and sd=sd1 is opened with o_direct" },
		{ "sd=sd1,lun=/x\nwd=wd1,replay=@T,replay_device=/dev/c\n" RD1,
		  "2:@C: wd=wd1: replay_device=/dev/c is not in @T ('/dev/a', '/dev/b')" },
		{ "sd=sd1,lun=/x\nwd=wd1,replay=@T,replay_device=/dev/a\nrd=rd1,maxdata=1m\n",
		  "3:16: rd=rd1: maxdata= with replay= is not supported (a replay ends with its trace)" },
		{ "sd=sd1,lun=/x\nwd=wd1,replay_mode=afap\n" RD1,
		  "2:8: wd=wd1: replay_mode= without replay=" },
	};

	(void)state;
	assert_non_null(mkdtemp(dir));
	put(dir, "t.log",
	    "fio version 3 iolog\n0 /dev/a add\n0 /dev/b add\n"
	    "0 /dev/a open\n0 /dev/b open\n"
	    "3 /dev/a write 65536 8192\n7 /dev/b read 100 512\n"
	    "12 /dev/a read 0 4096\n");
	put(dir, "main.vdb",
	    "sd=sd1,lun=/x\nsd=sd2,lun=/y\n"
	    "wd=wd1,sd=sd1,replay=t.log,replay_device=/dev/a\n"
	    "wd=wd2,sd=sd2,replay=t.log,replay_device=/dev/b\n"
	    "rd=rd1,wd=(wd1,wd2),forthreads=(1,4)\n");
	main_path = join(dir, "main.vdb");
	trace = join(dir, "t.log");
	assert_int_equal(params_parse_file(main_path, &p, err, sizeof(err)), 0);
	assert_string_equal(p->wd[0].replay, trace);
	assert_string_equal(p->wd[0].replay_dev, "/dev/a");
	assert_false(p->wd[0].replay_afap);
	assert_int_equal(p->wd[0].replay_nrec, 2);
	assert_int_equal(p->wd[0].replay_end, 73728);
	assert_int_equal(p->wd[0].replay_maxlen, 8192);
	assert_int_equal(p->wd[0].replay_span_ns, 9000000);
	assert_int_equal(p->wd[0].replay_odd_line, 0);
	assert_int_equal(p->wd[1].replay_nrec, 1);
	assert_int_equal(p->wd[1].replay_odd_line, 7);
	assert_true(p->wd[0].replay_hash == p->wd[1].replay_hash);
	params_free(&p);

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int col = 8 + 7 + (int)strlen(trace) + 1;

		char msg[2048];

		subst(text, sizeof(text), bad[i].fmt, trace, col);
		subst(msg, sizeof(msg), bad[i].msg, trace, col);
		snprintf(want, sizeof(want), "%s:%s", NAME, msg);
		parse_err(text, want);
	}
	/* A trace it cannot read, and one that is not there. */
	put(dir, "bad.log", "fio version 9 iolog\n");
	snprintf(text, sizeof(text),
		 "sd=sd1,lun=/x\nwd=wd1,replay=%s/bad.log\n" RD1, dir);
	snprintf(want, sizeof(want),
		 "%s:2:8: wd=wd1: replay=: %s/bad.log:1: 'fio version 9 iolog': lockstep reads fio iolog versions 2 and 3",
		 NAME, dir);
	parse_err(text, want);
	snprintf(text, sizeof(text),
		 "sd=sd1,lun=/x\nwd=wd1,replay=%s/none.log\n" RD1, dir);
	snprintf(want, sizeof(want),
		 "%s:2:15: replay=%s/none.log: cannot read %s/none.log: No such file or directory",
		 NAME, dir, dir);
	parse_err(text, want);
	unput(dir, "bad.log");
	unput(dir, "t.log");
	unput(dir, "main.vdb");
	rmdir(dir);
	free(main_path);
	free(trace);
}

/* include=FILE: relative to the including file, nested, with errors. */
static void test_include(void **state)
{
	char dir[] = "/tmp/test_params_inc.XXXXXX", *sub, *main_path;
	struct params *p = NULL;
	char want[1024];

	(void)state;
	assert_non_null(mkdtemp(dir));
	sub = join(dir, "sub");
	assert_int_equal(mkdir(sub, 0700), 0);
	put(dir, "main.vdb",
	    "compratio=2\n"
	    "include=sub/sds.vdb\n"
	    "wd=wd1,sd=sd*\n"
	    "   include=rds.vdb   * the runs\n");
	put(sub, "sds.vdb", "sd=sd1,lun=/a\ninclude=more.vdb\n");
	put(sub, "more.vdb", "sd=sd2,lun=/b,\n  threads=3\n");
	put(dir, "rds.vdb", "rd=rd1,wd=wd1\n");
	main_path = join(dir, "main.vdb");
	assert_int_equal(params_parse_file(main_path, &p, err, sizeof(err)), 0);
	assert_dbl(p->compratio, 2);
	assert_int_equal(p->nsd, 2);
	assert_int_equal(p->sd[1].threads, 3);
	assert_int_equal(p->wd[0].nsd, 2);
	assert_int_equal(p->nrd, 1);
	assert_int_equal(p->nfiles, 4);
	assert_string_equal(params_file(p, p->sd[1].pos),
			    p->files[p->sd[1].pos.file]);
	snprintf(want, sizeof(want), "%s/sub/more.vdb", dir);
	assert_string_equal(params_file(p, p->sd[1].pos), want);
	assert_int_equal(p->sd[1].pos.line, 1);
	assert_int_equal(p->wd[0].pos.line, 3);
	assert_int_equal(p->wd[0].pos.file, 0);
	params_free(&p);

	/* An error in an included file names that file. */
	put(sub, "more.vdb", "sd=sd2,lun=/b,thread=3\n");
	assert_int_equal(params_parse_file(main_path, &p, err, sizeof(err)),
			 -EINVAL);
	snprintf(want, sizeof(want),
		 "%s/sub/more.vdb:1:15: unknown sd parameter 'thread' (did you mean 'threads'?)",
		 dir);
	assert_string_equal(err, want);

	/* A missing file, a file including itself. */
	put(sub, "more.vdb", "include=nothere.vdb\n");
	assert_int_equal(params_parse_file(main_path, &p, err, sizeof(err)),
			 -EINVAL);
	snprintf(want, sizeof(want),
		 "%s/sub/more.vdb:1:9: include=nothere.vdb: cannot read %s/sub/nothere.vdb: No such file or directory",
		 dir, dir);
	assert_string_equal(err, want);
	put(sub, "more.vdb", "include=more.vdb\n");
	assert_int_equal(params_parse_file(main_path, &p, err, sizeof(err)),
			 -EINVAL);
	snprintf(want, sizeof(want),
		 "%s/sub/more.vdb:1:1: include= nested more than %d deep (does a file include itself?)",
		 dir, PARAMS_INCLUDE_DEPTH);
	assert_string_equal(err, want);
	assert_null(p);

	/* Fuzzing and other callers can refuse include= altogether. */
	assert_int_equal(params_parse_text(NAME,
					   "include=/etc/passwd\n" SD1 WD1 RD1,
					   PARAMS_NO_INCLUDE, &p, err,
					   sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, NAME ":1:1: include= is not allowed here");

	unput(sub, "more.vdb");
	unput(sub, "sds.vdb");
	unput(dir, "rds.vdb");
	unput(dir, "main.vdb");
	assert_int_equal(rmdir(sub), 0);
	assert_int_equal(rmdir(dir), 0);
	free(sub);
	free(main_path);
}

/*
 * include= of a file that is not a parameter file quotes none of its text:
 * the secret line must appear nowhere in the message, whatever the error.
 */
static void test_include_untrusted(void **state)
{
	static const char *const secrets[] = {
		"root:$6$s3cr3tHash:19000:0:99999:7:::\n",
		"PASSWORD=s3cr3tHash\n",
		"  s3cr3tHash\n",
		"\"s3cr3tHash\n",
		"# a comment first\ntoken=(s3cr3tHash\n",
		"sd=sd9,lun=/c\ns3cr3tHash=1\n",
	};
	char dir[] = "/tmp/test_params_sec.XXXXXX", *main_path;
	struct params *p = NULL;
	char want[1024];

	(void)state;
	assert_non_null(mkdtemp(dir));
	put(dir, "main.vdb", SD1 "include=secret\n" WD1 RD1);
	main_path = join(dir, "main.vdb");
	for (size_t i = 0; i < sizeof(secrets) / sizeof(secrets[0]); i++) {
		put(dir, "secret", secrets[i]);
		assert_int_equal(params_parse_file(main_path, &p, err,
						   sizeof(err)),
				 -EINVAL);
		assert_null(p);
		if (strstr(err, "s3cr3t") && i < 5) {
			print_error("case %zu quotes the file: %s\n", i, err);
			fail();
		}
	}
	/*
	 * The last case started with an sd= line: a parameter file, whose
	 * error may quote it as any other.
	 */
	assert_non_null(strstr(err, "s3cr3tHash"));
	put(dir, "secret", secrets[0]);
	assert_int_equal(params_parse_file(main_path, &p, err, sizeof(err)),
			 -EINVAL);
	snprintf(want, sizeof(want),
		 "%s/secret:1:5: not a parameter file (no line of it so far starts with a parameter); its text is not shown",
		 dir);
	assert_string_equal(err, want);
	unput(dir, "secret");
	unput(dir, "main.vdb");
	assert_int_equal(rmdir(dir), 0);
	free(main_path);
}

/* A FIFO (or any file that is not regular) is refused without blocking. */
static void test_include_fifo(void **state)
{
	char dir[] = "/tmp/test_params_fifo.XXXXXX", *main_path, *fifo;
	struct params *p = NULL;
	char want[1024];

	(void)state;
	assert_non_null(mkdtemp(dir));
	fifo = join(dir, "fifo");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	put(dir, "main.vdb", SD1 "include=fifo\n" WD1 RD1);
	main_path = join(dir, "main.vdb");
	assert_int_equal(params_parse_file(main_path, &p, err, sizeof(err)),
			 -EINVAL);
	snprintf(want, sizeof(want),
		 "%s/main.vdb:2:9: include=fifo: cannot read %s/fifo: not a regular file (a FIFO, device, socket or folder)",
		 dir, dir);
	assert_string_equal(err, want);
	/* As the parameter file itself, and a folder or a device too. */
	assert_int_equal(params_parse_file(fifo, &p, err, sizeof(err)),
			 -ENOTSUP);
	snprintf(want, sizeof(want),
		 "%s: cannot read: not a regular file (a FIFO, device, socket or folder)",
		 fifo);
	assert_string_equal(err, want);
	assert_int_equal(params_parse_file(dir, &p, err, sizeof(err)),
			 -ENOTSUP);
	assert_int_equal(params_parse_file("/dev/zero", &p, err, sizeof(err)),
			 -ENOTSUP);
	assert_null(p);
	unlink(fifo);
	unput(dir, "main.vdb");
	assert_int_equal(rmdir(dir), 0);
	free(main_path);
	free(fifo);
}

/* A UTF-8 byte-order mark at the start of a file (or an include). */
static void test_bom(void **state)
{
	char dir[] = "/tmp/test_params_bom.XXXXXX", *main_path;
	struct params *p;

	(void)state;
	p = parse_ok("\xEF\xBB\xBF" SD1 WD1 RD1);
	assert_int_equal(p->nsd, 1);
	assert_int_equal(p->sd[0].pos.col, 1);
	params_free(&p);
	/* Columns count from after the mark. */
	parse_err("\xEF\xBB\xBFsd=sd1,lun=/a,bogus=1\n" WD1 RD1,
		  NAME ":1:15: unknown sd parameter 'bogus'");
	/* Only at the start: elsewhere it is text like any other. */
	parse_err(SD1 "\xEF\xBB\xBF" WD1 RD1,
		  NAME ":2:1: expected a parameter name");
	assert_non_null(mkdtemp(dir));
	put(dir, "main.vdb", "\xEF\xBB\xBF" SD1 "include=inc.vdb\n" RD1);
	put(dir, "inc.vdb", "\xEF\xBB\xBF" WD1);
	main_path = join(dir, "main.vdb");
	p = NULL;
	assert_int_equal(params_parse_file(main_path, &p, err, sizeof(err)), 0);
	assert_int_equal(p->nwd, 1);
	params_free(&p);
	unput(dir, "inc.vdb");
	unput(dir, "main.vdb");
	assert_int_equal(rmdir(dir), 0);
	free(main_path);
}

/* Interval counts that do not fit are range errors, never wrapped. */
static void test_intervals_range(void **state)
{
	struct params *p;
	char want[512];

	(void)state;
	snprintf(want, sizeof(want),
		 NAME
		 ":3:8: elapsed=4.29497e+09 and warmup=0 are 4294967298 intervals of 1 s: at most %d fit in a run (use a longer interval=)",
		 PARAMS_INTERVALS_MAX);
	parse_err(SD1 WD1 "rd=rd1,elapsed=4294967298,interval=1\n", want);
	snprintf(want, sizeof(want),
		 NAME
		 ":3:8: elapsed=1e+06 and warmup=10 are 1000010 intervals of 1 s: at most %d fit in a run (use a longer interval=)",
		 PARAMS_INTERVALS_MAX);
	parse_err(SD1 WD1 "rd=rd1,elapsed=1000000,warmup=10\n", want);
	/* The most that fits, and a long run at a longer interval. */
	p = parse_ok(SD1 WD1 "rd=rd1,elapsed=1000000,interval=1\n");
	params_free(&p);
	p = parse_ok(SD1 WD1 "rd=rd1,elapsed=4294967298,interval=4294967298\n");
	params_free(&p);
}

/*
 * 100,000 sd= lines parse, and in linear time: a duplicate-name check
 * that walked every earlier sd made this take 81 s (ctest's timeout ends a
 * quadratic parser; no timed assertion here). Duplicates are still found.
 */
static void test_many_sds(void **state)
{
	const size_t n = 100000;
	size_t cap = n * 40 + 64, used = 0;
	char *text = malloc(cap);
	struct params *p;

	(void)state;
	assert_non_null(text);
	for (size_t i = 0; i < n; i++)
		used += (size_t)snprintf(text + used, cap - used,
					 "sd=sd%zu,lun=/dev/x%zu\n", i, i);
	snprintf(text + used, cap - used, "wd=wd1,sd=sd99999\n" RD1);
	p = parse_ok(text);
	assert_int_equal(p->nsd, n);
	assert_string_equal(p->sd[n - 1].name, "sd99999");
	assert_int_equal(p->wd[0].sd[0], n - 1);
	params_free(&p);
	used += (size_t)snprintf(text + used, cap - used, "sd=sd4711,lun=/a\n");
	snprintf(text + used, cap - used, WD1 RD1);
	parse_err(text,
		  NAME ":100001:4: sd=sd4711 is already defined at line 4712");
	free(text);
}

/* A file as HCIBench generates it, at scale: 8 disks, working-set range. */
static void test_hcibench_generated(void **state)
{
	char text[4096];
	size_t n = 0;
	struct params *p;

	(void)state;
	n += (size_t)snprintf(text + n, sizeof(text) - n,
			      "*Auto-generated by HCIBench\n"
			      "*SD:    Storage Definition\n"
			      "*WD:    Workload Definition\n"
			      "*RD:    Run Definitiion\n"
			      "debug=86\n"
			      "data_errors=10000\n");
	for (int i = 1; i <= 8; i++)
		n += (size_t)
			snprintf(text + n, sizeof(text) - n,
				 "sd=sd%d,lun=/dev/sd%c,openflags=o_direct,hitarea=0,range=(0,25),threads=4\n",
				 i, 'a' + i);
	snprintf(text + n, sizeof(text) - n,
		 "wd=wd1,sd=(sd1,sd2,sd3,sd4,sd5,sd6,sd7,sd8),xfersize=256k,rdpct=0,seekpct=0\n"
		 "rd=run1,wd=wd1,iorate=2400,elapsed=900,warmup=300,interval=30\n");
	p = parse_ok(text);
	assert_int_equal(p->nsd, 8);
	assert_int_equal(p->nwarn, 0);
	assert_string_equal(p->sd[7].lun, "/dev/sdi");
	assert_dbl(p->sd[7].range_hi, 25);
	assert_int_equal(p->wd[0].nsd, 8);
	assert_int_equal(p->wd[0].xfer[0].size, 256 * 1024);
	assert_dbl(p->wd[0].seekpct, 0);
	assert_int_equal(p->rd[0].iorate_kind, PARAMS_IORATE_FIXED);
	assert_dbl(p->rd[0].iorate, 2400);
	params_free(&p);
}

/* ---- xx=default ------------------------------------------------------- */

static void test_default_inheritance(void **state)
{
	struct params *p = parse_ok(
		"sd=default,threads=4,openflags=o_direct,size=1g\n"
		"sd=sd1,lun=/dev/sda\n"
		"sd=sd2,lun=/dev/sdb,threads=16\n"
		"sd=default,range=(0,50)\n" /* only for what follows */
		"sd=sd3,lun=/dev/sdc\n"
		"wd=default,xfersize=(4k,50,8k,50),rdpct=70,sd=(sd1,sd2)\n"
		"wd=wd1\n"
		"wd=wd2,xfersize=64k,sd=sd3\n"
		"rd=default,iorate=max,elapsed=60,interval=5\n"
		"rd=rd1,wd=wd1\n"
		"rd=rd2,wd=wd2,elapsed=10\n");

	(void)state;
	assert_int_equal(p->nsd, 3);
	assert_int_equal(p->sd[0].threads, 4);
	assert_int_equal(p->sd[0].openflags, PARAMS_O_DIRECT);
	assert_int_equal(p->sd[0].size, 1ull << 30);
	assert_dbl(p->sd[0].range_hi, 100);
	assert_int_equal(p->sd[1].threads, 16);
	assert_int_equal(p->sd[1].openflags, PARAMS_O_DIRECT);
	assert_int_equal(p->sd[2].threads, 4);
	assert_dbl(p->sd[2].range_hi, 50);
	assert_string_equal(p->sd[2].lun, "/dev/sdc");

	assert_int_equal(p->nwd, 2);
	assert_int_equal(p->wd[0].nxfer, 2);
	assert_dbl(p->wd[0].rdpct, 70);
	assert_int_equal(p->wd[0].nsd, 2);
	assert_int_equal(p->wd[0].sd[1], 1);
	assert_int_equal(p->wd[1].nxfer, 1);
	assert_int_equal(p->wd[1].xfer[0].size, 65536);
	assert_dbl(p->wd[1].rdpct, 70);
	assert_int_equal(p->wd[1].nsd, 1);
	assert_int_equal(p->wd[1].sd[0], 2);

	assert_int_equal(p->nrd, 2);
	assert_dbl(p->rd[0].elapsed_s, 60);
	assert_dbl(p->rd[0].interval_s, 5);
	assert_dbl(p->rd[1].elapsed_s, 10);
	assert_dbl(p->rd[1].interval_s, 5);
	assert_int_equal(p->rd[1].wd[0], 1);
	params_free(&p);
}

/* ---- layout: comments, continuations, lists, quotes ------------------- */

static void test_comments(void **state)
{
	struct params *p = parse_ok(
		"* a comment\n"
		"# another one\n"
		"   * an indented one\n"
		"\n"
		"\t\n"
		"sd=sd1,lun=/dev/x    * lun=/dev/y is faster\n"
		"sd=sd2,lun=/dev/z  comment without a star\n"
		"wd=wd1,sd=sd1,rdpct=50\t# tab then comment\n"
		"*rd=rdx,wd=wd1\n" RD1 "* the end\n");

	(void)state;
	assert_int_equal(p->nsd, 2);
	assert_string_equal(p->sd[0].lun, "/dev/x");
	assert_string_equal(p->sd[1].lun, "/dev/z");
	assert_int_equal(p->sd[1].pos.line, 7);
	assert_dbl(p->wd[0].rdpct, 50);
	assert_int_equal(p->nrd, 1);
	assert_string_equal(p->rd[0].name, "rd1");
	assert_int_equal(p->rd[0].pos.line, 10);
	params_free(&p);
}

static void test_continuation(void **state)
{
	struct params *p = parse_ok(
		"sd=sd1,\n"       /* trailing comma */
		"lun=/dev/sda,\n" /* a starter-less line goes on */
		"   threads=2\n"  /* indented */
		"sd=sd2,lun=/dev/sdb\n"
		"  ,threads=3\n" /* leading comma */
		",size=1m\n"     /* leading comma, no indent */
		"wd=wd1\n"
		"  sd=(sd1,\n"  /* indented sd= is wd's, not new */
		"      sd2),\n" /* a list across lines */
		"  xfersize=(4k,50,\n"
		"* a comment inside a list\n"
		"            8k,50)\n"
		"rd=rd1,wd=wd1\n"
		"elapsed=10\n" /* unindented, not a starter */
		"  interval=5\n");

	(void)state;
	assert_int_equal(p->nsd, 2);
	assert_string_equal(p->sd[0].lun, "/dev/sda");
	assert_int_equal(p->sd[0].threads, 2);
	assert_int_equal(p->sd[0].lun_pos.line, 2);
	assert_int_equal(p->sd[0].lun_pos.col, 5);
	assert_int_equal(p->sd[1].threads, 3);
	assert_int_equal(p->sd[1].size, 1 << 20);
	assert_int_equal(p->nwd, 1);
	assert_int_equal(p->wd[0].nsd, 2);
	assert_int_equal(p->wd[0].nxfer, 2);
	assert_int_equal(p->wd[0].xfer[1].size, 8192);
	assert_int_equal(p->nrd, 1);
	assert_dbl(p->rd[0].elapsed_s, 10);
	assert_dbl(p->rd[0].interval_s, 5);
	params_free(&p);

	/* An indented definition that is not a parameter of the last one. */
	p = parse_ok("  sd=sd1,lun=/a\n  sd=sd2,lun=/b\n  wd=wd1,sd=sd*\n"
		     "  rd=rd1\n");
	assert_int_equal(p->nsd, 2);
	assert_int_equal(p->wd[0].nsd, 2);
	assert_int_equal(p->nrd, 1);
	params_free(&p);
}

static void test_lists_and_wildcards(void **state)
{
	struct params *p = parse_ok("sd=sd1,lun=/a\nsd=sd2,lun=/b\n"
				    "sd=sd10,lun=/c\nsd=other,lun=/d\n"
				    "wd=w1,sd=(sd2,sd1)\n"
				    "wd=w2,sd=sd*\n"
				    "wd=w3,sd=*\n"
				    "wd=w4,sd=(sd1,sd*,sd1)\n" /* each once */
				    "wd=w5,sd=( sd10 , other )\n"
				    "wd=w6,sd=sd?\n"
				    "rd=r1,wd=(w1,w2)\n"
				    "rd=r2,wd=w*\n");

	(void)state;
	assert_int_equal(p->wd[0].nsd, 2);
	assert_int_equal(p->wd[0].sd[0], 1);
	assert_int_equal(p->wd[0].sd[1], 0);
	assert_int_equal(p->wd[1].nsd, 3);
	assert_int_equal(p->wd[1].sd[2], 2);
	assert_int_equal(p->wd[2].nsd, 4);
	assert_int_equal(p->wd[3].nsd, 3);
	assert_int_equal(p->wd[3].sd[0], 0);
	assert_int_equal(p->wd[3].sd[1], 1);
	assert_int_equal(p->wd[3].sd[2], 2);
	assert_int_equal(p->wd[4].nsd, 2);
	assert_int_equal(p->wd[4].sd[0], 2);
	assert_int_equal(p->wd[4].sd[1], 3);
	assert_int_equal(p->wd[5].nsd, 2);
	assert_int_equal(p->rd[0].nwd, 2);
	assert_int_equal(p->rd[1].nwd, 6);
	params_free(&p);
}

static void test_quoted(void **state)
{
	struct params *p = parse_ok(
		"sd=sd1,lun=\"/mnt/my data/file,1\",threads=2\n"
		"sd=\"sd 2\",lun=(\"/a,b\")\n"
		"wd=wd1,sd=(\"sd 2\",sd1)\n" RD1);

	(void)state;
	assert_string_equal(p->sd[0].lun, "/mnt/my data/file,1");
	assert_int_equal(p->sd[0].lun_pos.col, 12);
	assert_int_equal(p->sd[0].threads, 2);
	assert_string_equal(p->sd[1].name, "sd 2");
	assert_string_equal(p->sd[1].lun, "/a,b");
	assert_int_equal(p->wd[0].sd[0], 1);
	params_free(&p);
}

static void test_case(void **state)
{
	struct params *p = parse_ok("SD=Sd1,LUN=/dev/X\nSD=sd1,Lun=/dev/y\n"
				    "Wd=W,Sd=Sd1,RdPct=10\nRD=r\n");

	(void)state;
	assert_int_equal(p->nsd, 2);
	assert_string_equal(p->sd[0].name, "Sd1");
	assert_string_equal(p->sd[0].lun, "/dev/X");
	assert_int_equal(p->wd[0].sd[0], 0);
	params_free(&p);
}

static void test_crlf(void **state)
{
	struct params *p = parse_ok(
		"* windows\r\nsd=sd1,lun=/dev/x,threads=3\r\n"
		"wd=wd1,\r\n  rdpct=5\r\nrd=rd1\r\n");

	(void)state;
	assert_string_equal(p->sd[0].lun, "/dev/x");
	assert_int_equal(p->sd[0].threads, 3);
	assert_dbl(p->wd[0].rdpct, 5);
	params_free(&p);
}

static void test_hcibench(void **state)
{
	struct params *p = parse_ok(
		"*SD:    Storage Definition\n"
		"*WD:    Workload Definition\n"
		"*RD:    Run Definitiion\n"
		"debug=86\n"
		"data_errors=10000\n"
		"sd=sd1,lun=/dev/sda,openflags=o_direct,hitarea=0,range=(0,100),threads=2\n"
		"sd=sd2,lun=/dev/sdb,openflags=o_direct,hitarea=0,range=(0,100),threads=2\n"
		"wd=wd1,sd=(sd1,sd2),xfersize=4k,rdpct=70,seekpct=100\n"
		"rd=run1,wd=wd1,iorate=max,elapsed=3600,warmup=1800,interval=30\n");

	(void)state;
	assert_int_equal(p->data_errors, 10000);
	assert_int_equal(p->nsd, 2);
	assert_string_equal(p->sd[1].lun, "/dev/sdb");
	assert_int_equal(p->sd[1].openflags, PARAMS_O_DIRECT);
	assert_int_equal(p->sd[1].threads, 2);
	assert_int_equal(p->sd[1].pos.line, 7);
	assert_int_equal(p->wd[0].nsd, 2);
	assert_int_equal(p->wd[0].xfer[0].size, 4096);
	assert_dbl(p->wd[0].rdpct, 70);
	assert_dbl(p->wd[0].seekpct, 100);
	assert_string_equal(p->rd[0].name, "run1");
	assert_dbl(p->rd[0].iorate, 0);
	assert_dbl(p->rd[0].elapsed_s, 3600);
	assert_dbl(p->rd[0].warmup_s, 1800);
	assert_dbl(p->rd[0].interval_s, 30);
	params_free(&p);
}

/* Arrays grow past their first allocation. */
static void test_many(void **state)
{
	size_t len = 1 << 20, n = 0;
	char *text = malloc(len);
	struct params *p;

	(void)state;
	assert_non_null(text);
	for (int i = 0; i < 300; i++)
		n += (size_t)snprintf(text + n, len - n,
				      "sd=sd%d,lun=/dev/d%d\n", i, i);
	for (int i = 0; i < 100; i++)
		n += (size_t)snprintf(text + n, len - n, "wd=wd%d,sd=sd%d\n", i,
				      i);
	for (int i = 0; i < 50; i++)
		n += (size_t)snprintf(text + n, len - n, "rd=rd%d,wd=wd%d\n", i,
				      2 * i);
	p = parse_ok(text);
	assert_int_equal(p->nsd, 300);
	assert_string_equal(p->sd[299].lun, "/dev/d299");
	assert_int_equal(p->nwd, 100);
	assert_int_equal(p->wd[99].sd[0], 99);
	assert_int_equal(p->nrd, 50);
	assert_int_equal(p->rd[49].wd[0], 98);
	params_free(&p);
	free(text);
}

/* Names, paths and lists right at their limits, and one past. */
static void test_limits(void **state)
{
	size_t len = 16384, n, wd;
	char *text = malloc(len), *msg = malloc(len);
	char name[PARAMS_NAME_MAX + 1], path[PARAMS_PATH_MAX + 1];
	struct params *p;

	(void)state;
	assert_non_null(text);
	assert_non_null(msg);
	memset(name, 'n', sizeof(name) - 1);
	name[PARAMS_NAME_MAX - 1] = '\0';
	memset(path, 'p', sizeof(path) - 1);
	path[0] = '/';
	path[PARAMS_PATH_MAX - 1] = '\0';
	snprintf(text, len,
		 "sd=%s,lun=%s\n"
		 "wd=wd1\n" RD1,
		 name, path);
	p = parse_ok(text);
	assert_string_equal(p->sd[0].name, name);
	assert_string_equal(p->sd[0].lun, path);
	params_free(&p);

	name[PARAMS_NAME_MAX - 1] = 'n';
	name[PARAMS_NAME_MAX] = '\0';
	snprintf(text, len, "sd=%s,lun=/a\n" RD1, name);
	parse_err(text, NAME ":1:4: sd= name is too long (64 characters, "
			     "at most 63)");
	path[PARAMS_PATH_MAX - 1] = 'p';
	path[PARAMS_PATH_MAX] = '\0';
	snprintf(text, len, "sd=s,lun=%s\n" RD1, path);
	parse_err(text, NAME ":1:10: lun= is too long (1024 characters, at "
			     "most 1023)");

	/* 256 sds in one list is the most a wd can name. */
	n = 0;
	for (int i = 0; i < PARAMS_LIST_MAX + 1; i++)
		n += (size_t)snprintf(text + n, len - n, "sd=s%d,lun=/a\n", i);
	wd = n;
	n += (size_t)snprintf(text + n, len - n, "wd=w,sd=(s0");
	for (int i = 1; i < PARAMS_LIST_MAX; i++)
		n += (size_t)snprintf(text + n, len - n, ",s%d", i);
	snprintf(text + n, len - n, ")\nrd=r\n");
	p = parse_ok(text);
	assert_int_equal(p->wd[0].nsd, PARAMS_LIST_MAX);
	assert_int_equal(p->wd[0].sd[255], 255);
	params_free(&p);

	/* 257 names (",s1".. ",s255", then ",s256"), then 257 through sd*. */
	snprintf(text + n, len - n, ",s256)\nrd=r\n");
	snprintf(msg, len, NAME ":%d:%zu: sd= has more than 256 values",
		 PARAMS_LIST_MAX + 2,
		 strlen("wd=w,sd=(s0") + 3 * 9 + 4 * 90 + 5 * 156 + 2);
	parse_err(text, msg);
	snprintf(text + wd, len - wd, "wd=w,sd=s*\nrd=r\n");
	snprintf(msg, len, NAME ":%d:9: sd= names more than 256 sds",
		 PARAMS_LIST_MAX + 2);
	parse_err(text, msg);
	free(msg);
	free(text);
}

/* ---- errors ----------------------------------------------------------- */

struct err_case {
	const char *text;
	const char *msg;
};

static void test_errors(void **state)
{
	/* clang-format off */
	static const struct err_case cases[] = {
		/* concatenatesds=yes and wd threads= (Vdbench's rules). */
		{ SD1 "wd=wd1,sd=sd1,threads=4\n" RD1,
		  "2:15: wd threads= is only for sd concatenation (concatenatesds=yes, Vdbench's rule): give threads= on the sd= lines" },
		{ "concatenatesds=maybe\n" SD1 WD1 RD1,
		  "1:16: concatenatesds=maybe is not supported (use yes or no)" },
		{ "concatenatesds=yes\nsd=sd1,lun=/dev/x,threads=4\n" WD1 RD1,
		  "2:19: sd threads= is not supported with concatenatesds=yes (Vdbench's rule: give threads= on the wd)" },
		{ "concatenatesds=yes\nsd=sd1,lun=/dev/x,hitarea=1m\n" WD1 RD1,
		  "2:19: sd hitarea= is not supported with concatenatesds=yes" },
		{ "concatenatesds=yes\nsd=sd1,lun=/dev/x,offset=4k\n" WD1 RD1,
		  "2:19: sd offset= is not supported with concatenatesds=yes" },
		{ "concatenatesds=yes\nsd=sd1,lun=/dev/x,range=(0,50)\n" WD1 RD1,
		  "2:19: sd range= is not supported with concatenatesds=yes" },
		{ "concatenatesds=yes\nsd=sd1,lun=/dev/x,align=8k\n" WD1 RD1,
		  "2:19: sd align= is not supported with concatenatesds=yes" },
		{ "concatenatesds=yes\n" SD1 "wd=wd1,sd=sd1,threads=4,rhpct=10\n" RD1,
		  "3:25: wd rhpct= is not supported with concatenatesds=yes" },
		{ "concatenatesds=yes\n" SD1 "wd=wd1,sd=sd1,threads=4,whpct=10\n" RD1,
		  "3:25: wd whpct= is not supported with concatenatesds=yes" },
		{ "concatenatesds=yes\n" SD1 "wd=wd1,sd=sd1,threads=4,hotband=(0,10)\n" RD1,
		  "3:25: wd hotband= is not supported with concatenatesds=yes" },
		{ "concatenatesds=yes\n" SD1 "wd=wd1,sd=sd1,threads=4,random_distribution=zipf\n" RD1,
		  "3:25: wd random_distribution= is not supported with concatenatesds=yes" },
		{ "concatenatesds=yes\n" SD1 "wd=wd1,sd=sd1,threads=4,streams=2\n" RD1,
		  "3:25: wd streams= is not supported with concatenatesds=yes" },
		{ "concatenatesds=yes\n" SD1 "wd=wd1,sd=sd1,threads=4,stride=(4k,8k)\n" RD1,
		  "3:25: wd stride= is not supported with concatenatesds=yes" },
		{ "concatenatesds=yes\n" SD1 "wd=wd1,sd=sd1,threads=0\n" RD1,
		  "3:23: threads=0 is out of range 1..65536" },
		{ "concatenatesds=yes\n" SD1 WD1 RD1,
		  "3:1: wd=wd1: for sd concatenation each wd needs threads= (Vdbench's rule), unless its rd=rd1 gives forthreads=" },
		{ "concatenatesds=yes\n" SD1 "wd=wd1,sd=sd1,threads=2\nrd=rd1,wd=wd1,forrhpct=(10,20)\n",
		  "4:15: rd=rd1: forrhpct= is not supported with concatenatesds=yes" },
		{ "concatenatesds=yes\nsd=sd1,lun=/a\nsd=sd2,lun=/b\n"
		  "wd=wd1,sd=(sd1,sd2),threads=2\nwd=wd2,sd=sd2,threads=2\n"
		  "rd=rd1,wd=(wd1,wd2)\n",
		  "6:8: rd=rd1: sd=sd2 is in the concatenations of wd=wd1 and wd=wd2: lockstep runs an sd in one concatenation per rd" },
		/* Unknown keywords, with and without a suggestion. */
		{ SD1 "wd=wd1,sd=sd1,rdpcnt=50\n" RD1,
		  "2:15: unknown wd parameter 'rdpcnt' (did you mean 'rdpct'?)" },
		{ SD1 "wd=wd1,sd=sd1,RDPCNT=50\n" RD1,
		  "2:15: unknown wd parameter 'RDPCNT' (did you mean 'rdpct'?)" },
		{ "sd=sd1,lun=/dev/x,foo=1\n" RD1,
		  "1:19: unknown sd parameter 'foo'" },
		{ "sd=sd1,lun=/dev/x,thread=1\n" RD1,
		  "1:19: unknown sd parameter 'thread' (did you mean 'threads'?)" },
		{ SD1 WD1 "rd=rd1,wd=wd1,elapse=10\n",
		  "3:15: unknown rd parameter 'elapse' (did you mean 'elapsed'?)" },
		{ "debugg=1\n" SD1 WD1 RD1,
		  "1:1: unknown general parameter 'debugg' (did you mean 'debug'?)" },
		{ "sdd=sd1,lun=/a\n" RD1,
		  "1:1: unknown general parameter 'sdd' (did you mean 'sd'?)" },
		{ "messagescn=no\n" SD1 WD1 RD1,
		  "1:1: unknown general parameter 'messagescn' (did you mean 'messagescan'?)" },
		{ SD1 WD1 RD1 "fwd=fwd1\n",
		  "4:1: fwd=fwd1 must come before the rd= definitions (the order is general, hd, sd, wd, rd)" },
		{ SD1 WD1 RD1 "zork=1\n", "4:1: unknown rd parameter 'zork'" },
		{ "hd=h1,sytem=a\n" SD1 WD1 RD1,
		  "1:7: unknown hd parameter 'sytem' (did you mean 'system'?)" },
		/* Vdbench keywords lockstep does not implement. */
		{ "sd=sd1,lun=/dev/x,count=(0,8)\n" RD1,
		  "1:19: count= is not supported: write one sd= line per lun" },
		/* Cache hits and skewed distributions: their values. */
		{ SD1 "wd=wd1,rhpct=101\n" RD1,
		  "2:14: rhpct=101 is out of range 0..100" },
		{ SD1 "wd=wd1,whpct=100.5\n" RD1,
		  "2:14: whpct=100.5 is out of range 0..100" },
		{ "sd=sd1,lun=/dev/x,hitarea=3k\n" WD1 RD1,
		  "1:27: hitarea=3k is not a multiple of 4k" },
		{ SD1 WD1 "rd=rd1,forhitarea=(1m,6k)\n",
		  "3:23: forhitarea=6k is not a multiple of 4k" },
		{ SD1 WD1 "rd=rd1,forrhpct=(10,120)\n",
		  "3:21: forrhpct=120 is out of range 0..100" },
		{ SD1 "wd=wd1,random_distribution=zipf:1\n" RD1,
		  "2:28: random_distribution=zipf:1: zipf's theta must be more than 0 and not 1" },
		{ SD1 "wd=wd1,random_distribution=zipf:0\n" RD1,
		  "2:28: random_distribution=zipf:0: zipf's theta must be more than 0 and not 1" },
		{ SD1 "wd=wd1,random_distribution=pareto:1.5\n" RD1,
		  "2:28: random_distribution=pareto:1.5: pareto's h must be between 0 and 1" },
		{ SD1 "wd=wd1,random_distribution=normal:0\n" RD1,
		  "2:28: random_distribution=normal:0: normal's sigma is a percentage of the range, more than 0 and at most 100" },
		{ SD1 "wd=wd1,random_distribution=normal\n" RD1,
		  "2:28: random_distribution=normal needs its sigma, such as normal:10" },
		{ SD1 "wd=wd1,random_distribution=zipf:x\n" RD1,
		  "2:28: random_distribution=zipf:x is not random, zipf:THETA, pareto:H, normal:SIGMA or zoned:IO/RANGE:..." },
		{ SD1 "wd=wd1,random_distribution=lognormal:1\n" RD1,
		  "2:28: random_distribution=lognormal:1 is not random, zipf:THETA, pareto:H, normal:SIGMA or zoned:IO/RANGE:..." },
		{ SD1 "wd=wd1,random_distribution=random:1\n" RD1,
		  "2:28: random_distribution=random:1 is not random, zipf:THETA, pareto:H, normal:SIGMA or zoned:IO/RANGE:..." },
		/* fio's zoned distribution. */
		{ SD1 "wd=wd1,random_distribution=zoned:60/10:30/20\n" RD1,
		  "2:28: random_distribution=zoned:60/10:30/20: the zones' shares of the I/O add up to 90 and of the range to 30: fio's zones need 100, and at most 100" },
		{ SD1 "wd=wd1,random_distribution=zoned:60/10:50/20\n" RD1,
		  "2:28: random_distribution=zoned:60/10:50/20: the zones' shares of the I/O add up to 110 and of the range to 30: fio's zones need 100, and at most 100" },
		{ SD1 "wd=wd1,random_distribution=zoned:50/60:50/50\n" RD1,
		  "2:28: random_distribution=zoned:50/60:50/50: the zones' shares of the I/O add up to 100 and of the range to 110: fio's zones need 100, and at most 100" },
		{ SD1 "wd=wd1,random_distribution=zoned:50/10:50/x\n" RD1,
		  "2:40: random_distribution=: zone 2, 50/x, is not IO/RANGE in whole percents 0..100 (RANGE empty or 0: a share of the rest)" },
		{ SD1 "wd=wd1,random_distribution=zoned:50.5/10:49.5/\n" RD1,
		  "2:34: random_distribution=: zone 1, 50.5/10, is not IO/RANGE in whole percents 0..100 (RANGE empty or 0: a share of the rest)" },
		{ SD1 "wd=wd1,random_distribution=zoned:50/10:50/101\n" RD1,
		  "2:40: random_distribution=: zone 2, 50/101, is not IO/RANGE in whole percents 0..100 (RANGE empty or 0: a share of the rest)" },
		{ SD1 "wd=wd1,random_distribution=zoned:/10:100/\n" RD1,
		  "2:34: random_distribution=: zone 1, /10, is not IO/RANGE in whole percents 0..100 (RANGE empty or 0: a share of the rest)" },
		{ SD1 "wd=wd1,random_distribution=zoned:50/100:50/\n" RD1,
		  "2:28: random_distribution=zoned:50/100:50/: zone 2 takes 50% of the I/O and none of the range" },
		{ SD1 "wd=wd1,random_distribution=zoned:\n" RD1,
		  "2:28: random_distribution=zoned: has no zones: zoned:IO/RANGE:..., such as zoned:60/10:30/20:10/" },
		{ SD1 "wd=wd1,random_distribution=zoned\n" RD1,
		  "2:28: random_distribution=zoned: lockstep takes fio's zoned:IO/RANGE:... in percents of the range, not a bare zoned" },
		{ SD1 "wd=wd1,random_distribution=zoned_abs:50/1g:50/\n" RD1,
		  "2:28: random_distribution=zoned_abs:50/1g:50/: lockstep takes fio's zoned:IO/RANGE:... in percents of the range, not zoned_abs's sizes" },
		{ SD1 "wd=wd1,stride=(4k,8k),random_distribution=zoned:100/10\n" RD1,
		  "2:8: wd=wd1: stride= with a skewed random_distribution= is not supported" },
		/* Vdbench's hotband=, and what it does not go with. */
		{ SD1 "wd=wd1,hotband=(20,10)\n" RD1,
		  "2:16: hotband=(20,10): the low end must be below the high end" },
		{ SD1 "wd=wd1,hotband=(90,110)\n" RD1,
		  "2:20: hotband=110 is out of range 0..100" },
		{ SD1 "wd=wd1,hotband=(1g,2g)\n" RD1,
		  "2:17: hotband=1g is not a number" },
		{ SD1 "wd=wd1,hotband=10\n" RD1,
		  "2:16: hotband= needs two values: (low,high)" },
		{ SD1 "wd=wd1,hotband=(10,20),range=(0,50)\n" RD1,
		  "2:24: wd=wd1: hotband= is the wd's range in Vdbench: not with range=" },
		{ SD1 "wd=wd1,hotband=(10,20),random_distribution=zipf\n" RD1,
		  "2:24: wd=wd1: hotband= spreads the I/O by Vdbench's HotBand curve: not with random_distribution=" },
		{ SD1 "wd=wd1,hotband=(10,20),stride=(4k,8k)\n" RD1,
		  "2:8: wd=wd1: hotband= with stride= (Vdbench would ignore it) is not supported" },
		{ SD1 "wd=wd1,hotband=(10,20),streams=2\n" RD1,
		  "2:8: wd=wd1: hotband= with streams= is not supported" },
		{ SD1 "wd=wd1,hotband=(10,20),rhpct=50\n" RD1,
		  "2:8: wd=wd1: hotband= with rhpct= and whpct= (lockstep's hit area is the sd's) is not supported" },
		{ SD1 "wd=wd1,hotband=(10,20),seekpct=eof\n" RD1,
		  "2:8: wd=wd1: hotband= with seekpct=eof (no random I/O) is not supported" },
		{ "sd=sd1,lun=/dev/x,range=(0,50)\nwd=wd1,hotband=(10,20)\n" RD1,
		  "2:8: wd=wd1: hotband= is in percent of the whole sd, replacing its range (Vdbench's rule), and sd=sd1 has range=(0,50): drop one" },
		/* Vdbench's WD_entry: a wd has its own rate or a share, not both. */
		{ SD1 "wd=wd1,iorate=100,skew=50\n" RD1,
		  "2:19: wd=wd1: iorate= and skew= are mutually exclusive (Vdbench's rule)" },
		/* streams=, stride= (wd) and maxdata= (rd), Vdbench's. */
		{ SD1 "wd=wd1,streams=1\n" RD1,
		  "2:16: streams=1: Vdbench's streams= asks for two streams at least" },
		{ SD1 "wd=wd1,streams=2.5\n" RD1,
		  "2:16: streams=2.5 is not a whole number" },
		{ SD1 "wd=wd1,stride=(8k,4k)\n" RD1,
		  "2:19: stride=(8k,4k): the maximum is less than the minimum" },
		{ SD1 "wd=wd1,stride=4k\n" RD1,
		  "2:15: stride= needs two sizes, (MIN,MAX), such as (4k,64k)" },
		{ SD1 "wd=wd1,stride=(1000,4k)\n" RD1,
		  "2:16: stride= value 1000 is not a multiple of 512" },
		{ SD1 "wd=wd1,streams=2,stride=(4k,8k)\n" RD1,
		  "2:18: wd=wd1: stride= skips between random I/Os and streams= makes every I/O sequential: not both" },
		{ SD1 "wd=wd1,seekpct=0,stride=(4k,8k)\n" RD1,
		  "2:18: wd=wd1: stride= sets where seekpct='s random I/Os go, and seekpct=0 gives none" },
		{ SD1 "wd=wd1,seekpct=eof,stride=(4k,8k)\n" RD1,
		  "2:20: wd=wd1: stride= sets where seekpct='s random I/Os go, and seekpct=eof gives none" },
		{ SD1 "wd=wd1,streams=2,rhpct=10\n" RD1,
		  "2:16: wd=wd1: streams= with rhpct= and whpct= is not supported" },
		{ SD1 "wd=wd1,stride=(4k,8k),random_distribution=zipf\n" RD1,
		  "2:8: wd=wd1: stride= with a skewed random_distribution= is not supported" },
		{ "validate=yes\n" SD1 "wd=wd1,streams=2\n" RD1,
		  "3:16: wd=wd1: streams= cuts each sd into streams and validate=yes cuts it among its slaves: not supported together yet" },
		{ SD1 "wd=wd1,streams=2\nwd=wd2,sd=sd1\nrd=rd1,wd=(wd1,wd2)\n",
		  "4:8: rd=rd1: wd=wd1 has streams=, and Vdbench allows only one wd in a run with streams" },
		{ "sd=sd1,lun=/dev/x,threads=6\nwd=wd1,streams=4\n" RD1,
		  "2:16: wd=wd1: streams=4, and sd=sd1 has threads=6, not a multiple of it (Vdbench's rule)" },
		{ SD1 "wd=wd1,streams=4\nrd=rd1,forthreads=(4,6)\n",
		  "3:8: rd=rd1: forthreads= value 6 is not a multiple of wd=wd1's streams=4 (Vdbench's rule)" },
		{ SD1 "wd=wd1,streams=2\nrd=rd1,forseekpct=(0,100)\n",
		  "3:8: rd=rd1: forseekpct= does not apply to wd=wd1, whose streams= make every I/O sequential" },
		{ SD1 WD1 "rd=rd1,maxdata=0\n",
		  "3:16: maxdata=0 must be more than 0 (up to 100: times the sds' size; above: bytes)" },
		{ SD1 WD1 "rd=rd1,maxdata=x\n",
		  "3:16: maxdata=x is not a size (bytes, or a number with k, m, g or t)" },
		{ SD1 WD1 "rd=rd1,sd=sd1\n",
		  "3:8: sd= is not supported: name the sds on the wd= lines" },
		{ "formatsds=yes\n" SD1 WD1 RD1,
		  "1:1: formatsds= is not supported: prime the sds with format=yes on the rd" },
		{ "hd=h1,clients=4\n" SD1 WD1 RD1,
		  "1:7: clients= is not supported: start more slaves with slaves= instead" },
		{ "rg=rg1\n" SD1 WD1 RD1,
		  "1:1: rg= is not supported: Swat replay is not supported" },
		/* Names. */
		{ SD1 "sd=sd1,lun=/b\n" RD1,
		  "2:4: sd=sd1 is already defined at line 1" },
		{ SD1 WD1 RD1 "rd=rd1\n",
		  "4:4: rd=rd1 is already defined at line 3" },
		{ "sd=a/b,lun=/x\n" RD1,
		  "1:4: sd=a/b: a name may not contain '/'" },
		{ "sd=a*,lun=/x\n" RD1,
		  "1:4: sd=a*: a name may not contain '*'" },
		{ "sd=(a,b),lun=/x\n" RD1,
		  "1:4: sd= takes one name, not a list" },
		/* References. */
		{ SD1 "wd=wd1,sd=sdx\n" RD1,
		  "2:11: sd=sdx refers to an undefined sd" },
		{ SD1 "wd=wd1,sd=SD1\n" RD1,
		  "2:11: sd=SD1 refers to an undefined sd" },
		{ SD1 "wd=wd1,sd=(sd1,sd9)\n" RD1,
		  "2:16: sd=sd9 refers to an undefined sd" },
		{ SD1 "wd=wd1,sd=xx*\n" RD1, "2:11: sd=xx* matches no sd" },
		{ SD1 WD1 "rd=rd1,wd=wd2\n",
		  "3:11: wd=wd2 refers to an undefined wd" },
		{ SD1 "wd=wd1\nwd=wd2\nrd=rd1\n",
		  "4:1: rd=rd1 needs wd= to say which of the 2 wds it runs" },
		{ SD1 "rd=rd1\n", "2:1: rd=rd1 needs wd=, and no wd= is defined" },
		{ "sd=sd1,lun=/a\nsd=sd2,lun=/b\nwd=wd1\n" RD1,
		  "3:1: wd=wd1 needs sd= to say which of the 2 sds it uses" },
		{ "wd=wd1\n" RD1, "1:1: wd=wd1 needs sd=, and no sd= is defined" },
		{ "sd=sd1,threads=2\n" RD1, "1:1: sd=sd1 needs lun=" },
		/* Nothing to run. */
		{ SD1 WD1, "2:14: no rd= run definition: nothing to run" },
		{ SD1 WD1 "\n\n  \n", "2:14: no rd= run definition: nothing to run" },
		{ "", "1:1: no rd= run definition: nothing to run" },
		{ "* only a comment\n",
		  "1:17: no rd= run definition: nothing to run" },
		/* Order. */
		{ SD1 WD1 "sd=sd2,lun=/b\n" RD1,
		  "3:1: sd=sd2 must come before the wd= definitions (the order is general, hd, sd, wd, rd)" },
		{ SD1 "debug=1\n" RD1,
		  "2:1: debug=1 must come before the sd= definitions (the order is general, hd, sd, wd, rd)" },
		{ SD1 "hd=h1\n" RD1,
		  "2:1: hd=h1 must come before the sd= definitions (the order is general, hd, sd, wd, rd)" },
		{ SD1 WD1 RD1 "wd=default,rdpct=5\n",
		  "4:1: wd=default must come before the rd= definitions (the order is general, hd, sd, wd, rd)" },
		/* Values out of range or malformed. */
		{ SD1 "wd=wd1,rdpct=150\n" RD1,
		  "2:14: rdpct=150 is out of range 0..100" },
		{ SD1 "wd=wd1,rdpct=-1\n" RD1, "2:14: rdpct=-1 is not a number" },
		{ SD1 "wd=wd1,rdpct=5%\n" RD1, "2:14: rdpct=5% is not a number" },
		{ SD1 "wd=wd1,seekpct=101\n" RD1,
		  "2:16: seekpct=101 is out of range 0..100" },
		{ SD1 "wd=wd1,seekpct=rand\n" RD1,
		  "2:16: seekpct=rand is not a percentage, random, seq, sequential or eof" },
		{ "sd=sd1,lun=/a,threads=0\n" RD1,
		  "1:23: threads=0 is out of range 1..65536" },
		{ "sd=sd1,lun=/a,threads=65537\n" RD1,
		  "1:23: threads=65537 is out of range 1..65536" },
		{ "sd=sd1,lun=/a,threads=2.5\n" RD1,
		  "1:23: threads=2.5 is not a whole number" },
		{ "sd=sd1,lun=/a,threads=abc\n" RD1,
		  "1:23: threads=abc is not a number" },
		{ "sd=sd1,lun=/a,threads=(1,2)\n" RD1,
		  "1:23: threads= takes one value, not a list" },
		{ "sd=sd1,lun=/a,size=10q\n" RD1,
		  "1:20: size=10q is not a size (bytes, or a number with k, m, g or t)" },
		{ "sd=sd1,lun=/a,size=0\n" RD1,
		  "1:20: size=0 must be more than 0" },
		{ "sd=sd1,lun=/a,range=(50,10)\n" RD1,
		  "1:21: range=(50,10): the low end must be below the high end" },
		{ "sd=sd1,lun=/a,range=(5,5)\n" RD1,
		  "1:21: range=(5,5): the low end must be below the high end" },
		{ "sd=sd1,lun=/a,range=(0,101)\n" RD1,
		  "1:24: range=101 is out of range 0..100" },
		{ "sd=sd1,lun=/a,range=50\n" RD1,
		  "1:21: range= needs two values: (low,high)" },
		{ "sd=sd1,lun=/a,openflags=o_rsync\n" RD1,
		  "1:25: openflags=o_rsync is not supported (use o_direct, directio, o_dsync or o_sync)" },
		{ "sd=sd1,lun=/a,openflags=(o_direct,fsync)\n" RD1,
		  "1:35: openflags=fsync is not supported (use o_direct, directio, o_dsync or o_sync)" },
		/* openflags= on a wd and an rd (Vdbench's), and their clash. */
		{ SD1 "wd=wd1,openflags=0x4000\n" RD1,
		  "2:18: openflags=0x4000 is not supported (use o_direct, directio, o_dsync or o_sync)" },
		{ SD1 WD1 "rd=rd1,openflags=(o_sync,nope)\n",
		  "3:26: openflags=nope is not supported (use o_direct, directio, o_dsync or o_sync)" },
		{ SD1 "wd=w1,openflags=o_direct\nwd=w2,openflags=o_sync\n"
		  "rd=r,wd=(w1,w2)\n",
		  "3:7: wd=w2 and wd=w1 of rd=r give sd=sd1 different openflags=, and a slave opens an sd once: give them the same, or openflags= on the sd or the rd" },
		/* priority= (Vdbench's rules, WD_entry.checkPriorities). */
		{ SD1 "wd=wd1,priority=0\n" RD1,
		  "2:17: priority=0 is out of range 1..256" },
		{ SD1 "wd=wd1,priority=1.5\n" RD1,
		  "2:17: priority=1.5 is not a whole number" },
		{ SD1 "wd=w1,iorate=100,skew=50\nwd=w2\nrd=r,wd=w*,iorate=500\n",
		  "2:18: wd=w1: iorate= and skew= are mutually exclusive (Vdbench's rule)" },
		{ SD1 "wd=w1,priority=1\nwd=w2\nrd=r,wd=w*\n",
		  "2:7: rd=r: wd=w1 has priority= and wd=w2 has none: give every wd of the rd a different one (Vdbench's rule)" },
		{ SD1 "wd=w1,priority=1\nwd=w2,priority=1\nrd=r,wd=w*\n",
		  "3:7: wd=w2 has priority=1, as wd=w1 in rd=r: give every wd of the rd a different one (Vdbench's rule)" },
		{ SD1 "wd=w1,priority=1\nwd=w2,priority=3\nrd=r,wd=w*\n",
		  "3:7: wd=w2: priority=3, and rd=r has 2 wds: their priorities are 1 to 2, one each (Vdbench's rule)" },
		{ SD1 "wd=w1,priority=2,iorate=10\nwd=w2,priority=1\n"
		  "rd=r,wd=w*,iorate=100\n",
		  "2:7: wd=w1 has iorate= and priority=2, after wd=w2 without iorate= (priority=1): in rd=r the wds with iorate= come first (Vdbench's rule)" },
		{ SD1 "wd=w1,priority=1,iorate=100\nwd=w2,priority=2\nrd=r,wd=w*\n",
		  "4:1: rd=r: iorate=max beside wd=w1's own iorate= is not supported (lockstep's slaves keep one schedule per worker): give the rd a fixed iorate=" },
		{ SD1 "wd=w1,priority=1,iorate=100\nwd=w2,priority=2\n"
		  "rd=r,wd=w*,iorate=curve\n",
		  "4:12: rd=r: iorate=curve beside wd=w1's own iorate= is not supported (lockstep's slaves keep one schedule per worker): give the rd a fixed iorate=" },
		{ SD1 "wd=w1,priority=1,iorate=100\nwd=w2,priority=2\n"
		  "rd=r,wd=w*,iorate=(500,100)\n",
		  "4:12: rd=r: iorate=100 leaves nothing for wd=w2: its wds with iorate= take 100" },
		{ SD1 "wd=wd1,xfersize=1000\n" RD1,
		  "2:17: xfersize=1000 is not a multiple of 512" },
		{ SD1 "wd=wd1,xfersize=2m\n" RD1,
		  "2:17: xfersize=2m is out of range 512..1m" },
		{ SD1 "wd=wd1,xfersize=256\n" RD1,
		  "2:17: xfersize=256 is out of range 512..1m" },
		{ SD1 "wd=wd1,xfersize=4x\n" RD1,
		  "2:17: xfersize=4x is not a size (bytes, or a number with k, m, g or t)" },
		{ SD1 "wd=wd1,xfersize=(4k,50,8k,40)\n" RD1,
		  "2:17: xfersize=(4k,50,8k,40): the percentages add up to 90, not 100" },
		{ SD1 "wd=wd1,xfersize=(4k,50,8k)\n" RD1,
		  "2:17: xfersize= needs one size or size,percentage pairs such as (4k,50,8k,50)" },
		{ SD1 "wd=wd1,xfersize=(4k,0,8k,100)\n" RD1,
		  "2:21: xfersize= percentage 0 is out of range (0..100]" },
		{ SD1 "wd=wd1,xfersize=(4k,50,1000,50)\n" RD1,
		  "2:24: xfersize=1000 is not a multiple of 512" },
		{ SD1 "wd=wd1,xfersize=(4k,x,8k,50)\n" RD1,
		  "2:21: xfersize=x is not a number" },
		{ SD1 WD1 "rd=rd1,iorate=0\n", "3:15: iorate=0 must be more than 0" },
		{ SD1 WD1 "rd=rd1,iorate=fast\n",
		  "3:15: iorate=fast is not max, curve, slo or a number" },
		{ SD1 WD1 "rd=rd1,elapsed=0\n",
		  "3:16: elapsed=0 must be more than 0 seconds" },
		{ SD1 WD1 "rd=rd1,elapsed=10x\n",
		  "3:16: elapsed=10x is not a duration (seconds, or a number with s, m or h)" },
		{ SD1 WD1 "rd=rd1,interval=0\n",
		  "3:17: interval=0 must be more than 0 seconds" },
		{ SD1 WD1 "rd=rd1,warmup=x\n",
		  "3:15: warmup=x is not a duration (seconds, or a number with s, m or h)" },
		{ SD1 WD1 "rd=rd1,warmup=(steady,x)\n",
		  "3:23: warmup=x is not a duration (seconds, or a number with s, m or h)" },
		{ SD1 WD1 "rd=rd1,warmup=(steady,0)\n",
		  "3:23: warmup=0 must be more than 0 seconds" },
		{ SD1 WD1 "rd=rd1,warmup=(steady,20,2,1)\n",
		  "3:28: warmup=(steady,MAX,ROUND) takes at most a maximum and a round length" },
		{ SD1 WD1 "rd=rd1,warmup=(steady,4)\n",
		  "3:8: warmup=steady: maximum 4 is not a whole number of rounds of 1 s, at least 5 (the rounds steady state is judged over)" },
		{ SD1 WD1 "rd=rd1,warmup=(steady,20,3)\n",
		  "3:8: warmup=steady: maximum 20 is not a whole number of rounds of 3 s, at least 5 (the rounds steady state is judged over)" },
		{ SD1 WD1 "rd=rd1,interval=2,warmup=(steady,20,3)\n",
		  "3:19: warmup=steady: round 3 is not a multiple of interval=2" },
		{ "data_errors=many\n" SD1 WD1 RD1,
		  "1:13: data_errors=many is not a number" },
		{ "compratio=0.5\n" SD1 WD1 RD1,
		  "1:11: compratio=0.5 must be at least 1" },
		{ "hd=h1,shell=rsh\n" SD1 WD1 RD1,
		  "1:13: shell=rsh is not supported (use ssh or none)" },
		{ "hd=h1,slaves=0\n" SD1 WD1 RD1,
		  "1:14: slaves=0 is out of range 1..1024" },
		/* General parameters. */
		{ "validate=time\n" SD1 WD1 RD1,
		  "1:10: validate=time is not supported (use yes or no)" },
		{ "dedupratio=0.5\n" SD1 WD1 RD1,
		  "1:12: dedupratio=0.5 must be at least 1" },
		{ "dedupunit=1000\n" SD1 WD1 RD1,
		  "1:11: dedupunit=1000 is not a multiple of 512" },
		{ "formatxfersize=4m\n" SD1 WD1 RD1,
		  "1:16: formatxfersize=4m is out of range 512..1m" },
		/* sd= additions. */
		{ "sd=sd1,lun=/a,align=1000\n" RD1,
		  "1:21: align=1000 is not a multiple of 512" },
		{ "sd=sd1,lun=/a,align=0\n" RD1,
		  "1:21: align=0 must be more than 0" },
		{ "sd=sd1,lun=/a,offset=100\n" RD1,
		  "1:22: offset=100 is not a multiple of 512" },
		{ "sd=sd1,lun=/a,offset=1x\n" RD1,
		  "1:22: offset=1x is not a size (bytes, or a number with k, m, g or t)" },
		{ "sd=sd1,lun=/a,force=maybe\n" RD1,
		  "1:21: force=maybe is not supported (use yes or no)" },
		{ "sd=sd1,lun=/a,host=h9\n" RD1,
		  "1:20: host=h9 names a host, but no hd= is defined (use localhost or *)" },
		{ "hd=h1\nsd=sd1,lun=/a,host=h9\n" RD1,
		  "2:20: host=h9 refers to an undefined hd" },
		{ "hd=h1\nsd=sd1,lun=/a,host=(h1,x*)\n" RD1,
		  "2:24: host=x* matches no hd" },
		/* wd= additions. */
		{ SD1 "wd=wd1,skew=101\n" RD1,
		  "2:13: skew=101 is out of range 0..100" },
		{ SD1 "wd=wd1,iorate=0\n" RD1,
		  "2:15: iorate=0 must be more than 0" },
		{ SD1 "wd=wd1,range=(20,10)\n" RD1,
		  "2:14: range=(20,10): the low end must be below the high end" },
		{ SD1 "wd=wd1,seekpct=seqnz\n" RD1,
		  "2:16: seekpct=seqnz is not a percentage, random, seq, sequential or eof" },
		{ SD1 "wd=w1,skew=60\nwd=w2,skew=60\nrd=r,wd=w*\n",
		  "4:1: rd=r: the skew= of its wds add up to 120, not 100" },
		{ SD1 "wd=w1,skew=60\nwd=w2,skew=30\nrd=r,wd=w*\n",
		  "4:1: rd=r: the skew= of its wds add up to 90, not 100" },
		{ SD1 "wd=w1,skew=100\nwd=w2\nrd=r,wd=w*\n",
		  "4:1: rd=r: the skew= of its wds add up to 100 and leave nothing for the 1 without one" },
		{ SD1 "wd=w1,iorate=100\nwd=w2\nrd=r,wd=w*\n",
		  "2:7: wd=w1 has iorate= beside wds without one in rd=r: it needs priority= too (Vdbench's rule)" },
		{ SD1 "wd=w1,iorate=100,priority=1\nwd=w2,skew=60,priority=2\n"
		  "wd=w3,skew=50,priority=3\nrd=r,wd=w*,iorate=500\n",
		  "5:1: rd=r: the skew= of its wds add up to 110, not 100" },
		{ SD1 "wd=w1,iorate=100\nrd=r,wd=w1,iorate=200\n",
		  "3:12: rd=r has iorate= but its wds have their own iorate=: drop one of them" },
		/* rd= additions: rates, curves, loops. */
		{ SD1 WD1 "rd=rd1,iorate=(100,curve)\n",
		  "3:20: iorate=curve must be alone, not in a list of rates" },
		{ SD1 WD1 "rd=rd1,iorate=(100,0)\n",
		  "3:20: iorate=0 must be more than 0" },
		{ SD1 WD1 "rd=rd1,iorate=(100,200,100)\n",
		  "3:15: iorate=(100,200,100) has the value 100 twice" },
		{ SD1 WD1 "rd=rd1,curve=(0,50)\n",
		  "3:15: curve=0 is out of range (0..100]" },
		{ SD1 WD1 "rd=rd1,curve=(50,150)\n",
		  "3:18: curve=150 is out of range (0..100]" },
		{ SD1 WD1 "rd=rd1,stopcurve=0\n",
		  "3:18: stopcurve=0 must be more than 0 (milliseconds)" },
		/* iorate=slo and its objective. */
		{ SD1 WD1 "rd=rd1,iorate=(100,slo)\n",
		  "3:20: iorate=slo must be alone, not in a list of rates" },
		{ SD1 WD1 "rd=rd1,iorate=slo\n",
		  "3:8: rd=rd1: iorate=slo needs slo= (the objective, slo=p99:2ms)" },
		{ SD1 WD1 "rd=rd1,iorate=slo,slo=p99\n",
		  "3:23: slo=p99 is not pPERCENTILE:LATENCY or mean:LATENCY (slo=p99:2ms)" },
		{ SD1 WD1 "rd=rd1,iorate=slo,slo=p100:2ms\n",
		  "3:23: slo=p100:2ms: p100 is not a percentile above p0 and below p100 (p50, p99, p99.9)" },
		{ SD1 WD1 "rd=rd1,iorate=slo,slo=max:2ms\n",
		  "3:23: slo=max:2ms: max is not a percentile (p50, p99, p99.9) or mean" },
		{ SD1 WD1 "rd=rd1,iorate=slo,slo=p99:2\n",
		  "3:27: slo=p99:2: 2 is not a latency above 0 with its unit (us, ms or s)" },
		{ SD1 WD1 "rd=rd1,iorate=slo,slo=p99:0ms\n",
		  "3:27: slo=p99:0ms: 0ms is not a latency above 0 with its unit (us, ms or s)" },
		{ SD1 WD1 "rd=rd1,iorate=slo,slo=p99:2ms,sloprecision=60\n",
		  "3:31: rd=rd1: sloprecision=60 is out of range 0.5..50 (percent of the max rate)" },
		{ SD1 WD1 "rd=rd1,iorate=max,slo=p99:2ms\n",
		  "3:19: rd=rd1: slo= is for iorate=slo, and its iorate= is not slo" },
		{ SD1 WD1 "rd=rd1,sloprecision=10\n",
		  "3:8: rd=rd1: sloprecision= is for iorate=slo, and its iorate= is not slo" },
		{ SD1 WD1 "rd=rd1,format=maybe\n",
		  "3:15: format=maybe is not yes, only or no (or restart, clean, once, directories, limited or complete with fwd=)" },
		{ SD1 WD1 "rd=rd1,distribution=variable\n",
		  "3:21: distribution=variable is not supported: lockstep runs one rate per phase (use iorate=(a,b,...))" },
		{ SD1 WD1 "rd=rd1,distribution=poisson\n",
		  "3:21: distribution=poisson is not exponential, uniform or deterministic" },
		{ SD1 WD1 "rd=rd1,distribution=(uniform,d)\n",
		  "3:30: distribution=d is not exponential, uniform or deterministic" },
		{ SD1 WD1 "rd=rd1,pause=x\n",
		  "3:14: pause=x is not a duration (seconds, or a number with s, m or h)" },
		{ SD1 WD1 "rd=rd1,forxfersize=(4k,4k)\n",
		  "3:20: forxfersize=(4k,4k) has the value 4096 twice" },
		{ SD1 WD1 "rd=rd1,forthreads=(1-8)\n",
		  "3:20: forthreads=1-8: a range needs a step after it, as in (10-100,10)" },
		{ SD1 WD1 "rd=rd1,forthreads=(1-8,0)\n",
		  "3:24: forthreads=: a range needs a step more than 0 (or d to double)" },
		{ SD1 WD1 "rd=rd1,forthreads=(0-8,d)\n",
		  "3:24: forthreads=: a range needs a step more than 0 (or d to double)" },
		{ SD1 WD1 "rd=rd1,forthreads=(1-8,1.5)\n",
		  "3:20: forthreads=2.5 is not a whole number" },
		{ SD1 WD1 "rd=rd1,forxfersize=(4k-16k,1000)\n",
		  "3:21: forxfersize=5096 is not a multiple of 512" },
		{ SD1 WD1 "rd=rd1,forrdpct=(0-100,0.1)\n",
		  "3:18: forrdpct= expands to more than 256 values" },
		{ SD1 WD1 "rd=rd1,forrdpct=(50,101)\n",
		  "3:21: forrdpct=101 is out of range 0..100" },
		{ SD1 WD1 "rd=rd1,forthreads=(4,0)\n",
		  "3:22: forthreads=0 is out of range 1..65536" },
		{ SD1 WD1 "rd=rd1,forcompratio=0.5\n",
		  "3:21: forcompratio=0.5 must be at least 1" },
		{ SD1 WD1 "rd=rd1,forseekpct=(50,sometimes)\n",
		  "3:23: forseekpct=sometimes is not a percentage, random, seq, sequential or eof" },
		{ SD1 WD1 "rd=rd1,xfersize=8k,forxfersize=4k\n",
		  "3:20: forxfersize= is given twice (first at 3:8)" },
		{ SD1 WD1 "rd=rd1,iorate=100,foriorate=200\n",
		  "3:19: foriorate= is given twice (first at 3:8)" },
		/* include=. */
		{ "includ=x.vdb\n" SD1 WD1 RD1,
		  "1:1: unknown general parameter 'includ' (did you mean 'include'?)" },
		{ "sd=sd1,lun=/a,include=x.vdb\n" RD1,
		  "1:15: include= must be on a line of its own" },
		{ "include=x.vdb,debug=1\n" SD1 WD1 RD1,
		  "1:1: include= must be on a line of its own" },
		{ "include=(a,b)\n" SD1 WD1 RD1,
		  "1:9: include= takes one file name" },
		{ "include=/nonexistent/x.vdb\n" SD1 WD1 RD1,
		  "1:9: include=/nonexistent/x.vdb: cannot read /nonexistent/x.vdb: No such file or directory" },
		/* elapsed= and warmup= against interval=. */
		{ SD1 WD1 "rd=rd1,wd=wd1,elapsed=10,interval=3\n",
		  "3:15: elapsed=10 is not a multiple of interval=3" },
		{ SD1 WD1 "rd=rd1,wd=wd1,interval=7\n",
		  "3:15: elapsed=30 is not a multiple of interval=7" },
		{ SD1 WD1 "rd=rd1,wd=wd1,elapsed=10,warmup=5,interval=2\n",
		  "3:26: warmup=5 is not a multiple of interval=2" },
		{ SD1 WD1 "rd=default,elapsed=10\nrd=rd1,interval=3\n",
		  "3:12: elapsed=10 is not a multiple of interval=3" },
		{ SD1 WD1 "rd=rd1,elapsed=1m,interval=7s\n",
		  "3:8: elapsed=60 is not a multiple of interval=7" },
		/* Empty values. */
		{ "sd=sd1,lun=,threads=2\n" RD1, "1:12: lun= has an empty value" },
		{ "sd=sd1,lun=\n" RD1, "1:12: lun= has an empty value" },
		{ "sd=sd1,lun=\"\"\n" RD1, "1:12: lun= has an empty value" },
		{ "sd=,lun=/a\n" RD1, "1:4: sd= has an empty value" },
		{ "sd=sd1,lun=/a,range=()\n" RD1,
		  "1:22: range= has an empty value" },
		{ "sd=sd1,lun=/a,range=(1,,2)\n" RD1,
		  "1:24: range= has an empty value" },
		{ "sd=sd1,lun=/a,range=(1,2,)\n" RD1,
		  "1:26: range= has an empty value" },
		/* Syntax. */
		{ "sd=sd1,lun=\"/dev/x\n" RD1,
		  "1:12: unterminated quoted string in lun=" },
		{ "sd=sd1,lun=\"/dev/x\"y\n" RD1, "1:20: expected ',' before 'y'" },
		{ "sd=sd1,lun=/a,range=(0,50)x\n" RD1,
		  "1:27: expected ',' before 'x'" },
		{ SD1 "wd=wd1,xfersize=(4k,50,8k,50\nrd=rd1\n",
		  "2:17: missing ')' in xfersize=" },
		{ SD1 "wd=wd1,xfersize=(4k,50,8k,50", "2:17: missing ')' in xfersize=" },
		{ SD1 "wd=wd1,xfersize=(4k 50)\n" RD1,
		  "2:21: expected ',' or ')' in xfersize=" },
		{ "sd=sd1,lun=/a,range=((0,1),2)\n" RD1,
		  "1:22: nested '(' in range= is not allowed" },
		{ "sd=sd1,lun\n" RD1, "1:11: expected '=' after 'lun'" },
		{ "sd=sd1,lun =/a\n" RD1, "1:11: expected '=' after 'lun'" },
		{ "sd=sd1,=/a\n" RD1, "1:8: expected a parameter name, found '='" },
		{ "sd=sd1,lun=/dev/x threads=4\n" RD1,
		  "1:19: 'threads=' follows a blank: separate parameters with ',' (text after a blank is a comment)" },
		{ "sd=sd1,lun=/a,threads=2,threads=4\n" RD1,
		  "1:25: threads= is given twice (first at 1:15)" },
		{ "sd=sd1,lun=/a,\n  threads=2,THREADS=4\n" RD1,
		  "2:13: threads= is given twice (first at 2:3)" },
		{ "sd=sd1,lun=/a,sd=sd2,lun=/b\n" RD1,
		  "1:15: a second sd= in one definition (start each definition on a new line)" },
	};
	/* clang-format on */
	char want[512];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(want, sizeof(want), NAME ":%s", cases[i].msg);
		parse_err(cases[i].text, want);
	}
}

/* ---- probe= lines and until=probe: ------------------------------------ */

static void test_probe(void **state)
{
	struct params *p = parse_ok(
		SD1 WD1 RD1
		"probe=ceph,exec=\"ceph status -f json | jq .pgmap\",every=5s\n"
		"probe=san.a,exec=\"curl -s http://san/api\",every=2m,timeout=45s\n"
		"probe=slow,exec=true,every=1s,timeout=5s\n"
		"probe=default,every=20s\n"
		"probe=late,exec=true\n"
		"ev=e1,at=1s,until=probe:ceph<=0.5\n"
		"ev=e2,at=1s,exec=true,until=probe:ceph.degraded==0\n"
		"ev=e3,at=1s,until=probe:san.a.x.y>=-2\n"
		"ev=e4,at=1s,until=\"test -f /tmp/done\"\n");

	(void)state;
	assert_int_equal(p->nprobe, 4);
	assert_string_equal(p->probe[0].name, "ceph");
	assert_string_equal(p->probe[0].exec,
			    "ceph status -f json | jq .pgmap");
	assert_dbl(p->probe[0].every_s, 5);
	/* timeout= default: every=, at most 30 s. */
	assert_dbl(p->probe[0].timeout_s, 5);
	assert_dbl(p->probe[1].every_s, 120);
	assert_dbl(p->probe[1].timeout_s, 45);
	assert_dbl(p->probe[2].timeout_s, 5);
	/* probe=default: every=20s for the lines after it. */
	assert_string_equal(p->probe[3].name, "late");
	assert_dbl(p->probe[3].every_s, 20);
	assert_dbl(p->probe[3].timeout_s, 20);
	assert_true(p->ev[0].until_probe);
	assert_int_equal(p->ev[0].upr.probe, 0);
	assert_string_equal(p->ev[0].upr.key, "value");
	assert_int_equal(p->ev[0].upr.op, PARAMS_CMP_LE);
	assert_dbl(p->ev[0].upr.value, 0.5);
	assert_string_equal(p->ev[0].until, "probe:ceph<=0.5");
	assert_string_equal(p->ev[1].upr.key, "degraded");
	assert_int_equal(p->ev[1].upr.op, PARAMS_CMP_EQ);
	/* The longest probe name that fits, then the key (dots and all). */
	assert_int_equal(p->ev[2].upr.probe, 1);
	assert_string_equal(p->ev[2].upr.key, "x.y");
	assert_int_equal(p->ev[2].upr.op, PARAMS_CMP_GE);
	assert_dbl(p->ev[2].upr.value, -2);
	assert_false(p->ev[3].until_probe);
	assert_string_equal(p->ev[3].until, "test -f /tmp/done");
	params_free(&p);

	/* Defaults: every=10s, timeout=10s; 30 s at most by default. */
	p = parse_ok(SD1 WD1 RD1
		     "probe=a,exec=true\nprobe=b,exec=true,every=5m\n");
	assert_dbl(p->probe[0].every_s, 10);
	assert_dbl(p->probe[0].timeout_s, 10);
	assert_dbl(p->probe[1].every_s, 300);
	assert_dbl(p->probe[1].timeout_s, 30);
	params_free(&p);
}

/* startcmd= and endcmd=, general and rd=, as Vdbench's Debug_cmds. */
static void test_cmds(void **state)
{
	struct params *p;

	(void)state;
	p = parse_ok(
		"startcmd=\"echo hi\"\nend_cmd=(\"a 1\",\"b 2\",console,master)\n" SD1
			WD1 "rd=default,startcmd=(\"sync; echo 3\",summary)\n"
		"rd=rd1,wd=wd1\n"
		"rd=rd2,wd=wd1,startcmd=(\"x y\",master),endcmd=(z,sum)\n"
		"rd=rd3,wd=wd1,endcmd=(\"logger -t x\",slave,logfile)\n");
	/* General: on the master, log by default. */
	assert_int_equal(p->startcmd.n, 1);
	assert_string_equal(params_cmd_text(p, &p->startcmd, 0), "echo hi");
	assert_false(p->startcmd.slave);
	assert_int_equal(p->startcmd.target, PARAMS_CMD_LOG);
	assert_int_equal(p->endcmd.n, 2);
	assert_string_equal(params_cmd_text(p, &p->endcmd, 1), "b 2");
	assert_int_equal(p->endcmd.target, PARAMS_CMD_CONSOLE);
	assert_int_equal(p->endcmd.pos.line, 2);
	/* rd=default's goes to every rd; an rd's runs on its slaves. */
	assert_int_equal(p->rd[0].startcmd.n, 1);
	assert_string_equal(params_cmd_text(p, &p->rd[0].startcmd, 0),
			    "sync; echo 3");
	assert_true(p->rd[0].startcmd.slave);
	assert_int_equal(p->rd[0].startcmd.target, PARAMS_CMD_SUMMARY);
	assert_int_equal(p->rd[0].endcmd.n, 0);
	assert_false(p->rd[1].startcmd.slave);
	assert_string_equal(params_cmd_text(p, &p->rd[1].startcmd, 0), "x y");
	assert_string_equal(params_cmd_text(p, &p->rd[1].endcmd, 0), "z");
	assert_int_equal(p->rd[1].endcmd.target, PARAMS_CMD_SUMMARY);
	assert_string_equal(params_cmd_text(p, &p->rd[2].startcmd, 0),
			    "sync; echo 3");
	/* With a blank it is a command, even if it starts with log. */
	assert_string_equal(params_cmd_text(p, &p->rd[2].endcmd, 0),
			    "logger -t x");
	assert_true(p->rd[2].endcmd.slave);
	assert_int_equal(p->rd[2].endcmd.target, PARAMS_CMD_LOG);
	assert_string_equal(params_cmd_text(p, &p->rd[2].endcmd, 1), "");
	assert_int_equal(p->nwarn, 0);
	params_free(&p);
}

static void test_cmd_errors(void **state)
{
	/* clang-format off */
	static const struct err_case cases[] = {
		{ "startcmd=(\"a b\",slave)\n" SD1 WD1 RD1,
		  "1:17: startcmd=slave: the general startcmd= runs on the master, before the first run or after the last; slave scope is an rd's (rd=...,startcmd=(\"CMD\",slave))" },
		{ SD1 WD1 "rd=rd1,wd=wd1,startcmd=logrotate\n",
		  "3:24: startcmd=logrotate names no command (a single word that starts with log, sum or cons is the target, as Vdbench reads it: give such a command with its path or an argument)" },
		{ SD1 WD1 "rd=rd1,wd=wd1,endcmd=(\"a b\",master,slave)\n",
		  "3:36: endcmd= gives master or slave twice" },
		{ SD1 WD1 "rd=rd1,wd=wd1,endcmd=(\"a b\",log,console)\n",
		  "3:33: endcmd=console: a second target (log, summary or console); a command that starts with log, sum or cons needs its path or an argument" },
		{ SD1 WD1 "rd=rd1,wd=wd1,startcmd=\"\"\n",
		  "3:24: startcmd= has an empty value" },
		{ SD1 WD1 "rd=rd1,wd=wd1,startcmd=(a,b,c,d,e,f,g,h,i)\n",
		  "3:41: startcmd=: more than 8 commands" },
		{ SD1 WD1 "rd=rd1,wd=wd1,startcmd=\"a\tb\",start_cmd=c\n",
		  "3:30: start_cmd= is given twice (first at 3:15)" },
	};
	/* clang-format on */
	char want[1024];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(want, sizeof(want), NAME ":%s", cases[i].msg);
		parse_err(cases[i].text, want);
	}
}

static void test_probe_errors(void **state)
{
	/* clang-format off */
	static const struct err_case cases[] = {
		{ SD1 WD1 RD1 "probe=a\n",
		  "4:1: probe=a needs exec= (the command to sample)" },
		{ SD1 WD1 RD1 "probe=a,exec=true,every=0.05s\n",
		  "4:25: every=0.05s: at least 0.1s" },
		{ SD1 WD1 RD1 "probe=a,exec=true,every=x\n",
		  "4:25: every=x is not a duration (seconds, or a number with s, m or h)" },
		{ SD1 WD1 RD1 "probe=a,exec=true,timeout=0\n",
		  "4:27: timeout=0 must be more than 0 seconds" },
		{ SD1 WD1 RD1 "probe=a,exec=true,host=h1\n",
		  "4:19: host=h1: a probe runs on the master only (no daemon runs a master's commands); to sample another host, the command reaches it itself: exec=\"ssh HOST CMD\"" },
		{ SD1 WD1 RD1 "probe=a,exec=true,poll=1s\n",
		  "4:19: unknown probe parameter 'poll'" },
		{ SD1 WD1 RD1 "probe=a/b,exec=true\n",
		  "4:7: probe=a/b: a name may not contain '/'" },
		{ SD1 WD1 RD1 "probe=.a,exec=true\n",
		  "4:7: probe=.a: a probe name is letters, digits, '-', '_' and '.', not starting with '.'" },
		{ SD1 WD1 RD1 "probe=a,exec=true\nprobe=a,exec=true\n",
		  "5:7: probe=a is already defined at line 4" },
		/* In its place: after the rd= lines, before the ev= lines. */
		{ SD1 WD1 "probe=a,exec=true\n" RD1,
		  "4:1: rd=rd1 must come before the probe= definitions (the order is general, hd, sd, wd, rd, probe)" },
		{ SD1 WD1 RD1 "ev=e,at=1,exec=true\nprobe=a,exec=true\n",
		  "5:1: probe=a must come before the ev= definitions (the order is general, hd, sd, wd, rd, probe, ev)" },
		/* until=probe: */
		{ SD1 WD1 RD1 "ev=e,at=1,until=probe:nope==0\n",
		  "4:17: until=probe:nope==0: no probe= line defines nope (probes are defined before the ev= lines)" },
		{ SD1 WD1 RD1 "probe=a,exec=true\nev=e,at=1,until=probe:a.x\n",
		  "5:17: until=probe:a.x: no comparison (==, !=, <, <=, >, >=) after the probe name (until=probe:NAME.KEY<op>VALUE, or probe:NAME<op>VALUE for a probe that prints one number)" },
		{ SD1 WD1 RD1 "probe=a,exec=true\nev=e,at=1,until=probe:a=0\n",
		  "5:17: until=probe:a=0: the comparison is not one of ==, !=, <, <=, >, >= (until=probe:NAME.KEY<op>VALUE, or probe:NAME<op>VALUE for a probe that prints one number)" },
		{ SD1 WD1 RD1 "probe=a,exec=true\nev=e,at=1,until=probe:a==ok\n",
		  "5:17: until=probe:a==ok: the value compared with is not a finite number (until=probe:NAME.KEY<op>VALUE, or probe:NAME<op>VALUE for a probe that prints one number)" },
		{ SD1 WD1 RD1 "probe=a,exec=true\nev=e,at=1,until=probe:a.==0\n",
		  "5:17: until=probe:a.==0: the key is empty" },
		{ SD1 WD1 RD1 "probe=a,exec=true\nev=e,at=1,until=probe:a==0,poll=5s\n",
		  "5:28: ev=e: poll= with until=probe: (the probe's every= sets the pace)" },
		{ "hd=h1\n" SD1 WD1 RD1 "probe=a,exec=true\nev=e,at=1,until=probe:a==0,host=h1\n",
		  "6:28: ev=e: host= without exec= (until=probe: runs no command; its probe runs on the master)" },
	};
	/* clang-format on */
	char want[1024];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(want, sizeof(want), NAME ":%s", cases[i].msg);
		parse_err(cases[i].text, want);
	}
}

/* Messages are cut to the buffer, never overrun it; no buffer is fine. */
static void test_err_buffer(void **state)
{
	struct params *p;
	char small[12];

	(void)state;
	memset(small, 'x', sizeof(small));
	assert_int_equal(params_parse_string(NAME, "foo=1\n", &p, small,
					     sizeof(small)),
			 -EINVAL);
	assert_string_equal(small, "quick.vdb:1");
	assert_int_equal(params_parse_string(NAME, "foo=1\n", &p, NULL, 0),
			 -EINVAL);
	assert_null(p);
	assert_int_equal(params_parse_string(NULL, "", &p, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err,
			    "-:1:1: no rd= run definition: nothing to run");
}

/* ---- files ------------------------------------------------------------ */

static void write_temp(char *path, const char *data, size_t len)
{
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	assert_int_equal(close(fd), 0);
}

static void test_file(void **state)
{
	char path[] = "/tmp/test_params.XXXXXX";
	static const char text[] = SD1 WD1 RD1;
	struct params *p = NULL;
	char want[256];

	(void)state;
	write_temp(path, text, strlen(text));
	assert_int_equal(params_parse_file(path, &p, err, sizeof(err)), 0);
	assert_string_equal(p->path, path);
	assert_int_equal(p->nrd, 1);
	params_free(&p);
	assert_int_equal(unlink(path), 0);

	assert_int_equal(params_parse_file(path, &p, err, sizeof(err)),
			 -ENOENT);
	assert_null(p);
	snprintf(want, sizeof(want),
		 "%s: cannot read: No such file or directory", path);
	assert_string_equal(err, want);
}

static void test_file_errors(void **state)
{
	char path[] = "/tmp/test_params.XXXXXX";
	static const char bad[] = SD1 "wd=wd1,rdpct=500\n" RD1;
	static const char nul[] = SD1 "wd=w\0d1\n" RD1;
	struct params *p = NULL;
	char want[256];

	(void)state;
	/* Errors name the file as the caller did. */
	write_temp(path, bad, strlen(bad));
	assert_int_equal(params_parse_file(path, &p, err, sizeof(err)),
			 -EINVAL);
	assert_null(p);
	snprintf(want, sizeof(want),
		 "%s:2:14: rdpct=500 is out of range "
		 "0..100",
		 path);
	assert_string_equal(err, want);
	assert_int_equal(unlink(path), 0);

	strcpy(path, "/tmp/test_params.XXXXXX");
	write_temp(path, nul, sizeof(nul) - 1);
	assert_int_equal(params_parse_file(path, &p, err, sizeof(err)),
			 -EINVAL);
	assert_null(p);
	snprintf(want, sizeof(want), "%s:2:5: a NUL byte: not a text file",
		 path);
	assert_string_equal(err, want);
	assert_int_equal(unlink(path), 0);

	/* A directory cannot be read as a file (refused before any read). */
	assert_true(params_parse_file("/tmp", &p, err, sizeof(err)) < 0);
	assert_null(p);
	assert_string_equal(err,
			    "/tmp: cannot read: not a regular file (a FIFO, device, socket or folder)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_sd_keywords),
		cmocka_unit_test(test_wd_keywords),
		cmocka_unit_test(test_rd_keywords),
		cmocka_unit_test(test_warmup_steady),
		cmocka_unit_test(test_general),
		cmocka_unit_test(test_hd),
		cmocka_unit_test(test_general_full),
		cmocka_unit_test(test_hd_full),
		cmocka_unit_test(test_sd_more),
		cmocka_unit_test(test_wd_more),
		cmocka_unit_test(test_rd_more),
		cmocka_unit_test(test_rd_slo),
		cmocka_unit_test(test_loops),
		cmocka_unit_test(test_loop_order),
		cmocka_unit_test(test_warnings),
		cmocka_unit_test(test_hits_and_access),
		cmocka_unit_test(test_streams_stride_maxdata),
		cmocka_unit_test(test_concat),
		cmocka_unit_test(test_include),
		cmocka_unit_test(test_replay),
		cmocka_unit_test(test_include_untrusted),
		cmocka_unit_test(test_include_fifo),
		cmocka_unit_test(test_bom),
		cmocka_unit_test(test_intervals_range),
		cmocka_unit_test(test_many_sds),
		cmocka_unit_test(test_hcibench_generated),
		cmocka_unit_test(test_default_inheritance),
		cmocka_unit_test(test_comments),
		cmocka_unit_test(test_continuation),
		cmocka_unit_test(test_lists_and_wildcards),
		cmocka_unit_test(test_quoted),
		cmocka_unit_test(test_case),
		cmocka_unit_test(test_crlf),
		cmocka_unit_test(test_hcibench),
		cmocka_unit_test(test_many),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_wd_rd_openflags_priority),
		cmocka_unit_test(test_probe),
		cmocka_unit_test(test_probe_errors),
		cmocka_unit_test(test_cmds),
		cmocka_unit_test(test_cmd_errors),
		cmocka_unit_test(test_err_buffer),
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_file_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
