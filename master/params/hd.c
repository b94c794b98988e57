/*
 * hd= (host) definitions: how a host's slaves are started (shell=) and how
 * many run there (slaves=), and what a finished hd= definition defaults.
 */
#include "master/params/params_int.h"

#include <errno.h>
#include <string.h>

int hd_set_shell(struct parser *p, const struct kw *kw, void *obj,
		 const struct item *it)
{
	struct params_hd *hd = obj;
	const struct val *v = values_single(p, kw, it);

	if (!v)
		return -EINVAL;
	if (val_is(v, "ssh"))
		hd->shell = PARAMS_SHELL_SSH;
	/* Vdbench's own daemon is what lockstep's registering slaves are. */
	else if (val_is(v, "none") || val_is(v, "vdbench"))
		hd->shell = PARAMS_SHELL_NONE;
	else
		return perr(p, v->pos,
			    "%s=%.*s is not supported (use ssh or none)",
			    kw->name, show(v->len), v->s);
	return 0;
}

int hd_set_slaves(struct parser *p, const struct kw *kw, void *obj,
		  const struct item *it)
{
	struct params_hd *hd = obj;
	const struct val *v = values_single(p, kw, it);
	double d;
	int ret = v ? 0 : -EINVAL;

	if (!ret)
		ret = values_whole(p, kw, v, 1, SLAVES_MAX, &d);
	if (!ret)
		hd->slaves = (unsigned)d;
	return ret;
}

int hd_finish(struct parser *p)
{
	struct params_hd *hd = &p->cur.hd;

	if (!hd->system[0])
		memcpy(hd->system, hd->name, sizeof(hd->name));
	return 0;
}
