/*
 * Reporters: the Vdbench-style console lines, the HCIBench-style summary
 * block, the CSV rows of intervals.csv and hosts/<slave>.csv, and the merged
 * latency distribution in HdrHistogram's percentile text format. They only
 * format: every number comes from a struct stats_view.
 */
#ifndef LOCKSTEP_MASTER_RESULTS_FMT_H
#define LOCKSTEP_MASTER_RESULTS_FMT_H

#include <stdint.h>
#include <stdio.h>
#include "common/hist.h"
#include "common/stats.h"

/*
 * The two header lines of the default console, the first starting with
 * the date: Vdbench's columns at Vdbench's widths, then p99 ms, slaves
 * seen and expected and, with events (non-zero), the active events' count.
 */
void fmt_console_header(FILE *f, uint64_t real_ns, int events);
/*
 * One interval line: time of day, label (the interval number), Vdbench's
 * columns, then p99 ms, slaves reported and expected and, when events >= 0,
 * how many events were active in the interval. A blank before every field.
 */
void fmt_console_row(FILE *f, uint64_t real_ns, const char *label,
		     const struct stats_view *v, unsigned reported,
		     unsigned expected, int events);
/* A run's total ("avg_2-10"): Vdbench's columns (rate 2 decimals), p99. */
void fmt_console_avg(FILE *f, uint64_t real_ns, const char *label,
		     const struct stats_view *v);
/* `lockstep vdbench`: Vdbench's header and rows, Vdbench's columns only
   (avg non-zero: a run's total, rate with 2 decimals). */
void fmt_vdbench_header(FILE *f, uint64_t real_ns);
void fmt_vdbench_row(FILE *f, uint64_t real_ns, const char *label,
		     const struct stats_view *v, int avg);
/* HCIBench-style block (IOPS = ..., THROUGHPUT = ..., LATENCY = ...). */
void fmt_hcibench(FILE *f, const struct stats_view *v);

/*
 * Header line of intervals.csv and hosts/<slave>.csv. emitted_ns is the
 * master's CLOCK_REALTIME when the row was written (for a slave's row:
 * when its interval arrived); p50_ms and p999_ms, added later, follow it
 * so that the columns before keep their places.
 */
void fmt_csv_header(FILE *f);
/* The same with ",tail" at the end (the column providers' columns). */
void fmt_csv_header_tail(FILE *f, const char *tail);
void fmt_csv_row(FILE *f, const char *run, unsigned interval, const char *phase,
		 uint64_t start_ns, uint64_t end_ns, unsigned reported,
		 unsigned expected, const struct stats_view *v,
		 uint64_t emitted_ns);
/* The same with ",tail" before the newline (hosts/<slave>.csv's events
   column); tail NULL: none. */
void fmt_csv_row_tail(FILE *f, const char *run, unsigned interval,
		      const char *phase, uint64_t start_ns, uint64_t end_ns,
		      unsigned reported, unsigned expected,
		      const struct stats_view *v, uint64_t emitted_ns,
		      const char *tail);
/* (fmt_csv_row leaves flushing to the caller: one file per slave.) */

/*
 * HdrHistogram percentile distribution of h in milliseconds (Value,
 * Percentile, TotalCount, 1/(1-Percentile)), with the Mean/Max footer.
 */
void fmt_hgrm(FILE *f, const struct hist *h);

#endif
