/*
 * startcmd= and endcmd= (general and rd=), read as Vdbench's Debug_cmds
 * reads them (Vdb/Debug_cmds.java storeCommands): a list of words, each a
 * command run in order, the scope master or slave, or the target of the
 * output, a single word that starts with log, sum or cons (Vdbench takes
 * any such word for the target; lockstep only one without a blank, so
 * that "logger -t x" stays a command). The texts go to params.cmd, where
 * the rd= lines an rd=default gave them to share them.
 */
#include "master/params/params_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int add_text(struct parser *p, const struct val *v, unsigned *idx)
{
	struct params *pa = p->out;
	char **n;

	if (!(pa->ncmd & (pa->ncmd + 1)) || !pa->cmd) {
		n = realloc(pa->cmd, sizeof(*n) * (pa->ncmd + 1) * 2);
		if (!n)
			return -ENOMEM;
		pa->cmd = n;
	}
	pa->cmd[pa->ncmd] = strndup(v->s, v->len);
	if (!pa->cmd[pa->ncmd])
		return -ENOMEM;
	*idx = (unsigned)pa->ncmd++;
	return 0;
}

/* A target word: one word starting with log, sum or cons. */
static int target_of(const struct val *v, enum params_cmd_target *t)
{
	if (memchr(v->s, ' ', v->len) || memchr(v->s, '\t', v->len))
		return 0;
	if (v->len >= 3 && !strncasecmp(v->s, "log", 3))
		*t = PARAMS_CMD_LOG;
	else if (v->len >= 3 && !strncasecmp(v->s, "sum", 3))
		*t = PARAMS_CMD_SUMMARY;
	else if (v->len >= 4 && !strncasecmp(v->s, "cons", 4))
		*t = PARAMS_CMD_CONSOLE;
	else
		return 0;
	return 1;
}

/* One command: not empty, not too long, no control character. */
static int check_text(struct parser *p, const struct kw *kw,
		      const struct val *v)
{
	char sh[SHOW_MAX + 1];

	if (!v->len)
		return perr(p, v->pos, "%s= has an empty command", kw->name);
	if (v->len >= PARAMS_CMD_MAX)
		return perr(p, v->pos,
			    "%s=%s...: the command is too long (%zu characters, at most %d)",
			    kw->name, shown(v, sh, sizeof(sh)), v->len,
			    PARAMS_CMD_MAX - 1);
	for (size_t i = 0; i < v->len; i++)
		if ((unsigned char)v->s[i] < ' ' && v->s[i] != '\t')
			return perr(p, v->pos,
				    "%s=%s: a control character in the command",
				    kw->name, shown(v, sh, sizeof(sh)));
	return 0;
}

int cmd_set(struct parser *p, const struct kw *kw, void *obj,
	    const struct item *it)
{
	struct params_cmd *c = (struct params_cmd *)((char *)obj + kw->off);
	struct params_cmd got = { .pos = it->vpos };
	bool scoped = false, targeted = false;
	char sh[SHOW_MAX + 1];
	int ret;

	for (size_t i = 0; i < it->nval; i++) {
		const struct val *v = &it->val[i];
		enum params_cmd_target t;

		if (val_is(v, "master") || val_is(v, "slave")) {
			if (scoped)
				return perr(p, v->pos,
					    "%s= gives master or slave twice",
					    kw->name);
			scoped = true;
			got.slave = val_is(v, "slave");
			if (got.slave && p->kind == KIND_GENERAL)
				return perr(p, v->pos,
					    "%s=%s: the general %s= runs on the master, before the first run or after the last; slave scope is an rd's (rd=...,%s=(\"CMD\",slave))",
					    kw->name, shown(v, sh, sizeof(sh)),
					    kw->name, kw->name);
			continue;
		}
		if (target_of(v, &t)) {
			if (targeted)
				return perr(p, v->pos,
					    "%s=%s: a second target (log, summary or console); a command that starts with log, sum or cons needs its path or an argument",
					    kw->name, shown(v, sh, sizeof(sh)));
			targeted = true;
			got.target = t;
			continue;
		}
		ret = check_text(p, kw, v);
		if (ret)
			return ret;
		if (got.n == PARAMS_CMDS_MAX)
			return perr(p, v->pos, "%s=: more than %d commands",
				    kw->name, PARAMS_CMDS_MAX);
		ret = add_text(p, v, &got.cmd[got.n]);
		if (ret)
			return ret;
		got.n++;
	}
	if (!got.n)
		return perr(p, it->vpos,
			    "%s=%.*s names no command (a single word that starts with log, sum or cons is the target, as Vdbench reads it: give such a command with its path or an argument)",
			    kw->name, show(it->rawlen), it->raw);
	/* An rd's commands run on its slaves unless it says master. */
	if (!scoped)
		got.slave = p->kind != KIND_GENERAL;
	*c = got;
	return 0;
}

const char *params_cmd_text(const struct params *p, const struct params_cmd *c,
			    unsigned i)
{
	return i < c->n && c->cmd[i] < p->ncmd ? p->cmd[c->cmd[i]] : "";
}

const char *params_cmd_target_name(enum params_cmd_target t)
{
	return t == PARAMS_CMD_CONSOLE ? "console" :
	       t == PARAMS_CMD_SUMMARY ? "summary" :
					 "log";
}
