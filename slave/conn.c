/*
 * ZeroMQ transport for the slave: DEALER to the master's ROUTER, SUB to its
 * PUB. See conn.h.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zmq.h>
#include "common/log.h"
#include "common/timeutil.h"
#include "slave/conn.h"
#include "proto/proto.h"

#define FAIL_RELOG_S 60 /* the same handshake failure: again after 60 s */
#define REDO_MIN_NS (100 * NS_PER_MS)
#define REDO_MAX_NS (2000 * NS_PER_MS) /* = ZMQ_RECONNECT_IVL_MAX */

enum { SOCK_DEALER, SOCK_SUB, SOCK_N };

/*
 * One of the two sockets, with the monitor that reports its handshakes.
 * libzmq ends a connecting session for good after a protocol error in the
 * handshake (a peer with another mechanism, e.g. a plain ROUTER on a keyed
 * master's port: libzmq PR #1043, "Don't reconnect on protocol errors"),
 * so a failed handshake makes us close the socket and open a new one
 * after a backoff (redo_at), instead of trusting libzmq to retry.
 */
struct csock {
	void *sock;
	void *mon;        /* PAIR: the socket's handshake events */
	unsigned gen;     /* sockets opened, for a fresh monitor endpoint */
	uint64_t redo_at; /* CLOCK_MONOTONIC ns to re-open, 0 none */
	uint64_t backoff;
};

struct conn {
	void *ctx;
	struct csock s[SOCK_N];
	int curve;
	char secret[41], public[41], server[41];
	char id[64];
	char ep[SOCK_N][512]; /* the ROUTER's and the PUB's endpoints */
	char endpoint[256];
	char server_from[300]; /* "the key in FILE", for messages */
	unsigned failed;       /* the failure last logged, 0 none */
	time_t failed_at;
};

/* Make sock a CURVE client of the master. */
static int curve_client(void *sock, const struct conn *c)
{
	if (zmq_setsockopt(sock, ZMQ_CURVE_SERVERKEY, c->server, 40) < 0 ||
	    zmq_setsockopt(sock, ZMQ_CURVE_PUBLICKEY, c->public, 40) < 0 ||
	    zmq_setsockopt(sock, ZMQ_CURVE_SECRETKEY, c->secret, 40) < 0)
		return -zmq_errno();
	return 0;
}

/*
 * Watch a socket's handshakes: CURVE failures are otherwise silent, the
 * operator must learn that this master is not the one whose key we were
 * given, or that it refused our key, and a failure ends the session (see
 * struct csock). Each socket generation gets its own inproc endpoint: the
 * previous one may still be unbinding.
 */
static int start_monitor(struct conn *c, int which)
{
	struct csock *k = &c->s[which];
	char ep[64];
	int zero = 0;

	snprintf(ep, sizeof(ep), "inproc://lockstep-conn-monitor-%d-%u", which,
		 k->gen);
	if (zmq_socket_monitor(k->sock, ep,
			       ZMQ_EVENT_HANDSHAKE_SUCCEEDED |
				       ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL |
				       ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL |
				       ZMQ_EVENT_HANDSHAKE_FAILED_AUTH) < 0)
		return -zmq_errno();
	k->mon = zmq_socket(c->ctx, ZMQ_PAIR);
	if (!k->mon)
		return -zmq_errno();
	zmq_setsockopt(k->mon, ZMQ_LINGER, &zero, sizeof(zero));
	if (zmq_connect(k->mon, ep) < 0)
		return -zmq_errno();
	return 0;
}

/*
 * What a master (or whoever answers on its address) can make a slave
 * hold: a frame larger than the largest legal plan closes the connection
 * before its body is buffered, and the SUB, which only ever receives the
 * go broadcast, takes no frame larger than PROTO_MAX_SMALL.
 */
static void sock_limits(void *sock, int which)
{
	int64_t max = which == SOCK_DEALER ? PROTO_MAX_TO_SLAVE :
					     PROTO_MAX_SMALL;

	zmq_setsockopt(sock, ZMQ_MAXMSGSIZE, &max, sizeof(max));
}

/* Close one socket and its monitor (linger_ms for unsent frames). */
static void sock_close(struct csock *k, int linger_ms)
{
	if (k->sock) {
		zmq_socket_monitor(k->sock, NULL, 0);
		zmq_setsockopt(k->sock, ZMQ_LINGER, &linger_ms,
			       sizeof(linger_ms));
		zmq_close(k->sock);
		k->sock = NULL;
	}
	if (k->mon) {
		zmq_close(k->mon);
		k->mon = NULL;
	}
}

/* Open, set up and connect socket which. 0 or -errno. */
static int sock_open(struct conn *c, int which)
{
	struct csock *k = &c->s[which];
	int zero = 0, one = 1, ivl = 100,
	    ivl_max = (int)(REDO_MAX_NS / NS_PER_MS);
	int ret;

	k->gen++;
	k->sock = zmq_socket(c->ctx,
			     which == SOCK_DEALER ? ZMQ_DEALER : ZMQ_SUB);
	if (!k->sock)
		return -zmq_errno();
	zmq_setsockopt(k->sock, ZMQ_LINGER, &zero, sizeof(zero));
	zmq_setsockopt(k->sock, ZMQ_RECONNECT_IVL, &ivl, sizeof(ivl));
	zmq_setsockopt(k->sock, ZMQ_RECONNECT_IVL_MAX, &ivl_max,
		       sizeof(ivl_max));
	if (which == SOCK_DEALER) {
		zmq_setsockopt(k->sock, ZMQ_ROUTING_ID, c->id, strlen(c->id));
		zmq_setsockopt(k->sock, ZMQ_IMMEDIATE, &one, sizeof(one));
	} else {
		zmq_setsockopt(k->sock, ZMQ_SUBSCRIBE, "", 0);
	}
	sock_limits(k->sock, which);
	if (c->curve && (ret = curve_client(k->sock, c)) < 0)
		return ret;
	if ((ret = start_monitor(c, which)) < 0)
		return ret;
	if (zmq_connect(k->sock, c->ep[which]) < 0)
		return -zmq_errno();
	return 0;
}

/* Say what one DEALER handshake event means, once per streak of failures. */
static void on_event(struct conn *c, unsigned ev)
{
	time_t now = time(NULL);

	if (ev == ZMQ_EVENT_HANDSHAKE_SUCCEEDED) {
		if (c->failed)
			log_info("the master at %s %s; connected", c->endpoint,
				 c->curve ? "proved its key" : "answered");
		c->failed = 0;
		return;
	}
	/* Any failure but a refusal of our key is one kind of streak. */
	if (ev != ZMQ_EVENT_HANDSHAKE_FAILED_AUTH)
		ev = ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL;
	if (ev == c->failed && now - c->failed_at < FAIL_RELOG_S) {
		log_debug("handshake with %s failed again", c->endpoint);
		return;
	}
	c->failed = ev;
	c->failed_at = now;
	if (ev == ZMQ_EVENT_HANDSHAKE_FAILED_AUTH)
		log_warn("the master at %s refused this slave's key (is its .pub in the master's --authorized-slaves?); still trying",
			 c->endpoint);
	else if (c->curve)
		log_warn("the master at %s did not prove %s (another master, or the wrong --master-key); refused, still waiting for the right master",
			 c->endpoint, c->server_from);
	else
		log_warn("the handshake with the master at %s failed: it may require keys (--key and --master-key); still trying",
			 c->endpoint);
}

/*
 * A handshake on socket which ended: on success forget the backoff, on a
 * failure schedule a fresh socket (100 ms, doubling to 2 s while the
 * failures go on).
 */
static void on_sock_event(struct conn *c, int which, unsigned ev)
{
	struct csock *k = &c->s[which];

	if (which == SOCK_DEALER)
		on_event(c, ev);
	if (ev == ZMQ_EVENT_HANDSHAKE_SUCCEEDED) {
		k->backoff = 0;
		k->redo_at = 0;
		return;
	}
	if (k->redo_at)
		return;
	k->backoff = k->backoff ? k->backoff * 2 : REDO_MIN_NS;
	if (k->backoff > REDO_MAX_NS)
		k->backoff = REDO_MAX_NS;
	k->redo_at = time_mono_ns() + k->backoff;
}

/* Read a monitor's pending events (two frames each). */
static void drain_monitor(struct conn *c, int which)
{
	for (;;) {
		zmq_msg_t msg;
		uint16_t ev = 0;
		int more;

		zmq_msg_init(&msg);
		if (zmq_msg_recv(&msg, c->s[which].mon, ZMQ_DONTWAIT) < 0) {
			zmq_msg_close(&msg);
			return;
		}
		if (zmq_msg_size(&msg) >= 2)
			memcpy(&ev, zmq_msg_data(&msg), 2);
		more = zmq_msg_more(&msg);
		while (more) {
			zmq_msg_close(&msg);
			zmq_msg_init(&msg);
			if (zmq_msg_recv(&msg, c->s[which].mon, ZMQ_DONTWAIT) <
			    0)
				break;
			more = zmq_msg_more(&msg);
		}
		zmq_msg_close(&msg);
		on_sock_event(c, which, ev);
	}
}

/*
 * Re-open the sockets whose backoff is over. A socket that cannot be
 * re-opened (out of descriptors) is tried again after the longest
 * backoff.
 */
static void redo_due(struct conn *c, uint64_t now)
{
	for (int i = 0; i < SOCK_N; i++) {
		struct csock *k = &c->s[i];
		int ret;

		if (!k->redo_at || now < k->redo_at)
			continue;
		sock_close(k, 0);
		k->redo_at = 0;
		ret = sock_open(c, i);
		if (ret < 0) {
			log_limited("conn-redo", LOG_WARN,
				    "cannot re-open the connection to %s: %s",
				    c->endpoint, zmq_strerror(-ret));
			sock_close(k, 0);
			k->redo_at = now + REDO_MAX_NS;
		} else {
			log_debug("new %s socket for %s",
				  i == SOCK_DEALER ? "DEALER" : "SUB",
				  c->endpoint);
		}
	}
}

int conn_endpoints(const char *ep, char *dealer, char *sub, size_t len)
{
	const char *hp = strncmp(ep, "tcp://", 6) == 0 ? ep + 6 : ep;
	const char *colon = strrchr(hp, ':');
	char *end;
	long port;

	if (!colon || colon == hp)
		return -EINVAL;
	errno = 0;
	port = strtol(colon + 1, &end, 10);
	if (errno || *end || port < 1 || port > 65534)
		return -EINVAL;
	snprintf(dealer, len, "tcp://%.*s:%ld", (int)(colon - hp), hp, port);
	snprintf(sub, len, "tcp://%.*s:%ld", (int)(colon - hp), hp, port + 1);
	return 0;
}

int conn_open(const char *endpoint, const char *id,
	      const struct conn_curve *curve, struct conn **cp, char *err,
	      size_t errlen)
{
	struct conn *c;
	int ret;

	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	if (conn_endpoints(endpoint, c->ep[SOCK_DEALER], c->ep[SOCK_SUB],
			   sizeof(c->ep[0])) < 0) {
		snprintf(err, errlen,
			 "bad master endpoint '%s' (want tcp://HOST:PORT)",
			 endpoint);
		free(c);
		return -EINVAL;
	}
	snprintf(c->endpoint, sizeof(c->endpoint), "%s", endpoint);
	snprintf(c->id, sizeof(c->id), "%s", id);
	if (curve) {
		c->curve = 1;
		snprintf(c->server_from, sizeof(c->server_from), "%s",
			 curve->server_from);
		if (!zmq_has("curve")) {
			snprintf(err, errlen,
				 "this libzmq has no CURVE support");
			conn_close(&c, 0);
			return -ENOTSUP;
		}
		/* Kept for the sockets re-opened after a failed handshake. */
		snprintf(c->secret, sizeof(c->secret), "%s", curve->secret);
		snprintf(c->public, sizeof(c->public), "%s", curve->public);
		snprintf(c->server, sizeof(c->server), "%s", curve->server);
	}
	c->ctx = zmq_ctx_new();
	if (!c->ctx) {
		ret = -zmq_errno();
		goto fail;
	}
	if ((ret = sock_open(c, SOCK_DEALER)) < 0 ||
	    (ret = sock_open(c, SOCK_SUB)) < 0)
		goto fail;
	*cp = c;
	return 0;
fail:
	snprintf(err, errlen, "cannot connect to %s: %s", endpoint,
		 zmq_strerror(-ret));
	conn_close(&c, 0);
	return -EIO;
}

int conn_send(struct conn *c, const void *buf, size_t len)
{
	if (!c->s[SOCK_DEALER].sock)
		return -EAGAIN;
	if (zmq_send(c->s[SOCK_DEALER].sock, buf, len, ZMQ_DONTWAIT) < 0)
		return -zmq_errno();
	return 0;
}

int conn_wait(struct conn *c, int fd, long timeout_ms)
{
	zmq_pollitem_t items[5];
	int n = 0, idx[5], mask = 0;
	uint64_t now = time_mono_ns();

	/* Wake up for the next socket to re-open. */
	for (int i = 0; i < SOCK_N; i++) {
		uint64_t at = c->s[i].redo_at;
		long ms;

		if (!at)
			continue;
		ms = at > now ? (long)((at - now) / NS_PER_MS) + 1 : 0;
		if (timeout_ms < 0 || ms < timeout_ms)
			timeout_ms = ms;
	}
	for (int i = 0; i < SOCK_N; i++) {
		if (c->s[i].sock) {
			items[n] = (zmq_pollitem_t){ c->s[i].sock, 0,
						     ZMQ_POLLIN, 0 };
			idx[n++] = i;
		}
		if (c->s[i].mon) {
			items[n] = (zmq_pollitem_t){ c->s[i].mon, 0, ZMQ_POLLIN,
						     0 };
			idx[n++] = SOCK_N + i;
		}
	}
	if (fd >= 0) {
		items[n] = (zmq_pollitem_t){ NULL, fd, ZMQ_POLLIN, 0 };
		idx[n++] = 2 * SOCK_N;
	}
	if (zmq_poll(items, n, timeout_ms) < 0)
		return zmq_errno() == EINTR ? 0 : -zmq_errno();
	for (int i = 0; i < n; i++) {
		if (!(items[i].revents & ZMQ_POLLIN))
			continue;
		if (idx[i] == SOCK_DEALER)
			mask |= CONN_DEALER;
		else if (idx[i] == SOCK_SUB)
			mask |= CONN_SUB;
		else if (idx[i] == 2 * SOCK_N)
			mask |= CONN_FD;
		else
			drain_monitor(c, idx[i] - SOCK_N);
	}
	redo_due(c, time_mono_ns());
	/* A socket just re-opened has nothing to read yet. */
	if (!c->s[SOCK_DEALER].sock)
		mask &= ~CONN_DEALER;
	if (!c->s[SOCK_SUB].sock)
		mask &= ~CONN_SUB;
	return mask;
}

int conn_recv(struct conn *c, int which, void **buf, size_t *len)
{
	void *sock = c->s[which == CONN_SUB ? SOCK_SUB : SOCK_DEALER].sock;
	zmq_msg_t msg;
	int ret;

	if (!sock)
		return -EAGAIN;
	zmq_msg_init(&msg);
	if (zmq_msg_recv(&msg, sock, ZMQ_DONTWAIT) < 0) {
		ret = -zmq_errno();
		zmq_msg_close(&msg);
		return ret;
	}
	*len = zmq_msg_size(&msg);
	*buf = malloc(*len ? *len : 1);
	if (!*buf) {
		zmq_msg_close(&msg);
		return -ENOMEM;
	}
	memcpy(*buf, zmq_msg_data(&msg), *len);
	/* A frame with more parts following is not ours: drop the rest. */
	while (zmq_msg_more(&msg)) {
		zmq_msg_close(&msg);
		zmq_msg_init(&msg);
		if (zmq_msg_recv(&msg, sock, ZMQ_DONTWAIT) < 0)
			break;
	}
	zmq_msg_close(&msg);
	return 0;
}

void conn_close(struct conn **cp, int linger_ms)
{
	struct conn *c = *cp;

	if (!c)
		return;
	sock_close(&c->s[SOCK_DEALER], linger_ms);
	sock_close(&c->s[SOCK_SUB], 0);
	if (c->ctx)
		zmq_ctx_term(c->ctx);
	explicit_bzero(c->secret, sizeof(c->secret));
	free(c);
	*cp = NULL;
}
