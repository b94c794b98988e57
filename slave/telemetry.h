/*
 * What the host and its devices did while the slave ran I/O: each block
 * device under the phase's targets (/sys/dev/block/MAJ:MIN/stat), the
 * host's CPU time (/proc/stat), pressure stalls (/proc/pressure/) and the
 * interface the plan names (/sys/class/net/NIC/statistics/), sampled at
 * the phase's start and with every interval the slave sends. The master
 * turns the differences into iostat's figures (docs/DESIGN.md,
 * "Telemetry"). Nothing here can end a phase: a file that is missing or
 * unreadable is said once and its figures are left out.
 *
 * The parsers are pure functions (tests/test_telemetry.c).
 */
#ifndef LOCKSTEP_SLAVE_TELEMETRY_H
#define LOCKSTEP_SLAVE_TELEMETRY_H

#include <stddef.h>
#include <stdint.h>

#include "proto/proto.h"

/* The fields of a block stat file the interval carries (stat.rst). */
enum {
	TELE_RD_IOS,
	TELE_RD_MERGES,
	TELE_RD_SECTORS,
	TELE_RD_TICKS,
	TELE_WR_IOS,
	TELE_WR_MERGES,
	TELE_WR_SECTORS,
	TELE_WR_TICKS,
	TELE_IN_FLIGHT,
	TELE_IO_TICKS,
	TELE_QUEUE,
	TELE_NSTAT
};

enum { TELE_NET_RXB, TELE_NET_TXB, TELE_NET_RXP, TELE_NET_TXP, TELE_NNET };

#define TELEMETRY_PENDING 4
/* How long before the start the base is read (telemetry_start). */
#define TELEMETRY_BASE_LEAD_NS (3 * 1000000ull)

struct telemetry_dev {
	char name[PROTO_DEV_NAME_LEN];
	uint32_t major, minor;
	int fd;
	uint64_t last[TELE_NSTAT];
	uint64_t last_ns; /* when last was read, 0: never */
};

struct telemetry {
	unsigned ndevs;
	struct telemetry_dev dev[PROTO_MAX_DEVS];
	int cpu_fd, psi_fd[3], net_fd[TELE_NNET];
	uint32_t have; /* PROTO_TELE_* that could be opened */
	char nic[PROTO_NIC_LEN];
	uint64_t tick_ns; /* one USER_HZ tick of /proc/stat */
	uint64_t cpu_last[5], psi_last[3], net_last[TELE_NNET];
	uint64_t last_ns; /* monotonic time of the last sample, 0: none */
	/*
	 * The schedule: next sample at next_ns (0: none), ending next_seq;
	 * until based, next_ns is the start and the base is due
	 * TELEMETRY_BASE_LEAD_NS before it.
	 */
	uint64_t next_ns, interval_ns;
	uint32_t next_seq;
	int based;
	/* Samples waiting for their interval to be sent, by seq. */
	struct telemetry_pending {
		int valid;
		uint32_t seq;
		struct proto_interval iv; /* only its telemetry */
	} pend[TELEMETRY_PENDING];
	/* What could not be sampled, for the phase to say once. */
	unsigned nwarn;
	char warn[4][256];
};

/*
 * Finds the block devices under the nfds open target fds (a block
 * device itself, or the device of a file's file system), at most
 * PROTO_MAX_DEVS, and opens their stat files and the host's; nic (""
 * for none) names the interface to sample. What cannot be sampled is
 * said in t->warn (the caller sends it to the master); t is usable
 * whatever happens and is released with telemetry_close.
 */
void telemetry_open(struct telemetry *t, const int *fds, unsigned nfds,
		    const char *nic);

/*
 * The phase's intervals: interval first starts at monotonic time start,
 * each lasts interval_ns. The samples are taken at their boundaries, so
 * that a device's counts cover the interval the slaves' counts cover,
 * however late the interval is sent.
 */
void telemetry_start(struct telemetry *t, uint64_t start, uint32_t first,
		     uint64_t interval_ns);

/* Milliseconds (rounded up, at most most) until the next sample is due. */
int telemetry_due_ms(const struct telemetry *t, uint64_t now, int most);

/*
 * Takes the sample that is due at monotonic time now, if one is: the
 * first is the base; each later one holds the differences since the
 * previous and belongs to the last interval that ended by now.
 */
void telemetry_tick(struct telemetry *t, uint64_t now);

/*
 * Fills pi's telemetry with interval seq's sample; leaves it out (tele 0,
 * no devices) when none was taken for seq.
 */
void telemetry_fill(struct telemetry *t, uint32_t seq,
		    struct proto_interval *pi);

void telemetry_close(struct telemetry *t);

/*
 * Pure parsers. A block stat line: the first TELE_NSTAT numbers into v.
 * /proc/stat's "cpu " line: ticks of user+nice, system+irq+softirq,
 * iowait, steal, idle into v[5]. A /proc/pressure file: the "some"
 * line's total= (microseconds). One decimal number (sysfs). Each returns
 * 0 or -EINVAL.
 */
int telemetry_parse_stat(const char *s, uint64_t v[TELE_NSTAT]);
int telemetry_parse_cpu(const char *s, uint64_t v[5]);
int telemetry_parse_psi(const char *s, uint64_t *some_us);
int telemetry_parse_u64(const char *s, uint64_t *v);

/* Whether name is a plausible interface name for /sys/class/net/. */
int telemetry_nic_ok(const char *name);

#endif
