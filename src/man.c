/*
 * The manual pages, printed by `lockstep help --man [PAGE]` and written by
 * the build (CMakeLists.txt, one custom command per page): lockstep(1),
 * one page per command, lockstep-nightly(1) and lockstep-params(5). Every
 * part a program already says comes from there: a command's SYNOPSIS,
 * DESCRIPTION and OPTIONS are its own --help printed in roff (opts.h), the
 * list of commands is main.c's table, and lockstep-params(5)'s keywords
 * are the parser's tables (master/params/manual.c). The narrative around
 * them is below, in the markup of common/manpage.h.
 * Over 800 lines on purpose: most of it is the manual's prose, one string
 * per page, which reads best whole and beside the code that prints it.
 */
#include <stdio.h>
#include <string.h>
#include "common/manpage.h"
#include "common/opts.h"
#include "lockstep_version.h"
#include "master/params/params.h"
#include "src/man.h"

static const char man_lockstep[] =
	"# DESCRIPTION\n"
	"lockstep is a distributed storage load generator for the people "
	"who size and break HCI clusters (vSAN, HyperFlex, Ceph, Nutanix) "
	"and SANs. One master drives slave processes on many hosts through "
	"synchronized phases over ZeroMQ; every slave issues its I/O with "
	"io_uring and sends one timestamped msgpack message per interval; "
	"the master merges them into cluster-wide totals per interval and "
	"per run, with latency percentiles from merged histograms (never "
	"averaged). It reads Vdbench parameter files (lockstep-params(5); "
	"HCIBench's generated files run unchanged), prints Vdbench-style "
	"interval lines and an HCIBench-style summary, and writes a "
	"results folder machines can read (lockstep-run(1)). It keeps "
	"measuring when a host dies, and says exactly what happened.\n"
	"\n"
	"A parameter file without `hd=` lines runs on this machine: the "
	"master starts local slaves (`--local-slaves N`, default 2) that "
	"talk to it over real ZeroMQ on 127.0.0.1, the same code path as a "
	"cluster. With `hd=` lines the master starts `lockstep slave` on "
	"each host over ssh, or waits for slaves started there (daemons, "
	"the lockstep-slave service).\n";

static const char man_lockstep_body[] =
	"\n"
	"`lockstep COMMAND --help` prints a command's options; `lockstep "
	"help --man PAGE` prints any of these pages (`lockstep help --man "
	"run | man -l -`), `lockstep help --man --list` their file names. "
	"`lockstep --version` is `lockstep version`, `lockstep --help` is "
	"`lockstep help`. Installed or linked under the name `vdbench`, "
	"the binary is `lockstep vdbench` (lockstep-vdbench(1)), except "
	"that a lockstep command word first (`vdbench slave ...`, `vdbench "
	"version`) is that command.\n"
	"\n"
	"# SECURITY\n"
	"lockstep runs as root and its numbers must come from real slaves, "
	"so the master and its slaves authenticate each other with "
	"ZeroMQ's CURVE (Curve25519 keys, encrypted traffic):\n"
	"- Slaves the master starts (local ones and `hd=` hosts through "
	"ssh) get a fresh key pair per run and the master's public key "
	"over a pipe (the child's stdin, or ssh's stdin), never in argv or "
	"the environment. Each key may register only under its slave's "
	"name (and a local slave only from the pid the master started), so "
	"no other process, even on the same machine, can take a slave's "
	"place. Nothing to configure.\n"
	"- Slaves started elsewhere (daemons, `shell=none` hosts, "
	"`--expect-slaves`): make a pair for the master and one per slave "
	"with `lockstep keygen`, give each slave `--key its.key "
	"--master-key master.pub`, and the master `--key master.key "
	"--authorized-slaves FILE`. FILE lists one public key per line, "
	"like ssh's authorized_keys, with the names it may register under "
	"(blanks or commas between them; `#` comments): "
	"`rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7 esx1 esx1-1`. A key "
	"without names may use any name that no listed key claims. A slave "
	"whose key is not listed is refused at the handshake and the run "
	"goes on with the others; a slave facing a master that does not "
	"prove the expected key says so and keeps waiting for the right "
	"one.\n"
	"- Secret key files must be private (no group or other bits, as "
	"ssh requires) and public key files and FILE not writable by group "
	"or others: anything else is refused with the file's name and "
	"mode. Keys never appear in logs.\n"
	"- `--insecure` turns this off for the peers that reach the "
	"master's port (plain TCP, any of them may register); the master "
	"and the slave print a warning at start, summary.json records "
	"`\"insecure\": true, \"authentication\": \"none\"`, summary.txt has an "
	"`insecure:` line and the final line says `completed (insecure: no "
	"authentication)`; `lockstep history` marks the run `[insecure: no "
	"authentication]` (`\"insecure\": true` with `--json`). The slaves "
	"the master forks itself still prove per-run keys (over their "
	"pipe, on a CURVE port of their own on 127.0.0.1), so a local user "
	"cannot take their place even with their pid; their names "
	"(`local-N`) are refused on the plain port. Without keys, a master "
	"waiting for outside slaves and a slave refuse to start unless "
	"given `--insecure`.\n"
	"\n"
	"# HOSTILE PEERS\n"
	"A peer that reaches the master's ports gets no say over the "
	"results. Slave names are letters, digits, `-`, `_` and `.` (no "
	"leading dot, at most 63), like `hd=` names; anything else is "
	"refused at hello, so no name can point a file outside the results "
	"folder. A hello for the name of a live slave is refused: a new "
	"process takes a name only once the master has lost the old one "
	"(or by proving the same key), and the names of slaves the master "
	"started are welcomed only from the pids it started.\n"
	"\n"
	"Every interval is checked against the slave's plan and against "
	"itself before it is merged (ops within what its I/Os in flight "
	"could complete at its own minimum latency, bytes within its "
	"transfer sizes, histograms that agree with their counts, min, max "
	"and sums, CPU within its cores, no total that wraps, its start "
	"and end times in order and where the phase's schedule puts them, "
	"its first I/O inside the phase, both within one interval, twice "
	"the clock's error bound and a second); a refused one is never "
	"counted, is logged with its reason and counted in "
	"`rejected_intervals`, the slave is `suspect` and the run ends "
	"degraded (exit 4).\n"
	"\n"
	"Frames larger than the largest legal message are refused before "
	"they are buffered, each connection queues at most 100 frames, a "
	"peer that sends 100 invalid frames is ignored, repeated log lines "
	"are limited with a count of those suppressed, and every string a "
	"peer sent is printed with control characters escaped (`\\x0a`): a "
	"flood keeps the master within 64 MB of a normal run. "
	"docs/DESIGN.md section 9 has the exact bounds.\n"
	"\n"
	"# EXIT STATUS\n"
	"The same for every command (`common/exitcode.h`):\n"
	"= 0\n"
	"completed: everything ran (or the file is valid, for `check`; no "
	"regression, for `compare`)\n"
	"= 1\n"
	"bad input: the command line, the parameter file, a target that "
	"cannot be opened or the set-up was refused; nothing is started\n"
	"= 2\n"
	"aborted: a signal, a slave lost under `--on-slave-loss abort`, a "
	"slave past `data_errors=`, an event with `on_fail=abort`, a slave "
	"lost during a validated run\n"
	"= 3\n"
	"a regression against `--baseline` (`lockstep compare` too); only "
	"when the run itself completed: 2, 4 and 5 take precedence\n"
	"= 4\n"
	"completed degraded: a slave was lost (not as an event expected), "
	"or I/O errors within `data_errors=`, a suspect slave, an event "
	"that did not complete\n"
	"= 5\n"
	"incomplete results: the run ran, but a file of its results folder "
	"could not be written in full (a full disk, an I/O error): the "
	"console and `summary.json`'s `incomplete_files`, or stderr when "
	"`summary.json` itself could not be written, name them; an aborted "
	"run keeps 2 and still lists them\n"
	"= 6\n"
	"completed, but the comparison `--baseline` asked for could not be "
	"made (no usable baseline run, no history or a corrupt one): the "
	"verdict line says why\n"
	"\n"
	"lockstep-nightly(1) exits with lockstep's code, and 127 when it "
	"finds no lockstep.\n"
	"\n"
	"# ENVIRONMENT\n"
	"= LOCKSTEP_HISTORY\n"
	"the run history (default `/var/lib/lockstep/history.db` for root, "
	"else `$XDG_DATA_HOME/lockstep/history.db` or "
	"`~/.local/share/lockstep/history.db`); `--history` overrides it\n"
	"= LOCKSTEP, LOCKSTEP_OUTPUT, LOCKSTEP_NIGHTLY_MEDIAN, "
	"LOCKSTEP_THRESHOLD\n"
	"read by lockstep-nightly(1)\n"
	"= LOCKSTEP_RUN_ID, LOCKSTEP_RUN, LOCKSTEP_EVENT, LOCKSTEP_OUTPUT\n"
	"set for the commands of `ev=` events (lockstep-params(5))\n"
	"\n"
	"# FILES\n"
	"= /etc/lockstep/slave.env\n"
	"the options of the lockstep-slave systemd service (installed, not "
	"enabled: it refuses to start until `LOCKSTEP_MASTER` and "
	"`LOCKSTEP_ALLOW` are set there)\n"
	"= /var/lib/lockstep/history.db\n"
	"the run history of root's runs (lockstep-history(1))\n"
	"= lockstep-output/\n"
	"the default parent of results folders (lockstep-run(1), RESULTS "
	"FOLDER)\n"
	"= /usr/share/doc/lockstep\n"
	"README.md, DESIGN.md (the architecture as built), PERFORMANCE.md, "
	"CONTRIBUTING.md, PROTOCOL.md (the wire format) and the examples\n"
	"\n"
	"# INSTALLATION\n"
	"The Debian package (`scripts/package.sh`) depends on what the "
	"binary links (found by dpkg-shlibdeps: libzmq5, libmsgpackc2, "
	"liburing2, libuuid1, libblkid1, libc6). It installs "
	"`/usr/bin/lockstep`, `/usr/bin/lockstep-nightly`, these manual "
	"pages (generated at build time from the same option tables and "
	"keyword tables as every `--help` and the parser), the docs and "
	"examples in `/usr/share/doc/lockstep`, and the `lockstep-slave` "
	"systemd unit, not enabled, with its options in "
	"`/etc/lockstep/slave.env` (a commented example, a conffile). "
	"`cmake --install` writes the same files under its prefix (the "
	"unit then names `PREFIX/bin/lockstep` and "
	"`PREFIX/etc/lockstep/slave.env`; a prefix of `/usr` uses `/etc`). "
	"`lockstep version` names the git revision of a build from a "
	"checkout (`0.1.0-g1a2b3c4`, `-dirty` with uncommitted changes).\n"
	"\n"
	"The hosts of `hd=` lines need no install at all: `lockstep run "
	"FILE --push` copies the master's own executable to them "
	"(lockstep-hosts(1), PUSH).\n"
	"\n"
	"# REQUIREMENTS\n"
	"- Linux with io_uring: 5.15 or newer (Debian 12's 6.1 is the "
	"reference; `SINGLE_ISSUER | DEFER_TASKRUN` rings need 6.1, older "
	"kernels fall back to `COOP_TASKRUN` (5.19) or plain rings).\n"
	"- Debian 12 packages (the versions it is built and tested with): "
	"libzmq 4.3.4 (`libzmq3-dev`), msgpack-c 4.0 (`libmsgpack-dev`), "
	"liburing 2.3 (`liburing-dev`), libuuid (`uuid-dev`), libblkid "
	"(`libblkid-dev`), SQLite 3.40 (`libsqlite3-dev`, the run "
	"history), CMake 3.18+, a C11 compiler; cmocka (`libcmocka-dev`) "
	"for the unit tests. `scripts/install-deps.sh` installs all of "
	"them, plus what the test suite and the benchmarks use (fio, "
	"clang, iproute2, openssh, groff, and the live export tests' "
	"receivers: graphite-carbon, python3-whisper, influxdb, "
	"prometheus).\n"
	"- Root for block devices, for the multi-host tests (network "
	"namespaces) and for `O_DIRECT` on most devices; a regular file "
	"needs none.\n";

static const char man_run[] =
	"# CONSOLE\n"
	"Each run starts with Vdbench's header line after the time of day, "
	"`HH:MM:SS.mmm Starting RD=NAME; I/O rate: Uncontrolled MAX|N; "
	"elapsed=E warmup=W; For loops: xfersize=4k rdpct=70` (`For loops: "
	"None` without loops, `Uncontrolled curve` for a curve's max run, "
	"`RD=format_for_NAME` for a format pass), and ends with its `avg_` "
	"line, a format pass too, so log parsers that key on `RD=` and "
	"pair the n-th `RD=` line with the n-th `avg_` line (HCIBench's "
	"do, dropping the first two words of each) find every run. On a "
	"terminal, a format pass and a phase longer than 60 s also show "
	"one progress line under the interval lines (`run NAME: 42% done, "
	"ETA 3m05s`), redrawn each interval; nothing of it goes to a pipe "
	"or the log.\n"
	"\n"
	"The columns are Vdbench's, in Vdbench's order and widths (time of "
	"day, interval, i/o rate, MB/sec, bytes per I/O, read %, response "
	"time, read and write response, max, standard deviation, queue "
	"depth, CPU% user+system and system), then lockstep's: `p99 ms`, "
	"`slaves seen` and `slaves want` (reported and expected) and, when "
	"the file has `ev=` lines, `events active` (how many events were "
	"running in the interval; their names are in `intervals.csv` and "
	"on stderr). Every field has a blank before it, so a queue depth "
	"of 16439.9 or a latency of 12445.7 ms widens the line but never "
	"runs into its neighbour; the rows hold only digits, `:`, `.` and "
	"blanks, and the two header lines have one word per column, which "
	"is what HCIBench's spreadsheet script and its live Graphite feed "
	"look for (`tests/integration/check_console.py` reads the console "
	"by their rules). The `avg_` line prints the rate with 2 decimals, "
	"as Vdbench does. Times are milliseconds. Warmup intervals are "
	"printed and written but left out of the `avg_N-M` line and every "
	"total. Queue depth is Little's law over the interval (total "
	"latency / interval length). CPU% is each slave process's "
	"user+system time (io_uring's kernel workers included) over its "
	"interval and cores, averaged over the slaves.\n"
	"\n"
	"After each run: its start skew with its error bound, then `IOPS`, "
	"`THROUGHPUT`, `LATENCY`, `R_LATENCY`, `W_LATENCY`, `95%tile_LAT` "
	"and `99%tile_LAT`. These carry HCIBench's labels but are the true "
	"values from the merged histogram of every I/O of the run; "
	"HCIBench averages per-VM means and assumes a normal distribution "
	"for its 95th percentile.\n"
	"\n"
	"# HOSTS\n"
	"With `hd=` lines and no `shell=none`, the master starts `lockstep "
	"slave` on each host itself through the system's `ssh` (`--ssh`; "
	"`system=`, `user=`, `lockstep=` path, `slaves=N` processes named "
	"`HD` or `HD-1..HD-N`), hands each a fresh key pair for the run "
	"over ssh's stdin, streams their stderr into `lockstep.log` "
	"prefixed by host (a slave that exits before it registers has the "
	"last line its host wrote on the console too: `slave h1 on "
	"10.0.0.11 exited before registering (status 127): "
	"vdbench=/opt/vdbench: no lockstep there ...`), and stops them at "
	"the end. `--push` first copies this binary to the hosts that lack "
	"it (lockstep-hosts(1)). With `shell=none` (or `--expect-slaves "
	"N`) the master waits `--join-timeout` for slaves started "
	"elsewhere, which need keys (lockstep(1), SECURITY). A master "
	"refuses a slave of another version (or protocol) at registration, "
	"naming both versions and `--push`.\n"
	"\n"
	"`--listen ADDR` and `--port N` set where the master listens "
	"(default 127.0.0.1 and any free pair of ports: ROUTER on N, PUB "
	"on N+1); clock datagrams go to any free UDP port of ADDR, told to "
	"the slaves in their pings: a firewall that drops it leaves the "
	"clocks to the slower ZeroMQ samples. `--advertise` is the address "
	"slaves are told to connect to. `--ssh` replaces the ssh command, "
	"e.g. `--ssh \"ssh -F cluster.conf\"`. `--local-slaves 0` (no local "
	"slaves) needs `--expect-slaves N`. `-v` also passes `--verbose` "
	"to the slaves it starts. `--engine null` does no I/O: for "
	"measuring lockstep itself. `--workers N` sets the I/O threads "
	"(one io_uring each) of every slave the master starts.\n"
	"\n"
	"# WHEN A HOST DIES\n"
	"- A slave silent for `--slave-timeout` is marked lost (one "
	"console line); the phase goes on with the others and the run ends "
	"`degraded` (exit 4), or aborts (exit 2) with `--on-slave-loss "
	"abort`. Its data up to its last interval stays in its file and "
	"the totals; every cluster row says "
	"`slaves_reported/slaves_expected`, and the log names who was "
	"missing.\n"
	"- Every slave keeps its intervals until the master acknowledges "
	"them and re-sends after a reconnect or a cut; the master drops "
	"duplicates and counts an interval that arrives after its cluster "
	"row was written into the run totals once, writing it to "
	"`intervals.csv` as a `late` row (the cluster row plus the late "
	"rows of an interval hold all of its I/O).\n"
	"- A slave that comes back under the same name (a reconnect, or a "
	"new process once the old one is lost: a daemon restarted on a "
	"host that was powered on again) rejoins the running phase at the "
	"next interval boundary on the master's clock, with the part of "
	"the plan it had (its targets and its share of a fixed `iorate=`; "
	"the others keep theirs, so the cluster is back at the planned "
	"rate), and its intervals are the phase's intervals of the same "
	"numbers: `slave h2 rejoined phase r1 at interval 12 "
	"(20:20:10.590)`. Where that is not safe it waits for the next "
	"phase and the console says why (`slave h2 waits for the next "
	"phase to rejoin: ...`): format passes, `seekpct=eof` and "
	"`validate=only` passes, curve phases, a slave that had no part in "
	"the phase's plan or an empty one, `validate=yes` with a new "
	"process and no `journal=` (its blocks' generations died with the "
	"old one), another host, fewer than 2 intervals left. Between "
	"phases it takes part from the next phase. The summary says when "
	"it was lost, when it was back and when it rejoined "
	"(`loss_records`).\n"
	"- A slave that hears nothing from the master for "
	"`--master-timeout` stops all I/O at once; one the master started "
	"(locally or over ssh) stops as soon as the master dies, even by "
	"SIGKILL (it reads EOF on the pipe that brought its keys). The "
	"master on SIGINT/SIGTERM stops every slave, writes the summary "
	"with status `aborted` and exits 2; its rates are over the "
	"intervals it measured, not the planned time. A second SIGINT "
	"exits at once, after killing the process groups of the slaves it "
	"started (no summary is written then).\n"
	"- Clock offsets are measured (40 NTP-style samples per slave over "
	"ZeroMQ, one in flight at a time, 2.5 ms apart, and as many UDP "
	"clock datagrams with kernel timestamps, bound to the CURVE "
	"channel by a nonce and used only where they agree with it; "
	"minimum RTT kept) before every phase; each slave reports its "
	"first I/O's time and the run prints its start skew with its error "
	"bound (the clock bounds of the earliest and the latest slave "
	"added): `start skew 0.150 ms ± 0.040 ms`.\n"
	"\n"
	"Events that fail a part on purpose (`ev=` lines: power a host "
	"off, pull a link) and their recovery figures are in "
	"lockstep-params(5), EVENTS.\n"
	"\n"
	"# LIVE EXPORT\n"
	"During a run the master can feed the numbers it merges to the "
	"tools people watch long runs with; "
	"`examples/grafana-dashboard.json` is a Grafana dashboard over the "
	"Graphite series (cluster IOPS, MB/s, p99/p95/mean latency, slaves "
	"reported/expected, IOPS, p99 and MB/s per host, errors; pick the "
	"Graphite source, the run and hosts at the top). It works imported "
	"and file-provisioned (how HCIBench loads dashboards): the source "
	"is a `datasource` template variable, not an import-only "
	"`${DS_...}` input.\n"
	"= `--graphite HOST:PORT`\n"
	"Carbon's plaintext protocol over TCP, one line per metric, "
	"timestamped with the interval's end (whole seconds): "
	"`lockstep.<run>.<metric>` for the cluster and "
	"`lockstep.<run>.host.<slave>.<metric>` for each slave, where "
	"`<run>` and `<slave>` have every character but letters, digits, "
	"`-` and `_` replaced by `_` (`r1 xfersize=4k` is "
	"`r1_xfersize_4k`).\n"
	"= `--influx http://HOST[:PORT]/write?db=NAME`\n"
	"InfluxDB 1.x's line protocol, one POST per batch; measurement "
	"`lockstep_cluster` (tags `run`, `phase`) and `lockstep_slave` "
	"(tags `run`, `phase`, `host`, `slave`), tags escaped per the "
	"line-protocol rules, nanosecond timestamps. Only `http://` (no "
	"credentials in the URL); the port defaults to 8086.\n"
	"= `--prom-textfile FILE`\n"
	"a node_exporter textfile with HELP and TYPE, rewritten atomically "
	"(a temporary file in FILE's folder, then a rename) after each "
	"batch: `lockstep_interval_<metric>{run,phase}` (the cluster's "
	"last interval), "
	"`lockstep_slave_interval_<metric>{run,phase,host,slave}` (each "
	"slave's last one) and `lockstep_run_<metric>{run}` (every "
	"finished run's totals). Latencies are in seconds there "
	"(`..._p99_seconds`), as Prometheus wants. FILE must end in "
	"`.prom`, its folder must exist, and an existing FILE must be a "
	"regular file (a symbolic link is refused); nothing else is "
	"written.\n"
	"\n"
	"The metrics are `iops mbps resp_ms read_resp_ms write_resp_ms "
	"resp_max_ms resp_stddev_ms p95_ms p99_ms read_pct queue_depth "
	"cpu_pct ops bytes errors interval`, and for the cluster also "
	"`slaves_reported slaves_expected`, with the values (and decimals) "
	"of `intervals.csv` and `hosts/<slave>.csv`; an unknown value "
	"(NaN) is not sent. A receiver that is down or slow never slows or "
	"stops the run: each sink has its own thread, socket and a queue "
	"of 4096 points; a full queue, a failed connect (retried with a "
	"backoff from 250 ms to 8 s, started again only after a connection "
	"that held 8 s), a failed send or a non-2xx answer drops the "
	"points; an outage is said once on the console (and its end once a "
	"connection carried points for a second, so a receiver that closes "
	"every connection at once is one outage, not a line per "
	"reconnect), and the counts end up in `summary.json` (`export`) "
	"and on the last lines of the console (`export graphite: 1200 "
	"points sent, 36 dropped`). A point is one cluster or slave "
	"interval. Names are resolved in the sink's thread, never on the "
	"master's loop. At the end the sinks get at most 2 s to send what "
	"is queued.\n"
	"\n"
	"# RESULTS FOLDER\n"
	"`-o DIR`, default `lockstep-output/<YYYYmmdd-HHMMSS>-<short run "
	"id>/`, written as the run goes (every cluster row is flushed when "
	"it is merged). Every write, flush, fsync and close is checked: a "
	"file that could not be written in full (a full disk) is named on "
	"the console at once, listed in `summary.json`'s "
	"`incomplete_files`, and the run exits 5. `summary.json` and "
	"`summary.txt` are written atomically (a temporary file, fsynced, "
	"renamed, the folder fsynced): one that exists is whole. Before "
	"the first phase the master compares the filesystem's free space "
	"with what the planned rows need (intervals x (slaves + 1) rows, "
	"the `.hgrm` files and summaries, plus half as a margin, and 16 "
	"MiB for each `ev=` event's log) and warns, or refuses with "
	"`--require-space`. One run writes a folder at a time: the master "
	"holds an exclusive `flock` on `DIR/.lock` (which names it: `pid "
	"N, run ID, started TIME`) until it exits, and a second master on "
	"the same folder refuses at once, before touching anything there: "
	"`the results folder DIR is being written by another lockstep (pid "
	"4242, run ..., started ...): refused` (exit 1).\n"
	"= `summary.json`\n"
	"`version`, `run_id`, `engine`, `host` (the master's), `status` "
	"(`completed|degraded|aborted|incomplete|regression|uncompared`), "
	"`exit_code`, `verdict` (with `--baseline`: the verdict line "
	"printed, sealed after the compare), `authentication` "
	"(`curve|none`), `insecure`, `incomplete_files` (names inside the "
	"folder; empty when all are whole), `slaves` (each `id`, `host`, "
	"`name`, `state` `finished|lost|suspect`, `rejected_intervals` "
	"(implausible intervals refused), `invalid_frames`, "
	"`clock_offset_ns`, `clock_error_ns`, `clock_source` "
	"(`datagrams|pings`: which samples the last offset came from), "
	"`losses`, `lost_at`, `back_at` (when it came back last), "
	"`rejoined_at` (when it took part again: the start of its first "
	"interval back), `loss_expected_by` (the event whose "
	"`expect_loss=` explained its loss), `loss_records` (each loss: "
	"`lost_at`/`lost_ns`, `back_at`/`back_ns`, "
	"`rejoined_at`/`rejoined_ns`, `rejoined_run`, `rejoined_interval` "
	"as intervals.csv numbers it)), `forced` (each `slave`, `sd`, "
	"`lun`, `signature` that `force=yes` let it overwrite; empty "
	"otherwise), `events` (each `ev=`: lockstep-params(5), EVENTS), "
	"`export` (only with a live export: per sink `graphite`, `influx`, "
	"`prometheus` its `target`, `sent` and `dropped` points), `runs` "
	"(each `name`, `kind`, `elapsed_s`, `warmup_s`, `interval_s`, "
	"`start_skew_ns`, `start_skew_bound_ns`, `duration_s`, `totals`, "
	"`files` (`hgrm`: the name of its `.hgrm`), `per_slave` (each "
	"`slave`, `first_io_ns`, `clock_offset_ns`, `clock_error_ns` of "
	"that run, `totals`, `validation` without `sds`), `validation` "
	"(with `validate=yes` or `validate=only`: `mode`, "
	"`blocks_written`, `blocks_verified`, `mismatches`, `sds` (each "
	"`sd`, `written`, `verified`, `mismatched`)), `steady_state` "
	"(every run but a format pass: SNIA PTS's steady-state test of "
	"its measured window on IOPS, the window cut into `rounds` (5) of "
	"`intervals_per_round`, ending with the run: `steady` when "
	"`data_excursion_pct` (largest round minus smallest, over their "
	"mean) is at most `data_excursion_limit_pct` (20) and "
	"`slope_excursion_pct` (how far a least-squares line through the "
	"rounds moves across the window) at most "
	"`slope_excursion_limit_pct` (10); `slaves_judged`, "
	"`slaves_not_steady` and `not_steady` (up to 8, farthest from "
	"steady first: each `slave` and its excursions); or `not_judged` "
	"saying why: fewer measured intervals than rounds, a run that "
	"ended early, no I/O)), `validation_warning`. The console says "
	"the verdict after each run's totals (`Run r1: steady (SNIA PTS, "
	"...)` or `NOT STEADY`, naming the slaves that were not).\n"
	"`totals` holds `ops read_ops write_ops bytes read_bytes "
	"write_bytes errors iops mbps read_pct lat_mean_ms "
	"read_lat_mean_ms write_lat_mean_ms lat_max_ms lat_stddev_ms "
	"lat_p50_ms lat_p95_ms lat_p99_ms lat_p999_ms queue_depth cpu_pct "
	"cpu_sys_pct`. A `per_slave` entry's percentiles are `null`, with "
	"`percentiles_unknown` saying why, when the slave's own histograms "
	"of the run do not match the intervals the master received (a lost "
	"slave).\n"
	"= `summary.txt`\n"
	"the HCIBench-style block of every run, the steady-state verdict "
	"of each, and who was lost\n"
	"= `intervals.csv`\n"
	"cluster totals, one row per run per interval: "
	"`run,interval,phase,start_ns,end_ns,slaves_reported,slaves_expected,ops,read_ops,write_ops,bytes,read_bytes,write_bytes,iops,mbps,read_pct,resp_ms,read_resp_ms,write_resp_ms,resp_max_ms,resp_stddev_ms,p95_ms,p99_ms,queue_depth,cpu_pct,emitted_ns,events` "
	"(`phase` is `warmup`, `measure` or `late`; `events` names the "
	"`ev=` events active in the interval, `;` between them, empty on "
	"late rows). A `late` row is one slave's interval that arrived "
	"after its `measure` row was written (`slaves_reported` 1, "
	"`slaves_expected` 0): an interval's final value, the one the run "
	"totals and the recovery figures count, is its `measure` row plus "
	"its `late` rows (same `run` and `interval`; ops, bytes and IOPS "
	"add)\n"
	"= `events.csv`, `events/<ev>.log`\n"
	"with `ev=` lines: one row per event "
	"(`name,run,kind,planned_ns,start_ns,end_ns,status,exit_code,duration_s,log,recovery,window_through,window_end_s,baseline_iops,baseline_survivors_iops,baseline_p99_us,worst_iops,worst_iops_at_s,worst_p99_us,worst_p99_at_s,time_to_degrade_s,time_to_recover_survivors_s,time_to_recover_s,rebuild_s,io_lost,io_delayed,io_lost_expected`: "
	"the recovery figures of summary.json, empty when they did not "
	"happen), and each event's commands' output (lockstep-params(5), "
	"EVENTS)\n"
	"= `hosts/<slave>.csv`\n"
	"the same columns for one slave, `events` included (the events "
	"active in its interval; flushed every 10 s and at the end of each "
	"run)\n"
	"= `<run>.hgrm`\n"
	"the run's merged latency distribution (ms) in HdrHistogram's "
	"percentile format; the run's display name made a file name: a "
	"space becomes `_`, `=` and `/` become `-`, `%` becomes `pct` "
	"(`loop1 xfersize=4k rdpct=70` writes "
	"`loop1_xfersize-4k_rdpct-70.hgrm`); a name two runs would share "
	"gets `-2`, `-3` in run order; `summary.json` names it in the "
	"run's `files`\n"
	"= `flatfile.html`\n"
	"Vdbench's flatfile, in Vdbench's layout so that `vdbench "
	"parseflat` (`-c`, `-a`, `-f`) and its users' scripts read it: `*` "
	"comment lines, the column names on the first line that starts "
	"with a blank, then one blank-separated row per interval of every "
	"run and one `avg_` row per run, no blank inside a value. "
	"Vdbench's columns in Vdbench's order: `tod timestamp Run Interval "
	"reqrate rate MB/sec bytes/io read% resp read_resp write_resp "
	"resp_max resp_std xfersize threads rdpct rhpct whpct seekpct "
	"lunsize version compratio dedupratio queue_depth cpu_used "
	"cpu_user cpu_kernel cpu_wait cpu_idle` (`Run` is the rd's name, "
	"`format_for_NAME` for a format pass; `reqrate` is `max` when "
	"uncontrolled; the requested columns are what all the rd's "
	"workloads ask, `n/a` when they differ; `rhpct whpct cpu_wait "
	"cpu_idle` are always `n/a`, Vdbench's placeholder: lockstep has "
	"no hit areas and measures its own processes, not the host), then "
	"lockstep's: `resp_p95 resp_p99 slaves expected`\n"
	"= `fio.json`\n"
	"the runs in fio's JSON output layout, for fio's readers "
	"(fio-plot, HCIBench's `parseFioResult.rb`): `fio version`, `jobs` "
	"(one per run: `jobname`, `job options` `rw bs iodepth numjobs "
	"rwmixread`, `read` and `write` with `io_bytes bw` (KiB/s) `iops "
	"runtime total_ios iops_mean iops_stddev` (over the measured "
	"intervals) and `lat_ns`/`clat_ns` `min max mean stddev N "
	"percentile` (fio's 17 keys, from the run's merged histogram per "
	"direction; lockstep times submission to completion, fio's clat, "
	"so both carry it and there is no slat), `usr_cpu sys_cpu`, "
	"`latency_ns/us/ms` shares), and `client_stats` as fio's "
	"client/server mode: per run one job per slave with its `hostname` "
	"(a slave's latency is its mean only, `stddev` null) and an `All "
	"clients` job\n"
	"= the parameter file\n"
	"a copy\n"
	"= `lockstep.log`\n"
	"the master's log and the slaves' own messages\n"
	"= `compare.txt`, `compare.json`\n"
	"with `--baseline`: the verdict table, and the same as JSON "
	"(lockstep-compare(1))\n"
	"= `report.html`\n"
	"with `--report` (or written later by `lockstep report DIR`): "
	"charts and tables of all of the above (lockstep-report(1)); a "
	"report that cannot be written makes the exit code 5\n"
	"\n"
	"For every interval the cluster row is exactly the sum of the "
	"slaves' rows, and the run totals are exactly the sum of the "
	"measured intervals; the integration tests check both.\n"
	"\n"
	"# HISTORY AND BASELINES\n"
	"Every run is recorded in the run history (`--history`, "
	"`--no-history`; lockstep-history(1)) once its folder is complete. "
	"`--baseline SPEC` then compares it with earlier runs of the same "
	"parameter file as `lockstep compare` does (lockstep-compare(1)): "
	"the verdict table on the console, `compare.txt` and "
	"`compare.json` in the results folder, exit 3 on a regression and "
	"6 when no comparison could be made. The verdict is part of the "
	"record: `summary.json` (`exit_code`, `status` `regression`, "
	"`verdict`), `summary.txt`, `report.html`'s header, the history "
	"row and `lockstep history` carry the final exit code and the line "
	"that was printed (`REGRESSION: r1 IOPS -24.1% (p=1.5e-05) vs "
	"median of 7`). A locked, corrupt or read-only history is one "
	"error line, and the run is not recorded (its results folder is "
	"complete): with `--baseline` the run then exits 6. "
	"lockstep-nightly(1) is the cron recipe.\n"
	"\n"
	"# EXIT STATUS\n"
	"0 only when every number came from every slave it planned for; "
	"the others as in lockstep(1).\n";

static const char man_slave[] =
	"# DESCRIPTION\n"
	"A slave registers with the master at `--master`, runs the phases "
	"it is given, and stops all I/O if the master is silent for "
	"`--master-timeout` (10 s). `--key` is its secret key, "
	"`--master-key` the master's public key: it talks to no other "
	"master. Without keys it needs `--insecure`; `--keys-stdin` (what "
	"a master uses for the slaves it starts) reads its secret key, its "
	"public key and the master's public key as three lines from stdin.\n"
	"\n"
	"A `--daemon` stays up across runs and master restarts and waits "
	"for the next master (also after a master that did not prove its "
	"key, or a plain ZeroMQ peer on the master's port: the daemon "
	"opens new sockets after a failed handshake, 100 ms then doubling "
	"up to 2 s). `scripts/lockstep-slave.service` is a systemd unit "
	"for one (installed, not enabled, by the package; options in "
	"`/etc/lockstep/slave.env`).\n"
	"\n"
	"`--allow` (repeatable) limits the paths any master may have it "
	"open, read or write, to those matching a glob (`*` does not cross "
	"`/`; symlinks are resolved first, so a link out of the glob is "
	"refused); `--allow-path` (repeatable) allows one path taken "
	"literally (no globs, no commas). A `--daemon` without either "
	"accepts no targets and says so when it starts. A plan's "
	"`journal=DIR` obeys the same policy: the folder must match a glob "
	"or be an `--allow-path` (symlinks resolved), or the plan is "
	"refused before anything is made. The slaves a master starts "
	"itself (local or over ssh) get `--allow-path LUN` for each lun of "
	"the parameter file and `--allow-path DIR` for its `journal=`; a "
	"slave started by hand for one run without `--allow` may open any "
	"path.\n"
	"\n"
	"# TARGET SAFETY\n"
	"lockstep runs as root; a typo in `lun=` must not destroy a disk. "
	"Before a slave opens or creates a lun it checks it "
	"(`slave/safety.c`), and a refused lun fails the run with exit 1 "
	"before any I/O, with one line naming the sd, the path, the reason "
	"and the override if there is one:\n"
	"- outside the slave's `--allow` list (or any lun, for a daemon "
	"without one): reads and writes refused.\n"
	"- a FIFO, a socket, a directory, a character device other than "
	"`/dev/null` and `/dev/zero`; anything under `/proc` or `/sys`; "
	"under `/dev`, anything but a block device: reads and writes "
	"refused (never opened: a FIFO cannot hang a slave).\n"
	"- a block device that is mounted (or a partition of it is), held "
	"by another device (`/sys/block/*/holders`: dm, LVM, md, dm-crypt) "
	"or claimed (an exclusive open says busy): reads allowed, writes "
	"refused, `force=yes` or not.\n"
	"- a file that backs a loop device "
	"(`/sys/block/loop*/loop/backing_file`) that is mounted or held, "
	"or whose partition is: reads allowed, writes refused, `force=yes` "
	"or not.\n"
	"- the device under `/`, `/boot` or an active swap (or a swap "
	"file): reads allowed, writes refused, `force=yes` or not.\n"
	"- a block device carrying a signature libblkid knows (a file "
	"system, a partition table (dos, gpt), an LVM PV, a RAID member, "
	"swap, LUKS): reads allowed, writes refused unless its sd says "
	"`force=yes`.\n"
	"- a missing file: created (with data) only outside `/dev`, and "
	"only when `statvfs` says its file system has room for `size=`.\n"
	"\n"
	"`force=yes` overrides the signature rule only. When it is used, "
	"the slave says so in its `ready`, the master prints `sd1 on slave "
	"local-1: force=yes: overwriting an ext4 signature on /dev/loop3` "
	"and `summary.json` lists it under `forced`.\n"
	"\n"
	"Plans are checked on the slave too, whoever sent them: threads "
	"(summed without wrap, at most 65536 per slave), interval (1 ms to "
	"1 day, a phase at most a year), `iorate` (0 for max, else 0.001 "
	"to 10^9 and finite), clock offset (± 1 day), sizes and offsets "
	"(below 2^62, offsets in 512-byte units), alignment and transfer "
	"sizes (512-byte multiples, at most 16 MiB), flags (0 or 1), and "
	"the start time of `go` (within 300 s of the slave's clock). A "
	"refused plan gets an `error` naming the field (`refused plan: "
	"field tg[1].th (sd sd2): ...`), which fails the run with exit 1.\n"
	"\n"
	"# EXAMPLES\n"
	"A daemon on a cluster host (or the lockstep-slave service with "
	"the same options in `/etc/lockstep/slave.env`):\n"
	"```\n"
	"lockstep slave --daemon --name h1 --allow '/dev/nvme1n1' \\\n"
	"    --key /etc/lockstep/h1.key --master-key "
	"/etc/lockstep/master.pub \\\n"
	"    --master tcp://MASTER:7440\n"
	"```\n";

static const char man_vdbench[] =
	"# DETAILS\n"
	"A drop-in for Vdbench's command line, so a tool that runs "
	"`./vdbench -f P -o DIR > F 2>&1` can run lockstep instead (the "
	"binary installed or linked under the name `vdbench` does the "
	"same). It runs FILE as `lockstep run` does, with Vdbench's "
	"console (Vdbench's 12 columns only, no lockstep columns) and "
	"Vdbench's output files in DIR (default `output`, as Vdbench; a "
	"trailing `+`, Vdbench's numbered folders, is refused):\n"
	"= `flatfile.html`\n"
	"as `lockstep run` writes it (lockstep-run(1), RESULTS FOLDER)\n"
	"= `summary.html`\n"
	"the console's run lines, headers, interval and `avg_` lines\n"
	"= `totals.html`\n"
	"each run's `Starting RD=` line, header and `avg_` line\n"
	"= `parmfile.html`\n"
	"the parameter file as given\n"
	"\n"
	"beside lockstep's own files. Not written: `logfile.html`, "
	"`errorlog.html` (lockstep's are `lockstep.log` and the console), "
	"`histogram.html` (lockstep's is each run's `.hgrm`).\n"
	"\n"
	"`-s` checks FILE and prints the plan (`lockstep check`). `-v` and "
	"`-vw` set `validate=yes` (lockstep never reads a block before "
	"writing it, which is `-vw`). `-j`, `-jr` and `-jn` set "
	"`validate=yes` with `journal=` the current folder: a journal "
	"there is replayed (`-jr`); entries are always made durable, so "
	"`-jn` journals as `-j` does. `--OPTION ...` is any option of "
	"`lockstep run` (lockstep-run(1)). Any other Vdbench option "
	"(`-vr`, `-c`, `-t`, `-l`, `-m`, `-p`, `-d`, `-r`, ...) is refused "
	"by name, exit 1.\n";

static const char man_check[] =
	"# DETAILS\n"
	"Parses, validates and expands FILE and prints the plan: the "
	"hosts, the sds per host, every phase with its resolved values, "
	"the planned time, the bytes a format writes, and the timeline of "
	"the `ev=` events, without touching any target or host. `--json` "
	"prints the same as one JSON document. The errors are those of "
	"lockstep-params(5), each with its file, line and column.\n";

static const char man_report[] =
	"# DETAILS\n"
	"`lockstep report DIR` (or `lockstep run ... --report`) writes "
	"`report.html`: one file that opens offline, from a mail "
	"attachment or a share. It holds its charting library (uPlot, MIT, "
	"vendored in `master/report/vendor/` and built into the binary), "
	"its script, its styles and the folder's data as JSON; its "
	"Content-Security-Policy lets it load nothing. It shows:\n"
	"- the header: parameter file, run id, status and exit code, "
	"hosts, slaves, losses, authentication, files that are incomplete, "
	"every slave's state, clock offset (± its error bound), losses and "
	"rejoins, and each run's start skew;\n"
	"- per run: cluster IOPS, MB/s and p99 per interval, each "
	"interval's final value (its `late` rows added; warmup shaded, and "
	"summary.json's `events`, when there are any, drawn as named "
	"vertical lines, each event's degraded span shaded red and its "
	"recovered span green from its recovery figures, and listed under "
	"the chart with those figures), per-host IOPS and p99 lines (click "
	"a host's name in the legend to hide it), the latency distribution "
	"of the run's `.hgrm` against 1/(1-percentile) on a log axis as "
	"HdrHistogram plots it, and the totals table (every number of "
	"summary.json's `totals`);\n"
	"- for `iorate=curve`, IOPS against response time (mean and p99), "
	"one point per curve run;\n"
	"- with `--baseline DIR|ID|last|last~N` (a results folder, or a "
	"run of the history, `--history PATH` as for `lockstep history`), "
	"the baseline's lines overlaid (grey, dashed) on every chart of a "
	"run of the same name, and a baseline and a Δ % column in each "
	"totals table; and `lockstep compare`'s verdicts against that "
	"baseline (default thresholds), one table per run; without "
	"`--baseline`, those of `DIR/compare.json` when the run had one.\n"
	"\n"
	"The folder is read as untrusted: files inside it are opened "
	"without following symbolic links and must be regular files of "
	"bounded size (summary.json 64 MiB, each CSV 256 MiB, after which "
	"the page shows the start and says so, each `.hgrm` 4 MiB, "
	"per-host lines for 256 slaves), the `.hgrm` name (`files.hgrm` of "
	"a run, else `<run>.hgrm`) must be a file of the folder, and every "
	"string reaches the page JSON-escaped with `<` as `\\u003c` and is "
	"shown as text. What is missing or cut is listed at the top of the "
	"page.\n"
	"\n"
	"# EXIT STATUS\n"
	"0 written; 1 when DIR has no readable `summary.json` "
	"(`DIR/summary.json: line L column C: why`, for one that is not "
	"JSON) or the page cannot be written.\n";

static const char man_history[] =
	"# DETAILS\n"
	"Every `lockstep run` is recorded in an SQLite history, in one "
	"place that does not depend on `-o`: "
	"`/var/lib/lockstep/history.db` for root, "
	"`$XDG_DATA_HOME/lockstep/history.db` (else "
	"`~/.local/share/lockstep/history.db`) for anyone else; `--history "
	"PATH` or `LOCKSTEP_HISTORY` choose another, `lockstep run "
	"--no-history` none, and `lockstep history` finds it without "
	"flags. (Histories of older versions were `history.db` beside the "
	"results folders: `lockstep history import lockstep-output/*/` "
	"moves their runs, or point `LOCKSTEP_HISTORY` at the old file; it "
	"is migrated in place.) A run is recorded with its id, times, "
	"status, exit code and verdict, master host, slaves and their "
	"hosts, engine, the parameter file's text and hash, the plan, "
	"every run's totals and percentiles, the per-interval cluster "
	"series and the results folder, in one transaction once the folder "
	"is complete; the file is created 0600. The folder stays the "
	"source of truth: a locked, corrupt or read-only history is one "
	"error line (`history PATH: ...: database disk image is malformed "
	"(move it aside; lockstep history import rebuilds it from the "
	"results folders); the run is not recorded (its results folder DIR "
	"is complete)`).\n"
	"= `lockstep history [list]`\n"
	"the recorded runs, newest first, one line each (start, id, run "
	"id, file, status, exit code, the first run's IOPS, MB/s and p99, "
	"and the verdict it printed); `--baseline`: only the runs a "
	"relative baseline may use now.\n"
	"= `lockstep history import DIR...`\n"
	"records results folders made without a history (a folder already "
	"there is said and skipped; one with impossible totals, a linked "
	"or FIFO file is refused).\n"
	"= `lockstep history changes`\n"
	"the nights where a metric's series shifted (every measured run of "
	"one file, regressions included, the newest run's file unless "
	"`--file`), each with its night, size and p, or the nearest miss.\n"
	"= `lockstep history accept ID|last --why TEXT`\n"
	"make that run the baseline level (who, when and why recorded).\n"
	"\n"
	"`history import`, `compare` and `report` read a results folder "
	"the same way (`fsutil_read_at()`): each file opened with "
	"O_NOFOLLOW, a regular file only, read up to a bound, so a "
	"symbolic link (a parameter-file copy pointing at a root-only "
	"file) or a FIFO `intervals.csv` is refused at once with the file "
	"named. `history import` also refuses totals no run could have "
	"measured: not a number (an array, an object, a string), infinite, "
	"negative, a read % over 100, a latency over a day, or IOPS and "
	"MB/s more than a factor 2 from the mean of the run's measured "
	"intervals in `intervals.csv` (`summary.json: run r1: totals.iops "
	"does not match the mean of its measured intervals in "
	"intervals.csv (1e+308, intervals' mean 1000): refused`).\n"
	"\n"
	"## Accepting a new level\n"
	"A regression never becomes the baseline: `median:N`, `last` and "
	"`last~N` count only the usable runs of the same parameter file "
	"(lockstep-compare(1)). So a regression fails again every night "
	"until it is fixed, or until someone accepts the new level after a "
	"deliberate change:\n"
	"```\n"
	"lockstep history accept last --why \"new firmware, 10% slower by "
	"design\"\n"
	"```\n"
	"records who, when and why, and relative baselines then start at "
	"that run (it and the usable runs after it; never older ones). "
	"`lockstep history --baseline` lists the runs a baseline may use "
	"now.\n"
	"\n"
	"## Changes across nights\n"
	"`lockstep history changes` uses E-divisive means (the method of "
	"MongoDB's and Apache Otava's performance CI; 999 seeded "
	"permutations, a shift is reported when p < 0.05) to find the "
	"night a series moved, regressions included, so a slow drift is "
	"caught even when no single night crosses a threshold: on "
	"synthetic series it finds a 151k -> 114k step in the last 4 of 10 "
	"nights at night 7, a -2 %/night drift over 10 nights, and nothing "
	"in 40 series of pure noise. Each change is printed with its "
	"night, size and p-value; when there is none, the nearest miss is "
	"(`none; nearest miss: DATE id N night K of M: RUN METRIC BEFORE "
	"-> AFTER (PCT), p=P`), so \"none\" is never a silent answer.\n"
	"\n"
	"## Example\n"
	"```\n"
	"started                id  run       file                 status  "
	"   exit  first run: IOPS, MB/s, p99 ms; verdict\n"
	"2026-12-04T20:39:18     9  6f2f629d  night.vdb            "
	"regression    3  r1: 704 IOPS, 2.7 MB/s, 0.206 ms; REGRESSION: r1 "
	"IOPS -28.7% (p<1e-16), r1 MB/s -28.7% (p<1e-16) vs median of 6\n"
	"2026-12-04T20:39:14     8  0a9ef757  night.vdb            "
	"completed     0  r1: 960 IOPS, 3.8 MB/s, 0.355 ms; no change vs "
	"median of 5\n"
	"2026-12-04T20:39:09     7  18783bf6  night.vdb            "
	"regression    3  r1: 708 IOPS, 2.8 MB/s, 0.600 ms; REGRESSION: r1 "
	"IOPS -28.6% (p<1e-16), r1 MB/s -28.6% (p<1e-16) vs median of 5\n"
	"```\n";

static const char man_compare[] =
	"# DETAILS\n"
	"Each side is a results folder, a history id, `last`, `last~N` or "
	"`median:N`. `median:N` is the median of the last N usable runs of "
	"the same parameter file (by hash of its text, not of files it "
	"includes), never counting the candidate: runs that completed with "
	"exit 0, never a regression, a degraded, aborted or uncompared "
	"run; `last` and `last~N` count the same runs, and relative "
	"baselines start at the latest run accepted with `lockstep history "
	"accept` (lockstep-history(1)).\n"
	"\n"
	"Runs are matched by name (unmatched ones are listed), with IOPS, "
	"MB/s, mean/p50/p95/p99/p99.9 latency and the read % side by side, "
	"and each metric of the threshold judged: `regression` or "
	"`improvement` only when the change passes the threshold and a "
	"test says it is real (two-sided, alpha 0.05; the p-value is "
	"printed with the test that gave it); `noise` when the test cannot "
	"tell the sides apart; `no change` when the difference is real but "
	"inside the threshold.\n"
	"- With 5 or more baseline nights (`median:5` and up) the test is "
	"night to night: tonight's value scored against the baseline "
	"nights' own values (a robust z against their median and MAD, one "
	"value per night), because the noise that matters to a nightly job "
	"is from night to night.\n"
	"- With fewer, the Mann-Whitney U test of the measured intervals, "
	"widened for their lag-1 autocorrelation (`r1` in the output: "
	"neighbouring seconds are alike, so they count for less than "
	"independent samples). When the two series do not overlap at all, "
	"the gap against their spread counts too (Welch's t, widened the "
	"same way). With few intervals one stalled interval can "
	"make any change `noise` (6 a side: p = 0.066 at best); the output "
	"then says so in a `note:` line (compare.json: `fragile`), and a "
	"longer run or 5 nights decides.\n"
	"- With fewer than 3 intervals a side no test runs and the "
	"threshold alone decides (printed as `no test`).\n"
	"\n"
	"On synthetic nights with 2 % night-to-night noise, 30 nights of "
	"one distribution give at most 1 false regression and a 10 % step "
	"is caught on its first night (docs/DESIGN.md section 11 has the "
	"numbers). A different file hash, slave count, host set or engine, "
	"or a degraded or aborted run on either side, is listed under "
	"\"changed conditions\", not judged.\n"
	"\n"
	"`--json` (and `compare.json` of a run with `--baseline`) has "
	"`verdict`, `regression`, `test`, `baseline`, `candidate`, "
	"`conditions`, `unmatched`, "
	"`runs[].metrics.<iops|mbps|mean|p50|p95|p99|p999|read_pct>` with "
	"`baseline`, `candidate`, `delta`, `delta_pct`, and for judged "
	"ones `verdict` and `p_value`.\n"
	"\n"
	"# EXIT STATUS\n"
	"0 no regression, 3 regression, 1 bad input (a missing folder, an "
	"unknown id, too few usable runs for `median:N`).\n";

static const char man_keygen[] =
	"# DETAILS\n"
	"A CURVE key pair, like ssh-keygen: `DIR/NAME.key` (secret, mode "
	"0600) and `DIR/NAME.pub` (public). NAME defaults to the host "
	"name; an existing file is never overwritten (exit 1). How the "
	"keys are used: lockstep(1), SECURITY.\n";

static const char man_hosts[] =
	"# DETAILS\n"
	"Checks every `hd=` host without running I/O and prints, per host: "
	"ssh reachable (or `UNREACHABLE:` with ssh's reason), the lockstep "
	"the run would start there (`lockstep=` or the PATH's) and its "
	"version, the kernel, io_uring and its features, the clock offset "
	"to the master (one line's round trip over ssh, ± half of it), and "
	"each sd's target: present, its size, and what target safety would "
	"say (`ok`, `force` or `REFUSED: why`: the host's own `lockstep "
	"probe` applies the slave's rules, lockstep-slave(1)). A host is "
	"ready only when its lockstep printed a `lockstep VERSION` line of "
	"this version (`lockstep=/bin/true` prints none: not ready). "
	"Whatever a host prints (here and for `--push`) is shown as the "
	"master shows any peer's string, control characters as `\\xNN`, so "
	"a host can neither clear the screen nor forge a line. It is the "
	"pre-flight check before a long run.\n"
	"\n"
	"# PUSH\n"
	"`lockstep run FILE --push` copies the master's own executable "
	"over ssh to each host whose copy (at `lockstep=`, or "
	"`~/.cache/lockstep/lockstep-VERSION` without it) is missing or "
	"says another version (eight hosts at a time; the copy goes to a "
	"name `mktemp` makes there and is renamed into place, and removed "
	"if the copy fails), checks that it runs there, then starts it. "
	"`system=` is passed to ssh after `--`, so it is always a host "
	"name, never an option. A host where that fails is named with the "
	"reason and the run does not start, unless `--on-slave-loss "
	"continue` is given, which leaves that host's slaves out (the run "
	"then exits 4, degraded, not 0).\n";

static const char man_nightly[] =
	"# SYNOPSIS\n"
	"`lockstep-nightly FILE [--keep DAYS] [-- run options]`\n"
	"# DESCRIPTION\n"
	"The cron wrapper around `lockstep run FILE --baseline` (installed "
	"by the package beside `lockstep`; `scripts/nightly.sh` in the "
	"source tree). It finds lockstep without a PATH (`LOCKSTEP=`, else "
	"beside itself, else `../build/lockstep`, `/usr/bin`, "
	"`/usr/local/bin`, PATH), takes a `flock` against overlapping "
	"nights, runs FILE into `$LOCKSTEP_OUTPUT/<date>-nightly` (default "
	"`lockstep-output`) with the run's console in `console.log` in its "
	"folder (nothing drawn: the progress line only appears on a "
	"terminal), judges it against the median of the last 7 usable runs "
	"of the file (fewer while the history is young, none the first "
	"night), prints one summary line on stdout and to syslog (`logger "
	"-t lockstep-nightly`), and exits with lockstep's exit code. "
	"`--keep DAYS` removes lockstep's results folders (those with a "
	"`summary.json`) older than DAYS from the output folder; the "
	"history keeps their numbers. Options after `--` are passed to "
	"`lockstep run`.\n"
	"\n"
	"The console is kept whatever happens: when no results folder was "
	"made (lockstep refused the file, or was not found) it is "
	"`OUT/DATE-nightly.console.log`, and the line names that log, "
	"never a folder that does not exist, and says why.\n"
	"\n"
	"How runs are judged and why a regression never becomes the "
	"baseline: lockstep-compare(1); accepting a new level after a "
	"deliberate change (`lockstep history accept last --why TEXT`) and "
	"finding the night a series moved (`lockstep history changes`): "
	"lockstep-history(1).\n"
	"\n"
	"# ENVIRONMENT\n"
	"= LOCKSTEP\n"
	"the lockstep binary to run (a build folder's, say)\n"
	"= LOCKSTEP_OUTPUT\n"
	"the output folder (default `lockstep-output`)\n"
	"= LOCKSTEP_HISTORY\n"
	"the run history (default lockstep's own: "
	"`/var/lib/lockstep/history.db` for root)\n"
	"= LOCKSTEP_NIGHTLY_MEDIAN\n"
	"how many usable runs the baseline is the median of (default 7)\n"
	"= LOCKSTEP_THRESHOLD\n"
	"`--threshold` of the comparison (default lockstep's)\n"
	"\n"
	"# EXIT STATUS\n"
	"lockstep's own: 0 fine, 3 regression, 6 not compared (a baseline "
	"was due but none could be used), 2 aborted, 4 degraded, 5 "
	"incomplete results, 1 bad input or another night still running "
	"(flock); 127 when lockstep was not found.\n"
	"\n"
	"# EXAMPLES\n"
	"```\n"
	"# 02:30 every night; syslog gets every night's line, cron mails "
	"only a bad one\n"
	"30 2 * * * { line=$(LOCKSTEP_OUTPUT=/srv/lockstep/out "
	"/usr/bin/lockstep-nightly /srv/lockstep/nightly.vdb --keep 30) || "
	"echo \"$line\"; }\n"
	"# from a source tree instead: name the binary\n"
	"30 2 * * * { line=$(LOCKSTEP=/src/lockstep/build/lockstep "
	"LOCKSTEP_OUTPUT=/srv/lockstep/out "
	"/src/lockstep/scripts/nightly.sh /srv/lockstep/nightly.vdb) || "
	"echo \"$line\"; }\n"
	"```\n"
	"Ten nights as cron runs them (`env -i PATH=/usr/bin:/bin`; the "
	"`history_nights` test), nights 6, 7 and 9 held to 700 IO/s "
	"instead of 1000 (standing in for slower storage), `lockstep "
	"history accept last --why ...` after night 9:\n"
	"```\n"
	"lockstep nightly night.vdb: ok (exit 0), no baseline yet, results "
	"in .../20261204-203842-nightly\n"
	"lockstep nightly night.vdb: ok (exit 0), noise vs median of 1, "
	"results in .../20261204-203846-nightly\n"
	"...\n"
	"lockstep nightly night.vdb: ok (exit 0), noise vs median of 4, "
	"results in .../20261204-203900-nightly\n"
	"lockstep nightly night.vdb: REGRESSION (exit 3), REGRESSION: r1 "
	"IOPS -26.0% (p<1e-16), r1 MB/s -26.0% (p<1e-16) vs median of 5, "
	"results in .../20261204-203905-nightly\n"
	"lockstep nightly night.vdb: REGRESSION (exit 3), REGRESSION: r1 "
	"IOPS -28.6% (p<1e-16), r1 MB/s -28.6% (p<1e-16) vs median of 5, "
	"results in .../20261204-203909-nightly\n"
	"lockstep nightly night.vdb: ok (exit 0), no change vs median of "
	"5, results in .../20261204-203914-nightly\n"
	"lockstep nightly night.vdb: REGRESSION (exit 3), REGRESSION: r1 "
	"IOPS -28.7% (p<1e-16), r1 MB/s -28.7% (p<1e-16) vs median of 6, "
	"results in .../20261204-203918-nightly\n"
	"lockstep nightly night.vdb: ok (exit 0), noise vs median of 1, "
	"results in .../20261204-203923-nightly\n"
	"```\n"
	"A rate-pinned run repeats itself so closely that the nights' MAD "
	"is tiny and any real change is far outside it: night 8, 4 % below "
	"the median, is real but inside the threshold, `no change`; the "
	"threshold decides what is worth a page. A night lockstep refused, "
	"under cron: `lockstep nightly bad.vdb: failed (exit 1), no "
	"baseline yet; .../bad.vdb:1:52: unknown sd parameter 'bogus', no "
	"results folder, log in .../20261204-203927-nightly.console.log`.\n";

/* What a command's page adds after its options, and what it points to. */
static const struct cmd_page {
	const char *cmd;
	const char *body;
	const char *see;
} cmd_pages[] = {
	{ "run", man_run,
	  "lockstep(1), lockstep-params(5), lockstep-check(1), "
	  "lockstep-slave(1), lockstep-hosts(1), lockstep-report(1), "
	  "lockstep-compare(1), lockstep-nightly(1)" },
	{ "vdbench", man_vdbench,
	  "lockstep(1), lockstep-run(1), lockstep-params(5)" },
	{ "slave", man_slave,
	  "lockstep(1), lockstep-run(1), lockstep-keygen(1)" },
	{ "check", man_check,
	  "lockstep(1), lockstep-params(5), lockstep-run(1)" },
	{ "report", man_report,
	  "lockstep(1), lockstep-run(1), lockstep-compare(1)" },
	{ "history", man_history,
	  "lockstep(1), lockstep-compare(1), lockstep-nightly(1)" },
	{ "compare", man_compare,
	  "lockstep(1), lockstep-history(1), lockstep-nightly(1)" },
	{ "keygen", man_keygen, "lockstep(1), lockstep-slave(1)" },
	{ "hosts", man_hosts,
	  "lockstep(1), lockstep-run(1), lockstep-slave(1)" },
};

#define NCMD_PAGES (sizeof(cmd_pages) / sizeof(cmd_pages[0]))

static const struct cmd_page *cmd_page(const char *cmd)
{
	for (size_t i = 0; i < NCMD_PAGES; i++)
		if (strcmp(cmd_pages[i].cmd, cmd) == 0)
			return &cmd_pages[i];
	return NULL;
}

/* .TH and NAME: "lockstep-run \- summary". */
static int head(const char *name, int section, const char *summary)
{
	char upper[64];
	size_t i;

	for (i = 0; name[i] && i + 1 < sizeof(upper); i++)
		upper[i] = (char)(name[i] >= 'a' && name[i] <= 'z' ?
					  name[i] - 'a' + 'A' :
					  name[i]);
	upper[i] = '\0';
	/* Left-adjusted, unhyphenated: long code words are neither spread nor cut. */
	printf(".TH %s %d \"\" \"lockstep %s\" \"%s\"\n.ad l\n.nh\n.SH NAME\n",
	       upper, section, LOCKSTEP_VERSION,
	       section == 5 ? "File Formats" : "User Commands");
	if (man_text(stdout, name))
		return -1;
	fputs(" \\- ", stdout);
	if (man_text(stdout, summary))
		return -1;
	fputs("\n", stdout);
	return 0;
}

static int see_also(const char *see)
{
	fputs(".SH SEE ALSO\n", stdout);
	if (man_text(stdout, see))
		return -1;
	fputs("\n", stdout);
	return 0;
}

/* lockstep(1): what it is, the commands (main.c's table), the rest. */
static int page_lockstep(const struct command *cmds, size_t n)
{
	int ret = head("lockstep", 1, "distributed storage load generator");

	if (!ret) {
		fputs(".SH SYNOPSIS\n.B lockstep\n.I COMMAND\n[options]\n",
		      stdout);
		ret = man_markup(stdout, man_lockstep);
	}
	if (!ret)
		ret = man_markup(stdout, "# COMMANDS\n");
	for (size_t i = 0; i < n && !ret; i++) {
		char buf[512];

		if (!cmds[i].summary)
			continue;
		snprintf(buf, sizeof(buf), "= `lockstep %s%s%s`\n%s%s%s%s\n",
			 cmds[i].name, *cmds[i].args ? " " : "", cmds[i].args,
			 cmds[i].summary,
			 cmd_page(cmds[i].name) ? "; lockstep-" : "",
			 cmd_page(cmds[i].name) ? cmds[i].name : "",
			 cmd_page(cmds[i].name) ? "(1)" : "");
		ret = man_markup(stdout, buf);
	}
	if (!ret)
		ret = man_markup(stdout,
				 "= `lockstep-nightly FILE [--keep DAYS]`\n"
				 "the cron recipe: a run judged against its "
				 "history; lockstep-nightly(1)\n");
	if (!ret)
		ret = man_markup(stdout, man_lockstep_body);
	if (!ret) {
		char see[1024];
		size_t used = 0;

		for (size_t i = 0; i < NCMD_PAGES; i++)
			used += (size_t)snprintf(see + used, sizeof(see) - used,
						 "lockstep-%s(1), ",
						 cmd_pages[i].cmd);
		snprintf(see + used, sizeof(see) - used,
			 "lockstep-nightly(1), lockstep-params(5); README.md "
			 "and DESIGN.md in /usr/share/doc/lockstep");
		ret = see_also(see);
	}
	return ret;
}

/* lockstep-CMD(1): the command's --help in roff, then its narrative. */
static int page_command(const struct command *c, const struct cmd_page *p)
{
	char name[64];
	char *av[] = { (char *)c->name, "--help", NULL };
	int ret;

	snprintf(name, sizeof(name), "lockstep-%s", c->name);
	ret = head(name, 1, c->summary);
	if (ret)
		return ret;
	fflush(stdout);
	opts_set_format(OPTS_ROFF);
	ret = c->fn(2, av) == 0 ? 0 : -1;
	opts_set_format(OPTS_TEXT);
	fflush(stdout);
	if (!ret)
		ret = man_markup(stdout, p->body);
	if (!ret)
		ret = see_also(p->see);
	return ret;
}

static int page_params(void)
{
	int ret = head("lockstep-params", 5,
		       "the parameter-file language of lockstep run");

	if (!ret)
		ret = params_manual(stdout);
	if (!ret)
		ret = see_also(
			"lockstep(1), lockstep-run(1), lockstep-check(1), "
			"lockstep-slave(1); Vdbench's own manual for "
			"the keywords' history");
	return ret;
}

static int page_nightly(void)
{
	int ret = head("lockstep-nightly", 1,
		       "a nightly lockstep run judged against its history");

	if (!ret)
		ret = man_markup(stdout, man_nightly);
	if (!ret)
		ret = see_also(
			"lockstep(1), lockstep-run(1), lockstep-compare(1), "
			"lockstep-history(1), cron(8)");
	return ret;
}

/* The pages' file names, one a line: what the build writes. */
static void list_pages(const struct command *cmds, size_t n)
{
	printf("lockstep.1\n");
	for (size_t i = 0; i < n; i++)
		if (cmds[i].summary && cmd_page(cmds[i].name))
			printf("lockstep-%s.1\n", cmds[i].name);
	printf("lockstep-nightly.1\nlockstep-params.5\n");
}

int man_main(const char *page, const struct command *cmds, size_t n)
{
	char name[64];
	size_t len;

	if (!page)
		page = "lockstep";
	if (strcmp(page, "--list") == 0) {
		list_pages(cmds, n);
		return 0;
	}
	/* "lockstep-run.1", "lockstep-run" and "run" are one page. */
	snprintf(name, sizeof(name), "%s",
		 strncmp(page, "lockstep-", 9) == 0 ? page + 9 : page);
	len = strlen(name);
	if (len > 2 && name[len - 2] == '.' &&
	    (name[len - 1] == '1' || name[len - 1] == '5'))
		name[len - 2] = '\0';
	if (strcmp(name, "lockstep") == 0)
		return page_lockstep(cmds, n) ? 1 : 0;
	if (strcmp(name, "params") == 0)
		return page_params() ? 1 : 0;
	if (strcmp(name, "nightly") == 0)
		return page_nightly() ? 1 : 0;
	for (size_t i = 0; i < n; i++)
		if (cmds[i].summary && strcmp(cmds[i].name, name) == 0 &&
		    cmd_page(name))
			return page_command(&cmds[i], cmd_page(name)) ? 1 : 0;
	fprintf(stderr,
		"lockstep help: no manual page '%s' (lockstep help --man --list)\n",
		page);
	return 1;
}
