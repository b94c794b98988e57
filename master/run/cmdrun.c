/*
 * When the startcmd= and endcmd= commands run, as Vdbench's reporter runs
 * them (Vdb/Reporter.java, Vdb/SlaveWorker.java): the general startcmd=
 * once the slaves are in, before the first run, and its endcmd= after the
 * last when every run ended well; an rd's startcmd= before each of its
 * runs (each phase but a format pass, which Vdbench inserts as a run of
 * its own, without the rd's commands) and before its pause, and its
 * endcmd= once the run's last interval is in, when it ended well. A
 * command with master scope runs here; one with slave scope on one slave
 * of each host (decide_cmd_slaves), sent as proto `cmd`, all hosts at
 * once, one command of the list after the other. The master serves the
 * slaves while it waits (link_pump). The record is master/events/cmds.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "common/log.h"
#include "master/events/cmds.h"
#include "master/run/master_int.h"

/* Past its timeout, how long a slave has to say its command ended. */
#define CMDRUN_GRACE_NS (30 * NS_PER_SEC)

static int on_master(struct master *m, const struct cmds_what *w)
{
	long xi = cmds_add(&m->view, w, NULL, NULL, 0);
	int ret = 0;

	if (xi < 0)
		return (int)xi;
	if (cmds_master_start(&m->view, (size_t)xi) == 0)
		while (!cmds_master_tick(&m->view, (size_t)xi)) {
			ret = link_pump(m, 20);
			if (ret < 0) {
				cmds_abandon(&m->view, (size_t)xi, CMDS_CUT);
				break;
			}
		}
	cmds_finish(&m->view, (size_t)xi);
	return ret;
}

/* The hosts' slaves that run it (decide_cmd_slaves) into pick. */
static unsigned pick_slaves(const struct master *m, unsigned *pick)
{
	unsigned n = m->roster.nslaves, k = 0;
	int *joined = calloc(n ? n : 1, sizeof(int));
	int *hd = calloc(n ? n : 1, sizeof(int));
	const char **host = calloc(n ? n : 1, sizeof(*host));

	if (joined && hd && host) {
		for (unsigned i = 0; i < n; i++) {
			joined[i] = m->roster.slaves[i].state == SLAVE_JOINED;
			hd[i] = m->roster.slaves[i].hd;
			host[i] = m->roster.slaves[i].hello.host;
		}
		k = decide_cmd_slaves(joined, hd, host, n, pick);
	}
	free(joined);
	free(hd);
	free(host);
	return k;
}

/* Send command w to slave i and record it; its index, or -errno. */
static long send_one(struct master *m, const struct cmds_what *w, unsigned i)
{
	struct slave_rec *s = &m->roster.slaves[i];
	struct proto_msg msg = { .type = PROTO_CMD };
	const char *host = s->hd >= 0 ? m->params->hd[s->hd].name :
					s->hello.host;
	long xi = cmds_add(&m->view, w, host, s->hello.name, i);
	struct cmds_exec *x;

	if (xi < 0)
		return xi;
	x = &m->view.cmds->x[xi];
	msg.u.cmd.id = x->id;
	msg.u.cmd.timeout_ns = CMDS_TIMEOUT_NS;
	if (strlen(x->text) >= sizeof(msg.u.cmd.text)) {
		x->state = CMDS_FAILED;
		snprintf(x->why, sizeof(x->why),
			 "longer than %zu characters with $output replaced",
			 sizeof(msg.u.cmd.text) - 1);
		return xi;
	}
	strcpy(msg.u.cmd.text, x->text);
	if (link_send(m, s, &msg) < 0)
		cmds_abandon(&m->view, (size_t)xi, CMDS_LOST);
	return xi;
}

static int on_slaves(struct master *m, const struct cmds_what *w)
{
	unsigned n = m->roster.nslaves ? m->roster.nslaves : 1, k;
	unsigned *pick = calloc(n, sizeof(*pick));
	long *xs = calloc(n, sizeof(*xs));
	uint64_t deadline = time_mono_ns() + CMDS_TIMEOUT_NS + CMDRUN_GRACE_NS;
	int ret = 0, refused = 0;
	unsigned sent = 0;

	if (!pick || !xs) {
		free(pick);
		free(xs);
		return -ENOMEM;
	}
	k = pick_slaves(m, pick);
	if (!k)
		log_warn("%s: no slave left to run %s", w->keyword,
			 params_cmd_text(m->params, w->pc, w->i));
	for (; sent < k && ret == 0; sent++) {
		xs[sent] = send_one(m, w, pick[sent]);
		if (xs[sent] < 0)
			ret = (int)xs[sent];
	}
	while (ret == 0) {
		unsigned running = 0;

		for (unsigned j = 0; j < sent; j++) {
			struct cmds_exec *x = &m->view.cmds->x[xs[j]];

			if (x->state != CMDS_RUNNING)
				continue;
			if (m->roster.slaves[x->slave_idx].state !=
				    SLAVE_JOINED ||
			    time_mono_ns() > deadline) {
				cmds_abandon(&m->view, (size_t)xs[j],
					     CMDS_LOST);
				snprintf(x->why, sizeof(x->why), "%s",
					 "the slave was lost, or never said the end");
				continue;
			}
			running++;
		}
		if (!running)
			break;
		ret = link_pump(m, 20);
	}
	for (unsigned j = 0; j < sent; j++) {
		if (xs[j] < 0)
			continue;
		cmds_abandon(&m->view, (size_t)xs[j], CMDS_CUT);
		refused |= cmds_finish(&m->view, (size_t)xs[j]);
	}
	free(pick);
	free(xs);
	return ret ? ret : refused ? -EPERM : 0;
}

/* Every command of pc, in order; stops at a refusal or an interrupt. */
static int run_list(struct master *m, const struct params_cmd *pc,
		    const char *keyword, int rd, int run)
{
	int ret = 0;

	for (unsigned i = 0; ret == 0 && i < pc->n; i++) {
		struct cmds_what w = { pc, keyword, rd, run, i };

		ret = pc->slave ? on_slaves(m, &w) : on_master(m, &w);
	}
	return ret;
}

int cmdrun_general(struct master *m, int end)
{
	const struct params_cmd *pc = end ? &m->params->endcmd :
					    &m->params->startcmd;

	return run_list(m, pc, end ? "endcmd" : "startcmd", -1, -1);
}

int cmdrun_phase(struct master *m, struct run_result *r, int end)
{
	const struct params_rd *rd = &m->params->rd[r->ph.rd];

	if (r->ph.kind == PLAN_FORMAT && !r->ph.verify)
		return 0;
	return run_list(m, end ? &rd->endcmd : &rd->startcmd,
			end ? "endcmd" : "startcmd", (int)r->ph.rd,
			(int)(r - m->ph.runs));
}
