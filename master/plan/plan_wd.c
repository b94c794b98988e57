/*
 * A wd in a phase: its values once the phase's loops (xfersize=,
 * rdpct=, seekpct=, rhpct=, whpct=) and the rd's skews are applied. Its own file because
 * the phases (plan.c), the validation checks (plan_validate.c, called by
 * plan.c), the per-slave plans and `lockstep check` all read it: kept in
 * plan.c, plan.c and plan_validate.c would call each other. See plan.h.
 * Also the two rules that combine an rd's wds: how they share the phase's
 * rate (iorate=, skew=) and which openflags= open each sd.
 */
#include <string.h>
#include "master/plan/plan.h"

double plan_wd_shares(size_t n, const double *fixed, const double *skew,
		      double rate, double *pct)
{
	double sum = 0, given = 0, rest;
	size_t unset = 0;

	for (size_t i = 0; i < n; i++) {
		sum += fixed[i];
		if (fixed[i] > 0)
			continue;
		given += skew[i];
		unset += skew[i] > 0 ? 0 : 1;
	}
	if (sum > 0 && unset + given == 0) {
		/* Every wd at its own rate: the phase runs at their sum. */
		for (size_t i = 0; i < n; i++)
			pct[i] = fixed[i] / sum * 100;
		return sum;
	}
	/* Vdbench's wg_set_interarrival: the rest is max(0, rate - sum). */
	rest = sum > 0 ? (rate > sum ? rate - sum : 0) : rate;
	for (size_t i = 0; i < n; i++) {
		double share;

		if (fixed[i] > 0) {
			pct[i] = rate > 0 ? fixed[i] / rate * 100 : 0;
			continue;
		}
		share = skew[i] > 0 ? skew[i] :
			given < 100 ? (100 - given) / (double)unset :
				      0;
		pct[i] = sum > 0 ? (rate > 0 ? rest / rate * share : 0) : share;
	}
	return rate;
}

/* Percent of the phase's I/O wd i of rd gets. */
static double wd_skew(const struct params *p, const struct plan_phase *ph,
		      const struct params_rd *rd, size_t i)
{
	double fixed[PARAMS_LIST_MAX], skew[PARAMS_LIST_MAX];
	double pct[PARAMS_LIST_MAX];

	for (size_t w = 0; w < rd->nwd; w++) {
		fixed[w] = p->wd[rd->wd[w]].iorate;
		skew[w] = p->wd[rd->wd[w]].skew;
	}
	plan_wd_shares(rd->nwd, fixed, skew, ph->iorate, pct);
	return pct[i];
}

unsigned plan_sd_openflags(const struct params *p, const struct plan_phase *ph,
			   unsigned sd, int *from)
{
	const struct params_rd *rd = &p->rd[ph->rd];

	*from = -2;
	if (rd->openflags_set)
		return rd->openflags;
	/* params refused two wds of the rd with different flags for sd. */
	for (size_t i = 0; i < rd->nwd; i++) {
		const struct params_wd *wd = &p->wd[rd->wd[i]];

		if (!wd->openflags_set)
			continue;
		for (size_t k = 0; k < wd->nsd; k++)
			if (wd->sd[k] == sd) {
				*from = (int)rd->wd[i];
				return wd->openflags;
			}
	}
	*from = -1;
	return p->sd[sd].openflags;
}

void plan_wd_resolve(const struct params *p, const struct plan_phase *ph,
		     size_t i, struct plan_wd *out)
{
	const struct params_rd *rd = &p->rd[ph->rd];
	const struct params_wd *wd = &p->wd[rd->wd[i]];

	memset(out, 0, sizeof(*out));
	out->wd = rd->wd[i];
	out->nxfer = wd->nxfer;
	memcpy(out->xfer, wd->xfer, wd->nxfer * sizeof(wd->xfer[0]));
	if (ph->loops & (1u << PARAMS_LOOP_XFERSIZE)) {
		out->nxfer = 1;
		out->xfer[0].size = ph->xfersize;
		out->xfer[0].pct = 100;
	}
	out->rdpct = ph->loops & (1u << PARAMS_LOOP_RDPCT) ? ph->rdpct :
							     wd->rdpct;
	out->seekpct = wd->seekpct;
	out->seek_eof = wd->seek_eof;
	if (ph->loops & (1u << PARAMS_LOOP_SEEKPCT)) {
		out->seek_eof = ph->seekpct == PARAMS_SEEK_EOF;
		out->seekpct = out->seek_eof ? 0 : ph->seekpct;
	}
	out->range_lo = wd->range_lo;
	out->range_hi = wd->range_hi;
	out->skew = wd_skew(p, ph, rd, i);
	out->iorate = wd->iorate;
	out->rhpct = ph->loops & (1u << PARAMS_LOOP_RHPCT) ? ph->rhpct :
							     wd->rhpct;
	out->whpct = ph->loops & (1u << PARAMS_LOOP_WHPCT) ? ph->whpct :
							     wd->whpct;
	out->access = wd->access;
	out->access_arg = wd->access_arg;
	/* Vdbench's streams make every I/O the next of its stream. */
	out->streams = wd->streams;
	if (wd->streams)
		out->seekpct = 0;
	out->stride_min = wd->stride_min;
	out->stride_max = wd->stride_max;
}
