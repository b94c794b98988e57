/*
 * ZeroMQ transport for the slave: DEALER to the master's ROUTER, SUB to its
 * PUB. See conn.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>
#include "slave/conn.h"
#include "proto/proto.h"

struct conn {
	void *ctx;
	void *dealer;
	void *sub;
};

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

int conn_open(const char *endpoint, const char *id, struct conn **cp,
	      char *err, size_t errlen)
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
	zmq_pollitem_t items[3] = {
		{ c->dealer, 0, ZMQ_POLLIN, 0 },
		{ c->sub, 0, ZMQ_POLLIN, 0 },
		{ NULL, fd, ZMQ_POLLIN, 0 },
	};
	int n = fd >= 0 ? 3 : 2, mask = 0;

	if (zmq_poll(items, n, timeout_ms) < 0)
		return zmq_errno() == EINTR ? 0 : -zmq_errno();
	if (items[0].revents & ZMQ_POLLIN)
		mask |= CONN_DEALER;
	if (items[1].revents & ZMQ_POLLIN)
		mask |= CONN_SUB;
	if (n == 3 && (items[2].revents & ZMQ_POLLIN))
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
		zmq_setsockopt(c->dealer, ZMQ_LINGER, &linger_ms,
			       sizeof(linger_ms));
		zmq_close(c->dealer);
	}
	if (c->sub)
		zmq_close(c->sub);
	if (c->ctx)
		zmq_ctx_term(c->ctx);
	free(c);
	*cp = NULL;
}
