/*
 * maxdata= (Vdbench's rule, CollectSlaveStats.checkMaxData): after each
 * measured interval the cluster's bytes read and written so far are
 * compared with the rd's maxdata= (up to 100: that many times the summed
 * size of the sds the run uses); once they pass it the phase ends with the
 * next interval, as Vdbench shuts a run down "after next interval". The
 * cut moves the phase's end the way a steady warmup moves its window: the
 * merge, every slave's plan and the run's intervals, and the conductor
 * sends the measure message that moves the slaves' end.
 */
#include <stdio.h>
#include "master/run/master_int.h"
#include "master/results/sink.h"

int maxdata_row(struct master *m, const struct merge_row *row)
{
	struct run_result *r = m->ph.cur;
	unsigned cut;
	FILE *f;

	if (!r || r->maxdata_cut || row->warmup)
		return 0;
	if (!r->maxdata_limit)
		r->maxdata_limit = plan_maxdata_bytes(m->params, &r->ph);
	if (!r->maxdata_limit)
		return 0;
	r->maxdata_bytes += row->stats->bytes[0] + row->stats->bytes[1];
	if (r->maxdata_bytes <= r->maxdata_limit)
		return 0;
	/* The next interval, and no earlier than one a slave is in. */
	cut = row->seq + 2;
	if (cut < merge_reported_rows(m->ph.merge) + 1)
		cut = merge_reported_rows(m->ph.merge) + 1;
	if (cut >= r->ph.intervals)
		return 0; /* it ends then anyway */
	merge_truncate(m->ph.merge, cut);
	for (unsigned i = 0; i < m->roster.nslaves; i++)
		if (m->roster.slaves[i].pplan.intervals > cut)
			m->roster.slaves[i].pplan.intervals = cut;
	r->ph.intervals = cut;
	r->maxdata_cut = cut;
	if (!m->opt->vdbench_console) {
		f = results_stdout(&m->view);
		fprintf(f,
			"Run %s: reached maxdata=%llu bytes after interval %u (%llu bytes measured): the phase ends after interval %u\n",
			r->ph.name, (unsigned long long)r->maxdata_limit,
			row->seq + 1, (unsigned long long)r->maxdata_bytes,
			cut);
		fflush(f);
	}
	return 1;
}
