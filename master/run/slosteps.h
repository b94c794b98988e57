/*
 * The runs of an iorate=slo search (master/plan/slo.h is the search
 * itself, pure): what each run measured against the objective, kept in
 * its run_result, and the search replayed from those results - by the
 * conductor before each step (its rate, or skip it) and by the results
 * sink (sink_slo.c) to report the bracket and every step.
 */
#ifndef LOCKSTEP_MASTER_RUN_SLOSTEPS_H
#define LOCKSTEP_MASTER_RUN_SLOSTEPS_H

#include <stddef.h>
#include "master/plan/slo.h"

struct params;
struct run_result;
struct stats;
struct slave_rec;

/*
 * Fill r->slo and every slave's slo_ms from the run's totals (the merged
 * histograms, exact) and each slave's phase_end histograms (slaves[i] is
 * r->slave[i]'s roster record). Call once r's views are set, before the
 * totals go; a value that cannot be had is NaN. Nothing is kept.
 */
void slosteps_measure(const struct params *p, struct run_result *r,
		      const struct stats *totals,
		      const struct slave_rec *slaves);

/*
 * Replay the search of the slo-max run runs[max] with the step runs after
 * it up to (not including) runs[upto]: the steps that ran (done) in order.
 * Fills *out (slo.h); nothing is kept.
 */
void slosteps_search(const struct params *p, const struct run_result *runs,
		     size_t max, size_t upto, struct slo_search *out);

#endif
