/*
 * Write data generator: per-sector headers over a random pool, calibrated
 * zero tails for compratio, and offset-determined duplicate units for
 * dedupratio. See datagen.h.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "slave/datagen.h"
#include "slave/workload.h"

#define POOL_SIZE (1u << 20) /* larger than any compressor's window */
#define POOL_MASK (POOL_SIZE - 1)
/*
 * The pool is the same in every generator of every slave (a fixed seed):
 * duplicate units must be equal wherever they are written. Uniqueness comes
 * from the headers, not from the pool.
 */
#define POOL_SEED 0x6c6f636b73746570ull /* "lockstep" */
#define SETS_PER_PERIOD 16
/* Header word 0 of a duplicate sector: a bit no real offset has. */
#define DUP_TAG (1ull << 63)

/*
 * What zlib (level 6) spends on a sector beyond its r random bytes: the
 * header (~28 of its 32 bytes repeat the previous sector's) and the run of
 * zeros, by r, measured on 4 MiB of sectors and interpolated between these
 * points. The random part of a sector is sized from it so that the ratio
 * comes out as asked; other compressors land near it, not on it.
 */
static const struct {
	uint32_t r;
	double extra;
} zlib_cost[] = {
	{ 0, 3.5 },    { 1, 6.1 },    { 4, 6.9 },    { 8, 7.3 },
	{ 16, 7.9 },   { 32, 8.4 },   { 64, 8.9 },   { 360, 9.0 },
	{ 380, 7.5 },  { 470, 7.5 },  { 480, 5.9 },
};

static double zlib_bytes(uint32_t r)
{
	unsigned i = 1;

	while (zlib_cost[i].r < r)
		i++;
	return r + zlib_cost[i - 1].extra +
	       (zlib_cost[i].extra - zlib_cost[i - 1].extra) *
		       (r - zlib_cost[i - 1].r) /
		       (zlib_cost[i].r - zlib_cost[i - 1].r);
}

/* Random bytes per sector whose compressed size is nearest 512 / N. */
static uint32_t body_for(double compratio)
{
	double want = DATAGEN_SECTOR / compratio, best = 1e9;
	uint32_t body = 0;

	for (uint32_t r = 0; r <= DATAGEN_SECTOR - DATAGEN_HEADER; r++) {
		double d = fabs(zlib_bytes(r) - want);

		if (d < best) {
			best = d;
			body = r;
		}
	}
	return body;
}

/*
 * A period of L = uniq + copies * sets units holds uniq + sets distinct
 * ones, so the ratio is L / (uniq + sets) = N when uniq = sets * (copies -
 * N) / (N - 1); copies = ceil(2N) keeps uniq positive. Every period is
 * complete in itself, so the ratio holds over any stretch of a few periods.
 */
static void dedup_layout(struct datagen *g, double n)
{
	g->sets = SETS_PER_PERIOD;
	g->copies = (uint64_t)ceil(2 * n);
	g->uniq = (uint64_t)llround((double)g->sets * ((double)g->copies - n) /
				    (n - 1));
}

int datagen_init(struct datagen *g, double compratio, double dedupratio,
		 uint32_t dedupunit, uint64_t seed)
{
	struct workload_rng pr;

	memset(g, 0, sizeof(*g));
	if (!(compratio >= 1 && compratio <= DATAGEN_COMPRATIO_MAX) ||
	    !(dedupratio >= 1 && dedupratio <= DATAGEN_DEDUPRATIO_MAX) ||
	    dedupunit % DATAGEN_SECTOR)
		return -EINVAL;
	g->pool = malloc(POOL_SIZE + DATAGEN_SECTOR);
	if (!g->pool)
		return -ENOMEM;
	workload_rng_seed(&pr, POOL_SEED);
	for (size_t i = 0; i < POOL_SIZE; i += sizeof(uint64_t)) {
		uint64_t v = workload_rng_next(&pr);

		memcpy(g->pool + i, &v, sizeof(v));
	}
	/* The tail repeats the head so a body never has to wrap. */
	memcpy(g->pool + POOL_SIZE, g->pool, DATAGEN_SECTOR);
	g->seed = seed;
	g->body = body_for(compratio);
	if (dedupratio > 1) {
		g->unit = dedupunit ? dedupunit : DATAGEN_DEDUPUNIT_DEFAULT;
		dedup_layout(g, dedupratio);
	}
	return 0;
}

void datagen_free(struct datagen *g)
{
	free(g->pool);
	memset(g, 0, sizeof(*g));
}

uint64_t datagen_key(const char *name)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 0x100000001b3ull;
	return h;
}

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The dedup unit holding a sector: its byte range and, if a copy, its set. */
struct unit {
	uint64_t lo, hi;
	uint64_t set;
	int dup;
};

static void unit_at(const struct datagen *g, uint64_t off, struct unit *u)
{
	uint64_t n = off / g->unit;
	uint64_t period = g->uniq + g->copies * g->sets;
	uint64_t i = n % period;

	u->lo = n * g->unit;
	u->hi = u->lo + g->unit;
	u->dup = i >= g->uniq;
	/* The copies of a period's sets alternate, spreading each set out. */
	u->set = u->dup ? n / period * g->sets + (i - g->uniq) % g->sets : 0;
}

/*
 * The sector at offset off (a multiple of 512) into dst: header, body from
 * the pool, zeros. Unique sectors take the next bodies of the pool, so the
 * data a worker writes repeats no byte string within 1 MiB; a duplicate's
 * body and header depend only on its set and its place in the unit.
 */
static void sector(struct datagen *g, uint8_t *dst, uint64_t off,
		   uint64_t key, uint64_t stamp, struct unit *u)
{
	uint64_t hdr[4] = { off, key, g->seed, stamp };
	uint64_t pos = g->pos;

	if (g->unit && (off < u->lo || off >= u->hi))
		unit_at(g, off, u);
	if (u->dup) {
		uint64_t idx = (off - u->lo) / DATAGEN_SECTOR;

		hdr[0] = DUP_TAG | idx;
		hdr[2] = u->set;
		hdr[3] = 0;
		pos = mix64(u->set ^ key) + idx * g->body;
	} else {
		g->pos = (g->pos + g->body) & POOL_MASK;
	}
	memcpy(dst, hdr, DATAGEN_HEADER);
	memcpy(dst + DATAGEN_HEADER, g->pool + (pos & POOL_MASK), g->body);
	memset(dst + DATAGEN_HEADER + g->body, 0,
	       DATAGEN_SECTOR - DATAGEN_HEADER - g->body);
}

void datagen_fill(struct datagen *g, void *buf, size_t len, uint64_t offset,
		  uint64_t key)
{
	uint8_t *p = buf, tmp[DATAGEN_SECTOR];
	uint64_t off = offset, end = offset + len;
	uint64_t stamp = ++g->stamp;
	struct unit u = { 0 };

	while (off < end) {
		uint64_t sec = off & ~(uint64_t)(DATAGEN_SECTOR - 1);
		size_t skip = off - sec;
		size_t n = DATAGEN_SECTOR - skip;

		if (n > end - off)
			n = end - off;
		if (n == DATAGEN_SECTOR) {
			sector(g, p, sec, key, stamp, &u);
		} else {
			/* A partial sector: the matching part of a whole one. */
			sector(g, tmp, sec, key, stamp, &u);
			memcpy(p, tmp + skip, n);
		}
		p += n;
		off += n;
	}
}

int datagen_dup_at(const struct datagen *g, uint64_t off, uint64_t *set,
		   uint32_t *sector)
{
	struct unit u;

	if (!g->unit)
		return 0;
	unit_at(g, off, &u);
	if (!u.dup)
		return 0;
	*set = u.set;
	*sector = (uint32_t)((off - u.lo) / DATAGEN_SECTOR);
	return 1;
}
