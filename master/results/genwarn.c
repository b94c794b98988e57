/*
 * Generator bottleneck warnings: the tests of genwarn.h on a host's
 * figures, with no I/O and no clock, so that tests/test_genwarn.c can
 * hold them to their thresholds.
 */
#include "master/results/genwarn.h"

double genwarn_cpu_pct(uint64_t cpu_ns, uint64_t interval_ns, uint32_t cores)
{
	double avail = (double)interval_ns * (double)cores;

	return avail > 0 ? (double)cpu_ns / avail * 100.0 : 0.0;
}

double genwarn_runq_per_core(uint64_t runq_ns, uint64_t interval_ns,
			     uint32_t cores)
{
	double avail = (double)interval_ns * (double)cores;

	return avail > 0 ? (double)runq_ns / avail : 0.0;
}

void genwarn_interval(struct genwarn_host *h, double pct, double runq)
{
	h->intervals++;
	if (pct > GENWARN_CPU_PCT || runq > GENWARN_RUNQ_PER_CORE)
		h->busy++;
	if (pct > h->cpu_pct_max)
		h->cpu_pct_max = pct;
	h->cpu_pct_sum += pct;
	if (runq > h->runq_max)
		h->runq_max = runq;
	h->runq_sum += runq;
}

double genwarn_inflight_per_core(const struct genwarn_host *h)
{
	return h->cores ? (double)h->inflight / h->cores : 0.0;
}

void genwarn_lag(struct genwarn_host *h, uint64_t lag_ns, uint64_t lag_n,
		 uint64_t lag_max_ns, uint64_t lat_ns, uint64_t lat_n)
{
	h->lag_ns = genwarn_sat_add(h->lag_ns, lag_ns);
	h->lag_n = genwarn_sat_add(h->lag_n, lag_n);
	if (lag_max_ns > h->lag_max_ns)
		h->lag_max_ns = lag_max_ns;
	h->lat_ns = genwarn_sat_add(h->lat_ns, lat_ns);
	h->lat_n = genwarn_sat_add(h->lat_n, lat_n);
}

double genwarn_lag_mean_ns(const struct genwarn_host *h)
{
	return h->lag_n ? (double)h->lag_ns / (double)h->lag_n : 0.0;
}

double genwarn_lag_pct(const struct genwarn_host *h)
{
	double lat = h->lat_n ? (double)h->lat_ns / (double)h->lat_n : 0.0;

	return lat > 0 ? genwarn_lag_mean_ns(h) / lat * 100.0 : 0.0;
}

void genwarn_queue(struct genwarn_host *h, double app_qd, double dev_qd)
{
	h->queue_n++;
	h->app_qd_sum += app_qd;
	h->dev_qd_sum += dev_qd;
	if (app_qd >= GENWARN_QUEUE_MIN &&
	    dev_qd < GENWARN_QUEUE_SHARE * app_qd)
		h->queue_above++;
}

unsigned genwarn_judge(const struct genwarn_host *h)
{
	unsigned f = 0;

	/* Half or more of its intervals, and at least one. */
	if (h->busy && 2 * (uint64_t)h->busy >= h->intervals)
		f |= GENWARN_CPU;
	if (h->cores &&
	    h->inflight > (uint64_t)h->cores * GENWARN_INFLIGHT_PER_CORE)
		f |= GENWARN_INFLIGHT;
	if (h->lag_n >= GENWARN_LAG_MIN_IOS &&
	    genwarn_lag_mean_ns(h) >= GENWARN_LAG_FLOOR_NS &&
	    genwarn_lag_pct(h) >= GENWARN_LAG_PCT)
		f |= GENWARN_LAG;
	if (h->queue_above && 2 * (uint64_t)h->queue_above >= h->queue_n)
		f |= GENWARN_QUEUE;
	return f;
}
