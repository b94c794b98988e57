/*
 * The slow sd, named, pure: which sds' latency or I/O count differs from
 * the other sds' beyond chance and by enough to matter, by the slow host
 * test (slowhost.h) with sds in the slaves' place. An sd runs on one or
 * more slaves; each slave's interval gives its part of the sd (its
 * target's histogram, reads and writes together), and the sd's latency
 * is the union of its parts: the test takes them as one latency of
 * several histograms, so nothing is merged twice. Its expected share of
 * the I/Os is its parts' threads (I/Os in flight): with every sd equally
 * fast, each slot completes as many I/Os, so an sd's I/Os follow its
 * threads.
 *
 * The parts of a call may come in any order; the sds are judged in
 * increasing sd order, each sd with a part once. Work: a counting sort
 * of the parts over the sds, then slowhost_judge(); memory grows with
 * the parts and is kept for the next call.
 */
#ifndef LOCKSTEP_MASTER_RESULTS_SLOWSD_H
#define LOCKSTEP_MASTER_RESULTS_SLOWSD_H

#include <stddef.h>
#include "common/hist.h"
#include "master/results/slowhost.h"

/* One sd's part on one slave; lat is read, not kept. */
struct slowsd_part {
	unsigned sd;    /* the sd: below the workspace's max_sds */
	double threads; /* its I/Os in flight there (0: no share) */
	const struct hist_sparse *lat;
};

struct slowsd_work;

/* A workspace for sds 0..max_sds-1, or NULL (no memory). */
struct slowsd_work *slowsd_work_new(size_t max_sds);
void slowsd_work_free(struct slowsd_work *w);

/*
 * Judge the sds of parts[0..n-1] at family-wise error rate alpha: the
 * k-th sd with a part (k < *nsd) is sd[k], its verdict out[k] (sd[] and
 * out[] have room for max_sds). Returns how many are flagged, -EINVAL
 * for a part of an sd past max_sds, or -ENOMEM.
 */
int slowsd_judge(struct slowsd_work *w, const struct slowsd_part *parts,
		 size_t n, double alpha, unsigned *sd, struct slowhost_out *out,
		 size_t *nsd);

#endif
