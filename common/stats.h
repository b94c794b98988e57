/*
 * I/O statistics of one slave or of the cluster over some span (an interval,
 * a run): counters, read and write latency histograms, CPU. Adding two
 * stats adds every field, so cluster totals are exact sums; derived values
 * (rates, means, percentiles, queue depth) are computed from the sums by
 * stats_view(), never averaged from other derived values.
 */
#ifndef LOCKSTEP_COMMON_STATS_H
#define LOCKSTEP_COMMON_STATS_H

#include <stdint.h>
#include "common/hist.h"

enum { STATS_READ = 0, STATS_WRITE = 1 };

struct stats {
	uint64_t ops[2];
	uint64_t bytes[2];
	uint64_t errors;
	struct hist lat[2]; /* latency per direction, ns */
	/*
	 * CPU: sum over contributing slaves of their process user/system CPU
	 * time and of (their wall time x their cores), so the ratio is the
	 * average utilisation across the cluster's slaves.
	 */
	uint64_t cpu_user_ns;
	uint64_t cpu_sys_ns;
	uint64_t cpu_avail_ns;
	unsigned samples; /* slave-intervals added */
};

/* Derived view for printing; all latencies in milliseconds. */
struct stats_view {
	uint64_t ops, read_ops, write_ops;
	uint64_t bytes, read_bytes, write_bytes, errors;
	double iops, mbps;       /* MB = 1024*1024 bytes */
	double xfer_bytes;       /* average bytes per I/O */
	double read_pct;         /* 0..100; 0 when no I/O */
	double resp_ms, read_resp_ms, write_resp_ms;
	double resp_max_ms, resp_stddev_ms;
	double p50_ms, p95_ms, p99_ms, p999_ms;
	double queue_depth;      /* Little's law: total latency / span */
	double cpu_pct, cpu_sys_pct;
};

/* The latency sums every histogram form carries. */
struct stats_lat_sums {
	uint64_t count, sum;
	uint64_t min;   /* UINT64_MAX when empty */
	uint64_t max;
	double sumsq;
};

/*
 * A stats without its buckets: the sums, which add cheaply. The master
 * keeps one per slave (a dense histogram per slave costs a thousand slaves
 * more cache misses than the rest of the master's work).
 */
struct stats_sums {
	uint64_t ops[2];
	uint64_t bytes[2];
	uint64_t errors;
	struct stats_lat_sums lat[2];
	uint64_t cpu_user_ns;
	uint64_t cpu_sys_ns;
	uint64_t cpu_avail_ns;
	unsigned samples;
};

/* Initialise an empty stats (histograms empty). */
void stats_init(struct stats *s);
/* dst += src. */
void stats_add(struct stats *dst, const struct stats *src);
/* Combined read+write latency histogram into out (overwritten). */
void stats_combined_hist(const struct stats *s, struct hist *out);
/* Compute the view over a span of seconds (> 0). */
void stats_view(const struct stats *s, double seconds, struct stats_view *v);
/*
 * The same view for one sample whose latencies are the sparse histograms
 * lat[STATS_READ] and lat[STATS_WRITE] (a slave's interval as it arrived,
 * validated): counters and CPU come from s, whose own histograms are not
 * read. No dense histogram is built: O(buckets of lat).
 */
void stats_view_sparse(const struct stats *s, const struct hist_sparse *lat,
		       double seconds, struct stats_view *v);

void stats_sums_init(struct stats_sums *s);
/*
 * The view of sums. The percentiles come from lat[STATS_READ] and
 * lat[STATS_WRITE] (sparse, validated) when lat is not NULL; they are NaN
 * (unknown) when it is. lat's own sums are not read.
 */
void stats_view_sums(const struct stats_sums *s, const struct hist_sparse *lat,
		     double seconds, struct stats_view *v);

#endif
