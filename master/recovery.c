/*
 * TEMP recovery stub: the real module is written on another branch against
 * recovery.h; until it is merged every figure is "not computed".
 */
#include <errno.h>
#include <string.h>
#include "master/recovery.h"

void recovery_defaults(struct rec_params *p)
{
	p->baseline_s = 60;
	p->degrade_frac = 0.90;
	p->recover_iops_tol = 0.10;
	p->recover_p99_tol = 0.20;
	p->recover_n = 10;
}

int recovery_compute(const struct rec_point *pts, size_t n,
		     double interval_s, const struct rec_event *ev,
		     const struct rec_params *p, struct rec_figures *out)
{
	(void)pts;
	(void)n;
	(void)interval_s;
	(void)ev;
	(void)p;
	memset(out, 0, sizeof(*out));
	return -ENOSYS;
}
