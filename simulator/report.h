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
void sim_report_leftovers(void);

#endif
