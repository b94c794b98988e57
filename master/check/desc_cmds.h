/*
 * `lockstep check`'s description of the probes and the startcmd=/endcmd=
 * commands (desc_cmds.c), for check.c.
 */
#ifndef LOCKSTEP_MASTER_CHECK_DESC_CMDS_H
#define LOCKSTEP_MASTER_CHECK_DESC_CMDS_H

#include "master/check/desc.h"
#include "master/params/params.h"

/* The "probes" array: every probe= line, what it runs and how often. */
void describe_probes(struct desc *d, const struct params *p);
/* The "commands" array: every startcmd= and endcmd=, in the order they
   first run. */
void describe_cmds(struct desc *d, const struct params *p);

#endif
