/*
 * `lockstep check FILE`: parse, validate and expand a parameter file and
 * print the plan, touching no target and no host.
 */
#include <stdio.h>
#include <stdlib.h>
#include "common/params.h"
#include "master/master.h"
#include "master/plan.h"

int master_check_main(int argc, char **argv)
{
	struct plan_overrides ov = { -1, -1, -1 };
	struct plan_phase *ph = NULL;
	struct params *p = NULL;
	char err[1024];
	size_t n = 0;
	int ret;

	if (argc != 2) {
		fprintf(stderr, "usage: lockstep check FILE\n");
		return MASTER_EXIT_BAD_INPUT;
	}
	ret = params_parse_file(argv[1], &p, err, sizeof(err));
	if (ret == 0)
		ret = plan_phases(p, &ov, &ph, &n, err, sizeof(err));
	if (ret < 0) {
		fprintf(stderr, "%s\n", err);
		params_free(&p);
		return MASTER_EXIT_BAD_INPUT;
	}
	printf("%s: %zu sd, %zu wd, %zu rd\n", argv[1], p->nsd, p->nwd, p->nrd);
	for (size_t i = 0; i < p->nsd; i++)
		printf("  sd=%s lun=%s size=%llu threads=%u range=(%g,%g)%s\n",
		       p->sd[i].name, p->sd[i].lun,
		       (unsigned long long)p->sd[i].size, p->sd[i].threads,
		       p->sd[i].range_lo, p->sd[i].range_hi,
		       p->sd[i].openflags & PARAMS_O_DIRECT ? " o_direct" : "");
	for (size_t i = 0; i < n; i++)
		printf("  phase %zu: rd=%s elapsed=%g warmup=%g interval=%g iorate=%s\n",
		       i + 1, ph[i].name, ph[i].elapsed_s, ph[i].warmup_s,
		       ph[i].interval_s, ph[i].iorate > 0 ? "fixed" : "max");
	printf("planned time: %.0f s\n", plan_total_seconds(ph, n));
	free(ph);
	params_free(&p);
	return 0;
}
