/*
 * Pure decisions of the phase conductor (see decide.h): when go is sent
 * again, when a seekpct=eof phase ends early, the start skew, curve points
 * skipped and stopped, how far a run fell short of its iorate, the time a
 * run's totals cover, the room its results need, the exit code from
 * what the run recorded, and the slaves' master timeout.
 */
#include "master/run/decide.h"
#include "common/exitcode.h"
#include "common/timeutil.h"
#include <string.h>

enum decide_go decide_go(const struct decide_slave *s, uint64_t now,
			 uint64_t resend_ns)
{
	if (!s->in_phase || s->go_acked || !s->joined)
		return DECIDE_GO_DONE;
	if (now - s->last_tx >= resend_ns)
		return DECIDE_GO_RESEND;
	return DECIDE_GO_WAIT;
}

unsigned decide_eof_truncate(const struct decide_slave *s, size_t n,
			     unsigned planned, unsigned merged)
{
	unsigned longest = 0;

	for (size_t i = 0; i < n; i++) {
		if (!s[i].in_phase || !s[i].joined)
			continue;
		if (!s[i].ended || s[i].end_intervals >= planned)
			return 0;
		if (s[i].end_intervals > longest)
			longest = s[i].end_intervals;
	}
	return longest && longest < merged ? longest : 0;
}

uint64_t decide_start_skew(const struct decide_slave *s, size_t n)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t f = s[i].first_io;

		if (!s[i].in_phase || !f)
			continue;
		lo = f < lo ? f : lo;
		hi = f > hi ? f : hi;
	}
	return hi >= lo ? hi - lo : 0;
}

uint64_t decide_start_skew_bound(const struct decide_slave *s, size_t n)
{
	size_t lo = n, hi = n;

	for (size_t i = 0; i < n; i++) {
		if (!s[i].in_phase || !s[i].first_io)
			continue;
		if (lo == n || s[i].first_io < s[lo].first_io)
			lo = i;
		if (hi == n || s[i].first_io > s[hi].first_io)
			hi = i;
	}
	/* One slave's first I/O against itself needs no clock. */
	if (lo == hi)
		return 0;
	if (s[lo].clock_error > UINT64_MAX - s[hi].clock_error)
		return UINT64_MAX;
	return s[lo].clock_error + s[hi].clock_error;
}

enum decide_ping_do decide_ping(const struct decide_ping *p, uint64_t now,
				uint64_t gap, uint64_t timeout)
{
	uint64_t since = now - p->sent_at;

	if (p->sent && !p->answered && since < timeout)
		return DECIDE_PING_WAIT;
	if (p->sent >= p->want)
		return DECIDE_PING_DONE;
	if (p->sent && since < gap)
		return DECIDE_PING_WAIT;
	return DECIDE_PING_SEND;
}

int decide_curve_skip(int max_done, int max_stopped, double rate,
		      const char **why)
{
	if (!max_stopped && max_done && !(rate <= 0))
		return 0;
	*why = max_stopped ? "stopcurve= was reached" :
			     "its curve-max phase has no rate";
	return 1;
}

int decide_curve_stop(double stopcurve_ms, double resp_ms)
{
	return stopcurve_ms > 0 && resp_ms > stopcurve_ms;
}

uint64_t decide_master_timeout(uint64_t slave_timeout_ns)
{
	uint64_t least = 10 * NS_PER_SEC;

	if (slave_timeout_ns > UINT64_MAX / 4)
		return UINT64_MAX;
	if (4 * slave_timeout_ns < least + 2 * NS_PER_SEC)
		return least;
	return 4 * slave_timeout_ns - 2 * NS_PER_SEC;
}

double decide_shortfall_pct(double iorate, double iops)
{
	if (iorate <= 0 || iops >= iorate)
		return 0;
	return 100.0 * (iorate - iops) / iorate;
}

int decide_iorate_missed(double iorate, double iops)
{
	return iorate > 0 && iops < 0.98 * iorate;
}

double decide_measured_s(unsigned intervals, unsigned warmup_intervals,
			 double interval_s)
{
	if (warmup_intervals >= intervals)
		return 0;
	return (double)(intervals - warmup_intervals) * interval_s;
}

unsigned decide_run_intervals(unsigned planned, unsigned reported, int cut)
{
	return cut && reported < planned ? reported : planned;
}

uint64_t decide_results_bytes(uint64_t intervals, unsigned runs,
			      unsigned nslaves, unsigned nevents)
{
	uint64_t rows = intervals * ((uint64_t)nslaves + 1);
	uint64_t b = rows * DECIDE_ROW_BYTES + intervals * DECIDE_MAP_BYTES +
		     (uint64_t)runs * DECIDE_HGRM_BYTES +
		     2 * (uint64_t)runs * (nslaves + 1) * DECIDE_TOTALS_BYTES;

	return b + b / 2 + DECIDE_LOG_BYTES +
	       (uint64_t)nevents * DECIDE_EVENT_LOG_BYTES;
}

const char *decide_end_lat_mismatch(int ended,
				    const struct hist_sparse *end_lat,
				    const struct stats_sums *st)
{
	if (!ended)
		return "it did not end the phase (lost, or the run stopped first)";
	for (int d = 0; d < 2; d++) {
		const struct hist_sparse *h = &end_lat[d];
		const struct stats_lat_sums *l = &st->lat[d];

		if (h->count != l->count || h->sum != l->sum ||
		    (h->count && (h->min != l->min || h->max != l->max)))
			return "its own totals differ from the intervals the master received";
	}
	return NULL;
}

int decide_exit(const struct run_facts *f)
{
	if (f->unsealed)
		return LS_EXIT_INCOMPLETE;
	if (f->end == RUN_INTERRUPTED || f->end == RUN_CANCELED)
		return LS_EXIT_ABORTED;
	if (f->end == RUN_FAILED)
		return LS_EXIT_BAD_INPUT;
	if (f->results_incomplete || f->report_failed)
		return LS_EXIT_INCOMPLETE;
	if (f->slaves_lost || f->suspect || f->io_errors || f->mismatches ||
	    f->events_failed || (f->left_out > 0 && f->end == RUN_RAN))
		return LS_EXIT_DEGRADED;
	if (f->compare == COMPARE_REGRESSION)
		return LS_EXIT_REGRESSION;
	if (f->compare == COMPARE_NO_BASELINE)
		return LS_EXIT_NO_BASELINE;
	return LS_EXIT_OK;
}

unsigned decide_cmd_slaves(const int *joined, const int *hd,
			   const char *const *host, unsigned n, unsigned *pick)
{
	unsigned k = 0;

	for (unsigned i = 0; i < n; i++) {
		unsigned j = 0;

		if (!joined[i])
			continue;
		while (j < k &&
		       !(hd[pick[j]] == hd[i] &&
			 (hd[i] >= 0 || !strcmp(host[pick[j]], host[i]))))
			j++;
		if (j == k)
			pick[k++] = i;
	}
	return k;
}
