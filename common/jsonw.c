/*
 * Streaming JSON writer. See jsonw.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/jsonw.h"

void jsonw_init(struct jsonw *w, FILE *f)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
}

static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

/* Comma, newline and indentation before an item, then its key. */
static void item(struct jsonw *w, const char *key)
{
	if (w->depth > 0) {
		if (w->count[w->depth]++)
			fputc(',', w->f);
		fputc('\n', w->f);
		for (int i = 0; i < w->depth; i++)
			fputs("  ", w->f);
	}
	if (key) {
		put_string(w->f, key);
		fputs(": ", w->f);
	}
}

static void open_(struct jsonw *w, const char *key, char c)
{
	item(w, key);
	fputc(c, w->f);
	if (w->depth + 1 < JSONW_DEPTH)
		w->depth++;
	w->count[w->depth] = 0;
	w->close[w->depth] = c == '{' ? '}' : ']';
}

void jsonw_object(struct jsonw *w, const char *key)
{
	open_(w, key, '{');
}

void jsonw_array(struct jsonw *w, const char *key)
{
	open_(w, key, '[');
}

void jsonw_end(struct jsonw *w)
{
	int had = w->count[w->depth];
	char c = w->close[w->depth];

	if (w->depth == 0)
		return;
	w->depth--;
	if (had) {
		fputc('\n', w->f);
		for (int i = 0; i < w->depth; i++)
			fputs("  ", w->f);
	}
	fputc(c, w->f);
}

void jsonw_str(struct jsonw *w, const char *key, const char *v)
{
	item(w, key);
	put_string(w->f, v ? v : "");
}

void jsonw_u64(struct jsonw *w, const char *key, uint64_t v)
{
	item(w, key);
	fprintf(w->f, "%llu", (unsigned long long)v);
}

void jsonw_i64(struct jsonw *w, const char *key, int64_t v)
{
	item(w, key);
	fprintf(w->f, "%lld", (long long)v);
}

/*
 * The shortest of 15 or 17 significant digits that reads back as exactly
 * v: results are read by programs, and 6 digits turned 1234567 IOPS into
 * 1.23457e+06 and a 1240.828 ms maximum into 1240.83.
 */
void jsonw_dbl(struct jsonw *w, const char *key, double v)
{
	char buf[40];

	item(w, key);
	if (!isfinite(v)) {
		fputs("null", w->f);
		return;
	}
	snprintf(buf, sizeof(buf), "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, sizeof(buf), "%.17g", v);
	fputs(buf, w->f);
}

void jsonw_bool(struct jsonw *w, const char *key, int v)
{
	item(w, key);
	fputs(v ? "true" : "false", w->f);
}

int jsonw_finish(struct jsonw *w)
{
	fputc('\n', w->f);
	if (fflush(w->f) != 0)
		return -errno;
	return ferror(w->f) ? -EIO : 0;
}
