/*
 * Test tool plumbing: a ROUTER that speaks the protocol to one real slave
 * (the test masters planpeer and fspeer). The peer is whoever sent the
 * last frame received.
 */
#ifndef LOCKSTEP_TESTS_PEER_H
#define LOCKSTEP_TESTS_PEER_H

#include <stddef.h>
#include <stdint.h>
#include "proto/proto.h"

struct peer {
	void *sock; /* a bound ZMQ_ROUTER */
	unsigned char id[256];
	size_t idlen;
};

/* Send bytes (an encoded message) to the peer: 0 or -errno. */
int peer_send_bytes(struct peer *p, const void *buf, size_t len);

/* Encode m and send it to the peer: 0 or -errno. */
int peer_send(struct peer *p, const struct proto_msg *m);

/*
 * The next frame from any slave (it becomes the peer), decoded into m,
 * polling until deadline (time_mono_ns): 0; -EBADMSG with err naming why
 * for a frame that does not decode (m owns nothing; call again); or
 * -ETIMEDOUT.
 */
int peer_recv(struct peer *p, struct proto_msg *m, uint64_t deadline, char *err,
	      size_t errlen);

#endif
