/*
 * The end of a warmup=steady warmup, at run time: the cluster's I/Os per
 * warmup row and every slave's per sample are kept, judged after each
 * warmup row (settle.h, pure), and once all are steady the measured
 * window is placed from the next interval no slave has sent yet: the
 * merge labels and counts from there, the console says when and why, and
 * the conductor tells the slaves with a measure message (it moves their
 * latency histograms' start and their phase's end; this file does not
 * send, so that link.c, which feeds it, and it are not a circle). At the maximum nothing
 * moves: the phase was planned as its maximum warmup and then the
 * measured time, so slaves measure from there without being told.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "master/run/master_int.h"
#include "master/results/settle.h"
#include "master/results/sink.h"

int warmup_phase_start(struct master *m, struct run_result *r)
{
	struct warmup_state *w = &m->ph.warm;

	warmup_phase_end(m);
	if (!r->ph.warmup_steady || !r->ph.warmup_intervals)
		return 0;
	w->max = r->ph.warmup_intervals;
	r->warm.max = w->max;
	w->nseries = 1 + m->roster.nslaves;
	w->ops = calloc((size_t)w->nseries * w->max, sizeof(*w->ops));
	w->series = calloc(w->nseries, sizeof(*w->series));
	if (!w->ops || !w->series) {
		warmup_phase_end(m);
		return -ENOMEM;
	}
	return 0;
}

void warmup_sample(struct master *m, unsigned slave, unsigned seq, uint64_t ops)
{
	struct warmup_state *w = &m->ph.warm;

	if (w->ops && !w->decided && seq < w->max && 1 + slave < w->nseries)
		w->ops[(size_t)(1 + slave) * w->max + seq] += (double)ops;
}

/* Place the window from `from` on: the merge, the slaves' plans, the run. */
static int move_window(struct master *m, struct run_result *r, unsigned from)
{
	unsigned measured = r->ph.intervals - r->ph.warmup_intervals;
	int ret;

	ret = merge_measure(m->ph.merge, from, from + measured);
	if (ret < 0)
		return ret;
	for (unsigned i = 0; i < m->roster.nslaves; i++)
		m->roster.slaves[i].pplan.intervals = from + measured;
	r->ph.warmup_intervals = from;
	r->ph.intervals = from + measured;
	return 0;
}

static void say(struct master *m, const struct run_result *r,
		const struct settle_verdict *v)
{
	FILE *f;

	if (m->opt->vdbench_console)
		return;
	f = results_stdout(&m->view);
	if (v->state == SETTLE_STEADY)
		fprintf(f,
			"Run %s: steady after %u intervals of warmup (data %.1f%%, slope %.1f%%); measuring %u intervals from interval %u\n",
			r->ph.name, r->warm.steady_at, v->cluster.data_pct,
			v->cluster.slope_pct,
			r->ph.intervals - r->ph.warmup_intervals,
			r->ph.warmup_intervals + 1);
	else
		fprintf(f,
			"Run %s: NOT STEADY after the maximum warmup of %u intervals (%s farthest: data %.1f%%, slope %.1f%%); measuring %u intervals anyway: the run is marked not steady\n",
			r->ph.name, r->ph.warmup_intervals,
			r->warm.worst[0] ? r->warm.worst : "the cluster",
			v->worst_v.data_pct, v->worst_v.slope_pct,
			r->ph.intervals - r->ph.warmup_intervals);
	fflush(f);
}

int warmup_row(struct master *m, const struct merge_row *row)
{
	struct warmup_state *w = &m->ph.warm;
	struct run_result *r = m->ph.cur;
	struct settle_verdict v;
	unsigned n = row->seq + 1;
	int ret = 0, moved = 0;

	if (!w->ops || w->decided || !r || row->seq >= w->max)
		return 0;
	w->ops[row->seq] = (double)(row->stats->ops[0] + row->stats->ops[1]);
	w->series[0] = w->ops;
	for (unsigned i = 0; i + 1 < w->nseries; i++) {
		const struct slave_rec *s = &m->roster.slaves[i];

		/* A slave gone (or never in) has no say; a silent one does. */
		w->series[1 + i] = s->in_phase && s->state == SLAVE_JOINED ?
					   w->ops + (size_t)(1 + i) * w->max :
					   NULL;
	}
	settle_judge(w->series, w->nseries, n, r->ph.warmup_round, w->max, &v);
	if (v.state == SETTLE_WAIT)
		return 0;
	w->decided = 1;
	r->warm.decided = 1;
	r->warm.data_pct = v.cluster.data_pct;
	r->warm.slope_pct = v.cluster.slope_pct;
	if (v.state == SETTLE_STEADY) {
		unsigned from = settle_from(n, merge_reported_rows(m->ph.merge),
					    w->max);

		r->warm.steady_at = n;
		if (from < w->max)
			ret = move_window(m, r, from);
		moved = from < w->max && ret == 0;
		if (ret < 0)
			log_warn("run %s: the measured window stays after the maximum warmup: %s",
				 r->ph.name, strerror(-ret));
	} else {
		r->warm.reached_max = 1;
		if (v.worst > 0)
			snprintf(r->warm.worst, sizeof(r->warm.worst), "%s",
				 m->roster.slaves[v.worst - 1].hello.name);
	}
	say(m, r, &v);
	return moved;
}

void warmup_phase_end(struct master *m)
{
	struct warmup_state *w = &m->ph.warm;

	free(w->ops);
	free(w->series);
	memset(w, 0, sizeof(*w));
}
