/*
 * The knee of an iorate=curve (knee.h): Kneedle's largest distance below
 * the chord on normalized axes, with the guards knee.h lists. Two passes
 * over the points and no allocation: a curve has tens of points.
 */
#include <math.h>
#include "master/results/knee.h"

static int usable(const struct knee_point *p)
{
	return isfinite(p->iops) && p->iops > 0 && isfinite(p->resp_ms) &&
	       p->resp_ms > 0;
}

const char *knee_status_why(enum knee_status s)
{
	switch (s) {
	case KNEE_FOUND:
		return "";
	case KNEE_TOO_FEW:
		return "too few points (3 needed)";
	case KNEE_NO_RISE:
		return "IOPS did not rise over the curve";
	case KNEE_FLAT:
		return "response time stayed within 25% over the curve";
	case KNEE_STRAIGHT:
		return "response time rises no faster than a straight line";
	case KNEE_NOT_STEEP:
		return "beyond its bend response time rises no faster than IOPS";
	}
	return "?";
}

/* What the first pass learns: the ends, the ranges, the counts. */
struct span {
	size_t first, last;
	double x0, xmax, ylo, yhi;
};

static void measure(const struct knee_point *p, size_t n,
		    struct knee_result *out, struct span *s)
{
	double x = 0;

	for (size_t i = 0; i < n; i++) {
		if (!usable(&p[i]))
			continue;
		if (!out->used++) {
			s->first = i;
			s->x0 = p[i].iops;
			s->ylo = s->yhi = p[i].resp_ms;
		} else if (p[i].iops <= x) {
			out->flatiops++;
		}
		s->last = i;
		x = fmax(x, p[i].iops);
		s->ylo = fmin(s->ylo, p[i].resp_ms);
		s->yhi = fmax(s->yhi, p[i].resp_ms);
	}
	s->xmax = x;
	out->resp_lo = s->ylo;
	out->resp_hi = s->yhi;
}

int knee_find(const struct knee_point *p, size_t n, struct knee_result *out)
{
	struct span s = { 0 };
	double x = 0, xk = 0, y0, y1, best = -INFINITY;
	size_t at = 0, top = 0;

	*out = (struct knee_result){ .status = KNEE_TOO_FEW };
	measure(p, n, out, &s);
	if (out->used < KNEE_MIN_POINTS)
		return 0;
	out->status = KNEE_NO_RISE;
	if (!(s.xmax > s.x0))
		return 0;
	out->status = KNEE_FLAT;
	if (s.yhi <= s.ylo * (1 + KNEE_FLAT_PCT / 100))
		return 0;
	/* The chord's ends on the normalized response-time axis. */
	y0 = (p[s.first].resp_ms - s.ylo) / (s.yhi - s.ylo);
	y1 = (p[s.last].resp_ms - s.ylo) / (s.yhi - s.ylo);
	for (size_t i = 0; i < n; i++) {
		double xn, d;

		if (!usable(&p[i]))
			continue;
		x = fmax(x, p[i].iops);
		/* Of the points at the most IOPS only the first: saturation. */
		if (!(x < s.xmax) && top++)
			continue;
		if (i == s.first || i == s.last)
			continue;
		xn = (x - s.x0) / (s.xmax - s.x0);
		d = y0 + (y1 - y0) * xn -
		    (p[i].resp_ms - s.ylo) / (s.yhi - s.ylo);
		/* Strictly more: of equal bends the lighter load is the knee. */
		if (d > best) {
			best = d;
			at = i;
			xk = x;
		}
	}
	out->status = KNEE_STRAIGHT;
	if (!(best >= KNEE_MIN_BEND))
		return 0;
	out->at = at;
	out->bend = best;
	out->resp_growth = p[s.last].resp_ms / p[at].resp_ms;
	out->at_max = !(xk < s.xmax);
	/* At the most IOPS: beyond it response time alone rises. */
	out->rise = !out->at_max ? (out->resp_growth - 1) / (s.xmax / xk - 1) :
		    out->resp_growth > 1 ? INFINITY :
					   0;
	out->status = KNEE_NOT_STEEP;
	if (!(out->rise > 1))
		return 0;
	out->status = KNEE_FOUND;
	return 1;
}
