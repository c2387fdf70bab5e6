/*
 * report.h - findings about ranks: faults, deadlocks, leftovers.
 */
#ifndef ORDEX_SIM_REPORT_H
#define ORDEX_SIM_REPORT_H

#include "scheduler/sched.h"
#include "simulator/sim.h"

/* Records a finding (takes message and details). */
sim_finding *sim_add_finding(sim_finding_kind kind, const int *ranks, int nranks,
                             const char *location, char *message, char *details);

/* The program's frames of the running rank's stack, formatted for details. */
char *sim_report_backtrace_here(void);

void sim_report_fault(int rank, const sched_fault *fault);
void sim_report_deadlock(void);

/* A livelock of the n ranks blocked in polls that cannot succeed while
 * nothing else can happen (see sim_events_release_pollers): `repeated` when
 * the same state came back, else after `seconds` and `releases` polls. */
void sim_report_poll_livelock(const int *pollers, int n, bool repeated, double seconds,
                              uint64_t releases);
void sim_report_leftovers(void);

#endif
