/*
 * Unit tests of a file-system run in the history (master/history/
 * loadops.c and the run hook): a results folder's operations read back as
 * phases "RUN/OP" (summary.json's "operations", ops.csv's measured and
 * late rows; read and write left to the run's own figures), hostile
 * ops.csv refused with file and line, and a known series of nights
 * through the run hook as nightly.sh drives it: five clean nights with
 * night-to-night noise, a create rate 30 % lower for three nights (each a
 * regression of "rc/create", never a baseline), the fix (no change), the
 * slow level again and accepted (judged against it from then on). The
 * run's own figures (no reads or writes in a getattr-like run) are never
 * judged as noise.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "common/exitcode.h"
#include "master/history/history_int.h"

static char tmp[64];

static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static const char param[] =
	"fsd=fsd1,anchor=/tmp/x,depth=1,width=2,files=100,size=0\n"
	"fwd=fwd1,fsd=fsd1,operation=create,threads=1\n"
	"fwd=fwd2,fsd=fsd1,operation=getattr,threads=1\n"
	"rd=rc,fwd=(fwd1,fwd2),fwdrate=max,format=no,elapsed=4,interval=1\n";

/*
 * An fs run folder: run "rc" of create (rate create per second, mean
 * latency resp ms) and getattr (600/s, 0.05 ms); four measured
 * intervals around the rates (-1 %, +1 %, -1 %, +1 %).
 */
static void make_fs_folder(const char *dir, const char *run_id,
			   const char *started, double create, double resp)
{
	char json[4096], csv[4096], path[256];
	size_t used;

	snprintf(path, sizeof(path), "mkdir -p %s", dir);
	assert_int_equal(system(path), 0);
	snprintf(json, sizeof(json),
		 "{\"run_id\": \"%s\", \"status\": \"completed\","
		 " \"exit_code\": 0, \"param_file\": \"/x/fs.vdb\","
		 " \"engine\": \"uring\", \"host\": \"m\","
		 " \"started\": \"%s\", \"ended\": \"%s\","
		 " \"slaves\": [{\"name\": \"s1\", \"host\": \"h1\"}],"
		 " \"runs\": [{\"name\": \"rc\", \"kind\": \"rd\","
		 " \"elapsed_s\": 4, \"warmup_s\": 0, \"interval_s\": 1,"
		 " \"iorate\": 0, \"totals\": {\"iops\": 0, \"mbps\": 0,"
		 " \"errors\": 0, \"lat_mean_ms\": 0, \"lat_p50_ms\": 0,"
		 " \"lat_p95_ms\": 0, \"lat_p99_ms\": 0, \"lat_p999_ms\": 0,"
		 " \"read_pct\": 0},"
		 " \"operations\": {\"requested_count\": 1, \"requested_rate\": 1,"
		 " \"requested_resp_ms\": 1, \"read_write_errors\": 0,"
		 " \"write\": {\"count\": 0, \"rate\": 0, \"bytes\": 0,"
		 " \"errors\": 0, \"resp_ms\": 0, \"p50_ms\": 0, \"p95_ms\": 0,"
		 " \"p99_ms\": 0, \"max_ms\": 0},"
		 " \"create\": {\"count\": %.0f, \"rate\": %g, \"bytes\": 0,"
		 " \"errors\": 1, \"resp_ms\": %g, \"p50_ms\": %g,"
		 " \"p95_ms\": %g, \"p99_ms\": %g, \"max_ms\": 9},"
		 " \"getattr\": {\"count\": 2400, \"rate\": 600, \"bytes\": 0,"
		 " \"errors\": 0, \"resp_ms\": 0.05, \"p50_ms\": 0.04,"
		 " \"p95_ms\": 0.08, \"p99_ms\": 0.1, \"max_ms\": 1}}}]}\n",
		 run_id, started, started, create * 4, create, resp, resp,
		 resp * 2, resp * 3);
	put(dir, "summary.json", json);
	put(dir, "intervals.csv",
	    "run,interval,phase,iops,mbps,resp_ms,p95_ms,p99_ms\n"
	    "rc,1,measure,0,0,0,0,0\nrc,2,measure,0,0,0,0,0\n"
	    "rc,3,measure,0,0,0,0,0\nrc,4,measure,0,0,0,0,0\n");
	used = (size_t)
		snprintf(csv, sizeof(csv),
			 "run,interval,phase,start_ns,end_ns,operation,"
			 "count,rate,bytes,mbps,errors,resp_ms,p50_ms,"
			 "p95_ms,p99_ms,max_ms,future\n"
			 "rc,1,warmup,0,1,create,1,1,0,0,0,1,1,1,1,1,x\n");
	for (int k = 0; k < 4; k++) {
		double f = k % 2 ? 1.01 : 0.99;

		used += (size_t)
			snprintf(csv + used, sizeof(csv) - used,
				 "rc,%d,measure,%d,%d,write,0,0.000,0,0.0000,0,0,0,0,0,0,x\n"
				 "rc,%d,measure,%d,%d,create,%.0f,%.3f,0,0.0000,0,%f,%f,%f,%f,9,x\n"
				 "rc,%d,measure,%d,%d,getattr,600,600.000,0,0.0000,0,0.05,0.04,0.08,0.1,1,x\n",
				 k + 1, k, k + 1, k + 1, k, k + 1, create * f,
				 create * f, resp, resp, resp * 2, resp * 3,
				 k + 1, k, k + 1);
	}
	snprintf(csv + used, sizeof(csv) - used,
		 "rc,4,late,3,4,create,2,2.000,0,0.0000,0,1,1,1,1,1,x\n"
		 "rc,avg_1-4,total,,,create,1,1,0,0,0,1,1,1,1,1,x\n"
		 "gone,1,measure,0,1,create,1,1,0,0,0,1,1,1,1,1,x\n");
	put(dir, "ops.csv", csv);
	put(dir, "fs.vdb", param);
}

static const struct history_phase *phase(const struct history_run *r,
					 const char *name)
{
	for (size_t i = 0; i < r->nphases; i++)
		if (!strcmp(r->ph[i].name, name))
			return &r->ph[i];
	return NULL;
}

static void test_load_fs(void **state)
{
	const struct history_phase *p, *g;
	struct history_run r;
	char dir[128], err[512];

	(void)state;
	snprintf(dir, sizeof(dir), "%s/load", tmp);
	make_fs_folder(dir, "run-fs", "2026-04-01T00:00:00Z", 500, 2);
	assert_int_equal(history_load_dir(dir, &r, err, sizeof(err)), 0);
	/* rc, rc/create, rc/getattr: not rc/write (the run's own). */
	assert_int_equal(r.nphases, 3);
	assert_null(phase(&r, "rc/write"));
	p = phase(&r, "rc/create");
	g = phase(&r, "rc/getattr");
	assert_non_null(p);
	assert_non_null(g);
	assert_string_equal(p->kind, "fsop");
	assert_true(fabs(p->v[HISTORY_IOPS] - 500) < 1e-9);
	assert_true(isnan(p->v[HISTORY_MBPS])); /* no bytes of its own */
	assert_true(fabs(p->v[HISTORY_MEAN] - 2) < 1e-9);
	assert_true(fabs(p->v[HISTORY_P99] - 6) < 1e-9);
	assert_true(isnan(p->v[HISTORY_P999]));
	assert_int_equal(p->errors, 1);
	assert_true(p->elapsed_s == 4 && p->interval_s == 1);
	/* Four measured intervals; the late row's 2/s in the last. */
	assert_int_equal(p->n, 4);
	assert_true(fabs(p->series[HISTORY_S_IOPS][0] - 495) < 1e-9);
	assert_true(fabs(p->series[HISTORY_S_IOPS][3] - 507) < 1e-9);
	assert_true(fabs(p->series[HISTORY_S_RESP][1] - 2) < 1e-9);
	assert_true(fabs(p->series[HISTORY_S_P99][2] - 6) < 1e-9);
	assert_int_equal(g->n, 4);
	/* The plan is the runs' (the operations follow from them). */
	assert_non_null(r.plan);
	assert_null(strstr(r.plan, "rc/"));
	history_run_free(&r);

	/* A figure that is not a number: refused with file and line. */
	put(dir, "ops.csv",
	    "run,interval,phase,operation,rate,mbps,resp_ms,p95_ms,p99_ms\n"
	    "rc,1,measure,create,fast,0,1,1,1\n");
	assert_int_equal(history_load_dir(dir, &r, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "ops.csv:2: column rate"));
	put(dir, "ops.csv", "run,interval,phase,rate\n");
	assert_int_equal(history_load_dir(dir, &r, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "ops.csv:1:1: not a lockstep ops.csv"));
	/* A total that its intervals contradict (x 3): refused. */
	put(dir, "ops.csv",
	    "run,interval,phase,operation,rate,mbps,resp_ms,p95_ms,p99_ms\n"
	    "rc,1,measure,create,1500,0,1,1,1\n");
	assert_int_equal(history_load_dir(dir, &r, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "run rc/create"));
	/* No ops.csv (an older folder): the totals alone, no series. */
	snprintf(err, sizeof(err), "%s/ops.csv", dir);
	assert_int_equal(unlink(err), 0);
	assert_int_equal(history_load_dir(dir, &r, err, sizeof(err)), 0);
	assert_int_equal(phase(&r, "rc/create")->n, 0);
	history_run_free(&r);
}

static char verdict[512];

static int seal(void *arg, const struct history_seal *s)
{
	(void)arg;
	snprintf(verdict, sizeof(verdict), "%s", s->verdict ? s->verdict : "");
	return s->exit_code;
}

/* Night n through the hook (nightly.sh's path): its exit code. */
static int night(const char *hist, int n, double create, const char *base)
{
	char dir[160], rid[32], started[32];

	snprintf(dir, sizeof(dir), "%s/night%02d", tmp, n);
	snprintf(rid, sizeof(rid), "run-fs-n%d", n);
	snprintf(started, sizeof(started), "2026-05-%02dT00:00:00Z", n);
	make_fs_folder(dir, rid, started, create, 2);
	verdict[0] = 0;
	return history_run_hook(dir, hist, 0, base, "iops=-10%,mean=+20%", 0,
				seal, NULL);
}

static void test_nights(void **state)
{
	/* Night-to-night noise of +-2 % around 500 creates/s. */
	static const double clean[] = { 505, 496, 502, 490, 508 };
	char hist[128], err[512];
	struct history_db *db;
	int64_t ids[32];

	(void)state;
	snprintf(hist, sizeof(hist), "%s/nights.db", tmp);
	for (int i = 0; i < 5; i++)
		assert_int_equal(night(hist, i + 1, clean[i], NULL), 0);
	/* A clean night inside the noise: no regression. */
	assert_int_equal(night(hist, 6, 494, "median:5"), 0);
	assert_null(strstr(verdict, "REGRESSION"));
	/* The create rate 30 % lower for three nights: each a regression
	   of rc/create against the clean nights (never against the slow
	   ones: a regression never joins the baseline). */
	for (int n = 7; n <= 9; n++) {
		assert_int_equal(night(hist, n, 350, "median:5"),
				 LS_EXIT_REGRESSION);
		assert_non_null(
			strstr(verdict, "REGRESSION: rc/create ops/s -"));
		assert_null(strstr(verdict, "getattr"));
	}
	/* Fixed: judged against the clean nights, no change. */
	assert_int_equal(night(hist, 10, 503, "median:5"), 0);
	assert_null(strstr(verdict, "REGRESSION"));
	assert_null(strstr(verdict, "improvement"));
	/* Slow again, then accepted: the next slow night passes. */
	assert_int_equal(night(hist, 11, 352, "median:5"), LS_EXIT_REGRESSION);
	assert_int_equal(history_db_open(hist, 0, &db, err, sizeof(err)), 0);
	assert_int_equal(history_db_accept(db, 11, "tester", "new kernel", err,
					   sizeof(err)),
			 0);
	assert_int_equal(history_db_ids(db, NULL, HISTORY_IDS_BASELINE, NULL,
					ids, 32, err, sizeof(err)),
			 1);
	history_db_close(db);
	assert_int_equal(night(hist, 12, 348, "last"), 0);
	assert_null(strstr(verdict, "REGRESSION"));
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/lockstep-test-histfs.XXXXXX");
	return mkdtemp(tmp) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_fs),
		cmocka_unit_test(test_nights),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
