/*
 * Every output of `lockstep run` has its room here: the console (interval
 * lines, format progress, a run's totals, lost slaves), the results folder
 * (lockstep.log, the copied parameter file, intervals.csv, hosts/<name>.csv,
 * <run>.hgrm) and, through results_summary.c, summary.json and summary.txt.
 * A new output is a function here and one call from where its data is.
 * Every file of the folder is written through one checked writer (struct
 * rfile): a write, flush, fsync or close that fails is never ignored, and
 * the file is named as incomplete on the console, in summary.json and in
 * the exit code.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include "common/exitcode.h"
#include "common/fsutil.h"
#include "common/log.h"
#include "common/timeutil.h"
#include "master/run/master_int.h"
#include "master/results/fiojson.h"
#include "master/run/progress.h"
#include "master/results/fmt.h"
#include "master/results/vdbench.h"
#include "lockstep_version.h"

/* ---- the checked writer ------------------------------------------------ */

void results_incomplete(struct master *m, const char *name, int err)
{
	char **n;

	m->out.any_incomplete = 1;
	log_error("results: %s/%s could not be written in full (%s): it is incomplete",
		  m->out.dir, name, strerror(err < 0 ? -err : EIO));
	for (size_t i = 0; i < m->out.nincomplete; i++)
		if (!strcmp(m->out.incomplete[i], name))
			return;
	n = realloc(m->out.incomplete, (m->out.nincomplete + 1) * sizeof(*n));
	if (!n)
		return;
	m->out.incomplete = n;
	n[m->out.nincomplete] = strdup(name);
	if (n[m->out.nincomplete])
		m->out.nincomplete++;
}

/* The first error of r: it is not written any more, and named. */
static void rfile_fail(struct master *m, struct rfile *r, int err)
{
	if (r->err)
		return;
	r->err = err < 0 ? err : -EIO;
	results_incomplete(m, r->name ? r->name : "?", r->err);
}

/* Open the file rel of the results folder, named name in messages. */
static int rfile_open_as(struct master *m, struct rfile *r, const char *name,
			 const char *rel)
{
	char path[PATH_MAX + 128];
	int fd, ret;

	memset(r, 0, sizeof(*r));
	if (snprintf(path, sizeof(path), "%s/%s", m->out.dir, rel) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	r->name = strdup(name);
	if (!r->name)
		return -ENOMEM;
	/* A symbolic link planted in the folder is not followed. */
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
		  0644);
	r->f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!r->f) {
		ret = -errno;
		if (fd >= 0)
			close(fd);
		free(r->name);
		r->name = NULL;
		return ret;
	}
	return 0;
}

static int rfile_open(struct master *m, struct rfile *r, const char *name)
{
	return rfile_open_as(m, r, name, name);
}

FILE *results_w(struct rfile *r)
{
	if (!r->f || r->err)
		return NULL;
	errno = 0;
	return r->f;
}

void results_wrote(struct master *m, struct rfile *r)
{
	if (r->f && !r->err && ferror(r->f))
		rfile_fail(m, r, errno ? -errno : -EIO);
}

static void rfile_flush(struct master *m, struct rfile *r)
{
	if (!results_w(r))
		return;
	if (fflush(r->f) != 0)
		rfile_fail(m, r, -errno);
	else
		results_wrote(m, r);
}

/* Flush, fsync (with sync) and close r; any failure is kept and named. */
static void rfile_close(struct master *m, struct rfile *r, int sync)
{
	if (r->f) {
		rfile_flush(m, r);
		if (sync && !r->err && fsync(fileno(r->f)) < 0)
			rfile_fail(m, r, -errno);
		if (fclose(r->f) != 0)
			rfile_fail(m, r, -errno);
		r->f = NULL;
	}
	free(r->name);
	r->name = NULL;
}

/* ---- the descriptor reserve (RESULTS_FD_RESERVE) ----------------------- */

static void reserve_fill(struct master *m)
{
	for (int i = 0; i < RESULTS_FD_RESERVE; i++)
		if (!m->out.fd_reserve[i])
			m->out.fd_reserve[i] = open("/dev/null",
						    O_RDONLY | O_CLOEXEC) +
					       1;
}

/* Give one reserved descriptor back before opening a file. */
static void reserve_use(struct master *m)
{
	for (int i = 0; i < RESULTS_FD_RESERVE; i++)
		if (m->out.fd_reserve[i] > 0) {
			close(m->out.fd_reserve[i] - 1);
			m->out.fd_reserve[i] = 0;
			return;
		}
}

static void reserve_free(struct master *m)
{
	for (int i = 0; i < RESULTS_FD_RESERVE; i++)
		if (m->out.fd_reserve[i] > 0) {
			close(m->out.fd_reserve[i] - 1);
			m->out.fd_reserve[i] = 0;
		}
}

int results_atomic_open(struct master *m, const char *name, struct rfile *r)
{
	char tmp[PATH_MAX];
	int ret;

	snprintf(tmp, sizeof(tmp), ".%s.tmp", name);
	reserve_use(m);
	ret = rfile_open_as(m, r, name, tmp);
	if (ret < 0)
		results_incomplete(m, name, ret);
	return ret;
}

int results_atomic_commit(struct master *m, struct rfile *r, const char *name)
{
	char tmp[PATH_MAX + 128], path[PATH_MAX + 128];
	int ret;

	snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", m->out.dir, name);
	snprintf(path, sizeof(path), "%s/%s", m->out.dir, name);
	results_wrote(m, r);
	rfile_close(m, r, 1);
	ret = r->err;
	if (!ret && rename(tmp, path) < 0) {
		ret = -errno;
		results_incomplete(m, name, ret);
	}
	/* The rename itself is on the disk only once its folder is. */
	if (!ret) {
		reserve_use(m);
		ret = fsutil_fsync_dir(m->out.dir);
		if (ret < 0)
			results_incomplete(m, name, ret);
	}
	if (ret)
		unlink(tmp);
	return ret;
}

/* ---- hosts/<name>.csv --------------------------------------------------- */

/*
 * A slave's name becomes a file name under hosts/: the name comes from a
 * peer, so it must pass the hd= name rule (fsutil_name_ok: no '/', no
 * leading '.', no control characters) and the path must stay inside the
 * results folder (the hello's check is the first wall, this the second).
 */
static int host_file_name(struct master *m, const char *name, char *buf,
			  size_t len)
{
	char path[PATH_MAX + 128];

	if (!fsutil_name_ok(name))
		return -EINVAL;
	if (snprintf(buf, len, "hosts/%s.csv", name) >= (int)len)
		return -ENAMETOOLONG;
	return fsutil_join_inside(m->out.dir, buf, path, sizeof(path));
}

static int open_host_file(struct master *m, const char *name, struct rfile *out)
{
	char rel[PROTO_NAME_LEN + 16];
	FILE *f;
	int ret = host_file_name(m, name, rel, sizeof(rel));

	if (ret == 0)
		ret = rfile_open(m, out, rel);
	if (ret < 0)
		return ret;
	f = results_w(out);
	if (f) {
		/* intervals.csv's columns, the events one included. */
		events_csv_header(f);
		results_wrote(m, out);
	}
	return 0;
}

/*
 * The names are known before any slave comes (local-1..N, the hd= lines),
 * so their files are opened now, while no peer holds a descriptor: a storm
 * of connections cannot keep the master from opening them later. Names
 * that arrive with hello (--expect-slaves) are opened then, and a slave
 * whose file cannot be opened is refused.
 */
int results_open_expected(struct master *m)
{
	char name[PROTO_NAME_LEN];
	unsigned n = m->params->nhd ? 0 : m->opt->nlocal;
	int ret;

	for (size_t h = 0; h < m->params->nhd; h++)
		n += m->params->hd[h].slaves;
	if (!n)
		return 0;
	m->out.pre = calloc(n, sizeof(*m->out.pre));
	if (!m->out.pre)
		return -ENOMEM;
	for (unsigned i = 0; i < m->opt->nlocal && !m->params->nhd; i++) {
		snprintf(name, sizeof(name), "local-%u", i + 1);
		ret = open_host_file(m, name, &m->out.pre[m->out.npre]);
		if (ret < 0)
			goto fail;
		m->out.npre++;
	}
	for (size_t h = 0; h < m->params->nhd; h++)
		for (unsigned k = 0; k < m->params->hd[h].slaves; k++) {
			roster_expected_name(&m->params->hd[h], k, name,
					     sizeof(name));
			ret = open_host_file(m, name, &m->out.pre[m->out.npre]);
			if (ret < 0)
				goto fail;
			m->out.npre++;
		}
	return 0;
fail:
	log_error("cannot write %s/hosts/%s.csv: %s", m->out.dir, name,
		  strerror(-ret));
	return ret;
}

int results_open_slave(struct master *m, const char *name, struct rfile *out)
{
	char rel[PROTO_NAME_LEN + 16];

	if (host_file_name(m, name, rel, sizeof(rel)) < 0)
		return -EINVAL;
	for (unsigned i = 0; i < m->out.npre; i++)
		if (m->out.pre[i].name && !strcmp(m->out.pre[i].name, rel)) {
			*out = m->out.pre[i];
			memset(&m->out.pre[i], 0, sizeof(m->out.pre[i]));
			return 0;
		}
	return open_host_file(m, name, out);
}

void results_discard(struct master *m, struct rfile *r)
{
	char path[PATH_MAX + 128];

	if (!r->name)
		return;
	snprintf(path, sizeof(path), "%s/%s", m->out.dir, r->name);
	if (r->f)
		fclose(r->f);
	r->f = NULL;
	unlink(path);
	free(r->name);
	r->name = NULL;
}

/*
 * Write one slave's interval to hosts/<name>.csv, and to intervals.csv as a
 * `late` row when it arrived after its cluster row was written: the cluster
 * row plus the late rows of an interval hold every I/O of it.
 */
void results_slave_row(struct master *m, struct slave_rec *s,
		       const struct proto_interval *iv, const char *note,
		       int late)
{
	struct stats *st = m->ph.scratch; /* only its counters are used */
	struct stats_view v;
	uint64_t now = time_real_ns();
	FILE *f;

	if (!m->ph.cur)
		return;
	for (int d = 0; d < 2; d++) {
		st->ops[d] = iv->ops[d];
		st->bytes[d] = iv->bytes[d];
	}
	st->errors = iv->errors;
	st->cpu_user_ns = iv->cpu_user_ns;
	st->cpu_sys_ns = iv->cpu_sys_ns;
	st->cpu_avail_ns = m->ph.cur->ph.interval_ns *
			   (iv->cores ? iv->cores : 1);
	stats_view_sparse(st, iv->lat, m->ph.cur->ph.interval_s, &v);
	if ((f = results_w(&s->csv))) {
		char marks[512];

		events_marks(m, iv->start_ns, iv->end_ns, ';', marks,
			     sizeof(marks));
		fmt_csv_row_tail(f, m->ph.cur->ph.name, iv->seq + 1, note,
				 iv->start_ns, iv->end_ns, 1, 1, &v, now,
				 marks);
		results_wrote(m, &s->csv);
	}
	results_export_slave(m, s, iv, late ? "late" : note, &v);
	events_sample(m, s, iv);
	if (late && (f = results_w(&m->out.icsv))) {
		events_csv_row(f, m->ph.cur->ph.name, iv->seq + 1, "late",
			       iv->start_ns, iv->end_ns, 1, 0, &v, now, "");
		results_wrote(m, &m->out.icsv);
		rfile_flush(m, &m->out.icsv);
	}
}

/*
 * The slaves' CSV files are flushed every HOSTS_FLUSH_NS, not per row: a
 * write per file per interval adds up with a thousand slaves.
 */
void results_flush_hosts(struct master *m, int force)
{
	uint64_t now = time_mono_ns();

	if (!force && now - m->link.hosts_flushed < HOSTS_FLUSH_NS)
		return;
	m->link.hosts_flushed = now;
	for (unsigned i = 0; i < m->roster.nslaves; i++)
		rfile_flush(m, &m->roster.slaves[i].csv);
}

/*
 * A format phase on a terminal: one progress line, redrawn each interval,
 * with bytes written, rate and time left.
 */
void results_phase_start(struct master *m)
{
	char line[PLAN_NAME_MAX * 2 + 128];

	char tod[32];
	uint64_t now = time_real_ns();

	vdbench_rd_line(m->params->rd[m->ph.cur->ph.rd].name, &m->ph.cur->ph,
			line, sizeof(line));
	/* Vdbench's time of day first: HCIBench drops the first two words. */
	time_fmt_tod(now, tod, sizeof(tod));
	printf("%s %s\n", tod, line);
	log_debug("%s", line);
	if (!m->opt->vdbench_console) {
		fmt_console_header(stdout, now, m->events != NULL);
		return;
	}
	fmt_vdbench_header(stdout, now);
	for (int i = 0; i < 2; i++) {
		struct rfile *r = i ? &m->out.vtot : &m->out.vsum;
		FILE *f = results_w(r);

		if (f) {
			fprintf(f, "%s %s\n", tod, line);
			fmt_vdbench_header(f, now);
			results_wrote(m, r);
		}
	}
}

/* `lockstep vdbench`: a console line also in summary.html (and, for a
   run's total, totals.html), as Vdbench writes them. */
static void vdbench_row(struct master *m, uint64_t real_ns, const char *label,
			const struct stats_view *v, int avg)
{
	FILE *f;

	fmt_vdbench_row(stdout, real_ns, label, v, avg);
	if ((f = results_w(&m->out.vsum))) {
		fmt_vdbench_row(f, real_ns, label, v, avg);
		results_wrote(m, &m->out.vsum);
	}
	if (avg && (f = results_w(&m->out.vtot))) {
		fmt_vdbench_row(f, real_ns, label, v, avg);
		results_wrote(m, &m->out.vtot);
	}
}

/* How many events marks names (';' between them). */
static int marks_count(const struct master *m, const char *marks)
{
	int n = 0;

	if (!m->events)
		return -1;
	if (*marks)
		for (n = 1; *marks; marks++)
			n += *marks == ';';
	return n;
}

/*
 * A long phase on a terminal: the interval lines scroll as usual and one
 * more line under them, erased before the next one, says how far the run
 * is and when it ends.
 */
static void long_progress(struct master *m, const struct run_result *r,
			  unsigned seq)
{
	char line[PLAN_NAME_MAX + 64];
	double done = (double)(seq + 1) * r->ph.interval_s;

	progress_line(r->ph.name, done, r->ph.warmup_s + r->ph.elapsed_s, done,
		      line, sizeof(line));
	printf("%s", line);
	fflush(stdout);
	m->out.progress_shown = 1;
}

static void progress_erase(struct master *m)
{
	if (!m->out.progress_shown)
		return;
	printf("\r\033[K");
	m->out.progress_shown = 0;
}

static void format_progress(struct run_result *r, const struct stats_view *v,
			    unsigned seq)
{
	double done = (double)r->done_bytes, total = (double)r->ph.format_bytes;
	double secs = (double)(seq + 1) * r->ph.interval_s;
	double rate = done / secs;

	if (total > 0 && rate > 0 && done < total)
		printf("\rformat %s: %.1f of %.1f GiB (%.0f%%), %.1f MB/s, %.0f s left  ",
		       r->ph.name, done / 1073741824.0, total / 1073741824.0,
		       100.0 * done / total, rate / 1048576.0,
		       (total - done) / rate);
	else
		printf("\rformat %s: %.1f GiB written, %.1f MB/s              ",
		       r->ph.name, done / 1073741824.0, v->mbps);
	fflush(stdout);
}

/* One row of flatfile.html for the current run (an avg_ row: 0 of 0). */
static void results_flat_row(struct master *m, const struct plan_phase *ph,
			     uint64_t end_ns, const char *label,
			     const struct stats_view *v, unsigned reported,
			     unsigned expected)
{
	struct vdbench_req rq;
	FILE *f;

	if (!(f = results_w(&m->out.flat)))
		return;
	vdbench_flat_req(m->params, ph, "lockstep-" LOCKSTEP_VERSION, &rq);
	vdbench_flat_row(f, end_ns, &rq, label, v, reported, expected);
	results_wrote(m, &m->out.flat);
	rfile_flush(m, &m->out.flat);
}

void results_row(struct master *m, const struct merge_row *row)
{
	struct run_result *r = m->ph.cur;
	struct stats_view v;
	char label[32], marks[512];
	FILE *f;

	stats_view(row->stats, r->ph.interval_s, &v);
	snprintf(label, sizeof(label), "%u", row->seq + 1);
	r->done_bytes += v.bytes;
	if (row->seq + 1 > r->rows)
		r->rows = row->seq + 1;
	if (!row->warmup && !r->fio)
		r->fio = calloc(1, sizeof(*r->fio));
	if (!row->warmup && r->fio) {
		double iops[2] = { (double)v.read_ops / r->ph.interval_s,
				   (double)v.write_ops / r->ph.interval_s };

		r->fio->iv_n++;
		for (int d = 0; d < 2; d++) {
			r->fio->iops_sum[d] += iops[d];
			r->fio->iops_sq[d] += iops[d] * iops[d];
		}
	}
	progress_erase(m);
	events_row(m, row, v.iops, v.p99_ms, ';', marks, sizeof(marks));
	if (r->ph.kind == PLAN_FORMAT && m->out.tty) {
		format_progress(r, &v, row->seq);
	} else {
		if (m->opt->vdbench_console)
			vdbench_row(m, row->end_ns, label, &v, 0);
		else
			fmt_console_row(stdout, row->end_ns, label, &v,
					row->reported, row->expected,
					marks_count(m, marks));
		if (progress_wanted(&r->ph, m->out.tty))
			long_progress(m, r, row->seq);
	}
	results_flat_row(m, &r->ph, row->end_ns, label, &v, row->reported,
			 row->expected);
	results_export_row(m, row, &v);
	if ((f = results_w(&m->out.icsv))) {
		events_csv_row(f, r->ph.name, row->seq + 1,
			       row->warmup ? "warmup" : "measure",
			       row->start_ns, row->end_ns, row->reported,
			       row->expected, &v, time_real_ns(), marks);
		results_wrote(m, &m->out.icsv);
		rfile_flush(m, &m->out.icsv);
	}
	for (unsigned i = 0; i < row->nmissing; i++)
		log_warn("interval %u: no data from slave %s", row->seq + 1,
			 m->roster.slaves[row->missing[i]].hello.name);
}

static void results_avg_line(struct master *m, const struct run_result *r,
			     const char *label, const struct stats_view *v)
{
	results_flat_row(m, &r->ph, time_real_ns(), label, v, 0, 0);
	if (m->opt->vdbench_console)
		vdbench_row(m, time_real_ns(), label, v, 1);
	else
		fmt_console_avg(stdout, time_real_ns(), label, v);
}

/*
 * iorate= not reached: by how much, and how much of it the slaves its
 * events were expected to take away explain (what they did not do while
 * away, from their own rows; see events_loss_explains()).
 */
static void iorate_missed(struct master *m, const struct run_result *r,
			  const struct stats_view *v)
{
	double measured = (double)(r->ph.intervals - r->ph.warmup_intervals) *
			  r->ph.interval_s;
	double short_ops = (r->ph.iorate - v->iops) * measured;
	double lost = events_loss_explains(m, r);

	printf("iorate=%g not reached: %.1f IO/s, %.1f%% short", r->ph.iorate,
	       v->iops, decide_shortfall_pct(r->ph.iorate, v->iops));
	if (lost > 0 && short_ops > 0)
		printf("; the expected losses explain %.1f%% of it (their share not done: %.0f I/Os, of %.0f short)",
		       fmin(100, 100 * lost / short_ops), lost, short_ops);
	printf("\n");
}

void results_run_totals(struct master *m, const struct run_result *r)
{
	const struct stats_view *v = &r->view;
	char label[32];

	results_export_totals(m, r);
	progress_erase(m);
	if (r->ph.kind == PLAN_FORMAT) {
		double d = (double)r->duration_ns / 1e9;

		if (m->out.tty)
			printf("\n");
		/* Vdbench ends a format run with its avg_ line too, and
		 * HCIBench pairs the n-th RD= line with the n-th avg_. */
		snprintf(label, sizeof(label), "avg_1-%u", r->rows);
		results_avg_line(m, r, label, v);
		printf("%s %s: %.1f MiB %s in %.2f s, %.1f MB/s\n\n",
		       r->ph.verify ? "validate" : "format", r->ph.name,
		       (double)v->bytes / 1048576.0,
		       r->ph.verify ? "read and verified" : "written", d,
		       d > 0 ? (double)v->bytes / 1048576.0 / d : 0);
		return;
	}
	snprintf(label, sizeof(label), "avg_%u-%u", r->ph.warmup_intervals + 1,
		 r->ph.intervals);
	results_avg_line(m, r, label, v);
	printf("\nRun %s: start skew %.3f ms \u00b1 %.3f ms over %u slaves\n",
	       r->ph.name, (double)r->start_skew_ns / 1e6,
	       (double)r->start_skew_bound_ns / 1e6,
	       roster_live_count(&m->roster));
	if (decide_iorate_missed(r->ph.iorate, v->iops))
		iorate_missed(m, r, v);
	fmt_hcibench(stdout, v);
	printf("\n");
}

void results_hgrm(struct master *m, struct run_result *r,
		  const struct stats *totals)
{
	char name[PLAN_NAME_MAX + 16];
	struct hist *h = malloc(sizeof(*h));
	struct rfile out;
	FILE *f;
	int ret;

	snprintf(name, sizeof(name), "%s.hgrm", r->file);
	if (!h) {
		results_incomplete(m, name, -ENOMEM);
		return;
	}
	reserve_use(m);
	ret = rfile_open(m, &out, name);
	if (ret < 0) {
		results_incomplete(m, name, ret);
	} else if ((f = results_w(&out))) {
		stats_combined_hist(totals, h);
		fmt_hgrm(f, h);
		results_wrote(m, &out);
	}
	if (!r->fio)
		r->fio = calloc(1, sizeof(*r->fio));
	if (r->fio) {
		stats_combined_hist(totals, h);
		fiojson_dist(h, &r->fio->dist);
		for (int d = 0; d < 2; d++)
			fiojson_lat(&totals->lat[d], &r->fio->lat[d]);
	}
	rfile_close(m, &out, 1);
	r->hgrm_written = ret == 0 && !out.err;
	reserve_fill(m);
	free(h);
}

void results_report_lost(struct master *m, FILE *f)
{
	for (unsigned i = 0; i < m->roster.nslaves; i++) {
		struct slave_rec *s = &m->roster.slaves[i];
		char heard[32], back[32];

		if (!s->losses)
			continue;
		time_fmt_tod(s->lost_real, heard, sizeof(heard));
		if (s->nlossrec && s->lossrec[s->nlossrec - 1].rejoin_real) {
			const struct slave_loss *l =
				&s->lossrec[s->nlossrec - 1];

			time_fmt_tod(l->rejoin_real, back, sizeof(back));
			fprintf(f,
				"slave %s was lost at %s and rejoined at %s (phase %s, interval %u)\n",
				s->hello.name, heard, back,
				m->ph.runs[l->rejoin_run].ph.name,
				l->rejoin_seq + 1);
		} else if (s->back_real > s->lost_real) {
			time_fmt_tod(s->back_real, back, sizeof(back));
			fprintf(f, "slave %s was lost at %s and back at %s\n",
				s->hello.name, heard, back);
		} else {
			time_fmt_tod(s->last_heard_real, back, sizeof(back));
			fprintf(f,
				"slave %s was lost at %s (last heard at %s)\n",
				s->hello.name, heard, back);
		}
	}
}

/* Every run's file stem (runfile.h): unique, from its display name. */
static int assign_files(struct master *m)
{
	const char **names = calloc(m->ph.nruns ? m->ph.nruns : 1,
				    sizeof(*names));
	char(*stems)[RUNFILE_MAX] = calloc(m->ph.nruns ? m->ph.nruns : 1,
					   sizeof(*stems));

	if (!names || !stems) {
		free(names);
		free(stems);
		return -ENOMEM;
	}
	for (size_t i = 0; i < m->ph.nruns; i++)
		names[i] = m->ph.runs[i].ph.name;
	runfile_assign(names, m->ph.nruns, stems);
	for (size_t i = 0; i < m->ph.nruns; i++)
		memcpy(m->ph.runs[i].file, stems[i], RUNFILE_MAX);
	free(names);
	free(stems);
	return 0;
}

/*
 * One run writes a results folder at a time: an exclusive flock() on
 * DIR/.lock, held until the process ends, with who holds it written in
 * it. A second master on the same folder refuses at once, naming the
 * holder, before it has removed or opened anything there.
 */
static int lock_dir(struct master *m)
{
	char path[PATH_MAX + 64], iso[40], who[256] = "";
	int fd, len;
	ssize_t got;

	snprintf(path, sizeof(path), "%s/.lock", m->out.dir);
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		fprintf(stderr, "lockstep: cannot create %s: %s\n", path,
			strerror(errno));
		return -errno;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int err = errno;

		got = pread(fd, who, sizeof(who) - 1, 0);
		who[got > 0 ? got : 0] = 0;
		who[strcspn(who, "\n")] = 0;
		for (char *p = who; *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				*p = '?';
		close(fd);
		if (err != EWOULDBLOCK) {
			fprintf(stderr, "lockstep: cannot lock %s: %s\n", path,
				strerror(err));
			return -err;
		}
		fprintf(stderr,
			"lockstep: the results folder %s is being written by another lockstep (%s): refused, nothing there was touched (choose another -o)\n",
			m->out.dir, *who ? who : "holder unknown");
		return -EBUSY;
	}
	len = snprintf(who, sizeof(who), "pid %ld, run %s, started %s\n",
		       (long)getpid(), m->run_id,
		       time_fmt_iso(m->started_real, iso, sizeof(iso)));
	if (ftruncate(fd, 0) < 0 || pwrite(fd, who, (size_t)len, 0) != len)
		log_warn("%s: cannot say who holds it: %s", path,
			 strerror(errno));
	m->out.dir_lock = fd + 1;
	return 0;
}

int results_open(struct master *m)
{
	char path[PATH_MAX + 64], stamp[32];
	const char *base = strrchr(m->opt->param_path, '/');
	int ret;

	if (m->opt->outdir_opt)
		snprintf(m->out.dir, sizeof(m->out.dir), "%s",
			 m->opt->outdir_opt);
	else
		snprintf(m->out.dir, sizeof(m->out.dir),
			 "lockstep-output/%s-%.8s",
			 time_fmt_stamp(m->started_real, stamp, sizeof(stamp)),
			 m->run_id);
	snprintf(path, sizeof(path), "%s/hosts", m->out.dir);
	ret = fsutil_mkdir_p(path);
	if (ret < 0) {
		fprintf(stderr, "lockstep: cannot create %s: %s\n", path,
			strerror(-ret));
		return ret;
	}
	ret = lock_dir(m);
	if (ret < 0)
		return ret;
	reserve_fill(m);
	/* A summary left by an earlier run here must not pass for this one. */
	snprintf(path, sizeof(path), "%s/summary.json", m->out.dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/summary.txt", m->out.dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/lockstep.log", m->out.dir);
	m->out.log = fopen(path, "ae");
	if (!m->out.log) {
		ret = -errno;
		fprintf(stderr, "lockstep: cannot write %s: %s\n", path,
			strerror(-ret));
		return ret;
	}
	setvbuf(m->out.log, NULL, _IOLBF, 0);
	log_set_file(m->out.log);
	snprintf(path, sizeof(path), "%s/%s", m->out.dir,
		 base ? base + 1 : m->opt->param_path);
	ret = fsutil_copy_file(m->opt->param_path, path);
	if (ret < 0)
		results_incomplete(m, base ? base + 1 : m->opt->param_path,
				   ret);
	ret = rfile_open(m, &m->out.icsv, "intervals.csv");
	if (ret < 0) {
		log_error("cannot write %s/intervals.csv: %s", m->out.dir,
			  strerror(-ret));
		return ret;
	}
	events_csv_header(m->out.icsv.f);
	results_wrote(m, &m->out.icsv);
	ret = rfile_open(m, &m->out.flat, "flatfile.html");
	if (ret < 0) {
		log_error("cannot write %s/flatfile.html: %s", m->out.dir,
			  strerror(-ret));
		return ret;
	}
	vdbench_flat_header(m->out.flat.f);
	results_wrote(m, &m->out.flat);
	if (m->opt->vdbench_console) {
		ret = rfile_open(m, &m->out.vsum, "summary.html");
		if (ret == 0)
			ret = rfile_open(m, &m->out.vtot, "totals.html");
		if (ret < 0) {
			log_error("cannot write %s/summary.html or totals.html: %s",
				  m->out.dir, strerror(-ret));
			return ret;
		}
	}
	return assign_files(m);
}

int results_check_space(struct master *m)
{
	uint64_t intervals = 0, need, avail;
	int ret;

	for (size_t i = 0; i < m->ph.nruns; i++)
		intervals += m->ph.runs[i].ph.intervals;
	need = decide_results_bytes(intervals, (unsigned)m->ph.nruns,
				    m->roster.nslaves,
				    m->params ? (unsigned)m->params->nev : 0);
	ret = fsutil_free_bytes(m->out.dir, &avail);
	if (ret < 0) {
		log_warn("cannot tell the free space of %s: %s", m->out.dir,
			 strerror(-ret));
		return m->opt->require_space ? ret : 0;
	}
	if (avail >= need)
		return 0;
	if (m->opt->require_space) {
		log_error("the results folder %s has %.1f MiB free, and the planned rows (%llu intervals of %u slaves) need about %.1f MiB: refused (--require-space)",
			  m->out.dir, (double)avail / 1048576.0,
			  (unsigned long long)intervals, m->roster.nslaves,
			  (double)need / 1048576.0);
		return -ENOSPC;
	}
	log_warn("the results folder %s has %.1f MiB free, and the planned rows (%llu intervals of %u slaves) need about %.1f MiB: its files may be incomplete (--require-space refuses to start instead)",
		 m->out.dir, (double)avail / 1048576.0,
		 (unsigned long long)intervals, m->roster.nslaves,
		 (double)need / 1048576.0);
	return 0;
}

/* Every data file (rows) closed and synced; unused pre-opened ones gone. */
static void close_data_files(struct master *m)
{
	for (unsigned i = 0; i < m->roster.nslaves; i++)
		rfile_close(m, &m->roster.slaves[i].csv, 1);
	for (unsigned i = 0; i < m->out.npre; i++)
		results_discard(m, &m->out.pre[i]);
	rfile_close(m, &m->out.icsv, 1);
	rfile_close(m, &m->out.flat, 1);
	rfile_close(m, &m->out.vsum, 1);
	rfile_close(m, &m->out.vtot, 1);
	/* The log is written by log.c: its errors are seen here. */
	if (m->out.log && (fflush(m->out.log) != 0 || ferror(m->out.log)))
		results_incomplete(m, "lockstep.log", -EIO);
}

/* A lost result file makes a run that ran exit non-zero. */
static void exit_incomplete(struct master *m)
{
	if (m->out.any_incomplete)
		m->fact.results_incomplete = 1;
}

void results_finish(struct master *m)
{
	results_validation_finish(m);
	log_flush_suppressed(); /* how many lines peers' floods cost */
	progress_erase(m);
	results_export_close(m);
	results_report_lost(m, stdout);
	fflush(stdout);
	close_data_files(m);
	exit_incomplete(m);
	/* summary.txt first: summary.json then says if it was lost. */
	reserve_free(m);
	results_summary_txt(m);
	results_fio_json(m);
	exit_incomplete(m);
	if (results_summary_json(m) < 0) {
		exit_incomplete(m);
		fprintf(stderr,
			"lockstep: run %s %s (exit %d), and summary.json could not be written\n",
			m->run_id, results_status_name(decide_exit(&m->fact)),
			decide_exit(&m->fact));
	}
	if (m->out.any_incomplete) {
		char list[2048];
		size_t used = 0;

		list[0] = 0;
		for (size_t i = 0;
		     i < m->out.nincomplete && used < sizeof(list); i++)
			used += (size_t)snprintf(list + used,
						 sizeof(list) - used, "%s%s",
						 i ? ", " : "",
						 m->out.incomplete[i]);
		log_error("results in %s are incomplete: %s", m->out.dir, list);
	}
	log_info("run %s %s%s; results in %s", m->run_id,
		 results_status_name(decide_exit(&m->fact)),
		 m->opt->insecure ? " (insecure: no authentication)" : "",
		 m->out.dir);
}

void results_close(struct master *m)
{
	for (unsigned i = 0; i < m->roster.nslaves; i++)
		rfile_close(m, &m->roster.slaves[i].csv, 0);
	for (unsigned i = 0; i < m->out.npre; i++)
		results_discard(m, &m->out.pre[i]);
	free(m->out.pre);
	m->out.pre = NULL;
	m->out.npre = 0;
	rfile_close(m, &m->out.icsv, 0);
	rfile_close(m, &m->out.flat, 0);
	rfile_close(m, &m->out.vsum, 0);
	rfile_close(m, &m->out.vtot, 0);
	log_set_file(NULL);
	if (m->out.log && fclose(m->out.log) != 0)
		fprintf(stderr, "lockstep: %s/lockstep.log: %s\n", m->out.dir,
			strerror(errno));
	m->out.log = NULL;
	reserve_free(m);
	if (m->out.dir_lock)
		close(m->out.dir_lock - 1); /* the folder is free again */
	m->out.dir_lock = 0;
	for (size_t i = 0; i < m->out.nincomplete; i++)
		free(m->out.incomplete[i]);
	free(m->out.incomplete);
	m->out.incomplete = NULL;
	m->out.nincomplete = 0;
}
