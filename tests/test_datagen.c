/*
 * Unit tests of the write data generator: zlib compresses it as much as
 * compratio asks, hashing its units finds the dedup ratio asked, both at
 * once, default data never repeats a sector, and fills of any length and
 * alignment stay inside their buffer and agree with whole-sector fills.
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
#include "tests/cmocka_skip.h"
#ifdef HAVE_ZLIB
#include <zlib.h>
#endif

#include "slave/datagen.h"
#include "slave/workload.h"

#define KIB 1024u
#define MIB (1024u * 1024)
#define KEY 0x5d1u

static uint64_t hash(const void *p, size_t len)
{
	const uint8_t *b = p;
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ b[i]) * 0x100000001b3ull; /* FNV-1a 64 */
	return h;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static size_t distinct(uint64_t *h, size_t n)
{
	size_t d = n > 0;

	qsort(h, n, sizeof(*h), cmp_u64);
	for (size_t i = 1; i < n; i++)
		d += h[i] != h[i - 1];
	return d;
}

static void init_ok(struct datagen *g, double comp, double dedup,
		    uint32_t unit, uint64_t seed)
{
	assert_int_equal(datagen_init(g, comp, dedup, unit, seed), 0);
}

/* Fill len bytes from offset in pieces of io bytes. */
static void fill_span(struct datagen *g, uint8_t *buf, size_t len,
		      uint64_t offset, size_t io)
{
	for (size_t done = 0; done < len; done += io)
		datagen_fill(g, buf + done, len - done < io ? len - done : io,
			     offset + done, KEY);
}

#ifdef HAVE_ZLIB
static double zlib_ratio(const uint8_t *buf, size_t len)
{
	uLongf clen = compressBound(len);
	uint8_t *c = malloc(clen);
	int ret;

	assert_non_null(c);
	ret = compress2(c, &clen, buf, len, Z_DEFAULT_COMPRESSION);
	assert_int_equal(ret, Z_OK);
	free(c);
	return (double)len / (double)clen;
}

static void check_compratio(double want, size_t io)
{
	const size_t len = 4 * MIB;
	uint8_t *buf = malloc(len);
	struct datagen g;
	double got;

	assert_non_null(buf);
	init_ok(&g, want, 1, 0, 99);
	fill_span(&g, buf, len, 3ull << 30, io);
	got = zlib_ratio(buf, len);
	if (fabs(got / want - 1) > 0.10)
		fail_msg("compratio %g in %zu-byte writes: zlib gives %.3f",
			 want, io, got);
	datagen_free(&g);
	free(buf);
}
#endif

static void test_compratio(void **state)
{
#ifdef HAVE_ZLIB
	static const double ratios[] = { 1, 2, 4, 8, 16, 32 };

	(void)state;
	for (unsigned i = 0; i < sizeof(ratios) / sizeof(ratios[0]); i++) {
		check_compratio(ratios[i], 64 * KIB);
		check_compratio(ratios[i], 4 * KIB);
	}
#else
	(void)state;
	skip();
#endif
}

/* Write units consecutive units in 12 KiB pieces, return units / distinct. */
static double dedup_measure(struct datagen *g, uint32_t unit, size_t units)
{
	const size_t chunk = 12 * KIB, len = 64 * (size_t)unit;
	uint8_t *buf = malloc(len);
	uint64_t *h = malloc(units * sizeof(*h));
	size_t n = 0;

	assert_non_null(buf);
	assert_non_null(h);
	for (uint64_t off = 0; n < units; off += len) {
		fill_span(g, buf, len, off, chunk);
		for (size_t u = 0; u < len / unit && n < units; u++)
			h[n++] = hash(buf + u * unit, unit);
	}
	n = distinct(h, units);
	free(h);
	free(buf);
	return (double)units / (double)n;
}

static void test_dedupratio(void **state)
{
	static const double ratios[] = { 2, 3, 5, 1.5, 7.3 };
	struct datagen g;
	double got;

	(void)state;
	for (unsigned i = 0; i < sizeof(ratios) / sizeof(ratios[0]); i++) {
		init_ok(&g, 1, ratios[i], 4 * KIB, 5);
		got = dedup_measure(&g, 4 * KIB, 10000);
		if (fabs(got / ratios[i] - 1) > 0.05)
			fail_msg("dedupratio %g: measured %.3f", ratios[i],
				 got);
		datagen_free(&g);
	}
	/* No dedup: every unit distinct. */
	init_ok(&g, 1, 1, 4 * KIB, 5);
	assert_true(dedup_measure(&g, 4 * KIB, 10000) == 1.0);
	datagen_free(&g);
	/* Vdbench's default unit, 128 KiB. */
	init_ok(&g, 1, 3, 0, 5);
	assert_int_equal(g.unit, 128 * KIB);
	got = dedup_measure(&g, 128 * KIB, 1200);
	assert_true(fabs(got / 3 - 1) < 0.05);
	datagen_free(&g);
}

static void test_comp_and_dedup(void **state)
{
	const size_t units = 10000, unit = 4 * KIB;
	uint8_t *buf = malloc(units * unit);
	uint64_t *h = malloc(units * sizeof(*h));
	struct datagen g;
	double got;

	(void)state;
	assert_non_null(buf);
	assert_non_null(h);
	init_ok(&g, 4, 3, unit, 11);
	fill_span(&g, buf, units * unit, 0, 64 * KIB);
	for (size_t u = 0; u < units; u++)
		h[u] = hash(buf + u * unit, unit);
	got = (double)units / (double)distinct(h, units);
	assert_true(fabs(got / 3 - 1) < 0.05);
#ifdef HAVE_ZLIB
	/* Copies of a set lie 16 units apart, beyond zlib's 32 KiB window. */
	got = zlib_ratio(buf, 4 * MIB);
	if (fabs(got / 4 - 1) > 0.10)
		fail_msg("compratio 4 with dedupratio 3: zlib gives %.3f", got);
#endif
	datagen_free(&g);
	free(h);
	free(buf);
}

/*
 * Default data: overwrite a small region many times with writes of many
 * sizes; no two sectors written are ever equal.
 */
static void test_default_unique(void **state)
{
	const size_t fills = 3000, region = 256 * KIB;
	uint64_t *h = malloc(fills * (64 * KIB / DATAGEN_SECTOR) * sizeof(*h));
	uint8_t *buf = malloc(64 * KIB);
	struct workload_rng r;
	struct datagen g, g2;
	size_t n = 0;

	(void)state;
	assert_non_null(h);
	assert_non_null(buf);
	workload_rng_seed(&r, 8);
	init_ok(&g, 1, 1, 0, 1);
	init_ok(&g2, 1, 1, 0, 2);
	for (size_t i = 0; i < fills; i++) {
		size_t len = DATAGEN_SECTOR *
			     (1 + workload_rng_next(&r) % (64 * KIB / 512));
		uint64_t off = DATAGEN_SECTOR *
			       (workload_rng_next(&r) % ((region - len) / 512));

		/* Two generators (two workers) on the same offsets. */
		datagen_fill(i % 2 ? &g : &g2, buf, len, off, KEY);
		for (size_t s = 0; s < len; s += DATAGEN_SECTOR)
			h[n++] = hash(buf + s, DATAGEN_SECTOR);
	}
	assert_int_equal(distinct(h, n), n);
	datagen_free(&g);
	datagen_free(&g2);
	free(buf);
	free(h);
}

/* Whether every unit that [off, off + len) touches is a duplicate. */
static int all_dup(const struct datagen *g, uint64_t off, size_t len)
{
	uint64_t period = g->uniq + g->copies * g->sets;

	for (uint64_t u = off / g->unit; u <= (off + len - 1) / g->unit; u++)
		if (u % period < g->uniq)
			return 0;
	return 1;
}

/*
 * Any length at any offset: the bytes written match those of a fill of
 * whole sectors (for duplicate units, whose content does not change from
 * write to write), and nothing outside the buffer is touched (ASan).
 */
static void test_unaligned_fills(void **state)
{
	static const size_t lens[] = { 1, 7, 31, 32, 33, 511, 512, 513, 4097,
				       65535, 200000 };
	static const uint64_t offs[] = { 0, 1, 31, 511, 512, 4095, 12345,
					 (1ull << 40) + 3 };
	uint8_t *ref = malloc(512 * KIB);
	struct datagen g;

	(void)state;
	assert_non_null(ref);
	/* Ratio 1000: nearly every unit is a copy. */
	init_ok(&g, 2, 1000, 4 * KIB, 3);
	for (unsigned i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		for (unsigned k = 0; k < sizeof(offs) / sizeof(offs[0]); k++) {
			uint64_t base = offs[k] & ~(uint64_t)(512 * KIB - 1);
			size_t skip = offs[k] - base;
			uint8_t *buf = malloc(lens[i]);

			assert_non_null(buf);
			datagen_fill(&g, buf, lens[i], offs[k], KEY);
			datagen_fill(&g, ref, 512 * KIB, base, KEY);
			if (skip + lens[i] <= 512 * KIB &&
			    all_dup(&g, offs[k], lens[i]))
				assert_memory_equal(buf, ref + skip, lens[i]);
			free(buf);
		}
	}
	datagen_free(&g);
	free(ref);
}

/* Duplicates depend on offset and key only: equal across generators. */
static void test_dup_keys(void **state)
{
	uint8_t *a = malloc(64 * KIB), *b = malloc(64 * KIB);
	struct datagen g1, g2;

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	init_ok(&g1, 1, 1000, 64 * KIB, 1);
	init_ok(&g2, 1, 1000, 64 * KIB, 2);
	/* Unit 100 of a period of 16 + 2000 * 16 units is a copy. */
	datagen_fill(&g1, a, 64 * KIB, 100 * 64 * KIB, KEY);
	datagen_fill(&g2, b, 64 * KIB, 100 * 64 * KIB, KEY);
	assert_memory_equal(a, b, 64 * KIB);
	datagen_fill(&g2, b, 64 * KIB, 100 * 64 * KIB, KEY + 1);
	assert_memory_not_equal(a, b, 64 * KIB);
	/* Units 0..15 are unique: they differ from write to write. */
	datagen_fill(&g1, a, 64 * KIB, 0, KEY);
	datagen_fill(&g1, b, 64 * KIB, 0, KEY);
	assert_memory_not_equal(a, b, 64 * KIB);
	assert_true(datagen_key("sd1") != datagen_key("sd2"));
	datagen_free(&g1);
	datagen_free(&g2);
	free(a);
	free(b);
}

static void test_rejects(void **state)
{
	struct datagen g;

	(void)state;
	assert_int_equal(datagen_init(&g, 0.5, 1, 0, 1), -EINVAL);
	assert_int_equal(datagen_init(&g, NAN, 1, 0, 1), -EINVAL);
	assert_int_equal(datagen_init(&g, DATAGEN_COMPRATIO_MAX + 1, 1, 0, 1),
			 -EINVAL);
	assert_int_equal(datagen_init(&g, 1, 0.99, 0, 1), -EINVAL);
	assert_int_equal(datagen_init(&g, 1, INFINITY, 0, 1), -EINVAL);
	assert_int_equal(datagen_init(&g, 1, 2, 1000, 1), -EINVAL);
	datagen_free(&g); /* safe after a failed init */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compratio),
		cmocka_unit_test(test_dedupratio),
		cmocka_unit_test(test_comp_and_dedup),
		cmocka_unit_test(test_default_unique),
		cmocka_unit_test(test_unaligned_fills),
		cmocka_unit_test(test_dup_keys),
		cmocka_unit_test(test_rejects),
	};

	return ls_run_group(tests, NULL, NULL);
}
