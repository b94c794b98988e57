/*
 * Start a child the way every command lockstep runs is started (the
 * events' and probes' commands, the report's Chromium): posix_spawn, in a
 * process group of its own so that one kill ends whatever it started.
 */
#ifndef LOCKSTEP_COMMON_SPAWN_H
#define LOCKSTEP_COMMON_SPAWN_H

#include <sys/types.h>

/*
 * Start argv (argv[0] searched on PATH when it has no '/') with envp in a
 * process group of its own, stdin /dev/null, stdout to outfd, stderr to
 * errfd, default signal dispositions and an empty mask, no other
 * descriptor of the caller. Returns its pid (also its group's id) or
 * -errno.
 */
pid_t spawn_grouped(char **argv, char **envp, int outfd, int errfd);

#endif
