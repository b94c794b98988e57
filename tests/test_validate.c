/*
 * Unit tests of data validation's pure part: the CRC-32C against its
 * published check value (both implementations agree), the header layout,
 * every kind the classifier can answer on hand-damaged blocks, the
 * generation ring, the journal replay with its crash alternatives, and a
 * journal file that names its slave and sd (a renamed one is refused).
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

#include "slave/datagen.h"
#include "slave/validate.h"
#include "slave/valmap.h"

#define SD 0x11223344u
#define SLAVE 0x5566u
#define T0 1700000000123456789ull

static uint8_t blk[VALIDATE_BLOCK] __attribute__((aligned(4096)));
static uint8_t other[VALIDATE_BLOCK] __attribute__((aligned(4096)));

static void pattern(uint8_t *b, unsigned seed)
{
	for (unsigned i = 0; i < VALIDATE_BLOCK; i++)
		b[i] = (uint8_t)(i * 31 + seed * 7 + 1);
}

static void test_crc32c(void **state)
{
	static const char check[] = "123456789";
	uint8_t zeros[32] = { 0 };
	uint8_t big[4099];

	(void)state;
	/* The CRC-32C check value (RFC 3720, appendix B.4). */
	assert_int_equal(validate_crc32c(0, check, 9), 0xe3069283u);
	/* 32 zero bytes: RFC 3720 B.4's first example. */
	assert_int_equal(validate_crc32c(0, zeros, 32), 0x8a9136aau);
	/* Streaming in pieces of odd sizes gives the same answer. */
	for (unsigned i = 0; i < sizeof(big); i++)
		big[i] = (uint8_t)(i ^ (i >> 3));
	assert_int_equal(validate_crc32c(validate_crc32c(0, big, 13), big + 13,
					 sizeof(big) - 13),
			 validate_crc32c(0, big, sizeof(big)));
}

static void test_header_layout(void **state)
{
	uint64_t sector, t;
	uint32_t magic, sd;
	uint16_t slave;

	(void)state;
	pattern(blk, 1);
	validate_fill(blk, 1000, SD, SLAVE, 7, T0);
	for (unsigned s = 0; s < VALIDATE_SECTORS; s++) {
		const uint8_t *sec = blk + s * VALIDATE_SECTOR;

		memcpy(&magic, sec, 4);
		memcpy(&sector, sec + 8, 8);
		memcpy(&sd, sec + 16, 4);
		memcpy(&slave, sec + 20, 2);
		memcpy(&t, sec + 24, 8);
		assert_int_equal(magic, VALIDATE_MAGIC);
		assert_int_equal(sector, 8000 + s);
		assert_int_equal(sd, SD);
		assert_int_equal(slave, SLAVE);
		assert_int_equal(sec[22], 7);
		assert_int_equal(t, T0);
	}
	/* The data pattern after each header is left alone. */
	assert_int_equal(blk[100], (uint8_t)(100 * 31 + 7 + 1));
	assert_int_equal(blk[VALIDATE_SECTOR + 32],
			 (uint8_t)((VALIDATE_SECTOR + 32) * 31 + 7 + 1));
}

static void test_check_ok(void **state)
{
	struct validate_found f;

	(void)state;
	pattern(blk, 2);
	validate_fill(blk, 42, SD, SLAVE, 200, T0);
	assert_int_equal(validate_check(blk, 42, SD, 200, &f), VALIDATE_OK);
	assert_int_equal(f.gen, 200);
	assert_int_equal(f.slave, SLAVE);
	assert_int_equal(f.time_ns, T0);
}

static void test_check_corrupt(void **state)
{
	struct validate_found f;

	(void)state;
	/* One flipped data byte in the last sector. */
	pattern(blk, 3);
	validate_fill(blk, 42, SD, SLAVE, 5, T0);
	blk[VALIDATE_BLOCK - 1] ^= 0x01;
	assert_int_equal(validate_check(blk, 42, SD, 5, &f), VALIDATE_CORRUPT);
	/* A flipped generation byte is caught by the CRC, not taken as lost. */
	validate_fill(blk, 42, SD, SLAVE, 5, T0);
	blk[3 * VALIDATE_SECTOR + 22] ^= 0x02;
	assert_int_equal(validate_check(blk, 42, SD, 5, &f), VALIDATE_CORRUPT);
	/* A destroyed magic in one sector: partly stamped, corrupt. */
	validate_fill(blk, 42, SD, SLAVE, 5, T0);
	memset(blk + 2 * VALIDATE_SECTOR, 0, 4);
	assert_int_equal(validate_check(blk, 42, SD, 5, &f), VALIDATE_CORRUPT);
	/* Torn: the second half from a later write of the same block. */
	pattern(blk, 3);
	pattern(other, 4);
	validate_fill(blk, 42, SD, SLAVE, 5, T0);
	validate_fill(other, 42, SD, SLAVE, 6, T0 + 1000);
	memcpy(blk + VALIDATE_BLOCK / 2, other + VALIDATE_BLOCK / 2,
	       VALIDATE_BLOCK / 2);
	assert_int_equal(validate_check(blk, 42, SD, 6, &f), VALIDATE_CORRUPT);
	assert_int_equal(f.gen, 6); /* the first sector that disagrees */
}

static void test_check_misdirected(void **state)
{
	struct validate_found f;

	(void)state;
	/* Block 7's data found where block 9 should be. */
	pattern(blk, 5);
	validate_fill(blk, 7, SD, SLAVE, 3, T0);
	assert_int_equal(validate_check(blk, 9, SD, 3, &f),
			 VALIDATE_MISDIRECTED);
	assert_int_equal(f.sector, 7 * VALIDATE_SECTORS);
	/* The same block number of another sd. */
	validate_fill(blk, 9, SD + 1, SLAVE, 3, T0);
	assert_int_equal(validate_check(blk, 9, SD, 3, &f),
			 VALIDATE_MISDIRECTED);
	assert_int_equal(f.sd, SD + 1);
}

static void test_check_lost_stale_never(void **state)
{
	struct validate_found f;

	(void)state;
	pattern(blk, 6);
	validate_fill(blk, 11, SD, SLAVE, 4, T0);
	/* The map expects generation 6: two writes were lost. */
	assert_int_equal(validate_check(blk, 11, SD, 6, &f), VALIDATE_LOST);
	assert_int_equal(f.gen, 4);
	/* Across the wrap: 255 found, 2 expected (255 -> 1 -> 2). */
	validate_fill(blk, 11, SD, SLAVE, 255, T0);
	assert_int_equal(validate_check(blk, 11, SD, 2, &f), VALIDATE_LOST);
	/* Found ahead of the map (1 ahead of 255): the map is stale. */
	validate_fill(blk, 11, SD, SLAVE, 1, T0);
	assert_int_equal(validate_check(blk, 11, SD, 255, &f), VALIDATE_STALE);
	/* No header anywhere: a completed write is not there at all. */
	pattern(blk, 6);
	assert_int_equal(validate_check(blk, 11, SD, 1, &f),
			 VALIDATE_NEVER_WRITTEN);
	assert_int_equal(f.gen, 0);
	memset(blk, 0, sizeof(blk));
	assert_int_equal(validate_check(blk, 11, SD, 1, &f),
			 VALIDATE_NEVER_WRITTEN);
}

static void test_gen_ring_and_names(void **state)
{
	(void)state;
	assert_int_equal(validate_gen_next(0), 1);
	assert_int_equal(validate_gen_next(1), 2);
	assert_int_equal(validate_gen_next(254), 255);
	assert_int_equal(validate_gen_next(255), 1);
	assert_string_equal(validate_kind_name(VALIDATE_LOST), "lost");
	assert_string_equal(validate_kind_name(VALIDATE_NEVER_WRITTEN),
			    "never-written");
	assert_string_equal(validate_kind_name(VALIDATE_NKINDS), "?");
	assert_int_not_equal(validate_id("sd1"), validate_id("sd2"));
	assert_int_equal(validate_id(""), 2166136261u);
}

static void test_replay(void **state)
{
	uint8_t gen[16] = { 0 };
	struct validate_alt alt[4];
	size_t nalt;
	uint64_t recs[] = {
		validate_rec(1, 1, VALIDATE_REC_INTENT),
		validate_rec(1, 1, VALIDATE_REC_DONE),
		validate_rec(2, 1, VALIDATE_REC_INTENT),
		validate_rec(2, 1, VALIDATE_REC_DONE),
		validate_rec(2, 2, VALIDATE_REC_INTENT), /* crash: no done */
		validate_rec(3, 1, VALIDATE_REC_INTENT), /* crash: no done */
		validate_rec(4, 1, VALIDATE_REC_INTENT),
		validate_rec(4, 1, VALIDATE_REC_DONE),
		validate_rec(4, 0, VALIDATE_REC_FORGET), /* a failed write */
		validate_rec(15, 9, VALIDATE_REC_DONE),
	};
	uint8_t out = 99;

	(void)state;
	assert_int_equal(validate_replay(gen, 16, recs, 10, alt, 4, &nalt), 0);
	assert_int_equal(gen[0], 0);
	assert_int_equal(gen[1], 1);
	assert_int_equal(gen[2], 2);
	assert_int_equal(gen[3], 1);
	assert_int_equal(gen[4], 0);
	assert_int_equal(gen[15], 9);
	assert_int_equal(nalt, 2);
	assert_int_equal(alt[0].block, 2);
	assert_int_equal(alt[0].old, 1);
	assert_int_equal(alt[1].block, 3);
	assert_int_equal(alt[1].old, 0);
	/* Block 2 may hold 1 (the write never landed) but not 0 or 3. */
	assert_int_equal(validate_alt_accept(alt, nalt, 2, 0, &out), 0);
	assert_int_equal(validate_alt_accept(alt, nalt, 2, 3, &out), 0);
	assert_int_equal(validate_alt_accept(alt, nalt, 2, 1, &out), 1);
	assert_int_equal(out, 1);
	/* Settled: the same answer again is not accepted twice. */
	assert_int_equal(validate_alt_accept(alt, nalt, 2, 1, &out), 0);
	/* Block 3 was never written before: anything, and it is forgotten. */
	assert_int_equal(validate_alt_accept(alt, nalt, 3, 77, &out), 1);
	assert_int_equal(out, 0);
	/* A block with no alternative is never excused. */
	assert_int_equal(validate_alt_accept(alt, nalt, 1, 0, &out), 0);
}

static void test_replay_rejects(void **state)
{
	uint8_t gen[8] = { 0 };
	struct validate_alt alt[1];
	size_t nalt;
	uint64_t past = validate_rec(8, 1, VALIDATE_REC_DONE);
	uint64_t type = validate_rec(1, 1, 7);
	uint64_t zero = validate_rec(1, 0, VALIDATE_REC_INTENT);
	uint64_t two[] = { validate_rec(1, 1, VALIDATE_REC_INTENT),
			   validate_rec(2, 1, VALIDATE_REC_INTENT) };

	(void)state;
	assert_int_equal(validate_replay(gen, 8, &past, 1, alt, 1, &nalt),
			 -EINVAL);
	assert_int_equal(validate_replay(gen, 8, &type, 1, alt, 1, &nalt),
			 -EINVAL);
	assert_int_equal(validate_replay(gen, 8, &zero, 1, alt, 1, &nalt),
			 -EINVAL);
	memset(gen, 0, sizeof(gen));
	assert_int_equal(validate_replay(gen, 8, two, 2, alt, 1, &nalt),
			 -ENOSPC);
	/* A repeated intent keeps the oldest sure content as the alternative. */
	{
		uint64_t r[] = { validate_rec(5, 3, VALIDATE_REC_DONE),
				 validate_rec(5, 4, VALIDATE_REC_INTENT),
				 validate_rec(5, 5, VALIDATE_REC_INTENT) };

		memset(gen, 0, sizeof(gen));
		assert_int_equal(validate_replay(gen, 8, r, 3, alt, 1, &nalt),
				 0);
		assert_int_equal(gen[5], 5);
		assert_int_equal(nalt, 1);
		assert_int_equal(alt[0].old, 3);
	}
}

/* Journal a map of local-1, then open the file under other names. */
static void test_journal_identity(void **state)
{
	char dir[] = "/tmp/lockstep-jnl.XXXXXX", a[300], b[300], err[512];
	struct valmap *list = NULL, *m;
	uint64_t recs[] = { validate_rec(3, 1, VALIDATE_REC_INTENT),
			    validate_rec(3, 1, VALIDATE_REC_DONE),
			    validate_rec(5, 1, VALIDATE_REC_INTENT),
			    validate_rec(5, 1, VALIDATE_REC_DONE) };

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(valmap_get(&list, "sd1", "/x", 64 * VALIDATE_BLOCK,
				    dir, "local-1", 0, &m, err, sizeof(err)),
			 0);
	assert_int_equal(valmap_known(m), 0);
	assert_int_equal(valmap_journal(m, recs, 4), 0);
	valmap_free_all(&list);
	/* Replayed by its own slave: the two blocks are expected. */
	assert_int_equal(valmap_get(&list, "sd1", "/x", 64 * VALIDATE_BLOCK,
				    dir, "local-1", 0, &m, err, sizeof(err)),
			 0);
	assert_int_equal(valmap_known(m), 2);
	valmap_free_all(&list);
	/* Opened by a run with duplicates (or another layout): refused. */
	assert_int_equal(valmap_get(&list, "sd1", "/x", 64 * VALIDATE_BLOCK,
				    dir, "local-1", 7, &m, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(
		strstr(err,
		       "written without dedupratio=, and this run has duplicates"));
	assert_null(list);
	/* Renamed to another slave's or sd's journal: refused, named. */
	snprintf(a, sizeof(a), "%s/sd1.local-1.jnl", dir);
	snprintf(b, sizeof(b), "%s/sd1.local-2.jnl", dir);
	assert_int_equal(rename(a, b), 0);
	assert_int_equal(valmap_get(&list, "sd1", "/x", 64 * VALIDATE_BLOCK,
				    dir, "local-2", 0, &m, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "belongs to slave local-1, not local-2"));
	assert_non_null(strstr(err, b));
	snprintf(a, sizeof(a), "%s/sd2.local-2.jnl", dir);
	assert_int_equal(rename(b, a), 0);
	assert_int_equal(valmap_get(&list, "sd2", "/x", 64 * VALIDATE_BLOCK,
				    dir, "local-2", 0, &m, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "belongs to slave local-1"));
	assert_null(list);
	unlink(a);
	rmdir(dir);
}

/*
 * Two blocks whose second write was in flight at a crash (journal:
 * generation 1 done, 2 intended). Block 3 holds generation 1 whole: the
 * write did not land, settled. Block 5 holds generation 1's header over
 * a flipped data byte: a mismatch, never excused as the old content
 * (the header alone once was, hiding a byte flipped after the crash).
 * Block 7 holds generation 2 whole: the write landed, and that is
 * journaled, so that the next run finding generation 1 there again (a
 * rollback) reports it instead of taking it as the write that did not
 * land.
 */
/* Block b read back as generation g of pattern seed (a data byte flipped). */
static unsigned read_as(struct valmap_io *v, const struct valmap *m,
			unsigned seed, uint64_t b, uint8_t g, int flip)
{
	pattern(blk, seed);
	validate_fill(blk, b, m->sd_id, SLAVE, g, T0);
	if (flip)
		blk[VALIDATE_SECTOR + 100] ^= 0x10;
	return valmap_io_verify(v, 0, blk, b * VALIDATE_BLOCK, VALIDATE_BLOCK);
}

static void test_crash_old_content(void **state)
{
	char dir[] = "/tmp/lockstep-jnl.XXXXXX", path[300], err[512];
	struct valmap *list = NULL, *m;
	struct valmap_io v;
	struct datagen dg;
	uint64_t recs[] = { validate_rec(3, 1, VALIDATE_REC_INTENT),
			    validate_rec(3, 1, VALIDATE_REC_DONE),
			    validate_rec(3, 2, VALIDATE_REC_INTENT),
			    validate_rec(5, 1, VALIDATE_REC_INTENT),
			    validate_rec(5, 1, VALIDATE_REC_DONE),
			    validate_rec(5, 2, VALIDATE_REC_INTENT),
			    validate_rec(7, 1, VALIDATE_REC_INTENT),
			    validate_rec(7, 1, VALIDATE_REC_DONE),
			    validate_rec(7, 2, VALIDATE_REC_INTENT) };

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(valmap_get(&list, "sd1", "/x", 64 * VALIDATE_BLOCK,
				    dir, "local-1", 0, &m, err, sizeof(err)),
			 0);
	assert_int_equal(valmap_journal(m, recs, 9), 0);
	valmap_free_all(&list);
	assert_int_equal(valmap_get(&list, "sd1", "/x", 64 * VALIDATE_BLOCK,
				    dir, "local-1", 0, &m, err, sizeof(err)),
			 0);
	assert_int_equal(datagen_init(&dg, 1, 1, 128 * 1024, 1), 0);
	assert_int_equal(valmap_io_init(&v, &m, 1, SLAVE, 1, VALIDATE_BLOCK,
					&dg),
			 0);
	assert_int_equal(read_as(&v, m, 5, 3, 1, 0), 0);
	assert_int_equal(atomic_load(&m->settled), 1);
	assert_int_equal(read_as(&v, m, 6, 5, 1, 1), 1);
	assert_int_equal(atomic_load(&m->settled), 1);
	assert_int_equal(atomic_load(&m->mismatched), 1);
	assert_int_equal(read_as(&v, m, 7, 7, 2, 0), 0);
	assert_int_equal(valmap_io_flush(&v), 0);
	valmap_io_free(&v);
	valmap_free_all(&list);
	/* The next run: block 7 rolled back to generation 1. */
	assert_int_equal(valmap_get(&list, "sd1", "/x", 64 * VALIDATE_BLOCK,
				    dir, "local-1", 0, &m, err, sizeof(err)),
			 0);
	assert_int_equal(valmap_io_init(&v, &m, 1, SLAVE, 1, VALIDATE_BLOCK,
					&dg),
			 0);
	assert_int_equal(read_as(&v, m, 8, 7, 1, 0), 1);
	assert_int_equal(atomic_load(&m->settled), 0);
	valmap_io_free(&v);
	datagen_free(&dg);
	valmap_free_all(&list);
	snprintf(path, sizeof(path), "%s/sd1.local-1.jnl", dir);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc32c),
		cmocka_unit_test(test_header_layout),
		cmocka_unit_test(test_check_ok),
		cmocka_unit_test(test_check_corrupt),
		cmocka_unit_test(test_check_misdirected),
		cmocka_unit_test(test_check_lost_stale_never),
		cmocka_unit_test(test_gen_ring_and_names),
		cmocka_unit_test(test_replay),
		cmocka_unit_test(test_crash_old_content),
		cmocka_unit_test(test_replay_rejects),
		cmocka_unit_test(test_journal_identity),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
