/*
 * Vdbench compatibility: what happens to a Vdbench keyword lockstep does
 * not implement (a warning where skipping it cannot change what is
 * measured, an error otherwise, with the reason from its table row), and to
 * a keyword nobody knows (an error with the nearest known keyword as a
 * suggestion, by Levenshtein distance).
 */
#include "master/params/params_int.h"

#include <ctype.h>
#include <stdint.h>
#include <string.h>

/* ---- keywords lockstep skips ------------------------------------------ */

/*
 * A Vdbench keyword lockstep does not implement and whose absence cannot
 * change what is measured: a warning, and the parse goes on.
 */
int compat_set_ignored(struct parser *p, const struct kw *kw, void *obj,
		       const struct item *it)
{
	(void)obj;
	return diag_warn(p, it->kpos, "%s= is ignored: %s", kw->name, kw->why);
}

/*
 * A Vdbench keyword lockstep does not implement and whose absence would
 * change what is measured: an error, unless the value is the harmless one.
 */
int compat_set_unsupported(struct parser *p, const struct kw *kw, void *obj,
			   const struct item *it)
{
	if (values_all_are(it, kw->harmless))
		return compat_set_ignored(p, kw, obj, it);
	return perr(p, it->kpos, "%s= is not supported: %s", kw->name,
		    kw->why);
}

/* ---- unknown keywords ------------------------------------------------- */

#define EDIT_MAX 32

/* Case-insensitive Levenshtein distance; long words count as far. */
static size_t edit_distance(const char *a, size_t alen, const char *b)
{
	size_t blen = strlen(b), row[EDIT_MAX + 1];

	if (alen > EDIT_MAX || blen > EDIT_MAX)
		return SIZE_MAX;
	for (size_t j = 0; j <= blen; j++)
		row[j] = j;
	for (size_t i = 1; i <= alen; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= blen; j++) {
			size_t up = row[j];
			size_t cost = tolower((unsigned char)a[i - 1]) !=
				      tolower((unsigned char)b[j - 1]);
			size_t best = diag + cost;

			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[blen];
}

static void suggest_from(const struct item *it, const char *cand,
			 const char **best, size_t *bestd)
{
	size_t d = edit_distance(it->key, it->keylen, cand);

	if (d < *bestd) {
		*best = cand;
		*bestd = d;
	}
}

int compat_unknown(struct parser *p, const struct kind_desc *kinds, enum kind k,
		   const struct item *it)
{
	const char *best = NULL;
	size_t bestd = SIZE_MAX;

	if (key_is(it, "rg"))
		return perr(p, it->kpos,
			    "rg= is not supported: Swat replay is not supported");

	for (size_t i = 0; i < kinds[k].nkw; i++)
		suggest_from(it, kinds[k].kws[i].name, &best, &bestd);
	suggest_from(it, "include", &best, &bestd);
	/* Before any definition a misspelt sd= is likelier than anything. */
	for (int s = KIND_HD; k == KIND_GENERAL && s < KIND_NR; s++)
		suggest_from(it, kinds[s].name, &best, &bestd);
	if (best && bestd <= 2 && bestd < it->keylen)
		return perr(p, it->kpos,
			    "unknown %s parameter '%.*s' (did you mean '%s'?)",
			    kinds[k].name, show(it->keylen), it->key, best);
	return perr(p, it->kpos, "unknown %s parameter '%.*s'", kinds[k].name,
		    show(it->keylen), it->key);
}
