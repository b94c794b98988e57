/*
 * The addresses of the live export's options, parsed and checked (pure):
 * Graphite's HOST:PORT and InfluxDB's URL. Used by export.c's option
 * checks and by the sinks that connect to them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "master/export/export_int.h"

static int port_parse(const char *s, unsigned *port)
{
	char *end;
	unsigned long v;

	if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 5)
		return -EINVAL;
	v = strtoul(s, &end, 10);
	if (v < 1 || v > 65535)
		return -EINVAL;
	*port = (unsigned)v;
	return 0;
}

/* Letters, digits, '.', '-', ':' (IPv6 inside brackets) only. */
static int host_ok(const char *h, int v6)
{
	if (!*h || strlen(h) > 253)
		return 0;
	for (const char *p = h; *p; p++) {
		char c = *p;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '.' || c == '-' ||
		      (v6 && c == ':')))
			return 0;
	}
	return 1;
}

int export_parse_hostport(const char *s, char *host, size_t hostlen,
			  unsigned *port)
{
	const char *colon;
	size_t n;
	int v6 = 0;

	if (!s)
		return -EINVAL;
	if (s[0] == '[') {
		const char *close = strchr(s, ']');

		if (!close || close[1] != ':')
			return -EINVAL;
		n = (size_t)(close - s - 1);
		colon = close + 1;
		s++;
		v6 = 1;
	} else {
		colon = strrchr(s, ':');
		if (!colon || strchr(s, ':') != colon)
			return -EINVAL;
		n = (size_t)(colon - s);
	}
	if (n == 0 || n >= hostlen)
		return -EINVAL;
	memcpy(host, s, n);
	host[n] = 0;
	if (!host_ok(host, v6))
		return -EINVAL;
	return port_parse(colon + 1, port);
}

/* Characters allowed in the request target: no space, CR, LF, '#'. */
static int target_ok(const char *t)
{
	for (const char *p = t; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (c <= ' ' || c >= 127 || c == '#' || c == '"' || c == '\\')
			return 0;
	}
	return 1;
}

int export_parse_url(const char *url, char *host, size_t hostlen,
		     unsigned *port, char *target, size_t targetlen, char *err,
		     size_t errlen)
{
	char hp[300];
	const char *rest, *slash, *q;
	size_t n;

	if (!url || strncmp(url, "http://", 7) != 0) {
		snprintf(err, errlen,
			 "wants http://HOST:PORT/write?db=NAME (https is not supported)");
		return -EINVAL;
	}
	rest = url + 7;
	slash = strchr(rest, '/');
	if (!slash) {
		snprintf(err, errlen, "has no path: wants /write?db=NAME");
		return -EINVAL;
	}
	n = (size_t)(slash - rest);
	if (n == 0 || n >= sizeof(hp)) {
		snprintf(err, errlen, "has no host");
		return -EINVAL;
	}
	memcpy(hp, rest, n);
	hp[n] = 0;
	if (memchr(hp, '@', n)) {
		snprintf(err, errlen, "carries credentials: not supported");
		return -EINVAL;
	}
	if (!strchr(hp, ':') || (hp[0] == '[' && !strstr(hp, "]:"))) {
		/* No port: InfluxDB's 8086. */
		char tmp[310];

		snprintf(tmp, sizeof(tmp), "%s:8086", hp);
		snprintf(hp, sizeof(hp), "%s", tmp);
	}
	if (export_parse_hostport(hp, host, hostlen, port) < 0) {
		snprintf(err, errlen, "has a bad host or port (port 1..65535)");
		return -EINVAL;
	}
	if (strncmp(slash, "/write?", 7) != 0) {
		snprintf(err, errlen, "wants the path /write?db=NAME");
		return -EINVAL;
	}
	q = slash + 7;
	if (!(strncmp(q, "db=", 3) == 0 || strstr(q, "&db=")) ||
	    !target_ok(slash)) {
		snprintf(err, errlen,
			 "wants a db=NAME parameter and no spaces or control characters");
		return -EINVAL;
	}
	{
		const char *db = strncmp(q, "db=", 3) == 0 ?
					 q + 3 :
					 strstr(q, "&db=") + 4;

		if (!*db || *db == '&') {
			snprintf(err, errlen, "has an empty db=");
			return -EINVAL;
		}
	}
	if (strlen(slash) >= targetlen) {
		snprintf(err, errlen, "is too long");
		return -EINVAL;
	}
	snprintf(target, targetlen, "%s", slash);
	return 0;
}
