/*
 * What the slave decides about a phase, without threads, sockets or clocks:
 * how many workers it runs and which target each of their slots serves,
 * which slice of a shared target each worker takes, how a target is opened
 * and which engine features a worker asks for; then, while the phase runs,
 * how the workers' intervals add up to the slave's, when an interval is
 * complete, and what its message and its error log lines say. The session
 * (phase.c) does the doing; everything here is data in, data out.
 */
#ifndef LOCKSTEP_SLAVE_PREPARE_H
#define LOCKSTEP_SLAVE_PREPARE_H

#include <stddef.h>
#include <stdint.h>
#include "common/hist.h"
#include "proto/proto.h"
#include "slave/worker.h"

#define PREPARE_MAX_WORKERS 64

/*
 * The slave's own limits on a plan (prepare_check_plan): the master is not
 * the only thing that can send one. Threads (I/Os in flight) per slave over
 * all its targets: the parser's cap for one sd's threads=.
 */
#define PREPARE_MAX_THREADS 65536u
#define PREPARE_MAX_XFER (16u << 20)              /* bytes per transfer */
#define PREPARE_MIN_INTERVAL_NS 1000000ull        /* 1 ms */
#define PREPARE_MAX_INTERVAL_NS 86400000000000ull /* a day */
#define PREPARE_MAX_PHASE_NS (366ull * 86400000000000ull) /* a year */
#define PREPARE_MAX_OFFSET_NS 86400000000000ll /* clock offset: +-1 day */
#define PREPARE_MAX_IORATE 1e9                 /* I/Os per second */
#define PREPARE_MIN_IORATE 1e-3
#define PREPARE_MAX_BYTES (UINT64_C(1) << 62) /* size=, offset= */
#define PREPARE_MAX_RATIO 1e6                 /* compratio, dedupratio */
/*
 * Latency per target (prepare_split): the most pairs of read and write
 * histograms (76 KiB a pair, twice for a worker's two buffers) the
 * workers of one phase may hold for it, over those that serve more than
 * one target (a worker of one target records into its own pair).
 */
#define PREPARE_MAX_SPLIT 256u
/* A go's start time, on this slave's clock, at most this far from now. */
#define PREPARE_GO_WINDOW_NS (300ull * 1000000000ull)

/* The workers' slots of a phase. Arrays are malloc'd and owned. */
struct prepare_slots {
	unsigned nworkers;                          /* set before assigning */
	unsigned depth[PREPARE_MAX_WORKERS];        /* slots of worker i */
	unsigned *slot_target[PREPARE_MAX_WORKERS]; /* per slot: its target */
	/* Per target: worker i's slice of it, UINT_MAX when it has none. */
	unsigned *slice[PREPARE_MAX_WORKERS];
	unsigned *nslices; /* per target: sharers */
};

/* What a slave has sent of a phase so far, for its phase end. */
struct prepare_totals {
	uint64_t ops, bytes, errors;
	struct hist meas[2]; /* latency over the measured intervals sent */
};

/*
 * Whether every numeric field of a decoded plan is one this slave will run
 * (pure): threads sum without wrap and stay within PREPARE_MAX_THREADS,
 * interval and phase length, iorate (0 or finite within bounds), clock
 * offset, sizes, offsets, alignment, transfer sizes (512-byte multiples up
 * to PREPARE_MAX_XFER), flags that are 0 or 1. The decoder already checked
 * types, string lengths, percentages and target indexes. Returns 0, or
 * -EINVAL with err naming the field ("plan field tg[2].th (sd sd3): ...").
 */
int prepare_check_plan(const struct proto_plan *p, char *err, size_t errlen);
/*
 * Whether a measure message fits plan p (a warmup=steady phase, or one
 * already moved by the same message): the window from..intervals-1 has
 * the plan's measured length and starts no later than the plan's
 * warmup_intervals. Pure; 0 or -ERANGE with err.
 */
int prepare_check_measure(const struct proto_plan *p,
			  const struct proto_measure *ms, char *err,
			  size_t errlen);
/*
 * Whether go is sane for plan p: its first interval is one of the plan's,
 * and this slave's start (start_at + first_interval intervals, master
 * clock) converts to this slave's clock with the plan's offset without
 * overflow and is within PREPARE_GO_WINDOW_NS of now_real (this slave's
 * CLOCK_REALTIME). On success *slave_start is that time. Pure; 0 or
 * -ERANGE with err.
 */
int prepare_check_go(const struct proto_plan *p, const struct proto_go *go,
		     uint64_t now_real, int64_t *slave_start, char *err,
		     size_t errlen);

/*
 * Threads (I/Os in flight) the plan gives this slave, over all targets,
 * summed without wrap (UINT_MAX when the sum is larger).
 */
unsigned prepare_threads(const struct proto_plan *p);
/*
 * Workers to run: want (the --workers), but no more than there are
 * threads to spread and no more than PREPARE_MAX_WORKERS.
 */
unsigned prepare_nworkers(unsigned want, unsigned threads);
/*
 * Spread every target's threads over ps->nworkers workers, round robin,
 * and give each worker that shares a target a slice of its range (a
 * target with streams: each stream's threads to one worker, whose slice
 * is a share of the streams, see workload_slice). Fills
 * depth, slot_target, slice and nslices. Returns 0, -EINVAL when the
 * threads add up to more than PREPARE_MAX_THREADS (or nworkers is 0 or
 * over PREPARE_MAX_WORKERS), or -ENOMEM; either way prepare_slots_free
 * releases what was allocated.
 */
int prepare_assign_slots(struct prepare_slots *ps, const struct proto_plan *p);
/* Free the arrays and zero ps (nworkers included); idempotent. */
void prepare_slots_free(struct prepare_slots *ps);
/*
 * Whether the phase's workers record latency per target, for each
 * interval's per-target histograms (the master's slow-sd test): when the
 * plan has at most PROTO_MAX_SD_LATS targets and the workers serving
 * more than one target would hold at most PREPARE_MAX_SPLIT pairs of
 * histograms. ps is assigned (prepare_assign_slots).
 */
int prepare_split(const struct proto_plan *p, const struct prepare_slots *ps);
/*
 * The distinct targets of a worker's depth slots (slot_target), in the
 * order of their first slot, into targets[] (room for depth), and each
 * slot's index among them into local[] (depth entries). Returns how many.
 */
unsigned prepare_split_slots(const unsigned *slot_target, unsigned depth,
			     unsigned *targets, unsigned *local);
/*
 * After targets[0..n): the other targets of each concatenated stream
 * (proto_stream.concat) one of them leads, once each, since the I/O of a
 * slot on a leader goes to whichever sd of the concatenation its offset
 * falls in. targets has room for n + p->ntargets. Returns the new count.
 */
unsigned prepare_split_concat(const struct proto_plan *p, unsigned *targets,
			      unsigned n);
/* Whether any stream writes to target t (it must be opened read-write). */
int prepare_target_writes(const struct proto_plan *p, unsigned t);
/*
 * The ENGINE_* flags for a worker whose n slots serve targets target[]:
 * SQPOLL when sqpoll (--sqpoll) or any of the targets asks for it, DIRECT
 * when every one of them is open with O_DIRECT.
 */
unsigned prepare_engine_flags(const struct proto_plan *p,
			      const unsigned *target, unsigned n, int sqpoll);

/*
 * Add src's counts and histograms to dst (same targets), and src's
 * per-target histograms (src->rec, when it split) to dst's per-target
 * sums (dst->sd, when it has them); src's last error becomes dst's when
 * src has errors.
 */
void prepare_add_interval(struct worker_interval *dst,
			  const struct worker_interval *src);
/*
 * Take a worker's interval into the phase's sums: acc[k] (k = iv->seq) is
 * a copy of the first worker's interval k, the others are added to it, and
 * accn[k] counts them. When the workers split latency per target, acc[k]
 * has its per-target sums (sd, in the same allocation: free(acc[k])
 * frees all). iv stays the caller's. An interval past the phase's
 * intervals is ignored. Returns 0, or -ENOMEM (iv is then not counted).
 */
int prepare_collect(struct worker_interval **acc, unsigned *accn,
		    unsigned intervals, const struct worker_interval *iv);
/*
 * How many of n workers contribute to interval k: all, except those that
 * ended early (ended[i]: finished with their eof pass done) before k
 * (wlast[i]: the last interval worker i handed over, -1 for none).
 */
unsigned prepare_workers_due(const int *ended, const int *wlast, unsigned n,
			     unsigned k);
/*
 * Master-clock time of a CLOCK_MONOTONIC instant: real_minus_mono is
 * CLOCK_REALTIME - CLOCK_MONOTONIC now, clock_offset_ns slave - master.
 */
uint64_t prepare_mono_to_master(uint64_t mono, int64_t real_minus_mono,
				int64_t clock_offset_ns);
/* The earliest non-zero of n first-I/O times, 0 when all are 0. */
uint64_t prepare_first_io(const uint64_t *first, unsigned n);

/*
 * Add interval iv to the phase's totals; its latencies count only past the
 * warmup intervals.
 */
void prepare_account(struct prepare_totals *tot, const struct proto_plan *plan,
		     const struct worker_interval *iv);
/*
 * Fill the interval message pi for iv of plan (the phase started at master
 * time start_at): times, counts and the sparse histograms, and each
 * target's when iv has per-target sums. The cpu and first_io fields are
 * the caller's. pi's histograms are malloc'd: release them with
 * proto_msg_free. Returns 0 or -ENOMEM.
 */
int prepare_interval_msg(struct proto_interval *pi,
			 const struct proto_plan *plan, uint64_t start_at,
			 const struct worker_interval *iv);
/*
 * The log line for target t's I/O errors in iv (one per sd per interval:
 * errors are counted, not logged one by one), with the last error's offset
 * and errno when it was on t. Returns 0 when t had no errors (text is then
 * untouched), 1 when text was written.
 */
int prepare_error_text(char *text, size_t len, const struct proto_plan *plan,
		       const struct worker_interval *iv, unsigned t);

#endif
