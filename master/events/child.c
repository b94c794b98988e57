/*
 * The children of the events and the probes (events.c, probes.c): started
 * with posix_spawn from the master's loop, never waited for there, in a
 * process group of their own, with an environment of the master's own
 * less its LOCKSTEP_* variables plus the ones the caller gives; their
 * pipes read without blocking, their output relayed into their log.
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
#include "common/log.h"
#include "common/timeutil.h"
#include "master/events/child.h"
#include "master/run/decide.h"
#include "master/run/view.h"

/* A tick reads at most this much of a pipe. */
#define CHILD_TICK_BYTES (4 * 1024 * 1024)
/* child_wait_gone() waits this long for killed children to be reaped. */
#define CHILD_REAP_WAIT_NS (2 * NS_PER_SEC)

/* ---- the log ------------------------------------------------------------ */

int child_log_open(const struct run_view *rv, struct child_log *l,
		   const char *kind, const char *owner)
{
	char dir[16], file[80];
	int ret;

	l->kind = kind;
	l->owner = owner;
	if (l->f.f)
		return 0;
	if (!fsutil_name_ok(owner))
		return -EINVAL;
	snprintf(dir, sizeof(dir), "%ss", kind);
	snprintf(file, sizeof(file), "%s.log", owner);
	ret = results_file_open_in(rv, dir, file, &l->f);
	if (ret == 0)
		snprintf(l->name, sizeof(l->name), "%s/%s", dir, file);
	return ret;
}

void child_log_keep(const struct run_view *rv, struct child_log *l,
		    const char *buf, size_t len)
{
	uint64_t room = l->kept < DECIDE_EVENT_LOG_BYTES ?
				DECIDE_EVENT_LOG_BYTES - l->kept :
				0;
	size_t k = len < room ? len : (size_t)room;
	FILE *f = results_w(&l->f);

	if (!f) {
		k = 0;
	} else if (k && (fwrite(buf, 1, k, f) != k || ferror(f))) {
		/* A log that cannot be written keeps nothing more (and is
		   named incomplete by the checked writer). */
		log_warn("%s %s: %s not written: %s; the rest of its output is counted, not kept",
			 l->kind, l->owner, l->name,
			 strerror(errno ? errno : EIO));
		results_wrote(rv, &l->f);
		k = 0;
	} else if (k < len && !l->dropped) {
		log_warn("%s %s: its output passed %u MiB; the rest is counted, not kept in %s",
			 l->kind, l->owner, DECIDE_EVENT_LOG_BYTES >> 20,
			 l->name);
	}
	if (k)
		l->midline = buf[k - 1] != '\n';
	l->kept += k;
	l->dropped += len - k;
}

void child_log_note(const struct run_view *rv, struct child_log *l,
		    const char *fmt, ...)
{
	char tod[32], buf[1024];
	FILE *f = results_w(&l->f);
	va_list ap;

	if (!f)
		return;
	time_fmt_tod(time_real_ns(), tod, sizeof(tod));
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* On a line of its own, after output that did not end one. */
	fprintf(f, "%s== %s lockstep: %s\n", l->midline ? "\n" : "", tod, buf);
	results_wrote(rv, &l->f);
	l->midline = 0;
}

void child_log_close(const struct run_view *rv, struct child_log *l)
{
	if (l->dropped)
		child_log_note(rv, l,
			       "output past %u MiB not kept: %llu bytes dropped",
			       DECIDE_EVENT_LOG_BYTES >> 20,
			       (unsigned long long)l->dropped);
	results_file_close(rv, &l->f, 0);
}

void child_log_free(struct child_log *l)
{
	if (l->f.f)
		fclose(l->f.f);
	free(l->f.name);
	l->f.f = NULL;
	l->f.name = NULL;
}

/* ---- start -------------------------------------------------------------- */

extern char **environ;

char **child_env(char **kv, size_t nkv)
{
	size_t n = 0, k = 0;
	char **envp;

	while (environ && environ[n])
		n++;
	envp = calloc(n + nkv + 1, sizeof(*envp));
	if (!envp)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "LOCKSTEP_", 9))
			envp[k++] = environ[i];
	for (size_t i = 0; i < nkv; i++)
		envp[k++] = kv[i];
	return envp;
}

int child_vars(const struct run_view *rv, const char *run, const char *var,
	       const char *name, char *kv[CHILD_NVARS])
{
	if (asprintf(&kv[0], "LOCKSTEP_RUN_ID=%s", rv->run_id) < 0)
		kv[0] = NULL;
	if (asprintf(&kv[1], "LOCKSTEP_RUN=%s", run) < 0)
		kv[1] = NULL;
	if (asprintf(&kv[2], "%s=%s", var, name) < 0)
		kv[2] = NULL;
	if (asprintf(&kv[3], "LOCKSTEP_OUTPUT=%s", rv->out->dir) < 0)
		kv[3] = NULL;
	return kv[0] && kv[1] && kv[2] && kv[3] ? 0 : -ENOMEM;
}

void child_vars_free(char *kv[CHILD_NVARS])
{
	for (int i = 0; i < CHILD_NVARS; i++) {
		free(kv[i]);
		kv[i] = NULL;
	}
}

int child_pipe(int p[2])
{
	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	(void)fcntl(p[0], F_SETFL, O_NONBLOCK);
	return 0;
}

/* ---- read, kill, reap --------------------------------------------------- */

void child_drain(int *fd, int close_it, child_take_fn take, void *arg)
{
	char buf[65536];
	size_t got = 0;

	while (*fd >= 0 && got < CHILD_TICK_BYTES) {
		ssize_t n = read(*fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n <= 0) {
			close(*fd);
			*fd = -1;
			break;
		}
		got += (size_t)n;
		take(arg, buf, (size_t)n);
	}
	if (close_it && *fd >= 0) {
		close(*fd);
		*fd = -1;
	}
}

struct log_take {
	const struct run_view *rv;
	struct child_log *l;
};

static void log_take(void *arg, const char *buf, size_t len)
{
	struct log_take *t = arg;

	child_log_keep(t->rv, t->l, buf, len);
}

void child_drain_log(const struct run_view *rv, int *fd, int close_it,
		     struct child_log *l)
{
	struct log_take t = { rv, l };

	child_drain(fd, close_it, log_take, &t);
}

void child_kill(pid_t pid)
{
	if (pid > 0)
		kill(-pid, SIGKILL);
}

int child_reaped(pid_t *pid, int *st)
{
	if (*pid <= 0 || waitpid(*pid, st, WNOHANG) != *pid)
		return 0;
	*pid = 0;
	return 1;
}

int child_wait_gone(int (*left)(void *arg), void *arg)
{
	uint64_t until = time_mono_ns() + CHILD_REAP_WAIT_NS;
	int n;

	do {
		n = left(arg);
		if (n)
			time_sleep_ns(10 * NS_PER_MS);
	} while (n && time_mono_ns() < until);
	return n;
}
