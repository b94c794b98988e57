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

int results_summary_txt(const struct run_view *rv)
{
	struct rfile out;
	FILE *f;
	int ret;

	ret = results_atomic_open(rv, "summary.txt", &out);
	if (ret < 0)
		return ret;
	f = results_w(&out);
	fprintf(f, "lockstep %s run %s: %s (exit %d)\nparameter file: %s\n",
		LOCKSTEP_VERSION, rv->run_id,
		results_status_name(decide_exit(rv->fact)),
		decide_exit(rv->fact), rv->opt->param_path);
	if (*rv->fact->verdict)
		fprintf(f, "verdict: %s\n", rv->fact->verdict);
	/* Whoever reads only this file must learn it too. */
	if (rv->opt->insecure)
		fprintf(f,
			"insecure: --insecure, no authentication: any peer that reached the master's port could register as a slave\n");
	fprintf(f, "\n");
	for (size_t i = 0; i < rv->ph->nruns; i++) {
		struct run_result *r = &rv->ph->runs[i];

		if (!r->done)
			continue;
		fprintf(f,
			"Run %s (elapsed %g s, warmup %g s, interval %g s, start skew %.3f ms \u00b1 %.3f ms)\n",
			r->ph.name, r->ph.elapsed_s, r->ph.warmup_s,
			r->ph.interval_s, (double)r->start_skew_ns / 1e6,
			(double)r->start_skew_bound_ns / 1e6);
		fmt_hcibench(f, &r->view);
		for (size_t k = 0; k < rv->out->nsinks; k++)
			if (rv->out->sinks[k].ops->run_txt)
				rv->out->sinks[k]
					.ops->run_txt(rv,
						      rv->out->sinks[k].priv, r,
						      f);
		fprintf(f, "\n");
	}
	for (size_t i = 0; i < rv->out->nsinks; i++)
		if (rv->out->sinks[i].ops->summary_txt)
			rv->out->sinks[i]
				.ops->summary_txt(rv, rv->out->sinks[i].priv,
						  f);
	results_report_lost(rv, f);
	if (rv->out->nincomplete) {
		fprintf(f, "\nincomplete result files:");
		for (size_t i = 0; i < rv->out->nincomplete; i++)
			fprintf(f, " %s", rv->out->incomplete[i]);
		fprintf(f, "\n");
	}
	return results_atomic_commit(rv, &out, "summary.txt");
}

static int summary_txt_write(const struct run_view *rv, void *priv)
{
	(void)priv;
	return results_summary_txt(rv);
}

const struct sink_ops sink_summary_txt = {
	.name = "summary.txt",
	.write = summary_txt_write,
};
