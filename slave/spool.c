/*
 * Interval spool: a FIFO of encoded frames awaiting acknowledgement.
 * See spool.h.
 */
#include <stdlib.h>
#include "slave/spool.h"

static void release(struct spool *s, struct spool_item **pp)
{
	struct spool_item *it = *pp;

	*pp = it->next;
	if (s->tail == it) {
		/* Find the new tail: the item whose next pointer was pp. */
		s->tail = NULL;
		for (struct spool_item *p = s->head; p; p = p->next)
			s->tail = p;
	}
	free(it->buf);
	free(it);
	s->n--;
}

int spool_add(struct spool *s, uint32_t phase, uint32_t seq, void *buf,
	      size_t len, uint64_t now_ns)
{
	struct spool_item *it = malloc(sizeof(*it));
	int dropped = 0;

	if (!it) {
		free(buf);
		return -1;
	}
	*it = (struct spool_item){ phase, seq, buf, len, now_ns, NULL };
	if (s->n >= SPOOL_MAX) {
		release(s, &s->head);
		s->dropped++;
		dropped = 1;
	}
	if (s->tail)
		s->tail->next = it;
	else
		s->head = it;
	s->tail = it;
	s->n++;
	return dropped;
}

void spool_ack(struct spool *s, uint32_t phase, uint32_t seq)
{
	struct spool_item **pp = &s->head;

	while (*pp) {
		if ((*pp)->phase == phase && (*pp)->seq <= seq)
			release(s, pp);
		else
			pp = &(*pp)->next;
	}
}

struct spool_item *spool_due(struct spool *s, uint64_t now_ns,
			     uint64_t age_ns)
{
	for (struct spool_item *it = s->head; it; it = it->next)
		if (now_ns - it->sent_ns >= age_ns)
			return it;
	return NULL;
}

void spool_free(struct spool *s)
{
	while (s->head)
		release(s, &s->head);
	s->dropped = 0;
}
