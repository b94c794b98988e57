/*
 * The signals of `lockstep run`: SIGINT and SIGTERM set run_interrupted
 * (link_pump() then returns -EINTR and the run ends with its summary); a
 * second one kills the slaves the conductor started and leaves. The
 * conductor notes its children here (interrupt_note_children), master.c
 * installs the handler: neither calls the other for it.
 */
#include <signal.h>
#include <unistd.h>
#include "common/exitcode.h"
#include "master/run/master_int.h"

volatile sig_atomic_t run_interrupted;

/*
 * The slaves this master started (and the stderr prefixers of ssh ones),
 * each the leader of its own process group (launch.c), in a form a signal
 * handler may read: sig_atomic_t entries, filled before sig_nchild grows.
 */
static volatile sig_atomic_t sig_child[2 * LAUNCH_MAX];
static volatile sig_atomic_t sig_nchild;

void interrupt_note_children(const struct launch *l)
{
	sig_atomic_t n = 0;

	for (unsigned i = 0; i < l->n && n + 2 <= 2 * LAUNCH_MAX; i++) {
		if (l->p[i].pid > 0)
			sig_child[n++] = l->p[i].pid;
		if (l->p[i].helper > 0)
			sig_child[n++] = l->p[i].helper;
	}
	sig_nchild = n;
}

/*
 * The first signal asks the conductor to stop the slaves and write the
 * summary. A second one leaves at once, but not before it killed every
 * process group it started: an orphaned slave would go on writing to its
 * targets until its master timeout. Only async-signal-safe calls here.
 */
static void on_signal(int sig)
{
	static const char msg[] =
		"lockstep: second signal: slaves killed, no summary written\n";
	ssize_t n;

	if (!run_interrupted) {
		run_interrupted = sig;
		return;
	}
	for (sig_atomic_t i = 0; i < sig_nchild; i++) {
		pid_t pid = (pid_t)sig_child[i];

		if (pid > 0) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
		}
	}
	n = write(STDERR_FILENO, msg, sizeof(msg) - 1);
	(void)n;
	_exit(LS_EXIT_ABORTED);
}

void interrupt_install(void)
{
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
}

void interrupt_forget_children(void)
{
	sig_nchild = 0;
}
