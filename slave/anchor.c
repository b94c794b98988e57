/*
 * An fsd= anchor on the slave (see anchor.h): its marker, the walks that
 * look at its tree (a foreign entry refused, no link followed) and its
 * clean, with every path resolved beneath the anchor and no symbolic link
 * followed. The format is anchor_format.c, on these rules (anchor_int.h).
 */
#include "slave/anchor.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/timeutil.h"
#include "slave/anchor_int.h"

/* The marker is small; a larger one is not ours. */
#define ANCHOR_MARKER_MAX 4096

/* 1 the marker matches shape, 0 there is none, -ESTALE it differs. */
static int marker_read(int dirfd, const struct fstree_shape *shape)
{
	char want[ANCHOR_MARKER_MAX], got[ANCHOR_MARKER_MAX + 1];
	ssize_t n;
	size_t at = 0;
	int fd, len;

	len = fstree_marker_text(shape, want, sizeof(want));
	if (len < 0)
		return len;
	fd = anchor_openat(dirfd, FSTREE_MARKER, O_RDONLY, 0);
	if (fd == -ENOENT)
		return 0;
	if (fd < 0)
		return fd;
	while (at < sizeof(got) - 1 &&
	       (n = read(fd, got + at, sizeof(got) - 1 - at)) > 0)
		at += (size_t)n;
	close(fd);
	return at == (size_t)len && !memcmp(got, want, at) ? 1 : -ESTALE;
}

int anchor_marker(int dirfd, const struct fstree_shape *shape)
{
	return marker_read(dirfd, shape);
}

int anchor_marker_write(int dirfd, const struct fstree_shape *shape)
{
	char text[ANCHOR_MARKER_MAX];
	int fd, len, ret = 0;

	len = fstree_marker_text(shape, text, sizeof(text));
	if (len < 0)
		return len;
	fd = anchor_openat(dirfd, FSTREE_MARKER, O_WRONLY | O_CREAT | O_TRUNC,
			   0644);
	if (fd < 0)
		return fd;
	if (write(fd, text, (size_t)len) != len)
		ret = errno ? -errno : -EIO;
	if (!ret && fsync(fd))
		ret = -errno;
	close(fd);
	return ret;
}

/* A stream over the folder fd (a duplicate, from its top), or NULL. */
static DIR *dir_stream(int fd, int *ret)
{
	int dfd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	DIR *d;

	if (dfd < 0) {
		*ret = -errno;
		return NULL;
	}
	d = fdopendir(dfd);
	if (!d) {
		*ret = -errno;
		close(dfd);
		return NULL;
	}
	/* A duplicate shares the offset: start from the top. */
	rewinddir(d);
	return d;
}

/* A walk's state: the first foreign entry and how many there are. */
struct scan {
	const struct fstree_shape *shape;
	char first[FSTREE_PATH_MAX];
	uint64_t foreign;
	uint64_t ours, ours_files; /* the tree's entries, and its files */
	int remove;  /* 0 look, 1 remove, 2 only folders that are empty */
	int gone_ok; /* shared=yes: an entry another slave removed, skipped */
	struct anchor_stats *st;
	char *err;
	size_t errlen;
};

static void note_foreign(struct scan *s, const char *rel, const char *why)
{
	if (!s->foreign++)
		snprintf(s->first, sizeof(s->first), "%s (%s)", rel, why);
}

/*
 * Look at (or remove) the tree under fd, the folder rel at level. Names
 * the tree does not have are counted, never removed; a folder of the tree
 * is entered with O_NOFOLLOW. Returns 0 or -errno.
 */
static int scan_dir(struct scan *s, int fd, const char *rel, uint32_t level)
{
	char path[FSTREE_PATH_MAX];
	struct dirent *de;
	struct stat st;
	DIR *d;
	int ret = 0;

	d = dir_stream(fd, &ret);
	if (!d)
		return ret;
	while (!ret && (errno = 0, de = readdir(d))) {
		const char *name = de->d_name;
		enum fstree_name kind;

		if (!strcmp(name, ".") || !strcmp(name, ".."))
			continue;
		if (level == 0 && !strcmp(name, FSTREE_MARKER))
			continue;
		snprintf(path, sizeof(path), "%s%s%s", rel, *rel ? "/" : "",
			 name);
		if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW)) {
			if (s->gone_ok && errno == ENOENT)
				continue;
			ret = -errno;
			snprintf(s->err, s->errlen, "%s: %s", path,
				 strerror(-ret));
			break;
		}
		kind = fstree_name_kind(s->shape, level, name);
		if (kind == FSTREE_NAME_FOREIGN) {
			note_foreign(s, path, "not a name of this tree");
		} else if (S_ISLNK(st.st_mode)) {
			note_foreign(s, path, "a symbolic link");
		} else if (kind == FSTREE_NAME_FILE && !S_ISREG(st.st_mode)) {
			note_foreign(s, path, "not a regular file");
		} else if (kind == FSTREE_NAME_DIR && !S_ISDIR(st.st_mode)) {
			note_foreign(s, path, "not a folder");
		} else if (kind == FSTREE_NAME_FILE) {
			uint64_t t0 = time_mono_ns();

			s->ours++;
			s->ours_files++;
			if (s->remove == 2)
				continue;
			if (s->remove && anchor_stopped(s->st)) {
				ret = -ECANCELED;
			} else if (s->remove && unlinkat(fd, name, 0)) {
				ret = -errno;
				anchor_note(s->st, ANCHOR_EV_DELETE, t0, 0,
					    ret);
				snprintf(s->err, s->errlen, "%s: %s", path,
					 strerror(-ret));
			} else if (s->remove && s->st) {
				s->st->files_removed++;
				anchor_note(s->st, ANCHOR_EV_DELETE, t0, 0, 0);
			}
		} else {
			int sub = openat(fd, name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
						 O_CLOEXEC);

			s->ours++;
			if (sub < 0 && s->gone_ok && errno == ENOENT)
				continue;
			if (sub < 0) {
				ret = -errno;
				snprintf(s->err, s->errlen, "%s: %s", path,
					 strerror(-ret));
				break;
			}
			ret = scan_dir(s, sub, path, level + 1);
			close(sub);
			if (!ret && s->remove) {
				uint64_t t0 = time_mono_ns();
				int r = unlinkat(fd, name, AT_REMOVEDIR) ?
						-errno :
						0;

				if (s->remove == 2 &&
				    (r == -ENOTEMPTY || r == -ENOENT)) {
					/* Another's entries, or its rmdir. */
				} else if (r) {
					ret = r;
					anchor_note(s->st, ANCHOR_EV_RMDIR, t0,
						    0, ret);
					snprintf(s->err, s->errlen, "%s: %s",
						 path, strerror(-ret));
				} else if (s->st) {
					s->st->dirs_removed++;
					anchor_note(s->st, ANCHOR_EV_RMDIR, t0,
						    0, 0);
				}
			}
		}
	}
	if (!ret && errno)
		ret = -errno;
	closedir(d);
	return ret;
}

/* The anchor's foreign entries; 0 with s->foreign set, or -errno. */
static int scan_tree(struct scan *s, int dirfd)
{
	s->foreign = 0;
	s->ours = 0;
	s->ours_files = 0;
	s->first[0] = '\0';
	s->remove = 0;
	return scan_dir(s, dirfd, "", 0);
}

/* 1 with the anchor's first entry's name in buf, 0 if empty, or -errno. */
int anchor_first_entry(int dirfd, char *buf, size_t len)
{
	struct dirent *de;
	DIR *d;
	int ret = 0;

	d = dir_stream(dirfd, &ret);
	if (!d)
		return ret;
	while ((errno = 0, de = readdir(d))) {
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			snprintf(buf, len, "%s", de->d_name);
			ret = 1;
			break;
		}
	}
	if (!de && errno)
		ret = -errno;
	closedir(d);
	return ret;
}

/*
 * 0 when the anchor holds nothing but the tree; -ENOTEMPTY with a
 * sentence naming the first foreign entry and ending in tail; or -errno.
 */
static int refuse_foreign(struct scan *s, int dirfd, const char *path,
			  const char *tail)
{
	int ret = scan_tree(s, dirfd);

	if (ret || !s->foreign)
		return ret;
	snprintf(s->err, s->errlen,
		 "anchor=%s holds %llu entr%s lockstep did not make, first "
		 "%s; %s",
		 path, (unsigned long long)s->foreign,
		 s->foreign == 1 ? "y" : "ies", s->first, tail);
	return -ENOTEMPTY;
}

int anchor_refuse_foreign(int dirfd, const char *path,
			  const struct fstree_shape *shape, const char *tail,
			  char *err, size_t errlen)
{
	struct scan s = { .shape = shape, .err = err, .errlen = errlen };

	return refuse_foreign(&s, dirfd, path, tail);
}

int anchor_remove_tree(int dirfd, const char *path,
		       const struct fstree_shape *shape,
		       struct anchor_stats *st, char *err, size_t errlen)
{
	struct scan s = {
		.shape = shape, .st = st, .err = err, .errlen = errlen
	};
	int ret = refuse_foreign(&s, dirfd, path, "nothing was removed");

	if (ret)
		return ret;
	s.remove = 1;
	ret = scan_dir(&s, dirfd, "", 0);
	if (ret && !(err && *err))
		snprintf(err, errlen, "anchor=%s: %s", path, strerror(-ret));
	return ret;
}

static int clean_shared(int dirfd, const char *path,
			const struct fstree_shape *shape,
			struct anchor_stats *st, char *err, size_t errlen);

/* The error of a marker that differs (-ESTALE) or cannot be read. */
int anchor_marker_refused(const char *path, int ret, char *err, size_t errlen)
{
	if (ret == -ESTALE)
		snprintf(err, errlen,
			 "anchor=%s: its %s describes another tree (depth, "
			 "width, files, distribution, seed or sizes differ); "
			 "clean it with the fsd= that formatted it",
			 path, FSTREE_MARKER);
	else
		snprintf(err, errlen, "anchor=%s: %s: %s", path, FSTREE_MARKER,
			 anchor_why(ret));
	return ret;
}

/* The marker, removed last. */
static int marker_remove(int dirfd, const char *path, char *err, size_t errlen)
{
	int ret = 0;

	if (unlinkat(dirfd, FSTREE_MARKER, 0)) {
		ret = -errno;
		snprintf(err, errlen, "anchor=%s: %s: %s", path, FSTREE_MARKER,
			 strerror(-ret));
	}
	return ret;
}

static int no_marker(const char *path, char *err, size_t errlen)
{
	snprintf(err, errlen,
		 "anchor=%s has no %s: lockstep cleans only an anchor it "
		 "formatted",
		 path, FSTREE_MARKER);
	return -EPERM;
}

int anchor_clean(int dirfd, const char *path, const struct fstree_shape *shape,
		 struct anchor_stats *st, char *err, size_t errlen)
{
	int ret;

	if (err && errlen)
		err[0] = '\0';
	if (anchor_shared(st))
		return clean_shared(dirfd, path, shape, st, err, errlen);
	ret = marker_read(dirfd, shape);
	if (ret == 0)
		return no_marker(path, err, errlen);
	if (ret < 0)
		return anchor_marker_refused(path, ret, err, errlen);
	ret = anchor_remove_tree(dirfd, path, shape, st, err, errlen);
	if (ret)
		return ret;
	return marker_remove(dirfd, path, err, errlen);
}

/* Split rel into its folder (NULL for the anchor) and last name. */
int anchor_open_parent(int dirfd, const char *rel, const char **last)
{
	char dir[FSTREE_PATH_MAX];
	const char *slash = strrchr(rel, '/');

	if (!slash) {
		int fd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);

		*last = rel;
		return fd < 0 ? -errno : fd;
	}
	*last = slash + 1;
	memcpy(dir, rel, (size_t)(slash - rel));
	dir[slash - rel] = '\0';
	return anchor_openat(dirfd, dir, O_RDONLY | O_DIRECTORY, 0);
}

const char *anchor_why(int ret)
{
	switch (ret) {
	case -ELOOP:
		return "a symbolic link is on its path; lockstep follows none";
	case -EXDEV:
		return "it would leave the anchor";
	case -EFBIG:
		return "it is larger than the tree says; format=yes or clean";
	case -ENOTDIR:
		return "it exists and is not a folder";
	case -EINVAL:
		return "it exists and is not a regular file";
	case -ECANCELED:
		return "the phase was stopped";
	default:
		return strerror(-ret);
	}
}

/* Remove this slave's files of a shared=yes tree (ENOENT: gone). */
static int remove_own(int dirfd, const char *path,
		      const struct fstree_shape *shape, struct anchor_stats *st,
		      char *err, size_t errlen)
{
	struct fstree_iter it;
	struct fstree_entry *e = malloc(sizeof(*e));
	int ret = 0;

	if (!e)
		return -ENOMEM;
	fstree_iter_init(&it, shape);
	fstree_iter_share(&it, st->run->share_no, st->run->share_count);
	while (!ret && fstree_next(&it, e)) {
		uint64_t t0 = time_mono_ns();
		const char *last;
		int pfd;

		if (e->is_dir)
			continue;
		if (anchor_stopped(st)) {
			ret = -ECANCELED;
			break;
		}
		pfd = anchor_open_parent(dirfd, e->path, &last);
		ret = pfd < 0 ? pfd : unlinkat(pfd, last, 0) ? -errno : 0;
		if (pfd >= 0)
			close(pfd);
		if (!ret) {
			st->files_removed++;
			anchor_note(st, ANCHOR_EV_DELETE, t0, 0, 0);
		} else if (ret == -ENOENT) {
			ret = 0;
		} else {
			anchor_note(st, ANCHOR_EV_DELETE, t0, 0, ret);
			snprintf(err, errlen, "anchor=%s: %s: %s", path,
				 e->path, anchor_why(ret));
		}
	}
	free(e);
	return ret;
}

/*
 * format=clean of a shared=yes tree, run by each sharing slave at once:
 * refused (nothing removed) with a foreign entry; else each slave removes
 * its own files, then the folders it can, bottom up (ENOTEMPTY and ENOENT
 * fine: another's files, another's rmdir). share_no 0 then waits for the
 * others' files to go (at most ANCHOR_SHARED_WAIT_S without one going),
 * removes what folders are left and the marker, last. A slave that finds
 * no marker and nothing of the tree: cleaned already.
 */
#define ANCHOR_SHARED_WAIT_S 60
static int clean_shared(int dirfd, const char *path,
			const struct fstree_shape *shape,
			struct anchor_stats *st, char *err, size_t errlen)
{
	struct scan s = { .shape = shape,
			  .st = st,
			  .err = err,
			  .errlen = errlen,
			  .gone_ok = 1 };
	const struct timespec nap = { 0, 10000000 };
	uint64_t left = UINT64_MAX, since = time_mono_ns();
	int marker = marker_read(dirfd, shape), ret;

	if (marker < 0)
		return anchor_marker_refused(path, marker, err, errlen);
	ret = refuse_foreign(&s, dirfd, path, "nothing was removed");
	if (ret || (!marker && !s.ours))
		return ret;
	if (!marker)
		return no_marker(path, err, errlen);
	ret = remove_own(dirfd, path, shape, st, err, errlen);
	while (!ret) {
		s.remove = 2;
		ret = scan_dir(&s, dirfd, "", 0);
		if (ret || st->run->share_no)
			break;
		/* share_no 0: again until nothing of the tree is left. */
		ret = refuse_foreign(&s, dirfd, path, "the marker stays");
		if (ret || !s.ours)
			break;
		if (s.ours_files < left) {
			left = s.ours_files;
			since = time_mono_ns();
		} else if (time_mono_ns() - since >
			   ANCHOR_SHARED_WAIT_S * 1000000000ull) {
			snprintf(err, errlen,
				 "anchor=%s: %llu files of the other slaves "
				 "sharing it were still there after %d s "
				 "without one removed; the marker stays",
				 path, (unsigned long long)left,
				 ANCHOR_SHARED_WAIT_S);
			return -ETIMEDOUT;
		}
		if (anchor_stopped(st))
			return -ECANCELED;
		nanosleep(&nap, NULL);
	}
	if (ret || st->run->share_no)
		return ret;
	return marker_remove(dirfd, path, err, errlen);
}
