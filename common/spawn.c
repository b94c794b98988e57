/* Children in a process group of their own (spawn.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <unistd.h>
#include "common/spawn.h"

/*
 * argv with envp in a new process group (the kill of a timeout reaches
 * whatever the shell started), stdin /dev/null, stdout to outfd and
 * stderr to errfd, default signal dispositions (the master ignores
 * SIGPIPE) and no descriptor of the caller: its sockets, and a slave's key
 * pipe, whose EOF tells that slave the master is gone, must not outlive
 * it in a child. posix_spawn, not fork: glibc's shares the master's memory
 * until the exec instead of copying its page tables at every poll.
 */
pid_t spawn_grouped(char **argv, char **envp, int outfd, int errfd)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t all, none;
	pid_t pid;
	int ret;

	if (posix_spawn_file_actions_init(&fa))
		return -ENOMEM;
	if (posix_spawnattr_init(&at)) {
		posix_spawn_file_actions_destroy(&fa);
		return -ENOMEM;
	}
	sigfillset(&all);
	sigemptyset(&none);
	ret = posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null",
					       O_RDONLY, 0);
	if (!ret)
		ret = posix_spawn_file_actions_adddup2(&fa, outfd,
						       STDOUT_FILENO);
	if (!ret)
		ret = posix_spawn_file_actions_adddup2(&fa, errfd,
						       STDERR_FILENO);
	if (!ret)
		ret = posix_spawn_file_actions_addclosefrom_np(&fa, 3);
	if (!ret)
		ret = posix_spawnattr_setflags(&at,
					       POSIX_SPAWN_SETPGROUP |
						       POSIX_SPAWN_SETSIGDEF |
						       POSIX_SPAWN_SETSIGMASK);
	if (!ret)
		ret = posix_spawnattr_setpgroup(&at, 0);
	if (!ret)
		ret = posix_spawnattr_setsigdefault(&at, &all);
	if (!ret)
		ret = posix_spawnattr_setsigmask(&at, &none);
	if (!ret)
		ret = posix_spawnp(&pid, argv[0], &fa, &at, argv, envp);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	return ret ? -ret : pid;
}
