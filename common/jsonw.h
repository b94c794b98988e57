/*
 * A small streaming JSON writer: keys and values are written straight to a
 * FILE with commas, indentation and string escaping handled here, so the
 * results files and `check --json` never build JSON by hand.
 */
#ifndef LOCKSTEP_COMMON_JSONW_H
#define LOCKSTEP_COMMON_JSONW_H

#include <stdint.h>
#include <stdio.h>

#define JSONW_DEPTH 32

struct jsonw {
	FILE *f;
	int depth;
	int count[JSONW_DEPTH];  /* items written at each depth */
	char close[JSONW_DEPTH]; /* '}' or ']' that ends each depth */
};

void jsonw_init(struct jsonw *w, FILE *f);
/* key is NULL inside arrays and for the top-level value. */
void jsonw_object(struct jsonw *w, const char *key);
void jsonw_array(struct jsonw *w, const char *key);
void jsonw_end(struct jsonw *w); /* closes the innermost object/array */
void jsonw_str(struct jsonw *w, const char *key, const char *v);
void jsonw_u64(struct jsonw *w, const char *key, uint64_t v);
void jsonw_i64(struct jsonw *w, const char *key, int64_t v);
/* Finite doubles with up to 6 significant decimals; NaN/inf as null. */
void jsonw_dbl(struct jsonw *w, const char *key, double v);
void jsonw_bool(struct jsonw *w, const char *key, int v);
/*
 * Finish the document (a trailing newline) and flush it. Returns 0, or
 * -errno when anything written to the FILE failed (the stream's error
 * flag is sticky, so one check here covers every item).
 */
int jsonw_finish(struct jsonw *w);

#endif
