/*
 * devices.csv and hoststats.csv: what the devices under the slaves'
 * targets and the slaves' hosts did, interval by interval (devstat.h
 * computes the figures). devices.csv has a row per slave, interval and
 * device, and per cluster interval a row of host "cluster", device
 * "all", written with the cluster's intervals.csv row from the devices
 * of the slaves' rows that came on time, each device counted once (two
 * slaves of one host share its devices); late slave rows are written with
 * late=1 and are not in the cluster row. summary.json's runs get the
 * measured intervals' device and host figures ("telemetry").
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "common/jsonw.h"
#include "common/log.h"
#include "master/run/master_int.h"
#include "master/export/export.h"
#include "master/results/devstat.h"
#include "master/results/sink.h"

#define TELE_RING 64 /* cluster intervals in the making, by seq */

struct tele_dev {
	uint64_t key;
	struct proto_dev d;
};

struct tele_slot {
	int used;
	unsigned seq;
	size_t n, cap;
	struct tele_dev *dev;
};

/* A run's measured intervals, for summary.json. */
struct tele_run {
	unsigned rows;
	double iops, mbps, util_max;
	uint64_t ios[2], ticks_ms[2];
	double cpu_busy_max, iowait_max, steal_max;
	int host_seen;
};

struct tele {
	struct rfile dev, host;
	struct tele_slot ring[TELE_RING];
	struct tele_run *run;
	size_t nrun;
};

static const char dev_header[] =
	"run,interval,phase,start_ns,end_ns,host,slave,device,span_ns,r_s,"
	"w_s,rmbps,wmbps,r_await_ms,w_await_ms,aqu_sz,util_pct,inflight,"
	"late\n";
static const char host_header[] =
	"run,interval,phase,start_ns,end_ns,host,slave,span_ns,cpu_user_pct,"
	"cpu_sys_pct,cpu_iowait_pct,cpu_steal_pct,cpu_idle_pct,"
	"slave_cpu_pct,psi_cpu_some_pct,psi_mem_some_pct,psi_io_some_pct,"
	"nic,rx_mbps,tx_mbps,rx_pps,tx_pps,late\n";

/*
 * A peer's text as one CSV field: quoted when it holds a comma, a quote
 * or a space, control bytes as '?'.
 */
static void csv_text(FILE *f, const char *s)
{
	int quote = strpbrk(s, ",\" ") != NULL;

	if (quote)
		fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"')
			fputc('"', f);
		fputc(c < 0x20 || c == 0x7f ? '?' : c, f);
	}
	if (quote)
		fputc('"', f);
}

/* ",x" with d decimals, or "," for a figure not measured. */
static void num(FILE *f, double x, int d)
{
	if (isfinite(x))
		fprintf(f, ",%.*f", d, x);
	else
		fputc(',', f);
}

static int open_csv(const struct run_view *rv, const char *name,
		    const char *header, struct rfile *out)
{
	int ret = results_file_open(rv, name, out);
	FILE *f;

	if (ret < 0) {
		log_error("cannot write %s/%s: %s", rv->out->dir, name,
			  strerror(-ret));
		return ret;
	}
	if ((f = results_w(out))) {
		fputs(header, f);
		results_wrote(rv, out);
	}
	return 0;
}

static int tele_open(const struct run_view *rv, void *priv)
{
	struct tele *T = priv;
	int ret = open_csv(rv, "devices.csv", dev_header, &T->dev);

	if (!ret)
		ret = open_csv(rv, "hoststats.csv", host_header, &T->host);
	T->nrun = rv->ph->nruns;
	T->run = calloc(T->nrun ? T->nrun : 1, sizeof(*T->run));
	return ret < 0 ? ret : T->run ? 0 : -ENOMEM;
}

static void row_head(FILE *f, const struct run_view *rv, unsigned seq,
		     const char *phase, uint64_t start, uint64_t end,
		     const char *host, const char *slave)
{
	fprintf(f, "%s,%u,%s,%llu,%llu,", rv->ph->cur->ph.name, seq + 1, phase,
		(unsigned long long)start, (unsigned long long)end);
	csv_text(f, host);
	fputc(',', f);
	csv_text(f, slave);
}

/*
 * The live export's points: every metric always (NaN where unmeasured),
 * so that a Prometheus family has one sample per series.
 */
static void export_dev(const struct run_view *rv, const char *phase,
		       const struct sink_slave_row *r, unsigned seq,
		       uint64_t end_ns, const char *dev,
		       const struct devstat_fig *g)
{
	const struct export_metric m[] = {
		{ "read_iops", g->r_s, 3 },
		{ "write_iops", g->w_s, 3 },
		{ "read_mbps", g->rmbps, 4 },
		{ "write_mbps", g->wmbps, 4 },
		{ "read_await_ms", g->r_await_ms, 4 },
		{ "write_await_ms", g->w_await_ms, 4 },
		{ "queue_size", g->aqu_sz, 3 },
		{ "util_pct", g->util_pct, 2 },
		{ "inflight", (double)g->in_flight, 0 },
	};
	struct export_point p = {
		.kind = EXPORT_DEVICE,
		.obj = dev,
		.nm = sizeof(m) / sizeof(m[0]),
		.m = m,
		.run = rv->ph->cur->ph.name,
		.phase = phase,
		.host = r ? r->s->hello.host : NULL,
		.slave = r ? r->s->hello.name : NULL,
		.interval = seq + 1,
		.end_ns = end_ns,
		.reported = 1,
		.expected = 1,
	};

	export_point(rv->out->exp, &p);
}

static void export_host(const struct run_view *rv,
			const struct sink_slave_row *r,
			const struct hoststat_fig *h)
{
	const struct export_metric m[] = {
		{ "cpu_user_pct", h->cpu_pct[0], 2 },
		{ "cpu_sys_pct", h->cpu_pct[1], 2 },
		{ "cpu_iowait_pct", h->cpu_pct[2], 2 },
		{ "cpu_steal_pct", h->cpu_pct[3], 2 },
		{ "cpu_idle_pct", h->cpu_pct[4], 2 },
		{ "slave_cpu_pct", h->slave_cpu_pct, 2 },
		{ "psi_cpu_some_pct", h->psi_pct[0], 2 },
		{ "psi_mem_some_pct", h->psi_pct[1], 2 },
		{ "psi_io_some_pct", h->psi_pct[2], 2 },
		{ "rx_mbps", h->net_mbps[0], 4 },
		{ "tx_mbps", h->net_mbps[1], 4 },
		{ "rx_pps", h->net_pps[0], 1 },
		{ "tx_pps", h->net_pps[1], 1 },
	};
	struct export_point p = {
		.kind = EXPORT_HOSTSTAT,
		.nm = sizeof(m) / sizeof(m[0]),
		.m = m,
		.run = rv->ph->cur->ph.name,
		.phase = r->late ? "late" : r->note,
		.host = r->s->hello.host,
		.slave = r->s->hello.name,
		.interval = r->iv->seq + 1,
		.end_ns = r->iv->end_ns,
		.reported = 1,
		.expected = 1,
	};

	export_point(rv->out->exp, &p);
}

static void dev_cells(FILE *f, const struct devstat_fig *g, int late)
{
	num(f, g->r_s, 3);
	num(f, g->w_s, 3);
	num(f, g->rmbps, 4);
	num(f, g->wmbps, 4);
	num(f, g->r_await_ms, 4);
	num(f, g->w_await_ms, 4);
	num(f, g->aqu_sz, 3);
	num(f, g->util_pct, 2);
	fprintf(f, ",%llu,%d\n", (unsigned long long)g->in_flight, late);
}

/* The slot of cluster interval seq (reset if it held an older one). */
static struct tele_slot *slot_of(struct tele *T, unsigned seq)
{
	struct tele_slot *sl = &T->ring[seq % TELE_RING];

	if (!sl->used || sl->seq != seq) {
		sl->used = 1;
		sl->seq = seq;
		sl->n = 0;
	}
	return sl;
}

static void slot_add(struct tele_slot *sl, uint64_t key,
		     const struct proto_dev *d)
{
	if (sl->n == sl->cap) {
		size_t cap = sl->cap ? sl->cap * 2 : 64;
		struct tele_dev *p = realloc(sl->dev, cap * sizeof(*p));

		if (!p)
			return; /* the cluster row lacks it; the slave rows not */
		sl->dev = p;
		sl->cap = cap;
	}
	sl->dev[sl->n].key = key;
	sl->dev[sl->n].d = *d;
	sl->n++;
}

static void host_row(const struct run_view *rv, struct tele *T,
		     const struct sink_slave_row *r)
{
	const struct proto_interval *iv = r->iv;
	FILE *f = results_w(&T->host);
	struct hoststat_fig h;
	struct tele_run *o = rv->ph->cur - rv->ph->runs < (long)T->nrun ?
				     &T->run[rv->ph->cur - rv->ph->runs] :
				     NULL;

	devstat_host(iv, rv->ph->cur->ph.interval_ns, &h);
	if (o && !strcmp(r->note, "measure") && (iv->tele & PROTO_TELE_CPU)) {
		o->host_seen = 1;
		o->cpu_busy_max = fmax(o->cpu_busy_max,
				       h.cpu_pct[0] + h.cpu_pct[1]);
		o->iowait_max = fmax(o->iowait_max, h.cpu_pct[2]);
		o->steal_max = fmax(o->steal_max, h.cpu_pct[3]);
	}
	if (!iv->tele)
		return;
	export_host(rv, r, &h);
	if (!f)
		return;
	row_head(f, rv, iv->seq, r->note, iv->start_ns, iv->end_ns,
		 r->s->hello.host, r->s->hello.name);
	fprintf(f, ",%llu", (unsigned long long)iv->tele_span_ns);
	for (int i = 0; i < 5; i++)
		num(f, h.cpu_pct[i], 2);
	num(f, h.slave_cpu_pct, 2);
	for (int i = 0; i < 3; i++)
		num(f, h.psi_pct[i], 2);
	fputc(',', f);
	csv_text(f, (iv->tele & PROTO_TELE_NIC) ? iv->nic : "");
	num(f, h.net_mbps[0], 4);
	num(f, h.net_mbps[1], 4);
	num(f, h.net_pps[0], 1);
	num(f, h.net_pps[1], 1);
	fprintf(f, ",%d\n", r->late);
	results_wrote(rv, &T->host);
}

static void tele_slave_row(const struct run_view *rv, void *priv,
			   const struct sink_slave_row *r)
{
	struct tele *T = priv;
	const struct proto_interval *iv = r->iv;
	struct tele_slot *sl = r->late ? NULL : slot_of(T, iv->seq);
	FILE *f = results_w(&T->dev);

	host_row(rv, T, r);
	for (uint32_t i = 0; i < iv->ndevs; i++) {
		const struct proto_dev *d = &iv->devs[i];
		struct devstat_fig g;

		if (sl)
			slot_add(sl,
				 devstat_key(r->s->hello.host, d->major,
					     d->minor),
				 d);
		devstat_of(d, &g);
		export_dev(rv, r->late ? "late" : r->note, r, iv->seq,
			   iv->end_ns, d->name, &g);
		if (!f)
			continue;
		row_head(f, rv, iv->seq, r->note, iv->start_ns, iv->end_ns,
			 r->s->hello.host, r->s->hello.name);
		fputc(',', f);
		csv_text(f, d->name);
		/* the figures' seconds: not the interval's after a missed
		 * sample, nor the first's (its base came before the start) */
		fprintf(f, ",%llu", (unsigned long long)d->span_ns);
		dev_cells(f, &g, r->late);
	}
	if (f && iv->ndevs)
		results_wrote(rv, &T->dev);
}

static int by_key(const void *a, const void *b)
{
	uint64_t x = ((const struct tele_dev *)a)->key;
	uint64_t y = ((const struct tele_dev *)b)->key;

	return x < y ? -1 : x > y;
}

static void tele_row(const struct run_view *rv, void *priv,
		     const struct sink_row *r)
{
	struct tele *T = priv;
	const struct merge_row *row = r->row;
	struct tele_slot *sl = &T->ring[row->seq % TELE_RING];
	struct devstat_sum sum = { 0 };
	struct devstat_fig g;
	struct tele_run *o;
	FILE *f;

	if (!sl->used || sl->seq != row->seq || !sl->n) {
		sl->used = 0;
		return;
	}
	qsort(sl->dev, sl->n, sizeof(*sl->dev), by_key);
	for (size_t i = 0; i < sl->n; i++)
		if (!i || sl->dev[i].key != sl->dev[i - 1].key)
			devstat_sum_add(&sum, &sl->dev[i].d);
	sl->used = 0;
	devstat_sum_fig(&sum, &g);
	o = rv->ph->cur - rv->ph->runs < (long)T->nrun ?
		    &T->run[rv->ph->cur - rv->ph->runs] :
		    NULL;
	if (o && !row->warmup && sum.ndevs) {
		o->rows++;
		o->iops += g.r_s + g.w_s;
		o->mbps += g.rmbps + g.wmbps;
		o->util_max = fmax(o->util_max, g.util_pct);
		for (int k = 0; k < 2; k++) {
			o->ios[k] += sum.ios[k];
			o->ticks_ms[k] += sum.ticks_ms[k];
		}
	}
	export_dev(rv, row->warmup ? "warmup" : "measure", NULL, row->seq,
		   row->end_ns, "all", &g);
	if (!(f = results_w(&T->dev)))
		return;
	row_head(f, rv, row->seq, row->warmup ? "warmup" : "measure",
		 row->start_ns, row->end_ns, "cluster", "");
	fputs(",all,", f); /* no span: its devices' spans may differ */
	dev_cells(f, &g, 0);
	results_wrote(rv, &T->dev);
	results_flush(rv, &T->dev);
	results_flush(rv, &T->host);
}

static void tele_run_json(const struct run_view *rv, void *priv,
			  const struct run_result *r, struct jsonw *w)
{
	struct tele *T = priv;
	size_t idx = (size_t)(r - rv->ph->runs);
	const struct tele_run *o = idx < T->nrun ? &T->run[idx] : NULL;

	if (!o || (!o->rows && !o->host_seen))
		return;
	jsonw_object(w, "telemetry");
	if (o->rows) {
		jsonw_u64(w, "device_intervals", o->rows);
		jsonw_dbl(w, "device_iops", o->iops / o->rows);
		jsonw_dbl(w, "device_mbps", o->mbps / o->rows);
		if (o->ios[0])
			jsonw_dbl(w, "device_r_await_ms",
				  (double)o->ticks_ms[0] / (double)o->ios[0]);
		if (o->ios[1])
			jsonw_dbl(w, "device_w_await_ms",
				  (double)o->ticks_ms[1] / (double)o->ios[1]);
		jsonw_dbl(w, "device_util_pct_max", o->util_max);
	}
	if (o->host_seen) {
		jsonw_dbl(w, "host_cpu_busy_pct_max", o->cpu_busy_max);
		jsonw_dbl(w, "host_iowait_pct_max", o->iowait_max);
		jsonw_dbl(w, "host_steal_pct_max", o->steal_max);
	}
	jsonw_end(w);
}

static void tele_end(const struct run_view *rv, void *priv)
{
	struct tele *T = priv;

	results_file_close(rv, &T->dev, 1);
	results_file_close(rv, &T->host, 1);
}

static void tele_close(const struct run_view *rv, void *priv)
{
	struct tele *T = priv;

	results_file_close(rv, &T->dev, 0);
	results_file_close(rv, &T->host, 0);
	for (size_t i = 0; i < TELE_RING; i++)
		free(T->ring[i].dev);
	free(T->run);
}

const struct sink_ops sink_telemetry = {
	.name = "devices.csv",
	.priv_size = sizeof(struct tele),
	.open = tele_open,
	.slave_row = tele_slave_row,
	.row = tele_row,
	.run_json = tele_run_json,
	.end = tele_end,
	.close = tele_close,
};
