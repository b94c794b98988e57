/*
 * Test tool: a hostile master for one real slave. It binds a ROUTER on a
 * port the kernel picks (printed as "port N" on stdout), welcomes the first
 * slave that says hello, then sends it plans and checks each answer:
 *
 *   planpeer fields FILE    every plan with one bad numeric field gets an
 *                           `error` naming that field; then a good plan on
 *                           FILE gets `ready`, and a go far from now gets an
 *                           `error` and a `phase_end`;
 *   planpeer refuse FILE S [JOURNAL]
 *                           a good plan on FILE (validated, journaled in
 *                           the folder JOURNAL when given) gets an `error`
 *                           holding S.
 *
 *   planpeer create FILE S  as refuse, with the target to be created
 *                           (create=1, 1 MiB) when missing;
 *   planpeer undecodable FILE
 *                           a good plan whose "ni" (intervals) is sent as
 *                           nil, which the decoder refuses, gets an
 *                           `error` for its phase all the same.
 *
 * The bad values pass the decoder (they are well-formed msgpack of the
 * right types): what is tested is the slave's own plan check. Exits 0 when
 * every answer was the expected one, 1 otherwise, 2 on usage or setup
 * errors; every wait is bounded.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zmq.h>
#include "common/timeutil.h"
#include "proto/proto.h"
#include "tests/tools/peer.h"

#define WAIT_MS 10000

static struct peer peer;
static int corrupt_ni; /* send plans with "ni" as nil (undecodable) */

static int send_msg(const struct proto_msg *m)
{
	void *buf;
	size_t len;
	int ret = proto_encode(m, &buf, &len);

	if (ret < 0) {
		fprintf(stderr, "planpeer: cannot encode %s: %s\n",
			proto_type_name(m->type), strerror(-ret));
		return ret;
	}
	if (corrupt_ni && m->type == PROTO_PLAN) {
		unsigned char *b = buf;

		for (size_t i = 0; i + 4 <= len; i++)
			if (!memcmp(b + i, "\xa2ni\x01", 4)) {
				b[i + 3] = 0xc0; /* nil: not an unsigned */
				break;
			}
	}
	ret = peer_send_bytes(&peer, buf, len);
	free(buf);
	return ret;
}

/* The next message of one of the wanted types (others are skipped). */
static int recv_msg(struct proto_msg *m, const enum proto_type *want,
		    unsigned nwant)
{
	uint64_t deadline = time_mono_ns() + (uint64_t)WAIT_MS * 1000000;

	char err[256];
	int ret;

	while ((ret = peer_recv(&peer, m, deadline, err, sizeof(err))) !=
	       -ETIMEDOUT) {
		if (ret < 0) {
			fprintf(stderr, "planpeer: bad frame: %s\n", err);
			continue;
		}
		for (unsigned i = 0; i < nwant; i++)
			if (m->type == want[i])
				return 0;
		if (m->type == PROTO_LOG)
			printf("slave log: %s\n", m->u.log.message);
		proto_msg_free(m);
	}
	return -ETIMEDOUT;
}

static struct proto_target tg;
static struct proto_stream st;

/* A plan the slave can run: FILE, 1 MiB, read only, one 1 s interval. */
static void good_plan(struct proto_plan *p, uint32_t phase, const char *file)
{
	memset(p, 0, sizeof(*p));
	memset(&tg, 0, sizeof(tg));
	memset(&st, 0, sizeof(st));
	p->phase = phase;
	snprintf(p->name, sizeof(p->name), "probe%u", phase);
	snprintf(p->engine, sizeof(p->engine), "null");
	p->interval_ns = 1000000000ull;
	p->intervals = 1;
	snprintf(tg.name, sizeof(tg.name), "sd1");
	snprintf(tg.path, sizeof(tg.path), "%s", file);
	tg.size = 1 << 20;
	tg.threads = 2;
	snprintf(st.name, sizeof(st.name), "wd1");
	st.ntargets = 1;
	st.nxfer = 1;
	st.xfer[0].size = 4096;
	st.xfer[0].pct = 100;
	st.rdpct = 100;
	st.seekpct = 100;
	p->ntargets = 1;
	p->targets = &tg;
	p->nstreams = 1;
	p->streams = &st;
}

struct bad {
	const char *field; /* what the error must name */
	void (*apply)(struct proto_plan *p);
};

/* clang-format off */
static void b_threads(struct proto_plan *p)
{
	static struct proto_target two[2];

	two[0] = tg;
	two[1] = tg;
	two[1].threads = 0xFFFFFFFFu; /* 2 + this once wrapped to 1 */
	snprintf(two[1].name, sizeof(two[1].name), "sd2");
	p->targets = two;
	p->ntargets = 2;
}
static void b_cap(struct proto_plan *p) { tg.threads = 65537; (void)p; }
static void b_interval(struct proto_plan *p) { p->interval_ns = 0; }
static void b_intervals(struct proto_plan *p) { p->intervals = 0; }
static void b_long(struct proto_plan *p)
{
	p->interval_ns = 86400000000000ull;
	p->intervals = 4000000;
}
static void b_warmup(struct proto_plan *p) { p->warmup_intervals = 1; }
static void b_iorate(struct proto_plan *p) { p->iorate = 1e300; }
static void b_tiny(struct proto_plan *p) { p->iorate = 1e-300; }
static void b_offset(struct proto_plan *p) { p->clock_offset_ns = INT64_MIN; }
static void b_offset2(struct proto_plan *p)
{
	p->clock_offset_ns = 86400000000001ll;
}
static void b_error(struct proto_plan *p) { p->clock_error_ns = UINT64_MAX; }
static void b_dist(struct proto_plan *p) { p->distribution = 9; }
static void b_size(struct proto_plan *p) { tg.size = UINT64_MAX; (void)p; }
static void b_off(struct proto_plan *p) { tg.offset = 4095; (void)p; }
static void b_align(struct proto_plan *p) { tg.align = 3; (void)p; }
static void b_flags(struct proto_plan *p) { tg.openflags = 0xF0; (void)p; }
static void b_xfer0(struct proto_plan *p) { st.xfer[0].size = 0; (void)p; }
static void b_xferbig(struct proto_plan *p)
{
	st.xfer[0].size = (16u << 20) + 512;
	(void)p;
}
static void b_noxfer(struct proto_plan *p) { st.nxfer = 0; (void)p; }
static void b_dedup(struct proto_plan *p) { p->dedupunit = 7; }
static void b_ratio(struct proto_plan *p) { p->compratio = 1e300; }
static void b_force(struct proto_plan *p) { tg.force = 2; (void)p; }
static void b_notg(struct proto_plan *p) { p->ntargets = 0; p->nstreams = 0; }
/* clang-format on */

static const struct bad bads[] = {
	{ "tg[1].th", b_threads },    { "tg[0].th", b_cap },
	{ "field in:", b_interval },  { "field ni:", b_intervals },
	{ "field ni:", b_long },      { "field wi:", b_warmup },
	{ "field io:", b_iorate },    { "field io:", b_tiny },
	{ "field co:", b_offset },    { "field co:", b_offset2 },
	{ "field ce:", b_error },     { "field di:", b_dist },
	{ "tg[0].sz", b_size },       { "tg[0].os", b_off },
	{ "tg[0].al", b_align },      { "tg[0].of", b_flags },
	{ "st[0].x[0].sz", b_xfer0 }, { "st[0].x[0].sz", b_xferbig },
	{ "st[0].x", b_noxfer },      { "field du:", b_dedup },
	{ "field cp:", b_ratio },     { "tg[0].fc", b_force },
	{ "field tg:", b_notg },
};

/* Send plan; the answer must be an error holding want (NULL: ready). */
static int expect_answer(const struct proto_plan *p, const char *want)
{
	static const enum proto_type types[] = { PROTO_READY, PROTO_ERROR };
	struct proto_msg m = { .type = PROTO_PLAN, .u.plan = *p };
	int ok;

	if (send_msg(&m) < 0)
		return -1;
	if (recv_msg(&m, types, 2) < 0) {
		printf("FAIL phase %u: no answer (want %s)\n", p->phase,
		       want ? want : "ready");
		return -1;
	}
	if (m.type == PROTO_READY)
		ok = !want;
	else
		ok = want && strstr(m.u.error.message, want) &&
		     m.u.error.phase == p->phase;
	printf("%s phase %u: %s: %s\n", ok ? "ok" : "FAIL", p->phase,
	       proto_type_name(m.type),
	       m.type == PROTO_ERROR ? m.u.error.message : "");
	proto_msg_free(&m);
	return ok ? 0 : -1;
}

static int welcome(void)
{
	static const enum proto_type types[] = { PROTO_HELLO };
	struct proto_msg m;

	if (recv_msg(&m, types, 1) < 0) {
		printf("FAIL: no hello\n");
		return -1;
	}
	printf("hello from %s\n", m.u.hello.name);
	proto_msg_free(&m);
	memset(&m, 0, sizeof(m));
	m.type = PROTO_WELCOME;
	snprintf(m.u.welcome.run_id, sizeof(m.u.welcome.run_id),
		 "00000000-0000-0000-0000-000000000000");
	m.u.welcome.heartbeat_ns = 1000000000ull;
	m.u.welcome.master_timeout_ns = 30000000000ull;
	return send_msg(&m);
}

static int fields(const char *file)
{
	static const enum proto_type types[] = { PROTO_ERROR };
	static const enum proto_type ends[] = { PROTO_PHASE_END };
	struct proto_plan p;
	struct proto_msg m = { .type = PROTO_GO };
	int bad = 0;
	uint32_t phase = 1;

	for (size_t i = 0; i < sizeof(bads) / sizeof(*bads); i++) {
		good_plan(&p, phase++, file);
		bads[i].apply(&p);
		bad |= expect_answer(&p, bads[i].field) < 0;
	}
	/* Still alive and sane: a good plan is ready... */
	good_plan(&p, phase, file);
	bad |= expect_answer(&p, NULL) < 0;
	/* ...and a go a day away is refused, and the phase ends. */
	m.u.go.phase = phase;
	m.u.go.start_at = time_real_ns() + 86400000000000ull;
	if (send_msg(&m) < 0 || recv_msg(&m, types, 1) < 0 ||
	    !strstr(m.u.error.message, "refused go")) {
		printf("FAIL: a go a day away was not refused\n");
		bad = 1;
	} else {
		printf("ok go: %s\n", m.u.error.message);
		proto_msg_free(&m);
		if (recv_msg(&m, ends, 1) < 0 || m.u.phase_end.status >= 0) {
			printf("FAIL: no failed phase_end after a refused go\n");
			bad = 1;
		}
		proto_msg_free(&m);
	}
	return bad;
}

int main(int argc, char **argv)
{
	char ep[64];
	size_t len = sizeof(ep);
	struct proto_plan p;
	struct proto_msg m = { .type = PROTO_STOP };
	void *ctx;
	int linger = 500, bad;

	if (argc < 3 ||
	    (strcmp(argv[1], "fields") && strcmp(argv[1], "undecodable") &&
	     ((strcmp(argv[1], "refuse") && strcmp(argv[1], "create")) ||
	      argc < 4))) {
		fprintf(stderr,
			"usage: planpeer fields FILE | undecodable FILE | refuse FILE TEXT [JOURNAL]\n");
		return 2;
	}
	ctx = zmq_ctx_new();
	peer.sock = zmq_socket(ctx, ZMQ_ROUTER);
	zmq_setsockopt(peer.sock, ZMQ_LINGER, &linger, sizeof(linger));
	if (zmq_bind(peer.sock, "tcp://127.0.0.1:*") < 0 ||
	    zmq_getsockopt(peer.sock, ZMQ_LAST_ENDPOINT, ep, &len) < 0) {
		fprintf(stderr, "planpeer: %s\n", zmq_strerror(zmq_errno()));
		return 2;
	}
	printf("port %s\n", strrchr(ep, ':') + 1);
	fflush(stdout);
	if (welcome() < 0) {
		bad = 1;
	} else if (!strcmp(argv[1], "fields")) {
		bad = fields(argv[2]);
	} else if (!strcmp(argv[1], "undecodable")) {
		corrupt_ni = 1;
		good_plan(&p, 7, argv[2]);
		bad = expect_answer(&p, "cannot decode it") < 0;
	} else {
		good_plan(&p, 1, argv[2]);
		tg.create = !strcmp(argv[1], "create");
		if (argc > 4) {
			p.validate = PROTO_VALIDATE_YES;
			snprintf(p.journal, sizeof(p.journal), "%s", argv[4]);
		}
		bad = expect_answer(&p, argv[3]) < 0;
	}
	snprintf(m.u.stop.reason, sizeof(m.u.stop.reason), "planpeer done");
	send_msg(&m);
	fflush(stdout);
	zmq_close(peer.sock);
	zmq_ctx_term(ctx);
	return bad ? 1 : 0;
}
