/*
 * The run-queue wait of the calling thread (runq.h): one small read of
 * procfs, once an interval per worker.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>
#include "slave/runq.h"

int runq_open(void)
{
	return open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
}

uint64_t runq_read(int fd)
{
	char buf[128];
	uint64_t on_cpu, wait;
	ssize_t n;

	if (fd < 0)
		return 0;
	/* At offset 0 the seq_file makes the line afresh. */
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	if (sscanf(buf, "%" SCNu64 " %" SCNu64, &on_cpu, &wait) != 2)
		return 0;
	return wait;
}
