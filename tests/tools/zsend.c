/*
 * Test tool: connect a ZeroMQ DEALER to ENDPOINT and send each argument as
 * one frame (hex-encoded), the way a misbehaving peer would. Used by the
 * integration tests to put garbage on the master's port, and, with
 * --curve, to play a peer that holds a CURVE key of its own.
 * usage: zsend [--curve SERVER.pub OWN.key OWN.pub] tcp://HOST:PORT HEX...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zmq.h>

static int unhex(const char *s, unsigned char *out, size_t *len)
{
	size_t n = strlen(s);

	if (n % 2)
		return -1;
	for (size_t i = 0; i < n / 2; i++) {
		unsigned v;

		if (sscanf(s + 2 * i, "%2x", &v) != 1)
			return -1;
		out[i] = (unsigned char)v;
	}
	*len = n / 2;
	return 0;
}

/* The first 40 characters of a key file (lockstep keygen's format). */
static int read_key(const char *path, char key[41])
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%40s", key) == 1 && strlen(key) == 40;
	fclose(f);
	return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
	void *ctx, *sock;
	int linger = 2000;
	char server[41], secret[41], public[41];
	int curve = argc > 1 && strcmp(argv[1], "--curve") == 0;

	if (curve) {
		if (argc < 5 || read_key(argv[2], server) < 0 ||
		    read_key(argv[3], secret) < 0 ||
		    read_key(argv[4], public) < 0) {
			fprintf(stderr,
				"zsend: --curve needs three key files\n");
			return 2;
		}
		argc -= 4;
		argv += 4;
	}
	if (argc < 3) {
		fprintf(stderr,
			"usage: zsend [--curve SERVER.pub OWN.key OWN.pub] ENDPOINT HEX...\n");
		return 2;
	}
	ctx = zmq_ctx_new();
	sock = zmq_socket(ctx, ZMQ_DEALER);
	zmq_setsockopt(sock, ZMQ_LINGER, &linger, sizeof(linger));
	if (curve) {
		zmq_setsockopt(sock, ZMQ_CURVE_SERVERKEY, server, 40);
		zmq_setsockopt(sock, ZMQ_CURVE_PUBLICKEY, public, 40);
		zmq_setsockopt(sock, ZMQ_CURVE_SECRETKEY, secret, 40);
	}
	if (zmq_connect(sock, argv[1]) < 0) {
		fprintf(stderr, "zsend: %s\n", zmq_strerror(zmq_errno()));
		return 1;
	}
	for (int i = 2; i < argc; i++) {
		unsigned char buf[65536];
		size_t len;

		if (unhex(argv[i], buf, &len) < 0) {
			fprintf(stderr, "zsend: bad hex '%s'\n", argv[i]);
			return 2;
		}
		zmq_send(sock, buf, len, 0);
	}
	usleep(200000);
	zmq_close(sock);
	zmq_ctx_term(ctx);
	return 0;
}
