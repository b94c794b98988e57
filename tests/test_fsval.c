/*
 * Unit tests for slave/fsval.c, the key maps of file-system data
 * validation: whole-block spans of a transfer; a file's blocks stamped,
 * written and verified; damage (corrupt), another file's block
 * (misdirected), an older write (lost) told apart at the right offset;
 * blocks of a failed, short or unaligned write forgotten, never claimed;
 * a delete forgets; a map is kept for the same tree and made anew for
 * another.
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
#include "slave/fsval.h"

#define B VALIDATE_BLOCK

static void test_span(void **state)
{
	static const struct {
		uint64_t at, len, first, n;
	} cases[] = {
		{ 0, B, 0, 1 },         { 0, B - 1, 0, 0 },
		{ 100, 2 * B, 1, 1 },   { B, 2 * B, 1, 2 },
		{ 0, 0, 0, 0 },         { B - 1, B + 1, 1, 1 },
		{ 3 * B, 5 * B, 3, 5 }, { 3 * B + 1, B, 4, 0 },
		{ 5 * B - 1, 1, 5, 0 }, { 0, 10000, 0, 2 },
	};
	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		uint64_t first = 99;

		assert_int_equal(fsval_span(cases[c].at, cases[c].len, &first),
				 cases[c].n);
		if (cases[c].n)
			assert_int_equal(first, cases[c].first);
	}
}

static void test_file_id(void **state)
{
	(void)state;
	assert_int_equal(fsval_file_id("fsd1", "vdb.1_1.dir/vdb_f0001.file"),
			 validate_id("fsd1/vdb.1_1.dir/vdb_f0001.file"));
	assert_int_not_equal(fsval_file_id("fsd1",
					   "vdb.1_1.dir/vdb_f0001.file"),
			     fsval_file_id("fsd1",
					   "vdb.1_1.dir/vdb_f0002.file"));
	assert_int_not_equal(fsval_file_id("fsd1",
					   "vdb.1_1.dir/vdb_f0001.file"),
			     fsval_file_id("fsd2",
					   "vdb.1_1.dir/vdb_f0001.file"));
}

/* A tree of 4 files of 16k (4 blocks) and 10000 bytes (a tail block). */
static void tree(struct fsplan_tree *t, uint32_t no, uint32_t count)
{
	struct fstree_shape s;

	memset(&s, 0, sizeof(s));
	s.depth = 1;
	s.width = 2;
	s.files = 2;
	s.dist = FSTREE_DIST_BOTTOM;
	s.nsizes = 2;
	s.size[0] = 4 * B;
	s.pct[0] = 50;
	s.size[1] = 10000;
	s.pct[1] = 50;
	assert_int_equal(fsplan_tree_build(t, &s, no, count), 0);
}

struct fx {
	struct fsplan_tree t;
	struct fsval_map *list, *m;
	uint64_t f4;  /* a file of 4 blocks */
	uint64_t f10; /* a 10000-byte one */
	unsigned char *buf, *old;
};

static int setup(void **state)
{
	struct fx *x = calloc(1, sizeof(*x));

	tree(&x->t, 0, 0);
	assert_int_equal(fsval_get(&x->list, "fsd1", "/a", &x->t, 0, 0, &x->m),
			 0);
	x->f4 = x->f10 = UINT64_MAX;
	for (uint64_t f = 0; f < x->t.nfiles; f++) {
		if (x->t.file_size[f] == 4 * B && x->f4 == UINT64_MAX)
			x->f4 = f;
		if (x->t.file_size[f] == 10000 && x->f10 == UINT64_MAX)
			x->f10 = f;
	}
	assert_true(x->f4 != UINT64_MAX && x->f10 != UINT64_MAX);
	x->buf = calloc(1, 4 * B);
	x->old = calloc(1, 4 * B);
	for (size_t i = 0; i < 4 * B; i++)
		x->buf[i] = (unsigned char)(i * 7 + 1);
	*state = x;
	return 0;
}

static int teardown(void **state)
{
	struct fx *x = *state;

	fsval_free_all(&x->list);
	assert_null(x->list);
	fsplan_tree_free(&x->t);
	free(x->buf);
	free(x->old);
	free(x);
	return 0;
}

/* Write len bytes at at of file f from x->buf (came back with got). */
static void put(struct fx *x, uint64_t f, uint64_t at, uint64_t len,
		int64_t got)
{
	fsval_stamp(x->m, f, x->buf, at, len, 0x1234, 42);
	fsval_wrote(x->m, f, at, len, got);
}

static uint8_t gen(const struct fx *x, uint64_t f, uint64_t b)
{
	return x->m->gen[x->m->base[f] + b];
}

static void test_write_read(void **state)
{
	struct fx *x = *state;
	uint64_t v0;

	put(x, x->f4, 0, 4 * B, 4 * B);
	assert_int_equal(atomic_load(&x->m->written), 4);
	for (int b = 0; b < 4; b++)
		assert_int_equal(gen(x, x->f4, (uint64_t)b), 1);
	v0 = atomic_load(&x->m->verified);
	assert_int_equal(fsval_verify(x->m, x->f4, x->buf, 0, 4 * B), 0);
	assert_int_equal(atomic_load(&x->m->verified) - v0, 4);
	/* A read of part of the file: its whole blocks only. */
	assert_int_equal(fsval_verify(x->m, x->f4, x->buf + B, B, 2 * B), 0);
	assert_int_equal(atomic_load(&x->m->verified) - v0, 6);

	/* One byte changed in block 2: corrupt, at 8192, expecting 1. */
	x->buf[2 * B + 777] ^= 0x5a;
	assert_int_equal(fsval_verify(x->m, x->f4, x->buf, 0, 4 * B), 1);
	assert_int_equal(x->m->nbad, 1);
	assert_int_equal(x->m->bad[0].file, x->f4);
	assert_int_equal(x->m->bad[0].offset, 2 * B);
	assert_int_equal(x->m->bad[0].kind, VALIDATE_CORRUPT);
	assert_int_equal(x->m->bad[0].expect, 1);
	assert_int_equal(atomic_load(&x->m->mismatched), 1);
	assert_int_equal(atomic_load(&x->m->kinds[VALIDATE_CORRUPT]), 1);
	x->buf[2 * B + 777] ^= 0x5a;

	/* The same bytes read as another file's: misdirected. */
	put(x, x->f10, 0, 2 * B, 2 * B);
	put(x, x->f4, 0, 4 * B, 4 * B);
	assert_int_equal(fsval_verify(x->m, x->f10, x->buf, 0, 2 * B), 2);
	assert_int_equal(x->m->bad[1].kind, VALIDATE_MISDIRECTED);
	assert_int_equal(x->m->bad[1].found.sd, x->m->id[x->f4]);

	/* An older write of the block: lost. */
	memcpy(x->old, x->buf, 4 * B);
	put(x, x->f4, 0, 4 * B, 4 * B);
	assert_int_equal(gen(x, x->f4, 0), 3);
	assert_int_equal(fsval_verify(x->m, x->f4, x->old, 0, B), 1);
	assert_int_equal(x->m->bad[3].kind, VALIDATE_LOST);
	assert_int_equal(x->m->bad[3].expect, 3);
	assert_int_equal(x->m->bad[3].found.gen, 2);
}

static void test_forget(void **state)
{
	struct fx *x = *state;
	uint64_t v0;

	/* Failed: every block it touched is unknown. */
	put(x, x->f4, 0, 4 * B, 4 * B);
	put(x, x->f4, B, 2 * B, -EIO);
	assert_int_equal(gen(x, x->f4, 0), 1);
	assert_int_equal(gen(x, x->f4, 1), 0);
	assert_int_equal(gen(x, x->f4, 2), 0);
	assert_int_equal(gen(x, x->f4, 3), 1);
	/* Short: the whole blocks it wrote, the rest unknown. */
	put(x, x->f4, 0, 4 * B, B + 100);
	assert_int_equal(gen(x, x->f4, 0), 2);
	for (int b = 1; b < 4; b++)
		assert_int_equal(gen(x, x->f4, (uint64_t)b), 0);
	/* Unaligned: the partly written blocks at both ends unknown. */
	put(x, x->f4, 0, 4 * B, 4 * B);
	put(x, x->f4, 100, 2 * B, 2 * B);
	assert_int_equal(gen(x, x->f4, 0), 0);
	assert_int_equal(gen(x, x->f4, 1), 2);
	assert_int_equal(gen(x, x->f4, 2), 0);
	assert_int_equal(gen(x, x->f4, 3), 1);
	/* The tail block of a 10000-byte file is never keyed. */
	put(x, x->f10, 0, 10000, 10000);
	assert_int_equal(gen(x, x->f10, 0), 1);
	assert_int_equal(gen(x, x->f10, 1), 1);
	assert_int_equal(gen(x, x->f10, 2), 0);
	/* Forgotten blocks are not verified, whatever they hold. */
	fsval_forget(x->m, x->f10);
	memset(x->buf, 0, 4 * B);
	v0 = atomic_load(&x->m->verified);
	assert_int_equal(fsval_verify(x->m, x->f10, x->buf, 0, 10000), 0);
	assert_int_equal(atomic_load(&x->m->verified), v0);
	fsval_forget_all(x->m);
	assert_int_equal(fsval_verify(x->m, x->f4, x->buf, 0, 4 * B), 0);
	assert_int_equal(atomic_load(&x->m->verified), v0);
	assert_int_equal(atomic_load(&x->m->mismatched), 0);
}

static void test_get(void **state)
{
	struct fx *x = *state;
	struct fsplan_tree t2;
	struct fsval_map *m;

	put(x, x->f4, 0, 4 * B, 4 * B);
	/* The same tree: the same map, its keys kept. */
	assert_int_equal(fsval_get(&x->list, "fsd1", "/a", &x->t, 0, 0, &m), 0);
	assert_ptr_equal(m, x->m);
	/* Another fsd: another map. */
	assert_int_equal(fsval_get(&x->list, "fsd2", "/b", &x->t, 0, 0, &m), 0);
	assert_ptr_not_equal(m, x->m);
	/* Another share of the tree: nothing of the old map holds. */
	tree(&t2, 1, 2);
	assert_int_equal(fsval_get(&x->list, "fsd1", "/a", &t2, 1, 2, &m), 0);
	assert_int_equal(m->nfiles, t2.nfiles);
	for (uint64_t b = 0; b < m->base[m->nfiles]; b++)
		assert_int_equal(m->gen[b], 0);
	x->m = m;
	fsplan_tree_free(&t2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_span),
		cmocka_unit_test(test_file_id),
		cmocka_unit_test_setup_teardown(test_write_read, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_forget, setup, teardown),
		cmocka_unit_test_setup_teardown(test_get, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
