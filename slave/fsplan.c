/*
 * A file-system phase's decisions (see fsplan.h): the tree, its state
 * bits, picks and transfers.
 */
#include "slave/fsplan.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t *bits(uint64_t n)
{
	return calloc((size_t)(n / 64 + 1), sizeof(uint64_t));
}

static int add_name(struct fsplan_tree *t, size_t *len, size_t *cap,
		    const char *path)
{
	size_t n = strlen(path) + 1;

	if (*len + n > UINT32_MAX)
		return -E2BIG;
	if (*len + n > *cap) {
		size_t c = *cap ? *cap * 2 : 4096;
		char *p;

		while (c < *len + n)
			c *= 2;
		p = realloc(t->names, c);
		if (!p)
			return -ENOMEM;
		t->names = p;
		*cap = c;
	}
	memcpy(t->names + *len, path, n);
	*len += n;
	return 0;
}

/* The folder holding path (its prefix before the last '/'), from *d on. */
static int find_dir(const struct fsplan_tree *t, const char *path, uint32_t *d)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash ? (size_t)(slash - path) : 0;

	for (; *d < t->ndirs; (*d)++) {
		const char *p = fsplan_dir_path(t, *d);

		if (strlen(p) == n && !memcmp(p, path, n))
			return 0;
	}
	return -EINVAL;
}

/* Folder indexes sorted by path, for finding a parent by its path. */
static const struct fsplan_tree *sort_tree;

static int by_path(const void *a, const void *b)
{
	return strcmp(fsplan_dir_path(sort_tree, *(const uint32_t *)a),
		      fsplan_dir_path(sort_tree, *(const uint32_t *)b));
}

struct prefix {
	const struct fsplan_tree *t;
	const char *p;
	size_t n;
};

static int find_prefix(const void *key, const void *elem)
{
	const struct prefix *k = key;
	const char *q = fsplan_dir_path(k->t, *(const uint32_t *)elem);
	int c = strncmp(k->p, q, k->n);

	return c ? c : q[k->n] ? -1 : 0;
}

/*
 * Every folder's parent, by its path: the walk's order (by level, then
 * width index, then the depth-first order of the parents) does not give
 * it by position. Sorted once, O(folders log folders).
 */
static int set_parents(struct fsplan_tree *t)
{
	uint32_t *idx = malloc(((size_t)t->ndirs + 1) * sizeof(uint32_t));

	if (!idx)
		return -ENOMEM;
	for (uint32_t d = 0; d < t->ndirs; d++)
		idx[d] = d;
	sort_tree = t; /* the slave builds trees on one thread */
	qsort(idx, t->ndirs, sizeof(*idx), by_path);
	for (uint32_t d = 0; d < t->ndirs; d++) {
		const char *p = fsplan_dir_path(t, d);
		const char *slash = strrchr(p, '/');
		struct prefix k = { t, p, slash ? (size_t)(slash - p) : 0 };
		const uint32_t *up;

		t->dir_up[d] = UINT32_MAX;
		if (!slash)
			continue;
		up = bsearch(&k, idx, t->ndirs, sizeof(*idx), find_prefix);
		if (!up) {
			free(idx);
			return -EINVAL;
		}
		t->dir_up[d] = *up;
	}
	free(idx);
	return 0;
}

int fsplan_tree_build(struct fsplan_tree *t, const struct fstree_shape *shape,
		      uint32_t share_no, uint32_t share_count)
{
	struct fstree_counts c;
	struct fstree_iter it;
	struct fstree_entry *e;
	size_t len = 0, cap = 0;
	uint32_t d = 0;
	int ret;

	memset(t, 0, sizeof(*t));
	ret = fstree_check(shape, &c, NULL, 0);
	if (ret < 0)
		return ret;
	if (c.dirs >= UINT32_MAX || c.files >= UINT32_MAX)
		return -E2BIG;
	e = malloc(sizeof(*e));
	t->dir_up = calloc((size_t)c.dirs + 1, sizeof(uint32_t));
	t->dir_name = calloc((size_t)c.dirs + 1, sizeof(uint32_t));
	t->file_dir = calloc((size_t)c.files + 1, sizeof(uint32_t));
	t->file_no = calloc((size_t)c.files + 1, sizeof(uint32_t));
	t->file_size = calloc((size_t)c.files + 1, sizeof(uint64_t));
	t->dkids = calloc((size_t)c.dirs + 1, sizeof(uint32_t));
	t->fexist = bits(c.files);
	t->fbusy = bits(c.files);
	t->dexist = bits(c.dirs);
	t->dbusy = bits(c.dirs);
	if (!e || !t->dir_up || !t->dir_name || !t->file_dir || !t->file_no ||
	    !t->file_size || !t->dkids || !t->fexist || !t->fbusy ||
	    !t->dexist || !t->dbusy) {
		ret = -ENOMEM;
		goto out;
	}
	fstree_iter_init(&it, shape);
	if (share_count > 1 &&
	    (ret = fstree_iter_share(&it, share_no, share_count)) < 0)
		goto out;
	while (fstree_next(&it, e)) {
		if (e->is_dir) {
			t->dir_name[t->ndirs] = (uint32_t)len;
			ret = add_name(t, &len, &cap, e->path);
			if (ret < 0)
				goto out;
			t->ndirs++;
			continue;
		}
		ret = find_dir(t, e->path, &d);
		if (ret < 0)
			goto out;
		t->file_dir[t->nfiles] = d;
		t->file_no[t->nfiles] = (uint32_t)
			strtoul(strrchr(e->path, '/') + 6, NULL, 10);
		t->file_size[t->nfiles] = e->size;
		t->nfiles++;
	}
	ret = set_parents(t);
out:
	free(e);
	if (ret < 0)
		fsplan_tree_free(t);
	return ret;
}

void fsplan_tree_free(struct fsplan_tree *t)
{
	free(t->dir_up);
	free(t->dir_name);
	free(t->file_dir);
	free(t->file_no);
	free(t->file_size);
	free(t->names);
	free(t->fexist);
	free(t->fbusy);
	free(t->dexist);
	free(t->dbusy);
	free(t->dkids);
	free(t->total);
	free(t->use);
	free(t->file_at);
	free(t->fshare);
	memset(t, 0, sizeof(*t));
}

int fsplan_tree_subsets(struct fsplan_tree *t, uint64_t totalsize, uint64_t wss)
{
	uint64_t n = t->nfiles, m = 0, k = 0, picked;
	uint64_t *idx = NULL, *size = NULL, *in = NULL;
	int ret = 0;

	if (!totalsize && !wss)
		return 0;
	if (totalsize) {
		t->total = bits(n);
		if (!t->total)
			return -ENOMEM;
		ret = fstree_subset(t->file_size, n, totalsize, t->total,
				    &picked);
		if (ret < 0 || !wss) {
			/* The fwds use the totalsize= files. */
			wss = 0;
		}
	}
	idx = malloc((size_t)(n + 1) * sizeof(uint64_t));
	size = malloc((size_t)(n + 1) * sizeof(uint64_t));
	if (ret < 0 || !idx || !size) {
		ret = ret < 0 ? ret : -ENOMEM;
		goto out;
	}
	for (uint64_t f = 0; f < n; f++)
		if (!t->total || fsplan_bit(t->total, f)) {
			idx[m] = f;
			size[m++] = t->file_size[f];
		}
	if (wss) {
		/* Drawn from the totalsize= list, with a Random(0) of its own. */
		in = bits(m);
		ret = in ? fstree_subset(size, m, wss, in, &picked) : -ENOMEM;
		if (ret < 0)
			goto out;
		for (uint64_t j = 0; j < m; j++)
			if (fsplan_bit(in, j))
				idx[k++] = idx[j];
		m = k;
	}
	t->use = idx;
	t->nuse = m;
	idx = NULL;
out:
	free(idx);
	free(size);
	free(in);
	return ret;
}

int fsplan_tree_sharing(struct fsplan_tree *t)
{
	if (!t->fshare)
		t->fshare = calloc((size_t)t->nfiles + 1, sizeof(uint32_t));
	return t->fshare ? 0 : -ENOMEM;
}

const char *fsplan_dir_path(const struct fsplan_tree *t, uint32_t d)
{
	return t->names + t->dir_name[d];
}

int fsplan_file_path(const struct fsplan_tree *t, uint64_t f, char *buf,
		     size_t len)
{
	int n = snprintf(buf, len, "%s/vdb_f%04u.file",
			 fsplan_dir_path(t, t->file_dir[f]), t->file_no[f]);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static void kids(struct fsplan_tree *t, uint32_t d, int add)
{
	if (d == UINT32_MAX)
		return;
	if (add)
		t->dkids[d]++;
	else if (t->dkids[d])
		t->dkids[d]--;
}

void fsplan_set_file(struct fsplan_tree *t, uint64_t f, int exists)
{
	if (fsplan_bit(t->fexist, f) == !!exists)
		return;
	fsplan_bit_set(t->fexist, f, exists);
	kids(t, t->file_dir[f], exists);
}

void fsplan_set_dir(struct fsplan_tree *t, uint32_t d, int exists)
{
	if (fsplan_bit(t->dexist, d) == !!exists)
		return;
	fsplan_bit_set(t->dexist, d, exists);
	kids(t, t->dir_up[d], exists);
}

int fsplan_op_dirs(uint32_t op)
{
	return op == PROTO_FSOP_MKDIR || op == PROTO_FSOP_RMDIR;
}

/* A parent that exists and no rmdir is taking now. */
static int up_exists(const struct fsplan_tree *t, uint32_t up)
{
	return up == UINT32_MAX ||
	       (fsplan_bit(t->dexist, up) && !fsplan_bit(t->dbusy, up));
}

int fsplan_ok(const struct fsplan_tree *t, uint32_t op, uint64_t i)
{
	if (fsplan_op_dirs(op)) {
		if (fsplan_bit(t->dbusy, i))
			return 0;
		if (op == PROTO_FSOP_MKDIR)
			return !fsplan_bit(t->dexist, i) &&
			       up_exists(t, t->dir_up[i]);
		return fsplan_bit(t->dexist, i) && !t->dkids[i];
	}
	if (fsplan_bit(t->fbusy, i))
		return 0;
	if (op == PROTO_FSOP_CREATE)
		return !fsplan_bit(t->fexist, i) &&
		       up_exists(t, t->file_dir[i]);
	return fsplan_bit(t->fexist, i);
}

static uint64_t below(struct workload_rng *rng, uint64_t n)
{
	return n ? (uint64_t)(((unsigned __int128)workload_rng_next(rng) * n) >>
			      64) :
		   0;
}

static void busy(struct fsplan_tree *t, uint32_t op, uint64_t i, int on)
{
	fsplan_bit_set(fsplan_op_dirs(op) ? t->dbusy : t->fbusy, i, on);
}

int fsplan_ok_pair(const struct fsplan_tree *s, const struct fsplan_tree *d,
		   uint64_t i)
{
	return !fsplan_bit(s->fbusy, i) && fsplan_bit(s->fexist, i) &&
	       !fsplan_bit(d->fbusy, i) && up_exists(d, d->file_dir[i]);
}

/*
 * Whether i may take op (a copy or move: to file i of d); shared: also
 * an existing file that only shared picks hold.
 */
static int ok_for(const struct fsplan_tree *t, const struct fsplan_tree *d,
		  uint32_t op, int shared, uint64_t i)
{
	if (shared && !d && !fsplan_op_dirs(op) && t->fshare &&
	    fsplan_bit(t->fbusy, i))
		return t->fshare[i] && fsplan_bit(t->fexist, i);
	return d ? fsplan_ok_pair(t, d, i) : fsplan_ok(t, op, i);
}

/*
 * Entry at picked for op (and file at of d): busy, counted in its folder;
 * shared: counted among the file's shared holders.
 */
static int take(struct fsplan_tree *t, struct fsplan_tree *d, uint32_t op,
		int shared, uint64_t at, uint64_t *i)
{
	if (shared && !d && !fsplan_op_dirs(op) && t->fshare)
		t->fshare[at]++;
	busy(t, op, at, 1);
	/* What a create or mkdir will put in a folder keeps rmdir away. */
	if (op == PROTO_FSOP_CREATE)
		kids(t, t->file_dir[at], 1);
	else if (op == PROTO_FSOP_MKDIR)
		kids(t, t->dir_up[at], 1);
	if (d) {
		/* The destination's file, and its folder as a create's. */
		fsplan_bit_set(d->fbusy, at, 1);
		kids(d, d->file_dir[at], 1);
	}
	*i = at;
	return FSPLAN_PICKED;
}

uint64_t fsplan_poisson(struct workload_rng *rng, uint64_t n, double midpoint)
{
	double u = (double)(workload_rng_next(rng) >> 11) * 0x1.0p-53;
	double v;

	if (!n || u == 0.0 || !(midpoint > 0))
		return 0;
	v = -log(u) * ((double)n / midpoint);
	return v >= 18446744073709549568.0 ? 0 : (uint64_t)v % n;
}

uint64_t fsplan_entries(const struct fsplan_tree *t, uint32_t op)
{
	return fsplan_op_dirs(op) ? t->ndirs : t->use ? t->nuse : t->nfiles;
}

/* An entry of n not in seen: a drawn one, or the next after one. */
static uint64_t draw_unseen(const uint64_t *seen, uint64_t n,
			    struct workload_rng *rng)
{
	uint64_t at = below(rng, n);

	for (int k = 0; k < FSPLAN_DRAWS && fsplan_bit(seen, at); k++)
		at = below(rng, n);
	while (fsplan_bit(seen, at)) {
		if (!(at & 63) && seen[at >> 6] == UINT64_MAX)
			at += 63; /* a word all seen */
		at = at + 1 >= n ? 0 : at + 1;
	}
	return at;
}

/*
 * With a midpoint the random selection is skewed by fsplan_poisson(): up
 * to FSPLAN_DRAWS skewed draws, then the uniform random pick.
 */
int fsplan_pick_how(struct fsplan_tree *t, struct fsplan_tree *d,
		    const struct fsplan_how *h, uint64_t *cursor,
		    struct workload_rng *rng, uint64_t *i)
{
	uint32_t op = h->op, sel = h->sel;
	double midpoint = h->midpoint;
	int sh = h->shared;
	const uint64_t *use = fsplan_op_dirs(op) ? NULL : t->use;
	uint64_t n = fsplan_entries(t, op), at;
	int once = sel == PROTO_FSEL_ONCE || sel == PROTO_FSEL_RANDOM_ONCE;

	if (!n)
		return once ? FSPLAN_DONE : FSPLAN_NONE;
	if (sel == PROTO_FSEL_RANDOM_ONCE) {
		/* What was drawn stays drawn, taken or skipped. */
		while (h->seen && *cursor < n) {
			at = draw_unseen(h->seen, n, rng);
			fsplan_bit_set(h->seen, at, 1);
			(*cursor)++;
			at = use ? use[at] : at;
			if (ok_for(t, d, op, sh, at))
				return take(t, d, op, sh, at, i);
		}
		return FSPLAN_DONE;
	}
	for (int k = 0; midpoint > 0 && k < FSPLAN_DRAWS; k++) {
		at = fsplan_poisson(rng, n, midpoint);
		at = use ? use[at] : at;
		if (ok_for(t, d, op, sh, at))
			return take(t, d, op, sh, at, i);
	}
	if (midpoint > 0 || sel == PROTO_FSEL_RANDOM) {
		for (int k = 0; k < FSPLAN_DRAWS; k++) {
			at = below(rng, n);
			at = use ? use[at] : at;
			if (ok_for(t, d, op, sh, at))
				return take(t, d, op, sh, at, i);
		}
		at = below(rng, n);
		for (uint64_t k = 0; k < n; k++, at = at + 1 == n ? 0 : at + 1)
			if (ok_for(t, d, op, sh, use ? use[at] : at))
				return take(t, d, op, sh, use ? use[at] : at,
					    i);
		return FSPLAN_NONE;
	}
	for (uint64_t k = 0; k < n; k++) {
		if (*cursor >= n) {
			if (sel == PROTO_FSEL_ONCE)
				return FSPLAN_DONE;
			*cursor = 0;
		}
		at = (*cursor)++;
		at = use ? use[at] : at;
		if (ok_for(t, d, op, sh, at))
			return take(t, d, op, sh, at, i);
	}
	/* Once: what was skipped stays skipped; the pass goes on. */
	return sel == PROTO_FSEL_ONCE && *cursor >= n ? FSPLAN_DONE :
							FSPLAN_NONE;
}

void fsplan_done_pair(struct fsplan_tree *s, struct fsplan_tree *d, uint32_t op,
		      uint64_t i, int err, int dst_now)
{
	fsplan_bit_set(s->fbusy, i, 0);
	fsplan_bit_set(d->fbusy, i, 0);
	kids(d, d->file_dir[i], 0);
	if ((op == PROTO_FSOP_MOVE && !err) || err == -ENOENT)
		fsplan_set_file(s, i, 0);
	fsplan_set_file(d, i, dst_now);
}

int fsplan_pair_ok(const struct fsplan_tree *s, const struct fsplan_tree *d)
{
	if (s == d)
		return -EINVAL;
	if (s->ndirs != d->ndirs || s->nfiles != d->nfiles)
		return -EINVAL;
	for (uint64_t f = 0; f < s->nfiles; f++)
		if (s->file_dir[f] != d->file_dir[f] ||
		    s->file_no[f] != d->file_no[f])
			return -EINVAL;
	return 0;
}

void fsplan_done(struct fsplan_tree *t, uint32_t op, uint64_t i, int err)
{
	/* A file other shared picks still hold stays busy. */
	if (fsplan_op_dirs(op) || !t->fshare || !t->fshare[i] ||
	    !--t->fshare[i])
		busy(t, op, i, 0);
	if (op == PROTO_FSOP_CREATE)
		kids(t, t->file_dir[i], 0);
	else if (op == PROTO_FSOP_MKDIR)
		kids(t, t->dir_up[(uint32_t)i], 0);
	switch (op) {
	case PROTO_FSOP_MKDIR:
		if (!err || err == -EEXIST)
			fsplan_set_dir(t, (uint32_t)i, 1);
		break;
	case PROTO_FSOP_RMDIR:
		if (!err || err == -ENOENT)
			fsplan_set_dir(t, (uint32_t)i, 0);
		break;
	case PROTO_FSOP_CREATE:
		/* A create that made the file and failed writing it: made. */
		if (!err || err == -EEXIST || err == -EIO || err == -ENOSPC)
			fsplan_set_file(t, i, 1);
		break;
	case PROTO_FSOP_DELETE:
		if (!err || err == -ENOENT)
			fsplan_set_file(t, i, 0);
		break;
	default:
		if (err == -ENOENT)
			fsplan_set_file(t, i, 0);
		break;
	}
}

void fsplan_xfer_init(struct fsplan_xfer *x, const struct proto_fwd *w)
{
	uint64_t cum = 0;
	double total = 0;

	memset(x, 0, sizeof(*x));
	x->n = w->nxfer < PROTO_MAX_XFER ? w->nxfer : PROTO_MAX_XFER;
	for (unsigned k = 0; k < x->n; k++)
		total += w->xfer[k].pct;
	for (unsigned k = 0; k < x->n; k++) {
		x->size[k] = w->xfer[k].size;
		if (x->size[k] > x->max)
			x->max = x->size[k];
		cum += total > 0 ? (uint64_t)(w->xfer[k].pct / total *
					      4294967296.0) :
				   0;
		x->cum[k] = k + 1 == x->n ? UINT64_C(1) << 32 : cum;
	}
	x->mixed = w->mixed != 0;
	x->rd = (uint64_t)(w->rdpct / 100.0 * 4294967296.0);
}

uint32_t fsplan_xfer_size(const struct fsplan_xfer *x, struct workload_rng *rng)
{
	uint64_t r = workload_rng_next(rng) >> 32;

	for (unsigned k = 0; k < x->n; k++)
		if (r < x->cum[k])
			return x->size[k];
	return x->n ? x->size[x->n - 1] : 4096;
}

int fsplan_reads(const struct fsplan_xfer *x, uint32_t op,
		 struct workload_rng *rng)
{
	if (!x->mixed)
		return op == PROTO_FSOP_READ;
	return (workload_rng_next(rng) >> 32) < x->rd;
}

uint64_t fsplan_random_count(uint64_t size, uint32_t xfer)
{
	uint64_t n = xfer ? size / xfer : 0;

	return n < 1 ? 1 : n > FSPLAN_RANDOM_MAX ? FSPLAN_RANDOM_MAX : n;
}

int fsplan_enough(const struct proto_fwd *w, uint64_t size, uint32_t xfer,
		  uint64_t blocks, uint64_t bytes)
{
	if (w->stopafter)
		return blocks >= w->stopafter;
	if (w->stopafter_pct)
		return bytes >= (uint64_t)((unsigned __int128)size *
					   w->stopafter_pct / 100);
	if (fsplan_random_io(w->fileio))
		return blocks >= fsplan_random_count(size, xfer);
	return 0;
}

uint64_t fsplan_random_offset(uint64_t size, uint32_t len,
			      struct workload_rng *rng)
{
	uint64_t blocks = len ? size / len : 0;

	return blocks ? below(rng, blocks) * len : 0;
}

int fsplan_delete_first(const struct proto_fwd *w, const uint64_t *at,
			uint64_t size)
{
	if (w->fileio != PROTO_FILEIO_SEQ_DELETE || w->op != PROTO_FSOP_WRITE ||
	    w->mixed)
		return 0;
	return !at || !*at || *at >= size;
}
