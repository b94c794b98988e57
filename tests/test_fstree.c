/*
 * Unit tests for common/fstree.c: the counts, names and order of a
 * Vdbench fsd= tree, its file sizes (java.util.Random's draws, the shares
 * of sizes=(size,pct,...), sizes=(size,0)), the limits on hostile shapes,
 * the names clean accepts and the marker text.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "common/fstree.h"

static struct fstree_shape shape(uint32_t d, uint32_t w, uint32_t f,
				 enum fstree_dist dist, uint64_t size)
{
	struct fstree_shape s;

	memset(&s, 0, sizeof(s));
	s.depth = d;
	s.width = w;
	s.files = f;
	s.dist = dist;
	s.nsizes = 1;
	s.size[0] = size;
	return s;
}

struct count_case {
	uint32_t d, w, f;
	enum fstree_dist dist;
	uint64_t dirs, files;
};

static void test_counts(void **state)
{
	static const struct count_case cases[] = {
		{ 1, 1, 10, FSTREE_DIST_BOTTOM, 1, 10 },
		{ 2, 3, 4, FSTREE_DIST_BOTTOM, 12, 36 },
		{ 3, 2, 5, FSTREE_DIST_BOTTOM, 14, 40 },
		{ 3, 2, 5, FSTREE_DIST_ALL, 14, 70 },
		{ 1, 4, 1, FSTREE_DIST_BOTTOM, 4, 4 },
		{ 4, 10, 100, FSTREE_DIST_BOTTOM, 11110, 1000000 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct count_case *c = &cases[i];
		struct fstree_shape s = shape(c->d, c->w, c->f, c->dist, 4096);
		struct fstree_counts n;
		struct fstree_iter it;
		struct fstree_entry e;
		uint64_t dirs = 0, files = 0;
		char err[256];

		assert_int_equal(fstree_check(&s, &n, err, sizeof(err)), 0);
		assert_int_equal(n.dirs, c->dirs);
		assert_int_equal(n.files, c->files);
		assert_int_equal(n.bytes, c->files * 4096);
		/* The walk yields exactly those, files only where they go. */
		fstree_iter_init(&it, &s);
		while (fstree_next(&it, &e)) {
			if (e.is_dir) {
				assert_int_equal(files, 0);
				dirs++;
			} else {
				assert_true(
					fstree_level_has_files(&s, e.level));
				assert_int_equal(e.size, 4096);
				files++;
			}
		}
		assert_int_equal(dirs, c->dirs);
		assert_int_equal(files, c->files);
	}
}

/* Vdbench's order: by level, then own width index, then the parent. */
static void test_names(void **state)
{
	static const char *const want[] = {
		"vdb.1_1.dir",
		"vdb.1_2.dir",
		"vdb.1_1.dir/vdb.2_1.dir",
		"vdb.1_2.dir/vdb.2_1.dir",
		"vdb.1_1.dir/vdb.2_2.dir",
		"vdb.1_2.dir/vdb.2_2.dir",
		"vdb.1_1.dir/vdb.2_1.dir/vdb_f0001.file",
		"vdb.1_1.dir/vdb.2_1.dir/vdb_f0002.file",
		"vdb.1_2.dir/vdb.2_1.dir/vdb_f0001.file",
		"vdb.1_2.dir/vdb.2_1.dir/vdb_f0002.file",
		"vdb.1_1.dir/vdb.2_2.dir/vdb_f0001.file",
		"vdb.1_1.dir/vdb.2_2.dir/vdb_f0002.file",
		"vdb.1_2.dir/vdb.2_2.dir/vdb_f0001.file",
		"vdb.1_2.dir/vdb.2_2.dir/vdb_f0002.file",
	};
	struct fstree_shape s = shape(2, 2, 2, FSTREE_DIST_BOTTOM, 1);
	struct fstree_iter it;
	struct fstree_entry e;
	size_t n = 0;

	(void)state;
	assert_int_equal(fstree_check(&s, NULL, NULL, 0), 0);
	fstree_iter_init(&it, &s);
	while (fstree_next(&it, &e)) {
		assert_true(n < sizeof(want) / sizeof(want[0]));
		assert_string_equal(e.path, want[n]);
		n++;
	}
	assert_int_equal(n, sizeof(want) / sizeof(want[0]));
	assert_int_equal(fstree_next(&it, &e), 0);

	/* Past 9999 files the number just grows (Vdbench's %04d). */
	s = shape(1, 1, 12345, FSTREE_DIST_BOTTOM, 1);
	fstree_iter_init(&it, &s);
	while (fstree_next(&it, &e) && e.index != 12344)
		;
	assert_string_equal(e.path, "vdb.1_1.dir/vdb_f12345.file");
}

/*
 * java.util.Random(0).nextInt(100) is 60 (its nextInt() is -1155484576):
 * with sizes=(10,60,20,1,30,39) the first file is 20 bytes, as in Vdbench.
 */
static void test_java_random(void **state)
{
	struct fstree_shape s = shape(1, 1, 1, FSTREE_DIST_BOTTOM, 10);
	struct fstree_iter it;
	struct fstree_entry e;

	(void)state;
	s.nsizes = 3;
	s.size[1] = 20;
	s.size[2] = 30;
	s.pct[0] = 60;
	s.pct[1] = 1;
	s.pct[2] = 39;
	assert_int_equal(fstree_check(&s, NULL, NULL, 0), 0);
	fstree_iter_init(&it, &s);
	assert_int_equal(fstree_next(&it, &e), 1);
	assert_int_equal(fstree_next(&it, &e), 1);
	assert_false(e.is_dir);
	assert_int_equal(e.size, 20);
}

/*
 * shared=yes: the slaves' files together are the tree, each file once,
 * of the size it has unshared; every slave gets every folder.
 */
static void test_share(void **state)
{
	static const uint32_t counts[] = { 1, 2, 3, 7, 45 };
	struct fstree_shape s = shape(2, 3, 5, FSTREE_DIST_BOTTOM, 100);
	uint64_t sizes[45];
	struct fstree_iter it;
	struct fstree_entry e;

	(void)state;
	s.nsizes = 2;
	s.size[1] = 200;
	s.pct[0] = 50;
	s.pct[1] = 50;
	assert_int_equal(fstree_check(&s, NULL, NULL, 0), 0);
	fstree_iter_init(&it, &s);
	while (fstree_next(&it, &e))
		if (!e.is_dir)
			sizes[e.index] = e.size;
	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		uint32_t seen[45] = { 0 };

		for (uint32_t no = 0; no < counts[c]; no++) {
			uint64_t dirs = 0;

			fstree_iter_init(&it, &s);
			assert_int_equal(fstree_iter_share(&it, no, counts[c]),
					 0);
			while (fstree_next(&it, &e)) {
				if (e.is_dir) {
					dirs++;
					continue;
				}
				assert_true(e.index < 45);
				assert_int_equal(e.index % counts[c], no);
				assert_int_equal(e.size, sizes[e.index]);
				seen[e.index]++;
			}
			assert_int_equal(dirs, 12);
		}
		for (int i = 0; i < 45; i++)
			assert_int_equal(seen[i], 1);
	}
	/* Names stay the unshared ones: slave 1 of 2's first file. */
	fstree_iter_init(&it, &s);
	assert_int_equal(fstree_iter_share(&it, 1, 2), 0);
	while (fstree_next(&it, &e) && e.is_dir)
		;
	assert_string_equal(e.path, "vdb.1_1.dir/vdb.2_1.dir/vdb_f0002.file");
	assert_int_equal(fstree_iter_share(&it, 2, 2), -EINVAL);
	assert_int_equal(fstree_iter_share(&it, 0, 0), -EINVAL);
}

struct share_case {
	uint32_t nsizes;
	uint64_t size[4];
	uint32_t pct[4];
	uint64_t seed;
};

/* 20000 files: each size's share within 2 points of its pct (sd ~0.35). */
static void test_shares(void **state)
{
	static const struct share_case cases[] = {
		{ 2, { 4096, 65536 }, { 50, 50 }, 0 },
		{ 3, { 1024, 8192, 1048576 }, { 10, 80, 10 }, 0 },
		{ 4, { 1, 2, 3, 4 }, { 25, 25, 25, 25 }, 12345 },
		{ 2, { 100, 200 }, { 99, 1 }, 7 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct share_case *c = &cases[i];
		struct fstree_shape s = shape(1, 1, 20000, FSTREE_DIST_BOTTOM,
					      0);
		struct fstree_counts n1, n2;
		struct fstree_iter it;
		struct fstree_entry e;
		uint64_t seen[4] = { 0 }, bytes = 0;

		s.nsizes = c->nsizes;
		s.seed = c->seed;
		memcpy(s.size, c->size, sizeof(c->size));
		memcpy(s.pct, c->pct, sizeof(c->pct));
		assert_int_equal(fstree_check(&s, &n1, NULL, 0), 0);
		fstree_iter_init(&it, &s);
		while (fstree_next(&it, &e)) {
			if (e.is_dir)
				continue;
			bytes += e.size;
			for (uint32_t k = 0; k < c->nsizes; k++)
				if (e.size == c->size[k])
					seen[k]++;
		}
		assert_int_equal(bytes, n1.bytes);
		for (uint32_t k = 0; k < c->nsizes; k++) {
			double share = 100.0 * (double)seen[k] / 20000;

			assert_true(share > c->pct[k] - 2.0);
			assert_true(share < c->pct[k] + 2.0);
		}
		/* Deterministic: the same seed, the same bytes. */
		assert_int_equal(fstree_check(&s, &n2, NULL, 0), 0);
		assert_int_equal(n1.bytes, n2.bytes);
	}
}

/* sizes=(size,0): between size/2 and size*1.5, rounded as Vdbench does. */
static void test_average(void **state)
{
	static const uint64_t sizes[] = { 8192, 512 * 1024, 4 << 20, 64 << 20 };
	static const uint64_t units[] = { 1024, 10240, 102400, 1 << 20 };

	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct fstree_shape s = shape(1, 1, 2000, FSTREE_DIST_BOTTOM,
					      sizes[i]);
		struct fstree_iter it;
		struct fstree_entry e;
		uint64_t total = 0, nf = 0;

		s.average = 1;
		assert_int_equal(fstree_check(&s, NULL, NULL, 0), 0);
		fstree_iter_init(&it, &s);
		while (fstree_next(&it, &e)) {
			if (e.is_dir)
				continue;
			assert_true(e.size + units[i] >= sizes[i] / 2);
			assert_true(e.size <= sizes[i] * 3 / 2 + units[i]);
			assert_int_equal(e.size % units[i], 0);
			total += e.size;
			nf++;
		}
		/* The mean is near the asked size (within 5%). */
		assert_true(total / nf > sizes[i] * 95 / 100);
		assert_true(total / nf < sizes[i] * 105 / 100);
	}
}

struct limit_case {
	uint32_t d, w, f;
	int ret;
	const char *msg;
};

static void test_limits(void **state)
{
	static const struct limit_case cases[] = {
		{ 0, 1, 1, -EINVAL, "depth" },
		{ 1, 0, 1, -EINVAL, "width" },
		{ 1, 1, 0, -EINVAL, "files=0" },
		{ 1, 1, 10000001, -EINVAL, "10000000" },
		{ 1, 1, 10000000, 0, NULL },
		{ 4, 1000, 1, -E2BIG, "more than 2147483647" },
		{ 3, 4294967295u, 1, -E2BIG, "more than" },
		{ 2, 46341, 1, -E2BIG, "more than" },
		{ 1, 2, 2147483647u / 2, -EINVAL, "files=" },
		{ 3, 100, 3000, -E2BIG, "more than" },
		{ 400, 1, 1, -E2BIG, "bytes, over the limit" },
		{ 250, 1, 1, 0, NULL },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct limit_case *c = &cases[i];
		struct fstree_shape s = shape(c->d, c->w, c->f,
					      FSTREE_DIST_BOTTOM, 1);
		char err[256] = "";

		assert_int_equal(fstree_check(&s, NULL, err, sizeof(err)),
				 c->ret);
		if (c->msg)
			assert_non_null(strstr(err, c->msg));
	}
}

struct size_case {
	uint32_t nsizes, average;
	uint64_t size[3];
	uint32_t pct[3];
	int ret;
	const char *msg;
};

static void test_size_limits(void **state)
{
	static const struct size_case cases[] = {
		{ 2, 0, { 1, 2 }, { 50, 49 }, -EINVAL, "add up to 99" },
		{ 2, 0, { 1, 2 }, { 150, 0 }, -EINVAL, "over 100" },
		{ 3, 0, { 1, 2, 3 }, { 50, 50, 0 }, 0, NULL },
		{ 0, 0, { 1 }, { 0 }, -EINVAL, "1 to 32" },
		{ 1, 1, { 0 }, { 0 }, -EINVAL, "averaging" },
		{ 1, 1, { (1u << 30) + 1 }, { 0 }, -EINVAL, "1g" },
		{ 1, 1, { 1u << 30 }, { 0 }, 0, NULL },
		{ 1, 0, { UINT64_MAX / 2 }, { 0 }, -E2BIG, "2^64" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct size_case *c = &cases[i];
		struct fstree_shape s = shape(1, 1, 3, FSTREE_DIST_BOTTOM, 0);
		struct fstree_counts n;
		char err[256] = "";

		s.nsizes = c->nsizes;
		s.average = (int)c->average;
		memcpy(s.size, c->size, sizeof(c->size));
		memcpy(s.pct, c->pct, sizeof(c->pct));
		assert_int_equal(fstree_check(&s, &n, err, sizeof(err)),
				 c->ret);
		if (c->msg)
			assert_non_null(strstr(err, c->msg));
	}
}

struct name_case {
	uint32_t level;
	const char *name;
	enum fstree_name kind;
};

static void test_name_kind(void **state)
{
	static const struct name_case cases[] = {
		{ 0, "vdb.1_1.dir", FSTREE_NAME_DIR },
		{ 0, "vdb.1_3.dir", FSTREE_NAME_DIR },
		{ 0, "vdb.1_4.dir", FSTREE_NAME_FOREIGN },
		{ 0, "vdb.1_0.dir", FSTREE_NAME_FOREIGN },
		{ 0, "vdb.2_1.dir", FSTREE_NAME_FOREIGN },
		{ 1, "vdb.2_1.dir", FSTREE_NAME_DIR },
		{ 2, "vdb.3_1.dir", FSTREE_NAME_FOREIGN },
		{ 0, "vdb.1_01.dir", FSTREE_NAME_FOREIGN },
		{ 0, "vdb.1_1.dirx", FSTREE_NAME_FOREIGN },
		{ 2, "vdb_f0001.file", FSTREE_NAME_FILE },
		{ 2, "vdb_f0005.file", FSTREE_NAME_FILE },
		{ 2, "vdb_f0006.file", FSTREE_NAME_FOREIGN },
		{ 2, "vdb_f0000.file", FSTREE_NAME_FOREIGN },
		{ 2, "vdb_f1.file", FSTREE_NAME_FOREIGN },
		{ 2, "vdb_f00001.file", FSTREE_NAME_FOREIGN },
		{ 1, "vdb_f0001.file", FSTREE_NAME_FOREIGN },
		{ 0, "vdb_control.file", FSTREE_NAME_FOREIGN },
		{ 0, ".lockstep-anchor", FSTREE_NAME_FOREIGN },
		{ 0, "notes.txt", FSTREE_NAME_FOREIGN },
		{ 0, "", FSTREE_NAME_FOREIGN },
	};
	struct fstree_shape s = shape(2, 3, 5, FSTREE_DIST_BOTTOM, 1);

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(fstree_name_kind(&s, cases[i].level,
						  cases[i].name),
				 cases[i].kind);
	s.dist = FSTREE_DIST_ALL;
	assert_int_equal(fstree_name_kind(&s, 1, "vdb_f0001.file"),
			 FSTREE_NAME_FILE);
	assert_int_equal(fstree_name_kind(&s, 0, "vdb_f0001.file"),
			 FSTREE_NAME_FOREIGN);
}

static void test_marker(void **state)
{
	struct fstree_shape s = shape(2, 3, 5, FSTREE_DIST_ALL, 4096);
	char buf[512], small[16];

	(void)state;
	assert_true(fstree_marker_text(&s, buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "lockstep-anchor 1\ndepth 2\nwidth 3\n"
				 "files 5\ndistribution all\nseed 0\n"
				 "size 4096 100\n");
	s.nsizes = 2;
	s.size[1] = 8192;
	s.pct[0] = 30;
	s.pct[1] = 70;
	assert_true(fstree_marker_text(&s, buf, sizeof(buf)) > 0);
	assert_non_null(strstr(buf, "size 4096 30\nsize 8192 70\n"));
	assert_int_equal(fstree_marker_text(&s, small, sizeof(small)), -ENOSPC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_java_random),
		cmocka_unit_test(test_shares),
		cmocka_unit_test(test_share),
		cmocka_unit_test(test_average),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_size_limits),
		cmocka_unit_test(test_name_kind),
		cmocka_unit_test(test_marker),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
