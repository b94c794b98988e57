/*
 * The HTML report's data: one results folder (summary.json, intervals.csv,
 * hosts/<slave>.csv, the .hgrm files, compare.json when there is one, and
 * devices.csv, hoststats.csv and probes.csv when they are there) read
 * as hostile input, with bounded sizes and without following symbolic
 * links, and written as one JSON value for the page to draw.
 */
#ifndef LOCKSTEP_MASTER_REPORT_DATA_H
#define LOCKSTEP_MASTER_REPORT_DATA_H

#include <stddef.h>
#include "common/jsonw.h"

/* Largest summary.json or compare.json read. */
#define DATA_JSON_MAX (64u << 20)
/* Bytes of intervals.csv and of each hosts/<slave>.csv read (a longer
   file is shown up to there, with a warning). */
#define DATA_CSV_MAX (256u << 20)
/* Slaves whose per-host lines are drawn. */
#define DATA_HOSTS_MAX 256u
/* Largest .hgrm read. */
#define DATA_HGRM_MAX (4u << 20)
/* Warnings kept for the page (more are only printed). */
#define DATA_WARN_MAX 64u

struct data_warns {
	char *msg[DATA_WARN_MAX];
	size_t n;
};

/*
 * Write the folder dir as one JSON object under key. What is missing or
 * cut short is noted in warns (also printed on stderr) and the page shows
 * it; only a summary.json that cannot be read or parsed is an error:
 * -errno with a message in err. warns' strings are the caller's to free
 * (data_warns_free).
 */
int data_write_set(struct jsonw *w, const char *key, const char *dir,
		   struct data_warns *warns, char *err, size_t errlen);
void data_warns_free(struct data_warns *warns);
/* A warning for the top of the page (and the log). */
void data_warn(struct data_warns *warns, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
