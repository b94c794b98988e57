/* Clocks in nanoseconds and sleeping until a deadline. */
#ifndef LOCKSTEP_COMMON_TIMEUTIL_H
#define LOCKSTEP_COMMON_TIMEUTIL_H

#include <stddef.h>
#include <stdint.h>

#define NS_PER_SEC UINT64_C(1000000000)
#define NS_PER_MS UINT64_C(1000000)
#define NS_PER_US UINT64_C(1000)

uint64_t time_mono_ns(void);     /* CLOCK_MONOTONIC */
uint64_t time_real_ns(void);     /* CLOCK_REALTIME */
/* Sleep until CLOCK_MONOTONIC reaches t (returns at once if past). */
void time_sleep_until_mono(uint64_t t);
void time_sleep_ns(uint64_t ns);
/*
 * Return as close after CLOCK_MONOTONIC t as this machine can: sleep (no
 * timer slack) until spin_ns before it, then spin. For a start time that
 * many processes share, where a late wake-up is a measured skew.
 */
void time_until_mono_precise(uint64_t t, uint64_t spin_ns);
/* "HH:MM:SS.mmm" local time of a CLOCK_REALTIME ns value. Returns buf. */
const char *time_fmt_tod(uint64_t real_ns, char *buf, size_t len);
/* "Mon dd, yyyy" (Vdbench header date). Returns buf. */
const char *time_fmt_date(uint64_t real_ns, char *buf, size_t len);
/* "YYYYmmdd-HHMMSS" local time. Returns buf. */
const char *time_fmt_stamp(uint64_t real_ns, char *buf, size_t len);
/* ISO 8601 UTC "YYYY-mm-ddTHH:MM:SS.mmmZ". Returns buf. */
const char *time_fmt_iso(uint64_t real_ns, char *buf, size_t len);

#endif
