/*
 * Slave processes started by the master. See launch.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "common/log.h"
#include "master/run/launch.h"
#include "master/params/params.h"
#include "master/results/vdbench.h"

#define LAUNCH_REASON_MS 3000

static struct launch_proc *slot(struct launch *l, const char *name,
				const char *host)
{
	struct launch_proc *p;

	if (l->n >= LAUNCH_MAX)
		return NULL;
	p = &l->p[l->n++];
	memset(p, 0, sizeof(*p));
	p->keyfd = -1;
	p->backfd = -1;
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->host, sizeof(p->host), "%s", host);
	return p;
}

/*
 * In a child: stdin from in_fd (the keys pipe) or /dev/null, stdout to
 * /dev/null, stderr to err_fd.
 */
static void child_stdio(int in_fd, int err_fd)
{
	int null = open("/dev/null", O_RDWR);

	if (null >= 0) {
		dup2(in_fd >= 0 ? in_fd : null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		if (null > STDERR_FILENO)
			close(null);
	}
	if (err_fd >= 0)
		dup2(err_fd, STDERR_FILENO);
	/* A slave must not die of the master's Ctrl-C before it is stopped. */
	setpgid(0, 0);
}

/*
 * The pipe that carries a slave's keys to its stdin (pfd[0] for the
 * child), or -1s without keys. The read end is not inherited by later
 * children: it is close-on-exec, and dup2() onto stdin clears that.
 */
static int keys_pipe(const struct launch_keys *keys, int pfd[2])
{
	pfd[0] = pfd[1] = -1;
	if (!keys)
		return 0;
	return pipe2(pfd, O_CLOEXEC) < 0 ? -errno : 0;
}

/*
 * Hand the keys to the child: three lines, far less than a pipe's buffer,
 * so the write never blocks. The read end closes here; the write end is
 * kept in *keyfd for as long as the slave runs: its EOF tells the slave
 * that the master is gone.
 */
static int keys_send(const struct launch_keys *keys, int pfd[2], int *keyfd)
{
	char buf[3 * (KEYS_Z85_LEN + 1) + 1];
	int len, ret = 0;

	if (!keys)
		return 0;
	close(pfd[0]);
	len = snprintf(buf, sizeof(buf), "%s\n%s\n%s\n", keys->secret,
		       keys->public, keys->master);
	if (write(pfd[1], buf, (size_t)len) != len)
		ret = -EPIPE;
	keys_wipe(buf, sizeof(buf));
	*keyfd = pfd[1];
	return ret;
}

/* Append path to v (n of them) unless it is there. */
static void allow_once(const char **v, unsigned *n, const char *path)
{
	for (unsigned k = 0; k < *n; k++)
		if (!strcmp(v[k], path))
			return;
	v[(*n)++] = path;
}

const char **launch_allow_luns(const struct params *p, unsigned *n)
{
	/* Each lun, anchor, replay file and journal folder, once. */
	const char **v = calloc(p->nsd + 2 * p->nfsd + p->nwd + 1, sizeof(*v));

	*n = 0;
	for (size_t i = 0; v && i < p->nsd; i++)
		allow_once(v, n, p->sd[i].lun);
	for (size_t i = 0; v && i < p->nfsd; i++)
		allow_once(v, n, p->fsd[i].anchor);
	for (size_t i = 0; v && i < p->nwd; i++)
		if (p->wd[i].replay[0])
			allow_once(v, n, p->wd[i].replay);
	for (size_t i = 0; v && i < p->nfsd; i++)
		if (p->fsd[i].journal[0])
			allow_once(v, n, p->fsd[i].journal);
	if (v && p->journal[0])
		allow_once(v, n, p->journal);
	return v;
}

int launch_local(struct launch *l, const char *endpoint, const char *name,
		 const struct launch_keys *keys)
{
	char exe[PATH_MAX], workers[16];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct launch_proc *p;
	char **argv;
	int pfd[2], ret;
	pid_t pid;
	int k = 0;

	if (n < 0)
		return -errno;
	exe[n] = 0;
	p = slot(l, name, "localhost");
	if (!p)
		return -ENOSPC;
	/* Built before fork: the child only execs. */
	argv = calloc(13 + 2 * (size_t)l->nallow, sizeof(*argv));
	if (!argv) {
		l->n--;
		return -ENOMEM;
	}
	argv[k++] = "lockstep";
	argv[k++] = "slave";
	argv[k++] = "--master";
	argv[k++] = (char *)endpoint;
	argv[k++] = "--name";
	argv[k++] = (char *)name;
	argv[k++] = keys ? "--keys-stdin" : "--insecure";
	snprintf(workers, sizeof(workers), "%u", l->workers);
	if (l->workers) {
		argv[k++] = "--workers";
		argv[k++] = workers;
	}
	if (l->verbose)
		argv[k++] = "--verbose";
	if (l->commands) {
		argv[k++] = "--allow-commands";
		argv[k++] = "shell";
	}
	for (unsigned i = 0; i < l->nallow; i++) {
		argv[k++] = "--allow-path";
		argv[k++] = (char *)l->allow[i];
	}
	argv[k] = NULL;
	ret = keys_pipe(keys, pfd);
	if (ret < 0) {
		free(argv);
		l->n--;
		return ret;
	}
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		if (keys) {
			close(pfd[0]);
			close(pfd[1]);
		}
		free(argv);
		l->n--;
		return ret;
	}
	if (pid == 0) {
		child_stdio(pfd[0], l->logfd);
		execv(exe, argv);
		_exit(127);
	}
	free(argv);
	p->pid = pid;
	if (keys_send(keys, pfd, &p->keyfd) < 0)
		log_warn("could not hand slave %s its keys: it will not register",
			 name);
	log_debug("started local slave %s (pid %d)", name, (int)pid);
	return 0;
}

/* Copy lines from fd to out, each prefixed by "host: ", and each to back
   too when it is >= 0 (never waiting on it: a full pipe drops the line). */
static void prefix_lines(int fd, int out, const char *host, int back)
{
	char buf[4096], line[8192];
	size_t used = 0;
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++) {
			if (used < sizeof(line) - 1)
				line[used++] = buf[i];
			if (buf[i] != '\n')
				continue;
			dprintf(out, "%s: %.*s", host, (int)used, line);
			if (back >= 0 && write(back, line, used) < 0)
				(void)0; /* the master reads what fits */
			used = 0;
		}
	}
	if (used)
		dprintf(out, "%s: %.*s\n", host, (int)used, line);
}

int launch_ssh_argv(const char *ssh, const char *user, const char *system,
		    const char *remote, char *words, size_t wlen, char **argv)
{
	char *save = NULL;
	int k = 0;

	snprintf(words, wlen, "%s", ssh ? ssh : "ssh");
	for (char *w = strtok_r(words, " \t", &save); w && k < 32;
	     w = strtok_r(NULL, " \t", &save))
		argv[k++] = w;
	if (k == 0)
		argv[k++] = "ssh";
	argv[k++] = "-o";
	argv[k++] = "BatchMode=yes";
	argv[k++] = "-o";
	argv[k++] = "ConnectTimeout=10";
	if (user && *user) {
		argv[k++] = "-l";
		argv[k++] = (char *)user;
	}
	/* system= is the file's word: never an option of ssh's. */
	argv[k++] = "--";
	argv[k++] = (char *)system;
	argv[k++] = (char *)remote;
	argv[k] = NULL;
	return k;
}

int launch_ssh(struct launch *l, const char *user, const char *system,
	       const char *path, int path_dir, const char *endpoint,
	       const char *name, const struct launch_keys *keys)
{
	char *remote, exe[3 * PATH_MAX];
	size_t cap = 2048 + sizeof(exe), len;
	struct launch_proc *p;
	int pfd[2], kfd[2] = { -1, -1 }, bfd[2], ret;
	pid_t pid, helper;

	/* The remote command line: our arguments never contain quotes. */
	if (strpbrk(name, "'\"\\ ") || strpbrk(endpoint, "'\"\\ ") ||
	    (path && strpbrk(path, "'\"\\")))
		return -EINVAL;
	for (unsigned i = 0; i < l->nallow; i++) {
		/* Single-quoted for the remote shell: no quote may end it. */
		if (strpbrk(l->allow[i], "'\n")) {
			log_error("lun %s cannot be passed to a slave over ssh (it holds a quote or a newline)",
				  l->allow[i]);
			return -EINVAL;
		}
		cap += strlen(l->allow[i]) + 16;
	}
	remote = malloc(cap);
	if (!remote)
		return -ENOMEM;
	if (path_dir) {
		/* vdbench=DIR: found there by the remote shell. */
		if (vdbench_remote_exe(path, exe, sizeof(exe)) < 0) {
			free(remote);
			return -EINVAL;
		}
	} else {
		snprintf(exe, sizeof(exe), "'%s'",
			 path && *path ? path : "lockstep");
	}
	len = (size_t)
		snprintf(remote, cap,
			 "%s slave --master '%s' --name '%s' %s%s%.0u%s%s", exe,
			 endpoint, name, keys ? "--keys-stdin" : "--insecure",
			 l->workers ? " --workers " : "", l->workers,
			 l->verbose ? " --verbose" : "",
			 l->commands ? " --allow-commands shell" : "");
	for (unsigned i = 0; i < l->nallow && len < cap; i++)
		len += (size_t)snprintf(remote + len, cap - len,
					" --allow-path '%s'", l->allow[i]);
	p = slot(l, name, system);
	if (!p) {
		free(remote);
		return -ENOSPC;
	}
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		free(remote);
		l->n--;
		return -errno;
	}
	if (pipe2(bfd, O_CLOEXEC | O_NONBLOCK) < 0)
		bfd[0] = bfd[1] = -1;
	helper = fork();
	if (helper == 0) {
		/* It does not exec: other slaves' pipes must not stay open. */
		for (unsigned i = 0; i < l->n; i++)
			if (l->p[i].keyfd >= 0)
				close(l->p[i].keyfd);
		close(pfd[1]);
		if (bfd[0] >= 0)
			close(bfd[0]);
		prefix_lines(pfd[0], l->logfd >= 0 ? l->logfd : STDERR_FILENO,
			     system, bfd[1]);
		_exit(0);
	}
	if (bfd[1] >= 0)
		close(bfd[1]);
	p->backfd = bfd[0];
	/* After the helper: it must not hold the keys pipe open. */
	ret = helper < 0 ? 0 : keys_pipe(keys, kfd);
	pid = helper < 0 || ret < 0 ? -1 : fork();
	if (pid == 0) {
		char *argv[LAUNCH_SSH_ARGV], words[1024];

		child_stdio(kfd[0], pfd[1]);
		launch_ssh_argv(l->ssh, user, system, remote, words,
				sizeof(words), argv);
		execvp(argv[0], argv);
		dprintf(STDERR_FILENO, "cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	close(pfd[0]);
	close(pfd[1]);
	free(remote);
	if (pid < 0) {
		ret = ret < 0 ? ret : -errno;
		if (keys && kfd[0] >= 0) {
			close(kfd[0]);
			close(kfd[1]);
		}
		if (helper > 0) {
			kill(helper, SIGKILL);
			waitpid(helper, NULL, 0);
		}
		l->n--;
		return ret;
	}
	p->pid = pid;
	p->helper = helper;
	/* ssh forwards its stdin to the remote slave's: the keys travel
	   inside the ssh connection, never on a command line. */
	if (keys_send(keys, kfd, &p->keyfd) < 0)
		log_warn("could not hand slave %s its keys: it will not register",
			 name);
	log_info("started slave %s on %s through ssh (pid %d)", name, system,
		 (int)pid);
	return 0;
}

/*
 * See launch.h: the prefixer copies a line within moments of ssh's exit,
 * so it is waited for up to LAUNCH_REASON_MS, never longer.
 */
const char *launch_last_line(struct launch_proc *p)
{
	char buf[1024];
	size_t used = 0;
	int waited = 0;

	p->last[0] = 0;
	while (p->backfd >= 0) {
		struct pollfd pf = { .fd = p->backfd, .events = POLLIN };
		ssize_t n;

		if (poll(&pf, 1, 50) <= 0) {
			waited += 50;
			if (p->last[0] || waited >= LAUNCH_REASON_MS)
				break;
			continue;
		}
		n = read(p->backfd, buf + used, sizeof(buf) - 1 - used);
		if (n <= 0)
			break;
		used += (size_t)n;
		buf[used] = 0;
		/* Keep the last whole line, then read on. */
		for (char *nl; (nl = strchr(buf, '\n'));) {
			*nl = 0;
			if (nl > buf)
				snprintf(p->last, sizeof(p->last), "%s", buf);
			used -= (size_t)(nl + 1 - buf);
			memmove(buf, nl + 1, used + 1);
		}
		if (used == sizeof(buf) - 1)
			used = 0;
	}
	if (p->backfd >= 0) {
		close(p->backfd);
		p->backfd = -1;
	}
	return p->last;
}

struct launch_proc *launch_exited(struct launch *l, int *status)
{
	for (unsigned i = 0; i < l->n; i++) {
		struct launch_proc *p = &l->p[i];
		int st;

		if (p->helper > 0 &&
		    waitpid(p->helper, NULL, WNOHANG) == p->helper)
			p->helper = 0;
		if (p->pid <= 0 || waitpid(p->pid, &st, WNOHANG) != p->pid)
			continue;
		p->pid = 0;
		if (p->keyfd >= 0) {
			close(p->keyfd);
			p->keyfd = -1;
		}
		*status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		return p;
	}
	return NULL;
}

unsigned launch_running(const struct launch *l)
{
	unsigned n = 0;

	for (unsigned i = 0; i < l->n; i++)
		n += l->p[i].pid > 0;
	return n;
}

void launch_kill_all(struct launch *l)
{
	for (unsigned i = 0; i < l->n; i++) {
		struct launch_proc *p = &l->p[i];

		if (p->pid > 0) {
			log_warn("slave %s (pid %d) did not stop: killed",
				 p->name, (int)p->pid);
			kill(p->pid, SIGKILL);
			waitpid(p->pid, NULL, 0);
			p->pid = 0;
		}
		if (p->keyfd >= 0) {
			close(p->keyfd);
			p->keyfd = -1;
		}
		if (p->helper > 0) {
			kill(p->helper, SIGKILL);
			waitpid(p->helper, NULL, 0);
			p->helper = 0;
		}
		if (p->backfd >= 0) {
			close(p->backfd);
			p->backfd = -1;
		}
	}
}
