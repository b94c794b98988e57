/*
 * Opening an anchor and the paths beneath it (see anchor.h): openat2 with
 * RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS, or a walk
 * of openat(O_NOFOLLOW) per component where openat2 is missing.
 */
#include "slave/anchor.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static int force_walk;

void anchor_force_walk(int on)
{
	force_walk = on;
}

int anchor_open(const char *path, char *err, size_t errlen)
{
	struct stat st;
	int fd, e;

	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		if ((e == ENOTDIR || e == ELOOP) && !lstat(path, &st) &&
		    S_ISLNK(st.st_mode))
			snprintf(err, errlen,
				 "anchor=%s is a symbolic link; name the folder "
				 "itself",
				 path);
		else
			snprintf(err, errlen,
				 "anchor=%s: %s (the anchor folder must exist)",
				 path, strerror(e));
		return -e;
	}
	return fd;
}

/* Whether path has a "." or ".." component. */
static int has_dot(const char *p)
{
	while (*p) {
		size_t len;

		p += strspn(p, "/");
		len = strcspn(p, "/");
		if ((len == 1 && p[0] == '.') ||
		    (len == 2 && p[0] == '.' && p[1] == '.'))
			return 1;
		p += len;
	}
	return 0;
}

int anchor_make(const char *path, char *err, size_t errlen)
{
	char buf[PATH_MAX], *comp, *next;
	int cur = -1, fd, made = 0, missing = 0, e = 0;

	if (path[0] != '/' || strlen(path) >= sizeof(buf)) {
		snprintf(err, errlen, "anchor=%s: not an absolute path", path);
		return -EINVAL;
	}
	strcpy(buf, path);
	if (has_dot(path)) /* refused before anything is made */
		e = EINVAL;
	else if ((cur = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		e = errno;
	for (comp = buf + 1; !e && comp && *comp; comp = next) {
		next = strchr(comp, '/');
		if (next)
			while (*next == '/')
				*next++ = '\0';
		/* Walked as resolved while it exists; not through a link after. */
		fd = openat(cur, comp,
			    O_RDONLY | O_DIRECTORY | O_CLOEXEC |
				    (missing ? O_NOFOLLOW : 0));
		if (fd < 0 && errno == ENOENT) {
			missing = 1;
			if (!mkdirat(cur, comp, 0755))
				made++;
			else if (errno != EEXIST) { /* EEXIST: made meanwhile */
				e = errno;
				break;
			}
			fd = openat(cur, comp,
				    O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					    O_CLOEXEC);
		}
		if (fd < 0) {
			e = errno == ENOTDIR && missing ? ELOOP : errno;
			break;
		}
		close(cur);
		cur = fd;
	}
	if (cur >= 0)
		close(cur);
	if (e) {
		snprintf(err, errlen,
			 "anchor=%s: create_anchors=yes could not make it: %s%s",
			 path, strerror(e),
			 e == EINVAL ?
				 " (no \".\" or \"..\" in an anchor)" :
			 e == ELOOP ?
				 " (a symbolic link where a folder was made)" :
				 "");
		return -e;
	}
	return made;
}

/* The fallback: one component at a time, O_NOFOLLOW at each. */
static int walk_open(int dirfd, const char *rel, int flags, mode_t mode)
{
	char buf[FSTREE_PATH_MAX], *comp, *next;
	int cur = dirfd, fd, e;

	if (strlen(rel) >= sizeof(buf))
		return -ENAMETOOLONG;
	strcpy(buf, rel);
	for (comp = buf;; comp = next) {
		next = strchr(comp, '/');
		if (next)
			*next++ = '\0';
		if (!*comp || !strcmp(comp, ".") || !strcmp(comp, "..")) {
			e = EXDEV;
			goto fail;
		}
		if (!next) {
			fd = openat(cur, comp, flags | O_NOFOLLOW | O_CLOEXEC,
				    mode);
			e = errno;
			break;
		}
		fd = openat(cur, comp,
			    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			/* A link where a folder should be: ELOOP, as openat2. */
			e = errno == ENOTDIR ? ELOOP : errno;
			goto fail;
		}
		if (cur != dirfd)
			close(cur);
		cur = fd;
	}
	if (cur != dirfd)
		close(cur);
	return fd < 0 ? -e : fd;
fail:
	if (cur != dirfd)
		close(cur);
	return -e;
}

void anchor_how(struct open_how *how, int flags, mode_t mode)
{
	memset(how, 0, sizeof(*how));
	how->flags = (uint64_t)(flags | O_CLOEXEC);
	how->mode = (flags & O_CREAT) ? mode : 0;
	how->resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
		       RESOLVE_NO_MAGICLINKS;
}

int anchor_openat(int dirfd, const char *rel, int flags, mode_t mode)
{
	struct open_how how;
	long fd;

	if (!rel[0] || rel[0] == '/')
		return -EXDEV;
	if (force_walk)
		return walk_open(dirfd, rel, flags, mode);
	anchor_how(&how, flags, mode);
	fd = syscall(SYS_openat2, dirfd, rel, &how, sizeof(how));
	if (fd < 0 && (errno == ENOSYS || errno == EPERM))
		return walk_open(dirfd, rel, flags, mode);
	return fd < 0 ? -errno : (int)fd;
}
