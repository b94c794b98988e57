/*
 * Encoder and decoder for the lockstep wire protocol (proto/PROTOCOL.md):
 * structs in proto.h <-> one msgpack map per frame. Each message type is
 * described once by a table of fields (short key, kind, offset in the
 * struct), and both directions walk the same tables, so the encoder and the
 * decoder cannot drift apart. Decoding trusts nothing: before msgpack-c
 * builds its object tree, a structural pre-scan rejects frames that are not
 * exactly one well-formed object, that nest too deep, or whose container
 * counts exceed what the remaining bytes could hold, so a four-byte frame
 * cannot make the unpacker allocate gigabytes.
 */
#include <assert.h>
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <msgpack.h>

#include "proto/proto.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define MEMBER(st, m) (((st *)0)->m)

/* Deeper than any message needs; bounds the pre-scan's recursion. */
#define SCAN_MAX_DEPTH 16
/* proto_target.range_lo/hi are parts per billion. */
#define RANGE_PPB UINT64_C(1000000000)
/* An unsigned LEB128 varint of 64 bits takes at most 10 bytes. */
#define VARINT_MAX 10
/* Most fields in one map (see the tables below). */
#define MAX_FIELDS 32 /* fields of the largest map; checked per table */

enum fkind {
	F_U32,
	F_U64,
	F_I32,
	F_I64,
	F_DBL,        /* double, finite and >= 0 */
	F_PCT,        /* double, finite and in [0, 100] */
	F_STR,        /* char[size], NUL-terminated */
	F_STRS,       /* char[max][size] with a uint32_t count */
	F_U32S,       /* uint32_t[max] with a uint32_t count */
	F_U64X2,      /* uint64_t[2]: read, write */
	F_MAPS,       /* inline struct array with a uint32_t count */
	F_MAPS_PTR,   /* malloc'd struct array with a uint32_t count */
	F_HISTS,      /* struct hist_sparse[2]: read, write */
	F_HIST_BIN,   /* hist_sparse idx[] and cnt[] as one bin of varints */
};

struct ftab;

struct field {
	const char *key;
	enum fkind kind;
	size_t off;             /* of the value in the struct */
	size_t size;            /* F_STR, F_STRS: bytes per string */
	uint64_t max;           /* arrays: most elements; F_U64: top value */
	size_t cnt;             /* array kinds: offset of the uint32_t count */
	const struct ftab *sub; /* F_MAPS, F_MAPS_PTR: element layout */
};

struct ftab {
	const struct field *f;
	size_t n;
	size_t elem; /* sizeof the struct described */
};

#define TAB(name, st, fields)                                             \
	_Static_assert(NELEM(fields) <= MAX_FIELDS, #fields " > MAX_FIELDS"); \
	static const struct ftab name = { fields, NELEM(fields), sizeof(st) }

#define SCALAR(st, k, kd, m)                                              \
	{ .key = k, .kind = kd, .off = offsetof(st, m) }
#define BOUNDED(st, k, m, top)                                            \
	{ .key = k, .kind = F_U64, .off = offsetof(st, m), .max = top }
#define STRING(st, k, m)                                                  \
	{ .key = k, .kind = F_STR, .off = offsetof(st, m),                \
	  .size = sizeof(MEMBER(st, m)) }
#define STRINGS(st, k, m, c)                                              \
	{ .key = k, .kind = F_STRS, .off = offsetof(st, m),               \
	  .size = sizeof(MEMBER(st, m)[0]), .max = NELEM(MEMBER(st, m)),  \
	  .cnt = offsetof(st, c) }
#define U32S(st, k, m, c)                                                 \
	{ .key = k, .kind = F_U32S, .off = offsetof(st, m),               \
	  .max = NELEM(MEMBER(st, m)), .cnt = offsetof(st, c) }
#define MAPS(st, k, m, c, t)                                              \
	{ .key = k, .kind = F_MAPS, .off = offsetof(st, m),               \
	  .max = NELEM(MEMBER(st, m)), .cnt = offsetof(st, c), .sub = &t }
#define MAPS_PTR(st, k, m, c, mx, t)                                      \
	{ .key = k, .kind = F_MAPS_PTR, .off = offsetof(st, m), .max = mx, \
	  .cnt = offsetof(st, c), .sub = &t }

static const struct field hello_fields[] = {
	STRING(struct proto_hello, "id", id),
	STRING(struct proto_hello, "nm", name),
	STRING(struct proto_hello, "h", host),
	SCALAR(struct proto_hello, "pid", F_U32, pid),
	SCALAR(struct proto_hello, "c", F_U32, cores),
	STRING(struct proto_hello, "ver", version),
	STRINGS(struct proto_hello, "e", engines, nengines),
};
TAB(hello_tab, struct proto_hello, hello_fields);

static const struct field welcome_fields[] = {
	STRING(struct proto_welcome, "r", run_id),
	SCALAR(struct proto_welcome, "i", F_U32, slave_index),
	SCALAR(struct proto_welcome, "hb", F_U64, heartbeat_ns),
	SCALAR(struct proto_welcome, "mt", F_U64, master_timeout_ns),
};
TAB(welcome_tab, struct proto_welcome, welcome_fields);

static const struct field ping_fields[] = {
	SCALAR(struct proto_ping, "s", F_U32, seq),
	SCALAR(struct proto_ping, "t1", F_U64, t1),
};
TAB(ping_tab, struct proto_ping, ping_fields);

static const struct field pong_fields[] = {
	SCALAR(struct proto_pong, "s", F_U32, seq),
	SCALAR(struct proto_pong, "t1", F_U64, t1),
	SCALAR(struct proto_pong, "t2", F_U64, t2),
	SCALAR(struct proto_pong, "t3", F_U64, t3),
};
TAB(pong_tab, struct proto_pong, pong_fields);

static const struct field target_fields[] = {
	STRING(struct proto_target, "nm", name),
	STRING(struct proto_target, "pa", path),
	SCALAR(struct proto_target, "sz", F_U64, size),
	SCALAR(struct proto_target, "of", F_U32, openflags),
	SCALAR(struct proto_target, "cr", F_U32, create),
	SCALAR(struct proto_target, "th", F_U32, threads),
	BOUNDED(struct proto_target, "lo", range_lo, RANGE_PPB),
	BOUNDED(struct proto_target, "hi", range_hi, RANGE_PPB),
	SCALAR(struct proto_target, "os", F_U64, offset),
	SCALAR(struct proto_target, "al", F_U32, align),
	SCALAR(struct proto_target, "sq", F_U32, sqpoll),
};
TAB(target_tab, struct proto_target, target_fields);

static const struct field xfer_fields[] = {
	SCALAR(struct proto_xfer, "sz", F_U32, size),
	SCALAR(struct proto_xfer, "pc", F_PCT, pct),
};
TAB(xfer_tab, struct proto_xfer, xfer_fields);

static const struct field stream_fields[] = {
	STRING(struct proto_stream, "nm", name),
	U32S(struct proto_stream, "tg", targets, ntargets),
	MAPS(struct proto_stream, "x", xfer, nxfer, xfer_tab),
	SCALAR(struct proto_stream, "rd", F_PCT, rdpct),
	SCALAR(struct proto_stream, "sk", F_PCT, seekpct),
	SCALAR(struct proto_stream, "sw", F_PCT, skew),
	SCALAR(struct proto_stream, "eof", F_U32, eof),
};
TAB(stream_tab, struct proto_stream, stream_fields);

static const struct field plan_fields[] = {
	SCALAR(struct proto_plan, "r", F_U32, run),
	SCALAR(struct proto_plan, "p", F_U32, phase),
	STRING(struct proto_plan, "nm", name),
	STRING(struct proto_plan, "e", engine),
	SCALAR(struct proto_plan, "in", F_U64, interval_ns),
	SCALAR(struct proto_plan, "ni", F_U32, intervals),
	SCALAR(struct proto_plan, "wi", F_U32, warmup_intervals),
	SCALAR(struct proto_plan, "io", F_DBL, iorate),
	SCALAR(struct proto_plan, "co", F_I64, clock_offset_ns),
	SCALAR(struct proto_plan, "ce", F_U64, clock_error_ns),
	SCALAR(struct proto_plan, "de", F_U32, data_errors),
	SCALAR(struct proto_plan, "di", F_U32, distribution),
	SCALAR(struct proto_plan, "fm", F_U32, format),
	SCALAR(struct proto_plan, "du", F_U32, dedupunit),
	SCALAR(struct proto_plan, "cp", F_DBL, compratio),
	SCALAR(struct proto_plan, "dr", F_DBL, dedupratio),
	MAPS_PTR(struct proto_plan, "tg", targets, ntargets,
		 PROTO_MAX_TARGETS, target_tab),
	MAPS_PTR(struct proto_plan, "st", streams, nstreams,
		 PROTO_MAX_STREAMS, stream_tab),
};
TAB(plan_tab, struct proto_plan, plan_fields);

static const struct field ready_fields[] = {
	SCALAR(struct proto_ready, "p", F_U32, phase),
};
TAB(ready_tab, struct proto_ready, ready_fields);

static const struct field error_fields[] = {
	SCALAR(struct proto_error, "p", F_U32, phase),
	SCALAR(struct proto_error, "cd", F_I32, code),
	STRING(struct proto_error, "m", message),
};
TAB(error_tab, struct proto_error, error_fields);

static const struct field go_fields[] = {
	SCALAR(struct proto_go, "p", F_U32, phase),
	SCALAR(struct proto_go, "at", F_U64, start_at),
};
TAB(go_tab, struct proto_go, go_fields);

static const struct field go_ack_fields[] = {
	SCALAR(struct proto_go_ack, "p", F_U32, phase),
};
TAB(go_ack_tab, struct proto_go_ack, go_ack_fields);

/*
 * The position of "b" is relied on by decode_hist(). Its offset is 0: the
 * bin is written from, and read into, the whole struct hist_sparse.
 */
enum { HIST_F_BIN = 5 };
static const struct field hist_fields[] = {
	SCALAR(struct hist_sparse, "n", F_U64, count),
	SCALAR(struct hist_sparse, "s", F_U64, sum),
	SCALAR(struct hist_sparse, "q", F_DBL, sumsq),
	SCALAR(struct hist_sparse, "mn", F_U64, min),
	SCALAR(struct hist_sparse, "mx", F_U64, max),
	{ .key = "b", .kind = F_HIST_BIN, .off = 0 },
};
TAB(hist_tab, struct hist_sparse, hist_fields);

static const struct field interval_fields[] = {
	SCALAR(struct proto_interval, "p", F_U32, phase),
	SCALAR(struct proto_interval, "s", F_U32, seq),
	SCALAR(struct proto_interval, "sa", F_U64, start_ns),
	SCALAR(struct proto_interval, "en", F_U64, end_ns),
	SCALAR(struct proto_interval, "fi", F_U64, first_io_ns),
	SCALAR(struct proto_interval, "op", F_U64X2, ops),
	SCALAR(struct proto_interval, "by", F_U64X2, bytes),
	SCALAR(struct proto_interval, "er", F_U64, errors),
	SCALAR(struct proto_interval, "cu", F_U64, cpu_user_ns),
	SCALAR(struct proto_interval, "cs", F_U64, cpu_sys_ns),
	SCALAR(struct proto_interval, "c", F_U32, cores),
	SCALAR(struct proto_interval, "l", F_HISTS, lat),
};
TAB(interval_tab, struct proto_interval, interval_fields);

static const struct field ack_fields[] = {
	SCALAR(struct proto_ack, "p", F_U32, phase),
	SCALAR(struct proto_ack, "s", F_U32, seq),
};
TAB(ack_tab, struct proto_ack, ack_fields);

static const struct field phase_end_fields[] = {
	SCALAR(struct proto_phase_end, "p", F_U32, phase),
	SCALAR(struct proto_phase_end, "ni", F_U32, intervals),
	SCALAR(struct proto_phase_end, "op", F_U64, ops),
	SCALAR(struct proto_phase_end, "by", F_U64, bytes),
	SCALAR(struct proto_phase_end, "er", F_U64, errors),
	SCALAR(struct proto_phase_end, "fi", F_U64, first_io_ns),
	SCALAR(struct proto_phase_end, "rc", F_I32, status),
	SCALAR(struct proto_phase_end, "l", F_HISTS, lat),
};
TAB(phase_end_tab, struct proto_phase_end, phase_end_fields);

static const struct field log_fields[] = {
	SCALAR(struct proto_log, "lv", F_U32, level),
	STRING(struct proto_log, "m", message),
};
TAB(log_tab, struct proto_log, log_fields);

static const struct field text_fields[] = {
	STRING(struct proto_text, "m", reason),
};
TAB(text_tab, struct proto_text, text_fields);

static const struct field heartbeat_fields[] = {
	SCALAR(struct proto_heartbeat, "now", F_U64, now_ns),
};
TAB(heartbeat_tab, struct proto_heartbeat, heartbeat_fields);

static const char *const type_names[PROTO_TYPE_MAX] = {
	[PROTO_HELLO] = "hello",         [PROTO_WELCOME] = "welcome",
	[PROTO_PING] = "ping",           [PROTO_PONG] = "pong",
	[PROTO_PLAN] = "plan",           [PROTO_READY] = "ready",
	[PROTO_ERROR] = "error",         [PROTO_GO] = "go",
	[PROTO_GO_ACK] = "go_ack",       [PROTO_INTERVAL] = "interval",
	[PROTO_ACK] = "ack",             [PROTO_PHASE_END] = "phase_end",
	[PROTO_LOG] = "log",             [PROTO_STOP] = "stop",
	[PROTO_ABORT] = "abort",         [PROTO_HEARTBEAT] = "heartbeat",
	[PROTO_BYE] = "bye",
};

static const struct ftab *const type_tabs[PROTO_TYPE_MAX] = {
	[PROTO_HELLO] = &hello_tab,         [PROTO_WELCOME] = &welcome_tab,
	[PROTO_PING] = &ping_tab,           [PROTO_PONG] = &pong_tab,
	[PROTO_PLAN] = &plan_tab,           [PROTO_READY] = &ready_tab,
	[PROTO_ERROR] = &error_tab,         [PROTO_GO] = &go_tab,
	[PROTO_GO_ACK] = &go_ack_tab,       [PROTO_INTERVAL] = &interval_tab,
	[PROTO_ACK] = &ack_tab,             [PROTO_PHASE_END] = &phase_end_tab,
	[PROTO_LOG] = &log_tab,             [PROTO_STOP] = &text_tab,
	[PROTO_ABORT] = &text_tab,          [PROTO_HEARTBEAT] = &heartbeat_tab,
	[PROTO_BYE] = &text_tab,
};

const char *proto_type_name(enum proto_type t)
{
	if ((int)t <= 0 || t >= PROTO_TYPE_MAX)
		return NULL;
	return type_names[t];
}

/*
 * Checks the plan's cross-references, which no single field can: every
 * stream's target indexes must name one of the plan's targets. Counts are
 * checked too, so the encoder can call this on hand-built plans first.
 * Returns 0, or -EINVAL with the reason in why.
 */
static int plan_check(const struct proto_plan *p, char *why, size_t whylen)
{
	if (p->ntargets > PROTO_MAX_TARGETS ||
	    p->nstreams > PROTO_MAX_STREAMS || (p->ntargets && !p->targets) ||
	    (p->nstreams && !p->streams)) {
		snprintf(why, whylen, "bad target or stream count");
		return -EINVAL;
	}
	for (uint32_t i = 0; i < p->nstreams; i++) {
		const struct proto_stream *s = &p->streams[i];

		if (s->ntargets > PROTO_MAX_STREAM_TARGETS) {
			snprintf(why, whylen,
				 "st[%" PRIu32 "]: bad target count", i);
			return -EINVAL;
		}
		for (uint32_t j = 0; j < s->ntargets; j++) {
			if (s->targets[j] < p->ntargets)
				continue;
			snprintf(why, whylen,
				 "st[%" PRIu32 "].tg[%" PRIu32 "]: target "
				 "index %" PRIu32 " out of range (plan has "
				 "%" PRIu32 " targets)",
				 i, j, s->targets[j], p->ntargets);
			return -EINVAL;
		}
	}
	return 0;
}

/* ---- encoding ---- */

static int pack_key(msgpack_packer *pk, const char *key)
{
	return msgpack_pack_str_with_body(pk, key, strlen(key)) ? -ENOMEM : 0;
}

/* A string field must be NUL-terminated inside its array. */
static int pack_cstr(msgpack_packer *pk, const char *s, size_t size)
{
	size_t l = strnlen(s, size);

	if (l == size)
		return -EINVAL;
	return msgpack_pack_str_with_body(pk, s, l) ? -ENOMEM : 0;
}

static int pack_double(msgpack_packer *pk, double d, double hi)
{
	if (!isfinite(d) || d < 0.0 || d > hi)
		return -EINVAL;
	return msgpack_pack_double(pk, d) ? -ENOMEM : 0;
}

static int encode_fields(msgpack_packer *pk, const struct ftab *t,
			 const char *base);

static int encode_struct(msgpack_packer *pk, const struct ftab *t,
			 const char *base)
{
	if (msgpack_pack_map(pk, t->n))
		return -ENOMEM;
	return encode_fields(pk, t, base);
}

/* Bytes of v as an unsigned LEB128 varint. */
static size_t varint_len(uint64_t v)
{
	return 1 + (size_t)(63 - __builtin_clzll(v | 1)) / 7;
}

static size_t put_varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

/*
 * The buckets of a valid sparse histogram as one bin: per non-zero bucket
 * the gap to the previous index (the first one from 0, so absolute) and
 * the count, each a varint. Buckets counted 0 add nothing and are left out,
 * so the decoder can refuse them. The varints go out through a small
 * buffer: no allocation, and the bin's length is known before its body.
 */
static int encode_buckets(msgpack_packer *pk, const struct hist_sparse *h)
{
	uint8_t chunk[512];
	size_t size = 0, used = 0;
	uint32_t prev = 0;

	for (size_t k = 0; k < h->n; k++) {
		if (!h->cnt[k])
			continue;
		size += varint_len(h->idx[k] - prev) + varint_len(h->cnt[k]);
		prev = h->idx[k];
	}
	if (msgpack_pack_bin(pk, size))
		return -ENOMEM;
	prev = 0;
	for (size_t k = 0; k < h->n; k++) {
		if (!h->cnt[k])
			continue;
		if (used > sizeof(chunk) - 2 * VARINT_MAX) {
			if (msgpack_pack_bin_body(pk, chunk, used))
				return -ENOMEM;
			used = 0;
		}
		used += put_varint(chunk + used, h->idx[k] - prev);
		used += put_varint(chunk + used, h->cnt[k]);
		prev = h->idx[k];
	}
	if (used && msgpack_pack_bin_body(pk, chunk, used))
		return -ENOMEM;
	return 0;
}

static int encode_hist(msgpack_packer *pk, const struct hist_sparse *h)
{
	if (hist_sparse_validate(h))
		return -EINVAL;
	return encode_struct(pk, &hist_tab, (const char *)h);
}

static int encode_field(msgpack_packer *pk, const struct field *f,
			const char *base)
{
	const char *p = base + f->off;
	uint32_t n = 0;
	int rc = 0;

	if (f->kind == F_STRS || f->kind == F_U32S || f->kind == F_MAPS ||
	    f->kind == F_MAPS_PTR) {
		memcpy(&n, base + f->cnt, sizeof(n));
		if (n > f->max)
			return -EINVAL;
		if (msgpack_pack_array(pk, n))
			return -ENOMEM;
	}

	switch (f->kind) {
	case F_U32:
		rc = msgpack_pack_uint32(pk, *(const uint32_t *)p);
		break;
	case F_U64:
		if (f->max && *(const uint64_t *)p > f->max)
			return -EINVAL;
		rc = msgpack_pack_uint64(pk, *(const uint64_t *)p);
		break;
	case F_I32:
		rc = msgpack_pack_int32(pk, *(const int32_t *)p);
		break;
	case F_I64:
		rc = msgpack_pack_int64(pk, *(const int64_t *)p);
		break;
	case F_DBL:
		return pack_double(pk, *(const double *)p, DBL_MAX);
	case F_PCT:
		return pack_double(pk, *(const double *)p, 100.0);
	case F_STR:
		return pack_cstr(pk, p, f->size);
	case F_STRS:
		for (uint32_t i = 0; i < n && !rc; i++)
			rc = pack_cstr(pk, p + i * f->size, f->size);
		return rc;
	case F_U32S:
		for (uint32_t i = 0; i < n && !rc; i++)
			rc = msgpack_pack_uint32(pk, ((const uint32_t *)p)[i]);
		break;
	case F_U64X2:
		rc = msgpack_pack_array(pk, 2) ||
		     msgpack_pack_uint64(pk, ((const uint64_t *)p)[0]) ||
		     msgpack_pack_uint64(pk, ((const uint64_t *)p)[1]);
		break;
	case F_MAPS:
		for (uint32_t i = 0; i < n && !rc; i++)
			rc = encode_struct(pk, f->sub, p + i * f->sub->elem);
		return rc;
	case F_MAPS_PTR: {
		const char *arr;

		memcpy(&arr, p, sizeof(arr));
		if (n && !arr)
			return -EINVAL;
		for (uint32_t i = 0; i < n && !rc; i++)
			rc = encode_struct(pk, f->sub, arr + i * f->sub->elem);
		return rc;
	}
	case F_HISTS:
		if (msgpack_pack_array(pk, 2))
			return -ENOMEM;
		for (int i = 0; i < 2 && !rc; i++)
			rc = encode_hist(pk,
					 &((const struct hist_sparse *)p)[i]);
		return rc;
	case F_HIST_BIN:
		return encode_buckets(pk, (const struct hist_sparse *)p);
	}
	return rc ? -ENOMEM : 0;
}

/* Writes the fields of t (keys and values; the map header is the caller's). */
static int encode_fields(msgpack_packer *pk, const struct ftab *t,
			 const char *base)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct field *f = &t->f[i];
		int rc;

		rc = pack_key(pk, f->key);
		if (!rc)
			rc = encode_field(pk, f, base);
		if (rc)
			return rc;
	}
	return 0;
}

int proto_encode(const struct proto_msg *m, void **buf, size_t *len)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;
	const struct ftab *t;
	const char *name;
	char why[160];
	int rc;

	if (!m || !buf || !len)
		return -EINVAL;
	name = proto_type_name(m->type);
	if (!name)
		return -EINVAL;
	t = type_tabs[m->type];
	if (m->type == PROTO_PLAN && plan_check(&m->u.plan, why, sizeof(why)))
		return -EINVAL;

	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	rc = -ENOMEM;
	if (msgpack_pack_map(&pk, t->n + 2) || pack_key(&pk, "v") ||
	    msgpack_pack_uint32(&pk, PROTO_VERSION) || pack_key(&pk, "t") ||
	    msgpack_pack_str_with_body(&pk, name, strlen(name)))
		goto fail;
	rc = encode_fields(&pk, t, (const char *)&m->u);
	if (rc)
		goto fail;
	/* The sbuffer's data is realloc'd memory: the caller free()s it. */
	*len = sb.size;
	*buf = msgpack_sbuffer_release(&sb);
	return 0;
fail:
	msgpack_sbuffer_destroy(&sb);
	return rc;
}

/* ---- decoding ---- */

/*
 * Where in the message the decoder is, as a stack of keys and array
 * indexes; it is only formatted when something is wrong, so decoding a
 * histogram of thousands of buckets costs no printf.
 */
#define PATH_DEPTH 12

struct dctx {
	char *err;
	size_t errlen;
	unsigned depth;
	struct {
		const char *key; /* NULL for an array index */
		uint32_t idx;
	} path[PATH_DEPTH];
};

static void at_key(struct dctx *c, const char *key)
{
	if (c->depth < PATH_DEPTH) {
		c->path[c->depth].key = key;
		c->path[c->depth].idx = 0;
	}
	c->depth++;
}

static void at_idx(struct dctx *c, uint32_t idx)
{
	if (c->depth < PATH_DEPTH) {
		c->path[c->depth].key = NULL;
		c->path[c->depth].idx = idx;
	}
	c->depth++;
}

static void up(struct dctx *c)
{
	c->depth--;
}

/* "plan.st[2].x[0].pc" */
static size_t format_path(const struct dctx *c, char *dst, size_t len)
{
	unsigned n = c->depth < PATH_DEPTH ? c->depth : PATH_DEPTH;
	size_t off = 0;

	for (unsigned i = 0; i < n && off < len; i++) {
		int k;

		if (c->path[i].key)
			k = snprintf(dst + off, len - off, "%s%s",
				     i ? "." : "", c->path[i].key);
		else
			k = snprintf(dst + off, len - off, "[%" PRIu32 "]",
				     c->path[i].idx);
		if (k < 0)
			break;
		off += (size_t)k;
	}
	return off;
}

static int fail(struct dctx *c, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Writes "path: reason" to the caller's err and returns rc. */
static int fail(struct dctx *c, int rc, const char *fmt, ...)
{
	size_t off = 0;
	va_list ap;

	if (!c->err || !c->errlen)
		return rc;
	c->err[0] = '\0';
	if (c->depth) {
		off = format_path(c, c->err, c->errlen);
		if (off < c->errlen)
			off += (size_t)snprintf(c->err + off, c->errlen - off,
						": ");
		if (off >= c->errlen)
			return rc;
	}
	va_start(ap, fmt);
	vsnprintf(c->err + off, c->errlen - off, fmt, ap);
	va_end(ap);
	return rc;
}

#define BAD(c, ...) fail(c, -EBADMSG, __VA_ARGS__)

/*
 * Copies at most 32 bytes of a peer's string for an error message,
 * replacing anything unprintable, so the reason stays one safe line.
 */
static void printable(char *dst, size_t dlen, const char *s, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n && i < 32 && k + 1 < dlen; i++)
		dst[k++] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
	if (i < n && k + 4 < dlen) {
		memcpy(dst + k, "...", 3);
		k += 3;
	}
	dst[k] = '\0';
}

/* ---- structural pre-scan ---- */

enum { SCAN_OK, SCAN_TRUNC, SCAN_INVALID, SCAN_DEEP };

static uint64_t load_be(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | *p++;
	return v;
}

/*
 * Walks one msgpack object at *pos. A container of n elements needs at
 * least n more bytes (2n for a map), which bounds what msgpack-c will
 * allocate for its object tree to a small multiple of the frame size.
 */
static int scan_obj(const uint8_t *p, size_t len, size_t *pos, unsigned depth)
{
	enum { SKIP, ARRAY, MAP } what = SKIP;
	unsigned lw = 0;   /* width of a big-endian length field */
	uint64_t n = 0;    /* payload bytes, or elements for containers */
	uint8_t b;

	if (*pos >= len)
		return SCAN_TRUNC;
	b = p[(*pos)++];
	if (b <= 0x7f || b >= 0xe0)
		return SCAN_OK;
	if (b <= 0x8f) {
		what = MAP;
		n = b & 0x0f;
	} else if (b <= 0x9f) {
		what = ARRAY;
		n = b & 0x0f;
	} else if (b <= 0xbf) {
		n = b & 0x1f;
	} else {
		switch (b) {
		case 0xc0: /* nil, false, true */
		case 0xc2:
		case 0xc3:
			return SCAN_OK;
		case 0xc4: /* bin 8, str 8 */
		case 0xd9:
			lw = 1;
			break;
		case 0xc5:
		case 0xda:
			lw = 2;
			break;
		case 0xc6:
		case 0xdb:
			lw = 4;
			break;
		case 0xc7: /* ext 8/16/32: length, type byte, data */
			lw = 1;
			n = 1;
			break;
		case 0xc8:
			lw = 2;
			n = 1;
			break;
		case 0xc9:
			lw = 4;
			n = 1;
			break;
		case 0xca: /* float 32 */
		case 0xce: /* uint 32 */
		case 0xd2: /* int 32 */
			n = 4;
			break;
		case 0xcb:
		case 0xcf:
		case 0xd3:
			n = 8;
			break;
		case 0xcc:
		case 0xd0:
			n = 1;
			break;
		case 0xcd:
		case 0xd1:
			n = 2;
			break;
		case 0xd4: /* fixext 1/2/4/8/16: type byte and data */
			n = 2;
			break;
		case 0xd5:
			n = 3;
			break;
		case 0xd6:
			n = 5;
			break;
		case 0xd7:
			n = 9;
			break;
		case 0xd8:
			n = 17;
			break;
		case 0xdc:
			what = ARRAY;
			lw = 2;
			break;
		case 0xdd:
			what = ARRAY;
			lw = 4;
			break;
		case 0xde:
			what = MAP;
			lw = 2;
			break;
		case 0xdf:
			what = MAP;
			lw = 4;
			break;
		default: /* 0xc1 is never used */
			return SCAN_INVALID;
		}
	}
	if (lw) {
		if (len - *pos < lw)
			return SCAN_TRUNC;
		n += load_be(p + *pos, lw);
		*pos += lw;
	}
	if (what == SKIP) {
		if (n > len - *pos)
			return SCAN_TRUNC;
		*pos += n;
		return SCAN_OK;
	}
	if (depth >= SCAN_MAX_DEPTH)
		return SCAN_DEEP;
	if (what == MAP)
		n *= 2;
	if (n > len - *pos)
		return SCAN_TRUNC;
	for (uint64_t i = 0; i < n; i++) {
		int rc = scan_obj(p, len, pos, depth + 1);

		if (rc != SCAN_OK)
			return rc;
	}
	return SCAN_OK;
}

static int prescan(struct dctx *c, const void *buf, size_t len)
{
	size_t pos = 0;

	switch (scan_obj(buf, len, &pos, 0)) {
	case SCAN_OK:
		break;
	case SCAN_TRUNC:
		return BAD(c, "truncated msgpack (frame of %zu bytes)", len);
	case SCAN_DEEP:
		return BAD(c, "msgpack nested deeper than %d levels",
			   SCAN_MAX_DEPTH);
	default:
		return BAD(c, "invalid msgpack byte at offset %zu", pos - 1);
	}
	if (pos != len)
		return BAD(c, "%zu trailing bytes after the message",
			   len - pos);
	return 0;
}

/* ---- typed getters: each names the key through the path on failure ---- */

static bool key_is(const msgpack_object *k, const char *s)
{
	size_t l = strlen(s);

	return k->type == MSGPACK_OBJECT_STR && k->via.str.size == l &&
	       memcmp(k->via.str.ptr, s, l) == 0;
}

static int get_uint(struct dctx *c, const msgpack_object *o, uint64_t max,
		    uint64_t *out)
{
	if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER)
		return BAD(c, "expected an unsigned integer");
	if (o->via.u64 > max)
		return BAD(c, "%" PRIu64 " out of range (max %" PRIu64 ")",
			   o->via.u64, max);
	*out = o->via.u64;
	return 0;
}

static int get_int(struct dctx *c, const msgpack_object *o, int64_t lo,
		   int64_t hi, int64_t *out)
{
	if (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER) {
		if (o->via.u64 > (uint64_t)hi)
			return BAD(c, "%" PRIu64 " out of range", o->via.u64);
		*out = (int64_t)o->via.u64;
		return 0;
	}
	if (o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER) {
		if (o->via.i64 < lo)
			return BAD(c, "%" PRId64 " out of range", o->via.i64);
		*out = o->via.i64;
		return 0;
	}
	return BAD(c, "expected an integer");
}

static int get_double(struct dctx *c, const msgpack_object *o, double hi,
		      double *out)
{
	double d;

	switch (o->type) {
	case MSGPACK_OBJECT_FLOAT32:
	case MSGPACK_OBJECT_FLOAT64:
		d = o->via.f64;
		break;
	case MSGPACK_OBJECT_POSITIVE_INTEGER:
		d = (double)o->via.u64;
		break;
	case MSGPACK_OBJECT_NEGATIVE_INTEGER:
		d = (double)o->via.i64;
		break;
	default:
		return BAD(c, "expected a number");
	}
	if (!isfinite(d))
		return BAD(c, "not a finite number");
	if (d < 0.0 || d > hi)
		return BAD(c, "%g out of range [0, %g]", d, hi);
	*out = d;
	return 0;
}

static int get_str(struct dctx *c, const msgpack_object *o, char *dst,
		   size_t size)
{
	if (o->type != MSGPACK_OBJECT_STR)
		return BAD(c, "expected a string");
	if (o->via.str.size >= size)
		return BAD(c, "string of %" PRIu32 " bytes too long (max %zu)",
			   o->via.str.size, size - 1);
	if (memchr(o->via.str.ptr, '\0', o->via.str.size))
		return BAD(c, "string contains a NUL byte");
	memcpy(dst, o->via.str.ptr, o->via.str.size);
	dst[o->via.str.size] = '\0';
	return 0;
}

static int get_array(struct dctx *c, const msgpack_object *o, size_t max,
		     const msgpack_object_array **out)
{
	if (o->type != MSGPACK_OBJECT_ARRAY)
		return BAD(c, "expected an array");
	if (o->via.array.size > max)
		return BAD(c, "%" PRIu32 " elements, at most %zu allowed",
			   o->via.array.size, max);
	*out = &o->via.array;
	return 0;
}

/*
 * Finds the values of t's keys in map o: unknown keys are skipped, a known
 * key twice or missing is an error. At the top level "v" and "t" are known
 * and were handled already.
 */
static int collect(struct dctx *c, const msgpack_object *o,
		   const struct ftab *t, bool top, const msgpack_object **vals)
{
	assert(t->n <= MAX_FIELDS);
	if (o->type != MSGPACK_OBJECT_MAP)
		return BAD(c, "expected a map");
	for (size_t i = 0; i < t->n; i++)
		vals[i] = NULL;
	for (uint32_t k = 0; k < o->via.map.size; k++) {
		const msgpack_object_kv *kv = &o->via.map.ptr[k];

		if (kv->key.type != MSGPACK_OBJECT_STR)
			return BAD(c, "map key is not a string");
		if (top && (key_is(&kv->key, "v") || key_is(&kv->key, "t")))
			continue;
		for (size_t i = 0; i < t->n; i++) {
			if (!key_is(&kv->key, t->f[i].key))
				continue;
			if (vals[i])
				return BAD(c, "duplicate key \"%s\"",
					   t->f[i].key);
			vals[i] = &kv->val;
			break;
		}
	}
	for (size_t i = 0; i < t->n; i++)
		if (!vals[i])
			return BAD(c, "missing key \"%s\"", t->f[i].key);
	return 0;
}

static int decode_struct(struct dctx *c, const msgpack_object *o,
			 const struct ftab *t, char *base);
static int decode_fields(struct dctx *c, const struct ftab *t,
			 const msgpack_object **vals, char *base);

/*
 * Reads the varint at p[*pos], len bytes in all. Returns NULL, or why the
 * bytes are not one 64-bit varint in its shortest form (the encoder only
 * writes those, so each value has one encoding).
 */
static const char *get_varint(const uint8_t *p, size_t len, size_t *pos,
			      uint64_t *out)
{
	size_t i = *pos;
	uint64_t v = 0;

	for (unsigned shift = 0;; shift += 7) {
		uint8_t b;

		if (i == len)
			return "truncated varint";
		b = p[i++];
		if (shift == 7 * (VARINT_MAX - 1)) {
			if (b & 0x80)
				return "varint longer than 10 bytes";
			if (b > 1)
				return "varint overflows 64 bits";
		}
		v |= (uint64_t)(b & 0x7f) << shift;
		if (b & 0x80)
			continue;
		if (b == 0 && shift)
			return "varint not in its shortest form";
		break;
	}
	*pos = i;
	*out = v;
	return NULL;
}

/*
 * The next varint: the common one-byte case here, the rest in get_varint().
 * get_varint() gets copies of the position and value, so that the
 * caller's own stay in registers (decoding the buckets is the master's hottest loop).
 */
static inline const char *next_varint(const uint8_t *p, size_t len,
				      size_t *pos, uint64_t *out)
{
	size_t at = *pos;
	uint64_t v = 0;
	const char *why;

	if (at < len && p[at] < 0x80) {
		*out = p[at];
		*pos = at + 1;
		return NULL;
	}
	why = get_varint(p, len, &at, &v);
	*pos = at;
	*out = v;
	return why;
}

/*
 * The bin "b" of a histogram, after its scalars: pairs of varints, the
 * index gap (the first from 0) and the count of each non-zero bucket. The
 * checks of hist_sparse_validate() are made on the way, so a decoded
 * histogram is valid without another pass: indexes strictly increasing and
 * below HIST_BUCKETS, counts summing to n without wrapping, and (as no
 * count is 0) no bucket when n is 0.
 */
static int decode_buckets(struct dctx *c, const msgpack_object *o,
			  struct hist_sparse *h)
{
	const uint8_t *p;
	size_t len, pos = 0, n = 0, cap;
	uint64_t bucket = 0, total = 0;

	if (o->type != MSGPACK_OBJECT_BIN)
		return BAD(c, "expected a bin");
	p = (const uint8_t *)o->via.bin.ptr;
	len = o->via.bin.size;

	/*
	 * A bucket takes 2 bytes or more, so (len + 1) / 2 slots hold every
	 * bucket of the bin unless it has more than a histogram can.
	 */
	cap = (len + 1) / 2;
	if (cap > HIST_BUCKETS)
		cap = HIST_BUCKETS;
	if (cap) {
		/* Owned by *m at once, so any later failure frees them. */
		h->idx = malloc(cap * sizeof(*h->idx));
		h->cnt = malloc(cap * sizeof(*h->cnt));
		if (!h->idx || !h->cnt)
			return fail(c, -ENOMEM, "out of memory");
	}

	while (pos < len) {
		const char *why;
		uint64_t d, cnt;
		size_t at = pos;

		if (n == cap)
			return BAD(c, "more than %d buckets", HIST_BUCKETS);
		why = next_varint(p, len, &pos, &d);
		if (why)
			return BAD(c, "byte %zu: %s", at, why);
		if (n > 0 && d == 0)
			return BAD(c, "bucket %zu: index gap 0 (indexes must "
				      "increase)", n);
		if (d >= HIST_BUCKETS - bucket)
			return BAD(c, "bucket %zu: index gap %" PRIu64 " runs "
				      "past the last bucket (%d)",
				   n, d, HIST_BUCKETS - 1);
		bucket += d;
		if (pos == len)
			return BAD(c, "bucket %zu: index without a count "
				      "(truncated)", n);
		at = pos;
		why = next_varint(p, len, &pos, &cnt);
		if (why)
			return BAD(c, "byte %zu: %s", at, why);
		if (cnt == 0)
			return BAD(c, "bucket %zu: count 0 (only non-zero "
				      "buckets are sent)", n);
		if (__builtin_add_overflow(total, cnt, &total))
			return BAD(c, "bucket counts overflow 64 bits");
		h->idx[n] = (uint32_t)bucket;
		h->cnt[n] = cnt;
		n++;
	}
	h->n = n;
	if (total != h->count)
		return BAD(c, "bucket counts sum to %" PRIu64 " but n is "
			      "%" PRIu64, total, h->count);
	return 0;
}

/*
 * A sparse histogram: the scalars go through the table, the bucket bin is
 * done last because its checks need n.
 */
static int decode_hist(struct dctx *c, const msgpack_object *o,
		       struct hist_sparse *h)
{
	const msgpack_object *v[MAX_FIELDS];
	int rc;

	rc = collect(c, o, &hist_tab, false, v);
	if (!rc)
		rc = decode_fields(c, &hist_tab, v, (char *)h);
	if (rc)
		return rc;
	if (h->count && h->min > h->max)
		return BAD(c, "mn %" PRIu64 " above mx %" PRIu64, h->min,
			   h->max);
	at_key(c, hist_fields[HIST_F_BIN].key);
	rc = decode_buckets(c, v[HIST_F_BIN], h);
	up(c);
	return rc;
}

static int decode_field(struct dctx *c, const struct field *f,
			const msgpack_object *o, char *base)
{
	const msgpack_object_array *a = NULL;
	char *p = base + f->off;
	uint64_t u = 0;
	int64_t s = 0;
	int rc = 0;

	if (f->kind == F_STRS || f->kind == F_U32S || f->kind == F_MAPS ||
	    f->kind == F_MAPS_PTR) {
		rc = get_array(c, o, f->max, &a);
		if (rc)
			return rc;
	}

	switch (f->kind) {
	case F_U32:
		rc = get_uint(c, o, UINT32_MAX, &u);
		if (!rc)
			*(uint32_t *)p = (uint32_t)u;
		break;
	case F_U64:
		rc = get_uint(c, o, f->max ? f->max : UINT64_MAX,
			      (uint64_t *)p);
		break;
	case F_I32:
		rc = get_int(c, o, INT32_MIN, INT32_MAX, &s);
		if (!rc)
			*(int32_t *)p = (int32_t)s;
		break;
	case F_I64:
		rc = get_int(c, o, INT64_MIN, INT64_MAX, (int64_t *)p);
		break;
	case F_DBL:
		rc = get_double(c, o, DBL_MAX, (double *)p);
		break;
	case F_PCT:
		rc = get_double(c, o, 100.0, (double *)p);
		break;
	case F_STR:
		rc = get_str(c, o, p, f->size);
		break;
	case F_STRS:
		for (uint32_t i = 0; i < a->size && !rc; i++) {
			at_idx(c, i);
			rc = get_str(c, &a->ptr[i], p + i * f->size, f->size);
			up(c);
		}
		break;
	case F_U32S:
		for (uint32_t i = 0; i < a->size && !rc; i++) {
			at_idx(c, i);
			rc = get_uint(c, &a->ptr[i], UINT32_MAX, &u);
			if (!rc)
				((uint32_t *)p)[i] = (uint32_t)u;
			up(c);
		}
		break;
	case F_U64X2:
		if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size != 2)
			return BAD(c, "expected an array of 2 integers");
		for (uint32_t i = 0; i < 2 && !rc; i++) {
			at_idx(c, i);
			rc = get_uint(c, &o->via.array.ptr[i], UINT64_MAX,
				      &((uint64_t *)p)[i]);
			up(c);
		}
		break;
	case F_MAPS_PTR:
		if (a->size) {
			/* Owned by *m at once: a later failure frees it. */
			void *arr = calloc(a->size, f->sub->elem);

			if (!arr)
				return fail(c, -ENOMEM, "out of memory");
			memcpy(p, &arr, sizeof(arr));
			memcpy(base + f->cnt, &a->size, sizeof(a->size));
			p = arr;
		}
		/* fall through */
	case F_MAPS:
		for (uint32_t i = 0; i < a->size && !rc; i++) {
			at_idx(c, i);
			rc = decode_struct(c, &a->ptr[i], f->sub,
					   p + i * f->sub->elem);
			up(c);
		}
		break;
	case F_HISTS:
		if (o->type != MSGPACK_OBJECT_ARRAY || o->via.array.size != 2)
			return BAD(c, "expected an array of 2 histograms");
		for (uint32_t i = 0; i < 2 && !rc; i++) {
			at_idx(c, i);
			rc = decode_hist(c, &o->via.array.ptr[i],
					 &((struct hist_sparse *)p)[i]);
			up(c);
		}
		break;
	case F_HIST_BIN:
		break; /* by decode_hist(), once the scalars are known */
	}
	if (!rc && a)
		memcpy(base + f->cnt, &a->size, sizeof(a->size));
	return rc;
}

static int decode_fields(struct dctx *c, const struct ftab *t,
			 const msgpack_object **vals, char *base)
{
	for (size_t i = 0; i < t->n; i++) {
		int rc;

		at_key(c, t->f[i].key);
		rc = decode_field(c, &t->f[i], vals[i], base);
		up(c);
		if (rc)
			return rc;
	}
	return 0;
}

static int decode_struct(struct dctx *c, const msgpack_object *o,
			 const struct ftab *t, char *base)
{
	const msgpack_object *vals[MAX_FIELDS];
	int rc;

	rc = collect(c, o, t, false, vals);
	if (!rc)
		rc = decode_fields(c, t, vals, base);
	return rc;
}

/* Finds key in map o; a key given twice is an error. */
static int find_unique(struct dctx *c, const msgpack_object *o,
		       const char *key, const msgpack_object **out)
{
	*out = NULL;
	for (uint32_t k = 0; k < o->via.map.size; k++) {
		if (!key_is(&o->via.map.ptr[k].key, key))
			continue;
		if (*out)
			return BAD(c, "duplicate key \"%s\"", key);
		*out = &o->via.map.ptr[k].val;
	}
	return 0;
}

static int decode_root(struct dctx *c, const msgpack_object *o,
		       struct proto_msg *m)
{
	const msgpack_object *vals[MAX_FIELDS];
	const msgpack_object *v, *t;
	const struct ftab *tab;
	enum proto_type type;
	char why[160];
	int rc;

	if (o->type != MSGPACK_OBJECT_MAP)
		return BAD(c, "message is not a msgpack map");

	/* The version comes first: a newer peer may change everything else. */
	rc = find_unique(c, o, "v", &v);
	if (rc)
		return rc;
	if (!v)
		return BAD(c, "missing key \"v\" (protocol version)");
	if (v->type != MSGPACK_OBJECT_POSITIVE_INTEGER)
		return BAD(c, "v: expected an unsigned integer");
	if (v->via.u64 != PROTO_VERSION)
		return fail(c, -EPROTO,
			    "protocol version %" PRIu64 " not supported (this "
			    "lockstep speaks %d)",
			    v->via.u64, PROTO_VERSION);

	rc = find_unique(c, o, "t", &t);
	if (rc)
		return rc;
	if (!t)
		return BAD(c, "missing key \"t\" (message type)");
	if (t->type != MSGPACK_OBJECT_STR)
		return BAD(c, "t: expected a string");
	for (type = PROTO_HELLO; type < PROTO_TYPE_MAX; type++)
		if (key_is(t, type_names[type]))
			break;
	if (type == PROTO_TYPE_MAX) {
		printable(why, sizeof(why), t->via.str.ptr, t->via.str.size);
		return BAD(c, "unknown message type \"%s\"", why);
	}

	m->type = type;
	tab = type_tabs[type];
	at_key(c, type_names[type]);
	rc = collect(c, o, tab, true, vals);
	if (!rc)
		rc = decode_fields(c, tab, vals, (char *)&m->u);
	if (!rc && type == PROTO_PLAN &&
	    plan_check(&m->u.plan, why, sizeof(why)))
		rc = BAD(c, "%s", why);
	return rc;
}

int proto_decode(const void *buf, size_t len, struct proto_msg *m, char *err,
		 size_t errlen)
{
	struct dctx c = { .err = err, .errlen = errlen };
	msgpack_unpacked u;
	msgpack_unpack_return ur;
	size_t off = 0;
	int rc;

	memset(m, 0, sizeof(*m));
	if (err && errlen)
		err[0] = '\0';
	if (!buf || !len)
		return BAD(&c, "empty frame");
	rc = prescan(&c, buf, len);
	if (rc)
		return rc;

	msgpack_unpacked_init(&u);
	ur = msgpack_unpack_next(&u, buf, len, &off);
	if (ur == MSGPACK_UNPACK_NOMEM_ERROR)
		rc = fail(&c, -ENOMEM, "out of memory");
	else if (ur != MSGPACK_UNPACK_SUCCESS || off != len)
		rc = BAD(&c, "malformed msgpack");
	else
		rc = decode_root(&c, &u.data, m);
	/* Decoded strings were copied: nothing points into the zone. */
	msgpack_unpacked_destroy(&u);
	if (rc) {
		proto_msg_free(m);
		memset(m, 0, sizeof(*m));
	}
	return rc;
}

static void free_hists(struct hist_sparse *lat)
{
	for (int i = 0; i < 2; i++) {
		hist_sparse_free(&lat[i]);
		lat[i].idx = NULL;
		lat[i].cnt = NULL;
		lat[i].n = 0;
	}
}

void proto_msg_free(struct proto_msg *m)
{
	if (!m)
		return;
	switch (m->type) {
	case PROTO_PLAN:
		free(m->u.plan.targets);
		m->u.plan.targets = NULL;
		m->u.plan.ntargets = 0;
		free(m->u.plan.streams);
		m->u.plan.streams = NULL;
		m->u.plan.nstreams = 0;
		break;
	case PROTO_INTERVAL:
		free_hists(m->u.interval.lat);
		break;
	case PROTO_PHASE_END:
		free_hists(m->u.phase_end.lat);
		break;
	default:
		break;
	}
}
