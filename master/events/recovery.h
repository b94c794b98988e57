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
 * The event's window (its span) is the intervals that end after start_s
 * and, when an end is given, no later than next_start_s: the caller ends it
 * where the next event of the run starts, except an event that restores
 * this one (ends=), which this window runs through. The interval the event
 * started in is the first of its window. Every figure "after" the event is
 * taken over the window; every figure that is not computed is -1 (null in
 * JSON, empty in CSV).
 *
 * The cluster series is the true one: each interval's IOPS count every
 * slave's row of it, late rows included. The slaves the event took away
 * (its losses) come with their own rows, so that what the slaves left
 * running did (the survivors: cluster minus the lost ones) is judged
 * against their own share of the baseline.
 */
#ifndef LOCKSTEP_MASTER_RECOVERY_H
#define LOCKSTEP_MASTER_RECOVERY_H

#include <stdbool.h>
#include <stddef.h>

struct rec_point {
	double iops;   /* cluster IOPS of the interval, >= 0 (a
			  file-system phase's: every operation per second) */
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

/* A slave the event took away (expect_loss=) and its own series. */
struct rec_loss {
	double lost_s;      /* when it was marked lost (series time) */
	double back_s;      /* when it came back, < 0 when it did not */
	const double *iops; /* its IOPS per interval (n of them), < 0 when
			       it sent no row of that interval */
};

struct rec_event {
	double start_s;      /* when the event started, inside the series */
	double end_s;        /* until= success; < 0 when none (no until, or
				timed out); may lie past the series end */
	double prev_end_s;   /* end of the previous event in the same run,
				< 0 when none: the baseline must not reach
				into it (a previous event that never ended is
				passed with the time it was given up) */
	double next_start_s; /* end of the window: the start of the next
				event in the same run that does not restore
				this one, < 0 when none (the series end) */
	const struct rec_loss *loss; /* the slaves it took away; NULL when
					nloss is 0 */
	size_t nloss;
	/* rejoin=yes: judged on the whole cluster; else, with a loss, on
	   the survivors. */
	bool expect_back;
	/* The run's fixed iorate=, 0 for max: the cluster is owed no more
	   than it was asked for, so io_lost and io_delayed count against
	   min(baseline, planned_iops). */
	double planned_iops;
};

enum rec_status {
	REC_RECOVERED = 0, /* degraded, then recovered (on the figure the
			      event is judged by: the whole cluster, or the
			      survivors when the lost slaves were not
			      expected back, rejoin=no) */
	REC_NOT_DEGRADED,  /* never below degrade_frac x baseline: nothing
			      to recover from */
	REC_NO_BASELINE,   /* no measured interval with I/O in the baseline
			       window (e.g. an event at t=0): the baseline
			       figures are -1 */
	REC_OVERLAP,       /* baseline window overlaps the previous event:
			       no baseline is invented, so the baseline,
			       time to degrade, time to recover and io_lost
			       are -1; worst_* and rebuild_s are given */
	REC_NOT_RECOVERED, /* degraded and never recovered in the window */
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
	double time_to_recover_survivors_s; /* the same, judged on the
					       survivors' IOPS against their
					       own baseline; equal to
					       time_to_recover_s without a
					       loss */
	double baseline_survivors_iops;     /* the baseline of the slaves it did
					   not take away (their rows) */
	double window_end_s; /* end of the window (series time) */
	/*
	 * I/O owed and paid back over the whole window, in I/Os: a backlog
	 * b grows by (baseline - iops) x interval_s each known interval and
	 * never falls below 0. io_lost is b at the window's end (what the
	 * cluster did not do, a catch-up included); io_delayed is the
	 * deficit (the sum of max(0, baseline - iops) x interval_s) minus
	 * io_lost: what was late and caught up. < 0 without a baseline.
	 */
	double io_lost;
	double io_delayed;
	/*
	 * What the lost slaves did not do while away: over the window's
	 * intervals from the event's first on (once back and doing its
	 * share it adds nothing), max(0, its baseline - its IOPS) x
	 * interval_s, in I/Os, at most io_lost. 0 without a loss; < 0 without a baseline.
	 */
	double io_lost_expected;
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
 * a loss without its series or back before lost, parameters out of
 * range); @out is untouched then. The caller owns
 * everything; nothing is kept.
 */
int recovery_compute(const struct rec_point *pts, size_t n, double interval_s,
		     const struct rec_event *ev, const struct rec_params *p,
		     struct rec_figures *out);

/*
 * The I/Os @ev's lost slaves did not do from its start to the series'
 * end (not bounded by a next event: a fixed-rate
 * run's shortfall is told against it), each against its own mean over the
 * baseline window (no overlap test: what a slave does is its own). Into
 * *out; returns 0 or -EINVAL as recovery_compute().
 */
int recovery_absent_io(const struct rec_point *pts, size_t n, double interval_s,
		       const struct rec_event *ev, const struct rec_params *p,
		       double *out);

#endif
