/* The `lockstep slave` subcommand: a slave session with one master. */
#ifndef LOCKSTEP_SLAVE_SLAVE_H
#define LOCKSTEP_SLAVE_SLAVE_H

/* Entry point of `lockstep slave`; returns the process exit code. */
int slave_main(int argc, char **argv);

#endif
