/*
 * Unit tests for the slave's phase decisions (slave/prepare.c): how slots
 * spread over workers and targets, the engine flags a worker asks for, and
 * how the workers' intervals add up to the slave's.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "common/timeutil.h"
#include "slave/engine.h"
#include "slave/prepare.h"
#include "slave/wival.h"

#define NT 3
#define NT_MAX (PROTO_MAX_SD_LATS + 1) /* test_split */

static struct proto_target targets[NT_MAX];
static struct proto_stream streams[2];
static struct proto_plan plan;

/* A plan over n targets with the given threads each, no streams. */
static void make_plan(unsigned n, const unsigned *threads)
{
	memset(targets, 0, sizeof(targets));
	memset(streams, 0, sizeof(streams));
	memset(&plan, 0, sizeof(plan));
	for (unsigned t = 0; t < n; t++) {
		snprintf(targets[t].name, sizeof(targets[t].name), "sd%u",
			 t + 1);
		snprintf(targets[t].path, sizeof(targets[t].path),
			 "/dev/fake%u", t);
		targets[t].threads = threads[t];
	}
	plan.ntargets = n;
	plan.targets = targets;
	plan.streams = streams;
	plan.intervals = 4;
	plan.interval_ns = 1000000000ull;
}

static void assert_slots(const struct prepare_slots *ps, unsigned i,
			 unsigned depth, const unsigned *want)
{
	assert_int_equal(ps->depth[i], depth);
	for (unsigned k = 0; k < depth; k++)
		assert_int_equal(ps->slot_target[i][k], want[k]);
}

static void test_assign_two_targets_two_workers(void **state)
{
	static const unsigned threads[] = { 3, 2 };
	struct prepare_slots ps = { .nworkers = 2 };

	(void)state;
	make_plan(2, threads);
	assert_int_equal(prepare_assign_slots(&ps, &plan), 0);
	/* Round robin over the workers, target by target. */
	assert_slots(&ps, 0, 3, (const unsigned[]){ 0, 0, 1 });
	assert_slots(&ps, 1, 2, (const unsigned[]){ 0, 1 });
	/* Both workers share both targets: two slices each. */
	assert_int_equal(ps.nslices[0], 2);
	assert_int_equal(ps.nslices[1], 2);
	assert_int_equal(ps.slice[0][0], 0);
	assert_int_equal(ps.slice[1][0], 1);
	assert_int_equal(ps.slice[0][1], 0);
	assert_int_equal(ps.slice[1][1], 1);
	prepare_slots_free(&ps);
	assert_int_equal(ps.nworkers, 0);
	assert_null(ps.nslices);
	prepare_slots_free(&ps); /* idempotent */
}

/*
 * streams=4 on 8 threads: each stream's 2 threads go to one worker (the
 * rotation going on from the previous target), which takes the streams
 * of its slice: 3 workers use the target, slices 0..2, worker w+j taking
 * stream j (j mod 3 its slice).
 */
static void test_assign_streams(void **state)
{
	static const unsigned threads[] = { 1, 8 };
	struct prepare_slots ps = { .nworkers = 3 };

	(void)state;
	make_plan(2, threads);
	plan.targets[1].streams = 4;
	assert_int_equal(prepare_assign_slots(&ps, &plan), 0);
	/* sd1's one slot went to worker 0: streams start at worker 1. */
	assert_slots(&ps, 0, 3, (const unsigned[]){ 0, 1, 1 });
	assert_slots(&ps, 1, 4, (const unsigned[]){ 1, 1, 1, 1 });
	assert_slots(&ps, 2, 2, (const unsigned[]){ 1, 1 });
	assert_int_equal(ps.nslices[1], 3);
	assert_int_equal(ps.slice[1][1], 0); /* streams 0 and 3 */
	assert_int_equal(ps.slice[2][1], 1); /* stream 1 */
	assert_int_equal(ps.slice[0][1], 2); /* stream 2 */
	prepare_slots_free(&ps);
	/* More workers than streams: only as many take them. */
	ps.nworkers = 6;
	plan.targets[1].streams = 2;
	assert_int_equal(prepare_assign_slots(&ps, &plan), 0);
	assert_int_equal(ps.nslices[1], 2);
	assert_int_equal(ps.depth[1], 4);
	assert_int_equal(ps.depth[2], 4);
	assert_int_equal(ps.slice[3][1], UINT_MAX);
	prepare_slots_free(&ps);
}

static void test_assign_unused_and_unshared_targets(void **state)
{
	static const unsigned threads[] = { 1, 0, 4 };
	struct prepare_slots ps = { .nworkers = 4 };

	(void)state;
	make_plan(3, threads);
	assert_int_equal(prepare_assign_slots(&ps, &plan), 0);
	assert_slots(&ps, 0, 2, (const unsigned[]){ 0, 2 });
	assert_slots(&ps, 1, 1, (const unsigned[]){ 2 });
	assert_slots(&ps, 2, 1, (const unsigned[]){ 2 });
	assert_slots(&ps, 3, 1, (const unsigned[]){ 2 });
	/* sd1 is worker 0's alone; sd2 has no slot; sd3 is split in four. */
	assert_int_equal(ps.nslices[0], 1);
	assert_int_equal(ps.nslices[1], 0);
	assert_int_equal(ps.nslices[2], 4);
	assert_int_equal(ps.slice[0][0], 0);
	for (unsigned i = 1; i < 4; i++)
		assert_int_equal(ps.slice[i][0], UINT_MAX);
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(ps.slice[i][1], UINT_MAX);
		assert_int_equal(ps.slice[i][2], i);
	}
	prepare_slots_free(&ps);
}

/* Over many shapes: every thread gets exactly one slot, depths even. */
static void test_assign_table(void **state)
{
	static const struct {
		unsigned threads[NT];
		unsigned nworkers;
	} cases[] = {
		{ { 1, 1, 1 }, 1 },     { { 8, 0, 0 }, 3 }, { { 5, 7, 2 }, 4 },
		{ { 32, 32, 32 }, 64 }, { { 2, 3, 0 }, 5 }, { { 64, 1, 1 }, 2 },
	};

	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct prepare_slots ps = { .nworkers = cases[c].nworkers };
		unsigned per_target[NT] = { 0 }, total = 0, lo = UINT_MAX,
			 hi = 0;

		make_plan(NT, cases[c].threads);
		assert_int_equal(prepare_assign_slots(&ps, &plan), 0);
		for (unsigned i = 0; i < ps.nworkers; i++) {
			total += ps.depth[i];
			lo = ps.depth[i] < lo ? ps.depth[i] : lo;
			hi = ps.depth[i] > hi ? ps.depth[i] : hi;
			for (unsigned k = 0; k < ps.depth[i]; k++)
				per_target[ps.slot_target[i][k]]++;
		}
		assert_int_equal(total, prepare_threads(&plan));
		assert_true(hi - lo <= 1);
		for (unsigned t = 0; t < NT; t++)
			assert_int_equal(per_target[t], cases[c].threads[t]);
		prepare_slots_free(&ps);
	}
}

static void test_nworkers(void **state)
{
	(void)state;
	assert_int_equal(prepare_nworkers(4, 10), 4);
	assert_int_equal(prepare_nworkers(8, 3), 3);
	assert_int_equal(prepare_nworkers(200, 500), PREPARE_MAX_WORKERS);
}

static void test_target_writes_and_flags(void **state)
{
	static const unsigned threads[] = { 1, 1, 1 };
	unsigned slots[] = { 0, 1 };

	(void)state;
	make_plan(3, threads);
	plan.nstreams = 2;
	streams[0].ntargets = 2;
	streams[0].targets[0] = 0;
	streams[0].targets[1] = 1;
	streams[0].rdpct = 100;
	streams[1].ntargets = 1;
	streams[1].targets[0] = 1;
	streams[1].rdpct = 70;
	assert_false(prepare_target_writes(&plan, 0));
	assert_true(prepare_target_writes(&plan, 1));
	assert_false(prepare_target_writes(&plan, 2));

	assert_int_equal(prepare_engine_flags(&plan, slots, 2, 0), 0);
	assert_int_equal(prepare_engine_flags(&plan, slots, 2, 1),
			 ENGINE_SQPOLL);
	targets[1].sqpoll = 1;
	assert_int_equal(prepare_engine_flags(&plan, slots, 2, 0),
			 ENGINE_SQPOLL);
	targets[0].openflags = PROTO_O_DIRECT;
	assert_int_equal(prepare_engine_flags(&plan, slots, 1, 0),
			 ENGINE_DIRECT);
	/* DIRECT only when every slot's target is O_DIRECT. */
	assert_int_equal(prepare_engine_flags(&plan, slots, 2, 0),
			 ENGINE_SQPOLL);
	targets[1].openflags = PROTO_O_DIRECT | PROTO_O_DSYNC;
	assert_int_equal(prepare_engine_flags(&plan, slots, 2, 0),
			 ENGINE_SQPOLL | ENGINE_DIRECT);
}

static struct worker_interval *interval(unsigned seq, unsigned ntargets)
{
	struct worker_interval *iv =
		calloc(1, sizeof(*iv) + ntargets * sizeof(uint64_t));

	assert_non_null(iv);
	hist_init(&iv->lat[0]);
	hist_init(&iv->lat[1]);
	iv->seq = seq;
	iv->ntargets = ntargets;
	return iv;
}

/*
 * Three workers hand over intervals 0 and 1 (out of order between them);
 * the sums are exact, the copy is the session's, the last error kept.
 */
static void test_collect_three_workers(void **state)
{
	struct worker_interval *acc[4] = { 0 }, *iv[3][2];
	unsigned accn[4] = { 0 };

	(void)state;
	for (unsigned w = 0; w < 3; w++)
		for (unsigned k = 0; k < 2; k++) {
			struct worker_interval *x = interval(k, 2);

			x->ops[0] = 10 * (w + 1);
			x->ops[1] = w + 1;
			x->bytes[0] = 4096 * x->ops[0];
			x->bytes[1] = 8192 * x->ops[1];
			x->runq_ns = 1000000 * (w + 1);
			x->lag.n = x->ops[0];
			x->lag.sum = 700 * (w + 1) * x->lag.n;
			x->lag.max = 900 * (w + 1);
			for (uint64_t n = 0; n < x->ops[0]; n++)
				hist_add(&x->lat[0], 1000 * (w + 1));
			for (uint64_t n = 0; n < x->ops[1]; n++)
				hist_add(&x->lat[1], 5000);
			if (w != 1) {
				x->errors = w + 1;
				x->target_errors[w ? 1 : 0] = w + 1;
				x->last_errno = w ? EIO : ENXIO;
				x->last_err_offset = 512 * (w + 1);
				x->last_err_target = w ? 1 : 0;
			}
			iv[w][k] = x;
		}
	assert_int_equal(prepare_collect(acc, accn, 4, iv[0][0]), 0);
	assert_int_equal(prepare_collect(acc, accn, 4, iv[0][1]), 0);
	assert_int_equal(prepare_collect(acc, accn, 4, iv[2][0]), 0);
	assert_int_equal(prepare_collect(acc, accn, 4, iv[1][0]), 0);
	assert_int_equal(prepare_collect(acc, accn, 4, iv[1][1]), 0);
	assert_int_equal(accn[0], 3);
	assert_int_equal(accn[1], 2);
	assert_int_equal(accn[2], 0);
	/* The first one was copied: changing it later changes nothing. */
	assert_ptr_not_equal(acc[0], iv[0][0]);
	iv[0][0]->ops[0] = 999;

	assert_int_equal(acc[0]->seq, 0);
	assert_int_equal(acc[0]->ops[0], 60);
	assert_int_equal(acc[0]->ops[1], 6);
	assert_int_equal(acc[0]->bytes[0], 60 * 4096);
	assert_int_equal(acc[0]->bytes[1], 6 * 8192);
	assert_int_equal(acc[0]->lat[0].count, 60);
	assert_int_equal(acc[0]->lat[0].min, 1000);
	assert_int_equal(acc[0]->lat[0].max, 3000);
	assert_int_equal(acc[0]->lat[0].sum, 10 * 1000 + 20 * 2000 + 30 * 3000);
	assert_int_equal(acc[0]->lat[0].buckets[hist_index(2000)], 20);
	assert_int_equal(acc[0]->lat[1].count, 6);
	assert_int_equal(acc[0]->errors, 4);
	assert_int_equal(acc[0]->runq_ns, 6000000); /* the workers' waits */
	/* Lags add, with their counts; the largest is the largest. */
	assert_int_equal(acc[0]->lag.n, 60);
	assert_int_equal(acc[0]->lag.sum, 700 * (10 + 2 * 20 + 3 * 30));
	assert_int_equal(acc[0]->lag.max, 2700);
	assert_int_equal(acc[0]->target_errors[0], 1);
	assert_int_equal(acc[0]->target_errors[1], 3);
	/* The last worker with errors added (worker 3, by order) has it. */
	assert_int_equal(acc[0]->last_errno, EIO);
	assert_int_equal(acc[0]->last_err_offset, 1536);
	assert_int_equal(acc[0]->last_err_target, 1);
	/* Worker 2 had no errors: interval 1 keeps worker 1's. */
	assert_int_equal(acc[1]->ops[0], 30);
	assert_int_equal(acc[1]->errors, 1);
	assert_int_equal(acc[1]->last_errno, ENXIO);

	/* An interval past the phase's end is dropped, not counted. */
	iv[2][1]->seq = 4;
	assert_int_equal(prepare_collect(acc, accn, 4, iv[2][1]), 0);
	assert_int_equal(accn[1], 2);
	for (unsigned w = 0; w < 3; w++)
		for (unsigned k = 0; k < 2; k++)
			free(iv[w][k]);
	for (unsigned k = 0; k < 4; k++)
		free(acc[k]);
}

static void test_workers_due(void **state)
{
	int ended[3] = { 0, 0, 0 }, wlast[3] = { 2, 2, 2 };

	(void)state;
	assert_int_equal(prepare_workers_due(ended, wlast, 3, 0), 3);
	assert_int_equal(prepare_workers_due(ended, wlast, 3, 5), 3);
	/* Worker 1 ended its eof pass with interval 2: due up to 2 only. */
	ended[1] = 1;
	assert_int_equal(prepare_workers_due(ended, wlast, 3, 2), 3);
	assert_int_equal(prepare_workers_due(ended, wlast, 3, 3), 2);
	ended[0] = 1;
	wlast[0] = 0;
	assert_int_equal(prepare_workers_due(ended, wlast, 3, 1), 2);
	assert_int_equal(prepare_workers_due(ended, wlast, 3, 3), 1);
}

static void test_clock_conversion(void **state)
{
	static const uint64_t none[3] = { 0, 0, 0 };
	static const uint64_t some[4] = { 0, 700, 500, 900 };

	(void)state;
	assert_int_equal(prepare_first_io(none, 3), 0);
	assert_int_equal(prepare_first_io(some, 4), 500);
	assert_int_equal(prepare_first_io(some, 0), 0);
	/* mono 100 + (real - mono) 1000, slave 30 ahead of the master. */
	assert_int_equal(prepare_mono_to_master(100, 1000, 30), 1070);
	assert_int_equal(prepare_mono_to_master(100, 1000, -30), 1130);
}

static void test_interval_msg_and_totals(void **state)
{
	static const unsigned threads[] = { 1, 1 };
	struct prepare_totals tot = { 0 };
	struct worker_interval *iv = interval(0, 2);
	struct proto_msg m = { .type = PROTO_INTERVAL };
	struct proto_interval *pi = &m.u.interval;

	(void)state;
	make_plan(2, threads);
	plan.phase = 7;
	plan.warmup_intervals = 1;
	hist_init(&tot.meas[0]);
	hist_init(&tot.meas[1]);
	iv->ops[0] = 3;
	iv->bytes[0] = 3 * 4096;
	iv->errors = 2;
	iv->runq_ns = 12345;
	iv->lag.sum = 3000;
	iv->lag.n = 3;
	iv->lag.max = 1500;
	hist_add(&iv->lat[0], 100);
	hist_add(&iv->lat[0], 200);
	hist_add(&iv->lat[0], 300);
	prepare_account(&tot, &plan, iv); /* a warmup interval */
	iv->seq = 2;
	prepare_account(&tot, &plan, iv);
	assert_int_equal(tot.ops, 6);
	assert_int_equal(tot.bytes, 6 * 4096);
	assert_int_equal(tot.errors, 4);
	assert_int_equal(tot.meas[0].count, 3); /* warmup not measured */
	assert_int_equal(tot.meas[1].count, 0);

	assert_int_equal(prepare_interval_msg(pi, &plan, 5000000000ull, iv), 0);
	assert_int_equal(pi->phase, 7);
	assert_int_equal(pi->seq, 2);
	assert_int_equal(pi->start_ns, 7000000000ull);
	assert_int_equal(pi->end_ns, 8000000000ull);
	assert_int_equal(pi->ops[0], 3);
	assert_int_equal(pi->bytes[0], 3 * 4096);
	assert_int_equal(pi->errors, 2);
	assert_int_equal(pi->runq_ns, 12345);
	assert_int_equal(pi->lag_ns, 3000);
	assert_int_equal(pi->lag_n, 3);
	assert_int_equal(pi->lag_max_ns, 1500);
	assert_int_equal(pi->lat[0].count, 3);
	assert_int_equal(pi->lat[0].n, 3);
	assert_int_equal(pi->lat[1].count, 0);
	proto_msg_free(&m);
	free(iv);
}

/* Which workers split their latency per target, and how. */
static void test_split(void **state)
{
	static const unsigned slots[] = { 2, 0, 2, 1, 0 };
	unsigned one[NT_MAX], many[NT_MAX], first[5], local[5];
	struct prepare_slots ps = { .nworkers = 2 };

	(void)state;
	assert_int_equal(prepare_split_slots(slots, 5, first, local), 3);
	assert_memory_equal(first, ((const unsigned[]){ 2, 0, 1 }),
			    3 * sizeof(unsigned));
	assert_memory_equal(local, ((const unsigned[]){ 0, 1, 0, 2, 1 }),
			    5 * sizeof(unsigned));
	for (unsigned t = 0; t < NT_MAX; t++) {
		one[t] = 1;
		many[t] = PREPARE_MAX_WORKERS;
	}
	/* 64 targets of a thread each over 2 workers: 32 pairs each. */
	make_plan(PROTO_MAX_SD_LATS, one);
	assert_int_equal(prepare_assign_slots(&ps, &plan), 0);
	assert_int_equal(prepare_split(&plan, &ps), 1);
	prepare_slots_free(&ps);
	/* One more target: not split. */
	ps.nworkers = 2;
	make_plan(PROTO_MAX_SD_LATS + 1, one);
	assert_int_equal(prepare_assign_slots(&ps, &plan), 0);
	assert_int_equal(prepare_split(&plan, &ps), 0);
	prepare_slots_free(&ps);
	/* Every worker on every target: 64 x 64 pairs is too many. */
	ps.nworkers = PREPARE_MAX_WORKERS;
	make_plan(PROTO_MAX_SD_LATS, many);
	assert_int_equal(prepare_assign_slots(&ps, &plan), 0);
	assert_int_equal(prepare_split(&plan, &ps), 0);
	prepare_slots_free(&ps);
	/* 8 targets on 32 workers: 256 pairs, the most. */
	ps.nworkers = 32;
	make_plan(8, many);
	assert_int_equal(prepare_assign_slots(&ps, &plan), 0);
	assert_int_equal(prepare_split(&plan, &ps), 1);
	prepare_slots_free(&ps);
	/* A worker of one target holds no pair of its own. */
	ps.nworkers = 2;
	make_plan(2, (const unsigned[]){ 2, 2 });
	assert_int_equal(prepare_assign_slots(&ps, &plan), 0);
	assert_int_equal(prepare_split(&plan, &ps), 1);
	prepare_slots_free(&ps);
}

/*
 * Two workers' split intervals add up per target: one records targets 1
 * and 0 in pairs of its own, the other only target 1, in its read and
 * write histograms; the message carries each target's latency, which
 * adds up to the totals (its encoding checks it).
 */
static void test_split_collect(void **state)
{
	static const unsigned threads[] = { 2, 2 };
	static const unsigned ta[] = { 1, 0 }, tb[] = { 1 };
	struct worker_interval *a = wival_new(0, 2, 2, ta);
	struct worker_interval *b = wival_new(0, 2, 1, tb);
	struct worker_interval *acc[4] = { 0 };
	unsigned accn[4] = { 0 };
	struct proto_msg m = { .type = PROTO_INTERVAL };
	struct proto_interval *pi = &m.u.interval;
	void *buf;
	size_t len;

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	make_plan(2, threads);
	assert_true(a->rec != a->lat);
	assert_true(b->rec == b->lat);
	hist_add(&a->rec[0], 1000); /* target 1, read */
	hist_add(&a->rec[1], 2000); /* target 1, write */
	hist_add(&a->rec[2], 3000); /* target 0, read */
	hist_add(&a->rec[2], 3000);
	hist_add(&b->rec[1], 5000); /* target 1, write */
	a->ops[0] = 3;
	a->ops[1] = 1;
	b->ops[1] = 1;
	wival_fold(a);
	wival_fold(b);
	assert_int_equal(a->lat[0].count, 3);
	assert_int_equal(a->lat[1].count, 1);
	assert_int_equal(prepare_collect(acc, accn, 4, a), 0);
	assert_int_equal(prepare_collect(acc, accn, 4, b), 0);
	assert_non_null(acc[0]->sd);
	assert_null(acc[0]->rec);
	assert_int_equal(acc[0]->sd[0].count, 2);
	assert_int_equal(acc[0]->sd[0].sum, 6000);
	assert_int_equal(acc[0]->sd[1].count, 3);
	assert_int_equal(acc[0]->sd[1].sum, 8000);
	assert_int_equal(acc[0]->lat[1].count, 2);

	assert_int_equal(prepare_interval_msg(pi, &plan, 0, acc[0]), 0);
	assert_int_equal(pi->nsds, 2);
	assert_int_equal(pi->sds[0].target, 0);
	assert_int_equal(pi->sds[0].lat.count, 2);
	assert_int_equal(pi->sds[1].target, 1);
	assert_int_equal(pi->sds[1].lat.count, 3);
	assert_int_equal(pi->sds[1].lat.max, 5000);
	assert_int_equal(proto_encode(&m, &buf, &len), 0);
	free(buf);
	proto_msg_free(&m);

	/* Cleared for the next interval, its pairs too. */
	wival_clear(a);
	assert_int_equal(a->lat[0].count, 0);
	assert_int_equal(a->rec[2].count, 0);
	assert_int_equal(a->ntargets, 2);
	assert_true(a->split_target == ta);
	free(acc[0]);
	wival_free(a);
	wival_free(b);
}

static void test_error_text(void **state)
{
	static const unsigned threads[] = { 1, 1 };
	struct worker_interval *iv = interval(4, 2);
	char text[PROTO_TEXT_LEN] = "untouched";

	(void)state;
	make_plan(2, threads);
	assert_int_equal(prepare_error_text(text, sizeof(text), &plan, iv, 0),
			 0);
	assert_string_equal(text, "untouched");
	iv->errors = 5;
	iv->target_errors[0] = 2;
	iv->target_errors[1] = 3;
	iv->last_errno = EIO;
	iv->last_err_offset = 8192;
	iv->last_err_target = 1;
	assert_int_equal(prepare_error_text(text, sizeof(text), &plan, iv, 0),
			 1);
	assert_string_equal(text,
			    "sd sd1 (/dev/fake0): 2 I/O errors in interval 5");
	assert_int_equal(prepare_error_text(text, sizeof(text), &plan, iv, 1),
			 1);
	assert_string_equal(text,
			    "sd sd2 (/dev/fake1): 3 I/O errors in interval 5, the last at offset 8192: Input/output error");
	/* A validation mismatch is not an errno's text. */
	iv->last_errno = WORKER_ERR_MISMATCH;
	assert_int_equal(prepare_error_text(text, sizeof(text), &plan, iv, 1),
			 1);
	assert_non_null(strstr(text, "offset 8192: data validation mismatch"));
	assert_null(strstr(text, "multibyte"));
	/* A target the plan does not have is never read. */
	assert_int_equal(prepare_error_text(text, sizeof(text), &plan, iv, 2),
			 0);
	free(iv);
}

/* A plan every check accepts: two targets, one stream over both. */
static void good_plan(void)
{
	static const unsigned threads[] = { 4, 4 };

	make_plan(2, threads);
	plan.warmup_intervals = 1;
	plan.clock_offset_ns = -5000;
	snprintf(streams[0].name, sizeof(streams[0].name), "wd1");
	streams[0].ntargets = 2;
	streams[0].targets[1] = 1;
	streams[0].nxfer = 1;
	streams[0].xfer[0].size = 4096;
	streams[0].xfer[0].pct = 100;
	plan.nstreams = 1;
}

/* The good plan validated with dedupratio=2: unit, xfersize, sd offset. */
static void dedup_val(uint32_t unit, uint32_t xfer, uint64_t offset)
{
	plan.validate = PROTO_VALIDATE_YES;
	plan.dedupratio = 2;
	plan.dedupunit = unit;
	streams[0].xfer[0].size = xfer;
	targets[0].offset = offset;
}

static void set_u32(uint32_t *f, uint32_t v)
{
	*f = v;
}

/*
 * Each case breaks one field of a good plan; the check must refuse it and
 * name the field (the "plan field ..." the error reply carries).
 */
static void test_check_plan(void **state)
{
	/* One short line per case reads best here. */
	/* clang-format off */
	enum { T0TH, T1TH, IN, IN0, NI0, NILONG, WI, IO, IONAN, IOINF, IOTINY,
	       CO, COMIN, CE, DI, FM, CP, DU, SZ, OS, OSODD, OF, LO, AL, CR,
	       SQ, FC, NOTG, X0, XBIG, XODD, NOX, EOFF, NAME, PATH, VDU, VDX,
	       VDOF, VDOK, OK };
	static const struct {
		int what;
		const char *field;
	} cases[] = {
		{ T0TH, "tg[1].th" },   { T1TH, "tg[0].th" },
		{ IN, "field in:" },    { IN0, "field in:" },
		{ NI0, "field ni:" },   { NILONG, "field ni:" },
		{ WI, "field wi:" },    { IO, "field io:" },
		{ IONAN, "field io:" }, { IOINF, "field io:" },
		{ IOTINY, "field io:" }, { CO, "field co:" },
		{ COMIN, "field co:" }, { CE, "field ce:" },
		{ DI, "field di:" },    { FM, "field fm:" },
		{ CP, "field cp:" },    { DU, "field du:" },
		{ SZ, "tg[0].sz" },     { OS, "tg[0].os" },
		{ OSODD, "tg[0].os" },  { OF, "tg[0].of" },
		{ LO, "tg[0].lo" },     { AL, "tg[0].al" },
		{ CR, "tg[0].cr" },     { SQ, "tg[0].sq" },
		{ FC, "tg[0].fc" },     { NOTG, "field tg:" },
		{ X0, "st[0].x[0].sz" }, { XBIG, "st[0].x[0].sz" },
		{ XODD, "st[0].x[0].sz" }, { NOX, "st[0].x" },
		{ EOFF, "st[0].eof" },  { NAME, "tg[0].nm" },
		{ PATH, "tg[0].pa" },   { VDU, "field du:" },
		{ VDX, "field st:" },   { VDOF, "field tg:" },
		{ VDOK, NULL },         { OK, NULL },
	};
	/* clang-format on */
	char err[512];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		int ret;

		good_plan();
		/* clang-format off */
		switch (cases[i].what) {
		/* 0xFFFFFFFF + 2 wrapped to 1 before: a heap overflow. */
		case T0TH: set_u32(&targets[0].threads, 2);
			   set_u32(&targets[1].threads, 0xFFFFFFFFu); break;
		case T1TH: set_u32(&targets[0].threads, PREPARE_MAX_THREADS + 1);
			   break;
		case IN: plan.interval_ns = PREPARE_MAX_INTERVAL_NS + 1; break;
		case IN0: plan.interval_ns = 0; break;
		case NI0: plan.intervals = 0; break;
		case NILONG: plan.interval_ns = PREPARE_MAX_INTERVAL_NS;
			     plan.intervals = 400; break;
		case WI: plan.warmup_intervals = plan.intervals; break;
		case IO: plan.iorate = 2e9; break;
		case IONAN: plan.iorate = NAN; break;
		case IOINF: plan.iorate = INFINITY; break;
		case IOTINY: plan.iorate = 1e-9; break;
		case CO: plan.clock_offset_ns = PREPARE_MAX_OFFSET_NS + 1; break;
		case COMIN: plan.clock_offset_ns = INT64_MIN; break;
		case CE: plan.clock_error_ns = UINT64_MAX; break;
		case DI: plan.distribution = 3; break;
		case FM: plan.format = 7; break;
		case CP: plan.compratio = 1e300; break;
		case DU: plan.dedupunit = 1000; break;
		case SZ: targets[0].size = UINT64_MAX; break;
		case OS: targets[0].offset = UINT64_MAX - 511; break;
		case OSODD: targets[0].offset = 100; break;
		case OF: targets[0].openflags = 8; break;
		case LO: targets[0].range_lo = 500; targets[0].range_hi = 400;
			 break;
		case AL: targets[0].align = 100; break;
		case CR: targets[0].create = 2; break;
		case SQ: targets[0].sqpoll = 3; break;
		case FC: targets[0].force = 0x10000; break;
		case NOTG: plan.ntargets = 0; break;
		case X0: streams[0].xfer[0].size = 0; break;
		case XBIG: streams[0].xfer[0].size = PREPARE_MAX_XFER + 512;
			   break;
		case XODD: streams[0].xfer[0].size = 4097; break;
		case NOX: streams[0].nxfer = 0; break;
		case EOFF: streams[0].eof = 5; break;
		case NAME: targets[0].name[0] = 0; break;
		case PATH: targets[0].path[0] = 0; break;
		/* Validated duplicates: whole dedup units of whole blocks. */
		case VDU: dedup_val(6144, 12288, 0); break;
		case VDX: dedup_val(16384, 8192, 0); break;
		case VDOF: dedup_val(16384, 16384, 8192); break;
		case VDOK: dedup_val(16384, 32768, 16384); break;
		default: break;
		}
		/* clang-format on */
		err[0] = 0;
		ret = prepare_check_plan(&plan, err, sizeof(err));
		if (!cases[i].field) {
			if (ret != 0)
				fail_msg("case %zu: refused: %s", i, err);
			continue;
		}
		if (ret != -EINVAL || !strstr(err, cases[i].field))
			fail_msg("case %zu: ret %d, \"%s\" does not name %s", i,
				 ret, err, cases[i].field);
	}
	/* The slots refuse a wrapping sum on their own too. */
	{
		struct prepare_slots ps = { .nworkers = 2 };

		good_plan();
		targets[0].threads = 0xFFFFFFFFu;
		targets[1].threads = 2;
		assert_int_equal(prepare_assign_slots(&ps, &plan), -EINVAL);
		prepare_slots_free(&ps);
		assert_int_equal(prepare_threads(&plan), UINT_MAX);
	}
}

/* go's start time: converted without overflow, within the window. */
static void test_check_go(void **state)
{
	const uint64_t now = UINT64_C(1700000000000000000);
	static const struct {
		uint64_t start;
		int64_t offset;
		int ok;
	} cases[] = {
		{ UINT64_C(1700000000250000000), 0, 1 },
		{ UINT64_C(1700000000250000000), -86400000000000ll, 0 },
		{ UINT64_C(1700000000250000000), 1000000, 1 },
		{ UINT64_C(1700000000000000000) - 299000000000ull, 0, 1 },
		{ UINT64_C(1700000000000000000) - 301000000000ull, 0, 0 },
		{ UINT64_C(1700000000000000000) + 301000000000ull, 0, 0 },
		{ UINT64_MAX, 0, 0 },
		{ (uint64_t)INT64_MAX, INT64_MAX, 0 },
		{ 0, 0, 0 },
	};
	char err[256];

	(void)state;
	good_plan();
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		int64_t at = 0;
		int ret;

		plan.clock_offset_ns = cases[i].offset;
		struct proto_go go = { .phase = 1, .start_at = cases[i].start };

		ret = prepare_check_go(&plan, &go, now, &at, err, sizeof(err));
		if (cases[i].ok) {
			assert_int_equal(ret, 0);
			assert_true(at ==
				    (int64_t)cases[i].start + cases[i].offset);
		} else {
			if (ret != -ERANGE)
				fail_msg("case %zu: accepted", i);
			assert_non_null(strstr(err, "refused go"));
		}
	}
}

/*
 * A rejoin's go: its first interval must be one of the plan's, and the
 * window is judged on this slave's own start (the phase's start plus its
 * first interval), which a long phase puts far after the phase's start.
 */
/*
 * A measure message moves a warmup=steady window earlier within the
 * planned warmup and keeps its length; anything else is refused.
 */
static void test_check_measure(void **state)
{
	struct proto_measure ms = { .phase = 1, .from = 14, .intervals = 44 };
	char err[256];

	(void)state;
	good_plan();
	plan.intervals = 90; /* 60 warmup at most, then 30 measured */
	plan.warmup_intervals = 60;
	assert_int_equal(prepare_check_measure(&plan, &ms, err, sizeof(err)),
			 0);
	ms.from = 0;
	ms.intervals = 30;
	assert_int_equal(prepare_check_measure(&plan, &ms, err, sizeof(err)),
			 0);
	/* Later than planned, longer, shorter, or empty. */
	ms.from = 61;
	ms.intervals = 91;
	assert_int_equal(prepare_check_measure(&plan, &ms, err, sizeof(err)),
			 -ERANGE);
	assert_non_null(strstr(err, "window 61..91 is neither 30 measured"));
	ms.from = 14;
	ms.intervals = 45;
	assert_int_equal(prepare_check_measure(&plan, &ms, err, sizeof(err)),
			 -ERANGE);
	ms.intervals = 43;
	assert_int_equal(prepare_check_measure(&plan, &ms, err, sizeof(err)),
			 -ERANGE);
	ms.intervals = 14;
	assert_int_equal(prepare_check_measure(&plan, &ms, err, sizeof(err)),
			 -ERANGE);
	/* maxdata=: the same start, an earlier end that measures some. */
	ms.from = 60;
	ms.intervals = 75;
	assert_int_equal(prepare_check_measure(&plan, &ms, err, sizeof(err)),
			 0);
	ms.intervals = 61;
	assert_int_equal(prepare_check_measure(&plan, &ms, err, sizeof(err)),
			 0);
	ms.intervals = 60;
	assert_int_equal(prepare_check_measure(&plan, &ms, err, sizeof(err)),
			 -ERANGE);
	ms.intervals = 91;
	assert_int_equal(prepare_check_measure(&plan, &ms, err, sizeof(err)),
			 -ERANGE);
}

static void test_check_go_rejoin(void **state)
{
	const uint64_t now = UINT64_C(1700000000000000000);
	struct proto_go go = { .phase = 1 };
	char err[256];
	int64_t at = 0;

	(void)state;
	good_plan();
	plan.interval_ns = NS_PER_SEC;
	plan.intervals = 3600;
	plan.clock_offset_ns = 5;
	/* The phase began 1000 s ago; this slave starts in 1 s, at 1001. */
	go.start_at = now - 1000 * NS_PER_SEC;
	go.first_interval = 1001;
	assert_int_equal(prepare_check_go(&plan, &go, now, &at, err,
					  sizeof(err)),
			 0);
	assert_true(at == (int64_t)(now + NS_PER_SEC + 5));
	/* The same start as the first interval: outside the window. */
	go.first_interval = 0;
	assert_int_equal(prepare_check_go(&plan, &go, now, &at, err,
					  sizeof(err)),
			 -ERANGE);
	/* Not one of the plan's intervals. */
	go.start_at = now;
	go.first_interval = 3600;
	assert_int_equal(prepare_check_go(&plan, &go, now, &at, err,
					  sizeof(err)),
			 -ERANGE);
	assert_non_null(
		strstr(err, "first interval 3600 is not one of its 3600"));
	go.first_interval = 3599;
	go.start_at = now - 3599 * NS_PER_SEC;
	assert_int_equal(prepare_check_go(&plan, &go, now, &at, err,
					  sizeof(err)),
			 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_go_rejoin),
		cmocka_unit_test(test_check_measure),
		cmocka_unit_test(test_assign_two_targets_two_workers),
		cmocka_unit_test(test_assign_streams),
		cmocka_unit_test(test_assign_unused_and_unshared_targets),
		cmocka_unit_test(test_assign_table),
		cmocka_unit_test(test_nworkers),
		cmocka_unit_test(test_target_writes_and_flags),
		cmocka_unit_test(test_collect_three_workers),
		cmocka_unit_test(test_workers_due),
		cmocka_unit_test(test_clock_conversion),
		cmocka_unit_test(test_interval_msg_and_totals),
		cmocka_unit_test(test_error_text),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_split_collect),
		cmocka_unit_test(test_check_plan),
		cmocka_unit_test(test_check_go),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
