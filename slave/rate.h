/*
 * The open-loop rate scheduler of one worker: for a fixed iorate= it gives
 * the intended issue time of every I/O (Poisson arrivals by default, fixed
 * spacing, or uniformly drawn gaps), independent of how fast the device completes them. The worker
 * issues an I/O when a slot is free and the intended time has come, and
 * measures its latency from the intended time, not from when it was issued:
 * a device that stalls then shows the stall in the latency of every I/O that
 * should have started during it, instead of hiding it by delaying their
 * issue (coordinated omission). Pure: time is passed in, no syscalls, no
 * allocation; one instance per worker, no locks.
 */
#ifndef LOCKSTEP_SLAVE_RATE_H
#define LOCKSTEP_SLAVE_RATE_H

#include <stdint.h>
#include "common/trace.h"
#include "slave/workload.h"

enum rate_dist {
	RATE_EXPONENTIAL, /* Poisson arrivals: exponential gaps (default) */
	RATE_FIXED,       /* fixed spacing of 1/iops (Vdbench deterministic) */
	RATE_UNIFORM,     /* gaps uniform in [0, 2/iops) (Vdbench uniform) */
};

struct rate {
	uint64_t start; /* ns, first intended time */
	double gap;     /* mean gap, ns; 0 = unlimited */
	double elapsed; /* ns from start to the next intended time */
	uint64_t n;     /* intended times handed out (fixed spacing) */
	enum rate_dist dist;
	struct workload_rng rng;
	/*
	 * A recorded schedule (replay=, rate_recorded): the intended times
	 * are start plus rec[n].t_ns; after the last, the last (due at once).
	 */
	int recorded;
	const struct trace_rec *rec;
	uint64_t nrec;
};

/*
 * Set up a schedule of iops I/Os per second (for this worker) starting at
 * start_ns (monotonic clock): the first intended time is start_ns itself.
 * iops == 0 means unlimited: every I/O is due at once. Returns 0, or -EINVAL
 * for a negative or non-finite iops or an unknown distribution.
 */
int rate_init(struct rate *r, double iops, enum rate_dist d, uint64_t start_ns,
	      uint64_t seed);

/* 1 when unlimited (iops == 0): there is no schedule to keep. */
static inline int rate_unlimited(const struct rate *r)
{
	return r->gap == 0 && !r->recorded;
}

/*
 * Make r (set up by rate_init) follow the recorded times of n records
 * (not owned; sorted by time; outlive r) from its start. n 0: every
 * intended time is the start.
 */
void rate_recorded(struct rate *r, const struct trace_rec *rec, uint64_t n);

/*
 * The next intended time, ns, without advancing. Never decreases. 0 when
 * unlimited.
 */
static inline uint64_t rate_peek(const struct rate *r)
{
	if (r->recorded)
		return r->start + (r->n < r->nrec ? r->rec[r->n].t_ns :
				   r->nrec        ? r->rec[r->nrec - 1].t_ns :
						    0);
	return rate_unlimited(r) ? 0 : r->start + (uint64_t)r->elapsed;
}

/* The next intended time (as rate_peek), and advance to the one after. */
uint64_t rate_next(struct rate *r);

/*
 * The worker's issue rule, for a slot that is free at time now: returns 1
 * when an I/O is due, with *start set to the time its latency is measured
 * from (its intended time; now when unlimited) and the schedule advanced;
 * returns 0 when the next I/O is not due yet. A worker that falls behind
 * gets 1 with past intended times until it has caught up: the backlog is
 * issued as fast as slots free up, and its wait is counted in its latency.
 */
int rate_take(struct rate *r, uint64_t now, uint64_t *start);

/* Nanoseconds from now until the next I/O is due; 0 when due (or unlimited). */
uint64_t rate_wait_ns(const struct rate *r, uint64_t now);

/* The wire's distribution (proto.h PROTO_DIST_*, checked) as rate's. */
enum rate_dist rate_dist_of(uint32_t wire);

/* Schedule lag of a fixed rate's I/Os (worker.h): a sum, count and max. */
struct rate_lag {
	uint64_t sum, n, max;
};

/*
 * Count one I/O issued at now on the schedule: due at intended, with a
 * slot free since free_since. Its lag is now - max(intended, free_since)
 * (0 if now is earlier): the issuer's own lateness, not the wait for a
 * slot, which is the device's.
 */
static inline void rate_lag_add(struct rate_lag *l, uint64_t intended,
				uint64_t free_since, uint64_t now)
{
	uint64_t ready = intended > free_since ? intended : free_since;
	uint64_t lag = now > ready ? now - ready : 0;

	l->sum += lag;
	l->n++;
	if (lag > l->max)
		l->max = lag;
}

#endif
