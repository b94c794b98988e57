/*
 * Test tool: a hostile peer that speaks the lockstep protocol, for
 * tests/integration/hostile_peers.sh. It connects to a master like a slave
 * and does one of:
 *   hostile EP hello NAME [PID [HOST]]  say hello once as NAME; exit 0
 *                                       when welcomed within 2 s, 3 when
 *                                       not
 *   hostile EP slave NAME FORGE...      register as NAME (retrying), then
 *                                       run phases like a slave that does
 *                                       no I/O, sending interval k as
 *                                       FORGE[k] (honest when past the
 *                                       list or "ok"): huge_ops, errors,
 *                                       bytes, hist_max, cpu, times (start
 *                                       2^64 - 1, end 0), or log:TEXT
 *                                       (an honest interval and a log
 *                                       message TEXT); until stopped
 *   hostile EP flood SECONDS            one-byte frames as fast as the
 *                                       master takes them
 *   hostile EP big MB                   one frame of MB megabytes
 *   hostile EP race NAME PPID           the impostor of a local slave: wait
 *                                       (up to 20 s) for a child of PPID
 *                                       whose command line names NAME,
 *                                       then say hello as NAME with its
 *                                       pid and host, again and again for
 *                                       5 s; exit 0 when welcomed, 3 when
 *                                       never
 *   hostile EP squat SECONDS            bind a plain (NULL-mechanism)
 *                                       ROUTER on EP and a PUB on PORT + 1
 *                                       for SECONDS, answering nothing:
 *                                       what a keyed slave meets when a
 *                                       local user takes the master's port
 * EP is the master's tcp://HOST:PORT (its PUB is on PORT + 1).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zmq.h>
#include "common/hist.h"
#include "common/timeutil.h"
#include "proto/proto.h"
#include "lockstep_version.h"

static void *ctx, *dealer, *sub;

static int send_msg(const struct proto_msg *m)
{
	void *buf;
	size_t len;
	int ret = proto_encode(m, &buf, &len);

	if (ret < 0)
		return ret;
	ret = zmq_send(dealer, buf, len, 0) < 0 ? -1 : 0;
	free(buf);
	return ret;
}

/* The next message from the master within ms, 0 when none. */
static int recv_msg(long ms, struct proto_msg *m)
{
	zmq_pollitem_t it[2] = { { dealer, 0, ZMQ_POLLIN, 0 },
				 { sub, 0, ZMQ_POLLIN, 0 } };
	char buf[1 << 16], err[256];
	int n;

	if (zmq_poll(it, sub ? 2 : 1, ms) <= 0)
		return 0;
	n = zmq_recv(it[0].revents & ZMQ_POLLIN ? dealer : sub, buf,
		     sizeof(buf), 0);
	if (n < 0 || n > (int)sizeof(buf))
		return 0;
	return proto_decode(buf, (size_t)n, m, err, sizeof(err)) == 0;
}

static void hello_of(struct proto_msg *m, const char *name, unsigned pid,
		     const char *host)
{
	memset(m, 0, sizeof(*m));
	m->type = PROTO_HELLO;
	snprintf(m->u.hello.id, sizeof(m->u.hello.id),
		 "00000000-0000-4000-8000-%012x", (unsigned)getpid());
	snprintf(m->u.hello.name, sizeof(m->u.hello.name), "%s", name);
	snprintf(m->u.hello.host, sizeof(m->u.hello.host), "%s", host);
	m->u.hello.pid = pid;
	m->u.hello.cores = 2;
	snprintf(m->u.hello.version, sizeof(m->u.hello.version), "%s",
		 LOCKSTEP_VERSION);
	m->u.hello.nengines = 2;
	snprintf(m->u.hello.engines[0], PROTO_NAME_LEN, "io_uring");
	snprintf(m->u.hello.engines[1], PROTO_NAME_LEN, "null");
}

/* Say hello until welcomed or tries run out. 1 welcomed, 0 not. */
static int do_hello(const char *name, unsigned pid, const char *host, int tries,
		    uint64_t wait_ns)
{
	struct proto_msg h, m;

	hello_of(&h, name, pid, host);
	for (int i = 0; i < tries; i++) {
		uint64_t until = time_mono_ns() + wait_ns;

		send_msg(&h);
		while (time_mono_ns() < until)
			if (recv_msg(50, &m)) {
				int ok = m.type == PROTO_WELCOME;

				proto_msg_free(&m);
				if (ok)
					return 1;
			}
	}
	return 0;
}

/* Interval seq of a slave that did no I/O, then forged as kind says. */
static void forge(struct proto_interval *iv, const char *kind,
		  uint64_t interval_ns, struct hist_sparse *one)
{
	iv->cores = 2;
	iv->cpu_user_ns = interval_ns / 100;
	if (strcmp(kind, "huge_ops") == 0) {
		/* 2^62 reads at 1 ns, consistent with themselves. */
		iv->ops[0] = 1ull << 62;
		iv->bytes[0] = (1ull << 62) * 4;
		one->count = one->sum = 1ull << 62;
		one->sumsq = (double)(1ull << 62);
		one->min = one->max = 1;
		one->n = 1;
		one->idx[0] = hist_index(1);
		one->cnt[0] = 1ull << 62;
		iv->lat[0] = *one;
	} else if (strcmp(kind, "errors") == 0) {
		iv->errors = 1ull << 40; /* with no ops */
	} else if (strcmp(kind, "bytes") == 0) {
		iv->bytes[1] = 1ull << 30; /* with no ops */
	} else if (strcmp(kind, "hist_max") == 0) {
		/* 100 writes of 4k at 100 us, claiming a max of 10 s. */
		iv->ops[1] = 100;
		iv->bytes[1] = 100 * 4096;
		one->count = 100;
		one->sum = 100 * 100000ull;
		one->sumsq = 100 * 1e10;
		one->min = 100000;
		one->max = 10000000000ull;
		one->n = 1;
		one->idx[0] = hist_index(100000);
		one->cnt[0] = 100;
		iv->lat[1] = *one;
	} else if (strcmp(kind, "cpu") == 0) {
		iv->cpu_sys_ns = interval_ns * 64; /* 64 cores' worth */
	} else if (strcmp(kind, "times") == 0) {
		iv->start_ns =
			UINT64_MAX; /* an honest count, impossible times */
		iv->end_ns = 0;
	}
}

static int do_slave(const char *name, char **forges, int nforge)
{
	struct proto_msg m;
	uint32_t idx[1];
	uint64_t cnt[1];
	struct hist_sparse one = { .idx = idx, .cnt = cnt };
	uint32_t phase = 0, intervals = 0;
	uint64_t interval_ns = 0;
	uint64_t deadline = time_mono_ns() + 120ull * 1000000000ull;

	if (!do_hello(name, (unsigned)getpid(), "hostile", 100, 300000000ull))
		return 3;
	fprintf(stderr, "hostile: registered as %s\n", name);
	while (time_mono_ns() < deadline) {
		struct proto_msg r;

		if (!recv_msg(100, &m))
			continue;
		memset(&r, 0, sizeof(r));
		switch (m.type) {
		case PROTO_PING:
			r.type = PROTO_PONG;
			r.u.pong.seq = m.u.ping.seq;
			r.u.pong.t1 = m.u.ping.t1;
			r.u.pong.t2 = r.u.pong.t3 = time_real_ns();
			send_msg(&r);
			break;
		case PROTO_PLAN:
			phase = m.u.plan.phase;
			intervals = m.u.plan.intervals;
			interval_ns = m.u.plan.interval_ns;
			r.type = PROTO_READY;
			r.u.ready.phase = phase;
			send_msg(&r);
			break;
		case PROTO_GO: {
			uint64_t start = m.u.go.start_at;

			if (m.u.go.phase != phase || !intervals)
				break;
			r.type = PROTO_GO_ACK;
			r.u.go_ack.phase = phase;
			send_msg(&r);
			for (uint32_t k = 0; k < intervals; k++) {
				const char *kind = (int)k < nforge ? forges[k] :
								     "ok";
				struct proto_msg iv = { .type = PROTO_INTERVAL };
				uint64_t end = start + (k + 1) * interval_ns;
				uint64_t now = time_real_ns();

				if (end > now)
					time_sleep_ns(end - now);
				iv.u.interval.phase = phase;
				iv.u.interval.seq = k;
				iv.u.interval.start_ns = end - interval_ns;
				iv.u.interval.end_ns = end;
				forge(&iv.u.interval, kind, interval_ns, &one);
				send_msg(&iv);
				if (strncmp(kind, "log:", 4) == 0) {
					struct proto_msg l = {
						.type = PROTO_LOG
					};

					l.u.log.level = 2;
					snprintf(l.u.log.message,
						 sizeof(l.u.log.message), "%s",
						 kind + 4);
					send_msg(&l);
				}
			}
			r.type = PROTO_PHASE_END;
			r.u.phase_end.phase = phase;
			r.u.phase_end.intervals = intervals;
			send_msg(&r);
			intervals = 0;
			break;
		}
		case PROTO_STOP:
		case PROTO_ABORT:
			proto_msg_free(&m);
			return 0;
		default:
			break;
		}
		proto_msg_free(&m);
	}
	return 0;
}

/* The pid of a child of ppid whose command line holds name, 0 if none. */
static unsigned child_named(unsigned ppid, const char *name)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	unsigned found = 0;

	while (d && !found && (e = readdir(d))) {
		char path[300], buf[4096];
		unsigned pid = (unsigned)atoi(e->d_name), pp = 0;
		FILE *f;
		size_t n;

		if (!pid)
			continue;
		snprintf(path, sizeof(path), "/proc/%u/stat", pid);
		f = fopen(path, "r");
		if (!f)
			continue;
		/* pid (comm) state ppid: comm has no ')' for lockstep */
		if (fscanf(f, "%*u (%*[^)]) %*c %u", &pp) != 1)
			pp = 0;
		fclose(f);
		if (pp != ppid)
			continue;
		snprintf(path, sizeof(path), "/proc/%u/cmdline", pid);
		f = fopen(path, "r");
		if (!f)
			continue;
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		for (size_t i = 0; i < n; i++)
			if (!buf[i])
				buf[i] = ' ';
		buf[n] = 0;
		if (strstr(buf, name))
			found = pid;
	}
	if (d)
		closedir(d);
	return found;
}

/* Race a local slave for its name, as a local user could. */
static int do_race(const char *name, unsigned ppid)
{
	uint64_t until = time_mono_ns() + 20 * NS_PER_SEC;
	char host[256] = "";
	unsigned pid = 0;

	gethostname(host, sizeof(host) - 1);
	while (!pid && time_mono_ns() < until)
		pid = child_named(ppid, name);
	if (!pid)
		return 2;
	fprintf(stderr, "hostile: racing %s, pid %u on %s\n", name, pid, host);
	/* 50 hellos 100 ms apart, the first at once. */
	return do_hello(name, pid, host, 50, 100000000ull) ? 0 : 3;
}

/* Hold the master's two ports with plain sockets for secs seconds. */
static int do_squat(const char *ep, int secs)
{
	const char *colon = strrchr(ep, ':');
	char pubep[300];
	void *router = zmq_socket(ctx, ZMQ_ROUTER),
	     *pub = zmq_socket(ctx, ZMQ_PUB);
	int linger = 0;
	uint64_t until = time_mono_ns() + (uint64_t)secs * 1000000000ull;

	if (!colon || !router || !pub)
		return 2;
	zmq_setsockopt(router, ZMQ_LINGER, &linger, sizeof(linger));
	zmq_setsockopt(pub, ZMQ_LINGER, &linger, sizeof(linger));
	snprintf(pubep, sizeof(pubep), "%.*s:%d", (int)(colon - ep), ep,
		 atoi(colon + 1) + 1);
	if (zmq_bind(router, ep) < 0 || zmq_bind(pub, pubep) < 0) {
		fprintf(stderr, "hostile: bind: %s\n",
			zmq_strerror(zmq_errno()));
		return 1;
	}
	while (time_mono_ns() < until) {
		char buf[256];

		/* Read and drop whatever a client sends. */
		zmq_pollitem_t it = { router, 0, ZMQ_POLLIN, 0 };

		if (zmq_poll(&it, 1, 100) > 0)
			while (zmq_recv(router, buf, sizeof(buf),
					ZMQ_DONTWAIT) >= 0)
				;
	}
	zmq_close(router);
	zmq_close(pub);
	return 0;
}

int main(int argc, char **argv)
{
	char subep[300];
	const char *colon;
	int linger = 0, ret = 2;

	if (argc < 4) {
		fprintf(stderr,
			"usage: hostile EP hello|slave|flood|big|squat|race ...\n");
		return 2;
	}
	ctx = zmq_ctx_new();
	if (strcmp(argv[2], "squat") == 0) {
		ret = do_squat(argv[1], atoi(argv[3]));
		zmq_ctx_term(ctx);
		return ret;
	}
	dealer = zmq_socket(ctx, ZMQ_DEALER);
	zmq_setsockopt(dealer, ZMQ_LINGER, &linger, sizeof(linger));
	if (zmq_connect(dealer, argv[1]) < 0) {
		fprintf(stderr, "hostile: %s\n", zmq_strerror(zmq_errno()));
		return 1;
	}
	colon = strrchr(argv[1], ':');
	if (strcmp(argv[2], "slave") == 0 && colon) {
		sub = zmq_socket(ctx, ZMQ_SUB);
		zmq_setsockopt(sub, ZMQ_LINGER, &linger, sizeof(linger));
		zmq_setsockopt(sub, ZMQ_SUBSCRIBE, "", 0);
		snprintf(subep, sizeof(subep), "%.*s:%d",
			 (int)(colon - argv[1]), argv[1], atoi(colon + 1) + 1);
		zmq_connect(sub, subep);
	}
	if (strcmp(argv[2], "hello") == 0) {
		ret = do_hello(argv[3], argc > 4 ? (unsigned)atoi(argv[4]) : 1,
			       argc > 5 ? argv[5] : "hostile", 1,
			       2000000000ull) ?
			      0 :
			      3;
	} else if (strcmp(argv[2], "race") == 0 && argc > 4) {
		ret = do_race(argv[3], (unsigned)atoi(argv[4]));
	} else if (strcmp(argv[2], "slave") == 0) {
		ret = do_slave(argv[3], argv + 4, argc - 4);
	} else if (strcmp(argv[2], "flood") == 0) {
		uint64_t until = time_mono_ns() +
				 (uint64_t)atoi(argv[3]) * 1000000000ull;
		unsigned long long sent = 0;
		int timeout = 100;

		zmq_setsockopt(dealer, ZMQ_SNDTIMEO, &timeout, sizeof(timeout));
		while (time_mono_ns() < until)
			if (zmq_send(dealer, "x", 1, 0) == 1)
				sent++;
		printf("%llu\n", sent);
		ret = 0;
	} else if (strcmp(argv[2], "big") == 0) {
		size_t len = (size_t)atoi(argv[3]) << 20;
		char *buf = calloc(1, len);

		if (buf && zmq_send(dealer, buf, len, 0) == (int)len)
			ret = 0;
		sleep(2); /* let it go out before the socket closes */
		free(buf);
	}
	zmq_close(dealer);
	if (sub)
		zmq_close(sub);
	zmq_ctx_term(ctx);
	return ret;
}
