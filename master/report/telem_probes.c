/*
 * probes.csv for the report (see telem.h): one row per key a probe gave
 * at one sample (time_ns, run, interval, probe, key, value, status). Its
 * ok samples are a series per run, probe and key at their own time on
 * the run's axis; the others are counted by status for each probe (a
 * timeout has no key). A sample between runs belongs to no run's chart
 * and is only counted.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "master/report/csvrow.h"
#include "master/report/telem.h"

enum {
	P_TIME,
	P_RUN,
	P_IV,
	P_PROBE,
	P_KEY,
	P_VALUE,
	P_STATUS,
	P_N,
};
static const char *const probe_col[P_N] = {
	"time_ns", "run", "interval", "probe", "key", "value", "status",
};

/* Statuses, as tseries' counters of a probe. */
enum { ST_OK, ST_TIMEOUT, ST_EXIT, ST_SIGNAL, ST_UNPARSED, ST_N };
static const char *const status_name[ST_N] = {
	"ok", "timeout", "exit", "signal", "unparsed",
};

struct probes {
	struct tstable keys;   /* (run, probe, key): the ok samples */
	struct tstable probes; /* (run, probe, ""): statuses counted */
	const struct telem_ref *ref;
	size_t nref;
	int col[P_N]; /* the header's columns */
	size_t nhead;
	struct telem_stats *st;
};

/* "ok", "timeout", "unparsed", "exit N" or "signal N": its ST_, or -1. */
static int status_of(const char *s)
{
	uint64_t n;

	for (int k = 0; k < ST_N; k++) {
		size_t len = strlen(status_name[k]);

		if (strncmp(s, status_name[k], len))
			continue;
		if (k == ST_EXIT || k == ST_SIGNAL)
			return s[len] == ' ' &&
					       csvrow_u64(s + len + 1, &n) ==
						       0 &&
					       n < 256 ?
				       k :
				       -1;
		return s[len] ? -1 : k;
	}
	return -1;
}

/* The header row: every column must be there but interval. */
static int probe_header(void *arg, char *const *f, size_t nf)
{
	struct probes *p = arg;

	csvrow_header(f, nf, probe_col, P_N, p->col);
	for (size_t k = 0; k < P_N; k++)
		if (p->col[k] < 0 && k != P_IV)
			return -EINVAL;
	p->nhead = nf;
	return 0;
}

static int probe_row(void *arg, char *const *f, size_t nf)
{
	struct probes *p = arg;
	const int *col = p->col;
	struct telem_stats *st = p->st;
	const char *run, *probe, *key;
	struct tseries *s;
	uint64_t time, seq = 0;
	double v, *row;
	int status, ret;

	if (nf != p->nhead)
		return -EINVAL;
	run = f[col[P_RUN]];
	probe = f[col[P_PROBE]];
	key = f[col[P_KEY]];
	if (csvrow_u64(f[col[P_TIME]], &time) < 0 ||
	    (col[P_IV] >= 0 && *f[col[P_IV]] &&
	     csvrow_u64(f[col[P_IV]], &seq) < 0) ||
	    !csvrow_name_ok(probe) || (*key && !csvrow_name_ok(key)) ||
	    (*run && !csvrow_name_ok(run)))
		return -EINVAL;
	status = status_of(f[col[P_STATUS]]);
	if (status < 0 || csvrow_cell(f[col[P_VALUE]], &v) < 0 ||
	    (status == ST_OK) != !isnan(v))
		return -EINVAL;
	if (!*run) {
		st->between++;
		return 0;
	}
	ret = tstable_get(&p->probes, run, probe, "",
			  telem_t0(p->ref, p->nref, run, time), &s);
	if (ret < 0)
		return ret;
	s->cnt[status]++;
	st->rows++;
	if (status != ST_OK)
		return 0;
	ret = tstable_get(&p->keys, run, probe, key, s->t0, &s);
	if (ret == 0)
		ret = tseries_append(s, 1, seq,
				     time >= s->t0 ?
					     (double)(time - s->t0) / 1e9 :
					     -(double)(s->t0 - time) / 1e9,
				     0, &row);
	if (ret < 0)
		return ret;
	row[0] = v;
	return 0;
}

static void write_run(struct jsonw *w, const struct probes *p, size_t first)
{
	const char *run = p->probes.s[first].run;
	static const char *const value[] = { "value" };

	jsonw_object(w, NULL);
	jsonw_str(w, "run", run);
	jsonw_u64(w, "t0_ns", p->probes.s[first].t0);
	jsonw_array(w, "probes");
	for (size_t i = first; i < p->probes.n; i++) {
		const struct tseries *pr = &p->probes.s[i];

		if (strcmp(pr->run, run))
			continue;
		jsonw_object(w, NULL);
		jsonw_str(w, "probe", pr->a);
		jsonw_object(w, "status");
		for (size_t k = 0; k < ST_N; k++)
			jsonw_u64(w, status_name[k], pr->cnt[k]);
		jsonw_end(w);
		jsonw_array(w, "keys");
		for (size_t k = 0; k < p->keys.n; k++) {
			const struct tseries *s = &p->keys.s[k];

			if (strcmp(s->run, run) || strcmp(s->a, pr->a))
				continue;
			jsonw_object(w, NULL);
			jsonw_str(w, "key", s->b);
			tseries_write(w, s, 1, value, NULL, 1);
			jsonw_end(w);
		}
		jsonw_end(w);
		jsonw_end(w);
	}
	jsonw_end(w);
	jsonw_end(w);
}

int telem_probes(struct jsonw *w, const char *key, char *text, size_t len,
		 int truncated, const struct telem_ref *ref, size_t nref,
		 struct telem_stats *st)
{
	struct probes p = { .ref = ref, .nref = nref, .st = st };
	int ret;

	memset(st, 0, sizeof(*st));
	tstable_init(&p.keys, 1, TELEM_SERIES_MAX);
	tstable_init(&p.probes, 0, TELEM_SERIES_MAX);
	ret = telem_each_row(text, len, truncated, probe_header, probe_row, &p,
			     st);
	if (ret == 0)
		ret = tstable_sort(&p.keys);
	if (ret < 0)
		goto out;
	jsonw_array(w, key);
	for (size_t i = 0; i < p.probes.n; i++)
		if (!tstable_run_seen(&p.probes, i, p.probes.s[i].run))
			write_run(w, &p, i);
	jsonw_end(w);
out:
	tstable_free(&p.keys);
	tstable_free(&p.probes);
	return ret;
}
