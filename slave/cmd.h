/*
 * The commands a master asks this slave to run between phases (an rd's
 * slave-scope startcmd= and endcmd=, proto `cmd`): refused unless the
 * slave was started with --allow-commands; with `exec` the command's
 * words are run without a shell, with `shell` through /bin/sh -c. One at a
 * time, beside the session (the main loop keeps answering the master): its
 * output goes back in `cmd_out` pieces, then `cmd_end` says how it ended.
 * Internal to the slave (uplink.c, slave.c).
 */
#ifndef LOCKSTEP_SLAVE_CMD_H
#define LOCKSTEP_SLAVE_CMD_H

#include <stddef.h>
#include "slave/session.h"

/* --allow-commands: what a slave runs of a master's commands. */
enum cmd_allow {
	CMD_ALLOW_NONE = 0, /* nothing (the default) */
	CMD_ALLOW_EXEC,     /* the words, without a shell */
	CMD_ALLOW_SHELL,    /* /bin/sh -c TEXT */
};

/* The most words of a command run without a shell. */
#define CMD_WORDS_MAX 128

/*
 * text as words for execvp, without a shell: blanks separate words, '...'
 * and "..." group (the quotes removed; nothing is special inside '...'),
 * and any character a shell would read otherwise (| & ; < > ( ) $ ` \ * ?
 * [ ] { } ~ # ! or a newline) is refused, outside quotes and, for $ ` \,
 * inside "..." too: such a command needs --allow-commands shell. The words
 * are written into buf (len bytes) and pointed to by argv (max entries,
 * NULL after the last). Returns the number of words (1 at least), or
 * -EINVAL with *why (a static string) and *at (the offset in text). Pure.
 */
int cmd_words(const char *text, char *buf, size_t len, char **argv, size_t max,
	      const char **why, size_t *at);

/* A `cmd` from the master: started, or answered `cmd_end` refused. */
void cmd_start(struct session *s, const struct proto_cmd *c);
/* From the main loop: output relayed, the end seen, the timeout kept. */
void cmd_tick(struct session *s);
/* The pipe to wait on while a command runs, or -1. */
int cmd_fd(const struct session *s);
/* The master is gone: a running command is killed and forgotten. */
void cmd_stop(struct session *s);

#endif
