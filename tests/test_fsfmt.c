/*
 * Unit tests of the file-system phase's formats (master/results/fsfmt.c):
 * known per-operation counts and latencies go through fsops_view() into
 * Vdbench's header and interval line, ops.csv's rows, summary.json's
 * "operations" and summary.txt's table, and each printed number is the
 * one worked out here from what was injected.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "common/fsops.h"
#include "common/jsonw.h"
#include "master/results/fsfmt.h"
#include "master/results/vdbench.h"

#define BIT(op) (UINT32_C(1) << (op))

struct fixture {
	struct stats st;
	struct fsops fs;
	struct fsops_view fv;
	struct stats_view v;
};

/*
 * Over 2 s: 10 reads of 8 KiB at 1 ms, 4 writes of 4 KiB at 3 ms, 20
 * creates (10 at 2 ms, 10 at 4 ms, 3 failed), 6 mkdirs at 5 ms; the
 * phase asks for read and create. CPU 12.5 %, 3.25 % system.
 */
static struct fixture *make(void)
{
	struct fixture *x = calloc(1, sizeof(*x));

	assert_non_null(x);
	stats_init(&x->st);
	fsops_init(&x->fs, BIT(FSOPS_READ) | BIT(FSOPS_CREATE));
	for (int i = 0; i < 10; i++)
		hist_add(&x->st.lat[0], 1000000);
	for (int i = 0; i < 4; i++)
		hist_add(&x->st.lat[1], 3000000);
	x->st.ops[0] = 10;
	x->st.ops[1] = 4;
	x->st.bytes[0] = 10 * 8192;
	x->st.bytes[1] = 4 * 4096;
	assert_int_equal(fsops_reserve(&x->fs, FSOPS_CREATE), 0);
	assert_int_equal(fsops_reserve(&x->fs, FSOPS_MKDIR), 0);
	for (int i = 0; i < 20; i++)
		hist_add(x->fs.op[FSOPS_CREATE].lat,
			 i < 10 ? 2000000 : 4000000);
	x->fs.op[FSOPS_CREATE].count = 20;
	x->fs.op[FSOPS_CREATE].errors = 3;
	for (int i = 0; i < 6; i++)
		hist_add(x->fs.op[FSOPS_MKDIR].lat, 5000000);
	x->fs.op[FSOPS_MKDIR].count = 6;
	fsops_view(&x->fs, &x->st, 2.0, &x->fv);
	x->v.cpu_pct = 12.5;
	x->v.cpu_sys_pct = 3.25;
	return x;
}

static void unmake(struct fixture *x)
{
	fsops_release(&x->fs);
	free(x);
}

/* What f printed, NUL-terminated (the caller frees). */
static char *take(FILE *f, char **buf)
{
	assert_int_equal(fflush(f), 0);
	fclose(f);
	return *buf;
}

static int utc(void **state)
{
	(void)state;
	setenv("TZ", "UTC", 1);
	return 0;
}

static void test_fit(void **state)
{
	static const struct {
		double x;
		int w, d;
		const char *want;
	} t[] = {
		{ 15, 6, 1, "  15.0" },         { 2.0 / 3, 6, 3, " 0.667" },
		{ 12345.678, 6, 1, " 12345" },  /* decimals cut to fit */
		{ 1234.5678, 6, 3, "1234.5" },  /* cut, not rounded */
		{ 1234567.5, 6, 1, "1234567" }, /* wider: as it is */
		{ 7021, 7, 0, "   7021" },      { 0.0390625, 5, 2, " 0.04" },
	};
	char buf[32];

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		fsfmt_fit(buf, sizeof(buf), t[i].x, t[i].w, t[i].d);
		assert_string_equal(buf, t[i].want);
	}
}

static const char head1[] =
	" .Interval. .ReqstdOps... ...cpu%...  read ....read....."
	" ....write.... ..mb/sec... mb/sec .xfer.. ...mkdir.... ...rmdir...."
	" ...create... ....open.... ...close.... ...delete...";
static const char head2[] =
	"                       "
	"   rate   resp total  sys   pct   rate   resp   rate   resp"
	"  read write  total    size"
	"  rate   resp  rate   resp  rate   resp  rate   resp  rate   resp"
	"  rate   resp";
static const char row1[] =
	"00:00:00.000          1   15.0  2.333  12.5 3.25  71.4    5.0  1.000"
	"    2.0  3.000  0.04  0.01   0.05    7021"
	"   3.0  5.000   0.0  0.000  10.0  3.000   0.0  0.000   0.0  0.000"
	"   0.0  0.000";

static void test_console(void **state)
{
	struct fixture *x = make();
	char *buf = NULL, want[2048];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	fsfmt_console_header(f, 0, x->fs.requested, 0);
	fsfmt_console_row(f, 0, "1", &x->fv, &x->v, x->fs.requested, 0, 0, 0);
	snprintf(want, sizeof(want), "Jan 01, 1970%s\n%s\n%s\n", head1, head2,
		 row1);
	assert_string_equal(take(f, &buf), want);
	free(buf);

	/* lockstep run: slaves seen and wanted; getattr when asked for. */
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	fsfmt_console_header(f, 0, BIT(FSOPS_GETATTR), 1);
	fsfmt_console_row(f, 0, "avg_2-3", &x->fv, &x->v, BIT(FSOPS_GETATTR), 1,
			  3, 4);
	snprintf(want, sizeof(want),
		 "Jan 01, 1970%s ..getattr... slaves slaves\n"
		 "%s  rate   resp   seen   want\n"
		 "00:00:00.000    avg_2-3%s   0.0  0.000      3      4\n",
		 head1, head2, row1 + strlen("00:00:00.000          1"));
	assert_string_equal(take(f, &buf), want);
	free(buf);
	unmake(x);
}

static void test_ops_csv(void **state)
{
	struct fixture *x = make();
	char *buf = NULL, want[4096], line[512];
	size_t len = 0, used = 0;
	FILE *f = open_memstream(&buf, &len);
	struct hist *c = x->fs.op[FSOPS_CREATE].lat;

	(void)state;
	assert_non_null(f);
	fsfmt_ops_header(f, "");
	fsfmt_ops_rows(f, "", "rd1", "3", "measure", 100, 200, &x->fv,
		       x->fs.requested);
	fsfmt_ops_rows(f, "", "rd1", "avg_2-3", "total", 0, 0, &x->fv,
		       x->fs.requested);
	used += (size_t)
		snprintf(want + used, sizeof(want) - used, "%s",
			 "run,interval,phase,start_ns,end_ns,operation,count,rate,bytes,mbps,errors,resp_ms,p50_ms,p95_ms,p99_ms,max_ms\n");
	for (int total = 0; total < 2; total++) {
		const char *lead = total ? "rd1,avg_2-3,total,," :
					   "rd1,3,measure,100,200";

		/* Reads (asked for), writes and mkdirs (counted), creates. */
		snprintf(line, sizeof(line),
			 "%s,read,10,5.000,81920,0.0391,0,1.000000,%.6f,%.6f,%.6f,1.000000\n"
			 "%s,write,4,2.000,16384,0.0078,0,3.000000,%.6f,%.6f,%.6f,3.000000\n"
			 "%s,create,20,10.000,0,0.0000,3,3.000000,%.6f,%.6f,%.6f,4.000000\n"
			 "%s,mkdir,6,3.000,0,0.0000,0,5.000000,5.000000,5.000000,5.000000,5.000000\n",
			 lead, hist_percentile(&x->st.lat[0], 50) / 1e6,
			 hist_percentile(&x->st.lat[0], 95) / 1e6,
			 hist_percentile(&x->st.lat[0], 99) / 1e6, lead,
			 hist_percentile(&x->st.lat[1], 50) / 1e6,
			 hist_percentile(&x->st.lat[1], 95) / 1e6,
			 hist_percentile(&x->st.lat[1], 99) / 1e6, lead,
			 hist_percentile(c, 50) / 1e6,
			 hist_percentile(c, 95) / 1e6,
			 hist_percentile(c, 99) / 1e6, lead);
		used += (size_t)snprintf(want + used, sizeof(want) - used, "%s",
					 line);
	}
	assert_string_equal(take(f, &buf), want);
	/* The percentiles are the injected values' (bucket resolution). */
	assert_true(hist_percentile(c, 50) / 1e6 > 1.99 &&
		    hist_percentile(c, 50) / 1e6 < 2.01);
	assert_true(hist_percentile(c, 99) / 1e6 > 3.98 &&
		    hist_percentile(c, 99) / 1e6 <= 4.0);
	free(buf);
	unmake(x);
}

/*
 * A run whose measured seconds are 0 (it ended in its warmup): its total
 * rows say rates of 0, as the block totals (stats_view), not inf or nan.
 */
static void test_no_seconds(void **state)
{
	static const char *const want[] = {
		"read,10,0.000,81920,0.0000,",
		"write,4,0.000,16384,0.0000,",
		"create,20,0.000,0,0.0000,",
		"mkdir,6,0.000,0,0.0000,",
	};
	struct fixture *x = make();
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	fsops_view(&x->fs, &x->st, 0, &x->fv);
	assert_true(x->fv.req_rate == 0);
	fsfmt_ops_rows(f, "", "rd1", "avg_2-1", "total", 0, 0, &x->fv,
		       BIT(FSOPS_READ));
	take(f, &buf);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (!strstr(buf, want[i]))
			fail_msg("no '%s' in:\n%s", want[i], buf);
	if (strstr(buf, "inf") || strstr(buf, "nan"))
		fail_msg("inf or nan in:\n%s", buf);
	free(buf);
	unmake(x);
}

static void test_summary(void **state)
{
	struct fixture *x = make();
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct jsonw w;
	char *s;

	(void)state;
	assert_non_null(f);
	jsonw_init(&w, f);
	jsonw_object(&w, NULL);
	fsfmt_json(&w, &x->fv, x->fs.requested);
	jsonw_end(&w);
	assert_int_equal(jsonw_finish(&w), 0);
	s = take(f, &buf);
	/* 30 requested (10 reads, 20 creates) in 2 s at (10 + 60) / 30 ms. */
	assert_non_null(strstr(s, "\"requested_count\": 30"));
	assert_non_null(strstr(s, "\"requested_rate\": 15,"));
	assert_non_null(strstr(s, "\"requested_resp_ms\": 2.33333"));
	assert_non_null(strstr(s, "\"create\": {\n"));
	assert_non_null(strstr(s, "\"count\": 20,"));
	assert_non_null(strstr(s, "\"rate\": 10,"));
	assert_non_null(strstr(s, "\"errors\": 3,"));
	assert_non_null(strstr(s, "\"resp_ms\": 3,"));
	assert_non_null(strstr(s, "\"max_ms\": 4\n"));
	assert_non_null(strstr(s, "\"mkdir\": {"));
	assert_null(strstr(s, "\"rmdir\""));
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	fsfmt_txt(f, &x->fv, x->fs.requested);
	s = take(f, &buf);
	assert_non_null(strstr(s, "OPERATIONS = 15.00 ops/s, 2.3333 ms\n"));
	assert_non_null(
		strstr(s,
		       "mkdir               6         3.00     5.0000     5.0000     5.0000     5.0000     5.0000        0\n"));
	free(buf);
	unmake(x);
}

/* Column col of ParseFlat's reading: its value in the data line. */
static const char *flat_value(char *head, char *row, const char *col, char *out,
			      size_t len)
{
	char hcopy[4096], rcopy[4096], *hs, *rs, *h, *r;

	snprintf(hcopy, sizeof(hcopy), "%s", head);
	snprintf(rcopy, sizeof(rcopy), "%s", row);
	h = strtok_r(hcopy, " \n", &hs);
	r = strtok_r(rcopy, " \n", &rs);
	while (h && r) {
		if (!strcmp(h, col)) {
			snprintf(out, len, "%s", r);
			return out;
		}
		h = strtok_r(NULL, " \n", &hs);
		r = strtok_r(NULL, " \n", &rs);
	}
	return NULL;
}

static void test_flatfile(void **state)
{
	static const struct {
		const char *col, *want;
	} t[] = {
		{ "Run", "fs1" },
		{ "Interval", "avg_2-3" },
		{ "reqrate", "max" },
		{ "rate", "15.0000" },
		{ "resp", "2.3333" },
		{ "MB/sec", "0.0469" },
		{ "Read_rate", "5.0000" },
		{ "Read_resp", "1.0000" },
		{ "Write_rate", "2.0000" },
		{ "Write_resp", "3.0000" },
		{ "MB_read", "0.0391" },
		{ "MB_write", "0.0078" },
		{ "Xfersize", "7021" },
		{ "Mkdir_rate", "3.0000" },
		{ "Mkdir_resp", "5.0000" },
		{ "Rmdir_rate", "0.0000" },
		{ "Create_rate", "10.0000" },
		{ "Create_resp", "3.0000" },
		{ "Move_resp", "0.0000" },
		{ "compratio", "n/a" },
		{ "cpu_used", "12.5000" },
		{ "cpu_kernel", "3.2500" },
		{ "slaves", "3" },
		{ "expected", "4" },
	};
	struct fixture *x = make();
	struct vdbench_req rq;
	char *buf = NULL, *head, *row, val[64];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	memset(&rq, 0, sizeof(rq));
	snprintf(rq.run, sizeof(rq.run), "fs1");
	snprintf(rq.reqrate, sizeof(rq.reqrate), "max");
	snprintf(rq.compratio, sizeof(rq.compratio), "n/a");
	snprintf(rq.dedupratio, sizeof(rq.dedupratio), "n/a");
	fsfmt_flat_header(f);
	fsfmt_flat_row(f, 0, &rq, "avg_2-3", &x->fv, &x->v, 3, 4);
	take(f, &buf);
	/* ParseFlat: the column names are the first line starting blank. */
	head = strstr(buf, "\n ");
	assert_non_null(head);
	head++;
	row = strchr(head, '\n');
	assert_non_null(row);
	*row++ = 0;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		const char *got = flat_value(head, row, t[i].col, val,
					     sizeof(val));

		if (!got || strcmp(got, t[i].want))
			fail_msg("column %s: '%s', want '%s'", t[i].col,
				 got ? got : "(none)", t[i].want);
	}
	free(buf);
	unmake(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fit),
		cmocka_unit_test(test_console),
		cmocka_unit_test(test_ops_csv),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_flatfile),
		cmocka_unit_test(test_no_seconds),
	};

	return cmocka_run_group_tests(tests, utc, NULL);
}
