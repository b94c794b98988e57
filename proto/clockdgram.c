/*
 * Clock datagrams (see clockdgram.h): their fixed binary layout, and the
 * UDP sockets that carry them with kernel arrival timestamps.
 */
#include "proto/clockdgram.h"

#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>
#include "common/timeutil.h"

static const unsigned char MAGIC[4] = { 'L', 'S', 'C', 'K' };

static void put(unsigned char *p, uint64_t v, int n)
{
	for (int i = n - 1; i >= 0; i--, v >>= 8)
		p[i] = (unsigned char)v;
}

static uint64_t get(const unsigned char *p, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

void clockdgram_encode(const struct clockdgram *d,
		       unsigned char buf[CLOCKDGRAM_LEN])
{
	memset(buf, 0, CLOCKDGRAM_LEN);
	memcpy(buf, MAGIC, 4);
	buf[4] = (unsigned char)d->kind;
	put(buf + 8, d->slave, 4);
	put(buf + 12, d->nonce, 8);
	put(buf + 20, d->seq, 4);
	put(buf + 24, d->t1, 8);
	put(buf + 32, d->t2, 8);
	put(buf + 40, d->t3, 8);
}

int clockdgram_decode(const unsigned char *buf, size_t len,
		      struct clockdgram *d)
{
	static const unsigned char zero[4];

	if (len != CLOCKDGRAM_LEN || memcmp(buf, MAGIC, 4) ||
	    memcmp(buf + 5, zero, 3) || buf[4] < CLOCKDGRAM_HELLO ||
	    buf[4] > CLOCKDGRAM_PONG)
		return -EBADMSG;
	d->kind = (enum clockdgram_kind)buf[4];
	d->slave = (uint32_t)get(buf + 8, 4);
	d->nonce = get(buf + 12, 8);
	d->seq = (uint32_t)get(buf + 20, 4);
	d->t1 = get(buf + 24, 8);
	d->t2 = get(buf + 32, 8);
	d->t3 = get(buf + 40, 8);
	return 0;
}

int clockdgram_socket(const char *host, unsigned port, int bind_it)
{
	struct addrinfo hints = { .ai_socktype = SOCK_DGRAM,
				  .ai_flags = AI_NUMERICSERV };
	struct addrinfo *ai, *a;
	char serv[8];
	int fd = -EADDRNOTAVAIL, one = 1;

	if (port > 65535)
		return -EINVAL;
	snprintf(serv, sizeof(serv), "%u", port);
	if (getaddrinfo(host, serv, &hints, &ai) != 0)
		return -EADDRNOTAVAIL;
	for (a = ai; a; a = a->ai_next) {
		fd = socket(a->ai_family,
			    SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (fd < 0) {
			fd = -errno;
			continue;
		}
		if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one,
			       sizeof(one)) == 0 &&
		    (bind_it ? bind(fd, a->ai_addr, a->ai_addrlen) :
			       connect(fd, a->ai_addr, a->ai_addrlen)) == 0)
			break;
		close(fd);
		fd = -errno;
	}
	freeaddrinfo(ai);
	return fd;
}

unsigned clockdgram_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	char serv[8];

	if (getsockname(fd, (struct sockaddr *)&ss, &len) < 0 ||
	    getnameinfo((struct sockaddr *)&ss, len, NULL, 0, serv,
			sizeof(serv), NI_NUMERICSERV) != 0)
		return 0;
	return (unsigned)atoi(serv);
}

int clockdgram_recv(int fd, unsigned char *buf, size_t len,
		    struct sockaddr_storage *from, socklen_t *fromlen,
		    uint64_t *rx_ns)
{
	union {
		char buf[CMSG_SPACE(sizeof(struct timespec))];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr mh = {
		.msg_name = from,
		.msg_namelen = from ? *fromlen : 0,
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = ctl.buf,
		.msg_controllen = sizeof(ctl.buf),
	};
	ssize_t n = recvmsg(fd, &mh, 0);

	if (n < 0)
		return -errno;
	*rx_ns = 0;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c;
	     c = CMSG_NXTHDR(&mh, c)) {
		struct timespec ts;

		if (c->cmsg_level != SOL_SOCKET ||
		    c->cmsg_type != SCM_TIMESTAMPNS)
			continue;
		memcpy(&ts, CMSG_DATA(c), sizeof(ts));
		*rx_ns = (uint64_t)ts.tv_sec * NS_PER_SEC +
			 (uint64_t)ts.tv_nsec;
	}
	if (!*rx_ns)
		*rx_ns = time_real_ns();
	if (from)
		*fromlen = mh.msg_namelen;
	return (int)n;
}
