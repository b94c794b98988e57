/*
 * Unit test of the ops.csv sink (master/results/sink_opscsv.c) driven
 * through its hooks as results.c drives them: a file-system phase's
 * merged rows (from the merge, with known per-operation counts from two
 * slaves), a late slave interval and the run's totals go in, and ops.csv
 * in a temporary results folder must hold exactly the rows worked out
 * here; a block phase writes no ops.csv.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "common/fsops.h"
#include "master/run/master_int.h"
#include "master/run/merge.h"
#include "master/results/sink.h"

#define SEC UINT64_C(1000000000)
#define BIT(op) (UINT32_C(1) << (op))

extern const struct sink_ops sink_opscsv;

struct env {
	char dir[64];
	struct results_state out;
	struct phase_state ph;
	struct run_result r;
	struct run_facts fact;
	struct run_view rv;
	void *priv;
};

static void env_init(struct env *e, uint32_t fsops)
{
	memset(e, 0, sizeof(*e));
	snprintf(e->dir, sizeof(e->dir), "/tmp/test_opscsv.XXXXXX");
	assert_non_null(mkdtemp(e->dir));
	snprintf(e->out.dir, sizeof(e->out.dir), "%s", e->dir);
	snprintf(e->r.ph.name, sizeof(e->r.ph.name), "fs1");
	e->r.ph.interval_s = 1.0;
	e->r.fsops = fsops;
	e->ph.cur = &e->r;
	e->ph.runs = &e->r;
	e->ph.nruns = 1;
	e->rv.out = &e->out;
	e->rv.ph = &e->ph;
	e->rv.fact = &e->fact;
	e->priv = calloc(1, sink_opscsv.priv_size);
	assert_non_null(e->priv);
}

static char *env_file(struct env *e)
{
	char path[128];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), "%s/ops.csv", e->dir);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, (size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

static void env_done(struct env *e)
{
	char path[128];

	sink_opscsv.close(&e->rv, e->priv);
	free(e->priv);
	free(e->r.fs);
	snprintf(path, sizeof(path), "%s/ops.csv", e->dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/slave_ops.csv", e->dir);
	unlink(path);
	assert_int_equal(rmdir(e->dir), 0);
}

/* A slave's interval: n creates at 2 ms each, one read of 4 KiB at 1 ms. */
struct iv {
	struct proto_interval iv;
	struct proto_fsop_stat fo;
};

static void iv_make(struct iv *t, unsigned seq, uint64_t n)
{
	struct hist *h = malloc(sizeof(*h));

	assert_non_null(h);
	memset(t, 0, sizeof(*t));
	t->iv.seq = seq;
	t->iv.start_ns = seq * SEC;
	t->iv.end_ns = (seq + 1) * SEC;
	t->iv.ops[0] = 1;
	t->iv.bytes[0] = 4096;
	hist_init(h);
	hist_add(h, 1000000);
	assert_int_equal(hist_to_sparse(h, &t->iv.lat[0]), 0);
	hist_init(h);
	assert_int_equal(hist_to_sparse(h, &t->iv.lat[1]), 0);
	for (uint64_t i = 0; i < n; i++)
		hist_add(h, 2000000);
	t->fo.op = FSOPS_CREATE;
	t->fo.count = n;
	assert_int_equal(hist_to_sparse(h, &t->fo.lat), 0);
	t->iv.nfsops = 1;
	t->iv.fsops = &t->fo;
	free(h);
}

static void iv_free(struct iv *t)
{
	hist_sparse_free(&t->iv.lat[0]);
	hist_sparse_free(&t->iv.lat[1]);
	hist_sparse_free(&t->fo.lat);
}

static void add(struct merge *m, unsigned slave, struct iv *t, int want)
{
	struct merge_sample s = {
		.slave = slave,
		.seq = t->iv.seq,
		.ops = { t->iv.ops[0], t->iv.ops[1] },
		.bytes = { t->iv.bytes[0], t->iv.bytes[1] },
		.lat = { &t->iv.lat[0], &t->iv.lat[1] },
		.cpu_avail_ns = SEC,
		.nfsops = t->iv.nfsops,
		.fsops = t->iv.fsops,
	};

	assert_int_equal(merge_add(m, &s), want);
}

/* The row hook as results_row() calls it. */
static void emit(struct env *e, const struct merge_row *row)
{
	struct sink_row sr = { .row = row, .count = -1 };
	struct fsops_view fv;

	stats_view(row->stats, e->r.ph.interval_s, &sr.v);
	snprintf(sr.label, sizeof(sr.label), "%u", row->seq + 1);
	if (row->fs) {
		fsops_view(row->fs, row->stats, e->r.ph.interval_s, &fv);
		sr.fs = &fv;
	}
	sink_opscsv.row(&e->rv, e->priv, &sr);
}

/*
 * Two slaves, two intervals (none warmup): slave 0 creates 10 then 20,
 * slave 1 30 then (late, after row 2 was written) 40.
 */
static void test_fs_phase(void **state)
{
	struct merge_cfg cfg = {
		2, 2, 0, 0, SEC, SEC, BIT(FSOPS_READ) | BIT(FSOPS_CREATE)
	};
	struct merge *m = merge_new(&cfg);
	struct merge_row row;
	struct iv a, b;
	struct env e;
	struct sink_phase p = { 0 };
	struct sink_run_end end = { .r = NULL };
	struct sink_slave_row late = { .late = 1, .note = "measure" };
	struct slave_rec s;
	char *got;

	(void)state;
	env_init(&e, cfg.fsops);
	sink_opscsv.phase_start(&e.rv, e.priv, &p);
	iv_make(&a, 0, 10);
	add(m, 0, &a, MERGE_ACCEPTED);
	iv_free(&a);
	iv_make(&a, 0, 30);
	add(m, 1, &a, MERGE_ACCEPTED);
	iv_free(&a);
	assert_int_equal(merge_next(m, UINT64_MAX, &row), 1);
	emit(&e, &row);
	iv_make(&a, 1, 20);
	add(m, 0, &a, MERGE_ACCEPTED);
	iv_free(&a);
	assert_int_equal(merge_next(m, UINT64_MAX, &row), 1);
	emit(&e, &row);
	iv_make(&b, 1, 40);
	add(m, 1, &b, MERGE_LATE);
	memset(&s, 0, sizeof(s));
	snprintf(s.hello.name, sizeof(s.hello.name), "s1");
	late.s = &s;
	late.iv = &b.iv;
	sink_opscsv.slave_row(&e.rv, e.priv, &late);
	iv_free(&b);
	/* The run's totals, as the conductor keeps them. */
	e.r.fs = malloc(sizeof(*e.r.fs));
	assert_non_null(e.r.fs);
	fsops_view(merge_fs_totals(m), merge_totals(m), 2.0, e.r.fs);
	end.r = &e.r;
	end.totals = merge_totals(m);
	snprintf(end.label, sizeof(end.label), "avg_1-2");
	sink_opscsv.run_end(&e.rv, e.priv, &end);
	sink_opscsv.end(&e.rv, e.priv);
	got = env_file(&e);
	assert_non_null(got);
	assert_string_equal(
		got,
		"run,interval,phase,start_ns,end_ns,operation,count,rate,bytes,mbps,errors,resp_ms,p50_ms,p95_ms,p99_ms,max_ms\n"
		"fs1,1,measure,0,1000000000,read,2,2.000,8192,0.0078,0,1.000000,1.000000,1.000000,1.000000,1.000000\n"
		"fs1,1,measure,0,1000000000,create,40,40.000,0,0.0000,0,2.000000,2.000000,2.000000,2.000000,2.000000\n"
		"fs1,2,measure,1000000000,2000000000,read,1,1.000,4096,0.0039,0,1.000000,1.000000,1.000000,1.000000,1.000000\n"
		"fs1,2,measure,1000000000,2000000000,create,20,20.000,0,0.0000,0,2.000000,2.000000,2.000000,2.000000,2.000000\n"
		"fs1,2,late,1000000000,2000000000,read,1,1.000,4096,0.0039,0,1.000000,1.000000,1.000000,1.000000,1.000000\n"
		"fs1,2,late,1000000000,2000000000,create,40,40.000,0,0.0000,0,2.000000,2.000000,2.000000,2.000000,2.000000\n"
		"fs1,avg_1-2,total,,,read,4,2.000,16384,0.0078,0,1.000000,1.000000,1.000000,1.000000,1.000000\n"
		"fs1,avg_1-2,total,,,create,100,50.000,0,0.0000,0,2.000000,2.000000,2.000000,2.000000,2.000000\n");
	free(got);
	merge_destroy(&m);
	env_done(&e);
}

/* A block phase: the hooks write nothing, and no ops.csv is made. */
static void test_block_phase(void **state)
{
	struct merge_cfg cfg = { 1, 1, 0, 0, SEC, SEC, 0 };
	struct merge *m = merge_new(&cfg);
	struct merge_row row;
	struct env e;
	struct sink_phase p = { 0 };
	struct iv a;

	(void)state;
	env_init(&e, 0);
	sink_opscsv.phase_start(&e.rv, e.priv, &p);
	iv_make(&a, 0, 0);
	a.iv.nfsops = 0;
	add(m, 0, &a, MERGE_ACCEPTED);
	iv_free(&a);
	assert_int_equal(merge_next(m, UINT64_MAX, &row), 1);
	emit(&e, &row);
	sink_opscsv.end(&e.rv, e.priv);
	assert_null(env_file(&e));
	merge_destroy(&m);
	env_done(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fs_phase),
		cmocka_unit_test(test_block_phase),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
