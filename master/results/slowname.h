/*
 * What the slow-host and slow-sd sinks (sink_slowhost.c, sink_slowsd.c)
 * share: the pending rows that keep a measured interval's histograms
 * until its cluster row is written, the list of a run's slowest flagged
 * units (slaves, or sds), and how they are said: the console's lines
 * after a run's totals, summary.txt's block, and the run's object in
 * summary.json that report.html draws its badges from.
 */
#ifndef LOCKSTEP_MASTER_RESULTS_SLOWNAME_H
#define LOCKSTEP_MASTER_RESULTS_SLOWNAME_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "common/hist.h"
#include "master/results/slowhost.h"

struct run_view;
struct run_result;
struct jsonw;

/* Rows whose slaves' intervals are kept while they wait for their row. */
#define SLOWNAME_PENDING 16
/* Units named per run (the worst first; the rest are counted). */
#define SLOWNAME_LIST 8

/* One unit's histograms of a slave's interval: offsets into the arena. */
struct slowname_entry {
	unsigned who;   /* the unit: a slave, an sd */
	unsigned slave; /* the slave the histograms came from */
	double weight;  /* its expected share of the I/Os, if the sink has it */
	unsigned nlat;
	struct hist_sparse meta[SLOWHOST_DIRS]; /* idx, cnt unset */
	size_t off[SLOWHOST_DIRS];
};

/* A row's pending histograms: one arena, reused from row to row. */
struct slowname_pend {
	int used;
	unsigned seq;
	struct slowname_entry *e;
	size_t ne, ecap;
	uint32_t *idx;
	uint64_t *cnt;
	size_t len, cap;
};

/*
 * The pending slot of row seq in pend[SLOWNAME_PENDING], a free one
 * made its, or NULL when all are taken.
 */
struct slowname_pend *slowname_pend_of(struct slowname_pend *pend,
				       unsigned seq);
/* The pending slot of row seq, freed for another row, or NULL. */
struct slowname_pend *slowname_pend_take(struct slowname_pend *pend,
					 unsigned seq);
/*
 * Copy n (at most SLOWHOST_DIRS) histograms of unit who from slave into
 * p (nothing of lat is kept): 0, or -ENOMEM (p then unchanged but for
 * room).
 */
int slowname_pend_add(struct slowname_pend *p, unsigned who, unsigned slave,
		      double weight, const struct hist_sparse *lat, unsigned n);
/* Entry k's histograms into sp[0..nlat-1], pointing into p's arena. */
void slowname_pend_hists(const struct slowname_pend *p, size_t k,
			 struct hist_sparse *sp);
/* Free the arenas of pend[SLOWNAME_PENDING]. */
void slowname_pend_free(struct slowname_pend *pend);

/* A flagged unit of a run, and its measured intervals' verdicts. */
struct slowname_unit {
	unsigned who;
	struct slowhost_out o;
	unsigned flagged, judged; /* its measured intervals */
};

/* A run's verdict over its units. */
struct slowname_run {
	const char *why;          /* not judged: why (static), else NULL */
	unsigned units, nflagged; /* units judged, of them flagged */
	unsigned intervals;       /* measured intervals judged */
	unsigned nlist;
	struct slowname_unit list[SLOWNAME_LIST];
};

/*
 * What both sinks keep over a run: the pending rows, each unit's
 * intervals flagged and judged, the rows that could not be kept whole,
 * and each run's verdict.
 */
struct slowname_state {
	struct slowname_run *run; /* per rv->ph->runs index */
	size_t nrun;
	unsigned (*count)[2]; /* per unit: its intervals flagged, judged */
	size_t nunits;
	unsigned intervals;  /* the run's measured intervals judged */
	unsigned char *lost; /* per row of the phase: not kept whole */
	unsigned nlost;
	struct slowname_pend pend[SLOWNAME_PENDING];
};

struct sink_slave_row;
struct sink_row;
struct sink_run_end;

/* For the runs of rv and nunits units: 0 or -ENOMEM. */
int slowname_open(struct slowname_state *st, const struct run_view *rv,
		  size_t nunits);
/* A phase of intervals rows starts: nothing pending, nothing counted. */
void slowname_phase_start(struct slowname_state *st, unsigned intervals);
/*
 * The pending slot that a slave's interval r goes into, or NULL when it
 * is not kept (late, warmup, past the phase); when there is no slot the
 * row is marked lost and NULL returned too.
 */
struct slowname_pend *slowname_slot(struct slowname_state *st,
				    const struct run_view *rv,
				    const struct sink_slave_row *r);
/* Mark row seq lost: it is not judged. */
void slowname_lose(struct slowname_state *st, unsigned seq);
/* The pending slot of row r to judge now, or NULL (none, warmup, lost). */
struct slowname_pend *slowname_row(struct slowname_state *st,
				   const struct sink_row *r);
/* Count the row's verdicts out[k] of units who[k]. */
void slowname_count(struct slowname_state *st, const unsigned *who,
		    const struct slowhost_out *out, size_t n);
/*
 * The verdict of run e->r, cleared, or NULL (a format pass); its why set
 * when the run did not end well.
 */
struct slowname_run *slowname_run_start(struct slowname_state *st,
					const struct run_view *rv,
					const struct sink_run_end *e);
/* The run's units' verdicts out[k] of units who[k] into o's list. */
void slowname_verdict(const struct slowname_state *st, struct slowname_run *o,
		      const unsigned *who, const struct slowhost_out *out,
		      size_t n);
void slowname_close(struct slowname_state *st);

/* Which units, in words and keys. */
struct slowname_kind {
	const char *one;    /* "host": "slow host h2", "no slow host" */
	const char *ones;   /* "hosts": "and 3 more slow hosts" */
	const char *peers;  /* "slaves": "among 3 slaves", "slaves_judged" */
	const char *json;   /* the run's key in summary.json: "slow_hosts" */
	const char *key;    /* a unit's name key in it: "slave" */
	const char *method; /* summary.json's "method" */
	/* Unit who's name. */
	const char *(*name)(const struct run_view *rv, unsigned who);
};

/*
 * The console's lines of run r after its totals (nothing when the run
 * was not judged, or with --vdbench-console).
 */
void slowname_say(const struct run_view *rv, const struct slowname_kind *k,
		  const struct run_result *r, const struct slowname_run *o);
/* Run r's object of k->json in summary.json (none for a format pass). */
void slowname_json(const struct run_view *rv, const struct slowname_kind *k,
		   const struct slowname_state *st, const struct run_result *r,
		   struct jsonw *w);
/* summary.txt's block. */
void slowname_txt(const struct run_view *rv, const struct slowname_kind *k,
		  const struct slowname_state *st, FILE *f);

#endif
