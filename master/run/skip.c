/*
 * Whether the conductor runs a phase of the list, and at what rate: a
 * curve point at its share of its curve-max phase's measured rate (a
 * file-system curve's: its requested operations' rate), unless
 * that phase failed or a point before it passed stopcurve=; an slo step at
 * the rate its search picks from the runs before it, until the search is
 * over (slosteps.h). The decisions are decide.c's and slosteps.c's.
 */
#include "common/log.h"
#include "master/run/master_int.h"
#include "master/run/slosteps.h"

/*
 * An slo step runs at the rate its search picks from the runs before it,
 * and is skipped once the search is done (slosteps.h).
 */
static int slo_skip(struct master *m, struct run_result *r)
{
	struct slo_search s;

	slosteps_search(m->params, m->ph.runs, r->ph.curve_max,
			(size_t)(r - m->ph.runs), &s);
	if (s.end == SLO_GOING) {
		r->ph.iorate = s.next;
		return 0;
	}
	log_info("%s skipped: the SLO search is over", r->ph.name);
	r->skipped = 1;
	return 1;
}

double run_curve_rate(const struct run_result *r)
{
	return r->fs ? r->fs->req_rate : r->view.iops;
}

double run_curve_resp_ms(const struct run_result *r)
{
	return r->fs ? r->fs->req_resp_ms : r->view.resp_ms;
}

int skip_run(struct master *m, struct run_result *r)
{
	if (r->ph.kind == PLAN_CURVE_POINT) {
		struct run_result *max = &m->ph.runs[r->ph.curve_max];
		const char *why;

		r->ph.iorate = plan_curve_rate(run_curve_rate(max),
					       r->ph.curve_pct);
		if (decide_curve_skip(max->done, max->curve_stopped,
				      r->ph.iorate, &why)) {
			log_info("%s skipped: %s", r->ph.name, why);
			r->skipped = 1;
			return 1;
		}
	}
	return r->ph.kind == PLAN_SLO_STEP && slo_skip(m, r);
}
