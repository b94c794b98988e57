/*
 * Data validation (validate=yes), the pure part: the self-describing header
 * every written 512-byte sector carries, the one-byte-per-block generation
 * map of the blocks a slave owns, the classifier that says what a read
 * found, and the replay of the map's write-ahead journal. No I/O, no clock,
 * no allocation on the fill and check paths: the worker calls them on its
 * hot path and the unit tests call them on buffers.
 *
 * A block is VALIDATE_BLOCK bytes of the lun, numbered from the lun's start
 * (offset / VALIDATE_BLOCK). Its generation is 0 while nothing was written
 * under validation, then 1..255, wrapping to 1. A write of a block stores
 * the next generation in every sector's header; a read of a block whose
 * generation is not 0 must find exactly that generation.
 */
#ifndef LOCKSTEP_SLAVE_VALIDATE_H
#define LOCKSTEP_SLAVE_VALIDATE_H

#include <stddef.h>
#include <stdint.h>

#define VALIDATE_BLOCK 4096u
#define VALIDATE_SECTOR 512u
#define VALIDATE_SECTORS (VALIDATE_BLOCK / VALIDATE_SECTOR)
#define VALIDATE_MAGIC 0x6c56734cu /* "LsVl" little-endian */
#define VALIDATE_HDR_LEN 32u

/* What a read of one block found, as validate_check classifies it. */
enum validate_kind {
	VALIDATE_OK = 0,
	VALIDATE_CORRUPT,       /* a checksum fails, or sectors disagree */
	VALIDATE_MISDIRECTED,   /* intact data of another block or sd */
	VALIDATE_LOST,          /* this block's data, an older generation */
	VALIDATE_NEVER_WRITTEN, /* no header at all where a write completed */
	VALIDATE_STALE,         /* a newer generation than the map holds */
	VALIDATE_NKINDS
};

/*
 * The header at the start of every sector, little-endian on the medium.
 * crc is CRC-32C of the whole sector with the crc field taken as 0.
 */
struct validate_hdr {
	uint32_t magic;
	uint32_t crc;
	uint64_t sector; /* the sector's number in the lun: offset / 512 */
	uint32_t sd;     /* validate_id() of the sd's name */
	uint16_t slave;  /* validate_id() of the writing slave's name */
	uint8_t gen;     /* the block's generation, 1..255 */
	uint8_t pad;
	uint64_t time_ns; /* CLOCK_REALTIME of the write's issue */
};

/*
 * What validate_check found in a block (the first sector that decided).
 * For a duplicate's header (dup set): gen is its key, sector its index in
 * its dedup unit, set its dedup set; slave and time_ns are 0.
 */
struct validate_found {
	uint8_t gen;
	uint8_t dup; /* the sector holds a duplicate's header */
	uint16_t slave;
	uint32_t sd;
	uint64_t sector;
	uint64_t set;
	uint64_t time_ns;
};

/*
 * A sector of a duplicate unit (dedupratio= above 1) cannot say where it
 * lies or when it was written: every member of its dedup set must hold the
 * same bytes. Its header (little-endian) names only what the members
 * share: magic VALIDATE_DUP_MAGIC, crc (CRC-32C of the sector with crc as
 * 0), set (u64, the dedup set), sd (u32), sector (u32, its index in the
 * unit), key (u8, 1 or 2, the flipflop state the last write chose), then
 * zeros to 32 bytes.
 */
#define VALIDATE_DUP_MAGIC 0x6456734cu /* "LsVd" little-endian */

/* CRC-32C (Castagnoli), hardware instruction where the CPU has one. */
uint32_t validate_crc32c(uint32_t crc, const void *buf, size_t len);

/* A 32-bit id of a name (FNV-1a): sd and slave ids in headers. */
uint32_t validate_id(const char *name);

/* The generation after g: 1..255, wrapping to 1 (0 is "never written"). */
static inline uint8_t validate_gen_next(uint8_t g)
{
	return g == 255 ? 1 : (uint8_t)(g + 1);
}

/*
 * Stamp every sector of one block at buf (VALIDATE_BLOCK bytes, the rest of
 * each sector already holds the data pattern) as block number block of sd,
 * generation gen, written by slave at time_ns. Only the first
 * VALIDATE_HDR_LEN bytes of each sector change.
 */
void validate_fill(void *buf, uint64_t block, uint32_t sd, uint16_t slave,
		   uint8_t gen, uint64_t time_ns);

/*
 * Classify the block at buf (VALIDATE_BLOCK bytes read from block number
 * block of sd) against the generation the map expects (not 0). Fills *f
 * with what the deciding sector holds (zeros when there is no header).
 */
enum validate_kind validate_check(const void *buf, uint64_t block, uint32_t sd,
				  uint8_t expect, struct validate_found *f);

/*
 * Stamp the VALIDATE_SECTORS sectors of one block at buf as the sectors
 * sector0, sector0 + 1, ... of a unit of dedup set set of sd, with key
 * (1 or 2). Members of one set written with one key come out identical.
 */
void validate_fill_dup(void *buf, uint32_t sd, uint64_t set, uint32_t sector0,
		       uint8_t key);

/*
 * Classify a block read from a duplicate unit that must hold set's
 * sectors sector0.. of sd with key (not 0): ok, corrupt (a checksum, or
 * sectors that disagree), misdirected (an intact block of another set,
 * another place in a unit, another sd, or a unique block's), lost (this
 * place's data with the other key: a write did not land) or
 * never-written.
 */
enum validate_kind validate_check_dup(const void *buf, uint32_t sd,
				      uint64_t set, uint32_t sector0,
				      uint8_t key, struct validate_found *f);

/*
 * Whether the sector at sec is an intact duplicate's sector (its header's
 * checksum holds); if so *f says what it is. For validate_check's callers:
 * a unique block that found one was misdirected, not never written.
 */
int validate_dup_sector(const void *sec, struct validate_found *f);

/* "ok", "corrupt", "misdirected", "lost", "never-written", "stale". */
const char *validate_kind_name(enum validate_kind k);

/*
 * The journal's records: one 64-bit word each, block << 16 | gen << 8 |
 * type. An intent is made durable before the write is submitted, a done
 * before the write is counted; a forget says the block's content is
 * unknown (a failed write).
 */
enum validate_rec {
	VALIDATE_REC_INTENT = 1,
	VALIDATE_REC_DONE = 2,
	VALIDATE_REC_FORGET = 3,
};

static inline uint64_t validate_rec(uint64_t block, uint8_t gen,
				    enum validate_rec type)
{
	return block << 16 | (uint64_t)gen << 8 | (uint64_t)type;
}

/*
 * A block whose last write was in flight when the journal ended (a crash):
 * its data may hold either generation. old is VALIDATE_NO_ALT once a read
 * settled which.
 */
struct validate_alt {
	uint64_t block;
	uint16_t old;
};

#define VALIDATE_NO_ALT 0xffffu

/*
 * Replay n journal records into gen (nblocks entries, zeroed by the
 * caller or holding an earlier replay). Blocks whose last intent has no
 * done are left at the intent's generation and listed in alt (sorted by
 * block, at most alt_cap; *nalt set). Returns 0, or -EINVAL when a record
 * is malformed or names a block past nblocks (the journal belongs to
 * another device or is damaged), or -ENOSPC when alt is too small.
 */
int validate_replay(uint8_t *gen, uint64_t nblocks, const uint64_t *recs,
		    size_t n, struct validate_alt *alt, size_t alt_cap,
		    size_t *nalt);

/*
 * When a read of block found a generation the map did not expect, may it
 * still be right? Only for a block listed in alt whose found generation
 * (0: no header) is its old one, or whose old content was unknown (0:
 * anything goes, and the map forgets the block); the entry is then settled
 * and *gen_out gets the generation the map must hold from now on. Returns
 * 1 if accepted, 0 if not.
 */
int validate_alt_accept(struct validate_alt *alt, size_t nalt, uint64_t block,
			uint8_t found, uint8_t *gen_out);

/*
 * Forget block's alternative (a read found the map's generation, or a new
 * write completed): from now on only the map's generation is right.
 */
void validate_alt_settle(struct validate_alt *alt, size_t nalt, uint64_t block);

/*
 * The generation block held before its write in flight at a crash (0:
 * unknown), or VALIDATE_NO_ALT when block has no unsettled alternative.
 */
uint16_t validate_alt_old(struct validate_alt *alt, size_t nalt,
			  uint64_t block);

#endif
