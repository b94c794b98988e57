/*
 * The recovery figures of a failure-and-rebuild event (see recovery.h and
 * docs/DESIGN.md "Recovery figures"): a baseline from the intervals before
 * the event, the worst interval after it, when it degraded, when it
 * recovered, how long the rebuild took and how many I/Os the cluster did
 * not do meanwhile. A pure function of the interval series, so that the
 * figures a user reads are exactly the ones tests/test_recovery.c checks.
 */
#include "master/recovery.h"

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

/*
 * Mean IOPS and p99 of the known intervals [from, to). A baseline with no
 * I/O at all is none: nothing can be said to degrade from zero.
 */
static bool rec_baseline(const struct rec_point *pts, size_t from, size_t to,
			 struct rec_figures *f)
{
	double iops = 0, p99 = 0;
	unsigned n = 0, np99 = 0;

	for (size_t k = from; k < to; k++) {
		if (!pts[k].ops_known)
			continue;
		iops += pts[k].iops;
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
static enum rec_verdict rec_judge(const struct rec_point *pt,
				  const struct rec_figures *f,
				  const struct rec_params *p)
{
	double base = f->baseline_iops;

	if (!pt->ops_known)
		return REC_UNKNOWN;
	if (fabs(pt->iops - base) > p->recover_iops_tol * base)
		return REC_BAD;
	if (f->baseline_p99_us < 0)
		return REC_GOOD;
	if (!rec_has_p99(pt))
		return REC_UNKNOWN;
	if (pt->p99_us > (1 + p->recover_p99_tol) * f->baseline_p99_us)
		return REC_BAD;
	return REC_GOOD;
}

/*
 * Time to degrade and to recover over the span [from, to). Returns the
 * index where the I/O lost stops counting: the first interval of the
 * recovery, or @to.
 */
static size_t rec_recovery(const struct rec_point *pts, size_t from, size_t to,
			   double interval_s, double start_s,
			   const struct rec_params *p, struct rec_figures *f)
{
	double floor_iops = p->degrade_frac * f->baseline_iops;
	size_t k = from, run_from = 0;
	unsigned run = 0;

	while (k < to && !(pts[k].ops_known && pts[k].iops < floor_iops))
		k++;
	if (k == to)
		return to;
	f->time_to_degrade_s = fmax(0, (double)k * interval_s - start_s);
	f->status = REC_NOT_RECOVERED;
	for (k++; k < to; k++) {
		enum rec_verdict v = rec_judge(&pts[k], f, p);

		if (v == REC_UNKNOWN)
			continue;
		if (v == REC_BAD) {
			run = 0;
			continue;
		}
		if (!run++)
			run_from = k;
		if (run == p->recover_n) {
			f->status = REC_OK;
			f->time_to_recover_s = (double)run_from * interval_s -
					       start_s;
			return run_from;
		}
	}
	return to;
}

int recovery_compute(const struct rec_point *pts, size_t n, double interval_s,
		     const struct rec_event *ev, const struct rec_params *p,
		     struct rec_figures *out)
{
	struct rec_figures f = {
		.status = REC_OK,
		.baseline_iops = REC_NONE,
		.baseline_p99_us = REC_NONE,
		.worst_iops = REC_NONE,
		.worst_iops_at_s = REC_NONE,
		.worst_p99_us = REC_NONE,
		.worst_p99_at_s = REC_NONE,
		.time_to_degrade_s = REC_NONE,
		.time_to_recover_s = REC_NONE,
		.rebuild_s = REC_NONE,
		.io_lost = REC_NONE,
	};
	size_t first, last, base_from, lost_to;
	double window;

	if (!pts || !ev || !p || !out || !rec_finite(interval_s) ||
	    interval_s <= 0 || !rec_params_ok(p) ||
	    !rec_event_ok(ev, n, interval_s) || !rec_points_ok(pts, n))
		return -EINVAL;

	/* The span: intervals ending in (start, next start]. */
	first = rec_index(ev->start_s, interval_s, n, false);
	last = ev->next_start_s < 0 ?
		       n :
		       rec_index(ev->next_start_s, interval_s, n, false);
	if (last < first)
		last = first;
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
	if (base_from > first || !rec_baseline(pts, base_from, first, &f)) {
		f.status = REC_NO_BASELINE;
		goto out;
	}

	lost_to = rec_recovery(pts, first, last, interval_s, ev->start_s, p,
			       &f);
	f.io_lost = 0;
	if (f.time_to_degrade_s < 0)
		goto out;
	for (size_t k = first; k < lost_to; k++)
		if (pts[k].ops_known && pts[k].iops < f.baseline_iops)
			f.io_lost += (f.baseline_iops - pts[k].iops) *
				     interval_s;
out:
	*out = f;
	return 0;
}
