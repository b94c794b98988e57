/*
 * The workload generator: given a slave's resolved plan, decides every
 * I/O's stream (wd), direction, size and offset. Pure and deterministic for a
 * seed; one instance per worker thread, so no locks. Slots are bound to a
 * target (an sd keeps its threads= I/Os in flight); when a slot frees up,
 * the next I/O goes to the same target, to a stream chosen among those that
 * use it by skew, like Vdbench. The generator's random numbers
 * (xoshiro256**) are shared with the rate scheduler and the data generator.
 */
#ifndef LOCKSTEP_SLAVE_WORKLOAD_H
#define LOCKSTEP_SLAVE_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>
#include "proto/proto.h"
#include "slave/dist.h"

#define WORKLOAD_XFER_MAX PROTO_MAX_XFER

/* workload_next's answer when the slot's target has finished its pass. */
#define WORKLOAD_EOF 1

/* xoshiro256** state; seed it with workload_rng_seed. */
struct workload_rng {
	uint64_t s[4];
};

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
	uint64_t rd_thresh;               /* rdpct scaled to 2^32 */
	uint64_t seek_thresh;             /* seekpct scaled to 2^32 */
	uint32_t align;     /* sequential alignment: gcd of the sizes */
	int eof;            /* seekpct=eof: one pass, then the target stops */
	uint64_t rh_thresh; /* rhpct scaled to 2^32: reads to the hit area */
	uint64_t wh_thresh; /* whpct scaled to 2^32 */
	/* stride=: a random I/O's gap after the previous end; max 0: none */
	uint64_t stride_min, stride_max;
};

/*
 * A skewed random_distribution= of one stream on one target: block b of
 * the distribution is the I/O at lo + b x unit. Or Vdbench's hot band
 * (band set): random I/O in [lo, hi) by slave/hotband.c, sequential I/O
 * of the stream in [slo, shi), the band or this worker's slice of it.
 */
struct workload_access {
	struct dist d;
	uint64_t lo;
	uint32_t unit;
	int band;
	uint64_t hi, slo, shi;
};

struct workload_choice {
	unsigned stream;
	uint64_t cum; /* cumulative weight scaled to 2^32 */
	/* A skewed random_distribution=; NULL: uniform over lo..hi. */
	struct workload_access *access;
};

struct replay_part; /* slave/replay.h */

struct workload_target {
	uint64_t base;   /* offset=: where the sd starts in the lun */
	uint64_t lo, hi; /* byte range [lo, hi) from base */
	uint32_t align;  /* align=: random offsets' alignment, 0 = size */
	/* The hit area [hlo, hhi) from base; 0, 0: none. */
	uint64_t hlo, hhi;
	unsigned nchoice;
	struct workload_choice *choice;
	int done; /* an eof stream finished its pass here */
	/*
	 * streams= (Vdbench's): nseq streams of seq_size bytes each from lo,
	 * one position each (seq_cur, WORKLOAD_SEQ_DONE once an eof pass
	 * ended); this generator runs streams seq_first, seq_first +
	 * seq_step, ... in turn (seq_rr), seq_live of them not done.
	 */
	unsigned nseq, seq_first, seq_step, seq_rr, seq_live;
	uint64_t seq_size;
	uint64_t *seq_cur;
	/*
	 * concatenatesds=yes: this target leads a concatenated stream; its
	 * lo..hi are of the whole space (base 0), whose ncat sds (plan
	 * targets cat[i], the leader first) end at cat_end[i] (concat.h).
	 * Each I/O goes to the sd its offset falls in. 0: none.
	 */
	unsigned ncat;
	unsigned *cat;
	uint64_t *cat_end;
	/* replay=: this generator's records of the target (owned); NULL. */
	struct replay_part *replay;
};

#define WORKLOAD_SEQ_DONE UINT64_MAX

struct workload {
	struct workload_rng rng;
	unsigned ntargets, nstreams;
	struct workload_target *targets;
	struct workload_stream *streams;
	uint64_t *cursor; /* sequential position per (target, stream) */
	uint32_t max_xfer;
};

/*
 * Build from a plan (only read; nothing of it is kept); target_size[i] is
 * the size in bytes of target i's lun or file, the sd being the part of it
 * from proto_target.offset on. A stream with proto_stream.eof set is
 * Vdbench's seekpct=eof (its seekpct is then not used). A target with a
 * hitarea takes its streams' rhpct/whpct share of reads/writes in the hit
 * area and every other I/O after it (Vdbench's miss area); a stream's
 * random_distribution spreads its random offsets over the whole range this
 * slave was given (the miss area), never a worker's slice of it, so the
 * hot blocks are the same for every worker; a stream with a hot band
 * (Vdbench's hotband=) keeps its random and sequential I/O in its band,
 * whatever the target's range. A concatenated stream (proto_stream.concat)
 * draws on the space of its targets' sizes added, through its first
 * target's slots, with that target's range of the space; each I/O is
 * then the sd's its offset falls in (io.target), never across two.
 * Returns 0, -EINVAL with a
 * message in err (a range smaller than a transfer size, a target no stream
 * uses, an offset past the end, an align that is not a multiple of 512, a
 * hit or miss area under 4 times the largest transfer, a hot band under
 * Vdbench's megabyte...), or -ENOMEM. The
 * generator owns its arrays: free them with workload_free.
 */
int workload_init(struct workload *w, const struct proto_plan *plan,
		  const uint64_t *target_size, uint64_t seed, char *err,
		  size_t errlen);
/* Free what workload_init allocated; safe on a zeroed or freed generator. */
void workload_free(struct workload *w);

/*
 * Narrow target t to slice k of n of its range (on max-transfer-size
 * boundaries), for the k-th of n workers sharing the target: sequential
 * streams and eof passes then cover the range once between them instead of
 * once each; a hot band's sequential part is sliced alike, its random
 * part keeps the whole band. A target with streams keeps its range: slice k runs its
 * streams k, k + n, ... Returns 0, or -EINVAL with a message when a slice
 * is smaller than a transfer (or n is more than the streams).
 */
int workload_slice(struct workload *w, const struct proto_plan *plan,
		   unsigned t, unsigned k, unsigned n, char *err,
		   size_t errlen);

/*
 * Next I/O for a slot bound to target: fills *io and returns 0. Returns
 * WORKLOAD_EOF with io->len = 0 once a seekpct=eof stream of the target has
 * made its one pass (the I/O that would cross the range's end is not
 * issued); from then on every call for that target does, so the slot should
 * stay idle. Offsets are the lun's (offset= included). Random ones are
 * aligned to align=, by default to the transfer size, counted from the sd's
 * start (so offset=512 makes every I/O misaligned, as in Vdbench), not from
 * the range's. Sequential ones continue from the previous I/O of
 * the same (target, stream), which all slots of the target share, like
 * Vdbench; they start, and wrap when the next transfer would cross the end,
 * at the range's first offset aligned to the stream's transfer size (the gcd
 * of its sizes). No allocation.
 */
int workload_next(struct workload *w, unsigned target, struct workload_io *io);

/*
 * Each stream's weight of the slave's I/O (weight[nstreams]): its skew,
 * or, for streams without one, an even part of what the others leave of
 * 100 (Vdbench's HandleSkew.spreadWdSkew).
 */
void workload_stream_weights(const struct proto_plan *plan, double *weight);

/* Uniform 64-bit random number from the generator's own state. */
uint64_t workload_rand(struct workload *w);

/* Seed g from a 64-bit seed (splitmix64 expansion, any seed is fine). */
void workload_rng_seed(struct workload_rng *g, uint64_t seed);

static inline uint64_t workload_rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* Uniform 64-bit random number (xoshiro256**): a few cycles, no state but g. */
static inline uint64_t workload_rng_next(struct workload_rng *g)
{
	uint64_t *s = g->s;
	uint64_t result = workload_rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = workload_rng_rotl(s[3], 45);
	return result;
}

#endif
