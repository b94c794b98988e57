/*
 * recovery: the figures of a failure-and-rebuild event, computed from the
 * cluster's interval series alone (pure; no I/O, no clock). The conductor
 * feeds it the series of the run an event belongs to; results write what it
 * returns into events.csv and summary.json. docs/DESIGN.md ("Recovery
 * figures") is the definition users read; this header says the same in
 * the terms of the code.
 *
 * Times are seconds from the start of the run's measured series (interval k
 * covers [k*interval_s, (k+1)*interval_s)). An interval with no data (no
 * slave reported) has ops_known == false and is skipped by every figure:
 * not counted as zero, not counted as good, and it does not break a run of
 * good intervals either; its iops and p99_us are not read.
 *
 * The event's span is the intervals that end after start_s and, when a next
 * event is given, no later than next_start_s: each interval belongs to the
 * last event that started before it ended. The interval the event started
 * in is the first of its span. Every figure "after" the event is taken over
 * the span; every figure that is not computed is -1.
 */
#ifndef LOCKSTEP_MASTER_RECOVERY_H
#define LOCKSTEP_MASTER_RECOVERY_H

#include <stdbool.h>
#include <stddef.h>

struct rec_point {
	double iops;   /* cluster IOPS of the interval, >= 0 */
	double p99_us; /* cluster p99 latency of the interval, microseconds;
			  < 0 when unknown (no percentiles from the slaves).
			  Ignored when iops == 0: no I/O completed, so no
			  latency was measured */
	bool ops_known;
};

struct rec_params {
	double baseline_s;       /* window before the event (default 60), > 0 */
	double degrade_frac;     /* degraded below this x baseline IOPS (0.90),
				   in (0, 1] */
	double recover_iops_tol; /* IOPS within +-this of baseline (0.10),
				    in [0, 1] */
	double recover_p99_tol;  /* p99 at most (1 + this) x baseline (0.20),
				   >= 0 */
	unsigned recover_n;      /* consecutive good intervals (10), >= 1 */
};

struct rec_event {
	double start_s;      /* when the event started, inside the series */
	double end_s;        /* until= success; < 0 when none (no until, or
				timed out); may lie past the series end */
	double prev_end_s;   /* end of the previous event in the same run,
				< 0 when none: the baseline must not reach
				into it (a previous event that never ended is
				passed with the time it was given up) */
	double next_start_s; /* start of the next event in the same run, < 0
				when none: recovery is looked for before it */
};

enum rec_status {
	REC_OK = 0,        /* figures computed */
	REC_NO_BASELINE,   /* no measured interval with I/O in the baseline
			       window (e.g. an event at t=0): the baseline
			       figures are -1 */
	REC_OVERLAP,       /* baseline window overlaps the previous event:
			       no baseline is invented, so the baseline,
			       time to degrade, time to recover and io_lost
			       are -1; worst_* and rebuild_s are given */
	REC_NOT_RECOVERED, /* degraded and never recovered in the span */
};

struct rec_figures {
	enum rec_status status;
	unsigned baseline_n;    /* known intervals in the baseline (0 when
				   none) */
	double baseline_iops;   /* mean IOPS of those intervals */
	double baseline_p99_us; /* mean p99 of those with I/O and a known
				   p99; -1 when none: recovery then tests
				   IOPS alone */
	double worst_iops;      /* lowest interval IOPS in the span; -1 when
				   the span has no known interval */
	double worst_iops_at_s; /* start of that interval (series time);
				   the earliest on a tie */
	double worst_p99_us;    /* highest interval p99 in the span */
	double worst_p99_at_s;
	double time_to_degrade_s; /* from start to the start of the first
				     interval below degrade_frac x baseline
				     (0 when the interval the event started
				     in is); < 0 never */
	double time_to_recover_s; /* from start to the start of the first of
				     recover_n good intervals after the first
				     degraded one; < 0 never, or never
				     degraded (nothing to recover from) */
	double rebuild_s;         /* end_s - start_s, < 0 without an end */
	double io_lost;           /* sum over the span's known intervals from
				   the event's first to recovery (or the
				   span's end) of max(0, baseline - iops)
				   x interval_s, in I/Os. 0 when it never
				   degraded (a dip under the degrade
				   threshold is not told apart from noise);
				   < 0 without a baseline */
};

/* Defaults named in the issue and the README. */
void recovery_defaults(struct rec_params *p);

/*
 * Compute the figures of @ev over @n points of @interval_s seconds each.
 * A good interval has IOPS within recover_iops_tol x baseline of the
 * baseline (above it too: a backlog draining is not steady state) and, when
 * both are known, p99 at most (1 + recover_p99_tol) x the baseline's (a
 * lower latency is no sign of trouble). Returns 0, or -EINVAL for a bad
 * argument (interval_s <= 0, a NaN or infinity anywhere read, a value
 * past 10^15 (IOPS, microseconds, seconds), a negative IOPS, a start
 * outside the series, an end before the start, a next event before it,
 * parameters out of range); @out is untouched then. The caller owns
 * everything; nothing is kept.
 */
int recovery_compute(const struct rec_point *pts, size_t n, double interval_s,
		     const struct rec_event *ev, const struct rec_params *p,
		     struct rec_figures *out);

#endif
