/*
 * Vdbench's sd concatenation (concatenatesds=yes, Vdb/ConcatSds.java): the
 * sds a wd names, in the order it names them, are one address space whose
 * size is theirs added up. An offset of that space is in the sd whose part
 * holds it, at the offset less the sizes before that sd. An I/O that
 * would cross from one sd into the next goes to the next sd's first byte
 * instead (to the first sd's when it would cross the last one's end),
 * Vdbench's rule (translateConcatToRealSd): no I/O ever spans two sds.
 * Pure: a binary search of the sds' ends, no state, no allocation.
 */
#ifndef LOCKSTEP_SLAVE_CONCAT_H
#define LOCKSTEP_SLAVE_CONCAT_H

#include <stddef.h>
#include <stdint.h>
#include "proto/proto.h"

/*
 * end[i] is where sd i's part of the space ends: the sizes of sds 0..i
 * added, increasing; n >= 1 sds. For an I/O of len bytes at off (below
 * end[n - 1]) sets *sd (0..n-1) and *sdoff (the offset inside it) and
 * returns 0; returns 1 when it straddled a boundary and was moved to the
 * start of the next (or first) sd. An sd smaller than len still takes the
 * moved I/O at its start: concat_check refuses such sizes beforehand.
 */
int concat_map(const uint64_t *end, unsigned n, uint64_t off, uint32_t len,
	       unsigned *sd, uint64_t *sdoff);

/*
 * Fill end[] from the n sizes; returns the index of the first sd smaller
 * than min_len bytes (no I/O of that size fits it whole), or n when every
 * one holds one.
 */
unsigned concat_ends(const uint64_t *size, unsigned n, uint32_t min_len,
		     uint64_t *end);

/*
 * A concatenated stream ps of plan: its targets into cat[] (ps->ntargets)
 * and their ends in the space into end[], each sd's size the lun's
 * (target_size[]) less its offset=. Returns 0, or -EINVAL with a message
 * naming the first sd that cannot hold a transfer of min_len whole.
 */
int concat_layout(const struct proto_plan *plan, const struct proto_stream *ps,
		  const uint64_t *target_size, uint32_t min_len, unsigned *cat,
		  uint64_t *end, char *err, size_t errlen);

/* The concatenated stream of plan that target t leads, or NULL. */
const struct proto_stream *concat_leads(const struct proto_plan *plan,
					unsigned t);

#endif
