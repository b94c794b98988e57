/*
 * Unit tests for the report's telemetry (master/report/telem.c,
 * telem_probes.c, tseries.c, csvrow.c): devices.csv summed per host (a
 * device two slaves see taken once, awaits weighted by the I/Os, util%
 * the busiest device's) and the cluster row with its late part;
 * hoststats.csv per host and NIC; probes.csv per key with its statuses;
 * histograms.csv as the heat map's grid (late rows in their interval,
 * columns merged in pairs past HEATMAP_COLUMNS, every count kept);
 * every malformed row skipped and counted, never a crash (and randomly
 * mutated files parsed to the end); and the
 * folder reader (data.c): absent or empty files give no data and no
 * warning, bad ones a warning.
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
#include "common/jsonw.h"
#include "master/report/csvrow.h"
#include "master/report/data.h"
#include "master/report/heatmap.h"
#include "master/report/telem.h"

typedef int (*parse_fn)(struct jsonw *w, const char *key, char *text,
			size_t len, int truncated, const struct telem_ref *ref,
			size_t nref, struct telem_stats *st);

/* Drop the writer's newlines and indentation (no string here has one). */
static void compact(char *buf)
{
	for (size_t i = 0, j = 0;; i++) {
		if (buf[i] != ' ' && buf[i] != '\n' && buf[i] != '\t')
			buf[j++] = buf[i];
		if (!buf[i])
			break;
	}
}

/*
 * fn over a copy of text (cut to cut bytes when cut is not 0, as a bound
 * would), run r1 starting at 1 s: the JSON it wrote, compact, or NULL
 * when it returned an error (in *ret).
 */
static char *run_fn(parse_fn fn, const char *text, size_t cut,
		    struct telem_stats *st, int *ret)
{
	static const struct telem_ref ref[] = { { "r1", 1000000000ull } };
	size_t len = cut ? cut : strlen(text);
	char *copy = malloc(len + 1), *buf = NULL;
	size_t blen = 0;
	struct jsonw w;
	FILE *f;

	assert_non_null(copy);
	memcpy(copy, text, len);
	copy[len] = '\0';
	f = open_memstream(&buf, &blen);
	assert_non_null(f);
	jsonw_init(&w, f);
	jsonw_object(&w, NULL);
	*ret = fn(&w, "x", copy, len, cut != 0, ref, 1, st);
	jsonw_end(&w);
	jsonw_finish(&w);
	fclose(f);
	free(copy);
	compact(buf);
	if (*ret < 0) {
		assert_string_equal(buf, "{}");
		free(buf);
		return NULL;
	}
	return buf;
}

static void want(const char *json, const char *part)
{
	if (!strstr(json, part))
		fail_msg("'%s' not in %s", part, json);
}

#define DEV_HEAD                                                        \
	"run,interval,phase,start_ns,end_ns,host,slave,device,r_s,w_s," \
	"rmbps,wmbps,r_await_ms,w_await_ms,aqu_sz,util_pct,inflight,late\n"

/*
 * Host h1 runs slaves s1 and s2, both on its sda (taken once: s2's rows
 * of sda would double it), and s2 also on sdb; h2 runs s3 on nvme0n1,
 * whose interval 2 came late: the cluster's row of interval 2 does not
 * have it (sink_telemetry.c writes it from the rows on time), the report
 * adds it.
 */
static const char devices_csv[] = DEV_HEAD
	"r1,1,warmup,1000000000,2000000000,h1,s1,sda,100,50,0.4,0.2,2,6,1,40,2,0\n"
	"r1,1,warmup,1000000000,2000000000,h1,s2,sda,999,999,9,9,99,99,9,99,9,0\n"
	"r1,1,warmup,1000000000,2000000000,h1,s2,sdb,300,,1.2,,4,,0.5,70,1,0\n"
	"r1,1,warmup,1000000000,2000000000,h2,s3,nvme0n1,10,10,0.04,0.04,2.5,1.5,0.1,5,0,0\n"
	"r1,1,warmup,1000000000,2000000000,cluster,,all,410,60,1.64,0.24,3.5,6,1.6,70,3,0\n"
	"r1,2,measure,2000000000,3000000000,h1,s1,sda,100,50,0.4,0.2,2,6,1,40,2,0\n"
	"r1,2,measure,2000000000,3000000000,h1,s2,sdb,300,,1.2,,4,,0.5,70,1,0\n"
	"r1,2,measure,2000000000,3000000000,cluster,,all,400,50,1.6,0.2,3.5,6,1.5,70,3,0\n"
	"r1,2,measure,2000000000,3000000000,h2,s3,nvme0n1,20,0,0.08,0,2.5,,0.1,10,0,1\n"
	/* s2's sda came late, but s1 gave it on time: in neither sum. */
	"r1,2,measure,2000000000,3000000000,h1,s2,sda,999,999,9,9,99,99,9,99,9,1\n"
	/* The cluster's row of an interval again: once is enough. */
	"r1,2,measure,2000000000,3000000000,cluster,,all,1,1,1,1,1,1,1,1,1,0\n"
	/* Names with a comma, quoted as sink_telemetry.c writes them. */
	"r1,2,measure,2000000000,3000000000,\"h,3\",s4,\"d,1\",1,,,,,,,,,0\n";

static void test_devices(void **state)
{
	struct telem_stats st;
	char *j;
	int ret;

	(void)state;
	j = run_fn(telem_devices, devices_csv, 0, &st, &ret);
	assert_int_equal(ret, 0);
	assert_int_equal(st.skipped, 0);
	assert_int_equal(st.dup, 3);
	assert_int_equal(st.late, 1);
	assert_int_equal(st.rows, 9);
	want(j, "\"run\":\"r1\",\"t0_ns\":1000000000");
	/* The cluster: h2's late device adds; awaits by the I/Os. */
	want(j, "\"cluster\":{\"t\":[1,2],\"warmup\":[1,0],"
		"\"r_s\":[410,420],\"w_s\":[60,50]");
	want(j, "\"r_await_ms\":[3.5,3.4523809523809526]");
	want(j, "\"util_pct\":[70,70]");
	/* h1: sda once (s1's), sdb; r await (100*2+300*4)/400. */
	want(j, "{\"host\":\"h1\",\"devices\":[\"sda\",\"sdb\"],"
		"\"t\":[1,2],\"warmup\":[1,0],\"r_s\":[400,400],"
		"\"w_s\":[50,50],\"rmbps\":[1.6,1.6],\"wmbps\":[0.2,0.2],"
		"\"r_await_ms\":[3.5,3.5],\"w_await_ms\":[6,6],"
		"\"aqu_sz\":[1.5,1.5],\"util_pct\":[70,70],"
		"\"inflight\":[3,3]}");
	/* h2: its late row is its interval 2; no writes, no w await. */
	want(j, "{\"host\":\"h2\",\"devices\":[\"nvme0n1\"],\"t\":[1,2],"
		"\"warmup\":[1,0],\"r_s\":[10,20],\"w_s\":[10,0],"
		"\"rmbps\":[0.04,0.08],\"wmbps\":[0.04,0],"
		"\"r_await_ms\":[2.5,2.5],\"w_await_ms\":[1.5,null]");
	want(j, "{\"host\":\"h,3\",\"devices\":[\"d,1\"],\"t\":[2],");
	free(j);
}

/* Rows a reader must refuse, one at a time after a good one. */
static void test_devices_malformed(void **state)
{
	static const char *const bad[] = {
		"r1,1,measure,1000000000,2000000000,h1,s1,sda,1,1,1,1,1,1,1,1,1\n",
		"r1,1,measure,1000000000,2000000000,h1,s1,sda,1,1,1,1,1,1,1,1,1,0,9\n",
		"r1,x,measure,1000000000,2000000000,h1,s1,sda,1,1,1,1,1,1,1,1,1,0\n",
		"r1,0,measure,1000000000,2000000000,h1,s1,sda,1,1,1,1,1,1,1,1,1,0\n",
		"r1,1,measure,3000000000,2000000000,h1,s1,sda,1,1,1,1,1,1,1,1,1,0\n",
		"r1,1,measure,-1,2000000000,h1,s1,sda,1,1,1,1,1,1,1,1,1,0\n",
		"r1,1,late,1000000000,2000000000,h1,s1,sda,1,1,1,1,1,1,1,1,1,0\n",
		"r1,1,measure,1000000000,2000000000,h1,s1,sda,nan,1,1,1,1,1,1,1,1,0\n",
		"r1,1,measure,1000000000,2000000000,h1,s1,sda,inf,1,1,1,1,1,1,1,1,0\n",
		"r1,1,measure,1000000000,2000000000,h1,s1,sda,1e999,1,1,1,1,1,1,1,1,0\n",
		"r1,1,measure,1000000000,2000000000,h1,s1,sda,0x10,1,1,1,1,1,1,1,1,0\n",
		"r1,1,measure,1000000000,2000000000,h1,s1,sda,-1,1,1,1,1,1,1,1,1,0\n",
		"r1,1,measure,1000000000,2000000000,h1,s1,sda,1,1,1,1,2.5ms,1,1,1,1,0\n",
		"r1,1,measure,1000000000,2000000000,h1,s1,sda,1,1,1,1,1,1,1,1,1,2\n",
		"r1,1,measure,1000000000,2000000000,,s1,sda,1,1,1,1,1,1,1,1,1,0\n",
		"r1,1,measure,1000000000,2000000000,h1,s1,,1,1,1,1,1,1,1,1,1,0\n",
		"r1,1,measure,1000000000,2000000000,h\x01,s1,sda,1,1,1,1,1,1,1,1,1,0\n",
		"r1,1,measure,1000000000,2000000000,h1,,sda,1,1,1,1,1,1,1,1,1,0\n",
		"r1,1,measure,1000000000,2000000000,cluster,,sda,1,1,1,1,1,1,1,1,1,0\n",
		",1,measure,1000000000,2000000000,h1,s1,sda,1,1,1,1,1,1,1,1,1,0\n",
		/* Before the run's first interval began (ref's t0). */
		"r1,1,measure,0,500000000,h1,s1,sda,1,1,1,1,1,1,1,1,1,0\n",
		"garbage\n",
		",,,,,,,,,,,,,,,,,\n",
	};
	static const char good[] =
		"r1,1,measure,1000000000,2000000000,h1,s1,sda,1,1,1,1,1,1,1,1,1,0\n";
	char name[300], text[1024];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]) + 1; i++) {
		struct telem_stats st;
		char *j;
		int ret;

		if (i < sizeof(bad) / sizeof(bad[0])) {
			snprintf(text, sizeof(text), "%s%s%s", DEV_HEAD, good,
				 bad[i]);
		} else {
			/* A name longer than 255 bytes. */
			memset(name, 'd', 299);
			name[299] = '\0';
			snprintf(text, sizeof(text),
				 "%s%sr1,1,measure,1000000000,2000000000,"
				 "h1,s1,%s,1,1,1,1,1,1,1,1,1,0\n",
				 DEV_HEAD, good, name);
		}
		j = run_fn(telem_devices, text, 0, &st, &ret);
		if (ret != 0 || st.skipped != 1 || st.rows != 1)
			fail_msg("case %zu: ret %d, %zu skipped, %zu rows", i,
				 ret, st.skipped, st.rows);
		want(j, "\"r_s\":[1]");
		free(j);
	}
}

static void test_headers(void **state)
{
	static const struct {
		parse_fn fn;
		const char *text;
		int ret;
		const char *json;
	} cases[] = {
		{ telem_devices, "", -EINVAL, NULL },
		{ telem_devices, "\n", -EINVAL, NULL },
		{ telem_devices, "not,a,header\n1,2,3\n", -EINVAL, NULL },
		/* Without the device column rows cannot be placed. */
		{ telem_devices,
		  "run,interval,phase,start_ns,end_ns,host,slave,r_s\n",
		  -EINVAL, NULL },
		{ telem_devices, DEV_HEAD, 0, "{\"x\":[]}" },
		{ telem_hoststats,
		  "run,interval,phase,start_ns,end_ns,host,slave,cpu_user_pct\n",
		  0, "{\"x\":[]}" },
		{ telem_hoststats, "run,interval\n", -EINVAL, NULL },
		{ telem_probes, "time_ns,run,interval,probe,key,value,status\n",
		  0, "{\"x\":[]}" },
		{ telem_probes, "time_ns,run,probe,key,value\n", -EINVAL,
		  NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct telem_stats st;
		int ret;
		char *j = run_fn(cases[i].fn, cases[i].text, 0, &st, &ret);

		if (ret != cases[i].ret || (j && strcmp(j, cases[i].json) != 0))
			fail_msg("case %zu: ret %d, %s", i, ret, j ? j : "-");
		free(j);
	}
}

/* A file cut at its bound: the cut row is dropped, not counted. */
static void test_truncated(void **state)
{
	struct telem_stats st;
	size_t cut;
	char *j;
	int ret;

	(void)state;
	cut = strstr(devices_csv, "h2,s3,nvme0n1,20") - devices_csv;
	j = run_fn(telem_devices, devices_csv, cut, &st, &ret);
	assert_int_equal(ret, 0);
	assert_int_equal(st.skipped, 0);
	assert_int_equal(st.rows, 7);
	want(j, "\"cluster\":{\"t\":[1,2],\"warmup\":[1,0],"
		"\"r_s\":[410,400]");
	free(j);
}

/* More series than TELEM_SERIES_MAX: the rows beyond are counted. */
static void test_series_bound(void **state)
{
	size_t n = TELEM_SERIES_MAX + 3, len = 0;
	char *text = malloc(n * 96 + sizeof(DEV_HEAD)), *j;
	struct telem_stats st;
	int ret;

	(void)state;
	assert_non_null(text);
	len += (size_t)sprintf(text, "%s", DEV_HEAD);
	/* One host: its series and TELEM_SERIES_MAX - 1 devices fill it. */
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(text + len,
				       "r1,1,measure,1000000000,2000000000,"
				       "h1,s1,d%zu,1,,,,,,,,,0\n",
				       i);
	j = run_fn(telem_devices, text, 0, &st, &ret);
	assert_int_equal(ret, 0);
	assert_int_equal(st.rows, TELEM_SERIES_MAX);
	assert_int_equal(st.over, 3);
	want(j, "\"r_s\":[4096]");
	free(j);
	free(text);
}

#define HS_HEAD                                                            \
	"run,interval,phase,start_ns,end_ns,host,slave,cpu_user_pct,"      \
	"cpu_sys_pct,cpu_iowait_pct,cpu_steal_pct,cpu_idle_pct,"           \
	"slave_cpu_pct,psi_cpu_some_pct,psi_mem_some_pct,psi_io_some_pct," \
	"nic,rx_mbps,tx_mbps,rx_pps,tx_pps,late\n"

static const char hoststats_csv[] = HS_HEAD
	"r1,1,measure,1000000000,2000000000,h1,s1,20,10,5,1,64,7.5,2,0,12.5,eth0,100,50,1000,500,0\n"
	"r1,1,measure,1000000000,2000000000,h1,s2,21,11,6,2,60,2.5,3,1,13,eth0,101,51,1001,501,0\n"
	"r1,1,measure,1000000000,2000000000,h2,s3,1,1,0,0,98,1,,,,,,,,,0\n"
	"r1,2,measure,2000000000,3000000000,h1,s1,30,10,5,1,54,8,2,0,12.5,eth0,200,60,2000,600,1\n"
	/* Over 100% of the host's cores; a second row of s1. */
	"r1,2,measure,2000000000,3000000000,h2,s3,101,1,0,0,0,1,,,,,,,,,0\n"
	"r1,2,measure,2000000000,3000000000,h1,s1,30,10,5,1,54,8,2,0,12.5,eth0,200,60,2000,600,1\n"
	"r1,2,measure,2000000000,3000000000,h1,s2,30,10,5,1,54,2,2,0,12.5,,,,,,0\n";

static void test_hoststats(void **state)
{
	struct telem_stats st;
	char *j;
	int ret;

	(void)state;
	j = run_fn(telem_hoststats, hoststats_csv, 0, &st, &ret);
	assert_int_equal(ret, 0);
	assert_int_equal(st.skipped, 1);
	assert_int_equal(st.dup, 2); /* s1 again; s2's eth0 of h1 */
	assert_int_equal(st.rows, 5);
	assert_int_equal(st.late, 1);
	/* h1: the first slave's figures; both slaves' own CPU summed. */
	want(j, "{\"host\":\"h1\",\"slaves\":2,\"t\":[1,2],\"warmup\":[0,0],"
		"\"cpu_user_pct\":[20,30],\"cpu_sys_pct\":[10,10],"
		"\"cpu_iowait_pct\":[5,5],\"cpu_steal_pct\":[1,1],"
		"\"cpu_idle_pct\":[64,54],\"slave_cpu_pct\":[10,10],"
		"\"psi_cpu_some_pct\":[2,2],\"psi_mem_some_pct\":[0,0],"
		"\"psi_io_some_pct\":[12.5,12.5]}");
	want(j, "{\"host\":\"h2\",\"slaves\":1,\"t\":[1],");
	want(j, "\"psi_io_some_pct\":[null]}");
	want(j, "\"nics\":[{\"host\":\"h1\",\"nic\":\"eth0\",\"t\":[1,2],"
		"\"warmup\":[0,0],\"rx_mbps\":[100,200],\"tx_mbps\":[50,60],"
		"\"rx_pps\":[1000,2000],\"tx_pps\":[500,600]}]");
	free(j);
}

static const char probes_csv[] =
	"time_ns,run,interval,probe,key,value,status\n"
	"500000000,,,ceph,degraded,0.5,ok\n"
	"900000000,r1,,ceph,degraded,0.25,ok\n"
	"1500000000,r1,1,ceph,degraded,0.125,ok\n"
	"1500000000,r1,1,ceph,misplaced,3,ok\n"
	"2500000000,r1,2,ceph,,,timeout\n"
	"3500000000,r1,3,ceph,degraded,0,ok\n"
	"3500000000,r1,3,resync,,42,ok\n"
	"4500000000,r1,4,resync,,,exit 3\n"
	"5500000000,r1,5,resync,,,signal 9\n"
	"6500000000,r1,6,resync,,,unparsed\n"
	/* Refused: a value without ok, ok without a number, bad
	   statuses, a bad time or interval, no probe. */
	"7500000000,r1,7,resync,,1,timeout\n"
	"7500000000,r1,7,resync,,,ok\n"
	"7500000000,r1,7,resync,,nan,ok\n"
	"7500000000,r1,7,resync,,,exit\n"
	"7500000000,r1,7,resync,,,exit x\n"
	"7500000000,r1,7,resync,,,oops\n"
	"x,r1,7,resync,,1,ok\n"
	"7500000000,r1,y,resync,,1,ok\n"
	"7500000000,r1,7,,,1,ok\n"
	"7500000000,r1,7,resync,,1\n"
	"8500000000,r2,1,resync,,7,ok\n"
	/* As master/events/probes.c writes them: the run quoted. */
	"9500000000,\"r2\",2,resync,,8,ok\n"
	"9600000000,\"\",,resync,,,timeout\n";

static void test_probes(void **state)
{
	struct telem_stats st;
	char *j;
	int ret;

	(void)state;
	j = run_fn(telem_probes, probes_csv, 0, &st, &ret);
	assert_int_equal(ret, 0);
	assert_int_equal(st.skipped, 10);
	assert_int_equal(st.between, 2);
	assert_int_equal(st.rows, 11);
	/* r1's axis starts at its first interval (1 s): a sample before it
	   is at a negative time. */
	want(j, "{\"run\":\"r1\",\"t0_ns\":1000000000,\"probes\":["
		"{\"probe\":\"ceph\",\"status\":{\"ok\":4,\"timeout\":1,"
		"\"exit\":0,\"signal\":0,\"unparsed\":0},\"keys\":["
		"{\"key\":\"degraded\",\"t\":[-0.1,0.5,2.5],"
		"\"warmup\":[0,0,0],\"value\":[0.25,0.125,0]},"
		"{\"key\":\"misplaced\",\"t\":[0.5],\"warmup\":[0],"
		"\"value\":[3]}]},"
		"{\"probe\":\"resync\",\"status\":{\"ok\":1,\"timeout\":0,"
		"\"exit\":1,\"signal\":1,\"unparsed\":1},\"keys\":["
		"{\"key\":\"\",\"t\":[2.5],\"warmup\":[0],\"value\":[42]}]}]}");
	/* A run intervals.csv does not have: its first sample is 0. */
	want(j, "{\"run\":\"r2\",\"t0_ns\":8500000000,\"probes\":["
		"{\"probe\":\"resync\",\"status\":{\"ok\":2,");
	want(j, "\"t\":[0,1],\"warmup\":[0,0],\"value\":[7,8]}");
	free(j);
}

/*
 * Each file's text with random bytes changed, inserted quotes, commas and
 * newlines, and cut anywhere: every parse ends with 0 or -EINVAL and
 * counts what it took or left, never reading outside its text (the
 * sanitizer build runs this too).
 */
#define HM_HEAD "run,interval,phase,start_ns,end_ns,dir,lo_ns,hi_ns,count\n"

/* A short run's histograms.csv: test_heatmap's grid. */
static const char histograms_csv[] = HM_HEAD
	"r1,1,warmup,1000000000,2000000000,read,512,640,3\n"
	"r1,2,measure,2000000000,3000000000,read,512,640,5\n"
	"r1,2,measure,2000000000,3000000000,write,896,1024,2\n"
	"r1,3,measure,3000000000,4000000000,read,640,768,7\n"
	"r1,2,late,2000000000,3000000000,read,512,640,4\n"
	/* skipped: not a bucket, nothing, no such dir, phase */
	"r1,3,measure,3000000000,4000000000,read,600,700,1\n"
	"r1,3,measure,3000000000,4000000000,read,640,768,0\n"
	"r1,3,measure,3000000000,4000000000,trim,640,768,1\n"
	"r1,3,later,3000000000,4000000000,read,640,768,1\n";

static void test_mutated(void **state)
{
	static const struct {
		parse_fn fn;
		const char *text;
	} files[] = {
		{ telem_devices, devices_csv },
		{ telem_hoststats, hoststats_csv },
		{ telem_probes, probes_csv },
		{ telem_heatmap, histograms_csv },
	};
	static const char pick[] = ",,\n\"\"0123456789.-e ";
	uint64_t x = 0x9e3779b97f4a7c15ull;

	(void)state;
	for (size_t k = 0; k < sizeof(files) / sizeof(files[0]); k++) {
		size_t len = strlen(files[k].text);

		for (int i = 0; i < 3000; i++) {
			char *text = malloc(len + 1);
			struct telem_stats st;
			size_t cut;
			char *j;
			int ret;

			assert_non_null(text);
			memcpy(text, files[k].text, len + 1);
			for (int m = 0; m < 1 + i % 8; m++) {
				x ^= x << 13;
				x ^= x >> 7;
				x ^= x << 17;
				text[x % len] =
					(x >> 32) % 4 ?
						pick[(x >> 40) %
						     (sizeof(pick) - 1)] :
						(char)(x >> 48);
			}
			cut = i % 5 ? 0 : 1 + (size_t)(x >> 20) % (len - 1);
			/* A NUL inside ends the text for strlen: take it all. */
			for (size_t b = 0; b < len; b++)
				if (!text[b])
					text[b] = '0';
			j = run_fn(files[k].fn, text, cut, &st, &ret);
			if (ret != 0 && ret != -EINVAL)
				fail_msg("file %zu, try %d: %d", k, i, ret);
			free(j);
			free(text);
		}
	}
}

static void test_csvrow(void **state)
{
	static const struct {
		const char *in;
		int ret;
		double v;
	} cells[] = {
		{ "2.5", 0, 2.5 },      { "-0", 0, 0 },
		{ "1e3", 0, 1000 },     { "", 0, -1 },
		{ "nan", -EINVAL, -1 }, { "inf", -EINVAL, -1 },
		{ "0x1", -EINVAL, -1 }, { "1e999", -EINVAL, -1 },
		{ "1,", -EINVAL, -1 },  { " 1", -EINVAL, -1 },
	};

	/* RFC 4180 quoting: "" a quote, commas inside; max 3 fields. */
	static const struct {
		const char *in;
		size_t n;
		const char *out;
	} splits[] = {
		{ "a,b,c", 3, "a|b|c|" },
		{ "", 1, "|" },
		{ ",", 2, "||" },
		{ "\"c1 curve=max\",2", 2, "c1 curve=max|2|" },
		{ "\"a,b\",\"\"", 2, "a,b||" },
		{ "\"say \"\"hi\"\"\",x", 2, "say \"hi\"|x|" },
		{ "a,b,c,d", 4, NULL },
		{ "\"open,b", 4, NULL },
		{ "\"a\"b,c", 4, NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cells) / sizeof(cells[0]); i++) {
		double v;
		int ret = csvrow_cell(cells[i].in, &v);

		if (ret != cells[i].ret ||
		    (cells[i].v >= 0 ? v != cells[i].v : v == v))
			fail_msg("cell %zu '%s': ret %d, %g", i, cells[i].in,
				 ret, v);
	}
	for (size_t i = 0; i < sizeof(splits) / sizeof(splits[0]); i++) {
		char line[64], *f[4], got[64] = "";
		size_t n;

		snprintf(line, sizeof(line), "%s", splits[i].in);
		n = csvrow_split(line, f, 3);
		for (size_t k = 0; k < n && n <= 3; k++)
			snprintf(got + strlen(got), sizeof(got) - strlen(got),
				 "%s|", f[k]);
		if (n != splits[i].n || (n <= 3 && strcmp(got, splits[i].out)))
			fail_msg("split %zu '%s': %zu fields '%s'", i,
				 splits[i].in, n, got);
	}
	assert_true(csvrow_name_ok("nvme0n1"));
	assert_true(csvrow_name_ok("a b=c"));
	assert_false(csvrow_name_ok(""));
	assert_false(csvrow_name_ok("a\tb"));
}

/* A results folder: summary.json, intervals.csv and the named files. */
static void folder(char *dir, const char *const *files, size_t n)
{
	char path[128];
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("{\"runs\": []}", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/intervals.csv", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("run,interval,phase,start_ns,end_ns,iops,resp_ms\n"
	      "r1,1,warmup,1000000000,2000000000,1000,1.5\n"
	      "r1,2,measure,2000000000,3000000000,1000,1.5\n",
	      f);
	fclose(f);
	for (size_t i = 0; i + 1 < n; i += 2) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		if (files[i + 1]) {
			f = fopen(path, "w");
			assert_non_null(f);
			fputs(files[i + 1], f);
			fclose(f);
		} else {
			assert_int_equal(symlink("intervals.csv", path), 0);
		}
	}
}

static void unfolder(const char *dir, const char *const *files, size_t n)
{
	char path[128];

	for (size_t i = 0; i + 1 < n; i += 2) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/intervals.csv", dir);
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
}

static char *set_json(const char *dir, struct data_warns *warns)
{
	char err[256], *buf = NULL;
	size_t len = 0;
	struct jsonw w;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	jsonw_init(&w, f);
	jsonw_object(&w, NULL);
	assert_int_equal(data_write_set(&w, "now", dir, warns, err,
					sizeof(err)),
			 0);
	jsonw_end(&w);
	jsonw_finish(&w);
	fclose(f);
	compact(buf);
	return buf;
}

static void test_folder(void **state)
{
	static const char *const none[] = { NULL };
	static const char *const empty[] = {
		"devices.csv", "", "hoststats.csv", "", "probes.csv", "",
	};
	static const char *const some[] = {
		"devices.csv",
		DEV_HEAD
		"r1,1,warmup,1000000000,2000000000,h1,s1,sda,10,0,,,2.5,,,5,,0\n"
		"r1,2,measure,2000000000,3000000000,h1,s1,sda,10,0,,,2.5,,,5,,0\n"
		"r1,3,measure,oops\n",
		"hoststats.csv",
		"no header here\n",
		"probes.csv",
		NULL, /* a symbolic link */
	};
	struct data_warns warns = { 0 };
	char dir[] = "/tmp/lockstep-test-report.XXXXXX";
	char *j;

	(void)state;
	/* No file, or empty files: no key, no word. */
	folder(dir, none, 0);
	j = set_json(dir, &warns);
	assert_null(strstr(j, "\"devices\""));
	assert_null(strstr(j, "\"probes\""));
	assert_int_equal(warns.n, 0);
	free(j);
	unfolder(dir, none, 0);
	strcpy(dir, "/tmp/lockstep-test-report.XXXXXX");
	folder(dir, empty, 6);
	j = set_json(dir, &warns);
	assert_null(strstr(j, "\"devices\""));
	assert_null(strstr(j, "\"hoststats\""));
	assert_null(strstr(j, "\"probes\""));
	assert_int_equal(warns.n, 0);
	free(j);
	unfolder(dir, empty, 6);
	/* Rows on intervals.csv's axis; what is wrong is said. */
	strcpy(dir, "/tmp/lockstep-test-report.XXXXXX");
	folder(dir, some, 6);
	j = set_json(dir, &warns);
	want(j, "\"devices\":[{\"run\":\"r1\",\"t0_ns\":1000000000,"
		"\"hosts\":[{\"host\":\"h1\",\"devices\":[\"sda\"],"
		"\"t\":[1,2],");
	want(j, "\"r_await_ms\":[2.5,2.5]");
	assert_null(strstr(j, "\"hoststats\""));
	assert_null(strstr(j, "\"probes\""));
	assert_int_equal(warns.n, 3);
	assert_string_equal(warns.msg[0], "devices.csv: 1 rows that do not "
					  "parse were left out");
	assert_string_equal(warns.msg[1],
			    "hoststats.csv: not a lockstep CSV (no header)");
	assert_non_null(strstr(warns.msg[2], "probes.csv: "));
	assert_non_null(strstr(warns.msg[2], "symbolic link"));
	data_warns_free(&warns);
	free(j);
	unfolder(dir, some, 6);
}

/* The grid of a short run: buckets from the lowest used to the highest,
   a late row added to its interval, read and write apart. */
static void test_heatmap(void **state)
{
	struct telem_stats st;
	int ret;
	char *j = run_fn(telem_heatmap, histograms_csv, 0, &st, &ret);

	(void)state;
	assert_int_equal(ret, 0);
	assert_int_equal(st.rows, 5);
	assert_int_equal(st.skipped, 4);
	want(j, "\"run\":\"r1\",\"t0_ns\":1000000000,"
		"\"intervals_per_column\":1,\"total\":21,");
	want(j, "\"t\":[0,1,2],\"t_end\":[1,2,3],\"warmup\":[1,0,0],");
	want(j, "\"edges_ns\":[512,640,768,896,1024],");
	want(j, "\"read\":[[3,0,0,0],[9,0,0,0],[0,7,0,0]],"
		"\"write\":[[0,0,0,0],[0,0,0,2],[0,0,0,0]]");
	free(j);
}

/* 1201 intervals: columns of 4 intervals (the grid holds 600 columns at
   most), 301 of them, no count lost. */
static void test_heatmap_widen(void **state)
{
	size_t cap = 1300 * 80, n;
	char *csv = malloc(cap), *j;
	struct telem_stats st;
	int ret;

	(void)state;
	assert_non_null(csv);
	n = (size_t)snprintf(csv, cap, HM_HEAD);
	for (unsigned i = 1; i <= 1201; i++)
		n += (size_t)snprintf(csv + n, cap - n,
				      "r1,%u,measure,%u000000000,%u000000000,"
				      "read,1024,1280,1\n",
				      i, i, i + 1);
	j = run_fn(telem_heatmap, csv, 0, &st, &ret);
	assert_int_equal(ret, 0);
	assert_int_equal(st.rows, 1201);
	want(j, "\"intervals_per_column\":4,\"total\":1201,");
	want(j, "\"read\":[[4],[4],");
	want(j, "[4],[1]],\"write\"");
	n = 0;
	for (const char *p = j; (p = strstr(p, "[4]")); p++)
		n++;
	assert_int_equal(n, 300);
	free(j);
	free(csv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_devices),
		cmocka_unit_test(test_devices_malformed),
		cmocka_unit_test(test_headers),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_series_bound),
		cmocka_unit_test(test_hoststats),
		cmocka_unit_test(test_probes),
		cmocka_unit_test(test_mutated),
		cmocka_unit_test(test_csvrow),
		cmocka_unit_test(test_folder),
		cmocka_unit_test(test_heatmap),
		cmocka_unit_test(test_heatmap_widen),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
