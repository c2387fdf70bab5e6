/*
 * report.h - findings about ranks: faults, deadlocks, leftovers.
 */
#ifndef ORDEX_SIM_REPORT_H
#define ORDEX_SIM_REPORT_H

#include "scheduler/sched.h"
#include "simulator/sim.h"

typedef struct sim_request sim_request;

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
/* At the end of a complete run: messages never received, requests never
 * completed, RMA left in progress, and the leaks of ranks that finalized
 * (held.h). */
void sim_report_leftovers(void);

/* "rank 3", "ranks 0-3", "ranks 0, 2, 5-7" (at most 8 runs, then "...
 * (N ranks)") for n distinct world ranks in ascending order (g_free). */
char *sim_ranks_text(const int *ranks, int n);

/* MPI_Request_free of req, an active request of the calling rank (legal,
 * but the program can no longer learn when the operation completes): a
 * warning finding (SIM_F_ACTIVE_FREED) at the MPI_Request_free, one per
 * pair of call sites, naming every rank that did it. */
void sim_report_active_freed(const sim_request *req);

/* Set-up and teardown of the report module's own state (sim_create). */
void sim_report_init(void);
void sim_report_fini(void);

#endif
