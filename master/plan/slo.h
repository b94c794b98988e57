/*
 * The SLO search of iorate=slo (pure): the highest cluster rate whose
 * measured latency (a percentile of every I/O, or the mean) meets slo=.
 *
 * The plan is a max phase (PLAN_SLO_MAX), then slo_steps_max() step phases
 * (PLAN_SLO_STEP) whose rates are unknown until they start. The max run
 * opens the bracket: lo = 0 (no rate met yet), hi = its measured rate. If
 * the max run meets the objective, the answer is that rate and no step
 * runs. Otherwise each step runs at the middle of [lo, hi] (rounded to a
 * readable number), and moves lo up to its rate when it meets the
 * objective, hi down to it when it does not. The search is done when
 * hi - lo <= precision x max: the answer is lo, the truth within the
 * bracket (for a latency that rises with the rate). If lo is still 0 then,
 * even the lowest rate tried failed: nothing meets the objective.
 *
 * A step meets the objective when its measured value is at most the
 * objective and it reached its rate: a run that fell more than
 * SLO_SHORT_PCT short of its rate was not run at that rate, so it says
 * nothing good about it and counts as failing.
 *
 * The conductor replays the search (slo_search) from the steps run so far
 * before each step phase, to get its rate or to skip it; the results sink
 * replays it the same way to report the bracket and every step.
 */
#ifndef LOCKSTEP_MASTER_PLAN_SLO_H
#define LOCKSTEP_MASTER_PLAN_SLO_H

#include <stddef.h>
#include "common/hist.h"
#include "common/stats.h"

/* A step that reached less than its rate minus this (percent) fails. */
#define SLO_SHORT_PCT 3.0
/* Steps planned beyond the halvings the precision needs (rounding). */
#define SLO_MARGIN 2

/* How one run (the max or a step) fared against the objective. */
enum slo_verdict {
	SLO_MEETS,   /* its value is at most the objective, its rate reached */
	SLO_OVER,    /* its value is above the objective */
	SLO_SHORT,   /* it fell more than SLO_SHORT_PCT short of its rate */
	SLO_UNKNOWN, /* no I/O, or no value: the search cannot go on */
};

/* Where a search stands. */
enum slo_end {
	SLO_GOING,      /* next is the rate of the next step */
	SLO_FOUND,      /* the bracket is within the precision: lo */
	SLO_MAX_MEETS,  /* the max run meets the objective: its rate */
	SLO_NONE_MEETS, /* even the lowest rate tried (hi) fails */
	SLO_NO_STEPS,   /* the planned steps ran out first: lo, wider */
	SLO_NO_MAX,     /* the max run gave no rate or value */
	SLO_STOPPED,    /* a step could not be judged: lo, as far as known */
};

/* A run of the search as measured. */
struct slo_run {
	double rate;     /* the step's fixed rate (the max: its iops) */
	double iops;     /* the cluster's measured rate */
	double value_ms; /* the measured percentile or mean, NaN unknown */
};

struct slo_search {
	enum slo_end end;
	double max;    /* the max run's rate */
	double lo, hi; /* highest rate that met (0: none), lowest that failed */
	double next;   /* SLO_GOING: the next step's rate */
	unsigned done; /* steps judged */
};

/* The number of step phases planned for a precision (percent of max). */
unsigned slo_steps_max(double precision_pct);

/* Judge one run: target_ms the objective; a max run has rate 0. */
enum slo_verdict slo_judge(double target_ms, const struct slo_run *r);
/* "meets", "over", "short of its rate", "not measured". */
const char *slo_verdict_name(enum slo_verdict v);

/*
 * Replay a search: max is the max run, steps[0..n) the steps run so far
 * in order, nplanned the step phases planned (slo_steps_max), precision
 * in percent of the max run's rate. Fills *out; nothing is kept.
 */
void slo_search(double target_ms, double precision_pct, unsigned nplanned,
		const struct slo_run *max, const struct slo_run *steps,
		size_t n, struct slo_search *out);

/*
 * The objective's value of a latency histogram in ms: percentile pct of
 * it, or its mean when pct < 0 (PARAMS_SLO_MEAN). NaN when it is empty.
 */
double slo_value_ms(double pct, const struct hist *h);
/*
 * The same of a slave's phase_end histograms (reads and writes, sparse
 * and validated). NaN when empty or out of memory.
 */
double slo_value_sparse_ms(double pct, const struct hist_sparse *lat);

/* The objective as written back: "p99<=2ms", "mean<=500us". */
void slo_name(double pct, double target_ms, char *buf, size_t len);

#endif
