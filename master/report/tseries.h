/*
 * Series of the report (intervals.csv and hosts/<slave>.csv in data.c;
 * devices.csv, hoststats.csv and probes.csv in telem.c and
 * telem_probes.c): each a list of rows (a time, its interval, nv
 * numbers), written as the page's arrays. The telemetry's are held in a
 * table of series, each named by a run and two names (a host and a device
 * or NIC, a probe and its key), found by hash. Bounded: at most max
 * series; what does not fit is refused to the caller, who counts it.
 */
#ifndef LOCKSTEP_MASTER_REPORT_TSERIES_H
#define LOCKSTEP_MASTER_REPORT_TSERIES_H

#include <stddef.h>
#include <stdint.h>

/* Counters of a series, for its file's own use (probes' statuses). */
#define TSERIES_CNT 6

struct jsonw;

struct tseries {
	char *run, *a, *b; /* its names, owned (a and b may be NULL) */
	uint64_t t0;       /* the run's time origin, ns */
	size_t n, cap;
	double *t;     /* seconds after t0 */
	uint64_t *seq; /* its interval, 0 without one */
	unsigned char *warm;
	double *v;         /* n rows of nv numbers */
	uint64_t last_seq; /* the highest seq appended */
	size_t cnt[TSERIES_CNT];
};

struct tstable {
	struct tseries *s;
	size_t n, cap, nv, max;
	size_t *slot, nslot; /* hash of the names: index + 1, 0 free */
};

/* An empty table of series of nv numbers, at most max series. */
void tstable_init(struct tstable *t, size_t nv, size_t max);
/* Everything of t (its series and their names). */
void tstable_free(struct tstable *t);
/*
 * The series (run, a, b) in *out, added with time origin t0 if it is not
 * there. Returns 0, -ENOSPC when t holds max series already, -ENOMEM.
 * The pointer holds until the next call.
 */
int tstable_get(struct tstable *t, const char *run, const char *a,
		const char *b, uint64_t t0, struct tseries **out);
/*
 * The row of interval seq (not 0) in s, in *row (its nv numbers); a new
 * row at time tsec (numbers NaN) when there is none, with *found 0.
 * Returns 0 or -ENOMEM. The pointer holds until s grows.
 */
int tseries_row(struct tseries *s, size_t nv, uint64_t seq, double tsec,
		int warm, double **row, int *found);
/* A new row at tsec (several may share an interval). 0 or -ENOMEM. */
int tseries_append(struct tseries *s, size_t nv, uint64_t seq, double tsec,
		   int warm, double **row);
/* Sort s's rows by time (then interval), keeping equal ones in order. */
int tseries_sort(struct tseries *s, size_t nv);
/* tseries_sort() of every series of t. 0 or -ENOMEM. */
int tstable_sort(struct tstable *t);
/* Whether run is the run of a series of t before index i. */
int tstable_run_seen(const struct tstable *t, size_t i, const char *run);
/* What s holds (its names, its rows), not s itself. */
void tseries_free(struct tseries *s);
/*
 * s's times ("t"), warmup flags ("warmup") and, for each j < n, the
 * numbers k[j] (k NULL: j) of its rows (nv numbers a row) as the array
 * names[j], with w.
 */
void tseries_write(struct jsonw *w, const struct tseries *s, size_t nv,
		   const char *const *names, const size_t *k, size_t n);

#endif
