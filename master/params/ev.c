/*
 * ev= (event) definitions of a failure-and-rebuild run: which rd an event
 * belongs to, when it starts (at= an offset into the rd's measured time or
 * into one of its phases by name, or after= the end of another event plus
 * an offset), what it runs (exec=, until= polled every poll=, both on the
 * master or on one hd= host), how long it may take (timeout=), whose loss
 * it explains (expect_loss=, rejoin=), what a failure does (on_fail=) and
 * the baseline window and thresholds of its recovery figures (baseline=,
 * degrade=, recover_iops=, recover_p99=, recover_n=). Every check
 * that needs only the file is made here, with the position of the value at
 * fault: after= chains once every ev= line is read (ev_resolve), phase
 * names against the plan in master/plan/evplan.c.
 */
#include "master/params/params_int.h"
#include "common/units.h"

#include <errno.h>
#include <math.h>
#include <string.h>

int ev_set_rd(struct parser *p, const struct kw *kw, void *obj,
	      const struct item *it)
{
	struct params_ev *ev = obj;
	unsigned idx[PARAMS_LIST_MAX];
	size_t n = 0;
	int ret;

	if (it->nval != 1 || it->list)
		return perr(p, it->vpos, "%s= takes one rd name", kw->name);
	ret = params_set_refs(p, kw, it, KIND_RD, idx, &n);
	if (ret)
		return ret;
	ev->rd = idx[0];
	return 0;
}

/* A duration >= 0 in s (len bytes), or -EINVAL. */
static int offset_of(const char *s, size_t len, double *out)
{
	char buf[64];

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (units_parse_seconds(buf, out) || !isfinite(*out) || *out < 0)
		return -EINVAL;
	return 0;
}

/*
 * NAME or NAME+OFFSET (the last '+': event names have none, an rd's name
 * may): NAME into name (size bytes) and OFFSET, 0 without one, into *off.
 * Returns 0, -EINVAL for an offset that is not a duration >= 0, or
 * -ENAMETOOLONG for an empty or too long NAME.
 */
static int name_plus(const struct val *v, char *name, size_t size, double *off)
{
	const char *plus = memrchr(v->s, '+', v->len);
	size_t nlen = plus ? (size_t)(plus - v->s) : v->len;

	*off = 0;
	if (plus && offset_of(plus + 1, v->len - nlen - 1, off))
		return -EINVAL;
	if (!nlen || nlen >= size)
		return -ENAMETOOLONG;
	memcpy(name, v->s, nlen);
	name[nlen] = '\0';
	return 0;
}

/*
 * at=OFFSET, at=PHASE or at=PHASE+OFFSET: an offset into the measured time
 * of the rd's first measured phase, or of the phase of that printed name
 * (quoted: "rd1 xfersize=8k"). Which phases exist is known only once the
 * file is planned (evplan.c checks the name there).
 */
int ev_set_at(struct parser *p, const struct kw *kw, void *obj,
	      const struct item *it)
{
	struct params_ev *ev = obj;
	const struct val *v = values_single(p, kw, it);
	int ret;

	if (!v)
		return -EINVAL;
	ev->has_at = true;
	ev->at_pos = v->pos;
	ev->at_phase[0] = '\0';
	if (offset_of(v->s, v->len, &ev->at_s) == 0)
		return 0;
	/* A number that is not a duration is a bad offset, not a name. */
	ret = v->len && (v->s[0] == '-' || (v->s[0] >= '0' && v->s[0] <= '9')) ?
		      -EINVAL :
		      name_plus(v, ev->at_phase, sizeof(ev->at_phase),
				&ev->at_s);
	if (ret == -EINVAL)
		return perr(p, v->pos,
			    "%s=%.*s is not an offset (a duration >= 0: 90, 30s, 5m, 1h) nor PHASE[+OFFSET]",
			    kw->name, show(v->len), v->s);
	if (ret)
		return perr(p, v->pos, "%s=%.*s: no phase has such a name",
			    kw->name, show(v->len), v->s);
	return 0;
}

/* after=EVENT or after=EVENT+OFFSET; EVENT may be defined further down. */
int ev_set_after(struct parser *p, const struct kw *kw, void *obj,
		 const struct item *it)
{
	struct params_ev *ev = obj;
	const struct val *v = values_single(p, kw, it);
	int ret;

	if (!v)
		return -EINVAL;
	ev->has_after = true;
	ev->after_pos = v->pos;
	ret = name_plus(v, ev->after_name, sizeof(ev->after_name),
			&ev->after_s);
	if (ret == -EINVAL)
		return perr(p, v->pos,
			    "%s=%.*s: the offset after '+' is not a duration >= 0 (90, 30s, 5m, 1h)",
			    kw->name, show(v->len), v->s);
	if (ret)
		return perr(p, v->pos, "%s=%.*s refers to an undefined ev",
			    kw->name, show(v->len), v->s);
	return 0;
}

/* recover_n=N: good intervals in a row that make a recovery, 1..100000. */
int ev_set_recover_n(struct parser *p, const struct kw *kw, void *obj,
		     const struct item *it)
{
	struct params_ev *ev = obj;
	const struct val *v = values_single(p, kw, it);
	double d;
	int ret = v ? 0 : -EINVAL;

	if (!ret)
		ret = values_whole(p, kw, v, 1, 100000, &d);
	if (!ret)
		ev->recover_n = (unsigned)d;
	return ret;
}

/* One hd= name (the commands run there over ssh). */
int ev_set_host(struct parser *p, const struct kw *kw, void *obj,
		const struct item *it)
{
	struct params_ev *ev = obj;
	unsigned idx[PARAMS_LIST_MAX];
	size_t n = 0;
	int ret;

	if (it->nval != 1 || it->list)
		return perr(p, it->vpos, "%s= takes one hd name", kw->name);
	if (!p->out->nhd)
		return perr(p, it->vpos,
			    "%s=%.*s names a host, but no hd= is defined (without host= the commands run on the master)",
			    kw->name, show(it->rawlen), it->raw);
	ret = params_set_refs(p, kw, it, KIND_HD, idx, &n);
	if (ret)
		return ret;
	if (n != 1)
		return perr(p, it->vpos, "%s= takes one hd name, not a pattern",
			    kw->name);
	ev->host = (int)idx[0];
	return 0;
}

int ev_set_loss(struct parser *p, const struct kw *kw, void *obj,
		const struct item *it)
{
	struct params_ev *ev = obj;

	if (!p->out->nhd)
		return perr(p, it->vpos,
			    "%s=%.*s names hosts, but no hd= is defined",
			    kw->name, show(it->rawlen), it->raw);
	return params_set_refs(p, kw, it, KIND_HD, ev->loss, &ev->nloss);
}

int ev_set_on_fail(struct parser *p, const struct kw *kw, void *obj,
		   const struct item *it)
{
	struct params_ev *ev = obj;
	const struct val *v = values_single(p, kw, it);

	if (!v)
		return -EINVAL;
	if (val_is(v, "abort"))
		ev->abort_on_fail = true;
	else if (val_is(v, "continue"))
		ev->abort_on_fail = false;
	else
		return perr(p, v->pos, "%s=%.*s is not abort or continue",
			    kw->name, show(v->len), v->s);
	return 0;
}

/*
 * until=CMD, a command polled every poll=, or until=probe:NAME.KEY<op>VALUE
 * (probe.c), a condition on a probe's samples.
 */
int ev_set_until(struct parser *p, const struct kw *kw, void *obj,
		 const struct item *it)
{
	struct params_ev *ev = obj;
	const struct val *v = values_single(p, kw, it);

	if (!v)
		return -EINVAL;
	if (!cstr(v, ev->until, sizeof(ev->until)))
		return perr(p, v->pos,
			    "%s= is too long (%zu characters, at most %zu)",
			    kw->name, v->len, sizeof(ev->until) - 1);
	ev->until_probe = false;
	if (v->len >= 6 && !memcmp(v->s, "probe:", 6))
		return probe_until(p, ev, v);
	return 0;
}

/* Where keyword name was given in the current definition, else its start. */
static struct params_pos given_at(struct parser *p, const char *name)
{
	struct params_pos pos = params_from(p, name);

	return pos.line ? pos : p->dpos;
}

int ev_finish(struct parser *p)
{
	struct params_ev *ev = &p->cur.ev;
	const struct params_rd *rd;

	if (ev->has_at == ev->has_after)
		return perr(p, ev->has_at ? ev->after_pos : p->dpos,
			    ev->has_at ?
				    "ev=%s has both at= and after=: give one" :
				    "ev=%s needs at= (an offset into its rd) or after= (another event)",
			    ev->name);
	if (!ev->exec[0] && !ev->until[0])
		return perr(p, p->dpos,
			    "ev=%s has neither exec= nor until=: nothing to do",
			    ev->name);
	if (!params_from(p, "rd").line) {
		/* after= takes its event's rd in ev_resolve(); at= needs one. */
		if (ev->has_at && p->out->nrd != 1)
			return perr(p, p->dpos,
				    "ev=%s needs rd= to say which of the %zu rds it belongs to",
				    ev->name, p->out->nrd);
		ev->rd = ev->has_at ? 0 : UINT32_MAX;
	}
	if (ev->rejoin && !ev->nloss)
		return perr(p, given_at(p, "rejoin"),
			    "ev=%s: rejoin=yes needs expect_loss= (whose return to report)",
			    ev->name);
	if (!ev->until[0] && params_from(p, "poll").line)
		return perr(p, given_at(p, "poll"),
			    "ev=%s: poll= without until= (nothing to poll)",
			    ev->name);
	if (ev->until_probe && params_from(p, "poll").line)
		return perr(p, given_at(p, "poll"),
			    "ev=%s: poll= with until=probe: (the probe's every= sets the pace)",
			    ev->name);
	if (ev->until_probe && !ev->exec[0] && params_from(p, "host").line)
		return perr(p, given_at(p, "host"),
			    "ev=%s: host= without exec= (until=probe: runs no command; its probe runs on the master)",
			    ev->name);
	if (ev->has_at && !ev->at_phase[0] && ev->rd != UINT32_MAX) {
		rd = &p->out->rd[ev->rd];
		if (ev->at_s >= rd->elapsed_s)
			return perr(p, ev->at_pos,
				    "ev=%s: at=%gs is past the end of rd=%s's measured time (elapsed=%g)",
				    ev->name, ev->at_s, rd->name,
				    rd->elapsed_s);
	}
	return 0;
}

/* ends=EVENT: the event this one restores, resolved in ev_resolve(). */
int ev_set_ends(struct parser *p, const struct kw *kw, void *obj,
		const struct item *it)
{
	struct params_ev *ev = obj;
	const struct val *v = values_single(p, kw, it);

	if (!v)
		return -EINVAL;
	if (!v->len || v->len >= sizeof(ev->ends_name))
		return perr(p, v->pos, "%s= takes the name of an ev", kw->name);
	memcpy(ev->ends_name, v->s, v->len);
	ev->ends_name[v->len] = '\0';
	ev->ends_pos = v->pos;
	return 0;
}

/* Whether ev's after= chain goes through event a. */
static bool follows(const struct params *pa, const struct params_ev *ev,
		    const struct params_ev *a)
{
	for (size_t steps = 0; ev->has_after && steps <= pa->nev; steps++) {
		ev = &pa->ev[ev->after];
		if (ev == a)
			return true;
	}
	return false;
}

/*
 * ends=EVENT names an event of the same rd that starts before this one
 * (this one follows it through after=, or both have at= into the same
 * phase and EVENT's is earlier), ended by no other event.
 */
static int ends_resolve(struct parser *p, struct params_ev *ev)
{
	struct params *pa = p->out;
	long at = params_lookup(p, KIND_EV, ev->ends_name,
				strlen(ev->ends_name));
	const struct params_ev *a;

	if (at < 0)
		return perr(p, ev->ends_pos,
			    "ends=%s refers to an undefined ev", ev->ends_name);
	a = &pa->ev[at];
	if (a == ev)
		return perr(p, ev->ends_pos, "ev=%s cannot end itself",
			    ev->name);
	if (a->rd != ev->rd)
		return perr(p, ev->ends_pos,
			    "ev=%s: ends=%s is an event of another rd",
			    ev->name, a->name);
	if (!follows(pa, ev, a) &&
	    !(ev->has_at && a->has_at && !strcmp(ev->at_phase, a->at_phase) &&
	      a->at_s < ev->at_s))
		return perr(p, ev->ends_pos,
			    "ev=%s: ends=%s must start before it (after=%s, or an earlier at= into the same phase)",
			    ev->name, a->name, a->name);
	for (size_t i = 0; i < pa->nev; i++)
		if (pa->ev[i].ends == at)
			return perr(p, ev->ends_pos,
				    "ev=%s: ev=%s already ends ev=%s", ev->name,
				    pa->ev[i].name, a->name);
	ev->ends = (int)at;
	return 0;
}

/* The event ev's after= points to, resolved; -1 (error said) if none. */
static long after_of(struct parser *p, const struct params_ev *ev)
{
	long at = params_lookup(p, KIND_EV, ev->after_name,
				strlen(ev->after_name));

	if (at < 0)
		perr(p, ev->after_pos, "after=%s refers to an undefined ev",
		     ev->after_name);
	return at;
}

/*
 * Once every ev= is read: resolve after= names, refuse cycles, give an
 * after= event without rd= its anchor's rd, and refuse a chain whose
 * earliest start (every event before it taking no time) is already past
 * the end of the rd it starts from.
 */
int ev_resolve(struct parser *p)
{
	struct params *pa = p->out;

	for (size_t i = 0; i < pa->nev; i++) {
		struct params_ev *ev = &pa->ev[i];
		long at;

		if (!ev->has_after)
			continue;
		at = after_of(p, ev);
		if (at < 0)
			return -EINVAL;
		ev->after = (unsigned)at;
	}
	for (size_t i = 0; i < pa->nev; i++) {
		struct params_ev *ev = &pa->ev[i];
		const struct params_ev *root = ev;
		double earliest = 0;
		size_t steps = 0;

		while (root->has_after) {
			earliest += root->after_s;
			root = &pa->ev[root->after];
			if (++steps > pa->nev || root == ev)
				return perr(p, ev->after_pos,
					    "ev=%s: after=%s makes a cycle: the chain of after= never reaches an event with at=",
					    ev->name, ev->after_name);
		}
		if (ev->rd == UINT32_MAX)
			ev->rd = root->rd;
		if (root->rd == ev->rd && !root->at_phase[0] &&
		    root->at_s + earliest >= pa->rd[ev->rd].elapsed_s)
			return perr(p, ev->after_pos,
				    "ev=%s: starts %gs into rd=%s's measured time at the earliest, past its end (elapsed=%g)",
				    ev->name, root->at_s + earliest,
				    pa->rd[ev->rd].name,
				    pa->rd[ev->rd].elapsed_s);
	}
	for (size_t i = 0; i < pa->nev; i++)
		if (pa->ev[i].ends_name[0] && ends_resolve(p, &pa->ev[i]) < 0)
			return -EINVAL;
	return 0;
}
