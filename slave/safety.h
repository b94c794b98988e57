/*
 * Target safety: the slave runs as root on storage hosts, and it must never
 * destroy what nobody asked it to. Before a lun is opened, this module says
 * whether it may be: a block device that is mounted, held by another device
 * (a partition, device-mapper, LVM, md, dm-crypt) or claimed exclusively is
 * never written; the disk under /, /boot or an active swap is never written;
 * a device carrying a signature (file system, partition table, LVM PV, RAID
 * member, swap, LUKS) is written only with force=yes on its sd, and the
 * verdict names what is overwritten so the master can report it. FIFOs,
 * sockets, character devices other than /dev/null and /dev/zero, and paths
 * under /proc, /sys or (unless a block device) /dev are refused for reads
 * too. An allowlist of globs (--allow) limits targets to named paths.
 *
 * The decision is pure (safety_decide, from struct safety_facts); probing
 * (safety_probe) only reads: stat, sysfs, /proc, libblkid on a read-only
 * descriptor. Nothing here ever writes to a target.
 */
#ifndef LOCKSTEP_SLAVE_SAFETY_H
#define LOCKSTEP_SLAVE_SAFETY_H

#include <stddef.h>
#include <stdint.h>

/* Bounds on --allow: globs in the list, bytes in one glob, the whole list. */
#define SAFETY_ALLOW_MAX 64u
/* Entries in one allowlist: repeated --allow lists and --allow-path. */
#define SAFETY_ALLOW_CAP 1024u
#define SAFETY_GLOB_LEN 256u
#define SAFETY_ALLOW_LIST_LEN 4096u

#define SAFETY_NAME_LEN 64u
#define SAFETY_REASON_LEN 256u

/* What the path is, from stat (never from opening anything but a file). */
enum safety_kind {
	SAFETY_KIND_MISSING, /* does not exist: may be created */
	SAFETY_KIND_FILE,    /* regular file */
	SAFETY_KIND_BLOCK,   /* block device */
	SAFETY_KIND_NULLDEV, /* /dev/null or /dev/zero (by device number) */
	SAFETY_KIND_CHAR,    /* any other character device */
	SAFETY_KIND_FIFO,
	SAFETY_KIND_SOCKET,
	SAFETY_KIND_DIR,
	SAFETY_KIND_OTHER,
};

/* Where a path lies, after symlinks are resolved. */
enum safety_place {
	SAFETY_PLACE_PLAIN,  /* anywhere else */
	SAFETY_PLACE_PSEUDO, /* under /proc or /sys */
	SAFETY_PLACE_DEV,    /* under /dev */
};

/*
 * Everything safety_decide needs to know about a target, as gathered by
 * safety_probe (or written by hand in a test). Strings are empty when the
 * fact does not hold.
 */
struct safety_facts {
	enum safety_kind kind;
	enum safety_place place;
	char dev_name[SAFETY_NAME_LEN]; /* kernel name of a block device */
	/* Holds /, /boot or an active swap (or is a disk or slave below). */
	char system[SAFETY_NAME_LEN]; /* "/", "/boot", "swap" */
	/* The device, or one of its partitions, is mounted. */
	char mounted_dev[SAFETY_NAME_LEN]; /* kernel name, e.g. "loop3p1" */
	char mount_point[SAFETY_NAME_LEN * 2];
	/* The device, or one of its partitions, has a holder. */
	char held_dev[SAFETY_NAME_LEN]; /* kernel name of the held one */
	char holder[SAFETY_NAME_LEN];   /* e.g. "dm-0", "md127" */
	int busy; /* open(O_EXCL) said EBUSY: claimed by someone */
	/*
	 * A file: the loop device it backs when that device (or one of its
	 * partitions) is mounted or held, and where or by what.
	 */
	char backs[SAFETY_NAME_LEN];
	char backs_use[SAFETY_NAME_LEN * 2];
	/* blkid: TYPE or PTTYPE, and what it is ("filesystem", "partition
	 * table", "raid", "crypto", "other"); "ambivalent" if several. */
	char signature[32];
	char usage[32];
	int probe_error; /* -errno when the device could not be probed */
};

/*
 * The answer for one target. allowed is 1 when the caller may open it as
 * asked; forced is 1 when that is only because of force=yes, and signature
 * then names what will be overwritten (e.g. "ext4", "gpt", "swap",
 * "LVM2_member", "crypto_LUKS", "linux_raid_member"). reason is one line
 * for people: why it is refused, or what force overwrites; empty when there
 * is nothing to say.
 */
struct safety_verdict {
	int allowed;
	int forced;
	char signature[32];
	char reason[SAFETY_REASON_LEN];
};

/*
 * A parsed --allow list. Zeroed, it is the empty allowlist, which allows
 * nothing: the caller decides what "no --allow given" means. An entry is a
 * glob, or (literal[i], from --allow-path) one resolved path compared as a
 * string, so that a lun holding '*', '?', '[' or ',' names only itself.
 * About 256 KiB: allocate it.
 */
struct safety_allow {
	unsigned n;
	char glob[SAFETY_ALLOW_CAP][SAFETY_GLOB_LEN];
	unsigned char literal[SAFETY_ALLOW_CAP];
};

/*
 * Decide from facts alone (pure). path is only used in the message.
 * Returns 0 when allowed, -EPERM (never allowed, or signature without
 * force), -EBUSY (mounted, held, claimed) or -EINVAL (not a kind of target
 * lockstep uses); v is always filled.
 */
int safety_decide(const struct safety_facts *f, const char *path,
		  int need_write, int force, struct safety_verdict *v);

/*
 * Gather the facts about path. Reads only; never blocks on a FIFO (it is
 * classified by stat and never opened). Returns 0, or -errno when path
 * cannot even be stat'ed (other than ENOENT, which is SAFETY_KIND_MISSING).
 * Signature and holders are only probed for block devices; a failed blkid
 * probe is recorded in f->probe_error, not returned.
 */
int safety_probe(const char *path, struct safety_facts *f);

/*
 * The one call before opening a lun: probe, then decide. need_write is 1
 * when the target will be opened for writing (any wd with rdpct < 100, or
 * a fill); force is the sd's force=yes. Returns as safety_decide, or the
 * probe's -errno with v->reason saying so.
 */
int safety_check_target(const char *path, int need_write, int force,
			struct safety_verdict *v);

/*
 * Whether the file system that holds (or will hold) path has room to grow
 * it to size bytes. For an existing file only the growth is counted; for a
 * missing one the nearest existing ancestor directory is asked (statvfs,
 * blocks available to unprivileged users). A path that exists and is not a
 * regular file has nothing to grow: 0. Returns 0, -ENOSPC with reason
 * giving both numbers, or -errno.
 */
int safety_check_room(const char *path, uint64_t size, char *reason,
		      size_t reasonlen);

/*
 * Parse "GLOB[,GLOB...]" (the slave's --allow) into a. Globs must be
 * absolute, non-empty, without control characters, at most
 * SAFETY_GLOB_LEN - 1 bytes, at most SAFETY_ALLOW_MAX of them, and the
 * list at most SAFETY_ALLOW_LIST_LEN bytes. Returns 0 or -EINVAL with err
 * saying which glob and why; a is then empty.
 */
int safety_allow_parse(const char *list, struct safety_allow *a, char *err,
		       size_t errlen);

/*
 * Append the globs of list (as safety_allow_parse) to a: --allow may be
 * given more than once. Returns 0 or -EINVAL with err (a is unchanged).
 */
int safety_allow_add_list(struct safety_allow *a, const char *list, char *err,
			  size_t errlen);

/*
 * Append one path, taken literally (no glob characters, no comma lists):
 * resolved now as safety_allow_check resolves a target (symlinks, a
 * relative path against the working directory, a missing file through its
 * nearest existing ancestor) and then matched by string equality. This is
 * what the master gives the slaves it starts (--allow-path LUN, one per
 * lun of the parameter file). Returns 0 or -errno with err.
 */
int safety_allow_add_path(struct safety_allow *a, const char *path, char *err,
			  size_t errlen);

/* Whether an already resolved absolute path matches an entry (pure). */
int safety_allow_match(const struct safety_allow *a, const char *resolved);

/*
 * Whether path is allowed: symlinks resolved (realpath; for a path that
 * does not exist yet, its nearest existing ancestor, with no "." or ".."
 * below it), then matched with fnmatch(FNM_PATHNAME). Returns 0 when
 * allowed, -EPERM with v->reason naming the resolved path, or -errno.
 */
int safety_allow_check(const struct safety_allow *a, const char *path,
		       struct safety_verdict *v);

#endif
