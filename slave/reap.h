/*
 * How many completions a worker waits for before it wakes up. Waking once
 * per completion is the most exact and, on fast devices, the most
 * expensive: every wake-up is a cross-CPU wake of the worker by whoever
 * completed the I/O, and on zram here those wakes cost the completing
 * thread more than a third of its time (perf: try_to_wake_up from
 * __io_req_task_work_add). So at full speed (no iorate) with a deep queue
 * the worker waits for an eighth of what is in flight, at most
 * REAP_BATCH_MAX: 32 in flight wait for 4.
 *
 * A completion is stamped when it is reaped, so in a batch all but the last
 * are stamped late by the time the rest took. Batching therefore stays on
 * only while batches fill within REAP_BATCH_FAST_NS; a batched wait that
 * took longer (a slower device, or one that slows down) turns it off for
 * the next REAP_RETRY_WAITS waits, which wait for one completion each. A
 * batched wait also ends after REAP_BATCH_WAIT_NS whatever came: the bound
 * on how late a completion can be stamped when a device stalls with part
 * of a batch done. That bound is not shorter because a timer shorter than
 * the kernel's tick (4 ms at HZ=250) is reprogrammed on every wait, which
 * here cost more CPU than the batching saved.
 * Pure: time is passed in; one per worker.
 */
#ifndef LOCKSTEP_SLAVE_REAP_H
#define LOCKSTEP_SLAVE_REAP_H

#include <stdint.h>

/* The most completions waited for at once. */
#define REAP_BATCH_MAX 4u
/* In flight per completion waited for. */
#define REAP_BATCH_DIV 8u
/* A batch must fill within this for batching to stay on. */
#define REAP_BATCH_FAST_NS 1000000u
/* The longest a batched wait lasts before it takes what is there. */
#define REAP_BATCH_WAIT_NS 5000000u
/* Waits for one completion before batching is tried again. */
#define REAP_RETRY_WAITS 4096u

struct reap {
	unsigned off;   /* waits left before batching is tried again */
};

/*
 * The completions to wait for with inflight I/Os in flight (unlimited: no
 * iorate), and the wait's timeout: *timeout_ns is lowered to
 * REAP_BATCH_WAIT_NS when more than one is waited for. Never more than
 * inflight; 1 when inflight is 0.
 */
unsigned reap_wait_nr(const struct reap *r, unsigned inflight, int unlimited,
		      uint64_t *timeout_ns);

/*
 * After a wait for wanted completions that lasted waited_ns, got were
 * reaped.
 */
void reap_seen(struct reap *r, unsigned wanted, unsigned got,
	       uint64_t waited_ns);

#endif
