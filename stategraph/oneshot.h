/*
 * oneshot.h - one execution path, as `ordex run` and `ordex replay` take it:
 * the program loaded from a run description, run until it ends, gets stuck
 * or fails, and concluded (deadlock and leftover checks).
 *
 * The one-path strategy: whenever no rank can run, fire one enabled event
 * (the first posted, or a random one with a seed).  A replay (replay.h)
 * fires the trace's events instead, between sg_oneshot_begin and
 * sg_oneshot_conclude.
 */
#ifndef ORDEX_SG_ONESHOT_H
#define ORDEX_SG_ONESHOT_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "scheduler/sched.h"
#include "stategraph/rundesc.h"

typedef struct sg_oneshot_result {
    GPtrArray *findings; /* sim_finding *, the simulator's: valid until sg_oneshot_end */
    uint64_t events;     /* events fired */
    uint64_t messages;   /* messages delivered */
    uint64_t switches;   /* context switches */
    double predicted_s;  /* the simple clock's run time */
} sg_oneshot_result;

/* Loads d's program and creates its simulator.  False with *why set
 * (g_free) when the program cannot be loaded; nothing is left to end then. */
bool sg_oneshot_begin(const sg_rundesc *d, char **why);

/* Runs the loaded program along the one-path strategy (seed 0: the first
 * posted event; otherwise random, reproducibly per seed); counts events. */
sched_run_result sg_oneshot_run(uint64_t seed, uint64_t *events);

/* After a run that ended with `end`: the deadlock and leftover checks (not
 * when it was stopped), rank output flushed, and *r filled. */
void sg_oneshot_conclude(sched_run_result end, sg_oneshot_result *r);

/* What rank `rank` is doing, one line (g_free): its pending MPI call with
 * arguments and file:line, or how it ended. */
char *sg_oneshot_describe_rank(int rank);

/* Destroys the simulator and unloads the program. */
void sg_oneshot_end(void);

#endif
