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

/*
 * Percentiles of the read+write histogram computed by walking both at once,
 * with the same rule as hist_percentile(), so stats_view() needs no 37 KiB
 * temporary. ps must be ascending and strictly between 0 and 100; out[k]
 * receives the value in ns for ps[k].
 */
static void combined_percentiles(const struct hist *a, const struct hist *b,
				 const double *ps, double *out, size_t np)
{
	uint64_t count = a->count + b->count;
	uint64_t min = a->min < b->min ? a->min : b->min;
	uint64_t max = a->max > b->max ? a->max : b->max;
	uint64_t cum = 0;
	unsigned i = 0;

	for (size_t k = 0; k < np; k++) {
		if (count == 0) {
			out[k] = 0.0;
			continue;
		}
		double rank = ceil(ps[k] / 100.0 * (double)count);
		uint64_t target = rank < 1.0 ? 1 : (uint64_t)rank;
		if (target > count)
			target = count;
		/* i is the next bucket to add; i - 1 reached cum. */
		while (i < HIST_BUCKETS && cum < target) {
			cum += a->buckets[i] + b->buckets[i];
			i++;
		}
		if (cum < target || i == 0) {
			out[k] = (double)max;
			continue;
		}
		uint64_t lo = hist_bucket_lo(i - 1), hi = hist_bucket_hi(i - 1);
		uint64_t mid = lo + (hi - lo) / 2;
		if (mid < min)
			mid = min;
		if (mid > max)
			mid = max;
		out[k] = (double)mid;
	}
}

void stats_view(const struct stats *s, double seconds, struct stats_view *v)
{
	static const double ps[] = { 50.0, 95.0, 99.0, 99.9 };
	const struct hist *rd = &s->lat[STATS_READ], *wr = &s->lat[STATS_WRITE];
	double pv[4];

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

	v->read_resp_ms = hist_mean(rd) / 1e6;
	v->write_resp_ms = hist_mean(wr) / 1e6;
	uint64_t n = rd->count + wr->count;
	if (n > 0) {
		double mean = ((double)rd->sum + (double)wr->sum) / (double)n;
		double var = (rd->sumsq + wr->sumsq) / (double)n - mean * mean;
		v->resp_ms = mean / 1e6;
		v->resp_stddev_ms = (var > 0.0 ? sqrt(var) : 0.0) / 1e6;
		uint64_t max = rd->max > wr->max ? rd->max : wr->max;
		v->resp_max_ms = (double)max / 1e6;
	}

	combined_percentiles(rd, wr, ps, pv, 4);
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
