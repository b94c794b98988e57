/*
 * The figures of results/fio.json taken from merged histograms. See
 * fiojson.h; the file itself is written by results_fio.c.
 */
#include <string.h>
#include "master/results/fiojson.h"

const double fiojson_pcts[FIOJSON_NPCT] = { 1,  5,    10,   20,    30,   40,
					    50, 60,   70,   80,    90,   95,
					    99, 99.5, 99.9, 99.95, 99.99 };

void fiojson_lat(const struct hist *h, struct fiojson_lat *out)
{
	memset(out, 0, sizeof(*out));
	if (!h->count)
		return;
	out->n = h->count;
	out->min = h->min;
	out->max = h->max;
	out->mean = hist_mean(h);
	out->stddev = hist_stddev(h);
	for (int i = 0; i < FIOJSON_NPCT; i++)
		out->pct[i] = hist_percentile(h, fiojson_pcts[i]);
}

void fiojson_dist(const struct hist *h, struct fiojson_dist *out)
{
	static const double ns[FIOJSON_NNS] = { 2,   4,   10,  20,  50,
						100, 250, 500, 750, 1000 };
	static const double ms[FIOJSON_NMS - 1] = { 2,   4,    10,  20,
						    50,  100,  250, 500,
						    750, 1000, 2000 };
	double *slot;

	memset(out, 0, sizeof(*out));
	if (!h->count)
		return;
	for (unsigned b = 0; b < HIST_BUCKETS; b++) {
		double v = (double)hist_bucket_lo(b);
		int i;

		if (!h->buckets[b])
			continue;
		if (v <= 1000) {
			for (i = 0; i < FIOJSON_NNS - 1 && v > ns[i]; i++)
				;
			slot = &out->ns[i];
		} else if (v <= 1e6) {
			for (i = 0; i < FIOJSON_NUS - 1 && v > ns[i] * 1e3; i++)
				;
			slot = &out->us[i];
		} else {
			for (i = 0; i < FIOJSON_NMS - 1 && v > ms[i] * 1e6; i++)
				;
			slot = &out->ms[i];
		}
		*slot += 100.0 * (double)h->buckets[b] / (double)h->count;
	}
}
