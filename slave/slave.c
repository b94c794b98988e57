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
#include "slave/session.h"
#include "slave/slave.h"

#define MAX_WORKERS SESSION_MAX_WORKERS

static volatile sig_atomic_t got_signal;

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

int slave_main(int argc, char **argv)
{
	struct session s = { 0 };
	const char *name = NULL;
	char err[512], prefix[96];
	double timeout_s = 10;
	unsigned workers = 0; /* one per core */
	int ret = parse_args(&s, &name, &workers, &timeout_s, argc, argv);

	if (ret != 0)
		return ret > 0 ? LS_EXIT_OK : LS_EXIT_BAD_INPUT;
	s.want_workers = workers ? workers :
				   (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	if (s.want_workers < 1)
		s.want_workers = 1;
	s.master_timeout_ns = (uint64_t)(timeout_s * 1e9);
	uplink_init(&s, name);
	snprintf(prefix, sizeof(prefix), "lockstep slave %s", s.hello.name);
	log_set_prefix(prefix);
	if (conn_open(s.endpoint, s.hello.id, &s.conn, err, sizeof(err)) < 0) {
		log_error("%s", err);
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
	return s.exit_code;
}
