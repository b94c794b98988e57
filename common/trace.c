/*
 * I/O trace readers: blkparse text and fio iolog v2/v3 into sorted
 * records, every malformed line refused at NAME:LINE. See trace.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "common/trace.h"

#define TOK_MAX 16
#define BLKTRACE_MAGIC 0x65617400u

struct rd {
	struct trace *t;
	const char *name;
	unsigned line;
	char *err;
	size_t errlen;
	size_t cap;
	/* iolog: each device's state (added, open) */
	unsigned char state[TRACE_DEV_MAX];
	uint64_t clock_ns; /* v2: the sum of wait lines */
	int binary;        /* blktrace: line is an event's byte offset */
};

#define ST_ADDED 1
#define ST_OPEN 2

static int fail(struct rd *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct rd *r, const char *fmt, ...)
{
	va_list ap;
	int n = r->binary ? snprintf(r->err, r->errlen,
				     "%s: byte %u: ", r->name, r->line) :
			    snprintf(r->err, r->errlen, "%s:%u: ", r->name,
				     r->line);

	if (n < 0 || (size_t)n >= r->errlen)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

#define FNV_START 0xcbf29ce484222325ull

/* FNV-1a 64 of len more bytes after h. */
static uint64_t fnv(uint64_t h, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

uint64_t trace_hash(const void *buf, size_t len)
{
	return fnv(FNV_START, buf, len);
}

const char *trace_format_name(enum trace_format f)
{
	switch (f) {
	case TRACE_BLKPARSE:
		return "blkparse";
	case TRACE_IOLOG2:
		return "fio iolog v2";
	case TRACE_BLKTRACE:
		return "blktrace";
	default:
		return "fio iolog v3";
	}
}

/* Split s (modified) on blanks into at most TOK_MAX tokens. */
static unsigned split(char *s, char **tok)
{
	unsigned n = 0;

	for (char *p = strtok(s, " \t\r"); p && n < TOK_MAX;
	     p = strtok(NULL, " \t\r"))
		tok[n++] = p;
	return n;
}

/* A decimal unsigned number that is the whole of s. */
static int num(const char *s, uint64_t *v)
{
	uint64_t x = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || x > (UINT64_MAX - 9) / 10)
			return -1;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*v = x;
	return 0;
}

static int dev_index(struct rd *r, const char *key)
{
	struct trace *t = r->t;
	int i = trace_dev(t, key);

	if (i >= 0)
		return i;
	if (strlen(key) >= TRACE_KEY_LEN)
		return fail(r, "device name longer than %d bytes",
			    TRACE_KEY_LEN - 1);
	if (t->ndev == TRACE_DEV_MAX)
		return fail(r, "more than %d devices", TRACE_DEV_MAX);
	if (!t->key) {
		t->key = calloc(TRACE_DEV_MAX, sizeof(*t->key));
		if (!t->key)
			return -ENOMEM;
	}
	snprintf(t->key[t->ndev], TRACE_KEY_LEN, "%s", key);
	return (int)t->ndev++;
}

static int add(struct rd *r, uint64_t t_ns, int dev, uint64_t off, uint64_t len,
	       int write, char act)
{
	struct trace *t = r->t;
	struct trace_rec *x;

	if (len == 0 || len > TRACE_LEN_MAX)
		return fail(r, "length %" PRIu64 " bytes is not within 1 .. %u",
			    len, TRACE_LEN_MAX);
	if (off > UINT64_MAX - len)
		return fail(r, "offset %" PRIu64 " plus length overflows", off);
	if (t->n == TRACE_REC_MAX)
		return fail(r, "more than %u records", TRACE_REC_MAX);
	if (t->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 1024;
		void *p = realloc(t->rec, cap * sizeof(*t->rec));

		if (!p)
			return -ENOMEM;
		t->rec = p;
		r->cap = cap;
	}
	x = &t->rec[t->n++];
	x->t_ns = t_ns;
	x->offset = off;
	x->len = (uint32_t)len;
	x->line = r->line;
	x->dev = (uint16_t)dev;
	x->write = (uint8_t)write;
	x->act = (uint8_t)act;
	return 0;
}

/* "S.NNNNNNNNN" seconds (up to 9 decimals) in ns. */
static int seconds_ns(const char *s, uint64_t *ns)
{
	char whole[24];
	const char *dot = strchr(s, '.');
	uint64_t sec, frac = 0;
	size_t k;

	k = dot ? (size_t)(dot - s) : strlen(s);
	if (k == 0 || k >= sizeof(whole))
		return -1;
	memcpy(whole, s, k);
	whole[k] = '\0';
	if (num(whole, &sec) || sec > UINT64_MAX / 1000000000ull - 1)
		return -1;
	if (dot) {
		unsigned digits = 0;

		for (const char *p = dot + 1; *p; p++, digits++) {
			if (*p < '0' || *p > '9' || digits == 9)
				return -1;
			frac = frac * 10 + (uint64_t)(*p - '0');
		}
		if (!digits)
			return -1;
		for (; digits < 9; digits++)
			frac *= 10;
	}
	*ns = sec * 1000000000ull + frac;
	return 0;
}

/* blkparse's closing summary: "CPUn (..." or "Total (...". */
static int summary_line(char **tok, unsigned n)
{
	if (n < 2 || tok[1][0] != '(')
		return 0;
	if (!strcmp(tok[0], "Total"))
		return 1;
	if (strncmp(tok[0], "CPU", 3))
		return 0;
	for (const char *p = tok[0] + 3; *p; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return tok[0][3] != '\0';
}

static int blkparse_line(struct rd *r, char **tok, unsigned n, int *end)
{
	uint64_t maj, min, v, t_ns, sector, blocks;
	const char *act, *rwbs;
	char key[48];
	const char *comma;
	int read, write, dev;

	if (summary_line(tok, n)) {
		*end = 1;
		return 0;
	}
	if (n < 6)
		return fail(r,
			    "not a blkparse event (MAJ,MIN CPU SEQ TIME PID ACTION ...): %u fields",
			    n);
	comma = strchr(tok[0], ',');
	if (!comma || comma - tok[0] > 10)
		return fail(r, "device '%s' is not MAJ,MIN", tok[0]);
	snprintf(key, sizeof(key), "%.*s", (int)(comma - tok[0]), tok[0]);
	if (num(key, &maj) || num(comma + 1, &min) || maj > 4095 ||
	    min > 0xfffff)
		return fail(r, "device '%s' is not MAJ,MIN", tok[0]);
	if (num(tok[1], &v) || num(tok[2], &v))
		return fail(r, "CPU '%s' or sequence '%s' is not a number",
			    tok[1], tok[2]);
	if (seconds_ns(tok[3], &t_ns))
		return fail(r, "time '%s' is not SECONDS.NANOSECONDS", tok[3]);
	if (num(tok[4], &v))
		return fail(r, "pid '%s' is not a number", tok[4]);
	act = tok[5];
	if (strcmp(act, "Q") && strcmp(act, "D"))
		return 0; /* another action: not a record */
	if (n < 7)
		return fail(r, "%s event without RWBS", act);
	rwbs = tok[6];
	for (const char *p = rwbs; *p; p++)
		if (!strchr("RWDFSMAN", *p))
			return fail(r,
				    "RWBS '%s' has '%c' (not R W D F S M A N)",
				    rwbs, *p);
	if (n < 10 || strcmp(tok[8], "+"))
		return 0; /* no data (a flush): nothing to replay */
	read = strchr(rwbs, 'R') != NULL;
	write = strchr(rwbs, 'W') != NULL;
	if (strchr(rwbs, 'D'))
		return fail(r,
			    "RWBS '%s' is a discard: lockstep does not replay discards",
			    rwbs);
	if (read == write)
		return fail(r, "RWBS '%s' is neither a read nor a write", rwbs);
	if (num(tok[7], &sector) || num(tok[9], &blocks))
		return fail(r, "'%s + %s' is not SECTOR + BLOCKS", tok[7],
			    tok[9]);
	if (sector > UINT64_MAX / 512 || blocks > TRACE_LEN_MAX / 512)
		return fail(r, "'%s + %s' is too large", tok[7], tok[9]);
	snprintf(key, sizeof(key), "%" PRIu64 ",%" PRIu64, maj, min);
	dev = dev_index(r, key);
	if (dev < 0)
		return dev;
	return add(r, t_ns, dev, sector * 512, blocks * 512, write, act[0]);
}

/* Of each device keep its Q records, or its D records when it has no Q. */
static void blkparse_pick(struct trace *t)
{
	unsigned char hasq[TRACE_DEV_MAX] = { 0 };
	size_t k = 0;

	for (size_t i = 0; i < t->n; i++)
		if (t->rec[i].act == 'Q')
			hasq[t->rec[i].dev] = 1;
	for (size_t i = 0; i < t->n; i++)
		if ((t->rec[i].act == 'Q') == hasq[t->rec[i].dev])
			t->rec[k++] = t->rec[i];
	t->n = k;
}

static int iolog_line(struct rd *r, char **tok, unsigned n)
{
	int v3 = r->t->format == TRACE_IOLOG3;
	uint64_t t_ns = r->clock_ns, ms, off, len;
	const char *file, *act;
	int dev;

	if (v3) {
		if (n < 1 || num(tok[0], &ms) || ms > UINT64_MAX / 1000000)
			return fail(r, "timestamp '%s' is not milliseconds",
				    n ? tok[0] : "");
		t_ns = ms * 1000000;
		tok++;
		n--;
	}
	if (n != 2 && n != 4 && !(n == 3 && !v3))
		return fail(r,
			    "expected %sFILE ACTION [OFFSET LENGTH], got %u fields",
			    v3 ? "TIMESTAMP " : "", n + (unsigned)v3);
	file = tok[0];
	act = tok[1];
	dev = dev_index(r, file);
	if (dev < 0)
		return dev;
	if (n == 2) {
		unsigned char *st = &r->state[dev];

		if (!strcmp(act, "add"))
			*st |= ST_ADDED;
		else if (!strcmp(act, "open") && (*st & ST_ADDED))
			*st |= ST_OPEN;
		else if (!strcmp(act, "close") && (*st & ST_OPEN))
			*st &= (unsigned char)~ST_OPEN;
		else if (!strcmp(act, "open") || !strcmp(act, "close"))
			return fail(r, "%s of '%s', which is not %s", act, file,
				    *act == 'o' ? "added" : "open");
		else
			return fail(r,
				    "unknown file action '%s' (add, open, close)",
				    act);
		return 0;
	}
	if (n == 3) { /* v2: FILE wait USEC */
		if (strcmp(act, "wait"))
			return fail(r, "expected FILE wait USEC, got '%s'",
				    act);
		if (num(tok[2], &len) || len > UINT64_MAX / 1000 / 2 ||
		    r->clock_ns > UINT64_MAX / 2)
			return fail(r, "wait '%s' is not microseconds", tok[2]);
		r->clock_ns += len * 1000;
		return 0;
	}
	if (strcmp(act, "read") && strcmp(act, "write")) {
		if (!strcmp(act, "sync") || !strcmp(act, "datasync") ||
		    !strcmp(act, "trim"))
			return fail(r,
				    "'%s' is not replayed by lockstep (read and write are)",
				    act);
		if (!strcmp(act, "wait"))
			return fail(r,
				    "wait in a v3 iolog (its timestamps give the times)");
		return fail(r, "unknown action '%s' (read, write)", act);
	}
	if (num(tok[2], &off) || num(tok[3], &len))
		return fail(r, "offset '%s' or length '%s' is not a number",
			    tok[2], tok[3]);
	if (!(r->state[dev] & ST_OPEN))
		return fail(r, "%s on '%s', which is not %s", act, file,
			    r->state[dev] & ST_ADDED ? "open" : "added");
	return add(r, t_ns, dev, off, len, act[0] == 'w', 0);
}

static int by_time(const void *a, const void *b)
{
	const struct trace_rec *x = a, *y = b;

	if (x->t_ns != y->t_ns)
		return x->t_ns < y->t_ns ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* The format from the first bytes; -EINVAL with why for the others. */
static int detect(struct rd *r, const char *first)
{
	if (!strcmp(first, "fio version 2 iolog")) {
		r->t->format = TRACE_IOLOG2;
		return 1;
	}
	if (!strcmp(first, "fio version 3 iolog")) {
		r->t->format = TRACE_IOLOG3;
		return 1;
	}
	if (!strncmp(first, "fio version ", 12)) {
		snprintf(r->err, r->errlen,
			 "%s:1: '%.40s': lockstep reads fio iolog versions 2 and 3",
			 r->name, first);
		return -EINVAL;
	}
	r->t->format = TRACE_BLKPARSE;
	return 0;
}

/*
 * blktrace's binary events (struct blk_io_trace of the kernel's
 * blktrace_api.h, BLK_IO_TRACE_VERSION 7): 48 bytes, then pdu_len bytes
 * of payload. The action's low 16 bits are what happened (1 queue, 7
 * issue), its high 16 the categories (read 1, write 2, discard 1 << 13,
 * notify 1 << 10: not an I/O). Either byte order, told by the magic.
 */
#define BLK_EV 48
#define BLK_VERSION 7
#define BLK_TA_QUEUE 1
#define BLK_TA_ISSUE 7
#define BLK_TC_WRITE (1u << 1)
#define BLK_TC_NOTIFY (1u << 10)
#define BLK_TC_DISCARD (1u << 13)

static uint32_t get32(const unsigned char *p, int swap)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return swap ? __builtin_bswap32(v) : v;
}

static uint64_t get64(const unsigned char *p, int swap)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return swap ? __builtin_bswap64(v) : v;
}

static int blktrace_events(struct rd *r, const unsigned char *b, size_t len)
{
	uint32_t m0;
	int swap;

	memcpy(&m0, b, 4);
	swap = (m0 & 0xffffff00u) != BLKTRACE_MAGIC;
	r->binary = 1;
	for (size_t pos = 0; pos < len;) {
		const unsigned char *e = b + pos;
		uint32_t magic, bytes, action, dev, what, cat;
		uint64_t t_ns, sector;
		uint16_t pdu;
		char key[32];
		int d, ret;

		r->line = (unsigned)pos;
		if (len - pos < BLK_EV)
			return fail(r, "a truncated event (%zu of %d bytes)",
				    len - pos, BLK_EV);
		magic = get32(e, swap);
		if ((magic & 0xffffff00u) != BLKTRACE_MAGIC)
			return fail(r, "not a blktrace event (magic 0x%08x)",
				    magic);
		if ((magic & 0xff) != BLK_VERSION)
			return fail(r,
				    "blktrace version %u (lockstep reads version %d): convert it with blkparse",
				    magic & 0xff, BLK_VERSION);
		memcpy(&pdu, e + 46, 2);
		pdu = swap ? __builtin_bswap16(pdu) : pdu;
		if (len - pos - BLK_EV < pdu)
			return fail(r,
				    "a truncated event (%u payload bytes, %zu left)",
				    pdu, len - pos - BLK_EV);
		t_ns = get64(e + 8, swap);
		sector = get64(e + 16, swap);
		bytes = get32(e + 24, swap);
		action = get32(e + 28, swap);
		dev = get32(e + 36, swap);
		what = action & 0xffff;
		cat = action >> 16;
		pos += BLK_EV + pdu;
		if ((cat & BLK_TC_NOTIFY) ||
		    (what != BLK_TA_QUEUE && what != BLK_TA_ISSUE) || !bytes)
			continue; /* not a queued or issued data transfer */
		if (cat & BLK_TC_DISCARD)
			return fail(r,
				    "a discard: lockstep does not replay discards");
		if (sector > UINT64_MAX / 512)
			return fail(r, "sector %llu is too large",
				    (unsigned long long)sector);
		snprintf(key, sizeof(key), "%u,%u", dev >> 20, dev & 0xfffff);
		d = dev_index(r, key);
		if (d < 0)
			return d;
		if (bytes > TRACE_LEN_MAX)
			return fail(r, "length %u bytes is not within 1 .. %u",
				    bytes, TRACE_LEN_MAX);
		ret = add(r, t_ns, d, sector * 512, bytes,
			  (cat & BLK_TC_WRITE) != 0,
			  what == BLK_TA_QUEUE ? 'Q' : 'D');
		if (ret)
			return ret;
	}
	return 0;
}

/* A text trace (blkparse or iolog) into r's trace, not yet finished. */
static int parse_text(struct rd *rr, const char *buf, size_t len)
{
	struct rd r = *rr;
	char line[1024], *tok[TOK_MAX];
	size_t pos = 0;
	int blk = -1, end = 0, ret = 0, seen = 0;

	if (memchr(buf, '\0', len)) {
		snprintf(r.err, r.errlen,
			 "%s: binary data, not a trace lockstep reads (blkparse text, fio iolog v2 or v3, blktrace binary)",
			 r.name);
		return -EINVAL;
	}
	while (pos < len && !end) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t k = nl ? (size_t)(nl - (buf + pos)) : len - pos;
		unsigned n;

		r.line++;
		if (k >= sizeof(line))
			return fail(&r, "line longer than %zu bytes",
				    sizeof(line) - 1);
		memcpy(line, buf + pos, k);
		line[k] = '\0';
		pos += k + 1;
		if (k && line[k - 1] == '\r')
			line[k - 1] = '\0';
		if (blk < 0) {
			ret = detect(&r, line);
			if (ret < 0)
				return ret;
			blk = !ret;
			if (!blk)
				continue; /* the iolog's header */
		}
		n = split(line, tok);
		if (n == 0)
			continue;
		if (n == TOK_MAX)
			return fail(&r, "more than %d fields", TOK_MAX - 1);
		if (blk && !seen &&
		    (tok[0][0] < '0' || tok[0][0] > '9' ||
		     !strchr(tok[0], ',')))
			return fail(&r,
				    "not a trace lockstep reads: blkparse text (MAJ,MIN CPU SEQ TIME ...) or a fio iolog ('fio version 2 iolog', 'fio version 3 iolog')");
		seen = 1;
		ret = blk ? blkparse_line(&r, tok, n, &end) :
			    iolog_line(&r, tok, n);
		if (ret < 0)
			return ret;
	}
	if (blk < 0 || (!seen && blk)) {
		snprintf(r.err, r.errlen,
			 "%s: empty: not a trace lockstep reads (blkparse text, fio iolog v2 or v3, blktrace binary)",
			 r.name);
		return -EINVAL;
	}
	rr->cap = r.cap;
	return 0;
}

/* Of each device Q or D (blkparse, blktrace), then sorted by time. */
static int finish(struct rd *r)
{
	struct trace *t = r->t;

	if (t->format == TRACE_BLKPARSE || t->format == TRACE_BLKTRACE)
		blkparse_pick(t);
	if (t->n == 0) {
		snprintf(r->err, r->errlen, "%s: no read or write records (%s)",
			 r->name, trace_format_name(t->format));
		return -EINVAL;
	}
	qsort(t->rec, t->n, sizeof(*t->rec), by_time);
	return 0;
}

static int is_blktrace(const char *buf, size_t len)
{
	uint32_t m;

	if (len < 4)
		return 0;
	memcpy(&m, buf, 4);
	return (m & 0xffffff00u) == BLKTRACE_MAGIC ||
	       (__builtin_bswap32(m) & 0xffffff00u) == BLKTRACE_MAGIC;
}

/* One buffer, text or blktrace binary, into r's trace. */
static int parse_buf(struct rd *r, const char *buf, size_t len)
{
	if (is_blktrace(buf, len)) {
		r->t->format = TRACE_BLKTRACE;
		return blktrace_events(r, (const unsigned char *)buf, len);
	}
	return parse_text(r, buf, len);
}

int trace_parse(struct trace *t, const char *name, const char *buf, size_t len,
		char *err, size_t errlen)
{
	struct rd r = { .t = t, .name = name, .err = err, .errlen = errlen };
	int ret;

	t->hash = trace_hash(buf, len);
	ret = parse_buf(&r, buf, len);
	return ret ? ret : finish(&r);
}

/* The whole file at path in *buf (malloc'd), its size in *len. */
static int read_file(const char *path, char **buf, size_t *len, char *err,
		     size_t errlen)
{
	struct stat st;
	size_t got = 0;
	int fd, ret;

	*buf = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_size > TRACE_FILE_MAX) {
		snprintf(err, errlen,
			 "%s: not a regular file of at most %llu bytes", path,
			 TRACE_FILE_MAX);
		close(fd);
		return -EINVAL;
	}
	*buf = malloc((size_t)st.st_size + 1);
	if (!*buf) {
		close(fd);
		return -ENOMEM;
	}
	while (got < (size_t)st.st_size) {
		ssize_t k = read(fd, *buf + got, (size_t)st.st_size - got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			ret = k < 0 ? -errno : -EIO;
			snprintf(err, errlen, "%s: %s", path, strerror(-ret));
			close(fd);
			free(*buf);
			*buf = NULL;
			return ret;
		}
		got += (size_t)k;
	}
	close(fd);
	*len = got;
	return 0;
}

/* The length of NAME in "NAME.blktrace.N", or 0 for another path. */
static size_t blktrace_base(const char *path)
{
	const char *dot = strrchr(path, '.');
	const char *suffix = ".blktrace";
	size_t k = strlen(suffix);

	if (!dot || !dot[1] || dot - path < (ptrdiff_t)k ||
	    strncmp(dot - k, suffix, k))
		return 0;
	for (const char *c = dot + 1; *c; c++)
		if (*c < '0' || *c > '9')
			return 0;
	return (size_t)(dot - k - path);
}

/*
 * blktrace's per-CPU files NAME.blktrace.0, .1, ... (until the first
 * missing one) as one trace; the hash is of their bytes in that order.
 */
static int read_cpus(struct rd *r, const char *path, size_t base)
{
	char name[4200];
	uint64_t h = FNV_START;
	int ret = 0;

	for (unsigned cpu = 0; cpu < 4096; cpu++) {
		char *buf;
		size_t len;

		snprintf(name, sizeof(name), "%.*s.blktrace.%u", (int)base,
			 path, cpu);
		ret = read_file(name, &buf, &len, r->err, r->errlen);
		if (ret == -ENOENT && cpu > 0)
			break;
		if (ret)
			return ret;
		h = fnv(h, buf, len);
		r->name = name;
		r->binary = 1;
		r->line = 0;
		ret = len ? (is_blktrace(buf, len) ?
				     blktrace_events(r,
						     (const unsigned char *)buf,
						     len) :
				     fail(r, "not a blktrace binary file")) :
			    0;
		free(buf);
		if (ret)
			return ret;
	}
	r->t->hash = h;
	r->t->format = TRACE_BLKTRACE;
	r->name = path;
	return 0;
}

int trace_read(struct trace *t, const char *path, char *err, size_t errlen)
{
	struct rd r = { .t = t, .name = path, .err = err, .errlen = errlen };
	size_t len, base = blktrace_base(path);
	char *buf;
	int ret;

	ret = read_file(path, &buf, &len, err, errlen);
	if (ret)
		return ret;
	if (base && is_blktrace(buf, len)) {
		free(buf);
		ret = read_cpus(&r, path, base);
		return ret ? ret : finish(&r);
	}
	t->hash = trace_hash(buf, len);
	ret = parse_buf(&r, buf, len);
	free(buf);
	return ret ? ret : finish(&r);
}

void trace_free(struct trace *t)
{
	free(t->key);
	free(t->rec);
	memset(t, 0, sizeof(*t));
}

int trace_dev(const struct trace *t, const char *key)
{
	for (size_t i = 0; i < t->ndev; i++)
		if (!strcmp(t->key[i], key))
			return (int)i;
	return -1;
}
