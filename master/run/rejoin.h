/*
 * Whether a slave that came back inside a running phase may rejoin it, and
 * at which interval: a pure function (data in, data out, time as an
 * argument), tested in tests/test_rejoin.c. The conductor fills a struct
 * rejoin_in from the phase and the slave, acts on the verdict and, when
 * the slave must wait for the next phase, prints the reason.
 *
 * A joiner runs the part of the phase's plan it had at the phase's start
 * (the same targets, ranges and share of a fixed iorate=, computed from
 * the roster the phase was planned with; in a file-system phase the same
 * fsds, subtree and fwds, without a format: the slave looks at what
 * exists of its tree when it prepares), from interval `first` on; the
 * survivors keep their plans, so once it runs the cluster is back at the
 * planned total.
 */
#ifndef LOCKSTEP_MASTER_REJOIN_H
#define LOCKSTEP_MASTER_REJOIN_H

#include <stdint.h>

/* A joiner needs at least this many intervals of the phase left. */
#define REJOIN_MIN_LEFT 2

struct rejoin_in {
	/* The phase. */
	int running;       /* its intervals are being merged */
	int format;        /* a format (prime) pass */
	int eof;           /* a stream has seekpct=eof: one pass */
	int curve;         /* a curve or an iorate=slo phase */
	int validate;      /* 0 off, 1 validate=yes, 2 validate=only */
	int journal;       /* journal= keeps the generations on disk */
	uint64_t start_ns; /* its start, master clock */
	uint64_t interval_ns;
	unsigned intervals; /* warmup included */
	/* The slave. */
	/* It had a part of the phase's plan at the phase's start. */
	int planned;
	/*
	 * The session that had that part, still running it (its validation
	 * map in memory); a new process or a new session (a hello) is not.
	 */
	int same_process;
	int same_host;     /* on the host its clock offset was measured for */
	unsigned ntargets; /* targets of its part (0: it sits the phase out) */
	/*
	 * A file-system phase (fsds, no targets): its part is its fwds
	 * (0: it sits the phase out), and once: an fwd of it has
	 * fileselect=once or (random,once).
	 */
	int fs;
	unsigned nfwds;
	int once;
	/* When: now, and how long it needs before its first interval. */
	uint64_t now_ns;  /* master clock */
	uint64_t lead_ns; /* its plan, ready and go take this long at most */
};

enum rejoin_verdict {
	REJOIN_JOIN, /* it rejoins at interval `first` */
	REJOIN_WAIT, /* it waits for the next phase; why says why */
};

struct rejoin_out {
	enum rejoin_verdict verdict;
	unsigned first; /* REJOIN_JOIN: the phase's interval it starts at */
	/* REJOIN_WAIT: why, one line (static text: "a format pass ..."). */
	const char *why;
};

/*
 * The first interval boundary at or after now_ns + lead_ns, as an index
 * of the phase's intervals (start_ns + k x interval_ns), never 0: a
 * joiner never starts before the phase did. interval_ns must be > 0.
 */
unsigned rejoin_first_interval(uint64_t start_ns, uint64_t interval_ns,
			       uint64_t now_ns, uint64_t lead_ns);
/*
 * The verdict for in into *out. The rules, in order (the first that holds
 * makes it wait):
 *   - the phase is not running (between phases: it joins the next anyway);
 *   - a format pass, a seekpct=eof pass or validate=only (one pass over
 *     ranges split among the slaves: a joiner's part would be done twice
 *     or the pass would end without it);
 *   - a curve phase (the curve-max run measures the cluster's rate, which
 *     a joiner would change mid-run; a point's rate comes from it);
 *   - it had no part in the phase's plan (its part would change every
 *     other slave's);
 *   - a file-system phase with a fileselect=once or (random,once) fwd
 *     (a pass over its files: a new process would begin it again);
 *   - its part is empty (no targets; in a file-system phase, no fwds);
 *   - validate=yes and a new process or session without journal=: the
 *     generations of its blocks were in the old session's map, and its
 *     reads would call them mismatches (its blocks are never given to
 *     another slave);
 *   - another host: its clock offset was measured for the old one;
 *   - fewer than REJOIN_MIN_LEFT intervals left from its first one.
 * Returns 0, or -EINVAL for an impossible input (no interval length).
 */
int rejoin_decide(const struct rejoin_in *in, struct rejoin_out *out);

#endif
