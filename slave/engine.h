/*
 * I/O engines: one ops table per engine, looked up by name. An engine
 * instance belongs to one worker thread and is only ever used from it (the
 * io_uring engine creates its ring there, so single-issuer rings work).
 * Slots are fixed at open: slot i always uses buffer i, so the engine can
 * register the buffers once and the hot path never allocates. An engine
 * is one file, engine_NAME.c, defining `const struct engine_ops
 * engine_NAME_ops`, and one name in LS_ENGINES (slave/CMakeLists.txt),
 * from which the build generates engine.c's table.
 */
#ifndef LOCKSTEP_SLAVE_ENGINE_H
#define LOCKSTEP_SLAVE_ENGINE_H

#include <stddef.h>
#include <stdint.h>

struct engine_cfg {
	unsigned depth;      /* slots (I/Os in flight at most) */
	unsigned nfiles;
	const int *fds;      /* file i of prep() is fds[i]; not owned */
	/*
	 * Per file, NULL for none: 1 when the file cannot take I/O without
	 * blocking (target_nowait()), so that io_uring would hand each of its
	 * requests to an io-wq thread after a failed inline try; the engine
	 * queues them there at once. Not owned; outlives the engine.
	 */
	const unsigned char *async;
	void *const *bufs;   /* slot i's buffer, depth entries; not owned */
	size_t buf_len;      /* every buffer's length */
	unsigned flags;      /* ENGINE_* */
};

/* A kernel thread polls the submission queue (io_uring SQPOLL). */
#define ENGINE_SQPOLL 1u
/* Every file is open with O_DIRECT. */
#define ENGINE_DIRECT 2u

struct engine_cqe {
	unsigned slot;
	int res;             /* bytes transferred, or -errno */
};

struct engine_ops {
	const char *name;
	/* Set up for cfg; *ctx is the engine's state. Returns 0 or -errno. */
	int (*open)(const struct engine_cfg *cfg, void **ctx);
	/*
	 * Queue one I/O on a slot: len bytes at offset of file, to or from
	 * the slot's buffer starting buf_off bytes in (non-zero only for the
	 * rest of a short transfer). Nothing is submitted yet.
	 */
	int (*prep)(void *ctx, unsigned slot, unsigned file, int write,
		    uint32_t buf_off, uint32_t len, uint64_t offset);
	/*
	 * Submit everything queued and wait until at least wait_nr
	 * completions are ready or timeout_ns passed (0 = no limit).
	 * Returns 0 or -errno (-ETIME on timeout is not an error: return 0).
	 */
	int (*submit)(void *ctx, unsigned wait_nr, uint64_t timeout_ns);
	/*
	 * Optional (NULL: every wait passes its limit): make every wait end
	 * by mono_ns (CLOCK_MONOTONIC) at the latest, once, so that waits
	 * whose limit is at or after it need no limit of their own. Set once
	 * per interval boundary. Returns 0 or -errno (then limits as before).
	 */
	int (*wake_at)(void *ctx, uint64_t mono_ns);
	/* Fetch up to max completions. Returns how many, or -errno. */
	int (*reap)(void *ctx, struct engine_cqe *out, unsigned max);
	/* Free everything; NULLs *ctx; safe on NULL. */
	void (*close)(void **ctx);
	/* Short description of features in use (e.g. "fixed-files"). */
	const char *(*describe)(void *ctx);
};

/* The engine called name, or NULL. */
const struct engine_ops *engine_find(const char *name);
/* Names of all engines in table order, NULL-terminated; static storage. */
const char *const *engine_names(void);
/*
 * Write the engines' names as "a, b" into buf (len bytes, cut to fit, always
 * terminated when len > 0), for messages. Returns the length written.
 */
size_t engine_list(char *buf, size_t len);
/*
 * Whether this kernel gives a process an io_uring (a small ring is set up
 * and torn down): 0 with the ring's features as "a,b" in buf (len bytes),
 * or -errno (-ENOSYS: no io_uring; -EPERM: io_uring_disabled).
 */
int engine_uring_probe(char *buf, size_t len);

#endif
