/*
 * Pure parts of the probes (probes.h): a sample's output read as one
 * number or KEY=VALUE pairs, and the run and interval a time falls in.
 * Unit-tested in tests/test_probe.c.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "master/events/probes.h"
#include "master/run/master_int.h"

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
	       c == '\f';
}

static bool key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
}

/*
 * The len bytes at s as a finite decimal number (digits, one '.', an
 * exponent, a sign): no hex, inf or nan, which strtod would take.
 */
static int number(const char *s, size_t len, double *out)
{
	char buf[64], *end;

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	for (size_t i = 0; i < len; i++)
		if (!strchr("0123456789.eE+-", s[i]))
			return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	*out = strtod(buf, &end);
	if (end != buf + len || errno == ERANGE || !isfinite(*out))
		return -EINVAL;
	return 0;
}

int probe_parse_output(const char *buf, size_t len,
		       struct probe_kv kv[PROBE_KEYS_MAX], const char **why)
{
	size_t i = 0, ntok = 0;
	bool bare = false;
	int n = 0;

	if (memchr(buf, '\0', len)) {
		*why = "a NUL byte in the output";
		return -EINVAL;
	}
	while (i < len) {
		size_t a, b;
		const char *eq;

		while (i < len && blank(buf[i]))
			i++;
		if (i == len)
			break;
		a = i;
		while (i < len && !blank(buf[i]))
			i++;
		b = i;
		ntok++;
		eq = memchr(buf + a, '=', b - a);
		if (!eq) {
			/* One number alone, the key "value". */
			if (ntok > 1 || n) {
				*why = "a word that is not KEY=VALUE beside others";
				return -EINVAL;
			}
			if (number(buf + a, b - a, &kv[0].v)) {
				*why = "not a finite number";
				return -EINVAL;
			}
			strcpy(kv[0].key, "value");
			n = 1;
			bare = true;
			continue;
		}
		if (bare) {
			*why = "a number beside KEY=VALUE pairs";
			return -EINVAL;
		}
		if (eq == buf + a ||
		    (size_t)(eq - (buf + a)) >= sizeof(kv[0].key)) {
			*why = eq == buf + a ? "an empty key" :
					       "a key of 64 characters or more";
			return -EINVAL;
		}
		for (const char *k = buf + a; k < eq; k++)
			if (!key_char(*k)) {
				*why = "a key with a character other than letters, digits, '_', '.' and '-'";
				return -EINVAL;
			}
		if (n == PROBE_KEYS_MAX) {
			*why = "more than 16 keys";
			return -EINVAL;
		}
		memcpy(kv[n].key, buf + a, (size_t)(eq - (buf + a)));
		kv[n].key[eq - (buf + a)] = '\0';
		for (int k = 0; k < n; k++)
			if (!strcmp(kv[k].key, kv[n].key)) {
				*why = "a key given twice";
				return -EINVAL;
			}
		if (number(eq + 1, (size_t)(buf + b - eq - 1), &kv[n].v)) {
			*why = "a value that is not a finite number";
			return -EINVAL;
		}
		n++;
	}
	if (!n)
		*why = "no output";
	return n ? n : -EINVAL;
}

int probe_parse_locate(const struct run_result *runs, size_t nruns, uint64_t t,
		       unsigned *interval)
{
	int at = -1;

	for (size_t i = 0; i < nruns; i++) {
		const struct run_result *r = &runs[i];
		uint64_t n = r->done ? r->rows : r->ph.intervals;
		uint64_t I = r->ph.interval_ns;

		if (!r->start_at || r->skipped || !I || t < r->start_at ||
		    (t - r->start_at) / I >= n)
			continue;
		if (at < 0 || r->start_at >= runs[at].start_at) {
			at = (int)i;
			*interval = (unsigned)((t - r->start_at) / I) + 1;
		}
	}
	return at;
}
