/*
 * File-system helpers: `mkdir -p`, a checked file copy, a folder's fsync and
 * its free space, for the results folder of the master and the parent
 * folders of the slave's targets.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include "common/fsutil.h"

int fsutil_mkdir_p(const char *path)
{
	char tmp[PATH_MAX];

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

int fsutil_mkdir_parents(const char *path)
{
	char tmp[PATH_MAX];
	char *slash;

	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	slash = strrchr(tmp, '/');
	if (!slash || slash == tmp)
		return 0;
	*slash = 0;
	return fsutil_mkdir_p(tmp);
}

int fsutil_copy_file(const char *from, const char *to)
{
	char buf[65536];
	FILE *in = fopen(from, "rbe"), *out;
	size_t n;
	int ret = 0;

	if (!in)
		return -errno;
	out = fopen(to, "wbe");
	if (!out) {
		ret = -errno;
		fclose(in);
		return ret;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n) {
			ret = errno ? -errno : -EIO;
			break;
		}
	if (!ret && ferror(in))
		ret = -EIO;
	fclose(in);
	/* The copy is a result: it must be on the disk, whole. */
	if (!ret && fflush(out) != 0)
		ret = -errno;
	if (!ret && fsync(fileno(out)) < 0)
		ret = -errno;
	if (fclose(out) != 0 && !ret)
		ret = -errno;
	return ret;
}

int fsutil_name_ok(const char *name)
{
	size_t n = 0;

	if (!name || name[0] == '.' || name[0] == '\0')
		return 0;
	for (; name[n]; n++) {
		unsigned char c = (unsigned char)name[n];

		/* Not isalnum(): its answer depends on the locale. */
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '-' || c == '_' ||
		      c == '.'))
			return 0;
		if (n >= FSUTIL_NAME_MAX)
			return 0;
	}
	return 1;
}

int fsutil_join_inside(const char *dir, const char *rel, char *out,
		       size_t outlen)
{
	const char *p = rel;
	int n;

	if (!rel || rel[0] == '\0' || rel[0] == '/')
		return -EINVAL;
	/* Every component: not empty, not "." and not "..". */
	while (*p) {
		size_t len = strcspn(p, "/");

		if (len == 0 || (len == 1 && p[0] == '.') ||
		    (len == 2 && p[0] == '.' && p[1] == '.'))
			return -EINVAL;
		p += len;
		if (*p == '/' && *++p == '\0')
			return -EINVAL; /* a trailing slash: not a file */
	}
	n = snprintf(out, outlen, "%s/%s", dir, rel);
	if (n < 0 || (size_t)n >= outlen)
		return -ENAMETOOLONG;
	return 0;
}

int fsutil_fsync_dir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

int fsutil_write_atomic(const char *path, int durable,
			int (*fill)(FILE *f, void *arg), void *arg)
{
	const char *slash = strrchr(path, '/');
	char tmp[PATH_MAX], dir[PATH_MAX];
	struct stat st;
	FILE *f;
	int fd, ret;

	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode) &&
	    !S_ISLNK(st.st_mode))
		return -EEXIST;
	if (slash)
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	else
		snprintf(dir, sizeof(dir), ".");
	if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dir,
			     slash ? slash + 1 : path) >= sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	f = fchmod(fd, 0644) == 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		ret = -errno;
		close(fd);
		unlink(tmp);
		return ret;
	}
	ret = fill(f, arg);
	if (fflush(f) != 0 || ferror(f))
		ret = ret ? ret : -(errno ? errno : EIO);
	if (!ret && durable && fsync(fileno(f)) < 0)
		ret = -errno;
	if (fclose(f) != 0 && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path) < 0)
		ret = -errno;
	if (ret) {
		unlink(tmp);
		return ret;
	}
	return durable ? fsutil_fsync_dir(dir) : 0;
}

int fsutil_free_bytes(const char *path, uint64_t *bytes)
{
	struct statvfs st;

	if (statvfs(path, &st) < 0)
		return -errno;
	*bytes = (uint64_t)st.f_bavail * st.f_frsize;
	return 0;
}

/*
 * Read up to max bytes of the regular file name inside dirfd into *buf
 * (malloc'ed, NUL-ended). *truncated says the file was longer. Returns 0
 * or -errno (-ELOOP for a symbolic link, -EINVAL for not a regular file).
 */
int fsutil_read_at(int dirfd, const char *name, size_t max, char **buf,
		   size_t *len, int *truncated)
{
	struct stat st;
	size_t want, got = 0;
	char *b;
	int fd, ret;

	*buf = NULL;
	*len = 0;
	*truncated = 0;
	fd = openat(dirfd, name,
		    O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		ret = -errno;
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		ret = -EINVAL;
		goto out;
	}
	want = (uint64_t)st.st_size > max ? max : (size_t)st.st_size;
	*truncated = (uint64_t)st.st_size > max;
	b = malloc(want + 1);
	if (!b) {
		ret = -ENOMEM;
		goto out;
	}
	while (got < want) {
		ssize_t r = read(fd, b + got, want - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ret = -errno;
			free(b);
			goto out;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	b[got] = '\0';
	*buf = b;
	*len = got;
	ret = 0;
out:
	close(fd);
	return ret;
}

const char *fsutil_read_why(int err)
{
	if (err == -ELOOP)
		return "a symbolic link (not followed)";
	if (err == -EINVAL)
		return "not a regular file";
	if (err == -EFBIG)
		return "too large";
	return strerror(-err);
}
