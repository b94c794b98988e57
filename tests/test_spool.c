/*
 * Unit tests for the slave's interval spool: kept until acknowledged,
 * re-sent when overdue, bounded.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "slave/spool.h"

static void add(struct spool *s, uint32_t phase, uint32_t seq, uint64_t now)
{
	char *buf = malloc(8);

	assert_non_null(buf);
	memcpy(buf, "interval", 8);
	assert_true(spool_add(s, phase, seq, buf, 8, now) >= 0);
}

static void test_ack_releases_contiguous(void **state)
{
	struct spool s = { 0 };

	(void)state;
	for (uint32_t k = 0; k < 5; k++)
		add(&s, 1, k, 100);
	add(&s, 2, 0, 100);
	spool_ack(&s, 1, 2);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.head->phase, 1);
	assert_int_equal(s.head->seq, 3);
	/* An ack of another phase leaves phase 1 alone. */
	spool_ack(&s, 2, 0);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.tail->seq, 4);
	spool_ack(&s, 1, 4);
	assert_int_equal(s.n, 0);
	assert_null(s.head);
	assert_null(s.tail);
	/* Adding after the spool emptied keeps head and tail right. */
	add(&s, 3, 0, 100);
	assert_ptr_equal(s.head, s.tail);
	spool_free(&s);
}

static void test_due_after_age(void **state)
{
	struct spool s = { 0 };
	struct spool_item *it;

	(void)state;
	add(&s, 1, 0, 1000);
	add(&s, 1, 1, 2000);
	assert_null(spool_due(&s, 2500, 2000));
	it = spool_due(&s, 3000, 2000);
	assert_non_null(it);
	assert_int_equal(it->seq, 0);
	it->sent_ns = 3000;
	it = spool_due(&s, 4000, 2000);
	assert_non_null(it);
	assert_int_equal(it->seq, 1);
	spool_free(&s);
	assert_int_equal(s.n, 0);
}

static void test_bounded(void **state)
{
	struct spool s = { 0 };
	int dropped = 0;

	(void)state;
	for (uint32_t k = 0; k < SPOOL_MAX + 10; k++) {
		char *buf = malloc(1);

		assert_non_null(buf);
		dropped += spool_add(&s, 1, k, buf, 1, k);
	}
	assert_int_equal(dropped, 10);
	assert_int_equal(s.dropped, 10);
	assert_int_equal(s.n, SPOOL_MAX);
	assert_int_equal(s.head->seq, 10); /* the oldest went first */
	spool_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ack_releases_contiguous),
		cmocka_unit_test(test_due_after_age),
		cmocka_unit_test(test_bounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
