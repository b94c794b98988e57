/*
 * The master's link to its slaves: frames out (send, stop, acks,
 * heartbeats) and frames in (hello, intervals into the merge, ready, go
 * acks, phase ends, logs), the judgement of silent slaves, and
 * link_pump(), which every waiting loop of the conductor calls to move
 * all of it along. Sockets are hub.c's; this file speaks the protocol.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/exitcode.h"
#include "common/log.h"
#include "master/params/params.h"
#include "common/timeutil.h"
#include "master/master_int.h"

/* Send msg, already encoded as buf. */
static int send_frame(struct master *m, struct slave_rec *s,
		      const struct proto_msg *msg, const void *buf, size_t len)
{
	int ret = hub_send(m->hub, &s->peer, buf, len);

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

void link_stop_all(struct master *m, enum proto_type type,
		     const char *reason)
{
	for (unsigned i = 0; i < m->nslaves; i++)
		if (m->slaves[i].state == SLAVE_JOINED)
			send_text(m, &m->slaves[i], type, reason);
}

/* Whether the slave's hello lists the engine the run uses. */
static int has_engine(const struct proto_hello *h, const char *engine)
{
	for (uint32_t i = 0; i < h->nengines && i < PROTO_MAX_ENGINES; i++)
		if (strcmp(h->engines[i], engine) == 0)
			return 1;
	return 0;
}

/* The hello's engines as "a, b", or "none". Returns buf. */
static const char *engine_list(const struct proto_hello *h, char *buf,
			       size_t len)
{
	size_t used = 0;

	snprintf(buf, len, "none");
	for (uint32_t i = 0; i < h->nengines && i < PROTO_MAX_ENGINES &&
			     used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i ? ", " : "", h->engines[i]);
	return buf;
}

static void on_hello(struct master *m, const struct hub_peer *peer,
		     const struct proto_hello *h)
{
	struct proto_msg w = { .type = PROTO_WELCOME };
	struct slave_rec *s;

	/*
	 * With CURVE, the key the peer proved decides the names it may use
	 * (keys.h): a launched slave's name belongs to its per-run key, and
	 * a listed key with names gets only those. The key is never logged.
	 */
	if (m->curve && !keys_name_allowed(&m->auth, peer->key, h->name)) {
		log_warn("slave %s (pid %u on %s) refused: the key it proved is not authorized for that name",
			 h->name, h->pid, h->host);
		return;
	}
	/* A slave we started here is that process, and no other pid. */
	for (unsigned i = 0; i < m->launch.n; i++) {
		const struct launch_proc *p = &m->launch.p[i];

		if (p->pid > 0 && strcmp(p->host, "localhost") == 0 &&
		    strcmp(p->name, h->name) == 0 && (pid_t)h->pid != p->pid) {
			log_warn("slave %s (pid %u on %s) refused: this master started %s as pid %d",
				 h->name, h->pid, h->host, p->name,
				 (int)p->pid);
			return;
		}
	}
	s = roster_find_peer(m, peer);

	if (!s)
		s = roster_find_name(m, h->name);
	if (s && (s->state != SLAVE_JOINED || strcmp(s->hello.id, h->id) ||
		  s->peer.len != peer->len ||
		  memcmp(s->peer.id, peer->id, peer->len))) {
		roster_back(m, s, peer, h);
	} else if (!s) {
		if (!m->registering) {
			log_warn("slave %s (pid %u on %s) refused: the run has started and it is not one of its slaves",
				 h->name, h->pid, h->host);
			return;
		}
		if (m->params->nhd && roster_hd_of_name(m, h->name) < 0) {
			log_warn("slave %s (pid %u on %s) refused: no hd= line names it",
				 h->name, h->pid, h->host);
			return;
		}
		if (!has_engine(h, m->engine)) {
			char have[PROTO_MAX_ENGINES * (PROTO_NAME_LEN + 2) + 8];

			log_error("slave %s (pid %u on %s) refused: it has no engine %s (it has: %s)",
				  h->name, h->pid, h->host, m->engine,
				  engine_list(h, have, sizeof(have)));
			return;
		}
		s = roster_add(m, peer, h);
		if (!s) {
			log_warn("slave %s refused: %d slaves at most", h->name,
				 MAX_SLAVES);
			return;
		}
		results_open_slave(m, s);
		log_info("slave %s registered (host %s, pid %u, %u cores)",
			 h->name, h->host, h->pid, h->cores);
	}
	snprintf(w.u.welcome.run_id, sizeof(w.u.welcome.run_id), "%s",
		 m->run_id);
	w.u.welcome.slave_index = (uint32_t)(s - m->slaves);
	w.u.welcome.heartbeat_ns = m->heartbeat_ns;
	w.u.welcome.master_timeout_ns = m->master_timeout_ns;
	link_send(m, s, &w);
}

/*
 * Acknowledge what a slave sent: one ack covers every interval up to the
 * highest contiguous one, so it goes out once two are waiting, at once for
 * a re-sent interval (urgent), or ACK_DELAY_NS after the first one waiting
 * arrived. Slaves re-send only what waited longer than that (3 s).
 */
void link_ack(struct master *m, struct slave_rec *s, int urgent,
			  uint64_t now)
{
	struct proto_msg a = { .type = PROTO_ACK };

	if (s->contig <= s->acked)
		return;
	if (!urgent && s->contig - s->acked < 2 &&
	    now - s->ack_wait < ACK_DELAY_NS)
		return;
	a.u.ack.phase = m->phase_no;
	a.u.ack.seq = s->contig - 1;
	if (link_send(m, s, &a) == 0)
		s->acked = s->contig;
}

static void on_interval(struct master *m, struct slave_rec *s,
			const struct proto_interval *iv)
{
	struct merge_sample smp;
	int ret;

	if (!m->merge || iv->phase != m->phase_no ||
	    iv->seq >= m->cur->ph.intervals) {
		struct proto_msg a = { .type = PROTO_ACK };

		/* Too late for its phase: acknowledge it so it is not re-sent. */
		log_debug("interval %u of phase %u from %s ignored", iv->seq,
			  iv->phase, s->hello.name);
		a.u.ack.phase = iv->phase;
		a.u.ack.seq = iv->seq;
		link_send(m, s, &a);
		return;
	}
	memset(&smp, 0, sizeof(smp));
	smp.slave = (unsigned)(s - m->slaves);
	smp.seq = iv->seq;
	for (int d = 0; d < 2; d++) {
		smp.ops[d] = iv->ops[d];
		smp.bytes[d] = iv->bytes[d];
		smp.lat[d] = &iv->lat[d];
	}
	smp.lat_valid = 1; /* proto_decode() checked the buckets */
	smp.errors = iv->errors;
	smp.cpu_user_ns = iv->cpu_user_ns;
	smp.cpu_sys_ns = iv->cpu_sys_ns;
	smp.cpu_avail_ns = m->cur->ph.interval_ns * (iv->cores ? iv->cores : 1);
	ret = merge_add(m->merge, &smp);
	if (ret < 0)
		return; /* merge_add said why */
	if (iv->first_io_ns && !s->first_io)
		s->first_io = iv->first_io_ns;
	if (!s->got[iv->seq]) {
		if (s->contig == s->acked)
			s->ack_wait = s->last_rx; /* on_frame() just set it */
		s->got[iv->seq] = 1;
		while (s->contig < m->cur->ph.intervals && s->got[s->contig])
			s->contig++;
	}
	link_ack(m, s, ret == MERGE_DUPLICATE, s->last_rx);
	if (ret == MERGE_DUPLICATE)
		return;
	if (ret == MERGE_LATE)
		log_warn("slave %s: interval %u arrived after its cluster line was written; it is counted in the run totals and written as a late row",
			 s->hello.name, iv->seq + 1);
	results_slave_row(m, s, iv,
		      iv->seq < m->cur->ph.warmup_intervals ? "warmup" :
							       "measure",
		      ret == MERGE_LATE);
}

static void on_frame(struct master *m, const struct hub_peer *peer,
		     const void *buf, size_t len)
{
	struct slave_rec *s = roster_find_peer(m, peer);
	struct proto_msg msg;
	char err[256];
	int ret = proto_decode(buf, len, &msg, err, sizeof(err));

	if (ret < 0) {
		log_warn("dropped a bad frame (%zu bytes) from %s: %s", len,
			 s ? s->hello.name : "an unknown peer", err);
		return;
	}
	/*
	 * A routing id is the slave's own choice: a frame under a registered
	 * slave's id from a connection with another key is not from it.
	 */
	if (s && m->curve && strcmp(s->peer.key, peer->key) != 0 &&
	    msg.type != PROTO_HELLO) {
		log_warn("dropped %s under the routing id of slave %s: sent with another key",
			 proto_type_name(msg.type), s->hello.name);
		goto out;
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
		log_warn("dropped %s from an unregistered peer",
			 proto_type_name(msg.type));
		goto out;
	}
	if (s->state != SLAVE_JOINED && msg.type != PROTO_BYE)
		roster_back(m, s, NULL, NULL);
	switch (msg.type) {
	case PROTO_PONG:
		clockoff_add(&s->clk, msg.u.pong.t1, msg.u.pong.t2,
			     msg.u.pong.t3, time_real_ns());
		break;
	case PROTO_READY:
		if (msg.u.ready.phase == m->phase_no)
			s->ready = 1;
		break;
	case PROTO_ERROR:
		log_error("slave %s: %s", s->hello.name, msg.u.error.message);
		if (msg.u.error.phase == m->phase_no)
			s->ready = -1;
		break;
	case PROTO_GO_ACK:
		if (msg.u.go_ack.phase == m->phase_no)
			s->go_acked = 1;
		break;
	case PROTO_INTERVAL:
		on_interval(m, s, &msg.u.interval);
		break;
	case PROTO_PHASE_END:
		if (msg.u.phase_end.phase == m->phase_no) {
			s->ended = 1;
			if (m->cur && time_real_ns() > m->cur->start_at)
				m->cur->duration_ns = time_real_ns() -
						      m->cur->start_at;
			s->end_intervals = msg.u.phase_end.intervals;
			/* Kept (taken from msg) until the run's totals. */
			roster_free_end_lat(s);
			memcpy(s->end_lat, msg.u.phase_end.lat,
			       sizeof(s->end_lat));
			memset(msg.u.phase_end.lat, 0,
			       sizeof(msg.u.phase_end.lat));
			if (msg.u.phase_end.first_io_ns && !s->first_io)
				s->first_io = msg.u.phase_end.first_io_ns;
			if (msg.u.phase_end.status < 0) {
				log_error("slave %s ended phase %u early (%s): the run stops",
					  s->hello.name, m->phase_no,
					  strerror(-msg.u.phase_end.status));
				m->stop_run = 1;
			}
		}
		break;
	case PROTO_LOG:
		log_msg(msg.u.log.level <= LOG_ERROR ?
				(enum log_level)msg.u.log.level : LOG_ERROR,
			"slave %s: %s", s->hello.name, msg.u.log.message);
		break;
	case PROTO_BYE:
		log_debug("slave %s left: %s", s->hello.name,
			  msg.u.bye.reason);
		s->state = SLAVE_GONE;
		break;
	case PROTO_HEARTBEAT:
		break;
	default:
		log_warn("unexpected %s from slave %s",
			 proto_type_name(msg.type), s->hello.name);
		break;
	}
out:
	proto_msg_free(&msg);
}

static void check_liveness(struct master *m)
{
	uint64_t now = time_mono_ns();
	void *hb = NULL; /* one heartbeat frame, encoded once per pass */
	size_t hb_len = 0;

	if (now - m->liveness_at < LIVENESS_NS)
		return;
	m->liveness_at = now;
	for (unsigned i = 0; i < m->nslaves; i++) {
		struct slave_rec *s = &m->slaves[i];
		char tod[32];

		if (s->state != SLAVE_JOINED)
			continue;
		link_ack(m, s, 0, now);
		if (now - s->last_tx >= m->heartbeat_ns) {
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
		if (!m->merge || !s->in_phase ||
		    now - s->last_rx <= m->slave_timeout_ns)
			continue;
		roster_mark_lost(m, s);
		time_fmt_tod(s->last_heard_real, tod, sizeof(tod));
		log_warn("slave %s lost: nothing heard for %.1f s (last at %s); %s",
			 s->hello.name, (double)(now - s->last_rx) / 1e9, tod,
			 m->abort_on_loss ? "aborting the run (--on-slave-loss=abort)" :
					    "the run goes on without it");
		if (m->abort_on_loss)
			m->stop_run = 1;
	}
	free(hb);
}

int link_pump(struct master *m, long timeout_ms)
{
	struct hub_peer peer;
	void *buf;
	size_t len;
	int ret = hub_wait(m->hub, timeout_ms);

	if (ret < 0)
		return ret;
	if (ret > 0 && m->batch_ns)
		time_sleep_ns(m->batch_ns);
	for (int n = 0; n < 10000; n++) {
		ret = hub_recv(m->hub, &peer, &buf, &len);
		if (ret == -EAGAIN)
			break;
		if (ret == -EBADMSG) {
			log_warn("dropped a malformed multi-part frame");
			continue;
		}
		if (ret < 0)
			return ret;
		on_frame(m, &peer, buf, len);
		free(buf);
	}
	check_liveness(m);
	results_flush_hosts(m, 0);
	if (m->stop_run)
		return -ECANCELED;
	return master_interrupted ? -EINTR : 0;
}
