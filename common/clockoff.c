/*
 * NTP-style clock offset estimation between the master and one slave. Each
 * ping gives four timestamps; the sample with the smallest round trip is the
 * least disturbed by queueing, so it alone is kept. Timestamps are
 * CLOCK_REALTIME nanoseconds (~1.8e18), so differences are taken in 128-bit
 * arithmetic and the offset is rejected if it does not fit in int64.
 */
#include "common/clockoff.h"

#include <errno.h>
#include <stdint.h>

void clockoff_init(struct clockoff *c)
{
	c->samples = 0;
	c->offset_ns = 0;
	c->rtt_ns = 0;
	c->error_ns = 0;
}

int clockoff_add(struct clockoff *c, uint64_t t1, uint64_t t2, uint64_t t3,
		 uint64_t t4)
{
	if (t4 < t1 || t3 < t2)
		return -EINVAL;
	uint64_t master_span = t4 - t1, slave_span = t3 - t2;
	if (slave_span > master_span)
		return -EINVAL; /* negative round trip */
	uint64_t rtt = master_span - slave_span;

	__int128 d = ((__int128)t2 - (__int128)t1) +
		     ((__int128)t3 - (__int128)t4);
	__int128 off = d / 2;
	if (off > INT64_MAX || off < INT64_MIN)
		return -EINVAL;

	if (c->samples == 0 || rtt < c->rtt_ns) {
		c->offset_ns = (int64_t)off;
		c->rtt_ns = rtt;
		/*
		 * The true offset lies within rtt/2 of d/2; halving d rounds
		 * by up to half a nanosecond more, hence rounding up.
		 */
		c->error_ns = rtt / 2 + (rtt & 1);
	}
	c->samples++;
	return 0;
}

static uint64_t shift_saturated(uint64_t t, __int128 by)
{
	__int128 r = (__int128)t + by;

	if (r < 0)
		return 0;
	if (r > (__int128)UINT64_MAX)
		return UINT64_MAX;
	return (uint64_t)r;
}

uint64_t clockoff_to_master(const struct clockoff *c, uint64_t slave_ns)
{
	return shift_saturated(slave_ns, -(__int128)c->offset_ns);
}

uint64_t clockoff_to_slave(const struct clockoff *c, uint64_t master_ns)
{
	return shift_saturated(master_ns, (__int128)c->offset_ns);
}
