/*
 * cpumodel.h - event-driven model of the ranks' computation on shared nodes.
 *
 * A rank that computes `work` seconds (CPU time measured on this machine, or
 * declared by ordex_compute) is a job on its node.  The jobs running on a
 * node share its cores as a processor-sharing server: with n jobs on c cores
 * every job progresses at
 *
 *     rate = speed * min(1, c / n)      (work seconds per wall second)
 *
 * where speed is the platform's speed factor (2 = the simulated cores are
 * twice as fast as this machine's).  A job alone on a core takes
 * work / speed; two jobs on one core each take twice as long.  Rates change
 * only when a job starts or finishes on that node, and are recomputed
 * exactly then (no time step), so converting compute seconds to wall
 * seconds over an interval where the number of runnable ranks changes is
 * just running the events.  Ranks that wait in MPI by polling (as MPICH's
 * and Open MPI's do) take a core without doing work: they are "pollers",
 * counted in n but never finishing; a rank that waits by sleeping is not
 * counted at all.
 *
 * Driving it mirrors netmodel.h: pm_cpu_start at non-decreasing times,
 * pm_cpu_next for the first job to finish if nothing else starts,
 * pm_cpu_advance to move the clock and collect finished jobs (completions
 * that fall before a later start are kept and returned by the next advance,
 * with their own times).  A start costs O(log jobs on its node + log
 * nodes), as does each finish an advance passes; pm_cpu_next is O(1) and
 * the accessors below are O(1).  Not thread-safe.
 */
#ifndef ORDEX_PM_CPUMODEL_H
#define ORDEX_PM_CPUMODEL_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct pm_cpu pm_cpu;

/* A finished job, as pm_cpu_advance reports it. */
typedef struct pm_cpu_completion {
    uint64_t id;
    double time;
} pm_cpu_completion;

/* The per-job progress rate of a node with `runnable` jobs on `cores` cores
 * (runnable >= 0, cores >= 1, speed > 0); with no job it is `speed`. */
double pm_cpu_share(int runnable, int cores, double speed);

/* nodes >= 1 nodes of cores_per_node >= 1 cores each, speed > 0. */
pm_cpu *pm_cpu_new(int nodes, int cores_per_node, double speed);
void pm_cpu_free(pm_cpu *cpu);

/* A job of `work` (>= 0) seconds starts on `node` at `time` (>= pm_cpu_now).
 * Returns its id (> 0), or 0 when a contract is broken.  A job of no work
 * finishes at `time`. */
uint64_t pm_cpu_start(pm_cpu *cpu, double time, int node, double work);

/* The job that finishes first if nothing more starts, and when (the lowest
 * id on a tie).  False when no job is running. */
bool pm_cpu_next(pm_cpu *cpu, uint64_t *id, double *time);

/* Moves the clock to `time` (finite, >= pm_cpu_now) and appends every job finished
 * at or before it to `done` (a GArray of pm_cpu_completion), in completion
 * order.  Returns how many it appended. */
int pm_cpu_advance(pm_cpu *cpu, double time, GArray *done);

double pm_cpu_now(const pm_cpu *cpu);

/* From `time` (>= pm_cpu_now) on, `pollers` (>= 0) ranks of `node` poll:
 * they share its cores with the jobs (see above).  False when a contract
 * is broken.  Moves the clock as pm_cpu_start does. */
bool pm_cpu_set_pollers(pm_cpu *cpu, double time, int node, int pollers);
int pm_cpu_pollers(const pm_cpu *cpu, int node);

/* Jobs running on a node now (as of the last start or advance); pollers
 * not included. */
int pm_cpu_runnable(const pm_cpu *cpu, int node);

/* The rate at which each job on `node` progresses now. */
double pm_cpu_rate(const pm_cpu *cpu, int node);

/* Wall seconds during which the node had at least one job, and work seconds
 * done on it, up to pm_cpu_now: for utilisation reports. */
double pm_cpu_busy(const pm_cpu *cpu, int node);
double pm_cpu_work_done(const pm_cpu *cpu, int node);

#endif
