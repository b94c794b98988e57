/*
 * The SLO search of iorate=slo (master/plan/slo.h), as the user reads it:
 * a console line after every run of a search (the max run and each step:
 * its rate, its measured value of the objective, whether it meets it, the
 * bracket after it, its steady state and the slaves whose own value broke
 * the objective), the answer once the search is over, and the same in
 * summary.json ("slo": one object per search) and summary.txt. The search
 * is replayed from the runs' results (run/slosteps.h), as the conductor
 * replays it to pick each step's rate, so what is said is what was run.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "common/jsonw.h"
#include "master/run/master_int.h"
#include "master/run/slosteps.h"
#include "master/results/sink.h"

/* Slaves named per step as over the objective (the rest are counted). */
#define SLO_LIST 8

struct slo_sink {
	int said; /* only for a non-zero size */
};

/* The first slave (lowest rate) whose own value broke the objective. */
struct slo_first {
	int found;
	unsigned slave;
	double rate, value_ms;
};

static const struct params_rd *rd_of(const struct run_view *rv,
				     const struct run_result *r)
{
	return &rv->params->rd[r->ph.rd];
}

/* A rate with thousands separators, whole IO/s: "12,800". */
static const char *rate_str(double x, char *buf, size_t len)
{
	char d[32];
	size_t n, o = 0;

	snprintf(d, sizeof(d), "%.0f", x > 0 ? x : 0);
	n = strlen(d);
	for (size_t i = 0; i < n && o + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = d[i];
	}
	buf[o] = '\0';
	return buf;
}

/* Decimals for a latency in ms: 3 significant digits, none from 100. */
static int ms_digits(double ms)
{
	return !(ms < 100) ? 0 : ms < 1 ? 3 : ms < 10 ? 2 : 1;
}

/* The run's rate in the search: a step's fixed rate, the max run's own. */
static double run_rate(const struct run_result *r)
{
	return r->ph.kind == PLAN_SLO_STEP ? r->slo.rate : r->slo.iops;
}

/* Whether runs[i] belongs to the search of runs[max] and ran. */
static int in_search(const struct run_view *rv, size_t max, size_t i)
{
	const struct run_result *r = &rv->ph->runs[i];

	if (i == max)
		return r->done;
	return r->done && r->ph.kind == PLAN_SLO_STEP && r->ph.curve_max == max;
}

/* The end of the search: the runs of runs[max] are max..end-1. */
static size_t search_end(const struct run_view *rv, size_t max)
{
	size_t i = max + 1;

	while (i < rv->ph->nruns && rv->ph->runs[i].ph.kind == PLAN_SLO_STEP &&
	       rv->ph->runs[i].ph.curve_max == max)
		i++;
	return i;
}

static int slave_over(const struct slave_total *t, double target_ms)
{
	return t->ran && !isnan(t->slo_ms) && t->slo_ms > target_ms;
}

static void first_host(const struct run_view *rv, size_t max, size_t upto,
		       struct slo_first *f)
{
	double target = rd_of(rv, &rv->ph->runs[max])->slo_ms;

	memset(f, 0, sizeof(*f));
	for (size_t i = max; i < upto; i++) {
		const struct run_result *r = &rv->ph->runs[i];

		if (!in_search(rv, max, i) ||
		    (f->found && run_rate(r) >= f->rate))
			continue;
		for (unsigned s = 0; s < r->nslave; s++) {
			const struct slave_total *t = &r->slave[s];

			if (!slave_over(t, target))
				continue;
			if (f->found && run_rate(r) == f->rate &&
			    t->slo_ms <= f->value_ms)
				continue;
			*f = (struct slo_first){ 1, s, run_rate(r), t->slo_ms };
		}
	}
}

static const char *stat_name(double pct, char *buf, size_t len)
{
	if (pct < 0)
		snprintf(buf, len, "mean");
	else
		snprintf(buf, len, "p%g", pct);
	return buf;
}

/* "step 3" or "max run". */
static const char *run_label(const struct run_result *r, char *buf, size_t len)
{
	if (r->ph.kind == PLAN_SLO_STEP)
		snprintf(buf, len, "step %u", r->ph.slo_step);
	else
		snprintf(buf, len, "max run");
	return buf;
}

static void say_run(const struct run_view *rv, FILE *f, size_t idx,
		    const struct slo_search *s)
{
	const struct run_result *r = &rv->ph->runs[idx];
	const struct params_rd *rd = rd_of(rv, r);
	enum slo_verdict v = slo_judge(rd->slo_ms, &r->slo);
	char obj[64], st[16], a[32], b[32], c[32], lab[32];
	const char *why;
	int steady = sink_steady_verdict(rv, idx, &why);
	unsigned over = 0;

	slo_name(rd->slo_pct, rd->slo_ms, obj, sizeof(obj));
	fprintf(f, "SLO %s: %s at %s IO/s: %s %.*f ms %s", obj,
		run_label(r, lab, sizeof(lab)),
		rate_str(run_rate(r), a, sizeof(a)),
		stat_name(rd->slo_pct, st, sizeof(st)),
		ms_digits(r->slo.value_ms), r->slo.value_ms,
		slo_verdict_name(v));
	if (v == SLO_SHORT)
		fprintf(f, " (reached %s IO/s: counts as failing)",
			rate_str(r->slo.iops, c, sizeof(c)));
	fprintf(f, " (bracket %s..%s)", rate_str(s->lo, a, sizeof(a)),
		rate_str(s->hi, b, sizeof(b)));
	fprintf(f, ", %s",
		steady > 0  ? "steady" :
		steady == 0 ? "NOT STEADY" :
			      "steady state not judged");
	for (unsigned i = 0; i < r->nslave; i++) {
		if (!slave_over(&r->slave[i], rd->slo_ms))
			continue;
		if (over < SLO_LIST)
			fprintf(f, "%s %s", over ? "," : "; over on:",
				rv->roster->slaves[i].hello.name);
		over++;
	}
	if (over > SLO_LIST)
		fprintf(f, " and %u more", over - SLO_LIST);
	fprintf(f, "\n");
}

/* snprintf that returns what it wrote (at most len - 1). */
static size_t put(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static size_t put(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

/* The answer, once the search is over ("" when it is not). */
static void answer(const struct run_view *rv, size_t max, size_t upto,
		   const struct slo_search *s, char *buf, size_t len)
{
	const struct params_rd *rd = rd_of(rv, &rv->ph->runs[max]);
	double prec = rd->sloprecision_pct;
	char obj[64], a[32], b[32];
	struct slo_first fh;
	size_t o = 0;

	buf[0] = '\0';
	slo_name(rd->slo_pct, rd->slo_ms, obj, sizeof(obj));
	rate_str(s->lo, a, sizeof(a));
	rate_str(s->hi, b, sizeof(b));
	if (s->end == SLO_GOING)
		return;
	o = put(buf, len, "SLO %s: ", obj);
	if (s->end == SLO_FOUND)
		o += put(buf + o, len - o,
			 "max rate %s IO/s (bracket %s..%s, precision %g%%, %u steps)",
			 a, a, b, prec, s->done);
	else if (s->end == SLO_MAX_MEETS)
		o += put(buf + o, len - o,
			 "max rate %s IO/s: the max run meets it, the answer is the max rate (no step needed)",
			 a);
	else if (s->end == SLO_NONE_MEETS)
		o += put(buf + o, len - o,
			 "no rate meets it: even %s IO/s fails (%u steps)", b,
			 s->done);
	else if (s->end == SLO_NO_STEPS)
		o += put(buf + o, len - o,
			 "max rate %s IO/s (bracket %s..%s, wider than the precision %g%%: the %u planned steps ran out)",
			 a, a, b, prec, s->done);
	else if (s->end == SLO_NO_MAX)
		o += put(buf + o, len - o,
			 "no answer: the max run measured no I/O or no latency");
	else
		o += put(buf + o, len - o,
			 "no answer: step %u measured no I/O or no latency (bracket %s..%s)",
			 s->done + 1, a, b);
	first_host(rv, max, upto, &fh);
	if (fh.found)
		put(buf + o, len - o,
		    "; first host to break it: %s at %s IO/s (%.*f ms)",
		    rv->roster->slaves[fh.slave].hello.name,
		    rate_str(fh.rate, a, sizeof(a)), ms_digits(fh.value_ms),
		    fh.value_ms);
	else
		put(buf + o, len - o, "; no host broke it on its own");
}

static void slo_run_end(const struct run_view *rv, void *priv,
			const struct sink_run_end *e)
{
	size_t idx = (size_t)(e->r - rv->ph->runs), max;
	struct slo_search s;
	char line[512];
	FILE *f;

	(void)priv;
	if (e->r->ph.kind != PLAN_SLO_MAX && e->r->ph.kind != PLAN_SLO_STEP)
		return;
	if (!e->totals || rv->opt->vdbench_console)
		return;
	max = e->r->ph.kind == PLAN_SLO_MAX ? idx : e->r->ph.curve_max;
	slosteps_search(rv->params, rv->ph->runs, max, idx + 1, &s);
	f = results_stdout(rv);
	say_run(rv, f, idx, &s);
	answer(rv, max, idx + 1, &s, line, sizeof(line));
	if (line[0])
		fprintf(f, "%s\n", line);
	fprintf(f, "\n");
}

static void run_json(const struct run_view *rv, struct jsonw *w, size_t idx)
{
	const struct run_result *r = &rv->ph->runs[idx];
	const struct params_rd *rd = rd_of(rv, r);
	enum slo_verdict v = slo_judge(rd->slo_ms, &r->slo);
	const char *why;
	int steady = sink_steady_verdict(rv, idx, &why);

	jsonw_object(w, NULL);
	jsonw_str(w, "run", r->ph.name);
	if (r->ph.kind == PLAN_SLO_STEP)
		jsonw_u64(w, "step", r->ph.slo_step);
	jsonw_dbl(w, "rate", run_rate(r));
	jsonw_dbl(w, "iops", r->slo.iops);
	jsonw_dbl(w, "value_ms", r->slo.value_ms);
	jsonw_bool(w, "met", v == SLO_MEETS);
	jsonw_str(w, "verdict", slo_verdict_name(v));
	if (steady >= 0)
		jsonw_bool(w, "steady", steady);
	else
		jsonw_str(w, "steady_not_judged", why);
	jsonw_array(w, "slaves_over");
	for (unsigned i = 0; i < r->nslave; i++) {
		if (!slave_over(&r->slave[i], rd->slo_ms))
			continue;
		jsonw_object(w, NULL);
		jsonw_str(w, "slave", rv->roster->slaves[i].hello.name);
		jsonw_dbl(w, "value_ms", r->slave[i].slo_ms);
		jsonw_end(w);
	}
	jsonw_end(w);
	jsonw_end(w);
}

static const char *end_name(enum slo_end e)
{
	static const char *const names[] = {
		[SLO_GOING] = "going",
		[SLO_FOUND] = "found",
		[SLO_MAX_MEETS] = "max_meets",
		[SLO_NONE_MEETS] = "none_meets",
		[SLO_NO_STEPS] = "out_of_steps",
		[SLO_NO_MAX] = "no_max",
		[SLO_STOPPED] = "stopped",
	};

	return names[e];
}

static void search_json(const struct run_view *rv, struct jsonw *w, size_t max)
{
	const struct run_result *m = &rv->ph->runs[max];
	const struct params_rd *rd = rd_of(rv, m);
	size_t end = search_end(rv, max);
	struct slo_search s;
	struct slo_first fh;
	char obj[64], st[16], line[512];

	slosteps_search(rv->params, rv->ph->runs, max, end, &s);
	first_host(rv, max, end, &fh);
	answer(rv, max, end, &s, line, sizeof(line));
	slo_name(rd->slo_pct, rd->slo_ms, obj, sizeof(obj));
	jsonw_object(w, NULL);
	jsonw_str(w, "rd", rd->name);
	jsonw_str(w, "max_run", m->ph.name);
	jsonw_str(w, "objective", obj);
	jsonw_str(w, "statistic", stat_name(rd->slo_pct, st, sizeof(st)));
	jsonw_dbl(w, "target_ms", rd->slo_ms);
	jsonw_dbl(w, "precision_pct", rd->sloprecision_pct);
	jsonw_dbl(w, "short_tolerance_pct", SLO_SHORT_PCT);
	jsonw_u64(w, "steps_planned", m->ph.slo_steps);
	jsonw_u64(w, "steps_run", s.done);
	jsonw_str(w, "end", end_name(s.end));
	jsonw_dbl(w, "max_iops", s.max);
	if (s.lo > 0 && s.end != SLO_NO_MAX)
		jsonw_dbl(w, "answer_iops", s.lo);
	else
		jsonw_dbl(w, "answer_iops", NAN);
	jsonw_array(w, "bracket");
	jsonw_dbl(w, NULL, s.lo);
	jsonw_dbl(w, NULL, s.hi);
	jsonw_end(w);
	jsonw_str(w, "said", line);
	jsonw_array(w, "steps");
	for (size_t i = max; i < end; i++)
		if (in_search(rv, max, i))
			run_json(rv, w, i);
	jsonw_end(w);
	if (fh.found) {
		jsonw_object(w, "first_host_over");
		jsonw_str(w, "slave", rv->roster->slaves[fh.slave].hello.name);
		jsonw_dbl(w, "rate", fh.rate);
		jsonw_dbl(w, "value_ms", fh.value_ms);
		jsonw_end(w);
	}
	jsonw_end(w);
}

static int has_search(const struct run_view *rv)
{
	for (size_t i = 0; i < rv->ph->nruns; i++)
		if (rv->ph->runs[i].ph.kind == PLAN_SLO_MAX &&
		    rv->ph->runs[i].done)
			return 1;
	return 0;
}

static void slo_summary_json(const struct run_view *rv, void *priv,
			     struct jsonw *w)
{
	(void)priv;
	if (!has_search(rv))
		return;
	jsonw_array(w, "slo");
	for (size_t i = 0; i < rv->ph->nruns; i++)
		if (rv->ph->runs[i].ph.kind == PLAN_SLO_MAX &&
		    rv->ph->runs[i].done)
			search_json(rv, w, i);
	jsonw_end(w);
}

static void slo_summary_txt(const struct run_view *rv, void *priv, FILE *f)
{
	(void)priv;
	if (!has_search(rv))
		return;
	fprintf(f, "SLO search (iorate=slo: bisection over fixed rates)\n");
	for (size_t max = 0; max < rv->ph->nruns; max++) {
		size_t end;
		struct slo_search s;
		char line[512];

		if (rv->ph->runs[max].ph.kind != PLAN_SLO_MAX ||
		    !rv->ph->runs[max].done)
			continue;
		end = search_end(rv, max);
		for (size_t i = max; i < end; i++) {
			if (!in_search(rv, max, i))
				continue;
			slosteps_search(rv->params, rv->ph->runs, max, i + 1,
					&s);
			fprintf(f, "  ");
			say_run(rv, f, i, &s);
		}
		slosteps_search(rv->params, rv->ph->runs, max, end, &s);
		answer(rv, max, end, &s, line, sizeof(line));
		fprintf(f, "  %s\n", line[0] ? line : "SLO search not over");
	}
	fprintf(f, "\n");
}

/* The run of the search that met at the answer's rate, or -1. */
static long answer_run(const struct run_view *rv, size_t max, size_t end,
		       const struct slo_search *s)
{
	const struct params_rd *rd = rd_of(rv, &rv->ph->runs[max]);
	long best = -1;

	if (s->lo <= 0)
		return -1;
	for (size_t i = max; i < end; i++) {
		const struct run_result *r = &rv->ph->runs[i];

		if (in_search(rv, max, i) &&
		    slo_judge(rd->slo_ms, &r->slo) == SLO_MEETS &&
		    (best < 0 || run_rate(r) > run_rate(&rv->ph->runs[best])))
			best = (long)i;
	}
	return best;
}

/*
 * With two searches or more (lockstep easy's four profiles), one table at
 * the end of the console: each rd's answer and what its answering run
 * measured, so the answers are read in one place.
 */
static void slo_end(const struct run_view *rv, void *priv)
{
	unsigned n = 0;
	FILE *f;

	(void)priv;
	if (rv->opt->vdbench_console)
		return;
	for (size_t i = 0; i < rv->ph->nruns; i++)
		n += rv->ph->runs[i].ph.kind == PLAN_SLO_MAX &&
		     rv->ph->runs[i].done;
	if (n < 2)
		return;
	f = results_stdout(rv);
	fprintf(f,
		"\nSLO answers: the highest cluster rate that met each objective\n");
	fprintf(f, "%-24s %-16s %12s %12s %10s %12s  %s\n", "rd", "objective",
		"answer IO/s", "meas. IO/s", "MB/s", "latency ms", "steady");
	for (size_t max = 0; max < rv->ph->nruns; max++) {
		const struct run_result *m = &rv->ph->runs[max];
		const struct params_rd *rd;
		const struct run_result *r;
		struct slo_search s;
		char obj[64], a[32], st[16];
		const char *why;
		size_t end;
		int steady;
		long k;

		if (m->ph.kind != PLAN_SLO_MAX || !m->done)
			continue;
		rd = rd_of(rv, m);
		end = search_end(rv, max);
		slosteps_search(rv->params, rv->ph->runs, max, end, &s);
		k = answer_run(rv, max, end, &s);
		slo_name(rd->slo_pct, rd->slo_ms, obj, sizeof(obj));
		if (k < 0) {
			fprintf(f, "%-24s %-16s %12s %12s %10s %12s  %s\n",
				rd->name, obj, "none", "-", "-", "-",
				s.end == SLO_GOING ? "(not over)" : "");
			continue;
		}
		r = &rv->ph->runs[k];
		steady = sink_steady_verdict(rv, (size_t)k, &why);
		fprintf(f, "%-24s %-16s %12s %12.1f %10.2f %6s %5.*f  %s\n",
			rd->name, obj, rate_str(s.lo, a, sizeof(a)),
			r->view.iops, r->view.mbps,
			stat_name(rd->slo_pct, st, sizeof(st)),
			ms_digits(r->slo.value_ms), r->slo.value_ms,
			steady > 0  ? "yes" :
			steady == 0 ? "NO" :
				      "not judged");
	}
	fprintf(f, "\n");
}

const struct sink_ops sink_slo = {
	.name = "SLO search (console, summary.json, summary.txt)",
	.priv_size = sizeof(struct slo_sink),
	.run_end = slo_run_end,
	.summary_json = slo_summary_json,
	.summary_txt = slo_summary_txt,
	.end = slo_end,
};
