/*
 * Starting slave processes for the master: local children (`lockstep slave`
 * on this machine) and remote ones through the system's ssh (hd= lines).
 * Their stderr goes to the run's log, prefixed by host for remote ones.
 * The table remembers every process it started so the master can notice
 * one that dies early and reap (or kill) them all at the end.
 */
#ifndef LOCKSTEP_MASTER_LAUNCH_H
#define LOCKSTEP_MASTER_LAUNCH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "common/keys.h"

struct params;

#define LAUNCH_MAX 1024

struct launch_proc {
	pid_t pid;
	pid_t helper; /* the stderr prefixer of an ssh slave, else 0 */
	/*
	 * The write end of its keys pipe, kept open while it runs (-1: none):
	 * when this process dies, however it dies, the slave reads EOF on its
	 * stdin (over ssh too) and stops its I/O at once.
	 */
	int keyfd;
	/* The read end of the lines its stderr prefixer also sends back (an
	   ssh slave; -1: none), and the last of them once it exited. */
	int backfd;
	char last[256];
	char name[64];
	char host[256];
};

struct launch {
	struct launch_proc p[LAUNCH_MAX];
	unsigned n;
	int logfd;       /* where children's stderr goes (not owned) */
	const char *ssh; /* the ssh command, words split on blanks; NULL: "ssh" */
	int verbose;     /* pass --verbose to slaves */
	unsigned workers; /* pass --workers N to slaves; 0 = their default */
	/* Pass --allow-commands shell: the file has slave-scope commands. */
	int commands;
	/* Pass --allow-path P for each (the parameter file's luns; not owned). */
	const char *const *allow;
	unsigned nallow;
};

/*
 * A started slave's CURVE keys: its own pair and the master's public key,
 * Z85. They reach it as three lines on its stdin (`--keys-stdin`), never
 * in argv or the environment, where other local processes could read them.
 */
struct launch_keys {
	char secret[KEYS_Z85_LEN + 1];
	char public[KEYS_Z85_LEN + 1];
	char master[KEYS_Z85_LEN + 1];
};

/*
 * Start `lockstep slave --master endpoint --name name` here, as a child of
 * this process (the same executable), with keys (NULL: `--insecure`, no
 * authentication) and `--allow-path P` for each of l->allow (launch_ssh
 * too). keys is not kept. Returns 0 or -errno.
 */
int launch_local(struct launch *l, const char *endpoint, const char *name,
		 const struct launch_keys *keys);

/*
 * Start it on system through ssh (BatchMode; user may be NULL or ""), with
 * the remote executable at path (NULL: "lockstep" on the remote PATH);
 * keys as for launch_local(), written to ssh's stdin. Returns 0 or -errno.
 */
/*
 * The last line an exited ssh slave's remote wrote on stderr (why it did
 * not start), "" if none came within 3 s; waits, so only for a slave that
 * exited before registering. Its pipe is closed after.
 */
const char *launch_last_line(struct launch_proc *p);
/* path_dir: path is a vdbench=DIR folder (vdbench_remote_exe). */
int launch_ssh(struct launch *l, const char *user, const char *system,
	       const char *path, int path_dir, const char *endpoint,
	       const char *name, const struct launch_keys *keys);

/* Entries launch_ssh_argv() may fill, its NULL included. */
#define LAUNCH_SSH_ARGV 48

/*
 * The argv that runs remote on system over ssh as launch_ssh() does: ssh
 * (NULL: "ssh") split into words in words[wlen] (kept by the caller while
 * argv is used), BatchMode, a connect timeout, -l user when given, then
 * "--" so that system (a parameter file's word) is never an option. argv
 * holds LAUNCH_SSH_ARGV entries. Returns how many it filled (NULL after).
 */
int launch_ssh_argv(const char *ssh, const char *user, const char *system,
		    const char *remote, char *words, size_t wlen, char **argv);

/*
 * A started process that has exited since the last call (reaped; its
 * entry's pid becomes 0), or NULL. *status is its exit code (128+signal).
 */
struct launch_proc *launch_exited(struct launch *l, int *status);

/* Processes still running. */
unsigned launch_running(const struct launch *l);

/* SIGKILL every process still running and reap them. */
void launch_kill_all(struct launch *l);

/*
 * The slaves we start may open the parameter file's luns and nothing else:
 * each distinct lun, fsd anchor and replay= trace once, passed as
 * --allow-path (literal, never a glob), and the journal= folder, which a
 * slave checks against its policy too. (malloc'd; the strings are p's).
 */
const char **launch_allow_luns(const struct params *p, unsigned *n);

#endif
