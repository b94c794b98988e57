/* The heat map's quarter-octave buckets (latmap.h). */
#include "common/latmap.h"

unsigned latmap_bucket(uint64_t v)
{
	unsigned k;

	if (v < 4)
		return (unsigned)v;
	k = 63u - (unsigned)__builtin_clzll(v); /* 2..63 */
	return 4 * (k - 1) + (unsigned)((v >> (k - 2)) & 3);
}

uint64_t latmap_lo(unsigned q)
{
	if (q < 4)
		return q;
	if (q >= LATMAP_BUCKETS)
		q = LATMAP_BUCKETS - 1;
	return (uint64_t)(4 + q % 4) << (q / 4 - 1);
}

uint64_t latmap_hi(unsigned q)
{
	if (q < 4)
		return q + 1;
	if (q >= LATMAP_BUCKETS - 1)
		return UINT64_MAX;
	return latmap_lo(q + 1);
}

void latmap_add(uint64_t *out, const struct hist *h)
{
	if (!h->count)
		return;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		if (h->buckets[i])
			out[latmap_bucket(hist_bucket_lo(i))] += h->buckets[i];
}

void latmap_add_sparse(uint64_t *out, const struct hist_sparse *h)
{
	for (size_t i = 0; i < h->n; i++)
		out[latmap_bucket(hist_bucket_lo(h->idx[i]))] += h->cnt[i];
}
