/*
 * Steady state of every run's measured window, by SNIA PTS's test
 * (steady.h), for the cluster and for each slave: the console says it
 * after the run's totals, summary.json has it in each run ("steady") and
 * summary.txt in a block. The series are the I/Os the totals count: the
 * cluster rows and the late rows of slaves after them, summed per round
 * as they come (5 numbers a slave, whatever the run's length). A run that
 * ended before its planned intervals, a format pass and a run without a
 * measured round are not judged, and say why.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "common/jsonw.h"
#include "master/run/master_int.h"
#include "master/results/sink.h"
#include "master/results/steady.h"

const struct sink_ops sink_steady;

/* Slaves not steady named per run (the rest are counted). */
#define STEADY_LIST 8

struct steady_host {
	unsigned slave;
	struct steady_verdict v;
};

struct steady_run {
	const char *why; /* not judged: why (static), else NULL */
	struct steady_verdict v;
	int warm_max; /* its warmup=steady reached the maximum: not steady */
	unsigned hosts, unsteady; /* slaves judged, of them not steady */
	unsigned nlist;
	struct steady_host list[STEADY_LIST];
};

struct steady {
	struct steady_run *run; /* per rv->ph->runs index */
	size_t nrun;
	/* The run in progress, summed per round. */
	unsigned n; /* its measured intervals, as planned */
	double cl[STEADY_ROUNDS];
	double (*sl)[STEADY_ROUNDS]; /* MAX_SLAVES */
	unsigned char *seen;         /* a slave had a measured interval */
};

static int steady_open(const struct run_view *rv, void *priv)
{
	struct steady *S = priv;

	S->nrun = rv->ph->nruns;
	S->run = calloc(S->nrun ? S->nrun : 1, sizeof(*S->run));
	S->sl = calloc(MAX_SLAVES, sizeof(*S->sl));
	S->seen = calloc(MAX_SLAVES, 1);
	return S->run && S->sl && S->seen ? 0 : -ENOMEM;
}

static void steady_phase_start(const struct run_view *rv, void *priv,
			       const struct sink_phase *p)
{
	struct steady *S = priv;
	const struct plan_phase *ph = &rv->ph->cur->ph;

	(void)p;
	S->n = ph->intervals > ph->warmup_intervals ?
		       ph->intervals - ph->warmup_intervals :
		       0;
	memset(S->cl, 0, sizeof(S->cl));
	memset(S->sl, 0, MAX_SLAVES * sizeof(*S->sl));
	memset(S->seen, 0, MAX_SLAVES);
}

/* The round of interval seq of the run in progress, or -1. */
static int round_of(const struct run_view *rv, const struct steady *S,
		    unsigned seq)
{
	unsigned w = rv->ph->cur->ph.warmup_intervals;

	return seq < w ? -1 : steady_round_of(S->n, seq - w);
}

static void steady_row(const struct run_view *rv, void *priv,
		       const struct sink_row *r)
{
	struct steady *S = priv;
	int k = r->row->warmup ? -1 : round_of(rv, S, r->row->seq);

	if (k >= 0)
		S->cl[k] += (double)r->v.ops;
}

static void steady_slave_row(const struct run_view *rv, void *priv,
			     const struct sink_slave_row *r)
{
	struct steady *S = priv;
	size_t i = (size_t)(r->s - rv->roster->slaves);
	int k = round_of(rv, S, r->iv->seq);

	if (k < 0 || i >= MAX_SLAVES)
		return;
	/* A late row is not in its cluster row: the totals add it. */
	if (r->late)
		S->cl[k] += (double)r->v.ops;
	S->sl[i][k] += (double)r->v.ops;
	S->seen[i] = 1;
}

/*
 * How far from steady: the larger of the two excursions, each over its
 * limit; a slave with no I/O in the window is the farthest.
 */
static double badness(const struct steady_verdict *v)
{
	return v->known ? fmax(v->data_pct / STEADY_DATA_PCT,
			       v->slope_pct / STEADY_SLOPE_PCT) :
			  INFINITY;
}

static int worse_first(const void *p, const void *q)
{
	double a = badness(&((const struct steady_host *)p)->v);
	double b = badness(&((const struct steady_host *)q)->v);

	return (a < b) - (a > b);
}

/* Keep the STEADY_LIST slaves farthest from steady. */
static void keep_worst(struct steady_run *o, const struct steady_host *h)
{
	unsigned at = o->nlist, least = 0;

	if (o->nlist == STEADY_LIST) {
		for (unsigned j = 1; j < o->nlist; j++)
			if (badness(&o->list[j].v) < badness(&o->list[least].v))
				least = j;
		if (badness(&h->v) <= badness(&o->list[least].v))
			return;
		at = least;
	} else {
		o->nlist++;
	}
	o->list[at] = *h;
}

static void judge_hosts(const struct run_view *rv, struct steady *S,
			struct steady_run *out, unsigned k)
{
	for (unsigned i = 0; i < rv->roster->nslaves && i < MAX_SLAVES; i++) {
		struct steady_host h = { .slave = i };

		if (!S->seen[i])
			continue;
		out->hosts++;
		steady_judge(S->sl[i], k, &h.v);
		if (h.v.steady)
			continue;
		out->unsteady++;
		keep_worst(out, &h);
	}
	qsort(out->list, out->nlist, sizeof(out->list[0]), worse_first);
}

static void say(const struct run_view *rv, const struct run_result *r,
		const struct steady_run *o)
{
	FILE *f;

	if (rv->opt->vdbench_console)
		return;
	f = results_stdout(rv);
	if (o->why) {
		fprintf(f, "Run %s: steady state not judged: %s\n\n",
			r->ph.name, o->why);
		return;
	}
	fprintf(f,
		"Run %s: %s (SNIA PTS, %u rounds of %u intervals): IOPS data excursion %.1f%% (limit %.0f%%), slope excursion %.1f%% (limit %.0f%%)",
		r->ph.name,
		o->v.steady ? "steady" :
		o->warm_max ? "NOT STEADY (its warmup reached the maximum)" :
			      "NOT STEADY",
		STEADY_ROUNDS, o->v.per_round, o->v.data_pct, STEADY_DATA_PCT,
		o->v.slope_pct, STEADY_SLOPE_PCT);
	if (o->unsteady) {
		fprintf(f, "; %u of %u slaves not steady:", o->unsteady,
			o->hosts);
		for (unsigned j = 0; j < o->nlist; j++)
			fprintf(f, "%s %s", j ? "," : "",
				rv->roster->slaves[o->list[j].slave].hello.name);
		if (o->nlist < o->unsteady)
			fprintf(f, ", ...");
	}
	fprintf(f, "\n\n");
}

static void steady_run_end(const struct run_view *rv, void *priv,
			   const struct sink_run_end *e)
{
	struct steady *S = priv;
	size_t idx = (size_t)(e->r - rv->ph->runs);
	struct steady_run *o;
	unsigned k = steady_per_round(S->n);

	if (idx >= S->nrun || e->r->ph.kind == PLAN_FORMAT)
		return;
	o = &S->run[idx];
	memset(o, 0, sizeof(*o));
	o->v.per_round = k; /* steady_judge() sets it too; not judged: here */
	if (!e->totals)
		o->why = "the run did not end well";
	else if (!k)
		o->why = "fewer measured intervals than rounds (5)";
	else if (e->r->rows < e->r->ph.intervals)
		o->why = "the run ended before its planned intervals";
	if (!o->why) {
		steady_judge(S->cl, k, &o->v);
		if (!o->v.known)
			o->why = "no I/O in its measured window";
		else
			judge_hosts(rv, S, o, k);
	}
	/* warmup=steady gave up at its maximum: the run was not steady. */
	o->warm_max = e->r->warm.reached_max;
	if (o->warm_max)
		o->v.steady = 0;
	if (e->totals)
		say(rv, e->r, o);
}

int sink_steady_verdict(const struct run_view *rv, size_t idx, const char **why)
{
	struct steady *S = results_priv(rv, &sink_steady);

	*why = "not judged";
	if (!S || idx >= S->nrun)
		return -1;
	if (S->run[idx].why) {
		*why = S->run[idx].why;
		return -1;
	}
	return S->run[idx].v.steady ? 1 : 0;
}

static void verdict_json(struct jsonw *w, const struct steady_verdict *v)
{
	jsonw_bool(w, "steady", v->steady);
	jsonw_dbl(w, "data_excursion_pct", v->data_pct);
	jsonw_dbl(w, "slope_excursion_pct", v->slope_pct);
}

/* Run r's verdict, or NULL for a run that is not judged at all. */
static const struct steady_run *verdict_of(const struct run_view *rv,
					   const struct steady *S,
					   const struct run_result *r)
{
	size_t idx = (size_t)(r - rv->ph->runs);

	return idx < S->nrun && r->ph.kind != PLAN_FORMAT ? &S->run[idx] : NULL;
}

static void steady_run_json(const struct run_view *rv, void *priv,
			    const struct run_result *r, struct jsonw *w)
{
	const struct steady_run *o = verdict_of(rv, priv, r);

	if (!o)
		return;
	jsonw_object(w, "steady_state");
	jsonw_str(w, "method", "SNIA PTS");
	jsonw_str(w, "metric", "iops");
	jsonw_u64(w, "rounds", STEADY_ROUNDS);
	jsonw_u64(w, "intervals_per_round", o->v.per_round);
	jsonw_dbl(w, "data_excursion_limit_pct", STEADY_DATA_PCT);
	jsonw_dbl(w, "slope_excursion_limit_pct", STEADY_SLOPE_PCT);
	if (o->why) {
		jsonw_str(w, "not_judged", o->why);
		jsonw_end(w);
		return;
	}
	verdict_json(w, &o->v);
	if (o->warm_max)
		jsonw_bool(w, "warmup_reached_max", 1);
	jsonw_u64(w, "slaves_judged", o->hosts);
	jsonw_u64(w, "slaves_not_steady", o->unsteady);
	jsonw_array(w, "not_steady");
	for (unsigned j = 0; j < o->nlist; j++) {
		jsonw_object(w, NULL);
		jsonw_str(w, "slave",
			  rv->roster->slaves[o->list[j].slave].hello.name);
		if (o->list[j].v.known)
			verdict_json(w, &o->list[j].v);
		else
			jsonw_str(w, "not_judged", "no I/O in its window");
		jsonw_end(w);
	}
	jsonw_end(w);
	jsonw_end(w);
}

static void steady_summary_txt(const struct run_view *rv, void *priv, FILE *f)
{
	struct steady *S = priv;
	int any = 0;

	for (size_t i = 0; i < S->nrun; i++) {
		const struct run_result *r = &rv->ph->runs[i];
		const struct steady_run *o = &S->run[i];

		if (!r->done || r->ph.kind == PLAN_FORMAT)
			continue;
		if (!any++)
			fprintf(f,
				"steady state (SNIA PTS: IOPS over %u rounds, data excursion <= %.0f%%, slope excursion <= %.0f%%)\n",
				STEADY_ROUNDS, STEADY_DATA_PCT,
				STEADY_SLOPE_PCT);
		if (o->why)
			fprintf(f, "  %s: not judged: %s\n", r->ph.name,
				o->why);
		else
			fprintf(f,
				"  %s: %s, data %.1f%%, slope %.1f%%, %u of %u slaves not steady\n",
				r->ph.name,
				o->v.steady ? "steady" : "NOT STEADY",
				o->v.data_pct, o->v.slope_pct, o->unsteady,
				o->hosts);
	}
	if (any)
		fprintf(f, "\n");
}

/*
 * The run's own line in summary.txt's HCIBench block, so that whoever
 * reads a run's figures there reads whether they were steady beside them
 * (words HCIBench's parsers do not look for: no "IOPS", no " = ").
 */
static void steady_run_txt(const struct run_view *rv, void *priv,
			   const struct run_result *r, FILE *f)
{
	const struct steady_run *o = verdict_of(rv, priv, r);

	if (!o)
		return;
	if (o->why)
		fprintf(f, "steady state: not judged (%s)\n", o->why);
	else
		fprintf(f,
			"steady state: %s (SNIA PTS: data excursion %.1f%%, limit %.0f%%; slope excursion %.1f%%, limit %.0f%%)\n",
			o->v.steady ? "steady" : "not steady", o->v.data_pct,
			STEADY_DATA_PCT, o->v.slope_pct, STEADY_SLOPE_PCT);
}

static void steady_close(const struct run_view *rv, void *priv)
{
	struct steady *S = priv;

	(void)rv;
	free(S->run);
	free(S->sl);
	free(S->seen);
	S->run = NULL;
	S->sl = NULL;
	S->seen = NULL;
}

const struct sink_ops sink_steady = {
	.name = "steady state (console, summary.json, summary.txt)",
	.priv_size = sizeof(struct steady),
	.open = steady_open,
	.phase_start = steady_phase_start,
	.row = steady_row,
	.slave_row = steady_slave_row,
	.run_end = steady_run_end,
	.run_json = steady_run_json,
	.summary_txt = steady_summary_txt,
	.run_txt = steady_run_txt,
	.close = steady_close,
};
