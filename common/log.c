/*
 * Logging for the whole program: a short "prefix: level: message" line on
 * stderr for people, and optionally a timestamped line per message in a log
 * file kept with the run's results. One mutex serialises both so lines from
 * different threads never interleave.
 */
#include "common/log.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/timeutil.h"

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static enum log_level log_level = LOG_INFO;
static char log_prefix[64] = "lockstep";
static FILE *log_file;
static int log_quiet_info;

void log_set_level(enum log_level lvl)
{
	pthread_mutex_lock(&log_lock);
	log_level = lvl;
	pthread_mutex_unlock(&log_lock);
}

void log_set_prefix(const char *prefix)
{
	pthread_mutex_lock(&log_lock);
	snprintf(log_prefix, sizeof(log_prefix), "%s", prefix ? prefix : "");
	pthread_mutex_unlock(&log_lock);
}

void log_set_file(FILE *f)
{
	pthread_mutex_lock(&log_lock);
	log_file = f;
	pthread_mutex_unlock(&log_lock);
}

void log_set_quiet_info(int quiet)
{
	pthread_mutex_lock(&log_lock);
	log_quiet_info = quiet;
	pthread_mutex_unlock(&log_lock);
}

const char *log_level_name(enum log_level lvl)
{
	switch (lvl) {
	case LOG_DEBUG:
		return "DEBUG";
	case LOG_INFO:
		return "INFO";
	case LOG_WARN:
		return "WARN";
	case LOG_ERROR:
		return "ERROR";
	}
	return "?";
}

/* The word between prefix and message on stderr; none for info. */
static const char *stderr_word(enum log_level lvl)
{
	switch (lvl) {
	case LOG_DEBUG:
		return "debug: ";
	case LOG_WARN:
		return "warning: ";
	case LOG_ERROR:
		return "error: ";
	default:
		return "";
	}
}

void log_msg(enum log_level lvl, const char *fmt, ...)
{
	int saved_errno = errno; /* callers often log and then inspect errno */
	char small[512], *msg = small, *heap = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0) {
		errno = saved_errno;
		return;
	}
	if ((size_t)n >= sizeof(small)) {
		heap = malloc((size_t)n + 1);
		if (heap) {
			va_start(ap, fmt);
			vsnprintf(heap, (size_t)n + 1, fmt, ap);
			va_end(ap);
			msg = heap;
		} else {
			n = sizeof(small) - 1; /* print it truncated */
		}
	}
	while (n > 0 && msg[n - 1] == '\n')
		msg[--n] = '\0';

	pthread_mutex_lock(&log_lock);
	int to_stderr = lvl >= log_level &&
			!(lvl == LOG_INFO && log_quiet_info);
	if (to_stderr)
		fprintf(stderr, "%s: %s%s\n", log_prefix, stderr_word(lvl),
			msg);
	if (log_file) {
		char ts[32];
		time_fmt_iso(time_real_ns(), ts, sizeof(ts));
		fprintf(log_file, "%s %s %s\n", ts, log_level_name(lvl), msg);
		fflush(log_file);
	}
	pthread_mutex_unlock(&log_lock);

	free(heap);
	errno = saved_errno;
}
