/*
 * `lockstep check FILE [--json] [-e S -w S -i S] [--local-slaves N]`:
 * parse, validate and expand a parameter file and print the plan - hosts
 * and their slaves, the sds each host runs, every phase with its resolved
 * values, the planned time and what format phases write - touching no
 * target and no host. Every per-slave plan is built too, so whatever
 * `lockstep run` would refuse is refused here with the same message.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/exitcode.h"
#include "common/opts.h"
#include "common/params.h"
#include "common/units.h"
#include "master/jsonw.h"
#include "master/master.h"
#include "master/plan.h"

struct check {
	const char *path;
	bool json;
	unsigned nlocal;
	struct plan_overrides ov;
	struct params *p;
	struct plan_phase *ph;
	size_t nph;
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

/* ---- text ------------------------------------------------------------- */

static void print_hosts(const struct check *c)
{
	const struct params *p = c->p;

	printf("hosts:\n");
	if (!p->nhd)
		printf("  localhost: %u local slaves (--local-slaves), every sd\n",
		       c->nlocal);
	for (size_t h = 0; h < p->nhd; h++) {
		const struct params_hd *hd = &p->hd[h];

		printf("  %s: system=%s user=%s shell=%s lockstep=%s, %u slave%s; sds:",
		       hd->name, hd->system, hd->user[0] ? hd->user : "-",
		       shell_name(hd->shell),
		       hd->lockstep[0] ? hd->lockstep : "-", hd->slaves,
		       hd->slaves == 1 ? "" : "s");
		for (unsigned i = 0; i < p->nsd; i++)
			if (sd_used(p, i) && plan_sd_on_host(p, i, (int)h))
				printf(" %s", p->sd[i].name);
		printf("\n");
	}
}

static void print_sds(const struct params *p)
{
	char sz[32], al[32], off[32];

	printf("sds:\n");
	for (size_t i = 0; i < p->nsd; i++) {
		const struct params_sd *sd = &p->sd[i];

		printf("  %s: lun=%s size=%s range=(%g,%g) threads=%u openflags=%s%s%s align=%s offset=%s force=%s host=",
		       sd->name, sd->lun,
		       sd->size ? size_str(sd->size, sz, sizeof(sz)) : "lun",
		       sd->range_lo, sd->range_hi, sd->threads,
		       sd->openflags ? "" : "none",
		       sd->openflags & PARAMS_O_DIRECT ? "o_direct" : "",
		       sd->openflags & PARAMS_O_DSYNC ?
			       (sd->openflags & PARAMS_O_DIRECT ? ",o_dsync" :
								  "o_dsync") :
			       "",
		       sd->align ? size_str(sd->align, al, sizeof(al)) :
				   "xfersize",
		       size_str(sd->offset, off, sizeof(off)),
		       sd->force ? "yes" : "no");
		if (!sd->nhost)
			printf("*");
		for (size_t h = 0; h < sd->nhost; h++)
			printf("%s%s", h ? "," : "", p->hd[sd->host[h]].name);
		printf("%s%s\n", sd->sqpoll ? " sqpoll=yes" : "",
		       sd_used(p, (unsigned)i) ? "" : " (unused)");
	}
}

static void print_wd(const struct params *p, const struct plan_phase *ph,
		     size_t i)
{
	const struct params_wd *wd = &p->wd[p->rd[ph->rd].wd[i]];
	struct plan_wd pw;
	char sz[32];

	plan_wd_resolve(p, ph, i, &pw);
	printf("      %s: sd=(", wd->name);
	for (size_t k = 0; k < wd->nsd; k++)
		printf("%s%s", k ? "," : "", p->sd[wd->sd[k]].name);
	printf(") xfersize=");
	if (pw.nxfer == 1)
		printf("%s", size_str(pw.xfer[0].size, sz, sizeof(sz)));
	for (size_t x = 0; pw.nxfer > 1 && x < pw.nxfer; x++)
		printf("%s%s,%g%s", x ? "," : "(",
		       size_str(pw.xfer[x].size, sz, sizeof(sz)),
		       pw.xfer[x].pct, x + 1 == pw.nxfer ? ")" : "");
	printf(" rdpct=%g seekpct=", pw.rdpct);
	if (pw.seek_eof)
		printf("eof");
	else
		printf("%g", pw.seekpct);
	printf(" skew=%g range=(%g,%g)", pw.skew, pw.range_lo, pw.range_hi);
	if (pw.iorate > 0)
		printf(" iorate=%g", pw.iorate);
	if (wd->nhost) {
		printf(" host=");
		for (size_t h = 0; h < wd->nhost; h++)
			printf("%s%s", h ? "," : "", p->hd[wd->host[h]].name);
	}
	printf("\n");
}

static void print_phase(const struct check *c, size_t i)
{
	const struct params *p = c->p;
	const struct plan_phase *ph = &c->ph[i];
	const struct params_rd *rd = &p->rd[ph->rd];
	char sz[32];

	printf("  %zu. %s [%s]", i + 1, ph->name, plan_kind_name(ph->kind));
	if (ph->kind == PLAN_FORMAT) {
		printf(" writes %s", size_str(ph->format_bytes, sz, sizeof(sz)));
		if (ph->format_unsized)
			printf(" + %u whole luns", ph->format_unsized);
		printf(" with xfersize=%s, interval=%g, until done\n",
		       size_str(p->formatxfersize, sz, sizeof(sz)),
		       ph->interval_s);
		return;
	}
	if (ph->kind == PLAN_CURVE_POINT)
		printf(" iorate=%g%% of phase %u", ph->curve_pct,
		       ph->curve_max + 1);
	else if (ph->iorate > 0)
		printf(" iorate=%g", ph->iorate);
	else
		printf(" iorate=max");
	printf(" elapsed=%g warmup=%g interval=%g", ph->elapsed_s, ph->warmup_s,
	       ph->interval_s);
	if (ph->stopcurve_ms > 0)
		printf(" stopcurve=%gms", ph->stopcurve_ms);
	if (ph->pause_s > 0)
		printf(" pause=%g", ph->pause_s);
	printf(" compratio=%g distribution=%s\n", ph->compratio,
	       dist_name(ph->distribution));
	for (size_t w = 0; w < rd->nwd; w++)
		print_wd(p, ph, w);
	printf("      threads:");
	for (unsigned s = 0; s < p->nsd; s++)
		if (plan_rd_uses_sd(p, ph->rd, s))
			printf(" %s=%u", p->sd[s].name,
			       plan_sd_threads(p, ph, s));
	printf("\n");
}

static void print_text(const struct check *c)
{
	const struct params *p = c->p;
	uint64_t fb;
	unsigned unsized;
	char sz[32], fx[32];

	printf("%s: valid: %zu sd, %zu wd, %zu rd -> %zu phase%s\n", c->path,
	       p->nsd, p->nwd, p->nrd, c->nph, c->nph == 1 ? "" : "s");
	printf("general: compratio=%g dedupratio=%g dedupunit=%s validate=%s data_errors=%u formatxfersize=%s\n",
	       p->compratio, p->dedupratio,
	       size_str(p->dedupunit, sz, sizeof(sz)),
	       p->validate ? "yes" : "no", p->data_errors,
	       size_str(p->formatxfersize, fx, sizeof(fx)));
	print_hosts(c);
	print_sds(p);
	printf("phases:\n");
	for (size_t i = 0; i < c->nph; i++)
		print_phase(c, i);
	fb = format_total(c, &unsized);
	printf("planned time: %.0f s", plan_total_seconds(c->ph, c->nph));
	if (fb || unsized)
		printf(", plus format phases that write %s%s", size_str(fb, sz, sizeof(sz)),
		       unsized ? " and whole luns" : "");
	printf("\n");
}

/* ---- json ------------------------------------------------------------- */

static void json_hosts(struct jsonw *w, const struct check *c)
{
	const struct params *p = c->p;

	jsonw_array(w, "hosts");
	if (!p->nhd) {
		jsonw_object(w, NULL);
		jsonw_str(w, "name", "localhost");
		jsonw_bool(w, "local", 1);
		jsonw_u64(w, "slaves", c->nlocal);
		jsonw_array(w, "sds");
		for (unsigned i = 0; i < p->nsd; i++)
			if (sd_used(p, i))
				jsonw_str(w, NULL, p->sd[i].name);
		jsonw_end(w);
		jsonw_end(w);
	}
	for (size_t h = 0; h < p->nhd; h++) {
		const struct params_hd *hd = &p->hd[h];

		jsonw_object(w, NULL);
		jsonw_str(w, "name", hd->name);
		jsonw_bool(w, "local", 0);
		jsonw_str(w, "system", hd->system);
		jsonw_str(w, "user", hd->user);
		jsonw_str(w, "shell", shell_name(hd->shell));
		jsonw_str(w, "lockstep", hd->lockstep);
		jsonw_u64(w, "slaves", hd->slaves);
		jsonw_array(w, "sds");
		for (unsigned i = 0; i < p->nsd; i++)
			if (sd_used(p, i) && plan_sd_on_host(p, i, (int)h))
				jsonw_str(w, NULL, p->sd[i].name);
		jsonw_end(w);
		jsonw_end(w);
	}
	jsonw_end(w);
}

static void json_range(struct jsonw *w, double lo, double hi)
{
	jsonw_array(w, "range");
	jsonw_dbl(w, NULL, lo);
	jsonw_dbl(w, NULL, hi);
	jsonw_end(w);
}

static void json_hostlist(struct jsonw *w, const struct params *p,
			  const unsigned *host, size_t nhost)
{
	jsonw_array(w, "hosts");
	if (!nhost)
		jsonw_str(w, NULL, "*");
	for (size_t h = 0; h < nhost; h++)
		jsonw_str(w, NULL, p->hd[host[h]].name);
	jsonw_end(w);
}

static void json_sds(struct jsonw *w, const struct params *p)
{
	jsonw_array(w, "sds");
	for (size_t i = 0; i < p->nsd; i++) {
		const struct params_sd *sd = &p->sd[i];

		jsonw_object(w, NULL);
		jsonw_str(w, "name", sd->name);
		jsonw_str(w, "lun", sd->lun);
		jsonw_u64(w, "size", sd->size);
		jsonw_u64(w, "threads", sd->threads);
		jsonw_array(w, "openflags");
		if (sd->openflags & PARAMS_O_DIRECT)
			jsonw_str(w, NULL, "o_direct");
		if (sd->openflags & PARAMS_O_DSYNC)
			jsonw_str(w, NULL, "o_dsync");
		jsonw_end(w);
		json_range(w, sd->range_lo, sd->range_hi);
		jsonw_u64(w, "align", sd->align);
		jsonw_u64(w, "offset", sd->offset);
		jsonw_bool(w, "force", sd->force);
		jsonw_bool(w, "sqpoll", sd->sqpoll);
		json_hostlist(w, p, sd->host, sd->nhost);
		jsonw_bool(w, "used", sd_used(p, (unsigned)i));
		jsonw_end(w);
	}
	jsonw_end(w);
}

static void json_wd(struct jsonw *w, const struct params *p,
		    const struct plan_phase *ph, size_t i)
{
	const struct params_wd *wd = &p->wd[p->rd[ph->rd].wd[i]];
	struct plan_wd pw;

	plan_wd_resolve(p, ph, i, &pw);
	jsonw_object(w, NULL);
	jsonw_str(w, "name", wd->name);
	jsonw_array(w, "sds");
	for (size_t k = 0; k < wd->nsd; k++)
		jsonw_str(w, NULL, p->sd[wd->sd[k]].name);
	jsonw_end(w);
	jsonw_array(w, "xfersize");
	for (size_t x = 0; x < pw.nxfer; x++) {
		jsonw_object(w, NULL);
		jsonw_u64(w, "size", pw.xfer[x].size);
		jsonw_dbl(w, "pct", pw.xfer[x].pct);
		jsonw_end(w);
	}
	jsonw_end(w);
	jsonw_dbl(w, "rdpct", pw.rdpct);
	jsonw_dbl(w, "seekpct", pw.seekpct);
	jsonw_bool(w, "seek_eof", pw.seek_eof);
	jsonw_dbl(w, "skew", pw.skew);
	jsonw_dbl(w, "iorate", pw.iorate);
	json_range(w, pw.range_lo, pw.range_hi);
	json_hostlist(w, p, wd->host, wd->nhost);
	jsonw_end(w);
}

static void json_phase(struct jsonw *w, const struct check *c, size_t i)
{
	const struct params *p = c->p;
	const struct plan_phase *ph = &c->ph[i];
	const struct params_rd *rd = &p->rd[ph->rd];

	jsonw_object(w, NULL);
	jsonw_u64(w, "index", i + 1);
	jsonw_str(w, "run", rd->name);
	jsonw_str(w, "name", ph->name);
	jsonw_str(w, "kind", plan_kind_name(ph->kind));
	jsonw_dbl(w, "iorate", ph->iorate);
	if (ph->kind == PLAN_CURVE_POINT) {
		jsonw_dbl(w, "curve_pct", ph->curve_pct);
		jsonw_u64(w, "curve_max", ph->curve_max + 1);
	}
	if (ph->kind == PLAN_CURVE_MAX || ph->kind == PLAN_CURVE_POINT)
		jsonw_dbl(w, "stopcurve_ms", ph->stopcurve_ms);
	jsonw_dbl(w, "elapsed", ph->elapsed_s);
	jsonw_dbl(w, "warmup", ph->warmup_s);
	jsonw_dbl(w, "interval", ph->interval_s);
	jsonw_u64(w, "intervals", ph->intervals);
	jsonw_u64(w, "warmup_intervals", ph->warmup_intervals);
	jsonw_dbl(w, "pause", ph->pause_s);
	jsonw_dbl(w, "compratio", ph->compratio);
	jsonw_str(w, "distribution", dist_name(ph->distribution));
	if (ph->kind == PLAN_FORMAT) {
		jsonw_u64(w, "format_bytes", ph->format_bytes);
		jsonw_u64(w, "format_unsized", ph->format_unsized);
		jsonw_u64(w, "format_xfersize", p->formatxfersize);
	} else {
		jsonw_array(w, "wds");
		for (size_t k = 0; k < rd->nwd; k++)
			json_wd(w, p, ph, k);
		jsonw_end(w);
	}
	jsonw_object(w, "threads");
	for (unsigned s = 0; s < p->nsd; s++)
		if (plan_rd_uses_sd(p, ph->rd, s))
			jsonw_u64(w, p->sd[s].name, plan_sd_threads(p, ph, s));
	jsonw_end(w);
	jsonw_end(w);
}

static void print_json(const struct check *c)
{
	const struct params *p = c->p;
	struct jsonw w;
	unsigned unsized;
	uint64_t fb = format_total(c, &unsized);

	jsonw_init(&w, stdout);
	jsonw_object(&w, NULL);
	jsonw_str(&w, "file", c->path);
	jsonw_bool(&w, "valid", 1);
	jsonw_object(&w, "general");
	jsonw_dbl(&w, "compratio", p->compratio);
	jsonw_dbl(&w, "dedupratio", p->dedupratio);
	jsonw_u64(&w, "dedupunit", p->dedupunit);
	jsonw_bool(&w, "validate", p->validate);
	jsonw_u64(&w, "data_errors", p->data_errors);
	jsonw_u64(&w, "formatxfersize", p->formatxfersize);
	jsonw_end(&w);
	jsonw_array(&w, "warnings");
	for (size_t i = 0; i < p->nwarn; i++)
		jsonw_str(&w, NULL, p->warn[i]);
	jsonw_end(&w);
	json_hosts(&w, c);
	json_sds(&w, p);
	jsonw_array(&w, "phases");
	for (size_t i = 0; i < c->nph; i++)
		json_phase(&w, c, i);
	jsonw_end(&w);
	jsonw_dbl(&w, "total_seconds", plan_total_seconds(c->ph, c->nph));
	jsonw_u64(&w, "format_bytes", fb);
	jsonw_u64(&w, "format_unsized", unsized);
	jsonw_end(&w);
	jsonw_finish(&w);
}

/* ---- command line ----------------------------------------------------- */

static int parse_args(struct check *c, int argc, char **argv)
{
	int json = 0, help = 0, args, ret;
	const struct opts_def defs[] = {
		{ "json", 0, OPTS_FLAG, &json,
		  .help = "print the plan as one JSON document" },
		{ NULL, 'e', OPTS_SECONDS, &c->ov.elapsed_s, .flags = OPTS_UNITS,
		  .label = "-e S, -w S, -i S",
		  .help = "override every rd's elapsed, warmup, interval" },
		{ NULL, 'w', OPTS_SECONDS, &c->ov.warmup_s,
		  .flags = OPTS_UNITS },
		{ NULL, 'i', OPTS_SECONDS, &c->ov.interval_s,
		  .flags = OPTS_UNITS | OPTS_POSITIVE },
		{ "local-slaves", 0, OPTS_UINT, &c->nlocal, 1, 256,
		  OPTS_NONEMPTY | OPTS_NO_ECHO, .arg = "N",
		  .help = "slaves assumed without hd= lines (default 2)" },
		{ .name = "help", .letter = 'h', .kind = OPTS_HELP,
		  .dest = &help },
	};
	const struct opts_cmd cmd = {
		.prog = "lockstep check",
		.synopsis = "usage: lockstep check FILE [--json] [-e S] [-w S] [-i S] [--local-slaves N]",
		.footer = "Exit 0 when the file is valid, 1 when it is not.\n",
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

int master_check_main(int argc, char **argv)
{
	struct check c = { .nlocal = 2, .ov = { -1, -1, -1 } };
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
	if (ret < 0) {
		fprintf(stderr, "%s\n", err);
		free(c.ph);
		params_free(&c.p);
		return LS_EXIT_BAD_INPUT;
	}
	if (c.json)
		print_json(&c);
	else
		print_text(&c);
	free(c.ph);
	params_free(&c.p);
	return LS_EXIT_OK;
}
