/*
 * The session's outbound half: every message this slave sends goes through
 * outbox_send. Internal to the session (uplink.c and phase.c).
 */
#ifndef LOCKSTEP_SLAVE_OUTBOX_H
#define LOCKSTEP_SLAVE_OUTBOX_H

#include "common/log.h"
#include "slave/session.h"

/*
 * Encode m and send it to the master. An interval is also kept in the
 * spool until the master acknowledges it (and sent later if this send
 * fails). Returns 0 or -errno; m stays the caller's.
 */
int outbox_send(struct session *s, const struct proto_msg *m);
/* Send a log line to the master (it is not logged here). */
void outbox_log(struct session *s, enum log_level lvl, const char *text);

#endif
