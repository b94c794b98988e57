/*
 * The sinks of the live export: one thread per sink asked for, each with a
 * queue of at most EXPORT_QUEUE items under a mutex held only to copy an
 * item in or a batch out. The master's loop (export_point) never waits on
 * a socket, a file or a name lookup: a full queue drops the point and
 * counts it. Also the checks of the command-line options (their
 * addresses are parsed by addr.c; the points formatted by points.c).
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

/* ---- the options' checks (pure; the parsers are addr.c's) ----------- */

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
	it.kind = p->kind;
	if (p->kind == EXPORT_INTERVAL) {
		it.v = *p->v;
	} else {
		copy_str(it.obj, sizeof(it.obj), p->obj);
		copy_str(it.key, sizeof(it.key), p->key);
		it.nm = p->nm < EXPORT_METRICS_MAX ? p->nm : EXPORT_METRICS_MAX;
		memcpy(it.m, p->m, it.nm * sizeof(it.m[0]));
	}
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
