/*
 * File-system phase formats (fsfmt.h): Vdbench's interval line, ops.csv
 * and the summaries' per-operation totals.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "common/jsonw.h"
#include "common/timeutil.h"
#include "master/results/fsfmt.h"
#include "master/results/vdbench.h"

/*
 * A column group of Vdbench's line: a title over one value or over two
 * (each a sub-title, a width and decimals), as FwdStats defines them.
 */
struct fcol {
	const char *title;
	const char *sub[2];
	int width[2], dec[2];
};

enum {
	COL_INTERVAL,
	COL_REQ,
	COL_CPU,
	COL_PCT,
	COL_READ,
	COL_WRITE,
	COL_MB,
	COL_MBT,
	COL_XFER,
	COL_OPS /* then one per operation, in op_cols' order */
};

static const struct fcol cols[] = {
	[COL_INTERVAL] = { "Interval", { "", NULL }, { 10, 0 }, { 0, 0 } },
	[COL_REQ] = { "ReqstdOps.", { "rate", "resp" }, { 6, 6 }, { 1, 3 } },
	[COL_CPU] = { "cpu%", { "total", "sys" }, { 5, 4 }, { 1, 2 } },
	[COL_PCT] = { " read", { "pct", NULL }, { 5, 0 }, { 1, 0 } },
	[COL_READ] = { "read", { "rate", "resp" }, { 6, 6 }, { 1, 3 } },
	[COL_WRITE] = { "write", { "rate", "resp" }, { 6, 6 }, { 1, 3 } },
	[COL_MB] = { "mb/sec", { "read", "write" }, { 5, 5 }, { 2, 2 } },
	[COL_MBT] = { "mb/sec", { "total", NULL }, { 6, 0 }, { 2, 0 } },
	[COL_XFER] = { "xfer", { "size", NULL }, { 7, 0 }, { 0, 0 } },
};

/* The operations' columns in Vdbench's order; the last five optional. */
static const unsigned op_cols[] = {
	FSOPS_MKDIR,  FSOPS_RMDIR,  FSOPS_CREATE,  FSOPS_OPEN,
	FSOPS_CLOSE,  FSOPS_DELETE, FSOPS_GETATTR, FSOPS_SETATTR,
	FSOPS_ACCESS, FSOPS_COPY,   FSOPS_MOVE,
};
#define OP_COLS (sizeof(op_cols) / sizeof(op_cols[0]))
#define OP_ALWAYS 6

static int op_shown(size_t i, uint32_t ops)
{
	return i < OP_ALWAYS || (ops & (UINT32_C(1) << op_cols[i]));
}

static struct fcol op_col(unsigned op)
{
	struct fcol c = {
		fsops_name(op), { "rate", "resp" }, { 5, 6 }, { 1, 3 }
	};

	return c;
}

/* " ..title.." centred on the group's width, as FwdPrint does. */
static void title(FILE *f, const struct fcol *c)
{
	static const char dots[] = "..................";
	int w = c->sub[1] ? c->width[0] + c->width[1] + 1 : c->width[0];
	int extra = w - (int)strlen(c->title), d1 = extra / 2;

	if (extra < 0)
		extra = d1 = 0;
	fprintf(f, " %.*s%s%.*s", d1, dots, c->title, extra - d1, dots);
}

static void subtitle(FILE *f, const struct fcol *c)
{
	fprintf(f, " %*s", c->width[0], c->sub[0]);
	if (c->sub[1])
		fprintf(f, " %*s", c->width[1], c->sub[1]);
}

void fsfmt_fit(char *buf, size_t len, double x, int width, int decimals)
{
	char tmp[64];
	size_t n;

	if (!isfinite(x))
		x = 0;
	snprintf(tmp, sizeof(tmp), "%.*f", decimals, x);
	n = strlen(tmp);
	while (n > (size_t)width && strchr(tmp, '.')) {
		tmp[--n] = 0;
		if (n && tmp[n - 1] == '.')
			tmp[--n] = 0;
	}
	snprintf(buf, len, "%*s", width, tmp);
}

static void value(FILE *f, double x, int width, int decimals)
{
	char buf[80];

	fsfmt_fit(buf, sizeof(buf), x, width, decimals);
	fprintf(f, " %s", buf);
}

static void pair(FILE *f, const struct fcol *c, double a, double b)
{
	value(f, a, c->width[0], c->dec[0]);
	value(f, b, c->width[1], c->dec[1]);
}

void fsfmt_console_header(FILE *f, uint64_t real_ns, uint32_t ops, int slaves)
{
	char date[32];

	time_fmt_date(real_ns, date, sizeof(date));
	fprintf(f, "%s", date);
	for (size_t i = 0; i < COL_OPS; i++)
		title(f, &cols[i]);
	for (size_t i = 0; i < OP_COLS; i++)
		if (op_shown(i, ops)) {
			struct fcol c = op_col(op_cols[i]);

			title(f, &c);
		}
	if (slaves)
		fprintf(f, " %6s %6s", "slaves", "slaves");
	fprintf(f, "\n%12s", "");
	for (size_t i = 0; i < COL_OPS; i++)
		subtitle(f, &cols[i]);
	for (size_t i = 0; i < OP_COLS; i++)
		if (op_shown(i, ops)) {
			struct fcol c = op_col(op_cols[i]);

			subtitle(f, &c);
		}
	if (slaves)
		fprintf(f, " %6s %6s", "seen", "want");
	fputc('\n', f);
}

void fsfmt_console_row(FILE *f, uint64_t real_ns, const char *label,
		       const struct fsops_view *fv, const struct stats_view *v,
		       uint32_t ops, int slaves, unsigned reported,
		       unsigned expected)
{
	const struct fsops_opview *rd = &fv->op[FSOPS_READ],
				  *wr = &fv->op[FSOPS_WRITE];
	char tod[32];

	time_fmt_tod(real_ns, tod, sizeof(tod));
	fprintf(f, "%-12s %10s", tod, label);
	pair(f, &cols[COL_REQ], fv->req_rate, fv->req_resp_ms);
	pair(f, &cols[COL_CPU], v->cpu_pct, v->cpu_sys_pct);
	value(f, fv->read_pct, 5, 1);
	pair(f, &cols[COL_READ], rd->rate, rd->resp_ms);
	pair(f, &cols[COL_WRITE], wr->rate, wr->resp_ms);
	pair(f, &cols[COL_MB], rd->mbps, wr->mbps);
	value(f, rd->mbps + wr->mbps, 6, 2);
	value(f, fv->xfer_bytes, 7, 0);
	for (size_t i = 0; i < OP_COLS; i++)
		if (op_shown(i, ops)) {
			const struct fsops_opview *o = &fv->op[op_cols[i]];
			struct fcol c = op_col(op_cols[i]);

			pair(f, &c, o->rate, o->resp_ms);
		}
	if (slaves)
		fprintf(f, " %6u %6u", reported, expected);
	fputc('\n', f);
	fflush(f);
}

void fsfmt_ops_header(FILE *f, const char *lead)
{
	fprintf(f,
		"%srun,interval,phase,start_ns,end_ns,operation,count,rate,"
		"bytes,mbps,errors,resp_ms,p50_ms,p95_ms,p99_ms,max_ms\n",
		lead);
}

int fsfmt_op_listed(const struct fsops_view *fv, uint32_t ops, unsigned op)
{
	return (ops & (UINT32_C(1) << op)) || fv->op[op].count ||
	       fv->op[op].errors;
}

void fsfmt_ops_rows(FILE *f, const char *lead, const char *run,
		    const char *interval, const char *phase, uint64_t start_ns,
		    uint64_t end_ns, const struct fsops_view *fv, uint32_t ops)
{
	char span[64] = ",";

	if (start_ns || end_ns)
		snprintf(span, sizeof(span), "%llu,%llu",
			 (unsigned long long)start_ns,
			 (unsigned long long)end_ns);
	for (unsigned op = 0; op < FSOPS_N; op++) {
		const struct fsops_opview *o = &fv->op[op];

		if (!fsfmt_op_listed(fv, ops, op))
			continue;
		char errs[24] = ""; /* empty: not split between read, write */

		if (!o->errors_unknown)
			snprintf(errs, sizeof(errs), "%llu",
				 (unsigned long long)o->errors);
		fprintf(f,
			"%s%s,%s,%s,%s,%s,%llu,%.3f,%llu,%.4f,%s,%.6f,%.6f,%.6f,%.6f,%.6f\n",
			lead, run, interval, phase, span, fsops_name(op),
			(unsigned long long)o->count, o->rate,
			(unsigned long long)o->bytes, o->mbps, errs, o->resp_ms,
			o->p50_ms, o->p95_ms, o->p99_ms, o->max_ms);
	}
}

static void slave_op(struct jsonw *w, unsigned op, uint64_t count,
		     uint64_t bytes, double resp_ms, double seconds)
{
	jsonw_object(w, fsops_name(op));
	jsonw_u64(w, "count", count);
	jsonw_dbl(w, "rate", seconds > 0 ? (double)count / seconds : 0);
	jsonw_u64(w, "bytes", bytes);
	jsonw_dbl(w, "resp_ms", resp_ms);
}

void fsfmt_slave_json(struct jsonw *w, const uint64_t (*sums)[FSOPS_SUMS],
		      const struct stats_view *v, const struct fsops_view *fv,
		      uint32_t ops, double seconds)
{
	uint64_t other_errors = 0;

	jsonw_object(w, "operations");
	for (unsigned op = 0; op < FSOPS_N; op++) {
		const uint64_t *s = sums[op];

		if (!fsfmt_op_listed(fv, ops, op))
			continue;
		if (op == FSOPS_READ || op == FSOPS_WRITE) {
			int rd = op == FSOPS_READ;

			slave_op(w, op, rd ? v->read_ops : v->write_ops,
				 rd ? v->read_bytes : v->write_bytes,
				 rd ? v->read_resp_ms : v->write_resp_ms,
				 seconds);
		} else {
			slave_op(w, op, s[FSOPS_SUM_COUNT], s[FSOPS_SUM_BYTES],
				 s[FSOPS_SUM_COUNT] ?
					 (double)s[FSOPS_SUM_LAT] /
						 (double)s[FSOPS_SUM_COUNT] /
						 1e6 :
					 0,
				 seconds);
			jsonw_u64(w, "errors", s[FSOPS_SUM_ERRORS]);
			other_errors += s[FSOPS_SUM_ERRORS];
		}
		jsonw_end(w);
	}
	jsonw_u64(w, "read_write_errors",
		  v->errors > other_errors ? v->errors - other_errors : 0);
	jsonw_end(w);
}

void fsfmt_json(struct jsonw *w, const struct fsops_view *fv, uint32_t ops)
{
	jsonw_object(w, "operations");
	jsonw_u64(w, "requested_count", fv->req_count);
	jsonw_dbl(w, "requested_rate", fv->req_rate);
	jsonw_dbl(w, "requested_resp_ms", fv->req_resp_ms);
	jsonw_u64(w, "read_write_errors", fv->rw_errors);
	for (unsigned op = 0; op < FSOPS_N; op++) {
		const struct fsops_opview *o = &fv->op[op];

		if (!fsfmt_op_listed(fv, ops, op))
			continue;
		jsonw_object(w, fsops_name(op));
		jsonw_u64(w, "count", o->count);
		jsonw_dbl(w, "rate", o->rate);
		jsonw_u64(w, "bytes", o->bytes);
		/* null when not split: read_write_errors holds them. */
		if (o->errors_unknown)
			jsonw_dbl(w, "errors", NAN);
		else
			jsonw_u64(w, "errors", o->errors);
		jsonw_dbl(w, "resp_ms", o->resp_ms);
		jsonw_dbl(w, "p50_ms", o->p50_ms);
		jsonw_dbl(w, "p95_ms", o->p95_ms);
		jsonw_dbl(w, "p99_ms", o->p99_ms);
		jsonw_dbl(w, "max_ms", o->max_ms);
		jsonw_end(w);
	}
	jsonw_end(w);
}

void fsfmt_txt(FILE *f, const struct fsops_view *fv, uint32_t ops)
{
	fprintf(f, "OPERATIONS = %.2f ops/s, %.4f ms\n", fv->req_rate,
		fv->req_resp_ms);
	fprintf(f, "%-8s %12s %12s %10s %10s %10s %10s %10s %8s\n", "op",
		"count", "rate/s", "mean ms", "p50 ms", "p95 ms", "p99 ms",
		"max ms", "errors");
	for (unsigned op = 0; op < FSOPS_N; op++) {
		const struct fsops_opview *o = &fv->op[op];

		if (!fsfmt_op_listed(fv, ops, op))
			continue;
		char errs[24] = "-"; /* not split between read and write */

		if (!o->errors_unknown)
			snprintf(errs, sizeof(errs), "%llu",
				 (unsigned long long)o->errors);
		fprintf(f,
			"%-8s %12llu %12.2f %10.4f %10.4f %10.4f %10.4f %10.4f %8s\n",
			fsops_name(op), (unsigned long long)o->count, o->rate,
			o->resp_ms, o->p50_ms, o->p95_ms, o->p99_ms, o->max_ms,
			errs);
	}
}

/* Vdbench's fs flatfile operations, in its column order. */
static const struct {
	unsigned op;
	const char *rate, *resp;
} flat_ops[] = {
	{ FSOPS_MKDIR, "Mkdir_rate", "Mkdir_resp" },
	{ FSOPS_RMDIR, "Rmdir_rate", "Rmdir_resp" },
	{ FSOPS_CREATE, "Create_rate", "Create_resp" },
	{ FSOPS_OPEN, "Open_rate", "Open_resp" },
	{ FSOPS_CLOSE, "Close_rate", "Close_resp" },
	{ FSOPS_DELETE, "Delete_rate", "Delete_resp" },
	{ FSOPS_GETATTR, "Getattr_rate", "Getattr_resp" },
	{ FSOPS_SETATTR, "Setattr_rate", "Setattr_resp" },
	{ FSOPS_ACCESS, "Access_rate", "Access_resp" },
	{ FSOPS_COPY, "Copy_rate", "Copy_resp" },
	{ FSOPS_MOVE, "Move_rate", "Move_resp" },
};
#define FLAT_OPS (sizeof(flat_ops) / sizeof(flat_ops[0]))

void fsfmt_flat_header(FILE *f)
{
	static const char *const head[] = {
		"Run",     "Interval",  "reqrate",   "rate",       "resp",
		"MB/sec",  "Read_rate", "Read_resp", "Write_rate", "Write_resp",
		"MB_read", "MB_write",  "Xfersize",
	};
	static const char *const tail[] = {
		"compratio",  "dedupratio", "cpu_used", "cpu_user",
		"cpu_kernel", "cpu_wait",   "cpu_idle", "resp_p95",
		"resp_p99",   "slaves",     "expected",
	};

	fputs("*\n"
	      "* flatfile.html written by lockstep in Vdbench's layout for file\n"
	      "* system runs (fwd=): the first line that starts with a blank\n"
	      "* names the columns, each data line has one blank-free value per\n"
	      "* column ('n/a': not available or conflicting), one row per\n"
	      "* cluster interval and one avg_ row per run (MB = 1024*1024 bytes,\n"
	      "* times in ms; rate and resp: the operations the run asks for).\n"
	      "* After Vdbench's columns: resp_p95, resp_p99 (ms, reads and\n"
	      "* writes), slaves and expected.\n"
	      "*\n",
	      f);
	fprintf(f, "%12s %23s ", "tod", "timestamp");
	for (size_t i = 0; i < sizeof(head) / sizeof(head[0]); i++)
		fprintf(f, "%10s ", head[i]);
	for (size_t i = 0; i < FLAT_OPS; i++)
		fprintf(f, "%10s %10s ", flat_ops[i].rate, flat_ops[i].resp);
	for (size_t i = 0; i < sizeof(tail) / sizeof(tail[0]); i++)
		fprintf(f, "%10s ", tail[i]);
	fputc('\n', f);
}

void fsfmt_flat_row(FILE *f, uint64_t end_ns, const struct vdbench_req *rq,
		    const char *interval, const struct fsops_view *fv,
		    const struct stats_view *v, unsigned reported,
		    unsigned expected)
{
	const struct fsops_opview *rd = &fv->op[FSOPS_READ],
				  *wr = &fv->op[FSOPS_WRITE];
	char tod[32], stamp[48];
	time_t t = (time_t)(end_ns / 1000000000ULL);
	struct tm tm;

	time_fmt_tod(end_ns, tod, sizeof(tod));
	localtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%m/%d/%Y-%H:%M:%S-%Z", &tm);
	fprintf(f, "%12s %23s ", tod, stamp);
	fprintf(f, "%10s %10s %10s ", rq->run, interval, rq->reqrate);
	fprintf(f, "%10.4f %10.4f %10.4f ", fv->req_rate, fv->req_resp_ms,
		rd->mbps + wr->mbps);
	fprintf(f, "%10.4f %10.4f %10.4f %10.4f %10.4f %10.4f %10.0f ",
		rd->rate, rd->resp_ms, wr->rate, wr->resp_ms, rd->mbps,
		wr->mbps, fv->xfer_bytes);
	for (size_t i = 0; i < FLAT_OPS; i++)
		fprintf(f, "%10.4f %10.4f ", fv->op[flat_ops[i].op].rate,
			fv->op[flat_ops[i].op].resp_ms);
	fprintf(f, "%10s %10s ", rq->compratio, rq->dedupratio);
	fprintf(f, "%10.4f %10.4f %10.4f %10s %10s ", v->cpu_pct,
		v->cpu_pct - v->cpu_sys_pct, v->cpu_sys_pct, "n/a", "n/a");
	fprintf(f, "%10.4f %10.4f ", v->p95_ms, v->p99_ms);
	if (expected)
		fprintf(f, "%10u %10u\n", reported, expected);
	else
		fprintf(f, "%10s %10s\n", "n/a", "n/a");
}
