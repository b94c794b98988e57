/*
 * The table of sinks: every output of `lockstep run`, one row each, in
 * the order results.c calls their hooks (sink.h). The order is what the
 * console and the files rely on: the export's totals before the console's,
 * the console's totals before the validation line, summary.txt and
 * fio.json before summary.json (which lists what they lost), and the
 * keys of summary.json in its order ("export", "events", "probes",
 * "commands"); at the seal, compare.* before the summaries and
 * report.html after. A new output: its sink_NAME.c in this folder and one
 * X(NAME) here (docs/CONTRIBUTING.md, "Adding an output file").
 */
#include "master/results/sink.h"

#define SINKS(X)                                                               \
	X(paramcopy)    /* the parameter file, copied as run */                \
	X(export)       /* the live export (Graphite, InfluxDB, textfile) */   \
	X(events)       /* events column, events.csv (master/events/) */       \
	X(probes)       /* probes.csv, summary.json "probes" (events/) */      \
	X(commands)     /* startcmd=, endcmd=: summary.json, .txt (events/) */ \
	X(console)      /* interval lines, totals, lost slaves */              \
	X(validation)   /* the validation line and warning */                  \
	X(warmup)       /* how warmup=steady ended: summary.json, .txt */      \
	X(maxdata)      /* a run ended on maxdata=: summary.json, .txt */      \
	X(steady)       /* steady state: console, summary.json, .txt */        \
	X(slowhost)     /* slow hosts: console, summary.json, .txt */          \
	X(slowsd)       /* slow sds: console, summary.json, .txt */            \
	X(knee)         /* a curve's knee: console, summary.json, .txt */      \
	X(slo)          /* iorate=slo search: console, summary.json, .txt */   \
	X(genwarn)      /* generator warnings, busiest slave's CPU column */   \
	X(hosts)        /* hosts/<name>.csv */                                 \
	X(telemetry)    /* devices.csv, hoststats.csv */                       \
	X(intervals)    /* intervals.csv */                                    \
	X(opscsv)       /* ops.csv, the operations of file-system phases */    \
	X(histmap)      /* histograms.csv (the latency heat map) */            \
	X(flatfile)     /* flatfile.html */                                    \
	X(vdbench)      /* summary.html, totals.html (lockstep vdbench) */     \
	X(hgrm)         /* <run>.hgrm */                                       \
	X(compare)      /* compare.txt, compare.json (--baseline) */           \
	X(summary_txt)  /* summary.txt */                                      \
	X(fio)          /* fio.json */                                         \
	X(summary_json) /* summary.json, last of the run's files */            \
	X(report)       /* report.html (--report), from the sealed folder */

#define DECLARE(n) extern const struct sink_ops sink_##n;
SINKS(DECLARE)
#define ROW(n) &sink_##n,
const struct sink_ops *const results_sinks[] = { SINKS(ROW) };
const size_t results_nsinks = sizeof(results_sinks) / sizeof(results_sinks[0]);
