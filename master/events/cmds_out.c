/*
 * What the startcmd= and endcmd= commands give the results, as a sink of
 * the results table (master/results/sinks.c, sink.h): summary.json's
 * "commands", every execution with its stamps (master clock: when the
 * master started it or sent it to its slave, when it saw the end), its
 * status and its log; summary.txt's block of them, with the output of
 * the target summary (Vdbench's psum). commands/NAME.log is written as
 * each command ends and closed by cmds_stop() (cmds.c).
 */
#include <string.h>
#include "common/jsonw.h"
#include "common/log.h"
#include "master/events/cmds.h"
#include "master/run/master_int.h"
#include "master/results/sink.h"

static void cmds_json(const struct run_view *rv, void *priv, struct jsonw *w)
{
	const struct cmds *C = rv->cmds;
	char st[64];

	(void)priv;
	if (!C)
		return;
	jsonw_array(w, "commands");
	for (size_t i = 0; i < C->n; i++) {
		const struct cmds_exec *x = &C->x[i];

		jsonw_object(w, NULL);
		jsonw_str(w, "keyword", x->w.keyword);
		jsonw_str(w, "rd",
			  x->w.rd >= 0 ? rv->params->rd[x->w.rd].name : "");
		jsonw_str(w, "run",
			  x->w.run >= 0 ? rv->ph->runs[x->w.run].ph.name : "");
		jsonw_str(w, "scope", x->w.pc->slave ? "slave" : "master");
		jsonw_str(w, "target", params_cmd_target_name(x->w.pc->target));
		jsonw_str(w, "command", x->text);
		jsonw_str(w, "host", x->host);
		jsonw_str(w, "slave", x->slave);
		jsonw_u64(w, "start_ns", x->start_real);
		jsonw_u64(w, "end_ns", x->end_real);
		jsonw_str(w, "status", cmds_status(x, st, sizeof(st)));
		jsonw_str(w, "why", x->why);
		jsonw_u64(w, "output_bytes", x->out_bytes);
		jsonw_u64(w, "dropped_bytes", x->dropped);
		jsonw_str(w, "log", C->logs[x->log].l.name);
		jsonw_end(w);
	}
	jsonw_end(w);
}

static void cmds_txt(const struct run_view *rv, void *priv, FILE *f)
{
	const struct cmds *C = rv->cmds;
	char st[64], esc[LOG_ESC_LEN(CMDS_LINE_MAX)];

	(void)priv;
	if (!C || !C->n)
		return;
	fprintf(f, "\nCommands (startcmd=, endcmd=; output in commands/):\n");
	for (size_t i = 0; i < C->n; i++) {
		const struct cmds_exec *x = &C->x[i];
		const char *p = x->out, *end = x->out + x->outlen, *line;

		fprintf(f, "  %s%s%s on %s: %s: %s\n", x->w.keyword,
			x->w.run >= 0 ? " of run " : "",
			x->w.run >= 0 ? rv->ph->runs[x->w.run].ph.name : "",
			x->host, x->text, cmds_status(x, st, sizeof(st)));
		if (x->w.pc->target != PARAMS_CMD_SUMMARY)
			continue;
		while ((line = cmds_next_line(&p, end, esc, sizeof(esc))))
			fprintf(f, "    Cmd: %s\n", line);
	}
}

const struct sink_ops sink_commands = {
	.name = "commands",
	.summary_json = cmds_json,
	.summary_txt = cmds_txt,
};
