/*
 * File-system helpers: `mkdir -p` and a file copy, for the results folder
 * of the master and the parent folders of the slave's targets.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
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
	FILE *in = fopen(from, "rb"), *out;
	size_t n;
	int ret = 0;

	if (!in)
		return -errno;
	out = fopen(to, "wb");
	if (!out) {
		ret = -errno;
		fclose(in);
		return ret;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n) {
			ret = -EIO;
			break;
		}
	fclose(in);
	if (fclose(out) != 0)
		ret = -EIO;
	return ret;
}
