/*
 * Unit tests for the pure parts of the live export (master/export): the
 * checks of --graphite HOST:PORT and --influx URL against hostile input,
 * Graphite path sanitizing and its plaintext lines, InfluxDB tag escaping
 * and its line protocol, Prometheus label escaping and the textfile
 * path check. Table-driven.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "master/export/export.h"

static void test_hostport(void **state)
{
	static const struct {
		const char *in;
		const char *host;
		unsigned port;
	} t[] = {
		{ "127.0.0.1:2003", "127.0.0.1", 2003 },
		{ "carbon.lab:1", "carbon.lab", 1 },
		{ "[::1]:65535", "::1", 65535 },
		{ "h:65536", NULL, 0 },
		{ "h:0", NULL, 0 },
		{ "h:", NULL, 0 },
		{ ":2003", NULL, 0 },
		{ "h", NULL, 0 },
		{ "h:20x3", NULL, 0 },
		{ "h:-1", NULL, 0 },
		{ "h:+80", NULL, 0 },
		{ "a b:80", NULL, 0 },
		{ "a\n:80", NULL, 0 },
		{ "::1:80", NULL, 0 },
		{ "[::1]80", NULL, 0 },
		{ "h:0000080", NULL, 0 },
	};
	char host[256];
	unsigned port;

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		int ret = export_parse_hostport(t[i].in, host, sizeof(host),
						&port);

		if (t[i].host) {
			assert_int_equal(ret, 0);
			assert_string_equal(host, t[i].host);
			assert_int_equal(port, t[i].port);
		} else if (ret == 0) {
			fail_msg("'%s' was accepted", t[i].in);
		}
	}
}

static void test_url(void **state)
{
	static const struct {
		const char *in;
		const char *host;
		unsigned port;
		const char *target;
	} t[] = {
		{ "http://127.0.0.1:8086/write?db=lockstep", "127.0.0.1", 8086,
		  "/write?db=lockstep" },
		{ "http://influx/write?db=x&precision=ns", "influx", 8086,
		  "/write?db=x&precision=ns" },
		{ "http://h:9/write?rp=a&db=x", "h", 9, "/write?rp=a&db=x" },
		{ "https://h:9/write?db=x", NULL, 0, NULL },
		{ "http://h:9/query?db=x", NULL, 0, NULL },
		{ "http://h:9/write", NULL, 0, NULL },
		{ "http://h:9/write?db=", NULL, 0, NULL },
		{ "http://h:9/write?db=x y", NULL, 0, NULL },
		{ "http://h:9/write?db=x\r\nX-Evil: 1", NULL, 0, NULL },
		{ "http://u:p@h:9/write?db=x", NULL, 0, NULL },
		{ "http://h:99999/write?db=x", NULL, 0, NULL },
		{ "http:///write?db=x", NULL, 0, NULL },
		{ "ftp://h/write?db=x", NULL, 0, NULL },
		{ "http://h:9", NULL, 0, NULL },
	};
	char host[256], target[256], err[256];
	unsigned port;

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		int ret = export_parse_url(t[i].in, host, sizeof(host), &port,
					   target, sizeof(target), err,
					   sizeof(err));

		if (t[i].host) {
			if (ret)
				fail_msg("'%s' refused: %s", t[i].in, err);
			assert_string_equal(host, t[i].host);
			assert_int_equal(port, t[i].port);
			assert_string_equal(target, t[i].target);
		} else if (ret == 0) {
			fail_msg("'%s' was accepted", t[i].in);
		} else {
			assert_true(strlen(err) > 0);
		}
	}
}

static void test_graphite_part(void **state)
{
	static const char *const t[][2] = {
		{ "r1", "r1" },
		{ "loop1 xfersize=4k rdpct=70", "loop1_xfersize_4k_rdpct_70" },
		{ "a.b", "a_b" },
		{ "esx-1.lab", "esx-1_lab" },
		{ "", "_" },
		{ "c=50%", "c_50_" },
	};
	char out[64];

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		assert_string_equal(export_graphite_part(t[i][0], out,
							 sizeof(out)),
				    t[i][1]);
}

static struct stats_view view(void)
{
	struct stats_view v;

	memset(&v, 0, sizeof(v));
	v.iops = 1234.5;
	v.mbps = 4.8223;
	v.resp_ms = 0.25;
	v.p99_ms = 1.5;
	v.ops = 1234;
	v.bytes = 1234 * 4096;
	return v;
}

static void test_graphite_format(void **state)
{
	struct stats_view v = view();
	struct export_point p = {
		.run = "r1 xfersize=4k",
		.phase = "measure",
		.interval = 3,
		.end_ns = 1700000000123456789ull,
		.reported = 2,
		.expected = 3,
		.v = &v,
	};
	char buf[8192];
	size_t n;

	(void)state;
	n = export_graphite_format(&p, buf, sizeof(buf));
	assert_true(n > 0);
	assert_non_null(
		strstr(buf,
		       "lockstep.r1_xfersize_4k.iops 1234.500 1700000000\n"));
	assert_non_null(
		strstr(buf,
		       "lockstep.r1_xfersize_4k.p99_ms 1.500000 1700000000\n"));
	assert_non_null(
		strstr(buf,
		       "lockstep.r1_xfersize_4k.slaves_reported 2 1700000000\n"));
	assert_non_null(
		strstr(buf,
		       "lockstep.r1_xfersize_4k.slaves_expected 3 1700000000\n"));
	p.host = "vm";
	p.slave = "esx1.lab";
	v.p99_ms = NAN; /* unknown: not sent */
	n = export_graphite_format(&p, buf, sizeof(buf));
	assert_non_null(
		strstr(buf,
		       "lockstep.r1_xfersize_4k.host.esx1_lab.ops 1234 1700000000\n"));
	assert_null(strstr(buf, "p99"));
	assert_null(strstr(buf, "slaves_"));
	/* Every line is PATH VALUE TIME, nothing else. */
	for (char *l = buf; *l; l = strchr(l, '\n') + 1) {
		char path[256];
		double x;
		unsigned long long t;

		assert_int_equal(sscanf(l, "%255s %lf %llu", path, &x, &t), 3);
	}
	/* Too small a buffer: nothing, never half a line. */
	assert_int_equal(export_graphite_format(&p, buf, 40), 0);
}

static void test_influx(void **state)
{
	static const char *const t[][2] = {
		{ "r1", "r1" },
		{ "loop1 xfersize=4k,x", "loop1\\ xfersize\\=4k\\,x" },
		{ "a\nb", "a_b" },
		{ "h\xc3\xa9", "h__" },
		{ "back\\", "back\\\\" },
		{ "", "_" },
	};
	struct stats_view v = view();
	struct export_point p = {
		.run = "r 1",
		.phase = "warmup",
		.host = "h,1",
		.slave = "s=1",
		.interval = 1,
		.end_ns = 42,
		.v = &v,
	};
	char out[128], buf[4096];

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		assert_string_equal(export_influx_tag(t[i][0], out,
						      sizeof(out)),
				    t[i][1]);
	assert_true(export_influx_format(&p, buf, sizeof(buf)) > 0);
	assert_memory_equal(buf,
			    "lockstep_slave,run=r\\ 1,phase=warmup,host=h\\,1,slave=s\\=1 iops=1234.500,",
			    strlen("lockstep_slave,run=r\\ 1,phase=warmup,host=h\\,1,slave=s\\=1 iops=1234.500,"));
	assert_non_null(strstr(buf, ",ops=1234i,"));
	assert_non_null(strstr(buf, " 42\n"));
	p.slave = NULL;
	p.host = NULL;
	assert_true(export_influx_format(&p, buf, sizeof(buf)) > 0);
	assert_memory_equal(buf,
			    "lockstep_cluster,run=r\\ 1,phase=warmup iops=",
			    strlen("lockstep_cluster,run=r\\ 1,phase=warmup iops="));
	assert_non_null(strstr(buf, "slaves_expected=0i"));
	assert_int_equal(export_influx_format(&p, buf, 30), 0);
}

/* A file-system operation's point: its own path, measurement, metrics. */
static void test_fsop(void **state)
{
	const struct export_metric m[] = {
		{ "ops", 120, 0 },    { "rate", 120, 3 },
		{ "errors", NAN, 0 }, { "resp_ms", 0.25, 6 },
		{ "p99_ms", 1.5, 6 }, { "interval", 3, 0 },
	};
	struct export_point p = {
		.kind = EXPORT_FSOP,
		.obj = "create",
		.nm = sizeof(m) / sizeof(m[0]),
		.m = m,
		.run = "rc 1",
		.phase = "measure",
		.interval = 3,
		.end_ns = 1700000000123456789ull,
	};
	char buf[4096];

	(void)state;
	assert_true(export_graphite_format(&p, buf, sizeof(buf)) > 0);
	assert_non_null(
		strstr(buf,
		       "lockstep.rc_1.op.create.rate 120.000 1700000000\n"));
	assert_non_null(
		strstr(buf,
		       "lockstep.rc_1.op.create.p99_ms 1.500000 1700000000\n"));
	assert_null(strstr(buf, "errors")); /* unknown: not sent */
	assert_true(export_influx_format(&p, buf, sizeof(buf)) > 0);
	assert_string_equal(buf,
			    "lockstep_op,run=rc\\ 1,phase=measure,operation=create "
			    "ops=120i,rate=120.000,resp_ms=0.250000,p99_ms=1.500000,"
			    "interval=3i 1700000000123456789\n");
}

static void test_prom(void **state)
{
	char out[64], err[256], dir[] = "/tmp/test_export.XXXXXX", path[512];
	struct export_opts o = { 0 };

	(void)state;
	assert_string_equal(export_prom_label("a\"b\\c\nd", out, sizeof(out)),
			    "a\\\"b\\\\c\\nd");
	/* A peer's host name with control or non-ASCII bytes stays one value. */
	assert_string_equal(export_prom_label("a\rb\xc3", out, sizeof(out)),
			    "a_b_");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/lockstep.prom", dir);
	o.prom = path;
	assert_int_equal(export_check(&o, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/nope/lockstep.prom", dir);
	assert_int_equal(export_check(&o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "does not exist"));
	snprintf(path, sizeof(path), "%s/lockstep.txt", dir);
	assert_int_equal(export_check(&o, err, sizeof(err)), -EINVAL);
	snprintf(path, sizeof(path), "%s/.hidden.prom", dir);
	assert_int_equal(export_check(&o, err, sizeof(err)), -EINVAL);
	/* A symbolic link where the file goes is refused, not followed. */
	snprintf(path, sizeof(path), "%s/link.prom", dir);
	assert_int_equal(symlink("/etc/passwd", path), 0);
	assert_int_equal(export_check(&o, err, sizeof(err)), -EINVAL);
	unlink(path);
	rmdir(dir);
	o.prom = NULL;
	o.graphite = "h:70000";
	assert_int_equal(export_check(&o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--graphite"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hostport),
		cmocka_unit_test(test_url),
		cmocka_unit_test(test_graphite_part),
		cmocka_unit_test(test_graphite_format),
		cmocka_unit_test(test_influx),
		cmocka_unit_test(test_fsop),
		cmocka_unit_test(test_prom),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
