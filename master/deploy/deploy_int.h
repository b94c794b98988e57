/*
 * What push.c and hosts.c share inside master/deploy: an ssh child with
 * pipes, and reading its output against a deadline.
 */
#ifndef LOCKSTEP_MASTER_DEPLOY_INT_H
#define LOCKSTEP_MASTER_DEPLOY_INT_H

#include <stdint.h>
#include <sys/types.h>
#include "master/deploy/deploy.h"

/* How long one check of a host may take (ssh's connect timeout is 10 s). */
#define DEPLOY_CHECK_S 30.0
/* How long a copy may take: megabytes over a slow link. */
#define DEPLOY_COPY_S 300.0

/*
 * Start ssh running remote on h: its stdout and stderr on *from; its
 * stdin from a pipe *to when to is not NULL, else from in_fd (-1: none).
 * The caller closes the descriptors and calls deploy_finish(*pid).
 */
int deploy_spawn(const struct deploy_host *h, const char *remote, int in_fd,
		 int *to, int *from, pid_t *pid);

/*
 * Read from fd into out (NUL-terminated, *used bytes so far) until the end
 * of output (returns 1), a whole line is there when line is set (0), out
 * is full (1, the rest drained), or deadline (time_mono_ns) passes
 * (-ETIMEDOUT). Or -errno.
 */
int deploy_read(int fd, char *out, size_t outlen, size_t *used,
		uint64_t deadline, int line);

/* Reap the ssh child (killing it first when killed): its status. */
int deploy_finish(pid_t pid, int killed);

#endif
