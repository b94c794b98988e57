/*
 * libFuzzer target for the report's JSON reader (master/report/json.c):
 * any bytes either parse or are refused with "line L column C: why",
 * never crash, leak or read out of bounds; what parses is written back
 * through jsonw and must parse again (the page relies on it).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "master/report/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct json *j, *again;
	char err[256], *buf = NULL;
	size_t len = 0;
	struct jsonw w;
	FILE *f;

	if (json_parse((const char *)data, size, &j, err, sizeof(err)) < 0) {
		if (strncmp(err, "line ", 5) != 0)
			abort();
		return 0;
	}
	f = open_memstream(&buf, &len);
	if (!f)
		abort();
	jsonw_init(&w, f);
	json_write(&w, NULL, j);
	jsonw_finish(&w);
	fclose(f);
	if (json_parse(buf, len, &again, err, sizeof(err)) < 0)
		abort();
	json_free(again);
	json_free(j);
	free(buf);
	return 0;
}
