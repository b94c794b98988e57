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

const char *log_escape(const char *s, char *out, size_t outlen)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;

	if (!outlen)
		return out;
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		char esc[4];
		size_t n = 0;

		if (c == '\\') {
			esc[n++] = '\\';
			esc[n++] = '\\';
		} else if (c >= 0x20 && c < 0x7f) {
			esc[n++] = (char)c;
		} else {
			esc[n++] = '\\';
			esc[n++] = 'x';
			esc[n++] = hex[c >> 4];
			esc[n++] = hex[c & 15];
		}
		if (o + n >= outlen)
			break;
		memcpy(out + o, esc, n);
		o += n;
	}
	out[o] = '\0';
	return out;
}

int log_bucket_take(struct log_bucket *b, uint64_t now_ns, uint64_t *suppressed)
{
	const uint64_t cap = LOG_BURST * LOG_PERIOD_NS;

	if (!b->started) {
		b->started = 1;
		b->tokens = cap;
		b->last_ns = now_ns;
	}
	if (now_ns > b->last_ns) {
		uint64_t gain = now_ns - b->last_ns;

		b->tokens = gain >= cap - b->tokens ? cap : b->tokens + gain;
		b->last_ns = now_ns;
	}
	if (b->tokens < LOG_PERIOD_NS) {
		b->suppressed++;
		return 0;
	}
	b->tokens -= LOG_PERIOD_NS;
	*suppressed = b->suppressed;
	b->suppressed = 0;
	return 1;
}

/*
 * The buckets by kind: a small table, as the kinds are the call sites of
 * log_limited(). Past LOG_KINDS kinds every other kind shares the last one.
 */
#define LOG_KINDS 64
static struct {
	const char *key;
	struct log_bucket b;
} log_kinds[LOG_KINDS];

static struct log_bucket *kind_bucket(const char *key)
{
	int i;

	for (i = 0; i < LOG_KINDS - 1 && log_kinds[i].key; i++)
		if (strcmp(log_kinds[i].key, key) == 0)
			return &log_kinds[i].b;
	if (!log_kinds[i].key)
		log_kinds[i].key = i < LOG_KINDS - 1 ? key : "other";
	return &log_kinds[i].b;
}

void log_limited(const char *key, enum log_level lvl, const char *fmt, ...)
{
	uint64_t now = time_mono_ns(), held = 0;
	char msg[2048];
	va_list ap;
	int ok;

	pthread_mutex_lock(&log_lock);
	ok = log_bucket_take(kind_bucket(key), now, &held);
	pthread_mutex_unlock(&log_lock);
	if (!ok)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (held)
		log_msg(lvl, "%s (%llu similar messages suppressed)", msg,
			(unsigned long long)held);
	else
		log_msg(lvl, "%s", msg);
}

void log_flush_suppressed(void)
{
	for (int i = 0; i < LOG_KINDS; i++) {
		uint64_t held;

		pthread_mutex_lock(&log_lock);
		held = log_kinds[i].key ? log_kinds[i].b.suppressed : 0;
		log_kinds[i].b.suppressed = 0;
		pthread_mutex_unlock(&log_lock);
		if (held)
			log_msg(LOG_WARN,
				"%llu more messages like '%s' were suppressed",
				(unsigned long long)held, log_kinds[i].key);
	}
}
