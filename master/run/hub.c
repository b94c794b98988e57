/*
 * ZeroMQ transport for the master: ROUTER + PUB, and with CURVE the ZAP
 * handler that decides which slave keys may connect. See hub.h.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zmq.h>
#include "common/log.h"
#include "master/run/hub.h"
#include "proto/proto.h"

#define BIND_TRIES 50
#define ZAP_ENDPOINT "inproc://zeromq.zap.01"
#define ZAP_LOG_EVERY_S 10 /* refused handshakes: one log line per 10 s */

struct hub {
	void *ctx;
	/*
	 * HUB_MAIN: the port slaves are told; HUB_LOCAL (optional, NULL
	 * otherwise): a CURVE pair on loopback for the slaves this master
	 * forks, when the main pair is plain (--insecure).
	 */
	void *router[HUB_VIA_N];
	void *pub[HUB_VIA_N];
	unsigned next; /* the pair hub_recv() tries first */
	/* CURVE: the ZAP handler's socket, thread and the keys it admits. */
	void *zap;
	pthread_t zap_thread;
	int zap_running;
	pthread_mutex_t lock;
	struct keys_authorized admitted;
	unsigned long refused, refused_logged;
	time_t refused_at;
	/* The last frame hub_recv() returned: its bytes are lent, not copied. */
	zmq_msg_t held;
	int holding;
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
static int bind_pair(void *router, void *pub, const char *host, unsigned port,
		     unsigned *out, char *err, size_t errlen)
{
	char ep[300];

	for (int i = 0; i < BIND_TRIES; i++) {
		unsigned p;

		if (port)
			snprintf(ep, sizeof(ep), "tcp://%s:%u", host, port);
		else
			snprintf(ep, sizeof(ep), "tcp://%s:*", host);
		if (zmq_bind(router, ep) < 0) {
			snprintf(err, errlen, "cannot bind %s: %s", ep,
				 zmq_strerror(zmq_errno()));
			return -zmq_errno();
		}
		p = bound_port(router);
		if (p == 0 || p >= 65535) {
			zmq_unbind(router, ep);
			continue;
		}
		snprintf(ep, sizeof(ep), "tcp://%s:%u", host, p + 1);
		if (zmq_bind(pub, ep) == 0) {
			*out = p;
			return 0;
		}
		if (port) {
			snprintf(err, errlen, "cannot bind %s: %s", ep,
				 zmq_strerror(zmq_errno()));
			return -zmq_errno();
		}
		snprintf(ep, sizeof(ep), "tcp://%s:%u", host, p);
		zmq_unbind(router, ep);
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

static void hub_limits(void *router, void *pub)
{
	int64_t router_max = PROTO_MAX_TO_MASTER, pub_max = PROTO_MAX_SMALL;
	int hwm = HUB_RCVHWM;

	zmq_setsockopt(router, ZMQ_MAXMSGSIZE, &router_max, sizeof(router_max));
	zmq_setsockopt(router, ZMQ_RCVHWM, &hwm, sizeof(hwm));
	zmq_setsockopt(pub, ZMQ_MAXMSGSIZE, &pub_max, sizeof(pub_max));
	zmq_setsockopt(pub, ZMQ_RCVHWM, &hwm, sizeof(hwm));
}

/* Copy the ZAP request's parts (at most 8) into part[], count in *n. */
static int zap_read(void *sock, zmq_msg_t *part, int *n)
{
	int more = 1;

	*n = 0;
	while (more) {
		zmq_msg_t tmp, *m = *n < 8 ? &part[*n] : &tmp;

		zmq_msg_init(m);
		if (zmq_msg_recv(m, sock, 0) < 0) {
			int ret = -zmq_errno();

			zmq_msg_close(m);
			return ret;
		}
		more = zmq_msg_more(m);
		if (m == &tmp)
			zmq_msg_close(m);
		else
			(*n)++;
	}
	return 0;
}

static int part_is(zmq_msg_t *m, const char *s)
{
	return zmq_msg_size(m) == strlen(s) &&
	       memcmp(zmq_msg_data(m), s, strlen(s)) == 0;
}

/*
 * Decide one ZAP request (RFC 27): a CURVE client whose public key we
 * admit gets 200 and its key as User-Id, which every frame it sends then
 * carries; anything else gets 400 and never reaches the master's loop.
 */
static void zap_answer(struct hub *h, zmq_msg_t *part, int n)
{
	char key[KEYS_Z85_LEN + 1] = "", addr[64] = "?";
	const char *code = "400", *text = "key not authorized";
	int ok = 0;

	if (n < 6 || !part_is(&part[0], "1.0")) {
		code = "500";
		text = "bad ZAP request";
	} else if (part_is(&part[5], "NULL")) {
		/*
		 * Only a plain pair asks about NULL peers (a CURVE server
		 * refuses them at the greeting): --insecure lets them in.
		 */
		ok = 1;
	} else if (part_is(&part[5], "CURVE") && n >= 7 &&
		   zmq_msg_size(&part[6]) == 32 &&
		   zmq_z85_encode(key, zmq_msg_data(&part[6]), 32)) {
		pthread_mutex_lock(&h->lock);
		ok = keys_authorized_find(&h->admitted, key) >= 0;
		pthread_mutex_unlock(&h->lock);
	}
	if (ok) {
		code = "200";
		text = "OK";
	} else {
		time_t now = time(NULL);

		key[0] = 0;
		if (n >= 4 && zmq_msg_size(&part[3]) < sizeof(addr)) {
			memcpy(addr, zmq_msg_data(&part[3]),
			       zmq_msg_size(&part[3]));
			addr[zmq_msg_size(&part[3])] = 0;
			for (char *c = addr; *c; c++)
				if (*c < 0x20 || *c > 0x7e)
					*c = '?';
		}
		/* A flood of handshakes must not become a flood of lines. */
		if (h->refused++ == 0 ||
		    now - h->refused_at >= ZAP_LOG_EVERY_S) {
			log_warn("refused a connection from %s: its key is not in --authorized-slaves (%lu refused so far)",
				 addr, h->refused);
			h->refused_at = now;
		}
	}
	zmq_send(h->zap, "1.0", 3, ZMQ_SNDMORE);
	if (n >= 2)
		zmq_send(h->zap, zmq_msg_data(&part[1]), zmq_msg_size(&part[1]),
			 ZMQ_SNDMORE);
	else
		zmq_send(h->zap, "", 0, ZMQ_SNDMORE);
	zmq_send(h->zap, code, 3, ZMQ_SNDMORE);
	zmq_send(h->zap, text, strlen(text), ZMQ_SNDMORE);
	zmq_send(h->zap, key, strlen(key), ZMQ_SNDMORE);
	zmq_send(h->zap, "", 0, 0);
}

/*
 * The ZAP handler runs in a thread of its own rather than in the master's
 * loop: libzmq's I/O thread waits for the answer of every handshake, and
 * the loop sleeps on purpose (batching intervals, pauses, writing results)
 * when an answer must not wait, and a flood of handshakes must not take
 * turns with the intervals. It ends when hub_close() shuts the context
 * down (the blocking receive then fails with ETERM).
 */
static void *zap_main(void *arg)
{
	struct hub *h = arg;

	for (;;) {
		zmq_msg_t part[8];
		int n, ret = zap_read(h->zap, part, &n);

		if (ret == 0)
			zap_answer(h, part, n);
		for (int i = 0; i < n; i++)
			zmq_msg_close(&part[i]);
		if (ret == -ETERM)
			break;
	}
	zmq_close(h->zap);
	h->zap = NULL;
	return NULL;
}

/*
 * Make ROUTER and PUB CURVE servers with the master's secret key, and
 * start the ZAP handler before either binds: a handshake with no handler
 * in place would be let through.
 */
static int curve_server(struct hub *h, void *router, void *pub,
			const struct hub_curve *c, char *err, size_t errlen)
{
	int one = 1, zero = 0;
	void *socks[2] = { router, pub };

	if (!zmq_has("curve")) {
		snprintf(err, errlen, "this libzmq has no CURVE support");
		return -ENOTSUP;
	}
	for (size_t i = 0; i < c->auth->n; i++)
		if (keys_authorized_add(&h->admitted, c->auth->e[i].key,
					NULL) == -ENOMEM)
			return -ENOMEM;
	for (int i = 0; i < 2; i++)
		if (zmq_setsockopt(socks[i], ZMQ_CURVE_SERVER, &one,
				   sizeof(one)) < 0 ||
		    zmq_setsockopt(socks[i], ZMQ_CURVE_SECRETKEY, c->secret,
				   KEYS_Z85_LEN) < 0 ||
		    zmq_setsockopt(socks[i], ZMQ_ZAP_DOMAIN, "lockstep", 8) <
			    0) {
			snprintf(err, errlen, "CURVE server: %s",
				 zmq_strerror(zmq_errno()));
			return -zmq_errno();
		}
	if (h->zap_running)
		return 0;
	h->zap = zmq_socket(h->ctx, ZMQ_REP);
	if (!h->zap ||
	    zmq_setsockopt(h->zap, ZMQ_LINGER, &zero, sizeof(zero)) < 0 ||
	    zmq_bind(h->zap, ZAP_ENDPOINT) < 0) {
		snprintf(err, errlen, "cannot start the ZAP handler: %s",
			 zmq_strerror(zmq_errno()));
		return -zmq_errno();
	}
	if (pthread_create(&h->zap_thread, NULL, zap_main, h) != 0) {
		snprintf(err, errlen, "cannot start the ZAP thread");
		return -EAGAIN;
	}
	h->zap_running = 1;
	return 0;
}

int hub_admit(struct hub *h, const char *key)
{
	int ret;

	if (!h->zap_running)
		return -EINVAL;
	pthread_mutex_lock(&h->lock);
	ret = keys_authorized_add(&h->admitted, key, NULL);
	pthread_mutex_unlock(&h->lock);
	return ret;
}

/* Make the ROUTER and PUB of pair via, with their options. */
static int make_pair(struct hub *h, int via, char *err, size_t errlen)
{
	int one = 1, zero = 0, hwm = 0;
	void *r, *p;

	r = h->router[via] = zmq_socket(h->ctx, ZMQ_ROUTER);
	p = h->pub[via] = zmq_socket(h->ctx, ZMQ_PUB);
	if (!r || !p) {
		snprintf(err, errlen, "zmq_socket: %s",
			 zmq_strerror(zmq_errno()));
		return -ENOMEM;
	}
	zmq_setsockopt(r, ZMQ_ROUTER_MANDATORY, &one, sizeof(one));
	/*
	 * Slaves connect with their uuid as routing id; a slave that
	 * reconnects (a new TCP connection after a network cut) takes its id
	 * over from the dead connection instead of being refused.
	 */
	zmq_setsockopt(r, ZMQ_ROUTER_HANDOVER, &one, sizeof(one));
	zmq_setsockopt(r, ZMQ_LINGER, &zero, sizeof(zero));
	zmq_setsockopt(p, ZMQ_LINGER, &zero, sizeof(zero));
	zmq_setsockopt(r, ZMQ_SNDHWM, &hwm, sizeof(hwm));
	hub_limits(r, p);
	return 0;
}

int hub_open(const char *host, unsigned port, const struct hub_curve *curve,
	     const struct hub_curve *local, struct hub **hp, unsigned *bport,
	     unsigned *lport, char *err, size_t errlen)
{
	struct hub *h = calloc(1, sizeof(*h));
	int ret;

	if (!h)
		return -ENOMEM;
	pthread_mutex_init(&h->lock, NULL);
	h->ctx = zmq_ctx_new();
	if (!h->ctx) {
		pthread_mutex_destroy(&h->lock);
		free(h);
		return -ENOMEM;
	}
	ret = make_pair(h, HUB_MAIN, err, errlen);
	if (ret == 0 && curve)
		ret = curve_server(h, h->router[HUB_MAIN], h->pub[HUB_MAIN],
				   curve, err, errlen);
	if (ret == 0 && local) {
		ret = make_pair(h, HUB_LOCAL, err, errlen);
		if (ret == 0)
			ret = curve_server(h, h->router[HUB_LOCAL],
					   h->pub[HUB_LOCAL], local, err,
					   errlen);
		if (ret == 0)
			ret = bind_pair(h->router[HUB_LOCAL], h->pub[HUB_LOCAL],
					"127.0.0.1", 0, lport, err, errlen);
	}
	if (ret == 0)
		ret = bind_pair(h->router[HUB_MAIN], h->pub[HUB_MAIN], host,
				port, bport, err, errlen);
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
	void *router = h->router[to->via < HUB_VIA_N ? to->via : HUB_MAIN];

	if (!router)
		return -EHOSTUNREACH;
	if (zmq_send(router, to->id, to->len, ZMQ_SNDMORE | ZMQ_DONTWAIT) < 0)
		return -zmq_errno();
	if (zmq_send(router, buf, len, ZMQ_DONTWAIT) < 0)
		return -zmq_errno();
	return 0;
}

int hub_publish(struct hub *h, const void *buf, size_t len)
{
	int ret = 0;

	for (int i = 0; i < HUB_VIA_N; i++)
		if (h->pub[i] &&
		    zmq_send(h->pub[i], buf, len, ZMQ_DONTWAIT) < 0)
			ret = -zmq_errno();
	return ret;
}

int hub_wait(struct hub *h, long timeout_ms)
{
	zmq_pollitem_t item[HUB_VIA_N];
	int n = 0;

	for (int i = 0; i < HUB_VIA_N; i++)
		if (h->router[i])
			item[n++] = (zmq_pollitem_t){ h->router[i], 0,
						      ZMQ_POLLIN, 0 };
	n = zmq_poll(item, n, timeout_ms);
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

/*
 * The key the sender proved: the User-Id our ZAP handler gave its
 * connection, carried by every frame from it; "" on a plain connection.
 */
static void peer_key(zmq_msg_t *msg, struct hub_peer *from)
{
	const char *uid = zmq_msg_gets(msg, "User-Id");

	from->key[0] = 0;
	if (uid && strlen(uid) == KEYS_Z85_LEN)
		memcpy(from->key, uid, KEYS_Z85_LEN + 1);
}

/* hub_recv() from the ROUTER of pair via. */
static int recv_from(struct hub *h, int via, struct hub_peer *from,
		     const void **buf, size_t *len)
{
	void *router = h->router[via];
	zmq_msg_t *msg = &h->held;
	int ret = 0;

	from->key[0] = 0;
	if (h->holding)
		zmq_msg_close(msg);
	h->holding = 0;
	zmq_msg_init(msg);
	if (zmq_msg_recv(msg, router, ZMQ_DONTWAIT) < 0) {
		ret = -zmq_errno();
		zmq_msg_close(msg);
		return ret;
	}
	/* First part: the routing id the ROUTER prepends. */
	from->len = zmq_msg_size(msg);
	if (from->len > HUB_PEER_MAX || !zmq_msg_more(msg)) {
		discard_rest(router, msg);
		zmq_msg_close(msg);
		return -EBADMSG;
	}
	memcpy(from->id, zmq_msg_data(msg), from->len);
	zmq_msg_close(msg);
	zmq_msg_init(msg);
	if (zmq_msg_recv(msg, router, ZMQ_DONTWAIT) < 0) {
		ret = -zmq_errno();
		zmq_msg_close(msg);
		return ret == -EAGAIN ? -EBADMSG : ret;
	}
	if (zmq_msg_more(msg)) {
		discard_rest(router, msg);
		zmq_msg_close(msg);
		return -EBADMSG;
	}
	/* Without CURVE no frame carries a User-Id: no lookup per frame. */
	if (h->zap_running)
		peer_key(msg, from);
	*buf = zmq_msg_data(msg);
	*len = zmq_msg_size(msg);
	h->holding = 1;
	return 0;
}

int hub_recv(struct hub *h, struct hub_peer *from, const void **buf,
	     size_t *len)
{
	/* Both pairs take turns, so that neither can starve the other. */
	for (unsigned k = 0; k < HUB_VIA_N; k++) {
		unsigned via = (h->next + k) % HUB_VIA_N;
		int ret;

		if (!h->router[via])
			continue;
		ret = recv_from(h, (int)via, from, buf, len);
		if (ret == -EAGAIN)
			continue;
		from->via = via;
		h->next = (via + 1) % HUB_VIA_N;
		return ret;
	}
	return -EAGAIN;
}

void hub_close(struct hub **hp)
{
	struct hub *h = *hp;

	if (!h)
		return;
	if (h->holding)
		zmq_msg_close(&h->held);
	for (int i = 0; i < HUB_VIA_N; i++) {
		if (h->router[i])
			zmq_close(h->router[i]);
		if (h->pub[i])
			zmq_close(h->pub[i]);
	}
	if (h->zap_running) {
		/* The ZAP thread's receive fails with ETERM; it closes its socket. */
		zmq_ctx_shutdown(h->ctx);
		pthread_join(h->zap_thread, NULL);
	} else if (h->zap) {
		zmq_close(h->zap);
	}
	zmq_ctx_term(h->ctx);
	keys_authorized_free(&h->admitted);
	pthread_mutex_destroy(&h->lock);
	free(h);
	*hp = NULL;
}
