/*
 * The I/O trace of a test or debug run (LOCKSTEP_IOTRACE=DIR). See
 * iotrace.h.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "common/log.h"
#include "slave/iotrace.h"

FILE *iotrace_open(void)
{
	static atomic_uint seq;
	const char *dir = getenv("LOCKSTEP_IOTRACE");
	char path[4096];
	FILE *f;

	if (!dir || !*dir)
		return NULL;
	snprintf(path, sizeof(path), "%s/iotrace.%d.%u.csv", dir, (int)getpid(),
		 atomic_fetch_add(&seq, 1));
	f = fopen(path, "we");
	if (!f)
		log_error("LOCKSTEP_IOTRACE: cannot open %s", path);
	return f;
}

void iotrace_close(FILE *f)
{
	if (f)
		fclose(f);
}
