/*
 * probe= definitions: a command the master samples during the run (exec=,
 * every=, timeout=), whose output is one number or KEY=VALUE pairs
 * (master/events/probes.c runs it), and the until=probe: condition of an
 * ev= line that ends the event at the first sample that meets it. A probe
 * runs on the master only: a daemon never runs a master's commands, so a
 * command that must look at another host reaches it itself (ssh, curl, an
 * API client); host= is refused with that said. Every check needs the file
 * alone and points at the value at fault.
 */
#include "master/params/params_int.h"
#include "common/units.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* every= at least this (a shell 10 times a second is plenty). */
#define PROBE_EVERY_MIN_S 0.1
/* The default timeout= is every= up to this. */
#define PROBE_TIMEOUT_DEFAULT_MAX_S 30.0

int probe_set_host(struct parser *p, const struct kw *kw, void *obj,
		   const struct item *it)
{
	(void)obj;
	return perr(p, it->kpos,
		    "%s=%.*s: a probe runs on the master only (no daemon runs a master's commands); to sample another host, the command reaches it itself: exec=\"ssh HOST CMD\"",
		    kw->name, show(it->rawlen), it->raw);
}

int probe_set_every(struct parser *p, const struct kw *kw, void *obj,
		    const struct item *it)
{
	struct params_probe *pr = obj;
	const struct val *v = values_single(p, kw, it);
	int ret;

	if (!v)
		return -EINVAL;
	ret = values_seconds(p, kw, v, &pr->every_s);
	if (!ret && pr->every_s < PROBE_EVERY_MIN_S)
		return perr(p, v->pos, "%s=%.*s: at least %gs", kw->name,
			    show(v->len), v->s, PROBE_EVERY_MIN_S);
	return ret;
}

int probe_finish(struct parser *p)
{
	struct params_probe *pr = &p->cur.probe;

	if (!pr->exec[0])
		return perr(p, p->dpos,
			    "probe=%s needs exec= (the command to sample)",
			    pr->name);
	if (!params_from(p, "timeout").line)
		pr->timeout_s = pr->every_s < PROBE_TIMEOUT_DEFAULT_MAX_S ?
					pr->every_s :
					PROBE_TIMEOUT_DEFAULT_MAX_S;
	return 0;
}

/* ---- until=probe:NAME.KEY<op>VALUE ---------------------------------------- */

bool params_cmp_holds(enum params_cmp op, double x, double v)
{
	switch (op) {
	case PARAMS_CMP_EQ:
		return x == v;
	case PARAMS_CMP_NE:
		return x != v;
	case PARAMS_CMP_LT:
		return x < v;
	case PARAMS_CMP_LE:
		return x <= v;
	case PARAMS_CMP_GT:
		return x > v;
	case PARAMS_CMP_GE:
		return x >= v;
	}
	return false;
}

const char *params_cmp_name(enum params_cmp op)
{
	static const char *const names[] = {
		[PARAMS_CMP_EQ] = "==", [PARAMS_CMP_NE] = "!=",
		[PARAMS_CMP_LT] = "<",  [PARAMS_CMP_LE] = "<=",
		[PARAMS_CMP_GT] = ">",  [PARAMS_CMP_GE] = ">=",
	};

	return (unsigned)op < sizeof(names) / sizeof(names[0]) ? names[op] :
								 "?";
}

/* A byte of a probe's name or key: letters, digits, '_', '.', '-'. */
static bool ref_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
}

int params_probe_until_parse(const char *s, size_t len, char *ref,
			     size_t refsize, enum params_cmp *op, double *value,
			     const char **why)
{
	size_t n = 0, oplen;
	char num[64], *end;

	while (n < len && ref_char(s[n]))
		n++;
	if (!n) {
		*why = "no probe name before the comparison";
		return -EINVAL;
	}
	if (n >= refsize) {
		*why = "the probe name and key are too long";
		return -EINVAL;
	}
	if (n == len) {
		*why = "no comparison (==, !=, <, <=, >, >=) after the probe name";
		return -EINVAL;
	}
	oplen = n + 1 < len && s[n + 1] == '=' ? 2 : 1;
	if (s[n] == '=' && oplen == 2)
		*op = PARAMS_CMP_EQ;
	else if (s[n] == '!' && oplen == 2)
		*op = PARAMS_CMP_NE;
	else if (s[n] == '<')
		*op = oplen == 2 ? PARAMS_CMP_LE : PARAMS_CMP_LT;
	else if (s[n] == '>')
		*op = oplen == 2 ? PARAMS_CMP_GE : PARAMS_CMP_GT;
	else {
		*why = "the comparison is not one of ==, !=, <, <=, >, >=";
		return -EINVAL;
	}
	if (len - n - oplen == 0 || len - n - oplen >= sizeof(num)) {
		*why = "no number after the comparison";
		return -EINVAL;
	}
	memcpy(num, s + n + oplen, len - n - oplen);
	num[len - n - oplen] = '\0';
	errno = 0;
	*value = strtod(num, &end);
	if (end == num || *end || errno || !isfinite(*value) ||
	    strspn(num, " \t")) {
		*why = "the value compared with is not a finite number";
		return -EINVAL;
	}
	memcpy(ref, s, n);
	ref[n] = '\0';
	return 0;
}

/*
 * The probe and key ref names: ref whole is a probe (key "value"), else
 * the longest probe name followed by '.' and a key. -1 when none fits.
 */
static long ref_resolve(struct parser *p, const char *ref, const char **key)
{
	size_t len = strlen(ref);
	long at = params_lookup(p, KIND_PROBE, ref, len);

	*key = "value";
	while (at < 0) {
		/* The next '.' to the left ends a shorter name. */
		while (len && ref[--len] != '.')
			;
		if (!len)
			break;
		at = params_lookup(p, KIND_PROBE, ref, len);
		*key = ref + len + 1;
	}
	return at;
}

/* until=probe:REF<op>VALUE of ev, v the whole value (after "probe:"). */
int probe_until(struct parser *p, struct params_ev *ev, const struct val *v)
{
	char ref[PARAMS_NAME_MAX + PARAMS_PROBE_KEY_MAX];
	const char *why = NULL, *key;
	const char *s = v->s + 6;
	size_t len = v->len - 6;
	long at;

	if (params_probe_until_parse(s, len, ref, sizeof(ref), &ev->upr.op,
				     &ev->upr.value, &why))
		return perr(p, v->pos,
			    "until=%.*s: %s (until=probe:NAME.KEY<op>VALUE, or probe:NAME<op>VALUE for a probe that prints one number)",
			    show(v->len), v->s, why);
	at = ref_resolve(p, ref, &key);
	if (at < 0)
		return perr(p, v->pos,
			    "until=%.*s: no probe= line defines %s (probes are defined before the ev= lines)",
			    show(v->len), v->s, ref);
	if (!*key || strlen(key) >= sizeof(ev->upr.key))
		return perr(p, v->pos, "until=%.*s: the key is %s",
			    show(v->len), v->s, *key ? "too long" : "empty");
	ev->upr.probe = (unsigned)at;
	strcpy(ev->upr.key, key);
	ev->until_probe = true;
	return 0;
}
