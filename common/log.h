/*
 * Logging: one line per message to stderr ("lockstep: warning: ...") and,
 * when a log file is set, the same line with a timestamp to that file.
 * Thread-safe. What a peer sent is printed through log_escape(), and
 * messages a peer can provoke at will go through log_limited().
 */
#ifndef LOCKSTEP_COMMON_LOG_H
#define LOCKSTEP_COMMON_LOG_H

#include <stddef.h>
#include <stdint.h>
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

/* Bytes log_escape() may need for a string of n bytes (and its NUL). */
#define LOG_ESC_LEN(n) (4 * (size_t)(n) + 1)
/*
 * s as it may be printed: every byte that is not printable ASCII becomes
 * \xNN and a backslash becomes two, so a string a peer sent can neither
 * start a line of its own nor move the cursor or recolour a terminal.
 * Written to out (outlen bytes, LOG_ESC_LEN(strlen(s)) is always enough),
 * cut short at an escape's boundary when it does not fit. Returns out.
 */
const char *log_escape(const char *s, char *out, size_t outlen);

/*
 * A token bucket that limits one kind of message: LOG_BURST at once, then
 * one per LOG_PERIOD_NS. Zeroed is full.
 */
#define LOG_BURST 10
#define LOG_PERIOD_NS 1000000000ull
struct log_bucket {
	uint64_t tokens; /* ns of credit; a message costs LOG_PERIOD_NS */
	uint64_t last_ns;
	uint64_t suppressed; /* held back since the last one let through */
	int started;
};
/*
 * Whether a message may go out at now_ns (pure: the time is an argument).
 * When it may, *suppressed is how many were held back before it (and the
 * count starts again); when not, the message is counted as held back.
 */
int log_bucket_take(struct log_bucket *b, uint64_t now_ns,
		    uint64_t *suppressed);
/*
 * log_msg() through the bucket of key, a string literal naming one kind of
 * message (every message of a kind shares the bucket, whichever peer it is
 * about, so a flood from many peers is limited too). The first message let
 * through after some were held back says "(N similar messages suppressed)".
 */
void log_limited(const char *key, enum log_level lvl, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* One line per kind that held messages back since its last one. */
void log_flush_suppressed(void);

#endif
