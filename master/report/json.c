/*
 * A bounded recursive-descent JSON reader (RFC 8259) for the report's
 * inputs: depth at most JSON_DEPTH_MAX, strings decoded to UTF-8, numbers
 * kept as their validated text so that 64-bit integers (nanosecond times)
 * are written back exactly. Anything that is not JSON is an error with its
 * line and column; nothing is guessed.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "master/report/json.h"

struct parser {
	const char *p, *start, *end;
	char *err;
	size_t errlen;
	int nomem;
};

static int fail(struct parser *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct parser *ps, const char *fmt, ...)
{
	unsigned line = 1, col = 1;
	va_list ap;
	int n;

	if (ps->err[0])
		return -EINVAL;
	for (const char *q = ps->start; q < ps->p && q < ps->end; q++) {
		if (*q == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	n = snprintf(ps->err, ps->errlen, "line %u column %u: ", line, col);
	if (n < 0 || (size_t)n >= ps->errlen)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(ps->err + n, ps->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' ||
				   *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

static int hex4(struct parser *ps, unsigned *v)
{
	*v = 0;
	if (ps->end - ps->p < 4)
		return fail(ps, "short \\u escape");
	for (int i = 0; i < 4; i++) {
		char c = *ps->p++;

		*v <<= 4;
		if (c >= '0' && c <= '9')
			*v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*v |= (unsigned)(c - 'A' + 10);
		else {
			ps->p--; /* point at the offending character */
			return fail(ps, "bad \\u escape");
		}
	}
	return 0;
}

static size_t put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | (cp >> 12));
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | (cp >> 18));
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* A string at ps->p (its opening quote): *out is malloc'ed, NUL-ended. */
static int parse_string(struct parser *ps, char **out)
{
	const char *q = ++ps->p;
	size_t cap = 0;
	char *o;
	size_t n = 0;
	int ret;

	/* The decoded string is never longer than its text plus U+FFFD's. */
	while (q < ps->end && *q != '"') {
		if (*q == '\\' && q + 1 < ps->end)
			q++;
		q++;
	}
	if (q >= ps->end) {
		ps->p--; /* where the string began */
		return fail(ps, "unterminated string");
	}
	cap = (size_t)(q - ps->p) * 2 + 1;
	o = malloc(cap);
	if (!o) {
		ps->nomem = 1;
		return -ENOMEM;
	}
	while (*ps->p != '"') {
		unsigned char c = (unsigned char)*ps->p;
		unsigned cp, lo;

		if (c < 0x20) {
			ret = fail(ps, "control character in a string");
			goto err;
		}
		if (c != '\\') {
			o[n++] = (char)c;
			ps->p++;
			continue;
		}
		ps->p++;
		switch (*ps->p++) {
		case '"':
			o[n++] = '"';
			break;
		case '\\':
			o[n++] = '\\';
			break;
		case '/':
			o[n++] = '/';
			break;
		case 'b':
			o[n++] = '\b';
			break;
		case 'f':
			o[n++] = '\f';
			break;
		case 'n':
			o[n++] = '\n';
			break;
		case 'r':
			o[n++] = '\r';
			break;
		case 't':
			o[n++] = '\t';
			break;
		case 'u':
			ret = hex4(ps, &cp);
			if (ret < 0)
				goto err;
			if (cp >= 0xd800 && cp < 0xdc00 &&
			    ps->end - ps->p >= 6 && ps->p[0] == '\\' &&
			    ps->p[1] == 'u') {
				const char *back = ps->p;

				ps->p += 2;
				ret = hex4(ps, &lo);
				if (ret < 0)
					goto err;
				if (lo >= 0xdc00 && lo < 0xe000)
					cp = 0x10000 + ((cp - 0xd800) << 10) +
					     (lo - 0xdc00);
				else
					ps->p = back;
			}
			/* NUL would cut the C string; lone surrogates are
			   not text. */
			if (cp == 0 || (cp >= 0xd800 && cp < 0xe000))
				cp = 0xfffd;
			n += put_utf8(o + n, cp);
			break;
		default:
			ps->p--;
			ret = fail(ps, "bad escape in a string");
			goto err;
		}
	}
	ps->p++;
	o[n] = '\0';
	*out = o;
	return 0;
err:
	free(o);
	return ret;
}

static int parse_number(struct parser *ps, struct json *j)
{
	const char *b = ps->p;
	size_t len;

	if (ps->p < ps->end && *ps->p == '-')
		ps->p++;
	if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9')
		return fail(ps, "bad number");
	if (*ps->p == '0')
		ps->p++;
	else
		while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
			ps->p++;
	if (ps->p < ps->end && *ps->p == '.') {
		ps->p++;
		if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9')
			return fail(ps, "bad number");
		while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
			ps->p++;
	}
	if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
		ps->p++;
		if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-'))
			ps->p++;
		if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9')
			return fail(ps, "bad number");
		while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
			ps->p++;
	}
	len = (size_t)(ps->p - b);
	if (len > 400)
		return fail(ps, "number too long");
	j->s = strndup(b, len);
	if (!j->s) {
		ps->nomem = 1;
		return -ENOMEM;
	}
	j->type = JSON_NUM;
	return 0;
}

static int parse_value(struct parser *ps, struct json *j, int depth);

/* Items of an array or object: grow by doubling. */
static int grow(struct parser *ps, struct json *j, size_t *cap, int keys)
{
	size_t ncap = *cap ? *cap * 2 : 4;
	struct json *it;

	if (j->n < *cap)
		return 0;
	it = realloc(j->item, ncap * sizeof(*it));
	if (!it)
		goto nomem;
	j->item = it;
	if (keys) {
		char **k = realloc(j->key, ncap * sizeof(*k));

		if (!k)
			goto nomem;
		j->key = k;
	}
	*cap = ncap;
	return 0;
nomem:
	ps->nomem = 1;
	return -ENOMEM;
}

static int parse_container(struct parser *ps, struct json *j, int depth)
{
	int obj = *ps->p == '{';
	char close = obj ? '}' : ']';
	size_t cap = 0;
	int ret;

	if (depth >= JSON_DEPTH_MAX)
		return fail(ps, "nested deeper than %d", JSON_DEPTH_MAX);
	j->type = obj ? JSON_OBJ : JSON_ARR;
	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		return 0;
	}
	for (;;) {
		char *key = NULL;

		skip_ws(ps);
		if (obj) {
			if (ps->p >= ps->end || *ps->p != '"')
				return fail(ps, "expected a key");
			ret = parse_string(ps, &key);
			if (ret < 0)
				return ret;
			skip_ws(ps);
			if (ps->p >= ps->end || *ps->p != ':') {
				free(key);
				return fail(ps, "expected ':'");
			}
			ps->p++;
		}
		ret = grow(ps, j, &cap, obj);
		if (ret < 0) {
			free(key);
			return ret;
		}
		memset(&j->item[j->n], 0, sizeof(j->item[0]));
		if (obj)
			j->key[j->n] = key;
		j->n++;
		ret = parse_value(ps, &j->item[j->n - 1], depth + 1);
		if (ret < 0)
			return ret;
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == close) {
			ps->p++;
			return 0;
		}
		return fail(ps, "expected ',' or '%c'", close);
	}
}

static int literal(struct parser *ps, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0)
		return fail(ps, "unexpected character");
	ps->p += n;
	return 0;
}

static int parse_value(struct parser *ps, struct json *j, int depth)
{
	skip_ws(ps);
	if (ps->p >= ps->end)
		return fail(ps, "unexpected end");
	switch (*ps->p) {
	case '{':
	case '[':
		return parse_container(ps, j, depth);
	case '"':
		j->type = JSON_STR;
		return parse_string(ps, &j->s);
	case 't':
		j->type = JSON_BOOL;
		j->b = 1;
		return literal(ps, "true");
	case 'f':
		j->type = JSON_BOOL;
		return literal(ps, "false");
	case 'n':
		j->type = JSON_NULL;
		return literal(ps, "null");
	default:
		return parse_number(ps, j);
	}
}

static void free_inner(struct json *j)
{
	for (size_t i = 0; i < j->n; i++) {
		free_inner(&j->item[i]);
		if (j->key)
			free(j->key[i]);
	}
	free(j->item);
	free(j->key);
	free(j->s);
}

void json_free(struct json *j)
{
	if (!j)
		return;
	free_inner(j);
	free(j);
}

int json_parse(const char *text, size_t len, struct json **out, char *err,
	       size_t errlen)
{
	struct parser ps = { text, text, text + len, err, errlen, 0 };
	struct json *j = calloc(1, sizeof(*j));
	int ret;

	*out = NULL;
	if (errlen)
		err[0] = '\0';
	if (!j)
		return -ENOMEM;
	/* A UTF-8 byte-order mark is not JSON but is harmless. */
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		ps.p += 3;
	ret = parse_value(&ps, j, 0);
	if (ret == 0) {
		skip_ws(&ps);
		if (ps.p != ps.end)
			ret = fail(&ps, "text after the JSON value");
	}
	if (ret < 0 || ps.nomem) {
		json_free(j);
		return ps.nomem ? -ENOMEM : ret;
	}
	*out = j;
	return 0;
}

const struct json *json_get(const struct json *o, const char *key)
{
	if (!o || o->type != JSON_OBJ)
		return NULL;
	for (size_t i = 0; i < o->n; i++)
		if (strcmp(o->key[i], key) == 0)
			return &o->item[i];
	return NULL;
}

const char *json_str(const struct json *s)
{
	return s && s->type == JSON_STR ? s->s : NULL;
}

int json_num(const struct json *n, double *v)
{
	if (!n || n->type != JSON_NUM)
		return -EINVAL;
	*v = strtod(n->s, NULL);
	return 0;
}

static void write_num(struct jsonw *w, const char *key, const char *s)
{
	char *e;

	/* Integers that fit 64 bits stay exact (times in nanoseconds). */
	if (!strpbrk(s, ".eE")) {
		errno = 0;
		if (s[0] == '-') {
			long long v = strtoll(s, &e, 10);

			if (errno == 0 && *e == '\0') {
				jsonw_i64(w, key, v);
				return;
			}
		} else {
			unsigned long long v = strtoull(s, &e, 10);

			if (errno == 0 && *e == '\0') {
				jsonw_u64(w, key, v);
				return;
			}
		}
	}
	jsonw_dbl(w, key, strtod(s, NULL));
}

void json_write(struct jsonw *w, const char *key, const struct json *j)
{
	switch (j->type) {
	case JSON_NULL:
		/* jsonw writes null for a number that is not finite. */
		jsonw_dbl(w, key, (double)NAN);
		break;
	case JSON_BOOL:
		jsonw_bool(w, key, j->b);
		break;
	case JSON_NUM:
		write_num(w, key, j->s);
		break;
	case JSON_STR:
		jsonw_str(w, key, j->s);
		break;
	case JSON_ARR:
	case JSON_OBJ:
		if (j->type == JSON_ARR)
			jsonw_array(w, key);
		else
			jsonw_object(w, key);
		for (size_t i = 0; i < j->n; i++)
			json_write(w, j->type == JSON_OBJ ? j->key[i] : NULL,
				   &j->item[i]);
		jsonw_end(w);
		break;
	}
}
