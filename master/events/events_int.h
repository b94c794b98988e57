/*
 * What the files of master/events/ share and nothing else includes: the
 * event runner (events.c) has series.c compute an event's figures. (What
 * the events and the probes share of their children, child.c, is in
 * child.h, which events.h and probes.h include for struct child_log.)
 */
#ifndef LOCKSTEP_MASTER_EVENTS_INT_H
#define LOCKSTEP_MASTER_EVENTS_INT_H

#include "master/events/events.h"

/*
 * Compute e's recovery figures (e->fig, e->fig_ret, e->absent_io) from
 * its run's series as it stands: at the end, and for the share of an
 * iorate= shortfall its losses explain. Nothing without a run or a start.
 */
void events_figures(const struct run_view *rv, struct ev_state *e);

#endif
