/*
 * Data validation of a file-system phase (validate=yes with fsd=/fwd=):
 * the key map of one fsd's files on this slave, kept by the session
 * across the phases of a run, as Vdbench keeps one key per data block of
 * each file. A file's blocks are VALIDATE_BLOCK bytes from its start;
 * each has a generation, 0 while its content is unknown (never written
 * under validation, or forgotten), then 1..255 as for a block lun
 * (slave/validate.h). Every written block carries validate.c's sector
 * headers with the file's id (validate_id of "fsd/relative path") in the
 * sd field and the block's number in the file, so a read tells a block
 * of another file or place (misdirected), an older generation (lost) and
 * damage (corrupt) apart.
 *
 * One owner per file: each file of the tree belongs to one slave (its
 * own subtree, or shared=yes's share) and, on a slave, to one thread at
 * a time (fsplan.h's busy bits), so the map needs no lock: two threads
 * never touch one file's bytes. A block only partly covered by a write,
 * or by a write that failed or came back short, is forgotten (0): the
 * map never claims what it cannot know. A delete forgets the file; a
 * create (from 0) and a format write with fresh generations.
 */
#ifndef LOCKSTEP_SLAVE_FSVAL_H
#define LOCKSTEP_SLAVE_FSVAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "proto/proto.h"
#include "slave/fsplan.h"
#include "slave/validate.h"

/* Mismatches kept in full per fsd for the log; the rest are counted. */
#define FSVAL_LOG_MAX 16

struct fsval_bad {
	uint64_t file;   /* its index in the tree */
	uint64_t offset; /* byte offset of the block in the file */
	enum validate_kind kind;
	uint8_t expect; /* the generation the map holds */
	struct validate_found found;
};

struct fsval_map {
	char fsd[PROTO_NAME_LEN];
	char path[PROTO_PATH_LEN]; /* anchor[/subdir] */
	uint32_t share_no, share_count;
	uint64_t nfiles;
	uint64_t *base; /* nfiles + 1: each file's first block in gen */
	uint32_t *id;   /* each file's id in the headers */
	uint8_t *gen;
	atomic_uint_fast64_t written, verified, mismatched;
	atomic_uint_fast64_t kinds[VALIDATE_NKINDS];
	pthread_mutex_t lock; /* bad, nbad */
	struct fsval_bad bad[FSVAL_LOG_MAX];
	unsigned nbad, nlogged;
	/* journal=DIR (slave/fsjnl.h): its descriptor, -1 without */
	int jfd;
	char jpath[PROTO_PATH_LEN + PROTO_NAME_LEN * 2 + 16];
	atomic_int jerr;       /* first journal error (-errno), sticky */
	pthread_mutex_t jlock; /* appends */
	uint64_t inflight;     /* blocks in flight at its end */
	int inflight_told;
	/*
	 * Those blocks (validate.h): the map holds the generation of the
	 * write in flight, alt the one before it, until a read or a write
	 * settles which (fsval_verify, fsval_wrote). Sorted, nalt entries.
	 */
	struct validate_alt *alt;
	size_t nalt;
	struct fsval_map *next;
};

/* Whole blocks of [at, at + len): the first one and how many. */
uint64_t fsval_span(uint64_t at, uint64_t len, uint64_t *first);

/*
 * A file's id in its headers: validate_id() of "fsd/rel" (rel the file's
 * path in the tree).
 */
uint32_t fsval_file_id(const char *fsd, const char *rel);

/*
 * The map of fsd (path, tree t as this slave sees it, share share_no of
 * share_count) in *list: the one made before when it is of the same tree
 * (every file's size the same), else a new one with nothing known. 0 with
 * *out (the list owns it), or -ENOMEM.
 */
int fsval_get(struct fsval_map **list, const char *fsd, const char *path,
	      const struct fsplan_tree *t, uint32_t share_no,
	      uint32_t share_count, struct fsval_map **out);
/*
 * fsval_get with journal=DIR (journal "": none): a map made on first use
 * in the run opens DIR/<fsd>.<slave>.fsjnl and replays it (a journal of
 * another fsd, slave, share or tree is refused); one made anew for
 * another tree in the run starts its journal afresh. 0 with *out, or
 * -errno with a message.
 */
int fsval_open(struct fsval_map **list, const char *fsd, const char *path,
	       const struct fsplan_tree *t, uint32_t share_no,
	       uint32_t share_count, const char *journal, const char *slave,
	       struct fsval_map **out, char *err, size_t errlen);
/* The blocks m expects a generation of: what validate=only must verify. */
uint64_t fsval_known(const struct fsval_map *m);
/* Free every map of the list; *list becomes NULL. */
void fsval_free_all(struct fsval_map **list);

/* Forget file f (deleted, or its content unknown): every block 0. */
void fsval_forget(struct fsval_map *m, uint64_t f);
/* Forget every file of m (a format=yes or clean). */
void fsval_forget_all(struct fsval_map *m);

/*
 * A write of len bytes at at of file f is about to go out from buf:
 * stamp each whole block with its next generation (slave slave, written
 * at time_ns of CLOCK_REALTIME). buf changes only in its headers. With a
 * journal, the intents are made durable first: 0, or the journal's
 * error (then the write must not go out).
 */
int fsval_stamp(struct fsval_map *m, uint64_t f, void *buf, uint64_t at,
		uint64_t len, uint16_t slave, uint64_t time_ns);
/*
 * That write came back with got (bytes written, or -errno): the whole
 * blocks written take their new generation, every other block it
 * touched is forgotten. Counts the blocks written.
 */
void fsval_wrote(struct fsval_map *m, uint64_t f, uint64_t at, uint64_t len,
		 int64_t got);
/*
 * A read of got bytes at at of file f into buf: verify every whole block
 * whose generation is known; each mismatch is counted and the first ones
 * kept (fsval_note). Returns the mismatches.
 */
unsigned fsval_verify(struct fsval_map *m, uint64_t f, const void *buf,
		      uint64_t at, uint64_t got);

#endif
