/*
 * `lockstep probe`: the host check that `lockstep hosts` runs over ssh on
 * each hd= host (and `lockstep easy` on this one), hidden from the list of
 * commands. It answers, without opening anything for writing: whether this
 * kernel gives an io_uring (and its features), the host's online cores,
 * and for each target the master names, whether it is
 * there, its size and what target safety (safety.c, the same rules a slave
 * applies before opening it) would say. One tab-separated line each, for
 * the master to parse.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "common/exitcode.h"
#include "slave/engine.h"
#include "slave/probe.h"
#include "slave/safety.h"
#include "slave/target.h"

/* Bytes a target holds: a file's size, a block device's; 0 when missing. */
static int probe_size(const char *path, const struct safety_facts *f,
		      uint64_t *size)
{
	int fd, ret;

	*size = 0;
	if (f->kind != SAFETY_KIND_FILE && f->kind != SAFETY_KIND_BLOCK)
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	ret = target_size(fd, size);
	close(fd);
	return ret;
}

static const char *kind_name(enum safety_kind k)
{
	switch (k) {
	case SAFETY_KIND_MISSING:
		return "missing";
	case SAFETY_KIND_FILE:
		return "file";
	case SAFETY_KIND_BLOCK:
		return "block";
	case SAFETY_KIND_NULLDEV:
		return "null";
	case SAFETY_KIND_DIR:
		return "directory";
	case SAFETY_KIND_FIFO:
		return "fifo";
	case SAFETY_KIND_SOCKET:
		return "socket";
	case SAFETY_KIND_CHAR:
		return "char";
	case SAFETY_KIND_OTHER:
		break;
	}
	return "other";
}

/* One "MODE:PATH" argument: MODE is r or w, then f for force=yes. */
static void probe_target(const char *arg)
{
	const char *colon = strchr(arg, ':'), *path;
	int need_write, force, ret;
	struct safety_facts f;
	struct safety_verdict v;
	uint64_t size = 0;

	if (!colon || colon == arg) {
		printf("target\t%s\t-\t-\trefused\tnot MODE:PATH\n", arg);
		return;
	}
	need_write = arg[0] == 'w';
	force = strchr(arg, 'f') && strchr(arg, 'f') < colon;
	path = colon + 1;
	ret = safety_probe(path, &f);
	if (ret < 0) {
		printf("target\t%s\t-\t-\trefused\t%s\n", path, strerror(-ret));
		return;
	}
	ret = safety_decide(&f, path, need_write, force, &v);
	if (probe_size(path, &f, &size) < 0)
		size = 0;
	printf("target\t%s\t%s\t%llu\t%s\t%s\n", path, kind_name(f.kind),
	       (unsigned long long)size,
	       ret < 0  ? "refused" :
	       v.forced ? "force" :
			  "ok",
	       v.reason);
}

int probe_main(int argc, char **argv)
{
	char feats[256];
	int ret = engine_uring_probe(feats, sizeof(feats));

	if (ret < 0)
		printf("io_uring\tno\t%s\n", strerror(-ret));
	else
		printf("io_uring\tyes\t%s\n", feats);
	printf("cores\t%ld\n", sysconf(_SC_NPROCESSORS_ONLN));
	for (int i = 1; i < argc; i++)
		probe_target(argv[i]);
	return fflush(stdout) == 0 ? LS_EXIT_OK : LS_EXIT_BAD_INPUT;
}
