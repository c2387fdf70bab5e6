/*
 * replay.h - re-running one recorded ordering exactly.
 *
 * The program runs like `ordex run`, but whenever no rank can run, the event
 * fired is the trace's next step (matched by kind, ranks, tag and
 * communicator), and choices inside MPI calls take the recorded alternative.
 * A step whose event is not enabled means the program no longer behaves as
 * when the trace was made (it reads the clock, a random seed, a file...): the
 * replay stops there and says so.
 */
#ifndef ORDEX_SG_REPLAY_H
#define ORDEX_SG_REPLAY_H

#include <stdbool.h>

#include "scheduler/sched.h"
#include "stategraph/trace.h"

typedef struct sg_replay {
    const sg_trace *trace;
    int stop_at;      /* stop before firing this step (1-based); 0 = run to the end */
    unsigned pos;     /* steps fired so far */
    char *divergence; /* why the replay left the trace, or NULL */
    bool stopped;     /* stopped at stop_at */
} sg_replay;

/* Runs the loaded program along the trace (sg_oneshot_begin done). */
sched_run_result sg_replay_run(sg_replay *r);

/* The same run under gdb (`ordex replay --gdb-inferior`, with every rank a
 * thread): stops in ordex_gdb_stop before every step, once more when the
 * trace is used up, and at the end of the run (before the report), where
 * every rank can still be looked at.  tools/gdb/ordex.py keeps a breakpoint
 * there and reads the state through the exported ordex_gdb_* functions
 * (replay_gdb.c, cli/exports.lds). */
sched_run_result sg_replay_stepwise(sg_replay *r);

#endif
