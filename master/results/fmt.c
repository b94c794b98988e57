/*
 * Reporters: console, CSV and .hgrm formats. See fmt.h.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "common/timeutil.h"
#include "master/results/fmt.h"

/*
 * Vdbench's columns at Vdbench's widths, each field after a blank of its
 * own: a value wider than its column (a queue depth of 1000, a latency of
 * 10,000 ms) pushes the line right but never runs into its neighbour.
 * The first line of the header starts with the date (three words) and
 * both lines have one word per column, as HCIBench's live feed counts
 * them; lockstep's columns (p99 ms, slaves seen and expected, active
 * events) come after Vdbench's, digits only, so that HCIBench's interval
 * pattern (digits, ':', '.' and blanks) still takes the row.
 */
#define HEAD_FMT \
	"%-12s %11s %10s %8s %7s %6s %8s %8s %8s %8s %8s %5s %5s %5s %9s %6s %6s"

void fmt_console_header(FILE *f, uint64_t real_ns, int events)
{
	char date[32];

	time_fmt_date(real_ns, date, sizeof(date));
	fprintf(f, HEAD_FMT, date, "interval", "i/o", "MB/sec", "bytes", "read",
		"resp", "read", "write", "resp", "resp", "queue", "cpu%",
		"cpu%", "p99", "slaves", "slaves");
	fprintf(f, events ? " %6s\n" : "\n", "events");
	fprintf(f, HEAD_FMT, "", "", "rate", "1024**2", "i/o", "pct", "time",
		"resp", "resp", "max", "stddev", "depth", "sys+u", "sys", "ms",
		"seen", "want");
	fprintf(f, events ? " %6s\n" : "\n", "active");
}

/* Vdbench's part of a row: rate with 1 decimal, or 2 on an avg_ row. */
static void vdbench_part(FILE *f, const char *tod, const char *label,
			 const struct stats_view *v, int rate_decimals)
{
	fprintf(f,
		"%-12s %11s %10.*f %8.2f %7.0f %6.2f %8.3f %8.3f %8.3f %8.3f %8.3f %5.1f %5.1f %5.1f",
		tod, label, rate_decimals, v->iops, v->mbps, v->xfer_bytes,
		v->read_pct, v->resp_ms, v->read_resp_ms, v->write_resp_ms,
		v->resp_max_ms, v->resp_stddev_ms, v->queue_depth, v->cpu_pct,
		v->cpu_sys_pct);
}

void fmt_console_row(FILE *f, uint64_t real_ns, const char *label,
		     const struct stats_view *v, unsigned reported,
		     unsigned expected, int events)
{
	char tod[32];

	time_fmt_tod(real_ns, tod, sizeof(tod));
	vdbench_part(f, tod, label, v, 1);
	fprintf(f, " %9.3f %6u %6u", v->p99_ms, reported, expected);
	if (events >= 0)
		fprintf(f, " %6d", events);
	fputc('\n', f);
	fflush(f);
}

void fmt_console_avg(FILE *f, uint64_t real_ns, const char *label,
		     const struct stats_view *v)
{
	char tod[32];

	time_fmt_tod(real_ns, tod, sizeof(tod));
	vdbench_part(f, tod, label, v, 2);
	fprintf(f, " %9.3f\n", v->p99_ms);
	fflush(f);
}

void fmt_vdbench_header(FILE *f, uint64_t real_ns)
{
	char date[32];

	time_fmt_date(real_ns, date, sizeof(date));
	fprintf(f,
		"%-12s %11s %10s %8s %7s %6s %8s %8s %8s %8s %8s %5s %5s %5s\n",
		date, "interval", "i/o", "MB/sec", "bytes", "read", "resp",
		"read", "write", "resp", "resp", "queue", "cpu%", "cpu%");
	fprintf(f,
		"%-12s %11s %10s %8s %7s %6s %8s %8s %8s %8s %8s %5s %5s %5s\n",
		"", "", "rate", "1024**2", "i/o", "pct", "time", "resp", "resp",
		"max", "stddev", "depth", "sys+u", "sys");
}

void fmt_vdbench_row(FILE *f, uint64_t real_ns, const char *label,
		     const struct stats_view *v, int avg)
{
	char tod[32];

	time_fmt_tod(real_ns, tod, sizeof(tod));
	vdbench_part(f, tod, label, v, avg ? 2 : 1);
	fputc('\n', f);
	fflush(f);
}

void fmt_hcibench(FILE *f, const struct stats_view *v)
{
	fprintf(f, "IOPS = %.2f IO/s\n", v->iops);
	fprintf(f, "THROUGHPUT = %.2f MB/s\n", v->mbps);
	fprintf(f, "LATENCY = %.4f ms\n", v->resp_ms);
	fprintf(f, "R_LATENCY = %.4f ms\n", v->read_resp_ms);
	fprintf(f, "W_LATENCY = %.4f ms\n", v->write_resp_ms);
	fprintf(f, "95%%tile_LAT = %.4f ms\n", v->p95_ms);
	fprintf(f, "99%%tile_LAT = %.4f ms\n", v->p99_ms);
	fflush(f);
}

void fmt_csv_header_tail(FILE *f, const char *tail)
{
	fputs("run,interval,phase,start_ns,end_ns,slaves_reported,"
	      "slaves_expected,ops,read_ops,write_ops,bytes,read_bytes,"
	      "write_bytes,iops,mbps,read_pct,resp_ms,read_resp_ms,"
	      "write_resp_ms,resp_max_ms,resp_stddev_ms,p95_ms,p99_ms,"
	      "queue_depth,cpu_pct,emitted_ns,p50_ms,p999_ms",
	      f);
	if (tail) {
		fputc(',', f);
		fputs(tail, f);
	}
	fputc('\n', f);
	fflush(f);
}

void fmt_csv_header(FILE *f)
{
	fmt_csv_header_tail(f, NULL);
}

/*
 * The CSV rows are written without printf: a thousand slaves make a
 * thousand rows a second, and glibc's %f was the master's biggest single
 * cost after the histograms. The output is byte for byte what
 * "%llu" and "%.Nf" print (tests/test_fmt.c compares them).
 */
static char *put_u64(char *p, uint64_t v)
{
	char tmp[20];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

static const double pow10[] = { 1, 10, 100, 1e3, 1e4, 1e5, 1e6 };

/* Whether put_fixed() can write x (not negative, finite, below 2^52 units). */
static int fixed_ok(double x, int decimals)
{
	return !signbit(x) && x * pow10[decimals] < 4503599627370496.0;
}

/*
 * x with `decimals` digits after the point, rounded as printf rounds the
 * exact binary value: to nearest, ties to even. x * 10^d in double can be
 * off by half an ulp; fma() gives the exact error, which decides the one
 * case that matters, a product that landed on a .5. x passed fixed_ok().
 */
static char *put_fixed(char *p, double x, int decimals)
{
	double scale = pow10[decimals], v = x * scale, r, e;
	uint64_t u, ip, fp;
	char tmp[8];

	r = nearbyint(v);
	if (fabs(v - r) == 0.5) {
		e = fma(x, scale, -v);
		if (e > 0)
			r = floor(v) + 1;
		else if (e < 0)
			r = floor(v);
	}
	u = (uint64_t)r;
	ip = u / (uint64_t)scale;
	fp = u % (uint64_t)scale;
	p = put_u64(p, ip);
	if (decimals) {
		*p++ = '.';
		for (int k = decimals - 1; k >= 0; k--) {
			tmp[k] = (char)('0' + fp % 10);
			fp /= 10;
		}
		memcpy(p, tmp, (size_t)decimals);
		p += decimals;
	}
	return p;
}

/* The reference format: what the fast path writes, and its fallback. */
static void csv_row_printf(FILE *f, const char *run, unsigned interval,
			   const char *phase, uint64_t start_ns,
			   uint64_t end_ns, unsigned reported,
			   unsigned expected, const struct stats_view *v,
			   uint64_t emitted_ns, const char *tail)
{
	fprintf(f,
		"%s,%u,%s,%llu,%llu,%u,%u,%llu,%llu,%llu,%llu,%llu,%llu,"
		"%.3f,%.4f,%.3f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.4f,%.2f,"
		"%llu,%.6f,%.6f%s%s\n",
		run, interval, phase, (unsigned long long)start_ns,
		(unsigned long long)end_ns, reported, expected,
		(unsigned long long)v->ops, (unsigned long long)v->read_ops,
		(unsigned long long)v->write_ops, (unsigned long long)v->bytes,
		(unsigned long long)v->read_bytes,
		(unsigned long long)v->write_bytes, v->iops, v->mbps,
		v->read_pct, v->resp_ms, v->read_resp_ms, v->write_resp_ms,
		v->resp_max_ms, v->resp_stddev_ms, v->p95_ms, v->p99_ms,
		v->queue_depth, v->cpu_pct, (unsigned long long)emitted_ns,
		v->p50_ms, v->p999_ms, tail ? "," : "", tail ? tail : "");
}

void fmt_csv_row(FILE *f, const char *run, unsigned interval, const char *phase,
		 uint64_t start_ns, uint64_t end_ns, unsigned reported,
		 unsigned expected, const struct stats_view *v,
		 uint64_t emitted_ns)
{
	fmt_csv_row_tail(f, run, interval, phase, start_ns, end_ns, reported,
			 expected, v, emitted_ns, NULL);
}

void fmt_csv_row_tail(FILE *f, const char *run, unsigned interval,
		      const char *phase, uint64_t start_ns, uint64_t end_ns,
		      unsigned reported, unsigned expected,
		      const struct stats_view *v, uint64_t emitted_ns,
		      const char *tail)
{
	const uint64_t ints[] = { start_ns,      end_ns,   reported,
				  expected,      v->ops,   v->read_ops,
				  v->write_ops,  v->bytes, v->read_bytes,
				  v->write_bytes };
	const struct {
		double x;
		int decimals;
	} fixed[] = {
		{ v->iops, 3 },         { v->mbps, 4 },
		{ v->read_pct, 3 },     { v->resp_ms, 6 },
		{ v->read_resp_ms, 6 }, { v->write_resp_ms, 6 },
		{ v->resp_max_ms, 6 },  { v->resp_stddev_ms, 6 },
		{ v->p95_ms, 6 },       { v->p99_ms, 6 },
		{ v->queue_depth, 4 },  { v->cpu_pct, 2 },
	};
	/* 20 digits an integer, 16 + 1 + 6 a fixed value, and the commas. */
	char buf[32 * 24], *p = buf;
	size_t i;

	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (!fixed_ok(fixed[i].x, fixed[i].decimals) ||
		    !fixed_ok(v->p50_ms, 6) || !fixed_ok(v->p999_ms, 6)) {
			csv_row_printf(f, run, interval, phase, start_ns,
				       end_ns, reported, expected, v,
				       emitted_ns, tail);
			return;
		}
	fputs(run, f);
	fputc(',', f);
	p = put_u64(p, interval);
	*p++ = ',';
	fwrite(buf, 1, (size_t)(p - buf), f);
	fputs(phase, f);
	p = buf;
	for (i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
		*p++ = ',';
		p = put_u64(p, ints[i]);
	}
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		*p++ = ',';
		p = put_fixed(p, fixed[i].x, fixed[i].decimals);
	}
	*p++ = ',';
	p = put_u64(p, emitted_ns);
	/* After emitted_ns: columns added later go last (before the
	   providers'), so a reader by position keeps its columns. */
	*p++ = ',';
	p = put_fixed(p, v->p50_ms, 6);
	*p++ = ',';
	p = put_fixed(p, v->p999_ms, 6);
	if (tail) {
		fwrite(buf, 1, (size_t)(p - buf), f);
		fputc(',', f);
		fputs(tail, f);
		fputc('\n', f);
		return;
	}
	*p++ = '\n';
	fwrite(buf, 1, (size_t)(p - buf), f);
}

/*
 * Like HdrHistogram's outputPercentileDistribution with 5 ticks per half
 * distance: percentile steps get finer towards the tail.
 */
void fmt_hgrm(FILE *f, const struct hist *h)
{
	const double ticks = 5;
	double pct = 0;
	uint64_t cum = 0;
	unsigned idx = 0;

	fprintf(f, "%12s %14s %10s %14s\n\n", "Value", "Percentile",
		"TotalCount", "1/(1-Percentile)");
	while (h->count > 0) {
		uint64_t rank = hist_rank(pct, h->count);
		double inv;

		while (idx < HIST_BUCKETS && cum + h->buckets[idx] < rank)
			cum += h->buckets[idx++];
		if (idx >= HIST_BUCKETS)
			break;
		inv = pct >= 100 ? 0 : 1.0 / (1.0 - pct / 100.0);
		if (pct >= 100) {
			fprintf(f, "%12.3f %14.12f %10llu\n", h->max / 1e6, 1.0,
				(unsigned long long)h->count);
			break;
		}
		fprintf(f, "%12.3f %14.12f %10llu %14.2f\n",
			hist_percentile(h, pct) / 1e6, pct / 100.0,
			(unsigned long long)(cum + h->buckets[idx]), inv);
		/* Halve the remaining distance every `ticks` steps. */
		{
			double half = 100.0 - pct;
			double step = 100.0 /
				      pow(2.0, floor(log2(100.0 / half))) /
				      2.0 / ticks;

			pct += step;
			if (100.0 - pct < 100.0 / (double)h->count ||
			    step < 1e-9)
				pct = 100.0;
		}
	}
	fprintf(f, "#[Mean    = %12.3f, StdDeviation   = %12.3f]\n",
		hist_mean(h) / 1e6, hist_stddev(h) / 1e6);
	fprintf(f, "#[Max     = %12.3f, Total count    = %12llu]\n",
		h->max / 1e6, (unsigned long long)h->count);
	fprintf(f, "#[Buckets = %12d, SubBuckets     = %12d]\n",
		HIST_MAX_SHIFT + 2, 1 << HIST_SUB_BITS);
	fflush(f);
}
