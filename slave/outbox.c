/*
 * Every message this slave sends to the master: encoded, sent on the
 * DEALER, and an interval kept in the spool until the master acknowledges
 * it. Its own file below uplink.c (the frames from the master, which start
 * phases) and phase.c (which sends the phase's messages), so that neither
 * of the two has to call into the other to speak. See outbox.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/log.h"
#include "common/timeutil.h"
#include "slave/conn.h"
#include "slave/outbox.h"

int outbox_send(struct session *s, const struct proto_msg *m)
{
	void *buf;
	size_t len;
	int ret = proto_encode(m, &buf, &len);

	if (ret < 0) {
		if (m->type == PROTO_INTERVAL)
			log_error("cannot encode interval %u",
				  m->u.interval.seq);
		else
			log_error("cannot encode %s: %s",
				  proto_type_name(m->type), strerror(-ret));
		return ret;
	}
	ret = conn_send(s->conn, buf, len);
	if (ret == 0)
		s->last_tx = time_mono_ns();
	if (m->type != PROTO_INTERVAL) {
		free(buf);
		return ret;
	}
	/* Kept until acknowledged: the spool re-sends it if this one is lost. */
	if (spool_add(&s->spool, m->u.interval.phase, m->u.interval.seq, buf,
		      len, time_mono_ns()))
		log_warn(
			"interval spool full: the oldest unacknowledged interval was dropped");
	return ret;
}

void outbox_log(struct session *s, enum log_level lvl, const char *text)
{
	struct proto_msg m = { .type = PROTO_LOG };

	m.u.log.level = lvl;
	snprintf(m.u.log.message, sizeof(m.u.log.message), "%s", text);
	outbox_send(s, &m);
}
