/*
 * The run-queue wait of the calling thread (runq.h): one small read of
 * procfs, once an interval per worker.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>
#include "slave/runq.h"

uint64_t runq_thread(void)
{
	char buf[128];
	uint64_t on_cpu, wait;
	ssize_t n;
	int fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	if (sscanf(buf, "%" SCNu64 " %" SCNu64, &on_cpu, &wait) != 2)
		return 0;
	return wait;
}
