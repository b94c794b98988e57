/*
 * The session's uplink to the master: frames from the master are handled
 * here (every message this slave sends goes through outbox_send, in
 * outbox.h); the tick sends hellos, heartbeats and re-sends of
 * unacknowledged intervals, and gives up on a master that fell silent.
 * Internal to the session.
 */
#ifndef LOCKSTEP_SLAVE_UPLINK_H
#define LOCKSTEP_SLAVE_UPLINK_H

#include "common/log.h"
#include "slave/session.h"

/* Fill the hello (id, host, name, engines) and the session's defaults. */
void uplink_init(struct session *s, const char *name);
/* Handle every frame waiting on socket which (CONN_DEALER or CONN_SUB). */
void uplink_drain(struct session *s, int which);
/* Hello, heartbeat, re-send and master timeout; call at least every 100 ms. */
void uplink_tick(struct session *s);
/*
 * The run is over for this slave (why, exit code): say bye, stop I/O at
 * once; a launched slave quits, a daemon waits for the next master.
 */
void uplink_over(struct session *s, const char *why, int code);

#endif
