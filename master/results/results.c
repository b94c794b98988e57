/*
 * The results layer's entry points (results.h): the results folder is
 * created and locked here and lockstep.log started in it; everything else
 * is a sink of the table in sinks.c (sink.h), and each entry point walks
 * that table in its order, calling the hook of each sink that has one.
 * An output file is a sink of its own (sink_*.c) and one row of the
 * table; every file is written through the checked writer (writer.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include "common/fsutil.h"
#include "common/log.h"
#include "common/timeutil.h"
#include "master/run/master_int.h"
#include "master/results/sink.h"
#include "master/results/vdbench.h"

/* Call hook h of every sink that has it, in the table's order. */
#define WALK(m, h, ...)                                 \
	for (size_t i_ = 0; i_ < (m)->out.nsinks; i_++) \
		if ((m)->out.sinks[i_].ops->h)          \
	(m)->out.sinks[i_].ops->h((m), (m)->out.sinks[i_].priv, __VA_ARGS__)

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

static int sinks_new(struct master *m)
{
	m->out.sinks = calloc(results_nsinks, sizeof(*m->out.sinks));
	if (!m->out.sinks)
		return -ENOMEM;
	for (size_t i = 0; i < results_nsinks; i++) {
		const struct sink_ops *o = results_sinks[i];

		m->out.sinks[i].ops = o;
		if (o->priv_size &&
		    !(m->out.sinks[i].priv = calloc(1, o->priv_size)))
			return -ENOMEM;
		m->out.nsinks = i + 1;
	}
	return 0;
}

int results_open(struct master *m)
{
	char path[PATH_MAX + 64], stamp[32];
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
	results_reserve_fill(m);
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
	ret = sinks_new(m);
	for (size_t i = 0; ret == 0 && i < m->out.nsinks; i++)
		if (m->out.sinks[i].ops->open)
			ret = m->out.sinks[i].ops->open(m,
							m->out.sinks[i].priv);
	return ret < 0 ? ret : assign_files(m);
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

void results_phase_start(struct master *m)
{
	struct sink_phase p;

	p.now = time_real_ns();
	vdbench_rd_line(m->params->rd[m->ph.cur->ph.rd].name, &m->ph.cur->ph,
			p.line, sizeof(p.line));
	/* Vdbench's time of day first: HCIBench drops the first two words. */
	time_fmt_tod(p.now, p.tod, sizeof(p.tod));
	WALK(m, phase_start, &p);
}

/* cells (SINK_CELL_MAX) += ',' (not before the first) and cell. */
static size_t add_cell(char *cells, size_t used, size_t k, const char *cell)
{
	int n = snprintf(cells + used, SINK_CELL_MAX - used, "%s%s",
			 k ? "," : "", cell);

	if (n < 0 || (size_t)n >= SINK_CELL_MAX - used)
		return SINK_CELL_MAX - 1;
	return used + (size_t)n;
}

void results_row(struct master *m, const struct merge_row *row)
{
	struct run_result *r = m->ph.cur;
	struct sink_row sr = { .row = row, .count = -1 };
	size_t used = 0, k = 0;

	stats_view(row->stats, r->ph.interval_s, &sr.v);
	snprintf(sr.label, sizeof(sr.label), "%u", row->seq + 1);
	r->done_bytes += sr.v.bytes;
	if (row->seq + 1 > r->rows)
		r->rows = row->seq + 1;
	for (size_t i = 0; i < m->out.nsinks; i++) {
		const struct sink_ops *o = m->out.sinks[i].ops;
		char cell[SINK_CELL_MAX];

		if (!o->cell)
			continue;
		o->cell(m, m->out.sinks[i].priv, &sr, cell, sizeof(cell),
			&sr.count);
		used = add_cell(sr.cells, used, k++, cell);
	}
	WALK(m, row, &sr);
	for (unsigned i = 0; i < row->nmissing; i++)
		log_warn("interval %u: no data from slave %s", row->seq + 1,
			 m->roster.slaves[row->missing[i]].hello.name);
}

void results_slave_row(struct master *m, struct slave_rec *s,
		       const struct proto_interval *iv, const char *note,
		       int late)
{
	struct stats *st = m->ph.scratch; /* only its counters are used */
	struct sink_slave_row sr = {
		.s = s, .iv = iv, .note = note, .late = late
	};
	size_t used = 0, k = 0;

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
	stats_view_sparse(st, iv->lat, m->ph.cur->ph.interval_s, &sr.v);
	sr.now = time_real_ns();
	for (size_t i = 0; i < m->out.nsinks; i++) {
		const struct sink_ops *o = m->out.sinks[i].ops;
		char cell[SINK_CELL_MAX];

		if (!o->slave_cell)
			continue;
		o->slave_cell(m, m->out.sinks[i].priv, &sr, cell, sizeof(cell));
		used = add_cell(sr.cells, used, k++, cell);
	}
	WALK(m, slave_row, &sr);
}

void results_run_end(struct master *m, struct run_result *r,
		     const struct stats *totals)
{
	struct sink_run_end e = { .r = r, .totals = totals };

	/* Vdbench ends a format run with its avg_ line too, and HCIBench
	   pairs the n-th RD= line with the n-th avg_. */
	if (r->ph.kind == PLAN_FORMAT)
		snprintf(e.label, sizeof(e.label), "avg_1-%u", r->rows);
	else
		snprintf(e.label, sizeof(e.label), "avg_%u-%u",
			 r->ph.warmup_intervals + 1, r->ph.intervals);
	WALK(m, run_end, &e);
}

void results_finish(struct master *m)
{
	log_flush_suppressed(); /* how many lines peers' floods cost */
	for (size_t i = 0; i < m->out.nsinks; i++)
		if (m->out.sinks[i].ops->end)
			m->out.sinks[i].ops->end(m, m->out.sinks[i].priv);
	/* The log is written by log.c: its errors are seen here. */
	if (m->out.log && (fflush(m->out.log) != 0 || ferror(m->out.log)))
		results_incomplete(m, "lockstep.log", -EIO);
	results_exit_incomplete(m);
	results_reserve_free(m);
	/* In the table's order: summary.json last, to say what was lost. */
	for (size_t i = 0; i < m->out.nsinks; i++)
		if (m->out.sinks[i].ops->write) {
			m->out.sinks[i].ops->write(m, m->out.sinks[i].priv);
			results_exit_incomplete(m);
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
	for (size_t i = m->out.nsinks; i-- > 0;) {
		if (m->out.sinks[i].ops->close)
			m->out.sinks[i].ops->close(m, m->out.sinks[i].priv);
		free(m->out.sinks[i].priv);
	}
	free(m->out.sinks);
	m->out.sinks = NULL;
	m->out.nsinks = 0;
	log_set_file(NULL);
	if (m->out.log && fclose(m->out.log) != 0)
		fprintf(stderr, "lockstep: %s/lockstep.log: %s\n", m->out.dir,
			strerror(errno));
	m->out.log = NULL;
	results_reserve_free(m);
	if (m->out.dir_lock)
		close(m->out.dir_lock - 1); /* the folder is free again */
	m->out.dir_lock = 0;
	for (size_t i = 0; i < m->out.nincomplete; i++)
		free(m->out.incomplete[i]);
	free(m->out.incomplete);
	m->out.incomplete = NULL;
	m->out.nincomplete = 0;
}
