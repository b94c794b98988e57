/*
 * The lockstep wire protocol: every message is one ZeroMQ frame holding one
 * msgpack map with short string keys; every map carries "v" (protocol major
 * version) and "t" (message type name). This module turns bytes into
 * structs and back, and nothing else: no sockets, no clocks. proto/PROTOCOL.md
 * is the written grammar; any change to the wire bumps PROTO_VERSION.
 *
 * Decoding treats every frame as hostile: unknown keys are skipped, missing
 * required keys, wrong types, out-of-range values, oversized arrays and
 * trailing bytes are rejected with -EBADMSG and a message; a frame from
 * another major version is rejected with -EPROTO.
 */
#ifndef LOCKSTEP_PROTO_PROTO_H
#define LOCKSTEP_PROTO_PROTO_H

#include <stddef.h>
#include <stdint.h>
#include "common/hist.h"

#define PROTO_VERSION 20

#define PROTO_ID_LEN 37 /* uuid text + NUL */
#define PROTO_NAME_LEN 64
#define PROTO_HOST_LEN 256
#define PROTO_TEXT_LEN 1024 /* error / log / reason text */
#define PROTO_PATH_LEN 1024
#define PROTO_MAX_ENGINES 8
#define PROTO_MAX_TARGETS 1024
#define PROTO_MAX_STREAMS 1024
#define PROTO_MAX_XFER 16
#define PROTO_MAX_STREAM_TARGETS 256
#define PROTO_MAX_ZONES 100 /* random_distribution=zoned: a zone per percent */
#define PROTO_SIG_LEN 32    /* a blkid TYPE or PTTYPE */
#define PROTO_MAX_DEVS 16   /* block devices an interval reports */
#define PROTO_DEV_NAME_LEN 32 /* a kernel block device name + NUL */
#define PROTO_NIC_LEN 16      /* IFNAMSIZ */
#define PROTO_CMD_LEN 1024    /* a startcmd=/endcmd= command + NUL */
/*
 * Targets an interval gives a latency histogram of their own (sl): a
 * slave whose plan has more sends none (see proto_interval.sds).
 */
#define PROTO_MAX_SD_LATS 64

/* File-system phases (fsd=, fwd=): trees and file workloads in a plan. */
#define PROTO_MAX_FSDS 64
#define PROTO_MAX_FWDS 256
#define PROTO_FSD_SIZES 32 /* sizes= pairs (common/fstree.h's limit) */

/*
 * The largest frame each side can legitimately receive, for ZMQ_MAXMSGSIZE
 * (a peer that announces a larger one is disconnected before its body is
 * buffered). Over-estimates from the limits above, checked by encoding the
 * largest legal messages in tests/test_proto_limits.c:
 * - a histogram: HIST_BUCKETS buckets of two varints of at most 10 bytes,
 *   and its five scalars with their keys;
 * - to the master: an interval or a phase_end, two histograms and a few
 *   dozen scalars, and a phase_end's validation counts of up to
 *   PROTO_MAX_TARGETS sds, an index and three keyed numbers each (every
 *   other message is smaller: PROTO_MAX_SMALL), and an interval's
 *   PROTO_MAX_DEVS devices, a name and a dozen keyed numbers each, and
 *   its PROTO_MAX_SD_LATS targets' histograms, an index and a histogram
 *   each;
 * - a plan target: its name, its path and 13 keyed numbers (9 bytes each);
 *   a stream: its name, PROTO_MAX_STREAM_TARGETS indexes of at most 5
 *   bytes, PROTO_MAX_XFER keyed size/share pairs, PROTO_MAX_ZONES keyed
 *   pairs of small numbers and a few keyed numbers;
 * - to a slave: a plan of PROTO_MAX_TARGETS targets and PROTO_MAX_STREAMS
 *   streams with its scalars;
 * - PROTO_MAX_SMALL: any message without histograms or plan arrays (hello,
 *   log, error, go...), and ZeroMQ's own handshake commands.
 */
#define PROTO_HIST_MAX_BYTES ((size_t)HIST_BUCKETS * 2 * 10 + 128)
#define PROTO_MAX_SMALL 4096
#define PROTO_VAL_SD_MAX_BYTES 64
#define PROTO_DEV_MAX_BYTES ((size_t)PROTO_DEV_NAME_LEN + 12 * 12 + 16)
#define PROTO_SD_LAT_MAX_BYTES (PROTO_HIST_MAX_BYTES + 16)
#define PROTO_FSOP_MAX_BYTES (PROTO_HIST_MAX_BYTES + 48)
#define PROTO_MAX_TO_MASTER                                   \
	(2 * PROTO_HIST_MAX_BYTES +                           \
	 (size_t)PROTO_MAX_TARGETS * PROTO_VAL_SD_MAX_BYTES + \
	 (size_t)PROTO_MAX_DEVS * PROTO_DEV_MAX_BYTES +       \
	 (size_t)PROTO_MAX_SD_LATS * PROTO_SD_LAT_MAX_BYTES + \
	 (size_t)PROTO_FSOP_MAX * PROTO_FSOP_MAX_BYTES + PROTO_MAX_SMALL)
#define PROTO_TARGET_MAX_BYTES ((size_t)PROTO_NAME_LEN + PROTO_PATH_LEN + 256)
#define PROTO_STREAM_MAX_BYTES                                   \
	((size_t)PROTO_NAME_LEN + PROTO_MAX_STREAM_TARGETS * 5 + \
	 PROTO_MAX_XFER * 32 + PROTO_MAX_ZONES * 16 + 256)
#define PROTO_FSD_MAX_BYTES                                \
	((size_t)2 * PROTO_NAME_LEN + 2 * PROTO_PATH_LEN + \
	 PROTO_FSD_SIZES * 24 + 256)
#define PROTO_FWD_MAX_BYTES ((size_t)PROTO_NAME_LEN + PROTO_MAX_XFER * 32 + 256)
#define PROTO_MAX_TO_SLAVE                                    \
	((size_t)PROTO_MAX_TARGETS * PROTO_TARGET_MAX_BYTES + \
	 (size_t)PROTO_MAX_STREAMS * PROTO_STREAM_MAX_BYTES + \
	 (size_t)PROTO_MAX_FSDS * PROTO_FSD_MAX_BYTES +       \
	 (size_t)PROTO_MAX_FWDS * PROTO_FWD_MAX_BYTES + PROTO_MAX_SMALL)

enum proto_type {
	PROTO_HELLO = 1,
	PROTO_WELCOME,
	PROTO_PING,
	PROTO_PONG,
	PROTO_PLAN,
	PROTO_READY,
	PROTO_ERROR,
	PROTO_GO,
	PROTO_GO_ACK,
	PROTO_INTERVAL,
	PROTO_ACK,
	PROTO_PHASE_END,
	PROTO_LOG,
	PROTO_STOP,
	PROTO_ABORT,
	PROTO_HEARTBEAT,
	PROTO_BYE,
	PROTO_MEASURE,
	PROTO_CMD,
	PROTO_CMD_OUT,
	PROTO_CMD_END,
	PROTO_TYPE_MAX
};

/* slave -> master, first message on a DEALER connection. */
struct proto_hello {
	char id[PROTO_ID_LEN];     /* libuuid text */
	char name[PROTO_NAME_LEN]; /* slave name, unique in a run */
	char host[PROTO_HOST_LEN]; /* hostname */
	uint32_t pid;
	uint32_t cores;
	char version[PROTO_NAME_LEN]; /* lockstep version string */
	uint32_t nengines;
	char engines[PROTO_MAX_ENGINES][PROTO_NAME_LEN];
};

/* master -> slave, answer to hello. */
struct proto_welcome {
	char run_id[PROTO_ID_LEN];
	uint32_t slave_index;
	uint64_t heartbeat_ns;
	uint64_t master_timeout_ns; /* slave stops I/O after this much silence */
};

/* master -> slave: clock sample request; t1 = master send time. */
struct proto_ping {
	uint32_t seq;
	uint64_t t1;
	/*
	 * The master's clock-datagram port (0: none) and the nonce that binds
	 * this phase's datagrams to this channel (proto/clockdgram.h).
	 */
	uint32_t udp_port;
	uint64_t nonce;
};

/* slave -> master: t2 receive, t3 send, on the slave's CLOCK_REALTIME. */
struct proto_pong {
	uint32_t seq;
	uint64_t t1, t2, t3;
};

enum proto_openflags {
	PROTO_O_DIRECT = 1,
	PROTO_O_DSYNC = 2,
	PROTO_O_SYNC = 4, /* protocol 13 */
};

/* Inter-arrival times at a fixed iorate. */
/*
 * Inter-arrival times at a fixed rate, as Vdbench's distribution=:
 * exponential gaps (Poisson arrivals), fixed gaps (deterministic) or gaps
 * drawn uniformly from [0, 2 x the mean) (uniform).
 */
enum proto_dist {
	PROTO_DIST_EXPONENTIAL = 0,
	PROTO_DIST_FIXED = 1,
	PROTO_DIST_UNIFORM = 2,
};

/*
 * replay= (docs/DESIGN.md §8 "Replay"): a phase whose streams replay a
 * trace, each record at its recorded time from the phase's start, or as
 * fast as the target's slots allow.
 */
enum proto_replay {
	PROTO_REPLAY_NONE = 0,
	PROTO_REPLAY_TIMED = 1,
	PROTO_REPLAY_AFAP = 2,
	PROTO_REPLAY_MAX,
};
#define PROTO_REPLAY_KEY_LEN 256

/*
 * Data validation of a phase (validate=yes, rd validate=only): written
 * blocks carry headers and a read of a written block is verified; only:
 * the phase reads its ranges once and verifies everything written.
 */
enum proto_validate {
	PROTO_VALIDATE_OFF = 0,
	PROTO_VALIDATE_YES = 1,
	PROTO_VALIDATE_ONLY = 2,
};

/* One storage target (sd) as one slave runs it. */
struct proto_target {
	char name[PROTO_NAME_LEN];
	char path[PROTO_PATH_LEN];
	uint64_t size;      /* bytes to use; 0 = whole file/device */
	uint32_t openflags; /* PROTO_O_* */
	uint32_t create;    /* create the file at size if missing */
	uint32_t threads;   /* I/Os in flight on this target by this slave */
	/*
	 * Working set inside the target as parts per billion of its usable
	 * size (Vdbench range= is in percent of the sd): [lo, hi), hi <= 1e9.
	 * The slave resolves them to byte offsets once it knows the size.
	 */
	uint64_t range_lo;
	uint64_t range_hi;
	uint64_t offset; /* bytes of the lun before the sd starts (offset=) */
	uint32_t align;  /* random offsets' alignment; 0 = the xfersize */
	uint32_t sqpoll; /* ask for a kernel submission thread (sqpoll=yes) */
	uint32_t force;  /* force=yes: may overwrite a signature */
	/*
	 * Cache hits (rhpct=, whpct=): hitarea bytes from hit_lo (parts per
	 * billion, like range_lo: where the sd's range of the phase starts,
	 * before any split among slaves) take the hits; the rest of the range
	 * takes every other I/O. hitarea 0: no wd of the phase asks for hits.
	 */
	uint64_t hitarea;
	uint64_t hit_lo;
	/*
	 * streams= (Vdbench's): this slave's range is cut into this many
	 * equal sequential streams, each with its own position, sharing the
	 * target's threads evenly (a multiple of them); 0: none.
	 */
	uint32_t streams;
};

/* The most streams= a target may have (and a wd may ask for). */
#define PROTO_MAX_SEQ_STREAMS 4096

struct proto_xfer {
	uint32_t size;
	double pct;
};

/*
 * How random offsets are spread over a range's blocks (wd
 * random_distribution=, fio's): evenly, or skewed, with the hot blocks
 * scattered over the range by a permutation every slave shares; zoned
 * (fio's zoned:) in the zones' order from the range's start; or over a
 * hot band by Vdbench's HotBand curve (wd hotband=).
 */
enum proto_access {
	PROTO_ACCESS_UNIFORM = 0,
	PROTO_ACCESS_ZIPF = 1,    /* access_arg: theta > 0, not 1 */
	PROTO_ACCESS_PARETO = 2,  /* access_arg: h in (0, 1) */
	PROTO_ACCESS_NORMAL = 3,  /* access_arg: sigma, percent of the range */
	PROTO_ACCESS_ZONED = 4,   /* zones: shares of the I/O and the range */
	PROTO_ACCESS_HOTBAND = 5, /* band_lo, band_hi: Vdbench's hot band */
	PROTO_ACCESS_MAX
};

/*
 * One zone of random_distribution=zoned (fio's): io percent of the random
 * I/O goes to the next range percent of the range, uniformly. Whole
 * percentages; the io shares add up to 100, the range shares to at most
 * 100 (the rest of the range is not accessed), and a zone with I/O has
 * some range.
 */
struct proto_zone {
	uint64_t io;    /* 0..100 */
	uint64_t range; /* 0..100 */
};

/* One workload (wd) as one slave runs it. */
struct proto_stream {
	char name[PROTO_NAME_LEN];
	uint32_t ntargets;
	uint32_t targets[PROTO_MAX_STREAM_TARGETS]; /* indexes into plan targets */
	uint32_t nxfer;
	struct proto_xfer xfer[PROTO_MAX_XFER];
	double rdpct;   /* 0..100 */
	double seekpct; /* 0..100 */
	double skew;    /* share of this slave's I/Os, 0..100; 0 = even split */
	uint32_t eof; /* seekpct=eof: one sequential pass, then the phase ends */
	double rhpct;      /* 0..100: reads that go to the target's hit area */
	double whpct;      /* 0..100: writes that go to it */
	uint32_t access;   /* enum proto_access: random offsets' spread */
	double access_arg; /* its parameter */
	/*
	 * stride=(MIN,MAX) (Vdbench's skip-sequential): a random I/O starts
	 * MIN plus a random whole number of transfer sizes (align= units)
	 * below MAX after the previous I/O's end; stride_max 0: none.
	 */
	uint64_t stride_min, stride_max;
	/* access PROTO_ACCESS_ZONED: the zones in order; else none. */
	uint32_t nzones;
	struct proto_zone zones[PROTO_MAX_ZONES];
	/*
	 * access PROTO_ACCESS_HOTBAND (Vdbench's hotband=): the band as parts
	 * per billion of each target's usable size (the whole sd, as
	 * Vdbench's wd range replaces the sd's), [band_lo, band_hi); the
	 * stream's random and sequential I/O stay in it. Else 0, 0.
	 */
	uint64_t band_lo, band_hi;
	/*
	 * concatenatesds=yes (Vdbench's sd concatenation): 1 when the
	 * stream's targets, in their order here, are one address space (the
	 * sizes added); its first target's threads and range are the
	 * concatenation's (its range in parts per billion of the whole
	 * space), its other targets have no threads of their own, and every
	 * I/O goes to the target its offset falls in (slave/concat.h). 0:
	 * each target on its own.
	 */
	uint64_t concat;
	/*
	 * replay= (plan replay set): the trace's path on the slave, the
	 * device whose records run on the stream's one target, and the
	 * FNV-1a 64 hash of the file's bytes the master read (the slave
	 * refuses a file that differs). "" when the phase does not replay.
	 */
	char replay[PROTO_PATH_LEN];
	char replay_dev[PROTO_REPLAY_KEY_LEN];
	uint64_t replay_hash;
};

/*
 * File-system operations (fwd operation=), in Vdbench's order. READ and
 * WRITE are data transfers: an interval carries them where a block
 * phase carries its reads and writes (ops, bytes, lat); every other
 * operation is carried per operation in proto_interval.fsops.
 */
enum proto_fsop {
	PROTO_FSOP_READ = 0,
	PROTO_FSOP_WRITE = 1,
	PROTO_FSOP_CREATE = 2,
	PROTO_FSOP_DELETE = 3,
	PROTO_FSOP_MKDIR = 4,
	PROTO_FSOP_RMDIR = 5,
	PROTO_FSOP_OPEN = 6,
	PROTO_FSOP_CLOSE = 7,
	PROTO_FSOP_GETATTR = 8,
	PROTO_FSOP_SETATTR = 9,
	PROTO_FSOP_ACCESS = 10,
	PROTO_FSOP_COPY = 11,
	PROTO_FSOP_MOVE = 12,
	PROTO_FSOP_MAX
};

/* What a phase does to an fsd's tree before (or instead of) its fwds. */
enum proto_fsformat {
	PROTO_FSFMT_NONE = 0,    /* use the tree as it is */
	PROTO_FSFMT_YES = 1,     /* clean what lockstep made, then create */
	PROTO_FSFMT_RESTART = 2, /* create what is missing, fill short files */
	PROTO_FSFMT_CLEAN = 3,   /* delete what lockstep made, nothing else */
	PROTO_FSFMT_MAX
};

/* proto_fsd.format_flags: Vdbench's format= words beside the kind. */
#define PROTO_FSFMT_DIRS 1u     /* a format makes the folders, no files */
#define PROTO_FSFMT_LIMITED 2u  /* a format stopped at its end is done */
#define PROTO_FSFMT_COMPLETE 4u /* a run takes the tree as complete */
#define PROTO_FSFMT_ANCHOR 8u   /* make the anchor when it is missing */
#define PROTO_FSFMT_FLAGS 15u
/* proto_fsd.format_xfer: the largest format write (PARAMS' too). */
#define PROTO_FSFMT_XFER_MAX (16u * 1024 * 1024)
/* proto_fsd.format_threads: the most threads of a slave's format. */
#define PROTO_FSFMT_THREADS_MAX 64u

/* One size of an fsd's sizes= (common/fstree.h: size, pct). */
struct proto_fsize {
	uint64_t size; /* bytes */
	uint64_t pct;  /* 0..100; ignored with one size */
};

/*
 * One file tree (fsd=) as one slave uses it. The slave's tree is
 * anchor/subdir when subdir is not "" (each slave its own subtree: the
 * master puts the slave's name there), else anchor itself. Every path
 * beneath the anchor is resolved beneath it (slave/anchor.h).
 */
struct proto_fsd {
	char name[PROTO_NAME_LEN];
	char anchor[PROTO_PATH_LEN];
	char subdir[PROTO_NAME_LEN];  /* one path component or "" */
	uint32_t depth, width, files; /* common/fstree.h's shape */
	uint32_t dist;                /* enum fstree_dist */
	uint32_t average;             /* sizes=(size,0) */
	uint32_t nsizes;
	struct proto_fsize sizes[PROTO_FSD_SIZES];
	uint64_t seed; /* 0: Vdbench's */
	/*
	 * shared=yes: share_count slaves use one tree, this one is number
	 * share_no and owns the files fstree_iter_share() gives it. A
	 * share_count of 0 or 1: the tree is this slave's alone.
	 */
	uint32_t share_no, share_count;
	uint32_t openflags; /* PROTO_O_* */
	uint32_t format;    /* enum proto_fsformat: in a format phase */
	/*
	 * totalsize=, workingsetsize= (bytes, 0 = none): the files this
	 * slave formats and uses, and those its fwds use, are subsets of
	 * its files drawn as Vdbench draws them (fstree_subset()).
	 */
	uint64_t totalsize, wss;
	/*
	 * format_flags (PROTO_FSFMT_DIRS, LIMITED: in a format phase;
	 * COMPLETE: in a run phase, every folder and file taken as there
	 * and full, not looked at) and format_xfer, the bytes of a format's
	 * writes (fwd=format xfersize=; 0 = 128k); format_threads, the
	 * threads that format the tree on this slave (fwd=format threads=,
	 * 1..PROTO_FSFMT_THREADS_MAX; 0 = 1).
	 */
	uint32_t format_flags;
	uint32_t format_xfer;
	uint32_t format_threads;
	/*
	 * journal=DIR of the fsd (validate=yes): where this slave journals
	 * its key maps, over the plan's journal; "" = the plan's.
	 */
	char journal[PROTO_PATH_LEN];
};

enum proto_fileio {
	PROTO_FILEIO_SEQ = 0,    /* a file from its start to its end */
	PROTO_FILEIO_RANDOM = 1, /* xfersize-aligned random offsets */
	/* sequential; a write deletes a full file, then creates it anew */
	PROTO_FILEIO_SEQ_DELETE = 2,
	/* random; the fwd's threads may use one file at once */
	PROTO_FILEIO_RANDOM_SHARED = 3,
	PROTO_FILEIO_MAX
};

enum proto_fselect {
	PROTO_FSEL_RANDOM = 0, /* any file, drawn at random */
	PROTO_FSEL_SEQ = 1,    /* the tree's files in order, again and again */
	PROTO_FSEL_ONCE = 2,   /* in order, once: then the fwd is done */
	PROTO_FSEL_RANDOM_ONCE = 3, /* each once, in random order: then done */
	PROTO_FSEL_MAX
};

/* One file workload (fwd=) as one slave runs it. */
struct proto_fwd {
	char name[PROTO_NAME_LEN];
	uint32_t fsd;   /* index into the plan's fsds */
	uint32_t op;    /* enum proto_fsop */
	uint32_t mixed; /* op read or write with rdpct=: a mix of both */
	double rdpct;   /* with mixed: percent of the transfers read */
	uint32_t nxfer; /* xfersize= sizes and shares, as a wd's */
	struct proto_xfer xfer[PROTO_MAX_XFER];
	uint32_t fileio;     /* enum proto_fileio */
	uint32_t fileselect; /* enum proto_fselect */
	uint32_t threads;    /* operations in flight, at least 1 */
	uint32_t target;     /* copy, move: index of the destination fsd */
	double rate;         /* this slave's operations per second; 0 = max */
	/*
	 * stopafter=: a read or write moves to another file after this
	 * many transfers (stopafter blocks) or this percentage of the
	 * file's bytes (stopafter_pct); both 0: Vdbench's default.
	 */
	uint64_t stopafter;
	uint64_t stopafter_pct;
	/*
	 * fileselect=poisson (3) or midpoint=N: random picks skewed to the
	 * start of the file list, Vdbench's distPoisson; 0 = uniform.
	 */
	double midpoint;
	/*
	 * PROTO_O_*: how its operations open files, the master's choice of
	 * the rd's openflags=, else the fwd's, else its fsd's (protocol 18;
	 * before, the fsd's openflags).
	 */
	uint32_t openflags;
};

/* master -> slave: one phase to prepare. Arrays are malloc'd by decode. */
struct proto_plan {
	uint32_t run;   /* index of the rd */
	uint32_t phase; /* phase number, unique and increasing in a run */
	char name[PROTO_NAME_LEN];
	char engine[PROTO_NAME_LEN];
	uint64_t interval_ns;
	uint32_t intervals; /* total intervals, warmup included */
	uint32_t warmup_intervals;
	double iorate;           /* this slave's I/O per second, 0 = max */
	int64_t clock_offset_ns; /* slave - master, for converting go */
	uint64_t clock_error_ns;
	uint32_t data_errors;  /* more I/O errors than this end the phase */
	uint32_t distribution; /* enum proto_dist: fixed-rate arrivals */
	uint32_t format;    /* a format (prime) phase: write the ranges once */
	uint32_t dedupunit; /* bytes; with dedupratio */
	double compratio;   /* >= 1: written data compresses this much */
	double dedupratio;  /* >= 1: duplicate units in written data */
	uint32_t validate;  /* enum proto_validate: data validation */
	char journal[PROTO_PATH_LEN]; /* journal=DIR of the map; "" = none */
	char nic[PROTO_NIC_LEN];      /* nic=: interface to sample; "" = none */
	uint32_t replay;              /* enum proto_replay */
	uint32_t ntargets;
	struct proto_target *targets;
	uint32_t nstreams;
	struct proto_stream *streams;
	/*
	 * A file-system phase has fsds and no targets or streams. With
	 * format set it runs each fsd's format (its fwds are none); else its
	 * fwds run for the phase's intervals.
	 */
	uint32_t nfsds;
	struct proto_fsd *fsds;
	uint32_t nfwds;
	struct proto_fwd *fwds;
};

/* A signature a slave will overwrite because its sd says force=yes. */
struct proto_forced {
	char sd[PROTO_NAME_LEN];
	char signature[PROTO_SIG_LEN]; /* blkid's name: "ext4", "gpt", ... */
};

/*
 * The bytes of an opened target a slave may address: size= when the sd
 * gives one, else the file's or device's size (maxdata= as a multiple of
 * the sds' size needs it). Below PROTO_MAX_SD_BYTES.
 */
struct proto_tsize {
	char sd[PROTO_NAME_LEN];
	uint64_t size;
};

#define PROTO_MAX_SD_BYTES (UINT64_C(1) << 62)

/*
 * slave -> master: targets are open, buffers allocated. forced lists the
 * targets whose signature force=yes lets this phase overwrite, sizes each
 * opened target's size (both malloc'd by decode, at most
 * PROTO_MAX_TARGETS).
 */
struct proto_ready {
	uint32_t phase;
	uint32_t nforced;
	struct proto_forced *forced;
	uint32_t nsizes;
	struct proto_tsize *sizes;
};

/* slave -> master: the phase cannot be prepared or failed. */
struct proto_error {
	uint32_t phase;
	int32_t code; /* -errno */
	char message[PROTO_TEXT_LEN];
};

/* master -> slaves (PUB, then ROUTER to stragglers). */
struct proto_go {
	uint32_t phase;
	uint64_t start_at; /* master CLOCK_REALTIME ns: the phase's start */
	/*
	 * The first interval this slave runs: 0 at a phase's start, K for a
	 * slave that rejoins a running phase (it starts I/O at start_at +
	 * K intervals and numbers its intervals from K).
	 */
	uint32_t first_interval;
};

struct proto_go_ack {
	uint32_t phase;
};

/*
 * One block device under a slave's targets, over an interval: the
 * differences of its /sys/dev/block/MAJ:MIN/stat counters between two
 * samples span_ns apart (Documentation/block/stat.rst), and in_flight at
 * the second. [0] reads, [1] writes; sectors are 512 bytes.
 */
struct proto_dev {
	char name[PROTO_DEV_NAME_LEN]; /* "sda", "nvme0n1p2", "loop3" */
	uint32_t major, minor;
	uint64_t span_ns;
	uint64_t ios[2], sectors[2], ticks_ms[2];
	uint64_t in_flight;
	uint64_t busy_ms;  /* io_ticks: time with an I/O in flight */
	uint64_t queue_ms; /* time_in_queue: ms of I/O, summed over I/Os */
};

/* What an interval's host telemetry holds (proto_interval.tele). */
enum {
	PROTO_TELE_CPU = 1, /* host_cpu_ns from /proc/stat */
	PROTO_TELE_PSI = 2, /* psi_ns from /proc/pressure/ */
	PROTO_TELE_NIC = 4, /* nic, net_bytes, net_pkts */
};

/*
 * One target's latency over an interval, its reads and writes together
 * (lat.count: its I/Os), for the master's slow-sd test.
 */
struct proto_sd_lat {
	uint32_t target; /* index into the slave's plan targets */
	struct hist_sparse lat;
};

/*
 * One file-system operation other than read and write over an interval,
 * summed over the slave's fwds: operations done, bytes moved (copy),
 * errors, and their latency (lat.count == count).
 */
struct proto_fsop_stat {
	uint32_t op; /* enum proto_fsop, PROTO_FSOP_CREATE or above */
	uint64_t count, bytes, errors;
	struct hist_sparse lat;
};

/* slave -> master: one interval's measurements. Histograms are sparse. */
struct proto_interval {
	uint32_t phase;
	uint32_t seq;      /* interval number in the phase, from 0 */
	uint64_t start_ns; /* master clock */
	uint64_t end_ns;
	uint64_t first_io_ns; /* master-clock time of the phase's first I/O */
	uint64_t ops[2];      /* read, write */
	uint64_t bytes[2];
	uint64_t errors;
	uint64_t cpu_user_ns, cpu_sys_ns;
	uint32_t cores;
	/*
	 * Time its workers were ready to run but waited for a CPU, summed
	 * over them (Linux's schedstat run_delay); 0 when not measured.
	 */
	uint64_t runq_ns;
	/*
	 * Schedule lag of a fixed rate (slave/worker.h): summed over the
	 * I/Os issued on the schedule, their count, and the largest, ns.
	 */
	uint64_t lag_ns, lag_n, lag_max_ns;
	struct hist_sparse lat[2];
	/*
	 * Host telemetry over tele_span_ns (the same two samples as the
	 * devices'): differences of the host's CPU time (user+nice,
	 * system+irq+softirq, iowait, steal, idle), of the PSI "some"
	 * stall totals (cpu, memory, io) and of the named interface's
	 * [0] received and [1] sent bytes and packets. tele says which.
	 */
	uint32_t tele;
	uint64_t tele_span_ns;
	uint64_t host_cpu_ns[5];
	uint64_t psi_ns[3];
	char nic[PROTO_NIC_LEN];
	uint64_t net_bytes[2], net_pkts[2];
	uint32_t ndevs;
	struct proto_dev devs[PROTO_MAX_DEVS];
	/*
	 * The latency of each target of the plan on its own (malloc'd by
	 * decode, at most PROTO_MAX_SD_LATS, targets strictly increasing):
	 * their counts and sums add up to lat's, read and write together.
	 * None from a slave whose plan has more targets than that.
	 */
	uint32_t nsds;
	struct proto_sd_lat *sds;
	/*
	 * A file-system phase's operations other than read and write
	 * (malloc'd by decode, ops strictly increasing, at most
	 * PROTO_FSOP_MAX); none in a block phase.
	 */
	uint32_t nfsops;
	struct proto_fsop_stat *fsops;
};

/* master -> slave: every interval of phase with seq <= this was received. */
struct proto_ack {
	uint32_t phase;
	uint32_t seq;
};

/*
 * master -> slave, in a warmup=steady phase: the warmup was judged steady
 * (or ran to its maximum). The measured window is intervals
 * from..intervals-1: the slave's phase_end latency counts seq >= from, and
 * the phase ends after interval intervals-1 (at most the plan's).
 */
struct proto_measure {
	uint32_t phase;
	uint32_t from;
	uint32_t intervals;
};

/* One sd's data validation counts in a phase_end (4 KiB blocks). */
struct proto_val_sd {
	uint32_t target; /* index into the slave's plan targets */
	uint64_t written, verified, mismatches;
};

/*
 * slave -> master: the phase is over on this slave. val_sds (malloc'd by
 * decode, at most PROTO_MAX_TARGETS, targets strictly increasing) splits
 * val_written, val_verified and val_mismatches per sd and sums to them.
 */
struct proto_phase_end {
	uint32_t phase;
	uint32_t intervals; /* intervals sent */
	uint64_t ops, bytes, errors;
	uint64_t first_io_ns;
	int32_t status; /* 0 ok, -errno if it ended early */
	/* Data validation: blocks written, blocks verified, mismatches. */
	uint64_t val_written, val_verified, val_mismatches;
	uint32_t nval_sds;
	struct proto_val_sd *val_sds;
	/*
	 * Read and write latency over the measured intervals this slave
	 * sent (seq >= the plan's warmup_intervals): the master's per-slave
	 * percentiles, once its own sums of those intervals agree.
	 */
	struct hist_sparse lat[2];
};

struct proto_log {
	uint32_t level; /* enum log_level */
	char message[PROTO_TEXT_LEN];
};

struct proto_text { /* stop, abort, bye */
	char reason[PROTO_TEXT_LEN];
};

struct proto_heartbeat {
	uint64_t now_ns;
};

/*
 * master -> slave, between phases: run an rd's slave-scope startcmd= or
 * endcmd= (a slave started with --allow-commands does; any other answers
 * cmd_end refused). Its output comes back in cmd_out pieces, then
 * cmd_end; one command at a time.
 */
struct proto_cmd {
	uint32_t id;         /* the master's number for it, echoed back */
	uint64_t timeout_ns; /* killed with its process group after this */
	char text[PROTO_CMD_LEN];
};

/* slave -> master: a piece of a command's output, stdout and stderr. */
struct proto_cmd_out {
	uint32_t id;
	char text[PROTO_TEXT_LEN];
};

enum proto_cmd_status {
	PROTO_CMD_EXIT = 0,    /* it exited; code is its exit status */
	PROTO_CMD_SIGNAL = 1,  /* a signal ended it; code is the signal */
	PROTO_CMD_TIMEOUT = 2, /* killed at timeout_ns */
	PROTO_CMD_REFUSED = 3, /* not run: why says why */
	PROTO_CMD_FAILED = 4,  /* could not start; code is -errno */
	PROTO_CMD_STATUS_MAX
};

/* slave -> master: the command is over (or was never run). */
struct proto_cmd_end {
	uint32_t id;
	uint64_t status; /* enum proto_cmd_status (the schema bounds it) */
	int32_t code;
	uint64_t dropped; /* output bytes past what the slave sends */
	char why[PROTO_TEXT_LEN];
};

struct proto_msg {
	enum proto_type type;
	union {
		struct proto_hello hello;
		struct proto_welcome welcome;
		struct proto_ping ping;
		struct proto_pong pong;
		struct proto_plan plan;
		struct proto_ready ready;
		struct proto_error error;
		struct proto_go go;
		struct proto_go_ack go_ack;
		struct proto_interval interval;
		struct proto_ack ack;
		struct proto_phase_end phase_end;
		struct proto_log log;
		struct proto_text stop;
		struct proto_text abort;
		struct proto_heartbeat heartbeat;
		struct proto_text bye;
		struct proto_measure measure;
		struct proto_cmd cmd;
		struct proto_cmd_out cmd_out;
		struct proto_cmd_end cmd_end;
	} u;
};

/* "hello", "welcome", ...; NULL for an unknown type. */
const char *proto_type_name(enum proto_type t);

/*
 * Encode m into a malloc'd buffer (*buf, *len), owned by the caller.
 * Returns 0, -EINVAL for an invalid message (unknown type, counts above
 * the limits), or -ENOMEM.
 */
int proto_encode(const struct proto_msg *m, void **buf, size_t *len);

/*
 * Decode one frame into *m (zeroed first). On success returns 0 and *m may
 * own arrays (free with proto_msg_free). On failure returns -EBADMSG
 * (malformed), -EPROTO (another major version) or -ENOMEM, with a one-line
 * reason in err, and *m owns nothing; m->type is then the frame's type
 * when that much could be read (else 0), and a plan's phase is kept when
 * it was read, so that a refused plan can be answered with an error.
 */
int proto_decode(const void *buf, size_t len, struct proto_msg *m, char *err,
		 size_t errlen);

/* Free what a decoded (or hand-built, malloc'd) message owns; idempotent. */
void proto_msg_free(struct proto_msg *m);

#endif
