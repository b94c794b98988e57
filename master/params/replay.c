/*
 * replay= on a wd= (lockstep's form of Vdbench's replay): the trace file
 * resolved and read (common/trace.c), its device mapped to the wd's one
 * sd, and what replay cannot go with refused where it is written: the
 * keywords that shape generated I/O (the trace gives every offset, size
 * and direction), validate=yes, and on the rd a fixed or searched rate
 * and the loops over generated shapes. docs/DESIGN.md §8 "Replay".
 */
#include "master/params/params_int.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/trace.h"

int wd_set_replay(struct parser *p, const struct kw *kw, void *obj,
		  const struct item *it)
{
	struct params_wd *wd = obj;
	const struct val *v = values_single(p, kw, it);
	char path[PARAMS_PATH_MAX], real[PATH_MAX];

	if (!v)
		return -EINVAL;
	if (p->flags & PARAMS_NO_INCLUDE)
		return perr(p, it->kpos,
			    "replay= reads a file, which is not allowed here");
	if (!v->len)
		return perr(p, v->pos, "replay= needs a trace file");
	if (include_path(p, v, path, sizeof(path)))
		return perr(p, v->pos, "replay=%.*s: the path is too long",
			    show(v->len), v->s);
	if (!realpath(path, real))
		return perr(p, v->pos, "replay=%.*s: cannot read %s: %s",
			    show(v->len), v->s, path, strerror(errno));
	if (strlen(real) >= sizeof(wd->replay))
		return perr(p, v->pos, "replay=%.*s: the path is too long",
			    show(v->len), v->s);
	snprintf(wd->replay, sizeof(wd->replay), "%s", real);
	wd->replay_pos = it->kpos;
	return 0;
}

int wd_set_replay_mode(struct parser *p, const struct kw *kw, void *obj,
		       const struct item *it)
{
	struct params_wd *wd = obj;
	const struct val *v = values_single(p, kw, it);

	if (!v)
		return -EINVAL;
	if (val_is(v, "timed"))
		wd->replay_afap = false;
	else if (val_is(v, "afap"))
		wd->replay_afap = true;
	else
		return perr(p, v->pos,
			    "replay_mode=%.*s: timed (as recorded) or afap (as fast as possible)",
			    show(v->len), v->s);
	wd->replay_mode_pos = it->kpos;
	return 0;
}

/* The keywords that shape generated I/O: the trace gives all of it. */
static const char *const generated[] = {
	"xfersize",
	"rdpct",
	"seekpct",
	"range",
	"skew",
	"iorate",
	"priority",
	"rhpct",
	"whpct",
	"hotband",
	"random_distribution",
	"streams",
	"stride",
};

/* The device key of replay_device= in t: as given, or MAJ:MIN as MAJ,MIN. */
static int find_dev(const struct trace *t, const char *key)
{
	char alt[TRACE_KEY_LEN];
	const char *colon = strchr(key, ':');
	int i = trace_dev(t, key);

	if (i >= 0 || !colon ||
	    (t->format != TRACE_BLKPARSE && t->format != TRACE_BLKTRACE))
		return i;
	snprintf(alt, sizeof(alt), "%.*s,%s", (int)(colon - key), key,
		 colon + 1);
	return trace_dev(t, alt);
}

/* The trace's devices, for a message: "8,0", "8,16", ... */
static void dev_list(const struct trace *t, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < t->ndev && at + 1 < len; i++) {
		int n = snprintf(buf + at, len - at, "%s'%s'", i ? ", " : "",
				 i < 8 ? t->key[i] : "...");

		if (n < 0)
			break;
		at += (size_t)n;
		if (i == 8)
			break;
	}
}

/* The facts of the wd's device in t that the plan and checks need. */
static void dev_facts(struct params_wd *wd, const struct trace *t, int dev)
{
	uint64_t first = UINT64_MAX, last = 0;

	for (size_t i = 0; i < t->n; i++) {
		const struct trace_rec *r = &t->rec[i];

		if (r->dev != dev)
			continue;
		wd->replay_nrec++;
		if (r->offset + r->len > wd->replay_end)
			wd->replay_end = r->offset + r->len;
		if (r->len > wd->replay_maxlen)
			wd->replay_maxlen = r->len;
		if (!wd->replay_odd_line && (r->offset % 512 || r->len % 512))
			wd->replay_odd_line = r->line;
		first = r->t_ns < first ? r->t_ns : first;
		last = r->t_ns > last ? r->t_ns : last;
	}
	wd->replay_span_ns = wd->replay_nrec ? last - first : 0;
	wd->replay_hash = t->hash;
}

static int check_trace(struct parser *p, struct params_wd *wd)
{
	struct params_pos dp = params_from(p, "replay_device");
	struct trace t = { 0 };
	char err[1024], devs[512];
	int ret, dev;

	ret = trace_read(&t, wd->replay, err, sizeof(err));
	if (ret == -ENOMEM)
		goto out;
	if (ret) {
		ret = perr(p, wd->replay_pos, "wd=%s: replay=: %s", wd->name,
			   err);
		goto out;
	}
	dev_list(&t, devs, sizeof(devs));
	if (!wd->replay_dev[0] && t.ndev > 1) {
		ret = perr(p, wd->replay_pos,
			   "wd=%s: the trace has %zu devices (%s): say which one this wd replays with replay_device=",
			   wd->name, t.ndev, devs);
		goto out;
	}
	dev = wd->replay_dev[0] ? find_dev(&t, wd->replay_dev) : 0;
	if (dev < 0) {
		ret = perr(p, dp, "wd=%s: replay_device=%s is not in %s (%s)",
			   wd->name, wd->replay_dev, wd->replay, devs);
		goto out;
	}
	snprintf(wd->replay_dev, sizeof(wd->replay_dev), "%s", t.key[dev]);
	dev_facts(wd, &t, dev);
	if (!wd->replay_nrec)
		ret = perr(p, dp.line ? dp : wd->replay_pos,
			   "wd=%s: device '%s' has no read or write records in %s",
			   wd->name, wd->replay_dev, wd->replay);
out:
	trace_free(&t);
	return ret;
}

/* The sd's side: its size and its opening. */
static int check_sd(struct parser *p, const struct params_wd *wd)
{
	const struct params_sd *sd = &p->out->sd[wd->sd[0]];
	unsigned of = wd->openflags_set ? wd->openflags : sd->openflags;

	if (sd->range_lo != 0 || sd->range_hi != 100)
		return perr(p, wd->replay_pos,
			    "wd=%s: replay= uses the whole sd, and sd=%s has range=(%g,%g)",
			    wd->name, sd->name, sd->range_lo, sd->range_hi);
	if (sd->size && wd->replay_end > sd->size)
		return perr(p, wd->replay_pos,
			    "wd=%s: device '%s' of the trace reaches byte %llu, past the end of sd=%s (size=%llu): use a larger sd (Vdbench's rule)",
			    wd->name, wd->replay_dev,
			    (unsigned long long)wd->replay_end, sd->name,
			    (unsigned long long)sd->size);
	if ((of & PARAMS_O_DIRECT) && wd->replay_odd_line)
		return perr(p, wd->replay_pos,
			    "wd=%s: %s:%u: a record not in 512-byte units, and sd=%s is opened with o_direct",
			    wd->name, wd->replay, wd->replay_odd_line,
			    sd->name);
	return 0;
}

int replay_wd_finish(struct parser *p, struct params_wd *wd)
{
	struct params_pos at;

	if (!wd->replay[0]) {
		at = params_from(p, "replay_device");
		if (!at.line)
			at = params_from(p, "replay_mode");
		if (at.line)
			return perr(p, at,
				    "wd=%s: %s without replay=", wd->name,
				    params_from(p, "replay_device").line ?
					    "replay_device=" :
					    "replay_mode=");
		return 0;
	}
	for (size_t i = 0; i < sizeof(generated) / sizeof(generated[0]); i++) {
		at = params_from(p, generated[i]);
		if (at.line)
			return perr(p, at,
				    "wd=%s: %s= has no meaning with replay= (the trace gives every I/O's offset, size and direction, and its time)",
				    wd->name, generated[i]);
	}
	if (p->out->validate)
		return perr(p, wd->replay_pos,
			    "wd=%s: replay= with validate=yes is not supported (a trace's blocks are not owned by one slave)",
			    wd->name);
	if (wd->nsd != 1)
		return perr(p, wd->replay_pos,
			    "wd=%s: replay= runs on one sd, and it has %zu: give each trace device a wd of its own (replay_device=)",
			    wd->name, wd->nsd);
	int ret = check_trace(p, wd);

	return ret ? ret : check_sd(p, wd);
}

int replay_rd_finish(struct parser *p, const struct params_rd *rd)
{
	const struct params_wd *first = NULL;
	size_t nrep = 0;

	for (size_t i = 0; i < rd->nwd; i++) {
		const struct params_wd *wd = &p->out->wd[rd->wd[i]];

		if (!wd->replay[0])
			continue;
		nrep++;
		if (!first)
			first = wd;
		else if (wd->replay_afap != first->replay_afap)
			return perr(p, p->dpos,
				    "rd=%s: wd=%s and wd=%s replay in different replay_mode=s: one per rd",
				    rd->name, first->name, wd->name);
		for (size_t k = 0; k < rd->nwd; k++) {
			const struct params_wd *o = &p->out->wd[rd->wd[k]];

			if (k != i && o->nsd && o->sd[0] == wd->sd[0] &&
			    o->replay[0])
				return perr(p, p->dpos,
					    "rd=%s: wd=%s and wd=%s both replay on sd=%s: one trace device per sd",
					    rd->name, wd->name, o->name,
					    p->out->sd[wd->sd[0]].name);
		}
	}
	if (!nrep)
		return 0;
	if (nrep != rd->nwd)
		return perr(p, p->dpos,
			    "rd=%s: wd=%s replays a trace, so every wd of the rd must (a generated wd beside it is not supported)",
			    rd->name, first->name);
	if (rd->iorate_kind != PARAMS_IORATE_MAX)
		return perr(p, rd->iorate_pos.line ? rd->iorate_pos : p->dpos,
			    "rd=%s: wd=%s replays a trace, at its recorded times or as fast as possible (replay_mode=): iorate= must be max",
			    rd->name, first->name);
	for (size_t i = 0; i < rd->nloop; i++) {
		enum params_loop_kind k = rd->loop[i].kind;

		if (k != PARAMS_LOOP_THREADS && k != PARAMS_LOOP_COMPRATIO)
			return perr(p, rd->loop[i].pos,
				    "rd=%s: this for-loop has no meaning with wd=%s's replay= (the trace gives every I/O): only forthreads= and forcompratio= go with it",
				    rd->name, first->name);
	}
	if (rd->maxdata > 0)
		return perr(p, rd->maxdata_pos,
			    "rd=%s: maxdata= with replay= is not supported (a replay ends with its trace)",
			    rd->name);
	return 0;
}
