/*
 * The decisions the conductor takes while it runs a phase, as pure
 * functions: data in, data out, time passed as an argument, no sockets,
 * clocks or globals, so each is tested in tests/test_decide.c. The
 * conductor copies what a decision needs of each slave into a
 * struct decide_slave and acts on the answer.
 */
#ifndef LOCKSTEP_MASTER_DECIDE_H
#define LOCKSTEP_MASTER_DECIDE_H

#include <stddef.h>
#include <stdint.h>
#include "common/hist.h"
#include "common/stats.h"

/* What a decision knows of one slave in the phase in progress. */
struct decide_slave {
	int in_phase;           /* it was sent a plan for this phase */
	int joined;             /* registered and not lost or gone */
	int go_acked;           /* it acknowledged go */
	int ended;              /* it sent phase_end */
	unsigned end_intervals; /* intervals it sent, from phase_end */
	uint64_t first_io;      /* its first I/O, master clock; 0 unknown */
	uint64_t clock_error;   /* its clock offset's error bound, ns */
	uint64_t last_tx;       /* when we last sent it anything */
};

enum decide_go {
	DECIDE_GO_DONE,   /* nothing to wait for from this slave */
	DECIDE_GO_WAIT,   /* go not acknowledged yet: keep waiting */
	DECIDE_GO_RESEND, /* not acknowledged and quiet: send go again */
};

/*
 * Whether the master still waits for slave s to acknowledge go, and
 * whether to re-send go now (nothing sent to it for resend_ns by now).
 */
enum decide_go decide_go(const struct decide_slave *s, uint64_t now,
			 uint64_t resend_ns);

/*
 * seekpct=eof: once every live slave of the phase ended it having sent
 * fewer than planned intervals, the phase is as long as the longest of
 * them. Returns that length when it is shorter than merged (the intervals
 * the merge expects now), else 0: nothing to truncate.
 */
unsigned decide_eof_truncate(const struct decide_slave *s, size_t n,
			     unsigned planned, unsigned merged);

/* Spread of the slaves' first I/O in the phase, in ns (0 if unknown). */
uint64_t decide_start_skew(const struct decide_slave *s, size_t n);
/*
 * How far the skew of decide_start_skew() may be from the truth: the clock
 * error bounds of the slaves whose first I/O was the earliest and the
 * latest (each first I/O is on the master's clock only within its slave's
 * bound), added; 0 if the skew is unknown.
 */
uint64_t decide_start_skew_bound(const struct decide_slave *s, size_t n);

/* Where a slave's clock samples stand while the master takes them. */
struct decide_ping {
	unsigned sent;    /* pings sent to it this phase */
	unsigned want;    /* pings to send in all */
	int answered;     /* the last ping sent was answered */
	uint64_t sent_at; /* when the last was sent (any clock) */
};

enum decide_ping_do {
	DECIDE_PING_DONE, /* every ping sent, the last answered or given up */
	DECIDE_PING_WAIT,
	DECIDE_PING_SEND,
};

/*
 * Whether to send a slave its next clock ping now: one in flight at a
 * time (a queued ping only measures the queue), at least gap after the
 * last, and a ping not answered within timeout is given up.
 */
enum decide_ping_do decide_ping(const struct decide_ping *p, uint64_t now,
				uint64_t gap, uint64_t timeout);

/*
 * Whether a curve point is skipped, given its curve-max phase (done, and
 * stopped by stopcurve=) and the rate the point would run at. *why says
 * why when it is skipped.
 */
int decide_curve_skip(int max_done, int max_stopped, double rate,
		      const char **why);
/* Whether a curve point's response time ends the curve (stopcurve=). */
int decide_curve_stop(double stopcurve_ms, double resp_ms);

/*
 * How long a slave waits without a word from the master before it stops
 * its I/O (welcome.mt), given --slave-timeout S: at least 10 s, and long
 * enough that a link outage the master rides out (shorter than S) does
 * not stop the slave. Its silence then lasts up to the master's last
 * quiet gap before the outage (2/5 of the timeout, QUIET_NS), the outage,
 * and TCP's retransmission backoff after it, which can hold the master's
 * next segment about as long again: 2/5 T + 2 S < T, T > 3.33 S. So
 * T = max(10 s, 4 S - 2 s): 10 s at the default 3 s, 58 s at 15 s.
 */
uint64_t decide_master_timeout(uint64_t slave_timeout_ns);

/* How far a fixed-rate run fell short of its iorate, in percent. */
double decide_shortfall_pct(double iorate, double iops);
/* Whether the console says the iorate was not reached (2% tolerated). */
int decide_iorate_missed(double iorate, double iops);
/*
 * The seconds a run's totals cover: its measured (non-warmup) intervals; 0
 * when it never got past its warmup.
 */
double decide_measured_s(unsigned intervals, unsigned warmup_intervals,
			 double interval_s);
/*
 * The intervals a run has once it is over: every planned one when it ran
 * to its end (cut 0), or, when a signal or a stop cut it short, only those
 * up to the last one a slave reported (reported): the rest were never run,
 * and counting them divided the measured I/Os by time nobody measured.
 */
unsigned decide_run_intervals(unsigned planned, unsigned reported, int cut);

/*
 * What one row of intervals.csv or hosts/<name>.csv, one .hgrm, one totals
 * block of the summaries and the log take at most, in bytes.
 */
#define DECIDE_ROW_BYTES 512
/* A cluster interval's rows of histograms.csv (some 40 buckets). */
#define DECIDE_MAP_BYTES 4096
#define DECIDE_HGRM_BYTES (64 * 1024)
#define DECIDE_TOTALS_BYTES 2048
#define DECIDE_LOG_BYTES (1024 * 1024)
/*
 * The most of an event's commands' output its events/NAME.log keeps (the
 * master relays it, master/events/events.c); the rest is counted, not written.
 */
#define DECIDE_EVENT_LOG_BYTES (16 * 1024 * 1024)
/*
 * Room the results of a run need at most: a cluster row and a row per
 * slave for each of intervals (every phase's, summed) and its histograms,
 * a .hgrm per run,
 * both summaries' totals per run and slave, half of it again as a margin,
 * the log, and the log of each of nevents ev= events at its cap.
 */
uint64_t decide_results_bytes(uint64_t intervals, unsigned runs,
			      unsigned nslaves, unsigned nevents);

/*
 * The slave's own histograms of the phase (phase_end, end_lat[2]) give its
 * percentiles only if they hold exactly the intervals the master counted
 * for it: same count, sum, min and max per direction. NULL if they do,
 * else why not (a static string).
 */
const char *decide_end_lat_mismatch(int ended,
				    const struct hist_sparse *end_lat,
				    const struct stats_sums *st);

/*
 * How the conductor's run ended, recorded by master.c once it returned
 * (RUN_GOING until then).
 */
enum run_end {
	RUN_GOING,
	RUN_RAN,         /* every phase ran */
	RUN_INTERRUPTED, /* SIGINT or SIGTERM */
	RUN_CANCELED,    /* stopped: a slave lost under
			    --on-slave-loss=abort, or failed; on_fail=abort */
	RUN_FAILED,      /* the set-up or the run failed */
};

/* What the comparison with --baseline found (the history hook). */
enum run_compare {
	COMPARE_NONE,        /* not asked for, or the run was already worse */
	COMPARE_REGRESSION,  /* worse than the baseline */
	COMPARE_NO_BASELINE, /* asked for and could not be made */
};

/*
 * What happened in a run that decides its exit code (decide_exit()):
 * each module records a fact where it sees it, none sets the code.
 */
struct run_facts {
	enum run_end end;
	/* Degrade a run: */
	unsigned slaves_lost;   /* lost, and no event expected the loss */
	unsigned suspect;       /* a slave's frames or figures were refused */
	unsigned io_errors;     /* a run had I/O errors (within data_errors) */
	unsigned mismatches;    /* data validation found mismatches */
	unsigned events_failed; /* an ev= event failed, timed out, was cut
				   short or not run, or a slave it expected
				   back did not rejoin */
	int left_out; /* hd= hosts --push failed on, left out (a run that
			 ran is complete for the hosts it had only) */
	/* Make a run that ran incomplete: */
	int results_incomplete; /* a results file was not written in full */
	int report_failed;      /* --report: report.html not written */
	int unsealed;           /* the summaries could not be rewritten with the
			 verdict: incomplete whatever the run was */
	enum run_compare compare;
	/* The --baseline verdict line, sealed into the summaries, or "". */
	char verdict[1024];
	/* Stop the run (link_pump() returns -ECANCELED): a slave was lost
	   under --on-slave-loss=abort or failed, an event on_fail=abort. */
	int stop_run;
};

/*
 * The exit code (common/exitcode.h) the facts so far give, in this order:
 * summaries not sealed 5; interrupted or canceled 2; failed 1; a results
 * file or report.html not whole 5; degraded 4; regression 3; no baseline
 * 6; else 0. Asked at any time: a fact recorded later can only make it
 * worse, as the order above says.
 */
int decide_exit(const struct run_facts *f);

/*
 * The slaves that run a slave-scope startcmd= or endcmd=: one joined
 * slave (joined[i]) of each host, the first in roster order of each hd=
 * line (hd[i] >= 0) and, among the slaves of no hd= line (--local-slaves),
 * of each host name (Vdbench's first slave on a host, Vdb/SlaveWorker.java).
 * Their indexes into pick, in roster order; returns how many.
 */
unsigned decide_cmd_slaves(const int *joined, const int *hd,
			   const char *const *host, unsigned n, unsigned *pick);

#endif
