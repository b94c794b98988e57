/*
 * Data validation in the results: what the slaves' phase_end messages say
 * about validation (4 KiB blocks written under validation, blocks read
 * and verified, mismatches), summed per run, per sd and per slave, after
 * checking that each sd a slave names is one of its plan's, printed after
 * each run, kept in summary.json, and the warning when validate=yes
 * verified nothing at all, so that a user can see validation happened.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/exitcode.h"
#include "common/log.h"
#include "common/jsonw.h"
#include "master/run/master_int.h"
#include "master/results/sink.h"

static int validated(const struct run_view *rv, const struct run_result *r)
{
	return rv->params->validate || r->ph.verify;
}

/*
 * A file-system plan: a slave's validation counts are per fsd of its plan
 * (slave/fsval.h), each an sd row after the sds' (params.nsd + its
 * index in params.fsd), which no sd-only consumer takes for an sd.
 */
static int fsd_plan(const struct params *p, const struct proto_plan *plan,
		    unsigned **sd, unsigned **thr, unsigned *nsd)
{
	*sd = calloc(2 * (size_t)plan->nfsds, sizeof(**sd));
	if (!*sd)
		return -ENOMEM;
	*thr = *sd + plan->nfsds;
	for (uint32_t f = 0; f < plan->nfsds; f++) {
		size_t i = 0;

		while (i < p->nfsd &&
		       strcmp(p->fsd[i].name, plan->fsds[f].name))
			i++;
		assert(i < p->nfsd);
		(*sd)[f] = (unsigned)(p->nsd + i);
	}
	*nsd = plan->nfsds;
	return 0;
}

/* Row i's name: an sd's, else (after them) an fsd's. */
static const char *row_name(const struct params *p, size_t i)
{
	return i < p->nsd ? p->sd[i].name : p->fsd[i - p->nsd].name;
}

int results_validation_plan(const struct params *p,
			    const struct proto_plan *plan, unsigned **sd,
			    unsigned **thr, unsigned *nsd)
{
	*sd = NULL;
	*thr = NULL;
	*nsd = 0;
	if (!plan->ntargets && plan->nfsds && plan->validate)
		return fsd_plan(p, plan, sd, thr, nsd);
	if (!plan->ntargets)
		return 0;
	*sd = malloc(sizeof(**sd) * 2 * plan->ntargets);
	if (!*sd)
		return -ENOMEM;
	*thr = *sd + plan->ntargets;
	for (uint32_t t = 0; t < plan->ntargets; t++) {
		size_t i = 0;

		/* Every target is an sd by its name (plan_slave.c). */
		while (i < p->nsd &&
		       strcmp(p->sd[i].name, plan->targets[t].name))
			i++;
		assert(i < p->nsd);
		(*sd)[t] = (unsigned)i;
		(*thr)[t] = plan->targets[t].threads;
	}
	*nsd = plan->ntargets;
	return 0;
}

int results_validation_end(const struct run_view *rv, struct run_result *r,
			   struct slave_rec *s,
			   const struct proto_phase_end *pe, char *why,
			   size_t whylen)
{
	for (uint32_t i = 0; i < pe->nval_sds; i++)
		if (pe->val_sds[i].target >= s->nplan_sd) {
			snprintf(why, whylen,
				 "validation counts for target %u, but its plan has %u",
				 pe->val_sds[i].target, s->nplan_sd);
			return -EINVAL;
		}
	/* Each sd's row is at most the totals: they cannot wrap either. */
	for (int k = 0; r && k < 3; k++) {
		const uint64_t add[3] = { pe->val_written, pe->val_verified,
					  pe->val_mismatches };
		uint64_t sum;

		if (__builtin_add_overflow(r->val[k], add[k], &sum)) {
			snprintf(why, whylen,
				 "validation counts overflow the run's");
			return -EINVAL;
		}
	}
	if (r && pe->nval_sds && !r->val_sd) {
		r->val_sd = calloc(rv->params->nsd + rv->params->nfsd,
				   sizeof(*r->val_sd));
		if (!r->val_sd) {
			snprintf(why, whylen, "out of memory");
			return -ENOMEM;
		}
	}
	s->end_val[0] = pe->val_written;
	s->end_val[1] = pe->val_verified;
	s->end_val[2] = pe->val_mismatches;
	if (!r)
		return 0;
	for (int k = 0; k < 3; k++)
		r->val[k] += s->end_val[k];
	for (uint32_t i = 0; i < pe->nval_sds; i++) {
		const struct proto_val_sd *v = &pe->val_sds[i];
		uint64_t *row = r->val_sd[s->plan_sd[v->target]];

		row[0] += v->written;
		row[1] += v->verified;
		row[2] += v->mismatches;
		row[3]++;
	}
	return 0;
}

/* The sink: r's line after its totals (mismatches degrade the run). */
static void validation_run_end(const struct run_view *rv, void *priv,
			       const struct sink_run_end *e)
{
	const struct run_result *r = e->r;

	(void)priv;
	if (!validated(rv, r))
		return;
	printf("validation %s: %llu blocks written, %llu verified, %llu mismatches\n",
	       r->ph.name, (unsigned long long)r->val[0],
	       (unsigned long long)r->val[1], (unsigned long long)r->val[2]);
	for (size_t i = 0; r->val_sd && i < rv->params->nsd + rv->params->nfsd;
	     i++) {
		const uint64_t *row = r->val_sd[i];

		if (!row[3])
			continue;
		printf("validation %s %s: %llu blocks written, %llu verified, %llu mismatches\n",
		       r->ph.name, row_name(rv->params, i),
		       (unsigned long long)row[0], (unsigned long long)row[1],
		       (unsigned long long)row[2]);
	}
	printf("\n");
	if (!r->val[2])
		return;
	log_error("run %s: data validation found %llu mismatches (lockstep.log has the first ones in full)",
		  r->ph.name, (unsigned long long)r->val[2]);
	/* Mismatches in warmup intervals count too: the data is wrong. */
	rv->fact->mismatches++;
}

void results_validation_json(const struct run_view *rv,
			     const struct run_result *r, struct jsonw *w,
			     const uint64_t val[3], int per_sd)
{
	if (!validated(rv, r))
		return;
	jsonw_object(w, "validation");
	jsonw_str(w, "mode", r->ph.verify ? "only" : "yes");
	jsonw_u64(w, "blocks_written", val[0]);
	jsonw_u64(w, "blocks_verified", val[1]);
	jsonw_u64(w, "mismatches", val[2]);
	if (per_sd) {
		/* Every sd a slave reported, zeros included. */
		jsonw_array(w, "sds");
		for (size_t i = 0;
		     r->val_sd && i < rv->params->nsd + rv->params->nfsd; i++) {
			const uint64_t *row = r->val_sd[i];

			if (!row[3])
				continue;
			jsonw_object(w, NULL);
			jsonw_str(w, i < rv->params->nsd ? "sd" : "fsd",
				  row_name(rv->params, i));
			jsonw_u64(w, "written", row[0]);
			jsonw_u64(w, "verified", row[1]);
			jsonw_u64(w, "mismatched", row[2]);
			jsonw_end(w);
		}
		jsonw_end(w);
	}
	jsonw_end(w);
}

int results_validation_nothing(const struct run_view *rv)
{
	uint64_t verified = 0;

	if (!rv->params->validate)
		return 0;
	for (size_t i = 0; i < rv->ph->nruns; i++)
		verified += rv->ph->runs[i].done ? rv->ph->runs[i].val[1] : 0;
	return verified == 0;
}

/* The end: whether validate=yes verified nothing, said. */
static void validation_end(const struct run_view *rv, void *priv)
{
	(void)priv;
	if (results_validation_nothing(rv))
		log_warn(
			"validate=yes, but no read verified a block: no phase read blocks written under validation (add reads, or an rd with validate=only)");
}

const struct sink_ops sink_validation = {
	.name = "validation",
	.run_end = validation_run_end,
	.end = validation_end,
};
