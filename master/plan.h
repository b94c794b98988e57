/*
 * The planner: turns parsed parameters into the run's phases and, for each
 * phase, the resolved plan each slave executes. Pure: no sockets, no files.
 */
#ifndef LOCKSTEP_MASTER_PLAN_H
#define LOCKSTEP_MASTER_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include "common/params.h"
#include "proto/proto.h"

/* Command-line overrides of every rd's timing (Vdbench -e, -w, -i); < 0 = unset. */
struct plan_overrides {
	double elapsed_s, warmup_s, interval_s;
};

struct plan_phase {
	unsigned rd;              /* index into params.rd */
	char name[PARAMS_NAME_MAX];
	double elapsed_s, warmup_s, interval_s;
	uint64_t interval_ns;
	unsigned intervals;        /* warmup + elapsed */
	unsigned warmup_intervals;
	double iorate;             /* cluster total, 0 = max */
};

/*
 * The phases of a parameter file, in order (one per rd for now). Returns 0
 * with a malloc'd array (caller frees), or -EINVAL with "FILE:LINE:COL:
 * message" in err (e.g. elapsed not a multiple of interval after overrides).
 */
int plan_phases(const struct params *p, const struct plan_overrides *ov,
		struct plan_phase **out, size_t *n, char *err, size_t errlen);

/*
 * The plan slave `slave` of `nslaves` runs in phase ph: every sd the phase's
 * wds use, with that sd's threads split evenly over the slaves, and every wd.
 * out->targets and out->streams are malloc'd (free with proto_msg_free).
 * Returns 0, or -EINVAL with a message (an sd with fewer threads than
 * slaves), or -ENOMEM.
 */
int plan_for_slave(const struct params *p, const struct plan_phase *ph,
		   unsigned phase_no, unsigned slave, unsigned nslaves,
		   const char *engine, struct proto_plan *out, char *err,
		   size_t errlen);

/* Total seconds the phases take (warmup included). */
double plan_total_seconds(const struct plan_phase *ph, size_t n);

#endif
