/*
 * A slave back inside a running phase rejoins it: the conductor's phase
 * loop calls midphase_step(), which judges each slave roster_back() marked
 * (rejoin.c's rules), sends it the part of the plan it had at the phase's
 * start (computed from the roster the phase was planned with: the same
 * targets, ranges and share of a fixed iorate=), and once it is ready its
 * go with the first interval it runs, the next boundary on the master's
 * clock after the go can reach it. The merge expects it from that row on
 * (merge_slave_back), and the rejoin is recorded: the slave's loss record
 * (summary.json), the expecting event's (events_rejoined) and one console
 * line. The same process back (a link cut past the slave timeout, its
 * phase still running there) needs no plan: its next interval of the
 * phase resumes it (midphase_resume).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/log.h"
#include "common/timeutil.h"
#include "master/run/master_int.h"
#include "master/run/rejoin.h"

/* Its plan, ready and go: the lead the first judgement allows for. */
#define MIDPHASE_PLAN_LEAD_NS (1 * NS_PER_SEC)

static void set_state(struct master *m, struct slave_rec *s,
		      enum slave_rejoin st)
{
	if (s->rejoin == REJOIN_NONE && st != REJOIN_NONE)
		m->ph.rejoining++;
	else if (s->rejoin != REJOIN_NONE && st == REJOIN_NONE)
		m->ph.rejoining--;
	s->rejoin = st;
}

int midphase_back(struct master *m, struct slave_rec *s, int same_process)
{
	if (!m->ph.merge || !m->ph.cur || s->ph_k < 0)
		return 0;
	set_state(m, s, same_process ? REJOIN_RESUME : REJOIN_WANTED);
	return 1;
}

void midphase_lost(struct master *m, struct slave_rec *s)
{
	set_state(m, s, REJOIN_NONE);
}

/* The rules' view of the phase, s and its part of the plan. */
static void rules_in(struct master *m, const struct slave_rec *s,
		     const struct proto_plan *plan, struct rejoin_in *in)
{
	const struct plan_phase *ph = &m->ph.cur->ph;

	memset(in, 0, sizeof(*in));
	in->running = m->ph.merge != NULL;
	in->format = ph->kind == PLAN_FORMAT || plan->format;
	in->curve = ph->kind == PLAN_CURVE_MAX ||
		    ph->kind == PLAN_CURVE_POINT || ph->kind == PLAN_SLO_MAX ||
		    ph->kind == PLAN_SLO_STEP;
	/* A replay, like an eof pass, cannot be resumed part way. */
	for (unsigned i = 0; i < plan->nstreams; i++)
		in->eof |= plan->streams[i].eof != 0 || plan->replay;
	in->validate = (int)plan->validate;
	in->journal = plan->journal[0] != 0;
	in->start_ns = m->ph.cur->start_at;
	in->interval_ns = ph->interval_ns;
	in->intervals = m->ph.merge ? merge_intervals(m->ph.merge) :
				      ph->intervals;
	in->planned = s->ph_k >= 0 && m->ph.ph_hd;
	/*
	 * A plan goes only to a new session (a hello came), and a session's
	 * validation map ends with it (slave/uplink.c): even under the same
	 * id, the generations are not held.
	 */
	in->same_process = s->rejoin == REJOIN_RESUME &&
			   strcmp(s->hello.id, s->ph_id) == 0;
	in->same_host = strcmp(s->hello.host, s->ph_host) == 0;
	in->ntargets = plan->ntargets;
	/* Its tree is on disk: the slave looks at what exists of it when
	   it prepares (fsphase.c), as every slave does at a phase's start. */
	in->fs = plan->nfsds != 0;
	in->nfwds = plan->nfwds;
	for (unsigned i = 0; i < plan->nfwds; i++)
		in->once |= plan->fwds[i].fileselect == PROTO_FSEL_ONCE ||
			    plan->fwds[i].fileselect == PROTO_FSEL_RANDOM_ONCE;
}

static void wait_next(struct master *m, struct slave_rec *s, const char *why)
{
	log_warn("slave %s waits for the next phase to rejoin: %s",
		 s->hello.name, why);
	set_state(m, s, REJOIN_NONE);
}

/* A fresh start of s in the phase, as send_plans() gives every slave. */
static int reset_for_phase(struct master *m, struct slave_rec *s,
			   const struct proto_plan *plan)
{
	s->ready = s->go_acked = s->ended = 0;
	s->end_intervals = 0;
	memset(s->end_val, 0, sizeof(s->end_val));
	roster_free_end_lat(s);
	free(s->plan_sd);
	s->plan_sd = NULL;
	s->plan_thr = NULL;
	s->nplan_sd = 0;
	plausible_plan_of(plan, s->hello.cores, &s->pplan);
	/* A rejoiner's intervals keep the phase's schedule (plausible.h). */
	s->pplan.start_at = m->ph.cur->start_at;
	if (!s->got)
		s->got = calloc(m->ph.cur->ph.intervals ?
					m->ph.cur->ph.intervals :
					1,
				1);
	if (!s->got)
		return -ENOMEM;
	return results_validation_plan(m->params, plan, &s->plan_sd,
				       &s->plan_thr, &s->nplan_sd);
}

/* REJOIN_WANTED: judge it, then send its part of the plan. */
static void plan_rejoin(struct master *m, struct slave_rec *s)
{
	struct proto_msg msg = { .type = PROTO_PLAN };
	struct rejoin_in in;
	struct rejoin_out out;
	char err[512];
	int ret = 0;

	if (s->ph_k >= 0 && m->ph.ph_hd)
		ret = slaveplan_for(m, &m->ph.cur->ph, m->ph.ph_hd,
				    m->ph.ph_rank ? m->ph.ph_rank[s->ph_k] :
						    (unsigned)s->ph_k,
				    m->ph.ph_n, s->hello.name, &msg.u.plan, err,
				    sizeof(err));
	if (ret < 0) {
		proto_msg_free(&msg);
		wait_next(m, s, err);
		return;
	}
	rules_in(m, s, &msg.u.plan, &in);
	s->rejoin_in = in;
	in.now_ns = time_real_ns();
	in.lead_ns = MIDPHASE_PLAN_LEAD_NS;
	if (rejoin_decide(&in, &out) < 0 || out.verdict != REJOIN_JOIN) {
		proto_msg_free(&msg);
		wait_next(m, s,
			  out.verdict == REJOIN_WAIT ? out.why :
						       "no interval length");
		return;
	}
	ret = reset_for_phase(m, s, &msg.u.plan);
	msg.u.plan.clock_offset_ns = s->clk.offset_ns;
	msg.u.plan.clock_error_ns = s->clk.error_ns;
	if (ret == 0)
		ret = link_send(m, s, &msg);
	proto_msg_free(&msg);
	if (ret < 0) {
		wait_next(m, s, strerror(-ret));
		return;
	}
	s->rejoin_mono = time_mono_ns();
	set_state(m, s, REJOIN_PLANNED);
}

/* The rejoin of s at interval seq of the run in progress, recorded. */
static void record(struct master *m, struct slave_rec *s, unsigned seq)
{
	struct run_result *r = m->ph.cur;
	uint64_t at = r->start_at + (uint64_t)seq * r->ph.interval_ns;
	char tod[32];

	if (s->nlossrec) {
		struct slave_loss *l = &s->lossrec[s->nlossrec - 1];

		l->rejoin_real = at;
		l->rejoin_run = (int)(r - m->ph.runs);
		l->rejoin_seq = seq;
	}
	events_rejoined(&m->view, s, at, (int)(r - m->ph.runs), seq);
	log_info("slave %s rejoined phase %s at interval %u (%s)",
		 s->hello.name, r->ph.name, seq + 1,
		 time_fmt_tod(at, tod, sizeof(tod)));
}

static void send_go(struct master *m, struct slave_rec *s)
{
	struct proto_msg go = { .type = PROTO_GO };

	go.u.go.phase = m->ph.phase_no;
	go.u.go.start_at = m->ph.cur->start_at;
	go.u.go.first_interval = s->rejoin_first;
	link_send(m, s, &go);
	s->rejoin_tx = time_mono_ns();
}

/* REJOIN_PLANNED: once it is ready, its first interval and its go. */
static void start_rejoin(struct master *m, struct slave_rec *s)
{
	unsigned idx = (unsigned)(s - m->roster.slaves);
	struct rejoin_in in = s->rejoin_in;
	struct rejoin_out out;

	if (s->ready < 0) {
		wait_next(m, s, "it could not prepare its part of the plan");
		return;
	}
	if (!s->ready) {
		if (time_mono_ns() - s->rejoin_mono > m->opt->ready_timeout_ns)
			wait_next(m, s, "it was not ready in time");
		return;
	}
	/* Only the time changed since its plan: judge that again. */
	in.intervals = merge_intervals(m->ph.merge);
	in.now_ns = time_real_ns();
	in.lead_ns = 4 * s->clk.rtt_ns + 250 * NS_PER_MS;
	if (rejoin_decide(&in, &out) < 0 || out.verdict != REJOIN_JOIN) {
		wait_next(m, s,
			  out.verdict == REJOIN_WAIT ? out.why :
						       "no interval length");
		return;
	}
	/*
	 * -EINVAL: the merge never counted it lost (it said bye, which does
	 * not tell the merge), so its rows wait for it already.
	 */
	(void)merge_slave_back(m->ph.merge, idx, out.first);
	s->rejoin_first = out.first;
	/* Nothing before its first interval will come from this process. */
	if (s->contig < out.first)
		s->contig = out.first;
	s->in_phase = 1;
	send_go(m, s);
	record(m, s, out.first);
	set_state(m, s, REJOIN_STARTED);
}

void midphase_step(struct master *m)
{
	if (!m->ph.rejoining || !m->ph.merge || !m->ph.cur)
		return;
	for (unsigned i = 0; i < m->roster.nslaves; i++) {
		struct slave_rec *s = &m->roster.slaves[i];

		if (s->rejoin == REJOIN_NONE || s->state != SLAVE_JOINED)
			continue;
		if (s->rejoin == REJOIN_WANTED)
			plan_rejoin(m, s);
		else if (s->rejoin == REJOIN_PLANNED)
			start_rejoin(m, s);
		else if (s->rejoin == REJOIN_STARTED && s->go_acked)
			set_state(m, s, REJOIN_NONE);
		else if (s->rejoin == REJOIN_STARTED &&
			 time_mono_ns() - s->rejoin_tx >= GO_RESEND_NS)
			send_go(m, s);
	}
}

void midphase_resume(struct master *m, struct slave_rec *s)
{
	unsigned idx = (unsigned)(s - m->roster.slaves);
	unsigned next = merge_emitted(m->ph.merge);

	set_state(m, s, REJOIN_NONE);
	if (next >= merge_intervals(m->ph.merge))
		return;
	(void)merge_slave_back(m->ph.merge, idx, next); /* as in start_rejoin */
	s->in_phase = 1;
	record(m, s, next);
}

void midphase_end(struct master *m)
{
	for (unsigned i = 0; m->ph.rejoining && i < m->roster.nslaves; i++) {
		struct slave_rec *s = &m->roster.slaves[i];

		if (s->rejoin == REJOIN_NONE || s->rejoin == REJOIN_STARTED ||
		    s->rejoin == REJOIN_RESUME) {
			set_state(m, s, REJOIN_NONE);
			continue;
		}
		if (s->state == SLAVE_JOINED)
			wait_next(m, s, "the phase ended first");
		else
			set_state(m, s, REJOIN_NONE);
	}
}

void midphase_phase_start(struct master *m, struct run_result *r)
{
	/* A slave back between phases rejoins at this one's start. */
	for (unsigned i = 0; i < m->roster.nslaves; i++) {
		struct slave_rec *s = &m->roster.slaves[i];
		struct slave_loss *l;

		if (!s->in_phase || !s->nlossrec)
			continue;
		l = &s->lossrec[s->nlossrec - 1];
		if (l->rejoin_real || !l->back_real)
			continue;
		l->rejoin_real = r->start_at;
		l->rejoin_run = (int)(r - m->ph.runs);
		l->rejoin_seq = 0;
		events_rejoined(&m->view, s, r->start_at, l->rejoin_run, 0);
	}
}
