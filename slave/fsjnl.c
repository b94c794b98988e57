/*
 * Journals of file-system key maps: header, open and replay, appends.
 * See fsjnl.h.
 */
#include "slave/fsjnl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fsutil.h"
#include "common/log.h"
#include "slave/fsval.h"
#include "slave/valmap.h"

_Static_assert(sizeof(struct fsjnl_hdr) == FSJNL_HDR, "fs journal header");

/* Blocks in flight at a crash: at most one write per thread and block. */
#define FSJNL_ALT_MAX 65536

uint64_t fsjnl_shape(const struct fsval_map *m)
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a, 64 bits */

	for (uint64_t f = 0; f < m->nfiles; f++) {
		uint64_t v[2] = { m->id[f], m->base[f + 1] - m->base[f] };

		for (int k = 0; k < 2; k++)
			for (int i = 0; i < 8; i++) {
				h ^= (v[k] >> (8 * i)) & 0xff;
				h *= 0x100000001b3ull;
			}
	}
	return h;
}

void fsjnl_header(struct fsjnl_hdr *h, const struct fsval_map *m,
		  const char *slave)
{
	memset(h, 0, sizeof(*h));
	memcpy(h->magic, FSJNL_MAGIC, 8);
	h->nblocks = m->base[m->nfiles];
	h->nfiles = m->nfiles;
	h->shape = fsjnl_shape(m);
	h->block = VALIDATE_BLOCK;
	h->slave_id = validate_id(slave);
	h->share_no = m->share_no;
	h->share_count = m->share_count;
	snprintf(h->fsd, sizeof(h->fsd), "%s", m->fsd);
	snprintf(h->slave, sizeof(h->slave), "%s", slave);
}

int fsjnl_check(struct fsjnl_hdr *h, size_t got, const struct fsval_map *m,
		const char *slave, const char *file, char *err, size_t errlen)
{
	char who[4 * PROTO_NAME_LEN];

	if (got != sizeof(*h) || memcmp(h->magic, FSJNL_MAGIC, 8) ||
	    h->block != VALIDATE_BLOCK) {
		snprintf(err, errlen,
			 "journal %s: not a lockstep file-system journal",
			 file);
		return -EINVAL;
	}
	h->fsd[sizeof(h->fsd) - 1] = h->slave[sizeof(h->slave) - 1] = 0;
	if (valmap_journal_owner(file, h->slave, h->slave_id, slave, err,
				 errlen) < 0)
		return -EINVAL;
	if (strcmp(h->fsd, m->fsd)) {
		snprintf(err, errlen,
			 "journal %s belongs to fsd %s, not %s (copied or renamed?): refused",
			 file, log_escape(h->fsd, who, sizeof(who)), m->fsd);
		return -EINVAL;
	}
	if (h->share_no != m->share_no || h->share_count != m->share_count) {
		snprintf(err, errlen,
			 "journal %s is of share %u of %u of a shared=yes tree, this slave has share %u of %u: refused",
			 file, h->share_no, h->share_count, m->share_no,
			 m->share_count);
		return -EINVAL;
	}
	if (h->nfiles != m->nfiles || h->nblocks != m->base[m->nfiles] ||
	    h->shape != fsjnl_shape(m)) {
		snprintf(err, errlen,
			 "journal %s is of a tree of %llu files and %llu blocks, this slave's fsd %s has %llu files and %llu blocks%s (remove it to start afresh)",
			 file, (unsigned long long)h->nfiles,
			 (unsigned long long)h->nblocks, m->fsd,
			 (unsigned long long)m->nfiles,
			 (unsigned long long)m->base[m->nfiles],
			 h->nfiles == m->nfiles &&
					 h->nblocks == m->base[m->nfiles] ?
				 ", of other file names or sizes" :
				 "");
		return -EINVAL;
	}
	return 0;
}

/* The header alone, durable. */
static int start(struct fsval_map *m, const char *slave)
{
	struct fsjnl_hdr h;

	fsjnl_header(&h, m, slave);
	if (ftruncate(m->jfd, 0) < 0)
		return -errno;
	if (valmap_write_all(m->jfd, &h, sizeof(h)) < 0 ||
	    fdatasync(m->jfd) < 0)
		return -errno;
	return 0;
}

/*
 * Replay the records after the header into m's map; the blocks a crash
 * left in flight keep both generations (m->alt) until a read settles
 * which one is there.
 */
static int replay(struct fsval_map *m, off_t size, char *err, size_t errlen)
{
	size_t n = (size_t)(size - FSJNL_HDR) / sizeof(uint64_t), nalt = 0;
	uint64_t *recs = malloc(n ? n * sizeof(uint64_t) : 1);
	struct validate_alt *alt = calloc(FSJNL_ALT_MAX, sizeof(*alt));
	ssize_t got;
	int ret;

	if (!recs || !alt) {
		ret = -ENOMEM;
		snprintf(err, errlen, "journal %s: out of memory", m->jpath);
		goto out;
	}
	got = pread(m->jfd, recs, n * sizeof(uint64_t), FSJNL_HDR);
	if (got != (ssize_t)(n * sizeof(uint64_t))) {
		ret = got < 0 ? -errno : -EIO;
		snprintf(err, errlen, "journal %s: cannot read its records",
			 m->jpath);
		goto out;
	}
	ret = validate_replay(m->gen, m->base[m->nfiles], recs, n, alt,
			      FSJNL_ALT_MAX, &nalt);
	if (ret < 0) {
		snprintf(err, errlen, "journal %s: %s", m->jpath,
			 ret == -EINVAL ?
				 "a record is damaged or names a block past the tree" :
			 ret == -ENOSPC ? "too many writes were in flight" :
					  strerror(-ret));
		goto out;
	}
	/* A record cut by a crash is dropped, so appends stay aligned. */
	if (ftruncate(m->jfd, FSJNL_HDR + (off_t)(n * sizeof(uint64_t))) < 0) {
		ret = -errno;
		snprintf(err, errlen, "journal %s: %s", m->jpath,
			 strerror(errno));
		goto out;
	}
	/*
	 * Either content may be there: the map holds the write's, alt the
	 * one before, until a read (fsval_verify) or a write settles which.
	 */
	free(m->alt);
	m->alt = NULL;
	m->nalt = 0;
	if (nalt) {
		m->alt = realloc(alt, nalt * sizeof(*alt));
		if (!m->alt)
			m->alt = alt;
		alt = NULL;
		m->nalt = nalt;
	}
	m->inflight = nalt;
	ret = fsjnl_sync(m);
	if (ret < 0)
		snprintf(err, errlen, "journal %s: %s", m->jpath,
			 strerror(-ret));
out:
	free(recs);
	free(alt);
	return ret;
}

int fsjnl_open(struct fsval_map *m, const char *dir, const char *slave,
	       int fresh, char *err, size_t errlen)
{
	char rel[2 * PROTO_NAME_LEN + 16];
	struct fsjnl_hdr h;
	struct stat st;
	ssize_t got;
	int ret;

	if (!fsutil_name_ok(m->fsd) || !fsutil_name_ok(slave)) {
		snprintf(err, errlen,
			 "journal: fsd or slave name not usable as a file name");
		return -EINVAL;
	}
	snprintf(rel, sizeof(rel), "%s.%s" FSJNL_SUFFIX, m->fsd, slave);
	ret = fsutil_join_inside(dir, rel, m->jpath, sizeof(m->jpath));
	if (ret == 0)
		ret = fsutil_mkdir_p(dir);
	if (ret < 0) {
		snprintf(err, errlen, "journal folder %s: %s", dir,
			 strerror(-ret));
		return ret;
	}
	m->jfd = open(m->jpath,
		      O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC,
		      0600);
	if (m->jfd < 0 || fstat(m->jfd, &st) < 0 || !S_ISREG(st.st_mode)) {
		ret = m->jfd < 0 ? -errno : -EINVAL;
		snprintf(err, errlen, "journal %s: %s", m->jpath,
			 m->jfd < 0 ? strerror(errno) : "not a regular file");
		return ret;
	}
	if (fresh || st.st_size < FSJNL_HDR) {
		/* New, made anew, or cut before its header was whole. */
		ret = start(m, slave);
		if (ret < 0)
			snprintf(err, errlen, "journal %s: %s", m->jpath,
				 strerror(-ret));
		return ret;
	}
	got = pread(m->jfd, &h, sizeof(h), 0);
	ret = fsjnl_check(&h, got < 0 ? 0 : (size_t)got, m, slave, m->jpath,
			  err, errlen);
	if (ret < 0)
		return ret;
	return replay(m, st.st_size, err, errlen);
}

int fsjnl_append(struct fsval_map *m, const uint64_t *recs, size_t n, int sync)
{
	int ret = atomic_load(&m->jerr);

	if (ret < 0 || m->jfd < 0 || !n)
		return ret;
	pthread_mutex_lock(&m->jlock);
	ret = valmap_write_all(m->jfd, recs, n * sizeof(*recs));
	pthread_mutex_unlock(&m->jlock);
	if (ret == 0 && sync && fdatasync(m->jfd) < 0)
		ret = -errno;
	if (ret < 0)
		atomic_store(&m->jerr, ret);
	return ret;
}

int fsjnl_restart(struct fsval_map *m)
{
	int ret = atomic_load(&m->jerr);

	if (ret < 0 || m->jfd < 0)
		return ret;
	/* The header stays: this map's, checked or written at open. */
	pthread_mutex_lock(&m->jlock);
	if (ftruncate(m->jfd, FSJNL_HDR) < 0 || fdatasync(m->jfd) < 0)
		ret = -errno;
	pthread_mutex_unlock(&m->jlock);
	if (ret < 0)
		atomic_store(&m->jerr, ret);
	return ret;
}

int fsjnl_sync(struct fsval_map *m)
{
	int ret = atomic_load(&m->jerr);

	if (ret < 0 || m->jfd < 0)
		return ret;
	if (fdatasync(m->jfd) < 0) {
		ret = -errno;
		atomic_store(&m->jerr, ret);
	}
	return ret;
}

void fsjnl_close(struct fsval_map *m)
{
	if (m->jfd >= 0) {
		(void)fsjnl_sync(m);
		close(m->jfd);
	}
	m->jfd = -1;
}
