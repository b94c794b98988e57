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
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common/exitcode.h"
#include "common/keys.h"
#include "common/log.h"
#include "common/opts.h"
#include "slave/prio.h"
#include "slave/cmd.h"
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

/* Who this slave is and which master it trusts (the key options). */
struct slave_auth {
	const char *key_file;    /* --key */
	const char *master_file; /* --master-key */
	int keys_stdin;          /* --keys-stdin: started by a master */
	int insecure;
	struct keys_pair own;
	char master[KEYS_Z85_LEN + 1];
};

/*
 * Load the keys the options name. A slave without keys trusts whoever
 * answers at the master's address, so that takes --insecure. Returns 0,
 * or -errno after an error message.
 */
static int load_auth(struct slave_auth *a, const char *endpoint)
{
	char err[1024];
	int ret = 0;

	if (a->insecure && (a->key_file || a->master_file || a->keys_stdin)) {
		fprintf(stderr,
			"lockstep slave: --insecure turns authentication off: it cannot go with --key, --master-key or --keys-stdin\n");
		return -EINVAL;
	}
	if (a->keys_stdin && (a->key_file || a->master_file)) {
		fprintf(stderr,
			"lockstep slave: --keys-stdin reads every key from stdin: it cannot go with --key or --master-key\n");
		return -EINVAL;
	}
	if (!a->keys_stdin && !a->insecure &&
	    (!a->key_file || !a->master_file)) {
		fprintf(stderr,
			"lockstep slave: %s: give --key FILE (this slave's secret key) and --master-key FILE (the master's public key), made by lockstep keygen; or --insecure to trust whoever answers at %s\n",
			a->key_file    ? "--key needs --master-key" :
			a->master_file ? "--master-key needs --key" :
					 "no keys",
			endpoint);
		return -EINVAL;
	}
	if (a->insecure) {
		log_warn("--insecure: no authentication; whoever answers at %s can plan I/O on this host",
			 endpoint);
		return 0;
	}
	if (a->keys_stdin)
		ret = keys_read_triplet(STDIN_FILENO, &a->own, a->master, err,
					sizeof(err));
	else {
		ret = keys_load_secret(a->key_file, &a->own, err, sizeof(err));
		if (ret == 0)
			ret = keys_load_public(a->master_file, a->master, err,
					       sizeof(err));
	}
	if (ret < 0)
		fprintf(stderr, "lockstep slave: %s\n", err);
	return ret;
}

/*
 * The options of `lockstep slave`, one table for parsing and usage
 * (common/opts.h). Returns 0 to run, 1 after --help, -EINVAL after an
 * error message.
 */
static int parse_args(struct session *s, const char **name, unsigned *workers,
		      double *timeout_s, struct slave_auth *auth, int argc,
		      char **argv)
{
	static const char *const cmd_modes[] = { "exec", "shell", NULL };
	int verbose = 0, cmd_mode = -1, args, ret;
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
		  .help = "open only paths matching a glob, journal= folders too (repeatable; symlinks resolved; a daemon needs it)" },
		{ "allow-path", 0, OPTS_CUSTOM, s, .parse = parse_allow_path,
		  .arg = "PATH",
		  .help = "open this one path, taken literally (repeatable; what the master gives slaves it starts)" },
		{ "allow-commands", 0, OPTS_CHOICE, &cmd_mode,
		  .choices = cmd_modes, .arg = "exec|shell",
		  .help = "run the commands a master sends (an rd's startcmd=/endcmd= with slave scope): exec runs their words without a shell, shell runs them through /bin/sh -c (default: none, every one refused)" },
		{ "key", 0, OPTS_STRING, &auth->key_file, .arg = "FILE",
		  .help = "this slave's secret CURVE key (lockstep keygen)" },
		{ "master-key", 0, OPTS_STRING, &auth->master_file,
		  .arg = "FILE",
		  .help = "the master's public key: talk to no other master" },
		{ "keys-stdin", 0, OPTS_FLAG, &auth->keys_stdin,
		  .help = "read the keys from stdin (a master starting slaves)" },
		{ "insecure", 0, OPTS_FLAG, &auth->insecure,
		  .help = "no keys: trust whoever answers at --master" },
		{ "verbose", 'v', OPTS_FLAG, &verbose,
		  .help = "debug messages" },
		{ "help", 'h', OPTS_HELP, NULL, .help = "this text" },
	};
	const struct opts_cmd cmd = {
		.prog = "lockstep slave",
		.synopsis =
			"usage: lockstep slave --master tcp://HOST:PORT [options]",
		.description =
			"A slave: connects to the master, registers under its name and runs the phases the master plans on the targets it is allowed to open. The master starts its slaves itself; run one by hand, or as the lockstep-slave systemd service (--daemon, options in /etc/lockstep/slave.env), for a master started elsewhere.",
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
	s->allow_cmds = cmd_mode == 1 ? CMD_ALLOW_SHELL :
			cmd_mode == 0 ? CMD_ALLOW_EXEC :
					CMD_ALLOW_NONE;
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

/*
 * A slave a master started (--keys-stdin) keeps its stdin: the master holds
 * the other end of that pipe (through ssh for a remote slave) for as long
 * as it runs, so EOF there means the master is gone, killed or not, and
 * the I/O stops now rather than after --master-timeout. 1 on EOF.
 */
static int master_pipe_closed(void)
{
	struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
	char buf[64];
	ssize_t n;

	if (poll(&p, 1, 0) <= 0 || !(p.revents & (POLLIN | POLLHUP | POLLERR)))
		return 0;
	n = read(STDIN_FILENO, buf, sizeof(buf));
	return n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR);
}

int slave_main(int argc, char **argv)
{
	struct session s = { 0 };
	struct slave_auth auth = { 0 };
	struct conn_curve curve;
	const char *name = NULL;
	char err[512], prefix[96], from[300];
	double timeout_s = 10;
	unsigned workers = 0; /* one per core */
	int ret = parse_args(&s, &name, &workers, &timeout_s, &auth, argc,
			     argv);

	if (ret != 0) {
		free(s.allow);
		return ret > 0 ? LS_EXIT_OK : LS_EXIT_BAD_INPUT;
	}
	if (load_auth(&auth, s.endpoint) < 0) {
		free(s.allow);
		return LS_EXIT_BAD_INPUT;
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
	/* Before ZeroMQ's I/O thread, the clock responder and any worker. */
	prio_lift();
	if (auth.keys_stdin)
		snprintf(from, sizeof(from), "the key passed on stdin");
	else
		snprintf(from, sizeof(from), "the key in %s",
			 auth.master_file ? auth.master_file : "?");
	curve = (struct conn_curve){
		.secret = auth.own.secret,
		.public = auth.own.public,
		.server = auth.master,
		.server_from = from,
	};
	ret = conn_open(s.endpoint, s.hello.id, auth.insecure ? NULL : &curve,
			&s.conn, err, sizeof(err));
	keys_wipe(&auth.own, sizeof(auth.own));
	if (ret < 0) {
		log_error("%s", err);
		free(s.allow);
		return LS_EXIT_BAD_INPUT;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);

	while (!s.quit && !got_signal) {
		int mask = conn_wait(s.conn,
				     s.ph.active ? s.ph.efd : cmd_fd(&s),
				     phase_wait_ms(&s, s.cmd.pid ? 10 : 100));

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
		if (!s.quit)
			cmd_tick(&s);
		if (!s.quit && auth.keys_stdin && master_pipe_closed()) {
			log_error(
				"the master that started this slave is gone (its pipe closed): stopping all I/O");
			s.daemon = 0;
			uplink_over(&s, "master gone", LS_EXIT_ABORTED);
		}
	}
	if (got_signal) {
		log_info("signal %d: stopping", (int)got_signal);
		s.daemon = 0;
		uplink_over(&s, "signal", LS_EXIT_OK);
	}
	cmd_stop(&s);
	clockresp_stop(&s.cresp);
	conn_close(&s.conn, 200);
	free(s.allow);
	return s.exit_code;
}
