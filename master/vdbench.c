/*
 * The Vdbench run header line and flatfile.html. See vdbench.h.
 */
#include <stdio.h>
#include <string.h>
#include "common/timeutil.h"
#include "master/vdbench.h"

/* The loop values a phase's display name carries after the rd's name. */
static int loop_key(const char *tok)
{
	static const char *const keys[] = { "xfersize=", "rdpct=", "seekpct=",
					    "threads=", "compratio=" };

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strncmp(tok, keys[i], strlen(keys[i])))
			return 1;
	return 0;
}

size_t vdbench_rd_line(const char *rd, const struct plan_phase *ph, char *buf,
		       size_t len)
{
	char rate[64], loops[PLAN_NAME_MAX], name[PLAN_NAME_MAX];
	size_t used = 0;
	const char *p = ph->name;
	int w;

	if (ph->kind == PLAN_FORMAT)
		snprintf(rate, sizeof(rate), "Uncontrolled MAX");
	else if (ph->kind == PLAN_CURVE_MAX)
		snprintf(rate, sizeof(rate), "Uncontrolled curve");
	else if (ph->iorate > 0)
		snprintf(rate, sizeof(rate), "%g", ph->iorate);
	else
		snprintf(rate, sizeof(rate), "Uncontrolled MAX");
	loops[0] = 0;
	/* Tokens of the display name after the rd's own name. */
	p += strcspn(p, " ");
	while (*p) {
		size_t n;

		p += strspn(p, " ");
		n = strcspn(p, " ");
		if (n && loop_key(p) && used + n + 2 < sizeof(loops)) {
			if (used)
				loops[used++] = ' ';
			memcpy(loops + used, p, n);
			used += n;
			loops[used] = 0;
		}
		p += n;
	}
	if (ph->kind == PLAN_FORMAT)
		snprintf(name, sizeof(name), "format_for_%s", rd);
	else
		snprintf(name, sizeof(name), "%s", rd);
	w = snprintf(buf, len,
		     "Starting RD=%s; I/O rate: %s; elapsed=%g warmup=%g; For loops: %s",
		     name, rate, ph->elapsed_s, ph->warmup_s,
		     used ? loops : "None");
	if (w < 0)
		return 0;
	return (size_t)w < len ? (size_t)w : len ? len - 1 : 0;
}

void vdbench_flat_header(FILE *f)
{
	fputs("* flatfile.html written by lockstep: one tab-separated row per\n"
	      "* cluster interval of every run, Vdbench's column names (MB =\n"
	      "* 1024*1024 bytes, times in ms, reqrate 'max' when uncontrolled).\n"
	      "tod\tRun\tInterval\treqrate\trate\tMB/sec\tbytes/io\tread%\t"
	      "resp\tread_resp\twrite_resp\tresp_max\tresp_std\t"
	      "queue_depth\tcpu_used\tcpu_kernel\n",
	      f);
}

void vdbench_flat_row(FILE *f, uint64_t end_ns, const char *run,
		      unsigned interval, double reqrate,
		      const struct stats_view *v)
{
	char tod[32], req[32];

	time_fmt_tod(end_ns, tod, sizeof(tod));
	if (reqrate > 0)
		snprintf(req, sizeof(req), "%g", reqrate);
	else
		snprintf(req, sizeof(req), "max");
	fprintf(f,
		"%s\t%s\t%u\t%s\t%.1f\t%.2f\t%.0f\t%.2f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.1f\t%.1f\t%.1f\n",
		tod, run, interval, req, v->iops, v->mbps, v->xfer_bytes,
		v->read_pct, v->resp_ms, v->read_resp_ms, v->write_resp_ms,
		v->resp_max_ms, v->resp_stddev_ms, v->queue_depth, v->cpu_pct,
		v->cpu_sys_pct);
}
