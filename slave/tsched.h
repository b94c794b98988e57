/*
 * A worker's open-loop schedules, one per target (sd) it has slots on.
 * At a fixed iorate= each target of a worker gets its own arrival stream
 * at its share of the worker's rate, and its own stack of free slots: an
 * arrival of a target whose slots are all busy waits in that target's
 * schedule (its latency still runs from its intended time), and no other
 * target can take it. So a slow sd builds its own backlog instead of
 * handing its share to a fast one, as in Vdbench, where each wd x sd pair
 * (WG_entry) has its own interarrival time (WG_entry.wg_set_interarrival)
 * and its own queue.
 *
 * A target's share of the slave's I/O follows Vdbench's HandleSkew: each
 * wd's skew is split evenly over the sds it runs on here; a target takes
 * the sum of its wds' parts. A worker's part of a target is its slots
 * there over the target's threads (every worker's slots on a target issue
 * alike). At iorate=max there is one group of every slot and no schedule:
 * each slot re-issues as soon as it completes.
 *
 * tsched_shares and tsched_init are pure decisions (no clock); the rest is
 * the hot path's bookkeeping: no allocation, no locks, one worker each.
 */
#ifndef LOCKSTEP_SLAVE_TSCHED_H
#define LOCKSTEP_SLAVE_TSCHED_H

#include <stdint.h>
#include "proto/proto.h"
#include "slave/rate.h"

struct tsched_group {
	struct rate rate;
	double iops;     /* this group's rate; 0 with the worker's at max */
	unsigned target; /* plan target (at max: the first slot's) */
	int idle;        /* a fixed rate but no share: never due */
	unsigned *free;  /* free slots, a stack (part of tsched.stack) */
	unsigned nfree;
	int held; /* validation: an arrival waits for a block */
	uint64_t held_start;
	uint64_t free_since; /* when its stretch of a free slot began */
};

struct tsched {
	unsigned n; /* groups */
	struct tsched_group *g;
	unsigned *group_of; /* each slot's group */
	unsigned *stack;    /* depth entries behind the groups' stacks */
	unsigned depth;
	int fixed; /* a fixed rate: each group keeps a schedule */
};

/*
 * Each plan target's share of this slave's I/O (share[ntargets], summing
 * to 1 over the targets some stream uses; 0 for the others): each
 * stream's weight (workload_stream_weights) split evenly over its
 * targets. Returns 0, or -ENOMEM.
 */
int tsched_shares(const struct proto_plan *p, double *share);

/*
 * The part of the slave's rate that a worker with these slots carries:
 * the sum over its slots of its target's share over the target's threads.
 * share from tsched_shares.
 */
double tsched_worker_part(const struct proto_plan *p, const double *share,
			  const unsigned *slot_target, unsigned depth);

/*
 * Each of nworkers workers' rate (iorate[nworkers]): the slave's
 * (p->iorate) split as their parts are (tsched_worker_part), slot_target[i]
 * and depth[i] being worker i's slots. Returns 0, or -ENOMEM.
 */
int tsched_worker_rates(const struct proto_plan *p,
			unsigned *const *slot_target, const unsigned *depth,
			unsigned nworkers, double *iorate);

/*
 * Group a worker's slots (slot_target[depth]) and give each group its
 * rate: at a fixed rate (iops > 0, or the plan's iorate > 0), one group
 * per target, iops split over them as their parts (tsched_worker_part)
 * are, a group of no part idle; at max (both 0), a single group.
 * Returns 0, or -ENOMEM. Free with tsched_free.
 */
int tsched_init(struct tsched *ts, const struct proto_plan *p,
		const unsigned *slot_target, unsigned depth, double iops);
void tsched_free(struct tsched *ts);

/*
 * Start the schedules at start_ns (seed: the worker's; each group draws
 * from its own generator), every slot free, slot 0 on top of its stack.
 * Returns 0, or -EINVAL (rate_init's).
 */
int tsched_start(struct tsched *ts, enum rate_dist d, uint64_t start_ns,
		 uint64_t seed);

/* Slot i is free again at now (a completion that freed it). */
static inline void tsched_put(struct tsched *ts, unsigned i, uint64_t now)
{
	struct tsched_group *g = &ts->g[ts->group_of[i]];

	if (!g->nfree)
		g->free_since = now;
	g->free[g->nfree++] = i;
}

/*
 * Nanoseconds from now until some group with a free slot has an I/O due
 * (0: one is due); UINT64_MAX when none can issue on its schedule (every
 * group's slots busy, or no fixed rate).
 */
uint64_t tsched_wait_ns(const struct tsched *ts, uint64_t now);

#endif
