/*
 * SNIA PTS steady state of a run's measured window (see steady.h). Pure:
 * the sink (sink_steady.c) feeds it the rounds it summed.
 */
#include <math.h>
#include "master/results/steady.h"

unsigned steady_per_round(unsigned n)
{
	return n / STEADY_ROUNDS;
}

int steady_round_of(unsigned n, unsigned m)
{
	unsigned k = steady_per_round(n), skip;

	if (!k || m >= n)
		return -1;
	skip = n - k * STEADY_ROUNDS;
	return m < skip ? -1 : (int)((m - skip) / k);
}

void steady_judge(const double *x, unsigned per_round, struct steady_verdict *v)
{
	const double r = STEADY_ROUNDS, mx = (r - 1) / 2;
	double lo = x[0], hi = x[0], sum = 0, sxy = 0, sxx = 0, mean, slope;

	v->known = v->steady = 0;
	v->per_round = per_round;
	v->data_pct = v->slope_pct = NAN;
	for (unsigned i = 0; i < STEADY_ROUNDS; i++) {
		lo = fmin(lo, x[i]);
		hi = fmax(hi, x[i]);
		sum += x[i];
	}
	mean = sum / r;
	if (!per_round || !(mean > 0))
		return;
	/* The least-squares slope through (i, x[i]), i = 0..rounds-1. */
	for (unsigned i = 0; i < STEADY_ROUNDS; i++) {
		sxy += (i - mx) * (x[i] - mean);
		sxx += (i - mx) * (i - mx);
	}
	slope = sxy / sxx;
	v->known = 1;
	v->data_pct = (hi - lo) / mean * 100;
	v->slope_pct = fabs(slope) * (r - 1) / mean * 100;
	v->steady = v->data_pct <= STEADY_DATA_PCT &&
		    v->slope_pct <= STEADY_SLOPE_PCT;
}
