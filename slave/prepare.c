/*
 * The slave's pure decisions about a phase: slot assignment, engine flags,
 * interval sums and messages. See prepare.h.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "slave/engine.h"
#include "slave/prepare.h"

unsigned prepare_threads(const struct proto_plan *p)
{
	unsigned total = 0;

	for (unsigned t = 0; t < p->ntargets; t++)
		total += p->targets[t].threads;
	return total;
}

unsigned prepare_nworkers(unsigned want, unsigned threads)
{
	unsigned n = want < threads ? want : threads;

	return n > PREPARE_MAX_WORKERS ? PREPARE_MAX_WORKERS : n;
}

int prepare_assign_slots(struct prepare_slots *ps, const struct proto_plan *p)
{
	unsigned total = prepare_threads(p), w = 0;
	unsigned nt = p->ntargets ? p->ntargets : 1;

	for (unsigned i = 0; i < ps->nworkers; i++) {
		ps->slot_target[i] = calloc(total ? total : 1,
					    sizeof(unsigned));
		if (!ps->slot_target[i])
			return -ENOMEM;
		ps->depth[i] = 0;
	}
	for (unsigned t = 0; t < p->ntargets; t++)
		for (unsigned k = 0; k < p->targets[t].threads; k++) {
			ps->slot_target[w][ps->depth[w]++] = t;
			w = (w + 1) % ps->nworkers;
		}
	/* Workers that share a target each take a slice of its range. */
	ps->nslices = calloc(nt, sizeof(unsigned));
	if (!ps->nslices)
		return -ENOMEM;
	for (unsigned i = 0; i < ps->nworkers; i++) {
		ps->slice[i] = calloc(nt, sizeof(unsigned));
		if (!ps->slice[i])
			return -ENOMEM;
		for (unsigned t = 0; t < p->ntargets; t++) {
			int uses = 0;

			for (unsigned k = 0; k < ps->depth[i]; k++)
				uses |= ps->slot_target[i][k] == t;
			ps->slice[i][t] = uses ? ps->nslices[t]++ : UINT_MAX;
		}
	}
	return 0;
}

void prepare_slots_free(struct prepare_slots *ps)
{
	for (unsigned i = 0; i < PREPARE_MAX_WORKERS; i++) {
		free(ps->slot_target[i]);
		free(ps->slice[i]);
	}
	free(ps->nslices);
	memset(ps, 0, sizeof(*ps));
}

int prepare_target_writes(const struct proto_plan *p, unsigned t)
{
	for (unsigned s = 0; s < p->nstreams; s++)
		for (unsigned k = 0; k < p->streams[s].ntargets; k++)
			if (p->streams[s].targets[k] == t &&
			    p->streams[s].rdpct < 100)
				return 1;
	return 0;
}

unsigned prepare_engine_flags(const struct proto_plan *p,
			      const unsigned *target, unsigned n, int sqpoll)
{
	unsigned flags = ENGINE_DIRECT;

	if (sqpoll)
		flags |= ENGINE_SQPOLL;
	for (unsigned i = 0; i < n; i++) {
		if (p->targets[target[i]].sqpoll)
			flags |= ENGINE_SQPOLL;
		if (!(p->targets[target[i]].openflags & PROTO_O_DIRECT))
			flags &= ~ENGINE_DIRECT;
	}
	return flags;
}

void prepare_add_interval(struct worker_interval *dst,
			  const struct worker_interval *src)
{
	for (int d = 0; d < 2; d++) {
		dst->ops[d] += src->ops[d];
		dst->bytes[d] += src->bytes[d];
		hist_merge(&dst->lat[d], &src->lat[d]);
	}
	dst->errors += src->errors;
	for (unsigned t = 0; t < dst->ntargets && t < src->ntargets; t++)
		dst->target_errors[t] += src->target_errors[t];
	if (src->errors) {
		dst->last_errno = src->last_errno;
		dst->last_err_offset = src->last_err_offset;
		dst->last_err_target = src->last_err_target;
	}
}

int prepare_collect(struct worker_interval **acc, unsigned *accn,
		    unsigned intervals, const struct worker_interval *iv)
{
	unsigned k = iv->seq;

	if (k >= intervals)
		return 0;
	if (!acc[k]) {
		size_t sz = sizeof(*iv) + iv->ntargets * sizeof(uint64_t);

		acc[k] = malloc(sz);
		if (!acc[k])
			return -ENOMEM;
		memcpy(acc[k], iv, sz);
		acc[k]->next = NULL;
	} else {
		prepare_add_interval(acc[k], iv);
	}
	accn[k]++;
	return 0;
}

unsigned prepare_workers_due(const int *ended, const int *wlast, unsigned n,
			     unsigned k)
{
	unsigned due = 0;

	for (unsigned i = 0; i < n; i++)
		due += !(ended[i] && wlast[i] < (int)k);
	return due;
}

uint64_t prepare_mono_to_master(uint64_t mono, int64_t real_minus_mono,
				int64_t clock_offset_ns)
{
	int64_t real = (int64_t)mono + real_minus_mono;

	return (uint64_t)(real - clock_offset_ns);
}

uint64_t prepare_first_io(const uint64_t *first, unsigned n)
{
	uint64_t min = 0;

	for (unsigned i = 0; i < n; i++)
		if (first[i] && (!min || first[i] < min))
			min = first[i];
	return min;
}

void prepare_account(struct prepare_totals *tot,
		     const struct proto_plan *plan,
		     const struct worker_interval *iv)
{
	for (int d = 0; d < 2; d++) {
		tot->ops += iv->ops[d];
		tot->bytes += iv->bytes[d];
		if (iv->seq >= plan->warmup_intervals)
			hist_merge(&tot->meas[d], &iv->lat[d]);
	}
	tot->errors += iv->errors;
}

int prepare_interval_msg(struct proto_interval *pi,
			 const struct proto_plan *plan, uint64_t start_at,
			 const struct worker_interval *iv)
{
	pi->phase = plan->phase;
	pi->seq = iv->seq;
	pi->start_ns = start_at + iv->seq * plan->interval_ns;
	pi->end_ns = pi->start_ns + plan->interval_ns;
	for (int d = 0; d < 2; d++) {
		pi->ops[d] = iv->ops[d];
		pi->bytes[d] = iv->bytes[d];
	}
	pi->errors = iv->errors;
	if (hist_to_sparse(&iv->lat[0], &pi->lat[0]) < 0 ||
	    hist_to_sparse(&iv->lat[1], &pi->lat[1]) < 0)
		return -ENOMEM;
	return 0;
}

int prepare_error_text(char *text, size_t len, const struct proto_plan *plan,
		       const struct worker_interval *iv, unsigned t)
{
	if (t >= iv->ntargets || t >= plan->ntargets || !iv->target_errors[t])
		return 0;
	if (t == iv->last_err_target)
		snprintf(text, len,
			 "sd %s (%s): %llu I/O errors in interval %u, the last at offset %llu: %s",
			 plan->targets[t].name, plan->targets[t].path,
			 (unsigned long long)iv->target_errors[t], iv->seq + 1,
			 (unsigned long long)iv->last_err_offset,
			 strerror(iv->last_errno));
	else
		snprintf(text, len,
			 "sd %s (%s): %llu I/O errors in interval %u",
			 plan->targets[t].name, plan->targets[t].path,
			 (unsigned long long)iv->target_errors[t], iv->seq + 1);
	return 1;
}
