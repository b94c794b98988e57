/*
 * The session's link with the master: registration (hello until welcome),
 * clock pings, plans and go, acknowledgements, heartbeats, and the master
 * timeout. If the master falls silent past the timeout, the slave stops all
 * I/O at once: an orphaned slave never keeps hammering storage. See uplink.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uuid/uuid.h>
#include "common/exitcode.h"
#include "common/timeutil.h"
#include "slave/cmd.h"
#include "slave/conn.h"
#include "slave/engine.h"
#include "slave/fsval.h"
#include "slave/outbox.h"
#include "slave/uplink.h"
#include "slave/phase.h"
#include "lockstep_version.h"

#define HELLO_RETRY_NS (1 * NS_PER_SEC)
/*
 * Unacknowledged this long: re-send. Above master/'s ACK_DELAY_NS (4 s)
 * plus its liveness pass, or every interval would go twice.
 */
#define RESEND_NS (6 * NS_PER_SEC)
#define RESEND_BATCH 64

static void send_error(struct session *s, uint32_t phase, int code,
		       const char *text)
{
	struct proto_msg m = { .type = PROTO_ERROR };

	m.u.error.phase = phase;
	m.u.error.code = code;
	snprintf(m.u.error.message, sizeof(m.u.error.message), "%s", text);
	log_error("%s", text);
	outbox_send(s, &m);
}

static void on_plan(struct session *s, struct proto_plan *plan)
{
	char err[PROTO_TEXT_LEN] = "";
	uint32_t phase = plan->phase;
	int ret = phase_prepare(s, plan, err, sizeof(err));
	struct proto_msg m = { .type = PROTO_READY };

	if (ret < 0) {
		send_error(s, phase, ret, err);
		phase_reset(&s->ph);
		return;
	}
	m.u.ready.phase = phase;
	m.u.ready.nforced = s->ph.nforced;
	m.u.ready.forced = s->ph.forced; /* still the phase's */
	/*
	 * Each target's bytes, for the master's maxdata= as a multiple of
	 * the sds' size (the plan is the phase's now, phase_prepare moved it).
	 */
	plan = &s->ph.plan;
	m.u.ready.sizes = calloc(plan->ntargets ? plan->ntargets : 1,
				 sizeof(*m.u.ready.sizes));
	for (uint32_t t = 0; m.u.ready.sizes && t < plan->ntargets; t++) {
		struct proto_tsize *z = &m.u.ready.sizes[m.u.ready.nsizes];

		if (!s->ph.size[t] || s->ph.size[t] >= PROTO_MAX_SD_BYTES)
			continue;
		snprintf(z->sd, sizeof(z->sd), "%s", plan->targets[t].name);
		z->size = s->ph.size[t];
		m.u.ready.nsizes++;
	}
	outbox_send(s, &m);
	free(m.u.ready.sizes);
}

void uplink_over(struct session *s, const char *why, int code)
{
	if (s->welcomed) {
		struct proto_msg m = { .type = PROTO_BYE };

		snprintf(m.u.bye.reason, sizeof(m.u.bye.reason), "%s", why);
		outbox_send(s, &m);
	}
	phase_reset(&s->ph);
	cmd_stop(s);
	spool_free(&s->spool);
	valmap_free_all(&s->vmaps); /* the journals keep what must outlive */
	fsval_free_all(&s->fsvals);
	s->welcomed = 0;
	if (!s->daemon) {
		s->quit = 1;
		s->exit_code = code;
		return;
	}
	s->last_rx = 0;
	s->last_hello = 0;
	log_info("%s; waiting for a master at %s", why, s->endpoint);
}

static void handle(struct session *s, int which, const void *buf, size_t len)
{
	struct proto_msg m, r = { 0 };
	char err[PROTO_TEXT_LEN], esc[LOG_ESC_LEN(PROTO_TEXT_LEN)];
	int ret = proto_decode(buf, len, &m, err, sizeof(err));

	if (ret < 0) {
		char text[PROTO_TEXT_LEN];

		log_limited("bad frame", LOG_WARN,
			    "dropped a bad frame from the master: %s",
			    log_escape(err, esc, sizeof(esc)));
		/* The master waits for an answer to a plan: say no. */
		if (m.type == PROTO_PLAN && which == CONN_DEALER &&
		    s->welcomed) {
			snprintf(text, sizeof(text),
				 "plan of phase %u refused: this slave cannot decode it: %s",
				 m.u.plan.phase, esc);
			send_error(s, m.u.plan.phase, ret, text);
		}
		return;
	}
	if (which == CONN_DEALER)
		s->last_rx = time_mono_ns();
	switch (m.type) {
	case PROTO_WELCOME:
		s->welcomed = 1;
		s->tele_nsaid = 0; /* a run's telemetry warnings: once each */
		s->slave_index = m.u.welcome.slave_index;
		s->hb_ns = m.u.welcome.heartbeat_ns;
		s->master_timeout_ns = m.u.welcome.master_timeout_ns;
		log_debug("registered as slave %u of run %s",
			  m.u.welcome.slave_index,
			  log_escape(m.u.welcome.run_id, esc, sizeof(esc)));
		break;
	case PROTO_PING:
		r.type = PROTO_PONG;
		r.u.pong.seq = m.u.ping.seq;
		r.u.pong.t1 = m.u.ping.t1;
		r.u.pong.t2 = time_real_ns();
		r.u.pong.t3 = time_real_ns();
		outbox_send(s, &r);
		/* After the pong: its timing must not wait for this. */
		if (which == CONN_DEALER)
			clockresp_ping(&s->cresp, s->endpoint,
				       m.u.ping.udp_port, s->slave_index,
				       m.u.ping.nonce);
		break;
	case PROTO_PLAN:
		on_plan(s, &m.u.plan);
		break;
	case PROTO_GO:
		if (s->ph.active && m.u.go.phase == s->ph.plan.phase) {
			ret = phase_go(s, &m.u.go, err, sizeof(err));
			if (ret < 0) {
				/* The phase is over here: say so, never hang. */
				send_error(s, m.u.go.phase, ret, err);
				phase_reset(&s->ph);
				r.type = PROTO_PHASE_END;
				r.u.phase_end.phase = m.u.go.phase;
				r.u.phase_end.status = ret;
				outbox_send(s, &r);
				break;
			}
			r.type = PROTO_GO_ACK;
			r.u.go_ack.phase = m.u.go.phase;
			outbox_send(s, &r);
		}
		break;
	case PROTO_MEASURE:
		ret = phase_measure(s, &m.u.measure, err, sizeof(err));
		if (ret) {
			/* The master logs it under this slave's name. */
			log_warn("%s", err);
			outbox_log(s, ret < 0 ? LOG_ERROR : LOG_WARN, err);
		}
		break;
	case PROTO_ACK:
		spool_ack(&s->spool, m.u.ack.phase, m.u.ack.seq);
		break;
	case PROTO_STOP:
	case PROTO_ABORT:
		log_debug("master says %s: %s", proto_type_name(m.type),
			  log_escape(m.u.stop.reason, esc, sizeof(esc)));
		uplink_over(s, m.type == PROTO_STOP ? "stopped" : "aborted",
			    LS_EXIT_OK);
		break;
	case PROTO_CMD:
		if (which == CONN_DEALER && s->welcomed)
			cmd_start(s, &m.u.cmd);
		break;
	case PROTO_HEARTBEAT:
		break;
	default:
		log_debug("ignored %s from the master",
			  proto_type_name(m.type));
		break;
	}
	proto_msg_free(&m);
}

void uplink_drain(struct session *s, int which)
{
	void *buf;
	size_t len;

	while (!s->quit && conn_recv(s->conn, which, &buf, &len) == 0) {
		handle(s, which, buf, len);
		free(buf);
	}
}

void uplink_tick(struct session *s)
{
	uint64_t now = time_mono_ns();
	struct proto_msg m = { 0 };

	if (!s->welcomed) {
		if (now - s->last_hello >= HELLO_RETRY_NS) {
			m.type = PROTO_HELLO;
			m.u.hello = s->hello;
			outbox_send(s, &m);
			s->last_hello = now;
			if (!s->last_rx)
				s->last_rx = now;
		}
	} else {
		struct spool_item *it;

		for (int k = 0; k < RESEND_BATCH; k++) {
			it = spool_due(&s->spool, now, RESEND_NS);
			if (!it)
				break;
			if (conn_send(s->conn, it->buf, it->len) < 0)
				break;
			log_debug("re-sent interval %u of phase %u", it->seq,
				  it->phase);
			it->sent_ns = now;
		}
		/*
		 * While intervals flow they are the heartbeat: one sent a bit
		 * later than the last one plus hb_ns must not bring a
		 * heartbeat with it (a thousand slaves would double what the
		 * master receives), so in a phase silence must last a
		 * quarter longer.
		 */
		uint64_t quiet = s->hb_ns;

		if (s->ph.active && s->ph.next_send < s->ph.plan.intervals)
			quiet += s->hb_ns / 4;
		if (now - s->last_tx >= quiet) {
			m.type = PROTO_HEARTBEAT;
			m.u.heartbeat.now_ns = time_real_ns();
			outbox_send(s, &m);
		}
	}
	/* A daemon waits for a master as long as it takes. */
	if (s->last_rx && (s->welcomed || !s->daemon) &&
	    now - s->last_rx > s->master_timeout_ns) {
		log_error("no word from the master at %s for %.1f s: stopping all I/O",
			  s->endpoint, (double)(now - s->last_rx) / 1e9);
		uplink_over(s, "master timeout", LS_EXIT_ABORTED);
	}
}

void uplink_init(struct session *s, const char *name)
{
	uuid_t uu;
	char host[PROTO_HOST_LEN];
	const char *const *eng = engine_names();
	long cores = sysconf(_SC_NPROCESSORS_ONLN);

	uuid_generate(uu);
	uuid_unparse_lower(uu, s->hello.id);
	if (gethostname(host, sizeof(host)) < 0)
		snprintf(host, sizeof(host), "unknown");
	host[sizeof(host) - 1] = 0;
	snprintf(s->hello.host, sizeof(s->hello.host), "%s", host);
	if (name)
		snprintf(s->hello.name, sizeof(s->hello.name), "%s", name);
	else
		snprintf(s->hello.name, sizeof(s->hello.name), "%.40s-%d", host,
			 (int)getpid());
	s->hello.pid = (uint32_t)getpid();
	s->hello.cores = cores > 0 ? (uint32_t)cores : 1;
	snprintf(s->hello.version, sizeof(s->hello.version), "%s",
		 LOCKSTEP_VERSION);
	for (; *eng && s->hello.nengines < PROTO_MAX_ENGINES; eng++)
		snprintf(s->hello.engines[s->hello.nengines++], PROTO_NAME_LEN,
			 "%s", *eng);
	s->ph.efd = -1;
	s->cmd.fd = -1;
	s->hb_ns = NS_PER_SEC;
}
