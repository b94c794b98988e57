/*
 * A sink: one output of `lockstep run` (a file of the results folder, the
 * console, the live export) as a row of the table in sinks.c. The entry
 * points of results.c walk the table in its order and call each hook a
 * sink has; a hook it does not need is NULL. A sink's own state is
 * priv_size bytes, zeroed by results_open() and freed by results_close();
 * every hook gets it as priv. Files are written only through the checked
 * writer of results.h (results_w/results_wrote, results_atomic_*).
 *
 * A column provider (events) gives intervals.csv and hosts/<name>.csv a
 * column at their end: its name in column, its cell for each row filled
 * by cell / slave_cell before any row hook runs, so that the sinks that
 * write rows never call into the module the column comes from.
 */
#ifndef LOCKSTEP_MASTER_RESULTS_SINK_H
#define LOCKSTEP_MASTER_RESULTS_SINK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "master/run/view.h"
#include "common/fsops.h"
#include "common/stats.h"
#include "master/plan/plan.h"

struct run_view;
struct slave_rec;
struct run_result;
struct merge_row;
struct proto_interval;
struct stats;
struct jsonw;
struct history_seal;

#define SINK_CELL_MAX 512

/* A phase starts: Vdbench's "Starting RD=" line and the time of day. */
struct sink_phase {
	uint64_t now;
	char tod[32];
	char line[PLAN_NAME_MAX * 2 + 128];
};

/* One merged interval, as every sink sees it. */
struct sink_row {
	const struct merge_row *row;
	struct stats_view v;
	char label[32]; /* the interval number, as the console says it */
	/* The column providers' cells (',' between them), and how many
	   things the console's last column counts (-1: no such column). */
	char cells[SINK_CELL_MAX];
	int count;
	/* A file-system phase's operations (common/fsops.h), else NULL. */
	const struct fsops_view *fs;
};

/* One slave's interval (on time, or late after its cluster row). */
struct sink_slave_row {
	struct slave_rec *s;
	const struct proto_interval *iv;
	const char *note; /* "warmup" or "measure" */
	int late;
	struct stats_view v;
	uint64_t now; /* when it arrived */
	char cells[SINK_CELL_MAX];
};

/* A run's end: its totals (NULL: it did not end well) and avg_ label. */
struct sink_run_end {
	struct run_result *r;
	const struct stats *totals;
	char label[32];
};

struct sink_ops {
	const char *name;
	size_t priv_size;
	/* A column provider: its header (intervals.csv, hosts/), or NULL. */
	const char *column;
	/* results_open: 0 or -errno (said why), the run does not start. */
	int (*open)(const struct run_view *rv, void *priv);
	void (*phase_start)(const struct run_view *rv, void *priv,
			    const struct sink_phase *p);
	/* Column providers: the row's cell into buf (len bytes, "" none). */
	void (*cell)(const struct run_view *rv, void *priv,
		     const struct sink_row *r, char *buf, size_t len,
		     int *count);
	void (*slave_cell)(const struct run_view *rv, void *priv,
			   const struct sink_slave_row *r, char *buf,
			   size_t len);
	/* Whether the console shows the provider's count (phase header). */
	int (*console_column)(const struct run_view *rv, void *priv);
	void (*row)(const struct run_view *rv, void *priv,
		    const struct sink_row *r);
	void (*slave_row)(const struct run_view *rv, void *priv,
			  const struct sink_slave_row *r);
	void (*run_end)(const struct run_view *rv, void *priv,
			const struct sink_run_end *e);
	/* The console's "iorate= not reached" line of run r: more of it. */
	void (*shortfall)(const struct run_view *rv, void *priv,
			  const struct run_result *r, FILE *f);
	/* summary.json's keys and summary.txt's block the sink adds. */
	void (*summary_json)(const struct run_view *rv, void *priv,
			     struct jsonw *w);
	void (*summary_txt)(const struct run_view *rv, void *priv, FILE *f);
	/* Keys the sink adds to run r's object in summary.json's "runs". */
	void (*run_json)(const struct run_view *rv, void *priv,
			 const struct run_result *r, struct jsonw *w);
	/* Lines the sink adds to run r's block in summary.txt (after the
	   HCIBench lines, which HCIBench's parsers read: none of theirs). */
	void (*run_txt)(const struct run_view *rv, void *priv,
			const struct run_result *r, FILE *f);
	/* The run is over: say what is left, flush, sync and close. */
	void (*end)(const struct run_view *rv, void *priv);
	/* Then, every data file closed: a file written whole (0 or -errno). */
	int (*write)(const struct run_view *rv, void *priv);
	/*
	 * The verdict is known (results_seal, after the history hook
	 * compared the run): seal writes what the summaries must account
	 * for (compare.*), then the summaries are rewritten with the
	 * verdict, then sealed draws what is made from the sealed folder
	 * (report.html). A failure goes through the writer (incomplete) or
	 * into the facts; the summaries are rewritten once more if it
	 * changed the exit code.
	 */
	void (*seal)(const struct run_view *rv, void *priv,
		     const struct history_seal *s);
	void (*sealed)(const struct run_view *rv, void *priv,
		       const struct history_seal *s);
	/* Close without sync (an error path too) and free what it holds. */
	void (*close)(const struct run_view *rv, void *priv);
};

/* The table (sinks.c): every sink, in the order the hooks are called. */
extern const struct sink_ops *const results_sinks[];
extern const size_t results_nsinks;

/* The state of the sink ops in this run (NULL before results_open). */
void *results_priv(const struct run_view *rv, const struct sink_ops *ops);
/* The console, a progress line on it erased first. */
FILE *results_stdout(const struct run_view *rv);
/* intervals.csv's and hosts/'s header: fmt's columns and the providers'. */
void results_csv_header(const struct run_view *rv, FILE *f);
/*
 * Run idx's steady-state verdict (sink_steady.c), once its run_end hook
 * ran: 1 steady, 0 not, -1 not judged (*why says why).
 */
int sink_steady_verdict(const struct run_view *rv, size_t idx,
			const char **why);
/*
 * The measured rate run r's iorate= (fwdrate=) is held against: its I/Os
 * a second, or in a file-system phase its requested operations' (Vdbench's
 * ReqstdOps: a getattr fwd's getattrs, which do no I/O) (sink_console.c).
 */
double sink_run_rate(const struct run_result *r);

#endif
