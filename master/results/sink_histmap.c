/*
 * histograms.csv: the latency distribution of every cluster interval, per
 * direction, in the heat map's quarter-octave buckets (latmap.h), one row
 * per bucket that holds I/Os: run,interval,phase,start_ns,end_ns,dir,
 * lo_ns,hi_ns,count (lo_ns <= latency < hi_ns). A slave's interval that
 * came after its cluster row was written adds rows of phase `late` for
 * the same interval, as intervals.csv does: summed by run, interval, dir
 * and lo_ns the counts are every I/O the totals hold. The report draws
 * its heat map from this file.
 */
#include <string.h>
#include "common/log.h"
#include "master/run/master_int.h"
#include "common/latmap.h"
#include "master/results/sink.h"

static int histmap_open(const struct run_view *rv, void *priv)
{
	struct rfile *out = priv;
	int ret = results_file_open(rv, "histograms.csv", out);

	if (ret < 0) {
		log_error("cannot write %s/histograms.csv: %s", rv->out->dir,
			  strerror(-ret));
		return ret;
	}
	fputs("run,interval,phase,start_ns,end_ns,dir,lo_ns,hi_ns,count\n",
	      out->f);
	results_wrote(rv, out);
	return 0;
}

/* The rows of one interval's two directions. */
static void histmap_write(const struct run_view *rv, struct rfile *out,
			  unsigned seq, const char *phase, uint64_t start_ns,
			  uint64_t end_ns,
			  const uint64_t (*map)[LATMAP_BUCKETS])
{
	static const char *const dir[2] = { "read", "write" };
	FILE *f = results_w(out);

	if (!f)
		return;
	for (int d = 0; d < 2; d++)
		for (unsigned q = 0; q < LATMAP_BUCKETS; q++)
			if (map[d][q])
				fprintf(f,
					"%s,%u,%s,%llu,%llu,%s,%llu,%llu,%llu\n",
					rv->ph->cur->ph.name, seq + 1, phase,
					(unsigned long long)start_ns,
					(unsigned long long)end_ns, dir[d],
					(unsigned long long)latmap_lo(q),
					(unsigned long long)latmap_hi(q),
					(unsigned long long)map[d][q]);
	results_wrote(rv, out);
	results_flush(rv, out);
}

static void histmap_row(const struct run_view *rv, void *priv,
			const struct sink_row *r)
{
	const struct merge_row *row = r->row;
	uint64_t map[2][LATMAP_BUCKETS];

	memset(map, 0, sizeof(map));
	for (int d = 0; d < 2; d++)
		latmap_add(map[d], &row->stats->lat[d]);
	histmap_write(rv, priv, row->seq, row->warmup ? "warmup" : "measure",
		      row->start_ns, row->end_ns,
		      (const uint64_t(*)[LATMAP_BUCKETS])map);
}

static void histmap_slave_row(const struct run_view *rv, void *priv,
			      const struct sink_slave_row *r)
{
	uint64_t map[2][LATMAP_BUCKETS];

	if (!r->late)
		return;
	memset(map, 0, sizeof(map));
	for (int d = 0; d < 2; d++)
		latmap_add_sparse(map[d], &r->iv->lat[d]);
	histmap_write(rv, priv, r->iv->seq, "late", r->iv->start_ns,
		      r->iv->end_ns, (const uint64_t(*)[LATMAP_BUCKETS])map);
}

static void histmap_end(const struct run_view *rv, void *priv)
{
	results_file_close(rv, priv, 1);
}

static void histmap_close(const struct run_view *rv, void *priv)
{
	results_file_close(rv, priv, 0);
}

const struct sink_ops sink_histmap = {
	.name = "histograms.csv",
	.priv_size = sizeof(struct rfile),
	.open = histmap_open,
	.row = histmap_row,
	.slave_row = histmap_slave_row,
	.end = histmap_end,
	.close = histmap_close,
};
