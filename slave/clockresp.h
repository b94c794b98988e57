/*
 * The slave's clock-datagram responder (proto/clockdgram.h): a thread that
 * answers the master's clock datagrams and does nothing else, so that the
 * time between a datagram's arrival (stamped by the kernel) and the answer
 * holds no wake-up of a busy session thread.
 */
#ifndef LOCKSTEP_SLAVE_CLOCKRESP_H
#define LOCKSTEP_SLAVE_CLOCKRESP_H

#include <stdint.h>

struct clockresp;

/*
 * On a ping that names a datagram port: make sure a responder answers the
 * master at host:port (host from the master endpoint tcp://HOST:PORT) for
 * nonce, and send it a hello datagram saying where we are. *rp is NULL or
 * a responder from an earlier call, replaced when the master's address
 * changed. Failures are logged once and leave clocks to ZeroMQ.
 */
void clockresp_ping(struct clockresp **rp, const char *endpoint, uint32_t port,
		    uint32_t slave_index, uint64_t nonce);
/* Stop the thread and free it; *rp becomes NULL. */
void clockresp_stop(struct clockresp **rp);

#endif
