/*
 * outcome_diff.h - what differs between the outcomes of two orderings.
 *
 * During an exploration an ordering's outcome is only a hash (outcomes.h):
 * every rank's exit, the hash of its standard output and the values it
 * registered with ordex_observe.  To show a message race, the two orderings
 * of the pair are replayed (a replay of an explored ordering is exact,
 * replay.h), each in a child process, and what they produced is compared.
 */
#ifndef ORDEX_SG_OUTCOME_DIFF_H
#define ORDEX_SG_OUTCOME_DIFF_H

#include <glib.h>
#include <stdbool.h>

#include "stategraph/rundesc.h"

/* One rank at the end of an ordering. */
typedef struct sg_rank_end {
    int state;         /* sched_state: SCHED_DONE, or how it did not end */
    int exit_code;     /* when SCHED_DONE */
    GString *out;      /* everything it wrote to stdout */
    GPtrArray *names;  /* char *: values registered with ordex_observe, in order */
    GPtrArray *values; /* GBytes *: their bytes, as the outcome took them */
} sg_rank_end;

/* Everything an ordering's outcome consists of. */
typedef struct sg_path_outcome {
    int nranks;
    sg_rank_end *ranks;
} sg_path_outcome;

/* Replays `path` (sg_step, an ordering explored under `run`: its send mode
 * set for the pass) in a child process and fills *out.  False with *err
 * set (g_free) when the ordering cannot be replayed; the child then ended
 * anyway.  The child dies with the calling process. */
bool sg_path_outcome_of(const sg_rundesc *run, GArray *path, sg_path_outcome *out, char **err);
void sg_path_outcome_clear(sg_path_outcome *o);

/* Ends the replay under way, if any, and makes later calls of
 * sg_path_outcome_of fail at once ("ordex was interrupted").
 * Async-signal-safe, for a SIGINT/SIGTERM handler. */
void sg_path_outcome_interrupt(void);

typedef enum sg_diff_kind {
    SG_DIFF_END,      /* how the rank ended */
    SG_DIFF_OUTPUT,   /* a line of its standard output */
    SG_DIFF_OBSERVED, /* a value registered with ordex_observe */
} sg_diff_kind;

/* One difference, per rank and kind: the first differing line of a rank's
 * output (and how many others differ), the first differing observed value,
 * or the rank's ends.  a and b say what each ordering had, as people read
 * it; NULL when that ordering has no such line or value. */
typedef struct sg_outcome_diff {
    sg_diff_kind kind;
    int rank;
    int line;   /* SG_DIFF_OUTPUT: 1-based line number */
    int more;   /* SG_DIFF_OUTPUT: further lines of this rank that differ */
    char *name; /* SG_DIFF_OBSERVED: the value's name */
    char *a, *b;
} sg_outcome_diff;

/* The differences between a and b (sg_outcome_diff), by rank; empty when
 * they are equal.  Free with sg_outcome_diffs_free. */
GArray *sg_outcome_diffs(const sg_path_outcome *a, const sg_path_outcome *b);
void sg_outcome_diffs_free(GArray *diffs);

#endif
