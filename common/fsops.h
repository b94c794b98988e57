/*
 * The file-system operations of a span (an interval, a run) other than
 * read and write, summed over slaves: per operation a count, bytes,
 * errors and a latency histogram, next to the struct stats that keeps the
 * span's reads and writes (a file-system phase's reads and writes are a
 * block phase's). Only a file-system phase has one (a block phase's
 * struct stats has none), and an operation's dense histogram (37 KB) is
 * allocated when its first value comes, so a phase that creates and
 * deletes carries two. Adding two sets adds every field, as stats_add();
 * derived values (rates, means, percentiles) come from the sums by
 * fsops_view(). Operations are numbered as proto's enum proto_fsop
 * (Vdbench's order), which this header repeats without including proto/.
 */
#ifndef LOCKSTEP_COMMON_FSOPS_H
#define LOCKSTEP_COMMON_FSOPS_H

#include <stdint.h>
#include "common/hist.h"
#include "common/stats.h"

enum {
	FSOPS_READ = 0,
	FSOPS_WRITE = 1,
	FSOPS_CREATE = 2,
	FSOPS_DELETE = 3,
	FSOPS_MKDIR = 4,
	FSOPS_RMDIR = 5,
	FSOPS_OPEN = 6,
	FSOPS_CLOSE = 7,
	FSOPS_GETATTR = 8,
	FSOPS_SETATTR = 9,
	FSOPS_ACCESS = 10,
	FSOPS_COPY = 11,
	FSOPS_MOVE = 12,
	FSOPS_N = 13
};

/* An operation's name as Vdbench's operation= spells it ("create"). */
const char *fsops_name(unsigned op);

/* An operation's sums without its histogram (a slave's run totals). */
enum {
	FSOPS_SUM_COUNT,
	FSOPS_SUM_BYTES,
	FSOPS_SUM_ERRORS,
	FSOPS_SUM_LAT, /* latency, ns */
	FSOPS_SUMS
};

/* One operation other than read and write (op[0], op[1] stay empty). */
struct fsops_op {
	uint64_t count, bytes, errors;
	struct hist *lat; /* malloc'd at its first value; NULL: none yet */
};

struct fsops {
	/*
	 * The operations the phase asked for (bit per FSOPS_*), which
	 * Vdbench's ReqstdOps columns add up (reads and writes of an fwd with
	 * rdpct= both); 0: every operation with a count.
	 */
	uint32_t requested;
	struct fsops_op op[FSOPS_N];
};

/* Initialise an empty set (no histogram held). */
void fsops_init(struct fsops *fs, uint32_t requested);
/* Empty it again, keeping its histograms (emptied) for reuse. */
void fsops_reset(struct fsops *fs);
/* Free the histograms it holds; it is empty after. */
void fsops_release(struct fsops *fs);
/*
 * Room for values of op (its histogram allocated): 0 or -ENOMEM. A caller
 * that must not fail half way calls this for every op first.
 */
int fsops_reserve(struct fsops *fs, unsigned op);
/*
 * dst += one operation's sums and sparse histogram lat, which must have
 * passed hist_sparse_validate(), with lat->count == count, op in
 * FSOPS_CREATE..FSOPS_MOVE reserved in dst, and no count or sum wrapping
 * (fsops_fits()). Cannot fail.
 */
void fsops_add_sparse(struct fsops *dst, unsigned op, uint64_t count,
		      uint64_t bytes, uint64_t errors,
		      const struct hist_sparse *lat);
/* Whether adding those to dst wraps none of its counters. */
int fsops_fits(const struct fsops *dst, unsigned op, uint64_t count,
	       uint64_t bytes, uint64_t errors, const struct hist_sparse *lat);
/* dst += src: 0, or -ENOMEM with dst unchanged. */
int fsops_add(struct fsops *dst, const struct fsops *src);

/* One operation's figures over a span; latencies in milliseconds. */
struct fsops_opview {
	uint64_t count, bytes, errors;
	/*
	 * Reads and writes: an interval's transfer errors are not split by
	 * direction, so they are the read's when only reads were asked for,
	 * the write's when only writes were, and unknown (this set, errors
	 * 0) for both when the phase mixes them: fsops_view.rw_errors.
	 */
	int errors_unknown;
	double rate; /* per second */
	double mbps; /* MB (1024*1024 bytes) per second */
	double resp_ms, p50_ms, p95_ms, p99_ms, max_ms;
};

/* The view of a span: every operation, reads and writes included. */
struct fsops_view {
	struct fsops_opview op[FSOPS_N];
	/* Failed reads and writes together (the interval's errors less the
	 * other operations'). */
	uint64_t rw_errors;
	/* Vdbench's ReqstdOps: the requested operations together. */
	uint64_t req_count;
	double req_rate, req_resp_ms;
	double read_pct;   /* of reads and writes */
	double xfer_bytes; /* average bytes per read or write, truncated */
};

/*
 * The view of fs (NULL: no operation other than read and write) with
 * st's reads and writes over seconds (0: rates 0, a run with no measured
 * interval). Pure.
 */
void fsops_view(const struct fsops *fs, const struct stats *st, double seconds,
		struct fsops_view *v);

/*
 * Percentile p (0..100) of every operation of a span together, in ns:
 * st's reads and writes (NULL: none) and fs's other operations (NULL:
 * none), as hist_percentile() gives it over their histograms merged
 * (nothing is allocated). 0 when the span has no latency. What a
 * failure event's recovery judges a file-system phase's latency on.
 */
uint64_t fsops_percentile_all(const struct fsops *fs, const struct stats *st,
			      double p);

#endif
