/*
 * What the events of a failure-and-rebuild run leave in the results
 * folder: events.csv (one row per event: its timeline and outcome) and the
 * "events" array of summary.json (the same, the losses it explained and
 * its recovery figures). events.csv is written once at the end, whole,
 * through the results' atomic writer.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/timeutil.h"
#include "master/events.h"
#include "master/jsonw.h"
#include "master/master_int.h"
#include "master/report.h"

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

/* "exec", "until" or "exec+until": what the event does. */
static const char *kind_of(const struct params_ev *pe)
{
	if (pe->exec[0] && pe->until[0])
		return "exec+until";
	return pe->exec[0] ? "exec" : "until";
}

static const char *run_of(struct master *m, const struct ev_state *e)
{
	if (e->run >= 0)
		return m->runs[e->run].ph.name;
	if (e->plan.phase >= 0)
		return m->runs[e->plan.phase].ph.name;
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

int events_write_csv(struct master *m)
{
	struct events *E = m->events;
	struct rfile out;
	FILE *f;
	int ret;

	if (!E)
		return 0;
	ret = results_atomic_open(m, "events.csv", &out);
	if (ret < 0)
		return ret;
	if ((f = results_w(&out))) {
		fputs("name,run,kind,planned_ns,start_ns,end_ns,status,"
		      "exit_code,duration_s,log\n",
		      f);
		for (size_t i = 0; i < E->n; i++) {
			const struct ev_state *e = &E->ev[i];
			double d = duration_s(e);

			fprintf(f, "%s,", e->pe->name);
			csv_quoted(f, run_of(m, e));
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
			fprintf(f, ",%s\n", e->log);
		}
	}
	results_wrote(m, &out);
	return results_atomic_commit(m, &out, "events.csv");
}

static void json_time(struct jsonw *w, const char *key, uint64_t t)
{
	char iso[40];

	if (t)
		jsonw_str(w, key, time_fmt_iso(t, iso, sizeof(iso)));
}

/* A figure in seconds or a count; negative ones ("never") are null. */
static void json_fig(struct jsonw *w, const char *key, double v)
{
	jsonw_dbl(w, key, v < 0 ? NAN : v);
}

static const char *rec_status_name(enum rec_status s)
{
	switch (s) {
	case REC_OK:
		return "ok";
	case REC_NO_BASELINE:
		return "no_baseline";
	case REC_OVERLAP:
		return "overlap";
	case REC_NOT_RECOVERED:
		return "not_recovered";
	}
	return "?";
}

static void json_figures(struct jsonw *w, const struct ev_state *e)
{
	const struct rec_figures *f = &e->fig;

	if (e->fig_ret < 0) {
		jsonw_dbl(w, "recovery", NAN);
		jsonw_str(w, "recovery_error",
			  e->fig_ret == -ENODATA ? "the event did not start" :
						   strerror(-e->fig_ret));
		return;
	}
	jsonw_object(w, "recovery");
	jsonw_str(w, "status", rec_status_name(f->status));
	jsonw_dbl(w, "start_s", e->rev.start_s);
	jsonw_dbl(w, "baseline_s", e->pe->baseline_s);
	jsonw_u64(w, "baseline_intervals", f->baseline_n);
	jsonw_dbl(w, "baseline_iops", f->baseline_iops);
	jsonw_dbl(w, "baseline_p99_us", f->baseline_p99_us);
	jsonw_dbl(w, "worst_iops", f->worst_iops);
	jsonw_dbl(w, "worst_iops_at_s", f->worst_iops_at_s);
	jsonw_dbl(w, "worst_p99_us", f->worst_p99_us);
	jsonw_dbl(w, "worst_p99_at_s", f->worst_p99_at_s);
	json_fig(w, "time_to_degrade_s", f->time_to_degrade_s);
	json_fig(w, "time_to_recover_s", f->time_to_recover_s);
	json_fig(w, "rebuild_s", f->rebuild_s);
	jsonw_dbl(w, "io_lost", f->io_lost);
	jsonw_end(w);
}

void events_summary_json(struct master *m, struct jsonw *w)
{
	struct events *E = m->events;

	jsonw_array(w, "events");
	for (size_t i = 0; E && i < E->n; i++) {
		const struct ev_state *e = &E->ev[i];

		jsonw_object(w, NULL);
		jsonw_str(w, "name", e->pe->name);
		jsonw_str(w, "run", run_of(m, e));
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
		jsonw_str(w, "log", e->log);
		jsonw_array(w, "expected_losses");
		for (unsigned k = 0; k < e->nloss; k++) {
			const struct ev_loss *l = &e->loss[k];

			jsonw_object(w, NULL);
			jsonw_str(w, "slave", m->slaves[l->slave].hello.name);
			json_time(w, "lost_at", l->lost_real);
			json_time(w, "rejoined_at", l->back_real);
			if (e->pe->rejoin)
				jsonw_bool(w, "rejoined", l->back_real != 0);
			jsonw_end(w);
		}
		jsonw_end(w);
		json_figures(w, e);
		jsonw_end(w);
	}
	jsonw_end(w);
}

/* ---- the events column of intervals.csv --------------------------------- */

/*
 * A line another reporter wrote into buf (n bytes, ending in a newline),
 * written to f with sep and tail before that newline. These lines come
 * once an interval (the slaves' own files, which are many, keep the fast
 * path of report.c untouched).
 */
static void with_tail(FILE *f, char *buf, size_t n, const char *sep,
		      const char *tail)
{
	if (n && buf[n - 1] == '\n')
		n--;
	fwrite(buf, 1, n, f);
	fprintf(f, "%s%s\n", sep, tail);
}

void events_csv_header(FILE *f)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *mf = open_memstream(&buf, &n);

	if (!mf)
		return;
	report_csv_header(mf);
	fclose(mf);
	with_tail(f, buf, n, ",", "events");
	fflush(f);
	free(buf);
}

void events_csv_row(FILE *f, const char *run, unsigned interval,
		    const char *phase, uint64_t start_ns, uint64_t end_ns,
		    unsigned reported, unsigned expected,
		    const struct stats_view *v, uint64_t emitted_ns,
		    const char *events)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *mf = open_memstream(&buf, &n);

	if (!mf)
		return;
	report_csv_row(mf, run, interval, phase, start_ns, end_ns, reported,
		       expected, v, emitted_ns);
	fclose(mf);
	with_tail(f, buf, n, ",", events);
	free(buf);
}
