/*
 * Generator bottleneck warnings (genwarn.h) of every run, and the busiest
 * slave's CPU of every interval. Slaves are grouped into hosts by their
 * hello's host; each slave's CPU and run-queue wait of an interval are
 * added to its host's as its row arrives, and when the cluster row of that interval is merged the
 * host's share of its cores is counted (a slave's row that comes after
 * its cluster row is in neither, as it is not in the row: the test can
 * only err towards silence). At the run's end the console says each
 * warning after the totals, summary.json has them in the run
 * ("generator_warnings") and a top-level "generator_bound", summary.txt
 * a block. The queue test (genwarn.h) adds each host's devices once per
 * interval from its slaves' rows and judges the run's measured rows.
 * intervals.csv and hosts/ get the column cpu_pct_busiest_slave
 * (on a slave's own row: its own). The exit code does not change: the
 * run measured what it measured, and the warning says what.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "common/jsonw.h"
#include "common/log.h"
#include "master/run/master_int.h"
#include "master/results/genwarn.h"
#include "master/results/sink.h"

/* Intervals a slave may be ahead of the cluster row still being merged. */
#define GW_RING 64
/* Hosts named per run (the rest are counted). */
#define GW_LIST 8
#define GW_HASH (2 * MAX_SLAVES)

struct gw_warned {
	unsigned rep;     /* a slave of the host (its name is the host's) */
	unsigned slaves;  /* slaves of the host in the run */
	unsigned busiest; /* its slave with the highest interval CPU */
	double busiest_pct;
	unsigned flags;
	struct genwarn_host h;
};

struct gw_run {
	int judged;
	double busiest_pct; /* the busiest slave's highest measured interval */
	unsigned busiest;
	/* Any host's highest measured interval, warned about or not. */
	double host_cpu_max, host_runq_max;
	/* Scheduled I/Os of all hosts; the largest host mean lag, its %. */
	uint64_t lag_n;
	double lag_us_max, lag_pct_max;
	unsigned nwarned, nlist;
	struct gw_warned list[GW_LIST];
};

struct gw_slot {
	unsigned seq;
	int used;
	double max_pct; /* the busiest slave of the interval so far */
};

/* Devices one host's cell keeps apart (more are left out of its queue). */
#define GW_DEVS 8

/* One host's figures of one interval, summed over its slaves' rows. */
struct gw_cell {
	uint64_t cpu, runq; /* ns, saturating */
	int seen;           /* one of its slaves reported */
	/* Queue above the device: the slaves' latency summed (ns), their
	   devices (each once, by number) and those devices' aqu-sz. */
	uint64_t lat_ns;
	unsigned ndev;
	uint64_t dev[GW_DEVS];
	double aqu;
};

struct genwarn {
	struct gw_run *run; /* per rv->ph->runs index */
	size_t nrun;
	/* Hosts of the run in progress: per slave its host + 1 (0 unknown). */
	unsigned *host_of;
	unsigned *hash; /* host + 1 by the host name's hash */
	unsigned *rep;  /* per host: its first slave */
	unsigned nhosts;
	struct genwarn_host *acc; /* per host */
	double *slave_max;        /* per slave: its highest measured pct */
	struct gw_slot slot[GW_RING];
	struct gw_cell *cell; /* GW_RING x cap, per phase */
	unsigned cap;         /* slaves (so hosts) the phase's cells hold */
	int queue_on; /* the phase is judged for its queue (genwarn.h) */
};

/*
 * Whether the queue test applies to the run: uncontrolled (its slots
 * always full), not a format pass, and every sd it uses opened with
 * o_direct, so that every I/O should reach a device.
 */
static int queue_eligible(const struct run_view *rv)
{
	const struct plan_phase *ph = &rv->ph->cur->ph;
	const struct params *p = rv->params;

	if (ph->iorate > 0 || ph->kind == PLAN_FORMAT ||
	    ph->kind == PLAN_CURVE_POINT || ph->kind == PLAN_SLO_STEP)
		return 0;
	for (unsigned i = 0; i < p->nsd; i++) {
		int from;

		if (plan_rd_uses_sd(p, ph->rd, i) &&
		    !(plan_sd_openflags(p, ph, i, &from) & PARAMS_O_DIRECT))
			return 0;
	}
	return 1;
}

/* The devices of a slave's interval into its host's cell, each once. */
static void cell_devs(struct gw_cell *c, const struct proto_interval *iv)
{
	for (uint32_t d = 0; d < iv->ndevs; d++) {
		const struct proto_dev *v = &iv->devs[d];
		uint64_t key = (uint64_t)v->major << 32 | v->minor;
		unsigned k;

		for (k = 0; k < c->ndev && c->dev[k] != key; k++)
			;
		if (k < c->ndev || c->ndev == GW_DEVS || !v->span_ns)
			continue;
		c->dev[c->ndev++] = key;
		c->aqu += (double)v->queue_ms / ((double)v->span_ns / 1e6);
	}
}

static int gw_open(const struct run_view *rv, void *priv)
{
	struct genwarn *G = priv;

	G->nrun = rv->ph->nruns;
	G->run = calloc(G->nrun ? G->nrun : 1, sizeof(*G->run));
	G->host_of = calloc(MAX_SLAVES, sizeof(*G->host_of));
	G->hash = calloc(GW_HASH, sizeof(*G->hash));
	G->rep = calloc(MAX_SLAVES, sizeof(*G->rep));
	G->acc = calloc(MAX_SLAVES, sizeof(*G->acc));
	G->slave_max = calloc(MAX_SLAVES, sizeof(*G->slave_max));
	return G->run && G->host_of && G->hash && G->rep && G->acc &&
			       G->slave_max ?
		       0 :
		       -ENOMEM;
}

static void gw_phase_start(const struct run_view *rv, void *priv,
			   const struct sink_phase *p)
{
	struct genwarn *G = priv;

	(void)p;
	free(G->cell);
	G->cap = rv->roster->nslaves < MAX_SLAVES ? rv->roster->nslaves :
						    MAX_SLAVES;
	G->cell = calloc((size_t)GW_RING * (G->cap ? G->cap : 1),
			 sizeof(*G->cell));
	if (!G->cell) {
		log_warn("no memory for the generator warnings of this run");
		G->cap = 0;
	}
	memset(G->host_of, 0, MAX_SLAVES * sizeof(*G->host_of));
	memset(G->hash, 0, GW_HASH * sizeof(*G->hash));
	memset(G->acc, 0, MAX_SLAVES * sizeof(*G->acc));
	memset(G->slave_max, 0, MAX_SLAVES * sizeof(*G->slave_max));
	memset(G->slot, 0, sizeof(G->slot));
	G->nhosts = 0;
	G->queue_on = queue_eligible(rv);
}

static unsigned name_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* Slave i's host, found or added (by open addressing on its name). */
static unsigned host_of(const struct run_view *rv, struct genwarn *G,
			unsigned i)
{
	const struct slave_rec *sl = rv->roster->slaves;
	const char *name = sl[i].hello.host;
	unsigned k = name_hash(name) % GW_HASH, h;

	if (G->host_of[i])
		return G->host_of[i] - 1;
	while (G->hash[k] &&
	       strcmp(sl[G->rep[G->hash[k] - 1]].hello.host, name) != 0)
		k = (k + 1) % GW_HASH;
	if (!G->hash[k]) {
		G->rep[G->nhosts] = i;
		G->hash[k] = ++G->nhosts;
	}
	h = G->hash[k] - 1;
	if (sl[i].hello.cores > G->acc[h].cores)
		G->acc[h].cores = sl[i].hello.cores;
	G->host_of[i] = h + 1;
	return h;
}

static void gw_slave_row(const struct run_view *rv, void *priv,
			 const struct sink_slave_row *r)
{
	struct genwarn *G = priv;
	size_t i = (size_t)(r->s - rv->roster->slaves);
	struct gw_slot *sl = &G->slot[r->iv->seq % GW_RING];
	struct gw_cell *c;
	unsigned h;

	/* Late: its cluster row was counted without it. */
	if (r->late || i >= G->cap)
		return;
	h = host_of(rv, G, (unsigned)i);
	c = &G->cell[(size_t)(r->iv->seq % GW_RING) * G->cap];
	if (!sl->used || sl->seq != r->iv->seq) {
		/* An interval whose row never came (or a ring lap): gone. */
		memset(c, 0, G->nhosts * sizeof(*c));
		sl->used = 1;
		sl->seq = r->iv->seq;
		sl->max_pct = 0;
	}
	c[h].cpu = genwarn_sat_add(c[h].cpu,
				   genwarn_sat_add(r->iv->cpu_user_ns,
						   r->iv->cpu_sys_ns));
	c[h].runq = genwarn_sat_add(c[h].runq, r->iv->runq_ns);
	c[h].seen = 1;
	if (G->queue_on) {
		c[h].lat_ns =
			genwarn_sat_add(c[h].lat_ns,
					genwarn_sat_add(r->iv->lat[0].sum,
							r->iv->lat[1].sum));
		cell_devs(&c[h], r->iv);
	}
	if (r->v.cpu_pct > sl->max_pct)
		sl->max_pct = r->v.cpu_pct;
	if (r->iv->seq < rv->ph->cur->ph.warmup_intervals)
		return;
	if (r->v.cpu_pct > G->slave_max[i])
		G->slave_max[i] = r->v.cpu_pct;
	genwarn_lag(&G->acc[h], r->iv->lag_ns, r->iv->lag_n, r->iv->lag_max_ns,
		    genwarn_sat_add(r->iv->lat[0].sum, r->iv->lat[1].sum),
		    genwarn_sat_add(r->iv->lat[0].count, r->iv->lat[1].count));
}

static struct gw_slot *slot_of(struct genwarn *G, unsigned seq)
{
	struct gw_slot *sl = &G->slot[seq % GW_RING];

	return sl->used && sl->seq == seq ? sl : NULL;
}

static void gw_cell(const struct run_view *rv, void *priv,
		    const struct sink_row *r, char *buf, size_t len, int *count)
{
	struct gw_slot *sl = slot_of(priv, r->row->seq);

	(void)rv;
	(void)count;
	if (sl)
		snprintf(buf, len, "%.2f", sl->max_pct);
	else
		buf[0] = 0;
}

static void gw_slave_cell(const struct run_view *rv, void *priv,
			  const struct sink_slave_row *r, char *buf, size_t len)
{
	(void)rv;
	(void)priv;
	snprintf(buf, len, "%.2f", r->v.cpu_pct);
}

/* The cluster row of an interval: count each host's share of its cores. */
static void gw_row(const struct run_view *rv, void *priv,
		   const struct sink_row *r)
{
	struct genwarn *G = priv;
	struct gw_slot *sl = slot_of(G, r->row->seq);
	uint64_t I = rv->ph->cur->ph.interval_ns;
	const struct gw_cell *c;

	if (!sl || !G->cap)
		return;
	c = &G->cell[(size_t)(r->row->seq % GW_RING) * G->cap];
	for (unsigned h = 0; !r->row->warmup && h < G->nhosts; h++) {
		if (!c[h].seen)
			continue;
		genwarn_interval(&G->acc[h],
				 genwarn_cpu_pct(c[h].cpu, I, G->acc[h].cores),
				 genwarn_runq_per_core(c[h].runq, I,
						       G->acc[h].cores));
		/* Little's law: latency summed over the interval's time. */
		if (G->queue_on && c[h].ndev)
			genwarn_queue(&G->acc[h],
				      (double)c[h].lat_ns / (double)I,
				      c[h].aqu);
	}
	sl->used = 0;
}

/* Host h's slaves in the run, and the busiest of them, into *w. */
static void host_slaves(const struct run_view *rv, const struct genwarn *G,
			unsigned h, struct gw_warned *w)
{
	w->slaves = 0;
	w->busiest = w->rep;
	w->busiest_pct = 0;
	for (unsigned i = 0; i < rv->roster->nslaves && i < MAX_SLAVES; i++) {
		if (G->host_of[i] != h + 1)
			continue;
		w->slaves++;
		if (G->slave_max[i] > w->busiest_pct) {
			w->busiest_pct = G->slave_max[i];
			w->busiest = i;
		}
	}
}

static void say(const struct run_view *rv, const struct run_result *r,
		const struct gw_run *o)
{
	const struct slave_rec *sl = rv->roster->slaves;
	FILE *f;

	if (rv->opt->vdbench_console || !o->nwarned)
		return;
	f = results_stdout(rv);
	for (unsigned j = 0; j < o->nlist; j++) {
		const struct gw_warned *w = &o->list[j];

		fprintf(f,
			"Run %s: WARNING generator-bound: host %s:", r->ph.name,
			sl[w->rep].hello.host);
		if (w->flags & GENWARN_CPU)
			fprintf(f,
				" its %u slave%s used %.0f%% of its %u cores (up to %.0f%%) and %.1f of their workers a core waited for a CPU (up to %.1f), over %.0f%% or %.1f in %u of %u intervals, busiest slave %s %.0f%%;",
				w->slaves, w->slaves == 1 ? "" : "s",
				w->h.cpu_pct_sum / w->h.intervals, w->h.cores,
				w->h.cpu_pct_max,
				w->h.runq_sum / w->h.intervals, w->h.runq_max,
				GENWARN_CPU_PCT, GENWARN_RUNQ_PER_CORE,
				w->h.busy, w->h.intervals,
				sl[w->busiest].hello.name, w->busiest_pct);
		if (w->flags & GENWARN_INFLIGHT)
			fprintf(f,
				" %llu I/Os in flight on %u cores (%.0f a core, budget %d);",
				(unsigned long long)w->h.inflight, w->h.cores,
				genwarn_inflight_per_core(&w->h),
				GENWARN_INFLIGHT_PER_CORE);
		if (w->flags & GENWARN_QUEUE)
			fprintf(f,
				" its slaves kept %.1f I/Os in flight and its devices held %.1f of them in their queues (under %.0f%% in %u of %u intervals): the I/Os waited above the devices (in lockstep, a throttle or the network);",
				w->h.app_qd_sum / w->h.queue_n,
				w->h.dev_qd_sum / w->h.queue_n,
				GENWARN_QUEUE_SHARE * 100, w->h.queue_above,
				w->h.queue_n);
		if (w->flags & GENWARN_LAG)
			fprintf(f,
				" its slaves issued their scheduled I/Os %.1f us late on average with a slot free (up to %.3f ms), %.0f%% of their mean latency (limit %.0f%%);",
				genwarn_lag_mean_ns(&w->h) / 1e3,
				(double)w->h.lag_max_ns / 1e6,
				genwarn_lag_pct(&w->h), GENWARN_LAG_PCT);
		fprintf(f,
			" the numbers may measure lockstep, not the storage\n");
	}
	if (o->nlist < o->nwarned)
		fprintf(f, "Run %s: WARNING generator-bound: %u more hosts\n",
			r->ph.name, o->nwarned - o->nlist);
	fprintf(f, "\n");
}

static void gw_run_end(const struct run_view *rv, void *priv,
		       const struct sink_run_end *e)
{
	struct genwarn *G = priv;
	size_t idx = (size_t)(e->r - rv->ph->runs);
	const struct slave_rec *sl = rv->roster->slaves;
	struct gw_run *o;

	if (idx >= G->nrun)
		return;
	o = &G->run[idx];
	memset(o, 0, sizeof(*o));
	if (!e->totals)
		return; /* it did not end well: nothing to say of it */
	o->judged = 1;
	for (unsigned i = 0; i < rv->roster->nslaves && i < MAX_SLAVES; i++) {
		if (!G->host_of[i])
			continue;
		G->acc[G->host_of[i] - 1].inflight += sl[i].pplan.slots;
		if (G->slave_max[i] > o->busiest_pct) {
			o->busiest_pct = G->slave_max[i];
			o->busiest = i;
		}
	}
	for (unsigned h = 0; h < G->nhosts; h++) {
		unsigned flags = genwarn_judge(&G->acc[h]);
		struct gw_warned *w;

		if (G->acc[h].cpu_pct_max > o->host_cpu_max)
			o->host_cpu_max = G->acc[h].cpu_pct_max;
		if (G->acc[h].runq_max > o->host_runq_max)
			o->host_runq_max = G->acc[h].runq_max;
		o->lag_n += G->acc[h].lag_n;
		if (genwarn_lag_mean_ns(&G->acc[h]) / 1e3 > o->lag_us_max)
			o->lag_us_max = genwarn_lag_mean_ns(&G->acc[h]) / 1e3;
		if (genwarn_lag_pct(&G->acc[h]) > o->lag_pct_max)
			o->lag_pct_max = genwarn_lag_pct(&G->acc[h]);
		if (!flags)
			continue;
		if (o->nwarned++ >= GW_LIST)
			continue;
		w = &o->list[o->nlist++];
		w->rep = G->rep[h];
		w->flags = flags;
		w->h = G->acc[h];
		host_slaves(rv, G, h, w);
	}
	say(rv, e->r, o);
}

static void gw_run_json(const struct run_view *rv, void *priv,
			const struct run_result *r, struct jsonw *w)
{
	struct genwarn *G = priv;
	size_t idx = (size_t)(r - rv->ph->runs);
	const struct slave_rec *sl = rv->roster->slaves;
	const struct gw_run *o;

	if (idx >= G->nrun || !G->run[idx].judged)
		return;
	o = &G->run[idx];
	jsonw_dbl(w, "cpu_pct_busiest_slave", o->busiest_pct);
	if (o->busiest < rv->roster->nslaves)
		jsonw_str(w, "busiest_slave", sl[o->busiest].hello.name);
	jsonw_dbl(w, "host_cpu_pct_max", o->host_cpu_max);
	jsonw_dbl(w, "host_runq_per_core_max", o->host_runq_max);
	if (o->lag_n) {
		jsonw_u64(w, "scheduled_ios", o->lag_n);
		jsonw_dbl(w, "host_schedule_lag_mean_us_max", o->lag_us_max);
		jsonw_dbl(w, "host_schedule_lag_pct_max", o->lag_pct_max);
	}
	jsonw_u64(w, "generator_hosts_warned", o->nwarned);
	jsonw_array(w, "generator_warnings");
	for (unsigned j = 0; j < o->nlist; j++) {
		const struct gw_warned *x = &o->list[j];

		jsonw_object(w, NULL);
		jsonw_str(w, "host", sl[x->rep].hello.host);
		jsonw_u64(w, "slaves", x->slaves);
		jsonw_u64(w, "cores", x->h.cores);
		jsonw_array(w, "warnings");
		if (x->flags & GENWARN_CPU)
			jsonw_str(w, NULL, "cpu");
		if (x->flags & GENWARN_INFLIGHT)
			jsonw_str(w, NULL, "inflight");
		if (x->flags & GENWARN_LAG)
			jsonw_str(w, NULL, "schedule_lag");
		if (x->flags & GENWARN_QUEUE)
			jsonw_str(w, NULL, "queue_above_device");
		jsonw_end(w);
		jsonw_dbl(w, "cpu_pct_limit", GENWARN_CPU_PCT);
		jsonw_dbl(w, "cpu_pct_mean",
			  x->h.intervals ? x->h.cpu_pct_sum / x->h.intervals :
					   0);
		jsonw_dbl(w, "cpu_pct_max", x->h.cpu_pct_max);
		jsonw_dbl(w, "runq_per_core_limit", GENWARN_RUNQ_PER_CORE);
		jsonw_dbl(w, "runq_per_core_mean",
			  x->h.intervals ? x->h.runq_sum / x->h.intervals : 0);
		jsonw_dbl(w, "runq_per_core_max", x->h.runq_max);
		jsonw_u64(w, "intervals_over_limit", x->h.busy);
		jsonw_u64(w, "intervals", x->h.intervals);
		jsonw_str(w, "busiest_slave", sl[x->busiest].hello.name);
		jsonw_dbl(w, "busiest_slave_cpu_pct", x->busiest_pct);
		jsonw_u64(w, "inflight", x->h.inflight);
		jsonw_dbl(w, "inflight_per_core",
			  genwarn_inflight_per_core(&x->h));
		jsonw_u64(w, "inflight_budget_per_core",
			  GENWARN_INFLIGHT_PER_CORE);
		jsonw_u64(w, "scheduled_ios", x->h.lag_n);
		jsonw_dbl(w, "schedule_lag_mean_us",
			  genwarn_lag_mean_ns(&x->h) / 1e3);
		jsonw_dbl(w, "schedule_lag_max_ms",
			  (double)x->h.lag_max_ns / 1e6);
		jsonw_dbl(w, "schedule_lag_pct_of_latency",
			  genwarn_lag_pct(&x->h));
		jsonw_dbl(w, "schedule_lag_pct_limit", GENWARN_LAG_PCT);
		if (x->h.queue_n) {
			jsonw_dbl(w, "inflight_mean",
				  x->h.app_qd_sum / x->h.queue_n);
			jsonw_dbl(w, "device_queue_mean",
				  x->h.dev_qd_sum / x->h.queue_n);
			jsonw_u64(w, "intervals_queue_above_device",
				  x->h.queue_above);
			jsonw_u64(w, "intervals_with_devices", x->h.queue_n);
		}
		jsonw_end(w);
	}
	jsonw_end(w);
}

static unsigned warned_runs(const struct genwarn *G)
{
	unsigned n = 0;

	for (size_t i = 0; i < G->nrun; i++)
		n += G->run[i].nwarned > 0;
	return n;
}

static void gw_summary_json(const struct run_view *rv, void *priv,
			    struct jsonw *w)
{
	(void)rv;
	jsonw_bool(w, "generator_bound", warned_runs(priv) > 0);
}

static void gw_summary_txt(const struct run_view *rv, void *priv, FILE *f)
{
	struct genwarn *G = priv;
	const struct slave_rec *sl = rv->roster->slaves;

	if (!warned_runs(G))
		return;
	fprintf(f,
		"generator warnings (in half its intervals or more, a host's slaves used over %.0f%% of its cores or over %.1f of their workers a core waited for a CPU; or over %d I/Os in flight a core; or its scheduled I/Os went out late with a slot free by %.0f%% of the mean latency and %d us or more; or at iorate=max with o_direct its devices' queues held under %.0f%% of the I/Os its slaves kept in flight)\n",
		GENWARN_CPU_PCT, GENWARN_RUNQ_PER_CORE,
		GENWARN_INFLIGHT_PER_CORE, GENWARN_LAG_PCT,
		GENWARN_LAG_FLOOR_NS / 1000, GENWARN_QUEUE_SHARE * 100);
	for (size_t i = 0; i < G->nrun; i++) {
		const struct gw_run *o = &G->run[i];

		for (unsigned j = 0; j < o->nlist; j++) {
			const struct gw_warned *x = &o->list[j];

			fprintf(f,
				"  %s: host %s (%u slaves, %u cores):%s%s%s%s, CPU mean %.0f%% max %.0f%%, workers waiting a core mean %.1f max %.1f, over a limit in %u of %u intervals, %llu I/Os in flight, schedule lag %.1f us (%.0f%% of the latency)\n",
				rv->ph->runs[i].ph.name, sl[x->rep].hello.host,
				x->slaves, x->h.cores,
				x->flags & GENWARN_CPU ? " cpu" : "",
				x->flags & GENWARN_INFLIGHT ? " inflight" : "",
				x->flags & GENWARN_LAG ? " schedule_lag" : "",
				x->flags & GENWARN_QUEUE ?
					" queue_above_device" :
					"",
				x->h.intervals ?
					x->h.cpu_pct_sum / x->h.intervals :
					0,
				x->h.cpu_pct_max,
				x->h.intervals ?
					x->h.runq_sum / x->h.intervals :
					0,
				x->h.runq_max, x->h.busy, x->h.intervals,
				(unsigned long long)x->h.inflight,
				genwarn_lag_mean_ns(&x->h) / 1e3,
				genwarn_lag_pct(&x->h));
		}
		if (o->nlist < o->nwarned)
			fprintf(f, "  %s: %u more hosts\n",
				rv->ph->runs[i].ph.name, o->nwarned - o->nlist);
	}
	fprintf(f, "\n");
}

static void gw_close(const struct run_view *rv, void *priv)
{
	struct genwarn *G = priv;

	(void)rv;
	free(G->run);
	free(G->host_of);
	free(G->hash);
	free(G->rep);
	free(G->acc);
	free(G->slave_max);
	free(G->cell);
	memset(G, 0, sizeof(*G));
}

const struct sink_ops sink_genwarn = {
	.name = "generator warnings (console, summary.json, .txt, a column)",
	.priv_size = sizeof(struct genwarn),
	.column = "cpu_pct_busiest_slave",
	.open = gw_open,
	.phase_start = gw_phase_start,
	.cell = gw_cell,
	.slave_cell = gw_slave_cell,
	.slave_row = gw_slave_row,
	.row = gw_row,
	.run_end = gw_run_end,
	.run_json = gw_run_json,
	.summary_json = gw_summary_json,
	.summary_txt = gw_summary_txt,
	.close = gw_close,
};
