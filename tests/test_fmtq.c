/*
 * Tests for slave/fmtq.c, the walk a format's threads share: the entries
 * and the file numbers it gives are the single walk's (totalsize=
 * subsets, shared=yes shares, format=directories), the level gate lets
 * an entry start only after every lower level is made, and with 8
 * threads every file is made once with its walk number, no folder or
 * file starts before the folders above it are done, and a failure stops
 * the walk and names its entry. Pure but for the threads: no file is
 * touched.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>
#include "slave/fmtq.h"

static struct fstree_shape shape(uint32_t depth, uint32_t width, uint32_t files)
{
	struct fstree_shape s;

	memset(&s, 0, sizeof(s));
	s.depth = depth;
	s.width = width;
	s.files = files;
	s.nsizes = 2;
	s.size[0] = 1000;
	s.pct[0] = 50;
	s.size[1] = 5000;
	s.pct[1] = 50;
	return s;
}

/* The single walk's k-th file of share no of count: its path. */
static void nth_file(const struct fstree_shape *s, uint32_t no, uint32_t count,
		     uint64_t k, char *path, uint64_t *size)
{
	struct fstree_iter it;
	struct fstree_entry e;
	uint64_t at = 0;

	fstree_iter_init(&it, s);
	if (count > 1)
		fstree_iter_share(&it, no, count);
	while (fstree_next(&it, &e)) {
		if (e.is_dir)
			continue;
		if (at++ == k) {
			strcpy(path, e.path);
			*size = e.size;
			return;
		}
	}
	fail_msg("no file %llu", (unsigned long long)k);
}

/*
 * The files a walk of share no of count gives (only: the subset): each
 * the single walk's file of its number, in order; how many.
 */
static uint64_t walk_files(const struct fstree_shape *s, uint32_t no,
			   uint32_t count, const uint64_t *only)
{
	struct fstree_entry e;
	struct fmtq q;
	uint64_t file, files = 0, last = 0;

	fmtq_init(&q, s, no, count, only, 0);
	while (fmtq_next(&q, &e, &file)) {
		char path[FSTREE_PATH_MAX];
		uint64_t size;

		if (e.is_dir)
			continue;
		assert_true(!files || file > last);
		assert_true(!only || ((only[file >> 6] >> (file & 63)) & 1));
		nth_file(s, no, count, file, path, &size);
		assert_string_equal(e.path, path);
		assert_int_equal(e.size, size);
		last = file;
		files++;
	}
	/* Every file of the share walked, numbered or skipped. */
	assert_true(q.files >= files);
	fmtq_destroy(&q);
	return files;
}

/* One walk, no thread: the single walk's entries and numbers. */
static void test_next(void **state)
{
	struct fstree_shape s = shape(2, 3, 4); /* 12 folders, 36 files */
	uint64_t only[1] = { 0 };
	struct fstree_entry e;
	struct fmtq q;
	uint64_t file, dirs = 0, files = 0, last = 0;

	(void)state;
	assert_int_equal(fstree_check(&s, NULL, NULL, 0), 0);
	/* Every entry: folders first, files numbered 0.. in order. */
	fmtq_init(&q, &s, 0, 0, NULL, 0);
	while (fmtq_next(&q, &e, &file)) {
		if (e.is_dir) {
			assert_int_equal(files, 0);
			assert_int_equal(fmtq_level(&e), e.level);
			assert_true(e.level >= last);
			last = e.level;
			dirs++;
			continue;
		}
		assert_int_equal(fmtq_level(&e), FMTQ_FILES);
		assert_int_equal(file, files);
		files++;
	}
	assert_int_equal(dirs, 12);
	assert_int_equal(files, 36);
	assert_int_equal(q.files, 36);
	fmtq_destroy(&q);
	/* totalsize=: files 3, 10 and 35 only, with their walk numbers. */
	only[0] = (1ull << 3) | (1ull << 10) | (1ull << 35);
	assert_int_equal(walk_files(&s, 0, 0, only), 3);
	/* shared=yes, share 1 of 3: its 12 files numbered 0..11. */
	assert_int_equal(walk_files(&s, 1, 3, NULL), 12);
	/* format=directories: the 12 folders, no file. */
	fmtq_init(&q, &s, 0, 0, NULL, 1);
	dirs = 0;
	while (fmtq_next(&q, &e, &file)) {
		assert_true(e.is_dir);
		dirs++;
	}
	assert_int_equal(dirs, 12);
	fmtq_destroy(&q);
}

/* The level gate: a lower or the same level, or nothing running. */
static void test_may_start(void **state)
{
	(void)state;
	assert_true(fmtq_may_start(0, 0, 1));
	assert_true(fmtq_may_start(1, 3, 1));
	assert_false(fmtq_may_start(1, 3, 2));
	assert_true(fmtq_may_start(1, 0, 2));
	assert_false(fmtq_may_start(3, 1, FMTQ_FILES));
	assert_true(fmtq_may_start(3, 0, FMTQ_FILES));
	assert_true(fmtq_may_start(FMTQ_FILES, 7, FMTQ_FILES));
}

#define NDIRS (4 + 16 + 64)
#define NFILES (64 * 5)

/* What the threads did: each entry's start and end in one sequence. */
struct seen {
	atomic_uint_fast64_t seq;
	uint64_t dir_start[NDIRS], dir_end[NDIRS];
	uint32_t dir_level[NDIRS];
	uint64_t file_start[NFILES];
	atomic_uint made[NFILES];
	char path[NFILES][64];
	const char *fail_at; /* an entry that fails, or NULL */
};

struct ctx {
	struct seen *seen;
	unsigned done;
};

static int make(void *arg, const struct fstree_entry *e, uint64_t file)
{
	struct ctx *c = arg;
	struct seen *sn = c->seen;
	uint64_t t = atomic_fetch_add(&sn->seq, 1);

	if (sn->fail_at && !strcmp(e->path, sn->fail_at))
		return -EIO;
	/* No cmocka assert off the main thread: a bad index fails. */
	if (e->is_dir ? e->index >= NDIRS : file >= NFILES)
		return -ERANGE;
	if (e->is_dir) {
		struct timespec ts = { 0, 20000 };

		sn->dir_start[e->index] = t;
		sn->dir_level[e->index] = e->level;
		/*
		 * A folder takes a while (a mkdir on ext4), so that threads
		 * waiting for its level wake while others finish: an entry a
		 * waiting thread held once went unmade while a file started.
		 */
		nanosleep(&ts, NULL);
		sn->dir_end[e->index] = atomic_fetch_add(&sn->seq, 1);
	} else {
		sn->file_start[file] = t;
		snprintf(sn->path[file], sizeof(sn->path[file]), "%s", e->path);
		atomic_fetch_add(&sn->made[file], 1);
	}
	c->done++;
	return 0;
}

/* 8 threads: each file once with its number, every level after the last. */
static void test_run(void **state)
{
	struct fstree_shape s = shape(3, 4, 5);
	struct seen *sn = calloc(1, sizeof(*sn));
	struct ctx c[8] = { 0 };
	char bad[FSTREE_PATH_MAX];
	struct fmtq q;
	unsigned total = 0;

	(void)state;
	assert_non_null(sn);
	for (int i = 0; i < 8; i++)
		c[i].seen = sn;
	assert_int_equal(fstree_check(&s, NULL, NULL, 0), 0);
	fmtq_init(&q, &s, 0, 0, NULL, 0);
	assert_int_equal(fmtq_run(&q, 8, make, c, sizeof(c[0]), bad,
				  sizeof(bad)),
			 0);
	assert_string_equal(bad, "");
	assert_int_equal(q.files, NFILES);
	fmtq_destroy(&q);
	for (int i = 0; i < 8; i++)
		total += c[i].done;
	assert_int_equal(total, NDIRS + NFILES);
	for (uint64_t k = 0; k < NFILES; k++) {
		char path[FSTREE_PATH_MAX];
		uint64_t size;

		assert_int_equal(atomic_load(&sn->made[k]), 1);
		nth_file(&s, 0, 0, k, path, &size);
		assert_string_equal(sn->path[k], path);
		/* Every folder was done before any file started. */
		for (int d = 0; d < NDIRS; d++)
			assert_true(sn->dir_end[d] < sn->file_start[k]);
	}
	/* A folder starts after every folder of a lower level ended. */
	for (int a = 0; a < NDIRS; a++)
		for (int b = 0; b < NDIRS; b++)
			if (sn->dir_level[b] < sn->dir_level[a])
				assert_true(sn->dir_end[b] < sn->dir_start[a]);
	free(sn);
}

/*
 * A thread that waits for a level holds no entry. Tree: one folder of
 * level 1 (L1), one of level 2 (L2), then files. The main thread takes
 * L1; a second thread asks for the next entry (L2) and waits; the main
 * thread ends L1 and asks again before that thread has run: it must get
 * L2 (or, if the other got it first, a file only once L2 is done). Once
 * a waiting thread drew L2 and held it, the main thread took a file at
 * once, before L2 was made: ENOENT on ext4.
 */
struct waiter {
	struct fmtq *q;
	atomic_int l2_done;
	atomic_int early; /* a file taken before L2 was done */
};

static void take_all(struct waiter *w)
{
	struct fstree_entry e;
	uint64_t file;

	while (fmtq_take(w->q, &e, &file)) {
		if (e.is_dir && e.level == 2)
			atomic_store(&w->l2_done, 1);
		else if (!e.is_dir && !atomic_load(&w->l2_done))
			atomic_store(&w->early, 1);
		fmtq_done(w->q, 0);
	}
}

static void *waiter_main(void *arg)
{
	take_all(arg);
	return NULL;
}

static void test_waiting_thread(void **state)
{
	struct fstree_shape s = shape(2, 1, 2);
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	struct fstree_entry e;
	struct waiter w = { 0 };
	struct fmtq q;
	uint64_t file;
	pthread_t t;

	(void)state;
	assert_int_equal(fstree_check(&s, NULL, NULL, 0), 0);
	fmtq_init(&q, &s, 0, 0, NULL, 0);
	w.q = &q;
	assert_int_equal(fmtq_take(&q, &e, &file), 1);
	assert_true(e.is_dir && e.level == 1);
	assert_int_equal(pthread_create(&t, NULL, waiter_main, &w), 0);
	nanosleep(&ts, NULL); /* it waits for L1 by now */
	assert_int_equal(fmtq_done(&q, 0), 0);
	take_all(&w);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(atomic_load(&w.l2_done), 1);
	assert_int_equal(atomic_load(&w.early), 0);
	assert_int_equal(q.files, 2);
	fmtq_destroy(&q);
}

/* A failure stops the walk and names the entry; 1 and 64 threads run. */
static void test_run_fail(void **state)
{
	struct fstree_shape s = shape(3, 4, 5);
	struct seen *sn = calloc(1, sizeof(*sn));
	struct ctx *c = calloc(FMTQ_THREADS_MAX, sizeof(*c));
	char bad[FSTREE_PATH_MAX];
	struct fmtq q;
	unsigned total = 0;

	(void)state;
	assert_non_null(sn);
	assert_non_null(c);
	for (unsigned i = 0; i < FMTQ_THREADS_MAX; i++)
		c[i].seen = sn;
	sn->fail_at = "vdb.1_2.dir/vdb.2_3.dir";
	fmtq_init(&q, &s, 0, 0, NULL, 0);
	assert_int_equal(fmtq_run(&q, 4, make, c, sizeof(c[0]), bad,
				  sizeof(bad)),
			 -EIO);
	assert_string_equal(bad, "vdb.1_2.dir/vdb.2_3.dir");
	fmtq_destroy(&q);
	/* No file was made: the failed level stops it before the files. */
	for (int k = 0; k < NFILES; k++)
		assert_int_equal(atomic_load(&sn->made[k]), 0);
	/* One thread and the most: all made. */
	memset(sn, 0, sizeof(*sn));
	for (unsigned n = 1; n <= FMTQ_THREADS_MAX; n += FMTQ_THREADS_MAX - 1) {
		memset(c, 0, FMTQ_THREADS_MAX * sizeof(*c));
		for (unsigned i = 0; i < FMTQ_THREADS_MAX; i++)
			c[i].seen = sn;
		memset(sn->made, 0, sizeof(sn->made));
		fmtq_init(&q, &s, 0, 0, NULL, 0);
		assert_int_equal(fmtq_run(&q, n, make, c, sizeof(c[0]), bad,
					  sizeof(bad)),
				 0);
		fmtq_destroy(&q);
		total = 0;
		for (unsigned i = 0; i < FMTQ_THREADS_MAX; i++)
			total += c[i].done;
		assert_int_equal(total, NDIRS + NFILES);
		for (int k = 0; k < NFILES; k++)
			assert_int_equal(atomic_load(&sn->made[k]), 1);
	}
	/* Out of bounds: refused, nothing run. */
	fmtq_init(&q, &s, 0, 0, NULL, 0);
	assert_int_equal(fmtq_run(&q, 0, make, c, sizeof(c[0]), bad,
				  sizeof(bad)),
			 -EINVAL);
	assert_int_equal(fmtq_run(&q, FMTQ_THREADS_MAX + 1, make, c,
				  sizeof(c[0]), bad, sizeof(bad)),
			 -EINVAL);
	fmtq_destroy(&q);
	free(c);
	free(sn);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_next),
		cmocka_unit_test(test_may_start),
		cmocka_unit_test(test_run),
		cmocka_unit_test(test_run_fail),
		cmocka_unit_test(test_waiting_thread),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
