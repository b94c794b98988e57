/*
 * The verdict of a compare: runs matched by name, each metric's change
 * judged against the threshold and a significance test over the
 * per-interval series, and the conditions that differ between the two
 * sides (file, slaves, hosts, engine, status) listed beside the verdict,
 * never folded into it. Pure: two loaded runs in, a struct history_cmp out;
 * printing it (text and JSON) is the rest of this file.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "master/history/history_int.h"
#include "common/jsonw.h"

static const struct {
	const char *name;
	const char *label;
	int better; /* +1: higher is better, -1: lower is, 0: neither */
	int series; /* enum history_series, or -1 */
} metrics[HISTORY_NMETRICS] = {
	[HISTORY_IOPS] = { "iops", "IOPS", 1, HISTORY_S_IOPS },
	[HISTORY_MBPS] = { "mbps", "MB/s", 1, HISTORY_S_MBPS },
	[HISTORY_MEAN] = { "mean", "mean ms", -1, HISTORY_S_RESP },
	[HISTORY_P50] = { "p50", "p50 ms", -1, -1 },
	[HISTORY_P95] = { "p95", "p95 ms", -1, HISTORY_S_P95 },
	[HISTORY_P99] = { "p99", "p99 ms", -1, HISTORY_S_P99 },
	[HISTORY_P999] = { "p999", "p99.9 ms", -1, -1 },
	[HISTORY_READ_PCT] = { "read_pct", "read %", 0, -1 },
};

/*
 * A metric's label for run name: a file-system operation's run (RUN/OP,
 * loadops.c) counts operations, not I/Os.
 */
static const char *metric_label(int m, const char *name)
{
	return m == HISTORY_IOPS && strchr(name, '/') ? "ops/s" :
							metrics[m].label;
}

const char *history_metric_name(enum history_metric m)
{
	return metrics[m].name;
}

int history_metric_find(const char *name)
{
	for (int m = 0; m < HISTORY_NMETRICS; m++)
		if (!strcmp(name, metrics[m].name))
			return m;
	return -1;
}

const char *history_verdict_name(enum history_verdict v)
{
	static const char *const names[] = { "no change", "noise",
					     "improvement", "regression" };

	return names[v];
}

int history_threshold_parse(const char *s, struct history_threshold *t,
			    char *err, size_t errlen)
{
	char buf[512], *save = NULL, *item;

	memset(t, 0, sizeof(*t));
	t->alpha = 0.05;
	if (strlen(s) >= sizeof(buf)) {
		snprintf(err, errlen, "--threshold: too long");
		return -EINVAL;
	}
	strcpy(buf, s);
	for (item = strtok_r(buf, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '='), *end;
		int m, found = -1;
		double v;

		if (!eq) {
			snprintf(err, errlen,
				 "--threshold: '%s' is not METRIC=PCT%% (e.g. iops=-5%%)",
				 item);
			return -EINVAL;
		}
		*eq = 0;
		for (m = 0; m < HISTORY_NMETRICS; m++)
			if (metrics[m].series >= 0 &&
			    !strcmp(item, metrics[m].name))
				found = m;
		if (found < 0) {
			snprintf(err, errlen,
				 "--threshold: unknown metric '%s' (iops, mbps, mean, p95 or p99)",
				 item);
			return -EINVAL;
		}
		errno = 0;
		v = strtod(eq + 1, &end);
		if (end == eq + 1 || errno || !isfinite(v) ||
		    (*end && strcmp(end, "%")) || v == 0 || fabs(v) >= 1000) {
			snprintf(err, errlen,
				 "--threshold: %s=%s is not a percentage such as %s5%%",
				 item, eq + 1,
				 metrics[found].better > 0 ? "-" : "+");
			return -EINVAL;
		}
		/* A sign, when given, must point the bad way of the metric. */
		if ((eq[1] == '+' || eq[1] == '-') &&
		    (v > 0 ? 1 : -1) == metrics[found].better) {
			snprintf(err, errlen,
				 "--threshold: %s=%s points the good way: %s is worse when it %s",
				 item, eq + 1, item,
				 metrics[found].better > 0 ? "falls (use -N%)" :
							     "rises (use +N%)");
			return -EINVAL;
		}
		t->pct[found] = -metrics[found].better * fabs(v);
		t->set[found] = 1;
	}
	return 0;
}

/*
 * One metric's verdict: significant (p < alpha) or not, then how far and
 * which way. Without a test (too few intervals) the threshold alone
 * decides: a nightly job with one interval per run must still be able to
 * fail, and the output says that no test ran.
 */
static void judge(struct history_cmp_metric *cm, int m,
		  const struct history_threshold *t)
{
	double lim = fabs(t->pct[m]), bad;
	int significant = !cm->tested || cm->p < t->alpha;

	cm->v = HISTORY_NO_CHANGE;
	if (!cm->judged)
		return;
	if (!isfinite(cm->pct)) {
		cm->v = HISTORY_NOISE;
		return;
	}
	if (cm->pct == 0)
		return;
	if (!significant) {
		cm->v = HISTORY_NOISE;
		return;
	}
	bad = -metrics[m].better * cm->pct; /* > 0: worse */
	if (bad >= lim)
		cm->v = HISTORY_REGRESSION;
	else if (-bad >= lim)
		cm->v = HISTORY_IMPROVEMENT;
}

static void compare_phase(const struct history_phase *a,
			  const struct history_phase *b,
			  const struct history_threshold *t,
			  struct history_cmp_run *cr)
{
	cr->v = HISTORY_NO_CHANGE;
	cr->na = a->n;
	cr->nb = b->n;
	for (int m = 0; m < HISTORY_NMETRICS; m++) {
		struct history_cmp_metric *cm = &cr->m[m];
		int s = metrics[m].series;

		cm->a = a->v[m];
		cm->b = b->v[m];
		cm->pct = a->v[m] != 0 && isfinite(a->v[m]) ?
				  (b->v[m] - a->v[m]) / a->v[m] * 100 :
				  NAN;
		/* Nothing measured on either side (a file-system run's
		   getattr phase has no reads or writes, a create no MB/s of
		   its own): nothing to judge, not noise. */
		cm->judged = t->set[m] && (a->v[m] > 0 || b->v[m] > 0);
		cm->z = cm->r = NAN;
		if (a->nnight[m] >= HISTORY_MIN_NIGHTS) {
			/* Enough nights: tonight against their spread. */
			cm->night = 1;
			cm->nights = a->nnight[m];
			cm->p = history_stats_night(a->night[m], a->nnight[m],
						    b->v[m], &cm->z);
		} else if (s >= 0 && a->series[s] && b->series[s]) {
			cm->r = history_stats_ac1_seg(a->series[s], a->seg,
						      a->nseg, a->n,
						      b->series[s], b->n);
			cm->p = history_stats_interval_p(a->series[s], a->n,
							 b->series[s], b->n,
							 cm->r);
			cm->fragile = !isnan(cm->p) &&
				      history_stats_mwu_floor(a->n, b->n,
							      cm->r) >=
					      t->alpha;
		} else {
			cm->p = NAN;
		}
		cm->tested = !isnan(cm->p);
		judge(cm, m, t);
		if (cm->v > cr->v ||
		    (cr->v == HISTORY_NO_CHANGE && cm->v == HISTORY_NOISE))
			cr->v = cm->v;
	}
}

static void add_cond(struct history_cmp *c, const char *what, const char *a,
		     const char *b)
{
	if (c->ncond >= HISTORY_MAX_CONDITIONS)
		return;
	snprintf(c->cond[c->ncond++], sizeof(c->cond[0]), "%s: %s -> %s", what,
		 a, b);
}

static int str_differs(const char *a, const char *b)
{
	/* Unknown on either side (an old folder) is not a change. */
	return a && b && *a && *b && strcmp(a, b);
}

static void conditions(const struct history_run *a, const struct history_run *b,
		       struct history_cmp *c)
{
	char na[16], nb[16];

	if (str_differs(a->param_hash, b->param_hash))
		add_cond(c, "parameter file hash", a->param_hash,
			 b->param_hash);
	if (a->nslaves != b->nslaves) {
		snprintf(na, sizeof(na), "%u", a->nslaves);
		snprintf(nb, sizeof(nb), "%u", b->nslaves);
		add_cond(c, "slave count", na, nb);
	}
	if (str_differs(a->hosts, b->hosts))
		add_cond(c, "host set", a->hosts, b->hosts);
	if (str_differs(a->engine, b->engine))
		add_cond(c, "engine", a->engine, b->engine);
	if (strcmp(a->status, "completed"))
		add_cond(c, "baseline status", a->status, "(judge with care)");
	if (strcmp(b->status, "completed"))
		add_cond(c, "candidate status", b->status, "(judge with care)");
}

static int find_phase(const struct history_run *r, const char *name)
{
	for (size_t i = 0; i < r->nphases; i++)
		if (!strcmp(r->ph[i].name, name))
			return (int)i;
	return -1;
}

int history_compare(const struct history_run *a, const struct history_run *b,
		    const struct history_threshold *t, struct history_cmp *c)
{
	size_t n = 0;

	memset(c, 0, sizeof(*c));
	c->runs = calloc(a->nphases + b->nphases + 1, sizeof(*c->runs));
	if (!c->runs)
		return -ENOMEM;
	/* The candidate's order first, then the baseline's leftovers. */
	for (size_t i = 0; i < b->nphases; i++) {
		struct history_cmp_run *cr = &c->runs[n++];

		snprintf(cr->name, sizeof(cr->name), "%s", b->ph[i].name);
		cr->ib = (int)i;
		cr->ia = find_phase(a, b->ph[i].name);
		if (cr->ia >= 0)
			compare_phase(&a->ph[cr->ia], &b->ph[i], t, cr);
	}
	for (size_t i = 0; i < a->nphases; i++)
		if (find_phase(b, a->ph[i].name) < 0) {
			struct history_cmp_run *cr = &c->runs[n++];

			snprintf(cr->name, sizeof(cr->name), "%s",
				 a->ph[i].name);
			cr->ia = (int)i;
			cr->ib = -1;
		}
	c->nruns = n;
	c->v = HISTORY_NO_CHANGE;
	for (size_t i = 0; i < n; i++) {
		if (c->runs[i].ia < 0 || c->runs[i].ib < 0)
			continue;
		if (c->runs[i].v > c->v || (c->v == HISTORY_NO_CHANGE &&
					    c->runs[i].v == HISTORY_NOISE))
			c->v = c->runs[i].v;
	}
	c->regression = c->v == HISTORY_REGRESSION;
	for (size_t i = 0; i < n; i++)
		for (int m = 0; m < HISTORY_NMETRICS; m++) {
			const struct history_cmp_metric *cm = &c->runs[i].m[m];

			if (c->runs[i].ia < 0 || c->runs[i].ib < 0 ||
			    !cm->judged || !cm->tested)
				continue;
			if (cm->night)
				c->nights++;
			else
				c->nseries++;
		}
	conditions(a, b, c);
	return 0;
}

void history_compare_free(struct history_cmp *c)
{
	free(c->runs);
	c->runs = NULL;
	c->nruns = 0;
}

/* ---- output -------------------------------------------------------------- */

/* A figure, or "-" where it is unknown (NaN), in the same width. */
static void print_num(FILE *f, double v, int sign, int width, int prec,
		      const char *unit)
{
	if (!isfinite(v))
		fprintf(f, " %*s%*s", width, "-", (int)strlen(unit), "");
	else if (sign)
		fprintf(f, " %+*.*f%s", width, prec, v, unit);
	else
		fprintf(f, " %*.*f%s", width, prec, v, unit);
}

static void print_p(FILE *f, const struct history_cmp_metric *cm)
{
	if (cm->tested && cm->night)
		fprintf(f, "  p=%.3g (z=%.2f, %zu nights)", cm->p, cm->z,
			cm->nights);
	else if (cm->tested)
		fprintf(f, "  p=%.3g (intervals, r1=%.2f)", cm->p, cm->r);
	else
		fprintf(f, "  (no test: too few intervals)");
}

/* Which test judged, in words. */
static void print_test(FILE *f, const struct history_cmp *c)
{
	if (c->nights)
		fprintf(f,
			"test: night to night: a robust z of tonight against the baseline nights' median and MAD (1.4826 MAD as sigma), two-sided, alpha 0.05\n");
	if (c->nseries)
		fprintf(f,
			"test: Mann-Whitney U over the measured intervals, variance widened for their lag-1 autocorrelation r1 (two-sided, alpha 0.05)%s\n",
			c->nights ?
				"" :
				"; fewer than 5 baseline nights, so intervals, not nights");
	if (!c->nights && !c->nseries)
		fprintf(f,
			"test: none ran (too few intervals): the threshold alone decides\n");
}

static const char *test_name(const struct history_cmp *c)
{
	return c->nights && c->nseries ? "night-robust-z+mann-whitney-u-ac1" :
	       c->nights               ? "night-robust-z" :
	       c->nseries              ? "mann-whitney-u-ac1" :
					 "none";
}

/* "median of 7", "history id 4" or the folder: what tonight met. */
static void base_name(const struct history_run *a, char *buf, size_t len)
{
	if (a->nmedian)
		snprintf(buf, len, "median of %u", a->nmedian);
	else if (a->id)
		snprintf(buf, len, "history id %lld", (long long)a->id);
	else
		snprintf(buf, len, "%s", a->label);
}

void history_compare_line(const struct history_run *a,
			  const struct history_cmp *c, char *buf, size_t len)
{
	char who[200];
	size_t used = 0;
	int listed = 0;

	base_name(a, who, sizeof(who));
	if (c->v != HISTORY_REGRESSION && c->v != HISTORY_IMPROVEMENT) {
		snprintf(buf, len, "%s vs %s", history_verdict_name(c->v), who);
		return;
	}
	used = (size_t)snprintf(buf, len, "%s:",
				c->regression ? "REGRESSION" : "improvement");
	for (size_t i = 0; i < c->nruns && used < len; i++)
		for (int m = 0; m < HISTORY_NMETRICS && used < len; m++) {
			const struct history_cmp_metric *cm = &c->runs[i].m[m];

			if (cm->v != c->v)
				continue;
			used += (size_t)snprintf(buf + used, len - used,
						 "%s %s %s %+.1f%%",
						 listed ? "," : "",
						 c->runs[i].name,
						 metric_label(m,
							      c->runs[i].name),
						 cm->pct);
			if (used < len && cm->tested)
				used += (size_t)snprintf(buf + used, len - used,
							 cm->p < 1e-16 ?
								 " (p<1e-16)" :
								 " (p=%.3g)",
							 cm->p);
			listed = 1;
		}
	if (used < len)
		snprintf(buf + used, len - used, " vs %s", who);
}

void history_compare_print(FILE *f, const struct history_run *a,
			   const struct history_run *b,
			   const struct history_cmp *c)
{
	char line[1024];

	fprintf(f, "baseline:  %s\ncandidate: %s\n", a->label, b->label);
	print_test(f, c);
	for (size_t i = 0; i < c->nruns; i++) {
		const struct history_cmp_run *cr = &c->runs[i];
		int fragile = 0;

		if (cr->ia < 0 || cr->ib < 0) {
			fprintf(f, "\nRun %s: only in the %s, not compared\n",
				cr->name,
				cr->ia < 0 ? "candidate" : "baseline");
			continue;
		}
		fprintf(f, "\nRun %s: %s\n", cr->name,
			history_verdict_name(cr->v));
		fprintf(f, "  %-9s %12s %12s %12s %9s  %s\n", "metric",
			"baseline", "candidate", "delta", "delta%", "verdict");
		for (int m = 0; m < HISTORY_NMETRICS; m++) {
			const struct history_cmp_metric *cm = &cr->m[m];

			fragile |= cm->judged && cm->fragile &&
				   cm->v == HISTORY_NOISE;
			fprintf(f, "  %-9s", metric_label(m, cr->name));
			print_num(f, cm->a, 0, 12, 3, "");
			print_num(f, cm->b, 0, 12, 3, "");
			print_num(f, cm->b - cm->a, 1, 12, 3, "");
			print_num(f, cm->pct, 1, 8, 1, "%");
			fprintf(f, "  %s",
				cm->judged ? history_verdict_name(cm->v) : "-");
			if (cm->judged)
				print_p(f, cm);
			fputc('\n', f);
		}
		if (fragile)
			fprintf(f,
				"  note: with %zu and %zu intervals, one interval of either run beyond the other's is enough to make any change noise; a longer run (or 5 baseline nights) decides\n",
				c->runs[i].na, c->runs[i].nb);
	}
	if (c->ncond) {
		fprintf(f, "\nchanged conditions (flagged, not judged):\n");
		for (size_t i = 0; i < c->ncond; i++)
			fprintf(f, "  %s\n", c->cond[i]);
	}
	history_compare_line(a, c, line, sizeof(line));
	fprintf(f, "\nverdict: %s\n", line);
}

static void json_side(struct jsonw *w, const char *key,
		      const struct history_run *r)
{
	jsonw_object(w, key);
	jsonw_str(w, "label", r->label);
	if (r->id)
		jsonw_i64(w, "history_id", r->id);
	jsonw_str(w, "run_id", r->run_id);
	jsonw_str(w, "dir", r->dir);
	jsonw_str(w, "status", r->status);
	jsonw_str(w, "param_hash", r->param_hash);
	jsonw_end(w);
}

int history_compare_json(FILE *f, const struct history_run *a,
			 const struct history_run *b,
			 const struct history_cmp *c)
{
	struct jsonw w;

	jsonw_init(&w, f);
	jsonw_object(&w, NULL);
	jsonw_str(&w, "verdict", history_verdict_name(c->v));
	jsonw_bool(&w, "regression", c->regression);
	{
		char line[1024];

		history_compare_line(a, c, line, sizeof(line));
		jsonw_str(&w, "line", line);
	}
	jsonw_str(&w, "test", test_name(c));
	jsonw_dbl(&w, "alpha", 0.05);
	json_side(&w, "baseline", a);
	json_side(&w, "candidate", b);
	jsonw_array(&w, "conditions");
	for (size_t i = 0; i < c->ncond; i++)
		jsonw_str(&w, NULL, c->cond[i]);
	jsonw_end(&w);
	jsonw_array(&w, "unmatched");
	for (size_t i = 0; i < c->nruns; i++)
		if (c->runs[i].ia < 0 || c->runs[i].ib < 0) {
			jsonw_object(&w, NULL);
			jsonw_str(&w, "name", c->runs[i].name);
			jsonw_str(&w, "only_in",
				  c->runs[i].ia < 0 ? "candidate" : "baseline");
			jsonw_end(&w);
		}
	jsonw_end(&w);
	jsonw_array(&w, "runs");
	for (size_t i = 0; i < c->nruns; i++) {
		const struct history_cmp_run *cr = &c->runs[i];

		if (cr->ia < 0 || cr->ib < 0)
			continue;
		jsonw_object(&w, NULL);
		jsonw_str(&w, "name", cr->name);
		jsonw_str(&w, "verdict", history_verdict_name(cr->v));
		jsonw_object(&w, "metrics");
		for (int m = 0; m < HISTORY_NMETRICS; m++) {
			const struct history_cmp_metric *cm = &cr->m[m];

			jsonw_object(&w, metrics[m].name);
			jsonw_dbl(&w, "baseline", cm->a);
			jsonw_dbl(&w, "candidate", cm->b);
			jsonw_dbl(&w, "delta", cm->b - cm->a);
			jsonw_dbl(&w, "delta_pct", cm->pct);
			if (cm->judged) {
				jsonw_str(&w, "verdict",
					  history_verdict_name(cm->v));
				jsonw_dbl(&w, "p_value", cm->p);
				jsonw_str(&w, "test",
					  !cm->tested ? "none" :
					  cm->night   ? "night-robust-z" :
							"mann-whitney-u-ac1");
				if (cm->night) {
					jsonw_u64(&w, "nights", cm->nights);
					jsonw_dbl(&w, "z", cm->z);
				} else if (cm->tested) {
					jsonw_dbl(&w, "lag1_autocorrelation",
						  cm->r);
					jsonw_bool(&w, "fragile", cm->fragile);
				}
			}
			jsonw_end(&w);
		}
		jsonw_end(&w);
		jsonw_end(&w);
	}
	jsonw_end(&w);
	jsonw_end(&w);
	return jsonw_finish(&w);
}
