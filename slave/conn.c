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
#include "slave/conn.h"
#include "proto/proto.h"

#define MONITOR_EP "inproc://lockstep-conn-monitor"
#define FAIL_RELOG_S 60 /* the same handshake failure: again after 60 s */

struct conn {
	void *ctx;
	void *dealer;
	void *sub;
	void *mon; /* PAIR: the DEALER's handshake events */
	int curve;
	char endpoint[256];
	char server_from[300]; /* "the key in FILE", for messages */
	unsigned failed;       /* the failure last logged, 0 none */
	time_t failed_at;
};

/* Make sock a CURVE client of the master. */
static int curve_client(void *sock, const struct conn_curve *c)
{
	if (zmq_setsockopt(sock, ZMQ_CURVE_SERVERKEY, c->server, 40) < 0 ||
	    zmq_setsockopt(sock, ZMQ_CURVE_PUBLICKEY, c->public, 40) < 0 ||
	    zmq_setsockopt(sock, ZMQ_CURVE_SECRETKEY, c->secret, 40) < 0)
		return -zmq_errno();
	return 0;
}

/*
 * Watch the DEALER's handshakes: CURVE failures are otherwise silent
 * (ZeroMQ just retries), and the operator must learn that this master is
 * not the one whose key we were given, or that it refused our key.
 */
static int start_monitor(struct conn *c)
{
	int zero = 0;

	if (zmq_socket_monitor(c->dealer, MONITOR_EP,
			       ZMQ_EVENT_HANDSHAKE_SUCCEEDED |
				       ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL |
				       ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL |
				       ZMQ_EVENT_HANDSHAKE_FAILED_AUTH) < 0)
		return -zmq_errno();
	c->mon = zmq_socket(c->ctx, ZMQ_PAIR);
	if (!c->mon)
		return -zmq_errno();
	zmq_setsockopt(c->mon, ZMQ_LINGER, &zero, sizeof(zero));
	if (zmq_connect(c->mon, MONITOR_EP) < 0)
		return -zmq_errno();
	return 0;
}

/* Say what one handshake event means, once per streak of failures. */
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

/* Read the monitor's pending events (two frames each). */
static void drain_monitor(struct conn *c)
{
	for (;;) {
		zmq_msg_t msg;
		uint16_t ev = 0;
		int more;

		zmq_msg_init(&msg);
		if (zmq_msg_recv(&msg, c->mon, ZMQ_DONTWAIT) < 0) {
			zmq_msg_close(&msg);
			return;
		}
		if (zmq_msg_size(&msg) >= 2)
			memcpy(&ev, zmq_msg_data(&msg), 2);
		more = zmq_msg_more(&msg);
		while (more) {
			zmq_msg_close(&msg);
			zmq_msg_init(&msg);
			if (zmq_msg_recv(&msg, c->mon, ZMQ_DONTWAIT) < 0)
				break;
			more = zmq_msg_more(&msg);
		}
		zmq_msg_close(&msg);
		on_event(c, ev);
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

/*
 * What a master (or whoever answers on its address) can make a slave
 * hold: a frame larger than the largest legal plan closes the connection
 * before its body is buffered, and the SUB, which only ever receives the
 * go broadcast, takes no frame larger than PROTO_MAX_SMALL.
 */
static void conn_limits(struct conn *c)
{
	int64_t dealer_max = PROTO_MAX_TO_SLAVE, sub_max = PROTO_MAX_SMALL;

	zmq_setsockopt(c->dealer, ZMQ_MAXMSGSIZE, &dealer_max,
		       sizeof(dealer_max));
	zmq_setsockopt(c->sub, ZMQ_MAXMSGSIZE, &sub_max, sizeof(sub_max));
}

int conn_open(const char *endpoint, const char *id,
	      const struct conn_curve *curve, struct conn **cp, char *err,
	      size_t errlen)
{
	char dep[512], sep[512];
	struct conn *c;
	int zero = 0, one = 1, ivl = 100, ivl_max = 2000;

	if (conn_endpoints(endpoint, dep, sep, sizeof(dep)) < 0) {
		snprintf(err, errlen,
			 "bad master endpoint '%s' (want tcp://HOST:PORT)",
			 endpoint);
		return -EINVAL;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->ctx = zmq_ctx_new();
	if (!c->ctx)
		goto fail;
	c->dealer = zmq_socket(c->ctx, ZMQ_DEALER);
	c->sub = zmq_socket(c->ctx, ZMQ_SUB);
	if (!c->dealer || !c->sub)
		goto fail;
	zmq_setsockopt(c->dealer, ZMQ_LINGER, &zero, sizeof(zero));
	zmq_setsockopt(c->dealer, ZMQ_ROUTING_ID, id, strlen(id));
	zmq_setsockopt(c->dealer, ZMQ_IMMEDIATE, &one, sizeof(one));
	zmq_setsockopt(c->sub, ZMQ_LINGER, &zero, sizeof(zero));
	zmq_setsockopt(c->dealer, ZMQ_RECONNECT_IVL, &ivl, sizeof(ivl));
	zmq_setsockopt(c->dealer, ZMQ_RECONNECT_IVL_MAX, &ivl_max,
		       sizeof(ivl_max));
	zmq_setsockopt(c->sub, ZMQ_RECONNECT_IVL, &ivl, sizeof(ivl));
	zmq_setsockopt(c->sub, ZMQ_RECONNECT_IVL_MAX, &ivl_max,
		       sizeof(ivl_max));
	zmq_setsockopt(c->sub, ZMQ_SUBSCRIBE, "", 0);
	conn_limits(c);
	snprintf(c->endpoint, sizeof(c->endpoint), "%s", endpoint);
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
		if (curve_client(c->dealer, curve) < 0 ||
		    curve_client(c->sub, curve) < 0)
			goto fail;
	}
	if (start_monitor(c) < 0)
		goto fail;
	if (zmq_connect(c->dealer, dep) < 0 || zmq_connect(c->sub, sep) < 0)
		goto fail;
	*cp = c;
	return 0;
fail:
	snprintf(err, errlen, "cannot connect to %s: %s", endpoint,
		 zmq_strerror(zmq_errno()));
	conn_close(&c, 0);
	return -EIO;
}

int conn_send(struct conn *c, const void *buf, size_t len)
{
	if (zmq_send(c->dealer, buf, len, ZMQ_DONTWAIT) < 0)
		return -zmq_errno();
	return 0;
}

int conn_wait(struct conn *c, int fd, long timeout_ms)
{
	zmq_pollitem_t items[4] = {
		{ c->dealer, 0, ZMQ_POLLIN, 0 },
		{ c->sub, 0, ZMQ_POLLIN, 0 },
		{ c->mon, 0, ZMQ_POLLIN, 0 },
		{ NULL, fd, ZMQ_POLLIN, 0 },
	};
	int n = fd >= 0 ? 4 : 3, mask = 0;

	if (zmq_poll(items, n, timeout_ms) < 0)
		return zmq_errno() == EINTR ? 0 : -zmq_errno();
	if (items[2].revents & ZMQ_POLLIN)
		drain_monitor(c);
	if (items[0].revents & ZMQ_POLLIN)
		mask |= CONN_DEALER;
	if (items[1].revents & ZMQ_POLLIN)
		mask |= CONN_SUB;
	if (n == 4 && (items[3].revents & ZMQ_POLLIN))
		mask |= CONN_FD;
	return mask;
}

int conn_recv(struct conn *c, int which, void **buf, size_t *len)
{
	void *sock = which == CONN_SUB ? c->sub : c->dealer;
	zmq_msg_t msg;
	int ret;

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
	if (c->dealer) {
		zmq_socket_monitor(c->dealer, NULL, 0);
		zmq_setsockopt(c->dealer, ZMQ_LINGER, &linger_ms,
			       sizeof(linger_ms));
		zmq_close(c->dealer);
	}
	if (c->mon)
		zmq_close(c->mon);
	if (c->sub)
		zmq_close(c->sub);
	if (c->ctx)
		zmq_ctx_term(c->ctx);
	free(c);
	*cp = NULL;
}
