/*
 * Vdbench's sd concatenation: an offset of the concatenated space to an
 * sd and an offset in it. See concat.h.
 */
#include <errno.h>
#include <stdio.h>
#include "slave/concat.h"

unsigned concat_ends(const uint64_t *size, unsigned n, uint32_t min_len,
		     uint64_t *end)
{
	uint64_t at = 0;
	unsigned small = n;

	for (unsigned i = 0; i < n; i++) {
		at += size[i];
		end[i] = at;
		if (small == n && size[i] < min_len)
			small = i;
	}
	return small;
}

int concat_map(const uint64_t *end, unsigned n, uint64_t off, uint32_t len,
	       unsigned *sd, uint64_t *sdoff)
{
	unsigned lo = 0, hi = n - 1;

	/* The first sd whose end is past off. */
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (end[mid] > off)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (off + len > end[lo]) {
		lo = lo + 1 < n ? lo + 1 : 0;
		*sd = lo;
		*sdoff = 0;
		return 1;
	}
	*sd = lo;
	*sdoff = off - (lo ? end[lo - 1] : 0);
	return 0;
}

int concat_layout(const struct proto_plan *plan, const struct proto_stream *ps,
		  const uint64_t *target_size, uint32_t min_len, unsigned *cat,
		  uint64_t *end, char *err, size_t errlen)
{
	uint64_t size[PROTO_MAX_STREAM_TARGETS];
	unsigned n = ps->ntargets, small;

	for (unsigned k = 0; k < n; k++) {
		unsigned m = ps->targets[k];
		uint64_t off = plan->targets[m].offset;

		cat[k] = m;
		size[k] = target_size[m] > off ? target_size[m] - off : 0;
	}
	small = concat_ends(size, n, min_len, end);
	if (small == n)
		return 0;
	snprintf(err, errlen,
		 "sd %s: %llu bytes, smaller than xfersize %u: each sd of a concatenation holds a transfer whole",
		 plan->targets[ps->targets[small]].name,
		 (unsigned long long)size[small], min_len);
	return -EINVAL;
}

const struct proto_stream *concat_leads(const struct proto_plan *plan,
					unsigned t)
{
	for (unsigned s = 0; s < plan->nstreams; s++)
		if (plan->streams[s].concat && plan->streams[s].ntargets &&
		    plan->streams[s].targets[0] == t)
			return &plan->streams[s];
	return NULL;
}
