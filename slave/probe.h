/*
 * `lockstep probe [MODE:PATH...]`, the remote half of `lockstep hosts`
 * (probe.c): prints "io_uring\tyes|no\tFEATURES|REASON", "cores\tN" (the
 * online CPUs; -1 unknown) and, per target,
 * "target\tPATH\tKIND\tBYTES\tok|force|refused\tREASON". MODE is r or w
 * (the run writes), with f for force=yes ("wf:/dev/sdb"). Reads only.
 */
#ifndef LOCKSTEP_SLAVE_PROBE_H
#define LOCKSTEP_SLAVE_PROBE_H

int probe_main(int argc, char **argv);

#endif
