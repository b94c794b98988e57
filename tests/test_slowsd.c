/*
 * Unit tests of the slow sd test (master/results/slowsd.c): sds made of
 * parts on several slaves are judged as one latency each (their I/Os the
 * sum of their parts'), one sd twice as slow among equal ones is named
 * and none of the others, equal sds are never named in seeded trials, an
 * sd with fewer I/Os than its threads' share is named by the I/O-count
 * test while one with more threads and as many more I/Os is not, the
 * order of the parts changes nothing, and an sd out of range is refused.
 * Latencies are log-normal (median 200 us, sigma 0.5) from a seeded
 * generator: every run draws the same numbers.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "common/hist.h"
#include "tests/lognormal.h"
#include "master/results/slowsd.h"

#define MAXSD 8
#define MAXPARTS 16

/* The parts of one interval: sd, threads, I/Os, slowness each. */
struct fixture {
	struct hist *h;
	struct hist_sparse sp[MAXPARTS];
	struct slowsd_part parts[MAXPARTS];
	size_t n;
	struct slowsd_work *w;
	unsigned sd[MAXSD];
	struct slowhost_out out[MAXSD];
	size_t nsd;
};

static struct fixture *fixture_new(void)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->h = malloc(sizeof(*f->h));
	assert_non_null(f->h);
	f->w = slowsd_work_new(MAXSD);
	assert_non_null(f->w);
	return f;
}

static void fixture_clear(struct fixture *f)
{
	for (size_t i = 0; i < f->n; i++)
		hist_sparse_free(&f->sp[i]);
	f->n = 0;
}

static void fixture_free(struct fixture *f)
{
	fixture_clear(f);
	slowsd_work_free(f->w);
	free(f->h);
	free(f);
}

static void part(struct fixture *f, unsigned sd, double threads, unsigned ios,
		 double slow)
{
	assert_true(f->n < MAXPARTS);
	hist_init(f->h);
	for (unsigned k = 0; k < ios; k++)
		hist_add(f->h, latency_ns(slow));
	assert_int_equal(hist_to_sparse(f->h, &f->sp[f->n]), 0);
	f->parts[f->n] = (struct slowsd_part){ .sd = sd,
					       .threads = threads,
					       .lat = &f->sp[f->n] };
	f->n++;
}

static int judge(struct fixture *f)
{
	return slowsd_judge(f->w, f->parts, f->n, SLOWHOST_ALPHA, f->sd, f->out,
			    &f->nsd);
}

/* Index of sd in the verdicts, or -1. */
static int verdict(const struct fixture *f, unsigned sd)
{
	for (size_t k = 0; k < f->nsd; k++)
		if (f->sd[k] == sd)
			return (int)k;
	return -1;
}

/*
 * sds 0, 2, 3 and 5 on two slaves each (sd 1 and 4 have no part), sd 3
 * twice as slow on both: named, by latency, the others not.
 */
static void test_one_slow_sd(void **state)
{
	struct fixture *f = fixture_new();
	static const unsigned sds[] = { 0, 2, 3, 5 };

	(void)state;
	rng_state = 1;
	for (int slave = 0; slave < 2; slave++)
		for (int i = 0; i < 4; i++)
			part(f, sds[i], 4, 2000, sds[i] == 3 ? 2.0 : 1.0);
	assert_int_equal(judge(f), 1);
	assert_int_equal(f->nsd, 4);
	for (int i = 0; i < 4; i++) {
		const struct slowhost_out *o = &f->out[i];

		assert_int_equal(f->sd[i], sds[i]);
		assert_true(o->judged);
		assert_int_equal(o->ios, 4000); /* both its parts */
		assert_int_equal(o->flagged, sds[i] == 3);
	}
	assert_true(f->out[2].lat_flag);
	assert_true(f->out[2].median_ratio > 1.7 && f->out[2].p99_ratio > 1.7);
	assert_true(f->out[2].p_lat <= SLOWHOST_ALPHA);
	assert_int_equal(verdict(f, 1), -1);
	assert_int_equal(verdict(f, 4), -1);
	fixture_free(f);
}

/*
 * sd 3 slow on one of its two slaves only: its latency is the union of
 * both parts (half of it slow), still named; an sd slow nowhere is not.
 */
static void test_slow_on_one_slave(void **state)
{
	struct fixture *f = fixture_new();

	(void)state;
	rng_state = 2;
	for (unsigned sd = 0; sd < 4; sd++) {
		part(f, sd, 4, 3000, 1.0);
		part(f, sd, 4, 3000, sd == 3 ? 3.0 : 1.0);
	}
	assert_int_equal(judge(f), 1);
	assert_true(f->out[3].flagged && f->out[3].lat_flag);
	assert_int_equal(f->out[3].ios, 6000);
	fixture_free(f);
}

/* Equal sds, 30 seeded intervals: none is ever named. */
static void test_equal_sds(void **state)
{
	struct fixture *f = fixture_new();

	(void)state;
	for (int trial = 0; trial < 30; trial++) {
		rng_state = 100 + (uint64_t)trial;
		fixture_clear(f);
		for (unsigned sd = 0; sd < 6; sd++)
			for (int slave = 0; slave < 2; slave++)
				part(f, sd, 2, 1500, 1.0);
		assert_int_equal(judge(f), 0);
		assert_int_equal(f->nsd, 6);
		for (size_t k = 0; k < f->nsd; k++)
			assert_true(f->out[k].judged && !f->out[k].flagged);
	}
	fixture_free(f);
}

/*
 * The I/O share is its parts' threads: sd 2 did a quarter of what sds 0
 * and 1 did with as many threads (named), sd 3 has twice the threads and
 * did twice their I/Os (not named).
 */
static void test_io_share(void **state)
{
	struct fixture *f = fixture_new();

	(void)state;
	rng_state = 3;
	part(f, 0, 4, 2000, 1.0);
	part(f, 0, 4, 2000, 1.0);
	part(f, 1, 8, 4000, 1.0);
	part(f, 2, 4, 500, 1.0);
	part(f, 2, 4, 500, 1.0);
	part(f, 3, 8, 4000, 1.0);
	part(f, 3, 8, 4000, 1.0);
	assert_int_equal(judge(f), 1);
	assert_true(f->out[2].flagged && f->out[2].ios_flag);
	assert_false(f->out[2].lat_flag);
	/* Of 17000 I/Os its share was 8 of 40 threads: 3400. */
	assert_true(fabs(f->out[2].share_ratio - 1000.0 / 3400) < 1e-9);
	assert_false(f->out[3].flagged);
	assert_true(fabs(f->out[3].share_ratio - 8000.0 / 6800) < 1e-9);
	/* Without threads (a fixed rate) only latency is compared. */
	for (size_t i = 0; i < f->n; i++)
		f->parts[i].threads = 0;
	assert_int_equal(judge(f), 0);
	assert_false(f->out[2].ios_judged);
	assert_true(f->out[2].lat_judged);
	fixture_free(f);
}

/* The order of the parts changes nothing. */
static void test_order(void **state)
{
	struct fixture *f = fixture_new();
	struct slowhost_out first[MAXSD];
	struct slowsd_part rev[MAXPARTS];

	(void)state;
	rng_state = 4;
	for (int slave = 0; slave < 3; slave++)
		for (unsigned sd = 0; sd < 4; sd++)
			part(f, sd, 2, 800 + 100 * sd, sd == 1 ? 1.5 : 1.0);
	assert_int_equal(judge(f), 1);
	memcpy(first, f->out, sizeof(first));
	for (size_t i = 0; i < f->n; i++)
		rev[i] = f->parts[f->n - 1 - i];
	assert_int_equal(slowsd_judge(f->w, rev, f->n, SLOWHOST_ALPHA, f->sd,
				      f->out, &f->nsd),
			 1);
	assert_int_equal(f->nsd, 4);
	for (size_t k = 0; k < f->nsd; k++) {
		assert_int_equal(f->sd[k], k);
		assert_int_equal(f->out[k].ios, first[k].ios);
		assert_true(f->out[k].p_lat == first[k].p_lat);
		assert_true(f->out[k].p99_ratio == first[k].p99_ratio);
		assert_int_equal(f->out[k].flagged, first[k].flagged);
	}
	fixture_free(f);
}

/* An sd past the workspace is refused; nothing, or one sd, judges none. */
static void test_edges(void **state)
{
	struct fixture *f = fixture_new();

	(void)state;
	rng_state = 5;
	assert_int_equal(judge(f), 0);
	assert_int_equal(f->nsd, 0);
	part(f, 6, 1, 100, 1.0);
	part(f, 6, 1, 100, 3.0);
	assert_int_equal(judge(f), 0);
	assert_int_equal(f->nsd, 1);
	assert_false(f->out[0].judged);
	part(f, MAXSD, 1, 100, 1.0);
	assert_int_equal(judge(f), -EINVAL);
	fixture_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_slow_sd),
		cmocka_unit_test(test_slow_on_one_slave),
		cmocka_unit_test(test_equal_sds),
		cmocka_unit_test(test_io_share),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_edges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
