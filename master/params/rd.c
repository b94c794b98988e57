/*
 * rd= (run) definitions: the wds a run runs, its rates (a fixed rate, max,
 * a list of rates, a curve, or a search for a latency objective), durations, format=, the arrival
 * distribution and the for*= loops; and the checks on a finished rd= that
 * need all of it at once (elapsed= against interval=, how the wds share the
 * rate).
 */
#include "master/params/params_int.h"
#include "common/units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int rd_set_wd(struct parser *p, const struct kw *kw, void *obj,
	      const struct item *it)
{
	struct params_rd *rd = obj;

	return params_set_refs(p, kw, it, KIND_WD, rd->wd, &rd->nwd);
}

/*
 * iorate=max, iorate=curve, iorate=slo, iorate=N or iorate=(N,M,...): one
 * phase each.
 */
int rd_set_iorate(struct parser *p, const struct kw *kw, void *obj,
		  const struct item *it)
{
	struct params_rd *rd = obj;
	int ret;

	rd->iorate_pos = it->kpos;
	rd->iorate = 0;
	rd->niorate = 0;
	if (it->nval == 1 && val_is(&it->val[0], "curve")) {
		rd->iorate_kind = PARAMS_IORATE_CURVE;
		return 0;
	}
	if (it->nval == 1 && val_is(&it->val[0], "slo")) {
		rd->iorate_kind = PARAMS_IORATE_SLO;
		return 0;
	}
	ret = values_expand(p, kw, it, &values_num_iorate, rd->iorates,
			    &rd->niorate);
	if (ret)
		return ret;
	for (size_t i = 0; i < rd->niorate; i++)
		if (rd->iorates[i] == IORATE_MAX_MARK)
			rd->iorates[i] = 0;
	rd->iorate = rd->iorates[0];
	rd->iorate_kind = PARAMS_IORATE_FIXED;
	if (rd->niorate == 1 && rd->iorate == 0) {
		rd->iorate_kind = PARAMS_IORATE_MAX;
		rd->niorate = 0;
	}
	return 0;
}

int rd_set_openflags(struct parser *p, const struct kw *kw, void *obj,
		     const struct item *it)
{
	struct params_rd *rd = obj;

	rd->openflags_set = true;
	rd->openflags_pos = it->kpos;
	return sd_parse_openflags(p, kw, it, &rd->openflags);
}

int rd_set_curve(struct parser *p, const struct kw *kw, void *obj,
		 const struct item *it)
{
	struct params_rd *rd = obj;

	return values_expand(p, kw, it, &values_num_curve, rd->curve,
			     &rd->ncurve);
}

/*
 * warmup=SECONDS (Vdbench's meaning) or warmup=steady, (steady,MAX),
 * (steady,MAX,ROUND); rd_finish() checks them against interval=.
 */
int rd_set_warmup(struct parser *p, const struct kw *kw, void *obj,
		  const struct item *it)
{
	struct params_rd *rd = obj;
	int ret;

	rd->warmup_s = 0;
	rd->warmup_round_s = 0;
	rd->warmup_steady = it->nval && val_is(&it->val[0], "steady");
	if (!rd->warmup_steady) {
		const struct val *v = values_single(p, kw, it);

		return v ? values_seconds(p, kw, v, &rd->warmup_s) : -EINVAL;
	}
	if (it->nval > 3)
		return perr(p, it->val[3].pos,
			    "warmup=(steady,MAX,ROUND) takes at most a maximum and a round length");
	ret = it->nval > 1 ? values_seconds(p, kw, &it->val[1], &rd->warmup_s) :
			     0;
	if (!ret && it->nval > 1)
		ret = values_positive(p, kw, &it->val[1], rd->warmup_s,
				      " seconds");
	if (!ret && it->nval > 2)
		ret = values_seconds(p, kw, &it->val[2], &rd->warmup_round_s);
	if (!ret && it->nval > 2)
		ret = values_positive(p, kw, &it->val[2], rd->warmup_round_s,
				      " seconds");
	return ret;
}

int rd_set_stopcurve(struct parser *p, const struct kw *kw, void *obj,
		     const struct item *it)
{
	struct params_rd *rd = obj;

	return values_read_positive(p, kw, it, &rd->stopcurve_ms,
				    " (milliseconds)");
}

/*
 * The latency of slo=: a number and its unit (us, ms or s), in ms. The
 * unit is required: "2" could be read as 2 ms or 2 s, and a wrong guess
 * would search for an objective nobody asked for.
 */
static int slo_latency(const char *s, double *ms)
{
	static const struct {
		const char *unit;
		double ms;
	} units[] = { { "us", 1e-3 }, { "ms", 1 }, { "s", 1e3 } };
	char *end;
	double x;

	errno = 0;
	x = strtod(s, &end);
	if (errno || end == s || !isfinite(x) || !(x > 0) || *s == '+' ||
	    *s == '-')
		return -EINVAL;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcasecmp(end, units[i].unit)) {
			*ms = x * units[i].ms;
			return 0;
		}
	return -EINVAL;
}

/* slo=p99:2ms, p99.9:500us, p50:1ms or mean:1ms. */
int rd_set_slo(struct parser *p, const struct kw *kw, void *obj,
	       const struct item *it)
{
	struct params_rd *rd = obj;
	const struct val *v = values_single(p, kw, it);
	char buf[64], *colon, *end;
	double pct = PARAMS_SLO_MEAN;

	if (!v)
		return -EINVAL;
	if (!cstr(v, buf, sizeof(buf)) || !(colon = strchr(buf, ':')))
		return perr(p, v->pos,
			    "%s=%.*s is not pPERCENTILE:LATENCY or mean:LATENCY (slo=p99:2ms)",
			    kw->name, show(v->len), v->s);
	*colon = '\0';
	if ((buf[0] == 'p' || buf[0] == 'P') &&
	    isdigit((unsigned char)buf[1])) {
		errno = 0;
		pct = strtod(buf + 1, &end);
		if (errno || *end || !(pct > 0 && pct < 100))
			return perr(p, v->pos,
				    "%s=%.*s: %s is not a percentile above p0 and below p100 (p50, p99, p99.9)",
				    kw->name, show(v->len), v->s, buf);
	} else if (strcasecmp(buf, "mean")) {
		return perr(p, v->pos,
			    "%s=%.*s: %s is not a percentile (p50, p99, p99.9) or mean",
			    kw->name, show(v->len), v->s, buf);
	}
	if (slo_latency(colon + 1, &rd->slo_ms)) {
		struct params_pos at = v->pos;

		at.col += (unsigned)(colon + 1 - buf);
		return perr(p, at,
			    "%s=%.*s: %s is not a latency above 0 with its unit (us, ms or s)",
			    kw->name, show(v->len), v->s, colon + 1);
	}
	rd->slo_pct = pct;
	return 0;
}

/*
 * format=: one word or Vdbench's list of them (FormatFlags): no anywhere
 * means no format; yes, only, restart and clean combine, clean meaning
 * only (Vdbench's rule): (yes,only) is only, (restart,only) restart with
 * no run, (clean,only) clean. once, directories and limited add to the
 * format asked (fwd= runs, fs.c checks); complete goes with no, as
 * Vdbench's (no,complete): complete with a format is refused (Vdbench's
 * "'format=yes' and 'format=complete' are mutually exclusive"), and so is
 * limited without only (Vdbench's rule).
 */
int rd_set_format(struct parser *p, const struct kw *kw, void *obj,
		  const struct item *it)
{
	struct params_rd *rd = obj;
	bool only = false, restart = false, clean = false, no = false;
	const struct val *limited = NULL, *dirs = NULL, *complete = NULL;

	rd->format_pos = it->kpos;
	rd->format = PARAMS_FORMAT_NO;
	rd->format_once = rd->format_dirs = false;
	rd->format_limited = rd->format_complete = false;
	if (!it->nval)
		return values_single(p, kw, it) ? 0 : -EINVAL;
	for (size_t i = 0; i < it->nval; i++) {
		const struct val *v = &it->val[i];

		if (val_is(v, "no"))
			no = true;
		else if (val_is(v, "only"))
			only = true;
		else if (val_is(v, "restart"))
			restart = true;
		else if (val_is(v, "clean"))
			clean = only = true;
		else if (val_is(v, "once"))
			rd->format_once = true;
		else if (val_is(v, "directories"))
			dirs = v;
		else if (val_is(v, "limited"))
			limited = v;
		else if (val_is(v, "complete"))
			complete = v;
		else if (!val_is(v, "yes"))
			return perr(p, v->pos,
				    "%s=%.*s is not yes, only or no (or restart, clean, once, directories, limited or complete with fwd=)",
				    kw->name, show(v->len), v->s);
	}
	rd->format_complete = complete != NULL;
	if (no) {
		rd->format_once = false;
		return 0;
	}
	if (complete)
		return perr(p, complete->pos,
			    "%s=%.*s: complete says the trees are already formatted, so it goes with no: give format=(no,complete) (Vdbench's rule: format=yes and format=complete are mutually exclusive)",
			    kw->name, show(it->rawlen), it->raw);
	if (limited && !only)
		return perr(p, limited->pos,
			    "%s=%.*s: limited needs only: give format=(only,limited) (Vdbench's rule; the format stops at elapsed= and nothing runs after it)",
			    kw->name, show(it->rawlen), it->raw);
	if (clean && restart)
		return perr(p, it->vpos,
			    "%s=%.*s: clean deletes the trees and stops, restart makes them: give one",
			    kw->name, show(it->rawlen), it->raw);
	if (clean && dirs)
		return perr(p, dirs->pos,
			    "%s=%.*s: clean deletes the trees and makes nothing: directories means nothing with it",
			    kw->name, show(it->rawlen), it->raw);
	rd->format_dirs = dirs != NULL;
	rd->format_limited = limited != NULL;
	rd->format = clean           ? PARAMS_FORMAT_CLEAN :
		     restart && only ? PARAMS_FORMAT_RESTART_ONLY :
		     restart         ? PARAMS_FORMAT_RESTART :
		     only            ? PARAMS_FORMAT_ONLY :
				       PARAMS_FORMAT_YES;
	return 0;
}

/* validate=only: the rd is one pass that reads and verifies its sds. */
int rd_set_validate(struct parser *p, const struct kw *kw, void *obj,
		    const struct item *it)
{
	struct params_rd *rd = obj;
	const struct val *v = values_single(p, kw, it);

	if (!v)
		return -EINVAL;
	rd->validate_pos = v->pos;
	if (val_is(v, "only"))
		rd->validate_only = true;
	else if (val_is(v, "no"))
		rd->validate_only = false;
	else
		return perr(p, v->pos,
			    "%s=%.*s is not only or no (validate=yes is a general parameter)",
			    kw->name, show(v->len), v->s);
	return 0;
}

int rd_set_distribution(struct parser *p, const struct kw *kw, void *obj,
			const struct item *it)
{
	static const struct {
		const char *word, *abbrev;
		enum params_dist d;
	} dists[] = {
		{ "exponential", "e", PARAMS_DIST_EXPONENTIAL },
		{ "uniform", "u", PARAMS_DIST_UNIFORM },
		{ "deterministic", "d", PARAMS_DIST_DETERMINISTIC },
	};
	struct params_rd *rd = obj;
	bool got = false;

	for (size_t i = 0; i < it->nval; i++) {
		const struct val *v = &it->val[i];
		size_t j;

		if (val_is(v, "variable") || val_is(v, "spike"))
			return perr(p, v->pos,
				    "%s=%.*s is not supported: lockstep runs one rate per phase (use iorate=(a,b,...))",
				    kw->name, show(v->len), v->s);
		for (j = 0; j < sizeof(dists) / sizeof(dists[0]); j++)
			if (val_is(v, dists[j].word) ||
			    val_is(v, dists[j].abbrev))
				break;
		if (j == sizeof(dists) / sizeof(dists[0]) || got)
			return perr(p, v->pos,
				    "%s=%.*s is not exponential, uniform or deterministic",
				    kw->name, show(v->len), v->s);
		rd->distribution = dists[j].d;
		got = true;
	}
	return 0;
}

/* forxfersize= and its kin: kw->off is the enum params_loop_kind. */
int rd_set_loop(struct parser *p, const struct kw *kw, void *obj,
		const struct item *it)
{
	struct params_rd *rd = obj;
	enum params_loop_kind k = (enum params_loop_kind)kw->off;
	size_t i;

	/* A loop the rd=default line gave keeps its place in the order. */
	for (i = 0; i < rd->nloop && rd->loop[i].kind != k; i++)
		;
	if (i == rd->nloop)
		rd->nloop++;
	rd->loop[i].kind = k;
	rd->loop[i].pos = it->kpos;
	return values_expand(p, kw, it, &values_num_loop[k], rd->loop[i].val,
			     &rd->loop[i].n);
}

static bool is_multiple(double a, double b)
{
	double q = a / b;

	return fabs(q - nearbyint(q)) <= 1e-9 * fmax(1, q);
}

/* Where a value of the current definition came from, for messages. */
static struct params_pos src_pos(struct parser *p, const char *kwname)
{
	struct params_pos pos = params_from(p, kwname);

	return pos.line ? pos : p->dpos;
}

/*
 * maxdata=: up to PARAMS_MAXDATA_TIMES a multiple of the size of the sds
 * the rd uses (any number, 2.5 too), above it bytes, with units.
 */
int rd_set_maxdata(struct parser *p, const struct kw *kw, void *obj,
		   const struct item *it)
{
	struct params_rd *rd = obj;
	const struct val *v = values_single(p, kw, it);
	char buf[64];
	uint64_t bytes;
	double x;

	if (!v)
		return -EINVAL;
	rd->maxdata_pos = v->pos;
	if (cstr(v, buf, sizeof(buf)) && !units_parse_number(buf, &x) &&
	    x > 0 && x <= PARAMS_MAXDATA_TIMES) {
		rd->maxdata = x;
		return 0;
	}
	if (values_size(p, kw, v, &bytes))
		return -EINVAL;
	if ((double)bytes <= PARAMS_MAXDATA_TIMES)
		return perr(p, v->pos,
			    "%s=%.*s must be more than 0 (up to %.0f: times the sds' size; above: bytes)",
			    kw->name, show(v->len), v->s, PARAMS_MAXDATA_TIMES);
	rd->maxdata = (double)bytes;
	return 0;
}

/*
 * A wd with streams= runs alone in its rd, and every sd's threads (or
 * each forthreads= value) are a multiple of its streams: Vdbench's rules,
 * each stream keeping threads/streams I/Os in flight. forseekpct= would
 * change nothing: every I/O of a stream is sequential.
 */
static int check_rd_streams(struct parser *p, const struct params_rd *rd)
{
	const struct params_wd *wd = NULL;
	const struct params_loop *th = NULL;

	for (size_t i = 0; i < rd->nwd; i++)
		if (p->out->wd[rd->wd[i]].streams)
			wd = &p->out->wd[rd->wd[i]];
	if (!wd)
		return 0;
	if (rd->nwd > 1)
		return perr(p, src_pos(p, "wd"),
			    "rd=%s: wd=%s has streams=, and Vdbench allows only one wd in a run with streams",
			    rd->name, wd->name);
	for (size_t i = 0; i < rd->nloop; i++) {
		if (rd->loop[i].kind == PARAMS_LOOP_SEEKPCT)
			return perr(p, rd->loop[i].pos,
				    "rd=%s: forseekpct= does not apply to wd=%s, whose streams= make every I/O sequential",
				    rd->name, wd->name);
		if (rd->loop[i].kind == PARAMS_LOOP_THREADS)
			th = &rd->loop[i];
	}
	for (size_t i = 0; th && i < th->n; i++)
		if (fmod(th->val[i], wd->streams) != 0)
			return perr(p, th->pos,
				    "rd=%s: forthreads= value %g is not a multiple of wd=%s's streams=%u (Vdbench's rule)",
				    rd->name, th->val[i], wd->name,
				    wd->streams);
	for (size_t k = 0; !th && k < wd->nsd; k++) {
		const struct params_sd *sd = &p->out->sd[wd->sd[k]];

		if (sd->threads % wd->streams)
			return perr(p, wd->streams_pos,
				    "wd=%s: streams=%u, and sd=%s has threads=%u, not a multiple of it (Vdbench's rule)",
				    wd->name, wd->streams, sd->name,
				    sd->threads);
	}
	return 0;
}

/*
 * concatenatesds=yes (Vdbench's ConcatSds.checkForWdThreads): each wd of
 * the rd needs threads= unless the rd has forthreads=; forrhpct=,
 * forwhpct= and forhitarea= are refused as their keywords are; and an sd
 * is in one wd's concatenation of an rd (lockstep's limit: Vdbench gives
 * each wd a concatenation of its own, threads and all).
 */
static int check_rd_concat(struct parser *p, const struct params_rd *rd)
{
	const struct params *pa = p->out;
	bool th = false;

	for (size_t i = 0; pa->concat && i < rd->nloop; i++) {
		enum params_loop_kind k = rd->loop[i].kind;

		th |= k == PARAMS_LOOP_THREADS;
		if (k == PARAMS_LOOP_RHPCT || k == PARAMS_LOOP_WHPCT ||
		    k == PARAMS_LOOP_HITAREA)
			return perr(p, rd->loop[i].pos,
				    "rd=%s: %s= is not supported with concatenatesds=yes",
				    rd->name, params_loop_name(k));
	}
	for (size_t i = 0; pa->concat && i < rd->nwd; i++) {
		const struct params_wd *wd = &pa->wd[rd->wd[i]];

		if (!th && !wd->threads)
			return perr(p, wd->pos,
				    "wd=%s: for sd concatenation each wd needs threads= (Vdbench's rule), unless its rd=%s gives forthreads=",
				    wd->name, rd->name);
		for (size_t j = 0; j < i; j++) {
			const struct params_wd *o = &pa->wd[rd->wd[j]];

			for (size_t a = 0; a < wd->nsd; a++)
				for (size_t b = 0; b < o->nsd; b++)
					if (wd->sd[a] == o->sd[b])
						return perr(p, src_pos(p, "wd"),
							    "rd=%s: sd=%s is in the concatenations of wd=%s and wd=%s: lockstep runs an sd in one concatenation per rd",
							    rd->name,
							    pa->sd[wd->sd[a]]
								    .name,
							    o->name, wd->name);
		}
	}
	return 0;
}

/*
 * Vdbench's priority= rules (WD_entry.checkPriorities, and
 * FifoList.countPriorities on the master): once a wd of the rd has a
 * priority=, or fixed-rate wds run beside shared ones, every wd has one,
 * each different, 1..N, and those with iorate= come before (lower) those
 * without.
 */
static int check_rd_priorities(struct parser *p, const struct params_rd *rd,
			       bool mixed)
{
	const struct params_wd *given = NULL,
			       *seen[PARAMS_LIST_MAX + 1] = { NULL };
	const struct params_wd *first_shared = NULL;

	for (size_t i = 0; i < rd->nwd; i++)
		if (p->out->wd[rd->wd[i]].priority)
			given = &p->out->wd[rd->wd[i]];
	if (!given && !mixed)
		return 0;
	for (size_t i = 0; i < rd->nwd; i++) {
		const struct params_wd *wd = &p->out->wd[rd->wd[i]];

		if (!wd->priority && wd->iorate > 0)
			return perr(p, wd->iorate_pos,
				    "wd=%s has iorate= beside wds without one in rd=%s: it needs priority= too (Vdbench's rule)",
				    wd->name, rd->name);
		if (!wd->priority)
			return perr(p, given ? given->priority_pos : p->dpos,
				    "rd=%s: wd=%s has priority= and wd=%s has none: give every wd of the rd a different one (Vdbench's rule)",
				    rd->name, given ? given->name : "",
				    wd->name);
		if (wd->priority > rd->nwd)
			return perr(p, wd->priority_pos,
				    "wd=%s: priority=%u, and rd=%s has %zu wds: their priorities are 1 to %zu, one each (Vdbench's rule)",
				    wd->name, wd->priority, rd->name, rd->nwd,
				    rd->nwd);
		if (seen[wd->priority])
			return perr(p, wd->priority_pos,
				    "wd=%s has priority=%u, as wd=%s in rd=%s: give every wd of the rd a different one (Vdbench's rule)",
				    wd->name, wd->priority,
				    seen[wd->priority]->name, rd->name);
		seen[wd->priority] = wd;
	}
	/* N different values in 1..N: every one is there. */
	for (unsigned k = 1; k <= rd->nwd; k++) {
		const struct params_wd *wd = seen[k];

		if (wd->iorate > 0 && first_shared)
			return perr(p, wd->priority_pos,
				    "wd=%s has iorate= and priority=%u, after wd=%s without iorate= (priority=%u): in rd=%s the wds with iorate= come first (Vdbench's rule)",
				    wd->name, k, first_shared->name,
				    first_shared->priority, rd->name);
		if (!(wd->iorate > 0) && !first_shared)
			first_shared = wd;
	}
	return diag_warn(p, given ? given->priority_pos : p->dpos,
			 "rd=%s: priority= orders Vdbench's queued I/O; lockstep's slaves serve a backlog of I/O in arrival order, whatever the priority of its wd",
			 rd->name);
}

/*
 * The wds of a run share its I/O rate by skew= (as in Vdbench, those
 * without one split what the others leave), or all run at their own
 * iorate=, or (Vdbench's rule, with priority=) the ones with iorate= run
 * at it and the others share what the rd's fixed rate leaves.
 */
static int check_rd_rates(struct parser *p, const struct params_rd *rd)
{
	const struct params_wd *fixed = NULL, *shared = NULL;
	double given = 0, sum = 0;
	size_t unset = 0;
	int ret;

	for (size_t i = 0; i < rd->nwd; i++) {
		const struct params_wd *wd = &p->out->wd[rd->wd[i]];

		if (wd->iorate > 0) {
			fixed = wd;
			sum += wd->iorate;
			continue;
		}
		shared = wd;
		if (wd->skew > 0)
			given += wd->skew;
		else
			unset++;
	}
	ret = check_rd_priorities(p, rd, fixed && shared);
	if (ret)
		return ret;
	if (fixed && !shared && rd->iorate_kind != PARAMS_IORATE_MAX)
		return perr(p, rd->iorate_pos.line ? rd->iorate_pos : p->dpos,
			    "rd=%s has iorate= but its wds have their own iorate=: drop one of them",
			    rd->name);
	if (fixed && shared && rd->iorate_kind != PARAMS_IORATE_FIXED)
		return perr(p, rd->iorate_pos.line ? rd->iorate_pos : p->dpos,
			    "rd=%s: iorate=%s beside wd=%s's own iorate= is not supported (lockstep's slaves keep one schedule per worker): give the rd a fixed iorate=",
			    rd->name,
			    rd->iorate_kind == PARAMS_IORATE_CURVE ? "curve" :
			    rd->iorate_kind == PARAMS_IORATE_SLO   ? "slo" :
								     "max",
			    fixed->name);
	for (size_t i = 0; fixed && shared && i < rd->niorate; i++)
		if (!(rd->iorates[i] > sum))
			return perr(p, rd->iorate_pos,
				    "rd=%s: iorate=%g leaves nothing for wd=%s: its wds with iorate= take %g",
				    rd->name, rd->iorates[i], shared->name,
				    sum);
	if (!shared)
		return 0;
	if (given > 100 + 1e-6 || (!unset && fabs(given - 100) > 1e-6))
		return perr(p, p->dpos,
			    "rd=%s: the skew= of its wds add up to %g, not 100",
			    rd->name, given);
	if (unset && given > 100 - 1e-6)
		return perr(p, p->dpos,
			    "rd=%s: the skew= of its wds add up to 100 and leave nothing for the %zu without one",
			    rd->name, unset);
	return 0;
}

/*
 * A slave opens an sd once (Vdbench too): two wds of the rd that give one
 * sd different openflags= would need two opens; Vdbench silently takes the
 * last one. The rd's own openflags= replaces them all.
 */
static int check_rd_openflags(struct parser *p, const struct params_rd *rd)
{
	if (rd->openflags_set)
		return 0;
	for (size_t i = 0; i < rd->nwd; i++) {
		const struct params_wd *a = &p->out->wd[rd->wd[i]];

		for (size_t j = 0; a->openflags_set && j < i; j++) {
			const struct params_wd *b = &p->out->wd[rd->wd[j]];

			if (!b->openflags_set || b->openflags == a->openflags)
				continue;
			for (size_t k = 0; k < a->nsd; k++)
				for (size_t m = 0; m < b->nsd; m++)
					if (a->sd[k] == b->sd[m])
						return perr(p, a->openflags_pos,
							    "wd=%s and wd=%s of rd=%s give sd=%s different openflags=, and a slave opens an sd once: give them the same, or openflags= on the sd or the rd",
							    a->name, b->name,
							    rd->name,
							    p->out->sd[a->sd[k]]
								    .name);
		}
	}
	return 0;
}

/*
 * warmup=steady: whole rounds of whole intervals, and a maximum that
 * holds a window of rounds (the default, 25 rounds, is SNIA PTS's).
 */
static int rd_finish_steady(struct parser *p, struct params_rd *rd,
			    struct params_pos fw)
{
	double round = rd->warmup_round_s ? rd->warmup_round_s : rd->interval_s;

	if (!is_multiple(round, rd->interval_s))
		return perr(p, fw,
			    "warmup=steady: round %g is not a multiple of interval=%g",
			    round, rd->interval_s);
	if (!rd->warmup_s)
		rd->warmup_s = PARAMS_WARMUP_MAX_ROUNDS * round;
	if (!is_multiple(rd->warmup_s, round) ||
	    rd->warmup_s < PARAMS_WARMUP_MIN_ROUNDS * round - 1e-9)
		return perr(p, fw,
			    "warmup=steady: maximum %g is not a whole number of rounds of %g s, at least %d (the rounds steady state is judged over)",
			    rd->warmup_s, round, PARAMS_WARMUP_MIN_ROUNDS);
	return 0;
}

/* slo= and sloprecision= go with iorate=slo, which needs slo=. */
static int check_rd_slo(struct parser *p, const struct params_rd *rd)
{
	struct params_pos ps = params_from(p, "slo");
	struct params_pos pp = params_from(p, "sloprecision");

	if (rd->iorate_kind != PARAMS_IORATE_SLO) {
		if (ps.line || pp.line)
			return perr(p, ps.line ? ps : pp,
				    "rd=%s: %s= is for iorate=slo, and its iorate= is not slo",
				    rd->name, ps.line ? "slo" : "sloprecision");
		return 0;
	}
	if (!(rd->slo_ms > 0))
		return perr(p, rd->iorate_pos.line ? rd->iorate_pos : p->dpos,
			    "rd=%s: iorate=slo needs slo= (the objective, slo=p99:2ms)",
			    rd->name);
	if (rd->sloprecision_pct < 0.5 || rd->sloprecision_pct > 50)
		return perr(p, pp.line ? pp : p->dpos,
			    "rd=%s: sloprecision=%g is out of range 0.5..50 (percent of the max rate)",
			    rd->name, rd->sloprecision_pct);
	return 0;
}

int rd_finish(struct parser *p)
{
	struct params_rd *rd = &p->cur.rd;
	struct params_pos fe = params_from(p, "elapsed");
	struct params_pos fw = params_from(p, "warmup");
	double n;
	int fs = fs_rd_finish(p, rd), ret;

	if (fs < 0)
		return fs;
	if (fs) {
		/* An fwd= run: its fwds are checked (fs.c). */
	} else if (!rd->nwd && p->out->nwd == 1) {
		rd->wd[0] = 0;
		rd->nwd = 1;
	} else if (!rd->nwd && !p->out->nwd) {
		return perr(p, p->dpos,
			    "rd=%s needs wd=, and no wd= is defined", rd->name);
	} else if (!rd->nwd) {
		return perr(p, p->dpos,
			    "rd=%s needs wd= to say which of the %zu wds it runs",
			    rd->name, p->out->nwd);
	}
	if (!is_multiple(rd->elapsed_s, rd->interval_s))
		return perr(p, fe.line ? fe : src_pos(p, "interval"),
			    "elapsed=%g is not a multiple of interval=%g",
			    rd->elapsed_s, rd->interval_s);
	if (!is_multiple(rd->warmup_s, rd->interval_s))
		return perr(p, fw.line ? fw : src_pos(p, "interval"),
			    "warmup=%g is not a multiple of interval=%g",
			    rd->warmup_s, rd->interval_s);
	if (rd->warmup_steady) {
		ret = rd_finish_steady(p, rd, fw.line ? fw : p->dpos);
		if (ret)
			return ret;
	}
	n = nearbyint(rd->elapsed_s / rd->interval_s) +
	    nearbyint(rd->warmup_s / rd->interval_s);
	if (!(n <= PARAMS_INTERVALS_MAX))
		return perr(p, fe.line ? fe : src_pos(p, "interval"),
			    "elapsed=%g and warmup=%g are %.0f intervals of %g s: at most %d fit in a run (use a longer interval=)",
			    rd->elapsed_s, rd->warmup_s, n, rd->interval_s,
			    PARAMS_INTERVALS_MAX);
	if (fs)
		return 0;
	ret = check_rd_slo(p, rd);
	if (!ret)
		ret = check_rd_streams(p, rd);
	if (!ret)
		ret = check_rd_concat(p, rd);
	if (!ret)
		ret = check_rd_openflags(p, rd);
	if (!ret)
		ret = replay_rd_finish(p, rd);
	return ret ? ret : check_rd_rates(p, rd);
}
