/*
 * Parsing and printing of sizes and durations as people write them in
 * parameter files and on command lines. Parsing is strict: the whole string
 * must be a non-negative decimal number and an optional suffix, nothing
 * else (no signs, spaces, exponents or hex), and sizes must come out as a
 * whole number of bytes.
 */
#include "common/units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Fractional digits kept for sizes: enough for any sensible "1.5m", and
 * small enough that fraction x 2^40 fits in 128 bits.
 */
#define UNITS_MAX_FRAC_DIGITS 18

/*
 * Scan "digits[.digits]" at s. Sets *int_end to the end of the integer part
 * and returns the end of the number, or NULL when s does not start with one.
 */
static const char *scan_number(const char *s, const char **int_end)
{
	const char *p = s;

	while (isdigit((unsigned char)*p))
		p++;
	if (p == s)
		return NULL;
	*int_end = p;
	if (*p == '.') {
		const char *f = ++p;
		while (isdigit((unsigned char)*p))
			p++;
		if (p == f)
			return NULL;
	}
	return p;
}

static int size_multiplier(const char *suffix, uint64_t *mult)
{
	int shift;

	switch (tolower((unsigned char)suffix[0])) {
	case '\0':
		*mult = 1;
		return 0;
	case 'b':
		shift = 0;
		break;
	case 'k':
		shift = 10;
		break;
	case 'm':
		shift = 20;
		break;
	case 'g':
		shift = 30;
		break;
	case 't':
		shift = 40;
		break;
	default:
		return -EINVAL;
	}
	suffix++;
	if (shift > 0 && tolower((unsigned char)*suffix) == 'b')
		suffix++;
	if (*suffix != '\0')
		return -EINVAL;
	*mult = UINT64_C(1) << shift;
	return 0;
}

int units_parse_size(const char *s, uint64_t *out)
{
	const char *int_end, *end;
	uint64_t mult, ip = 0, frac = 0, scale = 1;
	int err;

	if (!s || !(end = scan_number(s, &int_end)))
		return -EINVAL;
	err = size_multiplier(end, &mult);
	if (err < 0)
		return err;

	for (const char *p = s; p < int_end; p++)
		if (__builtin_mul_overflow(ip, 10, &ip) ||
		    __builtin_add_overflow(ip, (uint64_t)(*p - '0'), &ip))
			return -ERANGE;

	if (*int_end == '.') {
		const char *f = int_end + 1, *fe = end;
		while (fe > f && fe[-1] == '0')
			fe--;
		if (fe - f > UNITS_MAX_FRAC_DIGITS)
			return -EINVAL;
		for (const char *p = f; p < fe; p++) {
			frac = frac * 10 + (uint64_t)(*p - '0');
			scale *= 10;
		}
	}

	unsigned __int128 whole = (unsigned __int128)ip * mult;
	unsigned __int128 part = (unsigned __int128)frac * mult;
	if (part % scale != 0)
		return -EINVAL; /* not a whole number of bytes */
	whole += part / scale;
	if (whole > UINT64_MAX)
		return -ERANGE;
	*out = (uint64_t)whole;
	return 0;
}

/* Parse the number at s up to end into *out (finite, >= 0). */
static int parse_plain(const char *s, const char *end, double *out)
{
	char buf[64];
	size_t n = (size_t)(end - s);
	double v;

	if (n >= sizeof(buf))
		return -ERANGE;
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	v = strtod(buf, NULL);
	if (errno == ERANGE || !isfinite(v))
		return -ERANGE;
	*out = v;
	return 0;
}

int units_parse_seconds(const char *s, double *out)
{
	const char *int_end, *end;
	double v, mult;
	int err;

	if (!s || !(end = scan_number(s, &int_end)))
		return -EINVAL;
	switch (tolower((unsigned char)*end)) {
	case '\0':
	case 's':
		mult = 1.0;
		break;
	case 'm':
		mult = 60.0;
		break;
	case 'h':
		mult = 3600.0;
		break;
	default:
		return -EINVAL;
	}
	if (*end != '\0' && end[1] != '\0')
		return -EINVAL;
	err = parse_plain(s, end, &v);
	if (err < 0)
		return err;
	v *= mult;
	if (!isfinite(v))
		return -ERANGE;
	*out = v;
	return 0;
}

int units_parse_number(const char *s, double *out)
{
	const char *int_end, *end;

	if (!s || !(end = scan_number(s, &int_end)) || *end != '\0')
		return -EINVAL;
	return parse_plain(s, end, out);
}

const char *units_fmt_size(uint64_t v, char *buf, size_t len)
{
	static const char suffix[] = "tgmk";
	static const unsigned shift[] = { 40, 30, 20, 10 };

	if (len == 0)
		return buf;
	for (int i = 0; v != 0 && i < 4; i++) {
		uint64_t unit = UINT64_C(1) << shift[i];
		if (v % unit == 0) {
			snprintf(buf, len, "%llu%c",
				 (unsigned long long)(v >> shift[i]),
				 suffix[i]);
			return buf;
		}
	}
	snprintf(buf, len, "%llu", (unsigned long long)v);
	return buf;
}

const char *units_fmt_iec(uint64_t b, char *buf, size_t len)
{
	static const char *const units[] = { "B",   "KiB", "MiB",
					     "GiB", "TiB", "PiB" };
	double v = (double)b;
	int u = 0;

	while (v >= 1024 && u < 5) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", v, units[u]);
	return buf;
}
