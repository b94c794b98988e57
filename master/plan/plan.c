/*
 * The planner, first half: parameters -> phases. Phases carry every value
 * a reader (and `lockstep check`) needs: timing, loops, curves, format
 * passes, resolved workload values. A block rd's phases are here, an fwd=
 * rd's plan_fsphase.c; both build on plan_loop.c (the phase list, the
 * for-loops, format and curve phases). The per-slave plans are in
 * plan_slave.c and plan_fs.c. See plan.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "master/plan/plan.h"
#include "master/plan/slo.h"
#include "master/plan/plan_int.h"

#define PPB 1000000000ull

/*
 * Whole number of intervals in s seconds, -1 if s is not a multiple, or
 * PARAMS_INTERVALS_MAX + 1 when there are more than that: a count that
 * does not fit is an error, never wrapped to a short run.
 */
static long whole_intervals(double s, double interval)
{
	double n = s / interval;
	long r;

	if (!(n <= PARAMS_INTERVALS_MAX))
		return PARAMS_INTERVALS_MAX + 1;
	r = lround(n);

	if (fabs(n - (double)r) > 1e-6)
		return -1;
	return r;
}

const char *plan_kind_name(enum plan_kind k)
{
	switch (k) {
	case PLAN_MEASURE:
		return "warmup+measure";
	case PLAN_FORMAT:
		return "format";
	case PLAN_CURVE_MAX:
		return "curve-max";
	case PLAN_CURVE_POINT:
		return "curve-point";
	case PLAN_SLO_MAX:
		return "slo-max";
	case PLAN_SLO_STEP:
		return "slo-step";
	}
	return "?";
}

uint64_t plan_maxdata_bytes(const struct params *p, const struct plan_phase *ph,
			    const uint64_t *sd_bytes, unsigned *unsized)
{
	const struct params_rd *rd = &p->rd[ph->rd];
	double size = 0;

	if (unsized)
		*unsized = 0;
	if (!rd->maxdata || ph->kind == PLAN_FORMAT)
		return 0;
	if (rd->maxdata > PARAMS_MAXDATA_TIMES)
		return (uint64_t)rd->maxdata;
	for (unsigned sd = 0; sd < p->nsd; sd++) {
		uint64_t b = p->sd[sd].size ? p->sd[sd].size :
			     sd_bytes       ? sd_bytes[sd] :
					      0;

		if (!plan_rd_uses_sd(p, ph->rd, sd))
			continue;
		size += (double)b;
		if (!b && unsized)
			(*unsized)++;
	}
	return (uint64_t)(rd->maxdata * size);
}

/* The phase timing of rd with the command-line overrides. */
static int rd_timing(const struct params *p, const struct params_rd *rd,
		     const struct plan_overrides *ov, struct plan_phase *x,
		     char *err, size_t errlen)
{
	long ne, nw;

	x->elapsed_s = ov && ov->elapsed_s >= 0 ? ov->elapsed_s : rd->elapsed_s;
	x->warmup_s = ov && ov->warmup_s >= 0 ? ov->warmup_s : rd->warmup_s;
	x->interval_s = ov && ov->interval_s > 0 ? ov->interval_s :
						   rd->interval_s;
	ne = whole_intervals(x->elapsed_s, x->interval_s);
	nw = whole_intervals(x->warmup_s, x->interval_s);
	if (ne < 1 || nw < 0)
		return plan_err(p, rd->pos, err, errlen,
				"rd=%s: %s=%g is not a whole number of intervals of %g s",
				rd->name, ne < 1 ? "elapsed" : "warmup",
				ne < 1 ? x->elapsed_s : x->warmup_s,
				x->interval_s);
	if (ne + nw > PARAMS_INTERVALS_MAX)
		return plan_err(p, rd->pos, err, errlen,
				"rd=%s: elapsed=%g and warmup=%g are more than %d intervals of %g s: use a longer interval",
				rd->name, x->elapsed_s, x->warmup_s,
				PARAMS_INTERVALS_MAX, x->interval_s);
	x->interval_ns = (uint64_t)llround(x->interval_s * 1e9);
	x->intervals = (unsigned)(ne + nw);
	x->warmup_intervals = (unsigned)nw;
	/* A warmup= on the command line is Vdbench's -w: a fixed time. */
	x->warmup_steady = rd->warmup_steady && !(ov && ov->warmup_s >= 0);
	x->warmup_round = 0;
	if (x->warmup_steady) {
		long nr = rd->warmup_round_s ?
				  whole_intervals(rd->warmup_round_s,
						  x->interval_s) :
				  1;

		if (nr < 1 || nw % nr || nw / nr < PARAMS_WARMUP_MIN_ROUNDS)
			return plan_err(p, rd->pos, err, errlen,
					"rd=%s: warmup=steady: a round of %g s and a maximum of %g s are not whole intervals of %g s and at least %d rounds",
					rd->name,
					rd->warmup_round_s ?
						rd->warmup_round_s :
						x->interval_s,
					x->warmup_s, x->interval_s,
					PARAMS_WARMUP_MIN_ROUNDS);
		x->warmup_round = (unsigned)nr;
	}
	return 0;
}

/* iorate=slo: the max phase, then the steps its search may need. */
static int slo_phases(const struct params_rd *rd,
		      const struct plan_phase *combo, struct plan_list *a)
{
	size_t max = a->n;
	unsigned k = slo_steps_max(rd->sloprecision_pct);
	struct plan_phase *x = plan_phase_add(a, combo);

	if (!x)
		return -ENOMEM;
	x->kind = PLAN_SLO_MAX;
	x->slo_steps = k;
	plan_name_add(x->name, " slo=max");
	for (unsigned i = 1; i <= k; i++) {
		x = plan_phase_add(a, combo);
		if (!x)
			return -ENOMEM;
		x->kind = PLAN_SLO_STEP;
		x->curve_max = (unsigned)max;
		x->slo_step = i;
		x->slo_steps = k;
		plan_name_add(x->name, " slo=step%u", i);
	}
	return 0;
}

/* The phases of one loop combination: per rate, or a whole curve. */
static int rate_phases(const struct params *p, const struct params_rd *rd,
		       const struct plan_phase *combo, struct plan_list *a)
{
	double fixed = 0, rates[PARAMS_LIST_MAX] = { 0 };
	size_t nrates = 1;
	struct plan_phase *x;

	/*
	 * Every wd at its own iorate=: one phase at their sum. Some wds with
	 * one beside others: params made the rd's rate fixed, and
	 * plan_wd_shares splits it.
	 */
	for (size_t w = 0; w < rd->nwd; w++)
		fixed += p->wd[rd->wd[w]].iorate;
	for (size_t w = 0; w < rd->nwd; w++)
		if (!(p->wd[rd->wd[w]].iorate > 0))
			fixed = 0;
	if (rd->iorate_kind == PARAMS_IORATE_CURVE && !fixed)
		return plan_curve_phases(rd, combo, a);
	if (rd->iorate_kind == PARAMS_IORATE_SLO && !fixed)
		return slo_phases(rd, combo, a);
	if (fixed) {
		rates[0] = fixed;
	} else if (rd->iorate_kind == PARAMS_IORATE_FIXED) {
		nrates = rd->niorate;
		memcpy(rates, rd->iorates, nrates * sizeof(rates[0]));
	}
	for (size_t i = 0; i < nrates; i++) {
		x = plan_phase_add(a, combo);
		if (!x)
			return -ENOMEM;
		x->iorate = rates[i];
		if (nrates > 1 && rates[i] > 0)
			plan_name_add(x->name, " iorate=%g", rates[i]);
		else if (nrates > 1)
			plan_name_add(x->name, " iorate=max");
	}
	return 0;
}

static int plan_rd(const struct params *p, const struct plan_overrides *ov,
		   unsigned r, struct plan_list *a, char *err, size_t errlen)
{
	const struct params_rd *rd = &p->rd[r];
	size_t idx[PARAMS_LOOP_NR] = { 0 };
	struct plan_phase base, *x;
	int ret;

	memset(&base, 0, sizeof(base));
	base.rd = r;
	snprintf(base.name, sizeof(base.name), "%s", rd->name);
	base.compratio = p->compratio;
	base.distribution = rd->distribution;
	base.pause_s = rd->pause_s;
	ret = rd_timing(p, rd, ov, &base, err, errlen);
	if (ret)
		return ret;
	if (rd->nfwd)
		return plan_fs_phases(p, rd, &base, a) ? -ENOMEM : 0;
	if (rd->format != PARAMS_FORMAT_NO) {
		x = plan_phase_add(a, &base);
		if (!x)
			goto full;
		plan_format_phase(p, rd, x);
	}
	/* validate=only: one pass that reads the working set and verifies. */
	if (rd->validate_only) {
		x = plan_phase_add(a, &base);
		if (!x)
			goto full;
		plan_format_phase(p, rd, x);
		memcpy(x->name, base.name, sizeof(x->name));
		plan_name_add(x->name, " validate");
		x->verify = true;
		x->format_bytes = 0;
		x->format_unsized = 0;
		return 0;
	}
	if (rd->format == PARAMS_FORMAT_ONLY)
		return 0;
	do {
		struct plan_phase combo = base;

		plan_loops_apply(rd, idx, &combo);
		if (rate_phases(p, rd, &combo, a))
			goto full;
	} while (plan_loops_next(rd, idx));
	return 0;
full:
	if (a->n == PLAN_PHASES_MAX)
		return plan_err(p, rd->pos, err, errlen,
				"rd=%s: its loops make more than %d phases",
				rd->name, PLAN_PHASES_MAX);
	return -ENOMEM;
}

int plan_phases(const struct params *p, const struct plan_overrides *ov,
		struct plan_phase **out, size_t *n, char *err, size_t errlen)
{
	struct plan_list a = { 0 };
	int ret = 0;

	for (size_t r = 0; !ret && r < p->nrd; r++)
		ret = plan_rd(p, ov, (unsigned)r, &a, err, errlen);
	if (!ret)
		ret = plan_validate_check(p, a.ph, a.n, err, errlen);
	if (!ret && !a.ph)
		a.ph = calloc(1, sizeof(*a.ph));
	if (!ret && !a.ph)
		ret = -ENOMEM;
	if (ret) {
		if (ret == -ENOMEM && err && errlen)
			snprintf(err, errlen, "%s: out of memory",
				 params_file(p, (struct params_pos){ 0 }));
		free(a.ph);
		return ret;
	}
	/* Pauses separate runs; nothing comes before the first one. */
	if (a.n)
		a.ph[0].pause_s = 0;
	*out = a.ph;
	*n = a.n;
	return 0;
}

double plan_total_seconds(const struct plan_phase *ph, size_t n)
{
	double t = 0;

	for (size_t i = 0; i < n; i++) {
		t += ph[i].pause_s;
		if (ph[i].kind != PLAN_FORMAT)
			t += (double)ph[i].intervals * ph[i].interval_s;
	}
	return t;
}

double plan_curve_rate(double max_iops, double pct)
{
	double r = max_iops * pct / 100, step;

	if (!(r > 0))
		return 0;
	step = r > 1000 ? 100 : 10;
	/* Up to the step, without turning 1000.0000001 into 1100. */
	return ceil(r / step - 1e-9) * step;
}

/* ---- resolved values -------------------------------------------------- */

unsigned plan_sd_threads(const struct params *p, const struct plan_phase *ph,
			 unsigned sd)
{
	const struct params_rd *rd = &p->rd[ph->rd];
	bool loop = ph->loops & (1u << PARAMS_LOOP_THREADS);

	if (ph->kind == PLAN_FORMAT || !p->concat)
		return ph->kind != PLAN_FORMAT && loop ? ph->threads :
							 p->sd[sd].threads;
	/* A concatenation's threads are its wd's, on its first sd. */
	for (size_t w = 0; w < rd->nwd; w++) {
		const struct params_wd *wd = &p->wd[rd->wd[w]];

		if (wd->nsd && wd->sd[0] == sd)
			return loop ? ph->threads : wd->threads;
	}
	return 0;
}

bool plan_host_in(const unsigned *host, size_t nhost, int hd)
{
	if (!nhost)
		return true;
	for (size_t i = 0; hd >= 0 && i < nhost; i++)
		if (host[i] == (unsigned)hd)
			return true;
	return false;
}

bool plan_sd_on_host(const struct params *p, unsigned sd, int hd)
{
	return plan_host_in(p->sd[sd].host, p->sd[sd].nhost, hd);
}

int plan_slave_hosts(const struct params *p, unsigned nlocal, int **slave_hd,
		     unsigned *n)
{
	unsigned total = 0, k = 0;
	int *h;

	for (size_t i = 0; i < p->nhd; i++)
		total += p->hd[i].slaves;
	if (!p->nhd)
		total = nlocal;
	h = malloc(sizeof(*h) * (total ? total : 1));
	if (!h)
		return -ENOMEM;
	for (size_t i = 0; i < p->nhd; i++)
		for (unsigned j = 0; j < p->hd[i].slaves; j++)
			h[k++] = (int)i;
	for (; k < total; k++)
		h[k] = -1;
	*slave_hd = h;
	*n = total;
	return 0;
}
