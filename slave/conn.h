/*
 * The slave's side of the transport: a DEALER connected to the master's
 * ROUTER (everything addressed to this slave, and everything it sends) and a
 * SUB connected to the master's PUB (phase broadcasts), which listens on the
 * ROUTER's port + 1. The only file of the slave that includes <zmq.h>.
 */
#ifndef LOCKSTEP_SLAVE_CONN_H
#define LOCKSTEP_SLAVE_CONN_H

#include <stddef.h>

enum { CONN_DEALER = 1, CONN_SUB = 2, CONN_FD = 4 };

struct conn;

/*
 * CURVE for conn_open(): this slave's key pair and the master's public
 * key, Z85 (copied), and where the master's key came from, for messages
 * ("the key in FILE").
 */
struct conn_curve {
	const char *secret;
	const char *public;
	const char *server;
	const char *server_from;
};

/*
 * Connect to endpoint "tcp://HOST:PORT" or "HOST:PORT". The DEALER's
 * routing id is id (the slave's uuid text), so the master recognises this
 * slave across reconnects. With curve (NULL: plain TCP) both sockets are
 * CURVE clients that talk only to a master that proves curve->server (the
 * keys are copied and kept for sockets opened later); a failed handshake
 * is logged (once per streak) and the socket replaced by a new one after
 * a backoff (100 ms doubling to 2 s), since libzmq gives up on a
 * connection after a protocol error: a daemon keeps waiting for the right
 * master. Returns 0 or -errno with a message in err.
 * Connections are made in the background and re-established by ZeroMQ
 * (with backoff up to 2 s) when the master goes away and comes back.
 * Frames are only queued on a live connection: a send with none fails with
 * -EAGAIN, and the caller keeps what must arrive.
 */
int conn_open(const char *endpoint, const char *id,
	      const struct conn_curve *curve, struct conn **c, char *err,
	      size_t errlen);
/*
 * Split "tcp://HOST:PORT" or "HOST:PORT" into the ROUTER's endpoint and the
 * PUB's (port + 1), each at most len bytes. 0, or -EINVAL.
 */
int conn_endpoints(const char *ep, char *dealer, char *sub, size_t len);
/* Queue one frame to the master. 0, or -EAGAIN when the queue is full. */
int conn_send(struct conn *c, const void *buf, size_t len);
/*
 * Wait up to timeout_ms (-1 = forever) for a frame on either socket or for
 * fd (-1 = none) to be readable. Returns a mask of CONN_*, 0 on timeout.
 */
int conn_wait(struct conn *c, int fd, long timeout_ms);
/*
 * Receive one frame without blocking from CONN_DEALER or CONN_SUB into a
 * malloc'd *buf (caller frees). Returns 0, -EAGAIN when none, or -errno.
 */
int conn_recv(struct conn *c, int which, void **buf, size_t *len);
/* Close both sockets (linger 0 by default: unsent frames are dropped). */
void conn_close(struct conn **c, int linger_ms);

#endif
