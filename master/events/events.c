/*
 * The event runner of a failure-and-rebuild run (see events.h). Children
 * are started with posix_spawn from the master's own loop and reaped
 * with waitpid(WNOHANG) at every tick (link_pump() calls events_tick()
 * between frames, at least every 50 ms): nothing here ever waits for a
 * child, so a command that hangs costs the master nothing but a process.
 * Each child leads its own process group (a timeout kills the group, the
 * shell and whatever it started) with stdout and stderr in
 * events/NAME.log; everything it needs is built before the spawn.
 */
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "common/exitcode.h"
#include "common/fsutil.h"
#include "common/log.h"
#include "common/spawn.h"
#include "common/timeutil.h"
#include "proto/proto.h"
#include "master/events/events.h"
#include "master/events/events_int.h"
#include "master/events/probes.h"
#include "master/run/master_int.h"

/* A poll may run this long at least, even when poll= is shorter. */
#define POLL_MIN_BOUND_NS (10 * NS_PER_SEC)

int events_new(const struct params *p, const struct plan_phase *ph, size_t nph,
	       struct events **out, char *err, size_t errlen)
{
	struct evplan_ev *plan = NULL;
	struct events *e;
	int ret;

	*out = NULL;
	ret = evplan_resolve(p, ph, nph, &plan, err, errlen);
	if (ret < 0 || !p->nev)
		return ret;
	e = calloc(1, sizeof(*e));
	if (e) {
		e->ev = calloc(p->nev, sizeof(*e->ev));
		e->series = calloc(nph ? nph : 1, sizeof(*e->series));
	}
	if (!e || !e->ev || !e->series) {
		free(plan);
		events_free(&e);
		return -ENOMEM;
	}
	e->n = p->nev;
	e->nseries = nph;
	for (size_t i = 0; i < p->nev; i++) {
		struct ev_state *s = &e->ev[i];

		s->pe = &p->ev[i];
		s->plan = plan[i];
		s->run = -1;
		s->exit_code = -1;
		s->relay[0] = s->relay[1] = -1;
		s->fig_ret = -ENODATA;
	}
	free(plan);
	*out = e;
	return 0;
}

void events_free(struct events **pe)
{
	struct events *e = pe ? *pe : NULL;

	if (!e)
		return;
	for (size_t i = 0; e->ev && i < e->n; i++) {
		for (int k = 0; k < 2; k++)
			if (e->ev[i].relay[k] >= 0)
				close(e->ev[i].relay[k]);
		/* (closed by results_close() before, when it was open) */
		child_log_free(&e->ev[i].log);
		free(e->ev[i].loss);
	}
	for (size_t i = 0; e->series && i < e->nseries; i++) {
		free(e->series[i].pts);
		free(e->series[i].smp);
	}
	free(e->series);
	free(e->ev);
	free(e);
	*pe = NULL;
}

/* ---- children ---------------------------------------------------------- */

/* s in single quotes for a POSIX shell, appended to buf (len bytes). */
static void sh_quote(char *buf, size_t len, const char *s)
{
	size_t n = strlen(buf);

	if (n + 1 < len)
		buf[n++] = '\'';
	for (; *s && n + 5 < len; s++) {
		if (*s == '\'') {
			memcpy(buf + n, "'\\''", 4);
			n += 4;
		} else {
			buf[n++] = *s;
		}
	}
	if (n + 1 < len)
		buf[n++] = '\'';
	buf[n < len ? n : len - 1] = '\0';
}

/*
 * The remote command for host=: the variables exported by the remote shell
 * (ssh passes no environment) and the command run by the remote /bin/sh,
 * every value single-quoted. Killing the local ssh at the deadline does not
 * reach the remote side (no terminal, so no hang-up), so the remote side
 * bounds itself: under timeout(1), TERM after bound_s and KILL 5 s later,
 * where the host has it. NULL when it does not fit.
 */
static char *remote_cmd(char **kv, const char *cmd, unsigned bound_s)
{
	size_t len = strlen(cmd) * 4 + 256;
	char *buf, mid[128];

	for (int i = 0; i < CHILD_NVARS; i++)
		len += strlen(kv[i]) * 4 + 8;
	buf = calloc(1, len);
	if (!buf)
		return NULL;
	strcat(buf, "export");
	for (int i = 0; i < CHILD_NVARS; i++) {
		const char *eq = strchr(kv[i], '=');

		strcat(buf, " ");
		strncat(buf, kv[i], (size_t)(eq - kv[i]) + 1);
		sh_quote(buf, len, eq + 1);
	}
	/* t stays empty, and splits into no word, without timeout(1). */
	snprintf(mid, sizeof(mid),
		 "; t=; if command -v timeout >/dev/null 2>&1; then t='timeout -k 5 %u'; fi; exec $t /bin/sh -c ",
		 bound_s);
	strcat(buf, mid);
	sh_quote(buf, len, cmd);
	return buf;
}

/* ---- the log: what the commands write, relayed and capped -------------- */

/* The pipe's buffer (when the kernel allows). */
#define RELAY_PIPE_BYTES (1024 * 1024)

static void relay_drain_all(const struct run_view *rv, struct ev_state *e,
			    int close_it)
{
	child_drain_log(rv, &e->relay[0], close_it, &e->log);
	child_drain_log(rv, &e->relay[1], close_it, &e->log);
}

/*
 * Start cmd for event e in its own process group, output (stdout and
 * stderr) into pipe slot (0 exec=, 1 until=) of its log relay: here
 * through /bin/sh -c, or on its host= over the launcher's ssh. A pipe the
 * slot held before (a previous poll's, which a background child may still
 * hold open) is drained and closed first. Returns the pid or -errno.
 */
static pid_t spawn(const struct run_view *rv, struct ev_state *e, int slot,
		   const char *cmd, uint64_t bound_ns)
{
	char *kv[CHILD_NVARS] = { 0 }, **envp = NULL, *remote = NULL;
	char *argv[LAUNCH_SSH_ARGV], words[1024];
	int p[2] = { -1, -1 };
	pid_t pid = -ENOMEM;

	/* An event whose log could not be opened never gets here. */
	if (!e->log.f.f)
		return -EBADF;

	if (child_vars(rv, e->run >= 0 ? rv->ph->runs[e->run].ph.name : "",
		       "LOCKSTEP_EVENT", e->pe->name, kv) < 0 ||
	    !(envp = child_env(kv, CHILD_NVARS)))
		goto out;
	if (e->pe->host >= 0) {
		const struct params_hd *hd = &rv->params->hd[e->pe->host];

		remote = remote_cmd(kv, cmd,
				    (unsigned)((bound_ns + NS_PER_SEC - 1) /
					       NS_PER_SEC));
		if (!remote)
			goto out;
		launch_ssh_argv(rv->ph->launch.ssh, hd->user, hd->system,
				remote, words, sizeof(words), argv);
	} else {
		argv[0] = "/bin/sh";
		argv[1] = "-c";
		argv[2] = (char *)cmd;
		argv[3] = NULL;
	}
	pid = child_pipe(p);
	if (pid < 0)
		goto out;
	/* Best effort: a bigger buffer lets a chatty command run on
	   between the master's ticks (at most 50 ms apart). */
	(void)fcntl(p[0], F_SETPIPE_SZ, RELAY_PIPE_BYTES);
	pid = spawn_grouped(argv, envp, p[1], p[1]);
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		goto out;
	}
	child_drain_log(rv, &e->relay[slot], 1, &e->log);
	e->relay[slot] = p[0];
out:
	child_vars_free(kv);
	free(envp);
	free(remote);
	return pid;
}

static int status_of(int st)
{
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Children of events that are over: killed ones wait here to be reaped. */
static void reap_dead(struct events *E)
{
	int st;

	for (size_t i = 0; i < E->n; i++) {
		struct ev_state *e = &E->ev[i];

		if (e->status < EV_OK)
			continue;
		child_reaped(&e->exec_pid, &st);
		child_reaped(&e->poll_pid, &st);
	}
}

/* ---- the life of an event ----------------------------------------------- */

static double since_s(uint64_t from, uint64_t to)
{
	return to > from ? (double)(to - from) / 1e9 : 0;
}

/* The event ends with status (not EV_OK: why says what went wrong). */
static void finish(const struct run_view *rv, struct ev_state *e,
		   enum ev_status st, uint64_t now)
{
	const char *name = e->pe->name;
	double took = since_s(e->start_real, now);

	e->status = st;
	e->end_real = now;
	child_kill(e->exec_pid);
	child_kill(e->poll_pid);
	/* What the commands wrote before the end, above the end's note. */
	relay_drain_all(rv, e, 0);
	switch (st) {
	case EV_OK:
		log_info("event %s ended after %.1f s%s", name, took,
			 e->pe->until[0] ? " (until= succeeded)" : "");
		child_log_note(rv, &e->log, "ended after %.1f s", took);
		break;
	case EV_FAILED:
	case EV_TIMED_OUT:
		log_warn("event %s %s after %.1f s: %s; %s", name,
			 st == EV_FAILED ? "failed" : "timed out", took, e->why,
			 e->pe->abort_on_fail ?
				 "aborting the run (on_fail=abort)" :
				 "the run goes on and ends degraded");
		child_log_note(rv, &e->log, "%s: %s",
			       st == EV_FAILED ? "failed" : "timed out",
			       e->why);
		if (e->pe->abort_on_fail)
			rv->fact->stop_run = 1;
		else
			rv->fact->events_failed++;
		break;
	default:
		break;
	}
	/*
	 * The log stays open until the run ends (events_stop): a background
	 * child the command left may still write, as it could into the file
	 * it was given before the output was relayed.
	 */
}

/* At the end of the run: the last of the output, then the log closes. */
static void close_log(const struct run_view *rv, struct ev_state *e)
{
	relay_drain_all(rv, e, 1);
	child_log_close(rv, &e->log);
}

static void start(const struct run_view *rv, struct ev_state *e, uint64_t now,
		  uint64_t mono)
{
	int ret;

	e->start_real = now;
	e->run = rv->ph->cur ? (int)(rv->ph->cur - rv->ph->runs) : -1;
	e->deadline_mono = mono + (uint64_t)(e->pe->timeout_s * 1e9);
	ret = child_log_open(rv, &e->log, "event", e->pe->name);
	if (ret < 0) {
		snprintf(e->why, sizeof(e->why),
			 "cannot open events/%s.log: %s", e->pe->name,
			 strerror(-ret));
		finish(rv, e, EV_FAILED, now);
		return;
	}
	log_info("event %s started in %s%s%s: %s%s", e->pe->name,
		 e->run >= 0 ? rv->ph->runs[e->run].ph.name : "-",
		 e->pe->host >= 0 ? " on " : "",
		 e->pe->host >= 0 ? rv->params->hd[e->pe->host].name : "",
		 e->pe->exec[0] ? "exec=" : "",
		 e->pe->until[0] ?
			 (e->pe->exec[0] ? ", then until=" : "until=") :
			 "");
	if (!e->pe->exec[0]) {
		e->status = EV_POLLING;
		e->next_poll_mono = mono;
		e->poll_since_real = now;
		return;
	}
	child_log_note(rv, &e->log, "exec: %s", e->pe->exec);
	e->exec_pid = spawn(rv, e, 0, e->pe->exec, e->deadline_mono - mono);
	if (e->exec_pid < 0) {
		snprintf(e->why, sizeof(e->why), "cannot start exec=: %s",
			 strerror(-e->exec_pid));
		e->exec_pid = 0;
		finish(rv, e, EV_FAILED, now);
		return;
	}
	e->status = EV_RUNNING;
}

/* Whether e's time has come; it may become EV_NOT_RUN instead. */
static int due(const struct run_view *rv, struct ev_state *e, uint64_t now)
{
	if (e->plan.phase >= 0) {
		struct run_result *r = &rv->ph->runs[e->plan.phase];

		if (r->skipped || r->done) {
			snprintf(e->why, sizeof(e->why),
				 r->skipped ?
					 "its phase %s was skipped" :
					 "its phase %s ended before its time",
				 r->ph.name);
			e->status = EV_NOT_RUN;
			return 0;
		}
		if (rv->ph->cur != r || !r->start_at)
			return 0;
		e->planned_real = r->start_at +
				  r->ph.warmup_intervals * r->ph.interval_ns +
				  (uint64_t)(e->plan.offset_s * 1e9);
	} else {
		const struct ev_state *a = &rv->events->ev[e->pe->after];

		if (a->status == EV_NOT_RUN || a->status == EV_CUT) {
			snprintf(e->why, sizeof(e->why), "ev=%s did not end",
				 a->pe->name);
			e->status = EV_NOT_RUN;
			return 0;
		}
		if (a->status < EV_OK)
			return 0;
		e->planned_real = a->end_real +
				  (uint64_t)(e->plan.offset_s * 1e9);
	}
	return now >= e->planned_real;
}

static void exec_step(const struct run_view *rv, struct ev_state *e,
		      uint64_t now, uint64_t mono)
{
	int st;

	if (child_reaped(&e->exec_pid, &st)) {
		e->exit_code = status_of(st);
		child_log_note(rv, &e->log,
			       "exec= exited with status %d after %.1f s",
			       e->exit_code, since_s(e->start_real, now));
		if (e->exit_code != 0) {
			snprintf(e->why, sizeof(e->why),
				 "exec= exited with status %d", e->exit_code);
			finish(rv, e, EV_FAILED, now);
		} else if (e->pe->until[0]) {
			e->status = EV_POLLING;
			e->next_poll_mono = mono;
			e->poll_since_real = now;
		} else {
			finish(rv, e, EV_OK, now);
		}
	} else if (mono >= e->deadline_mono) {
		snprintf(e->why, sizeof(e->why),
			 "exec= still running after timeout=%gs: its process group was killed",
			 e->pe->timeout_s);
		finish(rv, e, EV_TIMED_OUT, now);
	}
}

/*
 * until=probe:: the event ends at the stamped time of the first sample of
 * its probe, started since it polls, that meets the condition (probes.c
 * ticks first, so each sample is seen in the tick it ended).
 */
static void probe_step(const struct run_view *rv, struct ev_state *e,
		       uint64_t now, uint64_t mono)
{
	const struct params_probe_until *u = &e->pe->upr;
	uint64_t at;

	if (probes_until_met(rv->probes, u, e->poll_since_real, &e->probe_seen,
			     &at)) {
		e->polls++;
		child_log_note(rv, &e->log,
			       "%s met by probe %s's sample stamped %llu",
			       e->pe->until, rv->params->probe[u->probe].name,
			       (unsigned long long)at);
		finish(rv, e, EV_OK, at);
		return;
	}
	if (mono >= e->deadline_mono) {
		snprintf(e->why, sizeof(e->why),
			 "until=%s not met within timeout=%gs", e->pe->until,
			 e->pe->timeout_s);
		finish(rv, e, EV_TIMED_OUT, now);
	}
}

static void poll_step(const struct run_view *rv, struct ev_state *e,
		      uint64_t now, uint64_t mono)
{
	uint64_t poll_ns = (uint64_t)(e->pe->poll_s * 1e9), bound;
	int st;

	if (e->pe->until_probe) {
		probe_step(rv, e, now, mono);
		return;
	}

	if (child_reaped(&e->poll_pid, &st)) {
		child_log_note(rv, &e->log,
			       "until= poll %u exited with status %d", e->polls,
			       status_of(st));
		if (status_of(st) == 0) {
			finish(rv, e, EV_OK, now);
			return;
		}
		e->next_poll_mono = e->poll_started_mono + poll_ns;
	} else if (e->poll_pid && mono >= e->poll_deadline_mono) {
		child_log_note(rv, &e->log,
			       "until= poll %u still running: killed",
			       e->polls);
		child_kill(e->poll_pid);
		/* Reaped when it is gone: no new poll until then. */
		e->next_poll_mono = e->poll_started_mono + poll_ns;
	}
	if (mono >= e->deadline_mono) {
		snprintf(e->why, sizeof(e->why),
			 "until= did not succeed within timeout=%gs (%u polls)",
			 e->pe->timeout_s, e->polls);
		finish(rv, e, EV_TIMED_OUT, now);
		return;
	}
	if (e->poll_pid || mono < e->next_poll_mono)
		return;
	bound = poll_ns > POLL_MIN_BOUND_NS ? poll_ns : POLL_MIN_BOUND_NS;
	e->poll_pid = spawn(rv, e, 1, e->pe->until, bound);
	if (e->poll_pid < 0) {
		snprintf(e->why, sizeof(e->why), "cannot start until=: %s",
			 strerror(-e->poll_pid));
		e->poll_pid = 0;
		finish(rv, e, EV_FAILED, now);
		return;
	}
	e->polls++;
	e->poll_started_mono = mono;
	e->poll_deadline_mono = mono + bound;
}

void events_tick(const struct run_view *rv)
{
	struct events *E = rv->events;
	uint64_t now, mono;

	if (!E || E->stopped)
		return;
	now = time_real_ns();
	mono = time_mono_ns();
	for (size_t i = 0; i < E->n; i++) {
		struct ev_state *e = &E->ev[i];

		/* Output first: an exec= that exits now wrote it already. */
		relay_drain_all(rv, e, 0);
		switch (e->status) {
		case EV_PENDING:
			if (due(rv, e, now))
				start(rv, e, now, mono);
			break;
		case EV_RUNNING:
			exec_step(rv, e, now, mono);
			break;
		case EV_POLLING:
			poll_step(rv, e, now, mono);
			break;
		default:
			break;
		}
	}
	reap_dead(E);
}

/* ---- the end: what was not done, and the figures ------------------------ */

/* rejoin=yes: a slave it expected back that never came is said. */
static void not_back(const struct run_view *rv, struct ev_state *e)
{
	for (unsigned k = 0; e->pe->rejoin && k < e->nloss; k++) {
		if (e->loss[k].back_real)
			continue;
		log_warn("event %s expected slave %s back (rejoin=yes): it did not rejoin%s",
			 e->pe->name,
			 rv->roster->slaves[e->loss[k].slave].hello.name,
			 decide_exit(rv->fact) == LS_EXIT_OK ?
				 "; the run is degraded" :
				 "");
		rv->fact->events_failed++;
	}
}

/* Killed children reaped; how many are still there. */
static int reap_left(void *arg)
{
	struct events *E = arg;
	int left = 0, st;

	for (size_t i = 0; i < E->n; i++) {
		child_reaped(&E->ev[i].exec_pid, &st);
		child_reaped(&E->ev[i].poll_pid, &st);
		left += E->ev[i].exec_pid > 0 || E->ev[i].poll_pid > 0;
	}
	return left;
}

void events_stop(const struct run_view *rv)
{
	struct events *E = rv->events;
	uint64_t now = time_real_ns();
	int left;

	if (!E || E->stopped)
		return;
	E->stopped = 1;
	for (size_t i = 0; i < E->n; i++) {
		struct ev_state *e = &E->ev[i];

		if (e->status == EV_PENDING) {
			if (!e->why[0])
				snprintf(e->why, sizeof(e->why),
					 "the run ended before its time");
			e->status = EV_NOT_RUN;
		} else if (e->status == EV_RUNNING || e->status == EV_POLLING) {
			snprintf(e->why, sizeof(e->why),
				 "the run ended while it was %s",
				 e->status == EV_RUNNING ? "running exec=" :
							   "polling until=");
			finish(rv, e, EV_CUT, now);
		} else {
			continue;
		}
		log_warn("event %s %s: %s%s", e->pe->name,
			 e->status == EV_CUT ? "cut short" : "not run", e->why,
			 decide_exit(rv->fact) == LS_EXIT_OK ?
				 "; the run is degraded" :
				 "");
		rv->fact->events_failed++;
	}
	/* Killed children go within moments; a child stuck in the kernel
	   (uninterruptible sleep) is left behind rather than waited for. */
	left = child_wait_gone(reap_left, E);
	if (left)
		log_warn("%d event processes did not exit after SIGKILL", left);
	for (size_t i = 0; i < E->n; i++) {
		close_log(rv, &E->ev[i]);
		not_back(rv, &E->ev[i]);
		events_figures(rv, &E->ev[i]);
	}
}
