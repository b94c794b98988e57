/*
 * flatfile.html: Vdbench's flatfile in Vdbench's layout (vdbench.c), one
 * row per cluster interval and one avg_ row per run, flushed per row.
 */
#include <string.h>
#include "common/log.h"
#include "common/timeutil.h"
#include "master/run/master_int.h"
#include "master/results/sink.h"
#include "master/results/vdbench.h"
#include "lockstep_version.h"

static int flatfile_open(const struct run_view *rv, void *priv)
{
	struct rfile *flat = priv;
	int ret = results_file_open(rv, "flatfile.html", flat);

	if (ret < 0) {
		log_error("cannot write %s/flatfile.html: %s", rv->out->dir,
			  strerror(-ret));
		return ret;
	}
	vdbench_flat_header(flat->f);
	results_wrote(rv, flat);
	return 0;
}

/* One row for the current run (an avg_ row: 0 of 0 slaves). */
static void flat_row(const struct run_view *rv, struct rfile *flat,
		     const struct plan_phase *ph, uint64_t end_ns,
		     const char *label, const struct stats_view *v,
		     unsigned reported, unsigned expected)
{
	struct vdbench_req rq;
	FILE *f;

	if (!(f = results_w(flat)))
		return;
	vdbench_flat_req(rv->params, ph, "lockstep-" LOCKSTEP_VERSION, &rq);
	vdbench_flat_row(f, end_ns, &rq, label, v, reported, expected);
	results_wrote(rv, flat);
	results_flush(rv, flat);
}

static void flatfile_row(const struct run_view *rv, void *priv,
			 const struct sink_row *r)
{
	flat_row(rv, priv, &rv->ph->cur->ph, r->row->end_ns, r->label, &r->v,
		 r->row->reported, r->row->expected);
}

static void flatfile_run_end(const struct run_view *rv, void *priv,
			     const struct sink_run_end *e)
{
	if (e->totals)
		flat_row(rv, priv, &e->r->ph, time_real_ns(), e->label,
			 &e->r->view, 0, 0);
}

static void flatfile_end(const struct run_view *rv, void *priv)
{
	results_file_close(rv, priv, 1);
}

static void flatfile_close(const struct run_view *rv, void *priv)
{
	results_file_close(rv, priv, 0);
}

const struct sink_ops sink_flatfile = {
	.name = "flatfile.html",
	.priv_size = sizeof(struct rfile),
	.open = flatfile_open,
	.row = flatfile_row,
	.run_end = flatfile_run_end,
	.end = flatfile_end,
	.close = flatfile_close,
};
