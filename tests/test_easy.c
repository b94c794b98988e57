/*
 * Unit tests of `lockstep easy`'s sizing and text (master/easy/plan.c):
 * threads= keeps every host at EASY_INFLIGHT_PER_CORE a core, counted with
 * the run's rule that an sd's threads are split over the slaves that run
 * it (worked cases: one machine; two hosts of different cores sharing an
 * sd; sds of their own; more slaves than the budget; unknown cores; the
 * cap), and the text easy writes, after an sd= line, is a parameter file
 * lockstep's own parser reads back as the four profiles with the chosen
 * objective, threads, warmup, working set and format pass.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "master/easy/easy.h"
#include "master/params/params.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void one_machine(void **state)
{
	static const unsigned char on[] = { 1 };
	struct easy_host h = { "m", 2, 2 };
	struct easy_sd sd[2] = { { "sd1", 1 << 24, on },
				 { "sd2", 1 << 24, on } };

	(void)state;
	/* 2 cores x 8 = 16 in flight; one sd takes them all. */
	assert_int_equal(easy_threads(&h, 1, sd, 1), 16);
	/* Two sds share them: 8 each. */
	assert_int_equal(easy_threads(&h, 1, sd, 2), 8);
	/* 24 cores, one sd: 192. */
	h.cores = 24;
	assert_int_equal(easy_threads(&h, 1, sd, 1), 192);
	/* 64 cores: 512, capped. */
	h.cores = 64;
	assert_int_equal(easy_threads(&h, 1, sd, 1), EASY_THREADS_MAX);
	/* Cores unknown: one. */
	h.cores = 0;
	assert_int_equal(easy_threads(&h, 1, sd, 1), 8);
}

static void shared_sd(void **state)
{
	/* sd1 on both hosts (1 slave each): each gets half of T. */
	static const unsigned char both[] = { 1, 1 }, only_b[] = { 0, 1 };
	struct easy_host h[2] = { { "a", 4, 1 }, { "b", 2, 1 } };
	struct easy_sd sd[2] = { { "sd1", 1 << 30, both },
				 { "sd2", 1 << 30, only_b } };

	(void)state;
	/* a: 32 / 0.5 = 64; b: 16 / 0.5 = 32: the smaller. */
	assert_int_equal(easy_threads(h, 2, sd, 1), 32);
	/* sd2 on b alone: b holds T/2 + T = 1.5 T <= 16: T = 10. */
	assert_int_equal(easy_threads(h, 2, sd, 2), 10);
	/* b with 3 slaves: sd1 is split 1:3, b holds 3/4 T + T <= 16: 9. */
	h[1].slaves = 3;
	assert_int_equal(easy_threads(h, 2, sd, 2), 9);
}

static void own_sds(void **state)
{
	/* 16 hosts with an sd each and 4 cores: 32 each. */
	unsigned char on[16][16] = { { 0 } };
	struct easy_host h[16];
	struct easy_sd sd[16];

	(void)state;
	for (int i = 0; i < 16; i++) {
		h[i] = (struct easy_host){ "h", 4, 1 };
		on[i][i] = 1;
		sd[i] = (struct easy_sd){ "sd", 1 << 30, on[i] };
	}
	assert_int_equal(easy_threads(h, 16, sd, 16), 32);
	/* One host of 1 core sets everybody's: 8. */
	h[7].cores = 1;
	assert_int_equal(easy_threads(h, 16, sd, 16), 8);
}

static void floor_and_none(void **state)
{
	static const unsigned char on[] = { 1 }, off[] = { 0 };
	struct easy_host h = { "m", 1, 20 };
	struct easy_sd sd = { "sd1", 1 << 20, on };

	(void)state;
	/* 20 slaves on 1 core: 8 would leave 12 slaves nothing; 20. */
	assert_int_equal(easy_threads(&h, 1, &sd, 1), 20);
	sd.on = off;
	assert_int_equal(easy_threads(&h, 1, &sd, 1), 0);
	h.slaves = 0;
	sd.on = on;
	assert_int_equal(easy_threads(&h, 1, &sd, 1), 0);
}

/* easy_write's text after an sd= line, parsed by lockstep's parser. */
static struct params *written(const struct easy_opts *o, unsigned threads,
			      char **text)
{
	static const unsigned char on[] = { 1 };
	struct easy_host h = { "this machine", 2, 2 };
	struct easy_sd sd = { "sd1", 16 << 20, on };
	struct params *p = NULL;
	char err[512];
	size_t len;
	FILE *f = open_memstream(text, &len);

	assert_non_null(f);
	fputs("sd=sd1,lun=/tmp/easy-test.dat,size=16m\n", f);
	assert_int_equal(easy_write(f, &h, 1, &sd, 1, o, threads), 0);
	assert_int_equal(fclose(f), 0);
	if (params_parse_string("easy.vdb", *text, &p, err, sizeof(err)))
		fail_msg("%s\n%s", err, *text);
	return p;
}

static void text_reads_back(void **state)
{
	struct easy_opts o = {
		.slo = "p99.9:2ms",
		.sloprecision = 10,
		.elapsed_s = 120,
		.warmup_max_s = 600,
		.interval_s = 5,
		.ws_pct = 50,
		.prepare = 1,
	};
	char *text = NULL;
	struct params *p = written(&o, 16, &text);

	(void)state;
	assert_int_equal(p->nwd, EASY_NPROFILES);
	assert_int_equal(p->nrd, EASY_NPROFILES);
	for (size_t i = 0; i < EASY_NPROFILES; i++) {
		const struct easy_profile *e = &easy_profiles[i];
		const struct params_rd *rd = &p->rd[i];
		const struct params_wd *wd = &p->wd[rd->wd[0]];
		unsigned xfer = e->xfer[0] == '4' ? 4096 :
				e->xfer[0] == '8' ? 8192 :
						    262144;

		assert_string_equal(rd->name, e->name);
		assert_int_equal(rd->nwd, 1);
		assert_int_equal(wd->nsd, 1);
		assert_int_equal(wd->nxfer, 1);
		assert_int_equal(wd->xfer[0].size, xfer);
		assert_true(wd->rdpct == e->rdpct);
		assert_true(wd->seekpct == e->seekpct);
		assert_true(wd->range_lo == 0 && wd->range_hi == 50);
		assert_int_equal(rd->iorate_kind, PARAMS_IORATE_SLO);
		assert_true(fabs(rd->slo_pct - 99.9) < 1e-9);
		assert_true(fabs(rd->slo_ms - 2) < 1e-9);
		assert_true(rd->sloprecision_pct == 10);
		assert_true(rd->warmup_steady && rd->warmup_s == 600);
		assert_true(rd->elapsed_s == 120 && rd->interval_s == 5);
		assert_int_equal(rd->nloop, 1);
		assert_int_equal(rd->loop[0].kind, PARAMS_LOOP_THREADS);
		assert_true(rd->loop[0].n == 1 && rd->loop[0].val[0] == 16);
		/* The working set is written once, before the first. */
		assert_int_equal(rd->format,
				 i == 0 ? PARAMS_FORMAT_YES : PARAMS_FORMAT_NO);
	}
	/* The reader learns what was learned and the rule. */
	assert_non_null(strstr(text, "* this machine: 2 cores, 2 slaves\n"));
	assert_non_null(strstr(text, "* sd=sd1: 16.0 MiB\n"));
	assert_non_null(
		strstr(text, "* threads=16: at most 8 I/Os in flight a core"));
	params_free(&p);
	free(text);

	/* The whole sd, no format pass: no range=, no format=. */
	o.ws_pct = 100;
	o.prepare = 0;
	p = written(&o, 3, &text);
	for (size_t i = 0; i < EASY_NPROFILES; i++) {
		assert_true(p->wd[i].range_lo == 0 && p->wd[i].range_hi == 100);
		assert_int_equal(p->rd[i].format, PARAMS_FORMAT_NO);
		assert_true(p->rd[i].loop[0].val[0] == 3);
	}
	assert_null(strstr(text, "range="));
	assert_null(strstr(text, "format="));
	params_free(&p);
	free(text);
}

/* A cluster file: hd= and sd= alone parse; a workload is refused where it is. */
static void cluster_file(void **state)
{
	struct params *p = NULL;
	char err[512];

	(void)state;
	assert_int_equal(params_parse_text("c.vdb",
					   "hd=default,shell=none\nhd=h1\nhd=h2\n"
					   "sd=sd1,lun=/dev/sdb\n",
					   PARAMS_CLUSTER, &p, err,
					   sizeof(err)),
			 0);
	assert_int_equal(p->nhd, 2);
	assert_int_equal(p->nsd, 1);
	assert_int_equal(p->nrd, 0);
	params_free(&p);
	assert_int_equal(params_parse_text("c.vdb",
					   "sd=sd1,lun=/dev/sdb\n"
					   "wd=wd1,sd=sd1\n",
					   PARAMS_CLUSTER, &p, err,
					   sizeof(err)),
			 -EINVAL);
	assert_null(p);
	assert_string_equal(err,
			    "c.vdb:2:1: wd= in a cluster file: lockstep easy writes the workloads (run your own with lockstep run)");
	/* Without the flag the same file wants its rd=. */
	assert_int_equal(params_parse_text("c.vdb", "sd=sd1,lun=/dev/sdb\n", 0,
					   &p, err, sizeof(err)),
			 -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_machine),
		cmocka_unit_test(shared_sd),
		cmocka_unit_test(own_sds),
		cmocka_unit_test(floor_and_none),
		cmocka_unit_test(text_reads_back),
		cmocka_unit_test(cluster_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
