/*
 * Generation maps of validated sds and their journals: making, replaying,
 * appending, freeing. See valmap.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "common/fsutil.h"
#include "common/log.h"
#include "slave/dedupval.h"
#include "slave/valmap.h"

#define JNL_MAGIC "LSVJNL02"
#define JNL_MAGIC_V1 "LSVJNL01"
#define JNL_HDR 160
/* Blocks whose last write was in flight at a crash: at most one per slot. */
#define ALT_MAX 65536

/*
 * Whose journal this is: a journal copied or renamed to another slave's or
 * sd's name is refused at once, instead of making that slave expect
 * blocks it never wrote (or none at all).
 */
struct jnl_hdr {
	char magic[8];
	uint64_t nblocks;
	uint32_t sd_id;
	uint32_t block;
	uint32_t slave_id; /* validate_id() of the slave's name */
	uint32_t layout;   /* dedupval_layout(); 0 (older journals too): none */
	char sd[PROTO_NAME_LEN];
	char slave[PROTO_NAME_LEN];
};

_Static_assert(sizeof(struct jnl_hdr) == JNL_HDR, "journal header size");

static ssize_t read_all(int fd, void *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t r = read(fd, (char *)buf + got, len - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

int valmap_journal_owner(const char *file, const char *hslave,
			 uint32_t hslave_id, const char *slave, char *err,
			 size_t errlen)
{
	char who[4 * PROTO_NAME_LEN];

	if (!strcmp(hslave, slave) && hslave_id == validate_id(slave))
		return 0;
	snprintf(err, errlen,
		 "journal %s belongs to slave %s, not %s (copied or renamed?): refused",
		 file, log_escape(hslave, who, sizeof(who)), slave);
	return -EINVAL;
}

int valmap_write_all(int fd, const void *buf, size_t len)
{
	size_t put = 0;

	while (put < len) {
		ssize_t r = write(fd, (const char *)buf + put, len - put);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		put += (size_t)r;
	}
	return 0;
}

/* Read the journal's records and replay them into m's map. */
static int replay(struct valmap *m, int fd, off_t size, const char *file,
		  char *err, size_t errlen)
{
	size_t n = (size_t)(size - JNL_HDR) / sizeof(uint64_t);
	uint64_t *recs = malloc(n ? n * sizeof(uint64_t) : 1);
	ssize_t got;
	int ret;

	if (!recs)
		return -ENOMEM;
	got = pread(fd, recs, n * sizeof(uint64_t), JNL_HDR);
	if (got != (ssize_t)(n * sizeof(uint64_t))) {
		ret = got < 0 ? -errno : -EIO;
		snprintf(err, errlen, "journal %s: cannot read its records",
			 file);
		free(recs);
		return ret;
	}
	m->alt = calloc(ALT_MAX, sizeof(*m->alt));
	ret = m->alt ? validate_replay(m->gen, m->nblocks, recs, n, m->alt,
				       ALT_MAX, &m->nalt) :
		       -ENOMEM;
	free(recs);
	if (ret < 0) {
		snprintf(err, errlen, "journal %s: %s", file,
			 ret == -EINVAL ?
				 "a record is damaged or names a block past the lun" :
			 ret == -ENOSPC ? "too many writes were in flight" :
					  strerror(-ret));
		return ret;
	}
	/* A record cut by a crash is dropped, so appends stay aligned. */
	if (ftruncate(fd, JNL_HDR + (off_t)(n * sizeof(uint64_t))) < 0) {
		ret = -errno;
		snprintf(err, errlen, "journal %s: %s", file, strerror(errno));
		return ret;
	}
	return 0;
}

/* Is h (got bytes read) the header of m's journal for slave? */
static int check_header(struct jnl_hdr *h, ssize_t got, const struct valmap *m,
			const char *slave, const char *file, char *err,
			size_t errlen)
{
	char sd[4 * PROTO_NAME_LEN];

	if (got == (ssize_t)sizeof(*h) &&
	    memcmp(h->magic, JNL_MAGIC_V1, 8) == 0) {
		snprintf(err, errlen,
			 "journal %s has the format of an older lockstep, which does not say whose it is: remove it to start afresh",
			 file);
		return -EINVAL;
	}
	if (got != (ssize_t)sizeof(*h) || memcmp(h->magic, JNL_MAGIC, 8) ||
	    h->block != VALIDATE_BLOCK) {
		snprintf(err, errlen, "journal %s: not a lockstep journal",
			 file);
		return -EINVAL;
	}
	h->sd[sizeof(h->sd) - 1] = h->slave[sizeof(h->slave) - 1] = 0;
	if (valmap_journal_owner(file, h->slave, h->slave_id, slave, err,
				 errlen) < 0)
		return -EINVAL;
	if (strcmp(h->sd, m->sd) || h->sd_id != m->sd_id) {
		snprintf(err, errlen,
			 "journal %s belongs to sd %s, not %s (copied or renamed?): refused",
			 file, log_escape(h->sd, sd, sizeof(sd)), m->sd);
		return -EINVAL;
	}
	if (h->layout != m->layout) {
		snprintf(err, errlen,
			 "journal %s was written %s: its blocks would be checked against the wrong content (remove it to start afresh)",
			 file,
			 !h->layout ?
				 "without dedupratio=, and this run has duplicates" :
			 !m->layout ?
				 "with dedupratio=, and this run has none" :
				 "with another dedupratio= or dedupunit= than this run's");
		return -EINVAL;
	}
	if (h->nblocks != m->nblocks) {
		snprintf(err, errlen,
			 "journal %s is of a lun of %llu blocks, this one has %llu (remove it to start afresh)",
			 file, (unsigned long long)h->nblocks,
			 (unsigned long long)m->nblocks);
		return -EINVAL;
	}
	return 0;
}

static int journal_open(struct valmap *m, const char *dir, const char *slave,
			char *err, size_t errlen)
{
	char rel[2 * PROTO_NAME_LEN + 8], file[PROTO_PATH_LEN + sizeof(rel)];
	struct jnl_hdr h;
	struct stat st;
	int ret, fd;

	if (!fsutil_name_ok(m->sd) || !fsutil_name_ok(slave)) {
		snprintf(err, errlen,
			 "journal: sd or slave name not usable as a file name");
		return -EINVAL;
	}
	snprintf(rel, sizeof(rel), "%s.%s.jnl", m->sd, slave);
	ret = fsutil_join_inside(dir, rel, file, sizeof(file));
	if (ret == 0)
		ret = fsutil_mkdir_p(dir);
	if (ret < 0) {
		snprintf(err, errlen, "journal folder %s: %s", dir,
			 strerror(-ret));
		return ret;
	}
	fd = open(file, O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		ret = fd < 0 ? -errno : -EINVAL;
		snprintf(err, errlen, "journal %s: %s", file,
			 fd < 0 ? strerror(errno) : "not a regular file");
		goto fail;
	}
	m->jfd = fd;
	snprintf(m->jpath, sizeof(m->jpath), "%s", file);
	if (st.st_size < JNL_HDR) {
		/* New (or cut before its header was whole): start it. */
		memset(&h, 0, sizeof(h));
		memcpy(h.magic, JNL_MAGIC, 8);
		h.nblocks = m->nblocks;
		h.sd_id = m->sd_id;
		h.block = VALIDATE_BLOCK;
		h.slave_id = validate_id(slave);
		h.layout = m->layout;
		snprintf(h.sd, sizeof(h.sd), "%s", m->sd);
		snprintf(h.slave, sizeof(h.slave), "%s", slave);
		if (ftruncate(fd, 0) < 0 ||
		    valmap_write_all(fd, &h, sizeof(h)) < 0 ||
		    fdatasync(fd) < 0) {
			ret = -errno;
			snprintf(err, errlen, "journal %s: %s", file,
				 strerror(errno));
			return ret;
		}
		return 0;
	}
	ret = check_header(&h, read_all(fd, &h, sizeof(h)), m, slave, file, err,
			   errlen);
	if (ret < 0)
		return ret;
	return replay(m, fd, st.st_size, file, err, errlen);
fail:
	if (fd >= 0)
		close(fd);
	return ret;
}

int valmap_get(struct valmap **list, const char *sd, const char *path,
	       uint64_t lun_size, const char *journal, const char *slave,
	       uint32_t layout, struct valmap **out, char *err, size_t errlen)
{
	struct valmap *m;
	int ret;

	for (m = *list; m; m = m->next) {
		if (strcmp(m->sd, sd))
			continue;
		if (strcmp(m->path, path) ||
		    m->nblocks != lun_size / VALIDATE_BLOCK ||
		    m->layout != layout) {
			snprintf(err, errlen,
				 "sd %s: validated earlier in this run on another lun, size or data pattern",
				 sd);
			return -EINVAL;
		}
		*out = m;
		return 0;
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	snprintf(m->sd, sizeof(m->sd), "%s", sd);
	snprintf(m->path, sizeof(m->path), "%s", path);
	m->nblocks = lun_size / VALIDATE_BLOCK;
	m->sd_id = validate_id(sd);
	m->layout = layout;
	m->jfd = -1;
	pthread_mutex_init(&m->lock, NULL);
	m->gen = calloc(m->nblocks ? m->nblocks : 1, 1);
	if (!m->gen) {
		ret = -ENOMEM;
		snprintf(err, errlen,
			 "sd %s: no memory for a map of %llu blocks", sd,
			 (unsigned long long)m->nblocks);
		goto fail;
	}
	if (journal[0]) {
		ret = journal_open(m, journal, slave, err, errlen);
		if (ret < 0)
			goto fail;
	}
	m->next = *list;
	*list = m;
	*out = m;
	return 0;
fail:
	m->next = NULL;
	valmap_free_all(&m);
	return ret;
}

int valmap_journal(struct valmap *m, const uint64_t *recs, size_t n)
{
	int ret = atomic_load(&m->jerr);

	if (ret < 0 || m->jfd < 0 || !n)
		return ret;
	ret = valmap_write_all(m->jfd, recs, n * sizeof(*recs));
	if (ret == 0 && fdatasync(m->jfd) < 0)
		ret = -errno;
	if (ret < 0)
		atomic_store(&m->jerr, ret);
	return ret;
}

uint64_t valmap_known(const struct valmap *m)
{
	uint64_t n = 0;

	for (uint64_t b = 0; b < m->nblocks; b++)
		n += m->gen[b] != 0;
	return n;
}

void valmap_note(struct valmap *m, const struct valmap_bad *b)
{
	pthread_mutex_lock(&m->lock);
	if (m->nbad < VALMAP_LOG_MAX)
		m->bad[m->nbad++] = *b;
	pthread_mutex_unlock(&m->lock);
}

void valmap_free_all(struct valmap **list)
{
	struct valmap *m = *list;

	while (m) {
		struct valmap *next = m->next;

		if (m->jfd >= 0)
			close(m->jfd);
		pthread_mutex_destroy(&m->lock);
		free(m->gen);
		free(m->alt);
		free(m);
		m = next;
	}
	*list = NULL;
}

/* ---- one worker's side ------------------------------------------------ */

int valmap_io_init(struct valmap_io *v, struct valmap *const *vmap,
		   unsigned nfiles, uint16_t slave_id, unsigned depth,
		   uint32_t max_xfer, const struct datagen *dg)
{
	memset(v, 0, sizeof(*v));
	v->vmap = vmap;
	v->dg = dg;
	v->nfiles = nfiles;
	v->slave_id = slave_id;
	/* Intents and dones of every slot, plus settled alternatives. */
	v->jcap = 3 * (size_t)depth * (max_xfer / VALIDATE_BLOCK + 1);
	v->jbuf = calloc(nfiles ? nfiles : 1, sizeof(*v->jbuf));
	v->jn = calloc(nfiles ? nfiles : 1, sizeof(*v->jn));
	if (!v->jbuf || !v->jn)
		return -ENOMEM;
	for (unsigned t = 0; t < nfiles; t++) {
		if (!vmap[t] || vmap[t]->jfd < 0)
			continue;
		v->jbuf[t] = malloc(v->jcap * sizeof(uint64_t));
		if (!v->jbuf[t])
			return -ENOMEM;
	}
	return 0;
}

void valmap_io_free(struct valmap_io *v)
{
	if (v->jbuf)
		for (unsigned t = 0; t < v->nfiles; t++)
			free(v->jbuf[t]);
	free(v->jbuf);
	free(v->jn);
	memset(v, 0, sizeof(*v));
}

static void note_rec(struct valmap_io *v, unsigned t, uint64_t rec)
{
	/* Cannot fill: jcap covers every slot's records between flushes. */
	if (v->jbuf[t] && v->jn[t] < v->jcap)
		v->jbuf[t][v->jn[t]++] = rec;
}

void valmap_io_stamp(struct valmap_io *v, unsigned t, void *buf,
		     uint64_t offset, uint32_t len, uint64_t now_real)
{
	struct valmap *m = v->vmap[t];
	uint64_t b0 = offset / VALIDATE_BLOCK;

	for (uint32_t k = 0; k < len / VALIDATE_BLOCK; k++) {
		uint8_t g = dedupval_gen_next(v->dg, b0 + k, m->gen[b0 + k]);

		dedupval_fill(v->dg,
			      (uint8_t *)buf + (size_t)k * VALIDATE_BLOCK,
			      b0 + k, m->sd_id, v->slave_id, g, now_real);
		note_rec(v, t, validate_rec(b0 + k, g, VALIDATE_REC_INTENT));
	}
}

void valmap_io_written(struct valmap_io *v, unsigned t, const void *buf,
		       uint64_t offset, uint32_t len)
{
	struct valmap *m = v->vmap[t];
	uint64_t b0 = offset / VALIDATE_BLOCK;
	uint32_t n = len / VALIDATE_BLOCK;

	for (uint32_t k = 0; k < n; k++) {
		/*
		 * The generation this write stamped: a unique header's byte
		 * 22; a duplicate's header has none, but no other I/O has
		 * touched the block since the stamp (the overlap rule), so
		 * it is the one after the map's.
		 */
		uint64_t set;
		uint32_t sec;
		uint8_t g =
			dedupval_dup(v->dg, b0 + k, &set, &sec) ?
				dedupval_gen_next(v->dg, b0 + k,
						  m->gen[b0 + k]) :
				((const uint8_t *)
					 buf)[(size_t)k * VALIDATE_BLOCK + 22];

		m->gen[b0 + k] = g;
		if (m->nalt)
			validate_alt_settle(m->alt, m->nalt, b0 + k);
		note_rec(v, t, validate_rec(b0 + k, g, VALIDATE_REC_DONE));
	}
	atomic_fetch_add_explicit(&m->written, n, memory_order_relaxed);
}

void valmap_io_failed(struct valmap_io *v, unsigned t, uint64_t offset,
		      uint32_t len)
{
	struct valmap *m = v->vmap[t];
	uint64_t b0 = offset / VALIDATE_BLOCK;

	for (uint32_t k = 0; k < len / VALIDATE_BLOCK; k++) {
		m->gen[b0 + k] = 0;
		note_rec(v, t, validate_rec(b0 + k, 0, VALIDATE_REC_FORGET));
	}
}

/*
 * Block b (the k-th of buf) was being written at a crash: whether what
 * is there may be its old content, whole. With an old generation, only
 * if the block verifies as that generation: a header of the old one
 * over damaged data is a mismatch, not a write that did not land (it
 * once hid a byte flipped after the crash). Unknown before (old 0):
 * anything may be there.
 */
static int old_landed(struct valmap_io *v, const struct valmap *m,
		      const void *buf, uint32_t k, uint64_t b)
{
	uint16_t old = validate_alt_old(m->alt, m->nalt, b);
	struct validate_found f;

	if (old == VALIDATE_NO_ALT)
		return 0;
	if (old == 0)
		return 1;
	return dedupval_check(v->dg,
			      (const uint8_t *)buf + (size_t)k * VALIDATE_BLOCK,
			      b, m->sd_id, (uint8_t)old, &f) == VALIDATE_OK;
}

unsigned valmap_io_verify(struct valmap_io *v, unsigned t, const void *buf,
			  uint64_t offset, uint32_t len)
{
	struct valmap *m = v->vmap[t];
	uint64_t b0 = offset / VALIDATE_BLOCK;
	unsigned bad = 0, checked = 0;

	for (uint32_t k = 0; k < len / VALIDATE_BLOCK; k++) {
		uint64_t b = b0 + k;
		uint8_t e = m->gen[b], settled;
		struct validate_found f;
		enum validate_kind kind;
		struct valmap_bad nb;

		/* Never written under validation: nothing to expect. */
		if (!e)
			continue;
		kind = dedupval_check(v->dg,
				      (const uint8_t *)buf +
					      (size_t)k * VALIDATE_BLOCK,
				      b, m->sd_id, e, &f);
		if (m->nalt && kind != VALIDATE_OK &&
		    old_landed(v, m, buf, k, b) &&
		    validate_alt_accept(m->alt, m->nalt, b,
					dedupval_found_gen(v->dg, b, kind, &f,
							   validate_alt_old(m->alt,
									    m->nalt,
									    b)),
					&settled)) {
			/* The write in flight at the crash did not land. */
			m->gen[b] = settled;
			atomic_fetch_add_explicit(&m->settled, 1,
						  memory_order_relaxed);
			note_rec(v, t,
				 settled ? validate_rec(b, settled,
							VALIDATE_REC_DONE) :
					   validate_rec(b, 0,
							VALIDATE_REC_FORGET));
			continue;
		}
		checked++;
		if (kind == VALIDATE_OK) {
			/*
			 * The write in flight landed: journaled, so that a
			 * later run does not take the old content as right.
			 */
			if (m->nalt && validate_alt_old(m->alt, m->nalt, b) !=
					       VALIDATE_NO_ALT) {
				validate_alt_settle(m->alt, m->nalt, b);
				note_rec(v, t,
					 validate_rec(b, e, VALIDATE_REC_DONE));
			}
			continue;
		}
		bad++;
		atomic_fetch_add_explicit(&m->kinds[kind], 1,
					  memory_order_relaxed);
		nb.offset = b * VALIDATE_BLOCK;
		nb.kind = kind;
		nb.expect = e;
		nb.expect_slave = v->slave_id;
		nb.dup = dedupval_dup(v->dg, b, &nb.expect_set,
				      &nb.expect_sector);
		nb.found = f;
		valmap_note(m, &nb);
	}
	atomic_fetch_add_explicit(&m->verified, checked, memory_order_relaxed);
	if (bad)
		atomic_fetch_add_explicit(&m->mismatched, bad,
					  memory_order_relaxed);
	return bad;
}

int valmap_io_flush(struct valmap_io *v)
{
	int ret = 0;

	for (unsigned t = 0; t < v->nfiles; t++) {
		int r;

		if (!v->jn || !v->jn[t])
			continue;
		r = valmap_journal(v->vmap[t], v->jbuf[t], v->jn[t]);
		v->jn[t] = 0;
		if (r < 0 && !ret)
			ret = r;
	}
	return ret;
}
