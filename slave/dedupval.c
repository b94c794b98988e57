/*
 * Headers and checks of validated blocks over a deduplicating data
 * pattern. See dedupval.h.
 */
#include <string.h>
#include "slave/dedupval.h"

/* The last generation of a duplicate block: an even count keeps the flip. */
#define DUP_GEN_MAX 254

uint32_t dedupval_layout(double ratio, uint32_t unit)
{
	uint8_t b[sizeof(double) + sizeof(uint32_t)];
	uint32_t h = 2166136261u;

	if (!(ratio > 1))
		return 0;
	if (!unit)
		unit = DATAGEN_DEDUPUNIT_DEFAULT;
	memcpy(b, &ratio, sizeof(ratio));
	memcpy(b + sizeof(ratio), &unit, sizeof(unit));
	for (size_t i = 0; i < sizeof(b); i++)
		h = (h ^ b[i]) * 16777619u;
	return h ? h : 1;
}

int dedupval_dup(const struct datagen *g, uint64_t block, uint64_t *set,
		 uint32_t *sector0)
{
	return g && datagen_dup_at(g, block * VALIDATE_BLOCK, set, sector0);
}

uint8_t dedupval_gen_next(const struct datagen *g, uint64_t block, uint8_t gen)
{
	uint64_t set;
	uint32_t sec;

	if (dedupval_dup(g, block, &set, &sec))
		return gen >= DUP_GEN_MAX ? 1 : (uint8_t)(gen + 1);
	return validate_gen_next(gen);
}

void dedupval_fill(const struct datagen *g, void *buf, uint64_t block,
		   uint32_t sd, uint16_t slave, uint8_t gen, uint64_t time_ns)
{
	uint64_t set;
	uint32_t sec;

	if (dedupval_dup(g, block, &set, &sec))
		validate_fill_dup(buf, sd, set, sec, dedupval_key(gen));
	else
		validate_fill(buf, block, sd, slave, gen, time_ns);
}

enum validate_kind dedupval_check(const struct datagen *g, const void *buf,
				  uint64_t block, uint32_t sd, uint8_t expect,
				  struct validate_found *f)
{
	enum validate_kind k;
	uint64_t set;
	uint32_t sec;

	if (dedupval_dup(g, block, &set, &sec))
		return validate_check_dup(buf, sd, set, sec,
					  dedupval_key(expect), f);
	k = validate_check(buf, block, sd, expect, f);
	/* A duplicate's intact sector where a unique block belongs. */
	if ((k == VALIDATE_NEVER_WRITTEN || k == VALIDATE_CORRUPT) &&
	    validate_dup_sector(buf, f))
		return VALIDATE_MISDIRECTED;
	return k;
}

uint8_t dedupval_found_gen(const struct datagen *g, uint64_t block,
			   enum validate_kind kind,
			   const struct validate_found *f, uint16_t old)
{
	uint64_t set;
	uint32_t sec;

	if (kind == VALIDATE_NEVER_WRITTEN)
		return 0;
	if (!dedupval_dup(g, block, &set, &sec))
		return f->gen;
	if (kind == VALIDATE_LOST && old != 0 && old != VALIDATE_NO_ALT &&
	    dedupval_key((uint8_t)old) == f->gen)
		return (uint8_t)old;
	return 255;
}
