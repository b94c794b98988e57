/*
 * What the run gives the events and what they make of it: the measured
 * series of each run (cluster rows and every slave's rows, late ones
 * included), the losses an event expected and the rejoins that followed,
 * the intervals an event was active in, and each event's recovery figures
 * computed from them (recovery.c, pure). The event runner (events.c)
 * calls events_figures() at the end; the conductor and the roster feed
 * the rest through events.h.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "common/log.h"
#include "common/timeutil.h"
#include "proto/proto.h"
#include "master/events/events.h"
#include "master/events/events_int.h"
#include "master/run/master_int.h"

/* ---- the figures ---------------------------------------------------------- */

/* Seconds from the start of run r's measured series to t. */
static double series_s(const struct run_result *r, uint64_t t)
{
	uint64_t ms = r->start_at + r->ph.warmup_intervals * r->ph.interval_ns;

	return t >= ms ? (double)(t - ms) / 1e9 : -(double)(ms - t) / 1e9;
}

/*
 * Each interval's IOPS from every slave's row of it (late ones included):
 * the series the figures read. The cluster rows' p99 stand (a late row
 * brings I/Os, its latencies are in the run's histograms only).
 */
static void series_iops(const struct ev_series *S, double interval_s)
{
	for (size_t k = 0; k < S->n; k++)
		S->pts[k].iops = 0;
	for (size_t i = 0; i < S->nsmp; i++) {
		const struct ev_sample *x = &S->smp[i];

		if (x->seq >= S->n)
			continue;
		S->pts[x->seq].iops += (double)x->ops / interval_s;
		S->pts[x->seq].ops_known = true;
	}
}

/* Slave sl's IOPS per interval into iops[S->n], -1 where it sent none. */
static void slave_iops(const struct ev_series *S, unsigned sl,
		       double interval_s, double *iops)
{
	for (size_t k = 0; k < S->n; k++)
		iops[k] = -1;
	for (size_t i = 0; i < S->nsmp; i++) {
		const struct ev_sample *x = &S->smp[i];

		if (x->slave != sl || x->seq >= S->n)
			continue;
		iops[x->seq] = fmax(0, iops[x->seq]) +
			       (double)x->ops / interval_s;
	}
}

/* The event e restores (ends=), or NULL. */
static const struct ev_state *restores(const struct events *E,
				       const struct ev_state *e)
{
	return e->pe->ends >= 0 && (size_t)e->pe->ends < E->n ?
		       &E->ev[e->pe->ends] :
		       NULL;
}

/* The event that restores e (its ends= names e), or NULL. */
const struct ev_state *events_restored_by(const struct events *E,
					  const struct ev_state *e)
{
	for (size_t i = 0; i < E->n; i++)
		if (restores(E, &E->ev[i]) == e)
			return &E->ev[i];
	return NULL;
}

/* The window's bounds: the events of the same run before and after e. */
static void bounds(const struct events *E, const struct run_result *r,
		   const struct ev_state *e, struct rec_event *rev)
{
	const struct ev_state *by = events_restored_by(E, e);

	rev->prev_end_s = -1;
	rev->next_start_s = -1;
	for (size_t i = 0; i < E->n; i++) {
		const struct ev_state *o = &E->ev[i];
		double s;

		if (o == e || o->run != e->run || !o->start_real)
			continue;
		if (o->start_real <= e->start_real) {
			s = o->end_real ? series_s(r, o->end_real) :
					  rev->start_s;
			if (s > rev->prev_end_s)
				rev->prev_end_s = s;
		} else if (o != by) {
			/* Its restore is part of its story, not the next. */
			s = series_s(r, o->start_real);
			if (rev->next_start_s < 0 || s < rev->next_start_s)
				rev->next_start_s = s;
		}
	}
}

void events_figures(const struct run_view *rv, struct ev_state *e)
{
	struct events *E = rv->events;
	const struct run_result *r;
	const struct ev_series *S;
	struct rec_loss *loss = NULL;
	struct rec_params p;
	struct rec_event *rev = &e->rev;
	double *iops = NULL;

	if (e->run < 0 || !e->start_real || (size_t)e->run >= E->nseries ||
	    restores(E, e))
		return;
	r = &rv->ph->runs[e->run];
	S = &E->series[e->run];
	series_iops(S, r->ph.interval_s);
	rev->start_s = series_s(r, e->start_real);
	rev->end_s = e->status == EV_OK && e->pe->until[0] ?
			     series_s(r, e->end_real) :
			     -1;
	bounds(E, r, e, rev);
	if (e->nloss) {
		loss = calloc(e->nloss, sizeof(*loss));
		iops = calloc(e->nloss * (S->n ? S->n : 1), sizeof(*iops));
		if (!loss || !iops) {
			e->fig_ret = -ENOMEM;
			goto out;
		}
	}
	for (unsigned k = 0; k < e->nloss; k++) {
		const struct ev_loss *l = &e->loss[k];

		loss[k].iops = iops + k * S->n;
		slave_iops(S, l->slave, r->ph.interval_s, iops + k * S->n);
		loss[k].lost_s = fmax(0, series_s(r, l->lost_real));
		/* Back in this run: from the start of its first interval
		   back (midphase.c), not from when it registered again. */
		loss[k].back_s = l->rejoin_real && l->rejoin_run == e->run ?
					 fmax(loss[k].lost_s,
					      series_s(r, l->rejoin_real)) :
					 -1;
	}
	rev->loss = loss;
	rev->nloss = e->nloss;
	rev->expect_back = e->pe->rejoin;
	/* A file-system phase's fwdrate= counts each fwd's operations (a
	   read fwd's file reads), the series every operation (their opens,
	   closes and transfers): no cap in the series' unit. */
	rev->planned_iops = r->ph.iorate > 0 && !r->ph.fs ? r->ph.iorate : 0;
	recovery_defaults(&p);
	p.baseline_s = e->pe->baseline_s;
	p.degrade_frac = e->pe->degrade_pct / 100;
	p.recover_iops_tol = e->pe->recover_iops_pct / 100;
	p.recover_p99_tol = e->pe->recover_p99_pct / 100;
	p.recover_n = e->pe->recover_n;
	e->fig_ret = recovery_compute(S->pts, S->n, r->ph.interval_s, rev, &p,
				      &e->fig);
	if (recovery_absent_io(S->pts, S->n, r->ph.interval_s, rev, &p,
			       &e->absent_io) < 0)
		e->absent_io = -1;
out:
	/* Nothing of the losses' series outlives the computation. */
	rev->loss = NULL;
	free(loss);
	free(iops);
}

double events_loss_explains(const struct run_view *rv,
			    const struct run_result *r)
{
	struct events *E = rv->events;
	double ops = 0;

	for (size_t i = 0; E && i < E->n; i++) {
		struct ev_state *e = &E->ev[i];

		if (e->run < 0 || &rv->ph->runs[e->run] != r || !e->nloss)
			continue;
		e->absent_io = -1;
		events_figures(rv, e);
		if (e->absent_io > 0)
			ops += e->absent_io;
	}
	return ops;
}

/* ---- losses, rejoins and rows ------------------------------------------- */

const char *events_loss_expected(const struct run_view *rv, struct slave_rec *s)
{
	struct events *E = rv->events;

	if (!E || s->hd < 0)
		return NULL;
	for (size_t i = 0; i < E->n; i++) {
		struct ev_state *e = &E->ev[i];
		struct ev_loss *nl;

		if (!e->start_real || s->lost_real < e->start_real)
			continue;
		for (size_t k = 0; k < e->pe->nloss; k++) {
			if (e->pe->loss[k] != (unsigned)s->hd)
				continue;
			nl = realloc(e->loss, (e->nloss + 1) * sizeof(*nl));
			if (nl) {
				e->loss = nl;
				nl[e->nloss].slave =
					(unsigned)(s - rv->roster->slaves);
				nl[e->nloss].lost_real = s->lost_real;
				nl[e->nloss].back_real = 0;
				nl[e->nloss].rejoin_real = 0;
				nl[e->nloss].rejoin_run = -1;
				nl[e->nloss].rejoin_seq = 0;
				e->nloss++;
			}
			return e->pe->name;
		}
	}
	return NULL;
}

void events_back(const struct run_view *rv, struct slave_rec *s)
{
	struct events *E = rv->events;
	unsigned idx = (unsigned)(s - rv->roster->slaves);

	for (size_t i = 0; E && i < E->n; i++) {
		struct ev_state *e = &E->ev[i];

		for (unsigned k = 0; k < e->nloss; k++) {
			struct ev_loss *l = &e->loss[k];

			if (l->slave != idx || l->back_real)
				continue;
			l->back_real = s->back_real;
			log_info("slave %s is back, %.1f s after it was lost (event %s%s)",
				 s->hello.name,
				 l->back_real > l->lost_real ?
					 (double)(l->back_real - l->lost_real) /
						 1e9 :
					 0,
				 e->pe->name,
				 e->pe->rejoin ? " expected it back" :
						 " did not expect it back");
		}
	}
}

void events_sample(const struct run_view *rv, const struct slave_rec *s,
		   const struct proto_interval *iv)
{
	struct events *E = rv->events;
	struct ev_series *S;
	unsigned warm;

	if (!E || !rv->ph->cur ||
	    (size_t)(rv->ph->cur - rv->ph->runs) >= E->nseries)
		return;
	warm = rv->ph->cur->ph.warmup_intervals;
	if (iv->seq < warm)
		return;
	S = &E->series[rv->ph->cur - rv->ph->runs];
	if (S->nsmp == S->capsmp) {
		size_t cap = S->capsmp ? 2 * S->capsmp : 256;
		struct ev_sample *np = realloc(S->smp, cap * sizeof(*np));

		if (!np) {
			log_warn("out of memory: a row of slave %s is not in the recovery figures",
				 s->hello.name);
			return;
		}
		S->smp = np;
		S->capsmp = cap;
	}
	S->smp[S->nsmp].seq = iv->seq - warm;
	S->smp[S->nsmp].slave = (uint32_t)(s - rv->roster->slaves);
	/* A file-system phase's every operation: a getattr run does no
	   reads, and its damage is in its getattrs. */
	S->smp[S->nsmp].ops = plausible_ops(iv);
	S->nsmp++;
}

void events_rejoined(const struct run_view *rv, struct slave_rec *s,
		     uint64_t real, int run, unsigned seq)
{
	struct events *E = rv->events;
	unsigned idx = (unsigned)(s - rv->roster->slaves);

	for (size_t i = 0; E && i < E->n; i++)
		for (unsigned k = 0; k < E->ev[i].nloss; k++) {
			struct ev_loss *l = &E->ev[i].loss[k];

			if (l->slave != idx || !l->back_real || l->rejoin_real)
				continue;
			l->rejoin_real = real;
			l->rejoin_run = run;
			l->rejoin_seq = seq;
		}
}

void events_record_row(const struct run_view *rv, const struct merge_row *row,
		       double iops, double p99_ms)
{
	struct events *E = rv->events;
	struct ev_series *S;

	if (!E || !rv->ph->cur || row->warmup ||
	    (size_t)(rv->ph->cur - rv->ph->runs) >= E->nseries)
		return;
	S = &E->series[rv->ph->cur - rv->ph->runs];
	if (S->n == S->cap) {
		size_t cap = S->cap ? 2 * S->cap : 64;
		struct rec_point *np = realloc(S->pts, cap * sizeof(*np));

		if (np) {
			S->pts = np;
			S->cap = cap;
		}
	}
	if (S->n < S->cap) {
		S->pts[S->n].iops = iops;
		S->pts[S->n].p99_us = p99_ms * 1000.0;
		S->pts[S->n].ops_known = row->reported > 0;
		S->n++;
	}
}

void events_marks(const struct run_view *rv, uint64_t start_ns, uint64_t end_ns,
		  char sep, char *marks, size_t len)
{
	struct events *E = rv->events;
	size_t used = 0;

	if (len)
		marks[0] = '\0';
	if (!E || !len)
		return;
	for (size_t i = 0; i < E->n; i++) {
		const struct ev_state *e = &E->ev[i];
		int n;

		if (!e->start_real || e->start_real >= end_ns ||
		    (e->end_real && e->end_real < start_ns))
			continue;
		n = snprintf(marks + used, len - used, "%.*s%s", used ? 1 : 0,
			     &sep, e->pe->name);
		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
	}
}
