/*
 * `lockstep check`'s description of file system runs (desc_fs.c), for
 * check.c: the fsds' trees, the fwds, and the phases of an rd with fwd=.
 */
#ifndef LOCKSTEP_MASTER_CHECK_DESC_FS_H
#define LOCKSTEP_MASTER_CHECK_DESC_FS_H

#include <stddef.h>
#include "master/check/desc.h"
#include "master/params/params.h"
#include "master/plan/plan.h"

/* The "fsds" and "fwds" arrays: each tree with its counts, each fwd. */
void describe_fs(struct desc *d, const struct params *p);
/* Phase i (ph->fs): what its format does, or how its fwds share it. */
void describe_fs_phase(struct desc *d, const struct params *p,
		       const struct plan_phase *ph, size_t i);

#endif
