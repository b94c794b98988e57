/*
 * The slave session's state, shared by the files that make up the session
 * and by nothing else: uplink.c (messages from the master), outbox.c
 * (messages to it), phase.c (one phase's targets, workers and intervals)
 * and slave.c (options and the main loop). Internal to the slave: nothing outside slave/ includes it.
 */
#ifndef LOCKSTEP_SLAVE_SESSION_H
#define LOCKSTEP_SLAVE_SESSION_H

#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>
#include "proto/proto.h"
#include "slave/telemetry.h"
#include "slave/clockresp.h"
#include "slave/prepare.h"
#include "slave/spool.h"
#include "slave/target.h"
#include "slave/valmap.h"
#include "slave/worker.h"

#define SESSION_MAX_WORKERS PREPARE_MAX_WORKERS

struct fsphase;   /* slave/fsphase.h */
struct fsval_map; /* slave/fsval.h */

struct phase {
	int active;  /* a plan is prepared */
	int started; /* go received */
	struct proto_plan plan;
	int *fds;
	uint64_t *size;
	struct prepare_slots slots;
	struct worker *workers[SESSION_MAX_WORKERS];
	int efd;
	uint64_t start_at;            /* master clock */
	struct worker_interval **acc; /* per seq, summed over workers */
	unsigned *accn;
	unsigned next_send;
	int wlast[SESSION_MAX_WORKERS]; /* last interval seq a worker handed */
	struct rusage ru_last;
	/* Device and host telemetry, sampled at the intervals' ends. */
	int tele_open;
	struct telemetry tele;
	struct prepare_totals tot;
	int status;                  /* -EIO once data_errors was exceeded */
	struct proto_forced *forced; /* per target at most; sent in ready */
	unsigned char *async;        /* per target: target_opened.async */
	unsigned nforced;
	int eof; /* every worker ended with its eof pass done */
	/* Validation: each target's map (NULL: off) and its counters then. */
	struct valmap **vmap;
	/*
	 * Per target at the start: written, verified, mismatched, settled,
	 * and (validate=only) the blocks the map expects.
	 */
	uint64_t (*v0)[5];
	/* A file-system phase (plan.nfsds > 0): its own side; NULL else. */
	struct fsphase *fs;
};

/* A master's command running here (cmd.c), one at a time. */
struct slave_cmd {
	pid_t pid;            /* its process group; 0: none */
	int fd;               /* its stdout and stderr, read end; -1: closed */
	uint32_t id;          /* the master's cmd.id */
	int killed;           /* its timeout killed it */
	uint64_t deadline_ns; /* monotonic */
	uint64_t sent, dropped; /* output bytes sent, not sent */
};

struct session {
	const char *endpoint;
	unsigned want_workers;
	int sqpoll; /* --sqpoll: every ring gets a submission thread */
	struct safety_allow *allow;  /* --allow, --allow-path; NULL: none */
	struct target_policy policy; /* what targets_open may open */
	struct conn *conn;
	struct proto_hello hello;
	int welcomed;
	/* Telemetry warnings said in this run (hashes): each once. */
	unsigned tele_nsaid;
	uint64_t tele_said[8];
	uint64_t hb_ns, master_timeout_ns;
	uint64_t last_rx, last_tx, last_hello;
	struct phase ph;
	struct spool spool;
	uint32_t slave_index;    /* from welcome: names us in datagrams */
	struct clockresp *cresp; /* clock datagrams, once a ping asks */
	struct valmap *vmaps;    /* validated sds of this run (valmap.h) */
	int allow_cmds;          /* --allow-commands: enum cmd_allow */
	/* Validated fsds of this run (fsval.h). */
	struct fsval_map *fsvals;
	struct slave_cmd cmd;
	int daemon;
	int quit;
	int exit_code;
};

#endif
