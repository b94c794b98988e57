/*
 * CURVE key files and the authorized-slaves list. See keys.h. This is the
 * one file of common/ that includes <zmq.h>, for zmq_curve_keypair() and
 * zmq_curve_public() only: lockstep does no cryptography of its own.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zmq.h>
#include "common/fsutil.h"
#include "common/keys.h"

static const char z85_chars[] =
	"0123456789abcdefghijklmnopqrstuvwxyz"
	"ABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";

int keys_z85_valid(const char *s, size_t len)
{
	if (len != KEYS_Z85_LEN)
		return 0;
	for (size_t i = 0; i < len; i += 5) {
		uint64_t v = 0;

		for (size_t k = 0; k < 5; k++) {
			const char *p = s[i + k] ? strchr(z85_chars, s[i + k]) :
						   NULL;

			if (!p)
				return 0;
			v = v * 85 + (uint64_t)(p - z85_chars);
		}
		/* Five characters hold up to 85^5 - 1: more than 32 bits. */
		if (v > UINT32_MAX)
			return 0;
	}
	return 1;
}

int keys_name_valid(const char *name, size_t len)
{
	char buf[KEYS_NAME_LEN];

	/* One rule for every slave name: fsutil_name_ok(), on a copy. */
	if (len == 0 || len >= sizeof(buf))
		return 0;
	memcpy(buf, name, len);
	buf[len] = '\0';
	return fsutil_name_ok(buf);
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

int keys_parse_key(const char *text, size_t len, char out[KEYS_Z85_LEN + 1],
		   char *err, size_t errlen)
{
	size_t i = 0;

	while (i < len) {
		size_t start, end, next;

		while (i < len && is_blank(text[i]))
			i++;
		start = i;
		while (i < len && text[i] != '\n')
			i++;
		next = i + 1;
		end = i;
		while (end > start && is_blank(text[end - 1]))
			end--;
		if (end == start || text[start] == '#') {
			i = next;
			continue;
		}
		if (!keys_z85_valid(text + start, end - start)) {
			snprintf(err, errlen,
				 "not a CURVE key (want one line of 40 Z85 characters, as lockstep keygen writes)");
			return -EINVAL;
		}
		memcpy(out, text + start, KEYS_Z85_LEN);
		out[KEYS_Z85_LEN] = 0;
		return 0;
	}
	snprintf(err, errlen, "no key in it");
	return -EINVAL;
}

long keys_authorized_find(const struct keys_authorized *a, const char *key)
{
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->e[i].key, key) == 0)
			return (long)i;
	return -1;
}

/* A new entry for key at the end of a (names none yet). */
static struct keys_entry *entry_new(struct keys_authorized *a, const char *key,
				    size_t keylen, unsigned line)
{
	struct keys_entry *e;

	if (a->n >= KEYS_MAX_ENTRIES)
		return NULL;
	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 16;
		struct keys_entry *ne = realloc(a->e, cap * sizeof(*ne));

		if (!ne)
			return NULL;
		a->e = ne;
		a->cap = cap;
	}
	e = &a->e[a->n++];
	memset(e, 0, sizeof(*e));
	memcpy(e->key, key, keylen);
	e->key[keylen] = 0;
	e->line = line;
	return e;
}

static int has_name(const struct keys_entry *e, const char *name, size_t len)
{
	for (unsigned k = 0; k < e->nnames; k++)
		if (strlen(e->names[k]) == len &&
		    memcmp(e->names[k], name, len) == 0)
			return 1;
	return 0;
}

static int entry_add_name(struct keys_entry *e, const char *name, size_t len)
{
	char(*nn)[KEYS_NAME_LEN];

	if (has_name(e, name, len))
		return 0;
	if (e->nnames >= KEYS_MAX_NAMES)
		return -E2BIG;
	nn = realloc(e->names, (e->nnames + 1) * sizeof(*nn));
	if (!nn)
		return -ENOMEM;
	e->names = nn;
	memcpy(e->names[e->nnames], name, len);
	e->names[e->nnames][len] = 0;
	e->nnames++;
	return 0;
}

void keys_authorized_free(struct keys_authorized *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->e[i].names);
	free(a->e);
	memset(a, 0, sizeof(*a));
}

int keys_authorized_add(struct keys_authorized *a, const char *key,
			const char *name)
{
	struct keys_entry *e;

	if (!keys_z85_valid(key, strlen(key)) ||
	    (name && !keys_name_valid(name, strlen(name))))
		return -EINVAL;
	if (keys_authorized_find(a, key) >= 0)
		return -EEXIST;
	e = entry_new(a, key, KEYS_Z85_LEN, 0);
	if (!e)
		return -ENOMEM;
	if (name && entry_add_name(e, name, strlen(name)) < 0) {
		a->n--;
		return -ENOMEM;
	}
	return 0;
}

/* Parse one line (without its newline) into a; lineno counts from 1. */
static int parse_line(const char *s, size_t len, unsigned lineno,
		      const char *path, struct keys_authorized *a, char *err,
		      size_t errlen)
{
	struct keys_entry *e;
	size_t i = 0, start;
	long dup;
	int ret;

	while (i < len && is_blank(s[i]))
		i++;
	if (i == len || s[i] == '#')
		return 0;
	start = i;
	while (i < len && !is_blank(s[i]) && s[i] != ',')
		i++;
	if (!keys_z85_valid(s + start, i - start)) {
		snprintf(err, errlen,
			 "%s:%u:%zu: not a CURVE public key (want 40 Z85 characters, as in a .pub file of lockstep keygen)",
			 path, lineno, start + 1);
		return -EINVAL;
	}
	{
		char key[KEYS_Z85_LEN + 1];

		memcpy(key, s + start, KEYS_Z85_LEN);
		key[KEYS_Z85_LEN] = 0;
		dup = keys_authorized_find(a, key);
	}
	if (dup >= 0) {
		snprintf(err, errlen,
			 "%s:%u:%zu: this key is listed already at line %u; list its names once, on one line",
			 path, lineno, start + 1, a->e[dup].line);
		return -EINVAL;
	}
	e = entry_new(a, s + start, KEYS_Z85_LEN, lineno);
	if (!e) {
		snprintf(err, errlen, "%s:%u:%zu: more than %d keys", path,
			 lineno, start + 1, KEYS_MAX_ENTRIES);
		return -ENOMEM;
	}
	for (;;) {
		while (i < len && (is_blank(s[i]) || s[i] == ','))
			i++;
		if (i == len || s[i] == '#')
			return 0;
		start = i;
		while (i < len && !is_blank(s[i]) && s[i] != ',')
			i++;
		if (!keys_name_valid(s + start, i - start)) {
			snprintf(err, errlen,
				 "%s:%u:%zu: not a slave name (letters, digits, '-', '_' and '.', not starting with '.', at most %d bytes)",
				 path, lineno, start + 1, KEYS_NAME_LEN - 1);
			return -EINVAL;
		}
		ret = entry_add_name(e, s + start, i - start);
		if (ret < 0) {
			snprintf(err, errlen, "%s:%u:%zu: %s", path, lineno,
				 start + 1,
				 ret == -E2BIG ? "too many names for one key" :
						 strerror(-ret));
			return ret == -E2BIG ? -EINVAL : ret;
		}
	}
}

int keys_authorized_parse(const char *text, size_t len, const char *path,
			  struct keys_authorized *a, char *err, size_t errlen)
{
	unsigned lineno = 0;
	size_t i = 0;
	int ret = 0;

	memset(a, 0, sizeof(*a));
	while (i < len && ret == 0) {
		const char *nl = memchr(text + i, '\n', len - i), *nul;
		size_t end = nl ? (size_t)(nl - text) : len;

		lineno++;
		if (end - i > KEYS_MAX_LINE) {
			snprintf(err, errlen,
				 "%s:%u:1: line longer than %d bytes", path,
				 lineno, KEYS_MAX_LINE);
			ret = -EINVAL;
			break;
		}
		nul = memchr(text + i, 0, end - i);
		if (nul) {
			snprintf(err, errlen, "%s:%u:%zu: a NUL byte", path,
				 lineno, (size_t)(nul - (text + i)) + 1);
			ret = -EINVAL;
			break;
		}
		ret = parse_line(text + i, end - i, lineno, path, a, err,
				 errlen);
		i = end + 1;
	}
	if (ret < 0)
		keys_authorized_free(a);
	return ret;
}

int keys_name_allowed(const struct keys_authorized *a, const char *key,
		      const char *name)
{
	long i = keys_authorized_find(a, key);
	size_t len = strlen(name);

	if (i < 0)
		return 0;
	if (a->e[i].nnames)
		return has_name(&a->e[i], name, len);
	for (size_t j = 0; j < a->n; j++)
		if (has_name(&a->e[j], name, len))
			return 0;
	return 1;
}

int keys_name_bound(const struct keys_authorized *a, const char *name)
{
	for (size_t j = 0; j < a->n; j++)
		if (has_name(&a->e[j], name, strlen(name)))
			return 1;
	return 0;
}

unsigned keys_mode_problem(mode_t mode, int secret)
{
	return (unsigned)(mode & (secret ? 077 : 022));
}

/*
 * Read a key file of at most max bytes into a malloc'd, NUL-terminated
 * buffer after the ownership and mode checks.
 */
static int read_checked(const char *path, int secret, size_t max, char **out,
			size_t *outlen, char *err, size_t errlen)
{
	struct stat st;
	char *buf = NULL;
	size_t used = 0;
	unsigned bad;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot open %s: %s", path,
			 strerror(-ret));
		return ret;
	}
	if (fstat(fd, &st) < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		ret = -EINVAL;
		snprintf(err, errlen, "%s: not a regular file", path);
		goto out;
	}
	if (st.st_uid != 0 && st.st_uid != geteuid()) {
		ret = -EPERM;
		snprintf(err, errlen,
			 "%s: owned by uid %u, neither root nor us: refused",
			 path, (unsigned)st.st_uid);
		goto out;
	}
	bad = keys_mode_problem(st.st_mode, secret);
	if (bad) {
		ret = -EPERM;
		if (secret)
			snprintf(err, errlen,
				 "%s: mode %04o lets group or others read a secret key: refused (chmod 600 %s)",
				 path, (unsigned)(st.st_mode & 07777), path);
		else
			snprintf(err, errlen,
				 "%s: mode %04o lets group or others change it: refused (chmod go-w %s)",
				 path, (unsigned)(st.st_mode & 07777), path);
		goto out;
	}
	if ((size_t)st.st_size > max) {
		ret = -EFBIG;
		snprintf(err, errlen, "%s: larger than %zu bytes", path, max);
		goto out;
	}
	buf = malloc(max + 1);
	if (!buf) {
		ret = -ENOMEM;
		snprintf(err, errlen, "%s: out of memory", path);
		goto out;
	}
	for (;;) {
		ssize_t n = read(fd, buf + used, max + 1 - used);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			snprintf(err, errlen, "cannot read %s: %s", path,
				 strerror(-ret));
			goto out;
		}
		if (n == 0)
			break;
		used += (size_t)n;
		if (used > max) {
			ret = -EFBIG;
			snprintf(err, errlen, "%s: larger than %zu bytes", path,
				 max);
			goto out;
		}
	}
	buf[used] = 0;
	*out = buf;
	*outlen = used;
	buf = NULL;
	ret = 0;
out:
	if (buf) {
		keys_wipe(buf, max + 1);
		free(buf);
	}
	close(fd);
	return ret;
}

int keys_load_secret(const char *path, struct keys_pair *kp, char *err,
		     size_t errlen)
{
	char *text, why[256];
	size_t len;
	int ret = read_checked(path, 1, 4096, &text, &len, err, errlen);

	if (ret < 0)
		return ret;
	ret = keys_parse_key(text, len, kp->secret, why, sizeof(why));
	keys_wipe(text, len);
	free(text);
	if (ret < 0) {
		snprintf(err, errlen, "%s: %s", path, why);
		return ret;
	}
	if (zmq_curve_public(kp->public, kp->secret) < 0) {
		keys_wipe(kp, sizeof(*kp));
		snprintf(err, errlen,
			 "%s: cannot derive its public key (libzmq without CURVE?)",
			 path);
		return -ENOTSUP;
	}
	return 0;
}

int keys_load_public(const char *path, char out[KEYS_Z85_LEN + 1], char *err,
		     size_t errlen)
{
	char *text, why[256];
	size_t len;
	int ret = read_checked(path, 0, 4096, &text, &len, err, errlen);

	if (ret < 0)
		return ret;
	ret = keys_parse_key(text, len, out, why, sizeof(why));
	free(text);
	if (ret < 0)
		snprintf(err, errlen, "%s: %s", path, why);
	return ret;
}

int keys_load_authorized(const char *path, struct keys_authorized *a, char *err,
			 size_t errlen)
{
	char *text;
	size_t len;
	int ret = read_checked(path, 0, KEYS_MAX_FILE, &text, &len, err,
			       errlen);

	if (ret < 0)
		return ret;
	ret = keys_authorized_parse(text, len, path, a, err, errlen);
	free(text);
	return ret;
}

int keys_generate(struct keys_pair *kp)
{
	if (!zmq_has("curve"))
		return -ENOTSUP;
	if (zmq_curve_keypair(kp->public, kp->secret) < 0)
		return -zmq_errno();
	return 0;
}

/* Read one line of at most KEYS_Z85_LEN + 2 bytes from fd, byte by byte. */
static int read_line(int fd, char *buf, size_t len)
{
	size_t used = 0;

	for (;;) {
		char c;
		ssize_t n = read(fd, &c, 1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0 || c == '\n')
			break;
		if (used + 1 >= len)
			return -E2BIG;
		buf[used++] = c;
	}
	while (used && is_blank(buf[used - 1]))
		used--;
	buf[used] = 0;
	return (int)used;
}

int keys_read_triplet(int fd, struct keys_pair *own,
		      char master[KEYS_Z85_LEN + 1], char *err, size_t errlen)
{
	static const char *const what[] = { "its secret key", "its public key",
					    "the master's public key" };
	char *dest[3] = { own->secret, own->public, master };
	char line[KEYS_Z85_LEN + 4];

	for (int k = 0; k < 3; k++) {
		int n = read_line(fd, line, sizeof(line));

		if (n < 0 || !keys_z85_valid(line, (size_t)n)) {
			keys_wipe(line, sizeof(line));
			keys_wipe(own, sizeof(*own));
			snprintf(err, errlen,
				 "--keys-stdin: line %d (%s) is not a Z85 key%s",
				 k + 1, what[k],
				 n < 0 ? "" : " (stdin must carry three)");
			return -EINVAL;
		}
		memcpy(dest[k], line, KEYS_Z85_LEN + 1);
	}
	keys_wipe(line, sizeof(line));
	return 0;
}

/* Create path with O_EXCL | O_NOFOLLOW, mode, holding text and a newline. */
static int write_new(const char *path, mode_t mode, const char *text)
{
	char buf[KEYS_Z85_LEN + 2];
	size_t len = strlen(text);
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  mode);
	if (fd < 0)
		return -errno;
	memcpy(buf, text, len);
	buf[len] = '\n';
	/* The umask may have taken bits away; a .pub is meant to be read. */
	errno = 0;
	if (fchmod(fd, mode) < 0 ||
	    write(fd, buf, len + 1) != (ssize_t)len + 1 || fsync(fd) < 0)
		ret = errno ? -errno : -EIO;
	keys_wipe(buf, sizeof(buf));
	if (close(fd) < 0 && ret == 0)
		ret = -errno;
	if (ret < 0)
		unlink(path);
	return ret;
}

int keys_write_pair(const char *dir, const char *name,
		    const struct keys_pair *kp, char *err, size_t errlen)
{
	char key[PATH_MAX], pub[PATH_MAX];
	int ret;

	if (!keys_name_valid(name, strlen(name))) {
		snprintf(err, errlen,
			 "'%s' is not a key name (letters, digits, '-', '_' and '.', not starting with '.')",
			 name);
		return -EINVAL;
	}
	if ((size_t)snprintf(key, sizeof(key), "%s/%s.key", dir, name) >=
		    sizeof(key) ||
	    (size_t)snprintf(pub, sizeof(pub), "%s/%s.pub", dir, name) >=
		    sizeof(pub)) {
		snprintf(err, errlen, "%s: path too long", dir);
		return -ENAMETOOLONG;
	}
	ret = write_new(key, 0600, kp->secret);
	if (ret < 0) {
		snprintf(err, errlen, "cannot create %s: %s%s", key,
			 strerror(-ret),
			 ret == -EEXIST ?
				 " (an existing key is never overwritten)" :
				 "");
		return ret;
	}
	ret = write_new(pub, 0644, kp->public);
	if (ret < 0) {
		unlink(key);
		snprintf(err, errlen, "cannot create %s: %s%s", pub,
			 strerror(-ret),
			 ret == -EEXIST ?
				 " (an existing key is never overwritten)" :
				 "");
		return ret;
	}
	return 0;
}

void keys_wipe(void *buf, size_t len)
{
	explicit_bzero(buf, len);
}
