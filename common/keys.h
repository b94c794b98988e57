/*
 * CURVE keys for the master and the slaves: Z85 key files (generated,
 * loaded with ssh's permission rules), the authorized-slaves file (which
 * slave keys may register, and under which names) and the decision whether
 * an authenticated key may use a name. The parsing and the decisions are
 * pure functions; the only ZeroMQ calls are the key pair generation and
 * the derivation of a public key from a secret one (libzmq's own
 * Curve25519). Key text never goes into a message or a log line.
 */
#ifndef LOCKSTEP_COMMON_KEYS_H
#define LOCKSTEP_COMMON_KEYS_H

#include <stddef.h>
#include <sys/types.h>

#define KEYS_Z85_LEN 40          /* a 32-byte key as Z85 text */
#define KEYS_NAME_LEN 64         /* a slave name and its NUL */
#define KEYS_MAX_NAMES 256       /* names listed with one key */
#define KEYS_MAX_ENTRIES 65536   /* keys in one authorized file */
#define KEYS_MAX_LINE 8192       /* bytes in one line of that file */
#define KEYS_MAX_FILE (4u << 20) /* bytes in that file */

/* A key pair as Z85 text, each NUL-terminated. */
struct keys_pair {
	char secret[KEYS_Z85_LEN + 1];
	char public[KEYS_Z85_LEN + 1];
};

/* One authorized key and the names it may register under (none: any). */
struct keys_entry {
	char key[KEYS_Z85_LEN + 1];
	char (*names)[KEYS_NAME_LEN];
	unsigned nnames;
	unsigned line; /* where it was listed; 0 added at run time */
};

struct keys_authorized {
	struct keys_entry *e;
	size_t n, cap;
};

/* Whether s[0..len) is a Z85 key: 40 characters that decode to 32 bytes. */
int keys_z85_valid(const char *s, size_t len);
/*
 * Whether name is a slave name: letters, digits, '-', '_' and '.', not
 * starting with a dot, 1 to KEYS_NAME_LEN - 1 bytes (the hd= name rules).
 */
int keys_name_valid(const char *name, size_t len);

/*
 * The key of a key file's text: the first line that is not empty or a
 * '#' comment, blanks around it ignored, must be one Z85 key. Returns 0
 * with out filled, or -EINVAL with the reason (never the key) in err.
 */
int keys_parse_key(const char *text, size_t len, char out[KEYS_Z85_LEN + 1],
		   char *err, size_t errlen);

/*
 * Parse an authorized-slaves file's text (path only names it in errors):
 * one Z85 public key per line, optionally followed by the names it may
 * register under (separated by blanks or commas); '#' starts a comment;
 * empty lines are skipped. A key listed twice, a bad key, a bad name or a
 * line over KEYS_MAX_LINE bytes is refused with "PATH:LINE:COLUMN: why" in
 * err. Returns 0 (a is filled; free it with keys_authorized_free) or
 * -EINVAL / -ENOMEM (a is left empty).
 */
int keys_authorized_parse(const char *text, size_t len, const char *path,
			  struct keys_authorized *a, char *err, size_t errlen);
/*
 * Add one key with one name (NULL: any name), e.g. a launched slave's
 * per-run key bound to its name. -EEXIST when the key is listed already,
 * -EINVAL for a bad key or name, -ENOMEM.
 */
int keys_authorized_add(struct keys_authorized *a, const char *key,
			const char *name);
/* The index of key in a, or -1. */
long keys_authorized_find(const struct keys_authorized *a, const char *key);
void keys_authorized_free(struct keys_authorized *a);

/*
 * Whether the peer that proved key may register as name. Only listed keys
 * may; a key listed with names may use only those; a key listed without
 * names may use any name that no key lists (a name listed with a key, like
 * a launched slave's, belongs to that key alone). Pure.
 */
int keys_name_allowed(const struct keys_authorized *a, const char *key,
		      const char *name);

/* Whether some key in a lists name (it then belongs to that key). Pure. */
int keys_name_bound(const struct keys_authorized *a, const char *name);

/*
 * ssh's rule for key files, on a stat mode: a secret key must give group
 * and others nothing (mode & 077), a public key or an authorized file must
 * not be writable by them (mode & 022). Returns the offending bits, 0 when
 * the mode is fine. Pure.
 */
unsigned keys_mode_problem(mode_t mode, int secret);

/*
 * Load a key file: a regular file owned by root or by us whose mode passes
 * keys_mode_problem(). keys_load_secret also derives the public key.
 * Return 0 or -errno with a message naming the file (and its mode when
 * that is the problem) in err.
 */
int keys_load_secret(const char *path, struct keys_pair *kp, char *err,
		     size_t errlen);
int keys_load_public(const char *path, char out[KEYS_Z85_LEN + 1], char *err,
		     size_t errlen);
/* Load and parse an authorized-slaves file (the same ownership rules). */
int keys_load_authorized(const char *path, struct keys_authorized *a, char *err,
			 size_t errlen);

/*
 * A fresh CURVE key pair. -ENOTSUP when libzmq was built without CURVE.
 */
int keys_generate(struct keys_pair *kp);
/*
 * Read a launched slave's keys from fd (its stdin): three lines, its
 * secret key, its public key and the master's public key. Reads no more
 * than those three lines. Returns 0 or -errno with the reason in err.
 */
int keys_read_triplet(int fd, struct keys_pair *own,
		      char master[KEYS_Z85_LEN + 1], char *err, size_t errlen);
/*
 * Write kp as dir/name.key (the secret, mode 0600) and dir/name.pub (mode
 * 0644), each created with O_EXCL | O_NOFOLLOW: an existing file is never
 * overwritten (and a .key written before a .pub that exists is removed).
 * Returns 0 or -errno with a message in err.
 */
int keys_write_pair(const char *dir, const char *name,
		    const struct keys_pair *kp, char *err, size_t errlen);
/* Forget a secret: zero the buffer where the compiler cannot skip it. */
void keys_wipe(void *buf, size_t len);

#endif
