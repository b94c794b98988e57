/*
 * The phase conductor of the master: it starts the slaves (or waits for
 * them), then takes every phase through its steps in lockstep - clock
 * samples, plans, ready, a broadcast go at a common start time, the
 * interval merge until the phase is over - and minds curves and pauses
 * between phases. What it decides on the way is in decide.c; frames move
 * through link.c and every output goes through results.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/exitcode.h"
#include "common/log.h"
#include "master/params/params.h"
#include "common/timeutil.h"
#include "master/run/master_int.h"
#include "master/run/slosteps.h"

/* What the decisions of decide.c need of a slave. */
static void view_of(const struct slave_rec *s, struct decide_slave *v)
{
	v->in_phase = s->in_phase;
	v->joined = s->state == SLAVE_JOINED;
	v->go_acked = s->go_acked;
	v->ended = s->ended;
	v->end_intervals = s->end_intervals;
	v->first_io = s->first_io;
	v->clock_error = s->clk.error_ns;
	v->last_tx = s->last_tx;
}

/* Every slave's view, into m->ph.dview. */
static void views_of(struct master *m)
{
	for (unsigned i = 0; i < m->roster.nslaves; i++)
		view_of(&m->roster.slaves[i], &m->ph.dview[i]);
}

/*
 * The keys of one slave we start: a fresh pair for this run and our public
 * key, passed to it over a pipe (launch.c). Its public key is admitted by
 * the ZAP handler and bound to its name, so that no other process, even
 * on this machine, can register as it. NULL without CURVE (--insecure),
 * except for a local slave, which gets keys for the local pair (hub.h).
 */
static const struct launch_keys *slave_keys(struct master *m, const char *name,
					    int local, struct launch_keys *lk)
{
	struct keys_pair kp;
	int ret;

	if (!m->link.curve && !(local && m->link.local_curve))
		return NULL;
	ret = keys_generate(&kp);
	if (ret == 0)
		ret = keys_authorized_add(&m->link.auth, kp.public, name);
	if (ret == 0)
		ret = hub_admit(m->link.hub, kp.public);
	if (ret < 0) {
		log_error("cannot make the keys of slave %s: %s", name,
			  strerror(-ret));
		keys_wipe(&kp, sizeof(kp));
		return NULL;
	}
	memcpy(lk->secret, kp.secret, sizeof(lk->secret));
	memcpy(lk->public, kp.public, sizeof(lk->public));
	memcpy(lk->master, m->link.key.public, sizeof(lk->master));
	keys_wipe(&kp, sizeof(kp));
	return lk;
}

static int launch_slaves(struct master *m)
{
	char ep[300], name[PROTO_NAME_LEN];
	const char **luns = launch_allow_luns(m->params, &m->ph.launch.nallow);
	struct launch_keys lk;
	const struct launch_keys *keys;
	int ret = 0;

	if (!luns)
		return -ENOMEM;
	m->ph.launch.allow = luns;
	if (m->link.local_curve)
		snprintf(ep, sizeof(ep), "tcp://127.0.0.1:%u",
			 m->link.local_port);
	else
		snprintf(ep, sizeof(ep), "tcp://%s:%u", m->opt->advertise,
			 m->link.bound_port);
	for (unsigned i = 0; ret == 0 && i < m->opt->nlocal; i++) {
		snprintf(name, sizeof(name), "local-%u", i + 1);
		keys = slave_keys(m, name, 1, &lk);
		ret = (m->link.curve || m->link.local_curve) && !keys ?
			      -EIO :
			      launch_local(&m->ph.launch, ep, name, keys);
	}
	snprintf(ep, sizeof(ep), "tcp://%s:%u", m->opt->advertise,
		 m->link.bound_port);
	for (size_t h = 0; ret == 0 && h < m->params->nhd; h++) {
		const struct params_hd *hd = &m->params->hd[h];

		if (hd->shell == PARAMS_SHELL_NONE)
			continue;
		for (unsigned k = 0; ret == 0 && k < hd->slaves; k++) {
			roster_expected_name(hd, k, name, sizeof(name));
			keys = slave_keys(m, name, 0, &lk);
			ret = m->link.curve && !keys ?
				      -EIO :
				      launch_ssh(&m->ph.launch, hd->user,
						 hd->system, hd->lockstep,
						 hd->lockstep_dir, ep, name,
						 keys);
		}
	}
	keys_wipe(&lk, sizeof(lk));
	if (ret < 0)
		log_error("cannot start a slave: %s", strerror(-ret));
	m->ph.launch.allow = NULL;
	m->ph.launch.nallow = 0;
	free(luns);
	return ret;
}

static int wait_registration(struct master *m)
{
	uint64_t deadline = time_mono_ns() + m->opt->join_timeout_ns;
	char names[512];

	m->roster.registering = 1;
	while (roster_missing(&m->roster, m->params, m->opt, names,
			      sizeof(names)) > 0) {
		struct launch_proc *p;
		const char *why;
		int ret = link_pump(m, 50), status;

		if (ret < 0)
			return ret;
		while ((p = launch_exited(&m->ph.launch, &status))) {
			if (roster_find_name(&m->roster, p->name))
				continue;
			/* The reason its host gave, on the console too. */
			why = launch_last_line(p);
			log_error("slave %s on %s exited before registering (status %d)%s%s%s",
				  p->name, p->host, status,
				  status == 255 ?
					  ": ssh could not reach the host" :
					  "",
				  why[0] ? ": " : "", why);
			return -ECHILD;
		}
		if (time_mono_ns() > deadline) {
			unsigned n = roster_missing(&m->roster, m->params,
						    m->opt, names,
						    sizeof(names));

			log_error("%u slaves did not register within %.0f s%s%s",
				  n, (double)m->opt->join_timeout_ns / 1e9,
				  names[0] ? ": " : "", names);
			return -ETIMEDOUT;
		}
	}
	m->roster.registering = 0;
	for (unsigned i = 0; i < m->ph.launch.n; i++) {
		struct slave_rec *s = roster_find_name(&m->roster,
						       m->ph.launch.p[i].name);

		if (s)
			s->pid = m->ph.launch.p[i].pid;
	}
	return 0;
}

void conductor_reap(struct master *m)
{
	uint64_t deadline = time_mono_ns() + 5 * NS_PER_SEC;

	for (;;) {
		struct launch_proc *p;
		int status;

		while ((p = launch_exited(&m->ph.launch, &status)))
			if (status != 0)
				log_warn("slave %s (%s) exited with status %d",
					 p->name, p->host, status);
		/* A reaped pid may be reused: no signal may reach it. */
		interrupt_note_children(&m->ph.launch);
		if (!launch_running(&m->ph.launch))
			break;
		if (time_mono_ns() > deadline) {
			launch_kill_all(&m->ph.launch);
			break;
		}
		if (m->link.hub)
			link_pump(m, 20);
		else
			time_sleep_ns(20 * NS_PER_MS);
	}
}

static int send_plans(struct master *m, const struct plan_phase *ph)
{
	unsigned n, k = 0, *rank = NULL;
	int *hd = roster_live_hosts(&m->roster, &n);
	char err[512];
	int ret = 0;

	if (!hd)
		return -ENOMEM;
	/*
	 * Validation's cuts and a shared=yes tree's files are owned by slave
	 * number: numbered by name, not by when the slaves registered, so
	 * that every phase and run agrees on who owns what.
	 */
	if (m->params->validate || ph->fs) {
		rank = malloc(sizeof(*rank) * (n ? n : 1));
		ret = rank ? slaveplan_ranks(m, hd, n, rank) : -ENOMEM;
		if (ret < 0) {
			free(rank);
			free(hd);
			return ret;
		}
	}

	m->ph.nended = 0;
	m->ph.drain_until = 0;
	if (maxdata_phase_start(m) < 0) {
		free(rank);
		free(hd);
		return -ENOMEM;
	}
	/* Kept for the phase: a slave back inside it gets its part again. */
	free(m->ph.ph_hd);
	free(m->ph.ph_rank);
	m->ph.ph_hd = hd;
	m->ph.ph_rank = rank;
	m->ph.ph_n = n;
	for (unsigned i = 0; i < m->roster.nslaves; i++) {
		struct slave_rec *s = &m->roster.slaves[i];
		struct proto_msg msg = { .type = PROTO_PLAN };

		s->ph_k = -1;
		s->rejoin = REJOIN_NONE;
		s->in_phase = s->ready = s->go_acked = s->ended = 0;
		memset(s->end_val, 0, sizeof(s->end_val));
		free(s->plan_sd);
		s->plan_sd = NULL;
		s->plan_thr = NULL;
		s->nplan_sd = 0;
		s->first_io = 0;
		/* Until its plan says more, it may report no I/O at all. */
		memset(&s->pplan, 0, sizeof(s->pplan));
		s->pplan.cores = s->hello.cores;
		s->contig = s->acked = 0;
		free(s->got);
		s->got = NULL;
		roster_free_end_lat(s);
		if (s->state != SLAVE_JOINED)
			continue;
		s->got = calloc(ph->intervals, 1);
		if (!s->got) {
			ret = -ENOMEM;
			break;
		}
		ret = slaveplan_for(m, ph, hd, rank ? rank[k] : k, n,
				    s->hello.name, &msg.u.plan, err,
				    sizeof(err));
		s->ph_k = (int)k++;
		memcpy(s->ph_id, s->hello.id, sizeof(s->ph_id));
		memcpy(s->ph_host, s->hello.host, sizeof(s->ph_host));
		if (ret < 0) {
			proto_msg_free(&msg);
			log_error("%s", err);
			break;
		}
		plausible_plan_of(&msg.u.plan, s->hello.cores, &s->pplan);
		ret = results_validation_plan(m->params, &msg.u.plan,
					      &s->plan_sd, &s->plan_thr,
					      &s->nplan_sd);
		if (ret < 0) {
			proto_msg_free(&msg);
			break;
		}
		msg.u.plan.clock_offset_ns = s->clk.offset_ns;
		msg.u.plan.clock_error_ns = s->clk.error_ns;
		/* Nothing of this phase runs on its host: it sits it out. */
		if (msg.u.plan.ntargets == 0 && msg.u.plan.nfsds == 0) {
			log_debug("slave %s sits phase %s out", s->hello.name,
				  ph->name);
			proto_msg_free(&msg);
			continue;
		}
		ret = link_send(m, s, &msg);
		proto_msg_free(&msg);
		if (ret < 0)
			break;
		s->in_phase = 1;
	}
	return ret;
}

static int wait_ready(struct master *m)
{
	uint64_t deadline = time_mono_ns() + m->opt->ready_timeout_ns;

	for (;;) {
		unsigned waiting = 0, failed = 0;

		for (unsigned i = 0; i < m->roster.nslaves; i++) {
			struct slave_rec *s = &m->roster.slaves[i];

			if (!s->in_phase)
				continue;
			if (s->ready < 0)
				failed++;
			else if (!s->ready && s->state == SLAVE_JOINED)
				waiting++;
		}
		if (failed)
			return -EIO;
		if (!waiting)
			return 0;
		if (time_mono_ns() > deadline) {
			log_error("%u slaves not ready after %.0f s", waiting,
				  (double)m->opt->ready_timeout_ns / 1e9);
			return -ETIMEDOUT;
		}
		if (link_pump(m, 50) < 0)
			return -EINTR;
	}
}

/*
 * Pick the start time, get the merge ready for the phase's intervals (the
 * first can arrive before every go_ack has), broadcast go, and re-send it
 * over ROUTER to slaves that did not acknowledge.
 */
static int start_phase(struct master *m, struct run_result *r)
{
	struct proto_msg go = { .type = PROTO_GO };
	uint64_t max_rtt = 0, margin, deadline;
	void *buf;
	size_t len;
	int ret;

	for (unsigned i = 0; i < m->roster.nslaves; i++)
		if (m->roster.slaves[i].in_phase &&
		    m->roster.slaves[i].clk.rtt_ns > max_rtt)
			max_rtt = m->roster.slaves[i].clk.rtt_ns;
	margin = 4 * max_rtt + 250 * NS_PER_MS;
	go.u.go.phase = m->ph.phase_no;
	go.u.go.start_at = time_real_ns() + margin;
	r->start_at = go.u.go.start_at;
	/* Intervals are stamped with this schedule (plausible.h). */
	for (unsigned i = 0; i < m->roster.nslaves; i++)
		m->roster.slaves[i].pplan.start_at = r->start_at;
	midphase_phase_start(m, r);
	{
		struct merge_cfg cfg = {
			.nslaves = m->roster.nslaves,
			.intervals = r->ph.intervals,
			.warmup_intervals = r->ph.warmup_intervals,
			.start_ns = r->start_at,
			.interval_ns = r->ph.interval_ns,
			.grace_ns = m->opt->grace_ns,
		};

		/* A file-system phase: what the slaves' plans ask for. */
		for (unsigned i = 0; i < m->roster.nslaves; i++)
			if (m->roster.slaves[i].in_phase)
				cfg.fsops |= m->roster.slaves[i].pplan.fsops;
		r->fsops = cfg.fsops;

		m->ph.merge = merge_new(&cfg);
		if (!m->ph.merge)
			return -ENOMEM;
		for (unsigned i = 0; i < m->roster.nslaves; i++)
			if (!m->roster.slaves[i].in_phase)
				merge_slave_lost(m->ph.merge, i);
	}
	ret = warmup_phase_start(m, r);
	if (ret < 0)
		return ret;
	ret = proto_encode(&go, &buf, &len);
	if (ret < 0)
		return ret;
	hub_publish(m->link.hub, buf, len);
	free(buf);
	deadline = time_mono_ns() + margin + 5 * NS_PER_SEC;
	for (;;) {
		unsigned pending = 0;

		if (link_pump(m, 10) < 0)
			return -EINTR;
		for (unsigned i = 0; i < m->roster.nslaves; i++) {
			struct slave_rec *s = &m->roster.slaves[i];
			struct decide_slave v;
			enum decide_go d;

			view_of(s, &v);
			d = decide_go(&v, time_mono_ns(), GO_RESEND_NS);
			if (d == DECIDE_GO_DONE)
				continue;
			pending++;
			if (d == DECIDE_GO_RESEND)
				link_send(m, s, &go);
		}
		if (!pending)
			return 0;
		if (time_mono_ns() > deadline) {
			log_warn("%u slaves did not acknowledge go", pending);
			return 0;
		}
	}
}

/*
 * Once every slave of the phase ended it and all of them sent fewer
 * intervals than planned without an error (their seekpct=eof passes are
 * done), the phase is as long as the longest of them.
 */
static void truncate_at_eof(struct master *m)
{
	unsigned longest;

	/*
	 * Asked after every wake-up of the phase loop: with no phase_end in
	 * yet, no slave can have ended early, and the views of a thousand
	 * slaves are not built for nothing.
	 */
	if (!m->ph.nended)
		return;
	views_of(m);
	longest = decide_eof_truncate(m->ph.dview, m->roster.nslaves,
				      m->ph.cur->ph.intervals,
				      merge_intervals(m->ph.merge));
	if (longest) {
		log_info("phase %s: every slave finished its pass after %u intervals",
			 m->ph.cur->ph.name, longest);
		merge_truncate(m->ph.merge, longest);
	}
}

void conductor_phase_end(struct master *m, struct slave_rec *s,
			 struct proto_phase_end *pe)
{
	int again = s->ended;
	char err[256];

	if (pe->phase != m->ph.phase_no)
		return;
	if (!again)
		m->ph.nended++;
	s->ended = 1;
	if (m->ph.cur && time_real_ns() > m->ph.cur->start_at)
		m->ph.cur->duration_ns = time_real_ns() - m->ph.cur->start_at;
	s->end_intervals = pe->intervals;
	/* Kept (taken from pe) until the run's totals. */
	roster_free_end_lat(s);
	memcpy(s->end_lat, pe->lat, sizeof(s->end_lat));
	memset(pe->lat, 0, sizeof(pe->lat));
	/* A second phase_end must not count twice. */
	if (!again && results_validation_end(&m->view, m->ph.cur, s, pe, err,
					     sizeof(err)) < 0) {
		/* Not counted: the run cannot vouch for it. */
		s->suspect = 1;
		m->fact.suspect++;
		log_error("slave %s: validation counts of phase %u refused, not counted: %s; the slave is suspect and the run is degraded",
			  s->hello.name, m->ph.phase_no, err);
	}
	if (pe->first_io_ns &&
	    plausible_first_io(&s->pplan, pe->first_io_ns,
			       s->pplan.intervals ? s->pplan.intervals - 1 : 0,
			       err, sizeof(err)) < 0) {
		/* Not counted in the start skew. */
		s->suspect = 1;
		m->fact.suspect++;
		log_error("slave %s: phase_end of phase %u refused in part: %s; the slave is suspect and the run is degraded",
			  s->hello.name, m->ph.phase_no, err);
	} else if (pe->first_io_ns && !s->first_io) {
		s->first_io = pe->first_io_ns;
	}
	if (pe->status < 0) {
		log_error("slave %s ended phase %u early (%s): the run stops",
			  s->hello.name, m->ph.phase_no, strerror(-pe->status));
		m->fact.stop_run = 1;
	}
}

/*
 * Over once every row is written and every slave in it ended it, holding
 * all it did: a slave's intervals that a pulled link held back (or its
 * spool re-sends) are waited for as long as a silent slave would be.
 */
static int phase_over(struct master *m)
{
	uint64_t now = time_real_ns();
	unsigned holes;

	truncate_at_eof(m);
	if (!merge_done(m->ph.merge) ||
	    roster_unended(&m->roster, m->ph.cur->ph.intervals, &holes))
		return 0;
	if (holes && !m->ph.drain_until) {
		m->ph.drain_until = now + m->opt->slave_timeout_ns;
		log_info("phase %s: waiting up to %.0f s for intervals %u slaves did but did not deliver yet",
			 m->ph.cur->ph.name, m->opt->slave_timeout_ns / 1e9,
			 holes);
	}
	if (holes && now >= m->ph.drain_until)
		log_warn("phase %s: %u slaves did intervals that never came",
			 m->ph.cur->ph.name, holes);
	return !holes || now >= m->ph.drain_until;
}

/*
 * A warmup=steady warmup ended and moved the measured window (warmup.c),
 * or maxdata= ended the phase early (maxdata.c): every slave in the phase
 * is told where it now starts and ends.
 */
static void tell_measure(struct master *m, const struct run_result *r)
{
	struct proto_msg msg = { .type = PROTO_MEASURE };

	msg.u.measure.phase = m->ph.phase_no;
	msg.u.measure.from = r->ph.warmup_intervals;
	msg.u.measure.intervals = r->ph.intervals;
	for (unsigned i = 0; i < m->roster.nslaves; i++) {
		struct slave_rec *s = &m->roster.slaves[i];

		if (s->in_phase && s->state == SLAVE_JOINED)
			link_send(m, s, &msg);
	}
}

static int run_phase(struct master *m, struct run_result *r)
{
	uint64_t end_real = r->start_at + r->ph.intervals * r->ph.interval_ns;
	int ret = 0;
	results_phase_start(&m->view);
	m->link.batch_ns = BATCH_NS;
	while (!phase_over(m)) {
		struct merge_row row;
		uint64_t now = time_real_ns();

		if (link_pump(m, 20) < 0) {
			ret = -EINTR;
			break;
		}
		while (merge_next(m->ph.merge, time_real_ns(), &row) == 1) {
			results_row(&m->view, &row);
			if (warmup_row(m, &row) == 1 ||
			    maxdata_row(m, &row) == 1)
				tell_measure(m, r);
		}
		midphase_step(m);
		/* Slaves that never end the phase cannot hold the run. */
		if (now > end_real + m->opt->grace_ns +
				  m->opt->slave_timeout_ns + 10 * NS_PER_SEC) {
			log_warn("phase %s: giving up on slaves that did not end it",
				 r->ph.name);
			break;
		}
	}
	m->link.batch_ns = 0;
	midphase_end(m);
	if (ret == 0) {
		struct merge_row row;

		while (merge_next(m->ph.merge, UINT64_MAX, &row) == 1)
			results_row(&m->view, &row);
	}
	return ret;
}

static int run_one(struct master *m, struct run_result *r)
{
	double measured;
	int ret;

	m->ph.phase_no++;
	m->ph.cur = r;
	if (roster_live_count(&m->roster) == 0) {
		log_error("no slave left to run %s", r->ph.name);
		return -ENOENT;
	}
	ret = clocks_sync(m);
	if (ret == 0)
		ret = send_plans(m, &r->ph);
	if (ret == 0)
		ret = wait_ready(m);
	if (ret < 0)
		return ret;
	ret = start_phase(m, r);
	if (ret == 0)
		ret = run_phase(m, r);
	results_flush_hosts(&m->view, 1);
	for (unsigned i = 0; i < m->roster.nslaves; i++)
		if (m->roster.slaves[i].state == SLAVE_JOINED)
			link_ack(m, &m->roster.slaves[i], 1, 0);
	if (!m->ph.merge) {
		warmup_phase_end(m);
		return ret;
	}
	if (ret < 0) {
		/*
		 * Cut short: the run has the rows some slave reported, written
		 * now (a partial one names who is missing), and its rates are
		 * over their time, not the planned time.
		 */
		struct merge_row row;
		uint64_t now = time_real_ns();

		merge_truncate(m->ph.merge,
			       decide_run_intervals(merge_intervals(m->ph.merge),
						    merge_reported_rows(
							    m->ph.merge),
						    1));
		while (merge_next(m->ph.merge, UINT64_MAX, &row) == 1)
			results_row(&m->view, &row);
		if (now > r->start_at)
			r->duration_ns = now - r->start_at;
	}
	r->ph.intervals = merge_intervals(m->ph.merge);
	if (r->ph.warmup_intervals > r->ph.intervals)
		r->ph.warmup_intervals = r->ph.intervals;
	views_of(m);
	r->start_skew_ns = decide_start_skew(m->ph.dview, m->roster.nslaves);
	r->start_skew_bound_ns = decide_start_skew_bound(m->ph.dview,
							 m->roster.nslaves);
	measured = decide_measured_s(r->ph.intervals, r->ph.warmup_intervals,
				     r->ph.interval_s);
	/* Keep the views: the dense totals go with the merge. */
	stats_view(merge_totals(m->ph.merge), measured, &r->view);
	if (merge_fs_totals(m->ph.merge)) {
		free(r->fs);
		r->fs = malloc(sizeof(*r->fs));
		if (r->fs)
			fsops_view(merge_fs_totals(m->ph.merge),
				   merge_totals(m->ph.merge), measured, r->fs);
		else
			log_error("run %s: out of memory for its file operations' totals",
				  r->ph.name);
	}
	r->slave = calloc(m->roster.nslaves ? m->roster.nslaves : 1,
			  sizeof(*r->slave));
	if (r->slave)
		r->nslave = m->roster.nslaves;
	for (unsigned i = 0; i < r->nslave; i++) {
		const struct stats_sums *st = merge_slave_totals(m->ph.merge,
								 i);
		struct slave_rec *s = &m->roster.slaves[i];

		r->slave[i].ran = st && st->samples;
		memcpy(r->slave[i].val, s->end_val, sizeof(s->end_val));
		if (!r->slave[i].ran)
			continue;
		r->slave[i].first_io_ns = s->first_io;
		if (merge_slave_fs(m->ph.merge, i)) {
			memcpy(r->slave[i].fs, merge_slave_fs(m->ph.merge, i),
			       sizeof(r->slave[i].fs));
			r->slave[i].has_fs = 1;
		}
		r->slave[i].clock_offset_ns = s->clk.offset_ns;
		r->slave[i].clock_error_ns = s->clk.error_ns;
		r->slave[i].no_pct = decide_end_lat_mismatch(s->ended,
							     s->end_lat, st);
		stats_view_sums(st, r->slave[i].no_pct ? NULL : s->end_lat,
				measured, &r->slave[i].v);
		if (r->slave[i].no_pct)
			log_info("run %s: no percentiles for slave %s: %s",
				 r->ph.name, s->hello.name, r->slave[i].no_pct);
	}
	if (r->ph.kind == PLAN_SLO_MAX || r->ph.kind == PLAN_SLO_STEP)
		slosteps_measure(m->params, r,
				 ret == 0 ? merge_totals(m->ph.merge) : NULL,
				 m->roster.slaves);
	r->done = 1;
	if (r->view.errors) {
		if (decide_exit(&m->fact) == LS_EXIT_OK)
			log_warn("run %s: %llu I/O errors (within data_errors): the run is degraded",
				 r->ph.name,
				 (unsigned long long)r->view.errors);
		m->fact.io_errors++;
	}
	results_run_end(&m->view, r,
			ret == 0 ? merge_totals(m->ph.merge) : NULL);
	merge_destroy(&m->ph.merge);
	warmup_phase_end(m);
	return ret;
}

/* Refuse a file that cannot run on these slaves before anything starts. */
static int check_plans(struct master *m)
{
	unsigned n;
	int *hd = roster_live_hosts(&m->roster, &n);
	char err[1024];
	int ret;

	if (!hd)
		return -ENOMEM;
	ret = plan_check_slaves(m->params, m->phases, m->nphases, hd, n, err,
				sizeof(err));
	free(hd);
	if (ret < 0)
		log_error("%s", err);
	return ret;
}

/* Wait s seconds (rd pause=), still serving the slaves. */
static int pause_for(struct master *m, double s)
{
	uint64_t until = time_mono_ns() + (uint64_t)(s * 1e9);

	log_info("pause of %g s", s);
	while (time_mono_ns() < until)
		if (link_pump(m, 50) < 0)
			return -EINTR;
	return 0;
}

/*
 * Run one phase of the list, minding curves: a curve point runs at its
 * share of its curve-max phase's measured rate, and once one exceeds
 * stopcurve= the points left are skipped. An slo step likewise.
 */
static int run_next(struct master *m, struct run_result *r)
{
	int ret;

	if (skip_run(m, r))
		return 0;
	if ((ret = cmdrun_phase(m, r, 0)) < 0)
		return ret;
	if (r->ph.pause_s > 0 && (ret = pause_for(m, r->ph.pause_s)) < 0)
		return ret;
	ret = run_one(m, r);
	if (ret == 0)
		ret = cmdrun_phase(m, r, 1);
	if (ret == 0 && r->ph.kind == PLAN_CURVE_POINT &&
	    decide_curve_stop(r->ph.stopcurve_ms, run_curve_resp_ms(r))) {
		log_info("%s: response time %.3f ms is above stopcurve=%g ms: the rest of the curve is skipped",
			 r->ph.name, run_curve_resp_ms(r), r->ph.stopcurve_ms);
		m->ph.runs[r->ph.curve_max].curve_stopped = 1;
	}
	return ret;
}

int conductor_run(struct master *m)
{
	int ret = results_open_expected(&m->view);

	if (ret == 0) {
		ret = launch_slaves(m);
		interrupt_note_children(&m->ph.launch);
	}
	if (ret == 0)
		ret = wait_registration(m);
	if (ret == 0)
		ret = check_plans(m);
	if (ret == 0)
		ret = results_check_space(&m->view);
	if (ret == 0)
		ret = cmdrun_general(m, 0);
	for (size_t i = 0; ret == 0 && i < m->ph.nruns; i++)
		ret = run_next(m, &m->ph.runs[i]);
	return ret == 0 ? cmdrun_general(m, 1) : ret;
}
