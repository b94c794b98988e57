/*
 * A worker's interval buffer (struct worker_interval of worker.h): made
 * once with its histograms, its per-target histograms when the phase
 * splits latency per target, folded into its read and write totals when
 * the session thread takes it, cleared when it is given back, freed at
 * the end. Memory only: no threads, no clocks. The hot path records into
 * a buffer; everything here runs off it (at set-up, or on the session
 * thread), except wival_new() for a third buffer when the session thread
 * falls behind.
 */
#ifndef LOCKSTEP_SLAVE_WIVAL_H
#define LOCKSTEP_SLAVE_WIVAL_H

#include "slave/worker.h"

/*
 * A cleared interval seq of ntargets targets, recording per target when
 * nsplit > 1 (split_target[j]: the plan target of pair j, not owned, kept
 * by pointer; nsplit 1: lat is its one target's), or NULL (no memory).
 * The caller owns it: wival_free().
 */
struct worker_interval *wival_new(unsigned seq, unsigned ntargets,
				  unsigned nsplit,
				  const unsigned *split_target);
/* Free iv and what it owns; NULL is fine. */
void wival_free(struct worker_interval *iv);
/* Free a list linked by next. */
void wival_free_list(struct worker_interval *iv);
/* Add iv's per-target histograms into its read and write ones (lat). */
void wival_fold(struct worker_interval *iv);
/* Clear iv for a later interval: counts, histograms, errors. */
void wival_clear(struct worker_interval *iv);

#endif
