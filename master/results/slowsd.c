/*
 * The slow sd test (see slowsd.h): the parts sorted by sd (counting sort,
 * stable), each sd's parts side by side as one slowhost_in, and the slow
 * host test over the sds.
 */
#include <errno.h>
#include <stdlib.h>
#include "master/results/slowsd.h"

struct slowsd_work {
	size_t max;
	struct slowhost_work *hw;
	struct slowhost_in *in;     /* max: one per sd judged */
	size_t *at;                 /* max: where each sd's parts end, sorted */
	double *threads;            /* max: each sd's parts' threads */
	struct hist_sparse *sorted; /* the parts' histograms, by sd */
	size_t cap;
};

struct slowsd_work *slowsd_work_new(size_t max_sds)
{
	struct slowsd_work *w = calloc(1, sizeof(*w));
	size_t m = max_sds ? max_sds : 1;

	if (!w)
		return NULL;
	w->max = max_sds;
	w->hw = slowhost_work_new(max_sds);
	w->in = calloc(m, sizeof(*w->in));
	w->at = calloc(m, sizeof(*w->at));
	w->threads = calloc(m, sizeof(*w->threads));
	if (!w->hw || !w->in || !w->at || !w->threads) {
		slowsd_work_free(w);
		return NULL;
	}
	return w;
}

void slowsd_work_free(struct slowsd_work *w)
{
	if (!w)
		return;
	slowhost_work_free(w->hw);
	free(w->in);
	free(w->at);
	free(w->threads);
	free(w->sorted);
	free(w);
}

int slowsd_judge(struct slowsd_work *w, const struct slowsd_part *parts,
		 size_t n, double alpha, unsigned *sd, struct slowhost_out *out,
		 size_t *nsd)
{
	size_t k = 0, start = 0, sum = 0;

	*nsd = 0;
	for (size_t i = 0; i < n; i++)
		if (parts[i].sd >= w->max)
			return -EINVAL;
	if (n > w->cap) {
		struct hist_sparse *s = realloc(w->sorted, n * sizeof(*s));

		if (!s)
			return -ENOMEM;
		w->sorted = s;
		w->cap = n;
	}
	/* Counting sort: at[s] counts, then is where sd s's parts start. */
	for (size_t s = 0; s < w->max; s++) {
		w->at[s] = 0;
		w->threads[s] = 0;
	}
	for (size_t i = 0; i < n; i++) {
		w->at[parts[i].sd]++;
		if (parts[i].threads > 0)
			w->threads[parts[i].sd] += parts[i].threads;
	}
	for (size_t s = 0; s < w->max; s++) {
		size_t c = w->at[s];

		w->at[s] = sum;
		sum += c;
	}
	/* Each part in its place, in the order given: at[s] ends past. */
	for (size_t i = 0; i < n; i++)
		w->sorted[w->at[parts[i].sd]++] = *parts[i].lat;
	for (size_t s = 0; s < w->max; s++) {
		size_t end = w->at[s];

		if (end == start)
			continue;
		sd[k] = (unsigned)s;
		w->in[k].lat = &w->sorted[start];
		w->in[k].nlat = (unsigned)(end - start);
		w->in[k].weight = w->threads[s];
		k++;
		start = end;
	}
	*nsd = k;
	return slowhost_judge(w->hw, w->in, k, alpha, out);
}
