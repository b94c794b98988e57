/*
 * A master's commands on this slave (cmd.h): an rd's startcmd= and
 * endcmd= with slave scope, Vdbench's default (Vdb/SlaveWorker.java runs
 * them on the first slave of each host before its work starts and after
 * it ended). A slave runs none unless its operator said so with
 * --allow-commands: whoever reaches a daemon must not get a shell on its
 * host by default. The child is started as every lockstep child is
 * (common/spawn.h: a process group of its own, stdin /dev/null, none of
 * our descriptors) and watched from the main loop, never waited for.
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
#include "common/log.h"
#include "common/spawn.h"
#include "common/timeutil.h"
#include "slave/cmd.h"
#include "slave/outbox.h"

/* A command's output sent to the master at most; the rest is counted. */
#define CMD_SEND_MAX (1024 * 1024)
/* Read from its pipe at most this much a tick. */
#define CMD_TICK_BYTES (64 * 1024)

/* Outside quotes, what a shell would read. */
static const char shell_chars[] = "|&;<>()$`\\*?[]{}~#!\n";
/* Inside "...", what a shell would still read. */
static const char dquote_chars[] = "$`\\";

int cmd_words(const char *text, char *buf, size_t len, char **argv, size_t max,
	      const char **why, size_t *at)
{
	size_t n = 0, k = 0;
	const char *p = text;

	while (*p) {
		char q = 0;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		if (n + 1 >= max) {
			*why = "too many words";
			*at = (size_t)(p - text);
			return -EINVAL;
		}
		argv[n++] = buf + k;
		while (*p && (q || (*p != ' ' && *p != '\t'))) {
			if (!q && (*p == '\'' || *p == '"')) {
				q = *p++;
				continue;
			}
			if (q && *p == q) {
				q = 0;
				p++;
				continue;
			}
			if ((!q && strchr(shell_chars, *p)) ||
			    (q == '"' && strchr(dquote_chars, *p))) {
				*why = "a character a shell would read (this slave runs commands without one: --allow-commands exec)";
				*at = (size_t)(p - text);
				return -EINVAL;
			}
			if (k + 2 > len) {
				*why = "too long";
				*at = (size_t)(p - text);
				return -EINVAL;
			}
			buf[k++] = *p++;
		}
		if (q) {
			*why = "a quote that is not closed";
			*at = (size_t)(p - text);
			return -EINVAL;
		}
		buf[k++] = '\0';
	}
	if (!n) {
		*why = "no command";
		*at = 0;
		return -EINVAL;
	}
	argv[n] = NULL;
	return (int)n;
}

static void send_end(struct session *s, uint32_t id, enum proto_cmd_status st,
		     int code, const char *why)
{
	struct proto_msg m = { .type = PROTO_CMD_END };

	m.u.cmd_end.id = id;
	m.u.cmd_end.status = st;
	m.u.cmd_end.code = code;
	m.u.cmd_end.dropped = s->cmd.dropped;
	snprintf(m.u.cmd_end.why, sizeof(m.u.cmd_end.why), "%s", why);
	outbox_send(s, &m);
}

/* A refusal, said here and to the master. */
static void refuse(struct session *s, uint32_t id, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void refuse(struct session *s, uint32_t id, const char *fmt, ...)
{
	char why[PROTO_TEXT_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	log_warn("command refused: %s", why);
	send_end(s, id, PROTO_CMD_REFUSED, 0, why);
}

extern char **environ;

void cmd_start(struct session *s, const struct proto_cmd *c)
{
	char words[PROTO_CMD_LEN + 1], *argv[CMD_WORDS_MAX], *shv[4];
	char esc[LOG_ESC_LEN(PROTO_CMD_LEN)];
	const char *why;
	size_t at;
	int p[2];
	pid_t pid;

	if (s->allow_cmds == CMD_ALLOW_NONE) {
		refuse(s, c->id,
		       "this slave was started without --allow-commands: it runs no command of a master's");
		return;
	}
	if (s->cmd.pid) {
		refuse(s, c->id, "another command (%u) still runs here",
		       s->cmd.id);
		return;
	}
	if (s->allow_cmds == CMD_ALLOW_EXEC) {
		if (cmd_words(c->text, words, sizeof(words), argv,
			      CMD_WORDS_MAX, &why, &at) < 0) {
			refuse(s, c->id, "%s at character %zu of '%s'", why,
			       at + 1, log_escape(c->text, esc, sizeof(esc)));
			return;
		}
	} else {
		shv[0] = "/bin/sh";
		shv[1] = "-c";
		shv[2] = (char *)c->text;
		shv[3] = NULL;
	}
	s->cmd.dropped = s->cmd.sent = 0;
	if (pipe2(p, O_CLOEXEC) < 0) {
		send_end(s, c->id, PROTO_CMD_FAILED, -errno, "pipe");
		return;
	}
	pid = spawn_grouped(s->allow_cmds == CMD_ALLOW_EXEC ? argv : shv,
			    environ, p[1], p[1]);
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		send_end(s, c->id, PROTO_CMD_FAILED, (int)pid,
			 strerror((int)-pid));
		return;
	}
	(void)fcntl(p[0], F_SETFL, O_NONBLOCK);
	log_info("running the master's command %u: %s", c->id,
		 log_escape(c->text, esc, sizeof(esc)));
	s->cmd.pid = pid;
	s->cmd.fd = p[0];
	s->cmd.id = c->id;
	s->cmd.killed = 0;
	s->cmd.deadline_ns = time_mono_ns() + c->timeout_ns;
}

/* What the pipe holds now, relayed in pieces; closed at its end. */
static void relay(struct session *s)
{
	struct proto_msg m = { .type = PROTO_CMD_OUT };
	size_t got = 0;

	m.u.cmd_out.id = s->cmd.id;
	while (s->cmd.fd >= 0 && got < CMD_TICK_BYTES) {
		char buf[PROTO_TEXT_LEN - 1];
		ssize_t n = read(s->cmd.fd, buf, sizeof(buf));
		size_t k;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return;
		if (n == 0) {
			/* Not polled at its end of file (that would spin):
			   the child is then looked for every tick. */
			close(s->cmd.fd);
			s->cmd.fd = -1;
			return;
		}
		got += (size_t)n;
		k = s->cmd.sent < CMD_SEND_MAX ? CMD_SEND_MAX - s->cmd.sent : 0;
		if (k > (size_t)n)
			k = (size_t)n;
		s->cmd.dropped += (size_t)n - k;
		if (!k)
			continue;
		/* A string on the wire: a NUL would cut it short. */
		for (size_t i = 0; i < k; i++)
			m.u.cmd_out.text[i] = buf[i] ? buf[i] : '?';
		m.u.cmd_out.text[k] = '\0';
		s->cmd.sent += k;
		outbox_send(s, &m);
	}
}

void cmd_tick(struct session *s)
{
	int st;

	if (!s->cmd.pid)
		return;
	relay(s);
	if (!s->cmd.killed && time_mono_ns() > s->cmd.deadline_ns) {
		kill(-s->cmd.pid, SIGKILL);
		s->cmd.killed = 1;
	}
	if (waitpid(s->cmd.pid, &st, WNOHANG) != s->cmd.pid)
		return;
	/* What it wrote before it ended; a child of its own that keeps the
	   pipe open is not waited for. */
	relay(s);
	if (s->cmd.fd >= 0)
		close(s->cmd.fd);
	s->cmd.fd = -1;
	s->cmd.pid = 0;
	if (s->cmd.killed)
		send_end(s, s->cmd.id, PROTO_CMD_TIMEOUT, SIGKILL, "");
	else if (WIFSIGNALED(st))
		send_end(s, s->cmd.id, PROTO_CMD_SIGNAL, WTERMSIG(st), "");
	else
		send_end(s, s->cmd.id, PROTO_CMD_EXIT, WEXITSTATUS(st), "");
	log_info("the master's command %u ended", s->cmd.id);
}

int cmd_fd(const struct session *s)
{
	return s->cmd.pid ? s->cmd.fd : -1;
}

void cmd_stop(struct session *s)
{
	if (!s->cmd.pid)
		return;
	log_warn("the master's command %u is killed: its master is gone",
		 s->cmd.id);
	kill(-s->cmd.pid, SIGKILL);
	(void)waitpid(s->cmd.pid, NULL, 0);
	if (s->cmd.fd >= 0)
		close(s->cmd.fd);
	s->cmd.fd = -1;
	s->cmd.pid = 0;
}
