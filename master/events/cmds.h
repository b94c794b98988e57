/*
 * startcmd= and endcmd= (Vdbench's Debug_cmds): the record of every
 * command run around the runs and their output. The general ones and an
 * rd's with master scope run here, on the master, through /bin/sh -c as
 * the ev= and probe= commands do (child.h: a process group of their own,
 * stdin /dev/null, the master's environment less LOCKSTEP_* plus
 * LOCKSTEP_RUN_ID, LOCKSTEP_RUN, LOCKSTEP_COMMAND and LOCKSTEP_OUTPUT); an
 * rd's with slave scope run on one slave of each host, which sends their
 * output back (proto cmd_out, cmd_end). When they run is the conductor's
 * (master/run/cmdrun.c); this module starts the master's children, takes
 * what slaves send, and writes the record: commands/NAME.log (each
 * execution's output with a header and an end line), the console (target
 * console), summary.txt (failures, and target summary's output) and
 * summary.json's "commands", as a sink of the results table (cmds.c's
 * sink_commands).
 */
#ifndef LOCKSTEP_MASTER_EVENTS_CMDS_H
#define LOCKSTEP_MASTER_EVENTS_CMDS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "common/fsutil.h"
#include "common/timeutil.h"
#include "master/events/child.h"
#include "master/params/params.h"
#include "proto/proto.h"

struct run_view;

/* A command still running after this long is killed with its group. */
#define CMDS_TIMEOUT_NS (3600 * NS_PER_SEC)
/* A command's output kept (log, console, summary); the rest is counted. */
#define CMDS_KEEP_BYTES (1024 * 1024)

enum cmds_state {
	CMDS_RUNNING,
	CMDS_EXIT,    /* exited: code is its status (0: ok) */
	CMDS_SIGNAL,  /* a signal ended it: code */
	CMDS_TIMEOUT, /* killed at CMDS_TIMEOUT_NS */
	CMDS_REFUSED, /* a slave refused it (why): the run stops */
	CMDS_FAILED,  /* could not start: code -errno, why */
	CMDS_LOST,    /* its slave was lost before it said the end */
	CMDS_CUT,     /* the run was interrupted while it ran */
};

/* Which keyword of which definition an execution comes from. */
struct cmds_what {
	const struct params_cmd *pc;
	const char *keyword; /* "startcmd" or "endcmd" */
	int rd;              /* params.rd index; -1: the general one */
	int run;             /* rv->ph->runs index; -1: the general one */
	unsigned i;          /* which command of pc's list */
};

/* One command run on the master or on one slave. */
struct cmds_exec {
	struct cmds_what w;
	char host[PROTO_HOST_LEN];  /* "master", an hd= name or a host */
	char slave[PROTO_NAME_LEN]; /* the slave that ran it; "" master */
	unsigned slave_idx;
	uint32_t id; /* proto cmd.id: its index + 1 */
	char *text;  /* the command, $output replaced (malloc'd) */
	uint64_t start_real, end_real;
	enum cmds_state state;
	int code;
	char why[PROTO_TEXT_LEN];
	/* Its output kept, CMDS_KEEP_BYTES at most (malloc'd), until it is
	   logged (target summary: until summary.txt). */
	char *out;
	size_t outlen, outcap;
	uint64_t out_bytes, dropped; /* received; not kept (the slave's too) */
	/* A child of the master: its group, output pipe, timeout. */
	pid_t pid;
	int fd;
	int killed;
	uint64_t deadline_mono;
	size_t log; /* index into cmds.logs */
};

/* commands/OWNER.log: one per keyword and definition. */
struct cmds_log {
	char owner[FSUTIL_NAME_MAX + 1];
	struct child_log l;
};

struct cmds {
	struct cmds_exec *x;
	size_t n, cap;
	struct cmds_log *logs; /* 2 per rd and 2 general, fixed */
	size_t nlogs;
};

/* The file's commands' record into *out, NULL without any. 0, -ENOMEM. */
int cmds_new(const struct params *p, struct cmds **out);
/* Free and NULL *C (after cmds_stop); safe on NULL. */
void cmds_free(struct cmds **C);

/*
 * A new execution of command w->i of w->pc on host (slave: its name and
 * roster index; NULL: the master), started now: its index, or -ENOMEM.
 */
long cmds_add(const struct run_view *rv, const struct cmds_what *w,
	      const char *host, const char *slave, unsigned slave_idx);
/* Start execution xi on the master; 0 or -errno (recorded as failed). */
int cmds_master_start(const struct run_view *rv, size_t xi);
/* Its output read, its end or timeout seen: 1 once it is over. */
int cmds_master_tick(const struct run_view *rv, size_t xi);
/* What a slave sent of its command (matched by id and slave). */
void cmds_slave_out(const struct run_view *rv, unsigned slave,
		    const struct proto_cmd_out *o);
void cmds_slave_end(const struct run_view *rv, unsigned slave,
		    const struct proto_cmd_end *e);
/* Execution xi ends as st (lost, cut) unless it already ended. */
void cmds_abandon(const struct run_view *rv, size_t xi, enum cmds_state st);
/*
 * Execution xi is over: its end stamped, its output logged (and on the
 * console for the target console), a failure said. 1 when a slave refused
 * it, else 0.
 */
int cmds_finish(const struct run_view *rv, size_t xi);
/* The run is over: a command still running here is killed, logs closed. */
void cmds_stop(const struct run_view *rv);
/* "ok", "exit N", "signal N", "timeout", "refused", ... into buf. */
const char *cmds_status(const struct cmds_exec *x, char *buf, size_t len);

/* The longest output line the console or summary.txt shows whole. */
#define CMDS_LINE_MAX 1024
/*
 * The next line of a command's output at *p (before end), escaped as
 * log_escape() does (a slave's command printed it: no control character
 * reaches a terminal), cut at CMDS_LINE_MAX bytes, into out (at least
 * LOG_ESC_LEN(CMDS_LINE_MAX) bytes); *p moves past it. NULL when none.
 */
const char *cmds_next_line(const char **p, const char *end, char *out,
			   size_t outlen);

#endif
