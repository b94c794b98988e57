/*
 * recovery: the figures of a failure-and-rebuild event, computed from the
 * cluster's interval series alone (pure; no I/O, no clock). The conductor
 * feeds it the series of the run an event belongs to; results write what it
 * returns into events.csv and summary.json.
 *
 * Times are seconds from the start of the run's measured series (interval k
 * covers [k*interval_s, (k+1)*interval_s)). An interval with no data (no
 * slave reported) has ops_known == false and is skipped by every figure.
 */
#ifndef LOCKSTEP_MASTER_RECOVERY_H
#define LOCKSTEP_MASTER_RECOVERY_H

#include <stdbool.h>
#include <stddef.h>

struct rec_point {
	double iops;   /* cluster IOPS of the interval */
	double p99_us; /* cluster p99 latency of the interval, microseconds */
	bool ops_known;
};

struct rec_params {
	double baseline_s;	/* window before the event (default 60) */
	double degrade_frac;	/* degraded below this x baseline IOPS (0.90) */
	double recover_iops_tol; /* IOPS within this of baseline (0.10) */
	double recover_p99_tol;	/* p99 within this of baseline (0.20) */
	unsigned recover_n;	/* consecutive good intervals (10) */
};

struct rec_event {
	double start_s;	     /* when the event started */
	double end_s;	     /* until= success; < 0 when none (no until, or
				timed out) */
	double prev_end_s;   /* end of the previous event in the same run,
				< 0 when none: the baseline must not reach
				into it */
	double next_start_s; /* start of the next event in the same run, < 0
				when none: recovery is looked for before it */
};

enum rec_status {
	REC_OK = 0,	    /* figures computed */
	REC_NO_BASELINE,    /* no measured interval before the event */
	REC_OVERLAP,	    /* baseline window overlaps the previous event */
	REC_NOT_RECOVERED,  /* degraded and never recovered in the series */
};

struct rec_figures {
	enum rec_status status;
	unsigned baseline_n;	/* intervals in the baseline */
	double baseline_iops;
	double baseline_p99_us;
	double worst_iops;	/* lowest interval IOPS at or after start */
	double worst_iops_at_s;
	double worst_p99_us;	/* highest interval p99 at or after start */
	double worst_p99_at_s;
	double time_to_degrade_s; /* first interval below degrade_frac x
				     baseline, from start; < 0 never */
	double time_to_recover_s; /* from start to the first of recover_n
				     good intervals after degrading; < 0
				     never (or never degraded) */
	double rebuild_s;	/* end_s - start_s, < 0 without an end */
	double io_lost;		/* sum over intervals from start to recovery
				   (or series end) of max(0, baseline - iops)
				   x interval_s, in I/Os */
};

/* Defaults named in the issue and the README. */
void recovery_defaults(struct rec_params *p);

/*
 * Compute the figures of @ev over @n points of @interval_s seconds each.
 * Returns 0, or -EINVAL for a bad argument (interval_s <= 0, a NaN, a start
 * outside the series, parameters out of range).
 */
int recovery_compute(const struct rec_point *pts, size_t n,
		     double interval_s, const struct rec_event *ev,
		     const struct rec_params *p, struct rec_figures *out);

#endif
