/*
 * How long the calling thread was ready to run but waited for a CPU:
 * the second field of /proc/thread-self/schedstat (Linux's run_delay,
 * with CONFIG_SCHED_INFO). A worker that waits for a CPU issues and reaps
 * late, and its numbers measure the scheduler rather than the storage;
 * each worker puts its wait of an interval in the interval (worker.c), the
 * slave sends their sum (interval.rq) and the master turns it into a
 * warning (master/results/genwarn.h). Read by the worker itself at its
 * interval's roll, since a thread's figure goes when the thread exits.
 */
#ifndef LOCKSTEP_SLAVE_RUNQ_H
#define LOCKSTEP_SLAVE_RUNQ_H

#include <stdint.h>

/*
 * The calling thread's schedstat, opened once (-1: not known here): the
 * open walks procfs, tens of microseconds a worker should not spend at
 * its start (docs/PERFORMANCE.md, start skew) or at every roll.
 */
int runq_open(void);

/* The run-queue wait since the thread started, ns, of fd; 0 unknown. */
uint64_t runq_read(int fd);

#endif
