/* The `lockstep keygen` subcommand: a CURVE key pair as two files. */
#ifndef LOCKSTEP_MASTER_DEPLOY_KEYGEN_H
#define LOCKSTEP_MASTER_DEPLOY_KEYGEN_H

/* Entry point of `lockstep keygen DIR`; returns the process exit code. */
int keygen_main(int argc, char **argv);

#endif
