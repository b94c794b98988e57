/*
 * The commands of startcmd= and endcmd= (cmds.h): their record, the
 * children of those that run on the master, and what slaves send of
 * theirs. Vdbench runs them with OS_cmd and goes on whatever they return
 * (Vdb/Debug_cmds.java): a failure here is said and recorded, never a
 * reason to stop, except a slave's refusal, which the conductor turns into
 * the run's end (nothing the file asked for could be done there).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "common/log.h"
#include "common/spawn.h"
#include "master/events/cmds.h"
#include "master/run/master_int.h"

/* ---- the record ------------------------------------------------------ */

static void log_owner(const struct params *p, int rd, const char *keyword,
		      char *buf, size_t len)
{
	if (rd < 0)
		snprintf(buf, len, "%s", keyword);
	else if ((size_t)snprintf(buf, len, "%s.%s", p->rd[rd].name, keyword) >=
			 len ||
		 !fsutil_name_ok(buf))
		snprintf(buf, len, "rd%d.%s", rd + 1, keyword);
}

int cmds_new(const struct params *p, struct cmds **out)
{
	struct cmds *C;
	size_t any = p->startcmd.n + p->endcmd.n;

	*out = NULL;
	for (size_t r = 0; r < p->nrd; r++)
		any += p->rd[r].startcmd.n + p->rd[r].endcmd.n;
	if (!any)
		return 0;
	C = calloc(1, sizeof(*C));
	if (!C)
		return -ENOMEM;
	C->nlogs = 2 * (p->nrd + 1);
	C->logs = calloc(C->nlogs, sizeof(*C->logs));
	if (!C->logs) {
		free(C);
		return -ENOMEM;
	}
	/* [2r], [2r+1]: rd r's startcmd, endcmd; the general ones last. */
	for (size_t k = 0; k < C->nlogs; k++) {
		int rd = k / 2 < p->nrd ? (int)(k / 2) : -1;

		log_owner(p, rd, k % 2 ? "endcmd" : "startcmd",
			  C->logs[k].owner, sizeof(C->logs[k].owner));
	}
	*out = C;
	return 0;
}

void cmds_free(struct cmds **C)
{
	if (!C || !*C)
		return;
	for (size_t i = 0; i < (*C)->n; i++) {
		free((*C)->x[i].text);
		free((*C)->x[i].out);
	}
	for (size_t k = 0; k < (*C)->nlogs; k++)
		child_log_free(&(*C)->logs[k].l);
	free((*C)->logs);
	free((*C)->x);
	free(*C);
	*C = NULL;
}

/* text with every $output replaced by dir (Vdbench's); malloc'd. */
static char *with_output(const char *text, const char *dir)
{
	size_t n = 0, dl = strlen(dir), len = strlen(text);
	char *out, *o;

	for (const char *p = text; (p = strstr(p, "$output")); p += 7)
		n++;
	out = malloc(len + n * dl + 1);
	if (!out)
		return NULL;
	o = out;
	for (const char *p = text; *p;) {
		if (!strncmp(p, "$output", 7)) {
			memcpy(o, dir, dl);
			o += dl;
			p += 7;
		} else {
			*o++ = *p++;
		}
	}
	*o = '\0';
	return out;
}

long cmds_add(const struct run_view *rv, const struct cmds_what *w,
	      const char *host, const char *slave, unsigned slave_idx)
{
	struct cmds *C = rv->cmds;
	struct cmds_exec *x;

	if (C->n == C->cap) {
		size_t cap = C->cap ? 2 * C->cap : 16;
		struct cmds_exec *n = realloc(C->x, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		C->x = n;
		C->cap = cap;
	}
	x = &C->x[C->n];
	memset(x, 0, sizeof(*x));
	x->text = with_output(params_cmd_text(rv->params, w->pc, w->i),
			      rv->out->dir);
	if (!x->text)
		return -ENOMEM;
	x->w = *w;
	snprintf(x->host, sizeof(x->host), "%s", host ? host : "master");
	snprintf(x->slave, sizeof(x->slave), "%s", slave ? slave : "");
	x->slave_idx = slave_idx;
	x->id = (uint32_t)(C->n + 1);
	x->fd = -1;
	x->start_real = time_real_ns();
	x->state = CMDS_RUNNING;
	x->log = 2 * (w->rd < 0 ? rv->params->nrd : (size_t)w->rd) +
		 (w->keyword[0] == 'e');
	return (long)C->n++;
}

/* Output kept up to CMDS_KEEP_BYTES; the rest counted. */
static void keep(void *arg, const char *buf, size_t len)
{
	struct cmds_exec *x = arg;
	size_t room = x->outlen < CMDS_KEEP_BYTES ?
			      CMDS_KEEP_BYTES - x->outlen :
			      0;
	size_t k = len < room ? len : room;

	x->out_bytes += len;
	x->dropped += len - k;
	if (!k)
		return;
	if (x->outlen + k > x->outcap) {
		size_t cap = x->outcap ? x->outcap : 4096;
		char *n;

		while (cap < x->outlen + k)
			cap *= 2;
		if (cap > CMDS_KEEP_BYTES)
			cap = CMDS_KEEP_BYTES;
		n = realloc(x->out, cap);
		if (!n) {
			x->dropped += k;
			return;
		}
		x->out = n;
		x->outcap = cap;
	}
	memcpy(x->out + x->outlen, buf, k);
	x->outlen += k;
}

/* ---- on the master ----------------------------------------------------- */

int cmds_master_start(const struct run_view *rv, size_t xi)
{
	struct cmds_exec *x = &rv->cmds->x[xi];
	const char *run = x->w.run >= 0 ? rv->ph->runs[x->w.run].ph.name : "";
	char *kv[CHILD_NVARS] = { 0 }, **envp = NULL;
	char *argv[] = { "/bin/sh", "-c", x->text, NULL };
	int p[2] = { -1, -1 };
	pid_t pid = -ENOMEM;

	if (child_vars(rv, run, "LOCKSTEP_COMMAND", x->w.keyword, kv) < 0 ||
	    !(envp = child_env(kv, CHILD_NVARS)))
		goto out;
	pid = child_pipe(p);
	if (pid == 0)
		pid = spawn_grouped(argv, envp, p[1], p[1]);
	if (pid > 0) {
		x->fd = p[0];
		p[0] = -1;
	}
out:
	for (int k = 0; k < 2; k++)
		if (p[k] >= 0)
			close(p[k]);
	child_vars_free(kv);
	free(envp);
	if (pid < 0) {
		x->state = CMDS_FAILED;
		x->code = (int)pid;
		snprintf(x->why, sizeof(x->why), "cannot start it: %s",
			 strerror((int)-pid));
		return (int)pid;
	}
	x->pid = pid;
	x->deadline_mono = time_mono_ns() + CMDS_TIMEOUT_NS;
	return 0;
}

int cmds_master_tick(const struct run_view *rv, size_t xi)
{
	struct cmds_exec *x = &rv->cmds->x[xi];
	int st;

	if (x->state != CMDS_RUNNING)
		return 1;
	child_drain(&x->fd, 0, keep, x);
	if (!x->killed && time_mono_ns() > x->deadline_mono) {
		child_kill(x->pid);
		x->killed = 1;
	}
	if (!child_reaped(&x->pid, &st))
		return 0;
	/* What it wrote before it ended; a child of its own that keeps the
	   pipe open is not waited for. */
	child_drain(&x->fd, 1, keep, x);
	if (x->killed) {
		x->state = CMDS_TIMEOUT;
	} else if (WIFSIGNALED(st)) {
		x->state = CMDS_SIGNAL;
		x->code = WTERMSIG(st);
	} else {
		x->state = CMDS_EXIT;
		x->code = WEXITSTATUS(st);
	}
	return 1;
}

/* ---- on a slave -------------------------------------------------------- */

static struct cmds_exec *of_slave(const struct run_view *rv, unsigned slave,
				  uint32_t id)
{
	struct cmds *C = rv->cmds;

	if (!C || !id || id > C->n)
		return NULL;
	if (C->x[id - 1].slave_idx != slave || !C->x[id - 1].slave[0] ||
	    C->x[id - 1].state != CMDS_RUNNING)
		return NULL;
	return &C->x[id - 1];
}

void cmds_slave_out(const struct run_view *rv, unsigned slave,
		    const struct proto_cmd_out *o)
{
	struct cmds_exec *x = of_slave(rv, slave, o->id);

	if (x)
		keep(x, o->text, strlen(o->text));
	else
		log_debug("output of no command of slave %u (id %u) dropped",
			  slave, o->id);
}

void cmds_slave_end(const struct run_view *rv, unsigned slave,
		    const struct proto_cmd_end *e)
{
	struct cmds_exec *x = of_slave(rv, slave, e->id);

	if (!x)
		return;
	x->dropped += e->dropped;
	x->code = e->code;
	snprintf(x->why, sizeof(x->why), "%s", e->why);
	switch ((enum proto_cmd_status)e->status) {
	case PROTO_CMD_EXIT:
		x->state = CMDS_EXIT;
		break;
	case PROTO_CMD_SIGNAL:
		x->state = CMDS_SIGNAL;
		break;
	case PROTO_CMD_TIMEOUT:
		x->state = CMDS_TIMEOUT;
		break;
	case PROTO_CMD_REFUSED:
		x->state = CMDS_REFUSED;
		break;
	default:
		x->state = CMDS_FAILED;
		break;
	}
}

void cmds_abandon(const struct run_view *rv, size_t xi, enum cmds_state st)
{
	struct cmds_exec *x = &rv->cmds->x[xi];

	if (x->state != CMDS_RUNNING)
		return;
	if (x->pid > 0) {
		child_kill(x->pid);
		/* Killed: reaped at once, or left to cmds_stop(). */
		(void)child_reaped(&x->pid, &(int){ 0 });
	}
	child_drain(&x->fd, 1, keep, x);
	x->state = st;
}

/* ---- the end of one ---------------------------------------------------- */

const char *cmds_status(const struct cmds_exec *x, char *buf, size_t len)
{
	static const char *const names[] = {
		[CMDS_RUNNING] = "running", [CMDS_TIMEOUT] = "timeout",
		[CMDS_REFUSED] = "refused", [CMDS_FAILED] = "failed",
		[CMDS_LOST] = "lost",       [CMDS_CUT] = "cut",
	};

	if (x->state == CMDS_EXIT && x->code == 0)
		snprintf(buf, len, "ok");
	else if (x->state == CMDS_EXIT)
		snprintf(buf, len, "exit %d", x->code);
	else if (x->state == CMDS_SIGNAL)
		snprintf(buf, len, "signal %d", x->code);
	else
		snprintf(buf, len, "%s", names[x->state]);
	return buf;
}

const char *cmds_next_line(const char **p, const char *end, char *out,
			   size_t outlen)
{
	char line[CMDS_LINE_MAX + 1];
	const char *nl;
	size_t n;

	if (!*p || *p >= end)
		return NULL;
	nl = memchr(*p, '\n', (size_t)(end - *p));
	n = nl ? (size_t)(nl - *p) : (size_t)(end - *p);
	memcpy(line, *p, n < CMDS_LINE_MAX ? n : CMDS_LINE_MAX);
	line[n < CMDS_LINE_MAX ? n : CMDS_LINE_MAX] = '\0';
	*p += n + 1;
	return log_escape(line, out, outlen);
}

/* Its output, line by line, on the console (target console). */
static void to_console(const struct cmds_exec *x)
{
	const char *p = x->out, *end = x->out + x->outlen, *line;
	char esc[LOG_ESC_LEN(CMDS_LINE_MAX)];

	while ((line = cmds_next_line(&p, end, esc, sizeof(esc))))
		log_info("Cmd: %s: %s", x->host, line);
}

int cmds_finish(const struct run_view *rv, size_t xi)
{
	struct cmds *C = rv->cmds;
	struct cmds_exec *x = &C->x[xi];
	struct cmds_log *lg = &C->logs[x->log];
	const char *run = x->w.run >= 0 ? rv->ph->runs[x->w.run].ph.name : "";
	char st[64], tod[32], esc[LOG_ESC_LEN(256)];

	x->end_real = time_real_ns();
	if (child_log_open(rv, &lg->l, "command", lg->owner) < 0)
		log_warn("%s: commands/%s.log cannot be written", x->w.keyword,
			 lg->owner);
	child_log_note(rv, &lg->l, "%s%s%s on %s%s%s (started %s): %s",
		       x->w.keyword, run[0] ? " of run " : "", run, x->host,
		       x->slave[0] ? ", slave " : "", x->slave,
		       time_fmt_tod(x->start_real, tod, sizeof(tod)), x->text);
	if (x->outlen)
		child_log_keep(rv, &lg->l, x->out, x->outlen);
	child_log_note(rv, &lg->l, "%s after %.3f s%s%s%s",
		       cmds_status(x, st, sizeof(st)),
		       (double)(x->end_real - x->start_real) / 1e9,
		       x->why[0] ? ": " : "", x->why,
		       x->dropped ? " (output past 1 MiB not kept)" : "");
	if (x->w.pc->target == PARAMS_CMD_CONSOLE)
		to_console(x);
	/* Logged: summary.txt alone needs it again. */
	if (x->w.pc->target != PARAMS_CMD_SUMMARY) {
		free(x->out);
		x->out = NULL;
		x->outlen = x->outcap = 0;
	}
	if (x->state == CMDS_REFUSED) {
		log_error("%s of rd=%s: slave %s on host %s refused it: %s; the run stops",
			  x->w.keyword, rv->params->rd[x->w.rd].name, x->slave,
			  x->host, log_escape(x->why, esc, sizeof(esc)));
		return 1;
	}
	if (x->state != CMDS_EXIT || x->code)
		log_warn("%s%s%s on %s: %s: %s%s%s (the run goes on; output in commands/%s.log)",
			 x->w.keyword, run[0] ? " of run " : "", run, x->host,
			 x->text, st, x->why[0] ? ": " : "",
			 log_escape(x->why, esc, sizeof(esc)), lg->owner);
	return 0;
}

void cmds_stop(const struct run_view *rv)
{
	struct cmds *C = rv->cmds;

	if (!C)
		return;
	for (size_t i = 0; i < C->n; i++) {
		if (C->x[i].state == CMDS_RUNNING)
			cmds_abandon(rv, i, CMDS_CUT);
		if (C->x[i].pid > 0) {
			child_kill(C->x[i].pid);
			(void)waitpid(C->x[i].pid, NULL, 0);
			C->x[i].pid = 0;
		}
	}
	for (size_t k = 0; k < C->nlogs; k++)
		child_log_close(rv, &C->logs[k].l);
}
