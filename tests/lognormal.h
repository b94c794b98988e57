/*
 * Seeded log-normal latencies for the tests of the slow host and slow sd
 * tests (test_slowhost.c, test_slowsd.c): a splitmix64 generator whose
 * state the test sets (rng_state = seed), and latencies with a median of
 * 200 us and sigma 0.5, scaled. Every run draws the same numbers.
 */
#ifndef LOCKSTEP_TESTS_LOGNORMAL_H
#define LOCKSTEP_TESTS_LOGNORMAL_H

#include <math.h>
#include <stdint.h>

static uint64_t rng_state;

static inline uint64_t next_u64(void)
{
	/* splitmix64 */
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline double uniform(void)
{
	return ((double)(next_u64() >> 11) + 0.5) / 9007199254740992.0;
}

static inline double normal(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

/* One log-normal latency, ns, scaled by slow. */
static inline uint64_t latency_ns(double slow)
{
	return (uint64_t)(200000.0 * exp(0.5 * normal()) * slow);
}

#endif
