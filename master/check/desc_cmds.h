/*
 * `lockstep check`'s description of the probes, the startcmd=/endcmd=
 * commands and a wd's replay= (desc_cmds.c), for check.c.
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

/* A wd's "replay" object: the trace, its device, mode and records. */
void describe_replay(struct desc *d, const struct params_wd *wd);

#endif
