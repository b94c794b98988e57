/*
 * What the planner's files (plan*.c, evplan.c) share and nothing else
 * includes: the planner's error formatter (plan_err.c) and the host= test.
 */
#ifndef LOCKSTEP_MASTER_PLAN_INT_H
#define LOCKSTEP_MASTER_PLAN_INT_H

#include <stdbool.h>
#include <stddef.h>
#include "master/params/params.h"

/*
 * Write "FILE:LINE:COLUMN: message" for pos into err (cut to errlen).
 * Always returns -EINVAL, so callers can `return plan_err(...)`.
 */
__attribute__((format(printf, 5, 6))) int plan_err(const struct params *p,
						   struct params_pos pos,
						   char *err, size_t errlen,
						   const char *fmt, ...);
/*
 * The fields of a slave's plan every phase fills alike (plan_fs.c): run,
 * phase, names, timing, error budget, arrivals, format, data pattern, nic.
 */
struct plan_phase;
struct proto_plan;
void plan_header(const struct params *p, const struct plan_phase *ph,
		 unsigned phase_no, const int *slave_hd, unsigned slave,
		 const char *engine, struct proto_plan *out);
/* Whether hd is in the host= list (an empty list allows every host). */
bool plan_host_in(const unsigned *host, size_t nhost, int hd);

#endif
