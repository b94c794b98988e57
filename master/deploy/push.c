/*
 * `lockstep run FILE --push` (deploy.h): before any slave starts, every
 * hd= host reached over ssh gets the master's own executable unless the
 * one there already says the same version. The copy goes to a temporary
 * name and is renamed, so that a slave starting at the same moment never
 * runs half a file, and it is checked by running it there.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "common/log.h"
#include "lockstep_version.h"
#include "master/deploy/deploy.h"
#include "master/deploy/deploy_int.h"
#include "master/params/params.h"

/* "DIR" of "DIR/NAME", "." when there is no slash. */
static void dir_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, len, ".");
	else if (slash == path)
		snprintf(dir, len, "/");
	else
		snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

/*
 * What `DEST version` says there: 0 the same version, 1 missing or
 * another (*have says which), or -errno / 255 for ssh failures with the
 * reason in have.
 */
static int remote_version(const struct deploy_host *h, const char *dest,
			  char *have, size_t len)
{
	char cmd[1200], out[1024];
	char want[128];
	int st;

	snprintf(cmd, sizeof(cmd), "'%s' version", dest);
	st = deploy_run(h, cmd, -1, out, sizeof(out), DEPLOY_CHECK_S);
	snprintf(want, sizeof(want), "lockstep %s", LOCKSTEP_VERSION);
	if (st == 0 && strcmp(out, want) == 0) {
		snprintf(have, len, "%s", LOCKSTEP_VERSION);
		return 0;
	}
	if (st == 0) {
		snprintf(have, len, "%s",
			 strncmp(out, "lockstep ", 9) == 0 ? out + 9 : out);
		return 1;
	}
	if (st == 127 || st == 126) {
		snprintf(have, len, "missing%s%s%s", out[0] ? " (" : "",
			 deploy_last_line(out), out[0] ? ")" : "");
		return 1;
	}
	if (st < 0)
		snprintf(have, len, "%s",
			 st == -ETIMEDOUT ? "no answer within 30 s" :
					    strerror(-st));
	else
		snprintf(have, len, "%s", deploy_last_line(out));
	return st < 0 ? st : 255;
}

/* Copy exe to dest on h: a temporary name, chmod, rename. 0 or why. */
static int copy_to(const struct deploy_host *h, int exe, const char *dest,
		   char *why, size_t len)
{
	char cmd[2600], dir[1024], out[1024];
	int st;

	dir_of(dest, dir, sizeof(dir));
	/*
	 * A name mktemp makes there (never a predictable one another user
	 * could plant a link at), removed unless it was renamed into place:
	 * a copy cut short by ssh or a full disk leaves nothing behind.
	 */
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p '%s' && t=$(mktemp '%s.push.XXXXXX') || exit 1; "
		 "trap 'rm -f \"$t\"' EXIT; trap 'exit 1' HUP INT TERM PIPE; "
		 "cat > \"$t\" && chmod 755 \"$t\" && mv -f \"$t\" '%s'",
		 dir, dest, dest);
	if (lseek(exe, 0, SEEK_SET) < 0)
		return -errno;
	st = deploy_run(h, cmd, exe, out, sizeof(out), DEPLOY_COPY_S);
	if (st == 0)
		return 0;
	snprintf(why, len, "copy to %s failed: %s", dest,
		 st < 0 ? strerror(-st) :
		 out[0] ? deploy_last_line(out) :
			  "ssh failed");
	return st < 0 ? st : -EIO;
}

/* One host: 0 when it runs this version at dest now, else why. */
static int push_one(const struct deploy_host *h, int exe, off_t bytes,
		    const char *dest, FILE *out, const char *label, char *why,
		    size_t len)
{
	char have[1024];
	int ret = remote_version(h, dest, have, sizeof(have));

	if (ret == 0) {
		fprintf(out, "push %s: %s is lockstep %s already\n", label,
			dest, have);
		return 0;
	}
	if (ret != 1) {
		snprintf(why, len, "%s%s",
			 strncmp(have, "ssh:", 4) ? "ssh: " : "",
			 have[0] ? have : "failed");
		return -EHOSTUNREACH;
	}
	fprintf(out, "push %s: %s is %s%s; copying %.1f MB\n", label, dest,
		strncmp(have, "missing", 7) ? "lockstep " : "", have,
		(double)bytes / 1e6);
	fflush(out);
	ret = copy_to(h, exe, dest, why, len);
	if (ret < 0)
		return ret;
	ret = remote_version(h, dest, have, sizeof(have));
	if (ret != 0) {
		snprintf(why, len, "copied, but %s version says: %s", dest,
			 have);
		return -EIO;
	}
	fprintf(out, "push %s: %s is lockstep %s now\n", label, dest, have);
	return 0;
}

/* One host's push, done by any thread of deploy_each(). */
struct push_job {
	struct params_hd *hd;
	const char *ssh;
	FILE *out;
	char dest[PARAMS_PATH_MAX], why[1024], label[600];
	int ret;
};

static void push_job_run(size_t i, void *arg)
{
	struct push_job *j = (struct push_job *)arg + i;
	const struct deploy_host h = { j->ssh, j->hd->user, j->hd->system };
	/* Its own descriptor: ssh reads the copy from its offset. */
	int exe = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	struct stat st;

	if (exe < 0 || fstat(exe, &st) < 0) {
		j->ret = -errno;
		snprintf(j->why, sizeof(j->why),
			 "cannot read this executable: %s", strerror(-j->ret));
		if (exe >= 0)
			close(exe);
		return;
	}
	j->ret = deploy_dest(j->hd, j->dest, sizeof(j->dest), j->why,
			     sizeof(j->why));
	if (j->ret == 0)
		j->ret = push_one(&h, exe, st.st_size, j->dest, j->out,
				  j->label, j->why, sizeof(j->why));
	close(exe);
}

/*
 * Up to DEPLOY_PARALLEL hosts at a time (sixteen hosts are not sixteen
 * copies in a row); what each said is reported in hd= order afterwards.
 */
int deploy_push(struct params *p, const char *ssh, int partial_ok, FILE *out)
{
	struct push_job *job;
	size_t n = 0;
	int failed = 0;

	job = calloc(p->nhd ? p->nhd : 1, sizeof(*job));
	if (!job) {
		log_error("--push: out of memory");
		return -ENOMEM;
	}
	for (size_t i = 0; i < p->nhd; i++) {
		struct params_hd *hd = &p->hd[i];
		struct push_job *j = &job[n];

		if (hd->shell == PARAMS_SHELL_NONE || hd->slaves == 0)
			continue;
		j->hd = hd;
		j->ssh = ssh;
		j->out = out;
		snprintf(j->label, sizeof(j->label), "hd=%s (%s%s%s)", hd->name,
			 hd->user[0] ? hd->user : "", hd->user[0] ? "@" : "",
			 hd->system);
		n++;
	}
	deploy_each(n, push_job_run, job);
	for (size_t i = 0; i < n; i++) {
		struct push_job *j = &job[i];

		if (j->ret == 0) {
			snprintf(j->hd->lockstep, sizeof(j->hd->lockstep), "%s",
				 j->dest);
			continue;
		}
		failed++;
		log_error("push %s failed: %s%s", j->label, j->why,
			  partial_ok ?
				  "; its slaves are left out of the run (--on-slave-loss continue)" :
				  "");
		if (partial_ok)
			j->hd->slaves = 0;
	}
	free(job);
	if (failed && !partial_ok)
		log_error("--push failed on %d host%s: the run does not start (--on-slave-loss continue runs without them)",
			  failed, failed > 1 ? "s" : "");
	return failed;
}
