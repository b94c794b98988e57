/*
 * The Vdbench run header line and flatfile.html. See vdbench.h.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "common/timeutil.h"
#include "master/results/vdbench.h"

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
	else if (ph->kind == PLAN_CURVE_MAX || ph->kind == PLAN_SLO_MAX)
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

/* ---- flatfile.html ------------------------------------------------------ */

/*
 * Vdbench's columns (Flat.java's names and order), then lockstep's. Vdbench
 * writes "n/a" where it has no value or the workloads disagree; so does
 * lockstep where it has no such figure (rhpct, whpct: no hit areas;
 * cpu_wait, cpu_idle: lockstep measures its own processes, not the host).
 */
static const char *const flat_cols[] = {
	"Run",        "Interval",   "reqrate",     "rate",      "MB/sec",
	"bytes/io",   "read%",      "resp",        "read_resp", "write_resp",
	"resp_max",   "resp_std",   "xfersize",    "threads",   "rdpct",
	"rhpct",      "whpct",      "seekpct",     "lunsize",   "version",
	"compratio",  "dedupratio", "queue_depth", "cpu_used",  "cpu_user",
	"cpu_kernel", "cpu_wait",   "cpu_idle",    "resp_p95",  "resp_p99",
	"slaves",     "expected",
};

#define NA "n/a"

/* s as one flatfile value: no blanks (Vdbench refuses them), never "". */
static void flat_word(char *buf, size_t len, const char *s)
{
	size_t i = 0;

	for (; *s && i + 1 < len; s++)
		buf[i++] = (*s == ' ' || (unsigned char)*s < 0x20) ? '_' : *s;
	buf[i] = 0;
	if (!i)
		snprintf(buf, len, NA);
}

void vdbench_flat_req(const struct params *p, const struct plan_phase *ph,
		      const char *version, struct vdbench_req *out)
{
	const struct params_rd *rd = &p->rd[ph->rd];
	char name[PLAN_NAME_MAX + 16];
	long xfer = -2, threads = -2;
	double rdpct = -2, seekpct = -2, gib = 0;
	int size_known = 1;

	memset(out, 0, sizeof(*out));
	snprintf(name, sizeof(name), "%s%s",
		 ph->kind == PLAN_FORMAT ? "format_for_" : "", rd->name);
	flat_word(out->run, sizeof(out->run), name);
	if (ph->iorate > 0)
		snprintf(out->reqrate, sizeof(out->reqrate), "%.0f",
			 ph->iorate);
	else
		snprintf(out->reqrate, sizeof(out->reqrate), "max");
	/* A value all the rd's workloads share, else -1 (n/a). */
	for (size_t i = 0; i < rd->nwd; i++) {
		struct plan_wd w;
		long x;

		plan_wd_resolve(p, ph, i, &w);
		x = w.nxfer == 1 ? (long)w.xfer[0].size : -1;
		xfer = xfer == -2 || xfer == x ? x : -1;
		rdpct = rdpct == -2 || rdpct == w.rdpct ? w.rdpct : -1;
		seekpct = seekpct == -2 || seekpct == w.seekpct ? w.seekpct :
								  -1;
	}
	for (unsigned sd = 0; sd < p->nsd; sd++) {
		long t;

		if (!plan_rd_uses_sd(p, ph->rd, sd))
			continue;
		t = (long)plan_sd_threads(p, ph, sd);
		threads = threads == -2 || threads == t ? t : -1;
		if (!p->sd[sd].size)
			size_known = 0;
		gib += (double)p->sd[sd].size / 1073741824.0;
	}
#define PUT(field, ok, ...)                                                    \
	do {                                                                   \
		if (ok)                                                        \
			snprintf(out->field, sizeof(out->field), __VA_ARGS__); \
		else                                                           \
			snprintf(out->field, sizeof(out->field), NA);          \
	} while (0)
	PUT(xfersize, xfer >= 0, "%ld", xfer);
	PUT(threads, threads >= 0, "%ld", threads);
	PUT(rdpct, rdpct >= 0, "%.4f", rdpct);
	PUT(seekpct, seekpct >= 0, "%.4f", seekpct);
	PUT(lunsize, size_known && gib > 0, "%.4f", gib);
	PUT(compratio, ph->compratio > 0, "%.4f", ph->compratio);
	PUT(dedupratio, p->dedupratio > 0, "%.4f", p->dedupratio);
#undef PUT
	flat_word(out->version, sizeof(out->version), version);
}

void vdbench_flat_header(FILE *f)
{
	fputs("*\n"
	      "* flatfile.html written by lockstep in Vdbench's layout: the first\n"
	      "* line that starts with a blank names the columns, each data line\n"
	      "* has one blank-free value per column ('n/a': not available or\n"
	      "* conflicting), one row per cluster interval and one avg_ row per\n"
	      "* run (MB = 1024*1024 bytes, times in ms). After Vdbench's columns:\n"
	      "* resp_p95, resp_p99 (ms, from the merged histogram), slaves and\n"
	      "* expected (slaves that reported the interval, of those expected).\n"
	      "*\n",
	      f);
	fprintf(f, "%12s %23s ", "tod", "timestamp");
	for (size_t i = 0; i < sizeof(flat_cols) / sizeof(flat_cols[0]); i++)
		fprintf(f, "%10s ", flat_cols[i]);
	fputc('\n', f);
}

void vdbench_flat_row(FILE *f, uint64_t end_ns, const struct vdbench_req *rq,
		      const char *interval, const struct stats_view *v,
		      unsigned reported, unsigned expected)
{
	char tod[32], stamp[48], seen[16], want[16];
	time_t t = (time_t)(end_ns / 1000000000ULL);
	struct tm tm;

	time_fmt_tod(end_ns, tod, sizeof(tod));
	localtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%m/%d/%Y-%H:%M:%S-%Z", &tm);
	snprintf(seen, sizeof(seen), "%u", reported);
	snprintf(want, sizeof(want), "%u", expected);
	fprintf(f, "%12s %23s ", tod, stamp);
	fprintf(f, "%10s %10s %10s ", rq->run, interval, rq->reqrate);
	fprintf(f, "%10.4f %10.4f %10.0f %10.4f ", v->iops, v->mbps,
		v->xfer_bytes, v->read_pct);
	fprintf(f, "%10.4f %10.4f %10.4f %10.4f %10.4f ", v->resp_ms,
		v->read_resp_ms, v->write_resp_ms, v->resp_max_ms,
		v->resp_stddev_ms);
	fprintf(f, "%10s %10s %10s %10s %10s %10s %10s %10s %10s %10s ",
		rq->xfersize, rq->threads, rq->rdpct, NA, NA, rq->seekpct,
		rq->lunsize, rq->version, rq->compratio, rq->dedupratio);
	fprintf(f, "%10.4f %10.4f %10.4f %10.4f %10s %10s ", v->queue_depth,
		v->cpu_pct, v->cpu_pct - v->cpu_sys_pct, v->cpu_sys_pct, NA,
		NA);
	fprintf(f, "%10.4f %10.4f %10s %10s\n", v->p95_ms, v->p99_ms,
		expected ? seen : NA, expected ? want : NA);
}

/* ---- `lockstep vdbench`: Vdbench's command line -------------------------- */

/* Vdbench options lockstep does not do, and why, named when refused. */
static const struct {
	const char *opt, *why;
} vdb_refused[] = {
	{ "-vr", "re-reading each block right after its write" },
	{ "-c", "cleaning the output folder first" },
	{ "-t", "the built-in test run" },
	{ "-l", "looping the whole parameter file" },
	{ "-m", "multiple JVMs per host" },
	{ "-p", "the master's port (use --port)" },
	{ "-d", "Vdbench's debug codes" },
	{ "-r", "restarting from an rd" },
};

__attribute__((format(printf, 3, 4))) static int cli_err(char *err, size_t len,
							 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int vdbench_cli(int argc, char **argv, struct vdbench_cli *out, char *err,
		size_t len)
{
	memset(out, 0, sizeof(*out));
	out->run[out->nrun++] = "run";
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			out->help = 1;
			return 0;
		}
		if (!strcmp(a, "-f") || !strcmp(a, "-o") || !strcmp(a, "-e") ||
		    !strcmp(a, "-i") || !strcmp(a, "-w")) {
			if (!val)
				return cli_err(err, len, "%s wants a value", a);
			i++;
			if (a[1] == 'f') {
				if (out->file)
					return cli_err(err, len,
						       "-f %s: one parameter file only (give the others with include=)",
						       val);
				out->file = val;
				continue;
			}
			if (a[1] == 'o') {
				size_t n = strlen(val);

				if (n && val[n - 1] == '+')
					return cli_err(err, len,
						       "-o %s: a '+' (a new numbered folder per run) is not implemented by lockstep",
						       val);
				out->dir = val;
			}
			if (out->nrun + 2 >= VDBENCH_CLI_MAX)
				return cli_err(err, len, "too many options");
			out->run[out->nrun++] = a;
			out->run[out->nrun++] = val;
			continue;
		}
		if (!strcmp(a, "-s")) {
			out->simulate = 1;
			continue;
		}
		if (!strcmp(a, "-v") || !strcmp(a, "-vw")) {
			/* lockstep never reads a block before writing it: -vw
			 * is its validate=yes, as -v is. */
			out->validate = 1;
			continue;
		}
		if (!strcmp(a, "-j") || !strcmp(a, "-jr") ||
		    !strcmp(a, "-jn")) {
			/* A journal is replayed when it is there (-jr); each
			 * entry is made durable, -jn's unflushed journal is
			 * not offered. */
			out->validate = 1;
			out->journal = 1;
			continue;
		}
		if (!strncmp(a, "--", 2) && a[2]) {
			/* lockstep's own run options pass through. */
			if (out->nrun + 1 >= VDBENCH_CLI_MAX)
				return cli_err(err, len, "too many options");
			out->run[out->nrun++] = a;
			continue;
		}
		for (size_t k = 0;
		     k < sizeof(vdb_refused) / sizeof(vdb_refused[0]); k++)
			if (!strncmp(a, vdb_refused[k].opt,
				     strlen(vdb_refused[k].opt)))
				return cli_err(err, len,
					       "Vdbench option %s (%s) is not implemented by lockstep",
					       vdb_refused[k].opt,
					       vdb_refused[k].why);
		return cli_err(err, len,
			       "%s: not a Vdbench option lockstep implements (-f -o -e -i -w -s -v -vw -j -jr -jn, or lockstep run's --options)",
			       a);
	}
	if (!out->file)
		return cli_err(err, len, "no parameter file (-f FILE)");
	out->run[out->nrun] = NULL;
	return 0;
}

/* ---- vdbench=DIR on hd= ---------------------------------------------------- */

int vdbench_remote_exe(const char *dir, char *buf, size_t len)
{
	int n;

	if (!*dir || strpbrk(dir, "'\"\\\n$`"))
		return -EINVAL;
	n = snprintf(buf, len,
		     "x=$(for c in '%s/lockstep' '%s/vdbench' '%s'; do "
		     "[ -f \"$c\" ] && [ -x \"$c\" ] && "
		     "\"$c\" version 2>/dev/null | grep -q '^lockstep ' && "
		     "{ echo \"$c\"; break; }; done); "
		     "[ -n \"$x\" ] || { echo 'vdbench=%s: no lockstep there "
		     "(neither %s/lockstep nor %s/vdbench is lockstep)' >&2; "
		     "exit 127; }; \"$x\"",
		     dir, dir, dir, dir, dir, dir);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}
