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
#include "master/history/history.h"
#include "master/run/master_int.h"
#include "common/exitcode.h"
#include "master/results/sink.h"
#include "master/results/vdbench.h"

/* Call hook h of every sink that has it, in the table's order. */
#define WALK(rv, h, ...)                                             \
	for (size_t i_ = 0; i_ < (rv)->out->nsinks; i_++)            \
		if ((rv)->out->sinks[i_].ops->h)                     \
	(rv)->out->sinks[i_].ops->h((rv), (rv)->out->sinks[i_].priv, \
				    __VA_ARGS__)

/* Every run's file stem (runfile.h): unique, from its display name. */
static int assign_files(const struct run_view *rv)
{
	const char **names = calloc(rv->ph->nruns ? rv->ph->nruns : 1,
				    sizeof(*names));
	char(*stems)[RUNFILE_MAX] = calloc(rv->ph->nruns ? rv->ph->nruns : 1,
					   sizeof(*stems));

	if (!names || !stems) {
		free(names);
		free(stems);
		return -ENOMEM;
	}
	for (size_t i = 0; i < rv->ph->nruns; i++)
		names[i] = rv->ph->runs[i].ph.name;
	runfile_assign(names, rv->ph->nruns, stems);
	for (size_t i = 0; i < rv->ph->nruns; i++)
		memcpy(rv->ph->runs[i].file, stems[i], RUNFILE_MAX);
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
static int lock_dir(const struct run_view *rv)
{
	char path[PATH_MAX + 64], iso[40], who[256] = "";
	int fd, len;
	ssize_t got;

	snprintf(path, sizeof(path), "%s/.lock", rv->out->dir);
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
			rv->out->dir, *who ? who : "holder unknown");
		return -EBUSY;
	}
	len = snprintf(who, sizeof(who), "pid %ld, run %s, started %s\n",
		       (long)getpid(), rv->run_id,
		       time_fmt_iso(rv->started_real, iso, sizeof(iso)));
	if (ftruncate(fd, 0) < 0 || pwrite(fd, who, (size_t)len, 0) != len)
		log_warn("%s: cannot say who holds it: %s", path,
			 strerror(errno));
	rv->out->dir_lock = fd + 1;
	return 0;
}

static int sinks_new(const struct run_view *rv)
{
	rv->out->sinks = calloc(results_nsinks, sizeof(*rv->out->sinks));
	if (!rv->out->sinks)
		return -ENOMEM;
	for (size_t i = 0; i < results_nsinks; i++) {
		const struct sink_ops *o = results_sinks[i];

		rv->out->sinks[i].ops = o;
		if (o->priv_size &&
		    !(rv->out->sinks[i].priv = calloc(1, o->priv_size)))
			return -ENOMEM;
		rv->out->nsinks = i + 1;
	}
	return 0;
}

int results_open(const struct run_view *rv)
{
	char path[PATH_MAX + 64], stamp[32];
	int ret;

	if (rv->opt->outdir_opt)
		snprintf(rv->out->dir, sizeof(rv->out->dir), "%s",
			 rv->opt->outdir_opt);
	else
		snprintf(rv->out->dir, sizeof(rv->out->dir),
			 "lockstep-output/%s-%.8s",
			 time_fmt_stamp(rv->started_real, stamp, sizeof(stamp)),
			 rv->run_id);
	snprintf(path, sizeof(path), "%s/hosts", rv->out->dir);
	ret = fsutil_mkdir_p(path);
	if (ret < 0) {
		fprintf(stderr, "lockstep: cannot create %s: %s\n", path,
			strerror(-ret));
		return ret;
	}
	ret = lock_dir(rv);
	if (ret < 0)
		return ret;
	results_reserve_fill(rv);
	/* A summary left by an earlier run here must not pass for this one. */
	snprintf(path, sizeof(path), "%s/summary.json", rv->out->dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/summary.txt", rv->out->dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/lockstep.log", rv->out->dir);
	rv->out->log = fopen(path, "ae");
	if (!rv->out->log) {
		ret = -errno;
		fprintf(stderr, "lockstep: cannot write %s: %s\n", path,
			strerror(-ret));
		return ret;
	}
	setvbuf(rv->out->log, NULL, _IOLBF, 0);
	log_set_file(rv->out->log);
	ret = sinks_new(rv);
	for (size_t i = 0; ret == 0 && i < rv->out->nsinks; i++)
		if (rv->out->sinks[i].ops->open)
			ret = rv->out->sinks[i]
				      .ops->open(rv, rv->out->sinks[i].priv);
	return ret < 0 ? ret : assign_files(rv);
}

int results_check_space(const struct run_view *rv)
{
	uint64_t intervals = 0, need, avail;
	int ret;

	for (size_t i = 0; i < rv->ph->nruns; i++)
		intervals += rv->ph->runs[i].ph.intervals;
	need = decide_results_bytes(intervals, (unsigned)rv->ph->nruns,
				    rv->roster->nslaves,
				    rv->params ?
					    (unsigned)(rv->params->nev +
						       rv->params->nprobe) :
					    0);
	ret = fsutil_free_bytes(rv->out->dir, &avail);
	if (ret < 0) {
		log_warn("cannot tell the free space of %s: %s", rv->out->dir,
			 strerror(-ret));
		return rv->opt->require_space ? ret : 0;
	}
	if (avail >= need)
		return 0;
	if (rv->opt->require_space) {
		log_error("the results folder %s has %.1f MiB free, and the planned rows (%llu intervals of %u slaves) need about %.1f MiB: refused (--require-space)",
			  rv->out->dir, (double)avail / 1048576.0,
			  (unsigned long long)intervals, rv->roster->nslaves,
			  (double)need / 1048576.0);
		return -ENOSPC;
	}
	log_warn("the results folder %s has %.1f MiB free, and the planned rows (%llu intervals of %u slaves) need about %.1f MiB: its files may be incomplete (--require-space refuses to start instead)",
		 rv->out->dir, (double)avail / 1048576.0,
		 (unsigned long long)intervals, rv->roster->nslaves,
		 (double)need / 1048576.0);
	return 0;
}

void results_phase_start(const struct run_view *rv)
{
	struct sink_phase p;

	p.now = time_real_ns();
	vdbench_rd_line(rv->params->rd[rv->ph->cur->ph.rd].name,
			&rv->ph->cur->ph, p.line, sizeof(p.line));
	/* Vdbench's time of day first: HCIBench drops the first two words. */
	time_fmt_tod(p.now, p.tod, sizeof(p.tod));
	WALK(rv, phase_start, &p);
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

void results_row(const struct run_view *rv, const struct merge_row *row)
{
	struct run_result *r = rv->ph->cur;
	struct sink_row sr = { .row = row, .count = -1 };
	struct fsops_view fv;
	size_t used = 0, k = 0;

	stats_view(row->stats, r->ph.interval_s, &sr.v);
	if (row->fs) {
		fsops_view(row->fs, row->stats, r->ph.interval_s, &fv);
		sr.fs = &fv;
	}
	snprintf(sr.label, sizeof(sr.label), "%u", row->seq + 1);
	r->done_bytes += sr.v.bytes;
	if (row->seq + 1 > r->rows)
		r->rows = row->seq + 1;
	for (size_t i = 0; i < rv->out->nsinks; i++) {
		const struct sink_ops *o = rv->out->sinks[i].ops;
		char cell[SINK_CELL_MAX];

		if (!o->cell)
			continue;
		o->cell(rv, rv->out->sinks[i].priv, &sr, cell, sizeof(cell),
			&sr.count);
		used = add_cell(sr.cells, used, k++, cell);
	}
	WALK(rv, row, &sr);
	for (unsigned i = 0; i < row->nmissing; i++)
		log_warn("interval %u: no data from slave %s", row->seq + 1,
			 rv->roster->slaves[row->missing[i]].hello.name);
}

void results_slave_row(const struct run_view *rv, struct slave_rec *s,
		       const struct proto_interval *iv, const char *note,
		       int late)
{
	struct stats *st = rv->ph->scratch; /* only its counters are used */
	struct sink_slave_row sr = {
		.s = s, .iv = iv, .note = note, .late = late
	};
	size_t used = 0, k = 0;

	if (!rv->ph->cur)
		return;
	for (int d = 0; d < 2; d++) {
		st->ops[d] = iv->ops[d];
		st->bytes[d] = iv->bytes[d];
	}
	st->errors = iv->errors;
	st->cpu_user_ns = iv->cpu_user_ns;
	st->cpu_sys_ns = iv->cpu_sys_ns;
	st->cpu_avail_ns = rv->ph->cur->ph.interval_ns *
			   (iv->cores ? iv->cores : 1);
	stats_view_sparse(st, iv->lat, rv->ph->cur->ph.interval_s, &sr.v);
	sr.now = time_real_ns();
	for (size_t i = 0; i < rv->out->nsinks; i++) {
		const struct sink_ops *o = rv->out->sinks[i].ops;
		char cell[SINK_CELL_MAX];

		if (!o->slave_cell)
			continue;
		o->slave_cell(rv, rv->out->sinks[i].priv, &sr, cell,
			      sizeof(cell));
		used = add_cell(sr.cells, used, k++, cell);
	}
	WALK(rv, slave_row, &sr);
}

void results_run_end(const struct run_view *rv, struct run_result *r,
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
	WALK(rv, run_end, &e);
}

void results_finish(const struct run_view *rv)
{
	log_flush_suppressed(); /* how many lines peers' floods cost */
	for (size_t i = 0; i < rv->out->nsinks; i++)
		if (rv->out->sinks[i].ops->end)
			rv->out->sinks[i].ops->end(rv, rv->out->sinks[i].priv);
	/* The log is written by log.c: its errors are seen here. */
	if (rv->out->log && (fflush(rv->out->log) != 0 || ferror(rv->out->log)))
		results_incomplete(rv, "lockstep.log", -EIO);
	results_exit_incomplete(rv);
	results_reserve_free(rv);
	/* In the table's order: summary.json last, to say what was lost. */
	for (size_t i = 0; i < rv->out->nsinks; i++)
		if (rv->out->sinks[i].ops->write) {
			rv->out->sinks[i].ops->write(rv,
						     rv->out->sinks[i].priv);
			results_exit_incomplete(rv);
		}
	if (rv->out->any_incomplete) {
		char list[2048];
		size_t used = 0;

		list[0] = 0;
		for (size_t i = 0;
		     i < rv->out->nincomplete && used < sizeof(list); i++)
			used += (size_t)snprintf(list + used,
						 sizeof(list) - used, "%s%s",
						 i ? ", " : "",
						 rv->out->incomplete[i]);
		log_error("results in %s are incomplete: %s", rv->out->dir,
			  list);
	}
	log_info("run %s %s%s; results in %s", rv->run_id,
		 results_status_name(decide_exit(rv->fact)),
		 rv->opt->insecure ? " (insecure: no authentication)" : "",
		 rv->out->dir);
}

/* Both summaries again, with the exit code and verdict now: 0 or -errno. */
static int rewrite_summaries(const struct run_view *rv)
{
	int a = results_summary_txt(rv), b = results_summary_json(rv);

	return a < 0 ? a : b;
}

int results_seal(const struct run_view *rv, const struct history_seal *s)
{
	int written = decide_exit(rv->fact), now;

	/* The hook turns only a run that was OK into 3 or 6. */
	if (s->exit_code != written)
		rv->fact->compare = s->exit_code == LS_EXIT_REGRESSION ?
					    COMPARE_REGRESSION :
					    COMPARE_NO_BASELINE;
	snprintf(rv->fact->verdict, sizeof(rv->fact->verdict), "%s",
		 s->verdict);
	WALK(rv, seal, s);
	results_exit_incomplete(rv);
	now = decide_exit(rv->fact);
	if ((now != written || *s->verdict) && rewrite_summaries(rv) < 0) {
		log_error("the summaries could not be rewritten with the verdict (exit %d: %s)",
			  now, s->verdict);
		rv->fact->unsealed = 1;
	}
	written = decide_exit(rv->fact);
	WALK(rv, sealed, s);
	results_exit_incomplete(rv);
	now = decide_exit(rv->fact);
	if (now != written && rewrite_summaries(rv) < 0)
		log_error("the summaries could not be rewritten (exit %d)",
			  now);
	now = decide_exit(rv->fact);
	if (*s->verdict || now != s->exit_code)
		log_info("run %s %s (exit %d)%s%s", rv->run_id,
			 results_status_name(now), now, *s->verdict ? ": " : "",
			 s->verdict);
	return now;
}

void results_close(const struct run_view *rv)
{
	for (size_t i = rv->out->nsinks; i-- > 0;) {
		if (rv->out->sinks[i].ops->close)
			rv->out->sinks[i].ops->close(rv,
						     rv->out->sinks[i].priv);
		free(rv->out->sinks[i].priv);
	}
	free(rv->out->sinks);
	rv->out->sinks = NULL;
	rv->out->nsinks = 0;
	log_set_file(NULL);
	if (rv->out->log && fclose(rv->out->log) != 0)
		fprintf(stderr, "lockstep: %s/lockstep.log: %s\n", rv->out->dir,
			strerror(errno));
	rv->out->log = NULL;
	results_reserve_free(rv);
	if (rv->out->dir_lock)
		close(rv->out->dir_lock - 1); /* the folder is free again */
	rv->out->dir_lock = 0;
	for (size_t i = 0; i < rv->out->nincomplete; i++)
		free(rv->out->incomplete[i]);
	free(rv->out->incomplete);
	rv->out->incomplete = NULL;
	rv->out->nincomplete = 0;
}
