/*
 * The planner: parameters -> phases -> one resolved plan per slave per
 * phase. See plan.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "master/plan.h"

/* Whole number of intervals in s seconds, or -1 if s is not a multiple. */
static long whole_intervals(double s, double interval)
{
	double n = s / interval;
	long r = lround(n);

	if (fabs(n - (double)r) > 1e-6)
		return -1;
	return r;
}

int plan_phases(const struct params *p, const struct plan_overrides *ov,
		struct plan_phase **out, size_t *n, char *err, size_t errlen)
{
	struct plan_phase *ph = calloc(p->nrd ? p->nrd : 1, sizeof(*ph));

	if (!ph)
		return -ENOMEM;
	for (size_t i = 0; i < p->nrd; i++) {
		const struct params_rd *rd = &p->rd[i];
		struct plan_phase *x = &ph[i];
		long ne, nw;

		x->rd = (unsigned)i;
		snprintf(x->name, sizeof(x->name), "%s", rd->name);
		x->elapsed_s = ov && ov->elapsed_s >= 0 ? ov->elapsed_s :
							  rd->elapsed_s;
		x->warmup_s = ov && ov->warmup_s >= 0 ? ov->warmup_s :
							rd->warmup_s;
		x->interval_s = ov && ov->interval_s > 0 ? ov->interval_s :
							   rd->interval_s;
		x->iorate = rd->iorate;
		ne = whole_intervals(x->elapsed_s, x->interval_s);
		nw = whole_intervals(x->warmup_s, x->interval_s);
		if (ne < 1 || nw < 0) {
			snprintf(err, errlen,
				 "%s:%u:%u: rd=%s: %s=%g is not a whole number of intervals of %g s",
				 p->path, rd->pos.line, rd->pos.col, rd->name,
				 ne < 1 ? "elapsed" : "warmup",
				 ne < 1 ? x->elapsed_s : x->warmup_s,
				 x->interval_s);
			free(ph);
			return -EINVAL;
		}
		x->interval_ns = (uint64_t)llround(x->interval_s * 1e9);
		x->intervals = (unsigned)(ne + nw);
		x->warmup_intervals = (unsigned)nw;
	}
	*out = ph;
	*n = p->nrd;
	return 0;
}

double plan_total_seconds(const struct plan_phase *ph, size_t n)
{
	double t = 0;

	for (size_t i = 0; i < n; i++)
		t += (double)ph[i].intervals * ph[i].interval_s;
	return t;
}

static unsigned share(unsigned total, unsigned slave, unsigned nslaves)
{
	return total / nslaves + (slave < total % nslaves ? 1 : 0);
}

static uint64_t ppb(double pct)
{
	return (uint64_t)llround(pct * 1e7);
}

int plan_for_slave(const struct params *p, const struct plan_phase *ph,
		   unsigned phase_no, unsigned slave, unsigned nslaves,
		   const char *engine, struct proto_plan *out, char *err,
		   size_t errlen)
{
	const struct params_rd *rd = &p->rd[ph->rd];
	int *map = malloc(sizeof(int) * (p->nsd ? p->nsd : 1));
	unsigned nt = 0;

	memset(out, 0, sizeof(*out));
	if (!map)
		return -ENOMEM;
	for (size_t i = 0; i < p->nsd; i++)
		map[i] = -1;
	/* Every sd used by one of the phase's wds, in sd order. */
	for (size_t w = 0; w < rd->nwd; w++) {
		const struct params_wd *wd = &p->wd[rd->wd[w]];

		for (size_t k = 0; k < wd->nsd; k++)
			map[wd->sd[k]] = 0;
	}
	for (size_t i = 0; i < p->nsd; i++)
		if (map[i] == 0)
			map[i] = (int)nt++;
	out->targets = calloc(nt ? nt : 1, sizeof(*out->targets));
	out->streams = calloc(rd->nwd ? rd->nwd : 1, sizeof(*out->streams));
	if (!out->targets || !out->streams) {
		free(map);
		free(out->targets);
		free(out->streams);
		out->targets = NULL;
		out->streams = NULL;
		return -ENOMEM;
	}
	out->run = ph->rd;
	out->phase = phase_no;
	snprintf(out->name, sizeof(out->name), "%s", ph->name);
	snprintf(out->engine, sizeof(out->engine), "%s", engine);
	out->interval_ns = ph->interval_ns;
	out->intervals = ph->intervals;
	out->warmup_intervals = ph->warmup_intervals;
	out->iorate = ph->iorate / nslaves;
	out->ntargets = nt;
	for (size_t i = 0; i < p->nsd; i++) {
		const struct params_sd *sd = &p->sd[i];
		struct proto_target *t;

		if (map[i] < 0)
			continue;
		if (sd->threads < nslaves) {
			snprintf(err, errlen,
				 "%s:%u:%u: sd=%s has threads=%u, fewer than the %u slaves that run it (raise threads= or use fewer slaves)",
				 p->path, sd->pos.line, sd->pos.col, sd->name,
				 sd->threads, nslaves);
			free(map);
			return -EINVAL;
		}
		t = &out->targets[map[i]];
		snprintf(t->name, sizeof(t->name), "%s", sd->name);
		snprintf(t->path, sizeof(t->path), "%s", sd->lun);
		t->size = sd->size;
		t->create = sd->size > 0;
		t->openflags = (sd->openflags & PARAMS_O_DIRECT ? PROTO_O_DIRECT : 0) |
			       (sd->openflags & PARAMS_O_DSYNC ? PROTO_O_DSYNC : 0);
		t->threads = share(sd->threads, slave, nslaves);
		t->range_lo = ppb(sd->range_lo);
		t->range_hi = ppb(sd->range_hi);
	}
	out->nstreams = (uint32_t)rd->nwd;
	for (size_t w = 0; w < rd->nwd; w++) {
		const struct params_wd *wd = &p->wd[rd->wd[w]];
		struct proto_stream *s = &out->streams[w];

		snprintf(s->name, sizeof(s->name), "%s", wd->name);
		s->ntargets = (uint32_t)wd->nsd;
		for (size_t k = 0; k < wd->nsd; k++)
			s->targets[k] = (uint32_t)map[wd->sd[k]];
		s->nxfer = (uint32_t)wd->nxfer;
		for (size_t x = 0; x < wd->nxfer; x++) {
			s->xfer[x].size = wd->xfer[x].size;
			s->xfer[x].pct = wd->xfer[x].pct;
		}
		s->rdpct = wd->rdpct;
		s->seekpct = wd->seekpct;
	}
	free(map);
	return 0;
}
