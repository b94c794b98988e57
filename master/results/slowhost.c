/*
 * The slow host test (see slowhost.h), pure: the sink (sink_slowhost.c)
 * gives it the slaves' histograms of an interval or of a run. Everything
 * is computed from the pooled bucket counts once a call, then from each
 * slave's occupied buckets: the other slaves' counts below a bucket are
 * the pool's minus the slave's own.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "master/results/slowhost.h"

struct holm_slot {
	double p;
	uint32_t slot; /* 2 x slave + 0 (latency) or 1 (I/O count) */
};

struct slowhost_work {
	size_t max;
	uint64_t pool[HIST_BUCKETS]; /* every slave's counts */
	uint64_t pcum[HIST_BUCKETS]; /* their running sum, inclusive */
	/*
	 * A value in bucket b outranks this many of the pool's values (ties
	 * count half): pcum[b] - pool[b] / 2. A slave's Mann-Whitney U is the
	 * sum of these over its values less n1^2 / 2 (its own pairs), so its
	 * histograms need no merge for the test.
	 */
	double wrank[HIST_BUCKETS];
	/*
	 * One slave's buckets, its histograms merged: index, running sum; made
	 * only for a slave that may be flagged, for its percentiles.
	 */
	uint32_t midx[HIST_BUCKETS];
	uint64_t mcum[HIST_BUCKETS];
	size_t mn;
	uint64_t dense[HIST_BUCKETS]; /* merging them; zero between calls */
	struct holm_slot *holm;       /* 2 x max */
};

struct slowhost_work *slowhost_work_new(size_t max_slaves)
{
	struct slowhost_work *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->max = max_slaves;
	w->holm = calloc(max_slaves ? 2 * max_slaves : 1, sizeof(*w->holm));
	if (!w->holm) {
		free(w);
		return NULL;
	}
	return w;
}

void slowhost_work_free(struct slowhost_work *w)
{
	if (!w)
		return;
	free(w->holm);
	free(w);
}

double slowhost_p(const struct slowhost_out *o)
{
	double p = 1;

	if (o->lat_flag)
		p = o->p_lat;
	if (o->ios_flag && o->p_ios < p)
		p = o->p_ios;
	return p;
}

/* The upper tail of the standard normal distribution past z. */
static double upper_tail(double z)
{
	return 0.5 * erfc(z / sqrt(2.0));
}

/*
 * One slave's U against the pool before its own pairs are taken off: the
 * sum of its values' pool ranks. Its count, lowest and highest value into
 * *n, *lo, *hi.
 */
static double rank_sum(const struct slowhost_work *w,
		       const struct slowhost_in *s, uint64_t *n, uint64_t *lo,
		       uint64_t *hi)
{
	double sum = 0;

	*n = 0;
	*lo = UINT64_MAX;
	*hi = 0;
	for (unsigned d = 0; d < s->nlat; d++) {
		const struct hist_sparse *h = &s->lat[d];

		if (!h->count || !h->n)
			continue;
		if (h->min < *lo)
			*lo = h->min;
		if (h->max > *hi)
			*hi = h->max;
		/* Counts fit int64: its conversion is one instruction. */
		for (size_t k = 0; k < h->n; k++)
			sum += (double)(int64_t)h->cnt[k] * w->wrank[h->idx[k]];
		*n += h->count;
	}
	return sum;
}

/*
 * Merge one slave's histograms into w->midx and w->mcum, through w->dense
 * over the span of their bucket indexes (left zero again).
 */
static void merge_lat(struct slowhost_work *w, const struct slowhost_in *s)
{
	uint32_t first = HIST_BUCKETS, last = 0;
	uint64_t cum = 0;

	for (unsigned d = 0; d < s->nlat; d++) {
		const struct hist_sparse *h = &s->lat[d];

		if (!h->count || !h->n)
			continue;
		for (size_t k = 0; k < h->n; k++)
			w->dense[h->idx[k]] += h->cnt[k];
		if (h->idx[0] < first)
			first = h->idx[0];
		if (h->idx[h->n - 1] > last)
			last = h->idx[h->n - 1];
	}
	w->mn = 0;
	for (uint32_t b = first; b <= last && b < HIST_BUCKETS; b++) {
		if (!w->dense[b])
			continue;
		cum += w->dense[b];
		w->dense[b] = 0;
		w->midx[w->mn] = b;
		w->mcum[w->mn++] = cum;
	}
}

/* A bucket's value as hist_percentile() says it: its midpoint, clamped. */
static uint64_t bucket_value(unsigned b, uint64_t lo, uint64_t hi)
{
	uint64_t a = hist_bucket_lo(b), z = hist_bucket_hi(b);
	uint64_t mid = a + (z - a) / 2;

	return mid < lo ? lo : mid > hi ? hi : mid;
}

/* The slave's own percentile p, from its merged buckets. */
static uint64_t own_percentile(const struct slowhost_work *w, double p,
			       uint64_t n, uint64_t lo, uint64_t hi)
{
	uint64_t rank = hist_rank(p, n);
	size_t k = 0;

	while (k + 1 < w->mn && w->mcum[k] < rank)
		k++;
	return bucket_value(w->midx[k], lo, hi);
}

/* The slave's count in buckets 0..b. */
static uint64_t own_below(const struct slowhost_work *w, unsigned b)
{
	size_t l = 0, r = w->mn; /* first merged index past b */

	while (l < r) {
		size_t m = l + (r - l) / 2;

		if (w->midx[m] <= b)
			l = m + 1;
		else
			r = m;
	}
	return l ? w->mcum[l - 1] : 0;
}

/* The other slaves' percentile p: the pool's buckets less the slave's. */
static uint64_t rest_percentile(const struct slowhost_work *w, double p,
				uint64_t n, uint64_t lo, uint64_t hi)
{
	uint64_t rank = hist_rank(p, n);
	unsigned l = 0, r = HIST_BUCKETS - 1;

	while (l < r) {
		unsigned m = l + (r - l) / 2;

		if (w->pcum[m] - own_below(w, m) >= rank)
			r = m;
		else
			l = m + 1;
	}
	return bucket_value(l, lo, hi);
}

static double ratio(uint64_t a, uint64_t b)
{
	return (double)a / (double)(b ? b : 1);
}

/*
 * The latency test of one slave s of n1 I/Os, with its sum of pool ranks
 * su (rank_sum()), against the n2 others; ties is the pool's sum of
 * t^3 - t over its buckets.
 */
static void latency(struct slowhost_work *w, const struct slowhost_in *s,
		    uint64_t n1, uint64_t n2, double su, double ties,
		    double alpha, uint64_t plo, uint64_t phi, uint64_t lo,
		    uint64_t hi, struct slowhost_out *o)
{
	double N = (double)(n1 + n2), u, mean, var;

	if (n1 < SLOWHOST_MIN_IOS || n2 < SLOWHOST_MIN_IOS)
		return;
	var = (double)n1 * (double)n2 / 12.0 * ((N + 1) - ties / (N * (N - 1)));
	if (!(var > 0))
		return; /* every value in one bucket: nothing to rank */
	/* Each pair of the slave's own values was counted once, whole. */
	u = su - (double)n1 * (double)n1 / 2;
	mean = (double)n1 * (double)n2 / 2;
	o->lat_judged = 1;
	o->p_lat = upper_tail((u - mean - 0.5) / sqrt(var));
	/*
	 * Holm only raises a p-value: past alpha now, never flagged, and the
	 * merge and percentiles (most of the call's work) are not made.
	 */
	if (!(o->p_lat <= alpha))
		return;
	merge_lat(w, s);
	o->median_ns = own_percentile(w, 50, n1, lo, hi);
	o->rest_median_ns = rest_percentile(w, 50, n2, plo, phi);
	o->p99_ns = own_percentile(w, 99, n1, lo, hi);
	o->rest_p99_ns = rest_percentile(w, 99, n2, plo, phi);
	o->median_ratio = ratio(o->median_ns, o->rest_median_ns);
	o->p99_ratio = ratio(o->p99_ns, o->rest_p99_ns);
}

/* The I/O-count test: n of the nw I/Os where share pi was expected. */
static void count_test(uint64_t n, uint64_t nw, double pi,
		       struct slowhost_out *o)
{
	double e = (double)nw * pi, sd = sqrt((double)nw * pi * (1 - pi));

	if (!(pi < 1) || e < SLOWHOST_MIN_IOS || !(sd > 0))
		return;
	o->ios_judged = 1;
	o->share_ratio = (double)n / e;
	o->p_ios = upper_tail((e - (double)n - 0.5) / sd);
}

static int by_p(const void *a, const void *b)
{
	double x = ((const struct holm_slot *)a)->p;
	double y = ((const struct holm_slot *)b)->p;

	return (x > y) - (x < y);
}

/* Holm's step-down adjustment of every judged test's p-value. */
static void holm(struct slowhost_work *w, size_t n, struct slowhost_out *out)
{
	size_t m = 0;
	double run = 0;

	for (size_t i = 0; i < n; i++) {
		if (out[i].lat_judged)
			w->holm[m++] = (struct holm_slot){ out[i].p_lat,
							   (uint32_t)(2 * i) };
		if (out[i].ios_judged)
			w->holm[m++] = (struct holm_slot){
				out[i].p_ios, (uint32_t)(2 * i + 1)
			};
	}
	qsort(w->holm, m, sizeof(*w->holm), by_p);
	for (size_t k = 0; k < m; k++) {
		double adj = fmin(1, (double)(m - k) * w->holm[k].p);
		struct slowhost_out *o = &out[w->holm[k].slot / 2];

		run = fmax(run, adj); /* adjusted p-values never decrease */
		if (w->holm[k].slot % 2)
			o->p_ios = run;
		else
			o->p_lat = run;
	}
}

int slowhost_judge(struct slowhost_work *w, const struct slowhost_in *in,
		   size_t n, double alpha, struct slowhost_out *out)
{
	uint64_t total = 0, nw = 0, plo = UINT64_MAX, phi = 0;
	double ties = 0, wsum = 0;
	int flagged = 0;

	if (n > w->max)
		return -EINVAL;
	memset(w->pool, 0, sizeof(w->pool));
	for (size_t i = 0; i < n; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		out[i].p_lat = out[i].p_ios = 1;
		for (unsigned d = 0; d < in[i].nlat; d++) {
			const struct hist_sparse *h = &in[i].lat[d];

			for (size_t k = 0; k < h->n; k++)
				w->pool[h->idx[k]] += h->cnt[k];
			out[i].ios += h->count;
			if (h->count && h->min < plo)
				plo = h->min;
			if (h->count && h->max > phi)
				phi = h->max;
		}
		total += out[i].ios;
		if (in[i].weight > 0) {
			wsum += in[i].weight;
			nw += out[i].ios;
		}
	}
	for (unsigned b = 0; b < HIST_BUCKETS; b++) {
		double t = (double)w->pool[b];

		w->pcum[b] = (b ? w->pcum[b - 1] : 0) + w->pool[b];
		w->wrank[b] = (double)w->pcum[b] - t / 2;
		ties += t * t * t - t;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t n1, lo, hi;
		double su = rank_sum(w, &in[i], &n1, &lo, &hi);

		latency(w, &in[i], n1, total - n1, su, ties, alpha, plo, phi,
			lo, hi, &out[i]);
		if (in[i].weight > 0)
			count_test(out[i].ios, nw, in[i].weight / wsum,
				   &out[i]);
	}
	holm(w, n, out);
	for (size_t i = 0; i < n; i++) {
		struct slowhost_out *o = &out[i];

		o->judged = o->lat_judged || o->ios_judged;
		o->lat_flag = o->lat_judged && o->p_lat <= alpha &&
			      (o->p99_ratio >= SLOWHOST_EFFECT ||
			       o->median_ratio >= SLOWHOST_EFFECT);
		o->ios_flag = o->ios_judged && o->p_ios <= alpha &&
			      o->share_ratio <= 1 / SLOWHOST_EFFECT;
		o->flagged = o->lat_flag || o->ios_flag;
		flagged += o->flagged;
	}
	return flagged;
}
