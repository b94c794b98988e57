/*
 * The workload generator: given a slave's resolved plan, decides every
 * I/O's stream (wd), direction, size and offset. Pure and deterministic for a
 * seed; one instance per worker thread, so no locks. Slots are bound to a
 * target (an sd keeps its threads= I/Os in flight); when a slot frees up,
 * the next I/O goes to the same target, to a stream chosen among those that
 * use it by skew, like Vdbench.
 */
#ifndef LOCKSTEP_SLAVE_WORKLOAD_H
#define LOCKSTEP_SLAVE_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>
#include "proto/proto.h"

#define WORKLOAD_XFER_MAX PROTO_MAX_XFER

struct workload_io {
	unsigned target;
	unsigned stream;
	int write;
	uint32_t len;
	uint64_t offset;
};

struct workload_stream {
	unsigned nxfer;
	uint32_t xsize[WORKLOAD_XFER_MAX];
	uint64_t xcum[WORKLOAD_XFER_MAX]; /* cumulative share, scaled 2^32 */
	uint64_t rd_thresh;   /* rdpct scaled to 2^32 */
	uint64_t seek_thresh; /* seekpct scaled to 2^32 */
};

struct workload_choice {
	unsigned stream;
	uint64_t cum;         /* cumulative weight scaled to 2^32 */
};

struct workload_target {
	uint64_t lo, hi;      /* byte range [lo, hi) */
	unsigned nchoice;
	struct workload_choice *choice;
};

struct workload {
	uint64_t rng[4];
	unsigned ntargets, nstreams;
	struct workload_target *targets;
	struct workload_stream *streams;
	uint64_t *cursor;     /* sequential position per (target, stream) */
	uint32_t max_xfer;
};

/*
 * Build from a plan; target_size[i] is target i's usable size in bytes.
 * Returns 0, -EINVAL with a message in err (a range smaller than a transfer
 * size, a target no stream uses...), or -ENOMEM. Free with workload_free.
 */
int workload_init(struct workload *w, const struct proto_plan *plan,
		  const uint64_t *target_size, uint64_t seed, char *err,
		  size_t errlen);
void workload_free(struct workload *w);

/* Next I/O for a slot bound to target. */
void workload_next(struct workload *w, unsigned target,
		   struct workload_io *io);

/* Uniform 64-bit random number (xoshiro256**). */
uint64_t workload_rand(struct workload *w);

#endif
