/*
 * The structural pre-scan of a frame, run before msgpack-c builds its
 * object tree: it refuses a frame that is not exactly one well-formed
 * object, that nests too deep, or whose container counts exceed what the
 * remaining bytes could hold, so a four-byte frame cannot make the
 * unpacker allocate gigabytes.
 */
#include <stdint.h>

#include "proto/proto_int.h"

/* Deeper than any message needs; bounds the pre-scan's recursion. */
#define SCAN_MAX_DEPTH 16

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

int scan_frame(struct dctx *c, const void *buf, size_t len)
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
