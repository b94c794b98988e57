/*
 * The bucket codec of a sparse latency histogram: its bin "b" holds, per
 * non-zero bucket, the gap to the previous bucket index and the count, each
 * an unsigned LEB128 varint. This is the bulk of every interval message and
 * the master's hottest decoding loop, so it gets its own file: varints in
 * their shortest form only, so each histogram has exactly one encoding, and
 * the decoder makes hist_sparse_validate()'s checks on the way.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>

#include "proto/proto_int.h"

/* An unsigned LEB128 varint of 64 bits takes at most 10 bytes. */
#define VARINT_MAX 10

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
int histcodec_encode(msgpack_packer *pk, const struct hist_sparse *h)
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
 * The next varint: the common one- and two-byte cases here, the rest in
 * get_varint().
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
	/*
	 * Two bytes (128 to 16383: most counts of a busy bucket), in its
	 * shortest form (a second byte of 0 is not: get_varint() says so).
	 */
	if (len - at >= 2 && p[at + 1] - 1u < 0x7fu) {
		*out = (uint64_t)(p[at] & 0x7f) | (uint64_t)p[at + 1] << 7;
		*pos = at + 2;
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
int histcodec_decode(struct dctx *c, const msgpack_object *o,
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
			return decode_fail(c, -ENOMEM, "out of memory");
	}

	while (pos < len) {
		const char *why;
		uint64_t d, cnt;
		size_t at;

		/*
		 * The fast path: a one-byte gap and a count of one or two
		 * bytes, well inside the bin (so the last bucket always
		 * takes the careful path below, as does anything unusual,
		 * which then says what is wrong). No n == cap test: each
		 * bucket here takes 2 bytes or more with 3 left, and the
		 * indexes increase below HIST_BUCKETS, so n stays below
		 * both bounds of cap.
		 */
		while (len - pos >= 3) {
			uint64_t g = p[pos], c0 = p[pos + 1], c1, idx, sum;

			if (g >= 0x80)
				break;
			idx = bucket + g;
			/* The first index may be 0; later gaps must not be. */
			if ((n > 0 && g == 0) || idx >= HIST_BUCKETS)
				break;
			if (c0 == 0)
				break;
			if (c0 < 0x80) {
				cnt = c0;
				pos += 2;
			} else {
				c1 = p[pos + 2];
				if (c1 - 1u >= 0x7fu)
					break; /* longer, or not shortest */
				cnt = (c0 & 0x7f) | c1 << 7;
				pos += 3;
			}
			if (__builtin_add_overflow(total, cnt, &sum)) {
				pos -= c0 < 0x80 ? 2 : 3;
				break; /* the careful path says so */
			}
			total = sum;
			h->idx[n] = (uint32_t)idx;
			h->cnt[n] = cnt;
			bucket = idx;
			n++;
		}
		if (pos == len)
			break;
		at = pos;
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
