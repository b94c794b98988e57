/*
 * The telemetry's series table (see tseries.h): open addressing on an
 * FNV-1a hash of the three names, so that a file of millions of rows and
 * thousands of series is read in one pass. Rows come in interval order;
 * one out of order (a late row) is looked for from the end.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "common/jsonw.h"
#include "master/report/tseries.h"

void tstable_init(struct tstable *t, size_t nv, size_t max)
{
	memset(t, 0, sizeof(*t));
	t->nv = nv;
	t->max = max;
}

void tseries_free(struct tseries *s)
{
	free(s->run);
	free(s->a);
	free(s->b);
	free(s->t);
	free(s->seq);
	free(s->warm);
	free(s->v);
}

void tstable_free(struct tstable *t)
{
	for (size_t i = 0; i < t->n; i++)
		tseries_free(&t->s[i]);
	free(t->s);
	free(t->slot);
	tstable_init(t, t->nv, t->max);
}

static uint64_t hash3(const char *run, const char *a, const char *b)
{
	const char *p[3] = { run, a, b };
	uint64_t h = 14695981039346656037ull;

	for (int k = 0; k < 3; k++) {
		for (const unsigned char *c = (const unsigned char *)p[k]; *c;
		     c++)
			h = (h ^ *c) * 1099511628211ull;
		h = (h ^ 0xff) * 1099511628211ull; /* between the names */
	}
	return h;
}

static int same(const struct tseries *s, const char *run, const char *a,
		const char *b)
{
	return !strcmp(s->run, run) && !strcmp(s->a, a) && !strcmp(s->b, b);
}

/* Twice the table's size in slots, every series placed again. */
static int rehash(struct tstable *t)
{
	size_t n = t->nslot ? t->nslot * 2 : 64;
	size_t *slot = calloc(n, sizeof(*slot));

	if (!slot)
		return -ENOMEM;
	for (size_t i = 0; i < t->n; i++) {
		const struct tseries *s = &t->s[i];
		size_t h = (size_t)hash3(s->run, s->a, s->b) & (n - 1);

		while (slot[h])
			h = (h + 1) & (n - 1);
		slot[h] = i + 1;
	}
	free(t->slot);
	t->slot = slot;
	t->nslot = n;
	return 0;
}

int tstable_get(struct tstable *t, const char *run, const char *a,
		const char *b, uint64_t t0, struct tseries **out)
{
	struct tseries *s;
	size_t h;

	if ((t->n + 1) * 2 > t->nslot && rehash(t) < 0)
		return -ENOMEM;
	h = (size_t)hash3(run, a, b) & (t->nslot - 1);
	for (; t->slot[h]; h = (h + 1) & (t->nslot - 1)) {
		if (same(&t->s[t->slot[h] - 1], run, a, b)) {
			*out = &t->s[t->slot[h] - 1];
			return 0;
		}
	}
	if (t->n == t->max)
		return -ENOSPC;
	if (t->n == t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 16;

		s = realloc(t->s, ncap * sizeof(*s));
		if (!s)
			return -ENOMEM;
		t->s = s;
		t->cap = ncap;
	}
	s = &t->s[t->n];
	memset(s, 0, sizeof(*s));
	s->run = strdup(run);
	s->a = strdup(a);
	s->b = strdup(b);
	if (!s->run || !s->a || !s->b) {
		free(s->run);
		free(s->a);
		free(s->b);
		return -ENOMEM;
	}
	s->t0 = t0;
	t->slot[h] = ++t->n;
	*out = s;
	return 0;
}

static int grow(struct tseries *s, size_t nv)
{
	size_t ncap = s->cap ? s->cap * 2 : 64;
	double *t2, *v2;
	uint64_t *q2;
	unsigned char *w2;

	t2 = realloc(s->t, ncap * sizeof(*t2));
	if (!t2)
		return -ENOMEM;
	s->t = t2;
	q2 = realloc(s->seq, ncap * sizeof(*q2));
	if (!q2)
		return -ENOMEM;
	s->seq = q2;
	w2 = realloc(s->warm, ncap);
	if (!w2)
		return -ENOMEM;
	s->warm = w2;
	v2 = realloc(s->v, ncap * (nv ? nv : 1) * sizeof(*v2));
	if (!v2)
		return -ENOMEM;
	s->v = v2;
	s->cap = ncap;
	return 0;
}

int tseries_append(struct tseries *s, size_t nv, uint64_t seq, double tsec,
		   int warm, double **row)
{
	if (s->n == s->cap && grow(s, nv) < 0)
		return -ENOMEM;
	s->t[s->n] = tsec;
	s->seq[s->n] = seq;
	s->warm[s->n] = (unsigned char)!!warm;
	*row = &s->v[s->n * nv];
	for (size_t k = 0; k < nv; k++)
		(*row)[k] = NAN;
	if (seq > s->last_seq)
		s->last_seq = seq;
	s->n++;
	return 0;
}

int tseries_row(struct tseries *s, size_t nv, uint64_t seq, double tsec,
		int warm, double **row, int *found)
{
	/* A later interval than any is new; an earlier one is looked for. */
	if (seq <= s->last_seq) {
		for (size_t i = s->n; i-- > 0;) {
			if (s->seq[i] == seq) {
				*row = &s->v[i * nv];
				*found = 1;
				return 0;
			}
		}
	}
	*found = 0;
	return tseries_append(s, nv, seq, tsec, warm, row);
}

struct order {
	double t;
	uint64_t seq;
	size_t i;
};

static int cmp_order(const void *pa, const void *pb)
{
	const struct order *a = pa, *b = pb;

	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	if (a->seq != b->seq)
		return a->seq < b->seq ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

int tseries_sort(struct tseries *s, size_t nv)
{
	struct order *o;
	double *v2;
	unsigned char *w2;
	int sorted = 1;

	for (size_t i = 1; i < s->n && sorted; i++)
		sorted = s->t[i - 1] < s->t[i] ||
			 (s->t[i - 1] == s->t[i] && s->seq[i - 1] <= s->seq[i]);
	if (sorted)
		return 0;
	o = malloc(s->n * sizeof(*o));
	v2 = malloc(s->n * (nv ? nv : 1) * sizeof(*v2));
	w2 = malloc(s->n);
	if (!o || !v2 || !w2) {
		free(o);
		free(v2);
		free(w2);
		return -ENOMEM;
	}
	for (size_t i = 0; i < s->n; i++)
		o[i] = (struct order){ s->t[i], s->seq[i], i };
	qsort(o, s->n, sizeof(*o), cmp_order);
	for (size_t i = 0; i < s->n; i++) {
		memcpy(&v2[i * nv], &s->v[o[i].i * nv], nv * sizeof(*v2));
		w2[i] = s->warm[o[i].i];
		s->t[i] = o[i].t;
		s->seq[i] = o[i].seq;
	}
	free(s->v);
	free(s->warm);
	s->v = v2;
	s->warm = w2;
	free(o);
	return 0;
}

int tstable_sort(struct tstable *t)
{
	int ret = 0;

	for (size_t i = 0; ret == 0 && i < t->n; i++)
		ret = tseries_sort(&t->s[i], t->nv);
	return ret;
}

int tstable_run_seen(const struct tstable *t, size_t i, const char *run)
{
	for (size_t k = 0; k < i; k++)
		if (!strcmp(t->s[k].run, run))
			return 1;
	return 0;
}

void tseries_write(struct jsonw *w, const struct tseries *s, size_t nv,
		   const char *const *names, const size_t *k, size_t n)
{
	jsonw_array(w, "t");
	for (size_t i = 0; i < s->n; i++)
		jsonw_dbl(w, NULL, s->t[i]);
	jsonw_end(w);
	jsonw_array(w, "warmup");
	for (size_t i = 0; i < s->n; i++)
		jsonw_u64(w, NULL, s->warm[i]);
	jsonw_end(w);
	for (size_t j = 0; j < n; j++) {
		jsonw_array(w, names[j]);
		for (size_t i = 0; i < s->n; i++)
			jsonw_dbl(w, NULL, s->v[i * nv + (k ? k[j] : j)]);
		jsonw_end(w);
	}
}
