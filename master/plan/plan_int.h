/*
 * What the planner's files (plan*.c, evplan.c) share and nothing else
 * includes: the planner's error formatter (plan_err.c), the host= test
 * and the blocks the phases are built from (plan_loop.c).
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

/*
 * The phases' builders (plan_loop.c), shared by a block rd's phases
 * (plan.c) and an fwd= rd's (plan_fsphase.c).
 */
struct params_rd;
struct plan_list {
	struct plan_phase *ph;
	size_t n, cap;
};
/* A new phase, a copy of base; NULL when out of memory or phases. */
struct plan_phase *plan_phase_add(struct plan_list *a,
				  const struct plan_phase *base);
/* Append to a phase's name (PLAN_NAME_MAX, cut). */
__attribute__((format(printf, 2, 3))) void plan_name_add(char *name,
							 const char *fmt, ...);
/* The loops' values at odometer position idx, into x (and its name). */
void plan_loops_apply(const struct params_rd *rd, const size_t *idx,
		      struct plan_phase *x);
/*
 * An odometer over the loops, the last one given turning fastest: 1 with
 * idx at the next position, 0 past the last.
 */
int plan_loops_next(const struct params_rd *rd, size_t *idx);
/* The format phase of rd: its bytes and an upper bound on its time. */
void plan_format_phase(const struct params *p, const struct params_rd *rd,
		       struct plan_phase *x);
/* iorate=curve or fwdrate=curve: the max phase, then a point per curve=. */
int plan_curve_phases(const struct params_rd *rd,
		      const struct plan_phase *combo, struct plan_list *a);
/* The phases of an rd with fwd= (plan_fsphase.c): 0, or -1 when full. */
int plan_fs_phases(const struct params *p, const struct params_rd *rd,
		   struct plan_phase *base, struct plan_list *a);

#endif
