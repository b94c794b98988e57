/*
 * The master: `lockstep run FILE`. It parses the parameter file, starts (or
 * waits for) its slaves, and drives them through every phase in lockstep:
 * clock samples, plan, ready, a broadcast go at a common start time, then
 * the interval merge, printing one cluster line per interval and writing the
 * results folder as it goes. Decisions live in pure modules (plan.c,
 * merge.c); this file is the conductor and the only place with sockets
 * (through hub.c), processes and files.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <uuid/uuid.h>
#include "common/clockoff.h"
#include "common/jsonw.h"
#include "common/log.h"
#include "common/params.h"
#include "common/stats.h"
#include "common/timeutil.h"
#include "master/hub.h"
#include "master/launch.h"
#include "master/master.h"
#include "master/merge.h"
#include "master/plan.h"
#include "master/report.h"
#include "proto/proto.h"

#define MAX_SLAVES 8192
#define CLOCK_SAMPLES 16
#define GO_RESEND_NS (100 * NS_PER_MS)
#define PEER_SLOTS 16384           /* > 2 x MAX_SLAVES, a power of two */
#define HOSTS_FLUSH_NS (5 * NS_PER_SEC)
/*
 * While intervals flow, wait this long after a wake-up with frames before
 * draining them: the ZeroMQ I/O thread then hands over many frames per
 * wake-up instead of one (with 1000 slaves, 20 ms instead of 5 saves a
 * sixth of the master's CPU). Never while clocks are measured: a pong read
 * late makes the round trip look long and skews the offset by half of it.
 */
#define BATCH_NS (20 * NS_PER_MS)
#define LIVENESS_NS (50 * NS_PER_MS) /* how often silence is judged */
#define ACK_DELAY_NS (1500 * NS_PER_MS) /* a lone interval's ack waits */

enum slave_state { SLAVE_JOINED, SLAVE_LOST, SLAVE_GONE };

struct slave_rec {
	/*
	 * First what check_liveness() reads of every slave 20 times a
	 * second: one cache line, not three, per slave.
	 */
	enum slave_state state;
	int in_phase;
	uint64_t last_rx;        /* CLOCK_MONOTONIC */
	uint64_t last_tx;
	unsigned contig;         /* intervals 0..contig-1 all received */
	unsigned acked;          /* intervals 0..acked-1 acknowledged */
	uint64_t ack_wait;       /* when the oldest unacknowledged one came */
	struct hub_peer peer;
	struct proto_hello hello;
	struct clockoff clk;
	uint64_t last_heard_real;
	pid_t pid;               /* a local child, else 0 */
	FILE *csv;               /* hosts/<name>.csv */
	uint64_t lost_real;      /* when it was marked lost (last time) */
	uint64_t back_real;      /* when it came back (last time) */
	unsigned losses;
	int hd;                  /* index of its hd= line, -1 for none */
	/* Per phase (and in_phase, contig, acked, ack_wait above). */
	int ready, go_acked, ended;
	unsigned end_intervals;  /* intervals it sent, from phase_end */
	uint64_t first_io;       /* master clock */
	unsigned char *got;      /* intervals received */
	struct hist_sparse end_lat[2]; /* its measured latency, phase_end */
};

struct slave_total {
	int ran;                  /* it sent intervals of this run */
	const char *no_pct;       /* why v has no percentiles, or NULL */
	struct stats_view v;
};

struct run_result {
	struct plan_phase ph;
	int done;
	int skipped;              /* a curve point not run (see plan.h) */
	int curve_stopped;        /* curve-max: stopcurve= ended its points */
	uint64_t duration_ns;     /* from start to the last phase_end */
	uint64_t done_bytes;      /* format: written so far (emitted rows) */
	uint64_t start_skew_ns;
	uint64_t start_at;
	struct stats_view view;   /* the run's totals over its measured time */
	struct slave_total *slave; /* per slave at the run, from the merge */
	unsigned nslave;
};

struct master {
	/* Options. */
	const char *param_path;
	const char *outdir_opt;
	const char *engine;
	const char *bind;
	const char *advertise;    /* the address slaves connect to */
	int insecure;
	unsigned port;
	unsigned nlocal;
	struct plan_overrides ov;
	uint64_t slave_timeout_ns;
	uint64_t join_timeout_ns;
	uint64_t ready_timeout_ns;
	uint64_t grace_ns;
	uint64_t heartbeat_ns;
	uint64_t batch_ns;        /* BATCH_NS in run_phase(), else 0 */
	uint64_t master_timeout_ns;
	int verbose;
	int abort_on_loss;
	unsigned expect;          /* external slaves to wait for */

	struct params *params;
	struct plan_phase *phases;
	size_t nphases;
	struct hub *hub;
	unsigned bound_port;
	char run_id[PROTO_ID_LEN];
	char dir[PATH_MAX];
	FILE *log;
	FILE *icsv;
	uint64_t started_real;

	struct slave_rec *slaves;
	unsigned nslaves;
	int peer_tab[PEER_SLOTS];   /* slave index + 1 by routing id hash */
	uint64_t hosts_flushed;     /* when the slaves' CSV files were flushed */
	uint64_t liveness_at;       /* when silence was last judged */
	struct launch launch;
	struct run_result *runs;
	size_t nruns;

	/* The phase in progress. */
	unsigned phase_no;
	struct merge *merge;
	struct run_result *cur;
	struct stats *scratch;

	int registering;          /* new slave names are accepted */
	int tty;                  /* stdout is a terminal */
	int exit_code;
	int stop_run;           /* stop the run: a slave was lost under
				     --on-slave-loss=abort, or failed */
};

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	if (interrupted)
		_exit(MASTER_EXIT_ABORTED); /* second signal: leave at once */
	interrupted = sig;
}

/* ---- sending ---------------------------------------------------------- */

static void free_end_lat(struct slave_rec *s)
{
	for (int d = 0; d < 2; d++) {
		hist_sparse_free(&s->end_lat[d]);
		memset(&s->end_lat[d], 0, sizeof(s->end_lat[d]));
	}
}

/*
 * The slave's own histograms of the phase (phase_end) give its percentiles
 * only if they hold exactly the intervals the master counted for it: same
 * count, sum, min and max per direction. NULL if they do, else why not.
 */
static const char *end_lat_mismatch(const struct slave_rec *s,
				    const struct stats_sums *st)
{
	if (!s->ended)
		return "it did not end the phase (lost, or the run stopped first)";
	for (int d = 0; d < 2; d++) {
		const struct hist_sparse *h = &s->end_lat[d];
		const struct stats_lat_sums *l = &st->lat[d];

		if (h->count != l->count || h->sum != l->sum ||
		    (h->count && (h->min != l->min || h->max != l->max)))
			return "its own totals differ from the intervals the master received";
	}
	return NULL;
}

/* Send msg, already encoded as buf. */
static int send_frame(struct master *m, struct slave_rec *s,
		      const struct proto_msg *msg, const void *buf, size_t len)
{
	int ret = hub_send(m->hub, &s->peer, buf, len);

	if (ret == 0)
		s->last_tx = time_mono_ns();
	else if (s->state == SLAVE_JOINED)
		log_debug("send %s to %s: %s", proto_type_name(msg->type),
			  s->hello.name, strerror(-ret));
	return ret;
}

static int send_to(struct master *m, struct slave_rec *s,
		   const struct proto_msg *msg)
{
	void *buf;
	size_t len;
	int ret = proto_encode(msg, &buf, &len);

	if (ret < 0) {
		log_error("cannot encode %s: %s", proto_type_name(msg->type),
			  strerror(-ret));
		return ret;
	}
	ret = send_frame(m, s, msg, buf, len);
	free(buf);
	return ret;
}

static void send_text(struct master *m, struct slave_rec *s,
		      enum proto_type type, const char *reason)
{
	struct proto_msg msg = { .type = type };

	snprintf(msg.u.stop.reason, sizeof(msg.u.stop.reason), "%s", reason);
	send_to(m, s, &msg);
}

static void stop_all(struct master *m, enum proto_type type,
		     const char *reason)
{
	for (unsigned i = 0; i < m->nslaves; i++)
		if (m->slaves[i].state == SLAVE_JOINED)
			send_text(m, &m->slaves[i], type, reason);
}

/* ---- frames ----------------------------------------------------------- */

/* Slaves by ZeroMQ routing id: an open-addressing hash table. */
static unsigned peer_hash(const struct hub_peer *p)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < p->len; i++)
		h = (h ^ p->id[i]) * 0x100000001b3ull;
	return (unsigned)(h ^ (h >> 32)) & (PEER_SLOTS - 1);
}

static int peer_equal(const struct hub_peer *a, const struct hub_peer *b)
{
	return a->len == b->len && memcmp(a->id, b->id, a->len) == 0;
}

static void peer_insert(struct master *m, unsigned idx)
{
	unsigned h = peer_hash(&m->slaves[idx].peer);

	while (m->peer_tab[h])
		h = (h + 1) & (PEER_SLOTS - 1);
	m->peer_tab[h] = (int)idx + 1;
}

/* After a slave's routing id changed (rare): build the table anew. */
static void peer_rebuild(struct master *m)
{
	memset(m->peer_tab, 0, sizeof(m->peer_tab));
	for (unsigned i = 0; i < m->nslaves; i++)
		peer_insert(m, i);
}

static struct slave_rec *find_peer(struct master *m, const struct hub_peer *p)
{
	for (unsigned h = peer_hash(p); m->peer_tab[h];
	     h = (h + 1) & (PEER_SLOTS - 1)) {
		struct slave_rec *s = &m->slaves[m->peer_tab[h] - 1];

		if (peer_equal(&s->peer, p))
			return s;
	}
	return NULL;
}

static void open_slave_csv(struct master *m, struct slave_rec *s)
{
	char path[PATH_MAX + 128];

	snprintf(path, sizeof(path), "%s/hosts/%s.csv", m->dir, s->hello.name);
	s->csv = fopen(path, "w");
	if (!s->csv) {
		log_warn("cannot write %s: %s", path, strerror(errno));
		return;
	}
	report_csv_header(s->csv);
}

static void expected_name(const struct params_hd *hd, unsigned k, char *buf,
			  size_t len);

/* The hd= line a slave of this name belongs to, -1 for none. */
static int hd_of_name(struct master *m, const char *name)
{
	char want[PROTO_NAME_LEN];

	for (size_t h = 0; h < m->params->nhd; h++)
		for (unsigned k = 0; k < m->params->hd[h].slaves; k++) {
			expected_name(&m->params->hd[h], k, want, sizeof(want));
			if (strcmp(want, name) == 0)
				return (int)h;
		}
	return -1;
}

static struct slave_rec *find_name(struct master *m, const char *name)
{
	for (unsigned i = 0; i < m->nslaves; i++)
		if (strcmp(m->slaves[i].hello.name, name) == 0)
			return &m->slaves[i];
	return NULL;
}

/*
 * A slave we knew is back: a reconnect after it was declared lost, or a new
 * process under the same name. It takes part from the next phase on.
 */
static void slave_back(struct master *m, struct slave_rec *s,
		       const struct hub_peer *peer, const struct proto_hello *h)
{
	unsigned idx = (unsigned)(s - m->slaves);

	if (s->state == SLAVE_JOINED && s->in_phase && m->merge) {
		/* A restart we did not notice: its old process is gone. */
		merge_slave_lost(m->merge, idx);
		s->lost_real = time_real_ns();
		s->losses++;
		if (m->exit_code == MASTER_EXIT_OK)
			m->exit_code = MASTER_EXIT_DEGRADED;
	}
	if (h && strcmp(h->id, s->hello.id) != 0)
		log_warn("slave %s is back as a new process (pid %u, was %u); it joins at the next phase",
			 h->name, h->pid, s->hello.pid);
	else
		log_warn("slave %s is back; it joins at the next phase",
			 s->hello.name);
	if (peer && !peer_equal(&s->peer, peer)) {
		s->peer = *peer;
		peer_rebuild(m);
	}
	if (h)
		s->hello = *h;
	s->state = SLAVE_JOINED;
	s->in_phase = 0;
	s->back_real = time_real_ns();
	s->last_rx = time_mono_ns();
}

static void on_hello(struct master *m, const struct hub_peer *peer,
		     const struct proto_hello *h)
{
	struct proto_msg w = { .type = PROTO_WELCOME };
	struct slave_rec *s = find_peer(m, peer);

	if (!s)
		s = find_name(m, h->name);
	if (s && (s->state != SLAVE_JOINED || strcmp(s->hello.id, h->id) ||
		  s->peer.len != peer->len ||
		  memcmp(s->peer.id, peer->id, peer->len))) {
		slave_back(m, s, peer, h);
	} else if (!s) {
		if (!m->registering) {
			log_warn("slave %s (pid %u on %s) refused: the run has started and it is not one of its slaves",
				 h->name, h->pid, h->host);
			return;
		}
		if (m->params->nhd && hd_of_name(m, h->name) < 0) {
			log_warn("slave %s (pid %u on %s) refused: no hd= line names it",
				 h->name, h->pid, h->host);
			return;
		}
		if (m->nslaves >= MAX_SLAVES) {
			log_warn("slave %s refused: %d slaves at most", h->name,
				 MAX_SLAVES);
			return;
		}
		s = &m->slaves[m->nslaves++];
		memset(s, 0, sizeof(*s));
		s->peer = *peer;
		peer_insert(m, (unsigned)(s - m->slaves));
		s->hello = *h;
		s->state = SLAVE_JOINED;
		s->last_rx = time_mono_ns();
		s->hd = hd_of_name(m, h->name);
		clockoff_init(&s->clk);
		open_slave_csv(m, s);
		log_info("slave %s registered (host %s, pid %u, %u cores)",
			 h->name, h->host, h->pid, h->cores);
	}
	snprintf(w.u.welcome.run_id, sizeof(w.u.welcome.run_id), "%s",
		 m->run_id);
	w.u.welcome.slave_index = (uint32_t)(s - m->slaves);
	w.u.welcome.heartbeat_ns = m->heartbeat_ns;
	w.u.welcome.master_timeout_ns = m->master_timeout_ns;
	send_to(m, s, &w);
}

/*
 * Write one slave's interval to hosts/<name>.csv, and to intervals.csv as a
 * `late` row when it arrived after its cluster row was written: the cluster
 * row plus the late rows of an interval hold every I/O of it.
 */
static void slave_csv_row(struct master *m, struct slave_rec *s,
			  const struct proto_interval *iv, const char *note,
			  int late)
{
	struct stats *st = m->scratch; /* only its counters are used */
	struct stats_view v;
	uint64_t now = time_real_ns();

	if (!m->cur)
		return;
	for (int d = 0; d < 2; d++) {
		st->ops[d] = iv->ops[d];
		st->bytes[d] = iv->bytes[d];
	}
	st->errors = iv->errors;
	st->cpu_user_ns = iv->cpu_user_ns;
	st->cpu_sys_ns = iv->cpu_sys_ns;
	st->cpu_avail_ns = m->cur->ph.interval_ns * (iv->cores ? iv->cores : 1);
	stats_view_sparse(st, iv->lat, m->cur->ph.interval_s, &v);
	if (s->csv)
		report_csv_row(s->csv, m->cur->ph.name, iv->seq + 1, note,
			       iv->start_ns, iv->end_ns, 1, 1, &v, now);
	if (late && m->icsv) {
		report_csv_row(m->icsv, m->cur->ph.name, iv->seq + 1, "late",
			       iv->start_ns, iv->end_ns, 1, 0, &v, now);
		fflush(m->icsv);
	}
}

/*
 * Acknowledge what a slave sent: one ack covers every interval up to the
 * highest contiguous one, so it goes out once two are waiting, at once for
 * a re-sent interval (urgent), or ACK_DELAY_NS after the first one waiting
 * arrived. Slaves re-send only what waited longer than that (3 s).
 */
static void ack_intervals(struct master *m, struct slave_rec *s, int urgent,
			  uint64_t now)
{
	struct proto_msg a = { .type = PROTO_ACK };

	if (s->contig <= s->acked)
		return;
	if (!urgent && s->contig - s->acked < 2 &&
	    now - s->ack_wait < ACK_DELAY_NS)
		return;
	a.u.ack.phase = m->phase_no;
	a.u.ack.seq = s->contig - 1;
	if (send_to(m, s, &a) == 0)
		s->acked = s->contig;
}

static void on_interval(struct master *m, struct slave_rec *s,
			const struct proto_interval *iv)
{
	struct merge_sample smp;
	int ret;

	if (!m->merge || iv->phase != m->phase_no ||
	    iv->seq >= m->cur->ph.intervals) {
		struct proto_msg a = { .type = PROTO_ACK };

		/* Too late for its phase: acknowledge it so it is not re-sent. */
		log_debug("interval %u of phase %u from %s ignored", iv->seq,
			  iv->phase, s->hello.name);
		a.u.ack.phase = iv->phase;
		a.u.ack.seq = iv->seq;
		send_to(m, s, &a);
		return;
	}
	memset(&smp, 0, sizeof(smp));
	smp.slave = (unsigned)(s - m->slaves);
	smp.seq = iv->seq;
	for (int d = 0; d < 2; d++) {
		smp.ops[d] = iv->ops[d];
		smp.bytes[d] = iv->bytes[d];
		smp.lat[d] = &iv->lat[d];
	}
	smp.lat_valid = 1; /* proto_decode() checked the buckets */
	smp.errors = iv->errors;
	smp.cpu_user_ns = iv->cpu_user_ns;
	smp.cpu_sys_ns = iv->cpu_sys_ns;
	smp.cpu_avail_ns = m->cur->ph.interval_ns * (iv->cores ? iv->cores : 1);
	ret = merge_add(m->merge, &smp);
	if (ret < 0)
		return; /* merge_add said why */
	if (iv->first_io_ns && !s->first_io)
		s->first_io = iv->first_io_ns;
	if (!s->got[iv->seq]) {
		if (s->contig == s->acked)
			s->ack_wait = s->last_rx; /* on_frame() just set it */
		s->got[iv->seq] = 1;
		while (s->contig < m->cur->ph.intervals && s->got[s->contig])
			s->contig++;
	}
	ack_intervals(m, s, ret == MERGE_DUPLICATE, s->last_rx);
	if (ret == MERGE_DUPLICATE)
		return;
	if (ret == MERGE_LATE)
		log_warn("slave %s: interval %u arrived after its cluster line was written; it is counted in the run totals and written as a late row",
			 s->hello.name, iv->seq + 1);
	slave_csv_row(m, s, iv,
		      iv->seq < m->cur->ph.warmup_intervals ? "warmup" :
							       "measure",
		      ret == MERGE_LATE);
}

static void on_frame(struct master *m, const struct hub_peer *peer,
		     const void *buf, size_t len)
{
	struct slave_rec *s = find_peer(m, peer);
	struct proto_msg msg;
	char err[256];
	int ret = proto_decode(buf, len, &msg, err, sizeof(err));

	if (ret < 0) {
		log_warn("dropped a bad frame (%zu bytes) from %s: %s", len,
			 s ? s->hello.name : "an unknown peer", err);
		return;
	}
	if (s) {
		s->last_rx = time_mono_ns();
		s->last_heard_real = time_real_ns();
	}
	if (msg.type == PROTO_HELLO) {
		on_hello(m, peer, &msg.u.hello);
		goto out;
	}
	if (!s) {
		log_warn("dropped %s from an unregistered peer",
			 proto_type_name(msg.type));
		goto out;
	}
	if (s->state != SLAVE_JOINED && msg.type != PROTO_BYE)
		slave_back(m, s, NULL, NULL);
	switch (msg.type) {
	case PROTO_PONG:
		clockoff_add(&s->clk, msg.u.pong.t1, msg.u.pong.t2,
			     msg.u.pong.t3, time_real_ns());
		break;
	case PROTO_READY:
		if (msg.u.ready.phase == m->phase_no)
			s->ready = 1;
		break;
	case PROTO_ERROR:
		log_error("slave %s: %s", s->hello.name, msg.u.error.message);
		if (msg.u.error.phase == m->phase_no)
			s->ready = -1;
		break;
	case PROTO_GO_ACK:
		if (msg.u.go_ack.phase == m->phase_no)
			s->go_acked = 1;
		break;
	case PROTO_INTERVAL:
		on_interval(m, s, &msg.u.interval);
		break;
	case PROTO_PHASE_END:
		if (msg.u.phase_end.phase == m->phase_no) {
			s->ended = 1;
			if (m->cur && time_real_ns() > m->cur->start_at)
				m->cur->duration_ns = time_real_ns() -
						      m->cur->start_at;
			s->end_intervals = msg.u.phase_end.intervals;
			/* Kept (taken from msg) until the run's totals. */
			free_end_lat(s);
			memcpy(s->end_lat, msg.u.phase_end.lat,
			       sizeof(s->end_lat));
			memset(msg.u.phase_end.lat, 0,
			       sizeof(msg.u.phase_end.lat));
			if (msg.u.phase_end.first_io_ns && !s->first_io)
				s->first_io = msg.u.phase_end.first_io_ns;
			if (msg.u.phase_end.status < 0) {
				log_error("slave %s ended phase %u early (%s): the run stops",
					  s->hello.name, m->phase_no,
					  strerror(-msg.u.phase_end.status));
				m->stop_run = 1;
			}
		}
		break;
	case PROTO_LOG:
		log_msg(msg.u.log.level <= LOG_ERROR ?
				(enum log_level)msg.u.log.level : LOG_ERROR,
			"slave %s: %s", s->hello.name, msg.u.log.message);
		break;
	case PROTO_BYE:
		log_debug("slave %s left: %s", s->hello.name,
			  msg.u.bye.reason);
		s->state = SLAVE_GONE;
		break;
	case PROTO_HEARTBEAT:
		break;
	default:
		log_warn("unexpected %s from slave %s",
			 proto_type_name(msg.type), s->hello.name);
		break;
	}
out:
	proto_msg_free(&msg);
}

static void check_liveness(struct master *m)
{
	uint64_t now = time_mono_ns();
	void *hb = NULL; /* one heartbeat frame, encoded once per pass */
	size_t hb_len = 0;

	if (now - m->liveness_at < LIVENESS_NS)
		return;
	m->liveness_at = now;
	for (unsigned i = 0; i < m->nslaves; i++) {
		struct slave_rec *s = &m->slaves[i];
		char tod[32];

		if (s->state != SLAVE_JOINED)
			continue;
		ack_intervals(m, s, 0, now);
		if (now - s->last_tx >= m->heartbeat_ns) {
			struct proto_msg msg = { .type = PROTO_HEARTBEAT };

			if (!hb) {
				msg.u.heartbeat.now_ns = time_real_ns();
				if (proto_encode(&msg, &hb, &hb_len) < 0)
					hb = NULL;
			}
			if (hb)
				send_frame(m, s, &msg, hb, hb_len);
		}
		/* Liveness is judged only while intervals are due. */
		if (!m->merge || !s->in_phase ||
		    now - s->last_rx <= m->slave_timeout_ns)
			continue;
		s->state = SLAVE_LOST;
		s->lost_real = time_real_ns();
		s->losses++;
		merge_slave_lost(m->merge, i);
		if (m->exit_code == MASTER_EXIT_OK)
			m->exit_code = MASTER_EXIT_DEGRADED;
		time_fmt_tod(s->last_heard_real, tod, sizeof(tod));
		log_warn("slave %s lost: nothing heard for %.1f s (last at %s); %s",
			 s->hello.name, (double)(now - s->last_rx) / 1e9, tod,
			 m->abort_on_loss ? "aborting the run (--on-slave-loss=abort)" :
					    "the run goes on without it");
		if (m->abort_on_loss)
			m->stop_run = 1;
	}
	free(hb);
}

/*
 * The slaves' CSV files are flushed every HOSTS_FLUSH_NS (a write per file
 * per interval adds up with a thousand slaves) and whenever force is set.
 */
static void flush_hosts(struct master *m, int force)
{
	uint64_t now = time_mono_ns();

	if (!force && now - m->hosts_flushed < HOSTS_FLUSH_NS)
		return;
	m->hosts_flushed = now;
	for (unsigned i = 0; i < m->nslaves; i++)
		if (m->slaves[i].csv)
			fflush(m->slaves[i].csv);
}

/*
 * Receive and handle frames for up to timeout_ms, then do the periodic
 * work. Returns -EINTR once interrupted.
 */
static int pump(struct master *m, long timeout_ms)
{
	struct hub_peer peer;
	void *buf;
	size_t len;
	int ret = hub_wait(m->hub, timeout_ms);

	if (ret < 0)
		return ret;
	if (ret > 0 && m->batch_ns)
		time_sleep_ns(m->batch_ns);
	for (int n = 0; n < 10000; n++) {
		ret = hub_recv(m->hub, &peer, &buf, &len);
		if (ret == -EAGAIN)
			break;
		if (ret == -EBADMSG) {
			log_warn("dropped a malformed multi-part frame");
			continue;
		}
		if (ret < 0)
			return ret;
		on_frame(m, &peer, buf, len);
		free(buf);
	}
	check_liveness(m);
	flush_hosts(m, 0);
	if (m->stop_run)
		return -ECANCELED;
	return interrupted ? -EINTR : 0;
}

/* ---- slaves ----------------------------------------------------------- */

/*
 * Names of the slaves this run waits for. With hd= lines: one per slave of
 * each host, named after the hd (NAME, or NAME-1..NAME-N when slaves=N).
 * Otherwise local-1..local-N for the local slaves; --expect-slaves adds
 * that many slaves of any name.
 */
static void expected_name(const struct params_hd *hd, unsigned k, char *buf,
			  size_t len)
{
	if (hd->slaves <= 1)
		snprintf(buf, len, "%s", hd->name);
	else
		snprintf(buf, len, "%s-%u", hd->name, k + 1);
}

static int launch_slaves(struct master *m)
{
	char ep[300], name[PROTO_NAME_LEN];
	int ret = 0;

	snprintf(ep, sizeof(ep), "tcp://%s:%u", m->advertise, m->bound_port);
	for (unsigned i = 0; ret == 0 && i < m->nlocal; i++) {
		snprintf(name, sizeof(name), "local-%u", i + 1);
		ret = launch_local(&m->launch, ep, name);
	}
	for (size_t h = 0; ret == 0 && h < m->params->nhd; h++) {
		const struct params_hd *hd = &m->params->hd[h];

		if (hd->shell == PARAMS_SHELL_NONE)
			continue;
		for (unsigned k = 0; ret == 0 && k < hd->slaves; k++) {
			expected_name(hd, k, name, sizeof(name));
			ret = launch_ssh(&m->launch, hd->user, hd->system,
					 hd->lockstep, ep, name);
		}
	}
	if (ret < 0)
		log_error("cannot start a slave: %s", strerror(-ret));
	return ret;
}

/* Expected slaves that have not registered yet; names listed into buf. */
static unsigned missing_slaves(struct master *m, char *buf, size_t len)
{
	char name[PROTO_NAME_LEN];
	unsigned missing = 0;
	size_t used = 0;

	buf[0] = 0;
	if (m->params->nhd == 0)
		return m->nslaves < m->nlocal + m->expect ?
			       m->nlocal + m->expect - m->nslaves : 0;
	for (size_t h = 0; h < m->params->nhd; h++) {
		const struct params_hd *hd = &m->params->hd[h];

		for (unsigned k = 0; k < hd->slaves; k++) {
			expected_name(hd, k, name, sizeof(name));
			if (find_name(m, name))
				continue;
			missing++;
			if (used < len)
				used += (size_t)snprintf(buf + used, len - used,
							 "%s%s", missing > 1 ? ", " : "",
							 name);
		}
	}
	return missing;
}

static int wait_registration(struct master *m)
{
	uint64_t deadline = time_mono_ns() + m->join_timeout_ns;
	char names[512];

	m->registering = 1;
	while (missing_slaves(m, names, sizeof(names)) > 0) {
		struct launch_proc *p;
		int ret = pump(m, 50), status;

		if (ret < 0)
			return ret;
		while ((p = launch_exited(&m->launch, &status))) {
			if (find_name(m, p->name))
				continue;
			log_error("slave %s on %s exited before registering (status %d)%s",
				  p->name, p->host, status,
				  status == 255 ? ": ssh could not reach the host" : "");
			return -ECHILD;
		}
		if (time_mono_ns() > deadline) {
			unsigned n = missing_slaves(m, names, sizeof(names));

			log_error("%u slaves did not register within %.0f s%s%s",
				  n, (double)m->join_timeout_ns / 1e9,
				  names[0] ? ": " : "", names);
			return -ETIMEDOUT;
		}
	}
	m->registering = 0;
	for (unsigned i = 0; i < m->launch.n; i++) {
		struct slave_rec *s = find_name(m, m->launch.p[i].name);

		if (s)
			s->pid = m->launch.p[i].pid;
	}
	return 0;
}

/* Wait for the slaves we started to exit; kill the ones that do not. */
static void reap_slaves(struct master *m)
{
	uint64_t deadline = time_mono_ns() + 5 * NS_PER_SEC;

	for (;;) {
		struct launch_proc *p;
		int status;

		while ((p = launch_exited(&m->launch, &status)))
			if (status != 0)
				log_warn("slave %s (%s) exited with status %d",
					 p->name, p->host, status);
		if (!launch_running(&m->launch))
			break;
		if (time_mono_ns() > deadline) {
			launch_kill_all(&m->launch);
			break;
		}
		if (m->hub)
			pump(m, 20);
		else
			time_sleep_ns(20 * NS_PER_MS);
	}
}

/* ---- phases ----------------------------------------------------------- */

static unsigned live_count(struct master *m)
{
	unsigned n = 0;

	for (unsigned i = 0; i < m->nslaves; i++)
		n += m->slaves[i].state == SLAVE_JOINED;
	return n;
}

static int sync_clocks(struct master *m)
{
	uint64_t deadline = time_mono_ns() + 3 * NS_PER_SEC;

	for (unsigned i = 0; i < m->nslaves; i++)
		clockoff_init(&m->slaves[i].clk);
	for (uint32_t k = 0; k < CLOCK_SAMPLES; k++) {
		for (unsigned i = 0; i < m->nslaves; i++) {
			struct proto_msg p = { .type = PROTO_PING };

			if (m->slaves[i].state != SLAVE_JOINED)
				continue;
			p.u.ping.seq = k;
			p.u.ping.t1 = time_real_ns();
			send_to(m, &m->slaves[i], &p);
		}
		if (pump(m, 5) < 0)
			return -EINTR;
	}
	for (;;) {
		unsigned missing = 0;

		for (unsigned i = 0; i < m->nslaves; i++)
			if (m->slaves[i].state == SLAVE_JOINED &&
			    m->slaves[i].clk.samples < CLOCK_SAMPLES)
				missing++;
		if (!missing || time_mono_ns() > deadline)
			break;
		if (pump(m, 10) < 0)
			return -EINTR;
	}
	for (unsigned i = 0; i < m->nslaves; i++) {
		struct slave_rec *s = &m->slaves[i];

		if (s->state == SLAVE_JOINED && s->clk.samples == 0) {
			log_error("slave %s answered no clock ping",
				  s->hello.name);
			return -ETIMEDOUT;
		}
		log_debug("slave %s clock offset %lld ns +- %llu ns (%u samples)",
			  s->hello.name, (long long)s->clk.offset_ns,
			  (unsigned long long)s->clk.error_ns, s->clk.samples);
	}
	return 0;
}

/* The hd of every live slave, in slave order (for the planner). */
static int *live_hosts(struct master *m, unsigned *n)
{
	int *hd = malloc(sizeof(int) * (m->nslaves ? m->nslaves : 1));

	*n = 0;
	if (!hd)
		return NULL;
	for (unsigned i = 0; i < m->nslaves; i++)
		if (m->slaves[i].state == SLAVE_JOINED)
			hd[(*n)++] = m->slaves[i].hd;
	return hd;
}

static int send_plans(struct master *m, const struct plan_phase *ph)
{
	unsigned n, k = 0;
	int *hd = live_hosts(m, &n);
	char err[512];
	int ret = 0;

	if (!hd)
		return -ENOMEM;

	for (unsigned i = 0; i < m->nslaves; i++) {
		struct slave_rec *s = &m->slaves[i];
		struct proto_msg msg = { .type = PROTO_PLAN };

		s->in_phase = s->ready = s->go_acked = s->ended = 0;
		s->first_io = 0;
		s->contig = s->acked = 0;
		free(s->got);
		s->got = NULL;
		free_end_lat(s);
		if (s->state != SLAVE_JOINED)
			continue;
		s->got = calloc(ph->intervals, 1);
		if (!s->got) {
			ret = -ENOMEM;
			break;
		}
		ret = plan_for_slave(m->params, ph, m->phase_no, hd, k++, n,
				     m->engine, &msg.u.plan, err, sizeof(err));
		if (ret < 0) {
			proto_msg_free(&msg);
			log_error("%s", err);
			break;
		}
		msg.u.plan.clock_offset_ns = s->clk.offset_ns;
		msg.u.plan.clock_error_ns = s->clk.error_ns;
		/* Nothing of this phase runs on its host: it sits it out. */
		if (msg.u.plan.ntargets == 0) {
			log_debug("slave %s sits phase %s out", s->hello.name,
				  ph->name);
			proto_msg_free(&msg);
			continue;
		}
		ret = send_to(m, s, &msg);
		proto_msg_free(&msg);
		if (ret < 0)
			break;
		s->in_phase = 1;
	}
	free(hd);
	return ret;
}

static int wait_ready(struct master *m)
{
	uint64_t deadline = time_mono_ns() + m->ready_timeout_ns;

	for (;;) {
		unsigned waiting = 0, failed = 0;

		for (unsigned i = 0; i < m->nslaves; i++) {
			struct slave_rec *s = &m->slaves[i];

			if (!s->in_phase)
				continue;
			if (s->ready < 0)
				failed++;
			else if (!s->ready && s->state == SLAVE_JOINED)
				waiting++;
		}
		if (failed)
			return -EIO;
		if (!waiting)
			return 0;
		if (time_mono_ns() > deadline) {
			log_error("%u slaves not ready after %.0f s", waiting,
				  (double)m->ready_timeout_ns / 1e9);
			return -ETIMEDOUT;
		}
		if (pump(m, 50) < 0)
			return -EINTR;
	}
}

/*
 * Pick the start time, get the merge ready for the phase's intervals (the
 * first can arrive before every go_ack has), broadcast go, and re-send it
 * over ROUTER to slaves that did not acknowledge.
 */
static int start_phase(struct master *m, struct run_result *r)
{
	struct proto_msg go = { .type = PROTO_GO };
	uint64_t max_rtt = 0, margin, deadline;
	void *buf;
	size_t len;
	int ret;

	for (unsigned i = 0; i < m->nslaves; i++)
		if (m->slaves[i].in_phase && m->slaves[i].clk.rtt_ns > max_rtt)
			max_rtt = m->slaves[i].clk.rtt_ns;
	margin = 4 * max_rtt + 250 * NS_PER_MS;
	go.u.go.phase = m->phase_no;
	go.u.go.start_at = time_real_ns() + margin;
	r->start_at = go.u.go.start_at;
	{
		struct merge_cfg cfg = {
			.nslaves = m->nslaves,
			.intervals = r->ph.intervals,
			.warmup_intervals = r->ph.warmup_intervals,
			.start_ns = r->start_at,
			.interval_ns = r->ph.interval_ns,
			.grace_ns = m->grace_ns,
		};

		m->merge = merge_new(&cfg);
		if (!m->merge)
			return -ENOMEM;
		for (unsigned i = 0; i < m->nslaves; i++)
			if (!m->slaves[i].in_phase)
				merge_slave_lost(m->merge, i);
	}
	ret = proto_encode(&go, &buf, &len);
	if (ret < 0)
		return ret;
	hub_publish(m->hub, buf, len);
	free(buf);
	deadline = time_mono_ns() + margin + 5 * NS_PER_SEC;
	for (;;) {
		unsigned pending = 0;

		if (pump(m, 10) < 0)
			return -EINTR;
		for (unsigned i = 0; i < m->nslaves; i++) {
			struct slave_rec *s = &m->slaves[i];

			if (!s->in_phase || s->go_acked ||
			    s->state != SLAVE_JOINED)
				continue;
			pending++;
			if (time_mono_ns() - s->last_tx >= GO_RESEND_NS)
				send_to(m, s, &go);
		}
		if (!pending)
			return 0;
		if (time_mono_ns() > deadline) {
			log_warn("%u slaves did not acknowledge go", pending);
			return 0;
		}
	}
}

static struct stats *stats_new(void)
{
	struct stats *s = malloc(sizeof(*s));

	if (s)
		stats_init(s);
	return s;
}

/*
 * A format phase on a terminal: one progress line, redrawn each interval,
 * with bytes written, rate and time left.
 */
static void format_progress(struct run_result *r, const struct stats_view *v,
			    unsigned seq)
{
	double done = (double)r->done_bytes, total = (double)r->ph.format_bytes;
	double secs = (double)(seq + 1) * r->ph.interval_s;
	double rate = done / secs;

	if (total > 0 && rate > 0 && done < total)
		printf("\rformat %s: %.1f of %.1f GiB (%.0f%%), %.1f MB/s, %.0f s left  ",
		       r->ph.name, done / 1073741824.0, total / 1073741824.0,
		       100.0 * done / total, rate / 1048576.0,
		       (total - done) / rate);
	else
		printf("\rformat %s: %.1f GiB written, %.1f MB/s              ",
		       r->ph.name, done / 1073741824.0, v->mbps);
	fflush(stdout);
}

static void emit_row(struct master *m, const struct merge_row *row)
{
	struct run_result *r = m->cur;
	struct stats_view v;
	char label[32];

	stats_view(row->stats, r->ph.interval_s, &v);
	snprintf(label, sizeof(label), "%u", row->seq + 1);
	r->done_bytes += v.bytes;
	if (r->ph.kind == PLAN_FORMAT && m->tty)
		format_progress(r, &v, row->seq);
	else
		report_console_row(stdout, row->end_ns, label, &v,
				   row->reported, row->expected);
	if (m->icsv)
	{
		report_csv_row(m->icsv, r->ph.name, row->seq + 1,
			       row->warmup ? "warmup" : "measure",
			       row->start_ns, row->end_ns, row->reported,
			       row->expected, &v, time_real_ns());
		fflush(m->icsv);
	}
	for (unsigned i = 0; i < row->nmissing; i++)
		log_warn("interval %u: no data from slave %s", row->seq + 1,
			 m->slaves[row->missing[i]].hello.name);
}

/*
 * Once every slave of the phase ended it and all of them sent fewer
 * intervals than planned without an error (their seekpct=eof passes are
 * done), the phase is as long as the longest of them.
 */
static void truncate_at_eof(struct master *m)
{
	unsigned longest = 0;

	for (unsigned i = 0; i < m->nslaves; i++) {
		struct slave_rec *s = &m->slaves[i];

		if (!s->in_phase || s->state != SLAVE_JOINED)
			continue;
		if (!s->ended || s->end_intervals >= m->cur->ph.intervals)
			return;
		if (s->end_intervals > longest)
			longest = s->end_intervals;
	}
	if (longest && longest < merge_intervals(m->merge)) {
		log_info("phase %s: every slave finished its pass after %u intervals",
			 m->cur->ph.name, longest);
		merge_truncate(m->merge, longest);
	}
}

static int phase_over(struct master *m)
{
	truncate_at_eof(m);
	if (!merge_done(m->merge))
		return 0;
	for (unsigned i = 0; i < m->nslaves; i++)
		if (m->slaves[i].in_phase && !m->slaves[i].ended &&
		    m->slaves[i].state == SLAVE_JOINED)
			return 0;
	return 1;
}

static int run_phase(struct master *m, struct run_result *r)
{
	uint64_t end_real = r->start_at + r->ph.intervals * r->ph.interval_ns;
	int ret = 0;
	report_console_header(stdout, time_real_ns());
	m->batch_ns = BATCH_NS;
	while (!phase_over(m)) {
		struct merge_row row;
		uint64_t now = time_real_ns();

		if (pump(m, 20) < 0) {
			ret = -EINTR;
			break;
		}
		while (merge_next(m->merge, time_real_ns(), &row) == 1)
			emit_row(m, &row);
		/* Slaves that never end the phase cannot hold the run. */
		if (now > end_real + m->grace_ns + m->slave_timeout_ns +
				  10 * NS_PER_SEC) {
			log_warn("phase %s: giving up on slaves that did not end it",
				 r->ph.name);
			break;
		}
	}
	m->batch_ns = 0;
	if (ret == 0) {
		struct merge_row row;

		while (merge_next(m->merge, UINT64_MAX, &row) == 1)
			emit_row(m, &row);
	}
	return ret;
}

static uint64_t start_skew(struct master *m)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	for (unsigned i = 0; i < m->nslaves; i++) {
		uint64_t f = m->slaves[i].first_io;

		if (!m->slaves[i].in_phase || !f)
			continue;
		lo = f < lo ? f : lo;
		hi = f > hi ? f : hi;
	}
	return hi >= lo ? hi - lo : 0;
}

/* How far a fixed-rate run fell short of its iorate, in percent. */
static double shortfall_pct(const struct run_result *r)
{
	if (r->ph.iorate <= 0 || r->view.iops >= r->ph.iorate)
		return 0;
	return 100.0 * (r->ph.iorate - r->view.iops) / r->ph.iorate;
}

/* The seconds a run's totals cover: its measured (non-warmup) intervals. */
static double measured_s(const struct run_result *r)
{
	return (double)(r->ph.intervals - r->ph.warmup_intervals) *
	       r->ph.interval_s;
}

static void print_run_totals(struct master *m, const struct run_result *r)
{
	const struct stats_view *v = &r->view;
	char label[32];

	if (r->ph.kind == PLAN_FORMAT) {
		double d = (double)r->duration_ns / 1e9;

		if (m->tty)
			printf("\n");
		printf("format %s: %.1f MiB written in %.2f s, %.1f MB/s\n\n",
		       r->ph.name, (double)v->bytes / 1048576.0, d,
		       d > 0 ? (double)v->bytes / 1048576.0 / d : 0);
		return;
	}
	snprintf(label, sizeof(label), "avg_%u-%u", r->ph.warmup_intervals + 1,
		 r->ph.intervals);
	report_console_row(stdout, time_real_ns(), label, v, 0, 0);
	printf("\nRun %s: start skew %.3f ms over %u slaves\n", r->ph.name,
	       (double)r->start_skew_ns / 1e6, live_count(m));
	if (r->ph.iorate > 0 && v->iops < 0.98 * r->ph.iorate)
		printf("iorate=%g not reached: %.1f IO/s, %.1f%% short\n",
		       r->ph.iorate, v->iops, shortfall_pct(r));
	report_hcibench(stdout, v);
	printf("\n");
}

static void write_hgrm(struct master *m, const struct run_result *r,
		       const struct stats *totals)
{
	char path[PATH_MAX + 128];
	struct hist *h = malloc(sizeof(*h));
	FILE *f;

	if (!h)
		return;
	snprintf(path, sizeof(path), "%s/%s.hgrm", m->dir, r->ph.name);
	f = fopen(path, "w");
	if (f) {
		stats_combined_hist(totals, h);
		report_hgrm(f, h);
		fclose(f);
	}
	free(h);
}

static int run_one(struct master *m, struct run_result *r)
{
	int ret;

	m->phase_no++;
	m->cur = r;
	if (live_count(m) == 0) {
		log_error("no slave left to run %s", r->ph.name);
		return -ENOENT;
	}
	ret = sync_clocks(m);
	if (ret == 0)
		ret = send_plans(m, &r->ph);
	if (ret == 0)
		ret = wait_ready(m);
	if (ret < 0)
		return ret;
	ret = start_phase(m, r);
	if (ret == 0)
		ret = run_phase(m, r);
	flush_hosts(m, 1);
	for (unsigned i = 0; i < m->nslaves; i++)
		if (m->slaves[i].state == SLAVE_JOINED)
			ack_intervals(m, &m->slaves[i], 1, 0);
	if (!m->merge)
		return ret;
	r->ph.intervals = merge_intervals(m->merge);
	if (r->ph.warmup_intervals > r->ph.intervals)
		r->ph.warmup_intervals = r->ph.intervals;
	r->start_skew_ns = start_skew(m);
	/* Keep the views: the dense totals go with the merge. */
	stats_view(merge_totals(m->merge), measured_s(r), &r->view);
	r->slave = calloc(m->nslaves ? m->nslaves : 1, sizeof(*r->slave));
	if (r->slave)
		r->nslave = m->nslaves;
	for (unsigned i = 0; i < r->nslave; i++) {
		const struct stats_sums *st = merge_slave_totals(m->merge, i);
		struct slave_rec *s = &m->slaves[i];

		r->slave[i].ran = st && st->samples;
		if (!r->slave[i].ran)
			continue;
		r->slave[i].no_pct = end_lat_mismatch(s, st);
		stats_view_sums(st, r->slave[i].no_pct ? NULL : s->end_lat,
				measured_s(r), &r->slave[i].v);
		if (r->slave[i].no_pct)
			log_info("run %s: no percentiles for slave %s: %s",
				 r->ph.name, s->hello.name, r->slave[i].no_pct);
	}
	if (ret == 0)
		write_hgrm(m, r, merge_totals(m->merge));
	merge_destroy(&m->merge);
	r->done = 1;
	if (r->view.errors && m->exit_code == MASTER_EXIT_OK) {
		log_warn("run %s: %llu I/O errors (within data_errors): the run is degraded",
			 r->ph.name, (unsigned long long)r->view.errors);
		m->exit_code = MASTER_EXIT_DEGRADED;
	}
	if (ret == 0)
		print_run_totals(m, r);
	return ret;
}

/* Refuse a file that cannot run on these slaves before anything starts. */
static int check_plans(struct master *m)
{
	unsigned n;
	int *hd = live_hosts(m, &n);
	char err[1024];
	int ret;

	if (!hd)
		return -ENOMEM;
	ret = plan_check_slaves(m->params, m->phases, m->nphases, hd, n, err,
				sizeof(err));
	free(hd);
	if (ret < 0)
		log_error("%s", err);
	return ret;
}

/* Wait s seconds (rd pause=), still serving the slaves. */
static int pause_for(struct master *m, double s)
{
	uint64_t until = time_mono_ns() + (uint64_t)(s * 1e9);

	log_info("pause of %g s", s);
	while (time_mono_ns() < until)
		if (pump(m, 50) < 0)
			return -EINTR;
	return 0;
}

/*
 * Run one phase of the list, minding curves: a curve point runs at its
 * share of its curve-max phase's measured rate, and once one exceeds
 * stopcurve= the points left are skipped.
 */
static int run_next(struct master *m, struct run_result *r)
{
	int ret;

	if (r->ph.kind == PLAN_CURVE_POINT) {
		struct run_result *max = &m->runs[r->ph.curve_max];

		r->ph.iorate = plan_curve_rate(max->view.iops, r->ph.curve_pct);
		if (max->curve_stopped || !max->done || r->ph.iorate <= 0) {
			log_info("%s skipped: %s", r->ph.name,
				 max->curve_stopped ? "stopcurve= was reached" :
				 "its curve-max phase has no rate");
			r->skipped = 1;
			return 0;
		}
	}
	if (r->ph.pause_s > 0 && (ret = pause_for(m, r->ph.pause_s)) < 0)
		return ret;
	ret = run_one(m, r);
	if (ret == 0 && r->ph.kind == PLAN_CURVE_POINT &&
	    r->ph.stopcurve_ms > 0 && r->view.resp_ms > r->ph.stopcurve_ms) {
		log_info("%s: response time %.3f ms is above stopcurve=%g ms: the rest of the curve is skipped",
			 r->ph.name, r->view.resp_ms, r->ph.stopcurve_ms);
		m->runs[r->ph.curve_max].curve_stopped = 1;
	}
	return ret;
}

/* One line per slave that was lost during the run, for the console. */
static void report_lost(struct master *m, FILE *f)
{
	for (unsigned i = 0; i < m->nslaves; i++) {
		struct slave_rec *s = &m->slaves[i];
		char heard[32], back[32];

		if (!s->losses)
			continue;
		time_fmt_tod(s->lost_real, heard, sizeof(heard));
		if (s->back_real > s->lost_real) {
			time_fmt_tod(s->back_real, back, sizeof(back));
			fprintf(f, "slave %s was lost at %s and rejoined at %s\n",
				s->hello.name, heard, back);
		} else {
			time_fmt_tod(s->last_heard_real, back, sizeof(back));
			fprintf(f, "slave %s was lost at %s (last heard at %s)\n",
				s->hello.name, heard, back);
		}
	}
}

/* ---- results ---------------------------------------------------------- */

static void json_totals(struct jsonw *w, const char *key,
			const struct stats_view *v)
{
	jsonw_object(w, key);
	jsonw_u64(w, "ops", v->ops);
	jsonw_u64(w, "read_ops", v->read_ops);
	jsonw_u64(w, "write_ops", v->write_ops);
	jsonw_u64(w, "bytes", v->bytes);
	jsonw_u64(w, "read_bytes", v->read_bytes);
	jsonw_u64(w, "write_bytes", v->write_bytes);
	jsonw_u64(w, "errors", v->errors);
	jsonw_dbl(w, "iops", v->iops);
	jsonw_dbl(w, "mbps", v->mbps);
	jsonw_dbl(w, "read_pct", v->read_pct);
	jsonw_dbl(w, "lat_mean_ms", v->resp_ms);
	jsonw_dbl(w, "read_lat_mean_ms", v->read_resp_ms);
	jsonw_dbl(w, "write_lat_mean_ms", v->write_resp_ms);
	jsonw_dbl(w, "lat_max_ms", v->resp_max_ms);
	jsonw_dbl(w, "lat_stddev_ms", v->resp_stddev_ms);
	jsonw_dbl(w, "lat_p50_ms", v->p50_ms);
	jsonw_dbl(w, "lat_p95_ms", v->p95_ms);
	jsonw_dbl(w, "lat_p99_ms", v->p99_ms);
	jsonw_dbl(w, "lat_p999_ms", v->p999_ms);
	jsonw_dbl(w, "queue_depth", v->queue_depth);
	jsonw_dbl(w, "cpu_pct", v->cpu_pct);
	jsonw_dbl(w, "cpu_sys_pct", v->cpu_sys_pct);
	jsonw_end(w);
}

static const char *status_name(int code)
{
	switch (code) {
	case MASTER_EXIT_OK:
		return "completed";
	case MASTER_EXIT_DEGRADED:
		return "degraded";
	case MASTER_EXIT_ABORTED:
		return "aborted";
	default:
		return "failed";
	}
}

static void write_summary(struct master *m)
{
	char path[PATH_MAX + 64], tmp[PATH_MAX + 64], iso[40];
	struct jsonw w;
	FILE *f;

	snprintf(path, sizeof(path), "%s/summary.json", m->dir);
	snprintf(tmp, sizeof(tmp), "%s/.summary.json.tmp", m->dir);
	f = fopen(tmp, "w");
	if (!f) {
		log_error("cannot write %s: %s", tmp, strerror(errno));
		return;
	}
	jsonw_init(&w, f);
	jsonw_object(&w, NULL);
	jsonw_str(&w, "version", LOCKSTEP_VERSION);
	jsonw_str(&w, "run_id", m->run_id);
	jsonw_str(&w, "status", status_name(m->exit_code));
	jsonw_i64(&w, "exit_code", m->exit_code);
	jsonw_str(&w, "param_file", m->param_path);
	jsonw_str(&w, "started", time_fmt_iso(m->started_real, iso,
					      sizeof(iso)));
	jsonw_str(&w, "ended", time_fmt_iso(time_real_ns(), iso, sizeof(iso)));
	jsonw_array(&w, "slaves");
	for (unsigned i = 0; i < m->nslaves; i++) {
		struct slave_rec *s = &m->slaves[i];

		jsonw_object(&w, NULL);
		jsonw_str(&w, "id", s->hello.id);
		jsonw_str(&w, "host", s->hello.host);
		jsonw_str(&w, "name", s->hello.name);
		jsonw_str(&w, "state",
			  s->state == SLAVE_LOST ? "lost" : "finished");
		jsonw_u64(&w, "pid", s->hello.pid);
		jsonw_u64(&w, "cores", s->hello.cores);
		jsonw_i64(&w, "clock_offset_ns", s->clk.offset_ns);
		jsonw_u64(&w, "clock_error_ns", s->clk.error_ns);
		jsonw_u64(&w, "losses", s->losses);
		jsonw_str(&w, "last_heard",
			  time_fmt_iso(s->last_heard_real, iso, sizeof(iso)));
		if (s->losses)
			jsonw_str(&w, "lost_at",
				  time_fmt_iso(s->lost_real, iso, sizeof(iso)));
		if (s->losses && s->back_real > s->lost_real)
			jsonw_str(&w, "rejoined_at",
				  time_fmt_iso(s->back_real, iso, sizeof(iso)));
		jsonw_end(&w);
	}
	jsonw_end(&w);
	jsonw_array(&w, "runs");
	for (size_t i = 0; i < m->nruns; i++) {
		struct run_result *r = &m->runs[i];

		if (!r->done)
			continue;
		jsonw_object(&w, NULL);
		jsonw_str(&w, "name", r->ph.name);
		jsonw_str(&w, "kind", plan_kind_name(r->ph.kind));
		jsonw_dbl(&w, "duration_s", (double)r->duration_ns / 1e9);
		if (r->ph.kind == PLAN_FORMAT)
			jsonw_dbl(&w, "format_mbps",
				  r->duration_ns ?
					  (double)r->view.write_bytes /
						  1048576.0 /
						  ((double)r->duration_ns / 1e9) :
					  0);
		if (r->ph.kind == PLAN_CURVE_POINT)
			jsonw_dbl(&w, "curve_pct", r->ph.curve_pct);
		jsonw_dbl(&w, "elapsed_s", r->ph.elapsed_s);
		jsonw_dbl(&w, "warmup_s", r->ph.warmup_s);
		jsonw_dbl(&w, "interval_s", r->ph.interval_s);
		jsonw_u64(&w, "intervals", r->ph.intervals);
		jsonw_u64(&w, "warmup_intervals", r->ph.warmup_intervals);
		jsonw_dbl(&w, "iorate", r->ph.iorate);
		if (r->ph.iorate > 0)
			jsonw_dbl(&w, "iorate_shortfall_pct", shortfall_pct(r));
		jsonw_u64(&w, "start_ns", r->start_at);
		jsonw_u64(&w, "start_skew_ns", r->start_skew_ns);
		json_totals(&w, "totals", &r->view);
		jsonw_array(&w, "per_slave");
		for (unsigned k = 0; k < r->nslave; k++) {
			if (!r->slave[k].ran)
				continue;
			jsonw_object(&w, NULL);
			jsonw_str(&w, "slave", m->slaves[k].hello.name);
			json_totals(&w, "totals", &r->slave[k].v);
			if (r->slave[k].no_pct)
				jsonw_str(&w, "percentiles_unknown",
					  r->slave[k].no_pct);
			jsonw_end(&w);
		}
		jsonw_end(&w);
		jsonw_end(&w);
	}
	jsonw_end(&w);
	jsonw_end(&w);
	jsonw_finish(&w);
	if (fclose(f) != 0 || rename(tmp, path) < 0)
		log_error("cannot write %s: %s", path, strerror(errno));
}

static void write_summary_txt(struct master *m)
{
	char path[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/summary.txt", m->dir);
	f = fopen(path, "w");
	if (!f)
		return;
	fprintf(f, "lockstep %s run %s: %s (exit %d)\nparameter file: %s\n\n",
		LOCKSTEP_VERSION, m->run_id, status_name(m->exit_code),
		m->exit_code, m->param_path);
	for (size_t i = 0; i < m->nruns; i++) {
		struct run_result *r = &m->runs[i];

		if (!r->done)
			continue;
		fprintf(f, "Run %s (elapsed %g s, warmup %g s, interval %g s, start skew %.3f ms)\n",
			r->ph.name, r->ph.elapsed_s, r->ph.warmup_s,
			r->ph.interval_s, (double)r->start_skew_ns / 1e6);
		report_hcibench(f, &r->view);
		fprintf(f, "\n");
	}
	report_lost(m, f);
	fclose(f);
}

static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	FILE *in = fopen(from, "rb"), *out;
	size_t n;
	int ret = 0;

	if (!in)
		return -errno;
	out = fopen(to, "wb");
	if (!out) {
		ret = -errno;
		fclose(in);
		return ret;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n) {
			ret = -EIO;
			break;
		}
	fclose(in);
	if (fclose(out) != 0)
		ret = -EIO;
	return ret;
}

static int mkdir_p(const char *path)
{
	char tmp[PATH_MAX];

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

static int open_results(struct master *m)
{
	char path[PATH_MAX + 64], stamp[32];
	const char *base = strrchr(m->param_path, '/');
	int ret;

	if (m->outdir_opt)
		snprintf(m->dir, sizeof(m->dir), "%s", m->outdir_opt);
	else
		snprintf(m->dir, sizeof(m->dir), "lockstep-output/%s-%.8s",
			 time_fmt_stamp(m->started_real, stamp, sizeof(stamp)),
			 m->run_id);
	snprintf(path, sizeof(path), "%s/hosts", m->dir);
	ret = mkdir_p(path);
	if (ret < 0) {
		fprintf(stderr, "lockstep: cannot create %s: %s\n", path,
			strerror(-ret));
		return ret;
	}
	snprintf(path, sizeof(path), "%s/lockstep.log", m->dir);
	m->log = fopen(path, "a");
	if (!m->log) {
		ret = -errno;
		fprintf(stderr, "lockstep: cannot write %s: %s\n", path,
			strerror(-ret));
		return ret;
	}
	setvbuf(m->log, NULL, _IOLBF, 0);
	log_set_file(m->log);
	snprintf(path, sizeof(path), "%s/%s", m->dir,
		 base ? base + 1 : m->param_path);
	if (copy_file(m->param_path, path) < 0)
		log_warn("cannot copy the parameter file to %s", path);
	snprintf(path, sizeof(path), "%s/intervals.csv", m->dir);
	m->icsv = fopen(path, "w");
	if (!m->icsv) {
		ret = -errno;
		log_error("cannot write %s: %s", path, strerror(-ret));
		return ret;
	}
	report_csv_header(m->icsv);
	return 0;
}

/*
 * A master reachable from other machines must not take orders from anyone:
 * until CURVE authentication exists, binding off loopback needs --insecure.
 */
static int check_listen(struct master *m)
{
	int loopback = strcmp(m->bind, "127.0.0.1") == 0 ||
		       strcmp(m->bind, "localhost") == 0 ||
		       strncmp(m->bind, "127.", 4) == 0;

	if (!loopback && !m->insecure) {
		log_error("--listen %s is reachable from other machines, and slaves would accept plans from anyone there; lockstep has no authentication yet (CURVE keys are planned), so add --insecure to accept that on a trusted test network",
			  m->bind);
		return -EPERM;
	}
	if (!m->advertise)
		m->advertise = strcmp(m->bind, "*") && strcmp(m->bind, "0.0.0.0") ?
				       m->bind : NULL;
	if (!m->advertise && (m->nlocal || m->params->nhd)) {
		log_error("--listen %s: say which address slaves should connect to with --advertise ADDR",
			  m->bind);
		return -EINVAL;
	}
	if (m->params->nhd && loopback)
		for (size_t h = 0; h < m->params->nhd; h++)
			if (m->params->hd[h].shell != PARAMS_SHELL_NONE) {
				log_error("hd=%s: slaves on other hosts cannot reach a master on %s; use --listen ADDR --insecure",
					  m->params->hd[h].name, m->bind);
				return -EINVAL;
			}
	return 0;
}

/* ---- command line ------------------------------------------------------ */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: lockstep run FILE [options]\n"
		"  -o, --output DIR       results folder (default lockstep-output/<date>-<id>)\n"
		"  -e SECONDS             elapsed time of every rd (Vdbench -e)\n"
		"  -w SECONDS             warmup of every rd (Vdbench -w)\n"
		"  -i SECONDS             reporting interval of every rd (Vdbench -i)\n"
		"  --local-slaves N       slaves to start on this machine (default 2)\n"
		"  --engine NAME          io_uring (default) or null\n"
		"  --port N               ROUTER port (PUB is N+1; default: any free pair)\n"
		"  --slave-timeout S      mark a silent slave lost after S s (default 3)\n"
		"  --on-slave-loss continue|abort  what a lost slave does to the run (continue)\n"
		"  --join-timeout S       wait S s for slaves to register (default 30)\n"
		"  --expect-slaves N      also wait for N slaves started elsewhere\n"
		"  --listen ADDR          address to bind (default 127.0.0.1)\n"
		"  --advertise ADDR       address slaves connect to (default: --listen)\n"
		"  --insecure             allow --listen off loopback without authentication\n"
		"  --ssh CMD              the ssh command for hd= hosts (default ssh)\n"
		"  --workers N            I/O threads per slave it starts (default: one per core)\n"
		"  -v, --verbose          debug messages\n");
}

static int parse_seconds_opt(const char *opt, const char *arg, double *out)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg || *end || !(v >= 0) || v > 1e7) {
		fprintf(stderr, "lockstep run: %s wants seconds, not '%s'\n",
			opt, arg);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static int parse_args(struct master *m, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "local-slaves", required_argument, NULL, 'L' },
		{ "engine", required_argument, NULL, 'E' },
		{ "port", required_argument, NULL, 'P' },
		{ "slave-timeout", required_argument, NULL, 'S' },
		{ "join-timeout", required_argument, NULL, 'J' },
		{ "on-slave-loss", required_argument, NULL, 'O' },
		{ "expect-slaves", required_argument, NULL, 'X' },
		{ "listen", required_argument, NULL, 'l' },
		{ "advertise", required_argument, NULL, 'A' },
		{ "insecure", no_argument, NULL, 'I' },
		{ "ssh", required_argument, NULL, 'H' },
		{ "workers", required_argument, NULL, 'W' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	double d;
	char *end;
	long n;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:e:w:i:vh", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			m->outdir_opt = optarg;
			break;
		case 'e':
			if (parse_seconds_opt("-e", optarg, &m->ov.elapsed_s))
				return -EINVAL;
			break;
		case 'w':
			if (parse_seconds_opt("-w", optarg, &m->ov.warmup_s))
				return -EINVAL;
			break;
		case 'i':
			if (parse_seconds_opt("-i", optarg, &m->ov.interval_s) ||
			    m->ov.interval_s <= 0) {
				fprintf(stderr, "lockstep run: -i wants seconds > 0\n");
				return -EINVAL;
			}
			break;
		case 'L':
			n = strtol(optarg, &end, 10);
			if (*end || n < 0 || n > 256) {
				fprintf(stderr, "lockstep run: --local-slaves wants 0..256, not '%s'\n",
					optarg);
				return -EINVAL;
			}
			m->nlocal = (unsigned)n;
			break;
		case 'X':
			n = strtol(optarg, &end, 10);
			if (*end || n < 1 || n > MAX_SLAVES) {
				fprintf(stderr, "lockstep run: --expect-slaves wants 1..%d, not '%s'\n",
					MAX_SLAVES, optarg);
				return -EINVAL;
			}
			m->expect = (unsigned)n;
			break;
		case 'O':
			if (strcmp(optarg, "continue") == 0) {
				m->abort_on_loss = 0;
			} else if (strcmp(optarg, "abort") == 0) {
				m->abort_on_loss = 1;
			} else {
				fprintf(stderr, "lockstep run: --on-slave-loss wants continue or abort, not '%s'\n",
					optarg);
				return -EINVAL;
			}
			break;
		case 'l':
			m->bind = optarg;
			break;
		case 'A':
			m->advertise = optarg;
			break;
		case 'I':
			m->insecure = 1;
			break;
		case 'H':
			m->launch.ssh = optarg;
			break;
		case 'W':
			n = strtol(optarg, &end, 10);
			if (*end || n < 1 || n > 64) {
				fprintf(stderr, "lockstep run: --workers wants 1..64, not '%s'\n",
					optarg);
				return -EINVAL;
			}
			m->launch.workers = (unsigned)n;
			break;
		case 'E':
			if (strcmp(optarg, "io_uring") && strcmp(optarg, "null")) {
				fprintf(stderr, "lockstep run: unknown engine '%s' (io_uring, null)\n",
					optarg);
				return -EINVAL;
			}
			m->engine = optarg;
			break;
		case 'P':
			n = strtol(optarg, &end, 10);
			if (*end || n < 1 || n > 65534) {
				fprintf(stderr, "lockstep run: --port wants 1..65534, not '%s'\n",
					optarg);
				return -EINVAL;
			}
			m->port = (unsigned)n;
			break;
		case 'S':
			if (parse_seconds_opt("--slave-timeout", optarg, &d) ||
			    d <= 0)
				return -EINVAL;
			m->slave_timeout_ns = (uint64_t)(d * 1e9);
			break;
		case 'J':
			if (parse_seconds_opt("--join-timeout", optarg, &d) ||
			    d <= 0)
				return -EINVAL;
			m->join_timeout_ns = (uint64_t)(d * 1e9);
			break;
		case 'v':
			m->verbose = 1;
			log_set_level(LOG_DEBUG);
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -EINVAL;
		}
	}
	if (optind + 1 != argc) {
		usage(stderr);
		return -EINVAL;
	}
	if (m->nlocal == 0 && m->expect == 0) {
		fprintf(stderr, "lockstep run: --local-slaves 0 needs --expect-slaves N\n");
		return -EINVAL;
	}
	m->param_path = argv[optind];
	return 0;
}

static void master_free(struct master *m)
{
	for (unsigned i = 0; i < m->nslaves; i++) {
		if (m->slaves[i].csv)
			fclose(m->slaves[i].csv);
		free(m->slaves[i].got);
		free_end_lat(&m->slaves[i]);
	}
	for (size_t i = 0; i < m->nruns; i++)
		free(m->runs[i].slave);
	free(m->runs);
	free(m->slaves);
	free(m->phases);
	free(m->scratch);
	merge_destroy(&m->merge);
	params_free(&m->params);
	hub_close(&m->hub);
	if (m->icsv)
		fclose(m->icsv);
	log_set_file(NULL);
	if (m->log)
		fclose(m->log);
}

static int alloc_runs(struct master *m)
{
	m->runs = calloc(m->nphases ? m->nphases : 1, sizeof(*m->runs));
	if (!m->runs)
		return -ENOMEM;
	m->nruns = m->nphases;
	for (size_t i = 0; i < m->nruns; i++)
		m->runs[i].ph = m->phases[i];
	return 0;
}

int master_main(int argc, char **argv)
{
	struct master m = {
		.engine = "io_uring",
		.bind = "127.0.0.1",
		.nlocal = 2,
		.ov = { -1, -1, -1 },
		.slave_timeout_ns = 3 * NS_PER_SEC,
		.join_timeout_ns = 30 * NS_PER_SEC,
		.ready_timeout_ns = 600 * NS_PER_SEC,
		.grace_ns = 500 * NS_PER_MS,
		.heartbeat_ns = NS_PER_SEC,
		.master_timeout_ns = 10 * NS_PER_SEC,
	};
	char err[1024];
	uuid_t uu;
	int ret;

	if (parse_args(&m, argc, argv) < 0)
		return MASTER_EXIT_BAD_INPUT;
	ret = params_parse_file(m.param_path, &m.params, err, sizeof(err));
	if (ret == 0)
		ret = plan_phases(m.params, &m.ov, &m.phases, &m.nphases, err,
				  sizeof(err));
	if (ret < 0) {
		fprintf(stderr, "%s\n", err);
		master_free(&m);
		return MASTER_EXIT_BAD_INPUT;
	}
	uuid_generate(uu);
	uuid_unparse_lower(uu, m.run_id);
	m.started_real = time_real_ns();
	m.slaves = calloc(MAX_SLAVES, sizeof(*m.slaves));
	m.scratch = stats_new();
	if (!m.slaves || !m.scratch || alloc_runs(&m) < 0 ||
	    open_results(&m) < 0) {
		master_free(&m);
		return MASTER_EXIT_BAD_INPUT;
	}
	if (m.params->nhd > 0)
		m.nlocal = 0; /* hd= lines say where the slaves run */
	ret = check_listen(&m);
	if (ret == 0)
		ret = hub_open(m.bind, m.port, &m.hub, &m.bound_port, err,
			       sizeof(err));
	else
		snprintf(err, sizeof(err), "%s", "bad --listen");
	if (ret < 0) {
		log_error("%s", err);
		master_free(&m);
		return MASTER_EXIT_BAD_INPUT;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);
	for (size_t i = 0; i < m.params->nwarn; i++)
		log_msg(LOG_WARN, "%s", m.params->warn[i]);
	log_info("run %s: %zu runs, %.0f s planned, results in %s", m.run_id,
		 m.nphases, plan_total_seconds(m.phases, m.nphases), m.dir);
	log_info("master listening on tcp://%s:%u (broadcasts on port %u)",
		 m.bind, m.bound_port, m.bound_port + 1);

	m.launch.logfd = fileno(m.log);
	m.tty = isatty(STDOUT_FILENO);
	m.launch.verbose = m.verbose;
	ret = launch_slaves(&m);
	if (ret == 0)
		ret = wait_registration(&m);
	if (ret == 0)
		ret = check_plans(&m);
	for (size_t i = 0; ret == 0 && i < m.nruns; i++)
		ret = run_next(&m, &m.runs[i]);

	if (ret == -EINTR || interrupted) {
		log_warn("interrupted: stopping every slave");
		m.exit_code = MASTER_EXIT_ABORTED;
	} else if (ret == -ECANCELED) {
		m.exit_code = MASTER_EXIT_ABORTED;
	} else if (ret < 0) {
		m.exit_code = MASTER_EXIT_BAD_INPUT;
	}
	stop_all(&m, m.exit_code == MASTER_EXIT_OK ||
			     m.exit_code == MASTER_EXIT_DEGRADED ?
		     PROTO_STOP : PROTO_ABORT,
		 m.exit_code == MASTER_EXIT_OK ? "run complete" :
						 status_name(m.exit_code));
	reap_slaves(&m);
	report_lost(&m, stdout);
	write_summary(&m);
	write_summary_txt(&m);
	log_info("run %s %s; results in %s", m.run_id,
		 status_name(m.exit_code), m.dir);
	ret = m.exit_code;
	master_free(&m);
	return ret;
}
