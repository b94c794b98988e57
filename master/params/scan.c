/*
 * The scanner of parameter files: it turns the text into KEY=VALUE items (a
 * value is a bare word, a "quoted string" or a parenthesized list of those)
 * with the file, line and column of every keyword and value, and knows
 * Vdbench's rules for comments, blanks and continuation lines. It decides
 * nothing about what a keyword means.
 */
#include "master/params/params_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <string.h>

bool scan_is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static bool is_key_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static bool is_bare_char(char c)
{
	return c && c != '\n' && !scan_is_blank(c) && c != ',' && c != '(' &&
	       c != ')' && c != '"';
}

static bool is_comment_char(char c)
{
	return c == '*' || c == '#';
}

static struct params_pos pos_at(const struct parser *p, const char *c)
{
	struct params_pos pos = { p->line, (unsigned)(c - p->bol) + 1,
				  p->file };

	return pos;
}

/* s is at a '\n': step over it. */
static void newline(struct parser *p)
{
	p->s++;
	p->line++;
	p->bol = p->s;
}

void scan_skip_to_eol(struct parser *p)
{
	while (*p->s && *p->s != '\n')
		p->s++;
}

/* At the end of a line (or of the text): go to the next line. */
void scan_end_line(struct parser *p)
{
	if (*p->s == '\n')
		newline(p);
	p->at_bol = true;
}

/* KEY= at c: text a missing comma would have turned into a comment. */
static bool looks_like_param(const char *c)
{
	const char *e = c;

	while (is_key_char(*e))
		e++;
	return e != c && *e == '=';
}

/*
 * Inside a list: skip blanks, newlines and whole comment lines. Fails if a
 * new line looks like the start of a new definition, which means the list's
 * ')' is missing.
 */
static int skip_in_list(struct parser *p, const struct item *it)
{
	const char *c;

	for (;;) {
		while (scan_is_blank(*p->s))
			p->s++;
		if (*p->s != '\n')
			return 0;
		newline(p);
		for (c = p->s; scan_is_blank(*c); c++)
			;
		if (is_comment_char(*c)) {
			p->s = c;
			scan_skip_to_eol(p);
		} else if (c == p->s && looks_like_param(c)) {
			return perr(p, it->vpos, "missing ')' in %.*s=",
				    (int)it->keylen, it->key);
		}
	}
}

static int scan_value(struct parser *p, const struct item *it, struct val *v)
{
	const char *c = p->s, *e;

	v->pos = pos_at(p, c);
	if (*c == '"') {
		for (e = c + 1; *e && *e != '"' && *e != '\n'; e++)
			;
		if (*e != '"')
			return perr(p, v->pos,
				    "unterminated quoted string in %.*s=",
				    (int)it->keylen, it->key);
		v->s = c + 1;
		v->len = (size_t)(e - c - 1);
		p->s = e + 1;
	} else {
		for (e = c; is_bare_char(*e); e++)
			;
		v->s = c;
		v->len = (size_t)(e - c);
		p->s = e;
	}
	if (!v->len)
		return perr(p, v->pos, "%.*s= has an empty value",
			    (int)it->keylen, it->key);
	return 0;
}

/* s is just past the '(' of it's value. */
static int scan_list(struct parser *p, struct item *it)
{
	int ret;

	for (;;) {
		ret = skip_in_list(p, it);
		if (ret)
			return ret;
		if (!*p->s)
			return perr(p, it->vpos, "missing ')' in %.*s=",
				    (int)it->keylen, it->key);
		if (*p->s == '(')
			return perr(p, pos_at(p, p->s),
				    "nested '(' in %.*s= is not allowed",
				    (int)it->keylen, it->key);
		if (it->nval == PARAMS_LIST_MAX)
			return perr(p, pos_at(p, p->s),
				    "%.*s= has more than %d values",
				    (int)it->keylen, it->key, PARAMS_LIST_MAX);
		ret = scan_value(p, it, &it->val[it->nval]);
		if (ret)
			return ret;
		it->nval++;
		ret = skip_in_list(p, it);
		if (ret)
			return ret;
		if (*p->s == ')') {
			p->s++;
			return 0;
		}
		if (*p->s != ',') {
			if (!*p->s)
				return perr(p, it->vpos, "missing ')' in %.*s=",
					    (int)it->keylen, it->key);
			return perr(p, pos_at(p, p->s),
				    "expected ',' or ')' in %.*s=",
				    (int)it->keylen, it->key);
		}
		p->s++;
	}
}

/* One KEY=VALUE at s. */
static int scan_item(struct parser *p)
{
	struct item *it = &p->it;
	const char *c = p->s;
	int ret;

	it->key = c;
	it->kpos = pos_at(p, c);
	while (is_key_char(*c))
		c++;
	it->keylen = (size_t)(c - it->key);
	if (!it->keylen) {
		if (isprint((unsigned char)*c))
			return perr(p, it->kpos,
				    "expected a parameter name, found '%c'",
				    *c);
		return perr(p, it->kpos, "expected a parameter name");
	}
	if (*c != '=')
		return perr(p, pos_at(p, c), "expected '=' after '%.*s'",
			    (int)it->keylen, it->key);
	p->s = ++c;
	it->raw = c;
	it->vpos = pos_at(p, c);
	it->nval = 0;
	it->list = *c == '(';
	if (it->list) {
		p->s++;
		ret = scan_list(p, it);
	} else {
		ret = scan_value(p, it, &it->val[0]);
		it->nval = 1;
	}
	/* A list may span lines; quote back only its first one. */
	for (c = it->raw; c < p->s && *c != '\n'; c++)
		;
	it->rawlen = (size_t)(c - it->raw);
	return ret;
}

/*
 * Scan the next item. Returns 1 with it in p->it, 0 at the end of the text,
 * -EINVAL on a syntax error. As in Vdbench, text after a blank that follows
 * a complete item is a comment; text that reads like a parameter there is an
 * error, because it is almost always a missing comma.
 */
int scan_next_item(struct parser *p)
{
	struct item *it = &p->it;
	bool first = false, indented = false, cont = false;
	const char *c;

	for (;;) {
		if (p->at_bol) {
			for (c = p->s; scan_is_blank(*c); c++)
				;
			indented = c != p->s;
			p->s = c;
			if (!*c)
				return 0;
			if (*c == '\n') {
				newline(p);
				continue;
			}
			if (is_comment_char(*c)) {
				scan_skip_to_eol(p);
				scan_end_line(p);
				continue;
			}
			p->at_bol = false;
			first = true;
			cont = p->cont_next;
			p->cont_next = false;
			if (*c != ',')
				break;
			cont = true;
		}
		c = p->s;
		while (scan_is_blank(*c))
			c++;
		if (*c == ',') {
			for (c++; scan_is_blank(*c); c++)
				;
			p->s = c;
			if (*c == '\n' || !*c) {
				p->cont_next = true;
				scan_end_line(p);
				continue;
			}
			break;
		}
		if (*c == '\n' || !*c) {
			p->s = c;
			scan_end_line(p);
			continue;
		}
		if (c == p->s) {
			if (isprint((unsigned char)*c))
				return perr(p, pos_at(p, c),
					    "expected ',' before '%c'", *c);
			return perr(p, pos_at(p, c), "expected ','");
		}
		if (looks_like_param(c)) {
			const char *e = strchr(c, '=');

			return perr(p, pos_at(p, c),
				    "'%.*s=' follows a blank: separate parameters with ',' (text after a blank is a comment)",
				    (int)(e - c), c);
		}
		p->s = c;
		scan_skip_to_eol(p);
		scan_end_line(p);
	}
	it->first_on_line = first;
	it->indented = indented;
	it->cont = cont;
	return scan_item(p) ? -EINVAL : 1;
}

/* The line and column of e in text. */
struct params_pos scan_text_pos(const char *text, const char *e)
{
	const char *bol = text;
	struct params_pos pos = { 1, 1, 0 };

	for (const char *c = text; c < e; c++) {
		if (*c == '\n') {
			pos.line++;
			bol = c + 1;
		}
	}
	pos.col = (unsigned)(e - bol) + 1;
	return pos;
}

/* The end of the text's last line, for errors about the file as a whole. */
struct params_pos scan_end_pos(const char *text)
{
	const char *e = text + strlen(text);

	while (e > text && (e[-1] == '\n' || scan_is_blank(e[-1])))
		e--;
	return scan_text_pos(text, e);
}
