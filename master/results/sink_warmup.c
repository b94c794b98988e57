/*
 * How each run's warmup ended, in summary.json ("warmup": its mode, the
 * warmup intervals it took, when a warmup=steady one was judged steady
 * and whether it reached its maximum instead) and summary.txt. The
 * console line is said when it happens (master/run/warmup.c); a run whose
 * warmup reached its maximum is marked not steady by sink_steady.c.
 */
#include <math.h>
#include "common/jsonw.h"
#include "master/run/master_int.h"
#include "master/results/sink.h"

static void warmup_run_json(const struct run_view *rv, void *priv,
			    const struct run_result *r, struct jsonw *w)
{
	const struct run_warmup *o = &r->warm;

	(void)rv;
	(void)priv;
	if (r->ph.kind == PLAN_FORMAT)
		return;
	jsonw_object(w, "warmup");
	jsonw_str(w, "mode", r->ph.warmup_steady ? "steady" : "fixed");
	jsonw_u64(w, "intervals", r->ph.warmup_intervals);
	if (r->ph.warmup_steady) {
		jsonw_u64(w, "max_intervals", o->max);
		jsonw_u64(w, "intervals_per_round", r->ph.warmup_round);
		if (o->steady_at)
			jsonw_u64(w, "steady_at", o->steady_at);
		else
			jsonw_dbl(w, "steady_at", NAN); /* null: never */
		jsonw_bool(w, "reached_max", o->reached_max);
		if (o->decided) {
			jsonw_dbl(w, "data_excursion_pct", o->data_pct);
			jsonw_dbl(w, "slope_excursion_pct", o->slope_pct);
		}
		if (o->reached_max && o->worst[0])
			jsonw_str(w, "farthest_from_steady", o->worst);
	}
	jsonw_end(w);
}

static void warmup_summary_txt(const struct run_view *rv, void *priv, FILE *f)
{
	int any = 0;

	(void)priv;
	for (size_t i = 0; i < rv->ph->nruns; i++) {
		const struct run_result *r = &rv->ph->runs[i];
		const struct run_warmup *o = &r->warm;

		if (!r->done || !r->ph.warmup_steady)
			continue;
		if (!any++)
			fprintf(f,
				"warmup=steady (SNIA PTS over the cluster and every slave)\n");
		if (o->steady_at)
			fprintf(f,
				"  %s: steady after %u warmup intervals, measured from interval %u\n",
				r->ph.name, o->steady_at,
				r->ph.warmup_intervals + 1);
		else if (o->reached_max)
			fprintf(f,
				"  %s: NOT STEADY within the maximum of %u warmup intervals\n",
				r->ph.name, o->max);
		else
			fprintf(f, "  %s: ended before its warmup was judged\n",
				r->ph.name);
	}
	if (any)
		fprintf(f, "\n");
}

const struct sink_ops sink_warmup = {
	.name = "warmup (summary.json, summary.txt)",
	.run_json = warmup_run_json,
	.summary_txt = warmup_summary_txt,
};
