/*
 * ops.csv and the per-operation totals of a file-system phase: one row per
 * (cluster interval, operation) as the interval is merged, a slave's
 * interval that came after its cluster row as `late` rows (as
 * intervals.csv), and a run's totals as `total` rows; summary.json's
 * run gets "operations" and summary.txt's run a table of them. The file
 * is created at the first file-system phase: a run of block phases only
 * has none.
 */
#include <stdlib.h>
#include <string.h>
#include "common/jsonw.h"
#include "common/log.h"
#include "master/run/master_int.h"
#include "master/results/fsfmt.h"
#include "master/results/sink.h"

struct ops_sink {
	struct rfile f;
	int opened, failed;
	/* A late slave interval's sums (dense), made at the first one. */
	struct stats *st;
	struct fsops fs;
};

static FILE *ops_file(const struct run_view *rv, struct ops_sink *o)
{
	int ret;

	if (!o->opened && !o->failed) {
		ret = results_file_open(rv, "ops.csv", &o->f);
		if (ret < 0) {
			log_error("cannot write %s/ops.csv: %s", rv->out->dir,
				  strerror(-ret));
			results_incomplete(rv, "ops.csv", ret);
			o->failed = 1;
			return NULL;
		}
		o->opened = 1;
		fsfmt_ops_header(o->f.f);
		results_wrote(rv, &o->f);
	}
	return o->opened ? results_w(&o->f) : NULL;
}

static void ops_phase_start(const struct run_view *rv, void *priv,
			    const struct sink_phase *p)
{
	(void)p;
	if (rv->ph->cur->fsops)
		ops_file(rv, priv);
}

static void ops_row(const struct run_view *rv, void *priv,
		    const struct sink_row *r)
{
	struct ops_sink *o = priv;
	const struct merge_row *row = r->row;
	FILE *f;

	if (!r->fs || !(f = ops_file(rv, o)))
		return;
	fsfmt_ops_rows(f, rv->ph->cur->ph.name, r->label,
		       row->warmup ? "warmup" : "measure", row->start_ns,
		       row->end_ns, r->fs, rv->ph->cur->fsops);
	results_wrote(rv, &o->f);
	results_flush(rv, &o->f);
}

/* iv's sums into o->st and o->fs (validated by decode and the merge). */
static int late_sums(struct ops_sink *o, const struct proto_interval *iv)
{
	if (!o->st && !(o->st = malloc(sizeof(*o->st))))
		return -1;
	stats_init(o->st);
	fsops_reset(&o->fs);
	for (int d = 0; d < 2; d++) {
		o->st->ops[d] = iv->ops[d];
		o->st->bytes[d] = iv->bytes[d];
		if (hist_add_sparse(&o->st->lat[d], &iv->lat[d]) < 0)
			return -1;
	}
	o->st->errors = iv->errors;
	for (uint32_t i = 0; i < iv->nfsops; i++) {
		const struct proto_fsop_stat *s = &iv->fsops[i];

		if (s->op >= FSOPS_N || fsops_reserve(&o->fs, s->op) < 0)
			return -1;
		fsops_add_sparse(&o->fs, s->op, s->count, s->bytes, s->errors,
				 &s->lat);
	}
	return 0;
}

static void ops_slave_row(const struct run_view *rv, void *priv,
			  const struct sink_slave_row *r)
{
	struct ops_sink *o = priv;
	const struct run_result *cur = rv->ph->cur;
	struct fsops_view fv;
	char label[16];
	FILE *f;

	if (!r->late || !cur->fsops || !(f = ops_file(rv, o)))
		return;
	if (late_sums(o, r->iv) < 0) {
		log_warn("ops.csv: no late rows of slave %s's interval %u: out of memory",
			 r->s->hello.name, r->iv->seq + 1);
		return;
	}
	o->fs.requested = cur->fsops;
	fsops_view(&o->fs, o->st, cur->ph.interval_s, &fv);
	snprintf(label, sizeof(label), "%u", r->iv->seq + 1);
	fsfmt_ops_rows(f, cur->ph.name, label, "late", r->iv->start_ns,
		       r->iv->end_ns, &fv, cur->fsops);
	results_wrote(rv, &o->f);
	results_flush(rv, &o->f);
}

static void ops_run_end(const struct run_view *rv, void *priv,
			const struct sink_run_end *e)
{
	struct ops_sink *o = priv;
	FILE *f;

	if (!e->totals || !e->r->fs || !(f = ops_file(rv, o)))
		return;
	fsfmt_ops_rows(f, e->r->ph.name, e->label, "total", 0, 0, e->r->fs,
		       e->r->fsops);
	results_wrote(rv, &o->f);
	results_flush(rv, &o->f);
}

static void ops_run_json(const struct run_view *rv, void *priv,
			 const struct run_result *r, struct jsonw *w)
{
	(void)rv;
	(void)priv;
	if (r->fs)
		fsfmt_json(w, r->fs, r->fsops);
}

static void ops_run_txt(const struct run_view *rv, void *priv,
			const struct run_result *r, FILE *f)
{
	(void)rv;
	(void)priv;
	if (r->fs)
		fsfmt_txt(f, r->fs, r->fsops);
}

static void ops_free(struct ops_sink *o)
{
	free(o->st);
	o->st = NULL;
	fsops_release(&o->fs);
}

static void ops_end(const struct run_view *rv, void *priv)
{
	struct ops_sink *o = priv;

	if (o->opened)
		results_file_close(rv, &o->f, 1);
	o->opened = 0;
	o->failed = 1; /* closed for good: not opened (emptied) again */
	ops_free(o);
}

static void ops_close(const struct run_view *rv, void *priv)
{
	struct ops_sink *o = priv;

	if (o->opened)
		results_file_close(rv, &o->f, 0);
	o->opened = 0;
	ops_free(o);
}

const struct sink_ops sink_opscsv = {
	.name = "ops.csv",
	.priv_size = sizeof(struct ops_sink),
	.phase_start = ops_phase_start,
	.row = ops_row,
	.slave_row = ops_slave_row,
	.run_end = ops_run_end,
	.run_json = ops_run_json,
	.run_txt = ops_run_txt,
	.end = ops_end,
	.close = ops_close,
};
