/*
 * summary.json: every slave, every run with its totals and each slave's,
 * the result files that could not be written in full, and the keys other
 * sinks add (their summary_json hook: "export", "events"); written last
 * at the end, atomically (a temporary file, fsynced, renamed into place,
 * so a summary that is there is whole), and again after a verdict.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "common/exitcode.h"
#include "common/log.h"
#include "common/timeutil.h"
#include "common/jsonw.h"
#include "master/run/master_int.h"
#include "master/results/fsfmt.h"
#include "master/results/sink.h"
#include "lockstep_version.h"

static void json_totals(struct jsonw *w, const char *key,
			const struct stats_view *v)
{
	jsonw_object(w, key);
	jsonw_u64(w, "ops", v->ops);
	jsonw_u64(w, "read_ops", v->read_ops);
	jsonw_u64(w, "write_ops", v->write_ops);
	jsonw_u64(w, "bytes", v->bytes);
	jsonw_u64(w, "read_bytes", v->read_bytes);
	jsonw_u64(w, "write_bytes", v->write_bytes);
	jsonw_u64(w, "errors", v->errors);
	jsonw_dbl(w, "iops", v->iops);
	jsonw_dbl(w, "mbps", v->mbps);
	jsonw_dbl(w, "read_pct", v->read_pct);
	jsonw_dbl(w, "lat_mean_ms", v->resp_ms);
	jsonw_dbl(w, "read_lat_mean_ms", v->read_resp_ms);
	jsonw_dbl(w, "write_lat_mean_ms", v->write_resp_ms);
	jsonw_dbl(w, "lat_max_ms", v->resp_max_ms);
	jsonw_dbl(w, "lat_stddev_ms", v->resp_stddev_ms);
	jsonw_dbl(w, "lat_p50_ms", v->p50_ms);
	jsonw_dbl(w, "lat_p95_ms", v->p95_ms);
	jsonw_dbl(w, "lat_p99_ms", v->p99_ms);
	jsonw_dbl(w, "lat_p999_ms", v->p999_ms);
	jsonw_dbl(w, "queue_depth", v->queue_depth);
	jsonw_dbl(w, "cpu_pct", v->cpu_pct);
	jsonw_dbl(w, "cpu_sys_pct", v->cpu_sys_pct);
	jsonw_end(w);
}

/*
 * A slave's losses, each with when it was back and when it took part
 * again (the start of its first interval back: rejoined_ns, with the run
 * and its interval as intervals.csv numbers it).
 */
static void loss_records(const struct run_view *rv, const struct slave_rec *s,
			 struct jsonw *w)
{
	char iso[40];

	if (!s->nlossrec)
		return;
	jsonw_array(w, "loss_records");
	for (unsigned k = 0; k < s->nlossrec; k++) {
		const struct slave_loss *l = &s->lossrec[k];

		jsonw_object(w, NULL);
		jsonw_str(w, "lost_at",
			  time_fmt_iso(l->lost_real, iso, sizeof(iso)));
		jsonw_u64(w, "lost_ns", l->lost_real);
		if (l->back_real) {
			jsonw_str(w, "back_at",
				  time_fmt_iso(l->back_real, iso, sizeof(iso)));
			jsonw_u64(w, "back_ns", l->back_real);
		}
		if (l->rejoin_real && l->rejoin_run >= 0 &&
		    (size_t)l->rejoin_run < rv->ph->nruns) {
			jsonw_str(w, "rejoined_at",
				  time_fmt_iso(l->rejoin_real, iso,
					       sizeof(iso)));
			jsonw_u64(w, "rejoined_ns", l->rejoin_real);
			jsonw_str(w, "rejoined_run",
				  rv->ph->runs[l->rejoin_run].ph.name);
			jsonw_u64(w, "rejoined_interval", l->rejoin_seq + 1);
		}
		jsonw_end(w);
	}
	jsonw_end(w);
}

/* "forced": what force=yes let slaves overwrite. */
static void summary_forced(const struct run_view *rv, struct jsonw *w)
{
	jsonw_array(w, "forced");
	for (unsigned i = 0; i < rv->out->nforced; i++) {
		jsonw_object(w, NULL);
		jsonw_str(w, "slave", rv->out->forced[i].slave);
		jsonw_str(w, "sd", rv->out->forced[i].sd);
		jsonw_str(w, "lun", rv->out->forced[i].lun);
		jsonw_str(w, "signature", rv->out->forced[i].signature);
		jsonw_end(w);
	}
	jsonw_end(w);
}

int results_summary_json(const struct run_view *rv)
{
	char iso[40], host[256] = "";
	struct rfile out;
	struct jsonw w;
	FILE *f;
	int ret;

	ret = results_atomic_open(rv, "summary.json", &out);
	if (ret < 0)
		return ret;
	f = results_w(&out);
	jsonw_init(&w, f);
	jsonw_object(&w, NULL);
	jsonw_str(&w, "version", LOCKSTEP_VERSION);
	jsonw_str(&w, "run_id", rv->run_id);
	jsonw_str(&w, "status", results_status_name(decide_exit(rv->fact)));
	if (results_validation_nothing(rv))
		jsonw_str(&w, "validation_warning",
			  "validate=yes, but no read verified a block");
	jsonw_i64(&w, "exit_code", decide_exit(rv->fact));
	/* The --baseline verdict, as printed (master/history). */
	if (*rv->fact->verdict)
		jsonw_str(&w, "verdict", rv->fact->verdict);
	jsonw_str(&w, "param_file", rv->opt->param_path);
	/* What a later compare must know changed (master/history). */
	jsonw_str(&w, "engine", rv->opt->engine);
	if (gethostname(host, sizeof(host) - 1) == 0)
		jsonw_str(&w, "host", host);
	/* Who could speak to this master: CURVE keys, or anyone. */
	jsonw_str(&w, "authentication", rv->link->curve ? "curve" : "none");
	jsonw_bool(&w, "insecure", rv->opt->insecure);
	jsonw_str(&w, "started",
		  time_fmt_iso(rv->started_real, iso, sizeof(iso)));
	jsonw_str(&w, "ended", time_fmt_iso(time_real_ns(), iso, sizeof(iso)));
	/* Files of this folder that are not whole (see results.c). */
	jsonw_array(&w, "incomplete_files");
	for (size_t i = 0; i < rv->out->nincomplete; i++)
		jsonw_str(&w, NULL, rv->out->incomplete[i]);
	jsonw_end(&w);
	jsonw_array(&w, "slaves");
	for (unsigned i = 0; i < rv->roster->nslaves; i++) {
		struct slave_rec *s = &rv->roster->slaves[i];

		jsonw_object(&w, NULL);
		jsonw_str(&w, "id", s->hello.id);
		jsonw_str(&w, "host", s->hello.host);
		jsonw_str(&w, "name", s->hello.name);
		jsonw_str(&w, "state",
			  s->state == SLAVE_LOST ? "lost" :
			  s->suspect             ? "suspect" :
						   "finished");
		jsonw_u64(&w, "rejected_intervals", s->rejected);
		jsonw_u64(&w, "invalid_frames", s->invalid);
		jsonw_u64(&w, "pid", s->hello.pid);
		jsonw_u64(&w, "cores", s->hello.cores);
		jsonw_i64(&w, "clock_offset_ns", s->clk.offset_ns);
		jsonw_u64(&w, "clock_error_ns", s->clk.error_ns);
		jsonw_str(&w, "clock_source",
			  s->clock_udp ? "datagrams" : "pings");
		jsonw_u64(&w, "losses", s->losses);
		jsonw_str(&w, "last_heard",
			  time_fmt_iso(s->last_heard_real, iso, sizeof(iso)));
		if (s->losses)
			jsonw_str(&w, "lost_at",
				  time_fmt_iso(s->lost_real, iso, sizeof(iso)));
		if (s->losses && s->back_real > s->lost_real)
			jsonw_str(&w, "back_at",
				  time_fmt_iso(s->back_real, iso, sizeof(iso)));
		if (s->nlossrec && s->lossrec[s->nlossrec - 1].rejoin_real)
			jsonw_str(&w, "rejoined_at",
				  time_fmt_iso(s->lossrec[s->nlossrec - 1]
						       .rejoin_real,
					       iso, sizeof(iso)));
		if (s->losses && s->loss_expected)
			jsonw_str(&w, "loss_expected_by", s->loss_expected);
		loss_records(rv, s, &w);
		jsonw_end(&w);
	}
	jsonw_end(&w);
	summary_forced(rv, &w);
	for (size_t i = 0; i < rv->out->nsinks; i++)
		if (rv->out->sinks[i].ops->summary_json)
			rv->out->sinks[i]
				.ops->summary_json(rv, rv->out->sinks[i].priv,
						   &w);
	jsonw_array(&w, "runs");
	for (size_t i = 0; i < rv->ph->nruns; i++) {
		struct run_result *r = &rv->ph->runs[i];

		if (!r->done)
			continue;
		jsonw_object(&w, NULL);
		jsonw_str(&w, "name", r->ph.name);
		jsonw_str(&w, "kind", plan_kind_name(r->ph.kind));
		jsonw_dbl(&w, "duration_s", (double)r->duration_ns / 1e9);
		if (r->ph.kind == PLAN_FORMAT)
			jsonw_dbl(&w, "format_mbps",
				  r->duration_ns ?
					  (double)r->view.write_bytes /
						  1048576.0 /
						  ((double)r->duration_ns /
						   1e9) :
					  0);
		if (r->ph.kind == PLAN_CURVE_POINT)
			jsonw_dbl(&w, "curve_pct", r->ph.curve_pct);
		if (r->ph.kind == PLAN_SLO_STEP)
			jsonw_u64(&w, "slo_step", r->ph.slo_step);
		jsonw_dbl(&w, "elapsed_s", r->ph.elapsed_s);
		jsonw_dbl(&w, "warmup_s", r->ph.warmup_s);
		jsonw_dbl(&w, "interval_s", r->ph.interval_s);
		jsonw_u64(&w, "intervals", r->ph.intervals);
		jsonw_u64(&w, "warmup_intervals", r->ph.warmup_intervals);
		jsonw_dbl(&w, "iorate", r->ph.iorate);
		if (r->ph.iorate > 0)
			jsonw_dbl(&w, "iorate_shortfall_pct",
				  decide_shortfall_pct(r->ph.iorate,
						       sink_run_rate(r)));
		jsonw_u64(&w, "start_ns", r->start_at);
		jsonw_u64(&w, "start_skew_ns", r->start_skew_ns);
		jsonw_u64(&w, "start_skew_bound_ns", r->start_skew_bound_ns);
		json_totals(&w, "totals", &r->view);
		jsonw_object(&w, "files");
		if (r->hgrm_written) {
			char hgrm[RUNFILE_MAX + 8];

			snprintf(hgrm, sizeof(hgrm), "%s.hgrm", r->file);
			jsonw_str(&w, "hgrm", hgrm);
		}
		jsonw_end(&w);
		results_validation_json(rv, r, &w, r->val, 1);
		for (size_t k = 0; k < rv->out->nsinks; k++)
			if (rv->out->sinks[k].ops->run_json)
				rv->out->sinks[k]
					.ops->run_json(rv,
						       rv->out->sinks[k].priv,
						       r, &w);
		jsonw_array(&w, "per_slave");
		for (unsigned k = 0; k < r->nslave; k++) {
			if (!r->slave[k].ran)
				continue;
			jsonw_object(&w, NULL);
			jsonw_str(&w, "slave",
				  rv->roster->slaves[k].hello.name);
			jsonw_u64(&w, "first_io_ns", r->slave[k].first_io_ns);
			jsonw_i64(&w, "clock_offset_ns",
				  r->slave[k].clock_offset_ns);
			jsonw_u64(&w, "clock_error_ns",
				  r->slave[k].clock_error_ns);
			json_totals(&w, "totals", &r->slave[k].v);
			if (r->fs && r->slave[k].has_fs)
				fsfmt_slave_json(&w, r->slave[k].fs,
						 &r->slave[k].v, r->fs,
						 r->fsops,
						 decide_measured_s(r->ph.intervals,
								   r->ph.warmup_intervals,
								   r->ph.interval_s));
			results_validation_json(rv, r, &w, r->slave[k].val, 0);
			if (r->slave[k].no_pct)
				jsonw_str(&w, "percentiles_unknown",
					  r->slave[k].no_pct);
			jsonw_end(&w);
		}
		jsonw_end(&w);
		jsonw_end(&w);
	}
	jsonw_end(&w);
	jsonw_end(&w);
	jsonw_finish(&w);
	return results_atomic_commit(rv, &out, "summary.json");
}

/* Written last: a summary.json that cannot be written is said on stderr. */
static int summary_json_write(const struct run_view *rv, void *priv)
{
	(void)priv;
	if (results_summary_json(rv) == 0)
		return 0;
	results_exit_incomplete(rv);
	fprintf(stderr,
		"lockstep: run %s %s (exit %d), and summary.json could not be written\n",
		rv->run_id, results_status_name(decide_exit(rv->fact)),
		decide_exit(rv->fact));
	return -EIO;
}

const struct sink_ops sink_summary_json = {
	.name = "summary.json",
	.write = summary_json_write,
};
