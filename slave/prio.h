/*
 * prio: the slave's own threads ahead of its workers. The session thread
 * (intervals out, acks and plans in), ZeroMQ's I/O thread and the clock
 * responder are created by the main thread and inherit its nice value; the
 * workers put themselves back to the value the process started with. On a
 * host whose cores the workers (and their io_uring kernel workers) fill,
 * the few microseconds of reporting then run when due instead of waiting
 * a time slice behind the load they measure.
 */
#ifndef LOCKSTEP_SLAVE_PRIO_H
#define LOCKSTEP_SLAVE_PRIO_H

/* How much the reporting threads are lifted (nice steps). */
#define PRIO_LIFT 5

/*
 * The calling thread (the main thread, before it creates any other) is
 * lifted by PRIO_LIFT, not past -20. Needs CAP_SYS_NICE (root has it);
 * without it nothing changes. Returns the nice value now in force.
 */
int prio_lift(void);

/*
 * The calling thread (a worker, first thing) goes back to the nice value
 * the process had before prio_lift(). Lowering one's own priority needs no
 * privilege. Returns 0 or -errno.
 */
int prio_restore(void);

#endif
