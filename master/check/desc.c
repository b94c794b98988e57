/*
 * The description `lockstep check` prints, kept as a list of items (see
 * desc.h) and rendered as text or as JSON from the same list.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/jsonw.h"
#include "master/check/desc.h"

static struct item *add(struct desc *d, enum item_kind kind, const char *key)
{
	struct item *it;

	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 256;
		struct item *p = realloc(d->it, cap * sizeof(*p));

		if (!p) {
			d->nomem = 1;
			return NULL;
		}
		d->it = p;
		d->cap = cap;
	}
	it = &d->it[d->n++];
	memset(it, 0, sizeof(*it));
	it->kind = kind;
	it->key = key;
	return it;
}

/* Give the last item its text, or (alone) add a text-only item. */
void desc_text(struct desc *d, int alone, const char *fmt, ...)
{
	struct item *it = alone ? add(d, ITEM_TEXT, NULL) :
			  d->n  ? &d->it[d->n - 1] :
				  NULL;
	va_list ap;

	if (!it)
		return;
	va_start(ap, fmt);
	if (vasprintf(&it->text, fmt, ap) < 0) {
		it->text = NULL;
		d->nomem = 1;
	}
	va_end(ap);
}

void desc_text_drop(struct desc *d, size_t mark)
{
	for (size_t i = mark; i < d->n; i++) {
		free(d->it[i].text);
		d->it[i].text = NULL;
	}
}

void desc_str(struct desc *d, const char *key, const char *v)
{
	struct item *it = add(d, ITEM_STR, key);

	if (it)
		it->v.s = v;
}

void desc_str_copy(struct desc *d, const char *key, const char *v)
{
	struct item *it = add(d, ITEM_STR, key);

	if (!it)
		return;
	it->own = strdup(v);
	if (!it->own)
		d->nomem = 1;
	it->v.s = it->own ? it->own : "";
}

void desc_u64(struct desc *d, const char *key, uint64_t v)
{
	struct item *it = add(d, ITEM_U64, key);

	if (it)
		it->v.u = v;
}

void desc_dbl(struct desc *d, const char *key, double v)
{
	struct item *it = add(d, ITEM_DBL, key);

	if (it)
		it->v.d = v;
}

void desc_boolean(struct desc *d, const char *key, int v)
{
	struct item *it = add(d, ITEM_BOOL, key);

	if (it)
		it->v.b = v;
}

void desc_object(struct desc *d, const char *key)
{
	add(d, ITEM_OBJECT, key);
}

void desc_array(struct desc *d, const char *key)
{
	add(d, ITEM_ARRAY, key);
}

void desc_end(struct desc *d)
{
	add(d, ITEM_END, NULL);
}

void desc_free(struct desc *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->it[i].text);
		free(d->it[i].own);
	}
	free(d->it);
	memset(d, 0, sizeof(*d));
}

/* ---- the two renderings ------------------------------------------------ */

void desc_render_text(const struct desc *d, FILE *f)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->it[i].text)
			fputs(d->it[i].text, f);
}

void desc_render_json(const struct desc *d, FILE *f)
{
	struct jsonw w;

	jsonw_init(&w, f);
	for (size_t i = 0; i < d->n; i++) {
		const struct item *it = &d->it[i];

		switch (it->kind) {
		case ITEM_TEXT:
			break;
		case ITEM_OBJECT:
			jsonw_object(&w, it->key);
			break;
		case ITEM_ARRAY:
			jsonw_array(&w, it->key);
			break;
		case ITEM_END:
			jsonw_end(&w);
			break;
		case ITEM_STR:
			jsonw_str(&w, it->key, it->v.s);
			break;
		case ITEM_U64:
			jsonw_u64(&w, it->key, it->v.u);
			break;
		case ITEM_DBL:
			jsonw_dbl(&w, it->key, it->v.d);
			break;
		case ITEM_BOOL:
			jsonw_bool(&w, it->key, it->v.b);
			break;
		}
	}
	jsonw_finish(&w);
}
