/*
 * Running one command on an hd= host through ssh for --push and `lockstep
 * hosts` (deploy.h): the argv is launch.c's, the output is collected with
 * a deadline so that a host that hangs cannot hang the master.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "common/log.h"
#include "common/timeutil.h"
#include "lockstep_version.h"
#include "master/deploy/deploy.h"
#include "master/deploy/deploy_int.h"
#include "master/run/launch.h"
#include "master/params/params.h"

int deploy_spawn(const struct deploy_host *h, const char *remote, int in_fd,
		 int *to, int *from, pid_t *pid)
{
	char *argv[LAUNCH_SSH_ARGV], words[1024];
	int ip[2] = { -1, -1 }, op[2];

	if (pipe2(op, O_CLOEXEC) < 0)
		return -errno;
	if (to && pipe2(ip, O_CLOEXEC) < 0) {
		close(op[0]);
		close(op[1]);
		return -errno;
	}
	/* Built before fork: the child only execs. */
	launch_ssh_argv(h->ssh, h->user, h->system, remote, words,
			sizeof(words), argv);
	*pid = fork();
	if (*pid < 0) {
		int ret = -errno;

		close(op[0]);
		close(op[1]);
		if (to) {
			close(ip[0]);
			close(ip[1]);
		}
		return ret;
	}
	if (*pid == 0) {
		int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

		/* In the master's process group: a Ctrl-C stops it too. */
		dup2(to ? ip[0] : in_fd >= 0 ? in_fd : null, STDIN_FILENO);
		dup2(op[1], STDOUT_FILENO);
		dup2(op[1], STDERR_FILENO);
		execvp(argv[0], argv);
		dprintf(STDERR_FILENO, "cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	close(op[1]);
	*from = op[0];
	if (to) {
		close(ip[0]);
		*to = ip[1];
	}
	return 0;
}

int deploy_read(int fd, char *out, size_t outlen, size_t *used,
		uint64_t deadline, int line)
{
	while (*used + 1 < outlen) {
		uint64_t now = time_mono_ns();
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int ms = now >= deadline ? 0 :
					   (int)((deadline - now) / 1000000);
		ssize_t n;

		if (line && memchr(out, '\n', *used))
			return 0;
		if (now >= deadline)
			return -ETIMEDOUT;
		if (poll(&p, 1, ms + 1) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (!p.revents)
			continue;
		n = read(fd, out + *used, line ? 1 : outlen - 1 - *used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : 1; /* 1: end of output */
		*used += (size_t)n;
		out[*used] = 0;
	}
	/* Full: the rest is lost (closing fd ends a command that goes on). */
	return 1;
}

int deploy_finish(pid_t pid, int killed)
{
	int st;

	if (killed)
		kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int deploy_run(const struct deploy_host *h, const char *remote, int in_fd,
	       char *out, size_t outlen, double timeout_s)
{
	uint64_t deadline = time_mono_ns() + (uint64_t)(timeout_s * 1e9);
	size_t used = 0;
	int from, ret, st;
	pid_t pid;

	out[0] = 0;
	ret = deploy_spawn(h, remote, in_fd, NULL, &from, &pid);
	if (ret < 0)
		return ret;
	ret = deploy_read(from, out, outlen, &used, deadline, 0);
	close(from);
	st = deploy_finish(pid, ret < 0);
	while (used && out[used - 1] == '\n')
		out[--used] = 0;
	deploy_escape(out, outlen);
	return ret < 0 ? ret : st;
}

void deploy_escape(char *buf, size_t len)
{
	size_t n = strlen(buf), o = 0;
	char *tmp = malloc(LOG_ESC_LEN(n));

	if (!tmp) {
		/* No room to escape: keep nothing that could reach a tty. */
		for (char *c = buf; *c; c++)
			if ((*c < 0x20 && *c != '\n' && *c != '\t') ||
			    *c == 0x7f)
				*c = '?';
		return;
	}
	/* Line by line and field by field: the structure stays readable. */
	memcpy(tmp, buf, n + 1);
	buf[0] = 0;
	for (char *p = tmp; o + 1 < len;) {
		size_t k = strcspn(p, "\n\t");
		char sep = p[k];

		p[k] = 0;
		/* ssh ends its complaints with \r\n: the \r says nothing. */
		if (k && p[k - 1] == '\r')
			p[k - 1] = 0;
		log_escape(p, buf + o, len - o);
		o += strlen(buf + o);
		if (!sep || o + 1 >= len)
			break;
		buf[o++] = sep;
		buf[o] = 0;
		p += k + 1;
	}
	free(tmp);
}

const char *deploy_last_line(const char *out)
{
	const char *nl = strrchr(out, '\n');

	return nl ? nl + 1 : out;
}

int deploy_dest(const struct params_hd *hd, char *dest, size_t len, char *err,
		size_t errlen)
{
	if (!hd->lockstep[0]) {
		snprintf(dest, len, "%s/lockstep-%s", DEPLOY_DEFAULT_DIR,
			 LOCKSTEP_VERSION);
		return 0;
	}
	if (!strchr(hd->lockstep, '/')) {
		snprintf(err, errlen,
			 "lockstep=%s is found on the PATH there, so --push cannot know where to put it: give a path",
			 hd->lockstep);
		return -EINVAL;
	}
	if (strpbrk(hd->lockstep, "'\"\\\n")) {
		snprintf(err, errlen,
			 "lockstep=%s holds a quote or a newline: it cannot be given to a remote shell",
			 hd->lockstep);
		return -EINVAL;
	}
	/* vdbench=DIR: the Vdbench folder; lockstep goes in as DIR/lockstep,
	   the first place a start looks (vdbench_remote_exe). */
	if (hd->lockstep_dir)
		snprintf(dest, len, "%s/lockstep", hd->lockstep);
	else
		snprintf(dest, len, "%s", hd->lockstep);
	return 0;
}

struct each {
	size_t n;
	atomic_size_t next;
	void (*fn)(size_t i, void *arg);
	void *arg;
};

static void *each_worker(void *p)
{
	struct each *e = p;
	size_t i;

	while ((i = atomic_fetch_add(&e->next, 1)) < e->n)
		e->fn(i, e->arg);
	return NULL;
}

void deploy_each(size_t n, void (*fn)(size_t i, void *arg), void *arg)
{
	struct each e = { .n = n, .fn = fn, .arg = arg };
	pthread_t tid[DEPLOY_PARALLEL];
	size_t nthreads = 0;

	atomic_init(&e.next, 0);
	while (nthreads < DEPLOY_PARALLEL && nthreads + 1 < n &&
	       pthread_create(&tid[nthreads], NULL, each_worker, &e) == 0)
		nthreads++;
	each_worker(&e);
	for (size_t t = 0; t < nthreads; t++)
		pthread_join(tid[t], NULL);
}
