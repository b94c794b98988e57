/*
 * What `lockstep check` says of the commands a run will run on its own:
 * the probe= lines the master samples and the startcmd=/endcmd= commands
 * (kept out of check.c, which describes the hosts, sds and phases).
 */
#include <stdbool.h>
#include <stddef.h>
#include "master/check/desc.h"
#include "master/check/desc_cmds.h"
#include "master/params/params.h"
#include "common/units.h"

/* One probe= line: what the master samples, how often, its bound. */
static void describe_probe(struct desc *d, const struct params_probe *pr)
{
	desc_object(d, NULL);
	desc_str(d, "name", pr->name);
	SHOWN(d, "  %s: exec: %s\n", pr->name, pr->exec);
	desc_str(d, "exec", pr->exec);
	desc_dbl(d, "every_s", pr->every_s);
	SHOWN(d, "      every=%gs", pr->every_s);
	desc_dbl(d, "timeout_s", pr->timeout_s);
	SHOWN(d, " timeout=%gs\n", pr->timeout_s);
	desc_end(d);
}

/* A startcmd= or endcmd= (rd NULL: the general one), if it has commands. */
static void describe_cmd(struct desc *d, const struct params *p, const char *rd,
			 const char *keyword, const struct params_cmd *c)
{
	if (!c->n)
		return;
	desc_object(d, NULL);
	desc_str(d, "keyword", keyword);
	desc_str(d, "rd", rd ? rd : "");
	SHOWN(d, "  %s%s%s", rd ? rd : "", rd ? " " : "", keyword);
	desc_str(d, "scope", c->slave ? "slave" : "master");
	SHOWN(d, " (%s",
	      c->slave ?
		      "on one slave of each host, which needs --allow-commands" :
	      rd ? "on the master, around each run" :
		   "on the master");
	desc_str(d, "target", params_cmd_target_name(c->target));
	SHOWN(d, ", target %s):\n", params_cmd_target_name(c->target));
	desc_array(d, "commands");
	for (unsigned i = 0; i < c->n; i++) {
		desc_str(d, NULL, params_cmd_text(p, c, i));
		SHOWN(d, "      %s\n", params_cmd_text(p, c, i));
	}
	desc_end(d);
	desc_end(d);
}

void describe_cmds(struct desc *d, const struct params *p)
{
	bool any = p->startcmd.n || p->endcmd.n;

	for (size_t i = 0; i < p->nrd; i++)
		any = any || p->rd[i].startcmd.n || p->rd[i].endcmd.n;
	desc_array(d, "commands");
	if (any)
		TEXT(d, "commands:\n");
	describe_cmd(d, p, NULL, "startcmd", &p->startcmd);
	for (size_t i = 0; i < p->nrd; i++) {
		describe_cmd(d, p, p->rd[i].name, "startcmd",
			     &p->rd[i].startcmd);
		describe_cmd(d, p, p->rd[i].name, "endcmd", &p->rd[i].endcmd);
	}
	describe_cmd(d, p, NULL, "endcmd", &p->endcmd);
	desc_end(d);
}

void describe_probes(struct desc *d, const struct params *p)
{
	desc_array(d, "probes");
	if (p->nprobe)
		SHOWN(d, "probes (on the master, from the first run's start to "
			 "the last run's end):\n");
	for (size_t i = 0; i < p->nprobe; i++)
		describe_probe(d, &p->probe[i]);
	desc_end(d);
}

/* replay=: the trace, its device, the mode and what the master read. */
void describe_replay(struct desc *d, const struct params_wd *wd)
{
	char sz[32];

	desc_object(d, "replay");
	desc_str(d, "file", wd->replay);
	desc_str(d, "device", wd->replay_dev);
	desc_str(d, "mode", wd->replay_afap ? "afap" : "timed");
	desc_u64(d, "records", wd->replay_nrec);
	desc_u64(d, "span_ns", wd->replay_span_ns);
	desc_u64(d, "max_len", wd->replay_maxlen);
	desc_u64(d, "end", wd->replay_end);
	desc_end(d);
	SHOWN(d,
	      " replay=%s replay_device=%s replay_mode=%s (%llu records over %.3f s, up to %s each)",
	      wd->replay, wd->replay_dev, wd->replay_afap ? "afap" : "timed",
	      (unsigned long long)wd->replay_nrec, wd->replay_span_ns / 1e9,
	      units_fmt_size(wd->replay_maxlen, sz, sizeof(sz)));
}
