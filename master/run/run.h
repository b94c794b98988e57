/* The `lockstep run` and `lockstep vdbench` subcommands. */
#ifndef LOCKSTEP_MASTER_RUN_RUN_H
#define LOCKSTEP_MASTER_RUN_RUN_H

/*
 * Entry point of `lockstep run`; returns the process exit code (enum
 * ls_exit, common/exitcode.h). engines lists the slave's I/O engines,
 * NULL-terminated, the default first: --engine is checked against it and
 * a slave that lacks the chosen engine is refused at registration.
 */
int master_main(int argc, char **argv, const char *const *engines);
/* `lockstep vdbench`: Vdbench's command line (master/results/vdbench.h). */
int master_vdbench_main(int argc, char **argv, const char *const *engines);

#endif
