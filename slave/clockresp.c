/*
 * The clock-datagram responder (see clockresp.h). Its UDP socket is
 * connected to the master's address, so the kernel hands it datagrams from
 * there only; it answers a ping that carries the nonce of the master's
 * latest ZeroMQ ping (under CURVE) and drops everything else. It is never
 * trusted with anything but timestamps.
 */
#include "slave/clockresp.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "common/log.h"
#include "common/timeutil.h"
#include "proto/clockdgram.h"

struct clockresp {
	pthread_t thread;
	int fd;
	char host[256];
	uint32_t port;
	atomic_uint_fast64_t nonce;
	atomic_uint_fast32_t slave;
	atomic_int stop;
};

static void *responder(void *arg)
{
	struct clockresp *r = arg;
	unsigned char buf[CLOCKDGRAM_LEN + 1];
	struct pollfd pfd = { .fd = r->fd, .events = POLLIN };

	while (!atomic_load(&r->stop)) {
		struct clockdgram d;
		uint64_t rx;
		int len;

		if (poll(&pfd, 1, 100) <= 0)
			continue;
		len = clockdgram_recv(r->fd, buf, sizeof(buf), NULL, NULL, &rx);
		if (len < 0 || clockdgram_decode(buf, (size_t)len, &d) < 0 ||
		    d.kind != CLOCKDGRAM_PING ||
		    d.nonce != atomic_load(&r->nonce) || !d.nonce ||
		    d.slave != atomic_load(&r->slave))
			continue;
		d.kind = CLOCKDGRAM_PONG;
		d.t2 = rx;
		d.t3 = time_real_ns();
		clockdgram_encode(&d, buf);
		send(r->fd, buf, CLOCKDGRAM_LEN, MSG_DONTWAIT);
	}
	return NULL;
}

/* The HOST of tcp://HOST:PORT (brackets of an IPv6 address removed). */
static int endpoint_host(const char *ep, char *host, size_t len)
{
	const char *hp = strncmp(ep, "tcp://", 6) == 0 ? ep + 6 : ep;
	const char *colon = strrchr(hp, ':');
	size_t n;

	if (!colon || colon == hp)
		return -EINVAL;
	n = (size_t)(colon - hp);
	if (n >= 2 && hp[0] == '[' && hp[n - 1] == ']') {
		hp++;
		n -= 2;
	}
	if (n >= len)
		return -ENAMETOOLONG;
	memcpy(host, hp, n);
	host[n] = '\0';
	return 0;
}

static int start(struct clockresp **rp, const char *host, uint32_t port)
{
	struct clockresp *r = calloc(1, sizeof(*r));
	int ret;

	if (!r)
		return -ENOMEM;
	snprintf(r->host, sizeof(r->host), "%s", host);
	r->port = port;
	r->fd = clockdgram_socket(host, port, 0);
	if (r->fd < 0) {
		ret = r->fd;
		free(r);
		return ret;
	}
	ret = -pthread_create(&r->thread, NULL, responder, r);
	if (ret < 0) {
		close(r->fd);
		free(r);
		return ret;
	}
	*rp = r;
	return 0;
}

void clockresp_ping(struct clockresp **rp, const char *endpoint, uint32_t port,
		    uint32_t slave_index, uint64_t nonce)
{
	struct clockresp *r = *rp;
	struct clockdgram d = { .kind = CLOCKDGRAM_HELLO };
	unsigned char buf[CLOCKDGRAM_LEN];
	char host[256];
	int ret;

	if (!port || port > 65535 || !nonce ||
	    endpoint_host(endpoint, host, sizeof(host)) < 0)
		return;
	if (r && (r->port != port || strcmp(r->host, host))) {
		clockresp_stop(rp);
		r = NULL;
	}
	if (!r) {
		ret = start(rp, host, port);
		if (ret < 0) {
			log_limited("clock datagrams", LOG_WARN,
				    "no clock datagrams to %s:%u: %s", host,
				    (unsigned)port, strerror(-ret));
			return;
		}
		r = *rp;
	}
	atomic_store(&r->slave, slave_index);
	atomic_store(&r->nonce, nonce);
	d.slave = slave_index;
	d.nonce = nonce;
	clockdgram_encode(&d, buf);
	send(r->fd, buf, sizeof(buf), MSG_DONTWAIT);
}

void clockresp_stop(struct clockresp **rp)
{
	struct clockresp *r = *rp;

	if (!r)
		return;
	atomic_store(&r->stop, 1);
	pthread_join(r->thread, NULL);
	close(r->fd);
	free(r);
	*rp = NULL;
}
