/*
 * The master's side of the live export (master/export/): it turns a
 * cluster row, a slave's interval and a run's totals into export points,
 * starts the sinks before the first phase, and at the end says on the
 * console and in summary.json ("export") what each sink sent and dropped.
 * It is a sink of the results table (sinks.c); only its start is called
 * by name (master.c, once the master listens).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "common/log.h"
#include "common/jsonw.h"
#include "master/run/master_int.h"
#include "master/results/fsfmt.h"
#include "master/results/sink.h"

int results_export_open(const struct run_view *rv)
{
	char err[512];
	int ret = export_open(&rv->opt->exp_opts, &rv->out->exp, err,
			      sizeof(err));

	if (ret < 0)
		log_error("%s", err);
	return ret;
}

/*
 * A file-system phase's cluster interval: a point per operation ops.csv
 * lists (errors NaN where reads and writes do not split them).
 */
static void export_ops(const struct run_view *rv, const struct sink_row *r,
		       const struct export_point *row)
{
	for (unsigned op = 0; op < FSOPS_N; op++) {
		const struct fsops_opview *o = &r->fs->op[op];

		if (!fsfmt_op_listed(r->fs, rv->ph->cur->fsops, op))
			continue;
		const struct export_metric m[] = {
			{ "ops", (double)o->count, 0 },
			{ "rate", o->rate, 3 },
			{ "bytes", (double)o->bytes, 0 },
			{ "mbps", o->mbps, 4 },
			{ "errors", o->errors_unknown ? NAN : (double)o->errors,
			  0 },
			{ "resp_ms", o->resp_ms, 6 },
			{ "p50_ms", o->p50_ms, 6 },
			{ "p95_ms", o->p95_ms, 6 },
			{ "p99_ms", o->p99_ms, 6 },
			{ "max_ms", o->max_ms, 6 },
			{ "interval", row->interval, 0 },
		};
		struct export_point p = *row;

		p.kind = EXPORT_FSOP;
		p.obj = fsops_name(op);
		p.nm = sizeof(m) / sizeof(m[0]);
		p.m = m;
		p.v = NULL;
		export_point(rv->out->exp, &p);
	}
}

static void export_row(const struct run_view *rv, void *priv,
		       const struct sink_row *r)
{
	const struct merge_row *row = r->row;
	struct export_point p = {
		.run = rv->ph->cur->ph.name,
		.phase = row->warmup ? "warmup" : "measure",
		.interval = row->seq + 1,
		.end_ns = row->end_ns,
		.reported = row->reported,
		.expected = row->expected,
		.v = &r->v,
	};

	(void)priv;
	export_point(rv->out->exp, &p);
	if (r->fs && rv->out->exp)
		export_ops(rv, r, &p);
}

static void export_slave_row(const struct run_view *rv, void *priv,
			     const struct sink_slave_row *r)
{
	const struct slave_rec *s = r->s;
	const struct proto_interval *iv = r->iv;
	struct export_point p = {
		.run = rv->ph->cur->ph.name,
		.phase = r->late ? "late" : r->note,
		.host = s->hello.host,
		.slave = s->hello.name,
		.interval = iv->seq + 1,
		.end_ns = iv->end_ns,
		.reported = 1,
		.expected = 1,
		.v = &r->v,
	};

	(void)priv;
	export_point(rv->out->exp, &p);
}

static void export_run_end(const struct run_view *rv, void *priv,
			   const struct sink_run_end *e)
{
	(void)priv;
	if (e->totals)
		export_run_totals(rv->out->exp, e->r->ph.name, &e->r->view);
}

/* Stop the sinks; one console line with what each sent and dropped. */
static void export_end(const struct run_view *rv, void *priv)
{
	(void)priv;
	if (!rv->out->exp)
		return;
	export_close(rv->out->exp, rv->out->exp_counts);
	rv->out->exp = NULL;
	for (int k = 0; k < EXPORT_NSINKS; k++)
		if (rv->out->exp_counts[k].on)
			fprintf(results_stdout(rv),
				"export %s: %llu points sent, %llu dropped\n",
				export_sink_name((enum export_sink_kind)k),
				(unsigned long long)rv->out->exp_counts[k].sent,
				(unsigned long long)rv->out->exp_counts[k]
					.dropped);
	fflush(stdout);
}

static void export_json(const struct run_view *rv, void *priv, struct jsonw *w)
{
	const char *target[EXPORT_NSINKS] = { rv->opt->exp_opts.graphite,
					      rv->opt->exp_opts.influx,
					      rv->opt->exp_opts.prom };
	int any = 0;

	(void)priv;
	for (int k = 0; k < EXPORT_NSINKS; k++)
		any |= rv->out->exp_counts[k].on;
	if (!any)
		return;
	jsonw_object(w, "export");
	for (int k = 0; k < EXPORT_NSINKS; k++) {
		if (!rv->out->exp_counts[k].on)
			continue;
		jsonw_object(w, export_sink_name((enum export_sink_kind)k));
		jsonw_str(w, "target", target[k]);
		jsonw_u64(w, "sent", rv->out->exp_counts[k].sent);
		jsonw_u64(w, "dropped", rv->out->exp_counts[k].dropped);
		jsonw_end(w);
	}
	jsonw_end(w);
}

const struct sink_ops sink_export = {
	.name = "live export",
	.row = export_row,
	.slave_row = export_slave_row,
	.run_end = export_run_end,
	.summary_json = export_json,
	.end = export_end,
};
