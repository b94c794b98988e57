/*
 * The event runner of a failure-and-rebuild run (ev= lines): it starts each
 * event at its time, runs its exec= and polls its until= as child
 * processes without ever blocking the master's loop, tells which lost
 * slaves were expected, marks the intervals an event was active in, and at
 * the end computes each event's recovery figures (master/events/recovery.c) and
 * gives the results its column, events.csv and summary.json's "events"
 * (events_out.c, a sink of the results table).
 */
#ifndef LOCKSTEP_MASTER_EVENTS_H
#define LOCKSTEP_MASTER_EVENTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include "master/run/view.h"
#include "master/plan/evplan.h"
#include "master/events/child.h"
#include "master/events/recovery.h"
#include "master/results/results.h"

struct run_view;
struct slave_rec;
struct merge_row;
struct jsonw;

enum ev_status {
	EV_PENDING,   /* not started yet */
	EV_RUNNING,   /* exec= runs */
	EV_POLLING,   /* until= is polled */
	EV_OK,        /* exec= exited 0 and until= succeeded */
	EV_FAILED,    /* exec= failed or could not start */
	EV_TIMED_OUT, /* past timeout= (exec= killed, or until= never 0) */
	EV_NOT_RUN,   /* its time never came while the run went on */
	EV_CUT,       /* the run ended while it was still going */
};

/* A slave of an expect_loss= host lost after the event started. */
struct ev_loss {
	unsigned slave;     /* index into rv->roster->slaves */
	uint64_t lost_real; /* when it was marked lost */
	uint64_t back_real; /* when it came back (spoke, registered); 0: not */
	/*
	 * When it took part again: the master-clock start of its first
	 * interval back (inside the phase it was lost in, or at a later
	 * phase's start), 0: not (yet); the run (rv->ph->runs index, -1: none)
	 * and that run's interval (0-based; intervals.csv says rejoin_seq+1).
	 */
	uint64_t rejoin_real;
	int rejoin_run;
	unsigned rejoin_seq;
};

/* One slave's row of a measured interval (on time or late). */
struct ev_sample {
	uint32_t seq;   /* measured interval, from 0 */
	uint32_t slave; /* index into rv->roster->slaves */
	uint64_t ops;   /* every operation (plausible_ops): an fs phase's
			   creates, getattrs, ... as well as its reads */
};

/*
 * The measured intervals of a run as the recovery figures see them: the
 * cluster rows as written (their p99, whether anyone reported), and every
 * slave's row, late ones included, from which the figures take each
 * interval's IOPS (the numbers the run totals add up).
 */
struct ev_series {
	struct rec_point *pts;
	size_t n, cap;
	struct ev_sample *smp;
	size_t nsmp, capsmp;
};

struct ev_state {
	const struct params_ev *pe;
	struct evplan_ev plan;
	enum ev_status status;
	int run;               /* index into rv->ph->runs it started in, -1 */
	uint64_t planned_real; /* master CLOCK_REALTIME; 0 until known */
	uint64_t start_real, end_real;
	uint64_t deadline_mono; /* start + timeout= */
	pid_t exec_pid;         /* also its process group; 0: none */
	pid_t poll_pid;
	uint64_t poll_started_mono, poll_deadline_mono;
	uint64_t next_poll_mono;
	unsigned polls;
	/* until=probe: samples started from poll_since_real on count; the
	   newest the event looked at. */
	uint64_t poll_since_real;
	uint64_t probe_seen;
	int exit_code;        /* exec='s exit status; -1: none */
	struct child_log log; /* events/NAME.log, closed until the start */
	/*
	 * The read ends of the pipes its commands write their output to (the
	 * exec=, the last until= poll), -1 none: relayed into the log up to
	 * DECIDE_EVENT_LOG_BYTES, the rest counted in log.dropped.
	 */
	int relay[2];
	char why[192]; /* what went wrong, for the console and json */
	struct ev_loss *loss;
	unsigned nloss;
	int fig_ret; /* recovery_compute(): 0 or -errno */
	struct rec_figures fig;
	struct rec_event rev; /* what it was computed from */
	double absent_io;     /* recovery_absent_io() of its losses; -1 none */
};

struct events {
	struct ev_state *ev;
	size_t n;
	int stopped;
	struct ev_series *series; /* one per run (rv->ph->runs) */
	size_t nseries;
};

/*
 * Place the file's events on its plan (evplan_resolve) into *out, or NULL
 * when it has none. Returns 0, -EINVAL with "FILE:LINE:COL: message" in
 * err, or -ENOMEM.
 */
int events_new(const struct params *p, const struct plan_phase *ph, size_t nph,
	       struct events **out, char *err, size_t errlen);
/* Free and NULL *e (after events_stop); safe on NULL. */
void events_free(struct events **e);

/*
 * Start what is due, reap what exited, poll, time out: called from the
 * master's loop (link_pump); never waits for a child.
 */
void events_tick(const struct run_view *rv);
/*
 * The run is over: events not started are not run, running ones are cut
 * (their process groups killed), then every event's recovery figures are
 * computed.
 */
void events_stop(const struct run_view *rv);
/*
 * A slave was just marked lost (s->lost_real set): the name of the event
 * that expected it (its host is in an expect_loss= of an event that had
 * started), recorded there, or NULL for an unexpected loss.
 */
const char *events_loss_expected(const struct run_view *rv,
				 struct slave_rec *s);
/* A slave came back: an event with rejoin=yes notes when. */
void events_back(const struct run_view *rv, struct slave_rec *s);
/*
 * A slave's interval was counted (on time or late): kept for the recovery
 * figures when it is a measured one.
 */
struct proto_interval;
void events_sample(const struct run_view *rv, const struct slave_rec *s,
		   const struct proto_interval *iv);
/*
 * Of run r's shortfall from its iorate, the I/Os the expected losses of its
 * events explain (their figures computed now, from the series as it
 * stands); 0 without any.
 */
struct run_result;
double events_loss_explains(const struct run_view *rv,
			    const struct run_result *r);
/* The recovery block of the console and summary.txt (events_out.c);
   nothing without events. */
void events_recovery_text(const struct run_view *rv, FILE *f);
/*
 * A slave that came back takes part again from interval seq of run
 * (rv->ph->runs index), which starts at real (master clock): the loss records
 * of s that have no rejoin yet note it.
 */
void events_rejoined(const struct run_view *rv, struct slave_rec *s,
		     uint64_t real, int run, unsigned seq);
/* A cluster row of the run in progress: kept for the recovery figures
   (measured rows). */
void events_record_row(const struct run_view *rv, const struct merge_row *row,
		       double iops, double p99_ms);

/* The names (sep between them) of the events active in [start, end). */
void events_marks(const struct run_view *rv, uint64_t start_ns, uint64_t end_ns,
		  char sep, char *marks, size_t len);
/* The event whose ends= names e (it restores e), or NULL. */
const struct ev_state *events_restored_by(const struct events *E,
					  const struct ev_state *e);

/*
 * events_out.c: what the events give the results (a sink of its table,
 * master/results/sinks.c: the events column of intervals.csv, hosts/ and
 * the console, events.csv, summary.json's "events", summary.txt's
 * recovery block, the iorate= line's share the losses explain).
 */
const char *events_status_name(enum ev_status s);

#endif
