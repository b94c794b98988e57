/*
 * Generator bottleneck warnings, pure: whether a host's figures over a
 * run say that lockstep itself, not the storage, set the pace. A host is
 * the slaves whose hello named the same host; their CPU (each slave's
 * getrusage(RUSAGE_SELF): every thread of the process, io_uring's io-wq
 * workers included) is summed per interval and taken over the host's
 * cores, and so is the time their workers were ready to run but waited
 * for a CPU (interval.rq). Two tests:
 * - CPU: in at least half of the run's measured intervals the host
 *   reported (one busy interval is a hiccup; a generator that is the
 *   bottleneck is so most of the time), its slaves used more than
 *   GENWARN_CPU_PCT of its cores, or more than GENWARN_RUNQ_PER_CORE of
 *   their workers a core waited for a CPU on average (other processes,
 *   or more slaves and workers than cores, took it: the slaves' own CPU
 *   is then low, as in the case that asked for this, 100 slaves on 2
 *   cores). A slave's own figures are at most its host's, so the host
 *   test covers a single busy slave too.
 * - I/Os in flight: the host's slaves were planned to keep more than
 *   GENWARN_INFLIGHT_PER_CORE I/Os in flight (threads=) per core.
 * - Schedule lag (a fixed rate): the I/Os its slaves issued on the
 *   open-loop schedule went out, on average, later than they were due
 *   with a slot free (interval.lg / interval.ln: the generator's own
 *   lateness, which their latency includes) by GENWARN_LAG_PCT or more of
 *   the host's mean latency, and by GENWARN_LAG_FLOOR_NS or more, over at
 *   least GENWARN_LAG_MIN_IOS of them.
 * - Queue above the device (iorate=max, every sd of the run opened with
 *   o_direct, so that every I/O should reach a device): in at least half
 *   of the measured intervals with device telemetry, the host's slaves
 *   kept GENWARN_QUEUE_MIN or more I/Os in flight on average (their
 *   latency summed over the interval: Little's law) while the host's
 *   devices under their targets held fewer than GENWARN_QUEUE_SHARE of
 *   that many in their queues (the devices' aqu-sz, each device once).
 *   The I/Os wait somewhere above the devices: in lockstep (a worker
 *   waiting for a CPU, io_uring's workers), a throttle that holds bios
 *   before they become requests, or the network of a remote device.
 */
#ifndef LOCKSTEP_MASTER_RESULTS_GENWARN_H
#define LOCKSTEP_MASTER_RESULTS_GENWARN_H

#include <stdint.h>

#define GENWARN_CPU_PCT 90.0
/*
 * More workers waiting for a CPU than the host has cores, on average:
 * each I/O issue and reap then waits its turn. Measured on a 2-core
 * machine at a load average of 10 (other work): 2 slaves at iorate=200
 * had 0.035 workers a core waiting, 8 null-engine slaves at max 7.7.
 */
#define GENWARN_RUNQ_PER_CORE 1.0
/*
 * 32 in flight per core: one io_uring per core at a depth of 32 (fio's
 * customary iodepth=32 with one job per core) stays within it; the case
 * that motivated the warning, threads=200 on 2 cores, does not.
 */
#define GENWARN_INFLIGHT_PER_CORE 32
/*
 * A tenth of the latency lockstep reports being its own delay is the
 * error it must not hide; fewer than 100 scheduled I/Os say nothing.
 */
#define GENWARN_LAG_PCT 10.0
#define GENWARN_LAG_MIN_IOS 100
/*
 * Below this mean lag a sleeping worker is as late as the kernel wakes
 * it: measured on this 2-core VM with a 1 ns timer slack, 54-62 us at
 * iorate=2000 on page-cache reads (95 us with the default 50 us slack).
 * That lag is reported (summary.json) but not warned about: every fixed
 * rate on a fast device would be, and the lag is the figure to read.
 */
#define GENWARN_LAG_FLOOR_NS 100000
/*
 * Half: a device's queue that holds under half of what the generator
 * keeps in flight leaves most of the latency to something above it. A
 * throttled loop device measured 0.02 in its queue for 8 in flight; the
 * same throttle below a stacked device, 8.0 of 8.
 */
#define GENWARN_QUEUE_SHARE 0.5
#define GENWARN_QUEUE_MIN 2.0

enum genwarn_flag {
	GENWARN_CPU = 1,      /* the host's CPU was the limit */
	GENWARN_INFLIGHT = 2, /* more I/Os in flight per core than the budget */
	GENWARN_LAG = 4,      /* issued late on its schedule with a slot free */
	GENWARN_QUEUE = 8,    /* its I/Os waited above its devices */
};

/* One host over one run's measured intervals. */
struct genwarn_host {
	uint32_t cores;     /* its cores, from its slaves' hello */
	uint64_t inflight;  /* I/Os its slaves were planned to keep in flight */
	unsigned intervals; /* measured intervals it reported */
	unsigned busy;      /* of them, over either limit */
	double cpu_pct_max; /* its busiest interval */
	double cpu_pct_sum; /* over its intervals, for the mean */
	double runq_max, runq_sum; /* workers waiting a core: the same */
	/* Schedule lag over the measured intervals (interval lg, ln, lm). */
	uint64_t lag_ns, lag_n, lag_max_ns;
	/* The latency of its I/Os in them: summed, and their count. */
	uint64_t lat_ns, lat_n;
	/*
	 * Queue above the device: measured intervals with device figures,
	 * those of them whose devices held too little of the slaves' queue,
	 * and the sums of both queues over them, for the means.
	 */
	unsigned queue_n, queue_above;
	double app_qd_sum, dev_qd_sum;
};

/*
 * CPU time cpu_ns used in an interval of interval_ns on cores cores, in
 * percent of what they had (0 when they had nothing).
 */
double genwarn_cpu_pct(uint64_t cpu_ns, uint64_t interval_ns, uint32_t cores);
/*
 * Run-queue wait runq_ns in an interval of interval_ns on cores cores:
 * the workers waiting for a CPU a core, on average (0 without cores).
 */
double genwarn_runq_per_core(uint64_t runq_ns, uint64_t interval_ns,
			     uint32_t cores);
/*
 * Count one measured interval of host h, in which its slaves used pct of
 * its cores and runq of their workers a core waited for one.
 */
void genwarn_interval(struct genwarn_host *h, double pct, double runq);
/* a + b, or UINT64_MAX when it would wrap (hostile or absurd sums). */
static inline uint64_t genwarn_sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/*
 * Add one slave's measured interval to host h: its schedule lag (sum,
 * count, largest) and its latency (sum, count), saturating.
 */
void genwarn_lag(struct genwarn_host *h, uint64_t lag_ns, uint64_t lag_n,
		 uint64_t lag_max_ns, uint64_t lat_ns, uint64_t lat_n);
/* Mean schedule lag of h, ns (0 without scheduled I/Os). */
double genwarn_lag_mean_ns(const struct genwarn_host *h);
/* That lag in percent of h's mean latency (0 without latency). */
double genwarn_lag_pct(const struct genwarn_host *h);
/*
 * Count one measured interval of host h with device figures: its slaves
 * kept app_qd I/Os in flight on average, its devices dev_qd in their
 * queues.
 */
void genwarn_queue(struct genwarn_host *h, double app_qd, double dev_qd);
/* The warnings (enum genwarn_flag bits) host h's run earns; 0 none. */
unsigned genwarn_judge(const struct genwarn_host *h);
/* I/Os in flight per core of h (0 without cores). */
double genwarn_inflight_per_core(const struct genwarn_host *h);

#endif
