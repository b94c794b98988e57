/*
 * The frame-size bounds of proto/proto.h hold: the largest legal message
 * each side can receive - an interval and a phase_end with every bucket of
 * both histograms, an interval with every target's histogram too, a plan with every target and stream at its longest, a
 * hello, log or error at its longest - encodes within the ZMQ_MAXMSGSIZE
 * the sockets are given. If a limit in proto.h grows, this test fails
 * until the bound grows with it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "proto/proto.h"

static size_t encoded(const struct proto_msg *m)
{
	void *buf = NULL;
	size_t len = 0;

	assert_int_equal(proto_encode(m, &buf, &len), 0);
	free(buf);
	return len;
}

/*
 * Every bucket, each count as large as a valid total allows when the
 * histogram is one of share whose totals add up (and then times many).
 */
static void full_hist_of(struct hist_sparse *h, uint64_t share, uint64_t times)
{
	memset(h, 0, sizeof(*h));
	h->n = HIST_BUCKETS;
	h->idx = malloc(HIST_BUCKETS * sizeof(*h->idx));
	h->cnt = malloc(HIST_BUCKETS * sizeof(*h->cnt));
	assert_non_null(h->idx);
	assert_non_null(h->cnt);
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		h->idx[i] = i;
		h->cnt[i] = (UINT64_MAX / HIST_BUCKETS / share - i) * times;
		h->count += h->cnt[i];
	}
	h->sum = UINT64_MAX / share * times;
	h->min = 1;
	h->max = UINT64_MAX;
	h->sumsq = 1e300;
}

static void full_hist(struct hist_sparse *h)
{
	full_hist_of(h, 1, 1);
}

static void fill_str(char *s, size_t size)
{
	memset(s, 'x', size - 1);
	s[size - 1] = '\0';
}

static void test_to_master(void **state)
{
	struct proto_msg m;

	(void)state;
	memset(&m, 0, sizeof(m));
	m.type = PROTO_INTERVAL;
	m.u.interval.phase = m.u.interval.seq = UINT32_MAX;
	m.u.interval.start_ns = m.u.interval.end_ns = UINT64_MAX;
	m.u.interval.first_io_ns = m.u.interval.errors = UINT64_MAX;
	m.u.interval.ops[0] = m.u.interval.ops[1] = UINT64_MAX;
	m.u.interval.bytes[0] = m.u.interval.bytes[1] = UINT64_MAX;
	m.u.interval.cpu_user_ns = m.u.interval.cpu_sys_ns = UINT64_MAX;
	m.u.interval.cores = UINT32_MAX;
	m.u.interval.tele = UINT32_MAX;
	m.u.interval.tele_span_ns = UINT64_MAX;
	for (int i = 0; i < 5; i++)
		m.u.interval.host_cpu_ns[i] = UINT64_MAX;
	for (int i = 0; i < 3; i++)
		m.u.interval.psi_ns[i] = UINT64_MAX;
	memset(m.u.interval.nic, 'n', PROTO_NIC_LEN - 1);
	for (int k = 0; k < 2; k++)
		m.u.interval.net_bytes[k] = m.u.interval.net_pkts[k] =
			UINT64_MAX;
	m.u.interval.ndevs = PROTO_MAX_DEVS;
	for (int d = 0; d < PROTO_MAX_DEVS; d++) {
		struct proto_dev *v = &m.u.interval.devs[d];

		memset(v->name, 'd', PROTO_DEV_NAME_LEN - 1);
		v->major = v->minor = UINT32_MAX;
		v->span_ns = v->in_flight = v->busy_ms = v->queue_ms =
			UINT64_MAX;
		for (int k = 0; k < 2; k++)
			v->ios[k] = v->sectors[k] = v->ticks_ms[k] = UINT64_MAX;
	}
	full_hist(&m.u.interval.lat[0]);
	full_hist(&m.u.interval.lat[1]);
	assert_in_range(encoded(&m), PROTO_MAX_SMALL, PROTO_MAX_TO_MASTER);
	hist_sparse_free(&m.u.interval.lat[0]);
	hist_sparse_free(&m.u.interval.lat[1]);

	/*
	 * And every target with a histogram of every bucket: their totals
	 * add up to the read and write ones' (half of them each), so no
	 * count can take the 10 bytes of the bound.
	 */
	m.u.interval.nsds = PROTO_MAX_SD_LATS;
	m.u.interval.sds = calloc(PROTO_MAX_SD_LATS, sizeof(*m.u.interval.sds));
	assert_non_null(m.u.interval.sds);
	for (uint32_t i = 0; i < PROTO_MAX_SD_LATS; i++) {
		m.u.interval.sds[i].target = UINT32_MAX - PROTO_MAX_SD_LATS + i;
		full_hist_of(&m.u.interval.sds[i].lat, PROTO_MAX_SD_LATS, 1);
	}
	for (int d = 0; d < 2; d++)
		full_hist_of(&m.u.interval.lat[d], PROTO_MAX_SD_LATS,
			     PROTO_MAX_SD_LATS / 2);
	assert_in_range(encoded(&m), PROTO_MAX_SMALL, PROTO_MAX_TO_MASTER);
	/* And every file operation, each with every bucket, too. */
	m.u.interval.nfsops = PROTO_FSOP_MAX - PROTO_FSOP_CREATE;
	m.u.interval.fsops = calloc(m.u.interval.nfsops,
				    sizeof(*m.u.interval.fsops));
	assert_non_null(m.u.interval.fsops);
	for (uint32_t i = 0; i < m.u.interval.nfsops; i++) {
		struct proto_fsop_stat *o = &m.u.interval.fsops[i];

		o->op = PROTO_FSOP_CREATE + i;
		full_hist(&o->lat);
		o->count = o->lat.count;
		o->bytes = o->errors = UINT64_MAX;
	}
	assert_in_range(encoded(&m), PROTO_MAX_SMALL, PROTO_MAX_TO_MASTER);
	proto_msg_free(&m);

	memset(&m, 0, sizeof(m));
	m.type = PROTO_PHASE_END;
	m.u.phase_end.phase = m.u.phase_end.intervals = UINT32_MAX;
	m.u.phase_end.ops = m.u.phase_end.bytes = UINT64_MAX;
	m.u.phase_end.errors = m.u.phase_end.first_io_ns = UINT64_MAX;
	m.u.phase_end.status = INT32_MIN;
	/* Every sd, each number as wide as msgpack makes it (9 bytes). */
	m.u.phase_end.nval_sds = PROTO_MAX_TARGETS;
	m.u.phase_end.val_sds = calloc(PROTO_MAX_TARGETS,
				       sizeof(*m.u.phase_end.val_sds));
	assert_non_null(m.u.phase_end.val_sds);
	for (uint32_t i = 0; i < PROTO_MAX_TARGETS; i++) {
		struct proto_val_sd *v = &m.u.phase_end.val_sds[i];

		v->target = UINT32_MAX - PROTO_MAX_TARGETS + i;
		v->written = v->verified = v->mismatches = UINT64_MAX / 2048;
		m.u.phase_end.val_written += v->written;
		m.u.phase_end.val_verified += v->verified;
		m.u.phase_end.val_mismatches += v->mismatches;
	}
	full_hist(&m.u.phase_end.lat[0]);
	full_hist(&m.u.phase_end.lat[1]);
	assert_in_range(encoded(&m), PROTO_MAX_SMALL, PROTO_MAX_TO_MASTER);
	proto_msg_free(&m);
}

/* A ready with every target forced and sized, each name at its longest. */
static void test_ready(void **state)
{
	struct proto_msg m;

	(void)state;
	memset(&m, 0, sizeof(m));
	m.type = PROTO_READY;
	m.u.ready.phase = UINT32_MAX;
	m.u.ready.nforced = m.u.ready.nsizes = PROTO_MAX_TARGETS;
	m.u.ready.forced = calloc(PROTO_MAX_TARGETS, sizeof(*m.u.ready.forced));
	m.u.ready.sizes = calloc(PROTO_MAX_TARGETS, sizeof(*m.u.ready.sizes));
	assert_non_null(m.u.ready.forced);
	assert_non_null(m.u.ready.sizes);
	for (uint32_t i = 0; i < PROTO_MAX_TARGETS; i++) {
		struct proto_forced *f = &m.u.ready.forced[i];
		struct proto_tsize *z = &m.u.ready.sizes[i];

		snprintf(f->sd, sizeof(f->sd), "%0*u", (int)sizeof(f->sd) - 1,
			 (unsigned)i);
		memset(f->signature, 's', sizeof(f->signature) - 1);
		memcpy(z->sd, f->sd, sizeof(z->sd));
		z->size = PROTO_MAX_SD_BYTES - 1;
	}
	assert_in_range(encoded(&m), PROTO_MAX_SMALL, PROTO_MAX_TO_MASTER);
	proto_msg_free(&m);
}

static void test_small(void **state)
{
	struct proto_msg m;

	(void)state;
	memset(&m, 0, sizeof(m));
	m.type = PROTO_HELLO;
	fill_str(m.u.hello.id, sizeof(m.u.hello.id));
	fill_str(m.u.hello.name, sizeof(m.u.hello.name));
	fill_str(m.u.hello.host, sizeof(m.u.hello.host));
	fill_str(m.u.hello.version, sizeof(m.u.hello.version));
	m.u.hello.pid = m.u.hello.cores = UINT32_MAX;
	m.u.hello.nengines = PROTO_MAX_ENGINES;
	for (int i = 0; i < PROTO_MAX_ENGINES; i++)
		fill_str(m.u.hello.engines[i], PROTO_NAME_LEN);
	assert_true(encoded(&m) <= PROTO_MAX_SMALL);

	memset(&m, 0, sizeof(m));
	m.type = PROTO_LOG;
	m.u.log.level = UINT32_MAX;
	fill_str(m.u.log.message, sizeof(m.u.log.message));
	assert_true(encoded(&m) <= PROTO_MAX_SMALL);

	memset(&m, 0, sizeof(m));
	m.type = PROTO_ERROR;
	m.u.error.phase = UINT32_MAX;
	m.u.error.code = INT32_MIN;
	fill_str(m.u.error.message, sizeof(m.u.error.message));
	assert_true(encoded(&m) <= PROTO_MAX_SMALL);

	memset(&m, 0, sizeof(m));
	m.type = PROTO_BYE;
	fill_str(m.u.bye.reason, sizeof(m.u.bye.reason));
	assert_true(encoded(&m) <= PROTO_MAX_SMALL);

	memset(&m, 0, sizeof(m));
	m.type = PROTO_GO;
	m.u.go.phase = UINT32_MAX;
	m.u.go.start_at = UINT64_MAX;
	assert_true(encoded(&m) <= PROTO_MAX_SMALL);
}

static void test_to_slave(void **state)
{
	struct proto_msg m;
	struct proto_plan *p = &m.u.plan;

	(void)state;
	memset(&m, 0, sizeof(m));
	m.type = PROTO_PLAN;
	p->run = p->phase = p->intervals = p->warmup_intervals = UINT32_MAX;
	fill_str(p->name, sizeof(p->name));
	fill_str(p->engine, sizeof(p->engine));
	p->interval_ns = p->clock_error_ns = UINT64_MAX;
	memset(p->nic, 'n', PROTO_NIC_LEN - 1);
	p->clock_offset_ns = INT64_MIN;
	p->iorate = p->compratio = p->dedupratio = 1e300;
	p->data_errors = p->distribution = p->format = UINT32_MAX;
	p->dedupunit = UINT32_MAX;
	p->ntargets = PROTO_MAX_TARGETS;
	p->targets = calloc(PROTO_MAX_TARGETS, sizeof(*p->targets));
	p->nstreams = PROTO_MAX_STREAMS;
	p->streams = calloc(PROTO_MAX_STREAMS, sizeof(*p->streams));
	assert_non_null(p->targets);
	assert_non_null(p->streams);
	for (unsigned t = 0; t < PROTO_MAX_TARGETS; t++) {
		struct proto_target *tg = &p->targets[t];

		fill_str(tg->name, sizeof(tg->name));
		fill_str(tg->path, sizeof(tg->path));
		tg->size = tg->offset = UINT64_MAX;
		tg->openflags = tg->create = tg->threads = UINT32_MAX;
		tg->align = tg->sqpoll = UINT32_MAX;
		tg->range_lo = 0;
		tg->range_hi = 1000000000;
	}
	for (unsigned s = 0; s < PROTO_MAX_STREAMS; s++) {
		struct proto_stream *st = &p->streams[s];

		fill_str(st->name, sizeof(st->name));
		st->ntargets = PROTO_MAX_STREAM_TARGETS;
		for (unsigned k = 0; k < PROTO_MAX_STREAM_TARGETS; k++)
			st->targets[k] = PROTO_MAX_TARGETS - 1 - k;
		st->nxfer = PROTO_MAX_XFER;
		for (unsigned x = 0; x < PROTO_MAX_XFER; x++) {
			st->xfer[x].size = UINT32_MAX;
			st->xfer[x].pct = 99.999;
		}
		st->rdpct = st->seekpct = st->skew = 99.999;
		st->eof = UINT32_MAX;
		/* Every zone a percent of the I/O and of the range. */
		st->access = PROTO_ACCESS_ZONED;
		st->nzones = PROTO_MAX_ZONES;
		for (unsigned z = 0; z < PROTO_MAX_ZONES; z++)
			st->zones[z] = (struct proto_zone){ 1, 1 };
		st->stride_min = st->stride_max = UINT64_MAX;
	}
	assert_in_range(encoded(&m), PROTO_MAX_SMALL, PROTO_MAX_TO_SLAVE);
	proto_msg_free(&m);
}

/* A file-system plan with every tree and workload at its longest. */
static void test_to_slave_fs(void **state)
{
	struct proto_msg m;
	struct proto_plan *p = &m.u.plan;

	(void)state;
	memset(&m, 0, sizeof(m));
	m.type = PROTO_PLAN;
	p->run = p->phase = p->intervals = p->warmup_intervals = UINT32_MAX;
	fill_str(p->name, sizeof(p->name));
	fill_str(p->engine, sizeof(p->engine));
	p->nfsds = PROTO_MAX_FSDS;
	p->fsds = calloc(PROTO_MAX_FSDS, sizeof(*p->fsds));
	p->nfwds = PROTO_MAX_FWDS;
	p->fwds = calloc(PROTO_MAX_FWDS, sizeof(*p->fwds));
	assert_non_null(p->fsds);
	assert_non_null(p->fwds);
	for (unsigned i = 0; i < PROTO_MAX_FSDS; i++) {
		struct proto_fsd *f = &p->fsds[i];

		fill_str(f->name, sizeof(f->name));
		fill_str(f->anchor, sizeof(f->anchor));
		f->anchor[0] = '/';
		fill_str(f->subdir, sizeof(f->subdir));
		f->depth = f->width = f->files = UINT32_MAX;
		f->dist = 1;
		f->average = f->openflags = UINT32_MAX;
		f->format = PROTO_FSFMT_CLEAN;
		f->share_count = UINT32_MAX;
		f->share_no = UINT32_MAX - 1;
		f->seed = UINT64_MAX;
		f->totalsize = f->wss = UINT64_MAX;
		f->nsizes = PROTO_FSD_SIZES;
		for (unsigned k = 0; k < PROTO_FSD_SIZES; k++) {
			f->sizes[k].size = UINT64_MAX;
			f->sizes[k].pct = k < 4 ? 25 : 0;
		}
	}
	for (unsigned i = 0; i < PROTO_MAX_FWDS; i++) {
		struct proto_fwd *w = &p->fwds[i];

		fill_str(w->name, sizeof(w->name));
		w->fsd = w->target = PROTO_MAX_FSDS - 1;
		w->op = PROTO_FSOP_WRITE;
		w->mixed = UINT32_MAX;
		w->rdpct = 99.999;
		w->nxfer = PROTO_MAX_XFER;
		for (unsigned x = 0; x < PROTO_MAX_XFER; x++) {
			w->xfer[x].size = UINT32_MAX;
			w->xfer[x].pct = 99.999;
		}
		w->fileio = PROTO_FILEIO_RANDOM;
		w->fileselect = PROTO_FSEL_RANDOM;
		w->midpoint = 1e9;
		w->threads = 4096;
		w->rate = 1e300;
		w->stopafter = UINT64_MAX;
	}
	assert_in_range(encoded(&m), PROTO_MAX_SMALL, PROTO_MAX_TO_SLAVE);
	proto_msg_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_to_master),
		cmocka_unit_test(test_small),
		cmocka_unit_test(test_ready),
		cmocka_unit_test(test_to_slave),
		cmocka_unit_test(test_to_slave_fs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
