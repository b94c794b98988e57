/*
 * The events of a parameter file placed on its phases: see evplan.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "master/plan/evplan.h"
#include "master/plan/plan_int.h"

double evplan_measured_start_s(const struct plan_phase *ph, size_t i)
{
	double t = 0;

	for (size_t j = 0; j < i; j++) {
		t += ph[j].pause_s;
		/* A format phase runs until its bytes are written. */
		if (ph[j].kind != PLAN_FORMAT)
			t += ph[j].warmup_s + ph[j].elapsed_s;
	}
	return t + ph[i].pause_s + ph[i].warmup_s;
}

/* The phase an at= event counts from, or -1 (error in err). */
static int anchor_of(const struct params *p, const struct params_ev *ev,
		     const struct plan_phase *ph, size_t n, char *err,
		     size_t errlen)
{
	const char *rd = p->rd[ev->rd].name;

	for (size_t i = 0; i < n; i++) {
		if (ph[i].rd != ev->rd || ph[i].kind == PLAN_FORMAT)
			continue;
		if (!ev->at_phase[0] || !strcmp(ev->at_phase, ph[i].name))
			return (int)i;
	}
	if (ev->at_phase[0])
		plan_err(p, ev->at_pos, err, errlen,
			 "ev=%s: at=%s names no measured phase of rd=%s (`lockstep check` lists them)",
			 ev->name, ev->at_phase, rd);
	else
		plan_err(p, ev->at_pos, err, errlen,
			 "ev=%s: rd=%s has no measured phase (format=only)",
			 ev->name, rd);
	return -1;
}

int evplan_resolve(const struct params *p, const struct plan_phase *ph,
		   size_t n, struct evplan_ev **out, char *err, size_t errlen)
{
	struct evplan_ev *v;

	*out = NULL;
	if (!p->nev)
		return 0;
	v = calloc(p->nev, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < p->nev; i++) {
		const struct params_ev *ev = &p->ev[i];
		int a;

		v[i].ev = (unsigned)i;
		v[i].phase = -1;
		if (ev->has_after) {
			v[i].offset_s = ev->after_s;
			continue;
		}
		a = anchor_of(p, ev, ph, n, err, errlen);
		if (a < 0)
			goto fail;
		if (ev->at_s >= ph[a].elapsed_s) {
			plan_err(p, ev->at_pos, err, errlen,
				 "ev=%s: at=%gs is past the end of phase %s's measured time (elapsed=%g)",
				 ev->name, ev->at_s, ph[a].name,
				 ph[a].elapsed_s);
			goto fail;
		}
		v[i].phase = a;
		v[i].offset_s = ev->at_s;
		v[i].earliest_s = evplan_measured_start_s(ph, (size_t)a) +
				  ev->at_s;
	}
	/* after= chains: the params refused cycles, so this ends. */
	for (size_t i = 0; i < p->nev; i++) {
		const struct params_ev *e = &p->ev[i];
		double t = 0;

		while (e->has_after) {
			t += e->after_s;
			e = &p->ev[e->after];
		}
		if (p->ev[i].has_after)
			v[i].earliest_s = v[e - p->ev].earliest_s + t;
	}
	*out = v;
	return 0;
fail:
	free(v);
	return -EINVAL;
}
