/*
 * ops.csv and the per-operation totals of a file-system phase: one row per
 * (cluster interval, operation) as the interval is merged, a slave's
 * interval that came after its cluster row as `late` rows (as
 * intervals.csv), and a run's totals as `total` rows; summary.json's
 * run gets "operations" and summary.txt's run a table of them.
 * slave_ops.csv: each slave's own intervals as they arrive, one row per
 * operation, the same columns after `slave` and `late` (1: it came after
 * its cluster row, whose late rows in ops.csv it is): for each interval
 * and operation its slaves' rows add up to ops.csv's. The files are
 * created at the first file-system phase: a run of block phases only has
 * none.
 */
#include <stdlib.h>
#include <string.h>
#include "common/jsonw.h"
#include "common/log.h"
#include "master/run/master_int.h"
#include "master/results/fsfmt.h"
#include "master/results/sink.h"

struct ops_sink {
	struct rfile f, sf; /* ops.csv, slave_ops.csv */
	int opened, failed;
	int sopened, sfailed;
	/* A late slave interval's sums (dense), made at the first one. */
	struct stats *st;
	struct fsops fs;
};

/* One of the sink's files, made with its header at the first use. */
struct csv {
	struct rfile *f;
	int *opened, *failed;
	const char *name, *lead;
};

static FILE *csv_file(const struct run_view *rv, const struct csv *c)
{
	int ret;

	if (!*c->opened && !*c->failed) {
		ret = results_file_open(rv, c->name, c->f);
		if (ret < 0) {
			log_error("cannot write %s/%s: %s", rv->out->dir,
				  c->name, strerror(-ret));
			results_incomplete(rv, c->name, ret);
			*c->failed = 1;
			return NULL;
		}
		*c->opened = 1;
		fsfmt_ops_header(c->f->f, c->lead);
		results_wrote(rv, c->f);
	}
	return *c->opened ? results_w(c->f) : NULL;
}

static FILE *ops_file(const struct run_view *rv, struct ops_sink *o)
{
	const struct csv c = { &o->f, &o->opened, &o->failed, "ops.csv", "" };

	return csv_file(rv, &c);
}

static FILE *slave_file(const struct run_view *rv, struct ops_sink *o)
{
	const struct csv c = { &o->sf, &o->sopened, &o->sfailed,
			       "slave_ops.csv", "slave,late," };

	return csv_file(rv, &c);
}

static void ops_phase_start(const struct run_view *rv, void *priv,
			    const struct sink_phase *p)
{
	(void)p;
	if (rv->ph->cur->fsops) {
		ops_file(rv, priv);
		slave_file(rv, priv);
	}
}

static void ops_row(const struct run_view *rv, void *priv,
		    const struct sink_row *r)
{
	struct ops_sink *o = priv;
	const struct merge_row *row = r->row;
	FILE *f;

	if (!r->fs || !(f = ops_file(rv, o)))
		return;
	fsfmt_ops_rows(f, "", rv->ph->cur->ph.name, r->label,
		       row->warmup ? "warmup" : "measure", row->start_ns,
		       row->end_ns, r->fs, rv->ph->cur->fsops);
	results_wrote(rv, &o->f);
	results_flush(rv, &o->f);
}

/* iv's sums into o->st and o->fs (validated by decode and the merge). */
static int slave_sums(struct ops_sink *o, const struct proto_interval *iv)
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

/*
 * A slave's interval: its rows in slave_ops.csv, and when it came after
 * its cluster row, ops.csv's late rows. (Slave names are [A-Za-z0-9._-]:
 * fsutil_name_ok, checked at hello; nothing to quote.)
 */
static void ops_slave_row(const struct run_view *rv, void *priv,
			  const struct sink_slave_row *r)
{
	struct ops_sink *o = priv;
	const struct run_result *cur = rv->ph->cur;
	struct fsops_view fv;
	char label[16], lead[PROTO_NAME_LEN + 8];
	FILE *f, *sf;

	if (!cur->fsops)
		return;
	f = r->late ? ops_file(rv, o) : NULL;
	sf = slave_file(rv, o);
	if (!f && !sf)
		return;
	if (slave_sums(o, r->iv) < 0) {
		log_warn("ops.csv: no rows of slave %s's interval %u: out of memory",
			 r->s->hello.name, r->iv->seq + 1);
		return;
	}
	o->fs.requested = cur->fsops;
	fsops_view(&o->fs, o->st, cur->ph.interval_s, &fv);
	snprintf(label, sizeof(label), "%u", r->iv->seq + 1);
	if (f) {
		fsfmt_ops_rows(f, "", cur->ph.name, label, "late",
			       r->iv->start_ns, r->iv->end_ns, &fv, cur->fsops);
		results_wrote(rv, &o->f);
		results_flush(rv, &o->f);
	}
	if (sf) {
		snprintf(lead, sizeof(lead), "%s,%d,", r->s->hello.name,
			 r->late ? 1 : 0);
		fsfmt_ops_rows(sf, lead, cur->ph.name, label, r->note,
			       r->iv->start_ns, r->iv->end_ns, &fv, cur->fsops);
		results_wrote(rv, &o->sf);
		results_flush(rv, &o->sf);
	}
}

static void ops_run_end(const struct run_view *rv, void *priv,
			const struct sink_run_end *e)
{
	struct ops_sink *o = priv;
	FILE *f;

	if (!e->totals || !e->r->fs || !(f = ops_file(rv, o)))
		return;
	fsfmt_ops_rows(f, "", e->r->ph.name, e->label, "total", 0, 0, e->r->fs,
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
	if (o->sopened)
		results_file_close(rv, &o->sf, 1);
	o->opened = o->sopened = 0;
	/* closed for good: not opened (emptied) again */
	o->failed = o->sfailed = 1;
	ops_free(o);
}

static void ops_close(const struct run_view *rv, void *priv)
{
	struct ops_sink *o = priv;

	if (o->opened)
		results_file_close(rv, &o->f, 0);
	if (o->sopened)
		results_file_close(rv, &o->sf, 0);
	o->opened = o->sopened = 0;
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
