/*
 * prio: the slave's reporting threads lifted above its workers (see
 * prio.h). Linux keeps a nice value per thread, so setpriority() on the
 * thread id changes that thread alone.
 */
#include <errno.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/log.h"
#include "slave/prio.h"

static int base_nice;
static int lifted;

static id_t self(void)
{
	return (id_t)syscall(SYS_gettid);
}

int prio_lift(void)
{
	int now, want;

	errno = 0;
	now = getpriority(PRIO_PROCESS, self());
	if (now == -1 && errno)
		return 0;
	base_nice = now;
	want = now - PRIO_LIFT < -20 ? -20 : now - PRIO_LIFT;
	if (want == now || setpriority(PRIO_PROCESS, self(), want) < 0) {
		log_debug("reporting threads at nice %d, as the workers (%s)",
			  now,
			  want == now ? "already at -20" :
					"no CAP_SYS_NICE to lift them");
		return now;
	}
	lifted = 1;
	log_debug("reporting threads at nice %d, workers at %d", want, now);
	return want;
}

int prio_restore(void)
{
	if (!lifted)
		return 0;
	if (setpriority(PRIO_PROCESS, self(), base_nice) < 0)
		return -errno;
	return 0;
}
