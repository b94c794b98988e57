/*
 * When a warmup=steady phase's warmup is over, pure: after each warmup
 * interval the master judges the last STEADY_ROUNDS rounds of the cluster's
 * I/O series and of every slave's with SNIA PTS's test (steady.h), and the
 * warmup ends once all of them are steady, or at its maximum. The measured
 * window then starts after the interval the slaves may already be in: the
 * master can only tell them from the next one on.
 */
#ifndef LOCKSTEP_MASTER_RESULTS_SETTLE_H
#define LOCKSTEP_MASTER_RESULTS_SETTLE_H

#include "master/results/steady.h"

enum settle_state {
	SETTLE_WAIT,   /* not steady yet: keep warming up */
	SETTLE_STEADY, /* every series steady: measure */
	SETTLE_MAX,    /* the maximum warmup is reached: measure anyway */
};

struct settle_verdict {
	enum settle_state state;
	struct steady_verdict cluster; /* series 0's last window */
	/* The series farthest from steady (-1: none judged or all steady). */
	int worst;
	struct steady_verdict worst_v;
};

/*
 * Judge after n warmup intervals: series[i][k] is the I/Os of interval k
 * (0 <= k < n) of series i, series[0] the cluster's, the others one slave
 * each (a NULL entry is a slave not in the phase and is left out). The
 * window is the last STEADY_ROUNDS rounds of round intervals each, ending
 * with interval n-1. SETTLE_MAX when n reached max and not steady.
 */
void settle_judge(const double *const *series, unsigned nseries, unsigned n,
		  unsigned round, unsigned max, struct settle_verdict *v);
/*
 * The first measured interval once the warmup was judged over after n
 * intervals, while some slave has reported up to interval reported-1: one
 * past both, so that no slave has sent it yet; never past max (the planned
 * warmup, where the slaves measure from anyway).
 */
unsigned settle_from(unsigned n, unsigned reported, unsigned max);

#endif
