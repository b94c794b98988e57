/*
 * Unit tests of data validation over a deduplicating pattern
 * (slave/dedupval.c, the duplicate headers of slave/validate.c): a whole
 * sd written under validation, by two slaves, still holds 1/R distinct
 * units (a set of unit hashes, within 3%), and after random rewrites of
 * whole units no fewer than the flipflop's bound; every block validates;
 * and a corrupted byte in a duplicate, another set's block, a stale key,
 * a unique block from another lba, a unique block where a duplicate
 * belongs (and the reverse) and another sd's duplicate are each caught,
 * while another member of the same set is rightly accepted.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "slave/datagen.h"
#include "slave/dedupval.h"
#include "slave/validate.h"
#include "slave/workload.h"

#define KIB 1024u
#define UNIT (16 * KIB)
#define BPU (UNIT / VALIDATE_BLOCK) /* blocks per unit */
#define SD_ID 0x5d5d0001u
#define KEY 0x1234u

/* An sd of nunits units: its bytes and the generation of each block. */
struct sd {
	uint8_t *data;
	uint8_t *gen;
	size_t nunits;
};

static uint64_t fnv(const void *p, size_t len)
{
	const uint8_t *b = p;
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Distinct unit contents of the sd. */
static size_t distinct(const struct sd *s)
{
	uint64_t *h = malloc(s->nunits * sizeof(*h));
	size_t n = s->nunits ? 1 : 0;

	assert_non_null(h);
	for (size_t u = 0; u < s->nunits; u++)
		h[u] = fnv(s->data + u * UNIT, UNIT);
	qsort(h, s->nunits, sizeof(*h), by_value);
	for (size_t u = 1; u < s->nunits; u++)
		n += h[u] != h[u - 1];
	free(h);
	return n;
}

/*
 * Write unit u the way a worker does: the pattern (g, a slave's own
 * generator), then each block's header at its next generation.
 */
static void write_unit(struct datagen *g, struct sd *s, size_t u,
		       uint16_t slave)
{
	uint8_t *p = s->data + u * UNIT;

	datagen_fill(g, p, UNIT, (uint64_t)u * UNIT, KEY);
	for (unsigned k = 0; k < BPU; k++) {
		uint64_t b = u * BPU + k;

		s->gen[b] = dedupval_gen_next(g, b, s->gen[b]);
		dedupval_fill(g, p + k * VALIDATE_BLOCK, b, SD_ID, slave,
			      s->gen[b], 1000 + b);
	}
}

static void sd_new(struct sd *s, size_t nunits)
{
	s->nunits = nunits;
	s->data = calloc(nunits, UNIT);
	s->gen = calloc(nunits * BPU, 1);
	assert_non_null(s->data);
	assert_non_null(s->gen);
}

static void sd_free(struct sd *s)
{
	free(s->data);
	free(s->gen);
}

static void all_ok(const struct datagen *g, const struct sd *s)
{
	for (uint64_t b = 0; b < s->nunits * BPU; b++) {
		struct validate_found f;

		assert_int_equal(dedupval_check(g, s->data + b * VALIDATE_BLOCK,
						b, SD_ID, s->gen[b], &f),
				 VALIDATE_OK);
	}
}

/*
 * (a) and (b): a whole sd of 4096 units, its halves written by two slaves
 * with generators of their own seeds (as two owners do), holds nunits / R
 * distinct units within 3% (the last period is partial), and every block
 * validates. Then 4096 random whole-unit rewrites: every block still
 * validates, and the ratio stays between the flipflop's bound (each set at
 * most two contents: period / (uniq + 2 sets)) and R.
 */
static void test_ratio(void **state)
{
	static const struct {
		double r, comp;
	} cases[] = { { 1.5, 1 }, { 2, 1 }, { 3, 1 }, { 5, 1 }, { 2, 2 } };

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct datagen g[2];
		struct workload_rng rng;
		struct sd s;
		double ratio, bound, period;

		for (unsigned k = 0; k < 2; k++)
			assert_int_equal(datagen_init(&g[k], cases[i].comp,
						      cases[i].r, UNIT, 77 + k),
					 0);
		sd_new(&s, 4096);
		for (size_t u = 0; u < s.nunits; u++)
			write_unit(&g[u >= s.nunits / 2], &s, u,
				   u >= s.nunits / 2 ? 2 : 1);
		ratio = (double)s.nunits / (double)distinct(&s);
		printf("dedupratio=%g compratio=%g: first pass %.3f\n",
		       cases[i].r, cases[i].comp, ratio);
		assert_true(ratio > cases[i].r * 0.97 &&
			    ratio < cases[i].r * 1.03);
		all_ok(&g[0], &s);

		workload_rng_seed(&rng, 99 + i);
		for (unsigned n = 0; n < 4096; n++) {
			size_t u = workload_rng_next(&rng) % s.nunits;

			write_unit(&g[u >= s.nunits / 2], &s, u,
				   u >= s.nunits / 2 ? 2 : 1);
		}
		all_ok(&g[1], &s);
		ratio = (double)s.nunits / (double)distinct(&s);
		period = (double)(g[0].uniq + g[0].copies * g[0].sets);
		bound = period / (double)(g[0].uniq + 2 * g[0].sets);
		printf("  after rewrites %.3f (flipflop bound %.3f)\n", ratio,
		       bound);
		assert_true(ratio > bound * 0.97 && ratio < cases[i].r * 1.03);
		sd_free(&s);
		datagen_free(&g[0]);
		datagen_free(&g[1]);
	}
}

/* The first duplicate and unique blocks of g's layout from block from. */
static uint64_t find_block(const struct datagen *g, uint64_t from, int dup)
{
	uint64_t set;
	uint32_t sec;

	while (dedupval_dup(g, from, &set, &sec) != dup)
		from++;
	return from;
}

/*
 * The next duplicate block at the same place in its unit as block, of
 * block's set (same 1) or of another.
 */
static uint64_t next_dup(const struct datagen *g, uint64_t block, int same)
{
	uint64_t set, s2;
	uint32_t sec, sec2;
	uint64_t b = block + BPU;

	assert_true(dedupval_dup(g, block, &set, &sec));
	for (;; b += BPU)
		if (dedupval_dup(g, b, &s2, &sec2) && (s2 == set) == same &&
		    sec2 == sec)
			return b;
}

/* (c): each kind of damage at a known block, classified. */
static void test_detect(void **state)
{
	struct datagen g;
	struct sd s;
	struct validate_found f;
	uint8_t blk[VALIDATE_BLOCK];
	uint64_t d, d2, d3, un, un2;

	(void)state;
	assert_int_equal(datagen_init(&g, 1, 2, UNIT, 5), 0);
	sd_new(&s, 512);
	for (size_t u = 0; u < s.nunits; u++)
		write_unit(&g, &s, u, 1);
	d = find_block(&g, 0, 1) + 1; /* the second block of a unit */
	d2 = next_dup(&g, d, 0);
	d3 = next_dup(&g, d, 1);
	un = find_block(&g, 0, 0) + 2;
	un2 = un + 1;
#define AT(b) (s.data + (b)*VALIDATE_BLOCK)
#define CHECK(buf, b) dedupval_check(&g, buf, b, SD_ID, s.gen[b], &f)

	/* Another member of the set, same place: a dedup target's right. */
	assert_memory_equal(AT(d), AT(d3), VALIDATE_BLOCK);
	assert_int_equal(CHECK(AT(d3), d), VALIDATE_OK);

	/* A byte flipped in a duplicate's data, then in its header. */
	memcpy(blk, AT(d), sizeof(blk));
	blk[1000] ^= 0x5a;
	assert_int_equal(CHECK(blk, d), VALIDATE_CORRUPT);
	memcpy(blk, AT(d), sizeof(blk));
	blk[512 + 9] ^= 1; /* sector 1's set number */
	assert_int_equal(CHECK(blk, d), VALIDATE_CORRUPT);

	/* Another set's block where d belongs. */
	assert_int_equal(CHECK(AT(d2), d), VALIDATE_MISDIRECTED);
	assert_int_equal(f.dup, 1);
	{
		uint64_t set2;
		uint32_t sec2;

		assert_true(dedupval_dup(&g, d2, &set2, &sec2));
		assert_int_equal(f.set, set2);
	}
	/* d's own set but another place in the unit. */
	assert_int_equal(CHECK(AT(d - 1), d), VALIDATE_MISDIRECTED);

	/* A stale key: d rewritten, the target kept the old data. */
	memcpy(blk, AT(d), sizeof(blk));
	write_unit(&g, &s, d / BPU, 1);
	assert_int_equal(CHECK(AT(d), d), VALIDATE_OK);
	assert_int_equal(CHECK(blk, d), VALIDATE_LOST);
	assert_int_equal(f.gen, dedupval_key(s.gen[d] - 1));

	/* A unique block from another lba, and each kind in the other's place. */
	assert_int_equal(CHECK(AT(un), un), VALIDATE_OK);
	assert_int_equal(CHECK(AT(un), un2), VALIDATE_MISDIRECTED);
	assert_int_equal(f.sector, un * VALIDATE_SECTORS);
	assert_int_equal(CHECK(AT(un), d), VALIDATE_MISDIRECTED);
	assert_int_equal(f.dup, 0);
	assert_int_equal(CHECK(AT(d), un), VALIDATE_MISDIRECTED);
	assert_int_equal(f.dup, 1);

	/* Another sd's duplicate of the same set and place. */
	memcpy(blk, AT(d), sizeof(blk));
	{
		uint64_t set;
		uint32_t sec;

		assert_true(dedupval_dup(&g, d, &set, &sec));
		validate_fill_dup(blk, SD_ID + 1, set, sec,
				  dedupval_key(s.gen[d]));
	}
	assert_int_equal(CHECK(blk, d), VALIDATE_MISDIRECTED);

	/* Zeros: never written; half stamped: corrupt. */
	memset(blk, 0, sizeof(blk));
	assert_int_equal(CHECK(blk, d), VALIDATE_NEVER_WRITTEN);
	memcpy(blk, AT(d), VALIDATE_BLOCK / 2);
	assert_int_equal(CHECK(blk, d), VALIDATE_CORRUPT);
#undef CHECK
#undef AT
	sd_free(&s);
	datagen_free(&g);
}

/*
 * Generations of duplicates run 1..254 so the key flips at the wrap too;
 * unique blocks keep 1..255. The crash rule's found generation: a
 * duplicate's old key maps back to the old generation, nothing else does.
 */
static void test_gens(void **state)
{
	struct datagen g;
	uint64_t d, u;
	struct validate_found f = { .gen = 2, .dup = 1 };

	(void)state;
	assert_int_equal(datagen_init(&g, 1, 2, UNIT, 5), 0);
	d = find_block(&g, 0, 1);
	u = find_block(&g, 0, 0);
	assert_int_equal(dedupval_gen_next(&g, d, 0), 1);
	assert_int_equal(dedupval_gen_next(&g, d, 253), 254);
	assert_int_equal(dedupval_gen_next(&g, d, 254), 1);
	assert_int_equal(dedupval_gen_next(&g, u, 254), 255);
	assert_int_equal(dedupval_gen_next(&g, u, 255), 1);
	assert_int_equal(dedupval_gen_next(NULL, d, 255), 1);
	for (unsigned x = 1; x <= 254; x++)
		assert_int_not_equal(dedupval_key((uint8_t)x),
				     dedupval_key(
					     dedupval_gen_next(&g, d,
							       (uint8_t)x)));
	assert_int_equal(dedupval_found_gen(&g, d, VALIDATE_LOST, &f, 8), 8);
	assert_int_equal(dedupval_found_gen(&g, d, VALIDATE_LOST, &f, 7), 255);
	assert_int_equal(dedupval_found_gen(&g, d, VALIDATE_MISDIRECTED, &f, 8),
			 255);
	assert_int_equal(dedupval_found_gen(&g, d, VALIDATE_NEVER_WRITTEN, &f,
					    8),
			 0);
	/* Journals' layout ids: 0 only without duplicates. */
	assert_int_equal(dedupval_layout(1, UNIT), 0);
	assert_int_equal(dedupval_layout(0, 0), 0);
	assert_int_not_equal(dedupval_layout(2, UNIT), 0);
	assert_int_not_equal(dedupval_layout(2, UNIT),
			     dedupval_layout(3, UNIT));
	assert_int_not_equal(dedupval_layout(2, UNIT),
			     dedupval_layout(2, 2 * UNIT));
	assert_int_equal(dedupval_layout(2, 0),
			 dedupval_layout(2, DATAGEN_DEDUPUNIT_DEFAULT));
	f.dup = 0;
	f.gen = 9;
	assert_int_equal(dedupval_found_gen(&g, u, VALIDATE_LOST, &f, 9), 9);
	datagen_free(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ratio),
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_gens),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
