/*
 * The file-system phase's formats: Vdbench's file-system interval line
 * (FwdStats' layout: ReqstdOps, cpu%, read pct, read and write rate and
 * resp, mb/sec read, write and total, xfer size, then mkdir, rmdir,
 * create, open, close and delete rate and resp, and getattr, setattr,
 * access, copy and move when the phase asks for them), ops.csv's rows and
 * the summaries' per-operation totals. They only format: every number
 * comes from a struct fsops_view (common/fsops.h).
 */
#ifndef LOCKSTEP_MASTER_RESULTS_FSFMT_H
#define LOCKSTEP_MASTER_RESULTS_FSFMT_H

#include <stdint.h>
#include <stdio.h>
#include "common/fsops.h"
#include "common/stats.h"

struct jsonw;

/*
 * Vdbench's two header lines (the first starting with the date) for a
 * phase asking for ops (bits 1 << FSOPS_*: getattr, setattr, access, copy
 * and move get their columns only when asked for); slaves: lockstep's
 * "slaves seen/want" columns after Vdbench's (`lockstep run`'s console).
 */
void fsfmt_console_header(FILE *f, uint64_t real_ns, uint32_t ops, int slaves);
/*
 * One line: time of day, label (the interval number or avg_N-M),
 * Vdbench's columns from fv and the CPU of v, then with slaves >= 0
 * the slaves reported and expected.
 */
void fsfmt_console_row(FILE *f, uint64_t real_ns, const char *label,
		       const struct fsops_view *fv, const struct stats_view *v,
		       uint32_t ops, int slaves, unsigned reported,
		       unsigned expected);
/*
 * One value as Vdbench's Format "%W.DF" prints it: D decimals, and when
 * that is wider than W, decimals dropped (cut, not rounded) until it fits
 * or none is left; right-aligned in W. Pure.
 */
void fsfmt_fit(char *buf, size_t len, double x, int width, int decimals);

/*
 * Whether ops.csv, the summaries and the live export list op: the phase
 * asks for it (ops) or it has a count or errors in fv.
 */
int fsfmt_op_listed(const struct fsops_view *fv, uint32_t ops, unsigned op);
/*
 * ops.csv's header line, after lead (slave_ops.csv's "slave,late,"; ""
 * for ops.csv).
 */
void fsfmt_ops_header(FILE *f, const char *lead);
/*
 * ops.csv's rows of one span: one per operation the phase asks for (ops)
 * or that has a count in fv, in FSOPS_* order, each after lead (the
 * cells of fsfmt_ops_header's, "" for none). interval is "7" or
 * "avg_2-10", phase "warmup", "measure", "late" or "total"; start_ns and
 * end_ns 0 leave their cells empty (a total row).
 */
void fsfmt_ops_rows(FILE *f, const char *lead, const char *run,
		    const char *interval, const char *phase, uint64_t start_ns,
		    uint64_t end_ns, const struct fsops_view *fv, uint32_t ops);
/*
 * flatfile.html of a run whose first phase is a file-system one, as
 * Vdbench writes it for fwd= runs (Flat.define_column_headers' fs set:
 * Run, Interval, reqrate, rate, resp, MB/sec, Read_rate ... Move_resp,
 * compratio, dedupratio), then the CPU columns and lockstep's, as the
 * block layout (vdbench.h) has them. A row: the interval's or run's
 * figures, slaves reported of expected (expected 0: n/a, an avg_ row).
 */
struct vdbench_req;
void fsfmt_flat_header(FILE *f);
void fsfmt_flat_row(FILE *f, uint64_t end_ns, const struct vdbench_req *rq,
		    const char *interval, const struct fsops_view *fv,
		    const struct stats_view *v, unsigned reported,
		    unsigned expected);
/* summary.json's "operations" object of a run, and summary.txt's lines. */
void fsfmt_json(struct jsonw *w, const struct fsops_view *fv, uint32_t ops);
/*
 * summary.json's per-slave "operations": one slave's counts, rates over
 * seconds, bytes and mean response of each operation the run's cluster
 * view fv lists: reads and writes from v (the slave's totals), the
 * others from sums (FSOPS_SUM_* of each operation); the errors of the
 * others each, of reads and writes together as read_write_errors.
 */
void fsfmt_slave_json(struct jsonw *w, const uint64_t (*sums)[FSOPS_SUMS],
		      const struct stats_view *v, const struct fsops_view *fv,
		      uint32_t ops, double seconds);
void fsfmt_txt(FILE *f, const struct fsops_view *fv, uint32_t ops);

#endif
