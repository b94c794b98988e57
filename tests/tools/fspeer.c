/*
 * Test tool: a master for one real slave that runs file-system phases.
 * It binds a ROUTER on a port the kernel picks (printed as "port N"),
 * welcomes the first slave, then runs each PHASE of its command line in
 * turn on one fsd and prints, per phase, what the slave's intervals add
 * up to:
 *
 *   fspeer [-a ANCHOR] [-s SUBDIR] [-d DEPTH] [-w WIDTH] [-f FILES]
 *          [-z SIZE] [-n INTERVALS] [-m MS] [-S NO/COUNT] PHASE...
 *
 *   format=yes|restart|clean  a format phase (plan.fm 1, the fsd's fm)
 *   run:OP[*THREADS][,OP...]   a run phase, one fwd per OP (read, write,
 *                              create, delete, mkdir, rmdir, open, close,
 *                              getattr, setattr, access; rw50 is a mixed
 *                              read/write fwd with rdpct=50)
 *   refuse:TEXT                a format plan whose answer must be an
 *                              error holding TEXT
 *
 * Each phase's line: "phase N status S intervals K reads R rbytes RB
 * writes W wbytes WB errors E" then " OP=COUNT/ERRORS" for each other
 * operation seen. Each interval is checked: its histograms' counts equal
 * its counts (lat.count == count, per operation too), its operations
 * sorted and each once; a violation prints "FAIL". Exits 0 when every
 * phase ended as expected (status 0, or refused as asked), 1 otherwise, 2
 * on usage or setup errors; every wait is bounded.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zmq.h>
#include "common/timeutil.h"
#include "proto/proto.h"
#include "tests/tools/peer.h"

static struct peer peer;

static const char *const op_names[PROTO_FSOP_MAX] = {
	"read",  "write",   "create",  "delete", "mkdir", "rmdir", "open",
	"close", "getattr", "setattr", "access", "copy",  "move",
};

/* The next message (logs printed, heartbeats skipped) within wait_ms. */
static int recv_msg(struct proto_msg *m, uint64_t wait_ms)
{
	uint64_t deadline = time_mono_ns() + wait_ms * 1000000;
	char err[256];
	int ret;

	while ((ret = peer_recv(&peer, m, deadline, err, sizeof(err))) !=
	       -ETIMEDOUT) {
		if (ret < 0) {
			printf("FAIL bad frame: %s\n", err);
			continue;
		}
		if (m->type == PROTO_LOG) {
			printf("slave log: %s\n", m->u.log.message);
			proto_msg_free(m);
			continue;
		}
		if (m->type == PROTO_HEARTBEAT || m->type == PROTO_PONG) {
			proto_msg_free(m);
			continue;
		}
		return 0;
	}
	return -ETIMEDOUT;
}

static struct proto_fsd fsd;
static unsigned nintervals = 20, interval_ms = 200;

struct totals {
	uint64_t ops[2], bytes[2], errors, n[PROTO_FSOP_MAX], e[PROTO_FSOP_MAX];
	int bad;
	unsigned intervals, last_seq;
};

static void check_interval(const struct proto_interval *iv, struct totals *t)
{
	uint32_t prev = 0;

	for (int d = 0; d < 2; d++) {
		t->ops[d] += iv->ops[d];
		t->bytes[d] += iv->bytes[d];
		if (iv->lat[d].count != iv->ops[d]) {
			printf("FAIL interval %u: %s lat.count %" PRIu64
			       " != ops %" PRIu64 "\n",
			       iv->seq, op_names[d], iv->lat[d].count,
			       iv->ops[d]);
			t->bad = 1;
		}
	}
	t->errors += iv->errors;
	for (uint32_t k = 0; k < iv->nfsops; k++) {
		const struct proto_fsop_stat *f = &iv->fsops[k];

		if (f->op < PROTO_FSOP_CREATE || f->op >= PROTO_FSOP_MAX ||
		    (k && f->op <= prev) || f->lat.count != f->count ||
		    f->errors > f->count) {
			printf("FAIL interval %u: fsop %u bad (count %" PRIu64
			       " lat %" PRIu64 ")\n",
			       iv->seq, f->op, f->count, f->lat.count);
			t->bad = 1;
			continue;
		}
		prev = f->op;
		t->n[f->op] += f->count;
		t->e[f->op] += f->errors;
	}
}

static void base_plan(struct proto_plan *p, uint32_t phase)
{
	memset(p, 0, sizeof(*p));
	p->phase = phase;
	snprintf(p->name, sizeof(p->name), "fs%u", phase);
	snprintf(p->engine, sizeof(p->engine), "uring");
	p->interval_ns = (uint64_t)interval_ms * 1000000;
	p->intervals = nintervals;
	p->nfsds = 1;
	p->fsds = &fsd;
}

static int op_of(const char *name, size_t len)
{
	for (int o = 0; o < PROTO_FSOP_MAX; o++)
		if (strlen(op_names[o]) == len &&
		    !strncmp(name, op_names[o], len))
			return o;
	return -1;
}

/* "OP[*N],OP..." into fwds; returns how many, or -1. */
static int parse_fwds(const char *list, struct proto_fwd *w, unsigned max)
{
	unsigned n = 0;

	while (*list && n < max) {
		size_t len = strcspn(list, ",*");
		struct proto_fwd *f = &w[n];
		int op;

		memset(f, 0, sizeof(*f));
		if (len == 4 && !strncmp(list, "rw50", 4)) {
			op = PROTO_FSOP_READ;
			f->mixed = 1;
			f->rdpct = 50;
		} else {
			op = op_of(list, len);
		}
		if (op < 0)
			return -1;
		snprintf(f->name, sizeof(f->name), "fwd%u", n + 1);
		f->op = (uint32_t)op;
		f->nxfer = 1;
		f->xfer[0].size = 4096;
		f->xfer[0].pct = 100;
		f->threads = 1;
		f->fileselect = PROTO_FSEL_RANDOM;
		f->fileio = PROTO_FILEIO_SEQ;
		list += len;
		if (*list == '*') {
			f->threads = (uint32_t)strtoul(list + 1, NULL, 10);
			list += 1 + strspn(list + 1, "0123456789");
		}
		if (*list == ',')
			list++;
		n++;
	}
	return (int)n;
}

/* Run one phase: plan, ready (or the refusal), go, intervals, end. */
static int run_phase(struct proto_plan *p, const char *refuse)
{
	struct proto_msg m = { .type = PROTO_PLAN, .u.plan = *p };
	struct totals t = { .last_seq = UINT32_MAX };
	uint64_t wait = (uint64_t)nintervals * interval_ms + 20000;
	int status = -1, ended = 0;

	if (peer_send(&peer, &m) < 0 || recv_msg(&m, 20000) < 0) {
		printf("FAIL phase %u: no answer to the plan\n", p->phase);
		return 1;
	}
	if (refuse) {
		int ok = m.type == PROTO_ERROR &&
			 strstr(m.u.error.message, refuse);

		printf("%s phase %u refused: %s\n", ok ? "ok" : "FAIL",
		       p->phase,
		       m.type == PROTO_ERROR ? m.u.error.message :
					       proto_type_name(m.type));
		proto_msg_free(&m);
		return !ok;
	}
	if (m.type != PROTO_READY) {
		printf("FAIL phase %u: %s: %s\n", p->phase,
		       proto_type_name(m.type),
		       m.type == PROTO_ERROR ? m.u.error.message : "");
		proto_msg_free(&m);
		return 1;
	}
	proto_msg_free(&m);
	memset(&m, 0, sizeof(m));
	m.type = PROTO_GO;
	m.u.go.phase = p->phase;
	m.u.go.start_at = time_real_ns() + 100000000ull;
	if (peer_send(&peer, &m) < 0)
		return 1;
	while (!ended && recv_msg(&m, wait) == 0) {
		if (m.type == PROTO_INTERVAL &&
		    m.u.interval.phase == p->phase) {
			struct proto_msg a = { .type = PROTO_ACK };

			a.u.ack.phase = p->phase;
			a.u.ack.seq = m.u.interval.seq;
			peer_send(&peer, &a);
			/* A resend of one already counted is not counted. */
			if (t.last_seq == UINT32_MAX ||
			    m.u.interval.seq > t.last_seq) {
				if (t.last_seq + 1 != m.u.interval.seq) {
					printf("FAIL interval %u after %u\n",
					       m.u.interval.seq, t.last_seq);
					t.bad = 1;
				}
				t.last_seq = m.u.interval.seq;
				t.intervals++;
				check_interval(&m.u.interval, &t);
			}
		} else if (m.type == PROTO_PHASE_END) {
			status = m.u.phase_end.status;
			if (m.u.phase_end.ops != t.ops[0] + t.ops[1] ||
			    m.u.phase_end.errors != t.errors) {
				printf("FAIL phase_end ops %" PRIu64
				       " errors %" PRIu64 " != intervals'\n",
				       m.u.phase_end.ops, m.u.phase_end.errors);
				t.bad = 1;
			}
			ended = 1;
		} else if (m.type == PROTO_ERROR) {
			printf("slave error: %s\n", m.u.error.message);
		}
		proto_msg_free(&m);
	}
	printf("phase %u status %d intervals %u reads %" PRIu64
	       " rbytes %" PRIu64 " writes %" PRIu64 " wbytes %" PRIu64
	       " errors %" PRIu64,
	       p->phase, status, t.intervals, t.ops[0], t.bytes[0], t.ops[1],
	       t.bytes[1], t.errors);
	for (int o = PROTO_FSOP_CREATE; o < PROTO_FSOP_MAX; o++)
		if (t.n[o])
			printf(" %s=%" PRIu64 "/%" PRIu64, op_names[o], t.n[o],
			       t.e[o]);
	printf("\n");
	if (!ended)
		printf("FAIL phase %u: no phase_end\n", p->phase);
	return t.bad || !ended || status < 0;
}

static int welcome(void)
{
	struct proto_msg m;

	do {
		if (recv_msg(&m, 20000) < 0) {
			printf("FAIL: no hello\n");
			return -1;
		}
		proto_msg_free(&m);
	} while (m.type != PROTO_HELLO);
	memset(&m, 0, sizeof(m));
	m.type = PROTO_WELCOME;
	snprintf(m.u.welcome.run_id, sizeof(m.u.welcome.run_id),
		 "00000000-0000-0000-0000-000000000000");
	m.u.welcome.heartbeat_ns = 1000000000ull;
	m.u.welcome.master_timeout_ns = 60000000000ull;
	return peer_send(&peer, &m);
}

int main(int argc, char **argv)
{
	static struct proto_fwd fwds[16];
	struct proto_msg m = { .type = PROTO_STOP };
	struct proto_plan p;
	char ep[64];
	size_t len = sizeof(ep);
	void *ctx;
	int linger = 500, bad = 0, c;
	uint32_t phase = 1;

	fsd.depth = fsd.width = 2;
	fsd.files = 3;
	fsd.nsizes = 1;
	fsd.sizes[0].size = 8192;
	snprintf(fsd.name, sizeof(fsd.name), "fsd1");
	while ((c = getopt(argc, argv, "a:s:d:w:f:z:n:m:S:")) != -1) {
		switch (c) {
		case 'a':
			snprintf(fsd.anchor, sizeof(fsd.anchor), "%s", optarg);
			break;
		case 's':
			snprintf(fsd.subdir, sizeof(fsd.subdir), "%s", optarg);
			break;
		case 'd':
			fsd.depth = (uint32_t)atoi(optarg);
			break;
		case 'w':
			fsd.width = (uint32_t)atoi(optarg);
			break;
		case 'f':
			fsd.files = (uint32_t)atoi(optarg);
			break;
		case 'z':
			fsd.sizes[0].size = strtoull(optarg, NULL, 10);
			break;
		case 'n':
			nintervals = (unsigned)atoi(optarg);
			break;
		case 'm':
			interval_ms = (unsigned)atoi(optarg);
			break;
		case 'S':
			sscanf(optarg, "%u/%u", &fsd.share_no,
			       &fsd.share_count);
			break;
		default:
			return 2;
		}
	}
	if (optind >= argc || !fsd.anchor[0]) {
		fprintf(stderr, "usage: fspeer -a ANCHOR [options] PHASE...\n");
		return 2;
	}
	ctx = zmq_ctx_new();
	peer.sock = zmq_socket(ctx, ZMQ_ROUTER);
	zmq_setsockopt(peer.sock, ZMQ_LINGER, &linger, sizeof(linger));
	if (zmq_bind(peer.sock, "tcp://127.0.0.1:*") < 0 ||
	    zmq_getsockopt(peer.sock, ZMQ_LAST_ENDPOINT, ep, &len) < 0) {
		fprintf(stderr, "fspeer: %s\n", zmq_strerror(zmq_errno()));
		return 2;
	}
	printf("port %s\n", strrchr(ep, ':') + 1);
	fflush(stdout);
	if (welcome() < 0)
		bad = 1;
	for (int i = optind; !bad && i < argc; i++, phase++) {
		const char *a = argv[i];

		base_plan(&p, phase);
		if (!strncmp(a, "format=", 7) || !strncmp(a, "refuse:", 7)) {
			p.format = 1;
			fsd.format = !strcmp(a + 7, "restart") ?
					     PROTO_FSFMT_RESTART :
				     !strcmp(a + 7, "clean") ?
					     PROTO_FSFMT_CLEAN :
					     PROTO_FSFMT_YES;
			bad |= run_phase(&p, a[0] == 'r' ? a + 7 : NULL);
		} else if (!strncmp(a, "run:", 4)) {
			int n = parse_fwds(a + 4, fwds, 16);

			if (n <= 0) {
				fprintf(stderr, "fspeer: bad %s\n", a);
				return 2;
			}
			fsd.format = PROTO_FSFMT_NONE;
			p.nfwds = (uint32_t)n;
			p.fwds = fwds;
			bad |= run_phase(&p, NULL);
		} else {
			fprintf(stderr, "fspeer: unknown phase %s\n", a);
			return 2;
		}
		fflush(stdout);
	}
	snprintf(m.u.stop.reason, sizeof(m.u.stop.reason), "fspeer done");
	peer_send(&peer, &m);
	fflush(stdout);
	zmq_close(peer.sock);
	zmq_ctx_term(ctx);
	return bad ? 1 : 0;
}
