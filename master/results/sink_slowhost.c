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
 * row (SLOWNAME_PENDING rows at most, each an arena reused from row to
 * row) and judges the slot when the row is written. A late interval is
 * not in its row and is left out, as the row leaves it out; a row whose
 * interval could not be kept is not judged rather than judged without it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "master/run/master_int.h"
#include "master/results/sink.h"
#include "master/results/slowhost.h"
#include "master/results/slowname.h"

struct sh {
	struct slowname_state st; /* a unit a slave */
	struct slowhost_work *w;
	struct slowhost_in *in;   /* MAX_SLAVES */
	struct slowhost_out *out; /* MAX_SLAVES */
	struct hist_sparse *sp;   /* MAX_SLAVES x SLOWHOST_DIRS */
	unsigned *who;            /* MAX_SLAVES: in[k] is slave who[k] */
};

static const char *slave_name(const struct run_view *rv, unsigned who)
{
	return rv->roster->slaves[who].hello.name;
}

static const struct slowname_kind hosts = {
	.one = "host",
	.ones = "hosts",
	.peers = "slaves",
	.json = "slow_hosts",
	.key = "slave",
	.method =
		"one-sided Mann-Whitney U of each slave's latency against the other slaves' (ties per bucket, normal approximation) and binomial test of its I/O share; Holm over the slaves",
	.name = slave_name,
};

static int sh_open(const struct run_view *rv, void *priv)
{
	struct sh *S = priv;

	S->w = slowhost_work_new(MAX_SLAVES);
	S->in = calloc(MAX_SLAVES, sizeof(*S->in));
	S->out = calloc(MAX_SLAVES, sizeof(*S->out));
	S->sp = calloc(MAX_SLAVES * SLOWHOST_DIRS, sizeof(*S->sp));
	S->who = calloc(MAX_SLAVES, sizeof(*S->who));
	if (!S->w || !S->in || !S->out || !S->sp || !S->who)
		return -ENOMEM;
	return slowname_open(&S->st, rv, MAX_SLAVES);
}

static void sh_phase_start(const struct run_view *rv, void *priv,
			   const struct sink_phase *p)
{
	struct sh *S = priv;

	(void)p;
	slowname_phase_start(&S->st, rv->ph->cur->ph.intervals);
}

static void sh_slave_row(const struct run_view *rv, void *priv,
			 const struct sink_slave_row *r)
{
	struct sh *S = priv;
	size_t i = (size_t)(r->s - rv->roster->slaves);
	struct slowname_pend *p;

	if (i >= MAX_SLAVES)
		return;
	p = slowname_slot(&S->st, rv, r);
	if (p && slowname_pend_add(p, (unsigned)i, (unsigned)i, 0, r->iv->lat,
				   SLOWHOST_DIRS) < 0)
		slowname_lose(&S->st, r->iv->seq);
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
	struct slowname_pend *p = slowname_row(&S->st, r);

	if (!p)
		return;
	for (size_t k = 0; k < p->ne; k++) {
		slowname_pend_hists(p, k, &S->sp[k * SLOWHOST_DIRS]);
		S->in[k].lat = &S->sp[k * SLOWHOST_DIRS];
		S->in[k].nlat = p->e[k].nlat;
		S->who[k] = p->e[k].slave;
	}
	if (judge(rv, S, p->ne) >= 0)
		slowname_count(&S->st, S->who, S->out, p->ne);
}

/* The run's test, on the slaves' phase histograms. */
static void judge_run(const struct run_view *rv, struct sh *S,
		      const struct run_result *r, struct slowname_run *o)
{
	size_t n = 0;

	for (unsigned i = 0; i < r->nslave && i < MAX_SLAVES; i++) {
		/* Without its percentiles its histograms are not its run. */
		if (!r->slave[i].ran || r->slave[i].no_pct)
			continue;
		S->in[n].lat = rv->roster->slaves[i].end_lat;
		S->in[n].nlat = SLOWHOST_DIRS;
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
	slowname_verdict(&S->st, o, S->who, S->out, n);
}

static void sh_run_end(const struct run_view *rv, void *priv,
		       const struct sink_run_end *e)
{
	struct sh *S = priv;
	struct slowname_run *o = slowname_run_start(&S->st, rv, e);

	if (!o || !e->totals)
		return;
	judge_run(rv, S, e->r, o);
	slowname_say(rv, &hosts, e->r, o);
}

static void sh_run_json(const struct run_view *rv, void *priv,
			const struct run_result *r, struct jsonw *w)
{
	struct sh *S = priv;

	slowname_json(rv, &hosts, &S->st, r, w);
}

static void sh_summary_txt(const struct run_view *rv, void *priv, FILE *f)
{
	struct sh *S = priv;

	slowname_txt(rv, &hosts, &S->st, f);
}

static void sh_close(const struct run_view *rv, void *priv)
{
	struct sh *S = priv;

	(void)rv;
	slowname_close(&S->st);
	slowhost_work_free(S->w);
	free(S->in);
	free(S->out);
	free(S->sp);
	free(S->who);
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
