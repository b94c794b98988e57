/*
 * Replay of an I/O trace on a worker: its records of each target it runs,
 * and the timed schedule made of their times. See replay.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "slave/replay.h"

#define PPB 1000000000ull

/* The byte where ppb of usable starts; the whole end for PPB. */
static uint64_t cut(uint64_t usable, uint64_t ppb)
{
	if (ppb >= PPB)
		return UINT64_MAX;
	return (uint64_t)((unsigned __int128)usable * ppb / PPB);
}

/* Check the trace t against the plan and the sd, then keep this worker's. */
static int take(struct replay_part *part, const struct trace *t, int dev,
		const struct proto_target *pt, uint64_t usable, uint64_t lo,
		uint64_t hi, char *err, size_t errlen)
{
	uint64_t t0 = t->rec[0].t_ns;
	size_t n = 0, mine = 0;

	/* Only this worker's records are kept: count them first. */
	for (size_t i = 0; i < t->n; i++)
		mine += t->rec[i].dev == dev && t->rec[i].offset >= lo &&
			t->rec[i].offset < hi;
	part->rec = calloc(mine ? mine : 1, sizeof(*part->rec));
	if (!part->rec)
		return -ENOMEM;
	for (size_t i = 0; i < t->n; i++) {
		const struct trace_rec *r = &t->rec[i];

		if (r->dev != dev)
			continue;
		if (r->offset >= usable || usable - r->offset < r->len) {
			snprintf(err, errlen,
				 "sd %s: replay record at line %u, %" PRIu32
				 " bytes at offset %" PRIu64
				 ", is past the end of the sd (%" PRIu64
				 " bytes): use a larger sd",
				 pt->name, r->line, r->len, r->offset, usable);
			return -EINVAL;
		}
		if ((pt->openflags & PROTO_O_DIRECT) &&
		    (r->offset % 512 || r->len % 512)) {
			snprintf(err, errlen,
				 "sd %s: replay record at line %u is not in 512-byte units, and the sd is opened with O_DIRECT",
				 pt->name, r->line);
			return -EINVAL;
		}
		if (r->offset < lo || r->offset >= hi)
			continue;
		part->rec[n] = *r;
		part->rec[n].t_ns -= t0;
		part->rec[n].offset += pt->offset;
		n++;
	}
	part->n = n;
	return 0;
}

static int load_stream(struct workload *w, const struct proto_plan *p,
		       unsigned s, const uint64_t *target_size, unsigned k,
		       unsigned nk, char *err, size_t errlen)
{
	const struct proto_stream *ps = &p->streams[s];
	unsigned tg = ps->targets[0];
	const struct proto_target *pt = &p->targets[tg];
	struct trace t = { 0 };
	struct replay_part *part;
	uint64_t usable, lo, hi;
	char why[512];
	int ret, dev;

	ret = trace_read(&t, ps->replay, why, sizeof(why));
	if (ret) {
		snprintf(err, errlen, "replay of wd %s: %s", ps->name, why);
		goto out;
	}
	ret = -EINVAL;
	if (t.hash != ps->replay_hash) {
		snprintf(err, errlen,
			 "replay of wd %s: %s is not the trace the master read (its bytes differ): copy the same file to every host",
			 ps->name, ps->replay);
		goto out;
	}
	dev = trace_dev(&t, ps->replay_dev);
	if (dev < 0) {
		snprintf(err, errlen, "replay of wd %s: no device '%s' in %s",
			 ps->name, ps->replay_dev, ps->replay);
		goto out;
	}
	usable = pt->size ? pt->size : target_size[tg] - pt->offset;
	lo = cut(usable, pt->range_lo);
	hi = cut(usable, pt->range_hi ? pt->range_hi : PPB);
	/* This worker's k-th of nk parts of the slave's [lo, hi). */
	if (nk > 1) {
		uint64_t end = hi == UINT64_MAX ? usable : hi;
		uint64_t span = end - lo;

		hi = k + 1 == nk ? hi :
				   lo + (uint64_t)((unsigned __int128)span *
						   (k + 1) / nk);
		lo += (uint64_t)((unsigned __int128)span * k / nk);
	}
	part = calloc(1, sizeof(*part));
	if (!part) {
		ret = -ENOMEM;
		goto out;
	}
	part->stream = s;
	free(w->targets[tg].replay ? w->targets[tg].replay->rec : NULL);
	free(w->targets[tg].replay);
	w->targets[tg].replay = part;
	ret = take(part, &t, dev, pt, usable, lo, hi, err, errlen);
out:
	trace_free(&t);
	return ret;
}

int replay_load(struct workload *w, const struct proto_plan *p,
		const uint64_t *target_size, const unsigned *slice,
		const unsigned *nslices, char *err, size_t errlen)
{
	for (unsigned s = 0; p->replay && s < p->nstreams; s++) {
		const struct proto_stream *ps = &p->streams[s];
		unsigned tg, k = 0, nk = 1;
		int ret;

		if (!ps->replay[0] || ps->ntargets != 1)
			continue;
		tg = ps->targets[0];
		if (slice && slice[tg] == UINT_MAX)
			continue; /* no slot of ours there */
		if (slice && nslices) {
			k = slice[tg];
			nk = nslices[tg];
		}
		ret = load_stream(w, p, s, target_size, k, nk, err, errlen);
		if (ret)
			return ret;
	}
	return 0;
}

void replay_schedule(struct tsched *ts, const struct workload *w)
{
	for (unsigned j = 0; ts->fixed && j < ts->n; j++)
		if (!w->targets[ts->g[j].target].replay)
			return; /* not a replay */
	for (unsigned j = 0; ts->fixed && j < ts->n; j++) {
		const struct replay_part *r = w->targets[ts->g[j].target].replay;

		rate_recorded(&ts->g[j].rate, r ? r->rec : NULL, r ? r->n : 0);
	}
}
