/*
 * The master's side of the live export (master/export/): it turns a
 * cluster row, a slave's interval and a run's totals into export points,
 * starts the sinks before the first phase, and at the end says on the
 * console and in summary.json ("export") what each sink sent and dropped.
 * results.c calls it with one line from where each number is written.
 */
#include <stdio.h>
#include <string.h>
#include "common/log.h"
#include "common/jsonw.h"
#include "master/run/master_int.h"

int results_export_open(struct master *m)
{
	char err[512];
	int ret = export_open(&m->opt->exp_opts, &m->out.exp, err, sizeof(err));

	if (ret < 0)
		log_error("%s", err);
	return ret;
}

void results_export_row(struct master *m, const struct merge_row *row,
			const struct stats_view *v)
{
	struct export_point p = {
		.run = m->ph.cur->ph.name,
		.phase = row->warmup ? "warmup" : "measure",
		.interval = row->seq + 1,
		.end_ns = row->end_ns,
		.reported = row->reported,
		.expected = row->expected,
		.v = v,
	};

	export_point(m->out.exp, &p);
}

void results_export_slave(struct master *m, const struct slave_rec *s,
			  const struct proto_interval *iv, const char *note,
			  const struct stats_view *v)
{
	struct export_point p = {
		.run = m->ph.cur->ph.name,
		.phase = note,
		.host = s->hello.host,
		.slave = s->hello.name,
		.interval = iv->seq + 1,
		.end_ns = iv->end_ns,
		.reported = 1,
		.expected = 1,
		.v = v,
	};

	export_point(m->out.exp, &p);
}

void results_export_totals(struct master *m, const struct run_result *r)
{
	export_run_totals(m->out.exp, r->ph.name, &r->view);
}

void results_export_close(struct master *m)
{
	if (!m->out.exp)
		return;
	export_close(m->out.exp, m->out.exp_counts);
	m->out.exp = NULL;
	for (int k = 0; k < EXPORT_NSINKS; k++)
		if (m->out.exp_counts[k].on)
			printf("export %s: %llu points sent, %llu dropped\n",
			       export_sink_name((enum export_sink_kind)k),
			       (unsigned long long)m->out.exp_counts[k].sent,
			       (unsigned long long)m->out.exp_counts[k].dropped);
	fflush(stdout);
}

void results_export_json(struct master *m, struct jsonw *w)
{
	const char *target[EXPORT_NSINKS] = { m->opt->exp_opts.graphite,
					      m->opt->exp_opts.influx,
					      m->opt->exp_opts.prom };
	int any = 0;

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
