/*
 * `lockstep vdbench`: summary.html (Vdbench's console lines: each run's
 * "Starting RD=" line, header, interval rows and avg_ row) and totals.html
 * (the "Starting RD=" lines, headers and avg_ rows), as Vdbench writes
 * them, a file-system phase's in Vdbench's file-system layout (fsfmt.h).
 * Nothing without Vdbench's console.
 */
#include <string.h>
#include "common/log.h"
#include "common/timeutil.h"
#include "master/run/master_int.h"
#include "master/results/fmt.h"
#include "master/results/fsfmt.h"
#include "master/results/sink.h"

struct vdbench_files {
	struct rfile sum, tot;
};

static int vdbench_open(const struct run_view *rv, void *priv)
{
	struct vdbench_files *V = priv;
	int ret;

	if (!rv->opt->vdbench_console)
		return 0;
	ret = results_file_open(rv, "summary.html", &V->sum);
	if (ret == 0)
		ret = results_file_open(rv, "totals.html", &V->tot);
	if (ret < 0)
		log_error("cannot write %s/summary.html or totals.html: %s",
			  rv->out->dir, strerror(-ret));
	return ret;
}

static void vdbench_phase_start(const struct run_view *rv, void *priv,
				const struct sink_phase *p)
{
	struct vdbench_files *V = priv;

	for (int i = 0; i < 2; i++) {
		struct rfile *r = i ? &V->tot : &V->sum;
		FILE *f = results_w(r);

		if (f) {
			fprintf(f, "%s %s\n", p->tod, p->line);
			if (rv->ph->cur->fsops)
				fsfmt_console_header(f, p->now,
						     rv->ph->cur->fsops, 0);
			else
				fmt_vdbench_header(f, p->now);
			results_wrote(rv, r);
		}
	}
}

/* A console line in summary.html and, for a run's total, totals.html. */
static void vdbench_line(const struct run_view *rv, struct vdbench_files *V,
			 uint64_t real_ns, const char *label,
			 const struct stats_view *v,
			 const struct fsops_view *fs, int avg)
{
	for (int i = 0; i < 1 + !!avg; i++) {
		struct rfile *r = i ? &V->tot : &V->sum;
		FILE *f = results_w(r);

		if (!f)
			continue;
		if (fs)
			fsfmt_console_row(f, real_ns, label, fs, v,
					  rv->ph->cur->fsops, 0, 0, 0);
		else
			fmt_vdbench_row(f, real_ns, label, v, avg);
		results_wrote(rv, r);
	}
}

static void vdbench_row(const struct run_view *rv, void *priv,
			const struct sink_row *r)
{
	/* A format pass on a terminal has a progress line, not rows. */
	if (rv->ph->cur->ph.kind == PLAN_FORMAT && rv->out->tty)
		return;
	vdbench_line(rv, priv, r->row->end_ns, r->label, &r->v, r->fs, 0);
}

static void vdbench_run_end(const struct run_view *rv, void *priv,
			    const struct sink_run_end *e)
{
	if (e->totals)
		vdbench_line(rv, priv, time_real_ns(), e->label, &e->r->view,
			     e->r->fs, 1);
}

static void vdbench_done(const struct run_view *rv, struct vdbench_files *V,
			 int sync)
{
	results_file_close(rv, &V->sum, sync);
	results_file_close(rv, &V->tot, sync);
}

static void vdbench_end(const struct run_view *rv, void *priv)
{
	vdbench_done(rv, priv, 1);
}

static void vdbench_close(const struct run_view *rv, void *priv)
{
	vdbench_done(rv, priv, 0);
}

const struct sink_ops sink_vdbench = {
	.name = "summary.html, totals.html",
	.priv_size = sizeof(struct vdbench_files),
	.open = vdbench_open,
	.phase_start = vdbench_phase_start,
	.row = vdbench_row,
	.run_end = vdbench_run_end,
	.end = vdbench_end,
	.close = vdbench_close,
};
