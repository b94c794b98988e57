/*
 * The recovery figures of a failure-and-rebuild event (see recovery.h and
 * docs/DESIGN.md "Recovery figures"): a baseline from the intervals before
 * the event, the worst interval after it, when it degraded, when it
 * recovered, how long the rebuild took and how many I/Os the cluster did
 * not do meanwhile. A pure function of the interval series, so that the
 * figures a user reads are exactly the ones tests/test_recovery.c checks.
 */
#include "master/events/recovery.h"

#include <errno.h>
#include <math.h>

/* A figure that is not computed. */
#define REC_NONE (-1.0)

/*
 * Slack on interval boundaries, in intervals: 0.3 s / 0.1 s is 2.9999...
 * in doubles, and an event at 0.3 s must start in interval 3, not 2.
 */
#define REC_EPS 1e-9

/*
 * The largest value taken for a rate, a latency or a time: no cluster does
 * 10^15 IOPS, and the bound keeps every sum and product below finite.
 */
#define REC_MAX 1e15

static bool rec_finite(double x)
{
	return isfinite(x) && fabs(x) <= REC_MAX;
}

void recovery_defaults(struct rec_params *p)
{
	p->baseline_s = 60;
	p->degrade_frac = 0.90;
	p->recover_iops_tol = 0.10;
	p->recover_p99_tol = 0.20;
	p->recover_n = 10;
}

/* Interval index of time t, rounded down or up, clamped to [0, n]. */
static size_t rec_index(double t, double interval_s, size_t n, bool up)
{
	double x = t / interval_s;

	x = up ? ceil(x - REC_EPS) : floor(x + REC_EPS);
	if (x <= 0)
		return 0;
	return x >= (double)n ? n : (size_t)x;
}

static bool rec_params_ok(const struct rec_params *p)
{
	return rec_finite(p->baseline_s) && p->baseline_s > 0 &&
	       isfinite(p->degrade_frac) && p->degrade_frac > 0 &&
	       p->degrade_frac <= 1 && isfinite(p->recover_iops_tol) &&
	       p->recover_iops_tol >= 0 && p->recover_iops_tol <= 1 &&
	       rec_finite(p->recover_p99_tol) && p->recover_p99_tol >= 0 &&
	       p->recover_n >= 1;
}

/* Times below zero mean "none"; NaN and infinity mean a bug upstream. */
static bool rec_event_ok(const struct rec_event *ev, size_t n,
			 double interval_s)
{
	if (!rec_finite(ev->start_s) || !rec_finite(ev->end_s) ||
	    !rec_finite(ev->prev_end_s) || !rec_finite(ev->next_start_s))
		return false;
	if (ev->start_s < 0 || ev->start_s / interval_s >= (double)n)
		return false;
	if (ev->end_s >= 0 && ev->end_s < ev->start_s)
		return false;
	if (ev->nloss && !ev->loss)
		return false;
	for (size_t i = 0; i < ev->nloss; i++) {
		const struct rec_loss *l = &ev->loss[i];

		if (!l->iops || !rec_finite(l->lost_s) ||
		    !rec_finite(l->back_s) || l->lost_s < 0 ||
		    (l->back_s >= 0 && l->back_s < l->lost_s))
			return false;
		for (size_t k = 0; k < n; k++)
			if (!rec_finite(l->iops[k]))
				return false;
	}
	return ev->next_start_s < 0 || ev->next_start_s >= ev->start_s;
}

static bool rec_points_ok(const struct rec_point *pts, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		if (!pts[k].ops_known)
			continue;
		if (!rec_finite(pts[k].iops) || pts[k].iops < 0 ||
		    !rec_finite(pts[k].p99_us))
			return false;
	}
	return true;
}

/* A latency was measured: some I/O completed and the slaves sent it. */
static bool rec_has_p99(const struct rec_point *pt)
{
	return pt->iops > 0 && pt->p99_us >= 0;
}

/* What the lost slaves did in interval k (their rows; none is 0). */
static double rec_lost_iops(const struct rec_event *ev, size_t k)
{
	double sum = 0;

	for (size_t i = 0; i < ev->nloss; i++)
		if (ev->loss[i].iops[k] > 0)
			sum += ev->loss[i].iops[k];
	return sum;
}

/* The survivors' IOPS of interval k: the cluster's minus the lost ones'. */
static double rec_survivors(const struct rec_point *pts,
			    const struct rec_event *ev, size_t k)
{
	return fmax(0, pts[k].iops - rec_lost_iops(ev, k));
}

/*
 * Mean IOPS and p99 of the known intervals [from, to), and the survivors'
 * mean IOPS. A baseline with no I/O at all is none: nothing can be said
 * to degrade from zero.
 */
static bool rec_baseline(const struct rec_point *pts,
			 const struct rec_event *ev, size_t from, size_t to,
			 struct rec_figures *f)
{
	double iops = 0, p99 = 0, surv = 0;
	unsigned n = 0, np99 = 0;

	for (size_t k = from; k < to; k++) {
		if (!pts[k].ops_known)
			continue;
		iops += pts[k].iops;
		surv += rec_survivors(pts, ev, k);
		n++;
		if (rec_has_p99(&pts[k])) {
			p99 += pts[k].p99_us;
			np99++;
		}
	}
	if (!n || !(iops > 0))
		return false;
	f->baseline_n = n;
	f->baseline_iops = iops / n;
	f->baseline_survivors_iops = surv / n;
	f->baseline_p99_us = np99 ? p99 / np99 : REC_NONE;
	return true;
}

/* Lowest IOPS and highest p99 of the span; the earliest on a tie. */
static void rec_worst(const struct rec_point *pts, size_t from, size_t to,
		      double interval_s, struct rec_figures *f)
{
	for (size_t k = from; k < to; k++) {
		const struct rec_point *pt = &pts[k];

		if (!pt->ops_known)
			continue;
		if (f->worst_iops < 0 || pt->iops < f->worst_iops) {
			f->worst_iops = pt->iops;
			f->worst_iops_at_s = (double)k * interval_s;
		}
		if (rec_has_p99(pt) && pt->p99_us > f->worst_p99_us) {
			f->worst_p99_us = pt->p99_us;
			f->worst_p99_at_s = (double)k * interval_s;
		}
	}
}

enum rec_verdict { REC_BAD, REC_GOOD, REC_UNKNOWN };

/*
 * Whether an interval counts towards recovery. Its IOPS alone can make it
 * bad; a good IOPS with no latency to compare stays unknown, as an interval
 * without data does.
 */
static enum rec_verdict rec_judge(const struct rec_point *pt, double iops,
				  double base, bool above_ok,
				  const struct rec_figures *f,
				  const struct rec_params *p)
{
	if (!pt->ops_known)
		return REC_UNKNOWN;
	if (iops < base - p->recover_iops_tol * base ||
	    (!above_ok && iops > base + p->recover_iops_tol * base))
		return REC_BAD;
	if (f->baseline_p99_us < 0)
		return REC_GOOD;
	if (!rec_has_p99(pt))
		return REC_UNKNOWN;
	if (pt->p99_us > (1 + p->recover_p99_tol) * f->baseline_p99_us)
		return REC_BAD;
	return REC_GOOD;
}

/* The index of the first degraded interval of [from, to), or @to. */
static size_t rec_degraded(const struct rec_point *pts, size_t from, size_t to,
			   double floor_iops)
{
	size_t k = from;

	while (k < to && !(pts[k].ops_known && pts[k].iops < floor_iops))
		k++;
	return k;
}

/*
 * The start of the first of recover_n good intervals in [kd, to), judged
 * on the whole cluster or on the survivors, relative to start_s; -1 when
 * there is none. The survivors may do more than their share (at max rate
 * they take over the work of the slaves that went): no upper bound there.
 * The cluster's run starts after kd, its first degraded interval; the
 * survivors' at kd (when they never dipped, they recovered at once).
 */
static double rec_recover(const struct rec_point *pts,
			  const struct rec_event *ev, size_t kd, size_t to,
			  double interval_s, bool survivors,
			  const struct rec_params *p,
			  const struct rec_figures *f)
{
	double base = survivors ? f->baseline_survivors_iops : f->baseline_iops;
	size_t run_from = 0;
	unsigned run = 0;

	for (size_t k = survivors ? kd : kd + 1; k < to; k++) {
		double iops = survivors ? rec_survivors(pts, ev, k) :
					  pts[k].iops;
		enum rec_verdict v = rec_judge(&pts[k], iops, base, survivors,
					       f, p);

		if (v == REC_UNKNOWN)
			continue;
		if (v == REC_BAD) {
			run = 0;
			continue;
		}
		if (!run++)
			run_from = k;
		/* The survivors' run may start in the interval the event
		   started in, before the event: 0, as time to degrade. */
		if (run == p->recover_n)
			return fmax(0, (double)run_from * interval_s -
					       ev->start_s);
	}
	return REC_NONE;
}

/*
 * I/O lost and delayed over [from, to): the backlog walk of recovery.h,
 * against the baseline, or the rate asked (planned > 0) when the baseline
 * measured more: at a fixed rate, a few baseline intervals above it are
 * noise the cluster never owed (seen: a 2037.5 baseline at 2000 IO/s made
 * 280 I/Os "lost" in a link pull that lost none).
 */
static void rec_backlog(const struct rec_point *pts, size_t from, size_t to,
			double interval_s, double planned,
			struct rec_figures *f)
{
	double b = 0, deficit = 0;
	double owed = planned > 0 ? fmin(f->baseline_iops, planned) :
				    f->baseline_iops;

	for (size_t k = from; k < to; k++) {
		double d;

		if (!pts[k].ops_known)
			continue;
		d = (owed - pts[k].iops) * interval_s;
		deficit += fmax(0, d);
		b = fmax(0, b + d);
	}
	f->io_lost = b;
	f->io_delayed = fmax(0, deficit - b);
}

/*
 * What one slave did not do over [from, to) against its own mean over the
 * known intervals [base_from, from) (pts says which are known).
 */
static double rec_absent(const struct rec_point *pts, const double *iops,
			 size_t base_from, size_t from, size_t to,
			 double interval_s)
{
	double base = 0, sum = 0;
	unsigned nb = 0;

	for (size_t k = base_from; k < from; k++) {
		if (!pts[k].ops_known)
			continue;
		base += fmax(0, iops[k]);
		nb++;
	}
	base = nb ? base / nb : 0;
	for (size_t k = from; k < to; k++)
		if (pts[k].ops_known)
			sum += fmax(0, base - fmax(0, iops[k])) * interval_s;
	return sum;
}

/*
 * What the lost slaves did not do from the event's start to the window's
 * end. From the start, not from when the master marked it lost: that
 * comes a --slave-timeout after the slave fell silent, and the I/Os it did
 * not do meanwhile are the loss's too. Not to when it came back either: a
 * slave back may take part only from the next phase; once it does its
 * share again, its rows add nothing.
 */
static double rec_lost_expected(const struct rec_point *pts,
				const struct rec_event *ev, size_t base_from,
				size_t first, size_t last, double interval_s)
{
	double sum = 0;

	for (size_t i = 0; i < ev->nloss; i++)
		sum += rec_absent(pts, ev->loss[i].iops, base_from, first, last,
				  interval_s);
	return sum;
}

/*
 * Judged on the whole cluster: no loss, or rejoin=yes. Not on a return
 * alone: a slave back under its name may take part only from the next
 * phase, and its rows say what it did.
 */
static bool rec_judged_on_cluster(const struct rec_event *ev)
{
	return !ev->nloss || ev->expect_back;
}

int recovery_compute(const struct rec_point *pts, size_t n, double interval_s,
		     const struct rec_event *ev, const struct rec_params *p,
		     struct rec_figures *out)
{
	struct rec_figures f = {
		.status = REC_NOT_DEGRADED,
		.baseline_iops = REC_NONE,
		.baseline_p99_us = REC_NONE,
		.worst_iops = REC_NONE,
		.worst_iops_at_s = REC_NONE,
		.worst_p99_us = REC_NONE,
		.worst_p99_at_s = REC_NONE,
		.time_to_degrade_s = REC_NONE,
		.time_to_recover_s = REC_NONE,
		.time_to_recover_survivors_s = REC_NONE,
		.baseline_survivors_iops = REC_NONE,
		.rebuild_s = REC_NONE,
		.io_lost = REC_NONE,
		.io_delayed = REC_NONE,
		.io_lost_expected = REC_NONE,
	};
	size_t first, last, base_from, kd;
	double window, ttr;

	if (!pts || !ev || !p || !out || !rec_finite(interval_s) ||
	    interval_s <= 0 || !rec_params_ok(p) ||
	    !rec_event_ok(ev, n, interval_s) || !rec_points_ok(pts, n))
		return -EINVAL;

	/* The window: intervals ending in (start, end]. */
	first = rec_index(ev->start_s, interval_s, n, false);
	last = ev->next_start_s < 0 ?
		       n :
		       rec_index(ev->next_start_s, interval_s, n, false);
	if (last < first)
		last = first;
	f.window_end_s = (double)last * interval_s;
	if (ev->end_s >= 0)
		f.rebuild_s = ev->end_s - ev->start_s;
	rec_worst(pts, first, last, interval_s, &f);

	/*
	 * The baseline: intervals wholly inside [start - baseline_s, start),
	 * cut at the series start. One reaching back into the previous event
	 * would measure that event's recovery, not the steady state, and a
	 * shorter window just after it would be a baseline made up to have
	 * one: the figures that need a baseline stay -1 instead.
	 */
	window = fmax(0, ev->start_s - p->baseline_s);
	if (ev->prev_end_s >= 0 && window < ev->prev_end_s) {
		f.status = REC_OVERLAP;
		goto out;
	}
	base_from = rec_index(window, interval_s, n, true);
	if (base_from > first || !rec_baseline(pts, ev, base_from, first, &f)) {
		f.status = REC_NO_BASELINE;
		goto out;
	}

	rec_backlog(pts, first, last, interval_s, ev->planned_iops, &f);
	f.io_lost_expected = fmin(f.io_lost,
				  rec_lost_expected(pts, ev, base_from, first,
						    last, interval_s));
	kd = rec_degraded(pts, first, last, p->degrade_frac * f.baseline_iops);
	if (kd == last)
		goto out;
	f.time_to_degrade_s = fmax(0, (double)kd * interval_s - ev->start_s);
	f.time_to_recover_s = rec_recover(pts, ev, kd, last, interval_s, false,
					  p, &f);
	f.time_to_recover_survivors_s = ev->nloss ?
						rec_recover(pts, ev, kd, last,
							    interval_s, true, p,
							    &f) :
						f.time_to_recover_s;
	ttr = rec_judged_on_cluster(ev) ? f.time_to_recover_s :
					  f.time_to_recover_survivors_s;
	f.status = ttr < 0 ? REC_NOT_RECOVERED : REC_RECOVERED;
out:
	*out = f;
	return 0;
}

int recovery_absent_io(const struct rec_point *pts, size_t n, double interval_s,
		       const struct rec_event *ev, const struct rec_params *p,
		       double *out)
{
	size_t first, base_from;
	double sum = 0;

	if (!pts || !ev || !p || !out || !rec_finite(interval_s) ||
	    interval_s <= 0 || !rec_params_ok(p) ||
	    !rec_event_ok(ev, n, interval_s) || !rec_points_ok(pts, n))
		return -EINVAL;
	first = rec_index(ev->start_s, interval_s, n, false);
	base_from = rec_index(fmax(0, ev->start_s - p->baseline_s), interval_s,
			      n, true);
	if (base_from > first)
		base_from = first;
	for (size_t i = 0; i < ev->nloss; i++)
		sum += rec_absent(pts, ev->loss[i].iops, base_from, first, n,
				  interval_s);
	*out = sum;
	return 0;
}
