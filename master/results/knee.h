/*
 * The knee of an iorate=curve, pure: the point past which response time
 * rises faster than throughput. The method is Kneedle's (Satopaa et al.,
 * "Finding a Kneedle in a Haystack", 2011) without its smoothing: both
 * axes are normalized to [0, 1] (IOPS from the first point's to the
 * most any point reached, response time from its least to its most), and
 * the knee is the point that lies farthest below the straight line (the
 * chord) from the first point to the last. On a convex curve that is
 * where the curve's slope equals the chord's: before it response time
 * rises slower than on average over the curve, after it faster (for
 * M/M/1's s / (1 - rho) at 10..90% it is 70%).
 *
 * The points are the curve's, in the order they ran (curve= order, rate
 * rising). A point's x is the most IOPS it or any point before it
 * reached, so that a point that did not raise throughput (it did not
 * reach its rate) stands straight above the last one that did: what it
 * added is latency only. The knee is neither the first nor the last
 * point, and of the points at the most IOPS the curve reached only the
 * first may be it: where the device saturated, when the points after it
 * added response time and no IOPS (its rise is then infinite; the points
 * after it on the same plateau are no knee). No knee is found, and the
 * reason says why, when:
 *   - fewer than KNEE_MIN_POINTS points have a positive IOPS and a
 *     response time (a curve stopped early by stopcurve= is judged on the
 *     points it ran, as any other);
 *   - throughput did not rise from the first point;
 *   - response time stayed within KNEE_FLAT_PCT of its least (flat: the
 *     normalized axis would only magnify noise);
 *   - no point lies KNEE_MIN_BEND (of the normalized axes) below the
 *     chord: response time rises no faster than a straight line;
 *   - beyond the best point, response time rises no faster than IOPS,
 *     relative to the point (rise <= 1, below).
 */
#ifndef LOCKSTEP_MASTER_RESULTS_KNEE_H
#define LOCKSTEP_MASTER_RESULTS_KNEE_H

#include <stddef.h>

#define KNEE_MIN_POINTS 3
#define KNEE_FLAT_PCT 25.0
#define KNEE_MIN_BEND 0.1

struct knee_point {
	double pct;     /* its curve= percentage */
	double iops;    /* measured */
	double resp_ms; /* measured mean response time */
};

enum knee_status {
	KNEE_FOUND,
	KNEE_TOO_FEW,   /* fewer than KNEE_MIN_POINTS usable points */
	KNEE_NO_RISE,   /* IOPS did not rise over the curve */
	KNEE_FLAT,      /* response time within KNEE_FLAT_PCT */
	KNEE_STRAIGHT,  /* no bend of KNEE_MIN_BEND below the chord */
	KNEE_NOT_STEEP, /* beyond the bend, resp rises no faster than IOPS */
};

struct knee_result {
	enum knee_status status;
	size_t used;     /* usable points (positive IOPS, a response time) */
	size_t flatiops; /* of them, points that did not raise IOPS */
	size_t at;       /* KNEE_FOUND: the knee's index in the input */
	double bend;     /* its distance below the chord (normalized y) */
	/*
	 * From the knee to the last point: response time's relative rise
	 * over IOPS's, (resp_last / resp_knee - 1) / (x_last / x_knee - 1),
	 * x as above. "Beyond it response time rises rise times faster
	 * than IOPS." Infinite for a knee at the most IOPS (at_max).
	 */
	double rise;
	int at_max;         /* the knee is the first point at the most IOPS */
	double resp_growth; /* resp_last / resp_knee */
	double resp_lo, resp_hi; /* the least and most response time */
};

/*
 * Find the knee of the n points p (in the order they ran) into *out.
 * Points without a positive IOPS or a finite response time are not used.
 * Always fills *out; returns 1 when a knee was found, else 0.
 */
int knee_find(const struct knee_point *p, size_t n, struct knee_result *out);
/* Why there is no knee ("" for KNEE_FOUND), a static string. */
const char *knee_status_why(enum knee_status s);

#endif
