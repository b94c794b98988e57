/*
 * The planner's error formatter: "FILE:LINE:COLUMN: message" for a
 * position in the parameter files. Its own file because every part of the
 * planner reports through it (plan.c, plan_slave.c, plan_validate.c,
 * evplan.c) and plan.c calls plan_validate.c: kept in plan.c, the two
 * would call each other. See plan_int.h.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include "master/plan/plan_int.h"

int plan_err(const struct params *p, struct params_pos pos, char *err,
	     size_t errlen, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!err || !errlen)
		return -EINVAL;
	n = snprintf(err, errlen, "%s:%u:%u: ", params_file(p, pos), pos.line,
		     pos.col);
	if (n < 0 || (size_t)n >= errlen)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}
