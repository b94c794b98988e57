/*
 * The description `lockstep check` prints (check.c): a list of items, each
 * a JSON value, text, or both, walked once for the text and once for
 * --json. check.c and its helpers build it; nothing else includes this.
 */
#ifndef LOCKSTEP_MASTER_CHECK_DESC_H
#define LOCKSTEP_MASTER_CHECK_DESC_H

#include <stdint.h>
#include <stdio.h>

/*
 * The plan is described once, as a list of items, and both outputs walk
 * that list: the JSON document takes each item's key and typed value (and
 * the object and array structure), the text takes each item's text. An
 * item can carry both (a value and how the text shows it, e.g. the size
 * 268435456 and " size=256m"), only a value (JSON-only detail such as
 * intervals=) or only text (the text's punctuation). The text and JSON
 * orders of a value may differ; it is then two items.
 */
enum item_kind {
	ITEM_TEXT,   /* text only */
	ITEM_OBJECT, /* starts a JSON object */
	ITEM_ARRAY,  /* starts a JSON array */
	ITEM_END,    /* ends the innermost object or array */
	ITEM_STR,
	ITEM_U64,
	ITEM_DBL,
	ITEM_BOOL,
};

struct item {
	enum item_kind kind;
	const char *key; /* JSON key; NULL inside arrays (not owned) */
	union {
		const char *s; /* not owned: the params or a literal */
		uint64_t u;
		double d;
		int b;
	} v;
	char *text; /* malloc'd; NULL: nothing in the text */
	char *own;  /* malloc'd copy v.s points at (desc_str_copy); or NULL */
};

struct desc {
	struct item *it;
	size_t n, cap;
	int nomem;
};

/*
 * Give the last item its text (alone 0), or add a text-only item (alone
 * 1). The item's strings are not owned: they live as long as the params.
 */
__attribute__((format(printf, 3, 4))) void desc_text(struct desc *d, int alone,
						     const char *fmt, ...);
/*
 * Drop the text of every item from index mark on (d->n before they were
 * added), keeping the items: what the JSON has and the text must not show.
 */
void desc_text_drop(struct desc *d, size_t mark);
/* The text of the item just added. */
#define SHOWN(d, ...) desc_text(d, 0, __VA_ARGS__)
/* Text alone. */
#define TEXT(d, ...) desc_text(d, 1, __VA_ARGS__)

/* Typed values under key (NULL inside arrays). */
void desc_str(struct desc *d, const char *key, const char *v);
/* desc_str of a string that does not live as long as the params. */
void desc_str_copy(struct desc *d, const char *key, const char *v);
void desc_u64(struct desc *d, const char *key, uint64_t v);
void desc_dbl(struct desc *d, const char *key, double v);
void desc_boolean(struct desc *d, const char *key, int v);
/* Open a JSON object or array under key; desc_end closes the innermost. */
void desc_object(struct desc *d, const char *key);
void desc_array(struct desc *d, const char *key);
void desc_end(struct desc *d);
/* Free the items (and their text); d is empty after. */
void desc_free(struct desc *d);
/* The text of every item, or the JSON document, into f. */
void desc_render_text(const struct desc *d, FILE *f);
void desc_render_json(const struct desc *d, FILE *f);

#endif
