/* The `lockstep run` and `lockstep check` subcommands. */
#ifndef LOCKSTEP_MASTER_MASTER_H
#define LOCKSTEP_MASTER_MASTER_H

/*
 * Entry point of `lockstep run`; returns the process exit code (enum
 * ls_exit, common/exitcode.h). engines lists the slave's I/O engines,
 * NULL-terminated, the default first: --engine is checked against it and
 * a slave that lacks the chosen engine is refused at registration.
 */
int master_main(int argc, char **argv, const char *const *engines);
/* `lockstep vdbench`: Vdbench's command line (master/vdbench.h). */
int master_vdbench_main(int argc, char **argv, const char *const *engines);
/* Entry point of `lockstep check`; returns the process exit code. */
int master_check_main(int argc, char **argv);

#endif
