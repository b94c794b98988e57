/*
 * What the files of `lockstep run` share: the master's state (struct
 * master, split into parts by owner below: the options, the link, the
 * roster, the phase in flight, the results, the facts that decide the
 * exit code), what it knows of each slave (struct slave_rec) and of each
 * run (struct run_result), and the functions each room of the master
 * offers the others. The rooms are:
 *   roster.c     the slaves: lookup by routing id and name, the names this
 *                run waits for, lost and back (functions take the roster
 *                and the parts they read; lost and back take the master,
 *                as the phase, merge and events react to them);
 *   admit.c      a hello judged: who may join, as whom;
 *   link.c       transport: frames in, decoded and checked, handed to
 *                their owner; frames out, acks, liveness; link_pump()
 *                that drives it all and calls its registered tickers;
 *   conductor.c  the phases: launch, registration, clocks, plans, ready,
 *                go, phase_end, the interval merge, curves and pauses;
 *   decide.c     the conductor's decisions and the exit code as pure
 *                functions (decide.h);
 *   midphase.c   a slave back inside a running phase rejoins it (the
 *                rules are rejoin.c's, pure);
 *   interrupt.c  SIGINT/SIGTERM, and the children a second one kills;
 *   results/     every output, a table of sinks (results/results.h,
 *                results/sink.h): the console, the results folder and
 *                the live export;
 *   master.c     master_main(), the command line, start-up and shutdown.
 * struct master is the conductor's and is seen by run/ only: results/ and
 * events/ are handed m->view (view.h), which gives them the run as
 * planned, const pointers to the parts they read, and their own state.
 * They include this header for the types (slave_rec, run_result).
 */
#ifndef LOCKSTEP_MASTER_MASTER_INT_H
#define LOCKSTEP_MASTER_MASTER_INT_H

#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include "common/clockoff.h"
#include "common/hist.h"
#include "common/keys.h"
#include "common/log.h"
#include "common/fsops.h"
#include "common/stats.h"
#include "master/run/decide.h"
#include "master/export/export.h"
#include "master/events/cmds.h"
#include "master/events/events.h"
#include "master/events/probes.h"
#include "master/run/hub.h"
#include "master/run/launch.h"
#include "master/run/merge.h"
#include "master/plan/plan.h"
#include "master/plan/slo.h"
#include "master/run/plausible.h"
#include "master/run/rejoin.h"
#include "master/run/view.h"
#include "master/results/results.h"
#include "master/results/runfile.h"
#include "proto/proto.h"

#define MAX_SLAVES 8192
/*
 * Clock samples per slave and phase: one ping in flight per slave, the next
 * sent CLOCK_GAP_NS after the last (or once it is answered, if later), so
 * that the samples spread over ~100 ms and meet different moments of the
 * schedulers; the one with the smallest round trip is kept.
 */
#define CLOCK_SAMPLES 40
#define CLOCK_GAP_NS (2500 * NS_PER_US)
#define CLOCK_PONG_WAIT_NS (50 * NS_PER_MS) /* a ping not answered: next */
#define GO_RESEND_NS (100 * NS_PER_MS)
#define PEER_SLOTS 16384                 /* > 2 x MAX_SLAVES, a power of two */
#define HOSTS_FLUSH_NS (10 * NS_PER_SEC) /* hosts/ files: every 10 s */
/*
 * While intervals flow, wait this long after a wake-up with frames before
 * draining them: the ZeroMQ I/O thread then hands over many frames per
 * wake-up instead of one (with 1000 slaves, 20 ms instead of 5 saves a
 * sixth of the master's CPU). Never while clocks are measured: a pong read
 * late makes the round trip look long and skews the offset by half of it.
 */
#define BATCH_NS (20 * NS_PER_MS)
/*
 * How often silence is judged and due acks and heartbeats go out: a pass
 * walks every slave record (1000 x ~1.9 KB, cache misses each), so 4 a
 * second, not 20; a lost slave is called at most 250 ms later.
 */
#define LIVENESS_NS (250 * NS_PER_MS)
/*
 * What the master sends each slave while intervals flow is acks alone, and
 * each costs a send and two epoll_ctl calls in ZeroMQ's I/O thread (on
 * loopback the slave's receive path too): an ack goes out when ACK_BATCH
 * intervals wait, when the first waiting one has waited ACK_DELAY_NS, or
 * when the master has been silent to that slave for QUIET_NS, 2/5 of the
 * master timeout (it then stands for the heartbeat; 4 s of 10, which
 * leaves the slave 6 s to hear it before it calls the master lost). One
 * frame per slave per 4 s instead of one a second. Slaves re-send after
 * RESEND_NS (6 s, slave/uplink.c), which must stay above ACK_DELAY_NS plus
 * a LIVENESS_NS pass.
 */
#define ACK_BATCH 16
#define ACK_DELAY_NS (4 * NS_PER_SEC)
#define QUIET_NS(m) ((m)->opt->master_timeout_ns / 5 * 2)

enum slave_state { SLAVE_JOINED, SLAVE_LOST, SLAVE_GONE };

/* A slave back inside a running phase (midphase.c), step by step. */
enum slave_rejoin {
	REJOIN_NONE,
	REJOIN_WANTED,  /* a new process (or session) to judge and plan */
	REJOIN_RESUME,  /* the same process: its next interval resumes it */
	REJOIN_PLANNED, /* its part of the plan sent: waiting for ready */
	REJOIN_STARTED, /* go sent with its first interval */
};

/*
 * One loss of a slave and what followed (summary.json "loss_records"):
 * master CLOCK_REALTIME ns, 0 for what did not happen.
 */
struct slave_loss {
	uint64_t lost_real;   /* marked lost */
	uint64_t back_real;   /* it spoke or registered again */
	uint64_t rejoin_real; /* the start of its first interval back */
	int rejoin_run;       /* m->ph.runs index it rejoined, -1: none */
	unsigned rejoin_seq;  /* the run's interval (0-based) it began at */
};

struct slave_rec {
	/*
	 * First what link_liveness() reads of every slave 4 times a
	 * second: one cache line, not three, per slave.
	 */
	enum slave_state state;
	int in_phase;
	uint64_t last_rx; /* CLOCK_MONOTONIC */
	uint64_t last_tx;
	unsigned contig;   /* intervals 0..contig-1 all received */
	unsigned acked;    /* intervals 0..acked-1 acknowledged */
	uint64_t ack_wait; /* when the oldest unacknowledged one came */
	struct hub_peer peer;
	struct proto_hello hello;
	struct clockoff clk; /* the offset its plans get */
	unsigned pongs;      /* pongs heard since clocks_sync() began */
	/* Clock datagrams (clocks.c): this phase's nonce, its address. */
	struct clockoff uclk;
	unsigned upongs;
	uint64_t cnonce;
	struct sockaddr_storage caddr;
	socklen_t caddrlen;
	int clock_udp; /* clk came from the datagrams */
	uint64_t last_heard_real;
	pid_t pid;          /* a local child, else 0 */
	uint64_t lost_real; /* when it was marked lost (last time) */
	uint64_t back_real; /* when it came back (last time) */
	unsigned losses;
	int hd; /* index of its hd= line, -1 for none */
	/* Per phase (and in_phase, contig, acked, ack_wait above). */
	int ready, go_acked, ended;
	unsigned end_intervals; /* intervals it sent, from phase_end */
	uint64_t first_io;      /* master clock */
	unsigned char *got;     /* intervals received (or GOT_REJECTED) */
	struct hist_sparse end_lat[2]; /* its measured latency, phase_end */
	uint64_t end_val[3];           /* validation counters, phase_end */
	/*
	 * Its plan's targets as params sd indexes (phase_end vs[].t,
	 * interval sl[].t) and their threads (in plan_sd's allocation).
	 */
	unsigned *plan_sd;
	unsigned *plan_thr;
	unsigned nplan_sd;
	/* Trust: what it may report, and what it reported that was wrong. */
	struct plausible_plan pplan; /* what its plan of the phase allows */
	unsigned rejected;           /* intervals refused as implausible */
	unsigned invalid;       /* invalid frames it sent (INVALID_BUDGET) */
	int suspect;            /* it sent an implausible interval */
	int banned;             /* past INVALID_BUDGET: its frames ignored */
	struct log_bucket logb; /* limits its log and error messages */
	/* Its last loss was expected by this event (events.c), or NULL. */
	const char *loss_expected;
	/*
	 * The phase in progress as planned at its start (send_plans): its
	 * place in the planning order (-1: none), and the process and host
	 * that part went to. A slave back inside the phase gets that part
	 * again (midphase.c).
	 */
	int ph_k;
	char ph_id[PROTO_ID_LEN];
	char ph_host[PROTO_HOST_LEN];
	enum slave_rejoin rejoin;
	uint64_t rejoin_mono;       /* when its plan went (REJOIN_PLANNED) */
	uint64_t rejoin_tx;         /* when its go last went (REJOIN_STARTED) */
	unsigned rejoin_first;      /* the interval it starts at */
	struct rejoin_in rejoin_in; /* what its plan was judged on */
	struct slave_loss *lossrec; /* one per loss (malloc'd) */
	unsigned nlossrec;
};

/* s->got[seq] of an interval refused as implausible (acknowledged). */
#define GOT_REJECTED 2
/*
 * Invalid frames (undecodable, or of a type its sender may not send) a
 * peer may send before its frames are ignored. ROUTER cannot close one
 * peer's connection, so a peer past its budget is ignored by routing id:
 * a registered slave in its record (it is lost), any other peer in a
 * table of BUDGET_SLOTS entries by hash (bounded memory: a peer that
 * changes its routing id starts again, as it would with a new connection).
 */
#define INVALID_BUDGET 100
#define BUDGET_SLOTS 1024

struct peer_budget {
	uint64_t hash; /* of the routing id */
	unsigned bad;
};

struct slave_total {
	int ran;            /* it sent intervals of this run */
	const char *no_pct; /* why v has no percentiles, or NULL */
	struct stats_view v;
	uint64_t first_io_ns;    /* its first I/O, master clock; 0 unknown */
	int64_t clock_offset_ns; /* its clock's offset in this run */
	uint64_t clock_error_ns; /* and that offset's error bound */
	uint64_t val[3];         /* validation: written, verified, mismatched */
	double slo_ms; /* iorate=slo: its own value of the objective, NaN */
	/* A file-system phase's other operations (has_fs): merge_slave_fs. */
	int has_fs;
	uint64_t fs[FSOPS_N][FSOPS_SUMS];
};

struct fiojson_run;

/* How a warmup=steady warmup ended (warmup.c); zero for a fixed one. */
struct run_warmup {
	int decided;        /* 0: the phase ended before a decision */
	int reached_max;    /* not steady within the maximum */
	unsigned max;       /* the most warmup intervals it could take */
	unsigned steady_at; /* warmup intervals judged steady (0: never) */
	double data_pct, slope_pct; /* the cluster's last judged window */
	/* At the maximum: the series farthest from steady ("" = cluster). */
	char worst[PROTO_NAME_LEN];
};

struct run_result {
	struct plan_phase ph;
	int done;
	int skipped;          /* a curve point not run (see plan.h) */
	int curve_stopped;    /* curve-max: stopcurve= ended its points */
	uint64_t duration_ns; /* from start to the last phase_end */
	uint64_t done_bytes;  /* format: written so far (emitted rows) */
	unsigned rows;        /* intervals written (the last one's seq + 1) */
	uint64_t start_skew_ns;
	uint64_t start_skew_bound_ns; /* its error from the clocks' bounds */
	uint64_t start_at;
	struct stats_view view; /* the run's totals over its measured time */
	/* Validation (phase_end vw, vr, vm summed): 4 KiB blocks written,
	 * verified, mismatched; validated says the run had it on. */
	uint64_t val[3];
	/*
	 * The same per sd (params->nsd rows, malloc'd at the first count),
	 * and [3]: how many slaves reported the sd (0: not in the run).
	 */
	uint64_t (*val_sd)[4];
	int validated;
	struct slave_total *slave; /* per slave at the run, from the merge */
	unsigned nslave;
	char file[RUNFILE_MAX];  /* its files' stem (runfile.h) */
	int hgrm_written;        /* <file>.hgrm is whole */
	struct fiojson_run *fio; /* fio.json's figures (NULL: no measured row) */
	struct run_warmup warm;  /* warmup=steady: how the warmup ended */
	/*
	 * maxdata=: the limit in bytes (0: none), the measured bytes of the
	 * rows so far, and the intervals the phase was cut to (0: not cut).
	 */
	uint64_t maxdata_limit, maxdata_bytes;
	unsigned maxdata_cut;
	struct slo_run slo; /* iorate=slo phases: as measured (slosteps.h) */
	/*
	 * A file-system phase: every operation's totals over the measured
	 * time (reads and writes as in view), malloc'd; NULL in a block phase.
	 */
	struct fsops_view *fs;
	/* merge_cfg.fsops of its phase: 0 in a block phase. */
	uint32_t fsops;
};

/*
 * What the command line asked for, with what follows from it (the
 * address slaves connect to, no local slaves with hd= lines): built once
 * by master.c before the run starts and read-only after (m->opt is a
 * const pointer).
 */
struct run_opts {
	const char *param_path;
	const char *outdir_opt;
	int report;          /* --report: write report.html at the end */
	int vdbench_console; /* `lockstep vdbench`: Vdbench's columns only */
	const char *engine;
	const char *bind;
	const char *advertise; /* the address slaves connect to */
	int insecure;
	const char *key_file;  /* --key: the master's secret key */
	const char *auth_file; /* --authorized-slaves */
	unsigned port;
	unsigned nlocal;
	struct plan_overrides ov;
	uint64_t slave_timeout_ns;
	uint64_t join_timeout_ns;
	uint64_t ready_timeout_ns;
	uint64_t grace_ns;
	uint64_t heartbeat_ns;
	uint64_t master_timeout_ns;
	int verbose;
	int abort_on_loss;
	int push;          /* --push: copy this binary to hd= hosts */
	int loss_given;    /* --on-slave-loss was on the command line */
	unsigned expect;   /* external slaves to wait for */
	int require_space; /* --require-space */
	/* The run history and baseline (master/history/history.h). */
	const char *history, *baseline, *threshold;
	int no_history;
	struct export_opts exp_opts;
};

/*
 * Periodic work link_pump() does after each batch of frames, in the order
 * registered (link_add_ticker): fn(arg, now) once period_ns (0: every
 * pump) passed since its last call; now is CLOCK_MONOTONIC.
 */
typedef void (*link_tick_fn)(void *arg, uint64_t now);
struct link_ticker {
	link_tick_fn fn;
	void *arg;
	uint64_t period_ns;
	uint64_t last;
};
#define LINK_TICKERS 8

struct master;
struct slave_rec;
/*
 * The typed calls link.c makes for frames that concern the phase
 * (master.c sets them): the transport calls up through these instead of
 * naming the conductor or midphase.c, which call down into link.c.
 */
struct link_upcalls {
	/* A slave's phase_end (conductor_phase_end). */
	void (*phase_end)(struct master *m, struct slave_rec *s,
			  struct proto_phase_end *pe);
	/* An interval of a slave whose same process came back inside the
	   phase (midphase_resume). */
	void (*resume)(struct master *m, struct slave_rec *s);
};

/* The transport (link.c, clocks.c, hub.c): sockets, keys, timers. */
struct link_state {
	struct hub *hub;
	int csock, csock_state; /* clocks.c: UDP; state 1 open, -1 none */
	unsigned csock_port;
	unsigned bound_port;
	/*
	 * --insecure with local slaves: they still prove per-run keys, on a
	 * CURVE pair of their own on loopback (hub.h), at local_port.
	 */
	int local_curve;
	unsigned local_port;
	int curve;                   /* CURVE on (else plain TCP, --insecure) */
	struct keys_pair key;        /* the master's keys (--key or per run) */
	struct keys_authorized auth; /* keys that may register, and as whom */
	uint64_t batch_ns;           /* BATCH_NS in run_phase(), else 0 */
	uint64_t rx_real;            /* when the frame in hand was received */
	struct link_upcalls up;
	struct link_ticker tick[LINK_TICKERS]; /* what link_pump() ticks */
	unsigned ntick;
	struct peer_budget budget[BUDGET_SLOTS]; /* unregistered peers */
};

/* The slaves (roster.c). */
struct roster {
	struct slave_rec *slaves;
	unsigned nslaves;
	int peer_tab[PEER_SLOTS]; /* slave index + 1 by routing id hash */
	int registering;          /* new slave names are accepted */
};

/* The phases and the one in flight (conductor.c, midphase.c). */
/*
 * A warmup=steady phase's warmup series (warmup.c): I/Os per warmup
 * interval of the cluster's rows and of each slave's samples.
 */
struct warmup_state {
	unsigned max;     /* intervals each series holds: the planned warmup */
	unsigned nseries; /* 1 + slaves */
	double *ops;      /* nseries x max; [0] the cluster */
	const double **series;
	int decided;
};

struct phase_state {
	struct launch launch;
	struct run_result *runs;
	size_t nruns;
	struct decide_slave *dview; /* MAX_SLAVES, the conductor's scratch */
	unsigned phase_no;
	unsigned nended; /* slaves that sent this phase's phase_end */
	/* Until when phase_over() waits for intervals that ended slaves did. */
	uint64_t drain_until;
	/* Its roster as planned (send_plans), for slaves that rejoin it. */
	int *ph_hd;
	unsigned *ph_rank; /* NULL without validate=yes */
	unsigned ph_n;
	unsigned rejoining; /* slaves whose rejoin is not REJOIN_NONE */
	/*
	 * Each sd's bytes as the phase's slaves report them in ready (the
	 * smallest when several do; 0: none did), params->nsd of them: maxdata=
	 * as a multiple of the sds' size (maxdata.c).
	 */
	uint64_t *sd_bytes;
	struct merge *merge;
	struct run_result *cur;
	struct stats *scratch;
	struct warmup_state warm;
};

/*
 * A run of the master: the parts above, each owned by the module named
 * beside it, and the run as planned (set once at the start).
 */
struct master {
	const struct run_opts *opt;
	struct params *params;
	struct plan_phase *phases;
	size_t nphases;
	char run_id[PROTO_ID_LEN];
	uint64_t started_real;
	struct link_state link;
	struct roster roster;
	struct phase_state ph;
	struct results_state out; /* results/results.h */
	struct run_facts fact;    /* what decides the exit code (decide.h) */
	struct events *events;    /* ev= lines (events.h), NULL: none */
	struct probes *probes;    /* probe= lines (probes.h), NULL: none */
	struct cmds *cmds;        /* startcmd=, endcmd= (cmds.h), NULL: none */
	/* What results/ and events/ are given of all this (view.h). */
	struct run_view view;
};

/* ---- warmup.c: the end of a warmup=steady warmup ---- */

/* Get the series ready for r (nothing for a fixed warmup); -ENOMEM. */
int warmup_phase_start(struct master *m, struct run_result *r);
/* A slave's accepted interval sample (index slave, I/Os ops). */
void warmup_sample(struct master *m, unsigned slave, unsigned seq,
		   uint64_t ops);
/*
 * A cluster row was emitted: judge the warmup (settle.h) and, once it is
 * over, place the measured window (the run's warmup_intervals and
 * intervals) and say so. 1 when the window moved: the caller then tells
 * the slaves (a measure message), else 0.
 */
int warmup_row(struct master *m, const struct merge_row *row);

/*
 * maxdata.c: maxdata= at run time. After each row: once the measured rows' bytes pass the limit, the
 * phase ends with the interval after the latest any slave reported (the
 * merge, the slaves' plans and the run cut to it) and the console says
 * so. 1 when it was cut: the caller tells the slaves (a measure
 * message), else 0.
 */
int maxdata_row(struct master *m, const struct merge_row *row);
/* A new phase: forget the sds' reported bytes (-ENOMEM). */
int maxdata_phase_start(struct master *m);
/*
 * A slave's ready says its targets' bytes (hostile: an sd not in its plan
 * of the phase, or a size that contradicts the sd's size=, is logged and
 * ignored); each sd keeps the smallest a slave reports.
 */
void maxdata_ready(struct master *m, const struct slave_rec *s,
		   const struct proto_ready *r);
/* Free the series. */
void warmup_phase_end(struct master *m);

/* ---- interrupt.c: SIGINT and SIGTERM ---- */

/* Set by SIGINT/SIGTERM; link_pump() then returns -EINTR. */
extern volatile sig_atomic_t run_interrupted;
/* Install the handler (master.c, before the run). */
void interrupt_install(void);
/*
 * Remember the processes l started (the conductor, as they change), so
 * that a second SIGINT (which leaves at once) still kills them and their
 * process groups; forget them once they are reaped.
 */
void interrupt_note_children(const struct launch *l);
void interrupt_forget_children(void);

/* ---- roster.c: the slaves ---- */

/* The slave with this routing id / name, or NULL. */
struct slave_rec *roster_find_peer(struct roster *r, const struct hub_peer *p);
struct slave_rec *roster_find_name(struct roster *r, const char *name);
/*
 * Register a new slave (the caller checked it may join): a zeroed record
 * in m->roster.slaves with its peer, hello and hd=. NULL when MAX_SLAVES are in.
 */
struct slave_rec *roster_add(struct roster *r, const struct params *p,
			     const struct hub_peer *peer,
			     const struct proto_hello *h);
/*
 * Name k of hd= line hd: NAME, or NAME-1..NAME-N when slaves=N. With hd=
 * lines these are the slaves a run waits for; otherwise local-1..local-N
 * for the local slaves, and --expect-slaves adds that many of any name.
 */
void roster_expected_name(const struct params_hd *hd, unsigned k, char *buf,
			  size_t len);
/* The hd= line a slave of this name belongs to, -1 for none. */
int roster_hd_of_name(const struct params *p, const char *name);
/* Expected slaves that have not registered yet; names listed into buf. */
unsigned roster_missing(struct roster *r, const struct params *p,
			const struct run_opts *o, char *buf, size_t len);
/* Slaves registered and not lost or gone. */
unsigned roster_live_count(const struct roster *r);
/*
 * The live slaves of the phase that have not ended it (returned), and in
 * *holes those that ended it with intervals the master does not hold yet:
 * their phase_end said they did more than 0..contig-1 (a link that came
 * back may still carry the rest, or the slave's spool re-sends it).
 */
unsigned roster_unended(const struct roster *r, unsigned intervals,
			unsigned *holes);
/* The hd of every live slave, in slave order (malloc'd, for the planner). */
int *roster_live_hosts(const struct roster *r, unsigned *n);
/*
 * The one place a slave is marked lost: its intervals are no longer waited
 * for, the loss is counted and the run is degraded.
 */
void roster_mark_lost(struct master *m, struct slave_rec *s);
/*
 * A slave we knew is back (peer and h NULL when it just spoke again after
 * it was marked lost); it takes part from the next phase on.
 */
void roster_back(struct master *m, struct slave_rec *s,
		 const struct hub_peer *peer, const struct proto_hello *h);
/*
 * Free what phase_end gave a slave (its histograms). Inline: the roster,
 * the conductor and midphase.c all drop them, and none of them should
 * depend on another's object for it.
 */
static inline void roster_free_end_lat(struct slave_rec *s)
{
	for (int d = 0; d < 2; d++) {
		hist_sparse_free(&s->end_lat[d]);
		memset(&s->end_lat[d], 0, sizeof(s->end_lat[d]));
	}
}
/*
 * Whether a hello may claim its name at all: a name the master gave a
 * process it started here belongs to that pid only, and without hd= lines
 * other names take only the --expect-slaves places. NULL when it may,
 * else why not (static text).
 */
const char *roster_claim_refused(const struct roster *r, const struct launch *l,
				 const struct params *params,
				 const struct run_opts *o,
				 const struct proto_hello *h);
/*
 * Whether the hello h from peer may take the place of s, the slave
 * registered under its name: NULL when it may (the same process, or s was
 * lost or left, or s has been silent past the slave timeout - it is then
 * marked lost - or peer proves s's key), else why not, in buf.
 */
const char *roster_takeover_refused(struct master *m, struct slave_rec *s,
				    const struct hub_peer *peer,
				    const struct proto_hello *h, char *buf,
				    size_t len);

/* ---- link.c: frames in and out ---- */

/* Encode msg and send it to s. Returns 0 or -errno (logged). */
int link_send(struct master *m, struct slave_rec *s,
	      const struct proto_msg *msg);
/* Send stop or abort with a reason to every live slave. */
void link_stop_all(struct master *m, enum proto_type type, const char *reason);
/* Acknowledge what s sent, now if urgent (see link.c). */
void link_ack(struct master *m, struct slave_rec *s, int urgent, uint64_t now);
/*
 * Receive and handle frames for up to timeout_ms, then call the tickers.
 * Returns -EINTR once interrupted, -ECANCELED once the run must stop.
 */
int link_pump(struct master *m, long timeout_ms);
/* Register a ticker of link_pump(): 0, or -ENOSPC past LINK_TICKERS. */
int link_add_ticker(struct link_state *l, link_tick_fn fn, void *arg,
		    uint64_t period_ns);
/*
 * The liveness ticker (arg: the master), every LIVENESS_NS: due acks and
 * heartbeats go out, and a slave of the phase silent past the slave
 * timeout is lost.
 */
void link_liveness(void *arg, uint64_t now);
/*
 * The fix for a slave of another version: the master and its slaves must
 * be the same build (the numbers and the plan's meaning depend on it).
 */
#define LINK_SAME_VERSION                                                 \
	"run the same version on every host (`lockstep run FILE --push` " \
	"copies this master's binary to the hd= hosts)"

/* ---- admit.c: who may join ---- */

/*
 * A hello from peer; s is the slave registered under its routing id, or
 * NULL. Judges the names the peer's key may use, the hello itself, the
 * slave of that name already in (roster_claim_refused,
 * roster_takeover_refused) and, for a new slave, the run's hd= lines,
 * engine and its hosts/ file. Returns the slave it speaks for once
 * admitted (registered, back, or the same), else NULL with why filled
 * ("" when already said), and *invalid set when the hello counts
 * against its sender's budget of invalid frames.
 */
struct slave_rec *admit_hello(struct master *m, struct slave_rec *s,
			      const struct hub_peer *peer,
			      const struct proto_hello *h, char *why,
			      size_t len, int *invalid);

/* ---- clocks.c: clock offsets ---- */

/*
 * Measure every joined slave's clock offset (s->clk): pings over ZeroMQ
 * and clock datagrams. Returns 0, -ETIMEDOUT if a slave answered none,
 * -EINTR or -ENOMEM.
 */
int clocks_sync(struct master *m);
/* Close the clock-datagram socket (master shutdown). */
void clocks_close(struct master *m);

/* ---- conductor.c: the phases ---- */

/*
 * Launch the slaves, wait for them to register, refuse plans they cannot
 * run, then run every phase. Returns 0 or -errno (-EINTR interrupted,
 * -ECANCELED the run was stopped).
 */
int conductor_run(struct master *m);

/*
 * slaveplan.c. Slave `slave` of n's part of phase ph (plan_for_slave; in
 * a file-system phase plan_fs_for_slave, whose trees are the slave's
 * `name` beneath each anchor). slaveplan_ranks: the n live slaves
 * numbered by name (plan_validate_order), for validation's cuts and a
 * shared=yes tree's files: fills rank (n entries) and reorders hd; with
 * validation a lost slave stops the run (-ECANCELED, said), else its
 * part goes to the others.
 */
int slaveplan_for(const struct master *m, const struct plan_phase *ph,
		  const int *hd, unsigned slave, unsigned n, const char *name,
		  struct proto_plan *out, char *err, size_t errlen);
int slaveplan_ranks(struct master *m, int *hd, unsigned n, unsigned *rank);
/* Wait for the slaves we started to exit; kill the ones that do not. */
void conductor_reap(struct master *m);
/*
 * A slave's phase_end of the phase in progress (pe->phase checked here):
 * its counts, latency histograms (taken from pe) and validation counters
 * kept for the run's totals, its first I/O checked, and a slave that
 * failed stops the run.
 */
void conductor_phase_end(struct master *m, struct slave_rec *s,
			 struct proto_phase_end *pe);

/* ---- midphase.c: rejoining a running phase ---- */

/*
 * Called from the phase loop: judge each slave back inside the phase
 * (rejoin.c's rules), send its part of the plan, and once it is ready its
 * go with its first interval; the merge expects it from there. A slave
 * that may not rejoin is told to wait (one console line).
 */
void midphase_step(struct master *m);
/*
 * s is back while a phase runs (roster_back): same_process when the
 * process that was lost speaks again. Returns 1 when it may rejoin the
 * phase (midphase_step judges it), 0 when it joins the next phase.
 */
int midphase_back(struct master *m, struct slave_rec *s, int same_process);
/* s was lost: a rejoin under way is dropped. */
void midphase_lost(struct master *m, struct slave_rec *s);
/*
 * Phase r starts (r->start_at set): a slave back since its loss that is
 * in it has rejoined at its start (recorded).
 */
void midphase_phase_start(struct master *m, struct run_result *r);
/*
 * An interval of the phase in progress from a slave whose same process
 * came back (REJOIN_RESUME): it is in the phase again from the next row.
 */
void midphase_resume(struct master *m, struct slave_rec *s);
/* The phase is over: slaves still on their way in wait for the next. */
void midphase_end(struct master *m);

/* ---- skip.c: curve points and slo steps ---- */

/*
 * Set run r's rate if it is a curve point or an slo step; 1 when it is
 * skipped instead (marked and said), else 0.
 */
int skip_run(struct master *m, struct run_result *r);

/*
 * What a curve goes by, of a run that is done: a file-system run's
 * requested operations (fsops_view's req_rate and req_resp_ms, Vdbench's
 * ReqstdOps: FwdStats.getTotalRate/getTotalResp), a block run's I/O.
 */
double run_curve_rate(const struct run_result *r);
double run_curve_resp_ms(const struct run_result *r);

/* ---- cmdrun.c: startcmd= and endcmd= around the runs ---- */

/*
 * The general startcmd= (end 0) or endcmd= (end 1), or run r's rd's
 * (none for a format pass): every command of the list, on the master or
 * on one slave of each host, waited for while the slaves are served.
 * 0 (a failed command is only recorded and said), -EPERM when a slave
 * refused one (said, naming it and its host), or link_pump()'s error.
 */
int cmdrun_general(struct master *m, int end);
int cmdrun_phase(struct master *m, struct run_result *r, int end);

#endif
