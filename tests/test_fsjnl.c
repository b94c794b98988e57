/*
 * Unit tests for slave/fsjnl.c, the journals of file-system key maps:
 * the header names the fsd, the slave, the share and the tree (a journal
 * of another of each is refused, as is a cut or foreign header); a map
 * journaled, freed and opened again holds the same keys; a file's forget
 * and a format's forget of the whole tree are kept; a write in flight
 * when the journal ended keeps both generations until a read of the
 * block settles which, whole (test_inflight); a journal that
 * cannot be written stops the write (its error sticks).
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "tests/cmocka_skip.h"
#include "slave/fsjnl.h"
#include "slave/fsval.h"

#define B VALIDATE_BLOCK

static char err[PROTO_TEXT_LEN];

/* A tree of 4 files of 16k (4 blocks) and 10000 bytes (a tail block). */
static void tree(struct fsplan_tree *t, uint64_t big)
{
	struct fstree_shape s;

	memset(&s, 0, sizeof(s));
	s.depth = 1;
	s.width = 2;
	s.files = 2;
	s.dist = FSTREE_DIST_BOTTOM;
	s.nsizes = 2;
	s.size[0] = big;
	s.pct[0] = 50;
	s.size[1] = 10000;
	s.pct[1] = 50;
	assert_int_equal(fsplan_tree_build(t, &s, 0, 0), 0);
}

struct fx {
	char dir[64], file[128], file2[128];
	struct fsplan_tree t, t2;
	unsigned char *buf;
};

static int setup(void **state)
{
	struct fx *x = calloc(1, sizeof(*x));

	snprintf(x->dir, sizeof(x->dir), "/tmp/test_fsjnl.XXXXXX");
	assert_non_null(mkdtemp(x->dir));
	snprintf(x->file, sizeof(x->file), "%s/fsd1.s1" FSJNL_SUFFIX, x->dir);
	snprintf(x->file2, sizeof(x->file2), "%s/fsd1.s2" FSJNL_SUFFIX, x->dir);
	tree(&x->t, 4 * B);
	tree(&x->t2, 8 * B);
	x->buf = calloc(1, 4 * B);
	*state = x;
	return 0;
}

static int teardown(void **state)
{
	struct fx *x = *state;

	unlink(x->file);
	unlink(x->file2);
	assert_int_equal(rmdir(x->dir), 0);
	fsplan_tree_free(&x->t);
	fsplan_tree_free(&x->t2);
	free(x->buf);
	free(x);
	return 0;
}

static struct fsval_map *open_ok(struct fx *x, struct fsval_map **list,
				 const struct fsplan_tree *t, const char *slave)
{
	struct fsval_map *m = NULL;
	int ret = fsval_open(list, "fsd1", "/a", t, 0, 0, x->dir, slave, &m,
			     err, sizeof(err));

	if (ret)
		print_error("fsval_open: %d %s\n", ret, err);
	assert_int_equal(ret, 0);
	return m;
}

static int open_err(struct fx *x, const char *fsd, const struct fsplan_tree *t,
		    const char *slave)
{
	struct fsval_map *list = NULL, *m = NULL;
	int ret = fsval_open(&list, fsd, "/a", t, 0, 0, x->dir, slave, &m, err,
			     sizeof(err));

	fsval_free_all(&list);
	return ret;
}

static void put(struct fsval_map *m, uint64_t f, uint64_t at, uint64_t len)
{
	static unsigned char buf[4 * B];

	assert_int_equal(fsval_stamp(m, f, buf, at, len, 0x1234, 42), 0);
	fsval_wrote(m, f, at, len, (int64_t)len);
}

static void test_header(void **state)
{
	struct fx *x = *state;
	struct fsval_map *list = NULL, *m, *m2 = NULL, *list2 = NULL;
	struct fsjnl_hdr h, c;

	m = open_ok(x, &list, &x->t, "s1");
	fsjnl_header(&h, m, "s1");
	assert_memory_equal(h.magic, FSJNL_MAGIC, 8);
	assert_int_equal(h.nfiles, x->t.nfiles);
	assert_int_equal(h.nblocks, m->base[m->nfiles]);
	c = h;
	assert_int_equal(fsjnl_check(&c, sizeof(c), m, "s1", "j", err,
				     sizeof(err)),
			 0);
	c = h;
	assert_int_equal(fsjnl_check(&c, sizeof(c) - 1, m, "s1", "j", err,
				     sizeof(err)),
			 -EINVAL);
	assert_string_equal(err,
			    "journal j: not a lockstep file-system journal");
	c = h;
	c.magic[7] = 'x';
	assert_int_equal(fsjnl_check(&c, sizeof(c), m, "s1", "j", err,
				     sizeof(err)),
			 -EINVAL);
	c = h;
	assert_int_equal(fsjnl_check(&c, sizeof(c), m, "s2", "j", err,
				     sizeof(err)),
			 -EINVAL);
	assert_string_equal(err,
			    "journal j belongs to slave s1, not s2 (copied or renamed?): refused");
	c = h;
	snprintf(c.fsd, sizeof(c.fsd), "fsd2");
	assert_int_equal(fsjnl_check(&c, sizeof(c), m, "s1", "j", err,
				     sizeof(err)),
			 -EINVAL);
	assert_string_equal(err,
			    "journal j belongs to fsd fsd2, not fsd1 (copied or renamed?): refused");
	c = h;
	c.share_count = 2;
	c.share_no = 1;
	assert_int_equal(fsjnl_check(&c, sizeof(c), m, "s1", "j", err,
				     sizeof(err)),
			 -EINVAL);
	/* Same files and blocks, another name of a file: another shape. */
	c = h;
	c.shape ^= 1;
	assert_int_equal(fsjnl_check(&c, sizeof(c), m, "s1", "j", err,
				     sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "of other file names or sizes"));
	/* Another tree: its header does not pass for this one. */
	assert_int_equal(fsval_get(&list2, "fsd1", "/a", &x->t2, 0, 0, &m2), 0);
	c = h;
	assert_int_equal(fsjnl_check(&c, sizeof(c), m2, "s1", "j", err,
				     sizeof(err)),
			 -EINVAL);
	assert_true(fsjnl_shape(m) != fsjnl_shape(m2));
	fsval_free_all(&list);
	fsval_free_all(&list2);
}

/* Journaled keys survive the map; forgets too. */
static void test_replay(void **state)
{
	struct fx *x = *state;
	struct fsval_map *list = NULL, *m;
	uint8_t *want;
	uint64_t nb, known;

	m = open_ok(x, &list, &x->t, "s1");
	nb = m->base[m->nfiles];
	put(m, 0, 0, 4 * B);
	put(m, 0, B, 2 * B);
	put(m, 1, 0, B);
	put(m, 2, 0, 4 * B);
	fsval_forget(m, 2);
	put(m, 3, 100, B); /* partial: forgotten, never claimed */
	known = fsval_known(m);
	assert_true(known > 0);
	want = malloc(nb);
	memcpy(want, m->gen, nb);
	fsval_free_all(&list);

	m = open_ok(x, &list, &x->t, "s1");
	assert_int_equal(m->inflight, 0);
	assert_memory_equal(m->gen, want, nb);
	assert_int_equal(fsval_known(m), known);
	/* Journals are refused for another slave, fsd or tree. */
	assert_int_equal(rename(x->file, x->file2), 0);
	assert_int_equal(open_err(x, "fsd1", &x->t, "s2"), -EINVAL);
	assert_non_null(strstr(err, "belongs to slave s1, not s2"));
	assert_int_equal(rename(x->file2, x->file), 0);
	assert_int_equal(open_err(x, "fsd1", &x->t2, "s1"), -EINVAL);
	assert_non_null(strstr(err, "is of a tree of"));
	/* A format forgets the whole tree: the journal starts afresh. */
	fsval_forget_all(m);
	fsval_free_all(&list);
	m = open_ok(x, &list, &x->t, "s1");
	assert_int_equal(fsval_known(m), 0);
	fsval_free_all(&list);
	free(want);
}

/*
 * Writes in flight when the journal ended (a crash): their blocks keep
 * both generations, and a read settles each against the content the test
 * put there. Blocks 1 and 2 of a file of 4 held generation 1 (bufA) and
 * were being rewritten as generation 2 (bufB):
 * - block 1 read back as generation 1, whole: the write did not land; the
 *   map keeps 1, journaled, not pending the next time;
 * - block 2 read back as generation 1 with a data byte flipped: a
 *   mismatch (an old header over damaged data is not a write that did not
 *   land), still pending;
 * - block 2 read back as generation 2, whole: the write landed;
 * - a block's first write in flight (nothing known before): anything may
 *   be there, and the map forgets it (Vdbench's pending first write).
 */
static void test_inflight(void **state)
{
	struct fx *x = *state;
	struct fsval_map *list = NULL, *m;
	static unsigned char a[4 * B], b[4 * B], bad[4 * B];
	uint64_t f = 0, f2;

	m = open_ok(x, &list, &x->t, "s1");
	while (m->base[f + 1] - m->base[f] < 4)
		f++;
	assert_int_equal(fsval_stamp(m, f, a, 0, 4 * B, 0x1234, 42), 0);
	fsval_wrote(m, f, 0, 4 * B, 4 * B);
	/* Its intents made durable, the write never came back. */
	assert_int_equal(fsval_stamp(m, f, b + B, B, 2 * B, 0x1234, 43), 0);
	memcpy(b, a, B);
	memcpy(b + 3 * B, a + 3 * B, B);
	fsval_free_all(&list);

	m = open_ok(x, &list, &x->t, "s1");
	assert_int_equal(m->inflight, 2);
	assert_int_equal(m->gen[m->base[f]], 1);
	assert_int_equal(m->gen[m->base[f] + 1], 2);
	assert_int_equal(m->gen[m->base[f] + 2], 2);
	assert_int_equal(m->gen[m->base[f] + 3], 1);
	assert_int_equal(fsval_known(m), 4 + 0);
	memcpy(bad, a, sizeof(bad));
	bad[2 * B + 100] ^= 0x40;
	assert_int_equal(fsval_verify(m, f, a, 0, 2 * B), 0);
	assert_int_equal(m->gen[m->base[f] + 1], 1);
	assert_int_equal(fsval_verify(m, f, bad + 2 * B, 2 * B, B), 1);
	assert_int_equal(atomic_load(&m->mismatched), 1);
	assert_int_equal(m->bad[0].offset, 2 * B);
	assert_int_equal(m->bad[0].expect, 2);
	assert_int_equal(m->gen[m->base[f] + 2], 2);
	assert_int_equal(atomic_load(&m->verified), 3);
	fsval_free_all(&list);

	/* Block 1 settled and journaled; block 2 still either. */
	m = open_ok(x, &list, &x->t, "s1");
	assert_int_equal(m->inflight, 1);
	assert_int_equal(m->gen[m->base[f] + 1], 1);
	memcpy(bad, a, sizeof(bad)); /* block 2 now as the write left it */
	memcpy(bad + 2 * B, b + 2 * B, B);
	assert_int_equal(fsval_verify(m, f, bad, 0, 4 * B), 0);
	assert_int_equal(m->gen[m->base[f] + 2], 2);
	bad[2 * B + 100] ^= 0x40;
	/* A first write in flight: nothing known before it. */
	f2 = f + 1;
	while (m->base[f2 + 1] - m->base[f2] < 1)
		f2++;
	assert_int_equal(fsval_stamp(m, f2, b, 0, B, 0x1234, 44), 0);
	fsval_free_all(&list);

	m = open_ok(x, &list, &x->t, "s1");
	assert_int_equal(m->inflight, 1);
	assert_int_equal(m->gen[m->base[f] + 2], 2);
	assert_int_equal(m->gen[m->base[f2]], 1);
	assert_int_equal(fsval_verify(m, f2, bad, 0, B), 0);
	assert_int_equal(m->gen[m->base[f2]], 0); /* forgotten */
	fsval_free_all(&list);
	m = open_ok(x, &list, &x->t, "s1");
	assert_int_equal(m->inflight, 0);
	assert_int_equal(fsval_known(m), 4);
	fsval_free_all(&list);
}

/* A journal that cannot be written: the write must not go out. */
static void test_full(void **state)
{
	struct fx *x = *state;
	struct fsval_map *list = NULL, *m;
	static unsigned char buf[4 * B];
	int full = open("/dev/full", O_WRONLY | O_CLOEXEC);

	if (full < 0)
		skip();
	m = open_ok(x, &list, &x->t, "s1");
	assert_true(dup2(full, m->jfd) == m->jfd);
	close(full);
	assert_int_equal(fsval_stamp(m, 0, buf, 0, B, 0x1234, 42), -ENOSPC);
	/* Sticky: every later stamp says so too. */
	assert_int_equal(fsval_stamp(m, 0, buf, 0, B, 0x1234, 42), -ENOSPC);
	assert_int_equal(fsjnl_sync(m), -ENOSPC);
	fsval_free_all(&list);
}

/* A cut, foreign or non-journal file is refused. */
static void test_foreign(void **state)
{
	struct fx *x = *state;
	FILE *f = fopen(x->file, "w");

	assert_non_null(f);
	for (int i = 0; i < 200; i++)
		fputc('x', f);
	fclose(f);
	assert_int_equal(open_err(x, "fsd1", &x->t, "s1"), -EINVAL);
	assert_non_null(strstr(err, "not a lockstep file-system journal"));
	/* Names that cannot be one file name never make a path. */
	assert_int_equal(open_err(x, "../x", &x->t, "s1"), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_header, setup, teardown),
		cmocka_unit_test_setup_teardown(test_replay, setup, teardown),
		cmocka_unit_test_setup_teardown(test_inflight, setup, teardown),
		cmocka_unit_test_setup_teardown(test_full, setup, teardown),
		cmocka_unit_test_setup_teardown(test_foreign, setup, teardown),
	};

	return ls_run_group(tests, NULL, NULL);
}
