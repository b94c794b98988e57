/*
 * A file-system phase on this slave (a plan with fsds): open each fsd's
 * anchor (allowed by --allow, slave/anchor.h keeps every path beneath
 * it), then either format the trees (plan.format: format=yes, restart or
 * clean, each fsd's) or run the fwds' operations for the phase's
 * intervals, with fwd.threads threads each. Every operation is timed and
 * counted into the interval it completes in; the session thread sends
 * each interval once it is over, as a block phase's (phase.c calls in
 * here for a phase with fsds). Decisions are in fsplan.h. Internal to the
 * session.
 */
#ifndef LOCKSTEP_SLAVE_FSPHASE_H
#define LOCKSTEP_SLAVE_FSPHASE_H

#include <stddef.h>
#include <stdint.h>

#include "slave/session.h"

struct fsphase;

/*
 * Prepare s->ph (its plan set and checked by prepare_check_plan) for a
 * file-system phase: anchors opened, trees built and (a run) looked at,
 * threads started and waiting for go. 0, or -errno with err naming the
 * fsd; the caller resets the phase.
 */
int fsphase_prepare(struct session *s, char *err, size_t errlen);
/* Start at CLOCK_MONOTONIC mono_start, the start of interval first. */
void fsphase_go(struct fsphase *fs, uint64_t mono_start, unsigned first);
/*
 * Send the intervals that are over, and the partial last one when every
 * thread finished early (a format done, fileselect=once done). Returns 1
 * when the phase is over (the caller sends its phase_end), else 0.
 */
int fsphase_collect(struct session *s);
/* How long the main loop may wait, at most most ms: to the next end. */
int fsphase_wait_ms(const struct fsphase *fs, int most);
/*
 * Each fsd's tree (its anchor, or this slave's subtree of it): n folder
 * fds, open while the phase is; device telemetry samples the block
 * devices under them.
 */
const int *fsphase_dirfds(const struct fsphase *fs, unsigned *n);
/* Monotonic time of the phase's first operation, 0 for none yet. */
uint64_t fsphase_first_io(struct fsphase *fs);
/*
 * validate=yes: the phase's blocks written, verified and mismatched into
 * pe (totals; an fs plan has no targets to split them by), the
 * mismatches not yet logged and one line of totals to the master.
 */
void fsphase_validate_end(struct session *s, struct proto_phase_end *pe);
/* Stop and join the threads, close the anchors, free fs (NULL: none). */
void fsphase_free(struct fsphase *fs);

#endif
