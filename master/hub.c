/*
 * ZeroMQ transport for the master: ROUTER + PUB. See hub.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>
#include "master/hub.h"
#include "proto/proto.h"

#define BIND_TRIES 50

struct hub {
	void *ctx;
	void *router;
	void *pub;
};

static unsigned bound_port(void *sock)
{
	char ep[256];
	size_t len = sizeof(ep);
	const char *colon;

	if (zmq_getsockopt(sock, ZMQ_LAST_ENDPOINT, ep, &len) < 0)
		return 0;
	colon = strrchr(ep, ':');
	return colon ? (unsigned)atoi(colon + 1) : 0;
}

/* Bind ROUTER then PUB on the next port; retry with other ports if taken. */
static int bind_pair(struct hub *h, const char *host, unsigned port,
		     unsigned *out, char *err, size_t errlen)
{
	char ep[300];

	for (int i = 0; i < BIND_TRIES; i++) {
		unsigned p;

		if (port)
			snprintf(ep, sizeof(ep), "tcp://%s:%u", host, port);
		else
			snprintf(ep, sizeof(ep), "tcp://%s:*", host);
		if (zmq_bind(h->router, ep) < 0) {
			snprintf(err, errlen, "cannot bind %s: %s", ep,
				 zmq_strerror(zmq_errno()));
			return -zmq_errno();
		}
		p = bound_port(h->router);
		if (p == 0 || p >= 65535) {
			zmq_unbind(h->router, ep);
			continue;
		}
		snprintf(ep, sizeof(ep), "tcp://%s:%u", host, p + 1);
		if (zmq_bind(h->pub, ep) == 0) {
			*out = p;
			return 0;
		}
		if (port) {
			snprintf(err, errlen, "cannot bind %s: %s", ep,
				 zmq_strerror(zmq_errno()));
			return -zmq_errno();
		}
		snprintf(ep, sizeof(ep), "tcp://%s:%u", host, p);
		zmq_unbind(h->router, ep);
	}
	snprintf(err, errlen, "no free pair of ports on %s", host);
	return -EADDRINUSE;
}

/*
 * What a peer can make the master hold, however it floods the ports. A
 * frame larger than the largest legal one (PROTO_MAX_TO_MASTER, about
 * 190 KB: an interval with two full histograms) closes its connection as
 * soon as its size is read, before its body is buffered; the PUB only ever
 * receives subscriptions and ZeroMQ's handshake (PROTO_MAX_SMALL). Each
 * connection queues at most HUB_RCVHWM frames before ZeroMQ stops reading
 * it: TCP then holds the sender back. Nothing is dropped (a real slave's
 * frames wait in its socket and its spool), and one connection costs at
 * most HUB_RCVHWM x PROTO_MAX_TO_MASTER, 19 MB.
 */
#define HUB_RCVHWM 100

static void hub_limits(struct hub *h)
{
	int64_t router_max = PROTO_MAX_TO_MASTER, pub_max = PROTO_MAX_SMALL;
	int hwm = HUB_RCVHWM;

	zmq_setsockopt(h->router, ZMQ_MAXMSGSIZE, &router_max,
		       sizeof(router_max));
	zmq_setsockopt(h->router, ZMQ_RCVHWM, &hwm, sizeof(hwm));
	zmq_setsockopt(h->pub, ZMQ_MAXMSGSIZE, &pub_max, sizeof(pub_max));
	zmq_setsockopt(h->pub, ZMQ_RCVHWM, &hwm, sizeof(hwm));
}

int hub_open(const char *host, unsigned port, struct hub **hp,
	     unsigned *bport, char *err, size_t errlen)
{
	struct hub *h = calloc(1, sizeof(*h));
	int one = 1, zero = 0, hwm = 0, ret;

	if (!h)
		return -ENOMEM;
	h->ctx = zmq_ctx_new();
	if (!h->ctx) {
		free(h);
		return -ENOMEM;
	}
	h->router = zmq_socket(h->ctx, ZMQ_ROUTER);
	h->pub = zmq_socket(h->ctx, ZMQ_PUB);
	if (!h->router || !h->pub) {
		snprintf(err, errlen, "zmq_socket: %s",
			 zmq_strerror(zmq_errno()));
		hub_close(&h);
		return -ENOMEM;
	}
	zmq_setsockopt(h->router, ZMQ_ROUTER_MANDATORY, &one, sizeof(one));
	/*
	 * Slaves connect with their uuid as routing id; a slave that
	 * reconnects (a new TCP connection after a network cut) takes its id
	 * over from the dead connection instead of being refused.
	 */
	zmq_setsockopt(h->router, ZMQ_ROUTER_HANDOVER, &one, sizeof(one));
	zmq_setsockopt(h->router, ZMQ_LINGER, &zero, sizeof(zero));
	zmq_setsockopt(h->pub, ZMQ_LINGER, &zero, sizeof(zero));
	zmq_setsockopt(h->router, ZMQ_SNDHWM, &hwm, sizeof(hwm));
	hub_limits(h);
	ret = bind_pair(h, host, port, bport, err, errlen);
	if (ret < 0) {
		hub_close(&h);
		return ret;
	}
	*hp = h;
	return 0;
}

int hub_send(struct hub *h, const struct hub_peer *to, const void *buf,
	     size_t len)
{
	if (zmq_send(h->router, to->id, to->len, ZMQ_SNDMORE | ZMQ_DONTWAIT) < 0)
		return -zmq_errno();
	if (zmq_send(h->router, buf, len, ZMQ_DONTWAIT) < 0)
		return -zmq_errno();
	return 0;
}

int hub_publish(struct hub *h, const void *buf, size_t len)
{
	if (zmq_send(h->pub, buf, len, ZMQ_DONTWAIT) < 0)
		return -zmq_errno();
	return 0;
}

int hub_wait(struct hub *h, long timeout_ms)
{
	zmq_pollitem_t item = { h->router, 0, ZMQ_POLLIN, 0 };
	int n = zmq_poll(&item, 1, timeout_ms);

	if (n < 0)
		return zmq_errno() == EINTR ? 0 : -zmq_errno();
	return n > 0;
}

/* Drop the remaining parts of a multi-part message. */
static void discard_rest(void *sock, zmq_msg_t *msg)
{
	while (zmq_msg_more(msg)) {
		zmq_msg_close(msg);
		zmq_msg_init(msg);
		if (zmq_msg_recv(msg, sock, ZMQ_DONTWAIT) < 0)
			break;
	}
}

int hub_recv(struct hub *h, struct hub_peer *from, void **buf, size_t *len)
{
	zmq_msg_t msg;
	int ret = 0;

	zmq_msg_init(&msg);
	if (zmq_msg_recv(&msg, h->router, ZMQ_DONTWAIT) < 0) {
		ret = -zmq_errno();
		zmq_msg_close(&msg);
		return ret;
	}
	/* First part: the routing id the ROUTER prepends. */
	from->len = zmq_msg_size(&msg);
	if (from->len > HUB_PEER_MAX || !zmq_msg_more(&msg)) {
		discard_rest(h->router, &msg);
		zmq_msg_close(&msg);
		return -EBADMSG;
	}
	memcpy(from->id, zmq_msg_data(&msg), from->len);
	zmq_msg_close(&msg);
	zmq_msg_init(&msg);
	if (zmq_msg_recv(&msg, h->router, ZMQ_DONTWAIT) < 0) {
		ret = -zmq_errno();
		zmq_msg_close(&msg);
		return ret == -EAGAIN ? -EBADMSG : ret;
	}
	if (zmq_msg_more(&msg)) {
		discard_rest(h->router, &msg);
		zmq_msg_close(&msg);
		return -EBADMSG;
	}
	*len = zmq_msg_size(&msg);
	*buf = malloc(*len ? *len : 1);
	if (!*buf)
		ret = -ENOMEM;
	else
		memcpy(*buf, zmq_msg_data(&msg), *len);
	zmq_msg_close(&msg);
	return ret;
}

void hub_close(struct hub **hp)
{
	struct hub *h = *hp;

	if (!h)
		return;
	if (h->router)
		zmq_close(h->router);
	if (h->pub)
		zmq_close(h->pub);
	zmq_ctx_term(h->ctx);
	free(h);
	*hp = NULL;
}
