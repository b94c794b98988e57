/*
 * Each kind's defaults before any xx=default line: Vdbench's (threads=8
 * on an sd, 4k transfers, rdpct=100, elapsed=30, depth=1, width=1,
 * files=10 and 4k files on an fsd, threads=1 on an fwd, ...).
 */
#include "master/params/params_int.h"

#include <string.h>

void params_obj_defaults(union obj *o, enum kind k)
{
	memset(o, 0, sizeof(*o));
	switch (k) {
	case KIND_HD:
		o->hd.shell = PARAMS_SHELL_SSH;
		o->hd.slaves = 1;
		break;
	case KIND_SD:
		o->sd.threads = 8;
		o->sd.range_hi = 100;
		o->sd.hitarea = 1024 * 1024; /* Vdbench's default */
		break;
	case KIND_WD:
		o->wd.nxfer = 1;
		o->wd.xfer[0].size = 4096;
		o->wd.xfer[0].pct = 100;
		o->wd.rdpct = 100;
		o->wd.seekpct = 100;
		o->wd.range_hi = 100;
		break;
	case KIND_FSD: /* Vdbench's defaults */
		o->fsd.depth = o->fsd.width = 1;
		o->fsd.files = 10;
		o->fsd.nsizes = 1;
		o->fsd.size[0] = 4096;
		o->fsd.pct[0] = 100;
		break;
	case KIND_FWD:
		o->fwd.nxfer = 1;
		o->fwd.xfer[0].size = 4096;
		o->fwd.xfer[0].pct = 100;
		o->fwd.threads = 1;
		o->fwd.fileselect = 1; /* sequential: Vdbench's */
		o->fwd.target = -1;
		o->fwd.rdpct = -1;
		break;
	case KIND_RD: {
		static const double curve[] = { 10, 50, 70, 80, 90, 100 };

		o->rd.elapsed_s = 30;
		o->rd.warmup_s = 0;
		o->rd.interval_s = 1;
		o->rd.sloprecision_pct = 5;
		o->rd.ncurve = sizeof(curve) / sizeof(curve[0]);
		memcpy(o->rd.curve, curve, sizeof(curve));
		break;
	}
	case KIND_EV:
		o->ev.host = -1;
		o->ev.poll_s = 10;
		o->ev.timeout_s = 3600;
		o->ev.baseline_s = 60;
		o->ev.degrade_pct = 90;
		o->ev.recover_iops_pct = 10;
		o->ev.recover_p99_pct = 20;
		o->ev.recover_n = 10;
		o->ev.ends = -1;
		break;
	case KIND_PROBE:
		/* timeout_s 0: min(every=, 30 s), in probe_finish(). */
		o->probe.every_s = 10;
		break;
	default:
		break;
	}
}
