/*
 * (Over 700 lines on purpose: one binary per module, and the protocol has
 * seventeen message types, each with its round trip and its hostile cases.)
 *
 * Unit tests of the wire protocol codec: every message type round-trips
 * field by field; every truncated prefix and a sweep of corrupted bytes of
 * every type's encoding decodes to an error or a valid message, never a
 * crash or a leak (this binary also runs under ASan/UBSan); hand-built
 * hostile frames (other version, missing or mistyped keys, oversized
 * arrays and strings, inconsistent histograms, dangling target indexes)
 * are refused with the right error; invalid messages are not encoded.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <msgpack.h>

#include "common/hist.h"
#include "proto/proto.h"
#include "proto/proto_int.h"

#define NTARGETS 3
#define NSTREAMS 3

static uint64_t rng_state;

/* splitmix64: small, fast, and the same on every platform. */
static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

static void fill_hist(struct hist_sparse *out, uint64_t seed, unsigned n)
{
	struct hist *h = malloc(sizeof(*h));

	assert_non_null(h);
	hist_init(h);
	rng_state = seed;
	for (unsigned i = 0; i < n; i++) {
		/* Spread over 100 ns .. ~17 s so bucket gaps vary widely. */
		unsigned shift = 7 + (unsigned)(rng_next() % 28);

		hist_add(h, (rng_next() & ((UINT64_C(1) << shift) - 1)) + 100);
	}
	assert_int_equal(hist_to_sparse(h, out), 0);
	assert_true(out->n > 10);
	free(h);
}

/* Every field gets a distinct value that is not its zero default. */
static void fill(struct proto_msg *m, enum proto_type t)
{
	memset(m, 0, sizeof(*m));
	m->type = t;
	switch (t) {
	case PROTO_HELLO: {
		struct proto_hello *h = &m->u.hello;

		strcpy(h->id, "0f8b6f5e-3c4d-4e2a-9b1c-7d6e5f4a3b2c");
		strcpy(h->name, "slave-a.1");
		/* The longest host name that fits. */
		memset(h->host, 'h', sizeof(h->host) - 1);
		h->pid = 4242;
		h->cores = 96;
		strcpy(h->version, "0.1.0-test");
		h->nengines = 3;
		strcpy(h->engines[0], "io_uring");
		strcpy(h->engines[1], "null");
		strcpy(h->engines[2], "");
		break;
	}
	case PROTO_WELCOME:
		strcpy(m->u.welcome.run_id,
		       "5a1d0c8e-0000-4000-8000-00000000abcd");
		m->u.welcome.slave_index = 17;
		m->u.welcome.heartbeat_ns = UINT64_C(1000000000);
		m->u.welcome.master_timeout_ns = UINT64_C(30000000001);
		break;
	case PROTO_PING:
		m->u.ping.seq = 70000;
		m->u.ping.t1 = UINT64_C(1700000000123456789);
		m->u.ping.udp_port = 65535;
		m->u.ping.nonce = UINT64_C(0xfedcba9876543210);
		break;
	case PROTO_PONG:
		m->u.pong.seq = UINT32_MAX;
		m->u.pong.t1 = UINT64_C(1700000000123456789);
		m->u.pong.t2 = UINT64_C(1700000000123556789);
		m->u.pong.t3 = UINT64_MAX;
		break;
	case PROTO_PLAN: {
		struct proto_plan *p = &m->u.plan;

		p->run = 3;
		p->phase = 12;
		strcpy(p->name, "rd1.xfersize=8k");
		strcpy(p->engine, "io_uring");
		p->interval_ns = UINT64_C(5000000000);
		p->intervals = 121;
		p->warmup_intervals = 6;
		p->iorate = 12345.5;
		p->clock_offset_ns = -INT64_C(123456789012);
		p->clock_error_ns = 4321;
		p->data_errors = 50;
		p->distribution = PROTO_DIST_UNIFORM;
		p->format = 1;
		p->dedupunit = 131072;
		p->compratio = 2.5;
		p->dedupratio = 3.25;
		p->validate = PROTO_VALIDATE_ONLY;
		snprintf(p->journal, sizeof(p->journal), "/var/lib/ls/j");
		snprintf(p->nic, sizeof(p->nic), "ens1f0");
		p->ntargets = NTARGETS;
		p->targets = calloc(NTARGETS, sizeof(*p->targets));
		assert_non_null(p->targets);
		for (uint32_t i = 0; i < NTARGETS; i++) {
			struct proto_target *tg = &p->targets[i];

			snprintf(tg->name, sizeof(tg->name), "sd%u", i + 1);
			snprintf(tg->path, sizeof(tg->path), "/dev/nvme%un1",
				 i);
			tg->size = (UINT64_C(1) << 40) + i;
			tg->openflags = PROTO_O_DIRECT;
			if (i)
				tg->openflags |= i % 2 ? PROTO_O_DSYNC :
							 PROTO_O_SYNC;
			tg->create = 1 + i;
			tg->threads = 32 + i;
			/* Parts per billion; the last one ends at the top. */
			tg->range_lo = 100000000 * (i + 1);
			tg->range_hi = i == NTARGETS - 1 ? 1000000000 :
							   900000000 + i;
			tg->offset = 4096u * (i + 3);
			tg->align = 8192u << i;
			tg->sqpoll = i % 2;
			tg->force = (i + 1) % 2;
			tg->hitarea = (1024u * 1024) << i;
			tg->hit_lo = tg->range_lo;
			tg->streams = 1 + i;
		}
		p->nstreams = NSTREAMS;
		p->streams = calloc(NSTREAMS, sizeof(*p->streams));
		assert_non_null(p->streams);
		for (uint32_t i = 0; i < NSTREAMS; i++) {
			struct proto_stream *s = &p->streams[i];

			snprintf(s->name, sizeof(s->name), "wd%u", i + 1);
			s->ntargets = 1 + i;
			for (uint32_t j = 0; j < s->ntargets; j++)
				s->targets[j] = (i + j) % NTARGETS;
			s->nxfer = 2 + i;
			for (uint32_t j = 0; j < s->nxfer; j++) {
				s->xfer[j].size = 4096u << j;
				s->xfer[j].pct = 100.0 / s->nxfer + j * 0.25;
			}
			s->rdpct = 70.0 + i;
			s->seekpct = 99.5 - i;
			s->skew = 33.25 + i;
			s->eof = (i + 1) % 2;
			s->rhpct = 80.5 - i;
			s->whpct = 10.25 + i;
			s->access = (i + 1) % PROTO_ACCESS_ZONED;
			s->access_arg = 1.2 + i;
			s->stride_min = 4096ull << i;
			s->stride_max = (1ull << 33) + i * 512;
		}
		/* The kinds with their own fields: zones, a hot band. */
		p->streams[0].access = PROTO_ACCESS_ZONED;
		p->streams[0].nzones = 3;
		p->streams[0].zones[0] = (struct proto_zone){ 60, 10 };
		p->streams[0].zones[1] = (struct proto_zone){ 0, 30 };
		p->streams[0].zones[2] = (struct proto_zone){ 40, 55 };
		p->streams[1].access = PROTO_ACCESS_HOTBAND;
		p->streams[1].band_lo = 100000000;
		p->streams[1].band_hi = 123456789;
		p->streams[1].concat = 1;
		/* A replayed trace: its file, device and hash. */
		p->replay = PROTO_REPLAY_AFAP;
		snprintf(p->streams[0].replay, sizeof(p->streams[0].replay),
			 "/var/tmp/trace.blkparse");
		snprintf(p->streams[0].replay_dev,
			 sizeof(p->streams[0].replay_dev), "8,16");
		p->streams[0].replay_hash = 0xcbf29ce484222325ull;
		break;
	}
	case PROTO_READY:
		m->u.ready.phase = 9;
		m->u.ready.nforced = 2;
		m->u.ready.forced = calloc(2, sizeof(*m->u.ready.forced));
		assert_non_null(m->u.ready.forced);
		strcpy(m->u.ready.forced[0].sd, "sd1");
		strcpy(m->u.ready.forced[0].signature, "ext4");
		strcpy(m->u.ready.forced[1].sd, "sd12");
		strcpy(m->u.ready.forced[1].signature, "LVM2_member");
		m->u.ready.nsizes = 2;
		m->u.ready.sizes = calloc(2, sizeof(*m->u.ready.sizes));
		assert_non_null(m->u.ready.sizes);
		strcpy(m->u.ready.sizes[0].sd, "sd1");
		m->u.ready.sizes[0].size = 16 << 20;
		strcpy(m->u.ready.sizes[1].sd, "sd12");
		m->u.ready.sizes[1].size = PROTO_MAX_SD_BYTES - 1;
		break;
	case PROTO_ERROR:
		m->u.error.phase = 10;
		m->u.error.code = -EACCES;
		strcpy(m->u.error.message,
		       "sd1: /dev/sdb carries an ext4 signature (force=yes)");
		break;
	case PROTO_GO:
		m->u.go.phase = 11;
		m->u.go.start_at = UINT64_C(1700000005000000000);
		m->u.go.first_interval = 17;
		break;
	case PROTO_GO_ACK:
		m->u.go_ack.phase = 13;
		break;
	case PROTO_INTERVAL: {
		struct proto_interval *iv = &m->u.interval;

		iv->phase = 14;
		iv->seq = 300;
		iv->start_ns = UINT64_C(1700000005000000000);
		iv->end_ns = UINT64_C(1700000010000000000);
		iv->first_io_ns = UINT64_C(1700000005000012345);
		iv->ops[0] = 1234567;
		iv->ops[1] = 7654321;
		iv->bytes[0] = UINT64_C(5056786432);
		iv->bytes[1] = UINT64_C(31352098816);
		iv->errors = 5;
		iv->cpu_user_ns = UINT64_C(3900000000);
		iv->cpu_sys_ns = UINT64_C(7100000000);
		iv->cores = 48;
		iv->runq_ns = UINT64_C(2500000000);
		iv->lag_ns = UINT64_C(123456789012);
		iv->lag_n = 987654;
		iv->lag_max_ns = UINT64_C(4000000001);
		fill_hist(&iv->lat[0], 1, 400);
		fill_hist(&iv->lat[1], 2, 250);
		/* Two targets, one with the reads, one with the writes. */
		iv->nsds = 2;
		iv->sds = calloc(2, sizeof(*iv->sds));
		assert_non_null(iv->sds);
		iv->sds[0].target = 1;
		fill_hist(&iv->sds[0].lat, 1, 400);
		iv->sds[1].target = 5;
		fill_hist(&iv->sds[1].lat, 2, 250);
		/* A file-system phase's creates and getattrs. */
		iv->nfsops = 2;
		iv->fsops = calloc(2, sizeof(*iv->fsops));
		assert_non_null(iv->fsops);
		iv->fsops[0].op = PROTO_FSOP_CREATE;
		fill_hist(&iv->fsops[0].lat, 3, 120);
		iv->fsops[0].count = iv->fsops[0].lat.count;
		iv->fsops[0].errors = 2;
		iv->fsops[1].op = PROTO_FSOP_COPY;
		fill_hist(&iv->fsops[1].lat, 4, 30);
		iv->fsops[1].count = iv->fsops[1].lat.count;
		iv->fsops[1].bytes = UINT64_C(123456789012);
		iv->tele = PROTO_TELE_CPU | PROTO_TELE_PSI | PROTO_TELE_NIC;
		iv->tele_span_ns = UINT64_C(5000123456);
		for (int i = 0; i < 5; i++)
			iv->host_cpu_ns[i] = UINT64_C(10000000) * (i + 1);
		for (int i = 0; i < 3; i++)
			iv->psi_ns[i] = UINT64_C(1000) * (i + 7);
		snprintf(iv->nic, sizeof(iv->nic), "ens1f0");
		iv->net_bytes[0] = UINT64_C(1250000000);
		iv->net_bytes[1] = 77;
		iv->net_pkts[0] = 900000;
		iv->net_pkts[1] = 3;
		iv->ndevs = PROTO_MAX_DEVS;
		for (unsigned d = 0; d < iv->ndevs; d++) {
			struct proto_dev *v = &iv->devs[d];

			snprintf(v->name, sizeof(v->name), "nvme%un1p%u", d,
				 d + 1);
			v->major = 259;
			v->minor = d;
			v->span_ns = UINT64_C(5000123456);
			v->ios[0] = 100000 + d;
			v->ios[1] = 200000 + d;
			v->sectors[0] = UINT64_C(800000) + d;
			v->sectors[1] = UINT64_C(1600000) + d;
			v->ticks_ms[0] = 3000 + d;
			v->ticks_ms[1] = 9000 + d;
			v->in_flight = 32;
			v->busy_ms = 4999;
			v->queue_ms = 12000 + d;
		}
		break;
	}
	case PROTO_ACK:
		m->u.ack.phase = 15;
		m->u.ack.seq = 299;
		break;
	case PROTO_PHASE_END:
		m->u.phase_end.phase = 16;
		m->u.phase_end.intervals = 121;
		m->u.phase_end.ops = UINT64_C(123456789012);
		m->u.phase_end.bytes = UINT64_C(505678643200000);
		m->u.phase_end.errors = 77;
		m->u.phase_end.first_io_ns = UINT64_C(1700000005000012345);
		m->u.phase_end.status = -EIO;
		m->u.phase_end.val_written = 4000;
		m->u.phase_end.val_verified = 3999;
		m->u.phase_end.val_mismatches = 3;
		m->u.phase_end.nval_sds = 2;
		m->u.phase_end.val_sds = calloc(2, sizeof(struct proto_val_sd));
		assert_non_null(m->u.phase_end.val_sds);
		m->u.phase_end.val_sds[0] = (struct proto_val_sd){ 0, 1000, 999,
								   0 };
		m->u.phase_end.val_sds[1] = (struct proto_val_sd){ 2, 3000,
								   3000, 3 };
		fill_hist(&m->u.phase_end.lat[0], 3, 400);
		fill_hist(&m->u.phase_end.lat[1], 4, 120);
		break;
	case PROTO_LOG:
		m->u.log.level = 3;
		strcpy(m->u.log.message, "sd2: I/O error at offset 8192: EIO");
		break;
	case PROTO_STOP:
		strcpy(m->u.stop.reason, "operator pressed ^C");
		break;
	case PROTO_ABORT:
		strcpy(m->u.abort.reason,
		       "slave b lost, --on-slave-loss=abort");
		break;
	case PROTO_HEARTBEAT:
		m->u.heartbeat.now_ns = UINT64_C(1700000007777777777);
		break;
	case PROTO_BYE:
		strcpy(m->u.bye.reason, "SIGTERM");
		break;
	case PROTO_MEASURE:
		m->u.measure.phase = 3;
		m->u.measure.from = 14;
		m->u.measure.intervals = 44;
		break;
	case PROTO_CMD:
		m->u.cmd.id = 7;
		m->u.cmd.timeout_ns = UINT64_C(3600000000000);
		strcpy(m->u.cmd.text,
		       "sync; echo 3 > /proc/sys/vm/drop_caches");
		break;
	case PROTO_CMD_OUT:
		m->u.cmd_out.id = 7;
		strcpy(m->u.cmd_out.text, "line one\nline two\n");
		break;
	case PROTO_CMD_END:
		m->u.cmd_end.id = 7;
		m->u.cmd_end.status = PROTO_CMD_REFUSED;
		m->u.cmd_end.code = -1;
		m->u.cmd_end.dropped = UINT64_C(5000000000);
		strcpy(m->u.cmd_end.why, "started without --allow-commands");
		break;
	default:
		fail_msg("no filler for type %d", t);
	}
}

static void check_hist(const struct hist_sparse *a, const struct hist_sparse *b)
{
	assert_int_equal(a->count, b->count);
	assert_int_equal(a->sum, b->sum);
	assert_true(a->sumsq == b->sumsq);
	assert_int_equal(a->min, b->min);
	assert_int_equal(a->max, b->max);
	assert_int_equal(a->n, b->n);
	assert_memory_equal(a->idx, b->idx, a->n * sizeof(*a->idx));
	assert_memory_equal(a->cnt, b->cnt, a->n * sizeof(*a->cnt));
}

static void check_plan(const struct proto_plan *a, const struct proto_plan *b)
{
	assert_int_equal(a->run, b->run);
	assert_int_equal(a->phase, b->phase);
	assert_string_equal(a->name, b->name);
	assert_string_equal(a->engine, b->engine);
	assert_int_equal(a->interval_ns, b->interval_ns);
	assert_int_equal(a->intervals, b->intervals);
	assert_int_equal(a->warmup_intervals, b->warmup_intervals);
	assert_true(a->iorate == b->iorate);
	assert_true(a->clock_offset_ns == b->clock_offset_ns);
	assert_int_equal(a->clock_error_ns, b->clock_error_ns);
	assert_int_equal(a->data_errors, b->data_errors);
	assert_int_equal(a->distribution, b->distribution);
	assert_int_equal(a->format, b->format);
	assert_int_equal(a->dedupunit, b->dedupunit);
	assert_true(a->compratio == b->compratio);
	assert_true(a->dedupratio == b->dedupratio);
	assert_int_equal(a->validate, b->validate);
	assert_string_equal(a->journal, b->journal);
	assert_string_equal(a->nic, b->nic);
	assert_int_equal(a->replay, b->replay);
	assert_int_equal(a->ntargets, b->ntargets);
	for (uint32_t i = 0; i < a->ntargets; i++) {
		const struct proto_target *x = &a->targets[i];
		const struct proto_target *y = &b->targets[i];

		assert_string_equal(x->name, y->name);
		assert_string_equal(x->path, y->path);
		assert_int_equal(x->size, y->size);
		assert_int_equal(x->openflags, y->openflags);
		assert_int_equal(x->create, y->create);
		assert_int_equal(x->threads, y->threads);
		assert_int_equal(x->range_lo, y->range_lo);
		assert_int_equal(x->range_hi, y->range_hi);
		assert_int_equal(x->offset, y->offset);
		assert_int_equal(x->align, y->align);
		assert_int_equal(x->sqpoll, y->sqpoll);
		assert_int_equal(x->force, y->force);
		assert_int_equal(x->hitarea, y->hitarea);
		assert_int_equal(x->hit_lo, y->hit_lo);
		assert_int_equal(x->streams, y->streams);
	}
	assert_int_equal(a->nstreams, b->nstreams);
	for (uint32_t i = 0; i < a->nstreams; i++) {
		const struct proto_stream *x = &a->streams[i];
		const struct proto_stream *y = &b->streams[i];

		assert_string_equal(x->name, y->name);
		assert_int_equal(x->ntargets, y->ntargets);
		for (uint32_t j = 0; j < x->ntargets; j++)
			assert_int_equal(x->targets[j], y->targets[j]);
		assert_int_equal(x->nxfer, y->nxfer);
		for (uint32_t j = 0; j < x->nxfer; j++) {
			assert_int_equal(x->xfer[j].size, y->xfer[j].size);
			assert_true(x->xfer[j].pct == y->xfer[j].pct);
		}
		assert_true(x->rdpct == y->rdpct);
		assert_true(x->seekpct == y->seekpct);
		assert_true(x->skew == y->skew);
		assert_int_equal(x->eof, y->eof);
		assert_true(x->rhpct == y->rhpct);
		assert_true(x->whpct == y->whpct);
		assert_int_equal(x->access, y->access);
		assert_true(x->access_arg == y->access_arg);
		assert_int_equal(x->stride_min, y->stride_min);
		assert_int_equal(x->stride_max, y->stride_max);
		assert_int_equal(x->nzones, y->nzones);
		for (uint32_t j = 0; j < x->nzones; j++) {
			assert_int_equal(x->zones[j].io, y->zones[j].io);
			assert_int_equal(x->zones[j].range, y->zones[j].range);
		}
		assert_int_equal(x->band_lo, y->band_lo);
		assert_int_equal(x->band_hi, y->band_hi);
		assert_int_equal(x->concat, y->concat);
		assert_string_equal(x->replay, y->replay);
		assert_string_equal(x->replay_dev, y->replay_dev);
		assert_true(x->replay_hash == y->replay_hash);
	}
}

static void check_equal(const struct proto_msg *a, const struct proto_msg *b)
{
	assert_int_equal(a->type, b->type);
	switch (a->type) {
	case PROTO_HELLO: {
		const struct proto_hello *x = &a->u.hello, *y = &b->u.hello;

		assert_string_equal(x->id, y->id);
		assert_string_equal(x->name, y->name);
		assert_string_equal(x->host, y->host);
		assert_int_equal(x->pid, y->pid);
		assert_int_equal(x->cores, y->cores);
		assert_string_equal(x->version, y->version);
		assert_int_equal(x->nengines, y->nengines);
		for (uint32_t i = 0; i < x->nengines; i++)
			assert_string_equal(x->engines[i], y->engines[i]);
		break;
	}
	case PROTO_WELCOME:
		assert_string_equal(a->u.welcome.run_id, b->u.welcome.run_id);
		assert_int_equal(a->u.welcome.slave_index,
				 b->u.welcome.slave_index);
		assert_int_equal(a->u.welcome.heartbeat_ns,
				 b->u.welcome.heartbeat_ns);
		assert_int_equal(a->u.welcome.master_timeout_ns,
				 b->u.welcome.master_timeout_ns);
		break;
	case PROTO_PING:
		assert_int_equal(a->u.ping.seq, b->u.ping.seq);
		assert_int_equal(a->u.ping.t1, b->u.ping.t1);
		assert_int_equal(a->u.ping.udp_port, b->u.ping.udp_port);
		assert_true(a->u.ping.nonce == b->u.ping.nonce);
		break;
	case PROTO_PONG:
		assert_int_equal(a->u.pong.seq, b->u.pong.seq);
		assert_int_equal(a->u.pong.t1, b->u.pong.t1);
		assert_int_equal(a->u.pong.t2, b->u.pong.t2);
		assert_int_equal(a->u.pong.t3, b->u.pong.t3);
		break;
	case PROTO_PLAN:
		check_plan(&a->u.plan, &b->u.plan);
		break;
	case PROTO_READY:
		assert_int_equal(a->u.ready.phase, b->u.ready.phase);
		assert_int_equal(a->u.ready.nforced, b->u.ready.nforced);
		for (uint32_t i = 0; i < a->u.ready.nforced; i++) {
			assert_string_equal(a->u.ready.forced[i].sd,
					    b->u.ready.forced[i].sd);
			assert_string_equal(a->u.ready.forced[i].signature,
					    b->u.ready.forced[i].signature);
		}
		assert_int_equal(a->u.ready.nsizes, b->u.ready.nsizes);
		/* Both zero-filled (calloc), names and sizes alike. */
		if (a->u.ready.nsizes)
			assert_memory_equal(a->u.ready.sizes, b->u.ready.sizes,
					    a->u.ready.nsizes *
						    sizeof(*a->u.ready.sizes));
		break;
	case PROTO_ERROR:
		assert_int_equal(a->u.error.phase, b->u.error.phase);
		assert_int_equal(a->u.error.code, b->u.error.code);
		assert_string_equal(a->u.error.message, b->u.error.message);
		break;
	case PROTO_GO:
		assert_int_equal(a->u.go.phase, b->u.go.phase);
		assert_int_equal(a->u.go.start_at, b->u.go.start_at);
		assert_int_equal(a->u.go.first_interval,
				 b->u.go.first_interval);
		break;
	case PROTO_GO_ACK:
		assert_int_equal(a->u.go_ack.phase, b->u.go_ack.phase);
		break;
	case PROTO_INTERVAL: {
		const struct proto_interval *x = &a->u.interval;
		const struct proto_interval *y = &b->u.interval;

		assert_int_equal(x->phase, y->phase);
		assert_int_equal(x->seq, y->seq);
		assert_int_equal(x->start_ns, y->start_ns);
		assert_int_equal(x->end_ns, y->end_ns);
		assert_int_equal(x->first_io_ns, y->first_io_ns);
		for (int i = 0; i < 2; i++) {
			assert_int_equal(x->ops[i], y->ops[i]);
			assert_int_equal(x->bytes[i], y->bytes[i]);
			check_hist(&x->lat[i], &y->lat[i]);
		}
		assert_int_equal(x->errors, y->errors);
		assert_int_equal(x->cpu_user_ns, y->cpu_user_ns);
		assert_int_equal(x->cpu_sys_ns, y->cpu_sys_ns);
		assert_int_equal(x->cores, y->cores);
		assert_int_equal(x->runq_ns, y->runq_ns);
		assert_int_equal(x->lag_ns, y->lag_ns);
		assert_int_equal(x->lag_n, y->lag_n);
		assert_int_equal(x->lag_max_ns, y->lag_max_ns);
		assert_int_equal(x->tele, y->tele);
		assert_int_equal(x->tele_span_ns, y->tele_span_ns);
		assert_memory_equal(x->host_cpu_ns, y->host_cpu_ns,
				    sizeof(x->host_cpu_ns));
		assert_memory_equal(x->psi_ns, y->psi_ns, sizeof(x->psi_ns));
		assert_string_equal(x->nic, y->nic);
		assert_memory_equal(x->net_bytes, y->net_bytes,
				    sizeof(x->net_bytes));
		assert_memory_equal(x->net_pkts, y->net_pkts,
				    sizeof(x->net_pkts));
		assert_int_equal(x->ndevs, y->ndevs);
		for (unsigned d = 0; d < x->ndevs; d++) {
			const struct proto_dev *u = &x->devs[d];
			const struct proto_dev *w = &y->devs[d];

			assert_string_equal(u->name, w->name);
			assert_int_equal(u->major, w->major);
			assert_int_equal(u->minor, w->minor);
			assert_int_equal(u->span_ns, w->span_ns);
			assert_memory_equal(u->ios, w->ios, sizeof(u->ios));
			assert_memory_equal(u->sectors, w->sectors,
					    sizeof(u->sectors));
			assert_memory_equal(u->ticks_ms, w->ticks_ms,
					    sizeof(u->ticks_ms));
			assert_int_equal(u->in_flight, w->in_flight);
			assert_int_equal(u->busy_ms, w->busy_ms);
			assert_int_equal(u->queue_ms, w->queue_ms);
		}
		assert_int_equal(x->nsds, y->nsds);
		for (uint32_t i = 0; i < x->nsds; i++) {
			assert_int_equal(x->sds[i].target, y->sds[i].target);
			check_hist(&x->sds[i].lat, &y->sds[i].lat);
		}
		assert_int_equal(x->nfsops, y->nfsops);
		for (uint32_t i = 0; i < x->nfsops; i++) {
			assert_int_equal(x->fsops[i].op, y->fsops[i].op);
			assert_int_equal(x->fsops[i].count, y->fsops[i].count);
			assert_int_equal(x->fsops[i].bytes, y->fsops[i].bytes);
			assert_int_equal(x->fsops[i].errors,
					 y->fsops[i].errors);
			check_hist(&x->fsops[i].lat, &y->fsops[i].lat);
		}
		break;
	}
	case PROTO_ACK:
		assert_int_equal(a->u.ack.phase, b->u.ack.phase);
		assert_int_equal(a->u.ack.seq, b->u.ack.seq);
		break;
	case PROTO_PHASE_END: {
		const struct proto_phase_end *x = &a->u.phase_end;
		const struct proto_phase_end *y = &b->u.phase_end;

		assert_int_equal(x->phase, y->phase);
		assert_int_equal(x->intervals, y->intervals);
		assert_int_equal(x->ops, y->ops);
		assert_int_equal(x->bytes, y->bytes);
		assert_int_equal(x->errors, y->errors);
		assert_int_equal(x->first_io_ns, y->first_io_ns);
		assert_int_equal(x->status, y->status);
		assert_int_equal(x->val_written, y->val_written);
		assert_int_equal(x->val_verified, y->val_verified);
		assert_int_equal(x->val_mismatches, y->val_mismatches);
		assert_int_equal(x->nval_sds, y->nval_sds);
		for (uint32_t i = 0; i < x->nval_sds; i++) {
			assert_int_equal(x->val_sds[i].target,
					 y->val_sds[i].target);
			assert_int_equal(x->val_sds[i].written,
					 y->val_sds[i].written);
			assert_int_equal(x->val_sds[i].verified,
					 y->val_sds[i].verified);
			assert_int_equal(x->val_sds[i].mismatches,
					 y->val_sds[i].mismatches);
		}
		check_hist(&x->lat[0], &y->lat[0]);
		check_hist(&x->lat[1], &y->lat[1]);
		break;
	}
	case PROTO_LOG:
		assert_int_equal(a->u.log.level, b->u.log.level);
		assert_string_equal(a->u.log.message, b->u.log.message);
		break;
	case PROTO_STOP:
		assert_string_equal(a->u.stop.reason, b->u.stop.reason);
		break;
	case PROTO_ABORT:
		assert_string_equal(a->u.abort.reason, b->u.abort.reason);
		break;
	case PROTO_HEARTBEAT:
		assert_int_equal(a->u.heartbeat.now_ns, b->u.heartbeat.now_ns);
		break;
	case PROTO_BYE:
		assert_string_equal(a->u.bye.reason, b->u.bye.reason);
		break;
	case PROTO_MEASURE:
		assert_int_equal(a->u.measure.phase, b->u.measure.phase);
		assert_int_equal(a->u.measure.from, b->u.measure.from);
		assert_int_equal(a->u.measure.intervals,
				 b->u.measure.intervals);
		break;
	case PROTO_CMD:
		assert_int_equal(a->u.cmd.id, b->u.cmd.id);
		assert_int_equal(a->u.cmd.timeout_ns, b->u.cmd.timeout_ns);
		assert_string_equal(a->u.cmd.text, b->u.cmd.text);
		break;
	case PROTO_CMD_OUT:
		assert_int_equal(a->u.cmd_out.id, b->u.cmd_out.id);
		assert_string_equal(a->u.cmd_out.text, b->u.cmd_out.text);
		break;
	case PROTO_CMD_END:
		assert_int_equal(a->u.cmd_end.id, b->u.cmd_end.id);
		assert_int_equal(a->u.cmd_end.status, b->u.cmd_end.status);
		assert_int_equal(a->u.cmd_end.code, b->u.cmd_end.code);
		assert_int_equal(a->u.cmd_end.dropped, b->u.cmd_end.dropped);
		assert_string_equal(a->u.cmd_end.why, b->u.cmd_end.why);
		break;
	default:
		fail_msg("no comparison for type %d", a->type);
	}
}

static void encode_type(enum proto_type t, void **buf, size_t *len)
{
	struct proto_msg m;

	fill(&m, t);
	assert_int_equal(proto_encode(&m, buf, len), 0);
	proto_msg_free(&m);
}

static void test_type_names(void **state)
{
	(void)state;
	assert_string_equal(proto_type_name(PROTO_HELLO), "hello");
	assert_string_equal(proto_type_name(PROTO_GO_ACK), "go_ack");
	assert_string_equal(proto_type_name(PROTO_PHASE_END), "phase_end");
	assert_string_equal(proto_type_name(PROTO_BYE), "bye");
	assert_string_equal(proto_type_name(PROTO_MEASURE), "measure");
	assert_string_equal(proto_type_name(PROTO_CMD_END), "cmd_end");
	assert_null(proto_type_name(0));
	assert_null(proto_type_name(PROTO_TYPE_MAX));
}

static void test_round_trip(void **state)
{
	(void)state;
	for (int t = PROTO_HELLO; t < PROTO_TYPE_MAX; t++) {
		struct proto_msg a, b;
		void *buf, *buf2;
		size_t len, len2;
		char err[256];

		fill(&a, t);
		assert_int_equal(proto_encode(&a, &buf, &len), 0);
		assert_true(len > 0);
		memset(&b, 0xa5, sizeof(b));
		if (proto_decode(buf, len, &b, err, sizeof(err)))
			fail_msg("%s: %s", proto_type_name(t), err);
		check_equal(&a, &b);

		/* Re-encoding the decoded message gives the same bytes. */
		assert_int_equal(proto_encode(&b, &buf2, &len2), 0);
		assert_int_equal(len, len2);
		assert_memory_equal(buf, buf2, len);

		proto_msg_free(&a);
		proto_msg_free(&b);
		proto_msg_free(&b); /* idempotent */
		free(buf);
		free(buf2);
	}
}

/* Zero counts, empty strings and empty histograms survive too. */
static void test_round_trip_empty(void **state)
{
	struct proto_msg a, b;
	struct hist h;
	void *buf;
	size_t len;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.type = PROTO_PLAN;
	assert_int_equal(proto_encode(&a, &buf, &len), 0);
	assert_int_equal(proto_decode(buf, len, &b, NULL, 0), 0);
	check_equal(&a, &b);
	assert_null(b.u.plan.targets);
	assert_null(b.u.plan.streams);
	proto_msg_free(&b);
	free(buf);

	memset(&a, 0, sizeof(a));
	a.type = PROTO_INTERVAL;
	hist_init(&h);
	assert_int_equal(hist_to_sparse(&h, &a.u.interval.lat[0]), 0);
	assert_int_equal(hist_to_sparse(&h, &a.u.interval.lat[1]), 0);
	assert_int_equal(proto_encode(&a, &buf, &len), 0);
	assert_int_equal(proto_decode(buf, len, &b, NULL, 0), 0);
	check_equal(&a, &b);
	assert_int_equal(b.u.interval.lat[0].min, UINT64_MAX);
	proto_msg_free(&a);
	proto_msg_free(&b);
	free(buf);
}

/* Decodes a private copy of exactly len bytes, so ASan sees overreads. */
static int decode_copy(const void *src, size_t len)
{
	static const struct proto_msg zero;
	struct proto_msg m;
	char err[256];
	void *copy = malloc(len ? len : 1);
	int rc;

	assert_non_null(copy);
	memcpy(copy, src, len);
	err[0] = '\0';
	rc = proto_decode(copy, len, &m, err, sizeof(err));
	if (rc == 0) {
		/* The master's merge trusts decoded histograms (lat_valid). */
		if (m.type == PROTO_INTERVAL)
			for (int d = 0; d < 2; d++)
				assert_int_equal(hist_sparse_validate(
							 &m.u.interval.lat[d]),
						 0);
		proto_msg_free(&m);
	} else {
		if (rc != -EBADMSG && rc != -EPROTO)
			fail_msg("unexpected rc %d (%s)", rc, err);
		assert_true(err[0] != '\0');
		assert_null(strchr(err, '\n'));
		/*
		 * On failure *m owns nothing: it is left zeroed but for its
		 * type and, for a plan, its phase (for the error reply).
		 */
		if (m.type == PROTO_PLAN)
			m.u.plan.phase = 0;
		assert_true(m.type < PROTO_TYPE_MAX);
		m.type = 0;
		assert_memory_equal(&m, &zero, sizeof(m));
	}
	free(copy);
	return rc;
}

static void test_truncated(void **state)
{
	(void)state;
	for (int t = PROTO_HELLO; t < PROTO_TYPE_MAX; t++) {
		void *buf;
		size_t len;

		encode_type(t, &buf, &len);
		for (size_t n = 0; n < len; n++)
			assert_int_not_equal(decode_copy(buf, n), 0);
		assert_int_equal(decode_copy(buf, len), 0);
		free(buf);
	}
}

static void test_corrupted(void **state)
{
	(void)state;
	for (int t = PROTO_HELLO; t < PROTO_TYPE_MAX; t++) {
		unsigned char *buf, *mut;
		size_t len;

		encode_type(t, (void **)&buf, &len);
		mut = malloc(len);
		assert_non_null(mut);
		for (size_t i = 0; i < len; i++) {
			const unsigned vals[] = {
				0x00,           0xff, 0xc1, buf[i] ^ 0x01u,
				buf[i] ^ 0x80u, 0xdd, 0xdf, 0xdb,
			};

			for (size_t k = 0; k < sizeof(vals) / sizeof(*vals);
			     k++) {
				memcpy(mut, buf, len);
				mut[i] = (unsigned char)vals[k];
				decode_copy(mut, len);
			}
		}
		free(mut);
		free(buf);
	}
}

/* A few random multi-byte corruptions per type, from a fixed seed. */
static void test_random_corruption(void **state)
{
	(void)state;
	rng_state = 42;
	for (int t = PROTO_HELLO; t < PROTO_TYPE_MAX; t++) {
		unsigned char *buf, *mut;
		size_t len;

		encode_type(t, (void **)&buf, &len);
		mut = malloc(len);
		assert_non_null(mut);
		for (int it = 0; it < 300; it++) {
			int nflip = 1 + (int)(rng_next() % 4);

			memcpy(mut, buf, len);
			for (int k = 0; k < nflip; k++) {
				size_t pos = rng_next() % len;

				mut[pos] = (unsigned char)rng_next();
			}
			decode_copy(mut, 1 + rng_next() % len);
		}
		free(mut);
		free(buf);
	}
}

/* ---- hand-built hostile frames ---- */

struct frame {
	msgpack_sbuffer sb;
	msgpack_packer pk;
};

static void frame_init(struct frame *f)
{
	msgpack_sbuffer_init(&f->sb);
	msgpack_packer_init(&f->pk, &f->sb, msgpack_sbuffer_write);
}

static void pkey(struct frame *f, const char *k)
{
	msgpack_pack_str_with_body(&f->pk, k, strlen(k));
}

static void kstr(struct frame *f, const char *k, const char *v)
{
	pkey(f, k);
	msgpack_pack_str_with_body(&f->pk, v, strlen(v));
}

static void kuint(struct frame *f, const char *k, uint64_t v)
{
	pkey(f, k);
	msgpack_pack_uint64(&f->pk, v);
}

/* Decodes the frame, checks rc and that err mentions what (if given). */
static void expect(struct frame *f, int want, const char *what)
{
	struct proto_msg m;
	char err[256] = "";
	int rc;

	rc = proto_decode(f->sb.data, f->sb.size, &m, err, sizeof(err));
	if (rc != want)
		fail_msg("rc %d, wanted %d (%s)", rc, want, err);
	if (what && !strstr(err, what))
		fail_msg("error \"%s\" does not mention \"%s\"", err, what);
	if (rc == 0 && m.type == PROTO_INTERVAL)
		for (int d = 0; d < 2; d++)
			assert_int_equal(hist_sparse_validate(
						 &m.u.interval.lat[d]),
					 0);
	if (rc == 0)
		proto_msg_free(&m);
	msgpack_sbuffer_destroy(&f->sb);
}

static void test_version(void **state)
{
	struct frame f;

	(void)state;
	frame_init(&f);
	msgpack_pack_map(&f.pk, 4);
	kuint(&f, "v", PROTO_VERSION + 1);
	kstr(&f, "t", "ping");
	kuint(&f, "s", 1);
	kuint(&f, "t1", 2);
	expect(&f, -EPROTO,
	       "protocol version 21 not supported (this "
	       "lockstep speaks 20)");

	/* Version 4 (no clock-datagram port in ping, no validation in plan
	 * and phase_end) is refused. */
	frame_init(&f);
	msgpack_pack_map(&f.pk, 4);
	kuint(&f, "v", 4);
	kstr(&f, "t", "ping");
	kuint(&f, "s", 1);
	kuint(&f, "t1", 2);
	expect(&f, -EPROTO, "protocol version 4 not supported");
	/*
	 * A hello of version 4 (the last release) is refused naming the
	 * peer's lockstep version, so the master can say which to fix.
	 */
	frame_init(&f);
	msgpack_pack_map(&f.pk, 3);
	kstr(&f, "ver", "0.1.0");
	kuint(&f, "v", 4);
	kstr(&f, "t", "hello");
	expect(&f, -EPROTO,
	       "protocol version 4 not supported (this lockstep speaks 20), "
	       "from lockstep 0.1.0");
	/* Only a hello's version is quoted, and only printable bytes. */
	frame_init(&f);
	msgpack_pack_map(&f.pk, 3);
	kstr(&f, "ver", "0.1.0");
	kuint(&f, "v", 4);
	kstr(&f, "t", "ping");
	expect(&f, -EPROTO, "(this lockstep speaks 20)");
	frame_init(&f);
	msgpack_pack_map(&f.pk, 3);
	kstr(&f, "ver", "a\nb");
	kuint(&f, "v", 4);
	kstr(&f, "t", "hello");
	expect(&f, -EPROTO, "from lockstep a?b");

	/* Version 3 (no force= on targets, no forced list) is refused. */
	frame_init(&f);
	msgpack_pack_map(&f.pk, 4);
	kuint(&f, "v", 3);
	kstr(&f, "t", "ping");
	kuint(&f, "s", 1);
	kuint(&f, "t1", 2);
	expect(&f, -EPROTO, "protocol version 3 not supported");

	/* Version 2 (no histograms in phase_end) is refused, not misread. */
	frame_init(&f);
	msgpack_pack_map(&f.pk, 4);
	kuint(&f, "v", 2);
	kstr(&f, "t", "ping");
	kuint(&f, "s", 1);
	kuint(&f, "t1", 2);
	expect(&f, -EPROTO, "protocol version 2 not supported");

	/* Version 1 (histograms as two arrays) is refused, not misread. */
	frame_init(&f);
	msgpack_pack_map(&f.pk, 4);
	kuint(&f, "v", 1);
	kstr(&f, "t", "ping");
	kuint(&f, "s", 1);
	kuint(&f, "t1", 2);
	expect(&f, -EPROTO, "protocol version 1 not supported");

	/* Checked before anything else, wherever "v" sits. */
	frame_init(&f);
	msgpack_pack_map(&f.pk, 3);
	kstr(&f, "t", "something-from-the-future");
	kuint(&f, "zz", 1);
	kuint(&f, "v", PROTO_VERSION + 1);
	expect(&f, -EPROTO, "version 21");

	frame_init(&f);
	msgpack_pack_map(&f.pk, 3);
	kstr(&f, "t", "ping");
	kuint(&f, "s", 1);
	kuint(&f, "t1", 2);
	expect(&f, -EBADMSG, "\"v\"");

	frame_init(&f);
	msgpack_pack_map(&f.pk, 4);
	kstr(&f, "v", "1");
	kstr(&f, "t", "ping");
	kuint(&f, "s", 1);
	kuint(&f, "t1", 2);
	expect(&f, -EBADMSG, "v");

	frame_init(&f);
	msgpack_pack_map(&f.pk, 5);
	kuint(&f, "v", PROTO_VERSION);
	kuint(&f, "v", PROTO_VERSION);
	kstr(&f, "t", "ping");
	kuint(&f, "s", 1);
	kuint(&f, "t1", 2);
	expect(&f, -EBADMSG, "duplicate");
}

static void test_type_and_shape(void **state)
{
	struct frame f;

	(void)state;
	frame_init(&f);
	msgpack_pack_map(&f.pk, 1);
	kuint(&f, "v", PROTO_VERSION);
	expect(&f, -EBADMSG, "\"t\"");

	frame_init(&f);
	msgpack_pack_map(&f.pk, 2);
	kuint(&f, "v", PROTO_VERSION);
	kstr(&f, "t", "pingx\n");
	expect(&f, -EBADMSG, "unknown message type \"pingx?\"");

	frame_init(&f);
	msgpack_pack_map(&f.pk, 2);
	kuint(&f, "v", PROTO_VERSION);
	kuint(&f, "t", PROTO_PING);
	expect(&f, -EBADMSG, "t");

	frame_init(&f);
	msgpack_pack_array(&f.pk, 2);
	msgpack_pack_uint32(&f.pk, 1);
	msgpack_pack_str_with_body(&f.pk, "ping", 4);
	expect(&f, -EBADMSG, "map");

	frame_init(&f);
	msgpack_pack_uint32(&f.pk, 1);
	expect(&f, -EBADMSG, "map");

	/* Keys in any order, unknown keys (even nested ones) skipped. */
	frame_init(&f);
	msgpack_pack_map(&f.pk, 7);
	kuint(&f, "t1", 2);
	pkey(&f, "future");
	msgpack_pack_array(&f.pk, 2);
	msgpack_pack_nil(&f.pk);
	msgpack_pack_map(&f.pk, 1);
	kstr(&f, "a", "b");
	kuint(&f, "un", 9);
	kuint(&f, "s", 1);
	kstr(&f, "t", "ping");
	kuint(&f, "up", 0);
	kuint(&f, "v", PROTO_VERSION);
	expect(&f, 0, NULL);

	frame_init(&f);
	msgpack_pack_map(&f.pk, 3);
	kuint(&f, "v", PROTO_VERSION);
	kstr(&f, "t", "ping");
	kuint(&f, "s", 1);
	expect(&f, -EBADMSG, "missing key \"t1\"");

	frame_init(&f);
	msgpack_pack_map(&f.pk, 6);
	kuint(&f, "v", PROTO_VERSION);
	kstr(&f, "t", "ping");
	kstr(&f, "s", "1");
	kuint(&f, "t1", 2);
	kuint(&f, "up", 0);
	kuint(&f, "un", 0);
	expect(&f, -EBADMSG, "ping.s");

	frame_init(&f);
	msgpack_pack_map(&f.pk, 6);
	kuint(&f, "v", PROTO_VERSION);
	kstr(&f, "t", "ping");
	kuint(&f, "s", UINT64_C(1) << 32);
	kuint(&f, "t1", 2);
	kuint(&f, "up", 0);
	kuint(&f, "un", 0);
	expect(&f, -EBADMSG, "ping.s");

	frame_init(&f);
	msgpack_pack_map(&f.pk, 6);
	kuint(&f, "v", PROTO_VERSION);
	kstr(&f, "t", "ping");
	pkey(&f, "s");
	msgpack_pack_int64(&f.pk, -1);
	kuint(&f, "t1", 2);
	kuint(&f, "up", 0);
	kuint(&f, "un", 0);
	expect(&f, -EBADMSG, "ping.s");

	frame_init(&f);
	msgpack_pack_map(&f.pk, 5);
	kuint(&f, "v", PROTO_VERSION);
	kstr(&f, "t", "ping");
	kuint(&f, "s", 1);
	kuint(&f, "s", 1);
	kuint(&f, "t1", 2);
	expect(&f, -EBADMSG, "duplicate key \"s\"");

	frame_init(&f);
	msgpack_pack_map(&f.pk, 4);
	kuint(&f, "v", PROTO_VERSION);
	kstr(&f, "t", "ping");
	kuint(&f, "s", 1);
	msgpack_pack_uint32(&f.pk, 7);
	msgpack_pack_uint32(&f.pk, 7);
	expect(&f, -EBADMSG, "not a string");

	/* Signed fields take either msgpack int kind, within range. */
	frame_init(&f);
	msgpack_pack_map(&f.pk, 5);
	kuint(&f, "v", PROTO_VERSION);
	kstr(&f, "t", "error");
	kuint(&f, "p", 1);
	kuint(&f, "cd", INT32_MAX);
	kstr(&f, "m", "x");
	expect(&f, 0, NULL);

	frame_init(&f);
	msgpack_pack_map(&f.pk, 5);
	kuint(&f, "v", PROTO_VERSION);
	kstr(&f, "t", "error");
	kuint(&f, "p", 1);
	pkey(&f, "cd");
	msgpack_pack_int64(&f.pk, (int64_t)INT32_MIN - 1);
	kstr(&f, "m", "x");
	expect(&f, -EBADMSG, "error.cd");
}

static void test_framing(void **state)
{
	/* {"x": array32 of 2^32 - 1 elements}, in 8 bytes. */
	unsigned char bomb[] = { 0x81, 0xa1, 'x', 0xdd, 0xff, 0xff, 0xff, 0xff };
	struct proto_msg m;
	char err[256];
	struct frame f;
	void *buf;
	size_t len;

	(void)state;
	assert_int_equal(proto_decode(NULL, 0, &m, err, sizeof(err)), -EBADMSG);
	assert_int_equal(proto_decode("", 0, &m, NULL, 0), -EBADMSG);

	/* Trailing bytes, including a second whole message. */
	encode_type(PROTO_PING, &buf, &len);
	frame_init(&f);
	msgpack_sbuffer_write(&f.sb, buf, len);
	msgpack_pack_nil(&f.pk);
	expect(&f, -EBADMSG, "trailing");
	frame_init(&f);
	msgpack_sbuffer_write(&f.sb, buf, len);
	msgpack_sbuffer_write(&f.sb, buf, len);
	expect(&f, -EBADMSG, "trailing");
	free(buf);

	/* A declared count far beyond the frame is refused up front. */
	assert_int_equal(proto_decode(bomb, sizeof(bomb), &m, err, sizeof(err)),
			 -EBADMSG);

	/* Deep nesting under an unknown key. */
	frame_init(&f);
	msgpack_pack_map(&f.pk, 5);
	kuint(&f, "v", PROTO_VERSION);
	kstr(&f, "t", "ping");
	kuint(&f, "s", 1);
	kuint(&f, "t1", 2);
	pkey(&f, "deep");
	for (int i = 0; i < 200; i++)
		msgpack_pack_array(&f.pk, 1);
	msgpack_pack_nil(&f.pk);
	expect(&f, -EBADMSG, "nested");

	/* A short error buffer is filled, not overrun. */
	assert_int_equal(proto_decode(bomb, sizeof(bomb), &m, err, 8),
			 -EBADMSG);
	assert_int_equal(strlen(err), 7);
}

/* hello with the given name and engine count. */
static void pack_hello(struct frame *f, const char *name, int nengines)
{
	frame_init(f);
	msgpack_pack_map(&f->pk, 9);
	kuint(f, "v", PROTO_VERSION);
	kstr(f, "t", "hello");
	kstr(f, "id", "0f8b6f5e-3c4d-4e2a-9b1c-7d6e5f4a3b2c");
	kstr(f, "nm", name);
	kstr(f, "h", "host");
	kuint(f, "pid", 1);
	kuint(f, "c", 2);
	kstr(f, "ver", "0.1.0");
	pkey(f, "e");
	msgpack_pack_array(&f->pk, (size_t)nengines);
	for (int i = 0; i < nengines; i++)
		msgpack_pack_str_with_body(&f->pk, "null", 4);
}

static void test_strings_and_arrays(void **state)
{
	char name[PROTO_NAME_LEN + 1];
	struct frame f;

	(void)state;
	memset(name, 'n', sizeof(name));
	name[PROTO_NAME_LEN - 1] = '\0';
	pack_hello(&f, name, PROTO_MAX_ENGINES);
	expect(&f, 0, NULL);

	name[PROTO_NAME_LEN - 1] = 'n';
	name[PROTO_NAME_LEN] = '\0';
	pack_hello(&f, name, 1);
	expect(&f, -EBADMSG, "hello.nm");

	pack_hello(&f, "ok", PROTO_MAX_ENGINES + 1);
	expect(&f, -EBADMSG, "hello.e");

	frame_init(&f);
	msgpack_pack_map(&f.pk, 3);
	kuint(&f, "v", PROTO_VERSION);
	kstr(&f, "t", "bye");
	pkey(&f, "m");
	msgpack_pack_str_with_body(&f.pk, "a\0b", 3);
	expect(&f, -EBADMSG, "NUL");

	frame_init(&f);
	msgpack_pack_map(&f.pk, 3);
	kuint(&f, "v", PROTO_VERSION);
	kstr(&f, "t", "bye");
	pkey(&f, "m");
	msgpack_pack_bin_with_body(&f.pk, "abc", 3);
	expect(&f, -EBADMSG, "bye.m");
}

/*
 * For frames too big to write by hand: a valid encoding is unpacked, a
 * test changes the object tree, and the tree is packed again.
 */
struct edit {
	void *orig;
	msgpack_unpacked u;
};

static msgpack_object *edit_start(struct edit *e, enum proto_type t)
{
	size_t len, off = 0;

	encode_type(t, &e->orig, &len);
	msgpack_unpacked_init(&e->u);
	assert_int_equal(msgpack_unpack_next(&e->u, e->orig, len, &off),
			 MSGPACK_UNPACK_SUCCESS);
	return &e->u.data;
}

static msgpack_object *get(msgpack_object *map, const char *key)
{
	for (uint32_t i = 0; i < map->via.map.size; i++) {
		msgpack_object *k = &map->via.map.ptr[i].key;

		if (k->via.str.size == strlen(key) &&
		    !memcmp(k->via.str.ptr, key, k->via.str.size))
			return &map->via.map.ptr[i].val;
	}
	fail_msg("no key %s", key);
	return NULL;
}

static msgpack_object *at(msgpack_object *arr, uint32_t i)
{
	assert_int_equal(arr->type, MSGPACK_OBJECT_ARRAY);
	assert_true(i < arr->via.array.size);
	return &arr->via.array.ptr[i];
}

static void edit_finish(struct edit *e, int want, const char *what)
{
	struct frame f;

	frame_init(&f);
	assert_int_equal(msgpack_pack_object(&f.pk, e->u.data), 0);
	msgpack_unpacked_destroy(&e->u);
	free(e->orig);
	expect(&f, want, what);
}

static void test_plan_hostile(void **state)
{
	msgpack_object *o, *v;
	msgpack_object many[PROTO_MAX_TARGETS + 1];
	struct edit e;

	(void)state;
	/* The highest valid target index passes, one above does not. */
	o = edit_start(&e, PROTO_PLAN);
	at(get(at(get(o, "st"), 0), "tg"), 0)->via.u64 = NTARGETS - 1;
	edit_finish(&e, 0, NULL);
	o = edit_start(&e, PROTO_PLAN);
	at(get(at(get(o, "st"), 2), "tg"), 1)->via.u64 = NTARGETS;
	edit_finish(&e, -EBADMSG, "plan: st[2].tg[1]: target index 3");

	/* A plan with one target too many (each a valid target map). */
	o = edit_start(&e, PROTO_PLAN);
	v = get(o, "tg");
	for (size_t i = 0; i < PROTO_MAX_TARGETS + 1; i++)
		many[i] = v->via.array.ptr[i % NTARGETS];
	v->via.array.ptr = many;
	v->via.array.size = PROTO_MAX_TARGETS + 1;
	edit_finish(&e, -EBADMSG, "plan.tg");

	/* Exactly the limit is fine. */
	o = edit_start(&e, PROTO_PLAN);
	v = get(o, "tg");
	for (size_t i = 0; i < PROTO_MAX_TARGETS; i++)
		many[i] = v->via.array.ptr[i % NTARGETS];
	v->via.array.ptr = many;
	v->via.array.size = PROTO_MAX_TARGETS;
	edit_finish(&e, 0, NULL);

	/* A path one byte too long for its field, deep in the plan. */
	{
		static char path[PROTO_PATH_LEN];

		memset(path, 'p', sizeof(path));
		o = edit_start(&e, PROTO_PLAN);
		v = get(at(get(o, "tg"), 1), "pa");
		v->via.str.ptr = path;
		v->via.str.size = PROTO_PATH_LEN;
		edit_finish(&e, -EBADMSG, "plan.tg[1].pa");
		o = edit_start(&e, PROTO_PLAN);
		v = get(at(get(o, "tg"), 1), "pa");
		v->via.str.ptr = path;
		v->via.str.size = PROTO_PATH_LEN - 1;
		edit_finish(&e, 0, NULL);
	}

	/* Doubles: ints accepted, NaN and out-of-range percentages not. */
	o = edit_start(&e, PROTO_PLAN);
	v = get(o, "io");
	v->type = MSGPACK_OBJECT_POSITIVE_INTEGER;
	v->via.u64 = 5000;
	edit_finish(&e, 0, NULL);
	o = edit_start(&e, PROTO_PLAN);
	get(o, "io")->via.f64 = NAN;
	edit_finish(&e, -EBADMSG, "plan.io");
	o = edit_start(&e, PROTO_PLAN);
	get(at(get(at(get(o, "st"), 1), "x"), 2), "pc")->via.f64 = 100.5;
	edit_finish(&e, -EBADMSG, "plan.st[1].x[2].pc");
	o = edit_start(&e, PROTO_PLAN);
	get(o, "io")->via.f64 = -INFINITY;
	edit_finish(&e, -EBADMSG, "plan.io");

	/* Target ranges are parts per billion. */
	o = edit_start(&e, PROTO_PLAN);
	get(at(get(o, "tg"), 0), "hi")->via.u64 = 1000000001;
	edit_finish(&e, -EBADMSG, "plan.tg[0].hi");

	/* int64: a positive value in a signed field, and one too big. */
	o = edit_start(&e, PROTO_PLAN);
	v = get(o, "co");
	v->type = MSGPACK_OBJECT_POSITIVE_INTEGER;
	v->via.u64 = INT64_MAX;
	edit_finish(&e, 0, NULL);
	o = edit_start(&e, PROTO_PLAN);
	v = get(o, "co");
	v->type = MSGPACK_OBJECT_POSITIVE_INTEGER;
	v->via.u64 = (uint64_t)INT64_MAX + 1;
	edit_finish(&e, -EBADMSG, "plan.co");

	/* A stream with too many xfer entries, a target that is no map. */
	o = edit_start(&e, PROTO_PLAN);
	v = get(at(get(o, "st"), 0), "x");
	for (size_t i = 0; i < PROTO_MAX_XFER + 1; i++)
		many[i] = v->via.array.ptr[0];
	v->via.array.ptr = many;
	v->via.array.size = PROTO_MAX_XFER + 1;
	edit_finish(&e, -EBADMSG, "plan.st[0].x");
	o = edit_start(&e, PROTO_PLAN);
	v = at(get(o, "tg"), 2);
	v->type = MSGPACK_OBJECT_NIL;
	edit_finish(&e, -EBADMSG, "plan.tg[2]");
}

/* ---- histogram bins: (index gap, count) varint pairs ---- */

/* The pairs of one bin, for a test to change before writing them back. */
struct pairs {
	size_t n;
	uint64_t gap[HIST_BUCKETS + 2];
	uint64_t cnt[HIST_BUCKETS + 2];
};

static size_t put_leb(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

/* An independent reader of the encoder's output (valid input only). */
static uint64_t get_leb(const uint8_t *p, size_t len, size_t *pos)
{
	uint64_t v = 0;

	for (unsigned shift = 0;; shift += 7) {
		assert_true(*pos < len && shift < 64);
		v |= (uint64_t)(p[*pos] & 0x7f) << shift;
		if (!(p[(*pos)++] & 0x80))
			return v;
	}
}

static void pairs_read(const msgpack_object *b, struct pairs *ps)
{
	const uint8_t *p = (const uint8_t *)b->via.bin.ptr;
	size_t pos = 0;

	assert_int_equal(b->type, MSGPACK_OBJECT_BIN);
	ps->n = 0;
	while (pos < b->via.bin.size) {
		assert_true(ps->n < HIST_BUCKETS);
		ps->gap[ps->n] = get_leb(p, b->via.bin.size, &pos);
		ps->cnt[ps->n] = get_leb(p, b->via.bin.size, &pos);
		ps->n++;
	}
}

/* Room for the biggest bin a test writes. */
static uint8_t bin_buf[(HIST_BUCKETS + 2) * 2 * 10];

/* Points b at the pairs' encoding; it lives until the next call. */
static void pairs_write(msgpack_object *b, const struct pairs *ps)
{
	size_t len = 0;

	for (size_t k = 0; k < ps->n; k++) {
		len += put_leb(bin_buf + len, ps->gap[k]);
		len += put_leb(bin_buf + len, ps->cnt[k]);
	}
	b->via.bin.ptr = (const char *)bin_buf;
	b->via.bin.size = (uint32_t)len;
}

/* Points b at raw bytes (static storage, so they outlive edit_finish). */
static void bin_raw(msgpack_object *b, const void *bytes, size_t len)
{
	b->type = MSGPACK_OBJECT_BIN;
	b->via.bin.ptr = bytes;
	b->via.bin.size = (uint32_t)len;
}

/* interval.l[d] of a valid interval being edited, and its pairs. */
static msgpack_object *edit_hist(struct edit *e, int d, struct pairs *ps)
{
	msgpack_object *o = edit_start(e, PROTO_INTERVAL);
	msgpack_object *h = at(get(o, "l"), d);

	/* Without per-target histograms, which would no longer add up. */
	get(o, "sl")->via.array.size = 0;

	pairs_read(get(h, "b"), ps);
	assert_true(ps->n > 5);
	return h;
}

/* A histogram of one bucket (index 5) with count n, as raw bin bytes. */
static void one_bucket(struct edit *e, const void *bin, size_t len, uint64_t n,
		       int want, const char *what)
{
	static struct pairs ps;
	msgpack_object *h = edit_hist(e, 0, &ps);

	get(h, "n")->via.u64 = n;
	get(h, "mn")->via.u64 = 40;
	get(h, "mx")->via.u64 = 40;
	bin_raw(get(h, "b"), bin, len);
	edit_finish(e, want, what);
}

/*
 * The documented rules of a bin, read the slow and obvious way: pairs of
 * shortest-form LEB128 varints of at most 64 bits, the first gap absolute
 * and later ones >= 1, indexes below HIST_BUCKETS, counts >= 1 summing to
 * count without wrapping. Returns the number of buckets, or -1.
 */
static long ref_bin(const uint8_t *p, size_t len, uint64_t count, uint32_t *idx,
		    uint64_t *cnt)
{
	uint64_t v[2], total = 0, at = 0;
	size_t pos = 0;
	long n = 0;

	while (pos < len) {
		for (int k = 0; k < 2; k++) {
			unsigned shift = 0;
			size_t start = pos;

			v[k] = 0;
			for (;;) {
				if (pos == len || shift > 63)
					return -1;
				if (shift == 63 && p[pos] > 1)
					return -1;
				v[k] |= (uint64_t)(p[pos] & 0x7f) << shift;
				shift += 7;
				if (!(p[pos++] & 0x80))
					break;
			}
			if (pos - start > 1 && p[pos - 1] == 0)
				return -1; /* not the shortest form */
		}
		if ((n > 0 && v[0] == 0) || v[0] >= HIST_BUCKETS ||
		    at + v[0] >= HIST_BUCKETS || v[1] == 0 ||
		    __builtin_add_overflow(total, v[1], &total))
			return -1;
		at += v[0];
		idx[n] = (uint32_t)at;
		cnt[n++] = v[1];
	}
	return total == count ? n : -1;
}

/* A varint of v, in its shortest form unless long is set. */
static size_t put_varint_test(uint8_t *p, uint64_t v, int padded)
{
	size_t n = put_leb(p, v);

	if (padded && n < 10) {
		p[n - 1] |= 0x80;
		p[n++] = 0;
	}
	return n;
}

/*
 * The decoder's fast path and its careful path against ref_bin() on 20000
 * bins: valid ones whose counts take 1, 2, 3 or 10 bytes, and ones broken
 * in every way the rules name (gap 0, past the end, count 0, padded,
 * truncated, a flipped byte, a wrapping sum, a wrong count), each kind
 * also where the sum of the counts is still right.
 */
static void test_hist_bin_differential(void **state)
{
	static uint8_t bin[HIST_BUCKETS * 24];
	static uint32_t ridx[HIST_BUCKETS];
	static uint64_t rcnt[HIST_BUCKETS];
	char err[256];

	(void)state;
	rng_state = 17;
	for (int t = 0; t < 20000; t++) {
		size_t len = 0, nb = 1 + rng_next() % 700;
		uint64_t total = 0, at = 0, big = rng_next() % 8 == 0;
		struct dctx c = { .err = err, .errlen = sizeof(err) };
		struct hist_sparse h = { 0 };
		msgpack_object o = { .type = MSGPACK_OBJECT_BIN };
		unsigned kind = (unsigned)(rng_next() % 14);
		long want;
		int rc;

		for (size_t k = 0; k < nb; k++) {
			uint64_t gap = k == 0 ? rng_next() % 40 :
						1 + rng_next() % 4;
			uint64_t r = rng_next() % 100, cnt;

			if (at + gap + 1 >= HIST_BUCKETS)
				break;
			if (k == nb / 2 && kind >= 8) {
				/* A bucket of count 0 (the sum still right),
				 * or one at the same index as the last. */
				len += put_varint_test(bin + len, kind == 8, 0);
				len += put_varint_test(bin + len,
						       kind == 8 ? 0 : 5, 0);
				total += kind == 8 ? 0 : 5;
				at += kind == 8;
			}
			at += gap;
			cnt = r < 60 ? 1 + rng_next() % 127 :
			      r < 95 ? 128 + rng_next() % 16256 :
			      r < 99 ? 16384 + rng_next() % 100000 :
				       (big ? UINT64_MAX / 4 : 1 << 20);
			len += put_varint_test(bin + len, gap, 0);
			len += put_varint_test(bin + len, cnt,
					       kind == 1 && k == nb / 2);
			total += cnt;
		}
		switch (kind) {
		case 2: /* a flipped byte */
			bin[rng_next() % len] ^= (uint8_t)(1 << rng_next() % 8);
			break;
		case 3: /* truncated */
			len -= 1 + rng_next() % (len < 4 ? len : 4);
			break;
		case 4: /* a wrong count */
			total += rng_next() % 2 ? 1 : UINT64_MAX;
			break;
		case 5: /* a zero byte: a gap 0 or a count 0 */
			bin[rng_next() % len] = 0;
			break;
		case 6: /* a continuation bit */
			bin[rng_next() % len] |= 0x80;
			break;
		case 7: /* a huge gap at the end */
			len += put_varint_test(bin + len, HIST_BUCKETS, 0);
			len += put_varint_test(bin + len, 1, 0);
			total++;
			break;
		}
		want = ref_bin(bin, len, total, ridx, rcnt);
		h.count = total;
		o.via.bin.ptr = (const char *)bin;
		o.via.bin.size = (uint32_t)len;
		err[0] = 0;
		rc = histcodec_decode(&c, &o, &h);
		if (want < 0) {
			if (rc == 0)
				fail_msg("bin %d (kind %u) accepted, the rules refuse it",
					 t, kind);
			assert_int_equal(rc, -EBADMSG);
			assert_true(err[0] != 0);
		} else {
			if (rc != 0)
				fail_msg("bin %d (kind %u) refused: %s", t,
					 kind, err);
			assert_int_equal(h.n, (size_t)want);
			assert_memory_equal(h.idx, ridx, h.n * sizeof(*ridx));
			assert_memory_equal(h.cnt, rcnt, h.n * sizeof(*rcnt));
		}
		hist_sparse_free(&h);
	}
}

/* The bin is the documented byte layout: gap, count, gap, count ... */
static void test_hist_bin_layout(void **state)
{
	static const uint8_t want[] = {
		0x00, 0x01,       /* bucket 0: gap 0 (absolute), count 1 */
		0x05, 0xc8, 0x01, /* bucket 5: gap 5, count 200 */
		0xa7, 0x02, 0x03, /* bucket 300: gap 295, count 3 */
		0x80, 0x01,       /* bucket 428: gap 128, */
		0xb3, 0xfe, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0x01, /* count 2^64 - 205 in 10 bytes */
	};
	uint32_t idx[] = { 0, 5, 17, 300, 428 };
	uint64_t cnt[] = { 1, 200, 0, 3, UINT64_MAX - 204 };
	struct proto_msg a, b;
	msgpack_unpacked u;
	msgpack_object *bin;
	size_t len, off = 0;
	void *buf;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.type = PROTO_INTERVAL;
	a.u.interval.lat[0] = (struct hist_sparse){
		.count = UINT64_MAX,
		.sum = 9,
		.sumsq = 81,
		.min = 1,
		.max = 1 << 20,
		.n = 5,
		.idx = idx,
		.cnt = cnt,
	};
	a.u.interval.lat[1] = (struct hist_sparse){ .min = UINT64_MAX };
	assert_int_equal(proto_encode(&a, &buf, &len), 0);

	msgpack_unpacked_init(&u);
	assert_int_equal(msgpack_unpack_next(&u, buf, len, &off),
			 MSGPACK_UNPACK_SUCCESS);
	bin = get(at(get(&u.data, "l"), 0), "b");
	assert_int_equal(bin->type, MSGPACK_OBJECT_BIN);
	assert_int_equal(bin->via.bin.size, sizeof(want));
	assert_memory_equal(bin->via.bin.ptr, want, sizeof(want));
	/* An empty histogram has an empty bin. */
	bin = get(at(get(&u.data, "l"), 1), "b");
	assert_int_equal(bin->type, MSGPACK_OBJECT_BIN);
	assert_int_equal(bin->via.bin.size, 0);
	msgpack_unpacked_destroy(&u);

	/* The bucket counted 0 was left out; the rest comes back as sent. */
	assert_int_equal(proto_decode(buf, len, &b, NULL, 0), 0);
	assert_int_equal(b.u.interval.lat[0].n, 4);
	assert_int_equal(b.u.interval.lat[0].idx[2], 300);
	assert_int_equal(b.u.interval.lat[0].idx[3], 428);
	assert_int_equal(b.u.interval.lat[0].cnt[3], UINT64_MAX - 204);
	assert_int_equal(b.u.interval.lat[0].count, UINT64_MAX);
	assert_int_equal(b.u.interval.lat[1].n, 0);
	assert_null(b.u.interval.lat[1].idx);
	proto_msg_free(&b);
	free(buf);
}

static void test_interval_hostile(void **state)
{
	static struct pairs ps;
	msgpack_object *o, *h;
	struct edit e;

	(void)state;
	/* Bucket counts that do not sum to the count. */
	h = edit_hist(&e, 0, &ps);
	get(h, "n")->via.u64 += 1;
	edit_finish(&e, -EBADMSG, "interval.l[0].b: bucket counts sum to");
	h = edit_hist(&e, 1, &ps);
	ps.cnt[3] += 1;
	pairs_write(get(h, "b"), &ps);
	edit_finish(&e, -EBADMSG, "interval.l[1].b: bucket counts sum to");
	/* ... nor wrap around to it. */
	h = edit_hist(&e, 1, &ps);
	ps.cnt[0] += UINT64_MAX - get(h, "n")->via.u64 + 1;
	pairs_write(get(h, "b"), &ps);
	edit_finish(&e, -EBADMSG, "interval.l[1].b: bucket counts overflow");

	/* A bin cut after an index, or inside a varint. */
	h = edit_hist(&e, 1, &ps);
	pairs_write(get(h, "b"), &ps);
	get(h, "b")->via.bin.size -= 1;
	edit_finish(&e, -EBADMSG, "interval.l[1].b");
	h = edit_hist(&e, 1, &ps);
	ps.n--;
	ps.cnt[ps.n - 1] += ps.cnt[ps.n];
	pairs_write(get(h, "b"), &ps);
	bin_buf[get(h, "b")->via.bin.size] = 0x01; /* a last gap, no count */
	get(h, "b")->via.bin.size += 1;
	edit_finish(&e, -EBADMSG, "index without a count");
	{
		static const uint8_t cut[] = { 0x05, 0x81 };

		one_bucket(&e, cut, sizeof(cut), 1, -EBADMSG,
			   "l[0].b: byte 1: truncated varint");
	}

	/* A gap that runs past the last bucket; a zero gap. */
	h = edit_hist(&e, 0, &ps);
	ps.gap[ps.n - 1] = HIST_BUCKETS;
	pairs_write(get(h, "b"), &ps);
	edit_finish(&e, -EBADMSG, "runs past the last bucket");
	h = edit_hist(&e, 0, &ps);
	ps.gap[ps.n - 1] = UINT64_MAX; /* would wrap back into range */
	pairs_write(get(h, "b"), &ps);
	edit_finish(&e, -EBADMSG, "interval.l[0].b: bucket");
	h = edit_hist(&e, 0, &ps);
	ps.gap[4] = 0;
	pairs_write(get(h, "b"), &ps);
	edit_finish(&e, -EBADMSG, "interval.l[0].b: bucket 4: index gap 0");
	{
		/* The first index is absolute, and only it may be 0. */
		static const uint8_t first0[] = { 0x00, 0x07 };
		static const uint8_t last[] = { 0xff, 0x24, 0x07 };
		static const uint8_t past[] = { 0x80, 0x25, 0x07 };

		one_bucket(&e, first0, sizeof(first0), 7, 0, NULL);
		/* 0xff 0x24 is 4735, the last bucket. */
		one_bucket(&e, last, sizeof(last), 7, 0, NULL);
		one_bucket(&e, past, sizeof(past), 7, -EBADMSG,
			   "bucket 0: index gap 4736 runs past");
	}

	/* A bucket counted 0 is never sent. */
	h = edit_hist(&e, 0, &ps);
	ps.cnt[ps.n] = 0;
	ps.gap[ps.n++] = 1;
	pairs_write(get(h, "b"), &ps);
	edit_finish(&e, -EBADMSG, "count 0");

	/* Varints: too long, too big, not in the shortest form. */
	{
		static const uint8_t eleven[] = { 0x05, 0x81, 0x80, 0x80,
						  0x80, 0x80, 0x80, 0x80,
						  0x80, 0x80, 0x80, 0x00 };
		static const uint8_t too_big[] = { 0x05, 0xff, 0xff, 0xff,
						   0xff, 0xff, 0xff, 0xff,
						   0xff, 0xff, 0x02 };
		static const uint8_t max[] = { 0x05, 0xff, 0xff, 0xff,
					       0xff, 0xff, 0xff, 0xff,
					       0xff, 0xff, 0x01 };
		static const uint8_t padded[] = { 0x05, 0x81, 0x00 };
		static const uint8_t padded_gap[] = { 0x85, 0x00, 0x01 };

		one_bucket(&e, eleven, sizeof(eleven), 1, -EBADMSG,
			   "l[0].b: byte 1: varint longer than 10 bytes");
		one_bucket(&e, too_big, sizeof(too_big), 1, -EBADMSG,
			   "l[0].b: byte 1: varint overflows 64 bits");
		one_bucket(&e, max, sizeof(max), UINT64_MAX, 0, NULL);
		one_bucket(&e, padded, sizeof(padded), 1, -EBADMSG,
			   "l[0].b: byte 1: varint not in its shortest form");
		one_bucket(&e, padded_gap, sizeof(padded_gap), 1, -EBADMSG,
			   "l[0].b: byte 0: varint not in its shortest form");
	}

	/* The buckets must be one bin: not an array, not a string. */
	h = edit_hist(&e, 0, &ps);
	get(h, "b")->type = MSGPACK_OBJECT_STR;
	edit_finish(&e, -EBADMSG, "interval.l[0].b: expected a bin");
	h = edit_hist(&e, 0, &ps);
	get(h, "b")->type = MSGPACK_OBJECT_NIL;
	edit_finish(&e, -EBADMSG, "interval.l[0].b: expected a bin");
	/* Version 1's "i" array in its place: "b" is missing. */
	h = edit_hist(&e, 0, &ps);
	for (uint32_t k = 0; k < h->via.map.size; k++) {
		msgpack_object *key = &h->via.map.ptr[k].key;

		if (key->via.str.size == 1 && key->via.str.ptr[0] == 'b')
			key->via.str.ptr = "i";
	}
	edit_finish(&e, -EBADMSG, "interval.l[0]: missing key \"b\"");

	/* min above max. */
	o = edit_start(&e, PROTO_INTERVAL);
	h = at(get(o, "l"), 0);
	get(h, "mn")->via.u64 = get(h, "mx")->via.u64 + 1;
	edit_finish(&e, -EBADMSG, "interval.l[0]: mn");

	/* Not exactly two histograms, two counters. */
	o = edit_start(&e, PROTO_INTERVAL);
	get(o, "l")->via.array.size = 1;
	edit_finish(&e, -EBADMSG, "interval.l");
	o = edit_start(&e, PROTO_INTERVAL);
	get(o, "op")->via.array.size = 1;
	edit_finish(&e, -EBADMSG, "interval.op");

	/* As many buckets as a histogram has, and one more. */
	for (size_t extra = 0; extra < 2; extra++) {
		h = edit_hist(&e, 0, &ps);
		ps.n = HIST_BUCKETS + extra;
		for (size_t k = 0; k < ps.n; k++) {
			ps.gap[k] = k > 0;
			ps.cnt[k] = 1;
		}
		pairs_write(get(h, "b"), &ps);
		get(h, "n")->via.u64 = ps.n;
		if (!extra)
			edit_finish(&e, 0, NULL);
		else
			edit_finish(&e, -EBADMSG,
				    "interval.l[0].b: more than 4736 "
				    "buckets");
	}
}

/*
 * Message t with one element too many in its array key (at most max):
 * the first two repeated into many (max + 1 of room). Refused naming what.
 */
static void one_too_many(enum proto_type t, const char *key, size_t max,
			 msgpack_object *many, const char *what)
{
	struct edit e;
	msgpack_object *v = get(edit_start(&e, t), key);

	for (size_t i = 0; i < max + 1; i++)
		many[i] = v->via.array.ptr[i % 2];
	v->via.array.ptr = many;
	v->via.array.size = (uint32_t)max + 1;
	edit_finish(&e, -EBADMSG, what);
}

/*
 * An interval's per-target histograms: bounded, each target once and in
 * order, each a histogram, and adding up to the read and write ones.
 */
static void test_interval_sds_hostile(void **state)
{
	static msgpack_object many[PROTO_MAX_SD_LATS + 1];
	msgpack_object *o, *v;
	struct edit e;

	(void)state;
	o = edit_start(&e, PROTO_INTERVAL);
	edit_finish(&e, 0, NULL);
	/* None: a slave that does not split its latency per target. */
	o = edit_start(&e, PROTO_INTERVAL);
	get(o, "sl")->via.array.size = 0;
	edit_finish(&e, 0, NULL);

	/* One target too many. */
	one_too_many(PROTO_INTERVAL, "sl", PROTO_MAX_SD_LATS, many,
		     "interval.sl: 65 elements, at most 64");

	/* The same target twice, or out of order. */
	o = edit_start(&e, PROTO_INTERVAL);
	get(at(get(o, "sl"), 1), "t")->via.u64 = 1;
	edit_finish(&e, -EBADMSG, "sl[1].t: target 1 not above");
	o = edit_start(&e, PROTO_INTERVAL);
	get(at(get(o, "sl"), 0), "t")->via.u64 = 9;
	edit_finish(&e, -EBADMSG, "sl[1].t: target 5 not above");

	/* Not adding up: a target left out. */
	o = edit_start(&e, PROTO_INTERVAL);
	get(o, "sl")->via.array.size = 1;
	edit_finish(&e, -EBADMSG,
		    "sl: per-target latencies count 400 I/Os summing to");

	/* Its histogram is one, checked as any other. */
	o = edit_start(&e, PROTO_INTERVAL);
	get(at(get(o, "sl"), 1), "l")->type = MSGPACK_OBJECT_NIL;
	edit_finish(&e, -EBADMSG, "interval.sl[1].l: expected a map");
	o = edit_start(&e, PROTO_INTERVAL);
	v = get(at(get(o, "sl"), 0), "l");
	get(v, "n")->via.u64 += 1;
	edit_finish(&e, -EBADMSG, "interval.sl[0].l.b: bucket counts sum to");
}

/*
 * An interval's file operations other than read and write: bounded, each
 * operation once and in order, never read or write, and each histogram
 * counting its operations.
 */
static void test_interval_fsops_hostile(void **state)
{
	static msgpack_object many[PROTO_FSOP_MAX + 1];
	msgpack_object *o;
	struct edit e;

	(void)state;
	o = edit_start(&e, PROTO_INTERVAL);
	get(o, "fo")->via.array.size = 0;
	edit_finish(&e, 0, NULL);
	one_too_many(PROTO_INTERVAL, "fo", PROTO_FSOP_MAX, many,
		     "interval.fo: 14 elements, at most 13");
	o = edit_start(&e, PROTO_INTERVAL);
	get(at(get(o, "fo"), 1), "o")->via.u64 = PROTO_FSOP_CREATE;
	edit_finish(&e, -EBADMSG, "fo[1].o: operation 2 not above");
	o = edit_start(&e, PROTO_INTERVAL);
	get(at(get(o, "fo"), 0), "o")->via.u64 = PROTO_FSOP_WRITE;
	edit_finish(&e, -EBADMSG,
		    "fo[0].o: operation 1 not an operation other than read");
	o = edit_start(&e, PROTO_INTERVAL);
	get(at(get(o, "fo"), 1), "o")->via.u64 = PROTO_FSOP_MAX;
	edit_finish(&e, -EBADMSG, "fo[1].o: operation 13 not an operation");
	o = edit_start(&e, PROTO_INTERVAL);
	get(at(get(o, "fo"), 0), "n")->via.u64 += 1;
	edit_finish(&e, -EBADMSG, "a latency count other than its count");
	o = edit_start(&e, PROTO_INTERVAL);
	get(at(get(o, "fo"), 1), "l")->type = MSGPACK_OBJECT_NIL;
	edit_finish(&e, -EBADMSG, "interval.fo[1].l: expected a map");
}

/* A file-system plan: two trees, a workload on each, nothing else. */
static void fill_fs_plan(struct proto_msg *m)
{
	struct proto_plan *p = &m->u.plan;

	memset(m, 0, sizeof(*m));
	m->type = PROTO_PLAN;
	p->run = 1;
	p->phase = 4;
	strcpy(p->name, "rd1");
	strcpy(p->engine, "io_uring");
	p->interval_ns = UINT64_C(1000000000);
	p->intervals = 30;
	p->nfsds = 2;
	p->fsds = calloc(2, sizeof(*p->fsds));
	p->nfwds = 2;
	p->fwds = calloc(2, sizeof(*p->fwds));
	assert_non_null(p->fsds);
	assert_non_null(p->fwds);
	for (uint32_t i = 0; i < 2; i++) {
		struct proto_fsd *f = &p->fsds[i];
		struct proto_fwd *w = &p->fwds[i];

		snprintf(f->name, sizeof(f->name), "fsd%u", i + 1);
		snprintf(f->anchor, sizeof(f->anchor), "/mnt/nfs/a%u", i);
		strcpy(f->subdir, i ? "" : "slave-a.1");
		f->depth = 2 + i;
		f->width = 3;
		f->files = 100;
		f->dist = i;
		f->nsizes = 2;
		f->sizes[0].size = 4096;
		f->sizes[0].pct = 60;
		f->sizes[1].size = UINT64_C(1) << 30;
		f->sizes[1].pct = 40;
		f->seed = i;
		f->share_no = i ? 2 : 0;
		f->share_count = i ? 3 : 0;
		f->openflags = PROTO_O_DIRECT;
		f->format = PROTO_FSFMT_RESTART;
		f->format_threads = i ? PROTO_FSFMT_THREADS_MAX : 8;
		f->totalsize = i ? UINT64_C(1) << 40 : 0;
		f->wss = i ? UINT64_C(1) << 39 : 12345;
		snprintf(w->name, sizeof(w->name), "fwd%u", i + 1);
		w->fsd = i;
		w->op = i ? PROTO_FSOP_MOVE : PROTO_FSOP_READ;
		w->mixed = !i;
		w->rdpct = 70;
		w->nxfer = 1;
		w->xfer[0].size = 65536;
		w->xfer[0].pct = 100;
		w->fileio = PROTO_FILEIO_RANDOM;
		w->fileselect = i ? PROTO_FSEL_ONCE : PROTO_FSEL_SEQ;
		w->threads = 8;
		w->target = 0;
		w->rate = 250.5;
		w->stopafter = i ? 0 : 7;
		w->stopafter_pct = i ? 50 : 0;
		w->fileselect = i ? PROTO_FSEL_RANDOM : w->fileselect;
		w->midpoint = i ? 3.5 : 0;
	}
}

static void test_plan_fs(void **state)
{
	struct proto_msg a, b;
	void *buf;
	size_t len;
	char err[256];

	(void)state;
	fill_fs_plan(&a);
	assert_int_equal(proto_encode(&a, &buf, &len), 0);
	if (proto_decode(buf, len, &b, err, sizeof(err)))
		fail_msg("%s", err);
	free(buf);
	assert_int_equal(b.u.plan.nfsds, 2);
	assert_int_equal(b.u.plan.nfwds, 2);
	/* Both zero-filled (calloc): every field and byte alike. */
	assert_memory_equal(a.u.plan.fsds, b.u.plan.fsds,
			    2 * sizeof(*a.u.plan.fsds));
	assert_memory_equal(a.u.plan.fwds, b.u.plan.fwds,
			    2 * sizeof(*a.u.plan.fwds));
	proto_msg_free(&b);
	proto_msg_free(&a);
}

/*
 * One change to a good fs plan: the check both directions run names what,
 * and the encoder refuses it.
 */
static void fs_plan_refused(void (*change)(struct proto_plan *),
			    const char *what)
{
	struct proto_msg m;
	void *buf = NULL;
	size_t len;
	char why[256] = "";

	fill_fs_plan(&m);
	change(&m.u.plan);
	assert_int_equal(schema_plan_check(&m.u.plan, why, sizeof(why)),
			 -EINVAL);
	if (!strstr(why, what))
		fail_msg("\"%s\" does not mention \"%s\"", why, what);
	assert_int_equal(proto_encode(&m, &buf, &len), -EINVAL);
	assert_null(buf);
	proto_msg_free(&m);
}

static void ch_sd_too(struct proto_plan *p)
{
	p->ntargets = 1;
	p->targets = calloc(1, sizeof(*p->targets));
}
static void ch_format(struct proto_plan *p)
{
	p->format = 1;
}
static void ch_fsd_index(struct proto_plan *p)
{
	p->fwds[1].fsd = 2;
}
static void ch_target(struct proto_plan *p)
{
	p->fwds[1].target = 9;
}
static void ch_op(struct proto_plan *p)
{
	p->fwds[0].op = PROTO_FSOP_MAX;
}
static void ch_mixed(struct proto_plan *p)
{
	p->fwds[1].mixed = 1;
}
static void ch_threads(struct proto_plan *p)
{
	p->fwds[0].threads = 0;
}
static void ch_shares(struct proto_plan *p)
{
	p->fsds[0].sizes[1].pct = 39;
}
static void ch_share_no(struct proto_plan *p)
{
	p->fsds[1].share_no = 3;
}
static void ch_anchor(struct proto_plan *p)
{
	strcpy(p->fsds[0].anchor, "a");
}
static void ch_subdir(struct proto_plan *p)
{
	strcpy(p->fsds[0].subdir, "..");
}
static void ch_slash(struct proto_plan *p)
{
	strcpy(p->fsds[0].subdir, "a/b");
}
static void ch_depth(struct proto_plan *p)
{
	p->fsds[1].depth = 0;
}
static void ch_fmt(struct proto_plan *p)
{
	p->fsds[1].format = 4;
}
/* A hostile peer's format threads: bounded at 64. */
static void ch_fmt_threads(struct proto_plan *p)
{
	p->fsds[1].format_threads = PROTO_FSFMT_THREADS_MAX + 1;
}
static void ch_wss(struct proto_plan *p)
{
	p->fsds[1].wss = p->fsds[1].totalsize + 1;
}
static void ch_stopafter(struct proto_plan *p)
{
	p->fwds[1].stopafter = 3;
}
static void ch_midpoint(struct proto_plan *p)
{
	p->fwds[0].midpoint = 3;
}

/* edit_start() of the good fs plan (fill_fs_plan). */
static msgpack_object *fs_edit_start(struct edit *e)
{
	struct proto_msg m;
	size_t len, off = 0;

	fill_fs_plan(&m);
	assert_int_equal(proto_encode(&m, &e->orig, &len), 0);
	proto_msg_free(&m);
	msgpack_unpacked_init(&e->u);
	assert_int_equal(msgpack_unpack_next(&e->u, e->orig, len, &off),
			 MSGPACK_UNPACK_SUCCESS);
	return &e->u.data;
}

/*
 * The checks both directions make (the decoder's are the encoder's): a
 * plan of sds and fsds, fwds in a format phase, indexes past the trees,
 * shapes and shares that cannot be, a subtree that is not one folder.
 */
static void test_plan_fs_hostile(void **state)
{
	struct edit e;
	msgpack_object *o;

	(void)state;
	fs_plan_refused(ch_sd_too, "a phase of both sds and fsds");
	fs_plan_refused(ch_format, "fwds in a format phase");
	fs_plan_refused(ch_fsd_index, "fd: fsd index out of range");
	fs_plan_refused(ch_target, "tg: destination fsd index");
	fs_plan_refused(ch_op, "op: unknown operation");
	fs_plan_refused(ch_mixed, "mx: a mix");
	fs_plan_refused(ch_threads, "th: threads");
	fs_plan_refused(ch_shares, "do not add up to 100");
	fs_plan_refused(ch_share_no, "sh: share number");
	fs_plan_refused(ch_anchor, "not an absolute path");
	fs_plan_refused(ch_subdir, "sb: not one path component");
	fs_plan_refused(ch_slash, "sb: not one path component");
	fs_plan_refused(ch_depth, "dp/wd/fl");
	fs_plan_refused(ch_fmt, "fm: unknown format");
	fs_plan_refused(ch_wss, "ws: a working set above the total size");
	fs_plan_refused(ch_fmt_threads, "ft: more than 64 format threads");
	fs_plan_refused(ch_stopafter, "sa/sp: both");
	fs_plan_refused(ch_midpoint, "pm: a midpoint without random");

	/* The decoder says which field of which entry. */
	o = fs_edit_start(&e);
	get(at(get(o, "fw"), 1), "fd")->via.u64 = 7;
	edit_finish(&e, -EBADMSG, "fw[1].fd: fsd index out of range");
	o = fs_edit_start(&e);
	get(at(get(at(get(o, "fd"), 0), "sz"), 0), "pc")->via.u64 = 101;
	edit_finish(&e, -EBADMSG, "plan.fd[0].sz[0].pc");
	/* 64 format threads pass, 65 do not. */
	o = fs_edit_start(&e);
	get(at(get(o, "fd"), 0), "ft")->via.u64 = 64;
	edit_finish(&e, 0, NULL);
	o = fs_edit_start(&e);
	get(at(get(o, "fd"), 0), "ft")->via.u64 = 65;
	edit_finish(&e, -EBADMSG, "fd[0].ft: more than 64 format threads");
	/* A stopafter percentage above 100. */
	o = fs_edit_start(&e);
	get(at(get(o, "fw"), 1), "sp")->via.u64 = 101;
	edit_finish(&e, -EBADMSG, "plan.fw[1].sp");
}

/*
 * A phase_end's per-sd validation counts: bounded, each sd once, no more
 * mismatches than blocks verified, and summing to the totals.
 */
static void test_phase_end_hostile(void **state)
{
	static msgpack_object many[PROTO_MAX_TARGETS + 1];
	msgpack_object *o;
	struct edit e;

	(void)state;
	o = edit_start(&e, PROTO_PHASE_END);
	edit_finish(&e, 0, NULL);

	/* One sd too many. */
	one_too_many(PROTO_PHASE_END, "vs", PROTO_MAX_TARGETS, many,
		     "phase_end.vs");

	/* The same sd twice, or out of order. */
	o = edit_start(&e, PROTO_PHASE_END);
	get(at(get(o, "vs"), 1), "t")->via.u64 = 0;
	edit_finish(&e, -EBADMSG, "vs[1].t: target 0 not above");

	/* More mismatches than verified blocks, at an sd... */
	o = edit_start(&e, PROTO_PHASE_END);
	get(at(get(o, "vs"), 0), "m")->via.u64 = 1000;
	get(o, "vm")->via.u64 = 1003;
	edit_finish(&e, -EBADMSG, "vs[0].m: 1000 mismatches of 999");
	/* ... or in the totals. */
	o = edit_start(&e, PROTO_PHASE_END);
	get(o, "vr")->via.u64 = 2;
	edit_finish(&e, -EBADMSG, "vm: 3 mismatches of 2");

	/* Per-sd counts that do not sum to the totals. */
	o = edit_start(&e, PROTO_PHASE_END);
	get(at(get(o, "vs"), 1), "w")->via.u64 += 1;
	edit_finish(&e, -EBADMSG, "per-sd counts sum to 4001/3999/3");
	o = edit_start(&e, PROTO_PHASE_END);
	get(o, "vr")->via.u64 += 1;
	edit_finish(&e, -EBADMSG, "per-sd counts sum to");
	/* Totals with no split at all. */
	o = edit_start(&e, PROTO_PHASE_END);
	get(o, "vs")->via.array.size = 0;
	edit_finish(&e, -EBADMSG, "per-sd counts sum to 0/0/0");
	/* Counts that wrap around to the totals. */
	o = edit_start(&e, PROTO_PHASE_END);
	get(at(get(o, "vs"), 1), "w")->via.u64 = UINT64_MAX - 999;
	edit_finish(&e, -EBADMSG, "vs[1]: sums overflow");
}

/*
 * A ready's target sizes (the master's maxdata= as a multiple of the
 * sds' size): bounded in number and bytes, each a named sd of at least a
 * byte, no sd twice. Whether the sds are in the slave's plan is the
 * master's check (maxdata.c).
 */
static void test_ready_hostile(void **state)
{
	/* clang-format off */
	static const struct {
		unsigned i;       /* which size */
		const char *key;  /* of it */
		uint64_t v;       /* set to (sd: its name's length) */
		const char *want; /* NULL: decodes */
	} cases[] = {
		{ 0, "sz", 1, NULL },
		{ 1, "sz", PROTO_MAX_SD_BYTES - 1, NULL },
		{ 1, "sz", PROTO_MAX_SD_BYTES + 1, "ready.tz[1].sz" },
		{ 1, "sz", PROTO_MAX_SD_BYTES, "tz[1]: a size of 2^62 bytes or more" },
		{ 0, "sz", 0, "tz[0]: an empty target" },
		{ 0, "sd", 0, "tz[0]: no sd name" },
		{ 1, "sd", 3, "tz[1].sd: sd sd1 twice" }, /* "sd12" cut */
	};
	/* clang-format on */
	static msgpack_object many[PROTO_MAX_TARGETS + 1];
	msgpack_object *o, *v;
	struct edit e;

	(void)state;
	/* None: a slave with no target sized. */
	o = edit_start(&e, PROTO_READY);
	get(o, "tz")->via.array.size = 0;
	edit_finish(&e, 0, NULL);
	one_too_many(PROTO_READY, "tz", PROTO_MAX_TARGETS, many, "ready.tz");
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		o = edit_start(&e, PROTO_READY);
		v = get(at(get(o, "tz"), cases[k].i), cases[k].key);
		if (v->type == MSGPACK_OBJECT_STR)
			v->via.str.size = (uint32_t)cases[k].v;
		else
			v->via.u64 = cases[k].v;
		edit_finish(&e, cases[k].want ? -EBADMSG : 0, cases[k].want);
	}
}

static void test_encode_invalid(void **state)
{
	struct proto_target tg;
	struct proto_msg m;
	void *buf = NULL;
	size_t len = 0;

	(void)state;
	memset(&m, 0, sizeof(m));
	assert_int_equal(proto_encode(&m, &buf, &len), -EINVAL);
	m.type = PROTO_TYPE_MAX;
	assert_int_equal(proto_encode(&m, &buf, &len), -EINVAL);
	m.type = (enum proto_type) - 1;
	assert_int_equal(proto_encode(&m, &buf, &len), -EINVAL);
	m.type = PROTO_PING;
	assert_int_equal(proto_encode(NULL, &buf, &len), -EINVAL);
	assert_int_equal(proto_encode(&m, NULL, &len), -EINVAL);

	memset(&tg, 0, sizeof(tg));
	memset(&m, 0, sizeof(m));
	m.type = PROTO_PLAN;
	m.u.plan.targets = &tg;
	m.u.plan.ntargets = PROTO_MAX_TARGETS + 1;
	assert_int_equal(proto_encode(&m, &buf, &len), -EINVAL);
	m.u.plan.targets = NULL;
	m.u.plan.ntargets = 1;
	assert_int_equal(proto_encode(&m, &buf, &len), -EINVAL);

	fill(&m, PROTO_PLAN);
	m.u.plan.streams[1].targets[0] = NTARGETS;
	assert_int_equal(proto_encode(&m, &buf, &len), -EINVAL);
	m.u.plan.streams[1].targets[0] = 0;
	m.u.plan.streams[2].nxfer = PROTO_MAX_XFER + 1;
	assert_int_equal(proto_encode(&m, &buf, &len), -EINVAL);
	m.u.plan.streams[2].nxfer = 1;
	m.u.plan.streams[0].rdpct = NAN;
	assert_int_equal(proto_encode(&m, &buf, &len), -EINVAL);
	m.u.plan.streams[0].rdpct = 100.0;
	memset(m.u.plan.targets[2].path, 'x', PROTO_PATH_LEN);
	assert_int_equal(proto_encode(&m, &buf, &len), -EINVAL);
	m.u.plan.targets[2].path[PROTO_PATH_LEN - 1] = '\0';
	m.u.plan.targets[1].range_lo = 1000000001;
	assert_int_equal(proto_encode(&m, &buf, &len), -EINVAL);
	m.u.plan.targets[1].range_lo = 0;
	assert_int_equal(proto_encode(&m, &buf, &len), 0);
	free(buf);
	proto_msg_free(&m);

	fill(&m, PROTO_HELLO);
	m.u.hello.nengines = PROTO_MAX_ENGINES + 1;
	assert_int_equal(proto_encode(&m, &buf, &len), -EINVAL);

	fill(&m, PROTO_INTERVAL);
	m.u.interval.lat[1].count++;
	assert_int_equal(proto_encode(&m, &buf, &len), -EINVAL);
	proto_msg_free(&m);
	/* The encoder holds a phase_end to the decoder's rules. */
	fill(&m, PROTO_PHASE_END);
	m.u.phase_end.val_sds[1].mismatches = 3001;
	m.u.phase_end.val_mismatches = 3001;
	assert_int_equal(proto_encode(&m, &buf, &len), -EINVAL);
	m.u.phase_end.val_sds[1].mismatches = 3;
	m.u.phase_end.val_mismatches = 3;
	m.u.phase_end.val_sds[1].target = 0;
	assert_int_equal(proto_encode(&m, &buf, &len), -EINVAL);
	proto_msg_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_type_names),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_round_trip_empty),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_corrupted),
		cmocka_unit_test(test_random_corruption),
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_type_and_shape),
		cmocka_unit_test(test_framing),
		cmocka_unit_test(test_strings_and_arrays),
		cmocka_unit_test(test_plan_hostile),
		cmocka_unit_test(test_hist_bin_layout),
		cmocka_unit_test(test_hist_bin_differential),
		cmocka_unit_test(test_interval_hostile),
		cmocka_unit_test(test_interval_sds_hostile),
		cmocka_unit_test(test_interval_fsops_hostile),
		cmocka_unit_test(test_plan_fs),
		cmocka_unit_test(test_plan_fs_hostile),
		cmocka_unit_test(test_phase_end_hostile),
		cmocka_unit_test(test_ready_hostile),
		cmocka_unit_test(test_encode_invalid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
