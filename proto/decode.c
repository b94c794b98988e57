/*
 * The decoder: one frame becomes a struct of proto.h, and the decoder
 * trusts nothing. The scanner (scan.c) first checks the frame's structure,
 * msgpack-c then builds its object tree, and the message type's field
 * table (schema.c) is walked with typed getters that check kinds, ranges
 * and sizes. Unknown keys are skipped; a missing or repeated key is an
 * error. Every refusal names where in the message it happened
 * ("plan.st[2].x[0].pc: ..."). The same file frees what decoding allocates.
 */
#include <assert.h>
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto/proto_int.h"

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
	/*
	 * Our encoder writes the keys in the table's order: the search for a
	 * key starts after the last one found, so each is found at once and
	 * a map of n keys costs n compares, not n x fields (an interval
	 * message has ~35); any other order is still found.
	 */
	for (uint32_t k = 0, next = 0; k < o->via.map.size; k++) {
		const msgpack_object_kv *kv = &o->via.map.ptr[k];

		if (kv->key.type != MSGPACK_OBJECT_STR)
			return BAD(c, "map key is not a string");
		if (top && (key_is(&kv->key, "v") || key_is(&kv->key, "t")))
			continue;
		for (size_t j = 0; j < t->n; j++) {
			size_t i = next + j < t->n ? next + j : next + j - t->n;

			if (!key_is(&kv->key, t->f[i].key))
				continue;
			if (vals[i])
				return BAD(c, "duplicate key \"%s\"",
					   t->f[i].key);
			vals[i] = &kv->val;
			next = (uint32_t)(i + 1);
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
 * A sparse histogram: the scalars go through the table, the bucket bin is
 * done last because its checks need n.
 */
static int decode_hist(struct dctx *c, const msgpack_object *o,
		       struct hist_sparse *h)
{
	const msgpack_object *v[MAX_FIELDS];
	int rc;

	rc = collect(c, o, &schema_hist_tab, false, v);
	if (!rc)
		rc = decode_fields(c, &schema_hist_tab, v, (char *)h);
	if (rc)
		return rc;
	if (h->count && h->min > h->max)
		return BAD(c, "mn %" PRIu64 " above mx %" PRIu64, h->min,
			   h->max);
	at_key(c, schema_hist_tab.f[HIST_F_BIN].key);
	rc = histcodec_decode(c, v[HIST_F_BIN], h);
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
				return decode_fail(c, -ENOMEM, "out of memory");
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
	case F_HIST:
		rc = decode_hist(c, o, (struct hist_sparse *)p);
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
static int find_unique(struct dctx *c, const msgpack_object *o, const char *key,
		       const msgpack_object **out)
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

/*
 * For a frame of another protocol version: ", from lockstep VER" when it
 * is a hello with a "ver" string (every version so far sends one), so the
 * refusal names both versions; else "". Nothing else of it is trusted.
 */
static const char *peer_version(const msgpack_object *o, char *buf, size_t len)
{
	const msgpack_object *t = NULL, *ver = NULL;
	char text[PROTO_NAME_LEN];

	for (uint32_t k = 0; k < o->via.map.size; k++) {
		if (key_is(&o->via.map.ptr[k].key, "t"))
			t = &o->via.map.ptr[k].val;
		else if (key_is(&o->via.map.ptr[k].key, "ver"))
			ver = &o->via.map.ptr[k].val;
	}
	if (!t || !key_is(t, "hello") || !ver ||
	    ver->type != MSGPACK_OBJECT_STR || ver->via.str.size == 0)
		return "";
	printable(text, sizeof(text), ver->via.str.ptr, ver->via.str.size);
	snprintf(buf, len, ", from lockstep %s", text);
	return buf;
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
		return decode_fail(c, -EPROTO,
				   "protocol version %" PRIu64 " not supported "
				   "(this lockstep speaks %d)%s",
				   v->via.u64, PROTO_VERSION,
				   peer_version(o, why, sizeof(why)));

	rc = find_unique(c, o, "t", &t);
	if (rc)
		return rc;
	if (!t)
		return BAD(c, "missing key \"t\" (message type)");
	if (t->type != MSGPACK_OBJECT_STR)
		return BAD(c, "t: expected a string");
	for (type = PROTO_HELLO; type < PROTO_TYPE_MAX; type++)
		if (key_is(t, schema_type_names[type]))
			break;
	if (type == PROTO_TYPE_MAX) {
		printable(why, sizeof(why), t->via.str.ptr, t->via.str.size);
		return BAD(c, "unknown message type \"%s\"", why);
	}

	m->type = type;
	tab = schema_type_tabs[type];
	at_key(c, schema_type_names[type]);
	rc = collect(c, o, tab, true, vals);
	if (!rc)
		rc = decode_fields(c, tab, vals, (char *)&m->u);
	if (!rc && type == PROTO_PLAN &&
	    schema_plan_check(&m->u.plan, why, sizeof(why)))
		rc = BAD(c, "%s", why);
	if (!rc && type == PROTO_PHASE_END &&
	    schema_phase_end_check(&m->u.phase_end, why, sizeof(why)))
		rc = BAD(c, "%s", why);
	if (!rc && type == PROTO_INTERVAL &&
	    schema_interval_check(&m->u.interval, why, sizeof(why)))
		rc = BAD(c, "%s", why);
	if (!rc && type == PROTO_READY &&
	    schema_ready_check(&m->u.ready, why, sizeof(why)))
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
	rc = scan_frame(&c, buf, len);
	if (rc)
		return rc;

	msgpack_unpacked_init(&u);
	ur = msgpack_unpack_next(&u, buf, len, &off);
	if (ur == MSGPACK_UNPACK_NOMEM_ERROR)
		rc = decode_fail(&c, -ENOMEM, "out of memory");
	else if (ur != MSGPACK_UNPACK_SUCCESS || off != len)
		rc = BAD(&c, "malformed msgpack");
	else
		rc = decode_root(&c, &u.data, m);
	/* Decoded strings were copied: nothing points into the zone. */
	msgpack_unpacked_destroy(&u);
	if (rc) {
		/* What the receiver may answer: the type, a plan's phase. */
		enum proto_type type = m->type;
		uint32_t phase = type == PROTO_PLAN ? m->u.plan.phase : 0;

		proto_msg_free(m);
		memset(m, 0, sizeof(*m));
		m->type = type;
		if (type == PROTO_PLAN)
			m->u.plan.phase = phase;
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
		free(m->u.plan.fsds);
		m->u.plan.fsds = NULL;
		m->u.plan.nfsds = 0;
		free(m->u.plan.fwds);
		m->u.plan.fwds = NULL;
		m->u.plan.nfwds = 0;
		break;
	case PROTO_READY:
		free(m->u.ready.forced);
		m->u.ready.forced = NULL;
		m->u.ready.nforced = 0;
		free(m->u.ready.sizes);
		m->u.ready.sizes = NULL;
		m->u.ready.nsizes = 0;
		break;
	case PROTO_INTERVAL:
		free_hists(m->u.interval.lat);
		for (uint32_t i = 0;
		     m->u.interval.sds && i < m->u.interval.nsds; i++)
			hist_sparse_free(&m->u.interval.sds[i].lat);
		free(m->u.interval.sds);
		m->u.interval.sds = NULL;
		m->u.interval.nsds = 0;
		for (uint32_t i = 0;
		     m->u.interval.fsops && i < m->u.interval.nfsops; i++)
			hist_sparse_free(&m->u.interval.fsops[i].lat);
		free(m->u.interval.fsops);
		m->u.interval.fsops = NULL;
		m->u.interval.nfsops = 0;
		break;
	case PROTO_PHASE_END:
		free_hists(m->u.phase_end.lat);
		free(m->u.phase_end.val_sds);
		m->u.phase_end.val_sds = NULL;
		m->u.phase_end.nval_sds = 0;
		break;
	default:
		break;
	}
}
