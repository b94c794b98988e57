/*
 * One phase on this slave: open its targets and start its workers on a plan,
 * start I/O at the agreed time on the slave's corrected clock, collect the
 * workers' intervals and send each complete one, end the phase. Decisions
 * are in prepare.h; this file does the doing. Internal to the session.
 */
#ifndef LOCKSTEP_SLAVE_PHASE_H
#define LOCKSTEP_SLAVE_PHASE_H

#include <stddef.h>
#include "slave/session.h"

/*
 * Prepare s->ph for plan, whose arrays move into the phase (plan is zeroed).
 * Returns 0 with the workers waiting for go, or -errno with a message in
 * err; the caller then resets the phase.
 */
int phase_prepare(struct session *s, struct proto_plan *plan, char *err,
		  size_t errlen);
/*
 * Start I/O at go's time, if go is for the prepared phase and not started.
 * Returns 1 when it started, 0 when go was not for it (or a repeat), or
 * -ERANGE with err when go's time is not sane (prepare_check_go): the
 * caller then reports it and resets the phase.
 */
int phase_go(struct session *s, const struct proto_go *go, char *err,
	     size_t errlen);
/*
 * A warmup=steady phase's measured window, from the master: its latency
 * histograms count from ms->from and it ends after ms->intervals
 * intervals. Returns 0 (applied, or not for this phase), 1 when applied
 * late (err says what the phase_end then misses), or -ERANGE with err for
 * a window that does not fit the plan (nothing changed).
 */
int phase_measure(struct session *s, const struct proto_measure *ms, char *err,
		  size_t errlen);
/*
 * Take the workers' finished intervals, send the complete ones, stop the
 * phase past data_errors, and end it once every worker finished.
 */
void phase_collect(struct session *s);

/*
 * How long the main loop may wait, at most most ms: less when the
 * phase's next telemetry sample (at an interval's end) is due sooner.
 */
int phase_wait_ms(const struct session *s, int most);
/* Stop and join the workers, close the targets, free everything. */
void phase_reset(struct phase *ph);

#endif
