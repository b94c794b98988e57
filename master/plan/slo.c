/*
 * The SLO search of iorate=slo: bisection of [0, max rate] on whether a
 * fixed rate meets the latency objective (slo.h says how). Pure: the
 * conductor and the results sink replay it from what the runs measured.
 */
#include "master/plan/slo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

unsigned slo_steps_max(double precision_pct)
{
	double p = precision_pct > 0 ? precision_pct / 100 : 0.05;

	/* Each step halves [0, max]: width max / 2^k <= p x max. */
	return (unsigned)ceil(log2(1 / p) - 1e-9) + SLO_MARGIN;
}

enum slo_verdict slo_judge(double target_ms, const struct slo_run *r)
{
	if (!(r->iops > 0) || isnan(r->value_ms))
		return SLO_UNKNOWN;
	if (r->rate > 0 && r->iops < r->rate * (1 - SLO_SHORT_PCT / 100))
		return SLO_SHORT;
	return r->value_ms <= target_ms ? SLO_MEETS : SLO_OVER;
}

const char *slo_verdict_name(enum slo_verdict v)
{
	switch (v) {
	case SLO_MEETS:
		return "meets";
	case SLO_OVER:
		return "over";
	case SLO_SHORT:
		return "short of its rate";
	case SLO_UNKNOWN:
		break;
	}
	return "not measured";
}

/*
 * The rate of the next step: the middle of [lo, hi], rounded to a power of
 * ten at most a tenth of the precision's width so the rates read well
 * (12,800 rather than 12,793.4) without moving the bisection by more than
 * a twentieth of what the precision allows. The bracket is wider than the
 * precision here, so the rounded middle stays strictly inside it.
 */
static double middle(double lo, double hi, double width)
{
	double mid = (lo + hi) / 2;
	double g = width >= 10 ? pow(10, floor(log10(width / 10))) : 1;
	double r = round(mid / g) * g;

	return r > lo && r < hi ? r : mid;
}

void slo_search(double target_ms, double precision_pct, unsigned nplanned,
		const struct slo_run *max, const struct slo_run *steps,
		size_t n, struct slo_search *out)
{
	enum slo_verdict v = slo_judge(target_ms, max);
	double width;

	*out = (struct slo_search){ .end = SLO_GOING, .max = max->iops };
	out->hi = out->max;
	if (v == SLO_UNKNOWN) {
		out->end = SLO_NO_MAX;
		return;
	}
	if (v == SLO_MEETS) {
		out->end = SLO_MAX_MEETS;
		out->lo = out->max;
		return;
	}
	width = precision_pct / 100 * out->max;
	for (size_t i = 0; i < n; i++) {
		v = slo_judge(target_ms, &steps[i]);
		if (v == SLO_UNKNOWN) {
			out->end = SLO_STOPPED;
			return;
		}
		out->done++;
		/*
		 * A step is always inside the bracket (its rate came from
		 * it), so the bracket keeps lo < hi even when noise makes the
		 * latency not monotone in the rate.
		 */
		if (v == SLO_MEETS && steps[i].rate > out->lo)
			out->lo = steps[i].rate;
		else if (v != SLO_MEETS && steps[i].rate < out->hi)
			out->hi = steps[i].rate;
	}
	if (out->hi - out->lo <= width)
		out->end = out->lo > 0 ? SLO_FOUND : SLO_NONE_MEETS;
	else if (out->done >= nplanned)
		out->end = SLO_NO_STEPS;
	else
		out->next = middle(out->lo, out->hi, width);
}

double slo_value_ms(double pct, const struct hist *h)
{
	if (!h->count)
		return NAN;
	if (pct < 0)
		return hist_mean(h) / 1e6;
	return (double)hist_percentile(h, pct) / 1e6;
}

double slo_value_sparse_ms(double pct, const struct hist_sparse *lat)
{
	struct hist *h = malloc(sizeof(*h));
	double v = NAN;

	if (!h)
		return NAN;
	hist_init(h);
	/* A peer's histograms: checked again, a bad one gives no value. */
	if (!hist_add_sparse(h, &lat[STATS_READ]) &&
	    !hist_add_sparse(h, &lat[STATS_WRITE]))
		v = slo_value_ms(pct, h);
	free(h);
	return v;
}

void slo_name(double pct, double target_ms, char *buf, size_t len)
{
	char stat[32], lat[32];

	if (pct < 0)
		snprintf(stat, sizeof(stat), "mean");
	else
		snprintf(stat, sizeof(stat), "p%g", pct);
	if (target_ms < 1)
		snprintf(lat, sizeof(lat), "%gus", target_ms * 1e3);
	else if (target_ms < 1e3)
		snprintf(lat, sizeof(lat), "%gms", target_ms);
	else
		snprintf(lat, sizeof(lat), "%gs", target_ms / 1e3);
	snprintf(buf, len, "%s<=%s", stat, lat);
}
