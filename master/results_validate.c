/*
 * Data validation in the results: what the slaves' phase_end messages say
 * about validation (4 KiB blocks written under validation, blocks read
 * and verified, mismatches), summed per run and per slave, printed after
 * each run, kept in summary.json, and the warning when validate=yes
 * verified nothing at all, so that a user can see validation happened.
 */
#include <stdio.h>
#include "common/exitcode.h"
#include "common/log.h"
#include "master/jsonw.h"
#include "master/master_int.h"

static int validated(const struct master *m, const struct run_result *r)
{
	return m->params->validate || r->ph.verify;
}

void results_validation_add(struct run_result *r, const uint64_t val[3])
{
	for (int k = 0; k < 3; k++)
		r->val[k] += val[k];
}

void results_validation_run(struct master *m, const struct run_result *r)
{
	if (!validated(m, r))
		return;
	printf("validation %s: %llu blocks written, %llu verified, %llu mismatches\n\n",
	       r->ph.name, (unsigned long long)r->val[0],
	       (unsigned long long)r->val[1], (unsigned long long)r->val[2]);
	if (!r->val[2])
		return;
	log_error("run %s: data validation found %llu mismatches (lockstep.log has the first ones in full)",
		  r->ph.name, (unsigned long long)r->val[2]);
	/* Mismatches in warmup intervals count too: the data is wrong. */
	if (m->exit_code == LS_EXIT_OK)
		m->exit_code = LS_EXIT_DEGRADED;
}

void results_validation_json(const struct master *m, const struct run_result *r,
			     struct jsonw *w, const uint64_t val[3])
{
	if (!validated(m, r))
		return;
	jsonw_object(w, "validation");
	jsonw_str(w, "mode", r->ph.verify ? "only" : "yes");
	jsonw_u64(w, "blocks_written", val[0]);
	jsonw_u64(w, "blocks_verified", val[1]);
	jsonw_u64(w, "mismatches", val[2]);
	jsonw_end(w);
}

int results_validation_nothing(const struct master *m)
{
	uint64_t verified = 0;

	if (!m->params->validate)
		return 0;
	for (size_t i = 0; i < m->nruns; i++)
		verified += m->runs[i].done ? m->runs[i].val[1] : 0;
	return verified == 0;
}

void results_validation_finish(struct master *m)
{
	if (results_validation_nothing(m))
		log_warn(
			"validate=yes, but no read verified a block: no phase read blocks written under validation (add reads, or an rd with validate=only)");
}
