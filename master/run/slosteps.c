/*
 * The runs of an iorate=slo search: their measured values against the
 * objective, and the search replayed from them (slosteps.h).
 */
#include "master/run/slosteps.h"

#include <math.h>
#include <stdlib.h>
#include "master/run/master_int.h"

/* More than slo_steps_max() gives at the finest sloprecision= (0.5%). */
#define SLOSTEPS_CAP 16

void slosteps_measure(const struct params *p, struct run_result *r,
		      const struct stats *totals,
		      const struct slave_rec *slaves)
{
	double pct = p->rd[r->ph.rd].slo_pct;
	struct hist *h = malloc(sizeof(*h));

	r->slo.rate = r->ph.kind == PLAN_SLO_STEP ? r->ph.iorate : 0;
	r->slo.iops = r->view.iops;
	r->slo.value_ms = NAN;
	if (h && totals) {
		stats_combined_hist(totals, h);
		r->slo.value_ms = slo_value_ms(pct, h);
	}
	free(h);
	for (unsigned i = 0; i < r->nslave; i++) {
		struct slave_total *t = &r->slave[i];

		t->slo_ms = NAN;
		if (!t->ran)
			continue;
		/* The mean needs no histogram; a percentile needs one that
		   agrees with the slave's intervals (no_pct says why not). */
		if (pct < 0)
			t->slo_ms = t->v.resp_ms;
		else if (!t->no_pct)
			t->slo_ms = slo_value_sparse_ms(pct, slaves[i].end_lat);
	}
}

void slosteps_search(const struct params *p, const struct run_result *runs,
		     size_t max, size_t upto, struct slo_search *out)
{
	const struct run_result *m = &runs[max];
	const struct params_rd *rd = &p->rd[m->ph.rd];
	struct slo_run st[SLOSTEPS_CAP], none = { 0, 0, NAN };
	size_t n = 0;

	for (size_t i = max + 1; i < upto && n < SLOSTEPS_CAP; i++) {
		const struct run_result *x = &runs[i];

		if (x->ph.kind != PLAN_SLO_STEP || x->ph.curve_max != max)
			break;
		if (x->done)
			st[n++] = x->slo;
	}
	slo_search(rd->slo_ms, rd->sloprecision_pct, m->ph.slo_steps,
		   m->done ? &m->slo : &none, st, n, out);
}
