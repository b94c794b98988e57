/*
 * The slow sd, named (slowsd.h's test): per measured interval on the
 * sds' parts that the slaves' intervals carry (each target's histogram,
 * interval.sl), per run on each sd's sum of those intervals. The console
 * names a run's slow sds after its totals with how many of its intervals
 * flagged them, summary.json has them in each run ("slow_sds", beside
 * "slow_hosts") and summary.txt in a block, as sink_slowhost.c does for
 * the slaves (slowname.h, shared).
 *
 * A slave's interval comes before its cluster row and its histograms do
 * not outlive the hook: each measured one's parts are copied into the
 * pending slot of its row and judged when the row is written; a late
 * interval is left out, as the row leaves it out, and a row whose
 * parts could not all be kept is not judged. A part's expected share is
 * its target's threads on that slave, at iorate=max only: at a fixed
 * rate a slave's free slots take the schedule's I/Os in no fixed order
 * across its targets, so only latency is compared. The run's sums are
 * dense histograms, one per sd that had a part (at most SLOWSD_RUN_SDS).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "master/params/params.h"
#include "master/run/master_int.h"
#include "master/results/sink.h"
#include "master/results/slowname.h"
#include "master/results/slowsd.h"

/* The most sds a run's test sums (a dense histogram each, 38 KiB). */
#define SLOWSD_RUN_SDS 256

struct sds {
	struct slowname_state st; /* a unit an sd of the parameter file */
	size_t nsd;
	struct slowsd_work *w;
	struct slowsd_part *parts; /* cap of them, and their histograms */
	struct hist_sparse *sp;
	size_t cap;
	unsigned *sd;             /* nsd: the k-th judged is sd[k] */
	struct slowhost_out *out; /* nsd */
	unsigned unsplit; /* measured intervals of a slave without parts */
	/* The run's sums per sd (NULL: no part yet) and their threads. */
	struct hist **tot;
	double *tot_thr;
	unsigned ntot;
	const char *tot_why; /* the sums could not be kept: why */
};

static const char *sd_name(const struct run_view *rv, unsigned who)
{
	return rv->params->sd[who].name;
}

static const struct slowname_kind sds_kind = {
	.one = "sd",
	.ones = "sds",
	.peers = "sds",
	.json = "slow_sds",
	.key = "sd",
	.method =
		"one-sided Mann-Whitney U of each sd's latency (its targets' histograms on every slave) against the other sds' (ties per bucket, normal approximation) and, at iorate=max, binomial test of its I/O share by threads; Holm over the sds",
	.name = sd_name,
};

static int sds_open(const struct run_view *rv, void *priv)
{
	struct sds *S = priv;
	size_t n;

	S->nsd = rv->params->nsd;
	n = S->nsd ? S->nsd : 1;
	S->w = slowsd_work_new(S->nsd);
	S->sd = calloc(n, sizeof(*S->sd));
	S->out = calloc(n, sizeof(*S->out));
	S->tot = calloc(n, sizeof(*S->tot));
	S->tot_thr = calloc(n, sizeof(*S->tot_thr));
	if (!S->w || !S->sd || !S->out || !S->tot || !S->tot_thr)
		return -ENOMEM;
	return slowname_open(&S->st, rv, S->nsd);
}

static void sds_phase_start(const struct run_view *rv, void *priv,
			    const struct sink_phase *p)
{
	struct sds *S = priv;

	(void)p;
	slowname_phase_start(&S->st, rv->ph->cur->ph.intervals);
	S->unsplit = 0;
	S->tot_why = NULL;
	for (size_t k = 0; k < S->nsd; k++) {
		if (S->tot[k])
			hist_reset(S->tot[k]);
		S->tot_thr[k] = 0;
	}
}

static void sds_slave_row(const struct run_view *rv, void *priv,
			  const struct sink_slave_row *r)
{
	struct sds *S = priv;
	const struct proto_interval *iv = r->iv;
	const struct slave_rec *s = r->s;
	struct slowname_pend *p = slowname_slot(&S->st, rv, r);

	if (!p)
		return;
	S->unsplit += !iv->nsds;
	for (uint32_t j = 0; j < iv->nsds; j++) {
		unsigned t = iv->sds[j].target;
		double thr;

		/* plausible.c held t to its plan's targets. */
		if (t >= s->nplan_sd || s->plan_sd[t] >= S->nsd) {
			slowname_lose(&S->st, iv->seq);
			return;
		}
		thr = s->pplan.iorate > 0 ? 0 : (double)s->plan_thr[t];
		if (slowname_pend_add(p, s->plan_sd[t],
				      (unsigned)(s - rv->roster->slaves), thr,
				      &iv->sds[j].lat, 1) < 0) {
			slowname_lose(&S->st, iv->seq);
			return;
		}
	}
}
/* Room for n parts: 0 or -ENOMEM. */
static int parts_room(struct sds *S, size_t n)
{
	struct slowsd_part *pa;
	struct hist_sparse *sp;

	if (n <= S->cap)
		return 0;
	pa = realloc(S->parts, n * sizeof(*pa));
	if (pa)
		S->parts = pa;
	sp = pa ? realloc(S->sp, n * sizeof(*sp)) : NULL;
	if (!sp)
		return -ENOMEM;
	S->sp = sp;
	S->cap = n;
	return 0;
}

/* Add the row's parts to the run's sums (their checks were made). */
static void sum_run(struct sds *S, size_t n)
{
	for (size_t k = 0; k < n && !S->tot_why; k++) {
		unsigned sd = S->parts[k].sd;

		if (!S->tot[sd]) {
			if (S->ntot == SLOWSD_RUN_SDS) {
				S->tot_why = "more sds than the run's test sums";
				return;
			}
			S->tot[sd] = malloc(sizeof(*S->tot[sd]));
			if (!S->tot[sd]) {
				S->tot_why = "out of memory";
				return;
			}
			hist_init(S->tot[sd]);
			S->ntot++;
		}
		if (hist_add_sparse(S->tot[sd], S->parts[k].lat) < 0)
			S->tot_why = "a sum would wrap";
		S->tot_thr[sd] += S->parts[k].threads;
	}
}

static void sds_row(const struct run_view *rv, void *priv,
		    const struct sink_row *r)
{
	struct sds *S = priv;
	struct slowname_pend *p = slowname_row(&S->st, r);
	size_t nsd = 0;

	(void)rv;
	if (!p || parts_room(S, p->ne) < 0)
		return;
	for (size_t k = 0; k < p->ne; k++) {
		slowname_pend_hists(p, k, &S->sp[k]);
		S->parts[k] = (struct slowsd_part){ .sd = p->e[k].who,
						    .threads = p->e[k].weight,
						    .lat = &S->sp[k] };
	}
	sum_run(S, p->ne);
	if (slowsd_judge(S->w, S->parts, p->ne, SLOWHOST_ALPHA, S->sd, S->out,
			 &nsd) >= 0)
		slowname_count(&S->st, S->sd, S->out, nsd);
}

/* The run's test on each sd's sum of its measured intervals. */
static void judge_run(struct sds *S, struct slowname_run *o)
{
	size_t n = 0, nsd = 0;

	if (S->tot_why) {
		o->why = S->tot_why;
		return;
	}
	if (parts_room(S, S->nsd) < 0) {
		o->why = "out of memory";
		return;
	}
	for (size_t sd = 0; sd < S->nsd; sd++) {
		if (!S->tot[sd] || !S->tot[sd]->count)
			continue;
		if (hist_to_sparse(S->tot[sd], &S->sp[n]) < 0) {
			o->why = "out of memory";
			goto out;
		}
		S->parts[n] = (struct slowsd_part){ .sd = (unsigned)sd,
						    .threads = S->tot_thr[sd],
						    .lat = &S->sp[n] };
		n++;
	}
	if (n < 2) {
		o->why = S->unsplit && !S->ntot ?
				 "no slave split its latency per sd" :
				 "fewer than two sds with I/O";
		goto out;
	}
	if (slowsd_judge(S->w, S->parts, n, SLOWHOST_ALPHA, S->sd, S->out,
			 &nsd) < 0) {
		o->why = "the test refused its input";
		goto out;
	}
	slowname_verdict(&S->st, o, S->sd, S->out, nsd);
out:
	for (size_t k = 0; k < n; k++)
		hist_sparse_free(&S->sp[k]);
}

static void sds_run_end(const struct run_view *rv, void *priv,
			const struct sink_run_end *e)
{
	struct sds *S = priv;
	struct slowname_run *o = slowname_run_start(&S->st, rv, e);

	if (!o || !e->totals)
		return;
	judge_run(S, o);
	slowname_say(rv, &sds_kind, e->r, o);
}

static void sds_run_json(const struct run_view *rv, void *priv,
			 const struct run_result *r, struct jsonw *w)
{
	struct sds *S = priv;

	slowname_json(rv, &sds_kind, &S->st, r, w);
}

static void sds_summary_txt(const struct run_view *rv, void *priv, FILE *f)
{
	struct sds *S = priv;

	slowname_txt(rv, &sds_kind, &S->st, f);
}

static void sds_close(const struct run_view *rv, void *priv)
{
	struct sds *S = priv;

	(void)rv;
	slowname_close(&S->st);
	slowsd_work_free(S->w);
	for (size_t k = 0; S->tot && k < S->nsd; k++)
		free(S->tot[k]);
	free(S->tot);
	free(S->tot_thr);
	free(S->parts);
	free(S->sp);
	free(S->sd);
	free(S->out);
	memset(S, 0, sizeof(*S));
}

const struct sink_ops sink_slowsd = {
	.name = "slow sds (console, summary.json, summary.txt)",
	.priv_size = sizeof(struct sds),
	.open = sds_open,
	.phase_start = sds_phase_start,
	.row = sds_row,
	.slave_row = sds_slave_row,
	.run_end = sds_run_end,
	.run_json = sds_run_json,
	.summary_txt = sds_summary_txt,
	.close = sds_close,
};
