/*
 * Live export of a run's numbers while it runs: every cluster interval and
 * every slave interval goes to Graphite (plaintext protocol over TCP),
 * InfluxDB (line protocol over HTTP) and a Prometheus textfile, whichever
 * were asked for. The master only hands points over: each sink has its own
 * thread that owns its socket or file and a bounded queue, so a receiver
 * that is down or slow never slows or stops the run; what cannot be
 * queued or delivered is dropped and counted. Names are resolved in the
 * sinks' threads, never on the master's loop.
 */
#ifndef LOCKSTEP_MASTER_EXPORT_H
#define LOCKSTEP_MASTER_EXPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "common/stats.h"

/* What the command line asked for (NULL: that sink is off). Not owned. */
struct export_opts {
	const char *graphite; /* --graphite HOST:PORT */
	const char *influx;   /* --influx http://HOST:PORT/write?db=NAME */
	const char *prom;     /* --prom-textfile FILE */
};

enum export_sink_kind {
	EXPORT_GRAPHITE,
	EXPORT_INFLUX,
	EXPORT_PROM,
	EXPORT_NSINKS
};

/*
 * What a point is: an interval row (its stats view), a block device's
 * figures (obj: the device; the cluster's devices as obj "all" with no
 * slave), a host's telemetry, a probe's sample (obj: the probe, key:
 * its key; no run), or one operation of a file-system phase's cluster
 * interval (obj: "create", as ops.csv's rows). All but the first carry
 * their own metrics in m.
 */
enum export_kind {
	EXPORT_INTERVAL = 0,
	EXPORT_DEVICE,
	EXPORT_HOSTSTAT,
	EXPORT_PROBE,
	EXPORT_FSOP,
};

/* One metric of a point: a static name, its value, its decimals. */
struct export_metric {
	const char *name;
	double x;
	int decimals; /* 0: an integer */
};
#define EXPORT_METRICS_MAX 20

/* One interval row: the cluster's (slave NULL) or one slave's. */
struct export_point {
	enum export_kind kind;
	const char *obj, *key; /* EXPORT_DEVICE, EXPORT_PROBE, EXPORT_FSOP */
	size_t nm;             /* kinds other than EXPORT_INTERVAL */
	const struct export_metric *m;
	const char *run;   /* the run's display name ("r1 xfersize=4k") */
	const char *phase; /* "warmup", "measure" or "late" */
	const char *host;  /* the slave's host (NULL for the cluster) */
	const char *slave; /* the slave's name (NULL for the cluster) */
	unsigned interval; /* 1-based */
	uint64_t end_ns;   /* the interval's end, master CLOCK_REALTIME */
	unsigned reported, expected; /* the cluster's: slaves in the row */
	const struct stats_view *v;  /* EXPORT_INTERVAL */
};

/* Per sink, what the run delivered and what it lost. */
struct export_counts {
	int on;
	uint64_t sent, dropped;
};

struct export_set;

/*
 * Check the options without touching the network: HOST:PORT with a port
 * in 1..65535, an http:// URL whose path is /write with a db= parameter
 * and no character that could end a request line, a textfile FILE whose
 * folder exists, whose name ends in .prom and that is a regular file if
 * it exists. Returns 0, or -EINVAL with the reason in err.
 */
int export_check(const struct export_opts *o, char *err, size_t len);

/*
 * Start one thread per sink asked for (0 and *out NULL when none). Returns
 * 0 or -errno with the reason in err. The caller owns *out
 * (export_close).
 */
int export_open(const struct export_opts *o, struct export_set **out, char *err,
		size_t len);

/*
 * Hand one point to every sink. Never blocks for longer than a copy under
 * a mutex; a full queue drops the point (counted). e may be NULL.
 */
void export_point(struct export_set *e, const struct export_point *p);

/* A run's totals (the Prometheus textfile keeps finished runs'). */
void export_run_totals(struct export_set *e, const char *run,
		       const struct stats_view *v);

/*
 * Stop the sinks: what is queued gets at most a couple of seconds to
 * go out, the rest is dropped. Fills counts[EXPORT_NSINKS] (may be NULL),
 * frees e.
 */
void export_close(struct export_set *e, struct export_counts *counts);

/* "graphite", "influx", "prometheus". */
const char *export_sink_name(enum export_sink_kind k);

/* ---- pure helpers, unit-tested ---- */

/*
 * HOST:PORT or [V6]:PORT into host (without brackets) and *port. Returns
 * 0 or -EINVAL.
 */
int export_parse_hostport(const char *s, char *host, size_t hostlen,
			  unsigned *port);
/*
 * http://HOST[:PORT]/write?QUERY with db= in QUERY: host, port (default
 * 8086) and the request target ("/write?QUERY"). Returns 0, or -EINVAL
 * with why in err.
 */
int export_parse_url(const char *url, char *host, size_t hostlen,
		     unsigned *port, char *target, size_t targetlen, char *err,
		     size_t errlen);
/*
 * One component of a Graphite dotted path: every byte other than a letter,
 * digit, '-' or '_' becomes '_' (a dot would start a new level). Empty
 * input gives "_". Returns out.
 */
const char *export_graphite_part(const char *s, char *out, size_t len);
/*
 * The Graphite plaintext lines of p ("lockstep.RUN.METRIC V T\n",
 * "lockstep.RUN.host.SLAVE.METRIC V T\n", an operation's
 * "lockstep.RUN.op.OP.METRIC V T\n") into buf. Returns the length, or
 * 0 when they do not fit.
 */
size_t export_graphite_format(const struct export_point *p, char *buf,
			      size_t len);
/*
 * An InfluxDB tag key or value with ',', '=' and ' ' escaped by a
 * backslash; control characters become '_' (a newline would end the line).
 */
const char *export_influx_tag(const char *s, char *out, size_t len);
/* The line-protocol line of p into buf: length, or 0 when it does not fit. */
size_t export_influx_format(const struct export_point *p, char *buf,
			    size_t len);
/* A Prometheus label value: '\\', '"' and newline escaped. */
const char *export_prom_label(const char *s, char *out, size_t len);

#endif
