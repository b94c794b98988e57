/*
 * The console: before each run Vdbench's "Starting RD=" line and the
 * column header, one line per merged interval (or, for a format pass on a
 * terminal, one progress line redrawn), a run's avg_ line and totals, and
 * at the end the slaves that were lost. `lockstep vdbench` prints
 * Vdbench's columns only. The rules the lines keep are HCIBench's and
 * Vdbench's readers' (docs/DESIGN.md section 6).
 */
#include <math.h>
#include <stdio.h>
#include "common/log.h"
#include "common/timeutil.h"
#include "master/run/master_int.h"
#include "master/run/progress.h"
#include "master/results/fmt.h"
#include "master/results/fsfmt.h"
#include "master/results/sink.h"

static void console_phase_start(const struct run_view *rv, void *priv,
				const struct sink_phase *p)
{
	int col = 0;

	(void)priv;
	printf("%s %s\n", p->tod, p->line);
	log_debug("%s", p->line);
	if (rv->ph->cur->fsops) {
		fsfmt_console_header(stdout, p->now, rv->ph->cur->fsops,
				     !rv->opt->vdbench_console);
		return;
	}
	if (rv->opt->vdbench_console) {
		fmt_vdbench_header(stdout, p->now);
		return;
	}
	for (size_t i = 0; i < rv->out->nsinks; i++)
		if (rv->out->sinks[i].ops->console_column)
			col |= rv->out->sinks[i]
				       .ops
				       ->console_column(rv,
							rv->out->sinks[i].priv);
	fmt_console_header(stdout, p->now, col);
}

/*
 * A long phase on a terminal: the interval lines scroll as usual and one
 * more line under them, erased before the next one, says how far the run
 * is and when it ends.
 */
static void long_progress(const struct run_view *rv, const struct run_result *r,
			  unsigned seq)
{
	char line[PLAN_NAME_MAX + 64];
	double done = (double)(seq + 1) * r->ph.interval_s;

	progress_line(r->ph.name, done, r->ph.warmup_s + r->ph.elapsed_s, done,
		      line, sizeof(line));
	printf("%s", line);
	fflush(stdout);
	rv->out->progress_shown = 1;
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

static void console_row(const struct run_view *rv, void *priv,
			const struct sink_row *s)
{
	struct run_result *r = rv->ph->cur;
	const struct merge_row *row = s->row;
	FILE *f = results_stdout(rv);

	(void)priv;
	if (r->ph.kind == PLAN_FORMAT && rv->out->tty) {
		format_progress(r, &s->v, row->seq);
		return;
	}
	if (s->fs)
		fsfmt_console_row(f, row->end_ns, s->label, s->fs, &s->v,
				  r->fsops, !rv->opt->vdbench_console,
				  row->reported, row->expected);
	else if (rv->opt->vdbench_console)
		fmt_vdbench_row(f, row->end_ns, s->label, &s->v, 0);
	else
		fmt_console_row(f, row->end_ns, s->label, &s->v, row->reported,
				row->expected, s->count);
	if (progress_wanted(&r->ph, rv->out->tty))
		long_progress(rv, r, row->seq);
}

double sink_run_rate(const struct run_result *r)
{
	return r->fs ? r->fs->req_rate : r->view.iops;
}

/*
 * iorate= not reached: by how much, and what the sinks that know more
 * (the events: how much of it the slaves they took away explain) add.
 */
static void iorate_missed(const struct run_view *rv, const struct run_result *r)
{
	double rate = sink_run_rate(r);

	printf("%s=%g not reached: %.1f %s, %.1f%% short",
	       r->fs ? "fwdrate" : "iorate", r->ph.iorate, rate,
	       r->fs ? "ops/s" : "IO/s",
	       decide_shortfall_pct(r->ph.iorate, rate));
	for (size_t i = 0; i < rv->out->nsinks; i++)
		if (rv->out->sinks[i].ops->shortfall)
			rv->out->sinks[i].ops->shortfall(rv,
							 rv->out->sinks[i].priv,
							 r, stdout);
	printf("\n");
}

static void console_run_end(const struct run_view *rv, void *priv,
			    const struct sink_run_end *e)
{
	const struct run_result *r = e->r;
	const struct stats_view *v = &r->view;
	FILE *f;

	(void)priv;
	if (!e->totals)
		return;
	f = results_stdout(rv);
	if (r->ph.kind == PLAN_FORMAT && rv->out->tty)
		printf("\n");
	if (r->fs)
		fsfmt_console_row(f, time_real_ns(), e->label, r->fs, v,
				  r->fsops, 0, 0, 0);
	else if (rv->opt->vdbench_console)
		fmt_vdbench_row(f, time_real_ns(), e->label, v, 1);
	else
		fmt_console_avg(f, time_real_ns(), e->label, v);
	if (r->ph.kind == PLAN_FORMAT) {
		double d = (double)r->duration_ns / 1e9;

		printf("%s %s: %.1f MiB %s in %.2f s, %.1f MB/s\n\n",
		       r->ph.verify ? "validate" : "format", r->ph.name,
		       (double)v->bytes / 1048576.0,
		       r->ph.verify ? "read and verified" : "written", d,
		       d > 0 ? (double)v->bytes / 1048576.0 / d : 0);
		return;
	}
	printf("\nRun %s: start skew %.3f ms \u00b1 %.3f ms over %u slaves\n",
	       r->ph.name, (double)r->start_skew_ns / 1e6,
	       (double)r->start_skew_bound_ns / 1e6,
	       roster_live_count(rv->roster));
	if (decide_iorate_missed(r->ph.iorate, sink_run_rate(r)))
		iorate_missed(rv, r);
	fmt_hcibench(stdout, v);
	printf("\n");
}

void results_report_lost(const struct run_view *rv, FILE *f)
{
	for (unsigned i = 0; i < rv->roster->nslaves; i++) {
		struct slave_rec *s = &rv->roster->slaves[i];
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
				rv->ph->runs[l->rejoin_run].ph.name,
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

static void console_end(const struct run_view *rv, void *priv)
{
	(void)priv;
	results_report_lost(rv, results_stdout(rv));
	fflush(stdout);
}

const struct sink_ops sink_console = {
	.name = "console",
	.phase_start = console_phase_start,
	.row = console_row,
	.run_end = console_run_end,
	.end = console_end,
};
