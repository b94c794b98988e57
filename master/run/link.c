/*
 * The master's link to its slaves, transport only: frames out (send,
 * stop, acks, heartbeats) and frames in, each decoded, checked against its
 * sender's key and budget, and turned into a call of its owner: a hello
 * to admit.c, an interval into the merge (and its ack), a phase_end to the
 * conductor, ready, go acks, pongs, logs and byes into the slave's record.
 * link_pump(), which every waiting loop of the conductor calls, receives
 * and then calls the tickers registered with it (liveness here, the
 * events and the hosts/ files, master.c registers them). Sockets are
 * hub.c's; this file speaks the protocol.
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
#include "lockstep_version.h"

/* Send msg, already encoded as buf. */
static int send_frame(struct master *m, struct slave_rec *s,
		      const struct proto_msg *msg, const void *buf, size_t len)
{
	int ret = hub_send(m->link.hub, &s->peer, buf, len);

	if (ret == 0)
		s->last_tx = time_mono_ns();
	else if (s->state == SLAVE_JOINED)
		log_debug("send %s to %s: %s", proto_type_name(msg->type),
			  s->hello.name, strerror(-ret));
	return ret;
}

int link_send(struct master *m, struct slave_rec *s,
	      const struct proto_msg *msg)
{
	void *buf;
	size_t len;
	int ret = proto_encode(msg, &buf, &len);

	if (ret < 0) {
		log_error("cannot encode %s: %s", proto_type_name(msg->type),
			  strerror(-ret));
		return ret;
	}
	ret = send_frame(m, s, msg, buf, len);
	free(buf);
	return ret;
}

static void send_text(struct master *m, struct slave_rec *s,
		      enum proto_type type, const char *reason)
{
	struct proto_msg msg = { .type = type };

	snprintf(msg.u.stop.reason, sizeof(msg.u.stop.reason), "%s", reason);
	link_send(m, s, &msg);
}

void link_stop_all(struct master *m, enum proto_type type, const char *reason)
{
	for (unsigned i = 0; i < m->roster.nslaves; i++)
		if (m->roster.slaves[i].state == SLAVE_JOINED)
			send_text(m, &m->roster.slaves[i], type, reason);
}

/* The 64-bit FNV-1a hash of a routing id. */
static uint64_t id_hash(const struct hub_peer *p)
{
	uint64_t h = 0xcbf29ce484222325ull ^ p->via;

	for (size_t i = 0; i < p->len && i < HUB_PEER_MAX; i++)
		h = (h ^ p->id[i]) * 0x100000001b3ull;
	return h;
}

static struct peer_budget *budget_of(struct master *m, const struct hub_peer *p,
				     uint64_t *h)
{
	*h = id_hash(p);
	return &m->link.budget[*h & (BUDGET_SLOTS - 1)];
}

/* Whether an unregistered peer is past its budget of invalid frames. */
static int budget_spent(struct master *m, const struct hub_peer *p)
{
	uint64_t h;
	const struct peer_budget *b = budget_of(m, p, &h);

	return b->hash == h && b->bad >= INVALID_BUDGET;
}

/*
 * Count one invalid frame against its sender (s, or the unregistered
 * peer): past INVALID_BUDGET it is ignored from then on, and a registered
 * slave is lost and suspect.
 */
static void count_invalid(struct master *m, struct slave_rec *s,
			  const struct hub_peer *peer)
{
	struct peer_budget *b;
	uint64_t h;

	if (s) {
		if (++s->invalid < INVALID_BUDGET || s->banned)
			return;
		s->banned = 1;
		s->suspect = 1;
		log_warn("slave %s sent %u invalid frames: it is ignored from now on%s",
			 s->hello.name, s->invalid,
			 s->state == SLAVE_JOINED ? " and lost" : "");
		if (s->state == SLAVE_JOINED)
			roster_mark_lost(m, s);
		m->fact.suspect++;
		return;
	}
	b = budget_of(m, peer, &h);
	if (b->hash != h) {
		b->hash = h;
		b->bad = 0;
	}
	if (++b->bad == INVALID_BUDGET)
		log_limited("peer ignored", LOG_WARN,
			    "an unregistered peer sent %u invalid frames: its frames are ignored from now on",
			    b->bad);
}

/* Refuse a hello: one line (limited: a refused slave retries). */
static void refuse_hello(const struct proto_hello *h, const char *why)
{
	char name[LOG_ESC_LEN(PROTO_NAME_LEN)];
	char host[LOG_ESC_LEN(PROTO_HOST_LEN)];

	log_limited("hello refused", LOG_WARN,
		    "slave %s (pid %u on %s) refused: %s",
		    log_escape(h->name, name, sizeof(name)), h->pid,
		    log_escape(h->host, host, sizeof(host)), why);
}

/* A hello: admit.c judges it, link answers it. */
static void on_hello(struct master *m, const struct hub_peer *peer,
		     const struct proto_hello *h)
{
	struct proto_msg w = { .type = PROTO_WELCOME };
	struct slave_rec *s = roster_find_peer(&m->roster, peer), *a;
	char why[512];
	int invalid = 0;

	a = admit_hello(m, s, peer, h, why, sizeof(why), &invalid);
	if (!a) {
		if (invalid)
			count_invalid(m, s, peer);
		if (*why)
			refuse_hello(h, why);
		return;
	}
	snprintf(w.u.welcome.run_id, sizeof(w.u.welcome.run_id), "%s",
		 m->run_id);
	w.u.welcome.slave_index = (uint32_t)(a - m->roster.slaves);
	w.u.welcome.heartbeat_ns = m->opt->heartbeat_ns;
	w.u.welcome.master_timeout_ns = m->opt->master_timeout_ns;
	link_send(m, a, &w);
}

/*
 * Acknowledge what a slave sent: one ack covers every interval up to the
 * highest contiguous one, so it goes out once ACK_BATCH are waiting, at
 * once when urgent (a re-sent interval, or the master has been silent to
 * the slave long enough that the ack stands for a heartbeat), or
 * ACK_DELAY_NS after the first one waiting arrived. Slaves re-send only
 * what waited longer than that (6 s).
 */
void link_ack(struct master *m, struct slave_rec *s, int urgent, uint64_t now)
{
	struct proto_msg a;

	/* Called for every slave 4 times a second: decide before a.u
	 * (large) is cleared. */
	if (s->contig <= s->acked)
		return;
	if (!urgent && s->contig - s->acked < ACK_BATCH &&
	    now - s->ack_wait < ACK_DELAY_NS)
		return;
	a = (struct proto_msg){ .type = PROTO_ACK };
	a.u.ack.phase = m->ph.phase_no;
	a.u.ack.seq = s->contig - 1;
	if (link_send(m, s, &a) == 0)
		s->acked = s->contig;
}

/* The intervals 0..contig-1 of s are all received or judged. */
static void advance_contig(struct master *m, struct slave_rec *s)
{
	while (s->contig < m->ph.cur->ph.intervals && s->got[s->contig])
		s->contig++;
}

/*
 * An implausible interval: never merged, counted, logged once with its
 * reason, and acknowledged, so the slave does not send it again. The slave
 * is suspect from then on and the run ends degraded.
 */
static void reject_interval(struct master *m, struct slave_rec *s,
			    const struct proto_interval *iv, const char *why)
{
	s->rejected++;
	s->suspect = 1;
	m->fact.suspect++;
	log_limited("implausible interval", LOG_WARN,
		    "slave %s: interval %u of %s rejected, not counted: %s; the slave is suspect and the run is degraded",
		    s->hello.name, iv->seq + 1, m->ph.cur->ph.name, why);
	if (s->contig == s->acked)
		s->ack_wait = s->last_rx;
	s->got[iv->seq] = GOT_REJECTED;
	advance_contig(m, s);
	link_ack(m, s, 1, s->last_rx);
}

static void on_interval(struct master *m, struct slave_rec *s,
			const struct proto_interval *iv)
{
	struct merge_sample smp;
	uint64_t cpu_avail;
	char why[512];
	int ret;

	if (!m->ph.merge || iv->phase != m->ph.phase_no ||
	    iv->seq >= m->ph.cur->ph.intervals) {
		struct proto_msg a = { .type = PROTO_ACK };

		/* Too late for its phase: acknowledge it so it is not re-sent. */
		log_debug("interval %u of phase %u from %s ignored", iv->seq,
			  iv->phase, s->hello.name);
		a.u.ack.phase = iv->phase;
		a.u.ack.seq = iv->seq;
		link_send(m, s, &a);
		return;
	}
	if (s->rejoin == REJOIN_RESUME)
		m->link.up.resume(m, s); /* its phase went on: it is back in */
	if (s->got[iv->seq] == GOT_REJECTED) {
		link_ack(m, s, 1, s->last_rx); /* judged already: not again */
		return;
	}
	cpu_avail = m->ph.cur->ph.interval_ns * s->hello.cores;
	if (plausible_interval(&s->pplan, iv, why, sizeof(why)) < 0) {
		reject_interval(m, s, iv, why);
		return;
	}
	memset(&smp, 0, sizeof(smp));
	smp.slave = (unsigned)(s - m->roster.slaves);
	smp.seq = iv->seq;
	for (int d = 0; d < 2; d++) {
		smp.ops[d] = iv->ops[d];
		smp.bytes[d] = iv->bytes[d];
		smp.lat[d] = &iv->lat[d];
	}
	smp.lat_valid = 1; /* proto_decode() checked the buckets */
	/* A file-system phase's operations other than read and write. */
	smp.nfsops = iv->nfsops;
	smp.fsops = iv->fsops;
	smp.errors = iv->errors;
	smp.cpu_user_ns = iv->cpu_user_ns;
	smp.cpu_sys_ns = iv->cpu_sys_ns;
	smp.cpu_avail_ns = cpu_avail;
	ret = merge_add(m->ph.merge, &smp);
	if (ret == -EINVAL) {
		/* Plausible alone, but the merge refused it (it said why). */
		reject_interval(m, s, iv,
				"the merge refused it: a total would wrap with it");
		return;
	}
	if (ret < 0)
		return; /* -ENOMEM, logged by the merge */
	if (iv->first_io_ns && !s->first_io)
		s->first_io = iv->first_io_ns;
	if (!s->got[iv->seq]) {
		if (s->contig == s->acked)
			s->ack_wait = s->last_rx; /* on_frame() just set it */
		s->got[iv->seq] = 1;
		advance_contig(m, s);
	}
	link_ack(m, s, ret == MERGE_DUPLICATE, s->last_rx);
	if (ret == MERGE_DUPLICATE)
		return;
	/* A file-system phase's steadiness is of all its operations. */
	warmup_sample(m, smp.slave, iv->seq, plausible_ops(iv));
	if (ret == MERGE_LATE)
		log_warn("slave %s: interval %u arrived after its cluster line was written; it is counted in the run totals and written as a late row",
			 s->hello.name, iv->seq + 1);
	results_slave_row(&m->view, s, iv,
			  iv->seq < m->ph.cur->ph.warmup_intervals ? "warmup" :
								     "measure",
			  ret == MERGE_LATE);
}

/*
 * A slave says force=yes lets it overwrite a signature: one console line
 * and one summary.json entry per (slave, sd, signature). An sd this run
 * does not have is a peer's invention: logged, never recorded.
 */
static void on_forced(struct master *m, const struct slave_rec *s,
		      const struct proto_forced *f)
{
	const struct params_sd *sd = NULL;
	struct forced_rec *r;

	for (size_t i = 0; i < m->params->nsd && !sd; i++)
		if (!strcmp(m->params->sd[i].name, f->sd))
			sd = &m->params->sd[i];
	if (!sd || !sd->force) {
		log_warn("slave %s says force=yes overwrites a %s signature on sd %s, which has no force=yes in this run: ignored",
			 s->hello.name, f->signature, f->sd);
		return;
	}
	for (unsigned i = 0; i < m->out.nforced; i++)
		if (!strcmp(m->out.forced[i].slave, s->hello.name) &&
		    !strcmp(m->out.forced[i].sd, f->sd) &&
		    !strcmp(m->out.forced[i].signature, f->signature))
			return;
	r = realloc(m->out.forced, (m->out.nforced + 1) * sizeof(*r));
	if (!r) {
		log_error("out of memory recording force=yes on sd %s", f->sd);
		return;
	}
	m->out.forced = r;
	r = &m->out.forced[m->out.nforced++];
	snprintf(r->slave, sizeof(r->slave), "%s", s->hello.name);
	snprintf(r->sd, sizeof(r->sd), "%s", f->sd);
	snprintf(r->signature, sizeof(r->signature), "%s", f->signature);
	r->lun = sd->lun;
	log_warn("%s on slave %s: force=yes: overwriting %s %s signature on %s",
		 r->sd, r->slave,
		 strchr("aeiouAEIOU", r->signature[0]) ? "an" : "a",
		 r->signature, r->lun);
}

static void on_frame(struct master *m, const struct hub_peer *peer,
		     const void *buf, size_t len)
{
	struct slave_rec *s = roster_find_peer(&m->roster, peer);
	char err[256], text[LOG_ESC_LEN(PROTO_TEXT_LEN)];
	struct proto_msg msg;
	uint64_t held = 0;
	int ret;

	/* Past its budget: not even decoded. */
	if (s ? s->banned : budget_spent(m, peer))
		return;
	/*
	 * A routing id is the slave's own choice: a frame under a registered
	 * slave's id from a connection with another key is not from it. The
	 * one key check of a frame: a slave that registered with CURVE or on
	 * the local pair has a key (hub.c's ZAP handler admitted it), and
	 * every frame under its routing id must come with that key.
	 */
	if (s && s->peer.key[0] && strcmp(s->peer.key, peer->key) != 0) {
		count_invalid(m, NULL, peer);
		log_limited("wrong key", LOG_WARN,
			    "dropped a frame under the routing id of slave %s from another key",
			    s->hello.name);
		return;
	}
	ret = proto_decode(buf, len, &msg, err, sizeof(err));
	if (ret == -EPROTO) {
		/* Another version: say so and how to fix it, not "bad". */
		count_invalid(m, s, peer);
		log_limited("other protocol", LOG_WARN,
			    "refused %s: %s; this master is lockstep %s: %s",
			    s ? s->hello.name : "a peer",
			    log_escape(err, text, sizeof(text)),
			    LOCKSTEP_VERSION, LINK_SAME_VERSION);
		return;
	}
	if (ret < 0) {
		count_invalid(m, s, peer);
		log_limited("bad frame", LOG_WARN,
			    "dropped a bad frame (%zu bytes) from %s: %s", len,
			    s ? s->hello.name : "an unknown peer",
			    log_escape(err, text, sizeof(text)));
		return;
	}
	if (s) {
		s->last_rx = time_mono_ns();
		s->last_heard_real = time_real_ns();
	}
	if (msg.type == PROTO_HELLO) {
		on_hello(m, peer, &msg.u.hello);
		goto out;
	}
	if (!s) {
		count_invalid(m, NULL, peer);
		log_limited("unregistered", LOG_WARN,
			    "dropped %s from an unregistered peer",
			    proto_type_name(msg.type));
		goto out;
	}
	if (s->state != SLAVE_JOINED && msg.type != PROTO_BYE)
		roster_back(m, s, NULL, NULL);
	switch (msg.type) {
	case PROTO_PONG:
		s->pongs++;
		clockoff_add(&s->clk, msg.u.pong.t1, msg.u.pong.t2,
			     msg.u.pong.t3, m->link.rx_real);
		break;
	case PROTO_READY:
		if (msg.u.ready.phase != m->ph.phase_no)
			break;
		s->ready = 1;
		for (unsigned i = 0; i < msg.u.ready.nforced; i++)
			on_forced(m, s, &msg.u.ready.forced[i]);
		maxdata_ready(m, s, &msg.u.ready);
		break;
	case PROTO_ERROR:
		if (log_bucket_take(&s->logb, time_mono_ns(), &held))
			log_error("slave %s: %s%s", s->hello.name,
				  log_escape(msg.u.error.message, text,
					     sizeof(text)),
				  held ? " (and similar messages suppressed)" :
					 "");
		if (msg.u.error.phase == m->ph.phase_no)
			s->ready = -1;
		break;
	case PROTO_GO_ACK:
		if (msg.u.go_ack.phase == m->ph.phase_no)
			s->go_acked = 1;
		break;
	case PROTO_INTERVAL:
		on_interval(m, s, &msg.u.interval);
		break;
	case PROTO_PHASE_END:
		m->link.up.phase_end(m, s, &msg.u.phase_end);
		break;
	case PROTO_LOG:
		/* Each slave's messages through its own bucket. */
		if (!log_bucket_take(&s->logb, time_mono_ns(), &held))
			break;
		log_msg(msg.u.log.level <= LOG_ERROR ?
				(enum log_level)msg.u.log.level :
				LOG_ERROR,
			"slave %s: %s", s->hello.name,
			log_escape(msg.u.log.message, text, sizeof(text)));
		if (held)
			log_warn("slave %s: %llu similar messages suppressed",
				 s->hello.name, (unsigned long long)held);
		break;
	case PROTO_BYE:
		log_debug("slave %s left: %s", s->hello.name,
			  log_escape(msg.u.bye.reason, text, sizeof(text)));
		s->state = SLAVE_GONE;
		break;
	case PROTO_CMD_OUT:
		cmds_slave_out(&m->view, (unsigned)(s - m->roster.slaves),
			       &msg.u.cmd_out);
		break;
	case PROTO_CMD_END:
		cmds_slave_end(&m->view, (unsigned)(s - m->roster.slaves),
			       &msg.u.cmd_end);
		break;
	case PROTO_HEARTBEAT:
		break;
	default:
		count_invalid(m, s, peer);
		log_limited("unexpected type", LOG_WARN,
			    "unexpected %s from slave %s",
			    proto_type_name(msg.type), s->hello.name);
		break;
	}
out:
	proto_msg_free(&msg);
}

void link_liveness(void *arg, uint64_t now)
{
	struct master *m = arg;
	void *hb = NULL; /* one heartbeat frame, encoded once per pass */
	size_t hb_len = 0;
	int quiet;

	for (unsigned i = 0; i < m->roster.nslaves; i++) {
		struct slave_rec *s = &m->roster.slaves[i];
		char tod[32];

		if (s->state != SLAVE_JOINED)
			continue;
		/*
		 * Silent for QUIET_NS: the acks waiting go now and stand for
		 * the heartbeat, which goes only when nothing waits.
		 */
		quiet = now - s->last_tx >= QUIET_NS(m);
		link_ack(m, s, quiet, now);
		if (now - s->last_tx >= QUIET_NS(m)) {
			struct proto_msg msg = { .type = PROTO_HEARTBEAT };

			if (!hb) {
				msg.u.heartbeat.now_ns = time_real_ns();
				if (proto_encode(&msg, &hb, &hb_len) < 0)
					hb = NULL;
			}
			if (hb)
				send_frame(m, s, &msg, hb, hb_len);
		}
		/* Liveness is judged only while intervals are due. */
		if (!m->ph.merge || !s->in_phase ||
		    now - s->last_rx <= m->opt->slave_timeout_ns)
			continue;
		roster_mark_lost(m, s);
		time_fmt_tod(s->last_heard_real, tod, sizeof(tod));
		if (s->loss_expected) {
			log_warn("slave %s lost: nothing heard for %.1f s (last at %s); expected by event %s, the run goes on without it",
				 s->hello.name,
				 (double)(now - s->last_rx) / 1e9, tod,
				 s->loss_expected);
			continue;
		}
		log_warn("slave %s lost: nothing heard for %.1f s (last at %s); %s",
			 s->hello.name, (double)(now - s->last_rx) / 1e9, tod,
			 m->opt->abort_on_loss ?
				 "aborting the run (--on-slave-loss=abort)" :
				 "the run goes on without it");
		if (m->opt->abort_on_loss)
			m->fact.stop_run = 1;
	}
	free(hb);
}

int link_add_ticker(struct link_state *l, link_tick_fn fn, void *arg,
		    uint64_t period_ns)
{
	if (l->ntick >= LINK_TICKERS)
		return -ENOSPC;
	l->tick[l->ntick++] = (struct link_ticker){ fn, arg, period_ns, 0 };
	return 0;
}

int link_pump(struct master *m, long timeout_ms)
{
	struct hub_peer peer;
	const void *buf;
	size_t len;
	uint64_t now;
	int ret = hub_wait(m->link.hub, timeout_ms);

	if (ret < 0)
		return ret;
	if (ret > 0 && m->link.batch_ns)
		time_sleep_ns(m->link.batch_ns);
	for (int n = 0; n < 10000; n++) {
		ret = hub_recv(m->link.hub, &peer, &buf, &len);
		if (ret == -EAGAIN)
			break;
		/* A pong's t4: before decoding it, as t1 is before encoding. */
		m->link.rx_real = time_real_ns();
		if (ret == -EBADMSG) {
			if (peer.len <= HUB_PEER_MAX && !budget_spent(m, &peer))
				count_invalid(m,
					      roster_find_peer(&m->roster,
							       &peer),
					      &peer);
			log_limited("multi-part", LOG_WARN,
				    "dropped a malformed multi-part frame");
			continue;
		}
		if (ret < 0)
			return ret;
		on_frame(m, &peer, buf, len);
	}
	now = time_mono_ns();
	for (unsigned i = 0; i < m->link.ntick; i++) {
		struct link_ticker *t = &m->link.tick[i];

		if (t->period_ns && now - t->last < t->period_ns)
			continue;
		t->last = now;
		t->fn(t->arg, now);
	}
	if (m->fact.stop_run)
		return -ECANCELED;
	return run_interrupted ? -EINTR : 0;
}
