/*
 * Unit tests of the run history (master/history/db.c, load.c,
 * baseline.c) on real files in a temporary folder: a results folder read
 * back tolerantly (unknown keys and columns), a run recorded and loaded
 * back field by field, baselines resolved (last, last~N, median:N, id,
 * folder), a corrupt or garbage history refused with a clear error
 * while the run hook leaves the exit code alone, and a locked one waited
 * for (5 s), refused, and written whole once it is free.
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
#include <sys/stat.h>
#include <cmocka.h>
#include <sqlite3.h>
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

static const char param[] = "sd=sd1,lun=/tmp/x,size=1m\n"
			    "wd=wd1,sd=sd1,xfersize=4k\n"
			    "rd=r1,wd=wd1,iorate=max,elapsed=4,interval=1\n";

/* A results folder as lockstep writes it, with keys from the future. */
static void make_folder(const char *dir, const char *run_id,
			const char *started, const char *status, double iops)
{
	char json[4096], csv[2048], path[256];

	snprintf(path, sizeof(path), "mkdir -p %s", dir);
	assert_int_equal(system(path), 0);
	snprintf(json, sizeof(json),
		 "{\"version\": \"0.1.0\", \"run_id\": \"%s\", \"status\": \"%s\","
		 " \"exit_code\": 0, \"param_file\": \"/somewhere/p.vdb\","
		 " \"engine\": \"uring\", \"host\": \"master1\","
		 " \"started\": \"%s\", \"ended\": \"%s\","
		 " \"events\": [{\"what\": \"slave lost\", \"at\": 3}],"
		 " \"recovery\": {\"seconds\": 1.5},"
		 " \"slaves\": [{\"name\": \"b-1\", \"host\": \"hb\"},"
		 " {\"name\": \"a-1\", \"host\": \"ha\"},"
		 " {\"name\": \"a-2\", \"host\": \"ha\"}],"
		 " \"runs\": [{\"name\": \"r1\", \"kind\": \"rd\","
		 " \"elapsed_s\": 4, \"warmup_s\": 0, \"interval_s\": 1,"
		 " \"iorate\": 0, \"validation\": {\"errors\": 0},"
		 " \"totals\": {\"iops\": %g, \"mbps\": 3.9, \"errors\": 2,"
		 " \"lat_mean_ms\": 0.5, \"lat_p50_ms\": 0.4,"
		 " \"lat_p95_ms\": 0.9, \"lat_p99_ms\": 1.5,"
		 " \"lat_p999_ms\": null, \"read_pct\": 70, \"new\": 1}}]}\n",
		 run_id, status, started, started, iops);
	put(dir, "summary.json", json);
	snprintf(csv, sizeof(csv),
		 "run,interval,phase,iops,mbps,resp_ms,p95_ms,p99_ms,extra\n"
		 "r1,1,warmup,1,1,1,1,1,x\n"
		 "r1,1,measure,%g,3.9,0.5,0.9,1.4,x\n"
		 "r1,2,measure,%g,3.9,0.5,0.9,1.5,x\n"
		 "r1,2,late,10,0.1,9,9,9,x\n"
		 "r1,3,measure,%g,3.9,0.5,0.9,1.6,x\n"
		 "r1,4,measure,%g,3.9,0.5,0.9,1.5,x\n"
		 "gone,1,measure,5,5,5,5,5,x\n",
		 iops - 10, iops, iops + 10, iops);
	put(dir, "intervals.csv", csv);
	put(dir, "p.vdb", param);
}

static void test_load_dir(void **state)
{
	struct history_run r;
	char dir[128], err[512], hash[20];

	(void)state;
	snprintf(dir, sizeof(dir), "%s/a", tmp);
	make_folder(dir, "run-a", "2026-01-01T00:00:00Z", "completed", 1000);
	assert_int_equal(history_load_dir(dir, &r, err, sizeof(err)), 0);
	assert_string_equal(r.run_id, "run-a");
	assert_string_equal(r.status, "completed");
	assert_string_equal(r.engine, "uring");
	assert_string_equal(r.host, "master1");
	assert_string_equal(r.param_name, "p.vdb");
	history_load_hash(param, strlen(param), hash);
	assert_string_equal(r.param_hash, hash);
	assert_string_equal(r.param_text, param);
	assert_int_equal(r.nslaves, 3);
	assert_string_equal(r.slaves, "a-1,a-2,b-1");
	assert_string_equal(r.hosts, "ha,hb");
	assert_int_equal(r.nphases, 1);
	assert_string_equal(r.ph[0].name, "r1");
	assert_true(r.ph[0].v[HISTORY_IOPS] == 1000);
	assert_true(isnan(r.ph[0].v[HISTORY_P999])); /* null is unknown */
	assert_int_equal(r.ph[0].errors, 2);
	/* Measured rows only; the late row's I/Os join interval 2. */
	assert_int_equal(r.ph[0].n, 4);
	assert_true(r.ph[0].series[HISTORY_S_IOPS][1] == 1010);
	assert_true(r.ph[0].series[HISTORY_S_P99][1] == 1.5);
	assert_non_null(strstr(r.plan, "r1 rd elapsed=4"));
	history_run_free(&r);

	/* Malformed files are refused, and say which. */
	put(dir, "intervals.csv",
	    "run,interval,phase,iops,mbps,resp_ms,p95_ms,p99_ms\n"
	    "r1,1,measure,1,1,1,1,1\nr1,2,measure,1,zz,1,1,1\n");
	assert_int_equal(history_load_dir(dir, &r, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "intervals.csv:3: column mbps"));
	put(dir, "summary.json", "{\"run_id\": \"x\", \"runs\": [");
	assert_int_equal(history_load_dir(dir, &r, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "summary.json: not a lockstep summary"));
	assert_int_equal(history_load_dir("/nonexistent", &r, err, sizeof(err)),
			 -ENOENT);
}

static void test_db_roundtrip(void **state)
{
	struct history_run a, b, m;
	struct history_db *db;
	char dir[128], path[128], err[512];
	int64_t id, ids[8];

	(void)state;
	snprintf(path, sizeof(path), "%s/h.db", tmp);
	assert_int_equal(history_db_open(path, 0, &db, err, sizeof(err)),
			 -ENOENT);
	assert_int_equal(history_db_open(path, 1, &db, err, sizeof(err)), 0);
	/* Three nights: two completed, one aborted (newest). */
	snprintf(dir, sizeof(dir), "%s/n1", tmp);
	make_folder(dir, "run-1", "2026-01-01T00:00:00Z", "completed", 1000);
	assert_int_equal(history_load_dir(dir, &a, err, sizeof(err)), 0);
	assert_int_equal(history_db_record(db, &a, &id, err, sizeof(err)), 0);
	assert_int_equal(id, 1);
	assert_int_equal(history_db_record(db, &a, &id, err, sizeof(err)),
			 -EEXIST);
	assert_int_equal(id, 1);
	assert_int_equal(history_db_load(db, 1, &b, err, sizeof(err)), 0);
	assert_int_equal(b.id, 1);
	assert_string_equal(b.run_id, a.run_id);
	assert_string_equal(b.param_hash, a.param_hash);
	assert_string_equal(b.param_text, a.param_text);
	assert_string_equal(b.hosts, a.hosts);
	assert_string_equal(b.slaves, a.slaves);
	assert_string_equal(b.engine, "uring");
	assert_string_equal(b.dir, a.dir);
	assert_int_equal(b.nphases, 1);
	assert_int_equal(b.ph[0].n, 4);
	for (int mt = 0; mt < HISTORY_NMETRICS; mt++)
		assert_true(b.ph[0].v[mt] == a.ph[0].v[mt] ||
			    (isnan(b.ph[0].v[mt]) && isnan(a.ph[0].v[mt])));
	for (int s = 0; s < HISTORY_NSERIES; s++)
		assert_memory_equal(b.ph[0].series[s], a.ph[0].series[s],
				    4 * sizeof(double));
	history_run_free(&a);
	history_run_free(&b);

	snprintf(dir, sizeof(dir), "%s/n2", tmp);
	make_folder(dir, "run-2", "2026-01-02T00:00:00Z", "completed", 3000);
	assert_int_equal(history_load_dir(dir, &a, err, sizeof(err)), 0);
	assert_int_equal(history_db_record(db, &a, &id, err, sizeof(err)), 0);
	history_run_free(&a);
	snprintf(dir, sizeof(dir), "%s/n3", tmp);
	make_folder(dir, "run-3", "2026-01-03T00:00:00Z", "aborted", 100);
	assert_int_equal(history_load_dir(dir, &a, err, sizeof(err)), 0);
	assert_int_equal(history_db_record(db, &a, &id, err, sizeof(err)), 0);

	assert_int_equal(history_db_ids(db, NULL, 0, NULL, ids, 8, err,
					sizeof(err)),
			 3);
	assert_int_equal(ids[0], 3); /* newest first */
	assert_int_equal(history_db_ids(db, "p.vdb", 1, NULL, ids, 8, err,
					sizeof(err)),
			 2);
	assert_int_equal(history_db_ids(db, "other.vdb", 0, NULL, ids, 8, err,
					sizeof(err)),
			 0);

	/* last: the newest completed run, never the aborted one. */
	assert_int_equal(history_resolve(db, "last", a.param_hash, NULL, &b,
					 err, sizeof(err)),
			 0);
	assert_string_equal(b.run_id, "run-2");
	history_run_free(&b);
	assert_int_equal(history_resolve(db, "last~1", a.param_hash, NULL, &b,
					 err, sizeof(err)),
			 0);
	assert_string_equal(b.run_id, "run-1");
	history_run_free(&b);
	/* ... and never the run being judged. */
	assert_int_equal(history_resolve(db, "last", a.param_hash, "run-2", &b,
					 err, sizeof(err)),
			 0);
	assert_string_equal(b.run_id, "run-1");
	history_run_free(&b);
	assert_int_equal(history_resolve(db, "last~2", a.param_hash, NULL, &b,
					 err, sizeof(err)),
			 -ENOENT);
	assert_int_equal(history_resolve(db, "median:2", a.param_hash, NULL, &m,
					 err, sizeof(err)),
			 0);
	assert_true(m.ph[0].v[HISTORY_IOPS] == 2000);
	assert_int_equal(m.ph[0].n, 8);
	history_run_free(&m);
	assert_int_equal(history_resolve(db, "median:3", a.param_hash, NULL, &m,
					 err, sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, "2 usable runs"));
	assert_int_equal(history_resolve(db, "3", NULL, NULL, &b, err,
					 sizeof(err)),
			 0);
	assert_string_equal(b.status, "aborted");
	history_run_free(&b);
	assert_int_equal(history_resolve(db, "99", NULL, NULL, &b, err,
					 sizeof(err)),
			 -ENOENT);
	assert_int_equal(history_resolve(NULL, dir, NULL, NULL, &b, err,
					 sizeof(err)),
			 0);
	assert_string_equal(b.run_id, "run-3");
	history_run_free(&b);
	assert_int_equal(history_resolve(NULL, "last", NULL, NULL, &b, err,
					 sizeof(err)),
			 -EINVAL);
	assert_int_equal(history_spec_ok("median:0", err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(history_spec_ok("last~x", err, sizeof(err)), -EINVAL);
	assert_int_equal(history_spec_ok("bogus", err, sizeof(err)), -EINVAL);
	history_run_free(&a);
	history_db_close(db);
}

static void test_corrupt(void **state)
{
	struct history_db *db;
	char dir[128], path[128], err[512], junk[8192];

	(void)state;
	snprintf(path, sizeof(path), "%s/bad.db", tmp);
	memset(junk, 'x', sizeof(junk));
	junk[sizeof(junk) - 1] = 0;
	put(tmp, "bad.db", junk);
	assert_int_equal(history_db_open(path, 1, &db, err, sizeof(err)),
			 -EBADMSG);
	assert_non_null(strstr(err, "not a database"));
	assert_non_null(strstr(err, "history import"));
	/* The hook says so and leaves every exit code as it was. */
	snprintf(dir, sizeof(dir), "%s/c", tmp);
	make_folder(dir, "run-c", "2026-01-04T00:00:00Z", "completed", 100);
	assert_int_equal(history_run_hook(dir, path, 0, NULL, NULL, 0, NULL,
					  NULL),
			 0);
	/* A comparison asked for and not made is exit 6, never 0. */
	assert_int_equal(history_run_hook(dir, path, 0, "last", NULL, 0, NULL,
					  NULL),
			 LS_EXIT_NO_BASELINE);
	assert_int_equal(history_run_hook(dir, path, 0, "median:3", NULL, 4,
					  NULL, NULL),
			 4);
	/* The garbage is left as it was: nothing overwrote it. */
	{
		FILE *f = fopen(path, "r");
		char back[16] = "";

		assert_non_null(f);
		assert_int_equal(fread(back, 1, 8, f), 8);
		fclose(f);
		assert_memory_equal(back, "xxxxxxxx", 8);
	}
}

static void test_locked(void **state)
{
	struct history_db *db;
	char dir[128], path[128], err[512];
	sqlite3 *other;
	int64_t id;
	struct history_run r;

	(void)state;
	snprintf(path, sizeof(path), "%s/locked.db", tmp);
	assert_int_equal(history_db_open(path, 1, &db, err, sizeof(err)), 0);
	/* Another writer holds the history past the 5 s busy wait. */
	assert_int_equal(sqlite3_open(path, &other), SQLITE_OK);
	assert_int_equal(sqlite3_exec(other, "BEGIN EXCLUSIVE", NULL, NULL,
				      NULL),
			 SQLITE_OK);
	snprintf(dir, sizeof(dir), "%s/l", tmp);
	make_folder(dir, "run-l", "2026-01-07T00:00:00Z", "completed", 100);
	assert_int_equal(history_load_dir(dir, &r, err, sizeof(err)), 0);
	assert_int_equal(history_db_record(db, &r, &id, err, sizeof(err)),
			 -EBUSY);
	assert_non_null(strstr(err, "another lockstep holds it"));
	/* Nothing half-written: once free, the run goes in whole. */
	sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_close(other);
	assert_int_equal(history_db_record(db, &r, &id, err, sizeof(err)), 0);
	history_run_free(&r);
	assert_int_equal(history_db_load(db, id, &r, err, sizeof(err)), 0);
	assert_int_equal(r.ph[0].n, 4);
	history_run_free(&r);
	history_db_close(db);
}

/* A seal that writes compare.json where arg says (the run's sink does it
   through its writer): what the hook hands over is the comparison. */
static int seal_compare(void *arg, const struct history_seal *s)
{
	FILE *f;

	if (!s->cmp)
		return s->exit_code;
	assert_non_null(s->base);
	assert_non_null(s->cur);
	f = fopen(arg, "w");
	assert_non_null(f);
	assert_int_equal(history_compare_file(f, s, 1), 0);
	assert_int_equal(fclose(f), 0);
	return s->exit_code;
}

static void test_hook_regression(void **state)
{
	char a[128], b[128], path[128], cj[160];

	(void)state;
	/* A folder baseline needs no history: 3000 -> 1000 IOPS is exit 3. */
	snprintf(a, sizeof(a), "%s/base", tmp);
	snprintf(b, sizeof(b), "%s/cand", tmp);
	make_folder(a, "run-base", "2026-01-05T00:00:00Z", "completed", 3000);
	make_folder(b, "run-cand", "2026-01-06T00:00:00Z", "completed", 1000);
	snprintf(path, sizeof(path), "%s/hook.db", tmp);
	snprintf(cj, sizeof(cj), "%s/compare.json", b);
	assert_int_equal(history_run_hook(b, path, 0, a, NULL, 0, seal_compare,
					  cj),
			 3);
	assert_int_equal(access(cj, R_OK), 0);
	/* 4 (degraded) keeps its meaning over a regression. */
	assert_int_equal(history_run_hook(b, NULL, 1, a, NULL, 4, NULL, NULL),
			 4);
	/* The other way round is an improvement: exit 0. */
	assert_int_equal(history_run_hook(a, NULL, 1, b, NULL, 0, NULL, NULL),
			 0);
}

/* Record a night (folder dir/NAME) with an exit code: its history id. */
static int64_t record_night(struct history_db *db, int night, double iops,
			    int exit_code)
{
	char dir[160], rid[32], started[32], err[512];
	struct history_run r;
	int64_t id;

	snprintf(dir, sizeof(dir), "%s/night%d", tmp, night);
	snprintf(rid, sizeof(rid), "run-n%d", night);
	snprintf(started, sizeof(started), "2026-02-%02dT00:00:00Z", night);
	make_folder(dir, rid, started, "completed", iops);
	assert_int_equal(history_load_dir(dir, &r, err, sizeof(err)), 0);
	r.exit_code = exit_code;
	if (exit_code == 3)
		strcpy(r.status, "regression");
	if (exit_code == 4)
		strcpy(r.status, "degraded");
	assert_int_equal(history_db_record(db, &r, &id, err, sizeof(err)), 0);
	history_run_free(&r);
	return id;
}

static double base_iops(struct history_db *db, const char *spec, int *ret)
{
	struct history_run b;
	char err[512];
	double v;

	*ret = history_resolve(db, spec, NULL, NULL, &b, err, sizeof(err));
	if (*ret < 0)
		return NAN;
	v = b.ph[0].v[HISTORY_IOPS];
	history_run_free(&b);
	return v;
}

static void test_baseline_excludes_regressions(void **state)
{
	struct history_db *db;
	char path[128], err[512];
	int64_t ids[16], slow;
	int ret;

	(void)state;
	snprintf(path, sizeof(path), "%s/nights.db", tmp);
	assert_int_equal(history_db_open(path, 1, &db, err, sizeof(err)), 0);
	/* Five nights at 150k, then two regressions at 114k, one degraded. */
	for (int i = 1; i <= 5; i++)
		record_night(db, i, 150000, 0);
	record_night(db, 6, 114000, 3);
	slow = record_night(db, 7, 114000, 3);
	record_night(db, 8, 150000, 4);
	/* median:5 and last are of the clean nights only. */
	assert_true(fabs(base_iops(db, "median:5", &ret) - 150000) < 1);
	assert_true(fabs(base_iops(db, "last", &ret) - 150000) < 1);
	assert_int_equal(history_db_ids(db, NULL, HISTORY_IDS_BASELINE, NULL,
					ids, 16, err, sizeof(err)),
			 5);
	assert_int_equal(ids[0], 5);
	/* median:6 wants a sixth usable night: there is none. */
	base_iops(db, "median:6", &ret);
	assert_int_equal(ret, -ENOENT);
	/* Accepting the slow level: it and the clean nights after it. */
	assert_int_equal(history_db_accept(db, slow, "tester", "new disks", err,
					   sizeof(err)),
			 0);
	assert_int_equal(history_db_accept(db, 99, "tester", "x", err,
					   sizeof(err)),
			 -ENOENT);
	assert_true(fabs(base_iops(db, "last", &ret) - 114000) < 1);
	record_night(db, 9, 115000, 0);
	assert_true(fabs(base_iops(db, "last", &ret) - 115000) < 1);
	assert_true(fabs(base_iops(db, "median:2", &ret) - 114500) < 1);
	base_iops(db, "median:3", &ret);
	assert_int_equal(ret, -ENOENT); /* nothing before the acceptance */
	/* Every night still counts for change points. */
	assert_int_equal(history_db_ids(db, NULL, HISTORY_IDS_MEASURED, NULL,
					ids, 16, err, sizeof(err)),
			 8);
	history_db_close(db);
}

static void test_migrate_v1(void **state)
{
	struct history_db *db;
	struct history_run r;
	char path[128], err[512];
	sqlite3 *h;
	sqlite3_stmt *st;

	(void)state;
	snprintf(path, sizeof(path), "%s/v1.db", tmp);
	/* A history as version 1 wrote it, with one run. */
	assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
	assert_int_equal(
		sqlite3_exec(h,
			     "CREATE TABLE runs(id INTEGER PRIMARY KEY AUTOINCREMENT,"
			     " run_id TEXT UNIQUE NOT NULL, started TEXT, ended TEXT,"
			     " status TEXT, exit_code INTEGER, host TEXT, engine TEXT,"
			     " slaves TEXT, hosts TEXT, nslaves INTEGER, param_name TEXT,"
			     " param_hash TEXT, param_text TEXT, plan TEXT, dir TEXT,"
			     " recorded TEXT);"
			     "CREATE TABLE phases(run INTEGER NOT NULL, idx INTEGER NOT NULL,"
			     " name TEXT NOT NULL, kind TEXT, elapsed_s REAL, warmup_s REAL,"
			     " interval_s REAL, iorate REAL, errors INTEGER, iops REAL,"
			     " mbps REAL, lat_mean_ms REAL, lat_p50_ms REAL, lat_p95_ms REAL,"
			     " lat_p99_ms REAL, lat_p999_ms REAL, read_pct REAL,"
			     " PRIMARY KEY(run, idx));"
			     "CREATE TABLE intervals(run INTEGER NOT NULL, phase INTEGER NOT NULL,"
			     " seq INTEGER NOT NULL, iops REAL, mbps REAL, resp_ms REAL,"
			     " p95_ms REAL, p99_ms REAL, PRIMARY KEY(run, phase, seq));"
			     "INSERT INTO runs(run_id,started,status,exit_code,param_hash)"
			     " VALUES('old','2025-01-01T00:00:00Z','completed',0,'h');"
			     "INSERT INTO phases(run,idx,name,iops) VALUES(1,0,'r1',777);"
			     "PRAGMA user_version=1;",
			     NULL, NULL, NULL),
		SQLITE_OK);
	sqlite3_close(h);
	assert_int_equal(history_db_open(path, 0, &db, err, sizeof(err)), 0);
	assert_int_equal(history_db_load(db, 1, &r, err, sizeof(err)), 0);
	assert_string_equal(r.run_id, "old");
	assert_string_equal(r.verdict, "");
	assert_true(fabs(r.ph[0].v[HISTORY_IOPS] - 777) < 1e-9);
	history_run_free(&r);
	assert_int_equal(history_db_accept(db, 1, "me", "why", err,
					   sizeof(err)),
			 0);
	history_db_close(db);
	assert_int_equal(sqlite3_open(path, &h), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(h, "PRAGMA user_version", -1, &st,
					    NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(st, 0), 2);
	sqlite3_finalize(st);
	/* A history of a newer lockstep is refused, not rewritten. */
	assert_int_equal(sqlite3_exec(h, "PRAGMA user_version=9", NULL, NULL,
				      NULL),
			 SQLITE_OK);
	sqlite3_close(h);
	assert_int_equal(history_db_open(path, 0, &db, err, sizeof(err)),
			 -EPROTO);
	assert_non_null(strstr(err, "newer"));
}

static int sealed_code;
static char sealed_line[1024];

static int seal(void *arg, const struct history_seal *s)
{
	(void)arg;
	sealed_code = s->exit_code;
	snprintf(sealed_line, sizeof(sealed_line), "%s", s->verdict);
	return s->exit_code;
}

/* A seal whose folder could not be finished (report.html not written). */
static int seal_fails(void *arg, const struct history_seal *s)
{
	(void)arg;
	sealed_code = s->exit_code;
	return LS_EXIT_INCOMPLETE;
}

static void test_hook_seals_verdict(void **state)
{
	struct history_db *db;
	struct history_run r;
	char a[128], b[128], path[128], err[512];

	(void)state;
	snprintf(a, sizeof(a), "%s/sbase", tmp);
	snprintf(b, sizeof(b), "%s/scand", tmp);
	snprintf(path, sizeof(path), "%s/seal.db", tmp);
	make_folder(a, "run-sbase", "2026-03-01T00:00:00Z", "completed", 3000);
	make_folder(b, "run-scand", "2026-03-02T00:00:00Z", "completed", 1000);
	assert_int_equal(history_run_hook(a, path, 0, NULL, NULL, 0, seal,
					  NULL),
			 0);
	assert_int_equal(history_run_hook(b, path, 0, "last", NULL, 0, seal,
					  NULL),
			 3);
	/* The folder and the history get the verdict that was printed. */
	assert_int_equal(sealed_code, 3);
	assert_non_null(strstr(sealed_line, "REGRESSION: r1 IOPS -66.7% (p="));
	assert_non_null(strstr(sealed_line, " vs history id 1"));
	assert_int_equal(history_db_open(path, 0, &db, err, sizeof(err)), 0);
	assert_int_equal(history_db_load(db, 2, &r, err, sizeof(err)), 0);
	assert_int_equal(r.exit_code, 3);
	assert_string_equal(r.status, "regression");
	assert_string_equal(r.verdict, sealed_line);
	history_run_free(&r);
	history_db_close(db);
	/* Tonight's regression is no baseline: median:2 cannot be made. */
	snprintf(b, sizeof(b), "%s/scand2", tmp);
	make_folder(b, "run-scand2", "2026-03-03T00:00:00Z", "completed", 1000);
	assert_int_equal(history_run_hook(b, path, 0, "median:2", NULL, 0, seal,
					  NULL),
			 LS_EXIT_NO_BASELINE);
	assert_int_equal(sealed_code, LS_EXIT_NO_BASELINE);
	assert_non_null(
		strstr(sealed_line, "no comparison: baseline median:2"));
	/* ... and last still is the clean night: exit 3 again. */
	snprintf(b, sizeof(b), "%s/scand3", tmp);
	make_folder(b, "run-scand3", "2026-03-04T00:00:00Z", "completed", 1000);
	assert_int_equal(history_run_hook(b, path, 0, "last", NULL, 0, seal,
					  NULL),
			 3);
	/*
	 * A folder the seal could not finish (report.html, a summary not
	 * rewritten) is incomplete: the hook returns what the seal says and
	 * the history row records it, with or without a baseline.
	 */
	snprintf(b, sizeof(b), "%s/scand4", tmp);
	make_folder(b, "run-scand4", "2026-03-05T00:00:00Z", "completed", 1000);
	assert_int_equal(history_run_hook(b, path, 0, "last", NULL, 0,
					  seal_fails, NULL),
			 LS_EXIT_INCOMPLETE);
	assert_int_equal(sealed_code, 3);
	assert_int_equal(history_db_open(path, 0, &db, err, sizeof(err)), 0);
	assert_int_equal(history_db_load(db, 5, &r, err, sizeof(err)), 0);
	assert_int_equal(r.exit_code, LS_EXIT_INCOMPLETE);
	assert_string_equal(r.status, "incomplete");
	history_run_free(&r);
	history_db_close(db);
	snprintf(b, sizeof(b), "%s/scand5", tmp);
	make_folder(b, "run-scand5", "2026-03-06T00:00:00Z", "completed", 3000);
	sealed_code = -1;
	assert_int_equal(history_run_hook(b, NULL, 1, NULL, NULL, 0, seal_fails,
					  NULL),
			 LS_EXIT_INCOMPLETE);
	assert_int_equal(sealed_code, 0);
}

static void test_summary_without_slaves(void **state)
{
	struct history_run r;
	char dir[128], err[512];

	(void)state;
	/* UBSan: no slaves array once meant qsort(NULL, 0). */
	snprintf(dir, sizeof(dir), "%s/noslaves", tmp);
	make_folder(dir, "run-ns", "2026-04-01T00:00:00Z", "completed", 100);
	put(dir, "summary.json",
	    "{\"run_id\": \"ns\", \"status\": \"completed\", \"runs\": []}");
	assert_int_equal(history_load_dir(dir, &r, err, sizeof(err)), 0);
	assert_int_equal(r.nslaves, 0);
	history_run_free(&r);
}

/* An --insecure run is said so in the history, and only a JSON true is. */
static void test_insecure_recorded(void **state)
{
	struct history_db *db;
	struct history_run r, back;
	char dir[128], path[128], err[512];
	int64_t id;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/insec", tmp);
	snprintf(path, sizeof(path), "%s/insec.db", tmp);
	make_folder(dir, "run-insec", "2026-04-02T00:00:00Z", "completed", 100);
	put(dir, "summary.json",
	    "{\"run_id\": \"insec\", \"status\": \"completed\", "
	    "\"insecure\": true, \"runs\": []}");
	assert_int_equal(history_load_dir(dir, &r, err, sizeof(err)), 0);
	assert_true(r.insecure);
	assert_int_equal(history_db_open(path, 1, &db, err, sizeof(err)), 0);
	assert_int_equal(history_db_record(db, &r, &id, err, sizeof(err)), 0);
	assert_int_equal(history_db_load(db, id, &back, err, sizeof(err)), 0);
	assert_true(back.insecure);
	history_run_free(&back);
	history_db_close(db);
	history_run_free(&r);
	put(dir, "summary.json",
	    "{\"run_id\": \"insec2\", \"status\": \"completed\", "
	    "\"insecure\": \"no\", \"runs\": []}");
	assert_int_equal(history_load_dir(dir, &r, err, sizeof(err)), 0);
	assert_false(r.insecure);
	history_run_free(&r);
}

static void test_default_path(void **state)
{
	char buf[256];

	(void)state;
	/* LOCKSTEP_HISTORY wins; else root's place, else the user's. */
	assert_int_equal(history_default_for("/x/h.db", 0, "/xdg", "/home/u",
					     buf, sizeof(buf)),
			 0);
	assert_string_equal(buf, "/x/h.db");
	assert_int_equal(history_default_for(NULL, 0, "/xdg", "/home/u", buf,
					     sizeof(buf)),
			 0);
	assert_string_equal(buf, "/var/lib/lockstep/history.db");
	assert_int_equal(history_default_for("", 1000, "/xdg", "/home/u", buf,
					     sizeof(buf)),
			 0);
	assert_string_equal(buf, "/xdg/lockstep/history.db");
	/* A relative XDG_DATA_HOME is ignored, as the spec says. */
	assert_int_equal(history_default_for(NULL, 1000, "rel", "/home/u", buf,
					     sizeof(buf)),
			 0);
	assert_string_equal(buf, "/home/u/.local/share/lockstep/history.db");
	assert_int_equal(history_default_for(NULL, 1000, NULL, NULL, buf,
					     sizeof(buf)),
			 -ENOENT);
	/* Never the results folder: -o does not move the history. */
	assert_int_equal(history_default_for(NULL, 1000, NULL, "/home/u", buf,
					     8),
			 -ENAMETOOLONG);
}

/* summary.json with one run whose totals.iops is the JSON text val. */
static int load_with_iops(const char *dir, const char *val, char *err,
			  size_t errlen)
{
	struct history_run r;
	char json[1024];
	int ret;

	snprintf(json, sizeof(json),
		 "{\"run_id\": \"h\", \"status\": \"completed\", \"slaves\": [],"
		 " \"runs\": [{\"name\": \"r1\", \"kind\": \"rd\","
		 " \"totals\": {\"iops\": %s, \"mbps\": 3.9, \"read_pct\": 70}}]}",
		 val);
	put(dir, "summary.json", json);
	ret = history_load_dir(dir, &r, err, errlen);
	if (ret == 0)
		history_run_free(&r);
	return ret;
}

static void test_absurd_totals(void **state)
{
	static const char *const bad[] = { "1e308",   "-5",     "1e999",
					   "-1e999",  "[1, 2]", "{\"a\": 1}",
					   "\"many\"" };
	char dir[128], err[512];

	(void)state;
	snprintf(dir, sizeof(dir), "%s/absurd", tmp);
	make_folder(dir, "run-x", "2026-05-01T00:00:00Z", "completed", 1000);
	/* The folder's intervals say about 1000 IOPS. */
	assert_int_equal(load_with_iops(dir, "1003", err, sizeof(err)), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		assert_int_equal(load_with_iops(dir, bad[i], err, sizeof(err)),
				 -EBADMSG);
		assert_non_null(strstr(err, "totals.iops"));
		assert_non_null(strstr(err, "refused"));
	}
	/* 3000 where the intervals measured 1000: not this folder's figure. */
	assert_int_equal(load_with_iops(dir, "3000", err, sizeof(err)),
			 -EBADMSG);
	assert_non_null(strstr(err, "does not match"));
	/* A non-finite interval is refused too. */
	put(dir, "intervals.csv",
	    "run,interval,phase,iops,mbps,resp_ms,p95_ms,p99_ms\n"
	    "r1,1,measure,inf,3.9,0.5,0.9,1.4\n");
	assert_int_equal(load_with_iops(dir, "1000", err, sizeof(err)),
			 -EBADMSG);
	assert_non_null(strstr(err, "intervals.csv"));
}

static void test_unsafe_files(void **state)
{
	struct history_run r;
	char dir[128], path[256], err[512], secret[160];
	int ret;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/unsafe", tmp);
	make_folder(dir, "run-u", "2026-05-02T00:00:00Z", "completed", 1000);
	/* A parameter-file copy that is a link to another file: refused. */
	snprintf(secret, sizeof(secret), "%s/secret.txt", tmp);
	put(tmp, "secret.txt", "root only\n");
	snprintf(path, sizeof(path), "%s/p.vdb", dir);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(symlink(secret, path), 0);
	assert_int_equal(history_load_dir(dir, &r, err, sizeof(err)), -ELOOP);
	assert_non_null(strstr(err, "p.vdb: a symbolic link (not followed)"));
	assert_int_equal(unlink(path), 0);
	put(dir, "p.vdb", param);
	/* A FIFO intervals.csv: refused at once, never waited on. */
	snprintf(path, sizeof(path), "%s/intervals.csv", dir);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkfifo(path, 0600), 0);
	ret = history_load_dir(dir, &r, err, sizeof(err));
	assert_int_equal(ret, -EINVAL);
	assert_non_null(strstr(err, "intervals.csv: not a regular file"));
	/* summary.json as a link: refused the same way. */
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(symlink(secret, path), 0);
	assert_int_equal(history_load_dir(dir, &r, err, sizeof(err)), -ELOOP);
	assert_non_null(strstr(err, "summary.json: a symbolic link"));
}

static int setup(void **state)
{
	(void)state;
	strcpy(tmp, "/tmp/test_history.XXXXXX");
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
		cmocka_unit_test(test_load_dir),
		cmocka_unit_test(test_db_roundtrip),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_locked),
		cmocka_unit_test(test_hook_regression),
		cmocka_unit_test(test_baseline_excludes_regressions),
		cmocka_unit_test(test_migrate_v1),
		cmocka_unit_test(test_hook_seals_verdict),
		cmocka_unit_test(test_summary_without_slaves),
		cmocka_unit_test(test_insecure_recorded),
		cmocka_unit_test(test_default_path),
		cmocka_unit_test(test_absurd_totals),
		cmocka_unit_test(test_unsafe_files),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
