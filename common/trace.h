/*
 * I/O trace readers for replay= (docs/DESIGN.md §8, "Replay"): blkparse's
 * default text output, fio's iolog versions 2 and 3 (told apart by their
 * first line) and blktrace's binary events (by their magic). Anything else
 * is refused saying what lockstep reads. The readers are pure: they take
 * the bytes in memory and return the records or the first malformed line
 * as NAME:LINE: reason (a binary event as NAME: byte OFFSET: reason). The master reads a
 * trace to check a run's mapping; each slave reads the same file (same
 * path, same bytes: the master sends its hash) to replay its part.
 *
 * What a record is, per format:
 * - blkparse: a line "MAJ,MIN CPU SEQ SECONDS.NANOS PID ACTION RWBS
 *   SECTOR + BLOCKS [PROC]". Of each device the queue events ('Q') are
 *   the records; a device with no Q event in the file uses its issue
 *   events ('D') instead. Their RWBS must say R or W (a discard 'D' is
 *   refused); an event without data (a flush: no "+ BLOCKS") is skipped.
 *   Every other action is skipped. Offsets and lengths are sectors of
 *   512 bytes. The device key is "MAJ,MIN". blkparse's closing summary
 *   ("CPU0 (8,0):", "Total (8,0):" and what follows) ends the records.
 * - fio iolog v2: "fio version 2 iolog", then "FILE add|open|close" and
 *   "FILE read|write OFFSET LENGTH" (bytes); "FILE wait USEC" moves the
 *   trace's clock by USEC microseconds (fio's delay). v3: "fio version 3
 *   iolog", each line led by a timestamp in milliseconds from the start.
 *   An I/O needs its file added and open; sync, datasync and trim
 *   (nothing lockstep replays) are refused at their line. The device
 *   key is the file name.
 *
 * - blktrace binary (struct blk_io_trace, BLK_IO_TRACE_VERSION 7, either
 *   byte order): queue and issue events with data, Q or D as for
 *   blkparse, R or W from the action's categories; notify events and
 *   every other action skipped, a discard refused. trace_read of a path
 *   NAME.blktrace.N reads every per-CPU file NAME.blktrace.0, .1, ...
 *   (until the first missing one) as one trace. A record's line is its
 *   event's byte offset in its file. The device key is "MAJ,MIN".
 *
 * Records come sorted by time (stable: equal times keep file order).
 */
#ifndef LOCKSTEP_COMMON_TRACE_H
#define LOCKSTEP_COMMON_TRACE_H

#include <stddef.h>
#include <stdint.h>

#define TRACE_DEV_MAX 256           /* device keys in a trace */
#define TRACE_KEY_LEN 256           /* a device key, with its NUL */
#define TRACE_REC_MAX (1u << 24)    /* records in a trace */
#define TRACE_LEN_MAX (16u << 20)   /* bytes of one record */
#define TRACE_FILE_MAX (1ull << 31) /* bytes of a trace file */

enum trace_format {
	TRACE_BLKPARSE,
	TRACE_IOLOG2,
	TRACE_IOLOG3,
	TRACE_BLKTRACE,
};

struct trace_rec {
	uint64_t t_ns; /* from the trace's clock origin */
	uint64_t offset;
	uint32_t len;
	uint32_t line; /* in the file (blktrace: byte offset), for messages */
	uint16_t dev;  /* index into trace.key */
	uint8_t write;
	uint8_t act; /* blkparse: 'Q' or 'D' while reading */
};

struct trace {
	enum trace_format format;
	size_t ndev;
	char (*key)[TRACE_KEY_LEN];
	size_t n;
	struct trace_rec *rec;
	uint64_t hash; /* FNV-1a 64 of the file's bytes */
};

/*
 * Parse len bytes of a trace named name (for messages) into t (zeroed by
 * the caller or freed). Returns 0, -EINVAL with "NAME:LINE: why" (or
 * "NAME: why" for the format itself) in err, or -ENOMEM. t owns its
 * arrays: free them with trace_free, also after an error.
 */
int trace_parse(struct trace *t, const char *name, const char *buf, size_t len,
		char *err, size_t errlen);

/* Read the file at path and parse it (trace_parse); -errno on a read. */
int trace_read(struct trace *t, const char *path, char *err, size_t errlen);

void trace_free(struct trace *t);

/* The index of device key in t, or -1. */
int trace_dev(const struct trace *t, const char *key);

/* FNV-1a 64 of len bytes: the hash the master sends with a replay. */
uint64_t trace_hash(const void *buf, size_t len);

/* The format's name, as messages and `lockstep check` say it. */
const char *trace_format_name(enum trace_format f);

#endif
