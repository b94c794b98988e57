/*
 * The latency heat map of the report: histograms.csv (written by
 * master/results/sink_histmap.c) as, per run, a grid of time columns by
 * latency buckets with the I/Os counted in each, read and write apart.
 * Pure, like telem.h's readers: data.c reads the file.
 */
#ifndef LOCKSTEP_MASTER_REPORT_HEATMAP_H
#define LOCKSTEP_MASTER_REPORT_HEATMAP_H

#include "master/report/telem.h"

/* The most time columns of a run's map (even: columns merge in pairs). */
#define HEATMAP_COLUMNS 600

/*
 * Parse text (len bytes, changed in place; truncated: its last line
 * dropped) and write under key, per run with I/O: run, t0_ns (its ref's,
 * else its first row's start), intervals_per_column, total (I/Os), t and
 * t_end (each column's first start and last end, seconds after t0; -1
 * for a column without rows), warmup (1: only warmup rows), edges_ns
 * (the bounds of the buckets from the lowest to the highest used), and
 * read and write: per column the count of each bucket. Late rows count in
 * their interval's column. A row that does not parse, names a bucket that
 * is not one of common/latmap.h's or counts nothing is skipped (counted);
 * runs beyond TELEM_SERIES_MAX are over. Returns 0, -EINVAL (not the
 * file's header; nothing written) or -ENOMEM.
 */
int telem_heatmap(struct jsonw *w, const char *key, char *text, size_t len,
		  int truncated, const struct telem_ref *ref, size_t nref,
		  struct telem_stats *st);

#endif
