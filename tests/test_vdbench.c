/*
 * Unit tests for what Vdbench users' tools parse (master/vdbench.c): the
 * "Starting RD=" header line in Vdbench's exact shape for every kind of
 * phase, and flatfile.html's header and rows (tab-separated, Vdbench's
 * column names, one value per column).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "master/vdbench.h"

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

static int count_tabs(const char *s)
{
	int n = 0;

	for (; *s && *s != '\n'; s++)
		n += *s == '\t';
	return n;
}

static void test_flat(void **state)
{
	struct stats_view v;
	char *buf = NULL, *hdr, *row;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	memset(&v, 0, sizeof(v));
	v.iops = 4044;
	v.mbps = 15.8;
	v.xfer_bytes = 4096;
	v.read_pct = 49.31;
	v.resp_ms = 2.466;
	vdbench_flat_header(f);
	vdbench_flat_row(f, 0, "r1 xfersize=4k", 7, 0, &v);
	vdbench_flat_row(f, 0, "r2", 1, 1000, &v);
	fclose(f);
	hdr = strstr(buf, "\ntod\t");
	assert_non_null(hdr);
	hdr++;
	assert_memory_equal(hdr,
			    "tod\tRun\tInterval\treqrate\trate\tMB/sec\tbytes/io\tread%\tresp\t",
			    strlen("tod\tRun\tInterval\treqrate\trate\tMB/sec\tbytes/io\tread%\tresp\t"));
	row = strchr(hdr, '\n') + 1;
	assert_int_equal(count_tabs(row), count_tabs(hdr));
	assert_non_null(
		strstr(row,
		       "\tr1 xfersize=4k\t7\tmax\t4044.0\t15.80\t4096\t49.31\t2.466\t"));
	row = strchr(row, '\n') + 1;
	assert_non_null(strstr(row, "\tr2\t1\t1000\t4044.0\t"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rd_line),
		cmocka_unit_test(test_flat),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
