/*
 * The results layer of `lockstep run` (docs/DESIGN.md section 6): the
 * results folder, the console and the live export as one table of sinks
 * (sink.h, the table in sinks.c), the few entry points the conductor and
 * the link call, and the one checked writer (struct rfile, writer.c)
 * through which every file of the folder is written.
 */
#ifndef LOCKSTEP_MASTER_RESULTS_RESULTS_H
#define LOCKSTEP_MASTER_RESULTS_RESULTS_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include "master/run/view.h"
#include "master/export/export.h"
#include "proto/proto.h"

struct run_view;
struct slave_rec;
struct run_result;
struct merge_row;
struct stats;
struct jsonw;
struct params;
struct proto_plan;
struct proto_phase_end;

/*
 * One file of the results folder, written only through the checked writer
 * (writer.c): the first failed write, flush, fsync or close is kept in
 * err, the file is not written after it (what is there stays a clean
 * prefix), and its name goes on the run's list of incomplete files.
 */
struct rfile {
	FILE *f;
	char *name; /* its path inside the results folder (malloc'd) */
	int err;    /* the first error, -errno; 0 while it is whole */
};

/*
 * Descriptors kept open on /dev/null from the start, and closed just before
 * the master opens a file it could not open earlier (a run's .hgrm, the
 * summaries and their folder's fsync): a run that many peers brought to
 * its descriptor limit still has these to write its results with.
 */
#define RESULTS_FD_RESERVE 4

/* A signature a slave overwrote because its sd says force=yes. */
struct forced_rec {
	char slave[PROTO_NAME_LEN];
	char sd[PROTO_NAME_LEN];
	char signature[PROTO_SIG_LEN];
	const char *lun; /* the sd's lun= (in rv->params) */
};

/* A sink of the table and its own state (sink_ops.priv_size bytes). */
struct sink_ops;
struct sink_slot {
	const struct sink_ops *ops;
	void *priv;
};

/* The results folder, the console and the live export (results/). */
struct results_state {
	char dir[PATH_MAX];
	FILE *log;
	struct sink_slot *sinks; /* the table's sinks, in its order */
	size_t nsinks;
	int fd_reserve[RESULTS_FD_RESERVE]; /* descriptor + 1; 0 if none */
	int dir_lock; /* DIR/.lock, flock()ed while the run writes; fd + 1 */
	char **incomplete; /* result files not written in full */
	size_t nincomplete;
	int any_incomplete;        /* even one the list could not hold */
	int progress_shown;        /* a progress line waits to be erased */
	int tty;                   /* stdout is a terminal */
	struct forced_rec *forced; /* summary.json "forced", once each */
	unsigned nforced;
	/* Live export (master/export/), and what it sent and lost. */
	struct export_set *exp;
	struct export_counts exp_counts[EXPORT_NSINKS];
};

/* ---- results.c: the entry points, each a walk of the sink table ---- */

/*
 * Create the results folder (and hosts/), lock it, start the log there,
 * then open every sink (the copied parameter file, intervals.csv,
 * flatfile.html, ...). Returns 0 or -errno (said why).
 */
int results_open(const struct run_view *rv);
/*
 * Before the first phase: whether the results folder's filesystem has
 * room for the planned rows. Warns, or with --require-space returns
 * -ENOSPC (said why); 0 otherwise.
 */
int results_check_space(const struct run_view *rv);
/* A phase starts: the console's column header (and Vdbench's files'). */
void results_phase_start(const struct run_view *rv);
/* One merged interval: to every sink (console, intervals.csv, ...). */
void results_row(const struct run_view *rv, const struct merge_row *row);
/*
 * One slave's interval: to every sink (hosts/<name>.csv, intervals.csv
 * as a late row when late, the export).
 */
void results_slave_row(const struct run_view *rv, struct slave_rec *s,
		       const struct proto_interval *iv, const char *note,
		       int late);
/*
 * A run's end: its .hgrm file, its totals on the console and in the
 * files that keep them. totals: the merged totals, NULL when the run did
 * not end well (only its validation line is said then).
 */
void results_run_end(const struct run_view *rv, struct run_result *r,
		     const struct stats *totals);
/*
 * The end of it all: every sink's end (lost slaves on the console, every
 * data file flushed, synced and closed), then the files written whole at
 * the end (events.csv, summary.txt, fio.json, summary.json). A result
 * file not written in full is named on the console and in summary.json
 * (or on stderr when that cannot be written) and makes the exit code
 * LS_EXIT_INCOMPLETE unless it was already worse.
 */
void results_finish(const struct run_view *rv);
/*
 * The history hook's comparison and verdict are known (after
 * results_finish): record them in the facts, write what depends on them
 * through the sinks' seal and sealed hooks (compare.*, report.html) and
 * the summaries again with the verdict, so that the folder says the exit
 * code returned (5 when any of that could not be written).
 */
struct history_seal;
int results_seal(const struct run_view *rv, const struct history_seal *s);
/* Close every file the sinks opened and free them (no sync). */
void results_close(const struct run_view *rv);

/* ---- sink_hosts.c: hosts/<name>.csv, opened as slaves come ---- */

/*
 * Open hosts/<name>.csv of every slave name the run expects, before any
 * slave is admitted. Returns 0 or -errno (said why).
 */
int results_open_expected(const struct run_view *rv);
/*
 * The hosts/<name>.csv of a slave about to be registered (opened before,
 * or now) into *out. Returns 0 or -errno: the slave is then refused.
 * Once registered as rv->roster->slaves[idx], results_slave_file() hands
 * the file to the sink, which owns it from then on; a slave refused
 * after all gets results_discard().
 */
int results_open_slave(const struct run_view *rv, const char *name,
		       struct rfile *out);
void results_slave_file(const struct run_view *rv, unsigned idx,
			struct rfile *f);
/* Close and remove a results file (a slave refused after all). */
void results_discard(const struct run_view *rv, struct rfile *r);
/* Flush the hosts/ files every HOSTS_FLUSH_NS, or now with force. */
void results_flush_hosts(const struct run_view *rv, int force);

/* ---- writer.c: the checked writer, the only way into the folder ---- */

/*
 * Open the file rel of the results folder (a symbolic link there is not
 * followed) into *r. Returns 0 or -errno (nothing recorded: the caller
 * says what a file that cannot be opened means).
 */
int results_file_open(const struct run_view *rv, const char *rel,
		      struct rfile *r);
/*
 * Open DIR/sub/file for appending, unbuffered (each write goes to the file
 * as it is made), sub created inside the folder and neither followed if a
 * link: what an event's log is written through. 0 or -errno.
 */
int results_file_open_in(const struct run_view *rv, const char *sub,
			 const char *file, struct rfile *r);
/*
 * A file being written: its FILE to write to, or NULL when it is closed or
 * already failed (write nothing then). Call results_wrote() after.
 */
FILE *results_w(struct rfile *r);
/* After writes through results_w(): keep the first error. */
void results_wrote(const struct run_view *rv, struct rfile *r);
/* Flush r (a failure is kept and named). */
void results_flush(const struct run_view *rv, struct rfile *r);
/* Flush, fsync (with sync) and close r; any failure is kept and named. */
void results_file_close(const struct run_view *rv, struct rfile *r, int sync);
/*
 * A file written whole at the end, atomically: results_atomic_open() opens
 * a temporary file in the folder into *r, results_atomic_commit() flushes,
 * fsyncs and renames it into place and fsyncs the folder. On any error the
 * temporary file is removed, nothing is renamed and name is recorded as
 * incomplete. Both return 0 or -errno.
 */
int results_atomic_open(const struct run_view *rv, const char *name,
			struct rfile *r);
int results_atomic_commit(const struct run_view *rv, struct rfile *r,
			  const char *name);
/* Give up an atomic file before its commit: nothing is left of it, and
   it is not named incomplete (the caller says why it is missing). */
void results_atomic_abort(const struct run_view *rv, struct rfile *r,
			  const char *name);
/* Record that the result file name is incomplete (err: why, -errno). */
void results_incomplete(const struct run_view *rv, const char *name, int err);
/* A lost result file makes a run that ran exit LS_EXIT_INCOMPLETE. */
void results_exit_incomplete(const struct run_view *rv);
/* The descriptor reserve: give one back before an open, refill, free. */
void results_reserve_use(const struct run_view *rv);
void results_reserve_fill(const struct run_view *rv);
void results_reserve_free(const struct run_view *rv);
/* "completed", "degraded", "aborted" or "failed" for an exit code. */
const char *results_status_name(int code);

/* ---- the files written whole at the end (also after a verdict) ---- */

/* sink_summary_json.c, sink_summary_txt.c (0 or -errno). */
int results_summary_json(const struct run_view *rv);
int results_summary_txt(const struct run_view *rv);
/* sink_console.c: one line per slave that was lost during the run. */
void results_report_lost(const struct run_view *rv, FILE *f);

/* ---- sink_export.c: the live export ---- */

/* Start the export's sinks asked for (0, or -errno said why). */
int results_export_open(const struct run_view *rv);

/*
 * ---- results_validate.c: data validation ----
 * results_validation_plan: the params sd index of each target of plan,
 * into *sd (malloc'd, the caller's; NULL when plan has none), its threads
 * into *thr (in the same allocation: free *sd only) and their count into
 * *nsd; 0 or -ENOMEM. results_validation_end: a slave's phase_end counters
 * (decoded, so they sum up and no sd has more mismatches than verified
 * blocks) into s's end_val and, per sd, into r (may be NULL); -EINVAL with
 * the reason in why, adding nothing, when a vs[].t is not a target of s's
 * plan or the counts would wrap r's, or -ENOMEM. results_validation_json:
 * r's "validation" object in summary.json with val (the run's or a
 * slave's counters, per sd only with the run's); results_validation_nothing:
 * whether validate=yes verified nothing in any run. The line after a run's
 * totals and the warning at the end are the validation sink's.
 */
int results_validation_plan(const struct params *p,
			    const struct proto_plan *plan, unsigned **sd,
			    unsigned **thr, unsigned *nsd);
int results_validation_end(const struct run_view *rv, struct run_result *r,
			   struct slave_rec *s,
			   const struct proto_phase_end *pe, char *why,
			   size_t whylen);
void results_validation_json(const struct run_view *rv,
			     const struct run_result *r, struct jsonw *w,
			     const uint64_t val[3], int per_sd);
int results_validation_nothing(const struct run_view *rv);

#endif
