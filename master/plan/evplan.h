/*
 * evplan: the events of a parameter file (ev= lines) placed on its plan,
 * pure. An at= event counts from the measured time of one phase (its rd's
 * first measured phase, or the phase at= names by its printed name); an
 * after= event from the end of another event, which is known only while
 * the run goes. `lockstep check` prints this timeline and `lockstep run`
 * starts from it (master/events/events.c).
 */
#ifndef LOCKSTEP_MASTER_EVPLAN_H
#define LOCKSTEP_MASTER_EVPLAN_H

#include <stddef.h>
#include "master/params/params.h"
#include "master/plan/plan.h"

struct evplan_ev {
	unsigned ev;       /* index into params.ev (the same order) */
	int phase;         /* at=: the phase it counts from; -1 with after= */
	double offset_s;   /* at=: into that phase's measured time; after=:
			       after its event ended */
	double earliest_s; /* from the start of the first phase, when every
			       earlier event takes no time and format phases
			       none (a lower bound) */
};

/*
 * Place every ev= of p on the n phases ph (from plan_phases with the same
 * overrides). Returns 0 with *out (malloc'd, p->nev entries, NULL when
 * none; caller frees), or -EINVAL with "FILE:LINE:COL: message" in err (an
 * at= phase name that is not a phase of the event's rd, an offset past
 * that phase's measured time once -e/-i are applied, an rd none of whose
 * phases is measured), or -ENOMEM.
 */
int evplan_resolve(const struct params *p, const struct plan_phase *ph,
		   size_t n, struct evplan_ev **out, char *err, size_t errlen);

/* Seconds from the start of the first phase to phase i's measured time. */
double evplan_measured_start_s(const struct plan_phase *ph, size_t i);

#endif
