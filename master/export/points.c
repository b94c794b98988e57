/*
 * What every sink of the live export writes: the metrics of an export
 * point and an item's formatted lines (pure; see export_int.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "master/export/export_int.h"

/* See export_int.h. */

size_t export_metrics(const struct export_point *p, struct export_metric *m)
{
	const struct stats_view *v = p->v;
	size_t n = 0;

	if (p->kind != EXPORT_INTERVAL) {
		n = p->nm < EXPORT_METRICS_MAX ? p->nm : EXPORT_METRICS_MAX;
		memcpy(m, p->m, n * sizeof(*m));
		return n;
	}
#define M(nm, val, d) m[n++] = (struct export_metric){ nm, (double)(val), d }
	M("iops", v->iops, 3);
	M("mbps", v->mbps, 4);
	M("resp_ms", v->resp_ms, 6);
	M("read_resp_ms", v->read_resp_ms, 6);
	M("write_resp_ms", v->write_resp_ms, 6);
	M("resp_max_ms", v->resp_max_ms, 6);
	M("resp_stddev_ms", v->resp_stddev_ms, 6);
	M("p95_ms", v->p95_ms, 6);
	M("p99_ms", v->p99_ms, 6);
	M("read_pct", v->read_pct, 3);
	M("queue_depth", v->queue_depth, 4);
	M("cpu_pct", v->cpu_pct, 2);
	M("ops", v->ops, 0);
	M("bytes", v->bytes, 0);
	M("errors", v->errors, 0);
	M("interval", p->interval, 0);
	if (!p->slave) {
		M("slaves_reported", p->reported, 0);
		M("slaves_expected", p->expected, 0);
	}
#undef M
	return n;
}

/* ---- the queue and the sink threads ------------------------------------ */

void export_item_point(const struct export_item *it, struct export_point *p)
{
	p->run = it->run;
	p->phase = it->phase;
	p->host = it->slave[0] ? it->host : NULL;
	p->slave = it->slave[0] ? it->slave : NULL;
	p->interval = it->interval;
	p->end_ns = it->end_ns;
	p->reported = it->reported;
	p->expected = it->expected;
	p->v = &it->v;
	p->kind = it->kind;
	p->obj = it->obj;
	p->key = it->key;
	p->nm = it->nm;
	p->m = it->m;
}

size_t export_format_items(const struct export_item *it, size_t n,
			   export_format_fn fmt, char *buf, size_t len,
			   size_t *points)
{
	size_t used = 0;

	*points = 0;
	for (size_t i = 0; i < n; i++) {
		struct export_point p;
		size_t w;

		if (it[i].totals)
			continue;
		export_item_point(&it[i], &p);
		w = fmt(&p, buf + used, len - used);
		*points += w > 0;
		used += w;
	}
	return used;
}
