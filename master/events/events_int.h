/*
 * What the files of master/events/ share and nothing else includes: the
 * event runner (events.c) has series.c compute an event's figures, and
 * the events and the probes (probes.c) start their children through
 * child.c.
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

/*
 * child.c: the environment of a child, the master's own without its
 * LOCKSTEP_* variables and then the nkv "K=V" strings of kv (the array is
 * the caller's to free, not the strings); NULL when out of memory.
 */
char **child_env(char **kv, size_t nkv);
/*
 * Start argv with envp in a process group of its own, stdin /dev/null,
 * stdout to outfd, stderr to errfd, no other descriptor of the master.
 * Returns its pid (also its group's id) or -errno.
 */
pid_t child_spawn(char **argv, char **envp, int outfd, int errfd);

#endif
