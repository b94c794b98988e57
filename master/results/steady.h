/*
 * Steady state as SNIA's Performance Test Specification defines it, pure:
 * over a measurement window of STEADY_ROUNDS rounds, the data excursion
 * (the largest round minus the smallest) is at most STEADY_DATA_PCT of the
 * window's average, and the slope excursion (how far the least-squares
 * line through the rounds moves across the window) at most
 * STEADY_SLOPE_PCT of it. A run's measured window of n intervals is cut
 * into the rounds: its last STEADY_ROUNDS * k intervals, k = n /
 * STEADY_ROUNDS, k each, so that the window ends where the run ends (the
 * first n % STEADY_ROUNDS measured intervals, nearest the warmup, are left
 * out). A round's value is its I/Os (rounds are equally long).
 */
#ifndef LOCKSTEP_MASTER_RESULTS_STEADY_H
#define LOCKSTEP_MASTER_RESULTS_STEADY_H

#include <stddef.h>

#define STEADY_ROUNDS 5
#define STEADY_DATA_PCT 20.0
#define STEADY_SLOPE_PCT 10.0

struct steady_verdict {
	int known;  /* 0: not judged (fewer intervals than rounds, or no I/O) */
	int steady; /* both excursions within their limits */
	unsigned per_round; /* intervals per round */
	double data_pct;    /* (max - min) / mean x 100 */
	double slope_pct;   /* |slope| x (rounds - 1) / mean x 100 */
};

/*
 * The round (0..STEADY_ROUNDS-1) that measured interval m (0-based, of n
 * measured) falls in, or -1: before the window, past n, or n too short.
 */
int steady_round_of(unsigned n, unsigned m);
/* Intervals per round of a window of n measured intervals (0: too short). */
unsigned steady_per_round(unsigned n);
/*
 * Judge the STEADY_ROUNDS round values x (I/Os per round) into *v;
 * per_round is copied into it. A window with no I/O is not judged.
 */
void steady_judge(const double *x, unsigned per_round,
		  struct steady_verdict *v);

#endif
