/* The `lockstep check` subcommand. */
#ifndef LOCKSTEP_MASTER_CHECK_CHECK_H
#define LOCKSTEP_MASTER_CHECK_CHECK_H

/* Entry point of `lockstep check`; returns the process exit code. */
int check_main(int argc, char **argv);

#endif
