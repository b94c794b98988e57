/*
 * What Vdbench users' tools parse, written the way Vdbench writes it: the
 * run header line printed before each run ("Starting RD=...", which log
 * parsers such as HCIBench's key on) and flatfile.html, the tab-separated
 * per-interval table that `vdbench parseflat` and spreadsheets read. Only
 * formats: every number comes from a struct stats_view.
 */
#ifndef LOCKSTEP_MASTER_VDBENCH_H
#define LOCKSTEP_MASTER_VDBENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "common/stats.h"
#include "master/plan.h"

/*
 * "Starting RD=NAME; I/O rate: Uncontrolled MAX; elapsed=E warmup=W; For
 * loops: xfersize=4k rdpct=70" for phase ph of the rd named rd (a fixed
 * rate prints "I/O rate: N", a curve's max run "Uncontrolled curve", a
 * format pass RD=format_for_NAME; no loops prints "For loops: None").
 * Pure. Returns the length written (cut to len).
 */
size_t vdbench_rd_line(const char *rd, const struct plan_phase *ph, char *buf,
		       size_t len);

/* flatfile.html's comment lines and column header. */
void vdbench_flat_header(FILE *f);
/* One interval's row of run (display name), requested rate 0 = max. */
void vdbench_flat_row(FILE *f, uint64_t end_ns, const char *run,
		      unsigned interval, double reqrate,
		      const struct stats_view *v);

#endif
