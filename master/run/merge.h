/*
 * The master's interval merge for one phase: pure code, no sockets, no
 * clocks (time is an argument). Slaves' interval samples arrive in any order;
 * the merge emits cluster interval k, in order of k, once every live slave
 * has reported k or the grace deadline of k (its end plus grace_ns) has
 * passed, naming the slaves that are missing. A sample that arrives after
 * its interval was emitted is late: it is still added to the run totals and
 * the slave's totals, once. A second sample for the same (slave, seq) is a
 * duplicate and is dropped. Warmup intervals are emitted but never enter
 * the run totals.
 */
#ifndef LOCKSTEP_MASTER_MERGE_H
#define LOCKSTEP_MASTER_MERGE_H

#include <stddef.h>
#include <stdint.h>
#include "common/fsops.h"
#include "common/hist.h"
#include "common/stats.h"
#include "proto/proto.h"

struct merge_cfg {
	unsigned nslaves;          /* slaves are numbered 0..nslaves-1 */
	unsigned intervals;        /* intervals in the phase, warmup included */
	unsigned warmup_intervals; /* the first ones, excluded from totals */
	uint64_t start_ns;         /* phase start (master clock) */
	uint64_t interval_ns;
	uint64_t grace_ns; /* wait after an interval's end */
	/*
	 * Not 0 in a file-system phase: a bit per operation the phase asks
	 * for (1 << FSOPS_*, common/fsops.h: Vdbench's ReqstdOps add them
	 * up; an fwd with rdpct= asks for read and write, a format pass for
	 * write). Its rows and totals then carry the operations other than
	 * read and write (merge_row.fs, merge_fs_totals); a sample with any
	 * in a block phase (0) is refused.
	 */
	uint32_t fsops;
};

/* One slave's interval as received (decoded from the wire). */
struct merge_sample {
	unsigned slave;
	unsigned seq;
	uint64_t ops[2], bytes[2], errors;
	uint64_t cpu_user_ns, cpu_sys_ns;
	uint64_t cpu_avail_ns;            /* interval length x slave cores */
	const struct hist_sparse *lat[2]; /* read, write latency; not owned */
	/*
	 * Set when lat[] passed hist_sparse_validate() already (proto_decode()
	 * makes the same checks): merge_add() then does not walk them again.
	 */
	int lat_valid;
	/*
	 * A file-system phase's operations other than read and write (the
	 * interval's fsops, ops strictly increasing, each lat.count equal to
	 * its count; lat_valid covers their histograms too). Not owned.
	 */
	unsigned nfsops;
	const struct proto_fsop_stat *fsops;
};

/* A cluster interval; pointers stay valid until the next merge_next(). */
struct merge_row {
	unsigned seq;
	int warmup;
	uint64_t start_ns, end_ns;
	unsigned reported, expected;
	unsigned nmissing;
	const unsigned *missing;   /* slave indexes that did not report */
	const struct stats *stats; /* cluster sum of this interval */
	/* Its other file operations (file-system phase), else NULL. */
	const struct fsops *fs;
};

enum merge_result {
	MERGE_ACCEPTED = 0,
	MERGE_DUPLICATE = 1, /* dropped */
	MERGE_LATE = 2,      /* row already emitted; counted in totals only */
};

/* Returns NULL on bad config or out of memory. */
struct merge *merge_new(const struct merge_cfg *cfg);
/* Free and NULL *m; safe on NULL. */
void merge_destroy(struct merge **m);

/*
 * Add a sample (copied; the caller keeps ownership of its histograms).
 * Returns enum merge_result, or -EINVAL when the sample is invalid (slave
 * or seq out of range, a histogram missing or malformed or not holding
 * ops[d] values, fsops in a block phase or not in increasing order of
 * FSOPS_CREATE..FSOPS_MOVE or whose histogram does not hold count values,
 * a count, sum or counter that would wrap its row, its
 * slave's totals or the run's), or -ENOMEM;
 * on error nothing was counted. The reason for -EINVAL is logged.
 */
int merge_add(struct merge *m, const struct merge_sample *s);

/*
 * The slave is gone: rows no longer wait for it (nor, if it was to be
 * back, from its row on: merge_slave_back is undone).
 */
void merge_slave_lost(struct merge *m, unsigned slave);
/*
 * The inverse: a lost slave rejoined the phase, and rows from `from` on
 * (or from the next row to emit, if later) wait for it again and count it
 * as expected; the rows before still do not. Its samples of any row are
 * taken as before (late ones as late). 0, or -EINVAL when the slave is
 * out of range or not lost, or from is past the phase's rows.
 */
int merge_slave_back(struct merge *m, unsigned slave, unsigned from);

/*
 * Emit the next row if it is ready at now_ns (pass UINT64_MAX to flush).
 * Returns 1 with *row filled, 0 when nothing is ready.
 */
int merge_next(struct merge *m, uint64_t now_ns, struct merge_row *row);

/*
 * The phase ended early (every slave finished its seekpct=eof pass): it has
 * only `intervals` rows (never fewer than were emitted). Samples past it
 * are refused from now on.
 */
void merge_truncate(struct merge *m, unsigned intervals);
/*
 * warmup=steady: the measured rows are from..intervals-1 (the warmup ends
 * earlier than planned, the phase with it). 0, or -EINVAL when from is
 * emitted already or past the planned warmup, or intervals out of range,
 * or -EBUSY when a sample of a row from `from` on is in already (it was
 * counted as warmup): nothing changes then.
 */
int merge_measure(struct merge *m, unsigned from, unsigned intervals);
/* Rows in the phase (after any truncation). */
unsigned merge_intervals(const struct merge *m);
/*
 * Rows up to the last one any slave reported (emitted or pending), never
 * fewer than were emitted: what a phase cut short has.
 */
unsigned merge_reported_rows(const struct merge *m);

/* Rows emitted so far: the next row to emit. */
unsigned merge_emitted(const struct merge *m);

/* All rows emitted. */
int merge_done(const struct merge *m);

/* Deadline of the next row to emit (UINT64_MAX when done). */
uint64_t merge_next_deadline(const struct merge *m);

/*
 * Totals of the measured (non-warmup) intervals, late samples included:
 * the rows emitted so far and those still pending.
 */
const struct stats *merge_totals(struct merge *m);
/*
 * The same totals' operations other than read and write, in a
 * file-system phase (NULL in a block phase): merge_totals() first.
 */
const struct fsops *merge_fs_totals(const struct merge *m);
/*
 * The same for one slave, as sums without buckets (the slave sends its own
 * histograms at phase_end); NULL if out of range.
 */
const struct stats_sums *merge_slave_totals(const struct merge *m,
					    unsigned slave);
/*
 * A file-system phase's operations other than read and write of one
 * slave, measured intervals only: [op][MERGE_FS_*] for each enum
 * proto_fsop; NULL in a block phase or out of range.
 */
const uint64_t (*merge_slave_fs(const struct merge *m,
				unsigned slave))[FSOPS_SUMS];
/* Samples counted late / dropped as duplicates so far. */
unsigned merge_late_count(const struct merge *m);
unsigned merge_duplicate_count(const struct merge *m);

#endif
