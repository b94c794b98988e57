/*
 * ops.csv for the report (see telem.h): a file-system run's operations,
 * a row per cluster interval and operation (run, interval, phase,
 * start_ns, end_ns, operation, count, rate, ..., resp_ms, ...). Each
 * operation of a run is a series of its rate and mean response time on
 * the run's time axis; a `late` row (a slave's interval that came after
 * its cluster row) adds its count and rate to the row of its interval,
 * and its response time into the row's mean by count, as the page draws
 * intervals.csv's late rows; `total` rows are the run's and not drawn.
 * A row is taken only when every cell is what its column says.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "master/report/csvrow.h"
#include "master/report/telem.h"

enum {
	O_RUN,
	O_IV,
	O_PHASE,
	O_START,
	O_END,
	O_OP,
	O_COUNT,
	O_RATE,
	O_RESP,
	O_N,
};
static const char *const ops_col[O_N] = {
	"run",       "interval", "phase", "start_ns", "end_ns",
	"operation", "count",    "rate",  "resp_ms",
};

/* A row's numbers: the drawn two, then the count and the latency sum
   (count x mean) a late row adds into the mean by. */
enum { V_RATE, V_RESP, V_COUNT, V_LAT, V_N };

struct ops {
	struct tstable s; /* (run, operation, "") */
	const struct telem_ref *ref;
	size_t nref;
	int col[O_N];
	size_t nhead;
	struct telem_stats *st;
};

static int ops_header(void *arg, char *const *f, size_t nf)
{
	struct ops *o = arg;

	csvrow_header(f, nf, ops_col, O_N, o->col);
	for (size_t k = 0; k < O_N; k++)
		if (o->col[k] < 0)
			return -EINVAL;
	o->nhead = nf;
	return 0;
}

/* A count and a mean into row v (NaN: none yet). */
static void add_into(double *v, double count, double rate, double resp)
{
	if (isnan(v[V_COUNT])) {
		v[V_RATE] = rate;
		v[V_COUNT] = count;
		v[V_LAT] = count * resp;
	} else {
		v[V_RATE] += rate;
		v[V_COUNT] += count;
		v[V_LAT] += count * resp;
	}
	v[V_RESP] = v[V_COUNT] > 0 ? v[V_LAT] / v[V_COUNT] : 0;
}

static int ops_row(void *arg, char *const *f, size_t nf)
{
	struct ops *o = arg;
	const int *col = o->col;
	const char *run, *op, *phase;
	uint64_t seq, start, end, count;
	double rate, resp, *v;
	struct tseries *s;
	int warm, found, ret;

	if (nf != o->nhead)
		return -EINVAL;
	run = f[col[O_RUN]];
	op = f[col[O_OP]];
	phase = f[col[O_PHASE]];
	if (!strcmp(phase, "total"))
		return 0;
	warm = !strcmp(phase, "warmup");
	if (!csvrow_name_ok(run) || !csvrow_name_ok(op) ||
	    (!warm && strcmp(phase, "measure") && strcmp(phase, "late")) ||
	    csvrow_u64(f[col[O_IV]], &seq) < 0 || !seq ||
	    csvrow_u64(f[col[O_START]], &start) < 0 ||
	    csvrow_u64(f[col[O_END]], &end) < 0 || end < start ||
	    csvrow_u64(f[col[O_COUNT]], &count) < 0 ||
	    csvrow_cell(f[col[O_RATE]], &rate) < 0 || !(rate >= 0) ||
	    csvrow_cell(f[col[O_RESP]], &resp) < 0 || !(resp >= 0))
		return -EINVAL;
	ret = tstable_get(&o->s, run, op, "",
			  telem_t0(o->ref, o->nref, run, start), &s);
	if (ret < 0)
		return ret;
	if (end < s->t0)
		return -EINVAL;
	ret = tseries_row(s, V_N, seq, (double)(end - s->t0) / 1e9, warm, &v,
			  &found);
	if (ret < 0)
		return ret;
	add_into(v, (double)count, rate, resp);
	o->st->rows++;
	o->st->late += !strcmp(phase, "late");
	return 0;
}

static void write_run(struct jsonw *w, const struct ops *o, size_t first)
{
	static const char *const names[] = { "rate", "resp_ms" };
	const char *run = o->s.s[first].run;

	jsonw_object(w, NULL);
	jsonw_str(w, "run", run);
	jsonw_u64(w, "t0_ns", o->s.s[first].t0);
	jsonw_array(w, "ops");
	for (size_t i = first; i < o->s.n; i++) {
		const struct tseries *s = &o->s.s[i];

		if (strcmp(s->run, run))
			continue;
		jsonw_object(w, NULL);
		jsonw_str(w, "op", s->a);
		tseries_write(w, s, V_N, names, NULL, 2);
		jsonw_end(w);
	}
	jsonw_end(w);
	jsonw_end(w);
}

int telem_ops(struct jsonw *w, const char *key, char *text, size_t len,
	      int truncated, const struct telem_ref *ref, size_t nref,
	      struct telem_stats *st)
{
	struct ops o = { .ref = ref, .nref = nref, .st = st };
	int ret;

	memset(st, 0, sizeof(*st));
	tstable_init(&o.s, V_N, TELEM_SERIES_MAX);
	ret = telem_each_row(text, len, truncated, ops_header, ops_row, &o, st);
	if (ret == 0)
		ret = tstable_sort(&o.s);
	if (ret < 0)
		goto out;
	jsonw_array(w, key);
	for (size_t i = 0; i < o.s.n; i++)
		if (!tstable_run_seen(&o.s, i, o.s.s[i].run))
			write_run(w, &o, i);
	jsonw_end(w);
out:
	tstable_free(&o.s);
	return ret;
}
