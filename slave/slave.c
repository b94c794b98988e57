/*
 * The `lockstep slave` subcommand: options, then the session's main loop.
 * A slave registers with the master, answers clock pings, takes a plan per
 * phase (opens its targets, starts its workers), starts I/O at the agreed
 * time on its own corrected clock, sends one interval message per interval
 * (kept until the master acknowledges it), ends the phase, and exits on
 * stop. The session lives in uplink.c (the master), phase.c (a phase) and
 * prepare.c (the decisions); targets in target.c, I/O in worker.c.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common/exitcode.h"
#include "common/log.h"
#include "common/opts.h"
#include "slave/conn.h"
#include "slave/uplink.h"
#include "slave/phase.h"
#include "slave/safety.h"
#include "slave/session.h"
#include "slave/slave.h"

#define MAX_WORKERS SESSION_MAX_WORKERS

static volatile sig_atomic_t got_signal;

/* --allow GLOB[,GLOB...] and --allow-path PATH, each repeatable. */
static struct safety_allow *allow_of(struct session *s)
{
	if (!s->allow)
		s->allow = calloc(1, sizeof(*s->allow));
	return s->allow;
}

static int add_allow(const struct opts_def *def, const char *arg,
		     const char *prog, int literal)
{
	struct session *s = def->dest;
	struct safety_allow *a = allow_of(s);
	char err[512];
	int ret;

	if (!a) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return -EINVAL;
	}
	ret = literal ? safety_allow_add_path(a, arg, err, sizeof(err)) :
			safety_allow_add_list(a, arg, err, sizeof(err));
	if (ret < 0) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return -EINVAL;
	}
	return 0;
}

static int parse_allow(const struct opts_def *def, const char *arg,
		       const char *prog)
{
	return add_allow(def, arg, prog, 0);
}

static int parse_allow_path(const struct opts_def *def, const char *arg,
			    const char *prog)
{
	return add_allow(def, arg, prog, 1);
}

static void on_signal(int sig)
{
	got_signal = sig;
}

/*
 * The options of `lockstep slave`, one table for parsing and usage
 * (common/opts.h). Returns 0 to run, 1 after --help, -EINVAL after an
 * error message.
 */
static int parse_args(struct session *s, const char **name, unsigned *workers,
		      double *timeout_s, int argc, char **argv)
{
	int verbose = 0, args, ret;
	const struct opts_def defs[] = {
		{ "master", 'm', OPTS_STRING, &s->endpoint, .arg = "EP",
		  .help = "the master's ROUTER endpoint (its PUB is PORT+1)" },
		{ "name", 'n', OPTS_STRING, name, 0, PROTO_NAME_LEN - 1,
		  .arg = "NAME",
		  .help = "name of this slave (default HOST-PID)" },
		{ "workers", 'W', OPTS_UINT, workers, 1, MAX_WORKERS,
		  OPTS_NONEMPTY, .arg = "N",
		  .help = "I/O threads, each with its own ring (default: one per core)" },
		{ "master-timeout", 'T', OPTS_SECONDS, timeout_s, 0, 0,
		  OPTS_POSITIVE, .arg = "S",
		  .help = "stop I/O after S seconds of silence (default 10)" },
		{ "daemon", 0, OPTS_FLAG, &s->daemon,
		  .help = "stay up across runs and master restarts" },
		{ "sqpoll", 0, OPTS_FLAG, &s->sqpoll,
		  .help = "kernel submission-queue polling on every ring" },
		{ "allow", 'a', OPTS_CUSTOM, s, .parse = parse_allow,
		  .arg = "GLOB[,GLOB]",
		  .help = "open only paths matching a glob (repeatable; symlinks resolved; a daemon needs it)" },
		{ "allow-path", 0, OPTS_CUSTOM, s, .parse = parse_allow_path,
		  .arg = "PATH",
		  .help = "open this one path, taken literally (repeatable; what the master gives slaves it starts)" },
		{ "verbose", 'v', OPTS_FLAG, &verbose,
		  .help = "debug messages" },
		{ "help", 'h', OPTS_HELP, NULL, .help = "this text" },
	};
	const struct opts_cmd cmd = {
		.prog = "lockstep slave",
		.synopsis = "usage: lockstep slave --master tcp://HOST:PORT [options]",
		.width = 24,
		.defs = defs,
		.ndefs = sizeof(defs) / sizeof(defs[0]),
		.nargs = 0,
	};

	ret = opts_parse(&cmd, argc, argv, &args);
	if (ret != 0)
		return ret;
	if (!s->endpoint) {
		fprintf(stderr, "lockstep slave: --master is required\n");
		opts_usage(&cmd, stderr);
		return -EINVAL;
	}
	if (verbose)
		log_set_level(LOG_DEBUG);
	return 0;
}

/*
 * What this slave may open: its --allow entries; nothing at all for a
 * daemon without them (any master that reaches it could name any device);
 * anything for a slave started by hand for one run without them.
 */
static void set_policy(struct session *s)
{
	s->policy.allow = s->allow;
	s->policy.none = s->daemon && !s->allow;
	if (s->policy.none)
		log_warn(
			"started as a daemon without --allow: this slave accepts no targets (give --allow GLOB[,GLOB...] naming the luns masters may use)");
	else if (s->allow)
		log_info("targets limited to %u --allow entr%s", s->allow->n,
			 s->allow->n == 1 ? "y" : "ies");
}

int slave_main(int argc, char **argv)
{
	struct session s = { 0 };
	const char *name = NULL;
	char err[512], prefix[96];
	double timeout_s = 10;
	unsigned workers = 0; /* one per core */
	int ret = parse_args(&s, &name, &workers, &timeout_s, argc, argv);

	if (ret != 0) {
		free(s.allow);
		return ret > 0 ? LS_EXIT_OK : LS_EXIT_BAD_INPUT;
	}
	s.want_workers = workers ? workers :
				   (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	if (s.want_workers < 1)
		s.want_workers = 1;
	s.master_timeout_ns = (uint64_t)(timeout_s * 1e9);
	uplink_init(&s, name);
	snprintf(prefix, sizeof(prefix), "lockstep slave %s", s.hello.name);
	log_set_prefix(prefix);
	set_policy(&s);
	if (conn_open(s.endpoint, s.hello.id, &s.conn, err, sizeof(err)) < 0) {
		log_error("%s", err);
		free(s.allow);
		return LS_EXIT_BAD_INPUT;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);

	while (!s.quit && !got_signal) {
		int mask = conn_wait(s.conn, s.ph.active ? s.ph.efd : -1, 100);

		if (mask < 0) {
			log_error("poll: %s", strerror(-mask));
			s.exit_code = LS_EXIT_BAD_INPUT;
			break;
		}
		if (mask & CONN_DEALER)
			uplink_drain(&s, CONN_DEALER);
		if (mask & CONN_SUB)
			uplink_drain(&s, CONN_SUB);
		if (s.ph.active && s.ph.started)
			phase_collect(&s);
		if (!s.quit)
			uplink_tick(&s);
	}
	if (got_signal) {
		log_info("signal %d: stopping", (int)got_signal);
		s.daemon = 0;
		uplink_over(&s, "signal", LS_EXIT_OK);
	}
	conn_close(&s.conn, 200);
	free(s.allow);
	return s.exit_code;
}
