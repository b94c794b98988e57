/*
 * A small, bounded JSON reader for the HTML report: it turns a results
 * folder's summary.json (or compare.json) into a tree that the report can
 * look into and write back through jsonw, so that nothing of a hostile
 * file reaches the page without being parsed and escaped again.
 */
#ifndef LOCKSTEP_MASTER_REPORT_JSON_H
#define LOCKSTEP_MASTER_REPORT_JSON_H

#include <stddef.h>
#include <stdint.h>
#include "common/jsonw.h"

/* Deepest nesting accepted (jsonw can write JSONW_DEPTH levels). */
#define JSON_DEPTH_MAX 16

enum json_type {
	JSON_NULL,
	JSON_BOOL,
	JSON_NUM,
	JSON_STR,
	JSON_ARR,
	JSON_OBJ,
};

struct json {
	enum json_type type;
	int b;             /* JSON_BOOL */
	char *s;           /* JSON_STR: UTF-8, no NUL inside; JSON_NUM: the
			      number's text as written (validated) */
	size_t n;          /* JSON_ARR, JSON_OBJ: items */
	struct json *item; /* JSON_ARR, JSON_OBJ: n items */
	char **key;        /* JSON_OBJ: n keys */
};

/*
 * Parse len bytes of text into *out (owned by the caller, json_free()).
 * Returns 0, -ENOMEM, or -EINVAL with a message "line L column C: why" in
 * err. A \u0000 or an unpaired surrogate becomes U+FFFD.
 */
int json_parse(const char *text, size_t len, struct json **out, char *err,
	       size_t errlen);
void json_free(struct json *j);
/* The member key of object o, or NULL (o may be NULL or not an object). */
const struct json *json_get(const struct json *o, const char *key);
/* The string of s, or NULL when s is not a string. */
const char *json_str(const struct json *s);
/* The value of a number n as a double in *v: 0, or -EINVAL. */
int json_num(const struct json *n, double *v);
/* Write j (under key, NULL in an array) with w; integers stay exact. */
void json_write(struct jsonw *w, const char *key, const struct json *j);

#endif
