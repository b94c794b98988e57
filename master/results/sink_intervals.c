/*
 * intervals.csv: one cluster row per run per interval, flushed as it is
 * merged, with the column providers' columns (events) at the end; a
 * slave's interval that came after its cluster row was written is a
 * `late` row, so that the cluster row and its late rows hold every I/O.
 */
#include <string.h>
#include "common/log.h"
#include "common/timeutil.h"
#include "master/run/master_int.h"
#include "master/results/fmt.h"
#include "master/results/sink.h"

static int intervals_open(const struct run_view *rv, void *priv)
{
	struct rfile *icsv = priv;
	int ret = results_file_open(rv, "intervals.csv", icsv);

	if (ret < 0) {
		log_error("cannot write %s/intervals.csv: %s", rv->out->dir,
			  strerror(-ret));
		return ret;
	}
	results_csv_header(rv, icsv->f);
	results_wrote(rv, icsv);
	return 0;
}

static void intervals_row(const struct run_view *rv, void *priv,
			  const struct sink_row *r)
{
	struct rfile *icsv = priv;
	const struct merge_row *row = r->row;
	FILE *f = results_w(icsv);

	if (!f)
		return;
	fmt_csv_row_tail(f, rv->ph->cur->ph.name, row->seq + 1,
			 row->warmup ? "warmup" : "measure", row->start_ns,
			 row->end_ns, row->reported, row->expected, &r->v,
			 time_real_ns(), r->cells);
	results_wrote(rv, icsv);
	results_flush(rv, icsv);
}

static void intervals_slave_row(const struct run_view *rv, void *priv,
				const struct sink_slave_row *r)
{
	struct rfile *icsv = priv;
	char tail[64] = "";
	size_t k = 0;
	FILE *f;

	if (!r->late || !(f = results_w(icsv)))
		return;
	/* The providers' cells, empty: one ',' between each two. */
	for (size_t i = 0; i < rv->out->nsinks; i++)
		if (rv->out->sinks[i].ops->column && k < sizeof(tail) - 1)
			tail[k++] = ',';
	tail[k ? k - 1 : 0] = 0;
	fmt_csv_row_tail(f, rv->ph->cur->ph.name, r->iv->seq + 1, "late",
			 r->iv->start_ns, r->iv->end_ns, 1, 0, &r->v, r->now,
			 tail);
	results_wrote(rv, icsv);
	results_flush(rv, icsv);
}

static void intervals_end(const struct run_view *rv, void *priv)
{
	results_file_close(rv, priv, 1);
}

static void intervals_close(const struct run_view *rv, void *priv)
{
	results_file_close(rv, priv, 0);
}

const struct sink_ops sink_intervals = {
	.name = "intervals.csv",
	.priv_size = sizeof(struct rfile),
	.open = intervals_open,
	.row = intervals_row,
	.slave_row = intervals_slave_row,
	.end = intervals_end,
	.close = intervals_close,
};
