/*
 * A results folder read back into a struct history_run: summary.json for
 * the run, its slaves and every run's totals, intervals.csv for the
 * per-interval cluster series, and the copied parameter file for its text
 * and hash. The folder is written by other engineers' code too and may be
 * old or hand-edited: unknown keys and columns are ignored, a missing
 * figure reads as NaN, and anything malformed is refused with the file
 * and line. summary.json is parsed with SQLite's JSON functions on an
 * in-memory database, so there is no second JSON parser to trust.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sqlite3.h>
#include "common/fsutil.h"
#include "master/history/history_int.h"

#define SUMMARY_MAX (64u << 20)

void history_run_free(struct history_run *r)
{
	for (size_t i = 0; i < r->nphases; i++) {
		for (int s = 0; s < HISTORY_NSERIES; s++)
			free(r->ph[i].series[s]);
		for (int m = 0; m < HISTORY_NMETRICS; m++)
			free(r->ph[i].night[m]);
		free(r->ph[i].seg);
	}
	free(r->ph);
	free(r->slaves);
	free(r->hosts);
	free(r->param_text);
	free(r->plan);
	memset(r, 0, sizeof(*r));
}

static const char *const top_keys[] = {
	"$.run_id",     "$.status", "$.exit_code", "$.started", "$.ended",
	"$.param_file", "$.engine", "$.host",      "$.verdict", "$.insecure",
};

static int read_top(sqlite3 *j, const char *doc, struct history_run *r,
		    char *pfile, size_t plen)
{
	sqlite3_stmt *st;
	int ret;

	ret = sqlite3_prepare_v2(j,
				 "SELECT json_extract(?1,?2),json_extract(?1,?3),"
				 "json_extract(?1,?4),json_extract(?1,?5),json_extract(?1,?6),"
				 "json_extract(?1,?7),json_extract(?1,?8),json_extract(?1,?9),"
				 "json_type(?1,'$.runs'),json_extract(?1,?10),"
				 "json_type(?1,?11)",
				 -1, &st, NULL);
	if (ret != SQLITE_OK)
		return -EIO;
	sqlite3_bind_text(st, 1, doc, -1, SQLITE_STATIC);
	for (size_t i = 0; i < sizeof(top_keys) / sizeof(top_keys[0]); i++)
		sqlite3_bind_text(st, (int)i + 2, top_keys[i], -1,
				  SQLITE_STATIC);
	ret = -EBADMSG;
	if (sqlite3_step(st) == SQLITE_ROW) {
		double ec = history_load_col(st, 2);

		history_load_str(st, 0, r->run_id, sizeof(r->run_id));
		history_load_str(st, 1, r->status, sizeof(r->status));
		r->exit_code = isfinite(ec) ? (int)ec : -1;
		history_load_str(st, 3, r->started, sizeof(r->started));
		history_load_str(st, 4, r->ended, sizeof(r->ended));
		history_load_str(st, 5, pfile, plen);
		history_load_str(st, 6, r->engine, sizeof(r->engine));
		history_load_str(st, 7, r->host, sizeof(r->host));
		history_load_str(st, 9, r->verdict, sizeof(r->verdict));
		/* JSON true: "insecure": anything else is not a claim of it. */
		r->insecure = sqlite3_column_text(st, 10) &&
			      !strcmp((const char *)sqlite3_column_text(st, 10),
				      "true");
		if (*r->run_id && *r->status && sqlite3_column_text(st, 8) &&
		    !strcmp((const char *)sqlite3_column_text(st, 8), "array"))
			ret = 0;
	}
	sqlite3_finalize(st);
	return ret;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A comma-separated list of names, sorted and each once if uniq. */
static char *join_names(char **v, size_t n, int uniq)
{
	size_t len = 1, used = 0;
	char *out;

	if (n) /* qsort(NULL, 0) is undefined */
		qsort(v, n, sizeof(*v), cmp_str);
	for (size_t i = 0; i < n; i++)
		len += strlen(v[i]) + 1;
	out = malloc(len);
	if (!out)
		return NULL;
	out[0] = 0;
	for (size_t i = 0; i < n; i++) {
		if (uniq && i && !strcmp(v[i], v[i - 1]))
			continue;
		used += (size_t)sprintf(out + used, "%s%s", used ? "," : "",
					v[i]);
	}
	return out;
}

static int read_slaves(sqlite3 *j, const char *doc, struct history_run *r)
{
	char **names = NULL, **hosts = NULL;
	size_t n = 0, cap = 0;
	sqlite3_stmt *st;
	int ret = 0;

	if (sqlite3_prepare_v2(j,
			       "SELECT json_extract(value,'$.name'),"
			       "json_extract(value,'$.host') "
			       "FROM json_each(?1,'$.slaves')",
			       -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_text(st, 1, doc, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		char name[256], host[256];

		if (n == cap) {
			char **a, **b;

			cap = cap ? cap * 2 : 16;
			a = realloc(names, cap * sizeof(*a));
			if (a)
				names = a;
			b = realloc(hosts, cap * sizeof(*b));
			if (b)
				hosts = b;
			if (!a || !b) {
				ret = -ENOMEM;
				break;
			}
		}
		history_load_str(st, 0, name, sizeof(name));
		history_load_str(st, 1, host, sizeof(host));
		names[n] = strdup(name);
		hosts[n] = strdup(host);
		n++;
		if (!names[n - 1] || !hosts[n - 1]) {
			ret = -ENOMEM;
			break;
		}
	}
	sqlite3_finalize(st);
	r->nslaves = (unsigned)n;
	if (!ret) {
		r->slaves = join_names(names, n, 0);
		r->hosts = join_names(hosts, n, 1);
		if (!r->slaves || !r->hosts)
			ret = -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		free(names[i]);
		free(hosts[i]);
	}
	free(names);
	free(hosts);
	return ret;
}

/* summary.json totals keys, in enum history_metric order. */
static const char *const total_keys[HISTORY_NMETRICS] = {
	"$.totals.iops",        "$.totals.mbps",       "$.totals.lat_mean_ms",
	"$.totals.lat_p50_ms",  "$.totals.lat_p95_ms", "$.totals.lat_p99_ms",
	"$.totals.lat_p999_ms", "$.totals.read_pct",
};

static int read_phases(sqlite3 *j, const char *doc, struct history_run *r)
{
	static const char sql[] =
		"SELECT json_extract(value,'$.name'),json_extract(value,'$.kind'),"
		"json_extract(value,'$.elapsed_s'),json_extract(value,'$.warmup_s'),"
		"json_extract(value,'$.interval_s'),json_extract(value,'$.iorate'),"
		"json_extract(value,'$.totals.errors'),"
		"json_extract(value,?2),json_extract(value,?3),"
		"json_extract(value,?4),json_extract(value,?5),"
		"json_extract(value,?6),json_extract(value,?7),"
		"json_extract(value,?8),json_extract(value,?9) "
		"FROM json_each(?1,'$.runs')";
	sqlite3_stmt *st;
	size_t cap = 0;
	int ret = 0;

	if (sqlite3_prepare_v2(j, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_text(st, 1, doc, -1, SQLITE_STATIC);
	for (int m = 0; m < HISTORY_NMETRICS; m++)
		sqlite3_bind_text(st, m + 2, total_keys[m], -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct history_phase *p;
		double e;

		if (r->nphases == cap) {
			struct history_phase *np;

			cap = cap ? cap * 2 : 8;
			np = realloc(r->ph, cap * sizeof(*np));
			if (!np) {
				ret = -ENOMEM;
				break;
			}
			r->ph = np;
		}
		p = &r->ph[r->nphases];
		memset(p, 0, sizeof(*p));
		history_load_str(st, 0, p->name, sizeof(p->name));
		if (!*p->name) {
			ret = -EBADMSG;
			break;
		}
		history_load_str(st, 1, p->kind, sizeof(p->kind));
		p->elapsed_s = history_load_col(st, 2);
		p->warmup_s = history_load_col(st, 3);
		p->interval_s = history_load_col(st, 4);
		p->iorate = history_load_col(st, 5);
		e = history_load_col(st, 6);
		p->errors = isfinite(e) && e > 0 ? (uint64_t)e : 0;
		for (int m = 0; m < HISTORY_NMETRICS; m++) {
			int t = sqlite3_column_type(st, 7 + m);

			p->v[m] = history_load_col(st, 7 + m);
			/* An array, object or string is no figure: refused. */
			if (t != SQLITE_NULL && t != SQLITE_INTEGER &&
			    t != SQLITE_FLOAT)
				p->v[m] = -INFINITY;
		}
		r->nphases++;
	}
	sqlite3_finalize(st);
	return ret;
}

/* ---- intervals.csv ------------------------------------------------------- */

/* The series' columns in enum history_series order, then run and phase. */
static const char *const csv_cols[HISTORY_NSERIES + 2] = {
	"iops", "mbps", "resp_ms", "p95_ms", "p99_ms", "run", "phase",
};

static struct history_phase *phase_by_name(struct history_run *r,
					   const char *name)
{
	for (size_t i = 0; i < r->nphases; i++)
		if (!strcmp(r->ph[i].name, name))
			return &r->ph[i];
	return NULL;
}

/*
 * The measured rows of each run, as series. A `late` row holds I/Os of an
 * interval whose row was already written: its IOPS and MB/s are added to
 * the last measured interval of its run (a late row follows it), its
 * latencies cannot be merged back and are left out.
 */
static int read_intervals(int dirfd, const char *dir, struct history_run *r,
			  char *err, size_t errlen)
{
	char path[PATH_MAX], *text, *line, *save = NULL, *f[64];
	int col[HISTORY_NSERIES + 2], crun = -1, cphase = -1, ret = 0, bad;
	unsigned lineno = 0;
	size_t len;

	snprintf(path, sizeof(path), "%s/intervals.csv", dir);
	ret = history_load_slurp(dirfd, "intervals.csv", SUMMARY_MAX * 4u,
				 &text, &len);
	if (ret < 0) {
		snprintf(err, errlen, "%s: %s", path, fsutil_read_why(ret));
		return ret;
	}
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		int n = history_load_split(line, f, 64);
		double v[HISTORY_NSERIES];
		struct history_phase *p;

		lineno++;
		if (lineno == 1) {
			if (history_load_cols(f, n < 64 ? n : 64, csv_cols,
					      HISTORY_NSERIES + 2, col) < 0) {
				snprintf(err, errlen,
					 "%s:1:1: not a lockstep intervals.csv header",
					 path);
				ret = -EBADMSG;
				break;
			}
			crun = col[HISTORY_NSERIES];
			cphase = col[HISTORY_NSERIES + 1];
			continue;
		}
		if (n > 64 || n <= crun || n <= cphase) {
			snprintf(err, errlen, "%s:%u:1: %d columns", path,
				 lineno, n);
			ret = -EBADMSG;
			break;
		}
		bad = history_load_nums(f, n, col, HISTORY_NSERIES, v);
		if (bad) {
			snprintf(err, errlen,
				 "%s:%u: column %s is not a number", path,
				 lineno, csv_cols[bad - 1]);
			ret = -EBADMSG;
			break;
		}
		p = phase_by_name(r, f[crun]);
		if (!p) /* a run the summary does not list (aborted) */
			continue;
		if (!strcmp(f[cphase], "measure")) {
			ret = history_load_push(p, v);
			if (ret < 0)
				break;
		} else if (!strcmp(f[cphase], "late") && p->n) {
			p->series[HISTORY_S_IOPS][p->n - 1] += v[HISTORY_S_IOPS];
			p->series[HISTORY_S_MBPS][p->n - 1] += v[HISTORY_S_MBPS];
		}
	}
	free(text);
	return ret;
}

/* The series' mean, NaN without intervals. */
static double series_mean(const struct history_phase *p, int s)
{
	double sum = 0;

	if (!p->n)
		return NAN;
	for (size_t i = 0; i < p->n; i++)
		sum += p->series[s][i];
	return sum / (double)p->n;
}

/*
 * The totals are figures a run could have measured: finite, not negative,
 * a read % within 0..100, latencies under a day, and IOPS and MB/s within
 * a factor 2 of the mean of the run's measured intervals (late rows
 * folded in) when intervals.csv has any. A hand-edited or hostile
 * summary.json is refused with the key, never recorded.
 */
static int check_totals(const char *dir, const struct history_run *r, char *err,
			size_t errlen)
{
	static const char *const keys[HISTORY_NMETRICS] = {
		"iops",       "mbps",       "lat_mean_ms", "lat_p50_ms",
		"lat_p95_ms", "lat_p99_ms", "lat_p999_ms", "read_pct",
	};
	static const int series[HISTORY_NMETRICS] = {
		[HISTORY_IOPS] = HISTORY_S_IOPS + 1,
		[HISTORY_MBPS] = HISTORY_S_MBPS + 1,
	};

	for (size_t i = 0; i < r->nphases; i++) {
		const struct history_phase *p = &r->ph[i];

		for (size_t k = 0; k < p->n; k++)
			for (int s = 0; s < HISTORY_NSERIES; s++)
				if (!isfinite(p->series[s][k]) ||
				    p->series[s][k] < 0) {
					snprintf(err, errlen,
						 "%s/intervals.csv: run %s, measured interval %zu: %g is no figure",
						 dir, p->name, k + 1,
						 p->series[s][k]);
					return -EBADMSG;
				}
		for (int m = 0; m < HISTORY_NMETRICS; m++) {
			double v = p->v[m], mean;
			const char *why = NULL;

			if (isnan(v))
				continue; /* not there: unknown, never 0 */
			if (v == -INFINITY)
				why = "is not a number";
			else if (!isfinite(v) || v < 0)
				why = "is not a finite figure >= 0";
			else if (m == HISTORY_READ_PCT && v > 100)
				why = "is over 100";
			else if (m >= HISTORY_MEAN && m <= HISTORY_P999 &&
				 v > 86400e3)
				why = "is over a day";
			mean = series[m] ? series_mean(p, series[m] - 1) : NAN;
			if (!why && isfinite(mean) &&
			    (v > 2 * mean + 1 || v < mean / 2 - 1))
				why = "does not match the mean of its measured intervals in intervals.csv";
			if (why && v == -INFINITY) {
				snprintf(err, errlen,
					 "%s/summary.json: run %s: totals.%s %s: refused",
					 dir, p->name, keys[m], why);
				return -EBADMSG;
			}
			if (why) {
				snprintf(err, errlen,
					 "%s/summary.json: run %s: totals.%s %s (%.6g, intervals' mean %.6g): refused",
					 dir, p->name, keys[m], why, v, mean);
				return -EBADMSG;
			}
		}
	}
	return 0;
}

/* The plan as text: one line per run, what the next night must repeat. */
static int make_plan(struct history_run *r)
{
	size_t cap = 64 + r->nphases * (HISTORY_NAME_MAX + 96), used = 0;

	r->plan = malloc(cap);
	if (!r->plan)
		return -ENOMEM;
	r->plan[0] = 0;
	for (size_t i = 0; i < r->nphases; i++) {
		const struct history_phase *p = &r->ph[i];

		if (!strcmp(p->kind, "fsop"))
			continue; /* its run's line says it */
		used += (size_t)
			snprintf(r->plan + used, cap - used,
				 "%s %s elapsed=%g warmup=%g interval=%g iorate=%g\n",
				 p->name, p->kind, p->elapsed_s, p->warmup_s,
				 p->interval_s, p->iorate);
	}
	return 0;
}

/* The copied parameter file: its text and hash (none if it is not there). */
static int read_param(int dirfd, const char *dir, const char *pfile,
		      struct history_run *r, char *err, size_t errlen)
{
	const char *base = strrchr(pfile, '/');
	size_t len;
	int ret;

	base = base ? base + 1 : pfile;
	snprintf(r->param_name, sizeof(r->param_name), "%s", base);
	if (!*base || *base == '.' || strchr(base, '/'))
		return 0;
	ret = history_load_slurp(dirfd, base, 16u << 20, &r->param_text, &len);
	if (ret == 0)
		history_load_hash(r->param_text, len, r->param_hash);
	if (ret == -ENOENT)
		return 0;
	if (ret < 0)
		snprintf(err, errlen, "%s/%s: %s", dir, base,
			 fsutil_read_why(ret));
	return ret;
}

int history_load_dir(const char *dir, struct history_run *r, char *err,
		     size_t errlen)
{
	char path[PATH_MAX], pfile[PATH_MAX];
	sqlite3 *j = NULL;
	char *doc = NULL;
	size_t len;
	int ret, dirfd;

	memset(r, 0, sizeof(*r));
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path,
			 ret == -ENOENT ? "no such file (no such folder)" :
					  strerror(-ret));
		return ret;
	}
	ret = history_load_slurp(dirfd, "summary.json", SUMMARY_MAX, &doc,
				 &len);
	if (ret < 0) {
		snprintf(err, errlen, "%s: %s", path,
			 ret == -ENOENT ?
				 "no such file (not a results folder, or the run never finished)" :
				 fsutil_read_why(ret));
		close(dirfd);
		return ret;
	}
	if (sqlite3_open_v2(":memory:", &j, SQLITE_OPEN_READWRITE, NULL) !=
	    SQLITE_OK) {
		snprintf(err, errlen, "sqlite: %s", sqlite3_errmsg(j));
		ret = -ENOMEM;
		goto out;
	}
	ret = read_top(j, doc, r, pfile, sizeof(pfile));
	if (ret == 0)
		ret = read_slaves(j, doc, r);
	if (ret == 0)
		ret = read_phases(j, doc, r);
	if (ret == 0)
		ret = history_load_fsops(j, doc, r);
	if (ret < 0) {
		snprintf(err, errlen,
			 "%s: not a lockstep summary (malformed JSON, or no run_id, status or runs)",
			 path);
		goto out;
	}
	ret = read_intervals(dirfd, dir, r, err, errlen);
	if (ret == 0)
		ret = history_load_opscsv(dirfd, dir, r, err, errlen);
	if (ret == 0)
		ret = check_totals(dir, r, err, errlen);
	if (ret < 0)
		goto out;
	if (!realpath(dir, r->dir))
		snprintf(r->dir, sizeof(r->dir), "%s", dir);
	snprintf(r->label, sizeof(r->label), "%s (run %.8s)", dir, r->run_id);
	ret = read_param(dirfd, dir, pfile, r, err, errlen);
	if (ret == 0)
		ret = make_plan(r);
out:
	close(dirfd);
	if (ret < 0)
		history_run_free(r);
	sqlite3_close(j);
	free(doc);
	return ret;
}

/* ---- median:N ------------------------------------------------------------ */

int history_load_median(const struct history_run *runs, size_t n,
			struct history_run *out)
{
	const struct history_run *newest = &runs[0];
	double *tmp = malloc(n * sizeof(double));
	size_t used, nsegmax = 0;

	for (size_t i = 0; i < n; i++)
		nsegmax += runs[i].nphases;

	memset(out, 0, sizeof(*out));
	if (!tmp)
		return -ENOMEM;
	*out = *newest;
	out->nmedian = (unsigned)n;
	out->accepted = 0;
	out->verdict[0] = 0;
	out->slaves = newest->slaves ? strdup(newest->slaves) : NULL;
	out->hosts = newest->hosts ? strdup(newest->hosts) : NULL;
	out->param_text = NULL;
	out->plan = NULL;
	out->ph = calloc(newest->nphases + 1, sizeof(*out->ph));
	if (!out->ph)
		goto nomem;
	used = (size_t)snprintf(out->label, sizeof(out->label),
				"median of %zu runs (history ids", n);
	for (size_t i = 0; i < n && used < sizeof(out->label); i++)
		used += (size_t)snprintf(out->label + used,
					 sizeof(out->label) - used, " %lld",
					 (long long)runs[i].id);
	if (used < sizeof(out->label))
		snprintf(out->label + used, sizeof(out->label) - used, ")");
	for (size_t k = 0; k < newest->nphases; k++) {
		struct history_phase *p = &out->ph[k];

		*p = newest->ph[k];
		p->n = 0;
		for (int s = 0; s < HISTORY_NSERIES; s++)
			p->series[s] = NULL;
		for (int m = 0; m < HISTORY_NMETRICS; m++) {
			p->night[m] = NULL;
			p->nnight[m] = 0;
		}
		/* One segment per night's run of this name (a file may
		   name a run twice: each is a series of its own). */
		p->seg = calloc(nsegmax ? nsegmax : 1, sizeof(*p->seg));
		p->nseg = 0;
		out->nphases = k + 1;
		if (!p->seg)
			goto nomem;
		for (int m = 0; m < HISTORY_NMETRICS; m++) {
			size_t c = 0;

			for (size_t i = 0; i < n; i++)
				for (size_t q = 0; q < runs[i].nphases; q++)
					if (!strcmp(runs[i].ph[q].name,
						    p->name) &&
					    isfinite(runs[i].ph[q].v[m]))
						tmp[c++] = runs[i].ph[q].v[m];
			/* Each night's own value, for the night test. */
			p->night[m] = malloc((c ? c : 1) * sizeof(double));
			if (!p->night[m])
				goto nomem;
			memcpy(p->night[m], tmp, c * sizeof(double));
			p->nnight[m] = c;
			p->v[m] = history_stats_median(tmp, c);
		}
		/* The test sees every interval of every night pooled, and
		   where each night's begin (the autocorrelation's segments). */
		for (size_t i = 0; i < n; i++)
			for (size_t q = 0; q < runs[i].nphases; q++) {
				const struct history_phase *src = &runs[i].ph[q];

				if (strcmp(src->name, p->name))
					continue;
				if (p->nseg < nsegmax)
					p->seg[p->nseg++] = src->n;
				for (size_t x = 0; x < src->n; x++) {
					double v[HISTORY_NSERIES];

					for (int s = 0; s < HISTORY_NSERIES;
					     s++)
						v[s] = src->series[s][x];
					if (history_load_push(p, v) < 0)
						goto nomem;
				}
			}
	}
	free(tmp);
	return 0;
nomem:
	free(tmp);
	history_run_free(out);
	return -ENOMEM;
}
