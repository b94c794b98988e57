/*
 * What the phases of a block rd (plan.c) and of an fwd= rd
 * (plan_fsphase.c) are built from: the list of phases, a phase's name,
 * the for-loops' values set in a phase (an odometer over them), the
 * format phase's bytes and bound (and whether an rd uses an sd), and a
 * curve's phases. See plan_int.h.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/units.h"
#include "master/plan/plan.h"
#include "master/plan/plan_int.h"

/* A new phase, a copy of base; NULL when out of memory or phases. */
struct plan_phase *plan_phase_add(struct plan_list *a,
				  const struct plan_phase *base)
{
	if (a->n == PLAN_PHASES_MAX)
		return NULL;
	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 16;
		struct plan_phase *np = realloc(a->ph, cap * sizeof(*np));

		if (!np)
			return NULL;
		a->ph = np;
		a->cap = cap;
	}
	a->ph[a->n] = *base;
	return &a->ph[a->n++];
}

__attribute__((format(printf, 2, 3))) void plan_name_add(char *name,
							 const char *fmt, ...)
{
	size_t len = strlen(name);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name + len, PLAN_NAME_MAX - len, fmt, ap);
	va_end(ap);
}

/* The fwd= loops (foroperation=, the tree loops) of loop_apply(). */
static void fs_loop_apply(struct plan_phase *x, enum params_loop_kind k,
			  double v)
{
	char sz[32];
	uint32_t *n;
	uint64_t *b;

	switch (k) {
	case PARAMS_LOOP_OPERATION:
		x->fsop = (unsigned)v;
		plan_name_add(x->name, " operation=%s",
			      params_fsop_name((enum params_fsop)x->fsop));
		break;
	case PARAMS_LOOP_DEPTH:
	case PARAMS_LOOP_WIDTH:
	case PARAMS_LOOP_FILES:
		n = k == PARAMS_LOOP_DEPTH ? &x->depth :
		    k == PARAMS_LOOP_WIDTH ? &x->width :
					     &x->files;
		*n = (uint32_t)v;
		/* "fordepth" says depth=: Vdbench's names without "for". */
		plan_name_add(x->name, " %s=%u", params_loop_name(k) + 3, *n);
		break;
	case PARAMS_LOOP_SIZES:
	case PARAMS_LOOP_TOTAL:
	case PARAMS_LOOP_WSS:
		b = k == PARAMS_LOOP_SIZES ? &x->fsize :
		    k == PARAMS_LOOP_TOTAL ? &x->totalsize :
					     &x->wss;
		if (k == PARAMS_LOOP_TOTAL && v < 0) {
			/* fortotal=N%: Vdbench's display, "totalsize=N%". */
			x->totalsize_pct = -v;
			x->totalsize = 0;
			plan_name_add(x->name, " totalsize=%g%%", -v);
			break;
		}
		if (k == PARAMS_LOOP_TOTAL)
			x->totalsize_pct = 0;
		*b = (uint64_t)v;
		plan_name_add(x->name, " %s=%s",
			      k == PARAMS_LOOP_TOTAL ? "totalsize" :
						       params_loop_name(k) + 3,
			      units_fmt_size(*b, sz, sizeof(sz)));
		break;
	default:
		break;
	}
}

/* Set loop k's value v in phase x, and say so in its name. */
static void loop_apply(struct plan_phase *x, enum params_loop_kind k, double v)
{
	char sz[32];

	x->loops |= 1u << k;
	switch (k) {
	case PARAMS_LOOP_XFERSIZE:
		x->xfersize = (uint32_t)v;
		plan_name_add(x->name, " xfersize=%s",
			      units_fmt_size(x->xfersize, sz, sizeof(sz)));
		break;
	case PARAMS_LOOP_RDPCT:
		x->rdpct = v;
		plan_name_add(x->name, " rdpct=%g", v);
		break;
	case PARAMS_LOOP_SEEKPCT:
		x->seekpct = v;
		if (v == PARAMS_SEEK_EOF)
			plan_name_add(x->name, " seekpct=eof");
		else
			plan_name_add(x->name, " seekpct=%g", v);
		break;
	case PARAMS_LOOP_THREADS:
		x->threads = (unsigned)v;
		plan_name_add(x->name, " threads=%u", x->threads);
		break;
	case PARAMS_LOOP_COMPRATIO:
		x->compratio = v;
		plan_name_add(x->name, " compratio=%g", v);
		break;
	case PARAMS_LOOP_RHPCT:
		x->rhpct = v;
		plan_name_add(x->name, " rhpct=%g", v);
		break;
	case PARAMS_LOOP_WHPCT:
		x->whpct = v;
		plan_name_add(x->name, " whpct=%g", v);
		break;
	case PARAMS_LOOP_HITAREA:
		x->hitarea = (uint64_t)v;
		plan_name_add(x->name, " hitarea=%s",
			      units_fmt_size(x->hitarea, sz, sizeof(sz)));
		break;
	default:
		fs_loop_apply(x, k, v);
		break;
	}
}

/* The loops' values at odometer position idx, into x. */
void plan_loops_apply(const struct params_rd *rd, const size_t *idx,
		      struct plan_phase *x)
{
	for (size_t l = 0; l < rd->nloop; l++)
		loop_apply(x, rd->loop[l].kind, rd->loop[l].val[idx[l]]);
}

/*
 * An odometer over the loops, the last one given turning fastest: 1 with
 * idx at the next position, 0 past the last.
 */
int plan_loops_next(const struct params_rd *rd, size_t *idx)
{
	for (size_t l = rd->nloop; l > 0; l--) {
		if (++idx[l - 1] < rd->loop[l - 1].n)
			return 1;
		idx[l - 1] = 0;
	}
	return 0;
}

bool plan_rd_uses_sd(const struct params *p, unsigned r, unsigned sd)
{
	const struct params_rd *rd = &p->rd[r];

	for (size_t w = 0; w < rd->nwd; w++) {
		const struct params_wd *wd = &p->wd[rd->wd[w]];

		for (size_t k = 0; k < wd->nsd; k++)
			if (wd->sd[k] == sd)
				return true;
	}
	return false;
}

/* The format phase of rd: its bytes and an upper bound on its time. */
void plan_format_phase(const struct params *p, const struct params_rd *rd,
		       struct plan_phase *x)
{
	long n = (long)ceil(PLAN_FORMAT_BOUND_S / x->interval_s);

	x->kind = PLAN_FORMAT;
	plan_name_add(x->name, " format");
	x->elapsed_s = (double)n * x->interval_s;
	x->warmup_s = 0;
	x->intervals = (unsigned)n;
	x->warmup_intervals = 0;
	x->iorate = 0;
	for (unsigned i = 0; i < p->nsd; i++) {
		const struct params_sd *sd = &p->sd[i];

		if (!plan_rd_uses_sd(p, (unsigned)(rd - p->rd), i))
			continue;
		if (!sd->size)
			x->format_unsized++;
		else
			x->format_bytes +=
				(uint64_t)((double)sd->size *
					   (sd->range_hi - sd->range_lo) / 100);
	}
}

/*
 * iorate=curve or fwdrate=curve: the max phase, then a point per curve=
 * percentage (Vdbench's RD_entry.insertCurveRuns); the conductor gives a
 * point its share of the max phase's measured rate.
 */
int plan_curve_phases(const struct params_rd *rd,
		      const struct plan_phase *combo, struct plan_list *a)
{
	size_t max = a->n;
	struct plan_phase *x = plan_phase_add(a, combo);

	if (!x)
		return -ENOMEM;
	x->kind = PLAN_CURVE_MAX;
	x->stopcurve_ms = rd->stopcurve_ms;
	plan_name_add(x->name, " curve=max");
	for (size_t i = 0; i < rd->ncurve; i++) {
		x = plan_phase_add(a, combo);
		if (!x)
			return -ENOMEM;
		x->kind = PLAN_CURVE_POINT;
		x->curve_pct = rd->curve[i];
		x->curve_max = (unsigned)max;
		x->stopcurve_ms = rd->stopcurve_ms;
		plan_name_add(x->name, " curve=%g%%", rd->curve[i]);
	}
	return 0;
}
