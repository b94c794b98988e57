/*
 * fio.json, fio's JSON layout (see fiojson.h): written once at the end
 * through the results' atomic writer, from every run's totals, its merged
 * histograms' figures (struct fiojson_run, gathered here from its rows
 * and, when it ends, from its merged totals) and its slaves' totals.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "master/results/fiojson.h"
#include "common/jsonw.h"
#include "master/run/master_int.h"
#include "master/results/sink.h"
#include "master/results/vdbench.h"
#include "lockstep_version.h"

/* Seconds a view's rates are over (its ops / its iops). */
static double view_secs(const struct stats_view *v, double fallback)
{
	return v->iops > 0 ? (double)v->ops / v->iops : fallback;
}

static void lat_block(struct jsonw *w, const char *key,
		      const struct fiojson_lat *l, uint64_t n, double mean_ms)
{
	char k[32];

	jsonw_object(w, key);
	if (l) {
		jsonw_u64(w, "min", l->min);
		jsonw_u64(w, "max", l->max);
		jsonw_dbl(w, "mean", l->mean);
		jsonw_dbl(w, "stddev", l->stddev);
		jsonw_u64(w, "N", l->n);
		if (l->n) {
			jsonw_object(w, "percentile");
			for (int i = 0; i < FIOJSON_NPCT; i++) {
				snprintf(k, sizeof(k), "%f", fiojson_pcts[i]);
				jsonw_u64(w, k, l->pct[i]);
			}
			jsonw_end(w);
		}
	} else {
		/* A slave: its mean only, what it did not measure is null. */
		jsonw_dbl(w, "mean", mean_ms * 1e6);
		jsonw_dbl(w, "stddev", NAN);
		jsonw_u64(w, "N", n);
	}
	jsonw_end(w);
}

static void dir_block(struct jsonw *w, const char *key, uint64_t bytes,
		      uint64_t ops, double secs, double mean_ms,
		      const struct fiojson_run *fr, int d)
{
	const struct fiojson_lat *l = fr ? &fr->lat[d] : NULL;
	double iops = secs > 0 ? (double)ops / secs : 0;
	double bw = secs > 0 ? (double)bytes / secs : 0;

	jsonw_object(w, key);
	jsonw_u64(w, "io_bytes", bytes);
	jsonw_u64(w, "io_kbytes", bytes / 1024);
	jsonw_dbl(w, "bw_bytes", bw);
	jsonw_dbl(w, "bw", bw / 1024);
	jsonw_dbl(w, "iops", iops);
	jsonw_u64(w, "runtime", (uint64_t)(secs * 1000 + 0.5));
	jsonw_u64(w, "total_ios", ops);
	jsonw_u64(w, "short_ios", 0);
	jsonw_u64(w, "drop_ios", 0);
	if (fr && fr->iv_n) {
		double m = fr->iops_sum[d] / fr->iv_n;
		double var = fr->iops_sq[d] / fr->iv_n - m * m;

		jsonw_dbl(w, "iops_mean", m);
		jsonw_dbl(w, "iops_stddev", var > 0 ? sqrt(var) : 0);
		jsonw_u64(w, "iops_samples", fr->iv_n);
	} else {
		jsonw_dbl(w, "iops_stddev", NAN);
	}
	lat_block(w, "clat_ns", l, ops, mean_ms);
	lat_block(w, "lat_ns", l, ops, mean_ms);
	jsonw_end(w);
}

static void dist_block(struct jsonw *w, const struct fiojson_dist *d)
{
	static const char *const ns[FIOJSON_NNS] = { "2",   "4",   "10",  "20",
						     "50",  "100", "250", "500",
						     "750", "1000" };
	static const char *const ms[FIOJSON_NMS] = { "2",    "4",    "10",
						     "20",   "50",   "100",
						     "250",  "500",  "750",
						     "1000", "2000", ">=2000" };

	jsonw_object(w, "latency_ns");
	for (int i = 0; i < FIOJSON_NNS; i++)
		jsonw_dbl(w, ns[i], d ? d->ns[i] : NAN);
	jsonw_end(w);
	jsonw_object(w, "latency_us");
	for (int i = 0; i < FIOJSON_NUS; i++)
		jsonw_dbl(w, ns[i], d ? d->us[i] : NAN);
	jsonw_end(w);
	jsonw_object(w, "latency_ms");
	for (int i = 0; i < FIOJSON_NMS; i++)
		jsonw_dbl(w, ms[i], d ? d->ms[i] : NAN);
	jsonw_end(w);
}

/* fio's rw= for a run's workloads: by rdpct and seekpct, randrw if mixed. */
static const char *rw_of(const struct vdbench_req *rq)
{
	int seq = !strcmp(rq->seekpct, "0.0000");

	if (!strcmp(rq->rdpct, "100.0000"))
		return seq ? "read" : "randread";
	if (!strcmp(rq->rdpct, "0.0000"))
		return seq ? "write" : "randwrite";
	return seq ? "rw" : "randrw";
}

/* The I/Os a run keeps in flight over the cluster: its sds' threads. */
static unsigned run_depth(const struct params *p, const struct plan_phase *ph)
{
	unsigned n = 0;

	for (unsigned sd = 0; sd < p->nsd; sd++)
		if (plan_rd_uses_sd(p, ph->rd, sd))
			n += plan_sd_threads(p, ph, sd);
	return n;
}

static void job(const struct run_view *rv, struct jsonw *w, size_t i,
		const char *jobname, const char *hostname,
		const struct stats_view *v, const struct fiojson_run *fr)
{
	const struct run_result *r = &rv->ph->runs[i];
	struct vdbench_req rq;
	char num[32];
	double secs = view_secs(v, r->ph.elapsed_s);

	vdbench_flat_req(rv->params, &r->ph, "lockstep", &rq);
	jsonw_object(w, NULL);
	jsonw_str(w, "jobname", jobname);
	if (hostname)
		jsonw_str(w, "hostname", hostname);
	jsonw_u64(w, "groupid", i);
	jsonw_i64(w, "error", 0);
	jsonw_u64(w, "lockstep_errors", v->errors);
	jsonw_str(w, "lockstep_kind", plan_kind_name(r->ph.kind));
	jsonw_object(w, "job options");
	jsonw_str(w, "name", r->ph.name);
	jsonw_str(w, "rw", rw_of(&rq));
	jsonw_str(w, "bs", rq.xfersize);
	snprintf(num, sizeof(num), "%u", run_depth(rv->params, &r->ph));
	jsonw_str(w, "iodepth", num);
	jsonw_str(w, "numjobs", "1");
	if (strcmp(rq.rdpct, "n/a")) {
		snprintf(num, sizeof(num), "%.0f", atof(rq.rdpct));
		jsonw_str(w, "rwmixread", num);
	}
	jsonw_end(w);
	dir_block(w, "read", v->read_bytes, v->read_ops, secs, v->read_resp_ms,
		  fr, 0);
	dir_block(w, "write", v->write_bytes, v->write_ops, secs,
		  v->write_resp_ms, fr, 1);
	jsonw_u64(w, "job_runtime", (uint64_t)(secs * 1000 + 0.5));
	jsonw_dbl(w, "usr_cpu", v->cpu_pct - v->cpu_sys_pct);
	jsonw_dbl(w, "sys_cpu", v->cpu_sys_pct);
	dist_block(w, fr ? &fr->dist : NULL);
	jsonw_end(w);
}

static int fio_write(const struct run_view *rv, void *priv)
{
	struct rfile out;
	struct jsonw w;
	int ret = results_atomic_open(rv, "fio.json", &out);

	(void)priv;
	if (ret < 0)
		return ret;
	jsonw_init(&w, results_w(&out));
	jsonw_object(&w, NULL);
	jsonw_str(&w, "fio version", "lockstep-" LOCKSTEP_VERSION);
	jsonw_u64(&w, "timestamp", rv->started_real / 1000000000ULL);
	jsonw_object(&w, "global options");
	jsonw_end(&w);
	jsonw_array(&w, "jobs");
	for (size_t i = 0; i < rv->ph->nruns; i++)
		if (rv->ph->runs[i].done)
			job(rv, &w, i, rv->ph->runs[i].ph.name, NULL,
			    &rv->ph->runs[i].view, rv->ph->runs[i].fio);
	jsonw_end(&w);
	jsonw_array(&w, "client_stats");
	for (size_t i = 0; i < rv->ph->nruns; i++) {
		const struct run_result *r = &rv->ph->runs[i];

		if (!r->done)
			continue;
		for (unsigned k = 0; k < r->nslave; k++)
			if (r->slave[k].ran)
				job(rv, &w, i, r->ph.name,
				    rv->roster->slaves[k].hello.name,
				    &r->slave[k].v, NULL);
		job(rv, &w, i, "All clients", NULL, &r->view, r->fio);
	}
	jsonw_end(&w);
	jsonw_end(&w);
	jsonw_finish(&w);
	results_wrote(rv, &out);
	return results_atomic_commit(rv, &out, "fio.json");
}

/* A measured row: its IOPS for the job's iops_mean and iops_stddev. */
static void fio_row(const struct run_view *rv, void *priv,
		    const struct sink_row *sr)
{
	struct run_result *r = rv->ph->cur;
	double iops[2];

	(void)priv;
	if (sr->row->warmup)
		return;
	if (!r->fio)
		r->fio = calloc(1, sizeof(*r->fio));
	if (!r->fio)
		return;
	iops[0] = (double)sr->v.read_ops / r->ph.interval_s;
	iops[1] = (double)sr->v.write_ops / r->ph.interval_s;
	r->fio->iv_n++;
	for (int d = 0; d < 2; d++) {
		r->fio->iops_sum[d] += iops[d];
		r->fio->iops_sq[d] += iops[d] * iops[d];
	}
}

/* The run's end: percentiles and latency shares of its merged totals. */
static void fio_run_end(const struct run_view *rv, void *priv,
			const struct sink_run_end *e)
{
	struct run_result *r = e->r;
	struct hist *h;

	(void)rv;
	(void)priv;
	if (!e->totals || !(h = malloc(sizeof(*h))))
		return;
	if (!r->fio)
		r->fio = calloc(1, sizeof(*r->fio));
	if (r->fio) {
		stats_combined_hist(e->totals, h);
		fiojson_dist(h, &r->fio->dist);
		for (int d = 0; d < 2; d++)
			fiojson_lat(&e->totals->lat[d], &r->fio->lat[d]);
	}
	free(h);
}

const struct sink_ops sink_fio = {
	.name = "fio.json",
	.row = fio_row,
	.run_end = fio_run_end,
	.write = fio_write,
};
