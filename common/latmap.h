/*
 * The latency heat map's buckets (histograms.csv, the report's heat map):
 * quarter octaves, each [lo, hi) with hi = lo x 5/4, 3/2, 7/4 or 2 of its
 * octave's start. Every bucket of common/hist.h's histograms lies inside
 * one of them (the histogram's buckets are 1/128 of an octave and aligned),
 * so folding a histogram into them moves no count across a bound: the map
 * is exact at its resolution. Pure functions (tests/test_latmap.c).
 */
#ifndef LOCKSTEP_COMMON_LATMAP_H
#define LOCKSTEP_COMMON_LATMAP_H

#include <stdint.h>
#include "common/hist.h"

/* Values 0..3 are a bucket each; then 4 buckets per octave up to 2^64. */
#define LATMAP_BUCKETS 252

/* The bucket of a latency of v ns. */
unsigned latmap_bucket(uint64_t v);
/* Its bounds: lo <= v < hi (hi is UINT64_MAX for the last bucket). */
uint64_t latmap_lo(unsigned q);
uint64_t latmap_hi(unsigned q);
/* Add a histogram's counts into out[LATMAP_BUCKETS]. */
void latmap_add(uint64_t *out, const struct hist *h);
void latmap_add_sparse(uint64_t *out, const struct hist_sparse *h);

#endif
