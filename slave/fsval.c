/*
 * The key maps of a file-system phase's data validation (fsval.h).
 */
#include "slave/fsval.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slave/fsjnl.h"

/* Journal records made at once (on the thread's stack). */
#define RECS 256

uint64_t fsval_span(uint64_t at, uint64_t len, uint64_t *first)
{
	uint64_t b0 = (at + VALIDATE_BLOCK - 1) / VALIDATE_BLOCK;
	uint64_t b1 = (at + len) / VALIDATE_BLOCK;

	*first = b0;
	return b1 > b0 ? b1 - b0 : 0;
}

uint32_t fsval_file_id(const char *fsd, const char *rel)
{
	char name[PROTO_NAME_LEN + FSTREE_PATH_MAX + 2];

	snprintf(name, sizeof(name), "%s/%s", fsd, rel);
	return validate_id(name);
}

/* Whether m was made for this tree: same files, same sizes. */
static int same_tree(const struct fsval_map *m, const char *fsd,
		     const char *path, const struct fsplan_tree *t,
		     uint32_t share_no, uint32_t share_count)
{
	if (strcmp(m->fsd, fsd) || strcmp(m->path, path) ||
	    m->share_no != share_no || m->share_count != share_count ||
	    m->nfiles != t->nfiles)
		return 0;
	for (uint64_t f = 0; f < t->nfiles; f++)
		if (m->base[f + 1] - m->base[f] !=
		    (t->file_size[f] + VALIDATE_BLOCK - 1) / VALIDATE_BLOCK)
			return 0;
	return 1;
}

static void map_free(struct fsval_map *m)
{
	fsjnl_close(m);
	pthread_mutex_destroy(&m->jlock);
	free(m->base);
	free(m->id);
	free(m->gen);
	free(m->alt);
	pthread_mutex_destroy(&m->lock);
	free(m);
}

static struct fsval_map *map_new(const char *fsd, const char *path,
				 const struct fsplan_tree *t, uint32_t share_no,
				 uint32_t share_count)
{
	struct fsval_map *m = calloc(1, sizeof(*m));
	char rel[FSTREE_PATH_MAX];

	if (!m)
		return NULL;
	pthread_mutex_init(&m->lock, NULL);
	pthread_mutex_init(&m->jlock, NULL);
	m->jfd = -1;
	snprintf(m->fsd, sizeof(m->fsd), "%s", fsd);
	snprintf(m->path, sizeof(m->path), "%s", path);
	m->share_no = share_no;
	m->share_count = share_count;
	m->nfiles = t->nfiles;
	m->base = malloc((t->nfiles + 1) * sizeof(*m->base));
	m->id = malloc((t->nfiles + 1) * sizeof(*m->id));
	if (!m->base || !m->id) {
		map_free(m);
		return NULL;
	}
	m->base[0] = 0;
	for (uint64_t f = 0; f < t->nfiles; f++) {
		m->base[f + 1] = m->base[f] +
				 (t->file_size[f] + VALIDATE_BLOCK - 1) /
					 VALIDATE_BLOCK;
		m->id[f] = fsplan_file_path(t, f, rel, sizeof(rel)) < 0 ?
				   0 :
				   fsval_file_id(fsd, rel);
	}
	m->gen = calloc(m->base[t->nfiles] ? m->base[t->nfiles] : 1, 1);
	if (!m->gen) {
		map_free(m);
		return NULL;
	}
	return m;
}

int fsval_open(struct fsval_map **list, const char *fsd, const char *path,
	       const struct fsplan_tree *t, uint32_t share_no,
	       uint32_t share_count, const char *journal, const char *slave,
	       struct fsval_map **out, char *err, size_t errlen)
{
	struct fsval_map **at = list, *m;
	int ret;

	for (; *at; at = &(*at)->next)
		if (!strcmp((*at)->fsd, fsd))
			break;
	if (*at && same_tree(*at, fsd, path, t, share_no, share_count)) {
		*out = *at;
		return 0;
	}
	/* Another tree under that name: nothing of the old one holds. */
	m = map_new(fsd, path, t, share_no, share_count);
	if (!m) {
		snprintf(err, errlen, "fsd %s: out of memory for its key map",
			 fsd);
		return -ENOMEM;
	}
	if (journal[0]) {
		ret = fsjnl_open(m, journal, slave, *at != NULL, err, errlen);
		if (ret < 0) {
			map_free(m);
			return ret;
		}
	}
	if (*at) {
		m->next = (*at)->next;
		map_free(*at);
	}
	*at = m;
	*out = m;
	return 0;
}

int fsval_get(struct fsval_map **list, const char *fsd, const char *path,
	      const struct fsplan_tree *t, uint32_t share_no,
	      uint32_t share_count, struct fsval_map **out)
{
	char err[PROTO_TEXT_LEN];

	return fsval_open(list, fsd, path, t, share_no, share_count, "", "",
			  out, err, sizeof(err));
}

uint64_t fsval_known(const struct fsval_map *m)
{
	uint64_t n = 0;

	for (uint64_t b = 0; b < m->base[m->nfiles]; b++)
		n += m->gen[b] != 0 &&
		     (!m->nalt || validate_alt_old(m->alt, m->nalt, b) != 0);
	return n;
}

void fsval_free_all(struct fsval_map **list)
{
	while (*list) {
		struct fsval_map *next = (*list)->next;

		map_free(*list);
		*list = next;
	}
}

void fsval_forget(struct fsval_map *m, uint64_t f)
{
	uint64_t recs[RECS];
	size_t n = 0;
	int any = 0;

	if (f >= m->nfiles)
		return;
	/* The journal forgets what the map knew (it has nothing else). */
	for (uint64_t b = m->base[f]; m->jfd >= 0 && b < m->base[f + 1]; b++) {
		if (!m->gen[b])
			continue;
		recs[n++] = validate_rec(b, 0, VALIDATE_REC_FORGET);
		any = 1;
		if (n == RECS) {
			(void)fsjnl_append(m, recs, n, 0);
			n = 0;
		}
	}
	if (any) {
		(void)fsjnl_append(m, recs, n, 0);
		(void)fsjnl_sync(m);
	}
	memset(m->gen + m->base[f], 0, m->base[f + 1] - m->base[f]);
	for (uint64_t b = m->base[f]; m->nalt && b < m->base[f + 1]; b++)
		validate_alt_settle(m->alt, m->nalt, b);
}

void fsval_forget_all(struct fsval_map *m)
{
	(void)fsjnl_restart(m);
	memset(m->gen, 0, m->base[m->nfiles]);
	m->nalt = 0;
}

/* Blocks of file f: how many, and its generations. */
static uint64_t blocks(const struct fsval_map *m, uint64_t f, uint8_t **gen)
{
	if (f >= m->nfiles)
		return 0;
	*gen = m->gen + m->base[f];
	return m->base[f + 1] - m->base[f];
}

int fsval_stamp(struct fsval_map *m, uint64_t f, void *buf, uint64_t at,
		uint64_t len, uint16_t slave, uint64_t time_ns)
{
	uint8_t *gen;
	uint64_t nb = blocks(m, f, &gen), b0;
	uint64_t n = fsval_span(at, len, &b0), recs[RECS];
	size_t nr = 0;
	int ret = 0;

	for (uint64_t k = 0; k < n && b0 + k < nb; k++) {
		uint8_t g = validate_gen_next(gen[b0 + k]);

		validate_fill((unsigned char *)buf + (b0 + k) * VALIDATE_BLOCK -
				      at,
			      b0 + k, m->id[f], slave, g, time_ns);
		if (m->jfd < 0)
			continue;
		recs[nr++] = validate_rec(m->base[f] + b0 + k, g,
					  VALIDATE_REC_INTENT);
		if (nr == RECS) {
			ret = fsjnl_append(m, recs, nr, 0);
			nr = 0;
		}
	}
	/* The intents are durable before the write goes out. */
	if (m->jfd >= 0 && !ret)
		ret = fsjnl_append(m, recs, nr, 1);
	if (m->jfd >= 0 && !ret && !nr)
		ret = fsjnl_sync(m);
	return ret;
}

void fsval_wrote(struct fsval_map *m, uint64_t f, uint64_t at, uint64_t len,
		 int64_t got)
{
	uint8_t *gen;
	uint64_t nb = blocks(m, f, &gen), w0;
	uint64_t done = got > 0 ? (uint64_t)got : 0;
	uint64_t w = fsval_span(at, done, &w0);
	uint64_t first = at / VALIDATE_BLOCK;
	uint64_t end = (at + len + VALIDATE_BLOCK - 1) / VALIDATE_BLOCK;

	uint64_t recs[RECS];
	size_t nr = 0;

	for (uint64_t b = first; b < end && b < nb; b++) {
		if (b >= w0 && b < w0 + w) {
			gen[b] = validate_gen_next(gen[b]);
			atomic_fetch_add(&m->written, 1);
		} else {
			gen[b] = 0; /* partly written, or not at all */
		}
		/* A write done: the crash's alternative is gone. */
		if (m->nalt)
			validate_alt_settle(m->alt, m->nalt, m->base[f] + b);
		if (m->jfd < 0)
			continue;
		recs[nr++] = validate_rec(m->base[f] + b, gen[b],
					  gen[b] ? VALIDATE_REC_DONE :
						   VALIDATE_REC_FORGET);
		if (nr == RECS) {
			(void)fsjnl_append(m, recs, nr, 0);
			nr = 0;
		}
	}
	/* Made durable with the next intents, or at the phase's end. */
	(void)fsjnl_append(m, recs, nr, 0);
}

/*
 * Block b of file f (data at p) was being written at a crash and does not
 * hold the generation of that write: whether it holds, whole, the one
 * before (Vdbench's pending write that did not land), which the map then
 * keeps, journaled. The old content unknown (the block's first write):
 * anything may be there, and the map forgets the block, as Vdbench 5.04.05
 * stopped checking a pending first write. A header of the old generation
 * over damaged data is a mismatch. Returns 0 (not accepted), 1 (the old
 * content, verified) or 2 (a first write's block, forgotten unverified).
 */
static int pending_old(struct fsval_map *m, uint64_t f, uint64_t b,
		       const unsigned char *p)
{
	uint64_t mb = m->base[f] + b, rec;
	uint16_t old = validate_alt_old(m->alt, m->nalt, mb);
	struct validate_found found;
	uint8_t settled;

	if (old == VALIDATE_NO_ALT)
		return 0;
	if (old &&
	    validate_check(p, b, m->id[f], (uint8_t)old, &found) != VALIDATE_OK)
		return 0;
	if (!validate_alt_accept(m->alt, m->nalt, mb, (uint8_t)old, &settled))
		return 0;
	m->gen[mb] = settled;
	rec = settled ? validate_rec(mb, settled, VALIDATE_REC_DONE) :
			validate_rec(mb, 0, VALIDATE_REC_FORGET);
	if (m->jfd >= 0)
		(void)fsjnl_append(m, &rec, 1, 0);
	return old ? 1 : 2;
}

/*
 * Map block mb read back as the generation of the write in flight at the
 * crash: settled, and journaled, so that a later run does not take the
 * content before it as right again.
 */
static void settle_new(struct fsval_map *m, uint64_t mb)
{
	uint64_t rec = validate_rec(mb, m->gen[mb], VALIDATE_REC_DONE);

	if (validate_alt_old(m->alt, m->nalt, mb) == VALIDATE_NO_ALT)
		return;
	validate_alt_settle(m->alt, m->nalt, mb);
	if (m->jfd >= 0)
		(void)fsjnl_append(m, &rec, 1, 0);
}

unsigned fsval_verify(struct fsval_map *m, uint64_t f, const void *buf,
		      uint64_t at, uint64_t got)
{
	uint8_t *gen;
	uint64_t nb = blocks(m, f, &gen), b0;
	uint64_t n = fsval_span(at, got, &b0);
	unsigned bad = 0;

	for (uint64_t k = 0; k < n && b0 + k < nb; k++) {
		uint64_t b = b0 + k;
		struct fsval_bad x = { .file = f };

		if (!gen[b])
			continue;
		int old = 0;

		x.kind = validate_check((const unsigned char *)buf +
						b * VALIDATE_BLOCK - at,
					b, m->id[f], gen[b], &x.found);
		if (m->nalt && x.kind != VALIDATE_OK)
			old = pending_old(m, f, b,
					  (const unsigned char *)buf +
						  b * VALIDATE_BLOCK - at);
		/* Verified as the write's content or, whole, the one before. */
		if (old != 2)
			atomic_fetch_add(&m->verified, 1);
		if (old)
			continue;
		if (x.kind == VALIDATE_OK) {
			if (m->nalt) /* the write in flight landed */
				settle_new(m, m->base[f] + b);
			continue;
		}
		bad++;
		x.offset = b * VALIDATE_BLOCK;
		x.expect = gen[b];
		atomic_fetch_add(&m->kinds[x.kind], 1);
		atomic_fetch_add(&m->mismatched, 1);
		pthread_mutex_lock(&m->lock);
		if (m->nbad < FSVAL_LOG_MAX)
			m->bad[m->nbad++] = x;
		pthread_mutex_unlock(&m->lock);
	}
	return bad;
}
