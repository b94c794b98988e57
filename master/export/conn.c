/*
 * The TCP connection of a sink (Graphite's, InfluxDB's): connected on
 * demand from the sink's own thread, with the name resolved there too, a
 * timeout on every wait, and a backoff from 250 ms doubling to 8 s after
 * a failure, so that a receiver that is down costs a connect attempt now
 * and then, never a stall. The backoff starts again only after a
 * connection that lived BACKOFF_MAX_NS: a listener that accepts and closes
 * at once is retried ever more slowly. The failure and the recovery are
 * logged once per outage, through log_limited() (a receiver can provoke
 * them at will, like a peer), and the outage ends only when a connection
 * carried points for a second.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "common/log.h"
#include "common/timeutil.h"
#include "master/export/export_int.h"

#define BACKOFF_MIN_NS (250 * NS_PER_MS)
#define BACKOFF_MAX_NS (8 * NS_PER_SEC)

void export_conn_init(struct export_conn *c, const char *what, const char *host,
		      unsigned port)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->host, sizeof(c->host), "%s", host);
	c->port = port;
	c->fd = -1;
	c->what = what;
	c->backoff_ns = BACKOFF_MIN_NS;
}

void export_conn_close(struct export_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

void export_conn_fail(struct export_conn *c, int err)
{
	uint64_t now = time_mono_ns();

	/* A connection that held for a while: the receiver was well. */
	if (c->fd >= 0 && now - c->up_since_ns >= BACKOFF_MAX_NS)
		c->backoff_ns = BACKOFF_MIN_NS;
	export_conn_close(c);
	if (!c->down)
		log_limited("export down", LOG_WARN,
			    "%s export to %s:%u: %s: points are dropped (and counted) until it answers again",
			    c->what, c->host, c->port,
			    strerror(err < 0 ? -err : EIO));
	c->down = 1;
	c->next_try_ns = now + c->backoff_ns;
	c->backoff_ns *= 2;
	if (c->backoff_ns > BACKOFF_MAX_NS)
		c->backoff_ns = BACKOFF_MAX_NS;
}

/* A non-blocking connect to one address, waited for with a timeout. */
static int connect_one(const struct addrinfo *ai)
{
	struct pollfd pfd;
	socklen_t len = sizeof(int);
	int fd, soerr = 0, ret;

	fd = socket(ai->ai_family,
		    ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
		    ai->ai_protocol);
	if (fd < 0)
		return -errno;
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) < 0 &&
	    errno != EINPROGRESS) {
		ret = -errno;
		close(fd);
		return ret;
	}
	pfd.fd = fd;
	pfd.events = POLLOUT;
	ret = poll(&pfd, 1, EXPORT_IO_TIMEOUT_MS);
	if (ret == 0) {
		close(fd);
		return -ETIMEDOUT;
	}
	if (ret < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &len) < 0 ||
	    soerr) {
		ret = soerr ? -soerr : -errno;
		close(fd);
		return ret;
	}
	return fd;
}

int export_conn_ensure(struct export_conn *c)
{
	struct addrinfo hints, *res = NULL, *ai;
	char port[8];
	int ret = -EHOSTUNREACH, fd = -1;

	if (c->fd >= 0)
		return 0;
	if (time_mono_ns() < c->next_try_ns)
		return -EAGAIN;
	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV;
	snprintf(port, sizeof(port), "%u", c->port);
	if (getaddrinfo(c->host, port, &hints, &res) != 0) {
		export_conn_fail(c, -EHOSTUNREACH);
		return -EHOSTUNREACH;
	}
	for (ai = res; ai && fd < 0; ai = ai->ai_next) {
		fd = connect_one(ai);
		if (fd < 0)
			ret = fd;
	}
	freeaddrinfo(res);
	if (fd < 0) {
		export_conn_fail(c, ret);
		return ret;
	}
	c->fd = fd;
	c->up_since_ns = time_mono_ns();
	return 0;
}

int export_conn_send(struct export_conn *c, const char *buf, size_t len)
{
	uint64_t until = time_mono_ns() + EXPORT_IO_TIMEOUT_MS * NS_PER_MS;

	while (len) {
		struct pollfd pfd = { .fd = c->fd, .events = POLLOUT };
		ssize_t n;
		uint64_t now = time_mono_ns();
		int ret;

		if (now >= until) {
			export_conn_fail(c, -ETIMEDOUT);
			return -ETIMEDOUT;
		}
		ret = poll(&pfd, 1, (int)((until - now) / NS_PER_MS) + 1);
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret <= 0 || (pfd.revents & (POLLERR | POLLHUP))) {
			ret = ret < 0 ? -errno : ret == 0 ? -ETIMEDOUT : -EPIPE;
			export_conn_fail(c, ret);
			return ret;
		}
		n = send(c->fd, buf, len, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			ret = -errno;
			export_conn_fail(c, ret);
			return ret;
		}
		buf += n;
		len -= (size_t)n;
	}
	/*
	 * Back only once a connection carried points for a second: one that
	 * the receiver closes at once is the same outage, not a recovery.
	 */
	if (c->down && time_mono_ns() - c->up_since_ns >= NS_PER_SEC) {
		log_limited("export up", LOG_INFO,
			    "%s export to %s:%u: connected again", c->what,
			    c->host, c->port);
		c->down = 0;
	}
	return 0;
}
