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
#include "master/check/desc.h"
#include "master/check/desc_cmds.h"
#include "master/check/desc_fs.h"
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

static void describe_hosts(struct desc *d, const struct check *c)
{
	const struct params *p = c->p;

	desc_array(d, "hosts");
	SHOWN(d, "hosts:\n");
	if (!p->nhd) {
		desc_object(d, NULL);
		desc_str(d, "name", "localhost");
		SHOWN(d,
		      "  localhost: %u local slaves (--local-slaves), every sd\n",
		      c->nlocal);
		desc_boolean(d, "local", 1);
		desc_u64(d, "slaves", c->nlocal);
		desc_array(d, "sds");
		for (unsigned i = 0; i < p->nsd; i++)
			if (sd_used(p, i))
				desc_str(d, NULL, p->sd[i].name);
		desc_end(d);
		desc_end(d);
	}
	for (size_t h = 0; h < p->nhd; h++) {
		const struct params_hd *hd = &p->hd[h];

		desc_object(d, NULL);
		desc_str(d, "name", hd->name);
		SHOWN(d, "  %s:", hd->name);
		desc_boolean(d, "local", 0);
		desc_str(d, "system", hd->system);
		SHOWN(d, " system=%s", hd->system);
		desc_str(d, "user", hd->user);
		SHOWN(d, " user=%s", hd->user[0] ? hd->user : "-");
		desc_str(d, "shell", shell_name(hd->shell));
		SHOWN(d, " shell=%s", shell_name(hd->shell));
		desc_str(d, "lockstep", hd->lockstep);
		SHOWN(d, " lockstep=%s", hd->lockstep[0] ? hd->lockstep : "-");
		desc_str(d, "nic", hd->nic[0] ? hd->nic : p->nic);
		if (hd->nic[0] || p->nic[0])
			SHOWN(d, " nic=%s", hd->nic[0] ? hd->nic : p->nic);
		desc_u64(d, "slaves", hd->slaves);
		SHOWN(d, ", %u slave%s; sds:", hd->slaves,
		      hd->slaves == 1 ? "" : "s");
		desc_array(d, "sds");
		for (unsigned i = 0; i < p->nsd; i++)
			if (sd_used(p, i) && plan_sd_on_host(p, i, (int)h)) {
				desc_str(d, NULL, p->sd[i].name);
				SHOWN(d, " %s", p->sd[i].name);
			}
		desc_end(d);
		desc_end(d);
		SHOWN(d, "\n");
	}
	desc_end(d);
}

/* A JSON list of hosts by name, "*" for every host. */
static void describe_hostlist(struct desc *d, const struct params *p,
			      const unsigned *host, size_t nhost)
{
	desc_array(d, "hosts");
	if (!nhost)
		desc_str(d, NULL, "*");
	for (size_t h = 0; h < nhost; h++)
		desc_str(d, NULL, p->hd[host[h]].name);
	desc_end(d);
}

static void describe_range(struct desc *d, double lo, double hi)
{
	desc_array(d, "range");
	desc_dbl(d, NULL, lo);
	desc_dbl(d, NULL, hi);
	desc_end(d);
}

/*
 * openflags (PARAMS_O_*) as a JSON array of Vdbench's names under
 * "openflags", shown after label as "o_direct,o_sync" (none: "none").
 */
static void describe_openflags(struct desc *d, const char *label, unsigned of)
{
	static const struct {
		unsigned bit;
		const char *name;
	} names[] = { { PARAMS_O_DIRECT, "o_direct" },
		      { PARAMS_O_DSYNC, "o_dsync" },
		      { PARAMS_O_SYNC, "o_sync" } };
	bool first = true;

	desc_array(d, "openflags");
	SHOWN(d, "%s%s", label, of ? "" : "none");
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!(of & names[i].bit))
			continue;
		desc_str(d, NULL, names[i].name);
		SHOWN(d, "%s%s", first ? "" : ",", names[i].name);
		first = false;
	}
	desc_end(d);
}

/*
 * Each sd of phase ph with the openflags= it is opened with, and whose
 * they are (plan_sd_openflags): "sd1=o_direct(wd=wd2)".
 */
static void describe_phase_openflags(struct desc *d, const struct params *p,
				     const struct plan_phase *ph)
{
	desc_object(d, "openflags");
	SHOWN(d, "      openflags:");
	for (unsigned s = 0; s < p->nsd; s++) {
		int from;
		unsigned of;

		if (!plan_rd_uses_sd(p, ph->rd, s))
			continue;
		of = plan_sd_openflags(p, ph, s, &from);
		desc_object(d, p->sd[s].name);
		SHOWN(d, " %s=", p->sd[s].name);
		describe_openflags(d, "", of);
		desc_str(d, "from",
			 from == -2 ? "rd" :
			 from == -1 ? "sd" :
				      "wd");
		if (from >= 0) {
			desc_str(d, "wd", p->wd[from].name);
			SHOWN(d, "(wd=%s)", p->wd[from].name);
		} else {
			SHOWN(d, "(%s)", from == -2 ? "rd" : "sd");
		}
		desc_end(d);
	}
	desc_end(d);
	SHOWN(d, "\n");
}

static void describe_sds(struct desc *d, const struct params *p)
{
	char sz[32];

	desc_array(d, "sds");
	SHOWN(d, "sds:\n");
	for (size_t i = 0; i < p->nsd; i++) {
		const struct params_sd *sd = &p->sd[i];
		bool used = sd_used(p, (unsigned)i);

		desc_object(d, NULL);
		desc_str(d, "name", sd->name);
		SHOWN(d, "  %s:", sd->name);
		desc_str(d, "lun", sd->lun);
		SHOWN(d, " lun=%s", sd->lun);
		desc_u64(d, "size", sd->size);
		SHOWN(d, " size=%s",
		      sd->size ? size_str(sd->size, sz, sizeof(sz)) : "lun");
		TEXT(d, " range=(%g,%g)", sd->range_lo, sd->range_hi);
		desc_u64(d, "threads", sd->threads);
		SHOWN(d, " threads=%u", sd->threads);
		describe_openflags(d, " openflags=", sd->openflags);
		describe_range(d, sd->range_lo, sd->range_hi);
		desc_u64(d, "align", sd->align);
		SHOWN(d, " align=%s",
		      sd->align ? size_str(sd->align, sz, sizeof(sz)) :
				  "xfersize");
		desc_u64(d, "offset", sd->offset);
		SHOWN(d, " offset=%s", size_str(sd->offset, sz, sizeof(sz)));
		desc_boolean(d, "force", sd->force);
		SHOWN(d, " force=%s", sd->force ? "yes" : "no");
		TEXT(d, " host=%s", sd->nhost ? "" : "*");
		for (size_t h = 0; h < sd->nhost; h++)
			TEXT(d, "%s%s", h ? "," : "", p->hd[sd->host[h]].name);
		desc_boolean(d, "sqpoll", sd->sqpoll);
		SHOWN(d, "%s", sd->sqpoll ? " sqpoll=yes" : "");
		desc_u64(d, "hitarea", sd->hitarea);
		if (sd->hitarea != 1024 * 1024)
			SHOWN(d, " hitarea=%s",
			      size_str(sd->hitarea, sz, sizeof(sz)));
		describe_hostlist(d, p, sd->host, sd->nhost);
		desc_boolean(d, "used", used);
		SHOWN(d, "%s\n", used ? "" : " (unused)");
		desc_end(d);
	}
	desc_end(d);
}

/*
 * random_distribution= as fio spells it: "random", "zipf:1.2",
 * "zoned:60/10:30/20:10/70" (every zone's range resolved); hotband= as
 * Vdbench's, with the random_distribution "hotband" in --json.
 */
static void describe_access(struct desc *d, const struct params_wd *wd,
			    const struct plan_wd *pw)
{
	static const char *const names[] = {
		[PARAMS_ACCESS_UNIFORM] = "random",
		[PARAMS_ACCESS_ZIPF] = "zipf",
		[PARAMS_ACCESS_PARETO] = "pareto",
		[PARAMS_ACCESS_NORMAL] = "normal",
		[PARAMS_ACCESS_ZONED] = "zoned",
		[PARAMS_ACCESS_HOTBAND] = "hotband",
	};
	char buf[1024];
	size_t n = 0;

	if (pw->access == PARAMS_ACCESS_ZONED) {
		n = (size_t)snprintf(buf, sizeof(buf), "zoned");
		for (size_t z = 0; z < wd->nzone && n < sizeof(buf); z++)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n,
					      ":%u/%u", wd->zone[z].io,
					      wd->zone[z].range);
	} else if (pw->access == PARAMS_ACCESS_UNIFORM ||
		   pw->access == PARAMS_ACCESS_HOTBAND) {
		snprintf(buf, sizeof(buf), "%s", names[pw->access]);
	} else {
		snprintf(buf, sizeof(buf), "%s:%g", names[pw->access],
			 pw->access_arg);
	}
	desc_str_copy(d, "random_distribution", buf);
	if (pw->access == PARAMS_ACCESS_HOTBAND) {
		desc_array(d, "hotband");
		desc_dbl(d, NULL, wd->hotband_lo);
		desc_dbl(d, NULL, wd->hotband_hi);
		desc_end(d);
		SHOWN(d, " hotband=(%g,%g)", wd->hotband_lo, wd->hotband_hi);
	} else if (pw->access != PARAMS_ACCESS_UNIFORM) {
		SHOWN(d, " random_distribution=%s", buf);
	}
}

static void describe_wd(struct desc *d, const struct params *p,
			const struct plan_phase *ph, size_t i)
{
	const struct params_wd *wd = &p->wd[p->rd[ph->rd].wd[i]];
	struct plan_wd pw;
	char sz[32];
	size_t gen;

	plan_wd_resolve(p, ph, i, &pw);
	desc_object(d, NULL);
	desc_str(d, "name", wd->name);
	SHOWN(d, "      %s:", wd->name);
	desc_array(d, "sds");
	SHOWN(d, " sd=(");
	for (size_t k = 0; k < wd->nsd; k++) {
		desc_str(d, NULL, p->sd[wd->sd[k]].name);
		SHOWN(d, "%s%s", k ? "," : "", p->sd[wd->sd[k]].name);
	}
	desc_end(d);
	SHOWN(d, ")");
	gen = d->n;
	desc_array(d, "xfersize");
	SHOWN(d, " xfersize=");
	for (size_t x = 0; x < pw.nxfer; x++) {
		desc_object(d, NULL);
		if (pw.nxfer == 1)
			SHOWN(d, "%s",
			      size_str(pw.xfer[x].size, sz, sizeof(sz)));
		else
			SHOWN(d, "%s%s,%g%s", x ? "," : "(",
			      size_str(pw.xfer[x].size, sz, sizeof(sz)),
			      pw.xfer[x].pct, x + 1 == pw.nxfer ? ")" : "");
		desc_u64(d, "size", pw.xfer[x].size);
		desc_dbl(d, "pct", pw.xfer[x].pct);
		desc_end(d);
	}
	desc_end(d);
	desc_dbl(d, "rdpct", pw.rdpct);
	SHOWN(d, " rdpct=%g", pw.rdpct);
	desc_dbl(d, "seekpct", pw.seekpct);
	if (pw.seek_eof)
		SHOWN(d, " seekpct=eof");
	else
		SHOWN(d, " seekpct=%g", pw.seekpct);
	desc_boolean(d, "seek_eof", pw.seek_eof);
	desc_dbl(d, "skew", pw.skew);
	SHOWN(d, " skew=%g", pw.skew);
	TEXT(d, " range=(%g,%g)", pw.range_lo, pw.range_hi);
	/* A replay's I/O is the trace's: no generator to show in the text. */
	if (wd->replay[0])
		desc_text_drop(d, gen);
	desc_dbl(d, "iorate", pw.iorate);
	if (pw.iorate > 0)
		SHOWN(d, " iorate=%g", pw.iorate);
	desc_u64(d, "priority", wd->priority);
	if (wd->priority)
		SHOWN(d, " priority=%u", wd->priority);
	desc_dbl(d, "rhpct", pw.rhpct);
	desc_dbl(d, "whpct", pw.whpct);
	if (pw.rhpct > 0 || pw.whpct > 0)
		SHOWN(d, " rhpct=%g whpct=%g", pw.rhpct, pw.whpct);
	describe_access(d, wd, &pw);
	if (p->concat) {
		unsigned th = wd->nsd ? plan_sd_threads(p, ph, wd->sd[0]) : 0;

		desc_u64(d, "threads", th);
		SHOWN(d, " threads=%u (concatenated)", th);
	}
	desc_u64(d, "streams", pw.streams);
	if (pw.streams)
		SHOWN(d, " streams=%u", pw.streams);
	desc_u64(d, "stride_min", pw.stride_min);
	desc_u64(d, "stride_max", pw.stride_max);
	if (pw.stride_max) {
		char hi[32];

		SHOWN(d, " stride=(%s,%s)",
		      size_str(pw.stride_min, sz, sizeof(sz)),
		      size_str(pw.stride_max, hi, sizeof(hi)));
	}
	if (wd->replay[0])
		describe_replay(d, wd);
	describe_range(d, pw.range_lo, pw.range_hi);
	describe_hostlist(d, p, wd->host, wd->nhost);
	if (wd->nhost) {
		TEXT(d, " host=");
		for (size_t h = 0; h < wd->nhost; h++)
			TEXT(d, "%s%s", h ? "," : "", p->hd[wd->host[h]].name);
	}
	desc_end(d);
	SHOWN(d, "\n");
}

static void describe_phase(struct desc *d, const struct check *c, size_t i)
{
	const struct params *p = c->p;
	const struct plan_phase *ph = &c->ph[i];
	const struct params_rd *rd = &p->rd[ph->rd];
	bool fmt = ph->kind == PLAN_FORMAT;
	char sz[32];
	unsigned unsized;
	uint64_t mdb;

	if (ph->fs)
		return describe_fs_phase(d, p, ph, i);
	desc_object(d, NULL);
	desc_u64(d, "index", i + 1);
	SHOWN(d, "  %zu.", i + 1);
	desc_str(d, "run", rd->name);
	desc_str(d, "name", ph->name);
	SHOWN(d, " %s", ph->name);
	desc_str(d, "kind", plan_kind_name(ph->kind));
	SHOWN(d, " [%s]", plan_kind_name(ph->kind));
	desc_dbl(d, "iorate", ph->iorate);
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
		desc_dbl(d, "curve_pct", ph->curve_pct);
		desc_u64(d, "curve_max", ph->curve_max + 1);
	}
	if (ph->kind == PLAN_CURVE_MAX || ph->kind == PLAN_CURVE_POINT)
		desc_dbl(d, "stopcurve_ms", ph->stopcurve_ms);
	if (ph->kind == PLAN_SLO_MAX) {
		slo_name(rd->slo_pct, rd->slo_ms, sz, sizeof(sz));
		desc_str_copy(d, "slo", sz);
		desc_dbl(d, "sloprecision_pct", rd->sloprecision_pct);
		desc_u64(d, "slo_steps", ph->slo_steps);
		SHOWN(d, " (SLO %s, precision %g%% of rate, up to %u steps)",
		      sz, rd->sloprecision_pct, ph->slo_steps);
	}
	if (ph->kind == PLAN_SLO_STEP)
		desc_u64(d, "slo_step", ph->slo_step);
	desc_dbl(d, "elapsed", ph->elapsed_s);
	if (!fmt)
		SHOWN(d, " elapsed=%g", ph->elapsed_s);
	desc_dbl(d, "warmup", ph->warmup_s);
	if (!fmt && ph->warmup_steady)
		SHOWN(d, " warmup=(steady,%g,%g)", ph->warmup_s,
		      ph->warmup_round * ph->interval_s);
	else if (!fmt)
		SHOWN(d, " warmup=%g", ph->warmup_s);
	if (ph->warmup_steady)
		desc_u64(d, "warmup_round_intervals", ph->warmup_round);
	desc_dbl(d, "interval", ph->interval_s);
	if (!fmt)
		SHOWN(d, " interval=%g", ph->interval_s);
	if (!fmt && ph->stopcurve_ms > 0)
		TEXT(d, " stopcurve=%gms", ph->stopcurve_ms);
	desc_u64(d, "intervals", ph->intervals);
	desc_u64(d, "warmup_intervals", ph->warmup_intervals);
	desc_dbl(d, "pause", ph->pause_s);
	if (!fmt && ph->pause_s > 0)
		SHOWN(d, " pause=%g", ph->pause_s);
	/* maxdata=: as given (up to 100 a multiple), and in bytes. */
	desc_dbl(d, "maxdata", fmt ? 0 : rd->maxdata);
	/* Without size= an sd's size is known at the run, from its slaves. */
	mdb = plan_maxdata_bytes(p, ph, NULL, &unsized);
	desc_u64(d, "maxdata_bytes", unsized ? 0 : mdb);
	if (!fmt && rd->maxdata > 0 && rd->maxdata <= PARAMS_MAXDATA_TIMES &&
	    unsized)
		SHOWN(d, " maxdata=%g (times the sds' size, known at the run)",
		      rd->maxdata);
	else if (!fmt && rd->maxdata > 0 && rd->maxdata <= PARAMS_MAXDATA_TIMES)
		SHOWN(d, " maxdata=%g (%s)", rd->maxdata,
		      size_str(mdb, sz, sizeof(sz)));
	else if (!fmt && rd->maxdata > 0)
		SHOWN(d, " maxdata=%s", size_str(mdb, sz, sizeof(sz)));
	desc_dbl(d, "compratio", ph->compratio);
	if (!fmt)
		SHOWN(d, " compratio=%g", ph->compratio);
	desc_str(d, "distribution", dist_name(ph->distribution));
	if (!fmt)
		SHOWN(d, " distribution=%s\n", dist_name(ph->distribution));
	desc_boolean(d, "validate_only", ph->verify);
	if (fmt && ph->verify) {
		SHOWN(d, " reads and verifies each slave's part of the sds");
	} else if (fmt) {
		desc_u64(d, "format_bytes", ph->format_bytes);
		SHOWN(d, " writes %s",
		      size_str(ph->format_bytes, sz, sizeof(sz)));
		desc_u64(d, "format_unsized", ph->format_unsized);
		if (ph->format_unsized)
			SHOWN(d, " + %u whole luns", ph->format_unsized);
	}
	if (fmt) {
		desc_u64(d, "format_xfersize", p->formatxfersize);
		SHOWN(d, " with xfersize=%s, interval=%g, until done\n",
		      size_str(p->formatxfersize, sz, sizeof(sz)),
		      ph->interval_s);
	} else {
		desc_array(d, "wds");
		for (size_t k = 0; k < rd->nwd; k++)
			describe_wd(d, p, ph, k);
		desc_end(d);
	}
	describe_phase_openflags(d, p, ph);
	desc_object(d, "threads");
	if (!fmt)
		SHOWN(d, "      threads:");
	for (unsigned s = 0; s < p->nsd; s++)
		if (plan_rd_uses_sd(p, ph->rd, s)) {
			desc_u64(d, p->sd[s].name, plan_sd_threads(p, ph, s));
			if (!fmt)
				SHOWN(d, " %s=%u", p->sd[s].name,
				      plan_sd_threads(p, ph, s));
		}
	desc_end(d);
	if (!fmt)
		SHOWN(d, "\n");
	desc_end(d);
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

	desc_object(d, NULL);
	desc_str(d, "name", ev->name);
	SHOWN(d, "  %s:", ev->name);
	desc_str(d, "rd", p->rd[ev->rd].name);
	if (pl->phase >= 0) {
		desc_str(d, "phase", c->ph[pl->phase].name);
		desc_dbl(d, "at_s", pl->offset_s);
		SHOWN(d, " at %gs into phase %s's measured time", pl->offset_s,
		      c->ph[pl->phase].name);
	} else {
		desc_str(d, "after", ev->after_name);
		desc_dbl(d, "after_s", pl->offset_s);
		SHOWN(d, " %gs after ev=%s ends", pl->offset_s, ev->after_name);
	}
	desc_dbl(d, "earliest_s", pl->earliest_s);
	SHOWN(d, " (%s%.0f s from the start)\n",
	      pl->phase >= 0 ? "" : "at the earliest ", pl->earliest_s);
	desc_str(d, "host", ev->host >= 0 ? p->hd[ev->host].name : "");
	if (ev->host >= 0)
		TEXT(d, "      on %s over ssh\n", p->hd[ev->host].name);
	desc_str(d, "exec", ev->exec);
	if (ev->exec[0])
		SHOWN(d, "      exec: %s\n", ev->exec);
	desc_str(d, "until", ev->until);
	if (ev->until_probe)
		SHOWN(d,
		      "      until: %s (each sample of probe=%s, every %gs)\n",
		      ev->until, p->probe[ev->upr.probe].name,
		      p->probe[ev->upr.probe].every_s);
	else if (ev->until[0])
		SHOWN(d, "      until: %s (every %gs)\n", ev->until,
		      ev->poll_s);
	if (ev->until_probe) {
		desc_object(d, "until_probe");
		desc_str(d, "probe", p->probe[ev->upr.probe].name);
		desc_str(d, "key", ev->upr.key);
		desc_str(d, "op", params_cmp_name(ev->upr.op));
		desc_dbl(d, "value", ev->upr.value);
		desc_end(d);
	}
	desc_dbl(d, "poll_s", ev->poll_s);
	desc_dbl(d, "timeout_s", ev->timeout_s);
	SHOWN(d, "      timeout=%gs", ev->timeout_s);
	desc_str(d, "on_fail", ev->abort_on_fail ? "abort" : "continue");
	SHOWN(d, " on_fail=%s", ev->abort_on_fail ? "abort" : "continue");
	desc_dbl(d, "baseline_s", ev->baseline_s);
	SHOWN(d, " baseline=%gs", ev->baseline_s);
	desc_array(d, "expect_loss");
	if (ev->nloss)
		TEXT(d, " expect_loss=(");
	for (size_t k = 0; k < ev->nloss; k++) {
		desc_str(d, NULL, p->hd[ev->loss[k]].name);
		SHOWN(d, "%s%s", k ? "," : "", p->hd[ev->loss[k]].name);
	}
	if (ev->nloss)
		TEXT(d, ")");
	desc_end(d);
	desc_boolean(d, "rejoin", ev->rejoin);
	if (ev->rejoin)
		SHOWN(d, " rejoin=yes");
	TEXT(d, "\n");
	desc_str(d, "ends", ev->ends >= 0 ? p->ev[ev->ends].name : "");
	if (ev->ends >= 0)
		SHOWN(d,
		      "      ends ev=%s: its recovery window runs through this event\n",
		      p->ev[ev->ends].name);
	/* The restore a user meant, cut short: say so before the run. */
	if (ev->ends < 0 && ev->has_after && !restored(p, ev->after))
		TEXT(d,
		     "      ev=%s's recovery window stops where this event starts (if this restores it, ends=%s runs the window through)\n",
		     ev->after_name, ev->after_name);
	desc_end(d);
}

/* The whole plan. Returns 0 or -ENOMEM. */
static int describe(struct desc *d, const struct check *c)
{
	const struct params *p = c->p;
	unsigned unsized;
	uint64_t fb = format_total(c, &unsized);
	char sz[32];

	desc_object(d, NULL);
	desc_str(d, "file", c->path);
	SHOWN(d, "%s: valid: %zu sd, %zu wd, %zu rd -> %zu phase%s\n", c->path,
	      p->nsd, p->nwd, p->nrd, c->nph, c->nph == 1 ? "" : "s");
	desc_boolean(d, "valid", 1);
	desc_object(d, "general");
	SHOWN(d, "general:");
	desc_dbl(d, "compratio", p->compratio);
	SHOWN(d, " compratio=%g", p->compratio);
	desc_dbl(d, "dedupratio", p->dedupratio);
	SHOWN(d, " dedupratio=%g", p->dedupratio);
	desc_u64(d, "dedupunit", p->dedupunit);
	SHOWN(d, " dedupunit=%s", size_str(p->dedupunit, sz, sizeof(sz)));
	desc_boolean(d, "validate", p->validate);
	SHOWN(d, " validate=%s", p->validate ? "yes" : "no");
	desc_boolean(d, "concatenatesds", p->concat);
	if (p->concat)
		SHOWN(d, " concatenatesds=yes");
	desc_str(d, "journal", p->journal);
	if (p->journal[0])
		SHOWN(d, " journal=%s", p->journal);
	desc_str(d, "nic", p->nic);
	if (p->nic[0])
		SHOWN(d, " nic=%s", p->nic);
	desc_u64(d, "data_errors", p->data_errors);
	SHOWN(d, " data_errors=%u", p->data_errors);
	desc_u64(d, "formatxfersize", p->formatxfersize);
	SHOWN(d, " formatxfersize=%s\n",
	      size_str(p->formatxfersize, sz, sizeof(sz)));
	desc_end(d);
	/* The text leaves warnings to stderr, where both print them. */
	desc_array(d, "warnings");
	for (size_t i = 0; i < p->nwarn; i++)
		desc_str(d, NULL, p->warn[i]);
	desc_end(d);
	describe_hosts(d, c);
	describe_sds(d, p);
	describe_fs(d, p);
	desc_array(d, "phases");
	SHOWN(d, "phases:\n");
	for (size_t i = 0; i < c->nph; i++)
		describe_phase(d, c, i);
	desc_end(d);
	describe_probes(d, p);
	describe_cmds(d, p);
	desc_array(d, "timeline");
	if (p->nev)
		SHOWN(d, "timeline:\n");
	for (size_t i = 0; i < p->nev; i++)
		describe_event(d, c, i);
	desc_end(d);
	desc_dbl(d, "total_seconds", plan_total_seconds(c->ph, c->nph));
	SHOWN(d, "planned time: %.0f s", plan_total_seconds(c->ph, c->nph));
	desc_u64(d, "format_bytes", fb);
	if (fb || unsized)
		SHOWN(d, ", plus format phases that write %s%s",
		      size_str(fb, sz, sizeof(sz)),
		      unsized ? " and whole luns" : "");
	desc_u64(d, "format_unsized", unsized);
	SHOWN(d, "\n");
	desc_end(d);
	return d->nomem ? -ENOMEM : 0;
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
		desc_render_json(&d, stdout);
	} else {
		desc_render_text(&d, stdout);
	}
	desc_free(&d);
	free(c.ev);
	free(c.ph);
	params_free(&c.p);
	return ret < 0 ? LS_EXIT_BAD_INPUT : LS_EXIT_OK;
}
