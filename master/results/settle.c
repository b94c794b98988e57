/*
 * The end of a warmup=steady warmup (see settle.h). Pure: the master's
 * warmup.c feeds it the series it keeps.
 */
#include <math.h>
#include "master/results/settle.h"

/* Series x judged over its rounds ending at interval n-1 into *v. */
static void window(const double *x, unsigned n, unsigned round,
		   struct steady_verdict *v)
{
	double r[STEADY_ROUNDS] = { 0 };
	unsigned k0 = n - STEADY_ROUNDS * round;

	for (unsigned k = 0; k < STEADY_ROUNDS * round; k++)
		r[k / round] += x[k0 + k];
	steady_judge(r, round, v);
}

/* As in sink_steady.c: how far past its limits (not judged: farthest). */
static double badness(const struct steady_verdict *v)
{
	return v->known ? fmax(v->data_pct / STEADY_DATA_PCT,
			       v->slope_pct / STEADY_SLOPE_PCT) :
			  INFINITY;
}

void settle_judge(const double *const *series, unsigned nseries, unsigned n,
		  unsigned round, unsigned max, struct settle_verdict *v)
{
	int all = 1;

	v->state = SETTLE_WAIT;
	v->worst = -1;
	v->cluster = (struct steady_verdict){ .data_pct = NAN,
					      .slope_pct = NAN };
	v->worst_v = v->cluster;
	if (!round || !nseries || !series[0] || n < STEADY_ROUNDS * round) {
		if (n >= max)
			v->state = SETTLE_MAX;
		return;
	}
	for (unsigned i = 0; i < nseries; i++) {
		struct steady_verdict s;

		if (!series[i])
			continue;
		window(series[i], n, round, &s);
		if (i == 0)
			v->cluster = s;
		if (s.steady)
			continue;
		all = 0;
		if (v->worst < 0 || badness(&s) > badness(&v->worst_v)) {
			v->worst = (int)i;
			v->worst_v = s;
		}
	}
	if (all)
		v->state = SETTLE_STEADY;
	else if (n >= max)
		v->state = SETTLE_MAX;
}

unsigned settle_from(unsigned n, unsigned reported, unsigned max)
{
	unsigned from = (reported > n ? reported : n) + 1;

	return from < max ? from : max;
}
