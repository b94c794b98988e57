/*
 * flatfile.html: Vdbench's flatfile in Vdbench's layout (vdbench.c), one
 * row per cluster interval and one avg_ row per run, flushed per row. As
 * Vdbench, the column header is written before the first row, in the
 * layout of the first phase: a run whose first phase is a file-system
 * one gets Vdbench's fwd= columns (fsfmt.c), its block phases' figures
 * in them (reads and writes); a block run's fs phases write the block
 * columns (reads and writes).
 */
#include <string.h>
#include "common/log.h"
#include "common/timeutil.h"
#include "master/run/master_int.h"
#include "master/results/fsfmt.h"
#include "master/results/sink.h"
#include "master/results/vdbench.h"
#include "lockstep_version.h"

struct flatfile {
	struct rfile f;
	int headed; /* the header is written */
	int fs;     /* in the file-system layout */
};

static int flatfile_open(const struct run_view *rv, void *priv)
{
	struct flatfile *ff = priv;
	int ret = results_file_open(rv, "flatfile.html", &ff->f);

	if (ret < 0) {
		log_error("cannot write %s/flatfile.html: %s", rv->out->dir,
			  strerror(-ret));
		return ret;
	}
	return 0;
}

/* The header, once, in the layout fs says. */
static void flat_head(const struct run_view *rv, struct flatfile *ff, int fs)
{
	FILE *f;

	if (ff->headed || !(f = results_w(&ff->f)))
		return;
	ff->headed = 1;
	ff->fs = fs;
	if (fs)
		fsfmt_flat_header(f);
	else
		vdbench_flat_header(f);
	results_wrote(rv, &ff->f);
}

static void flatfile_phase_start(const struct run_view *rv, void *priv,
				 const struct sink_phase *p)
{
	(void)p;
	flat_head(rv, priv, rv->ph->cur->fsops != 0);
}

/*
 * One row for the current run (an avg_ row: 0 of 0 slaves); fs: its
 * operations (NULL: none, a block phase).
 */
static void flat_row(const struct run_view *rv, struct flatfile *ff,
		     const struct plan_phase *ph, uint64_t end_ns,
		     const char *label, const struct stats_view *v,
		     const struct fsops_view *fs, unsigned reported,
		     unsigned expected)
{
	struct vdbench_req rq;
	FILE *f;

	flat_head(rv, ff, fs != NULL);
	if (!(f = results_w(&ff->f)))
		return;
	vdbench_flat_req(rv->params, ph, "lockstep-" LOCKSTEP_VERSION, &rq);
	if (ff->fs) {
		struct fsops_view none;
		const struct fsops_view *fv = fs;

		if (!fv) {
			/* A block phase in fs columns: no other operation. */
			memset(&none, 0, sizeof(none));
			none.op[0].rate = v->iops * v->read_pct / 100.0;
			none.op[0].resp_ms = v->read_resp_ms;
			none.op[0].mbps = v->mbps * (double)v->read_bytes /
					  (double)(v->bytes ? v->bytes : 1);
			none.op[1].rate = v->iops - none.op[0].rate;
			none.op[1].resp_ms = v->write_resp_ms;
			none.op[1].mbps = v->mbps - none.op[0].mbps;
			none.req_rate = v->iops;
			none.req_resp_ms = v->resp_ms;
			none.xfer_bytes = v->xfer_bytes;
			fv = &none;
		}
		fsfmt_flat_row(f, end_ns, &rq, label, fv, v, reported,
			       expected);
	} else {
		vdbench_flat_row(f, end_ns, &rq, label, v, reported, expected);
	}
	results_wrote(rv, &ff->f);
	results_flush(rv, &ff->f);
}

static void flatfile_row(const struct run_view *rv, void *priv,
			 const struct sink_row *r)
{
	flat_row(rv, priv, &rv->ph->cur->ph, r->row->end_ns, r->label, &r->v,
		 r->fs, r->row->reported, r->row->expected);
}

static void flatfile_run_end(const struct run_view *rv, void *priv,
			     const struct sink_run_end *e)
{
	if (e->totals)
		flat_row(rv, priv, &e->r->ph, time_real_ns(), e->label,
			 &e->r->view, e->r->fs, 0, 0);
}

static void flatfile_end(const struct run_view *rv, void *priv)
{
	struct flatfile *ff = priv;

	flat_head(rv, ff, 0); /* a run without a phase: the header still */
	results_file_close(rv, &ff->f, 1);
}

static void flatfile_close(const struct run_view *rv, void *priv)
{
	struct flatfile *ff = priv;

	flat_head(rv, ff, 0); /* as flatfile_end: the header at least */
	results_file_close(rv, &ff->f, 0);
}

const struct sink_ops sink_flatfile = {
	.name = "flatfile.html",
	.priv_size = sizeof(struct flatfile),
	.open = flatfile_open,
	.phase_start = flatfile_phase_start,
	.row = flatfile_row,
	.run_end = flatfile_run_end,
	.end = flatfile_end,
	.close = flatfile_close,
};
