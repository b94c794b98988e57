/*
 * The decoder's refusals: where in the message it is (struct dctx's path
 * of keys and indexes) formatted in front of the reason. Its own file
 * because every layer of the decoder reports through it (decode.c, the
 * scanner in scan.c, the histogram codec in histcodec.c) while decode.c
 * calls into those layers: kept in decode.c, each pair would call each
 * other.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "proto/proto_int.h"

/* "plan.st[2].x[0].pc" */
static size_t format_path(const struct dctx *c, char *dst, size_t len)
{
	unsigned n = c->depth < PATH_DEPTH ? c->depth : PATH_DEPTH;
	size_t off = 0;

	for (unsigned i = 0; i < n && off < len; i++) {
		int k;

		if (c->path[i].key)
			k = snprintf(dst + off, len - off, "%s%s", i ? "." : "",
				     c->path[i].key);
		else
			k = snprintf(dst + off, len - off, "[%" PRIu32 "]",
				     c->path[i].idx);
		if (k < 0)
			break;
		off += (size_t)k;
	}
	return off;
}

int decode_fail(struct dctx *c, int rc, const char *fmt, ...)
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
