/*
 * The InfluxDB sink: line protocol POSTed to /write?db=NAME over HTTP/1.1,
 * one request per batch on a fresh connection (Connection: close keeps
 * the reply's framing trivial). The cluster's rows are the measurement
 * lockstep_cluster with the tags run and phase; a slave's rows are
 * lockstep_slave with run, phase, host and slave. Tags are escaped per
 * the line-protocol rules; the timestamp is the interval's end in ns. A
 * batch counts as delivered only when the server answers 2xx.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "common/log.h"
#include "common/timeutil.h"
#include "master/export/export_int.h"

const char *export_influx_tag(const char *s, char *out, size_t len)
{
	size_t n = 0;

	if (!len)
		return out;
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		int esc = c == ',' || c == '=' || c == ' ' || c == '\\';

		if (n + 1 + (size_t)esc >= len)
			break;
		if (esc)
			out[n++] = '\\';
		/* Control bytes would end the line, others may not be UTF-8. */
		out[n++] = c < ' ' || c >= 127 ? '_' : (char)c;
	}
	/* A tag value may not end in a lone backslash nor be empty. */
	if (!n && len > 1)
		out[n++] = '_';
	out[n] = 0;
	return out;
}

size_t export_influx_format(const struct export_point *p, char *buf, size_t len)
{
	char run[4 * EXPORT_NAME_MAX], phase[64], host[4 * EXPORT_PEER_MAX],
		slave[4 * EXPORT_PEER_MAX], obj[4 * EXPORT_PEER_MAX],
		key[4 * EXPORT_PEER_MAX];
	struct export_metric m[EXPORT_METRICS_MAX];
	size_t n = export_metrics(p, m), used;
	int w, first = 1;

	export_influx_tag(p->run, run, sizeof(run));
	export_influx_tag(p->phase, phase, sizeof(phase));
	if (p->kind == EXPORT_PROBE)
		w = snprintf(buf, len, "lockstep_probe,probe=%s,key=%s ",
			     export_influx_tag(p->obj, obj, sizeof(obj)),
			     export_influx_tag(p->key, key, sizeof(key)));
	else if (p->kind == EXPORT_DEVICE)
		w = snprintf(buf, len,
			     "lockstep_device,run=%s,phase=%s,host=%s,slave=%s,device=%s ",
			     run, phase,
			     export_influx_tag(p->slave ? p->host : "cluster",
					       host, sizeof(host)),
			     export_influx_tag(p->slave ? p->slave : "cluster",
					       slave, sizeof(slave)),
			     export_influx_tag(p->obj, obj, sizeof(obj)));
	else if (p->kind == EXPORT_FSOP)
		w = snprintf(buf, len,
			     "lockstep_op,run=%s,phase=%s,operation=%s ", run,
			     phase,
			     export_influx_tag(p->obj, obj, sizeof(obj)));
	else if (p->kind == EXPORT_HOSTSTAT)
		w = snprintf(buf, len,
			     "lockstep_host,run=%s,phase=%s,host=%s,slave=%s ",
			     run, phase,
			     export_influx_tag(p->host, host, sizeof(host)),
			     export_influx_tag(p->slave, slave, sizeof(slave)));
	else if (p->slave)
		w = snprintf(buf, len,
			     "lockstep_slave,run=%s,phase=%s,host=%s,slave=%s ",
			     run, phase,
			     export_influx_tag(p->host, host, sizeof(host)),
			     export_influx_tag(p->slave, slave, sizeof(slave)));
	else
		w = snprintf(buf, len, "lockstep_cluster,run=%s,phase=%s ", run,
			     phase);
	if (w < 0 || (size_t)w >= len)
		return 0;
	used = (size_t)w;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(m[i].x))
			continue;
		if (m[i].decimals)
			w = snprintf(buf + used, len - used, "%s%s=%.*f",
				     first ? "" : ",", m[i].name, m[i].decimals,
				     m[i].x);
		else
			w = snprintf(buf + used, len - used, "%s%s=%.0fi",
				     first ? "" : ",", m[i].name, m[i].x);
		if (w < 0 || (size_t)w >= len - used)
			return 0;
		used += (size_t)w;
		first = 0;
	}
	if (first)
		return 0; /* no field: no line (the protocol wants one) */
	w = snprintf(buf + used, len - used, " %llu\n",
		     (unsigned long long)p->end_ns);
	if (w < 0 || (size_t)w >= len - used)
		return 0;
	return used + (size_t)w;
}

struct influx {
	struct export_conn c;
	char target[1024];
	char *buf;
	size_t cap;
	int complained; /* a non-2xx answer was logged */
};

#define INFLUX_LINE_MAX 4096
#define INFLUX_HEAD_MAX 2048

static int influx_open(const struct export_opts *o, void **state, char *err,
		       size_t len)
{
	struct influx *x = calloc(1, sizeof(*x));
	char host[256];
	unsigned port;
	int ret;

	if (!x)
		return -ENOMEM;
	ret = export_parse_url(o->influx, host, sizeof(host), &port, x->target,
			       sizeof(x->target), err, len);
	if (ret < 0) {
		free(x);
		return ret;
	}
	export_conn_init(&x->c, "influx", host, port);
	x->cap = INFLUX_HEAD_MAX + (size_t)EXPORT_BATCH * INFLUX_LINE_MAX;
	x->buf = malloc(x->cap);
	if (!x->buf) {
		free(x);
		return -ENOMEM;
	}
	*state = x;
	return 0;
}

/* Read the reply's status line (and the rest, until the server closes). */
static int read_status(struct export_conn *c)
{
	char reply[512];
	size_t got = 0;
	uint64_t until = time_mono_ns() + EXPORT_IO_TIMEOUT_MS * NS_PER_MS;
	int code = 0;

	for (;;) {
		struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
		uint64_t now = time_mono_ns();
		char junk[512];
		ssize_t n;

		if (now >= until ||
		    poll(&pfd, 1, (int)((until - now) / NS_PER_MS) + 1) <= 0)
			return -ETIMEDOUT;
		if (got < sizeof(reply) - 1)
			n = recv(c->fd, reply + got, sizeof(reply) - 1 - got,
				 MSG_DONTWAIT);
		else
			n = recv(c->fd, junk, sizeof(junk), MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n <= 0)
			break;
		if (got < sizeof(reply) - 1)
			got += (size_t)n;
		reply[got] = 0;
		if (!code && strchr(reply, '\n')) {
			if (sscanf(reply, "HTTP/1.%*d %d", &code) != 1)
				return -EPROTO;
			/* The status is all we need; the rest is its body. */
			if (code >= 200 && code < 300)
				break;
		}
	}
	reply[got] = 0;
	if (!code && sscanf(reply, "HTTP/1.%*d %d", &code) != 1)
		return -EPROTO;
	return code;
}

static size_t influx_deliver(void *state, const struct export_item *it,
			     size_t n)
{
	struct influx *x = state;
	size_t points, head, body;
	int code, w;

	body = INFLUX_HEAD_MAX +
	       export_format_items(it, n, export_influx_format,
				   x->buf + INFLUX_HEAD_MAX,
				   x->cap - INFLUX_HEAD_MAX, &points);
	if (!points || export_conn_ensure(&x->c) < 0)
		return 0;
	w = snprintf(x->buf, INFLUX_HEAD_MAX,
		     "POST %s HTTP/1.1\r\nHost: %s:%u\r\nUser-Agent: lockstep\r\n"
		     "Content-Type: text/plain; charset=utf-8\r\n"
		     "Content-Length: %zu\r\nConnection: close\r\n\r\n",
		     x->target, x->c.host, x->c.port, body - INFLUX_HEAD_MAX);
	if (w < 0 || w >= INFLUX_HEAD_MAX)
		return 0;
	head = (size_t)w;
	/* The header goes right before the body: one send. */
	memmove(x->buf + INFLUX_HEAD_MAX - head, x->buf, head);
	if (export_conn_send(&x->c, x->buf + INFLUX_HEAD_MAX - head,
			     head + body - INFLUX_HEAD_MAX) < 0)
		return 0;
	code = read_status(&x->c);
	export_conn_close(&x->c);
	if (code < 0) {
		export_conn_fail(&x->c, code);
		return 0;
	}
	if (code < 200 || code >= 300) {
		if (!x->complained)
			log_warn("influx export: the server answered HTTP %d to a write: those points are dropped (and counted)",
				 code);
		x->complained = 1;
		return 0;
	}
	return points;
}

static void influx_close(void *state)
{
	struct influx *x = state;

	export_conn_close(&x->c);
	free(x->buf);
	free(x);
}

const struct export_sink_ops export_influx_ops = {
	.open = influx_open,
	.deliver = influx_deliver,
	.close = influx_close,
};
