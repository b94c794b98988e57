/*
 * File-system helpers: `mkdir -p`, a checked file copy, a folder's fsync and
 * its free space, for the results folder of the master and the parent
 * folders of the slave's targets.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
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

int fsutil_free_bytes(const char *path, uint64_t *bytes)
{
	struct statvfs st;

	if (statvfs(path, &st) < 0)
		return -errno;
	*bytes = (uint64_t)st.f_bavail * st.f_frsize;
	return 0;
}
