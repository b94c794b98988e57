/*
 * The sinks of the live export: one thread per sink asked for, each with a
 * queue of at most EXPORT_QUEUE items under a mutex held only to copy an
 * item in or a batch out. The master's loop (export_point) never waits on
 * a socket, a file or a name lookup: a full queue drops the point and
 * counts it. Also the checks of the command-line options and the parsers
 * they use.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "common/log.h"
#include "common/timeutil.h"
#include "master/export/export_int.h"

struct sink {
	enum export_sink_kind kind;
	const struct export_sink_ops *ops;
	void *state;
	pthread_t th;
	int started;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct export_item *ring;
	size_t head, count;
	int stop;
	uint64_t sent, dropped; /* interval points; under mu */
};

struct export_set {
	struct sink sink[EXPORT_NSINKS];
	int on[EXPORT_NSINKS];
};

const char *export_sink_name(enum export_sink_kind k)
{
	static const char *const names[] = { "graphite", "influx",
					     "prometheus" };

	return k < EXPORT_NSINKS ? names[k] : "?";
}

/* ---- parsing and checks (pure) ----------------------------------------- */

static int port_parse(const char *s, unsigned *port)
{
	char *end;
	unsigned long v;

	if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 5)
		return -EINVAL;
	v = strtoul(s, &end, 10);
	if (v < 1 || v > 65535)
		return -EINVAL;
	*port = (unsigned)v;
	return 0;
}

/* Letters, digits, '.', '-', ':' (IPv6 inside brackets) only. */
static int host_ok(const char *h, int v6)
{
	if (!*h || strlen(h) > 253)
		return 0;
	for (const char *p = h; *p; p++) {
		char c = *p;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '.' || c == '-' ||
		      (v6 && c == ':')))
			return 0;
	}
	return 1;
}

int export_parse_hostport(const char *s, char *host, size_t hostlen,
			  unsigned *port)
{
	const char *colon;
	size_t n;
	int v6 = 0;

	if (!s)
		return -EINVAL;
	if (s[0] == '[') {
		const char *close = strchr(s, ']');

		if (!close || close[1] != ':')
			return -EINVAL;
		n = (size_t)(close - s - 1);
		colon = close + 1;
		s++;
		v6 = 1;
	} else {
		colon = strrchr(s, ':');
		if (!colon || strchr(s, ':') != colon)
			return -EINVAL;
		n = (size_t)(colon - s);
	}
	if (n == 0 || n >= hostlen)
		return -EINVAL;
	memcpy(host, s, n);
	host[n] = 0;
	if (!host_ok(host, v6))
		return -EINVAL;
	return port_parse(colon + 1, port);
}

/* Characters allowed in the request target: no space, CR, LF, '#'. */
static int target_ok(const char *t)
{
	for (const char *p = t; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (c <= ' ' || c >= 127 || c == '#' || c == '"' || c == '\\')
			return 0;
	}
	return 1;
}

int export_parse_url(const char *url, char *host, size_t hostlen,
		     unsigned *port, char *target, size_t targetlen, char *err,
		     size_t errlen)
{
	char hp[300];
	const char *rest, *slash, *q;
	size_t n;

	if (!url || strncmp(url, "http://", 7) != 0) {
		snprintf(err, errlen,
			 "wants http://HOST:PORT/write?db=NAME (https is not supported)");
		return -EINVAL;
	}
	rest = url + 7;
	slash = strchr(rest, '/');
	if (!slash) {
		snprintf(err, errlen, "has no path: wants /write?db=NAME");
		return -EINVAL;
	}
	n = (size_t)(slash - rest);
	if (n == 0 || n >= sizeof(hp)) {
		snprintf(err, errlen, "has no host");
		return -EINVAL;
	}
	memcpy(hp, rest, n);
	hp[n] = 0;
	if (memchr(hp, '@', n)) {
		snprintf(err, errlen, "carries credentials: not supported");
		return -EINVAL;
	}
	if (!strchr(hp, ':') || (hp[0] == '[' && !strstr(hp, "]:"))) {
		/* No port: InfluxDB's 8086. */
		char tmp[310];

		snprintf(tmp, sizeof(tmp), "%s:8086", hp);
		snprintf(hp, sizeof(hp), "%s", tmp);
	}
	if (export_parse_hostport(hp, host, hostlen, port) < 0) {
		snprintf(err, errlen, "has a bad host or port (port 1..65535)");
		return -EINVAL;
	}
	if (strncmp(slash, "/write?", 7) != 0) {
		snprintf(err, errlen, "wants the path /write?db=NAME");
		return -EINVAL;
	}
	q = slash + 7;
	if (!(strncmp(q, "db=", 3) == 0 || strstr(q, "&db=")) ||
	    !target_ok(slash)) {
		snprintf(err, errlen,
			 "wants a db=NAME parameter and no spaces or control characters");
		return -EINVAL;
	}
	{
		const char *db = strncmp(q, "db=", 3) == 0 ?
					 q + 3 :
					 strstr(q, "&db=") + 4;

		if (!*db || *db == '&') {
			snprintf(err, errlen, "has an empty db=");
			return -EINVAL;
		}
	}
	if (strlen(slash) >= targetlen) {
		snprintf(err, errlen, "is too long");
		return -EINVAL;
	}
	snprintf(target, targetlen, "%s", slash);
	return 0;
}

int export_check(const struct export_opts *o, char *err, size_t len)
{
	char host[256], target[1024], why[256];
	unsigned port;

	if (o->graphite &&
	    export_parse_hostport(o->graphite, host, sizeof(host), &port) < 0) {
		snprintf(err, len,
			 "--graphite '%.200s': wants HOST:PORT (port 1..65535; [ADDR]:PORT for IPv6)",
			 o->graphite);
		return -EINVAL;
	}
	if (o->influx &&
	    export_parse_url(o->influx, host, sizeof(host), &port, target,
			     sizeof(target), why, sizeof(why)) < 0) {
		snprintf(err, len, "--influx '%.200s' %s", o->influx, why);
		return -EINVAL;
	}
	if (o->prom && export_prom_check(o->prom, why, sizeof(why)) < 0) {
		snprintf(err, len, "--prom-textfile '%.200s': %s", o->prom,
			 why);
		return -EINVAL;
	}
	return 0;
}

/* See export_int.h. */

size_t export_metrics(const struct export_point *p, struct export_metric *m)
{
	const struct stats_view *v = p->v;
	size_t n = 0;

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

static void *sink_main(void *arg)
{
	struct sink *s = arg;
	struct export_item *batch = malloc(EXPORT_BATCH * sizeof(*batch));
	uint64_t deadline = 0;

	for (;;) {
		size_t n = 0, points = 0, done;
		int stop;

		pthread_mutex_lock(&s->mu);
		while (!s->count && !s->stop)
			pthread_cond_wait(&s->cv, &s->mu);
		while (batch && n < EXPORT_BATCH && s->count) {
			batch[n++] = s->ring[s->head];
			s->head = (s->head + 1) % EXPORT_QUEUE;
			s->count--;
		}
		stop = s->stop;
		pthread_mutex_unlock(&s->mu);
		if (stop && !deadline)
			deadline = time_mono_ns() + EXPORT_DRAIN_NS;
		for (size_t i = 0; i < n; i++)
			points += !batch[i].totals;
		/* Past the drain's deadline what is left is dropped. */
		if (n && (!deadline || time_mono_ns() < deadline))
			done = s->ops->deliver(s->state, batch, n);
		else
			done = 0;
		pthread_mutex_lock(&s->mu);
		s->sent += done;
		s->dropped += points - (done < points ? done : points);
		if (!batch) {
			s->dropped += s->count;
			s->count = 0;
		}
		n = s->count;
		pthread_mutex_unlock(&s->mu);
		if (stop && !n)
			break;
	}
	free(batch);
	return NULL;
}

static const struct export_sink_ops *const sink_ops[EXPORT_NSINKS] = {
	&export_graphite_ops,
	&export_influx_ops,
	&export_prom_ops,
};

int export_open(const struct export_opts *o, struct export_set **out, char *err,
		size_t len)
{
	const char *asked[EXPORT_NSINKS] = { o->graphite, o->influx, o->prom };
	struct export_set *e;
	int ret, any = 0;

	*out = NULL;
	for (int k = 0; k < EXPORT_NSINKS; k++)
		any |= asked[k] != NULL;
	if (!any)
		return 0;
	ret = export_check(o, err, len);
	if (ret < 0)
		return ret;
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	for (int k = 0; k < EXPORT_NSINKS; k++) {
		struct sink *s = &e->sink[k];

		if (!asked[k])
			continue;
		s->kind = (enum export_sink_kind)k;
		s->ops = sink_ops[k];
		pthread_mutex_init(&s->mu, NULL);
		pthread_cond_init(&s->cv, NULL);
		e->on[k] = 1;
		s->ring = calloc(EXPORT_QUEUE, sizeof(*s->ring));
		ret = s->ring ? s->ops->open(o, &s->state, err, len) : -ENOMEM;
		if (ret == 0) {
			ret = -pthread_create(&s->th, NULL, sink_main, s);
			s->started = ret == 0;
		}
		if (ret < 0) {
			if (ret != -EINVAL)
				snprintf(err, len, "%s export: %s",
					 export_sink_name(s->kind),
					 strerror(-ret));
			export_close(e, NULL);
			return ret;
		}
	}
	*out = e;
	return 0;
}

static void sink_put(struct sink *s, const struct export_item *it)
{
	pthread_mutex_lock(&s->mu);
	if (s->count < EXPORT_QUEUE && !s->stop) {
		s->ring[(s->head + s->count) % EXPORT_QUEUE] = *it;
		s->count++;
		pthread_cond_signal(&s->cv);
	} else if (!it->totals) {
		s->dropped++;
	}
	pthread_mutex_unlock(&s->mu);
}

static void copy_str(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

void export_point(struct export_set *e, const struct export_point *p)
{
	struct export_item it;

	if (!e)
		return;
	memset(&it, 0, sizeof(it));
	copy_str(it.run, sizeof(it.run), p->run);
	copy_str(it.phase, sizeof(it.phase), p->phase);
	copy_str(it.host, sizeof(it.host), p->host);
	copy_str(it.slave, sizeof(it.slave), p->slave);
	it.interval = p->interval;
	it.end_ns = p->end_ns;
	it.reported = p->reported;
	it.expected = p->expected;
	it.v = *p->v;
	for (int k = 0; k < EXPORT_NSINKS; k++)
		if (e->on[k])
			sink_put(&e->sink[k], &it);
}

void export_run_totals(struct export_set *e, const char *run,
		       const struct stats_view *v)
{
	struct export_item it;

	if (!e || !e->on[EXPORT_PROM])
		return;
	memset(&it, 0, sizeof(it));
	it.totals = 1;
	copy_str(it.run, sizeof(it.run), run);
	it.v = *v;
	it.end_ns = time_real_ns();
	sink_put(&e->sink[EXPORT_PROM], &it);
}

void export_close(struct export_set *e, struct export_counts *counts)
{
	if (counts)
		memset(counts, 0, EXPORT_NSINKS * sizeof(*counts));
	if (!e)
		return;
	for (int k = 0; k < EXPORT_NSINKS; k++) {
		struct sink *s = &e->sink[k];

		if (!e->on[k])
			continue;
		if (s->started) {
			pthread_mutex_lock(&s->mu);
			s->stop = 1;
			pthread_cond_signal(&s->cv);
			pthread_mutex_unlock(&s->mu);
		}
	}
	for (int k = 0; k < EXPORT_NSINKS; k++) {
		struct sink *s = &e->sink[k];

		if (!e->on[k])
			continue;
		if (s->started)
			pthread_join(s->th, NULL);
		if (s->state)
			s->ops->close(s->state);
		if (counts) {
			counts[k].on = 1;
			counts[k].sent = s->sent;
			counts[k].dropped = s->dropped + s->count;
		}
		free(s->ring);
		pthread_mutex_destroy(&s->mu);
		pthread_cond_destroy(&s->cv);
	}
	free(e);
}
