/*
 * Unit tests of the worker's completion batching rule (slave/reap.c): how
 * many completions it waits for, the bound on the wait, when batching turns
 * off and on, and a simulated device behind a worker loop that checks the
 * promise of reap.h: no completion is stamped more than REAP_BATCH_WAIT_NS
 * after it happened, and more than REAP_BATCH_FAST_NS only in the one wait
 * that turns batching off, on fast devices (where batching stays on) and
 * slow ones (where it turns itself off).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "slave/reap.h"

#define NS_MS 1000000ull
#define NS_S 1000000000ull

static void test_wait_nr(void **state)
{
	struct reap r = { 0 };
	static const struct {
		unsigned inflight, nr;
	} cases[] = {
		{ 0, 1 },  { 1, 1 },  { 8, 1 },	 { 15, 1 },   { 16, 2 },
		{ 23, 2 }, { 24, 3 }, { 32, 4 }, { 256, 4 }, { 4096, 4 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t t = NS_S;
		unsigned nr = reap_wait_nr(&r, cases[i].inflight, 1, &t);

		assert_int_equal(nr, cases[i].nr);
		assert_true(nr <= (cases[i].inflight ? cases[i].inflight : 1));
		/* Only a batched wait is bounded. */
		assert_int_equal(t, nr > 1 ? REAP_BATCH_WAIT_NS : NS_S);
		/* A fixed rate always waits for one, unbounded. */
		t = NS_S;
		assert_int_equal(reap_wait_nr(&r, cases[i].inflight, 0, &t), 1);
		assert_int_equal(t, NS_S);
	}
	/* A timeout already below the bound is kept. */
	uint64_t t = 1000;
	assert_int_equal(reap_wait_nr(&r, 32, 1, &t), 4);
	assert_int_equal(t, 1000);
}

static void test_off_and_on(void **state)
{
	struct reap r = { 0 };
	uint64_t t = NS_S;

	(void)state;
	reap_seen(&r, 4, 4, 10000); /* a full batch, fast: stays on */
	assert_int_equal(reap_wait_nr(&r, 32, 1, &t), 4);
	reap_seen(&r, 4, 4, REAP_BATCH_FAST_NS + 1); /* too slow: off */
	t = NS_S;
	assert_int_equal(reap_wait_nr(&r, 32, 1, &t), 1);
	assert_int_equal(t, NS_S);
	/* Off for REAP_RETRY_WAITS waits for one, whatever they bring. */
	for (unsigned i = 0; i < REAP_RETRY_WAITS; i++) {
		assert_int_equal(reap_wait_nr(&r, 32, 1, &t), 1);
		reap_seen(&r, 1, i % 3, 1000);
	}
	assert_int_equal(reap_wait_nr(&r, 32, 1, &t), 4);
	reap_seen(&r, 4, 3, 1000); /* the bound came first: off again */
	assert_int_equal(reap_wait_nr(&r, 32, 1, &t), 1);
}

/*
 * A worker loop over a simulated device that serves one I/O at a time,
 * FIFO, in service_ns each (like one io-wq thread on zram), with qd slots
 * always refilled at once. The worker waits as reap_wait_nr says: until
 * that many completions are there or the timeout passes, then reaps every
 * completion up to that moment and stamps them all with it. The device
 * stalls for stall_ns before it starts I/O number stall_at (none when
 * stall_ns is 0). Returns the largest stamp delay (stamp - true
 * completion) and counts of waits.
 */
struct sim {
	uint64_t max_delay;
	uint64_t late;      /* waits with a delay past REAP_BATCH_FAST_NS */
	uint64_t batched, reaped, waits;
};

static struct sim simulate(uint64_t service_ns, unsigned qd, uint64_t span,
			   uint64_t stall_at, uint64_t stall_ns)
{
	struct sim s = { 0 };
	struct reap r = { 0 };
	uint64_t *done = calloc(qd, sizeof(*done)); /* FIFO of completions */
	uint64_t now = 0, server_free = 0, issued = 0;
	unsigned head = 0, n = 0;

	assert_non_null(done);
	while (now < span) {
		while (n < qd) { /* refill every free slot at now */
			uint64_t begin = server_free > now ? server_free : now;

			if (issued++ == stall_at)
				begin += stall_ns;
			server_free = begin + service_ns;
			done[(head + n++) % qd] = server_free;
		}
		uint64_t timeout = 100 * NS_MS; /* the interval boundary */
		unsigned nr = reap_wait_nr(&r, n, 1, &timeout);
		uint64_t nth = done[(head + nr - 1) % qd];
		uint64_t wake = nth < now + timeout ? nth : now + timeout;
		unsigned got = 0;
		uint64_t max = 0;

		if (wake < now)
			wake = now; /* already there: the wait returns at once */
		while (n > 0 && done[head] <= wake) {
			uint64_t delay = wake - done[head];

			if (delay > max)
				max = delay;
			head = (head + 1) % qd;
			n--;
			got++;
		}
		reap_seen(&r, nr, got, wake - now);
		if (max > s.max_delay)
			s.max_delay = max;
		s.late += max > REAP_BATCH_FAST_NS;
		s.waits++;
		s.reaped += got;
		s.batched += nr > 1;
		now = wake;
	}
	free(done);
	return s;
}

static void test_delay_bound(void **state)
{
	(void)state;
	/* Fast: 2.3 us per I/O at QD32, the zram case. */
	struct sim fast = simulate(2300, 32, NS_S / 10, 0, 0);

	assert_true(fast.max_delay <= REAP_BATCH_WAIT_NS);
	assert_true(fast.batched > fast.waits * 9 / 10);
	assert_true(fast.reaped > fast.waits * 3); /* fewer wake-ups */
	assert_int_equal(fast.late, 0);
	/*
	 * Slow: 1 ms per I/O. The first batched wait takes 4 ms and turns
	 * batching off; about 2000 waits in 2 s: no retry.
	 */
	struct sim slow = simulate(NS_MS, 32, 2 * NS_S, 0, 0);

	assert_true(slow.max_delay <= REAP_BATCH_WAIT_NS);
	assert_int_equal(slow.batched, 1);
	assert_true(slow.late <= 1);
	/* One wake-up per completion when they come one at a time. */
	assert_true(slow.reaped + 1 >= slow.waits);
	/*
	 * Between: 400 us per I/O, a batch of 4 takes 1.6 ms: one late wait
	 * per REAP_RETRY_WAITS at most.
	 */
	struct sim mid = simulate(400000, 64, 8 * NS_S, 0, 0);

	assert_true(mid.max_delay <= REAP_BATCH_WAIT_NS);
	assert_true(mid.late <= 1 + mid.waits / REAP_RETRY_WAITS);
	assert_true(mid.batched >= 2); /* it was retried */
	/* 20 us per I/O: 4 fill in 80 us, batching stays on. */
	struct sim quick = simulate(20000, 64, NS_S / 10, 0, 0);

	assert_true(quick.max_delay <= REAP_BATCH_FAST_NS);
	assert_true(quick.batched > quick.waits * 9 / 10);
}

/*
 * A fast device that stalls for a second in the middle of a batch: the
 * completions before the stall are stamped when the batched wait gives up,
 * REAP_BATCH_WAIT_NS later at most, not at the interval boundary (100 ms in
 * the simulation). Stalls at a few neighbouring I/Os, so that some fall
 * inside a batch rather than at its end.
 */
static void test_stall_in_batch(void **state)
{
	unsigned hit = 0;

	(void)state;
	for (uint64_t at = 1000; at < 1004; at++) {
		struct sim st = simulate(2300, 32, 2 * NS_S, at, NS_S);

		assert_true(st.max_delay <= REAP_BATCH_WAIT_NS);
		hit += st.late > 0;
	}
	assert_true(hit > 0); /* the bound, not the batch, ended a wait */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wait_nr),
		cmocka_unit_test(test_off_and_on),
		cmocka_unit_test(test_delay_bound),
		cmocka_unit_test(test_stall_in_batch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
