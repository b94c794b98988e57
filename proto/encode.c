/*
 * The encoder: a struct of proto.h becomes one msgpack map by walking the
 * message type's field table (schema.c). Everything is checked before it
 * goes out (strings terminated, counts within their limits, numbers in
 * range, histograms valid), so a peer never receives what its decoder
 * would refuse.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "proto/proto_int.h"

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
static int encode_hist(msgpack_packer *pk, const struct hist_sparse *h)
{
	if (hist_sparse_validate(h))
		return -EINVAL;
	return encode_struct(pk, &schema_hist_tab, (const char *)h);
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
	case F_HIST:
		return encode_hist(pk, (const struct hist_sparse *)p);
	case F_HIST_BIN:
		return histcodec_encode(pk, (const struct hist_sparse *)p);
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
	t = schema_type_tabs[m->type];
	if (m->type == PROTO_PLAN &&
	    schema_plan_check(&m->u.plan, why, sizeof(why)))
		return -EINVAL;
	if (m->type == PROTO_PHASE_END &&
	    schema_phase_end_check(&m->u.phase_end, why, sizeof(why)))
		return -EINVAL;
	if (m->type == PROTO_INTERVAL &&
	    schema_interval_check(&m->u.interval, why, sizeof(why)))
		return -EINVAL;
	if (m->type == PROTO_READY &&
	    schema_ready_check(&m->u.ready, why, sizeof(why)))
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
