/*
 * The worker's completion batching rule; see reap.h.
 */
#include "slave/reap.h"

unsigned reap_wait_nr(const struct reap *r, unsigned inflight, int unlimited,
		      uint64_t *timeout_ns)
{
	unsigned nr = inflight / REAP_BATCH_DIV;

	if (!unlimited || r->off || nr < 2)
		return 1;
	if (nr > REAP_BATCH_MAX)
		nr = REAP_BATCH_MAX;
	if (*timeout_ns > REAP_BATCH_WAIT_NS)
		*timeout_ns = REAP_BATCH_WAIT_NS;
	return nr;
}

void reap_seen(struct reap *r, unsigned wanted, unsigned got,
	       uint64_t waited_ns)
{
	if (wanted > 1) {
		if (got < wanted || waited_ns > REAP_BATCH_FAST_NS)
			r->off = REAP_RETRY_WAITS;
	} else if (r->off) {
		r->off--;
	}
}
