/*
 * sd= (storage) definitions: the size, alignment, offset, threads (I/Os in
 * flight), open flags and hosts of a target, and the check that a finished
 * sd= names its lun=.
 */
#include "master/params/params_int.h"

#include <errno.h>
#include <stdint.h>

int sd_set_size(struct parser *p, const struct kw *kw, void *obj,
		const struct item *it)
{
	struct params_sd *sd = obj;
	const struct val *v = values_single(p, kw, it);
	int ret = v ? 0 : -EINVAL;

	if (!ret)
		ret = values_size(p, kw, v, &sd->size);
	return ret ? ret : values_positive(p, kw, v, (double)sd->size, "");
}

/* A byte count that must be a multiple of 512 (offset=, align=). */
static int sector_size(struct parser *p, const struct kw *kw,
		       const struct item *it, bool zero_ok, uint64_t *out)
{
	const struct val *v = values_single(p, kw, it);
	int ret = v ? 0 : -EINVAL;

	if (!ret)
		ret = values_size(p, kw, v, out);
	if (ret)
		return ret;
	if (!zero_ok && !*out)
		return values_positive(p, kw, v, 0, "");
	if (*out % 512)
		return perr(p, v->pos, "%s=%.*s is not a multiple of 512",
			    kw->name, show(v->len), v->s);
	return 0;
}

/* hitarea=: the bytes at the range's start that take the cache hits. */
int sd_set_hitarea(struct parser *p, const struct kw *kw, void *obj,
		   const struct item *it)
{
	struct params_sd *sd = obj;
	const struct val *v = values_single(p, kw, it);
	char b[SHOW_MAX + 1];
	int ret = v ? values_size(p, kw, v, &sd->hitarea) : -EINVAL;

	return ret ? ret :
		     values_check_hitarea(p, kw, v->pos, shown(v, b, sizeof(b)),
					  (double)sd->hitarea);
}

int sd_set_offset(struct parser *p, const struct kw *kw, void *obj,
		  const struct item *it)
{
	struct params_sd *sd = obj;

	return sector_size(p, kw, it, true, &sd->offset);
}

int sd_set_align(struct parser *p, const struct kw *kw, void *obj,
		 const struct item *it)
{
	struct params_sd *sd = obj;
	uint64_t n = 0;
	int ret = sector_size(p, kw, it, false, &n);

	if (!ret && n > UINT32_MAX)
		return perr(p, it->vpos, "%s=%.*s is too large", kw->name,
			    show(it->rawlen), it->raw);
	sd->align = (uint32_t)n;
	return ret;
}

int sd_set_threads(struct parser *p, const struct kw *kw, void *obj,
		   const struct item *it)
{
	struct params_sd *sd = obj;
	const struct val *v = values_single(p, kw, it);
	double d;
	int ret = v ? 0 : -EINVAL;

	if (!ret)
		ret = values_whole(p, kw, v, 1, THREADS_MAX, &d);
	if (!ret)
		sd->threads = (unsigned)d;
	return ret;
}

/*
 * Vdbench's Linux names (OpenFlags.java): o_direct and directio are
 * O_DIRECT, o_dsync O_DSYNC, o_sync O_SYNC. Its fsync, o_rsync and
 * 0x... numbers are refused: lockstep opens with flags it can name.
 */
int sd_parse_openflags(struct parser *p, const struct kw *kw,
		       const struct item *it, unsigned *flags)
{
	*flags = 0;
	for (size_t i = 0; i < it->nval; i++) {
		const struct val *v = &it->val[i];

		if (val_is(v, "o_direct") || val_is(v, "directio"))
			*flags |= PARAMS_O_DIRECT;
		else if (val_is(v, "o_dsync"))
			*flags |= PARAMS_O_DSYNC;
		else if (val_is(v, "o_sync"))
			*flags |= PARAMS_O_SYNC;
		else
			return perr(p, v->pos,
				    "%s=%.*s is not supported (use o_direct, directio, o_dsync or o_sync)",
				    kw->name, show(v->len), v->s);
	}
	return 0;
}

int sd_set_openflags(struct parser *p, const struct kw *kw, void *obj,
		     const struct item *it)
{
	struct params_sd *sd = obj;

	return sd_parse_openflags(p, kw, it, &sd->openflags);
}

int sd_set_host(struct parser *p, const struct kw *kw, void *obj,
		const struct item *it)
{
	struct params_sd *sd = obj;

	return params_set_hosts(p, kw, it, sd->host, &sd->nhost);
}

int sd_finish(struct parser *p)
{
	if (!p->cur.sd.lun[0])
		return perr(p, p->dpos, "sd=%s needs lun=", p->cur.sd.name);
	return 0;
}
