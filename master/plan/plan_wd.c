/*
 * A wd in a phase: its values once the phase's loops (xfersize=,
 * rdpct=, seekpct=, rhpct=, whpct=) and the rd's skews are applied. Its own file because
 * the phases (plan.c), the validation checks (plan_validate.c, called by
 * plan.c), the per-slave plans and `lockstep check` all read it: kept in
 * plan.c, plan.c and plan_validate.c would call each other. See plan.h.
 */
#include <string.h>
#include "master/plan/plan.h"

/* Percent of the phase's I/O wd i of rd gets. */
static double wd_skew(const struct params *p, const struct params_rd *rd,
		      size_t i)
{
	double fixed = 0, given = 0;
	size_t unset = 0;

	for (size_t w = 0; w < rd->nwd; w++) {
		const struct params_wd *wd = &p->wd[rd->wd[w]];

		fixed += wd->iorate;
		given += wd->skew;
		unset += wd->skew > 0 ? 0 : 1;
	}
	if (fixed > 0)
		return p->wd[rd->wd[i]].iorate / fixed * 100;
	if (p->wd[rd->wd[i]].skew > 0)
		return p->wd[rd->wd[i]].skew;
	return given < 100 ? (100 - given) / (double)unset : 0;
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
	out->skew = wd_skew(p, rd, i);
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
