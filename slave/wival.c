/*
 * A worker's interval buffer (see wival.h). The per-target histograms
 * are a separate allocation, rec, which is lat itself when there is no
 * split (or one target), so the hot path always records into
 * rec[pair + direction] with no test.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "slave/wival.h"

/* Whether iv holds per-target histograms of its own. */
static int split_own(const struct worker_interval *iv)
{
	return iv->rec != iv->lat;
}

struct worker_interval *wival_new(unsigned seq, unsigned ntargets,
				  unsigned nsplit, const unsigned *split_target)
{
	size_t sz = sizeof(struct worker_interval) +
		    ntargets * sizeof(uint64_t);
	struct worker_interval *iv = malloc(sz);

	if (!iv)
		return NULL;
	memset(iv, 0, offsetof(struct worker_interval, lat));
	hist_init(&iv->lat[0]);
	hist_init(&iv->lat[1]);
	iv->rec = iv->lat;
	if (nsplit > 1) {
		iv->rec = malloc(2 * nsplit * sizeof(*iv->rec));
		if (!iv->rec) {
			free(iv);
			return NULL;
		}
		for (unsigned k = 0; k < 2 * nsplit; k++)
			hist_init(&iv->rec[k]);
	}
	iv->nsplit = nsplit;
	iv->split_target = split_target;
	iv->sd = NULL;
	memset(iv->target_errors, 0, ntargets * sizeof(uint64_t));
	iv->ntargets = ntargets;
	iv->seq = seq;
	iv->next = NULL;
	return iv;
}

void wival_free(struct worker_interval *iv)
{
	if (iv && split_own(iv))
		free(iv->rec);
	free(iv);
}

void wival_free_list(struct worker_interval *iv)
{
	while (iv) {
		struct worker_interval *next = iv->next;

		wival_free(iv);
		iv = next;
	}
}

void wival_fold(struct worker_interval *iv)
{
	for (unsigned k = 0; split_own(iv) && k < 2 * iv->nsplit; k++)
		hist_merge(&iv->lat[k % 2], &iv->rec[k]);
}

void wival_clear(struct worker_interval *iv)
{
	hist_reset(&iv->lat[0]);
	hist_reset(&iv->lat[1]);
	for (unsigned k = 0; split_own(iv) && k < 2 * iv->nsplit; k++)
		hist_reset(&iv->rec[k]);
	memset(iv, 0, offsetof(struct worker_interval, lat));
	memset(iv->target_errors, 0, iv->ntargets * sizeof(uint64_t));
}
