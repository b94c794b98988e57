/*
 * Clock datagrams (proto/clockdgram.c): every field round-trips at its
 * extremes, and anything that is not exactly one well-formed datagram is
 * refused; a real UDP pair carries one with a kernel arrival time.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>
#include "common/timeutil.h"
#include "proto/clockdgram.h"

static void test_round_trip(void **state)
{
	struct clockdgram a = { .kind = CLOCKDGRAM_PONG,
				.slave = UINT32_MAX,
				.nonce = UINT64_MAX - 1,
				.seq = 0x01020304,
				.t1 = 1,
				.t2 = UINT64_MAX,
				.t3 = UINT64_C(1700000000123456789) },
			  b;
	unsigned char buf[CLOCKDGRAM_LEN];

	(void)state;
	clockdgram_encode(&a, buf);
	assert_memory_equal(buf, "LSCK\x03\0\0\0", 8);
	assert_int_equal(clockdgram_decode(buf, sizeof(buf), &b), 0);
	assert_int_equal(b.kind, a.kind);
	assert_int_equal(b.slave, a.slave);
	assert_true(b.nonce == a.nonce);
	assert_int_equal(b.seq, a.seq);
	assert_true(b.t1 == a.t1 && b.t2 == a.t2 && b.t3 == a.t3);
}

static void test_refused(void **state)
{
	struct clockdgram a = { .kind = CLOCKDGRAM_PING, .nonce = 7 }, b;
	unsigned char buf[CLOCKDGRAM_LEN + 1], bad[CLOCKDGRAM_LEN];
	/* Magic, kind 0 and 4, each padding byte. */
	static const struct {
		size_t at;
		unsigned char v;
	} t[] = { { 0, 'X' }, { 3, 'k' }, { 4, 0 },   { 4, 4 },
		  { 5, 1 },   { 6, 1 },   { 7, 0x80 } };

	(void)state;
	clockdgram_encode(&a, buf);
	buf[CLOCKDGRAM_LEN] = 0;
	assert_int_equal(clockdgram_decode(buf, CLOCKDGRAM_LEN + 1, &b),
			 -EBADMSG);
	assert_int_equal(clockdgram_decode(buf, CLOCKDGRAM_LEN - 1, &b),
			 -EBADMSG);
	assert_int_equal(clockdgram_decode(buf, 0, &b), -EBADMSG);
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		memcpy(bad, buf, sizeof(bad));
		bad[t[i].at] = t[i].v;
		if (clockdgram_decode(bad, sizeof(bad), &b) != -EBADMSG)
			fail_msg("byte %zu = %u accepted", t[i].at, t[i].v);
	}
}

static void test_sockets(void **state)
{
	int srv = clockdgram_socket("127.0.0.1", 0, 1), cli;
	unsigned port = srv >= 0 ? clockdgram_port(srv) : 0;
	struct clockdgram a = { .kind = CLOCKDGRAM_HELLO, .nonce = 42 }, b;
	unsigned char buf[CLOCKDGRAM_LEN + 1];
	struct sockaddr_storage from;
	socklen_t fromlen = sizeof(from);
	uint64_t before = time_real_ns(), rx = 0;
	int len = -EAGAIN;

	(void)state;
	assert_true(srv >= 0);
	assert_true(port > 0);
	cli = clockdgram_socket("127.0.0.1", port, 0);
	assert_true(cli >= 0);
	/* Nothing there yet: a non-blocking socket says so. */
	assert_int_equal(clockdgram_recv(srv, buf, sizeof(buf), &from, &fromlen,
					 &rx),
			 -EAGAIN);
	clockdgram_encode(&a, buf);
	assert_int_equal(send(cli, buf, CLOCKDGRAM_LEN, 0), CLOCKDGRAM_LEN);
	for (int i = 0; i < 1000 && len == -EAGAIN; i++) {
		fromlen = sizeof(from);
		len = clockdgram_recv(srv, buf, sizeof(buf), &from, &fromlen,
				      &rx);
		if (len == -EAGAIN)
			time_sleep_ns(NS_PER_MS);
	}
	assert_int_equal(len, CLOCKDGRAM_LEN);
	assert_int_equal(clockdgram_decode(buf, (size_t)len, &b), 0);
	assert_true(b.nonce == 42);
	/* The kernel's arrival time, on CLOCK_REALTIME. */
	assert_true(rx >= before && rx <= time_real_ns());
	assert_true(fromlen > 0);
	assert_int_equal(clockdgram_socket("127.0.0.1", 70000, 0), -EINVAL);
	close(cli);
	close(srv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_sockets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
