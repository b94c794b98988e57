/*
 * Unit tests of Vdbench's sd concatenation (slave/concat.c, and the
 * generator's use of it in slave/workload.c): offsets on either side of
 * each boundary, Vdbench's move of a straddling I/O to the next sd's
 * start (the first sd's past the last), sizes that are not multiples of
 * the transfer size, the small-sd check; then a concatenated stream
 * drawn through the generator: a sequential walk through sd1, sd2, sd3
 * in order, contiguous, random I/O landing on each sd in proportion to
 * its size within 4 binomial sigmas, range= on the concatenated space,
 * and never an I/O past an sd's end.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include <cmocka.h>

#include "slave/concat.h"
#include "slave/prepare.h"
#include "slave/workload.h"

static void test_map_table(void **state)
{
	/* sds of 100k, 10k + 512 and 1m: ends 102400, 113152, 1161728 */
	static const uint64_t size[] = { 102400, 10752, 1048576 };
	static const struct {
		uint64_t off;
		uint32_t len;
		unsigned sd;
		uint64_t sdoff;
		int moved;
	} c[] = {
		{ 0, 4096, 0, 0, 0 },
		{ 98304, 4096, 0, 98304, 0 }, /* sd1's last block */
		{ 98305, 4096, 1, 0, 1 },     /* straddles: sd2's start */
		{ 100000, 8192, 1, 0, 1 },    /* straddles */
		{ 102400, 4096, 1, 0, 0 },    /* sd2's first byte */
		{ 106496, 4096, 1, 4096, 0 }, /* inside sd2 */
		{ 110592, 2560, 1, 8192, 0 }, /* ends at sd2's end exactly */
		{ 110592, 4096, 2, 0, 1 },    /* 512 into sd3: moved */
		{ 113152, 512, 2, 0, 0 },     /* sd3's first byte */
		{ 1157632, 4096, 2, 1044480, 0 }, /* the space's last block */
		{ 1159168, 4096, 0, 0, 1 }, /* past the end: the first sd */
	};
	uint64_t end[3];

	(void)state;
	assert_int_equal(concat_ends(size, 3, 4096, end), 3);
	assert_int_equal(end[0], 102400);
	assert_int_equal(end[1], 113152);
	assert_int_equal(end[2], 1161728);
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		unsigned sd = 99;
		uint64_t off = 99;
		int moved = concat_map(end, 3, c[i].off, c[i].len, &sd, &off);

		assert_int_equal(moved, c[i].moved);
		assert_int_equal(sd, c[i].sd);
		assert_int_equal(off, c[i].sdoff);
	}
}

static void test_small_sd(void **state)
{
	static const uint64_t size[] = { 65536, 4096, 2048, 65536 };
	uint64_t end[4];

	(void)state;
	/* The first sd that cannot hold a whole transfer is named. */
	assert_int_equal(concat_ends(size, 4, 4096, end), 2);
	assert_int_equal(concat_ends(size, 4, 8192, end), 1);
	assert_int_equal(concat_ends(size, 4, 2048, end), 4);
	assert_int_equal(end[3], 137216);
}

static void test_one_sd(void **state)
{
	static const uint64_t size[] = { 1 << 20 };
	uint64_t end[1], off;
	unsigned sd;

	(void)state;
	concat_ends(size, 1, 4096, end);
	assert_int_equal(concat_map(end, 1, 4096, 4096, &sd, &off), 0);
	assert_int_equal(sd, 0);
	assert_int_equal(off, 4096);
}

/* Every offset of a space of three sds maps inside one sd, whole. */
static void test_map_exhaustive(void **state)
{
	static const uint64_t size[] = { 12800, 4608, 20480 };
	uint64_t end[3];

	(void)state;
	concat_ends(size, 3, 4096, end);
	for (uint64_t off = 0; off < end[2]; off += 512) {
		for (uint32_t len = 512; len <= 4096; len += 512) {
			unsigned sd;
			uint64_t o;
			int moved = concat_map(end, 3, off, len, &sd, &o);
			uint64_t start = sd ? end[sd - 1] : 0;

			assert_true(o + len <= size[sd]);
			if (!moved)
				assert_int_equal(start + o, off);
			else
				assert_int_equal(o, 0);
		}
	}
}

/* ---- a concatenated stream through the generator ---------------------- */

struct cfx {
	struct proto_plan plan;
	struct proto_target targets[3];
	struct proto_stream stream;
	uint64_t size[3];
	struct workload w;
	char err[256];
};

/* Three sds of the given sizes, one concatenated stream of 4k I/O. */
static void cfx_init(struct cfx *f, const uint64_t *size, double seekpct,
		     uint32_t xfer)
{
	memset(f, 0, sizeof(*f));
	f->plan.ntargets = 3;
	f->plan.targets = f->targets;
	f->plan.nstreams = 1;
	f->plan.streams = &f->stream;
	for (unsigned t = 0; t < 3; t++) {
		snprintf(f->targets[t].name, sizeof(f->targets[t].name), "sd%u",
			 t + 1);
		f->size[t] = size[t];
		f->stream.targets[t] = t;
	}
	f->targets[0].threads = 8;
	f->stream.ntargets = 3;
	f->stream.concat = 1;
	snprintf(f->stream.name, sizeof(f->stream.name), "wd1");
	f->stream.nxfer = 1;
	f->stream.xfer[0].size = xfer;
	f->stream.xfer[0].pct = 100;
	f->stream.rdpct = 50;
	f->stream.seekpct = seekpct;
}

/* Where io lies in the concatenated space, checking it is inside its sd. */
static uint64_t space_of(const struct cfx *f, const struct workload_io *io)
{
	uint64_t at = 0;

	assert_true(io->target < 3);
	assert_true(io->offset + io->len <= f->size[io->target]);
	for (unsigned t = 0; t < io->target; t++)
		at += f->size[t];
	return at + io->offset;
}

/* Sequential: sd1, sd2, sd3 whole and in order, contiguous, then again. */
static void test_sequential_walk(void **state)
{
	static const uint64_t size[] = { 64 << 10, 1 << 20, 256 << 10 };
	uint64_t total = size[0] + size[1] + size[2], expect = 0;
	struct cfx f;
	struct workload_io io;

	(void)state;
	cfx_init(&f, size, 0, 4096);
	assert_int_equal(workload_init(&f.w, &f.plan, f.size, 1, f.err,
				       sizeof(f.err)),
			 0);
	for (unsigned i = 0; i < 2 * total / 4096; i++) {
		assert_int_equal(workload_next(&f.w, 0, &io), 0);
		assert_int_equal(space_of(&f, &io), expect);
		expect = (expect + 4096) % total;
	}
	workload_free(&f.w);
}

/*
 * Sizes that are not multiples of the transfer: the I/O that would
 * straddle goes to the next sd's start (Vdbench's rule), and the walk
 * goes on from where it was in the space (so a block may be read twice,
 * as Vdbench says); never an I/O across an end.
 */
static void test_sequential_straddle(void **state)
{
	static const uint64_t size[] = { 10240, 12800, 8192 };
	struct cfx f;
	struct workload_io io;
	unsigned seen[3] = { 0 }, moved = 0;

	(void)state;
	cfx_init(&f, size, 0, 4096);
	assert_int_equal(workload_init(&f.w, &f.plan, f.size, 1, f.err,
				       sizeof(f.err)),
			 0);
	for (unsigned i = 0; i < 1000; i++) {
		assert_int_equal(workload_next(&f.w, 0, &io), 0);
		(void)space_of(&f, &io);
		seen[io.target]++;
		moved += io.offset == 0 && io.target > 0;
	}
	assert_true(seen[0] && seen[1] && seen[2]);
	assert_true(moved > 0);
	workload_free(&f.w);
}

/* Random: each sd's share of the I/O is its share of the space. */
static void test_random_proportion(void **state)
{
	static const uint64_t size[] = { 8 << 20, 24 << 20, 32 << 20 };
	const unsigned draws = 200000;
	uint64_t total = size[0] + size[1] + size[2];
	struct cfx f;
	struct workload_io io;
	unsigned count[3] = { 0 };

	(void)state;
	cfx_init(&f, size, 100, 4096);
	assert_int_equal(workload_init(&f.w, &f.plan, f.size, 7, f.err,
				       sizeof(f.err)),
			 0);
	for (unsigned i = 0; i < draws; i++) {
		assert_int_equal(workload_next(&f.w, 0, &io), 0);
		(void)space_of(&f, &io);
		assert_int_equal(io.offset % 4096, 0);
		count[io.target]++;
	}
	for (unsigned t = 0; t < 3; t++) {
		double p = (double)size[t] / (double)total;
		double sigma = sqrt(draws * p * (1 - p));

		assert_true(fabs(count[t] - draws * p) <= 4 * sigma);
	}
	workload_free(&f.w);
}

/* range= is of the concatenated space: 25%..75% of 64m is 16m..48m. */
static void test_range_of_space(void **state)
{
	static const uint64_t size[] = { 8 << 20, 24 << 20, 32 << 20 };
	struct cfx f;
	struct workload_io io;
	unsigned count[3] = { 0 };
	uint64_t lo = UINT64_MAX, hi = 0;

	(void)state;
	cfx_init(&f, size, 100, 4096);
	f.targets[0].range_lo = 250000000;
	f.targets[0].range_hi = 750000000;
	assert_int_equal(workload_init(&f.w, &f.plan, f.size, 3, f.err,
				       sizeof(f.err)),
			 0);
	for (unsigned i = 0; i < 100000; i++) {
		uint64_t at;

		assert_int_equal(workload_next(&f.w, 0, &io), 0);
		at = space_of(&f, &io);
		lo = at < lo ? at : lo;
		hi = at + io.len > hi ? at + io.len : hi;
		count[io.target]++;
	}
	assert_true(lo >= 16ull << 20 && lo < (16ull << 20) + (64 << 10));
	assert_true(hi <= 48ull << 20 && hi > (48ull << 20) - (64 << 10));
	/* 16m..32m is sd2's last 16m, 32m..48m sd3's first 16m: no sd1. */
	assert_int_equal(count[0], 0);
	assert_true(count[1] > 0 && count[2] > 0);
	workload_free(&f.w);
}

/* An sd that cannot hold a transfer whole is refused, by name. */
static void test_small_refused(void **state)
{
	static const uint64_t size[] = { 1 << 20, 4096, 1 << 20 };
	struct cfx f;

	(void)state;
	cfx_init(&f, size, 100, 8192);
	assert_int_equal(workload_init(&f.w, &f.plan, f.size, 1, f.err,
				       sizeof(f.err)),
			 -EINVAL);
	assert_non_null(strstr(f.err, "sd sd2"));
}

/*
 * Per-sd latency: a worker whose slots are on a concatenation's first sd
 * records for every sd of it (they follow its slots' targets, once each).
 */
static void test_split_members(void **state)
{
	static const uint64_t size[] = { 1 << 20, 1 << 20, 1 << 20 };
	struct cfx f;
	unsigned targets[8] = { 0 }, n;

	(void)state;
	cfx_init(&f, size, 100, 4096);
	n = prepare_split_concat(&f.plan, targets, 1);
	assert_int_equal(n, 3);
	assert_int_equal(targets[1], 1);
	assert_int_equal(targets[2], 2);
	/* A worker on another target only: nothing added. */
	targets[0] = 2;
	assert_int_equal(prepare_split_concat(&f.plan, targets, 1), 1);
	/* Not concatenated: nothing added. */
	f.stream.concat = 0;
	targets[0] = 0;
	assert_int_equal(prepare_split_concat(&f.plan, targets, 1), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_map_table),
		cmocka_unit_test(test_small_sd),
		cmocka_unit_test(test_one_sd),
		cmocka_unit_test(test_map_exhaustive),
		cmocka_unit_test(test_sequential_walk),
		cmocka_unit_test(test_sequential_straddle),
		cmocka_unit_test(test_random_proportion),
		cmocka_unit_test(test_range_of_space),
		cmocka_unit_test(test_small_refused),
		cmocka_unit_test(test_split_members),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
