/*
 * Clock offset estimation between the master and a slave, NTP-style.
 * One sample is four timestamps: t1 master send, t2 slave receive, t3 slave
 * send, t4 master receive (t1, t4 on the master's clock; t2, t3 on the
 * slave's). offset = ((t2 - t1) + (t3 - t4)) / 2 is slave minus master;
 * rtt = (t4 - t1) - (t3 - t2). The sample with the smallest RTT is kept, and
 * its error bound is rtt / 2.
 */
#ifndef LOCKSTEP_COMMON_CLOCKOFF_H
#define LOCKSTEP_COMMON_CLOCKOFF_H

#include <stdint.h>

struct clockoff {
	unsigned samples;   /* accepted samples */
	int64_t offset_ns;  /* slave clock - master clock, best sample */
	uint64_t rtt_ns;    /* RTT of the best sample */
	uint64_t error_ns;  /* rtt_ns / 2 */
};

void clockoff_init(struct clockoff *c);
/*
 * Add one sample. Returns 0 if accepted, -EINVAL if the timestamps are
 * inconsistent (t4 < t1 or t3 < t2 or negative RTT).
 */
int clockoff_add(struct clockoff *c, uint64_t t1, uint64_t t2, uint64_t t3,
		 uint64_t t4);
/* Master time of a slave time, and back. */
uint64_t clockoff_to_master(const struct clockoff *c, uint64_t slave_ns);
uint64_t clockoff_to_slave(const struct clockoff *c, uint64_t master_ns);

#endif
