/*
 * The file tree of a Vdbench fsd= (see fstree.h): counts, names, order and
 * file sizes, with java.util.Random's generator so that a seed gives the
 * sizes Vdbench gives with it. Pure.
 */
#include "common/fstree.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* java.util.Random: a 48-bit linear congruential generator. */
#define JR_MULT 0x5DEECE66Dull
#define JR_ADD 0xBull
#define JR_MASK ((1ull << 48) - 1)

static uint64_t jr_seed(uint64_t seed)
{
	return (seed ^ JR_MULT) & JR_MASK;
}

static int32_t jr_next(uint64_t *s, int bits)
{
	*s = (*s * JR_MULT + JR_ADD) & JR_MASK;
	return (int32_t)(*s >> (48 - bits));
}

/* Random.nextInt(bound), bound > 0, with Java's rejection rule. */
static int32_t jr_next_int(uint64_t *s, int32_t bound)
{
	int32_t r = jr_next(s, 31);
	int32_t m = bound - 1;

	if ((bound & m) == 0)
		return (int32_t)(((int64_t)bound * r) >> 31);
	for (int32_t u = r;; u = jr_next(s, 31)) {
		r = u % bound;
		/* Java tests u - r + m < 0 in 32-bit arithmetic (overflow). */
		if ((int64_t)u - r + m <= INT32_MAX)
			return r;
	}
}

/* width^level, or 0 when it passes FSTREE_ENTRIES_MAX. */
static uint64_t level_dirs(uint32_t width, uint32_t level)
{
	uint64_t n = 1;

	for (uint32_t l = 0; l < level; l++) {
		if (n > FSTREE_ENTRIES_MAX / width)
			return 0;
		n *= width;
	}
	return n;
}

/* Directories above level (levels 1 .. level-1); the shape is checked. */
static uint64_t dirs_before(uint32_t width, uint32_t level)
{
	uint64_t n = 0;

	for (uint32_t l = 1; l < level; l++)
		n += level_dirs(width, l);
	return n;
}

static int digits(uint64_t v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* One file's size: Vdbench's getFileSize() (and calculateVarSize()). */
static uint64_t draw_size(const struct fstree_shape *sh, uint64_t *rng)
{
	if (sh->nsizes == 1 && !sh->average)
		return sh->size[0];
	if (sh->average) {
		int32_t wanted = (int32_t)sh->size[0];
		int32_t half = wanted / 2;
		float result = (float)(jr_next_int(rng, wanted) + half);
		float unit;

		if (result >= 10.0f * 1048576)
			unit = 1048576;
		else if (wanted >= 1048576)
			unit = 102400;
		else if (wanted >= 102400)
			unit = 10240;
		else
			unit = 1024;
		return (uint64_t)floorf(result / unit + 0.5f) * (uint64_t)unit;
	}
	int32_t pct = jr_next_int(rng, 100);
	uint32_t cum = 0, i;

	for (i = 0; i + 1 < sh->nsizes; i++) {
		cum += sh->pct[i];
		if ((uint32_t)pct < cum)
			break;
	}
	return sh->size[i];
}

int fstree_level_has_files(const struct fstree_shape *shape, uint32_t level)
{
	if (shape->dist == FSTREE_DIST_ALL)
		return level >= 1 && level <= shape->depth;
	return level == shape->depth;
}

static int check_sizes(const struct fstree_shape *sh, char *err, size_t errlen)
{
	uint32_t total = 0;

	if (sh->nsizes < 1 || sh->nsizes > FSTREE_SIZES_MAX) {
		snprintf(err, errlen,
			 "sizes= needs 1 to %d sizes, not %" PRIu32,
			 FSTREE_SIZES_MAX, sh->nsizes);
		return -EINVAL;
	}
	if (sh->average) {
		if (sh->nsizes != 1 || sh->size[0] < 1 ||
		    sh->size[0] > (1u << 30)) {
			snprintf(err, errlen,
				 "sizes=(size,0) (files averaging size) takes one "
				 "size of 1 byte to 1g");
			return -EINVAL;
		}
		return 0;
	}
	if (sh->nsizes == 1)
		return 0;
	for (uint32_t i = 0; i < sh->nsizes; i++) {
		if (sh->pct[i] > 100) {
			snprintf(err, errlen,
				 "sizes=: percentage %" PRIu32
				 " of size %" PRIu64 " is over 100",
				 sh->pct[i], sh->size[i]);
			return -EINVAL;
		}
		total += sh->pct[i];
	}
	if (total != 100) {
		snprintf(err, errlen,
			 "sizes=(size,pct,...): the percentages add up to %" PRIu32
			 ", not 100",
			 total);
		return -EINVAL;
	}
	return 0;
}

int fstree_check(const struct fstree_shape *shape, struct fstree_counts *counts,
		 char *err, size_t errlen)
{
	const struct fstree_shape *sh = shape;
	uint64_t dirs = 0, holders, files, plen = 0;
	int ret;

	if (sh->depth < 1 || sh->width < 1) {
		snprintf(err, errlen,
			 "depth= and width= must be at least 1 (%s=0)",
			 sh->depth < 1 ? "depth" : "width");
		return -EINVAL;
	}
	if (sh->files < 1 || sh->files > FSTREE_FILES_MAX) {
		snprintf(err, errlen,
			 "files=%" PRIu32 ": files= must be 1 to %u (Vdbench's "
			 "limit of files in one directory)",
			 sh->files, FSTREE_FILES_MAX);
		return -EINVAL;
	}
	if (sh->dist != FSTREE_DIST_BOTTOM && sh->dist != FSTREE_DIST_ALL) {
		snprintf(err, errlen, "distribution= is bottom or all");
		return -EINVAL;
	}
	ret = check_sizes(sh, err, errlen);
	if (ret)
		return ret;
	for (uint32_t l = 1; l <= sh->depth; l++) {
		uint64_t n = level_dirs(sh->width, l);

		if (!n || dirs + n > FSTREE_ENTRIES_MAX)
			goto too_big;
		dirs += n;
		/* "vdb." L "_" W ".dir/" at this level. */
		plen += 10 + (uint64_t)digits(l) + (uint64_t)digits(sh->width);
	}
	holders = sh->dist == FSTREE_DIST_ALL ?
			  dirs :
			  level_dirs(sh->width, sh->depth);
	if (holders > (FSTREE_ENTRIES_MAX - dirs) / sh->files)
		goto too_big;
	files = holders * sh->files;
	/* "vdb_f" NNNN ".file" */
	plen += 10 + (uint64_t)(digits(sh->files) < 4 ? 4 : digits(sh->files));
	if (plen >= FSTREE_PATH_MAX) {
		snprintf(err, errlen,
			 "depth=%" PRIu32
			 ": a path in this tree would be %" PRIu64
			 " bytes, over the limit of %d",
			 sh->depth, plen, FSTREE_PATH_MAX - 1);
		return -E2BIG;
	}
	if (counts) {
		uint64_t rng = jr_seed(sh->seed), bytes = 0;

		for (uint64_t i = 0; i < files; i++) {
			uint64_t s = draw_size(sh, &rng);

			if (bytes > UINT64_MAX - s) {
				snprintf(err, errlen,
					 "the files of this tree add up to more "
					 "than 2^64 bytes");
				return -E2BIG;
			}
			bytes += s;
		}
		counts->dirs = dirs;
		counts->files = files;
		counts->bytes = bytes;
	}
	return 0;
too_big:
	snprintf(err, errlen,
		 "depth=%" PRIu32 ",width=%" PRIu32 ",files=%" PRIu32
		 ": the tree would have more than %llu directories and files",
		 sh->depth, sh->width, sh->files, FSTREE_ENTRIES_MAX);
	return -E2BIG;
}

void fstree_iter_init(struct fstree_iter *it, const struct fstree_shape *shape)
{
	memset(it, 0, sizeof(*it));
	it->shape = shape;
	it->dirs = dirs_before(shape->width, shape->depth + 1);
	it->rng = jr_seed(shape->seed);
	it->share_count = 1;
	if (shape->dist == FSTREE_DIST_BOTTOM)
		it->file_dir = dirs_before(shape->width, shape->depth);
}

int fstree_iter_share(struct fstree_iter *it, uint32_t no, uint32_t count)
{
	if (!count || no >= count)
		return -EINVAL;
	it->share_no = no;
	it->share_count = count;
	return 0;
}

/* The path of directory g (Vdbench's sorted order) into buf; its level. */
static uint32_t dir_path(const struct fstree_shape *sh, uint64_t g, char *buf,
			 size_t len)
{
	/* Each level takes at least 12 bytes of a path: depth is bounded. */
	uint32_t w[FSTREE_PATH_MAX / 12 + 2], level = 1;
	uint64_t n = sh->width, below;
	size_t at = 0;

	while (g >= n) {
		g -= n;
		n *= sh->width;
		level++;
	}
	/*
	 * Within a level Vdbench's stable sort on (level, own width) keeps
	 * the creation order (depth first) among equals: the own width
	 * index is the most significant digit, then the parent's path.
	 */
	below = n / sh->width;
	w[level] = (uint32_t)(g / below);
	g %= below;
	for (uint32_t l = level - 1; l >= 1; l--) {
		w[l] = (uint32_t)(g % sh->width);
		g /= sh->width;
	}
	for (uint32_t l = 1; l <= level; l++)
		at += (size_t)snprintf(buf + at, len - at,
				       "%svdb.%" PRIu32 "_%" PRIu32 ".dir",
				       l > 1 ? "/" : "", l, w[l] + 1);
	return level;
}

int fstree_next(struct fstree_iter *it, struct fstree_entry *e)
{
	const struct fstree_shape *sh = it->shape;

	if (it->phase == 0) {
		if (it->dir_at < it->dirs) {
			e->is_dir = 1;
			e->size = 0;
			e->index = it->dir_at;
			e->level = dir_path(sh, it->dir_at, e->path,
					    sizeof(e->path));
			it->dir_at++;
			return 1;
		}
		it->phase = 1;
	}
	while (it->phase == 1) {
		uint64_t index = it->file_index++, no = it->file_no;
		uint64_t size;
		size_t at;

		if (it->file_dir >= it->dirs) {
			it->phase = 2;
			return 0;
		}
		/* Drawn before the share test, as Vdbench does. */
		size = draw_size(sh, &it->rng);
		if (++it->file_no == sh->files)
			it->file_no = 0;
		if (index % it->share_count != it->share_no) {
			if (!it->file_no)
				it->file_dir++;
			continue;
		}
		e->is_dir = 0;
		e->index = index;
		e->size = size;
		e->level = dir_path(sh, it->file_dir, e->path, sizeof(e->path));
		at = strlen(e->path);
		snprintf(e->path + at, sizeof(e->path) - at,
			 "/vdb_f%04" PRIu64 ".file", no + 1);
		if (!it->file_no)
			it->file_dir++;
		return 1;
	}
	return 0;
}

/* A decimal without sign or leading zero at *p, up to stop; -1 if none. */
static int64_t parse_num(const char **p, int allow_lead_zero)
{
	const char *s = *p;
	int64_t v = 0;

	if (*s < '0' || *s > '9' ||
	    (!allow_lead_zero && s[0] == '0' && s[1] >= '0' && s[1] <= '9'))
		return -1;
	while (*s >= '0' && *s <= '9') {
		v = v * 10 + (*s - '0');
		if (v > UINT32_MAX)
			return -1;
		s++;
	}
	*p = s;
	return v;
}

enum fstree_name fstree_name_kind(const struct fstree_shape *shape,
				  uint32_t level, const char *name)
{
	const char *p = name;
	int64_t a, b;

	if (!strncmp(p, "vdb.", 4)) {
		p += 4;
		a = parse_num(&p, 0);
		if (a < 0 || *p++ != '_')
			return FSTREE_NAME_FOREIGN;
		b = parse_num(&p, 0);
		if (b < 1 || strcmp(p, ".dir"))
			return FSTREE_NAME_FOREIGN;
		if ((uint64_t)a != (uint64_t)level + 1 || a > shape->depth ||
		    b > shape->width)
			return FSTREE_NAME_FOREIGN;
		return FSTREE_NAME_DIR;
	}
	if (!strncmp(p, "vdb_f", 5)) {
		char canon[32];

		p += 5;
		a = parse_num(&p, 1);
		if (a < 1 || a > shape->files || strcmp(p, ".file"))
			return FSTREE_NAME_FOREIGN;
		/* Only the spelling Vdbench writes (%04d) is ours. */
		snprintf(canon, sizeof(canon), "vdb_f%04" PRId64 ".file", a);
		if (strcmp(canon, name) ||
		    !fstree_level_has_files(shape, level))
			return FSTREE_NAME_FOREIGN;
		return FSTREE_NAME_FILE;
	}
	return FSTREE_NAME_FOREIGN;
}

int fstree_marker_text(const struct fstree_shape *shape, char *buf, size_t len)
{
	const struct fstree_shape *sh = shape;
	size_t at = 0;
	int n;

	n = snprintf(buf, len,
		     "lockstep-anchor 1\ndepth %" PRIu32 "\nwidth %" PRIu32
		     "\nfiles %" PRIu32 "\ndistribution %s\nseed %" PRIu64 "\n",
		     sh->depth, sh->width, sh->files,
		     sh->dist == FSTREE_DIST_ALL ? "all" : "bottom", sh->seed);
	if (n < 0 || (size_t)n >= len)
		return -ENOSPC;
	at = (size_t)n;
	for (uint32_t i = 0; i < sh->nsizes; i++) {
		uint32_t pct = sh->average     ? 0 :
			       sh->nsizes == 1 ? 100 :
						 sh->pct[i];

		n = snprintf(buf + at, len - at,
			     "size %" PRIu64 " %" PRIu32 "\n", sh->size[i],
			     pct);
		if (n < 0 || (size_t)n >= len - at)
			return -ENOSPC;
		at += (size_t)n;
	}
	return (int)at;
}

/* Random.nextDouble(): 53 bits, [0, 1). */
static double jr_next_double(uint64_t *s)
{
	int64_t hi = jr_next(s, 26), lo = jr_next(s, 27);

	return (double)((hi << 27) + lo) * 0x1.0p-53;
}

int fstree_subset(const uint64_t *size, uint64_t n, uint64_t want, uint64_t *in,
		  uint64_t *picked)
{
	uint64_t s = jr_seed(0), total = 0, got = 0, again = 0;

	*picked = 0;
	for (uint64_t f = 0; f < n; f++)
		total = total + size[f] < total ? UINT64_MAX : total + size[f];
	if (want > total)
		return -ERANGE;
	while (got < want) {
		uint64_t f = (uint64_t)(jr_next_double(&s) * (double)n);

		if (f >= n || (in[f >> 6] >> (f & 63)) & 1) {
			if (++again > FSTREE_SUBSET_TRIES)
				return -EAGAIN;
			continue;
		}
		again = 0;
		in[f >> 6] |= UINT64_C(1) << (f & 63);
		got += size[f];
		(*picked)++;
	}
	return 0;
}
