/*
 * Every output of `lockstep run` has its room here: the console (interval
 * lines, format progress, a run's totals, lost slaves), the results folder
 * (lockstep.log, the copied parameter file, intervals.csv, hosts/<name>.csv,
 * <run>.hgrm) and, through results_summary.c, summary.json and summary.txt.
 * A new output is a function here and one call from where its data is.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common/fsutil.h"
#include "common/log.h"
#include "common/timeutil.h"
#include "master/master_int.h"
#include "master/report.h"

/*
 * hosts/<name>.csv: the name comes from a peer, so the path is checked to
 * stay inside the results folder (the hello's check is the first wall),
 * and a symbolic link at its end is not followed.
 */
void results_open_slave(struct master *m, struct slave_rec *s)
{
	char rel[PROTO_NAME_LEN + 16], path[PATH_MAX + 128];
	int fd;

	snprintf(rel, sizeof(rel), "hosts/%s.csv", s->hello.name);
	if (!fsutil_name_ok(s->hello.name) ||
	    fsutil_join_inside(m->dir, rel, path, sizeof(path)) < 0) {
		log_error("slave %s: no file of its name can be written in the results folder",
			  s->hello.name);
		return;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
		  0644);
	s->csv = fd < 0 ? NULL : fdopen(fd, "w");
	if (!s->csv) {
		log_warn("cannot write %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	report_csv_header(s->csv);
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
	struct stats *st = m->scratch; /* only its counters are used */
	struct stats_view v;
	uint64_t now = time_real_ns();

	if (!m->cur)
		return;
	for (int d = 0; d < 2; d++) {
		st->ops[d] = iv->ops[d];
		st->bytes[d] = iv->bytes[d];
	}
	st->errors = iv->errors;
	st->cpu_user_ns = iv->cpu_user_ns;
	st->cpu_sys_ns = iv->cpu_sys_ns;
	st->cpu_avail_ns = m->cur->ph.interval_ns * (iv->cores ? iv->cores : 1);
	stats_view_sparse(st, iv->lat, m->cur->ph.interval_s, &v);
	if (s->csv)
		report_csv_row(s->csv, m->cur->ph.name, iv->seq + 1, note,
			       iv->start_ns, iv->end_ns, 1, 1, &v, now);
	if (late && m->icsv) {
		report_csv_row(m->icsv, m->cur->ph.name, iv->seq + 1, "late",
			       iv->start_ns, iv->end_ns, 1, 0, &v, now);
		fflush(m->icsv);
	}
}

/*
 * The slaves' CSV files are flushed every HOSTS_FLUSH_NS, not per row: a
 * write per file per interval adds up with a thousand slaves.
 */
void results_flush_hosts(struct master *m, int force)
{
	uint64_t now = time_mono_ns();

	if (!force && now - m->hosts_flushed < HOSTS_FLUSH_NS)
		return;
	m->hosts_flushed = now;
	for (unsigned i = 0; i < m->nslaves; i++)
		if (m->slaves[i].csv)
			fflush(m->slaves[i].csv);
}

/*
 * A format phase on a terminal: one progress line, redrawn each interval,
 * with bytes written, rate and time left.
 */
void results_phase_start(struct master *m)
{
	(void)m;
	report_console_header(stdout, time_real_ns());
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

void results_row(struct master *m, const struct merge_row *row)
{
	struct run_result *r = m->cur;
	struct stats_view v;
	char label[32];

	stats_view(row->stats, r->ph.interval_s, &v);
	snprintf(label, sizeof(label), "%u", row->seq + 1);
	r->done_bytes += v.bytes;
	if (r->ph.kind == PLAN_FORMAT && m->tty)
		format_progress(r, &v, row->seq);
	else
		report_console_row(stdout, row->end_ns, label, &v,
				   row->reported, row->expected);
	if (m->icsv)
	{
		report_csv_row(m->icsv, r->ph.name, row->seq + 1,
			       row->warmup ? "warmup" : "measure",
			       row->start_ns, row->end_ns, row->reported,
			       row->expected, &v, time_real_ns());
		fflush(m->icsv);
	}
	for (unsigned i = 0; i < row->nmissing; i++)
		log_warn("interval %u: no data from slave %s", row->seq + 1,
			 m->slaves[row->missing[i]].hello.name);
}

void results_run_totals(struct master *m, const struct run_result *r)
{
	const struct stats_view *v = &r->view;
	char label[32];

	if (r->ph.kind == PLAN_FORMAT) {
		double d = (double)r->duration_ns / 1e9;

		if (m->tty)
			printf("\n");
		printf("format %s: %.1f MiB written in %.2f s, %.1f MB/s\n\n",
		       r->ph.name, (double)v->bytes / 1048576.0, d,
		       d > 0 ? (double)v->bytes / 1048576.0 / d : 0);
		return;
	}
	snprintf(label, sizeof(label), "avg_%u-%u", r->ph.warmup_intervals + 1,
		 r->ph.intervals);
	report_console_row(stdout, time_real_ns(), label, v, 0, 0);
	printf("\nRun %s: start skew %.3f ms over %u slaves\n", r->ph.name,
	       (double)r->start_skew_ns / 1e6, roster_live_count(m));
	if (decide_iorate_missed(r->ph.iorate, v->iops))
		printf("iorate=%g not reached: %.1f IO/s, %.1f%% short\n",
		       r->ph.iorate, v->iops,
		       decide_shortfall_pct(r->ph.iorate, v->iops));
	report_hcibench(stdout, v);
	printf("\n");
}

void results_hgrm(struct master *m, const struct run_result *r,
		       const struct stats *totals)
{
	char path[PATH_MAX + 128];
	struct hist *h = malloc(sizeof(*h));
	FILE *f;

	if (!h)
		return;
	snprintf(path, sizeof(path), "%s/%s.hgrm", m->dir, r->ph.name);
	f = fopen(path, "w");
	if (f) {
		stats_combined_hist(totals, h);
		report_hgrm(f, h);
		fclose(f);
	}
	free(h);
}

void results_report_lost(struct master *m, FILE *f)
{
	for (unsigned i = 0; i < m->nslaves; i++) {
		struct slave_rec *s = &m->slaves[i];
		char heard[32], back[32];

		if (!s->losses)
			continue;
		time_fmt_tod(s->lost_real, heard, sizeof(heard));
		if (s->back_real > s->lost_real) {
			time_fmt_tod(s->back_real, back, sizeof(back));
			fprintf(f, "slave %s was lost at %s and rejoined at %s\n",
				s->hello.name, heard, back);
		} else {
			time_fmt_tod(s->last_heard_real, back, sizeof(back));
			fprintf(f, "slave %s was lost at %s (last heard at %s)\n",
				s->hello.name, heard, back);
		}
	}
}

int results_open(struct master *m)
{
	char path[PATH_MAX + 64], stamp[32];
	const char *base = strrchr(m->param_path, '/');
	int ret;

	if (m->outdir_opt)
		snprintf(m->dir, sizeof(m->dir), "%s", m->outdir_opt);
	else
		snprintf(m->dir, sizeof(m->dir), "lockstep-output/%s-%.8s",
			 time_fmt_stamp(m->started_real, stamp, sizeof(stamp)),
			 m->run_id);
	snprintf(path, sizeof(path), "%s/hosts", m->dir);
	ret = fsutil_mkdir_p(path);
	if (ret < 0) {
		fprintf(stderr, "lockstep: cannot create %s: %s\n", path,
			strerror(-ret));
		return ret;
	}
	snprintf(path, sizeof(path), "%s/lockstep.log", m->dir);
	m->log = fopen(path, "a");
	if (!m->log) {
		ret = -errno;
		fprintf(stderr, "lockstep: cannot write %s: %s\n", path,
			strerror(-ret));
		return ret;
	}
	setvbuf(m->log, NULL, _IOLBF, 0);
	log_set_file(m->log);
	snprintf(path, sizeof(path), "%s/%s", m->dir,
		 base ? base + 1 : m->param_path);
	if (fsutil_copy_file(m->param_path, path) < 0)
		log_warn("cannot copy the parameter file to %s", path);
	snprintf(path, sizeof(path), "%s/intervals.csv", m->dir);
	m->icsv = fopen(path, "w");
	if (!m->icsv) {
		ret = -errno;
		log_error("cannot write %s: %s", path, strerror(-ret));
		return ret;
	}
	report_csv_header(m->icsv);
	return 0;
}

void results_finish(struct master *m)
{
	log_flush_suppressed(); /* how many lines peers' floods cost */
	results_report_lost(m, stdout);
	results_summary_json(m);
	results_summary_txt(m);
	log_info("run %s %s; results in %s", m->run_id,
		 results_status_name(m->exit_code), m->dir);
}

void results_close(struct master *m)
{
	for (unsigned i = 0; i < m->nslaves; i++)
		if (m->slaves[i].csv) {
			fclose(m->slaves[i].csv);
			m->slaves[i].csv = NULL;
		}
	if (m->icsv)
		fclose(m->icsv);
	m->icsv = NULL;
	log_set_file(NULL);
	if (m->log)
		fclose(m->log);
	m->log = NULL;
}
