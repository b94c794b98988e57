/*
 * The knee of every iorate=curve (knee.h): on the console after the
 * curve's last point, in summary.json ("curves") and in summary.txt (a
 * block). A curve's points are its curve-point runs that ran and ended
 * well, in the order they ran, with the IOPS and mean response time
 * their totals measured; its curve-max run is not a point (it ran
 * uncontrolled, at whatever queue depth the threads made). The last
 * point is the last of the curve in the plan, or the one whose response
 * time passed stopcurve= (the points after it are skipped).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "common/jsonw.h"
#include "master/run/master_int.h"
#include "master/results/knee.h"
#include "master/results/sink.h"

#define KNEE_METHOD "kneedle"

struct curve {
	size_t n;                    /* points that ran and ended well */
	size_t run[PARAMS_LIST_MAX]; /* their run indexes */
	struct knee_point p[PARAMS_LIST_MAX];
	size_t skipped; /* points not run */
	int stopped;    /* by stopcurve= */
	struct knee_result k;
};

struct knee_sink {
	unsigned char *ok; /* per run: it ended well (its totals) */
	size_t nrun;
};

static int knee_open(const struct run_view *rv, void *priv)
{
	struct knee_sink *S = priv;

	S->nrun = rv->ph->nruns;
	S->ok = calloc(S->nrun ? S->nrun : 1, 1);
	return S->ok ? 0 : -ENOMEM;
}

/* Curve max's points so far; stop: run index of a point that stopped it. */
static void gather(const struct run_view *rv, const struct knee_sink *S,
		   size_t max, size_t stop, struct curve *c)
{
	memset(c, 0, sizeof(*c));
	c->stopped = rv->ph->runs[max].curve_stopped || stop < S->nrun;
	for (size_t i = max + 1; i < S->nrun; i++) {
		const struct run_result *r = &rv->ph->runs[i];

		if (r->ph.kind != PLAN_CURVE_POINT || r->ph.curve_max != max)
			continue;
		if (r->skipped || !S->ok[i] || c->n == PARAMS_LIST_MAX) {
			c->skipped++;
			continue;
		}
		c->run[c->n] = i;
		c->p[c->n++] = (struct knee_point){ r->ph.curve_pct,
						    sink_run_rate(r),
						    r->fs ? r->fs->req_resp_ms :
							    r->view.resp_ms };
	}
	knee_find(c->p, c->n, &c->k);
}

/* The curve's name: its max run's, without " curve=max". */
static int name_len(const char *name)
{
	size_t n = strlen(name), s = strlen(" curve=max");

	return (int)(n > s && !strcmp(name + n - s, " curve=max") ? n - s : n);
}

/* "8 points, 2 skipped, stopped by stopcurve=, 1 did not raise IOPS" */
static void counts(FILE *f, const struct curve *c)
{
	fprintf(f, "%zu point%s", c->k.used, c->k.used == 1 ? "" : "s");
	if (c->skipped)
		fprintf(f, ", %zu not run", c->skipped);
	if (c->stopped)
		fprintf(f, ", stopped by stopcurve=");
	if (c->k.flatiops)
		fprintf(f, ", %zu did not raise IOPS", c->k.flatiops);
}

/* "knee at 70% (run, 41230 IO/s, resp 0.410 ms): beyond it ..." */
static void verdict(FILE *f, const struct run_view *rv, const struct curve *c)
{
	const struct knee_point *p = &c->p[c->k.at];

	if (c->k.status != KNEE_FOUND) {
		fprintf(f, "no knee: %s", knee_status_why(c->k.status));
		if (c->k.status == KNEE_FLAT)
			fprintf(f, " (%.3f to %.3f ms)", c->k.resp_lo,
				c->k.resp_hi);
		return;
	}
	fprintf(f, "knee at %g%% (%s: %.0f IO/s, resp %.3f ms): ", p->pct,
		rv->ph->runs[c->run[c->k.at]].ph.name, p->iops, p->resp_ms);
	if (c->k.at_max)
		fprintf(f,
			"the curve's most IOPS; beyond it response time rises %.1fx with no more IOPS",
			c->k.resp_growth);
	else
		fprintf(f,
			"beyond it response time rises %.1fx faster than IOPS",
			c->k.rise);
}

/* Whether point idx is the last of its curve to run. */
static int last_point(const struct run_view *rv, size_t idx)
{
	const struct run_result *r = &rv->ph->runs[idx];

	if (decide_curve_stop(r->ph.stopcurve_ms, r->view.resp_ms))
		return 1;
	for (size_t i = idx + 1; i < rv->ph->nruns; i++)
		if (rv->ph->runs[i].ph.kind == PLAN_CURVE_POINT &&
		    rv->ph->runs[i].ph.curve_max == r->ph.curve_max)
			return 0;
	return 1;
}

static void knee_run_end(const struct run_view *rv, void *priv,
			 const struct sink_run_end *e)
{
	struct knee_sink *S = priv;
	size_t idx = (size_t)(e->r - rv->ph->runs);
	const char *name;
	struct curve c;
	FILE *f;

	if (idx >= S->nrun || !e->totals)
		return;
	S->ok[idx] = 1;
	if (e->r->ph.kind != PLAN_CURVE_POINT || !last_point(rv, idx) ||
	    rv->opt->vdbench_console)
		return;
	gather(rv, S, e->r->ph.curve_max,
	       decide_curve_stop(e->r->ph.stopcurve_ms, e->r->view.resp_ms) ?
		       idx :
		       S->nrun,
	       &c);
	name = rv->ph->runs[e->r->ph.curve_max].ph.name;
	f = results_stdout(rv);
	fprintf(f, "Curve %.*s: ", name_len(name), name);
	verdict(f, rv, &c);
	fprintf(f, " (Kneedle, ");
	counts(f, &c);
	fprintf(f, ")\n\n");
}

static void knee_summary_json(const struct run_view *rv, void *priv,
			      struct jsonw *w)
{
	struct knee_sink *S = priv;
	struct curve c;
	int any = 0;

	for (size_t i = 0; i < S->nrun; i++) {
		const struct run_result *r = &rv->ph->runs[i];
		const struct knee_point *p;

		if (r->ph.kind != PLAN_CURVE_MAX || !r->done)
			continue;
		if (!any++)
			jsonw_array(w, "curves");
		gather(rv, S, i, S->nrun, &c);
		jsonw_object(w, NULL);
		jsonw_str(w, "max_run", r->ph.name);
		jsonw_str(w, "method", KNEE_METHOD);
		jsonw_u64(w, "points", c.k.used);
		jsonw_u64(w, "points_not_run", c.skipped);
		jsonw_u64(w, "points_not_raising_iops", c.k.flatiops);
		jsonw_bool(w, "stopped_by_stopcurve", c.stopped);
		if (c.k.status != KNEE_FOUND) {
			jsonw_str(w, "no_knee", knee_status_why(c.k.status));
			jsonw_end(w);
			continue;
		}
		p = &c.p[c.k.at];
		jsonw_object(w, "knee");
		jsonw_str(w, "run", rv->ph->runs[c.run[c.k.at]].ph.name);
		jsonw_dbl(w, "pct", p->pct);
		jsonw_dbl(w, "iops", p->iops);
		jsonw_dbl(w, "resp_ms", p->resp_ms);
		jsonw_dbl(w, "bend", c.k.bend);
		jsonw_dbl(w, "rise_ratio", c.k.rise); /* null when at_max */
		jsonw_bool(w, "at_max_iops", c.k.at_max);
		jsonw_dbl(w, "resp_growth", c.k.resp_growth);
		jsonw_end(w);
		jsonw_end(w);
	}
	if (any)
		jsonw_end(w);
}

static void knee_summary_txt(const struct run_view *rv, void *priv, FILE *f)
{
	struct knee_sink *S = priv;
	struct curve c;
	int any = 0;

	for (size_t i = 0; i < S->nrun; i++) {
		const struct run_result *r = &rv->ph->runs[i];

		if (r->ph.kind != PLAN_CURVE_MAX || !r->done)
			continue;
		if (!any++)
			fprintf(f,
				"knee of each curve (Kneedle: the point farthest below the chord of response time against IOPS, both normalized)\n");
		gather(rv, S, i, S->nrun, &c);
		fprintf(f, "  %.*s: ", name_len(r->ph.name), r->ph.name);
		verdict(f, rv, &c);
		fprintf(f, " (");
		counts(f, &c);
		fprintf(f, ")\n");
	}
	if (any)
		fprintf(f, "\n");
}

static void knee_close(const struct run_view *rv, void *priv)
{
	struct knee_sink *S = priv;

	(void)rv;
	free(S->ok);
	S->ok = NULL;
}

const struct sink_ops sink_knee = {
	.name = "the knee of each curve (console, summary.json, summary.txt)",
	.priv_size = sizeof(struct knee_sink),
	.open = knee_open,
	.run_end = knee_run_end,
	.summary_json = knee_summary_json,
	.summary_txt = knee_summary_txt,
	.close = knee_close,
};
