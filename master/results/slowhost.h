/*
 * The slow host, named, pure: which slaves' latency or I/O count differs
 * from the rest beyond chance and by enough to matter to an engineer.
 *
 * Latency: a one-sided Mann-Whitney U test of each slave's latency (its
 * read and write histograms together) against the pooled latency of the
 * other slaves, on the histograms' buckets: values in one bucket are ties
 * (each counts half a win), and the p-value is the normal approximation
 * with the tie correction of the variance and a continuity correction of
 * 1/2. Only "slower" is tested: a fast host is nobody's problem.
 *
 * I/O count: under "every I/O of the interval went to slave i with
 * probability w_i / sum(w)" (w: its expected share, e.g. its threads), a
 * one-sided binomial test (normal approximation) of a count below its
 * share. I/Os are not independent draws, so the model is generous: the
 * effect size below is what makes a flag mean something.
 *
 * Every judged test of the call (two a slave at most) is one family,
 * corrected by Holm's step-down method: the chance that any slave of equal
 * ones is flagged in a call is at most alpha. With hundreds of thousands of
 * I/Os any 1% difference is "significant", so a slave is flagged only when
 * the difference is also large: its p99 or its median at least
 * SLOWHOST_EFFECT times the others' (latency), or its I/Os at most
 * 1/SLOWHOST_EFFECT of its share (I/O count).
 *
 * Work: O(slaves x occupied buckets + HIST_BUCKETS + slaves x log slaves)
 * a call, and for a slave that may be flagged the span of its bucket
 * indexes (the merge its percentiles need); memory fixed when the
 * workspace is made.
 */
#ifndef LOCKSTEP_MASTER_RESULTS_SLOWHOST_H
#define LOCKSTEP_MASTER_RESULTS_SLOWHOST_H

#include <stddef.h>
#include <stdint.h>
#include "common/hist.h"

/* Family-wise error rate a call (Holm), as lockstep uses it. */
#define SLOWHOST_ALPHA 0.001
/* The effect that matters: p99 or median ratio at least this. */
#define SLOWHOST_EFFECT 1.2
/* Fewer I/Os than this on either side of a test: not judged. */
#define SLOWHOST_MIN_IOS 20
/* Histograms a slave gives (read, write). */
#define SLOWHOST_DIRS 2

/*
 * One slave's input (or one sd's: slowsd.h); nothing is kept after the
 * call.
 */
struct slowhost_in {
	/*
	 * Its latency histograms (nlat of them, any number, each passed
	 * through hist_sparse_validate() or proto_decode()): together, its
	 * latency (a slave's read and write ones, an sd's on each slave).
	 */
	const struct hist_sparse *lat;
	unsigned nlat;
	/* Its expected share of the I/Os, relative to the others'; 0 or
	   less: it was not to do I/O, and no I/O-count test is made. */
	double weight;
};

struct slowhost_out {
	int judged;  /* either test could be made */
	int flagged; /* significant and large, by either test */
	int lat_judged, lat_flag;
	int ios_judged, ios_flag;
	uint64_t ios;        /* its I/Os (its histograms' counts) */
	double p_lat, p_ios; /* Holm-adjusted p-values (1: not judged) */
	/*
	 * Its p99 and median over the others' and the percentiles compared
	 * (ns, as hist_percentile() says them): 0 when the latency test was
	 * not judged or its p-value before Holm's adjustment is above alpha
	 * (it cannot be flagged, and they are not worth their cost).
	 */
	double p99_ratio;
	double median_ratio;
	uint64_t p99_ns, rest_p99_ns, median_ns, rest_median_ns;
	double share_ratio; /* its I/Os over its expected share (0: none) */
};

struct slowhost_work;

/* A workspace for calls of up to max_slaves slaves, or NULL (no memory). */
struct slowhost_work *slowhost_work_new(size_t max_slaves);
void slowhost_work_free(struct slowhost_work *w);

/*
 * Judge n slaves (in[0..n-1]) at family-wise error rate alpha into
 * out[0..n-1]. Returns how many are flagged, or -EINVAL when n is over
 * the workspace's max_slaves. One slave, or none with I/O, judges
 * nothing.
 */
int slowhost_judge(struct slowhost_work *w, const struct slowhost_in *in,
		   size_t n, double alpha, struct slowhost_out *out);

/* The smaller of a flagged slave's adjusted p-values that flagged it. */
double slowhost_p(const struct slowhost_out *o);

#endif
