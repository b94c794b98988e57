/*
 * The children of the events and the probes (child.c): how they are
 * started, what they are given, how their pipes are read, how they are
 * killed and reaped, and their log in the results folder (events/NAME.log,
 * probes/NAME.log: their output kept up to DECIDE_EVENT_LOG_BYTES and the
 * rest counted, the master's notes on lines of their own). events.h and
 * probes.h include it for struct child_log; its functions are for the
 * files of master/events/ only.
 */
#ifndef LOCKSTEP_MASTER_EVENTS_CHILD_H
#define LOCKSTEP_MASTER_EVENTS_CHILD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "master/results/results.h"

struct run_view;

/* A child's log: KINDs/NAME.log in the results folder. */
struct child_log {
	struct rfile f;    /* closed until child_log_open() */
	const char *kind;  /* "event" or "probe": its console lines */
	const char *owner; /* the ev= or probe= name (the caller's) */
	char name[96];     /* its path inside the results folder */
	uint64_t kept, dropped;
	int midline; /* the output kept ends inside a line */
};

/*
 * Open kind's log of owner, KINDs/OWNER.log ("events/NAME.log"), inside
 * the results folder and nowhere else; 0 at once when it is open. kind
 * and owner stay the caller's and must outlive l. 0 or -errno (-EINVAL:
 * owner is not a file name).
 */
int child_log_open(const struct run_view *rv, struct child_log *l,
		   const char *kind, const char *owner);
/*
 * len bytes of the child's output into the log while it is under
 * DECIDE_EVENT_LOG_BYTES, the rest counted in l->dropped (said once on
 * the console, as a log that cannot be written is).
 */
void child_log_keep(const struct run_view *rv, struct child_log *l,
		    const char *buf, size_t len);
/* A line of the master's in the log, on a line of its own. */
void child_log_note(const struct run_view *rv, struct child_log *l,
		    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* At the end of the run: what was dropped is noted, the log closed. */
void child_log_close(const struct run_view *rv, struct child_log *l);
/* Free what l holds (after results_close(), which may have closed it). */
void child_log_free(struct child_log *l);

/*
 * The environment of a child, the master's own without its LOCKSTEP_*
 * variables and then the nkv "K=V" strings of kv (the array is the
 * caller's to free, not the strings); NULL when out of memory.
 */
char **child_env(char **kv, size_t nkv);

/* The variables a child gets (child_vars()). */
#define CHILD_NVARS 4
/*
 * LOCKSTEP_RUN_ID, LOCKSTEP_RUN (run), var (LOCKSTEP_EVENT,
 * LOCKSTEP_PROBE) set to name, and LOCKSTEP_OUTPUT as "K=V" strings in
 * kv, to be freed by child_vars_free() whatever this returns: 0 or
 * -ENOMEM.
 */
int child_vars(const struct run_view *rv, const char *run, const char *var,
	       const char *name, char *kv[CHILD_NVARS]);
void child_vars_free(char *kv[CHILD_NVARS]);

/*
 * A pipe for a child's output: both ends close-on-exec, the read end
 * p[0] non-blocking. 0 or -errno.
 */
int child_pipe(int p[2]);

/* What a pipe gave: len bytes of buf, for arg. */
typedef void (*child_take_fn)(void *arg, const char *buf, size_t len);
/*
 * What the child wrote into pipe *fd since the last look, at most
 * CHILD_TICK_BYTES (a flood cannot hold the master's loop), piece by piece
 * to take. At end of file, or with close_it, *fd is closed and -1; -1
 * reads nothing.
 */
void child_drain(int *fd, int close_it, child_take_fn take, void *arg);
/* child_drain() into l (child_log_keep()). */
void child_drain_log(const struct run_view *rv, int *fd, int close_it,
		     struct child_log *l);

/* Kill the process group pid leads (0: none); a later reap finds it. */
void child_kill(pid_t pid);
/* Reap *pid (0: none) if it exited: 1, *pid 0 and *st set then. */
int child_reaped(pid_t *pid, int *st);
/*
 * The run is over: left(arg) reaps the caller's killed children and
 * counts those still there, called until none is or CHILD_REAP_WAIT_NS
 * passed (a child stuck in the kernel is left behind rather than waited
 * for). Returns what left() counted last.
 */
int child_wait_gone(int (*left)(void *arg), void *arg);

#endif
