/*
 * The Graphite sink: Carbon's plaintext protocol over one TCP connection,
 * "PATH VALUE TIMESTAMP\n" per metric. The cluster's metrics are
 * lockstep.<run>.<metric>, a slave's lockstep.<run>.host.<slave>.<metric>,
 * each part sanitized so that a run name with spaces, '=' or dots stays
 * one level of the dotted path. The timestamp is the interval's end in
 * whole seconds.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include "master/export/export_int.h"

const char *export_graphite_part(const char *s, char *out, size_t len)
{
	size_t n = 0;

	if (!len)
		return out;
	for (; s && *s && n + 1 < len; s++) {
		char c = *s;

		out[n++] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
					   (c >= '0' && c <= '9') || c == '-' ||
					   c == '_' ?
				   c :
				   '_';
	}
	if (!n && len > 1)
		out[n++] = '_';
	out[n] = 0;
	return out;
}

size_t export_graphite_format(const struct export_point *p, char *buf,
			      size_t len)
{
	char run[EXPORT_NAME_MAX], slave[EXPORT_PEER_MAX], prefix[480],
		obj[EXPORT_PEER_MAX], key[EXPORT_PEER_MAX];
	struct export_metric m[EXPORT_METRICS_MAX];
	size_t n = export_metrics(p, m), used = 0;
	unsigned long long ts = (unsigned long long)(p->end_ns / 1000000000ull);

	export_graphite_part(p->run, run, sizeof(run));
	if (p->slave)
		snprintf(prefix, sizeof(prefix), "lockstep.%s.host.%s.", run,
			 export_graphite_part(p->slave, slave, sizeof(slave)));
	else
		snprintf(prefix, sizeof(prefix), "lockstep.%s.", run);
	if (p->kind == EXPORT_DEVICE) {
		size_t l = strlen(prefix);

		snprintf(prefix + l, sizeof(prefix) - l, "dev.%s.",
			 export_graphite_part(p->obj, obj, sizeof(obj)));
	} else if (p->kind == EXPORT_FSOP) {
		size_t l = strlen(prefix);

		snprintf(prefix + l, sizeof(prefix) - l, "op.%s.",
			 export_graphite_part(p->obj, obj, sizeof(obj)));
	} else if (p->kind == EXPORT_HOSTSTAT) {
		size_t l = strlen(prefix);

		snprintf(prefix + l, sizeof(prefix) - l, "sys.");
	} else if (p->kind == EXPORT_PROBE) {
		/* lockstep.probe.NAME.KEY: a probe spans the runs. */
		snprintf(prefix, sizeof(prefix), "lockstep.probe.%s.",
			 export_graphite_part(p->obj, obj, sizeof(obj)));
	}
	for (size_t i = 0; i < n; i++) {
		int w;

		if (!isfinite(m[i].x))
			continue; /* Carbon takes no NaN: the point is absent */
		w = snprintf(buf + used, len - used, "%s%s %.*f %llu\n", prefix,
			     p->kind == EXPORT_PROBE ?
				     export_graphite_part(p->key, key,
							  sizeof(key)) :
				     m[i].name,
			     m[i].decimals, m[i].x, ts);
		if (w < 0 || (size_t)w >= len - used)
			return 0;
		used += (size_t)w;
	}
	return used;
}

struct graphite {
	struct export_conn c;
	char *buf;
	size_t cap;
};

#define GRAPHITE_LINES_MAX 8192 /* bytes of one point's lines, at most */

static int graphite_open(const struct export_opts *o, void **state, char *err,
			 size_t len)
{
	struct graphite *g = calloc(1, sizeof(*g));
	char host[256];
	unsigned port;

	(void)err;
	(void)len;
	if (!g)
		return -ENOMEM;
	export_parse_hostport(o->graphite, host, sizeof(host), &port);
	export_conn_init(&g->c, "graphite", host, port);
	g->cap = (size_t)EXPORT_BATCH * GRAPHITE_LINES_MAX;
	g->buf = malloc(g->cap);
	if (!g->buf) {
		free(g);
		return -ENOMEM;
	}
	*state = g;
	return 0;
}

/*
 * Whether Carbon closed its end: it never writes to us, so anything
 * readable is the end (or junk, which we drop).
 */
static int peer_closed(struct export_conn *c)
{
	struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
	char junk[256];

	if (poll(&pfd, 1, 0) <= 0)
		return 0;
	if (pfd.revents & (POLLERR | POLLHUP))
		return 1;
	return recv(c->fd, junk, sizeof(junk), MSG_DONTWAIT) == 0;
}

static size_t graphite_deliver(void *state, const struct export_item *it,
			       size_t n)
{
	struct graphite *g = state;
	size_t points, used = export_format_items(it, n, export_graphite_format,
						  g->buf, g->cap, &points);

	if (g->c.fd >= 0 && peer_closed(&g->c))
		export_conn_fail(&g->c, -EPIPE);
	if (!used || export_conn_ensure(&g->c) < 0)
		return 0;
	return export_conn_send(&g->c, g->buf, used) < 0 ? 0 : points;
}

static void graphite_close(void *state)
{
	struct graphite *g = state;

	export_conn_close(&g->c);
	free(g->buf);
	free(g);
}

const struct export_sink_ops export_graphite_ops = {
	.open = graphite_open,
	.deliver = graphite_deliver,
	.close = graphite_close,
};
