/*
 * What the devices, the hosts, the probes and a file-system run's
 * operations did, for the report: the results folder's devices.csv,
 * hoststats.csv, probes.csv and ops.csv (written by
 * master/results/sink_telemetry.c, sink_probes.c and sink_opscsv.c)
 * parsed from their
 * text and written as JSON for the page, on the time axis of the run's
 * intervals. Pure: data.c reads the files and says what went wrong.
 */
#ifndef LOCKSTEP_MASTER_REPORT_TELEM_H
#define LOCKSTEP_MASTER_REPORT_TELEM_H

#include <stddef.h>
#include <stdint.h>
#include "common/jsonw.h"
#include "master/report/tseries.h"

/* Series (a host's device, a host, a NIC, a probe's key) kept a file. */
#define TELEM_SERIES_MAX 4096u

/* A run's time origin: start_ns of its first row in intervals.csv. */
struct telem_ref {
	const char *run;
	uint64_t t0;
};

/* What a file held: rows drawn, rows refused, and why not others. */
struct telem_stats {
	size_t rows;    /* rows taken */
	size_t skipped; /* rows that do not parse or hold impossible values */
	size_t over;    /* rows of series beyond TELEM_SERIES_MAX */
	size_t dup;     /* rows of a device (NIC) another slave gave already */
	size_t late;    /* rows with late=1 (taken) */
	size_t between; /* probes.csv: samples taken between runs */
};

/*
 * Parse text (len bytes, changed in place; truncated: cut at a bound, its
 * last line dropped) and write the result under key with w. The run's
 * time origin is its ref's (else its first row's start). Returns 0 (the
 * JSON written, an empty array for a file of a header only), -EINVAL for
 * a text without the file's header (nothing written) or -ENOMEM.
 *
 * devices.csv: per run, the cluster row (host cluster, no slave, device
 * all: the devices that came on time, each once) with the late slaves'
 * rows (late=1) of devices it does not have added, and per host its
 * devices taken once (the first slave's row of a device and interval),
 * summed: IO/s, MB/s, queue size and in-flight add, awaits are weighted
 * by the I/Os, util% is the busiest device's.
 */
int telem_devices(struct jsonw *w, const char *key, char *text, size_t len,
		  int truncated, const struct telem_ref *ref, size_t nref,
		  struct telem_stats *st);
/*
 * hoststats.csv: per run, per host the host's figures (the first slave's
 * row of an interval; the slaves' own CPU summed) and per host and NIC
 * its traffic.
 */
int telem_hoststats(struct jsonw *w, const char *key, char *text, size_t len,
		    int truncated, const struct telem_ref *ref, size_t nref,
		    struct telem_stats *st);
/*
 * probes.csv: per run, per probe and key its samples at their time; a
 * sample that is not ok is a gap, counted by status.
 */
int telem_probes(struct jsonw *w, const char *key, char *text, size_t len,
		 int truncated, const struct telem_ref *ref, size_t nref,
		 struct telem_stats *st);

/*
 * ops.csv: per run, per file-system operation its rate and mean response
 * time per interval (late rows added into their interval).
 */
int telem_ops(struct jsonw *w, const char *key, char *text, size_t len,
	      int truncated, const struct telem_ref *ref, size_t nref,
	      struct telem_stats *st);

/* Shared by telem.c and telem_probes.c: run's time origin from ref, else
   fallback. */
uint64_t telem_t0(const struct telem_ref *ref, size_t nref, const char *run,
		  uint64_t fallback);
/*
 * A CSV line's fields (nf of them, at most CSVROW_FIELDS_MAX) for
 * telem_each_row(). The header's: 0, or -EINVAL when it is not the
 * file's. A row's: 0, -EINVAL (skipped), -ENOSPC (a row of a series
 * beyond the bound: over) or -ENOMEM.
 */
typedef int (*telem_line_fn)(void *arg, char *const *f, size_t nf);
/*
 * Shared by telem.c and telem_probes.c: each line of text (len bytes,
 * changed in place; truncated: its last line dropped) split, the first to
 * header, each other to row; an empty one or one of too many fields is
 * skipped (an empty one not counted), and st->skipped and st->over count
 * what row said. Returns 0, -EINVAL (no header, or not the file's) or
 * -ENOMEM.
 */
int telem_each_row(char *text, size_t len, int truncated, telem_line_fn header,
		   telem_line_fn row, void *arg, struct telem_stats *st);

#endif
