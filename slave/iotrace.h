/*
 * The I/O trace of a test or debug run: with LOCKSTEP_IOTRACE=DIR in a
 * slave's environment each worker writes DIR/iotrace.PID.N.csv, a line
 * per I/O it issued: "issue_ns,intended_ns,target,write,offset,len"
 * (CLOCK_MONOTONIC stamps taken as the I/O is prepared and the time its
 * latency counts from; the plan's target index; the lun's offset). Tests
 * check what a workload issued from it (tests/integration/replay.sh);
 * without the variable it costs one branch per I/O.
 */
#ifndef LOCKSTEP_SLAVE_IOTRACE_H
#define LOCKSTEP_SLAVE_IOTRACE_H

#include <stdint.h>
#include <stdio.h>
#include "common/timeutil.h"
#include "slave/workload.h"

/* The file for this worker, or NULL (no variable, or it cannot open). */
FILE *iotrace_open(void);

/* Record io, whose latency counts from intended; f NULL: nothing. */
static inline void iotrace_io(FILE *f, uint64_t intended,
			      const struct workload_io *io)
{
	if (f)
		fprintf(f, "%llu,%llu,%u,%d,%llu,%u\n",
			(unsigned long long)time_mono_ns(),
			(unsigned long long)intended, io->target, io->write,
			(unsigned long long)io->offset, io->len);
}

/* Flush and close; NULL is fine. */
void iotrace_close(FILE *f);

#endif
