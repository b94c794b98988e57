/*
 * A worker: one thread, one engine instance (one io_uring), a fixed set of
 * slots kept in flight. It issues I/O from the workload generator, records
 * every completion's latency in the current interval's histograms, and at
 * each interval boundary hands the interval to the session thread (through
 * a queue and an eventfd) without stopping I/O; the session thread gives
 * the buffer back with worker_release, so the hot path never allocates.
 */
#ifndef LOCKSTEP_SLAVE_WORKER_H
#define LOCKSTEP_SLAVE_WORKER_H

#include <errno.h>
#include <stdint.h>
#include "common/hist.h"
#include "slave/engine.h"
#include "slave/rate.h"
#include "slave/valmap.h"
#include "slave/workload.h"

/*
 * The last_errno of blocks that failed data validation (counted as I/O
 * errors for data_errors=): no I/O failed, so it is said in words, never
 * through strerror ("Invalid or incomplete multibyte or wide character").
 */
#define WORKER_ERR_MISMATCH EILSEQ

struct worker_interval {
	unsigned seq;
	uint64_t ops[2], bytes[2], errors;
	int last_errno; /* the last error of this interval, for the log */
	uint64_t last_err_offset;
	unsigned last_err_target;
	uint64_t runq_ns; /* the worker waited for a CPU (slave/runq.h) */
	/*
	 * Schedule lag of a fixed rate: for each I/O issued on its open-loop
	 * schedule, how long after it was due, with a slot free, the worker
	 * issued it (now - max(intended time, when a slot became free)): the
	 * generator's own lateness, which the I/O's latency includes. A slot
	 * busy until later is the device's wait, not counted.
	 */
	struct rate_lag lag;
	struct worker_interval *next;
	struct hist lat[2];
	/*
	 * Latency per target (prepare_split): the hot path records each
	 * completion into rec[its slot's pair + write]. rec is lat itself
	 * when the worker does not split or serves one target (lat is then
	 * that target's), else 2 x nsplit histograms of its own, which
	 * worker_pop() adds into lat. Pair j is plan target
	 * split_target[j] (the worker's array); nsplit 0: not split.
	 */
	struct hist *rec;
	unsigned nsplit;
	const unsigned *split_target;
	/*
	 * In the slave's sum of an interval (prepare_collect): each plan
	 * target's latency, reads and writes together (ntargets of them)
	 * when the workers split it, else NULL.
	 */
	struct hist *sd;
	unsigned ntargets;
	uint64_t target_errors[]; /* errors per target (sd), ntargets */
};

struct worker_cfg {
	const struct engine_ops *engine;
	unsigned nfiles;
	const int *fds;              /* not owned; stay open while it runs */
	const unsigned char *async;  /* per file: engine_cfg.async; not owned */
	unsigned depth;              /* slots */
	const unsigned *slot_target; /* depth entries */
	const struct proto_plan *plan; /* read during worker_start only */
	const uint64_t *target_size;
	/*
	 * This worker's slice of each target: slice[t] of nslices[t]
	 * (UINT_MAX: it has no slot on that target).
	 */
	const unsigned *slice, *nslices;
	uint64_t seed;
	uint64_t interval_ns;
	unsigned intervals;
	double iorate;         /* this worker's I/O per second; 0 = max */
	unsigned engine_flags; /* ENGINE_* */
	int notify_fd;         /* eventfd: written on interval or end */
	/*
	 * Data validation: the map of each target (nfiles entries, NULL for
	 * a target not validated; not owned, outlive the worker) and this
	 * slave's id for headers. vmap NULL: validation off.
	 */
	struct valmap *const *vmap;
	uint16_t slave_id;
	int split; /* record latency per target (prepare_split) */
};

struct worker;

/*
 * Start a worker thread: it opens the engine and allocates buffers, then
 * waits for worker_go. Returns once set-up is done: 0, or -errno with a
 * message in err (and nothing left running).
 */
int worker_start(const struct worker_cfg *cfg, struct worker **w, char *err,
		 size_t errlen);
/*
 * Start issuing I/O at CLOCK_MONOTONIC time mono_start, the start of
 * interval first (0, or where a slave rejoins a running phase): the
 * intervals are first..intervals-1.
 */
void worker_go(struct worker *w, uint64_t mono_start, unsigned first);
/*
 * End the phase after interval intervals-1 instead of the plan's last
 * (warmup=steady: the master placed the measured window); never later.
 */
void worker_set_end(struct worker *w, unsigned intervals);
/* Ask the worker to stop now (it ends the current interval early). */
void worker_stop(struct worker *w);
/*
 * Pop the oldest finished interval, or NULL. The caller reads it and gives
 * it back with worker_release (it is one of the worker's own buffers).
 * Its per-target histograms are added into lat here, on the caller's
 * thread.
 */
struct worker_interval *worker_pop(struct worker *w);
/* Clear iv, popped from w, and give it back to w for a later interval. */
void worker_release(struct worker *w, struct worker_interval *iv);
/* 1 once the worker has finished its last interval and drained. */
int worker_finished(struct worker *w);
/*
 * 1 when it finished early because every target of its slots completed
 * its seekpct=eof pass; its last interval (seq of the end) is partial.
 */
int worker_eof(struct worker *w);
/* Monotonic time of the first I/O submitted (0 if none yet). */
uint64_t worker_first_io(struct worker *w);
/* Engine features in use. */
const char *worker_describe(struct worker *w);
/* Join the thread and free everything; NULLs *w; safe on NULL. */
void worker_join(struct worker **w);

#endif
