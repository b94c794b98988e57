/*
 * What the files of master/history/ share and the unit tests reach: the
 * significance test (stats.c), the change-point detection (changes.c), the
 * database calls (db.c) and the loaded-run helpers. history.h is what the
 * rest of lockstep uses.
 */
#ifndef LOCKSTEP_MASTER_HISTORY_HISTORY_INT_H
#define LOCKSTEP_MASTER_HISTORY_HISTORY_INT_H

#include <stddef.h>
#include <stdint.h>
#include "master/history/history.h"

/* ---- stats.c: the Mann-Whitney U test ----------------------------------- */

/*
 * Two-sided p-value of the Mann-Whitney U test of a against b (normal
 * approximation with tie and continuity correction). NaN when either side
 * has fewer than HISTORY_MIN_INTERVALS values; 1 when every value is equal.
 */
#define HISTORY_MIN_INTERVALS 3
double history_stats_mwu(const double *a, size_t na, const double *b,
			 size_t nb);
/*
 * The same with the variance widened by (1 + r) / (1 - r) for a lag-1
 * autocorrelation r of the intervals (0: independent values).
 */
double history_stats_mwu_ac(const double *a, size_t na, const double *b,
			    size_t nb, double r);
/*
 * The lag-1 autocorrelation of two series (each about its own mean),
 * bias-corrected for short series, clamped to [0, HISTORY_AC1_MAX].
 */
#define HISTORY_AC1_MAX 0.95
double history_stats_ac1(const double *a, size_t na, const double *b,
			 size_t nb);
/*
 * The same where a is several runs' series one after the other (a
 * median:N baseline): aseg[0..naseg) their lengths (summing to na), each
 * about its own mean; aseg NULL is one series. The level of each night
 * differs from the next by the night-to-night noise, which lag-1 sums
 * over the pooled series would count as autocorrelation.
 */
double history_stats_ac1_seg(const double *a, const size_t *aseg, size_t naseg,
			     size_t na, const double *b, size_t nb);
/*
 * Welch's t test of the two means, each mean's variance widened by
 * (1 + r) / (1 - r) and the degrees of freedom from the effective sizes
 * n (1 - r) / (1 + r); two-sided p (NaN below HISTORY_MIN_INTERVALS).
 * history_stats_t_p: the two-sided p of Student's t with df degrees.
 */
double history_stats_welch_ac(const double *a, size_t na, const double *b,
			      size_t nb, double r);
double history_stats_t_p(double t, double df);
/*
 * The interval test of a compare: the autocorrelation-aware U test; when
 * the two series do not overlap at all (the ranks can say no more), the
 * smaller of its p and Welch's (history_stats_welch_ac), so that the
 * size of a gap counts once the order is complete.
 */
double history_stats_interval_p(const double *a, size_t na, const double *b,
				size_t nb, double r);
/*
 * The smallest p the interval test can give when one value of a series
 * lies beyond the other series (U = min(na, nb)), with lag-1
 * autocorrelation r: at or above alpha, one outlier decides.
 */
double history_stats_mwu_floor(size_t na, size_t nb, double r);
/* The median absolute deviation of x[0..n) (only read); its median too. */
double history_stats_mad(const double *x, size_t n, double *median);
/*
 * The night test: x scored against the n baseline nights base[] (one
 * value each) as z = (x - median) / (1.4826 MAD), and its two-sided
 * normal p-value. NaN when n < HISTORY_MIN_NIGHTS. A zero MAD (identical
 * nights) gives p 0 for any other x: the threshold alone decides then.
 */
#define HISTORY_MIN_NIGHTS 5
double history_stats_night(const double *base, size_t n, double x, double *z);
/* The median of n values (x is reordered). NaN when n is 0. */
double history_stats_median(double *x, size_t n);

/* ---- changes.c: E-divisive means ---------------------------------------- */

struct history_change {
	size_t at;            /* index of the first value after the shift */
	double p;             /* permutation p-value */
	double before, after; /* medians of the segments around it */
};

struct history_changes_opts {
	uint64_t seed; /* the permutations' generator: same seed, same answer */
	unsigned perms; /* permutations per test (199) */
	double alpha;   /* a split is kept when p < alpha (0.01) */
	size_t min_seg; /* shortest segment (2) */
};

/*
 * What `history changes` uses: 999 permutations resolve p down to 0.001,
 * so that 10 nights with 4 after a step (210 orders, 2 as extreme) can
 * pass; alpha 0.05 a split.
 */
#define HISTORY_CHANGES_DEFAULTS                                     \
	{                                                            \
		.seed = 1, .perms = 999, .alpha = 0.05, .min_seg = 2 \
	}
#define HISTORY_CHANGES_MAX_N 1000
/*
 * The change points of x[0..n) (E-divisive means, Matteson and James
 * 2014, with a permutation test at each split): pure and deterministic.
 * Fills at most max into out in index order; returns how many, or -EINVAL
 * (n over HISTORY_CHANGES_MAX_N), -ENOMEM. miss (may be NULL) gets the
 * tested split with the lowest p that was not kept (p NaN: none tested).
 */
int history_changes_find(const double *x, size_t n,
			 const struct history_changes_opts *o,
			 struct history_change *out, size_t max,
			 struct history_change *miss);

/* ---- compare.c ----------------------------------------------------------- */

/* enum history_metric of a name ("iops", "p99"), or -1. */
int history_metric_find(const char *name);

/* ---- db.c ---------------------------------------------------------------- */

/* Record r; *id is its history id. -EEXIST if its run_id is there. */
int history_db_record(struct history_db *db, const struct history_run *r,
		      int64_t *id, char *err, size_t errlen);
int history_db_load(struct history_db *db, int64_t id, struct history_run *r,
		    char *err, size_t errlen);
/* Which runs history_db_ids() lists. */
enum history_ids {
	HISTORY_IDS_ALL,      /* every run */
	HISTORY_IDS_MEASURED, /* runs that ran whole, judged or not */
	HISTORY_IDS_BASELINE, /* what a relative baseline may use */
};
/*
 * Ids of the runs, newest first: at most max, of the file hash or name
 * file (NULL: all), of the kind which, never exclude (a run id). Returns
 * the count or -errno.
 */
int history_db_ids(struct history_db *db, const char *file,
		   enum history_ids which, const char *exclude, int64_t *ids,
		   size_t max, char *err, size_t errlen);
/* Accept run id as a new level (who, why recorded): 0 or -errno. */
int history_db_accept(struct history_db *db, int64_t id, const char *who,
		      const char *why, char *err, size_t errlen);
/* The history id of run_id, 0 if none, or -errno. */
int64_t history_db_find(struct history_db *db, const char *run_id);
const char *history_db_path(const struct history_db *db);

/* ---- load.c -------------------------------------------------------------- */

/* FNV-1a 64 of len bytes as 16 hex digits in out[17+]. */
void history_load_hash(const char *s, size_t len, char *out);
struct sqlite3_stmt;
/* A result column as a number: NULL, text or a blob are NaN, never 0. */
double history_load_col(struct sqlite3_stmt *st, int i);
/* A text column into out ("" if not text), control characters as '?'. */
void history_load_str(struct sqlite3_stmt *st, int i, char *out, size_t len);
/* Append one interval (a value per series) to p; 0 or -ENOMEM. */
int history_load_push(struct history_phase *p, const double *v);
/*
 * The whole regular file name in dirfd, NUL-terminated (no link, no
 * FIFO, at most max bytes): 0 or -errno (-EFBIG over max).
 */
int history_load_slurp(int dirfd, const char *name, size_t max, char **out,
		       size_t *len);
/* Split a CSV line at commas in place: the field count (f[0..max)). */
int history_load_split(char *line, char **f, int max);
/*
 * A header's columns: col[k] the index of names[k] in f[0..n), -1 when
 * absent; 0 when every one is there, else -1.
 */
int history_load_cols(char *const *f, int n, const char *const *names,
		      int nnames, int *col);
/*
 * A row's numbers v[0..k) of columns col[0..k) (f[0..n)): 0, or 1 + the
 * first that is missing or not a number.
 */
int history_load_nums(char *const *f, int n, const int *col, int k, double *v);

/* ---- loadops.c: a file-system run's operations as phases "RUN/OP" ------- */

struct sqlite3;
/* Every run's operations (not read, write) of summary doc: 0 or -errno. */
int history_load_fsops(struct sqlite3 *j, const char *doc,
		       struct history_run *r);
/* Their measured intervals from ops.csv (none: fine); 0 or -errno. */
int history_load_opscsv(int dirfd, const char *dir, struct history_run *r,
			char *err, size_t errlen);

/* The median run of runs[0..n) (the newest first), per metric, by name. */
int history_load_median(const struct history_run *runs, size_t n,
			struct history_run *out);

/* The folder of the default history, made on first use (not for
   --history): db.c, for the hook and `history import`. */
void history_make_parent(const char *path);

#endif
