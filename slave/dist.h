/*
 * Skewed access distributions (wd random_distribution=, fio's): which
 * block of a range a random I/O goes to when some blocks are hotter than
 * others. A draw is in two steps, as in fio: a rank from the distribution
 * (zipf and pareto by fio's own formulas, so a fio user gets the skew he
 * knows; normal as a true normal curve, sigma in percent of the range), and
 * the rank's block through a fixed permutation of the range, so the hot
 * blocks are scattered over it instead of packed at its start. The
 * permutation depends only on the key and the block count, so every worker
 * and every slave given the same sd agree on which blocks are hot. Pure: no
 * state changes after dist_init, no allocation, a few dozen nanoseconds a
 * draw (one pow() for zipf and pareto). fio's zoned distribution is here
 * too: a zone by its share of the I/O, then a block of the zone, uniformly;
 * its zones lie in order from the range's start and are not scattered, as
 * in fio.
 */
#ifndef LOCKSTEP_SLAVE_DIST_H
#define LOCKSTEP_SLAVE_DIST_H

#include <stdint.h>
#include "proto/proto.h"

/* One zone of a zoned distribution. */
struct dist_zone {
	unsigned __int128 end; /* the draws below it (of 2^64) land here */
	uint64_t first, count; /* its blocks */
	double scale;          /* count / its share of the 2^64 draws */
};

struct dist {
	uint32_t kind; /* enum proto_access */
	uint64_t n;    /* blocks */
	/* The permutation of [0, n): cycle-walking over [0, mask]. */
	uint64_t mask, key;
	unsigned shift;
	/* zipf (Gray et al., as fio's lib/zipf.c) */
	double zetan, zeta2, half_theta, alpha, eta;
	double pareto_pow; /* pareto: log(h) / log(1 - h), as fio */
	double sigma;      /* normal: standard deviation in blocks */
	unsigned nzones;   /* zoned: its zones, in order */
	struct dist_zone zones[PROTO_MAX_ZONES];
};

/*
 * Set d up for kind (enum proto_access) with its parameter arg over n
 * blocks (n >= 1); key picks the permutation. Returns 0, or -EINVAL for a
 * parameter out of its range (zipf theta > 0 and not 1, pareto 0 < h < 1,
 * normal 0 < sigma <= 100) or an unknown kind (zoned has its own init).
 */
int dist_init(struct dist *d, uint32_t kind, double arg, uint64_t n,
	      uint64_t key);

/*
 * Set d up as fio's zoned distribution over n blocks (n >= 1): zone i takes
 * z[i].io percent of the draws, uniformly over its z[i].range percent of
 * the blocks (fio's arithmetic: it starts at n times the percent before
 * it over 100 and holds n times its own over 100, one block at least).
 * Returns 0, or -EINVAL unless the io shares add up to 100, the range
 * shares to at most 100, every zone with I/O has some range and there are
 * 1 to PROTO_MAX_ZONES zones.
 */
int dist_init_zoned(struct dist *d, const struct proto_zone *z, unsigned nz,
		    uint64_t n);

/*
 * The rank (0 = hottest; normal: the position; zoned: the block) a uniform
 * 64-bit r draws.
 */
uint64_t dist_rank(const struct dist *d, uint64_t r);

/* The block of a rank: a permutation of [0, n). */
uint64_t dist_place(const struct dist *d, uint64_t rank);

/* A block in [0, n) drawn from the uniform 64-bit r. */
static inline uint64_t dist_next(const struct dist *d, uint64_t r)
{
	if (d->kind == PROTO_ACCESS_ZONED)
		return dist_rank(d, r);
	return dist_place(d, dist_rank(d, r));
}

/* sum_{i=1..n} i^-theta, exact to double precision (Euler-Maclaurin tail). */
double dist_zeta(uint64_t n, double theta);

/* A 64-bit key from a name (FNV-1a), for dist_init. */
uint64_t dist_key(const char *name);

#endif
