/*
 * A worker's per-target open-loop schedules: the split of its rate over
 * its targets and their free-slot stacks. See tsched.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "slave/tsched.h"
#include "slave/workload.h"

int tsched_shares(const struct proto_plan *p, double *share)
{
	double *weight = calloc(p->nstreams ? p->nstreams : 1, sizeof(*weight));
	double total = 0;
	unsigned used = 0;

	memset(share, 0, p->ntargets * sizeof(*share));
	if (!weight)
		return -ENOMEM;
	workload_stream_weights(p, weight);
	for (unsigned s = 0; s < p->nstreams; s++) {
		const struct proto_stream *ps = &p->streams[s];

		/* A concatenation's I/O all starts on its first target's slots. */
		if (ps->concat && ps->ntargets &&
		    ps->targets[0] < p->ntargets) {
			share[ps->targets[0]] += weight[s];
			continue;
		}
		for (unsigned k = 0; k < ps->ntargets; k++)
			if (ps->targets[k] < p->ntargets)
				share[ps->targets[k]] += weight[s] /
							 ps->ntargets;
	}
	free(weight);
	for (unsigned t = 0; t < p->ntargets; t++)
		total += share[t];
	for (unsigned t = 0; t < p->ntargets; t++)
		share[t] = total > 0 ? share[t] / total : 0;
	if (total > 0)
		return 0;
	/* No weight anywhere (no stream): the targets used share evenly. */
	for (unsigned s = 0; s < p->nstreams; s++)
		for (unsigned k = 0; k < p->streams[s].ntargets; k++)
			if (p->streams[s].targets[k] < p->ntargets &&
			    share[p->streams[s].targets[k]] == 0) {
				share[p->streams[s].targets[k]] = 1;
				used++;
			}
	for (unsigned t = 0; t < p->ntargets && used; t++)
		share[t] /= used;
	return 0;
}

/* A slot's part of the slave's rate: its target's share over its threads. */
static double slot_part(const struct proto_plan *p, const double *share,
			unsigned t)
{
	if (t >= p->ntargets || !p->targets[t].threads)
		return 0;
	return share[t] / p->targets[t].threads;
}

double tsched_worker_part(const struct proto_plan *p, const double *share,
			  const unsigned *slot_target, unsigned depth)
{
	double part = 0;

	for (unsigned i = 0; i < depth; i++)
		part += slot_part(p, share, slot_target[i]);
	return part;
}

int tsched_worker_rates(const struct proto_plan *p,
			unsigned *const *slot_target, const unsigned *depth,
			unsigned nworkers, double *iorate)
{
	double *share = calloc(p->ntargets ? p->ntargets : 1, sizeof(*share));
	double total = 0, slots = 0;

	if (!share || tsched_shares(p, share) < 0) {
		free(share);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < nworkers; i++) {
		iorate[i] = tsched_worker_part(p, share, slot_target[i],
					       depth[i]);
		total += iorate[i];
		slots += depth[i];
	}
	free(share);
	/*
	 * The parts sum to 1 when the slots are the targets' threads; with
	 * no part at all, by slots (never 0, which would be max).
	 */
	for (unsigned i = 0; i < nworkers; i++)
		iorate[i] = total > 0 ? p->iorate * iorate[i] / total :
			    slots > 0 ? p->iorate * depth[i] / slots :
					0;
	return 0;
}

void tsched_free(struct tsched *ts)
{
	free(ts->g);
	free(ts->group_of);
	free(ts->stack);
	memset(ts, 0, sizeof(*ts));
}

/* Each group's part of the slave's rate, summed over its slots. */
static int group_parts(struct tsched *ts, const struct proto_plan *p,
		       const unsigned *slot_target, double *part)
{
	double *share = calloc(p->ntargets ? p->ntargets : 1, sizeof(*share));

	if (!share || tsched_shares(p, share) < 0) {
		free(share);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < ts->depth; i++)
		part[ts->group_of[i]] += slot_part(p, share, slot_target[i]);
	free(share);
	return 0;
}

/* One group per target (fixed) or one of all; group_of each slot. */
static void group_slots(struct tsched *ts, const unsigned *slot_target)
{
	for (unsigned i = 0; i < ts->depth; i++) {
		unsigned j = 0;

		while (ts->fixed && j < ts->n &&
		       ts->g[j].target != slot_target[i])
			j++;
		if (j == ts->n) {
			ts->g[ts->n].target = slot_target[i];
			ts->n++;
		}
		ts->group_of[i] = j;
	}
}

/* Split iops over the groups as their parts of the slave's rate are. */
static void group_rates(struct tsched *ts, const double *part, double iops)
{
	double total = 0;

	for (unsigned j = 0; j < ts->n; j++)
		total += part[j];
	for (unsigned j = 0; j < ts->n; j++) {
		ts->g[j].iops = total > 0 ? iops * part[j] / total :
					    iops / ts->n;
		ts->g[j].idle = !(ts->g[j].iops > 0);
	}
}

int tsched_init(struct tsched *ts, const struct proto_plan *p,
		const unsigned *slot_target, unsigned depth, double iops)
{
	unsigned n = depth ? depth : 1;
	double *part;
	unsigned at = 0;

	memset(ts, 0, sizeof(*ts));
	ts->depth = depth;
	/* A worker with no part of a fixed rate is idle, not at max. */
	ts->fixed = iops > 0 || p->iorate > 0 ||
		    p->replay == PROTO_REPLAY_TIMED;
	ts->g = calloc(n, sizeof(*ts->g));
	ts->group_of = calloc(n, sizeof(*ts->group_of));
	ts->stack = calloc(n, sizeof(*ts->stack));
	part = calloc(n, sizeof(*part));
	if (!ts->g || !ts->group_of || !ts->stack || !part)
		goto nomem;
	group_slots(ts, slot_target);
	/* Timed replay: each group's schedule is its records' times. */
	if (p->replay == PROTO_REPLAY_TIMED) {
		for (unsigned j = 0; j < ts->n; j++)
			ts->g[j].idle = 0;
	} else if (ts->fixed) {
		if (group_parts(ts, p, slot_target, part) < 0)
			goto nomem;
		group_rates(ts, part, iops);
	}
	/* Each group's stack: room for its slots in the shared array. */
	for (unsigned j = 0; j < ts->n; j++) {
		ts->g[j].free = ts->stack + at;
		for (unsigned i = 0; i < depth; i++)
			at += ts->group_of[i] == j;
	}
	free(part);
	return 0;
nomem:
	free(part);
	tsched_free(ts);
	return -ENOMEM;
}

int tsched_start(struct tsched *ts, enum rate_dist d, uint64_t start_ns,
		 uint64_t seed)
{
	for (unsigned j = 0; j < ts->n; j++) {
		struct tsched_group *g = &ts->g[j];
		/* Its own stream of draws: the seed moved by a golden step. */
		int ret = rate_init(&g->rate, g->idle ? 0 : g->iops, d,
				    start_ns, seed + j * 0x9e3779b97f4a7c15ull);

		if (ret < 0)
			return ret;
		g->nfree = 0;
		g->held = 0;
		g->free_since = start_ns;
	}
	for (unsigned i = ts->depth; i-- > 0;) {
		struct tsched_group *g = &ts->g[ts->group_of[i]];

		g->free[g->nfree++] = i;
	}
	return 0;
}

uint64_t tsched_wait_ns(const struct tsched *ts, uint64_t now)
{
	uint64_t best = UINT64_MAX;

	for (unsigned j = 0; ts->fixed && j < ts->n; j++) {
		const struct tsched_group *g = &ts->g[j];
		uint64_t w;

		if (!g->nfree || g->idle)
			continue;
		w = rate_wait_ns(&g->rate, now);
		best = w < best ? w : best;
	}
	return best;
}
