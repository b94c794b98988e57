/*
 * Sizes and durations as people write them in parameter files and on
 * command lines: "4k", "1m", "256m", "10g" (binary multiples), "30", "30s",
 * "5m", "1h".
 */
#ifndef LOCKSTEP_COMMON_UNITS_H
#define LOCKSTEP_COMMON_UNITS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Parse a size: a non-negative integer or decimal with an optional suffix
 * k/m/g/t (KiB.. TiB, case-insensitive, optional trailing 'b'). The whole
 * string must be consumed. Returns 0 or -EINVAL / -ERANGE.
 */
int units_parse_size(const char *s, uint64_t *out);
/* Parse a duration in seconds with optional suffix s/m/h. Returns 0/-EINVAL. */
int units_parse_seconds(const char *s, double *out);
/* Parse a plain non-negative number (integer or decimal). Returns 0/-EINVAL. */
int units_parse_number(const char *s, double *out);
/* Format a size compactly ("4k", "1m", "3g", "1234"). Returns buf. */
const char *units_fmt_size(uint64_t v, char *buf, size_t len);
/* Format bytes for people, one decimal in binary units ("1.5 GiB",
   "512 B"). Returns buf. */
const char *units_fmt_iec(uint64_t b, char *buf, size_t len);

#endif
