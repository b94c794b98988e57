/*
 * Whether what a slave reports could be true: every interval is held
 * against what the master planned for that slave (its I/Os in flight, its
 * transfer sizes, the interval's length, the cores its hello declared) and
 * against itself (its histograms' counts, minimum, maximum and sums) before
 * any of it is merged (the merge itself refuses a sample that would wrap a
 * total). Pure: no sockets, no clocks, no logging; the reason for a
 * refusal is written for the caller to log.
 */
#ifndef LOCKSTEP_MASTER_PLAUSIBLE_H
#define LOCKSTEP_MASTER_PLAUSIBLE_H

#include <stddef.h>
#include <stdint.h>
#include "proto/proto.h"

/*
 * Slack on the bounds that depend on timing: a slave samples its counters
 * at each interval boundary a little early or late (on a loaded machine,
 * by a good part of an interval), and a completion that started in one
 * interval ends in the next. PLAUSIBLE_SLACK is a factor on the I/O
 * capacity; CPU time may reach PLAUSIBLE_SLACK x interval x cores plus
 * PLAUSIBLE_CPU_SLACK_NS. A forged count is orders of magnitude off, so
 * the slack costs no protection that matters.
 */
#define PLAUSIBLE_SLACK 4
#define PLAUSIBLE_CPU_SLACK_NS 1000000000ull
/*
 * At a fixed rate, latency runs from each I/O's intended start (no
 * coordinated omission), so a device that falls behind shows minimum
 * latencies far above its service time, and the histogram's minimum
 * bounds nothing. The schedule bounds the count instead: no I/O starts
 * before its intended time, so by the end of interval k at most about
 * rate x (k + 1) x interval have started; PLAUSIBLE_SLACK and
 * PLAUSIBLE_RATE_EXTRA cover the randomness of exponential arrivals.
 */
#define PLAUSIBLE_RATE_EXTRA 64
/*
 * The least time a failed I/O holds its slot. Failed I/Os are counted in
 * errors, not in ops, and leave no latency in the histograms, so the
 * histogram's minimum cannot bound them; no kernel fails an I/O and hands
 * its slot back in less than this.
 */
#define PLAUSIBLE_ERROR_NS 100
/*
 * How far an interval's stamped start and end may be from its schedule
 * (the go's start in master time plus seq intervals: a slave stamps the
 * scheduled times in master time), besides one interval and twice the
 * error bound of the slave's clock offset: an honest slave is exact, a
 * forged time is years off. The first I/O's time gets the same slack.
 */
#define PLAUSIBLE_TIME_SLACK_NS 1000000000ull
/*
 * The most threads a slave's run-queue wait may add up (interval.rq): its
 * workers, ZeroMQ's, and io-wq's, which buffered I/O may grow to many.
 */
#define PLAUSIBLE_MAX_THREADS 65536
/* The most cores a hello may declare (Linux's NR_CPUS at its largest). */
#define PLAUSIBLE_MAX_CORES 8192
/*
 * Telemetry (proto_interval's devices and host figures): what no device
 * or interface does per second (I/Os, bytes, packets, I/Os in flight),
 * with the same PLAUSIBLE_SLACK on time spans.
 */
#define PLAUSIBLE_DEV_IOPS 100000000ull
#define PLAUSIBLE_DEV_BPS 200000000000ull
#define PLAUSIBLE_DEV_INFLIGHT 1048576ull
#define PLAUSIBLE_NET_BPS 200000000000ull
#define PLAUSIBLE_NET_PPS 1000000000ull
/*
 * A file-system format pass (a plan with fsds and no fwds): a slave
 * formats its fsds at once (slave/fsops.c), each with its fd[].ft
 * threads (0: PLAUSIBLE_FS_FORMAT_THREADS), so its slots are their
 * sum; it writes 128 KiB at a time, or fd[].fx: a loose bound on
 * the write.
 * A file's last transfer is shorter than xfersize, so any file-system
 * phase's smallest transfer is one byte.
 */
#define PLAUSIBLE_FS_FORMAT_THREADS 1
#define PLAUSIBLE_FS_FORMAT_XFER (1024u * 1024u)

/* What the master keeps of the plan it sent one slave for the phase. */
struct plausible_plan {
	uint64_t interval_ns;
	uint64_t slots;    /* I/Os in flight: the sum of its targets' threads */
	uint32_t xfer_min; /* its smallest and largest transfer size, bytes */
	uint32_t xfer_max;
	uint32_t cores; /* from its hello */
	double iorate;  /* its I/Os per second; 0 = as fast as it can */
	uint64_t clock_error_ns; /* its clock offset's error bound */
	uint64_t start_at; /* master time of the phase's go; 0 before it */
	uint32_t intervals;
	uint32_t ntargets; /* its plan's targets (interval.sl's indexes) */
	/*
	 * A file-system phase (the plan has fsds): a bit per operation its
	 * fwds ask for (1 << enum proto_fsop; an fwd with rdpct= asks for
	 * read and write, a format pass for write), as merge_cfg.fsops
	 * wants them; 0 in a block phase, whose intervals carry no fsops.
	 */
	uint32_t fsops;
};

/*
 * What plan p and a hello's cores allow (p is not kept). A zeroed
 * plausible_plan allows only an interval without I/O: the one of a slave
 * that sits the phase out.
 */
void plausible_plan_of(const struct proto_plan *p, uint32_t cores,
		       struct plausible_plan *out);

/*
 * Whether interval iv (decoded, so its histograms are well formed) could
 * have been measured under plan pl. Returns 0, or -EINVAL with the reason
 * (one line, no peer-supplied text) in why.
 */
int plausible_interval(const struct plausible_plan *pl,
		       const struct proto_interval *iv, char *why,
		       size_t whylen);
/*
 * Whether first_io (master time of a slave's first I/O in the phase, not
 * 0) can be true: within the phase's schedule, from its go to the end of
 * interval by_seq (the phase's last for a phase_end), with the slack of
 * the interval check. Before the go (start_at 0) anything passes.
 * Returns 0, or -EINVAL with the reason in why.
 */
/*
 * Every operation of interval iv: its reads and writes and, in a
 * file-system phase, every other operation (create, getattr, ...), as
 * one count; UINT64_MAX when the sum would wrap. What the figures that
 * judge a slave's throughput over time count (the warmup's steadiness,
 * the failure events' series): a metadata workload does no reads.
 */
uint64_t plausible_ops(const struct proto_interval *iv);

int plausible_first_io(const struct plausible_plan *pl, uint64_t first_io,
		       uint32_t by_seq, char *why, size_t whylen);

#endif
