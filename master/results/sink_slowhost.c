/*
 * The slow host, named (slowhost.h's test): per measured interval on the
 * slaves' interval histograms, per run on their phase histograms (the
 * ones their percentiles in summary.json come from). The console names
 * a run's slow hosts after its totals with how many of its intervals
 * flagged them, summary.json has them in each run ("slow_hosts") and
 * summary.txt in a block.
 *
 * A slave's interval comes before its cluster row, slaves' intervals of
 * neighbouring rows interleave, and its histograms do not outlive the
 * hook: the sink copies each measured one into the pending slot of its
 * row (SLOWHOST_PENDING rows at most, each an arena reused from row to
 * row) and judges the slot when the row is written. A late interval is
 * not in its row and is left out, as the row leaves it out; a row whose
 * interval could not be kept is not judged rather than judged without it.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "common/jsonw.h"
#include "master/run/master_int.h"
#include "master/results/sink.h"
#include "master/results/slowhost.h"

/* Rows whose slaves' intervals are kept while they wait for their row. */
#define SLOWHOST_PENDING 16
/* Slaves named per run (the worst first; the rest are counted). */
#define SLOWHOST_LIST 8

/* One slave's interval in a pending slot: offsets into its arena. */
struct sh_entry {
	unsigned slave;
	struct hist_sparse meta[SLOWHOST_DIRS]; /* idx, cnt unset */
	size_t off[SLOWHOST_DIRS];
};

struct sh_pend {
	int used;
	unsigned seq;
	struct sh_entry *e;
	size_t ne, ecap;
	uint32_t *idx;
	uint64_t *cnt;
	size_t len, cap;
};

struct sh_host {
	unsigned slave;
	struct slowhost_out o;
	unsigned flagged, judged; /* its measured intervals */
};

struct sh_run {
	const char *why;          /* not judged: why (static), else NULL */
	unsigned hosts, nflagged; /* slaves judged, of them flagged */
	unsigned intervals;       /* measured intervals judged */
	unsigned nlist;
	struct sh_host list[SLOWHOST_LIST];
};

struct sh {
	struct sh_run *run; /* per rv->ph->runs index */
	size_t nrun;
	struct slowhost_work *w;
	struct slowhost_in *in;   /* MAX_SLAVES */
	struct slowhost_out *out; /* MAX_SLAVES */
	struct hist_sparse *sp;   /* MAX_SLAVES x SLOWHOST_DIRS */
	unsigned *who;            /* MAX_SLAVES: in[k] is slave who[k] */
	unsigned (*count)[2];     /* MAX_SLAVES: intervals flagged, judged */
	unsigned intervals;       /* the run's measured intervals judged */
	unsigned char *lost;      /* per row of the phase: not kept whole */
	unsigned nlost;
	struct sh_pend pend[SLOWHOST_PENDING];
};

static int sh_open(const struct run_view *rv, void *priv)
{
	struct sh *S = priv;

	S->nrun = rv->ph->nruns;
	S->run = calloc(S->nrun ? S->nrun : 1, sizeof(*S->run));
	S->w = slowhost_work_new(MAX_SLAVES);
	S->in = calloc(MAX_SLAVES, sizeof(*S->in));
	S->out = calloc(MAX_SLAVES, sizeof(*S->out));
	S->sp = calloc(MAX_SLAVES * SLOWHOST_DIRS, sizeof(*S->sp));
	S->who = calloc(MAX_SLAVES, sizeof(*S->who));
	S->count = calloc(MAX_SLAVES, sizeof(*S->count));
	return S->run && S->w && S->in && S->out && S->sp && S->who &&
			       S->count ?
		       0 :
		       -ENOMEM;
}

static void sh_phase_start(const struct run_view *rv, void *priv,
			   const struct sink_phase *p)
{
	struct sh *S = priv;
	unsigned n = rv->ph->cur->ph.intervals;

	(void)p;
	for (size_t k = 0; k < SLOWHOST_PENDING; k++)
		S->pend[k].used = 0;
	memset(S->count, 0, MAX_SLAVES * sizeof(*S->count));
	S->intervals = 0;
	if (n > S->nlost) {
		unsigned char *l = realloc(S->lost, n);

		if (!l) {
			/* Without it no row can be judged: none is. */
			S->nlost = 0;
			return;
		}
		S->lost = l;
		S->nlost = n;
	}
	memset(S->lost, 0, S->nlost);
}

/* Room in slot p for one more slave and its buckets: 0 or -ENOMEM. */
static int pend_room(struct sh_pend *p, size_t buckets)
{
	if (p->ne == p->ecap) {
		size_t c = p->ecap ? 2 * p->ecap : 16;
		struct sh_entry *e = realloc(p->e, c * sizeof(*e));

		if (!e)
			return -ENOMEM;
		p->e = e;
		p->ecap = c;
	}
	/* Made at the first interval, even an empty one: sh_row() points
	   into it. */
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

/* The pending slot of row seq, a free one for it, or NULL. */
static struct sh_pend *pend_of(struct sh *S, unsigned seq)
{
	struct sh_pend *free_slot = NULL;

	for (size_t k = 0; k < SLOWHOST_PENDING; k++) {
		struct sh_pend *p = &S->pend[k];

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

static void sh_slave_row(const struct run_view *rv, void *priv,
			 const struct sink_slave_row *r)
{
	struct sh *S = priv;
	const struct proto_interval *iv = r->iv;
	size_t i = (size_t)(r->s - rv->roster->slaves), buckets = 0;
	struct sh_pend *p;
	struct sh_entry *e;

	if (r->late || iv->seq < rv->ph->cur->ph.warmup_intervals ||
	    iv->seq >= S->nlost || i >= MAX_SLAVES)
		return;
	for (int d = 0; d < SLOWHOST_DIRS; d++)
		buckets += iv->lat[d].n;
	p = pend_of(S, iv->seq);
	if (!p || pend_room(p, buckets) < 0) {
		S->lost[iv->seq] = 1;
		return;
	}
	e = &p->e[p->ne++];
	e->slave = (unsigned)i;
	for (int d = 0; d < SLOWHOST_DIRS; d++) {
		const struct hist_sparse *h = &iv->lat[d];

		e->meta[d] = *h;
		e->meta[d].idx = NULL;
		e->meta[d].cnt = NULL;
		e->off[d] = p->len;
		if (!h->n)
			continue; /* an empty direction has no arrays */
		memcpy(p->idx + p->len, h->idx, h->n * sizeof(*h->idx));
		memcpy(p->cnt + p->len, h->cnt, h->n * sizeof(*h->cnt));
		p->len += h->n;
	}
}

/*
 * A slave's expected share: its rate when every slave compared has one,
 * else its I/Os in flight (threads); 0 when it was to do no I/O.
 */
static void weigh(const struct run_view *rv, struct sh *S, size_t n)
{
	int rates = 1;

	for (size_t k = 0; k < n; k++)
		rates &= rv->roster->slaves[S->who[k]].pplan.iorate > 0;
	for (size_t k = 0; k < n; k++) {
		const struct plausible_plan *pl =
			&rv->roster->slaves[S->who[k]].pplan;

		S->in[k].weight = rates ? pl->iorate : (double)pl->slots;
	}
}

/* Judge the slaves in S->in[0..n-1] (S->who says which): flagged. */
static int judge(const struct run_view *rv, struct sh *S, size_t n)
{
	weigh(rv, S, n);
	return slowhost_judge(S->w, S->in, n, SLOWHOST_ALPHA, S->out);
}

static void sh_row(const struct run_view *rv, void *priv,
		   const struct sink_row *r)
{
	struct sh *S = priv;
	unsigned seq = r->row->seq;
	struct sh_pend *p = NULL;
	int any = 0;

	for (size_t k = 0; k < SLOWHOST_PENDING; k++)
		if (S->pend[k].used && S->pend[k].seq == seq)
			p = &S->pend[k];
	if (!p)
		return;
	p->used = 0;
	if (r->row->warmup || seq >= S->nlost || S->lost[seq])
		return;
	for (size_t k = 0; k < p->ne; k++) {
		struct hist_sparse *sp = &S->sp[k * SLOWHOST_DIRS];

		for (int d = 0; d < SLOWHOST_DIRS; d++) {
			sp[d] = p->e[k].meta[d];
			sp[d].idx = p->idx + p->e[k].off[d];
			sp[d].cnt = p->cnt + p->e[k].off[d];
		}
		S->in[k].lat = sp;
		S->in[k].ndir = SLOWHOST_DIRS;
		S->who[k] = p->e[k].slave;
	}
	if (judge(rv, S, p->ne) < 0)
		return;
	for (size_t k = 0; k < p->ne; k++) {
		S->count[S->who[k]][0] += S->out[k].flagged;
		S->count[S->who[k]][1] += S->out[k].judged;
		any |= S->out[k].judged;
	}
	S->intervals += any;
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
	double x = slowness(&((const struct sh_host *)a)->o);
	double y = slowness(&((const struct sh_host *)b)->o);

	return (x < y) - (x > y);
}

/* Keep the SLOWHOST_LIST slowest of the flagged. */
static void keep_slowest(struct sh_run *o, const struct sh_host *h)
{
	unsigned at = o->nlist, least = 0;

	if (o->nlist == SLOWHOST_LIST) {
		for (unsigned j = 1; j < o->nlist; j++)
			if (slowness(&o->list[j].o) <
			    slowness(&o->list[least].o))
				least = j;
		if (slowness(&h->o) <= slowness(&o->list[least].o))
			return;
		at = least;
	} else {
		o->nlist++;
	}
	o->list[at] = *h;
}

/* The run's test, on the slaves' phase histograms. */
static void judge_run(const struct run_view *rv, struct sh *S,
		      const struct run_result *r, struct sh_run *o)
{
	size_t n = 0;

	for (unsigned i = 0; i < r->nslave && i < MAX_SLAVES; i++) {
		/* Without its percentiles its histograms are not its run. */
		if (!r->slave[i].ran || r->slave[i].no_pct)
			continue;
		S->in[n].lat = rv->roster->slaves[i].end_lat;
		S->in[n].ndir = SLOWHOST_DIRS;
		S->who[n++] = i;
	}
	if (n < 2) {
		o->why = "fewer than two slaves with their percentiles";
		return;
	}
	if (judge(rv, S, n) < 0) {
		o->why = "the test refused its input";
		return;
	}
	for (size_t k = 0; k < n; k++) {
		struct sh_host h = { .slave = S->who[k], .o = S->out[k] };

		o->hosts += h.o.judged;
		if (!h.o.flagged)
			continue;
		o->nflagged++;
		h.flagged = S->count[h.slave][0];
		h.judged = S->count[h.slave][1];
		keep_slowest(o, &h);
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

/* What flagged h, in words: "p99 2.70x the others, ... (p<0.001)". */
static void describe(char *buf, size_t len, const struct sh_host *h)
{
	char p[32];
	int n = 0;

	fmt_p(p, sizeof(p), slowhost_p(&h->o));
	if (h->o.lat_flag)
		n = snprintf(buf, len, "p99 %.2fx the others, median %.2fx",
			     h->o.p99_ratio, h->o.median_ratio);
	if (h->o.ios_flag && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n,
			      "%sI/Os %.2fx its share", n ? ", " : "",
			      h->o.share_ratio);
	if (n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " (%s)", p);
}

static void say(const struct run_view *rv, const struct run_result *r,
		const struct sh_run *o)
{
	FILE *f;

	if (rv->opt->vdbench_console || o->why)
		return;
	f = results_stdout(rv);
	if (!o->nflagged)
		fprintf(f,
			"Run %s: no slow host among %u slaves (Mann-Whitney U and I/O share, Holm alpha %g, effect %.1fx)\n",
			r->ph.name, o->hosts, SLOWHOST_ALPHA, SLOWHOST_EFFECT);
	for (unsigned j = 0; j < o->nlist; j++) {
		char d[160];

		describe(d, sizeof(d), &o->list[j]);
		fprintf(f, "Run %s: slow host %s: %s in %u of %u intervals\n",
			r->ph.name,
			rv->roster->slaves[o->list[j].slave].hello.name, d,
			o->list[j].flagged, o->list[j].judged);
	}
	if (o->nlist < o->nflagged)
		fprintf(f, "Run %s: and %u more slow hosts (summary.json)\n",
			r->ph.name, o->nflagged - o->nlist);
	fprintf(f, "\n");
}

static void sh_run_end(const struct run_view *rv, void *priv,
		       const struct sink_run_end *e)
{
	struct sh *S = priv;
	size_t idx = (size_t)(e->r - rv->ph->runs);
	struct sh_run *o;

	if (idx >= S->nrun || e->r->ph.kind == PLAN_FORMAT)
		return;
	o = &S->run[idx];
	memset(o, 0, sizeof(*o));
	o->intervals = S->intervals;
	if (!e->totals)
		o->why = "the run did not end well";
	else
		judge_run(rv, S, e->r, o);
	if (e->totals)
		say(rv, e->r, o);
}

static void host_json(const struct run_view *rv, struct jsonw *w,
		      const struct sh_host *h)
{
	const struct slowhost_out *o = &h->o;

	jsonw_object(w, NULL);
	jsonw_str(w, "slave", rv->roster->slaves[h->slave].hello.name);
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
	jsonw_u64(w, "intervals_flagged", h->flagged);
	jsonw_u64(w, "intervals_judged", h->judged);
	jsonw_end(w);
}

static void sh_run_json(const struct run_view *rv, void *priv,
			const struct run_result *r, struct jsonw *w)
{
	struct sh *S = priv;
	size_t idx = (size_t)(r - rv->ph->runs);
	const struct sh_run *o;

	if (idx >= S->nrun || r->ph.kind == PLAN_FORMAT)
		return;
	o = &S->run[idx];
	jsonw_object(w, "slow_hosts");
	jsonw_str(w, "method",
		  "one-sided Mann-Whitney U of each slave's latency against the other slaves' (ties per bucket, normal approximation) and binomial test of its I/O share; Holm over the slaves");
	jsonw_dbl(w, "alpha", SLOWHOST_ALPHA);
	jsonw_dbl(w, "effect_ratio", SLOWHOST_EFFECT);
	jsonw_u64(w, "min_ios", SLOWHOST_MIN_IOS);
	jsonw_u64(w, "intervals_judged", o->intervals);
	if (o->why) {
		jsonw_str(w, "not_judged", o->why);
		jsonw_end(w);
		return;
	}
	jsonw_u64(w, "slaves_judged", o->hosts);
	jsonw_u64(w, "slaves_flagged", o->nflagged);
	jsonw_array(w, "hosts");
	for (unsigned j = 0; j < o->nlist; j++)
		host_json(rv, w, &o->list[j]);
	jsonw_end(w);
	jsonw_end(w);
}

static void sh_summary_txt(const struct run_view *rv, void *priv, FILE *f)
{
	struct sh *S = priv;
	int any = 0;

	for (size_t i = 0; i < S->nrun; i++) {
		const struct run_result *r = &rv->ph->runs[i];
		const struct sh_run *o = &S->run[i];

		if (!r->done || r->ph.kind == PLAN_FORMAT)
			continue;
		if (!any++)
			fprintf(f,
				"slow hosts (Mann-Whitney U of latency and I/O share against the other slaves, Holm alpha %g, effect >= %.1fx)\n",
				SLOWHOST_ALPHA, SLOWHOST_EFFECT);
		if (o->why) {
			fprintf(f, "  %s: not judged: %s\n", r->ph.name,
				o->why);
			continue;
		}
		if (!o->nflagged)
			fprintf(f, "  %s: none of %u slaves\n", r->ph.name,
				o->hosts);
		for (unsigned j = 0; j < o->nlist; j++) {
			char d[160];

			describe(d, sizeof(d), &o->list[j]);
			fprintf(f, "  %s: %s: %s in %u of %u intervals\n",
				r->ph.name,
				rv->roster->slaves[o->list[j].slave].hello.name,
				d, o->list[j].flagged, o->list[j].judged);
		}
		if (o->nlist < o->nflagged)
			fprintf(f, "  %s: and %u more\n", r->ph.name,
				o->nflagged - o->nlist);
	}
	if (any)
		fprintf(f, "\n");
}

static void sh_close(const struct run_view *rv, void *priv)
{
	struct sh *S = priv;

	(void)rv;
	for (size_t k = 0; k < SLOWHOST_PENDING; k++) {
		free(S->pend[k].e);
		free(S->pend[k].idx);
		free(S->pend[k].cnt);
	}
	slowhost_work_free(S->w);
	free(S->run);
	free(S->in);
	free(S->out);
	free(S->sp);
	free(S->who);
	free(S->count);
	free(S->lost);
	memset(S, 0, sizeof(*S));
}

const struct sink_ops sink_slowhost = {
	.name = "slow hosts (console, summary.json, summary.txt)",
	.priv_size = sizeof(struct sh),
	.open = sh_open,
	.phase_start = sh_phase_start,
	.row = sh_row,
	.slave_row = sh_slave_row,
	.run_end = sh_run_end,
	.run_json = sh_run_json,
	.summary_txt = sh_summary_txt,
	.close = sh_close,
};
