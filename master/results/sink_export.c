/*
 * The master's side of the live export (master/export/): it turns a
 * cluster row, a slave's interval and a run's totals into export points,
 * starts the sinks before the first phase, and at the end says on the
 * console and in summary.json ("export") what each sink sent and dropped.
 * It is a sink of the results table (sinks.c); only its start is called
 * by name (master.c, once the master listens).
 */
#include <stdio.h>
#include <string.h>
#include "common/log.h"
#include "common/jsonw.h"
#include "master/run/master_int.h"
#include "master/results/sink.h"

int results_export_open(struct master *m)
{
	char err[512];
	int ret = export_open(&m->opt->exp_opts, &m->out.exp, err, sizeof(err));

	if (ret < 0)
		log_error("%s", err);
	return ret;
}

static void export_row(struct master *m, void *priv, const struct sink_row *r)
{
	const struct merge_row *row = r->row;
	struct export_point p = {
		.run = m->ph.cur->ph.name,
		.phase = row->warmup ? "warmup" : "measure",
		.interval = row->seq + 1,
		.end_ns = row->end_ns,
		.reported = row->reported,
		.expected = row->expected,
		.v = &r->v,
	};

	(void)priv;
	export_point(m->out.exp, &p);
}

static void export_slave_row(struct master *m, void *priv,
			     const struct sink_slave_row *r)
{
	const struct slave_rec *s = r->s;
	const struct proto_interval *iv = r->iv;
	struct export_point p = {
		.run = m->ph.cur->ph.name,
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
	export_point(m->out.exp, &p);
}

static void export_run_end(struct master *m, void *priv,
			   const struct sink_run_end *e)
{
	(void)priv;
	if (e->totals)
		export_run_totals(m->out.exp, e->r->ph.name, &e->r->view);
}

/* Stop the sinks; one console line with what each sent and dropped. */
static void export_end(struct master *m, void *priv)
{
	(void)priv;
	if (!m->out.exp)
		return;
	export_close(m->out.exp, m->out.exp_counts);
	m->out.exp = NULL;
	for (int k = 0; k < EXPORT_NSINKS; k++)
		if (m->out.exp_counts[k].on)
			fprintf(results_stdout(m),
				"export %s: %llu points sent, %llu dropped\n",
				export_sink_name((enum export_sink_kind)k),
				(unsigned long long)m->out.exp_counts[k].sent,
				(unsigned long long)m->out.exp_counts[k]
					.dropped);
	fflush(stdout);
}

static void export_json(struct master *m, void *priv, struct jsonw *w)
{
	const char *target[EXPORT_NSINKS] = { m->opt->exp_opts.graphite,
					      m->opt->exp_opts.influx,
					      m->opt->exp_opts.prom };
	int any = 0;

	(void)priv;
	for (int k = 0; k < EXPORT_NSINKS; k++)
		any |= m->out.exp_counts[k].on;
	if (!any)
		return;
	jsonw_object(w, "export");
	for (int k = 0; k < EXPORT_NSINKS; k++) {
		if (!m->out.exp_counts[k].on)
			continue;
		jsonw_object(w, export_sink_name((enum export_sink_kind)k));
		jsonw_str(w, "target", target[k]);
		jsonw_u64(w, "sent", m->out.exp_counts[k].sent);
		jsonw_u64(w, "dropped", m->out.exp_counts[k].dropped);
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
