/*
 * I/O statistics: exact sums of counters, latency histograms and CPU times,
 * and the derived view (rates, means, percentiles, queue depth, CPU
 * utilisation) computed from those sums for printing. Derived values are
 * only ever computed here, from sums, so cluster-wide numbers are as exact
 * as per-slave ones.
 */
#include "common/stats.h"

#include <math.h>
#include <string.h>

void stats_init(struct stats *s)
{
	memset(s, 0, sizeof(*s));
	hist_init(&s->lat[STATS_READ]);
	hist_init(&s->lat[STATS_WRITE]);
}

void stats_add(struct stats *dst, const struct stats *src)
{
	for (int d = 0; d < 2; d++) {
		dst->ops[d] += src->ops[d];
		dst->bytes[d] += src->bytes[d];
		hist_merge(&dst->lat[d], &src->lat[d]);
	}
	dst->errors += src->errors;
	dst->cpu_user_ns += src->cpu_user_ns;
	dst->cpu_sys_ns += src->cpu_sys_ns;
	dst->cpu_avail_ns += src->cpu_avail_ns;
	dst->samples += src->samples;
}

void stats_combined_hist(const struct stats *s, struct hist *out)
{
	hist_init(out);
	hist_merge(out, &s->lat[STATS_READ]);
	hist_merge(out, &s->lat[STATS_WRITE]);
}

#define LAT_SUMS(h) \
	((struct stats_lat_sums){ (h)->count, (h)->sum, (h)->min, (h)->max, \
				  (h)->sumsq })

void stats_sums_init(struct stats_sums *s)
{
	memset(s, 0, sizeof(*s));
	s->lat[STATS_READ].min = UINT64_MAX;
	s->lat[STATS_WRITE].min = UINT64_MAX;
}

/* The counters of s and the given latency sums. */
static void sums_of(const struct stats *s, struct stats_lat_sums rd,
		    struct stats_lat_sums wr, struct stats_sums *out)
{
	for (int d = 0; d < 2; d++) {
		out->ops[d] = s->ops[d];
		out->bytes[d] = s->bytes[d];
	}
	out->errors = s->errors;
	out->lat[STATS_READ] = rd;
	out->lat[STATS_WRITE] = wr;
	out->cpu_user_ns = s->cpu_user_ns;
	out->cpu_sys_ns = s->cpu_sys_ns;
	out->cpu_avail_ns = s->cpu_avail_ns;
	out->samples = s->samples;
}

static const double view_ps[] = { 50.0, 95.0, 99.0, 99.9 };
#define VIEW_NP (sizeof(view_ps) / sizeof(view_ps[0]))

/* Bucket idx reported as its midpoint, clamped to [min, max]. */
static double bucket_value(unsigned idx, uint64_t min, uint64_t max)
{
	uint64_t lo = hist_bucket_lo(idx), hi = hist_bucket_hi(idx);
	uint64_t mid = lo + (hi - lo) / 2;

	if (mid < min)
		mid = min;
	if (mid > max)
		mid = max;
	return (double)mid;
}

/*
 * Percentiles of the read+write histogram computed by walking both at once,
 * with the same rule as hist_percentile(), so stats_view() needs no 37 KiB
 * temporary. out[k] receives the value in ns for view_ps[k].
 */
static void combined_percentiles(const struct hist *a, const struct hist *b,
				 double *out)
{
	uint64_t count = a->count + b->count;
	uint64_t min = a->min < b->min ? a->min : b->min;
	uint64_t max = a->max > b->max ? a->max : b->max;
	uint64_t cum = 0;
	unsigned i = 0;

	for (size_t k = 0; k < VIEW_NP; k++) {
		uint64_t target = hist_rank(view_ps[k], count);

		if (count == 0) {
			out[k] = 0.0;
			continue;
		}
		/* i is the next bucket to add; i - 1 reached cum. */
		while (i < HIST_BUCKETS && cum < target) {
			cum += a->buckets[i] + b->buckets[i];
			i++;
		}
		out[k] = cum < target || i == 0 ? (double)max :
						  bucket_value(i - 1, min, max);
	}
}

/*
 * The next bucket of a and b together from the top (i, j count the buckets
 * not yet taken), its index in *idx and its count, both histograms' if
 * they share it; 0 when none is left.
 */
static uint64_t sparse_top(const struct hist_sparse *a, size_t i,
			   const struct hist_sparse *b, size_t j, unsigned *idx)
{
	if (i && (!j || a->idx[i - 1] > b->idx[j - 1])) {
		*idx = a->idx[i - 1];
		return a->cnt[i - 1];
	}
	if (j && (!i || b->idx[j - 1] > a->idx[i - 1])) {
		*idx = b->idx[j - 1];
		return b->cnt[j - 1];
	}
	if (!i)
		return 0;
	*idx = a->idx[i - 1];
	return a->cnt[i - 1] + b->cnt[j - 1];
}

/*
 * The same over two sparse histograms (index arrays ascending, counts
 * summing to count, as decoded and built). Ranks in the upper half are
 * found walking down from the top: bucket i holds rank t when the counts
 * above it are at most count - t and those from it up are more. The
 * master computes these for every slave's interval, and the tail above
 * p95 has far fewer buckets than the way up to p99.9 from the bottom.
 */
static void sparse_percentiles(const struct hist_sparse *a,
			       const struct hist_sparse *b, double *out)
{
	uint64_t count = a->count + b->count;
	uint64_t min = a->min < b->min ? a->min : b->min;
	uint64_t max = a->max > b->max ? a->max : b->max;
	uint64_t cum = 0, above = 0;
	size_t i = 0, j = 0, k = 0;
	unsigned idx = 0;

	if (count == 0) {
		for (k = 0; k < VIEW_NP; k++)
			out[k] = 0.0;
		return;
	}
	for (; k < VIEW_NP; k++) {
		uint64_t target = hist_rank(view_ps[k], count);

		if (target > count / 2)
			break;
		while (cum < target && (i < a->n || j < b->n)) {
			if (j >= b->n || (i < a->n && a->idx[i] < b->idx[j])) {
				idx = a->idx[i];
				cum += a->cnt[i++];
			} else if (i >= a->n || b->idx[j] < a->idx[i]) {
				idx = b->idx[j];
				cum += b->cnt[j++];
			} else {
				idx = a->idx[i];
				cum += a->cnt[i++] + b->cnt[j++];
			}
		}
		out[k] = cum < target ? (double)max : bucket_value(idx, min, max);
	}
	i = a->n;
	j = b->n;
	for (size_t t = VIEW_NP; t-- > k;) {
		uint64_t r = count - hist_rank(view_ps[t], count), c;
		int found = 0;

		while ((c = sparse_top(a, i, b, j, &idx)) > 0) {
			if (above + c > r) {
				found = 1;
				break;
			}
			above += c;
			if (i && a->idx[i - 1] == idx)
				i--;
			if (j && b->idx[j - 1] == idx)
				j--;
		}
		out[t] = found ? bucket_value(idx, min, max) : (double)max;
	}
}

/* Everything but the percentiles (pv, ns), from the counters and sums. */
static void view_fill(const struct stats_sums *s, const double *pv,
		      double seconds, struct stats_view *v)
{
	const struct stats_lat_sums *rd = &s->lat[STATS_READ];
	const struct stats_lat_sums *wr = &s->lat[STATS_WRITE];

	memset(v, 0, sizeof(*v));
	v->read_ops = s->ops[STATS_READ];
	v->write_ops = s->ops[STATS_WRITE];
	v->ops = v->read_ops + v->write_ops;
	v->read_bytes = s->bytes[STATS_READ];
	v->write_bytes = s->bytes[STATS_WRITE];
	v->bytes = v->read_bytes + v->write_bytes;
	v->errors = s->errors;

	if (seconds > 0.0) {
		v->iops = (double)v->ops / seconds;
		v->mbps = (double)v->bytes / seconds / 1048576.0;
		v->queue_depth = ((double)rd->sum + (double)wr->sum) /
				 (seconds * 1e9);
	}
	if (v->ops > 0) {
		v->xfer_bytes = (double)v->bytes / (double)v->ops;
		v->read_pct = (double)v->read_ops / (double)v->ops * 100.0;
	}

	if (rd->count)
		v->read_resp_ms = (double)rd->sum / (double)rd->count / 1e6;
	if (wr->count)
		v->write_resp_ms = (double)wr->sum / (double)wr->count / 1e6;
	uint64_t n = rd->count + wr->count;
	if (n > 0) {
		double mean = ((double)rd->sum + (double)wr->sum) / (double)n;
		double var = (rd->sumsq + wr->sumsq) / (double)n - mean * mean;
		v->resp_ms = mean / 1e6;
		v->resp_stddev_ms = (var > 0.0 ? sqrt(var) : 0.0) / 1e6;
		uint64_t max = rd->max > wr->max ? rd->max : wr->max;
		v->resp_max_ms = (double)max / 1e6;
	}

	v->p50_ms = pv[0] / 1e6;
	v->p95_ms = pv[1] / 1e6;
	v->p99_ms = pv[2] / 1e6;
	v->p999_ms = pv[3] / 1e6;

	if (s->cpu_avail_ns > 0) {
		double avail = (double)s->cpu_avail_ns;
		v->cpu_pct = ((double)s->cpu_user_ns + (double)s->cpu_sys_ns) /
			     avail * 100.0;
		v->cpu_sys_pct = (double)s->cpu_sys_ns / avail * 100.0;
	}
}

void stats_view(const struct stats *s, double seconds, struct stats_view *v)
{
	struct stats_sums c;
	double pv[VIEW_NP];

	sums_of(s, LAT_SUMS(&s->lat[STATS_READ]),
		LAT_SUMS(&s->lat[STATS_WRITE]), &c);
	combined_percentiles(&s->lat[STATS_READ], &s->lat[STATS_WRITE], pv);
	view_fill(&c, pv, seconds, v);
}

void stats_view_sparse(const struct stats *s, const struct hist_sparse *lat,
		       double seconds, struct stats_view *v)
{
	struct stats_sums c;
	double pv[VIEW_NP];

	sums_of(s, LAT_SUMS(&lat[STATS_READ]), LAT_SUMS(&lat[STATS_WRITE]),
		&c);
	sparse_percentiles(&lat[STATS_READ], &lat[STATS_WRITE], pv);
	view_fill(&c, pv, seconds, v);
}

void stats_view_sums(const struct stats_sums *s, const struct hist_sparse *lat,
		     double seconds, struct stats_view *v)
{
	double pv[VIEW_NP];

	if (lat)
		sparse_percentiles(&lat[STATS_READ], &lat[STATS_WRITE], pv);
	else
		for (size_t k = 0; k < VIEW_NP; k++)
			pv[k] = NAN;
	view_fill(s, pv, seconds, v);
}
