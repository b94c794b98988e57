/*
 * The report's view of one results folder. Every file is opened relative
 * to the folder with O_NOFOLLOW (hosts/ too), must be a regular file, and
 * is read up to a bound; names taken from summary.json (slaves, .hgrm
 * files) must be one path component. Rows that do not parse are skipped
 * and counted: a broken folder gives a report that says what it lacks,
 * never one that invents a number.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "common/fsutil.h"
#include "common/log.h"
#include "master/report/csvrow.h"
#include "master/report/data.h"
#include "master/report/json.h"
#include "master/report/heatmap.h"
#include "master/report/telem.h"
#include "master/report/tseries.h"

/*
 * The per-interval columns the page draws, by intervals.csv's names. The
 * latency columns after slaves_expected are what the folder has per
 * interval for the log-scale latency chart (p50 and p99.9 only in
 * folders written since they were added; the page then takes the run's
 * from summary.json).
 */
static const char *const metric_col[] = {
	"iops",
	"mbps",
	"p99_ms",
	"resp_ms",
	"slaves_reported",
	"slaves_expected",
	"p95_ms",
	"read_resp_ms",
	"write_resp_ms",
	"p50_ms",
	"p999_ms",
	"read_ops",
	"write_ops",
};
#define NMETRIC (sizeof(metric_col) / sizeof(metric_col[0]))
/* Per host only IOPS, MB/s and p99 (the first three). */
#define NMETRIC_HOST 3
#define CSV_FIELDS_MAX CSVROW_FIELDS_MAX

/*
 * One CSV file: a series for each run (no a or b name), t0 the start_ns
 * of the run's first row, t the end of each interval after it, seq its
 * `interval` column (0 without one), NMETRIC numbers a row.
 */
struct csv {
	struct tseries *s;
	size_t n, cap;
	size_t skipped, late;
	int truncated;
};

void data_warn(struct data_warns *warns, const char *fmt, ...)
{
	char buf[512], esc[LOG_ESC_LEN(512)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* Names in it come from the folder's files: escaped on a terminal,
	   JSON-escaped and shown as text on the page. */
	log_warn("report: %s", log_escape(buf, esc, sizeof(esc)));
	if (warns->n < DATA_WARN_MAX) {
		warns->msg[warns->n] = strdup(buf);
		if (warns->msg[warns->n])
			warns->n++;
	}
}

void data_warns_free(struct data_warns *warns)
{
	for (size_t i = 0; i < warns->n; i++)
		free(warns->msg[i]);
	warns->n = 0;
}

static const char *why(int err)
{
	return fsutil_read_why(err);
}

static void csv_free(struct csv *c)
{
	for (size_t i = 0; i < c->n; i++)
		tseries_free(&c->s[i]);
	free(c->s);
	memset(c, 0, sizeof(*c));
}

static struct tseries *csv_find(struct csv *c, const char *run)
{
	/* Rows of one run are together: the last series is the usual hit. */
	for (size_t i = c->n; i-- > 0;)
		if (strcmp(c->s[i].run, run) == 0)
			return &c->s[i];
	return NULL;
}

static struct tseries *csv_add(struct csv *c, const char *run, uint64_t t0)
{
	struct tseries *s;

	if (c->n == c->cap) {
		size_t ncap = c->cap ? c->cap * 2 : 8;

		s = realloc(c->s, ncap * sizeof(*s));
		if (!s)
			return NULL;
		c->s = s;
		c->cap = ncap;
	}
	s = &c->s[c->n];
	memset(s, 0, sizeof(*s));
	s->run = strdup(run);
	if (!s->run)
		return NULL;
	s->t0 = t0;
	c->n++;
	return s;
}

/*
 * A late row (its fields f, metric columns col_m) onto the drawn row of
 * the same run and interval: the additive metrics add. -ENOENT when that
 * row is not there (a late row comes after it in the file).
 */
static int late_row(struct csv *c, const char *run, uint64_t seq,
		    char *const *f, const int *col_m)
{
	/* iops, mbps, reported, read_ops, write_ops */
	static const size_t add[] = { 0, 1, 4, 11, 12 };
	struct tseries *s = csv_find(c, run);

	if (!s || !seq)
		return -ENOENT;
	for (size_t i = s->n; i-- > 0;) {
		if (s->seq[i] != seq)
			continue;
		for (size_t k = 0; k < sizeof(add) / sizeof(add[0]); k++) {
			double v = col_m[add[k]] >= 0 ?
					   csvrow_dbl(f[col_m[add[k]]]) :
					   NAN;

			double *m = &s->v[i * NMETRIC + add[k]];

			if (isfinite(v) && isfinite(*m))
				*m += v;
		}
		return 0;
	}
	return -ENOENT;
}

/*
 * Parse a lockstep CSV (intervals.csv's columns, found by name in its
 * header). Rows of a run go to its series; a `late` row is added to the
 * row of its run and interval drawn already (IOPS, MB/s and the slaves
 * reported add; its p99 and mean are the row's): the page draws each
 * interval's final value, the I/Os the run totals count. With ref, each run's
 * time origin is ref's (the cluster's) so hosts line up with it.
 */
static int csv_parse(char *text, size_t len, struct csv *c,
		     const struct csv *ref)
{
	int col_run = -1, col_phase = -1, col_start = -1, col_end = -1;
	int col_iv = -1;
	int col_m[NMETRIC];
	char *f[CSV_FIELDS_MAX + 1];
	size_t nhead = 0;
	char *line = text, *nl;
	int ret;

	for (size_t k = 0; k < NMETRIC; k++)
		col_m[k] = -1;
	/* A cut file ends in the middle of a row: drop that row. */
	if (c->truncated)
		csvrow_whole_lines(text, &len);
	for (; line < text + len; line = nl + 1) {
		size_t nf;
		uint64_t start, end, seq;
		struct tseries *s;
		double *m;

		nl = strchr(line, '\n');
		if (!nl)
			nl = text + len;
		*nl = '\0';
		if (nl > line && nl[-1] == '\r')
			nl[-1] = '\0';
		nf = csvrow_split(line, f, CSV_FIELDS_MAX);
		if (nf > CSV_FIELDS_MAX) {
			c->skipped++;
			continue;
		}
		if (!nhead) {
			nhead = nf;
			for (size_t i = 0; i < nf; i++) {
				if (!strcmp(f[i], "run"))
					col_run = (int)i;
				else if (!strcmp(f[i], "phase"))
					col_phase = (int)i;
				else if (!strcmp(f[i], "start_ns"))
					col_start = (int)i;
				else if (!strcmp(f[i], "end_ns"))
					col_end = (int)i;
				else if (!strcmp(f[i], "interval"))
					col_iv = (int)i;
				for (size_t k = 0; k < NMETRIC; k++)
					if (!strcmp(f[i], metric_col[k]))
						col_m[k] = (int)i;
			}
			if (col_run < 0 || col_phase < 0 || col_start < 0 ||
			    col_end < 0)
				return -EINVAL;
			continue;
		}
		if (nf != nhead || csvrow_u64(f[col_start], &start) < 0 ||
		    csvrow_u64(f[col_end], &end) < 0 || end < start) {
			c->skipped++;
			continue;
		}
		if (col_iv < 0 || csvrow_u64(f[col_iv], &seq) < 0)
			seq = 0;
		if (!strcmp(f[col_phase], "late")) {
			if (late_row(c, f[col_run], seq, f, col_m) < 0)
				c->skipped++;
			else
				c->late++;
			continue;
		}
		s = csv_find(c, f[col_run]);
		if (!s) {
			const struct tseries *r =
				ref ? csv_find((struct csv *)ref, f[col_run]) :
				      NULL;

			s = csv_add(c, f[col_run], r ? r->t0 : start);
			if (!s)
				return -ENOMEM;
		}
		if (end < s->t0) {
			c->skipped++;
			continue;
		}
		ret = tseries_append(s, NMETRIC, seq,
				     (double)(end - s->t0) / 1e9,
				     !strcmp(f[col_phase], "warmup"), &m);
		if (ret < 0)
			return ret;
		for (size_t k = 0; k < NMETRIC; k++)
			m[k] = col_m[k] >= 0 ? csvrow_dbl(f[col_m[k]]) : NAN;
	}
	return nhead ? 0 : -EINVAL;
}

/* Read and parse one CSV; what goes wrong is a warning. */
static void csv_load(int dirfd, const char *name, const char *shown,
		     struct csv *c, const struct csv *ref,
		     struct data_warns *warns)
{
	size_t len;
	char *text;
	int ret;

	ret = fsutil_read_at(dirfd, name, DATA_CSV_MAX, &text, &len,
			     &c->truncated);
	if (ret < 0) {
		data_warn(warns, "%s: %s", shown, why(ret));
		return;
	}
	ret = csv_parse(text, len, c, ref);
	free(text);
	if (ret < 0) {
		data_warn(warns, "%s: %s", shown,
			  ret == -ENOMEM ? strerror(ENOMEM) :
					   "not a lockstep CSV (no header)");
		csv_free(c);
		return;
	}
	if (c->truncated)
		data_warn(warns, "%s: only its first %u MiB are shown", shown,
			  DATA_CSV_MAX >> 20);
	if (c->skipped)
		data_warn(warns, "%s: %zu rows that do not parse were left out",
			  shown, c->skipped);
}

/* A run's series: its name, time origin and first nmetric metrics. */
static void write_series(struct jsonw *w, const struct tseries *s,
			 size_t nmetric)
{
	jsonw_object(w, NULL);
	jsonw_str(w, "run", s->run);
	jsonw_u64(w, "t0_ns", s->t0);
	tseries_write(w, s, NMETRIC, metric_col, NULL, nmetric);
	jsonw_end(w);
}

/* One path component that stays in its folder (no '/', '.' or '..'). */
static int one_component(const char *name)
{
	return name && name[0] && !strchr(name, '/') && strcmp(name, ".") &&
	       strcmp(name, "..") && strlen(name) <= 255;
}

static void write_hosts(struct jsonw *w, int dirfd, const struct json *sum,
			const struct csv *cluster, struct data_warns *warns)
{
	const struct json *slaves = json_get(sum, "slaves");
	size_t shown = 0;
	int hfd = -1;

	jsonw_array(w, "hosts");
	if (!slaves || slaves->type != JSON_ARR || slaves->n == 0)
		goto out;
	hfd = openat(dirfd, "hosts",
		     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (hfd < 0) {
		data_warn(warns, "hosts/: %s", why(-errno));
		goto out;
	}
	for (size_t i = 0; i < slaves->n; i++) {
		const char *name = json_str(json_get(&slaves->item[i], "name"));
		char file[FSUTIL_NAME_MAX + 8], shownname[FSUTIL_NAME_MAX + 16];
		struct csv c = { 0 };
		int dup = 0;

		if (!name || !fsutil_name_ok(name)) {
			data_warn(warns,
				  "summary.json: slave %zu has no usable name",
				  i + 1);
			continue;
		}
		for (size_t k = 0; k < i && !dup; k++)
			dup = json_str(json_get(&slaves->item[k], "name")) &&
			      !strcmp(json_str(json_get(&slaves->item[k],
							"name")),
				      name);
		if (dup)
			continue;
		if (shown == DATA_HOSTS_MAX) {
			data_warn(warns,
				  "per-host charts show the first %u slaves",
				  DATA_HOSTS_MAX);
			break;
		}
		snprintf(file, sizeof(file), "%s.csv", name);
		snprintf(shownname, sizeof(shownname), "hosts/%s.csv", name);
		csv_load(hfd, file, shownname, &c, cluster, warns);
		jsonw_object(w, NULL);
		jsonw_str(w, "slave", name);
		jsonw_array(w, "runs");
		for (size_t k = 0; k < c.n; k++)
			write_series(w, &c.s[k], NMETRIC_HOST);
		jsonw_end(w);
		jsonw_end(w);
		csv_free(&c);
		shown++;
	}
out:
	if (hfd >= 0)
		close(hfd);
	jsonw_end(w);
}

/* The .hgrm of run r: files.hgrm when summary.json names it. */
static void write_hgrm(struct jsonw *w, int dirfd, const struct json *r,
		       struct data_warns *warns)
{
	const char *run = json_str(json_get(r, "name"));
	const char *fname = json_str(json_get(json_get(r, "files"), "hgrm"));
	char def[300];
	size_t len, npts = 0;
	char *text, *line, *nl;
	int trunc, ret;

	if (!run)
		return;
	if (!fname) {
		/* A name cut to fit would be another file: refuse it. */
		if ((size_t)snprintf(def, sizeof(def), "%s.hgrm", run) >=
		    sizeof(def)) {
			data_warn(warns,
				  "summary.json: a run name too long for a file name");
			return;
		}
		fname = def;
	}
	if (!one_component(fname)) {
		data_warn(warns,
			  "summary.json: run %s: .hgrm name is not a file of the folder",
			  run);
		return;
	}
	ret = fsutil_read_at(dirfd, fname, DATA_HGRM_MAX, &text, &len, &trunc);
	if (ret < 0) {
		data_warn(warns, "%s: %s", fname, why(ret));
		return;
	}
	if (trunc)
		data_warn(warns, "%s: larger than %u MiB, not shown", fname,
			  DATA_HGRM_MAX >> 20);
	jsonw_object(w, NULL);
	jsonw_str(w, "run", run);
	jsonw_str(w, "file", fname);
	/* Two passes over the lines: values, then percentiles. */
	for (int pass = 0; pass < 2 && !trunc; pass++) {
		jsonw_array(w, pass ? "percentile" : "value_ms");
		for (line = text; line < text + len; line = nl + 1) {
			double v, p;

			nl = strchr(line, '\n');
			if (!nl)
				nl = text + len;
			if (*line == '#' ||
			    sscanf(line, "%lf %lf", &v, &p) != 2 ||
			    !isfinite(v) || !isfinite(p) || p < 0 || p > 1)
				continue;
			jsonw_dbl(w, NULL, pass ? p : v);
			npts += !pass;
		}
		jsonw_end(w);
	}
	jsonw_end(w);
	if (!trunc && npts == 0)
		data_warn(warns, "%s: no percentile lines", fname);
	free(text);
}

/* Another JSON file of the folder, parsed and written again, if there. */
static void write_json_file(struct jsonw *w, int dirfd, const char *name,
			    struct data_warns *warns)
{
	struct json *j;
	char err[256];
	size_t len;
	char *text;
	int trunc, ret;

	ret = fsutil_read_at(dirfd, name, DATA_JSON_MAX, &text, &len, &trunc);
	if (ret == -ENOENT)
		return;
	if (ret < 0 || trunc) {
		data_warn(warns, "%s: %s", name,
			  trunc ? "too large" : why(ret));
		free(text);
		return;
	}
	ret = json_parse(text, len, &j, err, sizeof(err));
	free(text);
	if (ret < 0) {
		data_warn(warns, "%s: %s", name,
			  ret == -EINVAL ? err : why(ret));
		return;
	}
	json_write(w, "compare", j);
	json_free(j);
}

typedef int (*telem_fn)(struct jsonw *w, const char *key, char *text,
			size_t len, int truncated, const struct telem_ref *ref,
			size_t nref, struct telem_stats *st);

/*
 * devices.csv, hoststats.csv or probes.csv (name), parsed by fn and
 * written under key on the time axis of intervals.csv's runs (cluster).
 * A file that is absent or empty (an older folder, a run without block
 * devices or probes) writes nothing and says nothing: the page then
 * draws no panel for it.
 */
static void write_telem(struct jsonw *w, int dirfd, const char *name,
			const char *key, telem_fn fn, const struct csv *cluster,
			struct data_warns *warns)
{
	struct telem_ref *ref = NULL;
	struct telem_stats st;
	size_t len;
	char *text;
	int trunc, ret;

	ret = fsutil_read_at(dirfd, name, DATA_CSV_MAX, &text, &len, &trunc);
	if (ret == -ENOENT)
		return;
	if (ret < 0) {
		data_warn(warns, "%s: %s", name, why(ret));
		return;
	}
	if (len == 0)
		goto out;
	if (cluster->n) {
		ref = calloc(cluster->n, sizeof(*ref));
		if (!ref) {
			data_warn(warns, "%s: %s", name, strerror(ENOMEM));
			goto out;
		}
		for (size_t i = 0; i < cluster->n; i++)
			ref[i] = (struct telem_ref){ cluster->s[i].run,
						     cluster->s[i].t0 };
	}
	ret = fn(w, key, text, len, trunc, ref, cluster->n, &st);
	if (ret < 0) {
		data_warn(warns, "%s: %s", name,
			  ret == -ENOMEM ? strerror(ENOMEM) :
					   "not a lockstep CSV (no header)");
		goto out;
	}
	if (trunc)
		data_warn(warns, "%s: only its first %u MiB are shown", name,
			  DATA_CSV_MAX >> 20);
	if (st.skipped)
		data_warn(warns, "%s: %zu rows that do not parse were left out",
			  name, st.skipped);
	if (st.over)
		data_warn(warns,
			  "%s: %zu rows beyond the first %u series were left out",
			  name, st.over, TELEM_SERIES_MAX);
	if (st.between)
		jsonw_u64(w, "probes_between_runs", st.between);
out:
	free(ref);
	free(text);
}

int data_write_set(struct jsonw *w, const char *key, const char *dir,
		   struct data_warns *warns, char *err, size_t errlen)
{
	const struct json *runs;
	struct csv cluster = { 0 };
	struct json *sum = NULL;
	char perr[256];
	size_t len;
	char *text;
	int dirfd, trunc, ret;

	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", dir, strerror(-ret));
		return ret;
	}
	ret = fsutil_read_at(dirfd, "summary.json", DATA_JSON_MAX, &text, &len,
			     &trunc);
	if (ret == 0 && trunc) {
		free(text);
		ret = -EFBIG;
	}
	if (ret < 0) {
		snprintf(err, errlen, "%s/summary.json: %s", dir, why(ret));
		goto out;
	}
	ret = json_parse(text, len, &sum, perr, sizeof(perr));
	free(text);
	if (ret == 0 && sum->type != JSON_OBJ)
		ret = -EINVAL;
	if (ret < 0) {
		snprintf(err, errlen, "%s/summary.json: %s", dir,
			 ret == -EINVAL ? (perr[0] ? perr : "not an object") :
					  strerror(-ret));
		goto out;
	}
	jsonw_object(w, key);
	jsonw_str(w, "dir", dir);
	json_write(w, "summary", sum);
	csv_load(dirfd, "intervals.csv", "intervals.csv", &cluster, NULL,
		 warns);
	jsonw_array(w, "intervals");
	for (size_t i = 0; i < cluster.n; i++)
		write_series(w, &cluster.s[i], NMETRIC);
	jsonw_end(w);
	write_hosts(w, dirfd, sum, &cluster, warns);
	write_telem(w, dirfd, "devices.csv", "devices", telem_devices, &cluster,
		    warns);
	write_telem(w, dirfd, "hoststats.csv", "hoststats", telem_hoststats,
		    &cluster, warns);
	write_telem(w, dirfd, "probes.csv", "probes", telem_probes, &cluster,
		    warns);
	write_telem(w, dirfd, "ops.csv", "ops", telem_ops, &cluster, warns);
	write_telem(w, dirfd, "histograms.csv", "heatmap", telem_heatmap,
		    &cluster, warns);
	jsonw_array(w, "hgrm");
	runs = json_get(sum, "runs");
	for (size_t i = 0; runs && runs->type == JSON_ARR && i < runs->n; i++)
		write_hgrm(w, dirfd, &runs->item[i], warns);
	jsonw_end(w);
	/* `lockstep compare` leaves its verdicts here (another command). */
	write_json_file(w, dirfd, "compare.json", warns);
	jsonw_end(w);
	ret = 0;
out:
	csv_free(&cluster);
	json_free(sum);
	close(dirfd);
	return ret;
}
