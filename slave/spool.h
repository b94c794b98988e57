/*
 * The slave's interval spool: every encoded interval frame is kept until the
 * master acknowledges it (ack = highest contiguous seq of a phase), re-sent
 * when it has gone unacknowledged for a while (after a reconnect, a lost
 * connection, a full queue), and bounded: past SPOOL_MAX frames the oldest
 * is dropped with a warning. Pure: no sockets, time is an argument.
 */
#ifndef LOCKSTEP_SLAVE_SPOOL_H
#define LOCKSTEP_SLAVE_SPOOL_H

#include <stddef.h>
#include <stdint.h>

#define SPOOL_MAX 3600

struct spool_item {
	uint32_t phase, seq;
	void *buf;            /* encoded frame, owned */
	size_t len;
	uint64_t sent_ns;     /* last time it was handed to the transport */
	struct spool_item *next;
};

struct spool {
	struct spool_item *head, *tail;
	size_t n;
	uint64_t dropped;
};

/* Take ownership of buf. Returns 1 if the oldest item had to be dropped. */
int spool_add(struct spool *s, uint32_t phase, uint32_t seq, void *buf,
	      size_t len, uint64_t now_ns);
/* Release every item of phase with seq <= seq. */
void spool_ack(struct spool *s, uint32_t phase, uint32_t seq);
/*
 * The oldest item not handed over since now_ns - age_ns, or NULL. The caller
 * re-sends it and sets its sent_ns.
 */
struct spool_item *spool_due(struct spool *s, uint64_t now_ns,
			     uint64_t age_ns);
void spool_free(struct spool *s);

#endif
