/*
 * Data validation's pure part: sector headers with a CRC-32C, the
 * classification of a block read back, and the replay of the generation
 * journal. See validate.h. The CRC uses the SSE 4.2 instruction where the
 * CPU has it (about 20 GB/s, so a header costs little next to the I/O),
 * else a table.
 */
#include <endian.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "slave/validate.h"

static uint32_t crc_table[256];
static int crc_hw;
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0x82f63b78u : c >> 1;
		crc_table[i] = c;
	}
#if defined(__x86_64__)
	__builtin_cpu_init();
	crc_hw = __builtin_cpu_supports("sse4.2");
#else
	crc_hw = 0;
#endif
}

static uint32_t crc_sw(uint32_t c, const uint8_t *p, size_t len)
{
	while (len--)
		c = crc_table[(c ^ *p++) & 0xff] ^ (c >> 8);
	return c;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) static uint32_t
crc_x86(uint32_t c, const uint8_t *p, size_t len)
{
	uint64_t c64 = c;

	while (len >= 8) {
		uint64_t v;

		memcpy(&v, p, 8);
		c64 = __builtin_ia32_crc32di(c64, v);
		p += 8;
		len -= 8;
	}
	c = (uint32_t)c64;
	while (len--)
		c = __builtin_ia32_crc32qi(c, *p++);
	return c;
}
#endif

uint32_t validate_crc32c(uint32_t crc, const void *buf, size_t len)
{
	uint32_t c = ~crc;

	pthread_once(&crc_once, crc_init);
#if defined(__x86_64__)
	if (crc_hw)
		return ~crc_x86(c, buf, len);
#endif
	return ~crc_sw(c, buf, len);
}

uint32_t validate_id(const char *name)
{
	uint32_t h = 2166136261u;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 16777619u;
	return h;
}

/* Little-endian fields of the headers as they lie on the medium. */
static void st16(uint8_t *d, uint16_t v)
{
	v = htole16(v);
	memcpy(d, &v, 2);
}

static void st32(uint8_t *d, uint32_t v)
{
	v = htole32(v);
	memcpy(d, &v, 4);
}

static void st64(uint8_t *d, uint64_t v)
{
	v = htole64(v);
	memcpy(d, &v, 8);
}

static uint16_t ld16(const uint8_t *d)
{
	uint16_t v;

	memcpy(&v, d, 2);
	return le16toh(v);
}

static uint32_t ld32(const uint8_t *d)
{
	uint32_t v;

	memcpy(&v, d, 4);
	return le32toh(v);
}

static uint64_t ld64(const uint8_t *d)
{
	uint64_t v;

	memcpy(&v, d, 8);
	return le64toh(v);
}

static void hdr_put(uint8_t *d, const struct validate_hdr *h)
{
	st32(d, h->magic);
	st32(d + 4, h->crc);
	st64(d + 8, h->sector);
	st32(d + 16, h->sd);
	st16(d + 20, h->slave);
	d[22] = h->gen;
	d[23] = h->pad;
	st64(d + 24, h->time_ns);
}

static void hdr_get(const uint8_t *d, struct validate_hdr *h)
{
	h->magic = ld32(d);
	h->crc = ld32(d + 4);
	h->sector = ld64(d + 8);
	h->sd = ld32(d + 16);
	h->slave = ld16(d + 20);
	h->gen = d[22];
	h->pad = d[23];
	h->time_ns = ld64(d + 24);
}

/* CRC of a sector whose crc field counts as 0. */
static uint32_t sector_crc(const uint8_t *sec)
{
	uint8_t head[VALIDATE_HDR_LEN];
	uint32_t c;

	memcpy(head, sec, sizeof(head));
	memset(head + 4, 0, 4);
	c = validate_crc32c(0, head, sizeof(head));
	return validate_crc32c(c, sec + VALIDATE_HDR_LEN,
			       VALIDATE_SECTOR - VALIDATE_HDR_LEN);
}

/* Store the checksum of a sector whose header was put with crc 0. */
static void seal(uint8_t *sec)
{
	st32(sec + 4, sector_crc(sec));
}

void validate_fill(void *buf, uint64_t block, uint32_t sd, uint16_t slave,
		   uint8_t gen, uint64_t time_ns)
{
	struct validate_hdr h = {
		.magic = VALIDATE_MAGIC,
		.sd = sd,
		.slave = slave,
		.gen = gen,
		.time_ns = time_ns,
	};

	for (unsigned s = 0; s < VALIDATE_SECTORS; s++) {
		uint8_t *sec = (uint8_t *)buf + s * VALIDATE_SECTOR;

		h.sector = block * VALIDATE_SECTORS + s;
		hdr_put(sec, &h);
		seal(sec);
	}
}

enum sector_state { SEC_NONE, SEC_BAD, SEC_GOOD };

static void found_from(struct validate_found *f, const struct validate_hdr *h)
{
	f->gen = h->gen;
	f->slave = h->slave;
	f->sd = h->sd;
	f->sector = h->sector;
	f->time_ns = h->time_ns;
}

/* Generations 1..255 as a ring: how far g is ahead of e (0..254). */
static unsigned gen_ahead(uint8_t g, uint8_t e)
{
	return ((unsigned)g + 255 - e) % 255;
}

enum validate_kind validate_check(const void *buf, uint64_t block, uint32_t sd,
				  uint8_t expect, struct validate_found *f)
{
	struct validate_hdr h[VALIDATE_SECTORS];
	enum sector_state st[VALIDATE_SECTORS];
	unsigned none = 0, bad = 0, first = VALIDATE_SECTORS;

	memset(f, 0, sizeof(*f));
	for (unsigned s = 0; s < VALIDATE_SECTORS; s++) {
		const uint8_t *sec = (const uint8_t *)buf + s * VALIDATE_SECTOR;

		hdr_get(sec, &h[s]);
		if (h[s].magic != VALIDATE_MAGIC) {
			st[s] = SEC_NONE;
			none++;
			continue;
		}
		if (first == VALIDATE_SECTORS)
			first = s;
		st[s] = sector_crc(sec) == h[s].crc ? SEC_GOOD : SEC_BAD;
		bad += st[s] == SEC_BAD;
	}
	if (none == VALIDATE_SECTORS)
		return VALIDATE_NEVER_WRITTEN;
	found_from(f, &h[first]);
	/* A damaged header or sector, or a block only partly stamped. */
	if (bad || none)
		return VALIDATE_CORRUPT;
	for (unsigned s = 0; s < VALIDATE_SECTORS; s++) {
		if (h[s].sector != block * VALIDATE_SECTORS + s ||
		    h[s].sd != sd) {
			found_from(f, &h[s]);
			return VALIDATE_MISDIRECTED;
		}
	}
	/* Sectors of one write agree; a mix is a torn or patched block. */
	for (unsigned s = 1; s < VALIDATE_SECTORS; s++) {
		if (h[s].gen != h[0].gen || h[s].slave != h[0].slave ||
		    h[s].time_ns != h[0].time_ns) {
			found_from(f, &h[s]);
			return VALIDATE_CORRUPT;
		}
	}
	if (h[0].gen == expect)
		return VALIDATE_OK;
	if (h[0].gen == 0)
		return VALIDATE_CORRUPT; /* never stamped by validate_fill */
	/* Half the ring ahead: the map missed writes; behind: writes lost. */
	return gen_ahead(h[0].gen, expect) <= 127 ? VALIDATE_STALE :
						    VALIDATE_LOST;
}

/* ---- duplicate units ------------------------------------------------ */

struct dup_hdr {
	uint32_t magic, crc;
	uint64_t set;
	uint32_t sd, sector;
	uint8_t key;
};

static void dup_put(uint8_t *d, const struct dup_hdr *h)
{
	memset(d, 0, VALIDATE_HDR_LEN);
	st32(d, h->magic);
	st32(d + 4, h->crc);
	st64(d + 8, h->set);
	st32(d + 16, h->sd);
	st32(d + 20, h->sector);
	d[24] = h->key;
}

static void dup_get(const uint8_t *d, struct dup_hdr *h)
{
	h->magic = ld32(d);
	h->crc = ld32(d + 4);
	h->set = ld64(d + 8);
	h->sd = ld32(d + 16);
	h->sector = ld32(d + 20);
	h->key = d[24];
}

static void dup_found(struct validate_found *f, const struct dup_hdr *h)
{
	memset(f, 0, sizeof(*f));
	f->dup = 1;
	f->gen = h->key;
	f->sd = h->sd;
	f->sector = h->sector;
	f->set = h->set;
}

void validate_fill_dup(void *buf, uint32_t sd, uint64_t set, uint32_t sector0,
		       uint8_t key)
{
	struct dup_hdr h = {
		.magic = VALIDATE_DUP_MAGIC,
		.set = set,
		.sd = sd,
		.key = key,
	};

	for (unsigned s = 0; s < VALIDATE_SECTORS; s++) {
		uint8_t *sec = (uint8_t *)buf + s * VALIDATE_SECTOR;

		h.sector = sector0 + s;
		dup_put(sec, &h);
		seal(sec);
	}
}

int validate_dup_sector(const void *sec, struct validate_found *f)
{
	struct dup_hdr h;

	dup_get(sec, &h);
	if (h.magic != VALIDATE_DUP_MAGIC || sector_crc(sec) != h.crc)
		return 0;
	dup_found(f, &h);
	return 1;
}

enum validate_kind validate_check_dup(const void *buf, uint32_t sd,
				      uint64_t set, uint32_t sector0,
				      uint8_t key, struct validate_found *f)
{
	struct dup_hdr h[VALIDATE_SECTORS];
	unsigned none = 0, bad = 0, first = VALIDATE_SECTORS;

	memset(f, 0, sizeof(*f));
	for (unsigned s = 0; s < VALIDATE_SECTORS; s++) {
		const uint8_t *sec = (const uint8_t *)buf + s * VALIDATE_SECTOR;
		struct validate_hdr u;

		dup_get(sec, &h[s]);
		if (h[s].magic == VALIDATE_MAGIC) {
			/* A unique block's sector: intact, it is misplaced. */
			hdr_get(sec, &u);
			if (sector_crc(sec) != u.crc) {
				bad++;
				continue;
			}
			found_from(f, &u);
			return VALIDATE_MISDIRECTED;
		}
		if (h[s].magic != VALIDATE_DUP_MAGIC) {
			none++;
			continue;
		}
		if (first == VALIDATE_SECTORS)
			first = s;
		bad += sector_crc(sec) != h[s].crc;
	}
	if (none == VALIDATE_SECTORS)
		return VALIDATE_NEVER_WRITTEN;
	if (first < VALIDATE_SECTORS)
		dup_found(f, &h[first]);
	if (bad || none)
		return VALIDATE_CORRUPT;
	for (unsigned s = 0; s < VALIDATE_SECTORS; s++) {
		if (h[s].set != set || h[s].sd != sd ||
		    h[s].sector != sector0 + s) {
			dup_found(f, &h[s]);
			return VALIDATE_MISDIRECTED;
		}
	}
	for (unsigned s = 1; s < VALIDATE_SECTORS; s++) {
		if (h[s].key != h[0].key) {
			dup_found(f, &h[s]);
			return VALIDATE_CORRUPT;
		}
	}
	if (h[0].key == key)
		return VALIDATE_OK;
	/* The flipflop's other state: the last write did not land. */
	return h[0].key == 1 || h[0].key == 2 ? VALIDATE_LOST :
						VALIDATE_CORRUPT;
}

const char *validate_kind_name(enum validate_kind k)
{
	static const char *const names[VALIDATE_NKINDS] = {
		"ok",   "corrupt",       "misdirected",
		"lost", "never-written", "stale",
	};

	return (unsigned)k < VALIDATE_NKINDS ? names[k] : "?";
}

int validate_replay(uint8_t *gen, uint64_t nblocks, const uint64_t *recs,
		    size_t n, struct validate_alt *alt, size_t alt_cap,
		    size_t *nalt)
{
	uint8_t *pend, *old;
	int ret = 0;

	*nalt = 0;
	pend = calloc(nblocks / 8 + 1, 1);
	old = calloc(nblocks ? nblocks : 1, 1);
	if (!pend || !old) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t b = recs[i] >> 16;
		uint8_t g = (uint8_t)(recs[i] >> 8);
		unsigned type = (unsigned)(recs[i] & 0xff);
		uint8_t bit = (uint8_t)(1u << (b % 8));

		if (b >= nblocks) {
			ret = -EINVAL;
			goto out;
		}
		switch (type) {
		case VALIDATE_REC_INTENT:
			if (!g) {
				ret = -EINVAL;
				goto out;
			}
			/* A second intent keeps the oldest sure content. */
			if (!(pend[b / 8] & bit))
				old[b] = gen[b];
			pend[b / 8] |= bit;
			gen[b] = g;
			break;
		case VALIDATE_REC_DONE:
			if (!g) {
				ret = -EINVAL;
				goto out;
			}
			gen[b] = g;
			pend[b / 8] &= (uint8_t)~bit;
			break;
		case VALIDATE_REC_FORGET:
			gen[b] = 0;
			pend[b / 8] &= (uint8_t)~bit;
			break;
		default:
			ret = -EINVAL;
			goto out;
		}
	}
	for (uint64_t b = 0; b < nblocks; b++) {
		if (!(pend[b / 8] & (1u << (b % 8))))
			continue;
		if (*nalt == alt_cap) {
			ret = -ENOSPC;
			goto out;
		}
		alt[*nalt].block = b;
		alt[*nalt].old = old[b];
		(*nalt)++;
	}
out:
	free(pend);
	free(old);
	return ret;
}

static struct validate_alt *alt_find(struct validate_alt *alt, size_t nalt,
				     uint64_t block)
{
	size_t lo = 0, hi = nalt;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (alt[mid].block == block)
			return &alt[mid];
		if (alt[mid].block < block)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int validate_alt_accept(struct validate_alt *alt, size_t nalt, uint64_t block,
			uint8_t found, uint8_t *gen_out)
{
	struct validate_alt *a = alt_find(alt, nalt, block);

	if (!a || a->old == VALIDATE_NO_ALT)
		return 0;
	/* Unknown before the interrupted write: anything may be there. */
	if (a->old == 0) {
		a->old = VALIDATE_NO_ALT;
		*gen_out = 0;
		return 1;
	}
	if (a->old != found)
		return 0;
	a->old = VALIDATE_NO_ALT;
	*gen_out = found;
	return 1;
}

void validate_alt_settle(struct validate_alt *alt, size_t nalt, uint64_t block)
{
	struct validate_alt *a = alt_find(alt, nalt, block);

	if (a)
		a->old = VALIDATE_NO_ALT;
}

uint16_t validate_alt_old(struct validate_alt *alt, size_t nalt, uint64_t block)
{
	struct validate_alt *a = alt_find(alt, nalt, block);

	return a ? a->old : VALIDATE_NO_ALT;
}
