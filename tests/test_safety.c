/*
 * (Over 700 lines on purpose: every rule of slave/safety.c on real loop
 * devices, with set-up and teardown, is one binary.)
 *
 * Unit tests for target safety: the pure verdict table, the allowlist, and
 * the probes on real loop devices (mounted, partitioned, with signatures),
 * the root disk, a FIFO and /proc, /sys, /dev paths. Tests that need root
 * or a tool skip with a message. Every loop device, mount and temporary
 * file is removed in the teardown, even when a test fails; every command
 * runs under timeout(1). Mounts are read-only from the start, so nothing
 * ever writes to a mounted file system.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include "tests/cmocka_skip.h"
#include "slave/safety.h"

/* ---- the pure verdict table ------------------------------------------- */

struct decide_case {
	const char *name;
	struct safety_facts f;
	int need_write, force;
	int ret, forced;
	const char *reason; /* substring; NULL = empty reason */
};

#define BLK \
	.kind = SAFETY_KIND_BLOCK, .place = SAFETY_PLACE_DEV, .dev_name = "sdx"

static const struct decide_case decide_cases[] = {
	{ "blank disk, write", { BLK }, 1, 0, 0, 0, NULL },
	{ "ext4, write",
	  { BLK, .signature = "ext4", .usage = "filesystem" },
	  1,
	  0,
	  -EPERM,
	  0,
	  "/dev/sdx: holds an ext4 filesystem; force=yes on its sd overwrites it" },
	{ "ext4, write, force",
	  { BLK, .signature = "ext4", .usage = "filesystem" },
	  1,
	  1,
	  0,
	  1,
	  "holds an ext4 filesystem; overwriting it (force=yes)" },
	{ "ext4, read",
	  { BLK, .signature = "ext4", .usage = "filesystem" },
	  0,
	  0,
	  0,
	  0,
	  NULL },
	{ "gpt, write",
	  { BLK, .signature = "gpt", .usage = "partition table" },
	  1,
	  0,
	  -EPERM,
	  0,
	  "holds a gpt partition table; force=yes" },
	{ "LVM PV, write, force",
	  { BLK, .signature = "LVM2_member", .usage = "raid" },
	  1,
	  1,
	  0,
	  1,
	  "is a LVM2_member (a RAID or volume manager member)" },
	{ "md member, write",
	  { BLK, .signature = "linux_raid_member", .usage = "raid" },
	  1,
	  0,
	  -EPERM,
	  0,
	  "linux_raid_member" },
	{ "LUKS, write",
	  { BLK, .signature = "crypto_LUKS", .usage = "crypto" },
	  1,
	  0,
	  -EPERM,
	  0,
	  "holds a crypto_LUKS encryption header" },
	{ "swap, write, force",
	  { BLK, .signature = "swap", .usage = "other" },
	  1,
	  1,
	  0,
	  1,
	  "holds a swap signature" },
	{ "ambivalent, write",
	  { BLK, .signature = "ambivalent", .usage = "ambivalent" },
	  1,
	  0,
	  -EPERM,
	  0,
	  "several signatures" },
	{ "mounted, write, force",
	  { BLK, .mounted_dev = "sdx", .mount_point = "/mnt/x",
	    .signature = "ext4", .usage = "filesystem" },
	  1,
	  1,
	  -EBUSY,
	  0,
	  "/dev/sdx: mounted on /mnt/x; lockstep never writes to a mounted device" },
	{ "mounted, read",
	  { BLK, .mounted_dev = "sdx", .mount_point = "/m" },
	  0,
	  0,
	  0,
	  0,
	  NULL },
	{ "partition mounted, write",
	  { BLK, .mounted_dev = "sdx1", .mount_point = "/m" },
	  1,
	  1,
	  -EBUSY,
	  0,
	  "its partition sdx1 is mounted on /m" },
	{ "held by dm, write, force",
	  { BLK, .held_dev = "sdx", .holder = "dm-0" },
	  1,
	  1,
	  -EBUSY,
	  0,
	  "/dev/sdx: held by dm-0" },
	{ "partition held by md",
	  { BLK, .held_dev = "sdx2", .holder = "md127" },
	  1,
	  0,
	  -EBUSY,
	  0,
	  "its partition sdx2 is held by md127" },
	{ "claimed exclusively",
	  { BLK, .busy = 1 },
	  1,
	  1,
	  -EBUSY,
	  0,
	  "claimed by another program" },
	{ "root disk, write, force",
	  { BLK, .system = "/" },
	  1,
	  1,
	  -EPERM,
	  0,
	  "holds the root file system; lockstep never writes to it, force=yes or not" },
	{ "boot disk, write",
	  { BLK, .system = "/boot" },
	  1,
	  0,
	  -EPERM,
	  0,
	  "holds /boot" },
	{ "swap device, write, force",
	  { BLK, .system = "swap" },
	  1,
	  1,
	  -EPERM,
	  0,
	  "holds an active swap" },
	{ "root disk, read", { BLK, .system = "/" }, 0, 0, 0, 0, NULL },
	{ "probe failed, write",
	  { BLK, .probe_error = -EIO },
	  1,
	  1,
	  -EIO,
	  0,
	  "cannot probe it" },
	{ "fifo, read",
	  { .kind = SAFETY_KIND_FIFO },
	  0,
	  0,
	  -EINVAL,
	  0,
	  "is a FIFO" },
	{ "socket, write",
	  { .kind = SAFETY_KIND_SOCKET },
	  1,
	  1,
	  -EINVAL,
	  0,
	  "is a socket" },
	{ "odd char device, read",
	  { .kind = SAFETY_KIND_CHAR, .place = SAFETY_PLACE_DEV },
	  0,
	  0,
	  -EINVAL,
	  0,
	  "character device" },
	{ "directory",
	  { .kind = SAFETY_KIND_DIR },
	  1,
	  0,
	  -EINVAL,
	  0,
	  "is a directory" },
	{ "/dev/null, write",
	  { .kind = SAFETY_KIND_NULLDEV, .place = SAFETY_PLACE_DEV },
	  1,
	  0,
	  0,
	  0,
	  NULL },
	{ "/proc file, read",
	  { .kind = SAFETY_KIND_FILE, .place = SAFETY_PLACE_PSEUDO },
	  0,
	  0,
	  -EPERM,
	  0,
	  "under /proc or /sys" },
	{ "missing under /proc",
	  { .kind = SAFETY_KIND_MISSING, .place = SAFETY_PLACE_PSEUDO },
	  1,
	  0,
	  -EPERM,
	  0,
	  "under /proc or /sys" },
	{ "file under /dev",
	  { .kind = SAFETY_KIND_FILE, .place = SAFETY_PLACE_DEV },
	  0,
	  0,
	  -EPERM,
	  0,
	  "under /dev but not a block device" },
	{ "missing under /dev",
	  { .kind = SAFETY_KIND_MISSING, .place = SAFETY_PLACE_DEV },
	  1,
	  0,
	  -ENOENT,
	  0,
	  "creates files only outside /dev" },
	{ "missing file", { .kind = SAFETY_KIND_MISSING }, 1, 0, 0, 0, NULL },
	{ "file, write", { .kind = SAFETY_KIND_FILE }, 1, 0, 0, 0, NULL },
	{ "active swap file, write",
	  { .kind = SAFETY_KIND_FILE, .system = "swap" },
	  1,
	  1,
	  -EPERM,
	  0,
	  "is an active swap file" },
	{ "backing file of a mounted loop device, write, force",
	  { .kind = SAFETY_KIND_FILE,
	    .backs = "loop3",
	    .backs_use = "mounted on /m" },
	  1,
	  1,
	  -EBUSY,
	  0,
	  "backs loop device loop3, mounted on /m" },
	{ "backing file of a mounted loop device, read",
	  { .kind = SAFETY_KIND_FILE,
	    .backs = "loop3",
	    .backs_use = "mounted on /m" },
	  0,
	  0,
	  0,
	  0,
	  NULL },
};

static void test_decide_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(decide_cases) / sizeof(*decide_cases);
	     i++) {
		const struct decide_case *c = &decide_cases[i];
		struct safety_verdict v;
		int ret;

		ret = safety_decide(&c->f, "/dev/sdx", c->need_write, c->force,
				    &v);
		if (ret != c->ret || v.allowed != (ret == 0) ||
		    v.forced != c->forced ||
		    (c->reason ? !strstr(v.reason, c->reason) :
				 v.reason[0] != 0))
			fail_msg("%s: ret %d allowed %d forced %d reason \"%s\"",
				 c->name, ret, v.allowed, v.forced, v.reason);
		if (c->forced)
			assert_string_equal(v.signature, c->f.signature);
		else
			assert_string_equal(v.signature, "");
	}
}

/* ---- allowlist ------------------------------------------------------- */

static void test_allow_parse(void **state)
{
	static const struct {
		const char *list;
		unsigned n;
		const char *err;
	} cases[] = {
		{ "/dev/loop*", 1, NULL },
		{ "/dev/sd[b-z],/mnt/data/*,/tmp/x", 3, NULL },
		{ "", 0, "empty" },
		{ ",", 0, "glob 1 is empty" },
		{ "/a,", 0, "glob 2 is empty" },
		{ "/a,,/b", 0, "glob 2 is empty" },
		{ "dev/sdb", 0, "not an absolute path" },
		{ "/a,\x01", 0, "not an absolute path" },
		{ "/a\tb", 0, "control character at byte 3" },
	};
	char big[SAFETY_ALLOW_LIST_LEN + 8], err[256];
	struct safety_allow a;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		int ret;

		err[0] = 0;
		ret = safety_allow_parse(cases[i].list, &a, err, sizeof(err));
		assert_int_equal(ret, cases[i].err ? -EINVAL : 0);
		assert_int_equal(a.n, cases[i].n);
		if (cases[i].err && !strstr(err, cases[i].err))
			fail_msg("%s: \"%s\"", cases[i].list, err);
	}
	/* One glob too long. */
	big[0] = '/';
	memset(big + 1, 'a', SAFETY_GLOB_LEN);
	big[SAFETY_GLOB_LEN + 1] = 0;
	assert_int_equal(safety_allow_parse(big, &a, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "over 255 bytes"));
	/* Too many globs. */
	big[0] = 0;
	for (unsigned i = 0; i <= SAFETY_ALLOW_MAX; i++)
		strcat(big, i ? ",/g" : "/g");
	assert_int_equal(safety_allow_parse(big, &a, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "more than 64 globs"));
	assert_int_equal(a.n, 0);
	/* The whole list too long (and not terminated where it is read). */
	memset(big, '/', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	assert_int_equal(safety_allow_parse(big, &a, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "over 4096 bytes"));
	/* Exactly SAFETY_ALLOW_MAX globs are fine. */
	big[0] = 0;
	for (unsigned i = 0; i < SAFETY_ALLOW_MAX; i++)
		strcat(big, i ? ",/g" : "/g");
	assert_int_equal(safety_allow_parse(big, &a, err, sizeof(err)), 0);
	assert_int_equal(a.n, SAFETY_ALLOW_MAX);
}

static void test_allow_match(void **state)
{
	struct safety_allow a, empty = { 0 };
	char err[256];

	(void)state;
	assert_int_equal(safety_allow_parse("/dev/loop*,/data/*.img", &a, err,
					    sizeof(err)),
			 0);
	assert_true(safety_allow_match(&a, "/dev/loop3"));
	assert_true(safety_allow_match(&a, "/data/a.img"));
	/* FNM_PATHNAME: a star never crosses a slash. */
	assert_false(safety_allow_match(&a, "/data/sub/a.img"));
	assert_false(safety_allow_match(&a, "/dev/loop/../sda"));
	assert_false(safety_allow_match(&a, "/dev/sda"));
	/* An empty allowlist allows nothing. */
	assert_false(safety_allow_match(&empty, "/dev/loop3"));
	assert_false(safety_allow_match(&empty, "/"));
}

static int rm_rf(const char *dir)
{
	char cmd[PATH_MAX + 64];

	snprintf(cmd, sizeof(cmd), "rm -rf -- '%s'", dir);
	return system(cmd);
}

static void test_allow_symlinks(void **state)
{
	char dir[] = "/tmp/ls-safety-XXXXXX", p[PATH_MAX], q[PATH_MAX];
	char glob[PATH_MAX], err[256];
	struct safety_verdict v;
	struct safety_allow a;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/ok", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/out", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/out/secret", dir);
	close(open(p, O_CREAT | O_WRONLY, 0600));
	/* ok/link -> ../out/secret: inside the glob by name only. */
	snprintf(q, sizeof(q), "%s/ok/link", dir);
	assert_int_equal(symlink(p, q), 0);
	/* ok/dirlink -> ../out: a missing file below it lands outside. */
	snprintf(p, sizeof(p), "%s/out", dir);
	snprintf(q, sizeof(q), "%s/ok/dirlink", dir);
	assert_int_equal(symlink(p, q), 0);
	snprintf(q, sizeof(q), "%s/ok/dangling", dir);
	assert_int_equal(symlink("/nonexistent/ls-safety", q), 0);

	snprintf(glob, sizeof(glob), "%s/ok/*", dir);
	assert_int_equal(safety_allow_parse(glob, &a, err, sizeof(err)), 0);

	snprintf(p, sizeof(p), "%s/ok/new.img", dir);
	assert_int_equal(safety_allow_check(&a, p, &v), 0);
	assert_int_equal(v.allowed, 1);
	snprintf(p, sizeof(p), "%s/ok/link", dir);
	assert_int_equal(safety_allow_check(&a, p, &v), -EPERM);
	assert_int_equal(v.allowed, 0);
	assert_non_null(strstr(v.reason, "resolves to"));
	assert_non_null(strstr(v.reason, "/out/secret"));
	snprintf(p, sizeof(p), "%s/ok/dirlink/new.img", dir);
	assert_int_equal(safety_allow_check(&a, p, &v), -EPERM);
	/* A missing tail may not climb out with "..". */
	snprintf(p, sizeof(p), "%s/ok/nodir/../../out/x", dir);
	assert_int_equal(safety_allow_check(&a, p, &v), -EINVAL);
	/* Creating through a dangling symlink would create its target. */
	snprintf(p, sizeof(p), "%s/ok/dangling", dir);
	assert_int_equal(safety_allow_check(&a, p, &v), -ENOENT);
	assert_int_equal(v.allowed, 0);
	assert_int_equal(rm_rf(dir), 0);
}

/*
 * --allow-path entries are literal: a lun named with glob characters or a
 * comma allows itself and nothing else; repeated --allow lists add up.
 */
static void test_allow_literal(void **state)
{
	char dir[] = "/tmp/ls-safety-XXXXXX", p[PATH_MAX], q[PATH_MAX];
	char err[256];
	struct safety_verdict v;
	struct safety_allow *a = calloc(1, sizeof(*a));

	(void)state;
	assert_non_null(a);
	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/l*n,[x]?", dir);
	assert_int_equal(safety_allow_add_path(a, p, err, sizeof(err)), 0);
	assert_int_equal(a->n, 1);
	assert_int_equal(a->literal[0], 1);
	assert_true(safety_allow_match(a, p));
	snprintf(q, sizeof(q), "%s/lun,xa", dir);
	assert_false(safety_allow_match(a, q));
	snprintf(q, sizeof(q), "%s/l", dir);
	assert_false(safety_allow_match(a, q));
	assert_int_equal(safety_allow_check(a, p, &v), 0);
	snprintf(q, sizeof(q), "%s/other", dir);
	assert_int_equal(safety_allow_check(a, q, &v), -EPERM);
	/* A symlink lun allows what it points to, as the open will see it. */
	snprintf(p, sizeof(p), "%s/real", dir);
	close(open(p, O_CREAT | O_WRONLY, 0600));
	snprintf(q, sizeof(q), "%s/alias", dir);
	assert_int_equal(symlink(p, q), 0);
	assert_int_equal(safety_allow_add_path(a, q, err, sizeof(err)), 0);
	assert_true(safety_allow_match(a, p));
	assert_int_equal(safety_allow_check(a, q, &v), 0);
	/* Lists add up; a bad list leaves what was there. */
	assert_int_equal(safety_allow_add_list(a, "/dev/loop*,/srv/*.img", err,
					       sizeof(err)),
			 0);
	assert_int_equal(a->n, 4);
	assert_true(safety_allow_match(a, "/dev/loop7"));
	assert_int_equal(safety_allow_add_list(a, "relative", err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(a->n, 4);
	free(a);
	assert_int_equal(rm_rf(dir), 0);
}

/* ---- paths that are not luns ----------------------------------------- */

static void expect(const char *path, int need_write, int force, int ret,
		   const char *reason)
{
	struct safety_verdict v;
	int got = safety_check_target(path, need_write, force, &v);

	if (got != ret || v.allowed != (ret == 0) ||
	    (reason && !strstr(v.reason, reason)))
		fail_msg("%s (write %d force %d): ret %d, want %d; \"%s\"",
			 path, need_write, force, got, ret, v.reason);
}

static void test_pseudo_and_dev_paths(void **state)
{
	struct stat st;

	(void)state;
	expect("/proc/x", 1, 1, -EPERM, "under /proc or /sys");
	expect("/proc/self/status", 0, 0, -EPERM, "under /proc or /sys");
	expect("/sys/kernel/x", 0, 0, -EPERM, "under /proc or /sys");
	expect("/dev/null", 1, 0, 0, NULL);
	expect("/dev/null", 0, 0, 0, NULL);
	expect("/dev/zero", 0, 0, 0, NULL);
	if (stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode))
		expect("/dev/full", 0, 0, -EINVAL, "character device");
	expect("/dev/ls-safety-missing", 1, 0, -ENOENT, "outside /dev");
	if (stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode))
		expect("/dev/shm", 0, 0, -EINVAL, "is a directory");
	expect("/tmp/ls-safety-missing-file", 1, 0, 0, NULL);
}

static void test_fifo_returns(void **state)
{
	char dir[] = "/tmp/ls-safety-XXXXXX", p[PATH_MAX];
	struct timespec a, b;
	double took;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/fifo", dir);
	assert_int_equal(mkfifo(p, 0600), 0);
	/* A hang is a failure too: SIGALRM ends the test. */
	alarm(10);
	clock_gettime(CLOCK_MONOTONIC, &a);
	expect(p, 0, 0, -EINVAL, "is a FIFO");
	expect(p, 1, 1, -EINVAL, "is a FIFO");
	clock_gettime(CLOCK_MONOTONIC, &b);
	alarm(0);
	took = (double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
	assert_true(took < 2.0);
	assert_int_equal(rm_rf(dir), 0);
}

static void test_room(void **state)
{
	char dir[] = "/tmp/ls-safety-XXXXXX", p[PATH_MAX], reason[256];
	int fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/a/b/new.img", dir);
	reason[0] = 0;
	assert_int_equal(safety_check_room(p, 4096, reason, sizeof(reason)), 0);
	assert_int_equal(safety_check_room(p, UINT64_MAX / 2, reason,
					   sizeof(reason)),
			 -ENOSPC);
	assert_non_null(strstr(reason, "needs 9223372036854775807 more bytes"));
	assert_non_null(strstr(reason, "available"));
	/* An existing file counts only its growth. */
	snprintf(p, sizeof(p), "%s/have.img", dir);
	fd = open(p, O_CREAT | O_WRONLY, 0600);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 1 << 20), 0);
	close(fd);
	assert_int_equal(safety_check_room(p, 1 << 20, reason, sizeof(reason)),
			 0);
	assert_int_equal(safety_check_room(p, UINT64_MAX, reason,
					   sizeof(reason)),
			 -ENOSPC);
	assert_non_null(
		strstr(reason,
		       "more bytes to reach size=18446744073709551615"));
	assert_int_equal(rm_rf(dir), 0);
}

/* ---- real devices (root) -------------------------------------------- */

#define IMG_BYTES (64u << 20)

struct rig {
	char dir[64];
	char img[PATH_MAX];
	char mnt[PATH_MAX];
	char loop[64];
	int mounted;
};

static int have_tool(const char *tool)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", tool);
	return system(cmd) == 0;
}

/* Run a shell command under timeout(1), quietly; its exit status. */
static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
	char cmd[2 * PATH_MAX], full[2 * PATH_MAX + 64];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	snprintf(full, sizeof(full), "timeout 60 sh -c '%s' >/dev/null 2>&1",
		 cmd);
	st = system(full);
	return st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static int skip_unless_root(const char *tools)
{
	char list[256], *save = NULL;

	if (geteuid() != 0) {
		print_message("test_safety: skipped, needs root\n");
		return 1;
	}
	snprintf(list, sizeof(list), "losetup mount umount %s", tools);
	for (char *t = strtok_r(list, " ", &save); t;
	     t = strtok_r(NULL, " ", &save))
		if (!have_tool(t)) {
			print_message("test_safety: skipped, %s is missing\n",
				      t);
			return 1;
		}
	return 0;
}

static int rig_setup(void **state)
{
	struct rig *r = calloc(1, sizeof(*r));
	int fd;

	if (!r)
		return -1;
	snprintf(r->dir, sizeof(r->dir), "/tmp/ls-safety-XXXXXX");
	if (!mkdtemp(r->dir)) {
		free(r);
		return -1;
	}
	snprintf(r->img, sizeof(r->img), "%s/disk.img", r->dir);
	snprintf(r->mnt, sizeof(r->mnt), "%s/mnt", r->dir);
	fd = open(r->img, O_CREAT | O_WRONLY, 0600);
	if (fd < 0 || ftruncate(fd, IMG_BYTES) < 0 || mkdir(r->mnt, 0700)) {
		if (fd >= 0)
			close(fd);
		rm_rf(r->dir);
		free(r);
		return -1;
	}
	close(fd);
	*state = r;
	return 0;
}

static int rig_teardown(void **state)
{
	struct rig *r = *state;

	if (!r)
		return 0;
	if (r->mounted && sh("umount %s", r->mnt) != 0)
		sh("umount -l %s", r->mnt);
	if (r->loop[0])
		sh("losetup -d %s", r->loop);
	rm_rf(r->dir);
	free(r);
	*state = NULL;
	return 0;
}

/* Attach the image to a free loop device (with partition scan if asked). */
static void rig_attach(struct rig *r, int partscan)
{
	char cmd[PATH_MAX + 64];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "timeout 30 losetup -f --show %s %s",
		 partscan ? "-P" : "", r->img);
	p = popen(cmd, "r");
	assert_non_null(p);
	if (!fgets(r->loop, sizeof(r->loop), p))
		r->loop[0] = 0;
	pclose(p);
	r->loop[strcspn(r->loop, "\n")] = 0;
	if (strncmp(r->loop, "/dev/loop", 9)) {
		r->loop[0] = 0;
		fail_msg("losetup -f --show %s failed", r->img);
	}
}

/*
 * Wait, bounded, for a loop device's partition to appear; 0 if it does not
 * (a kernel built without partition tables, as some VMs' are).
 */
static int wait_partition(const char *path)
{
	const struct timespec tick = { 0, 50000000 };
	struct stat st;

	for (int i = 0; i < 100; i++) {
		if (stat(path, &st) == 0 && S_ISBLK(st.st_mode))
			return 1;
		nanosleep(&tick, NULL);
	}
	return 0;
}

/* A signature is refused for writes, named when forced, fine for reads. */
static void expect_signature(const char *dev, const char *sig,
			     const char *reason)
{
	struct safety_verdict v;

	expect(dev, 1, 0, -EPERM, reason);
	expect(dev, 1, 0, -EPERM, "force=yes on its sd overwrites it");
	expect(dev, 0, 0, 0, NULL);
	assert_int_equal(safety_check_target(dev, 1, 1, &v), 0);
	assert_int_equal(v.allowed, 1);
	assert_int_equal(v.forced, 1);
	assert_string_equal(v.signature, sig);
	assert_non_null(strstr(v.reason, "(force=yes)"));
}

static void test_loop_blank(void **state)
{
	struct rig *r = *state;
	struct safety_verdict v;
	int fd;

	if (skip_unless_root(""))
		skip();
	rig_attach(r, 0);
	assert_int_equal(safety_check_target(r->loop, 1, 0, &v), 0);
	assert_int_equal(v.allowed, 1);
	assert_int_equal(v.forced, 0);
	assert_string_equal(v.reason, "");
	expect(r->loop, 0, 0, 0, NULL);
	/* The kernel's exclusive claim, held here as another program would. */
	fd = open(r->loop, O_RDONLY | O_EXCL | O_CLOEXEC);
	assert_true(fd >= 0);
	expect(r->loop, 1, 1, -EBUSY, "claimed by another program");
	expect(r->loop, 0, 0, 0, NULL);
	close(fd);
	expect(r->loop, 1, 0, 0, NULL);
}

static void test_loop_ext4(void **state)
{
	struct rig *r = *state;

	if (skip_unless_root("mkfs.ext4"))
		skip();
	assert_int_equal(sh("mkfs.ext4 -F -q %s", r->img), 0);
	rig_attach(r, 0);
	expect_signature(r->loop, "ext4", "holds an ext4 filesystem");
}

static void test_loop_mbr(void **state)
{
	struct rig *r = *state;

	if (skip_unless_root("sfdisk"))
		skip();
	assert_int_equal(sh("printf \"label: dos\\n,\\n\" | sfdisk -q %s",
			    r->img),
			 0);
	rig_attach(r, 0);
	expect_signature(r->loop, "dos", "holds a dos partition table");
}

static void test_loop_gpt(void **state)
{
	struct rig *r = *state;

	if (skip_unless_root("sfdisk"))
		skip();
	assert_int_equal(sh("printf \"label: gpt\\n,\\n\" | sfdisk -q %s",
			    r->img),
			 0);
	rig_attach(r, 0);
	expect_signature(r->loop, "gpt", "holds a gpt partition table");
}

static void test_loop_swap(void **state)
{
	struct rig *r = *state;

	if (skip_unless_root("mkswap"))
		skip();
	/* A signature only: never swapon. */
	assert_int_equal(sh("mkswap %s", r->img), 0);
	rig_attach(r, 0);
	expect_signature(r->loop, "swap", "holds a swap signature");
}

static void test_loop_mounted(void **state)
{
	struct rig *r = *state;

	if (skip_unless_root("mkfs.ext4"))
		skip();
	assert_int_equal(sh("mkfs.ext4 -F -q %s", r->img), 0);
	rig_attach(r, 0);
	/* Read-only from the first moment: nothing may write to it. */
	assert_int_equal(sh("mount -o ro %s %s", r->loop, r->mnt), 0);
	r->mounted = 1;
	expect(r->loop, 1, 0, -EBUSY, "mounted on ");
	expect(r->loop, 1, 0, -EBUSY, r->mnt);
	expect(r->loop, 1, 1, -EBUSY, "never writes to a mounted device");
	expect(r->loop, 0, 0, 0, NULL);
	/* Its image file is not writable while the device is mounted. */
	expect(r->img, 1, 1, -EBUSY, "backs loop device");
	expect(r->img, 0, 0, 0, NULL);
}

static void test_loop_partition_mounted(void **state)
{
	struct rig *r = *state;
	char part[80], want[128];

	if (skip_unless_root("sfdisk mkfs.ext4"))
		skip();
	assert_int_equal(sh("printf \"label: dos\\n,\\n\" | sfdisk -q %s",
			    r->img),
			 0);
	rig_attach(r, 1);
	snprintf(part, sizeof(part), "%sp1", r->loop);
	if (!wait_partition(part)) {
		print_message("test_safety: skipped, %s did not appear in 5 s (does the kernel read partition tables?)\n",
			      part);
		skip();
	}
	assert_int_equal(sh("mkfs.ext4 -F -q %s", part), 0);
	assert_int_equal(sh("mount -o ro %s %s", part, r->mnt), 0);
	r->mounted = 1;
	snprintf(want, sizeof(want), "its partition %s is mounted on ",
		 part + 5);
	expect(r->loop, 1, 0, -EBUSY, want);
	expect(r->loop, 1, 1, -EBUSY, want);
	expect(r->loop, 0, 0, 0, NULL);
	expect(part, 1, 1, -EBUSY, "mounted on ");
	expect(part, 0, 0, 0, NULL);
}

static void test_root_disk(void **state)
{
	char link[64], target[PATH_MAX], dev[PATH_MAX], *base;
	struct stat st;
	ssize_t n;

	(void)state;
	if (skip_unless_root(""))
		skip();
	if (stat("/", &st) < 0 || major(st.st_dev) == 0) {
		print_message(
			"test_safety: skipped, / is not on a block device\n");
		skip();
	}
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(st.st_dev),
		 minor(st.st_dev));
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		skip();
	target[n] = 0;
	/* The whole disk: the parent of a partition. */
	strncat(link, "/partition", sizeof(link) - strlen(link) - 1);
	if (access(link, F_OK) == 0)
		*strrchr(target, '/') = 0;
	base = strrchr(target, '/');
	snprintf(dev, sizeof(dev), "/dev/%s", base ? base + 1 : target);
	if (stat(dev, &st) < 0 || !S_ISBLK(st.st_mode)) {
		print_message("test_safety: skipped, no node %s\n", dev);
		skip();
	}
	expect(dev, 1, 1, -EPERM, "root file system");
	expect(dev, 1, 1, -EPERM, "force=yes or not");
	expect(dev, 0, 0, 0, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decide_table),
		cmocka_unit_test(test_allow_parse),
		cmocka_unit_test(test_allow_match),
		cmocka_unit_test(test_allow_symlinks),
		cmocka_unit_test(test_allow_literal),
		cmocka_unit_test(test_pseudo_and_dev_paths),
		cmocka_unit_test(test_fifo_returns),
		cmocka_unit_test(test_room),
		cmocka_unit_test_setup_teardown(test_loop_blank, rig_setup,
						rig_teardown),
		cmocka_unit_test_setup_teardown(test_loop_ext4, rig_setup,
						rig_teardown),
		cmocka_unit_test_setup_teardown(test_loop_mbr, rig_setup,
						rig_teardown),
		cmocka_unit_test_setup_teardown(test_loop_gpt, rig_setup,
						rig_teardown),
		cmocka_unit_test_setup_teardown(test_loop_swap, rig_setup,
						rig_teardown),
		cmocka_unit_test_setup_teardown(test_loop_mounted, rig_setup,
						rig_teardown),
		cmocka_unit_test_setup_teardown(test_loop_partition_mounted,
						rig_setup, rig_teardown),
		cmocka_unit_test(test_root_disk),
	};

	return ls_run_group(tests, NULL, NULL);
}
