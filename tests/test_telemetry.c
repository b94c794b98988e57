/*
 * Unit tests of the slave's telemetry (slave/telemetry.c): its parsers on
 * the kernel's formats (a block stat line, /proc/stat's cpu line, a PSI
 * file, a sysfs number) and on what is not them; the interface-name
 * rule; and the schedule of samples at the intervals' ends on this
 * host's real /proc/stat.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "common/timeutil.h"
#include "slave/telemetry.h"

static void test_parse_stat(void **state)
{
	uint64_t v[TELE_NSTAT];

	(void)state;
	/* Linux 6.x: 17 fields, space-padded. */
	assert_int_equal(telemetry_parse_stat("  181733     4512 11624562    93624   206061   110245 19216904   522145        2   402924   650217        0        0        0        0    40208    34447\n",
					      v),
			 0);
	assert_int_equal(v[TELE_RD_IOS], 181733);
	assert_int_equal(v[TELE_RD_SECTORS], 11624562);
	assert_int_equal(v[TELE_RD_TICKS], 93624);
	assert_int_equal(v[TELE_WR_IOS], 206061);
	assert_int_equal(v[TELE_WR_SECTORS], 19216904);
	assert_int_equal(v[TELE_WR_TICKS], 522145);
	assert_int_equal(v[TELE_IN_FLIGHT], 2);
	assert_int_equal(v[TELE_IO_TICKS], 402924);
	assert_int_equal(v[TELE_QUEUE], 650217);
	/* Too few fields, or not numbers. */
	assert_int_equal(telemetry_parse_stat("1 2 3 4 5 6 7 8 9 10\n", v),
			 -EINVAL);
	assert_int_equal(telemetry_parse_stat("a b c", v), -EINVAL);
	assert_int_equal(telemetry_parse_stat("", v), -EINVAL);
	assert_int_equal(telemetry_parse_stat("1 2 3 4 5 6 7 8 9 10 99999999999999999999999",
					      v),
			 -EINVAL);
}

static void test_parse_cpu(void **state)
{
	uint64_t v[5];

	(void)state;
	assert_int_equal(telemetry_parse_cpu("cpu  10132153 290696 3084719 46828483 16683 0 25195 7 0 0\ncpu0 1 2 3 4 5 6 7 8 9 10\n",
					     v),
			 0);
	assert_int_equal(v[0], 10132153 + 290696);
	assert_int_equal(v[1], 3084719 + 0 + 25195);
	assert_int_equal(v[2], 16683);
	assert_int_equal(v[3], 7);
	assert_int_equal(v[4], 46828483);
	assert_int_equal(telemetry_parse_cpu("cpu0 1 2 3 4 5 6 7 8\n", v),
			 -EINVAL);
	assert_int_equal(telemetry_parse_cpu("cpu  1 2 3\n", v), -EINVAL);
}

static void test_parse_psi(void **state)
{
	uint64_t us = 0;

	(void)state;
	assert_int_equal(telemetry_parse_psi("some avg10=1.53 avg60=0.87 avg300=0.29 total=23451\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=999\n",
					     &us),
			 0);
	assert_int_equal(us, 23451);
	/* The full line's total is not the some line's. */
	assert_int_equal(telemetry_parse_psi("some avg10=1.53\nfull total=9\n",
					     &us),
			 -EINVAL);
	assert_int_equal(telemetry_parse_psi("full total=9\n", &us), -EINVAL);
	assert_int_equal(telemetry_parse_u64("1234567\n", &us), 0);
	assert_int_equal(us, 1234567);
	assert_int_equal(telemetry_parse_u64("-1\n", &us), -EINVAL);
}

static void test_nic_ok(void **state)
{
	(void)state;
	assert_true(telemetry_nic_ok("eth0"));
	assert_true(telemetry_nic_ok("ens1f0np0"));
	assert_true(telemetry_nic_ok("vlan.100"));
	assert_false(telemetry_nic_ok(""));
	assert_false(telemetry_nic_ok("."));
	assert_false(telemetry_nic_ok(".."));
	assert_false(telemetry_nic_ok("../../etc"));
	assert_false(telemetry_nic_ok("a b"));
	assert_false(telemetry_nic_ok("0123456789abcdef")); /* 16: too long */
}

/*
 * The real /proc/stat sampled on a schedule of 50 ms intervals from
 * start (times given, not waited for): the base TELEMETRY_BASE_LEAD_NS
 * before the start (not at it, where the workers go), interval 0's sample
 * at its end spanning the lead too, then a tick that comes 1.5 intervals
 * late, which belongs to the last interval that ended (2) and spans both;
 * interval 1 has none. CPU time is there, no device is (no target was
 * given). A start already passed (a rejoin) takes the base at once.
 */
static void test_schedule(void **state)
{
	const uint64_t I = 50000000, L = TELEMETRY_BASE_LEAD_NS;
	struct telemetry t;
	struct proto_interval pi;
	uint64_t t0 = time_mono_ns(), start = t0 + I;

	(void)state;
	telemetry_open(&t, NULL, 0, "");
	telemetry_start(&t, start, 0, I);
	assert_int_equal(telemetry_due_ms(&t, t0, 1000), (I - L) / 1000000);
	assert_int_equal(telemetry_due_ms(&t, t0, 20), 20);
	telemetry_tick(&t, t0);            /* not due: nothing */
	telemetry_tick(&t, start - L - 1); /* nor yet */
	memset(&pi, 0, sizeof(pi));
	telemetry_fill(&t, 0, &pi);
	assert_int_equal(pi.tele, 0);
	telemetry_tick(&t, start - L); /* the base, before the start */
	assert_int_equal(telemetry_due_ms(&t, start - L, 1000),
			 (I + L) / 1000000);
	assert_int_equal(telemetry_due_ms(&t, start, 1000), 50);
	telemetry_tick(&t, start); /* the start itself: nothing to read */
	telemetry_fill(&t, 0, &pi);
	assert_int_equal(pi.tele, 0);
	usleep(20000);
	telemetry_tick(&t, start + I);
	telemetry_fill(&t, 0, &pi);
	assert_true(pi.tele & PROTO_TELE_CPU);
	assert_int_equal(pi.tele_span_ns, I + L);
	assert_int_equal(pi.ndevs, 0);
	assert_int_equal(pi.nic[0], 0);
	assert_true(pi.host_cpu_ns[0] + pi.host_cpu_ns[1] + pi.host_cpu_ns[2] +
			    pi.host_cpu_ns[3] + pi.host_cpu_ns[4] >
		    0);
	telemetry_fill(&t, 0, &pi); /* taken once */
	assert_int_equal(pi.tele, 0);
	telemetry_tick(&t, start + 3 * I + I / 2);
	telemetry_fill(&t, 1, &pi);
	assert_int_equal(pi.tele, 0);
	telemetry_fill(&t, 2, &pi);
	assert_true(pi.tele & PROTO_TELE_CPU);
	assert_int_equal(pi.tele_span_ns, 2 * I + I / 2);
	/* The next is due at interval 3's end. */
	assert_int_equal(telemetry_due_ms(&t, start + 3 * I + I / 2, 1000), 25);

	/* Joined late: interval 4 of the same schedule, started already. */
	telemetry_start(&t, start + 4 * I, 4, I);
	assert_int_equal(telemetry_due_ms(&t, start + 4 * I + I / 2, 1000), 0);
	telemetry_tick(&t, start + 4 * I + I / 2); /* the base, at once */
	assert_int_equal(telemetry_due_ms(&t, start + 4 * I + I / 2, 1000), 25);
	usleep(20000);
	telemetry_tick(&t, start + 5 * I);
	telemetry_fill(&t, 4, &pi);
	assert_true(pi.tele & PROTO_TELE_CPU);
	assert_int_equal(pi.tele_span_ns, I / 2);
	telemetry_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_stat),
		cmocka_unit_test(test_parse_cpu),
		cmocka_unit_test(test_parse_psi),
		cmocka_unit_test(test_nic_ok),
		cmocka_unit_test(test_schedule),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
