/*
 * I/O trace readers: blkparse text and fio iolog v2/v3 into sorted
 * records, every malformed line refused at NAME:LINE. See trace.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
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
};

#define ST_ADDED 1
#define ST_OPEN 2

static int fail(struct rd *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct rd *r, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(r->err, r->errlen, "%s:%u: ", r->name, r->line);

	if (n < 0 || (size_t)n >= r->errlen)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

uint64_t trace_hash(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

const char *trace_format_name(enum trace_format f)
{
	switch (f) {
	case TRACE_BLKPARSE:
		return "blkparse";
	case TRACE_IOLOG2:
		return "fio iolog v2";
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
static int detect(struct rd *r, const char *buf, size_t len, const char *first)
{
	uint32_t m = 0;

	if (len >= 4) {
		memcpy(&m, buf, 4);
		if ((m & 0xffffff00u) == BLKTRACE_MAGIC ||
		    (__builtin_bswap32(m) & 0xffffff00u) == BLKTRACE_MAGIC) {
			snprintf(r->err, r->errlen,
				 "%s: a blktrace binary file: lockstep reads blkparse's text; convert it with `blkparse -i NAME -o NAME.txt` (NAME without .blktrace.N)",
				 r->name);
			return -EINVAL;
		}
	}
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

int trace_parse(struct trace *t, const char *name, const char *buf, size_t len,
		char *err, size_t errlen)
{
	struct rd r = { .t = t, .name = name, .err = err, .errlen = errlen };
	char line[1024], *tok[TOK_MAX];
	size_t pos = 0;
	int blk = -1, end = 0, ret = 0, seen = 0;

	t->hash = trace_hash(buf, len);
	if (memchr(buf, '\0', len) && len >= 4) {
		uint32_t m;

		memcpy(&m, buf, 4);
		if ((m & 0xffffff00u) != BLKTRACE_MAGIC &&
		    (__builtin_bswap32(m) & 0xffffff00u) != BLKTRACE_MAGIC) {
			snprintf(err, errlen,
				 "%s: binary data, not a trace lockstep reads (blkparse text, fio iolog v2 or v3)",
				 name);
			return -EINVAL;
		}
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
			ret = detect(&r, buf, len, line);
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
		snprintf(err, errlen,
			 "%s: empty: not a trace lockstep reads (blkparse text, fio iolog v2 or v3)",
			 name);
		return -EINVAL;
	}
	if (blk)
		blkparse_pick(t);
	if (t->n == 0) {
		snprintf(err, errlen, "%s: no read or write records (%s)", name,
			 trace_format_name(t->format));
		return -EINVAL;
	}
	qsort(t->rec, t->n, sizeof(*t->rec), by_time);
	return 0;
}

int trace_read(struct trace *t, const char *path, char *err, size_t errlen)
{
	struct stat st;
	char *buf = NULL;
	size_t got = 0;
	int fd, ret;

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
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	while (got < (size_t)st.st_size) {
		ssize_t k = read(fd, buf + got, (size_t)st.st_size - got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			ret = k < 0 ? -errno : -EIO;
			snprintf(err, errlen, "%s: %s", path, strerror(-ret));
			close(fd);
			free(buf);
			return ret;
		}
		got += (size_t)k;
	}
	close(fd);
	ret = trace_parse(t, path, buf, got, err, errlen);
	free(buf);
	return ret;
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
