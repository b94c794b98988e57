/*
 * The slow units' shared parts (see slowname.h): the pending rows'
 * arenas, the run's list of the slowest, and their words.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "common/jsonw.h"
#include "master/run/master_int.h"
#include "master/results/sink.h"
#include "master/results/slowname.h"

/* Room in p for one more entry and its buckets: 0 or -ENOMEM. */
static int pend_room(struct slowname_pend *p, size_t buckets)
{
	if (p->ne == p->ecap) {
		size_t c = p->ecap ? 2 * p->ecap : 16;
		struct slowname_entry *e = realloc(p->e, c * sizeof(*e));

		if (!e)
			return -ENOMEM;
		p->e = e;
		p->ecap = c;
	}
	/* Made at the first entry, even an empty one: the hists point in. */
	if (p->len + buckets > p->cap || !p->cnt) {
		size_t c = p->cap ? 2 * p->cap : 4096;
		uint32_t *i;
		uint64_t *n;

		while (c < p->len + buckets)
			c *= 2;
		i = realloc(p->idx, c * sizeof(*i));
		if (i)
			p->idx = i;
		n = i ? realloc(p->cnt, c * sizeof(*n)) : NULL;
		if (!n)
			return -ENOMEM;
		p->cnt = n;
		p->cap = c;
	}
	return 0;
}

struct slowname_pend *slowname_pend_of(struct slowname_pend *pend, unsigned seq)
{
	struct slowname_pend *free_slot = NULL;

	for (size_t k = 0; k < SLOWNAME_PENDING; k++) {
		struct slowname_pend *p = &pend[k];

		if (p->used && p->seq == seq)
			return p;
		if (!p->used && !free_slot)
			free_slot = p;
	}
	if (free_slot) {
		free_slot->used = 1;
		free_slot->seq = seq;
		free_slot->ne = free_slot->len = 0;
	}
	return free_slot;
}

struct slowname_pend *slowname_pend_take(struct slowname_pend *pend,
					 unsigned seq)
{
	for (size_t k = 0; k < SLOWNAME_PENDING; k++)
		if (pend[k].used && pend[k].seq == seq) {
			pend[k].used = 0;
			return &pend[k];
		}
	return NULL;
}

int slowname_pend_add(struct slowname_pend *p, unsigned who, unsigned slave,
		      double weight, const struct hist_sparse *lat, unsigned n)
{
	struct slowname_entry *e;
	size_t buckets = 0;

	if (n > SLOWHOST_DIRS)
		return -EINVAL;
	for (unsigned d = 0; d < n; d++)
		buckets += lat[d].n;
	if (pend_room(p, buckets) < 0)
		return -ENOMEM;
	e = &p->e[p->ne++];
	e->who = who;
	e->slave = slave;
	e->weight = weight;
	e->nlat = n;
	for (unsigned d = 0; d < n; d++) {
		const struct hist_sparse *h = &lat[d];

		e->meta[d] = *h;
		e->meta[d].idx = NULL;
		e->meta[d].cnt = NULL;
		e->off[d] = p->len;
		if (!h->n)
			continue; /* an empty histogram has no arrays */
		memcpy(p->idx + p->len, h->idx, h->n * sizeof(*h->idx));
		memcpy(p->cnt + p->len, h->cnt, h->n * sizeof(*h->cnt));
		p->len += h->n;
	}
	return 0;
}

void slowname_pend_hists(const struct slowname_pend *p, size_t k,
			 struct hist_sparse *sp)
{
	const struct slowname_entry *e = &p->e[k];

	for (unsigned d = 0; d < e->nlat; d++) {
		sp[d] = e->meta[d];
		sp[d].idx = p->idx + e->off[d];
		sp[d].cnt = p->cnt + e->off[d];
	}
}

void slowname_pend_free(struct slowname_pend *pend)
{
	for (size_t k = 0; k < SLOWNAME_PENDING; k++) {
		free(pend[k].e);
		free(pend[k].idx);
		free(pend[k].cnt);
		memset(&pend[k], 0, sizeof(pend[k]));
	}
}

int slowname_open(struct slowname_state *st, const struct run_view *rv,
		  size_t nunits)
{
	st->nrun = rv->ph->nruns;
	st->nunits = nunits;
	st->run = calloc(st->nrun ? st->nrun : 1, sizeof(*st->run));
	st->count = calloc(nunits ? nunits : 1, sizeof(*st->count));
	return st->run && st->count ? 0 : -ENOMEM;
}

void slowname_phase_start(struct slowname_state *st, unsigned intervals)
{
	for (size_t k = 0; k < SLOWNAME_PENDING; k++)
		st->pend[k].used = 0;
	memset(st->count, 0, st->nunits * sizeof(*st->count));
	st->intervals = 0;
	if (intervals > st->nlost) {
		unsigned char *l = realloc(st->lost, intervals);

		if (!l) {
			/* Without it no row can be judged: none is. */
			st->nlost = 0;
			return;
		}
		st->lost = l;
		st->nlost = intervals;
	}
	memset(st->lost, 0, st->nlost);
}

struct slowname_pend *slowname_slot(struct slowname_state *st,
				    const struct run_view *rv,
				    const struct sink_slave_row *r)
{
	const struct proto_interval *iv = r->iv;
	struct slowname_pend *p;

	if (r->late || iv->seq < rv->ph->cur->ph.warmup_intervals ||
	    iv->seq >= st->nlost)
		return NULL;
	p = slowname_pend_of(st->pend, iv->seq);
	if (!p)
		st->lost[iv->seq] = 1;
	return p;
}

void slowname_lose(struct slowname_state *st, unsigned seq)
{
	if (seq < st->nlost)
		st->lost[seq] = 1;
}

struct slowname_pend *slowname_row(struct slowname_state *st,
				   const struct sink_row *r)
{
	unsigned seq = r->row->seq;
	struct slowname_pend *p = slowname_pend_take(st->pend, seq);

	if (!p || r->row->warmup || seq >= st->nlost || st->lost[seq])
		return NULL;
	return p;
}

void slowname_count(struct slowname_state *st, const unsigned *who,
		    const struct slowhost_out *out, size_t n)
{
	int any = 0;

	for (size_t k = 0; k < n; k++) {
		st->count[who[k]][0] += out[k].flagged;
		st->count[who[k]][1] += out[k].judged;
		any |= out[k].judged;
	}
	st->intervals += any;
}

struct slowname_run *slowname_run_start(struct slowname_state *st,
					const struct run_view *rv,
					const struct sink_run_end *e)
{
	size_t idx = (size_t)(e->r - rv->ph->runs);
	struct slowname_run *o;

	if (idx >= st->nrun || e->r->ph.kind == PLAN_FORMAT)
		return NULL;
	o = &st->run[idx];
	memset(o, 0, sizeof(*o));
	o->intervals = st->intervals;
	if (!e->totals)
		o->why = "the run did not end well";
	return o;
}

void slowname_close(struct slowname_state *st)
{
	slowname_pend_free(st->pend);
	free(st->run);
	free(st->count);
	free(st->lost);
	memset(st, 0, sizeof(*st));
}

/* How slow: the largest of its ratios (its share's inverse). */
static double slowness(const struct slowhost_out *o)
{
	double s = fmax(o->p99_ratio, o->median_ratio);

	if (o->ios_flag)
		s = fmax(s, o->share_ratio > 0 ? 1 / o->share_ratio : INFINITY);
	return s;
}

static int slower_first(const void *a, const void *b)
{
	double x = slowness(&((const struct slowname_unit *)a)->o);
	double y = slowness(&((const struct slowname_unit *)b)->o);

	return (x < y) - (x > y);
}

/* Keep u among o's SLOWNAME_LIST slowest (u is flagged). */
static void keep(struct slowname_run *o, const struct slowname_unit *u)
{
	unsigned at = o->nlist, least = 0;

	if (o->nlist == SLOWNAME_LIST) {
		for (unsigned j = 1; j < o->nlist; j++)
			if (slowness(&o->list[j].o) <
			    slowness(&o->list[least].o))
				least = j;
		if (slowness(&u->o) <= slowness(&o->list[least].o))
			return;
		at = least;
	} else {
		o->nlist++;
	}
	o->list[at] = *u;
}

void slowname_verdict(const struct slowname_state *st, struct slowname_run *o,
		      const unsigned *who, const struct slowhost_out *out,
		      size_t n)
{
	for (size_t k = 0; k < n; k++) {
		struct slowname_unit u = { .who = who[k], .o = out[k] };

		o->units += u.o.judged;
		if (!u.o.flagged)
			continue;
		o->nflagged++;
		u.flagged = st->count[u.who][0];
		u.judged = st->count[u.who][1];
		keep(o, &u);
	}
	qsort(o->list, o->nlist, sizeof(o->list[0]), slower_first);
}

/* p as the console says it. */
static void fmt_p(char *buf, size_t len, double p)
{
	if (p < 0.001)
		snprintf(buf, len, "p<0.001");
	else
		snprintf(buf, len, "p=%.3f", p);
}

/* What flagged u, in words: "p99 2.70x the others, ... (p<0.001)". */
static void describe(char *buf, size_t len, const struct slowname_unit *u)
{
	char p[32];
	int n = 0;

	fmt_p(p, sizeof(p), slowhost_p(&u->o));
	if (u->o.lat_flag)
		n = snprintf(buf, len, "p99 %.2fx the others, median %.2fx",
			     u->o.p99_ratio, u->o.median_ratio);
	if (u->o.ios_flag && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n,
			      "%sI/Os %.2fx its share", n ? ", " : "",
			      u->o.share_ratio);
	if (n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " (%s)", p);
}

void slowname_say(const struct run_view *rv, const struct slowname_kind *k,
		  const struct run_result *r, const struct slowname_run *o)
{
	FILE *f;

	if (rv->opt->vdbench_console || o->why)
		return;
	f = results_stdout(rv);
	if (!o->nflagged)
		fprintf(f,
			"Run %s: no slow %s among %u %s (Mann-Whitney U and I/O share, Holm alpha %g, effect %.1fx)\n",
			r->ph.name, k->one, o->units, k->peers, SLOWHOST_ALPHA,
			SLOWHOST_EFFECT);
	for (unsigned j = 0; j < o->nlist; j++) {
		char d[160];

		describe(d, sizeof(d), &o->list[j]);
		fprintf(f, "Run %s: slow %s %s: %s in %u of %u intervals\n",
			r->ph.name, k->one, k->name(rv, o->list[j].who), d,
			o->list[j].flagged, o->list[j].judged);
	}
	if (o->nlist < o->nflagged)
		fprintf(f, "Run %s: and %u more slow %s (summary.json)\n",
			r->ph.name, o->nflagged - o->nlist, k->ones);
	fprintf(f, "\n");
}

static void unit_json(const struct run_view *rv, const struct slowname_kind *k,
		      struct jsonw *w, const struct slowname_unit *u)
{
	const struct slowhost_out *o = &u->o;

	jsonw_object(w, NULL);
	jsonw_str(w, k->key, k->name(rv, u->who));
	jsonw_bool(w, "latency", o->lat_flag);
	jsonw_bool(w, "io_share", o->ios_flag);
	jsonw_dbl(w, "p", slowhost_p(o));
	jsonw_dbl(w, "p_latency", o->p_lat);
	jsonw_dbl(w, "p_io_share", o->p_ios);
	jsonw_dbl(w, "p99_ratio", o->p99_ratio);
	jsonw_dbl(w, "median_ratio", o->median_ratio);
	jsonw_dbl(w, "p99_ms", (double)o->p99_ns / 1e6);
	jsonw_dbl(w, "others_p99_ms", (double)o->rest_p99_ns / 1e6);
	jsonw_dbl(w, "median_ms", (double)o->median_ns / 1e6);
	jsonw_dbl(w, "others_median_ms", (double)o->rest_median_ns / 1e6);
	jsonw_dbl(w, "io_share_ratio", o->share_ratio);
	jsonw_u64(w, "intervals_flagged", u->flagged);
	jsonw_u64(w, "intervals_judged", u->judged);
	jsonw_end(w);
}

void slowname_json(const struct run_view *rv, const struct slowname_kind *k,
		   const struct slowname_state *st, const struct run_result *r,
		   struct jsonw *w)
{
	size_t idx = (size_t)(r - rv->ph->runs);
	const struct slowname_run *o;
	char key[32];

	if (idx >= st->nrun || r->ph.kind == PLAN_FORMAT)
		return;
	o = &st->run[idx];

	jsonw_object(w, k->json);
	jsonw_str(w, "method", k->method);
	jsonw_dbl(w, "alpha", SLOWHOST_ALPHA);
	jsonw_dbl(w, "effect_ratio", SLOWHOST_EFFECT);
	jsonw_u64(w, "min_ios", SLOWHOST_MIN_IOS);
	jsonw_u64(w, "intervals_judged", o->intervals);
	if (o->why) {
		jsonw_str(w, "not_judged", o->why);
		jsonw_end(w);
		return;
	}
	snprintf(key, sizeof(key), "%s_judged", k->peers);
	jsonw_u64(w, key, o->units);
	snprintf(key, sizeof(key), "%s_flagged", k->peers);
	jsonw_u64(w, key, o->nflagged);
	jsonw_array(w, k->ones);
	for (unsigned j = 0; j < o->nlist; j++)
		unit_json(rv, k, w, &o->list[j]);
	jsonw_end(w);
	jsonw_end(w);
}

void slowname_txt(const struct run_view *rv, const struct slowname_kind *k,
		  const struct slowname_state *st, FILE *f)
{
	int any = 0;

	for (size_t i = 0; i < st->nrun; i++) {
		const struct run_result *r = &rv->ph->runs[i];
		const struct slowname_run *o = &st->run[i];

		if (!r->done || r->ph.kind == PLAN_FORMAT)
			continue;
		if (!any++)
			fprintf(f,
				"slow %s (Mann-Whitney U of latency and I/O share against the other %s, Holm alpha %g, effect >= %.1fx)\n",
				k->ones, k->peers, SLOWHOST_ALPHA,
				SLOWHOST_EFFECT);
		if (o->why) {
			fprintf(f, "  %s: not judged: %s\n", r->ph.name,
				o->why);
			continue;
		}
		if (!o->nflagged)
			fprintf(f, "  %s: none of %u %s\n", r->ph.name,
				o->units, k->peers);
		for (unsigned j = 0; j < o->nlist; j++) {
			char d[160];

			describe(d, sizeof(d), &o->list[j]);
			fprintf(f, "  %s: %s: %s in %u of %u intervals\n",
				r->ph.name, k->name(rv, o->list[j].who), d,
				o->list[j].flagged, o->list[j].judged);
		}
		if (o->nlist < o->nflagged)
			fprintf(f, "  %s: and %u more\n", r->ph.name,
				o->nflagged - o->nlist);
	}
	if (any)
		fprintf(f, "\n");
}
