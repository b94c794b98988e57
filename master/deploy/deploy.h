/*
 * Deploying lockstep to the hd= hosts over ssh: `lockstep run FILE --push`
 * copies the master's own executable to every host whose copy is missing
 * or of another version, and `lockstep hosts FILE` checks every host
 * without running I/O. Both reach hosts through the ssh command line that
 * starts slaves (launch_ssh_argv), so they see what the run will see.
 */
#ifndef LOCKSTEP_MASTER_DEPLOY_H
#define LOCKSTEP_MASTER_DEPLOY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct params;
struct params_hd;

/* Where push puts the binary when hd= has no lockstep=, under $HOME. */
#define DEPLOY_DEFAULT_DIR ".cache/lockstep"

/* How to reach a host: the --ssh words (NULL: ssh), user, system. */
struct deploy_host {
	const char *ssh;
	const char *user;
	const char *system;
};

/*
 * Run remote (a shell command line) on h, stdin from in_fd (-1: none),
 * stdout and stderr together into out (outlen bytes, cut, trailing
 * newlines dropped, escaped by deploy_escape), killed after timeout_s.
 * Returns its exit status (ssh
 * gives 255 when it cannot reach the host), -ETIMEDOUT or -errno.
 */
int deploy_run(const struct deploy_host *h, const char *remote, int in_fd,
	       char *out, size_t outlen, double timeout_s);

/*
 * Escape what a remote host printed, in place (buf holds len bytes): each
 * line and tab-separated field through log_escape(), as the master prints
 * any peer's string, so that no escape sequence or forged line of a host
 * reaches the terminal; newlines and tabs stay. Cut to fit len.
 */
void deploy_escape(char *buf, size_t len);

/* The last line of out, for a one-line reason; "" when out is empty. */
const char *deploy_last_line(const char *out);

/*
 * Where the run starts lockstep on hd with --push: its lockstep=, or
 * DEPLOY_DEFAULT_DIR/lockstep-VERSION (relative: ssh starts in $HOME).
 * Returns 0, or -EINVAL with why in err: a bare name (found on PATH there,
 * so push cannot know where) or a quote or newline in the path.
 */
int deploy_dest(const struct params_hd *hd, char *dest, size_t len, char *err,
		size_t errlen);

/*
 * `--push`: for each hd= host started over ssh, check `DEST version`, copy
 * /proc/self/exe there when it is missing or another version, check it
 * again, and point hd->lockstep at DEST, up to 8 hosts at a time.
 * Progress, lines naming their host, on out. A host that fails is named with the reason; with partial_ok its
 * slaves are dropped from the run (hd->slaves = 0), else the run must not
 * start. Returns the number of hosts that failed, or -errno.
 */
int deploy_push(struct params *p, const char *ssh, int partial_ok, FILE *out);

/* How many hosts push, hosts and easy work on at once (a thread each). */
#define DEPLOY_PARALLEL 8

/*
 * fn(i, arg) for every i < n, on up to DEPLOY_PARALLEL threads (this one
 * among them: with no thread to be had, it does them all). Returns when
 * all are done.
 */
void deploy_each(size_t n, void (*fn)(size_t i, void *arg), void *arg);

/* `lockstep hosts FILE`. */
int hosts_main(int argc, char **argv);

#endif
