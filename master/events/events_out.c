/*
 * What the events of a failure-and-rebuild run give the results, as a
 * sink of the results table (master/results/sinks.c, sink.h): the events
 * column of intervals.csv, hosts/<name>.csv and the console (the names of
 * the events active in each interval, ';' between them, and their count),
 * events.csv (one row per event: its timeline and outcome, written once
 * at the end, whole, through the results' atomic writer), the "events"
 * array of summary.json (the same, the losses it explained and its
 * recovery figures), the recovery block of summary.txt, and the share of
 * a missed iorate= the expected losses explain. The results module never
 * calls in here: it walks its table.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/fsops.h"
#include "common/timeutil.h"
#include "master/events/events.h"
#include "common/jsonw.h"
#include "master/run/master_int.h"
#include "master/results/sink.h"
#include "common/log.h"

const char *events_status_name(enum ev_status s)
{
	static const char *const names[] = {
		[EV_PENDING] = "pending", [EV_RUNNING] = "running",
		[EV_POLLING] = "polling", [EV_OK] = "completed",
		[EV_FAILED] = "failed",   [EV_TIMED_OUT] = "timed_out",
		[EV_NOT_RUN] = "not_run", [EV_CUT] = "cut",
	};

	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}

/* A figure in seconds or a count; negative ones ("never") are null. */
static void json_fig(struct jsonw *w, const char *key, double v)
{
	jsonw_dbl(w, key, v < 0 ? NAN : v);
}

static const char *rec_status_name(enum rec_status s)
{
	switch (s) {
	case REC_RECOVERED:
		return "recovered";
	case REC_NOT_DEGRADED:
		return "not_degraded";
	case REC_NO_BASELINE:
		return "no_baseline";
	case REC_OVERLAP:
		return "overlap";
	case REC_NOT_RECOVERED:
		return "not_recovered";
	}
	return "?";
}

/* The figures of an event, in the order events.csv and the JSON give them. */
struct fig_col {
	const char *name;
	size_t off; /* of a double in struct rec_figures */
};

#define FIG_COL(f)                                  \
	{                                           \
#f, offsetof(struct rec_figures, f) \
	}
static const struct fig_col fig_cols[] = {
	FIG_COL(baseline_iops),
	FIG_COL(baseline_survivors_iops),
	FIG_COL(baseline_p99_us),
	FIG_COL(worst_iops),
	FIG_COL(worst_iops_at_s),
	FIG_COL(worst_p99_us),
	FIG_COL(worst_p99_at_s),
	FIG_COL(time_to_degrade_s),
	FIG_COL(time_to_recover_survivors_s),
	FIG_COL(time_to_recover_s),
	FIG_COL(rebuild_s),
	FIG_COL(io_lost),
	FIG_COL(io_delayed),
	FIG_COL(io_lost_expected),
};
#define NFIG_COLS (sizeof(fig_cols) / sizeof(fig_cols[0]))

static double fig_at(const struct rec_figures *f, size_t i)
{
	double v;

	memcpy(&v, (const char *)f + fig_cols[i].off, sizeof(v));
	return v;
}

/* Whether e has figures of its own (it started, restores nothing, and
   they could be computed). */
static const struct rec_figures *figures_of(const struct ev_state *e)
{
	return e->fig_ret < 0 ? NULL : &e->fig;
}

/* "exec", "until" or "exec+until": what the event does. */
static const char *kind_of(const struct params_ev *pe)
{
	if (pe->exec[0] && pe->until[0])
		return "exec+until";
	return pe->exec[0] ? "exec" : "until";
}

static const char *run_of(const struct run_view *rv, const struct ev_state *e)
{
	if (e->run >= 0)
		return rv->ph->runs[e->run].ph.name;
	if (e->plan.phase >= 0)
		return rv->ph->runs[e->plan.phase].ph.name;
	return "";
}

static double duration_s(const struct ev_state *e)
{
	if (!e->start_real || e->end_real < e->start_real)
		return NAN;
	return (double)(e->end_real - e->start_real) / 1e9;
}

/* A phase name (an rd name may hold a quote) as one CSV field. */
static void csv_quoted(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/*
 * An event's recovery columns: its status (`restore` for an ends= event,
 * whose figures are in the event it restores), the restore its window ran
 * through, and the figures; one that did not happen is empty.
 */
static void csv_figures(const struct run_view *rv, FILE *f,
			const struct ev_state *e)
{
	const struct rec_figures *fg = figures_of(e);
	const struct ev_state *by = events_restored_by(rv->events, e);

	if (e->pe->ends >= 0)
		fprintf(f, "restore,%s,", rv->events->ev[e->pe->ends].pe->name);
	else if (fg)
		fprintf(f, "%s,%s,%.3f", rec_status_name(fg->status),
			by ? by->pe->name : "", fg->window_end_s);
	else
		fputs(",,", f);
	for (size_t i = 0; i < NFIG_COLS; i++) {
		double v = fg ? fig_at(fg, i) : -1;

		fputc(',', f);
		if (v >= 0)
			fprintf(f, "%.3f", v);
	}
	fputc('\n', f);
}

static int events_write_csv(const struct run_view *rv)
{
	struct events *E = rv->events;
	struct rfile out;
	FILE *f;
	int ret;

	if (!E)
		return 0;
	ret = results_atomic_open(rv, "events.csv", &out);
	if (ret < 0)
		return ret;
	if ((f = results_w(&out))) {
		fputs("name,run,kind,planned_ns,start_ns,end_ns,status,"
		      "exit_code,duration_s,log,recovery,window_through,"
		      "window_end_s",
		      f);
		for (size_t i = 0; i < NFIG_COLS; i++)
			fprintf(f, ",%s", fig_cols[i].name);
		fputc('\n', f);
		for (size_t i = 0; i < E->n; i++) {
			const struct ev_state *e = &E->ev[i];
			double d = duration_s(e);

			fprintf(f, "%s,", e->pe->name);
			csv_quoted(f, run_of(rv, e));
			fprintf(f, ",%s,%llu,%llu,%llu,%s,", kind_of(e->pe),
				(unsigned long long)e->planned_real,
				(unsigned long long)e->start_real,
				(unsigned long long)e->end_real,
				events_status_name(e->status));
			if (e->exit_code >= 0)
				fprintf(f, "%d", e->exit_code);
			fputc(',', f);
			if (!isnan(d))
				fprintf(f, "%.3f", d);
			fprintf(f, ",%s,", e->log.name);
			csv_figures(rv, f, e);
		}
	}
	results_wrote(rv, &out);
	return results_atomic_commit(rv, &out, "events.csv");
}

static void json_time(struct jsonw *w, const char *key, uint64_t t)
{
	char iso[40];

	if (t)
		jsonw_str(w, key, time_fmt_iso(t, iso, sizeof(iso)));
}

/*
 * Whether e's run is a file-system phase: its figures count every
 * operation (reads, writes, creates, getattrs, ...), not I/Os.
 */
static int fs_run(const struct run_view *rv, const struct ev_state *e)
{
	return e->run >= 0 && rv->ph->runs[e->run].ph.fs;
}

/* "judged on": what the status says recovered, or not. */
static const char *judged_on(const struct ev_state *e)
{
	return !e->nloss || e->pe->rejoin ? "cluster" : "survivors";
}

static void json_figures(const struct run_view *rv, struct jsonw *w,
			 const struct ev_state *e)
{
	const struct rec_figures *f = figures_of(e);
	const struct ev_state *by = events_restored_by(rv->events, e);

	if (e->pe->ends >= 0) {
		jsonw_object(w, "recovery");
		jsonw_str(w, "status", "restore");
		jsonw_str(w, "figures_in",
			  rv->events->ev[e->pe->ends].pe->name);
		jsonw_end(w);
		return;
	}
	if (!f) {
		jsonw_dbl(w, "recovery", NAN);
		jsonw_str(w, "recovery_error",
			  e->fig_ret == -ENODATA ? "the event did not start" :
						   strerror(-e->fig_ret));
		return;
	}
	jsonw_object(w, "recovery");
	jsonw_str(w, "status", rec_status_name(f->status));
	jsonw_str(w, "judged_on", judged_on(e));
	/* What the *_iops figures and io_* count per second or in all. */
	jsonw_str(w, "counts", fs_run(rv, e) ? "operations" : "ios");
	jsonw_dbl(w, "start_s", e->rev.start_s);
	jsonw_dbl(w, "window_start_s", e->rev.start_s);
	jsonw_dbl(w, "window_end_s", f->window_end_s);
	if (by)
		jsonw_str(w, "window_through", by->pe->name);
	else
		jsonw_dbl(w, "window_through", NAN);
	jsonw_dbl(w, "baseline_s", e->pe->baseline_s);
	jsonw_u64(w, "baseline_intervals", f->baseline_n);
	for (size_t i = 0; i < NFIG_COLS; i++)
		json_fig(w, fig_cols[i].name, fig_at(f, i));
	jsonw_end(w);
}

static void events_summary_json(const struct run_view *rv, struct jsonw *w)
{
	struct events *E = rv->events;

	jsonw_array(w, "events");
	for (size_t i = 0; E && i < E->n; i++) {
		const struct ev_state *e = &E->ev[i];

		jsonw_object(w, NULL);
		jsonw_str(w, "name", e->pe->name);
		jsonw_str(w, "run", run_of(rv, e));
		jsonw_str(w, "kind", kind_of(e->pe));
		jsonw_str(w, "status", events_status_name(e->status));
		if (e->why[0])
			jsonw_str(w, "reason", e->why);
		jsonw_u64(w, "planned_ns", e->planned_real);
		jsonw_u64(w, "start_ns", e->start_real);
		jsonw_u64(w, "end_ns", e->end_real);
		json_time(w, "started", e->start_real);
		json_time(w, "ended", e->end_real);
		jsonw_dbl(w, "duration_s", duration_s(e));
		if (e->exit_code >= 0)
			jsonw_i64(w, "exit_code", e->exit_code);
		jsonw_u64(w, "polls", e->polls);
		jsonw_str(w, "log", e->log.name);
		/* Its commands' output kept there, and what the cap left out. */
		jsonw_u64(w, "log_bytes", e->log.kept);
		jsonw_u64(w, "log_dropped_bytes", e->log.dropped);
		jsonw_array(w, "expected_losses");
		for (unsigned k = 0; k < e->nloss; k++) {
			const struct ev_loss *l = &e->loss[k];

			jsonw_object(w, NULL);
			jsonw_str(w, "slave",
				  rv->roster->slaves[l->slave].hello.name);
			json_time(w, "lost_at", l->lost_real);
			json_time(w, "back_at", l->back_real);
			json_time(w, "rejoined_at", l->rejoin_real);
			if (l->rejoin_real && l->rejoin_run >= 0) {
				jsonw_str(w, "rejoined_run",
					  rv->ph->runs[l->rejoin_run].ph.name);
				jsonw_u64(w, "rejoined_interval",
					  l->rejoin_seq + 1);
			}
			if (e->pe->rejoin)
				jsonw_bool(w, "rejoined", l->rejoin_real != 0);
			jsonw_end(w);
		}
		jsonw_end(w);
		json_figures(rv, w, e);
		jsonw_end(w);
	}
	jsonw_end(w);
}

/* ---- the recovery block of the console and summary.txt ------------------ */

/* v as "%.*f unit", or "-" when it did not happen (< 0). */
static const char *txt(char *buf, size_t len, double v, int prec,
		       const char *unit)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.*f%s", prec, v, unit);
	return buf;
}

static void recovery_lines(const struct run_view *rv, FILE *f,
			   const struct ev_state *e)
{
	const struct rec_figures *g = figures_of(e);
	const struct ev_state *by = events_restored_by(rv->events, e);
	char a[48], b[48], c[48], d[48];
	/* A file-system phase's figures count all its operations. */
	const char *rate = fs_run(rv, e) ? "ops/s" : "IO/s";

	if (e->pe->ends >= 0) {
		fprintf(f, "  %s: restores %s (its figures, above or below)\n",
			e->pe->name, rv->events->ev[e->pe->ends].pe->name);
		return;
	}
	if (!g) {
		fprintf(f, "  %s: no figures: %s\n", e->pe->name,
			e->fig_ret == -ENODATA ? "the event did not start" :
						 strerror(-e->fig_ret));
		return;
	}
	fprintf(f, "  %s (%s): %s, judged on the %s; window %.1f-%.1f s%s%s\n",
		e->pe->name, run_of(rv, e), rec_status_name(g->status),
		judged_on(e), e->rev.start_s, g->window_end_s,
		by ? " through " : "", by ? by->pe->name : "");
	if (g->baseline_iops < 0)
		return;
	fprintf(f,
		"    baseline %.1f %s (survivors %.1f), p99 %s over %u intervals\n",
		g->baseline_iops, rate, g->baseline_survivors_iops,
		txt(a, sizeof(a), g->baseline_p99_us / 1000, 3, " ms"),
		g->baseline_n);
	fprintf(f, "    worst %s %s at %s, p99 %s at %s\n",
		txt(a, sizeof(a), g->worst_iops, 1, ""), rate,
		txt(b, sizeof(b), g->worst_iops_at_s, 1, " s"),
		txt(c, sizeof(c),
		    g->worst_p99_us < 0 ? -1 : g->worst_p99_us / 1000, 3,
		    " ms"),
		txt(d, sizeof(d), g->worst_p99_at_s, 1, " s"));
	fprintf(f,
		"    time to degrade %s, to recover %s (survivors %s), rebuild %s\n",
		txt(a, sizeof(a), g->time_to_degrade_s, 1, " s"),
		txt(b, sizeof(b), g->time_to_recover_s, 1, " s"),
		txt(c, sizeof(c), g->time_to_recover_survivors_s, 1, " s"),
		txt(d, sizeof(d), g->rebuild_s, 1, " s"));
	fprintf(f,
		"    %s lost %.0f (%.0f by the expected losses), delayed and caught up %.0f\n",
		fs_run(rv, e) ? "operations" : "I/O", g->io_lost,
		g->io_lost_expected, g->io_delayed);
}

void events_recovery_text(const struct run_view *rv, FILE *f)
{
	struct events *E = rv->events;

	if (!E || !E->n)
		return;
	fprintf(f,
		"Recovery figures (seconds from the start of each run's measured time):\n");
	for (size_t i = 0; i < E->n; i++)
		recovery_lines(rv, f, &E->ev[i]);
	fprintf(f, "\n");
	fflush(f);
}

/* ---- the sink ---------------------------------------------------------- */

/* How many names marks holds (';' between them). */
static int marks_count(const char *marks)
{
	int n = 0;

	if (*marks)
		for (n = 1; *marks; marks++)
			n += *marks == ';';
	return n;
}

static void ev_cell(const struct run_view *rv, void *priv,
		    const struct sink_row *r, char *buf, size_t len, int *count)
{
	(void)priv;
	events_marks(rv, r->row->start_ns, r->row->end_ns, ';', buf, len);
	*count = rv->events ? marks_count(buf) : -1;
}

static void ev_row(const struct run_view *rv, void *priv,
		   const struct sink_row *r)
{
	double iops = r->v.iops, p99_ms = r->v.p99_ms;

	(void)priv;
	/* A file-system phase: every operation, as its slaves' series
	   (events_sample) counts them, and their p99 together. */
	if (r->fs) {
		iops = 0;
		for (unsigned op = 0; op < FSOPS_N; op++)
			iops += r->fs->op[op].rate;
		p99_ms = (double)fsops_percentile_all(r->row->fs, r->row->stats,
						      99) /
			 1e6;
	}
	events_record_row(rv, r->row, iops, p99_ms);
}

static void ev_slave_cell(const struct run_view *rv, void *priv,
			  const struct sink_slave_row *r, char *buf, size_t len)
{
	(void)priv;
	events_marks(rv, r->iv->start_ns, r->iv->end_ns, ';', buf, len);
}

static void ev_slave_row(const struct run_view *rv, void *priv,
			 const struct sink_slave_row *r)
{
	(void)priv;
	events_sample(rv, r->s, r->iv);
}

static int ev_console_column(const struct run_view *rv, void *priv)
{
	(void)priv;
	return rv->events != NULL;
}

/*
 * iorate= not reached: how much of it the slaves its events were expected
 * to take away explain (what they did not do while away, from their own
 * rows; see events_loss_explains()).
 */
static void ev_shortfall(const struct run_view *rv, void *priv,
			 const struct run_result *r, FILE *f)
{
	double measured = (double)(r->ph.intervals - r->ph.warmup_intervals) *
			  r->ph.interval_s;
	double short_ops = (r->ph.iorate - r->view.iops) * measured;
	double lost;

	(void)priv;
	/* fwdrate= counts an fwd's operations, the events' figures every
	   operation (a read's open and close too): not one unit. */
	if (r->ph.fs)
		return;
	lost = events_loss_explains(rv, r);
	if (lost > 0 && short_ops > 0)
		fprintf(f,
			"; the expected losses explain %.1f%% of it (their share not done: %.0f I/Os, of %.0f short)",
			fmin(100, 100 * lost / short_ops), lost, short_ops);
}

static void ev_summary_json(const struct run_view *rv, void *priv,
			    struct jsonw *w)
{
	(void)priv;
	events_summary_json(rv, w);
}

static void ev_summary_txt(const struct run_view *rv, void *priv, FILE *f)
{
	(void)priv;
	events_recovery_text(rv, f);
}

static int ev_write(const struct run_view *rv, void *priv)
{
	int ret = events_write_csv(rv);

	(void)priv;
	if (ret < 0)
		log_error("cannot write events.csv");
	return ret;
}

const struct sink_ops sink_events = {
	.name = "events",
	.column = "events",
	.cell = ev_cell,
	.row = ev_row,
	.slave_cell = ev_slave_cell,
	.slave_row = ev_slave_row,
	.console_column = ev_console_column,
	.shortfall = ev_shortfall,
	.summary_json = ev_summary_json,
	.summary_txt = ev_summary_txt,
	.write = ev_write,
};
