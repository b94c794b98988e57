/*
 * The schema of the lockstep wire protocol (proto/PROTOCOL.md): each
 * message type is described once by a table of fields (short key, kind,
 * offset in the struct of proto.h), and both the encoder and the decoder
 * walk the same tables, so the two directions cannot drift apart. The
 * cross-checks that no single field can express (a stream's target
 * indexes) live here too, used by both directions.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "proto/proto_int.h"

/* proto_target.range_lo/hi are parts per billion. */
#define RANGE_PPB UINT64_C(1000000000)

#define TAB(name, st, fields)                                                 \
	_Static_assert(NELEM(fields) <= MAX_FIELDS, #fields " > MAX_FIELDS"); \
	static const struct ftab name = { fields, NELEM(fields), sizeof(st) }

#define SCALAR(st, k, kd, m)                                 \
	{                                                    \
		.key = k, .kind = kd, .off = offsetof(st, m) \
	}
/* An F_U64 with a ceiling; the member must be 8 bytes (checked here). */
#define BOUNDED(st, k, m, top)                                               \
	{                                                                    \
		.key = k, .kind = F_U64, .off = offsetof(st, m),             \
		.max = (top) +                                               \
		       0 * sizeof(char[sizeof(MEMBER(st, m)) == 8 ? 1 : -1]) \
	}
#define STRING(st, k, m)                                         \
	{                                                        \
		.key = k, .kind = F_STR, .off = offsetof(st, m), \
		.size = sizeof(MEMBER(st, m))                    \
	}
#define STRINGS(st, k, m, c)                                                   \
	{                                                                      \
		.key = k, .kind = F_STRS, .off = offsetof(st, m),              \
		.size = sizeof(MEMBER(st, m)[0]), .max = NELEM(MEMBER(st, m)), \
		.cnt = offsetof(st, c)                                         \
	}
#define U32S(st, k, m, c)                                           \
	{                                                           \
		.key = k, .kind = F_U32S, .off = offsetof(st, m),   \
		.max = NELEM(MEMBER(st, m)), .cnt = offsetof(st, c) \
	}
#define MAPS(st, k, m, c, t)                                                   \
	{                                                                      \
		.key = k, .kind = F_MAPS, .off = offsetof(st, m),              \
		.max = NELEM(MEMBER(st, m)), .cnt = offsetof(st, c), .sub = &t \
	}
#define MAPS_PTR(st, k, m, c, mx, t)                                  \
	{                                                             \
		.key = k, .kind = F_MAPS_PTR, .off = offsetof(st, m), \
		.max = mx, .cnt = offsetof(st, c), .sub = &t          \
	}

static const struct field hello_fields[] = {
	STRING(struct proto_hello, "id", id),
	STRING(struct proto_hello, "nm", name),
	STRING(struct proto_hello, "h", host),
	SCALAR(struct proto_hello, "pid", F_U32, pid),
	SCALAR(struct proto_hello, "c", F_U32, cores),
	STRING(struct proto_hello, "ver", version),
	STRINGS(struct proto_hello, "e", engines, nengines),
};
TAB(hello_tab, struct proto_hello, hello_fields);

static const struct field welcome_fields[] = {
	STRING(struct proto_welcome, "r", run_id),
	SCALAR(struct proto_welcome, "i", F_U32, slave_index),
	SCALAR(struct proto_welcome, "hb", F_U64, heartbeat_ns),
	SCALAR(struct proto_welcome, "mt", F_U64, master_timeout_ns),
};
TAB(welcome_tab, struct proto_welcome, welcome_fields);

static const struct field ping_fields[] = {
	SCALAR(struct proto_ping, "s", F_U32, seq),
	SCALAR(struct proto_ping, "t1", F_U64, t1),
	SCALAR(struct proto_ping, "up", F_U32, udp_port),
	SCALAR(struct proto_ping, "un", F_U64, nonce),
};
TAB(ping_tab, struct proto_ping, ping_fields);

static const struct field pong_fields[] = {
	SCALAR(struct proto_pong, "s", F_U32, seq),
	SCALAR(struct proto_pong, "t1", F_U64, t1),
	SCALAR(struct proto_pong, "t2", F_U64, t2),
	SCALAR(struct proto_pong, "t3", F_U64, t3),
};
TAB(pong_tab, struct proto_pong, pong_fields);

static const struct field target_fields[] = {
	STRING(struct proto_target, "nm", name),
	STRING(struct proto_target, "pa", path),
	SCALAR(struct proto_target, "sz", F_U64, size),
	SCALAR(struct proto_target, "of", F_U32, openflags),
	SCALAR(struct proto_target, "cr", F_U32, create),
	SCALAR(struct proto_target, "th", F_U32, threads),
	BOUNDED(struct proto_target, "lo", range_lo, RANGE_PPB),
	BOUNDED(struct proto_target, "hi", range_hi, RANGE_PPB),
	SCALAR(struct proto_target, "os", F_U64, offset),
	SCALAR(struct proto_target, "al", F_U32, align),
	SCALAR(struct proto_target, "sq", F_U32, sqpoll),
	SCALAR(struct proto_target, "fc", F_U32, force),
	SCALAR(struct proto_target, "ha", F_U64, hitarea),
	BOUNDED(struct proto_target, "hl", hit_lo, RANGE_PPB),
	SCALAR(struct proto_target, "sn", F_U32, streams),
};
TAB(target_tab, struct proto_target, target_fields);

static const struct field xfer_fields[] = {
	SCALAR(struct proto_xfer, "sz", F_U32, size),
	SCALAR(struct proto_xfer, "pc", F_PCT, pct),
};
TAB(xfer_tab, struct proto_xfer, xfer_fields);

static const struct field zone_fields[] = {
	BOUNDED(struct proto_zone, "io", io, 100),
	BOUNDED(struct proto_zone, "rg", range, 100),
};
TAB(zone_tab, struct proto_zone, zone_fields);

static const struct field stream_fields[] = {
	STRING(struct proto_stream, "nm", name),
	U32S(struct proto_stream, "tg", targets, ntargets),
	MAPS(struct proto_stream, "x", xfer, nxfer, xfer_tab),
	SCALAR(struct proto_stream, "rd", F_PCT, rdpct),
	SCALAR(struct proto_stream, "sk", F_PCT, seekpct),
	SCALAR(struct proto_stream, "sw", F_PCT, skew),
	SCALAR(struct proto_stream, "eof", F_U32, eof),
	SCALAR(struct proto_stream, "rh", F_PCT, rhpct),
	SCALAR(struct proto_stream, "wh", F_PCT, whpct),
	SCALAR(struct proto_stream, "ac", F_U32, access),
	SCALAR(struct proto_stream, "aa", F_DBL, access_arg),
	SCALAR(struct proto_stream, "tn", F_U64, stride_min),
	SCALAR(struct proto_stream, "tx", F_U64, stride_max),
	MAPS(struct proto_stream, "zn", zones, nzones, zone_tab),
	BOUNDED(struct proto_stream, "bl", band_lo, RANGE_PPB),
	BOUNDED(struct proto_stream, "bh", band_hi, RANGE_PPB),
	BOUNDED(struct proto_stream, "cc", concat, 1),
	STRING(struct proto_stream, "rp", replay),
	STRING(struct proto_stream, "rv", replay_dev),
	SCALAR(struct proto_stream, "rx", F_U64, replay_hash),
};
TAB(stream_tab, struct proto_stream, stream_fields);

static const struct field fsize_fields[] = {
	SCALAR(struct proto_fsize, "sz", F_U64, size),
	BOUNDED(struct proto_fsize, "pc", pct, 100),
};
TAB(fsize_tab, struct proto_fsize, fsize_fields);

static const struct field fsd_fields[] = {
	STRING(struct proto_fsd, "nm", name),
	STRING(struct proto_fsd, "an", anchor),
	STRING(struct proto_fsd, "sb", subdir),
	SCALAR(struct proto_fsd, "dp", F_U32, depth),
	SCALAR(struct proto_fsd, "wd", F_U32, width),
	SCALAR(struct proto_fsd, "fl", F_U32, files),
	SCALAR(struct proto_fsd, "di", F_U32, dist),
	SCALAR(struct proto_fsd, "av", F_U32, average),
	MAPS(struct proto_fsd, "sz", sizes, nsizes, fsize_tab),
	SCALAR(struct proto_fsd, "se", F_U64, seed),
	SCALAR(struct proto_fsd, "sh", F_U32, share_no),
	SCALAR(struct proto_fsd, "sc", F_U32, share_count),
	SCALAR(struct proto_fsd, "of", F_U32, openflags),
	SCALAR(struct proto_fsd, "fm", F_U32, format),
	SCALAR(struct proto_fsd, "ts", F_U64, totalsize),
	SCALAR(struct proto_fsd, "ws", F_U64, wss),
	SCALAR(struct proto_fsd, "ff", F_U32, format_flags),
	SCALAR(struct proto_fsd, "fx", F_U32, format_xfer),
	SCALAR(struct proto_fsd, "ft", F_U32, format_threads),
	STRING(struct proto_fsd, "jd", journal),
};
TAB(fsd_tab, struct proto_fsd, fsd_fields);

static const struct field fwd_fields[] = {
	STRING(struct proto_fwd, "nm", name),
	SCALAR(struct proto_fwd, "fd", F_U32, fsd),
	SCALAR(struct proto_fwd, "op", F_U32, op),
	SCALAR(struct proto_fwd, "mx", F_U32, mixed),
	SCALAR(struct proto_fwd, "rd", F_PCT, rdpct),
	MAPS(struct proto_fwd, "x", xfer, nxfer, xfer_tab),
	SCALAR(struct proto_fwd, "fi", F_U32, fileio),
	SCALAR(struct proto_fwd, "fs", F_U32, fileselect),
	SCALAR(struct proto_fwd, "th", F_U32, threads),
	SCALAR(struct proto_fwd, "tg", F_U32, target),
	SCALAR(struct proto_fwd, "ra", F_DBL, rate),
	SCALAR(struct proto_fwd, "sa", F_U64, stopafter),
	BOUNDED(struct proto_fwd, "sp", stopafter_pct, 100),
	SCALAR(struct proto_fwd, "pm", F_DBL, midpoint),
	SCALAR(struct proto_fwd, "of", F_U32, openflags),
};
TAB(fwd_tab, struct proto_fwd, fwd_fields);

static const struct field plan_fields[] = {
	SCALAR(struct proto_plan, "r", F_U32, run),
	SCALAR(struct proto_plan, "p", F_U32, phase),
	STRING(struct proto_plan, "nm", name),
	STRING(struct proto_plan, "e", engine),
	SCALAR(struct proto_plan, "in", F_U64, interval_ns),
	SCALAR(struct proto_plan, "ni", F_U32, intervals),
	SCALAR(struct proto_plan, "wi", F_U32, warmup_intervals),
	SCALAR(struct proto_plan, "io", F_DBL, iorate),
	SCALAR(struct proto_plan, "co", F_I64, clock_offset_ns),
	SCALAR(struct proto_plan, "ce", F_U64, clock_error_ns),
	SCALAR(struct proto_plan, "de", F_U32, data_errors),
	SCALAR(struct proto_plan, "di", F_U32, distribution),
	SCALAR(struct proto_plan, "fm", F_U32, format),
	SCALAR(struct proto_plan, "du", F_U32, dedupunit),
	SCALAR(struct proto_plan, "cp", F_DBL, compratio),
	SCALAR(struct proto_plan, "dr", F_DBL, dedupratio),
	SCALAR(struct proto_plan, "va", F_U32, validate),
	STRING(struct proto_plan, "jd", journal),
	STRING(struct proto_plan, "nc", nic),
	SCALAR(struct proto_plan, "rm", F_U32, replay),
	MAPS_PTR(struct proto_plan, "tg", targets, ntargets, PROTO_MAX_TARGETS,
		 target_tab),
	MAPS_PTR(struct proto_plan, "st", streams, nstreams, PROTO_MAX_STREAMS,
		 stream_tab),
	MAPS_PTR(struct proto_plan, "fd", fsds, nfsds, PROTO_MAX_FSDS, fsd_tab),
	MAPS_PTR(struct proto_plan, "fw", fwds, nfwds, PROTO_MAX_FWDS, fwd_tab),
};
TAB(plan_tab, struct proto_plan, plan_fields);

static const struct field forced_fields[] = {
	STRING(struct proto_forced, "sd", sd),
	STRING(struct proto_forced, "sg", signature),
};
TAB(forced_tab, struct proto_forced, forced_fields);

static const struct field tsize_fields[] = {
	STRING(struct proto_tsize, "sd", sd),
	BOUNDED(struct proto_tsize, "sz", size, PROTO_MAX_SD_BYTES),
};
TAB(tsize_tab, struct proto_tsize, tsize_fields);

static const struct field ready_fields[] = {
	SCALAR(struct proto_ready, "p", F_U32, phase),
	MAPS_PTR(struct proto_ready, "fs", forced, nforced, PROTO_MAX_TARGETS,
		 forced_tab),
	MAPS_PTR(struct proto_ready, "tz", sizes, nsizes, PROTO_MAX_TARGETS,
		 tsize_tab),
};
TAB(ready_tab, struct proto_ready, ready_fields);

static const struct field error_fields[] = {
	SCALAR(struct proto_error, "p", F_U32, phase),
	SCALAR(struct proto_error, "cd", F_I32, code),
	STRING(struct proto_error, "m", message),
};
TAB(error_tab, struct proto_error, error_fields);

static const struct field go_fields[] = {
	SCALAR(struct proto_go, "p", F_U32, phase),
	SCALAR(struct proto_go, "at", F_U64, start_at),
	SCALAR(struct proto_go, "fi", F_U32, first_interval),
};
TAB(go_tab, struct proto_go, go_fields);

static const struct field go_ack_fields[] = {
	SCALAR(struct proto_go_ack, "p", F_U32, phase),
};
TAB(go_ack_tab, struct proto_go_ack, go_ack_fields);

/* HIST_F_BIN in proto_int.h is the position of "b". */
static const struct field hist_fields[] = {
	SCALAR(struct hist_sparse, "n", F_U64, count),
	SCALAR(struct hist_sparse, "s", F_U64, sum),
	SCALAR(struct hist_sparse, "q", F_DBL, sumsq),
	SCALAR(struct hist_sparse, "mn", F_U64, min),
	SCALAR(struct hist_sparse, "mx", F_U64, max),
	{ .key = "b", .kind = F_HIST_BIN, .off = 0 },
};
_Static_assert(NELEM(hist_fields) <= MAX_FIELDS, "hist_fields > MAX_FIELDS");
const struct ftab schema_hist_tab = { hist_fields, NELEM(hist_fields),
				      sizeof(struct hist_sparse) };

static const struct field dev_fields[] = {
	STRING(struct proto_dev, "nm", name),
	SCALAR(struct proto_dev, "mj", F_U32, major),
	SCALAR(struct proto_dev, "mn", F_U32, minor),
	SCALAR(struct proto_dev, "sp", F_U64, span_ns),
	SCALAR(struct proto_dev, "io", F_U64X2, ios),
	SCALAR(struct proto_dev, "se", F_U64X2, sectors),
	SCALAR(struct proto_dev, "tk", F_U64X2, ticks_ms),
	SCALAR(struct proto_dev, "if", F_U64, in_flight),
	SCALAR(struct proto_dev, "bu", F_U64, busy_ms),
	SCALAR(struct proto_dev, "qu", F_U64, queue_ms),
};
TAB(dev_tab, struct proto_dev, dev_fields);

static const struct field sd_lat_fields[] = {
	SCALAR(struct proto_sd_lat, "t", F_U32, target),
	SCALAR(struct proto_sd_lat, "l", F_HIST, lat),
};
TAB(sd_lat_tab, struct proto_sd_lat, sd_lat_fields);

static const struct field fsop_fields[] = {
	SCALAR(struct proto_fsop_stat, "o", F_U32, op),
	SCALAR(struct proto_fsop_stat, "n", F_U64, count),
	SCALAR(struct proto_fsop_stat, "b", F_U64, bytes),
	SCALAR(struct proto_fsop_stat, "e", F_U64, errors),
	SCALAR(struct proto_fsop_stat, "l", F_HIST, lat),
};
TAB(fsop_tab, struct proto_fsop_stat, fsop_fields);

static const struct field interval_fields[] = {
	SCALAR(struct proto_interval, "p", F_U32, phase),
	SCALAR(struct proto_interval, "s", F_U32, seq),
	SCALAR(struct proto_interval, "sa", F_U64, start_ns),
	SCALAR(struct proto_interval, "en", F_U64, end_ns),
	SCALAR(struct proto_interval, "fi", F_U64, first_io_ns),
	SCALAR(struct proto_interval, "op", F_U64X2, ops),
	SCALAR(struct proto_interval, "by", F_U64X2, bytes),
	SCALAR(struct proto_interval, "er", F_U64, errors),
	SCALAR(struct proto_interval, "cu", F_U64, cpu_user_ns),
	SCALAR(struct proto_interval, "cs", F_U64, cpu_sys_ns),
	SCALAR(struct proto_interval, "c", F_U32, cores),
	SCALAR(struct proto_interval, "rq", F_U64, runq_ns),
	SCALAR(struct proto_interval, "lg", F_U64, lag_ns),
	SCALAR(struct proto_interval, "ln", F_U64, lag_n),
	SCALAR(struct proto_interval, "lm", F_U64, lag_max_ns),
	SCALAR(struct proto_interval, "l", F_HISTS, lat),
	SCALAR(struct proto_interval, "tf", F_U32, tele),
	SCALAR(struct proto_interval, "ts", F_U64, tele_span_ns),
	SCALAR(struct proto_interval, "hu", F_U64, host_cpu_ns[0]),
	SCALAR(struct proto_interval, "hy", F_U64, host_cpu_ns[1]),
	SCALAR(struct proto_interval, "hw", F_U64, host_cpu_ns[2]),
	SCALAR(struct proto_interval, "ht", F_U64, host_cpu_ns[3]),
	SCALAR(struct proto_interval, "hi", F_U64, host_cpu_ns[4]),
	SCALAR(struct proto_interval, "pc", F_U64, psi_ns[0]),
	SCALAR(struct proto_interval, "pm", F_U64, psi_ns[1]),
	SCALAR(struct proto_interval, "pi", F_U64, psi_ns[2]),
	STRING(struct proto_interval, "nc", nic),
	SCALAR(struct proto_interval, "nb", F_U64X2, net_bytes),
	SCALAR(struct proto_interval, "np", F_U64X2, net_pkts),
	MAPS(struct proto_interval, "dv", devs, ndevs, dev_tab),
	MAPS_PTR(struct proto_interval, "sl", sds, nsds, PROTO_MAX_SD_LATS,
		 sd_lat_tab),
	MAPS_PTR(struct proto_interval, "fo", fsops, nfsops, PROTO_FSOP_MAX,
		 fsop_tab),
};
TAB(interval_tab, struct proto_interval, interval_fields);

static const struct field ack_fields[] = {
	SCALAR(struct proto_ack, "p", F_U32, phase),
	SCALAR(struct proto_ack, "s", F_U32, seq),
};
TAB(ack_tab, struct proto_ack, ack_fields);

static const struct field val_sd_fields[] = {
	SCALAR(struct proto_val_sd, "t", F_U32, target),
	SCALAR(struct proto_val_sd, "w", F_U64, written),
	SCALAR(struct proto_val_sd, "v", F_U64, verified),
	SCALAR(struct proto_val_sd, "m", F_U64, mismatches),
};
TAB(val_sd_tab, struct proto_val_sd, val_sd_fields);

static const struct field phase_end_fields[] = {
	SCALAR(struct proto_phase_end, "p", F_U32, phase),
	SCALAR(struct proto_phase_end, "ni", F_U32, intervals),
	SCALAR(struct proto_phase_end, "op", F_U64, ops),
	SCALAR(struct proto_phase_end, "by", F_U64, bytes),
	SCALAR(struct proto_phase_end, "er", F_U64, errors),
	SCALAR(struct proto_phase_end, "fi", F_U64, first_io_ns),
	SCALAR(struct proto_phase_end, "rc", F_I32, status),
	SCALAR(struct proto_phase_end, "vw", F_U64, val_written),
	SCALAR(struct proto_phase_end, "vr", F_U64, val_verified),
	SCALAR(struct proto_phase_end, "vm", F_U64, val_mismatches),
	MAPS_PTR(struct proto_phase_end, "vs", val_sds, nval_sds,
		 PROTO_MAX_TARGETS, val_sd_tab),
	SCALAR(struct proto_phase_end, "l", F_HISTS, lat),
};
TAB(phase_end_tab, struct proto_phase_end, phase_end_fields);

static const struct field log_fields[] = {
	SCALAR(struct proto_log, "lv", F_U32, level),
	STRING(struct proto_log, "m", message),
};
TAB(log_tab, struct proto_log, log_fields);

static const struct field text_fields[] = {
	STRING(struct proto_text, "m", reason),
};
TAB(text_tab, struct proto_text, text_fields);

static const struct field heartbeat_fields[] = {
	SCALAR(struct proto_heartbeat, "now", F_U64, now_ns),
};
TAB(heartbeat_tab, struct proto_heartbeat, heartbeat_fields);

static const struct field measure_fields[] = {
	SCALAR(struct proto_measure, "p", F_U32, phase),
	SCALAR(struct proto_measure, "fr", F_U32, from),
	SCALAR(struct proto_measure, "ni", F_U32, intervals),
};
TAB(measure_tab, struct proto_measure, measure_fields);

static const struct field cmd_fields[] = {
	SCALAR(struct proto_cmd, "id", F_U32, id),
	SCALAR(struct proto_cmd, "to", F_U64, timeout_ns),
	STRING(struct proto_cmd, "x", text),
};
TAB(cmd_tab, struct proto_cmd, cmd_fields);

static const struct field cmd_out_fields[] = {
	SCALAR(struct proto_cmd_out, "id", F_U32, id),
	STRING(struct proto_cmd_out, "o", text),
};
TAB(cmd_out_tab, struct proto_cmd_out, cmd_out_fields);

static const struct field cmd_end_fields[] = {
	SCALAR(struct proto_cmd_end, "id", F_U32, id),
	BOUNDED(struct proto_cmd_end, "st", status, PROTO_CMD_STATUS_MAX - 1),
	SCALAR(struct proto_cmd_end, "cd", F_I32, code),
	SCALAR(struct proto_cmd_end, "dr", F_U64, dropped),
	STRING(struct proto_cmd_end, "m", why),
};
TAB(cmd_end_tab, struct proto_cmd_end, cmd_end_fields);

const char *const schema_type_names[PROTO_TYPE_MAX] = {
	[PROTO_HELLO] = "hello",     [PROTO_WELCOME] = "welcome",
	[PROTO_PING] = "ping",       [PROTO_PONG] = "pong",
	[PROTO_PLAN] = "plan",       [PROTO_READY] = "ready",
	[PROTO_ERROR] = "error",     [PROTO_GO] = "go",
	[PROTO_GO_ACK] = "go_ack",   [PROTO_INTERVAL] = "interval",
	[PROTO_ACK] = "ack",         [PROTO_PHASE_END] = "phase_end",
	[PROTO_LOG] = "log",         [PROTO_STOP] = "stop",
	[PROTO_ABORT] = "abort",     [PROTO_HEARTBEAT] = "heartbeat",
	[PROTO_BYE] = "bye",         [PROTO_MEASURE] = "measure",
	[PROTO_CMD] = "cmd",         [PROTO_CMD_OUT] = "cmd_out",
	[PROTO_CMD_END] = "cmd_end",
};

const struct ftab *const schema_type_tabs[PROTO_TYPE_MAX] = {
	[PROTO_HELLO] = &hello_tab,     [PROTO_WELCOME] = &welcome_tab,
	[PROTO_PING] = &ping_tab,       [PROTO_PONG] = &pong_tab,
	[PROTO_PLAN] = &plan_tab,       [PROTO_READY] = &ready_tab,
	[PROTO_ERROR] = &error_tab,     [PROTO_GO] = &go_tab,
	[PROTO_GO_ACK] = &go_ack_tab,   [PROTO_INTERVAL] = &interval_tab,
	[PROTO_ACK] = &ack_tab,         [PROTO_PHASE_END] = &phase_end_tab,
	[PROTO_LOG] = &log_tab,         [PROTO_STOP] = &text_tab,
	[PROTO_ABORT] = &text_tab,      [PROTO_HEARTBEAT] = &heartbeat_tab,
	[PROTO_BYE] = &text_tab,        [PROTO_MEASURE] = &measure_tab,
	[PROTO_CMD] = &cmd_tab,         [PROTO_CMD_OUT] = &cmd_out_tab,
	[PROTO_CMD_END] = &cmd_end_tab,
};

const char *proto_type_name(enum proto_type t)
{
	if ((int)t <= 0 || t >= PROTO_TYPE_MAX)
		return NULL;
	return schema_type_names[t];
}

/*
 * A stream's zones (only with zoned access: fio's rules, the I/O shares
 * adding up to 100, the range shares to at most 100, no I/O to an empty
 * zone) and its hot band (only with hotband access, not empty).
 */
static int access_check(const struct proto_stream *s, uint32_t i, char *why,
			size_t whylen)
{
	uint64_t io = 0, range = 0;
	bool zoned = s->access == PROTO_ACCESS_ZONED;
	bool band = s->access == PROTO_ACCESS_HOTBAND;

	if (zoned != (s->nzones > 0)) {
		snprintf(why, whylen, "st[%" PRIu32 "].zn: %s", i,
			 zoned ? "zoned access without zones" :
				 "zones without zoned access");
		return -EINVAL;
	}
	for (uint32_t z = 0; z < s->nzones; z++) {
		io += s->zones[z].io;
		range += s->zones[z].range;
		if (s->zones[z].io && !s->zones[z].range) {
			snprintf(why, whylen,
				 "st[%" PRIu32 "].zn[%" PRIu32
				 "]: I/O to an empty zone",
				 i, z);
			return -EINVAL;
		}
	}
	if (zoned && (io != 100 || range > 100)) {
		snprintf(why, whylen,
			 "st[%" PRIu32 "].zn: I/O shares add up to %" PRIu64
			 ", range shares to %" PRIu64 " (100, and at most 100)",
			 i, io, range);
		return -EINVAL;
	}
	if (band ? s->band_lo >= s->band_hi : s->band_lo || s->band_hi) {
		snprintf(why, whylen,
			 "st[%" PRIu32 "].bl: band %" PRIu64 "..%" PRIu64
			 " with access %" PRIu32,
			 i, s->band_lo, s->band_hi, s->access);
		return -EINVAL;
	}
	return 0;
}

int schema_plan_check(const struct proto_plan *p, char *why, size_t whylen)
{
	if (schema_plan_fs_check(p, why, whylen))
		return -EINVAL;
	if (p->replay >= PROTO_REPLAY_MAX) {
		snprintf(why, whylen, "rm: unknown replay mode %" PRIu32,
			 p->replay);
		return -EINVAL;
	}
	if (p->ntargets > PROTO_MAX_TARGETS ||
	    p->nstreams > PROTO_MAX_STREAMS || (p->ntargets && !p->targets) ||
	    (p->nstreams && !p->streams)) {
		snprintf(why, whylen, "bad target or stream count");
		return -EINVAL;
	}
	for (uint32_t i = 0; i < p->ntargets; i++) {
		if (p->targets[i].streams <= PROTO_MAX_SEQ_STREAMS)
			continue;
		snprintf(why, whylen,
			 "tg[%" PRIu32 "].sn: %" PRIu32
			 " streams, more than %d",
			 i, p->targets[i].streams, PROTO_MAX_SEQ_STREAMS);
		return -EINVAL;
	}
	for (uint32_t i = 0; i < p->nstreams; i++) {
		const struct proto_stream *s = &p->streams[i];

		if (s->ntargets > PROTO_MAX_STREAM_TARGETS) {
			snprintf(why, whylen,
				 "st[%" PRIu32 "]: bad target count", i);
			return -EINVAL;
		}
		if (s->stride_min > s->stride_max) {
			snprintf(why, whylen,
				 "st[%" PRIu32
				 "].tn: stride minimum above its maximum",
				 i);
			return -EINVAL;
		}
		if (s->access >= PROTO_ACCESS_MAX) {
			snprintf(why, whylen,
				 "st[%" PRIu32 "].ac: unknown access %" PRIu32,
				 i, s->access);
			return -EINVAL;
		}
		if (access_check(s, i, why, whylen))
			return -EINVAL;
		if (s->replay[0] && s->ntargets != 1) {
			snprintf(why, whylen,
				 "st[%" PRIu32
				 "].rp: a replay stream runs on one target",
				 i);
			return -EINVAL;
		}
		for (uint32_t j = 0; j < s->ntargets; j++) {
			if (s->targets[j] < p->ntargets)
				continue;
			snprintf(why, whylen,
				 "st[%" PRIu32 "].tg[%" PRIu32 "]: target "
				 "index %" PRIu32 " out of range (plan has "
				 "%" PRIu32 " targets)",
				 i, j, s->targets[j], p->ntargets);
			return -EINVAL;
		}
	}
	return 0;
}

int schema_phase_end_check(const struct proto_phase_end *p, char *why,
			   size_t whylen)
{
	uint64_t sum[3] = { 0, 0, 0 };

	if (p->nval_sds > PROTO_MAX_TARGETS || (p->nval_sds && !p->val_sds)) {
		snprintf(why, whylen, "bad validation sd count");
		return -EINVAL;
	}
	if (p->val_mismatches > p->val_verified) {
		snprintf(why, whylen,
			 "vm: %" PRIu64 " mismatches of %" PRIu64
			 " blocks verified",
			 p->val_mismatches, p->val_verified);
		return -EINVAL;
	}
	for (uint32_t i = 0; i < p->nval_sds; i++) {
		const struct proto_val_sd *v = &p->val_sds[i];

		/* Increasing, so that no sd is counted twice. */
		if (i && v->target <= p->val_sds[i - 1].target) {
			snprintf(why, whylen,
				 "vs[%" PRIu32 "].t: target %" PRIu32
				 " not above the one before",
				 i, v->target);
			return -EINVAL;
		}
		if (v->mismatches > v->verified) {
			snprintf(why, whylen,
				 "vs[%" PRIu32 "].m: %" PRIu64
				 " mismatches of %" PRIu64 " blocks verified",
				 i, v->mismatches, v->verified);
			return -EINVAL;
		}
		if (__builtin_add_overflow(sum[0], v->written, &sum[0]) ||
		    __builtin_add_overflow(sum[1], v->verified, &sum[1]) ||
		    __builtin_add_overflow(sum[2], v->mismatches, &sum[2])) {
			snprintf(why, whylen, "vs[%" PRIu32 "]: sums overflow",
				 i);
			return -EINVAL;
		}
	}
	if (sum[0] != p->val_written || sum[1] != p->val_verified ||
	    sum[2] != p->val_mismatches) {
		snprintf(why, whylen,
			 "vs: per-sd counts sum to %" PRIu64 "/%" PRIu64
			 "/%" PRIu64 ", not vw/vr/vm %" PRIu64 "/%" PRIu64
			 "/%" PRIu64,
			 sum[0], sum[1], sum[2], p->val_written,
			 p->val_verified, p->val_mismatches);
		return -EINVAL;
	}
	return 0;
}

int schema_interval_check(const struct proto_interval *iv, char *why,
			  size_t whylen)
{
	uint64_t n = 0, sum = 0, want_n, want_sum;

	if (schema_fsops_check(iv, why, whylen))
		return -EINVAL;
	if (iv->nsds > PROTO_MAX_SD_LATS || (iv->nsds && !iv->sds)) {
		snprintf(why, whylen, "bad per-target histogram count");
		return -EINVAL;
	}
	if (!iv->nsds)
		return 0;
	for (uint32_t i = 0; i < iv->nsds; i++) {
		const struct proto_sd_lat *t = &iv->sds[i];

		if (i && t->target <= iv->sds[i - 1].target) {
			snprintf(why, whylen,
				 "sl[%" PRIu32 "].t: target %" PRIu32
				 " not above the one before",
				 i, t->target);
			return -EINVAL;
		}
		if (__builtin_add_overflow(n, t->lat.count, &n) ||
		    __builtin_add_overflow(sum, t->lat.sum, &sum)) {
			snprintf(why, whylen, "sl[%" PRIu32 "]: sums overflow",
				 i);
			return -EINVAL;
		}
	}
	if (__builtin_add_overflow(iv->lat[0].count, iv->lat[1].count,
				   &want_n) ||
	    __builtin_add_overflow(iv->lat[0].sum, iv->lat[1].sum, &want_sum) ||
	    n != want_n || sum != want_sum) {
		snprintf(why, whylen,
			 "sl: per-target latencies count %" PRIu64
			 " I/Os summing to %" PRIu64 " ns, not l's %" PRIu64
			 " + %" PRIu64 " I/Os",
			 n, sum, iv->lat[0].count, iv->lat[1].count);
		return -EINVAL;
	}
	return 0;
}

int schema_ready_check(const struct proto_ready *r, char *why, size_t whylen)
{
	if (r->nsizes > PROTO_MAX_TARGETS || (r->nsizes && !r->sizes)) {
		snprintf(why, whylen, "bad target size count");
		return -EINVAL;
	}
	for (uint32_t i = 0; i < r->nsizes; i++) {
		const struct proto_tsize *t = &r->sizes[i];

		if (!t->sd[0] || !t->size || t->size >= PROTO_MAX_SD_BYTES) {
			snprintf(why, whylen, "tz[%" PRIu32 "]: %s", i,
				 !t->sd[0] ? "no sd name" :
				 !t->size  ? "an empty target" :
					     "a size of 2^62 bytes or more");
			return -EINVAL;
		}
		for (uint32_t k = 0; k < i; k++)
			if (!strcmp(r->sizes[k].sd, t->sd)) {
				snprintf(why, whylen,
					 "tz[%" PRIu32 "].sd: sd %s twice", i,
					 t->sd);
				return -EINVAL;
			}
	}
	return 0;
}
