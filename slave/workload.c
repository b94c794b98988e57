/*
 * Workload generator: stream choice by skew, transfer size by distribution,
 * read or write by rdpct, random (seekpct share) or sequential offsets inside
 * each target's range, aligned to the transfer size. See workload.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "slave/workload.h"

#define SCALE 4294967296.0 /* 2^32: shares are compared to 32 random bits */

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t workload_rand(struct workload *w)
{
	uint64_t *s = w->rng;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n) without division (Lemire's multiply-shift). */
static uint64_t below(struct workload *w, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)workload_rand(w) * n) >> 64);
}

static uint64_t pct_scaled(double pct)
{
	if (pct <= 0)
		return 0;
	if (pct >= 100)
		return (uint64_t)SCALE;
	return (uint64_t)(pct / 100.0 * SCALE);
}

static int init_streams(struct workload *w, const struct proto_plan *plan,
			char *err, size_t errlen)
{
	for (unsigned s = 0; s < plan->nstreams; s++) {
		const struct proto_stream *ps = &plan->streams[s];
		struct workload_stream *ws = &w->streams[s];
		double total = 0, cum = 0;

		if (ps->nxfer == 0 || ps->nxfer > WORKLOAD_XFER_MAX) {
			snprintf(err, errlen, "wd %s: no transfer size",
				 ps->name);
			return -EINVAL;
		}
		for (unsigned i = 0; i < ps->nxfer; i++)
			total += ps->xfer[i].pct;
		if (total <= 0) {
			snprintf(err, errlen, "wd %s: xfersize shares are 0",
				 ps->name);
			return -EINVAL;
		}
		ws->nxfer = ps->nxfer;
		for (unsigned i = 0; i < ps->nxfer; i++) {
			uint32_t sz = ps->xfer[i].size;

			if (sz == 0 || sz % 512) {
				snprintf(err, errlen,
					 "wd %s: xfersize %u is not a multiple of 512",
					 ps->name, sz);
				return -EINVAL;
			}
			cum += ps->xfer[i].pct;
			ws->xsize[i] = sz;
			ws->xcum[i] = (uint64_t)(cum / total * SCALE);
			if (sz > w->max_xfer)
				w->max_xfer = sz;
		}
		ws->xcum[ps->nxfer - 1] = (uint64_t)SCALE;
		ws->rd_thresh = pct_scaled(ps->rdpct);
		ws->seek_thresh = pct_scaled(ps->seekpct);
	}
	return 0;
}

/* Skew: streams with skew > 0 get it; the rest share what is left evenly. */
static void stream_weights(const struct proto_plan *plan, double *weight)
{
	double given = 0;
	unsigned unset = 0;

	for (unsigned s = 0; s < plan->nstreams; s++) {
		if (plan->streams[s].skew > 0)
			given += plan->streams[s].skew;
		else
			unset++;
	}
	for (unsigned s = 0; s < plan->nstreams; s++) {
		if (plan->streams[s].skew > 0)
			weight[s] = plan->streams[s].skew;
		else
			weight[s] = given < 100 ? (100 - given) / unset : 0;
	}
}

#define PPB 1000000000ull
#define ALIGN 4096ull

/* Byte range of a target from its parts-per-billion range, 4 KiB aligned. */
static void target_range(const struct proto_target *pt, uint64_t size,
			 uint64_t *lo, uint64_t *hi)
{
	uint64_t hi_ppb = pt->range_hi ? pt->range_hi : PPB;

	*lo = (uint64_t)((unsigned __int128)size * pt->range_lo / PPB);
	*hi = (uint64_t)((unsigned __int128)size * hi_ppb / PPB);
	*lo = (*lo + ALIGN - 1) / ALIGN * ALIGN;
	*hi = *hi / ALIGN * ALIGN;
	if (*hi < *lo)
		*hi = *lo;
}

static int check_range(const struct workload *w, const struct proto_plan *plan,
		       unsigned t, char *err, size_t errlen)
{
	const struct workload_target *wt = &w->targets[t];

	for (unsigned c = 0; c < wt->nchoice; c++) {
		const struct workload_stream *ws = &w->streams[wt->choice[c].stream];

		for (unsigned i = 0; i < ws->nxfer; i++) {
			if (wt->hi - wt->lo >= ws->xsize[i])
				continue;
			snprintf(err, errlen,
				 "sd %s: range of %llu bytes is smaller than xfersize %u",
				 plan->targets[t].name,
				 (unsigned long long)(wt->hi - wt->lo),
				 ws->xsize[i]);
			return -EINVAL;
		}
	}
	return 0;
}

static int init_targets(struct workload *w, const struct proto_plan *plan,
			const uint64_t *target_size, char *err, size_t errlen)
{
	double *weight = calloc(plan->nstreams ? plan->nstreams : 1,
				sizeof(*weight));
	int ret = 0;

	if (!weight)
		return -ENOMEM;
	stream_weights(plan, weight);
	for (unsigned t = 0; t < plan->ntargets && ret == 0; t++) {
		struct workload_target *wt = &w->targets[t];
		double total = 0, acc = 0;

		target_range(&plan->targets[t], target_size[t], &wt->lo,
			     &wt->hi);
		wt->choice = calloc(plan->nstreams ? plan->nstreams : 1,
				    sizeof(*wt->choice));
		if (!wt->choice) {
			ret = -ENOMEM;
			break;
		}
		for (unsigned s = 0; s < plan->nstreams; s++) {
			const struct proto_stream *ps = &plan->streams[s];

			for (unsigned k = 0; k < ps->ntargets; k++) {
				if (ps->targets[k] != t)
					continue;
				wt->choice[wt->nchoice++].stream = s;
				total += weight[s];
				break;
			}
		}
		/* Streams of a target share its I/Os by weight, else evenly. */
		for (unsigned c = 0; c < wt->nchoice; c++) {
			acc += total > 0 ? weight[wt->choice[c].stream] : 1;
			wt->choice[c].cum = (uint64_t)(
				acc / (total > 0 ? total : wt->nchoice) * SCALE);
		}
		if (wt->nchoice)
			wt->choice[wt->nchoice - 1].cum = (uint64_t)SCALE;
		for (unsigned s = 0; s < plan->nstreams; s++)
			w->cursor[t * plan->nstreams + s] = wt->lo;
		if (wt->nchoice == 0) {
			snprintf(err, errlen, "sd %s is used by no wd",
				 plan->targets[t].name);
			ret = -EINVAL;
			break;
		}
		ret = check_range(w, plan, t, err, errlen);
	}
	free(weight);
	return ret;
}

int workload_init(struct workload *w, const struct proto_plan *plan,
		  const uint64_t *target_size, uint64_t seed, char *err,
		  size_t errlen)
{
	int ret;

	memset(w, 0, sizeof(*w));
	for (int i = 0; i < 4; i++)
		w->rng[i] = splitmix(&seed);
	w->ntargets = plan->ntargets;
	w->nstreams = plan->nstreams;
	w->targets = calloc(plan->ntargets ? plan->ntargets : 1,
			    sizeof(*w->targets));
	w->streams = calloc(plan->nstreams ? plan->nstreams : 1,
			    sizeof(*w->streams));
	w->cursor = calloc((size_t)(plan->ntargets ? plan->ntargets : 1) *
				   (plan->nstreams ? plan->nstreams : 1),
			   sizeof(*w->cursor));
	if (!w->targets || !w->streams || !w->cursor) {
		workload_free(w);
		return -ENOMEM;
	}
	ret = init_streams(w, plan, err, errlen);
	if (ret == 0)
		ret = init_targets(w, plan, target_size, err, errlen);
	if (ret < 0)
		workload_free(w);
	return ret;
}

void workload_free(struct workload *w)
{
	if (w->targets)
		for (unsigned t = 0; t < w->ntargets; t++)
			free(w->targets[t].choice);
	free(w->targets);
	free(w->streams);
	free(w->cursor);
	memset(w, 0, sizeof(*w));
}

void workload_next(struct workload *w, unsigned target, struct workload_io *io)
{
	struct workload_target *t = &w->targets[target];
	struct workload_stream *s;
	uint64_t r = workload_rand(w);
	uint64_t r1 = r & 0xffffffffu, r2 = r >> 32;
	unsigned c = 0, x = 0;
	uint64_t *cur;

	while (c + 1 < t->nchoice && r1 >= t->choice[c].cum)
		c++;
	io->target = target;
	io->stream = t->choice[c].stream;
	s = &w->streams[io->stream];
	while (x + 1 < s->nxfer && r2 >= s->xcum[x])
		x++;
	io->len = s->xsize[x];
	r = workload_rand(w);
	io->write = (r & 0xffffffffu) >= s->rd_thresh;
	cur = &w->cursor[target * w->nstreams + io->stream];
	if ((r >> 32) < s->seek_thresh) {
		uint64_t slots = (t->hi - t->lo - io->len) / io->len + 1;

		io->offset = t->lo + below(w, slots) * io->len;
		*cur = io->offset + io->len;
	} else {
		if (*cur + io->len > t->hi || *cur < t->lo)
			*cur = t->lo;
		io->offset = *cur;
		*cur += io->len;
	}
}
