/*
 * Writes the fuzz_proto seed corpus: one real proto_encode()d message of
 * every type, as DIR/<type>.msgpack, so the fuzzer starts from frames the
 * decoder accepts and mutates inward from there. The files are committed
 * (tests/fuzz/corpus/proto); the fuzz_proto_seeds test regenerates them and
 * compares, so a change to the bytes on the wire cannot go unnoticed.
 * Usage: proto_seeds DIR
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hist.h"
#include "proto/proto.h"

/* A few latencies spread over microseconds to milliseconds. */
static int fill_hist(struct hist_sparse *out, uint64_t seed)
{
	struct hist *h = malloc(sizeof(*h));
	int rc;

	if (!h)
		return -ENOMEM;
	hist_init(h);
	for (unsigned i = 0; i < 24; i++) {
		seed = seed * 6364136223846793005u + 1442695040888963407u;
		hist_add(h, 20000 + (seed >> 40) % 3000000);
	}
	rc = hist_to_sparse(h, out);
	free(h);
	return rc;
}

static int fill_plan(struct proto_plan *p)
{
	p->run = 1;
	p->phase = 2;
	strcpy(p->name, "rd1");
	strcpy(p->engine, "io_uring");
	p->interval_ns = UINT64_C(1000000000);
	p->intervals = 10;
	p->warmup_intervals = 1;
	p->iorate = 500.0;
	p->clock_offset_ns = -12345;
	p->clock_error_ns = 2000;
	p->data_errors = 50;
	p->distribution = PROTO_DIST_EXPONENTIAL;
	p->dedupunit = 4096;
	p->compratio = 2.0;
	p->dedupratio = 1.0;
	p->ntargets = 2;
	p->targets = calloc(2, sizeof(*p->targets));
	p->nstreams = 2;
	p->streams = calloc(2, sizeof(*p->streams));
	if (!p->targets || !p->streams)
		return -ENOMEM;
	for (uint32_t i = 0; i < 2; i++) {
		struct proto_target *t = &p->targets[i];
		struct proto_stream *s = &p->streams[i];

		snprintf(t->name, sizeof(t->name), "sd%u", i + 1);
		snprintf(t->path, sizeof(t->path), "/dev/nvme%un1", i);
		t->size = UINT64_C(1) << 30;
		t->openflags = PROTO_O_DIRECT | (i ? PROTO_O_SYNC : 0);
		t->threads = 8;
		t->range_lo = 0;
		t->range_hi = 1000000000;
		t->offset = 4096 * i;
		t->sqpoll = i;
		t->force = i;
		t->hitarea = i ? 1024 * 1024 : 0;
		t->hit_lo = 0;
		t->streams = i ? 0 : 2;

		snprintf(s->name, sizeof(s->name), "wd%u", i + 1);
		s->ntargets = 1 + i;
		for (uint32_t j = 0; j < s->ntargets; j++)
			s->targets[j] = j;
		s->nxfer = 2;
		s->xfer[0].size = 4096;
		s->xfer[0].pct = 75.0;
		s->xfer[1].size = 65536;
		s->xfer[1].pct = 25.0;
		s->rdpct = 70.0;
		s->seekpct = i ? 0.0 : 100.0;
		s->eof = i;
		s->rhpct = i ? 0.0 : 80.0;
		s->whpct = i ? 20.0 : 0.0;
		s->access = i ? PROTO_ACCESS_HOTBAND : PROTO_ACCESS_ZONED;
		s->access_arg = 0.0;
		s->nzones = i ? 0 : 2;
		s->zones[0] = (struct proto_zone){ 80, 20 };
		s->zones[1] = (struct proto_zone){ 20, 80 };
		s->band_lo = i ? 100000000 : 0;
		s->band_hi = i ? 200000000 : 0;
		s->stride_min = i ? 4096 : 0;
		s->stride_max = i ? 65536 : 0;
		s->concat = i;
		if (!i && s->ntargets == 1) {
			snprintf(s->replay, sizeof(s->replay), "/tmp/t.log");
			snprintf(s->replay_dev, sizeof(s->replay_dev), "8,16");
			s->replay_hash = 42;
		}
	}
	return 0;
}

static int fill(struct proto_msg *m, enum proto_type t)
{
	memset(m, 0, sizeof(*m));
	m->type = t;
	switch (t) {
	case PROTO_HELLO:
		strcpy(m->u.hello.id, "0f8b6f5e-3c4d-4e2a-9b1c-7d6e5f4a3b2c");
		strcpy(m->u.hello.name, "slave0");
		strcpy(m->u.hello.host, "host-a");
		m->u.hello.pid = 4242;
		m->u.hello.cores = 8;
		strcpy(m->u.hello.version, "0.1.0");
		m->u.hello.nengines = 2;
		strcpy(m->u.hello.engines[0], "io_uring");
		strcpy(m->u.hello.engines[1], "null");
		return 0;
	case PROTO_WELCOME:
		strcpy(m->u.welcome.run_id,
		       "5a1d0c8e-0000-4000-8000-00000000abcd");
		m->u.welcome.slave_index = 1;
		m->u.welcome.heartbeat_ns = UINT64_C(1000000000);
		m->u.welcome.master_timeout_ns = UINT64_C(30000000000);
		return 0;
	case PROTO_PING:
		m->u.ping.seq = 3;
		m->u.ping.t1 = UINT64_C(1700000000123456789);
		m->u.ping.udp_port = 40000;
		m->u.ping.nonce = UINT64_C(0x0123456789abcdef);
		return 0;
	case PROTO_PONG:
		m->u.pong.seq = 3;
		m->u.pong.t1 = UINT64_C(1700000000123456789);
		m->u.pong.t2 = UINT64_C(1700000000123556789);
		m->u.pong.t3 = UINT64_C(1700000000123566789);
		return 0;
	case PROTO_PLAN:
		return fill_plan(&m->u.plan);
	case PROTO_READY:
		m->u.ready.phase = 2;
		m->u.ready.nforced = 1;
		m->u.ready.forced = calloc(1, sizeof(*m->u.ready.forced));
		if (!m->u.ready.forced)
			return -ENOMEM;
		strcpy(m->u.ready.forced[0].sd, "sd1");
		strcpy(m->u.ready.forced[0].signature, "ext4");
		m->u.ready.nsizes = 1;
		m->u.ready.sizes = calloc(1, sizeof(*m->u.ready.sizes));
		if (!m->u.ready.sizes)
			return -ENOMEM;
		strcpy(m->u.ready.sizes[0].sd, "sd1");
		m->u.ready.sizes[0].size = 16 << 20;
		return 0;
	case PROTO_ERROR:
		m->u.error.phase = 2;
		m->u.error.code = -EACCES;
		strcpy(m->u.error.message,
		       "sd1: /dev/nvme0n1: Permission denied");
		return 0;
	case PROTO_GO:
		m->u.go.phase = 2;
		m->u.go.start_at = UINT64_C(1700000005000000000);
		return 0;
	case PROTO_GO_ACK:
		m->u.go_ack.phase = 2;
		return 0;
	case PROTO_INTERVAL: {
		struct proto_interval *iv = &m->u.interval;

		iv->phase = 2;
		iv->seq = 4;
		iv->start_ns = UINT64_C(1700000005000000000);
		iv->end_ns = UINT64_C(1700000006000000000);
		iv->first_io_ns = UINT64_C(1700000005000012345);
		iv->ops[0] = 24;
		iv->ops[1] = 24;
		iv->bytes[0] = 24 * 4096;
		iv->bytes[1] = 24 * 4096;
		iv->cpu_user_ns = 3900000;
		iv->cpu_sys_ns = 7100000;
		iv->cores = 8;
		iv->runq_ns = 1500000;
		iv->lag_ns = 4200000;
		iv->lag_n = 120;
		iv->lag_max_ns = 90000;
		iv->tele = 7;
		iv->tele_span_ns = 1000000000;
		iv->host_cpu_ns[0] = 600000000;
		iv->host_cpu_ns[1] = 300000000;
		iv->host_cpu_ns[2] = 100000000;
		iv->host_cpu_ns[4] = 1000000000;
		iv->psi_ns[2] = 2500000;
		snprintf(iv->nic, sizeof(iv->nic), "eth0");
		iv->net_bytes[0] = 1500000;
		iv->net_bytes[1] = 900000;
		iv->net_pkts[0] = 1100;
		iv->net_pkts[1] = 800;
		iv->ndevs = 1;
		snprintf(iv->devs[0].name, sizeof(iv->devs[0].name), "sdb");
		iv->devs[0].major = 8;
		iv->devs[0].minor = 16;
		iv->devs[0].span_ns = 1000000000;
		iv->devs[0].ios[0] = iv->devs[0].ios[1] = 24;
		iv->devs[0].sectors[0] = iv->devs[0].sectors[1] = 192;
		iv->devs[0].ticks_ms[0] = 5;
		iv->devs[0].ticks_ms[1] = 9;
		iv->devs[0].in_flight = 2;
		iv->devs[0].busy_ms = 12;
		iv->devs[0].queue_ms = 14;
		if (fill_hist(&iv->lat[0], 1) || fill_hist(&iv->lat[1], 2))
			return -ENOMEM;
		/* Two targets: the reads went to one, the writes to the other. */
		iv->sds = calloc(2, sizeof(*iv->sds));
		if (!iv->sds)
			return -ENOMEM;
		iv->nsds = 2;
		iv->sds[1].target = 1;
		if (fill_hist(&iv->sds[0].lat, 1) ||
		    fill_hist(&iv->sds[1].lat, 2))
			return -ENOMEM;
		/* A file-system phase's creates (as many as the reads). */
		iv->fsops = calloc(1, sizeof(*iv->fsops));
		if (!iv->fsops)
			return -ENOMEM;
		iv->nfsops = 1;
		iv->fsops[0].op = PROTO_FSOP_CREATE;
		if (fill_hist(&iv->fsops[0].lat, 1))
			return -ENOMEM;
		iv->fsops[0].count = iv->fsops[0].lat.count;
		return 0;
	}
	case PROTO_ACK:
		m->u.ack.phase = 2;
		m->u.ack.seq = 4;
		return 0;
	case PROTO_PHASE_END: {
		struct proto_phase_end *e = &m->u.phase_end;

		e->phase = 2;
		e->intervals = 10;
		e->ops = 480;
		e->bytes = 480 * 4096;
		e->first_io_ns = UINT64_C(1700000005000012345);
		/* Validation counts of two sds, summing to the totals. */
		e->val_sds = calloc(2, sizeof(*e->val_sds));
		if (!e->val_sds)
			return -ENOMEM;
		e->nval_sds = 2;
		e->val_sds[0] = (struct proto_val_sd){ 0, 120, 100, 0 };
		e->val_sds[1] = (struct proto_val_sd){ 1, 120, 140, 2 };
		e->val_written = 240;
		e->val_verified = 240;
		e->val_mismatches = 2;
		if (fill_hist(&e->lat[0], 3) || fill_hist(&e->lat[1], 4))
			return -ENOMEM;
		return 0;
	}
	case PROTO_LOG:
		m->u.log.level = 3;
		strcpy(m->u.log.message, "sd2: I/O error at offset 8192: EIO");
		return 0;
	case PROTO_STOP:
		strcpy(m->u.stop.reason, "interrupted");
		return 0;
	case PROTO_ABORT:
		strcpy(m->u.abort.reason, "slave1 lost");
		return 0;
	case PROTO_HEARTBEAT:
		m->u.heartbeat.now_ns = UINT64_C(1700000007777777777);
		return 0;
	case PROTO_BYE:
		strcpy(m->u.bye.reason, "done");
		return 0;
	case PROTO_MEASURE:
		m->u.measure.phase = 2;
		m->u.measure.from = 14;
		m->u.measure.intervals = 44;
		return 0;
	case PROTO_CMD:
		m->u.cmd.id = 1;
		m->u.cmd.timeout_ns = UINT64_C(3600000000000);
		strcpy(m->u.cmd.text, "sync");
		return 0;
	case PROTO_CMD_OUT:
		m->u.cmd_out.id = 1;
		strcpy(m->u.cmd_out.text, "done\n");
		return 0;
	case PROTO_CMD_END:
		m->u.cmd_end.id = 1;
		m->u.cmd_end.status = PROTO_CMD_EXIT;
		m->u.cmd_end.code = 1;
		return 0;
	default:
		return -EINVAL;
	}
}

/* A file-system phase's plan: one tree, one mixed read/write fwd. */
static int fill_fs_plan(struct proto_msg *m)
{
	struct proto_plan *p = &m->u.plan;

	memset(m, 0, sizeof(*m));
	m->type = PROTO_PLAN;
	p->phase = 3;
	snprintf(p->name, sizeof(p->name), "rd1");
	snprintf(p->engine, sizeof(p->engine), "io_uring");
	p->interval_ns = 1000000000;
	p->intervals = 10;
	p->fsds = calloc(1, sizeof(*p->fsds));
	p->fwds = calloc(1, sizeof(*p->fwds));
	if (!p->fsds || !p->fwds)
		return -ENOMEM;
	p->nfsds = p->nfwds = 1;
	snprintf(p->fsds[0].name, sizeof(p->fsds[0].name), "fsd1");
	snprintf(p->fsds[0].anchor, sizeof(p->fsds[0].anchor), "/mnt/a");
	snprintf(p->fsds[0].subdir, sizeof(p->fsds[0].subdir), "h1");
	p->fsds[0].depth = p->fsds[0].width = 2;
	p->fsds[0].files = 10;
	p->fsds[0].nsizes = 2;
	p->fsds[0].sizes[0] = (struct proto_fsize){ 4096, 50 };
	p->fsds[0].sizes[1] = (struct proto_fsize){ 65536, 50 };
	snprintf(p->fwds[0].name, sizeof(p->fwds[0].name), "fwd1");
	p->fwds[0].op = PROTO_FSOP_READ;
	p->fwds[0].mixed = 1;
	p->fwds[0].rdpct = 70;
	p->fwds[0].nxfer = 1;
	p->fwds[0].xfer[0] = (struct proto_xfer){ 4096, 100 };
	p->fwds[0].fileio = PROTO_FILEIO_RANDOM;
	p->fwds[0].threads = 2;
	p->fwds[0].stopafter = 5;
	p->fwds[0].midpoint = 3; /* fileselect=poisson (random: 0) */
	p->fsds[0].totalsize = 65536;
	p->fsds[0].wss = 32768;
	return 0;
}

static int write_seed(const char *dir, const char *name,
		      const struct proto_msg *m)
{
	char path[4096];
	void *buf = NULL;
	size_t len = 0;
	FILE *f;
	int rc = proto_encode(m, &buf, &len);

	if (rc) {
		fprintf(stderr, "%s: %s\n", name, strerror(-rc));
		return 1;
	}
	snprintf(path, sizeof(path), "%s/%s.msgpack", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		free(buf);
		return 1;
	}
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	for (int t = PROTO_HELLO; t < PROTO_TYPE_MAX; t++) {
		struct proto_msg m;
		int rc = fill(&m, (enum proto_type)t);

		if (rc) {
			fprintf(stderr, "%s: %s\n", proto_type_name(t),
				strerror(-rc));
			proto_msg_free(&m);
			return 1;
		}
		rc = write_seed(argv[1], proto_type_name(t), &m);
		proto_msg_free(&m);
		if (rc)
			return 1;
	}
	{
		struct proto_msg m;
		int rc = fill_fs_plan(&m);

		if (!rc)
			rc = write_seed(argv[1], "plan_fs", &m);
		proto_msg_free(&m);
		if (rc)
			return 1;
	}
	return 0;
}
