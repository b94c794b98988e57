/*
 * Open-loop rate scheduler: intended issue times spaced by exponential,
 * fixed or uniform gaps, drawn with the workload's xoshiro generator and a libm-free
 * logarithm so that a draw costs a few nanoseconds. See rate.h.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "proto/proto.h"
#include "slave/rate.h"

/*
 * Natural logarithm of x in (0, 1], good to ~1e-9 relative: x = m * 2^e
 * with m in [sqrt(1/2), sqrt(2)), ln m = 2 atanh(s) with s = (m-1)/(m+1),
 * |s| < 0.172, from its series to s^11. No libm, no table, no branch on the
 * value beyond the mantissa fold.
 */
static double fast_ln(double x)
{
	const double ln2 = 0.69314718055994530942;
	uint64_t bits;
	double m, s, s2;
	int e;

	memcpy(&bits, &x, sizeof(bits));
	e = (int)((bits >> 52) & 0x7ff) - 1023;
	bits = (bits & 0x000fffffffffffffull) | 0x3ff0000000000000ull;
	memcpy(&m, &bits, sizeof(m));
	if (m > 1.41421356237309504880) {
		m *= 0.5;
		e++;
	}
	s = (m - 1) / (m + 1);
	s2 = s * s;
	return e * ln2 +
	       2 * s *
		       (1 + s2 * (1.0 / 3 +
				  s2 * (1.0 / 5 +
					s2 * (1.0 / 7 +
					      s2 * (1.0 / 9 + s2 / 11)))));
}

/* Exponential with mean 1: -ln u, u uniform in (0, 1] so never infinite. */
static double exp_draw(struct workload_rng *g)
{
	double u = (double)((workload_rng_next(g) >> 11) + 1) *
		   (1.0 / 9007199254740992.0);

	return -fast_ln(u);
}

/* Uniform in [0, 2): mean 1, like the exponential draw. */
static double uniform_draw(struct workload_rng *g)
{
	return (double)(workload_rng_next(g) >> 11) *
	       (2.0 / 9007199254740992.0);
}

int rate_init(struct rate *r, double iops, enum rate_dist d, uint64_t start_ns,
	      uint64_t seed)
{
	if (!(iops >= 0) || isinf(iops) ||
	    (d != RATE_EXPONENTIAL && d != RATE_FIXED && d != RATE_UNIFORM))
		return -EINVAL;
	memset(r, 0, sizeof(*r));
	r->start = start_ns;
	r->gap = iops > 0 ? 1e9 / iops : 0;
	r->dist = d;
	workload_rng_seed(&r->rng, seed);
	return 0;
}

uint64_t rate_next(struct rate *r)
{
	uint64_t t = rate_peek(r);

	if (rate_unlimited(r))
		return 0;
	r->n++;
	if (r->recorded)
		return t;
	/*
	 * Fixed spacing is computed from the count, not summed, so it does
	 * not drift; exponential gaps are summed in a double, exact to well
	 * below a nanosecond for days.
	 */
	if (r->dist == RATE_FIXED)
		r->elapsed = (double)r->n * r->gap;
	else if (r->dist == RATE_UNIFORM)
		r->elapsed += uniform_draw(&r->rng) * r->gap;
	else
		r->elapsed += exp_draw(&r->rng) * r->gap;
	return t;
}

void rate_recorded(struct rate *r, const struct trace_rec *rec, uint64_t n)
{
	r->recorded = 1;
	r->rec = rec;
	r->nrec = n;
	r->n = 0;
}

int rate_take(struct rate *r, uint64_t now, uint64_t *start)
{
	if (rate_unlimited(r)) {
		*start = now;
		return 1;
	}
	if (rate_peek(r) > now)
		return 0;
	*start = rate_next(r);
	return 1;
}

uint64_t rate_wait_ns(const struct rate *r, uint64_t now)
{
	uint64_t t = rate_peek(r);

	return t > now ? t - now : 0;
}

enum rate_dist rate_dist_of(uint32_t wire)
{
	switch (wire) {
	case PROTO_DIST_FIXED:
		return RATE_FIXED;
	case PROTO_DIST_UNIFORM:
		return RATE_UNIFORM;
	default:
		return RATE_EXPONENTIAL;
	}
}
