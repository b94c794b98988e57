/*
 * Unit tests for slave/fsplan.c, a file-system phase's decisions: the
 * tree as a slave sees it (every folder's parent, every file's folder,
 * number and size, shared=yes's share) against common/fstree.c's walk;
 * which operation may take which entry (the state bits); picks by
 * fileselect= (random, sequential wrapping, once ending); the state after
 * each operation; transfer sizes, the rdpct= mix, random offsets;
 * totalsize= and workingsetsize= subsets (Vdbench's draws, pinned from a
 * java.util.Random(0) written apart from lockstep's, in Python), picks
 * within them, and stopafter='s switch point; fileselect=(random,once),
 * fileio=(random,shared)'s busy counts and (sequential,delete)'s choice.
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
#include "slave/fsplan.h"

/* fsplan_pick_how() for one fileselect, a skew, a pair's destination. */
static int pick_sel(struct fsplan_tree *t, uint32_t op, uint32_t sel,
		    uint64_t *cursor, struct workload_rng *rng, uint64_t *i)
{
	struct fsplan_how h = { .op = op, .sel = sel };

	return fsplan_pick_how(t, NULL, &h, cursor, rng, i);
}

static int pick_skewed(struct fsplan_tree *t, uint32_t op, double midpoint,
		       uint64_t *cursor, struct workload_rng *rng, uint64_t *i)
{
	struct fsplan_how h = { .op = op,
				.sel = PROTO_FSEL_RANDOM,
				.midpoint = midpoint };

	return fsplan_pick_how(t, NULL, &h, cursor, rng, i);
}

static int pick_pair(struct fsplan_tree *s, struct fsplan_tree *d, uint32_t op,
		     uint32_t sel, double midpoint, uint64_t *cursor,
		     struct workload_rng *rng, uint64_t *i)
{
	struct fsplan_how h = { .op = op, .sel = sel, .midpoint = midpoint };

	return fsplan_pick_how(s, d, &h, cursor, rng, i);
}

static struct fstree_shape shape(uint32_t d, uint32_t w, uint32_t f,
				 enum fstree_dist dist)
{
	struct fstree_shape s;

	memset(&s, 0, sizeof(s));
	s.depth = d;
	s.width = w;
	s.files = f;
	s.dist = dist;
	s.nsizes = 2;
	s.size[0] = 4096;
	s.pct[0] = 50;
	s.size[1] = 65536;
	s.pct[1] = 50;
	return s;
}

/* The tree matches fstree's walk entry for entry, shared or not. */
static void test_tree_matches_walk(void **state)
{
	static const struct {
		uint32_t d, w, f, dist, no, count;
	} cases[] = {
		{ 1, 1, 1, 0, 0, 0 }, { 2, 2, 3, 0, 0, 0 },
		{ 3, 3, 2, 0, 0, 1 }, { 3, 2, 2, 1, 0, 0 },
		{ 2, 3, 5, 0, 1, 3 }, { 2, 3, 5, 1, 2, 3 },
		{ 4, 2, 1, 0, 0, 2 },
	};
	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct fstree_shape sh = shape(cases[c].d, cases[c].w,
					       cases[c].f, cases[c].dist);
		struct fsplan_tree t;
		struct fstree_iter it;
		static struct fstree_entry e;
		char path[FSTREE_PATH_MAX];
		uint32_t d = 0;
		uint64_t f = 0;

		assert_int_equal(fsplan_tree_build(&t, &sh, cases[c].no,
						   cases[c].count),
				 0);
		fstree_iter_init(&it, &sh);
		if (cases[c].count > 1)
			fstree_iter_share(&it, cases[c].no, cases[c].count);
		while (fstree_next(&it, &e)) {
			if (e.is_dir) {
				const char *p = fsplan_dir_path(&t, d);
				const char *slash = strrchr(p, '/');

				assert_string_equal(p, e.path);
				if (!slash) {
					assert_int_equal(t.dir_up[d],
							 UINT32_MAX);
				} else {
					const char *up =
						fsplan_dir_path(&t,
								t.dir_up[d]);

					assert_int_equal(strlen(up),
							 (size_t)(slash - p));
					assert_memory_equal(up, p, strlen(up));
				}
				d++;
				continue;
			}
			assert_int_equal(fsplan_file_path(&t, f, path,
							  sizeof(path)),
					 0);
			assert_string_equal(path, e.path);
			assert_int_equal(t.file_size[f], e.size);
			f++;
		}
		assert_int_equal(t.ndirs, d);
		assert_int_equal(t.nfiles, f);
		fsplan_tree_free(&t);
	}
}

/* A small tree: depth 2, width 2, 2 files in each of the 4 leaves. */
static void small(struct fsplan_tree *t)
{
	struct fstree_shape sh = shape(2, 2, 2, FSTREE_DIST_BOTTOM);

	assert_int_equal(fsplan_tree_build(t, &sh, 0, 0), 0);
	assert_int_equal(t->ndirs, 6);
	assert_int_equal(t->nfiles, 8);
}

static void test_ok(void **state)
{
	struct fsplan_tree t;
	uint32_t leaf;

	(void)state;
	small(&t);
	leaf = t.file_dir[0];
	/* Nothing exists: only mkdir of a top folder, nothing else. */
	assert_true(fsplan_ok(&t, PROTO_FSOP_MKDIR, 0));
	assert_false(fsplan_ok(&t, PROTO_FSOP_MKDIR, leaf));
	assert_false(fsplan_ok(&t, PROTO_FSOP_RMDIR, 0));
	assert_false(fsplan_ok(&t, PROTO_FSOP_CREATE, 0));
	assert_false(fsplan_ok(&t, PROTO_FSOP_READ, 0));
	/* Folders made: create, mkdir refused, rmdir of an empty one. */
	for (uint32_t d = 0; d < t.ndirs; d++)
		fsplan_set_dir(&t, d, 1);
	assert_true(fsplan_ok(&t, PROTO_FSOP_CREATE, 0));
	assert_false(fsplan_ok(&t, PROTO_FSOP_MKDIR, 0));
	assert_false(fsplan_ok(&t, PROTO_FSOP_RMDIR, t.dir_up[leaf]));
	assert_true(fsplan_ok(&t, PROTO_FSOP_RMDIR, leaf));
	/* A file: every file op but create; its folder not empty. */
	fsplan_set_file(&t, 0, 1);
	assert_int_equal(t.dkids[leaf], 1);
	for (uint32_t op = 0; op < PROTO_FSOP_MAX; op++)
		if (!fsplan_op_dirs(op))
			assert_int_equal(fsplan_ok(&t, op, 0),
					 op != PROTO_FSOP_CREATE);
	assert_false(fsplan_ok(&t, PROTO_FSOP_RMDIR, leaf));
	/* Busy: nothing. */
	fsplan_bit_set(t.fbusy, 0, 1);
	assert_false(fsplan_ok(&t, PROTO_FSOP_READ, 0));
	fsplan_tree_free(&t);
}

static void test_pick(void **state)
{
	struct fsplan_tree t;
	struct workload_rng rng;
	uint64_t cur = 0, i, seen = 0;

	(void)state;
	workload_rng_seed(&rng, 42);
	small(&t);
	for (uint32_t d = 0; d < t.ndirs; d++)
		fsplan_set_dir(&t, d, 1);
	/* No file: a read finds none, once is done at once. */
	assert_int_equal(pick_sel(&t, PROTO_FSOP_READ, PROTO_FSEL_RANDOM, &cur,
				  &rng, &i),
			 FSPLAN_NONE);
	assert_int_equal(pick_sel(&t, PROTO_FSOP_READ, PROTO_FSEL_ONCE, &cur,
				  &rng, &i),
			 FSPLAN_DONE);
	/* One file (5): random finds it, and it is then busy. */
	fsplan_set_file(&t, 5, 1);
	assert_int_equal(pick_sel(&t, PROTO_FSOP_READ, PROTO_FSEL_RANDOM, &cur,
				  &rng, &i),
			 FSPLAN_PICKED);
	assert_int_equal(i, 5);
	assert_int_equal(pick_sel(&t, PROTO_FSOP_READ, PROTO_FSEL_RANDOM, &cur,
				  &rng, &i),
			 FSPLAN_NONE);
	fsplan_done(&t, PROTO_FSOP_READ, 5, 0);
	/* Sequential creates go in order and wrap past the missing. */
	cur = 0;
	for (uint64_t k = 0; k < 7; k++) {
		assert_int_equal(pick_sel(&t, PROTO_FSOP_CREATE, PROTO_FSEL_SEQ,
					  &cur, &rng, &i),
				 FSPLAN_PICKED);
		assert_int_equal(i, k < 5 ? k : k + 1);
		fsplan_done(&t, PROTO_FSOP_CREATE, i, 0);
	}
	assert_int_equal(pick_sel(&t, PROTO_FSOP_CREATE, PROTO_FSEL_SEQ, &cur,
				  &rng, &i),
			 FSPLAN_NONE);
	/* Sequential reads wrap; once reads each file once, then done. */
	cur = 6;
	assert_int_equal(pick_sel(&t, PROTO_FSOP_READ, PROTO_FSEL_SEQ, &cur,
				  &rng, &i),
			 FSPLAN_PICKED);
	fsplan_done(&t, PROTO_FSOP_READ, i, 0);
	assert_int_equal(pick_sel(&t, PROTO_FSOP_READ, PROTO_FSEL_SEQ, &cur,
				  &rng, &i),
			 FSPLAN_PICKED);
	assert_int_equal(i, 7);
	fsplan_done(&t, PROTO_FSOP_READ, i, 0);
	assert_int_equal(pick_sel(&t, PROTO_FSOP_READ, PROTO_FSEL_SEQ, &cur,
				  &rng, &i),
			 FSPLAN_PICKED);
	assert_int_equal(i, 0);
	fsplan_done(&t, PROTO_FSOP_READ, i, 0);
	cur = 0;
	while (pick_sel(&t, PROTO_FSOP_READ, PROTO_FSEL_ONCE, &cur, &rng, &i) ==
	       FSPLAN_PICKED) {
		seen |= UINT64_C(1) << i;
		fsplan_done(&t, PROTO_FSOP_READ, i, 0);
	}
	assert_int_equal(seen, 0xff);
	assert_int_equal(pick_sel(&t, PROTO_FSOP_READ, PROTO_FSEL_ONCE, &cur,
				  &rng, &i),
			 FSPLAN_DONE);
	fsplan_tree_free(&t);
}

/* Pick entry i for op (it must be the next that may take it), do it. */
static void take_done(struct fsplan_tree *t, uint32_t op, uint64_t i, int err)
{
	struct workload_rng rng;
	uint64_t cur = i, got = UINT64_MAX;

	workload_rng_seed(&rng, 1);
	assert_int_equal(pick_sel(t, op, PROTO_FSEL_SEQ, &cur, &rng, &got),
			 FSPLAN_PICKED);
	assert_int_equal(got, i);
	fsplan_done(t, op, i, err);
}

/* Each operation's effect on the bits, and errors that correct them. */
static void test_done(void **state)
{
	struct fsplan_tree t;
	uint32_t leaf;

	(void)state;
	small(&t);
	leaf = t.file_dir[0];
	take_done(&t, PROTO_FSOP_MKDIR, t.dir_up[leaf], 0);
	take_done(&t, PROTO_FSOP_MKDIR, leaf, -EEXIST);
	assert_true(fsplan_bit(t.dexist, leaf));
	assert_int_equal(t.dkids[t.dir_up[leaf]], 1);
	take_done(&t, PROTO_FSOP_CREATE, 0, 0);
	take_done(&t, PROTO_FSOP_CREATE, 1, -EACCES);
	assert_true(fsplan_bit(t.fexist, 0));
	/* A create in flight keeps rmdir off its folder. */
	{
		struct workload_rng rng;
		uint64_t cur = 2, got;

		workload_rng_seed(&rng, 1);
		assert_int_equal(pick_sel(&t, PROTO_FSOP_CREATE, PROTO_FSEL_SEQ,
					  &cur, &rng, &got),
				 FSPLAN_PICKED);
		fsplan_done(&t, PROTO_FSOP_DELETE, 0, 0);
		assert_false(fsplan_ok(&t, PROTO_FSOP_RMDIR, leaf));
		fsplan_done(&t, PROTO_FSOP_CREATE, got, -EACCES);
		assert_true(fsplan_ok(&t, PROTO_FSOP_RMDIR, leaf));
		fsplan_set_file(&t, 0, 1);
	}
	assert_false(fsplan_bit(t.fexist, 1));
	assert_int_equal(t.dkids[leaf], 1);
	/* A read that finds the file gone: it is gone. */
	take_done(&t, PROTO_FSOP_READ, 0, -ENOENT);
	assert_false(fsplan_bit(t.fexist, 0));
	assert_int_equal(t.dkids[leaf], 0);
	take_done(&t, PROTO_FSOP_CREATE, 0, 0);
	take_done(&t, PROTO_FSOP_DELETE, 0, 0);
	assert_false(fsplan_bit(t.fexist, 0));
	take_done(&t, PROTO_FSOP_RMDIR, leaf, 0);
	assert_false(fsplan_bit(t.dexist, leaf));
	assert_int_equal(t.dkids[t.dir_up[leaf]], 0);
	fsplan_tree_free(&t);
}

/*
 * copy and move: file i of s to file i of d. Each row: whether the source
 * and destination exist and are busy, whether d's folder exists; what the
 * pair may do; then an op's result and what exists after.
 */
static void test_pair(void **state)
{
	static const struct {
		int sx, sb, dx, db, dir, ok;
		uint32_t op;
		int err, dst_now, sx_after, dx_after;
	} cases[] = {
		/* A copy onto a missing or an existing file. */
		{ 1, 0, 0, 0, 1, 1, PROTO_FSOP_COPY, 0, 1, 1, 1 },
		{ 1, 0, 1, 0, 1, 1, PROTO_FSOP_COPY, 0, 1, 1, 1 },
		/* A move: the source is gone. */
		{ 1, 0, 1, 0, 1, 1, PROTO_FSOP_MOVE, 0, 1, 0, 1 },
		/* A source that vanished (ENOENT), the destination removed. */
		{ 1, 0, 1, 0, 1, 1, PROTO_FSOP_COPY, -ENOENT, 0, 0, 0 },
		/* A move that failed otherwise keeps the source. */
		{ 1, 0, 0, 0, 1, 1, PROTO_FSOP_MOVE, -EXDEV, 0, 1, 0 },
		/* Not taken: no source, a busy one, a busy destination, no
		   destination folder. */
		{ 0, 0, 0, 0, 1, 0, PROTO_FSOP_COPY, 0, 0, 0, 0 },
		{ 1, 1, 0, 0, 1, 0, PROTO_FSOP_COPY, 0, 0, 1, 0 },
		{ 1, 0, 0, 1, 1, 0, PROTO_FSOP_MOVE, 0, 0, 1, 0 },
		{ 1, 0, 0, 0, 0, 0, PROTO_FSOP_COPY, 0, 0, 1, 0 },
	};
	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct fstree_shape sh = shape(1, 2, 2, FSTREE_DIST_BOTTOM);
		struct fsplan_tree s, d;
		struct workload_rng rng;
		uint64_t cur = 0, i = 99;
		uint32_t f;

		workload_rng_seed(&rng, c + 1);
		assert_int_equal(fsplan_tree_build(&s, &sh, 0, 0), 0);
		assert_int_equal(fsplan_tree_build(&d, &sh, 0, 0), 0);
		assert_int_equal(fsplan_pair_ok(&s, &d), 0);
		assert_int_equal(fsplan_pair_ok(&s, &s), -EINVAL);
		for (uint32_t k = 0; k < s.ndirs; k++) {
			fsplan_set_dir(&s, k, 1);
			fsplan_set_dir(&d, k, cases[c].dir);
		}
		/* Only file 0 may be taken: every other source is missing. */
		fsplan_set_file(&s, 0, cases[c].sx);
		fsplan_set_file(&d, 0, cases[c].dx);
		fsplan_bit_set(s.fbusy, 0, cases[c].sb);
		fsplan_bit_set(d.fbusy, 0, cases[c].db);
		f = d.file_dir[0];
		assert_int_equal(fsplan_ok_pair(&s, &d, 0), cases[c].ok);
		assert_int_equal(pick_pair(&s, &d, cases[c].op, PROTO_FSEL_SEQ,
					   0, &cur, &rng, &i),
				 cases[c].ok ? FSPLAN_PICKED : FSPLAN_NONE);
		if (!cases[c].ok) {
			fsplan_tree_free(&s);
			fsplan_tree_free(&d);
			continue;
		}
		assert_int_equal(i, 0);
		assert_true(fsplan_bit(s.fbusy, 0) && fsplan_bit(d.fbusy, 0));
		/* The destination's folder holds it meanwhile: no rmdir. */
		assert_int_equal(d.dkids[f], (uint32_t)cases[c].dx + 1);
		assert_int_equal(fsplan_ok_pair(&s, &d, 0), 0);
		fsplan_done_pair(&s, &d, cases[c].op, 0, cases[c].err,
				 cases[c].dst_now);
		assert_false(fsplan_bit(s.fbusy, 0) || fsplan_bit(d.fbusy, 0));
		assert_int_equal(fsplan_bit(s.fexist, 0), cases[c].sx_after);
		assert_int_equal(fsplan_bit(d.fexist, 0), cases[c].dx_after);
		assert_int_equal(d.dkids[f], (uint32_t)cases[c].dx_after);
		fsplan_tree_free(&s);
		fsplan_tree_free(&d);
	}
}

static void test_xfer(void **state)
{
	struct proto_fwd w;
	struct fsplan_xfer x;
	struct workload_rng rng;
	unsigned small = 0, reads = 0, n = 100000;

	(void)state;
	memset(&w, 0, sizeof(w));
	w.op = PROTO_FSOP_READ;
	w.nxfer = 2;
	w.xfer[0].size = 4096;
	w.xfer[0].pct = 25;
	w.xfer[1].size = 65536;
	w.xfer[1].pct = 75;
	w.mixed = 1;
	w.rdpct = 70;
	fsplan_xfer_init(&x, &w);
	assert_int_equal(x.max, 65536);
	workload_rng_seed(&rng, 7);
	for (unsigned k = 0; k < n; k++) {
		small += fsplan_xfer_size(&x, &rng) == 4096;
		reads += fsplan_reads(&x, w.op, &rng);
	}
	assert_true(small > n / 4 - n / 100 && small < n / 4 + n / 100);
	assert_true(reads > n * 7 / 10 - n / 100 &&
		    reads < n * 7 / 10 + n / 100);
	/* Not mixed: the op says. */
	w.mixed = 0;
	w.op = PROTO_FSOP_WRITE;
	fsplan_xfer_init(&x, &w);
	assert_false(fsplan_reads(&x, w.op, &rng));
	/* Random transfers: aligned, inside, counted per block. */
	for (unsigned k = 0; k < 1000; k++) {
		uint64_t off = fsplan_random_offset(40960, 4096, &rng);

		assert_int_equal(off % 4096, 0);
		assert_true(off < 40960);
	}
	assert_int_equal(fsplan_random_offset(1000, 4096, &rng), 0);
	assert_int_equal(fsplan_random_count(1000, 4096), 1);
	assert_int_equal(fsplan_random_count(40960, 4096), 10);
	assert_int_equal(fsplan_random_count(UINT64_C(1) << 40, 4096),
			 FSPLAN_RANDOM_MAX);
}

/* One folder of n files of 4k. */
static void flat(struct fsplan_tree *t, uint32_t n)
{
	struct fstree_shape sh;

	memset(&sh, 0, sizeof(sh));
	sh.depth = sh.width = 1;
	sh.files = n;
	sh.nsizes = 1;
	sh.size[0] = 4096;
	sh.pct[0] = 100;
	assert_int_equal(fsplan_tree_build(t, &sh, 0, 0), 0);
}

/*
 * Vdbench's createUsedList draws: (int)(Random(0).nextDouble() * n), each
 * file once, until the bytes reach the size. The expected files were
 * computed with a java.util.Random of Python's (its first nextDouble()s
 * 0.730967787376657, 0.24053641567148587, 0.6374174253501083 are Java's).
 */
static void test_subset(void **state)
{
	static const uint64_t want100[] = { 24, 33, 38, 55, 59,
					    63, 73, 87, 94, 98 };
	uint64_t size[100], in[2], picked;

	(void)state;
	for (int k = 0; k < 100; k++)
		size[k] = 4096;
	memset(in, 0, sizeof(in));
	assert_int_equal(fstree_subset(size, 100, 10 * 4096, in, &picked), 0);
	assert_int_equal(picked, 10);
	for (uint64_t k = 0, j = 0; k < 100; k++) {
		int on = (int)((in[k >> 6] >> (k & 63)) & 1);

		assert_int_equal(on, j < 10 && want100[j] == k);
		j += on;
	}
	/* A size between files takes the file that passes it. */
	memset(in, 0, sizeof(in));
	assert_int_equal(fstree_subset(size, 10, 2 * 4096 + 1, in, &picked), 0);
	assert_int_equal(picked, 3);
	assert_int_equal(in[0], (1u << 2) | (1u << 6) | (1u << 7));
	/* Every byte: every file; one byte more: refused. */
	memset(in, 0, sizeof(in));
	assert_int_equal(fstree_subset(size, 10, 10 * 4096, in, &picked), 0);
	assert_int_equal(in[0], 0x3ff);
	memset(in, 0, sizeof(in));
	assert_int_equal(fstree_subset(size, 10, 10 * 4096 + 1, in, &picked),
			 -ERANGE);
}

/*
 * The tree's subsets: totalsize= the files a format makes, wss= drawn
 * from them with a Random(0) of its own; the fwds pick only within.
 */
static void test_tree_subsets(void **state)
{
	static const uint64_t total[] = {
		24, 33, 38, 55, 59, 63, 73, 87, 94, 98
	};
	struct fsplan_tree t;
	struct workload_rng rng;
	uint64_t cur = 0, i, seen[100] = { 0 };

	(void)state;
	flat(&t, 100);
	assert_int_equal(fsplan_tree_subsets(&t, 10 * 4096, 0), 0);
	assert_int_equal(t.nuse, 10);
	for (int k = 0; k < 10; k++) {
		assert_int_equal(t.use[k], total[k]);
		assert_true(fsplan_bit(t.total, total[k]));
	}
	fsplan_tree_free(&t);
	/* wss=12k of those: positions 2, 6 and 7 of the list (Random(0)). */
	flat(&t, 100);
	assert_int_equal(fsplan_tree_subsets(&t, 10 * 4096, 3 * 4096), 0);
	assert_int_equal(t.nuse, 3);
	assert_int_equal(t.use[0], 38);
	assert_int_equal(t.use[1], 73);
	assert_int_equal(t.use[2], 87);
	/* Every file exists: reads pick only the working set. */
	for (uint32_t d = 0; d < t.ndirs; d++)
		fsplan_set_dir(&t, d, 1);
	for (uint64_t f = 0; f < t.nfiles; f++)
		fsplan_set_file(&t, f, 1);
	workload_rng_seed(&rng, 7);
	for (int k = 0; k < 3000; k++) {
		assert_int_equal(pick_sel(&t, PROTO_FSOP_READ,
					  PROTO_FSEL_RANDOM, &cur, &rng, &i),
				 FSPLAN_PICKED);
		seen[i]++;
		fsplan_done(&t, PROTO_FSOP_READ, i, 0);
	}
	for (int f = 0; f < 100; f++)
		if (f == 38 || f == 73 || f == 87)
			assert_in_range(seen[f], 800, 1200);
		else
			assert_int_equal(seen[f], 0);
	/* Sequential: in the tree's order, wrapping, within the set. */
	cur = 0;
	for (int k = 0; k < 7; k++) {
		assert_int_equal(pick_sel(&t, PROTO_FSOP_READ, PROTO_FSEL_SEQ,
					  &cur, &rng, &i),
				 FSPLAN_PICKED);
		assert_int_equal(i, t.use[k % 3]);
		fsplan_done(&t, PROTO_FSOP_READ, i, 0);
	}
	fsplan_tree_free(&t);
	/* wss= alone is drawn from every file; too much is refused. */
	flat(&t, 100);
	assert_int_equal(fsplan_tree_subsets(&t, 0, 10 * 4096), 0);
	assert_null(t.total);
	assert_int_equal(t.nuse, 10);
	assert_int_equal(t.use[9], 98);
	fsplan_tree_free(&t);
	flat(&t, 10);
	assert_int_equal(fsplan_tree_subsets(&t, 11 * 4096, 0), -ERANGE);
	fsplan_tree_free(&t);
	flat(&t, 10);
	assert_int_equal(fsplan_tree_subsets(&t, 0, 0), 0);
	assert_null(t.use);
	fsplan_tree_free(&t);
}

/* stopafter='s switch point, and Vdbench's default without it. */
static void test_enough(void **state)
{
	struct proto_fwd w;

	(void)state;
	memset(&w, 0, sizeof(w));
	w.op = PROTO_FSOP_READ;
	w.stopafter = 3;
	assert_false(fsplan_enough(&w, 1 << 20, 4096, 2, 8192));
	assert_true(fsplan_enough(&w, 1 << 20, 4096, 3, 12288));
	w.fileio = PROTO_FILEIO_RANDOM; /* the same with random offsets */
	assert_false(fsplan_enough(&w, 1 << 20, 4096, 2, 8192));
	assert_true(fsplan_enough(&w, 1 << 20, 4096, 3, 12288));
	w.stopafter = 0;
	w.stopafter_pct = 25; /* a quarter of 1m: 262144 bytes */
	assert_false(fsplan_enough(&w, 1 << 20, 4096, 63, 262143));
	assert_true(fsplan_enough(&w, 1 << 20, 4096, 64, 262144));
	w.stopafter_pct = 0; /* random: one per xfersize block */
	assert_false(fsplan_enough(&w, 65536, 4096, 15, 15 * 4096));
	assert_true(fsplan_enough(&w, 65536, 4096, 16, 16 * 4096));
	w.fileio = PROTO_FILEIO_SEQ; /* sequential: the file's end */
	assert_false(fsplan_enough(&w, 65536, 4096, 1000, 1 << 30));
}

/*
 * fileselect=poisson/midpoint=N: Vdbench's distPoisson, an exponential of
 * mean n/midpoint folded mod n, so P(k < K) = (1 - e^(-K m/n)) /
 * (1 - e^(-m)): with midpoint 3 about 66% of the picks in the first third
 * of 100 files, 86% with midpoint 6; a fixed seed, 200,000 draws (the
 * shares within 1%). Picks stay in the working set.
 */
static void test_poisson(void **state)
{
	static const struct {
		double m;
		uint64_t n, k;
	} cases[] = { { 3, 100, 33 },
		      { 6, 100, 33 },
		      { 3, 1000, 100 },
		      { 0.5, 100, 50 } };
	struct workload_rng rng;
	struct fsplan_tree t;
	uint64_t cur = 0, i, seen[100] = { 0 };

	(void)state;
	workload_rng_seed(&rng, 12345);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		double m = cases[c].m, n = (double)cases[c].n, below = 0, want;

		for (int d = 0; d < 200000; d++) {
			uint64_t v = fsplan_poisson(&rng, cases[c].n, m);

			assert_true(v < cases[c].n);
			below += v < cases[c].k;
		}
		want = (1 - exp(-(double)cases[c].k * m / n)) / (1 - exp(-m));
		if (fabs(below / 200000 - want) > 0.01)
			fail_msg("midpoint %g: %.4f below %llu, expected %.4f",
				 m, below / 200000,
				 (unsigned long long)cases[c].k, want);
	}
	assert_int_equal(fsplan_poisson(&rng, 0, 3), 0);
	/* Within a working set: its first files most. */
	flat(&t, 100);
	assert_int_equal(fsplan_tree_subsets(&t, 0, 10 * 4096), 0);
	for (uint32_t d = 0; d < t.ndirs; d++)
		fsplan_set_dir(&t, d, 1);
	for (uint64_t f = 0; f < t.nfiles; f++)
		fsplan_set_file(&t, f, 1);
	for (int k = 0; k < 20000; k++) {
		assert_int_equal(pick_skewed(&t, PROTO_FSOP_READ, 3, &cur, &rng,
					     &i),
				 FSPLAN_PICKED);
		seen[i]++;
		fsplan_done(&t, PROTO_FSOP_READ, i, 0);
	}
	/* The set: 24, 33, ... 98 (test_tree_subsets): 24 gets 1-e^-0.3
	 * over 1-e^-3 of the picks, 27%; 98 e^-2.7 times that, 1.8%. */
	assert_in_range(seen[24], 5000, 5800);
	assert_in_range(seen[98], 250, 500);
	for (int f = 0; f < 24; f++)
		assert_int_equal(seen[f], 0);
	fsplan_tree_free(&t);
}

/* A tree of shape(2, 3, 50): 9 leaves of 50 files, all existing. */
static void wide(struct fsplan_tree *t)
{
	struct fstree_shape sh = shape(2, 3, 50, FSTREE_DIST_BOTTOM);

	assert_int_equal(fsplan_tree_build(t, &sh, 0, 0), 0);
	assert_int_equal(t->nfiles, 450);
	for (uint32_t d = 0; d < t->ndirs; d++)
		fsplan_set_dir(t, d, 1);
	for (uint64_t f = 0; f < t->nfiles; f++)
		fsplan_set_file(t, f, 1);
}

/*
 * fileselect=(random,once): every file exactly once, not in the tree's
 * order, then done (and done again); a file busy when drawn is skipped
 * for good (Vdbench's isSelected), counted in the pass; within a working
 * set only its files.
 */
static void test_random_once(void **state)
{
	struct fsplan_tree t;
	struct workload_rng rng;
	uint64_t cur = 0, c2 = 0, i, n, picks = 0, inorder = 0, prev = 0;
	uint64_t *seen;
	unsigned char *got;
	struct fsplan_how h = { .op = PROTO_FSOP_READ,
				.sel = PROTO_FSEL_RANDOM_ONCE };

	(void)state;
	workload_rng_seed(&rng, 7);
	wide(&t);
	n = fsplan_entries(&t, PROTO_FSOP_READ);
	assert_int_equal(n, 450);
	seen = calloc(n / 64 + 1, 8);
	got = calloc(n, 1);
	assert_non_null(seen);
	assert_non_null(got);
	h.seen = seen;
	while (fsplan_pick_how(&t, NULL, &h, &cur, &rng, &i) == FSPLAN_PICKED) {
		assert_true(i < n);
		assert_int_equal(got[i], 0);
		got[i] = 1;
		inorder += picks && i == prev + 1;
		prev = i;
		picks++;
		fsplan_done(&t, PROTO_FSOP_READ, i, 0);
	}
	assert_int_equal(picks, n);
	assert_int_equal(cur, n);
	/* Random, not the sequential pass: few neighbours in a row. */
	assert_true(inorder < 20);
	assert_int_equal(fsplan_pick_how(&t, NULL, &h, &cur, &rng, &i),
			 FSPLAN_DONE);

	/* A busy file drawn is skipped, and the pass still ends. */
	memset(seen, 0, (n / 64 + 1) * 8);
	cur = 0;
	picks = 0;
	assert_int_equal(pick_sel(&t, PROTO_FSOP_READ, PROTO_FSEL_SEQ, &c2,
				  &rng, &i),
			 FSPLAN_PICKED); /* file 0, held */
	assert_int_equal(i, 0);
	while (fsplan_pick_how(&t, NULL, &h, &cur, &rng, &i) == FSPLAN_PICKED) {
		assert_true(i != 0);
		picks++;
		fsplan_done(&t, PROTO_FSOP_READ, i, 0);
	}
	assert_int_equal(picks, n - 1);
	assert_int_equal(cur, n);
	fsplan_done(&t, PROTO_FSOP_READ, 0, 0);
	fsplan_tree_free(&t);
	free(seen);
	free(got);

	/* Within a working set: each of its files once, no other. */
	wide(&t);
	assert_int_equal(fsplan_tree_subsets(&t, 0, 40 * 4096), 0);
	n = fsplan_entries(&t, PROTO_FSOP_READ);
	assert_int_equal(n, t.nuse);
	assert_true(n > 0 && n < t.nfiles);
	seen = calloc(n / 64 + 1, 8);
	got = calloc(t.nfiles, 1);
	assert_non_null(seen);
	assert_non_null(got);
	h.seen = seen;
	cur = 0;
	picks = 0;
	while (fsplan_pick_how(&t, NULL, &h, &cur, &rng, &i) == FSPLAN_PICKED) {
		assert_int_equal(got[i], 0);
		got[i] = 1;
		picks++;
		fsplan_done(&t, PROTO_FSOP_READ, i, 0);
	}
	assert_int_equal(picks, n);
	for (uint64_t k = 0; k < n; k++)
		assert_int_equal(got[t.use[k]], 1);
	fsplan_tree_free(&t);
	free(seen);
	free(got);
}

/*
 * fileio=(random,shared): a second shared pick takes a file shared picks
 * hold (one file, four holders: busy until the last is done); a pick
 * that does not share does not, nor does a shared one take a file held
 * alone (a delete's).
 */
static void test_shared(void **state)
{
	struct fsplan_tree t;
	struct workload_rng rng;
	uint64_t cur = 0, i;
	struct fsplan_how sh = { .op = PROTO_FSOP_READ,
				 .sel = PROTO_FSEL_SEQ,
				 .shared = 1 };
	struct fsplan_how alone = { .op = PROTO_FSOP_READ,
				    .sel = PROTO_FSEL_SEQ };
	struct fstree_shape one = shape(1, 1, 1, FSTREE_DIST_BOTTOM);

	(void)state;
	workload_rng_seed(&rng, 3);
	assert_int_equal(fsplan_tree_build(&t, &one, 0, 0), 0);
	assert_int_equal(t.nfiles, 1);
	fsplan_set_dir(&t, 0, 1);
	fsplan_set_file(&t, 0, 1);
	assert_int_equal(fsplan_tree_sharing(&t), 0);
	for (int k = 0; k < 4; k++) {
		assert_int_equal(fsplan_pick_how(&t, NULL, &sh, &cur, &rng, &i),
				 FSPLAN_PICKED);
		assert_int_equal(i, 0);
	}
	assert_int_equal(t.fshare[0], 4);
	/* Not shared: the busy file is not for it. */
	assert_int_equal(fsplan_pick_how(&t, NULL, &alone, &cur, &rng, &i),
			 FSPLAN_NONE);
	assert_int_equal(pick_sel(&t, PROTO_FSOP_DELETE, PROTO_FSEL_SEQ, &cur,
				  &rng, &i),
			 FSPLAN_NONE);
	for (int k = 0; k < 3; k++) {
		fsplan_done(&t, PROTO_FSOP_READ, 0, 0);
		assert_true(fsplan_bit(t.fbusy, 0));
	}
	fsplan_done(&t, PROTO_FSOP_READ, 0, 0);
	assert_false(fsplan_bit(t.fbusy, 0));
	assert_int_equal(t.fshare[0], 0);
	/* Held alone (a delete): a shared pick waits too. */
	assert_int_equal(pick_sel(&t, PROTO_FSOP_DELETE, PROTO_FSEL_SEQ, &cur,
				  &rng, &i),
			 FSPLAN_PICKED);
	assert_int_equal(fsplan_pick_how(&t, NULL, &sh, &cur, &rng, &i),
			 FSPLAN_NONE);
	fsplan_done(&t, PROTO_FSOP_DELETE, 0, 0);
	assert_false(fsplan_bit(t.fexist, 0));
	assert_false(fsplan_bit(t.fbusy, 0));
	/* Missing: a shared read takes nothing. */
	assert_int_equal(fsplan_pick_how(&t, NULL, &sh, &cur, &rng, &i),
			 FSPLAN_NONE);
	/* A shared write and a shared read hold one file together. */
	fsplan_set_file(&t, 0, 1);
	sh.op = PROTO_FSOP_WRITE;
	assert_int_equal(fsplan_pick_how(&t, NULL, &sh, &cur, &rng, &i),
			 FSPLAN_PICKED);
	sh.op = PROTO_FSOP_READ;
	assert_int_equal(fsplan_pick_how(&t, NULL, &sh, &cur, &rng, &i),
			 FSPLAN_PICKED);
	/* A write that found the file gone: missing once both are done. */
	fsplan_done(&t, PROTO_FSOP_WRITE, 0, -ENOENT);
	assert_true(fsplan_bit(t.fbusy, 0));
	fsplan_done(&t, PROTO_FSOP_READ, 0, 0);
	assert_false(fsplan_bit(t.fbusy, 0));
	assert_false(fsplan_bit(t.fexist, 0));
	fsplan_tree_free(&t);
}

/*
 * fileio=(sequential,delete): a write deletes a whole file first; with
 * stopafter='s resume, a file part written since is appended to; no
 * other fileio, operation or mix deletes.
 */
static void test_delete_first(void **state)
{
	struct proto_fwd w;
	uint64_t at;

	(void)state;
	memset(&w, 0, sizeof(w));
	w.op = PROTO_FSOP_WRITE;
	w.fileio = PROTO_FILEIO_SEQ_DELETE;
	assert_true(fsplan_delete_first(&w, NULL, 65536));
	at = 0;
	assert_true(fsplan_delete_first(&w, &at, 65536));
	at = 65536;
	assert_true(fsplan_delete_first(&w, &at, 65536));
	at = 8192;
	assert_false(fsplan_delete_first(&w, &at, 65536));
	w.fileio = PROTO_FILEIO_SEQ;
	assert_false(fsplan_delete_first(&w, NULL, 65536));
	w.fileio = PROTO_FILEIO_SEQ_DELETE;
	w.op = PROTO_FSOP_READ;
	assert_false(fsplan_delete_first(&w, NULL, 65536));
	w.op = PROTO_FSOP_WRITE;
	w.mixed = 1;
	assert_false(fsplan_delete_first(&w, NULL, 65536));
	/* (random,shared) is random io: stopafter's default count. */
	memset(&w, 0, sizeof(w));
	w.op = PROTO_FSOP_READ;
	w.fileio = PROTO_FILEIO_RANDOM_SHARED;
	assert_true(fsplan_random_io(w.fileio));
	assert_false(fsplan_random_io(PROTO_FILEIO_SEQ_DELETE));
	assert_false(fsplan_enough(&w, 65536, 4096, 15, 15 * 4096));
	assert_true(fsplan_enough(&w, 65536, 4096, 16, 16 * 4096));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tree_matches_walk),
		cmocka_unit_test(test_ok),
		cmocka_unit_test(test_pick),
		cmocka_unit_test(test_done),
		cmocka_unit_test(test_pair),
		cmocka_unit_test(test_xfer),
		cmocka_unit_test(test_subset),
		cmocka_unit_test(test_tree_subsets),
		cmocka_unit_test(test_enough),
		cmocka_unit_test(test_poisson),
		cmocka_unit_test(test_random_once),
		cmocka_unit_test(test_shared),
		cmocka_unit_test(test_delete_first),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
