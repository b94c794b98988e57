/*
 * results/fio.json: lockstep's runs in fio's JSON output layout, for the
 * tools that read fio's (fio-plot, HCIBench's parseFioResult.rb). One
 * fio job per run under "jobs" (the cluster), and under "client_stats"
 * one job per slave per run with its "hostname" plus an "All clients" job
 * per run, as fio's client/server mode writes them. Latencies in ns: the
 * run's per-direction figures and percentiles from its merged histograms,
 * a slave's mean only (its per-direction histograms are not kept).
 * lockstep times an I/O from its submission to its completion, fio's
 * clat: clat_ns and lat_ns carry the same figures, there is no slat.
 */
#ifndef LOCKSTEP_MASTER_FIOJSON_H
#define LOCKSTEP_MASTER_FIOJSON_H

#include <stdint.h>
#include "common/hist.h"

#define FIOJSON_NPCT 17
/* fio's default percentile list (its "percentile" keys, "%f"). */
extern const double fiojson_pcts[FIOJSON_NPCT];
#define FIOJSON_NNS 10
#define FIOJSON_NUS 10
#define FIOJSON_NMS 12

/* One direction's latency: count, min, max, mean, stddev, percentiles. */
struct fiojson_lat {
	uint64_t n, min, max;
	double mean, stddev;
	uint64_t pct[FIOJSON_NPCT];
};

/*
 * fio's latency_ns/us/ms: the percent of I/Os in each of fio's ranges
 * (ns: <=2 .. <=1000; us: <=2 .. <=1000; ms: <=2 .. <=2000, >=2000),
 * each histogram bucket counted in the range its lowest value falls in.
 */
struct fiojson_dist {
	double ns[FIOJSON_NNS], us[FIOJSON_NUS], ms[FIOJSON_NMS];
};

/* What a run's fio job needs of its merged histograms. */
struct fiojson_run {
	struct fiojson_lat lat[2]; /* read, write */
	struct fiojson_dist dist;  /* both directions */
	/* Its measured intervals' IOPS per direction: count, sum, squares
	   (fio's iops_stddev). */
	unsigned iv_n;
	double iops_sum[2], iops_sq[2];
};

/* Pure: h's figures (ns). An empty h gives zeros. */
void fiojson_lat(const struct hist *h, struct fiojson_lat *out);
void fiojson_dist(const struct hist *h, struct fiojson_dist *out);

#endif
