/*
 * Unit tests of the merge's file-system operations (merge.h, fsops.h):
 * known per-operation counts, bytes, errors and latencies from several
 * slaves, one of them late and one lost, are merged into rows and totals
 * checked against sums and histograms built here from the same values,
 * each slave's sums against its own;
 * a block phase keeps none and refuses them; the view's rates and means.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <math.h>
#include <cmocka.h>

#include "common/fsops.h"
#include "common/hist.h"
#include "master/run/merge.h"

#define SEC UINT64_C(1000000000)
#define T0 (UINT64_C(1700000000) * SEC)
#define NSL 3
#define NIV 4
#define WARM 1

#define BIT(op) (UINT32_C(1) << (op))

/* One slave's interval: reads, creates and deletes, all known. */
struct fsample {
	struct merge_sample s;
	struct hist_sparse rw[2];
	struct proto_fsop_stat fo[2];
};

/* Operations of (slave, seq): creates k+s+1 at (k+1) ms + i us, ... */
static uint64_t n_create(unsigned k, unsigned seq)
{
	return k + seq + 1;
}

static uint64_t n_delete(unsigned k, unsigned seq)
{
	return (k + seq) % 2 ? 2 : 0; /* some intervals delete nothing */
}

static uint64_t lat_of(unsigned op, unsigned k, unsigned i)
{
	return (uint64_t)(op == FSOPS_CREATE ? 1000000 : 3000000) * (k + 1) +
	       1000 * i;
}

static void sparse_of(const struct hist *h, struct hist_sparse *out)
{
	assert_int_equal(hist_to_sparse(h, out), 0);
}

/* Build the sample, adding its values to ref[op] when ref is not NULL. */
static void make(struct fsample *t, unsigned k, unsigned seq, struct hist *ref)
{
	struct hist *h = malloc(sizeof(*h));
	const unsigned ops[2] = { FSOPS_CREATE, FSOPS_DELETE };

	assert_non_null(h);
	memset(t, 0, sizeof(*t));
	t->s.slave = k;
	t->s.seq = seq;
	/* Two reads of 4 KiB at 200 us each; no writes. */
	hist_init(h);
	hist_add(h, 200000);
	hist_add(h, 200000);
	if (ref) {
		hist_add(&ref[FSOPS_READ], 200000);
		hist_add(&ref[FSOPS_READ], 200000);
	}
	sparse_of(h, &t->rw[0]);
	hist_init(h);
	sparse_of(h, &t->rw[1]);
	t->s.ops[0] = 2;
	t->s.bytes[0] = 8192;
	t->s.lat[0] = &t->rw[0];
	t->s.lat[1] = &t->rw[1];
	t->s.cpu_avail_ns = SEC;
	for (unsigned j = 0; j < 2; j++) {
		unsigned op = ops[j];
		uint64_t n = op == FSOPS_CREATE ? n_create(k, seq) :
						  n_delete(k, seq);

		hist_init(h);
		for (unsigned i = 0; i < n; i++) {
			hist_add(h, lat_of(op, k, i));
			if (ref)
				hist_add(&ref[op], lat_of(op, k, i));
		}
		t->fo[j].op = op;
		t->fo[j].count = n;
		t->fo[j].bytes = 0;
		t->fo[j].errors = op == FSOPS_DELETE ? n / 2 : 0;
		sparse_of(h, &t->fo[j].lat);
	}
	t->s.nfsops = 2;
	t->s.fsops = t->fo;
	free(h);
}

static void unmake(struct fsample *t)
{
	hist_sparse_free(&t->rw[0]);
	hist_sparse_free(&t->rw[1]);
	hist_sparse_free(&t->fo[0].lat);
	hist_sparse_free(&t->fo[1].lat);
}

static struct hist *hists(unsigned n)
{
	struct hist *h = malloc(n * sizeof(*h));

	assert_non_null(h);
	for (unsigned i = 0; i < n; i++)
		hist_init(&h[i]);
	return h;
}

static void add(struct merge *m, unsigned k, unsigned seq, struct hist *ref,
		int want)
{
	struct fsample t;

	make(&t, k, seq, ref);
	assert_int_equal(merge_add(m, &t.s), want);
	unmake(&t);
}

static void same_hist(const struct hist *got, const struct hist *want)
{
	assert_non_null(got);
	assert_int_equal(got->count, want->count);
	assert_int_equal(got->sum, want->sum);
	assert_int_equal(got->min, want->min);
	assert_int_equal(got->max, want->max);
	assert_memory_equal(got->buckets, want->buckets, sizeof(want->buckets));
}

/*
 * Three slaves, four intervals (the first warmup). Slave 1 is lost after
 * interval 2 (its interval 3 never comes); slave 2's interval 2 arrives
 * after that row was emitted: it is in the totals, not in its row.
 */
static void test_merge_cluster(void **state)
{
	struct merge_cfg cfg = {
		.nslaves = NSL,
		.intervals = NIV,
		.warmup_intervals = WARM,
		.start_ns = T0,
		.interval_ns = SEC,
		.grace_ns = SEC,
		.fsops = BIT(FSOPS_CREATE) | BIT(FSOPS_DELETE),
	};
	struct hist *row_ref = hists(NIV * FSOPS_N), *tot = hists(FSOPS_N);
	struct merge *m = merge_new(&cfg);
	struct merge_row row;
	uint64_t cnt[NIV][FSOPS_N] = { { 0 } }, err[NIV][FSOPS_N] = { { 0 } };
	uint64_t tcnt[FSOPS_N] = { 0 }, terr[FSOPS_N] = { 0 };
	const struct fsops *fs;

	(void)state;
	assert_non_null(m);
	for (unsigned seq = 0; seq < NIV; seq++)
		for (unsigned k = 0; k < NSL; k++) {
			if ((k == 2 && seq == 2) || (k == 1 && seq == 3))
				continue;
			add(m, k, seq, &row_ref[seq * FSOPS_N], MERGE_ACCEPTED);
			if (seq >= WARM)
				add(m, k, seq, NULL, MERGE_DUPLICATE);
			cnt[seq][FSOPS_CREATE] += n_create(k, seq);
			cnt[seq][FSOPS_DELETE] += n_delete(k, seq);
			err[seq][FSOPS_DELETE] += n_delete(k, seq) / 2;
		}
	merge_slave_lost(m, 1);
	for (unsigned seq = 0; seq < 3; seq++) {
		assert_int_equal(merge_next(m, UINT64_MAX, &row), 1);
		assert_int_equal(row.seq, seq);
		assert_non_null(row.fs);
		for (unsigned op = FSOPS_CREATE; op <= FSOPS_DELETE; op++) {
			assert_int_equal(row.fs->op[op].count, cnt[seq][op]);
			assert_int_equal(row.fs->op[op].errors, err[seq][op]);
			same_hist(row.fs->op[op].lat,
				  &row_ref[seq * FSOPS_N + op]);
		}
		assert_null(row.fs->op[FSOPS_MKDIR].lat);
		assert_int_equal(row.fs->op[FSOPS_MKDIR].count, 0);
		assert_int_equal(row.fs->requested, cfg.fsops);
		assert_int_equal(row.stats->ops[0], 2 * row.reported);
	}
	/* Row 2 had two of three: slave 2's comes late. */
	add(m, 2, 2, NULL, MERGE_LATE);
	assert_int_equal(merge_next(m, UINT64_MAX, &row), 1);
	assert_int_equal(row.seq, 3);
	assert_int_equal(row.reported, 2);
	assert_int_equal(row.fs->op[FSOPS_CREATE].count, cnt[3][FSOPS_CREATE]);

	/* The totals: measured rows (1..3) and the late sample. */
	for (unsigned seq = WARM; seq < NIV; seq++)
		for (unsigned op = FSOPS_CREATE; op <= FSOPS_DELETE; op++) {
			hist_merge(&tot[op], &row_ref[seq * FSOPS_N + op]);
			tcnt[op] += cnt[seq][op];
			terr[op] += err[seq][op];
		}
	{
		struct fsample t;

		make(&t, 2, 2, NULL);
		for (unsigned j = 0; j < 2; j++) {
			unsigned op = t.fo[j].op;
			struct hist h;

			tcnt[op] += t.fo[j].count;
			terr[op] += t.fo[j].errors;
			hist_init(&h);
			assert_int_equal(hist_add_sparse(&h, &t.fo[j].lat), 0);
			hist_merge(&tot[op], &h);
		}
		unmake(&t);
	}
	merge_totals(m);
	fs = merge_fs_totals(m);
	assert_non_null(fs);
	for (unsigned op = FSOPS_CREATE; op <= FSOPS_DELETE; op++) {
		assert_int_equal(fs->op[op].count, tcnt[op]);
		assert_int_equal(fs->op[op].errors, terr[op]);
		same_hist(fs->op[op].lat, &tot[op]);
	}
	/* Rows 1..3 (slaves 0-2, 0-1 and the late 2, 0 and 2): k + seq + 1. */
	assert_int_equal(tcnt[FSOPS_CREATE], 2 + 3 + 4 + 3 + 4 + 5 + 4 + 6);
	assert_int_equal(merge_late_count(m), 1);
	/* Each slave's own sums: its measured samples, the late one too
	   (slave 2's interval 2), never a warmup one nor slave 1's lost 3. */
	for (unsigned k = 0; k < NSL; k++) {
		const uint64_t(*own)[FSOPS_SUMS] = merge_slave_fs(m, k);
		uint64_t want[FSOPS_N][FSOPS_SUMS] = { { 0 } };

		assert_non_null(own);
		for (unsigned seq = WARM; seq < NIV; seq++) {
			if (k == 1 && seq == 3)
				continue;
			for (unsigned op = FSOPS_CREATE; op <= FSOPS_DELETE;
			     op++) {
				uint64_t n = op == FSOPS_CREATE ?
						     n_create(k, seq) :
						     n_delete(k, seq);

				want[op][FSOPS_SUM_COUNT] += n;
				want[op][FSOPS_SUM_ERRORS] +=
					op == FSOPS_DELETE ? n / 2 : 0;
				for (unsigned i = 0; i < n; i++)
					want[op][FSOPS_SUM_LAT] += lat_of(op, k,
									  i);
			}
		}
		assert_memory_equal(own, want, sizeof(want));
	}
	assert_null(merge_slave_fs(m, NSL));
	merge_destroy(&m);
	free(row_ref);
	free(tot);
}

/* A block phase: rows carry no operations, and a sample with some fails. */
static void test_block_phase(void **state)
{
	struct merge_cfg cfg = { 2, 2, 0, T0, SEC, SEC, 0 };
	struct merge *m = merge_new(&cfg);
	struct merge_row row;
	struct fsample t;

	(void)state;
	assert_non_null(m);
	make(&t, 0, 0, NULL);
	assert_int_equal(merge_add(m, &t.s), -EINVAL);
	t.s.nfsops = 0;
	assert_int_equal(merge_add(m, &t.s), MERGE_ACCEPTED);
	unmake(&t);
	assert_int_equal(merge_next(m, UINT64_MAX, &row), 1);
	assert_null(row.fs);
	assert_null(merge_fs_totals(m));
	assert_null(merge_slave_fs(m, 0));
	merge_destroy(&m);
}

/* Malformed operation lists are refused with nothing counted. */
static void test_refused(void **state)
{
	struct merge_cfg cfg = { 1, 2, 0, T0, SEC, SEC, BIT(FSOPS_CREATE) };
	struct merge *m = merge_new(&cfg);
	struct merge_row row;
	struct fsample t;

	(void)state;
	assert_non_null(m);
	make(&t, 0, 0, NULL);
	/* Out of order. */
	t.fo[0].op = FSOPS_DELETE;
	t.fo[1].op = FSOPS_CREATE;
	assert_int_equal(merge_add(m, &t.s), -EINVAL);
	/* Read is not one of them. */
	t.fo[0].op = FSOPS_READ;
	t.fo[1].op = FSOPS_DELETE;
	assert_int_equal(merge_add(m, &t.s), -EINVAL);
	/* An operation past move. */
	t.fo[0].op = FSOPS_CREATE;
	t.fo[1].op = FSOPS_N;
	assert_int_equal(merge_add(m, &t.s), -EINVAL);
	/* A count its histogram does not hold. */
	t.fo[1].op = FSOPS_DELETE;
	t.fo[0].count++;
	assert_int_equal(merge_add(m, &t.s), -EINVAL);
	t.fo[0].count--;
	/* Whole again: taken. */
	assert_int_equal(merge_add(m, &t.s), MERGE_ACCEPTED);
	unmake(&t);
	assert_int_equal(merge_next(m, UINT64_MAX, &row), 1);
	assert_int_equal(row.fs->op[FSOPS_CREATE].count, 1);
	assert_int_equal(row.reported, 1);
	merge_destroy(&m);
}

/* The view: rates over the span, means, percentiles, ReqstdOps. */
static void test_view(void **state)
{
	struct fsops fs;
	struct stats st;
	struct fsops_view v;

	(void)state;
	stats_init(&st);
	fsops_init(&fs, BIT(FSOPS_CREATE) | BIT(FSOPS_READ));
	/* 10 reads of 8 KiB at 1 ms, 4 writes of 4 KiB at 3 ms. */
	for (int i = 0; i < 10; i++)
		hist_add(&st.lat[0], 1000000);
	for (int i = 0; i < 4; i++)
		hist_add(&st.lat[1], 3000000);
	st.ops[0] = 10;
	st.ops[1] = 4;
	st.bytes[0] = 10 * 8192;
	st.bytes[1] = 4 * 4096;
	/* 20 creates: 10 at 2 ms, 10 at 4 ms; 6 mkdirs at 5 ms. */
	assert_int_equal(fsops_reserve(&fs, FSOPS_CREATE), 0);
	assert_int_equal(fsops_reserve(&fs, FSOPS_MKDIR), 0);
	for (int i = 0; i < 20; i++)
		hist_add(fs.op[FSOPS_CREATE].lat, i < 10 ? 2000000 : 4000000);
	fs.op[FSOPS_CREATE].count = 20;
	fs.op[FSOPS_CREATE].errors = 3;
	for (int i = 0; i < 6; i++)
		hist_add(fs.op[FSOPS_MKDIR].lat, 5000000);
	fs.op[FSOPS_MKDIR].count = 6;
	fsops_view(&fs, &st, 2.0, &v);
	assert_int_equal(v.op[FSOPS_CREATE].count, 20);
	assert_int_equal(v.op[FSOPS_CREATE].errors, 3);
	assert_true(v.op[FSOPS_CREATE].rate == 10.0);
	assert_true(v.op[FSOPS_CREATE].resp_ms == 3.0);
	assert_true(fabs(v.op[FSOPS_CREATE].p50_ms - 2.0) < 0.02);
	assert_true(fabs(v.op[FSOPS_CREATE].p99_ms - 4.0) < 0.04);
	assert_true(v.op[FSOPS_CREATE].max_ms == 4.0);
	assert_true(v.op[FSOPS_MKDIR].rate == 3.0);
	assert_true(v.op[FSOPS_MKDIR].resp_ms == 5.0);
	assert_true(v.op[FSOPS_READ].rate == 5.0);
	assert_true(v.op[FSOPS_WRITE].rate == 2.0);
	/* Requested: reads and creates, 30 operations, 10 + 60 ms. */
	assert_int_equal(v.req_count, 30);
	assert_true(v.req_rate == 15.0);
	assert_true(fabs(v.req_resp_ms - 70.0 / 30.0) < 1e-12);
	assert_true(fabs(v.read_pct - 1000.0 / 14.0) < 1e-12);
	/* (81920 + 16384) / 14 = 7021.7: Vdbench truncates. */
	assert_true(v.xfer_bytes == 7021.0);
	/* Nothing requested: every operation with a count. */
	fs.requested = 0;
	fsops_view(&fs, &st, 2.0, &v);
	assert_int_equal(v.req_count, 10 + 4 + 20 + 6);
	assert_true(fabs(v.req_resp_ms - (10 + 12 + 60 + 30) / 40.0) < 1e-12);
	assert_string_equal(fsops_name(FSOPS_GETATTR), "getattr");
	assert_string_equal(fsops_name(FSOPS_MOVE), "move");

	/*
	 * 7 errors, 3 of them the creates': 4 failed transfers. Only reads
	 * asked for: the read's; only writes: the write's; both (rdpct=):
	 * unknown for each, 4 together; nothing asked and both done: the
	 * same.
	 */
	st.errors = 7;
	fs.requested = BIT(FSOPS_READ) | BIT(FSOPS_CREATE);
	fsops_view(&fs, &st, 2.0, &v);
	assert_int_equal(v.rw_errors, 4);
	assert_int_equal(v.op[FSOPS_READ].errors, 4);
	assert_false(v.op[FSOPS_READ].errors_unknown);
	assert_int_equal(v.op[FSOPS_WRITE].errors, 0);
	assert_int_equal(v.op[FSOPS_CREATE].errors, 3);
	fs.requested = BIT(FSOPS_WRITE);
	fsops_view(&fs, &st, 2.0, &v);
	assert_int_equal(v.op[FSOPS_READ].errors, 0);
	assert_int_equal(v.op[FSOPS_WRITE].errors, 4);
	fs.requested = BIT(FSOPS_READ) | BIT(FSOPS_WRITE);
	fsops_view(&fs, &st, 2.0, &v);
	assert_int_equal(v.rw_errors, 4);
	assert_int_equal(v.op[FSOPS_READ].errors, 0);
	assert_int_equal(v.op[FSOPS_WRITE].errors, 0);
	assert_true(v.op[FSOPS_READ].errors_unknown);
	assert_true(v.op[FSOPS_WRITE].errors_unknown);
	fs.requested = 0;
	fsops_view(&fs, &st, 2.0, &v);
	assert_true(v.op[FSOPS_READ].errors_unknown);
	/* No failed transfer: nothing unknown. */
	st.errors = 3;
	fsops_view(&fs, &st, 2.0, &v);
	assert_int_equal(v.rw_errors, 0);
	assert_false(v.op[FSOPS_READ].errors_unknown);
	fsops_release(&fs);
}

/*
 * The percentile of every operation together (a failure event's p99 in a
 * file-system phase) is hist_percentile() of the histograms merged, with
 * or without reads, writes or other operations.
 */
static void test_percentile_all(void **state)
{
	static const double ps[] = { 0, 1, 10, 50, 90, 99, 99.9, 100 };
	/* Which sets hold values: reads, writes, getattrs, creates. */
	static const struct {
		int rd, wr, ga, cr;
	} cases[] = {
		{ 1, 1, 1, 1 }, { 0, 0, 1, 0 }, { 0, 0, 1, 1 },
		{ 1, 0, 0, 0 }, { 1, 1, 0, 0 }, { 0, 0, 0, 0 },
	};
	struct fsops fs;
	struct stats st;
	struct hist ref;

	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		stats_init(&st);
		hist_init(&ref);
		fsops_init(&fs, 0);
		assert_int_equal(fsops_reserve(&fs, FSOPS_GETATTR), 0);
		assert_int_equal(fsops_reserve(&fs, FSOPS_CREATE), 0);
		for (uint64_t i = 1; i <= 300; i++) {
			/* Each set its own range: getattrs fast, creates slow. */
			struct {
				int on;
				struct hist *h;
				uint64_t v;
			} set[] = {
				{ cases[c].rd, &st.lat[0], 200000 + 977 * i },
				{ cases[c].wr, &st.lat[1], 900000 + 3001 * i },
				{ cases[c].ga, fs.op[FSOPS_GETATTR].lat,
				  5000 + 37 * i },
				{ cases[c].cr && i <= 40,
				  fs.op[FSOPS_CREATE].lat,
				  4000000 + 50021 * i },
			};

			for (size_t k = 0; k < 4; k++)
				if (set[k].on) {
					hist_add(set[k].h, set[k].v);
					hist_add(&ref, set[k].v);
				}
		}
		for (size_t k = 0; k < sizeof(ps) / sizeof(ps[0]); k++)
			assert_int_equal(fsops_percentile_all(&fs, &st, ps[k]),
					 hist_percentile(&ref, ps[k]));
		if (!cases[c].ga && !cases[c].cr)
			assert_int_equal(fsops_percentile_all(NULL, &st, 99),
					 hist_percentile(&ref, 99));
		if (!cases[c].rd && !cases[c].wr)
			assert_int_equal(fsops_percentile_all(&fs, NULL, 99),
					 hist_percentile(&ref, 99));
		fsops_release(&fs);
	}
	assert_int_equal(fsops_percentile_all(NULL, NULL, 99), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge_cluster),
		cmocka_unit_test(test_block_phase),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_view),
		cmocka_unit_test(test_percentile_all),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
