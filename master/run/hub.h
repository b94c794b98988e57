/*
 * The master's side of the transport: a ROUTER (one conversation per slave,
 * ROUTER_MANDATORY so a send to a vanished slave fails instead of vanishing)
 * and a PUB for phase broadcasts on the ROUTER's port + 1. The only file of
 * the master that includes <zmq.h>.
 */
#ifndef LOCKSTEP_MASTER_HUB_H
#define LOCKSTEP_MASTER_HUB_H

#include <stddef.h>
#include "common/keys.h"

#define HUB_PEER_MAX 256

/* Which pair a peer came through (see hub_open). */
enum { HUB_MAIN, HUB_LOCAL, HUB_VIA_N };

struct hub_peer {
	unsigned char id[HUB_PEER_MAX]; /* ZeroMQ routing id */
	size_t len;
	unsigned via; /* HUB_MAIN or HUB_LOCAL: a peer is its id and pair */
	/* The Z85 public key the peer proved (CURVE), "" without CURVE. */
	char key[KEYS_Z85_LEN + 1];
};

/*
 * CURVE for hub_open(): the master's secret key (Z85, copied) and the
 * slave keys its ZAP handler admits at first (more with hub_admit()).
 */
struct hub_curve {
	const char *secret;
	const struct keys_authorized *auth;
};

struct hub;

/*
 * Bind ROUTER on host:port and PUB on host:port+1. port 0 picks a free
 * pair at random. On success *bound_port is the ROUTER's port. With curve
 * (NULL: plain TCP) both are CURVE servers and a ZAP handler admits only
 * the listed keys. With local (NULL: none), a second pair on 127.0.0.1
 * (*local_port, picked at random) that is a CURVE server with local's
 * key, for the slaves this master forks: they then prove a per-run key
 * even when the main pair is plain (--insecure). Frames of both pairs
 * come through hub_recv(), told apart by hub_peer.via; a broadcast goes
 * out on both. Returns 0 or -errno with a message in err.
 */
int hub_open(const char *host, unsigned port, const struct hub_curve *curve,
	     const struct hub_curve *local, struct hub **h,
	     unsigned *bound_port, unsigned *local_port, char *err,
	     size_t errlen);
/*
 * Admit one more slave key (Z85) from now on, e.g. a launched slave's
 * per-run key. 0, -EEXIST, -EINVAL without CURVE, or -ENOMEM.
 */
int hub_admit(struct hub *h, const char *key);
/* Send one frame to one slave. 0, or -EHOSTUNREACH / -EAGAIN / -errno. */
int hub_send(struct hub *h, const struct hub_peer *to, const void *buf,
	     size_t len);
/* Broadcast one frame on PUB. */
int hub_publish(struct hub *h, const void *buf, size_t len);
/* Wait up to timeout_ms for a frame. 1 readable, 0 timeout, -errno. */
int hub_wait(struct hub *h, long timeout_ms);
/*
 * Receive one frame without blocking; *buf points at its bytes inside the
 * hub (no copy), valid until the next hub_recv() or hub_close(). from->key
 * is the key the sender proved. Returns 0, -EAGAIN when none, -EBADMSG for
 * a frame of an unexpected shape (dropped), or -errno.
 */
int hub_recv(struct hub *h, struct hub_peer *from, const void **buf,
	     size_t *len);
void hub_close(struct hub **h);

#endif
