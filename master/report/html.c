/*
 * The report page. Its data is built as JSON with jsonw (strings escaped
 * there) and every '<' of it is written as \u003c, so no string of a
 * results folder can close the <script> element that holds it; the page's
 * Content-Security-Policy allows no fetch at all, so the file opened from a
 * mail or a share shows what it holds and loads nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "common/exitcode.h"
#include "lockstep_version.h"
#include "common/fsutil.h"
#include "common/log.h"
#include "common/opts.h"
#include "common/timeutil.h"
#include "common/jsonw.h"
#include "master/history/history.h"
#include "master/report/data.h"
#include "master/report/json.h"
#include "master/report/html.h"
#include "master/report/pdf.h"

extern const char report_asset_uplot_js[], report_asset_uplot_css[];
extern const char report_asset_page_js[], report_asset_page_css[];
extern const char report_asset_heatmap_js[];
extern const size_t report_asset_heatmap_js_len;
extern const size_t report_asset_uplot_js_len, report_asset_uplot_css_len;
extern const size_t report_asset_page_js_len, report_asset_page_css_len;

/*
 * With a baseline, the verdicts of `lockstep compare BASELINE DIR` (the
 * default thresholds) as "compare_now": the page shows them rather than a
 * compare.json of the folder, which may be against another baseline. A
 * compare that cannot be made is a warning on the page, not an error.
 */
static void write_compare(struct jsonw *w, const char *baseline,
			  const char *dir, struct data_warns *warns)
{
	struct history_run a = { 0 }, b = { 0 };
	struct history_threshold t;
	struct history_cmp c = { 0 };
	struct json *j = NULL;
	char err[512], *text = NULL;
	size_t len = 0;
	FILE *f;

	if (history_threshold_parse(HISTORY_DEFAULT_THRESHOLD, &t, err,
				    sizeof(err)) < 0 ||
	    history_load_dir(baseline, &a, err, sizeof(err)) < 0 ||
	    history_load_dir(dir, &b, err, sizeof(err)) < 0 ||
	    history_compare(&a, &b, &t, &c) < 0) {
		data_warn(warns, "no compare with the baseline: %s", err);
		goto out;
	}
	f = open_memstream(&text, &len);
	if (!f) {
		data_warn(warns, "no compare with the baseline: %s",
			  strerror(errno));
		goto out;
	}
	history_compare_json(f, &a, &b, &c);
	if (fclose(f) != 0 || json_parse(text, len, &j, err, sizeof(err)) < 0)
		data_warn(warns, "no compare with the baseline: %s", err);
	else
		json_write(w, "compare_now", j);
	json_free(j);
	free(text);
out:
	history_compare_free(&c);
	history_run_free(&a);
	history_run_free(&b);
}

/* The data of the page as one JSON text in *buf (malloc'ed). */
static int build_data(const char *dir, const char *baseline, char **buf,
		      size_t *len, char *err, size_t errlen)
{
	struct data_warns warns = { 0 };
	struct jsonw w;
	char iso[40];
	FILE *f;
	int ret;

	f = open_memstream(buf, len);
	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "%s", strerror(-ret));
		return ret;
	}
	jsonw_init(&w, f);
	jsonw_object(&w, NULL);
	jsonw_str(&w, "generator", "lockstep " LOCKSTEP_VERSION);
	jsonw_str(&w, "generated",
		  time_fmt_iso(time_real_ns(), iso, sizeof(iso)));
	ret = data_write_set(&w, "main", dir, &warns, err, errlen);
	if (ret == 0 && baseline)
		ret = data_write_set(&w, "baseline", baseline, &warns, err,
				     errlen);
	if (ret == 0 && baseline)
		write_compare(&w, baseline, dir, &warns);
	if (ret == 0) {
		jsonw_array(&w, "warnings");
		for (size_t i = 0; i < warns.n; i++)
			jsonw_str(&w, NULL, warns.msg[i]);
		jsonw_end(&w);
		jsonw_end(&w);
		ret = jsonw_finish(&w);
		if (ret < 0)
			snprintf(err, errlen, "%s", strerror(-ret));
	}
	data_warns_free(&warns);
	if (fclose(f) != 0 && ret == 0) {
		ret = -ENOMEM;
		snprintf(err, errlen, "%s", strerror(ENOMEM));
	}
	if (ret < 0) {
		free(*buf);
		*buf = NULL;
	}
	return ret;
}

/* JSON inside <script>: '<' only occurs in strings, where \u003c is it. */
static void put_data(FILE *f, const char *s, size_t len)
{
	const char *end = s + len, *lt;

	while (s < end) {
		lt = memchr(s, '<', (size_t)(end - s));
		if (!lt) {
			fwrite(s, 1, (size_t)(end - s), f);
			return;
		}
		fwrite(s, 1, (size_t)(lt - s), f);
		fputs("\\u003c", f);
		s = lt + 1;
	}
}

static void put_page(FILE *f, const char *data, size_t len)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\""
	      "default-src 'none'; script-src 'unsafe-inline'; "
	      "style-src 'unsafe-inline'; img-src data:\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width\">\n"
	      "<title>lockstep report</title>\n<style>\n",
	      f);
	fwrite(report_asset_uplot_css, 1, report_asset_uplot_css_len, f);
	fputs("\n</style>\n<style>\n", f);
	fwrite(report_asset_page_css, 1, report_asset_page_css_len, f);
	fputs("\n</style>\n</head>\n<body>\n<main id=\"report\">"
	      "<noscript>This report draws its charts with JavaScript.</noscript>"
	      "</main>\n<script type=\"application/json\" id=\"lockstep-data\">",
	      f);
	put_data(f, data, len);
	fputs("</script>\n<script>\n", f);
	fwrite(report_asset_uplot_js, 1, report_asset_uplot_js_len, f);
	fputs("\n</script>\n<script>\n", f);
	fwrite(report_asset_heatmap_js, 1, report_asset_heatmap_js_len, f);
	fputs("\n</script>\n<script>\n", f);
	fwrite(report_asset_page_js, 1, report_asset_page_js_len, f);
	fputs("\n</script>\n</body>\n</html>\n", f);
}

struct page {
	const char *data;
	size_t len;
};

static int fill_page(FILE *f, void *arg)
{
	const struct page *pg = arg;

	put_page(f, pg->data, pg->len);
	return 0;
}

int html_page(const char *dir, const char *baseline, FILE *f, char *err,
	      size_t errlen)
{
	size_t len = 0;
	char *data = NULL;
	int ret = build_data(dir, baseline, &data, &len, err, errlen);

	if (ret < 0)
		return ret;
	put_page(f, data, len);
	free(data);
	return 0;
}

int html_write(const char *dir, const char *out, const char *baseline,
	       char *err, size_t errlen)
{
	char path[PATH_MAX];
	size_t len = 0;
	char *data = NULL;
	int ret;

	if (!out) {
		if ((size_t)snprintf(path, sizeof(path), "%s/report.html",
				     dir) >= sizeof(path)) {
			snprintf(err, errlen, "%s: %s", dir,
				 strerror(ENAMETOOLONG));
			return -ENAMETOOLONG;
		}
		out = path;
	}
	ret = build_data(dir, baseline, &data, &len, err, errlen);
	if (ret < 0)
		return ret;
	ret = fsutil_write_atomic(out, 1, fill_page,
				  &(struct page){ .data = data, .len = len });
	if (ret == -EEXIST)
		snprintf(err, errlen, "%s: exists and is not a regular file",
			 out);
	else if (ret < 0)
		snprintf(err, errlen, "%s: %s", out, strerror(-ret));
	free(data);
	return ret;
}

/*
 * --baseline: a results folder as it is, or a history spec (an id, last,
 * last~N) resolved to the folder the history recorded for it. median:N
 * has no folder to overlay: `lockstep compare` judges it.
 */
static int resolve_baseline(const char *spec, const char *hist, char *out,
			    size_t outlen, char *err, size_t errlen)
{
	struct history_run r = { 0 };
	struct history_db *db = NULL;
	char buf[PATH_MAX];
	struct stat st;
	int ret;

	if (stat(spec, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(out, outlen, "%s", spec);
		return 0;
	}
	if (strncmp(spec, "median:", 7) == 0) {
		snprintf(err, errlen,
			 "a median of runs has no folder to draw; use a folder, an id, last or last~N (lockstep compare judges median:N)");
		return -EINVAL;
	}
	ret = history_spec_ok(spec, err, errlen);
	if (ret == 0)
		ret = history_db_open(history_default_path(hist, buf,
							   sizeof(buf)),
				      0, &db, err, errlen);
	if (ret == 0)
		ret = history_resolve(db, spec, NULL, NULL, &r, err, errlen);
	if (ret == 0 && !r.dir[0]) {
		snprintf(err, errlen,
			 "the history has no results folder for it");
		ret = -ENOENT;
	}
	if (ret == 0)
		snprintf(out, outlen, "%s", r.dir);
	history_run_free(&r);
	history_db_close(db);
	return ret;
}

int html_main(int argc, char **argv)
{
	const char *out = NULL, *baseline = NULL, *hist = NULL;
	char err[PATH_MAX + 512], base_dir[PATH_MAX], browser[PATH_MAX];
	char page[PATH_MAX];
	int help = 0, pdf = 0, args, ret;
	const struct opts_def defs[] = {
		{ "output", 'o', OPTS_STRING, &out, .arg = "FILE",
		  .help = "where to write the page (default DIR/report.html)" },
		{ "baseline", 0, OPTS_STRING, &baseline, .arg = "SPEC",
		  .help = "overlay and compare with a results folder, a history id, last or last~N" },
		{ "pdf", 0, OPTS_FLAG, &pdf,
		  .help = "also print the page to DIR/report.pdf with a headless chromium from PATH (within " PDF_TIMEOUT_STR
			  " s; an error without one)" },
		{ "history", 0, OPTS_STRING, &hist, .arg = "PATH",
		  .help = "the run history for --baseline (default as lockstep run: $LOCKSTEP_HISTORY, else " HISTORY_ROOT_DB
			  " for root, ~/.local/share/lockstep/history.db)" },
		{ .name = "help",
		  .letter = 'h',
		  .kind = OPTS_HELP,
		  .dest = &help },
	};
	const struct opts_cmd cmd = {
		.prog = "lockstep report",
		.synopsis = "usage: lockstep report DIR [options]",
		.footer = "Writes one self-contained HTML page (charts and "
			  "tables) from the results folder DIR; with --pdf "
			  "also DIR/report.pdf.\n",
		.width = 20,
		.defs = defs,
		.ndefs = sizeof(defs) / sizeof(defs[0]),
		.nargs = 1,
	};

	ret = opts_parse(&cmd, argc, argv, &args);
	if (ret)
		return ret > 0 ? LS_EXIT_OK : LS_EXIT_BAD_INPUT;
	/* Before anything is written: --pdf without a browser is refused. */
	if (pdf && pdf_find_browser(browser, sizeof(browser)) < 0) {
		fprintf(stderr,
			"lockstep report: --pdf needs chromium (or chromium-browser) on PATH to print the page; none was found (install chromium, or leave out --pdf)\n");
		return LS_EXIT_BAD_INPUT;
	}
	if (baseline &&
	    resolve_baseline(baseline, hist, base_dir, sizeof(base_dir), err,
			     sizeof(err)) < 0) {
		fprintf(stderr, "lockstep report: --baseline %s: %s\n",
			baseline, err);
		return LS_EXIT_BAD_INPUT;
	}
	ret = html_write(argv[args], out, baseline ? base_dir : NULL, err,
			 sizeof(err));
	if (ret < 0) {
		fprintf(stderr, "lockstep report: %s\n", err);
		return LS_EXIT_BAD_INPUT;
	}
	if (!out)
		snprintf(page, sizeof(page), "%s/report.html", argv[args]);
	printf("lockstep: report written to %s\n", out ? out : page);
	if (pdf) {
		fflush(stdout);
		ret = pdf_print(browser, out ? out : page, argv[args], err,
				sizeof(err));
		if (ret < 0) {
			fprintf(stderr, "lockstep report: --pdf: %s\n", err);
			return LS_EXIT_BAD_INPUT;
		}
		printf("lockstep: PDF written to %s/report.pdf\n", argv[args]);
	}
	return LS_EXIT_OK;
}
