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
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/log.h"
#include "master/run/master_int.h"
#include "master/results/sink.h"

int maxdata_phase_start(struct master *m)
{
	size_t n = m->params->nsd ? m->params->nsd : 1;

	free(m->ph.sd_bytes);
	m->ph.sd_bytes = calloc(n, sizeof(*m->ph.sd_bytes));
	return m->ph.sd_bytes ? 0 : -ENOMEM;
}

void maxdata_ready(struct master *m, const struct slave_rec *s,
		   const struct proto_ready *r)
{
	const struct params *p = m->params;
	char esc[LOG_ESC_LEN(PROTO_NAME_LEN)];

	for (uint32_t i = 0; m->ph.sd_bytes && i < r->nsizes; i++) {
		const struct proto_tsize *z = &r->sizes[i];
		unsigned k = 0, sd = 0;
		uint64_t *have;

		while (k < s->nplan_sd &&
		       strcmp(p->sd[s->plan_sd[k]].name, z->sd))
			k++;
		if (k == s->nplan_sd) {
			log_limited("ready size", LOG_WARN,
				    "slave %s reports the size of sd %s, which is not in its plan: ignored",
				    s->hello.name,
				    log_escape(z->sd, esc, sizeof(esc)));
			continue;
		}
		sd = s->plan_sd[k];
		if (p->sd[sd].size && z->size != p->sd[sd].size) {
			log_limited("ready size", LOG_WARN,
				    "slave %s reports %llu bytes for sd %s, whose size= is %llu: ignored",
				    s->hello.name, (unsigned long long)z->size,
				    z->sd, (unsigned long long)p->sd[sd].size);
			continue;
		}
		have = &m->ph.sd_bytes[sd];
		if (*have && *have != z->size)
			log_info("sd %s: slave %s has %llu bytes, another %llu: maxdata= counts the smaller",
				 z->sd, s->hello.name,
				 (unsigned long long)z->size,
				 (unsigned long long)*have);
		if (!*have || z->size < *have)
			*have = z->size;
	}
}

/* The run's limit in bytes, saying once what it counts without a size. */
static uint64_t limit_of(struct master *m, const struct run_result *r)
{
	unsigned unsized = 0;
	uint64_t limit = plan_maxdata_bytes(m->params, &r->ph, m->ph.sd_bytes,
					    &unsized);

	if (unsized)
		log_warn("run %s: maxdata=%g times the sds' size counts %u sd(s) whose size no slave reported as 0 bytes",
			 r->ph.name, m->params->rd[r->ph.rd].maxdata, unsized);
	return limit;
}

int maxdata_row(struct master *m, const struct merge_row *row)
{
	struct run_result *r = m->ph.cur;
	unsigned cut;
	FILE *f;

	if (!r || r->maxdata_cut || row->warmup)
		return 0;
	if (!r->maxdata_limit)
		r->maxdata_limit = limit_of(m, r);
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
