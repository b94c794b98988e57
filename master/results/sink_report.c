/*
 * report.html (`lockstep run --report`): the page of master/report/,
 * drawn from the results folder once the verdict is sealed into its
 * summaries, and written through the checked writer. A report that could
 * not be drawn or written makes the run incomplete (exit 5): results_seal
 * then writes the summaries once more to say so.
 */
#include <limits.h>
#include <string.h>
#include "common/log.h"
#include "master/report/html.h"
#include "master/run/master_int.h"
#include "master/results/sink.h"

static void report_sealed(const struct run_view *rv, void *priv,
			  const struct history_seal *s)
{
	char err[PATH_MAX + 512];
	struct rfile out;
	FILE *f;

	(void)priv;
	(void)s;
	if (!rv->opt->report)
		return;
	if (results_atomic_open(rv, "report.html", &out) < 0) {
		rv->fact->report_failed = 1;
		return;
	}
	f = results_w(&out);
	if (f && html_page(rv->out->dir, NULL, f, err, sizeof(err)) < 0) {
		log_error("report.html not written: %s", err);
		rv->fact->report_failed = 1;
		results_atomic_abort(rv, &out, "report.html");
		return;
	}
	if (results_atomic_commit(rv, &out, "report.html") < 0) {
		rv->fact->report_failed = 1;
		return;
	}
	log_info("report: %s/report.html", rv->out->dir);
}

const struct sink_ops sink_report = {
	.name = "report.html",
	.sealed = report_sealed,
};
