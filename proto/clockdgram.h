/*
 * Clock samples over UDP, beside ZeroMQ (proto/PROTOCOL.md, "Clock
 * datagrams"). A ping that crosses ZeroMQ waits for two I/O threads and two
 * application threads to wake on each side, and on a busy machine those
 * wake-ups are most of its round trip; a datagram stamped by the kernel on
 * arrival (SO_TIMESTAMPNS) and answered by a thread that does nothing else
 * leaves the wake-ups out. A datagram is not under CURVE: it is bound to
 * the authenticated channel by a random nonce the master sends in each
 * ping, the slave's socket is connected to the master's address (the
 * kernel drops datagrams from anyone else), and the master uses a UDP
 * offset only where it agrees with the ZeroMQ one (see conductor.c). It is
 * never trusted for anything but timing.
 *
 * Every datagram is CLOCKDGRAM_LEN bytes, big-endian: "LSCK", the kind,
 * three zero bytes, the slave's index (u32), the nonce (u64), the sample's
 * sequence number (u32), then t1, t2, t3 (u64 ns, CLOCK_REALTIME; 0 where
 * the kind has none).
 */
#ifndef LOCKSTEP_PROTO_CLOCKDGRAM_H
#define LOCKSTEP_PROTO_CLOCKDGRAM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define CLOCKDGRAM_LEN 48

enum clockdgram_kind {
	CLOCKDGRAM_HELLO = 1, /* slave -> master: here is my address */
	CLOCKDGRAM_PING = 2,  /* master -> slave: t1 */
	CLOCKDGRAM_PONG = 3,  /* slave -> master: t1 echoed, t2, t3 */
};

struct clockdgram {
	enum clockdgram_kind kind;
	uint32_t slave;
	uint64_t nonce;
	uint32_t seq;
	uint64_t t1, t2, t3;
};

/* Encode d into buf (CLOCKDGRAM_LEN bytes). */
void clockdgram_encode(const struct clockdgram *d,
		       unsigned char buf[CLOCKDGRAM_LEN]);
/*
 * Decode len bytes: 0, or -EBADMSG for a wrong length, magic, kind or a
 * non-zero padding byte.
 */
int clockdgram_decode(const unsigned char *buf, size_t len,
		      struct clockdgram *d);

/*
 * A non-blocking UDP socket with kernel receive timestamps, bound to host
 * (port 0: any free one) when bind_it, else connected to host:port.
 * Returns the descriptor or -errno; the caller closes it.
 */
int clockdgram_socket(const char *host, unsigned port, int bind_it);
/* The port a socket is bound to, 0 on error. */
unsigned clockdgram_port(int fd);
/*
 * Receive one datagram: its bytes (up to CLOCKDGRAM_LEN + 1, so that a
 * longer one is seen as such), the sender (from may be NULL) and the
 * kernel's CLOCK_REALTIME arrival time (the time of the call when the
 * kernel gave none). Returns the length, or -errno (-EAGAIN: none).
 */
int clockdgram_recv(int fd, unsigned char *buf, size_t len,
		    struct sockaddr_storage *from, socklen_t *fromlen,
		    uint64_t *rx_ns);

#endif
