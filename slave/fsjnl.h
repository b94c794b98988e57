/*
 * The journal of a file-system key map (slave/fsval.h) with journal=DIR:
 * one file per fsd and slave, DIR/<fsd>.<slave>.fsjnl, so that a later
 * run (rd validate=only) verifies what an earlier one wrote. A header
 * names the fsd, the slave, its share of a shared=yes tree and the tree
 * as this slave sees it (its files, each file's id and blocks, hashed),
 * then 64-bit records as a block journal's (slave/validate.h
 * validate_rec) with the map's flat block (the file's first block plus
 * the block's number in the file): an intent before a write (made
 * durable before the write goes out), a done when it came back, a forget
 * when a block's content became unknown (a failed, short or partial
 * write, a create or delete of the file). A format=yes or clean, which
 * forgets the whole tree, starts the journal afresh (its header alone).
 */
#ifndef LOCKSTEP_SLAVE_FSJNL_H
#define LOCKSTEP_SLAVE_FSJNL_H

#include <stddef.h>
#include <stdint.h>

#include "proto/proto.h"

#define FSJNL_MAGIC "LSFJNL01"
#define FSJNL_HDR 176
#define FSJNL_SUFFIX ".fsjnl"

struct fsval_map;

struct fsjnl_hdr {
	char magic[8];
	uint64_t nblocks; /* the map's blocks, over every file */
	uint64_t nfiles;
	uint64_t shape; /* fsjnl_shape() */
	uint32_t block; /* VALIDATE_BLOCK */
	uint32_t slave_id;
	uint32_t share_no, share_count;
	char fsd[PROTO_NAME_LEN];
	char slave[PROTO_NAME_LEN];
};

/* A hash of the tree as the map has it: each file's id and blocks. */
uint64_t fsjnl_shape(const struct fsval_map *m);
/* The header of m's journal on slave. */
void fsjnl_header(struct fsjnl_hdr *h, const struct fsval_map *m,
		  const char *slave);
/*
 * Is h (got bytes of it read from file) the header of m's journal on
 * slave? 0, or -EINVAL with a message naming file and what differs.
 */
int fsjnl_check(struct fsjnl_hdr *h, size_t got, const struct fsval_map *m,
		const char *slave, const char *file, char *err, size_t errlen);

/*
 * Open m's journal in dir (made, never through a symbolic link): a new
 * one, or fresh (a map made anew in this run for another tree), starts
 * with its header; else the header is checked and the records replayed
 * into m's map. Blocks whose write was in flight when the journal ended
 * are forgotten (never verified; m->inflight counts them). 0, or -errno
 * with a message.
 */
int fsjnl_open(struct fsval_map *m, const char *dir, const char *slave,
	       int fresh, char *err, size_t errlen);
/*
 * Append n records (under m's journal lock); sync: fdatasync after. 0 or
 * -errno, kept in m->jerr (sticky). Nothing without a journal.
 */
int fsjnl_append(struct fsval_map *m, const uint64_t *recs, size_t n, int sync);
/* Start the journal afresh: its header alone (every block forgotten). */
int fsjnl_restart(struct fsval_map *m);
/* fdatasync the journal: 0 or -errno (kept). */
int fsjnl_sync(struct fsval_map *m);
/* Close it. */
void fsjnl_close(struct fsval_map *m);

#endif
