/*
 * Unit tests of the workload generator on hand-built plans: offsets aligned
 * and inside the range, sequential runs and their wrap, the shares asked by
 * seekpct, xfersize, rdpct and skew, range=, offset= and align=,
 * seekpct=eof's single pass, cache hits (rhpct=, whpct=, hitarea=), skewed
 * and zoned random_distribution= over the whole range, Vdbench's hot bands
 * shared by skew, streams= and stride=, and the plans it must refuse.
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

#include "slave/hotband.h"
#include "slave/workload.h"

#define KIB 1024ull
#define GIB (1024ull * 1024 * 1024)
#define DRAWS 100000
#define PPB 1000000000ull

/* An odd size, so range ends and alignment are not round by accident. */
#define SIZE (GIB + 12345)

struct fixture {
	struct proto_plan plan;
	struct proto_target targets[4];
	struct proto_stream streams[4];
	uint64_t size[4];
	struct workload w;
	char err[256];
};

static struct fixture fx;

static void plan_reset(unsigned ntargets)
{
	memset(&fx, 0, sizeof(fx));
	fx.plan.ntargets = ntargets;
	fx.plan.targets = fx.targets;
	fx.plan.streams = fx.streams;
	for (unsigned t = 0; t < ntargets; t++) {
		snprintf(fx.targets[t].name, sizeof(fx.targets[t].name), "sd%u",
			 t + 1);
		fx.targets[t].threads = 8;
		fx.size[t] = SIZE;
	}
}

/* A stream on one target; xfer sizes/shares come in pairs, 0-terminated. */
static struct proto_stream *add_stream(unsigned target, double rdpct,
				       double seekpct, double skew, ...)
{
	struct proto_stream *s = &fx.streams[fx.plan.nstreams];
	va_list ap;
	uint32_t size;

	snprintf(s->name, sizeof(s->name), "wd%u", fx.plan.nstreams + 1);
	s->ntargets = 1;
	s->targets[0] = target;
	s->rdpct = rdpct;
	s->seekpct = seekpct;
	s->skew = skew;
	va_start(ap, skew);
	while ((size = va_arg(ap, uint32_t)) != 0) {
		s->xfer[s->nxfer].size = size;
		s->xfer[s->nxfer].pct = va_arg(ap, double);
		s->nxfer++;
	}
	va_end(ap);
	fx.plan.nstreams++;
	return s;
}

static int init(void)
{
	return workload_init(&fx.w, &fx.plan, fx.size, 1234, fx.err,
			     sizeof(fx.err));
}

static void init_ok(void)
{
	int ret = init();

	if (ret)
		fail_msg("workload_init: %d %s", ret, fx.err);
}

static int teardown(void **state)
{
	(void)state;
	workload_free(&fx.w);
	return 0;
}

static void assert_share(unsigned count, unsigned total, double pct)
{
	double got = 100.0 * count / total;

	if (fabs(got - pct) > 2)
		fail_msg("share %.2f%%, asked %.2f%%", got, pct);
}

/* Every offset aligned to its size and inside [lo, hi), over DRAWS. */
static void check_offsets(uint64_t lo, uint64_t hi)
{
	struct workload_io io;

	for (unsigned i = 0; i < DRAWS; i++) {
		assert_int_equal(workload_next(&fx.w, 0, &io), 0);
		assert_int_equal(io.target, 0);
		assert_true(io.len > 0);
		if (io.offset % io.len)
			fail_msg("offset %llu not aligned to %u",
				 (unsigned long long)io.offset, io.len);
		assert_true(io.offset >= lo);
		assert_true(io.offset + io.len <= hi);
	}
}

static void test_offsets_aligned_in_range(void **state)
{
	(void)state;
	plan_reset(1);
	add_stream(0, 50.0, 100.0, 0.0, 4096u, 40.0, 8192u, 30.0, 65536u, 30.0,
		   0u);
	init_ok();
	check_offsets(0, SIZE);
}

static void test_sequential_and_wrap(void **state)
{
	struct workload_io io;
	uint64_t first, prev_end, hi;
	unsigned wraps = 0;

	(void)state;
	plan_reset(1);
	/* 32 MiB: 100k transfers of 8 KiB on average wrap ~24 times. */
	fx.size[0] = 32 * 1024 * KIB + 512;
	add_stream(0, 100.0, 0.0, 0.0, 4096u, 50.0, 12288u, 50.0, 0u);
	init_ok();
	hi = fx.w.targets[0].hi;
	assert_int_equal(workload_next(&fx.w, 0, &io), 0);
	first = io.offset;
	assert_int_equal(first, 0);
	prev_end = io.offset + io.len;
	for (unsigned i = 0; i < DRAWS; i++) {
		assert_int_equal(workload_next(&fx.w, 0, &io), 0);
		if (io.offset != prev_end) {
			/* Only a transfer that would cross the end wraps. */
			assert_int_equal(io.offset, first);
			assert_true(prev_end + io.len > hi);
			wraps++;
		}
		assert_true(io.offset + io.len <= hi);
		prev_end = io.offset + io.len;
	}
	assert_true(wraps > 10);
}

/* Random = the offset does not continue the previous I/O. */
static void check_seekpct(double seekpct)
{
	struct workload_io io;
	uint64_t prev_end = UINT64_MAX;
	unsigned random = 0;

	plan_reset(1);
	add_stream(0, 100.0, seekpct, 0.0, 4096u, 100.0, 0u);
	init_ok();
	for (unsigned i = 0; i < DRAWS; i++) {
		workload_next(&fx.w, 0, &io);
		random += io.offset != prev_end;
		prev_end = io.offset + io.len;
	}
	assert_share(random, DRAWS, seekpct);
	workload_free(&fx.w);
}

static void test_seekpct_share(void **state)
{
	(void)state;
	check_seekpct(0);
	check_seekpct(30);
	check_seekpct(50);
	check_seekpct(100);
}

static void test_xfer_and_rdpct_shares(void **state)
{
	static const uint32_t sizes[] = { 4096, 8192, 65536, 1048576 };
	static const double pct[] = { 50, 25, 15, 10 };
	unsigned count[4] = { 0 }, writes = 0;
	struct workload_io io;

	(void)state;
	plan_reset(1);
	add_stream(0, 70.0, 100.0, 0.0, sizes[0], pct[0], sizes[1], pct[1],
		   sizes[2], pct[2], sizes[3], pct[3], 0u);
	init_ok();
	assert_int_equal(fx.w.max_xfer, 1048576);
	for (unsigned i = 0; i < DRAWS; i++) {
		workload_next(&fx.w, 0, &io);
		writes += io.write;
		for (unsigned k = 0; k < 4; k++)
			count[k] += io.len == sizes[k];
	}
	for (unsigned k = 0; k < 4; k++)
		assert_share(count[k], DRAWS, pct[k]);
	assert_share(DRAWS - writes, DRAWS, 70);
}

static void check_skew(unsigned nstreams, const double *want)
{
	unsigned count[4] = { 0 };
	struct workload_io io;

	init_ok();
	for (unsigned i = 0; i < DRAWS; i++) {
		workload_next(&fx.w, 0, &io);
		assert_true(io.stream < nstreams);
		count[io.stream]++;
	}
	for (unsigned s = 0; s < nstreams; s++)
		assert_share(count[s], DRAWS, want[s]);
	workload_free(&fx.w);
}

static void test_skew_shares(void **state)
{
	static const double two[] = { 80, 20 };
	static const double three[] = { 50, 25, 25 };

	(void)state;
	plan_reset(1);
	add_stream(0, 100.0, 100.0, 80.0, 4096u, 100.0, 0u);
	add_stream(0, 0.0, 100.0, 20.0, 4096u, 100.0, 0u);
	check_skew(2, two);

	/* One skew given; the two without share what is left. */
	plan_reset(1);
	add_stream(0, 100.0, 100.0, 50.0, 4096u, 100.0, 0u);
	add_stream(0, 100.0, 0.0, 0.0, 4096u, 100.0, 0u);
	add_stream(0, 0.0, 100.0, 0.0, 8192u, 100.0, 0u);
	check_skew(3, three);
}

/*
 * range=(10,20): every offset in [10%, 20%) of the target, and random ones
 * still aligned to their size although 10% of the target is only 4 KiB
 * aligned (the generator once aligned them to the range start instead).
 */
static void test_range(void **state)
{
	uint64_t lo = SIZE / 10, hi = SIZE / 5;

	(void)state;
	plan_reset(1);
	fx.targets[0].range_lo = PPB / 10;
	fx.targets[0].range_hi = PPB / 5;
	add_stream(0, 50.0, 100.0, 0.0, 8192u, 50.0, 65536u, 50.0, 0u);
	init_ok();
	assert_true(fx.w.targets[0].lo % 65536 != 0);
	check_offsets(lo, hi);
	workload_free(&fx.w);

	/* Sequential with one size: aligned to it, from the first fit. */
	plan_reset(1);
	fx.targets[0].range_lo = PPB / 10;
	fx.targets[0].range_hi = PPB / 5;
	add_stream(0, 50.0, 30.0, 0.0, 65536u, 100.0, 0u);
	init_ok();
	check_offsets(lo, hi);
}

/*
 * offset=512 shifts the whole sd (every I/O misaligned on purpose, as in
 * Vdbench); align=4k makes random 64k transfers land on any 4k boundary of
 * the sd, not only on 64k ones.
 */
static void test_offset_and_align(void **state)
{
	const uint64_t base = 512;
	unsigned off64k = 0;
	struct workload_io io;

	(void)state;
	plan_reset(1);
	fx.targets[0].offset = base;
	fx.targets[0].align = 4096;
	add_stream(0, 0.0, 100.0, 0.0, 65536u, 100.0, 0u);
	init_ok();
	for (unsigned i = 0; i < DRAWS; i++) {
		assert_int_equal(workload_next(&fx.w, 0, &io), 0);
		assert_true(io.offset >= base);
		assert_true(io.offset + io.len <= SIZE);
		assert_int_equal((io.offset - base) % 4096, 0);
		off64k += (io.offset - base) % 65536 == 0;
	}
	/* One 4k boundary in 16 is also a 64k one. */
	assert_share(off64k, DRAWS, 100.0 / 16);
	workload_free(&fx.w);

	plan_reset(1);
	fx.targets[0].offset = base;
	add_stream(0, 0.0, 0.0, 0.0, 65536u, 100.0, 0u);
	init_ok();
	workload_next(&fx.w, 0, &io);
	assert_int_equal(io.offset, base);
	workload_next(&fx.w, 0, &io);
	assert_int_equal(io.offset, base + 65536);
}

/* seekpct=eof: each block of the range once, in order, then EOF for good. */
static void test_eof_one_pass(void **state)
{
	struct workload_io io;
	uint64_t expect, lo, hi, n = 0;

	(void)state;
	plan_reset(2);
	fx.size[0] = 10 * 1024 * KIB + 4096; /* not a multiple of 64k */
	add_stream(0, 0.0, 0.0, 0.0, 65536u, 100.0, 0u)->eof = 1;
	add_stream(1, 0.0, 100.0, 0.0, 4096u, 100.0, 0u);
	init_ok();
	lo = fx.w.targets[0].lo;
	hi = fx.w.targets[0].hi;
	expect = lo;
	while (workload_next(&fx.w, 0, &io) == 0) {
		assert_int_equal(io.offset, expect);
		assert_int_equal(io.len, 65536);
		assert_true(io.write);
		expect += io.len;
		n++;
		assert_true(n <= (hi - lo) / 65536);
	}
	assert_int_equal(n, (hi - lo) / 65536);
	assert_int_equal(io.len, 0);
	/* Every slot of the target now gets EOF; other targets go on. */
	for (unsigned i = 0; i < 100; i++) {
		assert_int_equal(workload_next(&fx.w, 0, &io), WORKLOAD_EOF);
		assert_int_equal(io.len, 0);
		assert_int_equal(workload_next(&fx.w, 1, &io), 0);
		assert_int_equal(io.target, 1);
	}
}

/*
 * Workers sharing a target take slices of it: their eof passes are
 * disjoint, contiguous, and cover the range exactly once between them.
 */
static void test_slices_cover_once(void **state)
{
	uint64_t lo, hi, expect = 0, total = 0;
	const unsigned n = 3;

	(void)state;
	for (unsigned k = 0; k < n; k++) {
		struct workload_io io;

		plan_reset(1);
		add_stream(0, 0.0, 0.0, 0.0, 65536u, 100.0, 0u)->eof = 1;
		init_ok();
		if (k == 0) {
			lo = fx.w.targets[0].lo;
			hi = fx.w.targets[0].hi;
			expect = lo;
		}
		assert_int_equal(workload_slice(&fx.w, &fx.plan, 0, k, n,
						fx.err, sizeof(fx.err)),
				 0);
		assert_int_equal(fx.w.targets[0].lo, expect);
		while (workload_next(&fx.w, 0, &io) == 0) {
			assert_int_equal(io.offset, expect);
			expect += io.len;
			total += io.len;
		}
		workload_free(&fx.w);
	}
	/* As one pass does: a tail shorter than a transfer is left alone. */
	assert_int_equal(expect, lo + (hi - lo) / 65536 * 65536);
	assert_int_equal(total, (hi - lo) / 65536 * 65536);
}

/* |got - p| within 5 binomial sigmas of n draws. */
static void assert_binomial(unsigned hits, unsigned n, double p)
{
	double got = (double)hits / n, sd = sqrt(p * (1 - p) / n);

	if (fabs(got - p) > 5 * sd + 1e-12)
		fail_msg("share %.4f, asked %.4f (5 sigma %.4f)", got, p,
			 5 * sd);
}

/*
 * rhpct=80, whpct=10 with hitarea=1m at the start of range=(50,100): 80%
 * of the reads and 10% of the writes in the hit area (binomial bound),
 * every one of them inside it and aligned, every other I/O past it.
 */
static void test_hits(void **state)
{
	uint64_t lo = (uint64_t)((unsigned __int128)SIZE * (PPB / 2) / PPB);
	uint64_t hlo = (lo + 4095) / 4096 * 4096, hhi = hlo + (1 << 20);
	unsigned reads = 0, writes = 0, rhits = 0, whits = 0;
	struct proto_stream *s;
	struct workload_io io;

	(void)state;
	plan_reset(1);
	fx.targets[0].range_lo = PPB / 2;
	fx.targets[0].hitarea = 1 << 20;
	fx.targets[0].hit_lo = PPB / 2;
	s = add_stream(0, 60.0, 100.0, 0.0, 4096u, 50.0, 65536u, 50.0, 0u);
	s->rhpct = 80;
	s->whpct = 10;
	init_ok();
	assert_int_equal(fx.w.targets[0].hlo, hlo);
	assert_int_equal(fx.w.targets[0].hhi, hhi);
	for (unsigned i = 0; i < DRAWS; i++) {
		int hit;

		assert_int_equal(workload_next(&fx.w, 0, &io), 0);
		assert_int_equal(io.offset % io.len, 0);
		hit = io.offset < hhi;
		if (hit)
			assert_true(io.offset >= hlo &&
				    io.offset + io.len <= hhi);
		else
			assert_true(io.offset >= hhi &&
				    io.offset + io.len <= SIZE);
		reads += !io.write;
		rhits += !io.write && hit;
		writes += io.write;
		whits += io.write && hit;
	}
	assert_binomial(rhits, reads, 0.8);
	assert_binomial(whits, writes, 0.1);
	workload_free(&fx.w);

	/* Sequential misses run through the miss area from its start;
	 * rhpct=100: every read a hit, the cursor untouched by them. */
	plan_reset(1);
	fx.targets[0].hitarea = 1 << 20;
	s = add_stream(0, 0.0, 0.0, 0.0, 65536u, 100.0, 0u);
	s->whpct = 50;
	init_ok();
	{
		uint64_t next = 1 << 20;
		unsigned hits = 0;

		for (unsigned i = 0; i < DRAWS; i++) {
			assert_int_equal(workload_next(&fx.w, 0, &io), 0);
			assert_true(io.write);
			if (io.offset < (1 << 20)) {
				hits++;
				continue;
			}
			assert_int_equal(io.offset, next);
			next += io.len;
			if (next + io.len > SIZE / 4096 * 4096)
				next = 1 << 20;
		}
		assert_binomial(hits, DRAWS, 0.5);
	}
	workload_free(&fx.w);

	/* No hit area without hitarea: rhpct alone changes nothing. */
	plan_reset(1);
	s = add_stream(0, 100.0, 100.0, 0.0, 4096u, 100.0, 0u);
	s->rhpct = 100;
	init_ok();
	assert_int_equal(fx.w.targets[0].hhi, 0);
	check_offsets(0, SIZE);
}

/*
 * Vdbench's rule: the hit area and the miss area each hold at least 4 of
 * the largest transfer.
 */
static void test_hit_areas_refused(void **state)
{
	(void)state;
	plan_reset(1);
	fx.targets[0].hitarea = 192 * KIB;
	add_stream(0, 100.0, 100.0, 0.0, 4096u, 50.0, 65536u, 50.0, 0u)->rhpct =
		50;
	assert_int_equal(init(), -EINVAL);
	assert_non_null(
		strstr(fx.err, "hitarea of 196608 bytes is less than 4 times"));

	plan_reset(1);
	fx.size[0] = 1024 * KIB + 192 * KIB;
	fx.targets[0].hitarea = 1024 * KIB;
	add_stream(0, 100.0, 100.0, 0.0, 65536u, 100.0, 0u)->rhpct = 50;
	assert_int_equal(init(), -EINVAL);
	assert_non_null(strstr(fx.err, "the miss area is less than 4 times"));
}

/*
 * random_distribution= draws over the whole range the slave runs, not a
 * worker's slice of it (the hot blocks are the sd's, the same for every
 * worker), aligned to the transfer, inside the range; zipf:1.2 puts the
 * share of its formula's hottest blocks (checked in test_dist) on few
 * distinct offsets.
 */
static void test_access_whole_range(void **state)
{
	unsigned upper = 0, distinct = 0;
	struct workload_io io;
	uint8_t *seen = calloc(SIZE / 4096 + 1, 1);

	(void)state;
	assert_non_null(seen);
	plan_reset(1);
	add_stream(0, 100.0, 100.0, 0.0, 4096u, 100.0, 0u)->access =
		PROTO_ACCESS_ZIPF;
	fx.streams[0].access_arg = 1.2;
	init_ok();
	assert_int_equal(workload_slice(&fx.w, &fx.plan, 0, 0, 4, fx.err,
					sizeof(fx.err)),
			 0);
	assert_true(fx.w.targets[0].hi < SIZE / 3);
	for (unsigned i = 0; i < DRAWS; i++) {
		assert_int_equal(workload_next(&fx.w, 0, &io), 0);
		assert_int_equal(io.offset % 4096, 0);
		assert_true(io.offset + io.len <= SIZE);
		upper += io.offset >= SIZE / 2;
		distinct += !seen[io.offset / 4096];
		seen[io.offset / 4096] = 1;
	}
	free(seen);
	/* Hot blocks everywhere: about half the I/O in the upper half. */
	assert_in_range(upper, DRAWS / 4, DRAWS * 3 / 4);
	/* Uniform draws would hit ~96% distinct blocks of 262,144; zipf:1.2
	 * hits far fewer. */
	assert_true(distinct < DRAWS / 2);
	workload_free(&fx.w);

	/* A parameter out of range is refused by the slave too. */
	plan_reset(1);
	add_stream(0, 100.0, 100.0, 0.0, 4096u, 100.0, 0u)->access =
		PROTO_ACCESS_PARETO;
	fx.streams[0].access_arg = 2;
	assert_int_equal(init(), -EINVAL);
	assert_non_null(strstr(fx.err, "random_distribution"));
}

/*
 * fio's zoned:50/5:30/15:20/ (the last zone the rest, 80%) on a worker's
 * slice: 200,000 random offsets of a fixed seed, each zone's share of them
 * within 1 point of the asked, every offset aligned and inside its zone of
 * the whole range (fio's bounds on blocks of the transfer size, zones in
 * order from the range's start).
 */
static void test_zoned_offsets(void **state)
{
	static const unsigned io[] = { 50, 30, 20 }, cum[] = { 0, 5, 20, 100 };
	struct proto_stream *s;
	struct workload_io x;
	unsigned in[3] = { 0 };
	uint64_t lo, n;

	(void)state;
	plan_reset(1);
	s = add_stream(0, 50.0, 100.0, 0.0, 4096u, 100.0, 0u);
	s->access = PROTO_ACCESS_ZONED;
	s->nzones = 3;
	s->zones[0] = (struct proto_zone){ 50, 5 };
	s->zones[1] = (struct proto_zone){ 30, 15 };
	s->zones[2] = (struct proto_zone){ 20, 80 };
	init_ok();
	lo = fx.w.targets[0].lo;
	n = (fx.w.targets[0].hi - lo - 4096) / 4096 + 1;
	assert_int_equal(workload_slice(&fx.w, &fx.plan, 0, 3, 4, fx.err,
					sizeof(fx.err)),
			 0);
	for (unsigned i = 0; i < 200000; i++) {
		uint64_t b;
		unsigned k = 0;

		assert_int_equal(workload_next(&fx.w, 0, &x), 0);
		assert_int_equal((x.offset - lo) % 4096, 0);
		b = (x.offset - lo) / 4096;
		while (k < 2 && b >= n * cum[k + 1] / 100)
			k++;
		assert_true(b >= n * cum[k] / 100 && b < n * cum[k + 1] / 100);
		in[k]++;
	}
	for (unsigned k = 0; k < 3; k++)
		if (fabs(in[k] / 2000.0 - io[k]) > 1)
			fail_msg("zone %u took %.2f%%, asked %u%%", k + 1,
				 in[k] / 2000.0, io[k]);
}

/* Where the planner's band in percent of the whole sd lands, 4k I/O. */
static void band_of(double lo_pct, double hi_pct, uint64_t *lo, uint64_t *hi)
{
	*lo = ((uint64_t)(SIZE * lo_pct / 100) + 4095) / 4096 * 4096;
	*hi = (uint64_t)(SIZE * hi_pct / 100) / 4096 * 4096;
}

/*
 * Vdbench's use of hot bands: two wds with bands of their own, (10,20)
 * and (60,70), share an sd by skew=50 each. 200,000 I/Os of a fixed seed:
 * each wd's share within 5 sigma, every offset in its band on a whole
 * record from the band's start, and of the reads 8.75% on the band's first
 * 4 records of 4k (HotBand's curve below 16.384 of its "megabytes":
 * 0.087217 + 0.384 / 1159.95) within 5 sigma, the writes the same one
 * percent of the band further on.
 */
static void test_hotbands_skew(void **state)
{
	uint64_t lo[2], hi[2], n[2];
	unsigned count[2] = { 0 }, reads = 0, hot = 0, writes = 0, whot = 0;
	struct workload_io x;

	(void)state;
	plan_reset(1);
	band_of(10, 20, &lo[0], &hi[0]);
	band_of(60, 70, &lo[1], &hi[1]);
	for (unsigned k = 0; k < 2; k++) {
		struct proto_stream *s = add_stream(0, 50.0, 100.0, 50.0, 4096u,
						    100.0, 0u);

		s->access = PROTO_ACCESS_HOTBAND;
		s->band_lo = k ? 600000000 : 100000000;
		s->band_hi = k ? 700000000 : 200000000;
		n[k] = hotband_records(hi[k] - lo[k], 4096);
	}
	init_ok();
	for (unsigned i = 0; i < 200000; i++) {
		uint64_t rec;

		assert_int_equal(workload_next(&fx.w, 0, &x), 0);
		count[x.stream]++;
		assert_true(x.offset >= lo[x.stream]);
		assert_true(x.offset + x.len <= hi[x.stream]);
		assert_int_equal((x.offset - lo[x.stream]) % 4096, 0);
		rec = (x.offset - lo[x.stream]) / 4096;
		assert_true(rec < n[x.stream]);
		if (x.write) {
			writes++;
			whot += rec >= n[x.stream] / 100 &&
				rec < n[x.stream] / 100 + 4;
		} else {
			reads++;
			hot += rec < 4;
		}
	}
	assert_binomial(count[0], 200000, 0.5);
	assert_binomial(hot, reads, 0.087217 + 0.384 / 1159.945628);
	assert_binomial(whot, writes, 0.087217 + 0.384 / 1159.945628);
}

/*
 * A hot band's sequential I/O runs through the band and wraps at its end;
 * two workers share it, each its half; a band under Vdbench's megabyte,
 * and a band with seekpct=eof, are refused.
 */
static void test_hotband_sequential(void **state)
{
	uint64_t lo, hi, half, prev = 0;
	struct workload_io x;

	(void)state;
	plan_reset(1);
	band_of(10, 20, &lo, &hi);
	add_stream(0, 100.0, 0.0, 0.0, 4096u, 100.0, 0u)->access =
		PROTO_ACCESS_HOTBAND;
	fx.streams[0].band_lo = 100000000;
	fx.streams[0].band_hi = 200000000;
	init_ok();
	half = lo + (hi - lo) / 4096 / 2 * 4096;
	assert_int_equal(workload_slice(&fx.w, &fx.plan, 0, 1, 2, fx.err,
					sizeof(fx.err)),
			 0);
	for (unsigned i = 0; i < (hi - half) / 4096 + 10; i++) {
		assert_int_equal(workload_next(&fx.w, 0, &x), 0);
		if (i == 0 || x.offset < prev)
			assert_int_equal(x.offset, half);
		else
			assert_int_equal(x.offset, prev + 4096);
		assert_true(x.offset + x.len <= hi);
		prev = x.offset;
	}
	workload_free(&fx.w);

	fx.size[0] = 9000000; /* 10% is 900,000 bytes */
	assert_int_equal(init(), -EINVAL);
	assert_non_null(strstr(fx.err, "Vdbench's minimum"));
	fx.size[0] = SIZE;
	fx.streams[0].eof = 1;
	assert_int_equal(init(), -EINVAL);
	assert_non_null(strstr(fx.err, "seekpct=eof"));
}

/*
 * streams=4 (Vdbench's): four equal streams of whole 64k transfers, each
 * I/O the next of its stream, in turn; positions monotone within a stream
 * but for the wrap to its own start at its end.
 */
static void test_streams_monotone(void **state)
{
	struct workload_io io;
	uint64_t next[4], lo, size;
	unsigned seen[4] = { 0 }, wraps = 0, distinct = 0;

	(void)state;
	plan_reset(1);
	fx.size[0] = 32 * 1024 * KIB + 512;
	fx.targets[0].streams = 4;
	add_stream(0, 0.0, 100.0, 0.0, 65536u, 100.0, 0u);
	init_ok();
	lo = fx.w.targets[0].lo;
	size = fx.w.targets[0].seq_size;
	assert_int_equal(size % 65536, 0);
	assert_true(size * 4 <= fx.w.targets[0].hi - lo);
	assert_true(size * 4 > fx.w.targets[0].hi - lo - 4 * 65536);
	for (unsigned j = 0; j < 4; j++)
		next[j] = lo + j * size;
	for (unsigned i = 0; i < DRAWS; i++) {
		unsigned j;

		assert_int_equal(workload_next(&fx.w, 0, &io), 0);
		j = (unsigned)((io.offset - lo) / size);
		assert_true(j < 4);
		/* In turn: the I/O after stream j's is stream j+1's. */
		assert_int_equal(j, i % 4);
		assert_true(io.offset + io.len <= lo + (j + 1) * size);
		if (io.offset != next[j]) {
			assert_int_equal(io.offset, lo + j * size);
			assert_true(next[j] + io.len > lo + (j + 1) * size);
			wraps++;
		}
		distinct += !seen[j]++;
		next[j] = io.offset + io.len;
	}
	assert_int_equal(distinct, 4);
	assert_true(wraps >= 4);
}

/*
 * streams= with seekpct=eof: every stream makes one pass, then the
 * target ends; a worker's slice k of n runs streams k, k + n, ...
 */
static void test_streams_eof_and_slices(void **state)
{
	struct workload_io io;
	uint64_t lo, size, n = 0;

	(void)state;
	plan_reset(1);
	fx.size[0] = 8 * 1024 * KIB;
	fx.targets[0].streams = 4;
	add_stream(0, 100.0, 0.0, 0.0, 65536u, 100.0, 0u)->eof = 1;
	init_ok();
	lo = fx.w.targets[0].lo;
	size = fx.w.targets[0].seq_size;
	while (workload_next(&fx.w, 0, &io) == 0)
		n++;
	assert_int_equal(n, 4 * (size / 65536));
	assert_int_equal(workload_next(&fx.w, 0, &io), WORKLOAD_EOF);
	workload_free(&fx.w);
	init_ok();
	assert_int_equal(workload_slice(&fx.w, &fx.plan, 0, 1, 2, fx.err,
					sizeof(fx.err)),
			 0);
	for (unsigned i = 0; i < 1000; i++) {
		unsigned j;

		if (workload_next(&fx.w, 0, &io))
			break;
		j = (unsigned)((io.offset - lo) / size);
		assert_true(j == 1 || j == 3);
	}
	/* More workers than streams cannot each have one. */
	assert_int_equal(workload_slice(&fx.w, &fx.plan, 0, 0, 5, fx.err,
					sizeof(fx.err)),
			 -EINVAL);
}

/*
 * stride=(8k,64k) (Vdbench's blockBoundarySeek): the first I/O at the
 * range's start, each next one 8k plus a whole number of transfers below
 * 56k after the previous end, back at the start when it would cross the
 * end; with align=16k the units are 16k.
 */
static void check_stride(uint32_t align, uint32_t len)
{
	struct workload_io io;
	uint64_t prev_end, lo, hi, unit = align ? align : len;
	unsigned wraps = 0, gaps[16] = { 0 };

	plan_reset(1);
	fx.size[0] = 64 * 1024 * KIB;
	fx.targets[0].align = align;
	add_stream(0, 50.0, 100.0, 0.0, len, 100.0, 0u);
	fx.streams[0].stride_min = 8 * KIB;
	fx.streams[0].stride_max = 64 * KIB;
	init_ok();
	lo = fx.w.targets[0].lo;
	hi = fx.w.targets[0].hi;
	assert_int_equal(workload_next(&fx.w, 0, &io), 0);
	assert_int_equal(io.offset, lo);
	prev_end = io.offset + io.len;
	for (unsigned i = 0; i < DRAWS; i++) {
		uint64_t gap;

		assert_int_equal(workload_next(&fx.w, 0, &io), 0);
		assert_true(io.offset + io.len <= hi);
		if (io.offset < prev_end) {
			/* Only when the drawn gap would cross the end. */
			assert_int_equal(io.offset, lo);
			assert_true(prev_end + 64 * KIB + io.len > hi);
			wraps++;
		} else {
			gap = io.offset - prev_end;
			assert_true(gap >= 8 * KIB && gap < 64 * KIB);
			assert_int_equal((gap - 8 * KIB) % unit, 0);
			gaps[(gap - 8 * KIB) / unit]++;
		}
		prev_end = io.offset + io.len;
	}
	assert_true(wraps > 0);
	/* Every gap of the range is drawn, none past it. */
	for (uint64_t k = 0; k < 16; k++)
		assert_true((k < (56 * KIB) / unit) == (gaps[k] > 0));
}

static void test_stride_gaps(void **state)
{
	(void)state;
	check_stride(0, 4096);
	workload_free(&fx.w);
	check_stride(16384, 4096);
}

/*
 * stride= with seekpct=50: the random half strides, the sequential half
 * continues at the previous I/O's end (one position, as in Vdbench).
 */
static void test_stride_with_seekpct(void **state)
{
	struct workload_io io;
	uint64_t prev_end;
	unsigned seq = 0, strided = 0;

	(void)state;
	plan_reset(1);
	fx.size[0] = 256 * 1024 * KIB;
	add_stream(0, 100.0, 50.0, 0.0, 4096u, 100.0, 0u);
	fx.streams[0].stride_min = 4 * KIB;
	fx.streams[0].stride_max = 4 * KIB;
	init_ok();
	assert_int_equal(workload_next(&fx.w, 0, &io), 0);
	prev_end = io.offset + io.len;
	for (unsigned i = 0; i < DRAWS; i++) {
		assert_int_equal(workload_next(&fx.w, 0, &io), 0);
		if (io.offset == prev_end)
			seq++;
		else if (io.offset == prev_end + 4 * KIB)
			strided++;
		else
			assert_int_equal(io.offset, fx.w.targets[0].lo);
		prev_end = io.offset + io.len;
	}
	assert_binomial(seq, seq + strided, 0.5);
}

static void test_rejects(void **state)
{
	static const double bad_seek[] = { -2, 100.5, NAN };

	(void)state;
	for (unsigned i = 0; i < 3; i++) {
		plan_reset(1);
		add_stream(0, 0.0, bad_seek[i], 0.0, 4096u, 100.0, 0u);
		assert_int_equal(init(), -EINVAL);
		assert_non_null(strstr(fx.err, "seekpct"));
	}
	plan_reset(1);
	fx.size[0] = 8192;
	add_stream(0, 0.0, 0.0, 0.0, 65536u, 100.0, 0u);
	assert_int_equal(init(), -EINVAL);
	assert_non_null(strstr(fx.err, "smaller than xfersize"));

	plan_reset(2);
	add_stream(0, 0.0, 0.0, 0.0, 4096u, 100.0, 0u);
	assert_int_equal(init(), -EINVAL);
	assert_non_null(strstr(fx.err, "used by no wd"));

	plan_reset(1);
	add_stream(0, 0.0, 0.0, 0.0, 1000u, 100.0, 0u);
	assert_int_equal(init(), -EINVAL);
	assert_non_null(strstr(fx.err, "multiple of 512"));

	plan_reset(1);
	fx.targets[0].align = 1000;
	add_stream(0, 0.0, 100.0, 0.0, 4096u, 100.0, 0u);
	assert_int_equal(init(), -EINVAL);
	assert_non_null(strstr(fx.err, "align 1000"));

	plan_reset(1);
	fx.targets[0].offset = SIZE;
	add_stream(0, 0.0, 100.0, 0.0, 4096u, 100.0, 0u);
	assert_int_equal(init(), -EINVAL);
	assert_non_null(strstr(fx.err, "offset"));
}

static void test_deterministic(void **state)
{
	struct workload_io a[64], b;

	(void)state;
	plan_reset(1);
	add_stream(0, 50.0, 50.0, 0.0, 4096u, 50.0, 8192u, 50.0, 0u);
	init_ok();
	for (unsigned i = 0; i < 64; i++)
		workload_next(&fx.w, 0, &a[i]);
	workload_free(&fx.w);
	init_ok();
	for (unsigned i = 0; i < 64; i++) {
		workload_next(&fx.w, 0, &b);
		assert_memory_equal(&a[i], &b, sizeof(b));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_offsets_aligned_in_range,
					  teardown),
		cmocka_unit_test_teardown(test_sequential_and_wrap, teardown),
		cmocka_unit_test_teardown(test_seekpct_share, teardown),
		cmocka_unit_test_teardown(test_xfer_and_rdpct_shares, teardown),
		cmocka_unit_test_teardown(test_skew_shares, teardown),
		cmocka_unit_test_teardown(test_range, teardown),
		cmocka_unit_test_teardown(test_offset_and_align, teardown),
		cmocka_unit_test_teardown(test_eof_one_pass, teardown),
		cmocka_unit_test_teardown(test_slices_cover_once, teardown),
		cmocka_unit_test_teardown(test_hits, teardown),
		cmocka_unit_test_teardown(test_hit_areas_refused, teardown),
		cmocka_unit_test_teardown(test_access_whole_range, teardown),
		cmocka_unit_test_teardown(test_zoned_offsets, teardown),
		cmocka_unit_test_teardown(test_hotbands_skew, teardown),
		cmocka_unit_test_teardown(test_hotband_sequential, teardown),
		cmocka_unit_test_teardown(test_streams_monotone, teardown),
		cmocka_unit_test_teardown(test_streams_eof_and_slices,
					  teardown),
		cmocka_unit_test_teardown(test_stride_gaps, teardown),
		cmocka_unit_test_teardown(test_stride_with_seekpct, teardown),
		cmocka_unit_test_teardown(test_rejects, teardown),
		cmocka_unit_test_teardown(test_deterministic, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
