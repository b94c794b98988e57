/*
 * Over 800 lines on purpose: a whole slave side of the protocol, for
 * thousands of peers in one process, is one tool.
 *
 * Test tool: many fake slaves in one process, for the master's scale
 * benchmark (scripts/bench-master.sh). Each fake slave opens its own DEALER
 * and SUB to the master and plays the slave side of the protocol: hello,
 * pong for every ping, ready for every plan, go_ack for every go, then one
 * interval per interval boundary with two synthetic sparse latency
 * histograms (a few hundred non-zero buckets between ~100 us and ~5 ms, like
 * a real device), phase_end after the last one, heartbeats, and bye on stop.
 * No I/O is done: the point is the master's cost per slave.
 *
 * The histograms come from a small pool built once at start-up with
 * hist_add() of log-normal values, so the fakes spend their CPU on the
 * protocol and not on random numbers. The fakes are split over a few threads,
 * each owning its sockets; all share one ZeroMQ context (more I/O threads and
 * ZMQ_MAX_SOCKETS raised for N). Connections are opened at --ramp per second
 * so that thousands of SYNs do not overflow the master's listen backlog.
 * Each fake holds four descriptors; when RLIMIT_NOFILE cannot be raised
 * enough, the tool says so and several processes with distinct --prefix
 * values do the job (bench-master.sh does that by itself).
 *
 * --hold SEQ (tests/integration/phase_drain.sh): the first fake keeps its
 * interval SEQ (from 0) of the first phase back and sends it 2 s after its
 * phase_end, as a slave's spool re-sends an interval that a dropped
 * connection lost, so the master learns of the hole from phase_end first.
 *
 * --send-log FILE writes, per (phase, seq), when the first and the last fake
 * slave had handed its interval to ZeroMQ (CLOCK_REALTIME ns), so the
 * master's emission delay can be measured against it.
 *
 * usage: fakeslaves --master tcp://HOST:PORT -n N [options]
 * Exit: 0 when every fake slave was stopped by the master, 1 otherwise.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <zmq.h>
#include "common/hist.h"
#include "common/timeutil.h"
#include "proto/proto.h"
#include "slave/conn.h"
#include "slave/engine.h"
#include "lockstep_version.h"

#define POOL_SIZE 16
#define HELLO_RETRY_NS NS_PER_SEC
#define HOUSEKEEP_NS (100 * NS_PER_MS) /* heartbeats, retries, timeouts */
#define HOLD_NS (2 * NS_PER_SEC)       /* --hold: after phase_end */
#define MAX_THREADS 64

/* One synthetic interval: read and write latency, sparse. */
struct synth {
	struct hist_sparse lat[2];
};

struct fake {
	void *dealer, *sub;
	struct proto_hello hello;
	int welcomed, done, stopped;
	uint64_t hb_ns, mt_ns;
	uint64_t last_tx, last_rx, last_hello; /* CLOCK_MONOTONIC */
	/* The phase in progress. */
	int prepared, started;
	uint32_t phase, intervals, next_seq;
	uint64_t interval_ns, start_at; /* start_at on the master clock */
	int64_t offset_ns;              /* slave - master */
	uint64_t ops, bytes;
	unsigned pick;                  /* next pool entry */
	uint32_t warmup;                /* the plan's warmup intervals */
	uint32_t used[POOL_SIZE];       /* measured intervals per entry */
	int hold;                       /* --hold applies to this fake */
	void *held;                     /* the encoded interval held back */
	size_t held_len;
	uint64_t held_at; /* CLOCK_MONOTONIC: when to send it, 0 not yet */
};

/* When the fakes of one thread handed interval (phase, seq) to ZeroMQ. */
struct send_rec {
	uint32_t phase, seq, count;
	uint64_t first_ns, last_ns; /* CLOCK_REALTIME */
};

struct shard {
	pthread_t tid;
	unsigned index;
	struct fake *fakes;
	unsigned n;
	zmq_pollitem_t *items;
	struct send_rec *recs;
	size_t nrecs, caprecs;
	int dirty; /* a phase started: recompute the next deadline */
	uint64_t sent_intervals, acks, errors;
};

static struct {
	const char *endpoint;
	char dealer_ep[512], sub_ep[512];
	const char *prefix;
	const char *send_log;
	unsigned n, threads, io_threads;
	long hold_seq; /* --hold, -1 none */
	double timeout_s;
	double ramp; /* connections opened per second, 0 = all at once */
	int verbose;
	void *ctx;
	struct synth pool[POOL_SIZE];
	uint64_t deadline; /* CLOCK_MONOTONIC */
	atomic_uint registered;
	atomic_uint stopped;
} g = { .prefix = "fake", .timeout_s = 600, .ramp = 2000, .hold_seq = -1 };

static volatile sig_atomic_t quit;

static void on_signal(int sig)
{
	quit = sig;
}

/* ---- synthetic histograms ----------------------------------------------- */

static uint64_t rng_next(uint64_t *s)
{
	/* splitmix64: small and good enough for synthetic latencies. */
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static double rng_unit(uint64_t *s)
{
	return ((double)(rng_next(s) >> 11) + 0.5) / 9007199254740992.0;
}

/* Log-normal value in ns with the given median and shape (Box-Muller). */
static uint64_t lognormal_ns(uint64_t *s, double median_ns, double sigma)
{
	double u1 = rng_unit(s), u2 = rng_unit(s);
	double z = sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);

	return (uint64_t)(median_ns * exp(sigma * z));
}

static int build_pool(uint64_t seed)
{
	struct hist *h = malloc(sizeof(*h));
	size_t lo = SIZE_MAX, hi = 0;

	if (!h)
		return -ENOMEM;
	for (unsigned i = 0; i < POOL_SIZE; i++) {
		/* Reads around 600 us, writes around 1 ms, a few thousand each. */
		static const double median[2] = { 600e3, 1000e3 };
		static const double sigma[2] = { 0.7, 0.6 };
		unsigned count[2];

		count[0] = 4000 + (unsigned)(rng_next(&seed) % 16000);
		count[1] = 1500 + (unsigned)(rng_next(&seed) % 6500);
		for (int d = 0; d < 2; d++) {
			hist_init(h);
			for (unsigned k = 0; k < count[d]; k++)
				hist_add(h, lognormal_ns(&seed, median[d],
							 sigma[d]));
			if (hist_to_sparse(h, &g.pool[i].lat[d]) < 0) {
				free(h);
				return -ENOMEM;
			}
			lo = g.pool[i].lat[d].n < lo ? g.pool[i].lat[d].n : lo;
			hi = g.pool[i].lat[d].n > hi ? g.pool[i].lat[d].n : hi;
		}
	}
	free(h);
	if (g.verbose)
		fprintf(stderr,
			"fakeslaves: %d synthetic intervals, %zu..%zu non-zero buckets per histogram\n",
			POOL_SIZE, lo, hi);
	return 0;
}

static void free_pool(void)
{
	for (unsigned i = 0; i < POOL_SIZE; i++)
		for (int d = 0; d < 2; d++)
			hist_sparse_free(&g.pool[i].lat[d]);
}

/* ---- sending ------------------------------------------------------------ */

static int send_msg(struct shard *sh, struct fake *f,
		    const struct proto_msg *m)
{
	void *buf;
	size_t len;
	int ret = proto_encode(m, &buf, &len);

	if (ret < 0) {
		fprintf(stderr, "fakeslaves: cannot encode %s: %s\n",
			proto_type_name(m->type), strerror(-ret));
		sh->errors++;
		return ret;
	}
	ret = zmq_send(f->dealer, buf, len, ZMQ_DONTWAIT);
	free(buf);
	if (ret < 0) {
		sh->errors++;
		return -zmq_errno();
	}
	f->last_tx = time_mono_ns();
	return 0;
}

static void record_send(struct shard *sh, uint32_t phase, uint32_t seq,
			uint64_t now_real)
{
	struct send_rec *r = NULL;

	/* The record is almost always one of the last few. */
	for (size_t i = sh->nrecs; i-- > 0 && sh->nrecs - i <= 4;)
		if (sh->recs[i].phase == phase && sh->recs[i].seq == seq) {
			r = &sh->recs[i];
			break;
		}
	if (!r) {
		if (sh->nrecs == sh->caprecs) {
			size_t cap = sh->caprecs ? 2 * sh->caprecs : 256;
			struct send_rec *p = realloc(sh->recs, cap * sizeof(*p));

			if (!p)
				return;
			sh->recs = p;
			sh->caprecs = cap;
		}
		r = &sh->recs[sh->nrecs++];
		*r = (struct send_rec){ phase, seq, 0, now_real, now_real };
	}
	r->count++;
	if (now_real < r->first_ns)
		r->first_ns = now_real;
	if (now_real > r->last_ns)
		r->last_ns = now_real;
}

/*
 * The latency of the measured intervals a fake sent, as a real slave
 * sends it in phase_end: the sum of the pool entries it used.
 */
static int phase_lat(const struct fake *f, struct hist_sparse *out)
{
	struct hist *h = malloc(sizeof(*h));
	int rc = 0;

	if (!h)
		return -ENOMEM;
	for (int d = 0; d < 2 && rc == 0; d++) {
		hist_init(h);
		for (unsigned i = 0; i < POOL_SIZE; i++)
			for (uint32_t k = 0; k < f->used[i]; k++)
				hist_add_sparse_unchecked(h, &g.pool[i].lat[d]);
		rc = hist_to_sparse(h, &out[d]);
	}
	free(h);
	return rc;
}

static void send_phase_end(struct shard *sh, struct fake *f)
{
	struct proto_msg m = { .type = PROTO_PHASE_END };

	m.u.phase_end.phase = f->phase;
	m.u.phase_end.intervals = f->next_seq;
	m.u.phase_end.ops = f->ops;
	m.u.phase_end.bytes = f->bytes;
	m.u.phase_end.first_io_ns = f->start_at;
	m.u.phase_end.status = f->next_seq == f->intervals ? 0 : -EINTR;
	if (phase_lat(f, m.u.phase_end.lat) < 0)
		sh->errors++;
	send_msg(sh, f, &m);
	if (f->held && !f->held_at)
		f->held_at = time_mono_ns() + HOLD_NS;
	proto_msg_free(&m);
	f->prepared = f->started = 0;
}

static void send_interval(struct shard *sh, struct fake *f)
{
	struct proto_msg m = { .type = PROTO_INTERVAL };
	struct proto_interval *iv = &m.u.interval;
	const struct synth *sy = &g.pool[f->pick % POOL_SIZE];

	iv->phase = f->phase;
	iv->seq = f->next_seq;
	iv->start_ns = f->start_at + (uint64_t)f->next_seq * f->interval_ns;
	iv->end_ns = iv->start_ns + f->interval_ns;
	iv->first_io_ns = f->start_at;
	for (int d = 0; d < 2; d++) {
		/* Borrowed, not owned: never proto_msg_free() this message. */
		iv->lat[d] = sy->lat[d];
		iv->ops[d] = sy->lat[d].count;
		iv->bytes[d] = sy->lat[d].count * 4096;
		f->ops += iv->ops[d];
		f->bytes += iv->bytes[d];
	}
	iv->cpu_user_ns = f->interval_ns / 100;
	iv->cpu_sys_ns = f->interval_ns / 50;
	iv->cores = f->hello.cores;
	if (f->next_seq >= f->warmup)
		f->used[f->pick % POOL_SIZE]++;
	f->pick++;
	if (f->hold && f->next_seq == g.hold_seq) {
		/* Counted in phase_end's totals, sent after it (tick()). */
		f->hold = 0;
		if (proto_encode(&m, &f->held, &f->held_len) < 0)
			sh->errors++;
	} else if (send_msg(sh, f, &m) == 0) {
		record_send(sh, f->phase, f->next_seq, time_real_ns());
		sh->sent_intervals++;
	}
	f->next_seq++;
	if (f->next_seq == f->intervals)
		send_phase_end(sh, f);
}

static void send_text(struct shard *sh, struct fake *f, enum proto_type t,
		      const char *text)
{
	struct proto_msg m = { .type = t };

	snprintf(m.u.bye.reason, sizeof(m.u.bye.reason), "%s", text);
	send_msg(sh, f, &m);
}

/* Leave the run: end a running phase, say bye. */
static void leave(struct shard *sh, struct fake *f, const char *why)
{
	if (f->done)
		return;
	if (f->welcomed) {
		if (f->started)
			send_phase_end(sh, f);
		send_text(sh, f, PROTO_BYE, why);
	}
	f->done = 1;
}

/* ---- receiving ---------------------------------------------------------- */

static void handle(struct shard *sh, struct fake *f, const void *buf,
		   size_t len)
{
	struct proto_msg m, r = { 0 };
	char err[256];

	if (proto_decode(buf, len, &m, err, sizeof(err)) < 0) {
		fprintf(stderr, "fakeslaves: %s: bad frame from the master: %s\n",
			f->hello.name, err);
		sh->errors++;
		return;
	}
	switch (m.type) {
	case PROTO_WELCOME:
		if (!f->welcomed) {
			f->welcomed = 1;
			if (atomic_fetch_add(&g.registered, 1) + 1 == g.n)
				fprintf(stderr,
					"fakeslaves: all %u slaves registered\n",
					g.n);
		}
		f->hb_ns = m.u.welcome.heartbeat_ns ? m.u.welcome.heartbeat_ns :
						      NS_PER_SEC;
		f->mt_ns = m.u.welcome.master_timeout_ns;
		break;
	case PROTO_PING:
		r.type = PROTO_PONG;
		r.u.pong.seq = m.u.ping.seq;
		r.u.pong.t1 = m.u.ping.t1;
		r.u.pong.t2 = time_real_ns();
		r.u.pong.t3 = time_real_ns();
		send_msg(sh, f, &r);
		break;
	case PROTO_PLAN:
		if (f->started)
			send_phase_end(sh, f);
		f->prepared = 1;
		f->started = 0;
		f->phase = m.u.plan.phase;
		f->intervals = m.u.plan.intervals;
		f->interval_ns = m.u.plan.interval_ns;
		f->offset_ns = m.u.plan.clock_offset_ns;
		f->next_seq = 0;
		f->ops = f->bytes = 0;
		f->warmup = m.u.plan.warmup_intervals;
		memset(f->used, 0, sizeof(f->used));
		r.type = PROTO_READY;
		r.u.ready.phase = f->phase;
		send_msg(sh, f, &r);
		break;
	case PROTO_GO:
		if (!f->prepared || m.u.go.phase != f->phase)
			break;
		if (!f->started) {
			f->started = 1;
			f->start_at = m.u.go.start_at;
			sh->dirty = 1;
		}
		r.type = PROTO_GO_ACK;
		r.u.go_ack.phase = m.u.go.phase;
		send_msg(sh, f, &r);
		break;
	case PROTO_MEASURE:
		/* warmup=steady: the window as the real slave moves it. */
		if (f->prepared && m.u.measure.phase == f->phase &&
		    m.u.measure.from <= f->warmup &&
		    m.u.measure.intervals <= f->intervals &&
		    m.u.measure.intervals > f->next_seq) {
			f->warmup = m.u.measure.from;
			f->intervals = m.u.measure.intervals;
		}
		break;
	case PROTO_ACK:
		sh->acks++;
		break;
	case PROTO_STOP:
	case PROTO_ABORT:
		if (!f->stopped) {
			f->stopped = 1;
			atomic_fetch_add(&g.stopped, 1);
		}
		leave(sh, f, m.type == PROTO_STOP ? "stopped" : "aborted");
		break;
	default:
		break;
	}
	proto_msg_free(&m);
}

static void drain(struct shard *sh, struct fake *f, void *sock)
{
	zmq_msg_t msg;

	for (;;) {
		zmq_msg_init(&msg);
		if (zmq_msg_recv(&msg, sock, ZMQ_DONTWAIT) < 0) {
			zmq_msg_close(&msg);
			return;
		}
		if (sock == f->dealer)
			f->last_rx = time_mono_ns();
		if (!f->done)
			handle(sh, f, zmq_msg_data(&msg), zmq_msg_size(&msg));
		zmq_msg_close(&msg);
	}
}

/* ---- the shard loop ----------------------------------------------------- */

/* CLOCK_MONOTONIC time at which interval f->next_seq is due. */
static uint64_t interval_due(const struct fake *f, uint64_t now_mono,
			     uint64_t now_real)
{
	int64_t due_real = (int64_t)(f->start_at + (uint64_t)(f->next_seq + 1) *
							    f->interval_ns) +
			   f->offset_ns;

	return (uint64_t)((int64_t)now_mono + (due_real - (int64_t)now_real));
}

/*
 * Do what is due for one fake; return when its next interval is due
 * (UINT64_MAX if none). Heartbeats, hello retries and the master timeout
 * are checked on every housekeeping pass, so they need no wake-up of their
 * own: one wake-up per pass serves every fake of the shard.
 */
static uint64_t tick(struct shard *sh, struct fake *f, uint64_t now,
		     uint64_t now_real)
{
	if (f->done)
		return UINT64_MAX;
	if (!f->welcomed) {
		if (now - f->last_hello >= HELLO_RETRY_NS) {
			struct proto_msg m = { .type = PROTO_HELLO };

			m.u.hello = f->hello;
			send_msg(sh, f, &m);
			f->last_hello = now;
		}
		return UINT64_MAX;
	}
	while (f->started && f->next_seq < f->intervals &&
	       interval_due(f, now, now_real) <= now)
		send_interval(sh, f);
	if (f->held && f->held_at && now >= f->held_at) {
		if (zmq_send(f->dealer, f->held, f->held_len, ZMQ_DONTWAIT) < 0)
			sh->errors++;
		free(f->held);
		f->held = NULL;
	}
	/* As the real slave: in a phase the intervals are the heartbeat. */
	if (f->started && f->next_seq < f->intervals ?
		    now - f->last_tx >= f->hb_ns + f->hb_ns / 4 :
		    now - f->last_tx + HOUSEKEEP_NS >= f->hb_ns) {
		struct proto_msg m = { .type = PROTO_HEARTBEAT };

		m.u.heartbeat.now_ns = now_real;
		send_msg(sh, f, &m);
	}
	if (f->mt_ns && now - f->last_rx > f->mt_ns) {
		fprintf(stderr,
			"fakeslaves: %s: no word from the master for %.1f s: leaving\n",
			f->hello.name, (double)(now - f->last_rx) / 1e9);
		leave(sh, f, "master timeout");
		return UINT64_MAX;
	}
	if (f->started && f->next_seq < f->intervals)
		return interval_due(f, now, now_real);
	return UINT64_MAX;
}

static int open_fake(struct fake *f, unsigned idx, const char *host,
		     uint64_t *seed)
{
	int zero = 0, ivl = 100, ivl_max = 1000;
	uint64_t a = rng_next(seed), b = rng_next(seed);

	f->hold = idx == 0 && g.hold_seq >= 0;
	f->dealer = zmq_socket(g.ctx, ZMQ_DEALER);
	f->sub = zmq_socket(g.ctx, ZMQ_SUB);
	if (!f->dealer || !f->sub)
		return -zmq_errno();
	zmq_setsockopt(f->dealer, ZMQ_LINGER, &zero, sizeof(zero));
	zmq_setsockopt(f->sub, ZMQ_LINGER, &zero, sizeof(zero));
	/* Never drop an interval for a full queue, like the real slave. */
	zmq_setsockopt(f->dealer, ZMQ_SNDHWM, &zero, sizeof(zero));
	zmq_setsockopt(f->dealer, ZMQ_RCVHWM, &zero, sizeof(zero));
	zmq_setsockopt(f->dealer, ZMQ_RECONNECT_IVL, &ivl, sizeof(ivl));
	zmq_setsockopt(f->dealer, ZMQ_RECONNECT_IVL_MAX, &ivl_max,
		       sizeof(ivl_max));
	zmq_setsockopt(f->sub, ZMQ_RECONNECT_IVL, &ivl, sizeof(ivl));
	zmq_setsockopt(f->sub, ZMQ_RECONNECT_IVL_MAX, &ivl_max,
		       sizeof(ivl_max));
	zmq_setsockopt(f->sub, ZMQ_SUBSCRIBE, "", 0);
	if (zmq_connect(f->dealer, g.dealer_ep) < 0 ||
	    zmq_connect(f->sub, g.sub_ep) < 0)
		return -zmq_errno();

	/* A uuid-shaped id (version 4 bits set) from the seeded generator. */
	snprintf(f->hello.id, sizeof(f->hello.id),
		 "%08" PRIx32 "-%04" PRIx32 "-4%03" PRIx32 "-%04" PRIx32
		 "-%012" PRIx64,
		 (uint32_t)a, (uint32_t)(a >> 32) & 0xffff,
		 (uint32_t)(a >> 48) & 0xfff,
		 ((uint32_t)b & 0x3fff) | 0x8000,
		 (b >> 16) & UINT64_C(0xffffffffffff));
	snprintf(f->hello.name, sizeof(f->hello.name), "%s-%05u", g.prefix,
		 idx + 1);
	snprintf(f->hello.host, sizeof(f->hello.host), "%s", host);
	f->hello.pid = (uint32_t)getpid();
	f->hello.cores = (uint32_t)sysconf(_SC_NPROCESSORS_ONLN);
	snprintf(f->hello.version, sizeof(f->hello.version), "%s",
		 LOCKSTEP_VERSION);
	for (const char *const *e = engine_names();
	     *e && f->hello.nengines < PROTO_MAX_ENGINES; e++)
		snprintf(f->hello.engines[f->hello.nengines++], PROTO_NAME_LEN,
			 "%s", *e);
	f->hb_ns = NS_PER_SEC;
	f->pick = idx;
	return 0;
}

static void *shard_main(void *arg)
{
	struct shard *sh = arg;
	uint64_t next = 0;

	for (;;) {
		uint64_t now = time_mono_ns();
		long timeout_ms;

		/* Ticks are O(fakes): only on a deadline or a new phase. */
		if (now >= next || sh->dirty) {
			uint64_t now_real = time_real_ns();
			unsigned left = 0;

			sh->dirty = 0;
			next = now + HOUSEKEEP_NS;
			for (unsigned i = 0; i < sh->n; i++) {
				uint64_t t = tick(sh, &sh->fakes[i], now,
						  now_real);

				left += !sh->fakes[i].done;
				next = t < next ? t : next;
			}
			if (!left)
				break;
		}
		if (quit || now > g.deadline) {
			for (unsigned i = 0; i < sh->n; i++)
				leave(sh, &sh->fakes[i],
				      quit ? "interrupted" : "timeout");
			break;
		}
		now = time_mono_ns();
		timeout_ms = next > now ? (long)((next - now + NS_PER_MS - 1) /
						 NS_PER_MS) : 0;
		if (zmq_poll(sh->items, (int)(2 * sh->n), timeout_ms) < 0 &&
		    zmq_errno() != EINTR) {
			fprintf(stderr, "fakeslaves: zmq_poll: %s\n",
				zmq_strerror(zmq_errno()));
			sh->errors++;
			break;
		}
		for (unsigned i = 0; i < 2 * sh->n; i++)
			if (sh->items[i].revents & ZMQ_POLLIN)
				drain(sh, &sh->fakes[i / 2],
				      sh->items[i].socket);
	}
	return NULL;
}

/* ---- set-up ------------------------------------------------------------- */

static int cmp_rec(const void *a, const void *b)
{
	const struct send_rec *x = a, *y = b;

	if (x->phase != y->phase)
		return x->phase < y->phase ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return 0;
}

/* Merge the shards' records per (phase, seq) and write them as CSV. */
static int write_send_log(struct shard *sh, unsigned nsh)
{
	struct send_rec *all;
	size_t n = 0, k = 0;
	FILE *f;

	for (unsigned i = 0; i < nsh; i++)
		n += sh[i].nrecs;
	all = malloc((n ? n : 1) * sizeof(*all));
	if (!all)
		return -ENOMEM;
	for (unsigned i = 0; i < nsh; i++) {
		memcpy(all + k, sh[i].recs, sh[i].nrecs * sizeof(*all));
		k += sh[i].nrecs;
	}
	qsort(all, n, sizeof(*all), cmp_rec);
	f = fopen(g.send_log, "w");
	if (!f) {
		fprintf(stderr, "fakeslaves: cannot write %s: %s\n",
			g.send_log, strerror(errno));
		free(all);
		return -errno;
	}
	fprintf(f, "phase,seq,slaves,first_send_ns,last_send_ns\n");
	for (size_t i = 0; i < n;) {
		struct send_rec r = all[i++];

		while (i < n && all[i].phase == r.phase && all[i].seq == r.seq) {
			r.count += all[i].count;
			r.first_ns = all[i].first_ns < r.first_ns ?
					     all[i].first_ns : r.first_ns;
			r.last_ns = all[i].last_ns > r.last_ns ? all[i].last_ns :
								  r.last_ns;
			i++;
		}
		fprintf(f, "%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu64
			   ",%" PRIu64 "\n",
			r.phase, r.seq, r.count, r.first_ns, r.last_ns);
	}
	free(all);
	return fclose(f) == 0 ? 0 : -EIO;
}

/*
 * Every fake holds four descriptors: two socket mailboxes and two TCP
 * connections. Raise the soft limit as far as the hard one allows, and say
 * so plainly when that is not enough rather than let the last fakes fail to
 * connect in silence.
 */
static int check_fd_limit(void)
{
	uint64_t want = 4 * (uint64_t)g.n + 256;
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return 0;
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < want) {
		rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > want ?
				      want : rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
		getrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < want) {
		fprintf(stderr,
			"fakeslaves: %u slaves need about %" PRIu64
			" open files, the limit is %llu: run several processes with distinct --prefix (at most %llu slaves each) or raise ulimit -n\n",
			g.n, want, (unsigned long long)rl.rlim_cur,
			(unsigned long long)(rl.rlim_cur > 256 ?
						     (rl.rlim_cur - 256) / 4 : 0));
		return -EMFILE;
	}
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: fakeslaves --master tcp://HOST:PORT -n N [options]\n"
		"  --master EP        the master's ROUTER endpoint (PUB is PORT+1)\n"
		"  -n, --slaves N     fake slaves to run (1..20000)\n"
		"  --threads T        threads sharing the fakes (default: CPUs, at most N/100+1)\n"
		"  --io-threads T     ZeroMQ I/O threads (default N/1000+1, at most 4)\n"
		"  --prefix NAME      slave names are NAME-00001... (default fake)\n"
		"  --hold SEQ         the first fake sends interval SEQ (from 0) 2 s after its phase_end\n"
		"  --send-log FILE    CSV of when each interval's first and last message was sent\n"
		"  --ramp RATE        open RATE connections per second (default 2000, 0 = all at once)\n"
		"  --timeout S        give up after S seconds (default 600)\n"
		"  -v, --verbose      say more\n");
}

static int parse_args(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "master", required_argument, NULL, 'm' },
		{ "slaves", required_argument, NULL, 'n' },
		{ "threads", required_argument, NULL, 't' },
		{ "io-threads", required_argument, NULL, 'I' },
		{ "prefix", required_argument, NULL, 'p' },
		{ "send-log", required_argument, NULL, 'l' },
		{ "hold", required_argument, NULL, 'H' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "ramp", required_argument, NULL, 'r' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	long v;
	int c;

	while ((c = getopt_long(argc, argv, "n:vh", opts, NULL)) != -1) {
		switch (c) {
		case 'm':
			g.endpoint = optarg;
			break;
		case 'n':
		case 't':
		case 'I':
			v = strtol(optarg, &end, 10);
			if (*end || v < 1 || v > (c == 'n' ? 20000 : MAX_THREADS)) {
				fprintf(stderr, "fakeslaves: bad count '%s'\n",
					optarg);
				return -EINVAL;
			}
			if (c == 'n')
				g.n = (unsigned)v;
			else if (c == 't')
				g.threads = (unsigned)v;
			else
				g.io_threads = (unsigned)v;
			break;
		case 'p':
			if (strlen(optarg) > 40) {
				fprintf(stderr, "fakeslaves: prefix too long\n");
				return -EINVAL;
			}
			g.prefix = optarg;
			break;
		case 'l':
			g.send_log = optarg;
			break;
		case 'H':
			g.hold_seq = strtol(optarg, &end, 10);
			if (*end || g.hold_seq < 0 || g.hold_seq > 1000000) {
				fprintf(stderr, "fakeslaves: bad --hold '%s'\n",
					optarg);
				return -EINVAL;
			}
			break;
		case 'T':
			g.timeout_s = strtod(optarg, &end);
			if (*end || !(g.timeout_s > 0)) {
				fprintf(stderr, "fakeslaves: bad timeout '%s'\n",
					optarg);
				return -EINVAL;
			}
			break;
		case 'r':
			g.ramp = strtod(optarg, &end);
			if (*end || !(g.ramp >= 0)) {
				fprintf(stderr, "fakeslaves: bad ramp '%s'\n",
					optarg);
				return -EINVAL;
			}
			break;
		case 'v':
			g.verbose = 1;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -EINVAL;
		}
	}
	if (!g.endpoint || !g.n || optind != argc) {
		usage(stderr);
		return -EINVAL;
	}
	if (conn_endpoints(g.endpoint, g.dealer_ep, g.sub_ep,
			   sizeof(g.dealer_ep)) < 0) {
		fprintf(stderr, "fakeslaves: bad endpoint '%s' (want tcp://HOST:PORT)\n",
			g.endpoint);
		return -EINVAL;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct fake *fakes = NULL;
	struct shard *sh = NULL;
	zmq_pollitem_t *items = NULL;
	char host[PROTO_HOST_LEN] = "fakeslaves";
	uint64_t seed;
	unsigned ncpu = (unsigned)sysconf(_SC_NPROCESSORS_ONLN), started = 0;
	int ret = 1;

	if (parse_args(argc, argv) < 0 || check_fd_limit() < 0)
		return 2;
	if (!g.threads) {
		g.threads = ncpu ? ncpu : 1;
		if (g.threads > g.n / 100 + 1)
			g.threads = g.n / 100 + 1;
	}
	if (g.threads > g.n)
		g.threads = g.n;
	if (!g.io_threads)
		g.io_threads = g.n / 1000 + 1 > 4 ? 4 : g.n / 1000 + 1;
	gethostname(host, sizeof(host) - 1);
	seed = time_real_ns() ^ ((uint64_t)getpid() << 32);
	if (build_pool(seed) < 0) {
		fprintf(stderr, "fakeslaves: out of memory\n");
		goto out;
	}

	g.ctx = zmq_ctx_new();
	if (!g.ctx)
		goto out;
	/* Both must be set before the first socket exists. */
	zmq_ctx_set(g.ctx, ZMQ_IO_THREADS, (int)g.io_threads);
	if (zmq_ctx_set(g.ctx, ZMQ_MAX_SOCKETS, (int)(2 * g.n + 16)) < 0) {
		fprintf(stderr, "fakeslaves: cannot allow %u sockets: %s\n",
			2 * g.n + 16, zmq_strerror(zmq_errno()));
		goto out;
	}
	fakes = calloc(g.n, sizeof(*fakes));
	items = calloc(2 * g.n, sizeof(*items));
	sh = calloc(g.threads, sizeof(*sh));
	if (!fakes || !items || !sh) {
		fprintf(stderr, "fakeslaves: out of memory\n");
		goto out;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	for (unsigned i = 0; i < g.n && !quit; i++) {
		int r;

		/* A burst of thousands of SYNs overflows the master's backlog. */
		if (g.ramp > 0 && i > 0 && i % 50 == 0)
			time_sleep_ns((uint64_t)(50e9 / g.ramp));
		r = open_fake(&fakes[i], i, host, &seed);
		if (r < 0) {
			fprintf(stderr,
				"fakeslaves: slave %u: %s (raise ulimit -n?)\n",
				i + 1, zmq_strerror(-r));
			goto out;
		}
		items[2 * i] = (zmq_pollitem_t){ fakes[i].dealer, 0,
						 ZMQ_POLLIN, 0 };
		items[2 * i + 1] = (zmq_pollitem_t){ fakes[i].sub, 0,
						     ZMQ_POLLIN, 0 };
	}
	if (quit)
		goto out;
	g.deadline = time_mono_ns() + (uint64_t)(g.timeout_s * 1e9);
	fprintf(stderr,
		"fakeslaves: %u slaves on %s (%u threads, %u ZeroMQ I/O threads)\n",
		g.n, g.dealer_ep, g.threads, g.io_threads);
	for (unsigned t = 0, first = 0; t < g.threads; t++) {
		unsigned cnt = g.n / g.threads + (t < g.n % g.threads);

		sh[t].index = t;
		sh[t].fakes = fakes + first;
		sh[t].items = items + 2 * first;
		sh[t].n = cnt;
		first += cnt;
		if (pthread_create(&sh[t].tid, NULL, shard_main, &sh[t]) != 0) {
			fprintf(stderr, "fakeslaves: cannot start a thread\n");
			quit = SIGTERM;
			break;
		}
		started++;
	}
	for (unsigned t = 0; t < started; t++)
		pthread_join(sh[t].tid, NULL);
	if (started == g.threads) {
		uint64_t sent = 0, acks = 0, errs = 0;

		for (unsigned t = 0; t < g.threads; t++) {
			sent += sh[t].sent_intervals;
			acks += sh[t].acks;
			errs += sh[t].errors;
		}
		fprintf(stderr,
			"fakeslaves: %u registered, %u stopped by the master, %" PRIu64
			" intervals sent, %" PRIu64 " acks, %" PRIu64 " errors\n",
			atomic_load(&g.registered), atomic_load(&g.stopped),
			sent, acks, errs);
		ret = atomic_load(&g.stopped) == g.n && errs == 0 ? 0 : 1;
	}
	if (g.send_log && write_send_log(sh, started) < 0)
		ret = 1;
out:
	if (fakes) {
		/* Give bye a moment to leave. */
		int linger = 500;

		for (unsigned i = 0; i < g.n; i++) {
			if (fakes[i].dealer) {
				zmq_setsockopt(fakes[i].dealer, ZMQ_LINGER,
					       &linger, sizeof(linger));
				zmq_close(fakes[i].dealer);
			}
			if (fakes[i].sub)
				zmq_close(fakes[i].sub);
		}
	}
	if (sh)
		for (unsigned t = 0; t < g.threads; t++)
			free(sh[t].recs);
	free(sh);
	free(items);
	free(fakes);
	if (g.ctx)
		zmq_ctx_term(g.ctx);
	free_pool();
	return ret;
}
