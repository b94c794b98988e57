/*
 * summary.txt: every run's totals for people, HCIBench style, the blocks
 * other sinks add (their summary_txt hook: the events' recovery figures),
 * the slaves that were lost and the files not written in full; written at
 * the end, atomically, and again after a verdict.
 */
#include <stdio.h>
#include "master/run/master_int.h"
#include "master/results/fmt.h"
#include "master/results/sink.h"
#include "lockstep_version.h"

int results_summary_txt(struct master *m)
{
	struct rfile out;
	FILE *f;
	int ret;

	ret = results_atomic_open(m, "summary.txt", &out);
	if (ret < 0)
		return ret;
	f = results_w(&out);
	fprintf(f, "lockstep %s run %s: %s (exit %d)\nparameter file: %s\n",
		LOCKSTEP_VERSION, m->run_id,
		results_status_name(decide_exit(&m->fact)),
		decide_exit(&m->fact), m->opt->param_path);
	if (*m->fact.verdict)
		fprintf(f, "verdict: %s\n", m->fact.verdict);
	/* Whoever reads only this file must learn it too. */
	if (m->opt->insecure)
		fprintf(f,
			"insecure: --insecure, no authentication: any peer that reached the master's port could register as a slave\n");
	fprintf(f, "\n");
	for (size_t i = 0; i < m->ph.nruns; i++) {
		struct run_result *r = &m->ph.runs[i];

		if (!r->done)
			continue;
		fprintf(f,
			"Run %s (elapsed %g s, warmup %g s, interval %g s, start skew %.3f ms \u00b1 %.3f ms)\n",
			r->ph.name, r->ph.elapsed_s, r->ph.warmup_s,
			r->ph.interval_s, (double)r->start_skew_ns / 1e6,
			(double)r->start_skew_bound_ns / 1e6);
		fmt_hcibench(f, &r->view);
		fprintf(f, "\n");
	}
	for (size_t i = 0; i < m->out.nsinks; i++)
		if (m->out.sinks[i].ops->summary_txt)
			m->out.sinks[i].ops->summary_txt(m,
							 m->out.sinks[i].priv,
							 f);
	results_report_lost(m, f);
	if (m->out.nincomplete) {
		fprintf(f, "\nincomplete result files:");
		for (size_t i = 0; i < m->out.nincomplete; i++)
			fprintf(f, " %s", m->out.incomplete[i]);
		fprintf(f, "\n");
	}
	return results_atomic_commit(m, &out, "summary.txt");
}

static int summary_txt_write(struct master *m, void *priv)
{
	(void)priv;
	return results_summary_txt(m);
}

const struct sink_ops sink_summary_txt = {
	.name = "summary.txt",
	.write = summary_txt_write,
};
