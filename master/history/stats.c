/*
 * The significance tests of a compare. With HISTORY_MIN_NIGHTS or more
 * baseline nights, tonight's figure is scored against the nights' own
 * spread (a robust z: median and MAD, one value per night), because the
 * noise that matters to a nightly job is night to night. With fewer, the
 * Mann-Whitney U test of the two series of per-interval figures, its
 * variance widened for the lag-1 autocorrelation of the intervals (they
 * are not independent: a busy second is followed by a busy second). It
 * needs no assumption of normality, which interval IOPS and p99 latency
 * do not have, and ties (a rate-limited run) are corrected for.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
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
	return history_stats_mwu_ac(a, na, b, nb, 0);
}

/* Sums of lag-1 products and squares of x about its own mean. */
static void ac_sums(const double *x, size_t n, double *num, double *den)
{
	double mean = 0;

	for (size_t i = 0; i < n; i++)
		mean += x[i];
	mean /= (double)n;
	for (size_t i = 0; i < n; i++) {
		*den += (x[i] - mean) * (x[i] - mean);
		if (i + 1 < n)
			*num += (x[i] - mean) * (x[i + 1] - mean);
	}
}

double history_stats_ac1(const double *a, size_t na, const double *b, size_t nb)
{
	return history_stats_ac1_seg(a, NULL, 0, na, b, nb);
}

double history_stats_ac1_seg(const double *a, const size_t *aseg, size_t naseg,
			     size_t na, const double *b, size_t nb)
{
	double num = 0, den = 0, r, n;
	size_t off = 0, nser = 1;

	if (na < 2 || nb < 2)
		return 0;
	if (aseg) {
		for (size_t i = 0; i < naseg && off + aseg[i] <= na; i++) {
			if (aseg[i] >= 2) {
				ac_sums(a + off, aseg[i], &num, &den);
				nser++;
			}
			off += aseg[i];
		}
	}
	/* Whatever the segments do not cover (none: all of a) is one. */
	if (na - off >= 2) {
		ac_sums(a + off, na - off, &num, &den);
		nser++;
	}
	ac_sums(b, nb, &num, &den);
	n = (double)(na + nb) / (double)nser; /* a series' mean length */
	if (!(den > 0))
		return 0;
	r = num / den;
	/*
	 * The estimate is low by about (1 + 3r) / n (Kendall); below 10
	 * intervals a side that correction alone would swamp the evidence
	 * (+0.17 at 6), so it is left out there.
	 */
	if (n >= 10)
		r += (1 + 3 * r) / n;
	if (!(r > 0))
		return 0;
	return r > HISTORY_AC1_MAX ? HISTORY_AC1_MAX : r;
}

double history_stats_mwu_ac(const double *a, size_t na, const double *b,
			    size_t nb, double r)
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
	/*
	 * Neighbouring intervals of a run are alike: the statistic varies by
	 * (1 + r) / (1 - r) times what independent values would give (the
	 * effective sample size of an AR(1) series, n (1 - r) / (1 + r)).
	 */
	sigma *= sqrt((1 + r) / (1 - r));
	z = (fabs(u - mu) - 0.5) / sigma;
	if (z < 0)
		z = 0;
	return erfc(z / sqrt(2));
}

/*
 * The regularized incomplete beta I_x(a, b), by its continued fraction
 * (modified Lentz), for the t distribution's tail below.
 */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	d = 1 / (fabs(d) < tiny ? tiny : d);
	h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, num, delta;

		num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + num * d;
		c = 1 + num / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + num * d;
		c = 1 + num / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		delta = d * c;
		h *= delta;
		if (fabs(delta - 1) < 1e-12)
			break;
	}
	return h;
}

static double ibeta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		    b * log(1 - x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double history_stats_t_p(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0;
	return ibeta(df / 2, 0.5, df / (df + t * t));
}

static void mean_var(const double *x, size_t n, double *mean, double *var)
{
	double m = 0, v = 0;

	for (size_t i = 0; i < n; i++)
		m += x[i];
	m /= (double)n;
	for (size_t i = 0; i < n; i++)
		v += (x[i] - m) * (x[i] - m);
	*mean = m;
	*var = v / (double)(n - 1);
}

double history_stats_welch_ac(const double *a, size_t na, const double *b,
			      size_t nb, double r)
{
	double ma, mb, sa, sb, w = (1 + r) / (1 - r), va, vb, ea, eb, df;

	if (na < HISTORY_MIN_INTERVALS || nb < HISTORY_MIN_INTERVALS)
		return NAN;
	mean_var(a, na, &ma, &sa);
	mean_var(b, nb, &mb, &sb);
	/* Each mean's variance, and each series' effective size. */
	va = sa * w / (double)na;
	vb = sb * w / (double)nb;
	ea = fmax((double)na / w, 2);
	eb = fmax((double)nb / w, 2);
	if (!(va + vb > 0))
		return ma == mb ? 1 : 0;
	df = (va + vb) * (va + vb) / (va * va / (ea - 1) + vb * vb / (eb - 1));
	return history_stats_t_p((mb - ma) / sqrt(va + vb), fmax(df, 1));
}

/* Whether every value of one series lies beyond every value of the other. */
static int separated(const double *a, size_t na, const double *b, size_t nb)
{
	double amin = INFINITY, amax = -INFINITY, bmin = INFINITY,
	       bmax = -INFINITY;

	for (size_t i = 0; i < na; i++) {
		amin = fmin(amin, a[i]);
		amax = fmax(amax, a[i]);
	}
	for (size_t i = 0; i < nb; i++) {
		bmin = fmin(bmin, b[i]);
		bmax = fmax(bmax, b[i]);
	}
	return amax < bmin || bmax < amin;
}

double history_stats_interval_p(const double *a, size_t na, const double *b,
				size_t nb, double r)
{
	double p = history_stats_mwu_ac(a, na, b, nb, r), pt;

	/*
	 * Apart, the ranks say all they can: the rest of the evidence is
	 * how far apart against the spread, which Welch's t (with the same
	 * autocorrelation) measures.
	 */
	if (isnan(p) || !separated(a, na, b, nb))
		return p;
	pt = history_stats_welch_ac(a, na, b, nb, r);
	return isnan(pt) ? p : fmin(p, pt);
}

double history_stats_mwu_floor(size_t na, size_t nb, double r)
{
	double n = (double)(na + nb), u = (double)(na < nb ? na : nb);
	double mu = (double)na * (double)nb / 2, sigma, z;

	if (na < HISTORY_MIN_INTERVALS || nb < HISTORY_MIN_INTERVALS)
		return 1;
	sigma = sqrt((double)na * (double)nb / 12 * (n + 1)) *
		sqrt((1 + r) / (1 - r));
	z = (mu - u - 0.5) / sigma;
	return z > 0 ? erfc(z / sqrt(2)) : 1;
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

double history_stats_mad(const double *x, size_t n, double *median)
{
	double *t = malloc((n ? n : 1) * sizeof(*t)), med, mad;

	if (!t || !n) {
		free(t);
		*median = NAN;
		return NAN;
	}
	memcpy(t, x, n * sizeof(*t));
	med = history_stats_median(t, n);
	for (size_t i = 0; i < n; i++)
		t[i] = fabs(x[i] - med);
	mad = history_stats_median(t, n);
	free(t);
	*median = med;
	return mad;
}

double history_stats_night(const double *base, size_t n, double x, double *z)
{
	double med, mad = history_stats_mad(base, n, &med), scale;

	*z = NAN;
	if (n < HISTORY_MIN_NIGHTS || !isfinite(mad) || !isfinite(x))
		return NAN;
	/* 1.4826 MAD estimates a normal spread's sigma, robust to outliers. */
	scale = 1.4826 * mad;
	if (!(scale > 0)) {
		*z = x == med ? 0 : x > med ? INFINITY : -INFINITY;
		return x == med ? 1 : 0;
	}
	*z = (x - med) / scale;
	return erfc(fabs(*z) / sqrt(2));
}
