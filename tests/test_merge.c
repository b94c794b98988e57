/*
 * (Over 700 lines on purpose: the merge is the heart of the numbers, and
 * its order, lateness, duplicate and loss cases are one binary.)
 *
 * Unit tests of the master's interval merge: samples built from real
 * histograms are fed in order, shuffled, late, twice or malformed, and the
 * emitted rows and run totals are checked against sums computed here from
 * the same samples, down to every histogram bucket.
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

#include "common/hist.h"
#include "common/stats.h"
#include "master/run/merge.h"

#define SEC UINT64_C(1000000000)
#define T0 (UINT64_C(1700000000) * SEC)

/* A sample with the sparse histograms it points to. */
struct tsample {
	struct merge_sample s;
	struct hist_sparse sp[2];
};

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= UINT64_C(0xff51afd7ed558ccd);
	x ^= x >> 33;
	x *= UINT64_C(0xc4ceb9fe1a85ec53);
	x ^= x >> 33;
	return x;
}

static struct hist *hist_new(void)
{
	struct hist *h = malloc(sizeof(*h));

	assert_non_null(h);
	hist_init(h);
	return h;
}

/* Read and write histograms, as make_sample() takes them. */
static struct hist *hist_new2(void)
{
	struct hist *h = malloc(2 * sizeof(*h));

	assert_non_null(h);
	hist_init(&h[0]);
	hist_init(&h[1]);
	return h;
}

static struct stats *stats_new(unsigned n)
{
	struct stats *st = malloc(n * sizeof(*st));

	assert_non_null(st);
	for (unsigned i = 0; i < n; i++)
		stats_init(&st[i]);
	return st;
}

/*
 * Latencies spread over the whole histogram range, from exact small buckets
 * to values clamped into the last one, a few zero-op directions included.
 */
static uint64_t latency(uint64_t r)
{
	unsigned bits = (unsigned)(r % 46);

	if (bits == 45)
		return HIST_MAX_VALUE + (r >> 20);
	return ((r >> 8) & ((UINT64_C(1) << bits) - 1)) | (UINT64_C(1) << bits);
}

/*
 * The sample of (slave, seq) is a pure function of both, so tests can build
 * it twice. Its values are also added to ref[d] (an array of two) when ref
 * is not NULL.
 */
static void make_sample(struct tsample *t, unsigned slave, unsigned seq,
			struct hist *ref)
{
	struct hist *h = hist_new();
	uint64_t key = mix(((uint64_t)slave << 32) | seq);

	memset(t, 0, sizeof(*t));
	t->s.slave = slave;
	t->s.seq = seq;
	for (int d = 0; d < 2; d++) {
		uint64_t r = mix(key + (uint64_t)d);
		unsigned n = r % 7 == 0 ? 0 : 1 + (unsigned)(r % 61);

		hist_init(h);
		for (unsigned i = 0; i < n; i++) {
			uint64_t v = latency(mix(r + i + 1));

			hist_add(h, v);
			if (ref)
				hist_add(&ref[d], v);
		}
		assert_int_equal(hist_to_sparse(h, &t->sp[d]), 0);
		t->s.lat[d] = &t->sp[d];
		t->s.ops[d] = n;
		t->s.bytes[d] = (uint64_t)n * 4096 * (1 + d);
	}
	t->s.errors = key % 3;
	t->s.cpu_user_ns = key % 1000000;
	t->s.cpu_sys_ns = (key >> 20) % 1000000;
	t->s.cpu_avail_ns = 4 * SEC;
	free(h);
}

static void free_sample(struct tsample *t)
{
	hist_sparse_free(&t->sp[0]);
	hist_sparse_free(&t->sp[1]);
}

static uint64_t sample_ops(unsigned slave, unsigned seq, int d)
{
	struct tsample t;
	uint64_t ops;

	make_sample(&t, slave, seq, NULL);
	ops = t.s.ops[d];
	free_sample(&t);
	return ops;
}

static void assert_hist_equal(const struct hist *a, const struct hist *b)
{
	assert_int_equal(a->count, b->count);
	assert_int_equal(a->sum, b->sum);
	assert_int_equal(a->min, b->min);
	assert_int_equal(a->max, b->max);
	/* Sums of squares are doubles added in arrival order. */
	assert_true(fabs(a->sumsq - b->sumsq) <= 1e-9 * fabs(a->sumsq));
	assert_memory_equal(a->buckets, b->buckets, sizeof(a->buckets));
}

static void assert_stats_equal(const struct stats *a, const struct stats *b)
{
	for (int d = 0; d < 2; d++) {
		assert_int_equal(a->ops[d], b->ops[d]);
		assert_int_equal(a->bytes[d], b->bytes[d]);
		assert_hist_equal(&a->lat[d], &b->lat[d]);
	}
	assert_int_equal(a->errors, b->errors);
	assert_int_equal(a->cpu_user_ns, b->cpu_user_ns);
	assert_int_equal(a->cpu_sys_ns, b->cpu_sys_ns);
	assert_int_equal(a->cpu_avail_ns, b->cpu_avail_ns);
	assert_int_equal(a->samples, b->samples);
}

/* A slave's sums (no buckets) against the dense stats expected. */
static void assert_sums_match(const struct stats_sums *a, const struct stats *b)
{
	for (int d = 0; d < 2; d++) {
		const struct stats_lat_sums *l = &a->lat[d];

		assert_int_equal(a->ops[d], b->ops[d]);
		assert_int_equal(a->bytes[d], b->bytes[d]);
		assert_int_equal(l->count, b->lat[d].count);
		assert_int_equal(l->sum, b->lat[d].sum);
		assert_int_equal(l->min, b->lat[d].min);
		assert_int_equal(l->max, b->lat[d].max);
		assert_true(fabs(l->sumsq - b->lat[d].sumsq) <=
			    1e-9 * fabs(l->sumsq));
	}
	assert_int_equal(a->errors, b->errors);
	assert_int_equal(a->cpu_user_ns, b->cpu_user_ns);
	assert_int_equal(a->cpu_sys_ns, b->cpu_sys_ns);
	assert_int_equal(a->cpu_avail_ns, b->cpu_avail_ns);
	assert_int_equal(a->samples, b->samples);
}

static struct merge_cfg cfg_of(unsigned nslaves, unsigned intervals,
			       unsigned warmup)
{
	struct merge_cfg c = {
		.nslaves = nslaves,
		.intervals = intervals,
		.warmup_intervals = warmup,
		.start_ns = T0,
		.interval_ns = SEC,
		.grace_ns = SEC / 2,
	};
	return c;
}

/*
 * A merge plus the bookkeeping to check it: what each row and each total
 * should hold according to the samples fed so far and how merge_add()
 * classified them, and copies of the rows emitted.
 */
struct harness {
	struct merge_cfg cfg;
	struct merge *m;
	struct stats *expect_rows;  /* [intervals] samples accepted per row */
	struct stats *expect_total; /* [1] measured samples, late included */
	struct stats *expect_slave; /* [nslaves] */
	struct stats *rows;         /* [intervals] copies of emitted rows */
	struct merge_row *meta;     /* [intervals]; missing points to ... */
	unsigned *missing;          /* ... [intervals][nslaves] copies */
	unsigned emitted;
};

static void h_init(struct harness *h, struct merge_cfg cfg)
{
	memset(h, 0, sizeof(*h));
	h->cfg = cfg;
	h->m = merge_new(&cfg);
	assert_non_null(h->m);
	h->expect_rows = stats_new(cfg.intervals);
	h->expect_total = stats_new(1);
	h->expect_slave = stats_new(cfg.nslaves);
	h->rows = stats_new(cfg.intervals);
	h->meta = calloc(cfg.intervals, sizeof(*h->meta));
	h->missing = calloc((size_t)cfg.intervals * cfg.nslaves,
			    sizeof(*h->missing));
	assert_non_null(h->meta);
	assert_non_null(h->missing);
}

static void h_fini(struct harness *h)
{
	merge_destroy(&h->m);
	assert_null(h->m);
	free(h->expect_rows);
	free(h->expect_total);
	free(h->expect_slave);
	free(h->rows);
	free(h->meta);
	free(h->missing);
}

static void stats_add_tsample(struct stats *st, const struct tsample *t)
{
	for (int d = 0; d < 2; d++) {
		st->ops[d] += t->s.ops[d];
		st->bytes[d] += t->s.bytes[d];
		assert_int_equal(hist_add_sparse(&st->lat[d], t->s.lat[d]), 0);
	}
	st->errors += t->s.errors;
	st->cpu_user_ns += t->s.cpu_user_ns;
	st->cpu_sys_ns += t->s.cpu_sys_ns;
	st->cpu_avail_ns += t->s.cpu_avail_ns;
	st->samples++;
}

/* Feed (slave, seq); ref as for make_sample(). Returns merge_add()'s result. */
static int h_add_ref(struct harness *h, unsigned slave, unsigned seq,
		     struct hist *ref)
{
	struct tsample t;
	int rc;

	make_sample(&t, slave, seq, ref);
	rc = merge_add(h->m, &t.s);
	assert_true(rc >= 0);
	if (rc == MERGE_ACCEPTED)
		stats_add_tsample(&h->expect_rows[seq], &t);
	if ((rc == MERGE_ACCEPTED || rc == MERGE_LATE) &&
	    seq >= h->cfg.warmup_intervals) {
		stats_add_tsample(h->expect_total, &t);
		stats_add_tsample(&h->expect_slave[slave], &t);
	}
	free_sample(&t);
	return rc;
}

static int h_add(struct harness *h, unsigned slave, unsigned seq)
{
	return h_add_ref(h, slave, seq, NULL);
}

/*
 * Ask for the next row at now; when there is one, check what every row must
 * satisfy and keep a copy. Returns what merge_next() returned.
 */
static int h_next(struct harness *h, uint64_t now)
{
	struct merge_row row;
	unsigned *miss;
	int rc;

	rc = merge_next(h->m, now, &row);
	assert_true(rc == 0 || rc == 1);
	if (!rc)
		return 0;
	assert_int_equal(row.seq, h->emitted);
	assert_true(row.seq < h->cfg.intervals);
	assert_int_equal(row.warmup, row.seq < h->cfg.warmup_intervals);
	assert_int_equal(row.start_ns,
			 h->cfg.start_ns + row.seq * h->cfg.interval_ns);
	assert_int_equal(row.end_ns, row.start_ns + h->cfg.interval_ns);
	assert_non_null(row.stats);
	/* Cluster sums are exactly the samples accepted into this row. */
	assert_stats_equal(row.stats, &h->expect_rows[row.seq]);
	assert_int_equal(row.reported, row.stats->samples);
	assert_true(row.reported <= row.expected);
	assert_true(row.expected <= h->cfg.nslaves);
	assert_true(row.nmissing <= h->cfg.nslaves);
	assert_true(row.nmissing == 0 || row.missing);

	miss = h->missing + (size_t)row.seq * h->cfg.nslaves;
	if (row.nmissing)
		memcpy(miss, row.missing, row.nmissing * sizeof(*miss));
	h->rows[row.seq] = *row.stats;
	h->meta[row.seq] = row;
	h->meta[row.seq].missing = miss;
	h->meta[row.seq].stats = &h->rows[row.seq];
	h->emitted++;
	return 1;
}

static unsigned h_drain(struct harness *h, uint64_t now)
{
	unsigned n = 0;

	while (h_next(h, now))
		n++;
	return n;
}

static void h_check_totals(const struct harness *h)
{
	assert_stats_equal(merge_totals(h->m), h->expect_total);
	for (unsigned i = 0; i < h->cfg.nslaves; i++)
		assert_sums_match(merge_slave_totals(h->m, i),
				  &h->expect_slave[i]);
	assert_null(merge_slave_totals(h->m, h->cfg.nslaves));
}

static uint64_t deadline(const struct merge_cfg *c, unsigned seq)
{
	return c->start_ns + (uint64_t)(seq + 1) * c->interval_ns + c->grace_ns;
}

static void shuffle(unsigned *v, unsigned n, uint64_t seed)
{
	for (unsigned i = n; i > 1; i--) {
		unsigned j = (unsigned)(mix(seed + i) % i);
		unsigned x = v[i - 1];

		v[i - 1] = v[j];
		v[j] = x;
	}
}

static void test_config(void **state)
{
	static const struct {
		const char *what;
		struct merge_cfg cfg;
		int ok;
	} cases[] = {
		{ "plain", { 3, 10, 2, T0, SEC, SEC, 0 }, 1 },
		{ "no grace", { 1, 1, 0, 0, 1, 0, 0 }, 1 },
		{ "all warmup", { 2, 4, 4, T0, SEC, 0, 0 }, 1 },
		{ "no slaves", { 0, 10, 0, T0, SEC, SEC, 0 }, 0 },
		{ "no intervals", { 3, 0, 0, T0, SEC, SEC, 0 }, 0 },
		{ "warmup too long", { 3, 10, 11, T0, SEC, SEC, 0 }, 0 },
		{ "zero interval", { 3, 10, 0, T0, 0, SEC, 0 }, 0 },
		{ "end overflows",
		  { 1, 10, 0, UINT64_MAX - 5 * SEC, SEC, 0, 0 },
		  0 },
		{ "length overflows",
		  { 1, 1000, 0, 0, UINT64_MAX / 100, 0, 0 },
		  0 },
		{ "grace overflows", { 1, 1, 0, 0, SEC, UINT64_MAX - 1, 0 }, 0 },
	};
	struct merge *m;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		m = merge_new(&cases[i].cfg);
		if (cases[i].ok != (m != NULL))
			fail_msg("config '%s': merge_new %s", cases[i].what,
				 m ? "accepted it" : "refused it");
		merge_destroy(&m);
		assert_null(m);
	}
	assert_null(merge_new(NULL));
	merge_destroy(&m);
	merge_destroy(NULL);
}

/* Everything arrives in order: rows wait for nothing, totals add up. */
static void run_in_order(struct harness *h)
{
	for (unsigned k = 0; k < h->cfg.intervals; k++) {
		for (unsigned i = 0; i < h->cfg.nslaves; i++) {
			assert_int_equal(h_next(h, 0), 0);
			assert_int_equal(h_add(h, i, k), MERGE_ACCEPTED);
		}
		/* Complete rows leave without waiting for a deadline. */
		assert_int_equal(h_next(h, 0), 1);
	}
	assert_true(merge_done(h->m));
	assert_int_equal(h_next(h, UINT64_MAX), 0);
}

/* Same samples in a random order, rows asked for after every sample. */
static void run_shuffled(struct harness *h, uint64_t seed)
{
	unsigned n = h->cfg.nslaves * h->cfg.intervals;
	unsigned *order = malloc(n * sizeof(*order));

	assert_non_null(order);
	for (unsigned i = 0; i < n; i++)
		order[i] = i;
	shuffle(order, n, seed);
	for (unsigned i = 0; i < n; i++) {
		unsigned slave = order[i] % h->cfg.nslaves;
		unsigned seq = order[i] / h->cfg.nslaves;

		assert_int_equal(h_add(h, slave, seq), MERGE_ACCEPTED);
		h_drain(h, 0);
	}
	free(order);
	assert_true(merge_done(h->m));
}

static void test_order_independent(void **state)
{
	struct merge_cfg cfg = cfg_of(4, 12, 3);
	struct harness a, b;

	(void)state;
	h_init(&a, cfg);
	run_in_order(&a);
	h_check_totals(&a);
	for (uint64_t seed = 1; seed <= 3; seed++) {
		h_init(&b, cfg);
		run_shuffled(&b, seed);
		h_check_totals(&b);
		assert_int_equal(b.emitted, cfg.intervals);
		for (unsigned k = 0; k < cfg.intervals; k++) {
			assert_stats_equal(&a.rows[k], &b.rows[k]);
			assert_int_equal(b.meta[k].reported, cfg.nslaves);
			assert_int_equal(b.meta[k].expected, cfg.nslaves);
			assert_int_equal(b.meta[k].nmissing, 0);
		}
		assert_stats_equal(merge_totals(a.m), merge_totals(b.m));
		for (unsigned i = 0; i < cfg.nslaves; i++)
			assert_sums_match(merge_slave_totals(b.m, i),
					  &a.expect_slave[i]);
		assert_int_equal(merge_late_count(b.m), 0);
		assert_int_equal(merge_duplicate_count(b.m), 0);
		h_fini(&b);
	}
	h_fini(&a);
}

/* Row ops are the sum of what each slave sent for that interval. */
static void test_row_ops_are_sums(void **state)
{
	struct merge_cfg cfg = cfg_of(5, 6, 0);
	struct harness h;

	(void)state;
	h_init(&h, cfg);
	run_in_order(&h);
	for (unsigned k = 0; k < cfg.intervals; k++) {
		for (int d = 0; d < 2; d++) {
			uint64_t sum = 0;

			for (unsigned i = 0; i < cfg.nslaves; i++)
				sum += sample_ops(i, k, d);
			assert_int_equal(h.rows[k].ops[d], sum);
		}
		assert_int_equal(h.rows[k].samples, cfg.nslaves);
	}
	h_fini(&h);
}

static void test_duplicate(void **state)
{
	struct merge_cfg cfg = cfg_of(2, 3, 0);
	struct harness h;
	struct stats *before = stats_new(1);

	(void)state;
	h_init(&h, cfg);
	/* A duplicate of a pending row. */
	assert_int_equal(h_add(&h, 0, 0), MERGE_ACCEPTED);
	*before = *merge_totals(h.m);
	assert_int_equal(h_add(&h, 0, 0), MERGE_DUPLICATE);
	assert_int_equal(merge_duplicate_count(h.m), 1);
	assert_stats_equal(merge_totals(h.m), before);
	/* Still waiting for slave 1: the duplicate did not count as it. */
	assert_int_equal(h_next(&h, 0), 0);
	assert_int_equal(h_add(&h, 1, 0), MERGE_ACCEPTED);
	assert_int_equal(h_next(&h, 0), 1);
	assert_int_equal(h.rows[0].samples, 2);

	/* A duplicate of a row emitted complete is a duplicate, not late. */
	assert_int_equal(h_add(&h, 1, 0), MERGE_DUPLICATE);
	/* A duplicate of a row ahead. */
	assert_int_equal(h_add(&h, 1, 2), MERGE_ACCEPTED);
	assert_int_equal(h_add(&h, 1, 2), MERGE_DUPLICATE);
	assert_int_equal(merge_duplicate_count(h.m), 3);
	assert_int_equal(merge_late_count(h.m), 0);

	assert_int_equal(h_add(&h, 0, 1), MERGE_ACCEPTED);
	assert_int_equal(h_add(&h, 1, 1), MERGE_ACCEPTED);
	assert_int_equal(h_add(&h, 0, 2), MERGE_ACCEPTED);
	assert_int_equal(h_drain(&h, 0), 2);
	h_check_totals(&h);
	free(before);
	h_fini(&h);
}

/*
 * Slave 1 misses interval 0: the row waits until its deadline, then names
 * it. Its sample arrives later and is counted in the totals once.
 */
static void test_missing_then_late(void **state)
{
	struct merge_cfg cfg = cfg_of(3, 3, 0);
	struct harness h;
	uint64_t dl = deadline(&cfg, 0), ops[2] = { 0, 0 };
	struct stats *before = stats_new(1);

	(void)state;
	h_init(&h, cfg);
	assert_int_equal(merge_next_deadline(h.m), dl);
	assert_int_equal(dl, T0 + SEC + SEC / 2);
	assert_int_equal(h_add(&h, 0, 0), MERGE_ACCEPTED);
	assert_int_equal(h_add(&h, 2, 0), MERGE_ACCEPTED);
	assert_int_equal(h_next(&h, 0), 0);
	assert_int_equal(h_next(&h, T0 + SEC), 0);
	assert_int_equal(h_next(&h, dl - 1), 0);
	assert_int_equal(h_next(&h, dl), 1);
	assert_int_equal(h.meta[0].reported, 2);
	assert_int_equal(h.meta[0].expected, 3);
	assert_int_equal(h.meta[0].nmissing, 1);
	assert_int_equal(h.meta[0].missing[0], 1);
	assert_int_equal(merge_next_deadline(h.m), deadline(&cfg, 1));
	/* The next row is not due yet. */
	assert_int_equal(h_next(&h, dl), 0);

	assert_int_equal(h_add(&h, 1, 0), MERGE_LATE);
	assert_int_equal(merge_late_count(h.m), 1);
	assert_int_equal(merge_slave_totals(h.m, 1)->samples, 1);
	*before = *merge_totals(h.m);
	assert_int_equal(h_add(&h, 1, 0), MERGE_DUPLICATE);
	assert_stats_equal(merge_totals(h.m), before);
	assert_int_equal(merge_late_count(h.m), 1);

	for (unsigned k = 1; k < cfg.intervals; k++)
		for (unsigned i = 0; i < cfg.nslaves; i++)
			assert_int_equal(h_add(&h, i, k), MERGE_ACCEPTED);
	assert_int_equal(h_drain(&h, dl), 2);
	assert_true(merge_done(h.m));
	assert_int_equal(merge_next_deadline(h.m), UINT64_MAX);

	/* Every sample counted exactly once, the late one included. */
	for (unsigned k = 0; k < cfg.intervals; k++)
		for (unsigned i = 0; i < cfg.nslaves; i++)
			for (int d = 0; d < 2; d++)
				ops[d] += sample_ops(i, k, d);
	assert_int_equal(merge_totals(h.m)->ops[0], ops[0]);
	assert_int_equal(merge_totals(h.m)->ops[1], ops[1]);
	assert_int_equal(merge_totals(h.m)->samples, 9);
	h_check_totals(&h);
	free(before);
	h_fini(&h);
}

static void test_warmup(void **state)
{
	struct merge_cfg cfg = cfg_of(2, 5, 2);
	struct harness h;
	struct stats *sum = stats_new(1);

	(void)state;
	h_init(&h, cfg);
	/* Slave 1 misses warmup interval 1 and sends it late. */
	for (unsigned k = 0; k < cfg.intervals; k++)
		for (unsigned i = 0; i < cfg.nslaves; i++)
			if (k != 1 || i != 1)
				assert_int_equal(h_add(&h, i, k),
						 MERGE_ACCEPTED);
	assert_int_equal(h_drain(&h, 0), 1);
	assert_int_equal(h_drain(&h, deadline(&cfg, 1)), 4);
	assert_int_equal(h_add(&h, 1, 1), MERGE_LATE);
	for (unsigned k = 0; k < cfg.intervals; k++) {
		assert_int_equal(h.meta[k].warmup, k < 2);
		if (k >= cfg.warmup_intervals)
			stats_add(sum, &h.rows[k]);
	}
	/* Totals are the measured rows and nothing else. */
	assert_stats_equal(merge_totals(h.m), sum);
	assert_int_equal(merge_totals(h.m)->samples, 6);
	assert_int_equal(merge_slave_totals(h.m, 1)->samples, 3);
	h_check_totals(&h);
	h_fini(&h);

	/* A phase that is all warmup has empty totals. */
	cfg = cfg_of(2, 2, 2);
	h_init(&h, cfg);
	run_in_order(&h);
	stats_init(sum);
	assert_stats_equal(merge_totals(h.m), sum);
	free(sum);
	h_fini(&h);
}

/*
 * warmup=steady: planned 6 warmup + 4 measured intervals; after rows 0..2
 * the window moves to 4..7. A sample already in for row 4 (counted as
 * warmup) makes the move refused; once from is past it, rows 3 are
 * warmup, 4.. measured, the phase has 8 rows and the totals hold
 * exactly rows 4..7.
 */
static void test_measure_moves(void **state)
{
	struct merge_cfg cfg = cfg_of(2, 10, 6);
	struct harness h;
	struct stats *sum = stats_new(1);

	(void)state;
	h_init(&h, cfg);
	for (unsigned k = 0; k < 3; k++)
		for (unsigned i = 0; i < 2; i++)
			assert_int_equal(h_add(&h, i, k), MERGE_ACCEPTED);
	assert_int_equal(h_add(&h, 0, 4), MERGE_ACCEPTED);
	assert_int_equal(h_drain(&h, 0), 3);
	/* Emitted already, past the planned warmup, or a row with a sample. */
	assert_int_equal(merge_measure(h.m, 2, 6), -EINVAL);
	assert_int_equal(merge_measure(h.m, 7, 11), -EINVAL);
	assert_int_equal(merge_measure(h.m, 4, 8), -EBUSY);
	assert_int_equal(merge_intervals(h.m), 10);
	assert_int_equal(merge_measure(h.m, 5, 9), 0);
	h.cfg.warmup_intervals = 5;
	h.cfg.intervals = 9;
	assert_int_equal(merge_intervals(h.m), 9);
	for (unsigned k = 3; k < 9; k++)
		for (unsigned i = 0; i < 2; i++)
			if (k != 4 || i != 0)
				assert_int_equal(h_add(&h, i, k),
						 MERGE_ACCEPTED);
	assert_int_equal(h_drain(&h, UINT64_MAX), 6);
	assert_true(merge_done(h.m));
	for (unsigned k = 0; k < 9; k++) {
		assert_int_equal(h.meta[k].warmup, k < 5);
		if (k >= 5)
			stats_add(sum, &h.rows[k]);
	}
	assert_stats_equal(merge_totals(h.m), sum);
	assert_int_equal(merge_totals(h.m)->samples, 8);
	h_check_totals(&h);
	free(sum);
	h_fini(&h);
}

/*
 * Slave 2 reports intervals 0..2 and 4, then is lost: interval 3 stops
 * waiting for it at once, interval 4 still counts it as expected since it
 * reported, and later rows expect two slaves.
 */
static void test_slave_lost(void **state)
{
	struct merge_cfg cfg = cfg_of(3, 6, 0);
	struct harness h;

	(void)state;
	h_init(&h, cfg);
	for (unsigned k = 0; k < 3; k++)
		for (unsigned i = 0; i < 3; i++)
			assert_int_equal(h_add(&h, i, k), MERGE_ACCEPTED);
	assert_int_equal(h_add(&h, 2, 4), MERGE_ACCEPTED);
	assert_int_equal(h_add(&h, 0, 3), MERGE_ACCEPTED);
	assert_int_equal(h_add(&h, 1, 3), MERGE_ACCEPTED);
	assert_int_equal(h_add(&h, 0, 4), MERGE_ACCEPTED);
	assert_int_equal(h_drain(&h, 0), 3);
	assert_int_equal(h_next(&h, 0), 0);

	merge_slave_lost(h.m, 2);
	merge_slave_lost(h.m, 2); /* idempotent */
	merge_slave_lost(h.m, 3); /* no such slave: ignored */
	assert_int_equal(h_next(&h, 0), 1);
	assert_int_equal(h.meta[3].reported, 2);
	assert_int_equal(h.meta[3].expected, 2);
	assert_int_equal(h.meta[3].nmissing, 0);

	/* Row 4 holds slave 2's sample but still waits for live slave 1. */
	assert_int_equal(h_next(&h, 0), 0);
	assert_int_equal(h_add(&h, 1, 4), MERGE_ACCEPTED);
	assert_int_equal(h_next(&h, 0), 1);
	assert_int_equal(h.meta[4].reported, 3);
	assert_int_equal(h.meta[4].expected, 3);
	assert_int_equal(h.meta[4].nmissing, 0);

	/*
	 * Row 5: a sample the lost slave sent before it went silent still
	 * counts, but does not stand in for live slave 1, which is missing
	 * at the deadline.
	 */
	assert_int_equal(h_add(&h, 0, 5), MERGE_ACCEPTED);
	assert_int_equal(h_add(&h, 2, 5), MERGE_ACCEPTED);
	assert_int_equal(h_next(&h, deadline(&cfg, 5) - 1), 0);
	assert_int_equal(h_next(&h, deadline(&cfg, 5)), 1);
	assert_int_equal(h.meta[5].reported, 2);
	assert_int_equal(h.meta[5].expected, 3);
	assert_int_equal(h.meta[5].nmissing, 1);
	assert_int_equal(h.meta[5].missing[0], 1);
	assert_true(merge_done(h.m));
	h_check_totals(&h);
	h_fini(&h);

	/* With every slave lost, rows leave without waiting. */
	cfg = cfg_of(2, 3, 0);
	h_init(&h, cfg);
	assert_int_equal(h_add(&h, 0, 1), MERGE_ACCEPTED);
	merge_slave_lost(h.m, 0);
	merge_slave_lost(h.m, 1);
	assert_int_equal(h_drain(&h, 0), 3);
	assert_int_equal(h.meta[0].expected, 0);
	assert_int_equal(h.meta[0].reported, 0);
	assert_int_equal(h.meta[1].expected, 1);
	assert_int_equal(h.meta[1].reported, 1);
	assert_int_equal(h.meta[2].nmissing, 0);
	h_check_totals(&h);
	h_fini(&h);
}

/*
 * A lost slave rejoins from row 4 (merge_slave_back): rows 2 and 3 do not
 * wait for it, row 4 on do (it is missing at the deadline if silent, and
 * its sample sent early for row 5 counts as live once it is back); lost
 * again before its row, it is not expected after all.
 */
static void test_slave_back(void **state)
{
	struct merge_cfg cfg = cfg_of(2, 8, 0);
	struct harness h;

	(void)state;
	h_init(&h, cfg);
	for (unsigned i = 0; i < 2; i++)
		assert_int_equal(h_add(&h, i, 0), MERGE_ACCEPTED);
	assert_int_equal(h_next(&h, 0), 1);
	merge_slave_lost(h.m, 1);
	assert_int_equal(merge_slave_back(h.m, 0, 4), -EINVAL); /* not lost */
	assert_int_equal(merge_slave_back(h.m, 2, 4), -EINVAL); /* no slave */
	assert_int_equal(merge_slave_back(h.m, 1, 8), -EINVAL); /* past end */
	assert_int_equal(merge_slave_back(h.m, 1, 4), 0);
	/* Rows 1..3: slave 0 alone is expected. */
	for (unsigned k = 1; k < 4; k++) {
		assert_int_equal(h_add(&h, 0, k), MERGE_ACCEPTED);
		assert_int_equal(h_next(&h, 0), 1);
		assert_int_equal(h.meta[k].expected, 1);
		assert_int_equal(h.meta[k].nmissing, 0);
	}
	/* Its row 5 comes first: not live yet, live once row 4 is judged. */
	assert_int_equal(h_add(&h, 1, 5), MERGE_ACCEPTED);
	assert_int_equal(h_add(&h, 0, 4), MERGE_ACCEPTED);
	assert_int_equal(h_next(&h, deadline(&cfg, 4) - 1), 0);
	assert_int_equal(h_add(&h, 1, 4), MERGE_ACCEPTED);
	assert_int_equal(h_next(&h, 0), 1);
	assert_int_equal(h.meta[4].expected, 2);
	assert_int_equal(h.meta[4].reported, 2);
	assert_int_equal(h_add(&h, 0, 5), MERGE_ACCEPTED);
	assert_int_equal(h_next(&h, 0), 1); /* both in: no wait */
	assert_int_equal(h.meta[5].reported, 2);
	/* Row 6: it is expected, and missing at the deadline. */
	assert_int_equal(h_add(&h, 0, 6), MERGE_ACCEPTED);
	assert_int_equal(h_next(&h, deadline(&cfg, 6) - 1), 0);
	assert_int_equal(h_next(&h, deadline(&cfg, 6)), 1);
	assert_int_equal(h.meta[6].expected, 2);
	assert_int_equal(h.meta[6].nmissing, 1);
	assert_int_equal(h.meta[6].missing[0], 1);
	/* Back from a row already due: expected at once. */
	merge_slave_lost(h.m, 1);
	assert_int_equal(merge_slave_back(h.m, 1, 0), 0);
	assert_int_equal(merge_slave_back(h.m, 1, 0), -EINVAL);
	assert_int_equal(h_add(&h, 0, 7), MERGE_ACCEPTED);
	assert_int_equal(h_next(&h, deadline(&cfg, 7) - 1), 0);
	assert_int_equal(h_add(&h, 1, 7), MERGE_ACCEPTED);
	assert_int_equal(h_next(&h, 0), 1);
	assert_true(merge_done(h.m));
	h_check_totals(&h);
	h_fini(&h);

	/* Lost again before its row: the rows never wait for it. */
	cfg = cfg_of(2, 4, 0);
	h_init(&h, cfg);
	merge_slave_lost(h.m, 1);
	assert_int_equal(merge_slave_back(h.m, 1, 2), 0);
	merge_slave_lost(h.m, 1);
	for (unsigned k = 0; k < 4; k++) {
		assert_int_equal(h_add(&h, 0, k), MERGE_ACCEPTED);
		assert_int_equal(h_next(&h, 0), 1);
		assert_int_equal(h.meta[k].expected, 1);
	}
	h_check_totals(&h);
	h_fini(&h);
}

/*
 * Percentiles of the merge equal those of one histogram holding every
 * value, whatever the arrival order and even with late samples.
 */
static void test_exact_percentiles(void **state)
{
	static const double ps[] = { 0.0,  1.0,  50.0, 90.0,
				     95.0, 99.0, 99.9, 100.0 };
	struct merge_cfg cfg = cfg_of(6, 8, 1);
	unsigned n = cfg.nslaves * cfg.intervals;
	unsigned *order = malloc(n * sizeof(*order));
	struct hist *ref = hist_new2(), *junk = hist_new2();
	const struct stats *tot;
	struct harness h;
	uint64_t now = T0;

	(void)state;
	assert_non_null(order);

	h_init(&h, cfg);
	for (unsigned i = 0; i < n; i++)
		order[i] = i;
	shuffle(order, n, 42);
	for (unsigned i = 0; i < n; i++) {
		unsigned slave = order[i] % cfg.nslaves;
		unsigned seq = order[i] / cfg.nslaves;
		int rc;

		/* Warmup values must not reach the totals. */
		rc = h_add_ref(&h, slave, seq,
			       seq < cfg.warmup_intervals ? junk : ref);
		assert_true(rc == MERGE_ACCEPTED || rc == MERGE_LATE);
		/* Time runs faster than samples arrive: some are late. */
		now += SEC / 4;
		h_drain(&h, now);
	}
	h_drain(&h, UINT64_MAX);
	assert_true(merge_done(h.m));
	assert_true(merge_late_count(h.m) > 0);

	tot = merge_totals(h.m);
	for (int d = 0; d < 2; d++) {
		assert_hist_equal(&tot->lat[d], &ref[d]);
		for (size_t k = 0; k < sizeof(ps) / sizeof(ps[0]); k++)
			assert_int_equal(hist_percentile(&tot->lat[d], ps[k]),
					 hist_percentile(&ref[d], ps[k]));
	}
	h_check_totals(&h);
	free(order);
	free(ref);
	free(junk);
	h_fini(&h);
}

/* Corruptions of a valid sample, each of which must be refused. */
static void bad_slave(struct tsample *t)
{
	t->s.slave = 3;
}

static void huge_slave(struct tsample *t)
{
	t->s.slave = UINT32_MAX;
}

static void bad_seq(struct tsample *t)
{
	t->s.seq = 4;
}

static void ops_mismatch(struct tsample *t)
{
	t->s.ops[1]++;
}

static void no_hist(struct tsample *t)
{
	t->s.lat[0] = NULL;
}

static void idx_out_of_range(struct tsample *t)
{
	t->sp[1].idx[t->sp[1].n - 1] = HIST_BUCKETS;
}

static void idx_unsorted(struct tsample *t)
{
	uint32_t x = t->sp[0].idx[0];

	t->sp[0].idx[0] = t->sp[0].idx[1];
	t->sp[0].idx[1] = x;
}

static void cnt_mismatch(struct tsample *t)
{
	t->sp[0].cnt[0]++;
}

static void min_above_max(struct tsample *t)
{
	t->sp[1].min = t->sp[1].max + 1;
}

static void sumsq_nan(struct tsample *t)
{
	t->sp[1].sumsq = NAN;
}

static void too_many_buckets(struct tsample *t)
{
	/* Refused on n alone: the arrays are never read past their end. */
	t->sp[0].n = HIST_BUCKETS + 1;
}

static void sum_overflows(struct tsample *t)
{
	/* One sample alone is fine; added to the first it would wrap. */
	t->sp[0].sum = UINT64_MAX - 1;
}

static void sum_overflows_warmup_row(struct tsample *t)
{
	/* Warmup interval 0 is not in the totals: only its row would wrap. */
	t->s.seq = 0;
	t->sp[0].sum = UINT64_MAX - 1;
}

static void sum_overflows_totals(struct tsample *t)
{
	/* Interval 3 has no row yet: only the run totals would wrap. */
	t->s.seq = 3;
	t->sp[0].sum = UINT64_MAX - 1;
}

static void test_invalid(void **state)
{
	static const struct {
		const char *what;
		void (*corrupt)(struct tsample *t);
	} cases[] = {
		{ "slave out of range", bad_slave },
		{ "slave far out of range", huge_slave },
		{ "seq out of range", bad_seq },
		{ "ops differ from histogram count", ops_mismatch },
		{ "no histogram", no_hist },
		{ "bucket index out of range", idx_out_of_range },
		{ "bucket indexes not increasing", idx_unsorted },
		{ "bucket counts differ from count", cnt_mismatch },
		{ "min above max", min_above_max },
		{ "sum of squares not a number", sumsq_nan },
		{ "more buckets than a histogram has", too_many_buckets },
		{ "latency sum overflows the row", sum_overflows },
		{ "latency sum overflows the totals", sum_overflows_totals },
		{ "latency sum overflows a warmup row",
		  sum_overflows_warmup_row },
	};
	struct merge_cfg cfg = cfg_of(3, 4, 1);
	struct stats *before = stats_new(1);
	struct harness h;
	struct tsample t;
	unsigned slave = 1, seq = 2;

	(void)state;
	h_init(&h, cfg);
	/* The sample corrupted below must have two non-empty directions. */
	make_sample(&t, slave, seq, NULL);
	assert_true(t.sp[0].n >= 2 && t.sp[1].n >= 1);
	free_sample(&t);
	/* Totals and rows 0 and 2 are not empty, so sums can overflow. */
	assert_int_equal(h_add(&h, 2, 0), MERGE_ACCEPTED);
	assert_int_equal(h_add(&h, 0, seq), MERGE_ACCEPTED);
	assert_true(h.expect_rows[0].lat[0].sum > 0);
	assert_true(h.expect_rows[seq].lat[0].sum > 0);

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		*before = *merge_totals(h.m);
		make_sample(&t, slave, seq, NULL);
		cases[i].corrupt(&t);
		if (merge_add(h.m, &t.s) != -EINVAL)
			fail_msg("case '%s' not refused", cases[i].what);
		free_sample(&t);
		assert_stats_equal(merge_totals(h.m), before);
		for (unsigned k = 0; k < cfg.nslaves; k++)
			assert_sums_match(merge_slave_totals(h.m, k),
					  &h.expect_slave[k]);
	}
	assert_int_equal(merge_duplicate_count(h.m), 0);
	assert_int_equal(merge_late_count(h.m), 0);
	/* Nothing was marked as seen: the valid sample is accepted. */
	assert_int_equal(h_add(&h, slave, seq), MERGE_ACCEPTED);
	for (unsigned k = 0; k < cfg.intervals; k++)
		for (unsigned i = 0; i < cfg.nslaves; i++)
			if (!(i == 2 && k == 0) && !(i == 0 && k == seq) &&
			    !(i == slave && k == seq))
				assert_int_equal(h_add(&h, i, k),
						 MERGE_ACCEPTED);
	/* Rows compare against accepted samples only: nothing leaked in. */
	assert_int_equal(h_drain(&h, 0), cfg.intervals);
	h_check_totals(&h);
	free(before);
	h_fini(&h);
}

/*
 * Every counter, not only the latency sums: a sample that fits alone but
 * would wrap the row, its slave's totals or the run's (a counter alone, or
 * read + write, or user + system together as the views add them) is
 * refused and nothing of it is counted.
 */
static void c_bytes_read(struct merge_sample *s, uint64_t v)
{
	s->bytes[0] = v;
	s->bytes[1] = 0;
}

static void c_bytes_both(struct merge_sample *s, uint64_t v)
{
	s->bytes[0] = v / 2;
	s->bytes[1] = v - v / 2;
}

static void c_errors(struct merge_sample *s, uint64_t v)
{
	s->errors = v;
}

static void c_cpu_avail(struct merge_sample *s, uint64_t v)
{
	s->cpu_avail_ns = v;
}

static void c_cpu_both(struct merge_sample *s, uint64_t v)
{
	s->cpu_user_ns = v / 2;
	s->cpu_sys_ns = v - v / 2;
}

static void test_counters_wrap(void **state)
{
	static const struct {
		const char *what;
		void (*set)(struct merge_sample *s, uint64_t v);
	} cases[] = {
		{ "read bytes", c_bytes_read },
		{ "read + write bytes", c_bytes_both },
		{ "errors", c_errors },
		{ "CPU available", c_cpu_avail },
		{ "CPU user + system", c_cpu_both },
	};
	struct stats *before = stats_new(1);

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct merge_cfg cfg = cfg_of(2, 4, 1);
		struct merge *m = merge_new(&cfg);
		struct tsample a, b;

		assert_non_null(m);
		make_sample(&a, 0, 2, NULL);
		make_sample(&b, 1, 2, NULL);
		cases[i].set(&a.s, UINT64_MAX - 1);
		cases[i].set(&b.s, 2);
		if (merge_add(m, &a.s) != MERGE_ACCEPTED)
			fail_msg("%s: a sample at the edge alone was refused",
				 cases[i].what);
		*before = *merge_totals(m);
		if (merge_add(m, &b.s) != -EINVAL)
			fail_msg("%s: a wrapping sample was accepted",
				 cases[i].what);
		assert_stats_equal(merge_totals(m), before);
		assert_int_equal(merge_slave_totals(m, 1)->samples, 0);
		free_sample(&a);
		free_sample(&b);
		merge_destroy(&m);
	}
	free(before);
}

/* A sample far ahead is kept until its row is due; flushing emits all. */
/*
 * The run totals are built from rows as they leave; asked for while rows
 * are pending (a phase cut short), they take those in too, and neither
 * those rows nor samples added to them afterwards are counted twice.
 */
static void test_totals_with_pending_rows(void **state)
{
	struct merge_cfg cfg = cfg_of(3, 4, 1);
	struct harness h;

	(void)state;
	h_init(&h, cfg);
	assert_int_equal(h_add(&h, 0, 0), MERGE_ACCEPTED);
	assert_int_equal(h_add(&h, 1, 0), MERGE_ACCEPTED);
	assert_int_equal(h_add(&h, 0, 1), MERGE_ACCEPTED);
	assert_int_equal(h_add(&h, 1, 2), MERGE_ACCEPTED);
	h_check_totals(&h);
	h_check_totals(&h); /* asking twice changes nothing */
	assert_int_equal(h_add(&h, 2, 1), MERGE_ACCEPTED);
	assert_int_equal(h_add(&h, 2, 2), MERGE_ACCEPTED);
	assert_int_equal(h_add(&h, 1, 1), MERGE_ACCEPTED);
	h_check_totals(&h);
	assert_int_equal(h_drain(&h, deadline(&cfg, 2)), 3);
	h_check_totals(&h);
	assert_int_equal(h_add(&h, 0, 2), MERGE_LATE);
	assert_int_equal(h_add(&h, 0, 3), MERGE_ACCEPTED);
	assert_int_equal(h_drain(&h, UINT64_MAX), 1);
	h_check_totals(&h);
	h_fini(&h);
}

static void test_far_ahead_and_flush(void **state)
{
	struct merge_cfg cfg = cfg_of(2, 200, 0);
	struct harness h;
	struct merge_row row;
	struct merge *m;
	unsigned k;

	(void)state;
	h_init(&h, cfg);
	assert_int_equal(h_add(&h, 1, cfg.intervals - 1), MERGE_ACCEPTED);
	assert_int_equal(h_add(&h, 0, 100), MERGE_ACCEPTED);
	assert_int_equal(h_add(&h, 0, 0), MERGE_ACCEPTED);
	assert_int_equal(h_next(&h, 0), 0);
	/* Rows whose deadline passed leave; the next one waits. */
	assert_int_equal(h_drain(&h, deadline(&cfg, 9)), 10);
	assert_int_equal(merge_next_deadline(h.m), deadline(&cfg, 10));
	merge_slave_lost(h.m, 1);
	assert_int_equal(h_drain(&h, UINT64_MAX), cfg.intervals - 10);
	assert_true(merge_done(h.m));
	assert_int_equal(h.meta[cfg.intervals - 1].reported, 1);
	assert_int_equal(h.meta[cfg.intervals - 1].expected, 2);
	assert_int_equal(h.meta[100].reported, 1);
	assert_int_equal(h.meta[100].expected, 1);
	assert_int_equal(h.meta[5].nmissing, 2);
	h_check_totals(&h);
	h_fini(&h);

	/* Destroying with rows still pending frees them. */
	m = merge_new(&cfg);
	assert_non_null(m);
	for (k = 0; k < 50; k++) {
		struct tsample t;

		make_sample(&t, 0, k * 37 % cfg.intervals, NULL);
		assert_int_equal(merge_add(m, &t.s), MERGE_ACCEPTED);
		free_sample(&t);
	}
	assert_int_equal(merge_next(m, deadline(&cfg, 0), &row), 1);
	merge_destroy(&m);
	assert_null(m);
	merge_destroy(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config),
		cmocka_unit_test(test_order_independent),
		cmocka_unit_test(test_row_ops_are_sums),
		cmocka_unit_test(test_duplicate),
		cmocka_unit_test(test_missing_then_late),
		cmocka_unit_test(test_warmup),
		cmocka_unit_test(test_measure_moves),
		cmocka_unit_test(test_slave_lost),
		cmocka_unit_test(test_slave_back),
		cmocka_unit_test(test_exact_percentiles),
		cmocka_unit_test(test_counters_wrap),
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_totals_with_pending_rows),
		cmocka_unit_test(test_far_ahead_and_flush),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
