/*
 * The significance test of a compare: the Mann-Whitney U test of two
 * series of per-interval figures (the baseline's and the candidate's). It
 * needs no assumption of normality, which interval IOPS and p99 latency
 * do not have, and ties (a rate-limited run) are corrected for. With the
 * few intervals of a nightly run the normal approximation is rough, but
 * the verdict only needs "clearly different or not".
 */
#include <math.h>
#include <stdlib.h>
#include "master/history/history_int.h"

struct ranked {
	double x;
	int side; /* 0: a, 1: b */
};

static int cmp_ranked(const void *p, const void *q)
{
	const struct ranked *a = p, *b = q;

	return (a->x > b->x) - (a->x < b->x);
}

double history_stats_mwu(const double *a, size_t na, const double *b, size_t nb)
{
	size_t n = na + nb, i, j;
	double r1 = 0, ties = 0, u, mu, sigma, z;
	struct ranked *v;

	if (na < HISTORY_MIN_INTERVALS || nb < HISTORY_MIN_INTERVALS)
		return NAN;
	v = malloc(n * sizeof(*v));
	if (!v)
		return NAN;
	for (i = 0; i < na; i++)
		v[i] = (struct ranked){ a[i], 0 };
	for (i = 0; i < nb; i++)
		v[na + i] = (struct ranked){ b[i], 1 };
	qsort(v, n, sizeof(*v), cmp_ranked);
	/* Equal values share the mean of their ranks (1-based). */
	for (i = 0; i < n; i = j) {
		double t, rank;

		for (j = i + 1; j < n && v[j].x == v[i].x; j++)
			;
		t = (double)(j - i);
		rank = ((double)i + 1 + (double)j) / 2;
		ties += t * t * t - t;
		for (size_t k = i; k < j; k++)
			if (v[k].side == 0)
				r1 += rank;
	}
	free(v);
	u = r1 - (double)na * ((double)na + 1) / 2;
	mu = (double)na * (double)nb / 2;
	sigma = sqrt((double)na * (double)nb / 12 *
		     ((double)n + 1 - ties / ((double)n * ((double)n - 1))));
	if (!(sigma > 0))
		return 1;
	z = (fabs(u - mu) - 0.5) / sigma;
	if (z < 0)
		z = 0;
	return erfc(z / sqrt(2));
}

static int cmp_dbl(const void *p, const void *q)
{
	double a = *(const double *)p, b = *(const double *)q;

	return (a > b) - (a < b);
}

double history_stats_median(double *x, size_t n)
{
	if (!n)
		return NAN;
	qsort(x, n, sizeof(*x), cmp_dbl);
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}
