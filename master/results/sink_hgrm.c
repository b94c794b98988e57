/*
 * <run>.hgrm: a run's merged latency distribution in HdrHistogram's
 * percentile format (fmt.c), written when the run ends, named by
 * runfile.c and in summary.json's "files" once it is whole.
 */
#include <errno.h>
#include <stdlib.h>
#include "master/run/master_int.h"
#include "master/results/fmt.h"
#include "master/results/sink.h"

static void hgrm_run_end(const struct run_view *rv, void *priv,
			 const struct sink_run_end *e)
{
	char name[PLAN_NAME_MAX + 16];
	struct run_result *r = e->r;
	struct hist *h;
	struct rfile out;
	FILE *f;
	int ret;

	(void)priv;
	if (!e->totals)
		return;
	snprintf(name, sizeof(name), "%s.hgrm", r->file);
	h = malloc(sizeof(*h));
	if (!h) {
		results_incomplete(rv, name, -ENOMEM);
		return;
	}
	results_reserve_use(rv);
	ret = results_file_open(rv, name, &out);
	if (ret < 0) {
		results_incomplete(rv, name, ret);
	} else if ((f = results_w(&out))) {
		stats_combined_hist(e->totals, h);
		fmt_hgrm(f, h);
		results_wrote(rv, &out);
	}
	results_file_close(rv, &out, 1);
	r->hgrm_written = ret == 0 && !out.err;
	results_reserve_fill(rv);
	free(h);
}

const struct sink_ops sink_hgrm = {
	.name = "<run>.hgrm",
	.run_end = hgrm_run_end,
};
