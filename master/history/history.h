/*
 * The run history and the baseline compare: what other rooms of lockstep
 * use (the run hook of master.c, `lockstep report --baseline`). A run is
 * held in memory as struct history_run whether it comes from a results
 * folder (load.c) or from the SQLite history (db.c), so a compare never
 * cares where its two sides were read from.
 */
#ifndef LOCKSTEP_MASTER_HISTORY_HISTORY_H
#define LOCKSTEP_MASTER_HISTORY_HISTORY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The figures of a run, compared side by side. */
enum history_metric {
	HISTORY_IOPS,
	HISTORY_MBPS,
	HISTORY_MEAN, /* mean latency, ms */
	HISTORY_P50,
	HISTORY_P95,
	HISTORY_P99,
	HISTORY_P999,
	HISTORY_READ_PCT, /* the read/write split: shown, never judged */
	HISTORY_NMETRICS,
};

/* The per-interval cluster series kept of every run (intervals.csv). */
enum history_series {
	HISTORY_S_IOPS,
	HISTORY_S_MBPS,
	HISTORY_S_RESP,
	HISTORY_S_P95,
	HISTORY_S_P99,
	HISTORY_NSERIES,
};

#define HISTORY_NAME_MAX 128

/* One run (rd, loop or curve point) of a results folder, by its name. */
struct history_phase {
	char name[HISTORY_NAME_MAX];
	char kind[16];
	double v[HISTORY_NMETRICS];
	double elapsed_s, warmup_s, interval_s, iorate;
	uint64_t errors;
	size_t n;                        /* measured intervals */
	double *series[HISTORY_NSERIES]; /* n values each, owned */
	/*
	 * A median:N baseline pools its nights' intervals in series, night
	 * after night: how many each gave (owned; NULL: one run's). Each
	 * night is its own series to the autocorrelation estimate, so that
	 * night-to-night noise is not taken for interval-to-interval.
	 */
	size_t *seg;
	size_t nseg;
	/* A median:N baseline's nights, one value each (owned, or NULL). */
	double *night[HISTORY_NMETRICS];
	size_t nnight[HISTORY_NMETRICS];
};

/* A whole `lockstep run`, or the per-metric median of several (median:N). */
struct history_run {
	int64_t id; /* history id, 0 when read from a folder only */
	char run_id[64];
	char started[40], ended[40];
	char status[16]; /* completed, degraded, aborted, incomplete */
	int exit_code;
	char host[256];  /* the master's host name, "" if unknown */
	char engine[32]; /* "" if unknown (folders of older versions) */
	char *slaves;    /* slave names, comma-separated, owned */
	char *hosts;     /* the slaves' hosts, sorted and unique, owned */
	unsigned nslaves;
	char param_name[256];
	char param_hash[20]; /* FNV-1a 64 of the file's text, hex */
	char *param_text;    /* owned, may be NULL */
	char *plan;          /* one line per run: name kind e w i iorate */
	char dir[4096];      /* the results folder, "" if unknown */
	char label[160];     /* how it is named in a compare */
	char verdict[512];   /* the verdict line it printed, "" if none */
	int accepted;        /* accepted as a new level (history accept) */
	int insecure;        /* ran --insecure: no authentication */
	unsigned nmedian;    /* the median of this many runs, 0: one run */
	size_t nphases;
	struct history_phase *ph; /* owned */
};

void history_run_free(struct history_run *r);

/* ---- compare ------------------------------------------------------------ */

enum history_verdict {
	HISTORY_NO_CHANGE,   /* real (significant) but inside the threshold */
	HISTORY_NOISE,       /* not told apart from noise */
	HISTORY_IMPROVEMENT, /* past the threshold, the good way, significant */
	HISTORY_REGRESSION,  /* past the threshold, the bad way, significant */
};

/*
 * How far a metric may move the bad way before it is judged: a percentage
 * (-5 for "iops=-5%": IOPS 5 % lower; +10 for "p99=+10%"). set[m] says
 * whether metric m is judged at all.
 */
struct history_threshold {
	double pct[HISTORY_NMETRICS];
	int set[HISTORY_NMETRICS];
	double alpha; /* significance level of the test, 0.05 */
};

#define HISTORY_DEFAULT_THRESHOLD "iops=-5%,mbps=-5%,p99=+10%,mean=+10%"

struct history_cmp_metric {
	double a, b;   /* baseline, candidate */
	double pct;    /* (b - a) / a * 100, NaN if a is 0 */
	double p;      /* the test's two-sided p-value, NaN if not tested */
	int judged;    /* in the threshold */
	int tested;    /* a significance test ran (enough intervals) */
	int night;     /* the test was the night test (else intervals) */
	size_t nights; /* the baseline nights it scored against */
	double z;      /* night test: robust z of the candidate */
	double r;      /* interval test: lag-1 autocorrelation used */
	/*
	 * Interval test: so few intervals that one value of one series
	 * beyond the other's (a single stalled interval) leaves p >= alpha
	 * whatever the change; a "noise" verdict then says little.
	 */
	int fragile;
	enum history_verdict v;
};

struct history_cmp_run {
	char name[HISTORY_NAME_MAX];
	int ia, ib;    /* phase index in A and in B, -1 when unmatched */
	size_t na, nb; /* measured intervals compared, A and B */
	struct history_cmp_metric m[HISTORY_NMETRICS];
	enum history_verdict v;
};

#define HISTORY_MAX_CONDITIONS 16

struct history_cmp {
	size_t nruns;
	struct history_cmp_run *runs; /* owned */
	size_t ncond;
	char cond[HISTORY_MAX_CONDITIONS][256]; /* changed conditions */
	enum history_verdict v;                 /* the worst of the runs */
	int regression;
	size_t nights;  /* judged metrics scored by the night test */
	size_t nseries; /* judged metrics scored over intervals */
};

/* Parse "iops=-5%,p99=+10%"; 0, or -EINVAL with why in err. */
int history_threshold_parse(const char *s, struct history_threshold *t,
			    char *err, size_t errlen);
/*
 * Compare candidate b with baseline a (both only read). A pure function of
 * its inputs; c is filled (free it with history_compare_free). 0 or
 * -ENOMEM.
 */
int history_compare(const struct history_run *a, const struct history_run *b,
		    const struct history_threshold *t, struct history_cmp *c);
void history_compare_free(struct history_cmp *c);
const char *history_verdict_name(enum history_verdict v);
const char *history_metric_name(enum history_metric m);
/* The verdict table for people, and the same as JSON. */
void history_compare_print(FILE *f, const struct history_run *a,
			   const struct history_run *b,
			   const struct history_cmp *c);
int history_compare_json(FILE *f, const struct history_run *a,
			 const struct history_run *b,
			 const struct history_cmp *c);
/*
 * The verdict in one line, what summary.json, the history and nightly.sh
 * carry: "REGRESSION: r1 IOPS -24.1% (p=1.5e-05) vs median of 7" or
 * "no change vs history id 4".
 */
void history_compare_line(const struct history_run *a,
			  const struct history_cmp *c, char *buf, size_t len);

/* ---- the history database and baselines ---------------------------------- */

struct history_db;

/*
 * Open (creating it and its schema if need be) the history at path. 0, or
 * -errno with a message for people in err (locked, corrupt, read-only).
 */
int history_db_open(const char *path, int create, struct history_db **db,
		    char *err, size_t errlen);
void history_db_close(struct history_db *db);

/* Load the results folder dir into r (owned by the caller). */
int history_load_dir(const char *dir, struct history_run *r, char *err,
		     size_t errlen);

/*
 * Resolve a baseline spec to a loaded run: "last", "last~N" (N runs before
 * the last), "median:N" (the per-metric median of the last N), a history
 * id, or a results folder. Relative specs count only completed runs of
 * the parameter file hash file_hash (any file if NULL), and never the run
 * run_id exclude (may be NULL). db may be NULL for a folder. 0, or -errno
 * with why in err (-ENOENT: no such run).
 */
int history_resolve(struct history_db *db, const char *spec,
		    const char *file_hash, const char *exclude,
		    struct history_run *r, char *err, size_t errlen);
/* Whether spec is well formed (checked before a run starts). */
int history_spec_ok(const char *spec, char *err, size_t errlen);

/*
 * What the run hook hands its seal: the exit code the comparison made of
 * the run's, the verdict line ("" without a baseline) and the comparison
 * itself (base, cur and cmp all NULL when none was made), which
 * compare.txt and compare.json say (history_compare_file).
 */
struct history_seal {
	int exit_code;
	const char *verdict;
	const struct history_run *base, *cur;
	const struct history_cmp *cmp;
};
/*
 * How the run hook seals the record: finish the results folder with the
 * final exit code and the verdict: rewrite its summaries, write what is
 * still to be written (compare.*, report.html). Returns the exit code the
 * folder now says: s->exit_code, or 5 (LS_EXIT_INCOMPLETE) when a file of
 * it could not be written. The hook records that code in the history, so
 * the row, the folder and the exit status agree.
 */
typedef int (*history_seal_fn)(void *arg, const struct history_seal *s);
/* compare.txt (json 0) or compare.json (json 1) of s's comparison into f:
   0 or -errno. */
int history_compare_file(FILE *f, const struct history_seal *s, int json);
/*
 * The run hook of `lockstep run`, called once the results folder dir is
 * complete: with a baseline spec, compares with it and prints the verdict
 * table; then seals the folder with the final exit code, the verdict and
 * the comparison (seal, may be NULL: nothing is written into dir), and
 * records the run so in the history (hist: --history, or NULL for the
 * default; none with no_history). A regression turns an exit code 0 into
 * 3 (LS_EXIT_REGRESSION); a baseline asked for that cannot be resolved
 * (no usable run, no history) turns it into 6 (LS_EXIT_NO_BASELINE); a
 * history failure is printed and leaves the exit code alone. seal (may be
 * NULL) is called once on every path, before the history row is written.
 * Returns the exit code to use (seal's).
 */
int history_run_hook(const char *dir, const char *hist, int no_history,
		     const char *baseline, const char *threshold, int exit_code,
		     history_seal_fn seal, void *arg);
/*
 * The history options of `lockstep run`, checked before the run starts:
 * 0, or -EINVAL after a message on stderr.
 */
int history_check_args(const char *hist, int no_history, const char *baseline,
		       const char *threshold);

/* `lockstep history ...` and `lockstep compare ...`: exit codes. */
int history_main(int argc, char **argv);
int history_compare_main(int argc, char **argv);

/*
 * The history path: --history (opt), else $LOCKSTEP_HISTORY, else one
 * place that does not depend on -o: HISTORY_ROOT_DB for root,
 * $XDG_DATA_HOME/lockstep/history.db or ~/.local/share/lockstep/history.db
 * for anyone else. Returns opt or buf.
 */
#define HISTORY_ROOT_DB "/var/lib/lockstep/history.db"
const char *history_default_path(const char *opt, char *buf, size_t len);
/* The same, pure: env is $LOCKSTEP_HISTORY. 0, -ENOENT (no home). */
int history_default_for(const char *env, unsigned uid, const char *xdg,
			const char *home, char *buf, size_t len);

#endif
