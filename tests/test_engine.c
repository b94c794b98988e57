/*
 * (Over 700 lines on purpose: one conformance suite, every engine on every
 * kind of target, is one test binary.)
 *
 * Engine conformance: every engine in the table (engine_names()) is driven
 * through its ops on real targets - a regular file in a temp dir, a loop
 * device on a temp file (root only) and /dev/zram0 (root, and only when
 * nothing uses it) - and must put writes at the right offsets with the right
 * bytes, read back what pwrite wrote, return a short count for a read past
 * the end of a file instead of hanging, report EIO from a failing target
 * (counted per sd when a worker drives it), while O_DIRECT targets whose
 * transfer sizes do not fit the device's alignment are refused at open.
 * The null engine does no I/O: for it the test checks what it promises
 * (every I/O completes with its full length, the target is untouched).
 * Every device and file made here is removed in the teardown, pass or fail;
 * every wait is bounded. A device that is mounted, used as swap, held open
 * exclusively or carries a signature is never written.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "tests/cmocka_skip.h"
#include "common/timeutil.h"
#include "slave/engine.h"
#include "slave/target.h"
#include "slave/worker.h"

#define DEPTH 4
#define BUF_LEN (64u * 1024)
#define FILE_SIZE (4ull << 20)
#define LOOP_SIZE (16ull << 20)
#define WAIT_NS (5 * NS_PER_SEC)
#define ZRAM "/dev/zram0"

enum kind { KIND_FILE, KIND_LOOP, KIND_ZRAM };

/* One target under test, and an engine instance open on it. */
struct tgt {
	enum kind kind;
	char skip[160];    /* why this target cannot be tested here */
	char dir[64];      /* temp dir, "" once removed */
	char file[128];    /* the file, or a loop device's backing file */
	char dev[64];      /* the device, "" for a file */
	int zram_set;      /* this test gave zram0 its size: reset it after */
	int direct;        /* I/O with O_DIRECT */
	uint64_t size;
	/* The engine instance of the running check, closed by teardown. */
	const struct engine_ops *e;
	void *ctx;
	int fd;
	unsigned char async; /* target_nowait() said 0: IOSQE_ASYNC */
	void *bufs[DEPTH];
	void *check;       /* BUF_LEN, aligned: for pread/pwrite */
};

/* Run a shell command; its exit code, or -1 when it did not exit. */
static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int sh(const char *fmt, ...)
{
	char cmd[512];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	st = system(cmd);
	return st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Write text to a sysfs file: 0 or -errno. */
static int sysfs_write(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, text, strlen(text)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static int make_file(struct tgt *t, uint64_t size)
{
	int fd;

	snprintf(t->dir, sizeof(t->dir), "/tmp/ls_engine.XXXXXX");
	if (!mkdtemp(t->dir)) {
		t->dir[0] = 0;
		return -errno;
	}
	snprintf(t->file, sizeof(t->file), "%s/target", t->dir);
	fd = open(t->file, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)size) < 0) {
		close(fd);
		return -errno;
	}
	close(fd);
	t->size = size;
	return 0;
}

static struct tgt *tgt_new(enum kind kind)
{
	struct tgt *t = calloc(1, sizeof(*t));

	assert_non_null(t);
	t->kind = kind;
	t->fd = -1;
	return t;
}

static int setup_file(void **state)
{
	struct tgt *t = tgt_new(KIND_FILE);

	*state = t;
	assert_int_equal(make_file(t, FILE_SIZE), 0);
	return 0;
}

static int setup_loop(void **state)
{
	struct tgt *t = tgt_new(KIND_LOOP);
	char cmd[256];
	FILE *p;

	*state = t;
	if (geteuid() != 0) {
		snprintf(t->skip, sizeof(t->skip), "loop device: not root");
		return 0;
	}
	assert_int_equal(make_file(t, LOOP_SIZE), 0);
	snprintf(cmd, sizeof(cmd),
		 "losetup --find --show --sector-size 4096 '%s' 2>/dev/null",
		 t->file);
	p = popen(cmd, "r");
	if (p) {
		if (!fgets(t->dev, sizeof(t->dev), p))
			t->dev[0] = 0;
		pclose(p);
	}
	t->dev[strcspn(t->dev, "\n")] = 0;
	if (strncmp(t->dev, "/dev/loop", 9) != 0) {
		t->dev[0] = 0;
		snprintf(t->skip, sizeof(t->skip),
			 "loop device: losetup failed");
		return 0;
	}
	t->direct = 1;
	t->size = LOOP_SIZE;
	return 0;
}

/* Whether file (/proc/swaps, /proc/mounts) mentions word. */
static int mentions(const char *file, const char *word)
{
	char line[512];
	int found = 0;
	FILE *f = fopen(file, "r");

	if (!f)
		return 1; /* cannot tell: assume it is */
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, word) != NULL;
	fclose(f);
	return found;
}

static uint64_t read_u64(const char *path)
{
	unsigned long long v = 0;
	FILE *f = fopen(path, "r");

	if (f) {
		if (fscanf(f, "%llu", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

static int setup_zram(void **state)
{
	struct tgt *t = tgt_new(KIND_ZRAM);
	int fd;

	*state = t;
	if (access(ZRAM, F_OK) != 0) {
		snprintf(t->skip, sizeof(t->skip), "%s: absent", ZRAM);
		return 0;
	}
	if (geteuid() != 0) {
		snprintf(t->skip, sizeof(t->skip), "%s: not root", ZRAM);
		return 0;
	}
	if (mentions("/proc/swaps", "zram0") ||
	    mentions("/proc/mounts", "zram0")) {
		snprintf(t->skip, sizeof(t->skip),
			 "%s is swap or mounted: not touched", ZRAM);
		return 0;
	}
	if (read_u64("/sys/block/zram0/disksize") == 0) {
		if (sysfs_write("/sys/block/zram0/disksize", "1G") < 0) {
			snprintf(t->skip, sizeof(t->skip),
				 "%s: cannot set its size", ZRAM);
			return 0;
		}
		t->zram_set = 1;
	} else if (sh("blkid -p %s >/dev/null 2>&1", ZRAM) != 2) {
		/* blkid -p exits 2 only when it found no signature at all. */
		snprintf(t->skip, sizeof(t->skip),
			 "%s holds a signature (a file system?): not touched",
			 ZRAM);
		return 0;
	}
	/* O_EXCL on a block device fails while anyone holds it exclusively. */
	fd = open(ZRAM, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0) {
		snprintf(t->skip, sizeof(t->skip), "%s is in use: %s", ZRAM,
			 strerror(errno));
		return 0;
	}
	close(fd);
	snprintf(t->dev, sizeof(t->dev), "%s", ZRAM);
	t->size = read_u64("/sys/block/zram0/disksize");
	t->direct = 1;
	return 0;
}

static void env_close(struct tgt *t)
{
	if (t->e && t->ctx)
		t->e->close(&t->ctx);
	t->e = NULL;
	for (unsigned i = 0; i < DEPTH; i++) {
		free(t->bufs[i]);
		t->bufs[i] = NULL;
	}
	free(t->check);
	t->check = NULL;
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}

static int teardown(void **state)
{
	struct tgt *t = *state;

	env_close(t);
	if (t->kind == KIND_LOOP && t->dev[0])
		sh("losetup -d %s", t->dev);
	/*
	 * Leave zram0 as it was found. A ring's last reference to the device
	 * goes away asynchronously after it is closed, and zram refuses a
	 * reset while the device is open: retry for a bounded while.
	 */
	for (int k = 0; t->zram_set && k < 100; k++) {
		if (sysfs_write("/sys/block/zram0/reset", "1") == 0) {
			t->zram_set = 0;
			break;
		}
		time_sleep_ns(50 * NS_PER_MS);
	}
	if (t->zram_set)
		print_message("could not reset %s: reset it by hand\n", ZRAM);
	if (t->file[0])
		unlink(t->file);
	if (t->dir[0])
		rmdir(t->dir);
	free(t);
	return 0;
}

static const char *tgt_path(const struct tgt *t)
{
	return t->dev[0] ? t->dev : t->file;
}

/* Open engine name on t's target, with DEPTH slots of BUF_LEN bytes. */
static void env_open(struct tgt *t, const char *name)
{
	struct engine_cfg cfg = { 0 };
	int ret;

	t->e = engine_find(name);
	assert_non_null(t->e);
	t->fd = open(tgt_path(t),
		     O_RDWR | O_CLOEXEC | (t->direct ? O_DIRECT : 0));
	assert_true(t->fd >= 0);
	for (unsigned i = 0; i < DEPTH; i++) {
		assert_int_equal(posix_memalign(&t->bufs[i], 4096, BUF_LEN), 0);
		memset(t->bufs[i], 0, BUF_LEN);
	}
	assert_int_equal(posix_memalign(&t->check, 4096, BUF_LEN), 0);
	cfg.depth = DEPTH;
	cfg.nfiles = 1;
	cfg.fds = &t->fd;
	/* As slave/phase.c does: O_DIRECT on a target that cannot wait. */
	t->async = t->direct && target_nowait(t->fd) == 0;
	cfg.async = &t->async;
	cfg.bufs = t->bufs;
	cfg.buf_len = BUF_LEN;
	cfg.flags = t->direct ? ENGINE_DIRECT : 0;
	ret = t->e->open(&cfg, &t->ctx);
	if (ret < 0)
		fail_msg("engine %s: open on %s: %s", name, tgt_path(t),
			 strerror(-ret));
	/* io_uring says when its requests go to io-wq at once. */
	if (!strcmp(name, "io_uring"))
		assert_int_equal(strstr(t->e->describe(t->ctx),
					"io-wq-direct") != NULL,
				 t->async);
}

/* Submit what is queued and collect n completions, res[] by slot. */
static void run_io(struct tgt *t, unsigned n, int *res)
{
	uint64_t deadline = time_mono_ns() + WAIT_NS;
	struct engine_cqe cqe[DEPTH];
	unsigned got = 0;

	for (unsigned i = 0; i < DEPTH; i++)
		res[i] = INT_MIN;
	while (got < n) {
		int k;

		if (time_mono_ns() > deadline)
			fail_msg("engine %s on %s: %u of %u completions after 5 s",
				 t->e->name, tgt_path(t), got, n);
		assert_int_equal(t->e->submit(t->ctx, n - got,
					      100 * NS_PER_MS), 0);
		k = t->e->reap(t->ctx, cqe, DEPTH);
		assert_true(k >= 0);
		for (int j = 0; j < k; j++) {
			assert_true(cqe[j].slot < DEPTH);
			res[cqe[j].slot] = cqe[j].res;
			got++;
		}
	}
}

/* Known bytes for offset off of the target: differ per 8 bytes and salt. */
static void pattern(void *buf, size_t len, uint64_t off, uint64_t salt)
{
	uint64_t *p = buf;

	for (size_t k = 0; k < len / 8; k++)
		p[k] = (off + 8 * k) * 0x9e3779b97f4a7c15ull ^ salt;
}

struct io_case {
	uint64_t off;      /* from the target's start; < 0 counts from end */
	uint32_t buf_off;
	uint32_t len;
};

/* Four I/Os at spread offsets, one from the middle of its buffer. */
static void cases(const struct tgt *t, struct io_case *c)
{
	c[0] = (struct io_case){ 0, 0, BUF_LEN };
	c[1] = (struct io_case){ 3 * BUF_LEN, 0, 4096 };
	c[2] = (struct io_case){ (1 << 20) + 3 * 4096, 0, 8192 };
	c[3] = (struct io_case){ t->size - BUF_LEN, 4096, 8192 };
}

static void check_writes(struct tgt *t, const char *name, uint64_t salt)
{
	struct io_case c[DEPTH];
	uint8_t *before[DEPTH] = { 0 };
	int res[DEPTH];
	int null = strcmp(name, "null") == 0;

	env_open(t, name);
	cases(t, c);
	for (unsigned i = 0; i < DEPTH; i++) {
		pattern((uint8_t *)t->bufs[i] + c[i].buf_off, c[i].len, c[i].off,
			salt);
		before[i] = malloc(c[i].len);
		assert_non_null(before[i]);
		assert_int_equal(pread(t->fd, t->check, BUF_LEN,
				       (off_t)(c[i].off & ~(uint64_t)(BUF_LEN - 1))),
				 BUF_LEN);
		memcpy(before[i],
		       (uint8_t *)t->check + (c[i].off & (BUF_LEN - 1)),
		       c[i].len);
		assert_int_equal(t->e->prep(t->ctx, i, 0, 1, c[i].buf_off,
					    c[i].len, c[i].off), 0);
	}
	run_io(t, DEPTH, res);
	for (unsigned i = 0; i < DEPTH; i++) {
		uint64_t base = c[i].off & ~(uint64_t)(BUF_LEN - 1);
		const uint8_t *got;

		if (res[i] != (int)c[i].len)
			fail_msg("engine %s on %s: write %u of %u bytes at %llu gave %d",
				 name, tgt_path(t), i, c[i].len,
				 (unsigned long long)c[i].off, res[i]);
		assert_int_equal(pread(t->fd, t->check, BUF_LEN, (off_t)base),
				 BUF_LEN);
		got = (const uint8_t *)t->check + (c[i].off - base);
		if (null) /* it promised not to touch the target */
			assert_memory_equal(got, before[i], c[i].len);
		else
			assert_memory_equal(got,
					    (uint8_t *)t->bufs[i] +
						    c[i].buf_off,
					    c[i].len);
		free(before[i]);
		before[i] = NULL;
	}
	env_close(t);
}

static void check_reads(struct tgt *t, const char *name, uint64_t salt)
{
	struct io_case c[DEPTH];
	int res[DEPTH];
	int null = strcmp(name, "null") == 0;

	env_open(t, name);
	cases(t, c);
	for (unsigned i = 0; i < DEPTH; i++) {
		uint64_t base = c[i].off & ~(uint64_t)(BUF_LEN - 1);

		assert_int_equal(pread(t->fd, t->check, BUF_LEN, (off_t)base),
				 BUF_LEN);
		pattern((uint8_t *)t->check + (c[i].off - base), c[i].len,
			c[i].off, salt);
		assert_int_equal(pwrite(t->fd, t->check, BUF_LEN, (off_t)base),
				 BUF_LEN);
		assert_int_equal(t->e->prep(t->ctx, i, 0, 0, c[i].buf_off,
					    c[i].len, c[i].off), 0);
	}
	run_io(t, DEPTH, res);
	for (unsigned i = 0; i < DEPTH; i++) {
		uint64_t base = c[i].off & ~(uint64_t)(BUF_LEN - 1);

		if (res[i] != (int)c[i].len)
			fail_msg("engine %s on %s: read %u of %u bytes at %llu gave %d",
				 name, tgt_path(t), i, c[i].len,
				 (unsigned long long)c[i].off, res[i]);
		if (null)
			continue;
		assert_int_equal(pread(t->fd, t->check, BUF_LEN, (off_t)base),
				 BUF_LEN);
		assert_memory_equal((uint8_t *)t->bufs[i] + c[i].buf_off,
				    (uint8_t *)t->check + (c[i].off - base),
				    c[i].len);
	}
	env_close(t);
}

static void skip_if(const struct tgt *t)
{
	if (t->skip[0]) {
		print_message("skipped: %s\n", t->skip);
		skip();
	}
}

/*
 * target_nowait(): whether the kernel takes O_DIRECT I/O on the target
 * without blocking, as io_uring asks before it tries a request inline.
 * zram cannot (every request goes to io-wq: the engine queues them there
 * at once, and test_rw on zram runs that way); a loop device and a file
 * on this machine's root file system (ext4) can. want: the verdict.
 */
static void check_nowait(void **state, int want)
{
	struct tgt *t = *state;
	int fd;

	skip_if(t);
	fd = open(tgt_path(t), O_RDONLY | O_DIRECT | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(target_nowait(fd), want);
	close(fd);
}

static void test_nowait_zram(void **state)
{
	check_nowait(state, 0);
}

static void test_nowait_can(void **state)
{
	check_nowait(state, 1);
}

/* A file on /dev/shm (tmpfs) cannot: it has no FMODE_NOWAIT. */
static void check_shm(void)
{
	char path[] = "/dev/shm/ls_nowait.XXXXXX";
	struct statfs sf;
	int fd = mkstemp(path), v;

	if (fd < 0 || statfs(path, &sf) || sf.f_type != TMPFS_MAGIC) {
		if (fd >= 0) {
			close(fd);
			unlink(path);
		}
		return; /* no tmpfs there: nothing to check */
	}
	assert_int_equal(ftruncate(fd, 65536), 0);
	close(fd);
	fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	v = fd >= 0 ? target_nowait(fd) : -errno;
	if (fd >= 0)
		close(fd);
	unlink(path);
	assert_int_equal(v, 0);
}

/*
 * A file: ext4 (this machine's /tmp) takes O_DIRECT without blocking,
 * tmpfs cannot (checked on /dev/shm too); another file system may say
 * either.
 */
static void test_nowait_file(void **state)
{
	struct tgt *t = *state;
	struct statfs sf;
	int fd, v;

	assert_int_equal(statfs(t->file, &sf), 0);
	fd = open(t->file, O_RDONLY | O_DIRECT | O_CLOEXEC);
	assert_true(fd >= 0);
	v = target_nowait(fd);
	close(fd);
	if (sf.f_type == EXT4_SUPER_MAGIC)
		assert_int_equal(v, 1);
	else if (sf.f_type == TMPFS_MAGIC)
		assert_int_equal(v, 0);
	else
		assert_true(v == 0 || v == 1);
	check_shm();
}

/* A file shorter than the probe's block, and the verdicts of results. */
static void test_nowait_of(void **state)
{
	struct tgt *t = *state;
	int fd;

	assert_int_equal(target_nowait_of(4096, 0), 1);
	assert_int_equal(target_nowait_of(512, 0), 1);
	assert_int_equal(target_nowait_of(-1, EOPNOTSUPP), 0);
	assert_int_equal(target_nowait_of(-1, EAGAIN), -EAGAIN);
	assert_int_equal(target_nowait_of(-1, EINVAL), -EINVAL);
	assert_int_equal(target_nowait_of(-1, 0), -EIO);
	assert_int_equal(target_nowait_of(0, 0), -ENODATA);
	/* An empty file: nothing to read, so not known. */
	assert_int_equal(truncate(t->file, 0), 0);
	fd = open(t->file, O_RDONLY | O_DIRECT | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(target_nowait(fd), -ENODATA);
	close(fd);
}

static void test_rw(void **state)
{
	struct tgt *t = *state;
	const char *const *names = engine_names();

	skip_if(t);
	assert_non_null(names[0]);
	for (unsigned k = 0; names[k]; k++) {
		check_writes(t, names[k], 0x1000 + k);
		check_reads(t, names[k], 0x2000 + k);
	}
}

/* A read across or at the end of a file gives a short count, no hang. */
static void test_short_read(void **state)
{
	struct tgt *t = *state;
	const char *const *names = engine_names();

	for (unsigned k = 0; names[k]; k++) {
		int null = strcmp(names[k], "null") == 0, res[DEPTH];

		env_open(t, names[k]);
		assert_int_equal(t->e->prep(t->ctx, 0, 0, 0, 0, 4096,
					    t->size - 1024), 0);
		assert_int_equal(t->e->prep(t->ctx, 1, 0, 0, 0, 4096, t->size),
				 0);
		assert_int_equal(t->e->prep(t->ctx, 2, 0, 0, 0, 4096,
					    t->size + 65536), 0);
		run_io(t, 3, res);
		assert_int_equal(res[0], null ? 4096 : 1024);
		assert_int_equal(res[1], null ? 4096 : 0);
		assert_int_equal(res[2], null ? 4096 : 0);
		env_close(t);
	}
}

/*
 * wake_at (engines that have it): a wait with nothing to complete ends at
 * the armed boundary, not later, though it was given a far limit; a wait
 * whose own limit comes before the armed boundary ends by its own; the
 * ring's own timeout never comes back from reap as an I/O, and I/O done
 * with a boundary armed completes as usual. Every bound here is a lower
 * bound on lockstep's own monotonic clock (a wait cannot end before what
 * ends it); a wait that never ends fails by ctest's timeout.
 */
static void test_wake_at(void **state)
{
	struct tgt *t = *state;
	const char *const *names = engine_names();
	struct engine_cqe cqe[DEPTH];

	for (unsigned k = 0; names[k]; k++) {
		uint64_t t0, boundary;
		int res[DEPTH];

		env_open(t, names[k]);
		if (!t->e->wake_at) {
			env_close(t);
			continue;
		}
		/* The boundary ends a wait given 60 s. */
		t0 = time_mono_ns();
		boundary = t0 + 20 * NS_PER_MS;
		assert_int_equal(t->e->wake_at(t->ctx, boundary), 0);
		assert_int_equal(t->e->submit(t->ctx, 1, 60000 * NS_PER_MS), 0);
		assert_true(time_mono_ns() >= boundary);
		assert_int_equal(t->e->reap(t->ctx, cqe, DEPTH), 0);
		/* A boundary 60 s away does not hold a 20 ms wait. */
		t0 = time_mono_ns();
		assert_int_equal(t->e->wake_at(t->ctx, t0 + 60000 * NS_PER_MS),
				 0);
		assert_int_equal(t->e->submit(t->ctx, 1, 20 * NS_PER_MS), 0);
		assert_true(time_mono_ns() >= t0 + 20 * NS_PER_MS);
		assert_int_equal(t->e->reap(t->ctx, cqe, DEPTH), 0);
		/* I/O beside the armed boundary: only the I/O is reaped. */
		assert_int_equal(t->e->prep(t->ctx, 1, 0, 0, 0, 4096, 0), 0);
		run_io(t, 1, res);
		assert_int_equal(res[1], 4096);
		env_close(t);
	}
}

/*
 * A real EIO without device-mapper (not every kernel has it): reading an
 * unmapped address through /proc/self/mem fails with EIO in the kernel's
 * own read path, and the first megabyte of the address space is never
 * mapped. Returns an fd, or -1 when this kernel answers otherwise.
 */
static int eio_fd(void)
{
	char buf[4096];
	int fd = open("/proc/self/mem", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (pread(fd, buf, sizeof(buf), 65536) >= 0 || errno != EIO) {
		close(fd);
		return -1;
	}
	return fd;
}

static void test_eio_engine(void **state)
{
	struct tgt *t = *state;
	const char *const *names = engine_names();
	int mem = eio_fd();

	if (mem < 0) {
		print_message("skipped: no way to get EIO here\n");
		skip();
	}
	for (unsigned k = 0; names[k]; k++) {
		int null = strcmp(names[k], "null") == 0, res[DEPTH];

		env_open(t, names[k]);
		/* The engine's file 0 is the failing target from here on. */
		close(t->fd);
		t->fd = -1;
		t->e->close(&t->ctx);
		{
			struct engine_cfg cfg = { .depth = DEPTH, .nfiles = 1,
						  .fds = &mem, .bufs = t->bufs,
						  .buf_len = BUF_LEN };

			assert_int_equal(t->e->open(&cfg, &t->ctx), 0);
		}
		assert_int_equal(t->e->prep(t->ctx, 0, 0, 0, 0, 4096, 65536),
				 0);
		assert_int_equal(t->e->prep(t->ctx, 1, 0, 0, 0, 4096, 131072),
				 0);
		run_io(t, 2, res);
		assert_int_equal(res[0], null ? 4096 : -EIO);
		assert_int_equal(res[1], null ? 4096 : -EIO);
		env_close(t);
	}
	close(mem);
}

/*
 * A worker on two sds, one good (the temp file) and one failing: the
 * errors are counted per sd, all on the failing one, none on the other.
 */
static void test_eio_counted_per_sd(void **state)
{
	struct tgt *t = *state;
	const char *const *names = engine_names();
	int mem = eio_fd();

	if (mem < 0) {
		print_message("skipped: no way to get EIO here\n");
		skip();
	}
	for (unsigned k = 0; names[k]; k++) {
		struct proto_target tg[2] = { 0 };
		struct proto_stream st[2] = { 0 };
		struct proto_plan plan = { 0 };
		static const unsigned slot_target[DEPTH] = { 0, 1, 0, 1 };
		uint64_t size[2] = { FILE_SIZE, 1 << 20 };
		uint64_t ops = 0, errors = 0, terr[2] = { 0, 0 };
		int last_errno = 0, fds[2], efd, null;
		unsigned last_target = 0, nint = 0;
		struct worker_cfg wc = { 0 };
		struct worker *w = NULL;
		char err[256] = "";
		uint64_t deadline;

		null = strcmp(names[k], "null") == 0;
		for (unsigned i = 0; i < 2; i++) {
			snprintf(tg[i].name, sizeof(tg[i].name), "sd%u", i + 1);
			tg[i].threads = 2;
			snprintf(st[i].name, sizeof(st[i].name), "wd%u", i + 1);
			st[i].ntargets = 1;
			st[i].targets[0] = i;
			st[i].nxfer = 1;
			st[i].xfer[0].size = 4096;
			st[i].xfer[0].pct = 100;
			st[i].rdpct = 100;
			st[i].seekpct = 100;
		}
		plan.ntargets = 2;
		plan.targets = tg;
		plan.nstreams = 2;
		plan.streams = st;
		plan.interval_ns = 100 * NS_PER_MS;
		plan.intervals = 3;
		fds[0] = open(t->file, O_RDONLY | O_CLOEXEC);
		fds[1] = mem;
		efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		assert_true(fds[0] >= 0 && efd >= 0);
		wc.engine = engine_find(names[k]);
		wc.nfiles = 2;
		wc.fds = fds;
		wc.depth = DEPTH;
		wc.slot_target = slot_target;
		wc.plan = &plan;
		wc.target_size = size;
		wc.seed = 42;
		wc.interval_ns = plan.interval_ns;
		wc.intervals = plan.intervals;
		wc.iorate = 20000;
		wc.notify_fd = efd;
		if (worker_start(&wc, &w, err, sizeof(err)) < 0)
			fail_msg("engine %s: worker_start: %s", names[k], err);
		worker_go(w, time_mono_ns(), 0);
		deadline = time_mono_ns() + 10 * NS_PER_SEC;
		for (;;) {
			struct pollfd pfd = { .fd = efd, .events = POLLIN };
			struct worker_interval *iv;
			int finished = worker_finished(w);

			while ((iv = worker_pop(w))) {
				nint++;
				ops += iv->ops[0] + iv->ops[1];
				errors += iv->errors;
				terr[0] += iv->target_errors[0];
				terr[1] += iv->target_errors[1];
				if (iv->errors) {
					last_errno = iv->last_errno;
					last_target = iv->last_err_target;
				}
				worker_release(w, iv);
			}
			if (finished)
				break;
			if (time_mono_ns() > deadline) {
				worker_join(&w);
				fail_msg("engine %s: the worker did not finish in 10 s",
					 names[k]);
			}
			poll(&pfd, 1, 100);
			{
				uint64_t junk;

				if (read(efd, &junk, sizeof(junk)) < 0)
					(void)junk;
			}
		}
		worker_join(&w);
		close(fds[0]);
		close(efd);
		assert_int_equal(nint, plan.intervals);
		assert_true(ops > 0);
		if (null) {
			assert_int_equal(errors, 0);
			continue;
		}
		assert_true(terr[1] > 0);
		assert_int_equal(terr[0], 0);
		assert_int_equal(errors, terr[1]);
		assert_int_equal(last_errno, EIO);
		assert_int_equal(last_target, 1);
	}
	close(mem);
}

/* The alignment check itself: pure, every case of a table. */
static void test_check_align_table(void **state)
{
	static const struct {
		uint32_t sizes[3];
		unsigned nxfer, align, used;
		int ret;
	} tc[] = {
		{ { 4096, 8192, 0 }, 2, 4096, 1, 0 },
		{ { 4096, 512, 0 }, 2, 4096, 1, -EINVAL },
		{ { 512, 1024, 1536 }, 3, 512, 1, 0 },
		{ { 512, 1000, 0 }, 2, 512, 1, -EINVAL },
		{ { 100, 0, 0 }, 1, 4096, 0, 0 }, /* stream not on the sd */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(tc) / sizeof(tc[0]); i++) {
		struct proto_target tg[2] = { 0 };
		struct proto_stream st = { 0 };
		struct proto_plan p = { .ntargets = 2, .targets = tg,
					.nstreams = 1, .streams = &st };
		char err[PROTO_TEXT_LEN] = "";

		snprintf(tg[0].name, sizeof(tg[0].name), "sd1");
		snprintf(tg[0].path, sizeof(tg[0].path), "/dev/x");
		snprintf(st.name, sizeof(st.name), "wd1");
		st.ntargets = 1;
		st.targets[0] = tc[i].used ? 0 : 1;
		st.nxfer = tc[i].nxfer;
		for (unsigned x = 0; x < tc[i].nxfer; x++)
			st.xfer[x].size = tc[i].sizes[x];
		assert_int_equal(target_check_align(&p, 0, tc[i].align, err,
						    sizeof(err)),
				 tc[i].ret);
		if (tc[i].ret)
			assert_non_null(strstr(err, "sd sd1: xfersize"));
	}
}

/* A plan of one target (sd1 on path) and one 4k reading stream (wd1). */
struct one_target {
	struct proto_target tg;
	struct proto_stream st;
	struct proto_plan p;
};

static void one_target(struct one_target *ot, const char *path)
{
	memset(ot, 0, sizeof(*ot));
	snprintf(ot->tg.name, sizeof(ot->tg.name), "sd1");
	snprintf(ot->tg.path, sizeof(ot->tg.path), "%s", path);
	snprintf(ot->st.name, sizeof(ot->st.name), "wd1");
	ot->st.ntargets = 1;
	ot->st.nxfer = 1;
	ot->st.xfer[0].size = 4096;
	ot->st.rdpct = 100;
	ot->p.ntargets = 1;
	ot->p.targets = &ot->tg;
	ot->p.nstreams = 1;
	ot->p.streams = &ot->st;
}

/*
 * An O_DIRECT sd on a device with 4096-byte sectors: a 512-byte transfer
 * size is refused when the target is opened, with a message that names it;
 * a misaligned offset that slips through is refused by the kernel, and the
 * engine reports it as an error completion, not a hang.
 */
static void test_align_refused(void **state)
{
	struct tgt *t = *state;
	const char *const *names = engine_names();
	struct one_target ot;
	struct proto_plan *p = &ot.p;
	char err[PROTO_TEXT_LEN] = "";
	struct target_opened o;
	uint64_t size = 0;
	int fd = -1, ret;

	skip_if(t);
	one_target(&ot, t->dev);
	ot.tg.openflags = PROTO_O_DIRECT;
	ot.st.nxfer = 2;
	ot.st.xfer[1].size = 512;
	ret = target_open(p, 0, 0, NULL, &o, err, sizeof(err));
	assert_int_equal(ret, -EINVAL);
	assert_int_equal(o.fd, -1);
	assert_non_null(strstr(err, "xfersize 512 of wd wd1 is not a multiple of 4096"));
	ot.st.xfer[1].size = 8192;
	ret = target_open(p, 0, 0, NULL, &o, err, sizeof(err));
	if (ret < 0)
		fail_msg("target_open: %s", err);
	fd = o.fd;
	size = o.size;
	assert_int_equal(target_direct_align(fd), 4096);
	assert_int_equal(size, t->size);
	close(fd);

	for (unsigned k = 0; names[k]; k++) {
		int null = strcmp(names[k], "null") == 0, res[DEPTH];

		env_open(t, names[k]);
		assert_int_equal(t->e->prep(t->ctx, 0, 0, 0, 0, 4096, 512), 0);
		run_io(t, 1, res);
		assert_int_equal(res[0], null ? 4096 : -EINVAL);
		env_close(t);
	}
}

/*
 * openflags reach the open: the kernel's F_GETFL of a target opened with
 * each, as target_flags_text says it (what the slave writes to the log).
 */
static void test_open_flags(void **state)
{
	static const struct {
		uint32_t of;
		const char *text;
	} cases[] = {
		{ 0, "O_RDONLY" },
		{ PROTO_O_DSYNC, "O_RDONLY|O_DSYNC" },
		{ PROTO_O_SYNC, "O_RDONLY|O_SYNC" },
		{ PROTO_O_DSYNC | PROTO_O_SYNC, "O_RDONLY|O_SYNC" },
	};
	char dir[] = "/tmp/ls-openflags-XXXXXX", path[64], text[64];
	struct one_target ot;
	char err[PROTO_TEXT_LEN] = "";
	struct target_opened o;
	int fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/f", dir);
	fd = open(path, O_CREAT | O_WRONLY, 0600);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 1 << 20), 0);
	close(fd);
	one_target(&ot, path);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ot.tg.openflags = cases[i].of;
		if (target_open(&ot.p, 0, 0, NULL, &o, err, sizeof(err)) < 0)
			fail_msg("target_open: %s", err);
		assert_string_equal(target_flags_text(o.flags, text,
						      sizeof(text)),
				    cases[i].text);
		close(o.fd);
	}
	assert_string_equal(target_flags_text(O_RDWR | O_DIRECT | O_DSYNC, text,
					      sizeof(text)),
			    "O_RDWR|O_DIRECT|O_DSYNC");
	unlink(path);
	rmdir(dir);
}

/* The table: names unique, every op there, engine_list lists them all. */
static void test_table(void **state)
{
	const char *const *names = engine_names();
	char list[256];

	(void)state;
	engine_list(list, sizeof(list));
	assert_non_null(names[0]);
	for (unsigned k = 0; names[k]; k++) {
		const struct engine_ops *e = engine_find(names[k]);

		assert_non_null(e);
		assert_string_equal(e->name, names[k]);
		assert_true(e->open && e->prep && e->submit && e->reap &&
			    e->close && e->describe);
		assert_non_null(strstr(list, names[k]));
		for (unsigned j = 0; j < k; j++)
			assert_string_not_equal(names[j], names[k]);
	}
	assert_null(engine_find("no-such-engine"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_check_align_table),
		cmocka_unit_test_setup_teardown(test_rw, setup_file, teardown),
		cmocka_unit_test_setup_teardown(test_short_read, setup_file,
						teardown),
		cmocka_unit_test_setup_teardown(test_wake_at, setup_file,
						teardown),
		cmocka_unit_test_setup_teardown(test_eio_engine, setup_file,
						teardown),
		cmocka_unit_test_setup_teardown(test_eio_counted_per_sd,
						setup_file, teardown),
		cmocka_unit_test_setup_teardown(test_rw, setup_loop, teardown),
		cmocka_unit_test(test_open_flags),
		cmocka_unit_test_setup_teardown(test_align_refused, setup_loop,
						teardown),
		cmocka_unit_test_setup_teardown(test_rw, setup_zram, teardown),
		cmocka_unit_test_setup_teardown(test_nowait_zram, setup_zram,
						teardown),
		cmocka_unit_test_setup_teardown(test_nowait_can, setup_loop,
						teardown),
		cmocka_unit_test_setup_teardown(test_nowait_file, setup_file,
						teardown),
		cmocka_unit_test_setup_teardown(test_nowait_of, setup_file,
						teardown),
	};

	return ls_run_group(tests, NULL, NULL);
}
