/*
 * Target safety: before a lun is opened, decide whether lockstep may use it
 * at all and whether it may write to it, so that a typo in a parameter file
 * never overwrites a mounted file system, the system disk, an LVM PV or a
 * swap device. Probing only reads (stat, /proc, sysfs, a read-only probe by
 * libblkid) and the decision is a pure function of what was probed.
 * Over 800 lines on purpose: every rule about what a lun may be and what
 * the operator allows (--allow) is here, in one room, the pure decision
 * first, so that no path to opening a target skips one.
 */
#include "slave/safety.h"

#include <blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

/* Devices under /, /boot and swap, with the disks and slaves below them. */
#define SYS_MAX 64u
/* dm on dm on md on partitions: deeper stacks than this are not followed. */
#define SLAVE_DEPTH 8
/* Other slaves on this host may hold their own O_EXCL probe for a moment. */
#define EXCL_TRIES 5
#define EXCL_WAIT_NS 20000000L

struct sysdevs {
	unsigned n;
	dev_t dev[SYS_MAX];
	char name[SYS_MAX][SAFETY_NAME_LEN]; /* "" when sysfs did not say */
	const char *what[SYS_MAX];           /* "/", "/boot", "swap" */
};

/* ---- pure decision ---------------------------------------------------- */

static const char *kind_text(enum safety_kind k)
{
	switch (k) {
	case SAFETY_KIND_FIFO:
		return "a FIFO";
	case SAFETY_KIND_SOCKET:
		return "a socket";
	case SAFETY_KIND_CHAR:
		return "a character device (only /dev/null and /dev/zero are)";
	case SAFETY_KIND_DIR:
		return "a directory";
	default:
		return "neither a file nor a block device";
	}
}

static const char *system_text(const char *what)
{
	if (!strcmp(what, "/"))
		return "the root file system";
	if (!strcmp(what, "/boot"))
		return "/boot";
	return "an active swap";
}

/* "holds an ext4 filesystem", from blkid's TYPE/PTTYPE and USAGE. */
static void signature_text(const struct safety_facts *f, char *buf, size_t len)
{
	const char *u = f->usage;

	if (!strcmp(u, "ambivalent"))
		snprintf(buf, len,
			 "holds several signatures (blkid cannot tell which is live)");
	else if (!strcmp(u, "filesystem"))
		snprintf(buf, len, "holds %s %s filesystem",
			 strchr("aeiouAEIOU", f->signature[0]) ? "an" : "a",
			 f->signature);
	else if (!strcmp(u, "partition table"))
		snprintf(buf, len, "holds a %s partition table", f->signature);
	else if (!strcmp(u, "raid"))
		snprintf(buf, len, "is a %s (a RAID or volume manager member)",
			 f->signature);
	else if (!strcmp(u, "crypto"))
		snprintf(buf, len, "holds a %s encryption header",
			 f->signature);
	else
		snprintf(buf, len, "holds a %s signature", f->signature);
}

static int refuse(struct safety_verdict *v, int ret)
{
	v->allowed = 0;
	return ret;
}

static int decide_block(const struct safety_facts *f, const char *path,
			int force, struct safety_verdict *v)
{
	const int own = !strcmp(f->mounted_dev, f->dev_name);
	char sig[160];

	if (f->system[0]) {
		snprintf(v->reason, sizeof(v->reason),
			 "%s: holds %s; lockstep never writes to it, force=yes or not",
			 path, system_text(f->system));
		return refuse(v, -EPERM);
	}
	if (f->mounted_dev[0] && own) {
		snprintf(v->reason, sizeof(v->reason),
			 "%s: mounted on %s; lockstep never writes to a mounted device",
			 path, f->mount_point);
		return refuse(v, -EBUSY);
	}
	if (f->mounted_dev[0]) {
		snprintf(v->reason, sizeof(v->reason),
			 "%s: its partition %s is mounted on %s; lockstep never writes to a mounted device",
			 path, f->mounted_dev, f->mount_point);
		return refuse(v, -EBUSY);
	}
	if (f->holder[0]) {
		if (!strcmp(f->held_dev, f->dev_name))
			snprintf(v->reason, sizeof(v->reason),
				 "%s: held by %s; lockstep never writes to a device in use",
				 path, f->holder);
		else
			snprintf(v->reason, sizeof(v->reason),
				 "%s: its partition %s is held by %s; lockstep never writes to a device in use",
				 path, f->held_dev, f->holder);
		return refuse(v, -EBUSY);
	}
	if (f->busy) {
		snprintf(v->reason, sizeof(v->reason),
			 "%s: claimed by another program (an exclusive open is busy); lockstep never writes to a device in use",
			 path);
		return refuse(v, -EBUSY);
	}
	if (f->probe_error) {
		snprintf(v->reason, sizeof(v->reason),
			 "%s: cannot probe it for signatures (%s); lockstep writes only to devices it could check",
			 path, strerror(-f->probe_error));
		return refuse(v, f->probe_error);
	}
	if (!f->signature[0])
		return 0;
	signature_text(f, sig, sizeof(sig));
	if (!force) {
		snprintf(v->reason, sizeof(v->reason),
			 "%s: %s; force=yes on its sd overwrites it", path,
			 sig);
		return refuse(v, -EPERM);
	}
	v->forced = 1;
	snprintf(v->signature, sizeof(v->signature), "%s", f->signature);
	snprintf(v->reason, sizeof(v->reason),
		 "%s: %s; overwriting it (force=yes)", path, sig);
	return 0;
}

int safety_decide(const struct safety_facts *f, const char *path,
		  int need_write, int force, struct safety_verdict *v)
{
	memset(v, 0, sizeof(*v));
	v->allowed = 1;
	if (f->place == SAFETY_PLACE_PSEUDO) {
		snprintf(v->reason, sizeof(v->reason),
			 "%s: under /proc or /sys; lockstep never uses those as a lun",
			 path);
		return refuse(v, -EPERM);
	}
	switch (f->kind) {
	case SAFETY_KIND_NULLDEV:
		return 0;
	case SAFETY_KIND_BLOCK:
		return need_write ? decide_block(f, path, force, v) : 0;
	case SAFETY_KIND_FILE:
	case SAFETY_KIND_MISSING:
		break;
	default:
		snprintf(v->reason, sizeof(v->reason),
			 "%s: is %s; a lun is a file or a block device", path,
			 kind_text(f->kind));
		return refuse(v, -EINVAL);
	}
	if (f->place == SAFETY_PLACE_DEV && f->kind == SAFETY_KIND_MISSING) {
		snprintf(v->reason, sizeof(v->reason),
			 "%s: does not exist, and lockstep creates files only outside /dev",
			 path);
		return refuse(v, -ENOENT);
	}
	if (f->place == SAFETY_PLACE_DEV) {
		snprintf(v->reason, sizeof(v->reason),
			 "%s: under /dev but not a block device; lockstep uses only block devices, /dev/null and /dev/zero there",
			 path);
		return refuse(v, -EPERM);
	}
	if (need_write && f->system[0]) {
		snprintf(v->reason, sizeof(v->reason),
			 "%s: is %s file; lockstep never writes to it, force=yes or not",
			 path, system_text(f->system));
		return refuse(v, -EPERM);
	}
	if (need_write && f->backs[0]) {
		snprintf(v->reason, sizeof(v->reason),
			 "%s: backs loop device %s, %s; lockstep never writes to a device in use, force=yes or not",
			 path, f->backs, f->backs_use);
		return refuse(v, -EBUSY);
	}
	return 0;
}

/* ---- paths ------------------------------------------------------------ */

/*
 * realpath of path; for a path that does not exist yet, realpath of its
 * nearest existing ancestor with the rest appended. The rest may not hold
 * "." or ".." (they would walk out of what a glob matched), and a dangling
 * symlink is an error: creating through it would create its target.
 */
static int resolve_path(const char *path, char *out, size_t outlen)
{
	char buf[PATH_MAX], tail[PATH_MAX] = "", tmp[PATH_MAX];
	struct stat st;
	int retries = 0;

	if (!path[0])
		return -EINVAL;
	if (strlen(path) >= sizeof(buf))
		return -ENAMETOOLONG;
	snprintf(buf, sizeof(buf), "%s", path);
	for (;;) {
		char *r = realpath(buf, NULL), *slash, *comp;
		size_t n;
		int len;

		if (r) {
			len = snprintf(out, outlen, "%s%s%s", r,
				       tail[0] && strcmp(r, "/") ? "/" : "",
				       tail);
			free(r);
			return len < 0 || (size_t)len >= outlen ?
				       -ENAMETOOLONG :
				       0;
		}
		if (errno != ENOENT)
			return -errno;
		if (lstat(buf, &st) == 0) {
			/*
			 * A dangling symlink; or the path appeared since
			 * realpath looked (another slave on this host creating
			 * the same lun): then look again, a few times.
			 */
			if (S_ISLNK(st.st_mode) || ++retries > 3)
				return -ENOENT;
			continue;
		}
		n = strlen(buf);
		while (n > 1 && buf[n - 1] == '/')
			buf[--n] = 0;
		slash = strrchr(buf, '/');
		comp = slash ? slash + 1 : buf;
		if (!strcmp(comp, ".") || !strcmp(comp, ".."))
			return -EINVAL;
		snprintf(tmp, sizeof(tmp), "%s%s%s", comp, tail[0] ? "/" : "",
			 tail);
		snprintf(tail, sizeof(tail), "%s", tmp);
		if (!slash)
			snprintf(buf, sizeof(buf), ".");
		else if (slash == buf)
			buf[1] = 0;
		else
			*slash = 0;
	}
}

static int under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && (path[n] == 0 || path[n] == '/');
}

static enum safety_place place_of(const char *resolved)
{
	if (under(resolved, "/proc") || under(resolved, "/sys"))
		return SAFETY_PLACE_PSEUDO;
	if (under(resolved, "/dev"))
		return SAFETY_PLACE_DEV;
	return SAFETY_PLACE_PLAIN;
}

/* ---- sysfs ------------------------------------------------------------ */

/* Kernel name of a block device and, for a partition, of its disk. */
static int sysfs_name(dev_t dev, char *name, char *disk)
{
	char link[64], target[PATH_MAX], *base, *parent;
	ssize_t n;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev),
		 minor(dev));
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = 0;
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	snprintf(name, SAFETY_NAME_LEN, "%s", base);
	snprintf(disk, SAFETY_NAME_LEN, "%s", base);
	strncat(link, "/partition", sizeof(link) - strlen(link) - 1);
	if (access(link, F_OK) == 0 && base > target + 1) {
		base[-1] = 0;
		parent = strrchr(target, '/');
		snprintf(disk, SAFETY_NAME_LEN, "%s",
			 parent ? parent + 1 : target);
	}
	return 0;
}

/* The disk of a block device known by kernel name (itself if a disk). */
static void disk_of_name(const char *name, char *disk)
{
	char p[PATH_MAX], *r, *base;

	snprintf(disk, SAFETY_NAME_LEN, "%s", name);
	snprintf(p, sizeof(p), "/sys/class/block/%s/partition", name);
	if (access(p, F_OK) < 0)
		return;
	snprintf(p, sizeof(p), "/sys/class/block/%s/..", name);
	r = realpath(p, NULL);
	if (!r)
		return;
	base = strrchr(r, '/');
	snprintf(disk, SAFETY_NAME_LEN, "%s", base ? base + 1 : r);
	free(r);
}

static void sys_add(struct sysdevs *s, dev_t dev, const char *name,
		    const char *what)
{
	for (unsigned i = 0; i < s->n; i++)
		if (s->dev[i] == dev && !strcmp(s->name[i], name))
			return;
	if (s->n == SYS_MAX)
		return;
	s->dev[s->n] = dev;
	snprintf(s->name[s->n], SAFETY_NAME_LEN, "%s", name);
	s->what[s->n++] = what;
}

/* Add name, its disk and everything below it (slaves), recursively. */
static void sys_add_stack(struct sysdevs *s, const char *name, const char *what,
			  int depth)
{
	char disk[SAFETY_NAME_LEN], p[PATH_MAX];
	struct dirent *de;
	DIR *d;

	sys_add(s, 0, name, what);
	disk_of_name(name, disk);
	sys_add(s, 0, disk, what);
	if (depth >= SLAVE_DEPTH)
		return;
	snprintf(p, sizeof(p), "/sys/class/block/%s/slaves", name);
	d = opendir(p);
	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			sys_add_stack(s, de->d_name, what, depth + 1);
	closedir(d);
}

static void sys_add_dev(struct sysdevs *s, dev_t dev, const char *what)
{
	char name[SAFETY_NAME_LEN], disk[SAFETY_NAME_LEN];

	sys_add(s, dev, "", what);
	if (sysfs_name(dev, name, disk) == 0)
		sys_add_stack(s, name, what, 0);
}

/* ---- /proc ------------------------------------------------------------ */

/* A mount's device: its major:minor, or its source's for major 0 (btrfs). */
static dev_t mount_dev(unsigned maj, unsigned min, const char *line)
{
	char src[PATH_MAX];
	const char *sep = strstr(line, " - ");
	struct stat st;

	if (maj || !sep || sscanf(sep + 3, "%*s %4095s", src) != 1 ||
	    strncmp(src, "/dev/", 5) || stat(src, &st) < 0 ||
	    !S_ISBLK(st.st_mode))
		return makedev(maj, min);
	return st.st_rdev;
}

/*
 * One pass over mountinfo: the devices under / and /boot go to s, and the
 * first mount of dev (or of a partition of it, when it is a disk named
 * name) to f.
 */
static void scan_mounts(dev_t dev, const char *name, int is_disk,
			struct sysdevs *s, struct safety_facts *f)
{
	FILE *fp = fopen("/proc/self/mountinfo", "re");
	char *line = NULL, mp[PATH_MAX];
	char mname[SAFETY_NAME_LEN], mdisk[SAFETY_NAME_LEN];
	size_t cap = 0;
	unsigned maj, min;

	if (!fp)
		return;
	while (getline(&line, &cap, fp) > 0) {
		dev_t md;

		if (sscanf(line, "%*s %*s %u:%u %*s %4095s", &maj, &min, mp) !=
		    3)
			continue;
		md = mount_dev(maj, min, line);
		if (!strcmp(mp, "/"))
			sys_add_dev(s, md, "/");
		else if (!strcmp(mp, "/boot"))
			sys_add_dev(s, md, "/boot");
		if (f->mounted_dev[0] || !dev)
			continue;
		if (md == dev) {
			snprintf(f->mounted_dev, sizeof(f->mounted_dev), "%s",
				 f->dev_name);
		} else if (is_disk && name[0] &&
			   sysfs_name(md, mname, mdisk) == 0 &&
			   !strcmp(mdisk, name) && strcmp(mname, name)) {
			snprintf(f->mounted_dev, sizeof(f->mounted_dev), "%s",
				 mname);
		} else {
			continue;
		}
		snprintf(f->mount_point, sizeof(f->mount_point), "%s", mp);
	}
	free(line);
	fclose(fp);
}

/* Active swaps: a device, or a file (matched by device and inode). */
static void scan_swaps(struct sysdevs *s, const struct stat *target,
		       struct safety_facts *f)
{
	FILE *fp = fopen("/proc/swaps", "re");
	char *line = NULL, fn[PATH_MAX];
	size_t cap = 0;
	struct stat st;

	if (!fp)
		return;
	while (getline(&line, &cap, fp) > 0) {
		if (sscanf(line, "%4095s", fn) != 1 || fn[0] != '/' ||
		    stat(fn, &st) < 0)
			continue;
		if (S_ISBLK(st.st_mode))
			sys_add_dev(s, st.st_rdev, "swap");
		else if (target && st.st_dev == target->st_dev &&
			 st.st_ino == target->st_ino)
			snprintf(f->system, sizeof(f->system), "swap");
	}
	free(line);
	fclose(fp);
}

/* ---- block devices ---------------------------------------------------- */

static void find_holder(const char *name, struct safety_facts *f);

/*
 * The loop device a file backs (matched by device and inode of
 * /sys/block/loopN/loop/backing_file), when it or a partition of it is
 * mounted or held: writing the file would write under that mount.
 */
static void scan_loops(const struct stat *target, struct sysdevs *s,
		       struct safety_facts *f)
{
	DIR *d = opendir("/sys/block");
	struct dirent *de;

	while (d && !f->backs[0] && (de = readdir(d))) {
		struct safety_facts t;
		char p[PATH_MAX], back[PATH_MAX];
		unsigned maj, min;
		struct stat st;
		FILE *fp;
		int ok;

		if (strncmp(de->d_name, "loop", 4))
			continue;
		snprintf(p, sizeof(p), "/sys/block/%s/loop/backing_file",
			 de->d_name);
		fp = fopen(p, "re");
		if (!fp)
			continue;
		ok = fgets(back, sizeof(back), fp) != NULL;
		fclose(fp);
		back[strcspn(back, "\n")] = 0;
		if (!ok || stat(back, &st) < 0 || st.st_dev != target->st_dev ||
		    st.st_ino != target->st_ino)
			continue;
		snprintf(p, sizeof(p), "/sys/block/%s/dev", de->d_name);
		fp = fopen(p, "re");
		ok = fp && fscanf(fp, "%u:%u", &maj, &min) == 2;
		if (fp)
			fclose(fp);
		if (!ok)
			continue;
		memset(&t, 0, sizeof(t));
		snprintf(t.dev_name, sizeof(t.dev_name), "%s", de->d_name);
		scan_mounts(makedev(maj, min), t.dev_name, 1, s, &t);
		find_holder(t.dev_name, &t);
		if (t.mounted_dev[0] && strcmp(t.mounted_dev, t.dev_name))
			snprintf(f->backs_use, sizeof(f->backs_use),
				 "whose partition %s is mounted on %s",
				 t.mounted_dev, t.mount_point);
		else if (t.mounted_dev[0])
			snprintf(f->backs_use, sizeof(f->backs_use),
				 "mounted on %s", t.mount_point);
		else if (t.holder[0])
			snprintf(f->backs_use, sizeof(f->backs_use),
				 "held by %s", t.holder);
		else
			continue;
		snprintf(f->backs, sizeof(f->backs), "%s", t.dev_name);
	}
	if (d)
		closedir(d);
}

/* The first holder of any of name's partitions (name is a disk). */
static void find_holder(const char *name, struct safety_facts *f)
{
	char p[PATH_MAX];
	struct dirent *de, *he;
	DIR *d, *h;

	snprintf(p, sizeof(p), "/sys/class/block/%s/holders", name);
	h = opendir(p);
	if (h) {
		while ((he = readdir(h)) && !f->holder[0])
			if (he->d_name[0] != '.') {
				snprintf(f->holder, sizeof(f->holder), "%s",
					 he->d_name);
				snprintf(f->held_dev, sizeof(f->held_dev), "%s",
					 name);
			}
		closedir(h);
	}
	if (f->holder[0] || strcmp(name, f->dev_name))
		return;
	snprintf(p, sizeof(p), "/sys/class/block/%s", name);
	d = opendir(p);
	if (!d)
		return;
	while ((de = readdir(d)) && !f->holder[0]) {
		char part[PATH_MAX];

		snprintf(part, sizeof(part), "%s/%s/partition", p, de->d_name);
		if (de->d_name[0] != '.' && access(part, F_OK) == 0)
			find_holder(de->d_name, f);
	}
	closedir(d);
}

/*
 * The kernel's own view: an exclusive open fails with EBUSY while the
 * device is mounted or claimed (md, dm, another program's O_EXCL). Another
 * slave's probe may hold it for a moment, so a busy answer is asked again.
 */
static int probe_exclusive(const char *path)
{
	const struct timespec wait = { 0, EXCL_WAIT_NS };

	for (int i = 0; i < EXCL_TRIES; i++) {
		int fd = open(path, O_RDONLY | O_EXCL | O_NONBLOCK | O_CLOEXEC);

		if (fd >= 0) {
			close(fd);
			return 0;
		}
		if (errno != EBUSY)
			return 0; /* not our question: the open will tell */
		nanosleep(&wait, NULL);
	}
	return 1;
}

static void probe_signature(const char *path, struct safety_facts *f)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	const char *val = NULL;
	blkid_probe pr;
	int rc;

	if (fd < 0) {
		f->probe_error = -errno;
		return;
	}
	pr = blkid_new_probe();
	if (!pr) {
		f->probe_error = -ENOMEM;
		goto out;
	}
	if (blkid_probe_set_device(pr, fd, 0, 0) < 0) {
		f->probe_error = -EIO;
		goto out;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE |
						      BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, 1);
	rc = blkid_do_safeprobe(pr);
	if (rc == -2) {
		snprintf(f->signature, sizeof(f->signature), "ambivalent");
		snprintf(f->usage, sizeof(f->usage), "ambivalent");
	} else if (rc < 0) {
		f->probe_error = -EIO;
	} else if (rc == 0 &&
		   blkid_probe_lookup_value(pr, "TYPE", &val, NULL) == 0) {
		snprintf(f->signature, sizeof(f->signature), "%s", val);
		if (blkid_probe_lookup_value(pr, "USAGE", &val, NULL) == 0)
			snprintf(f->usage, sizeof(f->usage), "%s", val);
		else
			snprintf(f->usage, sizeof(f->usage), "other");
	} else if (rc == 0 &&
		   blkid_probe_lookup_value(pr, "PTTYPE", &val, NULL) == 0) {
		snprintf(f->signature, sizeof(f->signature), "%s", val);
		snprintf(f->usage, sizeof(f->usage), "partition table");
	}
out:
	blkid_free_probe(pr);
	close(fd);
}

/* Whether dev is, or lies in, a device under /, /boot or swap. */
static void match_system(const struct sysdevs *s, dev_t dev,
			 struct safety_facts *f)
{
	for (unsigned i = 0; i < s->n && !f->system[0]; i++)
		if ((s->dev[i] && s->dev[i] == dev) ||
		    (s->name[i][0] && f->dev_name[0] &&
		     !strcmp(s->name[i], f->dev_name)))
			snprintf(f->system, sizeof(f->system), "%s",
				 s->what[i]);
}

/* deep: also the checks that only matter for writing (blkid, O_EXCL). */
static int probe_path(const char *path, int deep, struct safety_facts *f)
{
	char resolved[PATH_MAX], disk[SAFETY_NAME_LEN];
	struct sysdevs *s;
	struct stat st;
	int ret, known;

	memset(f, 0, sizeof(*f));
	ret = resolve_path(path, resolved, sizeof(resolved));
	if (ret < 0)
		return ret;
	f->place = place_of(resolved);
	if (stat(path, &st) < 0) {
		if (errno != ENOENT)
			return -errno;
		f->kind = SAFETY_KIND_MISSING;
		return 0;
	}
	if (S_ISREG(st.st_mode))
		f->kind = SAFETY_KIND_FILE;
	else if (S_ISBLK(st.st_mode))
		f->kind = SAFETY_KIND_BLOCK;
	else if (S_ISCHR(st.st_mode) && major(st.st_rdev) == 1 &&
		 (minor(st.st_rdev) == 3 || minor(st.st_rdev) == 5))
		f->kind = SAFETY_KIND_NULLDEV;
	else if (S_ISCHR(st.st_mode))
		f->kind = SAFETY_KIND_CHAR;
	else if (S_ISFIFO(st.st_mode))
		f->kind = SAFETY_KIND_FIFO;
	else if (S_ISSOCK(st.st_mode))
		f->kind = SAFETY_KIND_SOCKET;
	else if (S_ISDIR(st.st_mode))
		f->kind = SAFETY_KIND_DIR;
	else
		f->kind = SAFETY_KIND_OTHER;
	if (!deep ||
	    (f->kind != SAFETY_KIND_FILE && f->kind != SAFETY_KIND_BLOCK) ||
	    f->place == SAFETY_PLACE_PSEUDO)
		return 0;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	if (f->kind == SAFETY_KIND_FILE) {
		scan_swaps(s, &st, f);
		scan_loops(&st, s, f);
		free(s);
		return 0;
	}
	known = sysfs_name(st.st_rdev, f->dev_name, disk) == 0;
	if (!known) {
		/* No sysfs: name it for the messages; matching is by number. */
		const char *base = strrchr(resolved, '/');

		snprintf(f->dev_name, sizeof(f->dev_name), "%s", base + 1);
		disk[0] = 0;
	}
	scan_mounts(st.st_rdev, known ? f->dev_name : "",
		    known && !strcmp(f->dev_name, disk), s, f);
	scan_swaps(s, NULL, f);
	match_system(s, st.st_rdev, f);
	free(s);
	if (known)
		find_holder(f->dev_name, f);
	f->busy = probe_exclusive(path);
	probe_signature(path, f);
	return 0;
}

int safety_probe(const char *path, struct safety_facts *f)
{
	return probe_path(path, 1, f);
}

int safety_check_target(const char *path, int need_write, int force,
			struct safety_verdict *v)
{
	struct safety_facts f;
	int ret = probe_path(path, need_write, &f);

	if (ret < 0) {
		memset(v, 0, sizeof(*v));
		snprintf(v->reason, sizeof(v->reason),
			 "%s: cannot check it: %s%s", path, strerror(-ret),
			 ret == -ENOENT ? " (a dangling symlink?)" : "");
		return ret;
	}
	return safety_decide(&f, path, need_write, force, v);
}

/* ---- room ------------------------------------------------------------- */

int safety_check_room(const char *path, uint64_t size, char *reason,
		      size_t reasonlen)
{
	char dir[PATH_MAX];
	uint64_t have = 0, avail;
	struct statvfs sv;
	struct stat st;

	if (strlen(path) >= sizeof(dir))
		return -ENAMETOOLONG;
	snprintf(dir, sizeof(dir), "%s", path);
	if (stat(path, &st) == 0) {
		if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size >= size)
			return 0;
		have = (uint64_t)st.st_size;
	} else if (errno != ENOENT) {
		return -errno;
	} else {
		do {
			char *slash = strrchr(dir, '/');

			if (!slash)
				snprintf(dir, sizeof(dir), ".");
			else if (slash == dir)
				dir[1] = 0;
			else
				*slash = 0;
		} while (stat(dir, &st) < 0 && errno == ENOENT &&
			 strcmp(dir, "/") && strcmp(dir, "."));
	}
	if (statvfs(dir, &sv) < 0)
		return -errno;
	if (__builtin_mul_overflow((uint64_t)sv.f_bavail, (uint64_t)sv.f_frsize,
				   &avail))
		avail = UINT64_MAX;
	if (avail >= size - have)
		return 0;
	snprintf(reason, reasonlen,
		 "%s: needs %llu more bytes to reach size=%llu, its file system has %llu available",
		 path, (unsigned long long)(size - have),
		 (unsigned long long)size, (unsigned long long)avail);
	return -ENOSPC;
}

/* ---- allowlist -------------------------------------------------------- */

int safety_allow_parse(const char *list, struct safety_allow *a, char *err,
		       size_t errlen)
{
	size_t total = strnlen(list, SAFETY_ALLOW_LIST_LEN + 1);
	const char *p = list;

	memset(a, 0, sizeof(*a));
	if (total > SAFETY_ALLOW_LIST_LEN) {
		snprintf(err, errlen, "--allow: the list is over %u bytes",
			 SAFETY_ALLOW_LIST_LEN);
		return -EINVAL;
	}
	if (!total) {
		snprintf(err, errlen, "--allow: the list is empty");
		return -EINVAL;
	}
	for (unsigned i = 1;; i++) {
		size_t n = strcspn(p, ",");

		if (a->n == SAFETY_ALLOW_MAX) {
			snprintf(err, errlen, "--allow: more than %u globs",
				 SAFETY_ALLOW_MAX);
			goto bad;
		}
		if (!n) {
			snprintf(err, errlen, "--allow: glob %u is empty", i);
			goto bad;
		}
		if (n >= SAFETY_GLOB_LEN) {
			snprintf(err, errlen,
				 "--allow: glob %u is over %u bytes", i,
				 SAFETY_GLOB_LEN - 1);
			goto bad;
		}
		if (p[0] != '/') {
			snprintf(err, errlen,
				 "--allow: glob %u (%.*s) is not an absolute path",
				 i, (int)(n < 64 ? n : 64), p);
			goto bad;
		}
		for (size_t k = 0; k < n; k++)
			if ((unsigned char)p[k] < 0x20 || p[k] == 0x7f) {
				snprintf(err, errlen,
					 "--allow: glob %u has a control character at byte %zu",
					 i, k + 1);
				goto bad;
			}
		memcpy(a->glob[a->n++], p, n);
		if (!p[n])
			return 0;
		p += n + 1;
	}
bad:
	memset(a, 0, sizeof(*a));
	return -EINVAL;
}

int safety_allow_add_list(struct safety_allow *a, const char *list, char *err,
			  size_t errlen)
{
	struct safety_allow *one = malloc(sizeof(*one));
	int ret;

	if (!one) {
		snprintf(err, errlen, "--allow: out of memory");
		return -ENOMEM;
	}
	ret = safety_allow_parse(list, one, err, errlen);
	if (ret == 0 && a->n + one->n > SAFETY_ALLOW_CAP) {
		snprintf(err, errlen, "--allow: more than %u entries in all",
			 SAFETY_ALLOW_CAP);
		ret = -EINVAL;
	}
	for (unsigned i = 0; ret == 0 && i < one->n; i++) {
		memcpy(a->glob[a->n], one->glob[i], SAFETY_GLOB_LEN);
		a->literal[a->n++] = 0;
	}
	free(one);
	return ret;
}

int safety_allow_add_path(struct safety_allow *a, const char *path, char *err,
			  size_t errlen)
{
	char resolved[PATH_MAX];
	int ret;

	if (a->n >= SAFETY_ALLOW_CAP) {
		snprintf(err, errlen,
			 "--allow-path: more than %u entries in all",
			 SAFETY_ALLOW_CAP);
		return -EINVAL;
	}
	ret = resolve_path(path, resolved, sizeof(resolved));
	if (ret < 0) {
		snprintf(err, errlen,
			 "--allow-path %.200s: cannot resolve it: %s", path,
			 strerror(-ret));
		return ret;
	}
	if (strlen(resolved) >= SAFETY_GLOB_LEN) {
		snprintf(err, errlen,
			 "--allow-path %.200s: resolves to a path over %u bytes",
			 path, SAFETY_GLOB_LEN - 1);
		return -ENAMETOOLONG;
	}
	snprintf(a->glob[a->n], SAFETY_GLOB_LEN, "%s", resolved);
	a->literal[a->n++] = 1;
	return 0;
}

int safety_allow_match(const struct safety_allow *a, const char *resolved)
{
	for (unsigned i = 0; i < a->n && i < SAFETY_ALLOW_CAP; i++) {
		if (a->literal[i] ?
			    !strcmp(a->glob[i], resolved) :
			    fnmatch(a->glob[i], resolved, FNM_PATHNAME) == 0)
			return 1;
	}
	return 0;
}

int safety_allow_check(const struct safety_allow *a, const char *path,
		       struct safety_verdict *v)
{
	char resolved[PATH_MAX];
	int ret;

	memset(v, 0, sizeof(*v));
	ret = resolve_path(path, resolved, sizeof(resolved));
	if (ret < 0) {
		snprintf(v->reason, sizeof(v->reason),
			 "%s: cannot resolve it to match --allow: %s", path,
			 strerror(-ret));
		return ret;
	}
	if (safety_allow_match(a, resolved)) {
		v->allowed = 1;
		return 0;
	}
	if (strcmp(resolved, path))
		snprintf(v->reason, sizeof(v->reason),
			 "%s: resolves to %s, which no --allow glob matches",
			 path, resolved);
	else
		snprintf(v->reason, sizeof(v->reason),
			 "%s: no --allow glob matches it", path);
	return -EPERM;
}
