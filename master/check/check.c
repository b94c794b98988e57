/*
 * `lockstep check FILE [--json] [-e S -w S -i S] [--local-slaves N]`:
 * parse, validate and expand a parameter file and print the plan - hosts
 * and their slaves, the sds each host runs, every phase with its resolved
 * values, the planned time and what format phases write - touching no
 * target and no host. Every per-slave plan is built too, so whatever
 * `lockstep run` would refuse is refused here with the same message.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/exitcode.h"
#include "common/opts.h"
#include "master/params/params.h"
#include "common/units.h"
#include "common/jsonw.h"
#include "master/plan/evplan.h"
#include "master/check/check.h"
#include "master/plan/plan.h"
#include "master/plan/slo.h"

struct check {
	const char *path;
	bool json;
	unsigned nlocal;
	struct plan_overrides ov;
	struct params *p;
	struct plan_phase *ph;
	size_t nph;
	struct evplan_ev *ev; /* the timeline of the ev= lines */
};

static const char *size_str(uint64_t v, char *buf, size_t len)
{
	return units_fmt_size(v, buf, len);
}

static const char *shell_name(enum params_shell s)
{
	return s == PARAMS_SHELL_NONE ? "none" : "ssh";
}

static const char *dist_name(enum params_dist d)
{
	switch (d) {
	case PARAMS_DIST_UNIFORM:
		return "uniform";
	case PARAMS_DIST_DETERMINISTIC:
		return "deterministic";
	default:
		return "exponential";
	}
}

/* Whether some rd runs sd. */
static bool sd_used(const struct params *p, unsigned sd)
{
	for (size_t r = 0; r < p->nrd; r++)
		if (plan_rd_uses_sd(p, (unsigned)r, sd))
			return true;
	return false;
}

static uint64_t format_total(const struct check *c, unsigned *unsized)
{
	uint64_t t = 0;

	*unsized = 0;
	for (size_t i = 0; i < c->nph; i++) {
		t += c->ph[i].format_bytes;
		*unsized += c->ph[i].format_unsized;
	}
	return t;
}

/* Every slave's plans as the master builds them: refuse what run would. */
static int check_slave_plans(const struct check *c, char *err, size_t errlen)
{
	unsigned n = 0;
	int *hd = NULL;
	int ret = plan_slave_hosts(c->p, c->nlocal, &hd, &n);

	if (!ret)
		ret = plan_check_slaves(c->p, c->ph, c->nph,
					c->p->nhd ? hd : NULL, n, err, errlen);
	if (ret == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", c->path);
	free(hd);
	return ret;
}

/* ---- the description ---------------------------------------------------- */

/*
 * The plan is described once, as a list of items, and both outputs walk
 * that list: the JSON document takes each item's key and typed value (and
 * the object and array structure), the text takes each item's text. An
 * item can carry both (a value and how the text shows it, e.g. the size
 * 268435456 and " size=256m"), only a value (JSON-only detail such as
 * intervals=) or only text (the text's punctuation). The text and JSON
 * orders of a value may differ; it is then two items.
 */
enum item_kind {
	ITEM_TEXT,   /* text only */
	ITEM_OBJECT, /* starts a JSON object */
	ITEM_ARRAY,  /* starts a JSON array */
	ITEM_END,    /* ends the innermost object or array */
	ITEM_STR,
	ITEM_U64,
	ITEM_DBL,
	ITEM_BOOL,
};

struct item {
	enum item_kind kind;
	const char *key; /* JSON key; NULL inside arrays (not owned) */
	union {
		const char *s; /* not owned: the params or a literal */
		uint64_t u;
		double d;
		int b;
	} v;
	char *text; /* malloc'd; NULL: nothing in the text */
};

struct desc {
	struct item *it;
	size_t n, cap;
	int nomem;
};

static struct item *add(struct desc *d, enum item_kind kind, const char *key)
{
	struct item *it;

	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 256;
		struct item *p = realloc(d->it, cap * sizeof(*p));

		if (!p) {
			d->nomem = 1;
			return NULL;
		}
		d->it = p;
		d->cap = cap;
	}
	it = &d->it[d->n++];
	memset(it, 0, sizeof(*it));
	it->kind = kind;
	it->key = key;
	return it;
}

/* Give the last item its text, or (alone) add a text-only item. */
__attribute__((format(printf, 3, 4))) static void
text(struct desc *d, int alone, const char *fmt, ...)
{
	struct item *it = alone ? add(d, ITEM_TEXT, NULL) :
			  d->n  ? &d->it[d->n - 1] :
				  NULL;
	va_list ap;

	if (!it)
		return;
	va_start(ap, fmt);
	if (vasprintf(&it->text, fmt, ap) < 0) {
		it->text = NULL;
		d->nomem = 1;
	}
	va_end(ap);
}

/* The text of the item just added. */
#define SHOWN(d, ...) text(d, 0, __VA_ARGS__)
/* Text alone. */
#define TEXT(d, ...) text(d, 1, __VA_ARGS__)

static void str(struct desc *d, const char *key, const char *v)
{
	struct item *it = add(d, ITEM_STR, key);

	if (it)
		it->v.s = v;
}

static void u64(struct desc *d, const char *key, uint64_t v)
{
	struct item *it = add(d, ITEM_U64, key);

	if (it)
		it->v.u = v;
}

static void dbl(struct desc *d, const char *key, double v)
{
	struct item *it = add(d, ITEM_DBL, key);

	if (it)
		it->v.d = v;
}

static void boolean(struct desc *d, const char *key, int v)
{
	struct item *it = add(d, ITEM_BOOL, key);

	if (it)
		it->v.b = v;
}

static void object(struct desc *d, const char *key)
{
	add(d, ITEM_OBJECT, key);
}

static void array(struct desc *d, const char *key)
{
	add(d, ITEM_ARRAY, key);
}

static void end(struct desc *d)
{
	add(d, ITEM_END, NULL);
}

static void desc_free(struct desc *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->it[i].text);
	free(d->it);
	memset(d, 0, sizeof(*d));
}

static void describe_hosts(struct desc *d, const struct check *c)
{
	const struct params *p = c->p;

	array(d, "hosts");
	SHOWN(d, "hosts:\n");
	if (!p->nhd) {
		object(d, NULL);
		str(d, "name", "localhost");
		SHOWN(d,
		      "  localhost: %u local slaves (--local-slaves), every sd\n",
		      c->nlocal);
		boolean(d, "local", 1);
		u64(d, "slaves", c->nlocal);
		array(d, "sds");
		for (unsigned i = 0; i < p->nsd; i++)
			if (sd_used(p, i))
				str(d, NULL, p->sd[i].name);
		end(d);
		end(d);
	}
	for (size_t h = 0; h < p->nhd; h++) {
		const struct params_hd *hd = &p->hd[h];

		object(d, NULL);
		str(d, "name", hd->name);
		SHOWN(d, "  %s:", hd->name);
		boolean(d, "local", 0);
		str(d, "system", hd->system);
		SHOWN(d, " system=%s", hd->system);
		str(d, "user", hd->user);
		SHOWN(d, " user=%s", hd->user[0] ? hd->user : "-");
		str(d, "shell", shell_name(hd->shell));
		SHOWN(d, " shell=%s", shell_name(hd->shell));
		str(d, "lockstep", hd->lockstep);
		SHOWN(d, " lockstep=%s", hd->lockstep[0] ? hd->lockstep : "-");
		u64(d, "slaves", hd->slaves);
		SHOWN(d, ", %u slave%s; sds:", hd->slaves,
		      hd->slaves == 1 ? "" : "s");
		array(d, "sds");
		for (unsigned i = 0; i < p->nsd; i++)
			if (sd_used(p, i) && plan_sd_on_host(p, i, (int)h)) {
				str(d, NULL, p->sd[i].name);
				SHOWN(d, " %s", p->sd[i].name);
			}
		end(d);
		end(d);
		SHOWN(d, "\n");
	}
	end(d);
}

/* A JSON list of hosts by name, "*" for every host. */
static void describe_hostlist(struct desc *d, const struct params *p,
			      const unsigned *host, size_t nhost)
{
	array(d, "hosts");
	if (!nhost)
		str(d, NULL, "*");
	for (size_t h = 0; h < nhost; h++)
		str(d, NULL, p->hd[host[h]].name);
	end(d);
}

static void describe_range(struct desc *d, double lo, double hi)
{
	array(d, "range");
	dbl(d, NULL, lo);
	dbl(d, NULL, hi);
	end(d);
}

static void describe_sds(struct desc *d, const struct params *p)
{
	char sz[32];

	array(d, "sds");
	SHOWN(d, "sds:\n");
	for (size_t i = 0; i < p->nsd; i++) {
		const struct params_sd *sd = &p->sd[i];
		bool used = sd_used(p, (unsigned)i);

		object(d, NULL);
		str(d, "name", sd->name);
		SHOWN(d, "  %s:", sd->name);
		str(d, "lun", sd->lun);
		SHOWN(d, " lun=%s", sd->lun);
		u64(d, "size", sd->size);
		SHOWN(d, " size=%s",
		      sd->size ? size_str(sd->size, sz, sizeof(sz)) : "lun");
		TEXT(d, " range=(%g,%g)", sd->range_lo, sd->range_hi);
		u64(d, "threads", sd->threads);
		SHOWN(d, " threads=%u", sd->threads);
		array(d, "openflags");
		SHOWN(d, " openflags=%s%s%s", sd->openflags ? "" : "none",
		      sd->openflags & PARAMS_O_DIRECT ? "o_direct" : "",
		      sd->openflags & PARAMS_O_DSYNC ?
			      (sd->openflags & PARAMS_O_DIRECT ? ",o_dsync" :
								 "o_dsync") :
			      "");
		if (sd->openflags & PARAMS_O_DIRECT)
			str(d, NULL, "o_direct");
		if (sd->openflags & PARAMS_O_DSYNC)
			str(d, NULL, "o_dsync");
		end(d);
		describe_range(d, sd->range_lo, sd->range_hi);
		u64(d, "align", sd->align);
		SHOWN(d, " align=%s",
		      sd->align ? size_str(sd->align, sz, sizeof(sz)) :
				  "xfersize");
		u64(d, "offset", sd->offset);
		SHOWN(d, " offset=%s", size_str(sd->offset, sz, sizeof(sz)));
		boolean(d, "force", sd->force);
		SHOWN(d, " force=%s", sd->force ? "yes" : "no");
		TEXT(d, " host=%s", sd->nhost ? "" : "*");
		for (size_t h = 0; h < sd->nhost; h++)
			TEXT(d, "%s%s", h ? "," : "", p->hd[sd->host[h]].name);
		boolean(d, "sqpoll", sd->sqpoll);
		SHOWN(d, "%s", sd->sqpoll ? " sqpoll=yes" : "");
		describe_hostlist(d, p, sd->host, sd->nhost);
		boolean(d, "used", used);
		SHOWN(d, "%s\n", used ? "" : " (unused)");
		end(d);
	}
	end(d);
}

static void describe_wd(struct desc *d, const struct params *p,
			const struct plan_phase *ph, size_t i)
{
	const struct params_wd *wd = &p->wd[p->rd[ph->rd].wd[i]];
	struct plan_wd pw;
	char sz[32];

	plan_wd_resolve(p, ph, i, &pw);
	object(d, NULL);
	str(d, "name", wd->name);
	SHOWN(d, "      %s:", wd->name);
	array(d, "sds");
	SHOWN(d, " sd=(");
	for (size_t k = 0; k < wd->nsd; k++) {
		str(d, NULL, p->sd[wd->sd[k]].name);
		SHOWN(d, "%s%s", k ? "," : "", p->sd[wd->sd[k]].name);
	}
	end(d);
	SHOWN(d, ")");
	array(d, "xfersize");
	SHOWN(d, " xfersize=");
	for (size_t x = 0; x < pw.nxfer; x++) {
		object(d, NULL);
		if (pw.nxfer == 1)
			SHOWN(d, "%s",
			      size_str(pw.xfer[x].size, sz, sizeof(sz)));
		else
			SHOWN(d, "%s%s,%g%s", x ? "," : "(",
			      size_str(pw.xfer[x].size, sz, sizeof(sz)),
			      pw.xfer[x].pct, x + 1 == pw.nxfer ? ")" : "");
		u64(d, "size", pw.xfer[x].size);
		dbl(d, "pct", pw.xfer[x].pct);
		end(d);
	}
	end(d);
	dbl(d, "rdpct", pw.rdpct);
	SHOWN(d, " rdpct=%g", pw.rdpct);
	dbl(d, "seekpct", pw.seekpct);
	if (pw.seek_eof)
		SHOWN(d, " seekpct=eof");
	else
		SHOWN(d, " seekpct=%g", pw.seekpct);
	boolean(d, "seek_eof", pw.seek_eof);
	dbl(d, "skew", pw.skew);
	SHOWN(d, " skew=%g", pw.skew);
	TEXT(d, " range=(%g,%g)", pw.range_lo, pw.range_hi);
	dbl(d, "iorate", pw.iorate);
	if (pw.iorate > 0)
		SHOWN(d, " iorate=%g", pw.iorate);
	describe_range(d, pw.range_lo, pw.range_hi);
	describe_hostlist(d, p, wd->host, wd->nhost);
	if (wd->nhost) {
		TEXT(d, " host=");
		for (size_t h = 0; h < wd->nhost; h++)
			TEXT(d, "%s%s", h ? "," : "", p->hd[wd->host[h]].name);
	}
	end(d);
	SHOWN(d, "\n");
}

static void describe_phase(struct desc *d, const struct check *c, size_t i)
{
	const struct params *p = c->p;
	const struct plan_phase *ph = &c->ph[i];
	const struct params_rd *rd = &p->rd[ph->rd];
	bool fmt = ph->kind == PLAN_FORMAT;
	char sz[32];

	object(d, NULL);
	u64(d, "index", i + 1);
	SHOWN(d, "  %zu.", i + 1);
	str(d, "run", rd->name);
	str(d, "name", ph->name);
	SHOWN(d, " %s", ph->name);
	str(d, "kind", plan_kind_name(ph->kind));
	SHOWN(d, " [%s]", plan_kind_name(ph->kind));
	dbl(d, "iorate", ph->iorate);
	if (fmt)
		;
	else if (ph->kind == PLAN_CURVE_POINT)
		SHOWN(d, " iorate=%g%% of phase %u", ph->curve_pct,
		      ph->curve_max + 1);
	else if (ph->kind == PLAN_SLO_STEP)
		SHOWN(d, " iorate=slo (step %u of %u of phase %u, if needed)",
		      ph->slo_step, ph->slo_steps, ph->curve_max + 1);
	else if (ph->iorate > 0)
		SHOWN(d, " iorate=%g", ph->iorate);
	else
		SHOWN(d, " iorate=max");
	if (ph->kind == PLAN_CURVE_POINT) {
		dbl(d, "curve_pct", ph->curve_pct);
		u64(d, "curve_max", ph->curve_max + 1);
	}
	if (ph->kind == PLAN_CURVE_MAX || ph->kind == PLAN_CURVE_POINT)
		dbl(d, "stopcurve_ms", ph->stopcurve_ms);
	if (ph->kind == PLAN_SLO_MAX) {
		slo_name(rd->slo_pct, rd->slo_ms, sz, sizeof(sz));
		str(d, "slo", sz);
		dbl(d, "sloprecision_pct", rd->sloprecision_pct);
		u64(d, "slo_steps", ph->slo_steps);
		SHOWN(d, " (SLO %s, precision %g%% of rate, up to %u steps)",
		      sz, rd->sloprecision_pct, ph->slo_steps);
	}
	if (ph->kind == PLAN_SLO_STEP)
		u64(d, "slo_step", ph->slo_step);
	dbl(d, "elapsed", ph->elapsed_s);
	if (!fmt)
		SHOWN(d, " elapsed=%g", ph->elapsed_s);
	dbl(d, "warmup", ph->warmup_s);
	if (!fmt && ph->warmup_steady)
		SHOWN(d, " warmup=(steady,%g,%g)", ph->warmup_s,
		      ph->warmup_round * ph->interval_s);
	else if (!fmt)
		SHOWN(d, " warmup=%g", ph->warmup_s);
	if (ph->warmup_steady)
		u64(d, "warmup_round_intervals", ph->warmup_round);
	dbl(d, "interval", ph->interval_s);
	if (!fmt)
		SHOWN(d, " interval=%g", ph->interval_s);
	if (!fmt && ph->stopcurve_ms > 0)
		TEXT(d, " stopcurve=%gms", ph->stopcurve_ms);
	u64(d, "intervals", ph->intervals);
	u64(d, "warmup_intervals", ph->warmup_intervals);
	dbl(d, "pause", ph->pause_s);
	if (!fmt && ph->pause_s > 0)
		SHOWN(d, " pause=%g", ph->pause_s);
	dbl(d, "compratio", ph->compratio);
	if (!fmt)
		SHOWN(d, " compratio=%g", ph->compratio);
	str(d, "distribution", dist_name(ph->distribution));
	if (!fmt)
		SHOWN(d, " distribution=%s\n", dist_name(ph->distribution));
	boolean(d, "validate_only", ph->verify);
	if (fmt && ph->verify) {
		SHOWN(d, " reads and verifies each slave's part of the sds");
	} else if (fmt) {
		u64(d, "format_bytes", ph->format_bytes);
		SHOWN(d, " writes %s",
		      size_str(ph->format_bytes, sz, sizeof(sz)));
		u64(d, "format_unsized", ph->format_unsized);
		if (ph->format_unsized)
			SHOWN(d, " + %u whole luns", ph->format_unsized);
	}
	if (fmt) {
		u64(d, "format_xfersize", p->formatxfersize);
		SHOWN(d, " with xfersize=%s, interval=%g, until done\n",
		      size_str(p->formatxfersize, sz, sizeof(sz)),
		      ph->interval_s);
	} else {
		array(d, "wds");
		for (size_t k = 0; k < rd->nwd; k++)
			describe_wd(d, p, ph, k);
		end(d);
	}
	object(d, "threads");
	if (!fmt)
		SHOWN(d, "      threads:");
	for (unsigned s = 0; s < p->nsd; s++)
		if (plan_rd_uses_sd(p, ph->rd, s)) {
			u64(d, p->sd[s].name, plan_sd_threads(p, ph, s));
			if (!fmt)
				SHOWN(d, " %s=%u", p->sd[s].name,
				      plan_sd_threads(p, ph, s));
		}
	end(d);
	if (!fmt)
		SHOWN(d, "\n");
	end(d);
}

/* Whether an event of p ends= (restores) event i. */
static int restored(const struct params *p, unsigned i)
{
	for (size_t j = 0; j < p->nev; j++)
		if (p->ev[j].ends == (int)i)
			return 1;
	return 0;
}

/* One ev= line on the timeline: when, what, whose loss it expects. */
static void describe_event(struct desc *d, const struct check *c, size_t i)
{
	const struct params *p = c->p;
	const struct params_ev *ev = &p->ev[i];
	const struct evplan_ev *pl = &c->ev[i];

	object(d, NULL);
	str(d, "name", ev->name);
	SHOWN(d, "  %s:", ev->name);
	str(d, "rd", p->rd[ev->rd].name);
	if (pl->phase >= 0) {
		str(d, "phase", c->ph[pl->phase].name);
		dbl(d, "at_s", pl->offset_s);
		SHOWN(d, " at %gs into phase %s's measured time", pl->offset_s,
		      c->ph[pl->phase].name);
	} else {
		str(d, "after", ev->after_name);
		dbl(d, "after_s", pl->offset_s);
		SHOWN(d, " %gs after ev=%s ends", pl->offset_s, ev->after_name);
	}
	dbl(d, "earliest_s", pl->earliest_s);
	SHOWN(d, " (%s%.0f s from the start)\n",
	      pl->phase >= 0 ? "" : "at the earliest ", pl->earliest_s);
	str(d, "host", ev->host >= 0 ? p->hd[ev->host].name : "");
	if (ev->host >= 0)
		TEXT(d, "      on %s over ssh\n", p->hd[ev->host].name);
	str(d, "exec", ev->exec);
	if (ev->exec[0])
		SHOWN(d, "      exec: %s\n", ev->exec);
	str(d, "until", ev->until);
	if (ev->until[0])
		SHOWN(d, "      until: %s (every %gs)\n", ev->until,
		      ev->poll_s);
	dbl(d, "poll_s", ev->poll_s);
	dbl(d, "timeout_s", ev->timeout_s);
	SHOWN(d, "      timeout=%gs", ev->timeout_s);
	str(d, "on_fail", ev->abort_on_fail ? "abort" : "continue");
	SHOWN(d, " on_fail=%s", ev->abort_on_fail ? "abort" : "continue");
	dbl(d, "baseline_s", ev->baseline_s);
	SHOWN(d, " baseline=%gs", ev->baseline_s);
	array(d, "expect_loss");
	if (ev->nloss)
		TEXT(d, " expect_loss=(");
	for (size_t k = 0; k < ev->nloss; k++) {
		str(d, NULL, p->hd[ev->loss[k]].name);
		SHOWN(d, "%s%s", k ? "," : "", p->hd[ev->loss[k]].name);
	}
	if (ev->nloss)
		TEXT(d, ")");
	end(d);
	boolean(d, "rejoin", ev->rejoin);
	if (ev->rejoin)
		SHOWN(d, " rejoin=yes");
	TEXT(d, "\n");
	str(d, "ends", ev->ends >= 0 ? p->ev[ev->ends].name : "");
	if (ev->ends >= 0)
		SHOWN(d,
		      "      ends ev=%s: its recovery window runs through this event\n",
		      p->ev[ev->ends].name);
	/* The restore a user meant, cut short: say so before the run. */
	if (ev->ends < 0 && ev->has_after && !restored(p, ev->after))
		TEXT(d,
		     "      ev=%s's recovery window stops where this event starts (if this restores it, ends=%s runs the window through)\n",
		     ev->after_name, ev->after_name);
	end(d);
}

/* The whole plan. Returns 0 or -ENOMEM. */
static int describe(struct desc *d, const struct check *c)
{
	const struct params *p = c->p;
	unsigned unsized;
	uint64_t fb = format_total(c, &unsized);
	char sz[32];

	object(d, NULL);
	str(d, "file", c->path);
	SHOWN(d, "%s: valid: %zu sd, %zu wd, %zu rd -> %zu phase%s\n", c->path,
	      p->nsd, p->nwd, p->nrd, c->nph, c->nph == 1 ? "" : "s");
	boolean(d, "valid", 1);
	object(d, "general");
	SHOWN(d, "general:");
	dbl(d, "compratio", p->compratio);
	SHOWN(d, " compratio=%g", p->compratio);
	dbl(d, "dedupratio", p->dedupratio);
	SHOWN(d, " dedupratio=%g", p->dedupratio);
	u64(d, "dedupunit", p->dedupunit);
	SHOWN(d, " dedupunit=%s", size_str(p->dedupunit, sz, sizeof(sz)));
	boolean(d, "validate", p->validate);
	SHOWN(d, " validate=%s", p->validate ? "yes" : "no");
	str(d, "journal", p->journal);
	if (p->journal[0])
		SHOWN(d, " journal=%s", p->journal);
	u64(d, "data_errors", p->data_errors);
	SHOWN(d, " data_errors=%u", p->data_errors);
	u64(d, "formatxfersize", p->formatxfersize);
	SHOWN(d, " formatxfersize=%s\n",
	      size_str(p->formatxfersize, sz, sizeof(sz)));
	end(d);
	/* The text leaves warnings to stderr, where both print them. */
	array(d, "warnings");
	for (size_t i = 0; i < p->nwarn; i++)
		str(d, NULL, p->warn[i]);
	end(d);
	describe_hosts(d, c);
	describe_sds(d, p);
	array(d, "phases");
	SHOWN(d, "phases:\n");
	for (size_t i = 0; i < c->nph; i++)
		describe_phase(d, c, i);
	end(d);
	array(d, "timeline");
	if (p->nev)
		SHOWN(d, "timeline:\n");
	for (size_t i = 0; i < p->nev; i++)
		describe_event(d, c, i);
	end(d);
	dbl(d, "total_seconds", plan_total_seconds(c->ph, c->nph));
	SHOWN(d, "planned time: %.0f s", plan_total_seconds(c->ph, c->nph));
	u64(d, "format_bytes", fb);
	if (fb || unsized)
		SHOWN(d, ", plus format phases that write %s%s",
		      size_str(fb, sz, sizeof(sz)),
		      unsized ? " and whole luns" : "");
	u64(d, "format_unsized", unsized);
	SHOWN(d, "\n");
	end(d);
	return d->nomem ? -ENOMEM : 0;
}

/* ---- the two renderings ------------------------------------------------ */

static void render_text(const struct desc *d, FILE *f)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->it[i].text)
			fputs(d->it[i].text, f);
}

static void render_json(const struct desc *d, FILE *f)
{
	struct jsonw w;

	jsonw_init(&w, f);
	for (size_t i = 0; i < d->n; i++) {
		const struct item *it = &d->it[i];

		switch (it->kind) {
		case ITEM_TEXT:
			break;
		case ITEM_OBJECT:
			jsonw_object(&w, it->key);
			break;
		case ITEM_ARRAY:
			jsonw_array(&w, it->key);
			break;
		case ITEM_END:
			jsonw_end(&w);
			break;
		case ITEM_STR:
			jsonw_str(&w, it->key, it->v.s);
			break;
		case ITEM_U64:
			jsonw_u64(&w, it->key, it->v.u);
			break;
		case ITEM_DBL:
			jsonw_dbl(&w, it->key, it->v.d);
			break;
		case ITEM_BOOL:
			jsonw_bool(&w, it->key, it->v.b);
			break;
		}
	}
	jsonw_finish(&w);
}

/* ---- command line ----------------------------------------------------- */

static int parse_args(struct check *c, int argc, char **argv)
{
	int json = 0, help = 0, args, ret;
	const struct opts_def defs[] = {
		{ "json", 0, OPTS_FLAG, &json,
		  .help = "print the plan as one JSON document" },
		{ NULL, 'e', OPTS_SECONDS, &c->ov.elapsed_s,
		  .flags = OPTS_UNITS, .label = "-e S, -w S, -i S",
		  .help = "override every rd's elapsed, warmup, interval" },
		{ NULL, 'w', OPTS_SECONDS, &c->ov.warmup_s,
		  .flags = OPTS_UNITS },
		{ NULL, 'i', OPTS_SECONDS, &c->ov.interval_s,
		  .flags = OPTS_UNITS | OPTS_POSITIVE },
		{ "local-slaves", 0, OPTS_UINT, &c->nlocal, 1, 256,
		  OPTS_NONEMPTY | OPTS_NO_ECHO, .arg = "N",
		  .help = "slaves assumed without hd= lines (default 2)" },
		{ .name = "help",
		  .letter = 'h',
		  .kind = OPTS_HELP,
		  .dest = &help },
	};
	const struct opts_cmd cmd = {
		.prog = "lockstep check",
		.synopsis =
			"usage: lockstep check FILE [--json] [-e S] [-w S] [-i S] [--local-slaves N]",
		.footer = "Exit 0 when the file is valid, 1 when it is not.\n",
		.description =
			"Parses and validates a parameter file without running anything and prints the plan: the runs, their phases and what each slave would do.",
		.width = 18,
		.defs = defs,
		.ndefs = sizeof(defs) / sizeof(defs[0]),
		.nargs = 1,
	};

	ret = opts_parse(&cmd, argc, argv, &args);
	if (ret)
		return ret;
	c->json = json;
	c->path = argv[args];
	return 0;
}

int check_main(int argc, char **argv)
{
	struct check c = { .nlocal = 2, .ov = { -1, -1, -1 } };
	struct desc d = { 0 };
	char err[1024];
	int ret = parse_args(&c, argc, argv);

	if (ret)
		return ret > 0 ? LS_EXIT_OK : LS_EXIT_BAD_INPUT;
	ret = params_parse_file(c.path, &c.p, err, sizeof(err));
	for (size_t i = 0; c.p && i < c.p->nwarn; i++)
		fprintf(stderr, "%s\n", c.p->warn[i]);
	if (ret == 0)
		ret = plan_phases(c.p, &c.ov, &c.ph, &c.nph, err, sizeof(err));
	if (ret == 0)
		ret = check_slave_plans(&c, err, sizeof(err));
	if (ret == 0)
		ret = evplan_resolve(c.p, c.ph, c.nph, &c.ev, err, sizeof(err));
	if (ret < 0) {
		fprintf(stderr, "%s\n", err);
		free(c.ph);
		params_free(&c.p);
		return LS_EXIT_BAD_INPUT;
	}
	if (describe(&d, &c) < 0) {
		fprintf(stderr, "%s: out of memory\n", c.path);
		ret = -ENOMEM;
	} else if (c.json) {
		render_json(&d, stdout);
	} else {
		render_text(&d, stdout);
	}
	desc_free(&d);
	free(c.ev);
	free(c.ph);
	params_free(&c.p);
	return ret < 0 ? LS_EXIT_BAD_INPUT : LS_EXIT_OK;
}
