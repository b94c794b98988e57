/*
 * Replay of an I/O trace on a worker (replay=, docs/DESIGN.md §8
 * "Replay"): each worker reads the trace the plan names (checking the
 * master's hash), keeps the records of the devices mapped to targets it
 * has slots on that fall in its part of the target, and issues them in
 * order: workload_next takes the next record of the target (replay_next),
 * and in timed mode the target's schedule (slave/tsched.h) hands out the
 * records' times from the phase's start (replay_schedule), so an arrival
 * whose slots are all busy waits and its latency still runs from its
 * recorded time, as at a fixed iorate=.
 *
 * A target's records are split among the slaves and workers that run it
 * by offset: the slave's part is its plan range [range_lo, range_hi) of
 * the whole sd in parts per billion (the planner cuts a replayed sd as
 * sequential work), not rounded, the last part open to the end; a worker's
 * part is the k-th of n equal parts of the slave's. Each record thus runs
 * exactly once in the cluster.
 */
#ifndef LOCKSTEP_SLAVE_REPLAY_H
#define LOCKSTEP_SLAVE_REPLAY_H

#include <stddef.h>
#include <stdint.h>
#include "common/trace.h"
#include "proto/proto.h"
#include "slave/tsched.h"
#include "slave/workload.h"

/* One worker's records of one target, offsets the lun's (offset= added). */
struct replay_part {
	struct trace_rec *rec; /* t_ns from the trace's first record */
	size_t n, next;
	unsigned stream;
};

/*
 * Give each target of w this worker has slots on (slice[t] != UINT_MAX;
 * slice NULL: every target, as slice 0 of 1) its records of the plan's
 * replay streams. target_size as workload_init's. Returns 0, or -EINVAL
 * with a message in err (the trace unreadable or not the master's, its
 * device missing, a record past the end of the sd, a record not in
 * 512-byte units on a target opened with O_DIRECT), or -ENOMEM.
 * workload_free frees what it attached.
 */
int replay_load(struct workload *w, const struct proto_plan *p,
		const uint64_t *target_size, const unsigned *slice,
		const unsigned *nslices, char *err, size_t errlen);

/*
 * Timed replay: each group of ts takes its target's records' times as
 * its schedule from the start tsched_start was given (call after it).
 * Nothing when ts has no schedules (afap) or w does not replay.
 */
void replay_schedule(struct tsched *ts, const struct workload *w);

/* The part's next record as an I/O of target; WORKLOAD_EOF after its last. */
static inline int replay_next(struct replay_part *r, unsigned target,
			      struct workload_io *io)
{
	const struct trace_rec *x;

	io->target = target;
	io->stream = r->stream;
	if (r->next == r->n) {
		io->len = 0;
		io->offset = 0;
		return WORKLOAD_EOF;
	}
	x = &r->rec[r->next++];
	io->write = x->write;
	io->len = x->len;
	io->offset = x->offset;
	return 0;
}

#endif
