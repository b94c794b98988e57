/*
 * The master's clock samples before each phase: pings over ZeroMQ (CURVE)
 * to every joined slave and, beside them, clock datagrams over UDP
 * (proto/clockdgram.h) whose arrival times the kernel stamps. Each path
 * gives an NTP-style offset with an error bound (common/clockoff.c); the
 * datagrams' bound is much smaller on a busy machine, because no thread
 * wake-up lies inside their round trip. A datagram is outside CURVE, so its
 * offset is used only where it agrees with the authenticated one (the two
 * intervals offset +- bound overlap): a forged datagram can at most move
 * the offset within what the CURVE samples already allow.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>
#include "common/timeutil.h"
#include "master/run/master_int.h"
#include "proto/clockdgram.h"

/* The run's datagram socket, opened at the first phase; -1 without one. */
static int clocks_socket(struct master *m)
{
	int fd;

	if (m->link.csock_state)
		return m->link.csock_state > 0 ? m->link.csock : -1;
	fd = clockdgram_socket(strcmp(m->opt->bind, "*") ? m->opt->bind : NULL,
			       0, 1);
	if (fd < 0 || !clockdgram_port(fd)) {
		log_info("no clock datagrams (UDP on %s: %s): clocks over ZeroMQ only",
			 m->opt->bind, strerror(fd < 0 ? -fd : EADDRNOTAVAIL));
		if (fd >= 0)
			close(fd);
		m->link.csock_state = -1;
		return -1;
	}
	m->link.csock = fd;
	m->link.csock_port = clockdgram_port(fd);
	m->link.csock_state = 1;
	return fd;
}

void clocks_close(struct master *m)
{
	if (m->link.csock_state > 0)
		close(m->link.csock);
	m->link.csock_state = 0;
}

/*
 * Take the datagrams waiting: a hello tells where slave i listens (its
 * nonce proves it came from the process that holds our CURVE channel's
 * ping), a pong from that address with that nonce is a sample.
 */
static void clocks_drain(struct master *m, int fd)
{
	unsigned char buf[CLOCKDGRAM_LEN + 1];
	struct sockaddr_storage from;
	struct clockdgram d;
	uint64_t rx;

	for (int n = 0; n < 100000; n++) {
		socklen_t fromlen = sizeof(from);
		int len = clockdgram_recv(fd, buf, sizeof(buf), &from, &fromlen,
					  &rx);
		struct slave_rec *s;

		if (len == -EAGAIN || len == -EWOULDBLOCK)
			break;
		if (len < 0)
			continue; /* an ICMP error of an earlier send */
		if (clockdgram_decode(buf, (size_t)len, &d) < 0 ||
		    d.slave >= m->roster.nslaves)
			continue;
		s = &m->roster.slaves[d.slave];
		if (s->state != SLAVE_JOINED || !s->cnonce ||
		    d.nonce != s->cnonce)
			continue;
		if (d.kind == CLOCKDGRAM_HELLO && !s->caddrlen) {
			memcpy(&s->caddr, &from, fromlen);
			s->caddrlen = fromlen;
		} else if (d.kind == CLOCKDGRAM_PONG && s->caddrlen &&
			   fromlen == s->caddrlen &&
			   memcmp(&from, &s->caddr, fromlen) == 0) {
			s->upongs++;
			clockoff_add(&s->uclk, d.t1, d.t2, d.t3, rx);
		}
	}
}

/* One ping, over ZeroMQ (udp 0) or as a datagram. */
static void clocks_ping(struct master *m, struct slave_rec *s, int fd, int udp,
			uint32_t seq)
{
	if (udp) {
		struct clockdgram d = { .kind = CLOCKDGRAM_PING,
					.slave = (uint32_t)(s -
							    m->roster.slaves),
					.nonce = s->cnonce,
					.seq = seq };
		unsigned char buf[CLOCKDGRAM_LEN];

		d.t1 = time_real_ns();
		clockdgram_encode(&d, buf);
		sendto(fd, buf, sizeof(buf), MSG_DONTWAIT,
		       (struct sockaddr *)&s->caddr, s->caddrlen);
	} else {
		struct proto_msg msg = { .type = PROTO_PING };

		msg.u.ping.seq = seq;
		msg.u.ping.udp_port = fd >= 0 ? m->link.csock_port : 0;
		msg.u.ping.nonce = fd >= 0 ? s->cnonce : 0;
		msg.u.ping.t1 = time_real_ns();
		link_send(m, s, &msg);
	}
}

/*
 * The offset a slave's plan gets: the datagrams' when they agree with the
 * CURVE samples (the true offset lies in both intervals), else the CURVE
 * samples'.
 */
static void clocks_choose(struct slave_rec *s)
{
	const struct clockoff *z = &s->clk, *u = &s->uclk;
	__int128 gap;

	s->clock_udp = 0;
	if (!u->samples || !z->samples || u->error_ns >= z->error_ns)
		return;
	gap = (__int128)u->offset_ns - z->offset_ns;
	if (gap < 0)
		gap = -gap;
	if (gap > (__int128)u->error_ns + z->error_ns) {
		log_warn("slave %s: clock datagrams say offset %lld ns +- %llu, the authenticated pings %lld ns +- %llu: datagrams ignored",
			 s->hello.name, (long long)u->offset_ns,
			 (unsigned long long)u->error_ns,
			 (long long)z->offset_ns,
			 (unsigned long long)z->error_ns);
		return;
	}
	s->clk = *u;
	s->clock_udp = 1;
}

/*
 * CLOCK_SAMPLES pings per slave and path, one in flight per slave and path
 * and CLOCK_GAP_NS apart, the slaves' first pings spread over one gap, so
 * that no ping waits behind another in a queue (which would only measure
 * the queue) and the samples of one slave meet different moments of the
 * schedulers on both sides. The smallest round trip wins (clockoff.c).
 */
int clocks_sync(struct master *m)
{
	uint64_t t0 = time_mono_ns(), deadline = t0 + 3 * NS_PER_SEC;
	struct decide_ping *p =
		calloc(2 * (size_t)(m->roster.nslaves ? m->roster.nslaves : 1),
		       sizeof(*p));
	int fd = clocks_socket(m);

	if (!p)
		return -ENOMEM;
	for (unsigned i = 0; i < m->roster.nslaves; i++) {
		struct slave_rec *s = &m->roster.slaves[i];

		clockoff_init(&s->clk);
		clockoff_init(&s->uclk);
		s->pongs = s->upongs = 0;
		s->caddrlen = 0;
		/* A fresh nonce per phase: old datagrams prove nothing. */
		if (getrandom(&s->cnonce, sizeof(s->cnonce), 0) !=
		    sizeof(s->cnonce))
			s->cnonce = 0;
		for (int k = 0; k < 2; k++) {
			p[2 * i + k].want = CLOCK_SAMPLES;
			/* A staggered start: sent_at + gap is the first. */
			p[2 * i + k].sent_at = t0 + CLOCK_GAP_NS * i /
							    m->roster.nslaves;
		}
	}
	for (;;) {
		unsigned busy = 0;

		if (fd >= 0)
			clocks_drain(m, fd);
		for (unsigned i = 0; i < m->roster.nslaves; i++) {
			struct slave_rec *s = &m->roster.slaves[i];

			if (s->state != SLAVE_JOINED)
				continue;
			for (int k = 0; k < 2; k++) {
				struct decide_ping *q = &p[2 * i + k];
				unsigned *pongs = k ? &s->upongs : &s->pongs;

				/* Datagrams once it told us where, if ever. */
				if (k && (fd < 0 || !s->caddrlen || !s->cnonce))
					continue;
				q->answered = *pongs >= q->sent;
				switch (decide_ping(q, time_mono_ns(),
						    CLOCK_GAP_NS,
						    CLOCK_PONG_WAIT_NS)) {
				case DECIDE_PING_DONE:
					continue;
				case DECIDE_PING_WAIT:
					break;
				case DECIDE_PING_SEND:
					/* A late pong of a given-up ping counts. */
					*pongs = q->sent;
					q->sent_at = time_mono_ns();
					clocks_ping(m, s, fd, k, q->sent++);
					break;
				}
				busy++;
			}
		}
		if (!busy || time_mono_ns() > deadline)
			break;
		if (link_pump(m, 1) < 0) {
			free(p);
			return -EINTR;
		}
	}
	free(p);
	for (unsigned i = 0; i < m->roster.nslaves; i++) {
		struct slave_rec *s = &m->roster.slaves[i];

		if (s->state != SLAVE_JOINED)
			continue;
		if (s->clk.samples == 0) {
			log_error("slave %s answered no clock ping",
				  s->hello.name);
			return -ETIMEDOUT;
		}
		clocks_choose(s);
		log_debug("slave %s clock offset %lld ns +- %llu ns (%u samples, %s)",
			  s->hello.name, (long long)s->clk.offset_ns,
			  (unsigned long long)s->clk.error_ns, s->clk.samples,
			  s->clock_udp ? "datagrams" : "ZeroMQ");
	}
	return 0;
}
