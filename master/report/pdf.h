/*
 * The report printed to PDF by a headless Chromium (`lockstep report
 * --pdf`): found on PATH, run on a private profile, bounded in time.
 */
#ifndef LOCKSTEP_MASTER_REPORT_PDF_H
#define LOCKSTEP_MASTER_REPORT_PDF_H

#include <stddef.h>

/* How long the browser may take to print the page. */
#define PDF_TIMEOUT_S 60u
#define PDF_TIMEOUT_STR "60"

/*
 * The first chromium (or chromium-browser) on PATH that may be executed,
 * its path in out. Returns 0, or -ENOENT when there is none.
 */
int pdf_find_browser(char *out, size_t outlen);
/*
 * Print the page html (a file) with browser into DIR/report.pdf, through
 * a temporary file of DIR renamed once it is a PDF. Returns 0, or -errno
 * with the reason in err (the browser's exit, its last log line, a
 * timeout, after which its process group was killed).
 */
int pdf_print(const char *browser, const char *html, const char *dir, char *err,
	      size_t errlen);

#endif
