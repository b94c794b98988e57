/*
 * `lockstep report DIR [-o FILE] [--baseline DIR]` and `lockstep run
 * --report`: one self-contained report.html (uPlot, its CSS, the page's
 * script and the folder's data all inside; no network when it is viewed)
 * written from a results folder.
 */
#ifndef LOCKSTEP_MASTER_REPORT_HTML_H
#define LOCKSTEP_MASTER_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>

/*
 * Write the report of results folder dir to out (NULL: dir/report.html),
 * atomically (a temporary file beside it, fsynced, renamed), with the
 * folder baseline overlaid when it is not NULL. Returns 0, or -errno with
 * the reason in err.
 */
int html_write(const char *dir, const char *out, const char *baseline,
	       char *err, size_t errlen);
/*
 * The same page into f (the run's report sink writes it through the
 * results folder's checked writer). Returns 0, or -errno with the reason
 * in err (nothing written then).
 */
int html_page(const char *dir, const char *baseline, FILE *f, char *err,
	      size_t errlen);
/* The `report` subcommand; returns its exit code (common/exitcode.h). */
int html_main(int argc, char **argv);

#endif
