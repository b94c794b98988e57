/* The `lockstep run` and `lockstep check` subcommands. */
#ifndef LOCKSTEP_MASTER_MASTER_H
#define LOCKSTEP_MASTER_MASTER_H

/* Entry point of `lockstep run`; returns the process exit code. */
int master_main(int argc, char **argv);
/* Entry point of `lockstep check`; returns the process exit code. */
int master_check_main(int argc, char **argv);

/* Exit codes (DESIGN.md section 9). */
enum {
	MASTER_EXIT_OK = 0,
	MASTER_EXIT_BAD_INPUT = 1,
	MASTER_EXIT_ABORTED = 2,
	MASTER_EXIT_REGRESSION = 3,
	MASTER_EXIT_DEGRADED = 4,
};

#endif
