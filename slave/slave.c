/*
 * The `lockstep slave` subcommand: options, then the session's main loop.
 * A slave registers with the master, answers clock pings, takes a plan per
 * phase (opens its targets, starts its workers), starts I/O at the agreed
 * time on its own corrected clock, sends one interval message per interval
 * (kept until the master acknowledges it), ends the phase, and exits on
 * stop. The session lives in uplink.c (the master), phase.c (a phase) and
 * prepare.c (the decisions); targets in target.c, I/O in worker.c.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common/log.h"
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

static void usage(FILE *f)
{
	fprintf(f,
		"usage: lockstep slave --master tcp://HOST:PORT [options]\n"
		"  --master EP          the master's ROUTER endpoint (its PUB is PORT+1)\n"
		"  --name NAME          name of this slave (default HOST-PID)\n"
		"  --workers N          I/O threads, each with its own ring (default: one per core)\n"
		"  --master-timeout S   stop I/O after S seconds of silence (default 10)\n"
		"  --daemon             stay up across runs and master restarts\n"
		"  --sqpoll             kernel submission-queue polling on every ring\n"
		"  -v, --verbose        debug messages\n");
}
int slave_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "master", required_argument, NULL, 'm' },
		{ "name", required_argument, NULL, 'n' },
		{ "workers", required_argument, NULL, 'W' },
		{ "master-timeout", required_argument, NULL, 'T' },
		{ "daemon", no_argument, NULL, 'D' },
		{ "sqpoll", no_argument, NULL, 'Q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct session s = { 0 };
	const char *name = NULL;
	char err[512], prefix[96];
	double timeout_s = 10;
	long workers = 0; /* one per core */
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "m:n:W:T:vh", opts, NULL)) != -1) {
		char *end = NULL;

		switch (c) {
		case 'm':
			s.endpoint = optarg;
			break;
		case 'n':
			if (strlen(optarg) >= PROTO_NAME_LEN) {
				fprintf(stderr, "lockstep slave: --name is longer than %d characters\n",
					PROTO_NAME_LEN - 1);
				return 1;
			}
			name = optarg;
			break;
		case 'W':
			workers = strtol(optarg, &end, 10);
			if (*end || workers < 1 || workers > MAX_WORKERS) {
				fprintf(stderr, "lockstep slave: --workers wants 1..%d, not '%s'\n",
					MAX_WORKERS, optarg);
				return 1;
			}
			break;
		case 'T':
			timeout_s = strtod(optarg, &end);
			if (*end || !(timeout_s > 0)) {
				fprintf(stderr, "lockstep slave: --master-timeout wants seconds > 0, not '%s'\n",
					optarg);
				return 1;
			}
			break;
		case 'v':
			log_set_level(LOG_DEBUG);
			break;
		case 'D':
			s.daemon = 1;
			break;
		case 'Q':
			s.sqpoll = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 1;
		}
	}
	if (!s.endpoint || optind != argc) {
		usage(stderr);
		return 1;
	}
	s.want_workers = workers ? (unsigned)workers :
				   (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	if (s.want_workers < 1)
		s.want_workers = 1;
	s.master_timeout_ns = (uint64_t)(timeout_s * 1e9);
	uplink_init(&s, name);
	snprintf(prefix, sizeof(prefix), "lockstep slave %s", s.hello.name);
	log_set_prefix(prefix);
	if (conn_open(s.endpoint, s.hello.id, &s.conn, err, sizeof(err)) < 0) {
		log_error("%s", err);
		return 1;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);

	while (!s.quit && !got_signal) {
		int mask = conn_wait(s.conn, s.ph.active ? s.ph.efd : -1, 100);

		if (mask < 0) {
			log_error("poll: %s", strerror(-mask));
			s.exit_code = 1;
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
		uplink_over(&s, "signal", 0);
	}
	conn_close(&s.conn, 200);
	return s.exit_code;
}
