/*
 * Logging: one line per message to stderr ("lockstep: warning: ...") and,
 * when a log file is set, the same line with a timestamp to that file.
 * Thread-safe.
 */
#ifndef LOCKSTEP_COMMON_LOG_H
#define LOCKSTEP_COMMON_LOG_H

#include <stdio.h>

enum log_level { LOG_DEBUG, LOG_INFO, LOG_WARN, LOG_ERROR };

/* Messages below this level are not printed on stderr (default LOG_INFO). */
void log_set_level(enum log_level lvl);
/* Prefix printed on stderr lines, e.g. "lockstep" or "slave s1". */
void log_set_prefix(const char *prefix);
/* Also append every message (all levels) to f; NULL turns it off. Not owned. */
void log_set_file(FILE *f);
/* Whether LOG_INFO messages go to stderr too (default yes). */
void log_set_quiet_info(int quiet);

void log_msg(enum log_level lvl, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define log_debug(...) log_msg(LOG_DEBUG, __VA_ARGS__)
#define log_info(...) log_msg(LOG_INFO, __VA_ARGS__)
#define log_warn(...) log_msg(LOG_WARN, __VA_ARGS__)
#define log_error(...) log_msg(LOG_ERROR, __VA_ARGS__)

const char *log_level_name(enum log_level lvl);

#endif
