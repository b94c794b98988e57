/*
 * Benchmark tool: the floor under the master's cost per slave-interval,
 * what ZeroMQ and the kernel alone charge a ROUTER that receives one frame
 * a second from each of N DEALERs (scripts/bench-transport.sh). The sink
 * does what the master's receive loop does with a frame minus lockstep:
 * it waits like link_pump() (zmq_poll, then BATCH_MS before draining),
 * takes the routing id and the body with zmq_msg_recv() and touches
 * each cache line of the body; with --ack-every it sends each peer a small frame
 * that often, as the master's acks. The sender plays N peers in one
 * process, each sending SIZE bytes at every second's boundary.
 *
 * usage: zmqfloor sink [--seconds S] [--warmup W] [--batch-ms B]
 *                      [--ack-every S]
 *          binds tcp://127.0.0.1 on a free port, prints "port P", and after
 *          S seconds from the first frame prints one line:
 *          "frames F cpu_us_per_frame C usr_us U sys_us Y"
 *          over the frames after the first W seconds
 *        zmqfloor send --to tcp://HOST:PORT -n N [--size BYTES]
 *                      [--seconds S] [--burst K]
 *          --burst K: each peer sends K frames at once every K seconds
 *          (as a slave holding K intervals back would), one by default
 * Exit 0, or 1 with a message.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <zmq.h>
#include "common/timeutil.h"

#define PEERS_MAX 65536
#define SLOTS (2 * PEERS_MAX) /* a power of two */
#define ACK_PASS_NS (250 * NS_PER_MS)
#define NO_PEER_NS (30 * NS_PER_SEC) /* the sink gives up */

struct peer {
	unsigned char id[256];
	size_t len;
	uint64_t acked_at;
};

static void die(const char *what)
{
	fprintf(stderr, "zmqfloor: %s: %s\n", what, zmq_strerror(zmq_errno()));
	exit(1);
}

static uint64_t cpu_ns(int sys)
{
	struct rusage ru;
	struct timeval *t = sys ? &ru.ru_stime : &ru.ru_utime;

	getrusage(RUSAGE_SELF, &ru);
	return (uint64_t)t->tv_sec * NS_PER_SEC + (uint64_t)t->tv_usec * 1000;
}

static void raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/*
 * The peer of routing id (id, len), added when new; NULL when full. An
 * open-addressed table, so that finding a peer costs what the master's
 * roster lookup does, not a walk over every peer.
 */
static struct peer *peer_of(struct peer *tab, int *slot, size_t *n,
			    const unsigned char *id, size_t len)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < len; i++)
		h = (h ^ id[i]) * 16777619u;
	for (uint32_t k = h & (SLOTS - 1);; k = (k + 1) & (SLOTS - 1)) {
		struct peer *p;

		if (slot[k] < 0) {
			if (*n == PEERS_MAX || len > sizeof(tab[0].id))
				return NULL;
			p = &tab[*n];
			memcpy(p->id, id, len);
			p->len = len;
			p->acked_at = time_mono_ns();
			slot[k] = (int)(*n)++;
			return p;
		}
		p = &tab[slot[k]];
		if (p->len == len && memcmp(p->id, id, len) == 0)
			return p;
	}
}

static int sink(double seconds, double warmup, long batch_ms, double ack_s)
{
	void *ctx = zmq_ctx_new(), *r = zmq_socket(ctx, ZMQ_ROUTER);
	struct peer *tab = ack_s > 0 ? calloc(PEERS_MAX, sizeof(*tab)) : NULL;
	int *slot = ack_s > 0 ? malloc(SLOTS * sizeof(*slot)) : NULL;
	char ep[256];
	size_t eplen = sizeof(ep), npeers = 0;
	uint64_t first = 0, mark = 0, u0 = 0, s0 = 0, frames = 0, at_mark = 0;
	uint64_t ack_pass = 0, sum = 0, started = time_mono_ns();
	int one = 1;

	if (ack_s > 0 && (!tab || !slot))
		return fprintf(stderr, "zmqfloor: out of memory\n"), 1;
	for (size_t k = 0; slot && k < SLOTS; k++)
		slot[k] = -1;
	raise_nofile(); /* a descriptor per peer's connection */
	zmq_setsockopt(r, ZMQ_ROUTER_MANDATORY, &one, sizeof(one));
	if (zmq_bind(r, "tcp://127.0.0.1:*") < 0)
		die("bind");
	zmq_getsockopt(r, ZMQ_LAST_ENDPOINT, ep, &eplen);
	printf("port %s\n", strrchr(ep, ':') + 1);
	fflush(stdout);
	for (;;) {
		zmq_pollitem_t it = { r, 0, ZMQ_POLLIN, 0 };
		uint64_t now;
		int n = zmq_poll(&it, 1, 20);

		if (n < 0 && zmq_errno() != EINTR)
			die("poll");
		if (n > 0 && batch_ms > 0)
			time_sleep_ns((uint64_t)batch_ms * NS_PER_MS);
		for (;;) {
			zmq_msg_t id, body;

			zmq_msg_init(&id);
			if (zmq_msg_recv(&id, r, ZMQ_DONTWAIT) < 0) {
				zmq_msg_close(&id);
				break;
			}
			zmq_msg_init(&body);
			if (zmq_msg_recv(&body, r, ZMQ_DONTWAIT) >= 0) {
				const unsigned char *p = zmq_msg_data(&body);
				size_t len = zmq_msg_size(&body);

				/*
				 * Touch each cache line of the body once: what
				 * bringing the frame in costs, and no more (a
				 * decoder's work is not the floor's).
				 */
				for (size_t i = 0; i < len; i += 64)
					sum += p[i];
				if (tab)
					peer_of(tab, slot, &npeers,
						zmq_msg_data(&id),
						zmq_msg_size(&id));
				frames++;
			}
			zmq_msg_close(&body);
			zmq_msg_close(&id);
			if (!first)
				first = time_mono_ns();
		}
		now = time_mono_ns();
		if (tab && now - ack_pass >= ACK_PASS_NS) {
			ack_pass = now;
			for (size_t i = 0; i < npeers; i++) {
				uint64_t ack[2] = { frames, now };

				if (now - tab[i].acked_at < ack_s * 1e9)
					continue;
				tab[i].acked_at = now;
				zmq_send(r, tab[i].id, tab[i].len, ZMQ_SNDMORE);
				zmq_send(r, ack, sizeof(ack), ZMQ_DONTWAIT);
			}
		}
		if (first && !mark && now - first >= warmup * 1e9) {
			mark = now;
			at_mark = frames;
			u0 = cpu_ns(0);
			s0 = cpu_ns(1);
		}
		if (first && now - first >= seconds * 1e9)
			break;
		if (!first && now - started >= NO_PEER_NS) {
			fprintf(stderr, "zmqfloor: no frame in %d s\n",
				(int)(NO_PEER_NS / NS_PER_SEC));
			break;
		}
	}
	uint64_t f = frames - at_mark, u = cpu_ns(0) - u0, s = cpu_ns(1) - s0;

	if (mark)
		printf("frames %llu cpu_us_per_frame %.2f usr_us %.2f sys_us %.2f sum %llu\n",
		       (unsigned long long)f,
		       f ? (double)(u + s) / 1e3 / (double)f : 0,
		       f ? (double)u / 1e3 / (double)f : 0,
		       f ? (double)s / 1e3 / (double)f : 0,
		       (unsigned long long)sum);
	free(tab);
	free(slot);
	zmq_close(r);
	zmq_ctx_term(ctx);
	return mark ? 0 : 1;
}

static int send_peers(const char *to, int n, size_t size, double seconds,
		      long burst)
{
	void *ctx = zmq_ctx_new();
	void **s = calloc((size_t)n, sizeof(*s));
	char *buf = malloc(size ? size : 1);
	uint64_t start = time_real_ns(), next;
	int linger = 0;

	if (!s || !buf)
		return fprintf(stderr, "zmqfloor: out of memory\n"), 1;
	raise_nofile();
	zmq_ctx_set(ctx, ZMQ_IO_THREADS, 2);
	zmq_ctx_set(ctx, ZMQ_MAX_SOCKETS, n + 64);
	for (size_t i = 0; i < size; i++)
		buf[i] = (char)(i * 131 + 7);
	for (int i = 0; i < n; i++) {
		s[i] = zmq_socket(ctx, ZMQ_DEALER);
		if (!s[i])
			die("socket");
		zmq_setsockopt(s[i], ZMQ_LINGER, &linger, sizeof(linger));
		if (zmq_connect(s[i], to) < 0)
			die("connect");
	}
	next = (time_real_ns() / NS_PER_SEC + 1) * NS_PER_SEC;
	while (next - start < (uint64_t)(seconds * 1e9) + NS_PER_SEC) {
		char drop[64];
		uint64_t now = time_real_ns();

		if (now < next)
			time_sleep_ns(next - now);
		for (int i = 0; i < n; i++) {
			for (long k = 0; k < burst; k++)
				zmq_send(s[i], buf, size, ZMQ_DONTWAIT);
			while (zmq_recv(s[i], drop, sizeof(drop),
					ZMQ_DONTWAIT) >= 0)
				;
		}
		next += (uint64_t)burst * NS_PER_SEC;
	}
	for (int i = 0; i < n; i++)
		zmq_close(s[i]);
	zmq_ctx_term(ctx);
	free(s);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "seconds", required_argument, 0, 's' },
		{ "warmup", required_argument, 0, 'w' },
		{ "batch-ms", required_argument, 0, 'b' },
		{ "ack-every", required_argument, 0, 'a' },
		{ "to", required_argument, 0, 't' },
		{ "size", required_argument, 0, 'z' },
		{ "burst", required_argument, 0, 'k' },
		{ 0, 0, 0, 0 },
	};
	double seconds = 10, warmup = 2, ack_s = 0;
	long batch_ms = 20, size = 2000, n = 0, burst = 1;
	const char *to = NULL;
	int c;

	if (argc < 2 || (strcmp(argv[1], "sink") && strcmp(argv[1], "send"))) {
		fprintf(stderr,
			"usage: zmqfloor sink|send [options] (see its source)\n");
		return 1;
	}
	optind = 2;
	while ((c = getopt_long(argc, argv, "n:", lo, NULL)) != -1) {
		switch (c) {
		case 's':
			seconds = atof(optarg);
			break;
		case 'w':
			warmup = atof(optarg);
			break;
		case 'b':
			batch_ms = atol(optarg);
			break;
		case 'a':
			ack_s = atof(optarg);
			break;
		case 't':
			to = optarg;
			break;
		case 'k':
			burst = atol(optarg);
			break;
		case 'z':
			size = atol(optarg);
			break;
		case 'n':
			n = atol(optarg);
			break;
		default:
			return 1;
		}
	}
	if (seconds <= warmup || seconds > 3600 || warmup < 0 || batch_ms < 0 ||
	    batch_ms > 1000 || size < 0 || size > (1 << 20) || ack_s < 0) {
		fprintf(stderr,
			"zmqfloor: bad --seconds, --warmup, --batch-ms, --size or --ack-every\n");
		return 1;
	}
	if (!strcmp(argv[1], "sink"))
		return sink(seconds, warmup, batch_ms, ack_s);
	if (!to || n < 1 || n > PEERS_MAX) {
		fprintf(stderr, "zmqfloor: send wants --to and -n 1..%d\n",
			PEERS_MAX);
		return 1;
	}
	if (burst < 1 || burst > 60) {
		fprintf(stderr, "zmqfloor: --burst wants 1..60\n");
		return 1;
	}
	return send_peers(to, (int)n, (size_t)size, seconds, burst);
}
