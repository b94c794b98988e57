/*
 * The probe runner (see probes.h). Each probe has at most one sample
 * running: started with posix_spawn (child.c) from the master's loop in a
 * process group of its own, its stdout and stderr non-blocking pipes read
 * at every tick (link_pump() ticks at least every 50 ms), reaped with
 * waitpid(WNOHANG), killed with its group at its timeout= and reaped by a
 * later tick: nothing here waits for a child, as for the ev= commands.
 * stdout (up to PROBE_OUT_MAX) is parsed when the sample ends; stdout and
 * stderr go to probes/NAME.log up to DECIDE_EVENT_LOG_BYTES, the rest
 * counted. Each sample is written to probes.csv at once, one row per key.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "common/fsutil.h"
#include "common/spawn.h"
#include "common/log.h"
#include "common/timeutil.h"
#include "master/events/events_int.h"
#include "master/events/probes.h"
#include "master/export/export.h"
#include "master/run/master_int.h"

int probes_new(const struct params *p, struct probes **out)
{
	struct probes *P;

	*out = NULL;
	if (!p->nprobe)
		return 0;
	P = calloc(1, sizeof(*P));
	if (P)
		P->pr = calloc(p->nprobe, sizeof(*P->pr));
	if (!P || !P->pr) {
		free(P);
		return -ENOMEM;
	}
	P->n = p->nprobe;
	for (size_t i = 0; i < P->n; i++) {
		struct probe_state *s = &P->pr[i];

		s->pp = &p->probe[i];
		s->pipe[0] = s->pipe[1] = -1;
		s->out = malloc(PROBE_OUT_MAX);
		if (!s->out) {
			probes_free(&P);
			return -ENOMEM;
		}
	}
	*out = P;
	return 0;
}

void probes_free(struct probes **pP)
{
	struct probes *P = pP ? *pP : NULL;

	if (!P)
		return;
	for (size_t i = 0; P->pr && i < P->n; i++) {
		struct probe_state *s = &P->pr[i];

		for (int k = 0; k < 2; k++)
			if (s->pipe[k] >= 0)
				close(s->pipe[k]);
		child_log_free(&s->log);
		free(s->out);
	}
	if (P->csv.f)
		fclose(P->csv.f);
	free(P->csv.name);
	free(P->pr);
	free(P);
	*pP = NULL;
}

const char *probes_status_text(enum probe_status st, int code, char *buf,
			       size_t len)
{
	switch (st) {
	case PROBE_OK:
		return "ok";
	case PROBE_TIMEOUT:
		return "timeout";
	case PROBE_EXIT:
		snprintf(buf, len, "exit %d", code);
		return buf;
	case PROBE_SIGNAL:
		snprintf(buf, len, "signal %d", code);
		return buf;
	case PROBE_UNPARSED:
		return "unparsed";
	}
	return "?";
}

/* ---- a sample ------------------------------------------------------------ */

/* A piece of the sample's stdout: kept up to PROBE_OUT_MAX, the rest counted. */
static void take_out(void *arg, const char *buf, size_t len)
{
	struct probe_state *s = arg;
	size_t room = PROBE_OUT_MAX - s->outlen;
	size_t c = len < room ? len : room;

	memcpy(s->out + s->outlen, buf, c);
	s->outlen += c;
	s->out_dropped += len - c;
}

/*
 * What the sample wrote since the last look: stdout (pipe 0) into s->out
 * up to PROBE_OUT_MAX, the rest counted; stderr (pipe 1) into the log. At
 * end of file, or with close_it, the pipes are closed.
 */
static void drain(const struct run_view *rv, struct probe_state *s,
		  int close_it)
{
	child_drain(&s->pipe[0], close_it, take_out, s);
	child_drain_log(rv, &s->pipe[1], close_it, &s->log);
}

/* Start a sample of s; 0 or -errno (said). */
static int start(const struct run_view *rv, struct probe_state *s, uint64_t now,
		 uint64_t mono)
{
	const char *run = rv->ph->cur ? rv->ph->cur->ph.name : "";
	char *kv[CHILD_NVARS] = { 0 }, **envp = NULL;
	char *argv[] = { "/bin/sh", "-c", (char *)s->pp->exec, NULL };
	int po[2] = { -1, -1 }, pe[2] = { -1, -1 };
	pid_t pid = -ENOMEM;

	s->next_mono = mono + (uint64_t)(s->pp->every_s * 1e9);
	if (child_vars(rv, run, "LOCKSTEP_PROBE", s->pp->name, kv) < 0 ||
	    !(envp = child_env(kv, CHILD_NVARS)))
		goto out;
	pid = child_pipe(po);
	if (pid == 0)
		pid = child_pipe(pe);
	if (pid < 0)
		goto out;
	pid = spawn_grouped(argv, envp, po[1], pe[1]);
	if (pid > 0) {
		s->pipe[0] = po[0];
		s->pipe[1] = pe[0];
		po[0] = pe[0] = -1;
	}
out:
	for (int k = 0; k < 2; k++) {
		if (po[k] >= 0)
			close(po[k]);
		if (pe[k] >= 0)
			close(pe[k]);
	}
	child_vars_free(kv);
	free(envp);
	if (pid < 0) {
		log_warn("probe %s: cannot start a sample: %s", s->pp->name,
			 strerror((int)-pid));
		s->failures++;
		return (int)pid;
	}
	s->pid = pid;
	s->killed = 0;
	s->outlen = 0;
	s->out_dropped = 0;
	s->started_real = now;
	s->started_mono = mono;
	s->deadline_mono = mono + (uint64_t)(s->pp->timeout_s * 1e9);
	return 0;
}

/* A value of key kept as the key's last in the run. */
static void remember(struct probe_state *s, const struct probe_kv *kv)
{
	for (int i = 0; i < s->nkey; i++)
		if (!strcmp(s->key[i].key, kv->key)) {
			s->key[i].v = kv->v;
			return;
		}
	if (s->nkey < PROBE_KEYS_MAX)
		s->key[s->nkey++] = *kv;
	else
		s->keys_untracked++;
}

/* v as the shortest of %.15g and %.17g that reads back as v. */
static const char *fmt_value(double v, char *buf, size_t len)
{
	snprintf(buf, len, "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, len, "%.17g", v);
	return buf;
}

/* One row of probes.csv (key and value NULL: a failed sample). */
static void csv_row(const struct run_view *rv, const struct probe_state *s,
		    const char *key, const double *v, const char *status)
{
	FILE *f = results_w(&rv->probes->csv);
	char num[40];
	unsigned interval = 0;
	int run = probe_parse_locate(rv->ph->runs, rv->ph->nruns, s->last_real,
				     &interval);

	if (!f)
		return;
	/* The run's name as one CSV field (an rd's name may hold a quote). */
	fprintf(f, "%llu,\"", (unsigned long long)s->last_real);
	for (const char *c = run >= 0 ? rv->ph->runs[run].ph.name : ""; *c;
	     c++) {
		if (*c == '"')
			fputc('"', f);
		fputc(*c, f);
	}
	fputs("\",", f);
	if (run >= 0)
		fprintf(f, "%u", interval);
	fprintf(f, ",%s,%s,", s->pp->name, key ? key : "");
	if (v)
		fputs(fmt_value(*v, num, sizeof(num)), f);
	fprintf(f, ",%s\n", status);
	results_wrote(rv, &rv->probes->csv);
}

/* The sample ended (st as waitpid gave it) at now: recorded. */
/* A sample's key to the live export: lockstep.probe.NAME.KEY and such. */
static void export_sample(const struct run_view *rv,
			  const struct probe_state *s, const char *key,
			  double v, uint64_t now)
{
	const struct export_metric m = { "value", v, 6 };
	struct export_point p = {
		.kind = EXPORT_PROBE,
		.obj = s->pp->name,
		.key = key,
		.nm = 1,
		.m = &m,
		.run = "",
		.phase = "",
		.end_ns = now,
	};

	export_point(rv->out->exp, &p);
}

static void record(const struct run_view *rv, struct probe_state *s, int st,
		   uint64_t now)
{
	const char *why = NULL;
	char buf[32], num[40], vals[512] = "";
	const char *status;
	int n = 0;

	s->seq++;
	s->samples++;
	s->last_real = now;
	s->last_started_real = s->started_real;
	s->nlast = 0;
	s->last_code = 0;
	if (s->killed) {
		s->last_status = PROBE_TIMEOUT;
	} else if (WIFSIGNALED(st)) {
		s->last_status = PROBE_SIGNAL;
		s->last_code = WTERMSIG(st);
	} else if (WEXITSTATUS(st)) {
		s->last_status = PROBE_EXIT;
		s->last_code = WEXITSTATUS(st);
	} else if (s->out_dropped) {
		s->last_status = PROBE_UNPARSED;
		why = "output longer than 64 KiB (the rest discarded)";
	} else {
		n = probe_parse_output(s->out, s->outlen, s->last, &why);
		s->last_status = n > 0 ? PROBE_OK : PROBE_UNPARSED;
	}
	status = probes_status_text(s->last_status, s->last_code, buf,
				    sizeof(buf));
	/* The log: its stdout, then what the master made of it. */
	child_log_keep(rv, &s->log, s->out, s->outlen);
	if (s->last_status == PROBE_OK) {
		s->nlast = n;
		for (int i = 0; i < n; i++) {
			size_t l = strlen(vals);

			snprintf(vals + l, sizeof(vals) - l, " %s=%s",
				 s->last[i].key,
				 fmt_value(s->last[i].v, num, sizeof(num)));
			remember(s, &s->last[i]);
			csv_row(rv, s, s->last[i].key, &s->last[i].v, "ok");
			export_sample(rv, s, s->last[i].key, s->last[i].v, now);
		}
	} else {
		csv_row(rv, s, NULL, NULL, status);
		if (s->last_status == PROBE_UNPARSED)
			s->unparsed++;
		else
			s->failures++;
	}
	results_flush(rv, &rv->probes->csv);
	child_log_note(rv, &s->log, "sample %llu: %s after %.3f s%s%s%s%s",
		       (unsigned long long)s->seq, status,
		       (double)(now - s->started_real) / 1e9, vals,
		       why ? " (" : "", why ? why : "", why ? ")" : "");
	if (s->last_status != PROBE_OK && !(s->said & 1u << s->last_status)) {
		log_warn("probe %s: sample %llu: %s%s%s%s (said once for each status; every sample is in probes.csv, its output in %s)",
			 s->pp->name, (unsigned long long)s->seq, status,
			 why ? " (" : "", why ? why : "", why ? ")" : "",
			 s->log.name);
		s->said |= 1u << s->last_status;
	}
}

/* Whether a run has started by now: the probes start with the first. */
static int first_run_started(const struct run_view *rv, uint64_t now)
{
	for (size_t i = 0; i < rv->ph->nruns; i++)
		if (rv->ph->runs[i].start_at && now >= rv->ph->runs[i].start_at)
			return 1;
	return 0;
}

void probes_tick(const struct run_view *rv)
{
	struct probes *P = rv->probes;
	uint64_t now, mono;

	if (!P || P->stopped)
		return;
	now = time_real_ns();
	mono = time_mono_ns();
	if (!P->started) {
		if (!first_run_started(rv, now))
			return;
		P->started = 1;
		for (size_t i = 0; i < P->n; i++)
			P->pr[i].next_mono = mono;
	}
	for (size_t i = 0; i < P->n; i++) {
		struct probe_state *s = &P->pr[i];
		int st;

		drain(rv, s, 0);
		if (child_reaped(&s->pid, &st)) {
			/* Its output is in the pipes: all of it, then closed
			   (a background child it left gets no more). */
			drain(rv, s, 1);
			record(rv, s, st, time_real_ns());
		} else if (s->pid > 0 && !s->killed &&
			   mono >= s->deadline_mono) {
			child_log_note(rv, &s->log,
				       "sample %llu still running after timeout=%gs: its process group killed",
				       (unsigned long long)s->seq + 1,
				       s->pp->timeout_s);
			child_kill(s->pid);
			s->killed = 1;
		}
		if (!s->pid && mono >= s->next_mono) {
			if (child_log_open(rv, &s->log, "probe", s->pp->name) <
			    0) {
				/* A probe without its log runs no command. */
				log_warn("probe %s: cannot open probes/%s.log: not sampled",
					 s->pp->name, s->pp->name);
				s->next_mono = UINT64_MAX;
				continue;
			}
			start(rv, s, now, mono);
		}
	}
}

/* Killed samples reaped; how many are still there. */
static int reap_left(void *arg)
{
	struct probes *P = arg;
	int left = 0, st;

	for (size_t i = 0; i < P->n; i++) {
		child_reaped(&P->pr[i].pid, &st);
		left += P->pr[i].pid > 0;
	}
	return left;
}

void probes_stop(const struct run_view *rv)
{
	struct probes *P = rv->probes;
	int left;

	if (!P || P->stopped)
		return;
	P->stopped = 1;
	for (size_t i = 0; i < P->n; i++)
		if (P->pr[i].pid > 0) {
			child_log_note(rv, &P->pr[i].log,
				       "sample %llu cut: the run ended",
				       (unsigned long long)P->pr[i].seq + 1);
			child_kill(P->pr[i].pid);
		}
	/* As events_stop(): a child stuck in the kernel is left behind. */
	left = child_wait_gone(reap_left, P);
	if (left)
		log_warn("%d probe processes did not exit after SIGKILL", left);
	for (size_t i = 0; i < P->n; i++) {
		struct probe_state *s = &P->pr[i];

		drain(rv, s, 1);
		child_log_close(rv, &s->log);
	}
}

bool probes_until_met(const struct probes *P,
		      const struct params_probe_until *u, uint64_t since_real,
		      uint64_t *seen, uint64_t *at)
{
	const struct probe_state *s;

	if (!P || u->probe >= P->n)
		return false;
	s = &P->pr[u->probe];
	if (s->seq <= *seen)
		return false;
	*seen = s->seq;
	if (s->last_status != PROBE_OK || s->last_started_real < since_real)
		return false;
	for (int i = 0; i < s->nlast; i++)
		if (!strcmp(s->last[i].key, u->key) &&
		    params_cmp_holds(u->op, s->last[i].v, u->value)) {
			*at = s->last_real;
			return true;
		}
	return false;
}
