/*
 * Time helpers: nanosecond readings of the monotonic and real-time clocks,
 * sleeping until an absolute monotonic deadline (so a loop of sleeps does
 * not drift), and the few text formats the reports and logs print.
 */
#include "common/timeutil.h"

#include <errno.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <time.h>

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

uint64_t time_mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

uint64_t time_real_ns(void)
{
	return clock_ns(CLOCK_REALTIME);
}

void time_sleep_until_mono(uint64_t t)
{
	struct timespec ts = {
		.tv_sec = (time_t)(t / NS_PER_SEC),
		.tv_nsec = (long)(t % NS_PER_SEC),
	};

	/* clock_nanosleep returns the error number, it does not set errno. */
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

void time_until_mono_precise(uint64_t t, uint64_t spin_ns)
{
	/*
	 * The default 50 us timer slack would let the kernel wake us that
	 * much late on purpose; the slack goes back to what it was after.
	 */
	int slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);

	if (t > spin_ns) {
		if (slack > 1)
			prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
		time_sleep_until_mono(t - spin_ns);
		if (slack > 1)
			prctl(PR_SET_TIMERSLACK, (unsigned long)slack, 0, 0, 0);
	}
	while (time_mono_ns() < t)
		;
}

void time_sleep_ns(uint64_t ns)
{
	uint64_t now = time_mono_ns();

	if (ns > UINT64_MAX - now)
		ns = UINT64_MAX - now;
	time_sleep_until_mono(now + ns);
}

static int split_local(uint64_t real_ns, struct tm *tm)
{
	time_t sec = (time_t)(real_ns / NS_PER_SEC);

	return localtime_r(&sec, tm) ? 0 : -EINVAL;
}

const char *time_fmt_tod(uint64_t real_ns, char *buf, size_t len)
{
	struct tm tm;

	if (len == 0)
		return buf;
	if (split_local(real_ns, &tm) < 0) {
		buf[0] = '\0';
		return buf;
	}
	snprintf(buf, len, "%02d:%02d:%02d.%03u", tm.tm_hour, tm.tm_min,
		 tm.tm_sec, (unsigned)(real_ns % NS_PER_SEC / NS_PER_MS));
	return buf;
}

const char *time_fmt_date(uint64_t real_ns, char *buf, size_t len)
{
	struct tm tm;

	if (len == 0)
		return buf;
	if (split_local(real_ns, &tm) < 0 ||
	    strftime(buf, len, "%b %d, %Y", &tm) == 0)
		buf[0] = '\0';
	return buf;
}

const char *time_fmt_stamp(uint64_t real_ns, char *buf, size_t len)
{
	struct tm tm;

	if (len == 0)
		return buf;
	if (split_local(real_ns, &tm) < 0 ||
	    strftime(buf, len, "%Y%m%d-%H%M%S", &tm) == 0)
		buf[0] = '\0';
	return buf;
}

const char *time_fmt_iso(uint64_t real_ns, char *buf, size_t len)
{
	time_t sec = (time_t)(real_ns / NS_PER_SEC);
	struct tm tm;

	if (len == 0)
		return buf;
	if (!gmtime_r(&sec, &tm)) {
		buf[0] = '\0';
		return buf;
	}
	snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%03uZ",
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec,
		 (unsigned)(real_ns % NS_PER_SEC / NS_PER_MS));
	return buf;
}
