/*
 * Unit tests for the plausibility checks of what slaves report
 * (master/run/plausible.c): a realistic interval passes, and each way a peer
 * can lie - counts that no I/Os in flight could complete, bytes that no
 * planned transfer size gives, errors past what the slots can fail,
 * histograms that contradict their own min, max or sums, CPU time past
 * the cores, sums that would wrap, times off the phase's schedule - is
 * refused with its reason.
 * Table-driven: each case changes one thing of the good interval.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "common/hist.h"
#include "master/run/plausible.h"

#define MS 1000000ull
#define US 1000ull

/* The plan: 1 s intervals, 16 I/Os in flight, 4k to 8k, 4 cores. */
static const struct plausible_plan plan = {
	.interval_ns = 1000 * MS,
	.slots = 16,
	.xfer_min = 4096,
	.xfer_max = 8192,
	.cores = 4,
	.ntargets = 2,
};

/* A histogram of n values evenly from lo to hi, in sparse form. */
static void fill(struct hist_sparse *out, uint64_t n, uint64_t lo, uint64_t hi)
{
	struct hist *h = malloc(sizeof(*h));

	assert_non_null(h);
	hist_init(h);
	for (uint64_t i = 0; i < n; i++)
		hist_add(h, lo + (n > 1 ? (hi - lo) * i / (n - 1) : 0));
	assert_int_equal(hist_to_sparse(h, out), 0);
	free(h);
}

/* A real slave's interval: 1000 reads and 500 writes of 4k. */
static void good(struct proto_interval *iv)
{
	memset(iv, 0, sizeof(*iv));
	iv->seq = 3;
	iv->ops[0] = 1000;
	iv->ops[1] = 500;
	iv->bytes[0] = 1000 * 4096;
	iv->bytes[1] = 500 * 8192;
	iv->errors = 2;
	iv->cpu_user_ns = 300 * MS;
	iv->cpu_sys_ns = 900 * MS;
	iv->cores = 4;
	iv->runq_ns = 2500 * MS; /* a few threads waited for a CPU */
	fill(&iv->lat[0], 1000, 100 * US, 200 * US);
	fill(&iv->lat[1], 500, 150 * US, 250 * US);
}

static void done(struct proto_interval *iv)
{
	hist_sparse_free(&iv->lat[0]);
	hist_sparse_free(&iv->lat[1]);
	for (uint32_t i = 0; i < iv->nsds; i++)
		hist_sparse_free(&iv->sds[i].lat);
	free(iv->sds);
}

/* Per target: the reads went to target 0, the writes to target 1. */
static void m_sds(struct proto_interval *iv)
{
	iv->sds = calloc(2, sizeof(*iv->sds));
	assert_non_null(iv->sds);
	iv->nsds = 2;
	iv->sds[1].target = 1;
	fill(&iv->sds[0].lat, 1000, 100 * US, 200 * US);
	fill(&iv->sds[1].lat, 500, 150 * US, 250 * US);
}

static void m_sds_target(struct proto_interval *iv)
{
	m_sds(iv);
	iv->sds[1].target = 2;
}

static void m_sds_max_high(struct proto_interval *iv)
{
	m_sds(iv);
	iv->sds[1].lat.max = 10000 * MS;
}

static void m_none(struct proto_interval *iv)
{
	(void)iv;
}

/*
 * 2^62 ops (the attack) with a histogram that agrees with itself:
 * every one at 1 ns. Only the I/Os in flight bound it.
 */
static void m_huge_ops(struct proto_interval *iv)
{
	uint64_t n = 1ull << 62;

	hist_sparse_free(&iv->lat[0]);
	fill(&iv->lat[0], 1, 1, 1);
	iv->lat[0].cnt[0] = n;
	iv->lat[0].count = n;
	iv->lat[0].sum = n;
	iv->lat[0].sumsq = (double)n;
	iv->ops[0] = n;
	iv->bytes[0] = UINT64_MAX;
}

/* Ops a little past what 16 slots complete at the minimum latency. */
static void m_fast_ops(struct proto_interval *iv)
{
	hist_sparse_free(&iv->lat[0]);
	fill(&iv->lat[0], 700000, 100 * US, 100 * US);
	iv->ops[0] = 700000;
	iv->bytes[0] = 700000ull * 4096;
}

/* Ops at the same latency that 16 slots can complete (with the slack). */
static void m_ops_at_cap(struct proto_interval *iv)
{
	hist_sparse_free(&iv->lat[0]);
	fill(&iv->lat[0], 600000, 100 * US, 100 * US);
	iv->ops[0] = 600000;
	iv->bytes[0] = 600000ull * 4096;
}

static void m_errors_huge(struct proto_interval *iv)
{
	iv->errors = 1ull << 40;
}

/*
 * More errors than ops is what a failing disk reports (failed I/Os are
 * counted apart from ops): plausible.
 */
static void m_errors_gt_ops(struct proto_interval *iv)
{
	iv->errors = 5000;
}

static void m_bytes_small(struct proto_interval *iv)
{
	iv->bytes[0] = 1000 * 4096 - 1;
}

static void m_bytes_big(struct proto_interval *iv)
{
	iv->bytes[1] = 500 * 8192 + 1;
}

static void m_bytes_no_ops(struct proto_interval *iv)
{
	iv->bytes[0] = 0;
	iv->ops[0] = 0;
	hist_sparse_free(&iv->lat[0]);
	memset(&iv->lat[0], 0, sizeof(iv->lat[0]));
	iv->bytes[0] = 4096;
}

static void m_count_ne_ops(struct proto_interval *iv)
{
	iv->ops[1] = 501;
	iv->bytes[1] = 501 * 4096;
}

/* A max far above the highest bucket (the contradicting max). */
static void m_max_high(struct proto_interval *iv)
{
	iv->lat[0].max = 10000 * MS;
}

static void m_min_low(struct proto_interval *iv)
{
	iv->lat[1].min = 1;
}

static void m_sum_high(struct proto_interval *iv)
{
	iv->lat[0].sum = 1000 * 200 * US + 1;
}

static void m_sum_low(struct proto_interval *iv)
{
	iv->lat[1].sum = 500 * 150 * US - 1;
}

static void m_sumsq_neg_var(struct proto_interval *iv)
{
	iv->lat[0].sumsq = 1.0;
}

static void m_empty_with_sum(struct proto_interval *iv)
{
	iv->ops[1] = 0;
	iv->bytes[1] = 0;
	hist_sparse_free(&iv->lat[1]);
	memset(&iv->lat[1], 0, sizeof(iv->lat[1]));
	iv->lat[1].sum = 5;
}

static void m_cpu(struct proto_interval *iv)
{
	iv->cpu_user_ns = 14000 * MS;
	iv->cpu_sys_ns = 4000 * MS;
}

static void m_cpu_wrap(struct proto_interval *iv)
{
	iv->cpu_user_ns = UINT64_MAX;
	iv->cpu_sys_ns = 2;
}

static void m_runq(struct proto_interval *iv)
{
	iv->runq_ns = UINT64_MAX;
}

static void m_lag_good(struct proto_interval *iv)
{
	iv->lag_n = 1000;
	iv->lag_ns = 1000 * 40000ull;
	iv->lag_max_ns = 900000;
}

static void m_lag_max_gt_sum(struct proto_interval *iv)
{
	iv->lag_n = 2;
	iv->lag_ns = 10;
	iv->lag_max_ns = 11;
}

static void m_lag_sum_gt_n_max(struct proto_interval *iv)
{
	iv->lag_n = 2;
	iv->lag_ns = 23;
	iv->lag_max_ns = 11;
}

static void m_lag_without_ios(struct proto_interval *iv)
{
	iv->lag_ns = 5;
}

static void m_cores(struct proto_interval *iv)
{
	iv->cores = 4096;
}

static void test_interval(void **state)
{
	static const struct {
		const char *name;
		void (*mutate)(struct proto_interval *iv);
		int rc;
		const char *why; /* a word the reason must hold */
	} t[] = {
		{ "good", m_none, 0, NULL },
		{ "2^62 ops", m_huge_ops, -EINVAL, "in flight" },
		{ "ops past capacity", m_fast_ops, -EINVAL, "in flight" },
		{ "ops at capacity", m_ops_at_cap, 0, NULL },
		{ "2^40 errors", m_errors_huge, -EINVAL, "errors" },
		{ "errors > ops", m_errors_gt_ops, 0, NULL },
		{ "bytes < ops x min xfer", m_bytes_small, -EINVAL, "bytes" },
		{ "bytes > ops x max xfer", m_bytes_big, -EINVAL, "bytes" },
		{ "bytes without ops", m_bytes_no_ops, -EINVAL, "bytes" },
		{ "histogram count != ops", m_count_ne_ops, -EINVAL,
		  "latencies" },
		{ "max above its buckets", m_max_high, -EINVAL, "contradict" },
		{ "min below its buckets", m_min_low, -EINVAL, "contradict" },
		{ "sum above count x max", m_sum_high, -EINVAL, "sum" },
		{ "sum below count x min", m_sum_low, -EINVAL, "sum" },
		{ "sum of squares too small", m_sumsq_neg_var, -EINVAL,
		  "squares" },
		{ "empty histogram with a sum", m_empty_with_sum, -EINVAL,
		  "empty" },
		{ "CPU past the cores", m_cpu, -EINVAL, "CPU" },
		{ "CPU that wraps", m_cpu_wrap, -EINVAL, "CPU" },
		{ "run-queue wait past any threads", m_runq, -EINVAL,
		  "run-queue" },
		{ "cores unlike its hello", m_cores, -EINVAL, "cores" },
		{ "schedule lag", m_lag_good, 0, NULL },
		{ "lag max above its sum", m_lag_max_gt_sum, -EINVAL, "lag" },
		{ "lag sum above count x max", m_lag_sum_gt_n_max, -EINVAL,
		  "lag" },
		{ "lag without I/Os", m_lag_without_ios, -EINVAL, "lag" },
		{ "per-target latency", m_sds, 0, NULL },
		{ "a target not of its plan", m_sds_target, -EINVAL,
		  "target 2, but its plan has 2" },
		{ "a target's max above its buckets", m_sds_max_high, -EINVAL,
		  "target 1 histogram: buckets" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct proto_interval iv;
		char why[512] = "";
		int rc;

		good(&iv);
		t[i].mutate(&iv);
		rc = plausible_interval(&plan, &iv, why, sizeof(why));
		if (rc != t[i].rc)
			fail_msg("%s: rc %d, want %d (%s)", t[i].name, rc,
				 t[i].rc, why);
		if (t[i].why && !strstr(why, t[i].why))
			fail_msg("%s: reason '%s' lacks '%s'", t[i].name, why,
				 t[i].why);
		done(&iv);
	}
}

/* A slave that sits the phase out (a zeroed plan) may send no I/O. */
static void test_zero_plan(void **state)
{
	struct plausible_plan zero = { .cores = 4 };
	struct proto_interval iv;
	char why[256];

	(void)state;
	good(&iv);
	assert_int_equal(plausible_interval(&zero, &iv, why, sizeof(why)),
			 -EINVAL);
	done(&iv);
	memset(&iv, 0, sizeof(iv));
	iv.cores = 4;
	assert_int_equal(plausible_interval(&zero, &iv, why, sizeof(why)), 0);
}

/*
 * Stamped times against the schedule: the go at T0, 1 s intervals, a
 * clock error bound of 2 ms, so the slack is 1 s + 4 ms + 1 s.
 */
static void test_times(void **state)
{
	const uint64_t T0 = 1700000000000000000ull, slack = 2004 * MS;
	struct plausible_plan pl = plan;
	struct proto_interval iv;
	char why[256];
	struct {
		uint64_t start, end, first;
		int ok;
	} c[] = {
		/* interval seq 3 is [T0 + 3 s, T0 + 4 s) */
		{ T0 + 3000 * MS, T0 + 4000 * MS, 0, 1 },
		{ T0 + 3000 * MS, T0 + 4000 * MS, T0 + 1 * MS, 1 },
		{ T0 + 3000 * MS + slack, T0 + 4000 * MS + slack, 0, 1 },
		{ T0 + 3000 * MS - slack, T0 + 4000 * MS - slack, 0, 1 },
		{ T0 + 3000 * MS + slack + 1, T0 + 4000 * MS, 0, 0 },
		{ T0 + 3000 * MS, T0 + 4000 * MS + slack + 1, 0, 0 },
		/* the forgery */
		{ UINT64_MAX, 0, 0, 0 },
		{ UINT64_MAX, UINT64_MAX, 0, 0 },
		{ 0, 0, 0, 0 },
		{ T0 + 4000 * MS, T0 + 3000 * MS, 0, 0 },
		/* a first I/O before the go or after this interval */
		{ T0 + 3000 * MS, T0 + 4000 * MS, T0 - slack - 1, 0 },
		{ T0 + 3000 * MS, T0 + 4000 * MS, T0 + 4000 * MS + slack + 1,
		  0 },
		{ T0 + 3000 * MS, T0 + 4000 * MS, UINT64_MAX, 0 },
	};

	(void)state;
	pl.start_at = T0;
	pl.clock_error_ns = 2 * MS;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		good(&iv);
		iv.start_ns = c[i].start;
		iv.end_ns = c[i].end;
		iv.first_io_ns = c[i].first;
		why[0] = 0;
		if (plausible_interval(&pl, &iv, why, sizeof(why)) !=
		    (c[i].ok ? 0 : -EINVAL))
			fail_msg("case %zu: %s", i, why);
		done(&iv);
	}
	/* Before the go nothing is known of the schedule. */
	pl.start_at = 0;
	good(&iv);
	iv.start_ns = UINT64_MAX;
	assert_int_equal(plausible_interval(&pl, &iv, why, sizeof(why)), 0);
	done(&iv);
	/* A phase_end's first I/O: by the end of the last interval. */
	pl.start_at = T0;
	pl.intervals = 10;
	assert_int_equal(plausible_first_io(&pl, T0 + 9 * 1000 * MS, 9, why,
					    sizeof(why)),
			 0);
	assert_int_equal(plausible_first_io(&pl, UINT64_MAX, 9, why,
					    sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "outside its phase"));
}

/*
 * At a fixed rate latency runs from the intended start: a device that fell
 * behind shows a minimum latency of a second with hundreds of ops, which
 * is no lie; the schedule bounds the count instead.
 */
static void test_rate(void **state)
{
	struct plausible_plan rp = plan;
	struct proto_interval iv;
	char why[512];

	(void)state;
	rp.iorate = 300;
	good(&iv);
	hist_sparse_free(&iv.lat[0]);
	fill(&iv.lat[0], 1000, 1000 * MS, 1100 * MS);
	hist_sparse_free(&iv.lat[1]);
	fill(&iv.lat[1], 500, 1000 * MS, 1100 * MS);
	iv.seq = 0;
	/* 1500 ops in the first interval at 300/s: within 4 x 300 + 16 + 64? */
	assert_int_equal(plausible_interval(&rp, &iv, why, sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "rate of 300/s"));
	/* By the end of the fourth interval 1200 have started: 4800 fit. */
	iv.seq = 3;
	assert_int_equal(plausible_interval(&rp, &iv, why, sizeof(why)), 0);
	/* The same interval at full speed: 16 slots at 1 s cannot do it. */
	assert_int_equal(plausible_interval(&plan, &iv, why, sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "in flight"));
	done(&iv);
}

static void test_plan_of(void **state)
{
	struct proto_target tg[2] = { { .threads = 6 }, { .threads = 3 } };
	struct proto_stream st[2] = { 0 };
	struct proto_plan p = { .interval_ns = 5 * 1000 * MS,
				.iorate = 250.5,
				.ntargets = 2,
				.targets = tg,
				.nstreams = 2,
				.streams = st };
	struct plausible_plan out;

	(void)state;
	st[0].nxfer = 2;
	st[0].xfer[0].size = 8192;
	st[0].xfer[1].size = 0; /* not a size: left out */
	st[1].nxfer = 1;
	st[1].xfer[0].size = 512;
	plausible_plan_of(&p, 7, &out);
	assert_int_equal(out.slots, 9);
	assert_int_equal(out.ntargets, 2);
	assert_int_equal(out.xfer_min, 512);
	assert_int_equal(out.xfer_max, 8192);
	assert_int_equal(out.cores, 7);
	assert_int_equal(out.interval_ns, 5 * 1000 * MS);
	assert_true(out.iorate == 250.5);
	/* A replay's records may be any length up to its transfer size. */
	snprintf(st[1].replay, sizeof(st[1].replay), "/t.log");
	plausible_plan_of(&p, 7, &out);
	assert_int_equal(out.xfer_min, 1);
	assert_int_equal(out.xfer_max, 8192);
}

/*
 * Every operation of an interval, as the failure events' series and the
 * warmup count them: reads, writes and each fsop; wrapping stays at the
 * top.
 */
static void test_ops_all(void **state)
{
	static const struct {
		uint64_t rd, wr;
		uint32_t nfo;
		uint64_t fo[3];
		uint64_t want;
	} cases[] = {
		{ 7, 3, 0, { 0 }, 10 },
		{ 0, 0, 1, { 250 }, 250 }, /* a getattr run: no reads */
		{ 5, 0, 2, { 5, 5 }, 15 }, /* reads and their opens, closes */
		{ 0, 0, 3, { 1, 2, 3 }, 6 },
		{ 0, 0, 0, { 0 }, 0 },
		{ UINT64_MAX, 1, 0, { 0 }, UINT64_MAX },
		{ UINT64_MAX - 2, 1, 2, { 1, 1 }, UINT64_MAX },
		{ 1, 0, 2, { UINT64_MAX - 1, 0 }, UINT64_MAX },
	};

	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct proto_fsop_stat fo[3];
		struct proto_interval iv;

		memset(&iv, 0, sizeof(iv));
		memset(fo, 0, sizeof(fo));
		iv.ops[0] = cases[c].rd;
		iv.ops[1] = cases[c].wr;
		for (uint32_t i = 0; i < cases[c].nfo; i++) {
			fo[i].op = PROTO_FSOP_CREATE + i;
			fo[i].count = cases[c].fo[i];
		}
		iv.nfsops = cases[c].nfo;
		iv.fsops = fo;
		assert_true(plausible_ops(&iv) == cases[c].want);
	}
}

/* A file-system phase's fsops: held against themselves and the plan. */
static void test_fsops(void **state)
{
	struct plausible_plan fs = plan;
	struct proto_fsop_stat fo[2];
	struct proto_interval iv;
	char why[512] = "";

	(void)state;
	fs.fsops = (1u << PROTO_FSOP_READ) | (1u << PROTO_FSOP_CREATE);
	good(&iv);
	memset(fo, 0, sizeof(fo));
	fo[0].op = PROTO_FSOP_CREATE;
	fo[0].count = 200;
	fill(&fo[0].lat, 200, 500 * US, 900 * US);
	fo[1].op = PROTO_FSOP_DELETE;
	iv.nfsops = 2;
	iv.fsops = fo;
	assert_int_equal(plausible_interval(&fs, &iv, why, sizeof(why)), 0);
	/* None in a block phase. */
	assert_int_equal(plausible_interval(&plan, &iv, why, sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "without file workloads"));
	/* Read is l's, not fo's. */
	fo[1].op = PROTO_FSOP_WRITE;
	assert_int_equal(plausible_interval(&fs, &iv, why, sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "is not one"));
	fo[1].op = PROTO_FSOP_DELETE;
	/* A count its histogram does not hold. */
	fo[0].count = 201;
	assert_int_equal(plausible_interval(&fs, &iv, why, sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "200 latencies for 201"));
	fo[0].count = 200;
	/* A histogram that contradicts itself. */
	fo[0].lat.max = 100 * MS;
	assert_int_equal(plausible_interval(&fs, &iv, why, sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "file operation 2 histogram: buckets"));
	fo[0].lat.max = 900 * US;
	/* Their count and latency bound the slots as reads' do. */
	hist_sparse_free(&fo[0].lat);
	fo[0].count = 1000000;
	fill(&fo[0].lat, 1000000, 100 * US, 200 * US);
	assert_int_equal(plausible_interval(&fs, &iv, why, sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "in flight"));
	hist_sparse_free(&fo[0].lat);
	done(&iv);
}

static void test_plan_of_fs(void **state)
{
	struct proto_fsd fsd[2];
	struct proto_fwd fwd[2];
	struct proto_plan p = { .interval_ns = 1000 * MS,
				.nfsds = 2,
				.fsds = fsd,
				.nfwds = 2,
				.fwds = fwd };
	struct plausible_plan out;

	(void)state;
	memset(fsd, 0, sizeof(fsd));
	memset(fwd, 0, sizeof(fwd));
	fwd[0].op = PROTO_FSOP_READ;
	fwd[0].mixed = 1;
	fwd[0].threads = 4;
	fwd[0].nxfer = 2;
	fwd[0].xfer[0].size = 4096;
	fwd[0].xfer[1].size = 65536;
	fwd[1].op = PROTO_FSOP_CREATE;
	fwd[1].threads = 2;
	plausible_plan_of(&p, 4, &out);
	assert_int_equal(out.fsops, (1u << PROTO_FSOP_READ) |
					    (1u << PROTO_FSOP_WRITE) |
					    (1u << PROTO_FSOP_CREATE));
	assert_int_equal(out.slots, 6);
	assert_int_equal(out.xfer_min, 1);
	assert_int_equal(out.xfer_max, 65536);
	/* A format pass: writes, a thread an fsd, a loose write. */
	p.nfwds = 0;
	plausible_plan_of(&p, 4, &out);
	assert_int_equal(out.fsops, 1u << PROTO_FSOP_WRITE);
	assert_int_equal(out.slots, 2);
	assert_int_equal(out.xfer_max, PLAUSIBLE_FS_FORMAT_XFER);
	/* fwd=format threads=: the fsds at once, their threads summed. */
	fsd[0].format_threads = 8;
	fsd[1].format_threads = 3;
	plausible_plan_of(&p, 4, &out);
	assert_int_equal(out.slots, 11);
	fsd[0].format_threads = 0;
	fsd[1].format_threads = 0;
	/* A block plan has none. */
	p.nfsds = 0;
	plausible_plan_of(&p, 4, &out);
	assert_int_equal(out.fsops, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interval),
		cmocka_unit_test(test_fsops),
		cmocka_unit_test(test_ops_all),
		cmocka_unit_test(test_plan_of_fs),
		cmocka_unit_test(test_zero_plan),
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_plan_of),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
