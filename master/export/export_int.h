/*
 * What the sinks of master/export share: the queued item, the sink with
 * its thread and bounded queue (export.c), and the TCP connection with
 * reconnect and backoff (conn.c). Included only inside master/export/.
 */
#ifndef LOCKSTEP_MASTER_EXPORT_INT_H
#define LOCKSTEP_MASTER_EXPORT_INT_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include "master/export/export.h"

#define EXPORT_NAME_MAX 192 /* a run's display name (PLAN_NAME_MAX) */
#define EXPORT_PEER_MAX 64  /* a slave's or host's name (PROTO_NAME_LEN) */
#define EXPORT_QUEUE 4096   /* items a sink holds before it drops */
#define EXPORT_BATCH 256    /* items a sink takes at once */
#define EXPORT_IO_TIMEOUT_MS 1000
#define EXPORT_DRAIN_NS (2000000000ull) /* at close, then drop */

/* A point or a run's totals, copied: the master's strings may change. */
struct export_item {
	int totals; /* a run's totals, not an interval */
	char run[EXPORT_NAME_MAX];
	char phase[16];
	char host[EXPORT_PEER_MAX];
	char slave[EXPORT_PEER_MAX]; /* "" for the cluster */
	unsigned interval;
	uint64_t end_ns;
	unsigned reported, expected;
	struct stats_view v;
	/* Points of other kinds (export_point's). */
	enum export_kind kind;
	char obj[EXPORT_PEER_MAX], key[EXPORT_PEER_MAX];
	size_t nm;
	struct export_metric m[EXPORT_METRICS_MAX];
};

/* One number of a point, printed with the decimals of intervals.csv. */
/*
 * The metrics every sink sends for p: the interval's rates, latencies,
 * counters and number; the cluster's also slaves_reported and
 * slaves_expected. Returns how many (at most EXPORT_METRICS_MAX).
 */
size_t export_metrics(const struct export_point *p, struct export_metric *m);

/* A point's text (graphite.c, influx.c): its length, 0 if it did not fit. */
typedef size_t (*export_format_fn)(const struct export_point *p, char *buf,
				   size_t len);
/*
 * The text of the interval points of it[0..n) one after the other into
 * buf; *points is how many fitted. Returns the length.
 */
size_t export_format_items(const struct export_item *it, size_t n,
			   export_format_fn fmt, char *buf, size_t len,
			   size_t *points);

/* The item as an export_point (its strings stay the item's). */
void export_item_point(const struct export_item *it, struct export_point *p);

/* A TCP peer that comes and goes: connect on demand, back off on failure. */
struct export_conn {
	char host[256];
	unsigned port;
	int fd;               /* -1 when not connected */
	int down;             /* said so on the log already */
	uint64_t next_try_ns; /* no connect before (monotonic) */
	uint64_t backoff_ns;
	uint64_t up_since_ns; /* when the open connection was made */
	const char *what;     /* "graphite", for messages */
};

void export_conn_init(struct export_conn *c, const char *what, const char *host,
		      unsigned port);
/*
 * Connected, or try now unless backing off: resolves host (the sink's
 * thread, never the master's), connects with a timeout. 0 or -errno.
 */
int export_conn_ensure(struct export_conn *c);
/* Send all of buf within the I/O timeout. 0, or -errno (then closed). */
int export_conn_send(struct export_conn *c, const char *buf, size_t len);
/* Close after a failure and back off (250 ms doubling to 8 s). */
void export_conn_fail(struct export_conn *c, int err);
void export_conn_close(struct export_conn *c);

/* A sink's own code: graphite.c, influx.c, prom.c. */
struct export_sink_ops {
	/* Set up (no network): 0 or -errno with err. *state is the sink's. */
	int (*open)(const struct export_opts *o, void **state, char *err,
		    size_t len);
	/*
	 * Deliver n items (in the sink's thread). Returns how many interval
	 * points of them were delivered (totals items are not counted).
	 */
	size_t (*deliver)(void *state, const struct export_item *it, size_t n);
	void (*close)(void *state);
};

extern const struct export_sink_ops export_graphite_ops;
extern const struct export_sink_ops export_influx_ops;
extern const struct export_sink_ops export_prom_ops;

/* Whether a string is a Prometheus-safe textfile path; 0 or -EINVAL. */
int export_prom_check(const char *path, char *err, size_t len);

#endif
