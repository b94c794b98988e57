/*
 * A file-system phase's operations read back into the history: each
 * operation of a run's summary.json "operations" other than read and
 * write (those are the run's own figures) becomes a phase of its own,
 * named "RUN/OP" (kind "fsop"): its rate as IOPS, MB/s when it moved
 * bytes, its mean and percentiles; its measured intervals come from
 * ops.csv's rows of that run and operation. Compared, recorded and
 * judged as any run, so a create rate that falls is a regression of
 * "RUN/create" with the noise model and baseline rules of block runs.
 * Hostile input is refused as load.c refuses it: with file and line.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>
#include "common/fsutil.h"
#include "master/history/history_int.h"

/* A run's operations: one phase each (after read_phases). */
int history_load_fsops(sqlite3 *j, const char *doc, struct history_run *r)
{
	static const char sql[] =
		"SELECT o.key,json_extract(o.value,'$.count'),"
		"json_extract(o.value,'$.rate'),json_extract(o.value,'$.bytes'),"
		"json_extract(o.value,'$.errors'),"
		"json_extract(o.value,'$.resp_ms'),"
		"json_extract(o.value,'$.p50_ms'),"
		"json_extract(o.value,'$.p95_ms'),"
		"json_extract(o.value,'$.p99_ms') "
		"FROM json_each(?1,'$.runs') AS p,"
		" json_each(p.value,'$.operations') AS o "
		"WHERE json_extract(p.value,'$.name')=?2 AND o.type='object'";
	size_t nrun = r->nphases;
	sqlite3_stmt *st;
	int ret = 0;

	if (sqlite3_prepare_v2(j, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	for (size_t i = 0; i < nrun && !ret; i++) {
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, doc, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, r->ph[i].name, -1, SQLITE_TRANSIENT);
		while (!ret && sqlite3_step(st) == SQLITE_ROW) {
			struct history_phase *np, *p;
			char op[32];
			double count, rate, bytes, e;

			history_load_str(st, 0, op, sizeof(op));
			if (!strcmp(op, "read") || !strcmp(op, "write"))
				continue;
			np = realloc(r->ph, (r->nphases + 1) * sizeof(*np));
			if (!np) {
				ret = -ENOMEM;
				break;
			}
			r->ph = np;
			p = &r->ph[r->nphases++];
			memset(p, 0, sizeof(*p));
			snprintf(p->name, sizeof(p->name), "%.*s/%s",
				 HISTORY_NAME_MAX - 34, r->ph[i].name, op);
			snprintf(p->kind, sizeof(p->kind), "fsop");
			p->elapsed_s = r->ph[i].elapsed_s;
			p->warmup_s = r->ph[i].warmup_s;
			p->interval_s = r->ph[i].interval_s;
			count = history_load_col(st, 1);
			rate = history_load_col(st, 2);
			bytes = history_load_col(st, 3);
			e = history_load_col(st, 4);
			p->errors = isfinite(e) && e > 0 ? (uint64_t)e : 0;
			for (int m = 0; m < HISTORY_NMETRICS; m++)
				p->v[m] = NAN;
			p->v[HISTORY_IOPS] = rate;
			/* MB/s of the operation's own bytes (copy, move). */
			if (bytes > 0 && count > 0 && rate >= 0)
				p->v[HISTORY_MBPS] = bytes / 1048576.0 * rate /
						     count;
			p->v[HISTORY_MEAN] = history_load_col(st, 5);
			p->v[HISTORY_P50] = history_load_col(st, 6);
			p->v[HISTORY_P95] = history_load_col(st, 7);
			p->v[HISTORY_P99] = history_load_col(st, 8);
			for (int c = 1; c <= 8; c++) {
				int t = sqlite3_column_type(st, c);

				/* A string or object is no figure: refused
				   (check_totals names it). */
				if (t != SQLITE_NULL && t != SQLITE_INTEGER &&
				    t != SQLITE_FLOAT)
					p->v[HISTORY_IOPS] = -INFINITY;
			}
		}
	}
	sqlite3_finalize(st);
	return ret;
}

static struct history_phase *op_phase(struct history_run *r, const char *run,
				      const char *op)
{
	char name[HISTORY_NAME_MAX];

	snprintf(name, sizeof(name), "%.*s/%s", HISTORY_NAME_MAX - 34, run, op);
	for (size_t i = 0; i < r->nphases; i++)
		if (!strcmp(r->ph[i].kind, "fsop") &&
		    !strcmp(r->ph[i].name, name))
			return &r->ph[i];
	return NULL;
}

/* ops.csv's columns the series take, in enum history_series order, then
   run, phase and operation. */
static const char *const ops_cols[HISTORY_NSERIES + 3] = {
	"rate",   "mbps", "resp_ms", "p95_ms",
	"p99_ms", "run",  "phase",   "operation",
};

/*
 * The measured rows of each operation phase, as series; a `late` row's
 * rate and MB/s go to the last measured interval of its run and
 * operation, as intervals.csv's. No ops.csv (a block run, an older
 * folder): nothing to do.
 */
int history_load_opscsv(int dirfd, const char *dir, struct history_run *r,
			char *err, size_t errlen)
{
	char path[PATH_MAX], *text, *line, *save = NULL, *f[32];
	int col[HISTORY_NSERIES + 3], crun = -1, cphase = -1, cop = -1, ret = 0,
				      bad;
	unsigned lineno = 0;
	size_t len;
	int any = 0;

	for (size_t i = 0; i < r->nphases; i++)
		any |= !strcmp(r->ph[i].kind, "fsop");
	if (!any)
		return 0;
	snprintf(path, sizeof(path), "%s/ops.csv", dir);
	ret = history_load_slurp(dirfd, "ops.csv", 256u << 20, &text, &len);
	if (ret == -ENOENT)
		return 0;
	if (ret < 0) {
		snprintf(err, errlen, "%s: %s", path, fsutil_read_why(ret));
		return ret;
	}
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		int n = history_load_split(line, f, 32);
		double v[HISTORY_NSERIES];
		struct history_phase *p;

		lineno++;
		if (lineno == 1) {
			if (history_load_cols(f, n < 32 ? n : 32, ops_cols,
					      HISTORY_NSERIES + 3, col) < 0) {
				snprintf(err, errlen,
					 "%s:1:1: not a lockstep ops.csv header",
					 path);
				ret = -EBADMSG;
				break;
			}
			crun = col[HISTORY_NSERIES];
			cphase = col[HISTORY_NSERIES + 1];
			cop = col[HISTORY_NSERIES + 2];
			continue;
		}
		if (n > 32 || n <= crun || n <= cphase || n <= cop) {
			snprintf(err, errlen, "%s:%u:1: %d columns", path,
				 lineno, n);
			ret = -EBADMSG;
			break;
		}
		p = op_phase(r, f[crun], f[cop]);
		if (!p ||
		    (strcmp(f[cphase], "measure") && strcmp(f[cphase], "late")))
			continue; /* read, write, warmup, total, a run not kept */
		bad = history_load_nums(f, n, col, HISTORY_NSERIES, v);
		if (bad) {
			snprintf(err, errlen,
				 "%s:%u: column %s is not a number", path,
				 lineno, ops_cols[bad - 1]);
			ret = -EBADMSG;
			break;
		}
		if (!strcmp(f[cphase], "measure")) {
			ret = history_load_push(p, v);
			if (ret < 0)
				break;
		} else if (p->n) {
			p->series[HISTORY_S_IOPS][p->n - 1] += v[HISTORY_S_IOPS];
			p->series[HISTORY_S_MBPS][p->n - 1] += v[HISTORY_S_MBPS];
		}
	}
	free(text);
	return ret;
}
