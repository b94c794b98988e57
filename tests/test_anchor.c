/*
 * Tests for slave/anchor.c and anchor_format.c on a real file system:
 * format creates exactly the tree (every file of its size, written,
 * nothing else but the marker), restart completes a partial tree, clean
 * refuses a foreign entry and an anchor it did not format and leaves
 * everything, and a symbolic link inside the anchor pointing outside is
 * never followed (the outside target stays as it was) and the error names
 * it. Every case runs with openat2 and with the O_NOFOLLOW walk. The
 * anchors are made under $LS_ANCHOR_DIR when set
 * (tests/integration/fs_anchor.sh points it at an ext4 in a loop file),
 * else under /dev/shm (tmpfs) or /tmp; each test removes what it made.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "slave/anchor.h"

struct fx {
	char base[256];   /* made by the test */
	char anchor[300]; /* base/anchor */
	char outside[300];
	int fd;
};

static int fx_setup(void **state)
{
	const char *root = getenv("LS_ANCHOR_DIR");
	struct fx *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	if (!root || !*root)
		root = access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm";
	snprintf(f->base, sizeof(f->base), "%s/ls-anchor.XXXXXX", root);
	if (!mkdtemp(f->base))
		return -1;
	snprintf(f->anchor, sizeof(f->anchor), "%s/anchor", f->base);
	snprintf(f->outside, sizeof(f->outside), "%s/outside", f->base);
	if (mkdir(f->anchor, 0755) || mkdir(f->outside, 0755))
		return -1;
	f->fd = anchor_open(f->anchor, NULL, 0);
	if (f->fd < 0)
		return -1;
	*state = f;
	return 0;
}

static int rm_one(const char *p, const struct stat *sb, int flag,
		  struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(p);
}

static int fx_teardown(void **state)
{
	struct fx *f = *state;

	close(f->fd);
	/* Only the folder this test made (FTW_PHYS: links are not entered). */
	nftw(f->base, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(f);
	anchor_force_walk(0);
	return 0;
}

static struct fstree_shape shape3(void)
{
	struct fstree_shape s;

	memset(&s, 0, sizeof(s));
	s.depth = 2;
	s.width = 3;
	s.files = 4;
	s.nsizes = 2;
	s.size[0] = 1000;
	s.pct[0] = 50;
	s.size[1] = 300 * 1024 + 7;
	s.pct[1] = 50;
	return s;
}

static uint64_t entries;
static int count_one(const char *p, const struct stat *sb, int flag,
		     struct FTW *ftw)
{
	(void)p;
	(void)sb;
	(void)flag;
	(void)ftw;
	entries++;
	return 0;
}

/* Entries under path, path itself not counted. */
static uint64_t count_entries(const char *path)
{
	entries = 0;
	nftw(path, count_one, 16, FTW_PHYS);
	return entries - 1;
}

/* Every entry of the tree is there with its size and real blocks. */
static void assert_tree(const struct fx *f, const struct fstree_shape *s)
{
	struct fstree_counts n;
	struct fstree_iter it;
	struct fstree_entry e;
	char p[FSTREE_PATH_MAX + 300];
	struct stat sb;
	uint64_t files = 0;

	assert_int_equal(fstree_check(s, &n, NULL, 0), 0);
	fstree_iter_init(&it, s);
	while (fstree_next(&it, &e)) {
		snprintf(p, sizeof(p), "%s/%s", f->anchor, e.path);
		assert_int_equal(lstat(p, &sb), 0);
		if (e.is_dir) {
			assert_true(S_ISDIR(sb.st_mode));
			continue;
		}
		assert_true(S_ISREG(sb.st_mode));
		assert_int_equal((uint64_t)sb.st_size, e.size);
		/* Written, not sparse: its blocks cover its size. */
		assert_true((uint64_t)sb.st_blocks * 512 >= e.size);
		files++;
	}
	assert_int_equal(files, n.files);
	assert_int_equal(n.files, 9 * 4);
	/* Nothing else: the tree and the marker. */
	assert_int_equal(count_entries(f->anchor), n.dirs + n.files + 1);
}

static void run_format(void **state, int walk)
{
	struct fx *f = *state;
	struct fstree_shape s = shape3();
	struct anchor_stats st = { 0 };
	char err[512];

	anchor_force_walk(walk);
	assert_int_equal(anchor_format(f->fd, f->anchor, &s, 0, &st, err,
				       sizeof(err)),
			 0);
	assert_tree(f, &s);
	assert_int_equal(st.dirs_made, 12);
	assert_int_equal(st.files_made, 36);
	/* Again: format=yes cleans and makes it anew. */
	memset(&st, 0, sizeof(st));
	assert_int_equal(anchor_format(f->fd, f->anchor, &s, 0, &st, err,
				       sizeof(err)),
			 0);
	assert_int_equal(st.files_removed, 36);
	assert_int_equal(st.files_made, 36);
	assert_tree(f, &s);
}

static void test_format(void **state)
{
	run_format(state, 0);
}
static void test_format_walk(void **state)
{
	run_format(state, 1);
}

/* What the threads told: events by kind, bytes by file number. */
static atomic_ullong told[ANCHOR_EV_RMDIR + 1], told_bytes;
static atomic_ullong file_bytes[36];

static void count_note(void *arg, enum anchor_event ev, uint64_t lat_ns,
		       uint64_t bytes, int err)
{
	(void)arg;
	(void)lat_ns;
	if (!err)
		atomic_fetch_add(&told[ev], 1);
	atomic_fetch_add(&told_bytes, bytes);
}

static int count_stamp(void *arg, uint64_t file, void *buf, uint64_t at,
		       size_t n)
{
	(void)arg;
	(void)buf;
	(void)at;
	if (file < 36)
		atomic_fetch_add(&file_bytes[file], n);
	return 0;
}

static void count_wrote(void *arg, uint64_t file, uint64_t at, size_t n,
			int64_t got)
{
	(void)arg;
	(void)file;
	(void)at;
	(void)n;
	(void)got;
}

/*
 * fwd=format threads=4: the same tree, counts and events as one thread,
 * and each write told with its file's number in the walk (the n-th
 * file's bytes are the n-th size); a restart with 4 threads completes.
 */
static void test_format_threads(void **state)
{
	struct fx *f = *state;
	struct fstree_shape s = shape3();
	volatile int stop = 0;
	struct anchor_run run = { .note = count_note,
				  .stop = &stop,
				  .stamp = count_stamp,
				  .wrote = count_wrote,
				  .threads = 4 };
	struct anchor_stats st = { .run = &run };
	struct fstree_iter it;
	struct fstree_entry e;
	uint64_t k = 0, bytes = 0;
	char err[512], p[600];

	assert_int_equal(anchor_format(f->fd, f->anchor, &s, 0, &st, err,
				       sizeof(err)),
			 0);
	assert_tree(f, &s);
	assert_int_equal(st.dirs_made, 12);
	assert_int_equal(st.files_made, 36);
	assert_int_equal(st.files_walked, 36);
	assert_int_equal(atomic_load(&told[ANCHOR_EV_MKDIR]), 12);
	assert_int_equal(atomic_load(&told[ANCHOR_EV_CREATE]), 36);
	fstree_iter_init(&it, &s);
	while (fstree_next(&it, &e)) {
		if (e.is_dir)
			continue;
		assert_int_equal(atomic_load(&file_bytes[k]), e.size);
		bytes += e.size;
		k++;
	}
	assert_int_equal(st.bytes_written, bytes);
	assert_int_equal(atomic_load(&told_bytes), bytes);
	/* Restart: a file gone, one short; 4 threads complete them. */
	snprintf(p, sizeof(p), "%s/vdb.1_1.dir/vdb.2_1.dir/vdb_f0002.file",
		 f->anchor);
	assert_int_equal(unlink(p), 0);
	snprintf(p, sizeof(p), "%s/vdb.1_3.dir/vdb.2_2.dir/vdb_f0001.file",
		 f->anchor);
	assert_int_equal(truncate(p, 10), 0);
	memset(&st, 0, sizeof(st));
	st.run = &run;
	assert_int_equal(anchor_format(f->fd, f->anchor, &s, 1, &st, err,
				       sizeof(err)),
			 0);
	assert_int_equal(st.dirs_made, 0);
	assert_int_equal(st.files_made, 1);
	assert_int_equal(st.files_completed, 1);
	assert_tree(f, &s);
	/* Stopped: every thread ends, the error names an entry. */
	stop = 1;
	memset(&st, 0, sizeof(st));
	st.run = &run;
	assert_int_equal(anchor_format(f->fd, f->anchor, &s, 1, &st, err,
				       sizeof(err)),
			 -ECANCELED);
	assert_non_null(strstr(err, "the phase was stopped"));
}

static void run_restart(void **state, int walk)
{
	struct fx *f = *state;
	struct fstree_shape s = shape3();
	struct anchor_stats st = { 0 };
	char err[512], p[600];
	int fd;

	anchor_force_walk(walk);
	assert_int_equal(anchor_format(f->fd, f->anchor, &s, 0, NULL, err,
				       sizeof(err)),
			 0);
	/* Take away a folder with its files, a file, and half a file. */
	snprintf(p, sizeof(p), "%s/vdb.1_2.dir/vdb.2_3.dir", f->anchor);
	for (int i = 1; i <= 4; i++) {
		char q[700];

		snprintf(q, sizeof(q), "%s/vdb_f%04d.file", p, i);
		assert_int_equal(unlink(q), 0);
	}
	assert_int_equal(rmdir(p), 0);
	snprintf(p, sizeof(p), "%s/vdb.1_1.dir/vdb.2_1.dir/vdb_f0002.file",
		 f->anchor);
	assert_int_equal(unlink(p), 0);
	snprintf(p, sizeof(p), "%s/vdb.1_3.dir/vdb.2_2.dir/vdb_f0001.file",
		 f->anchor);
	fd = open(p, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 10), 0);
	close(fd);
	assert_int_equal(anchor_format(f->fd, f->anchor, &s, 1, &st, err,
				       sizeof(err)),
			 0);
	assert_int_equal(st.dirs_made, 1);
	assert_int_equal(st.files_made, 5);
	assert_int_equal(st.files_completed, 1);
	assert_tree(f, &s);
}

static void test_restart(void **state)
{
	run_restart(state, 0);
}
static void test_restart_walk(void **state)
{
	run_restart(state, 1);
}

static void run_clean(void **state, int walk)
{
	struct fx *f = *state;
	struct fstree_shape s = shape3(), other = shape3();
	struct anchor_stats st = { 0 };
	char err[512], p[600];
	uint64_t before;
	int fd;

	anchor_force_walk(walk);
	/* Not formatted by lockstep: refused. */
	assert_int_equal(anchor_clean(f->fd, f->anchor, &s, NULL, err,
				      sizeof(err)),
			 -EPERM);
	assert_non_null(strstr(err, ".lockstep-anchor"));
	assert_int_equal(anchor_format(f->fd, f->anchor, &s, 0, NULL, err,
				       sizeof(err)),
			 0);
	/* Another shape's clean is refused. */
	other.files = 5;
	assert_int_equal(anchor_clean(f->fd, f->anchor, &other, NULL, err,
				      sizeof(err)),
			 -ESTALE);
	/* A foreign file deep inside: refused, named, nothing removed. */
	snprintf(p, sizeof(p), "%s/vdb.1_2.dir/vdb.2_1.dir/notes.txt",
		 f->anchor);
	fd = open(p, O_WRONLY | O_CREAT, 0644);
	assert_true(fd >= 0);
	close(fd);
	before = count_entries(f->anchor);
	assert_int_equal(anchor_clean(f->fd, f->anchor, &s, &st, err,
				      sizeof(err)),
			 -ENOTEMPTY);
	assert_non_null(strstr(err, "vdb.1_2.dir/vdb.2_1.dir/notes.txt"));
	assert_int_equal(count_entries(f->anchor), before);
	assert_int_equal(st.files_removed, 0);
	/* A file name past files= is foreign too. */
	assert_int_equal(unlink(p), 0);
	snprintf(p, sizeof(p), "%s/vdb.1_1.dir/vdb.2_1.dir/vdb_f0005.file",
		 f->anchor);
	fd = open(p, O_WRONLY | O_CREAT, 0644);
	close(fd);
	assert_int_equal(anchor_clean(f->fd, f->anchor, &s, NULL, err,
				      sizeof(err)),
			 -ENOTEMPTY);
	assert_non_null(strstr(err, "vdb_f0005.file"));
	assert_int_equal(unlink(p), 0);
	/* Format refuses a folder holding something without a marker. */
	assert_int_equal(anchor_clean(f->fd, f->anchor, &s, &st, err,
				      sizeof(err)),
			 0);
	assert_int_equal(st.files_removed, 36);
	assert_int_equal(st.dirs_removed, 12);
	assert_int_equal(count_entries(f->anchor), 0);
	snprintf(p, sizeof(p), "%s/vdb.1_1.dir", f->anchor);
	assert_int_equal(mkdir(p, 0755), 0);
	assert_int_equal(anchor_format(f->fd, f->anchor, &s, 0, NULL, err,
				       sizeof(err)),
			 -ENOTEMPTY);
	assert_non_null(strstr(err, "vdb.1_1.dir"));
	assert_int_equal(count_entries(f->anchor), 1);
}

static void test_clean(void **state)
{
	run_clean(state, 0);
}
static void test_clean_walk(void **state)
{
	run_clean(state, 1);
}

/*
 * format=clean of a shared=yes tree by two slaves (one after the other
 * here; share_no 0 waits for the others' files, so 1 goes first): a
 * foreign file refuses both and removes nothing; then slave 1 removes its
 * files and leaves the folders holding slave 0's, slave 0 removes the
 * rest and the marker last; a third look finds nothing left: done.
 */
static void test_clean_shared(void **state)
{
	struct fx *f = *state;
	struct fstree_shape s = shape3();
	volatile int stop = 0;
	struct anchor_run run[2] = {
		{ .stop = &stop, .share_no = 0, .share_count = 2 },
		{ .stop = &stop, .share_no = 1, .share_count = 2 },
	};
	struct anchor_stats st[2] = { { .run = &run[0] }, { .run = &run[1] } };
	char err[512], p[600];
	uint64_t before;
	int fd;

	assert_int_equal(anchor_format(f->fd, f->anchor, &s, 0, NULL, err,
				       sizeof(err)),
			 0);
	snprintf(p, sizeof(p), "%s/vdb.1_3.dir/notes.txt", f->anchor);
	fd = open(p, O_WRONLY | O_CREAT, 0644);
	assert_true(fd >= 0);
	close(fd);
	before = count_entries(f->anchor);
	for (int k = 1; k >= 0; k--) {
		assert_int_equal(anchor_clean(f->fd, f->anchor, &s, &st[k], err,
					      sizeof(err)),
				 -ENOTEMPTY);
		assert_non_null(strstr(err, "vdb.1_3.dir/notes.txt"));
		assert_int_equal(count_entries(f->anchor), before);
	}
	assert_int_equal(unlink(p), 0);
	assert_int_equal(anchor_clean(f->fd, f->anchor, &s, &st[1], err,
				      sizeof(err)),
			 0);
	assert_int_equal(st[1].files_removed, 18);
	/* Every folder holds slave 0's files: all stay, and the marker. */
	assert_int_equal(count_entries(f->anchor), 12 + 18 + 1);
	assert_int_equal(anchor_clean(f->fd, f->anchor, &s, &st[0], err,
				      sizeof(err)),
			 0);
	assert_int_equal(st[0].files_removed, 18);
	assert_int_equal(st[0].dirs_removed, 12);
	assert_int_equal(count_entries(f->anchor), 0);
	/* A late slave: no marker, nothing of the tree: cleaned. */
	assert_int_equal(anchor_clean(f->fd, f->anchor, &s, &st[1], err,
				      sizeof(err)),
			 0);
}

/* The outside file and folder are exactly as the test left them. */
static void assert_outside_untouched(const struct fx *f)
{
	char p[600], buf[16] = "";
	struct stat sb;
	int fd;

	snprintf(p, sizeof(p), "%s/victim", f->outside);
	assert_int_equal(stat(p, &sb), 0);
	assert_int_equal(sb.st_size, 5);
	fd = open(p, O_RDONLY);
	assert_int_equal(read(fd, buf, sizeof(buf)), 5);
	close(fd);
	assert_memory_equal(buf, "keep\n", 5);
	/* Only the victim in the outside folder. */
	assert_int_equal(count_entries(f->outside), 1);
}

static void run_symlink(void **state, int walk)
{
	struct fx *f = *state;
	struct fstree_shape s = shape3();
	char err[512], p[600], q[600];
	int fd;

	anchor_force_walk(walk);
	snprintf(q, sizeof(q), "%s/victim", f->outside);
	fd = open(q, O_WRONLY | O_CREAT, 0644);
	assert_int_equal(write(fd, "keep\n", 5), 5);
	close(fd);
	assert_int_equal(anchor_format(f->fd, f->anchor, &s, 0, NULL, err,
				       sizeof(err)),
			 0);

	/* A file of the tree replaced by a link to the outside file. */
	snprintf(p, sizeof(p), "%s/vdb.1_1.dir/vdb.2_1.dir/vdb_f0001.file",
		 f->anchor);
	assert_int_equal(unlink(p), 0);
	assert_int_equal(symlink(q, p), 0);
	fd = anchor_openat(f->fd, "vdb.1_1.dir/vdb.2_1.dir/vdb_f0001.file",
			   O_WRONLY | O_CREAT, 0644);
	assert_int_equal(fd, -ELOOP);
	assert_int_equal(anchor_format(f->fd, f->anchor, &s, 1, NULL, err,
				       sizeof(err)),
			 -ENOTEMPTY);
	assert_non_null(strstr(err, "vdb.1_1.dir/vdb.2_1.dir/vdb_f0001.file"));
	assert_non_null(strstr(err, "symbolic link"));
	assert_int_equal(anchor_clean(f->fd, f->anchor, &s, NULL, err,
				      sizeof(err)),
			 -ENOTEMPTY);
	assert_non_null(strstr(err, "vdb_f0001.file (a symbolic link)"));
	assert_outside_untouched(f);
	assert_int_equal(unlink(p), 0);

	/* A folder of the tree replaced by a link to the outside folder. */
	snprintf(p, sizeof(p), "%s/vdb.1_3.dir/vdb.2_2.dir", f->anchor);
	for (int i = 1; i <= 4; i++) {
		snprintf(q, sizeof(q), "%s/vdb_f%04d.file", p, i);
		assert_int_equal(unlink(q), 0);
	}
	assert_int_equal(rmdir(p), 0);
	assert_int_equal(symlink(f->outside, p), 0);
	fd = anchor_openat(f->fd, "vdb.1_3.dir/vdb.2_2.dir/vdb_f0001.file",
			   O_WRONLY | O_CREAT, 0644);
	assert_int_equal(fd, -ELOOP);
	assert_int_equal(anchor_format(f->fd, f->anchor, &s, 1, NULL, err,
				       sizeof(err)),
			 -ENOTEMPTY);
	assert_non_null(strstr(err, "vdb.1_3.dir/vdb.2_2.dir"));
	assert_int_equal(anchor_clean(f->fd, f->anchor, &s, NULL, err,
				      sizeof(err)),
			 -ENOTEMPTY);
	assert_non_null(strstr(err, "vdb.1_3.dir/vdb.2_2.dir (a symbolic"));
	assert_outside_untouched(f);

	/* Paths that would leave the anchor are refused outright. */
	assert_int_equal(anchor_openat(f->fd, "../outside/victim", O_RDONLY, 0),
			 -EXDEV);
	assert_int_equal(anchor_openat(f->fd, "/etc/passwd", O_RDONLY, 0),
			 -EXDEV);
	/* The anchor itself given as a link is refused. */
	snprintf(p, sizeof(p), "%s/link", f->base);
	assert_int_equal(symlink(f->anchor, p), 0);
	assert_true(anchor_open(p, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "symbolic link"));
}

static void test_symlink(void **state)
{
	run_symlink(state, 0);
}
static void test_symlink_walk(void **state)
{
	run_symlink(state, 1);
}

/*
 * create_anchors=yes: the missing folders are made, the anchor last, and
 * a second call makes none; a link among the folders that exist is
 * walked (the --allow check resolved it the same way); a file in the
 * way, a "." or ".." component and a relative path are refused, and
 * nothing is made past the refusal.
 */
static void test_make(void **state)
{
	struct fx *f = *state;
	char path[512], link[512], err[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/new/a/b", f->base);
	assert_int_equal(anchor_make(path, err, sizeof(err)), 3);
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0755);
	assert_int_equal(anchor_make(path, err, sizeof(err)), 0);
	assert_int_equal(anchor_make(f->anchor, err, sizeof(err)), 0);

	/* base/via -> base/outside: base/via/x is made in outside. */
	snprintf(link, sizeof(link), "%s/via", f->base);
	assert_int_equal(symlink(f->outside, link), 0);
	snprintf(path, sizeof(path), "%s/via/x//y/", f->base);
	assert_int_equal(anchor_make(path, err, sizeof(err)), 2);
	snprintf(path, sizeof(path), "%s/x/y", f->outside);
	assert_int_equal(stat(path, &st), 0);

	/* A file where a folder should be. */
	snprintf(path, sizeof(path), "%s/anchor/file", f->base);
	assert_int_equal(close(open(path, O_CREAT | O_WRONLY, 0644)), 0);
	snprintf(path, sizeof(path), "%s/anchor/file/sub", f->base);
	assert_int_equal(anchor_make(path, err, sizeof(err)), -ENOTDIR);
	assert_non_null(strstr(err, "create_anchors=yes could not make it"));

	snprintf(path, sizeof(path), "%s/new2/../escape", f->base);
	assert_int_equal(anchor_make(path, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "no \".\" or \"..\""));
	snprintf(path, sizeof(path), "%s/new2", f->base);
	assert_int_equal(stat(path, &st), -1); /* not made before the ".." */
	assert_int_equal(anchor_make("rel/dir", err, sizeof(err)), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_format, fx_setup,
						fx_teardown),
		cmocka_unit_test_setup_teardown(test_format_walk, fx_setup,
						fx_teardown),
		cmocka_unit_test_setup_teardown(test_format_threads, fx_setup,
						fx_teardown),
		cmocka_unit_test_setup_teardown(test_restart, fx_setup,
						fx_teardown),
		cmocka_unit_test_setup_teardown(test_restart_walk, fx_setup,
						fx_teardown),
		cmocka_unit_test_setup_teardown(test_clean, fx_setup,
						fx_teardown),
		cmocka_unit_test_setup_teardown(test_clean_walk, fx_setup,
						fx_teardown),
		cmocka_unit_test_setup_teardown(test_clean_shared, fx_setup,
						fx_teardown),
		cmocka_unit_test_setup_teardown(test_symlink, fx_setup,
						fx_teardown),
		cmocka_unit_test_setup_teardown(test_symlink_walk, fx_setup,
						fx_teardown),
		cmocka_unit_test_setup_teardown(test_make, fx_setup,
						fx_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
