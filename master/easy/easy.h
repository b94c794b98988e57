/*
 * `lockstep easy FILE`: HCIBench's Easy Run, as answers. FILE names the
 * cluster only (hd= hosts and sd= targets, as for `lockstep run`); easy
 * learns each host's cores and each target's size with the probe `lockstep
 * hosts` runs, sizes the load from them, writes a parameter file of the
 * four standard profiles (4k 70% read random, 4k 100% read random, 8k 50%
 * read random, 256k 100% write sequential), each an SLO search after a
 * steady-state warmup, prints it and runs it; the results folder keeps it
 * (easy.vdb) to edit and rerun with `lockstep run`.
 *
 * The sizing and the text are pure (plan.c, tests/test_easy.c); easy.c
 * learns, writes and runs.
 */
#ifndef LOCKSTEP_MASTER_EASY_H
#define LOCKSTEP_MASTER_EASY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * I/Os in flight a core, HCIBench Easy Run's ratio: a 4-vCPU worker VM
 * with 8 data disks at 4 threads each keeps 32 in flight, 8 a core. It is
 * a quarter of the budget past which lockstep warns that the generator may
 * be the bottleneck (GENWARN_INFLIGHT_PER_CORE, 32).
 */
#define EASY_INFLIGHT_PER_CORE 8
/* threads= is at least 1 a slave of an sd and at most this. */
#define EASY_THREADS_MAX 256
#define EASY_NPROFILES 4

struct easy_profile {
	const char *name;  /* rd= (and wd= with a "w" before it) */
	const char *xfer;  /* xfersize= */
	unsigned rdpct;    /* rdpct= */
	unsigned seekpct;  /* seekpct=: 100 random, 0 sequential */
	const char *title; /* for people */
};

extern const struct easy_profile easy_profiles[EASY_NPROFILES];

/* One host as easy learned it: a hd=, or this machine without hd=. */
struct easy_host {
	const char *name;
	unsigned cores;  /* online CPUs; 0 unknown */
	unsigned slaves; /* slave processes there */
};

/* One sd: where it runs and how big it is there. */
struct easy_sd {
	const char *name;
	uint64_t bytes; /* the smallest size of its target where it runs */
	const unsigned char *on; /* on[h]: the sd runs on host h */
};

/* What the user chose (the command's options). */
struct easy_opts {
	const char *slo;     /* slo= of every search, e.g. "p99:5ms" */
	double sloprecision; /* sloprecision=, percent */
	double elapsed_s;    /* elapsed= of every phase */
	double warmup_max_s; /* warmup=(steady,MAX) */
	double interval_s;   /* interval= */
	unsigned ws_pct;     /* working set: range=(0,ws_pct) of each sd */
	int prepare;         /* format=yes on the first profile */
};

/*
 * threads= of every rd: the largest T for which no host keeps more than
 * EASY_INFLIGHT_PER_CORE x its cores in flight, where an sd's T I/Os are
 * split evenly over the slaves that run it (host h's share of sd s is
 * T x slaves(h) / slaves running s); at least the most slaves any sd has
 * (every slave gets one), at most EASY_THREADS_MAX. A host of unknown
 * cores counts as one core. 0 when no sd runs anywhere.
 */
unsigned easy_threads(const struct easy_host *h, size_t nh,
		      const struct easy_sd *sd, size_t nsd);

/*
 * The generated part of the parameter file (after the user's hd= and sd=
 * lines): comments saying what was learned and the rule, a wd= and an rd=
 * per profile. Returns 0, or -EIO when f failed.
 */
int easy_write(FILE *f, const struct easy_host *h, size_t nh,
	       const struct easy_sd *sd, size_t nsd, const struct easy_opts *o,
	       unsigned threads);

/* `lockstep easy`. */
int easy_main(int argc, char **argv, const char *const *engines);

#endif
