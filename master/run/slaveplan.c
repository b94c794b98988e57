/*
 * Which part of a phase each slave gets: its plan (a block phase's from
 * plan_for_slave, a file-system phase's from plan_fs_for_slave, which
 * names the slave's subtree), and the slaves' numbers when they must not
 * depend on the order the slaves registered in. The conductor uses both
 * at a phase's start, midphase.c when a slave rejoins.
 */
#include <errno.h>
#include <stdlib.h>
#include "common/log.h"
#include "master/run/master_int.h"

int slaveplan_for(const struct master *m, const struct plan_phase *ph,
		  const int *hd, unsigned slave, unsigned n, const char *name,
		  struct proto_plan *out, char *err, size_t errlen)
{
	if (ph->fs)
		return plan_fs_for_slave(m->params, ph, m->ph.phase_no, hd,
					 slave, n, name, m->opt->engine, out,
					 err, errlen);
	return plan_for_slave(m->params, ph, m->ph.phase_no, hd, slave, n,
			      m->opt->engine, out, err, errlen);
}

/*
 * Validation: each slave owns the same cut of an sd in every phase and
 * run, so slaves are ranked by name (plan_validate_order), not by when
 * they registered; so are the owners of a shared=yes tree's files. Fills
 * rank (n entries) and reorders hd. Without validation (a file-system
 * phase) a lost slave's files go to the others.
 */
int slaveplan_ranks(struct master *m, int *hd, unsigned n, unsigned *rank)
{
	const char **names = malloc(sizeof(*names) * (n ? n : 1));
	unsigned k = 0;
	int ret;

	if (!names)
		return -ENOMEM;
	for (unsigned i = 0; i < m->roster.nslaves; i++) {
		const struct slave_rec *s = &m->roster.slaves[i];

		/* Another cut would give its blocks to a slave without their
		 * generations: false mismatches later. */
		if (s->state != SLAVE_JOINED && !m->params->validate)
			continue;
		if (s->state != SLAVE_JOINED) {
			log_error("validate=yes: slave %s is gone, so its part of the sds has no owner: the run stops here (run a validate=only pass once it is back)",
				  s->hello.name);
			free(names);
			return -ECANCELED;
		}
		if (k < n)
			names[k++] = s->hello.name;
	}
	ret = plan_validate_order(names, hd, k, rank);
	free(names);
	return ret;
}
