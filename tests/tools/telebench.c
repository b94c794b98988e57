/*
 * The cost of a slave's telemetry sample (slave/telemetry.c), for
 * scripts/bench-telemetry.sh: opens the block devices given as paths (as
 * a phase opens its targets) with a nic, then takes N samples on a
 * schedule of 1 ms intervals (times given, not waited for) and prints the
 * CPU time one sample costs, measured with getrusage over all of them.
 * usage: telebench N NIC DEVICE...
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>
#include "common/timeutil.h"
#include "slave/telemetry.h"

static double cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	int fds[PROTO_MAX_DEVS];
	unsigned n, nfds = 0;
	struct telemetry t;
	struct proto_interval *pi = calloc(1, sizeof(*pi));
	uint64_t now = time_mono_ns();
	double c0;

	if (argc < 3 || !pi) {
		fprintf(stderr, "usage: telebench N NIC DEVICE...\n");
		return 2;
	}
	n = (unsigned)atoi(argv[1]);
	for (int i = 3; i < argc && nfds < PROTO_MAX_DEVS; i++)
		if ((fds[nfds] = open(argv[i], O_RDONLY | O_CLOEXEC)) >= 0)
			nfds++;
	telemetry_open(&t, fds, nfds, argv[2]);
	for (unsigned i = 0; i < t.nwarn; i++)
		fprintf(stderr, "%s\n", t.warn[i]);
	telemetry_start(&t, now, 0, 1000000);
	telemetry_tick(&t, now);
	c0 = cpu_s();
	for (unsigned i = 1; i <= n; i++) {
		telemetry_tick(&t, now + (uint64_t)i * 1000000);
		telemetry_fill(&t, i - 1, pi);
	}
	printf("devices %u nic %s samples %u us_per_sample %.2f\n", pi->ndevs,
	       (pi->tele & PROTO_TELE_NIC) ? pi->nic : "-", n,
	       (cpu_s() - c0) / n * 1e6);
	telemetry_close(&t);
	for (unsigned i = 0; i < nfds; i++)
		close(fds[i]);
	free(pi);
	return 0;
}
