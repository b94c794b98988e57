/*
 * Write data: what goes into a write buffer. By default it is incompressible
 * and unique: every 512-byte sector starts with a 32-byte header (its
 * offset, the target's key, the generator's seed and a write stamp) and the
 * rest comes from a pre-generated random pool, so no two whole sectors ever
 * written are equal and a fill costs little more than a memcpy (zlib still
 * finds ~5% in the headers). compratio=N keeps only part of each sector
 * random and zeroes the rest, so that zlib (default level) compresses the
 * data N:1 within a few percent. dedupratio=N with dedupunit=U makes some
 * units of U bytes, chosen by their offset, copies of shared patterns, so
 * that a region written in full holds N units for each distinct one (a
 * region written in part holds fewer copies). Pure: no syscalls; one
 * instance per worker, no locks.
 */
#ifndef LOCKSTEP_SLAVE_DATAGEN_H
#define LOCKSTEP_SLAVE_DATAGEN_H

#include <stddef.h>
#include <stdint.h>

#define DATAGEN_SECTOR 512u
#define DATAGEN_HEADER 32u                      /* four uint64_t */
#define DATAGEN_DEDUPUNIT_DEFAULT (128u * 1024) /* Vdbench's default */
/* Above this a sector's random part would be too short to aim with. */
#define DATAGEN_COMPRATIO_MAX 32.0
#define DATAGEN_DEDUPRATIO_MAX 1000000.0

struct datagen {
	uint8_t *pool;     /* random bytes, the same everywhere; owned */
	uint64_t seed;
	uint64_t stamp;    /* write stamp: one per fill */
	uint32_t pos;      /* pool position of the next unique body */
	uint32_t body;     /* random bytes after each sector's header */
	uint32_t unit;     /* dedup unit, bytes; 0 = no dedup */
	/*
	 * Dedup layout, a period of uniq + copies * sets units: uniq unique
	 * units, then copies copies of each of sets patterns, interleaved.
	 */
	uint64_t uniq;
	uint64_t sets;
	uint64_t copies;
};

/*
 * Set g up. compratio in [1, DATAGEN_COMPRATIO_MAX] (1 = incompressible);
 * dedupratio in [1, DATAGEN_DEDUPRATIO_MAX] (1 = no duplicates); dedupunit a
 * multiple of 512 bytes, 0 for DATAGEN_DEDUPUNIT_DEFAULT; seed: different
 * for every generator of a run (it is part of every unique header). Returns
 * 0, -EINVAL for a value out of range, or -ENOMEM. g owns a 1 MiB pool:
 * release it with datagen_free.
 */
int datagen_init(struct datagen *g, double compratio, double dedupratio,
		 uint32_t dedupunit, uint64_t seed);
/* Release the pool; safe on a zeroed or freed generator. */
void datagen_free(struct datagen *g);

/*
 * A target's key: FNV-1a of its sd name, the same on every slave, so that
 * duplicate units of two targets differ and those of one target written by
 * several slaves match.
 */
uint64_t datagen_key(const char *name);

/*
 * Fill buf (len bytes, caller-owned, any alignment and length) with the data
 * for a write at byte offset of the target with key. Sectors sit on absolute
 * 512-byte boundaries and units on dedupunit boundaries, so a write of part
 * of one gets the matching part of a whole one; a duplicate unit's bytes are
 * the same whatever writes make it up. Every call takes a new write stamp.
 * No allocation, no syscalls.
 */
void datagen_fill(struct datagen *g, void *buf, size_t len, uint64_t offset,
		  uint64_t key);

/*
 * Whether the sector at byte offset off (a multiple of 512) lies in a
 * duplicate unit of g's layout: 1 with the unit's dedup set in *set (a
 * number unique over the whole target) and the sector's index inside the
 * unit in *sector; 0 for a unique unit or without dedupratio. Pure.
 */
int datagen_dup_at(const struct datagen *g, uint64_t off, uint64_t *set,
		   uint32_t *sector);

#endif
