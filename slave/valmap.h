/*
 * The generation maps of a slave's validated sds, kept by the session
 * across the phases of a run (a validate=only pass needs what the phases
 * before it wrote), and their write-ahead journals (journal=DIR): one file
 * per sd and slave, DIR/<sd>.<slave>.jnl, a header naming the sd, the
 * slave and the lun's size in blocks, then 64-bit records
 * (slave/validate.h). A map is shared by the workers of a phase without a
 * lock: each block belongs to one worker's slice, so two workers never
 * touch the same byte. The first mismatches are kept here in full for the
 * session thread to log; counters are atomic, per sd.
 */
#ifndef LOCKSTEP_SLAVE_VALMAP_H
#define LOCKSTEP_SLAVE_VALMAP_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include "proto/proto.h"
#include "slave/validate.h"

/* Mismatches logged in full per sd and phase; the rest are counted. */
#define VALMAP_LOG_MAX 16

struct valmap_bad {
	uint64_t offset; /* byte offset of the block in the lun */
	enum validate_kind kind;
	uint8_t expect;         /* generation the map holds */
	uint16_t expect_slave;  /* this slave's id */
	int dup;                /* a block of a duplicate unit: */
	uint64_t expect_set;    /* its dedup set */
	uint32_t expect_sector; /* its first sector's index in the unit */
	struct validate_found found;
};

struct valmap {
	char sd[PROTO_NAME_LEN];
	char path[PROTO_PATH_LEN];
	uint64_t nblocks;
	uint32_t sd_id;
	uint32_t layout;          /* dedupval_layout(), 0: no duplicates */
	uint8_t *gen;             /* nblocks generations */
	struct validate_alt *alt; /* blocks in flight at a crash */
	size_t nalt;
	size_t nalt_told; /* the session said so (once a run) */
	int jfd;          /* journal, O_APPEND; -1 without */
	char jpath[PROTO_PATH_LEN + 2 * PROTO_NAME_LEN + 8]; /* "" without */
	/* settled: reads that found the old content of a block in flight */
	atomic_uint_fast64_t written, verified, mismatched, settled;
	atomic_uint_fast64_t kinds[VALIDATE_NKINDS];
	atomic_int jerr;      /* first journal error (-errno), sticky */
	pthread_mutex_t lock; /* bad, nbad */
	struct valmap_bad bad[VALMAP_LOG_MAX];
	unsigned nbad, nlogged;
	struct valmap *next;
};

/*
 * The map of sd (lun path, lun_size bytes) in *list, made on first use:
 * empty, or replayed from DIR/<sd>.<slave>.jnl when journal is not "".
 * A map made for another lun or size under the same sd name is refused,
 * and so is a journal whose header names another slave, sd or size, or
 * another data layout: layout is dedupval_layout() of the run's
 * dedupratio= and dedupunit= (0 without duplicates), since which blocks
 * are duplicates decides what their data must be.
 * Returns 0 with *out (owned by the list), or -errno with a message.
 */
int valmap_get(struct valmap **list, const char *sd, const char *path,
	       uint64_t lun_size, const char *journal, const char *slave,
	       uint32_t layout, struct valmap **out, char *err, size_t errlen);
/*
 * The blocks m expects a generation of (written under validation, in
 * this run or in the journal): what a validate=only pass must verify.
 * Walks the whole map.
 */
uint64_t valmap_known(const struct valmap *m);
/*
 * A journal's header names slave hslave (id hslave_id): 0 when that is
 * this slave, else -EINVAL with err naming the file (block and file-
 * system journals alike).
 */
int valmap_journal_owner(const char *file, const char *hslave,
			 uint32_t hslave_id, const char *slave, char *err,
			 size_t errlen);
/* Write all len bytes of buf to fd (EINTR retried): 0 or -errno. */
int valmap_write_all(int fd, const void *buf, size_t len);
/* Append n records to the journal and fdatasync it; 0 or -errno (kept). */
int valmap_journal(struct valmap *m, const uint64_t *recs, size_t n);
/* Keep a mismatch for the log (the first VALMAP_LOG_MAX of a phase). */
void valmap_note(struct valmap *m, const struct valmap_bad *b);
/* Close every journal and free every map; *list becomes NULL. */
void valmap_free_all(struct valmap **list);

/*
 * One worker's side of validation: its targets' maps and the journal
 * records it has yet to make durable. The calls below run on the worker's
 * thread, for a transfer of whole blocks (offset and len multiples of
 * VALIDATE_BLOCK) on a target with a map; none allocates.
 */
struct datagen;

struct valmap_io {
	struct valmap *const *vmap; /* per target; NULL entries: off */
	const struct datagen *dg;   /* the data pattern's dedup layout */
	unsigned nfiles;
	uint16_t slave_id;
	size_t jcap;     /* records per target buffer */
	uint64_t **jbuf; /* per target with a journal */
	size_t *jn;
};

/*
 * Set up for nfiles targets and up to depth transfers of max_xfer bytes;
 * dg is the worker's data pattern (its dedup layout says which blocks are
 * duplicates, slave/dedupval.h), kept, not owned.
 */
int valmap_io_init(struct valmap_io *v, struct valmap *const *vmap,
		   unsigned nfiles, uint16_t slave_id, unsigned depth,
		   uint32_t max_xfer, const struct datagen *dg);
void valmap_io_free(struct valmap_io *v);
/* A write is about to go out: stamp its headers, note its intents. */
void valmap_io_stamp(struct valmap_io *v, unsigned t, void *buf,
		     uint64_t offset, uint32_t len, uint64_t now_real);
/* A write completed: its generations are the map's, noted as done. */
void valmap_io_written(struct valmap_io *v, unsigned t, const void *buf,
		       uint64_t offset, uint32_t len);
/* A write failed: what its blocks hold is unknown from now on. */
void valmap_io_failed(struct valmap_io *v, unsigned t, uint64_t offset,
		      uint32_t len);
/* A read completed: verify every written block; returns the mismatches. */
unsigned valmap_io_verify(struct valmap_io *v, unsigned t, const void *buf,
			  uint64_t offset, uint32_t len);
/*
 * Make the noted records durable (one write and fdatasync per journal):
 * before the writes stamped since the last call are submitted. Returns 0
 * or the first journal error.
 */
int valmap_io_flush(struct valmap_io *v);

#endif
