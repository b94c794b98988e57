/*
 * The figures of device and host telemetry (proto_interval's devices and
 * host counters), as iostat and top compute them: per device, reads and
 * writes per second, MiB/s, await (ms waited per I/O), aqu-sz (the mean
 * number of I/Os in the device's queue) and %util (the share of the time
 * with an I/O in flight); per host, CPU shares of all its cores, pressure
 * stall shares and the interface's rates. Pure functions
 * (tests/test_devstat.c); sink_telemetry.c writes them.
 */
#ifndef LOCKSTEP_MASTER_RESULTS_DEVSTAT_H
#define LOCKSTEP_MASTER_RESULTS_DEVSTAT_H

#include <stddef.h>
#include <stdint.h>
#include "proto/proto.h"

/* A figure that was not measured is NAN (an empty CSV cell). */
struct devstat_fig {
	double r_s, w_s, rmbps, wmbps;
	double r_await_ms, w_await_ms; /* NAN with no I/O that way */
	double aqu_sz, util_pct;
	uint64_t in_flight;
};

/* One device's figures over its span (iostat -x's formulas). */
void devstat_of(const struct proto_dev *d, struct devstat_fig *f);

/*
 * Devices of a cluster interval, each counted once: a device two slaves
 * of one host both sample is one device. Rates add up, awaits are
 * weighted by I/Os, aqu-sz adds up and %util is the busiest device's.
 */
struct devstat_sum {
	double ios_s[2], bytes_s[2], aqu;
	uint64_t ios[2], ticks_ms[2], in_flight;
	double util_max;
	unsigned ndevs;
};

void devstat_sum_add(struct devstat_sum *s, const struct proto_dev *d);
void devstat_sum_fig(const struct devstat_sum *s, struct devstat_fig *f);

/*
 * A host's figures from an interval iv of interval_ns: CPU percentages
 * of all its cores from /proc/stat (user, system, iowait, steal, idle;
 * NAN without PROTO_TELE_CPU), the slave process's CPU share of the host
 * (its cpu_user_ns + cpu_sys_ns over interval_ns x cores), the PSI
 * "some" shares (cpu, memory, io) and the interface's MiB/s and
 * packets/s each way (NAN without).
 */
struct hoststat_fig {
	double cpu_pct[5];
	double slave_cpu_pct;
	double psi_pct[3];
	double net_mbps[2], net_pps[2];
};

void devstat_host(const struct proto_interval *iv, uint64_t interval_ns,
		  struct hoststat_fig *f);

/*
 * The identity of a device for de-duplication: its host's name and its
 * numbers, hashed (64-bit FNV-1a).
 */
uint64_t devstat_key(const char *host, uint32_t major, uint32_t minor);

#endif
