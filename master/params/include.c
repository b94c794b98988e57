/*
 * include=FILE: reading another parameter file (relative to the including
 * file's folder) in place of the include= line, by saving the scanner's
 * place and switching it to the new text until its end; and reading a
 * parameter file whole, for the first text and for every include.
 */
#include "master/params/params_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Parameter files are small; anything this big is not one. */
#define FILE_MAX (16u << 20)

/* Append a file name to out->files; its index, or -ENOMEM. */
int include_add_file(struct params *pa, const char *name)
{
	char **nf = realloc(pa->files, (pa->nfiles + 1) * sizeof(*nf));

	if (!nf)
		return -ENOMEM;
	pa->files = nf;
	nf[pa->nfiles] = strdup(name);
	if (!nf[pa->nfiles])
		return -ENOMEM;
	return (int)pa->nfiles++;
}

int include_path(const struct parser *p, const struct val *v, char *path,
		 size_t len)
{
	const char *cur = p->out->files[v->pos.file],
		   *slash = strrchr(cur, '/');
	size_t dlen = 0;

	if (v->s[0] != '/' && slash)
		dlen = (size_t)(slash - cur) + 1;
	if (dlen + v->len >= len)
		return -ENAMETOOLONG;
	memcpy(path, cur, dlen);
	memcpy(path + dlen, v->s, v->len);
	path[dlen + v->len] = '\0';
	return 0;
}

/*
 * include=FILE on a line of its own: FILE (relative to the including
 * file's folder) is scanned in its place, then the line after it.
 */
int include_start(struct parser *p, const struct item *it)
{
	const struct val *v = &it->val[0];
	char path[PARAMS_PATH_MAX], *text = NULL;
	size_t len;
	const char *c;
	int ret, idx;

	if (p->flags & PARAMS_NO_INCLUDE)
		return perr(p, it->kpos, "include= is not allowed here");
	for (c = p->s; scan_is_blank(*c); c++)
		;
	if (!it->first_on_line || it->cont || *c == ',')
		return perr(p, it->kpos,
			    "include= must be on a line of its own");
	if (it->nval != 1 || it->list)
		return perr(p, it->vpos, "include= takes one file name");
	scan_skip_to_eol(p);
	scan_end_line(p);
	if (p->depth == PARAMS_INCLUDE_DEPTH)
		return perr(p, it->kpos,
			    "include= nested more than %d deep (does a file include itself?)",
			    PARAMS_INCLUDE_DEPTH);
	if (include_path(p, v, path, sizeof(path)))
		return perr(p, v->pos, "include=%.*s: the path is too long",
			    show(v->len), v->s);
	ret = include_read_text(path, &text, &len);
	if (ret == -ENOMEM)
		return ret;
	if (ret)
		return perr(p, v->pos, "include=%.*s: cannot read %s: %s",
			    show(v->len), v->s, path, include_strerror(ret));
	if (strlen(text) != len) {
		struct params_pos at = scan_text_pos(text, text + strlen(text));

		free(text);
		return perr(p, v->pos,
			    "include=%.*s: %s:%u:%u: a NUL byte: not a text file",
			    show(v->len), v->s, path, at.line, at.col);
	}
	idx = include_add_file(p->out, path);
	if (idx < 0) {
		free(text);
		return idx;
	}
	p->outer[p->depth++] = (struct source){
		.s = p->s,
		.bol = p->bol,
		.line = p->line,
		.file = p->file,
		.at_bol = p->at_bol,
		.cont_next = p->cont_next,
		.owned = p->owned,
	};
	p->outer[p->depth - 1].trusted = p->trusted;
	p->owned = text;
	p->s = p->bol = include_skip_bom(text);
	p->line = 1;
	p->file = (unsigned)idx;
	p->at_bol = true;
	p->cont_next = false;
	p->trusted = false;
	return 0;
}

/* The end of an included text: back to the line after its include=. */
void include_end(struct parser *p)
{
	const struct source *o = &p->outer[--p->depth];

	free(p->owned);
	p->s = o->s;
	p->bol = o->bol;
	p->line = o->line;
	p->file = o->file;
	p->at_bol = o->at_bol;
	p->cont_next = o->cont_next;
	p->trusted = o->trusted;
	p->owned = o->owned;
}

const char *include_skip_bom(const char *text)
{
	return strncmp(text, "\xEF\xBB\xBF", 3) ? text : text + 3;
}

const char *include_strerror(int ret)
{
	if (ret == -EFBIG)
		return "too large for a parameter file";
	if (ret == -ENOTSUP)
		return "not a regular file (a FIFO, device, socket or folder)";
	return strerror(-ret);
}

/* The whole of fd as a string; *len excludes the added NUL. */
static int read_all(int fd, char **buf, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *b = malloc(cap), *nb;

	if (!b)
		return -ENOMEM;
	for (;;) {
		ssize_t r;

		if (cap - n < 2) {
			if (cap >= FILE_MAX) {
				free(b);
				return -EFBIG;
			}
			nb = realloc(b, cap * 2);
			if (!nb) {
				free(b);
				return -ENOMEM;
			}
			b = nb;
			cap *= 2;
		}
		r = read(fd, b + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = -errno;

			free(b);
			return e;
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

/*
 * The whole file at path as a string; *len excludes the added NUL. Only a
 * regular file is read: it is opened with O_NONBLOCK and checked with
 * fstat() first, so a FIFO (which would block open() and read() until a
 * writer came) or a device is refused at once.
 */
int include_read_text(const char *path, char **text, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), ret;
	struct stat st;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		ret = -errno;
	else if (!S_ISREG(st.st_mode))
		ret = -ENOTSUP;
	else
		ret = read_all(fd, text, len);
	close(fd);
	return ret;
}
