/*
 * Unit tests for what Vdbench users' tools parse (master/results/vdbench.c): the
 * "Starting RD=" header line in Vdbench's exact shape for every kind of
 * phase, and flatfile.html in Vdbench's layout as ParseFlat reads it.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "master/results/vdbench.h"

static void test_rd_line(void **state)
{
	static const struct {
		const char *name;
		enum plan_kind kind;
		double iorate, elapsed, warmup;
		const char *want;
	} t[] = {
		{ "loop1 xfersize=4k rdpct=70", PLAN_MEASURE, 0, 30, 5,
		  "Starting RD=loop1; I/O rate: Uncontrolled MAX; elapsed=30 warmup=5; For loops: xfersize=4k rdpct=70" },
		{ "r1", PLAN_MEASURE, 0, 3600, 1800,
		  "Starting RD=r1; I/O rate: Uncontrolled MAX; elapsed=3600 warmup=1800; For loops: None" },
		{ "r1 iorate=2000", PLAN_MEASURE, 2000, 10, 0,
		  "Starting RD=r1; I/O rate: 2000; elapsed=10 warmup=0; For loops: None" },
		{ "r1 threads=8 iorate=500", PLAN_MEASURE, 500, 10, 0,
		  "Starting RD=r1; I/O rate: 500; elapsed=10 warmup=0; For loops: threads=8" },
		{ "c1 curve=max", PLAN_CURVE_MAX, 0, 10, 0,
		  "Starting RD=c1; I/O rate: Uncontrolled curve; elapsed=10 warmup=0; For loops: None" },
		{ "c1 curve=50%", PLAN_CURVE_POINT, 5400, 10, 0,
		  "Starting RD=c1; I/O rate: 5400; elapsed=10 warmup=0; For loops: None" },
		{ "f1 format", PLAN_FORMAT, 0, 86400, 0,
		  "Starting RD=format_for_f1; I/O rate: Uncontrolled MAX; elapsed=86400 warmup=0; For loops: None" },
		{ "s1 seekpct=eof compratio=2", PLAN_MEASURE, 0, 10, 0,
		  "Starting RD=s1; I/O rate: Uncontrolled MAX; elapsed=10 warmup=0; For loops: seekpct=eof compratio=2" },
	};
	char buf[512];

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct plan_phase ph;
		char rd[64];

		memset(&ph, 0, sizeof(ph));
		snprintf(ph.name, sizeof(ph.name), "%s", t[i].name);
		snprintf(rd, sizeof(rd), "%.*s", (int)strcspn(t[i].name, " "),
			 t[i].name);
		ph.kind = t[i].kind;
		ph.iorate = t[i].iorate;
		ph.elapsed_s = t[i].elapsed;
		ph.warmup_s = t[i].warmup;
		vdbench_rd_line(rd, &ph, buf, sizeof(buf));
		assert_string_equal(buf, t[i].want);
	}
}

/* The blank-separated words of line (up to '\n') into w; their count. */
static int split(const char *line, char w[][64], int max)
{
	int n = 0;

	while (*line && *line != '\n') {
		size_t k;

		line += strspn(line, " ");
		k = strcspn(line, " \n");
		if (!k)
			break;
		if (n < max)
			snprintf(w[n], 64, "%.*s", (int)k, line);
		n++;
		line += k;
	}
	return n;
}

static int col(char names[][64], int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcasecmp(names[i], name))
			return i;
	fail_msg("no column %s", name);
	return -1;
}

/*
 * The requested columns from a parsed file: a loop's xfersize, the sds'
 * common threads, the workloads' rdpct and seekpct, lunsize in GiB, "n/a"
 * where the workloads differ or a size is unknown; a format pass's Run.
 */
static void test_flat_req(void **state)
{
	const char *text =
		"sd=sd1,lun=/tmp/a,size=1g,threads=4\n"
		"sd=sd2,lun=/tmp/b,size=1g,threads=4\n"
		"sd=sd3,lun=/tmp/c,threads=2\n"
		"wd=wd1,sd=(sd1,sd2),xfersize=8k,rdpct=70,seekpct=100\n"
		"wd=wd2,sd=sd3,xfersize=4k,rdpct=0,seekpct=0\n"
		"rd=r1,wd=wd1,iorate=max,elapsed=2,interval=1,forxfersize=(4k,16k)\n"
		"rd=mix,wd=(wd1,wd2),iorate=300,elapsed=2,interval=1,format=yes\n";
	struct params *p = NULL;
	struct plan_phase *ph = NULL;
	struct plan_overrides ov = { -1, -1, -1 };
	struct vdbench_req rq;
	size_t n = 0;
	char err[256];

	(void)state;
	assert_int_equal(params_parse_string("t.vdb", text, &p, err,
					     sizeof(err)),
			 0);
	if (plan_phases(p, &ov, &ph, &n, err, sizeof(err)))
		fail_msg("%s", err);
	assert_true(n == 4);
	vdbench_flat_req(p, &ph[1], "lockstep 1.0", &rq);
	assert_string_equal(rq.run, "r1");
	assert_string_equal(rq.reqrate, "max");
	assert_string_equal(rq.xfersize, "16384");
	assert_string_equal(rq.threads, "4");
	assert_string_equal(rq.rdpct, "70.0000");
	assert_string_equal(rq.seekpct, "100.0000");
	assert_string_equal(rq.lunsize, "2.0000");
	assert_string_equal(rq.version, "lockstep_1.0");
	assert_string_equal(rq.compratio, "1.0000");
	vdbench_flat_req(p, &ph[2], "v", &rq);
	assert_string_equal(rq.run, "format_for_mix");
	vdbench_flat_req(p, &ph[3], "v", &rq);
	assert_string_equal(rq.run, "mix");
	assert_string_equal(rq.reqrate, "300");
	assert_string_equal(rq.xfersize, "n/a");
	assert_string_equal(rq.threads, "n/a");
	assert_string_equal(rq.rdpct, "n/a");
	assert_string_equal(rq.lunsize, "n/a");
	free(ph);
	params_free(&p);
}

/*
 * ParseFlat's rules: the column names are the first line that starts with
 * a blank; every other line not starting with '*' is data and must have
 * one word per column; Run and Interval exist; avg_ rows are kept apart.
 * A stall's magnitudes (seconds of latency, a queue depth of thousands)
 * keep one word per column.
 */
static void test_flat(void **state)
{
	struct stats_view v;
	struct vdbench_req rq;
	char *buf = NULL, *line, names[64][64], w[64][64];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ncol = 0, rows = 0, avgs = 0;

	(void)state;
	memset(&v, 0, sizeof(v));
	memset(&rq, 0, sizeof(rq));
	snprintf(rq.run, sizeof(rq.run), "r1");
	snprintf(rq.reqrate, sizeof(rq.reqrate), "max");
	snprintf(rq.xfersize, sizeof(rq.xfersize), "4096");
	snprintf(rq.threads, sizeof(rq.threads), "n/a");
	snprintf(rq.rdpct, sizeof(rq.rdpct), "n/a");
	snprintf(rq.seekpct, sizeof(rq.seekpct), "n/a");
	snprintf(rq.lunsize, sizeof(rq.lunsize), "n/a");
	snprintf(rq.compratio, sizeof(rq.compratio), "1.0000");
	snprintf(rq.dedupratio, sizeof(rq.dedupratio), "1.0000");
	snprintf(rq.version, sizeof(rq.version), "lockstep-1");
	v.iops = 4044;
	v.mbps = 15.8;
	v.xfer_bytes = 4096;
	v.read_pct = 49.31;
	v.resp_ms = 2.466;
	vdbench_flat_header(f);
	vdbench_flat_row(f, 0, &rq, "7", &v, 2, 2);
	v.resp_ms = 12445.7;
	v.resp_max_ms = 812445.7;
	v.queue_depth = 16439.9;
	v.iops = 12345678.9;
	vdbench_flat_row(f, 0, &rq, "8", &v, 1, 1000);
	vdbench_flat_row(f, 0, &rq, "avg_2-8", &v, 0, 0);
	fclose(f);
	for (line = buf; *line; line = strchr(line, '\n') + 1) {
		if (!ncol) {
			if (*line == ' ')
				ncol = split(line, names, 64);
			continue;
		}
		if (*line == '*')
			continue;
		assert_int_equal(split(line, w, 64), ncol);
		if (!strncmp(w[col(names, ncol, "interval")], "avg", 3))
			avgs++;
		else
			rows++;
		assert_string_equal(w[col(names, ncol, "run")], "r1");
	}
	assert_int_equal(ncol, 34);
	assert_string_equal(names[0], "tod");
	assert_string_equal(names[1], "timestamp");
	assert_string_equal(names[2], "Run");
	assert_string_equal(names[29], "cpu_idle");
	assert_int_equal(rows, 2);
	assert_int_equal(avgs, 1);
	line = strstr(buf, "\n ") + 1;
	line = strchr(line, '\n') + 1;
	split(line, w, 64);
	assert_string_equal(w[col(names, ncol, "rate")], "4044.0000");
	assert_string_equal(w[col(names, ncol, "bytes/io")], "4096");
	assert_string_equal(w[col(names, ncol, "rhpct")], "n/a");
	assert_string_equal(w[col(names, ncol, "slaves")], "2");
	line = strchr(line, '\n') + 1;
	split(line, w, 64);
	assert_string_equal(w[col(names, ncol, "resp")], "12445.7000");
	assert_string_equal(w[col(names, ncol, "queue_depth")], "16439.9000");
	assert_string_equal(w[col(names, ncol, "expected")], "1000");
	free(buf);
}

/* Vdbench's command line: mapped, passed through, or refused by name. */
static void test_cli(void **state)
{
	char *ok[] = { "vdbench", "-f", "p.vdb", "-o", "out", "-e",       "10",
		       "-i",      "2",  "-w",    "5",  "-jr", "--listen", NULL };
	char *refused[][4] = {
		{ "vdbench", "-f", "p", "-vr" },
		{ "vdbench", "-f", "p", "-c" },
		{ "vdbench", "-f", "p", "-x" },
		{ "vdbench", "-o", "d+", "-f" },
		{ "vdbench", "-f", "a", "-f" },
	};
	const char *names[] = { "-vr", "-c", "-x", "d+", "-f" };
	struct vdbench_cli c;
	char err[256];

	(void)state;
	assert_int_equal(vdbench_cli(13, ok, &c, err, sizeof(err)), 0);
	assert_string_equal(c.file, "p.vdb");
	assert_string_equal(c.dir, "out");
	assert_true(c.validate && c.journal && !c.simulate);
	assert_int_equal(c.nrun, 10);
	assert_string_equal(c.run[0], "run");
	assert_string_equal(c.run[6], "2");
	assert_string_equal(c.run[9], "--listen");
	assert_null(c.run[10]);
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		err[0] = 0;
		assert_int_equal(vdbench_cli(4, refused[i], &c, err,
					     sizeof(err)),
				 -EINVAL);
		assert_non_null(strstr(err, names[i]));
	}
	{
		char *s[] = { "vdbench", "-s", "-f", "p", "-v", NULL };

		assert_int_equal(vdbench_cli(5, s, &c, err, sizeof(err)), 0);
		assert_true(c.simulate && c.validate && !c.journal);
	}
}

/* Run the vdbench=DIR finder with " slave" after it; its output in out. */
static int run_finder(const char *dir, char *out, size_t len)
{
	char cmd[8192], find[4096];
	FILE *f;
	size_t n;

	assert_int_equal(vdbench_remote_exe(dir, find, sizeof(find)), 0);
	snprintf(cmd, sizeof(cmd), "{ %s slave; } 2>&1", find);
	f = popen(cmd, "r");
	assert_non_null(f);
	n = fread(out, 1, len - 1, f);
	out[n] = 0;
	return WEXITSTATUS(pclose(f));
}

static void put_script(const char *path, const char *says)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fprintf(f,
		"#!/bin/sh\n[ \"$1\" = version ] && echo '%s' && exit 0\necho \"ran $0 $*\"\n",
		says);
	fclose(f);
	assert_int_equal(chmod(path, 0755), 0);
}

/*
 * vdbench=DIR: DIR/lockstep first, else DIR/vdbench when it says it is
 * lockstep; a Vdbench there (not lockstep) gives the reason and 127; a
 * DIR a shell would misread is refused.
 */
static void test_remote_exe(void **state)
{
	char dir[] = "/tmp/test_vdbench.XXXXXX", path[128], out[4096];
	char buf[4096];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/vdbench", dir);
	put_script(path, "Vdbench distribution: vdbench50407");
	assert_int_equal(run_finder(dir, out, sizeof(out)), 127);
	assert_non_null(strstr(out, "no lockstep there"));
	put_script(path, "lockstep 0.1.0");
	assert_int_equal(run_finder(dir, out, sizeof(out)), 0);
	assert_non_null(strstr(out, "/vdbench slave"));
	snprintf(path, sizeof(path), "%s/lockstep", dir);
	put_script(path, "lockstep 0.1.0");
	assert_int_equal(run_finder(dir, out, sizeof(out)), 0);
	assert_non_null(strstr(out, "/lockstep slave"));
	unlink(path);
	snprintf(path, sizeof(path), "%s/vdbench", dir);
	unlink(path);
	rmdir(dir);
	assert_int_equal(vdbench_remote_exe("/opt/v'x", buf, sizeof(buf)),
			 -EINVAL);
	assert_int_equal(vdbench_remote_exe("/opt/$HOME", buf, sizeof(buf)),
			 -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rd_line),
		cmocka_unit_test(test_flat_req),
		cmocka_unit_test(test_flat),
		cmocka_unit_test(test_cli),
		cmocka_unit_test(test_remote_exe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
