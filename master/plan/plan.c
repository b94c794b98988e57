/*
 * (Over 800 lines on purpose: a block rd's phases and a file-system
 * rd's share the loop, timing, curve and format helpers here; the
 * per-slave halves are plan_slave.c and plan_fs.c.)
 *
 * The planner, first half: parameters -> phases. Phases carry every value
 * a reader (and `lockstep check`) needs: timing, loops, curves, format
 * passes, resolved workload values. The per-slave plans are in
 * plan_slave.c. See plan.h.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/units.h"
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

/* ---- phases ----------------------------------------------------------- */

struct phases {
	struct plan_phase *ph;
	size_t n, cap;
};

/* A new phase, a copy of base; NULL when out of memory or phases. */
static struct plan_phase *phase_add(struct phases *a,
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

__attribute__((format(printf, 2, 3))) static void name_add(char *name,
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
		name_add(x->name, " operation=%s",
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
		name_add(x->name, " %s=%u", params_loop_name(k) + 3, *n);
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
			name_add(x->name, " totalsize=%g%%", -v);
			break;
		}
		if (k == PARAMS_LOOP_TOTAL)
			x->totalsize_pct = 0;
		*b = (uint64_t)v;
		name_add(x->name, " %s=%s",
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
		name_add(x->name, " xfersize=%s",
			 units_fmt_size(x->xfersize, sz, sizeof(sz)));
		break;
	case PARAMS_LOOP_RDPCT:
		x->rdpct = v;
		name_add(x->name, " rdpct=%g", v);
		break;
	case PARAMS_LOOP_SEEKPCT:
		x->seekpct = v;
		if (v == PARAMS_SEEK_EOF)
			name_add(x->name, " seekpct=eof");
		else
			name_add(x->name, " seekpct=%g", v);
		break;
	case PARAMS_LOOP_THREADS:
		x->threads = (unsigned)v;
		name_add(x->name, " threads=%u", x->threads);
		break;
	case PARAMS_LOOP_COMPRATIO:
		x->compratio = v;
		name_add(x->name, " compratio=%g", v);
		break;
	case PARAMS_LOOP_RHPCT:
		x->rhpct = v;
		name_add(x->name, " rhpct=%g", v);
		break;
	case PARAMS_LOOP_WHPCT:
		x->whpct = v;
		name_add(x->name, " whpct=%g", v);
		break;
	case PARAMS_LOOP_HITAREA:
		x->hitarea = (uint64_t)v;
		name_add(x->name, " hitarea=%s",
			 units_fmt_size(x->hitarea, sz, sizeof(sz)));
		break;
	default:
		fs_loop_apply(x, k, v);
		break;
	}
}

/* The loops' values at odometer position idx, into x. */
static void loops_apply(const struct params_rd *rd, const size_t *idx,
			struct plan_phase *x)
{
	for (size_t l = 0; l < rd->nloop; l++)
		loop_apply(x, rd->loop[l].kind, rd->loop[l].val[idx[l]]);
}

/*
 * An odometer over the loops, the last one given turning fastest: 1 with
 * idx at the next position, 0 past the last.
 */
static int loops_next(const struct params_rd *rd, size_t *idx)
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

/* The format phase of rd: its bytes and an upper bound on its time. */
static void format_phase(const struct params *p, const struct params_rd *rd,
			 struct plan_phase *x)
{
	long n = (long)ceil(PLAN_FORMAT_BOUND_S / x->interval_s);

	x->kind = PLAN_FORMAT;
	name_add(x->name, " format");
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
		      const struct plan_phase *combo, struct phases *a)
{
	size_t max = a->n;
	unsigned k = slo_steps_max(rd->sloprecision_pct);
	struct plan_phase *x = phase_add(a, combo);

	if (!x)
		return -ENOMEM;
	x->kind = PLAN_SLO_MAX;
	x->slo_steps = k;
	name_add(x->name, " slo=max");
	for (unsigned i = 1; i <= k; i++) {
		x = phase_add(a, combo);
		if (!x)
			return -ENOMEM;
		x->kind = PLAN_SLO_STEP;
		x->curve_max = (unsigned)max;
		x->slo_step = i;
		x->slo_steps = k;
		name_add(x->name, " slo=step%u", i);
	}
	return 0;
}

/*
 * iorate=curve or fwdrate=curve: the max phase, then a point per curve=
 * percentage (Vdbench's RD_entry.insertCurveRuns); the conductor gives a
 * point its share of the max phase's measured rate.
 */
static int curve_phases(const struct params_rd *rd,
			const struct plan_phase *combo, struct phases *a)
{
	size_t max = a->n;
	struct plan_phase *x = phase_add(a, combo);

	if (!x)
		return -ENOMEM;
	x->kind = PLAN_CURVE_MAX;
	x->stopcurve_ms = rd->stopcurve_ms;
	name_add(x->name, " curve=max");
	for (size_t i = 0; i < rd->ncurve; i++) {
		x = phase_add(a, combo);
		if (!x)
			return -ENOMEM;
		x->kind = PLAN_CURVE_POINT;
		x->curve_pct = rd->curve[i];
		x->curve_max = (unsigned)max;
		x->stopcurve_ms = rd->stopcurve_ms;
		name_add(x->name, " curve=%g%%", rd->curve[i]);
	}
	return 0;
}

/* The phases of one loop combination: per rate, or a whole curve. */
static int rate_phases(const struct params *p, const struct params_rd *rd,
		       const struct plan_phase *combo, struct phases *a)
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
		return curve_phases(rd, combo, a);
	if (rd->iorate_kind == PARAMS_IORATE_SLO && !fixed)
		return slo_phases(rd, combo, a);
	if (fixed) {
		rates[0] = fixed;
	} else if (rd->iorate_kind == PARAMS_IORATE_FIXED) {
		nrates = rd->niorate;
		memcpy(rates, rd->iorates, nrates * sizeof(rates[0]));
	}
	for (size_t i = 0; i < nrates; i++) {
		x = phase_add(a, combo);
		if (!x)
			return -ENOMEM;
		x->iorate = rates[i];
		if (nrates > 1 && rates[i] > 0)
			name_add(x->name, " iorate=%g", rates[i]);
		else if (nrates > 1)
			name_add(x->name, " iorate=max");
	}
	return 0;
}

/* " format" then "", "=restart", "=(restart,directories)", ... */
static void fs_format_name(const struct params_rd *rd, char *name)
{
	const char *w[3];
	int n = 0;

	if (rd->format == PARAMS_FORMAT_RESTART ||
	    rd->format == PARAMS_FORMAT_RESTART_ONLY)
		w[n++] = "restart";
	else if (rd->format == PARAMS_FORMAT_CLEAN)
		w[n++] = "clean";
	if (rd->format_dirs)
		w[n++] = "directories";
	if (rd->format_limited)
		w[n++] = "limited";
	if (n == 1)
		name_add(name, "=%s", w[0]);
	else if (n == 2)
		name_add(name, "=(%s,%s)", w[0], w[1]);
	else if (n == 3)
		name_add(name, "=(%s,%s,%s)", w[0], w[1], w[2]);
}

/*
 * The run phases of an fwd= rd's loop combination: one at fwdrate= (0 =
 * max), or fwdrate=curve's (curve_phases; the point's rate is its share
 * of the max phase's requested operations' rate, master/run/skip.c).
 */
static int fs_rate_phases(const struct params_rd *rd,
			  const struct plan_phase *combo, struct phases *a)
{
	struct plan_phase *x;

	if (rd->fwdrate_curve)
		return curve_phases(rd, combo, a);
	x = phase_add(a, combo);
	if (!x)
		return -ENOMEM;
	x->iorate = rd->fwdrate;
	return 0;
}

/*
 * The format phase of an rd with fwd=: format=yes, only and restart make
 * the trees (directories: the folders only), clean deletes them. Sized
 * as a block format phase, but format=(only,limited): the rd's elapsed=
 * (Vdbench's setFormatOperation gives a limited format the rd's elapsed,
 * any other none), the slave's format stopped at its end being done.
 */
static int fs_format_phase(const struct params *p, const struct params_rd *rd,
			   const struct plan_phase *base, struct phases *a)
{
	struct plan_phase *x = phase_add(a, base);

	if (!x)
		return -1;
	format_phase(p, rd, x);
	x->fs_format_flags = 0;
	if (rd->format_dirs)
		x->fs_format_flags |= PROTO_FSFMT_DIRS;
	if (rd->format_limited) {
		x->fs_format_flags |= PROTO_FSFMT_LIMITED;
		x->intervals = base->intervals - base->warmup_intervals;
		x->elapsed_s = base->elapsed_s;
	}
	x->fs_format = rd->format == PARAMS_FORMAT_RESTART ||
				       rd->format ==
					       PARAMS_FORMAT_RESTART_ONLY ?
			       PROTO_FSFMT_RESTART :
		       rd->format == PARAMS_FORMAT_CLEAN ? PROTO_FSFMT_CLEAN :
							   PROTO_FSFMT_YES;
	fs_format_name(rd, x->name);
	return 0;
}

/* Whether rd formats a tree per value of a tree loop (fs_tree_phases). */
static bool fs_tree_formats(const struct params_rd *rd)
{
	if (rd->format != PARAMS_FORMAT_YES && rd->format != PARAMS_FORMAT_ONLY)
		return false;
	for (size_t l = 0; l < rd->nloop; l++)
		if (rd->loop[l].kind >= PARAMS_LOOP_DEPTH &&
		    rd->loop[l].kind <= PARAMS_LOOP_TOTAL)
			return true;
	return false;
}

/* Whether phases a and b of one rd make trees of one shape (the marker's). */
static bool fs_same_shape(const struct plan_phase *a,
			  const struct plan_phase *b)
{
	return a->depth == b->depth && a->width == b->width &&
	       a->files == b->files && a->fsize == b->fsize;
}

/* A format=clean phase of the trees combo's values say, into a. */
static int fs_clean_add(const struct params *p, const struct params_rd *rd,
			const struct plan_phase *combo, struct phases *a)
{
	struct plan_phase *x = phase_add(a, combo);

	if (!x)
		return -1;
	format_phase(p, rd, x);
	x->fs_format = PROTO_FSFMT_CLEAN;
	x->fs_format_flags = 0;
	name_add(x->name, "=clean");
	return 0;
}

/*
 * format=yes or only with a tree loop (fordepth=, forwidth=, forfiles=,
 * forsizes=, fortotal=): Vdbench's buildNewRdListForFwd formats before
 * each combination (insertFwdFormatIfNeeded, with the combination's
 * values), and so does lockstep (fs_format_phase; format=once is
 * refused with a tree loop: each tree needs its format). A tree of
 * another shape is first cleaned as the last
 * one was made (a format=clean phase with its values): the slave's
 * format refuses a marker of another shape, and its clean removes only
 * what that marker's tree names (slave/anchor.c), never anything else.
 */
static int fs_tree_phases(const struct params *p, const struct params_rd *rd,
			  const struct plan_phase *base, struct phases *a)
{
	size_t idx[PARAMS_LOOP_NR] = { 0 };
	struct plan_phase last;
	bool made = false;

	do {
		struct plan_phase combo = *base;

		/*
		 * A format phase is named as the run it comes before (and a
		 * clean as the run after the tree it cleans): with a tree
		 * loop inside another, the tree's values alone come again.
		 */
		loops_apply(rd, idx, &combo);
		if (made && !fs_same_shape(&last, &combo) &&
		    fs_clean_add(p, rd, &last, a))
			return -1;
		if (fs_format_phase(p, rd, &combo, a))
			return -1;
		last = combo;
		made = true;
		if (rd->format == PARAMS_FORMAT_ONLY)
			continue;
		if (fs_rate_phases(rd, &combo, a))
			return -1;
	} while (loops_next(rd, idx));
	return 0;
}

/*
 * An rd with fwd=: for each combination of its for-loops (an odometer,
 * the last loop given turning fastest, as for wds; one without loops) a
 * format phase when format= asks for one, then, but for only and clean,
 * the fwds at fwdrate=. Vdbench's buildNewRdListForFwd inserts the
 * format before every combination; format=once (FormatFlags'
 * one_format_done) only before the first. (no,complete): no format, the
 * runs take the trees as complete. With a tree loop and format=yes or
 * only, fs_tree_phases.
 */
static int fs_phases(const struct params *p, const struct params_rd *rd,
		     struct plan_phase *base, struct phases *a)
{
	size_t idx[PARAMS_LOOP_NR] = { 0 }, n0;
	bool first = true;

	base->fs = true;
	/* validate=only: one pass reading every file once (plan_fs.c). */
	if (rd->validate_only) {
		struct plan_phase *x = phase_add(a, base);

		if (!x)
			return -1;
		format_phase(p, rd, x);
		memcpy(x->name, base->name, sizeof(x->name));
		name_add(x->name, " validate");
		x->verify = true;
		x->format_bytes = 0;
		x->format_unsized = 0;
		x->fs_format = PROTO_FSFMT_NONE;
		x->fs_format_flags = 0;
		return 0;
	}
	if (fs_tree_formats(rd))
		return fs_tree_phases(p, rd, base, a);
	/* The for-loops (fs_rd.c fs_loops): a run phase per value. */
	do {
		struct plan_phase combo = *base;

		loops_apply(rd, idx, &combo);
		/* A clean after a clean has nothing left to delete. */
		if (rd->format != PARAMS_FORMAT_NO &&
		    (first ||
		     (!rd->format_once && rd->format != PARAMS_FORMAT_CLEAN)) &&
		    fs_format_phase(p, rd, rd->format_once ? base : &combo, a))
			return -1;
		first = false;
		if (rd->format == PARAMS_FORMAT_ONLY ||
		    rd->format == PARAMS_FORMAT_RESTART_ONLY ||
		    rd->format == PARAMS_FORMAT_CLEAN)
			continue;
		n0 = a->n;
		if (fs_rate_phases(rd, &combo, a))
			return -1;
		for (size_t i = n0; rd->format_complete && i < a->n; i++)
			a->ph[i].fs_format_flags = PROTO_FSFMT_COMPLETE;
	} while (loops_next(rd, idx));
	return 0;
}

static int plan_rd(const struct params *p, const struct plan_overrides *ov,
		   unsigned r, struct phases *a, char *err, size_t errlen)
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
		return fs_phases(p, rd, &base, a) ? -ENOMEM : 0;
	if (rd->format != PARAMS_FORMAT_NO) {
		x = phase_add(a, &base);
		if (!x)
			goto full;
		format_phase(p, rd, x);
	}
	/* validate=only: one pass that reads the working set and verifies. */
	if (rd->validate_only) {
		x = phase_add(a, &base);
		if (!x)
			goto full;
		format_phase(p, rd, x);
		memcpy(x->name, base.name, sizeof(x->name));
		name_add(x->name, " validate");
		x->verify = true;
		x->format_bytes = 0;
		x->format_unsized = 0;
		return 0;
	}
	if (rd->format == PARAMS_FORMAT_ONLY)
		return 0;
	do {
		struct plan_phase combo = base;

		loops_apply(rd, idx, &combo);
		if (rate_phases(p, rd, &combo, a))
			goto full;
	} while (loops_next(rd, idx));
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
	struct phases a = { 0 };
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
