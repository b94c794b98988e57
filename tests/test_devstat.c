/*
 * Unit tests of the device and host telemetry figures (master/results/
 * devstat.c) against iostat's and top's arithmetic on injected counter
 * differences: one device with known I/Os, sectors, waits and busy time;
 * two devices summed (rates add, awaits weighted by I/Os, %util the
 * busiest's); a host's CPU shares, stalls and interface rates; and the
 * device key that de-duplicates a device two slaves of a host share.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "master/results/devstat.h"

#define NS 1000000000ull
#define near(a, b) assert_true(fabs((a) - (b)) < 1e-9)

static struct proto_dev dev(uint64_t span, uint64_t r, uint64_t w, uint64_t rt,
			    uint64_t wt, uint64_t busy, uint64_t queue)
{
	struct proto_dev d;

	memset(&d, 0, sizeof(d));
	d.span_ns = span;
	d.ios[0] = r;
	d.ios[1] = w;
	d.sectors[0] = r * 8; /* 4 KiB each */
	d.sectors[1] = w * 16;
	d.ticks_ms[0] = rt;
	d.ticks_ms[1] = wt;
	d.busy_ms = busy;
	d.queue_ms = queue;
	d.in_flight = 3;
	return d;
}

static void test_one_device(void **state)
{
	/* 2 s: 1000 reads waiting 2500 ms, 500 writes 4000 ms, busy 1.5 s. */
	struct proto_dev d = dev(2 * NS, 1000, 500, 2500, 4000, 1500, 6500);
	struct devstat_fig f;

	(void)state;
	devstat_of(&d, &f);
	near(f.r_s, 500.0);
	near(f.w_s, 250.0);
	near(f.rmbps, 1000.0 * 4096 / 1048576 / 2);
	near(f.wmbps, 500.0 * 8192 / 1048576 / 2);
	near(f.r_await_ms, 2.5);
	near(f.w_await_ms, 8.0);
	near(f.aqu_sz, 3.25);
	near(f.util_pct, 75.0);
	assert_int_equal(f.in_flight, 3);
	/* No writes: no write await (an empty cell, not 0). */
	d = dev(NS, 10, 0, 10, 0, 1001, 10);
	devstat_of(&d, &f);
	assert_true(isnan(f.w_await_ms));
	near(f.w_s, 0.0);
	/* io_ticks a tick past the span: %util stops at 100. */
	near(f.util_pct, 100.0);
	/* No span: nothing measured. */
	d = dev(0, 10, 0, 10, 0, 1, 10);
	devstat_of(&d, &f);
	assert_true(isnan(f.r_s) && isnan(f.util_pct));
}

static void test_sum(void **state)
{
	struct proto_dev a = dev(NS, 100, 0, 100, 0, 200, 100);
	struct proto_dev b = dev(NS, 900, 300, 9000, 600, 900, 9600);
	struct devstat_sum s;
	struct devstat_fig f;

	(void)state;
	memset(&s, 0, sizeof(s));
	devstat_sum_fig(&s, &f);
	assert_true(isnan(f.r_s) && isnan(f.util_pct));
	devstat_sum_add(&s, &a);
	devstat_sum_add(&s, &b);
	devstat_sum_fig(&s, &f);
	assert_int_equal(s.ndevs, 2);
	near(f.r_s, 1000.0);
	near(f.w_s, 300.0);
	/* (100 + 9000) ms over 1000 reads, not the mean of 1 and 10 ms. */
	near(f.r_await_ms, 9.1);
	near(f.w_await_ms, 2.0);
	near(f.aqu_sz, 9.7);
	near(f.util_pct, 90.0);
	assert_int_equal(f.in_flight, 6);
}

static void test_host(void **state)
{
	struct proto_interval iv;
	struct hoststat_fig h;

	(void)state;
	memset(&iv, 0, sizeof(iv));
	iv.cores = 4;
	iv.cpu_user_ns = NS / 2;
	iv.cpu_sys_ns = NS / 2; /* 1 s of a 4-core second: 25% */
	iv.tele = PROTO_TELE_CPU | PROTO_TELE_PSI | PROTO_TELE_NIC;
	iv.tele_span_ns = 2 * NS;
	iv.host_cpu_ns[0] = 2 * NS; /* user */
	iv.host_cpu_ns[1] = 1 * NS; /* system */
	iv.host_cpu_ns[2] = 1 * NS; /* iowait */
	iv.host_cpu_ns[3] = 0;      /* steal */
	iv.host_cpu_ns[4] = 4 * NS; /* idle */
	iv.psi_ns[1] = NS / 2;      /* memory: 0.5 s of 2 s */
	iv.psi_ns[2] = 3 * NS;      /* io, above the span: 100% */
	iv.net_bytes[0] = 2 * 1048576;
	iv.net_pkts[1] = 500;
	devstat_host(&iv, NS, &h);
	near(h.cpu_pct[0], 25.0);
	near(h.cpu_pct[1], 12.5);
	near(h.cpu_pct[2], 12.5);
	near(h.cpu_pct[3], 0.0);
	near(h.cpu_pct[4], 50.0);
	near(h.slave_cpu_pct, 25.0);
	near(h.psi_pct[0], 0.0);
	near(h.psi_pct[1], 25.0);
	near(h.psi_pct[2], 100.0);
	near(h.net_mbps[0], 1.0);
	near(h.net_pps[1], 250.0);
	/* What was not measured is NAN, never 0. */
	iv.tele = 0;
	devstat_host(&iv, NS, &h);
	assert_true(isnan(h.cpu_pct[0]) && isnan(h.psi_pct[1]) &&
		    isnan(h.net_mbps[0]));
	near(h.slave_cpu_pct, 25.0);
}

static void test_key(void **state)
{
	(void)state;
	assert_true(devstat_key("esx1", 7, 3) == devstat_key("esx1", 7, 3));
	assert_true(devstat_key("esx1", 7, 3) != devstat_key("esx2", 7, 3));
	assert_true(devstat_key("esx1", 7, 3) != devstat_key("esx1", 7, 4));
	assert_true(devstat_key("esx1", 7, 3) != devstat_key("esx1", 3, 7));
	assert_true(devstat_key("a", 1, 0) != devstat_key("", 1, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_device),
		cmocka_unit_test(test_sum),
		cmocka_unit_test(test_host),
		cmocka_unit_test(test_key),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
