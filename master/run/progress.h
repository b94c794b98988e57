/*
 * The progress line of a long phase on a terminal: format passes and
 * phases longer than PROGRESS_MIN_S show one line, redrawn each interval,
 * with the percentage done and the time left. Never in a log or a pipe
 * (the caller passes isatty()). Pure.
 */
#ifndef LOCKSTEP_MASTER_PROGRESS_H
#define LOCKSTEP_MASTER_PROGRESS_H

#include <stddef.h>
#include "master/plan/plan.h"

#define PROGRESS_MIN_S 60.0

/* Whether phase ph shows a progress line on this output. */
int progress_wanted(const struct plan_phase *ph, int tty);

/*
 * "run NAME: 42% done, ETA 3m05s" for done of total seconds (or bytes),
 * where elapsed seconds have passed. Returns buf.
 */
const char *progress_line(const char *name, double done, double total,
			  double elapsed_s, char *buf, size_t len);

#endif
