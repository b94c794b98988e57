/*
 * libFuzzer target for the parameter-file parser and the planner: any
 * text must either parse (and then plan, or be refused with a message) or
 * be refused with a "fuzz.vdb:LINE:COLUMN: message" error, never crash,
 * leak or read out of bounds. include= is refused so the fuzzer never
 * reads files.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "master/params/params.h"
#include "master/plan/plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Per-slave plans of the first phases: enough to walk every path. */
#define FUZZ_PHASES 16

static void plan_some(const struct params *p)
{
	static const int hd[] = { 0, 0, 1, -1 };
	struct plan_overrides ov = { -1, -1, -1 };
	struct plan_phase *ph = NULL;
	char err[512];
	size_t n = 0;

	if (plan_phases(p, &ov, &ph, &n, err, sizeof(err)))
		return;
	for (size_t i = 0; i < n && i < FUZZ_PHASES; i++) {
		if (ph[i].kind == PLAN_CURVE_POINT)
			ph[i].iorate = plan_curve_rate(1234, ph[i].curve_pct);
		for (unsigned s = 0; s < 4; s++) {
			struct proto_plan pl;

			if (plan_for_slave(p, &ph[i], (unsigned)i,
					   p->nhd ? hd : NULL, s, 4, "null",
					   &pl, err, sizeof(err)))
				continue;
			free(pl.targets);
			free(pl.streams);
		}
	}
	free(ph);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct params *p = (struct params *)&p;
	char err[512], *text = malloc(size + 1);
	int ret;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	ret = params_parse_text("fuzz.vdb", text, PARAMS_NO_INCLUDE, &p, err,
				sizeof(err));
	if (ret) {
		/* Refused: nothing returned, and a message that says where. */
		if (p || (ret == -EINVAL && strncmp(err, "fuzz.vdb:", 9)))
			abort();
	} else {
		if (!p || !p->nrd)
			abort();
		plan_some(p);
	}
	params_free(&p);
	free(text);
	return 0;
}
