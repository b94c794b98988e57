/*
 * The master: `lockstep run FILE`. It parses the command line and the
 * parameter file, opens the results folder and the slaves' port, hands the
 * run to the conductor (conductor.c) and, once it is over, stops the
 * slaves and writes the summary. master_int.h says which room of master/
 * holds what.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <uuid/uuid.h>
#include "common/exitcode.h"
#include "common/fsutil.h"
#include "common/log.h"
#include "common/opts.h"
#include "master/params/params.h"
#include "master/history/history.h"
#include "common/timeutil.h"
#include "master/check/check.h"
#include "master/run/run.h"
#include "master/run/master_int.h"
#include "master/results/vdbench.h"
#include "master/deploy/deploy.h"

/*
 * As many descriptors as the system lets us have: each slave is a socket
 * and a hosts/ file, and the results are written after all of them.
 */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur >= rl.rlim_max)
		return;
	rl.rlim_cur = rl.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
		log_debug("cannot raise the open-file limit: %s",
			  strerror(errno));
}

static struct stats *stats_new(void)
{
	struct stats *s = malloc(sizeof(*s));

	if (s)
		stats_init(s);
	return s;
}

/*
 * Who may speak to this master. Slaves it starts get per-run keys (see
 * conductor.c), so with no options a run is authenticated; slaves started
 * elsewhere must be listed in --authorized-slaves and the master needs a
 * key they know (--key). --insecure turns CURVE off altogether (plain TCP,
 * anyone who reaches the port may register), with a warning.
 */
static int setup_auth(struct master *m)
{
	char err[1024];
	int external = m->opt->expect > 0, ret;

	for (size_t h = 0; h < m->params->nhd; h++)
		if (m->params->hd[h].shell == PARAMS_SHELL_NONE)
			external = 1;
	if (m->opt->insecure) {
		if (m->opt->key_file || m->opt->auth_file) {
			log_error(
				"--insecure turns authentication off: it cannot go with --key or --authorized-slaves");
			return -EINVAL;
		}
		log_warn("--insecure: no authentication; anyone who reaches tcp://%s can register as a slave and report numbers",
			 m->opt->bind);
		if (!m->opt->nlocal)
			return 0;
		/*
		 * The slaves we fork get keys over their pipe all the same,
		 * so that no local user can take their place.
		 */
		ret = keys_generate(&m->link.key);
		if (ret < 0) {
			log_error("cannot make the keys of the local slaves: %s",
				  ret == -ENOTSUP ?
					  "this libzmq has no CURVE support (use --local-slaves 0)" :
					  strerror(-ret));
			return ret;
		}
		m->link.local_curve = 1;
		return 0;
	}
	if (m->opt->auth_file && !m->opt->key_file) {
		log_error(
			"--authorized-slaves needs --key FILE: slaves started elsewhere must know the master's public key (lockstep keygen makes a pair)");
		return -EINVAL;
	}
	if (external && !m->opt->auth_file) {
		log_error(
			"this run waits for slaves started elsewhere (--expect-slaves or hd=...,shell=none): give --key FILE and --authorized-slaves FILE (see lockstep keygen), or --insecure to accept any peer");
		return -EPERM;
	}
	if (m->opt->key_file)
		ret = keys_load_secret(m->opt->key_file, &m->link.key, err,
				       sizeof(err));
	else
		ret = keys_generate(&m->link.key);
	if (ret == 0 && m->opt->auth_file)
		ret = keys_load_authorized(m->opt->auth_file, &m->link.auth,
					   err, sizeof(err));
	if (ret < 0) {
		if (!m->opt->key_file && !m->opt->auth_file)
			snprintf(err, sizeof(err),
				 "cannot make the run's keys: %s",
				 ret == -ENOTSUP ?
					 "this libzmq has no CURVE support (use --insecure)" :
					 strerror(-ret));
		log_error("%s", err);
		return ret;
	}
	m->link.curve = 1;
	return 0;
}

/*
 * A master reachable from other machines must not take orders from anyone:
 * binding off loopback needs CURVE (the default) or an explicit --insecure.
 */
static int check_listen(struct master *m, struct run_opts *o)
{
	int loopback = strcmp(m->opt->bind, "127.0.0.1") == 0 ||
		       strcmp(m->opt->bind, "localhost") == 0 ||
		       strncmp(m->opt->bind, "127.", 4) == 0;

	if (!loopback && !m->opt->insecure && !m->link.curve) {
		log_error("--listen %s is reachable from other machines without authentication: give --key and --authorized-slaves, or --insecure on a trusted test network",
			  m->opt->bind);
		return -EPERM;
	}
	if (!o->advertise)
		o->advertise = strcmp(m->opt->bind, "*") &&
					       strcmp(m->opt->bind, "0.0.0.0") ?
				       m->opt->bind :
				       NULL;
	if (!m->opt->advertise && (m->opt->nlocal || m->params->nhd)) {
		log_error("--listen %s: say which address slaves should connect to with --advertise ADDR",
			  m->opt->bind);
		return -EINVAL;
	}
	if (m->params->nhd && loopback)
		for (size_t h = 0; h < m->params->nhd; h++)
			if (m->params->hd[h].shell != PARAMS_SHELL_NONE) {
				log_error("hd=%s: slaves on other hosts cannot reach a master on %s; use --listen ADDR",
					  m->params->hd[h].name, m->opt->bind);
				return -EINVAL;
			}
	return 0;
}

/* ---- command line ------------------------------------------------------ */

static const char *const loss_choices[] = { "continue", "abort", NULL };

/*
 * The options of `lockstep run`. The engines are the slave's table, passed
 * in by src/main.c: master code does not include the slave's headers.
 */
static int parse_args(struct run_opts *o, struct master *m,
		      const char *const *engines, int argc, char **argv)
{
	const char *shown[PROTO_MAX_ENGINES + 1];
	char first[PROTO_NAME_LEN + 16], engine_help[512];
	double slave_timeout_s = 3, join_timeout_s = 30;
	int engine = 0, help = 0, args, ret;
	size_t n = 0;

	snprintf(first, sizeof(first), "%s (default)", engines[0]);
	shown[n++] = first;
	for (size_t i = 1; engines[i] && n < PROTO_MAX_ENGINES; i++)
		shown[n++] = engines[i];
	shown[n] = NULL;
	opts_join(shown, ", ", " or ", engine_help, sizeof(engine_help));
	{
		const struct opts_def defs[] = {
			{ "output", 'o', OPTS_STRING, &o->outdir_opt,
			  .arg = "DIR",
			  .help = "results folder (default lockstep-output/<date>-<id>)" },
			{ NULL, 'e', OPTS_SECONDS, &o->ov.elapsed_s, 0, 1e7,
			  .arg = "SECONDS",
			  .help = "elapsed time of every rd (Vdbench -e)" },
			{ NULL, 'w', OPTS_SECONDS, &o->ov.warmup_s, 0, 1e7,
			  .arg = "SECONDS",
			  .help = "warmup of every rd (Vdbench -w)" },
			{ NULL, 'i', OPTS_SECONDS, &o->ov.interval_s, 0, 1e7,
			  OPTS_POSITIVE, .arg = "SECONDS",
			  .help = "reporting interval of every rd (Vdbench -i)" },
			{ "local-slaves", 0, OPTS_UINT, &o->nlocal, 0, 256,
			  .arg = "N",
			  .help = "slaves to start on this machine (default 2)" },
			{ "engine", 0, OPTS_CHOICE, &engine, .choices = engines,
			  .what = "engine", .arg = "NAME",
			  .help = engine_help },
			{ "port", 0, OPTS_UINT, &o->port, 1, 65534, .arg = "N",
			  .help = "ROUTER port (PUB is N+1; default: any free pair)" },
			{ "slave-timeout", 0, OPTS_SECONDS, &slave_timeout_s, 0,
			  1e7, OPTS_POSITIVE, .arg = "S",
			  .help = "mark a silent slave lost after S s (default 3); "
				  "a slave stops its I/O after max(10, 4S-2) s "
				  "without a word from the master" },
			{ "on-slave-loss", 0, OPTS_CHOICE, &o->abort_on_loss,
			  .choices = loss_choices,
			  .help = "what a lost slave does to the run (continue)" },
			{ "join-timeout", 0, OPTS_SECONDS, &join_timeout_s, 0,
			  1e7, OPTS_POSITIVE, .arg = "S",
			  .help = "wait S s for slaves to register (default 30)" },
			{ "expect-slaves", 0, OPTS_UINT, &o->expect, 1,
			  MAX_SLAVES, .arg = "N",
			  .help = "also wait for N slaves started elsewhere" },
			{ "listen", 0, OPTS_STRING, &o->bind, .arg = "ADDR",
			  .help = "address to bind (default 127.0.0.1)" },
			{ "advertise", 0, OPTS_STRING, &o->advertise,
			  .arg = "ADDR",
			  .help = "address slaves connect to (default: --listen)" },
			{ "insecure", 0, OPTS_FLAG, &o->insecure,
			  .help = "no authentication on the port: plain TCP, any peer may register (local slaves still prove keys)" },
			{ "key", 0, OPTS_STRING, &o->key_file, .arg = "FILE",
			  .help = "the master's secret CURVE key (lockstep keygen)" },
			{ "authorized-slaves", 0, OPTS_STRING, &o->auth_file,
			  .arg = "FILE",
			  .help = "public keys of slaves started elsewhere, with their names" },
			{ "ssh", 0, OPTS_STRING, &m->ph.launch.ssh,
			  .arg = "CMD",
			  .help = "the ssh command for hd= hosts (default ssh)" },
			{ "workers", 0, OPTS_UINT, &m->ph.launch.workers, 1, 64,
			  .arg = "N",
			  .help = "I/O threads per slave it starts (default: one per core)" },
			{ "push", 0, OPTS_FLAG, &o->push,
			  .help = "copy this binary to hd= hosts lacking this version" },
			{ "require-space", 0, OPTS_FLAG, &o->require_space,
			  .help = "refuse to start if the results may not fit" },
			{ "graphite", 0, OPTS_STRING, &o->exp_opts.graphite,
			  .arg = "HOST:PORT",
			  .help = "send every interval to Graphite (plaintext)" },
			{ "influx", 0, OPTS_STRING, &o->exp_opts.influx,
			  .arg = "URL",
			  .help = "send every interval to InfluxDB: http://H:P/write?db=D" },
			{ "prom-textfile", 0, OPTS_STRING, &o->exp_opts.prom,
			  .arg = "FILE",
			  .help = "keep a Prometheus textfile NAME.prom up to date" },
			{ "history", 0, OPTS_STRING, &o->history, .arg = "PATH",
			  .help = "the run history (default $LOCKSTEP_HISTORY, else " HISTORY_ROOT_DB
				  " for root, ~/.local/share/lockstep/history.db otherwise)" },
			{ "no-history", 0, OPTS_FLAG, &o->no_history,
			  .help = "do not record this run" },
			{ "baseline", 0, OPTS_STRING, &o->baseline,
			  .arg = "SPEC",
			  .help = "compare with last, last~N, median:N (usable runs only: never a regression unless accepted), an id or a folder; exit 3 on a regression, 6 when no comparison could be made" },
			{ "threshold", 0, OPTS_STRING, &o->threshold,
			  .arg = "LIST",
			  .help = "with --baseline (" HISTORY_DEFAULT_THRESHOLD
				  ")" },
			{ "report", 0, OPTS_FLAG, &o->report,
			  .help = "write report.html (charts) in the results folder" },
			{ "verbose", 'v', OPTS_FLAG, &o->verbose,
			  .help = "debug messages" },
			{ .name = "help",
			  .letter = 'h',
			  .kind = OPTS_HELP,
			  .dest = &help },
		};
		const struct opts_cmd cmd = {
			.prog = "lockstep run",
			.synopsis = "usage: lockstep run FILE [options]",
			.description =
				"The master: parses FILE (Vdbench sd=, wd=, rd= and hd= lines), starts the slaves (local ones, or over ssh on each hd= host), runs every rd as a phase in lockstep on all of them and writes the results folder: summary.txt, summary.json, per-interval and per-host CSV files.\n\n"
				"Exit status 0 only when every number came from every slave it planned for.",
			.width = 23,
			.defs = defs,
			.ndefs = sizeof(defs) / sizeof(defs[0]),
			.nargs = 1,
		};

		ret = opts_parse(&cmd, argc, argv, &args);
	}
	if (ret)
		return ret;
	/* Said, not the default: --push leaves hosts out only if said. */
	o->loss_given = o->abort_on_loss >= 0;
	if (o->abort_on_loss < 0)
		o->abort_on_loss = 0;
	o->engine = engines[engine];
	o->slave_timeout_ns = (uint64_t)(slave_timeout_s * 1e9);
	o->master_timeout_ns = decide_master_timeout(o->slave_timeout_ns);
	o->join_timeout_ns = (uint64_t)(join_timeout_s * 1e9);
	if (o->verbose)
		log_set_level(LOG_DEBUG);
	if (o->nlocal == 0 && o->expect == 0) {
		fprintf(stderr,
			"lockstep run: --local-slaves 0 needs --expect-slaves N\n");
		return -EINVAL;
	}
	o->param_path = argv[args];
	{
		char err[512];

		if (export_check(&o->exp_opts, err, sizeof(err)) < 0) {
			fprintf(stderr, "lockstep run: %s\n", err);
			return -EINVAL;
		}
	}
	return history_check_args(o->history, o->no_history, o->baseline,
				  o->threshold);
}

static void master_free(struct master *m)
{
	export_close(m->out.exp, NULL);
	m->out.exp = NULL;
	if (m->view.out) /* filled once every part exists */
		results_close(&m->view);
	for (unsigned i = 0; i < m->roster.nslaves; i++) {
		free(m->roster.slaves[i].got);
		roster_free_end_lat(&m->roster.slaves[i]);
		free(m->roster.slaves[i].plan_sd);
		free(m->roster.slaves[i].lossrec);
	}
	free(m->ph.ph_hd);
	free(m->ph.ph_rank);
	free(m->ph.sd_bytes);
	for (size_t i = 0; i < m->ph.nruns; i++) {
		free(m->ph.runs[i].slave);
		free(m->ph.runs[i].val_sd);
		free(m->ph.runs[i].fio);
		free(m->ph.runs[i].fs);
	}
	free(m->ph.runs);
	free(m->out.forced);
	free(m->roster.slaves);
	free(m->phases);
	free(m->ph.scratch);
	merge_destroy(&m->ph.merge);
	events_free(&m->events);
	probes_free(&m->probes);
	cmds_free(&m->cmds);
	params_free(&m->params);
	hub_close(&m->link.hub);
	clocks_close(m);
	free(m->ph.dview);
	keys_authorized_free(&m->link.auth);
	keys_wipe(&m->link.key, sizeof(m->link.key));
}

/*
 * The history hook's seal (history_seal_fn): the compare decided the exit
 * code after the summaries were written; the results layer writes what
 * follows from it (results_seal). The summaries end saying the code
 * returned, which the hook records in the history and the master exits
 * with: the folder says what was printed.
 */
static int seal_verdict(void *arg, const struct history_seal *s)
{
	struct master *m = arg;

	return results_seal(&m->view, s);
}

/*
 * Tickers of link_pump(): the probes and the ev= events, the hosts/
 * files' flush. The probes go first: an until=probe: event sees each
 * sample in the tick it ended (one sample at most a probe a tick).
 */
static void tick_events(void *arg, uint64_t now)
{
	(void)now;
	probes_tick(arg);
	events_tick(arg);
}

static void tick_hosts(void *arg, uint64_t now)
{
	(void)now;
	results_flush_hosts(arg, 0); /* every HOSTS_FLUSH_NS, its own clock */
}

/*
 * What link_pump() does after each batch of frames, in this order: the
 * slaves' liveness (LIVENESS_NS), the events (each pump), the hosts/
 * files (each pump; results.c keeps their period). And the calls link.c
 * makes up for the frames that concern the phase (struct link_upcalls).
 */
static void add_tickers(struct master *m)
{
	m->link.up.phase_end = conductor_phase_end;
	m->link.up.resume = midphase_resume;
	link_add_ticker(&m->link, link_liveness, m, LIVENESS_NS);
	link_add_ticker(&m->link, tick_events, &m->view, 0);
	link_add_ticker(&m->link, tick_hosts, &m->view, 0);
}

static int alloc_runs(struct master *m)
{
	m->ph.runs = calloc(m->nphases ? m->nphases : 1, sizeof(*m->ph.runs));
	if (!m->ph.runs)
		return -ENOMEM;
	m->ph.nruns = m->nphases;
	for (size_t i = 0; i < m->ph.nruns; i++)
		m->ph.runs[i].ph = m->phases[i];
	return 0;
}

static int master_mode(int argc, char **argv, const char *const *engines,
		       int vdbench);

int master_main(int argc, char **argv, const char *const *engines)
{
	return master_mode(argc, argv, engines, 0);
}

/*
 * `lockstep vdbench`: Vdbench's command line (vdbench_cli) run as
 * `lockstep run` with Vdbench's console; -v/-j through a parameter file
 * in a temporary folder that says validate=yes (and journal=) and
 * includes FILE, so every rule validation brings is checked at parse time.
 */
/* `lockstep vdbench --help` and its manual page section (opts' table). */
static int vdbench_help(void)
{
	const char *str = NULL;
	double secs = 0;
	int flag = 0, help = 0, args;
	char *av[] = { "vdbench", "--help", NULL };
	const struct opts_def defs[] = {
		{ NULL, 'f', OPTS_STRING, &str, .arg = "FILE",
		  .help = "the parameter file (one; others with include=)" },
		{ NULL, 'o', OPTS_STRING, &str, .arg = "DIR",
		  .help = "output folder (default output; no '+')" },
		{ NULL, 'e', OPTS_SECONDS, &secs, 0, 1e7, .arg = "SECONDS",
		  .help = "elapsed time of every rd" },
		{ NULL, 'w', OPTS_SECONDS, &secs, 0, 1e7, .arg = "SECONDS",
		  .help = "warmup of every rd" },
		{ NULL, 'i', OPTS_SECONDS, &secs, 0, 1e7, .arg = "SECONDS",
		  .help = "reporting interval of every rd" },
		{ NULL, 's', OPTS_FLAG, &flag,
		  .help = "simulate: check FILE and print the plan" },
		{ NULL, 'v', OPTS_FLAG, &flag, .label = "-v, -vw",
		  .help = "validate=yes (lockstep never reads before it writes)" },
		{ NULL, 'j', OPTS_FLAG, &flag, .label = "-j, -jr, -jn",
		  .help = "validate=yes, journal in the current folder (replayed when there)" },
		{ .name = "help",
		  .letter = 'h',
		  .kind = OPTS_HELP,
		  .dest = &help },
	};
	const struct opts_cmd cmd = {
		.prog = "lockstep vdbench",
		.synopsis =
			"usage: lockstep vdbench -f FILE [-o DIR] [options] [--run-option ...]",
		.description =
			"Vdbench's command line, so that a tool running `./vdbench -f P -o DIR > F 2>&1` runs lockstep (also when the binary is named vdbench): FILE runs as with `lockstep run`, with Vdbench's console and, in DIR, Vdbench's flatfile.html, summary.html, totals.html and parmfile.html beside lockstep's files. Options of `lockstep run` (--NAME) pass through; any other Vdbench option is refused by name.",
		.width = 23,
		.defs = defs,
		.ndefs = sizeof(defs) / sizeof(defs[0]),
		.nargs = 0,
	};
	int ret = opts_parse(&cmd, 2, av, &args);

	return ret > 0 ? LS_EXIT_OK : LS_EXIT_BAD_INPUT;
}

int master_vdbench_main(int argc, char **argv, const char *const *engines)
{
	struct vdbench_cli c;
	char err[512], wrap[PATH_MAX + 32], abs[PATH_MAX], cwd[PATH_MAX];
	char tmpdir[] = "/tmp/lockstep-vdbench.XXXXXX", pf[PATH_MAX + 32];
	const char *orig;
	int ret, made = 0;

	if (vdbench_cli(argc, argv, &c, err, sizeof(err)) < 0) {
		fprintf(stderr, "lockstep vdbench: %s\n", err);
		return LS_EXIT_BAD_INPUT;
	}
	if (c.help)
		return vdbench_help();
	if (c.simulate) {
		char *av[] = { "check", (char *)c.file, NULL };

		return check_main(2, av);
	}
	if (!c.dir) {
		/* Vdbench's default output folder. */
		c.run[c.nrun++] = "-o";
		c.run[c.nrun++] = c.dir = "output";
	}
	orig = c.file;
	if (c.validate) {
		FILE *f;

		if (!realpath(c.file, abs) || !getcwd(cwd, sizeof(cwd)) ||
		    !mkdtemp(tmpdir)) {
			fprintf(stderr, "lockstep vdbench: %s: %s\n", c.file,
				strerror(errno));
			return LS_EXIT_BAD_INPUT;
		}
		made = 1;
		snprintf(wrap, sizeof(wrap), "%s/parmfile", tmpdir);
		f = fopen(wrap, "wx");
		if (!f ||
		    fprintf(f, "validate=yes\n%s%s%sinclude=%s\n",
			    c.journal ? "journal=" : "", c.journal ? cwd : "",
			    c.journal ? "\n" : "", abs) < 0 ||
		    fclose(f) != 0) {
			fprintf(stderr, "lockstep vdbench: cannot write %s\n",
				wrap);
			unlink(wrap);
			rmdir(tmpdir);
			return LS_EXIT_BAD_INPUT;
		}
		c.file = wrap;
	}
	c.run[c.nrun++] = c.file;
	c.run[c.nrun] = NULL;
	ret = master_mode(c.nrun, (char **)c.run, engines, 1);
	/* Vdbench's copy of the parameter file, as given. */
	snprintf(pf, sizeof(pf), "%s/parmfile.html", c.dir);
	if (access(c.dir, F_OK) == 0 && fsutil_copy_file(orig, pf) < 0)
		fprintf(stderr, "lockstep vdbench: cannot write %s\n", pf);
	if (made) {
		unlink(wrap);
		rmdir(tmpdir);
	}
	return ret;
}

static int master_mode(int argc, char **argv, const char *const *engines,
		       int vdbench)
{
	struct run_opts o = {
		.vdbench_console = vdbench,
		.engine = engines[0],
		.bind = "127.0.0.1",
		.nlocal = 2,
		.abort_on_loss = -1,
		.ov = { -1, -1, -1 },
		.ready_timeout_ns = 600 * NS_PER_SEC,
		.grace_ns = 500 * NS_PER_MS,
		.heartbeat_ns = NS_PER_SEC,
	};
	struct master m = { .opt = &o };
	char err[1024];
	uuid_t uu;
	int ret;

	ret = parse_args(&o, &m, engines, argc, argv);
	if (ret)
		return ret > 0 ? LS_EXIT_OK : LS_EXIT_BAD_INPUT;
	raise_fd_limit();
	ret = params_parse_file(m.opt->param_path, &m.params, err, sizeof(err));
	/* Before the plan: a host left out (--on-slave-loss continue) has
	   no slaves to plan for. */
	if (ret == 0 && m.opt->push) {
		int partial = m.opt->loss_given && !m.opt->abort_on_loss;

		m.fact.left_out = deploy_push(m.params, m.ph.launch.ssh,
					      partial, stderr);
		if (m.fact.left_out < 0 || (m.fact.left_out && !partial)) {
			master_free(&m);
			return LS_EXIT_BAD_INPUT;
		}
	}
	if (ret == 0)
		ret = plan_phases(m.params, &m.opt->ov, &m.phases, &m.nphases,
				  err, sizeof(err));
	if (ret == 0)
		ret = events_new(m.params, m.phases, m.nphases, &m.events, err,
				 sizeof(err));
	if (ret == 0 && (probes_new(m.params, &m.probes) < 0 ||
			 cmds_new(m.params, &m.cmds) < 0)) {
		snprintf(err, sizeof(err), "out of memory");
		ret = -ENOMEM;
	}
	if (ret < 0) {
		fprintf(stderr, "%s\n", err);
		master_free(&m);
		return LS_EXIT_BAD_INPUT;
	}
	uuid_generate(uu);
	uuid_unparse_lower(uu, m.run_id);
	m.started_real = time_real_ns();
	m.roster.slaves = calloc(MAX_SLAVES, sizeof(*m.roster.slaves));
	m.ph.dview = calloc(MAX_SLAVES, sizeof(*m.ph.dview));
	m.ph.scratch = stats_new();
	m.view = (struct run_view){
		.opt = m.opt,
		.params = m.params,
		.phases = m.phases,
		.nphases = m.nphases,
		.run_id = m.run_id,
		.started_real = m.started_real,
		.roster = &m.roster,
		.ph = &m.ph,
		.link = &m.link,
		.fact = &m.fact,
		.out = &m.out,
		.events = m.events,
		.probes = m.probes,
		.cmds = m.cmds,
	};
	if (!m.roster.slaves || !m.ph.dview || !m.ph.scratch ||
	    alloc_runs(&m) < 0 || results_open(&m.view) < 0) {
		master_free(&m);
		return LS_EXIT_BAD_INPUT;
	}
	if (m.params->nhd > 0)
		o.nlocal = 0; /* hd= lines say where the slaves run */
	ret = setup_auth(&m);
	if (ret == 0)
		ret = check_listen(&m, &o);
	if (ret == 0) {
		const struct hub_curve curve = { m.link.key.secret,
						 &m.link.auth };

		ret = hub_open(m.opt->bind, m.opt->port,
			       m.link.curve ? &curve : NULL,
			       m.link.local_curve ? &curve : NULL, &m.link.hub,
			       &m.link.bound_port, &m.link.local_port, err,
			       sizeof(err));
	} else {
		snprintf(err, sizeof(err), "%s",
			 "refused: no slave was started");
	}
	if (ret < 0) {
		log_error("%s", err);
		master_free(&m);
		return LS_EXIT_BAD_INPUT;
	}
	if (results_export_open(&m.view) < 0) {
		master_free(&m);
		return LS_EXIT_BAD_INPUT;
	}
	interrupt_install();
	signal(SIGPIPE, SIG_IGN);
	for (size_t i = 0; i < m.params->nwarn; i++)
		log_msg(LOG_WARN, "%s", m.params->warn[i]);
	log_info("run %s: %zu runs, %.0f s planned, results in %s", m.run_id,
		 m.nphases, plan_total_seconds(m.phases, m.nphases), m.out.dir);
	log_info("master listening on tcp://%s:%u (broadcasts on port %u)%s",
		 m.opt->bind, m.link.bound_port, m.link.bound_port + 1,
		 m.link.curve ?
			 ", CURVE" :
		 m.link.local_curve ?
			 ", no authentication (--insecure; the local slaves prove keys on their own port)" :
			 ", no authentication (--insecure)");

	m.ph.launch.logfd = fileno(m.out.log);
	m.out.tty = isatty(STDOUT_FILENO);
	m.ph.launch.verbose = m.opt->verbose;
	/* The slaves it starts run its slave-scope commands (its user
	   could run anything there anyway); a daemon decides for itself. */
	for (size_t i = 0; i < m.params->nrd; i++)
		if ((m.params->rd[i].startcmd.n &&
		     m.params->rd[i].startcmd.slave) ||
		    (m.params->rd[i].endcmd.n && m.params->rd[i].endcmd.slave))
			m.ph.launch.commands = 1;
	add_tickers(&m);
	ret = conductor_run(&m);
	cmds_stop(&m.view);
	probes_stop(&m.view);
	events_stop(&m.view);
	events_recovery_text(&m.view, stdout);

	if (ret == -EINTR || run_interrupted) {
		log_warn("interrupted: stopping every slave");
		m.fact.end = RUN_INTERRUPTED;
	} else if (ret == -ECANCELED) {
		m.fact.end = RUN_CANCELED;
	} else if (ret < 0) {
		m.fact.end = RUN_FAILED;
	} else {
		m.fact.end = RUN_RAN;
	}
	ret = decide_exit(&m.fact);
	link_stop_all(&m,
		      ret == LS_EXIT_OK || ret == LS_EXIT_DEGRADED ?
			      PROTO_STOP :
			      PROTO_ABORT,
		      ret == LS_EXIT_OK ? "run complete" :
					  results_status_name(ret));
	conductor_reap(&m);
	interrupt_forget_children();
	results_finish(&m.view);
	/* seal_verdict() records the verdict; the code is decide_exit()'s. */
	ret = history_run_hook(m.out.dir, m.opt->history, m.opt->no_history,
			       m.opt->baseline, m.opt->threshold,
			       decide_exit(&m.fact), seal_verdict, &m);
	master_free(&m);
	return ret;
}
