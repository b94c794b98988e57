/*
 * Data validation over a deduplicating data pattern (validate=yes with
 * dedupratio= above 1): which header a 4 KiB block gets and which check it
 * passes, from the data pattern's layout (slave/datagen.h). A block of a
 * unique unit keeps the self-describing header of slave/validate.h. A
 * block of a duplicate unit must be byte-identical to the same place in
 * every other unit of its dedup set, so its header names only the set, the
 * sd, the sector's place in the unit and a key, 1 or 2, which flips with
 * every write of the block (Vdbench's "flipflop"): the generation map
 * still holds the block's generation, and the key is a function of it
 * (odd 1, even 2), so a lost write (the previous generation's data) is
 * told from the current one. Generations of duplicate blocks run 1..254
 * so that the key flips at the wrap too. Pure: no I/O, no allocation.
 */
#ifndef LOCKSTEP_SLAVE_DEDUPVAL_H
#define LOCKSTEP_SLAVE_DEDUPVAL_H

#include <stdint.h>
#include "slave/datagen.h"
#include "slave/validate.h"

/*
 * A 32-bit id of the data layout dedupratio and dedupunit (0: the
 * default) make, for journals: 0 when ratio is 1 or less (no duplicates),
 * never 0 otherwise.
 */
uint32_t dedupval_layout(double ratio, uint32_t unit);

/* The key a duplicate block of generation gen (not 0) carries: 1 or 2. */
static inline uint8_t dedupval_key(uint8_t gen)
{
	return gen & 1 ? 1 : 2;
}

/*
 * Whether block (a VALIDATE_BLOCK number of the lun) lies in a duplicate
 * unit of g's layout (g NULL: no dedup); *set and *sector0 as
 * datagen_dup_at says for its first sector.
 */
int dedupval_dup(const struct datagen *g, uint64_t block, uint64_t *set,
		 uint32_t *sector0);

/* The generation a write of block gives it after gen (0: none yet). */
uint8_t dedupval_gen_next(const struct datagen *g, uint64_t block, uint8_t gen);

/*
 * Stamp the block at buf (its data pattern already filled) as block of sd,
 * generation gen: a unique block's header (slave, time_ns) or a
 * duplicate's (set, place, key).
 */
void dedupval_fill(const struct datagen *g, void *buf, uint64_t block,
		   uint32_t sd, uint16_t slave, uint8_t gen, uint64_t time_ns);

/* Classify the block at buf read from block of sd, whose map holds expect. */
enum validate_kind dedupval_check(const struct datagen *g, const void *buf,
				  uint64_t block, uint32_t sd, uint8_t expect,
				  struct validate_found *f);

/*
 * The generation a mismatch found, for the crash rule (validate_alt_accept)
 * when the block's write in flight had old before it: a unique block's
 * header says it; a duplicate's key is old's when it matches (lost, the
 * key of old), else it is no generation the block had (255 never is one
 * of a duplicate's). never-written finds 0.
 */
uint8_t dedupval_found_gen(const struct datagen *g, uint64_t block,
			   enum validate_kind kind,
			   const struct validate_found *f, uint16_t old);

#endif
