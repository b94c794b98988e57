/*
 * Unit tests for common/trace.c: blkparse text (Q events, D when a device
 * has no Q, flushes and other actions skipped, the closing summary) and
 * fio iolog v2 (wait lines) and v3 (timestamps) read into sorted records;
 * blktrace binary events (either byte order, per-CPU files read as one);
 * every kind of malformed line refused at NAME:LINE (a binary event at
 * its byte), and the formats it cannot read (other fio versions or
 * blktrace versions, other text or binary, empty) refused with why.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "common/trace.h"

static int parse(struct trace *t, const char *text, char *err, size_t len)
{
	memset(t, 0, sizeof(*t));
	return trace_parse(t, "t.log", text, strlen(text), err, len);
}

static void test_blkparse(void **state)
{
	const char *text =
		"  8,16   1        1     0.000000000  1234  A   W 100 + 8 <- (8,17) 36\n"
		"  8,16   1        2     0.000001000  1234  Q   W 2048 + 8 [fio]\n"
		"  8,16   1        3     0.000002000  1234  G   W 2048 + 8 [fio]\n"
		"  8,16   1        4     0.000003000  1234  D   W 2048 + 8 [fio]\n"
		"  8,16   0        5     0.005000000  1234  Q  RA 4096 + 16 [fio]\n"
		"  8,16   0        6     0.004000000  1234  Q  FWS [fio]\n"
		"  8,16   0        7     0.006000000     0  m   N cfq1234 insert_request\n"
		"  8,32   0        1     0.007500000  99  D   R 0 + 1 [kworker]\n"
		"  8,16   1        8     0.010000000  1234  C   W 2048 + 8 [0]\n"
		"\n"
		"CPU0 (8,16):\n"
		" Reads Queued:           1,        8KiB\t Writes Queued:           1,        4KiB\n"
		"Total (8,16):\n"
		"garbage after the summary is blkparse's, not ours\n";
	struct trace t;
	char err[256] = "";

	(void)state;
	assert_int_equal(parse(&t, text, err, sizeof(err)), 0);
	assert_int_equal(t.format, TRACE_BLKPARSE);
	assert_int_equal(t.ndev, 2);
	assert_string_equal(t.key[0], "8,16");
	assert_string_equal(t.key[1], "8,32");
	assert_int_equal(t.n, 3);
	/* The write queued at 1 us, the read at 5 ms, 8,32's D at 7.5 ms. */
	assert_int_equal(t.rec[0].t_ns, 1000);
	assert_int_equal(t.rec[0].offset, 2048 * 512);
	assert_int_equal(t.rec[0].len, 8 * 512);
	assert_int_equal(t.rec[0].write, 1);
	assert_int_equal(t.rec[0].line, 2);
	assert_int_equal(t.rec[1].t_ns, 5000000);
	assert_int_equal(t.rec[1].write, 0);
	assert_int_equal(t.rec[1].len, 16 * 512);
	assert_int_equal(t.rec[2].dev, 1);
	assert_int_equal(t.rec[2].t_ns, 7500000);
	assert_int_equal(t.rec[2].len, 512);
	assert_int_equal(trace_dev(&t, "8,32"), 1);
	assert_int_equal(trace_dev(&t, "8,0"), -1);
	trace_free(&t);
}

static void test_iolog(void **state)
{
	const char *v2 = "fio version 2 iolog\n"
			 "/dev/sdb add\n"
			 "/dev/sdb open\n"
			 "/dev/sdb write 0 4096\n"
			 "/dev/sdb wait 2500\n"
			 "/dev/sdb read 8192 512\n"
			 "/dev/sdb close\n";
	const char *v3 = "fio version 3 iolog\r\n"
			 "0 f1 add\n"
			 "0 f2 add\n"
			 "1 f1 open\n"
			 "1 f2 open\n"
			 "20 f2 read 4096 8192\n"
			 "5 f1 write 1048576 65536\n"
			 "20 f1 read 0 4096\n"
			 "30 f1 close\n";
	struct trace t;
	char err[256] = "";

	(void)state;
	assert_int_equal(parse(&t, v2, err, sizeof(err)), 0);
	assert_int_equal(t.format, TRACE_IOLOG2);
	assert_int_equal(t.n, 2);
	assert_int_equal(t.rec[0].t_ns, 0);
	assert_int_equal(t.rec[0].write, 1);
	assert_int_equal(t.rec[1].t_ns, 2500000);
	assert_int_equal(t.rec[1].offset, 8192);
	assert_int_equal(t.rec[1].len, 512);
	assert_string_equal(t.key[0], "/dev/sdb");
	trace_free(&t);

	assert_int_equal(parse(&t, v3, err, sizeof(err)), 0);
	assert_int_equal(t.format, TRACE_IOLOG3);
	assert_int_equal(t.n, 3);
	/* Sorted by time, equal times in file order. */
	assert_int_equal(t.rec[0].t_ns, 5000000);
	assert_int_equal(t.rec[0].offset, 1048576);
	assert_int_equal(t.rec[0].len, 65536);
	assert_int_equal(t.rec[1].t_ns, 20000000);
	assert_int_equal(t.rec[1].dev, 1);
	assert_int_equal(t.rec[1].line, 6);
	assert_int_equal(t.rec[2].dev, 0);
	assert_int_equal(t.rec[2].line, 8);
	trace_free(&t);
}

static const struct {
	const char *text, *err;
} bad[] = {
	/* blkparse */
	{ "8,0 0 1 0.0 1 Q W 0 + 8\nhello\n",
	  "t.log:2: not a blkparse event (MAJ,MIN CPU SEQ TIME PID ACTION ...): 1 fields" },
	{ "8;0 0 1 0.0 1 Q W 0 + 8\n", "t.log:1: not a trace lockstep reads" },
	{ "8,0 0 1 0.0 1 Q W 0 + 8\n8,x 0 1 0.0 1 Q W 0 + 8\n",
	  "t.log:2: device '8,x' is not MAJ,MIN" },
	{ "8,0 0 1 0.0 1 Q W 0 + 8\n8,0 a 1 0.0 1 Q W 0 + 8\n",
	  "t.log:2: CPU 'a' or sequence '1' is not a number" },
	{ "8,0 0 1 0.1234567890 1 Q W 0 + 8\n",
	  "t.log:1: time '0.1234567890' is not SECONDS.NANOSECONDS" },
	{ "8,0 0 1 1. 1 Q W 0 + 8\n", "t.log:1: time '1.' is not" },
	{ "8,0 0 1 0.5 x Q W 0 + 8\n", "t.log:1: pid 'x' is not a number" },
	{ "8,0 0 1 0.5 1 Q\n", "t.log:1: Q event without RWBS" },
	{ "8,0 0 1 0.5 1 Q WX 0 + 8\n", "t.log:1: RWBS 'WX' has 'X'" },
	{ "8,0 0 1 0.5 1 Q D 0 + 8\n", "t.log:1: RWBS 'D' is a discard" },
	{ "8,0 0 1 0.5 1 Q S 0 + 8\n",
	  "t.log:1: RWBS 'S' is neither a read nor a write" },
	{ "8,0 0 1 0.5 1 Q R x + 8\n",
	  "t.log:1: 'x + 8' is not SECTOR + BLOCKS" },
	{ "8,0 0 1 0.5 1 Q R 0 + 0\n",
	  "t.log:1: length 0 bytes is not within" },
	{ "8,0 0 1 0.5 1 Q R 0 + 99999999\n",
	  "t.log:1: '0 + 99999999' is too large" },
	{ "8,0 0 1 0.5 1 C R 0 + 8\n",
	  "t.log: no read or write records (blkparse)" },
	/* fio iolog */
	{ "fio version 2 iolog\n/f add\n/f read 0 4096\n",
	  "t.log:3: read on '/f', which is not open" },
	{ "fio version 2 iolog\n/f write 0 4096\n",
	  "t.log:2: write on '/f', which is not added" },
	{ "fio version 2 iolog\n/f open\n",
	  "t.log:2: open of '/f', which is not added" },
	{ "fio version 2 iolog\n/f add\n/f close\n",
	  "t.log:3: close of '/f', which is not open" },
	{ "fio version 2 iolog\n/f add\n/f delete\n",
	  "t.log:3: unknown file action 'delete'" },
	{ "fio version 2 iolog\n/f add\n/f open\n/f trim 0 4096\n",
	  "t.log:4: 'trim' is not replayed by lockstep" },
	{ "fio version 2 iolog\n/f add\n/f open\n/f sync 0 0\n",
	  "t.log:4: 'sync' is not replayed by lockstep" },
	{ "fio version 2 iolog\n/f add\n/f open\n/f readx 0 4096\n",
	  "t.log:4: unknown action 'readx'" },
	{ "fio version 2 iolog\n/f add\n/f open\n/f read -1 4096\n",
	  "t.log:4: offset '-1' or length '4096' is not a number" },
	{ "fio version 2 iolog\n/f add\n/f open\n/f read 0 0x10\n",
	  "t.log:4: offset '0' or length '0x10' is not a number" },
	{ "fio version 2 iolog\n/f add\n/f open\n/f read 0 33554432\n",
	  "t.log:4: length 33554432 bytes is not within" },
	{ "fio version 2 iolog\n/f add\n/f open\n/f read 18446744073709551000 4096\n",
	  "t.log:4: offset 18446744073709551000 plus length overflows" },
	{ "fio version 2 iolog\n/f add\n/f open\n/f wait x\n",
	  "t.log:4: wait 'x' is not microseconds" },
	{ "fio version 2 iolog\n/f add\n/f open\n/f read 0 4096 9\n",
	  "t.log:4: expected FILE ACTION [OFFSET LENGTH], got 5 fields" },
	{ "fio version 2 iolog\n/f add\n/f open 1\n",
	  "t.log:3: expected FILE wait USEC, got 'open'" },
	{ "fio version 2 iolog\n/f add\n/f open\n",
	  "t.log: no read or write records (fio iolog v2)" },
	{ "fio version 3 iolog\nx /f add\n",
	  "t.log:2: timestamp 'x' is not milliseconds" },
	{ "fio version 3 iolog\n0 /f add\n0 /f open\n1 /f wait 100\n",
	  "t.log:4: expected TIMESTAMP FILE ACTION [OFFSET LENGTH], got 4 fields" },
	{ "fio version 3 iolog\n0 /f add\n0 /f read 0\n",
	  "t.log:3: expected TIMESTAMP FILE ACTION" },
	{ "fio version 3 iolog\n0 /f add\n0 /f open\n0 /f read 0 4096 a b c d e f g h i j k l m\n",
	  "t.log:4: more than 15 fields" },
	/* formats */
	{ "fio version 4 iolog\n",
	  "t.log:1: 'fio version 4 iolog': lockstep reads fio iolog versions 2 and 3" },
	{ "", "t.log: empty" },
	{ "\n\n", "t.log: empty" },
	{ "hello world\n", "t.log:1: not a trace lockstep reads" },
	{ "Timestamp,Hostname,DiskNumber\n",
	  "t.log:1: not a trace lockstep reads" },
};

static void test_bad(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct trace t;
		char err[512] = "";

		if (parse(&t, bad[i].text, err, sizeof(err)) != -EINVAL)
			fail_msg("case %zu accepted: %s", i, bad[i].text);
		if (strncmp(err, bad[i].err, strlen(bad[i].err)))
			fail_msg("case %zu: got '%s', want '%s'", i, err,
				 bad[i].err);
		trace_free(&t);
	}
}

/* A blktrace event (struct blk_io_trace) at b, native or swapped. */
static size_t ev(unsigned char *b, int swap, uint32_t magic, uint64_t t_ns,
		 uint64_t sector, uint32_t bytes, uint32_t action, uint32_t dev,
		 uint16_t pdu)
{
	uint32_t pid = 42, cpu = 0, seq = 1;
	uint16_t error = 0;

#define PUT(off, v)                                                          \
	do {                                                                 \
		__typeof__(v) x_ = (v);                                      \
		if (swap && sizeof(x_) == 2)                                 \
			x_ = (__typeof__(v))__builtin_bswap16((uint16_t)x_); \
		if (swap && sizeof(x_) == 4)                                 \
			x_ = (__typeof__(v))__builtin_bswap32((uint32_t)x_); \
		if (swap && sizeof(x_) == 8)                                 \
			x_ = (__typeof__(v))__builtin_bswap64((uint64_t)x_); \
		memcpy(b + (off), &x_, sizeof(x_));                          \
	} while (0)
	PUT(0, magic);
	PUT(4, seq);
	PUT(8, t_ns);
	PUT(16, sector);
	PUT(24, bytes);
	PUT(28, action);
	PUT(32, pid);
	PUT(36, dev);
	PUT(40, cpu);
	PUT(44, error);
	PUT(46, pdu);
#undef PUT
	memset(b + 48, 'p', pdu);
	return 48 + (size_t)pdu;
}

#define MAGIC7 0x65617407u
#define DEV(ma, mi) (((uint32_t)(ma) << 20) | (mi))
#define Q(cat) (1u | ((uint32_t)(cat) << 16))
#define D(cat) (7u | ((uint32_t)(cat) << 16))
#define C(cat) (8u | ((uint32_t)(cat) << 16))

static void test_blktrace(void **state)
{
	unsigned char b[1024];
	char err[512] = "";
	struct trace t = { 0 };
	size_t n = 0;

	(void)state;
	for (int swap = 0; swap < 2; swap++) {
		n = 0;
		/* A write queued, issued and completed on 8,16. */
		n += ev(b + n, swap, MAGIC7, 5000, 2048, 4096, Q(2 | 8),
			DEV(8, 16), 0);
		n += ev(b + n, swap, MAGIC7, 6000, 2048, 4096, D(2), DEV(8, 16),
			0);
		n += ev(b + n, swap, MAGIC7, 9000, 2048, 4096, C(2), DEV(8, 16),
			0);
		/* A notify with a payload, a flush without data. */
		n += ev(b + n, swap, MAGIC7, 100, 0, 0, 1u << 26, DEV(8, 16),
			12);
		n += ev(b + n, swap, MAGIC7, 200, 0, 0, Q(4), DEV(8, 16), 0);
		/* A read on 259,1 with only issue events. */
		n += ev(b + n, swap, MAGIC7, 1000, 8, 512, D(1), DEV(259, 1),
			0);
		memset(&t, 0, sizeof(t));
		assert_int_equal(trace_parse(&t, "x.blktrace.0", (char *)b, n,
					     err, sizeof(err)),
				 0);
		assert_int_equal(t.format, TRACE_BLKTRACE);
		assert_int_equal(t.n, 2);
		assert_string_equal(t.key[t.rec[0].dev], "259,1");
		assert_int_equal(t.rec[0].t_ns, 1000);
		assert_int_equal(t.rec[0].offset, 8 * 512);
		assert_int_equal(t.rec[0].len, 512);
		assert_int_equal(t.rec[0].write, 0);
		assert_string_equal(t.key[t.rec[1].dev], "8,16");
		assert_int_equal(t.rec[1].t_ns, 5000);
		assert_int_equal(t.rec[1].offset, 2048 * 512);
		assert_int_equal(t.rec[1].write, 1);
		trace_free(&t);
	}
}

static void test_blktrace_bad(void **state)
{
	unsigned char b[256];
	char err[512];
	struct trace t = { 0 };
	size_t n;

	(void)state;
	n = ev(b, 0, MAGIC7, 1, 0, 4096, Q(2), DEV(8, 0), 0);
	assert_int_equal(trace_parse(&t, "x", (char *)b, n - 1, err,
				     sizeof(err)),
			 -EINVAL);
	assert_string_equal(err,
			    "x: byte 0: a truncated event (47 of 48 bytes)");
	trace_free(&t);
	n = ev(b, 0, MAGIC7, 1, 0, 4096, Q(2), DEV(8, 0), 40);
	assert_int_equal(trace_parse(&t, "x", (char *)b, n - 1, err,
				     sizeof(err)),
			 -EINVAL);
	assert_string_equal(err,
			    "x: byte 0: a truncated event (40 payload bytes, 39 left)");
	trace_free(&t);
	n = ev(b, 0, MAGIC7, 1, 0, 4096, Q(2), DEV(8, 0), 0);
	n += ev(b + n, 0, 0x12345678u, 1, 0, 4096, Q(2), DEV(8, 0), 0);
	assert_int_equal(trace_parse(&t, "x", (char *)b, n, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err,
			    "x: byte 48: not a blktrace event (magic 0x12345678)");
	trace_free(&t);
	n = ev(b, 0, 0x65617406u, 1, 0, 4096, Q(2), DEV(8, 0), 0);
	assert_int_equal(trace_parse(&t, "x", (char *)b, n, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err,
			    "x: byte 0: blktrace version 6 (lockstep reads version 7): convert it with blkparse");
	trace_free(&t);
	n = ev(b, 0, MAGIC7, 1, 0, 4096, Q(2 | (1u << 13)), DEV(8, 0), 0);
	assert_int_equal(trace_parse(&t, "x", (char *)b, n, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err,
			    "x: byte 0: a discard: lockstep does not replay discards");
	trace_free(&t);
	n = ev(b, 0, MAGIC7, 1, 0, 32u << 20, Q(2), DEV(8, 0), 0);
	assert_int_equal(trace_parse(&t, "x", (char *)b, n, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err,
			    "x: byte 0: length 33554432 bytes is not within 1 .. 16777216");
	trace_free(&t);
	n = ev(b, 0, MAGIC7, 1, 0, 4096, C(2), DEV(8, 0), 0);
	assert_int_equal(trace_parse(&t, "x", (char *)b, n, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "x: no read or write records (blktrace)");
	trace_free(&t);
}

/* Per-CPU files: NAME.blktrace.0, .1 read as one trace. */
static void test_blktrace_cpus(void **state)
{
	char dir[] = "/tmp/test_trace.XXXXXX", path[128], err[512];
	unsigned char b[128];
	struct trace t = { 0 };
	FILE *f;
	size_t n;

	(void)state;
	assert_non_null(mkdtemp(dir));
	for (unsigned cpu = 0; cpu < 2; cpu++) {
		n = ev(b, 0, MAGIC7, 10 - cpu, 8 * cpu, 4096, Q(cpu ? 2 : 1),
		       DEV(8, 0), 0);
		snprintf(path, sizeof(path), "%s/sda.blktrace.%u", dir, cpu);
		f = fopen(path, "w");
		assert_non_null(f);
		assert_int_equal(fwrite(b, 1, n, f), n);
		assert_int_equal(fclose(f), 0);
	}
	snprintf(path, sizeof(path), "%s/sda.blktrace.1", dir);
	assert_int_equal(trace_read(&t, path, err, sizeof(err)), 0);
	assert_int_equal(t.format, TRACE_BLKTRACE);
	assert_int_equal(t.n, 2);
	assert_int_equal(t.rec[0].t_ns, 9); /* cpu 1's write first */
	assert_int_equal(t.rec[0].write, 1);
	assert_int_equal(t.rec[1].t_ns, 10);
	assert_int_equal(t.rec[1].write, 0);
	trace_free(&t);
	/* A text file named like one is read as what it is. */
	snprintf(path, sizeof(path), "%s/sda.blktrace.0", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("hello\n", f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(trace_read(&t, path, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, ":1: not a trace lockstep reads"));
	trace_free(&t);
	for (unsigned cpu = 0; cpu < 2; cpu++) {
		snprintf(path, sizeof(path), "%s/sda.blktrace.%u", dir, cpu);
		unlink(path);
	}
	rmdir(dir);
}

static void test_binary(void **state)
{
	unsigned char junk[8] = { 'a', 0, 'b', 'c', 0, 0, 1, 2 };
	char line[2000];
	struct trace t = { 0 };
	char err[512];

	(void)state;
	assert_int_equal(trace_parse(&t, "j", (char *)junk, sizeof(junk), err,
				     sizeof(err)),
			 -EINVAL);
	assert_string_equal(err,
			    "j: binary data, not a trace lockstep reads (blkparse text, fio iolog v2 or v3, blktrace binary)");
	trace_free(&t);
	/* A line too long to be either format. */
	memset(line, 'a', sizeof(line));
	assert_int_equal(trace_parse(&t, "l", line, sizeof(line), err,
				     sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "l:1: line longer than 1023 bytes");
	trace_free(&t);
	assert_int_equal(trace_read(&t, "/nonexistent/t.log", err, sizeof(err)),
			 -ENOENT);
	assert_string_equal(err,
			    "/nonexistent/t.log: No such file or directory");
	trace_free(&t);
}

static void test_hash(void **state)
{
	(void)state;
	/* FNV-1a 64's published values. */
	assert_true(trace_hash("", 0) == 0xcbf29ce484222325ull);
	assert_true(trace_hash("a", 1) == 0xaf63dc4c8601ec8cull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blkparse),
		cmocka_unit_test(test_iolog),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_binary),
		cmocka_unit_test(test_hash),
		cmocka_unit_test(test_blktrace),
		cmocka_unit_test(test_blktrace_bad),
		cmocka_unit_test(test_blktrace_cpus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
