/*
 * The checked writer: every file of the results folder is a struct rfile
 * written through it. A write, flush, fsync or close that fails is never
 * ignored: the file is not written after it, and it is named as incomplete
 * on the console, in summary.json and in the exit code. Also what every
 * sink shares: the descriptor reserve, a sink's state, the console and the
 * CSV header with the column providers' columns.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "common/exitcode.h"
#include "common/fsutil.h"
#include "common/log.h"
#include "master/run/master_int.h"
#include "master/results/fmt.h"
#include "master/results/sink.h"

void results_incomplete(const struct run_view *rv, const char *name, int err)
{
	char **n;

	rv->out->any_incomplete = 1;
	log_error("results: %s/%s could not be written in full (%s): it is incomplete",
		  rv->out->dir, name, strerror(err < 0 ? -err : EIO));
	for (size_t i = 0; i < rv->out->nincomplete; i++)
		if (!strcmp(rv->out->incomplete[i], name))
			return;
	n = realloc(rv->out->incomplete,
		    (rv->out->nincomplete + 1) * sizeof(*n));
	if (!n)
		return;
	rv->out->incomplete = n;
	n[rv->out->nincomplete] = strdup(name);
	if (n[rv->out->nincomplete])
		rv->out->nincomplete++;
}

void results_exit_incomplete(const struct run_view *rv)
{
	if (rv->out->any_incomplete)
		rv->fact->results_incomplete = 1;
}

/* The first error of r: it is not written any more, and named. */
static void rfile_fail(const struct run_view *rv, struct rfile *r, int err)
{
	if (r->err)
		return;
	r->err = err < 0 ? err : -EIO;
	results_incomplete(rv, r->name ? r->name : "?", r->err);
}

/* Open the file rel of the results folder, named name in messages. */
static int rfile_open_as(const struct run_view *rv, struct rfile *r,
			 const char *name, const char *rel)
{
	char path[PATH_MAX + 128];
	int fd, ret;

	memset(r, 0, sizeof(*r));
	if (snprintf(path, sizeof(path), "%s/%s", rv->out->dir, rel) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	r->name = strdup(name);
	if (!r->name)
		return -ENOMEM;
	/* A symbolic link planted in the folder is not followed. */
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
		  0644);
	r->f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!r->f) {
		ret = -errno;
		if (fd >= 0)
			close(fd);
		free(r->name);
		r->name = NULL;
		return ret;
	}
	return 0;
}

int results_file_open(const struct run_view *rv, const char *rel,
		      struct rfile *r)
{
	return rfile_open_as(rv, r, rel, rel);
}

int results_file_open_in(const struct run_view *rv, const char *sub,
			 const char *file, struct rfile *r)
{
	char dir[PATH_MAX], rel[PATH_MAX];
	int dfd, fd, ret;

	memset(r, 0, sizeof(*r));
	if (!fsutil_name_ok(file) ||
	    fsutil_join_inside(rv->out->dir, sub, dir, sizeof(dir)) < 0 ||
	    snprintf(rel, sizeof(rel), "%s/%s", sub, file) >= (int)sizeof(rel))
		return -EINVAL;
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return -errno;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	fd = openat(dfd, file,
		    O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_NOFOLLOW |
			    O_CLOEXEC,
		    0644);
	ret = fd < 0 ? -errno : 0;
	close(dfd);
	if (ret < 0)
		return ret;
	r->name = strdup(rel);
	r->f = r->name ? fdopen(fd, "a") : NULL;
	if (!r->f) {
		ret = errno ? -errno : -ENOMEM;
		close(fd);
		free(r->name);
		r->name = NULL;
		return ret;
	}
	setvbuf(r->f, NULL, _IONBF, 0);
	return 0;
}

FILE *results_w(struct rfile *r)
{
	if (!r->f || r->err)
		return NULL;
	errno = 0;
	return r->f;
}

void results_wrote(const struct run_view *rv, struct rfile *r)
{
	if (r->f && !r->err && ferror(r->f))
		rfile_fail(rv, r, errno ? -errno : -EIO);
}

void results_flush(const struct run_view *rv, struct rfile *r)
{
	if (!results_w(r))
		return;
	if (fflush(r->f) != 0)
		rfile_fail(rv, r, -errno);
	else
		results_wrote(rv, r);
}

void results_file_close(const struct run_view *rv, struct rfile *r, int sync)
{
	if (r->f) {
		results_flush(rv, r);
		if (sync && !r->err && fsync(fileno(r->f)) < 0)
			rfile_fail(rv, r, -errno);
		if (fclose(r->f) != 0)
			rfile_fail(rv, r, -errno);
		r->f = NULL;
	}
	free(r->name);
	r->name = NULL;
}

/* ---- the descriptor reserve (RESULTS_FD_RESERVE) ----------------------- */

void results_reserve_fill(const struct run_view *rv)
{
	for (int i = 0; i < RESULTS_FD_RESERVE; i++)
		if (!rv->out->fd_reserve[i])
			rv->out->fd_reserve[i] = open("/dev/null",
						      O_RDONLY | O_CLOEXEC) +
						 1;
}

void results_reserve_use(const struct run_view *rv)
{
	for (int i = 0; i < RESULTS_FD_RESERVE; i++)
		if (rv->out->fd_reserve[i] > 0) {
			close(rv->out->fd_reserve[i] - 1);
			rv->out->fd_reserve[i] = 0;
			return;
		}
}

void results_reserve_free(const struct run_view *rv)
{
	for (int i = 0; i < RESULTS_FD_RESERVE; i++)
		if (rv->out->fd_reserve[i] > 0) {
			close(rv->out->fd_reserve[i] - 1);
			rv->out->fd_reserve[i] = 0;
		}
}

/* ---- files written whole at the end ------------------------------------ */

int results_atomic_open(const struct run_view *rv, const char *name,
			struct rfile *r)
{
	char tmp[PATH_MAX];
	int ret;

	snprintf(tmp, sizeof(tmp), ".%s.tmp", name);
	results_reserve_use(rv);
	ret = rfile_open_as(rv, r, name, tmp);
	if (ret < 0)
		results_incomplete(rv, name, ret);
	return ret;
}

int results_atomic_commit(const struct run_view *rv, struct rfile *r,
			  const char *name)
{
	char tmp[PATH_MAX + 128], path[PATH_MAX + 128];
	int ret;

	snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", rv->out->dir, name);
	snprintf(path, sizeof(path), "%s/%s", rv->out->dir, name);
	results_wrote(rv, r);
	results_file_close(rv, r, 1);
	ret = r->err;
	if (!ret && rename(tmp, path) < 0) {
		ret = -errno;
		results_incomplete(rv, name, ret);
	}
	/* The rename itself is on the disk only once its folder is. */
	if (!ret) {
		results_reserve_use(rv);
		ret = fsutil_fsync_dir(rv->out->dir);
		if (ret < 0)
			results_incomplete(rv, name, ret);
	}
	if (ret)
		unlink(tmp);
	return ret;
}

void results_atomic_abort(const struct run_view *rv, struct rfile *r,
			  const char *name)
{
	char tmp[PATH_MAX + 128];

	if (r->f)
		fclose(r->f);
	r->f = NULL;
	free(r->name);
	r->name = NULL;
	snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", rv->out->dir, name);
	unlink(tmp);
}

/* ---- what the sinks share ---------------------------------------------- */

void *results_priv(const struct run_view *rv, const struct sink_ops *ops)
{
	for (size_t i = 0; i < rv->out->nsinks; i++)
		if (rv->out->sinks[i].ops == ops)
			return rv->out->sinks[i].priv;
	return NULL;
}

FILE *results_stdout(const struct run_view *rv)
{
	if (rv->out->progress_shown) {
		printf("\r\033[K");
		rv->out->progress_shown = 0;
	}
	return stdout;
}

void results_csv_header(const struct run_view *rv, FILE *f)
{
	char tail[256];
	size_t used = 0;

	tail[0] = 0;
	for (size_t i = 0; i < rv->out->nsinks; i++) {
		const char *c = rv->out->sinks[i].ops->column;

		if (c && used < sizeof(tail))
			used += (size_t)snprintf(tail + used,
						 sizeof(tail) - used, "%s%s",
						 used ? "," : "", c);
	}
	fmt_csv_header_tail(f, used ? tail : NULL);
}

const char *results_status_name(int code)
{
	switch (code) {
	case LS_EXIT_OK:
		return "completed";
	case LS_EXIT_DEGRADED:
		return "degraded";
	case LS_EXIT_ABORTED:
		return "aborted";
	case LS_EXIT_INCOMPLETE:
		return "incomplete";
	case LS_EXIT_REGRESSION:
		return "regression";
	case LS_EXIT_NO_BASELINE:
		return "uncompared";
	default:
		return "failed";
	}
}
